"""Builder-time validation (the spec's TypeError conditions) and a few semantic checks for clamp,
softmax, conv2d, the pool2d family, gemm, matmul, reshape, transpose, concat and cast."""

from __future__ import annotations

import numpy as np
import pytest

from webnn_bridge.bridge.api import MLGraphBuilder
from webnn_bridge.ops.core import WebNNTypeError


def inp(b, shape, data_type="float32", name=None):
    return b.input(name or f"in{len(b.input_names)}", {"dataType": data_type, "shape": list(shape)})


def run_both(contexts, build, feeds):
    """Build with ``build(builder)`` -> operand on both backends; returns the two results."""
    out = []
    for ctx in contexts.values():
        bb = MLGraphBuilder(ctx)
        g = bb.build({"y": build(bb)})
        out.append(ctx.compute(g, feeds)["y"])
    return out


def test_type_error_is_a_type_error():
    assert issubclass(WebNNTypeError, TypeError)


# --------------------------------------------------------------------------- clamp


def test_clamp_min_greater_than_max(b):
    x = inp(b, [2])
    with pytest.raises(WebNNTypeError, match="minValue"):
        b.clamp(x, {"minValue": 2, "maxValue": 1})
    assert b.clamp(x, {"minValue": 1, "maxValue": 1}).shape == [2]
    assert b.clamp(x, {"minValue": float("nan"), "maxValue": 1}).dataType == "float32"


def test_clamp_bounds_are_cast_to_input_type(b):
    # uint8: -5 saturates to 0 and 300 to 255, so 255 > 100 throws
    x = inp(b, [3], "uint8")
    b.clamp(x, {"minValue": -5, "maxValue": 300})
    with pytest.raises(WebNNTypeError):
        b.clamp(x, {"minValue": 300, "maxValue": 100})
    # float16: 1.0001 and 1.0002 both round to 1.0, so they compare equal
    h = inp(b, [3], "float16")
    b.clamp(h, {"minValue": 1.0002, "maxValue": 1.0001})


def test_clamp_values(contexts):
    x = np.array([-np.inf, -3, 0.5, 7, np.inf, np.nan], np.float32)
    for y in run_both(contexts, lambda bb: bb.clamp(inp(bb, [6], name="x"), {"minValue": -1, "maxValue": 2}), {"x": x}):
        np.testing.assert_array_equal(y, [-1, -1, 0.5, 2, 2, np.nan])
    for y in run_both(contexts, lambda bb: bb.clamp(inp(bb, [6], name="x"), {"minValue": -np.inf}), {"x": x}):
        np.testing.assert_array_equal(y, x)  # infinities pass through untouched
    i = np.array([-100, 0, 100], np.int8)
    for y in run_both(contexts, lambda bb: bb.clamp(inp(bb, [3], "int8", name="x"), {"minValue": -1000}), {"x": i}):
        np.testing.assert_array_equal(y, i)


# --------------------------------------------------------------------------- softmax


def test_softmax_validation(b):
    assert b.softmax(inp(b, [2, 3, 4]), 2).shape == [2, 3, 4]
    with pytest.raises(WebNNTypeError):
        b.softmax(inp(b, [2, 3]), 2)
    with pytest.raises(WebNNTypeError):
        b.softmax(inp(b, [2, 3], "int32"), 1)
    with pytest.raises(WebNNTypeError):
        b.softmax(inp(b, []), 0)
    with pytest.raises(TypeError):
        b.softmax(inp(b, [2, 3]))  # axis is required at HEAD


def test_softmax_values(contexts):
    x = np.array([[1, 2, 3], [0, 0, 1000]], np.float32)
    for y in run_both(contexts, lambda bb: bb.softmax(inp(bb, [2, 3], name="x"), 1), {"x": x}):
        e = np.exp([1, 2, 3] - np.float32(3))
        np.testing.assert_allclose(y[0], e / e.sum(), rtol=1e-6)
        np.testing.assert_array_equal(y[1], [0, 0, 1])


# --------------------------------------------------------------------------- conv2d


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


# --------------------------------------------------------------------------- pooling

POOLS = ("averagePool2d", "l2Pool2d", "maxPool2d")


