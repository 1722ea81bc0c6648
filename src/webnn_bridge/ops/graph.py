"""The graph IR a builder hands to backends: operands, constants, nodes in topological order."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from .core import OperandDesc
from .registry import Call, OperandList


@dataclass(frozen=True)
class Ref:
    """A reference to an operand inside a Node's call (replaces MLOperand in the IR)."""

    id: int


@dataclass
class Node:
    op: str
    call: Call  # operand values are Ref
    outputs: list[int]


@dataclass
class GraphIR:
    operands: dict[int, OperandDesc] = field(default_factory=dict)
    inputs: dict[str, int] = field(default_factory=dict)
    constants: dict[int, np.ndarray] = field(default_factory=dict)  # or a Mapping (memo.LazyConstants)
    nodes: list[Node] = field(default_factory=list)
    outputs: dict[str, int] = field(default_factory=dict)
    # facts other layers derive from a finished graph (policy's summary), computed once: a graph
    # is not changed after build() validated it (the build memo shares it between builds)
    derived: dict = field(default_factory=dict, repr=False, compare=False)

    def input_descs(self) -> dict[str, OperandDesc]:
        return {name: self.operands[i] for name, i in self.inputs.items()}

    def output_descs(self) -> dict[str, OperandDesc]:
        return {name: self.operands[i] for name, i in self.outputs.items()}

    def constant_bytes(self) -> int:
        """The bytes of the graph's constants (as arrays), without reading constants kept
        elsewhere (a remembered graph's: bridge.memo.LazyConstants knows their sizes)."""
        known = getattr(self.constants, "nbytes", None)
        if known is not None:
            return known
        return int(sum(np.asarray(a).nbytes for a in self.constants.values()))

    def load_constants(self) -> None:
        """Reads the constants kept elsewhere now (a remembered graph's, bridge.memo.LazyConstants),
        so that a failure to get them is the caller's, never taken for a compile error."""
        load = getattr(self.constants, "load", None)
        if load is not None:
            load()

    def ops_used(self) -> Iterator[str]:
        for n in self.nodes:
            yield n.op

    def summary(self) -> dict:
        """A coarse, identity-free description used by policy traces."""
        counts: dict[str, int] = {}
        for n in self.nodes:
            counts[n.op] = counts.get(n.op, 0) + 1
        return {
            "nodes": len(self.nodes),
            "ops": dict(sorted(counts.items())),
            "dataTypes": sorted({d.data_type for d in self.operands.values()}),
            "maxRank": max((d.rank for d in self.operands.values()), default=0),
            "constantBytes": self.constant_bytes(),
        }


def is_ref(v) -> bool:
    return isinstance(v, Ref)


def node_refs(node: Node) -> list[int]:
    return [r.id for _, r in node.call.operands(is_ref)]


__all__ = ["GraphIR", "Node", "OperandList", "Ref", "is_ref", "node_refs"]
