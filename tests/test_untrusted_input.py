"""Untrusted input from pages, and overload (issue 10): malformed and oversized frames, operator names,
ranks, budgets, thread pools, what errors reveal, the HTTP side and keepalive. Mostly sans-I/O (frames
in, frames out); the HTTP and heartbeat tests use a real host.

Each test names the item of the issue it guards."""

from __future__ import annotations

import asyncio
import concurrent.futures
import gc
import inspect
import json
import logging
import os
import tracemalloc

import numpy as np
import pytest
from websockets.datastructures import Headers
from websockets.http11 import Request

from webnn_bridge.bridge import protocol
from webnn_bridge.bridge.api import ML, MLGraphBuilder
from webnn_bridge.bridge.server import Host, HostConfig
from webnn_bridge.bridge.session import CONTEXT_BYTES, Session, SessionLimits


@pytest.fixture(scope="module")
def ml():
    return ML()


def frames_of(session: Session, frame) -> list[dict]:
    return [protocol.decode(f)[0] for f in session.receive(frame)]


def call(session: Session, header: dict, payload: bytes | None = None) -> dict:
    (h,) = frames_of(session, protocol.encode(header, payload))
    return h


def send(session: Session, header: dict) -> None:
    """A fire-and-forget message: no reply, no warning."""
    assert session.receive(protocol.encode(header)) == []


def new_session(ml, budget: int | None = None, max_graphs: int | None = None) -> Session:
    ml.session_limits = SessionLimits(budget, max_graphs)
    try:
        s = Session(ml)
    finally:
        ml.session_limits = None
    assert "error" not in call(s, {"t": "createContext", "id": 1, "ctx": 1})
    return s


def relu_graph(gid: int, shape=(2,), ctx: int = 1) -> dict:
    return {"t": "build", "id": gid, "ctx": ctx, "graph": gid,
            "inputs": [{"operand": 1, "name": "x", "desc": {"dataType": "float32", "shape": list(shape)}}],
            "nodes": [{"op": "relu", "args": [{"$operand": 1}, {}], "outputs": [2]}], "outputs": {"y": 2}}


# ------------------------------------------------------------------ 1. every request is answered


def test_graph_latency_failure_is_answered(ml):
    s = new_session(ml)
    h = call(s, {"t": "graphLatency", "id": 7, "graph": 12345})
    assert h["t"] == "reply" and h["re"] == 7 and h["error"]["name"] == "InvalidStateError"


# ------------------------------------------------------------------ 2. frames that used to close the session


@pytest.mark.parametrize("text", [
    '{"t":"hello","id":NaN}', '{"t":"hello","id":1e400}', '{"t":"hello","id":-Infinity}',
    '{"t":"createContext","id":2,"ctx":3,"options":{"x":Infinity}}',
    '{"t":"hello","id":' + "1" * 5000 + "}",
    "[" * 1000 + "]" * 1000,
    '{"t":"hello","id":1,"x":' + "[" * 1000 + "]" * 1000 + "}",
])
def test_non_finite_and_deep_frames_get_an_error_not_a_crash(ml, text):
    s = new_session(ml)
    (h,) = frames_of(s, text)
    assert h["t"] == "error" and h["error"]["name"] == "DataError"
    assert call(s, {"t": "hello", "id": 9})["re"] == 9  # the session goes on


@pytest.mark.parametrize("rid", [True, "x", 2**60, [1], {"a": 1}])
def test_odd_request_ids_are_never_echoed_unsafely(ml, rid):
    s = new_session(ml)
    h = call(s, {"t": "hello", "id": rid})
    assert h["re"] is None and "ok" in h


def test_deep_options_fail_briefly(ml, caplog):
    s = new_session(ml)
    options = {}
    for _ in range(500):
        options = {"powerPreference": options}
    with caplog.at_level(logging.DEBUG):
        (h,) = frames_of(s, json.dumps({"t": "createContext", "id": 3, "ctx": 2, "options": options}))
    assert h["error"]["name"] == "DataError"
    assert max((len(r.getMessage().splitlines()) + len(r.exc_text or "") for r in caplog.records), default=0) < 20


