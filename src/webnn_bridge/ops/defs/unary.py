"""Element-wise unary operators whose whole definition is one table row.

Each row: allowed input types (output has the input's type and shape), required types,
numpy reference, the ONNX lowering (an op name, or a function for decompositions), the float32
tolerance in ULP, and the PyTorch lowering (a torch function's name, a function, or None: then
PyTorch does not claim the operator, and policy places it on another backend).
"""

from __future__ import annotations

import math

import numpy as np

from ..core import ALL_TYPES, DATA_TYPES, FLOAT_TYPES
from ..registry import Call, Limits, OpDef, attach_coreml, attach_litert, attach_torch, register, same_as
from ._common import in_float32, lower_f32, lower_max, lower_sigmoid

ONNX_DOUBLE = 11  # onnx.TensorProto.DOUBLE

SIGNED = ("float32", "float16", "int32", "int64", "int8")
REQ_SIGNED = ("float32", "float16", "int32")

_erf = np.vectorize(math.erf, otypes=[np.float64])


_erfc = np.vectorize(math.erfc, otypes=[np.float64])

# erfc(z) = t * exp(-z*z + P(t)), t = 1 / (1 + z/2), z >= 0: Numerical Recipes' erfcc (fractional
# error below 1.2e-7), evaluated in float64
_ERFC = (-1.26551223, 1.00002368, 0.37409196, 0.09678418, -0.18628806, 0.27886807, -1.13520398,
         1.48851587, -0.82215223, 0.17087277)


def _gelu(x):
    # 0.5 * x * erfc(-x / sqrt(2)): the same function as 0.5 * x * (1 + erf(x / sqrt(2))) without
    # the cancellation of 1 + erf for negative x; gelu(-Infinity) is -0
    x64 = np.asarray(x, np.float64)
    with np.errstate(invalid="ignore"):
        return np.where(np.isneginf(x64), -0.0, 0.5 * x64 * _erfc(-x64 / math.sqrt(2.0)))


def _lower_gelu(lb, x):
    """x >= 0 (and NaN): 0.5 * x * (1 + erf(x / sqrt(2))) in float32, where 1 + erf >= 1.
    x < 0: 0.5 * x * erfc(-x / sqrt(2)) in float64 with an erfc approximation (ONNX has no Erfc,
    and 1 + erf(x / sqrt(2)) cancels: about 40 ULP off at x = -2, 0 instead of -8e-8 at x = -5.5).
    Both branches are within 2 ULP of the true float32 result."""
    x = lower_f32(lb, x)
    half, one, rsqrt2 = (lb.scalar(v, "float32") for v in (0.5, 1.0, 1 / math.sqrt(2.0)))
    e = lb.node("Erf", [lb.node("Mul", [x, rsqrt2])])
    pos = lb.node("Mul", [lb.node("Mul", [x, half]), lb.node("Add", [e, one])])

    def d(v):
        return lb.const(np.array(v, np.float64))

    xd = lb.node("Max", [lb.node("Cast", [x], dtype="float64", to=ONNX_DOUBLE), d(-40.0)])  # gelu(-40) == -0
    z = lb.node("Mul", [xd, d(-1 / math.sqrt(2.0))])
    t = lb.node("Div", [d(1.0), lb.node("Add", [d(1.0), lb.node("Mul", [z, d(0.5)])])])
    p = d(_ERFC[-1])
    for c in reversed(_ERFC[1:-1]):
        p = lb.node("Add", [d(c), lb.node("Mul", [t, p])])
    arg = lb.node("Add", [lb.node("Sub", [d(_ERFC[0]), lb.node("Mul", [z, z])]), lb.node("Mul", [t, p])])
    erfc = lb.node("Mul", [t, lb.node("Exp", [arg])])
    neg = lb.node("Mul", [lb.node("Mul", [xd, d(0.5)]), erfc])
    neg = lb.node("Cast", [neg], dtype="float32", to=DATA_TYPES["float32"].onnx)
    is_neg = lb.node("Less", [x, lb.scalar(0.0, "float32")], dtype="bool")
    return lb.node("Where", [is_neg, neg, pos], dtype="float32")


