"""The compile thread (backends/compiler.py): big graphs' compiles run on one thread whose heap
holds memory already faulted in, nothing ever waits for it, and the reserve goes when the host
trims its heap."""

from __future__ import annotations

import ctypes
import os
import threading

import numpy as np
import pytest

from webnn_bridge.backends import cache as cache_module
from webnn_bridge.backends import compiler
from webnn_bridge.backends.cache import CompileCache
from webnn_bridge.backends.compiler import HOP_MIN_BYTES, CompileThread, glibc
from webnn_bridge.bridge import heap, protocol
from webnn_bridge.bridge.api import ML, MLGraphBuilder
from webnn_bridge.bridge.session import Session

MIB = 1 << 20
needs_glibc = pytest.mark.skipif(glibc() is None, reason="the reserve is glibc's heap (Linux)")


def _wait_idle(t: CompileThread) -> None:
    """Until the thread has finished what it was handed (its busy lock is free)."""
    assert t._busy.acquire(timeout=30)
    t._busy.release()


def _thread_faults() -> int:
    """Minor page faults of the calling thread (Linux)."""
    import resource

    return resource.getrusage(getattr(resource, "RUSAGE_THREAD", 1)).ru_minflt


def _touch(n_mib: int) -> int:
    """Allocate n MiB in 1 MiB blocks from the C heap, write them, free them: the page faults it took."""
    libc = glibc()
    before = _thread_faults()
    blocks = [libc.malloc(MIB) for _ in range(n_mib)]
    for b in blocks:
        ctypes.memset(b, 1, MIB)
    after = _thread_faults()
    for b in blocks:
        libc.free(b)
    return after - before


@needs_glibc
def test_big_compiles_run_on_the_thread_and_small_ones_where_they_are_asked():
    t = CompileThread(reserve=8 * MIB)
    where = []
    assert t.run(lambda: threading.current_thread().name, HOP_MIN_BYTES) == threading.current_thread().name  # not started
    t.start()
    assert t.run(lambda: threading.current_thread().name, HOP_MIN_BYTES) == "webnn-compile"
    assert t.run(lambda: threading.current_thread().name, HOP_MIN_BYTES - 1) == threading.current_thread().name

    def fails():
        where.append(threading.current_thread().name)
        raise ValueError("the backend's error")

    with pytest.raises(ValueError, match="the backend's error"):  # the caller gets the compile's exception
        t.run(fails, 10 * MIB)
    assert where == ["webnn-compile"]
    assert t.run(lambda: 42, 10 * MIB) == 42  # and the thread goes on
    assert t.stats["thread"] == 3


@needs_glibc
def test_nothing_waits_for_a_busy_thread():
    t = CompileThread(reserve=8 * MIB)
    t.start()
    release = threading.Event()
    started = threading.Event()

    def slow():
        started.set()
        release.wait(30)
        return "slow"

    out = {}
    first = threading.Thread(target=lambda: out.setdefault("first", t.run(slow, 10 * MIB)))
    first.start()
    assert started.wait(30)
    # the thread is busy: this compile runs here at once
    assert t.run(lambda: threading.current_thread().name, 10 * MIB) == threading.current_thread().name
    assert t.warm_soon() is False  # nor is a reserve queued behind it
    release.set()
    first.join(30)
    assert out["first"] == "slow"


@needs_glibc
def test_background_threads_keep_their_compiles(monkeypatch):
    t = CompileThread(reserve=8 * MIB)
    t.start()
    monkeypatch.setattr(compiler, "_background", lambda: True)
    assert t.run(lambda: threading.current_thread().name, 10 * MIB) == threading.current_thread().name


RESERVE_PROBE = """
import json, os
from webnn_bridge.bridge import heap
from webnn_bridge.backends.compiler import CompileThread
from tests.test_compile_thread import MIB, _touch, _wait_idle
heap.tune_malloc()  # as a host that owns its process has it (serve): 1 MiB blocks come from the heaps
t = CompileThread(reserve=32 * MIB)
t.start()
out = {"cold": t.run(lambda: _touch(24), 10 * MIB)}  # the thread's heap has never held this much
heap.trim_heap()  # what a page's leaving does: the heap's free memory goes back
out["was_warm_after_trim"] = t.warm
out["cold_again"] = t.run(lambda: _touch(24), 10 * MIB)
out["asked"] = t.warm_soon()
_wait_idle(t)
out["warm_before"] = t.warm
out["warm"] = t.run(lambda: _touch(24), 10 * MIB)
out["warm_after"] = t.warm
out["page"] = os.sysconf("SC_PAGE_SIZE")
print(json.dumps(out))
"""


