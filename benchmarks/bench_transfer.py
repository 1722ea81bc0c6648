"""Large tensors over the page's path against a bare websocket echo, and where the time goes
(issue 39, "Large tensors"). No browser: a Python page speaks the shim's protocol (tests/wire.py),
so it runs on a GPU machine too (scripts/gpu_check.py runs it as its step 6).

    PYTHONPATH=. .venv/bin/python benchmarks/bench_transfer.py [--mib 16] [--iters 10] [--rounds 3]
        [--contexts high-performance,cpu]

Starts one `webnn-bridge serve --port 0 --no-cache` subprocess and one bare websocket echo
subprocess (the same websockets library, no compression, no protocol), then per round, for each
context (--contexts: names of CONTEXTS), interleaved:

  echo              MIB bytes sent to the echo and received back (the transport's ceiling)
  write + read      writeTensor of MIB bytes, then readTensor of the same tensor
  write + dispatch + read
                    writeTensor into x, dispatch y = relu(x), readTensor y (every read is checked)
  in process        the same write + dispatch + read through the Python API in this process
                    (ML().createContext(options), no wire): the backend's own copies and run,
                    split into writeTensor, dispatch and readTensor (on a GPU, dispatch uploads and
                    launches, readTensor waits for the run and copies back)

Big messages are sent as the shim's are: an announcing message, then the bytes as one binary
message in 128 KiB fragments (Chromium's); reads ask for a raw reply (the bytes as a message of
their own). Each figure is the median of --iters runs after a warm-up (the bytes read back are
compared before and after the timed runs, not within them: the echo's are not either); the table
gives medians over rounds, MiB/s counting both directions, ours / echo, the host's part: ours less
the echo less the in-process time (what the host adds above moving the bytes and running the
graph), and the CPU time per run of the echo's process and of the host's (/proc, all threads).
The load average is printed before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

import numpy as np  # noqa: E402

from benchmarks.soak import FRAGMENT, HostProcess, cpu_seconds, wire_call  # noqa: E402
from tests.wire import Wire  # noqa: E402

CONTEXTS = {"default": {}, "high-performance": {"powerPreference": "high-performance"}, "cpu": {"deviceType": "cpu"},
            "gpu": {"deviceType": "gpu"}, "low-power": {"powerPreference": "low-power"}}

ECHO_SERVER = """
import asyncio, sys
from websockets.asyncio.server import serve

async def echo(ws):
    async for message in ws:
        await ws.send(message)

async def main():
    async with serve(echo, "127.0.0.1", 0, compression=None, max_size=None, ping_interval=None) as server:
        print("echo on ws://127.0.0.1:%d" % server.sockets[0].getsockname()[1], flush=True)
        await asyncio.get_running_loop().create_future()

