"""Policy engine: the truth table on every fixture inventory, strictness, build placement.

Expected outcomes are written out here as data (by hand, from the fixture profiles and the
documented rules); they are not recomputed with the engine's own code.
"""

from __future__ import annotations

import json

import pytest

from webnn_bridge.backends.capabilities import CapabilitySpecError, capabilities_from_spec, io_types
from webnn_bridge.ops.core import NotSupportedError, WebNNTypeError
from webnn_bridge.policy import engine
from webnn_bridge.policy.graphs import load_graph
from webnn_bridge.policy.inventory import (
    FIXTURES_DIR,
    DeclaredDevice,
    capabilities_of,
    is_simulated,
    load_profile,
    parse_profile,
)

FIXTURES = ["cpu-only", "nvidia-cuda-trt", "apple-silicon", "intel-laptop-npu", "dual-gpu"]
GRAPHS = FIXTURES_DIR / "graphs"

# one options dict per truth-table row, chosen to exercise the row's contradiction if it has one
ROW_CASES = {
    "computePolicy-fallback": {"computePolicy": "fallback", "deviceType": "gpu", "powerPreference": "high-performance"},
    "computePolicy-high-performance": {"computePolicy": "high-performance", "accelerated": False},
    "computePolicy-low-power": {"computePolicy": "low-power", "powerPreference": "high-performance"},
    "computePolicy-default": {"computePolicy": "default", "deviceType": "npu"},
    "accelerated-false": {"accelerated": False, "powerPreference": "high-performance", "deviceType": "gpu"},
    "deviceType-cpu": {"deviceType": "cpu", "powerPreference": "high-performance"},
    "deviceType-gpu": {"deviceType": "gpu", "powerPreference": "low-power"},
    "deviceType-npu": {"deviceType": "npu"},
    "powerPreference-high-performance": {"powerPreference": "high-performance"},
    "powerPreference-low-power": {"powerPreference": "low-power"},
    "powerPreference-default": {},
}

ROW_POLICY = {
    "computePolicy-fallback": "fallback",
    "computePolicy-high-performance": "high-performance",
    "computePolicy-low-power": "low-power",
    "computePolicy-default": "default",
    "accelerated-false": "fallback",
    "deviceType-cpu": "fallback",
    "deviceType-gpu": "low-power",
    "deviceType-npu": "default",
    "powerPreference-high-performance": "high-performance",
    "powerPreference-low-power": "low-power",
    "powerPreference-default": "default",
}

# chosen device per row, columns in FIXTURES order
EXPECTED = {
    "computePolicy-fallback":           ["cpu", "cpu", "cpu", "cpu", "cpu"],
    "computePolicy-high-performance":   ["cpu", "trt", "coreml:gpu", "openvino:gpu", "dml:dgpu"],
    "computePolicy-low-power":          ["cpu", "ort-cuda", "coreml:ane", "openvino:npu", "dml:igpu"],
    "computePolicy-default":            ["cpu", "ort-cuda", "coreml:gpu", "openvino:gpu", "dml:dgpu"],
    "accelerated-false":                ["cpu", "cpu", "cpu", "cpu", "cpu"],
    "deviceType-cpu":                   ["cpu", "cpu", "cpu", "cpu", "cpu"],
    "deviceType-gpu":                   ["cpu", "ort-cuda", "coreml:gpu", "openvino:gpu", "dml:igpu"],
    "deviceType-npu":                   ["cpu", "cpu", "coreml:ane", "openvino:npu", "cpu"],
    "powerPreference-high-performance": ["cpu", "trt", "coreml:gpu", "openvino:gpu", "dml:dgpu"],
    "powerPreference-low-power":        ["cpu", "ort-cuda", "coreml:ane", "openvino:npu", "dml:igpu"],
    "powerPreference-default":          ["cpu", "ort-cuda", "coreml:gpu", "openvino:gpu", "dml:dgpu"],
}

