"""cast(input, dataType).

Spec: input any data type, any rank; output dataType with the input's shape (HEAD's text copies
the input operand, type included; the intent, an output of dataType, is implemented). Values:
float -> float and integer -> float give the nearest value (+/-Infinity out of range); float ->
integer truncates towards zero (out of range is implementation-defined: here NaN -> 0 and
saturation); integer -> integer keeps the low bits (two's complement wrap-around).
"""

from __future__ import annotations

import numpy as np

from ..core import ALL_TYPES, DATA_TYPES, PACKED_TYPES
from ..registry import Call, Limits, OpDef, attach_coreml, attach_torch, register

REQUIRED = ("float32", "float16", "int32", "int8", "uint8")
TYPES = ALL_TYPES + PACKED_TYPES  # int4 / uint4: extension (idl/extensions.idl)


def infer(call: Call):
    x = call["input"]
    return [x.with_type(call["dataType"])]


def cast_array(x: np.ndarray, data_type: str) -> np.ndarray:
    dt = DATA_TYPES[data_type]
    to = dt.numpy
    if x.dtype.kind == "f" and not dt.is_float:
        lo, hi = dt.int_range
        t = np.trunc(x.astype(np.float64))
        t = np.nan_to_num(t, nan=0.0, posinf=float(hi), neginf=float(lo))
        # clip in float64, then convert; values at the float64 edges of 64-bit types stay in range
        t = np.clip(t, float(lo), float(hi))
        out = np.empty(t.shape, to)
        big = t >= float(hi)
        out[~big] = t[~big].astype(to)
        out[big] = hi
        return out
    if dt.is_packed:  # integer -> 4 bits: keep the low bits (two's complement for int4)
        low = x.astype(np.int64) & 0xF
        return (np.where(low >= 8, low - 16, low) if dt.is_signed else low).astype(to)
    with np.errstate(over="ignore"):
        return x.astype(to)


def reference(call: Call):
    return [cast_array(call["input"], call["dataType"])]


def lower(lb, call: Call):
    data_type = call["dataType"]
    x = call["input"]
    if DATA_TYPES[lb.dtype(x)].is_float and not DATA_TYPES[data_type].is_float:
        return [lower_saturating(lb, x, data_type)]
    if DATA_TYPES[data_type].is_packed:
        return [lower_low_bits(lb, x, data_type)]
    return [lb.node("Cast", [x], dtype=data_type, to=DATA_TYPES[data_type].onnx)]


def lower_low_bits(lb, x: str, data_type: str) -> str:
    """integer -> int4/uint4 (computed as int8/uint8 on ONNX Runtime): the low 4 bits, sign-extended
    for int4 ((v & 15) ^ 8) - 8."""
    v = lb.node("BitwiseAnd", [lb.cast(x, "int64"), lb.scalar(15, "int64")], dtype="int64")
    if DATA_TYPES[data_type].is_signed:
        v = lb.node("Sub", [lb.node("BitwiseXor", [v, lb.scalar(8, "int64")], dtype="int64"), lb.scalar(8, "int64")],
                    dtype="int64")
    return lb.node("Cast", [v], dtype=data_type, to=DATA_TYPES[data_type].onnx)


def lower_saturating(lb, x: str, data_type: str) -> str:
    """float -> integer as the reference does it: truncate, NaN -> 0, saturate at the type's
    range (ONNX Runtime's Cast alone wraps out-of-range values)."""
    from onnx import TensorProto

    dt = DATA_TYPES[data_type]
    lo_v, hi_v = dt.int_range
    d = lb.node("Cast", [x], dtype="float64", to=TensorProto.DOUBLE)
    zero = lb.const(np.array(0.0, np.float64))
    d = lb.node("Where", [lb.node("IsNaN", [d], dtype="bool"), zero, d], dtype="float64")
    lo, hi = (lb.const(np.array(v, np.float64)) for v in (float(lo_v), float(hi_v)))
    d = lb.node("Min", [lb.node("Max", [d, lo], dtype="float64"), hi], dtype="float64")
    out = lb.node("Cast", [d], dtype=data_type, to=dt.onnx)
    if dt.element_bits >= 32:
        # the maximum as a float rounds up where the float has too few bits (float64: 2^63 and
        # 2^64; float32, which OpenVINO computes float64 in: 2^31 and 2^32) and no longer fits the
        # type: the top is selected after the cast. Where has no uint32/uint64 kernel: select in
        # int64, whose low bits are the same (-1 is 2^64 - 1)
        top = lb.node("GreaterOrEqual", [d, hi], dtype="bool")
        bits = lb.cast(out, "int64")
        top_bits = hi_v if lo_v < 0 or dt.element_bits < 64 else -1
        out = lb.cast(lb.node("Where", [top, lb.scalar(top_bits, "int64"), bits], dtype="int64"), data_type)
    return out


