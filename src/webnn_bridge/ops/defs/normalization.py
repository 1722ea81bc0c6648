"""batchNormalization, instanceNormalization, layerNormalization.

All compute (x - mean) / sqrt(variance + epsilon) * scale + bias; they differ in which axes the
statistics cover and how scale/bias line up with the input. float16 is computed in float32 and
rounded once, in the reference and in the ONNX lowering alike.
"""

from __future__ import annotations

import numpy as np

from ..core import FLOAT_TYPES, WebNNTypeError, check_axes, check_axis
from ..registry import Call, Limits, OpDef, attach_coreml, attach_torch, register, same_as
from ._common import f32

F = FLOAT_TYPES


def _check_1d(call: Call, name: str, size: int, what: str) -> None:
    d = call[name]
    if d is not None and d.shape != (size,):
        raise WebNNTypeError(f"{name} shape {list(d.shape)} must be [{size}] ({what}).")


def _param_shape(rank: int, axis: int, size: int) -> list[int]:
    return [size if i == axis else 1 for i in range(rank)]


def _np_normalize(x, axes, eps):
    mean = np.mean(x, axis=axes, keepdims=True)
    d = x - mean
    var = np.mean(d * d, axis=axes, keepdims=True)
    return d / np.sqrt(var + eps)


def _lower_normalize(lb, x, axes, eps):
    """(x - mean) / sqrt(var + eps) over axes, in x's (float32) type."""
    if not axes:
        d = lb.node("Sub", [x, x])
        return lb.node("Div", [d, lb.node("Sqrt", [lb.scalar(eps, "float32")])])
    ax = lb.ints(axes)
    mean = lb.node("ReduceMean", [x, ax], keepdims=1)
    d = lb.node("Sub", [x, mean])
    var = lb.node("ReduceMean", [lb.node("Mul", [d, d]), ax], keepdims=1)
    return lb.node("Div", [d, lb.node("Sqrt", [lb.node("Add", [var, lb.scalar(eps, "float32")])])])


def _lower_affine(lb, y, scale, bias, shape):
    """y * scale + bias with scale/bias (float16 -> float32) reshaped to ``shape``."""
    for p, op in ((scale, "Mul"), (bias, "Add")):
        if p is not None:
            p = lb.node("Reshape", [lb.cast(p, "float32"), lb.ints(shape)])
            y = lb.node(op, [y, p])
    return y


# --------------------------------------------------------------------------- batchNormalization


def _bn_infer(call: Call):
    x = call["input"]
    axis = check_axis(call["axis"], x.rank)
    c = x.shape[axis]
    for n in ("mean", "variance", "scale", "bias"):
        _check_1d(call, n, c, f"input dimension along axis {axis}")
    return [x]


def _bn_ref(call: Call):
    x = call["input"]
    axis = call["axis"]
    shape = _param_shape(x.ndim, axis, x.shape[axis])

    def p(n):
        v = call[n]
        return None if v is None else f32(v).reshape(shape)

    y = (f32(x) - p("mean")) / np.sqrt(p("variance") + np.float32(call["epsilon"]))
    if call["scale"] is not None:
        y = y * p("scale")
    if call["bias"] is not None:
        y = y + p("bias")
    return [y.astype(x.dtype)]


def _bn_lower(lb, call: Call):
    x = call["input"]
    rank = len(lb.shape(x))
    axis = call["axis"]
    shape = _param_shape(rank, axis, lb.shape(x)[axis])
    xf = lb.cast(x, "float32")

    def p(n):
        return lb.node("Reshape", [lb.cast(call[n], "float32"), lb.ints(shape)])

    denom = lb.node("Sqrt", [lb.node("Add", [p("variance"), lb.scalar(call["epsilon"], "float32")])])
    y = lb.node("Div", [lb.node("Sub", [xf, p("mean")]), denom])
    return [_lower_affine(lb, y, call["scale"], call["bias"], shape)]


# --------------------------------------------------------------------------- instanceNormalization


def _in_axes(layout: str):
    return (1, [2, 3]) if layout == "nchw" else (3, [1, 2])


def _in_infer(call: Call):
    x = call["input"]
    c_axis, _ = _in_axes(call.get("layout", "nchw"))
    for n in ("scale", "bias"):
        _check_1d(call, n, x.shape[c_axis], "the input's channel count")
    return [x]


def _in_ref(call: Call):
    x = call["input"]
    c_axis, axes = _in_axes(call.get("layout", "nchw"))
    y = _np_normalize(f32(x), tuple(axes), np.float32(call["epsilon"]))
    shape = _param_shape(4, c_axis, x.shape[c_axis])
    if call["scale"] is not None:
        y = y * f32(call["scale"]).reshape(shape)
    if call["bias"] is not None:
        y = y + f32(call["bias"]).reshape(shape)
    return [y.astype(x.dtype)]


