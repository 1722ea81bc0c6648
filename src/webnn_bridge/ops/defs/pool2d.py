"""The pool2d family: averagePool2d, l2Pool2d, maxPool2d (one table row each).

Spec ("create a pooling operation"): input rank 4 (layout nchw/nhwc); windowDimensions default to
the input's spatial size, 2 non-zero items; padding [beginH, endH, beginW, endW] default zeros;
strides and dilations 2 non-zero items, default ones; output size per spatial dim is
1 + (in - (window - 1) * dilation - 1 + padBegin + padEnd) / stride rounded by outputShapeRounding
(floor/ceil), or given by outputSizes, which must equal the floor pair or the ceil pair.

Semantics: padding never contributes to a result. averagePool2d divides by the number of input
elements in the window (padding excluded, like ONNX count_include_pad=0); l2Pool2d is
sqrt(sum(x^2)) over the window; maxPool2d the maximum.

Spec note: at HEAD the step "If outputSizes exists, or padding does not exist, set padding to
zeros" reads as if outputSizes discarded padding; WPT's validation tests (outputSizes [4, 4] for a
7x7 input, 4x4 window, padding 1, strides 2) require padding to be kept, so it is kept here.
"""

from __future__ import annotations

import numpy as np

from ..core import ALL_TYPES, DATA_TYPES, FLOAT_TYPES, WebNNTypeError
from ..registry import Call, Limits, OpDef, attach_coreml, attach_litert, attach_torch, register
from . import _nn
from ._common import INT64_MIN, from_ordered, int64_extreme, ordered_int64

ONNX_DOUBLE = 11  # onnx.TensorProto.DOUBLE


def parse(call: Call, input_shape) -> dict:
    layout = call.get("layout", "nchw")
    batches, channels, in_h, in_w = _nn.split_input_shape(input_shape, layout)
    window = _nn.option_list(call["windowDimensions"], (in_h, in_w), 2, "windowDimensions", nonzero=True)
    padding = _nn.option_list(call["padding"], (0, 0, 0, 0), 4, "padding")
    strides = _nn.option_list(call["strides"], (1, 1), 2, "strides", nonzero=True)
    output_sizes = call["outputSizes"]
    if output_sizes is not None:
        output_sizes = _nn.option_list(output_sizes, (), 2, "outputSizes")
    dilations = _nn.option_list(call["dilations"], (1, 1), 2, "dilations", nonzero=True)
    fh, ch = _nn.conv_output_size(in_h, window[0], padding[0], padding[1], strides[0], dilations[0])
    fw, cw = _nn.conv_output_size(in_w, window[1], padding[2], padding[3], strides[1], dilations[1])
    if output_sizes is not None:
        out_h, out_w = output_sizes
        if not ((out_h, out_w) == (fh, fw) or (out_h, out_w) == (ch, cw)):
            raise WebNNTypeError(
                f"outputSizes {output_sizes} must be the floor ({[fh, fw]}) or ceil ({[ch, cw]}) output sizes."
            )
    elif "ceil" in (call.get("outputShapeRounding", "floor"), call.get("roundingType", "floor")):
        # roundingType: the legacy name (idl/extensions.idl), used when outputShapeRounding is default
        out_h, out_w = ch, cw
    else:
        out_h, out_w = fh, fw
    _nn.check_output_sizes(out_h, out_w, call.op)
    return dict(
        layout=layout,
        batches=batches,
        channels=channels,
        in_hw=(in_h, in_w),
        window=window,
        padding=padding,
        strides=strides,
        dilations=dilations,
        out_hw=(out_h, out_w),
    )


def infer(call: Call):
    x = call["input"]
    p = parse(call, x.shape)
    return [x.with_shape(_nn.join_output_shape(p["batches"], p["channels"], *p["out_hw"], p["layout"]))]


def _lowest(dtype: np.dtype):
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min


def _window_args(p):
    return p["window"], p["padding"], p["strides"], p["dilations"], p["out_hw"]


def _ref_max(x: np.ndarray, p) -> np.ndarray:
    win = _nn.windows(x, *_window_args(p), fill=_lowest(x.dtype))
    return win.max(axis=(4, 5))


