"""Device selection as a page sees it (issue 4): honest answers on this machine's real inventory,
simulated profiles, the namespaced WebNNBridge extensions, replay of the suite's own trace,
and a scan of every message any e2e host sent to a page.

The replay and the frame scan are marked after_all (e2e/conftest.py runs them after every other test
of the session, so they cover the whole suite's traffic) and make representative traffic of their own
first (pages on the session host, the hostile frames of e2e/test_attacks_and_hangs.py), so they hold in any order
and when run alone.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from webnn_bridge.bridge import protocol
from webnn_bridge.bridge.host_ml import ml_factory
from webnn_bridge.policy.inventory import load_profile, probe_inventory
from webnn_bridge.workbench import cli as policy_cli
from webnn_bridge.workbench.trace import read_trace

from .conftest import FRAMES, ROOT, start_host
from .test_attacks_and_hangs import ATTACK, HOSTILE_FRAMES

FIXTURES = ROOT / "src" / "webnn_bridge" / "policy" / "fixtures"
TIERS = {"excellent", "good", "fair", "moderate", "slow", "very-slow", "poor"}
LATENCY_BUCKET = re.compile(r"^(\d+-\d+ ms|>=\d+ ms)$")

# Builds relu(add(x, x)) (or, with `gather`, an int64-indexed gather first), runs it once through
# MLTensors and returns everything the page can learn about where it ran.
RUN = """async ([opts, gather]) => {
  const ctx = await navigator.ml.createContext(opts);
  const b = new MLGraphBuilder(ctx);
  let x = b.input('x', {dataType: 'float32', shape: [2, 2]});
  if (gather) {
    const idx = b.constant({dataType: 'int64', shape: [2]}, new BigInt64Array([1n, 0n]));
    x = b.gather(x, idx, {axis: 0});
  }
  const g = await b.build({y: b.relu(b.add(x, x))});
  const tin = await ctx.createTensor({dataType: 'float32', shape: [2, 2], writable: true});
  const tout = await ctx.createTensor({dataType: 'float32', shape: [2, 2], readable: true});
  ctx.writeTensor(tin, new Float32Array([1, -2, 3, -4]));
  ctx.dispatch(g, {x: tin}, {y: tout});
  const out = Array.from(new Float32Array(await ctx.readTensor(tout)));
  const limits = ctx.opSupportLimits();
  return {
    accelerated: ctx.accelerated, effective: WebNNBridge.effectivePolicy(g), qos: WebNNBridge.estimateQoS(g),
    latency: await WebNNBridge.latency(g), out, limits,
  };
}"""


def run(page, url: str, options: dict, gather: bool = False) -> dict:
    page.goto(f"{url}/basic.html")
    return page.evaluate(RUN, [options, gather])


def assert_coarse(r: dict) -> None:
    assert r["qos"] in TIERS
    assert LATENCY_BUCKET.match(r["latency"]), r["latency"]
    assert set(r["effective"]) == {"accelerated", "cpuFallback", "simulated"}


# ------------------------------------------------------------------ this machine, for real

# (options, context.accelerated (the spec echoes the hint), effective cpuFallback)
REAL_CASES = [
    ({}, True, "full"),
    ({"powerPreference": "high-performance"}, True, "full"),
    ({"powerPreference": "low-power"}, True, "full"),
    ({"accelerated": False}, False, "none"),
    ({"accelerated": False, "powerPreference": "high-performance"}, False, "none"),
    ({"computePolicy": "fallback"}, True, "none"),
    ({"deviceType": "cpu"}, True, "none"),
    ({"deviceType": "gpu"}, True, "full"),
]


def test_cpu_only_machine_answers_honestly(host, page):
    """Here ONNX Runtime has only its CPU provider: no page is told it got an accelerator, and
    only pages that hoped for one are told their graph fell back to the CPU."""
    if any(d.kind != "cpu" for d in probe_inventory()):
        pytest.fail("this test describes a CPU-only machine; the probed inventory has an accelerator")
    for options, accelerated, fallback in REAL_CASES:
        r = run(page, host.url, options)
        assert r["out"] == [2, 0, 6, 0], options
        assert r["accelerated"] is accelerated, options
        assert r["effective"] == {"accelerated": False, "cpuFallback": fallback, "simulated": False}, options
        assert_coarse(r)
        # the limits are a canonical profile: the full CPU one here
        assert r["limits"]["maxTensorByteLength"] == 2**31 - 1
        assert r["limits"]["input"]["rankRange"]["max"] == 8


# ------------------------------------------------------------------ simulated inventories


@pytest.fixture(scope="module")
def simulated_hosts(app_dir):
    hosts = {name: start_host(app_dir=app_dir, ml_factory=ml_factory(str(FIXTURES / f"{name}.json"), None))
             for name in ("nvidia-cuda-trt", "intel-laptop-npu")}
    yield hosts
    for h in hosts.values():
        h.stop()


# (fixture, options, uses gather (int64 indices), effective report)
SIMULATED_CASES = [
    ("nvidia-cuda-trt", {}, False, {"accelerated": True, "cpuFallback": "none"}),
    ("nvidia-cuda-trt", {"powerPreference": "low-power"}, False, {"accelerated": True, "cpuFallback": "none"}),
    ("nvidia-cuda-trt", {"computePolicy": "fallback"}, False, {"accelerated": False, "cpuFallback": "none"}),
    ("nvidia-cuda-trt", {"accelerated": False}, False, {"accelerated": False, "cpuFallback": "none"}),
    ("intel-laptop-npu", {"powerPreference": "low-power"}, False, {"accelerated": True, "cpuFallback": "none"}),
    # low-power ranks the NPU first, but it has no gather: the iGPU runs the whole graph
    ("intel-laptop-npu", {"powerPreference": "low-power"}, True, {"accelerated": True, "cpuFallback": "none"}),
    # deviceType 'npu' allows only the NPU and the CPU: partitioned, CPU after the NPU
    ("intel-laptop-npu", {"deviceType": "npu"}, True, {"accelerated": True, "cpuFallback": "partial"}),
    ("intel-laptop-npu", {"deviceType": "cpu"}, True, {"accelerated": False, "cpuFallback": "none"}),
]


# the host's device choice for each option set: the page only carries the options (CI time: Chromium)
@pytest.mark.webnn_engines("chromium")
@pytest.mark.parametrize("fixture,options,gather,effective", SIMULATED_CASES)
def test_simulated_profile_in_chromium(simulated_hosts, page, fixture, options, gather, effective):
    r = run(page, simulated_hosts[fixture].url, options, gather)
    # execution really happens (on the host CPU), whatever device was chosen
    assert r["out"] == ([6, 0, 2, 0] if gather else [2, 0, 6, 0])
    assert r["effective"] == {**effective, "simulated": True}
    assert_coarse(r)


def _strict_host(app_dir, tmp_path, fixture: str, switch: str):
    rules = tmp_path / f"strict-{switch}.toml"
    rules.write_text(f"[strict]\n{switch} = true\n")
    return start_host(app_dir=app_dir, ml_factory=ml_factory(str(FIXTURES / f"{fixture}.json"), str(rules)))


def test_strict_request_without_accelerator_is_rejected(app_dir, page, tmp_path):
    h = _strict_host(app_dir, tmp_path, "cpu-only", "high-performance")
    try:
        page.goto(f"{h.url}/basic.html")
        r = page.evaluate("""async () => {
          try { await navigator.ml.createContext({powerPreference: 'high-performance'}); return 'created'; }
          catch (e) { return e.name + ': ' + e.message; }
        }""")
        ok = page.evaluate("async () => (await navigator.ml.createContext({})).accelerated")
    finally:
        h.stop()
    assert r.startswith("NotSupportedError"), r
    assert "cpu" not in r.lower().split(":", 1)[1] or "device" in r.lower()  # a reason, no identity
    assert ok is True  # a non-strict request on the same host still gets a context


def test_strict_device_reports_and_enforces_its_own_bucket(app_dir, page, tmp_path):
    """A strict deviceType 'npu' context may not fall back, so its limits are the NPU's bucket
    (no int64 here) and using int64 fails at the builder call with the spec's TypeError."""
    h = _strict_host(app_dir, tmp_path, "intel-laptop-npu", "deviceType")
    try:
        page.goto(f"{h.url}/basic.html")
        r = page.evaluate("""async () => {
          const ctx = await navigator.ml.createContext({deviceType: 'npu'});
          const b = new MLGraphBuilder(ctx);
          let err = null;
          try { b.constant({dataType: 'int64', shape: [2]}, new BigInt64Array([1n, 0n])); }
          catch (e) { err = e.name; }
          return {types: ctx.opSupportLimits().input.dataTypes, err, gather: 'gather' in ctx.opSupportLimits()};
        }""")
    finally:
        h.stop()
    assert "int64" not in r["types"] and "float16" in r["types"]
    assert r["err"] == "TypeError"
    assert r["gather"] is False


