"""The PyTorch backend (src/webnn_bridge/backends/torch.py): probing and capabilities per device, the integer
semantics the conformance cases and the capability sweep do not reach (wrap-around, unsigned
64-bit values, divisions that would trap), build-time errors, device-resident runs and CUDA
graphs, policy placement on a torch GPU, and scripts/gpu-check.sh.

The conformance cases and the capability sweep run on the torch CPU device in
tests/test_conformance.py and tests/test_capability_sweep.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from webnn_bridge.backends.base import Device
from webnn_bridge.backends.torch import FLOAT64_OPS, TorchBackend, TorchCompiled, enabled
from webnn_bridge.bridge.api import ML, MLGraphBuilder
from webnn_bridge.ops.core import OperationError
from webnn_bridge.ops.registry import load_all
from webnn_bridge.policy import engine
from webnn_bridge.policy.inventory import capabilities_of, is_simulated, load_profile

REPO = Path(__file__).resolve().parents[1]
needs_torch = pytest.mark.skipif(not enabled(), reason="torch is not installed (pip install '.[torch]')")


def _has_cuda() -> bool:
    if not enabled():
        return False
    import torch

    return torch.cuda.is_available()


@pytest.fixture(scope="module")
def contexts():
    inv = ML().inventory
    torch_cpu = [d for d in inv if d.backend == "torch" and d.kind == "cpu"]
    if not torch_cpu:
        pytest.skip("torch is not installed (pip install '.[torch]')")
    ref = [d for d in inv if d.backend == "reference"]
    return ML(torch_cpu).createContext(), ML(ref).createContext()


# --------------------------------------------------------------------------- probe / capabilities


@needs_torch
def test_probe_finds_the_cpu_and_every_op_is_lowered():
    devices = TorchBackend.probe()
    assert [d.id for d in devices if d.kind == "cpu"] == ["torch:cpu"]
    assert len({d.id for d in devices}) == len(devices)
    assert all(d.backend == "torch" and d.providers for d in devices)
    assert [name for name, op in load_all().items() if op.torch is None] == []


_PROBE = """
import sys
from webnn_bridge.backends.torch import TorchBackend
ids = [d.id for d in TorchBackend.probe()]
TorchBackend.instance().warm_up()  # what a host does before serving
print(ids, "torch" in sys.modules)
"""


@needs_torch
@pytest.mark.parametrize("mode", ["1", "gpu"])
def test_probe_imports_torch_only_where_a_gpu_may_be(mode):
    from webnn_bridge.backends.torch import gpu_plausible

    env = {**os.environ, "WEBNN_BRIDGE_TORCH": mode}
    r = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    ids, imported = r.stdout.strip().rsplit(" ", 1)
    assert "'torch:cpu'" in ids
    if mode == "gpu":
        assert imported == "True"
    elif not gpu_plausible():
        assert imported == "False", "a host without a GPU paid torch's import for its CPU device"


def test_disabled_torch_shrinks_the_inventory(monkeypatch):
    monkeypatch.setenv("WEBNN_BRIDGE_TORCH", "0")
    monkeypatch.setattr(TorchBackend, "_probed", None)
    assert TorchBackend.probe() == []
    assert not [d for d in ML().inventory if d.backend == "torch"]


@needs_torch
def test_cpu_context_gets_the_full_profile(contexts):
    ctx, _ = contexts
    assert ctx.exec_device.id == "torch:cpu"
    assert ctx.limits_profile == "cpu-full"


def test_mps_claims_no_64_bit_types_and_no_float64_lowerings():
    mps = Device(id="torch:mps", kind="gpu", backend="torch", providers=("mps",))
    caps = TorchBackend.instance().capabilities(mps)
    assert caps.ops and not set(FLOAT64_OPS) & set(caps.ops)
    for op, limits in caps.ops.items():
        for lim in limits.values():
            assert lim.same is not None or not {"int64", "uint64", "uint32"} & set(lim.types), op
    cuda = TorchBackend.instance().capabilities(Device(id="torch:cuda:0", kind="gpu", backend="torch",
                                                       providers=("cuda:0",)))
    assert set(cuda.ops) == set(load_all())


# --------------------------------------------------------------------------- exact integers

U64 = 2**64
CASES = {
    # name: (data type, a, b, build)
    "div-int64-traps": ("int64", [-(2**63), 7, -7, 5, -9], [-1, 0, 2, -2, 0], lambda b, x, y: b.div(x, y)),
    "div-int8-wraps": ("int8", [-128, 100, -3], [-1, 3, 0], lambda b, x, y: b.div(x, y)),
    "div-uint64": ("uint64", [U64 - 1, 2**63 + 5, 10, 2**63, 7], [3, 2**63 + 1, U64 - 1, 1, 0],
                   lambda b, x, y: b.div(x, y)),
    "pow-int32-wraps": ("int32", [3, -2, 7, 1, -1, 2], [25, 31, 13, -5, -3, -1], lambda b, x, y: b.pow(x, y)),
    "pow-uint64": ("uint64", [3, 2**32 + 1, 5], [45, 3, 2**63 + 1], lambda b, x, y: b.pow(x, y)),
    "mul-uint32-wraps": ("uint32", [70000, 2**32 - 1], [70000, 2], lambda b, x, y: b.mul(x, y)),
    "sub-uint64-wraps": ("uint64", [0, 2**63], [1, 2**63 + 1], lambda b, x, y: b.sub(x, y)),
    "max-uint64": ("uint64", [2**63, 1, U64 - 1], [2**63 - 1, 2**63 + 1, 0], lambda b, x, y: b.max(x, y)),
    "greater-uint64": ("uint64", [2**63, 1, U64 - 1], [2**63 - 1, 2**63 + 1, 0], lambda b, x, y: b.greater(x, y)),
    "cast-uint64-float32": ("uint64", [U64 - 1, 2**63 + 2**40 + 1, 2**53 + 1], None,
                            lambda b, x, y: b.cast(x, "float32")),
    "cast-int64-uint32": ("int64", [-1, 2**40 + 7, -(2**63)], None, lambda b, x, y: b.cast(x, "uint32")),
    "reduceSum-uint32-wraps": ("uint32", [2**32 - 1, 2**31, 5], None, lambda b, x, y: b.reduceSum(x)),
    "cumulativeSum-int32-wraps": ("int32", [2**31 - 1, 1, -5], None, lambda b, x, y: b.cumulativeSum(x, 0)),
    "argMin-uint64": ("uint64", [2**63, 5, U64 - 1], None, lambda b, x, y: b.argMin(x, 0)),
    "abs-int8": ("int8", [-128, -5, 127], None, lambda b, x, y: b.abs(x)),
    "clamp-uint64": ("uint64", [0, 2**63 + 9, U64 - 1], None,
                     lambda b, x, y: b.clamp(x, {"minValue": 3, "maxValue": 2**63 + 10})),
}


def _run(ctx, dt, a, bv, build):
    b = MLGraphBuilder(ctx)
    x = b.input("a", {"dataType": dt, "shape": [len(a)]})
    feeds = {"a": np.array(a, dtype=dt)}
    y = None
    if bv is not None:
        y = b.input("b", {"dataType": dt, "shape": [len(bv)]})
        feeds["b"] = np.array(bv, dtype=dt)
    graph = b.build({"out": build(b, x, y)})
    try:
        return ctx.compute(graph, feeds)["out"]
    finally:
        graph.destroy()


@needs_torch
@pytest.mark.parametrize("name", list(CASES))
def test_integer_edge_cases_match_the_reference(name, contexts):
    ctx, ref = contexts
    dt, a, bv, build = CASES[name]
    want, got = _run(ref, dt, a, bv, build), _run(ctx, dt, a, bv, build)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.array_equal(got, want), f"torch {got.tolist()} != reference {want.tolist()}"


@needs_torch
def test_int4_round_trips_unpacked(contexts):
    ctx, ref = contexts
    for c in (ctx, ref):
        b = MLGraphBuilder(c)
        x = b.input("x", {"dataType": "float32", "shape": [6]})
        s = b.constant({"dataType": "float32", "shape": [1]}, np.array([0.5], np.float32))
        z = b.constant({"dataType": "int4", "shape": [1]}, np.array([1], ml_dtypes.int4))
        q = b.quantizeLinear(x, s, z)
        g = b.build({"q": q, "dq": b.dequantizeLinear(q, s, z)})
        out = c.compute(g, {"x": np.array([-9, -4.2, 0, 1.3, 3.1, 40], np.float32)})
        g.destroy()
        if c is ctx:
            got = out
        else:
            want = out
    assert got["q"].dtype == want["q"].dtype and np.array_equal(got["q"], want["q"])
    assert np.array_equal(got["dq"], want["dq"])


# --------------------------------------------------------------------------- build / run


@needs_torch
def test_a_graph_the_lowering_refuses_fails_at_build(contexts):
    ctx, _ = contexts
    b = MLGraphBuilder(ctx)
    x = b.input("x", {"dataType": "float32", "shape": [1, 3, 2, 2]})
    w = b.constant({"dataType": "float32", "shape": [3, 1, 1, 1]}, np.ones((3, 1, 1, 1), np.float32))
    y = b.convTranspose2d(x, w, {"groups": 2})  # 3 input channels do not split into 2 groups
    with pytest.raises(OperationError, match="not divisible by groups"):
        b.build({"y": y})


def _add_one_graph(ctx):
    b = MLGraphBuilder(ctx)
    x = b.input("x", {"dataType": "float32", "shape": [2, 3]})
    one = b.constant({"dataType": "float32", "shape": []}, np.array(1, np.float32))
    return b.build({"y": b.mul(b.add(x, one), x)})


@needs_torch
def test_device_resident_runs_chain_without_the_host(contexts):
    ctx, _ = contexts
    graph = _add_one_graph(ctx)
    dev = ctx.exec_device
    c = TorchCompiled(graph.ir, dev)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = c.to_device({"x": x})["x"]
    for _ in range(2):  # the output tensor feeds the next run as it is
        t = c.run_device({"x": t})["y"]
    want = x
    for _ in range(2):
        want = (want + 1) * want
    assert type(t).__module__.startswith("torch")
    np.testing.assert_array_equal(t.cpu().numpy(), want)
    graph.destroy()


@pytest.mark.skipif(not _has_cuda(), reason="CUDA graphs need an NVIDIA (or ROCm) GPU")
def test_cuda_graph_replays_match_eager_runs():
    gpu = next(d for d in TorchBackend.probe() if d.kind == "gpu" and d.providers[0].startswith("cuda"))
    ctx = ML([gpu]).createContext()
    graph = _add_one_graph(ctx)
    c = TorchCompiled(graph.ir, gpu, cuda_graphs=True)
    rng = np.random.default_rng(0)
    for _ in range(4):
        x = rng.standard_normal((2, 3), dtype=np.float32)
        np.testing.assert_allclose(c.run({"x": x})["y"], (x + 1) * x, rtol=1e-6)
    assert c.cuda_graph is not None
    graph.destroy()


def test_cuda_graphs_are_on_unless_turned_off(monkeypatch, contexts):
    from webnn_bridge.backends.torch import cuda_graphs_default

    monkeypatch.delenv("WEBNN_BRIDGE_TORCH_CUDA_GRAPHS", raising=False)
    assert cuda_graphs_default()
    monkeypatch.setenv("WEBNN_BRIDGE_TORCH_CUDA_GRAPHS", "0")
    assert not cuda_graphs_default()
    monkeypatch.delenv("WEBNN_BRIDGE_TORCH_CUDA_GRAPHS")
    ctx, _ = contexts  # the CPU device never captures
    graph = _add_one_graph(ctx)
    assert not TorchCompiled(graph.ir, ctx.exec_device).use_cuda_graph
    graph.destroy()


@pytest.mark.skipif(not _has_cuda(), reason="CUDA graphs need an NVIDIA (or ROCm) GPU")
def test_default_compile_replays_and_keeps_earlier_outputs(monkeypatch):
    """By default a CUDA device's second run captures the graph and later runs replay it; outputs
    handed out before a replay are copies, not the graph's fixed buffers."""
    monkeypatch.delenv("WEBNN_BRIDGE_TORCH_CUDA_GRAPHS", raising=False)
    gpu = next(d for d in TorchBackend.probe() if d.kind == "gpu" and d.providers[0].startswith("cuda"))
    ctx = ML([gpu]).createContext()
    graph = _add_one_graph(ctx)
    c = TorchBackend().compile(graph.ir, gpu)
    xs = [np.full((2, 3), i, np.float32) for i in range(4)]
    kept = [c.run_resident({"x": x})["y"] for x in xs]
    assert c.cuda_graph is not None
    for x, y in zip(xs, kept):
        np.testing.assert_array_equal(y.numpy(), (x + 1) * x)
    np.testing.assert_array_equal(c.run({"x": xs[1]})["y"], (xs[1] + 1) * xs[1])
    graph.destroy()


