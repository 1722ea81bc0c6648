"""What a page may learn: bucketed opSupportLimits, QoS tiers, latency buckets, the effective report."""

from __future__ import annotations

import json

import pytest

from webnn_bridge.backends.capabilities import capability_size, is_subset
from webnn_bridge.policy import engine, privacy, qos
from webnn_bridge.policy.graphs import GraphSummary, NodeSummary, load_graph
from webnn_bridge.policy.inventory import FIXTURES_DIR, capabilities_of, load_profile

GRAPHS = FIXTURES_DIR / "graphs"
PROFILE_NAMES = ["cpu-full", "gpu-common", "spec-baseline", "npu-fp16", "none"]

# the bucket each fixture device's own capabilities fall into
DEVICE_BUCKETS = {
    ("cpu-only", "cpu"): "cpu-full",
    ("nvidia-cuda-trt", "ort-cuda"): "cpu-full",
    ("nvidia-cuda-trt", "trt"): "gpu-common",
    ("nvidia-cuda-trt", "cpu"): "cpu-full",
    ("apple-silicon", "coreml:gpu"): "gpu-common",
    ("apple-silicon", "coreml:ane"): "npu-fp16",
    ("apple-silicon", "cpu"): "cpu-full",
    ("intel-laptop-npu", "openvino:gpu"): "gpu-common",
    ("intel-laptop-npu", "openvino:npu"): "npu-fp16",
    ("intel-laptop-npu", "cpu"): "cpu-full",
    ("dual-gpu", "dml:igpu"): "gpu-common",
    ("dual-gpu", "dml:dgpu"): "cpu-full",
    ("dual-gpu", "cpu"): "cpu-full",
}


def dict_subset(reported: dict, true: dict) -> list[str]:
    """Independent check that an MLOpSupportLimits dict promises nothing ``true`` lacks."""
    problems = []
    if reported["maxTensorByteLength"] > true["maxTensorByteLength"]:
        problems.append("maxTensorByteLength")
    for key, value in reported.items():
        if key in ("preferredInputLayout", "maxTensorByteLength"):
            continue
        if key not in true:
            problems.append(f"{key} missing")
            continue
        entries = {"": value} if key in ("input", "constant", "output") else value
        other = {"": true[key]} if key in ("input", "constant", "output") else true[key]
        for name, lim in entries.items():
            t = other.get(name)
            if t is None:
                problems.append(f"{key}.{name} missing")
                continue
            if not set(lim["dataTypes"]) <= set(t["dataTypes"]):
                problems.append(f"{key}.{name} types")
            lo, hi = lim["rankRange"]["min"], lim["rankRange"]["max"]
            if lo <= hi and (lo < t["rankRange"]["min"] or hi > t["rankRange"]["max"]):
                problems.append(f"{key}.{name} ranks")
    return problems


@pytest.fixture(scope="module")
def rules():
    return engine.load_rules()


def test_canonical_profiles_are_ordered_largest_first(rules):
    profiles = privacy.canonical_profiles(rules)
    assert [p.name for p in profiles] == PROFILE_NAMES
    sizes = [capability_size(p.caps) for p in profiles]
    assert sizes == sorted(sizes, reverse=True) and sizes[-1] == 0
    for p in profiles:
        n = p.caps.max_tensor_byte_length
        assert n == 0 or n & (n - 1) == 0 or (n + 1) & n == 0  # 2^k or 2^k - 1: a round constant


@pytest.mark.parametrize("fixture,device", sorted(DEVICE_BUCKETS))
def test_device_buckets(fixture, device, rules):
    dev = next(d for d in load_profile(fixture) if d.id == device)
    caps = capabilities_of(dev)
    name, limits = privacy.bucketed_support_limits(caps, rules)
    assert name == DEVICE_BUCKETS[(fixture, device)]
    assert dict_subset(limits, privacy.support_limits(caps)) == []
    assert is_subset(privacy.bucket_profile(caps, rules).caps, caps)
    blob = json.dumps(limits)
    assert dev.id not in blob and dev.name not in blob