def test_frames_over_the_header_limit_are_refused():
    with pytest.raises(protocol.ProtocolError):
        protocol.decode('{"t":"hello","pad":"' + "x" * (protocol.MAX_HEADER + 1) + '"}')


# ------------------------------------------------------------------ 3. only registered operators


@pytest.mark.parametrize("op", ["__setattr__", "__delattr__", "_op", "_collect", "build", "input", "constant",
                                "operator", "__class__", "has_built", 5, None])
def test_build_dispatches_only_registered_operators(ml, op):
    s = new_session(ml)
    msg = relu_graph(10)
    msg["nodes"] = [{"op": op, "args": ["has_built", True], "outputs": [2]}]
    h = call(s, msg)
    assert h["error"]["name"] == "TypeError" and "not an operator" in h["error"]["message"]
    assert "error" not in call(s, relu_graph(11))  # a later build of the same session works


# ------------------------------------------------------------------ 4. rank before sizes


@pytest.mark.parametrize("dim", [2147483647, 1])
def test_huge_rank_is_refused_by_rank_before_any_size(ml, dim):
    s = new_session(ml)
    h = call(s, {"t": "createTensor", "id": 2, "ctx": 1, "tensor": 5,
                 "desc": {"dataType": "float32", "shape": [dim] * 80000}})
    assert h["error"]["name"] == "TypeError"
    assert "rank 80000 exceeds" in h["error"]["message"]
    assert len(h["error"]["message"]) < 300  # the page's 80000 dimensions are not echoed back
    # the same shape as a graph input (builder calls are validated in the page; build() replays)
    h = call(s, relu_graph(10, shape=[dim] * 80000))
    assert h["error"]["name"] == "TypeError" and "rank 80000 exceeds" in h["error"]["message"]
    assert len(h["error"]["message"]) < 300


def test_graph_size_is_bounded(ml, monkeypatch):
    from webnn_bridge.bridge import session as session_module

    monkeypatch.setattr(session_module, "MAX_GRAPH_NODES", 3)
    s = new_session(ml)
    msg = relu_graph(10)
    msg["nodes"] = [{"op": "relu", "args": [{"$operand": i}, {}], "outputs": [i + 1]} for i in range(1, 5)]
    msg["outputs"] = {"y": 5}
    assert call(s, msg)["error"]["name"] == "OperationError"
    msg["nodes"], msg["outputs"] = msg["nodes"][:3], {"y": 4}
    assert "error" not in call(s, msg)


# ------------------------------------------------------------------ 5. budgets and copies


def test_the_count_of_tiny_tensors_is_bounded(ml, monkeypatch):
    """Bytes are budgeted; a flood of 1-byte tensors is bounded by count (each costs the host an
    entry), and destroying one makes room again."""
    from webnn_bridge.bridge import session as session_module

    monkeypatch.setattr(session_module, "MAX_TENSORS", 3)
    s = new_session(ml)
    desc = {"dataType": "int8", "shape": [1]}
    for tid in (5, 6, 7):
        assert "error" not in call(s, {"t": "createTensor", "id": tid, "ctx": 1, "tensor": tid, "desc": desc})
    h = call(s, {"t": "createTensor", "id": 8, "ctx": 1, "tensor": 8, "desc": desc})
    assert h["error"]["name"] == "UnknownError" and "most one page may hold" in h["error"]["message"]
    h = call(s, {"t": "createConstantTensor", "id": 9, "ctx": 1, "tensor": 9, "desc": desc}, b"\x01")
    assert h["error"]["name"] == "UnknownError"
    send(s, {"t": "destroyTensor", "tensor": 5})
    assert "error" not in call(s, {"t": "createTensor", "id": 10, "ctx": 1, "tensor": 8, "desc": desc})
    s.close()


