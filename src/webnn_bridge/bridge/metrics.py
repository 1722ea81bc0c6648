"""Operations: the host's Prometheus metrics (``/metrics``), and the readiness it reports.

Pure bookkeeping, no I/O: the server counts bytes and sessions, sessions time their messages
(Session.timer), and ``render(host)`` writes the Prometheus text exposition format (version 0.0.4)
from those counters plus what the host already knows (memory budgets, the compile cache). Nothing
here names a page, an origin or a device: label values are message kinds and fixed words.
"""

from __future__ import annotations

import bisect
import threading
import time
from collections.abc import Iterable, Sequence

# seconds: from a quick tensor write (tens of microseconds) to a first build of a big model
BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
TIMED = ("build", "dispatch", "readTensor", "writeTensor", "createContext")  # histograms; the rest: counters


class DispatchCpu:
    """The host's CPU time spent on one dispatch (Session.on_dispatch: ``start()`` before the run,
    ``stop(token)`` after, in seconds). While no other dispatch runs at the same time it is the
    process's CPU time over the dispatch (every thread: the runtime's pool threads, and whatever
    else the host did meanwhile, such as reading the next frame); where another dispatch overlaps
    it (pages at once, each on a worker), the process's time would count theirs too, so it is the
    dispatching thread's own CPU time (pool threads then go uncounted). Threads that spin after
    the run ends are not counted (the pools of `serve --spin` stop when a run ends); benchmarks/
    bench_cpu.py reads the whole process's time from /proc instead."""

    def __init__(self):
        self._lock = threading.Lock()
        self._running = 0
        self._overlaps = 0  # counts the dispatches that started while another ran
        self.last = threading.local()  # the latest stop() of this thread, for Metrics.message

    def start(self) -> tuple[float, float, int, bool]:
        with self._lock:
            alone = self._running == 0
            self._running += 1
            if not alone:
                self._overlaps += 1
            mark = self._overlaps
        return time.thread_time(), time.process_time(), mark, alone

    def stop(self, token: tuple[float, float, int, bool]) -> float:
        thread0, process0, mark, alone = token
        thread1, process1 = time.thread_time(), time.process_time()
        with self._lock:
            self._running -= 1
            alone = alone and self._overlaps == mark
        seconds = max(0.0, process1 - process0 if alone else thread1 - thread0)
        self.last.seconds = seconds
        return seconds

    def take(self) -> float:
        """The CPU time of this thread's latest dispatch, once (0 when none)."""
        seconds = getattr(self.last, "seconds", 0.0)
        self.last.seconds = 0.0
        return seconds


DISPATCH_CPU = DispatchCpu()


class Histogram:
    def __init__(self, buckets: Sequence[float] = BUCKETS):
        self.buckets = tuple(buckets)
        self.counts = [0] * (len(self.buckets) + 1)  # the last one: above every bucket
        self.sum = 0.0
        self.count = 0

    def observe(self, v: float) -> None:
        self.counts[bisect.bisect_left(self.buckets, v)] += 1
        self.sum += v
        self.count += 1

    def lines(self, name: str, labels: str) -> Iterable[str]:
        cum = 0
        sep = "," if labels else ""
        for bound, n in zip(self.buckets, self.counts):
            cum += n
            yield f'{name}_bucket{{{labels}{sep}le="{bound:g}"}} {cum}'
        yield f'{name}_bucket{{{labels}{sep}le="+Inf"}} {self.count}'
        yield f"{name}_sum{{{labels}}} {self.sum:.6f}" if labels else f"{name}_sum {self.sum:.6f}"
        yield f"{name}_count{{{labels}}} {self.count}" if labels else f"{name}_count {self.count}"


