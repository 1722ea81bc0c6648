"""conv2d (src/webnn_bridge/ops/defs/conv2d.py): output shapes, the spec's TypeError conditions, and values against a naive
convolution in every layout."""

from __future__ import annotations

import numpy as np
import pytest

from webnn_bridge.ops.core import WebNNTypeError

from ._util import inp, run_both


def conv_args(b, input_shape=(1, 4, 5, 5), filter_shape=(2, 4, 3, 3), data_type="float32"):
    return inp(b, input_shape, data_type), inp(b, filter_shape, data_type)


@pytest.mark.parametrize(
    ("options", "input_shape", "filter_shape", "expected"),
    [
        ({}, (1, 4, 5, 5), (2, 4, 3, 3), [1, 2, 3, 3]),
        ({"padding": [1, 1, 1, 1]}, (1, 4, 5, 5), (2, 4, 3, 3), [1, 2, 5, 5]),
        ({"strides": [2, 2]}, (1, 4, 5, 5), (2, 4, 3, 3), [1, 2, 2, 2]),
        ({"dilations": [2, 2]}, (1, 4, 5, 5), (2, 4, 3, 3), [1, 2, 1, 1]),
        ({"padding": [1, 0, 0, 1], "strides": [2, 1]}, (1, 4, 6, 5), (2, 4, 3, 3), [1, 2, 3, 4]),
        ({"groups": 4}, (1, 4, 5, 5), (8, 1, 3, 3), [1, 8, 3, 3]),
        ({"inputLayout": "nhwc"}, (1, 5, 5, 4), (2, 4, 3, 3), [1, 3, 3, 2]),
        ({"filterLayout": "hwio"}, (1, 4, 5, 5), (3, 3, 4, 2), [1, 2, 3, 3]),
        ({"filterLayout": "ohwi"}, (1, 4, 5, 5), (2, 3, 3, 4), [1, 2, 3, 3]),
        ({"filterLayout": "ihwo", "groups": 2}, (1, 4, 5, 5), (2, 3, 3, 6), [1, 6, 3, 3]),
    ],
)
def test_conv2d_output_shape(b, options, input_shape, filter_shape, expected):
    x, f = conv_args(b, input_shape, filter_shape)
    assert b.conv2d(x, f, options).shape == expected


@pytest.mark.parametrize(
    ("options", "input_shape", "filter_shape"),
    [
        ({"padding": [1, 1, 1]}, (1, 4, 5, 5), (2, 4, 3, 3)),
        ({"strides": [1]}, (1, 4, 5, 5), (2, 4, 3, 3)),
        ({"strides": [0, 1]}, (1, 4, 5, 5), (2, 4, 3, 3)),
        ({"dilations": [1, 1, 1]}, (1, 4, 5, 5), (2, 4, 3, 3)),
        ({"dilations": [1, 0]}, (1, 4, 5, 5), (2, 4, 3, 3)),
        ({"groups": 0}, (1, 4, 5, 5), (2, 4, 3, 3)),
        ({}, (1, 4, 5, 5), (2, 3, 3, 3)),  # input channels != filter input channels
        ({"groups": 3}, (1, 4, 5, 5), (3, 1, 3, 3)),  # input channels % groups
        ({"groups": 2}, (1, 4, 5, 5), (3, 2, 3, 3)),  # output channels % groups
        ({}, (1, 4, 2, 2), (2, 4, 3, 3)),  # output size 0
        ({"dilations": [3, 3]}, (1, 4, 5, 5), (2, 4, 3, 3)),  # dilated filter larger than input
        ({"padding": [2**32 - 1] * 4}, (1, 4, 5, 5), (2, 4, 3, 3)),  # output too large
        ({}, (1, 4, 5), (2, 4, 3, 3)),
        ({}, (1, 4, 5, 5), (2, 4, 3)),
    ],
)
def test_conv2d_type_errors(b, options, input_shape, filter_shape):
    x, f = conv_args(b, input_shape, filter_shape)
    with pytest.raises(WebNNTypeError):
        b.conv2d(x, f, options)


def test_conv2d_operand_types_and_bias(b):
    with pytest.raises(WebNNTypeError):
        b.conv2d(*conv_args(b, data_type="int32"))
    x = inp(b, (1, 4, 5, 5))
    with pytest.raises(WebNNTypeError):
        b.conv2d(x, inp(b, (2, 4, 3, 3), "float16"))
    f = inp(b, (2, 4, 3, 3))
    assert b.conv2d(x, f, {"bias": inp(b, [2])}).shape == [1, 2, 3, 3]
    for bias in (inp(b, [3]), inp(b, [1, 2]), inp(b, [2], "float16")):
        with pytest.raises(WebNNTypeError):
            b.conv2d(x, f, {"bias": bias})


def naive_conv(x, w, pad, stride, dil, groups):
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad[0], pad[1]), (pad[2], pad[3])))
    oh = (h + pad[0] + pad[1] - (kh - 1) * dil[0] - 1) // stride[0] + 1
    ow = (wd + pad[2] + pad[3] - (kw - 1) * dil[1] - 1) // stride[1] + 1
    y = np.zeros((n, o, oh, ow))
    for oc in range(o):
        g = oc // (o // groups)
        for i in range(oh):
            for j in range(ow):
                for ic in range(cg):
                    for a in range(kh):
                        for bb in range(kw):
                            y[:, oc, i, j] += (
                                xp[:, g * cg + ic, i * stride[0] + a * dil[0], j * stride[1] + bb * dil[1]]
                                * w[oc, ic, a, bb]
                            )
    return y


@pytest.mark.parametrize("layouts", [("nchw", "oihw"), ("nhwc", "hwio"), ("nhwc", "ohwi"), ("nchw", "ihwo")])
def test_conv2d_values(contexts, layouts):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 4, 6, 5)).astype(np.float32)
    w = rng.standard_normal((6, 2, 3, 2)).astype(np.float32)  # oihw, groups 2
    bias = rng.standard_normal(6).astype(np.float32)
    opts = {"padding": [1, 0, 2, 1], "strides": [2, 1], "dilations": [1, 2], "groups": 2}
    expected = naive_conv(x, w, opts["padding"], opts["strides"], opts["dilations"], 2) + bias.reshape(1, -1, 1, 1)
    input_layout, filter_layout = layouts
    xl = x if input_layout == "nchw" else x.transpose(0, 2, 3, 1)
    wl = w.transpose(
        {"oihw": (0, 1, 2, 3), "hwio": (2, 3, 1, 0), "ohwi": (0, 2, 3, 1), "ihwo": (1, 2, 3, 0)}[filter_layout]
    )

    def build(bb):
        f = bb.constant({"dataType": "float32", "shape": list(wl.shape)}, np.ascontiguousarray(wl))
        c = bb.constant({"dataType": "float32", "shape": [6]}, bias)
        xo = inp(bb, xl.shape, name="x")
        return bb.conv2d(xo, f, {**opts, "inputLayout": input_layout, "filterLayout": filter_layout, "bias": c})

    for y in run_both(contexts, build, {"x": np.ascontiguousarray(xl)}):
        y = y if input_layout == "nchw" else y.transpose(0, 3, 1, 2)
        np.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-5)