# the same with every [strict] switch on: None means createContext() rejects (NotSupportedError)
EXPECTED_STRICT = {
    "computePolicy-fallback":           ["cpu", "cpu", "cpu", "cpu", "cpu"],
    "computePolicy-high-performance":   [None, "trt", "coreml:gpu", "openvino:gpu", "dml:dgpu"],
    "computePolicy-low-power":          [None, "ort-cuda", "coreml:ane", "openvino:npu", "dml:igpu"],
    "computePolicy-default":            ["cpu", "ort-cuda", "coreml:gpu", "openvino:gpu", "dml:dgpu"],
    "accelerated-false":                ["cpu", "cpu", "cpu", "cpu", "cpu"],
    "deviceType-cpu":                   ["cpu", "cpu", "cpu", "cpu", "cpu"],
    "deviceType-gpu":                   [None, "ort-cuda", "coreml:gpu", "openvino:gpu", "dml:igpu"],
    "deviceType-npu":                   [None, None, "coreml:ane", "openvino:npu", None],
    "powerPreference-high-performance": [None, "trt", "coreml:gpu", "openvino:gpu", "dml:dgpu"],
    "powerPreference-low-power":        [None, "ort-cuda", "coreml:ane", "openvino:npu", "dml:igpu"],
    "powerPreference-default":          ["cpu", "ort-cuda", "coreml:gpu", "openvino:gpu", "dml:dgpu"],
}
STRICT_ROWS = {
    "computePolicy-high-performance", "computePolicy-low-power", "deviceType-gpu", "deviceType-npu",
    "powerPreference-high-performance", "powerPreference-low-power",
}

ALL_STRICT = "[strict]\ndeviceType = true\nhigh-performance = true\nlow-power = true\n"


@pytest.fixture(scope="module")
def rules():
    return engine.load_rules()


@pytest.fixture(scope="module")
def strict_rules(tmp_path_factory):
    p = tmp_path_factory.mktemp("rules") / "strict.toml"
    p.write_text(ALL_STRICT)
    return engine.load_rules(p)


@pytest.fixture(scope="module")
def inventories():
    return {name: load_profile(name) for name in FIXTURES}


def test_every_rule_row_has_a_test_case(rules):
    assert [r["id"] for r in rules["options"]] == list(ROW_CASES)
    assert set(EXPECTED) == set(ROW_CASES) == set(EXPECTED_STRICT) == set(ROW_POLICY)


@pytest.mark.parametrize("fixture", FIXTURES)
@pytest.mark.parametrize("row", list(ROW_CASES))
def test_truth_table_row_on_fixture(row, fixture, rules, inventories):
    options = ROW_CASES[row]
    norm = engine.normalize(options, rules)
    assert norm.source == row
    assert norm.policy == ROW_POLICY[row]
    assert norm.strict is False
    decision = engine.decide_context(options, inventories[fixture], rules)
    expected = EXPECTED[row][FIXTURES.index(fixture)]
    assert decision.device is not None and decision.device.id == expected
    assert decision.policy == ROW_POLICY[row]
    assert decision.simulated and is_simulated(decision.device)
    assert decision.exec_device is not None and not is_simulated(decision.exec_device)
    assert decision.reasons and all(isinstance(r, str) and r for r in decision.reasons)
    ids = {d.id for d in inventories[fixture]}
    assert {d.id for d in decision.candidates} | {i for i, _ in decision.rejected} == ids
    assert all(why for _, why in decision.rejected)


@pytest.mark.parametrize("fixture", FIXTURES)
@pytest.mark.parametrize("row", list(ROW_CASES))
def test_truth_table_row_on_fixture_strict(row, fixture, strict_rules, inventories):
    options = ROW_CASES[row]
    norm = engine.normalize(options, strict_rules)
    assert norm.strict is (row in STRICT_ROWS)
    decision = engine.decide_context(options, inventories[fixture], strict_rules)
    expected = EXPECTED_STRICT[row][FIXTURES.index(fixture)]
    assert (decision.device.id if decision.device else None) == expected
    if decision.strict and norm.policy != "fallback":
        assert all(d.kind != "cpu" for d in decision.candidates)
    if expected is None:
        assert any("no device of an acceptable kind" in r for r in decision.reasons)
        # the host puts these reasons into the page-visible NotSupportedError: no device identity
        blob = " ".join(decision.reasons)
        assert not any(d.id in blob or d.name in blob for d in inventories[fixture])


def test_every_option_combination_matches_a_row(rules):
    table = engine.expand_truth_table(rules)
    assert len(table) == 3 * 2 * 5 * 4
    for e in table:
        o = e["options"]
        if o["computePolicy"] == "fallback" or (o["computePolicy"] == "absent" and o["accelerated"] is False):
            assert e["policy"] == "fallback" and e["kinds"] == ["cpu"]
        if o["computePolicy"] not in ("absent",):
            assert e["policy"] == o["computePolicy"]


