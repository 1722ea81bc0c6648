"""Device capabilities as data.

A device profile (policy/fixtures/*.json) or a canonical limits profile (policy/profiles.toml)
declares what a device executes compactly; ``capabilities_from_spec`` turns that declaration
into a ``backends.base.Capabilities`` by *narrowing* the registry's spec limits
(``ops.registry.load_all()``), so a declared device can never claim more than the spec allows.

The compact declaration (every key optional; an absent or empty declaration means "everything
the spec allows", which is how old profiles without capabilities keep loading):

    dataTypes            "all" or a list of MLOperandDataType names the device handles at all
    ops                  "all" or an explicit list of operator names
    excludeOps           operator names removed from ``ops``
    opDataTypes          {op: [data types]}: a further per-operator narrowing
    maxRank              highest tensor rank (default 8)
    maxTensorByteLength  largest tensor in bytes (default 2**31 - 1)
    preferredInputLayout "nchw" | "nhwc" (default "nchw")
    required             true: start from the spec's *required* columns (PR #910) instead of the
                         allowed ones (used for the "spec-baseline" canonical profile)

Narrowing one operand of one op: its data types are intersected with ``dataTypes`` (and
``opDataTypes``), its rank range is clipped at ``maxRank``. When an operand is left with no
data type or an empty rank range, the whole op is dropped (the device cannot run it; optional
operands are treated like required ones, which errs on the safe side). Operands whose type is
"same as" another operand keep that link and follow the other operand.

Everything here is pure.
"""

from __future__ import annotations

import functools
import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace

from webnn_bridge.backends.base import Capabilities
from webnn_bridge.ops.core import DATA_TYPES
from webnn_bridge.ops.registry import Limits, load_all, resolve_same

SPEC_KEYS = {
    "dataTypes",
    "ops",
    "excludeOps",
    "opDataTypes",
    "maxRank",
    "maxTensorByteLength",
    "preferredInputLayout",
    "required",
}
DEFAULT_MAX_RANK = 8
DEFAULT_MAX_TENSOR_BYTE_LENGTH = 2**31 - 1
LAYOUTS = ("nchw", "nhwc")
KNOWN_TYPES = tuple(DATA_TYPES)  # the spec's data types plus the int4 / uint4 extension


class CapabilitySpecError(ValueError):
    """A capability declaration names an unknown key, op, data type or layout."""


# --------------------------------------------------------------------------- building


@functools.lru_cache(maxsize=1)
def _spec_ops() -> dict[str, dict[str, Limits]]:
    return {name: dict(op.limits) for name, op in sorted(load_all().items())}


def spec_capabilities() -> Capabilities:
    """Everything the spec allows (the registry's limits, unnarrowed)."""
    return Capabilities(ops={name: dict(lims) for name, lims in _spec_ops().items()})


def _names(value, known, what: str, kind: str) -> list[str]:
    """'all' (or absent) -> every known name; else a list whose every entry must be known."""
    if value == "all" or value is None:
        return list(known)
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise CapabilitySpecError(f"{what} must be 'all' or a list of {kind}s")
    out = list(value)
    for name in out:
        if name not in known:
            raise CapabilitySpecError(f"{what}: unknown {kind} {name!r}")
    return out


def _types_list(value, what: str) -> tuple[str, ...]:
    return tuple(_names(value, KNOWN_TYPES, what, "data type"))


def _op_list(value, what: str) -> list[str]:
    return _names(value, _spec_ops(), what, "operator name")


def _narrow(lim: Limits, types: tuple[str, ...], max_rank: int, required: bool) -> Limits | None:
    lo, hi = lim.required_ranks if (required and lim.required_ranks) else lim.ranks
    hi = max_rank if hi is None else min(hi, max_rank)
    if lo > hi:
        return None
    if lim.same is not None:
        new_types = lim.types  # follows the referenced operand
    else:
        base = lim.required_types if required else lim.types
        new_types = tuple(t for t in base if t in types)
        if not new_types:
            return None
    return replace(lim, types=new_types, ranks=(lo, hi))


