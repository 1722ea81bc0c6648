"""The crash journal (src/webnn_bridge/backends/crash_journal.py): a graph whose compile crashed the host's process
is not compiled on that device again, after the host restarts.

Crashes here are real: child processes that abort (SIGABRT) in the middle of a journaled compile,
and a real host (`webnn-bridge serve`) whose ONNX Runtime sessions abort for one graph."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import websockets

from webnn_bridge.backends.crash_journal import CrashJournal
from webnn_bridge.ops.core import OperationError

from .crash_plant import PLANT

REPO = Path(__file__).resolve().parents[1]

# a process that opens the journal, starts journaled compiles (one thread each, as a host's
# worker threads do) and then dies (or waits to be killed)
_CHILD = """
import os, sys, threading, time
from webnn_bridge.backends.crash_journal import CrashJournal
from webnn_bridge.ops.core import OperationError
j = CrashJournal(sys.argv[1])
started = threading.Barrier(len(sys.argv[3:]) + 1)
def compile(graph):
    with j.compiling(graph, [("onnxruntime:CPUExecutionProvider", "tok")], what="test"):
        started.wait()
        time.sleep(60)
for g in sys.argv[3:]:
    threading.Thread(target=compile, args=(g,), daemon=True).start()
started.wait()
print("compiling", flush=True)
if sys.argv[2] == "abort":
    os.abort()
if sys.argv[2] == "exit":
    sys.exit(0)