@pytest.mark.parametrize(
    "options",
    [{"computePolicy": "turbo"}, {"powerPreference": "fast"}, {"deviceType": "tpu"}, {"computePolicy": "absent"}],
)
def test_invalid_enum_values_are_type_errors(options, rules):
    with pytest.raises(WebNNTypeError):
        engine.normalize(options, rules)


def test_rules_override_merges_tables_and_replaces_rows(tmp_path):
    p = tmp_path / "r.toml"
    p.write_text("[strict]\ndeviceType = true\n[build]\npartial_min_fraction = 0.9\n")
    r = engine.load_rules(p)
    assert r["strict"]["deviceType"] is True and r["strict"]["low-power"] is False and r["strict"]["drop"] == ["cpu"]
    assert r["build"] == {"prefer": "whole-graph", "partial_min_fraction": 0.9}
    p.write_text('[[options]]\nid = "all-cpu"\nwhen = {}\npolicy = "fallback"\nreason = "always the CPU"\n')
    r = engine.load_rules(p)
    assert [row["id"] for row in r["options"]] == ["all-cpu"]
    d = engine.decide_context({"powerPreference": "high-performance"}, load_profile("dual-gpu"), r)
    assert d.device.id == "cpu" and d.policy == "fallback"


@pytest.mark.parametrize(
    "text",
    [
        '[[options]]\nid = "x"\nwhen = { colour = "red" }\npolicy = "default"\n',
        '[[options]]\nid = "x"\nwhen = {}\npolicy = "turbo"\n',
        '[[options]]\nid = "x"\nwhen = { deviceType = "tpu" }\npolicy = "default"\n',
        '[[options]]\nid = "x"\nwhen = {}\npolicy = "default"\nstrict = "nope"\n',
    ],
)
def test_invalid_rules_are_rejected(tmp_path, text):
    p = tmp_path / "bad.toml"
    p.write_text(text)
    with pytest.raises(ValueError):
        engine.load_rules(p)


def test_rank_devices_keeps_its_old_shape(rules, inventories):
    norm = engine.normalize({"powerPreference": "low-power"}, rules)
    ordered, reasons = engine.rank_devices(norm, inventories["dual-gpu"], rules)
    assert [d.id for d in ordered] == ["dml:igpu", "dml:dgpu", "cpu"]
    assert reasons


# --------------------------------------------------------------------------- inventory


def test_old_profiles_load_as_supporting_everything(tmp_path):
    p = tmp_path / "old.json"
    p.write_text(json.dumps({"devices": [{"id": "g", "kind": "gpu", "name": "Some GPU"}, {"id": "c", "kind": "cpu"}]}))
    devices = load_profile(p)
    assert [(d.id, d.kind, d.backend, d.name) for d in devices] == [("g", "gpu", "simulated", "Some GPU"),
                                                                     ("c", "cpu", "simulated", "c")]
    caps = capabilities_of(devices[0])
    assert len(caps.ops) == 95 and caps.max_rank == 8
    assert io_types(caps) == ("float32", "float16", "int32", "uint32", "int64", "uint64", "int8", "uint8", "int4", "uint4")


def test_fixture_npus_are_narrower(inventories):
    ane = next(d for d in inventories["apple-silicon"] if d.id == "coreml:ane")
    npu = next(d for d in inventories["intel-laptop-npu"] if d.id == "openvino:npu")
    for dev, n_ops in ((ane, 45), (npu, 77)):
        caps = capabilities_of(dev)
        assert isinstance(dev, DeclaredDevice) and dev.kind == "npu"
        assert caps.max_rank == 5 and len(caps.ops) == n_ops
        assert "int64" not in io_types(caps)
        assert "gru" not in caps.ops and "gather" not in caps.ops
    assert set(io_types(capabilities_of(ane))) == {"float32", "float16"}
    assert capabilities_of(npu).ops["conv2d"]["input"].types == ("float32", "float16")


@pytest.mark.parametrize(
    "spec",
    [{"colour": "red"}, {"ops": ["fly"]}, {"dataTypes": ["float8"]}, {"excludeOps": ["nope"]}, {"maxRank": -1},
     {"preferredInputLayout": "nwhc"}, {"opDataTypes": {"add": ["bfloat16"]}}],
)
def test_capability_spec_errors(spec):
    with pytest.raises(CapabilitySpecError):
        capabilities_from_spec(spec)


