"""The rules of every builder call (src/webnn_bridge/ops/calls.py): "check dimensions" of every created operand, against
the context's limits (maxTensorByteLength, rank) and the largest valid dimension."""

from __future__ import annotations

import pytest

from webnn_bridge.ops.core import WebNNTypeError


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
