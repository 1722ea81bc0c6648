"""clamp: element-wise clamp to [minValue, maxValue].

Spec: input any data type, any rank; output same type and shape. minValue/maxValue are MLNumbers
cast to the input's data type (round half to even, saturating for integers); an absent bound does
not clamp. minValue > maxValue (after the cast) is a TypeError. A NaN bound compares false, so it
neither throws nor clamps (WPT "minValue as NaN" expects the input unchanged).

Spec note: HEAD's algorithm defaults minValue to Infinity and maxValue to -Infinity, which would
make every default call throw; the evident intent (-Infinity / +Infinity) is implemented.
"""

from __future__ import annotations

import numpy as np

from ..core import ALL_TYPES, FLOAT_TYPES, WebNNTypeError, cast_number, data_type_of
from ..registry import Call, Limits, OpDef, attach_coreml, attach_litert, attach_torch, register, same_as
from ._common import lower_max, lower_min


def bounds(call: Call, data_type: str):
    """(min, max) cast to ``data_type``; None for an absent (or NaN) bound."""

    def cast(v):
        if v is None:
            return None
        c = cast_number(v, data_type)
        return None if c != c else c  # NaN

    return cast(call["minValue"]), cast(call["maxValue"])


def infer(call: Call):
    x = call["input"]
    lo, hi = bounds(call, x.data_type)
    if lo is not None and hi is not None and lo > hi:
        raise WebNNTypeError(f"minValue must not be greater than maxValue (both cast to {x.data_type}).")
    return [x]


def reference(call: Call):
    x = call["input"]
    lo, hi = bounds(call, data_type_of(x))
    y = x.copy()
    with np.errstate(invalid="ignore"):
        if lo is not None:
            y = np.where(y < lo, x.dtype.type(lo), y)
        if hi is not None:
            y = np.where(y > hi, x.dtype.type(hi), y)
    return [y.astype(x.dtype)]


def lower(lb, call: Call):
    # Max/Min when a bound is absent: ONNX Runtime's Clip replaces an absent bound with the type's
    # finite limit, which turns +/-Infinity inputs into +/-FLT_MAX.
    x = call["input"]
    dtype = lb.dtype(x)
    lo, hi = bounds(call, dtype)
    if lo is not None and hi is not None and dtype in FLOAT_TYPES:
        # both bounds present: one Clip, which ONNX Runtime fuses into a preceding Conv (the
        # relu6 of MobileNet-like models); it also keeps -0 as the reference does
        return [lb.node("Clip", [x, lb.scalar(lo, dtype), lb.scalar(hi, dtype)])]
    y = x
    if lo is not None:
        y = lower_max(lb, y, lb.scalar(lo, dtype))
    if hi is not None:
        y = lower_min(lb, y, lb.scalar(hi, dtype))
    return [y if y != x else lb.node("Identity", [x])]


register(
    OpDef(
        name="clamp",
        limits={
            "input": Limits(types=ALL_TYPES, required_types=FLOAT_TYPES, required_ranks=(0, 5)),
            "output": same_as("input"),
        },
        infer=infer,
        reference=reference,
        lower=lower,
        tolerance=("ulp", 0),
        doc="Element-wise clamp between the optional minValue and maxValue.",
    )
)


def _mil_clamp(mb, call: Call):
    """MIL's clip (float, minValue < maxValue, both given); otherwise selects written as the
    reference: x < min -> min, x > max -> max (NaN input stays, absent or NaN bounds are skipped)."""
    x0 = call["input"]
    dt = mb.webnn_type(x0)
    x = mb.wide(x0)  # int8/uint8 through int32 (the bounds are cast to the input's type)
    lo, hi = bounds(call, dt)
    if mb.is_float(x) and lo is not None and hi is not None and lo < hi:
        return [mb.clip(x=x, alpha=mb.scalar(lo, like=x), beta=mb.scalar(hi, like=x))]
    y = x
    for bound, beyond in ((lo, mb.less), (hi, mb.greater)):
        if bound is not None:
            b = mb.scalar(bound, like=x)
            y = mb.select(cond=beyond(x=y, y=b), a=b, b=y)
    return [mb.narrow(y, dt) if y is not x else mb.identity(x=x0)]


attach_coreml({"clamp": _mil_clamp}, types=("float32", "float16", "int32", "int8", "uint8"))


def _torch_clamp(tb, call: Call):
    """torch.clamp with the bounds cast to the input's type: NaN input stays NaN, absent or NaN
    bounds do not clamp (the reference's selects); uint64 compared in order; float16 in float32
    (its bounds are float16 values)."""
    x = call["input"]
    dt = tb.type(x)
    lo, hi = bounds(call, dt)
    if lo is None and hi is None:
        return [x.clone()]
    if dt in FLOAT_TYPES:
        lo, hi = (None if v is None else float(v) for v in (lo, hi))
    else:
        lo, hi = (None if v is None else tb.ordered_scalar(v, dt) for v in (lo, hi))
    return [tb.unordered(tb.torch.clamp(tb.ordered(tb.f32(x), dt), min=lo, max=hi), dt)]


attach_torch({"clamp": _torch_clamp})


def _litert_clamp(lt, call: Call):
    """TFLite's fused clamps where the bounds are theirs (RELU, RELU6, RELU_N1_TO_1, RELU_0_TO_1),
    else MAXIMUM and MINIMUM with the bounds."""
    x = call["input"]
    lo, hi = bounds(call, "float32")
    lo = None if lo is None or lo == -np.inf else float(lo)
    hi = None if hi is None or hi == np.inf else float(hi)
    fused = {(0.0, None): "RELU", (0.0, 6.0): "RELU6", (-1.0, 1.0): "RELU_N1_TO_1", (0.0, 1.0): "RELU_0_TO_1"}
    if (lo, hi) in fused:
        return [lt.elementwise(getattr(lt.ops, fused[lo, hi]), [x])]
    if lo is not None:
        x = lt.elementwise(lt.ops.MAXIMUM, [x, lt.constant(np.array(lo, np.float32))])
    if hi is not None:
        x = lt.elementwise(lt.ops.MINIMUM, [x, lt.constant(np.array(hi, np.float32))])
    if lo is None and hi is None:  # a copy
        x = lt.elementwise(lt.ops.MAXIMUM, [x, lt.constant(np.array(-np.inf, np.float32))])
    return [x]


attach_litert({"clamp": _litert_clamp})