def test_context_limits_include_the_cpu_fallback_unless_strict(rules, tmp_path):
    inv = load_profile("intel-laptop-npu")
    d = engine.decide_context({"deviceType": "npu"}, inv, rules)
    assert privacy.bucketed_support_limits(engine.context_capabilities(d, inv, rules), rules)[0] == "cpu-full"
    p = tmp_path / "strict.toml"
    p.write_text("[strict]\ndeviceType = true\n")
    strict = engine.load_rules(p)
    d = engine.decide_context({"deviceType": "npu"}, inv, strict)
    name, limits = privacy.bucketed_support_limits(engine.context_capabilities(d, inv, strict), strict)
    assert name == "npu-fp16"
    assert limits["input"]["dataTypes"] == ["float32", "float16"]
    assert "gru" not in limits and limits["conv2d"]["input"]["rankRange"] == {"min": 4, "max": 4}
    assert limits["maxTensorByteLength"] == 2**27
    p.write_text('[privacy]\nreport = "device"\n')
    dev_rules = engine.load_rules(p)
    d = engine.decide_context({"deviceType": "npu"}, inv, dev_rules)
    assert privacy.bucket_profile(engine.context_capabilities(d, inv, dev_rules), dev_rules).name == "npu-fp16"


def test_support_limits_unchanged_for_full_capabilities():
    from webnn_bridge.backends.reference import ReferenceBackend

    dev = ReferenceBackend.probe()[0]
    limits = privacy.support_limits(ReferenceBackend.instance().capabilities(dev))
    assert limits["input"]["dataTypes"] == ["float32", "float16", "int32", "uint32", "int64", "uint64", "int8", "uint8",
                                            "int4", "uint4"]
    assert limits["add"]["b"]["dataTypes"] == limits["add"]["a"]["dataTypes"]


# --------------------------------------------------------------------------- QoS

TIERS = [
    (0.0, "excellent"), (15.99, "excellent"), (16.0, "good"), (99.9, "good"), (100.0, "fair"), (999.0, "fair"),
    (1000.0, "moderate"), (9999.0, "moderate"), (10000.0, "slow"), (29999.0, "slow"), (30000.0, "very-slow"),
    (59999.0, "very-slow"), (60000.0, "poor"), (1e9, "poor"),
]


@pytest.mark.parametrize("ms,tier", TIERS)
def test_qos_tier_boundaries(ms, tier, rules):
    assert qos.qos_tier(ms, rules) == tier


def _matmul_graph(n: int) -> GraphSummary:
    shape = (n, n)
    return GraphSummary((NodeSummary("matmul", (("a", "float32", shape), ("b", "float32", shape)),
                                     (("output", "float32", shape),)),), name=f"matmul{n}")


def test_estimate_qos_depends_on_graph_and_device(rules):
    nv = {d.id: d for d in load_profile("nvidia-cuda-trt")}
    big = _matmul_graph(4096)  # 2 * 4096^3 = 137 GFLOP
    assert big.flops() == 2 * 4096**3
    # CPU: 100 GFLOP/s x 2.0 -> ~687 ms; CUDA: 2000 x 20 -> ~3.4 ms
    assert privacy.estimate_qos(big, nv["cpu"], rules) == "fair"
    assert privacy.estimate_qos(big, nv["ort-cuda"], rules) == "excellent"
    assert 600 < qos.estimate_latency_ms(big, nv["cpu"], rules) < 800
    assert privacy.estimate_qos(_matmul_graph(8192), nv["cpu"], rules) == "moderate"  # 1.1 TFLOP / 200 GFLOP/s: 5.5 s
    assert privacy.estimate_qos(_matmul_graph(16384), nv["cpu"], rules) == "very-slow"  # 8.8 TFLOP: 44 s
    assert privacy.estimate_qos(_matmul_graph(16384), nv["ort-cuda"], rules) == "fair"  # 40 TFLOP/s: 0.22 s
    assert privacy.estimate_qos(load_graph(GRAPHS / "tiny-cnn.json"), nv["cpu"], rules) == "excellent"


def test_estimate_with_a_partition_adds_boundary_costs(rules):
    inv = load_profile("intel-laptop-npu")
    graph = load_graph(GRAPHS / "embed-int64.json")
    d = engine.decide_context({"deviceType": "npu"}, inv, rules)
    p = engine.decide_build(d, graph, inv, rules)
    assert p.fallback == "partial"
    whole = qos.estimate_latency_ms(graph, p.device, rules)
    split = qos.estimate_latency_ms(graph, rules=rules, placement=p)
    assert split > whole - 1.0  # one boundary (0.2 ms) plus the CPU node
    assert qos.estimate_qos(graph, rules=rules, placement=p) in rules["qos"]["tiers"]


# --------------------------------------------------------------------------- latency buckets

