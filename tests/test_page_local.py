"""Graphs in the page (serve --page-local, backends/page.py; issue 39): the policy's [page] rules
(rules.toml §4c) as a pure function, and the host's side of it through a Session, sans I/O. The
page's side (onnxruntime-web running the model, tensors moving in timeline order) is
e2e/test_page_local.py."""

from __future__ import annotations

import dataclasses

import numpy as np
import onnx
import onnxruntime as ort
import pytest

from tests.test_protocol import Client, reply
from webnn_bridge.backends.base import Device
from webnn_bridge.backends.page import DEVICE_ID, RUNTIME_FILES, PageCompiled, page_device, runtime_folder
from webnn_bridge.bridge import protocol
from webnn_bridge.bridge.api import ML
from webnn_bridge.bridge.session import Session
from webnn_bridge.policy import engine


@pytest.fixture()
def folder(tmp_path):
    for f in RUNTIME_FILES:
        (tmp_path / f).write_bytes(b"x")
    return tmp_path


@pytest.fixture()
def ml(folder):
    m = ML()
    m.page_device = page_device(folder)
    return m


def graph_of(n: int, k: int = 1):
    """y = relu(x @ W + 1) for x [n, k], W [k, k]: 2*n*k*k + 2*n*k FLOPs."""
    from webnn_bridge.bridge.api import MLGraphBuilder

    ctx = ML().createContext({})
    b = MLGraphBuilder(ctx)
    x = b.input("x", {"dataType": "float32", "shape": [n, k]})
    w = b.constant({"dataType": "float32", "shape": [k, k]}, np.eye(k, dtype=np.float32))
    one = b.constant({"dataType": "float32", "shape": [1]}, np.ones(1, np.float32))
    return b._collect({"y": b.relu(b.add(b.matmul(x, w), one))})


CPU = Device(id="onnxruntime:CPUExecutionProvider", kind="cpu", backend="onnxruntime",
             providers=("CPUExecutionProvider",))
GPU = Device(id="onnxruntime:CUDAExecutionProvider", kind="gpu", backend="onnxruntime",
             providers=("CUDAExecutionProvider", "CPUExecutionProvider"))
INVENTORIES = {"cpu-only": [CPU], "gpu": [GPU, CPU]}


def decide(options, graph, page, rules=None, inventory="cpu-only"):
    """A pure placement (nothing compiles): the context's decision, then the build's."""
    inv = INVENTORIES[inventory]
    d = engine.decide_context(options, inv, rules)
    return engine.decide_build(d, graph, inv, rules, page=page)


def test_runtime_folder_needs_every_file(tmp_path, folder):
    assert runtime_folder(folder) == folder
    assert runtime_folder(tmp_path / "nowhere") is None and runtime_folder(None) is None
    (folder / RUNTIME_FILES[1]).unlink()
    assert runtime_folder(folder) is None


def test_a_small_graph_goes_to_the_page_and_says_why(folder):
    g = graph_of(4, 8)
    p = decide({}, g, page_device(folder))
    assert p.device.id == DEVICE_ID and p.assignment == [DEVICE_ID] * len(g.nodes)
    assert "whole graph in the page" in p.reasons[1] and "FLOPs" in p.reasons[1]
    assert not p.accelerated
    # without the page (its page cannot run graphs), the same graph stays on the host's CPU
    q = decide({}, graph_of(4, 8), None)
    assert q.device.kind == "cpu" and q.device.backend != "page"