def test_session_budget_refuses_tensors_and_is_released(ml):
    host_before = ml.budget.used
    s = new_session(ml, budget=1 << 20)
    desc = {"dataType": "float32", "shape": [128, 1024]}  # 512 KiB
    assert "error" not in call(s, {"t": "createTensor", "id": 2, "ctx": 1, "tensor": 5, "desc": desc})
    h = call(s, {"t": "createTensor", "id": 3, "ctx": 1, "tensor": 6, "desc": {**desc, "shape": [129, 1024]}})
    assert h["error"]["name"] == "UnknownError" and "budget" in h["error"]["message"]
    assert s.budget.used == CONTEXT_BYTES + 512 * 1024
    send(s, {"t": "destroyTensor", "tensor": 5})
    assert s.budget.used == CONTEXT_BYTES
    assert "error" not in call(s, {"t": "createTensor", "id": 4, "ctx": 1, "tensor": 6, "desc": desc})
    s.close()
    assert s.budget.used == 0 and ml.budget.used == host_before


def test_expand_of_a_tiny_constant_is_charged_before_compiling(ml, monkeypatch):
    """The graph's intermediate values count: expand of 4 bytes to 256 MiB is refused at build()
    with OperationError, before the runtime could materialise it."""
    s = new_session(ml, budget=16 << 20)
    compiled = []
    monkeypatch.setattr(type(s.contexts[1].backend), "compile",
                        lambda self, ir, dev: compiled.append(ir) or pytest.fail("compiled"))
    msg = {"t": "build", "id": 2, "ctx": 1, "graph": 2, "inputs": [],
           "constants": [{"operand": 1, "desc": {"dataType": "float32", "shape": [1]}, "part": 0}],
           "nodes": [{"op": "expand", "args": [{"$operand": 1}, [8192, 8192], {}], "outputs": [2]},
                     {"op": "reduceSum", "args": [{"$operand": 2}, {}], "outputs": [3]}],
           "outputs": {"y": 3}}
    (h,) = frames_of(s, protocol.encode_parts(msg, [b"\x00\x00\x80\x3f"]))
    assert h["error"]["name"] == "OperationError" and "budget" in h["error"]["message"]
    assert not compiled and s.budget.used == CONTEXT_BYTES


def test_host_budget_is_shared_by_sessions():
    ml = ML()
    ml.budget.limit = 2 * CONTEXT_BYTES + (1 << 20)
    a, b = new_session(ml), new_session(ml)
    desc = {"dataType": "uint8", "shape": [700 * 1024]}
    assert "error" not in call(a, {"t": "createTensor", "id": 2, "ctx": 1, "tensor": 5, "desc": desc})
    h = call(b, {"t": "createTensor", "id": 2, "ctx": 1, "tensor": 5, "desc": desc})
    assert h["error"]["name"] == "UnknownError"
    assert b.budget.used == CONTEXT_BYTES  # a refused charge leaves nothing behind
    a.close()
    assert "error" not in call(b, {"t": "createTensor", "id": 3, "ctx": 1, "tensor": 6, "desc": desc})


def test_build_and_destroy_release_graph_charges(ml):
    s = new_session(ml, budget=1 << 20)
    assert "error" not in call(s, relu_graph(10, (1000,)))
    assert s.budget.used == CONTEXT_BYTES + 4000  # relu's output
    send(s, {"t": "destroyGraph", "graph": 10})
    assert s.budget.used == CONTEXT_BYTES


def test_contexts_are_charged_so_a_page_cannot_create_them_without_end(ml):
    s = new_session(ml, budget=4 * CONTEXT_BYTES)
    for cid in (2, 3, 4):
        assert "error" not in call(s, {"t": "createContext", "id": cid, "ctx": cid})
    h = call(s, {"t": "createContext", "id": 5, "ctx": 5})
    assert h["error"]["name"] == "NotSupportedError"
    send(s, {"t": "destroyContext", "ctx": 2})
    assert 2 not in s.contexts
    assert "error" not in call(s, {"t": "createContext", "id": 6, "ctx": 5})


