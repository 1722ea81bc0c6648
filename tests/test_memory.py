"""A host that runs for weeks (issue 19): every byte belongs to a page's budget or to a capped
shared cache, memory comes back when pages leave, and big tensors travel without copies of them."""

from __future__ import annotations

import gc
import threading
import warnings

import numpy as np
import pytest

from webnn_bridge.backends.cache import CompileCache, held_bytes, memory_pressure
from webnn_bridge.bridge import protocol
from webnn_bridge.bridge.api import ML, MLGraphBuilder
from webnn_bridge.bridge.embed import start_host
from webnn_bridge.bridge.heap import idle, trim_heap
from webnn_bridge.bridge.session import Session, SessionLimits

from .wire import Wire

warnings.filterwarnings("ignore", r"connect\(\) must be used as a context manager", DeprecationWarning)
MIB = 1 << 20



def _owns_its_memory(a: np.ndarray) -> bool:
    """Whether an array's memory is numpy's own (not a view into a runtime's buffer)."""
    while isinstance(a.base, np.ndarray):
        a = a.base
    return a.base is None and a.flags.owndata


def _expand_graph(ctx, n: int, value: float = 2.0, with_input: bool = True):
    """y = expand(x or a constant, [n]) * 3: a graph whose values are n floats each."""
    b = MLGraphBuilder(ctx)
    x = b.input("x", {"dataType": "float32", "shape": [1]}) if with_input else b.constant("float32", value)
    y = b.mul(b.expand(b.reshape(x, [1]), [n]), b.constant("float32", 3.0))
    return b.build({"y": y})


# ------------------------------------------------------------------ runtime outputs are the page's


def test_runtime_outputs_are_arrays_the_page_owns(ort_devices):
    ctx = ML(ort_devices, compile_cache=CompileCache()).createContext()
    g = _expand_graph(ctx, 1000)
    out = g.compiled.run({"x": np.array([2], np.float32)})["y"]
    assert _owns_its_memory(out), out.base  # not a view of ONNX Runtime's buffers (its arena keeps those)
    np.testing.assert_array_equal(out, np.full(1000, 6, np.float32))
    again = g.compiled.run({"x": np.array([1], np.float32)})["y"]
    np.testing.assert_array_equal(out, np.full(1000, 6, np.float32))  # a later run writes elsewhere
    np.testing.assert_array_equal(again, np.full(1000, 3, np.float32))
    result = ctx.compute(g, {"x": np.array([5], np.float32)})["y"]
    assert _owns_its_memory(result) and result[0] == 15


