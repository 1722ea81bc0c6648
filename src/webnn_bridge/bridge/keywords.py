"""Python ergonomics of MLGraphBuilder: builder.softmax(x, axis=1), builder.conv2d(x, w,
strides=[2, 2]). Keyword arguments name the IDL arguments, and any other keyword is a member of
the options dictionary; the methods carry signatures (inspect.signature, help()) derived from
the IDL."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from webnn_bridge.ops import idl
from webnn_bridge.ops.calls import is_options
from webnn_bridge.ops.core import WebNNTypeError
from webnn_bridge.ops.registry import load_all


def _overload(op: str, n_positional: int, kwargs: Mapping[str, Any]) -> dict:
    """The IDL overload a Python call means: the first one with room for its positional
    arguments whose argument names include every keyword that is not an option."""
    overloads = idl.operations("MLGraphBuilder")[op]
    for ov in overloads:
        names = [a["name"] for a in ov["args"]]
        has_options = bool(ov["args"]) and is_options(ov["args"][-1])
        if n_positional <= len(names) and (has_options or set(kwargs) <= set(names)):
            return ov
    return overloads[-1]


def _option_names(ov: dict) -> list[str]:
    last = ov["args"][-1] if ov["args"] else None
    if last is None or not is_options(last):
        return []
    return [m["name"] for m in idl.dictionary_members(last["type"]["name"])]


def bind_keywords(op: str, args: tuple, kwargs: Mapping[str, Any]) -> list:
    """Positional IDL arguments for a Python call with keywords (see above)."""
    if not kwargs:
        return list(args)
    ov = _overload(op, len(args), kwargs)
    specs = ov["args"]
    out = list(args) + [idl.UNDEFINED] * (len(specs) - len(args))
    options = dict(kwargs.pop("options", None) or {}) if "options" in kwargs else {}
    allowed = _option_names(ov)
    for key, value in kwargs.items():
        pos = next((i for i, a in enumerate(specs) if a["name"] == key and a["name"] != "options"), None)
        if pos is not None:
            if pos < len(args):
                raise WebNNTypeError(f"{op}() got argument '{key}' twice.")
            out[pos] = value
        elif key in allowed:
            options[key] = value
        else:
            known = [a["name"] for a in specs if a["name"] != "options"] + allowed
            raise WebNNTypeError(f"{op}() has no argument or option '{key}' (it takes: {', '.join(known)}).")
    if options:
        out[len(specs) - 1] = options
    while out and out[-1] is idl.UNDEFINED:
        out.pop()
    return out


@functools.cache
def _method_meta(op: str) -> tuple:
    """(signature, docstring) of builder method ``op``, derived from its longest IDL overload once."""
    import inspect

    ov = max(idl.operations("MLGraphBuilder")[op], key=lambda o: len(o["args"]))
    params = []
    for a in ov["args"]:
        if is_options(a):
            params.append(inspect.Parameter("options", inspect.Parameter.VAR_KEYWORD))
        else:
            default = inspect.Parameter.empty if not a["optional"] else a["default"]
            params.append(inspect.Parameter(a["name"], inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default))
    opdef = load_all().get(op)
    options = _option_names(ov)
    doc = ((opdef.doc if opdef is not None and opdef.doc else f"MLGraphBuilder.{op}()")
           + (f"\n\nOptions (keywords): {', '.join(options)}." if options else ""))
    return inspect.Signature(params), doc


def operator_method(builder: Any, op: str):
    """Builder method ``op`` of an MLGraphBuilder (bridge/api.py), with keywords and a signature."""
    def method(*args, **kwargs):
        return builder._op(op, tuple(bind_keywords(op, args, dict(kwargs))))

    method.__name__ = op
    method.__qualname__ = f"MLGraphBuilder.{op}"
    method.__signature__, method.__doc__ = _method_meta(op)  # type: ignore[attr-defined]
    return method
