"""Graph summaries: what the policy engine needs to know about a graph, and nothing more.

A ``GraphSummary`` is the list of nodes in topological order, each with its op name and the
data type and shape of every operand and output, plus byte totals. It is built from
- an ``ops.graph.GraphIR`` (what MLGraphBuilder.build() hands to the host),
- a graph JSON file (the format below, used by ``policy explain --graph``),
- a trace line or a trace's graph summary (``policy/trace.py`` writes ``to_dict()``).

Graph JSON format (every descriptor is ``[dataType, shape]`` or ``{"dataType", "shape"}``)::

    {"name": "tiny-cnn",
     "inputs": {"x": ["float32", [1, 3, 32, 32]]},          (optional, for byte totals)
     "nodes": [
       {"op": "conv2d",
        "inputs": {"input": ["float32", [1, 3, 32, 32]], "filter": ["float32", [8, 3, 3, 3]]},
        "outputs": [["float32", [1, 8, 30, 30]]],             (a list, or {name: descriptor})
        "options": {"filterLayout": "oihw"}},                (optional; used by the cost model)
       {"op": "concat", "inputs": {"inputs": [["float32", [1, 8]], ["float32", [1, 8]]]}, ...}
     ]}

Operand names are the IDL argument names (``a``/``b``, ``input``/``filter``...), output names
are the registry's (``output``, or ``outputs``/``output0``...); they key the capability checks.
The summary holds no tensor values and no page identity; its ``hash`` is stable across runs.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from webnn_bridge.ops.core import DATA_TYPES
from webnn_bridge.ops.cost import COST_OPTIONS, NodeSummary, Operand, _nbytes, ir_nodes, node_bytes, node_flops  # noqa: F401 (the cost model's names, as policy modules import them)


@dataclass(frozen=True)
class GraphSummary:
    nodes: tuple[NodeSummary, ...]
    name: str = ""
    input_bytes: int = 0
    constant_bytes: int = 0
    output_bytes: int = 0
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False)

    @cached_property
    def hash(self) -> str:
        """sha256 of the canonical node list (structure, types and shapes only)."""
        canon = json.dumps([n.to_dict() for n in self.nodes], sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canon.encode()).hexdigest()

    @property
    def label(self) -> str:
        return self.name or self.hash[:10]

    def op_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for n in self.nodes:
            counts[n.op] = counts.get(n.op, 0) + 1
        return dict(sorted(counts.items()))

    def data_types(self) -> list[str]:
        return sorted({t for n in self.nodes for _, t, _ in (*n.operands, *n.outputs)})

    def max_rank(self) -> int:
        return max((len(s) for n in self.nodes for _, _, s in (*n.operands, *n.outputs)), default=0)

    def flops(self) -> float:
        return float(sum(node_flops(n) for n in self.nodes))

    def to_dict(self) -> dict:
        """The trace form: coarse facts first, then the node list replay needs."""
        return {
            "name": self.name,
            "hash": self.hash,
            "nodeCount": len(self.nodes),
            "ops": self.op_counts(),
            "dataTypes": self.data_types(),
            "maxRank": self.max_rank(),
            "bytes": {"inputs": self.input_bytes, "constants": self.constant_bytes, "outputs": self.output_bytes},
            "flops": self.flops(),
            "nodes": [n.to_dict() for n in self.nodes],
        }


# --------------------------------------------------------------------------- building summaries


def _desc(value, what: str) -> tuple[str, tuple[int, ...]]:
    if isinstance(value, Mapping):
        t, shape = value.get("dataType"), value.get("shape")
    elif isinstance(value, (list, tuple)) and len(value) == 2 and isinstance(value[0], str):
        t, shape = value
    else:
        raise ValueError(f"{what}: expected [dataType, shape] or {{dataType, shape}}, got {value!r}")
    if t not in DATA_TYPES:
        raise ValueError(f"{what}: unknown data type {t!r}")
    if not isinstance(shape, (list, tuple)) or not all(isinstance(d, int) and d >= 0 for d in shape):
        raise ValueError(f"{what}: shape must be a list of non-negative integers")
    return t, tuple(int(d) for d in shape)


def _is_desc_list(value) -> bool:
    return isinstance(value, (list, tuple)) and bool(value) and all(
        isinstance(v, Mapping) or (isinstance(v, (list, tuple)) and len(v) == 2 and isinstance(v[0], str)
                                   and isinstance(v[1], (list, tuple)))
        for v in value
    ) and not (len(value) == 2 and isinstance(value[0], str))


def _output_names(op: str, n: int) -> list[str]:
    from webnn_bridge.ops.registry import get

    opdef = get(op)
    names = opdef.outputs if opdef is not None else ("output",)
    return [names[min(i, len(names) - 1)] for i in range(n)]


def _node_from_dict(d: Mapping, i: int) -> NodeSummary:
    if not isinstance(d, Mapping):
        raise ValueError(f"node {i}: a node must be an object, not {type(d).__name__} ({str(d)[:40]})")
    op = d.get("op")
    if not isinstance(op, str):
        raise ValueError(f"node {i}: 'op' must be a string")
    operands: list[Operand] = []
    raw_in = d.get("inputs", {})
    if isinstance(raw_in, Mapping):
        for name, v in raw_in.items():
            values = v if _is_desc_list(v) else [v]
            for x in values:
                t, s = _desc(x, f"node {i} ({op}) input {name}")
                operands.append((name, t, s))
    elif isinstance(raw_in, list):  # trace form: [[name, type, shape], ...]
        for x in raw_in:
            if not isinstance(x, (list, tuple)) or len(x) != 3 or not isinstance(x[0], str):
                raise ValueError(f"node {i} ({op}): an input must be [name, dataType, shape]")
            operands.append((x[0], *_desc(x[1:], f"node {i} ({op}) input")))
    else:
        raise ValueError(f"node {i} ({op}): inputs must be an object or a list")
    outputs: list[Operand] = []
    raw_out = d.get("outputs", [])
    if isinstance(raw_out, Mapping):
        for name, v in raw_out.items():
            outputs.append((name, *_desc(v, f"node {i} ({op}) output {name}")))
    elif isinstance(raw_out, list):
        if raw_out and isinstance(raw_out[0], (list, tuple)) and len(raw_out[0]) == 3:
            for x in raw_out:
                if not isinstance(x, (list, tuple)) or len(x) != 3 or not isinstance(x[0], str):
                    raise ValueError(f"node {i} ({op}): an output must be [name, dataType, shape]")
                outputs.append((x[0], *_desc(x[1:], f"node {i} ({op}) output")))
        else:
            names = _output_names(op, len(raw_out))
            for name, x in zip(names, raw_out):
                outputs.append((name, *_desc(x, f"node {i} ({op}) output")))
    else:
        raise ValueError(f"node {i} ({op}): outputs must be an object or a list")
    raw_opts = d.get("options", {})
    if not isinstance(raw_opts, Mapping):
        raise ValueError(f"node {i} ({op}): options must be an object")
    opts = {k: v for k, v in raw_opts.items() if k in COST_OPTIONS and isinstance(v, (str, int, float, bool))}
    return NodeSummary(op, tuple(operands), tuple(outputs), tuple(sorted(opts.items())))


def _from_mapping(data: Mapping) -> GraphSummary:
    if "event" in data and "graph" in data:  # a trace line
        data = data["graph"]
    if not isinstance(data, Mapping) or not isinstance(data.get("nodes"), list):
        raise ValueError("a graph needs a 'nodes' list")
    nodes = tuple(_node_from_dict(n, i) for i, n in enumerate(data["nodes"]))
    b = data.get("bytes", {})
    if not isinstance(b, Mapping) or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0
                                             for v in b.values() if v is not None):
        raise ValueError("a graph's bytes must map to non-negative integers")
    in_bytes = b.get("inputs")
    if in_bytes is None:
        in_bytes = sum(_nbytes(*_desc(v, f"input {k}")) for k, v in dict(data.get("inputs", {})).items())
    const_bytes = b.get("constants")
    if const_bytes is None:
        const_bytes = sum(_nbytes(*_desc(v, f"constant {k}")) for k, v in dict(data.get("constants", {})).items())
    out_bytes = b.get("outputs")
    if out_bytes is None:
        out_bytes = 0
    return GraphSummary(nodes, str(data.get("name", "")), int(in_bytes), int(const_bytes), int(out_bytes))


def _from_ir(ir) -> GraphSummary:
    return GraphSummary(
        ir_nodes(ir),
        "",
        sum(d.byte_length for d in ir.input_descs().values()),
        ir.constant_bytes(),
        sum(d.byte_length for d in ir.output_descs().values()),
    )


def summarize(graph) -> GraphSummary:
    """A GraphSummary from a GraphIR, a graph JSON / trace mapping, or a GraphSummary."""
    if isinstance(graph, GraphSummary):
        return graph
    if isinstance(graph, Mapping):
        return _from_mapping(graph)
    if hasattr(graph, "nodes") and hasattr(graph, "operands"):
        derived = getattr(graph, "derived", None)
        if derived is None:
            return _from_ir(graph)
        if "summary" not in derived:
            derived["summary"] = _from_ir(graph)
        return derived["summary"]
    raise TypeError(f"cannot summarize a graph of type {type(graph).__name__}")


def load_graph(path: str | Path) -> GraphSummary:
    """Read a graph JSON file, a single trace line, or a JSONL trace (its first build event)."""
    text = Path(path).read_text()
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = None
        for line in text.splitlines():
            line = line.strip()
            if not line:
                continue
            try:
                ev = json.loads(line)
            except json.JSONDecodeError as e:
                raise ValueError(f"{path}: neither a graph JSON file nor a trace: {e}") from None
            if isinstance(ev, Mapping) and "graph" in ev and isinstance(ev["graph"], Mapping) and "nodes" in ev["graph"]:
                data = ev
                break
        if data is None:
            raise ValueError(f"{path}: no graph found") from None
    if not isinstance(data, Mapping):
        raise ValueError(f"{path}: a graph is a JSON object with a 'nodes' list")
    summary = _from_mapping(data)
    if not summary.name:
        summary = GraphSummary(summary.nodes, Path(path).stem, summary.input_bytes, summary.constant_bytes,
                               summary.output_bytes)
    return summary


