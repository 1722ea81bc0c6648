"""gemm (src/webnn_bridge/ops/defs/gemm.py): builder-time validation and values."""

from __future__ import annotations

import numpy as np
import pytest

from webnn_bridge.ops.core import WebNNTypeError

from ._util import inp, run_both


def test_gemm_validation(b):
    a, bb = inp(b, [3, 4]), inp(b, [4, 5])
    assert b.gemm(a, bb).shape == [3, 5]
    assert b.gemm(inp(b, [4, 3]), bb, {"aTranspose": True}).shape == [3, 5]
    assert b.gemm(a, inp(b, [5, 4]), {"bTranspose": True}).shape == [3, 5]
    for c in ([], [5], [3, 1], [1, 5], [3, 5]):
        assert b.gemm(a, bb, {"c": inp(b, c)}).shape == [3, 5]
    for c, t in (([3], "float32"), ([5, 3], "float32"), ([1, 3, 5], "float32"), ([3, 5], "float16")):
        with pytest.raises(WebNNTypeError):
            b.gemm(a, bb, {"c": inp(b, c, t)})
    with pytest.raises(WebNNTypeError):
        b.gemm(a, inp(b, [5, 4]))
    with pytest.raises(WebNNTypeError):
        b.gemm(inp(b, [4]), bb)
    with pytest.raises(WebNNTypeError):
        b.gemm(inp(b, [3, 4], "int32"), inp(b, [4, 5], "int32"))
    with pytest.raises(WebNNTypeError):
        b.gemm(a, inp(b, [4, 5], "float16"))


def test_gemm_values(contexts):
    rng = np.random.default_rng(2)
    a, bm, c = (rng.standard_normal(s).astype(np.float32) for s in ((4, 3), (5, 4), (5,)))
    opts = {"aTranspose": True, "bTranspose": True, "alpha": 0.5, "beta": 2.0}

    def build(bb):
        return bb.gemm(
            inp(bb, a.shape, name="a"), inp(bb, bm.shape, name="b"), {**opts, "c": inp(bb, c.shape, name="c")}
        )

    for y in run_both(contexts, build, {"a": a, "b": bm, "c": c}):
        np.testing.assert_allclose(y, 0.5 * a.T @ bm.T + 2 * c, rtol=1e-5, atol=1e-6)
