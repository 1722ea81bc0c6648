"""What pages may learn: bucketed opSupportLimits, coarse QoS tiers and latency buckets, and a
coarse effective-policy report. Never device names, vendors, models, drivers, memory sizes or
exact timings."""

from __future__ import annotations

import copy
import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from webnn_bridge.backends.base import Capabilities
from webnn_bridge.backends.capabilities import (
    by_identity,
    capabilities_from_spec,
    io_types,
    is_subset,
    spec_capabilities,
)
from webnn_bridge.ops import idl
from webnn_bridge.ops.registry import resolve_same

from .qos import estimate_qos  # noqa: F401  (re-exported: part of what a page may learn)

# --------------------------------------------------------------------------- opSupportLimits


def _limits_entry(limits: dict, name: str, caps: Capabilities) -> dict:
    lim = resolve_same(limits, name)
    lo, hi = lim.ranks
    return {"dataTypes": list(lim.types), "rankRange": {"min": lo, "max": caps.max_rank if hi is None else hi}}


def support_limits(caps: Capabilities, *, io_types: Sequence[str] | None = None) -> dict:
    """The MLOpSupportLimits dictionary for a set of capabilities (unbucketed)."""
    all_types = list(idl.IDL["enums"]["MLOperandDataType"]) if io_types is None else list(io_types)
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
        out[op] = {name: _limits_entry(limits, name, caps) for name in limits}
    return out


@dataclass(frozen=True)
class CanonicalProfile:
    name: str
    description: str
    caps: Capabilities
    io_types: tuple[str, ...]


_PROFILE_CACHE: dict[tuple, list[CanonicalProfile]] = {}


def _is_round(n: int) -> bool:
    """A canonical byte length: 0, a power of two, or one less (2^31 - 1, INT32_MAX, is what
    most runtimes take). A device's own odd limit is never reported; only these constants."""
    return n == 0 or n & (n - 1) == 0 or (n + 1) & n == 0


# Limits a client can trust (issue 25): a data type that any operation of a profile takes, the
# layout operations a client prepares operands with take too (where the op allows the type at
# all). The spec's required columns alone are not like that (transpose, expand and concat do not
# require int8 / uint8, which cast and the comparisons take), so a profile's layout ops are widened.
LAYOUT_OPERANDS = {"reshape": ("input",), "transpose": ("input",), "expand": ("input",), "slice": ("input",),
                   "concat": ("inputs",), "gather": ("input",), "cast": ("input", "output")}


def _consistent_layout(caps: Capabilities) -> Capabilities:
    taken = {t for limits in caps.ops.values() for lim in limits.values() if lim.same is None for t in lim.types}
    ops = dict(caps.ops)
    spec_ops = spec_capabilities().ops
    for op, operands in LAYOUT_OPERANDS.items():
        if op not in ops:
            continue
        limits = dict(ops[op])
        for name in operands:
            lim = limits[name]
            if lim.same is not None:
                continue
            allowed = spec_ops[op][name].types
            limits[name] = replace(lim, types=tuple(t for t in allowed if t in lim.types or t in taken))
        ops[op] = limits
    return replace(caps, ops=ops)


def _build_profiles(entries: Sequence[Mapping]) -> list[CanonicalProfile]:
    out = []
    for i, e in enumerate(entries):
        e = dict(e)
        name = str(e.pop("name", f"profile-{i}"))
        desc = str(e.pop("description", ""))
        caps = _consistent_layout(capabilities_from_spec(e))
        if not _is_round(caps.max_tensor_byte_length):
            raise ValueError(f"profile {name}: maxTensorByteLength must be 2^k or 2^k - 1")
        out.append(CanonicalProfile(name, desc, caps, io_types(caps)))
    if not out:
        raise ValueError("no canonical limits profiles")
    return out


def canonical_profiles(rules: Mapping | None = None) -> list[CanonicalProfile]:
    """The canonical profiles named by [privacy].profiles (a TOML file path, or inline tables),
    largest first."""
    from .engine import default_rules

    rules = rules or default_rules()
    src = rules.get("privacy", {}).get("profiles", str(Path(__file__).with_name("profiles.toml")))
    if isinstance(src, str):
        p = Path(src)
        if not p.is_absolute():
            p = Path(__file__).parent / p
        key = (str(p), p.stat().st_mtime_ns)
        if key not in _PROFILE_CACHE:
            _PROFILE_CACHE[key] = _build_profiles(tomllib.loads(p.read_text())["profile"])
        return _PROFILE_CACHE[key]
    return _build_profiles(src)