def _ref_average(x: np.ndarray, p) -> np.ndarray:
    work = np.float32 if x.dtype == np.float16 else x.dtype
    win = _nn.windows(x.astype(work), *_window_args(p), fill=0)
    ones = np.ones((1, 1) + x.shape[2:], work)
    count = _nn.windows(ones, *_window_args(p), fill=0).sum(axis=(4, 5))
    with np.errstate(invalid="ignore", divide="ignore"):
        return (win.sum(axis=(4, 5)) / count).astype(x.dtype)


def _ref_l2(x: np.ndarray, p) -> np.ndarray:
    work = np.float32 if x.dtype == np.float16 else x.dtype
    win = _nn.windows(x.astype(work), *_window_args(p), fill=0)
    return np.sqrt(np.square(win).sum(axis=(4, 5))).astype(x.dtype)


# ----------------------------------------------------------------------------- ONNX lowering


def _pads_for_onnx(p) -> list[int]:
    """ONNX pads [hBegin, wBegin, hEnd, wEnd], with the end grown so floor rounding (ONNX
    ceil_mode=0) yields the declared output size."""
    extra = _nn.extra_end_padding(p["in_hw"], *_window_args(p))
    pad = p["padding"]
    return [pad[0], pad[2], pad[1] + extra[0], pad[3] + extra[1]]


def _explicit_pad(lb, x: str, p, pads: list[int], fill: str) -> str:
    """Pad the NCHW value with the scalar value ``fill`` (pads [hBegin, wBegin, hEnd, wEnd], for
    pads that ONNX pooling attributes cannot express). Built from Concat, not Pad: ONNX Runtime
    fuses Pad into a following pool's pads and then rejects them for being as large as the window."""
    n, c = p["batches"], p["channels"]
    h, w = p["in_hw"]

    def block(shape):
        return lb.node("Expand", [fill, lb.ints(shape)])

    if pads[0] or pads[2]:
        parts = ([block([n, c, pads[0], w])] if pads[0] else []) + [x]
        parts += [block([n, c, pads[2], w])] if pads[2] else []
        x = lb.node("Concat", parts, axis=2)
    h += pads[0] + pads[2]
    if pads[1] or pads[3]:
        parts = ([block([n, c, h, pads[1]])] if pads[1] else []) + [x]
        parts += [block([n, c, h, pads[3]])] if pads[3] else []
        x = lb.node("Concat", parts, axis=3)
    return x


def _pool_attrs(p, pads) -> dict:
    return dict(
        kernel_shape=list(p["window"]),
        strides=list(p["strides"]),
        dilations=list(p["dilations"]),
        pads=pads,
        ceil_mode=0,
    )


def _fits(p, pads) -> bool:
    """ONNX Runtime rejects pooling pads that are not smaller than the window."""
    kh, kw = p["window"]
    return pads[0] < kh and pads[2] < kh and pads[1] < kw and pads[3] < kw


_EXACT64_MAX_WINDOW = 256


def _lower_max_exact64(lb, x: str, p) -> str:
    """maxPool2d of 64-bit integers without float64: one strided slice per window position,
    stacked on a new last axis, reduced with the exact int64 maximum of reduceMax (uint64 goes
    through an order-preserving int64 mapping)."""
    unsigned = lb.dtype(x) == "uint64"
    v = ordered_int64(lb, x) if unsigned else x
    pads = _pads_for_onnx(p)
    if any(pads):
        v = _explicit_pad(lb, v, p, pads, lb.scalar(INT64_MIN, "int64"))
    (kh, kw), (sh, sw), (dh, dw) = p["window"], p["strides"], p["dilations"]
    oh, ow = p["out_hw"]
    parts = []
    for i in range(kh):
        for j in range(kw):
            s = lb.node("Slice", [v, lb.ints([i * dh, j * dw]),
                                  lb.ints([i * dh + (oh - 1) * sh + 1, j * dw + (ow - 1) * sw + 1]),
                                  lb.ints([2, 3]), lb.ints([sh, sw])])
            parts.append(lb.node("Unsqueeze", [s, lb.ints([4])]))
    stacked = parts[0] if len(parts) == 1 else lb.node("Concat", parts, axis=4)
    y = int64_extreme(lb, stacked, "reduceMax", [p["batches"], p["channels"], oh, ow, kh * kw], [4], False)
    return from_ordered(lb, y) if unsigned else y


