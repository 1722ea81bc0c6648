"""dispatch() keeps the tensor bindings a graph accepted and skips its checks for them (issue 39:
per-dispatch checks a build can settle once); anything else is checked as before (the page's side
is e2e/test_shim_api.py::test_an_accepted_binding_is_not_checked_again_but_others_are)."""

from __future__ import annotations

import numpy as np
import pytest


def test_the_host_checks_bindings_it_accepted_before_the_same_way():
    from webnn_bridge.bridge.api import ML, MLGraphBuilder
    from webnn_bridge.ops.core import WebNNTypeError

    ctx = ML().createContext({})
    b = MLGraphBuilder(ctx)
    g = b.build({"y": b.relu(b.input("x", {"dataType": "float32", "shape": [2]}))})
    w = {"dataType": "float32", "shape": [2], "writable": True, "readable": True}
    t, u = ctx.createTensor(w), ctx.createTensor(w)
    ctx.writeTensor(t, np.array([-1, 2], np.float32))
    for _ in range(2):
        ctx.dispatch(g, {"x": t}, {"y": u})
    assert len(g.accepted) == 1
    with pytest.raises(WebNNTypeError, match="more than once"):
        ctx.dispatch(g, {"x": u}, {"y": u})
    u.destroy()
    with pytest.raises(WebNNTypeError, match="destroyed"):
        ctx.dispatch(g, {"x": t}, {"y": u})
    again = ctx.createTensor({**w, "shape": [2]})
    ctx.dispatch(g, {"x": t}, {"y": again})
    assert ctx.readTensor(again).tolist() == [0, 2]
