"""A pooled graph's thread count, chosen again and again in live dispatches (rules.toml [pool_trial]).

A graph big enough for a thread pool (backends/base.py gains_from_threads) compiles with one. On a
small machine that pool pays only under some conditions, which change while a page runs: measured
on the 2-core machine (docs/performance.md), MobileNetV2 ran 3.9-4.0 ms on LiteRT's pool of two
against 7.2-7.4 ms on one thread when runs followed each other, but 7.8-8.3 ms against 7.3-7.4 ms
after 20 ms pauses (a camera's frame rate), and 8.0-8.4 ms against 7.0-7.5 ms with another process
keeping one core busy, where the pool also cost 10-20% more CPU time. No rule read off the graph
knows which of these a page is in.

Where a pool pays, its threads are busy together: the process's CPU time per run is near the
pool's size times the run's latency (2.0x for MobileNetV2's back-to-back runs above); where it does
not, the other threads mostly wait (1.1x after the pauses and beside the busy core). So once such a
graph is hot (``min_dispatches`` dispatches, the median of its recent runs at least
``min_run_ms``) and its pool's runs have kept fewer than ``min_parallelism`` threads busy on
average (the medians of their CPU time and latency) for ``settle_s`` (what passes, such as the
browser compiling a page's code in its first second, is not tried against), the same runtime
compiles it on one thread in the background (the tier-up's
compile thread, on idle CPU time: bridge/tier_up.py) and its live dispatches try both: blocks of
``block_runs`` runs of each form in a row, ``blocks`` of each, alternated (the first run of a block
is not counted: it pays the wake-up of threads the other form left idle). The pool keeps the graph
when the median of its runs is at most ``margin`` times one thread's; else one thread runs it. Every
run is a real dispatch with real results (both forms compute the same graph).

Unlike a tier-up the choice is not final: it is tried again ``recheck_s`` after it was made (the
wait doubles, up to ``max_recheck_s``, while the choice stands, and starts over when it changes),
and at once when the chosen form's recent runs take ``drift`` times longer than in its trial (a
busy neighbour arrived). Both forms stay compiled (both charged to the page's budget). The latest
choice of a graph (by its digest and device) is remembered for the host's life, so a page that
builds the same graph again starts from it instead of trying again at once. Its placement's
reasons say what was measured.

Dispatches of one graph never overlap (a context's messages are handled one at a time): only the
background compile runs beside them, and it hands its result over through the lock.
"""

from __future__ import annotations

import dataclasses
import logging
import statistics
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping

from . import tier_up

log = logging.getLogger("webnn_bridge.pool_trial")

RECENT = 8  # runs of the chosen form kept to judge whether the graph is hot, or its runs drifted
MIN_RETRY_S = 1.0  # a drift starts a trial at most this often
REASON = "threads: "  # the prefix of the placement's reason line this trial keeps up to date


@dataclasses.dataclass
class Choice:
    """A graph's latest choice: ``pool`` or not, the medians its trial measured (ms), when it was
    made (time.monotonic) and how long it stands before it is tried again."""

    pool: bool
    pool_ms: float
    one_ms: float
    at: float
    wait_s: float

    def due(self, now: float) -> bool:
        return now - self.at >= self.wait_s


class Choices:
    """The latest choice of each graph (by key), at most ``limit`` of them (thread-safe)."""

    def __init__(self, limit: int = 256):
        self.limit = limit
        self._items: OrderedDict[str, Choice] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> Choice | None:
        with self._lock:
            return self._items.get(key)

    def put(self, key: str, choice: Choice) -> None:
        with self._lock:
            self._items[key] = choice
            self._items.move_to_end(key)
            while len(self._items) > self.limit:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


CHOICES = Choices()


