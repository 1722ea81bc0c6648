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
  after      the last page has left: RSS sampled for 5 s, checked against the bound of issue 19
             (within max(10 %, 64 MiB) of the idle host's RSS; idle: after one small warm-up page).
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


class HostProcess:
    def __init__(self, *extra: str):
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from webnn_bridge.bridge.cli import main; main()", "serve", "--port", "0",
             "--no-cache", *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT, preexec_fn=_die_with_parent)
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
        try:
            h, body = self.wire.request(msg, None if payload is None else [payload])
        except WireError as e:
            raise RuntimeError(f"{msg['t']}: {e}") from e
        if isinstance(h.get("raw"), int):  # the bytes follow as their own message
            body = self.wire.receive()
        return h, body

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
    args = p.parse_args(argv)
    if args.replot:
        run = json.loads(args.replot.read_text())
        plot(run["rss"], run["idle"], run["bound"], args.replot.with_suffix(".png"))
        return 0
    nbytes = args.tensor_mib * MIB
    host = HostProcess(*args.host_args.split())
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
        status = 0 if ok else 1
        print(f"RSS: idle {idle:.0f} MiB, peak {sampler.peak():.0f} MiB, 5 s after the last page left "
              f"{final:.0f} MiB ({final - idle:+.0f} MiB; bound +{bound:.0f} MiB): {'PASS' if ok else 'FAIL'}")
        report_latencies(lat, args.windows)
        tracebacks = sum("Traceback" in line for line in host.log)
        print(f"host alive: {host.alive()}; tracebacks in the host's log: {tracebacks}")
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