def _in_lower(lb, call: Call):
    x = call["input"]
    c_axis, axes = _in_axes(call.get("layout", "nchw"))
    y = _lower_normalize(lb, lb.cast(x, "float32"), axes, call["epsilon"])
    shape = _param_shape(4, c_axis, lb.shape(x)[c_axis])
    return [_lower_affine(lb, y, call["scale"], call["bias"], shape)]


# --------------------------------------------------------------------------- layerNormalization


def _ln_axes(call: Call, rank: int) -> list[int]:
    axes = call["axes"]
    return list(range(1, rank)) if axes is None else list(axes)


def _ln_infer(call: Call):
    x = call["input"]
    axes = check_axes(_ln_axes(call, x.rank), x.rank)
    expected = tuple(x.shape[a] for a in axes)
    for n in ("scale", "bias"):
        d = call[n]
        if d is not None and d.shape != expected:
            raise WebNNTypeError(f"{n} shape {list(d.shape)} must be {list(expected)} (input dimensions at axes).")
    return [x]


def _ln_param(p: np.ndarray, axes: list[int], rank: int) -> np.ndarray:
    """scale/bias (dimensions in axes order) -> broadcastable to the input."""
    order = np.argsort(axes)
    p = np.transpose(p, order) if len(axes) > 1 else p
    shape = [1] * rank
    for a in axes:
        shape[a] = p.shape[list(sorted(axes)).index(a)]
    return p.reshape(shape)


def _ln_ref(call: Call):
    x = call["input"]
    axes = _ln_axes(call, x.ndim)
    y = _np_normalize(f32(x), tuple(axes), np.float32(call["epsilon"]))
    if call["scale"] is not None:
        y = y * _ln_param(f32(call["scale"]), axes, x.ndim)
    if call["bias"] is not None:
        y = y + _ln_param(f32(call["bias"]), axes, x.ndim)
    return [np.asarray(y).astype(x.dtype)]


def _ln_lower(lb, call: Call):
    x = call["input"]
    in_shape = lb.shape(x)
    rank = len(in_shape)
    axes = _ln_axes(call, rank)
    y = _lower_normalize(lb, lb.cast(x, "float32"), axes, call["epsilon"])
    shape = [in_shape[i] if i in axes else 1 for i in range(rank)]
    order = [int(i) for i in np.argsort(axes)]
    for n, op in (("scale", "Mul"), ("bias", "Add")):
        p = call[n]
        if p is None:
            continue
        p = lb.cast(p, "float32")
        if len(axes) > 1 and order != sorted(order):
            p = lb.node("Transpose", [p], perm=order)
        y = lb.node(op, [y, lb.node("Reshape", [p, lb.ints(shape)])])
    return [y]


register(
    OpDef(
        name="batchNormalization",
        limits={
            "input": Limits(types=F, ranks=(1, None), required_types=F, required_ranks=(3, 5)),
            "mean": same_as("input", same_rank=False, ranks=(1, 1)),
            "variance": same_as("input", same_rank=False, ranks=(1, 1)),
            "scale": same_as("input", same_rank=False, ranks=(1, 1)),
            "bias": same_as("input", same_rank=False, ranks=(1, 1)),
            "output": same_as("input"),
        },
        infer=_bn_infer,
        reference=_bn_ref,
        lower=_bn_lower,
        tolerance=("ulp", 6),
        doc="Batch normalization with given mean and variance along options.axis.",
    ),
    OpDef(
        name="instanceNormalization",
        limits={
            "input": Limits(types=F, ranks=(4, 4), required_types=F, required_ranks=(4, 4)),
            "scale": same_as("input", same_rank=False, ranks=(1, 1)),
            "bias": same_as("input", same_rank=False, ranks=(1, 1)),
            "output": same_as("input"),
        },
        infer=_in_infer,
        reference=_in_ref,
        lower=_in_lower,
        tolerance=lambda call, data_type=None: ("ulp", 8400 if _is_f16(call["input"]) else 840),
        doc="Instance normalization over the spatial axes.",
    ),
    OpDef(
        name="layerNormalization",
        limits={
            "input": Limits(types=F, required_types=F, required_ranks=(0, 5)),
            "scale": same_as("input", same_rank=False),
            "bias": same_as("input", same_rank=False),
            "output": same_as("input"),
        },
        infer=_ln_infer,
        reference=_ln_ref,
        lower=_ln_lower,
        tolerance=lambda call, data_type=None: ("atol", 1 / 512 if _is_f16(call["input"]) else 1 / 1024),
        doc="Layer normalization over options.axes (default: all but the first).",
    ),
)


def _is_f16(v) -> bool:
    dt = getattr(v, "data_type", None)
    return dt == "float16" if dt is not None else v.dtype == np.float16


# Core ML (MIL) lowerings. batchNormalization is spelled out (MIL's batch_norm wants constant
# statistics): (x - mean) / sqrt(variance + epsilon) * scale + bias, parameters shaped for ``axis``.
def _mil_batch_norm(mb, call: Call):
    x = call["input"]
    axis = int(call.get("axis", 1))
    shape = [-1] + [1] * (x.rank - 1 - axis)

    def param(name):
        return mb.reshape(x=call[name], shape=shape)

    std = mb.sqrt(x=mb.add(x=param("variance"), y=mb.scalar(float(call.get("epsilon", 1e-5)), like=x)))
    y = mb.real_div(x=mb.sub(x=x, y=param("mean")), y=std)
    if call["scale"] is not None:
        y = mb.mul(x=y, y=param("scale"))
    if call["bias"] is not None:
        y = mb.add(x=y, y=param("bias"))
    return [y]


