"""Real partitions: a graph split into segments that run on different backends.

A placement assigns each node (in topological order) to a device; contiguous runs of nodes on
one device are segments. Each segment becomes a GraphIR of its own: the values it reads from
the graph inputs or from earlier segments are its inputs, the values that later segments or the
graph's outputs read are its outputs, the constants it uses are copied in. Segments are compiled
on their own devices' backends and run in order, numpy arrays handed from one to the next.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from webnn_bridge.ops.graph import GraphIR, node_refs

from .base import Compiled, Device, contiguous


def value_name(oid: int) -> str:
    """The name of an operand crossing a segment boundary (segment inputs and outputs)."""
    return f"v{oid}"


@dataclass
class Segment:
    device_id: str
    graph: GraphIR  # inputs/outputs named by value_name()


def runs(assignment: Sequence[str]) -> list[tuple[str, list[int]]]:
    """Contiguous runs of node indices on one device, in node order."""
    out: list[tuple[str, list[int]]] = []
    for i, dev in enumerate(assignment):
        if out and out[-1][0] == dev:
            out[-1][1].append(i)
        else:
            out.append((dev, [i]))
    return out


def _segment(graph: GraphIR, idx: list[int], needed_later: set[int]) -> GraphIR:
    nodes = [graph.nodes[i] for i in idx]
    produced = {oid for n in nodes for oid in n.outputs}
    seg = GraphIR()
    for n in nodes:
        for oid in node_refs(n):
            if oid in graph.constants:
                seg.constants[oid] = graph.constants[oid]
            elif oid not in produced:
                seg.inputs[value_name(oid)] = oid
            seg.operands[oid] = graph.operands[oid]
        for oid in n.outputs:
            seg.operands[oid] = graph.operands[oid]
            if oid in needed_later:
                seg.outputs[value_name(oid)] = oid
    seg.nodes = nodes
    return seg


def split_graph(graph: GraphIR, assignment: Sequence[str]) -> list[Segment]:
    """The segments of ``graph`` for a per-node device assignment."""
    if len(assignment) != len(graph.nodes):
        raise ValueError(f"assignment names {len(assignment)} devices for {len(graph.nodes)} nodes")
    parts = runs(assignment)
    # what each segment must hand on: values read by a later segment, and the graph's outputs
    later_reads: list[set[int]] = []
    reads: set[int] = set(graph.outputs.values())
    for _, idx in reversed(parts):
        later_reads.append(set(reads))
        reads |= {oid for i in idx for oid in node_refs(graph.nodes[i])}
    later_reads.reverse()
    return [Segment(dev, _segment(graph, idx, later_reads[k])) for k, (dev, idx) in enumerate(parts)]


class PartitionedCompiled(Compiled):
    """Segments compiled on their devices, run in order with arrays handed between them."""

    def __init__(self, graph: GraphIR, parts: Sequence[tuple[Segment, Compiled]]):
        self.graph = graph
        self.parts = list(parts)

    def run(self, inputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        values: dict[int, np.ndarray] = {self.graph.inputs[name]: np.asarray(a) for name, a in inputs.items()}
        segment_ms: dict[str, float] = {}
        for seg, compiled in self.parts:
            feed = {name: values[oid] for name, oid in seg.graph.inputs.items()}
            t0 = time.perf_counter()
            out = compiled.run(feed)
            segment_ms[seg.device_id] = segment_ms.get(seg.device_id, 0.0) + (time.perf_counter() - t0) * 1e3
            for name, oid in seg.graph.outputs.items():
                values[oid] = out[name]
        self.last_segment_ms = segment_ms  # host time per segment device of the latest run (policy traces)
        return {name: contiguous(values[oid]) for name, oid in self.graph.outputs.items()}

    def close(self) -> None:
        for _, compiled in self.parts:
            compiled.close()
        self.parts = []

    def devices(self) -> list[str]:
        return [seg.device_id for seg, _ in self.parts]


def compile_partitioned(graph: GraphIR, assignment: Sequence[str], devices: Mapping[str, Device],
                        compile_on: Callable[[GraphIR, Device], Compiled]) -> Compiled:
    """Compile ``graph`` split by ``assignment``; one segment compiles directly (no hand-offs)."""
    if len(set(assignment)) == 1 and len(assignment) == len(graph.nodes):  # one device: nothing to split
        return compile_on(graph, devices[assignment[0]])
    segments = split_graph(graph, assignment)
    if len(segments) == 1:
        return compile_on(graph, devices[segments[0].device_id])
    parts: list[tuple[Segment, Compiled]] = []
    try:
        for seg in segments:
            parts.append((seg, compile_on(seg.graph, devices[seg.device_id])))
    except BaseException:
        for _, c in parts:
            c.close()
        raise
    return PartitionedCompiled(graph, parts)


def fallback_after_compile(compiled: Compiled, devices: Mapping[str, Device], planned: str) -> str:
    """The truthful cpuFallback once compiled: an accelerator segment whose runtime silently put
    it on its CPU (an ONNX Runtime EP that failed to start) counts as CPU work."""
    if not isinstance(compiled, PartitionedCompiled):
        return "full" if compiled.fell_back else planned
    accel = [c for seg, c in compiled.parts if devices[seg.device_id].kind != "cpu"]
    if not any(c.fell_back for c in accel):
        return planned
    return "full" if all(c.fell_back for c in accel) else "partial"
