"""Element-wise binary arithmetic: add, sub, mul, div, max, min, pow.

Spec: a and b any data type (the same), ranks 0..N, bidirectional broadcasting; output has a's
data type and the broadcast shape.
"""

from __future__ import annotations

import numpy as np

from ..core import FLOAT_TYPES, broadcast_shapes
from ..registry import Call, Limits, OpDef, attach_coreml, attach_torch, register, same_as
from ._common import in_float32, lower_max, lower_min, torch_int_div, torch_int_pow, torch_max, torch_min


def _int_div(a, b):
    if a.dtype.kind == "f":
        return a / b
    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.floor_divide(a, b)
        r = a - q * b
        # ONNX/C semantics: truncate towards zero
        fix = (r != 0) & ((a < 0) != (b < 0))
        return (q + fix.astype(q.dtype)).astype(a.dtype)


def _pow(a, b):
    """Integer pow truncates the real result toward zero: a negative exponent gives 0, except for
    bases 1 and -1 (and 0 to a negative power is 0, where the real result is infinite).
    Overflow keeps the low bits. The spec leaves these cases to the implementation."""
    if a.dtype.kind == "f":
        with np.errstate(all="ignore"):
            return np.power(a, b)
    b = b.astype(a.dtype)
    with np.errstate(all="ignore"):
        pos = np.power(a, np.where(b < 0, 0, b).astype(a.dtype))
    if a.dtype.kind == "u":
        return pos
    odd = (b % 2) != 0
    neg = np.where(a == 1, 1, np.where(a == -1, np.where(odd, -1, 1), 0)).astype(a.dtype)
    return np.where(b < 0, neg, pos).astype(a.dtype)


_TABLE = {
    # name: (numpy function, ONNX op)
    "add": (np.add, "Add"),
    "sub": (np.subtract, "Sub"),
    "mul": (np.multiply, "Mul"),
    "div": (_int_div, "Div"),
    "max": (np.maximum, "Max"),
    "min": (np.minimum, "Min"),
    "pow": (_pow, "Pow"),
}

LIMITS = {
    "a": Limits(required_types=FLOAT_TYPES + ("int32",), required_ranks=(0, 5)),
    "b": same_as("a", same_rank=False),
    "output": same_as("a", same_rank=False),
}


def infer(call: Call):
    a, b = call["a"], call["b"]
    return [a.with_shape(broadcast_shapes(a.shape, b.shape))]


def lower_pow_via_double(lb, a: str, b: str) -> str:
    """Integer pow (ONNX Runtime has no int8/uint8/uint32/uint64 Pow kernels, and its int32/int64
    ones leave overflow undefined) through float64, exact while results stay below 2^53, then
    int64, then the operand's type: the last step keeps the low bits, as integer overflow does.
    Negative exponents truncate toward zero (0.5 -> 0, (-1)^-3 -> -1); 0 to a negative power,
    infinite in float64, is made 0 as in the reference."""
    from onnx import TensorProto

    da, db = (lb.node("Cast", [v], dtype="float64", to=TensorProto.DOUBLE) for v in (a, b))
    p = lb.node("Pow", [da, db], dtype="float64")
    if not lb.dtype(a).startswith("u"):
        zero = lb.const(np.array(0.0, np.float64))
        inf_case = lb.node("And", [lb.node("Equal", [da, zero], dtype="bool"),
                                   lb.node("Less", [db, zero], dtype="bool")], dtype="bool")
        p = lb.node("Where", [inf_case, zero, p], dtype="float64")
    wide = lb.node("Cast", [p], dtype="int64", to=TensorProto.INT64)
    return lb.cast(wide, lb.dtype(a))


def _make(name: str, fn, onnx_op: str) -> OpDef:
    def reference(call: Call):
        a, b = call["a"], call["b"]
        with np.errstate(all="ignore"):
            return [in_float32(fn)(a, b)]

    def lower(lb, call: Call):
        if onnx_op == "Max":
            return [lower_max(lb, call["a"], call["b"])]
        if onnx_op == "Min":
            return [lower_min(lb, call["a"], call["b"])]
        if onnx_op == "Pow" and lb.dtype(call["a"]) not in FLOAT_TYPES:
            return [lower_pow_via_double(lb, call["a"], call["b"])]
        return [lb.node(onnx_op, [call["a"], call["b"]])]

    return OpDef(
        name=name,
        limits=LIMITS,
        infer=infer,
        reference=reference,
        lower=lower,
        tolerance=("ulp", 1 if name in ("div", "pow") else 0),
        doc=f"Element-wise {name} with bidirectional broadcasting.",
    )


register(*(_make(n, fn, op) for n, (fn, op) in _TABLE.items()))


# Core ML (MIL) lowerings: the MIL element-wise op with the same broadcasting. int8/uint8 (add, sub,
# mul, max, min): computed in int32, where no such result overflows, then wrapped to 8 bits as the
# reference's arithmetic does; div and pow are left out for them.
_MIL = {"add": "add", "sub": "sub", "mul": "mul", "div": "real_div", "max": "maximum", "min": "minimum", "pow": "pow"}
_MIL_8BIT = ("add", "sub", "mul", "max", "min")


def _mil_binary(op: str):
    def lower(mb, call: Call):
        a = call["a"]
        return [mb.wrap(getattr(mb, op)(x=mb.wide(a), y=mb.wide(call["b"])), mb.webnn_type(a))]

    return lower


attach_coreml({n: _mil_binary(op) for n, op in _MIL.items() if n not in _MIL_8BIT})
attach_coreml({n: _mil_binary(_MIL[n]) for n in _MIL_8BIT}, types=FLOAT_TYPES + ("int32", "int8", "uint8"))


# PyTorch lowerings: floats in float32 (float16 widened, rounded once by the backend); integers in
# int64, where add/sub/mul keep the low bits the backend wraps back to the operand's width (uint64's
# int64 bits are exact as they are); max/min of uint64 compare in order; div and pow as the reference.
def _torch_binary(name: str):
    def lower(tb, call: Call):
        a, b = call["a"], call["b"]
        dt = tb.type(a)
        torch = tb.torch
        if dt in FLOAT_TYPES:
            a, b = tb.f32(a), tb.f32(b)
            fn = {"add": torch.add, "sub": torch.sub, "mul": torch.mul, "div": torch.div, "max": torch.maximum,
                  "min": torch.minimum, "pow": torch.pow}[name]
            return [fn(a, b)]
        if name == "max":
            return [torch_max(tb, a, b, dt)]
        if name == "min":
            return [torch_min(tb, a, b, dt)]
        if name == "div":
            return [torch_int_div(tb, a, b, dt)]
        if name == "pow":
            return [torch_int_pow(tb, a, b, dt)]
        a, b = tb.wide(a), tb.wide(b)
        return [{"add": torch.add, "sub": torch.sub, "mul": torch.mul}[name](a, b)]

    return lower


attach_torch({n: _torch_binary(n) for n in _TABLE})