def _lower_relu(lb, x):
    # ONNX Runtime's CPU Relu has no int64/int32 kernels: max(x, 0) is the same function
    if lb.dtype(x) in ("float32", "float16"):
        return lb.node("Relu", [x])
    return lower_max(lb, x, lb.scalar(0, lb.dtype(x)))


def _hard_swish(x):
    return x * np.clip(x + 3.0, 0.0, 6.0) / 6.0


# PyTorch lowerings (the last entry of a row): the same function on float32 (float16 widened; the backend
# rounds once); integers (abs, neg, sign, relu) in int64 and wrapped back by the backend, so that
# abs(-128) and -(-128) are -128 in int8 as in the reference. gelu in float64, as the reference.
class _raw:  # noqa: N801 - reads as a marker in the rows
    """A row's PyTorch lowering fn(tb, x) that takes the input as it is (not widened)."""

    def __init__(self, fn):
        self.fn = fn


def _torch_gelu(tb, x):
    torch = tb.torch
    x64 = x.double()
    y = 0.5 * x64 * torch.special.erfc(-x64 / math.sqrt(2.0))
    return torch.where(torch.isneginf(x64), -0.0, y)


def _torch_lowering(entry):
    """A row's PyTorch entry as a lowering fn(tb, call): see _ROWS."""
    def lower(tb, call: Call):
        x = call["input"]
        if isinstance(entry, _raw):
            return [entry.fn(tb, x)]
        x = tb.f32(x) if x.is_floating_point() else tb.wide(x)
        fn = getattr(tb.torch, entry) if isinstance(entry, str) else (lambda v: entry(tb.torch, v))
        return [fn(x)]

    return lower


_ROWS = {
    # name: (allowed, required, numpy fn, onnx op or lowering fn, ulp tolerance for float32, PyTorch lowering)
    # The PyTorch lowering (backends/torch.py) is the name of a torch function, or fn(torch, x): either gets
    # the input widened (float16 to float32, integers to int64; the backend rounds or wraps the result
    # back once), or _raw(fn(tb, x)) gets it as it is; None: PyTorch does not claim the operator.
    "abs": (SIGNED, REQ_SIGNED, np.abs, "Abs", 0, "abs"),
    "neg": (SIGNED, REQ_SIGNED, np.negative, "Neg", 0, "neg"),
    "sign": (SIGNED, REQ_SIGNED, np.sign, "Sign", 0, "sign"),
    "identity": (ALL_TYPES, ("float32", "float16", "int32"), lambda x: x.copy(), "Identity", 0,
                 _raw(lambda tb, x: x.clone())),
    "relu": (SIGNED, FLOAT_TYPES, lambda x: np.maximum(x, x.dtype.type(0)), _lower_relu, 0,
             lambda torch, v: torch.where(v < 0, 0, v)),
    "ceil": (FLOAT_TYPES, FLOAT_TYPES, np.ceil, "Ceil", 0, "ceil"),
    "floor": (FLOAT_TYPES, FLOAT_TYPES, np.floor, "Floor", 0, "floor"),
    "roundEven": (FLOAT_TYPES, FLOAT_TYPES, np.round, "Round", 0, "round"),
    "cos": (FLOAT_TYPES, FLOAT_TYPES, np.cos, "Cos", 2, "cos"),
    "sin": (FLOAT_TYPES, FLOAT_TYPES, np.sin, "Sin", 2, "sin"),
    "tan": (FLOAT_TYPES, FLOAT_TYPES, np.tan, "Tan", 2, "tan"),
    "erf": (FLOAT_TYPES, FLOAT_TYPES, _erf, "Erf", 2, "erf"),
    "exp": (FLOAT_TYPES, FLOAT_TYPES, np.exp, "Exp", 32, "exp"),
    "log": (FLOAT_TYPES, FLOAT_TYPES, np.log, "Log", 8, "log"),
    "sqrt": (FLOAT_TYPES, FLOAT_TYPES, np.sqrt, "Sqrt", 1, "sqrt"),
    "reciprocal": (FLOAT_TYPES, FLOAT_TYPES, lambda x: 1.0 / x, "Reciprocal", 2, lambda torch, v: 1.0 / v),
    "sigmoid": (FLOAT_TYPES, FLOAT_TYPES, lambda x: 1.0 / (1.0 + np.exp(-x)), lower_sigmoid, 34, "sigmoid"),
    "tanh": (FLOAT_TYPES, FLOAT_TYPES, np.tanh, "Tanh", 16, "tanh"),
    "softplus": (FLOAT_TYPES, FLOAT_TYPES, lambda x: np.logaddexp(0.0, x), "Softplus", 18,
                 lambda torch, v: torch.logaddexp(torch.zeros_like(v), v)),
    "softsign": (FLOAT_TYPES, FLOAT_TYPES, lambda x: x / (1.0 + np.abs(x)), "Softsign", 3,
                 lambda torch, v: v / (1.0 + torch.abs(v))),
    "gelu": (FLOAT_TYPES, FLOAT_TYPES, _gelu, _lower_gelu, 18, _raw(lambda tb, x: _torch_gelu(tb, tb.f32(x)))),
    "hardSwish": (FLOAT_TYPES, FLOAT_TYPES, _hard_swish, "HardSwish", 4,
                  lambda torch, v: v * torch.clamp(v + 3.0, 0.0, 6.0) / 6.0),
}


