"""Issue 38: a page's data leaves with the page without waiting on the cyclic collector, the shared
stores hold only what their caps allow (and only their idle share once no page is left), /metrics
charges their bytes once, and a dispatch or write that failed is never read as data."""

from __future__ import annotations

import gc
import hashlib
import re
import threading
import urllib.request
import weakref

import numpy as np
import pytest

from webnn_bridge.backends.cache import CompileCache
from webnn_bridge.bridge.api import ML, MLGraphBuilder
from webnn_bridge.bridge.embed import start_host
from webnn_bridge.bridge.heap import idle
from webnn_bridge.ops.core import UnknownError

from .wire import Wire

MIB = 1 << 20


@pytest.fixture
def no_cyclic_collector():
    """What reference counting alone frees: the served host raises the collector's threshold and
    freezes its set-up, so a cycle's bytes may wait there for a long time."""
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _weights_graph(ctx, n: int, fill: float):
    """y = x @ W with W an [n, n] constant: the weights the page uploads."""
    b = MLGraphBuilder(ctx)
    x = b.input("x", {"dataType": "float32", "shape": [1, n]})
    w = np.full((n, n), fill, np.float32)
    c = b.constant({"dataType": "float32", "shape": [n, n]}, w)
    return b, x, c, b.build({"y": b.matmul(x, c)})


def test_a_graphs_constant_is_freed_by_reference_counting(ort_devices, no_cyclic_collector):
    ml = ML(ort_devices, compile_cache=CompileCache(warm_entries=0))
    ctx = ml.createContext()
    b, x, c, g = _weights_graph(ctx, 256, 0.5)
    out = ctx.compute(g, {"x": np.ones((1, 256), np.float32)})["y"]
    assert out[0, 0] == 128.0
    held = weakref.ref(g.ir.constants[c.id])
    used_by_operand = weakref.ref(c.value)
    g.destroy()
    del g
    assert held() is not None  # the page's operand still holds it: no graph-side copy is dropped early
    del b, x, c
    assert held() is None and used_by_operand() is None  # no builder <-> operand cycle keeps it


def test_a_failed_build_leaves_no_cycle_either(ort_devices, no_cyclic_collector):
    ml = ML(ort_devices, compile_cache=CompileCache(warm_entries=0))
    ctx = ml.createContext()
    b = MLGraphBuilder(ctx)
    c = b.constant({"dataType": "float32", "shape": [64, 64]}, np.ones((64, 64), np.float32))
    y = b.relu(c)
    with pytest.raises(TypeError):
        b.build({"y": c})  # a constant is not an output
    g = b.build({"y": y})  # the builder still works after the refusal
    held = weakref.ref(c.value)
    g.destroy()
    del b, c, y, g
    assert held() is None


def _page_with_weights(url: str, n: int, fill: float, sha: bool = True) -> float:
    """A page that uploads an [n, n] float32 constant, runs x @ W once and leaves: y[0, 0]."""
    with Wire(url) as ws:
        ws.request({"t": "createContext", "ctx": 1, "options": {}})
        w = np.full((n, n), fill, np.float32).tobytes()
        item = {"operand": 2, "desc": {"dataType": "float32", "shape": [n, n]}, "part": 0}
        if sha:
            item["sha256"] = hashlib.sha256(w).hexdigest()
        ws.request({"t": "build", "ctx": 1, "graph": 3,
                    "inputs": [{"operand": 1, "name": "x", "desc": {"dataType": "float32", "shape": [1, n]}}],
                    "constants": [item],
                    "nodes": [{"op": "matmul", "args": [{"$operand": 1}, {"$operand": 2}, {}], "outputs": [3]}],
                    "outputs": {"y": 3}}, [w])
        for t in (4, 5):
            ws.request({"t": "createTensor", "ctx": 1, "tensor": t,
                        "desc": {"dataType": "float32", "shape": [1, n], "readable": True, "writable": True}})
        ws.send({"t": "writeTensor", "tensor": 4}, [np.ones((1, n), np.float32).tobytes()])
        ws.send({"t": "dispatch", "ctx": 1, "graph": 3, "inputs": {"x": 4}, "outputs": {"y": 5}})
        _, body = ws.request({"t": "readTensor", "tensor": 5})
        return float(np.frombuffer(body, np.float32)[0])


