"""Single-graph inference with ORT's shared (global) thread pools, as the host compiles graphs,
against per-session pools (ORT's default), on MobileNetV2 (weights from ../shared/data).

    PYTHONPATH=. python benchmarks/bench_ort_threads.py [--rounds 6] [--runs 50]

One process cannot hold both kinds of session (ORT refuses per-session pools once global ones
exist), so each round runs one subprocess per mode, alternately; prints medians and the ratio.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def measure(mode: str, runs: int) -> list[float]:
    import onnxruntime as ort

    from tests.models import mobilenet_data as md

    model = md.build_onnx_model(md.load_weights()).SerializeToString()
    x = md.preprocess()
    if mode == "shared":
        from webnn_bridge.backends.onnxruntime import session_options

        opts = session_options()
    else:
        opts = ort.SessionOptions()
        opts.log_severity_level = 3
    s = ort.InferenceSession(model, opts, providers=["CPUExecutionProvider"])
    feed = {s.get_inputs()[0].name: x}
    for _ in range(5):
        s.run(None, feed)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        s.run(None, feed)
        times.append((time.perf_counter() - t0) * 1000)
    return times


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=6)
    p.add_argument("--runs", type=int, default=50)
    p.add_argument("--child", choices=["shared", "per-session"], help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        print(json.dumps(measure(args.child, args.runs)))
        return 0
    results: dict[str, list[float]] = {"per-session": [], "shared": []}
    for _ in range(args.rounds):
        for mode in results:
            out = subprocess.run([sys.executable, __file__, "--child", mode, "--runs", str(args.runs)],
                                 capture_output=True, text=True, check=True, cwd=ROOT)
            results[mode].append(statistics.median(json.loads(out.stdout)))
    for mode, medians in results.items():
        print(f"{mode:12} median of {args.rounds} round medians: {statistics.median(medians):7.2f} ms "
              f"(rounds: {', '.join(f'{m:.1f}' for m in medians)})")
    ratio = statistics.median(results["shared"]) / statistics.median(results["per-session"])
    print(f"shared / per-session: {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