# ------------------------------------------------------------------ tuning on the suite's own trace


@pytest.mark.after_all
@pytest.mark.webnn_engines("chromium")
def test_replay_of_the_e2e_trace(host, page, trace_path, tmp_path, capsys):
    assert run(page, host.url, {})["out"] == [2, 0, 6, 0]  # a context, a build and a dispatch of its own
    events = read_trace(trace_path)
    kinds = {e["event"] for e in events}
    assert {"context", "build", "dispatch"} <= kinds, kinds
    assert all(isinstance(e["latencyMs"], dict) for e in events if e["event"] == "dispatch")
    low_power = tmp_path / "low-power-first.toml"
    low_power.write_text('[policy.default]\norder = ["npu", "gpu", "cpu"]\n')
    out = tmp_path / "replay"
    rc = policy_cli.main(["replay", str(trace_path), "--rules", str(low_power), "--out", str(out),
                          "--devices", str(FIXTURES / "intel-laptop-npu.json")])
    assert rc == 0
    table = capsys.readouterr().out
    assert "npu" in table and "gpu" in table
    png = out / "replay.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# ------------------------------------------------------------------ the frame scan

GENERIC_IDS = {"cpu", "gpu", "npu"}
FORBIDDEN = [
    re.compile(p, re.I) for p in (
        r"nvidia", r"cuda", r"tensorrt", r"geforce", r"\brtx\b", r"intel", r"openvino", r"apple", r"core ?ml",
        r"neural engine", r"\bamd\b", r"radeon", r"qualcomm", r"directml", r"executionprovider",
        r"onnxruntime", r"reference:cpu", r"driver", r"vram", r"memory",
        r"\b\d+(\.\d+)?\s*(kb|kib|mb|mib|gb|gib)\b",  # memory sizes
        r"\d+\.\d+\s*ms", r"latencyms", r"\"ms\"",  # exact timings
    )
]


