"""OpenVINO backend: a second real runtime. The graph is lowered to ONNX by the same per-op
``lower`` functions as the ONNX Runtime backend and read by OpenVINO's ONNX frontend, then
compiled for one OpenVINO device (CPU here; Intel GPU/NPU where present).

Capabilities are a committed table (``openvino_caps.json``), measured by running every op x data
type case of the capability sweep on the CPU plugin against the numpy reference
(``webnn-bridge codegen``, devtools/codegen/backend_tables.py; tests/test_backend_openvino.py and
``codegen --check`` fail when the table no longer matches what the installed OpenVINO really runs).
Start-up only reads it.
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

import numpy as np

from webnn_bridge.ops.core import OperationError
from webnn_bridge.ops.graph import GraphIR
from webnn_bridge.ops.registry import load_all

from .base import Backend, Capabilities, Compiled, Device
from .onnx_lowering import lower_graph
from .onnxruntime import supported_ir_version

CAPS_TABLE = Path(__file__).with_name("openvino_caps.json")

# OpenVINO device type (the part of the device name before any ".N") -> WebNN device kind
KINDS = {"CPU": "cpu", "GPU": "gpu", "NPU": "npu"}
# Devices the sweep has not measured get the CPU table narrowed to these types (untested here).
UNMEASURED_TYPES = ("float32", "float16")


def _ov():
    import openvino

    return openvino


@functools.lru_cache(maxsize=1)
def _core():
    return _ov().Core()


@functools.lru_cache(maxsize=1)
def caps_table() -> dict:
    """The measured table: {"ops": {op: {operand: [data types]}}, ...}."""
    return json.loads(CAPS_TABLE.read_text())


def capabilities_from_table(ops_table: Mapping[str, Mapping[str, list]], types: tuple[str, ...] | None = None
                            ) -> Capabilities:
    """Narrow the registry's spec limits to a measured table; ``types`` narrows further (None: no
    further narrowing). Operands the table does not name follow their "same as" link."""
    registry = load_all()
    ops = {}
    for op, operands in ops_table.items():
        if op not in registry:
            continue
        limits = dict(registry[op].limits)
        for name, measured in operands.items():
            lim = limits[name]
            keep = tuple(t for t in lim.types if t in measured and (types is None or t in types))
            limits[name] = replace(lim, types=keep)
        if all(lim.types or lim.same for lim in limits.values()):
            ops[op] = limits
    return Capabilities(ops=ops)


class OpenVinoCompiled(Compiled):
    def __init__(self, graph: GraphIR, device_name: str, threads: int = 0):
        model, in_map, out_map = lower_graph(graph, supported_ir_version())
        core = _core()
        try:
            ov_model = core.read_model(model.SerializeToString(), b"")
            config = {"PERFORMANCE_HINT": "LATENCY"}
            if device_name.split(".")[0] in ("CPU", "GPU"):
                config["INFERENCE_PRECISION_HINT"] = "f32"  # never bf16/f16 for float32 graphs
            if threads and device_name.split(".")[0] == "CPU":  # a CPU mode (Device.threads)
                config["INFERENCE_NUM_THREADS"] = int(threads)
            self.compiled = core.compile_model(ov_model, device_name, config)
        except Exception as e:  # OpenVINO rejects the model: a compile failure per spec
            raise OperationError(f"OpenVINO could not compile the graph: {type(e).__name__}") from e
        # OpenVINO keeps the ONNX graph's input/output order
        onnx_inputs = [i.name for i in model.graph.input]
        self.feed_index = {name: onnx_inputs.index(v) for name, v in in_map.items()}
        self.webnn_outputs = list(out_map.keys())
        self.dtypes = [graph.operands[graph.outputs[n]].numpy_dtype for n in self.webnn_outputs]
        self.request = self.compiled.create_infer_request()
        self._lock = threading.Lock()

    def run(self, inputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        feed = {self.feed_index[k]: np.ascontiguousarray(v) for k, v in inputs.items()}
        with self._lock:
            self.request.infer(feed)
            results = [self.request.get_output_tensor(i).data.copy() for i in range(len(self.webnn_outputs))]
        # OpenVINO reports bool for boolean-valued ONNX outputs that WebNN types as uint8
        return {n: r.astype(dt, copy=False) for n, r, dt in zip(self.webnn_outputs, results, self.dtypes)}

    def close(self) -> None:
        self.request = None
        self.compiled = None


class OpenVinoBackend(Backend):
    name = "openvino"
    cpu_modes = True  # INFERENCE_NUM_THREADS per compiled model on its CPU device

    @classmethod
    def probe(cls) -> list[Device]:
        try:
            ov = _ov()
            core = _core()
            names = list(core.available_devices)
        except Exception:
            return []
        devices = []
        for dev in names:
            kind = KINDS.get(dev.split(".")[0])
            if kind is None:
                continue
            devices.append(
                Device(
                    id=f"openvino:{dev}",
                    kind=kind,
                    backend=cls.name,
                    name=f"{dev} via OpenVINO",
                    details={"openvino": ov.__version__, "device": dev},
                    providers=(dev,),
                )
            )
        return devices

    def capabilities(self, device: Device) -> Capabilities:
        table = caps_table()
        measured = device.providers[:1] == (table.get("device", "CPU"),)
        return capabilities_from_table(table["ops"], None if measured else UNMEASURED_TYPES)

    def implements(self, op: str) -> bool:
        return op in caps_table()["ops"]

    def compile(self, graph: GraphIR, device: Device) -> Compiled:
        return OpenVinoCompiled(graph, device.providers[0] if device.providers else "CPU", device.threads)