def test_big_graphs_run_without_the_runtimes_arena(ort_devices):
    from webnn_bridge.backends.onnxruntime import ARENA_MAX_BYTES

    ctx = ML(ort_devices, compile_cache=CompileCache()).createContext()
    small, big = _expand_graph(ctx, 1000), _expand_graph(ctx, ARENA_MAX_BYTES // 4 + 1)
    assert small.compiled.compiled.arena and not big.compiled.compiled.arena


def test_a_deep_graph_of_small_values_keeps_its_arena(ort_devices):
    """What bounds the arena is what is alive at once, not the sum of every value a run makes (the
    OCR detector: 162 MiB in all, 11 MiB at once, ran 45% slower without its arena)."""
    from webnn_bridge.backends.base import graph_peak_value_bytes, graph_value_bytes
    from webnn_bridge.backends.onnxruntime import ARENA_MAX_BYTES

    n = ARENA_MAX_BYTES // 4 // 8 + 1  # floats per value: eight values together pass the bound
    ctx = ML(ort_devices, compile_cache=CompileCache()).createContext()
    b = MLGraphBuilder(ctx)
    x = b.input("x", {"dataType": "float32", "shape": [n]})
    y = x
    for _ in range(12):  # a chain: two values alive at once
        y = b.relu(b.add(y, b.constant("float32", 1.0)))
    g = b.build({"y": y})
    assert graph_value_bytes(g.ir) > ARENA_MAX_BYTES >= graph_peak_value_bytes(g.ir) == 2 * 4 * n
    assert g.compiled.compiled.arena
    got = ctx.compute(g, {"x": np.full(n, -20.0, np.float32)})["y"]
    np.testing.assert_array_equal(got, np.full(n, 11.0, np.float32))  # relu(-19) = 0, then 1 more each step


def test_the_peak_of_values_alive_at_once():
    from webnn_bridge.backends.base import graph_peak_value_bytes

    ctx = ML().createContext()
    b = MLGraphBuilder(ctx)
    x = b.input("x", {"dataType": "float32", "shape": [100]})
    a = b.relu(x)  # 400 bytes, read by the last add
    c = b.relu(b.neg(a))  # 400 + 400 (neg's output, gone after relu)
    g = b.build({"y": b.add(a, c), "z": c})
    # at relu(neg): a, neg's output and c alive; then neg's gone; add's output with a and c
    assert graph_peak_value_bytes(g.ir) == 3 * 400


# ------------------------------------------------------------------ the warm cache: capped by what it holds


def test_warm_sessions_are_charged_what_they_may_hold_and_capped(ort_devices):
    cache = CompileCache(warm_bytes=20 * MIB, pressure=lambda: False)
    ctx = ML(ort_devices, compile_cache=cache).createContext()
    graphs = [_expand_graph(ctx, 2 * MIB + k) for k in range(4)]  # two 8 MiB values each: 16 MiB
    assert all(16 * MIB < held_bytes(g.ir) < 17 * MIB for g in graphs)
    for g in graphs:
        g.destroy()
    assert len(cache._warm) == 1 and cache.warm_size() <= 20 * MIB  # by size, not only by count
    assert _expand_graph(ctx, 2 * MIB + 3).compiled.source == "memory"  # the most recent stays warm


def test_memory_pressure_and_idleness_empty_the_warm_cache(ort_devices, tmp_path):
    pressed = [False]
    cache = CompileCache(idle_bytes=1 * MIB, pressure=lambda: pressed[0])
    ctx = ML(ort_devices, compile_cache=cache).createContext()
    tiny, big = _expand_graph(ctx, 10), _expand_graph(ctx, MIB)
    big.destroy()
    tiny.destroy()
    assert len(cache._warm) == 2
    cache.trim()  # the host has no page: only idle_bytes stay (least recently used first out)
    assert list(cache._warm) == [tiny.compiled._entry.key]
    pressed[0] = True
    _expand_graph(ctx, 20).destroy()  # going warm under memory pressure: nothing stays
    assert not cache._warm

    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal:       1000000 kB\nMemFree: 10 kB\nMemAvailable:     20000 kB\n")
    assert memory_pressure(str(meminfo))
    meminfo.write_text("MemTotal:       1000000 kB\nMemAvailable:    500000 kB\n")
    assert not memory_pressure(str(meminfo))
    assert not memory_pressure(str(tmp_path / "absent"))


def test_the_machines_memory_reading_is_reused_for_a_moment(monkeypatch):
    """The caches ask at every constant they keep: /proc/meminfo is read at most once per
    PRESSURE_TTL_S, and again after it."""
    from webnn_bridge.backends import cache

    reads = []
    monkeypatch.setattr(cache, "_meminfo_pressure", lambda path: reads.append(path) or True)
    monkeypatch.setattr(cache, "_PRESSURE_READ", None)
    assert all(memory_pressure() for _ in range(100)) and reads == [cache.MEMINFO]
    monkeypatch.setattr(cache, "_PRESSURE_READ", (cache._PRESSURE_READ[0] - cache.PRESSURE_TTL_S, True))
    assert memory_pressure() and len(reads) == 2


def test_the_build_memo_and_constant_store_keep_nothing_in_memory_under_pressure():
    from webnn_bridge.bridge.memo import BuildMemo, ConstantStore, Validated

    for pressed in (False, True):
        memo = BuildMemo(pressure=lambda p=pressed: p)
        memo.put("k", Validated(None, None, "d", 1 * MIB))
        store = ConstantStore(pressure=lambda p=pressed: p)
        store.put("http://a.test", "0" * 64, memoryview(bytes(MIB)))
        kept = memo.get("k") is not None, store.get("http://a.test", "0" * 64) is not None
        assert kept == (not pressed, not pressed)


def _rss_mib() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


@pytest.mark.skipif(not trim_heap(), reason="needs Linux, glibc and /proc to see the memory given back")
def test_memory_comes_back_when_the_page_leaves(ort_devices):
    """The issue's measurement in one process: a page builds a graph whose value the runtime folds
    into a 64 MiB constant, dispatches it into three 64 MiB tensors, reads one and leaves."""
    ml = ML(ort_devices, compile_cache=CompileCache())
    n = 16 * MIB  # float32: 64 MiB
    gc.collect()
    idle(ml)
    before = _rss_mib()
    s = Session(ml)
    frames = []

    def call(msg):
        frames[:] = s.receive(protocol.encode(msg))
        return frames

    call({"t": "createContext", "id": 1, "ctx": 1})
    call({"t": "build", "id": 2, "ctx": 1, "graph": 2, "inputs": [],
          "constants": [{"operand": 1, "scalar": {"dataType": "float32", "value": 2.0}}],
          "nodes": [{"op": "expand", "args": [{"$operand": 1}, [n], {}], "outputs": [2]}], "outputs": {"y": 2}})
    assert "ok" in protocol.decode(frames[0])[0]
    for t in (10, 11, 12):
        call({"t": "createTensor", "id": t, "ctx": 1, "tensor": t,
              "desc": {"dataType": "float32", "shape": [n], "readable": True}})
        call({"t": "dispatch", "ctx": 1, "graph": 2, "inputs": {}, "outputs": {"y": t}})
    (reply, raw) = call({"t": "readTensor", "id": 3, "tensor": 11, "rawReply": True})
    assert np.frombuffer(raw.data, np.float32)[-1] == 2.0
    peak = _rss_mib()
    del reply, raw
    frames.clear()
    s.close()
    idle(ml)  # what the server does once no page is left
    after = _rss_mib()
    assert peak - before > 200, (before, peak)  # the measurement sees the page's memory
    assert after - before < 40, (before, peak, after)


# ------------------------------------------------------------------ bounded copies


def test_a_big_read_is_sent_from_the_tensor_in_fragments_charged_until_sent(ort_devices):
    ml = ML(ort_devices, compile_cache=CompileCache())
    ml.session_limits = SessionLimits(64 * MIB)
    s = Session(ml)
    ml.session_limits = None
    s.receive(protocol.encode({"t": "createContext", "id": 1, "ctx": 1}))
    n = 3 * protocol.FRAGMENT_BYTES + 5
    s.receive(protocol.encode({"t": "createTensor", "id": 2, "ctx": 1, "tensor": 5,
                               "desc": {"dataType": "uint8", "shape": [n], "readable": True, "writable": True}}))
    data = np.arange(n, dtype=np.uint64).astype(np.uint8)
    s.receive(protocol.encode({"t": "writeTensor", "tensor": 5}, data))
    held = s.budget.used
    for raw_reply in (True, False):
        frames = s.receive(protocol.encode({"t": "readTensor", "id": 3, "tensor": 5, "rawReply": raw_reply}))
        r = frames[-1]
        assert isinstance(r, protocol.Raw) and bool(r.head) is not raw_reply
        assert s.budget.used == held + protocol.IN_FLIGHT_BYTES  # the bytes in flight are the page's
        pieces = list(r.fragments())
        assert all(len(p) <= protocol.FRAGMENT_BYTES for p in pieces)
        body = [p for p in pieces if isinstance(p, memoryview)]
        tensor = s.tensors[5].data
        assert all(np.shares_memory(np.frombuffer(p, np.uint8), tensor) for p in body)  # views, not copies
        assert b"".join(body) == data.tobytes()
        if raw_reply:
            r.sent()  # the server says so once it is sent ...
        else:
            del frames, r, pieces, body  # ... or it is dropped
        assert s.budget.used == held
    # a page at its budget cannot have more in flight than it may hold
    s.budget.charge(s.budget.limit - s.budget.used, "filling")
    h, _ = protocol.decode(s.receive(protocol.encode({"t": "readTensor", "id": 4, "tensor": 5}))[0])
    assert h["error"]["name"] == "UnknownError"


def test_big_tensors_through_a_real_socket_and_every_charge_given_back(ort_devices):
    ml = ML(ort_devices, compile_cache=CompileCache())
    host = start_host(ml_factory=lambda: ml, session_budget_bytes=64 * MIB)
    try:
        n = 5 * MIB + 3
        data = (np.arange(n, dtype=np.uint64) * 7).astype(np.uint8).tobytes()
        with Wire(host.url) as ws:
            ws.request({"t": "createContext", "ctx": 1})
            ws.request({"t": "createTensor", "ctx": 1, "tensor": 5,
                        "desc": {"dataType": "uint8", "shape": [n], "readable": True, "writable": True}})
            ws.send({"t": "writeTensor", "tensor": 5, "raw": n})  # as the browser sends it: fragments
            ws.send_frame(memoryview(data)[i:i + (128 << 10)] for i in range(0, n, 128 << 10))
            ws.send({"t": "readTensor", "id": 13, "tensor": 5, "rawReply": True})
            h, _ = ws.receive_decoded()
            assert h == {"t": "reply", "re": 13, "ok": {}, "raw": n}
            assert ws.receive() == data  # one message, though it left in fragments
            ws.send({"t": "readTensor", "id": 14, "tensor": 5})
            h, body = ws.receive_decoded()
            assert h["re"] == 14 and body == data
            # a payload that is not what was announced is refused, and the session goes on
            for bad in ("text", data + b"x", data[:-1]):
                ws.send({"t": "writeTensor", "tensor": 5, "raw": n})
                ws.send_frame(bad)
                h, _ = ws.receive_decoded()
                assert h["t"] == "warning" and h["error"]["name"] == "TypeError", h
            ws.send({"t": "readTensor", "id": 15, "tensor": 5})
            assert ws.receive_decoded()[1] == data  # the refused writes changed nothing
            session = next(iter(host.host.sessions.values()))
            # the reply's in-flight charge goes when the host's send has finished, which may be a
            # moment after the page has the last byte
            for _ in range(100):
                if session.budget.used == n + 192 * 1024:
                    break
                threading.Event().wait(0.02)
            assert session.budget.used == n + 192 * 1024  # the tensor and the context: nothing in flight
            # a page at its budget: the bytes of its write are not kept, the write is refused
            full = session.budget.charge(session.budget.limit - session.budget.used, "filling")
            ws.send({"t": "writeTensor", "tensor": 5, "raw": n})
            ws.send_frame(memoryview(bytes(n))[i:i + (128 << 10)] for i in range(0, n, 128 << 10))
            h, _ = ws.receive_decoded()
            assert h["t"] == "warning" and h["error"]["name"] == "UnknownError", h
            session.budget.release(full)
            # the page's write did not happen: a read is an error, never the old bytes as if it had
            ws.send({"t": "readTensor", "id": 16, "tensor": 5})
            h, body = ws.receive_decoded()
            assert h["error"]["name"] == "UnknownError" and "writeTensor" in h["error"]["message"], h
            assert body is None
            ws.send({"t": "writeTensor", "tensor": 5}, [data])  # written again: read as written
            ws.send({"t": "readTensor", "id": 17, "tensor": 5})
            assert ws.receive_decoded()[1] == data
        for _ in range(100):
            if not host.host.sessions and ml.budget.used == 0:
                break
            threading.Event().wait(0.05)
        assert not host.host.sessions and ml.budget.used == 0
    finally:
        host.stop()


def test_a_big_payload_is_received_into_a_mapping_of_its_own_that_lives_as_long_as_its_views():
    import mmap
    import sys

    from webnn_bridge.bridge import heap

    # a fragment's frame (websockets copies each into a frame of its own) stays under the mmap
    # threshold: it reuses the heap's pages instead of faulting fresh ones in every time
    assert heap.MMAP_THRESHOLD_BYTES > protocol.FRAGMENT_BYTES + 14 and heap.TRIM_THRESHOLD_BYTES >= 2 * heap.MMAP_THRESHOLD_BYTES
    small = heap.big_buffer(1000)
    assert isinstance(small, bytearray) and small == bytearray(1000)
    n = heap.MMAP_THRESHOLD_BYTES + 5
    buf = heap.big_buffer(n)
    if sys.platform.startswith("linux"):
        assert isinstance(buf, mmap.mmap)
    assert len(buf) == n and buf[:16] == bytes(16) and buf[n - 16:] == bytes(16)
    buf[n - 4:n] = b"\x01\x02\x03\x04"
    view = memoryview(buf)[:n].toreadonly()
    a = np.frombuffer(view, np.uint8)
    del buf, view  # the array keeps the mapping
    gc.collect()
    assert a[-4:].tolist() == [1, 2, 3, 4] and not a.flags.writeable
