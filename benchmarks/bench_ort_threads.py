"""Single-graph inference on MobileNetV2 (weights from ../shared/data) under three ORT threading
setups, and the CPU time the process burns in the 50 ms after each run (spinning pool threads):

  host         the host's options for a big graph: a per-session pool that stops spinning when a
               run ends (session.force_spinning_stop);
  global       ORT's process-wide pools (the host's former setup): their threads spin on after runs;
  per-session  ORT's defaults (a per-session pool that spins on after runs).

    PYTHONPATH=. python benchmarks/bench_ort_threads.py [--rounds 6] [--runs 50]

One process cannot hold both kinds of session (ORT refuses per-session pools once global ones
exist), so each round runs one subprocess per mode, alternately; prints medians and ratios.
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
MODES = ("host", "global", "per-session")
IDLE_S = 0.05


def options(mode: str):
    import onnxruntime as ort

    from webnn_bridge.backends.onnxruntime import session_options

    if mode == "host":
        return session_options(pooled=True)
    opts = ort.SessionOptions()
    opts.log_severity_level = 3
    if mode == "global":
        from onnxruntime.capi import _pybind_state

        _pybind_state.set_global_thread_pool_sizes(0, 0)
        opts.use_per_session_threads = False
    return opts


def measure(mode: str, runs: int) -> dict[str, list[float]]:
    import onnxruntime as ort

    from tests.models import mobilenet_data as md

    model = md.build_onnx_model(md.load_weights()).SerializeToString()
    x = md.preprocess()
    s = ort.InferenceSession(model, options(mode), providers=["CPUExecutionProvider"])
    feed = {s.get_inputs()[0].name: x}
    for _ in range(5):
        s.run(None, feed)
    times, burnt = [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        s.run(None, feed)
        times.append((time.perf_counter() - t0) * 1000)
        c0 = time.process_time()
        time.sleep(IDLE_S)
        burnt.append((time.process_time() - c0) * 1000)
    return {"times": times, "burnt": burnt}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=6)
    p.add_argument("--runs", type=int, default=50)
    p.add_argument("--child", choices=MODES, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        print(json.dumps(measure(args.child, args.runs)))
        return 0
    times: dict[str, list[float]] = {m: [] for m in MODES}
    burnt: dict[str, list[float]] = {m: [] for m in MODES}
    for _ in range(args.rounds):
        for mode in MODES:
            out = subprocess.run([sys.executable, __file__, "--child", mode, "--runs", str(args.runs)],
                                 capture_output=True, text=True, check=True, cwd=ROOT)
            r = json.loads(out.stdout)
            times[mode].append(statistics.median(r["times"]))
            burnt[mode].append(statistics.median(r["burnt"]))
    for mode in MODES:
        print(f"{mode:12} run: median of {args.rounds} round medians {statistics.median(times[mode]):7.2f} ms "
              f"(rounds: {', '.join(f'{m:.1f}' for m in times[mode])}); CPU burnt in the "
              f"{IDLE_S * 1000:.0f} ms after a run {statistics.median(burnt[mode]):5.1f} ms")
    for mode in MODES[1:]:
        print(f"host / {mode}: {statistics.median(times['host']) / statistics.median(times[mode]):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
