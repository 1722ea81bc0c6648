"""Tier-up of a hot graph to a faster CPU backend, decided in live dispatches (rules.toml [tier_up]).

The policy names the candidate at build() (Placement.tier_up): another CPU backend that runs the
whole graph. The graph builds on its own backend as always, so a first build never pays a second
compile. Once the graph is hot (``min_dispatches`` dispatches, the median of its recent runs at
least ``min_run_ms``), the candidate compiles it on one background thread, with ``threads``
intra-op threads; inside the runtime's own compile call, which releases the GIL, that thread takes
only CPU time nothing else wants (SCHED_IDLE; _worker says why not throughout). The graph's next dispatches then
alternate between the two compiled forms (one warm-up run of the new one first, then
``trial_runs`` of each, interleaved, so that both see the same load); the new one keeps the graph
when the median of its runs is at most ``margin`` times the other's, or at most
``cpu_latency_slack`` times it for at most ``cpu_margin`` times the process's CPU time per run
(a runtime's pool takes cores from the browser it shares the machine with), else it is dropped. Every trial dispatch is a real
dispatch with real results (both backends compute the same graph); a candidate that fails to
compile or to run is dropped and that dispatch is run again where the graph was. The decision is
final for the graph, and its placement's reasons say what was measured.

Dispatches of one graph never overlap (a context's messages are handled one at a time): only the
background compile runs beside them, and it hands its result over through the lock.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import queue
import statistics
import threading
import time
from collections.abc import Callable, Mapping

from webnn_bridge.backends.base import native_work_priority

log = logging.getLogger("webnn_bridge.tier_up")

RECENT = 16  # base runs kept to judge whether the graph is hot


class TierUp:
    """The tier-up state of one graph: watching, compiling, trial, done."""

    def __init__(self, graph, device, rules: Mapping, compile_fn: Callable[[object], object]):
        self.graph = graph
        self.device = device  # the candidate, with its CPU mode
        self.rules = rules
        self._compile_fn = compile_fn  # device -> Compiled, on the background thread
        self._lock = threading.Lock()
        self.state = "watching"
        self.count = 0
        self.recent: list[float] = []
        self.candidate = None  # the candidate's Compiled, once compiled
        self.charged = 0  # its bytes in the context's budget
        self.base_ms: list[float] = []
        self.cand_ms: list[float] = []
        self.base_cpu: list[float] = []  # the process's CPU time per run (ms), as DispatchCpu counts it
        self.cand_cpu: list[float] = []
        self.warmed = False
        self.turn = 0
        self.outcome: str | None = None
        self.compile_ms = 0.0
        self.device_set = None  # the crash journal's device set of the candidate's runs (MLContext sets it)

    # -- the dispatch path (the graph's dispatching thread)
    def pick(self):
        """(compiled, is_candidate) for this dispatch."""
        if self.state != "trial":
            return self.graph.compiled, False
        if not self.warmed:
            return self.candidate, True
        self.turn += 1
        return (self.candidate, True) if self.turn % 2 == 0 else (self.graph.compiled, False)

    def ran(self, is_candidate: bool, seconds: float, cpu_seconds: float = 0.0) -> None:
        """A dispatch's run took ``seconds`` (and ``cpu_seconds`` of the process's CPU time) on
        the candidate or on the graph's own backend."""
        ms = seconds * 1000.0
        if self.state == "watching":
            self.count += 1
            self.recent.append(ms)
            del self.recent[:-RECENT]
            if (self.count >= int(self.rules.get("min_dispatches", 20))
                    and statistics.median(self.recent) >= float(self.rules.get("min_run_ms", 0.2))):
                self._start_compile()
            return
        if self.state != "trial":
            return
        if is_candidate and not self.warmed:
            self.warmed = True  # its first run allocates what later runs reuse: not counted
            return
        (self.cand_ms if is_candidate else self.base_ms).append(ms)
        (self.cand_cpu if is_candidate else self.base_cpu).append(cpu_seconds * 1000.0)
        n = int(self.rules.get("trial_runs", 12))
        if len(self.cand_ms) >= n and len(self.base_ms) >= n:
            self._decide()

    def failed(self, e: BaseException) -> None:
        """The candidate's run failed: it is dropped (the caller runs the dispatch again)."""
        self._finish(False, f"tier-up to {self.device.id} dropped: its run failed ({type(e).__name__}: {e})")

    # -- the background compile
    def _start_compile(self) -> None:
        with self._lock:
            if self.state != "watching":
                return
            self.state = "compiling"
        _submit(self._compile)

    def _compile(self) -> None:
        from .budget import graph_bytes

        graph = self.graph
        t0 = time.perf_counter()
        try:
            if graph.destroyed:
                raise _Gone
            charged = graph.context.budget.charge(graph_bytes(graph.ir), "tier-up")
            try:
                compiled = self._compile_fn(self.device)
            except BaseException:
                graph.context.budget.release(charged)
                raise
        except _Gone:
            with self._lock:
                self.state = "done"
            return
        except Exception as e:  # the graph stays where it is
            log.info("graph %s: tier-up compile on %s failed: %s", _label(graph), self.device.id, e)
            self._finish(False, f"tier-up to {self.device.id} not tried: its compile failed ({type(e).__name__}: {e})")
            return
        ms = (time.perf_counter() - t0) * 1000.0
        with self._lock:
            if self.state == "compiling" and not graph.destroyed:
                self.candidate, self.charged, self.state = compiled, charged, "trial"
                self.compile_ms = ms
                return
        compiled.close()
        graph.context.budget.release(charged)

    # -- the decision
    def _decide(self) -> None:
        base, cand = statistics.median(self.base_ms), statistics.median(self.cand_ms)
        base_cpu, cand_cpu = statistics.median(self.base_cpu), statistics.median(self.cand_cpu)
        margin = float(self.rules.get("margin", 0.9))
        cpu_margin, slack = float(self.rules.get("cpu_margin", 0.75)), float(self.rules.get("cpu_latency_slack", 1.05))
        n = len(self.cand_ms)
        facts = (f"median of {n} interleaved live runs each: {cand:.3f} ms ({cand_cpu:.3f} ms of CPU) on "
                 f"{self.device.id} ({self.device.threads} thread(s)) against {base:.3f} ms ({base_cpu:.3f} ms of CPU) "
                 f"on {self.graph.placement.device.id}")
        faster = cand <= margin * base
        thriftier = cand <= slack * base and cand_cpu <= cpu_margin * base_cpu
        if faster or thriftier:
            why = "faster" if faster else "as fast, for less CPU time"
            self._finish(True, f"tier-up: moved to {self.device.id} ({why}) after {self.count} dispatches, {facts}; "
                               f"compiled in the background in {self.compile_ms:.0f} ms")
        else:
            self._finish(False, f"tier-up to {self.device.id} measured and dropped: {facts} (it must take at most "
                                f"{margin:g}x the time, or at most {slack:g}x the time and {cpu_margin:g}x the CPU time)")

    def _finish(self, keep: bool, why: str) -> None:
        graph = self.graph
        with self._lock:
            if self.state == "done":
                return
            self.state = "done"
            cand, charged = self.candidate, self.charged
            self.candidate, self.charged = None, 0
        self.outcome = why
        log.info("graph %s: %s", _label(graph), why)
        old = graph.placement
        if keep and cand is not None and not graph.destroyed:
            base = graph.compiled
            graph.compiled = cand
            n = len(graph.ir.nodes)
            # a new placement object: the old one is shared with the build memo
            graph.placement = dataclasses.replace(
                old, device=self.device, assignment=[self.device.id] * n, threads=self.device.threads,
                tier_up=None, reasons=[*old.reasons, why])
            base.close()
            graph.context.budget.release(graph.charged)
            graph.charged = charged
            if graph.journal is not None:
                journal, digest, _ = graph.journal
                graph.journal = (journal, digest, self.device_set)
            return
        if cand is not None:
            cand.close()
        if charged:
            graph.context.budget.release(charged)
        if old is not None:
            graph.placement = dataclasses.replace(old, tier_up=None, reasons=[*old.reasons, why])

    def close(self) -> None:
        """The graph is destroyed: drop the candidate (a compile under way drops its own)."""
        with self._lock:
            self.state = "done"
            cand, charged = self.candidate, self.charged
            self.candidate, self.charged = None, 0
        if cand is not None:
            cand.close()
        if charged:
            self.graph.context.budget.release(charged)


