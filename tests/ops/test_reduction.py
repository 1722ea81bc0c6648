"""cumulativeSum and the reductions (src/webnn_bridge/ops/defs/reduction.py) on float and integer types, reference against
ONNX Runtime; unsigned reduceMax/reduceMin over axes."""

from __future__ import annotations

import numpy as np
import pytest

from ._util import both, rand, run_by_backend


@pytest.mark.parametrize("dt", ["float32", "float16", "int32", "uint32", "int64", "uint64"])
def test_cumulative_sum_and_integer_reductions(dt):
    x = rand([3, 4, 2], dt, 0, 9)
    tol = 1e-2 if dt == "float16" else 1e-5
    both(lambda b, o: [b.cumulativeSum(o["x"], 1), b.cumulativeSum(o["x"], 2, {"exclusive": True}),
                       b.cumulativeSum(o["x"], 0, {"reversed": True}), b.reduceSum(o["x"], {"axes": [0, 2]}),
                       b.reduceL1(o["x"]), b.reduceSumSquare(o["x"], {"axes": []}),
                       b.reduceProduct(o["x"], {"axes": [2]})], {"x": x}, rtol=tol)


def test_unsigned_reduce_max_min_over_axes(contexts):
    x = np.array([[2**31 + 3, 2**31, 5], [2, 7, 9]], np.uint32)

    def build(bb):
        a = bb.input("x", {"dataType": "uint32", "shape": [2, 3]})
        return {"r0": bb.reduceMax(a, {"axes": [0]}), "r1": bb.reduceMin(a, {"axes": [1], "keepDimensions": True})}

    for got in run_by_backend(contexts, build, {"x": x}).values():
        np.testing.assert_array_equal(got["r0"], x.max(0))
        np.testing.assert_array_equal(got["r1"], x.min(1, keepdims=True))
