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
    constants: dict[int, np.ndarray] = field(default_factory=dict)
    nodes: list[Node] = field(default_factory=list)
    outputs: dict[str, int] = field(default_factory=dict)
    # facts other layers derive from a finished graph (policy's summary), computed once: a graph
    # is not changed after build() validated it (the build memo shares it between builds)
    derived: dict = field(default_factory=dict, repr=False, compare=False)

    def input_descs(self) -> dict[str, OperandDesc]:
        return {name: self.operands[i] for name, i in self.inputs.items()}

    def output_descs(self) -> dict[str, OperandDesc]:
        return {name: self.operands[i] for name, i in self.outputs.items()}

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
            "constantBytes": int(sum(a.nbytes for a in self.constants.values())),
        }


def is_ref(v) -> bool:
    return isinstance(v, Ref)


def node_refs(node: Node) -> list[int]:
    return [r.id for _, r in node.call.operands(is_ref)]


__all__ = ["GraphIR", "Node", "OperandList", "Ref", "is_ref", "node_refs"]
