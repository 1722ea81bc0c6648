"""A graph's full structure as JSON, so `policy measure` can rebuild and re-run it.

Traces carry it in build events (``"ir"``): operand descriptors, inputs, outputs, every node's
op, arguments and options (operands as ``{"$ref": id}``, operand lists as ``{"$list": [...]}``)
and each constant's SHA-256 and descriptor, never its bytes. ``ir_from_json`` rebuilds a GraphIR
with constants from ``constants(sha256)`` where given (the host's content-addressed store), else
deterministic data of the right type (zeros for integers, so that indices stay in range);
``store_constants(cache_dir)`` is that lookup for a host's cache directory.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from webnn_bridge.ops.core import OperandDesc
from webnn_bridge.ops.graph import GraphIR, Node, Ref
from webnn_bridge.ops.registry import Call, OperandList


def _enc(v: Any) -> Any:
    if isinstance(v, Ref):
        return {"$ref": v.id}
    if isinstance(v, OperandList):
        return {"$list": [_enc(x) for x in v]}
    if isinstance(v, Mapping):
        return {str(k): _enc(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_enc(x) for x in v]
    if isinstance(v, np.ndarray):
        return v.tolist()
    if hasattr(v, "item"):
        return v.item()
    return v


def _dec(v: Any) -> Any:
    if isinstance(v, Mapping):
        if set(v) == {"$ref"}:
            return Ref(int(v["$ref"]))
        if set(v) == {"$list"}:
            return OperandList(_dec(x) for x in v["$list"])
        return {k: _dec(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_dec(x) for x in v]
    return v


def ir_to_json(ir: GraphIR) -> dict:
    """The graph's structure (no constant bytes; their SHA-256 instead)."""
    from webnn_bridge.backends.cache import constant_digest

    consts = {}
    specs = getattr(ir.constants, "_specs", None)  # a remembered graph's constants (bridge/memo_disk.py)
    if isinstance(specs, Mapping):  # their digests are known: the bytes are not read for a trace
        for oid, spec in specs.items():
            consts[str(oid)] = spec[1] if spec[1] is not None else constant_digest(np.asarray(spec[2])).hex()
    else:  # digests the compile cache already took are not taken again
        for oid, value in ir.constants.items():
            consts[str(oid)] = constant_digest(np.asarray(value)).hex()
    return {
        "operands": {str(i): [d.data_type, list(d.shape)] for i, d in ir.operands.items()},
        "inputs": dict(ir.inputs),
        "outputs": dict(ir.outputs),
        "constants": consts,
        "nodes": [{"op": n.op, "args": _enc(n.call.args), "options": _enc(n.call.options), "outputs": list(n.outputs)}
                  for n in ir.nodes],
    }


def _data(desc: OperandDesc, seed: int) -> np.ndarray:
    dtype = desc.numpy_dtype
    if np.issubdtype(dtype, np.floating):
        rng = np.random.default_rng(seed)
        return (rng.standard_normal(desc.shape) * 0.1).astype(dtype)
    return np.zeros(desc.shape, dtype)


def ir_from_json(data: Mapping, constants: Callable[[str], bytes | None] | None = None) -> GraphIR:
    """A GraphIR from ``ir_to_json``'s form. ValueError when it is malformed."""
    try:
        ir = GraphIR()
        for i, (t, shape) in data["operands"].items():
            ir.operands[int(i)] = OperandDesc(str(t), tuple(int(s) for s in shape))
        ir.inputs = {str(k): int(v) for k, v in data["inputs"].items()}
        ir.outputs = {str(k): int(v) for k, v in data["outputs"].items()}
        for i, sha in data["constants"].items():
            desc = ir.operands[int(i)]
            raw = constants(sha) if constants is not None else None
            if raw is not None and len(raw) == desc.byte_length:
                ir.constants[int(i)] = np.frombuffer(bytes(raw), desc.numpy_dtype).reshape(desc.shape)
            else:
                ir.constants[int(i)] = _data(desc, int(i))
        for n in data["nodes"]:
            ir.nodes.append(Node(str(n["op"]), Call(str(n["op"]), _dec(n["args"]), _dec(n["options"])),
                                 [int(o) for o in n["outputs"]]))
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise ValueError(f"a graph's structure (ir) is malformed: {e!r}") from None
    return ir


def store_constants(cache_dir: str | Path | None) -> Callable[[str], bytes | None]:
    """A read-only lookup of constants by SHA-256 in a host's content-addressed store
    (``<cache dir>/constants/<origin folder>/<sha256>``, bridge/memo.py ConstantStore): any origin's
    copy of a digest is the same bytes; each is checked against its digest."""
    root = Path(cache_dir) / "constants" if cache_dir is not None else None
    found: dict[str, bytes | None] = {}

    def lookup(sha: str) -> bytes | None:
        if root is None or not root.is_dir() or not isinstance(sha, str) or len(sha) != 64:
            return None
        if sha not in found:
            found[sha] = None
            for path in root.glob(f"*/{sha}"):
                try:
                    raw = path.read_bytes()
                except OSError:
                    continue
                if hashlib.sha256(raw).hexdigest() == sha:
                    found[sha] = raw
                    break
        return found[sha]

    return lookup


def inputs_for(ir: GraphIR, seed: int = 0) -> dict[str, np.ndarray]:
    """Deterministic inputs of the right types and shapes."""
    return {name: _data(desc, seed + k) for k, (name, desc) in enumerate(sorted(ir.input_descs().items()))}
