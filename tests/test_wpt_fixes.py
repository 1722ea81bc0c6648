"""Regressions found by running the real WPT WebNN suites through the shim (spec HEAD behaviour):
build() validation order, "check dimensions" of every created operand, convTranspose2d option
rules, int64 comparisons on ONNX Runtime, RNN sequence order, and float32 accuracy of sigmoid,
gelu and elu."""

from __future__ import annotations

import math

import numpy as np
import pytest

from webnn_bridge.bridge.api import MLGraphBuilder
from webnn_bridge.ops.core import InvalidStateError, WebNNTypeError


def run_both(contexts, build, feeds):
    """``build(builder)`` -> {name: operand}; returns {backend: {name: array}}."""
    out = {}
    for name, ctx in contexts.items():
        bb = MLGraphBuilder(ctx)
        out[name] = ctx.compute(bb.build(build(bb)), feeds)
    return out


# --------------------------------------------------------------------------- build()


def test_failed_build_leaves_the_builder_unbuilt(b):
    x = b.input("x", {"dataType": "float32", "shape": [2]})
    y = b.relu(x)
    with pytest.raises(WebNNTypeError):
        b.build({"x": x})  # an input operand is not a valid output
    with pytest.raises(WebNNTypeError):
        b.build({})
    b.build({"y": y})  # still buildable, exactly once
    with pytest.raises(InvalidStateError):
        b.build({"y": y})


# --------------------------------------------------------------------------- check dimensions


