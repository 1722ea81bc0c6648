"""Unary operators and activations (src/webnn_bridge/ops/defs/unary.py, activation.py): float32 accuracy of sigmoid, gelu
and elu on both backends, in ULP against exact values."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ._util import run_by_backend


def _ulp(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    def key(v):
        i = v.astype(np.float32).view(np.int32).astype(np.int64)
        return np.where(i < 0, -(i & 0x7FFFFFFF), i)

    return np.abs(key(a) - key(b))


@pytest.mark.parametrize(
    "op, truth, max_ulp",
    [
        ("sigmoid", lambda v: 1 / (1 + math.exp(-v)), 4),
        ("gelu", lambda v: 0.5 * v * math.erfc(-v / math.sqrt(2)), 4),
        ("elu", lambda v: v if v > 0 else math.expm1(v), 8),
    ],
)
def test_activation_accuracy_on_both_backends(contexts, op, truth, max_ulp):
    # ONNX Runtime's Sigmoid is ~200 ULP off near -6 (0 below -16.4), 1 + erf cancels for negative
    # gelu inputs and exp(x) - 1 for elu inputs near 0
    x = np.concatenate([np.linspace(-20, 10, 3001), [-5.98, -2.12, -4.3e-4, -1e-6]]).astype(np.float32)
    want = np.array([truth(float(v)) for v in x])
    got = run_by_backend(contexts, lambda bb: {"y": getattr(bb, op)(bb.input("x", {"dataType": "float32", "shape": [x.size]}))},
                   {"x": x})
    for backend, res in got.items():
        d = _ulp(res["y"], want)
        assert d.max() <= max_ulp, (backend, x[d.argmax()], res["y"][d.argmax()], want[d.argmax()])