class PoolTrial:
    """The thread-count trial of one graph compiled with a pool (``graph.compiled``): the same
    interface as tier_up.TierUp (pick, ran, failed, close; ``state`` "done" once it no longer
    runs), so MLContext dispatches through either the same way."""

    device_set = None  # the crash journal's: the graph's own (the same device)

    def __init__(self, graph, pool_threads: int, rules: Mapping, compile_one: Callable[[], object], key: str,
                 clock: Callable[[], float] = time.monotonic):
        self.graph = graph
        self.pool_threads = pool_threads
        self.rules = rules
        self._compile_one = compile_one  # -> the graph compiled on one thread, on the background thread
        self.key = key
        self.clock = clock
        self._lock = threading.Lock()
        self.one = None  # the one-thread form, once compiled
        self.charged = 0  # its bytes in the context's budget
        self.state = "watching"  # watching | compiling | trial | done
        self.count = 0
        self.recent: list[float] = []
        self.recent_cpu: list[float] = []  # the process's CPU time in each of those runs
        self.waiting_since: float | None = None  # since when the pool's threads have mostly waited
        self.choice = CHOICES.get(key)
        self.trials = 0
        self.outcome: str | None = None
        self._plan: list[bool] = []  # the trial's remaining runs: True = the pool
        self._first = True  # the next run is the first of its block
        self._runs: dict[bool, list[float]] = {True: [], False: []}
        self._cpu: dict[bool, list[float]] = {True: [], False: []}
        if self.choice is not None and not self.choice.pool:
            self._start_compile()  # the graph ran on one thread last time: that form, as soon as it is compiled

    @property
    def uses_pool(self) -> bool:
        """Whether dispatches outside a trial run on the pool."""
        return self.choice is None or self.choice.pool or self.one is None

    # -- the dispatch path (the graph's dispatching thread)
    def pick(self):
        """(compiled, is_one_thread) for this dispatch."""
        if self.state == "trial" and self._plan:
            pool = self._plan[0]
        else:
            pool = self.uses_pool
        return (self.graph.compiled, False) if pool else (self.one, True)

    def ran(self, is_one: bool, seconds: float, cpu_seconds: float = 0.0) -> None:
        """A dispatch's run took ``seconds`` (and ``cpu_seconds`` of the process's CPU time) on one
        thread or on the pool."""
        ms = seconds * 1000.0
        if self.state == "trial" and self._plan:
            pool = self._plan.pop(0)
            if pool == (not is_one):  # (a failed one-thread run was run again on the pool: not counted)
                if not self._first:
                    self._runs[pool].append(ms)
                    self._cpu[pool].append(cpu_seconds * 1000.0)
                self._first = bool(self._plan) and self._plan[0] != pool
            if not self._plan:
                self._decide()
            return
        if is_one == self.uses_pool:
            return
        self.count += 1
        self.recent.append(ms)
        self.recent_cpu.append(cpu_seconds * 1000.0)
        del self.recent[:-RECENT], self.recent_cpu[:-RECENT]
        if self.state == "watching" and self._wants_trial():
            if self.one is None:
                self._start_compile()
            else:
                self._start_trial()

    def _wants_trial(self) -> bool:
        if self.count < int(self.rules.get("min_dispatches", 8)) or len(self.recent) < min(RECENT, self.count):
            return False
        median = statistics.median(self.recent)
        if median < float(self.rules.get("min_run_ms", 1.0)):
            return False
        now = self.clock()
        if self.uses_pool:
            if statistics.median(self.recent_cpu) >= float(self.rules.get("min_parallelism", 1.4)) * median:
                self.waiting_since = None
                return False  # the pool's threads are busy together: one thread could not be faster
            if self.waiting_since is None:
                self.waiting_since = now
            if now - self.waiting_since < float(self.rules.get("settle_s", 1.0)):
                return False  # not for long yet: what passes (a page's own start) is not tried against
        c = self.choice
        if c is None:
            return True
        if c.due(now):
            return True
        chosen = c.pool_ms if c.pool else c.one_ms
        return (len(self.recent) >= RECENT and now - c.at >= MIN_RETRY_S
                and median > float(self.rules.get("drift", 1.3)) * chosen)

    def failed(self, e: BaseException) -> None:
        """The one-thread form's run failed: it is dropped and the pool runs the graph from now on
        (the caller runs the dispatch again)."""
        self._end(f"{REASON}the pool of {self.pool_threads} runs it: its one-thread form failed "
                  f"({type(e).__name__}: {e})")

    # -- the background compile
    def _start_compile(self) -> None:
        with self._lock:
            if self.state != "watching":
                return
            self.state = "compiling"
        tier_up._submit(self._compile)

    def _compile(self) -> None:
        from .budget import graph_bytes

        graph = self.graph
        try:
            if graph.destroyed:
                return self._end(None)
            charged = graph.context.budget.charge(graph_bytes(graph.ir), "a one-thread form of a graph")
            try:
                one = self._compile_one()
            except BaseException:
                graph.context.budget.release(charged)
                raise
        except Exception as e:  # the graph stays on its pool
            log.info("graph %s: no one-thread form: %s", tier_up._label(graph), e)
            return self._end(f"{REASON}the pool of {self.pool_threads} runs it: its one-thread form did not compile "
                             f"({type(e).__name__}: {e})")
        with self._lock:
            if self.state == "compiling" and not graph.destroyed:
                self.one, self.charged = one, charged
                self.state = "watching"
                if self.choice is not None and self.choice.pool:
                    self._start_trial_locked()  # a re-check compiled it: try it now
                elif self.choice is None:
                    self._start_trial_locked()
                return
        one.close()
        graph.context.budget.release(charged)

    # -- the trial
    def _start_trial(self) -> None:
        with self._lock:
            if self.state == "watching" and self.one is not None:
                self._start_trial_locked()

    def _start_trial_locked(self) -> None:
        n, blocks = int(self.rules.get("block_runs", 4)), int(self.rules.get("blocks", 3))
        first = not self.uses_pool  # the form not in use first: the one in use has just run
        self._plan = [b % 2 == (0 if first else 1) for b in range(2 * blocks) for _ in range(n)]
        self._first = True
        self._runs, self._cpu = {True: [], False: []}, {True: [], False: []}
        self.state = "trial"

    def _decide(self) -> None:
        pool_ms, one_ms = statistics.median(self._runs[True]), statistics.median(self._runs[False])
        pool_cpu, one_cpu = statistics.median(self._cpu[True]), statistics.median(self._cpu[False])
        margin = float(self.rules.get("margin", 0.95))
        pool = pool_ms <= margin * one_ms
        now, old = self.clock(), self.choice
        first_wait, most = float(self.rules.get("recheck_s", 2.0)), float(self.rules.get("max_recheck_s", 60.0))
        wait = min(most, 2 * old.wait_s) if old is not None and old.pool == pool else first_wait
        self.choice = Choice(pool, pool_ms, one_ms, now, wait)
        CHOICES.put(self.key, self.choice)
        self.trials += 1
        self.recent, self.recent_cpu, self.count, self.waiting_since = [], [], 0, None
        self.state = "watching"
        n = len(self._runs[True])
        facts = (f"medians of {n} live runs each, in blocks: {pool_ms:.2f} ms ({pool_cpu:.2f} ms of CPU) on a pool of "
                 f"{self.pool_threads}, {one_ms:.2f} ms ({one_cpu:.2f} ms of CPU) on one thread")
        which = f"the pool of {self.pool_threads}" if pool else "one thread"
        why = (f"{REASON}{which} runs it ({facts}; the pool must take at most {margin:g}x one thread's time; "
               f"tried again in {wait:g} s) [pool_trial]")
        if old is None or old.pool != pool:
            log.info("graph %s: %s", tier_up._label(self.graph), why)
        self._note(why)

    def _note(self, why: str) -> None:
        """The placement's reasons say the latest outcome (one line, replaced)."""
        self.outcome = why
        old = self.graph.placement
        if old is not None:  # a new placement object: the old one is shared with the build memo
            reasons = [r for r in old.reasons if not r.startswith(REASON)]
            self.graph.placement = dataclasses.replace(old, reasons=[*reasons, why])

    def _end(self, why: str | None) -> None:
        with self._lock:
            self.state = "done"
            one, charged = self.one, self.charged
            self.one, self.charged, self._plan = None, 0, []
        if one is not None:
            one.close()
        if charged:
            self.graph.context.budget.release(charged)
        if why is not None:
            self._note(why)

    def close(self) -> None:
        """The graph is destroyed: drop the one-thread form (a compile under way drops its own)."""
        self._end(None)
