"""Benchmark: the real backends on this machine, and what a real partition costs.

Prints, per backend configuration, build() time and compute() latency (median) of a small CNN,
and the ratio to ONNX Runtime CPU measured in the same run (no pass/fail: shared, noisy machines):
  - ONNX Runtime CPU, OpenVINO CPU, the numpy reference (whole graph on one backend);
  - OpenVINO + ONNX Runtime partition: OpenVINO is declared without softmax
    (src/webnn_bridge/policy/fixtures/openvino-ort-cpu.json) and preferred, so the graph runs in three segments
    with tensors handed between the two runtimes.

Run: .venv/bin/python benchmarks/bench_backends.py [--iters 200] [--size 56]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from webnn_bridge.bridge.api import ML, MLGraphBuilder
from webnn_bridge.policy import engine
from webnn_bridge.policy.inventory import load_profile, probe_inventory

OV_FIRST = '[backends]\norder = ["openvino", "onnxruntime", "reference"]\n[build]\nprefer = "preferred-device"\n'


def cnn(ctx, size: int):
    rng = np.random.default_rng(0)
    b = MLGraphBuilder(ctx)
    x = b.input("x", {"dataType": "float32", "shape": [1, 8, size, size]})
    for _ in range(3):
        w = b.constant({"dataType": "float32", "shape": [8, 8, 3, 3]}, rng.standard_normal((8, 8, 3, 3), np.float32))
        x = b.relu(b.conv2d(x, w, {"padding": [1, 1, 1, 1]}))
    s = b.softmax(b.reshape(x, [8, size * size]), 1)
    y = b.reshape(s, [1, 8, size, size])
    w = b.constant({"dataType": "float32", "shape": [4, 8, 1, 1]}, rng.standard_normal((4, 8, 1, 1), np.float32))
    return b.build({"y": b.conv2d(y, w)})


def measure(ml: ML, size: int, iters: int) -> tuple[float, float, list[str]]:
    ctx = ml.createContext()
    t0 = time.perf_counter()
    graph = cnn(ctx, size)
    build_ms = (time.perf_counter() - t0) * 1e3
    x = {"x": np.random.default_rng(1).standard_normal((1, 8, size, size), np.float32)}
    ctx.compute(graph, x)  # warm-up
    times = []
    for _ in range(iters):
        t = time.perf_counter()
        ctx.compute(graph, x)
        times.append((time.perf_counter() - t) * 1e3)
    segments = [d for d, _ in graph.placement.partitions()]
    graph.destroy()
    return build_ms, statistics.median(times), segments


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iters", type=int, default=200)
    ap.add_argument("--size", type=int, default=56)
    args = ap.parse_args(argv)
    probed = {d.id: d for d in probe_inventory()}
    configs = [("ONNX Runtime CPU", ML([probed["onnxruntime:CPUExecutionProvider"]]))]
    if "openvino:CPU" in probed:
        with tempfile.TemporaryDirectory() as tmp:
            rules = Path(tmp) / "rules.toml"
            rules.write_text(OV_FIRST)
            configs += [("OpenVINO CPU", ML([probed["openvino:CPU"]])),
                        ("OpenVINO + ORT partition", ML(load_profile("openvino-ort-cpu"), rules=engine.load_rules(rules)))]
    else:
        print("OpenVINO is not installed: its rows are left out")
    configs.append(("numpy reference", ML([probed["reference:cpu"]])))
    print(f"CNN 1x8x{args.size}x{args.size}, {args.iters} iterations (median compute)")
    print(f"{'configuration':28} {'build ms':>9} {'compute ms':>11} {'vs ORT':>7}  segments")
    base = None
    for title, ml in configs:
        build_ms, ms, segs = measure(ml, args.size, args.iters if "reference" not in title else max(5, args.iters // 20))
        base = base or ms
        print(f"{title:28} {build_ms:9.1f} {ms:11.3f} {ms / base:7.2f}  {' | '.join(segs)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