def _whole_window(lb, x: str, p) -> bool:
    """A float32 window that covers the whole unpadded input (one output per channel): ONNX's
    global pools compute it, about 10x faster in ONNX Runtime than the same window as a kernel
    (onnxruntime-web's WebNN EP sends ONNX GlobalAveragePool as such an averagePool2d)."""
    return (lb.dtype(x) == "float32" and tuple(p["window"]) == tuple(p["in_hw"]) and not any(p["padding"])
            and tuple(p["dilations"]) == (1, 1) and tuple(p["out_hw"]) == (1, 1))


def _lower_max(lb, x: str, p) -> str:
    dtype = lb.dtype(x)
    if _whole_window(lb, x, p):
        return lb.node("GlobalMaxPool", [x])
    pads = _pads_for_onnx(p)
    if dtype in ("float32", "float16", "int8", "uint8"):
        if not _fits(p, pads):
            x = _explicit_pad(lb, x, p, pads, lb.scalar(_lowest(DATA_TYPES[dtype].numpy), dtype))
            pads = [0, 0, 0, 0]
        return lb.node("MaxPool", [x], **_pool_attrs(p, pads))
    if dtype in ("int64", "uint64") and p["window"][0] * p["window"][1] <= _EXACT64_MAX_WINDOW:
        return _lower_max_exact64(lb, x, p)
    # ONNX MaxPool has no int32/int64/uint32/uint64 kernels: compute those in float64 (exact for
    # 32-bit integers; 64-bit values beyond 2^53 lose precision, for windows too large for the
    # exact path below).
    v = lb.node("Cast", [x], to=ONNX_DOUBLE)
    if not _fits(p, pads):
        v = _explicit_pad(lb, v, p, pads, lb.const(np.array(-np.inf, np.float64), "lowest"))
        pads = [0, 0, 0, 0]
    y = lb.node("MaxPool", [v], **_pool_attrs(p, pads))
    return lb.node("Cast", [y], dtype=dtype, to=DATA_TYPES[dtype].onnx)


def _lower_average(lb, x: str, p) -> str:
    if _whole_window(lb, x, p):
        return lb.node("GlobalAveragePool", [x])
    pads = _pads_for_onnx(p)
    # the per-position count of input elements in the window (a constant of the shapes)
    ones = np.ones((1, 1) + tuple(p["in_hw"]), np.float64)
    count = _nn.windows(ones, *_window_args(p), fill=0).sum(axis=(4, 5))
    dt = np.dtype(lb.dtype(x))
    if _fits(p, pads):
        y = lb.node("AveragePool", [x], count_include_pad=0, **_pool_attrs(p, pads))
    else:
        # padding at least as large as the window: pad explicitly with zeros, sum-pool, then
        # divide by the count
        v = _explicit_pad(lb, x, p, pads, lb.scalar(0, lb.dtype(x)))
        kh, kw = p["window"]
        summed = lb.node("AveragePool", [v], **_pool_attrs(p, [0, 0, 0, 0]))  # sum / (kh*kw)
        scale = (kh * kw) / np.where(count == 0, kh * kw, count)
        y = lb.node("Mul", [summed, lb.const(scale.astype(dt), "count")])
    if np.any(count == 0):
        # a window of padding alone averages no element: NaN, as 0/0 (ONNX Runtime's AveragePool
        # gives it; OpenVINO's gave 0)
        y = lb.node("Where", [lb.const(count == 0, "empty"), lb.const(np.array(np.nan, dt), "nan"), y])
    return y


def _lower_l2(lb, x: str, p) -> str:
    if _whole_window(lb, x, p):
        return lb.node("GlobalLpPool", [x], p=2)
    pads = _pads_for_onnx(p)
    if not _fits(p, pads):
        x = _explicit_pad(lb, x, p, pads, lb.scalar(0, lb.dtype(x)))
        pads = [0, 0, 0, 0]
    return lb.node("LpPool", [x], p=2, **_pool_attrs(p, pads))


_ROWS = {
    # name: (allowed input types, numpy reference, lowering, has ULP window tolerance)
    "averagePool2d": (FLOAT_TYPES, _ref_average, _lower_average, True),
    "l2Pool2d": (FLOAT_TYPES, _ref_l2, _lower_l2, True),
    "maxPool2d": (ALL_TYPES, _ref_max, _lower_max, False),
}