def _peak_while(fn) -> int:
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        fn()
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


def test_read_and_write_copy_the_tensor_at_most_once(ml):
    s = new_session(ml)
    n = 8 << 20
    call(s, {"t": "createTensor", "id": 2, "ctx": 1, "tensor": 5,
             "desc": {"dataType": "uint8", "shape": [n], "readable": True, "writable": True}})
    frame = protocol.encode({"t": "writeTensor", "tensor": 5}, np.full(n, 7, np.uint8))
    frame = bytes(frame)  # as websockets delivers it
    peak = _peak_while(lambda: s.receive(frame))
    assert peak < 1.3 * n, peak / n  # the tensor's new storage, no intermediate copies
    out = []
    peak = _peak_while(lambda: out.extend(s.receive(protocol.encode({"t": "readTensor", "id": 3, "tensor": 5}))))
    assert peak < 1.3 * n, peak / n  # the reply frame only
    h, payload = protocol.decode(out[0])
    assert len(payload) == n and payload[0] == 7 and payload[-1] == 7


# ------------------------------------------------------------------ 6, 7. graphs share thread pools; a cap per page


def _threads() -> int:
    return len(os.listdir(f"/proc/{os.getpid()}/task"))


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="needs Linux /proc to count threads")
def test_graphs_share_thread_pools(ml):
    s = new_session(ml)
    assert "error" not in call(s, relu_graph(10))
    before = _threads()
    for gid in range(11, 51):
        assert "error" not in call(s, relu_graph(gid))
    assert _threads() <= before + 2  # was one pool (a thread per core) per graph
    send(s, {"t": "destroyContext", "ctx": 1})
    assert not s.graphs and s.budget.used == 0


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="needs Linux /proc to count threads")
def test_big_graphs_thread_pools_are_bounded(monkeypatch):
    """Graphs big enough for an intra-op pool get one only while fewer than POOLED_SESSIONS hold
    one; a destroyed graph gives its pool back."""
    from webnn_bridge.backends import base
    from webnn_bridge.backends.cache import CompileCache

    monkeypatch.setattr(base, "POOL_MIN_VALUE_BYTES", 1 << 20)  # these 1 MiB graphs "gain from threads"

    s = new_session(ML(compile_cache=CompileCache(warm_entries=0)))
    before, slots = _threads(), base.POOL_SLOTS.used
    n = base.POOLED_SESSIONS + 4
    for gid in range(10, 10 + n):  # distinct shapes: the compile cache shares identical graphs
        assert "error" not in call(s, relu_graph(gid, shape=(1, (1 << 18) + gid)))
    assert base.POOL_SLOTS.used == min(base.POOLED_SESSIONS, slots + n)
    assert _threads() <= before + base.POOLED_SESSIONS * (os.cpu_count() or 1) + 2
    send(s, {"t": "destroyContext", "ctx": 1})
    gc.collect()
    assert base.POOL_SLOTS.used <= slots


def test_a_new_graphs_pool_does_not_spin_while_idle(monkeypatch):
    """A graph with an intra-op pool: its threads sleep soon after its build (they would spin on
    a core until its first dispatch)."""
    import time

    from webnn_bridge.backends import base
    from webnn_bridge.backends.cache import CompileCache

    monkeypatch.setattr(base, "POOL_MIN_VALUE_BYTES", 1 << 20)  # this 2 MiB graph "gains from threads"
    slots = base.PoolSlots(1)  # a free pool, whatever other tests hold
    monkeypatch.setattr(base, "POOL_SLOTS", slots)
    s = new_session(ML(compile_cache=CompileCache(warm_entries=0)))
    assert "error" not in call(s, relu_graph(10, shape=(1, 1 << 19)))
    assert s.graphs[10].compiled.compiled.pooled  # big enough for a pool
    start = time.process_time()
    time.sleep(0.3)
    assert time.process_time() - start < 0.01  # spinning, it was 0.03 s and more
    send(s, {"t": "destroyContext", "ctx": 1})
    gc.collect()
    assert slots.used == 0  # its pool went back to the slots it came from


