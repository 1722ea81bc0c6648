"""Parametrised activations: elu, hardSigmoid, leakyRelu, linear, prelu.

float16 is computed in float32 and rounded once (reference and ONNX lowering alike).
"""

from __future__ import annotations

import numpy as np

from ..core import FLOAT_TYPES, WebNNTypeError, broadcast_shapes
from ..registry import Call, Limits, OpDef, attach_coreml, attach_litert, attach_torch, register, same_as
from ._common import in_float32, lower_expm1

F = FLOAT_TYPES
PRELU_TYPES = ("float32", "float16", "int64", "int32", "int8")


def _elu(x, alpha):
    with np.errstate(over="ignore"):
        return np.where(x > 0, x, np.float32(alpha) * np.expm1(np.minimum(x, 0)))


def _hard_sigmoid(x, alpha, beta):
    return np.clip(np.float32(alpha) * x + np.float32(beta), 0, 1)


def _leaky(x, alpha):
    return np.where(x >= 0, x, np.float32(alpha) * x)


def _linear(x, alpha, beta):
    return np.float32(alpha) * x + np.float32(beta)


def _l_elu(lb, x, o):
    # alpha * expm1(min(x, 0)) for x <= 0: ONNX Runtime's Elu computes exp(x) - 1, which loses
    # up to ~1000 ULP to cancellation near 0
    neg = lb.node("Mul", [lower_expm1(lb, lb.node("Min", [x, lb.scalar(0.0, "float32")])), lb.scalar(o["alpha"], "float32")])
    pos = lb.node("Greater", [x, lb.scalar(0.0, "float32")], dtype="bool")
    return lb.node("Where", [pos, x, neg], dtype="float32")


def _l_hard_sigmoid(lb, x, o):
    return lb.node("HardSigmoid", [x], alpha=float(o["alpha"]), beta=float(o["beta"]))


def _l_leaky(lb, x, o):
    return lb.node("LeakyRelu", [x], alpha=float(o["alpha"]))


def _l_linear(lb, x, o):
    a = lb.node("Mul", [x, lb.scalar(o["alpha"], "float32")])
    return lb.node("Add", [a, lb.scalar(o["beta"], "float32")])


def _f32(v) -> float:
    return float(np.float32(v))


_ROWS = {
    # name: (numpy fn, option names, lowering on float32, ulp f32, ulp f16, PyTorch lowering)
    # The PyTorch lowering, fn(torch, x, call) on the input in float32 (float16 widened; the backend rounds
    # once), the options as float32 scalars as np.float32 makes them; None: PyTorch does not claim the op.
    "elu": (_elu, ("alpha",), _l_elu, 18, 18,
            lambda torch, x, c: torch.where(x > 0, x, torch.expm1(torch.clamp_max(x, 0.0)) * _f32(c["alpha"]))),
    "hardSigmoid": (_hard_sigmoid, ("alpha", "beta"), _l_hard_sigmoid, 2, 2,
                    lambda torch, x, c: torch.clamp(x * _f32(c["alpha"]) + _f32(c["beta"]), 0.0, 1.0)),
    "leakyRelu": (_leaky, ("alpha",), _l_leaky, 1, 2,
                  lambda torch, x, c: torch.where(x >= 0, x, x * _f32(c["alpha"]))),
    "linear": (_linear, ("alpha", "beta"), _l_linear, 2, 2,
               lambda torch, x, c: x * _f32(c["alpha"]) + _f32(c["beta"])),
}


def _infer(call: Call):
    return [call["input"]]


def _is_f16(v) -> bool:
    dt = getattr(v, "data_type", None)
    return dt == "float16" if dt is not None else v.dtype == np.float16


def _make(name, fn, opts, lowering, ulp32, ulp16) -> OpDef:
    def reference(call: Call):
        with np.errstate(all="ignore"):
            params = [call[o] for o in opts]
            return [in_float32(lambda x: fn(x, *params))(call["input"])]

    def lower(lb, call: Call):
        x = call["input"]
        return [lowering(lb, lb.cast(x, "float32"), call)]

    return OpDef(
        name=name,
        limits={"input": Limits(types=F, required_types=F, required_ranks=(0, 5)), "output": same_as("input")},
        infer=_infer,
        reference=reference,
        lower=lower,
        tolerance=lambda call, data_type=None: ("ulp", ulp16 if _is_f16(call["input"]) else ulp32),
        doc=f"{name} activation.",
    )


# --------------------------------------------------------------------------- prelu


def _prelu_infer(call: Call):
    x, s = call["input"], call["slope"]
    try:
        broadcast_shapes(x.shape, s.shape, bidirectional=False)
    except WebNNTypeError:
        raise WebNNTypeError(f"slope shape {list(s.shape)} is not broadcastable to input shape {list(x.shape)}.") from None
    return [x]


