"""The host's CPU time per dispatch against the dispatch's latency (issue 39, "CPU thrift").

    PYTHONPATH=. .venv/bin/python benchmarks/bench_cpu.py [--rounds 3] [--n 200] [--pause-ms 2]
        [--settings thrift,spin] [--before DIR] [--pool-threads N] [--no-mobilenet]

Starts one `webnn-bridge serve --port 0 --no-cache` subprocess per setting, all at once (an idle
host costs nothing, which is what thrift means), and drives each as a page does over the wire
(tests/wire.py): per iteration one writeTensor, one dispatch and one readTensor (the read's reply
ends the iteration), then a pause (--pause-ms, default 2 ms). Workloads:

  chain      relu(x @ W) six times on x: float32[16, 1024], W: float32[1024, 1024] (4 MiB, one
             constant): big enough (over 1 MiB of work) for ONNX Runtime's thread pool
  small      relu(x) + x on float32[64, 64]: runs on the calling thread alone
  mobilenet  MobileNetV2 (weights from ../shared/data; skipped where they are missing, or with
             --no-mobilenet), input float32[1, 3, 224, 224]

each in three contexts: default ({}), deviceType "cpu" and powerPreference "low-power".

Settings (--settings, comma separated; each a host of its own):
  thrift     this tree's host with its defaults
  spin       this tree's host with `serve --spin` (pool threads spin between a run's operators)
  before     with --before DIR: the host of another checkout (DIR holds the package as
             DIR/webnn_bridge, e.g. a copy of the tree before a change), its defaults
--pool-threads N gives every host a rules file with cpu_threads = N for every policy (the pool of
an N-core machine; on fewer cores it is oversubscribed, so latencies are not those of such a
machine, but threads that spin show).

The host's CPU time is read from /proc (the sum of its threads' run time in
/proc/PID/task/*/schedstat, nanoseconds; threads that end inside a window are missed, and the
host's threads outlive the runs) over a window of --n iterations, pauses included (so a pool
that spins after a run is charged), divided by --n. The latency is the page's: from the write's
send to the read's reply. Each round measures every setting, workload and context in turn (the
settings' order rotates each round); the table has medians over rounds: the page's latency,
the host's own time handling the dispatch (/metrics: webnn_bridge_dispatch_seconds), the ratios
of the CPU time to the p50 latency, the mean latency and the host's dispatch time (the last
overstates: the CPU time includes the write's and the read's handling), the host's own CPU figure
(webnn_bridge_dispatch_cpu_seconds_total per dispatch) where it has one, and the load average
before and after; then each setting against the first, per round. Every page's first output is
checked against a reference (numpy; ONNX Runtime's for MobileNetV2) before anything is timed.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import statistics
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _package_path() -> str:
    """A PYTHONPATH under which ``webnn_bridge`` is this checkout (its src/, installed or not:
    scripts/gpu_check.py runs from a checkout that was never installed) and ``tests`` is importable."""
    sys.path.insert(0, str(ROOT / "src"))
    return os.pathsep.join([str(ROOT / "src"), str(ROOT)])


PACKAGE_PATH = _package_path()

import numpy as np  # noqa: E402

from benchmarks.soak import HostProcess, cpu_seconds  # noqa: E402  (one way to start a host)
from tests.wire import Wire  # noqa: E402  (the tests' link to a host)

Check = Callable[[np.ndarray], bool]
CONTEXTS = {"default": {}, "cpu": {"deviceType": "cpu"}, "low-power": {"powerPreference": "low-power"}}
WORKLOADS = ("chain", "small", "mobilenet")


# ------------------------------------------------------------------ hosts


class Host(HostProcess):
    """A `webnn-bridge serve` subprocess (soak.py's): ``root`` is the folder holding the package."""

    def __init__(self, name: str, root: Path, extra: list[str], path: str | None = None):
        super().__init__(*extra, root=root, pythonpath=path)
        self.name = name

    def cpu_s(self) -> float:
        """The host's CPU time so far, in seconds (soak.cpu_seconds)."""
        return cpu_seconds(self.proc.pid)

    def metric(self, name: str) -> float | None:
        try:
            with urllib.request.urlopen(self.url.replace("ws://", "http://") + "/metrics", timeout=10) as r:
                text = r.read().decode()
        except OSError:
            return None
        m = re.search(rf"^{name} (\S+)$", text, re.M)
        return float(m.group(1)) if m else None



# ------------------------------------------------------------------ graphs, as the shim sends them


def x_of(shape: list[int]) -> np.ndarray:
    return np.random.default_rng(1).standard_normal(shape).astype(np.float32)


def chain_graph(layers: int = 6, rows: int = 16, width: int = 1024) -> tuple[dict, list[bytes], list[int], list[int], Check]:
    """(build message, constant parts, input shape, output shape, a check of the output):
    relu(x @ W), ``layers`` times."""
    wa = (np.random.default_rng(0).standard_normal((width, width)) / np.sqrt(width)).astype(np.float32)
    w = wa.tobytes()
    nodes, x, nxt = [], 1, 3
    for _ in range(layers):
        nodes.append({"op": "matmul", "args": [{"$operand": x}, {"$operand": 2}, {}], "outputs": [nxt]})
        nodes.append({"op": "relu", "args": [{"$operand": nxt}, {}], "outputs": [nxt + 1]})
        x, nxt = nxt + 1, nxt + 2
    msg = {"inputs": [{"operand": 1, "name": "x", "desc": {"dataType": "float32", "shape": [rows, width]}}],
           "constants": [{"operand": 2, "desc": {"dataType": "float32", "shape": [width, width]}, "part": 0,
                          "sha256": hashlib.sha256(w).hexdigest()}],
           "nodes": nodes, "outputs": {"y": x}}
    ref = x_of([rows, width])
    for _ in range(layers):
        ref = np.maximum(ref @ wa, 0)
    return msg, [w], [rows, width], [rows, width], lambda y: np.allclose(y, ref, rtol=1e-3, atol=1e-3)


def small_graph() -> tuple[dict, list[bytes], list[int], list[int], Check]:
    msg = {"inputs": [{"operand": 1, "name": "x", "desc": {"dataType": "float32", "shape": [64, 64]}}],
           "constants": [], "nodes": [{"op": "relu", "args": [{"$operand": 1}, {}], "outputs": [2]},
                                      {"op": "add", "args": [{"$operand": 2}, {"$operand": 1}, {}], "outputs": [3]}],
           "outputs": {"y": 3}}
    x = x_of([64, 64])
    return msg, [], [64, 64], [64, 64], lambda y: np.array_equal(y, np.maximum(x, 0) + x)


def mobilenet_graph() -> tuple[dict, list[bytes], list[int], list[int], Check]:
    """MobileNetV2 (tests/models/mobilenet_data.py's layers) as a build message, its weights as
    the message's parts."""
    from tests.models import mobilenet_data as md

    weights = md.load_weights()
    constants: list[dict] = []
    parts: list[bytes] = []
    nodes: list[dict] = []
    ids = {"next": 2}

    def new_id() -> int:
        ids["next"] += 1
        return ids["next"]

    def const(name: str) -> int:
        arr = np.ascontiguousarray(weights[name], np.float32)
        oid = new_id()
        b = arr.tobytes()
        constants.append({"operand": oid, "desc": {"dataType": "float32", "shape": list(arr.shape)}, "part": len(parts),
                          "sha256": hashlib.sha256(b).hexdigest()})
        parts.append(b)
        return oid

    def node(op: str, args: list) -> int:
        out = new_id()
        nodes.append({"op": op, "args": args, "outputs": [out]})
        return out

    def conv(x: int, n: int, stride: int, groups: int, pad: int, relu6: bool) -> int:
        w, b = const(f"conv_{n}_weight"), const(f"conv_{n}_bias")
        y = node("conv2d", [{"$operand": x}, {"$operand": w},
                            {"strides": [stride, stride], "padding": [pad] * 4, "groups": groups, "bias": {"$operand": b}}])
        return node("clamp", [{"$operand": y}, {"minValue": 0, "maxValue": 6}]) if relu6 else y

    def add(a: int, b: int, n: int) -> int:
        return node("add", [{"$operand": a}, {"$operand": b}, {}])

    x = md.layers(1, weights, conv, add)
    pooled = node("averagePool2d", [{"$operand": x}, {}])
    flat = node("reshape", [{"$operand": pooled}, [1, 1280], {}])
    gw, gb = const(f"gemm_{md.GEMM}_weight"), const(f"gemm_{md.GEMM}_bias")
    logits = node("gemm", [{"$operand": flat}, {"$operand": gw}, {"c": {"$operand": gb}, "bTranspose": True}])
    probs = node("softmax", [{"$operand": logits}, 1, {}])
    msg = {"inputs": [{"operand": 1, "name": "x", "desc": {"dataType": "float32", "shape": [1, 3, 224, 224]}}],
           "constants": constants, "nodes": nodes, "outputs": {"y": probs}}
    ref = md.mobilenet_onnx_reference(weights, x_of([1, 3, 224, 224]))
    return msg, parts, [1, 3, 224, 224], [1, 1000], lambda y: np.allclose(y, ref, rtol=1e-3, atol=1e-4)


GRAPHS = {"chain": chain_graph, "small": small_graph, "mobilenet": mobilenet_graph}


# ------------------------------------------------------------------ a page


class Page:
    """One page: a context of ``options``, one graph, its input and output tensors."""

    def __init__(self, host: Host, options: dict, graph: tuple[dict, list[bytes], list[int], list[int], Check]):
        msg, parts, in_shape, out_shape, self.check = graph
        self.out_shape = out_shape
        self.wire = Wire(host.url, timeout=300)
        self.call({"t": "createContext", "ctx": 1, "options": options})
        self.call({"t": "build", "ctx": 1, "graph": 2, **msg}, parts)
        for tid, shape in ((3, in_shape), (4, out_shape)):
            self.call({"t": "createTensor", "ctx": 1, "tensor": tid,
                       "desc": {"dataType": "float32", "shape": shape, "readable": True, "writable": True}})
        self.x = x_of(in_shape).tobytes()
        self.big = len(self.x) >= 64 << 10  # the shim sends such a tensor as a message of its own

    def call(self, msg: dict, parts: list[bytes] | None = None):
        from benchmarks.soak import wire_call

        return wire_call(self.wire, msg, parts)

    def once(self):
        """writeTensor + dispatch + readTensor, as the shim sends them."""
        if self.big:
            self.wire.send({"t": "writeTensor", "tensor": 3, "raw": len(self.x)})
            self.wire.send_frame(self.x)
        else:
            self.wire.send({"t": "writeTensor", "tensor": 3}, [self.x])
        self.wire.send({"t": "dispatch", "ctx": 1, "graph": 2, "inputs": {"x": 3}, "outputs": {"y": 4}})
        return self.call({"t": "readTensor", "tensor": 4})[1]

    def checked(self) -> None:
        """One iteration whose output is compared with the graph's reference."""
        y = np.frombuffer(self.once(), np.float32).reshape(self.out_shape)
        if not self.check(y):
            raise SystemExit("the host computed a wrong output: the benchmark's graph or the host is broken")

    def close(self) -> None:
        self.wire.close()


# the host's dispatch CPU counter, its dispatch count and the time it spent handling dispatches
METRICS = ("webnn_bridge_dispatch_cpu_seconds_total", "webnn_bridge_dispatches_total", "webnn_bridge_dispatch_seconds_sum")


def measure(host: Host, page: Page, n: int, pause_s: float) -> dict:
    """n iterations: the page's latencies and the host's CPU time per iteration (pauses included)."""
    lat = []
    m0, d0, s0 = (host.metric(k) for k in METRICS)
    time.sleep(0.05)  # whatever the previous window left running settles
    c0 = host.cpu_s()
    for _ in range(n):
        t = time.perf_counter()
        page.once()
        lat.append((time.perf_counter() - t) * 1e3)
        time.sleep(pause_s)
    cpu_ms = (host.cpu_s() - c0) * 1e3 / n
    m1, d1, s1 = (host.metric(k) for k in METRICS)
    metric_ms = dispatch_ms = None
    if d0 is not None and d1 is not None and d1 > d0:
        if m0 is not None and m1 is not None:
            metric_ms = (m1 - m0) * 1e3 / (d1 - d0)
        if s0 is not None and s1 is not None:
            dispatch_ms = (s1 - s0) * 1e3 / (d1 - d0)
    return {"p50": statistics.median(lat), "mean": statistics.fmean(lat), "cpu": cpu_ms, "metric": metric_ms,
            "dispatch": dispatch_ms}


def _num(v: float | None, width: int, suffix: str = "") -> str:
    return f"{v:{width}.3f}{suffix}" if v is not None else f"{'-':>{width + len(suffix)}}"


def rules_file(threads: int, folder: str) -> str:
    """The repository's rules with cpu_threads = ``threads`` for every policy (beside a copy of
    the files they name, such as profiles.toml)."""
    for f in (ROOT / "src" / "webnn_bridge" / "policy").glob("*.toml"):
        (Path(folder) / f.name).write_text(f.read_text())
    path = Path(folder) / "rules.toml"
    path.write_text(re.sub(r"^cpu_threads = \d+$", f"cpu_threads = {threads}", path.read_text(), flags=re.M))
    return str(path)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--n", type=int, default=200, help="dispatches per window (default 200)")
    p.add_argument("--pause-ms", type=float, default=2.0)
    p.add_argument("--settings", default="thrift,spin")
    p.add_argument("--before", metavar="DIR", help="a folder holding another tree's package as DIR/webnn_bridge")
    p.add_argument("--pool-threads", type=int, default=0, metavar="N", help="cpu_threads = N in every policy")
    p.add_argument("--workloads", default=",".join(WORKLOADS))
    p.add_argument("--contexts", default=",".join(CONTEXTS))
    p.add_argument("--no-mobilenet", action="store_true")
    args = p.parse_args(argv)

    settings = [s for s in args.settings.split(",") if s]
    if args.before and "before" not in settings:
        settings.append("before")
    workloads = [w for w in args.workloads.split(",") if w and not (w == "mobilenet" and args.no_mobilenet)]
    contexts = [c for c in args.contexts.split(",") if c]
    graphs = {}
    for w in workloads:
        try:
            graphs[w] = GRAPHS[w]()
        except Exception as e:  # MobileNetV2's weights missing: the rest still runs
            print(f"skipping {w}: {type(e).__name__}: {e}")
    tmp = tempfile.mkdtemp(prefix="bench-cpu-")
    extra = ["--rules", rules_file(args.pool_threads, tmp)] if args.pool_threads else []
    hosts: dict[str, Host] = {}
    pages: dict[tuple[str, str, str], Page] = {}
    load0 = os.getloadavg()
    try:
        for s in settings:
            if s == "before":
                if not args.before:
                    raise SystemExit("the 'before' setting needs --before DIR")
                hosts[s] = Host(s, Path(args.before), extra)
            elif s in ("thrift", "spin"):
                hosts[s] = Host(s, ROOT, extra + (["--spin"] if s == "spin" else []), PACKAGE_PATH)
            else:
                raise SystemExit(f"unknown setting {s!r}")
        for s, host in hosts.items():
            for w, g in graphs.items():
                for c in contexts:
                    page = pages[(s, w, c)] = Page(host, CONTEXTS[c], g)
                    page.checked()
                    for _ in range(10):  # warm: threads started, caches filled
                        page.once()
        results: dict[tuple[str, str, str], list[dict]] = {k: [] for k in pages}
        for r in range(args.rounds):
            order = settings[r % len(settings):] + settings[:r % len(settings)]
            for w in graphs:
                for c in contexts:
                    for s in order:
                        n = args.n if w != "mobilenet" else max(20, args.n // 5)
                        results[(s, w, c)].append(measure(hosts[s], pages[(s, w, c)], n, args.pause_ms / 1e3))
        load1 = os.getloadavg()
    finally:
        for page in pages.values():
            try:
                page.close()
            except Exception:
                pass
        for host in hosts.values():
            host.stop()

    def med(rows: list[dict], key: str) -> float | None:
        vals = [r[key] for r in rows if r[key] is not None]
        return statistics.median(vals) if vals else None

    print(f"host CPU per dispatch (write + dispatch + read, {args.pause_ms:g} ms pauses), {os.cpu_count()} cores, "
          f"{args.rounds} rounds x {args.n} dispatches (mobilenet: {max(20, args.n // 5)}), medians over rounds"
          + (f", cpu_threads = {args.pool_threads} in every policy" if args.pool_threads else ""))
    print(f"load average before: {' '.join(f'{v:.2f}' for v in load0)}; after: {' '.join(f'{v:.2f}' for v in load1)}")
    print("p50 / mean: the page's latency (write + dispatch + read); dispatch: the host's time handling the dispatch "
          "message (/metrics); CPU: the host's CPU time per iteration (/proc); /metrics CPU: the host's own "
          "dispatch CPU counter per dispatch")
    print(f"{'workload':10} {'context':10} {'setting':8} {'p50 ms':>7} {'mean ms':>7} {'dispatch':>8} {'CPU ms':>7} "
          f"{'CPU/p50':>7} {'CPU/mean':>8} {'CPU/dispatch':>12} {'/metrics CPU':>12}")
    for w in graphs:
        for c in contexts:
            for s in settings:
                rows = results[(s, w, c)]
                p50, mean, cpu, metric, disp = (med(rows, k) for k in ("p50", "mean", "cpu", "metric", "dispatch"))
                ratio_mean = statistics.median(r["cpu"] / r["mean"] for r in rows)
                ratio_p50 = statistics.median(r["cpu"] / r["p50"] for r in rows)
                ratio_disp = [r["cpu"] / r["dispatch"] for r in rows if r["dispatch"]]
                print(f"{w:10} {c:10} {s:8} {p50:7.3f} {mean:7.3f} {_num(disp, 8)} {cpu:7.3f} {ratio_p50:6.2f}x "
                      f"{ratio_mean:7.2f}x {_num(statistics.median(ratio_disp) if ratio_disp else None, 11, 'x')} "
                      f"{_num(metric, 12)}")
    if len(settings) > 1:
        base = settings[0]
        print(f"\nagainst {base} (per round, then the median): p50 latency ratio, CPU ratio")
        for w in graphs:
            for c in contexts:
                for s in settings[1:]:
                    lat = [b["p50"] / a["p50"] for a, b in zip(results[(base, w, c)], results[(s, w, c)])]
                    cpu = [b["cpu"] / a["cpu"] for a, b in zip(results[(base, w, c)], results[(s, w, c)])]
                    print(f"{w:10} {c:10} {s:8} / {base}: latency {statistics.median(lat):5.2f}x "
                          f"({min(lat):.2f} to {max(lat):.2f}), CPU {statistics.median(cpu):5.2f}x "
                          f"({min(cpu):.2f} to {max(cpu):.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
