"""ONNX Runtime backend: the graph is lowered to an in-memory ONNX model (each op's ``lower``
from the registry) and compiled into one InferenceSession per built graph, reused by every
dispatch. Execution providers found at probe time become devices (CPU, CUDA, TensorRT, ...)."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping

import numpy as np

from ops.core import DATA_TYPES, OperationError
from ops.graph import GraphIR, is_ref
from ops.registry import load_all

from .base import Backend, Compiled, Device

OPSET = 21

# execution provider -> (device kind, description); order is preference within a kind
KNOWN_PROVIDERS = {
    "TensorrtExecutionProvider": ("gpu", "NVIDIA GPU via TensorRT EP"),
    "CUDAExecutionProvider": ("gpu", "NVIDIA GPU via CUDA EP"),
    "DmlExecutionProvider": ("gpu", "DirectML GPU"),
    "ROCMExecutionProvider": ("gpu", "AMD GPU via ROCm EP"),
    "MIGraphXExecutionProvider": ("gpu", "AMD GPU via MIGraphX EP"),
    "CoreMLExecutionProvider": ("gpu", "Apple GPU/ANE via Core ML EP"),
    "OpenVINOExecutionProvider": ("cpu", "Intel device via OpenVINO EP"),
    "QNNExecutionProvider": ("npu", "Qualcomm NPU via QNN EP"),
    "VitisAIExecutionProvider": ("npu", "AMD NPU via Vitis AI EP"),
    "CPUExecutionProvider": ("cpu", "CPU via ONNX Runtime"),
}


def _ort():
    import onnxruntime

    return onnxruntime


@functools.lru_cache(maxsize=1)
def supported_ir_version() -> int:
    """The newest ONNX IR version the installed onnxruntime loads (the newest onnx may write a
    newer one than onnxruntime accepts)."""
    import onnx
    from onnx import TensorProto, helper

    ort = _ort()
    for ir in range(onnx.IR_VERSION, 6, -1):
        g = helper.make_graph(
            [helper.make_node("Identity", ["x"], ["y"])],
            "probe",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])],
        )
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", OPSET)])
        m.ir_version = ir
        try:
            ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
            return ir
        except Exception:
            continue
    raise RuntimeError("onnxruntime loads no ONNX IR version this onnx can write")


class OnnxLowering:
    """What an op's ``lower`` function uses to emit ONNX nodes. Values are named strings."""

    def __init__(self):
        self.nodes: list = []
        self.initializers: list = []
        self.dtypes: dict[str, str] = {}
        self.shapes: dict[str, tuple[int, ...]] = {}
        self._n = 0

    def fresh(self, hint: str = "v") -> str:
        self._n += 1
        return f"{re.sub(r'[^A-Za-z0-9_]', '_', hint)}_{self._n}"

    def dtype(self, value: str) -> str:
        return self.dtypes[value]

    def shape(self, value: str) -> tuple[int, ...] | None:
        return self.shapes.get(value)

    def node(self, op_type: str, inputs: list[str], n_out: int = 1, dtype: str | None = None, **attrs):
        from onnx import helper

        outs = [self.fresh(op_type) for _ in range(n_out)]
        self.nodes.append(helper.make_node(op_type, list(inputs), outs, **attrs))
        known = dtype or next((self.dtypes[i] for i in inputs if i in self.dtypes), None)
        for o in outs:
            if known:
                self.dtypes[o] = known
        return outs[0] if n_out == 1 else outs

    def const(self, array: np.ndarray, hint: str = "const") -> str:
        from onnx import numpy_helper

        name = self.fresh(hint)
        array = np.ascontiguousarray(array).reshape(np.shape(array))  # ascontiguousarray makes 0-D arrays 1-D
        self.initializers.append(numpy_helper.from_array(ort_storage(array), name))
        for dname, d in DATA_TYPES.items():
            if d.numpy == array.dtype:
                self.dtypes[name] = dname
        self.shapes[name] = tuple(array.shape)
        return name

    def scalar(self, value, dtype: str) -> str:
        return self.const(np.array(value, dtype=DATA_TYPES[dtype].numpy), "scalar")

    def ints(self, values) -> str:
        return self.const(np.array(list(values), dtype=np.int64), "ints")

    def cast(self, value: str, dtype: str) -> str:
        if self.dtypes.get(value) == dtype:
            return value
        return self.node("Cast", [value], dtype=dtype, to=DATA_TYPES[dtype].onnx)


def ort_storage(array: np.ndarray) -> np.ndarray:
    """int4 / uint4 arrays as the int8 / uint8 tensors that hold them on ONNX Runtime (values are
    kept in range by the lowerings that produce them: cast, quantizeLinear)."""
    if array.dtype == DATA_TYPES["int4"].numpy:
        return array.astype(np.int8)
    if array.dtype == DATA_TYPES["uint4"].numpy:
        return array.astype(np.uint8)
    return array


