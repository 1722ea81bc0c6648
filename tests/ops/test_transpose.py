"""transpose (src/webnn_bridge/ops/defs/transpose.py): builder-time validation, and values (with concat)."""

from __future__ import annotations

import numpy as np
import pytest

from webnn_bridge.ops.core import WebNNTypeError

from ._util import inp, run_both


def test_transpose_validation(b):
    x = inp(b, [2, 3, 4])
    assert b.transpose(x).shape == [4, 3, 2]
    assert b.transpose(x, {"permutation": [1, 2, 0]}).shape == [3, 4, 2]
    assert b.transpose(inp(b, [])).shape == []
    for perm in ([0, 1], [0, 1, 3], [0, 1, 1]):
        with pytest.raises(WebNNTypeError):
            b.transpose(x, {"permutation": perm})


def test_transpose_concat_values(contexts):
    x = np.arange(6, dtype=np.int32).reshape(2, 3)

    def build(bb):
        t = bb.transpose(inp(bb, [2, 3], "int32", name="x"))
        return bb.concat([t, t], 1)

    for y in run_both(contexts, build, {"x": x}):
        np.testing.assert_array_equal(y, np.concatenate([x.T, x.T], 1))