def test_profile_errors():
    with pytest.raises(ValueError, match="kind"):
        parse_profile({"devices": [{"id": "x", "kind": "tpu"}]})
    with pytest.raises(ValueError, match="unique"):
        parse_profile({"devices": [{"id": "x", "kind": "cpu"}, {"id": "x", "kind": "gpu"}]})
    with pytest.raises(ValueError, match="preset"):
        parse_profile({"devices": [{"id": "x", "kind": "npu", "capabilities": "missing"}]})
    with pytest.raises(ValueError, match="power"):
        parse_profile({"devices": [{"id": "x", "kind": "gpu", "power": "turbo"}]})


def test_op_data_types_narrow_one_op():
    caps = capabilities_from_spec({"opDataTypes": {"matmul": ["float16"]}})
    assert caps.ops["matmul"]["a"].types == ("float16",)
    assert "float32" in caps.ops["add"]["a"].types


# --------------------------------------------------------------------------- build placement

# (fixture, options, graph) -> (device, cpuFallback, fallback device)
PLACEMENTS = [
    ("cpu-only", {"powerPreference": "low-power"}, "tiny-cnn", ("cpu", "full", None)),
    ("cpu-only", {"computePolicy": "fallback"}, "tiny-cnn", ("cpu", "none", None)),
    ("nvidia-cuda-trt", {"powerPreference": "low-power"}, "tiny-cnn", ("ort-cuda", "none", None)),
    ("nvidia-cuda-trt", {"powerPreference": "high-performance"}, "embed-int64", ("trt", "none", None)),
    ("apple-silicon", {"powerPreference": "low-power"}, "tiny-cnn", ("coreml:ane", "none", None)),
    # the ANE lacks gather and the GPU lacks int64: partition ANE + CPU
    ("apple-silicon", {"powerPreference": "low-power"}, "embed-int64", ("coreml:ane", "partial", "cpu")),
    # the ANE lacks gru: the GPU runs the whole graph
    ("apple-silicon", {"powerPreference": "low-power"}, "gru-seq", ("coreml:gpu", "none", None)),
    # rank 6 is beyond both Core ML devices: CPU for everything
    ("apple-silicon", {"powerPreference": "low-power"}, "rank6-add", ("cpu", "full", None)),
    ("intel-laptop-npu", {"powerPreference": "low-power"}, "tiny-cnn", ("openvino:npu", "none", None)),
    ("intel-laptop-npu", {"powerPreference": "low-power"}, "embed-int64", ("openvino:gpu", "none", None)),
    ("intel-laptop-npu", {"powerPreference": "low-power"}, "rank6-add", ("openvino:gpu", "none", None)),
    # deviceType npu keeps the GPU out: partition NPU + CPU
    ("intel-laptop-npu", {"deviceType": "npu"}, "embed-int64", ("openvino:npu", "partial", "cpu")),
    ("intel-laptop-npu", {"deviceType": "npu"}, "gru-seq", ("openvino:npu", "partial", "cpu")),
    ("intel-laptop-npu", {"deviceType": "npu"}, "rank6-add", ("cpu", "full", None)),
    ("dual-gpu", {"powerPreference": "low-power"}, "tiny-cnn", ("dml:igpu", "none", None)),
    # the iGPU lacks int64: the dGPU takes the whole graph even for low-power
    ("dual-gpu", {"powerPreference": "low-power"}, "embed-int64", ("dml:dgpu", "none", None)),
    ("dual-gpu", {"deviceType": "gpu", "powerPreference": "low-power"}, "rank6-add", ("dml:dgpu", "none", None)),
    ("dual-gpu", {"accelerated": False}, "rank6-add", ("cpu", "none", None)),
]


@pytest.mark.parametrize("fixture,options,graph,expected", PLACEMENTS)
def test_build_placement(fixture, options, graph, expected, rules, inventories):
    inv = inventories[fixture]
    decision = engine.decide_context(options, inv, rules)
    p = engine.decide_build(decision, load_graph(GRAPHS / f"{graph}.json"), inv, rules)
    assert (p.device.id, p.fallback, p.fallback_device.id if p.fallback_device else None) == expected
    assert p.reasons and all(p.reasons)
    assert p.simulated is True
    assert all(why for _, why in p.rejected)
    used = {p.device.id, p.fallback_device.id if p.fallback_device else None}
    assert {i for i, _ in p.rejected} == {d.id for d in decision.candidates} - used
    if p.fallback == "partial":
        assert set(p.assignment) == used and len(p.partitions()) >= 2
    else:
        assert set(p.assignment) <= {p.device.id}


