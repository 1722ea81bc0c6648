"""`policy measure --browser chromium`: recorded graphs rebuilt in a real Chromium page through the
shim and timed in a host per device (src/webnn_bridge/workbench/insitu.py), with the matrix replay and tune read."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from webnn_bridge.bridge.api import ML, MLGraphBuilder
from webnn_bridge.policy.graphs import summarize
from webnn_bridge.policy.inventory import probe_inventory
from webnn_bridge.policy.matrix import read_matrix
from webnn_bridge.workbench import insitu, trace

# it launches its own Chromium (Playwright), as the CLI does
pytestmark = pytest.mark.webnn_engines("chromium")


def _mlp(b):
    x = b.input("x", {"dataType": "float32", "shape": [4, 32]})
    w = b.constant({"dataType": "float32", "shape": [32, 16]}, np.full((32, 16), 0.01, "float32"))
    return {"logits": b.softmax(b.relu(b.matmul(x, w)), 1)}


def _sequences(b):
    """Operand lists in and out (split, concat), an operand inside options (conv2d's bias)."""
    x = b.input("img", {"dataType": "float32", "shape": [1, 3, 8, 8]})
    w = b.constant({"dataType": "float32", "shape": [4, 3, 3, 3]}, np.full((4, 3, 3, 3), 0.1, "float32"))
    bias = b.constant({"dataType": "float32", "shape": [4]}, np.arange(4, dtype="float32"))
    y = b.conv2d(x, w, {"padding": [1, 1, 1, 1], "bias": bias})
    a, c = b.split(y, 2, {"axis": 1})
    return {"joined": b.concat([c, a], 1), "mean": b.reduceMean(a, {"axes": [2, 3]})}


def _trace(path, graphs):
    ml = ML()
    with trace.TraceWriter(path, mode="w") as w:
        tracer = trace.SessionTracer(w)
        for make in graphs:
            ctx = ml.createContext({})
            tracer("createContext", {"options": ctx.options, "decision": ctx.decision, "context": ctx,
                                     "page": "/app.html"})
            b = MLGraphBuilder(ctx)
            g = b.build(make(b))
            tracer("build", {"graph": g, "context": ctx, "page": "/app.html"})
            ins = {n: np.ones(d.shape, d.numpy_dtype) for n, d in g.ir.input_descs().items()}
            for _ in range(2):
                ctx.compute(g, ins)
                tracer("dispatch", {"graph": g, "context": ctx, "latencyMs": 1.0})
    return trace.read_trace(path)


@pytest.fixture(scope="module")
def ort_cpu():
    devs = [d for d in probe_inventory() if d.kind == "cpu" and d.backend == "onnxruntime"]
    assert devs, "ONNX Runtime's CPU device is part of every install"
    return devs[:1]


def test_graphs_are_rebuilt_in_a_page_and_timed_in_the_host(tmp_path, ort_cpu):
    events = _trace(tmp_path / "t.jsonl", [_mlp, _sequences])
    for e in events:
        if e["event"] == "dispatch":  # the pages left the host idle 20 ms before each dispatch
            e["idleMs"] = 20.0
    m = insitu.measure_in_browser(events, devices=ort_cpu, seconds=1.0, reps=10, warmup=1, progress=None)
    assert m["method"] == "browser" and list(m["devices"]) == [ort_cpu[0].id]
    hashes = {summarize(e["graph"]).hash for e in events if e["event"] == "build"}
    assert set(m["graphs"]) == hashes
    for g in m["graphs"].values():
        assert g["skipped"] == {}, g["skipped"]
        r = g["results"][ort_cpu[0].id]  # timed only if the page's graph hashed as the recorded one
        assert r["n"] >= 10 and 0 < r["ci95"][0] <= r["p50"] <= r["ci95"][1] <= r["p90"] * 10
        # each page run waits for its dispatch and more: its median is above the host's
        assert r["page_p50"] > r["p50"] and r["cpu_ms"] >= 0
        # the host idled about as the pages did (the page's own round trip counted in), as achieved
        assert 12.0 <= r["idle_ms"] < 200.0
    # what replay reads: measured latencies where the trace recorded none
    path = tmp_path / "m.json"
    path.write_text(json.dumps(m))
    assert read_matrix(path)["graphs"].keys() == m["graphs"].keys()


def test_a_graph_the_page_cannot_build_is_skipped_with_its_reason(tmp_path, ort_cpu):
    events = _trace(tmp_path / "t.jsonl", [_mlp])
    for e in events:
        if e["event"] == "build":  # a recorded call the builder refuses: softmax over a missing axis
            e["ir"]["nodes"][-1]["args"]["axis"] = 7
    events += _trace(tmp_path / "u.jsonl", [_sequences])
    for e in events:  # and a call no IDL overload takes: that graph alone is skipped, the rest measured
        if e["event"] == "build" and e["ir"]["nodes"][0]["op"] == "conv2d":
            e["ir"]["nodes"][0]["args"]["bogus"] = 1
    m = insitu.measure_in_browser(events, devices=ort_cpu, seconds=0.5, reps=5, warmup=1, progress=None)
    refused, bogus = m["graphs"].values()
    assert refused["results"] == {}
    assert "the page could not build it" in refused["skipped"][ort_cpu[0].id]
    assert "TypeError" in refused["skipped"][ort_cpu[0].id]
    assert bogus["results"] == {}
    assert "its structure cannot be rebuilt" in bogus["skipped"][ort_cpu[0].id]


def test_cli_measures_through_the_browser_and_refuses_cpu_modes_there(tmp_path, ort_cpu):
    _trace(tmp_path / "t.jsonl", [_mlp])
    cmd = [sys.executable, "-m", "webnn_bridge.bridge.cli", "policy", "measure", str(tmp_path / "t.jsonl"),
           "--out", str(tmp_path / "m.json"), "--browser", "chromium", "--seconds", "0.5", "--reps", "5", "--quiet"]
    bad = subprocess.run([*cmd, "--threads", "1"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "--threads cannot be measured with --browser" in bad.stderr
    assert "Traceback" not in bad.stderr
    ok = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert ok.returncode == 0, ok.stderr
    m = read_matrix(tmp_path / "m.json")
    assert m["method"] == "browser"
    assert all(g["results"] for g in m["graphs"].values())
    assert "p50" in ok.stdout
