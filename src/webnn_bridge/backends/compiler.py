"""The compile thread: backends' sessions for big graphs are created on one long-lived thread whose
C heap holds a reserve of memory already faulted in.

A runtime creating a session touches tens of MiB of memory it has just allocated: ONNX Runtime's
session of MobileNetV2 (13.3 MiB of weights) reorders and packs them, about 40 MiB in all. The
first time a process does so, each page of that memory is a page fault: about 10,000 of them, 25
of the session's 27 ms on the 2-core VM (a fault costs 1.5 to 2.5 us in a virtual machine), and
again later wherever the heap gave its free memory back. A session created where the memory is
already faulted in took 9 to 10 ms (the same model, in process, 14 faults).

glibc's malloc serves each thread from an arena of its own (up to 8 arenas per core; beyond that
threads share them, and a shared arena's memory serves whoever allocates first), so such a reserve
only helps the thread it was made on: hence one thread for these compiles, started by a host that
owns its process (bridge/server.py, beside tune_malloc). The reserve is RESERVE_BYTES of chunks
below the heap's mmap threshold (bridge/heap.py's tune_malloc), allocated and written by that
thread while nothing waits for it (``refill_soon``: when the host starts, and when it is idle again
after a compile used the reserve: bridge/heap.py idle) and held, so that trimming the heap (a page
leaves: malloc_trim) leaves it be. A compile on the thread first frees it: the chunks merge into
one free chunk below a small fence allocated above the first reserve's chunks (and kept), not into
the heap's top, which free() would trim beyond the trim threshold, and the compile's allocations
are carved out of it. Made while a page waits instead (at its context, beside its builder calls),
the reserve's 20 ms of page faults slowed the first build of small graphs that never use it (a
tiny MLP's 19 -> 35 ms on two cores). Under memory pressure the idle host frees it and makes none.

Threads at a background priority (the host's prepare thread, which compiles a restarted host's
recent graphs while a page makes its builder calls) keep their compiles and their priority. A
compile asked for while the thread is busy (another page's compile, or the reserve being made)
runs on the caller's thread as before: nothing ever waits for the thread. Only graphs with at
least HOP_MIN_BYTES of constants go there (a small graph's few faults are not worth the hand-off).
Elsewhere than glibc (musl, macOS, Windows) there is no reserve, and compiles stay on the caller's
thread."""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import logging
import os
import queue
import sys
import threading
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

log = logging.getLogger("webnn_bridge.compiler")

RESERVE_ENV = "WEBNN_BRIDGE_COMPILE_RESERVE_MB"  # the reserve's size in MiB; 0: no compile thread
RESERVE_BYTES = 48 << 20  # MobileNetV2's session used about 40 MiB (see above)
CHUNK_BYTES = 1 << 20  # below bridge/heap.py's mmap threshold (2 MiB): carved from the thread's heap
# graphs with fewer bytes of constants compile on the caller's thread: a session's set-up touches a
# few times its weights, and a thread hand-off on a busy machine can cost milliseconds (LeNet's
# 1.7 MiB: its 2.7 ms compile waited up to 10 ms for the thread to run)
HOP_MIN_BYTES = 4 << 20


