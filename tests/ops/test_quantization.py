"""quantizeLinear / dequantizeLinear (src/webnn_bridge/ops/defs/quantization.py): blockwise scales, reference against
ONNX Runtime and a hand computation."""

from __future__ import annotations

import numpy as np
import pytest

from ._util import both, rand


@pytest.mark.parametrize("qt", ["uint8", "int8", "int32", "uint32"])
def test_quantization_blockwise(qt):
    x = rand([4, 6], "float32", -100, 100)
    s = rand([2, 3], "float32", 0.5, 2)
    z = rand([2, 3], qt, 0, 5)
    ref = both(lambda b, o: [b.quantizeLinear(o["x"], o["s"], o["z"]),
                             b.dequantizeLinear(b.quantizeLinear(o["x"], o["s"], o["z"]), o["s"], o["z"])],
               {"x": x, "s": s, "z": z}, atol=1e-5)
    # each scale element covers a 2x2 block
    se, ze = np.repeat(np.repeat(s, 2, 0), 2, 1), np.repeat(np.repeat(z, 2, 0), 2, 1).astype(np.float64)
    info = np.iinfo(qt)
    expect = np.clip(np.round(x / se) + ze, info.min, info.max)
    np.testing.assert_array_equal(ref[0], expect.astype(qt))