def _make(name: str, allowed, ref_fn, lower_fn, windowed_tolerance: bool) -> OpDef:
    def reference(call: Call):
        x = call["input"]
        p = parse(call, x.shape)
        y = ref_fn(_nn.to_nchw_array(x, p["layout"]), p)
        return [_nn.from_nchw_array(y, p["layout"])]

    def lower(lb, call: Call):
        x = call["input"]
        p = parse(call, lb.shape(x))
        y = lower_fn(lb, _nn.transpose(lb, x, _nn.TO_NCHW[p["layout"]]), p)
        return [_nn.transpose(lb, y, _nn.FROM_NCHW[p["layout"]])]

    def tolerance(call: Call, data_type: str):
        """WPT: ULP = windowHeight * windowWidth + 2 for average/l2, 0 for max."""
        if not windowed_tolerance:
            return ("ulp", 0)
        kh, kw = parse(call, call["input"].shape)["window"]
        return ("ulp", kh * kw + 2)

    return OpDef(
        name=name,
        limits={
            "input": Limits(types=allowed, ranks=(4, 4), required_types=FLOAT_TYPES, required_ranks=(4, 4)),
            "output": Limits(same="input", ranks=(4, 4), required_types=FLOAT_TYPES, required_ranks=(4, 4)),
        },
        infer=infer,
        reference=reference,
        lower=lower,
        tolerance=tolerance,
        doc=f"{name}: 2-D pooling over windows of a 4-D input.",
    )


register(*(_make(n, *row) for n, row in _ROWS.items()))


# Core ML (MIL) lowerings: MIL pools are NCHW, undilated and float-only; ceil rounding is MIL's
# ceil_mode. Dilated windows and integer maxPool2d: one strided slice per window position of the
# reference's padded input, reduced with maximum or summed (float32 inside for float16 sums).
_MIL_POOL = {"averagePool2d": ("avg_pool", {"exclude_padding_from_average": True}), "maxPool2d": ("max_pool", {}),
             "l2Pool2d": ("l2_pool", {})}
_MIL_MAX_WINDOW = 256  # window positions the slice form unrolls at most


def _mil_pool_slices(mb, x, name: str, p):
    (kh, kw), (sh, sw), (dh, dw) = p["window"], p["strides"], p["dilations"]
    if kh * kw > _MIL_MAX_WINDOW:
        raise NotImplementedError(f"{name} with dilations or integers and a {kh}x{kw} window")
    dt = mb.webnn_type(x)
    is_max = name == "maxPool2d"
    v = mb.wide(mb.cast(x=x, dtype="fp32") if dt == "float16" and not is_max else x)
    extra = _nn.extra_end_padding(p["in_hw"], *_window_args(p))
    pad = p["padding"]
    v = mb.pad_blocks(v, [(0, 0), (0, 0), (pad[0], pad[1] + extra[0]), (pad[2], pad[3] + extra[1])],
                      _lowest(np.dtype(dt)) if is_max else 0)
    (oh, ow), n, c = p["out_hw"], int(v.shape[0]), int(v.shape[1])
    acc = None
    for i in range(kh):
        for j in range(kw):
            s = mb.slice_by_index(x=v, begin=[0, 0, i * dh, j * dw], end=[n, c, i * dh + (oh - 1) * sh + 1,
                                                                          j * dw + (ow - 1) * sw + 1],
                                  stride=[1, 1, sh, sw])
            s = mb.mul(x=s, y=s) if name == "l2Pool2d" else s
            acc = s if acc is None else (mb.maximum if is_max else mb.add)(x=acc, y=s)
    if name == "averagePool2d":
        ones = np.ones((1, 1) + tuple(p["in_hw"]), np.float32)
        acc = mb.real_div(x=acc, y=_nn.windows(ones, *_window_args(p), fill=0).sum(axis=(4, 5)).astype(np.float32))
    elif name == "l2Pool2d":
        acc = mb.sqrt(x=acc)
    if dt == "float16" and not is_max:
        acc = mb.cast(x=acc, dtype="fp16")
    return mb.narrow(acc, dt)


