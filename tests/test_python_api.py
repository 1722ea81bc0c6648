"""The Python object model as a Python user meets it: keyword options, operators visible in
dir() with signatures, clear input errors in compute(), no silent data-type conversions."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

from webnn_bridge.bridge.api import ML, MLGraphBuilder
from webnn_bridge.ops.core import InvalidStateError, WebNNTypeError

CTX = ML().createContext()


def builder():
    return MLGraphBuilder(CTX)


def test_operators_are_listed_with_signatures():
    b = builder()
    names = dir(b)
    assert {"softmax", "conv2d", "gru", "build", "input"} <= set(names)
    assert str(inspect.signature(b.softmax)) == "(input, axis, **options)"
    assert str(inspect.signature(b.conv2d)) == "(input, filter, **options)"
    assert "strides" in b.conv2d.__doc__ and b.conv2d.__name__ == "conv2d"
    with pytest.raises(AttributeError, match="no attribute 'softmaks'"):
        b.softmaks  # noqa: B018


def test_keyword_arguments_and_options():
    b = builder()
    x = b.input("x", {"dataType": "float32", "shape": [2, 3]})
    outs = {
        "soft": b.softmax(x, axis=1),
        "t": b.transpose(x, permutation=[1, 0]),
        "sum": b.reduceSum(x, axes=[1], keepDimensions=True),
        "clamp": b.clamp(x, options={"minValue": 0}, maxValue=4),
    }
    g = b.build(outs)
    data = np.array([[1, 2, 3], [-4, 5, 6]], np.float32)
    r = CTX.compute(g, {"x": data})
    e = np.exp(data - data.max(1, keepdims=True))
    np.testing.assert_allclose(r["soft"], e / e.sum(1, keepdims=True), rtol=1e-6)
    np.testing.assert_array_equal(r["t"], data.T)
    np.testing.assert_array_equal(r["sum"], data.sum(1, keepdims=True))
    np.testing.assert_array_equal(r["clamp"], np.clip(data, 0, 4))


def test_keyword_mistakes_are_type_errors():
    b = builder()
    x = b.input("x", {"dataType": "float32", "shape": [2]})
    with pytest.raises(WebNNTypeError, match="no argument or option 'axs'.*input, axis"):
        b.softmax(x, axs=0)
    with pytest.raises(WebNNTypeError, match="got argument 'axis' twice"):
        b.softmax(x, 0, axis=0)
    with pytest.raises(WebNNTypeError, match="2 argument"):
        b.softmax(x)
    with pytest.raises(WebNNTypeError, match="argument 'input' is required"):
        b.softmax(axis=0)


def _graph():
    b = builder()
    x = b.input("x", {"dataType": "float32", "shape": [2, 2]})
    n = b.input("n", {"dataType": "int32", "shape": [2]})
    return b.build({"y": b.relu(x), "m": b.neg(n)})


@pytest.mark.parametrize(("inputs", "message"), [
    ({"x": np.zeros((2, 2), np.float32)}, r"missing \['n'\]"),
    ({"x": np.zeros((2, 2), np.float32), "n": np.zeros(2, np.int32), "z": 1}, r"unknown \['z'\]"),
    ({"x": np.zeros((2, 2), np.int32), "n": np.zeros(2, np.int32)}, "input 'x' is int32, the graph expects float32"),
    ({"x": np.zeros((2, 2), np.float64), "n": np.zeros(2, np.int32)}, "input 'x' is float64"),
    ({"x": np.zeros((4,), np.float32), "n": np.zeros(2, np.int32)}, r"shape \[4\], the graph expects \[2, 2\]"),
    ({"x": [[0, 0], [0, 0]], "n": [1.5, 2]}, "input 'n': the values do not fit int32 exactly"),
    ({"x": [[0, 0], [0, 0]], "n": ["a", "b"]}, "expected numbers"),
])
def test_compute_input_errors(inputs, message):
    with pytest.raises(WebNNTypeError, match=message):
        CTX.compute(_graph(), inputs)


def test_compute_accepts_exact_python_values():
    r = CTX.compute(_graph(), {"x": [[-1, 2], [3, -4]], "n": [1, -2]})
    assert r["y"].dtype == np.float32 and r["m"].dtype == np.int32
    np.testing.assert_array_equal(r["y"], [[0, 2], [3, 0]])
    np.testing.assert_array_equal(r["m"], [-1, 2])


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


@pytest.mark.parametrize("dt", ["int4", "uint4"])
def test_scalar_constants_of_4_bit_types_are_refused(dt):
    """int4/uint4 are packed-tensor extensions (as Chromium ships them): a scalar constant of either
    is a TypeError there and here; a tensor constant of them is not."""
    b = MLGraphBuilder(ML().createContext())
    with pytest.raises(WebNNTypeError, match=f"scalar constant cannot have data type {dt}"):
        b.constant(dt, 3)
    assert b.constant({"dataType": dt, "shape": [2]}, bytes([0x21])).shape == [2]  # packed: 2 elements, 1 byte
    assert b.constant("int8", 3).shape == []