def tolerance(call: Call, data_type: str):
    """WPT: 1 ULP for float outputs, exact for integers."""
    return ("ulp", 1 if DATA_TYPES[data_type].is_float else 0)


register(
    OpDef(
        name="cast",
        limits={
            "input": Limits(types=TYPES, required_types=REQUIRED, required_ranks=(0, 5)),
            "output": Limits(types=TYPES, same_rank="input", required_types=REQUIRED, required_ranks=(0, 5)),
        },
        infer=infer,
        reference=reference,
        lower=lower,
        tolerance=tolerance,
        doc="Cast to another data type.",
    )
)


# Core ML (MIL): values as the reference gives them. float -> integer: truncate, NaN -> 0, saturate
# (MIL's cast leaves out-of-range values undefined); integer -> narrower or other-signed integer:
# the low bits (MilBuilder.wrap); integer -> float16 through
# float32, so that overflow is a float conversion's (infinity); the rest is MIL's cast.
_MIL_TYPES = {"float32": "fp32", "float16": "fp16", "int32": "int32", "int8": "int8", "uint8": "uint8"}
_F32_BELOW_2_31 = 2147483520.0  # the largest float32 under 2^31


def _mil_saturating(mb, x, data_type: str):
    lo, hi = DATA_TYPES[data_type].int_range
    xf = mb.cast(x=x, dtype="fp32") if mb.webnn_type(x) != "float32" else x
    t = mb.select(cond=mb.less(x=xf, y=np.float32(0)), a=mb.ceil(x=xf), b=mb.floor(x=xf))
    t = mb.select(cond=mb.not_equal(x=t, y=t), a=np.float32(0), b=t)
    top = min(float(hi), _F32_BELOW_2_31)
    y = mb.cast(x=mb.clip(x=t, alpha=np.float32(lo), beta=np.float32(top)), dtype=_MIL_TYPES[data_type])
    if top < hi:  # int32: float32 values at or above 2^31 saturate to its maximum
        y = mb.select(cond=mb.greater_equal(x=t, y=np.float32(2.0**31)), a=np.int32(hi), b=y)
    return y


def _mil_cast(mb, call: Call):
    x, to = call["input"], call["dataType"]
    if to not in _MIL_TYPES:
        raise NotImplementedError(f"cast to {to}")
    src = DATA_TYPES[mb.webnn_type(x)]
    if src.is_float and not DATA_TYPES[to].is_float:
        return [_mil_saturating(mb, x, to)]
    if not src.is_float and to in ("int8", "uint8") and src.name != to:
        return [mb.wrap(x, to)]
    if not src.is_float and to == "float16":  # through float32 (exact below 2^24): beyond float16 is infinity
        x = mb.cast(x=x, dtype="fp32")
    return [mb.cast(x=x, dtype=_MIL_TYPES[to])]


attach_coreml({"cast": _mil_cast}, types=tuple(_MIL_TYPES))


_F64_BELOW_2_63 = 9223372036854774784.0  # the largest float64 under 2^63


# PyTorch: as the reference. float -> integer: truncate in float64, NaN -> 0, saturate (64-bit
# targets built from their int64 bits, as float64 cannot hold their maxima); integer -> float
# through int64 (uint64 halved with a sticky bit, so that it rounds once); integer -> integer: the
# low bits (the backend wraps int64 to the target's width).
def _torch_cast(tb, call: Call):
    torch = tb.torch
    x, to = call["input"], call["dataType"]
    src, dst = DATA_TYPES[tb.type(x)], DATA_TYPES[to]
    if src.is_float and dst.is_float:
        return [tb.f32(x)]
    if src.is_float:
        lo, hi = dst.int_range
        t = torch.nan_to_num(torch.trunc(x.double()), nan=0.0, posinf=float(hi), neginf=float(lo))
        t = torch.clamp(t, float(lo), float(hi))
        if dst.element_bits < 64:
            return [t.to(torch.int64)]
        top = t >= float(hi)
        if to == "int64":
            return [torch.where(top, hi, torch.clamp_max(t, _F64_BELOW_2_63).to(torch.int64))]
        upper = t >= 2.0**63  # uint64 values with the top bit set: their int64 bits
        bits = torch.where(upper, (torch.clamp(t - 2.0**63, 0.0, _F64_BELOW_2_63)).to(torch.int64) ^ -(2**63),
                           torch.clamp_max(t, _F64_BELOW_2_63).to(torch.int64))
        return [torch.where(top, -1, bits)]
    if dst.is_float:
        v = tb.wide(x)
        if src.name == "uint64":
            halved = ((v >> 1) & 0x7FFFFFFFFFFFFFFF) | (v & 1)
            return [torch.where(v < 0, halved.to(torch.float32) * 2.0, v.to(torch.float32))]
        return [v.to(torch.float32)]
    return [tb.wide(x)]


attach_torch({"cast": _torch_cast})