@functools.cache
def glibc():
    """The C library when it is glibc on Linux (malloc_trim, mallopt, the arenas described
    above), else None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.malloc_trim  # noqa: B018 (glibc's own: musl has none)
    except (OSError, AttributeError):
        return None
    libc.malloc.restype = ctypes.c_void_p
    libc.malloc.argtypes = [ctypes.c_size_t]
    libc.free.argtypes = [ctypes.c_void_p]
    return libc


def reserve_bytes() -> int:
    """RESERVE_BYTES, or WEBNN_BRIDGE_COMPILE_RESERVE_MB (a whole number of MiB) where set."""
    value = os.environ.get(RESERVE_ENV, "").strip()
    if not value:
        return RESERVE_BYTES
    try:
        return max(0, int(value)) << 20
    except ValueError:
        log.warning("%s=%r is not a whole number of MiB; using %d", RESERVE_ENV, value, RESERVE_BYTES >> 20)
        return RESERVE_BYTES


class CompileThread:
    """One thread for big graphs' compiles (``run``), with its heap's reserve (``refill_soon``)."""

    def __init__(self, reserve: int | None = None):
        self.reserve = reserve_bytes() if reserve is None else reserve
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._busy = threading.Lock()  # taken by whoever hands the thread a job, released when it is done
        self._start_lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._chunks: list[int] = []  # the reserve: allocated and written on the thread, held
        self._fence: int | None = None  # the allocation kept above the first reserve (never freed)
        self.stats: Counter = Counter()  # "thread", "caller" (compiles), "refilled", "released"

    @property
    def enabled(self) -> bool:
        return self.reserve > 0 and glibc() is not None

    @property
    def warm(self) -> bool:
        """Whether the reserve is held (made, and no compile has used it since)."""
        return bool(self._chunks)

    def start(self) -> None:
        """Start the thread (once): a host that owns its process does before it serves."""
        if not self.enabled:
            return
        with self._start_lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._serve, name="webnn-compile", daemon=True)
                self._thread.start()

    def run(self, fn: Callable[[], Any], constant_bytes: int) -> Any:
        """``fn()`` (a backend's compile of a graph with ``constant_bytes`` of constants): on
        the compile thread when it is started and free and the graph is big enough, else here.
        Its result or its exception, either way."""
        if (self._thread is None or constant_bytes < HOP_MIN_BYTES or threading.current_thread() is self._thread
                or _background() or not self._busy.acquire(blocking=False)):
            self.stats["caller"] += 1
            return fn()
        done: Future = Future()
        self._jobs.put((fn, done))
        return done.result()

    def refill_soon(self) -> bool:
        """Have the thread make its reserve, unless it holds one or is busy (callers ask when
        nothing waits for the host and the machine is not short of memory). Whether it was asked."""
        if self._thread is None or self.warm or not self._busy.acquire(blocking=False):
            return False
        self._jobs.put((None, None))
        return True

    def release(self) -> bool:
        """Free the reserve now (the machine is short of memory), unless a job has the thread.
        Whether it did."""
        if not self._busy.acquire(blocking=False):
            return False
        try:
            if self._chunks:
                self._free_reserve()
                glibc().malloc_trim(0)  # free chunks inside a heap go back only when trimmed
                self.stats["released"] += 1
        finally:
            self._busy.release()
        return True

    def _serve(self) -> None:
        while True:
            fn, done = self._jobs.get()  # a compile and its future, or None: make the reserve
            try:
                if fn is None:
                    self._refill()
                else:
                    self._free_reserve()  # its chunks become the free memory the compile allocates from
                    self.stats["thread"] += 1
                    try:
                        done.set_result(fn())
                    except BaseException as e:  # the caller raises it
                        done.set_exception(e)
            except Exception:  # never ends the thread
                log.exception("the compile thread's job failed")
            finally:
                del fn, done
                self._busy.release()

    def _free_reserve(self) -> None:
        libc = glibc()
        chunks, self._chunks = self._chunks, []
        for c in chunks:
            libc.free(c)

    def _refill(self) -> None:
        libc = glibc()
        chunks = [c for c in (libc.malloc(CHUNK_BYTES) for _ in range(self.reserve // CHUNK_BYTES)) if c]
        if self._fence is None:  # above the first reserve's chunks: they are the arena's newest
            self._fence = libc.malloc(64)
        for c in chunks:
            ctypes.memset(c, 0, CHUNK_BYTES)
        self._chunks = chunks
        self.stats["refilled"] += 1


def _background() -> bool:
    """Whether the calling thread runs at a lower priority than normal (Linux: nice is per thread)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) > 0
    except OSError:
        return False


COMPILER = CompileThread()