def lower_graph(graph: GraphIR):
    """GraphIR -> (onnx.ModelProto, input name map, output name map)."""
    from onnx import helper

    registry = load_all()
    lb = OnnxLowering()
    names: dict[int, str] = {}
    in_map: dict[str, str] = {}
    graph_inputs = []
    for i, (name, oid) in enumerate(graph.inputs.items()):
        desc = graph.operands[oid]
        vname = f"input_{i}"
        names[oid] = vname
        in_map[name] = vname
        lb.dtypes[vname], lb.shapes[vname] = desc.data_type, desc.shape
        graph_inputs.append(helper.make_tensor_value_info(vname, DATA_TYPES[desc.data_type].onnx, list(desc.shape)))
    for oid, arr in graph.constants.items():
        names[oid] = lb.const(arr, f"c{oid}")
    for node in graph.nodes:
        op = registry[node.op]
        call = node.call.map_operands(lambda r: names[r.id], is_ref)
        outs = op.lower(lb, call)
        for oid, vname in zip(node.outputs, outs):
            desc = graph.operands[oid]
            # make the declared WebNN type hold even when a lowering computed in another type
            vname = lb.cast(vname, desc.data_type) if lb.dtypes.get(vname) not in (None, desc.data_type) else vname
            lb.dtypes[vname], lb.shapes[vname] = desc.data_type, desc.shape
            names[oid] = vname
    out_map: dict[str, str] = {}
    graph_outputs = []
    for i, (name, oid) in enumerate(graph.outputs.items()):
        desc = graph.operands[oid]
        vname = f"output_{i}"
        lb.nodes.append(helper.make_node("Identity", [names[oid]], [vname]))
        out_map[name] = vname
        graph_outputs.append(helper.make_tensor_value_info(vname, DATA_TYPES[desc.data_type].onnx, list(desc.shape)))
    g = helper.make_graph(lb.nodes, "webnn", graph_inputs, graph_outputs, initializer=lb.initializers)
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="webnn-bridge")
    model.ir_version = supported_ir_version()
    return model, in_map, out_map


class OrtCompiled(Compiled):
    def __init__(self, graph: GraphIR, providers: tuple[str, ...]):
        ort = _ort()
        model, self.in_map, self.out_map = lower_graph(graph)
        opts = ort.SessionOptions()
        opts.log_severity_level = 3
        try:
            self.session = ort.InferenceSession(model.SerializeToString(), opts, providers=list(providers))
        except Exception as e:  # ORT rejects the model: a compile failure per spec
            raise OperationError(f"ONNX Runtime could not compile the graph: {e}") from e
        self.output_names = list(self.out_map.values())
        self.webnn_outputs = list(self.out_map.keys())
        # int4 / uint4 outputs come back as int8 / uint8
        packed = {DATA_TYPES[t].numpy for t in ("int4", "uint4")}
        self.output_types = [d if d in packed else None for d in
                             (graph.output_descs()[n].numpy_dtype for n in self.webnn_outputs)]

    def run(self, inputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        feed = {self.in_map[k]: ort_storage(np.asarray(v)) for k, v in inputs.items()}
        results = self.session.run(self.output_names, feed)
        return {n: r if t is None else r.astype(t) for n, r, t in zip(self.webnn_outputs, results, self.output_types)}

    def close(self) -> None:
        self.session = None


class OnnxRuntimeBackend(Backend):
    name = "onnxruntime"

    @classmethod
    def probe(cls) -> list[Device]:
        try:
            ort = _ort()
            import onnx  # noqa: F401  (needed for lowering)
        except Exception:
            return []
        devices = []
        available = ort.get_available_providers()
        for ep in available:
            if ep not in KNOWN_PROVIDERS:
                continue
            kind, desc = KNOWN_PROVIDERS[ep]
            providers = (ep,) if ep == "CPUExecutionProvider" else (ep, "CPUExecutionProvider")
            if ep == "TensorrtExecutionProvider" and "CUDAExecutionProvider" in available:
                providers = (ep, "CUDAExecutionProvider", "CPUExecutionProvider")
            devices.append(
                Device(
                    id=f"onnxruntime:{ep}",
                    kind=kind,
                    backend=cls.name,
                    name=desc,
                    details={"onnxruntime": ort.__version__, "provider": ep},
                    providers=providers,
                )
            )
        return devices

    def implements(self, op: str) -> bool:
        from ops.registry import _no_lowering

        return load_all()[op].lower is not _no_lowering

    def compile(self, graph: GraphIR, device: Device) -> Compiled:
        return OrtCompiled(graph, device.providers or ("CPUExecutionProvider",))
