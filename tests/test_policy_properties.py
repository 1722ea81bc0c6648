"""Property tests for the policy engine and the privacy layer (hypothesis)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from webnn_bridge.backends.capabilities import capabilities_from_spec
from webnn_bridge.policy import engine, privacy
from webnn_bridge.policy.graphs import load_graph
from webnn_bridge.policy.inventory import FIXTURES_DIR, parse_profile

RULES = engine.load_rules()
GRAPHS = [load_graph(p) for p in sorted((FIXTURES_DIR / "graphs").glob("*.json"))]
PROFILE_NAMES = {p.name for p in privacy.canonical_profiles(RULES)}
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

TYPES = ["float32", "float16", "int32", "uint32", "int64", "uint64", "int8", "uint8"]
SOME_OPS = ["gather", "gru", "conv2d", "matmul", "softmax", "add", "relu", "reshape", "gemm", "averagePool2d"]


def cap_specs():
    return st.one_of(
        st.none(),
        st.fixed_dictionaries(
            {},
            optional={
                "dataTypes": st.lists(st.sampled_from(TYPES), min_size=1, max_size=8, unique=True),
                "excludeOps": st.lists(st.sampled_from(SOME_OPS), max_size=4, unique=True),
                "maxRank": st.integers(0, 8),
                "maxTensorByteLength": st.sampled_from([2**20, 2**28, 2**31 - 1]),
            },
        ),
    )


@st.composite
def device_entries(draw):
    n = draw(st.integers(1, 5))
    ids = draw(st.lists(st.text("abcdefgh:0123", min_size=1, max_size=6), min_size=n, max_size=n, unique=True))
    out = []
    for i in ids:
        e = {
            "id": i,
            "kind": draw(st.sampled_from(["cpu", "gpu", "npu"])),
            "backend": draw(st.sampled_from(["onnxruntime", "tensorrt", "coreml", "openvino", "other"])),
            "power": draw(st.sampled_from(["high-performance", "low-power", "unspecified"])),
            "perf": {"throughput": draw(st.sampled_from([0.5, 1.0, 3.0, 20.0]))},
        }
        spec = draw(cap_specs())
        if spec is not None:
            e["capabilities"] = spec
        out.append(e)
    return out


def options():
    return st.fixed_dictionaries(
        {},
        optional={
            "powerPreference": st.sampled_from(["default", "high-performance", "low-power"]),
            "accelerated": st.booleans(),
            "computePolicy": st.sampled_from(["default", "high-performance", "low-power", "fallback"]),
            "deviceType": st.sampled_from(["cpu", "gpu", "npu"]),
        },
    )


def _is_fallback(opts) -> bool:
    cp = opts.get("computePolicy")
    return cp == "fallback" or (cp is None and opts.get("accelerated") is False)


@SETTINGS
@given(entries=device_entries(), opts=options(), g=st.sampled_from(GRAPHS), seed=st.randoms())
def test_choice_is_in_inventory_and_permutation_invariant(entries, opts, g, seed):
    inv = parse_profile({"devices": entries})
    d = engine.decide_context(opts, inv, RULES)
    ids = [x.id for x in inv]
    kinds = engine.normalize(opts, RULES).kinds
    if d.device is None:
        assert not any(x.kind in kinds for x in inv)
    else:
        assert d.device.id in ids and d.device.kind in kinds
        assert all(c.id in ids for c in d.candidates)
    # every inventory device is a candidate or rejected with a reason, exactly once
    rejected = [i for i, _ in d.rejected]
    assert sorted([c.id for c in d.candidates] + rejected) == sorted(ids)
    assert all(isinstance(why, str) and why for _, why in d.rejected)

    shuffled = list(inv)
    seed.shuffle(shuffled)
    d2 = engine.decide_context(opts, shuffled, RULES)
    assert (d2.device.id if d2.device else None) == (d.device.id if d.device else None)
    assert [c.id for c in d2.candidates] == [c.id for c in d.candidates]
    if d.device is not None:
        p = engine.decide_build(d, g, inv, RULES)
        p2 = engine.decide_build(d2, g, shuffled, RULES)
        assert (p.device.id, p.fallback, p.assignment) == (p2.device.id, p2.fallback, p2.assignment)
        assert p.device.id in ids
        assert all(isinstance(why, str) and why for _, why in p.rejected)
        used = {p.device.id, p.fallback_device.id if p.fallback_device else None}
        assert {i for i, _ in p.rejected} == {c.id for c in d.candidates} - used
        assert p.fallback in ("none", "partial", "full")


@SETTINGS
@given(entries=device_entries(), opts=options(), g=st.sampled_from(GRAPHS))
def test_fallback_never_picks_an_accelerator(entries, opts, g):
    inv = parse_profile({"devices": entries})
    d = engine.decide_context(opts, inv, RULES)
    if not _is_fallback(opts):
        return
    assert d.policy == "fallback"
    assert all(c.kind == "cpu" for c in d.candidates)
    if d.device is None:
        assert not any(x.kind == "cpu" for x in inv)
        return
    p = engine.decide_build(d, g, inv, RULES)
    assert p.device.kind == "cpu" and p.fallback == "none"
    kinds = {x.id: x.kind for x in inv}
    assert all(kinds[a] == "cpu" for a in p.assignment)
    assert privacy.effective_report(p, RULES)["accelerated"] is False


def _dict_subset(reported: dict, true: dict) -> bool:
    if reported["maxTensorByteLength"] > true["maxTensorByteLength"]:
        return False
    for key, value in reported.items():
        if key in ("preferredInputLayout", "maxTensorByteLength"):
            continue
        if key not in true:
            return False
        pairs = [(value, true[key])] if key in ("input", "constant", "output") else [
            (lim, true[key].get(name)) for name, lim in value.items()]
        for lim, t in pairs:
            if t is None or not set(lim["dataTypes"]) <= set(t["dataTypes"]):
                return False
            lo, hi = lim["rankRange"]["min"], lim["rankRange"]["max"]
            if lo <= hi and (lo < t["rankRange"]["min"] or hi > t["rankRange"]["max"]):
                return False
    return True


@SETTINGS
@given(spec=cap_specs())
def test_bucketed_limits_are_canonical_and_a_subset(spec):
    caps = capabilities_from_spec(spec)
    name, limits = privacy.bucketed_support_limits(caps, RULES)
    assert name in PROFILE_NAMES
    true = privacy.support_limits(caps)
    # the input/constant/output entries of the true limits list every type: compare per op instead
    true_io_types = sorted({t for op, ent in true.items() if isinstance(ent, dict) and op not in
                            ("input", "constant", "output") for lim in ent.values() for t in lim["dataTypes"]})
    for k in ("input", "constant", "output"):
        true[k] = {"dataTypes": true_io_types, "rankRange": true[k]["rankRange"]}
    assert _dict_subset(limits, true)
    again = privacy.bucketed_support_limits(caps, RULES)
    assert again == (name, limits)


@SETTINGS
@given(a=st.floats(0, 50000, allow_nan=False), b=st.floats(0, 50000, allow_nan=False))
def test_latency_buckets_are_monotonic_and_never_exact(a, b):
    lo_a, hi_a = privacy.latency_bucket(a, RULES)
    lo_b, hi_b = privacy.latency_bucket(b, RULES)
    if a <= b:
        assert lo_a <= lo_b
    for ms, lo, hi in ((a, lo_a, hi_a), (b, lo_b, hi_b)):
        assert lo <= ms and (hi is None or ms < hi)
        if hi is not None:
            assert 0 < hi - lo <= 1000
        if ms != lo:  # not a bucket boundary: neither bound equals the input
            assert lo < ms and hi != ms
        label = privacy.bucket_latency(ms, RULES)
        assert label == (f">={lo:g} ms" if hi is None else f"{lo:g}-{hi:g} ms")


@SETTINGS
@given(ms=st.floats(0, 100, allow_nan=False, exclude_max=True))
def test_fine_buckets_are_10ms_wide_below_100ms(ms):
    lo, hi = privacy.latency_bucket(ms, RULES)
    assert hi - lo == 10 and lo % 10 == 0
