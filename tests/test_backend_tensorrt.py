"""TensorRT backend: the parts that need no GPU (engine cache keying and reuse, capabilities,
importability) run everywhere; building and running an engine needs tensorrt + cuda-python + an
NVIDIA GPU and is skipped with a reason elsewhere."""

from __future__ import annotations

import numpy as np
import pytest

from webnn_bridge.backends import tensorrt as trt_backend
from webnn_bridge.backends.cache import engine_cache_dir
from webnn_bridge.backends.tensorrt import (
    ONNX_OPS_TABLE,
    TRT_TYPES,
    TensorRtBackend,
    cached_engine,
    engine_key,
    lowered_op_types,
    onnx_op_types,
    trt_capabilities,
)


def test_engine_key_covers_graph_version_and_gpu():
    base = engine_key(b"model", "10.3.0", "NVIDIA H100 sm90")
    assert base == engine_key(b"model", "10.3.0", "NVIDIA H100 sm90")
    others = {engine_key(b"model2", "10.3.0", "NVIDIA H100 sm90"), engine_key(b"model", "10.4.0", "NVIDIA H100 sm90"),
              engine_key(b"model", "10.3.0", "NVIDIA L4 sm89"), engine_key(b"mode", "l10.3.0", "NVIDIA H100 sm90")}
    assert base not in others and len(others) == 4  # length-prefixed parts: no ambiguous concatenation


def test_engine_cache_builds_once(tmp_path):
    calls = []

    def build():
        calls.append(1)
        return b"engine-bytes"

    assert cached_engine("k1", build, tmp_path) == b"engine-bytes"
    assert cached_engine("k1", build, tmp_path) == b"engine-bytes"
    assert len(calls) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["k1.engine"]  # no temporary file left
    cached_engine("k2", build, tmp_path)
    assert len(calls) == 2


def test_engine_cache_dir_follows_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("WEBNN_BRIDGE_CACHE", str(tmp_path))
    assert engine_cache_dir() == tmp_path / "tensorrt"


def test_capabilities_have_no_unsigned_32_64():
    caps = TensorRtBackend.instance().capabilities(None)
    assert set(caps.ops["add"]["a"].types) == set(TRT_TYPES)
    assert "uint32" not in caps.ops["cast"]["output"].types and "uint64" not in caps.ops["cast"]["input"].types
    assert "float16" in caps.ops["conv2d"]["input"].types


def test_onnx_op_types_of_a_lowering():
    from webnn_bridge.backends.onnx_lowering import lower_graph
    from webnn_bridge.backends.onnxruntime import supported_ir_version
    from webnn_bridge.bridge.api import ML, MLGraphBuilder

    ctx = ML().createContext()
    b = MLGraphBuilder(ctx)
    x = b.input("x", {"dataType": "float32", "shape": [2, 3]})
    model, _, _ = lower_graph(b.build({"y": b.relu(b.add(x, x))}).ir, supported_ir_version())
    assert {"Add", "Relu"} <= set(onnx_op_types(model))


GPUS = TensorRtBackend.probe()


def test_probe_is_empty_without_runtime_or_gpu():
    try:
        trt_backend._trt()
        trt_backend._check(trt_backend._cudart().cudaGetDeviceCount())
    except Exception:
        assert GPUS == []
    else:
        pytest.skip("tensorrt, cuda-python and a GPU are present: probing finds devices")


@pytest.mark.skipif(not GPUS, reason="needs tensorrt, cuda-python and an NVIDIA GPU")
def test_engine_runs_and_is_cached(monkeypatch, tmp_path):
    from webnn_bridge.bridge.api import ML, MLGraphBuilder

    monkeypatch.setenv("WEBNN_BRIDGE_CACHE", str(tmp_path))
    ml = ML(GPUS[:1])
    ctx = ml.createContext()
    b = MLGraphBuilder(ctx)
    x = b.input("x", {"dataType": "float32", "shape": [2, 3]})
    g = b.build({"y": b.tanh(b.mul(x, x))})
    data = np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_allclose(ctx.compute(g, {"x": data})["y"], np.tanh(data * data), rtol=1e-6, atol=1e-7)
    assert len(list((tmp_path / "tensorrt").glob("*.engine"))) == 1


def test_lowered_op_types_table_is_current():
    # the generator (`webnn-bridge codegen`) measures over every capability-sweep case
    from webnn_bridge.devtools.codegen.backend_tables import measure_lowered_op_types

    assert measure_lowered_op_types()["ops"] == lowered_op_types(), \
        f"{ONNX_OPS_TABLE.name} is stale: run `webnn-bridge codegen`"


def test_capabilities_follow_the_parser():
    no_gather = trt_capabilities(lambda t: t != "Gather")
    assert "gather" not in no_gather.ops and "relu" in no_gather.ops
    assert set(trt_capabilities(lambda t: True).ops) == set(lowered_op_types())

