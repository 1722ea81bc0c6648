"""resample2d: nearest-neighbor or linear resampling of two axes of a 4-D tensor.

Source coordinates are half-pixel, c = (i + 0.5) * inSize / outSize - 0.5, clamped to the input;
nearest picks ceil(c - 0.5) (ties take the smaller index), linear interpolates the two
neighbours. The output size along each axis is options.sizes, else floor(inSize * scale).
"""

from __future__ import annotations

import math

import numpy as np

from ..core import FLOAT_TYPES, MAX_DIMENSION, WebNNTypeError, check_axes
from ..registry import Call, Limits, OpDef, attach_coreml, attach_torch, register, same_as
from ._common import dtype_name

TYPES = ("float32", "float16", "int8", "uint8")


def _plan(call: Call, shape):
    axes = call["axes"]
    axes = [2, 3] if axes is None else list(axes)
    if len(axes) != 2:
        raise WebNNTypeError(f"axes must have 2 values, got {len(axes)}.")
    check_axes(axes, len(shape))
    sizes = call["sizes"]
    if sizes is not None:
        sizes = list(sizes)
        if len(sizes) != 2:
            raise WebNNTypeError(f"sizes must have 2 values, got {len(sizes)}.")
        if any(s <= 0 or s > MAX_DIMENSION for s in sizes):
            raise WebNNTypeError(f"sizes {sizes} must be valid dimensions.")
        out = sizes
    else:
        scales = [1.0, 1.0] if call["scales"] is None else [float(s) for s in call["scales"]]
        if len(scales) != 2:
            raise WebNNTypeError(f"scales must have 2 values, got {len(scales)}.")
        if any(not (s > 0) or math.isinf(s) for s in scales):
            # {s:g}: the same text in the shim, where 2.0 and 2 are one number
            raise WebNNTypeError(f"scales [{', '.join(f'{s:g}' for s in scales)}] must be positive.")
        out = [int(math.floor(shape[a] * s)) for a, s in zip(axes, scales)]
        if any(o <= 0 or o > MAX_DIMENSION for o in out):
            raise WebNNTypeError(f"the scaled output sizes {out} are not valid dimensions.")
    new_shape = list(shape)
    for a, o in zip(axes, out):
        new_shape[a] = o
    return axes, out, new_shape


def _infer(call: Call):
    x = call["input"]
    _, _, shape = _plan(call, x.shape)
    return [x.with_shape(shape)]


def _sources(n: int, out: int, mode: str):
    """Per output index along one axis: the nearest source index, or (lower index, upper index,
    weight of the upper one) for linear."""
    c = (np.arange(out) + 0.5) * (n / out) - 0.5
    c = np.clip(c, 0, n - 1)
    if mode == "nearest-neighbor":
        return np.clip(np.ceil(c - 0.5).astype(np.int64), 0, n - 1)
    i0 = np.floor(c).astype(np.int64)
    return i0, np.minimum(i0 + 1, n - 1), c - i0


def _along(w: np.ndarray, axis: int, rank: int) -> np.ndarray:
    return w.reshape([-1 if i == axis else 1 for i in range(rank)])


def _resample_axis(x: np.ndarray, axis: int, out: int, mode: str) -> np.ndarray:
    src = _sources(x.shape[axis], out, mode)
    if mode == "nearest-neighbor":
        return np.take(x, src, axis=axis)
    i0, i1, w = src
    w = _along(w, axis, x.ndim)
    return np.take(x, i0, axis=axis) * (1 - w) + np.take(x, i1, axis=axis) * w


def _reference(call: Call):
    x = call["input"]
    axes, out, _ = _plan(call, x.shape)
    mode = call.get("mode", "nearest-neighbor")
    y = x.astype(np.float64)
    for a, o in zip(axes, out):
        y = _resample_axis(y, a, o, mode)
    if x.dtype.kind != "f":
        info = np.iinfo(x.dtype)
        y = np.clip(np.round(y), info.min, info.max)
    return [y.astype(x.dtype)]


