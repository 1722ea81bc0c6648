"""reshape (src/webnn_bridge/ops/defs/reshape.py): builder-time validation."""

from __future__ import annotations

import pytest

from webnn_bridge.ops.core import WebNNTypeError

from ._util import inp


def test_reshape_validation(b):
    x = inp(b, [2, 3, 4], "int8")
    assert b.reshape(x, [4, 6]).shape == [4, 6]
    assert b.reshape(inp(b, [1, 1]), []).shape == []
    for shape in ([4, 5], [0, 24], [24, 1, 0], []):
        with pytest.raises(WebNNTypeError):
            b.reshape(x, shape)
