"""convTranspose2d (src/webnn_bridge/ops/defs/conv_transpose2d.py): layouts, groups and options, reference against ONNX
Runtime; the option rules of spec HEAD (groups, outputPadding with outputSizes, overflowing sizes)."""

from __future__ import annotations

import pytest

from webnn_bridge.ops.core import WebNNTypeError

from ._util import FLOATS, both, rand


@pytest.mark.parametrize("dt", FLOATS)
def test_conv_transpose2d_layouts(dt):
    x = rand([1, 4, 3, 3], dt)
    w = rand([4, 1, 3, 2], dt)  # iohw with groups=2 -> 2 output channels
    tol = 5e-2 if dt == "float16" else 1e-4
    both(lambda b, o: [
        b.convTranspose2d(o["x"], o["w"], {"groups": 2, "strides": [2, 3], "padding": [1, 0, 0, 1],
                                           "dilations": [1, 2], "outputPadding": [1, 2], "bias": o["bias"]}),
        b.convTranspose2d(o["x"], b.transpose(o["w"], {"permutation": [2, 3, 1, 0]}),
                          {"filterLayout": "hwoi", "groups": 2, "outputSizes": [8, 7], "strides": [2, 2]}),
    ], {"x": x, "w": w, "bias": rand([2], dt)}, atol=tol, rtol=tol)


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
