"""src/webnn_bridge/bridge/testing/browsers.py without a browser: the JSON codec evaluate() uses both ways, and what
`missing()` says about a browser that is not installed."""

from __future__ import annotations

import json
import math

from webnn_bridge.bridge.testing import browsers


def test_page_values_decode_to_python():
    text = json.dumps([{"__wb": "NaN"}, {"__wb": "-0"}, {"__wb": "Infinity"}, {"__wb": "-Infinity"},
                       {"__wb": "undefined"}, {"__wb": "bigint", "v": "12345678901234567890"},
                       {"a": [1, 2.5, "x", None, True]}])
    nan, neg_zero, inf, ninf, undef, big, obj = browsers._decode(text)
    assert math.isnan(nan) and neg_zero == 0 and math.copysign(1, neg_zero) < 0
    assert inf == math.inf and ninf == -math.inf and undef is None
    assert big == 12345678901234567890 and obj == {"a": [1, 2.5, "x", None, True]}


def test_arguments_encode_special_floats_as_tags():
    encoded = json.loads(browsers._encode_arg({"x": [math.nan, -0.0, math.inf, -math.inf, 1.5], "t": (1, 2)}))
    assert encoded == {"x": [{"__wb": "NaN"}, {"__wb": "-0"}, {"__wb": "Infinity"}, {"__wb": "-Infinity"}, 1.5],
                       "t": [1, 2]}


def test_missing_browsers_name_the_package(monkeypatch):
    monkeypatch.setattr(browsers, "FIREFOX", "/nonexistent/firefox-esr")
    monkeypatch.setattr(browsers, "WEBKIT_DRIVER", "/nonexistent/WebKitWebDriver")
    assert "apt-get install firefox-esr" in browsers.missing("firefox")
    assert "apt-get install webkit2gtk-driver" in browsers.missing("webkit")
    assert "apt-get install chromium" in browsers.missing("chromium", "/nonexistent/chromium")
    assert "unknown browser" in browsers.missing("netscape")
