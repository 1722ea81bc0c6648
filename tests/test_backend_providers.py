"""ONNX Runtime execution providers: real provider options per device, devices per EP from
ORT's device list, and truthful reporting when an EP silently falls back to the CPU."""

from __future__ import annotations

import numpy as np
import pytest

from webnn_bridge.backends.base import Compiled, Device
from webnn_bridge.backends.cache import engine_cache_dir
from webnn_bridge.backends.onnx_lowering import make_node
from webnn_bridge.backends.onnxruntime import (
    OnnxRuntimeBackend,
    OrtCompiled,
    ep_device_slots,
    provider_options,
)
from webnn_bridge.backends.partition import PartitionedCompiled, Segment, fallback_after_compile
from webnn_bridge.bridge.api import ML, MLGraphBuilder
from webnn_bridge.bridge.wire import placement_report
from webnn_bridge.ops.graph import GraphIR
from webnn_bridge.policy.inventory import probe_inventory

ORT_CPU = next(d for d in probe_inventory() if d.id == "onnxruntime:CPUExecutionProvider")


def test_provider_options():
    assert provider_options("CUDAExecutionProvider", 1) == {"device_id": "1"}
    assert provider_options("DmlExecutionProvider", 0) == {"device_id": "0"}
    trt = provider_options("TensorrtExecutionProvider", 0)
    assert trt["device_id"] == "0" and trt["trt_fp16_enable"] == "False"
    assert trt["trt_engine_cache_enable"] == "True" and trt["trt_engine_cache_path"] == str(engine_cache_dir())
    assert provider_options("OpenVINOExecutionProvider", 0, "npu") == {"device_type": "NPU"}
    assert provider_options("QNNExecutionProvider", system="Windows") == {"backend_path": "QnnHtp.dll"}
    assert provider_options("QNNExecutionProvider", system="Linux") == {"backend_path": "libQnnHtp.so"}
    assert provider_options("CoreMLExecutionProvider", 0, "npu")["MLComputeUnits"] == "CPUAndNeuralEngine"
    assert provider_options("CoreMLExecutionProvider", 0, "gpu")["MLComputeUnits"] == "CPUAndGPU"
    assert provider_options("CPUExecutionProvider") == {}


@pytest.mark.parametrize("attrs", [
    {}, {"axis": 1, "keepdims": 0}, {"alpha": 0.2, "beta": 1.0}, {"mode": "linear", "dirs": ["forward", "reverse"]},
    {"pads": [0, 1, 1, 0], "strides": (2, 2)}, {"scales": [1.0, 2.0]}, {"flag": True, "n": np.int64(3)},
    {"x": None, "big": 2**40, "neg": [-1, 2**33]}, {"empty": []},
])
def test_nodes_are_made_as_onnx_s_helper_makes_them(attrs):
    from onnx import helper

    try:
        expected = helper.make_node("Op", ["a", "b"], ["y"], **attrs).SerializeToString()
    except ValueError as e:  # what the helper refuses (an empty list: no type) is refused alike
        with pytest.raises(type(e)):
            make_node("Op", ["a", "b"], ["y"], attrs)
        return
    assert make_node("Op", ["a", "b"], ["y"], attrs).SerializeToString() == expected


def test_device_slots_from_ort_device_list():
    two_gpus = [("CUDAExecutionProvider", "GPU"), ("CUDAExecutionProvider", "GPU"), ("CPUExecutionProvider", "CPU")]
    assert ep_device_slots("CUDAExecutionProvider", "gpu", two_gpus) == [("gpu", 0), ("gpu", 1)]
    ov = [("OpenVINOExecutionProvider", t) for t in ("CPU", "GPU", "NPU")]
    assert ep_device_slots("OpenVINOExecutionProvider", "cpu", ov) == [("cpu", 0), ("gpu", 0), ("npu", 0)]
    assert ep_device_slots("CUDAExecutionProvider", "gpu", []) == [("gpu", 0)]  # no list: one device
    assert ep_device_slots("CoreMLExecutionProvider", "gpu", []) == [("gpu", 0), ("npu", 0)]


def test_devices_of_an_ep():
    devs = OnnxRuntimeBackend._devices_of(
        "CUDAExecutionProvider", ["CUDAExecutionProvider", "CPUExecutionProvider"],
        [("CUDAExecutionProvider", "GPU"), ("CUDAExecutionProvider", "GPU")])
    assert [d.id for d in devs] == ["onnxruntime:CUDAExecutionProvider", "onnxruntime:CUDAExecutionProvider:gpu1"]
    assert [dict(d.options) for d in devs] == [{"device_id": "0"}, {"device_id": "1"}]
    assert all(d.providers == ("CUDAExecutionProvider", "CPUExecutionProvider") for d in devs)