asyncio.run(main())
"""


class Echo:
    """A bare websocket echo in a process of its own (the host is one too)."""

    def __init__(self):
        self.proc = subprocess.Popen([sys.executable, "-c", ECHO_SERVER], stdout=subprocess.PIPE, text=True)
        m = re.search(r"echo on (ws://\S+)", self.proc.stdout.readline())
        if not m:
            raise SystemExit("the echo server did not start")
        self.url = m.group(1)

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()


def fragments(data: bytes):
    return (data[i:i + FRAGMENT] for i in range(0, len(data), FRAGMENT))


def timed(fn, iters: int) -> float:
    """The median of ``iters`` runs of fn (after one warm-up run), in ms."""
    fn()
    out = []
    for _ in range(iters):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1e3)
    return statistics.median(out)


def echo_once(ws, data: bytes) -> None:
    ws.send_frame(fragments(data))
    back = ws.receive()
    if len(back) != len(data):
        raise SystemExit(f"the echo sent back {len(back)} bytes of {len(data)}")


class WirePage:
    """A page with one context: x and y of ``shape`` and the graph y = relu(x), over the wire."""

    def __init__(self, url: str, options: dict, shape: list[int], x: np.ndarray):
        self.wire = Wire(url, timeout=300)
        self.x, self.expect = x.tobytes(), np.maximum(x, 0).tobytes()
        self.call({"t": "createContext", "ctx": 1, "options": options})
        desc = {"dataType": "float32", "shape": shape}
        ok, _ = self.call({"t": "build", "ctx": 1, "graph": 2, "constants": [],
                           "inputs": [{"operand": 1, "name": "x", "desc": desc}],
                           "nodes": [{"op": "relu", "args": [{"$operand": 1}, {}], "outputs": [2]}],
                           "outputs": {"y": 2}})
        self.devices = ok["ok"].get("devices")
        for tid in (3, 4):
            self.call({"t": "createTensor", "ctx": 1, "tensor": tid, "desc": {**desc, "readable": True, "writable": True}})

    def call(self, msg: dict):
        return wire_call(self.wire, msg)

    def write(self) -> None:
        self.wire.send({"t": "writeTensor", "tensor": 3, "raw": len(self.x)})
        self.wire.send_frame(fragments(self.x))

    def read(self, tensor: int) -> bytes:
        _, body = self.call({"t": "readTensor", "tensor": tensor, "rawReply": True})
        return bytes(body)

    def write_read(self) -> bytes:
        self.write()
        return self.read(3)

    def write_dispatch_read(self) -> bytes:
        self.write()
        self.wire.send({"t": "dispatch", "ctx": 1, "graph": 2, "inputs": {"x": 3}, "outputs": {"y": 4}})
        return self.read(4)

    def check(self) -> None:
        """Both sequences once, their bytes compared (outside the timed runs, as the echo's are not)."""
        if self.write_read() != self.x:
            raise SystemExit("write + read: the host sent back other bytes than were written")
        if self.write_dispatch_read() != self.expect:
            raise SystemExit("write + dispatch + read: a wrong output (the host or the benchmark is broken)")

    def close(self) -> None:
        self.wire.close()


class LocalPage:
    """The same graph and tensors through the Python API in this process."""

    def __init__(self, options: dict, shape: list[int], x: np.ndarray):
        from webnn_bridge.bridge.api import ML, MLGraphBuilder

        self.ml = ML()
        self.ctx = self.ml.createContext(options)
        b = MLGraphBuilder(self.ctx)
        desc = {"dataType": "float32", "shape": shape}
        self.graph = b.build({"y": b.relu(b.input("x", desc))})
        self.tx = self.ctx.createTensor({**desc, "writable": True})
        self.ty = self.ctx.createTensor({**desc, "readable": True})
        self.x, self.expect = x, np.maximum(x, 0)
        self.parts: dict[str, list[float]] = {"write": [], "dispatch": [], "read": []}

    def once(self) -> None:
        t0 = time.perf_counter()
        self.ctx.writeTensor(self.tx, self.x)
        t1 = time.perf_counter()
        self.ctx.dispatch(self.graph, {"x": self.tx}, {"y": self.ty})
        t2 = time.perf_counter()
        y = self.ctx.readTensor(self.ty)
        t3 = time.perf_counter()
        if not np.array_equal(y, self.expect):
            raise SystemExit("in process: a wrong output")
        for k, a, b in (("write", t0, t1), ("dispatch", t1, t2), ("read", t2, t3)):
            self.parts[k].append((b - a) * 1e3)

    def close(self) -> None:
        self.graph.destroy()
        self.ctx.destroy()


def load() -> str:
    try:
        return " ".join(f"{v:.2f}" for v in os.getloadavg())
    except OSError:
        return "?"


def run(mib: int = 16, iters: int = 10, rounds: int = 3, contexts: list[str] | None = None,
        log=print) -> dict:
    """Every round, every context, interleaved; returns {"rows": [...], "load": [...]}."""
    contexts = contexts or ["high-performance", "cpu"]
    n = mib * (1 << 20) // 4
    shape = [n // 1024, 1024]
    x = np.random.default_rng(5).standard_normal(shape).astype(np.float32)
    payload = x.tobytes()
    load_before = load()
    host, echo = HostProcess(), Echo()
    samples: dict[str, dict[str, list[float]]] = {c: {} for c in contexts}
    devices: dict[str, object] = {}
    try:
        with _EchoLink(echo.url) as ew:
            for r in range(rounds):
                for name in contexts[r % len(contexts):] + contexts[:r % len(contexts)]:
                    s = samples[name]
                    c0 = cpu_seconds(echo.proc.pid)
                    s.setdefault("echo", []).append(timed(lambda: echo_once(ew, payload), iters))
                    s.setdefault("echo_cpu", []).append((cpu_seconds(echo.proc.pid) - c0) * 1e3 / (iters + 1))
                    page = WirePage(host.url, CONTEXTS[name], shape, x)
                    devices[name] = page.devices
                    try:
                        page.check()
                        for key, fn in (("write_read", page.write_read), ("write_dispatch_read", page.write_dispatch_read)):
                            c0 = cpu_seconds(host.proc.pid)
                            s.setdefault(key, []).append(timed(fn, iters))
                            s.setdefault(f"{key}_cpu", []).append((cpu_seconds(host.proc.pid) - c0) * 1e3 / (iters + 1))
                        page.check()
                    finally:
                        page.close()
                    local = LocalPage(CONTEXTS[name], shape, x)
                    try:
                        s.setdefault("in_process", []).append(timed(local.once, iters))
                        for k, v in local.parts.items():
                            s.setdefault(f"in_process_{k}", []).append(statistics.median(v[1:]))
                    finally:
                        local.close()
                    log(f"  round {r + 1} {name:17s} echo {s['echo'][-1]:8.2f} ms  write+read "
                        f"{s['write_read'][-1]:8.2f} ms  write+dispatch+read {s['write_dispatch_read'][-1]:8.2f} ms  "
                        f"in process {s['in_process'][-1]:8.2f} ms")
    finally:
        host.stop()
        echo.close()
    rows = []
    for name in contexts:
        med = {k: statistics.median(v) for k, v in samples[name].items()}
        mibs = {k: 2 * mib / (med[k] / 1e3) for k in ("echo", "write_read", "write_dispatch_read")}
        rows.append({"context": name, "devices": devices.get(name), "mib": mib,
                     **{f"{k}_ms": round(v, 3) for k, v in med.items()},
                     **{f"{k}_mib_s": round(v, 1) for k, v in mibs.items()},
                     "write_read_vs_echo": round(med["write_read"] / med["echo"], 3),
                     "write_dispatch_read_vs_echo": round(med["write_dispatch_read"] / med["echo"], 3),
                     "host_part_ms": round(med["write_dispatch_read"] - med["echo"] - med["in_process"], 3),
                     "rounds": {k: [round(v, 3) for v in vs] for k, vs in samples[name].items()}})
    return {"rows": rows, "load": [load_before, load()], "iters": iters, "rounds": rounds}


class _EchoLink:
    """A link to the echo server: send_frame and receive as tests/wire.py's, without a hello."""

    def __init__(self, url: str):
        import asyncio

        from websockets.asyncio.client import connect

        self.loop = asyncio.new_event_loop()
        self.ws = self.loop.run_until_complete(connect(url, compression=None, max_size=None, ping_interval=None))

    def send_frame(self, frame) -> None:
        self.loop.run_until_complete(self.ws.send(frame))

    def receive(self):
        return self.loop.run_until_complete(self.ws.recv())

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.loop.run_until_complete(self.ws.close())
        self.loop.close()


def print_table(result: dict, log=print) -> None:
    rows = result["rows"]
    mib = rows[0]["mib"] if rows else 16
    log(f"{mib} MiB written and read back (medians of {result['rounds']} rounds of {result['iters']} runs; "
        f"MiB/s counts both directions; load {result['load'][0]} -> {result['load'][1]}):")
    log(f"  {'context':17s} {'graph on':12s} {'echo':>15s} {'write+read':>21s} {'write+dispatch+read':>21s} "
        f"{'in process (write/dispatch/read)':>34s} {'host part':>10s}")
    for r in rows:
        dev = ",".join(r["devices"]) if isinstance(r["devices"], list) else str(r["devices"])
        log(f"  {r['context']:17s} {dev[:12]:12s} {r['echo_ms']:6.2f} ms {r['echo_mib_s']:5.0f}/s "
            f"{r['write_read_ms']:6.2f} ms {r['write_read_vs_echo']:4.2f}x echo "
            f"{r['write_dispatch_read_ms']:6.2f} ms {r['write_dispatch_read_vs_echo']:4.2f}x echo "
            f"{r['in_process_ms']:7.2f} ms ({r['in_process_write_ms']:.2f}/{r['in_process_dispatch_ms']:.2f}/"
            f"{r['in_process_read_ms']:.2f}) {r['host_part_ms']:7.2f} ms")
    log("  CPU time per run (ms; the echo's process, the host's process):")
    for r in rows:
        log(f"  {r['context']:17s} echo {r['echo_cpu_ms']:6.2f}  write+read {r['write_read_cpu_ms']:6.2f}  "
            f"write+dispatch+read {r['write_dispatch_read_cpu_ms']:6.2f}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mib", type=int, default=16)
    ap.add_argument("--iters", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--contexts", default="high-performance,cpu", help=f"comma separated, of {', '.join(CONTEXTS)}")
    ap.add_argument("--json", help="also write the results to this file")
    args = ap.parse_args(argv)
    contexts = args.contexts.split(",")
    unknown = sorted(set(contexts) - set(CONTEXTS))
    if unknown:
        ap.error(f"unknown context(s) {unknown}")
    result = run(args.mib, args.iters, args.rounds, contexts)
    print_table(result)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
