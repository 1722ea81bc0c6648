"""The spec's error types (src/webnn_bridge/ops/core.py)."""

from __future__ import annotations

from webnn_bridge.ops.core import WebNNTypeError


def test_type_error_is_a_type_error():
    assert issubclass(WebNNTypeError, TypeError)
