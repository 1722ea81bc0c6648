"""conv2d: 2-D convolution of a 4-D input with a 4-D filter.

Spec: input float32/float16 rank 4 (layout nchw or nhwc); filter same type, rank 4, layout oihw,
hwio, ohwi or ihwo; optional bias [outputChannels]; padding [beginH, endH, beginW, endW] (default
zeros), strides and dilations of 2 non-zero items (default ones), groups > 0 dividing the input and
output channels, input channels / groups == filter input channels. Output size per spatial dim:
floor(1 + (in - (k - 1) * dilation - 1 + padBegin + padEnd) / stride), which must be a valid dimension.
"""

from __future__ import annotations

import numpy as np

from ..core import FLOAT_TYPES, WebNNTypeError
from ..registry import Call, Limits, OpDef, attach_coreml, attach_litert, attach_torch, register
from . import _nn

# filter layout -> positions of (outputChannels, filterInputChannels, height, width)
FILTER_AXES = {"oihw": (0, 1, 2, 3), "hwio": (3, 2, 0, 1), "ohwi": (0, 3, 1, 2), "ihwo": (3, 0, 1, 2)}

LIMITS = {
    "input": Limits(types=FLOAT_TYPES, ranks=(4, 4), required_types=FLOAT_TYPES, required_ranks=(4, 4)),
    "filter": Limits(same="input", ranks=(4, 4), required_types=FLOAT_TYPES, required_ranks=(4, 4)),
    "bias": Limits(same="input", ranks=(1, 1), required_types=FLOAT_TYPES, required_ranks=(1, 1)),
    "output": Limits(same="input", ranks=(4, 4), required_types=FLOAT_TYPES, required_ranks=(4, 4)),
}


def parse(call: Call, input_shape, filter_shape) -> dict:
    """Validate the options against the shapes; returns the resolved parameters."""
    padding = _nn.option_list(call["padding"], (0, 0, 0, 0), 4, "padding")
    strides = _nn.option_list(call["strides"], (1, 1), 2, "strides", nonzero=True)
    dilations = _nn.option_list(call["dilations"], (1, 1), 2, "dilations", nonzero=True)
    groups = call.get("groups", 1)
    if groups == 0:
        raise WebNNTypeError("groups must not be 0.")
    layout = call.get("inputLayout", "nchw")
    filter_layout = call.get("filterLayout", "oihw")
    batches, in_channels, in_h, in_w = _nn.split_input_shape(input_shape, layout)
    o, i, h, w = FILTER_AXES[filter_layout]
    out_channels, filter_in, kh, kw = filter_shape[o], filter_shape[i], filter_shape[h], filter_shape[w]
    if in_channels % groups:
        raise WebNNTypeError(f"input channels {in_channels} are not divisible by groups {groups}.")
    if in_channels // groups != filter_in:
        raise WebNNTypeError(
            f"input channels / groups ({in_channels} / {groups}) must equal the filter's input channels {filter_in}."
        )
    if out_channels % groups:
        raise WebNNTypeError(f"output channels {out_channels} are not divisible by groups {groups}.")
    out_h = _nn.conv_output_size(in_h, kh, padding[0], padding[1], strides[0], dilations[0])[0]
    out_w = _nn.conv_output_size(in_w, kw, padding[2], padding[3], strides[1], dilations[1])[0]
    _nn.check_output_sizes(out_h, out_w, "conv2d")
    return dict(
        padding=padding,
        strides=strides,
        dilations=dilations,
        groups=groups,
        layout=layout,
        filter_layout=filter_layout,
        batches=batches,
        in_channels=in_channels,
        out_channels=out_channels,
        window=(kh, kw),
        out_hw=(out_h, out_w),
    )


def infer(call: Call):
    x, f, bias = call["input"], call["filter"], call["bias"]
    p = parse(call, x.shape, f.shape)
    if bias is not None and bias.shape != (p["out_channels"],):
        raise WebNNTypeError(f"bias shape {list(bias.shape)} must be [{p['out_channels']}].")
    shape = _nn.join_output_shape(p["batches"], p["out_channels"], *p["out_hw"], p["layout"])
    return [x.with_shape(shape)]


def _filter_to_oihw(f: np.ndarray, layout: str) -> np.ndarray:
    return np.transpose(f, FILTER_AXES[layout])


