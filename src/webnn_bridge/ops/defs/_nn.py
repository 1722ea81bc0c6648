"""Helpers shared by the windowed operators (conv2d and the pool2d family): layouts, the spec's
output-size arithmetic, window views for the numpy references, and layout transposes for the ONNX
lowerings. Registers no operator."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..core import MAX_DIMENSION, WebNNTypeError

# the spatial/channel positions of a 4-D input per MLInputOperandLayout: (batch, channel, height, width)
INPUT_AXES = {"nchw": (0, 1, 2, 3), "nhwc": (0, 3, 1, 2)}
# ONNX Transpose permutations to and from NCHW
TO_NCHW = {"nchw": None, "nhwc": (0, 3, 1, 2)}
FROM_NCHW = {"nchw": None, "nhwc": (0, 2, 3, 1)}


def split_input_shape(shape: Sequence[int], layout: str) -> tuple[int, int, int, int]:
    """(batches, channels, height, width) of a 4-D input in ``layout``."""
    n, c, h, w = INPUT_AXES[layout]
    return shape[n], shape[c], shape[h], shape[w]


def join_output_shape(batches: int, channels: int, height: int, width: int, layout: str) -> tuple[int, ...]:
    if layout == "nchw":
        return (batches, channels, height, width)
    return (batches, height, width, channels)


def option_list(value, default: Sequence[int], length: int, what: str, nonzero: bool = False) -> list[int]:
    """A sequence option: its default when absent, else a list of exactly ``length`` items."""
    if value is None:
        return list(default)
    value = [int(v) for v in value]
    if len(value) != length:
        raise WebNNTypeError(f"{what} must have {length} items, got {len(value)}.")
    if nonzero and any(v == 0 for v in value):
        raise WebNNTypeError(f"{what} must not contain 0, got {value}.")
    return value


def conv_output_size(input_size: int, filter_size: int, begin: int, end: int, stride: int, dilation: int):
    """The spec's 'calculate conv output size' as an exact fraction: returns (floor, ceil)."""
    effective = (filter_size - 1) * dilation + 1
    numerator = input_size - effective + begin + end + stride  # (.. )/stride + 1 == (.. + stride)/stride
    return numerator // stride, -((-numerator) // stride)


def check_output_sizes(height: int, width: int, what: str) -> None:
    for name, v in (("height", height), ("width", width)):
        if not 0 < v <= MAX_DIMENSION:
            raise WebNNTypeError(f"{what}: the computed output {name} {v} is not a valid dimension.")


# --------------------------------------------------------------------------- numpy reference helpers


def to_nchw_array(x: np.ndarray, layout: str) -> np.ndarray:
    return x if layout == "nchw" else np.transpose(x, (0, 3, 1, 2))


def from_nchw_array(y: np.ndarray, layout: str) -> np.ndarray:
    return y if layout == "nchw" else np.transpose(y, (0, 2, 3, 1))


def windows(
    x: np.ndarray,
    window: Sequence[int],
    padding: Sequence[int],
    strides: Sequence[int],
    dilations: Sequence[int],
    out_hw: Sequence[int],
    fill,
) -> np.ndarray:
    """[N, C, OH, OW, KH, KW] view of the NCHW ``x`` padded with ``fill`` (padding is
    [beginH, endH, beginW, endW]); the end is padded further when the output sizes ask for windows
    beyond it (ceil rounding)."""
    kh, kw = window
    sh, sw = strides
    dh, dw = dilations
    oh, ow = out_hw
    eff_h, eff_w = (kh - 1) * dh + 1, (kw - 1) * dw + 1
    h, w = x.shape[2], x.shape[3]
    extra_h = max(0, (oh - 1) * sh + eff_h - (h + padding[0] + padding[1]))
    extra_w = max(0, (ow - 1) * sw + eff_w - (w + padding[2] + padding[3]))
    xp = np.pad(
        x,
        ((0, 0), (0, 0), (padding[0], padding[1] + extra_h), (padding[2], padding[3] + extra_w)),
        constant_values=fill,
    )
    view = np.lib.stride_tricks.sliding_window_view(xp, (eff_h, eff_w), axis=(2, 3))
    return view[:, :, ::sh, ::sw, ::dh, ::dw][:, :, :oh, :ow]


# --------------------------------------------------------------------------- ONNX lowering helpers


def transpose(lb, value: str, perm) -> str:
    return value if perm is None else lb.node("Transpose", [value], perm=list(perm))


def extra_end_padding(in_hw, window, padding, strides, dilations, out_hw) -> list[int]:
    """Padding to add at the end of H and W so that floor rounding yields ``out_hw`` windows."""
    extra = []
    for i in range(2):
        eff = (window[i] - 1) * dilations[i] + 1
        total = in_hw[i] + padding[2 * i] + padding[2 * i + 1]
        extra.append(max(0, (out_hw[i] - 1) * strides[i] + eff - total))
    return extra
