"""Real partitions: a graph split by a placement runs its segments on different backends, with
arrays handed between them, and agrees with the numpy reference.

The executor is tested with ONNX Runtime CPU + the reference backend (always present); the
end-to-end path (policy -> build() -> compute()) with OpenVINO's CPU plugin + ONNX Runtime CPU,
where OpenVINO is given a declared capability gap (src/webnn_bridge/policy/fixtures/openvino-ort-cpu.json).
"""

from __future__ import annotations

import numpy as np
import pytest

from webnn_bridge.backends import backend_for
from webnn_bridge.backends.capabilities import capabilities_from_spec, intersect
from webnn_bridge.backends.onnxruntime import OrtCompiled
from webnn_bridge.backends.partition import PartitionedCompiled, compile_partitioned, split_graph, value_name
from webnn_bridge.backends.reference import ReferenceCompiled
from webnn_bridge.bridge.api import ML, MLGraphBuilder
from webnn_bridge.bridge.wire import placement_report
from webnn_bridge.policy import engine
from webnn_bridge.policy.inventory import is_simulated, load_profile, parse_profile, probe_inventory

PROBED = {d.id: d for d in probe_inventory()}
ORT_CPU = PROBED["onnxruntime:CPUExecutionProvider"]
REF_CPU = PROBED["reference:cpu"]
REF = ML([REF_CPU]).createContext()
HAS_OV = "openvino:CPU" in PROBED
needs_ov = pytest.mark.skipif(not HAS_OV, reason="OpenVINO (pip install webnn-bridge[openvino]) reports no CPU device")

RNG = np.random.default_rng(7)
X = RNG.standard_normal((1, 2, 5, 5)).astype(np.float32)
W = RNG.standard_normal((4, 2, 3, 3)).astype(np.float32)


def cnn(ctx):
    """conv2d -> relu -> reshape -> softmax -> split (2 outputs) -> add: 6 nodes, a
    multi-output node, and a value (relu's) read both by a later segment and as a graph output."""
    b = MLGraphBuilder(ctx)
    x = b.input("x", {"dataType": "float32", "shape": [1, 2, 5, 5]})
    w = b.constant({"dataType": "float32", "shape": [4, 2, 3, 3]}, W)
    r = b.relu(b.conv2d(x, w))
    s = b.softmax(b.reshape(r, [4, 9]), 1)
    a, c = b.split(s, 2)
    return b.build({"sum": b.add(a, c), "relu": r})


def reference():
    return REF.compute(cnn(REF), {"x": X})


def check(got):
    ref = reference()
    assert set(got) == set(ref)
    for k in ref:
        np.testing.assert_allclose(got[k], ref[k], rtol=1e-5, atol=1e-6, err_msg=k)


# --------------------------------------------------------------------------- splitting


def test_split_graph_boundaries():
    ir = cnn(REF).ir
    ops = [n.op for n in ir.nodes]
    assert ops == ["conv2d", "relu", "reshape", "softmax", "split", "add"]
    segs = split_graph(ir, ["A", "A", "B", "B", "A", "A"])
    assert [s.device_id for s in segs] == ["A", "B", "A"]
    relu_out = ir.nodes[1].outputs[0]
    # the first segment hands relu's value on (read by reshape, and a graph output)
    assert list(segs[0].graph.outputs) == [value_name(relu_out)]
    assert list(segs[0].graph.inputs) == [value_name(ir.inputs["x"])]
    assert len(segs[0].graph.constants) == 1  # the filter travels with the conv2d that reads it
    assert list(segs[1].graph.inputs) == [value_name(relu_out)]
    # the last segment ends the graph: its output is the add, read by nobody later
    assert list(segs[2].graph.outputs) == [value_name(ir.outputs["sum"])]
    with pytest.raises(ValueError):
        split_graph(ir, ["A"])


@pytest.mark.parametrize("pattern", ["AAAAAA", "ABABAB", "AABBAA", "BAAAAB"])
def test_partitioned_run_matches_reference(pattern):
    ir = cnn(REF).ir
    devices = {"A": ORT_CPU, "B": REF_CPU}
    compiled = compile_partitioned(ir, [devices[c].id for c in pattern], {d.id: d for d in devices.values()},
                                   lambda g, d: backend_for(d).compile(g, d))
    try:
        if len(set(pattern)) == 1:
            assert isinstance(compiled, OrtCompiled)
        else:
            assert isinstance(compiled, PartitionedCompiled)
            kinds = {type(c) for _, c in compiled.parts}
            assert kinds == {OrtCompiled, ReferenceCompiled}
        check(compiled.run({"x": X}))
    finally:
        compiled.close()


# --------------------------------------------------------------------------- declared narrowing


def test_intersect_narrows_both_ways():
    a = capabilities_from_spec({"dataTypes": ["float32", "int32"], "maxRank": 6})
    b = capabilities_from_spec({"dataTypes": ["float32", "float16"], "excludeOps": ["gru"]})
    c = intersect(a, b)
    assert "gru" not in c.ops and "relu" in c.ops
    assert c.ops["add"]["a"].types == ("float32",)
    assert c.max_rank == 6
    assert "logicalNot" not in c.ops  # uint8 only: nothing left


