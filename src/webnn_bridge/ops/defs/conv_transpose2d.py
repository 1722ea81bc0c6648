"""convTranspose2d: 2-D transposed convolution (all options of MLConvTranspose2dOptions).

Internally everything is brought to nchw input and iohw filter ([inputChannels,
outputChannels/groups, height, width]); float16 is computed in float32 and rounded once.
"""

from __future__ import annotations

import numpy as np

from ..core import FLOAT_TYPES, MAX_DIMENSION, OperationError, WebNNTypeError
from ..registry import Call, Limits, OpDef, attach_coreml, attach_torch, register, same_as
from ._common import f32

F = FLOAT_TYPES

# filter layout -> permutation that brings it to iohw
_TO_IOHW = {"iohw": (0, 1, 2, 3), "hwoi": (3, 2, 0, 1), "ohwi": (3, 0, 1, 2)}


def _pairs(call: Call, name: str, n: int, default):
    v = call[name]
    v = list(default) if v is None else list(v)
    if len(v) != n:
        raise WebNNTypeError(f"{name} must have {n} values, got {len(v)}.")
    return v


def _geometry(call: Call, in_shape, f_shape):
    """Validate and return everything the op needs (shapes in nchw / iohw terms)."""
    layout = call.get("inputLayout", "nchw")
    flayout = call.get("filterLayout", "iohw")
    n, c, h, w = in_shape if layout == "nchw" else (in_shape[0], in_shape[3], in_shape[1], in_shape[2])
    fi, fo, kh, kw = (f_shape[p] for p in _TO_IOHW[flayout])
    pad = _pairs(call, "padding", 4, (0, 0, 0, 0))
    strides = _pairs(call, "strides", 2, (1, 1))
    dil = _pairs(call, "dilations", 2, (1, 1))
    out_pad = _pairs(call, "outputPadding", 2, (0, 0))
    groups = call.get("groups", 1)
    if any(s < 1 for s in strides):
        raise WebNNTypeError(f"strides {strides} must be at least 1.")
    if any(d < 1 for d in dil):
        raise WebNNTypeError(f"dilations {dil} must be at least 1.")
    if groups < 1:
        raise WebNNTypeError("groups must be at least 1.")
    if c != fi:
        raise WebNNTypeError(f"input channels {c} must equal the filter's input channels {fi}.")
    # spec: outputPadding must be smaller than strides only when outputSizes is not given (it is
    # ignored otherwise). There is no "input channels divisible by groups" rule at HEAD.
    if call["outputSizes"] is None:
        for i in range(2):
            if out_pad[i] >= strides[i]:
                raise WebNNTypeError(f"outputPadding {out_pad} must be smaller than strides {strides}.")
    if fo * groups > MAX_DIMENSION:
        raise WebNNTypeError(f"output channels {fo} * groups {groups} is not a valid dimension.")
    base = [
        (size - 1) * s + (k - 1) * d + 1 - pb - pe
        for size, s, k, d, pb, pe in ((h, strides[0], kh, dil[0], pad[0], pad[1]), (w, strides[1], kw, dil[1], pad[2], pad[3]))
    ]
    if call["outputSizes"] is not None:
        sizes = _pairs(call, "outputSizes", 2, ())
        for i in range(2):
            if sizes[i] == 0:
                raise WebNNTypeError("outputSizes values must be greater than 0.")
            if not base[i] <= sizes[i] < base[i] + strides[i]:
                raise WebNNTypeError(
                    f"outputSizes {sizes} must be within [{base[i]}, {base[i] + strides[i]}) along axis {i}."
                )
        out_pad = [sizes[i] - base[i] for i in range(2)]
    out_hw = [base[i] + out_pad[i] for i in range(2)]
    if any(o <= 0 or o > MAX_DIMENSION for o in out_hw):
        raise WebNNTypeError(f"the output size {out_hw} is not a valid dimension.")
    oc = fo * groups
    bias = call["bias"]
    if bias is not None and not isinstance(bias, str) and tuple(bias.shape) != (oc,):
        raise WebNNTypeError(f"bias shape {list(bias.shape)} must be [{oc}] (output channels).")
    return dict(layout=layout, flayout=flayout, n=n, c=c, h=h, w=w, kh=kh, kw=kw, oc=oc, groups=groups,
                pad=pad, strides=strides, dil=dil, out_pad=out_pad, out_hw=out_hw)


