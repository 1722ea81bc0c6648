"""Every ONNX backend node test with float32 outputs that in-process ONNX Runtime runs correctly,
through onnxruntime-web's WebNN EP on ours (the CI test, e2e/test_ortweb_node.py, runs a subset).
Prints the counts per outcome (pass, mismatch, error, hung) and the cases that did not pass.

Run (from the repository root; onnxruntime-web from scripts/install_ortweb.sh):
  PYTHONPATH=. .venv/bin/python benchmarks/ortweb_node_sweep.py [--filter TEXT] [--deadline-ms 8000] [--json FILE] \
      [--native-chromium ~/peers/native/chromium]
With --native-chromium the same cases run on native Chromium's WebNN too (pages without the shim),
and the cases that pass there but not on ours are listed.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))  # this checkout's webnn_bridge

from e2e.test_ortweb_node import ORT_WEB, in_process, prepared, run_ortweb  # noqa: E402
from webnn_bridge.bridge.embed import CHROMIUM, CHROMIUM_ARGS  # noqa: E402


def float32_cases(text: str | None) -> list:
    """Node tests whose outputs are all float32 and that in-process ONNX Runtime gets right."""
    from onnx import TensorProto
    from onnx.backend.test.case.node import collect_testcases

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cases = collect_testcases(None)
    out = []
    for c in cases:
        if text and text not in c.name:
            continue
        outs = c.model.graph.output
        if not outs or any(o.type.tensor_type.elem_type != TensorProto.FLOAT for o in outs):
            continue
        try:
            model, feeds = prepared(c)
            got = in_process(model, feeds)
            want = c.data_sets[0][1]
            if len(want) != len(got) or not all(
                    np.allclose(np.asarray(g), np.asarray(w), rtol=1e-3, atol=1e-4, equal_nan=True)
                    for g, w in zip(got.values(), want)):
                continue
        except Exception:  # noqa: BLE001 - not a case in-process ONNX Runtime passes
            continue
        out.append(c)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--filter", help="only node tests whose name contains TEXT")
    ap.add_argument("--deadline-ms", type=int, default=8000)
    ap.add_argument("--json", type=Path, help="write every case's outcome here")
    ap.add_argument("--native-chromium", type=Path, help="also run them on this Chromium with WebNN built in")
    args = ap.parse_args()
    if not (ORT_WEB / "ort.min.js").is_file():
        sys.exit(f"onnxruntime-web is missing in {ORT_WEB}: run scripts/install_ortweb.sh")
    cases = float32_cases(args.filter)
    print(f"{len(cases)} node tests with float32 outputs that in-process ONNX Runtime passes", flush=True)
    from playwright.sync_api import sync_playwright

    started = time.monotonic()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            results = run_ortweb(browser, cases, args.deadline_ms,
                                 on_result=lambda n, r: r[0] != "pass" and print(f"  {n}: {r[0]}: {r[1][:160]}", flush=True))
        finally:
            browser.close()
    counts = collections.Counter(r[0] for r in results.values())
    print(f"\nours: {dict(counts)} in {time.monotonic() - started:.0f} s", flush=True)
    out = {"ours": results}
    if args.native_chromium:
        from benchmarks.bench_webnn import NATIVE_ARGS, native_env

        exe = args.native_chromium
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(exe), env=native_env(exe), args=NATIVE_ARGS)
            try:
                native = run_ortweb(browser, cases, args.deadline_ms, native=True)
            finally:
                browser.close()
        print(f"native: {dict(collections.Counter(r[0] for r in native.values()))}")
        worse = {n: results[n] for n, r in native.items() if r[0] == "pass" and results[n][0] != "pass"}
        better = [n for n, r in results.items() if r[0] == "pass" and native[n][0] != "pass"]
        print(f"pass on native but not on ours: {len(worse)}")
        for n, r in worse.items():
            print(f"  {n}: {r[0]}: {r[1][:160]}")
        print(f"pass on ours but not on native: {len(better)}")
        out["native"] = native
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
