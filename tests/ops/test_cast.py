"""cast (src/webnn_bridge/ops/defs/cast.py): output descriptors and values between data types."""

from __future__ import annotations

import numpy as np
import pytest

from webnn_bridge.ops.core import WebNNTypeError

from ._util import inp, run_both


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
