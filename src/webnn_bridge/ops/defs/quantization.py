"""quantizeLinear and dequantizeLinear with per-tensor, per-axis and block-wise parameters.

scale and zeroPoint have the same shape; right-aligned against the input (missing leading
dimensions count as 1), every input dimension must be a multiple of the scale dimension:
each scale element then covers a block of input / scale elements along each axis.
  dequantizeLinear: output = (input - zeroPoint) * scale            (scale's float type)
  quantizeLinear:   output = clamp(roundEven(input / scale) + zeroPoint)  (zeroPoint's type)
"""

from __future__ import annotations

import numpy as np

from ..core import DATA_TYPES, FLOAT_TYPES, PACKED_TYPES, WebNNTypeError
from ..registry import Call, Limits, OpDef, attach_coreml, attach_torch, register, same_as
from ._common import f32

# int4 / uint4: extension (idl/extensions.idl), as Chromium and onnxruntime-web use them
Q_TYPES = ("uint8", "int8", "uint32", "int32") + PACKED_TYPES
Q_REQ = ("uint8", "int8")


def _check_params(x, scale, zp):
    if scale.rank > x.rank:
        raise WebNNTypeError(f"scale rank {scale.rank} must not exceed the input rank {x.rank}.")
    if zp.shape != scale.shape:
        raise WebNNTypeError(f"zeroPoint shape {list(zp.shape)} must equal scale shape {list(scale.shape)}.")
    full = (1,) * (x.rank - scale.rank) + tuple(scale.shape)
    for i, (d, s) in enumerate(zip(x.shape, full)):
        if d % s:
            raise WebNNTypeError(
                f"scale shape {list(scale.shape)} is not block-wise broadcastable to input shape {list(x.shape)} "
                f"(dimension {i}: {d} is not a multiple of {s})."
            )


def _dq_infer(call: Call):
    x, scale, zp = call["input"], call["scale"], call["zeroPoint"]
    _check_params(x, scale, zp)
    return [x.with_type(scale.data_type)]


def _q_infer(call: Call):
    x, scale, zp = call["input"], call["scale"], call["zeroPoint"]
    _check_params(x, scale, zp)
    return [x.with_type(zp.data_type)]