def bucket_profile(caps: Capabilities, rules: Mapping | None = None) -> CanonicalProfile:
    """The largest canonical profile contained in ``caps`` (the last, empty one if none is)."""
    return _largest_within(caps, canonical_profiles(rules))


@by_identity()
def _largest_within(caps: Capabilities, profiles: list[CanonicalProfile]) -> CanonicalProfile:
    for prof in profiles:
        if is_subset(prof.caps, caps):
            return prof
    return profiles[-1]


@by_identity()
def profile_limits(prof: CanonicalProfile) -> dict:
    """The MLOpSupportLimits a canonical profile reports (one shared dictionary: never modify it)."""
    return support_limits(prof.caps, io_types=prof.io_types)


def bucketed_support_limits(caps: Capabilities, rules: Mapping | None = None) -> tuple[str, dict]:
    """(profile name, MLOpSupportLimits) snapped to a canonical profile: a page learns only the
    bucket. Pass the context's capabilities (policy.engine.context_capabilities)."""
    prof = bucket_profile(caps, rules)
    return prof.name, copy.deepcopy(profile_limits(prof))


# --------------------------------------------------------------------------- timings


def _segments(rules: Mapping | None) -> tuple[list[tuple[float, float, float]], float]:
    from .engine import default_rules

    rules = rules or default_rules()
    lat = rules["latency"]
    segs = [(float(a), float(b), float(s)) for a, b, s in lat["segments"]]
    cap = float(lat.get("cap_ms", segs[-1][1]))
    if not segs or segs[0][0] != 0 or any(x[1] != y[0] for x, y in zip(segs, segs[1:])) or segs[-1][1] != cap:
        raise ValueError("[latency] segments must be contiguous, start at 0 and end at cap_ms")
    if any(s <= 0 or b <= a for a, b, s in segs):
        raise ValueError("[latency] segments need from < to and a positive step")
    return segs, cap


def latency_bucket(ms: float, rules: Mapping | None = None) -> tuple[float, float | None]:
    """(low, high) bounds of the latency bucket holding ``ms``; high is None above the cap."""
    ms = float(ms)
    if math.isnan(ms) or ms < 0:
        raise ValueError("latency must be a non-negative number")
    segs, cap = _segments(rules)
    if ms >= cap:
        return cap, None
    for a, b, s in segs:
        if a <= ms < b:
            lo = a + math.floor((ms - a) / s) * s
            if lo > ms:
                lo -= s
            return lo, min(lo + s, b)
    raise AssertionError("unreachable: segments cover [0, cap)")  # pragma: no cover


def bucket_latency(ms: float, rules: Mapping | None = None) -> str:
    """A coarse latency label ("10-20 ms", ">=10000 ms") that never reveals the exact timing."""
    lo, hi = latency_bucket(ms, rules)
    return f">={lo:g} ms" if hi is None else f"{lo:g}-{hi:g} ms"


# --------------------------------------------------------------------------- effective policy


def effective_report(placement, rules: Mapping | None = None, *, simulated: bool | None = None) -> dict:
    """What a page may learn after build() (#934, experimental): coarse facts only."""
    return {
        "accelerated": placement.device.kind != "cpu" and placement.fallback != "full",  # an EP may fall back
        "cpuFallback": placement.fallback,
        "simulated": bool(getattr(placement, "simulated", False) if simulated is None else simulated),
    }


DEVICE_KINDS = ("npu", "gpu", "cpu")


def graph_devices(placement) -> list[str]:
    """MLGraph.devices (extension, Chromium's shape): the kinds of device that run the graph, the
    main one first, e.g. ["cpu"] or ["gpu", "cpu"] for a partial CPU fallback. Kinds only: never
    a device's name, vendor or index, and one entry per kind however many devices of it exist."""
    kinds = [placement.device.kind]
    if placement.fallback == "partial":
        kinds.append("cpu")
    return [k for k in dict.fromkeys(kinds) if k in DEVICE_KINDS]
