"""Small helpers shared by op definitions (numpy reference precision, option defaults)."""

from __future__ import annotations

import numpy as np

from ..core import DATA_TYPES


def in_float32(fn):
    """Run a float reference in float32 when the input is float16, then round back (as WPT expects)."""

    def wrapped(*arrays, **kw):
        dt = arrays[0].dtype
        if dt == np.float16:
            arrays = tuple(a.astype(np.float32) if a.dtype == np.float16 else a for a in arrays)
            return np.asarray(fn(*arrays, **kw)).astype(np.float16)
        return np.asarray(fn(*arrays, **kw)).astype(dt, copy=False)

    return wrapped


def np_dtype(name: str) -> np.dtype:
    return DATA_TYPES[name].numpy


def onnx_type(name: str) -> int:
    return DATA_TYPES[name].onnx


# --------------------------------------------------------------------------- helpers added for the
# data-movement / reduction / normalization / RNN families (backward compatible additions)


def dtype_name(v) -> str:
    """Data type name of an OperandDesc or a numpy array."""
    dt = getattr(v, "data_type", None)
    if dt is not None:
        return dt
    for name, d in DATA_TYPES.items():
        if d.numpy == v.dtype:
            return name
    raise TypeError(f"no WebNN data type for {v!r}")


def shape_of(v) -> tuple:
    return tuple(v.shape)


def f32(a: np.ndarray) -> np.ndarray:
    """float16 -> float32 (other types unchanged): the precision a float reference computes in."""
    return a.astype(np.float32) if a.dtype == np.float16 else a


def lower_f32(lb, *values):
    """ONNX lowering counterpart of f32(): cast float16 values to float32, leave others."""
    out = [lb.cast(v, "float32") if lb.dtype(v) == "float16" else v for v in values]
    return out[0] if len(out) == 1 else out


def ulp(n: int, f16: int | None = None):
    """Tolerance helper: ('ulp', n), with an optional different float16 value."""
    if f16 is None:
        return ("ulp", n)

    def tol(call, data_type=None):
        dt = data_type or dtype_name(next(iter(call.args.values())))
        return ("ulp", f16 if dt == "float16" else n)

    return tol
