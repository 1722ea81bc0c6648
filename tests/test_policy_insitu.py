"""src/webnn_bridge/workbench/insitu.py without a browser: what its host observer attributes each dispatch to, and how
a recorded structure's arguments become a builder call's (the browser runs are in e2e/)."""

from __future__ import annotations

import gc

import numpy as np
import pytest

from webnn_bridge.bridge.api import ML, MLGraphBuilder
from webnn_bridge.ops.calls import positional_args
from webnn_bridge.policy.graphs import summarize
from webnn_bridge.workbench import insitu


class _Graph:
    """What the observer reads of a dispatched graph: its structure and placement."""

    def __init__(self, ir):
        self.ir = ir
        self.placement = None


def _ir(op: str):
    b = MLGraphBuilder(ML().createContext({}))
    x = b.input("x", {"dataType": "float32", "shape": [2, 3]})
    return b.build({"y": getattr(b, op)(x)}).ir


def test_a_graph_freed_and_its_id_reused_is_not_taken_for_the_next(monkeypatch):
    """A graph the page tore down is freed, and CPython gives its id() to the next object of its
    size: an observer that keyed graphs by id() took the next graph for the old one (and dropped
    its dispatches as another graph's). Every id() the same here: the worst case of that reuse."""
    monkeypatch.setattr(insitu, "id", lambda _obj: 1, raising=False)
    seen = insitu._Latencies()
    relu, tanh = _ir("relu"), _ir("tanh")
    a = _Graph(relu)
    seen("dispatch", {"graph": a, "latencyMs": 1.0})
    del a
    gc.collect()
    b = _Graph(tanh)
    seen("dispatch", {"graph": b, "latencyMs": 2.0})
    seen("dispatch", {"graph": b, "latencyMs": 3.0})
    runs = seen.take()
    assert [(h, ms) for _, h, ms, _ in runs] == [(summarize(relu).hash, 1.0), (summarize(tanh).hash, 2.0),
                                                (summarize(tanh).hash, 3.0)]
    # the idle time before a dispatch is the same graph's, never the freed one's
    assert runs[1][3] is None and runs[2][3] is not None and runs[2][3] >= 0
    assert seen.take() == []


def test_recorded_arguments_become_the_idl_order():
    assert positional_args("softmax", {"axis": 1, "input": {"$ref": 4}}) == [{"$ref": 4}, 1]
    assert positional_args("matmul", {"b": {"$ref": 2}, "a": {"$ref": 1}}) == [{"$ref": 1}, {"$ref": 2}]
    with pytest.raises(ValueError, match="no IDL overload takes"):
        positional_args("relu", {"input": {"$ref": 1}, "bogus": 1})


def test_page_spec_writes_constants_and_inputs_as_the_page_fetches_them(tmp_path):
    from webnn_bridge.policy.replica import ir_to_json

    b = MLGraphBuilder(ML().createContext({}))
    x = b.input("x", {"dataType": "float32", "shape": [2, 2]})
    w = np.arange(4, dtype="float32").reshape(2, 2)
    ir = b.build({"y": b.matmul(x, b.constant({"dataType": "float32", "shape": [2, 2]}, w))}).ir
    structure = ir_to_json(ir)
    raw = w.tobytes()
    spec, stored = insitu.page_spec(structure, tmp_path / "g0", "/g0", lambda sha: raw)
    assert stored == 1
    (oid, url), = spec["constants"].items()
    assert url == f"/g0/c{oid}.bin" and (tmp_path / "g0" / f"c{oid}.bin").read_bytes() == raw
    assert spec["inputData"] == {"x": "/g0/i0.bin"} and len((tmp_path / "g0" / "i0.bin").read_bytes()) == 16
    assert spec["nodes"][0]["op"] == "matmul" and len(spec["nodes"][0]["args"]) == 2
