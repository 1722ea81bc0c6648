"""Element-wise binary arithmetic: add, sub, mul, div, max, min, pow.

Spec: a and b any data type (the same), ranks 0..N, bidirectional broadcasting; output has a's
data type and the broadcast shape.
"""

from __future__ import annotations

import numpy as np

from ..core import DATA_TYPES, FLOAT_TYPES, broadcast_shapes
from ..registry import Call, Limits, OpDef, attach_coreml, attach_litert, attach_torch, register, same_as
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


def lower_int_pow(lb, a: str, b: str) -> str:
    """Integer pow as the reference's ``_pow``: the low bits of the exact power, by
    square-and-multiply that wraps like integer mul (in int32 for types of up to 32 bits, in int64
    for 64-bit ones: the low bits of every narrower type come out right). ONNX Runtime has no
    int8/uint8/uint32/uint64 Pow kernels and its int32/int64 ones leave overflow undefined.
    One unrolled step per bit of the exponent's type; negative exponents truncate toward zero
    (1 for base 1, +/-1 for base -1, else 0)."""
    dt = lb.dtype(a)
    unsigned = dt.startswith("u")
    width = np.dtype(DATA_TYPES[dt].numpy).itemsize * 8
    wt = "int64" if width == 64 else "int32"  # the products' type
    et = ("u" if unsigned else "") + wt  # the exponent's: every value of the operand type fits
    bits = width - (0 if unsigned else 1)
    base = lb.cast(a, wt)  # an unsigned value reinterpreted: the same bits, the same products' low bits
    e = lb.cast(b, et)
    if not unsigned:
        e = lb.node("Max", [e, lb.scalar(0, et)])
    one, two = lb.scalar(1, et), lb.scalar(2, et)
    result = lb.scalar(1, wt)
    for k in range(bits):
        bit = lb.node("Equal", [lb.node("Mod", [e, two]), one], dtype="bool")
        result = lb.node("Where", [bit, lb.node("Mul", [result, base]), result], dtype=wt)
        if k + 1 < bits:
            base = lb.node("Mul", [base, base])
            e = lb.node("Div", [e, two])
    if not unsigned:
        wa, wb = lb.cast(a, wt), lb.cast(b, wt)
        zero, one_w = lb.scalar(0, wt), lb.scalar(1, wt)
        odd = lb.node("Not", [lb.node("Equal", [lb.node("Mod", [wb, lb.scalar(2, wt)]), zero], dtype="bool")],
                      dtype="bool")
        minus = lb.node("Where", [odd, lb.scalar(-1, wt), one_w], dtype=wt)
        neg = lb.node("Where", [lb.node("Equal", [wa, one_w], dtype="bool"), one_w,
                                lb.node("Where", [lb.node("Equal", [wa, lb.scalar(-1, wt)], dtype="bool"),
                                                  minus, zero], dtype=wt)], dtype=wt)
        result = lb.node("Where", [lb.node("Less", [wb, zero], dtype="bool"), neg, result], dtype=wt)
    return lb.cast(result, dt)  # the first step's Where broadcast a's and b's shapes


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
            return [lower_int_pow(lb, call["a"], call["b"])]
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


# LiteRT lowerings (backends/litert.py): float32, numpy broadcasting
_LITERT = {"add": "ADD", "sub": "SUB", "mul": "MUL", "div": "DIV", "max": "MAXIMUM", "min": "MINIMUM"}
attach_litert({n: (lambda code: lambda lt, call: [lt.elementwise(getattr(lt.ops, code), [call["a"], call["b"]])])(c)
               for n, c in _LITERT.items()})
