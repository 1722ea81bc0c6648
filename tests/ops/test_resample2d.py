"""resample2d (src/webnn_bridge/ops/defs/resample2d.py): NHWC between convolutions, reference against ONNX Runtime."""

from __future__ import annotations

import pytest

from ._util import both, rand


@pytest.mark.parametrize("mode", ["linear", "nearest-neighbor"])
def test_resample2d_nhwc_between_convs(mode):
    """Regression (DeepLabV3, NHWC): resample2d over axes [1, 2] between NHWC convolutions used to
    fail ORT's graph optimizer ("Number of elements of input 'sizes' (0) does not match ...")."""
    x = rand([1, 5, 6, 3])

    def build(b, o):
        y = b.conv2d(o["x"], o["w1"], {"inputLayout": "nhwc", "filterLayout": "ohwi"})
        y = b.resample2d(y, {"sizes": [11, 9], "axes": [1, 2], "mode": mode})
        return b.conv2d(y, o["w2"], {"inputLayout": "nhwc", "filterLayout": "ohwi"})

    out = both(build, {"x": x, "w1": rand([4, 1, 1, 3]), "w2": rand([2, 3, 3, 4])}, atol=1e-4, rtol=1e-4)
    assert out[0].shape == (1, 9, 7, 2)
