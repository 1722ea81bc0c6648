"""What pages may learn: opSupportLimits built from capabilities, never device identity."""

from __future__ import annotations

from backends.base import Capabilities
from ops import idl


def _limits_entry(lim, limits: dict, caps: Capabilities) -> dict:
    while lim.same is not None and lim.same in limits:
        ref = limits[lim.same]
        lim = type(lim)(types=ref.types, ranks=lim.ranks if lim.same_rank is None else ref.ranks, same=ref.same)
    lo, hi = lim.ranks
    return {"dataTypes": list(lim.types), "rankRange": {"min": lo, "max": caps.max_rank if hi is None else hi}}


def support_limits(caps: Capabilities) -> dict:
    all_types = list(idl.IDL["enums"]["MLOperandDataType"])
    io = {"dataTypes": all_types, "rankRange": {"min": 0, "max": caps.max_rank}}
    out: dict = {
        "preferredInputLayout": caps.preferred_input_layout,
        "maxTensorByteLength": caps.max_tensor_byte_length,
        "input": io,
        "constant": dict(io),
        "output": dict(io),
    }
    for m in idl.dictionary_members("MLOpSupportLimits"):
        op = m["name"]
        if op in out:
            continue
        limits = caps.ops.get(op)
        if limits is None:
            continue
        out[op] = {name: _limits_entry(lim, limits, caps) for name, lim in limits.items()}
    return out
