"""Generic WebIDL conversion in Python, driven by the generated IDL model (idl/model.json, via ops/_idl.py).

The host runs every call it receives from a page through this (never trust the page), and the
Python object model uses it for its own callers, so both see the same TypeErrors.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from webnn_bridge.idl import idl_model

from .core import WebNNTypeError, to_double


def __getattr__(name: str):
    """``IDL``: the IDL model (idl/model.json), loaded on first use (so that `webnn-bridge codegen`
    can import the ops before it has written the model)."""
    if name == "IDL":
        return idl_model()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


UNDEFINED = object()  # an absent optional argument / dictionary member

INT_RANGES = {
    "byte": (-(2**7), 2**7 - 1),
    "octet": (0, 2**8 - 1),
    "short": (-(2**15), 2**15 - 1),
    "unsigned short": (0, 2**16 - 1),
    "long": (-(2**31), 2**31 - 1),
    "unsigned long": (0, 2**32 - 1),
    "long long": (-(2**53) + 1, 2**53 - 1),
    "unsigned long long": (0, 2**53 - 1),
}

# interface name -> predicate telling whether a Python value implements it
_interfaces: dict[str, Callable[[Any], bool]] = {}


def register_interface(name: str, predicate: Callable[[Any], bool]) -> None:
    _interfaces[name] = predicate


def _is_number(v) -> bool:
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)


def convert(t: dict, v: Any, what: str) -> Any:
    """WebIDL-convert ``v`` to IDL type ``t`` (a type of the IDL model); ``what`` names it in errors."""
    hit = _CONVERTERS.get(id(t))
    return (hit[1] if hit is not None else _converter(t))(v, what)


# id(IDL type) -> (the type, its converter): each type of the static IDL model is worked out once
# (the type is kept, so its id is not reused)
_CONVERTERS: dict[int, tuple[dict, Callable[[Any, str], Any]]] = {}


def _converter(t: dict) -> Callable[[Any, str], Any]:
    conv = _make_converter(t)
    if t.get("nullable"):
        inner = conv

        def conv(v, what):
            return None if v is None else inner(v, what)

    _CONVERTERS[id(t)] = (t, conv)
    return conv


def _make_converter(t: dict) -> Callable[[Any, str], Any]:
    kind = t["t"]
    if kind == "union":
        return lambda v, what: _convert_union(t, v, what)
    if kind in INT_RANGES:
        return _int_converter(t)
    if kind in ("double", "float", "unrestricted double", "unrestricted float"):
        return lambda v, what: _convert_float(kind, v, what)
    if kind == "bigint":
        return _convert_bigint
    if kind == "boolean":
        return lambda v, what: bool(v)
    if kind in ("DOMString", "USVString", "ByteString"):
        return _convert_string
    if kind == "enum":
        return _enum_converter(t["name"])
    if kind == "dict":
        return lambda v, what: convert_dictionary(t["name"], v, what)
    if kind in ("sequence", "frozen"):
        return _sequence_converter(t["of"])
    if kind == "record":
        return lambda v, what: _convert_record(t["of"], v, what)
    if kind == "iface":
        return lambda v, what: _convert_iface(t["name"], v, what)
    if kind == "buffer":
        return _convert_buffer
    if kind == "any":
        return lambda v, what: v
    return lambda v, what: _unsupported(kind, what)


def _unsupported(kind: str, what: str):
    raise WebNNTypeError(f"{what}: unsupported IDL type {kind}.")


def _convert_float(kind: str, v: Any, what: str) -> float:
    if isinstance(v, bool) or not _is_number(v):
        raise WebNNTypeError(f"{what} must be a number.")
    f = to_double(v)
    if not kind.startswith("unrestricted") and not math.isfinite(f):
        raise WebNNTypeError(f"{what} must be a finite number.")
    if kind.endswith("float") and math.isfinite(f):
        with np.errstate(over="ignore"):
            f = float(np.float32(f))
        if not kind.startswith("unrestricted") and not math.isfinite(f):
            raise WebNNTypeError(f"{what} is out of range for float.")
    return f


def _convert_bigint(v: Any, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise WebNNTypeError(f"{what} must be a BigInt.")
    return int(v)


def _convert_string(v: Any, what: str) -> str:
    if not isinstance(v, str):
        raise WebNNTypeError(f"{what} must be a string.")
    return v


def _enum_converter(name: str) -> Callable[[Any, str], Any]:
    values = idl_model()["enums"][name]

    def conv(v, what):
        if v not in values:
            raise WebNNTypeError(f"{what}: '{v}' is not a valid value for enumeration {name}.")
        return v

    return conv


def _sequence_converter(of: dict) -> Callable[[Any, str], list]:
    lo, hi = INT_RANGES.get(of["t"], (None, None))
    plain_ints = lo is not None and not of.get("nullable")

    def conv(v, what):
        if isinstance(v, (str, bytes, dict)) or not hasattr(v, "__iter__"):
            raise WebNNTypeError(f"{what} must be a sequence.")
        if plain_ints:  # the common case (shapes, strides, axes): ints that every rule keeps as they are
            out = list(v)
            if all(x.__class__ is int and lo <= x <= hi for x in out):
                return out
            v = out
        return [convert(of, x, f"{what}[{i}]") for i, x in enumerate(v)]

    return conv


def _convert_record(of: dict, v: Any, what: str) -> dict:
    if not isinstance(v, dict):
        raise WebNNTypeError(f"{what} must be an object.")
    return {str(k): convert(of, x, f"{what}['{k}']") for k, x in v.items()}


def _convert_iface(name: str, v: Any, what: str) -> Any:
    pred = _interfaces.get(name)
    if pred is None or not pred(v):
        raise WebNNTypeError(f"{what} is not of type {name}.")
    return v


def _convert_buffer(v: Any, what: str) -> Any:
    if isinstance(v, (bytes, bytearray, memoryview, np.ndarray)):
        return v
    raise WebNNTypeError(f"{what} is not an ArrayBuffer or ArrayBufferView.")


def _int_converter(t: dict) -> Callable[[Any, str], int]:
    lo, hi = INT_RANGES[t["t"]]

    def conv(v, what):
        if v.__class__ is int and lo <= v <= hi:  # the common case: every rule keeps it as it is
            return v
        return _convert_int(t, v, what)

    return conv


def _convert_int(t: dict, v: Any, what: str) -> int:
    lo, hi = INT_RANGES[t["t"]]
    if v.__class__ is int and lo <= v <= hi:  # the common case: every rule below keeps it as it is
        return v
    if isinstance(v, bool):
        v = int(v)
    if not _is_number(v):
        raise WebNNTypeError(f"{what} must be a number.")
    f = to_double(v) if not isinstance(v, (int, np.integer)) else None
    if t.get("enforceRange"):
        if f is not None:
            if not math.isfinite(f):
                raise WebNNTypeError(f"{what} must be a finite number.")
            v = math.trunc(f)
        v = int(v)
        if v < lo or v > hi:
            raise WebNNTypeError(f"{what} ({v}) is outside the range {lo}..{hi}.")
        return v
    if f is not None:
        if not math.isfinite(f):
            return 0
        v = math.trunc(f)
    v = int(v)
    if t.get("clamp"):
        return min(max(v, lo), hi)
    span = hi - lo + 1
    v = (v - lo) % span + lo if lo < 0 else v % span
    return v


def _convert_union(t: dict, v: Any, what: str) -> Any:
    kinds = [m["t"] for m in t["of"]]
    # MLNumber = (bigint or unrestricted double): ints from a BigInt stay exact
    if isinstance(v, (int, np.integer)) and not isinstance(v, bool) and "bigint" in kinds:
        return int(v)
    for m in t["of"]:
        try:
            return convert(m, v, what)
        except WebNNTypeError:
            continue
    raise WebNNTypeError(f"{what} does not match any of the union's types.")


@functools.cache
def dictionary_members(name: str) -> tuple[dict, ...]:
    d = idl_model()["dictionaries"][name]
    inherited = dictionary_members(d["inherits"]) if d["inherits"] else ()
    return inherited + tuple(d["members"])


def convert_dictionary(name: str, v: Any, what: str) -> dict:
    if v is None or v is UNDEFINED:
        v = {}
    if not isinstance(v, dict):
        raise WebNNTypeError(f"{what} must be a dictionary ({name}).")
    out: dict[str, Any] = {}
    for key, t, required, default in _members(name):
        x = v.get(key)
        if x is not None and x is not UNDEFINED:
            hit = _CONVERTERS.get(id(t))
            out[key] = (hit[1] if hit is not None else _converter(t))(x, f"{what}.{key}")
        elif required:
            raise WebNNTypeError(f"{what}: required member '{key}' is missing from {name}.")
        elif default is not None:
            out[key] = default if not isinstance(default, (dict, list)) else type(default)()
    return out


@functools.cache
def _members(name: str) -> tuple[tuple[str, dict, bool, Any], ...]:
    """A dictionary's members as (name, type, required, default)."""
    return tuple((m["name"], m["type"], m["required"], m["default"]) for m in dictionary_members(name))


