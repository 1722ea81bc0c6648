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


# --------------------------------------------------------------------------- PyTorch lowering helpers
# (backends/torch.py: operands are torch tensors in their storage types; ``tb`` is its TorchBuilder)


def torch_max(tb, a, b, data_type: str):
    """Element-wise maximum of two operands of ``data_type`` (uint64 compared in order)."""
    if data_type == "uint64":
        return tb.unordered(tb.torch.maximum(tb.ordered(a, data_type), tb.ordered(b, data_type)), data_type)
    return tb.torch.maximum(a, b)


def torch_min(tb, a, b, data_type: str):
    if data_type == "uint64":
        return tb.unordered(tb.torch.minimum(tb.ordered(a, data_type), tb.ordered(b, data_type)), data_type)
    return tb.torch.minimum(a, b)


def torch_int_div(tb, a, b, data_type: str):
    """Integer division as the reference's _int_div: truncation toward zero; a zero divisor gives
    1 for a negative dividend and 0 otherwise; INT64_MIN / -1 wraps. uint64 is unsigned division on
    the int64 bits. Never raises (PyTorch's integer division by zero does, and INT64_MIN / -1 traps)."""
    torch = tb.torch
    a, b = tb.wide(a), tb.wide(b)
    zero = b == 0
    if data_type == "uint64":
        q = _torch_udiv64(tb, a, torch.where(zero, 1, b))
        return torch.where(zero, 0, q)
    safe = torch.where(zero | (b == -1), 1, b)
    q = torch.div(a, safe, rounding_mode="trunc")
    q = torch.where(b == -1, -a, q)
    return torch.where(zero, (a < 0).to(a.dtype), q)


def _torch_udiv64(tb, n, d):
    """Unsigned 64-bit n // d on int64 bits (d != 0): divisors below 2^63 through the halved
    dividend (Hacker's Delight), at or above 2^63 the quotient is 0 or 1."""
    torch = tb.torch
    big = d < 0  # d >= 2^63
    d_small = torch.where(big, 1, d)
    half = (n >> 1) & 0x7FFFFFFFFFFFFFFF  # n // 2, logical shift
    q = torch.div(half, d_small, rounding_mode="floor") << 1
    r = n - q * d_small
    q = q + (tb.ordered(r, "uint64") >= tb.ordered(d_small, "uint64")).to(torch.int64)
    q_big = (tb.ordered(n, "uint64") >= tb.ordered(d, "uint64")).to(torch.int64)
    return torch.where(big, q_big, q)


def torch_int_pow(tb, a, b, data_type: str):
    """Integer pow as the reference's _pow: low bits of the exact power (square-and-multiply in
    int64, which wraps mod 2^64: every narrower type's low bits are right), negative exponents
    truncated (1 for base 1, +/-1 for base -1, else 0). 64 fixed steps: no host synchronisation."""
    torch = tb.torch
    a, b = tb.wide(a), tb.wide(b)
    e = b if data_type in ("uint64",) else torch.where(b < 0, 0, b)
    result = torch.ones_like(a)
    base = a
    for _ in range(64):
        result = torch.where((e & 1) == 1, result * base, result)
        base = base * base
        e = (e >> 1) & 0x7FFFFFFFFFFFFFFF
    if data_type.startswith("u"):
        return result
    odd = (b & 1) != 0
    neg = torch.where(a == 1, 1, torch.where(a == -1, torch.where(odd, -1, 1), 0))
    return torch.where(b < 0, neg, result)
