"""Benchmark: what the browser round trip costs, against the same work in-process.

Prints numbers and ratios (no pass/fail: these machines are shared and noisy):
  - builder: milliseconds per operator call in the page vs the in-process Python builder, cold
    (each call a synchronous validation request to the host) and warm (repeated calls, answered
    from the shim's cache of host answers);
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

from bridge.api import ML, MLGraphBuilder
from bridge.embed import CHROMIUM, CHROMIUM_ARGS, start_host

PAGE = "<!doctype html><meta charset=utf-8><title>bench</title><p>bench</p>"

# cold: every call distinct (a label per op), so each one is a synchronous request to the host;
# warm: the same call repeated, answered from the shim's cache of host answers
BUILDER_JS = """async ([n, cold]) => {
  const ctx = await navigator.ml.createContext();
  const b = new MLGraphBuilder(ctx);
  let x = b.input('x', {dataType: 'float32', shape: [4]});
  const t0 = performance.now();
  for (let i = 0; i < n; i++) x = b.add(x, x, cold ? {label: 'op' + i} : {});
  return performance.now() - t0;
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
    args = p.parse_args()
    rng = np.random.default_rng(0)
    w1 = rng.standard_normal((64, 128)).astype(np.float32)
    w2 = rng.standard_normal((128, 10)).astype(np.float32)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as d:
        Path(d, "index.html").write_text(PAGE)
        host = start_host(app_dir=Path(d))
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                page = browser.new_page()
                page.goto(f"{host.url}/index.html")
                page_cold = page.evaluate(BUILDER_JS, [args.ops, True])
                page_warm = page.evaluate(BUILDER_JS, [args.ops, False])
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
              f"   ratio {ms / py_builder:6.1f}x   ({name}: {'a request per call' if name == 'cold' else 'cached answers'})")
    print(f"dispatch  page {page_dispatch / args.iters:8.3f} ms/iter in-process {py_dispatch / args.iters:8.3f} ms/iter"
          f"   ratio {page_dispatch / py_dispatch:6.1f}x   (write + dispatch + read vs compute)")
    print(f"transfer  page {2 * mib / (page_transfer / 1000):8.1f} MiB/s ({mib:.0f} MiB written and read back in "
          f"{page_transfer:.1f} ms)")


if __name__ == "__main__":
    main()