def test_partition_assignment_follows_the_unsupported_nodes(rules, inventories):
    inv = inventories["intel-laptop-npu"]
    d = engine.decide_context({"deviceType": "npu"}, inv, rules)
    p = engine.decide_build(d, load_graph(GRAPHS / "embed-int64.json"), inv, rules)
    assert p.assignment == ["cpu"] + ["openvino:npu"] * 6
    assert p.partitions() == [("cpu", [0]), ("openvino:npu", [1, 2, 3, 4, 5, 6])]
    assert any("gather" in r for r in p.reasons)


def test_build_rules_change_the_placement(tmp_path, inventories):
    inv = inventories["intel-laptop-npu"]
    graph = load_graph(GRAPHS / "embed-int64.json")
    p = tmp_path / "r.toml"
    p.write_text('[build]\nprefer = "preferred-device"\n')
    r = engine.load_rules(p)
    pl = engine.decide_build(engine.decide_context({"powerPreference": "low-power"}, inv, r), graph, inv, r)
    assert (pl.device.id, pl.fallback) == ("openvino:npu", "partial")
    p.write_text("[build]\npartial_min_fraction = 0.9\n")  # 6 of 7 nodes is not enough
    r = engine.load_rules(p)
    pl = engine.decide_build(engine.decide_context({"deviceType": "npu"}, inv, r), graph, inv, r)
    assert (pl.device.id, pl.fallback) == ("cpu", "full")
    assert any("< 90%" in why for _, why in pl.rejected)


def test_strict_build_fails_with_not_supported(strict_rules, inventories):
    inv = inventories["intel-laptop-npu"]
    d = engine.decide_context({"deviceType": "npu"}, inv, strict_rules)
    assert d.strict and [c.id for c in d.candidates] == ["openvino:npu"]
    ok = engine.decide_build(d, load_graph(GRAPHS / "tiny-cnn.json"), inv, strict_rules)
    assert (ok.device.id, ok.fallback) == ("openvino:npu", "none")
    with pytest.raises(NotSupportedError) as e:
        engine.decide_build(d, load_graph(GRAPHS / "gru-seq.json"), inv, strict_rules)
    assert e.value.name == "NotSupportedError"
    assert "openvino" not in str(e.value)  # the page-visible message names no device
    assert any("gru" in r for r in e.value.reasons)
    # high-performance strict on the dual-GPU laptop: the dGPU runs the rank-6 graph
    dual = inventories["dual-gpu"]
    d = engine.decide_context({"powerPreference": "high-performance"}, dual, strict_rules)
    assert engine.decide_build(d, load_graph(GRAPHS / "rank6-add.json"), dual, strict_rules).device.id == "dml:dgpu"


def test_decide_build_from_a_graph_ir(rules):
    """The host's path: MLGraphBuilder -> GraphIR -> decide_build, on a simulated inventory."""
    from webnn_bridge.bridge.api import ML, MLGraphBuilder

    ml = ML(load_profile("intel-laptop-npu"), rules=rules, simulated=True)
    ctx = ml.createContext({"deviceType": "npu"})
    assert ctx.decision.device.id == "openvino:npu" and not is_simulated(ctx.exec_device)
    b = MLGraphBuilder(ctx)
    table = b.constant({"dataType": "float32", "shape": [10, 4]}, bytes(160))
    ids = b.input("ids", {"dataType": "int64", "shape": [3]})
    y = b.relu(b.add(b.gather(table, ids), b.constant({"dataType": "float32", "shape": [4]}, bytes(16))))
    graph = b.build({"y": y})
    p = graph.placement
    assert (p.device.id, p.fallback, p.assignment) == ("openvino:npu", "partial", ["cpu", "openvino:npu", "openvino:npu"])


def test_probed_inventory_still_works(rules):
    from webnn_bridge.policy.inventory import probe_inventory

    inv = probe_inventory()
    d = engine.decide_context({}, inv, rules)
    assert d.device is not None and d.device.kind == "cpu" and d.exec_device is d.device and not d.simulated
    p = engine.decide_build(d, load_graph(GRAPHS / "tiny-cnn.json"), inv, rules)
    assert (p.device.kind, p.fallback) == ("cpu", "full")
    assert engine.decide_context({"deviceType": "npu"}, inv, rules).device.kind == "cpu"