def reference(call: Call):
    x, f, bias = call["input"], call["filter"], call["bias"]
    p = parse(call, x.shape, f.shape)
    dtype = x.dtype
    work = np.float32 if dtype == np.float16 else dtype
    xn = _nn.to_nchw_array(x, p["layout"]).astype(work)
    w = _filter_to_oihw(f, p["filter_layout"]).astype(work)
    g = p["groups"]
    win = _nn.windows(xn, p["window"], p["padding"], p["strides"], p["dilations"], p["out_hw"], 0)
    n, c, oh, ow, kh, kw = win.shape
    win = win.reshape(n, g, c // g, oh, ow, kh, kw)
    wg = w.reshape(g, w.shape[0] // g, c // g, kh, kw)
    y = np.einsum("ngcxyij,gocij->ngoxy", win, wg, optimize=True).reshape(n, -1, oh, ow)
    if bias is not None:
        y = y + bias.astype(work).reshape(1, -1, 1, 1)
    return [_nn.from_nchw_array(y, p["layout"]).astype(dtype)]


def lower(lb, call: Call):
    x, f, bias = call["input"], call["filter"], call["bias"]
    p = parse(call, lb.shape(x), lb.shape(f))
    xn = _nn.transpose(lb, x, _nn.TO_NCHW[p["layout"]])
    perm = FILTER_AXES[p["filter_layout"]]
    pad = p["padding"]
    in_hw = _nn.split_input_shape(lb.shape(x), p["layout"])[2:]
    # a height (width) of 1 that the filter and padding keep: 1-D along the other; but on the host
    # an input of 1 x 1 (a squeeze-and-excitation block's pooled channels) stays 2-D: ONNX Runtime
    # fuses the activation after a 2-D Conv too, and the 1-D form's reshapes around each such conv
    # cost more (an OCR direction classifier, 0.401 -> 0.390 ms a run; the recogniser 9.41 -> 9.21)
    one_by_one = lb.target == "native" and tuple(in_hw) == (1, 1)
    for flat in () if one_by_one else (0, 1):
        if in_hw[flat] == 1 and p["window"][flat] == 1 and pad[2 * flat] == pad[2 * flat + 1] == 0:
            y = _lower_1d(lb, xn, f, bias, p, perm, 1 - flat, in_hw[1 - flat])
            return [_nn.transpose(lb, y, _nn.FROM_NCHW[p["layout"]])]
    w = _nn.transpose(lb, f, None if perm == (0, 1, 2, 3) else perm)
    inputs = [xn, w] + ([bias] if bias is not None else [])
    y = lb.node(
        "Conv",
        inputs,
        pads=[pad[0], pad[2], pad[1], pad[3]],
        strides=p["strides"],
        dilations=p["dilations"],
        group=p["groups"],
        kernel_shape=list(p["window"]),
    )
    return [_nn.transpose(lb, y, _nn.FROM_NCHW[p["layout"]])]


def _lower_1d(lb, xn, f, bias, p, perm, axis: int, length: int):
    """A convolution over a height (or width) of 1 with a filter of height (width) 1 and no
    padding there, so 1-D along spatial ``axis`` (0: height, 1: width) of ``length``, as ONNX's
    1-D Conv on the [N, C, length] view of the NCHW input (for the page's wasm, where it runs
    faster so, a MatMul of its frames: _lower_framed). onnxruntime-web's WebNN EP sends ONNX's
    1-D Conv so; ONNX Runtime fuses a 1-D Conv with an activation after it and keeps it out of its
    NCHWc layout, and lower_graph's fold_reshapes merges the reshapes around it with the graph's."""
    g, n, out_c, k = p["groups"], p["batches"], p["out_channels"], p["window"][axis]
    x3 = lb.node("Reshape", [xn, lb.ints([n, p["in_channels"], length])])
    out_len = p["out_hw"][axis]
    framed = lb.folded(f) if lb.target == "wasm" and g == 1 and _frames_win(p["in_channels"], k, out_len) else None
    if framed is not None and lb.dtype(x3) == "float32":
        w2 = np.transpose(framed, perm).reshape(out_c, -1).T  # [in_channels * k, out_c]
        y = _lower_framed(lb, x3, lb.const(np.ascontiguousarray(w2), "filter"), bias, p, axis, length)
    else:
        y = _lower_conv1d(lb, x3, f, bias, p, perm, axis)
    return lb.node("Reshape", [y, lb.ints([n, out_c, out_len, 1] if axis == 0 else [n, out_c, 1, out_len])])


def _lower_conv1d(lb, x3, f, bias, p, perm, axis: int):
    """ONNX's 1-D Conv of ``x3`` ([N, C, length]): [N, out_c, out_len]."""
    g, out_c, k = p["groups"], p["out_channels"], p["window"][axis]
    shape3 = [out_c, p["in_channels"] // g, k]
    array = lb.constant(f)
    if array is not None:  # a constant filter: a constant of the 1-D shape
        w3 = lb.const(np.ascontiguousarray(np.transpose(array, perm)).reshape(shape3), "filter")
    else:
        w3 = lb.node("Reshape", [_nn.transpose(lb, f, None if perm == (0, 1, 2, 3) else perm), lb.ints(shape3)])
    y = lb.node(
        "Conv",
        [x3, w3] + ([bias] if bias is not None else []),
        pads=[p["padding"][2 * axis], p["padding"][2 * axis + 1]],
        strides=[p["strides"][axis]],
        dilations=[p["dilations"][axis]],
        group=g,
        kernel_shape=[k],
    )
    lb.shapes[y] = (p["batches"], out_c, p["out_hw"][axis])
    return y


# onnxruntime-web's wasm Conv pays about 0.1 ms a run for a 1-D convolution with a filter of
# 257x512 whatever its output length (a few frames: 137 us for 8, 138 for 16), where the same
# product as a MatMul of the gathered frames by the constant filter (which ONNX Runtime packs once,
# when the session is made) costs 108 us for 8 frames, 38 against 78 us for silero VAD's 258x256
# filter over 4, 35 against 125 us over 2, but grows with the frames (190 us for 16). With input
# channels the frames' gather and transposes cost more: six 3-tap convolutions of 64 channels took
# 37 against 112 us over 1 position, 67 against 120 over 2, 88 against 85 over 4 (128 channels: 183
# against 281), 150 against 85 over 8. Measured in the page's runtime in Debian's Chromium; so the
# page's models (OnnxLowering target "wasm") take the MatMul form where it won (_frames_win).
# Native ONNX Runtime gained little or lost (24 -> 27 us for 8 frames of 257x512): the host's
# models keep Conv.
WASM_FRAMES_MAX = 8  # output positions of a one-channel (signal) convolution


def _frames_win(in_channels: int, k: int, positions: int) -> bool:
    """Whether onnxruntime-web's wasm runs a 1-D convolution faster as a MatMul of its frames:
    up to 2 output positions; a one-channel filter up to WASM_FRAMES_MAX; up to 4 where the
    filter's window holds 256 values or more."""
    return (positions <= 2 or (in_channels == 1 and positions <= WASM_FRAMES_MAX)
            or (positions <= 4 and in_channels * k >= 256))


def _lower_framed(lb, x3, w2, bias, p, axis: int, length: int):
    """The 1-D convolution of ``x3`` ([N, C, length]) as a MatMul: its frames (the windows each
    output position reads, gathered by constant indices after any padding) by ``w2``, the
    filter as a constant [C * k, out_c]; then the bias, and the [N, out_c, out_len] layout."""
    n, c, out_c, out_len = p["batches"], p["in_channels"], p["out_channels"], p["out_hw"][axis]
    k, stride, dilation = p["window"][axis], p["strides"][axis], p["dilations"][axis]
    before, after = p["padding"][2 * axis], p["padding"][2 * axis + 1]
    x = x3
    if before or after:
        x = lb.node("Pad", [x3, lb.ints([0, 0, before, 0, 0, after])])
        lb.shapes[x] = (n, c, length + before + after)
    index = np.arange(out_len)[:, None] * stride + np.arange(k)[None, :] * dilation  # [out_len, k]
    frames = lb.node("Gather", [x, lb.const(index.astype(np.int32), "frames")], axis=2)  # [N, C, out_len, k]
    if c > 1:
        frames = lb.node("Transpose", [frames], perm=[0, 2, 1, 3])
    frames = lb.node("Reshape", [frames, lb.ints([n, out_len, c * k])])
    y = lb.node("MatMul", [frames, w2])  # [N, out_len, out_c]
    if bias is not None:
        y = lb.node("Add", [y, bias])
    y = lb.node("Reshape", [y, lb.ints([n, out_c, 1])]) if out_len == 1 else lb.node("Transpose", [y], perm=[0, 2, 1])
    lb.shapes[y] = (n, out_c, out_len)
    return y


def tolerance(call: Call, data_type: str):
    """WPT: ULP = filterHeight * filterWidth * (inputChannels / groups) * 2."""
    x, f = call["input"], call["filter"]
    p = parse(call, x.shape, f.shape)
    kh, kw = p["window"]
    return ("ulp", kh * kw * (p["in_channels"] // p["groups"]) * 2)


register(
    OpDef(
        name="conv2d",
        limits=LIMITS,
        infer=infer,
        reference=reference,
        lower=lower,
        tolerance=tolerance,
        doc="2-D convolution (nchw/nhwc input, oihw/hwio/ohwi/ihwo filter, groups, bias).",
    )
)


# Core ML (MIL) lowering: MIL's conv is NCHW/OIHW; other layouts are transposed around it.
_TO_OIHW = {"oihw": None, "hwio": [3, 2, 0, 1], "ohwi": [0, 3, 1, 2], "ihwo": [3, 0, 1, 2]}


def _mil_conv2d(mb, call: Call):
    x, f, bias = call["input"], call["filter"], call["bias"]
    nhwc = call.get("inputLayout", "nchw") == "nhwc"
    if nhwc:
        x = mb.transpose(x=x, perm=[0, 3, 1, 2])
    perm = _TO_OIHW[call.get("filterLayout", "oihw")]
    if perm is not None:
        f = mb.transpose(x=f, perm=perm)
    pad = [int(p) for p in call.get("padding", (0, 0, 0, 0))]
    kw = {} if bias is None else {"bias": bias}
    y = mb.conv(x=x, weight=f, strides=[int(s) for s in call.get("strides", (1, 1))], pad_type="custom", pad=pad,
                dilations=[int(d) for d in call.get("dilations", (1, 1))], groups=int(call.get("groups", 1)), **kw)
    return [mb.transpose(x=y, perm=[0, 2, 3, 1]) if nhwc else y]


attach_coreml({"conv2d": _mil_conv2d})


def _torch_conv2d(tb, call: Call):
    """NCHW input, OIHW filter (other layouts permuted around), asymmetric padding applied first."""
    F = tb.torch.nn.functional
    x, f, bias = tb.f32(call["input"]), tb.f32(call["filter"]), call["bias"]
    p = parse(call, tuple(x.shape), tuple(f.shape))
    if p["layout"] == "nhwc":
        x = x.permute(0, 3, 1, 2)
    if p["filter_layout"] != "oihw":
        f = f.permute(FILTER_AXES[p["filter_layout"]])
    pt, pb, pl, pr = p["padding"]
    pad = 0
    if (pt, pl) == (pb, pr):
        pad = (pt, pl)
    else:
        x = F.pad(x, (pl, pr, pt, pb))
    y = F.conv2d(x, f.contiguous(), None if bias is None else tb.f32(bias), stride=tuple(p["strides"]), padding=pad,
                 dilation=tuple(p["dilations"]), groups=p["groups"])
    return [y.permute(0, 2, 3, 1) if p["layout"] == "nhwc" else y]


attach_torch({"conv2d": _torch_conv2d})


def _litert_conv2d(lt, call: Call):
    """NHWC input (an NCHW one stays NHWC after: backends/litert.py), OHWI filter (a depthwise
    convolution's [1, H, W, O]), padding as TFLite's SAME where it is that, else a PAD op first."""
    x, f, bias = call["input"], call["filter"], call["bias"]
    p = parse(call, x.logical_shape, f.logical_shape)
    xh = lt.as_nhwc(x) if p["layout"] == "nchw" else lt.logical(x)
    g, cin, cout = p["groups"], p["in_channels"], p["out_channels"]
    depthwise = g == cin and g > 1
    # filter -> OHWI, or [1, H, W, O] for a depthwise convolution
    to_oihw = FILTER_AXES[p["filter_layout"]]
    perm = [to_oihw[i] for i in (1, 2, 3, 0)] if depthwise else [to_oihw[i] for i in (0, 2, 3, 1)]
    if f.const is not None:
        fw = lt.constant(np.transpose(f.const, perm))
    else:
        fw = lt.transpose(lt.logical(f), perm)
    if bias is None:
        bias = lt.constant(np.zeros(cout, np.float32))
    in_hw = xh.shape[1:3]
    mode, rest = lt.padding_mode(in_hw, p["window"], p["padding"], p["strides"], p["dilations"])
    xh = lt.pad_hw(xh, rest)
    shape = (p["batches"], *p["out_hw"], cout)
    sh, sw = p["strides"]
    dh, dw = p["dilations"]
    if depthwise:
        opt = lt.opts("DepthwiseConv2DOptions", padding=mode, strideH=sh, strideW=sw, depthMultiplier=cout // cin,
                      dilationHFactor=dh, dilationWFactor=dw)
        code = lt.ops.DEPTHWISE_CONV_2D
    else:
        opt = lt.opts("Conv2DOptions", padding=mode, strideH=sh, strideW=sw, dilationHFactor=dh, dilationWFactor=dw)
        code = lt.ops.CONV_2D
    return [lt.op(code, [xh, fw, lt.logical(bias)], shape, *opt, nhwc=p["layout"] == "nchw")]


attach_litert({"conv2d": _litert_conv2d})