def _mil_pool(name: str):
    op, extra = _MIL_POOL[name]

    def lower(mb, call: Call):
        x = call["input"]
        p = parse(call, tuple(x.shape))
        nhwc = p["layout"] == "nhwc"
        if nhwc:
            x = mb.transpose(x=x, perm=[0, 3, 1, 2])
        floor = tuple(_nn.conv_output_size(p["in_hw"][i], p["window"][i], p["padding"][2 * i],
                                           p["padding"][2 * i + 1], p["strides"][i], 1)[0] for i in range(2))
        ceil = tuple(p["out_hw"]) != floor
        if tuple(p["dilations"]) != (1, 1) or not mb.is_float(x) or (ceil and op == "l2_pool"):  # no ceil_mode
            y = _mil_pool_slices(mb, x, name, p)
        else:
            kw = {"ceil_mode": True} if ceil else {}
            y = getattr(mb, op)(x=x, kernel_sizes=list(p["window"]), strides=list(p["strides"]), pad_type="custom",
                                pad=list(p["padding"]), **extra, **kw)
        return [mb.transpose(x=y, perm=[0, 2, 3, 1]) if nhwc else y]

    return lower


attach_coreml({n: _mil_pool(n) for n in ("averagePool2d", "l2Pool2d")}, types=FLOAT_TYPES)
attach_coreml({"maxPool2d": _mil_pool("maxPool2d")}, types=FLOAT_TYPES + ("int32", "int8", "uint8"))


# --------------------------------------------------------------------------- PyTorch
# The reference's windows: the NCHW input padded with the op's neutral value (and at the end as
# far as the output size needs), unfolded into [N, C, OH, OW, KH, KW] and reduced. maxPool2d of
# floats with padding PyTorch's max_pool2d takes uses it (the same maximum, faster on a GPU).


def _torch_windows(tb, x, p, fill):
    (kh, kw), pad, (sh, sw), (dh, dw), (oh, ow) = _window_args(p)
    eff_h, eff_w = (kh - 1) * dh + 1, (kw - 1) * dw + 1
    h, w = x.shape[2], x.shape[3]
    eh, ew = _nn.extra_end_padding((h, w), *_window_args(p))
    ph = (pad[0], pad[1] + eh)
    pw = (pad[2], pad[3] + ew)
    if any(ph) or any(pw):
        xp = tb.torch.full((x.shape[0], x.shape[1], h + sum(ph), w + sum(pw)), fill, dtype=x.dtype, device=x.device)
        xp[:, :, ph[0]:ph[0] + h, pw[0]:pw[0] + w] = x
        x = xp
    win = x.unfold(2, eff_h, sh).unfold(3, eff_w, sw)
    return win[:, :, :oh, :ow, ::dh, ::dw]


def _torch_max(tb, x, p, dt):
    torch = tb.torch
    (kh, kw), pad = p["window"], p["padding"]
    extra = _nn.extra_end_padding(p["in_hw"], *_window_args(p))
    if (x.is_floating_point() and not any(extra) and pad[0] == pad[1] and pad[2] == pad[3]
            and 2 * pad[0] <= kh and 2 * pad[2] <= kw):
        return torch.nn.functional.max_pool2d(x, (kh, kw), tuple(p["strides"]), (pad[0], pad[2]), tuple(p["dilations"]))
    if x.is_floating_point():
        fill = -np.inf
    elif dt == "uint64":
        fill = -(2**63)
    else:
        fill = tb.int_range(dt)[0]
    v = tb.ordered(x, dt)
    return tb.unordered(_torch_windows(tb, v, p, fill).amax(dim=(4, 5)), dt)


def _torch_fast_path(p) -> bool:
    """PyTorch's own pooling computes these windows: symmetric padding of at most half the window,
    no dilation, and no windows beyond the padded input (floor rounding)."""
    (kh, kw), pad = p["window"], p["padding"]
    extra = _nn.extra_end_padding(p["in_hw"], *_window_args(p))
    return (not any(extra) and pad[0] == pad[1] and pad[2] == pad[3] and 2 * pad[0] <= kh and 2 * pad[2] <= kw
            and tuple(p["dilations"]) == (1, 1))


def _torch_average(tb, x, p, dt):
    x = tb.f32(x)
    if _torch_fast_path(p):  # padding excluded from the count, as the reference
        pad = p["padding"]
        return tb.torch.nn.functional.avg_pool2d(x, tuple(p["window"]), tuple(p["strides"]), (pad[0], pad[2]),
                                                 count_include_pad=False)
    ones = np.ones((1, 1) + tuple(p["in_hw"]), np.float32)
    count = tb.const(_nn.windows(ones, *_window_args(p), fill=0).sum(axis=(4, 5)))
    return _torch_windows(tb, x, p, 0.0).sum(dim=(4, 5)) / count