def _np_expand(p: np.ndarray, shape) -> np.ndarray:
    p = p.reshape((1,) * (len(shape) - p.ndim) + p.shape)
    for axis, (d, s) in enumerate(zip(shape, p.shape)):
        if s != d:
            p = np.repeat(p, d // s, axis=axis)
    return p


def _lower_expand(lb, p, shape):
    shape = list(shape)
    pshape = list(lb.shape(p))
    full = [1] * (len(shape) - len(pshape)) + pshape
    if full == shape or all(s == 1 for s in full):
        return p  # plain broadcasting does it
    inter, target = [], []
    for d, s in zip(shape, full):
        inter += [s, 1]
        target += [s, d // s]
    r = lb.node("Reshape", [p, lb.ints(inter)])
    r = lb.node("Expand", [r, lb.ints(target)])
    return lb.node("Reshape", [r, lb.ints(shape)])


def _dq_ref(call: Call):
    x, scale, zp = call["input"], call["scale"], call["zeroPoint"]
    s = _np_expand(f32(scale), x.shape)
    z = _np_expand(zp, x.shape).astype(np.float64)
    y = (x.astype(np.float64) - z).astype(np.float32) * s
    return [y.astype(scale.dtype)]


def _dq_lower(lb, call: Call):
    x, scale, zp = call["input"], call["scale"], call["zeroPoint"]
    shape = lb.shape(x)
    zp = _lower_expand(lb, zp, shape)
    if lb.dtype(x) in ("int32", "uint32"):
        d = lb.node("Sub", [lb.cast(x, "float32"), lb.cast(zp, "float32")])
    else:
        # 8- and 4-bit values: the difference taken in int32 is exact and small, and stays a Sub
        # of integers; as a float Sub followed by a Mul by constants, OpenVINO's CPU plugin
        # rewrote it as x*s - zp*s, 8 to 80 ULP off when the zero point is large
        d = lb.cast(lb.node("Sub", [lb.cast(x, "int32"), lb.cast(zp, "int32")]), "float32")
    y = lb.node("Mul", [d, lb.cast(_lower_expand(lb, scale, shape), "float32")])
    return [lb.cast(y, lb.dtype(scale))]


def _q_ref(call: Call):
    x, scale, zp = call["input"], call["scale"], call["zeroPoint"]
    s = _np_expand(f32(scale), x.shape)
    z = _np_expand(zp, x.shape).astype(np.float64)
    with np.errstate(all="ignore"):
        q = np.round(f32(x) / s).astype(np.float64) + z
    lo, hi = _int_range(zp.dtype)
    q = np.nan_to_num(q, nan=0.0, posinf=hi, neginf=lo)
    return [np.clip(q, lo, hi).astype(zp.dtype)]


def _int_range(dtype: np.dtype) -> tuple[int, int]:
    return next(d.int_range for d in DATA_TYPES.values() if d.numpy == dtype)


def _q_lower(lb, call: Call):
    x, scale, zp = call["input"], call["scale"], call["zeroPoint"]
    shape = lb.shape(x)
    zdt = lb.dtype(zp)
    work = "float64" if zdt in ("int32", "uint32") else "float32"  # float32 cannot hold every int32
    q = lb.node("Round", [lb.node("Div", [lb.cast(x, "float32"), lb.cast(_lower_expand(lb, scale, shape), "float32")])])
    q = lb.node("Add", [_cast_any(lb, q, work), _cast_any(lb, _lower_expand(lb, zp, shape), work)])
    lo_v, hi_v = DATA_TYPES[zdt].int_range
    lo = lb.const(np.array(lo_v, np.dtype(work)))
    hi = lb.const(np.array(hi_v, np.dtype(work)))
    q = lb.node("Min", [lb.node("Max", [q, lo]), hi])
    return [lb.node("Cast", [q], dtype=zdt, to=DATA_TYPES[zdt].onnx)]


def _cast_any(lb, v, dt):
    if dt == "float64":
        return lb.node("Cast", [v], dtype="float64", to=11)
    return lb.cast(v, dt)


register(
    OpDef(
        name="dequantizeLinear",
        limits={
            "input": Limits(types=Q_TYPES, required_types=Q_REQ, required_ranks=(0, 5)),
            "scale": Limits(types=FLOAT_TYPES, required_types=FLOAT_TYPES, required_ranks=(0, 5)),
            "zeroPoint": same_as("input", same_rank=False),
            "output": same_as("scale", same_rank=False),
        },
        infer=_dq_infer,
        reference=_dq_ref,
        lower=_dq_lower,
        tolerance=("ulp", 1),
        doc="(input - zeroPoint) * scale with block-wise broadcast parameters.",
    ),
    OpDef(
        name="quantizeLinear",
        limits={
            "input": Limits(types=FLOAT_TYPES, required_types=FLOAT_TYPES, required_ranks=(0, 5)),
            "scale": same_as("input", same_rank=False),
            "zeroPoint": Limits(types=Q_TYPES, required_types=Q_REQ, required_ranks=(0, 5)),
            "output": same_as("zeroPoint", same_rank=False),
        },
        infer=_q_infer,
        reference=_q_ref,
        lower=_q_lower,
        tolerance=("ulp", 1),
        doc="clamp(roundEven(input / scale) + zeroPoint) with block-wise broadcast parameters.",
    ),
)


# --------------------------------------------------------------------------- Core ML (MIL)
# float32 inside, as in the reference (roundEven: MilBuilder.round_even). dequantizeLinear: int8,
# uint8 and int32, whose difference with the zero point is rounded to float32 once, as the
# reference's float64 difference is; quantizeLinear: int8/uint8, and int32 zero points added
# exactly in 16-bit halves (the reference adds in float64, which MIL lacks) and saturated.
MIL_TYPES = FLOAT_TYPES + Q_REQ


def _mil_expand(mb, p, shape):
    """scale/zeroPoint -> the input's shape: plain broadcasting, or block-wise repetition."""
    shape = [int(d) for d in shape]
    pshape = [int(d) for d in p.shape]
    full = [1] * (len(shape) - len(pshape)) + pshape
    if all(s in (1, d) for d, s in zip(shape, full)):
        return p
    inter = [v for s in full for v in (s, 1)]
    reps = [v for d, s in zip(shape, full) for v in (1, d // s)]
    r = mb.tile(x=mb.reshape(x=p, shape=np.array(inter, np.int32)), reps=reps)
    return mb.reshape(x=r, shape=np.array(shape, np.int32))


def _mil_f32(mb, v, shape):
    return _mil_expand(mb, mb.cast(x=v, dtype="fp32"), shape)


def _mil_int32_difference(mb, x, z):
    """float32(x - z) of int32 values, rounded once: 16-bit halves, whose differences are exact
    in int32 and in float32, then one float32 addition."""
    k = np.int32(65536)
    xh, zh = mb.floor_div(x=x, y=k), mb.floor_div(x=z, y=k)
    lo = mb.sub(x=mb.sub(x=x, y=mb.mul(x=xh, y=k)), y=mb.sub(x=z, y=mb.mul(x=zh, y=k)))
    hi = mb.mul(x=mb.cast(x=mb.sub(x=xh, y=zh), dtype="fp32"), y=np.float32(65536))
    return mb.add(x=hi, y=mb.cast(x=lo, dtype="fp32"))


def _mil_dequantize(mb, call: Call):
    x, scale, zp = call["input"], call["scale"], call["zeroPoint"]
    if mb.webnn_type(x) == "int32":
        d = _mil_int32_difference(mb, x, _mil_expand(mb, zp, x.shape))
    else:
        d = mb.sub(x=mb.cast(x=x, dtype="fp32"), y=_mil_f32(mb, zp, x.shape))
    y = mb.mul(x=d, y=_mil_f32(mb, scale, x.shape))
    return [y if mb.webnn_type(scale) == "float32" else mb.cast(x=y, dtype="fp16")]


def _mil_int32_saturating_sum(mb, q, z):
    """int32(clamp(q + z)) of an integral float32 q (|q| <= 2^32 here) and int32 z, exactly."""
    k, kf = np.int32(65536), np.float32(65536)
    qh = mb.floor(x=mb.real_div(x=q, y=kf))
    ql = mb.cast(x=mb.sub(x=q, y=mb.mul(x=qh, y=kf)), dtype="int32")  # 0..65535
    zh = mb.floor_div(x=z, y=k)
    low = mb.add(x=ql, y=mb.sub(x=z, y=mb.mul(x=zh, y=k)))  # 0..131070
    carry = mb.floor_div(x=low, y=k)
    high = mb.add(x=mb.add(x=mb.cast(x=qh, dtype="int32"), y=zh), y=carry)
    low = mb.sub(x=low, y=mb.mul(x=carry, y=k))
    inside = mb.minimum(x=mb.maximum(x=high, y=np.int32(-32768)), y=np.int32(32767))
    y = mb.add(x=mb.mul(x=inside, y=k), y=low)
    y = mb.select(cond=mb.greater(x=high, y=np.int32(32767)), a=np.int32(2**31 - 1), b=y)
    return mb.select(cond=mb.less(x=high, y=np.int32(-32768)), a=np.int32(-(2**31)), b=y)


def _mil_quantize(mb, call: Call):
    x, scale, zp = call["input"], call["scale"], call["zeroPoint"]
    q = mb.round_even(mb.real_div(x=mb.cast(x=x, dtype="fp32"), y=_mil_f32(mb, scale, x.shape)))
    if mb.webnn_type(zp) == "int32":
        nan = mb.not_equal(x=q, y=q)  # NaN -> 0, as the reference
        q = mb.clip(x=mb.select(cond=nan, a=np.float32(0), b=q), alpha=np.float32(-(2.0**32)),
                    beta=np.float32(2.0**32))  # beyond: saturated either way
        return [mb.select(cond=nan, a=np.int32(0), b=_mil_int32_saturating_sum(mb, q, _mil_expand(mb, zp, x.shape)))]
    q = mb.add(x=q, y=_mil_f32(mb, zp, x.shape))
    q = mb.select(cond=mb.not_equal(x=q, y=q), a=np.float32(0), b=q)  # NaN -> 0
    lo, hi = _int_range(np.dtype(mb.webnn_type(zp)))
    return [mb.cast(x=mb.clip(x=q, alpha=np.float32(lo), beta=np.float32(hi)), dtype=mb.webnn_type(zp))]


attach_coreml({"quantizeLinear": _mil_quantize, "dequantizeLinear": _mil_dequantize}, types=MIL_TYPES + ("int32",))


# --------------------------------------------------------------------------- PyTorch
# As the reference: the difference with the zero point in float64, rounded to float32 once, times
# the scale (dequantize); roundEven(x / scale) in float32, plus the zero point in float64, NaN -> 0,
# saturated (quantize). Block-wise parameters repeated along each axis.


def _torch_expand(tb, p, shape):
    p = p.reshape((1,) * (len(shape) - p.dim()) + tuple(p.shape))
    for axis, (d, s) in enumerate(zip(shape, p.shape)):
        if s != d:
            p = tb.torch.repeat_interleave(p, d // s, dim=axis)
    return p


def _torch_dq(tb, call: Call):
    x, scale, zp = call["input"], call["scale"], call["zeroPoint"]
    shape = tuple(x.shape)
    s = _torch_expand(tb, tb.f32(scale), shape)
    z = _torch_expand(tb, zp, shape).double()
    return [(x.double() - z).float() * s]


def _torch_q(tb, call: Call):
    torch = tb.torch
    x, scale, zp = call["input"], call["scale"], call["zeroPoint"]
    shape = tuple(x.shape)
    s = _torch_expand(tb, tb.f32(scale), shape)
    z = _torch_expand(tb, zp, shape).double()
    q = torch.round(tb.f32(x) / s).double() + z
    lo, hi = DATA_TYPES[tb.out_types[0]].int_range
    q = torch.nan_to_num(q, nan=0.0, posinf=float(hi), neginf=float(lo))
    return [torch.clamp(q, float(lo), float(hi)).to(torch.int64)]


attach_torch({"dequantizeLinear": _torch_dq, "quantizeLinear": _torch_q})
