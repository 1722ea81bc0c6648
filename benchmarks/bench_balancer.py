"""N pages against one host and against two hosts behind Debian's HAProxy (deploy/haproxy.cfg).

Each page is a wire-protocol client (src/webnn_bridge/bridge/testing/wire_client.py, the shim's messages without a
browser, so that the browsers' own cost does not hide the hosts'): it builds a matmul graph and
runs write + dispatch + read in a loop, as an inference page does. Clients run in separate
processes. Prints dispatches per second and p50/p99 latency for each setup, and the ratios.

    PYTHONPATH=. .venv/bin/python benchmarks/bench_balancer.py --pages 8 --seconds 10 --size 256

On one machine the hosts, HAProxy and the clients share the same cores: two hosts only help when
one host cannot use them all (its event loop, the interpreter lock), which is what this measures.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_host(port: int) -> subprocess.Popen:
    p = subprocess.Popen([sys.executable, "-m", "webnn_bridge.bridge.cli", "serve", "--port", str(port), "--no-cache",
                          "--trusted-proxy", "127.0.0.1", "--drain-timeout", "1"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert p.stdout.readline().startswith("webnn-bridge serving on")
    return p


def ready(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/readyz", timeout=2) as r:
            return r.status == 200
    except OSError:
        return False


def start_balancer(lb_port: int, host_ports: list[int]) -> subprocess.Popen:
    env = dict(os.environ, WEBNN_LB_BIND=f"127.0.0.1:{lb_port}", WEBNN_HOST1=f"127.0.0.1:{host_ports[0]}",
               WEBNN_HOST2=f"127.0.0.1:{host_ports[-1]}")
    p = subprocess.Popen([HAPROXY, "-db", "-f", str(ROOT / "deploy" / "haproxy.cfg")], env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.0)
    deadline = time.monotonic() + 15
    while not ready(f"http://127.0.0.1:{lb_port}"):
        if time.monotonic() > deadline:
            raise RuntimeError("HAProxy did not come up")
        time.sleep(0.1)
    return p


def client_process(url: str, pages: int, seconds: float, size: int, start_at: float, out) -> None:
    from webnn_bridge.bridge.testing.wire_client import WireClient

    async def page(k: int) -> list[float]:
        c = await WireClient.open(url)
        await c.context()
        await c.matmul_graph(1, size, rows=8)
        x = np.random.default_rng(k).standard_normal((8, size)).astype(np.float32)
        for _ in range(3):  # warm-up
            await c.round_trip(1, x)
        while time.time() < start_at:
            await asyncio.sleep(0.005)
        lat = []
        end = start_at + seconds
        while time.time() < end:
            t0 = time.perf_counter()
            await c.round_trip(1, x)
            lat.append((time.perf_counter() - t0) * 1e3)
        await c.close()
        return lat

    async def run():
        return await asyncio.gather(*(page(k) for k in range(pages)))

    out.put([x for lat in asyncio.run(run()) for x in lat])


def measure(url: str, pages: int, procs: int, seconds: float, size: int) -> dict:
    ctx = multiprocessing.get_context("spawn")
    q = ctx.Queue()
    start_at = time.time() + 4.0  # every client connected and warm before the clock starts
    split = [pages // procs + (1 if i < pages % procs else 0) for i in range(procs)]
    ps = [ctx.Process(target=client_process, args=(url, n, seconds, size, start_at, q)) for n in split if n]
    for p in ps:
        p.start()
    lat = [x for _ in ps for x in q.get(timeout=seconds + 120)]
    for p in ps:
        p.join()
    lat.sort()
    return {"dispatches_per_s": len(lat) / seconds, "p50_ms": statistics.median(lat),
            "p99_ms": lat[min(len(lat) - 1, int(0.99 * len(lat)))], "n": len(lat)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pages", type=int, default=8)
    ap.add_argument("--client-procs", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--size", type=int, default=256, help="matmul size (8 x size @ size x size)")
    ap.add_argument("--rounds", type=int, default=2, help="interleaved rounds of both setups")
    args = ap.parse_args()
    if not os.path.exists(HAPROXY):
        print("needs Debian's haproxy (apt-get install haproxy)", file=sys.stderr)
        return 2
    ports = [free_port(), free_port()]
    hosts = [start_host(p) for p in ports]
    lbs = {}
    try:
        lbs["1 host"] = (free_port(), [ports[0]])
        lbs["2 hosts"] = (free_port(), ports)
        procs = {name: start_balancer(lb, hp) for name, (lb, hp) in lbs.items()}
        rows: dict[str, list[dict]] = {name: [] for name in lbs}
        for r in range(args.rounds):
            for name, (lb, _) in lbs.items():
                res = measure(f"http://127.0.0.1:{lb}", args.pages, args.client_procs, args.seconds, args.size)
                rows[name].append(res)
                print(f"round {r + 1} {name:8s}: {res['dispatches_per_s']:8.1f} dispatches/s  p50 {res['p50_ms']:.2f} ms"
                      f"  p99 {res['p99_ms']:.2f} ms  (n={res['n']})", flush=True)
        print(f"\n{args.pages} pages, {args.client_procs} client processes, {args.seconds:g} s per run, matmul "
              f"8x{args.size} @ {args.size}x{args.size}, {os.cpu_count()} cores, load average "
              f"{os.getloadavg()[0]:.1f}")
        med = {name: {k: statistics.median(x[k] for x in rs) for k in ("dispatches_per_s", "p50_ms", "p99_ms")}
               for name, rs in rows.items()}
        for name, m in med.items():
            print(f"{name:8s} (median of rounds): {m['dispatches_per_s']:8.1f} dispatches/s  p50 {m['p50_ms']:.2f} ms"
                  f"  p99 {m['p99_ms']:.2f} ms")
        one, two = med["1 host"], med["2 hosts"]
        print(f"2 hosts / 1 host: throughput {two['dispatches_per_s'] / one['dispatches_per_s']:.2f}x, "
              f"p99 {two['p99_ms'] / one['p99_ms']:.2f}x")
        for p in procs.values():
            p.kill()
    finally:
        for h in hosts:
            h.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