class _Gone(Exception):
    pass


def _label(graph) -> str:
    p = graph.placement
    return (p.graph_hash[:10] if p is not None and p.graph_hash else "?")


# One background thread for every graph's tier-up compile, on idle CPU time (IDLE).
_JOBS: queue.SimpleQueue = queue.SimpleQueue()
_THREAD: threading.Thread | None = None
_THREAD_LOCK = threading.Lock()


def _submit(job: Callable[[], None]) -> bool:
    global _THREAD
    with _THREAD_LOCK:
        if _THREAD is None or not _THREAD.is_alive():
            _THREAD = threading.Thread(target=_worker, name="webnn-tier-up", daemon=True)
            _THREAD.start()
    _JOBS.put((job, IDLE))
    return True


# the compile thread takes only idle CPU time inside the runtimes' own compile calls (tests that
# wait for a compile on a busy machine turn this off: such a thread may wait as long as the
# machine stays busy)
IDLE = True


def _set_idle(idle: bool) -> None:
    """The calling thread runs only on CPU time nothing else wants (``idle``: Linux SCHED_IDLE,
    per thread), or as any other."""
    import os

    os.sched_setscheduler(threading.get_native_id(), os.SCHED_IDLE if idle else os.SCHED_OTHER, os.sched_param(0))


@functools.lru_cache(maxsize=1)
def can_idle() -> bool:
    """Whether a thread here can go to idle priority and back (Linux; an unprivileged process
    whose RLIMIT_NICE is 0, the default, cannot come back from SCHED_IDLE). Tried on a thread of
    its own, which ends either way."""
    ok = []

    def probe():
        try:
            _set_idle(True)
            _set_idle(False)
            ok.append(True)
        except (AttributeError, OSError):
            pass

    t = threading.Thread(target=probe, name="webnn-tier-up-probe", daemon=True)
    t.start()
    t.join()
    return bool(ok)


def _idle_in_native_work(low: bool) -> None:
    try:
        _set_idle(low)
    except OSError as e:  # cannot happen where can_idle() said yes; the compile goes on either way
        log.warning("tier-up: the compile thread's priority did not change: %s", e)


def _worker() -> None:
    """The compile thread: of normal priority while it runs Python (it holds the GIL: of idle
    priority, a busy machine would keep it from giving the GIL back to the dispatches), of idle
    priority inside the runtimes' own compile calls, which release the GIL (backends/base.py
    native_work), where the machine allows it (can_idle), else of normal priority throughout."""
    while True:
        job, idle_time_only = _JOBS.get()
        native_work_priority(_idle_in_native_work if idle_time_only and can_idle() else None)
        try:
            job()
        except Exception:  # a job reports its own failures; never let one end the thread
            log.exception("tier-up job failed")


def idle(timeout: float = 30.0) -> bool:
    """Wait until every submitted compile has run (tests). Whether it did in time."""
    done = threading.Event()
    _submit(done.set)
    return done.wait(timeout)
