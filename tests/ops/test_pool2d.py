"""The pool2d family (src/webnn_bridge/ops/defs/pool2d.py: averagePool2d, l2Pool2d, maxPool2d): output shapes, the spec's
TypeError conditions, data types, padding and rounding (and its pre-#770 name roundingType), and an
exact 64-bit maxPool2d on both backends."""

from __future__ import annotations

import numpy as np
import pytest

from webnn_bridge.ops.core import WebNNTypeError

from ._util import inp, run_both, run_by_backend

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


@pytest.mark.parametrize("options,shape", [
    ({}, [1, 1, 2, 2]),
    ({"outputShapeRounding": "ceil"}, [1, 1, 3, 3]),
    ({"roundingType": "ceil"}, [1, 1, 3, 3]),  # the pre-#770 name still works
    ({"roundingType": "floor"}, [1, 1, 2, 2]),
])
def test_pool_output_rounding_and_its_legacy_name(contexts, options, shape):
    x = np.arange(25, dtype=np.float32).reshape(1, 1, 5, 5)
    opts = {"windowDimensions": [2, 2], "strides": [2, 2], **options}
    res = run_by_backend(contexts, lambda bb: {"y": bb.maxPool2d(bb.input("x", {"dataType": "float32", "shape": [1, 1, 5, 5]}),
                                                            opts)}, {"x": x})
    for r in res.values():
        assert list(r["y"].shape) == shape
    np.testing.assert_array_equal(res["onnxruntime"]["y"], res["reference"]["y"])
    assert res["reference"]["y"][0, 0, 0, 0] == 6.0


@pytest.mark.parametrize("dt", ["int64", "uint64"])
@pytest.mark.parametrize("layout", ["nchw", "nhwc"])
@pytest.mark.parametrize("opts", [
    {},
    {"windowDimensions": [3, 2], "strides": [2, 1], "padding": [1, 0, 2, 1]},
    {"windowDimensions": [2, 2], "dilations": [2, 1], "strides": [1, 2]},
    {"windowDimensions": [3, 3], "padding": [2, 2, 2, 2], "outputShapeRounding": "ceil", "strides": [2, 2]},
    {"windowDimensions": [2, 3], "padding": [3, 3, 3, 3]},  # padding larger than the window
])
def test_max_pool_64bit_is_exact(contexts, dt, layout, opts):
    """Values far above 2^53 that differ only in their low bits: float64 could not tell them apart."""
    shape = [2, 3, 5, 6] if layout == "nchw" else [2, 5, 6, 3]
    rng = np.random.default_rng(7)
    base = np.int64(2**62) if dt == "int64" else np.uint64(2**63 + 2**62)
    x = (base + rng.integers(0, 1000, size=shape).astype(base.dtype)).astype(dt)
    res = run_by_backend(contexts, lambda bb: {"y": bb.maxPool2d(bb.input("x", {"dataType": dt, "shape": shape}),
                                                           {**opts, "layout": layout})}, {"x": x})
    assert res["onnxruntime"]["y"].shape == res["reference"]["y"].shape
    np.testing.assert_array_equal(res["onnxruntime"]["y"], res["reference"]["y"])