# --------------------------------------------------------------------------- calls


def operations(interface: str) -> dict[str, list[dict]]:
    return idl_model()["interfaces"][interface]["operations"]


def resolve_overload(interface: str, op: str, args: list) -> dict:
    """A small version of WebIDL overload resolution: by argument count, then by the first
    argument whose type distinguishes the candidates."""
    overloads, longest = _overloads(interface, op)
    if overloads is None:
        raise WebNNTypeError(f"{interface}.{op} is not a function.")
    # WebIDL: arguments beyond the longest overload are ignored
    n = min(len(args), longest)
    while n > 0 and args[n - 1] is UNDEFINED:
        n -= 1
    candidates = [o for o, accepts in overloads if accepts(n)]
    if not candidates:
        overloads = [o for o, _ in overloads]
        need = min(sum(1 for a in o["args"] if not a["optional"]) for o in overloads)
        raise WebNNTypeError(f"{interface}.{op}: {need} argument(s) required, but only {n} present.")
    if len(candidates) == 1:
        return candidates[0]
    for i in range(n):
        matching = [o for o in candidates if i < len(o["args"]) and _plausible(o["args"][i]["type"], args[i])]
        if len(matching) == 1:
            return matching[0]
        if matching:
            candidates = matching
    return candidates[0]