BUCKETS = [
    (0.0, "0-10 ms"), (3.7, "0-10 ms"), (10.0, "10-20 ms"), (19.99, "10-20 ms"), (99.5, "90-100 ms"),
    (100.0, "100-120 ms"), (131.0, "120-140 ms"), (250.0, "200-300 ms"), (1234.5, "1000-1500 ms"),
    (7777.0, "7000-8000 ms"), (10000.0, ">=10000 ms"), (123456.0, ">=10000 ms"),
]


@pytest.mark.parametrize("ms,label", BUCKETS)
def test_bucket_latency_labels(ms, label, rules):
    assert privacy.bucket_latency(ms, rules) == label


@pytest.mark.parametrize("bad", [-1.0, float("nan")])
def test_bucket_latency_rejects_nonsense(bad, rules):
    with pytest.raises(ValueError):
        privacy.bucket_latency(bad, rules)


def test_latency_segments_are_validated(tmp_path):
    p = tmp_path / "r.toml"
    p.write_text("[latency]\nsegments = [[0, 10, 5], [20, 30, 5]]\ncap_ms = 30\n")
    with pytest.raises(ValueError):
        privacy.bucket_latency(5, engine.load_rules(p))


# --------------------------------------------------------------------------- effective report


def test_effective_report_is_coarse(rules):
    for fixture in ("intel-laptop-npu", "apple-silicon", "cpu-only"):
        inv = load_profile(fixture)
        for options in ({}, {"deviceType": "npu"}, {"computePolicy": "fallback"}):
            d = engine.decide_context(options, inv, rules)
            for g in ("tiny-cnn", "embed-int64", "rank6-add"):
                p = engine.decide_build(d, load_graph(GRAPHS / f"{g}.json"), inv, rules)
                rep = privacy.effective_report(p, rules)
                assert set(rep) == {"accelerated", "cpuFallback", "simulated"}
                assert rep["accelerated"] is (p.device.kind != "cpu")
                assert rep["cpuFallback"] == p.fallback in ("none", "partial", "full")
                assert rep["simulated"] is True
                blob = json.dumps(list(rep.values()))
                for dev in inv:
                    assert dev.id not in blob and dev.name not in blob
    assert privacy.effective_report(p, rules, simulated=False)["simulated"] is False


def test_inline_profiles_in_rules(tmp_path):
    p = tmp_path / "r.toml"
    p.write_text('[[privacy.profiles]]\nname = "f32-only"\ndataTypes = ["float32"]\nops = ["add"]\nmaxRank = 4\n'
                 'maxTensorByteLength = 1024\n\n[[privacy.profiles]]\nname = "empty"\nops = []\ndataTypes = []\n'
                 'maxRank = 0\nmaxTensorByteLength = 0\n')
    r = engine.load_rules(p)
    cpu = load_profile("cpu-only")[0]
    name, limits = privacy.bucketed_support_limits(capabilities_of(cpu), r)
    assert name == "f32-only" and limits["maxTensorByteLength"] == 1024
    assert set(limits) == {"preferredInputLayout", "maxTensorByteLength", "input", "constant", "output", "add"}


def test_profiles_must_use_round_byte_lengths(tmp_path):
    """A profile's maxTensorByteLength is a canonical constant, never an odd device figure."""
    p = tmp_path / "r.toml"
    p.write_text('[[privacy.profiles]]\nname = "odd"\nmaxTensorByteLength = 1000\n')
    with pytest.raises(ValueError, match="2\\^k"):
        privacy.canonical_profiles(engine.load_rules(p))


def test_graph_devices_are_kinds_only(rules):
    """MLGraph.devices (extension): the placement's device kinds, main device first, CPU added for
    a partial fallback, never an identity."""
    seen = set()
    for fixture in ("intel-laptop-npu", "apple-silicon", "cpu-only", "dual-gpu"):
        inv = load_profile(fixture)
        for options in ({}, {"deviceType": "npu"}, {"deviceType": "gpu"}, {"computePolicy": "fallback"}):
            d = engine.decide_context(options, inv, rules)
            for g in ("tiny-cnn", "embed-int64", "rank6-add"):
                p = engine.decide_build(d, load_graph(GRAPHS / f"{g}.json"), inv, rules)
                devices = privacy.graph_devices(p)
                assert devices[0] == p.device.kind
                assert devices == list(dict.fromkeys(devices))
                assert set(devices) <= {"cpu", "gpu", "npu"}
                assert ("cpu" in devices) is (p.device.kind == "cpu" or p.fallback == "partial")
                seen.add(tuple(devices))
    assert ("cpu",) in seen and len(seen) > 1
