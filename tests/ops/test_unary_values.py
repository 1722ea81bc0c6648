"""Element-wise unary operators the WPT-derived data does not cover (src/webnn_bridge/ops/defs/unary.py): float32 values
on both backends against expected values worked out with Python's math module (independently of the
numpy reference), within each operator's WPT tolerance (OpDef.tolerance, in ULP)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from webnn_bridge.ops.registry import load_all

from ._util import run_by_backend

X = [-3.5, -2.0, -1.0, -0.5, -0.125, 0.0, 0.25, 0.75, 1.0, 1.5, 3.0]


def _ulp(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    def key(v):
        i = v.astype(np.float32).view(np.int32).astype(np.int64)
        return np.where(i < 0, -(i & 0x7FFFFFFF), i)

    return np.abs(key(a) - key(b))


@pytest.mark.parametrize("op, truth, values", [
    # op, the expected value of one float32 input (computed in float64 by Python), the inputs
    ("cos", math.cos, X),
    ("sin", math.sin, X),
    ("tan", math.tan, [-1.25, -0.5, -0.125, 0.0, 0.25, 0.75, 1.0, 1.5]),
    ("erf", math.erf, X),
    ("reciprocal", lambda v: 1.0 / v, [-3.5, -2.0, -0.125, 0.25, 0.75, 3.0, 1e-3]),
    ("sign", lambda v: float((v > 0) - (v < 0)), X),
    ("softplus", lambda v: math.log1p(math.exp(v)), X),
    ("softsign", lambda v: v / (1.0 + abs(v)), X),
])
def test_unary_values_on_both_backends(contexts, op, truth, values):
    x = np.array(values, np.float32)
    want = np.array([truth(float(v)) for v in x]).astype(np.float32)
    kind, max_ulp = load_all()[op].tolerance
    assert kind == "ulp"
    got = run_by_backend(contexts, lambda bb: {"y": getattr(bb, op)(bb.input("x", {"dataType": "float32",
                                                                                    "shape": [x.size]}))},
                         {"x": x})
    for backend, res in got.items():
        d = _ulp(res["y"], want)
        assert d.max() <= max(max_ulp, 1), (backend, x[d.argmax()], res["y"][d.argmax()], want[d.argmax()])