def _metrics(url: str) -> dict[str, int]:
    with urllib.request.urlopen(url.replace("ws://", "http://") + "/metrics", timeout=10) as r:
        text = r.read().decode()
    return {m.group(1): int(m.group(2)) for m in re.finditer(r'webnn_bridge_memory_bytes\{owner="([^"]+)"\} (\d+)', text)}


def _wait(predicate, seconds: float = 10.0) -> bool:
    for _ in range(int(seconds / 0.05)):
        if predicate():
            return True
        threading.Event().wait(0.05)
    return predicate()


def test_pages_that_leave_leave_their_constants_to_capped_stores_only(ort_devices, no_cyclic_collector):
    """Twelve pages in turn, each with its own weights: while they come and go, what stays is what
    the shared stores' caps allow; once none is left, their idle share."""
    n = 512  # 1 MiB of weights a page
    ml = ML(ort_devices, compile_cache=CompileCache(warm_entries=0))
    ml.build_memo.max_bytes = ml.constant_store.max_bytes = 3 * MIB
    ml.build_memo.idle_bytes = ml.constant_store.idle_bytes = MIB
    alive = []
    original = ml.constant_store.put

    def watched(origin, sha, data):  # a weak reference to every upload's bytes
        alive.append(weakref.ref(np.frombuffer(data, np.uint8).base if isinstance(data, memoryview) else data))
        return original(origin, sha, data)

    ml.constant_store.put = watched
    host = start_host(ml_factory=lambda: ml)
    try:
        for i in range(12):
            assert _page_with_weights(host.url, n, i + 1.0) == n * (i + 1.0)
        assert _wait(lambda: not host.host.sessions)
        kept = sum(r() is not None for r in alive)
        assert kept <= 3 + 1, kept  # the caps (3 MiB each, the same bytes), not one per page
        idle(ml)
        assert sum(r() is not None for r in alive) <= 1
        assert ml.budget.used == 0
    finally:
        host.stop()


def test_metrics_charge_the_shared_stores_once(ort_devices):
    ml = ML(ort_devices, compile_cache=CompileCache(warm_entries=0))
    host = start_host(ml_factory=lambda: ml)
    try:
        n = 512
        with Wire(host.url) as ws:
            ws.request({"t": "createContext", "ctx": 1, "options": {}})
            w = np.full((n, n), 2.0, np.float32).tobytes()
            ws.request({"t": "build", "ctx": 1, "graph": 3,
                        "inputs": [{"operand": 1, "name": "x", "desc": {"dataType": "float32", "shape": [1, n]}}],
                        "constants": [{"operand": 2, "desc": {"dataType": "float32", "shape": [n, n]}, "part": 0,
                                       "sha256": hashlib.sha256(w).hexdigest()}],
                        "nodes": [{"op": "matmul", "args": [{"$operand": 1}, {"$operand": 2}, {}], "outputs": [3]}],
                        "outputs": {"y": 3}}, [w])
            m = _metrics(host.url)
            # the page's graph holds the weights: charged to the page, not again to the stores
            assert m["pages"] >= n * n * 4
            assert m["build-memo"] + m["constant-store"] < MIB // 4, m
            ws.send({"t": "destroyGraph", "graph": 3})
            ws.request({"t": "hello"})  # handled in order: the graph is gone
            m = _metrics(host.url)
            # the graph is gone: the stores' copy of its weights is theirs now, counted once
            assert n * n * 4 <= m["build-memo"] + m["constant-store"] < 2 * n * n * 4, m
    finally:
        host.stop()


# ------------------------------------------------------------------ failed operations


class _FailingRun:
    """A compiled graph whose runs fail as a runtime out of memory does."""

    def __init__(self, compiled):
        self.compiled = compiled
        self.fail = True

    def __getattr__(self, name):
        return getattr(self.compiled, name)

    def run(self, feeds):
        if self.fail:
            raise MemoryError("Unable to allocate 64.0 MiB")
        return self.compiled.run(feeds)


