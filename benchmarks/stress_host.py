"""Fuzz and stress a host the way a hostile page would (issue 10). Loopback only, bounded loops.

    PYTHONPATH=. python benchmarks/stress_host.py [--frames 20000] [--connections 300] [--graphs 300]

Starts `webnn-bridge serve` in a subprocess (so a crash is visible and its RSS and threads are its
own), then:
  fuzz        seeded mutations of real messages (non-finite ids, deep nesting, huge shapes,
              builder attribute names, wrong types, truncated binary frames) on one connection;
              every well-formed request must be answered and the session must stay open;
  storm       many connections at once, while a bystander's round trip is timed;
  graphs      one page builds many small graphs (host threads counted), then destroys its context
              while a bystander's round trip is timed;
  memory      expand of a 4-byte constant to 1 GiB and a tensor over the session budget.
Prints frames tried, crashes, unanswered requests, RSS and threads before/after.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import struct
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parent.parent
# long-lived connections here are closed explicitly
warnings.filterwarnings("ignore", r"connect\(\) must be used as a context manager", DeprecationWarning)
REPLIED = {"hello", "createContext", "build", "createTensor", "createConstantTensor", "readTensor", "graphLatency"}


# ------------------------------------------------------------------ the host under test


class HostProcess:
    def __init__(self, root: Path, *extra: str):
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root / "src"), str(root)])}
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from webnn_bridge.bridge.cli import main; main()", "serve", "--port", "0", *extra],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=root)
        m = re.search(r"serving on (http://\S+)", self.proc.stdout.readline())
        if not m:
            raise SystemExit("the host did not start")
        self.url = m.group(1)
        self.ws_url = self.url.replace("http", "ws", 1) + "/webnn"

    def alive(self) -> bool:
        return self.proc.poll() is None

    def rss_mib(self) -> float:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def threads(self) -> int:
        return len(os.listdir(f"/proc/{self.proc.pid}/task"))

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()

    def connect(self):
        return connect(self.ws_url, origin=self.url, max_size=None, open_timeout=30)


def recv(ws, timeout: float = 60):
    """The next frame that is not the host's heartbeat."""
    while True:
        frame = ws.recv(timeout=timeout)
        if frame != '{"t":"alive"}':
            return frame


def round_trip_ms(host: HostProcess) -> float:
    with host.connect() as ws:
        t0 = time.perf_counter()
        ws.send('{"t":"hello","id":1}')
        recv(ws, 60)
        return (time.perf_counter() - t0) * 1000


# ------------------------------------------------------------------ fuzz

SEEDS = [
    {"t": "hello"},
    {"t": "createContext", "ctx": 1, "options": {"powerPreference": "low-power"}},
    {"t": "createTensor", "ctx": 1, "tensor": 2, "desc": {"dataType": "float32", "shape": [2, 2], "readable": True}},
    {"t": "readTensor", "tensor": 2},
    {"t": "graphLatency", "graph": 3},
    {"t": "build", "ctx": 1, "graph": 3,
     "inputs": [{"operand": 1, "name": "x", "desc": {"dataType": "float32", "shape": [2]}}],
     "nodes": [{"op": "relu", "args": [{"$operand": 1}, {}], "outputs": [2]}], "outputs": {"y": 2}},
    {"t": "dispatch", "ctx": 1, "graph": 3, "inputs": {"x": 2}, "outputs": {"y": 2}},
    {"t": "destroyGraph", "graph": 3},
]
NASTY_VALUES = [None, True, -1, 0, 2**31, 2**63, 1e308, "x" * 1000, [], {}, [[[[[]]]]], {"$operand": 999},
                {"$bigint": "9" * 400}, {"$number": "NaN"}, {"$desc": {"shape": [1] * 50}},
                [2147483647] * 2000, "__setattr__", "__class__", "_op", "build", "constant"]
RAW_NASTY = ['{"t":"hello","id":NaN}', '{"t":"hello","id":1e400}', "[" * 1500 + "]" * 1500,
             '{"t":"createContext","id":5,"ctx":9,"options":' + '{"a":' * 600 + "1" + "}" * 600 + "}",
             "not json", "", "{}", '{"t":5}']


def mutate(rng: random.Random, msg):
    if isinstance(msg, dict) and msg and rng.random() < 0.8:
        k = rng.choice(list(msg))
        return {**msg, k: mutate(rng, msg[k])}
    if isinstance(msg, list) and msg and rng.random() < 0.7:
        i = rng.randrange(len(msg))
        return msg[:i] + [mutate(rng, msg[i])] + msg[i + 1:]
    return rng.choice(NASTY_VALUES)


def fuzz_frames(n: int, seed: int):
    """Yield (frame, request id or None when no reply is owed)."""
    rng = random.Random(seed)
    for i in range(n):
        rid = 1_000_000 + i
        r = rng.random()
        if r < 0.05:
            yield rng.choice(RAW_NASTY), None
        elif r < 0.1:
            yield bytes(rng.getrandbits(8) for _ in range(rng.randrange(0, 40))), None
        else:
            msg = mutate(rng, dict(rng.choice(SEEDS)))
            msg = {**msg, "id": rid} if isinstance(msg, dict) else msg
            text = json.dumps(msg)
            owed = rid if isinstance(msg, dict) and str(msg.get("t")) in REPLIED else None
            if r < 0.2:  # binary frame with a payload
                head = text.encode()
                yield struct.pack("<I", len(head)) + head + os.urandom(rng.randrange(0, 64)), owed
            else:
                yield text, owed