def _infer(call: Call):
    x, f = call["input"], call["filter"]
    g = _geometry(call, x.shape, f.shape)
    oh, ow = g["out_hw"]
    shape = (g["n"], g["oc"], oh, ow) if g["layout"] == "nchw" else (g["n"], oh, ow, g["oc"])
    return [x.with_shape(shape)]


def _executable(g) -> None:
    # the builder accepts any groups (spec HEAD has no divisibility rule), but a grouped
    # transposed convolution can only run when the input channels split evenly into the groups
    if g["c"] % g["groups"]:
        raise OperationError(f"convTranspose2d: input channels {g['c']} are not divisible by groups {g['groups']}.")


def _reference(call: Call):
    x, f = call["input"], call["filter"]
    g = _geometry(call, x.shape, f.shape)
    _executable(g)
    xf = f32(x).astype(np.float64)
    if g["layout"] == "nhwc":
        xf = xf.transpose(0, 3, 1, 2)
    wf = f32(f).astype(np.float64).transpose(_TO_IOHW[g["flayout"]])  # [C, O/g, kh, kw]
    n, c, h, w = xf.shape
    groups, og = g["groups"], wf.shape[1]
    cg = c // groups
    sh, sw = g["strides"]
    dh, dw = g["dil"]
    pt, pb, pl, pr = g["pad"]
    oh, ow = g["out_hw"]
    full_h = max((h - 1) * sh + (g["kh"] - 1) * dh + 1, pt + oh)
    full_w = max((w - 1) * sw + (g["kw"] - 1) * dw + 1, pl + ow)
    out = np.zeros((n, g["oc"], full_h, full_w))
    for gi in range(groups):
        xg = xf[:, gi * cg:(gi + 1) * cg]
        wg = wf[gi * cg:(gi + 1) * cg]
        for i in range(g["kh"]):
            for j in range(g["kw"]):
                contrib = np.einsum("nchw,co->nohw", xg, wg[:, :, i, j])
                out[:, gi * og:(gi + 1) * og, i * dh:i * dh + (h - 1) * sh + 1:sh, j * dw:j * dw + (w - 1) * sw + 1:sw] += contrib
    out = out[:, :, pt:pt + oh, pl:pl + ow]
    if call["bias"] is not None:
        out = out + f32(call["bias"]).astype(np.float64).reshape(1, -1, 1, 1)
    if g["layout"] == "nhwc":
        out = out.transpose(0, 2, 3, 1)
    return [out.astype(np.float32).astype(x.dtype)]


def _lower(lb, call: Call):
    x, f = call["input"], call["filter"]
    g = _geometry(call, lb.shape(x), lb.shape(f))
    _executable(g)
    xf = lb.cast(x, "float32")
    if g["layout"] == "nhwc":
        xf = lb.node("Transpose", [xf], perm=[0, 3, 1, 2])
    wf = lb.cast(f, "float32")
    if g["flayout"] != "iohw":
        wf = lb.node("Transpose", [wf], perm=list(_TO_IOHW[g["flayout"]]))
    pt, pb, pl, pr = g["pad"]
    inputs = [xf, wf]
    if call["bias"] is not None:
        inputs.append(lb.cast(call["bias"], "float32"))
    y = lb.node(
        "ConvTranspose", inputs,
        kernel_shape=[g["kh"], g["kw"]], strides=g["strides"], dilations=g["dil"], group=g["groups"],
        pads=[pt, pl, pb, pr], output_padding=g["out_pad"],
    )
    if g["layout"] == "nhwc":
        y = lb.node("Transpose", [y], perm=[0, 2, 3, 1])
    return [y]