def test_bound_profile_errors():
    with pytest.raises(ValueError, match="names no device"):
        parse_profile({"devices": [{"id": "x", "kind": "cpu", "probe": "nothing:here"}]})
    with pytest.raises(ValueError, match="differs from the probed"):
        parse_profile({"devices": [{"id": "x", "kind": "gpu", "probe": ORT_CPU.id}]})


# --------------------------------------------------------------------------- end to end with OpenVINO


def _rules(tmp_path, text):
    p = tmp_path / "rules.toml"
    p.write_text(text)
    return engine.load_rules(p)


OV_FIRST = '[backends]\norder = ["openvino", "onnxruntime", "reference"]\n[build]\nprefer = "preferred-device"\n'


@needs_ov
def test_openvino_and_ort_really_share_a_graph(tmp_path):
    from webnn_bridge.backends.cache import SharedCompiled
    from webnn_bridge.backends.openvino import OpenVinoCompiled

    devices = load_profile("openvino-ort-cpu")
    assert not any(is_simulated(d) for d in devices)
    ml = ML(devices, rules=_rules(tmp_path, OV_FIRST))
    ctx = ml.createContext()
    assert ctx.device.id == "ov-cpu"
    graph = cnn(ctx)
    p = graph.placement
    assert [(d, len(n)) for d, n in p.partitions()] == [("ov-cpu", 3), ("ort-cpu", 1), ("ov-cpu", 2)]
    assert not p.simulated and p.fallback_device.id == "ort-cpu"
    assert isinstance(graph.compiled, PartitionedCompiled)
    # (segments that the compile cache shares are reached through their cache reference)
    kinds = [type(c.compiled if isinstance(c, SharedCompiled) else c) for _, c in graph.compiled.parts]
    assert kinds == [OpenVinoCompiled, OrtCompiled, OpenVinoCompiled]
    check(ctx.compute(graph, {"x": X}))
    # all on CPUs: no accelerator ran anything, so cpuFallback is "full" (not "partial"); real devices
    assert placement_report(graph)["effective"] == {"accelerated": False, "cpuFallback": "full", "simulated": False}


@needs_ov
def test_no_single_cpu_runs_the_graph(tmp_path):
    """Default rules (whole graph preferred): ONNX Runtime declared without conv2d, OpenVINO
    without softmax; neither runs everything, so the graph is split between them."""
    ml = ML(parse_profile({"devices": [
        {"id": "ov", "kind": "cpu", "probe": "openvino:CPU", "capabilities": {"excludeOps": ["softmax"]}},
        {"id": "ort", "kind": "cpu", "probe": ORT_CPU.id, "capabilities": {"excludeOps": ["conv2d"]}},
    ]}))
    ctx = ml.createContext({"accelerated": False})
    graph = cnn(ctx)
    assert [d for d, _ in graph.placement.partitions()] == ["ov", "ort"]
    assert graph.placement.fallback == "none"  # the page asked for the CPU
    check(ctx.compute(graph, {"x": X}))


@needs_ov
def test_whole_graph_when_one_cpu_runs_everything(tmp_path):
    ml = ML(load_profile("openvino-ort-cpu"))  # default rules: ONNX Runtime first, runs everything
    ctx = ml.createContext()
    graph = cnn(ctx)
    assert graph.placement.partitions() == [("ort-cpu", list(range(6)))]
    assert isinstance(graph.compiled.compiled, OrtCompiled)  # one whole graph, shared by the compile cache
    check(ctx.compute(graph, {"x": X}))


# --------------------------------------------------------------------------- policy (pure, declared devices)


def test_policy_partitions_across_cpu_backends_only_when_needed():
    from webnn_bridge.policy.graphs import load_graph
    from webnn_bridge.policy.inventory import FIXTURES_DIR

    graph = load_graph(FIXTURES_DIR / "graphs" / "tiny-cnn.json")
    ops = [n.op for n in graph.nodes]
    first, last = ops[0], ops[-1]
    assert first != last

    def place(a_excludes, b_excludes, rules=None):
        inv = parse_profile({"devices": [
            {"id": "a", "kind": "cpu", "backend": "onnxruntime", "capabilities": {"excludeOps": a_excludes}},
            {"id": "b", "kind": "cpu", "backend": "openvino", "capabilities": {"excludeOps": b_excludes}},
        ]})
        d = engine.decide_context({}, inv, rules)
        return engine.decide_build(d, graph, inv, rules)

    assert place([], [last]).partitions() == [("a", list(range(len(ops))))]  # a runs everything
    assert place([last], []).partitions() == [("b", list(range(len(ops))))]  # b runs everything
    p = place([last], [first])  # nobody runs everything: a takes what it can, b the rest
    assert p.partitions() == [("a", list(range(len(ops) - 1))), ("b", [len(ops) - 1])]
    assert p.fallback == "full" and p.fallback_device.id == "b"
    assert any("partition across CPU backends" in r for r in p.reasons)