@pytest.mark.parametrize("op", POOLS)
@pytest.mark.parametrize(
    ("input_shape", "options", "expected"),
    [
        ((1, 3, 4, 4), {}, [1, 3, 1, 1]),
        ((1, 3, 4, 4), {"windowDimensions": [3, 3]}, [1, 3, 2, 2]),
        ((1, 3, 5, 5), {"windowDimensions": [5, 5], "padding": [2, 2, 2, 2]}, [1, 3, 5, 5]),
        ((1, 3, 5, 5), {"windowDimensions": [2, 2], "strides": [2, 2]}, [1, 3, 2, 2]),
        ((1, 3, 7, 7), {"windowDimensions": [4, 4], "padding": [2, 1, 2, 1], "strides": [2, 2]}, [1, 3, 4, 4]),
        ((1, 3, 7, 7), {"windowDimensions": [4, 4], "padding": [1] * 4, "strides": [2, 2]}, [1, 3, 3, 3]),
        (
            (1, 3, 7, 7),
            {"windowDimensions": [4, 4], "padding": [1] * 4, "strides": [2, 2], "outputShapeRounding": "ceil"},
            [1, 3, 4, 4],
        ),
        (
            (1, 3, 7, 7),
            {
                "windowDimensions": [4, 4],
                "padding": [1] * 4,
                "strides": [2, 2],
                "outputShapeRounding": "ceil",
                "outputSizes": [3, 3],
            },
            [1, 3, 3, 3],
        ),
        (
            (1, 3, 7, 7),
            {"windowDimensions": [4, 4], "padding": [1] * 4, "strides": [2, 2], "outputSizes": [4, 4]},
            [1, 3, 4, 4],
        ),
        ((1, 5, 5, 2), {"windowDimensions": [3, 3], "layout": "nhwc"}, [1, 3, 3, 2]),
        ((1, 2, 5, 5), {"windowDimensions": [3, 3], "dilations": [2, 1]}, [1, 2, 1, 3]),
    ],
)
def test_pool_output_shape(b, op, input_shape, options, expected):
    assert getattr(b, op)(inp(b, input_shape), options).shape == expected


@pytest.mark.parametrize("op", POOLS)
@pytest.mark.parametrize(
    ("input_shape", "options"),
    [
        ((1, 5, 5), {}),
        ((1, 2, 5, 5), {"windowDimensions": [2, 2], "padding": [2] * 4, "strides": [2, 2], "outputSizes": [3, 3]}),
        ((1, 2, 5, 5), {"windowDimensions": [2, 2], "padding": [2] * 4, "strides": [2, 2], "outputSizes": [4, 5]}),
        (
            (1, 2, 5, 5),
            {"windowDimensions": [2, 2], "padding": [2] * 4, "strides": [2, 2], "outputSizes": [1, 2, 4, 4]},
        ),
        ((1, 2, 5, 5), {"windowDimensions": [1, 1, 1, 1]}),
        ((1, 2, 5, 5), {"windowDimensions": [0, 2]}),
        ((1, 2, 5, 5), {"windowDimensions": [8, 2]}),
        ((1, 2, 5, 5), {"windowDimensions": [2, 8]}),
        ((1, 2, 5, 5), {"windowDimensions": [6, 3]}),
        ((1, 2, 5, 5), {"padding": [2, 2]}),
        ((1, 2, 5, 5), {"strides": [2]}),
        ((1, 2, 5, 5), {"strides": [0, 2]}),
        ((1, 2, 5, 5), {"dilations": [1, 1, 2]}),
        ((1, 2, 5, 5), {"dilations": [1, 0]}),
        ((1, 3, 5, 5), {"padding": [2**32 - 1] * 4}),
    ],
)
def test_pool_type_errors(b, op, input_shape, options):
    with pytest.raises(WebNNTypeError):
        getattr(b, op)(inp(b, input_shape), options)


def test_pool_data_types(b):
    x = inp(b, (1, 1, 4, 4), "int32")
    assert b.maxPool2d(x).dataType == "int32"
    for op in ("averagePool2d", "l2Pool2d"):
        with pytest.raises(WebNNTypeError):
            getattr(b, op)(x)


