"""Soak a host the way days of test suites do (issue 19). Loopback only; every phase is bounded.

    .venv/bin/python benchmarks/soak.py [--sessions 1000] [--tensor-mib 256] [--steady-s 60] [--out DIR]
    .venv/bin/python benchmarks/soak.py --sessions 20 --tensor-mib 64 --steady-s 10   # a quick check (~40 s)

Starts `webnn-bridge serve --port 0 --no-cache` in a subprocess (its RSS is its own), then:
  copies     one page writes a tensor of --tensor-mib MiB (as the shim does: an announcing message,
             then the bytes as one binary message, sent in 128 KiB fragments as Chromium sends it;
             then again into the tensor holding data; then as one unfragmented frame), reads it
             back as the shim does (rawReply) and inline; the host's peak RSS over its RSS before
             each, as a multiple of the tensor (the kernel's high-water mark, reset first);
  sessions   --sessions pages one after another, each builds its own graph (expand of a uint8[1]
             constant to about --tensor-mib MiB, a shape no other page uses), dispatches it into
             three tensors of that size, reads one back, and leaves;
  steady     --steady-s seconds of mixed load: --clients pages in a loop of write + dispatch + read
             of a small graph, and every --big-every-s seconds a page with a big graph and tensors;
  constants  --constant-pages pages in turn, each builds a graph with its own --constant-mib MiB
             constant (x @ W), runs it once and leaves (issue 38: back within 64 MiB of idle);
  weights    with --weights-clients K: K pages in a loop for --weights-s seconds, each iteration a
             new page that builds y = x * W with a --constant-mib MiB constant (a new one, or one
             all pages share, in turn), dispatches into a tensor of that size, reads it back and
             checks every value (a stale or wrong read counts), while /metrics is sampled beside
             the host's RSS (issue 38: what /metrics charges matches RSS over idle within 20 %);
  after      the last page has left: RSS sampled for 5 s, checked against the bound of issue 19
             (within max(10 %, 64 MiB) of the idle host's RSS; idle: after one small warm-up page).

The issue 38 run (about 11 minutes):
    .venv/bin/python benchmarks/soak.py --sessions 0 --steady-s 0 --no-copies --weights-clients 4 --weights-s 600
--as-limit-gib N caps the host's address space (RLIMIT_AS), so that allocations fail as they do on
a full machine: failed dispatches must then be errors, never reads of stale outputs.
Prints RSS idle / peak / after, latency percentiles per window of the run, and with --out DIR
writes soak.png (the RSS curve) and soak.json (every sample). Exit status 1 when the bound fails.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))  # webnn_bridge: this checkout's, installed or not

from tests.wire import Wire, WireError  # noqa: E402  (the tests' link to a host)

MIB = 1 << 20
FRAGMENT = 128 << 10  # Chromium sends a big binary message in fragments of up to 128 KiB


# ------------------------------------------------------------------ the host under test


def _die_with_parent() -> None:
    """The host ends when this script does, however it ends (Linux: PR_SET_PDEATHSIG)."""
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            ctypes.CDLL(None).prctl(1, signal.SIGTERM)
        except (OSError, AttributeError):
            pass


def cpu_seconds(pid: int) -> float:
    """A process's CPU time so far, in seconds: its threads' run time (/proc schedstat, ns), else
    utime + stime from /proc/PID/stat (clock ticks). Threads that ended are missed."""
    total, seen = 0, False
    try:
        for task in os.scandir(f"/proc/{pid}/task"):
            try:
                with open(f"{task.path}/schedstat") as f:
                    total += int(f.read().split()[0])
                    seen = True
            except (OSError, ValueError, IndexError):
                continue
    except OSError:
        pass
    if seen:
        return total / 1e9
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class HostProcess:
    """A `webnn-bridge serve --port 0 --no-cache` subprocess that ends with this script. ``root``:
    the checkout it runs from; ``pythonpath``: where its ``webnn_bridge`` is (default ``root``'s src/);
    ``as_limit``: a cap on its address space."""

    def __init__(self, *extra: str, as_limit: int | None = None, root: Path = ROOT, pythonpath: str | None = None):
        env = {**os.environ, "PYTHONPATH": pythonpath or os.pathsep.join([str(root / "src"), str(root)])}

        def start() -> None:
            _die_with_parent()
            if as_limit:
                import resource

                resource.setrlimit(resource.RLIMIT_AS, (as_limit, as_limit))

        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from webnn_bridge.bridge.cli import main; main()", "serve", "--port", "0",
             "--no-cache", *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=root, preexec_fn=start)
        m = re.search(r"serving on (http://\S+)", self.proc.stdout.readline())
        if not m:
            raise SystemExit("the host did not start: " + self.proc.stderr.read()[-2000:])
        self.url = m.group(1)
        self.log: list[str] = []
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        for line in self.proc.stderr:
            self.log.append(line)

    def status(self, key: str) -> float:
        """A /proc status field of the host in MiB (VmRSS, VmHWM)."""
        try:
            for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
                if line.startswith(key + ":"):
                    return int(line.split()[1]) / 1024
        except OSError:
            pass
        return float("nan")

    def rss(self) -> float:
        return self.status("VmRSS")

    def reset_peak(self) -> bool:
        """Reset the kernel's high-water mark of the host's RSS (Linux >= 4.0: clear_refs 5)."""
        try:
            Path(f"/proc/{self.proc.pid}/clear_refs").write_text("5")
            return True
        except OSError:
            return False

    def alive(self) -> bool:
        return self.proc.poll() is None

    def charged(self) -> float:
        """What the host's /metrics charges to its pages and shared stores, in MiB."""
        import urllib.request

        with urllib.request.urlopen(self.url.replace("ws://", "http://") + "/metrics", timeout=10) as r:
            text = r.read().decode()
        return sum(int(v) for v in re.findall(r'^webnn_bridge_memory_bytes\{[^}]*\} (\d+)$', text, re.M)) / MIB

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class Sampler(threading.Thread):
    """The host's RSS every ``interval`` seconds, with the phase it was taken in."""

    def __init__(self, host: HostProcess, interval: float = 0.1):
        super().__init__(daemon=True)
        self.host, self.interval = host, interval
        self.t0 = time.monotonic()
        self.samples: list[tuple[float, float, str]] = []
        self.phase = "start"
        self._halt = threading.Event()

    def run(self) -> None:
        while not self._halt.wait(self.interval):
            self.samples.append((time.monotonic() - self.t0, self.host.rss(), self.phase))

    def stop(self) -> None:
        self._halt.set()
        self.join()

    def peak(self, phase: str | None = None) -> float:
        return max((r for _, r, p in self.samples if phase is None or p == phase), default=float("nan"))


# ------------------------------------------------------------------ a page, spoken raw


def wire_call(wire: Wire, msg: dict, parts: list[bytes] | None = None):
    """A request over a page's link and its reply's (header, payload), the bytes of a raw reply
    read too; an error reply raises RuntimeError naming the message."""
    try:
        h, body = wire.request(msg, parts or None)
    except WireError as e:
        raise RuntimeError(f"{msg['t']}: {e}") from e
    if isinstance(h.get("raw"), int):  # the bytes follow as their own message
        body = wire.receive()
    return h, body


class Page:
    """One page connection speaking the shim's protocol (tests/wire.py's link; raw frames for big
    tensors)."""

    def __init__(self, host: HostProcess):
        self.wire = Wire(host.url, timeout=300)
        self.call({"t": "createContext", "ctx": 1, "options": {}})

    def close(self) -> None:
        self.wire.close()

    def call(self, msg: dict, payload: bytes | None = None):
        """A request and its reply's (header, payload): raises on an error reply."""
        return wire_call(self.wire, msg, None if payload is None else [payload])

    def send(self, msg: dict, payload=None) -> None:
        self.wire.send(msg, None if payload is None else [payload])

    def write_raw(self, tensor: int, data: memoryview) -> None:
        """writeTensor as the shim sends a big one: announced, then the bytes as their own message."""
        self.send({"t": "writeTensor", "tensor": tensor, "raw": len(data)})
        self.wire.send_frame(data[i:i + FRAGMENT] for i in range(0, len(data), FRAGMENT))

    def tensor(self, tid: int, shape: list[int], data_type: str = "uint8") -> None:
        self.call({"t": "createTensor", "ctx": 1, "tensor": tid,
                   "desc": {"dataType": data_type, "shape": shape, "readable": True, "writable": True}})

    def build(self, gid: int, msg: dict, constants: bytes) -> None:
        self.call({"t": "build", "ctx": 1, "graph": gid, **msg}, constants)  # one part: the constants


def expand_graph(i: int, nbytes: int) -> tuple[dict, list[int]]:
    """Page i's own graph: a uint8[1] constant (i % 256) expanded to [256, nbytes / 256 - i]."""
    shape = [256, max(1, nbytes // 256 - i)]
    msg = {"inputs": [], "constants": [{"operand": 1, "desc": {"dataType": "uint8", "shape": [1]}, "part": 0}],
           "nodes": [{"op": "expand", "args": [{"$operand": 1}, shape, {}], "outputs": [2]}], "outputs": {"y": 2}}
    return msg, shape


SMALL = {"inputs": [{"operand": 1, "name": "x", "desc": {"dataType": "float32", "shape": [64, 64]}}],
         "constants": [], "nodes": [{"op": "relu", "args": [{"$operand": 1}, {}], "outputs": [2]},
                                    {"op": "add", "args": [{"$operand": 2}, {"$operand": 1}, {}], "outputs": [3]}],
         "outputs": {"y": 3}}


class Latencies:
    """(time, kind, ms) of every timed request."""

    def __init__(self, t0: float):
        self.t0 = t0
        self.rows: list[tuple[float, str, float]] = []
        self._lock = threading.Lock()

    def timed(self, kind: str, fn):
        t = time.monotonic()
        out = fn()
        with self._lock:
            self.rows.append((t - self.t0, kind, (time.monotonic() - t) * 1000))
        return out


def big_page(host: HostProcess, i: int, nbytes: int, lat: Latencies) -> None:
    """Page i: its own big graph, dispatched into three tensors, one read back; then it leaves."""
    page = Page(host)
    try:
        msg, shape = expand_graph(i, nbytes)
        lat.timed("big build", lambda: page.build(2, msg, bytes([i % 256])))
        for t in (10, 11, 12):
            page.tensor(t, shape)
            page.send({"t": "dispatch", "ctx": 1, "graph": 2, "inputs": {}, "outputs": {"y": t}})
        _, body = lat.timed("big dispatch+read", lambda: page.call({"t": "readTensor", "tensor": 11, "rawReply": True}))
        if len(body) != shape[0] * shape[1] or body[0] != i % 256 or body[-1] != i % 256:
            raise RuntimeError(f"page {i} read back the wrong bytes")
    finally:
        page.close()


def small_loop(host: HostProcess, lat: Latencies, until: float, errors: list) -> None:
    try:
        page = Page(host)
        page.build(2, SMALL, b"")
        page.tensor(3, [64, 64], "float32")
        page.tensor(4, [64, 64], "float32")
        x = bytes(64 * 64 * 4)
        while time.monotonic() < until:
            def once():
                page.send({"t": "writeTensor", "tensor": 3}, x)
                page.send({"t": "dispatch", "ctx": 1, "graph": 2, "inputs": {"x": 3}, "outputs": {"y": 4}})
                page.call({"t": "readTensor", "tensor": 4})
            lat.timed("small write+dispatch+read", once)
        page.close()
    except Exception as e:  # reported, never hangs the benchmark
        errors.append(f"{type(e).__name__}: {e}")


def weights_msg(shape: list[int], data: bytes, sha: str, op: str) -> dict:
    """A build message: x (float32[1] input) and a constant W of ``shape``; y = op(x, W)."""
    return {"inputs": [{"operand": 1, "name": "x", "desc": {"dataType": "float32", "shape": [1, shape[0]] if op == "matmul" else [1]}}],
            "constants": [{"operand": 2, "desc": {"dataType": "float32", "shape": shape}, "part": 0, "sha256": sha}],
            "nodes": [{"op": op, "args": [{"$operand": 1}, {"$operand": 2}, {}], "outputs": [3]}],
            "outputs": {"y": 3}}


def weights_shape(mib: int) -> list[int]:
    side = int((mib * MIB // 4) ** 0.5)
    return [side, mib * MIB // 4 // side]


def constant_pages(host: HostProcess, pages: int, mib: int, sampler: Sampler) -> tuple[float, float]:
    """Pages in turn, each with its own constant W (x @ W, run once, checked): RSS at the peak and
    after the last left and the host went idle."""
    import hashlib

    import numpy as np

    sampler.phase = "constants"
    shape = weights_shape(mib)
    for i in range(pages):
        page = Page(host)
        try:
            w = np.full(shape, float(i + 1), np.float32).tobytes()
            page.build(2, weights_msg(shape, w, hashlib.sha256(w).hexdigest(), "matmul"), w)
            del w
            page.tensor(3, [1, shape[0]], "float32")
            page.tensor(4, [1, shape[1]], "float32")
            page.send({"t": "writeTensor", "tensor": 3}, np.ones((1, shape[0]), np.float32).tobytes())
            page.send({"t": "dispatch", "ctx": 1, "graph": 2, "inputs": {"x": 3}, "outputs": {"y": 4}})
            _, body = page.call({"t": "readTensor", "tensor": 4})
            y = np.frombuffer(body, np.float32)
            if not np.all(y == shape[0] * float(i + 1)):
                raise RuntimeError(f"constant page {i} read back wrong values")
        finally:
            page.close()
    peak = sampler.peak("constants")
    return peak, host.rss()


class WeightsStats:
    def __init__(self):
        self.iterations = self.wrong = self.failed = 0
        self.errors: list[str] = []
        self.ratios: list[tuple[float, float, float]] = []  # (charged MiB, RSS over idle MiB, ratio)
        self.lock = threading.Lock()


def weights_client(host: HostProcess, k: int, mib: int, until: float, stats: WeightsStats, shared: bytes,
                   shared_sha: str) -> None:
    """One client of the weights soak: a new page an iteration (build, dispatch, read, check, leave)."""
    import hashlib

    import numpy as np

    shape = weights_shape(mib)
    it = 0
    while time.monotonic() < until:
        it += 1
        x = float(k * 1000 + it % 997 + 1)
        if it % 2:  # a constant of its own
            fill = float(k * 10 + it % 7 + 2)
            w = np.full(shape, fill, np.float32).tobytes()
            sha = hashlib.sha256(w).hexdigest()
        else:  # the one every client shares (the constant store's dedup)
            fill, w, sha = 1.5, shared, shared_sha
        try:
            page = Page(host)
        except Exception as e:
            with stats.lock:
                stats.failed += 1
                stats.errors.append(f"connect: {type(e).__name__}: {str(e)[:160]}")
            time.sleep(0.5)
            continue
        try:
            page.build(2, weights_msg(shape, w, sha, "mul"), w)
            del w
            page.tensor(3, [1], "float32")
            page.tensor(4, shape, "float32")
            page.send({"t": "writeTensor", "tensor": 3}, np.array([x], np.float32).tobytes())
            page.send({"t": "dispatch", "ctx": 1, "graph": 2, "inputs": {"x": 3}, "outputs": {"y": 4}})
            try:
                _, body = page.call({"t": "readTensor", "tensor": 4, "rawReply": True})
            except RuntimeError as e:  # a dispatch that failed must fail its read: that is no wrong read
                with stats.lock:
                    stats.failed += 1
                    stats.errors.append(str(e)[:200])
                continue
            y = np.frombuffer(body, np.float32)
            ok = y.size == shape[0] * shape[1] and bool(np.all(y == np.float32(x) * np.float32(fill)))
            with stats.lock:
                stats.iterations += 1
                stats.wrong += not ok
        except Exception as e:
            with stats.lock:
                stats.failed += 1
                stats.errors.append(f"{type(e).__name__}: {str(e)[:200]}")
        finally:
            try:
                page.close()
            except Exception:
                pass


def weights_soak(host: HostProcess, clients: int, mib: int, seconds: float, idle: float,
                 sampler: Sampler) -> WeightsStats:
    import hashlib

    import numpy as np

    sampler.phase = "weights"
    stats = WeightsStats()
    shared = np.full(weights_shape(mib), 1.5, np.float32).tobytes()
    sha = hashlib.sha256(shared).hexdigest()
    until = time.monotonic() + seconds
    threads = [threading.Thread(target=weights_client, args=(host, k, mib, until, stats, shared, sha))
               for k in range(clients)]
    for t in threads:
        t.start()
    while time.monotonic() < until:  # /metrics beside RSS, while pages are open
        time.sleep(1.0)
        try:
            before = host.rss()
            charged = host.charged()
            over = (before + host.rss()) / 2 - idle
        except Exception as e:
            stats.errors.append(f"/metrics: {type(e).__name__}: {e}")
            continue
        if over > mib:  # pages hold something: compare
            stats.ratios.append((charged, over, charged / over))
    for t in threads:
        t.join()
    return stats


# ------------------------------------------------------------------ phases


def copies(host: HostProcess, nbytes: int, sampler: Sampler) -> dict:
    """Peak RSS over the RSS before a write / read of one big tensor, as a multiple of its size."""
    sampler.phase = "copies"
    page = Page(host)
    out = {}
    try:
        page.tensor(5, [nbytes])
        data = memoryview(bytes([7]) * nbytes)

        def peak_of(what: str, fn) -> None:
            time.sleep(0.5)
            before = host.rss()
            if not host.reset_peak():
                out[what] = "n/a (cannot reset the high-water mark)"
                return
            fn()
            time.sleep(0.3)
            out[what] = round((host.status("VmHWM") - before) * MIB / nbytes, 2)

        def write():
            page.write_raw(5, data)
            page.call({"t": "hello"})  # the write is handled (messages are handled in order)

        peak_of("writeTensor (raw, 128 KiB fragments)", write)
        peak_of("writeTensor again (the tensor holds data)", write)

        def write_one_frame():
            page.send({"t": "writeTensor", "tensor": 5, "raw": len(data)})
            page.wire.send_frame(data)
            page.call({"t": "hello"})

        peak_of("writeTensor (raw, one frame)", write_one_frame)
        peak_of("readTensor (rawReply, as the shim reads)",
                lambda: page.call({"t": "readTensor", "tensor": 5, "rawReply": True}))
        peak_of("readTensor (inline)", lambda: page.call({"t": "readTensor", "tensor": 5}))
    finally:
        page.close()
    return out


def percentiles(ms: list[float]) -> str:
    if not ms:
        return "-"
    q = statistics.quantiles(ms, n=100, method="inclusive") if len(ms) > 1 else [ms[0]] * 99
    return f"n={len(ms)} p50 {q[49]:.1f} p95 {q[94]:.1f} p99 {q[98]:.1f} max {max(ms):.1f} ms"


def report_latencies(lat: Latencies, windows: int) -> None:
    if not lat.rows:
        return
    end = max(t for t, _, _ in lat.rows) + 1e-9
    for kind in sorted({k for _, k, _ in lat.rows}):
        print(f"latency of {kind}:")
        rows = [(t, ms) for t, k, ms in lat.rows if k == kind]
        start = min(t for t, _ in rows)
        step = (end - start) / windows
        for w in range(windows):
            lo, hi = start + w * step, start + (w + 1) * step
            sel = [ms for t, ms in rows if lo <= t < hi or (w == windows - 1 and t == hi)]
            if sel:
                print(f"  {lo:7.1f}-{hi:7.1f} s: {percentiles(sel)}")


def plot(samples: list, idle: float, bound: float, path: Path, bins: int = 600) -> None:
    """The RSS curve: with many samples, each bin's range (max to min: a page's peak and the floor
    between pages) and its minimum as a line, so a drift of the floor shows."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(10, 4))
    phases = []
    for t, _, p in samples:
        if not phases or phases[-1][0] != p:
            phases.append([p, t, t])
        phases[-1][2] = t
    for k, (p, a, b) in enumerate(phases):
        ax.axvspan(a, b, alpha=0.08 if k % 2 else 0.16, color="tab:blue")
        if b - a > 0.05 * (phases[-1][2] - phases[0][1]):
            ax.text((a + b) / 2, 0.98, p, transform=ax.get_xaxis_transform(), ha="center", va="top", fontsize=8)
    ts, rs = [t for t, _, _ in samples], [r for _, r, _ in samples]
    if len(samples) > 2 * bins:
        step = (ts[-1] - ts[0]) / bins
        groups: dict[int, list[float]] = {}
        for t, r in zip(ts, rs):
            groups.setdefault(min(bins - 1, int((t - ts[0]) / step)), []).append(r)
        xs = [ts[0] + (k + 0.5) * step for k in sorted(groups)]
        ax.fill_between(xs, [min(groups[k]) for k in sorted(groups)], [max(groups[k]) for k in sorted(groups)],
                        color="tab:red", alpha=0.3, lw=0, label=f"range per {step:.1f} s")
        ax.plot(xs, [min(groups[k]) for k in sorted(groups)], lw=0.8, color="tab:red", label="minimum")
    else:
        ax.plot(ts, rs, lw=0.8, color="tab:red")
    ax.axhline(idle, ls="--", lw=0.8, color="gray", label=f"idle {idle:.0f} MiB")
    ax.axhline(idle + bound, ls=":", lw=0.8, color="black", label=f"bound {idle + bound:.0f} MiB")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("host RSS (MiB)")
    ax.legend(loc="center right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sessions", type=int, default=1000)
    p.add_argument("--tensor-mib", type=int, default=256)
    p.add_argument("--steady-s", type=float, default=60.0)
    p.add_argument("--clients", type=int, default=2, help="pages in the small loop during the steady phase")
    p.add_argument("--big-every-s", type=float, default=5.0)
    p.add_argument("--windows", type=int, default=5, help="latency windows per kind of request")
    p.add_argument("--host-args", default="", help="more serve options, e.g. '--session-budget 1024'")
    p.add_argument("--out", type=Path, help="write soak.png and soak.json here")
    p.add_argument("--no-copies", action="store_true", help="skip the copies phase")
    p.add_argument("--replot", type=Path, metavar="SOAK.JSON", help="only draw soak.png again from a run's soak.json")
    p.add_argument("--constant-pages", type=int, default=12, help="pages in turn, each with its own constant (0: none)")
    p.add_argument("--constant-mib", type=int, default=64, help="the size of each page's constant")
    p.add_argument("--weights-clients", type=int, default=0, help="pages in the weights soak's loop (issue 38: 4)")
    p.add_argument("--weights-s", type=float, default=600.0, help="how long the weights soak runs")
    p.add_argument("--as-limit-gib", type=float, default=0, help="cap the host's address space (RLIMIT_AS)")
    args = p.parse_args(argv)
    if args.replot:
        run = json.loads(args.replot.read_text())
        plot(run["rss"], run["idle"], run["bound"], args.replot.with_suffix(".png"))
        return 0
    nbytes = args.tensor_mib * MIB
    host = HostProcess(*args.host_args.split(), as_limit=int(args.as_limit_gib * (1 << 30)) or None)
    sampler = Sampler(host)
    sampler.start()
    lat = Latencies(sampler.t0)
    status = 0
    try:
        start_rss = host.rss()
        sampler.phase = "warm-up"
        errors: list[str] = []
        small_loop(host, lat, time.monotonic() + 1.0, errors)
        time.sleep(2)
        idle = host.rss()
        bound = max(0.10 * idle, 64.0)
        print(f"host {host.url}: RSS at start {start_rss:.0f} MiB, idle after a warm-up page {idle:.0f} MiB; "
              f"bound: idle + {bound:.0f} MiB")
        if not args.no_copies:
            t0 = time.monotonic()
            c = copies(host, nbytes, sampler)
            print(f"copies ({time.monotonic() - t0:.1f} s, peak RSS over before / tensor of {args.tensor_mib} MiB): "
                  + ", ".join(f"{k}: {v}" for k, v in c.items()))
        if args.constant_pages > 0:
            t0 = time.monotonic()
            peak, end = constant_pages(host, args.constant_pages, args.constant_mib, sampler)
            sampler.phase = "constants idle"
            time.sleep(3.0)  # the host trims its shared stores 1 s after its last page left
            end = host.rss()
            ok = end <= idle + 64
            status |= not ok
            print(f"constants ({time.monotonic() - t0:.1f} s): {args.constant_pages} pages in turn, each with its own "
                  f"{args.constant_mib} MiB constant: peak RSS {peak:.0f} MiB, after {end:.0f} MiB ({end - idle:+.0f} MiB "
                  f"over idle; bound +64 MiB): {'PASS' if ok else 'FAIL'}", flush=True)
        if args.weights_clients > 0:
            t0 = time.monotonic()
            w = weights_soak(host, args.weights_clients, args.constant_mib, args.weights_s, idle, sampler)
            ratios = sorted(r for _, _, r in w.ratios)
            within = sum(0.8 <= r <= 1.2 for r in ratios)
            med = statistics.median(ratios) if ratios else float("nan")
            ok = w.wrong == 0 and ratios and 0.8 <= med <= 1.2
            status |= not ok
            print(f"weights ({time.monotonic() - t0:.0f} s): {args.weights_clients} clients, {w.iterations} iterations "
                  f"checked, {w.wrong} wrong reads, {w.failed} failed (errors, not reads){': ' + w.errors[0] if w.errors else ''}; "
                  f"peak RSS {sampler.peak('weights'):.0f} MiB", flush=True)
            if ratios:
                print(f"  /metrics charged / RSS over idle, {len(ratios)} samples while pages were open: median {med:.2f}, "
                      f"range {ratios[0]:.2f}-{ratios[-1]:.2f}, {within} of {len(ratios)} within 20 %: "
                      f"{'PASS' if ok else 'FAIL'}", flush=True)
        sampler.phase = "sessions"
        t0 = time.monotonic()
        failures = 0
        for i in range(args.sessions):
            try:
                big_page(host, i, nbytes, lat)
            except Exception as e:
                failures += 1
                if failures <= 5:
                    print(f"  page {i} failed: {type(e).__name__}: {str(e)[:200]}")
                if not host.alive():
                    break
            if (i + 1) % max(1, args.sessions // 10) == 0:
                print(f"  {i + 1} pages, {time.monotonic() - t0:.0f} s, RSS {host.rss():.0f} MiB", flush=True)
        print(f"sessions ({time.monotonic() - t0:.1f} s): {args.sessions} pages, {failures} failed, "
              f"peak RSS {sampler.peak('sessions'):.0f} MiB")
        if args.steady_s > 0 and host.alive():
            sampler.phase = "steady"
            until = time.monotonic() + args.steady_s
            threads = [threading.Thread(target=small_loop, args=(host, lat, until, errors)) for _ in range(args.clients)]
            for t in threads:
                t.start()
            k = args.sessions
            while time.monotonic() < until:
                try:
                    big_page(host, k, nbytes, lat)
                except Exception as e:
                    errors.append(f"big page: {type(e).__name__}: {e}")
                k += 1
                time.sleep(max(0.0, min(args.big_every_s, until - time.monotonic())))
            for t in threads:
                t.join()
            print(f"steady ({args.steady_s:.0f} s): {args.clients} small pages in a loop, {k - args.sessions} big "
                  f"pages, {len(errors)} errors{': ' + errors[0][:200] if errors else ''}, "
                  f"peak RSS {sampler.peak('steady'):.0f} MiB")
        sampler.phase = "after"
        left = time.monotonic()
        time.sleep(5.0)
        after = [r for t, r, p in sampler.samples if p == "after" and t >= left - sampler.t0 + 4.0] or [host.rss()]
        final = after[-1]
        ok = host.alive() and final <= idle + bound
        status |= not ok
        print(f"RSS: idle {idle:.0f} MiB, peak {sampler.peak():.0f} MiB, 5 s after the last page left "
              f"{final:.0f} MiB ({final - idle:+.0f} MiB; bound +{bound:.0f} MiB): {'PASS' if ok else 'FAIL'}")
        report_latencies(lat, args.windows)
        tracebacks = sum("Traceback" in line for line in host.log)
        print(f"host alive: {host.alive()}; tracebacks in the host's log: {tracebacks}")
        status |= tracebacks > 0 or not host.alive()
    finally:
        try:
            sampler.stop()
        finally:
            host.stop()
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        plot(sampler.samples, idle, bound, args.out / "soak.png")
        (args.out / "soak.json").write_text(json.dumps({
            "args": {k: str(v) for k, v in vars(args).items()}, "idle": idle, "bound": bound,
            "rss": sampler.samples, "latencies": lat.rows}))
        print(f"wrote {args.out / 'soak.png'} and soak.json")
    return status


if __name__ == "__main__":
    sys.exit(main())
