"""The numpy reference backend: runs each node's reference function from the op registry."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from webnn_bridge.ops.graph import GraphIR, is_ref
from webnn_bridge.ops.registry import load_all

from .base import Backend, Compiled, Device, contiguous


def evaluate_node(opdef, node, values: dict, operands: Mapping) -> None:
    """Runs ``node``'s reference on ``values`` (arrays by operand id) and stores its outputs there,
    in their descriptors' types and shapes."""
    call = node.call.map_operands(lambda r: values[r.id], is_ref)
    for oid, arr in zip(node.outputs, opdef.reference(call)):
        desc = operands[oid]
        arr = np.asarray(arr)
        if arr.dtype != desc.numpy_dtype:
            arr = arr.astype(desc.numpy_dtype)
        values[oid] = arr.reshape(desc.shape)


class ReferenceCompiled(Compiled):
    def __init__(self, graph: GraphIR):
        registry = load_all()
        self.graph = graph
        self.steps = [(registry[n.op], n) for n in graph.nodes]

    def run(self, inputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        values: dict[int, np.ndarray] = dict(self.graph.constants)
        for name, oid in self.graph.inputs.items():
            values[oid] = np.asarray(inputs[name])
        for op, node in self.steps:
            evaluate_node(op, node, values, self.graph.operands)
        return {name: contiguous(values[oid]) for name, oid in self.graph.outputs.items()}


class ReferenceBackend(Backend):
    name = "reference"

    @classmethod
    def probe(cls) -> list[Device]:
        return [Device(id="reference:cpu", kind="cpu", backend=cls.name, name="numpy reference (CPU)")]

    def compile(self, graph: GraphIR, device: Device) -> Compiled:
        return ReferenceCompiled(graph)