@pytest.mark.skipif(not _has_cuda(), reason="CUDA graphs need an NVIDIA (or ROCm) GPU")
def test_threads_sharing_a_replayed_graph_get_their_own_outputs():
    """Pages with identical graphs share one compiled graph (the compile cache): runs from several
    threads at once each read their own results, never another run's replay of the fixed buffers."""
    import threading

    gpu = next(d for d in TorchBackend.probe() if d.kind == "gpu" and d.providers[0].startswith("cuda"))
    graph = _add_one_graph(ML([gpu]).createContext())
    c = TorchCompiled(graph.ir, gpu, cuda_graphs=True)
    bad = []

    def page(k):
        for i in range(200):
            x = np.full((2, 3), k * 1000 + i, np.float32)
            y = c.run({"x": x})["y"] if i % 2 else c.run_resident({"x": x})["y"].numpy()
            if not np.array_equal(y, (x + 1) * x):
                bad.append((k, i))

    threads = [threading.Thread(target=page, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert c.cuda_graph is not None and not bad, bad[:5]
    graph.destroy()


# --------------------------------------------------------------------------- policy


ACCELERATED = [{}, {"powerPreference": "high-performance"}, {"computePolicy": "high-performance"},
               {"accelerated": True}, {"deviceType": "gpu"}]


@pytest.mark.parametrize("options", ACCELERATED, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_policy_places_accelerated_contexts_on_the_torch_gpu(options):
    decision = engine.decide_context(options, load_profile("torch-cuda"))
    assert decision.device.id == "torch:cuda:0"


def test_policy_keeps_unaccelerated_contexts_on_the_cpu():
    decision = engine.decide_context({"accelerated": False}, load_profile("torch-cuda"))
    assert decision.device.kind == "cpu"


@pytest.mark.parametrize("options", ACCELERATED[1:3], ids=["high-performance", "computePolicy"])
def test_policy_places_contexts_on_a_real_torch_gpu_device(options):
    """Real (probed-style) devices, as on a lent GPU machine: the torch backend's own capabilities
    (derived from the registry, no hardware touched) make the GPU feasible and preferred."""
    gpu = Device(id="torch:cuda:0", kind="gpu", backend="torch", name="GPU via PyTorch cuda",
                 details={"api": "cuda", "power": "high-performance"}, providers=("cuda:0",))
    cpus = [Device(id="onnxruntime:CPUExecutionProvider", kind="cpu", backend="onnxruntime"),
            Device(id="torch:cpu", kind="cpu", backend="torch", providers=("cpu",))]
    decision = engine.decide_context(options, [*cpus, gpu])
    assert decision.device.id == "torch:cuda:0" and not is_simulated(decision.device)
    assert "conv2d" in capabilities_of(gpu).ops


# --------------------------------------------------------------------------- scripts/gpu-check.sh


def _has_gpu_device() -> bool:
    return any(d.kind == "gpu" for d in ML().inventory)


@pytest.mark.skipif(_has_gpu_device(), reason="this machine has a GPU: run scripts/gpu-check.sh itself (minutes)")
def test_gpu_check_says_no_gpu_and_exits_zero():
    env = {**os.environ, "PYTHON": sys.executable}
    r = subprocess.run(["bash", str(REPO / "scripts" / "gpu-check.sh")], capture_output=True, text=True, env=env,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    assert "RESULT: no GPU" in r.stdout


# The GPU path of the check, dry-run on the torch CPU device with small graphs, from the checkout in
# place (no webnn_bridge install used) and without websockets, as on a lent GPU machine.
_DRY_RUN = """
import runpy, sys
for name in ("websockets", "pytest", "PIL"):  # importing them fails: the check must not need them
    sys.modules[name] = None
sys.argv = ["gpu_check.py", "--devices", "torch:cpu", "--skip-conformance", "--iters", "2", "--layers", "1",
            "--seq", "16", "--dim", "32", "--json", sys.argv[1]]
runpy.run_path("scripts/gpu_check.py", run_name="__main__")
"""


@needs_torch
def test_gpu_check_dry_run_in_place(tmp_path):
    out = tmp_path / "check.json"
    r = subprocess.run([sys.executable, "-c", _DRY_RUN, str(out)], cwd=REPO, capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    result = json.loads(out.read_text())
    for key in ("mobilenetv2", "transformer"):
        rows = {row["device"]: row for row in result[key]}
        assert set(rows) >= {"onnxruntime:CPUExecutionProvider", "torch:cpu"}, rows
        assert rows["torch:cpu"]["checked"] and rows["torch:cpu"]["resident_ms"] > 0
        assert rows["torch:cpu"]["eager_ms"] > 0
        assert rows["torch:cpu"]["max_abs_diff"] < 1e-4, rows["torch:cpu"]
    # where the policy puts contexts on this inventory, and a graph run through one of them
    place = result["placement"]
    assert place["contexts"]['{"accelerated": false}'] in result["devices"]
    assert place["graph"]["max_abs_diff"] < 1e-4 and place["graph"]["device"] in result["devices"], place
    assert "RESULT: 1 GPU device(s) checked" in r.stdout
    # the steps that start hosts say why they did not run, and the check goes on
    assert result["transfer"] == {"error": "websockets is not installed"}
    assert result["tune"] == {"error": "websockets is not installed"}


@needs_torch
def test_dispatch_keeps_tensors_in_device_memory(contexts):
    """write -> device, dispatch -> device, read -> host: a tensor a dispatch wrote feeds the next
    dispatch as the device value it is, and becomes a host array only when read."""
    from webnn_bridge.backends.torch import TorchValue

    ctx, _ = contexts
    graph = _add_one_graph(ctx)
    desc = {"dataType": "float32", "shape": [2, 3]}
    x = ctx.createTensor({**desc, "writable": True})
    y = ctx.createTensor({**desc, "readable": True, "writable": True})
    z = ctx.createTensor({**desc, "readable": True})
    data = np.arange(6, dtype=np.float32).reshape(2, 3)
    ctx.writeTensor(x, data)
    ctx.dispatch(graph, {"x": x}, {"y": y})
    assert isinstance(y.current(), TorchValue) and y._host is None
    uploaded = x.current()
    assert isinstance(uploaded, TorchValue)  # the written tensor keeps its upload for the next dispatch
    ctx.dispatch(graph, {"x": x}, {"y": y})
    assert x.current() is uploaded
    ctx.dispatch(graph, {"x": y}, {"y": z})
    assert y._host is None, "the intermediate tensor went through the host"
    want = (data + 1) * data
    np.testing.assert_array_equal(ctx.readTensor(z), (want + 1) * want)
    ctx.writeTensor(y, data)  # a write replaces the device value
    assert not isinstance(y.current(), TorchValue)
    np.testing.assert_array_equal(ctx.readTensor(y), data)
    for t in (x, y, z):
        t.destroy()
    assert z.current() is None
    graph.destroy()


@pytest.mark.skipif(not enabled(), reason="PyTorch is not installed")
def test_host_copy_is_one_copy_of_its_own_with_the_tensors_type_and_shape():
    import torch

    from webnn_bridge.backends.torch import host_copy

    for dtype in (torch.float32, torch.float16, torch.int64, torch.int8, torch.uint8, torch.bool):
        t = (torch.arange(24) % 3).to(dtype).reshape(2, 3, 4)
        a = host_copy(t.transpose(0, 2))  # strided: copied in order
        assert a.shape == (4, 3, 2) and a.dtype == t.numpy().dtype
        assert np.array_equal(a, t.numpy().transpose(2, 1, 0))
        assert not np.shares_memory(a, t.numpy()) and a.flags.c_contiguous and a.flags.writeable
    assert host_copy(torch.tensor(2.5)).shape == ()