def test_a_graph_over_a_bound_stays_on_the_host_and_the_reasons_name_the_bound(folder):
    page = page_device(folder)
    rules = engine.default_rules()
    limit = rules["page"]["max_flops"]
    k = 512
    n = int(limit // (2 * k * k)) + 1  # just over max_flops
    p = decide({}, graph_of(n, k), page)
    assert p.device.backend != "page"
    assert "not in the page: FLOPs" in p.reasons[0] and "max_flops" in p.reasons[0]
    under = decide({}, graph_of(max(1, n - 2), k), page)
    assert under.device.id == DEVICE_ID
    tight = {**rules, "page": {**rules["page"], "max_constant_bytes": 16}}
    p = decide({}, graph_of(2, 8), page, tight)  # a 256-byte constant
    assert p.device.backend != "page" and "constant bytes" in p.reasons[0]


def test_only_contexts_the_rules_name_use_the_page(folder):
    page = page_device(folder)
    g = graph_of(4, 8)
    # a GPU machine: the default context prefers the GPU; [page] contexts = ["cpu"] keeps it off the page
    p = decide({}, g, page, inventory="gpu")
    assert p.device.backend != "page" and "[page] contexts" in p.reasons[0]
    # ... a CPU context on the same machine may use it
    assert decide({"deviceType": "cpu"}, g, page, inventory="gpu").device.id == DEVICE_ID
    # ... and rules that name "gpu" let small graphs leave the GPU context too
    rules = engine.default_rules()
    rules = {**rules, "page": {**rules["page"], "contexts": ["cpu", "gpu"]}}
    assert decide({}, g, page, rules, inventory="gpu").device.id == DEVICE_ID
    # a strict request never goes to the page
    rules = {**rules, "strict": {**rules["strict"], "deviceType": True}}  # strict switches are off by default
    strict = decide({"deviceType": "gpu"}, g, page, rules, "gpu")
    assert strict.strict
    assert strict.device.backend != "page"


def test_data_types_outside_the_rules_stay_on_the_host(folder):
    from webnn_bridge.bridge.api import MLGraphBuilder

    b = MLGraphBuilder(ML().createContext({}))
    x = b.input("x", {"dataType": "int32", "shape": [4]})
    g = b._collect({"y": b.cast(x, "int4")})
    p = decide({}, g, page_device(folder))
    assert p.device.backend != "page" and "int4" in p.reasons[0]


def test_a_bad_page_table_is_refused_in_one_line():
    problems = engine.check_rules_file({"page": {"max_flops": "many", "contexts": ["tpu"]}}, engine.default_rules())
    assert any("page.max_flops" in p for p in problems) and any("page.contexts" in p for p in problems)


def test_the_model_the_page_gets_is_the_lowered_graph_and_runs():
    g = graph_of(3, 4)
    c = PageCompiled(g)
    model = onnx.load_from_string(c.model)
    assert model.ir_version == 10 and not any(i.data_location for i in model.graph.initializer)  # constants inside
    s = ort.InferenceSession(c.model, providers=["CPUExecutionProvider"])
    x = np.arange(12, dtype=np.float32).reshape(3, 4) - 6
    (y,) = s.run([c.out_map["y"]], {c.in_map["x"]: x})
    np.testing.assert_array_equal(y, np.maximum(x + 1, 0))
    with pytest.raises(Exception, match="runs in the page"):
        c.run({"x": x})


def build_small(c: Client, ctx: int = 1, graph: int = 10, **fields):
    return c.call({
        "t": "build", "ctx": ctx, "graph": graph, **fields,
        "inputs": [{"operand": 1, "name": "x", "desc": {"dataType": "float32", "shape": [4]}}],
        "constants": [{"operand": 2, "desc": {"dataType": "float32", "shape": [4]}, "part": 0}],
        "nodes": [{"op": "add", "args": [{"$operand": 1}, {"$operand": 2}, {}], "outputs": [3]}],
        "outputs": {"y": 3},
    }, parts=[np.array([1, 2, 3, 4], np.float32).tobytes()])


def test_the_host_offers_the_runtime_and_sends_the_model_to_a_page_that_can_run_it(ml):
    s = Session(ml)
    c = Client(s)
    ok, _ = c.ok({"t": "hello"})
    assert ok["pageRuntime"] == protocol.PAGE_RUNTIME_PATH
    c.ok({"t": "createContext", "ctx": 1, "options": {}, "page": True})
    h, payload = reply(build_small(c))
    page = h["ok"]["page"]
    assert h["ok"]["devices"] == ["cpu"] and page["inputs"] == {"x": "input_0"}
    sess = ort.InferenceSession(bytes(payload), providers=["CPUExecutionProvider"])
    (y,) = sess.run([page["outputs"]["y"]], {"input_0": np.zeros(4, np.float32)})
    assert y.tolist() == [1, 2, 3, 4]
    # its latency is the page's own time, bucketed by the host's rule (no number: none yet)
    assert c.ok({"t": "graphLatency", "graph": 10, "ms": 0.4})[0]["latency"] == "0-10 ms"
    assert c.ok({"t": "graphLatency", "graph": 10, "ms": "fast"})[0]["latency"] is None
    # the host never runs it: a dispatch sent anyway is a warning, not a result
    c.ok({"t": "createTensor", "ctx": 1, "tensor": 20, "desc": {"dataType": "float32", "shape": [4], "writable": True}})
    c.ok({"t": "createTensor", "ctx": 1, "tensor": 21, "desc": {"dataType": "float32", "shape": [4], "readable": True}})
    h, _ = reply(c.call({"t": "dispatch", "ctx": 1, "graph": 10, "inputs": {"x": 20}, "outputs": {"y": 21}}))
    assert h["t"] == "warning" and "runs in the page" in h["error"]["message"]
    # a page that could not run it: the host compiles it for itself, and its dispatches work
    ok, _ = c.ok({"t": "rehome", "graph": 10})
    assert ok["devices"] == ["cpu"] and "page" not in ok
    assert c.call({"t": "writeTensor", "tensor": 20}, payload=np.ones(4, np.float32).tobytes()) == []
    assert c.call({"t": "dispatch", "ctx": 1, "graph": 10, "inputs": {"x": 20}, "outputs": {"y": 21}}) == []
    _, data = c.ok({"t": "readTensor", "tensor": 21})
    assert np.frombuffer(bytes(data), np.float32).tolist() == [2, 3, 4, 5]


def test_the_host_runs_a_page_graph_until_the_pages_runtime_has_started(ml):
    """The page's first graph: build() does not wait for the runtime to start. Asked in the build
    message (interim), the host also compiles the graph for itself, in the same message (a page
    whose shim predates that asks with rehome), and runs its dispatches until the page says it
    runs it (inPage ok: the host lets its compile go) or cannot (not ok: the host keeps it, and
    the trace records the build again, on the host)."""
    events = []
    s = Session(ml, observer=lambda kind, facts: events.append((kind, facts.get("graph"))))
    c = Client(s)
    c.ok({"t": "createContext", "ctx": 1, "options": {}, "page": True})
    for tid, usage in ((20, "writable"), (21, "readable")):
        c.ok({"t": "createTensor", "ctx": 1, "tensor": tid, "desc": {"dataType": "float32", "shape": [4], usage: True}})

    def run_on_host(x):
        assert c.call({"t": "writeTensor", "tensor": 20}, payload=np.asarray(x, np.float32).tobytes()) == []
        out = c.call({"t": "dispatch", "ctx": 1, "graph": 10, "inputs": {"x": 20}, "outputs": {"y": 21}})
        _, data = c.ok({"t": "readTensor", "tensor": 21})
        return out, np.frombuffer(bytes(data), np.float32).tolist()

    for ok, in_build in ((True, True), (False, True), (True, False)):
        events.clear()
        h, payload = reply(build_small(c, interim=True) if in_build else build_small(c))
        assert "page" in h["ok"] and h["ok"]["devices"] == ["cpu"]  # the page's placement
        graph = s.graphs[10]
        if in_build:  # the model is left out of the reply: the page asks for it when its runtime starts
            assert h["ok"]["interim"] is True and payload is None
            page_compiled = graph.page_held[0]
            _, payload = c.ok({"t": "pageModel", "graph": 10})
        else:
            assert "interim" not in h["ok"] and graph.in_page
            page_compiled = graph.compiled
            reply_ok, _ = c.ok({"t": "rehome", "graph": 10, "interim": True})
            assert reply_ok["devices"] == ["cpu"]
        assert ort.InferenceSession(bytes(payload), providers=["CPUExecutionProvider"])  # the model runs
        assert not graph.in_page and graph.page_held[0] is page_compiled
        assert any("runs the graph until the page runs it" in r for r in graph.placement.reasons)
        assert run_on_host([1, 1, 1, 1]) == ([], [2, 3, 4, 5])
        host_compiled = graph.compiled
        assert c.call({"t": "inPage", "graph": 10, "ok": ok}) == []
        if ok:  # the page runs it: the host's compile is closed, a dispatch sent anyway is refused
            assert graph.in_page and graph.compiled is page_compiled and graph.page_held is None
            h, _ = reply(c.call({"t": "dispatch", "ctx": 1, "graph": 10, "inputs": {"x": 20}, "outputs": {"y": 21}}))
            assert h["t"] == "warning" and "runs in the page" in h["error"]["message"]
            assert [k for k, _ in events if k == "build"] == ["build"]  # the build in the page, nothing more
        else:  # it cannot: the host keeps running it, and says why
            assert not graph.in_page and graph.compiled is host_compiled and graph.page_held is None
            assert graph.placement.reasons[-1].startswith("the page could not run the graph")
            assert run_on_host([0, 0, 0, 0]) == ([], [1, 2, 3, 4])
            assert [k for k, _ in events if k == "build"] == ["build", "build"]
        # a second word from the page changes nothing; a graph it does not hold is an error it is told of
        assert c.call({"t": "inPage", "graph": 10, "ok": not ok}) == []
        h, _ = reply(c.call({"t": "pageModel", "graph": 10}))  # settled: no model to ask for
        assert h["error"]["name"] == "OperationError"
        assert graph.in_page is ok
        h, _ = reply(c.call({"t": "inPage", "graph": 99, "ok": True}))
        assert h["t"] == "warning"
        c.call({"t": "destroyGraph", "graph": 10})


def test_a_build_asking_for_an_interim_host_compile_that_fails_still_builds(ml, monkeypatch):
    """Where the host cannot compile a page graph for itself, the build is not failed: its reply
    leaves ``interim`` out (the shim then waits for the page's runtime) and the page's compile
    stays; a graph on the host ignores the word."""
    from webnn_bridge.bridge.api import MLContext
    from webnn_bridge.ops.core import OperationError

    session = Session(ml)
    c = Client(session)
    c.ok({"t": "createContext", "ctx": 1, "options": {}, "page": True})
    real = MLContext.compile

    def no_host_compile(self, ir, placement, *a, **k):
        if placement.device.backend != "page":
            raise OperationError("The graph could not be compiled.")
        return real(self, ir, placement, *a, **k)

    monkeypatch.setattr(MLContext, "compile", no_host_compile)
    h, payload = reply(build_small(c, interim=True))
    assert "page" in h["ok"] and "interim" not in h["ok"] and payload
    graph = session.graphs[10]
    assert graph.in_page and graph.page_held is None
    monkeypatch.setattr(MLContext, "compile", real)
    c.ok({"t": "createContext", "ctx": 2, "options": {}})  # no page offered: its graphs stay on the host
    h, payload = reply(build_small(c, ctx=2, graph=11, interim=True))
    assert "page" not in h["ok"] and "interim" not in h["ok"] and payload is None


def test_a_page_that_does_not_say_so_gets_host_graphs(ml):
    c = Client(Session(ml))
    c.ok({"t": "createContext", "ctx": 1, "options": {}})
    h, payload = reply(build_small(c))
    assert "page" not in h["ok"] and payload is None
    plain = ML()  # a host without the runtime offers none and ignores the page's word
    c = Client(Session(plain))
    ok, _ = c.ok({"t": "hello"})
    assert ok["pageRuntime"] is None
    c.ok({"t": "createContext", "ctx": 1, "options": {}, "page": True})
    h, payload = reply(build_small(c))
    assert "page" not in h["ok"]


def test_moves_ignore_the_pages_usage_flags_but_plain_calls_do_not(ml):
    """The shim moves a tensor's contents between a graph in the page and one on the host: those
    reads and writes reach tensors the page may not read or write itself; its own calls still may not."""
    c = Client(Session(ml))
    c.ok({"t": "createContext", "ctx": 1, "options": {}})
    c.ok({"t": "createTensor", "ctx": 1, "tensor": 5, "desc": {"dataType": "float32", "shape": [2]}})
    data = np.array([7, 8], np.float32).tobytes()
    h, _ = reply(c.call({"t": "writeTensor", "tensor": 5}, payload=data))
    assert h["t"] == "warning" and h["error"]["name"] == "TypeError"
    assert c.call({"t": "writeTensor", "tensor": 5, "move": True}, payload=data) == []
    h, _ = reply(c.call({"t": "readTensor", "tensor": 5}))
    assert h["error"]["name"] == "TypeError"
    _, got = c.ok({"t": "readTensor", "tensor": 5, "move": True})
    assert bytes(got) == data
    # contents a failed dispatch in the page left undefined: reads of them fail on the host too
    assert c.call({"t": "writeTensor", "tensor": 5, "move": True, "failed": "the run failed"}, payload=b"") == []
    h, _ = reply(c.call({"t": "readTensor", "tensor": 5, "move": True}))
    assert h["error"]["name"] == "UnknownError" and "the run failed" in h["error"]["message"]


def test_the_memo_keeps_page_and_host_builds_of_one_graph_apart(ml):
    """The same build message from a page that runs graphs and from one that does not: each gets
    its own placement (the build memo's key includes the context's page flag)."""
    a = Client(Session(ml))
    a.ok({"t": "createContext", "ctx": 1, "options": {}, "page": True})
    assert "page" in reply(build_small(a))[0]["ok"]
    b = Client(Session(ml))
    b.ok({"t": "createContext", "ctx": 1, "options": {}})
    assert "page" not in reply(build_small(b))[0]["ok"]
    assert "page" in reply(build_small(a, graph=11))[0]["ok"]


def test_a_restarted_host_reads_back_a_page_graphs_memo_entry(folder, tmp_path, monkeypatch):
    """The build memo's disk entry of a graph placed in the page names the page's runtime, which is
    not in the inventory: a restarted host reads it back (no replay, the entry kept), as it does a
    host graph's, and the page gets the same model. The model is lowered once: a reload takes it
    from the compile cache's memory, a restarted host from its disk."""
    import hashlib

    from webnn_bridge.backends import onnx_lowering
    from webnn_bridge.backends.cache import CompileCache

    lowered = []
    real_lower = onnx_lowering.lower_graph
    monkeypatch.setattr(onnx_lowering, "lower_graph", lambda *a, **k: lowered.append(1) or real_lower(*a, **k))

    w = np.array([1, 2, 3, 4], np.float32).tobytes()

    def host():
        m = ML(compile_cache=CompileCache(tmp_path))
        m.page_device = page_device(folder)
        return m

    def build(m):
        s = Session(m, "http://a.test")
        replays = []
        real = s.replay
        s.replay = lambda *a: replays.append(1) or real(*a)
        c = Client(s)
        c.ok({"t": "createContext", "ctx": 1, "options": {}, "page": True})
        h, payload = reply(c.call({
            "t": "build", "ctx": 1, "graph": 10,
            "inputs": [{"operand": 1, "name": "x", "desc": {"dataType": "float32", "shape": [4]}}],
            "constants": [{"operand": 2, "desc": {"dataType": "float32", "shape": [4]}, "part": 0,
                           "sha256": hashlib.sha256(w).hexdigest()}],
            "nodes": [{"op": "add", "args": [{"$operand": 1}, {"$operand": 2}, {}], "outputs": [3]}],
            "outputs": {"y": 3},
        }, parts=[w]))
        assert m.flush_to_disk()  # as a host that stops does: its restart reads the page's model from disk
        return h["ok"], bytes(payload), replays

    m = host()
    first, model, replays = build(m)
    assert "page" in first and replays == [1] and lowered == [1]
    entries = sorted(p.name for p in (tmp_path / "memo").iterdir())
    reload, model_reload, replays = build(m)  # a reload: another session of the same origin
    assert "page" in reload and replays == [] and model_reload == model and lowered == [1]
    again, model_again, replays = build(host())
    assert "page" in again and replays == [] and model_again == model and lowered == [1]
    assert sorted(p.name for p in (tmp_path / "memo").iterdir()) == entries


def test_a_restarted_host_prepares_both_compiles_of_a_page_graph(folder, tmp_path):
    """A reloaded page's runtime has not started: its first build of a graph placed in the page
    asks for the host's interim compile too. A restarted host prepares both (ML.prepare_recent)
    when the page's context opens, so that build compiles nothing."""
    from webnn_bridge.backends.cache import CompileCache

    def host():
        m = ML(compile_cache=CompileCache(tmp_path))
        m.page_device = page_device(folder)
        m.prepares = True
        return m

    def open_page(m):
        s = Session(m, "http://a.test")
        c = Client(s)
        c.ok({"t": "createContext", "ctx": 1, "options": {}, "page": True})
        return s, c

    def build(s, c):
        h, _ = reply(build_small(c, interim=True))
        assert h["ok"]["interim"] is True
        return s.graphs[10]

    m = host()
    build(*open_page(m))
    assert m.flush_to_disk()
    m = host()
    s, c = open_page(m)
    assert m.wait_prepared()
    assert m.compile_cache.stats == {"compiled": 0, "memory": 0, "disk": 2}  # the page's model, the host's session
    graph = build(s, c)
    assert m.compile_cache.stats == {"compiled": 0, "memory": 2, "disk": 2}
    assert graph.compiled.source == "memory" and graph.page_held[0].source == "memory"


def test_the_page_device_is_not_in_the_inventory(ml):
    assert DEVICE_ID not in {d.id for d in ml.inventory} and DEVICE_ID in {d.id for d in ml.placeable}
    assert dataclasses.replace(ml.page_device).kind == "cpu"


def test_serve_page_local_without_the_runtime_is_one_line(tmp_path, capsys):
    from tests.test_cli import one_line, run

    rc, _, err = run(["serve", "--page-local", str(tmp_path)], capsys)
    assert rc == 2 and one_line(err).startswith(f"webnn-bridge serve: --page-local {tmp_path}: no folder with")


def test_the_host_serves_the_runtime_files_to_any_page_and_nothing_else(folder):
    import urllib.error
    import urllib.request

    from webnn_bridge.bridge.embed import start_host

    h = start_host(page_runtime=folder)
    try:
        for name in RUNTIME_FILES:
            with urllib.request.urlopen(f"{h.url}{protocol.PAGE_RUNTIME_PATH}{name}") as r:
                assert r.read() == b"x" and r.headers["Access-Control-Allow-Origin"] == "*"
                assert r.headers["ETag"]
        with urllib.request.urlopen(f"{h.url}{protocol.PAGE_RUNTIME_PATH}{RUNTIME_FILES[0]}") as r:
            assert r.headers["Content-Type"].startswith("text/javascript")
        for bad in ("x.txt", "../" + RUNTIME_FILES[0], ""):
            with pytest.raises(urllib.error.HTTPError) as e:
                urllib.request.urlopen(f"{h.url}{protocol.PAGE_RUNTIME_PATH}{bad}")
            assert e.value.code == 404
            e.value.close()  # an open response would hold the host's stop()
    finally:
        h.stop()
    plain = start_host()
    try:
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(f"{plain.url}{protocol.PAGE_RUNTIME_PATH}{RUNTIME_FILES[0]}")
        assert e.value.code == 404
        e.value.close()
    finally:
        plain.stop()


def test_serve_page_local_says_so_and_serves_the_runtime(folder, tmp_path):
    """`webnn-bridge serve --page-local DIR` as a user starts it: its banner names the runtime and
    the bound, and the runtime's files are served."""
    import signal
    import subprocess
    import sys
    import urllib.request

    proc = subprocess.Popen([sys.executable, "-m", "webnn_bridge.bridge.cli", "serve", "--port", "0", "--no-cache",
                             "--page-local", str(folder)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = proc.stdout.readline().split("serving on ")[1].strip()
        lines = [proc.stdout.readline() for _ in range(3)]
        page = next(line for line in lines if line.strip().startswith("page:"))
        assert str(folder) in page and "max_flops 6000000.0" in page
        with urllib.request.urlopen(f"{url}{protocol.PAGE_RUNTIME_PATH}{RUNTIME_FILES[1]}") as r:
            assert r.read() == b"x"
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 0 and "Traceback" not in err, err


def _serve(args, env, expect_page_line: bool):
    """`webnn-bridge serve` with ``args`` as a user starts it: its banner's page line (None unless
    expected) and whether it serves the page runtime's files; then stopped."""
    import os
    import signal
    import subprocess
    import sys
    import urllib.error
    import urllib.request

    proc = subprocess.Popen([sys.executable, "-m", "webnn_bridge.bridge.cli", "serve", "--port", "0", "--no-cache",
                             *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **env})
    try:
        url = proc.stdout.readline().split("serving on ")[1].strip()
        page = None
        while expect_page_line and page is None:
            line = proc.stdout.readline()
            assert line, "the banner ended without a page line"
            page = line.strip() if line.strip().startswith("page:") else None
        try:
            with urllib.request.urlopen(f"{url}{protocol.PAGE_RUNTIME_PATH}{RUNTIME_FILES[1]}") as r:
                served = r.status == 200
        except urllib.error.HTTPError as e:
            served = False
            e.close()
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 0 and "Traceback" not in err, err
    return page, served


def test_serve_runs_small_graphs_in_the_page_by_default_wherever_the_runtime_is(folder):
    """No flag: on when the runtime is installed ($WEBNN_BRIDGE_PAGE_RUNTIME here), and the banner
    says how to turn it off; --no-page-local turns it off; no runtime: off, and the banner says how
    to install it."""
    page, served = _serve([], {"WEBNN_BRIDGE_PAGE_RUNTIME": str(folder)}, True)
    assert served and str(folder) in page and "--no-page-local" in page
    assert _serve(["--no-page-local"], {"WEBNN_BRIDGE_PAGE_RUNTIME": str(folder)}, False) == (None, False)
    page, served = _serve([], {"WEBNN_BRIDGE_PAGE_RUNTIME": ""}, True)
    assert not served and page.startswith("page:      off") and "install_ortweb.sh" in page


def test_page_local_and_no_page_local_together_is_one_line(folder, capsys):
    from tests.test_cli import one_line, run

    rc, _, err = run(["serve", "--page-local", str(folder), "--no-page-local"], capsys)
    assert rc == 2 and "choose one" in one_line(err)


def test_traces_mark_graphs_in_the_page_and_tuning_leaves_them_out(ml, tmp_path):
    """A graph the page runs is recorded with inPage; replay and tune leave it out and say how many
    (the [page] rules place it before any rule tuning changes), while the host's graphs stay."""
    from webnn_bridge.workbench import trace as tr

    path = tmp_path / "t.jsonl"
    with tr.TraceWriter(path) as w:
        s = Session(ml, observer=tr.SessionTracer(w))
        c = Client(s)
        c.ok({"t": "hello"})
        c.ok({"t": "createContext", "ctx": 1, "options": {}, "page": True})
        c.ok({"t": "createContext", "ctx": 2, "options": {}})
        h, _ = reply(build_small(c))  # ctx 1: in the page
        assert "page" in h["ok"]
        h, _ = reply(build_small(c, ctx=2, graph=30))  # ctx 2: the page did not offer to run it
        assert "page" not in h["ok"]
        # the page's own times of the runs it made of graph 10, and of one of graph 30 on the host
        for graph, ms in ((10, 0.4), (10, 0.2), (10, 0.3), (30, 1.5)):
            assert c.call({"t": "pageLatency", "graph": graph, "ms": ms}) == []
    events = tr.read_trace(path)
    builds = [e for e in events if e["event"] == "build"]
    assert [e.get("inPage", False) for e in builds] == [True, False]
    assert tr.event_problem({**builds[0], "inPage": "yes"}) == "build event: inPage must be true or false"
    runs = [e for e in events if e["event"] == "pageLatency"]
    assert [e.get("inPage", False) for e in runs] == [True, True, True, False]
    assert tr.event_problem({**runs[0], "inPage": 1}) == "pageLatency event: inPage must be true or false"
    assert tr.in_page_builds(events) == 1 and len(tr.workloads(events)) == 1
    assert tr.in_page_runs(events) == [0.4, 0.2, 0.3]
    notes: list = []
    rows = tr.replay(events, ml.rules, ml.rules, ml.inventory, notes=notes)
    assert len(rows) == 1
    assert any(n.startswith("1 build(s) ran in the page") and n.endswith("the page timed 3 of their runs: p50 0.3 ms, p90 0.4 ms")
               for n in notes), notes


def test_the_page_loads_its_runtime_only_for_contexts_whose_graphs_may_go_there(ml):
    """createContext's reply says whether this context's graphs may go to the page (pageGraphs):
    the shim loads the runtime then, and not for a context the [page] rules leave out."""
    c = Client(Session(ml))
    assert c.ok({"t": "createContext", "ctx": 1, "options": {}, "page": True})[0]["pageGraphs"] is True
    assert c.ok({"t": "createContext", "ctx": 2, "options": {}})[0]["pageGraphs"] is False  # the page did not offer
    rules = engine.default_rules()
    ml.rules = {**rules, "page": {**rules["page"], "contexts": ["gpu"]}}  # only GPU-preferring contexts
    assert c.ok({"t": "createContext", "ctx": 3, "options": {}, "page": True})[0]["pageGraphs"] is False
    h, _ = reply(build_small(c, ctx=3, graph=30))  # and its graphs stay on the host, as the reply said
    assert "page" not in h["ok"]


def test_a_page_model_is_written_after_its_build_and_read_back_after_a_restart(folder, tmp_path, monkeypatch):
    """A page graph's model holds its constants: it is written to the compile cache's disk by a
    low-priority thread after the build (flushed at shutdown), as every artifact is, and a
    restarted host sends the same model without lowering the graph again."""
    import threading

    from webnn_bridge.backends import cache as cache_mod
    from webnn_bridge.backends.cache import CompileCache
    from webnn_bridge.backends.page import PageBackend
    from webnn_bridge.bridge.api import MLGraphBuilder

    k = 300
    ctx = ML().createContext({})
    b = MLGraphBuilder(ctx)
    x = b.input("x", {"dataType": "float32", "shape": [1, k]})
    w = b.constant({"dataType": "float32", "shape": [k, k]}, np.arange(k * k, dtype=np.float32))
    ir = b._collect({"y": b.matmul(x, w)})
    device = page_device(folder)
    first = CompileCache(tmp_path)
    writing = []  # the thread each file is written on
    real = cache_mod.write_atomic
    monkeypatch.setattr(cache_mod, "write_atomic", lambda *a: writing.append(threading.current_thread()) or real(*a))
    compiled = first.compile(PageBackend.instance(), ir, device, "http://a.test")
    assert compiled.source == "compiled"
    first.flush()
    assert writing and threading.current_thread() not in writing
    assert len(list(tmp_path.glob("*.wnc"))) == 1
    again = CompileCache(tmp_path).compile(PageBackend.instance(), ir, device, "http://a.test")
    assert again.source == "disk" and again.compiled.model == compiled.compiled.model


def test_the_build_reply_says_how_the_page_warms_its_session_from_the_rules(folder):
    """rules.toml §4c warm_up_*: the page runs a graph's new session this many times on zeros
    (for at most this long, once dispatched this often) before it takes the graph over; a rules
    file sets them, and values out of range are refused by name."""
    defaults = engine.default_rules()["page"]
    rules = engine.load_rules()
    rules["page"].update(warm_up_runs=7, warm_up_ms=250, warm_up_after=3, warm_up_page_ms=900)
    for r, want in ((None, tuple(defaults[f"warm_up_{k}"] for k in ("runs", "ms", "after", "page_ms"))),
                    (rules, (7, 250, 3, 900))):
        m = ML(rules=r)
        m.page_device = page_device(folder)
        c = Client(Session(m))
        c.ok({"t": "createContext", "ctx": 1, "options": {}, "page": True})
        h, _ = reply(build_small(c, interim=True))
        assert h["ok"]["interim"] is True
        assert h["ok"]["page"]["warmUp"] == dict(zip(("runs", "maxMs", "after", "pageMaxMs"), want))
    assert defaults["warm_up_runs"] > 0 and defaults["warm_up_after"] >= 1
    for key, bad in (("warm_up_runs", -1), ("warm_up_ms", 1.5), ("warm_up_after", 0), ("warm_up_runs", True),
                     ("warm_up_page_ms", -5)):
        broken = engine.load_rules()
        broken["page"][key] = bad
        assert any(f"[page] {key} must be an integer" in p for p in engine.validate_rules(broken)), (key, bad)