def test_pool_padding_excluded(contexts):
    x = np.arange(1, 10, dtype=np.float32).reshape(1, 1, 3, 3)
    opts = {"windowDimensions": [2, 2], "padding": [1, 0, 1, 0]}
    for y in run_both(contexts, lambda bb: bb.averagePool2d(inp(bb, x.shape, name="x"), opts), {"x": x}):
        # top-left window holds only x[0, 0] (the rest is padding): its average is 1
        np.testing.assert_allclose(y[0, 0], [[1, 1.5, 2.5], [2.5, 3, 4], [5.5, 6, 7]])
    for y in run_both(contexts, lambda bb: bb.maxPool2d(inp(bb, x.shape, name="x"), opts), {"x": -x}):
        np.testing.assert_array_equal(y[0, 0], [[-1, -1, -2], [-1, -1, -2], [-4, -4, -5]])
    for y in run_both(contexts, lambda bb: bb.l2Pool2d(inp(bb, x.shape, name="x"), opts), {"x": x}):
        np.testing.assert_allclose(y[0, 0, 0], [1, np.sqrt(5), np.sqrt(13)], rtol=1e-6)


def test_pool_padding_as_large_as_window(contexts):
    # padding >= window: every window fully in the padding is empty (max -> -inf)
    x = np.array([[[[3.0]]]], np.float32)
    opts = {"windowDimensions": [1, 1], "padding": [1, 1, 1, 1]}
    for y in run_both(contexts, lambda bb: bb.maxPool2d(inp(bb, x.shape, name="x"), opts), {"x": x}):
        assert y.shape == (1, 1, 3, 3) and y[0, 0, 1, 1] == 3 and y[0, 0, 0, 0] == -np.inf
    opts = {"windowDimensions": [2, 2], "padding": [2, 2, 2, 2], "strides": [1, 1]}
    x = np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2)
    for y in run_both(contexts, lambda bb: bb.averagePool2d(inp(bb, x.shape, name="x"), opts), {"x": x}):
        assert y.shape == (1, 1, 5, 5)
        np.testing.assert_allclose(y[0, 0, 1:4, 1:4], [[0, 0.5, 1], [1, 1.5, 2], [2, 2.5, 3]])


def test_pool_ceil_rounding_values(contexts):
    x = np.arange(25, dtype=np.float32).reshape(1, 1, 5, 5)
    opts = {"windowDimensions": [2, 2], "strides": [2, 2], "outputShapeRounding": "ceil"}
    for y in run_both(contexts, lambda bb: bb.maxPool2d(inp(bb, x.shape, name="x"), opts), {"x": x}):
        np.testing.assert_array_equal(y[0, 0], [[6, 8, 9], [16, 18, 19], [21, 23, 24]])


# --------------------------------------------------------------------------- gemm / matmul


def test_gemm_validation(b):
    a, bb = inp(b, [3, 4]), inp(b, [4, 5])
    assert b.gemm(a, bb).shape == [3, 5]
    assert b.gemm(inp(b, [4, 3]), bb, {"aTranspose": True}).shape == [3, 5]
    assert b.gemm(a, inp(b, [5, 4]), {"bTranspose": True}).shape == [3, 5]
    for c in ([], [5], [3, 1], [1, 5], [3, 5]):
        assert b.gemm(a, bb, {"c": inp(b, c)}).shape == [3, 5]
    for c, t in (([3], "float32"), ([5, 3], "float32"), ([1, 3, 5], "float32"), ([3, 5], "float16")):
        with pytest.raises(WebNNTypeError):
            b.gemm(a, bb, {"c": inp(b, c, t)})
    with pytest.raises(WebNNTypeError):
        b.gemm(a, inp(b, [5, 4]))
    with pytest.raises(WebNNTypeError):
        b.gemm(inp(b, [4]), bb)
    with pytest.raises(WebNNTypeError):
        b.gemm(inp(b, [3, 4], "int32"), inp(b, [4, 5], "int32"))
    with pytest.raises(WebNNTypeError):
        b.gemm(a, inp(b, [4, 5], "float16"))


