"""clamp (src/webnn_bridge/ops/defs/clamp.py): builder-time validation (the spec's TypeError conditions) and values."""

from __future__ import annotations

import numpy as np
import pytest

from webnn_bridge.ops.core import WebNNTypeError

from ._util import inp, run_both


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
