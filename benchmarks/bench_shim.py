"""Benchmark: what the browser round trip costs, against the same work in-process.

Prints numbers and ratios (no pass/fail: these machines are shared and noisy):
  - builder: milliseconds per operator call in the page vs the in-process Python builder, cold
    (every call distinct) and warm (the same call repeated); the page runs the op rules itself
    (generated from the Python rules), with no request to the host;
  - builder mix: the median cost of one distinct builder call in the page over a mix of ops
    (conv2d, clamp, add, reshape, transpose, matmul, softmax, pools, concat, gemm, split, reduce,
    relu, slice) and input() calls, timed in blocks (the page's clock is coarse);
  - dispatch: writeTensor + dispatch + readTensor of a small MLP through the shim vs
    MLContext.compute() in-process, per iteration;
  - transfer: MB/s of a 16 MiB float32 tensor written and read back through the shim.

Run: .venv/bin/python benchmarks/bench_shim.py [--ops 300] [--iters 200]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np
from bench_webnn import TINY_JS, TRANSFER_JS  # this directory: the page code both benchmarks run

from webnn_bridge.bridge.api import ML, MLGraphBuilder
from webnn_bridge.bridge.embed import CHROMIUM, CHROMIUM_ARGS, start_host

PAGE = "<!doctype html><meta charset=utf-8><title>bench</title><p>bench</p>"

# cold: every call distinct (a label per op); warm: the same call repeated
BUILDER_JS = """async ([n, cold]) => {
  const ctx = await navigator.ml.createContext();
  const b = new MLGraphBuilder(ctx);
  let x = b.input('x', {dataType: 'float32', shape: [4]});
  const t0 = performance.now();
  for (let i = 0; i < n; i++) x = b.add(x, x, cold ? {label: 'op' + i} : {});
  return performance.now() - t0;
}"""

# blocks of distinct calls (labels and input names differ per block); per block: ms per call
BUILDER_MIX_JS = """async (blocks) => {
  const ctx = await navigator.ml.createContext();
  const b = new MLGraphBuilder(ctx);
  const f32 = (shape) => ({dataType: 'float32', shape});
  let x = b.input('x', f32([1, 8, 16, 16]));
  const w = b.input('w', f32([8, 8, 3, 3]));
  const bias = b.input('bias', f32([8]));
  const per = [];
  for (let k = 0; k < blocks; k++) {
    const L = (n, o) => Object.assign({label: `b${k}.${n}`}, o || {});
    const t0 = performance.now();
    x = b.conv2d(x, w, L(0, {padding: [1, 1, 1, 1], bias}));
    x = b.clamp(x, L(1, {minValue: 0, maxValue: 6}));
    const y = b.add(x, x, L(2));
    const t = b.transpose(b.reshape(y, [1, 8, 256], L(3)), L(4, {permutation: [0, 2, 1]}));
    const m = b.matmul(t, b.input(`m${k}`, f32([8, 8])), L(5));
    b.softmax(m, 2, L(6));
    const p = b.averagePool2d(x, L(7, {windowDimensions: [2, 2], strides: [2, 2]}));
    b.concat([p, b.maxPool2d(x, L(8, {windowDimensions: [2, 2], strides: [2, 2]}))], 1, L(9));
    b.gemm(b.input(`g${k}`, f32([4, 8])), b.input(`h${k}`, f32([8, 4])), L(10, {alpha: 1 + k}));
    b.split(y, 2, L(11, {axis: 1}));
    b.reduceMean(y, L(12, {axes: [2, 3]}));
    b.relu(y, L(13));
    b.slice(y, [0, 0, 0, 0], [1, 4, 8, 8], L(14));
    per.push((performance.now() - t0) / 18);  // 15 operator calls + 3 input() calls
  }
  per.sort((a, c) => a - c);
  return per[Math.floor(per.length / 2)];
}"""

def in_process_builder(n: int) -> float:
    ctx = ML().createContext()
    b = MLGraphBuilder(ctx)
    x = b.input("x", {"dataType": "float32", "shape": [4]})
    t0 = time.perf_counter()
    for _ in range(n):
        x = b.add(x, x)
    return (time.perf_counter() - t0) * 1000


def in_process_dispatch(iters: int, w1: np.ndarray, w2: np.ndarray) -> float:
    ctx = ML().createContext()
    b = MLGraphBuilder(ctx)
    x = b.input("x", {"dataType": "float32", "shape": [1, 64]})
    h = b.relu(b.matmul(x, b.constant({"dataType": "float32", "shape": [64, 128]}, w1.tobytes())))
    y = b.softmax(b.matmul(h, b.constant({"dataType": "float32", "shape": [128, 10]}, w2.tobytes())), 1)
    g = b.build({"y": y})
    feed = {"x": np.full((1, 64), 0.5, np.float32)}
    t0 = time.perf_counter()
    for _ in range(iters):
        ctx.compute(g, feed)
    return (time.perf_counter() - t0) * 1000


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--ops", type=int, default=300)
    p.add_argument("--iters", type=int, default=200)
    p.add_argument("--blocks", type=int, default=100, help="blocks of 18 distinct builder calls (builder mix)")
    args = p.parse_args()
    rng = np.random.default_rng(0)
    w1 = rng.standard_normal((64, 128)).astype(np.float32)
    w2 = rng.standard_normal((128, 10)).astype(np.float32)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as d:
        Path(d, "index.html").write_text(PAGE)
        host = start_host(own_process=True, app_dir=Path(d))
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                page = browser.new_page()
                page.goto(f"{host.url}/index.html")
                page_cold = page.evaluate(BUILDER_JS, [args.ops, True])
                page_warm = page.evaluate(BUILDER_JS, [args.ops, False])
                page_mix = page.evaluate(BUILDER_MIX_JS, args.blocks)
                page_dispatch = sum(page.evaluate(TINY_JS, [args.iters, w1.ravel().tolist(), w2.ravel().tolist()]))
                n = 4 * 1024 * 1024
                page_transfer = min(page.evaluate(TRANSFER_JS, [n, 3]))
                browser.close()
        finally:
            host.stop()
    py_builder = in_process_builder(args.ops)
    py_dispatch = in_process_dispatch(args.iters, w1, w2)
    mib = 4 * n / 2**20
    for name, ms in (("cold", page_cold), ("warm", page_warm)):
        print(f"builder   page {ms / args.ops:8.3f} ms/op   in-process {py_builder / args.ops:8.3f} ms/op"
              f"   ratio {ms / py_builder:6.1f}x   ({name}: {'distinct calls' if name == 'cold' else 'one call repeated'})")
    print(f"builder   page {page_mix:8.3f} ms median per distinct builder call (mix of 15 ops + input(); target <= 0.2)")
    print(f"dispatch  page {page_dispatch / args.iters:8.3f} ms/iter in-process {py_dispatch / args.iters:8.3f} ms/iter"
          f"   ratio {page_dispatch / py_dispatch:6.1f}x   (write + dispatch + read vs compute)")
    print(f"transfer  page {2 * mib / (page_transfer / 1000):8.1f} MiB/s ({mib:.0f} MiB written and read back in "
          f"{page_transfer:.1f} ms)")


if __name__ == "__main__":
    main()