time.sleep(60)
"""


def _child(tmp_path, how: str, *graphs: str) -> subprocess.Popen:
    p = subprocess.Popen([sys.executable, "-c", _CHILD, str(tmp_path), how, *graphs], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "compiling", p.stderr.read()
    return p


def _quarantined(tmp_path, graph: str) -> bool:
    j = CrashJournal(tmp_path)
    try:
        return j.quarantined(graph, "onnxruntime:CPUExecutionProvider", "tok") is not None
    finally:
        j.close()


def test_a_compile_that_crashed_the_process_is_quarantined(tmp_path):
    p = _child(tmp_path, "abort", "g1")
    assert p.wait(30) == -signal.SIGABRT
    j = CrashJournal(tmp_path)
    assert [r["digest"] for r in j.recovered] == ["g1"]
    assert j.quarantined("g1", "onnxruntime:CPUExecutionProvider", "tok")["crashes"] == 1
    # only there: another device, another runtime version, another graph are untouched
    assert j.quarantined("g1", "openvino:CPU", "tok") is None
    assert j.quarantined("g1", "onnxruntime:CPUExecutionProvider", "newer") is None
    assert j.quarantined("g2", "onnxruntime:CPUExecutionProvider", "tok") is None
    j.close()
    assert [p.name for p in (tmp_path / "crash-journal").glob("inflight-*")] == []


def test_a_living_process_keeps_its_compiles(tmp_path):
    p = _child(tmp_path, "wait", "g1")
    try:
        assert not _quarantined(tmp_path, "g1")  # still compiling, in a process that lives
    finally:
        p.kill()
        p.wait(30)
    assert _quarantined(tmp_path, "g1")  # killed in the middle: now it counts


def test_a_process_that_exits_normally_leaves_nothing_in_flight(tmp_path):
    """A host stopping (a drain's deadline passed, pages still running) is no crash."""
    p = _child(tmp_path, "exit", "g1")
    assert p.wait(30) == 0
    assert not _quarantined(tmp_path, "g1")
    assert [f.name for f in (tmp_path / "crash-journal").glob("inflight-*")] == []


def test_finished_work_leaves_nothing_and_notes_nest(tmp_path):
    from webnn_bridge.backends.crash_journal import _in_flight

    j = CrashJournal(tmp_path)
    runs = j.device_set([("d", "tok")])
    with j.compiling("g1", [("d", "tok")]):
        assert [e["digest"] for e in _in_flight(j._own)] == ["g1"]
        with j.running("g0", runs):  # a run inside a compile (OpenVINO's parts on ONNX Runtime)
            assert [(e["digest"], e["what"]) for e in _in_flight(j._own)] == [("g0", "running")]
        assert [(e["digest"], e["what"]) for e in _in_flight(j._own)] == [("g1", "compiling")]
    with pytest.raises(ValueError), j.compiling("g2", [("d", "tok")]):
        raise ValueError("a compile that fails normally is no crash")
    assert _in_flight(j._own) == []
    assert CrashJournal(tmp_path).recovered == []


def test_graphs_in_flight_together_are_suspects_until_a_second_crash(tmp_path):
    """Pages building at once when the runtime crashed: neither graph is exiled for one crash;
    the one that is in flight again at the next crash is."""
    assert _child(tmp_path, "abort", "culprit", "bystander").wait(30) == -signal.SIGABRT
    assert not _quarantined(tmp_path, "culprit") and not _quarantined(tmp_path, "bystander")
    assert _child(tmp_path, "abort", "culprit", "other").wait(30) == -signal.SIGABRT
    assert _quarantined(tmp_path, "culprit")
    assert not _quarantined(tmp_path, "bystander") and not _quarantined(tmp_path, "other")


def test_a_damaged_quarantine_file_is_an_empty_one(tmp_path):
    j = CrashJournal(tmp_path)
    j.quarantine_file.write_text("{not json")
    assert j.quarantined("g1", "d", "tok") is None
    j.quarantine_file.write_text("[1, 2]")
    assert j.quarantined("g1", "d", "tok") is None


# --------------------------------------------------------------------------- a real host

# `webnn-bridge serve` with the planted crash (tests/crash_plant.py)
_HOST = PLANT + """
import sys
from webnn_bridge.bridge.cli import main
sys.argv = ["webnn-bridge", "serve", "--port", "0", "--cache-dir", sys.argv[1]]
main()
"""


def _host(cache: Path) -> tuple[subprocess.Popen, str]:
    env = {**os.environ, "WEBNN_BRIDGE_TORCH": "0"}
    p = subprocess.Popen([sys.executable, "-c", _HOST, str(cache)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=env)
    line = p.stdout.readline()
    m = re.search(r"serving on (http://\S+)", line)
    assert m, line + p.stderr.read()
    return p, m.group(1)


async def _page(url: str, n: int, first: float = 0) -> np.ndarray:
    from webnn_bridge.bridge.testing.wire_client import WireClient

    c = await WireClient.open(url)
    try:
        await c.context()
        await c.matmul_graph(1, n, rows=2)
        x = np.arange(2 * n, dtype=np.float32).reshape(2, n)
        x[0, 0] = first
        return await c.round_trip(1, x)
    finally:
        await c.close()


def _expected(n: int, first: float = 0) -> np.ndarray:
    x = np.arange(2 * n, dtype=np.float32).reshape(2, n)
    x[0, 0] = first
    return np.maximum(x @ (np.ones((n, n), np.float32) / n), 0).ravel()


def _crash_and_restart(tmp_path, n: int, first: float = 0) -> str:
    """A page (its graph of width ``n``, its input's first value) crashes the host; the host
    restarts on the same cache folder, as systemd or Kubernetes would, and the same page gets its
    results there, as do others. The restarted host's log."""
    host, url = _host(tmp_path)
    try:
        np.testing.assert_allclose(asyncio.run(_page(url, 8)), _expected(8), rtol=1e-6)
        with pytest.raises(websockets.exceptions.ConnectionClosed):  # the link dies with the host
            asyncio.run(_page(url, n, first))
        assert host.wait(30) == -signal.SIGABRT
    finally:
        host.kill()
        host.wait(30)
    host, url = _host(tmp_path)
    try:
        for _ in range(2):  # built on another device, and again
            np.testing.assert_allclose(asyncio.run(_page(url, n, first)), _expected(n, first), rtol=1e-5)
        np.testing.assert_allclose(asyncio.run(_page(url, 8)), _expected(8), rtol=1e-6)  # others as before
        assert host.poll() is None
    finally:
        host.terminate()
        err = host.communicate(timeout=30)[1]
    assert "crashed the host's runtime on onnxruntime:CPUExecutionProvider before" in err
    return err


def test_a_graph_whose_compile_crashed_the_host_goes_elsewhere_after_the_restart(tmp_path):
    assert "a runtime crashed the host while compiling graph" in _crash_and_restart(tmp_path, 77)


def test_a_graph_whose_run_crashed_the_host_goes_elsewhere_after_the_restart(tmp_path):
    # width 9 compiles on ONNX Runtime; its run on an input holding 1234.5 crashes it
    assert "a runtime crashed the host while running graph" in _crash_and_restart(tmp_path, 9, first=1234.5)


def _crashed(journal, digest: str, device) -> None:
    """What a crash in the middle of compiling ``digest`` on ``device`` leaves behind, recovered."""
    from webnn_bridge.backends import backend_for
    from webnn_bridge.backends.crash_journal import _SLOT, runtime_token

    folder = journal.dir / f"inflight-dead-{device.id.replace(':', '_')}"
    folder.mkdir()
    (folder / ".alive").touch()
    (folder / "devices.json").write_text(json.dumps([[[device.id, runtime_token(backend_for(device), device)]]]))
    (folder / "slots").write_bytes(_SLOT.pack(1, digest.encode(), 0) + bytes(_SLOT.size))
    assert len(journal.recover()) == 1


def test_the_build_goes_to_a_device_it_did_not_crash_or_fails(tmp_path):
    """Quarantined on ONNX Runtime: the graph goes to the next device that runs it (the reference);
    quarantined there too: build() fails with the spec's OperationError, saying why."""
    from webnn_bridge.backends.cache import CompileCache, graph_digest
    from webnn_bridge.bridge.api import ML, MLGraphBuilder
    from webnn_bridge.ops.core import OperationError

    inv = ML().inventory
    ort, ref = (next(d for d in inv if d.id == i) for i in ("onnxruntime:CPUExecutionProvider", "reference:cpu"))
    ml = ML([ort, ref], compile_cache=CompileCache(tmp_path))
    ctx = ml.createContext()

    def build():
        b = MLGraphBuilder(ctx)
        x = b.input("x", {"dataType": "float32", "shape": [2]})
        return b.build({"y": b.relu(x)})

    g = build()
    digest = graph_digest(g.ir)
    assert g.placement.device.id == ort.id
    g.destroy()
    _crashed(ml.compile_cache.journal, digest, ort)
    g = build()
    assert g.placement.device.id == ref.id
    assert any("crashed the host's runtime on onnxruntime" in r for r in g.placement.reasons)
    np.testing.assert_array_equal(ctx.compute(g, {"x": np.array([-1, 2], np.float32)})["y"], [0, 2])
    g.destroy()
    _crashed(ml.compile_cache.journal, digest, ref)
    with pytest.raises(OperationError, match="crashed the host's runtime"):
        build()



def test_restart_on_crash_starts_the_host_again_and_stops_on_sigterm(tmp_path):
    """`serve --restart-on-crash`: the host that a runtime crashed is started again on the same
    port, the crashing graph runs elsewhere there, and SIGTERM stops the lot. The runtime's crash
    is planted in every process through a sitecustomize module (the host runs as a child)."""
    plant = tmp_path / "plant"
    plant.mkdir()
    (plant / "sitecustomize.py").write_text(PLANT)
    env = {**os.environ, "WEBNN_BRIDGE_TORCH": "0",
           "PYTHONPATH": os.pathsep.join([str(plant), os.environ.get("PYTHONPATH", "")])}
    p = subprocess.Popen([sys.executable, "-m", "webnn_bridge.bridge.cli", "serve", "--port", "0",
                          "--cache-dir", str(tmp_path / "cache"), "--restart-on-crash"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        url = re.search(r"serving on (http://\S+)", p.stdout.readline()).group(1)
        with pytest.raises(websockets.exceptions.ConnectionClosed):
            asyncio.run(_page(url, 77))
        while "serving on" not in (line := p.stdout.readline()):  # started again
            assert line, p.stderr.read()
        assert re.search(r"serving on (http://\S+)", line).group(1) == url
        np.testing.assert_allclose(asyncio.run(_page(url, 77)), _expected(77), rtol=1e-5)
        p.send_signal(signal.SIGTERM)
        assert p.wait(60) == 0
    finally:
        p.kill()
        err = p.communicate(timeout=30)[1]
    assert "the host was ended by SIGABRT; starting it again" in err


# --------------------------------------------------------------------------- beyond the exact graph

# y = unary(x @ W), x [2, n], W [n, n] all 1/n: a graph whose operator signature is
# {matmul:float32, <unary>:float32}, on a context of ML([ONNX Runtime's CPU, the reference] or those
# named), a cache in a folder and a page origin
_BUILD = """
import numpy as np
from webnn_bridge.backends.cache import CompileCache
from webnn_bridge.bridge.api import ML, MLGraphBuilder
from webnn_bridge.policy.inventory import probe_inventory

def context(cache, origin, devices=("onnxruntime:CPUExecutionProvider", "reference:cpu")):
    ml = ML([d for d in probe_inventory() if d.id in devices], compile_cache=CompileCache(cache))
    ctx = ml.createContext()
    ctx.cache_partition = origin  # what the host sets to the page's origin
    return ctx

def build(ctx, n, unary="relu"):
    b = MLGraphBuilder(ctx)
    x = b.input("x", {"dataType": "float32", "shape": [2, n]})
    w = b.constant({"dataType": "float32", "shape": [n, n]}, np.full((n, n), 1 / n, np.float32))
    return b.build({"y": getattr(b, unary)(b.matmul(x, w))})
"""
_build_ns: dict = {}
exec(_BUILD, _build_ns)
_context, _build = _build_ns["context"], _build_ns["build"]

# a process that builds one graph there with the planted crash: matmuls of width 77 abort it
_CRASHING_BUILD = PLANT + _BUILD + """
import sys
build(context(sys.argv[1], sys.argv[2]), int(sys.argv[3]), sys.argv[4])
print("built")
"""


def _crash_building(cache: Path, origin: str, n: int, unary: str) -> None:
    p = subprocess.run([sys.executable, "-c", _CRASHING_BUILD, str(cache), origin, str(n), unary],
                       capture_output=True, text=True, timeout=60, env={**os.environ, "WEBNN_BRIDGE_TORCH": "0"})
    assert p.returncode == -signal.SIGABRT, p.stdout + p.stderr


ORT, REF = "onnxruntime:CPUExecutionProvider", "reference:cpu"


def test_a_crash_keeps_graphs_of_the_same_operators_off_that_device(tmp_path):
    """One graph's crash: another graph of the same operators on the same data types (another width,
    other weights) is built elsewhere at once; a graph of other operators is not."""
    _crash_building(tmp_path, "https://a.test", 77, "relu")
    ctx = _context(tmp_path, "https://b.test")
    recovered = ctx.ml.compile_cache.journal.recovered
    assert sorted(r.get("kind", "digest") for r in recovered) == ["digest", "signature"]
    assert next(r for r in recovered if r.get("kind") == "signature")["ops"] == ["matmul:float32", "relu:float32"]
    g = _build(ctx, 78, "relu")  # another graph (another digest), the same operators
    assert g.placement.device.id == REF
    assert any("graphs of the same operators (matmul:float32, relu:float32) crashed the host's runtime on " + ORT in r
               for r in g.placement.reasons), g.placement.reasons
    x = np.arange(2 * 78, dtype=np.float32).reshape(2, 78)
    np.testing.assert_allclose(ctx.compute(g, {"x": x})["y"], np.maximum(x @ np.full((78, 78), 1 / 78), 0), rtol=1e-5)
    assert _build(ctx, 78, "sigmoid").placement.device.id == ORT  # other operators: as before
    assert _build(ctx, 8, "relu").placement.device.id == REF
    with pytest.raises(OperationError, match="graphs of the same operators"):  # nowhere else to go
        _build(_context(tmp_path, "https://b.test", devices=(ORT,)), 12, "relu")


def test_an_origin_whose_pages_crashed_the_host_twice_gets_only_the_safe_device(tmp_path, monkeypatch):
    """Two crashes by one origin's graphs of different operators: any graph of that origin now goes
    to the reference (whatever its operators), or fails where the context has none; other origins
    and a new runtime version are not affected."""
    from webnn_bridge.backends.crash_journal import ORIGIN_CRASH_CAP
    from webnn_bridge.bridge import api

    assert ORIGIN_CRASH_CAP == 2
    _crash_building(tmp_path, "https://a.test", 77, "relu")
    assert _build(_context(tmp_path, "https://a.test"), 12, "tanh").placement.device.id == ORT  # one crash: no cap
    _crash_building(tmp_path, "https://a.test", 77, "sigmoid")
    ctx = _context(tmp_path, "https://a.test")
    g = _build(ctx, 12, "tanh")  # operators that never crashed anything
    assert g.placement.device.id == REF
    assert any("this page's origin crashed the host's runtimes 2 times" in r for r in g.placement.reasons)
    assert _build(_context(tmp_path, "https://b.test"), 12, "tanh").placement.device.id == ORT
    assert _build(_context(tmp_path, ""), 12, "tanh").placement.device.id == ORT  # no page: no origin
    with pytest.raises(OperationError, match="this page's origin crashed"):
        _build(_context(tmp_path, "https://a.test", devices=(ORT,)), 12, "tanh")
    # the records hold for the runtime versions that crashed: an upgraded runtime gets another chance
    real = api.runtime_token
    monkeypatch.setattr(api, "runtime_token", lambda backend, device: real(backend, device) + "-upgraded")
    assert _build(_context(tmp_path, "https://a.test"), 77, "sigmoid").placement.device.id == ORT


def test_signatures_and_origins_in_flight_together_are_suspects(tmp_path):
    """Graphs of two signatures in flight at one crash: neither signature is quarantined for it
    (the graphs are suspects, as before); each origin in flight gets the crash counted."""
    from webnn_bridge.backends.crash_journal import _count_crash

    records: dict = {}
    capped: dict = {}
    dev = [["d", "tok"]]
    both = [{"digest": "g1", "devices": dev, "signature": "s1", "ops": ["a:float32"], "origin": "o1"},
            {"digest": "g2", "devices": dev, "signature": "s2", "ops": ["b:float32"], "origin": "o2"}]
    assert _count_crash(records, both, capped) == [] and capped == {}
    same = [{"digest": "g3", "devices": dev, "signature": "s1", "origin": "o1"},
            {"digest": "g4", "devices": dev, "signature": "s1", "origin": "o1"}]
    quarantined = _count_crash(records, same, capped)  # two graphs, one signature: it is the culprit
    assert [(r.get("kind"), r.get("signature")) for r in quarantined] == [("signature", "s1")]
    assert capped == {"o1": 2}
    crashes = [(r["origin"], r["devices"]) for r in records.values() if r.get("kind") == "origin"]
    assert sorted(crashes) == [("o1", dev), ("o1", dev), ("o2", dev)]  # one record a crash
