"""softmax (src/webnn_bridge/ops/defs/softmax.py): builder-time validation and values."""

from __future__ import annotations

import numpy as np
import pytest

from webnn_bridge.ops.core import WebNNTypeError

from ._util import inp, run_both


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