def fuzz(host: HostProcess, n: int, seed: int) -> dict:
    tried = unanswered = reconnects = 0
    ws = host.connect()
    owed: set[int] = set()

    def drain():
        nonlocal unanswered, ws, reconnects
        ws.send('{"t":"hello","id":1}')
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                reply = recv(ws, max(0.1, deadline - time.time()))
            except Exception:
                reconnects += 1
                ws = host.connect()
                break
            header = json.loads(reply if isinstance(reply, str) else reply[4:4 + struct.unpack_from("<I", reply)[0]])
            owed.discard(header.get("re"))
            if header.get("re") == 1:
                break
        unanswered += len(owed)
        owed.clear()

    for frame, rid in fuzz_frames(n, seed):
        tried += 1
        try:
            ws.send(frame)
        except Exception:  # the host closed this session: what it owed stays unanswered
            reconnects += 1
            unanswered += len(owed)
            owed.clear()
            ws = host.connect()
            continue
        if rid is not None:
            owed.add(rid)
        if tried % 200 == 0:
            drain()
    drain()
    ws.close()
    return {"frames tried": tried, "sessions closed by the host": reconnects, "unanswered requests": unanswered}


# ------------------------------------------------------------------ storm, graphs, memory


def storm(host: HostProcess, n: int) -> dict:
    socks, refused = [], 0
    baseline = round_trip_ms(host)
    during: list[float] = []
    t = threading.Thread(target=lambda: during.extend(round_trip_ms(host) for _ in range(5)))
    t.start()
    for _ in range(n):
        try:
            ws = host.connect()
            ws.send('{"t":"hello","id":1}')
            socks.append(ws)
        except Exception:
            refused += 1
    t.join()
    for ws in socks:
        try:
            recv(ws, 30)
        except Exception:
            refused += 1
        ws.close()
    return {"connections": n, "failed": refused, "bystander hello ms (idle)": round(baseline, 1),
            "bystander hello ms (storm, worst)": round(max(during), 1)}


def graphs(host: HostProcess, n: int) -> dict:
    threads_before = host.threads()
    with host.connect() as ws:
        ws.send('{"t":"createContext","id":1,"ctx":1}')
        recv(ws, 60)
        failed = 0
        for g in range(n):
            msg = {**SEEDS[5], "id": 10 + g, "graph": 10 + g}
            ws.send(json.dumps(msg))
            failed += '"error"' in recv(ws, 60)
        threads_built = host.threads()
        ws.send('{"t":"destroyContext","ctx":1}')
        t0 = time.perf_counter()
        bystander = round_trip_ms(host)
        ws.send('{"t":"hello","id":2}')
        recv(ws, 120)
        destroy_ms = (time.perf_counter() - t0) * 1000
    return {"graphs built": n - failed, "refused (per-page cap)": failed, "host threads before": threads_before,
            "host threads with graphs": threads_built, "bystander hello ms during destroy": round(bystander, 1),
            "destroy + next reply ms": round(destroy_ms, 1)}


def memory(host: HostProcess) -> dict:
    with host.connect() as ws:
        ws.send('{"t":"createContext","id":1,"ctx":1}')
        recv(ws, 60)
        msg = {"t": "build", "id": 2, "ctx": 1, "graph": 2, "inputs": [],
               "constants": [{"operand": 1, "desc": {"dataType": "float32", "shape": [1]}, "part": 0}],
               "nodes": [{"op": "expand", "args": [{"$operand": 1}, [16384, 16384], {}], "outputs": [2]},
                         {"op": "reduceSum", "args": [{"$operand": 2}, {}], "outputs": [3]}],
               "outputs": {"y": 3}}
        head = json.dumps({**msg, "parts": [[0, 4]]}).encode()
        ws.send(struct.pack("<I", len(head)) + head + b"\x00\x00\x80\x3f")
        expand = json.loads(recv(ws, 120))
        ws.send(json.dumps({"t": "createTensor", "id": 3, "ctx": 1, "tensor": 4,
                            "desc": {"dataType": "float32", "shape": [2**28]}}))
        big = json.loads(recv(ws, 120))
    return {"expand 4 B -> 1 GiB": expand.get("error", {}).get("name", "built"),
            "1 GiB tensor": big.get("error", {}).get("name", "created")}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--frames", type=int, default=20000)
    p.add_argument("--connections", type=int, default=300)
    p.add_argument("--graphs", type=int, default=300)
    p.add_argument("--seed", type=int, default=10)
    p.add_argument("--root", type=Path, default=ROOT, help="checkout whose host to run (compare with another)")
    p.add_argument("--host-args", default=None,
                   help="serve options (default: --session-budget 512 --max-graphs GRAPHS-20)")
    args = p.parse_args(argv)
    extra = args.host_args.split() if args.host_args is not None else \
        ["--session-budget", "512", "--max-graphs", str(max(1, args.graphs - 20))]
    host = HostProcess(args.root, *extra)
    try:
        rss0, threads0 = host.rss_mib(), host.threads()
        print(f"host {host.url}: RSS {rss0:.0f} MiB, {threads0} threads")
        for name, run in (("fuzz", lambda: fuzz(host, args.frames, args.seed)),
                          ("storm", lambda: storm(host, args.connections)),
                          ("graphs", lambda: graphs(host, args.graphs)),
                          ("memory", lambda: memory(host))):
            t0 = time.perf_counter()
            try:
                result = run()
            except Exception as e:  # a phase that the host broke
                result = {"phase failed": f"{type(e).__name__}: {str(e)[:120]}"}
            result["host alive"] = host.alive()
            print(f"{name:7} ({time.perf_counter() - t0:.1f} s): " + ", ".join(f"{k}: {v}" for k, v in result.items()))
            if not host.alive():
                break
        print(f"crashes: {0 if host.alive() else 1}; RSS before {rss0:.0f} MiB, after {host.rss_mib():.0f} MiB; "
              f"threads before {threads0}, after {host.threads()}")
    finally:
        host.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
