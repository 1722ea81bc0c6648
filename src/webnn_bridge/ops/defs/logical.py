"""Element-wise comparisons, logical operators, isNaN/isInfinite and where().

Comparisons: a and b of the same (any) type, bidirectional broadcasting, uint8 output (1/0).
Logical ops: uint8 operands, a value is "true" when non-zero. isNaN/isInfinite: any type in,
uint8 out (always 0 for integer types). where: uint8 condition selects trueValue/falseValue,
all three broadcast bidirectionally.
"""

from __future__ import annotations

import numpy as np

from ..core import FLOAT_TYPES, broadcast_shapes
from ..registry import Call, Limits, OpDef, attach_coreml, attach_torch, register, same_as

REQ = FLOAT_TYPES + ("int32",)
U8 = ("uint8",)

_COMPARE = {
    # name: (numpy fn, ONNX op)
    "equal": (np.equal, "Equal"),
    "notEqual": (np.not_equal, None),
    "greater": (np.greater, "Greater"),
    "greaterOrEqual": (np.greater_equal, "GreaterOrEqual"),
    "lesser": (np.less, "Less"),
    "lesserOrEqual": (np.less_equal, "LessOrEqual"),
}


def _infer_binary(call: Call):
    a, b = call["a"], call["b"]
    return [a.with_type("uint8").with_shape(broadcast_shapes(a.shape, b.shape))]


def _infer_unary(call: Call):
    return [call["a"].with_type("uint8")]


def _bool_to_u8(lb, v):
    return lb.node("Cast", [v], dtype="uint8", to=2)


def _make_compare(name, fn, onnx_op):
    def reference(call: Call):
        return [fn(call["a"], call["b"]).astype(np.uint8)]

    def lower(lb, call: Call):
        a, b = call["a"], call["b"]
        if onnx_op is None:  # notEqual
            r = lb.node("Not", [lb.node("Equal", [a, b], dtype="bool")], dtype="bool")
        else:
            r = lb.node(onnx_op, [a, b], dtype="bool")
        return [_bool_to_u8(lb, r)]

    return OpDef(
        name=name,
        limits={
            "a": Limits(required_types=REQ, required_ranks=(0, 5)),
            "b": same_as("a", same_rank=False),
            "output": Limits(types=U8, required_types=U8, required_ranks=(0, 5)),
        },
        infer=_infer_binary,
        reference=reference,
        lower=lower,
        tolerance=("ulp", 0),
        doc=f"Element-wise comparison {name}; uint8 result.",
    )


_LOGICAL = {
    "logicalAnd": (np.logical_and, "And"),
    "logicalOr": (np.logical_or, "Or"),
    "logicalXor": (np.logical_xor, "Xor"),
}


def _to_bool(lb, v):
    return lb.node("Cast", [v], dtype="bool", to=9)


def _make_logical(name, fn, onnx_op):
    def reference(call: Call):
        return [fn(call["a"] != 0, call["b"] != 0).astype(np.uint8)]

    def lower(lb, call: Call):
        r = lb.node(onnx_op, [_to_bool(lb, call["a"]), _to_bool(lb, call["b"])], dtype="bool")
        return [_bool_to_u8(lb, r)]

    return OpDef(
        name=name,
        limits={
            "a": Limits(types=U8, required_types=U8, required_ranks=(0, 5)),
            "b": same_as("a", same_rank=False),
            "output": Limits(types=U8, required_types=U8, required_ranks=(0, 5)),
        },
        infer=_infer_binary,
        reference=reference,
        lower=lower,
        tolerance=("ulp", 0),
        doc=f"Element-wise {name} on uint8 booleans.",
    )


def _logical_not_ref(call: Call):
    return [(call["a"] == 0).astype(np.uint8)]


def _logical_not_lower(lb, call: Call):
    return [_bool_to_u8(lb, lb.node("Not", [_to_bool(lb, call["a"])], dtype="bool"))]


def _make_isx(name, fn, onnx_op):
    def reference(call: Call):
        a = call["a"]
        if a.dtype.kind != "f":
            return [np.zeros(a.shape, np.uint8)]
        return [fn(a).astype(np.uint8)]

    def lower(lb, call: Call):
        a = call["a"]
        if lb.dtype(a) not in FLOAT_TYPES:
            # integers are never NaN or infinite: a zero tensor of a's shape
            zero = lb.node("Mul", [a, lb.scalar(0, lb.dtype(a))])
            return [lb.cast(zero, "uint8")]
        return [_bool_to_u8(lb, lb.node(onnx_op, [a], dtype="bool"))]

    return OpDef(
        name=name,
        limits={
            "a": Limits(required_types=FLOAT_TYPES, required_ranks=(0, 5)),
            "output": Limits(types=U8, required_types=U8, required_ranks=(0, 5)),
        },
        infer=_infer_unary,
        reference=reference,
        lower=lower,
        tolerance=("ulp", 0),
        doc=f"Element-wise {name}; uint8 result.",
    )


# --------------------------------------------------------------------------- where


def _where_infer(call: Call):
    c, t, f = call["condition"], call["trueValue"], call["falseValue"]
    shape = broadcast_shapes(broadcast_shapes(c.shape, t.shape), f.shape)
    return [t.with_shape(shape)]


def _where_ref(call: Call):
    c, t, f = call["condition"], call["trueValue"], call["falseValue"]
    return [np.where(c != 0, t, f).astype(t.dtype)]


def _where_lower(lb, call: Call):
    c, t, f = call["condition"], call["trueValue"], call["falseValue"]
    cond = _to_bool(lb, c)
    return [lb.where(cond, t, f)]


