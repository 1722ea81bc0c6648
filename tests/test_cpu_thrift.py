"""Issue 39, CPU thrift by default: runtimes' pool threads do not spin unless asked for (`serve
--spin`, WEBNN_BRIDGE_SPIN=1); a pool's size comes from the cores and the pages dispatching, the
same for ONNX Runtime, OpenVINO and PyTorch; the host reports the CPU time its dispatches take
(/metrics, traces). The CPU-per-latency figures themselves are benchmarks/bench_cpu.py's."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from webnn_bridge.backends import base
from webnn_bridge.backends import onnxruntime as ort_backend

from .wire import Wire

BIG = (1, 1 << 21)  # float32: two 8 MiB values (relu, add), base.POOL_MIN_VALUE_BYTES in all: a pool


def _graph_ir(shape=BIG):
    """relu(x) + x on float32 ``shape``, as the host builds it (reference device)."""
    from webnn_bridge.bridge.api import ML, MLGraphBuilder
    from webnn_bridge.policy.inventory import REFERENCE_CPU

    ctx = ML([REFERENCE_CPU]).createContext({})
    b = MLGraphBuilder(ctx)
    x = b.input("x", {"dataType": "float32", "shape": list(shape)})
    return b._collect({"y": b.add(b.relu(x), x)})


def _matmul_ir(rows: int, n: int = 1024):
    """relu(x @ W), x [rows, n], W [n, n]: 2 * rows * n * n FLOPs."""
    from webnn_bridge.bridge.api import ML, MLGraphBuilder
    from webnn_bridge.policy.inventory import REFERENCE_CPU

    ctx = ML([REFERENCE_CPU]).createContext({})
    b = MLGraphBuilder(ctx)
    x = b.input("x", {"dataType": "float32", "shape": [rows, n]})
    w = b.constant({"dataType": "float32", "shape": [n, n]}, np.zeros((n, n), np.float32))
    return b._collect({"y": b.relu(b.matmul(x, w))})


def test_only_graphs_with_enough_work_gain_a_pool():
    """Threads pay for their wake-ups only on long runs (base.POOL_MIN_FLOPS): a graph of 4 MiB of
    constants but 0.2 GFLOP runs on one thread; 1.1 GFLOP, or big values, get a pool."""
    small, big = _matmul_ir(96), _matmul_ir(512)
    assert small.constant_bytes() == 4 << 20
    assert not base.gains_from_threads(small)
    assert base.gains_from_threads(big)
    assert base.gains_from_threads(_graph_ir())  # 16 MiB of values
    assert not base.gains_from_threads(_graph_ir((1, 1 << 19)))  # 4 MiB of values, no arithmetic to speak of


def test_a_small_graph_with_big_constants_runs_without_a_pool(free_slots):
    compiled = ort_backend.OnnxRuntimeBackend.instance().compile(_matmul_ir(16), _ort_cpu())
    try:
        assert compiled.threads == 1 and not compiled.pooled
    finally:
        compiled.close()


@pytest.mark.parametrize("shape, bound", [((1, 1024), False), ((1, 1 << 15), True)])
def test_outputs_are_the_callers_own_arrays_bound_or_copied(free_slots, shape, bound):
    """Outputs over BOUND_OUTPUT_MIN_BYTES are computed into arrays bound to the run; a small
    graph's (4 KiB) are copied out of session.run's (cheaper than binding). Either way each run's
    results are arrays of their own: the next run leaves them as they were."""
    compiled = ort_backend.OnnxRuntimeBackend.instance().compile(_graph_ir(shape), _ort_cpu())
    try:
        assert compiled.bound is bound
        rng = np.random.default_rng(0)
        x1, x2 = (rng.standard_normal(shape).astype(np.float32) for _ in range(2))
        y1 = compiled.run({"x": x1})["y"]
        kept = y1.copy()
        y2 = compiled.run({"x": x2})["y"]
        np.testing.assert_array_equal(y1, kept)
        assert not np.shares_memory(y1, y2)
        np.testing.assert_allclose(y2, np.maximum(x2, 0) + x2, rtol=1e-6)
    finally:
        compiled.close()


def _ort_cpu():
    devs = [d for d in ort_backend.OnnxRuntimeBackend.probe() if d.providers[0] == "CPUExecutionProvider"]
    return devs[0]


def _entry(opts, key: str) -> str | None:
    try:
        return opts.get_session_config_entry(key)
    except RuntimeError:  # ORT raises for a key that was never set
        return None


@pytest.fixture
def free_slots(monkeypatch):
    """A free pool slot, whatever other tests hold, and no other page counted as active."""
    monkeypatch.setattr(base, "POOL_SLOTS", base.PoolSlots(2))
    monkeypatch.setattr(base, "ACTIVE_PAGES", base.ActivePages())
    monkeypatch.setattr(base, "cpu_cores", lambda: 4)  # pools of THRIFT_THREADS here, whatever this machine has


# ------------------------------------------------------------------ spinning: off, unless asked for


def test_sessions_are_created_with_spinning_off_by_default(monkeypatch):
    monkeypatch.delenv(base.SPIN_ENV, raising=False)
    opts = ort_backend.session_options(pooled=True, threads=2)
    assert opts.intra_op_num_threads == 2
    assert _entry(opts, "session.intra_op.allow_spinning") == "0"
    assert _entry(opts, "session.inter_op.allow_spinning") == "0"


def test_spinning_is_an_option(monkeypatch):
    monkeypatch.setenv(base.SPIN_ENV, "1")
    opts = ort_backend.session_options(pooled=True, threads=2)
    assert _entry(opts, "session.intra_op.allow_spinning") is None  # ORT's default: spinning
    assert _entry(opts, "session.intra_op.spin_duration_us") == str(ort_backend.SPIN_US)
    assert _entry(opts, "session.force_spinning_stop") == "1"  # and it stops when a run ends


SERVE_CHILD = """
import sys
from webnn_bridge.backends import base
from webnn_bridge.bridge import cli

