"""convTranspose2d (ops/defs/conv_transpose2d.py): layouts, groups and options, reference against ONNX
Runtime."""

from __future__ import annotations

import pytest

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