class Metrics:
    """The host's counters. Thread-safe: sessions run their messages on worker threads."""

    def __init__(self):
        self._lock = threading.Lock()
        self.sessions_opened = 0
        self.sessions_refused = 0  # handshakes refused while draining
        self.messages: dict[str, int] = {}
        self.seconds: dict[str, Histogram] = {k: Histogram() for k in TIMED}
        self.bytes_in = 0
        self.bytes_out = 0
        self.dispatch_cpu = 0.0  # seconds (DispatchCpu)

    # ------------------------------------------------------------------ counting
    def session_opened(self) -> None:
        with self._lock:
            self.sessions_opened += 1

    def session_refused(self) -> None:
        with self._lock:
            self.sessions_refused += 1

    def message(self, kind: str, seconds: float) -> None:
        """Session.timer: one message handled."""
        key = kind if kind in self.seconds or kind.isidentifier() and len(kind) <= 32 else "other"
        with self._lock:
            if key not in self.messages and len(self.messages) >= 64:
                key = "other"  # a page cannot grow the label set without bound
            self.messages[key] = self.messages.get(key, 0) + 1
            h = self.seconds.get(key)
            if h is not None:
                h.observe(seconds)
        if key == "dispatch":  # its CPU time, noted by Session.on_dispatch on this thread
            cpu = DISPATCH_CPU.take()
            with self._lock:
                self.dispatch_cpu += cpu

    def received(self, n: int) -> None:
        with self._lock:
            self.bytes_in += n

    def sent(self, n: int) -> None:
        with self._lock:
            self.bytes_out += n

    # ------------------------------------------------------------------ exposition
    def render(self, *, sessions_open: int, draining: bool, memory: dict[str, int], cache: dict[str, int],
               warm_bytes: int, resident: int | None = None) -> str:
        out: list[str] = []

        def metric(name: str, kind: str, help_: str, samples: Iterable[str]) -> None:
            out.append(f"# HELP {name} {help_}")
            out.append(f"# TYPE {name} {kind}")
            out.extend(samples)

        with self._lock:
            metric("webnn_bridge_sessions", "gauge", "Pages connected now (one session per websocket).",
                   [f"webnn_bridge_sessions {sessions_open}"])
            metric("webnn_bridge_sessions_opened_total", "counter", "Sessions opened since the host started.",
                   [f"webnn_bridge_sessions_opened_total {self.sessions_opened}"])
            metric("webnn_bridge_sessions_refused_total", "counter", "New sessions refused while draining.",
                   [f"webnn_bridge_sessions_refused_total {self.sessions_refused}"])
            metric("webnn_bridge_draining", "gauge", "1 while the host drains (SIGTERM): /readyz answers 503.",
                   [f"webnn_bridge_draining {int(draining)}"])
            metric("webnn_bridge_messages_total", "counter", "Messages handled, by kind.",
                   [f'webnn_bridge_messages_total{{kind="{k}"}} {n}' for k, n in sorted(self.messages.items())])
            metric("webnn_bridge_dispatches_total", "counter", "MLContext.dispatch() calls handled.",
                   [f"webnn_bridge_dispatches_total {self.messages.get('dispatch', 0)}"])
            for kind, h in self.seconds.items():
                name = f"webnn_bridge_{_snake(kind)}_seconds"
                metric(name, "histogram", f"Time the host spent handling {kind} messages.", h.lines(name, ""))
            metric("webnn_bridge_dispatch_cpu_seconds_total", "counter",
                   "The host's CPU time spent on dispatches (all its threads while one dispatch runs alone, "
                   "else the dispatching thread's): against webnn_bridge_dispatch_seconds_sum, the cores a "
                   "dispatch keeps busy.",
                   [f"webnn_bridge_dispatch_cpu_seconds_total {self.dispatch_cpu:.6f}"])
            metric("webnn_bridge_received_bytes_total", "counter", "Websocket payload bytes from pages.",
                   [f"webnn_bridge_received_bytes_total {self.bytes_in}"])
            metric("webnn_bridge_sent_bytes_total", "counter", "Websocket payload bytes to pages.",
                   [f"webnn_bridge_sent_bytes_total {self.bytes_out}"])
        metric("webnn_bridge_memory_bytes", "gauge",
               "Bytes the host holds, by owner: pages (their tensors, constants and graphs, charged to each "
               "page's budget), the shared compile cache's warm sessions, and the build memo's and the "
               "constant store's memory besides what the pages' graphs hold (capped shared stores).",
               [f'webnn_bridge_memory_bytes{{owner="{k}"}} {v}' for k, v in sorted(memory.items())])
        if resident is not None:
            metric("webnn_bridge_resident_bytes", "gauge",
                   "The host process's resident memory (RSS): the runtimes' code and data, plus what "
                   "webnn_bridge_memory_bytes accounts for.",
                   [f"webnn_bridge_resident_bytes {resident}"])
        metric("webnn_bridge_compile_cache_total", "counter",
               "Graphs compiled (miss), or served from memory or disk by the compile cache.",
               [f'webnn_bridge_compile_cache_total{{result="{k}"}} {v}' for k, v in sorted(cache.items())])
        metric("webnn_bridge_compile_cache_warm_bytes", "gauge", "Bytes of the warm sessions nobody uses.",
               [f"webnn_bridge_compile_cache_warm_bytes {warm_bytes}"])
        return "\n".join(out) + "\n"


def _snake(kind: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in kind)


def resident_bytes() -> int | None:
    """This process's resident memory (Linux: /proc/self/statm), None elsewhere."""
    import os

    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError, AttributeError):
        return None
