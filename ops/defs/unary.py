"""Element-wise unary operators whose whole definition is one table row.

Each row: allowed input types (output has the input's type and shape), required types,
numpy reference, and the ONNX lowering (an op name, or a function for decompositions).
"""

from __future__ import annotations

import math

import numpy as np

from ..core import ALL_TYPES, FLOAT_TYPES
from ..registry import Call, Limits, OpDef, register, same_as
from ._common import in_float32

SIGNED = ("float32", "float16", "int32", "int64", "int8")
REQ_SIGNED = ("float32", "float16", "int32")

_erf = np.vectorize(math.erf, otypes=[np.float64])


def _gelu(x):
    return 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)))


def _lower_gelu(lb, x):
    # 0.5 * x * (1 + erf(x / sqrt(2))) in the input's type
    dt = lb.dtype(x)
    half, one, rsqrt2 = (lb.scalar(v, dt) for v in (0.5, 1.0, 1 / math.sqrt(2.0)))
    e = lb.node("Erf", [lb.node("Mul", [x, rsqrt2])])
    return lb.node("Mul", [lb.node("Mul", [x, half]), lb.node("Add", [e, one])])


def _lower_relu(lb, x):
    # ONNX Runtime's CPU Relu has no int64/int32 kernels: max(x, 0) is the same function
    if lb.dtype(x) in ("float32", "float16"):
        return lb.node("Relu", [x])
    return lb.node("Max", [x, lb.scalar(0, lb.dtype(x))])


def _hard_swish(x):
    return x * np.clip(x + 3.0, 0.0, 6.0) / 6.0


_ROWS = {
    # name: (allowed, required, numpy fn, onnx op or lowering fn, ulp tolerance for float32)
    "abs": (SIGNED, REQ_SIGNED, np.abs, "Abs", 0),
    "neg": (SIGNED, REQ_SIGNED, np.negative, "Neg", 0),
    "sign": (SIGNED, REQ_SIGNED, np.sign, "Sign", 0),
    "identity": (ALL_TYPES, ("float32", "float16", "int32"), lambda x: x.copy(), "Identity", 0),
    "relu": (SIGNED, FLOAT_TYPES, lambda x: np.maximum(x, x.dtype.type(0)), _lower_relu, 0),
    "ceil": (FLOAT_TYPES, FLOAT_TYPES, np.ceil, "Ceil", 0),
    "floor": (FLOAT_TYPES, FLOAT_TYPES, np.floor, "Floor", 0),
    "roundEven": (FLOAT_TYPES, FLOAT_TYPES, np.round, "Round", 0),
    "cos": (FLOAT_TYPES, FLOAT_TYPES, np.cos, "Cos", 2),
    "sin": (FLOAT_TYPES, FLOAT_TYPES, np.sin, "Sin", 2),
    "tan": (FLOAT_TYPES, FLOAT_TYPES, np.tan, "Tan", 2),
    "erf": (FLOAT_TYPES, FLOAT_TYPES, _erf, "Erf", 2),
    "exp": (FLOAT_TYPES, FLOAT_TYPES, np.exp, "Exp", 32),
    "log": (FLOAT_TYPES, FLOAT_TYPES, np.log, "Log", 8),
    "sqrt": (FLOAT_TYPES, FLOAT_TYPES, np.sqrt, "Sqrt", 1),
    "reciprocal": (FLOAT_TYPES, FLOAT_TYPES, lambda x: 1.0 / x, "Reciprocal", 2),
    "sigmoid": (FLOAT_TYPES, FLOAT_TYPES, lambda x: 1.0 / (1.0 + np.exp(-x)), "Sigmoid", 34),
    "tanh": (FLOAT_TYPES, FLOAT_TYPES, np.tanh, "Tanh", 16),
    "softplus": (FLOAT_TYPES, FLOAT_TYPES, lambda x: np.logaddexp(0.0, x), "Softplus", 18),
    "softsign": (FLOAT_TYPES, FLOAT_TYPES, lambda x: x / (1.0 + np.abs(x)), "Softsign", 3),
    "gelu": (FLOAT_TYPES, FLOAT_TYPES, _gelu, _lower_gelu, 18),
    "hardSwish": (FLOAT_TYPES, FLOAT_TYPES, _hard_swish, "HardSwish", 4),
}


def _infer(call: Call):
    return [call["input"]]


def _make(name, allowed, required, fn, lowering, ulp) -> OpDef:
    def reference(call: Call):
        x = call["input"]
        with np.errstate(all="ignore"):
            if x.dtype.kind == "f":
                return [in_float32(fn)(x)]
            return [np.asarray(fn(x)).astype(x.dtype)]

    def lower(lb, call: Call):
        if callable(lowering):
            return [lowering(lb, call["input"])]
        return [lb.node(lowering, [call["input"]])]

    return OpDef(
        name=name,
        limits={
            "input": Limits(types=tuple(allowed), required_types=tuple(required), required_ranks=(0, 5)),
            "output": same_as("input"),
        },
        infer=_infer,
        reference=reference,
        lower=lower,
        tolerance=("ulp", ulp),
        doc=f"Element-wise {name}.",
    )


register(*(_make(n, *row) for n, row in _ROWS.items()))