# FORBIDDEN's plain words, found by `in` in the lowercased text (the JSON is ASCII, so this is what
# re.I finds); the scan reads every frame of the suite, and a context's reply alone is 60 KB
_WORDS = [p.pattern for p in FORBIDDEN if re.fullmatch(r"[a-z:]+( [a-z]+)*", p.pattern)]
_PATTERNS = [p for p in FORBIDDEN if p.pattern not in _WORDS]
# what the other patterns cannot match without (lowercased): searched for first, which is cheap
_NEEDS = {r"\brtx\b": "rtx", r"core ?ml": "ml", r"\bamd\b": "amd", r"\d+\.\d+\s*ms": "ms", r"\"ms\"": '"ms"'}


def _forbidden(text: str) -> list[str]:
    """The FORBIDDEN patterns ``text`` matches."""
    lowered = text.lower()
    return [w for w in _WORDS if w in lowered] + [
        p.pattern for p in _PATTERNS if _NEEDS.get(p.pattern, "") in lowered and p.search(text)]


def _identities() -> list[str]:
    names = set()
    for d in probe_inventory():
        names |= {d.id, d.name}
    for f in FIXTURES.glob("*.json"):
        for d in load_profile(f):
            names |= {d.id, d.name}
    return sorted(n for n in names if n and n.lower() not in GENERIC_IDS)


def _alone(identity: str) -> re.Pattern:
    """An identity where it stands alone, not inside a longer run of letters and digits: a random
    session token ("...4trt4Oc...") is no device id."""
    return re.compile(rf"(?<![A-Za-z0-9]){re.escape(identity)}(?![A-Za-z0-9])")


# keys whose values are random tokens the host makes (Session.token: 24 URL-safe characters):
# scanned as a placeholder, since a word such as "vram" turns up inside one now and then
RANDOM_KEYS = {"session", "token"}


