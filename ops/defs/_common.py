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


# ONNX Runtime's CPU Max/Min (and Clip) kernels compare int64 values wrongly when the low 32-bit
# words differ in their top bit (e.g. Max(2147483648, 5) == 5 and Max(-4147483648, -2) ==
# -4147483648 with onnxruntime 1.31), so int64 maximum/minimum are lowered to Less/Greater +
# Where, which compare correctly.


def lower_max(lb, a: str, b: str) -> str:
    dt = lb.dtype(a)
    if dt == "int64":
        return lb.node("Where", [lb.node("Less", [a, b], dtype="bool"), b, a], dtype=dt)
    return lb.node("Max", [a, b])


def lower_min(lb, a: str, b: str) -> str:
    dt = lb.dtype(a)
    if dt == "int64":
        return lb.node("Where", [lb.node("Greater", [a, b], dtype="bool"), b, a], dtype=dt)
    return lb.node("Min", [a, b])


def lower_sigmoid(lb, x: str) -> str:
    """sigmoid(x) in float32, accurate to a few ULP over the whole range. ONNX Runtime's Sigmoid
    kernel is an approximation (about 200 ULP off near x = -6, and 0 below x = -16.4 where the true
    value is still a normal float). With e = exp(-|x|) and s = 1 / (1 + e):
    sigmoid(x) = s for x >= 0 and e * s for x < 0, with no cancellation on either side."""
    x = lower_f32(lb, x)
    e = lb.node("Exp", [lb.node("Neg", [lb.node("Abs", [x])])])
    s = lb.node("Div", [lb.scalar(1.0, "float32"), lb.node("Add", [lb.scalar(1.0, "float32"), e])])
    nonneg = lb.node("GreaterOrEqual", [x, lb.scalar(0.0, "float32")], dtype="bool")
    return lb.node("Where", [nonneg, s, lb.node("Mul", [e, s])], dtype="float32")


def lower_expm1(lb, x: str) -> str:
    """exp(x) - 1 in float32 without the cancellation near 0 (ONNX has no Expm1): with
    t = tanh(x / 2), expm1(x) = 2t / (1 - t) exactly, and 1 - t is in (0, 2] with no cancellation
    for x <= 0 (the only side this is used on)."""
    x = lower_f32(lb, x)
    t = lb.node("Tanh", [lb.node("Mul", [x, lb.scalar(0.5, "float32")])])
    return lb.node("Div", [lb.node("Add", [t, t]), lb.node("Sub", [lb.scalar(1.0, "float32"), t])])


# --------------------------------------------------------------------------- exact 64-bit integers

INT64_MIN = np.int64(-(2**63))


def ordered_int64(lb, x):
    """uint64 -> int64 with the order preserved (flip the sign bit); undo with from_ordered."""
    return lb.node("Add", [lb.cast(x, "int64"), lb.scalar(INT64_MIN, "int64")])


def from_ordered(lb, v):
    return lb.cast(lb.node("Sub", [v, lb.scalar(INT64_MIN, "int64")]), "uint64")


def int64_extreme(lb, x, name, shape, axes, keep):
    """reduceMax/reduceMin of int64 values. ONNX Runtime's int64 ReduceMax/ReduceMin compare
    wrongly when the low 32-bit words differ in their top bit (ReduceMax([2147483648, 5]) == 5 with
    onnxruntime 1.31); ArgMax/ArgMin are right, so each axis is reduced by picking the element at
    the arg index."""
    arg = "ArgMax" if name == "reduceMax" else "ArgMin"
    for ax in axes:
        idx = lb.node(arg, [x], dtype="int64", axis=int(ax), keepdims=1, select_last_index=0)
        x = lb.node("GatherElements", [x, idx], dtype="int64", axis=int(ax))
    if keep:
        return x
    out_shape = [d for i, d in enumerate(shape) if i not in set(axes)]
    return lb.node("Reshape", [x, lb.ints(out_shape)], dtype="int64")