@needs_glibc
def test_the_reserve_spares_a_compile_its_page_faults():
    """In a process of its own, as a host's (glibc gives threads their own heaps only up to a
    number of arenas: in a test process with many threads, the compile thread shares one)."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root / "src"), str(root)])}
    r = subprocess.run([sys.executable, "-c", RESERVE_PROBE], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["asked"] and out["warm_before"] and not out["warm_after"]  # a compile used it
    assert not out["was_warm_after_trim"]
    cold, warm = out["cold"], out["warm"]
    assert cold > 24 * MIB // out["page"] // 2, out  # 4 KiB pages: about 6,000 faults
    assert out["cold_again"] > cold // 2, out  # the trim gave the memory back
    assert warm < cold // 10, out


@needs_glibc
def test_a_trim_while_the_reserve_is_made_gives_it_back():
    t = CompileThread(reserve=16 * MIB)
    asked = t._trims
    t.cold()  # the host trims its heap after the reserve was asked for, before it is made
    t._make_reserve(asked)
    assert not t.warm and t.stats["warmed"] == 0
    t._make_reserve(t._trims)
    assert t.warm and t.stats["warmed"] == 1


def _rss_mib() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / MIB


@needs_glibc
def test_a_page_that_opens_a_context_gets_a_reserve_that_leaves_with_it(monkeypatch, ort_devices):
    heap.tune_malloc()
    t = CompileThread(reserve=48 * MIB)
    t.start()
    monkeypatch.setattr(compiler, "COMPILER", t)
    monkeypatch.setattr(cache_module, "COMPILER", t)
    monkeypatch.setattr(heap, "COMPILER", t)
    from webnn_bridge.bridge import session as session_module

    monkeypatch.setattr(session_module, "COMPILER", t)
    monkeypatch.setattr(session_module, "memory_pressure", lambda: False)  # whatever this machine's state
    ml = ML(ort_devices, compile_cache=CompileCache())

    def page(seed: int, s: Session):
        """A page's context and a graph of 4 MiB of weights, built, run, destroyed."""
        if 1 not in s.contexts:
            s.receive(protocol.encode({"t": "createContext", "id": 1, "ctx": 1}))
            _wait_idle(t)
        w = np.random.default_rng(seed).standard_normal((1024, 1024)).astype(np.float32)
        ctx = s.contexts[1]
        b = MLGraphBuilder(ctx)
        x = b.input("x", {"dataType": "float32", "shape": [1, 1024]})
        g = b.build({"y": b.matmul(x, b.constant({"dataType": "float32", "shape": [1024, 1024]}, w))})
        xs = np.ones((1, 1024), np.float32)
        np.testing.assert_allclose(ctx.compute(g, {"x": xs})["y"], xs @ w, rtol=1e-4, atol=1e-3)
        g.destroy()

    first = Session(ml)
    page(0, first)  # the process's one-time costs (the runtime's first session) before measuring
    first.close()
    heap.idle(ml)
    before = _rss_mib()
    s = Session(ml)
    s.receive(protocol.encode({"t": "createContext", "id": 1, "ctx": 1}))
    _wait_idle(t)
    assert t.warm  # the page's context made it
    page(1, s)  # a new graph (other weights): compiled on the thread, out of the reserve
    assert t.stats["thread"] == 2 and not t.warm
    s.close()  # the page leaves: its heap is trimmed, the reserve with it
    heap.idle(ml)
    after = _rss_mib()
    assert not t.warm  # the next page's context makes it again
    assert after - before < 16, (before, after)


@needs_glibc
def test_only_contexts_whose_builds_compile_make_the_reserve(monkeypatch, ort_devices):
    """A reloaded page or a restarted host (the origin's constants are held) rebuilds from the
    caches: its contexts make no reserve; an origin's first context does, unless the machine is
    short of memory."""
    import hashlib

    t = CompileThread(reserve=8 * MIB)
    t.start()
    from webnn_bridge.bridge import session as session_module

    monkeypatch.setattr(session_module, "COMPILER", t)
    monkeypatch.setattr(session_module, "memory_pressure", lambda: False)
    ml = ML(ort_devices, compile_cache=CompileCache())
    data = memoryview(b"\x01" * 64)
    ml.constant_store.put("http://held.test", hashlib.sha256(data).hexdigest(), data)
    s = Session(ml, "http://held.test")
    s.receive(protocol.encode({"t": "createContext", "id": 1, "ctx": 1}))
    _wait_idle(t)
    assert not t.warm and t.stats["warmed"] == 0
    fresh = Session(ml, "http://new.test")  # an origin the host holds nothing of: its first build follows
    fresh.receive(protocol.encode({"t": "createContext", "id": 1, "ctx": 1}))
    _wait_idle(t)
    assert t.warm and t.stats["warmed"] == 1
    t.cold()
    monkeypatch.setattr(session_module, "memory_pressure", lambda: True)  # the machine is short of memory
    short = Session(ml, "http://other.test")
    short.receive(protocol.encode({"t": "createContext", "id": 1, "ctx": 1}))
    _wait_idle(t)
    assert not t.warm and t.stats["warmed"] == 1
    for x in (s, fresh, short):
        x.close()


@needs_glibc
def test_a_pages_build_message_compiles_on_the_thread(monkeypatch, ort_devices):
    """Through the protocol: an origin's first context makes the reserve; a constant uploaded with
    putConstant (4 MiB), the build naming it: its compile runs on the compile thread, out of it."""
    t = CompileThread(reserve=8 * MIB)
    t.start()
    from webnn_bridge.bridge import session as session_module

    for m in (compiler, cache_module, session_module):
        monkeypatch.setattr(m, "COMPILER", t)
    monkeypatch.setattr(session_module, "memory_pressure", lambda: False)
    ml = ML(ort_devices, compile_cache=CompileCache())
    s = Session(ml, "http://app.test")
    s.receive(protocol.encode({"t": "createContext", "id": 1, "ctx": 1}))
    _wait_idle(t)
    assert t.warm
    w = np.random.default_rng(2).standard_normal((1024, 1024)).astype(np.float32)
    assert s.receive(protocol.encode({"t": "putConstant", "ctx": 1, "upload": 5}, w)) == []
    desc = {"dataType": "float32", "shape": [1, 1024]}
    reply = s.receive(protocol.encode({
        "t": "build", "id": 2, "ctx": 1, "graph": 3, "inputs": [{"operand": 0, "name": "x", "desc": desc}],
        "constants": [{"operand": 1, "desc": {"dataType": "float32", "shape": [1024, 1024]}, "upload": 5}],
        "nodes": [{"op": "matmul", "args": [{"$operand": 0}, {"$operand": 1}, {}], "outputs": [2]}],
        "outputs": {"y": 2}}))
    assert "ok" in protocol.decode(reply[0])[0], reply
    assert t.stats["thread"] == 1 and not t.warm
    s.close()