class Started(Exception):
    pass

def ml_factory(*args):  # the host's first step once its options are read: stop there
    raise Started

cli.ml_factory = ml_factory
try:
    cli.main(["serve", "--port", "0", "--no-cache", *sys.argv[1:]])
except Started:
    print(base.spinning())
"""


def test_serve_spin_turns_spinning_on_for_the_backends():
    env = {k: v for k, v in os.environ.items() if k != base.SPIN_ENV}
    for argv, spins in (([], "False"), (["--spin"], "True")):
        r = subprocess.run([sys.executable, "-c", SERVE_CHILD, *argv], capture_output=True, text=True, env=env,
                           timeout=120)
        assert r.stdout.split() == [spins], r.stderr[-2000:]


@pytest.mark.parametrize("spin", ["", "1"])
def test_a_big_graphs_session_has_a_pool_of_pool_threads_spinning_only_when_asked(monkeypatch, free_slots, spin):
    monkeypatch.setenv(base.SPIN_ENV, spin)
    dev = _ort_cpu()
    compiled = ort_backend.OnnxRuntimeBackend.instance().compile(_graph_ir(), dev)
    try:
        assert compiled.pooled and compiled.threads == base.THRIFT_THREADS == 2
        opts = compiled.session.get_session_options()
        assert opts.intra_op_num_threads == 2
        assert _entry(opts, "session.intra_op.allow_spinning") == (None if spin else "0")
        x = np.linspace(-1, 1, BIG[1], dtype=np.float32).reshape(BIG)
        np.testing.assert_array_equal(compiled.run({"x": x})["y"], np.maximum(x, 0) + x)
    finally:
        compiled.close()


def test_a_small_graph_runs_on_the_callers_thread(free_slots):
    compiled = ort_backend.OnnxRuntimeBackend.instance().compile(_graph_ir((4, 4)), _ort_cpu())
    try:
        assert not compiled.pooled and compiled.threads == 1
        assert compiled.session.get_session_options().intra_op_num_threads == 1
    finally:
        compiled.close()


# ------------------------------------------------------------------ a pool's size


def test_pool_threads_share_the_cores_between_active_pages(monkeypatch):
    monkeypatch.setattr(base, "cpu_cores", lambda: 16)
    assert [base.pool_threads(n) for n in (0, 1, 2, 8, 9, 16, 100)] == [2, 2, 2, 2, 1, 1, 1]
    monkeypatch.setattr(base, "cpu_cores", lambda: 2)
    assert [base.pool_threads(n) for n in (1, 2, 3)] == [2, 1, 1]
    monkeypatch.setattr(base, "cpu_cores", lambda: 1)
    assert base.pool_threads(1) == 1  # one core: no pool at all


def test_cpu_cores_follow_the_affinity():
    cores = base.cpu_cores()
    assert 1 <= cores <= (os.cpu_count() or 1)
    if hasattr(os, "sched_getaffinity"):
        assert cores <= len(os.sched_getaffinity(0))


def test_active_pages_are_those_that_dispatched_lately_and_are_open():
    class Page:
        closed = False

    pages = base.ActivePages(window=0.2)
    a, b = Page(), Page()
    pages.touch(a)
    pages.touch(b)
    pages.touch(a)
    assert pages.count() == 2
    b.closed = True
    assert pages.count() == 1
    del b
    time.sleep(0.25)
    assert pages.count() == 0  # a's latest dispatch is older than the window
    pages.touch(a)
    assert pages.count() == 1


def test_a_graph_compiled_while_pages_share_the_cores_gets_a_smaller_pool(monkeypatch, free_slots):
    monkeypatch.setattr(base, "cpu_cores", lambda: 2)

    class Page:
        closed = False

    busy = [Page(), Page()]
    for p in busy:
        base.ACTIVE_PAGES.touch(p)
    compiled = ort_backend.OnnxRuntimeBackend.instance().compile(_graph_ir(), _ort_cpu())
    try:  # two pages on two cores: a thread each, the caller's (no pool)
        assert not compiled.pooled and compiled.session.get_session_options().intra_op_num_threads == 1
    finally:
        compiled.close()


def test_dispatches_mark_their_page_active(free_slots):
    from webnn_bridge.bridge.api import ML
    from webnn_bridge.bridge.session import Session

    from .test_untrusted_input import call, send

    s = Session(ML())
    assert "error" not in call(s, {"t": "createContext", "id": 1, "ctx": 1})
    assert "error" not in call(s, {"t": "build", "id": 2, "ctx": 1, "graph": 2, "inputs": [
        {"operand": 1, "name": "x", "desc": {"dataType": "float32", "shape": [2]}}],
        "nodes": [{"op": "relu", "args": [{"$operand": 1}, {}], "outputs": [2]}], "outputs": {"y": 2}})
    for tid in (3, 4):
        assert "error" not in call(s, {"t": "createTensor", "id": tid, "ctx": 1, "tensor": tid, "desc": {
            "dataType": "float32", "shape": [2], "readable": True, "writable": True}})
    assert base.ACTIVE_PAGES.count() == 0
    send(s, {"t": "dispatch", "ctx": 1, "graph": 2, "inputs": {"x": 3}, "outputs": {"y": 4}})
    assert base.ACTIVE_PAGES.count() == 1
    s.close()
    assert base.ACTIVE_PAGES.count() == 0


def test_openvino_takes_the_same_thread_count(monkeypatch):
    from webnn_bridge.backends import backend_for
    from webnn_bridge.backends.openvino import OpenVinoBackend

    devs = [d for d in OpenVinoBackend.probe() if d.kind == "cpu"]
    if not devs:
        pytest.skip("OpenVINO is not installed (the test extra installs it)")
    monkeypatch.setattr(base, "ACTIVE_PAGES", base.ActivePages())
    for ir, threads in ((_graph_ir(), base.pool_threads()), (_graph_ir((4, 4)), 1)):  # as ONNX Runtime's pools
        compiled = backend_for(devs[0]).compile(ir, devs[0])
        try:
            assert int(compiled.compiled.get_property("INFERENCE_NUM_THREADS")) == threads
        finally:
            compiled.close()


# ------------------------------------------------------------------ PyTorch's pool

TORCH_CHILD = """
import os, time
from webnn_bridge.backends import base
from webnn_bridge.backends import torch as tb
torch = tb._torch()
a = torch.randn(64, 512)
w = torch.randn(512, 512)
for _ in range(50):
    torch.relu(a @ w)