def capabilities_from_spec(spec: Mapping | None) -> Capabilities:
    """Build a Capabilities from a compact declaration (see the module docstring)."""
    spec = dict(spec or {})
    unknown = set(spec) - SPEC_KEYS
    if unknown:
        raise CapabilitySpecError(f"unknown capability keys: {', '.join(sorted(unknown))}")
    types = _types_list(spec.get("dataTypes"), "dataTypes")
    ops = _op_list(spec.get("ops"), "ops")
    excluded = set(_op_list(spec.get("excludeOps", []), "excludeOps"))
    per_op = {op: _types_list(t, f"opDataTypes.{op}") for op, t in dict(spec.get("opDataTypes", {})).items()}
    _op_list(list(per_op), "opDataTypes")
    max_rank = int(spec.get("maxRank", DEFAULT_MAX_RANK))
    if max_rank < 0:
        raise CapabilitySpecError("maxRank must be >= 0")
    max_bytes = int(spec.get("maxTensorByteLength", DEFAULT_MAX_TENSOR_BYTE_LENGTH))
    layout = spec.get("preferredInputLayout", "nchw")
    if layout not in LAYOUTS:
        raise CapabilitySpecError(f"preferredInputLayout must be one of {LAYOUTS}")
    required = bool(spec.get("required", False))

    out: dict[str, dict[str, Limits]] = {}
    spec_ops = _spec_ops()
    for op in ops:
        if op in excluded:
            continue
        op_types = tuple(t for t in types if t in per_op.get(op, KNOWN_TYPES))
        narrowed = {name: _narrow(lim, op_types, max_rank, required) for name, lim in spec_ops[op].items()}
        if any(v is None for v in narrowed.values()):
            continue
        out[op] = narrowed  # type: ignore[assignment]
    return Capabilities(
        ops=out, max_rank=max_rank, max_tensor_byte_length=max_bytes, preferred_input_layout=layout
    )


# --------------------------------------------------------------------------- memo


def by_identity(maxsize: int = 32) -> Callable[[Callable], Callable]:
    """Memoize a pure function of objects that are never modified once made (Capabilities,
    canonical profiles) by the identity of its positional arguments: the latest ``maxsize``
    results, each keeping its arguments alive (so their ids are not reused while cached)."""

    def wrap(fn: Callable) -> Callable:
        cache: OrderedDict[tuple, tuple] = OrderedDict()
        lock = threading.Lock()

        @functools.wraps(fn)
        def memo(*args):
            key = tuple(map(id, args))
            with lock:
                hit = cache.get(key)
                if hit is not None:
                    cache.move_to_end(key)
                    return hit[1]
            result = fn(*args)
            with lock:
                cache[key] = (args, result)
                while len(cache) > maxsize:
                    cache.popitem(last=False)
            return result

        return memo

    return wrap


# --------------------------------------------------------------------------- reading


def resolved(limits: Mapping[str, Limits], name: str, max_rank: int) -> tuple[frozenset[str], int, int]:
    """The effective (data types, min rank, max rank) of one operand, following "same as" links
    the way privacy.support_limits reports them."""
    lim = resolve_same(limits, name)
    lo, hi = lim.ranks
    return frozenset(lim.types), lo, max_rank if hi is None else hi


def io_types(caps: Capabilities) -> tuple[str, ...]:
    """The data types a device handles anywhere (reported as input/constant/output limits)."""
    seen: set[str] = set()
    for limits in caps.ops.values():
        for name in limits:
            seen |= resolved(limits, name, caps.max_rank)[0]
    return tuple(t for t in KNOWN_TYPES if t in seen)


def subset_violations(a: Capabilities, b: Capabilities, limit: int = 5) -> list[str]:
    """Why ``a`` is not contained in ``b`` (empty when it is). Stops after ``limit`` findings."""
    out: list[str] = []

    def add(msg: str) -> bool:
        out.append(msg)
        return len(out) >= limit

    if a.max_tensor_byte_length > b.max_tensor_byte_length and add("maxTensorByteLength is larger"):
        return out
    if a.max_rank > b.max_rank and add(f"maxRank {a.max_rank} > {b.max_rank}"):
        return out
    extra = set(io_types(a)) - set(io_types(b))
    if extra and add(f"data types {sorted(extra)} are not handled"):
        return out
    for op, limits in a.ops.items():
        other = b.ops.get(op)
        if other is None:
            if add(f"op {op} is missing"):
                return out
            continue
        for name in limits:
            if name not in other:
                if add(f"{op}.{name} is missing"):
                    return out
                continue
            ta, lo_a, hi_a = resolved(limits, name, a.max_rank)
            tb, lo_b, hi_b = resolved(other, name, b.max_rank)
            if not ta <= tb and add(f"{op}.{name} data types {sorted(ta - tb)} are not supported"):
                return out
            if lo_a <= hi_a and (lo_a < lo_b or hi_a > hi_b) and add(f"{op}.{name} ranks {lo_a}..{hi_a} exceed {lo_b}..{hi_b}"):
                return out
    return out


def is_subset(a: Capabilities, b: Capabilities) -> bool:
    """True when every op/operand/data type/rank/size in ``a`` is also in ``b``."""
    return not subset_violations(a, b, limit=1)


