"""Element-wise binary operators (src/webnn_bridge/ops/defs/binary.py): integer pow with negative exponents on both backends."""

from __future__ import annotations

import numpy as np
import pytest

from ._util import run_by_backend


@pytest.mark.parametrize("dt", ["int8", "int32", "int64"])
def test_integer_pow_with_negative_exponents(contexts, dt):
    """Truncation toward zero on both backends (the reference used to raise numpy's ValueError,
    and ONNX Runtime turned 0^-1 into the type's minimum)."""
    a = np.array([2, 1, -1, -1, 0, 3, -2], dt)
    e = np.array([-1, -3, -3, -2, -1, 4, 3], dt)
    res = run_by_backend(contexts, lambda bb: {"y": bb.pow(bb.input("a", {"dataType": dt, "shape": [7]}),
                                                     bb.input("e", {"dataType": dt, "shape": [7]}))}, {"a": a, "e": e})
    for r in res.values():
        assert r["y"].tolist() == [0, 1, -1, 1, 0, 81, -8]