_OVERLOADS: dict[tuple[str, str], tuple[list[tuple[dict, Callable[[int], bool]]], int]] = {}


def _overloads(interface: str, op: str) -> tuple[list[tuple[dict, Callable[[int], bool]]] | None, int]:
    """An operation's overloads, each with whether it takes n arguments, and the most any takes
    (worked out once per operation of the IDL; a name it lacks is not kept)."""
    hit = _OVERLOADS.get((interface, op))
    if hit is not None:
        return hit
    overloads = operations(interface).get(op)
    if overloads is None:
        return None, 0
    hit = _OVERLOADS[interface, op] = [(o, _count_check(o)) for o in overloads], max(len(o["args"]) for o in overloads)
    return hit


def _count_check(o: dict) -> Callable[[int], bool]:
    if any(a["variadic"] for a in o["args"]):
        return lambda n: True
    required = sum(1 for a in o["args"] if not a["optional"])
    return lambda n: required <= n <= len(o["args"])


def _plausible(t: dict, v: Any) -> bool:
    k = t["t"]
    if k == "union":
        return any(_plausible(m, v) for m in t["of"])
    if k == "iface":
        pred = _interfaces.get(t["name"])
        return bool(pred and pred(v))
    if k == "buffer":
        return isinstance(v, (bytes, bytearray, memoryview, np.ndarray))
    if k == "dict":
        return v is None or v is UNDEFINED or isinstance(v, dict)
    if k == "enum":
        return isinstance(v, str)
    return True


def convert_args(interface: str, op: str, args: list) -> tuple[dict, dict[str, Any]]:
    """Convert a call's positional arguments; returns (overload, {arg name: converted value})."""
    args = list(args)
    overload = resolve_overload(interface, op, args)
    out: dict[str, Any] = {}
    for i, spec in enumerate(overload["args"]):
        what = f"{interface}.{op}: argument '{spec['name']}'"
        v = args[i] if i < len(args) else UNDEFINED
        if v is UNDEFINED and spec["type"]["t"] != "dict":
            if not spec["optional"]:
                raise WebNNTypeError(f"{what} is required.")
            out[spec["name"]] = spec["default"]
            continue
        out[spec["name"]] = convert(spec["type"], v, what)
    return overload, out