@by_identity()
def union(a: Capabilities, b: Capabilities) -> Capabilities:
    """What a pair of devices executes together (an accelerator plus its CPU fallback); the
    same pair gives the same object (every context of a device asks)."""
    max_rank = max(a.max_rank, b.max_rank)
    ops: dict[str, dict[str, Limits]] = {}
    for op in sorted(set(a.ops) | set(b.ops)):
        la, lb = a.ops.get(op), b.ops.get(op)
        if la is None or lb is None:
            src, cap = (la, a) if lb is None else (lb, b)
            ops[op] = {n: _pin(lim, cap.max_rank) for n, lim in src.items()}  # type: ignore[union-attr]
            continue
        merged = {}
        for name in sorted(set(la) | set(lb), key=lambda n: list(la).index(n) if n in la else len(la)):
            x, y = la.get(name), lb.get(name)
            if x is None or y is None:
                merged[name] = _pin(x or y, a.max_rank if y is None else b.max_rank)
                continue
            types = tuple(t for t in KNOWN_TYPES if t in set(x.types) | set(y.types))
            hx = a.max_rank if x.ranks[1] is None else x.ranks[1]
            hy = b.max_rank if y.ranks[1] is None else y.ranks[1]
            merged[name] = replace(x, types=types, ranks=(min(x.ranks[0], y.ranks[0]), max(hx, hy)))
        ops[op] = merged
    return Capabilities(
        ops=ops,
        max_rank=max_rank,
        max_tensor_byte_length=max(a.max_tensor_byte_length, b.max_tensor_byte_length),
        preferred_input_layout=a.preferred_input_layout,
    )


def _min_rank(a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else min(a, b)


def intersect(a: Capabilities, b: Capabilities) -> Capabilities:
    """What both ``a`` and ``b`` allow (a declared narrowing of a real device's capabilities).
    An op is kept only when every one of its operands keeps a data type and a rank."""
    ops: dict[str, dict[str, Limits]] = {}
    for op in sorted(set(a.ops) & set(b.ops)):
        merged = {}
        for name, x in a.ops[op].items():
            y = b.ops[op].get(name, x)
            lo, hi = max(x.ranks[0], y.ranks[0]), _min_rank(x.ranks[1], y.ranks[1])
            types = x.types if x.same is not None else tuple(t for t in x.types if t in y.types)
            merged[name] = replace(x, types=types, ranks=(lo, hi))
        if all((lim.types or lim.same) and (lim.ranks[1] is None or lim.ranks[0] <= lim.ranks[1])
               for lim in merged.values()):
            ops[op] = merged
    return Capabilities(
        ops=ops,
        max_rank=min(a.max_rank, b.max_rank),
        max_tensor_byte_length=min(a.max_tensor_byte_length, b.max_tensor_byte_length),
        preferred_input_layout=a.preferred_input_layout,
    )


def _pin(lim: Limits, max_rank: int) -> Limits:
    lo, hi = lim.ranks
    return replace(lim, ranks=(lo, max_rank if hi is None else hi))


def capability_size(caps: Capabilities) -> int:
    """A rough count of (op, operand, data type, rank) combinations: orders canonical profiles."""
    total = len(io_types(caps)) * (caps.max_rank + 1)
    for limits in caps.ops.values():
        for name in limits:
            types, lo, hi = resolved(limits, name, caps.max_rank)
            total += len(types) * max(0, hi - lo + 1)
    return total


# --------------------------------------------------------------------------- graph checks


def operand_issue(op: str, limits: Mapping[str, Limits], caps: Capabilities, name: str, data_type: str,
                  shape: tuple[int, ...]) -> str | None:
    """Why one operand of a node cannot run on a device with ``caps`` (None when it can)."""
    lim = limits.get(name)
    if lim is not None:
        if lim.same is None and data_type not in lim.types:
            return f"{op}: operand '{name}' data type {data_type} is not supported"
        lo, hi = lim.ranks
        hi = caps.max_rank if hi is None else hi
        if not lo <= len(shape) <= hi:
            return f"{op}: operand '{name}' rank {len(shape)} is outside {lo}..{hi}"
    elif len(shape) > caps.max_rank:
        return f"{op}: operand '{name}' rank {len(shape)} exceeds the maximum rank {caps.max_rank}"
    nbytes = -(-math.prod(shape) * DATA_TYPES[data_type].element_bits // 8)
    if nbytes > caps.max_tensor_byte_length:
        return f"{op}: operand '{name}' ({nbytes} bytes) exceeds the maximum tensor byte length"
    return None


def node_issues(node, caps: Capabilities) -> list[str]:
    """Why a graph node (policy.graphs.NodeSummary) cannot run on a device (empty when it can)."""
    limits = caps.ops.get(node.op)
    if limits is None:
        return [f"op {node.op} is not supported"]
    issues = []
    for name, data_type, shape in (*node.operands, *node.outputs):
        issue = operand_issue(node.op, limits, caps, name, data_type, shape)
        if issue and issue not in issues:
            issues.append(issue)
    return issues


def graph_issues(nodes, caps: Capabilities) -> list[list[str]]:
    """node_issues of every node, in order; nodes alike in op, data types and shapes are checked once."""
    checked: dict[tuple, list[str]] = {}
    out = []
    for node in nodes:
        key = (node.op, node.operands, node.outputs)
        if key not in checked:
            checked[key] = node_issues(node, caps)
        out.append(checked[key])
    return out
