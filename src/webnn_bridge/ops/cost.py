"""The static cost model: a graph's nodes with only what an estimate of their work needs (op,
operand and output data types and shapes, a few options), and the estimates themselves (arithmetic
and bytes moved). The policy engine's summaries are built from these nodes (policy/graphs.py); a
backend reads the same figures (a graph's FLOPs decide whether it gets a thread pool)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .core import DATA_TYPES

Operand = tuple[str, str, tuple[int, ...]]  # (name, data type, shape)

# options the cost model reads; anything else is dropped from summaries
COST_OPTIONS = ("filterLayout", "inputLayout", "aTranspose", "bTranspose", "groups", "direction", "layout")


@dataclass(frozen=True)
class NodeSummary:
    op: str
    operands: tuple[Operand, ...]
    outputs: tuple[Operand, ...]
    options: tuple[tuple[str, Any], ...] = ()

    def option(self, name: str, default: Any = None) -> Any:
        return dict(self.options).get(name, default)

    def to_dict(self) -> dict:
        d: dict = {
            "op": self.op,
            "inputs": [[n, t, list(s)] for n, t, s in self.operands],
            "outputs": [[n, t, list(s)] for n, t, s in self.outputs],
        }
        if self.options:
            d["options"] = dict(self.options)
        return d


def _nbytes(data_type: str, shape) -> int:
    return -(-math.prod(shape) * DATA_TYPES[data_type].element_bits // 8)


def ir_nodes(ir) -> tuple[NodeSummary, ...]:
    """A GraphIR's nodes as NodeSummary, in order (kept in ``ir.derived`` where the IR has one)."""
    derived = getattr(ir, "derived", None)
    if derived is not None and "cost_nodes" in derived:
        return derived["cost_nodes"]
    from .graph import is_ref
    from .registry import get

    nodes = []
    for node in ir.nodes:
        operands = tuple(
            (name, ir.operands[ref.id].data_type, tuple(ir.operands[ref.id].shape))
            for name, ref in node.call.operands(is_ref)
        )
        opdef = get(node.op)
        names = opdef.outputs if opdef is not None else ("output",)
        outputs = tuple(
            (names[min(i, len(names) - 1)], ir.operands[oid].data_type, tuple(ir.operands[oid].shape))
            for i, oid in enumerate(node.outputs)
        )
        opts = {
            k: v for k, v in node.call.options.items()
            if k in COST_OPTIONS and isinstance(v, (str, int, float, bool))
        }
        nodes.append(NodeSummary(node.op, operands, outputs, tuple(sorted(opts.items()))))
    nodes = tuple(nodes)
    if derived is not None:
        derived["cost_nodes"] = nodes
    return nodes


def graph_flops(ir) -> float:
    """A GraphIR's arithmetic by the static estimate (node_flops)."""
    return float(sum(node_flops(n) for n in ir_nodes(ir)))


def _first(node: NodeSummary, name: str) -> tuple[str, tuple[int, ...]] | None:
    for n, t, s in node.operands:
        if n == name:
            return t, s
    return None


def _out_elems(node: NodeSummary) -> int:
    return sum(math.prod(s) for _, _, s in node.outputs)


def _in_elems(node: NodeSummary) -> int:
    return sum(math.prod(s) for _, _, s in node.operands)


def node_flops(node: NodeSummary) -> float:
    """A static estimate of the arithmetic in one node (multiply-adds count 2)."""
    op = node.op
    out = _out_elems(node)
    if op in ("conv2d", "convTranspose2d"):
        f = _first(node, "filter")
        if f:
            fshape = f[1]
            layout = node.option("filterLayout", "oihw" if op == "conv2d" else "iohw")
            o_axis = {"oihw": 0, "ohwi": 0, "hwio": 3, "ihwo": 3, "iohw": 1}.get(layout, 0)
            o = fshape[o_axis] if len(fshape) == 4 and fshape[o_axis] else 1
            per_output = math.prod(fshape) / o
            if op == "convTranspose2d":
                src = _first(node, "input")
                return 2.0 * (math.prod(src[1]) if src else out) * math.prod(fshape) / max(1, fshape[0])
            return 2.0 * out * per_output
    if op in ("matmul", "gemm"):
        a = _first(node, "a")
        if a and a[1]:
            k = a[1][-1]
            if op == "gemm" and node.option("aTranspose", False) and len(a[1]) == 2:
                k = a[1][0]
            return 2.0 * out * k
    if op in ("gru", "lstm", "gruCell", "lstmCell"):
        x = _first(node, "input")
        w = _first(node, "weight")
        r = _first(node, "recurrentWeight")
        if x and w and r:
            steps_batch = math.prod(x[1][:2]) if op in ("gru", "lstm") else x[1][0]
            return 2.0 * steps_batch * (math.prod(w[1]) + math.prod(r[1]))
    if op in ("averagePool2d", "maxPool2d", "l2Pool2d"):
        return float(max(_in_elems(node), out))
    return float(max(out, _in_elems(node)))


def node_bytes(node: NodeSummary) -> int:
    """Bytes a node reads and writes (the memory-traffic side of the roofline)."""
    return sum(_nbytes(t, s) for _, t, s in (*node.operands, *node.outputs))