c0 = time.process_time()
time.sleep(0.3)
print(os.environ.get("OMP_WAIT_POLICY"), torch.get_num_threads(), base.pool_threads(1),
      round(time.process_time() - c0, 4))
"""


def _torch_child(spin: str) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", base.SPIN_ENV)}
    env[base.SPIN_ENV] = spin
    r = subprocess.run([sys.executable, "-c", TORCH_CHILD], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout.split()


def test_torch_threads_match_the_pools_and_sleep_when_idle():
    pytest.importorskip("torch")
    policy, threads, expected, idle_cpu = _torch_child("")
    assert policy == "PASSIVE" and int(threads) == int(expected)
    assert float(idle_cpu) < 0.004  # OpenMP threads that spin after the work: about 0.009 s here (2 cores)
    policy, threads, expected, _ = _torch_child("1")
    assert policy == "None" and int(threads) == int(expected)  # spinning asked for: OpenMP's own wait policy


# ------------------------------------------------------------------ CPU time per dispatch


def test_dispatch_cpu_counts_the_process_while_a_dispatch_runs_alone():
    from webnn_bridge.bridge.metrics import DispatchCpu

    clock = DispatchCpu()
    token = clock.start()
    burner = threading.Thread(target=_burn, args=(0.05,))  # a pool thread, say: not a dispatch
    burner.start()
    burner.join()
    assert clock.stop(token) >= 0.04
    assert clock.take() >= 0.04 and clock.take() == 0.0  # taken once


def test_dispatch_cpu_counts_its_own_thread_when_dispatches_overlap():
    from webnn_bridge.bridge.metrics import DispatchCpu

    clock = DispatchCpu()
    token = clock.start()

    def other_dispatch():
        t = clock.start()
        _burn(0.05)
        clock.stop(t)

    other = threading.Thread(target=other_dispatch)
    other.start()
    other.join()
    assert clock.stop(token) < 0.02  # the other dispatch's 50 ms are its own


def _burn(seconds: float) -> None:
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def _metric(url: str, name: str) -> float:
    import re
    import urllib.request

    with urllib.request.urlopen(url + "/metrics", timeout=10) as r:
        text = r.read().decode()
    return float(re.search(rf"^{name} (\S+)$", text, re.M).group(1))


def test_metrics_report_the_cpu_time_of_dispatches(free_slots):
    from webnn_bridge.bridge.embed import start_host

    host = start_host()
    try:
        with Wire(host.url) as page:
            page.request({"t": "createContext", "ctx": 1, "options": {}})
            page.request({"t": "build", "ctx": 1, "graph": 2, "inputs": [
                {"operand": 1, "name": "x", "desc": {"dataType": "float32", "shape": list(BIG)}}],
                "nodes": [{"op": "relu", "args": [{"$operand": 1}, {}], "outputs": [2]},
                          {"op": "add", "args": [{"$operand": 2}, {"$operand": 1}, {}], "outputs": [3]}],
                "outputs": {"y": 3}})
            for tid in (3, 4):
                page.request({"t": "createTensor", "ctx": 1, "tensor": tid, "desc": {
                    "dataType": "float32", "shape": list(BIG), "readable": True, "writable": True}})
            before = _metric(host.url, "webnn_bridge_dispatch_cpu_seconds_total")
            assert before == 0.0
            for _ in range(20):
                page.send({"t": "dispatch", "ctx": 1, "graph": 2, "inputs": {"x": 3}, "outputs": {"y": 4}})
            page.request({"t": "readTensor", "tensor": 4})  # after the dispatches
            cpu = _metric(host.url, "webnn_bridge_dispatch_cpu_seconds_total")
            wall = _metric(host.url, "webnn_bridge_dispatch_seconds_sum")
            assert _metric(host.url, "webnn_bridge_dispatches_total") == 20
            # 20 runs over 2 MiB each take CPU time; a dispatch running alone counts no more than
            # its threads could (two of them here, a core each, plus the host's other threads)
            assert 0 < cpu <= 4 * wall + 0.05
    finally:
        host.stop()


def test_an_idle_pool_burns_no_cpu_after_dispatches(monkeypatch, free_slots):
    """The pool of a big graph, after a run of dispatches: its threads sleep (1 s, near no CPU)."""
    monkeypatch.delenv(base.SPIN_ENV, raising=False)
    compiled = ort_backend.OnnxRuntimeBackend.instance().compile(_graph_ir(), _ort_cpu())
    try:
        assert compiled.pooled
        x = np.ones(BIG, np.float32)
        for _ in range(30):
            compiled.run({"x": x})
        start = time.process_time()
        time.sleep(1.0)
        assert time.process_time() - start < 0.02
    finally:
        compiled.close()


def test_dispatch_events_carry_the_cpu_time():
    import importlib

    try:  # where the policy workbench's tracer lives
        tracing = importlib.import_module("webnn_bridge.workbench.trace")
    except ModuleNotFoundError:
        tracing = importlib.import_module("webnn_bridge.policy.trace")
    ev = tracing.dispatch_event("h", {"dev": 1.5}, cpu_ms=2.25)
    assert ev["cpuMs"] == 2.25 and tracing.event_problem(ev) is None
    assert tracing.event_problem({**ev, "cpuMs": -1}) is not None
    assert "cpuMs" not in tracing.dispatch_event("h", {"dev": 1.5})
