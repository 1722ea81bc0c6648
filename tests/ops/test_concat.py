"""concat (src/webnn_bridge/ops/defs/concat.py): builder-time validation."""

from __future__ import annotations

import pytest

from webnn_bridge.ops.core import WebNNTypeError

from ._util import inp


def test_concat_validation(b):
    x, y = inp(b, [2, 3]), inp(b, [2, 5])
    assert b.concat([x, y], 1).shape == [2, 8]
    assert b.concat([x], 0).shape == [2, 3]
    with pytest.raises(WebNNTypeError):
        b.concat([], 0)
    with pytest.raises(WebNNTypeError):
        b.concat([x, y], 0)  # dimension 1 differs
    with pytest.raises(WebNNTypeError):
        b.concat([x, y], 2)
    with pytest.raises(WebNNTypeError):
        b.concat([x, inp(b, [2, 3], "int32")], 0)
    with pytest.raises(WebNNTypeError):
        b.concat([x, inp(b, [2, 3, 1])], 0)
    with pytest.raises(WebNNTypeError):
        b.concat([inp(b, []), inp(b, [])], 0)