def test_graphs_per_session_are_capped(ml):
    s = new_session(ml, max_graphs=3)
    for gid in (10, 11, 12):
        assert "error" not in call(s, relu_graph(gid))
    h = call(s, relu_graph(13))
    assert h["error"]["name"] == "OperationError"
    send(s, {"t": "destroyGraph", "graph": 10})
    assert "error" not in call(s, relu_graph(13))


# ------------------------------------------------------------------ 8. no runtime internals reach pages

LEAK = "[ONNXRuntimeError] : 6 : RUNTIME_EXCEPTION : Non-zero status code returned while running Expand node " \
       "/onnxruntime_src/onnxruntime/core/providers/cpu/tensor/expand.cc:42 pthread_create failed"


def _assert_scrubbed(h: dict) -> None:
    text = json.dumps(h)
    for needle in ("ONNXRuntime", "Expand node", ".cc", "pthread", "/onnxruntime_src", "RUNTIME_EXCEPTION"):
        assert needle not in text, text


def test_runtime_failures_reach_pages_without_internals(ml, monkeypatch):
    from webnn_bridge.backends import onnxruntime as ort_backend

    s = new_session(ml)
    assert "error" not in call(s, relu_graph(10))
    for tid, flag in ((20, "writable"), (21, "readable")):
        call(s, {"t": "createTensor", "id": tid, "ctx": 1, "tensor": tid,
                 "desc": {"dataType": "float32", "shape": [2], flag: True}})
    shared = s.graphs[10].compiled.compiled  # the compile cache's shared session
    session = shared.session

    class Exploding:
        def run(self, *a, **k):
            raise RuntimeError(LEAK)

    shared.session = Exploding()
    h = call(s, {"t": "dispatch", "ctx": 1, "graph": 10, "inputs": {"x": 20}, "outputs": {"y": 21}})
    assert h["t"] == "warning" and h["error"]["name"] == "UnknownError"
    _assert_scrubbed(h)
    shared.session = session

    from webnn_bridge.backends.cache import CompileCache

    ml.compile_cache = CompileCache()  # a cold cache: the next build really compiles
    def failing_session(*a, **k):
        raise RuntimeError(LEAK)

    monkeypatch.setattr(ort_backend._ort(), "InferenceSession", failing_session)
    h = call(s, relu_graph(11))
    assert h["error"]["name"] == "OperationError"
    _assert_scrubbed(h)


def test_unexpected_host_failures_are_generic(ml, monkeypatch):
    s = new_session(ml)
    monkeypatch.setattr(Session, "on_createTensor", lambda self, h, p: (_ for _ in ()).throw(OSError(LEAK)))
    h = call(s, {"t": "createTensor", "id": 2, "ctx": 1, "tensor": 5, "desc": {"dataType": "float32", "shape": [1]}})
    assert h["error"]["name"] == "UnknownError"
    _assert_scrubbed(h)
    monkeypatch.setattr(Session, "on_createTensor", lambda self, h, p: (_ for _ in ()).throw(MemoryError()))
    h = call(s, {"t": "createTensor", "id": 3, "ctx": 1, "tensor": 5, "desc": {"dataType": "float32", "shape": [1]}})
    assert h["error"]["name"] == "UnknownError" and "memory" not in json.dumps(h).lower()


def test_graph_errors_never_name_the_python_builder(ml):
    s = new_session(ml)
    msg = relu_graph(10)
    msg["nodes"][0]["args"] = "not a list"
    h = call(s, msg)
    assert h["error"]["name"] == "TypeError" and "Traceback" not in h["error"]["message"]
    b = MLGraphBuilder(s.contexts[1])
    with pytest.raises(TypeError, match="not an operator"):
        b.operator("__setattr__", ["has_built", True])
    assert b.has_built is False


