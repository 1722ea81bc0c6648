"""TensorRT backend (NVIDIA GPUs): engines built from our ONNX lowering by TensorRT's ONNX parser.

- Needs the ``tensorrt`` (10 or newer) and ``cuda-python`` packages and a CUDA GPU; without them
  probe() returns no device (importing this module never needs them).
- Networks are *strongly typed*: TensorRT keeps every ONNX tensor type, so float32 operands are
  never computed in float16 (fp16 only where the graph itself has float16 operands, as the spec
  allows); no FP16/INT8 builder flag is set.
- Engines are cached on disk (``engine_cache_dir()``), keyed by the ONNX model bytes, the
  TensorRT version and the GPU (name + compute capability): an engine is only reused by the same
  TensorRT on the same kind of GPU.
- Capabilities: the data types TensorRT's ONNX parser handles (no uint32/uint64) and the ops
  whose lowering avoids ONNX operators the parser rejects (checked at compile time with
  ``OnnxParser.supports_operator`` as well).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path

import numpy as np

from webnn_bridge.ops.core import OperationError
from webnn_bridge.ops.graph import GraphIR

from .base import Backend, Capabilities, Compiled, Device, contiguous
from .cache import engine_cache_dir
from .onnx_lowering import lower_graph
from .onnxruntime import supported_ir_version

# data types TensorRT's ONNX parser imports (uint32/uint64 have no TensorRT type)
TRT_TYPES = ("float32", "float16", "int32", "int64", "int8", "uint8")


def engine_key(model_bytes: bytes, trt_version: str, gpu: str) -> str:
    """The cache key of one engine: graph (its ONNX bytes), TensorRT version, GPU."""
    h = hashlib.sha256()
    for part in (model_bytes, trt_version.encode(), gpu.encode()):
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    return h.hexdigest()


def cached_engine(key: str, build, cache: Path | None = None) -> bytes:
    """The serialized engine for ``key``: read from the cache, or ``build()`` and stored (written
    to a temporary name first, so a crash never leaves half an engine under the key)."""
    cache = cache or engine_cache_dir()
    path = cache / f"{key}.engine"
    if path.exists():
        return path.read_bytes()
    data = bytes(build())
    cache.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    tmp.write_bytes(data)
    tmp.replace(path)
    return data


# ONNX operator types each WebNN op's lowering emits (generated from the capability sweep by
# `webnn-bridge codegen`, devtools/codegen/backend_tables.py; `codegen --check` and a test check it is current)
ONNX_OPS_TABLE = Path(__file__).with_name("onnx_op_types.json")


@functools.cache
def lowered_op_types() -> dict[str, list[str]]:
    return json.loads(ONNX_OPS_TABLE.read_text())["ops"]


def trt_capabilities(supports_operator: Callable[[str], bool] | None = None) -> Capabilities:
    """TensorRT's data types; with ``supports_operator`` (the ONNX parser's), only the ops whose
    lowering uses ONNX operators the parser accepts."""
    from .capabilities import capabilities_from_spec

    spec: dict = {"dataTypes": list(TRT_TYPES)}
    if supports_operator is not None:
        spec["ops"] = [op for op, types in sorted(lowered_op_types().items())
                       if all(supports_operator(t) for t in types)]
    return capabilities_from_spec(spec)


@functools.cache
def _parser_support() -> Callable[[str], bool]:
    trt = _trt()
    logger = trt.Logger(trt.Logger.ERROR)
    builder = trt.Builder(logger)
    network = builder.create_network(1 << int(trt.NetworkDefinitionCreationFlag.STRONGLY_TYPED))
    parser = trt.OnnxParser(network, logger)
    keep = (builder, network, parser)  # the parser needs its network and builder alive
    return lambda op_type: bool(keep[2].supports_operator(op_type))


def onnx_op_types(model) -> list[str]:
    return sorted({n.op_type for n in model.graph.node})


def _trt():
    import tensorrt

    return tensorrt


def _cudart():
    from cuda.bindings import runtime

    return runtime


def _check(result):
    err, *rest = result if isinstance(result, tuple) else (result,)
    if int(err) != 0:
        raise RuntimeError(f"CUDA error {int(err)}")
    return rest[0] if len(rest) == 1 else rest


@functools.cache
def _gpu(index: int) -> str:
    """'<name> sm<major><minor>' of one CUDA device (the engine cache's device key)."""
    props = _check(_cudart().cudaGetDeviceProperties(index))
    name = props.name.decode() if isinstance(props.name, bytes) else str(props.name)
    return f"{name.strip(chr(0))} sm{props.major}{props.minor}"


class TensorRtCompiled(Compiled):
    def __init__(self, graph: GraphIR, index: int):
        trt = _trt()
        # (no pattern fusion: HardSwish in TensorRT's ONNX parser is not checked here)
        model, self.in_map, self.out_map = lower_graph(graph, supported_ir_version(), fuse=False)
        self.logger = trt.Logger(trt.Logger.ERROR)
        model_bytes = model.SerializeToString()
        key = engine_key(model_bytes, trt.__version__, _gpu(index))
        try:
            _check(_cudart().cudaSetDevice(index))
            data = cached_engine(key, lambda: self._build(model, model_bytes))
            self.engine = trt.Runtime(self.logger).deserialize_cuda_engine(data)
            self.context = self.engine.create_execution_context()
        except OperationError:
            raise
        except Exception as e:
            raise OperationError(f"TensorRT could not compile the graph: {type(e).__name__}") from e
        self.outputs = {name: graph.operands[oid] for name, oid in graph.outputs.items()}
        self.index = index

    def _build(self, model, model_bytes: bytes):
        trt = _trt()
        builder = trt.Builder(self.logger)
        network = builder.create_network(1 << int(trt.NetworkDefinitionCreationFlag.STRONGLY_TYPED))
        parser = trt.OnnxParser(network, self.logger)
        missing = [t for t in onnx_op_types(model) if not parser.supports_operator(t)]
        if missing:
            raise OperationError(f"TensorRT's ONNX parser does not support {', '.join(missing)}")
        if not parser.parse(model_bytes):
            raise OperationError("TensorRT's ONNX parser rejected the graph")
        engine = builder.build_serialized_network(network, builder.create_builder_config())
        if engine is None:
            raise OperationError("TensorRT could not build an engine for the graph")
        return engine

    def run(self, inputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        cudart = _cudart()
        buffers, results = [], {}
        try:
            for name, arr in inputs.items():
                a = contiguous(arr)
                ptr = _check(cudart.cudaMalloc(max(a.nbytes, 1)))
                buffers.append(ptr)
                _check(cudart.cudaMemcpy(ptr, a.ctypes.data, a.nbytes, cudart.cudaMemcpyKind.cudaMemcpyHostToDevice))
                self.context.set_tensor_address(self.in_map[name], int(ptr))
            host = {}
            for name, desc in self.outputs.items():
                host[name] = np.empty(desc.shape, desc.numpy_dtype)
                ptr = _check(cudart.cudaMalloc(max(host[name].nbytes, 1)))
                buffers.append(ptr)
                self.context.set_tensor_address(self.out_map[name], int(ptr))
                results[name] = ptr
            if not self.context.execute_async_v3(0):
                raise OperationError("TensorRT failed to run the graph")
            _check(cudart.cudaDeviceSynchronize())
            for name, ptr in results.items():
                h = host[name]
                _check(cudart.cudaMemcpy(h.ctypes.data, ptr, h.nbytes, cudart.cudaMemcpyKind.cudaMemcpyDeviceToHost))
            return host
        finally:
            for ptr in buffers:
                cudart.cudaFree(ptr)

    def close(self) -> None:
        self.context = None
        self.engine = None


class TensorRtBackend(Backend):
    name = "tensorrt"

    @classmethod
    def probe(cls) -> list[Device]:
        try:
            trt = _trt()
            count = _check(_cudart().cudaGetDeviceCount())
        except Exception:  # no tensorrt / cuda-python / driver / GPU
            return []
        return [
            Device(id=f"tensorrt:{i}", kind="gpu", backend=cls.name, name=f"{_gpu(i)} via TensorRT",
                   details={"tensorrt": trt.__version__, "gpu": _gpu(i)}, providers=(str(i),))
            for i in range(int(count))
        ]

    def capabilities(self, device: Device) -> Capabilities:
        try:
            return trt_capabilities(_parser_support())
        except Exception:  # no TensorRT here: the declared data types only
            return trt_capabilities()

    def compile(self, graph: GraphIR, device: Device) -> Compiled:
        return TensorRtCompiled(graph, int(device.providers[0]) if device.providers else 0)