def _no_tokens(v):
    if isinstance(v, dict):
        return {k: "<token>" if k in RANDOM_KEYS and isinstance(x, str) else _no_tokens(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_no_tokens(x) for x in v]
    return v


def _text(frame: str | bytes) -> str:
    """The headers of every message a frame carries (a batch frame's messages each), as JSON, random
    tokens left out: tensor bytes are the page's own data, the headers carry the facts."""
    if isinstance(frame, bytes) and frame[:1] == b"{":
        return json.dumps(_no_tokens(json.loads(frame)))
    headers = []
    for message in protocol.unbatch(frame):
        header, _payload = protocol.decode(message)
        headers.append(json.dumps(_no_tokens(header)))
    return "\n".join(headers)


@pytest.mark.after_all
@pytest.mark.webnn_engines("chromium")
def test_no_frame_reveals_identity_or_exact_timing(host, page):
    # traffic of its own, so the scan never depends on which tests ran before it: the real cases
    # (contexts, builds, dispatches, limits, latency, QoS) and the host's error paths
    for options, _accelerated, _fallback in REAL_CASES:
        run(page, host.url, options)
    attack = page.evaluate(ATTACK, HOSTILE_FRAMES)
    assert attack["open"]
    assert len(FRAMES) > 100, "the scan should see many frames"
    # each distinct frame once: the suite repeats many (frames are str, bytes or bytearray)
    texts = [_text(f) for f in dict.fromkeys(f if isinstance(f, (str, bytes)) else bytes(f) for f in FRAMES)]
    # error replies and warnings are scanned too (the hostile frames provoke many)
    assert sum('"error"' in t for t in texts) >= 5, "the scan should cover the host's error paths"
    ids = [(i, _alone(i)) for i in _identities()]
    bad = []
    for text in texts:
        hits = _forbidden(text) + [i for i, p in ids if i in text and p.search(text)]
        if hits:
            bad.append((hits, text[:300]))
    assert not bad, f"{len(bad)} distinct frame(s) leak facts, e.g. {bad[:3]}"


def test_scan_catches_a_leak():
    """The scan itself must be able to fail, and its fast path finds what the patterns find."""
    leaky = json.dumps({"t": "reply", "ok": {"device": "NVIDIA RTX 4090", "latencyMs": 12.73}})
    assert [p for p in FORBIDDEN if p.search(_text(leaky))]
    assert sorted(_forbidden(_text(leaky))) == sorted(p.pattern for p in FORBIDDEN if p.search(_text(leaky)))
    assert {"nvidia", "latencyms"} <= set(_forbidden(_text(leaky))) and _WORDS and _PATTERNS
    assert Path(__file__).exists()


def test_a_random_token_is_not_taken_for_a_leak():
    """A session token that happens to spell a forbidden word (CI met "FJZp-vrAM6Wo...") is no leak;
    the same word in any other field still is."""
    token = json.dumps({"t": "reply", "re": 1, "ok": {"session": "FJZp-vrAM6Wo2G7-1nr0v7Ox", "protocol": 1}})
    assert not _forbidden(_text(token)) and not _forbidden(_text(token.encode()))
    leaky = json.dumps({"t": "reply", "re": 1, "ok": {"session": "x", "device": "8 GB vram"}})
    assert {"vram"} <= set(_forbidden(_text(leaky)))


def test_identities_are_matched_where_they_stand_alone():
    """A device id in a reply is a leak; the same letters inside a random token are not."""
    assert "trt" in _identities()
    alone = _alone("trt")
    assert alone.search(_text(json.dumps({"t": "reply", "ok": {"device": "trt"}})))
    assert alone.search(_text(json.dumps({"t": "reply", "ok": {"backend": "trt:0"}})))
    assert not alone.search(_text(json.dumps({"t": "reply", "ok": {"session": "7IyLYzOe4trt4Oc0sr7bFdiM"}})))


def test_scan_reads_inside_batch_frames():
    """The host joins small replies into one batch frame: a leak inside one is still found."""
    leaky = json.dumps({"t": "reply", "re": 2, "ok": {"device": "NVIDIA RTX 4090"}})
    frames = protocol.coalesce([json.dumps({"t": "reply", "re": 1, "ok": None}), leaky])
    assert len(frames) == 1 and protocol.decode(frames[0])[0]["t"] == "batch"
    text = _text(frames[0])
    assert '"re": 1' in text and [p for p in FORBIDDEN if p.search(text)]
    assert not [p for p in FORBIDDEN if p.search(_text(protocol.coalesce([json.dumps({"t": "reply", "re": 1})] * 2)[0]))]