# ------------------------------------------------------------------ 9, 11. the HTTP side: Host header, 4xx


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    app = tmp_path_factory.mktemp("app")
    (app / "index.html").write_text("<html><head></head><body>app</body></html>")
    (app / ".git").mkdir()
    (app / ".git" / "config").write_text("[core]\n")
    h = Host(HostConfig(port=8787, app_dir=app, allow_hosts=["webnn.test"]))
    h._compute_allowed(8787)
    return h


def get(host: Host, path: str, *headers: tuple[str, str]):
    hs = Headers()
    for k, v in headers:
        hs[k] = v
    response = host.process_request(None, Request(path, hs))
    if inspect.isawaitable(response):  # static files are read off the event loop
        # on a thread of its own: the caller's thread may already run an event loop (Playwright)
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            response = pool.submit(asyncio.run, response).result()
    return response


@pytest.mark.parametrize("name,status", [
    ("127.0.0.1:8787", 200), ("localhost:8787", 200), ("[::1]:8787", 200), ("app.localhost:8787", 200),
    ("webnn.test:8787", 200), ("10.1.2.3:8787", 200),
    ("evil.example:8787", 403), ("attacker.com", 403), ("127.0.0.1.evil.example:8787", 403), ("", 403),
])
def test_host_header_is_checked_against_dns_rebinding(host, name, status):
    r = get(host, "/.git/config", ("Host", name))
    assert r.status_code == status
    if status == 403:
        assert b"core" not in r.body


def test_missing_host_header_is_refused(host):
    assert get(host, "/").status_code == 403


def test_malformed_requests_get_4xx(host):
    assert get(host, "/" + "a" * 5000, ("Host", "127.0.0.1:8787")).status_code in (404, 414)
    r = get(host, "/webnn", ("Host", "127.0.0.1:8787"), ("Origin", "http://127.0.0.1:8787"),
            ("Origin", "http://evil.example"))
    assert r.status_code == 400
    r = get(host, "/", ("Host", "127.0.0.1:8787"), ("Host", "evil.example"))
    assert r.status_code == 400
    q = "%5B" * 2000
    r = get(host, f"/webnn/validate?q={q}", ("Host", "127.0.0.1:8787"), ("Origin", "http://127.0.0.1:8787"))
    assert r.status_code == 404  # the old validation endpoint is gone: builder calls validate in the page


# ------------------------------------------------------------------ 10. keepalive


def test_hello_tells_the_page_the_keepalive_timeout(ml):
    ml.session_limits = SessionLimits(keepalive_timeout_s=2.5)
    try:
        s = Session(ml)
    finally:
        ml.session_limits = None
    assert call(s, {"t": "hello", "id": 2})["ok"]["keepalive"] == 2500


def test_heartbeats_flow_while_the_session_is_busy(monkeypatch):
    """The server's event loop sends heartbeats: a session busy in a long build is not a hung host
    (the handler loop must keep this property whatever its scheduling)."""
    import threading

    from webnn_bridge.bridge.embed import start_host

    from .wire import Wire

    release = threading.Event()

    def slow_build(self, h, payload):  # a build runs on a worker thread, never on the event loop
        release.wait(20)
        return self._ok(h)

    monkeypatch.setattr(Session, "on_build", slow_build)
    host = start_host(keepalive_timeout_s=0.8)
    try:
        with Wire(host.url) as ws:
            ws.send_frame('{"t":"build","id":7,"ctx":1,"graph":1}')
            beats = [json.loads(ws.receive(10, heartbeats=True)) for _ in range(3)]  # while the session is stuck
            assert beats == [{"t": "alive"}] * 3
            release.set()
            h, _ = ws.receive_decoded(10)  # heartbeats passed over
            assert h["re"] == 7
    finally:
        release.set()
        host.stop()