def _prelu_ref(call: Call):
    x, s = call["input"], call["slope"]
    if x.dtype.kind == "f":
        return [in_float32(lambda a, b: np.where(a >= 0, a, a * b))(x, s)]
    return [np.where(x >= 0, x, x * s).astype(x.dtype)]


def _prelu_lower(lb, call: Call):
    x, s = call["input"], call["slope"]
    dt = lb.dtype(x)
    xs, ss = lb.shape(x), lb.shape(s)
    if xs is not None and ss is not None and len(ss) < len(xs):
        # the slope at the input's rank: OpenVINO's PRelu broadcasts a 1-D slope whose length
        # is the input's dimension 1 along that axis (per channel), not along the last one
        s = lb.node("Reshape", [s, lb.ints((1,) * (len(xs) - len(ss)) + tuple(ss))])
    if dt in FLOAT_TYPES:
        return [lb.node("PRelu", [lb.cast(x, "float32"), lb.cast(s, "float32")])]
    # integers: where(x >= 0, x, x * slope) (Mul wraps like the reference)
    neg = lb.node("Less", [x, lb.scalar(0, dt)], dtype="bool")
    return [lb.where(neg, lb.node("Mul", [x, s], dtype=dt), x)]


register(
    *(_make(n, *row[:5]) for n, row in _ROWS.items()),
    OpDef(
        name="prelu",
        limits={
            "input": Limits(types=PRELU_TYPES, required_types=F, required_ranks=(0, 5)),
            "slope": same_as("input", same_rank=False),
            "output": same_as("input"),
        },
        infer=_prelu_infer,
        reference=_prelu_ref,
        lower=_prelu_lower,
        tolerance=("ulp", 1),
        doc="Parametric ReLU: x if x >= 0 else slope * x (slope broadcast to input).",
    ),
)


# Core ML (MIL) lowerings (float32/float16). prelu: select(x >= 0, x, x * slope), as MIL's prelu
# takes only a per-channel constant slope; int8 in int32, wrapped back as the reference's product.
def _mil_prelu(mb, call: Call):
    x = call["input"]
    w = mb.wide(x)
    neg = mb.mul(x=w, y=mb.wide(call["slope"]))
    return [mb.wrap(mb.select(cond=mb.greater_equal(x=w, y=mb.scalar(0, like=w)), a=w, b=neg), mb.webnn_type(x))]


attach_coreml({"prelu": _mil_prelu}, types=F + ("int32", "int8"))
attach_coreml({
    "elu": lambda mb, call: [mb.elu(x=call["input"], alpha=float(call["alpha"]))],
    "leakyRelu": lambda mb, call: [mb.leaky_relu(x=call["input"], alpha=float(call["alpha"]))],
    "linear": lambda mb, call: [mb.linear_activation(x=call["input"], alpha=float(call["alpha"]), beta=float(call["beta"]))],
    "hardSigmoid": lambda mb, call: [mb.sigmoid_hard(x=call["input"], alpha=float(call["alpha"]), beta=float(call["beta"]))],
})


# PyTorch lowerings: the reference's formulas in float32, each row's last entry (an op whose row has
# none is not claimed by PyTorch). prelu on integers in int64, the product wrapped back by the backend.
def _torch_act(fn):
    def lower(tb, call: Call):
        return [fn(tb.torch, tb.f32(call["input"]), call)]

    return lower


def _torch_prelu(tb, call: Call):
    x, s = call["input"], call["slope"]
    if x.is_floating_point():
        x, s = tb.f32(x), tb.f32(s)
    else:
        x, s = tb.wide(x), tb.wide(s)
    return [tb.torch.where(x >= 0, x, x * s)]


attach_torch({**{n: _torch_act(row[5]) for n, row in _ROWS.items() if len(row) > 5 and row[5] is not None},
              "prelu": _torch_prelu})


def _litert_leaky(lt, call: Call):
    return [lt.elementwise(lt.ops.LEAKY_RELU, [call["input"]], *lt.opts("LeakyReluOptions", alpha=float(call["alpha"])))]


def _litert_hard_sigmoid(lt, call: Call):
    """max(0, min(1, alpha * x + beta)): a multiply, an add and TFLite's clamp to [0, 1]."""
    x = lt.elementwise(lt.ops.MUL, [call["input"], lt.constant(np.array(call["alpha"], np.float32))])
    x = lt.elementwise(lt.ops.ADD, [x, lt.constant(np.array(call["beta"], np.float32))])
    return [lt.elementwise(lt.ops.RELU_0_TO_1, [x])]


attach_litert({"leakyRelu": _litert_leaky, "hardSigmoid": _litert_hard_sigmoid})