def _lower(lb, call: Call):
    x = call["input"]
    shape = lb.shape(x)
    axes, out, new_shape = _plan(call, shape)
    mode = call.get("mode", "nearest-neighbor")
    dt = lb.dtype(x)
    xf = lb.cast(x, "float32")
    # full-rank sizes and no `axes` attribute: ORT's layout optimizer rewrites a Resize among NHWC
    # transposes and loses a 2-element `sizes` (DeepLabV3 failed to build)
    attrs = dict(coordinate_transformation_mode="half_pixel")
    if mode == "nearest-neighbor":
        attrs.update(mode="nearest", nearest_mode="round_prefer_floor")
        if all(o % shape[a] == 0 for a, o in zip(axes, out)):
            # an integer factor k on every axis: output i = k * j + r (0 <= r < k) has the
            # half-pixel source j + (r + 0.5) / k - 0.5, within half an index of j, so it picks
            # j = floor(i / k): ONNX Runtime's asymmetric floor mode, about 5x faster
            attrs.update(coordinate_transformation_mode="asymmetric", nearest_mode="floor")
    else:
        attrs.update(mode="linear")
    y = lb.node("Resize", [xf, "", "", lb.ints(new_shape)], **attrs)
    if dt in FLOAT_TYPES:
        return [y]
    info = np.iinfo(np.dtype(dt))
    y = lb.node("Clip", [lb.node("Round", [y]), lb.scalar(info.min, "float32"), lb.scalar(info.max, "float32")])
    return [lb.cast(y, dt)]


def _tolerance(call: Call, data_type: str | None = None):
    if call.get("mode", "nearest-neighbor") != "linear":
        return ("ulp", 0)
    dt = data_type or dtype_name(call["input"])
    return ("ulp", {"float32": 84, "float16": 10}.get(dt, 1))


register(
    OpDef(
        name="resample2d",
        limits={
            "input": Limits(types=TYPES, ranks=(4, 4), required_types=FLOAT_TYPES, required_ranks=(4, 4)),
            "output": same_as("input"),
        },
        infer=_infer,
        reference=_reference,
        lower=_lower,
        tolerance=_tolerance,
        doc="Resample two axes by nearest-neighbor or linear interpolation (half-pixel centres).",
    )
)


# Core ML (MIL): the reference's own source indices and weights as constants: gathers along each
# axis (nearest: exact for every type), linear blends in float32, integers rounded half to even and
# saturated as in the reference.
def _mil_resample_axis(mb, x, axis: int, out: int, mode: str):
    src = _sources(int(x.shape[axis]), out, mode)
    if mode == "nearest-neighbor":
        return mb.gather(x=x, indices=src.astype(np.int32), axis=axis, validate_indices=False)
    i0, i1, w = src
    x0, x1 = (mb.gather(x=x, indices=i.astype(np.int32), axis=axis, validate_indices=False) for i in (i0, i1))
    w = _along(w, axis, x.rank).astype(np.float32)
    return mb.add(x=mb.mul(x=x0, y=1 - w), y=mb.mul(x=x1, y=w))


def _mil_resample2d(mb, call: Call):
    x = call["input"]
    axes, out, _ = _plan(call, x.shape)
    mode = call.get("mode", "nearest-neighbor")
    dt = mb.webnn_type(x)
    y = x if mode == "nearest-neighbor" else mb.cast(x=x, dtype="fp32")
    for a, o in zip(axes, out):
        y = _mil_resample_axis(mb, y, a, o, mode)
    if mode == "nearest-neighbor" or dt == "float32":
        return [y]
    if dt == "float16":
        return [mb.cast(x=y, dtype="fp16")]
    info = np.iinfo(np.dtype(dt))
    y = mb.clip(x=mb.round_even(y), alpha=np.float32(info.min), beta=np.float32(info.max))
    return [mb.cast(x=y, dtype=dt)]


attach_coreml({"resample2d": _mil_resample2d}, types=TYPES)


def _torch_resample(tb, call: Call):
    """The reference's per-axis gathers in float64 (source indices and weights are constants)."""
    torch = tb.torch
    x = call["input"]
    axes, out, _ = _plan(call, tuple(x.shape))
    mode = call.get("mode", "nearest-neighbor")
    y = x.double()
    for a, o in zip(axes, out):
        src = _sources(int(y.shape[a]), o, mode)
        if mode == "nearest-neighbor":
            y = y.index_select(a, tb.const(src))
            continue
        i0, i1, w = src
        w = tb.const(_along(w, a, y.dim()))
        y = y.index_select(a, tb.const(i0)) * (1 - w) + y.index_select(a, tb.const(i1)) * w
    if not x.is_floating_point():
        lo, hi = tb.int_range(tb.type(x))
        y = torch.clamp(torch.round(y), lo, hi).to(torch.int64)
    return [y]


attach_torch({"resample2d": _torch_resample})