def _tolerance(call: Call, data_type: str | None = None):
    x, f = call["input"], call["filter"]
    layout = call.get("inputLayout", "nchw")
    c = x.shape[1] if layout == "nchw" else x.shape[3]
    fl = call.get("filterLayout", "iohw")
    fs = f.shape
    kh, kw = {"iohw": (fs[2], fs[3]), "hwoi": (fs[0], fs[1]), "ohwi": (fs[1], fs[2])}[fl]
    return ("ulp", int(kh * kw * (c / call.get("groups", 1)) * 2))


register(
    OpDef(
        name="convTranspose2d",
        limits={
            "input": Limits(types=F, ranks=(4, 4), required_types=F, required_ranks=(4, 4)),
            "filter": same_as("input"),
            "bias": same_as("input", same_rank=False, ranks=(1, 1)),
            "output": same_as("input"),
        },
        infer=_infer,
        reference=_reference,
        lower=_lower,
        tolerance=_tolerance,
        doc="2-D transposed convolution.",
    )
)


# Core ML (MIL): conv_transpose is NCHW with an iohw-ordered weight (not necessarily constant in
# iOS17). outputPadding is taken from the ending padding, since the reference's extra rows/columns
# are the ones beyond it; where it exceeds that padding, zero rows/columns are appended and the
# bias is added after them, as in the reference.
def _mil_conv_transpose2d(mb, call: Call):
    x, f, bias = call["input"], call["filter"], call["bias"]
    g = _geometry(call, [int(d) for d in x.shape], [int(d) for d in f.shape])
    _executable(g)
    if g["layout"] == "nhwc":
        x = mb.transpose(x=x, perm=[0, 3, 1, 2])
    if g["flayout"] != "iohw":
        f = mb.transpose(x=f, perm=list(_TO_IOHW[g["flayout"]]))
    pt, pb, pl, pr = g["pad"]
    oph, opw = g["out_pad"]
    y = mb.conv_transpose(x=x, weight=f, pad_type="custom", pad=[pt, max(pb - oph, 0), pl, max(pr - opw, 0)],
                          strides=g["strides"], dilations=g["dil"], groups=g["groups"])
    extra = [max(oph - pb, 0), max(opw - pr, 0)]
    if any(extra):
        y = mb.pad(x=y, pad=[0, 0, 0, 0, 0, extra[0], 0, extra[1]], mode="constant", constant_val=mb.scalar(0, like=y))
    if bias is not None:
        y = mb.add(x=y, y=mb.reshape(x=bias, shape=[1, g["oc"], 1, 1]))
    return [mb.transpose(x=y, perm=[0, 2, 3, 1]) if g["layout"] == "nhwc" else y]


attach_coreml({"convTranspose2d": _mil_conv_transpose2d})


def _torch_conv_transpose2d(tb, call: Call):
    """PyTorch's transposed convolution without padding (the full output), then the reference's
    window of it: padding cut at the start, the end zero-extended where outputPadding reaches past it."""
    torch = tb.torch
    F = torch.nn.functional
    x, f = tb.f32(call["input"]), tb.f32(call["filter"])
    g = _geometry(call, tuple(x.shape), tuple(f.shape))
    _executable(g)
    if g["layout"] == "nhwc":
        x = x.permute(0, 3, 1, 2)
    if g["flayout"] != "iohw":
        f = f.permute(_TO_IOHW[g["flayout"]])
    y = F.conv_transpose2d(x, f.contiguous(), stride=tuple(g["strides"]), dilation=tuple(g["dil"]), groups=g["groups"])
    pt, _, pl, _ = g["pad"]
    oh, ow = g["out_hw"]
    extra_h, extra_w = max(0, pt + oh - y.shape[2]), max(0, pl + ow - y.shape[3])
    if extra_h or extra_w:
        y = F.pad(y, (0, extra_w, 0, extra_h))
    y = y[:, :, pt:pt + oh, pl:pl + ow]
    if call["bias"] is not None:
        y = y + tb.f32(call["bias"]).reshape(1, -1, 1, 1)
    return [y.permute(0, 2, 3, 1) if g["layout"] == "nhwc" else y]


attach_torch({"convTranspose2d": _torch_conv_transpose2d})