def _torch_l2(tb, x, p, dt):
    x = tb.f32(x)
    return tb.torch.sqrt(_torch_windows(tb, x * x, p, 0.0).sum(dim=(4, 5)))


def _torch_pool(fn):
    def lower(tb, call: Call):
        x = call["input"]
        dt = tb.type(x)
        p = parse(call, tuple(x.shape))
        nhwc = p["layout"] == "nhwc"
        if nhwc:
            x = x.permute(0, 3, 1, 2)
        y = fn(tb, x, p, dt)
        return [y.permute(0, 2, 3, 1) if nhwc else y]

    return lower


attach_torch({"averagePool2d": _torch_pool(_torch_average), "l2Pool2d": _torch_pool(_torch_l2),
              "maxPool2d": _torch_pool(_torch_max)})


def _litert_pool(name: str):
    """NHWC input (an NCHW one stays NHWC after); padding as TFLite's SAME where it is that (whose
    pools leave padding out, as WebNN's do), else a PAD op: -inf for the maximum; for the average,
    zeros, then each window's sum divided by its count of input elements (a constant). Windows
    that ceil rounding or outputSizes add are padding at the end too. Dilated windows: one strided
    slice per window position, combined by MAXIMUM or ADD (the sum then divided by its count)."""

    def lower(lt, call: Call):
        x = call["input"]
        p = parse(call, x.logical_shape)
        xh = lt.as_nhwc(x) if p["layout"] == "nchw" else lt.logical(x)
        extra = _nn.extra_end_padding(p["in_hw"], p["window"], p["padding"], p["strides"], p["dilations"], p["out_hw"])
        padding = [p["padding"][0], p["padding"][1] + extra[0], p["padding"][2], p["padding"][3] + extra[1]]
        average = name == "averagePool2d"
        (kh, kw), (sh, sw), (dh, dw) = p["window"], p["strides"], p["dilations"]
        oh, ow = p["out_hw"]
        shape = (p["batches"], oh, ow, p["channels"])
        nhwc = p["layout"] == "nchw"
        if (dh, dw) == (1, 1):
            mode, rest = lt.padding_mode(p["in_hw"], p["window"], padding, p["strides"], p["dilations"])
            xh = lt.pad_hw(xh, rest, 0.0 if average else -np.inf)
            opt = lt.opts("Pool2DOptions", padding=mode, strideH=sh, strideW=sw, filterHeight=kh, filterWidth=kw)
            y = lt.op(lt.ops.AVERAGE_POOL_2D if average else lt.ops.MAX_POOL_2D, [xh], shape, *opt, nhwc=nhwc)
        else:
            rest = padding
            xh = lt.pad_hw(xh, rest, 0.0 if average else -np.inf)
            n, c = p["batches"], p["channels"]
            y = None
            for i in range(kh):
                for j in range(kw):
                    begin = [0, i * dh, j * dw, 0]
                    end = [n, i * dh + (oh - 1) * sh + 1, j * dw + (ow - 1) * sw + 1, c]
                    opt = lt.opts("StridedSliceOptions")
                    part = lt.op(lt.ops.STRIDED_SLICE, [xh, lt.ints(begin), lt.ints(end), lt.ints([1, sh, sw, 1])],
                                 shape, *opt, nhwc=nhwc)
                    y = part if y is None else lt.op(lt.ops.ADD if average else lt.ops.MAXIMUM, [y, part], shape, nhwc=nhwc)
        dilated = (dh, dw) != (1, 1)
        if average and (any(rest) or dilated):  # the window's sum / the input elements in it
            summed = 1 if dilated else kh * kw  # the slices' sum, or AVERAGE_POOL_2D's: that sum / (kh * kw)
            inside = np.pad(np.ones(p["in_hw"], np.float32), [(rest[0], rest[1]), (rest[2], rest[3])])
            count = np.array([[inside[i * sh:i * sh + (kh - 1) * dh + 1:dh, j * sw:j * sw + (kw - 1) * dw + 1:dw].sum()
                               for j in range(ow)] for i in range(oh)], np.float32)
            scale = (summed / np.maximum(count, 1)).reshape(1, oh, ow, 1).astype(np.float32)
            y = lt.op(lt.ops.MUL, [y, lt.constant(scale)], shape, nhwc=y.nhwc)
        return [y]

    return lower


attach_litert({"maxPool2d": _litert_pool("maxPool2d"), "averagePool2d": _litert_pool("averagePool2d")})
