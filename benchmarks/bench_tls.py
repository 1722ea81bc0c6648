"""Benchmark: what TLS costs a page (serve --tls-cert/--tls-key: https and wss) against plain http
and ws, on the same machine, in Debian's headless Chromium.

Two hosts (one plain, one with the development certificate), measured in interleaved rounds
(A, B, A, B, ...) so that the machine's drift falls on both alike:
  - dispatch: writeTensor + dispatch + readTensor of a small MLP, ms per iteration (median);
  - transfer: MiB/s of a 16 MiB float32 tensor written and read back (median of the rounds).
Prints numbers and ratios (no pass/fail: these machines are shared and noisy).

Run: .venv/bin/python benchmarks/bench_tls.py [--rounds 5] [--iters 200]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

import numpy as np
from bench_webnn import TINY_JS, TRANSFER_JS  # this directory: the page code the benchmarks share

from webnn_bridge.bridge.embed import CHROMIUM, CHROMIUM_ARGS, start_host

PAGE = "<!doctype html><meta charset=utf-8><title>bench</title><p>bench</p>"
N = 4 * 1024 * 1024  # float32 elements: 16 MiB


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--iters", type=int, default=200, help="dispatch iterations per round")
    args = p.parse_args()
    rng = np.random.default_rng(0)
    w1 = rng.standard_normal((64, 128)).astype(np.float32).ravel().tolist()
    w2 = rng.standard_normal((128, 10)).astype(np.float32).ravel().tolist()
    from playwright.sync_api import sync_playwright

    results = {"http": {"dispatch": [], "transfer": []}, "https": {"dispatch": [], "transfer": []}}
    with tempfile.TemporaryDirectory() as d:
        Path(d, "index.html").write_text(PAGE)
        hosts = {"http": start_host(app_dir=Path(d)),
                 "https": start_host(app_dir=Path(d), tls_self_signed=Path(d) / "tls")}
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                ctx = browser.new_context(ignore_https_errors=True)
                pages = {}
                for name, h in hosts.items():
                    pages[name] = ctx.new_page()
                    pages[name].goto(f"{h.url}/index.html")
                    pages[name].evaluate(TINY_JS, [20, w1, w2])  # warm-up: build, first dispatches
                for _ in range(args.rounds):
                    for name, page in pages.items():
                        times = page.evaluate(TINY_JS, [args.iters, w1, w2])
                        results[name]["dispatch"].append(statistics.median(times))
                        results[name]["transfer"].append(min(page.evaluate(TRANSFER_JS, [N, 2])))
                browser.close()
        finally:
            for h in hosts.values():
                h.stop()
    mib = 4 * N / 2**20
    row = {}
    for name, r in results.items():
        row[name] = (statistics.median(r["dispatch"]), 2 * mib / (statistics.median(r["transfer"]) / 1000))
        print(f"{name:5}  dispatch {row[name][0]:7.3f} ms/iter (median)   transfer {row[name][1]:7.1f} MiB/s"
              f"   rounds: dispatch {', '.join(f'{x:.3f}' for x in r['dispatch'])}")
    print(f"https/http  dispatch {row['https'][0] / row['http'][0]:.2f}x   transfer throughput "
          f"{row['https'][1] / row['http'][1]:.2f}x   ({args.rounds} interleaved rounds, {args.iters} iterations each)")


if __name__ == "__main__":
    main()