register(
    *(_make_compare(n, fn, op) for n, (fn, op) in _COMPARE.items()),
    *(_make_logical(n, fn, op) for n, (fn, op) in _LOGICAL.items()),
    OpDef(
        name="logicalNot",
        limits={
            "a": Limits(types=U8, required_types=U8, required_ranks=(0, 5)),
            "output": Limits(types=U8, required_types=U8, required_ranks=(0, 5)),
        },
        infer=_infer_unary,
        reference=_logical_not_ref,
        lower=_logical_not_lower,
        tolerance=("ulp", 0),
        doc="Element-wise logical not on uint8 booleans.",
    ),
    _make_isx("isNaN", np.isnan, "IsNaN"),
    _make_isx("isInfinite", np.isinf, "IsInf"),
    OpDef(
        name="where",
        limits={
            "condition": Limits(types=U8, required_types=U8, required_ranks=(0, 5)),
            "trueValue": Limits(required_types=REQ, required_ranks=(0, 5)),
            "falseValue": same_as("trueValue", same_rank=False),
            "output": same_as("trueValue", same_rank=False),
        },
        infer=_where_infer,
        reference=_where_ref,
        lower=_where_lower,
        tolerance=("ulp", 0),
        doc="Select trueValue where condition is non-zero, else falseValue (broadcasting).",
    ),
)


# --------------------------------------------------------------------------- Core ML (MIL)
# MIL's comparisons and logical ops give bool: cast to WebNN's uint8. int8/uint8 operands go through
# int32 (exact) where MIL's element-wise domain lacks them. isNaN is x != x and isInfinite is
# |x| == inf (MIL has neither op); integers are neither.
MIL_TYPES = REQ + ("int8", "uint8")
_MIL_COMPARE = {"equal": "equal", "notEqual": "not_equal", "greater": "greater", "greaterOrEqual": "greater_equal",
                "lesser": "less", "lesserOrEqual": "less_equal"}


def _mil_compare(op: str):
    return lambda mb, call: [mb.to_u8(getattr(mb, op)(x=mb.wide(call["a"]), y=mb.wide(call["b"])))]


def _mil_logical(op: str):
    return lambda mb, call: [mb.to_u8(getattr(mb, op)(x=mb.to_bool(call["a"]), y=mb.to_bool(call["b"])))]


def _mil_is_nan(mb, call: Call):
    a = mb.wide(call["a"])
    return [mb.to_u8(mb.not_equal(x=a, y=a))]


def _mil_is_infinite(mb, call: Call):
    a = mb.wide(call["a"])
    if not mb.is_float(a):
        return [mb.to_u8(mb.not_equal(x=a, y=a))]
    return [mb.to_u8(mb.equal(x=mb.abs(x=a), y=mb.scalar(np.inf, like=a)))]


def _mil_where(mb, call: Call):
    """MIL's select broadcasts only its two values: a larger condition widens trueValue first."""
    c, t, f = call["condition"], call["trueValue"], call["falseValue"]
    shape = broadcast_shapes(broadcast_shapes(c.shape, t.shape), f.shape)
    a = mb.wide(t) if broadcast_shapes(t.shape, f.shape) == shape else mb.broadcast_to(mb.wide(t), shape)
    r = mb.select(cond=mb.to_bool(c), a=a, b=mb.wide(f))
    return [mb.narrow(r, mb.webnn_type(t))]


attach_coreml({**{n: _mil_compare(op) for n, op in _MIL_COMPARE.items()},
               "isNaN": _mil_is_nan, "isInfinite": _mil_is_infinite, "where": _mil_where}, types=MIL_TYPES)
attach_coreml({"logicalAnd": _mil_logical("logical_and"), "logicalOr": _mil_logical("logical_or"),
               "logicalXor": _mil_logical("logical_xor"),
               "logicalNot": lambda mb, call: [mb.to_u8(mb.logical_not(x=mb.to_bool(call["a"])))]}, types=U8)


# --------------------------------------------------------------------------- PyTorch
# bool results (the backend makes them uint8); uint64 ordered comparisons on its int64 bits.
def _torch_compare(name: str):
    def lower(tb, call: Call):
        torch = tb.torch
        a, b = call["a"], call["b"]
        dt = tb.type(a)
        fn = {"equal": torch.eq, "notEqual": torch.ne, "greater": torch.gt, "greaterOrEqual": torch.ge,
              "lesser": torch.lt, "lesserOrEqual": torch.le}[name]
        return [fn(tb.ordered(a, dt), tb.ordered(b, dt))]

    return lower


def _torch_logical(name: str):
    def lower(tb, call: Call):
        torch = tb.torch
        a, b = call["a"] != 0, call["b"] != 0
        return [{"logicalAnd": torch.logical_and, "logicalOr": torch.logical_or,
                 "logicalXor": torch.logical_xor}[name](a, b)]

    return lower


def _torch_isx(fn_name: str):
    def lower(tb, call: Call):
        a = call["a"]
        if not a.is_floating_point():
            return [tb.torch.zeros_like(a, dtype=tb.torch.bool)]
        return [getattr(tb.torch, fn_name)(a)]

    return lower


attach_torch({
    **{n: _torch_compare(n) for n in _COMPARE},
    **{n: _torch_logical(n) for n in _LOGICAL},
    "logicalNot": lambda tb, call: [call["a"] == 0],
    "isNaN": _torch_isx("isnan"),
    "isInfinite": _torch_isx("isinf"),
    "where": lambda tb, call: [tb.torch.where(call["condition"] != 0, call["trueValue"], call["falseValue"])],
})