def onnx_op(name: str) -> str:
    """The ONNX operator a unary row lowers to one for one (backends whose passes produce it, such
    as onnx_lowering.fuse_patterns' hard-swish, name it from here)."""
    lowering = _ROWS[name][3]
    if not isinstance(lowering, str):
        raise ValueError(f"{name} lowers through a function, not one ONNX operator")
    return lowering


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


register(*(_make(n, *row[:5]) for n, row in _ROWS.items()))


# Core ML (MIL) lowerings: the MIL op of the same function; roundEven: MilBuilder.round_even (MIL's
# round leaves halves to the device).
def _mil(op: str, **kw):
    return lambda mb, call: [getattr(mb, op)(x=call["input"], **kw)]


attach_coreml({
    **{n: _mil(n) for n in ("ceil", "floor", "cos", "sin", "tan", "erf", "exp", "sqrt", "sigmoid",
                            "tanh", "softplus", "softsign")},
    "log": _mil("log", epsilon=0.0),
    "reciprocal": _mil("inverse", epsilon=0.0),
    "gelu": _mil("gelu", mode="EXACT"),
    "hardSwish": lambda mb, call: [mb.mul(x=call["input"], y=mb.sigmoid_hard(x=call["input"], alpha=1 / 6, beta=0.5))],
    "roundEven": lambda mb, call: [mb.round_even(call["input"])],
})


# int8/uint8 too: computed in int32 and wrapped back (abs(-128) and -(-128) are -128, as in the reference)
def _mil_8bit(fn):
    def lower(mb, call: Call):
        x = call["input"]
        w = mb.wide(x)
        return [mb.wrap(fn(mb, w), mb.webnn_type(x))]

    return lower


attach_coreml({
    "abs": _mil_8bit(lambda mb, x: mb.abs(x=x)),
    "identity": lambda mb, call: [mb.identity(x=call["input"])],
    "relu": _mil_8bit(lambda mb, x: mb.relu(x=x) if mb.is_float(x) else mb.maximum(x=x, y=mb.scalar(0, like=x))),
    "neg": _mil_8bit(lambda mb, x: mb.mul(x=x, y=mb.scalar(-1, like=x))),
    "sign": _mil_8bit(lambda mb, x: mb.sign(x=x)),
}, types=("float32", "float16", "int32", "int8", "uint8"))


# PyTorch lowerings: each row's last entry (above), attached to the ops whose row has one: an op
# without one is not claimed by PyTorch (backends/torch.py claims an op when its OpDef.torch is set).
def torch_lowerings(rows: dict) -> dict:
    """op -> PyTorch lowering, for the rows that carry one (a row without one is left unclaimed)."""
    return {n: _torch_lowering(row[5]) for n, row in rows.items() if len(row) > 5 and row[5] is not None}


attach_torch(torch_lowerings(_ROWS))


# LiteRT lowerings (backends/litert.py): float32
attach_litert({n: (lambda code: lambda lt, call: [lt.elementwise(getattr(lt.ops, code), [call["input"]])])(c)
               for n, c in {"relu": "RELU", "sigmoid": "LOGISTIC", "tanh": "TANH", "hardSwish": "HARD_SWISH"}.items()})