def _mil_instance_norm(mb, call: Call):
    x = call["input"]
    nhwc = call.get("layout", "nchw") == "nhwc"
    if nhwc:
        x = mb.transpose(x=x, perm=[0, 3, 1, 2])
    kw = {k: call[n] for k, n in (("gamma", "scale"), ("beta", "bias")) if call[n] is not None}
    y = mb.instance_norm(x=x, epsilon=mb.scalar(float(call.get("epsilon", 1e-5)), like=x), **kw)
    return [mb.transpose(x=y, perm=[0, 2, 3, 1]) if nhwc else y]


def _mil_layer_norm(mb, call: Call):
    """MIL's layer_norm wants scale/bias in ascending axis order (WebNN: in ``axes`` order); with
    no axes, nothing is averaged: (x - x) / sqrt(epsilon), then scale and bias."""
    x = call["input"]
    axes = call["axes"]
    axes = list(range(1, x.rank)) if axes is None else [int(a) for a in axes]
    eps = mb.scalar(float(call.get("epsilon", 1e-5)), like=x)
    perm = [int(i) for i in np.argsort(axes)]

    def param(name):
        p = call[name]
        return p if p is None or perm == sorted(perm) else mb.transpose(x=p, perm=perm)

    if axes:
        kw = {k: param(n) for k, n in (("gamma", "scale"), ("beta", "bias")) if call[n] is not None}
        if "beta" in kw and "gamma" not in kw:  # coremltools' layer_norm reads gamma's shape to check beta's
            kw["gamma"] = mb.scalar(np.ones([int(x.shape[a]) for a in sorted(axes)]), like=x)
        return [mb.layer_norm(x=x, axes=axes, epsilon=eps, **kw)]
    y = mb.real_div(x=mb.sub(x=x, y=x), y=mb.sqrt(x=eps))
    if call["scale"] is not None:
        y = mb.mul(x=y, y=call["scale"])
    return [y if call["bias"] is None else mb.add(x=y, y=call["bias"])]


attach_coreml({"batchNormalization": _mil_batch_norm, "instanceNormalization": _mil_instance_norm,
               "layerNormalization": _mil_layer_norm})


# --------------------------------------------------------------------------- PyTorch
# The reference's formulas in float32 (float16 widened, rounded once by the backend).


def _torch_normalize(tb, x, axes, eps: float):
    if not axes:  # the mean over no axes is x itself
        return (x - x) / tb.torch.sqrt(tb.full(eps, x))
    mean = x.mean(dim=tuple(axes), keepdim=True)
    d = x - mean
    var = (d * d).mean(dim=tuple(axes), keepdim=True)
    return d / tb.torch.sqrt(var + eps)


def _torch_bn(tb, call: Call):
    x = tb.f32(call["input"])
    axis = call["axis"]
    shape = _param_shape(x.dim(), axis, x.shape[axis])

    def p(n):
        return tb.f32(call[n]).reshape(shape)

    y = (x - p("mean")) / tb.torch.sqrt(p("variance") + float(np.float32(call["epsilon"])))
    if call["scale"] is not None:
        y = y * p("scale")
    if call["bias"] is not None:
        y = y + p("bias")
    return [y]


def _torch_in(tb, call: Call):
    x = tb.f32(call["input"])
    c_axis, axes = _in_axes(call.get("layout", "nchw"))
    y = _torch_normalize(tb, x, axes, float(np.float32(call["epsilon"])))
    shape = _param_shape(4, c_axis, x.shape[c_axis])
    if call["scale"] is not None:
        y = y * tb.f32(call["scale"]).reshape(shape)
    if call["bias"] is not None:
        y = y + tb.f32(call["bias"]).reshape(shape)
    return [y]


def _torch_ln_param(p, axes: list[int], rank: int):
    if len(axes) > 1:
        p = p.permute([int(i) for i in np.argsort(axes)])
    shape = [1] * rank
    for a in axes:
        shape[a] = p.shape[sorted(axes).index(a)]
    return p.reshape(shape)


def _torch_ln(tb, call: Call):
    x = tb.f32(call["input"])
    axes = _ln_axes(call, x.dim())
    y = _torch_normalize(tb, x, axes, float(np.float32(call["epsilon"])))
    if call["scale"] is not None:
        y = y * _torch_ln_param(tb.f32(call["scale"]), axes, x.dim())
    if call["bias"] is not None:
        y = y + _torch_ln_param(tb.f32(call["bias"]), axes, x.dim())
    return [y]


attach_torch({"batchNormalization": _torch_bn, "instanceNormalization": _torch_in, "layerNormalization": _torch_ln})