def _graph(ctx):
    b = MLGraphBuilder(ctx)
    x = b.input("x", {"dataType": "float32", "shape": [2, 3]})
    return b.build({"y": b.tanh(b.mul(x, x))})


@pytest.mark.skipif("CUDAExecutionProvider" in __import__("onnxruntime").get_available_providers(),
                    reason="CUDA EP is available here: it would not fall back")
@pytest.mark.filterwarnings("ignore:Specified provider")
def test_ep_that_cannot_start_is_reported_as_cpu_fallback():
    """A CUDA device whose EP is not usable on this machine: ORT runs the graph on its CPU
    provider; the compiled graph and the page's report say so (cpuFallback 'full')."""
    cuda = Device(id="onnxruntime:CUDAExecutionProvider", kind="gpu", backend="onnxruntime",
                  providers=("CUDAExecutionProvider", "CPUExecutionProvider"), options={"device_id": "0"})
    ml = ML([cuda, ORT_CPU])
    ctx = ml.createContext()
    assert ctx.device.id == cuda.id
    graph = _graph(ctx)
    assert isinstance(graph.compiled.compiled, OrtCompiled) and graph.compiled.fell_back  # (via the compile cache)
    assert graph.placement.fallback == "full"
    assert placement_report(graph)["effective"]["cpuFallback"] == "full"
    x = np.arange(6, dtype=np.float32).reshape(2, 3) / 6
    np.testing.assert_allclose(ctx.compute(graph, {"x": x})["y"], np.tanh(x * x), rtol=1e-6)


def test_cpu_provider_never_falls_back():
    ml = ML([ORT_CPU])
    assert not _graph(ml.createContext()).compiled.fell_back


class _Fake(Compiled):
    def __init__(self, fell_back):
        self.fell_back = fell_back


def test_fallback_after_compile():
    gpu = Device(id="g", kind="gpu", backend="x")
    npu = Device(id="n", kind="npu", backend="x")
    cpu = Device(id="c", kind="cpu", backend="x")
    devices = {d.id: d for d in (gpu, npu, cpu)}

    def parts(*specs):
        return PartitionedCompiled(GraphIR(), [(Segment(d, GraphIR()), _Fake(f)) for d, f in specs])

    assert fallback_after_compile(_Fake(False), devices, "none") == "none"
    assert fallback_after_compile(_Fake(True), devices, "none") == "full"
    assert fallback_after_compile(parts(("g", False), ("c", False)), devices, "partial") == "partial"
    assert fallback_after_compile(parts(("g", True), ("c", False)), devices, "partial") == "full"
    assert fallback_after_compile(parts(("g", True), ("n", False), ("c", False)), devices, "partial") == "partial"


@pytest.mark.skipif("CUDAExecutionProvider" in __import__("onnxruntime").get_available_providers(),
                    reason="CUDA EP is available here: it would not fall back")
@pytest.mark.filterwarnings("ignore:Specified provider")
def test_accelerator_partition_whose_ep_cannot_start():
    """Policy splits the graph between a (CUDA) accelerator without softmax and the CPU; the
    segments really run on their own ORT sessions, and as the CUDA EP cannot start here, the
    accelerator's segments run on ORT's CPU: the report turns from "partial" to "full"."""
    from webnn_bridge.policy.inventory import bind, parse_profile

    cuda = Device(id="onnxruntime:CUDAExecutionProvider", kind="gpu", backend="onnxruntime",
                  providers=("CUDAExecutionProvider", "CPUExecutionProvider"), options={"device_id": "0"})
    declared = parse_profile({"devices": [{"id": "gpu", "kind": "gpu", "capabilities": {"excludeOps": ["softmax"]}},
                                          {"id": "cpu", "kind": "cpu"}]})
    real = [cuda, ORT_CPU]
    ml = ML([bind(declared[0], real, cuda.id, "gpu"), bind(declared[1], real, ORT_CPU.id, "cpu")])
    ctx = ml.createContext()
    b = MLGraphBuilder(ctx)
    x = b.input("x", {"dataType": "float32", "shape": [2, 3]})
    graph = b.build({"y": b.tanh(b.softmax(b.relu(b.mul(x, x)), 1))})
    p = graph.placement
    assert [(d, len(n)) for d, n in p.partitions()] == [("gpu", 2), ("cpu", 1), ("gpu", 1)]
    assert isinstance(graph.compiled, PartitionedCompiled)
    assert [c.fell_back for _, c in graph.compiled.parts] == [True, False, True]
    assert p.fallback == "full" and any("could not use the accelerator" in r for r in p.reasons)
    assert placement_report(graph)["effective"] == {"accelerated": False, "cpuFallback": "full", "simulated": False}
    xv = np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)
    e = np.exp(np.maximum(xv * xv, 0))
    np.testing.assert_allclose(ctx.compute(graph, {"x": xv})["y"], np.tanh(e / e.sum(1, keepdims=True)), rtol=1e-6)
