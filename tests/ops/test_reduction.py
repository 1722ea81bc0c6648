"""cumulativeSum and the reductions (ops/defs/reduction.py) on float and integer types, reference against
ONNX Runtime."""

from __future__ import annotations

import pytest

from ._util import both, rand


@pytest.mark.parametrize("dt", ["float32", "float16", "int32", "uint32", "int64", "uint64"])
def test_cumulative_sum_and_integer_reductions(dt):
    x = rand([3, 4, 2], dt, 0, 9)
    tol = 1e-2 if dt == "float16" else 1e-5
    both(lambda b, o: [b.cumulativeSum(o["x"], 1), b.cumulativeSum(o["x"], 2, {"exclusive": True}),
                       b.cumulativeSum(o["x"], 0, {"reversed": True}), b.reduceSum(o["x"], {"axes": [0, 2]}),
                       b.reduceL1(o["x"]), b.reduceSumSquare(o["x"], {"axes": []}),
                       b.reduceProduct(o["x"], {"axes": [2]})], {"x": x}, rtol=tol)