def test_gemm_values(contexts):
    rng = np.random.default_rng(2)
    a, bm, c = (rng.standard_normal(s).astype(np.float32) for s in ((4, 3), (5, 4), (5,)))
    opts = {"aTranspose": True, "bTranspose": True, "alpha": 0.5, "beta": 2.0}

    def build(bb):
        return bb.gemm(
            inp(bb, a.shape, name="a"), inp(bb, bm.shape, name="b"), {**opts, "c": inp(bb, c.shape, name="c")}
        )

    for y in run_both(contexts, build, {"a": a, "b": bm, "c": c}):
        np.testing.assert_allclose(y, 0.5 * a.T @ bm.T + 2 * c, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(
    ("a", "b_", "expected"),
    [([3, 4], [4, 5], [3, 5]), ([2, 3, 4], [4, 5], [2, 3, 5]), ([2, 1, 3, 4], [5, 4, 6], [2, 5, 3, 6])],
)
def test_matmul_shapes(b, a, b_, expected):
    assert b.matmul(inp(b, a), inp(b, b_)).shape == expected


@pytest.mark.parametrize(
    ("a", "b_", "dtype"),
    [
        ([4], [4, 5], "float32"),
        ([3, 4], [4], "float32"),
        ([3, 4], [5, 4], "float32"),
        ([2, 3, 4], [3, 4, 5], "float32"),
        ([3, 4], [4, 5], "int32"),
    ],
)
def test_matmul_type_errors(b, a, b_, dtype):
    with pytest.raises(WebNNTypeError):
        b.matmul(inp(b, a, dtype), inp(b, b_, dtype))


# --------------------------------------------------------------------------- reshape / transpose / concat


def test_reshape_validation(b):
    x = inp(b, [2, 3, 4], "int8")
    assert b.reshape(x, [4, 6]).shape == [4, 6]
    assert b.reshape(inp(b, [1, 1]), []).shape == []
    for shape in ([4, 5], [0, 24], [24, 1, 0], []):
        with pytest.raises(WebNNTypeError):
            b.reshape(x, shape)


def test_transpose_validation(b):
    x = inp(b, [2, 3, 4])
    assert b.transpose(x).shape == [4, 3, 2]
    assert b.transpose(x, {"permutation": [1, 2, 0]}).shape == [3, 4, 2]
    assert b.transpose(inp(b, [])).shape == []
    for perm in ([0, 1], [0, 1, 3], [0, 1, 1]):
        with pytest.raises(WebNNTypeError):
            b.transpose(x, {"permutation": perm})


def test_concat_validation(b):
    x, y = inp(b, [2, 3]), inp(b, [2, 5])
    assert b.concat([x, y], 1).shape == [2, 8]
    assert b.concat([x], 0).shape == [2, 3]
    with pytest.raises(WebNNTypeError):
        b.concat([], 0)
    with pytest.raises(WebNNTypeError):
        b.concat([x, y], 0)  # dimension 1 differs
    with pytest.raises(WebNNTypeError):
        b.concat([x, y], 2)
    with pytest.raises(WebNNTypeError):
        b.concat([x, inp(b, [2, 3], "int32")], 0)
    with pytest.raises(WebNNTypeError):
        b.concat([x, inp(b, [2, 3, 1])], 0)
    with pytest.raises(WebNNTypeError):
        b.concat([inp(b, []), inp(b, [])], 0)


def test_transpose_concat_values(contexts):
    x = np.arange(6, dtype=np.int32).reshape(2, 3)

    def build(bb):
        t = bb.transpose(inp(bb, [2, 3], "int32", name="x"))
        return bb.concat([t, t], 1)

    for y in run_both(contexts, build, {"x": x}):
        np.testing.assert_array_equal(y, np.concatenate([x.T, x.T], 1))


# --------------------------------------------------------------------------- cast


def test_cast_descriptor(b):
    y = b.cast(inp(b, [2, 3], "float32"), "uint8")
    assert (y.dataType, y.shape) == ("uint8", [2, 3])
    assert b.cast(inp(b, [2]), "int4").dataType == "int4"  # extension: int4 / uint4 (extensions.idl)
    with pytest.raises(WebNNTypeError):
        b.cast(inp(b, [2]), "bfloat16")


@pytest.mark.parametrize(
    ("src", "dst", "values", "expected"),
    [
        ("float32", "int32", [-2.7, -0.5, 0.5, 2.7, 1e3], [-2, 0, 0, 2, 1000]),  # truncation
        ("int32", "int8", [127, 128, 255, -129, 256], [127, -128, -1, 127, 0]),  # low bits
        ("int8", "uint8", [-1, -128, 5], [255, 128, 5]),
        ("int64", "int32", [2**32 + 5, -(2**31) - 1], [5, 2**31 - 1]),
        ("float32", "float16", [65520.0, 1e-8, 1.0009765625], [np.inf, 0, 1.0009765625]),
        ("uint8", "float16", [0, 255], [0, 255]),
    ],
)
def test_cast_values(contexts, src, dst, values, expected):
    x = np.array(values, dtype=np.dtype(src))
    for y in run_both(contexts, lambda bb: bb.cast(inp(bb, [len(values)], src, name="x"), dst), {"x": x}):
        assert y.dtype == np.dtype(dst)
        np.testing.assert_array_equal(y, np.array(expected, dtype=np.dtype(dst)))
