"""The compile thread (backends/compiler.py): big graphs' compiles run on one thread whose heap
holds a reserve of memory already faulted in, made while nothing waits for the host; nothing ever
waits for the thread, and the reserve goes when the machine is short of memory."""

from __future__ import annotations

import ctypes
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from webnn_bridge.backends import cache as cache_module
from webnn_bridge.backends import compiler
from webnn_bridge.backends.cache import CompileCache
from webnn_bridge.backends.compiler import HOP_MIN_BYTES, CompileThread, glibc
from webnn_bridge.bridge import heap, protocol
from webnn_bridge.bridge.api import ML
from webnn_bridge.bridge.metrics import resident_bytes
from webnn_bridge.bridge.session import Session

MIB = 1 << 20
needs_glibc = pytest.mark.skipif(glibc() is None, reason="the reserve is glibc's heap (Linux)")


@pytest.fixture(autouse=True)
def _normal_priority(monkeypatch):
    """The suite may run under nice: its threads count as normal-priority callers here."""
    monkeypatch.setattr(compiler, "_background", lambda: False)


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


def _rss_mib() -> float:
    return resident_bytes() / MIB


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
    assert t.refill_soon() is False  # nor is a reserve queued behind it
    assert t.release() is False  # nor freed under it
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
import ctypes, json, os
# 4 KiB pages whatever the kernel's transparent huge pages setting ("always" would fault 2 MiB at once)
ctypes.CDLL(None).prctl(41, 1, 0, 0, 0)  # PR_SET_THP_DISABLE
from webnn_bridge.bridge import heap
from webnn_bridge.backends import compiler
from webnn_bridge.backends.compiler import CompileThread
from tests.test_compile_thread import MIB, _rss_mib, _touch, _wait_idle
heap.tune_malloc()  # as a host that owns its process has it (serve): 1 MiB blocks come from the heaps
compiler._background = lambda: False  # the suite may run under nice
t = CompileThread(reserve=32 * MIB)
t.start()
out = {"cold": t.run(lambda: _touch(24), 10 * MIB)}  # the thread's heap has never held this much
heap.trim_heap()
out["cold_again"] = t.run(lambda: _touch(24), 10 * MIB)
rss = _rss_mib()
out["asked"] = t.refill_soon()
_wait_idle(t)
out["held_mib"] = _rss_mib() - rss
heap.trim_heap()  # a page leaves: the heap's free memory goes back, the held reserve stays
out["warm_before"] = t.warm
out["warm"] = t.run(lambda: _touch(24), 10 * MIB)
out["warm_after"] = t.warm
heap.trim_heap()
t.refill_soon()
_wait_idle(t)
rss = _rss_mib()
out["released"] = t.release()
out["released_mib"] = rss - _rss_mib()
out["page"] = os.sysconf("SC_PAGE_SIZE")
print(json.dumps(out))
"""


@needs_glibc
def test_the_reserve_spares_a_compile_its_page_faults_and_goes_when_asked():
    """In a process of its own, as a host's (glibc gives threads their own heaps only up to a
    number of arenas: in a test process with many threads, the compile thread shares one)."""
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root / "src"), str(root)])}
    r = subprocess.run([sys.executable, "-c", RESERVE_PROBE], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["asked"] and out["warm_before"] and not out["warm_after"], out  # a compile used it
    cold, warm = out["cold"], out["warm"]
    assert cold > 24 * MIB // out["page"] // 2, out  # 4 KiB pages: about 6,000 faults
    assert out["cold_again"] > cold // 2, out  # a trimmed heap faults again
    assert warm < cold // 10, out  # the reserve, held through a trim, spared them
    assert out["held_mib"] > 24, out  # what the reserve costs while held
    assert out["released"] and out["released_mib"] > 24, out


@needs_glibc
def test_an_idle_host_makes_the_reserve_again_or_frees_it_when_memory_is_short(monkeypatch, ort_devices):
    t = CompileThread(reserve=8 * MIB)
    t.start()
    monkeypatch.setattr(heap, "COMPILER", t)
    pressed = [False]
    monkeypatch.setattr(heap, "memory_pressure", lambda: pressed[0])
    ml = ML(ort_devices, compile_cache=CompileCache())
    heap.idle(ml)  # what the server does once no page is left
    _wait_idle(t)
    assert t.warm and t.stats["refilled"] == 1
    heap.idle(ml)  # held: nothing to make
    _wait_idle(t)
    assert t.stats["refilled"] == 1
    pressed[0] = True
    heap.idle(ml)
    assert not t.warm and t.stats["released"] == 1
    heap.idle(ml)  # and none made while the machine is short of memory
    _wait_idle(t)
    assert not t.warm and t.stats["refilled"] == 1


@needs_glibc
def test_a_pages_build_message_compiles_on_the_thread_out_of_the_reserve(monkeypatch, ort_devices):
    """Through the protocol: a constant uploaded with putConstant (4 MiB), the build naming it;
    its compile runs on the compile thread, out of the reserve, and the graph computes right."""
    t = CompileThread(reserve=8 * MIB)
    t.start()
    t.refill_soon()
    _wait_idle(t)
    for m in (compiler, cache_module):
        monkeypatch.setattr(m, "COMPILER", t)
    ml = ML(ort_devices, compile_cache=CompileCache())
    s = Session(ml, "http://app.test")
    s.receive(protocol.encode({"t": "createContext", "id": 1, "ctx": 1}))
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
    xs = np.ones((1, 1024), np.float32)
    ctx = s.contexts[1]
    np.testing.assert_allclose(ctx.compute(s.graphs[3], {"x": xs})["y"], xs @ w, rtol=1e-4, atol=1e-3)
    s.close()


def test_the_reserve_is_sized_by_the_environment_and_zero_turns_the_thread_off(monkeypatch):
    monkeypatch.setenv(compiler.RESERVE_ENV, "16")
    assert CompileThread().reserve == 16 * MIB
    monkeypatch.setenv(compiler.RESERVE_ENV, "many")  # not a number: the default, and a warning
    assert CompileThread().reserve == compiler.RESERVE_BYTES
    monkeypatch.setenv(compiler.RESERVE_ENV, "0")
    t = CompileThread()
    t.start()
    assert not t.enabled and t._thread is None
    assert t.run(lambda: threading.current_thread().name, 64 * MIB) == threading.current_thread().name
    assert t.refill_soon() is False and not t.warm
