"""matmul (src/webnn_bridge/ops/defs/matmul.py): output shapes (broadcasting) and the spec's TypeError conditions."""

from __future__ import annotations

import pytest

from webnn_bridge.ops.core import WebNNTypeError

from ._util import inp


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