def test_output_byte_length_above_the_context_limit_is_a_type_error(b):
    limit = b.context.opSupportLimits()["maxTensorByteLength"]
    a = b.input("a", {"dataType": "float32", "shape": [limit // 8, 1]})
    c = b.input("c", {"dataType": "float32", "shape": [1, 4]})
    with pytest.raises(WebNNTypeError, match=r"^\[big\] .*maxTensorByteLength"):
        b.matmul(a, c, {"label": "big"})
    with pytest.raises(WebNNTypeError, match="maxTensorByteLength"):
        b.add(a, c)
    i8 = b.input("i8", {"dataType": "int8", "shape": [limit // 2]})
    with pytest.raises(WebNNTypeError, match="maxTensorByteLength"):
        b.cast(i8, "int64")
    assert b.cast(i8, "uint8").shape == [limit // 2]


def test_output_dimension_overflow_is_a_type_error(b):
    x = b.input("x", {"dataType": "uint8", "shape": [2**14, 2**14]})
    with pytest.raises(WebNNTypeError):
        b.tile(x, [2**3, 2**4])  # 2**35 elements: the element count is not a valid dimension
    with pytest.raises(WebNNTypeError):
        b.input("r", {"dataType": "float32", "shape": [2] * 10})  # rank above the context's maximum


# --------------------------------------------------------------------------- convTranspose2d


def test_conv_transpose2d_option_rules(b):
    x = b.input("x", {"dataType": "float32", "shape": [1, 1, 5, 5]})
    w = b.input("w", {"dataType": "float32", "shape": [1, 1, 3, 3]})
    # HEAD has no "input channels divisible by groups" rule: output channels = filter's * groups
    assert b.convTranspose2d(x, w, {"padding": [1, 1, 1, 1], "groups": 3}).shape == [1, 3, 5, 5]
    # outputPadding is ignored (not validated against strides) when outputSizes is given
    x3 = b.input("x3", {"dataType": "float32", "shape": [1, 1, 3, 3]})
    w2 = b.input("w2", {"dataType": "float32", "shape": [1, 2, 3, 3]})
    y = b.convTranspose2d(x3, w2, {"outputPadding": [3, 3], "strides": [3, 2], "outputSizes": [10, 8]})
    assert y.shape == [1, 2, 10, 8]
    with pytest.raises(WebNNTypeError, match="outputPadding"):
        b.convTranspose2d(x3, w2, {"outputPadding": [3, 3], "strides": [3, 2]})
    # an output size that overflows a valid dimension is a TypeError, not a wrapped number
    tall = b.input("tall", {"dataType": "float32", "shape": [1, 1, 434983, 2]})
    with pytest.raises(WebNNTypeError):
        b.convTranspose2d(x, tall, {"dilations": [328443, 1]})
    w32 = b.input("w32", {"dataType": "float32", "shape": [1, 1, 3, 2]})
    with pytest.raises(WebNNTypeError):
        b.convTranspose2d(x, w32, {"dilations": [2**32 - 1, 1]})


# --------------------------------------------------------------------------- int64 comparisons


def test_int64_max_min_clamp_relu_across_the_32_bit_boundary(contexts):
    # ONNX Runtime's own int64 Max/Min/Clip/ReduceMax/ReduceMin get these wrong
    x = np.array([2147483648, -4147483648, 5, -2, 4147483647, 0], np.int64)

    def build(bb):
        a = bb.input("x", {"dataType": "int64", "shape": [6]})
        five = bb.constant("int64", 5)
        return {
            "max": bb.max(a, five), "min": bb.min(a, five), "relu": bb.relu(a),
            "clamp": bb.clamp(a, {"minValue": -2, "maxValue": 4147483645}),
            "rmax": bb.reduceMax(a), "rmin": bb.reduceMin(a),
        }

    for got in run_both(contexts, build, {"x": x}).values():
        np.testing.assert_array_equal(got["max"], np.maximum(x, 5))
        np.testing.assert_array_equal(got["min"], np.minimum(x, 5))
        np.testing.assert_array_equal(got["relu"], np.maximum(x, 0))
        np.testing.assert_array_equal(got["clamp"], np.clip(x, -2, 4147483645))
        assert got["rmax"] == x.max() and got["rmin"] == x.min()


def test_unsigned_reduce_max_min_over_axes(contexts):
    x = np.array([[2**31 + 3, 2**31, 5], [2, 7, 9]], np.uint32)

    def build(bb):
        a = bb.input("x", {"dataType": "uint32", "shape": [2, 3]})
        return {"r0": bb.reduceMax(a, {"axes": [0]}), "r1": bb.reduceMin(a, {"axes": [1], "keepDimensions": True})}

    for got in run_both(contexts, build, {"x": x}).values():
        np.testing.assert_array_equal(got["r0"], x.max(0))
        np.testing.assert_array_equal(got["r1"], x.min(1, keepdims=True))


# --------------------------------------------------------------------------- RNN sequences


@pytest.mark.parametrize("op", ["gru", "lstm"])
def test_sequence_output_is_indexed_by_input_time_step(contexts, op):
    """returnSequence[t] holds each direction's state after it read input[t]: for a backward
    direction the last state computed (the final hidden state) is at t = 0."""
    steps, batch, size, hidden = 3, 2, 3, 4
    gates = 3 if op == "gru" else 4
    rng = np.random.default_rng(7)
    feeds = {
        "x": rng.uniform(-1, 1, (steps, batch, size)).astype(np.float32),
        "w": rng.uniform(-1, 1, (2, gates * hidden, size)).astype(np.float32),
        "r": rng.uniform(-1, 1, (2, gates * hidden, hidden)).astype(np.float32),
    }

    def build(direction):
        def f(bb):
            # a lone backward direction uses the weights that "both" uses for its backward pass
            d, first = (2, 0) if direction == "both" else (1, 1)
            x = bb.input("x", {"dataType": "float32", "shape": [steps, batch, size]})
            w = bb.slice(bb.input("w", {"dataType": "float32", "shape": [2, gates * hidden, size]}),
                         [first, 0, 0], [d, gates * hidden, size])
            r = bb.slice(bb.input("r", {"dataType": "float32", "shape": [2, gates * hidden, hidden]}),
                         [first, 0, 0], [d, gates * hidden, hidden])
            outs = getattr(bb, op)(x, w, r, steps, hidden, {"direction": direction, "returnSequence": True})
            return {"h": outs[0], "seq": outs[-1]}
        return f

    for direction in ("backward", "both"):
        for got in run_both(contexts, build(direction), feeds).values():
            h, seq = got["h"], got["seq"]
            if direction == "backward":
                np.testing.assert_array_equal(seq[0, 0], h[0])
            else:
                np.testing.assert_array_equal(seq[steps - 1, 0], h[0])  # forward: last step
                np.testing.assert_array_equal(seq[0, 1], h[1])  # backward: first position
    # both directions agree with the single-direction graphs
    one = run_both(contexts, build("backward"), feeds)["reference"]["seq"]
    both = run_both(contexts, build("both"), feeds)["reference"]["seq"]
    np.testing.assert_allclose(both[:, 1], one[:, 0], rtol=1e-6)


# --------------------------------------------------------------------------- float32 accuracy


def _ulp(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    def key(v):
        i = v.astype(np.float32).view(np.int32).astype(np.int64)
        return np.where(i < 0, -(i & 0x7FFFFFFF), i)

    return np.abs(key(a) - key(b))


@pytest.mark.parametrize(
    "op, truth, max_ulp",
    [
        ("sigmoid", lambda v: 1 / (1 + math.exp(-v)), 4),
        ("gelu", lambda v: 0.5 * v * math.erfc(-v / math.sqrt(2)), 4),
        ("elu", lambda v: v if v > 0 else math.expm1(v), 8),
    ],
)
def test_activation_accuracy_on_both_backends(contexts, op, truth, max_ulp):
    # ONNX Runtime's Sigmoid is ~200 ULP off near -6 (0 below -16.4), 1 + erf cancels for negative
    # gelu inputs and exp(x) - 1 for elu inputs near 0
    x = np.concatenate([np.linspace(-20, 10, 3001), [-5.98, -2.12, -4.3e-4, -1e-6]]).astype(np.float32)
    want = np.array([truth(float(v)) for v in x])
    got = run_both(contexts, lambda bb: {"y": getattr(bb, op)(bb.input("x", {"dataType": "float32", "shape": [x.size]}))},
                   {"x": x})
    for backend, res in got.items():
        d = _ulp(res["y"], want)
        assert d.max() <= max_ulp, (backend, x[d.argmax()], res["y"][d.argmax()], want[d.argmax()])


def test_unused_outputs_of_a_multi_output_op(contexts):
    # building a graph that uses one output of split() (or of gru/lstm) must not need the others
    x = np.arange(6, dtype=np.float32)
    got = run_both(contexts, lambda bb: {"a": bb.split(bb.input("x", {"dataType": "float32", "shape": [6]}), 3)[1]},
                   {"x": x})
    for res in got.values():
        np.testing.assert_array_equal(res["a"], [2, 3])


# --------------------------------------------------------------------------- legacy roundingType


@pytest.mark.parametrize("options,shape", [
    ({}, [1, 1, 2, 2]),
    ({"outputShapeRounding": "ceil"}, [1, 1, 3, 3]),
    ({"roundingType": "ceil"}, [1, 1, 3, 3]),  # the pre-#770 name still works
    ({"roundingType": "floor"}, [1, 1, 2, 2]),
])
def test_pool_output_rounding_and_its_legacy_name(contexts, options, shape):
    x = np.arange(25, dtype=np.float32).reshape(1, 1, 5, 5)
    opts = {"windowDimensions": [2, 2], "strides": [2, 2], **options}
    res = run_both(contexts, lambda bb: {"y": bb.maxPool2d(bb.input("x", {"dataType": "float32", "shape": [1, 1, 5, 5]}),
                                                            opts)}, {"x": x})
    for r in res.values():
        assert list(r["y"].shape) == shape
    np.testing.assert_array_equal(res["onnxruntime"]["y"], res["reference"]["y"])
    assert res["reference"]["y"][0, 0, 0, 0] == 6.0


# --------------------------------------------------------------------------- integer pow


@pytest.mark.parametrize("dt", ["int8", "int32", "int64"])
def test_integer_pow_with_negative_exponents(contexts, dt):
    """Truncation toward zero on both backends (the reference used to raise numpy's ValueError,
    and ONNX Runtime turned 0^-1 into the type's minimum)."""
    a = np.array([2, 1, -1, -1, 0, 3, -2], dt)
    e = np.array([-1, -3, -3, -2, -1, 4, 3], dt)
    res = run_both(contexts, lambda bb: {"y": bb.pow(bb.input("a", {"dataType": dt, "shape": [7]}),
                                                     bb.input("e", {"dataType": dt, "shape": [7]}))}, {"a": a, "e": e})
    for r in res.values():
        assert r["y"].tolist() == [0, 1, -1, 1, 0, 81, -8]


# --------------------------------------------------------------------------- exact 64-bit maxPool2d


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
    res = run_both(contexts, lambda bb: {"y": bb.maxPool2d(bb.input("x", {"dataType": dt, "shape": shape}),
                                                           {**opts, "layout": layout})}, {"x": x})
    assert res["onnxruntime"]["y"].shape == res["reference"]["y"].shape
    np.testing.assert_array_equal(res["onnxruntime"]["y"], res["reference"]["y"])