def test_a_failed_dispatch_is_never_read_as_its_result(ort_devices):
    ml = ML(ort_devices)
    ctx = ml.createContext()
    b = MLGraphBuilder(ctx)
    x = b.input("x", {"dataType": "float32", "shape": [4]})
    g = b.build({"y": b.mul(x, b.constant("float32", 2.0))})
    desc = {"dataType": "float32", "shape": [4], "readable": True, "writable": True}
    tx, ty, tz = ctx.createTensor(desc), ctx.createTensor(desc), ctx.createTensor(desc)
    ctx.writeTensor(tx, np.arange(4, dtype=np.float32))
    ctx.dispatch(g, {"x": tx}, {"y": ty})
    assert ctx.readTensor(ty).tolist() == [0, 2, 4, 6]
    g.compiled = _FailingRun(g.compiled)
    ctx.writeTensor(tx, np.ones(4, np.float32))
    with pytest.raises(MemoryError):
        ctx.dispatch(g, {"x": tx}, {"y": ty})
    with pytest.raises(UnknownError, match="dispatch that was to write it failed"):
        ctx.readTensor(ty)  # not [0, 2, 4, 6]: that was the dispatch before
    # a dispatch that reads it fails too, and so do its outputs
    g.compiled.fail = False
    with pytest.raises(UnknownError, match="input 'x' has undefined contents"):
        ctx.dispatch(g, {"x": ty}, {"y": tz})
    with pytest.raises(UnknownError):
        ctx.readTensor(tz)
    ctx.dispatch(g, {"x": tx}, {"y": ty})  # a dispatch that succeeds writes it again
    assert ctx.readTensor(ty).tolist() == [2, 2, 2, 2]


def test_a_failed_dispatch_through_the_wire_rejects_the_read(ort_devices):
    ml = ML(ort_devices)
    host = start_host(ml_factory=lambda: ml)
    try:
        with Wire(host.url) as ws:
            ws.request({"t": "createContext", "ctx": 1, "options": {}})
            ws.request({"t": "build", "ctx": 1, "graph": 3,
                        "inputs": [{"operand": 1, "name": "x", "desc": {"dataType": "float32", "shape": [4]}}],
                        "constants": [], "nodes": [{"op": "relu", "args": [{"$operand": 1}, {}], "outputs": [2]}],
                        "outputs": {"y": 2}})
            for t in (4, 5):
                ws.request({"t": "createTensor", "ctx": 1, "tensor": t,
                            "desc": {"dataType": "float32", "shape": [4], "readable": True, "writable": True}})
            ws.send({"t": "writeTensor", "tensor": 4}, [np.array([-1, 2, -3, 4], np.float32).tobytes()])
            ws.send({"t": "dispatch", "ctx": 1, "graph": 3, "inputs": {"x": 4}, "outputs": {"y": 5}})
            _, body = ws.request({"t": "readTensor", "tensor": 5})
            assert np.frombuffer(body, np.float32).tolist() == [0, 2, 0, 4]
            session = next(iter(host.host.sessions.values()))
            graph = session.graphs[3]
            graph.compiled = _FailingRun(graph.compiled)
            ws.send({"t": "dispatch", "ctx": 1, "graph": 3, "inputs": {"x": 4}, "outputs": {"y": 5}})
            h, _ = ws.receive_decoded()
            assert h["t"] == "warning" and h["error"]["name"] == "UnknownError", h
            ws.send({"t": "readTensor", "id": 9, "tensor": 5})
            h, body = ws.receive_decoded()
            assert h["re"] == 9 and h["error"]["name"] == "UnknownError" and body is None, h
            assert "dispatch" in h["error"]["message"]
            graph.compiled.fail = False
            ws.send({"t": "dispatch", "ctx": 1, "graph": 3, "inputs": {"x": 4}, "outputs": {"y": 5}})
            _, body = ws.request({"t": "readTensor", "tensor": 5})
            assert np.frombuffer(body, np.float32).tolist() == [0, 2, 0, 4]
    finally:
        host.stop()


def test_a_reader_out_of_memory_is_one_line_not_a_traceback(caplog):
    """Under an address-space cap the websockets reader itself can fail (MemoryError slicing a
    64 MiB frame); the library then logs a traceback per connection. The host says it once."""
    import logging

    from webnn_bridge.bridge.server import quiet_memory_errors

    quiet_memory_errors()
    quiet_memory_errors()  # idempotent
    with caplog.at_level(logging.INFO):
        for name in ("websockets.server", "asyncio"):
            try:
                raise MemoryError
            except MemoryError:
                logging.getLogger(name).error("parser failed", exc_info=True)
        logging.getLogger("websockets.server").info("connection closed")
    text = caplog.text
    assert "Traceback" not in text and "parser failed" not in text
    assert text.count("ran out of memory receiving its message") == 2
    assert "connection closed" in text  # other records pass
