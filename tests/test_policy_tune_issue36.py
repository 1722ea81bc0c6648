"""Issue 36: paired statistics, honest predictions, a safety rule for graphs tune has not seen,
routes across device kinds, a readable tune.md, and bad inputs refused (one line, exit 2)."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.policy_routes import tuned as _tuned
from webnn_bridge.bridge import cli as bridge_cli
from webnn_bridge.policy import engine
from webnn_bridge.policy.graphs import load_graph, summarize
from webnn_bridge.policy.inventory import FIXTURES_DIR, parse_profile
from webnn_bridge.workbench import trace, tune

GRAPHS = FIXTURES_DIR / "graphs"
CPUS = {"devices": [{"id": "ort-cpu", "kind": "cpu", "backend": "onnxruntime"},
                    {"id": "ov-cpu", "kind": "cpu", "backend": "openvino"}]}
H100 = {"devices": [{"id": "torch:cuda:0", "kind": "gpu", "backend": "torch", "power": "high-performance"},
                    {"id": "ort-cpu", "kind": "cpu", "backend": "onnxruntime"}]}


def _rules(tmp_path, text: str, name: str = "r.toml") -> dict:
    f = tmp_path / name
    f.write_text(text)
    return engine.load_rules(f)


def _cell(p50: float, half: float = 0.04) -> dict:
    return {"p50": p50, "p90": p50 * 1.1, "n": 40, "ci95": [p50 * (1 - half), p50 * (1 + half)], "cpu_ms": p50}


def _node(op: str, inputs: dict, out: list) -> dict:
    return {"op": op, "inputs": {k: ["float32", v] for k, v in inputs.items()}, "outputs": [["float32", out]]}


def _graph(name: str, nodes: list, io: int, constants: int = 0) -> dict:
    return {"name": name, "nodes": nodes, "bytes": {"inputs": io // 2, "constants": constants, "outputs": io - io // 2}}


def _softmax() -> dict:
    return _graph("softmax", [_node("add", {"a": [1, 1000], "b": [1, 1000]}, [1, 1000]),
                              _node("softmax", {"input": [1, 1000]}, [1, 1000])], 8000)


def _mlp() -> dict:
    nodes = []
    for _ in range(3):
        nodes += [_node("matmul", {"a": [8, 1024], "b": [1024, 1024]}, [8, 1024]),
                  _node("add", {"a": [8, 1024], "b": [1024]}, [8, 1024]),
                  _node("relu", {"input": [8, 1024]}, [8, 1024])]
    return _graph("mlp", nodes, 65536, 3 * 4 * 1024 * 1025)


def _mobilenet() -> dict:
    nodes = [_node("conv2d", {"input": [1, 3, 224, 224], "filter": [32, 3, 3, 3]}, [1, 32, 112, 112])]
    for _ in range(33):
        nodes += [_node("conv2d", {"input": [1, 32, 112, 112], "filter": [32, 1, 3, 3]}, [1, 32, 112, 112]),
                  _node("clamp", {"input": [1, 32, 112, 112]}, [1, 32, 112, 112]),
                  _node("conv2d", {"input": [1, 32, 112, 112], "filter": [32, 32, 1, 1]}, [1, 32, 112, 112])]
    nodes.append(_node("reduceMean", {"input": [1, 32, 112, 112]}, [1, 32]))
    return _graph("mobilenet", nodes, 4 * (3 * 224 * 224 + 32), 3_400_000)


def _record(inv, rules, workloads: list[tuple[str, dict, dict, list[list[float]]]], *, t0: float | None = None,
            gap_s: float = 20.0, first: int = 0) -> list[dict]:
    """(page, options, graph, rounds of recorded latencies on the rules' placement) -> events, one
    context per workload and round (ids from ``first`` + 1), with "v" as the host writes it."""
    events, n = [], first
    for page, options, g, rounds in workloads:
        for r, latencies in enumerate(rounds):
            n += 1
            d = engine.decide_context(options, inv, rules)
            p = engine.decide_build(d, g, inv, rules)
            key = trace.placement_key(p)
            events += [trace.context_event(options, d, ctx=n),
                       trace.build_event(g, p, ctx=n, page=page, label=g["name"], gid=n, options=options)]
            t = None if t0 is None else t0 + r * gap_s
            events += [trace.dispatch_event(g, {key: ms}, ctx=n, gid=n, placement=key,
                                            t=None if t is None else t + k * 0.01) for k, ms in enumerate(latencies)]
    return [{"v": 1, **e} for e in events]


# --------------------------------------------------------------------------- 1. paired statistics


def test_rounds_split_by_context_idle_gap_and_other_graphs():
    h = "ab" * 32
    other = "cd" * 32
    evs = [trace.dispatch_event(h, {"d": 1.0}, ctx=1, placement="d"),
           trace.dispatch_event(h, {"d": 1.1}, ctx=1, placement="d", idle_ms=3.0),
           trace.dispatch_event(h, {"d": 2.0}, ctx=1, placement="d", idle_ms=trace.ROUND_GAP_MS),  # a pause
           trace.dispatch_event(other, {"d": 5.0}, ctx=1, placement="d"),  # another graph in between
           trace.dispatch_event(h, {"d": 3.0}, ctx=1, placement="d", idle_ms=1.0),
           trace.dispatch_event(h, {"d": 4.0}, ctx=2, placement="d")]  # another context
    rounds = trace.recorded_rounds(evs)[h]["d"]
    assert [r.samples for r in rounds] == [[1.0, 1.1], [2.0], [3.0], [4.0]]
    st_ = trace._recorded_stats(evs)[h]["d"]
    assert st_["rounds"] == 4 and st_["contexts"] == 2
    assert st_["ci95"][0] <= 1.05 and st_["ci95"][1] >= 4.0  # covers every round's own p50


def test_rounds_pair_by_time_else_in_trace_order():
    a = [trace.Round("a", 1, i, t, [10.0]) for i, t in enumerate((100.0, 200.0, 300.0))]
    b = [trace.Round("b", 2, 3 + i, t, [5.0]) for i, t in enumerate((305.0, 95.0, 190.0, 1000.0))]
    pairs = trace.pair_rounds(a, b)
    assert [(x.t, y.t) for x, y in pairs] == [(100.0, 95.0), (200.0, 190.0), (300.0, 305.0)]  # 1000 s: no pair
    untimed = [trace.Round("b", 2, 3 + i, None, [5.0]) for i in range(2)]
    assert [(x.seq, y.seq) for x, y in trace.pair_rounds(a, untimed)] == [(0, 3), (1, 4)]
    pr = trace.paired_ratio([(10.0, 5.0), (12.0, 6.0), (8.0, 4.0)])
    assert pr.ratio == pytest.approx(0.5) and pr.lo == pytest.approx(0.5) and pr.hi == pytest.approx(0.5)
    assert pr.faster == 3 and trace.paired_ratio([(1.0, 2.0)] * 2) is None  # too few pairs
    assert trace.paired_ratio([(10.0, 6.0), (10.0, 12.0), (10.0, 7.0), (10.0, 6.5)]) == trace.paired_ratio(
        [(10.0, 6.0), (10.0, 12.0), (10.0, 7.0), (10.0, 6.5)])  # deterministic: tune stays a pure function


def _mobilenet_rounds():
    """12 rounds on each CPU backend, interleaved (a host per rule set, seconds apart); the machine's
    speed drifts 2.5x from round to round, which every backend shares. OpenVINO is faster in 9 of
    the 12 rounds, median ratio 0.63 (the issue's MobileNetV2)."""
    speed = [1.0, 1.8, 0.8, 2.2, 1.1, 0.9, 1.6, 2.4, 1.0, 1.3, 0.95, 2.0]
    ratio = [0.63, 0.6, 0.63, 0.65, 1.1, 0.63, 0.58, 1.08, 0.63, 0.66, 1.12, 0.62]
    ort = [[12.0 * s] * 5 for s in speed]
    ov = [[12.0 * s * r] * 5 for s, r in zip(speed, ratio)]
    return ort, ov


def test_interleaved_rounds_are_pairs_and_route_the_graph_the_unpaired_gate_kept():
    inv = parse_profile(CPUS)
    rules = engine.load_rules()
    ov_rules = _rules_obj(rules, {"backends": {"cpu": ["openvino", "onnxruntime"]}})
    g = load_graph(GRAPHS / "tiny-cnn.json").to_dict() | {"name": "mobilenet"}
    ort, ov = _mobilenet_rounds()
    events = (_record(inv, rules, [("/mobilenet.html", {}, g, ort)], t0=1000.0)
              + _record(inv, ov_rules, [("/mobilenet.html", {}, g, ov)], t0=1003.0, first=100))
    matrix = {"version": 1, "devices": {"ort-cpu": {}, "ov-cpu": {}}, "graphs": {}}
    result = tune.tune(events, matrix, rules, inv)
    w = result["workloads"][0]
    cur, alt = result["baseline"].outcomes[0], next(c for c in result["candidates"]
                                                    if c.name == "openvino first (cpu)").outcomes[0]
    assert (cur.latency_source, alt.latency_source) == ("recorded", "recorded")
    # unpaired, the drift swamps it: the two pooled intervals overlap far beyond the gain
    assert tune._margin(alt, cur, "latency-p50") < 0
    pr = result["paired"](w, cur, alt)
    assert pr.n == 12 and pr.faster == 9 and pr.ratio < 0.8 and pr.hi < 1.0
    best = result["best"]
    assert best.outcomes[0].device == "ov-cpu", (best.name, result["note"])
    assert tune.significantly_better(best, result["baseline"], result["workloads"], "latency-p50", result["paired"])
    # the same rounds recorded two hours apart: not pairs, and unpaired the gain is inside the noise
    late = _record(inv, ov_rules, [("/mobilenet.html", {}, g, ov)], t0=9000.0, first=100)
    again = tune.tune(events[:len(events) // 2] + late, matrix, rules, inv)
    assert again["paired"](again["workloads"][0], cur, alt) is None
    assert again["best"] is again["baseline"]


def _rules_obj(base: dict, override: dict) -> dict:
    return engine._merge(dict(base), override)


# --------------------------------------------------------------------------- 3. honest predictions


@pytest.mark.parametrize("rounds", [1, 3])
def test_one_recorded_round_is_never_multiplied_through(rounds):
    inv = parse_profile(CPUS)
    rules = engine.load_rules()
    g = load_graph(GRAPHS / "tiny-cnn.json").to_dict() | {"name": "convnet"}
    # the recorded round(s) ran 1.6x slower than the browser matrix measured: the machine then, or noise
    events = _record(inv, rules, [("/c.html", {}, g, [[16.0] * 20] * rounds)])
    matrix = {"version": 1, "method": "browser", "devices": {"ort-cpu": {}, "ov-cpu": {}},
              "graphs": {summarize(g).hash: {"results": {"ort-cpu": _cell(10.0, 0.02), "ov-cpu": _cell(5.0, 0.02)}}}}
    ov_first = _rules_obj(rules, {"backends": {"cpu": ["openvino", "onnxruntime"]}})
    (row,) = trace.replay(events, rules, ov_first, inv, matrix=matrix)
    lo, hi = row.b.ci_ms
    if rounds == 1:
        assert (row.b.latency_source, row.b.latency_ms) == ("measured", 5.0) and "not anchored" in row.b.note
        assert lo <= 4.9 and hi >= 8.0  # the interval reaches the scaled figure (5 x 16/10)
    else:
        assert (row.b.latency_source, row.b.latency_ms) == ("anchored", pytest.approx(8.0)) and row.b.note is None
        assert lo < 8.0 < hi


def test_a_prediction_carries_the_recordings_spread():
    inv = parse_profile(CPUS)
    rules = engine.load_rules()
    g = load_graph(GRAPHS / "tiny-cnn.json").to_dict() | {"name": "convnet"}
    steady = _record(inv, rules, [("/c.html", {}, g, [[12.0] * 10, [12.2] * 10, [11.8] * 10])])
    noisy = _record(inv, rules, [("/c.html", {}, g, [[7.0] * 10, [12.0] * 10, [19.0] * 10])])
    matrix = {"version": 1, "method": "browser", "devices": {"ort-cpu": {}, "ov-cpu": {}},
              "graphs": {summarize(g).hash: {"results": {"ort-cpu": _cell(10.0, 0.02), "ov-cpu": _cell(5.0, 0.02)}}}}
    ov_first = _rules_obj(rules, {"backends": {"cpu": ["openvino", "onnxruntime"]}})
    widths = []
    for events in (steady, noisy):
        (row,) = trace.replay(events, rules, ov_first, inv, matrix=matrix)
        assert row.b.latency_source == "anchored"
        widths.append(row.b.ci_ms[1] - row.b.ci_ms[0])
    assert widths[1] > 5 * widths[0]


# --------------------------------------------------------------------------- 2. graphs tune did not see


def test_tune_never_makes_the_slowest_backend_the_default(tmp_path):
    """The issue's run: from one OpenVINO-first round, tune chose "torch first (cpu), routed", a
    hash route for every graph it had seen, and PyTorch CPU (3-100x slower on every workload) for
    every graph it had not."""
    inv = parse_profile({"devices": [*CPUS["devices"], {"id": "torch-cpu", "kind": "cpu", "backend": "torch"}]})
    ov_rules = _rules(tmp_path, '[backends]\ncpu = ["openvino", "onnxruntime", "torch"]\n', "ov.toml")
    graphs = [_softmax(), _mlp(), load_graph(GRAPHS / "tiny-cnn.json").to_dict() | {"name": "convnet"}]
    truth = {"softmax": (0.2, 0.3, 20.0), "mlp": (1.0, 0.9, 9.0), "convnet": (3.0, 5.0, 12.0)}  # ort, ov, torch
    events = _record(inv, ov_rules, [(f"/{g['name']}.html", {"accelerated": False}, g,
                                      [[truth[g["name"]][1]] * 10]) for g in graphs])
    matrix = {"version": 1, "devices": {"ort-cpu": {}, "ov-cpu": {}, "torch-cpu": {}}, "graphs": {
        summarize(g).hash: {"results": {d: _cell(v) for d, v in zip(("ort-cpu", "ov-cpu", "torch-cpu"),
                                                                    truth[g["name"]])}} for g in graphs}}
    result = tune.tune(events, matrix, ov_rules, inv, base_override={"backends": {"cpu": ["openvino", "onnxruntime",
                                                                                          "torch"]}})
    best = result["best"]
    torch_first = next(c for c in result["candidates"] if c.name == "torch first (cpu)")
    assert len(torch_first.unsafe) == 3  # slower on every workload: never a default
    assert not any(c.name.startswith("torch first") and c.name != "torch first (cpu)" for c in result["candidates"])
    assert engine.backend_order(best.rules, "cpu")[0] != "torch"
    # the gains are routed: the softmax and the convnet to ONNX Runtime, by a feature or a hash
    assert [o.device for o in best.outcomes] == ["ort-cpu", "ov-cpu", "ort-cpu"]
    # a graph tune never saw never goes to PyTorch
    unseen = load_graph(GRAPHS / "embed-int64.json")
    d = engine.decide_context({"accelerated": False}, inv, best.rules)
    assert engine.decide_build(d, unseen, inv, best.rules).device.id != "torch-cpu"


def test_a_new_default_that_is_no_worse_everywhere_is_written():
    inv = parse_profile(CPUS)
    rules = engine.load_rules()
    graphs = [_softmax(), _mlp()]
    events = _record(inv, rules, [(f"/{g['name']}.html", {}, g, [[2.0] * 10]) for g in graphs])
    matrix = {"version": 1, "devices": {"ort-cpu": {}, "ov-cpu": {}}, "graphs": {
        summarize(g).hash: {"results": {"ort-cpu": _cell(2.0), "ov-cpu": _cell(1.0)}} for g in graphs}}
    result = tune.tune(events, matrix, rules, inv)
    assert result["best"].name == "openvino first (cpu)" and not result["best"].unsafe


def _sized(s: int) -> dict:
    """A graph of "size" s: every feature a route may use (FLOPs, bytes, ...) grows with s."""
    return _graph(f"mm{s}", [_node("matmul", {"a": [s, s], "b": [s, s]}, [s, s]), _node("relu", {"input": [s, s]}, [s, s])],
                  8 * s * s, 4 * s * s)


SAFE = settings(max_examples=int(os.environ.get("POLICY_SAFETY_EXAMPLES", "25")), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SAFE
@given(data=st.data())
def test_tuned_rules_never_make_unseen_graphs_slower(data):
    """Property: latencies are affine in a graph's size (a fixed cost plus a cost per FLOP, each
    backend its own), a GPU and two CPU backends, default and CPU-only contexts. Tune sees some
    sizes; graphs of sizes between them that it did not see run no slower under the tuned rules
    than under the current ones."""
    inv = parse_profile({"devices": [{"id": "gpu", "kind": "gpu", "backend": "torch"}, *CPUS["devices"]]})
    rules = engine.load_rules()
    coef = {d: (data.draw(st.floats(0.02, 3.0), label=f"{d} fixed ms"),
                data.draw(st.floats(0.0005, 0.05), label=f"{d} ms per MFLOP")) for d in ("gpu", "ort-cpu", "ov-cpu")}

    def truth(dev: str, g: dict) -> float:
        a, c = coef[dev]
        return a + c * summarize(g).flops() / 1e6

    groups = {}
    for options in ({}, {"accelerated": False}):
        sizes = sorted(data.draw(st.sets(st.integers(4, 160), min_size=3, max_size=5), label=f"seen {options}"))
        held = data.draw(st.lists(st.integers(sizes[0], sizes[-1]), min_size=2, max_size=4), label=f"unseen {options}")
        groups[json.dumps(options)] = (options, sizes, [s for s in held if s not in sizes])
    seen = [(f"/p{s}.html", o, _sized(s)) for o, sizes, _ in groups.values() for s in sizes]
    unseen = [(f"/q{s}.html", o, _sized(s)) for o, _, held in groups.values() for s in held]
    recorded = []
    for page, options, g in seen:  # what the current rules' placement took
        dev = engine.decide_build(engine.decide_context(options, inv, rules), g, inv, rules).device.id
        recorded.append((page, options, g, [[truth(dev, g)] * 3]))
    events = _record(inv, rules, recorded)
    matrix = {"version": 1, "devices": {d: {} for d in coef}, "graphs": {
        summarize(g).hash: {"results": {d: _cell(truth(d, g), 0.02) for d in coef}} for _, _, g in seen + unseen}}
    result = tune.tune(events, matrix, rules, inv)
    if not unseen:
        return
    held_events = []
    for i, (page, options, g) in enumerate(unseen):
        d = engine.decide_context(options, inv, rules)
        held_events += [{"v": 1, **trace.context_event(options, d, ctx=f"h{i}")},
                        {"v": 1, **trace.build_event(g, engine.decide_build(d, g, inv, rules), ctx=f"h{i}", page=page,
                                                     gid=f"h{i}", options=options)}]
    for row in trace.replay(held_events, rules, result["best"].rules, inv, matrix=matrix):
        assert row.b.latency_ms <= row.a.latency_ms * (1 + 1e-9), (row.workload, row.options, result["best"].name,
                                                                  result["best"].routes, row.a.device, row.b.device)


# --------------------------------------------------------------------------- 4. routes across device kinds


def _h100(tmp_path=None):
    inv = parse_profile(H100)
    rules = engine.load_rules()
    # host figures recorded on the GPU in 4 rounds; the matrix: the H100 (torch:cuda:0, ONNX Runtime CPU)
    cells = {"softmax": ((0.23, 0.22, 0.25), (0.40, 0.37, 0.43)),
             "mobilenet": ((2.21, 2.12, 2.30), (1.03, 0.98, 1.08)),
             "mlp": ((2.29, 2.20, 2.38), (0.27, 0.26, 0.28))}
    graphs = {"softmax": _softmax(), "mobilenet": _mobilenet(), "mlp": _mlp()}
    events = _record(inv, rules, [(f"/{n}.html", {}, g, [[cells[n][1][0] + 0.02 + 0.01 * r] * 20 for r in range(4)])
                                  for n, g in graphs.items()])
    matrix = {"version": 1, "devices": {"torch:cuda:0": {}, "ort-cpu": {}}, "graphs": {
        summarize(graphs[n]).hash: {"results": {
            "ort-cpu": {"p50": c[0][0], "p90": c[0][2], "n": 60, "ci95": [c[0][1], c[0][2]], "cpu_ms": c[0][0]},
            "torch:cuda:0": {"p50": c[1][0], "p90": c[1][2], "n": 60, "ci95": [c[1][1], c[1][2]], "cpu_ms": c[1][0]}}}
        for n, c in cells.items()}}
    return inv, rules, graphs, events, matrix


def test_tune_routes_a_small_graph_of_a_default_context_to_the_cpu(tmp_path):
    inv, rules, graphs, events, matrix = _h100()
    result = tune.tune(events, matrix, rules, inv)
    best = result["best"]
    assert [o.device for o in result["baseline"].outcomes] == ["torch:cuda:0"] * 3
    assert [o.device for o in best.outcomes] == ["ort-cpu", "torch:cuda:0", "torch:cuda:0"], best.name
    assert engine.backend_order(best.rules, "gpu") == engine.backend_order(rules, "gpu")  # the default stays
    (route,) = _tuned(best.routes)
    assert route["kinds"] == ["cpu"] and route["policies"] == ["default"] and route["backends"][0] == "onnxruntime"
    assert "graphs" not in route["when"], route  # by a feature: the small graphs, not these hashes
    assert next(iter(route["when"])).startswith("max_")
    # the written rules place it so in a host; hints keep their meaning
    paths = tune.write_outputs(result, tmp_path / "tuned.toml", tmp_path / "rep", rules)
    written = engine.load_rules(paths["rules"])
    soft, mlp = summarize(graphs["softmax"]), summarize(graphs["mlp"])
    p = engine.decide_build(engine.decide_context({}, inv, written), soft, inv, written)
    assert (p.device.id, p.fallback, p.route) == ("ort-cpu", "full", route["id"]) and not p.accelerated
    assert any("the route puts the CPU first" in r for r in p.reasons)
    assert engine.decide_build(engine.decide_context({}, inv, written), mlp, inv, written).device.id == "torch:cuda:0"
    hp = engine.decide_build(engine.decide_context({"powerPreference": "high-performance"}, inv, written), soft, inv,
                             written)
    assert hp.device.id == "torch:cuda:0"  # another policy: not what was measured
    md = paths["md"].read_text()
    assert "kinds first" in md and "| cpu |" in md


def test_a_kind_route_never_crosses_what_the_truth_table_allows(tmp_path):
    inv = parse_profile(H100)
    rules = _rules(tmp_path, '[strict]\ndeviceType = true\n'
                             '[[routes]]\nid = "small-to-cpu"\nwhen = { max_ops = 4 }\nkinds = ["cpu"]\n'
                             '[[routes]]\nid = "big-to-gpu"\nwhen = { min_ops = 5 }\nkinds = ["gpu"]\n')
    soft, mlp = summarize(_softmax()), summarize(_mlp())

    def place(options, g):
        return engine.decide_build(engine.decide_context(options, inv, rules), g, inv, rules)

    assert place({}, soft).device.id == "ort-cpu"  # a default context: the CPU is among its kinds
    assert place({}, mlp).device.id == "torch:cuda:0"
    assert place({"deviceType": "gpu"}, soft).device.id == "torch:cuda:0"  # strict: no CPU among its kinds
    for cpu_only in ({"accelerated": False}, {"computePolicy": "fallback"}):
        assert place(cpu_only, mlp).device.id == "ort-cpu"  # never an accelerator
    assert engine.route_order(inv, [], ["npu", "cpu"])[0].kind == "cpu"  # a kind the context lacks is skipped


def test_a_kind_route_keeps_the_cpu_after_the_accelerators_it_does_not_pass(tmp_path):
    """kinds = ["npu"] in a default context (GPU > NPU > CPU): the NPU is tried first; the CPU,
    still after every accelerator, keeps its place after the partition step."""
    from webnn_bridge.policy.inventory import load_profile

    inv = load_profile("intel-laptop-npu")
    rules = _rules(tmp_path, '[[routes]]\nid = "npu"\nkinds = ["npu"]\n')
    d = engine.decide_context({}, inv, rules)
    assert d.device.kind == "gpu"
    cnn = engine.decide_build(d, load_graph(GRAPHS / "tiny-cnn.json"), inv, rules)
    assert (cnn.device.id, cnn.fallback) == ("openvino:npu", "none")
    gru = load_graph(GRAPHS / "gru-seq.json")  # the NPU cannot run it whole: the GPU can, before the CPU
    p = engine.decide_build(d, gru, inv, rules)
    assert p.device.kind == "gpu" and p.accelerated, p.reasons


# --------------------------------------------------------------------------- 6. tune.md


def test_tune_md_names_workloads_units_sources_routes_and_page_latency(tmp_path):
    inv, rules, graphs, events, matrix = _h100()
    # two pages with the same label and different options; the shim's own latency on the GPU
    extra = _record(inv, rules, [("/index.html", {"powerPreference": "low-power"}, graphs["softmax"], [[0.5] * 5])],
                    first=100)
    events = events + extra + [{"v": 1, "event": "pageLatency", "ctx": e["ctx"], "gid": e["gid"],
                                "graph": e["graph"], "ms": 1.3} for e in events if e["event"] == "dispatch"]
    result = tune.tune(events, matrix, rules, inv)
    paths = tune.write_outputs(result, tmp_path / "t.toml", tmp_path / "rep", rules)
    md = paths["md"].read_text()
    assert "| # | page | graph | options | dispatches |" in md
    assert '`{"powerPreference": "low-power"}`' in md and "| /softmax.html | softmax | `{}` |" in md
    assert "ms per dispatch" in md and "## Where each number comes from" in md
    for source in ("**recorded**", "**measured**", "**anchored**", "**modelled**", "**paired**", "**page**"):
        assert source in md
    assert "| 1.30 |" in md  # the page's own p50 beside the host's
    # every rule set's routes, the chosen one's and the others'; a hash route is never called "features"
    assert md.count("### ") == len(result["candidates"])
    for c in result["candidates"]:
        assert any("graphs" in r.get("when", {}) for r in c.routes) == ("graph hash" in c.name), c.name
    assert "routed (features)" not in md


# --------------------------------------------------------------------------- 5. bad inputs


def _run(argv, capsys):
    rc = bridge_cli.main(argv)
    out, err = capsys.readouterr()
    lines = [x for x in err.splitlines() if x.strip()]
    return rc, out, lines


def _trace_file(tmp_path, mutate=None) -> str:
    inv = parse_profile(CPUS)
    rules = engine.load_rules()
    g = load_graph(GRAPHS / "tiny-cnn.json").to_dict() | {"name": "c"}
    events = _record(inv, rules, [("/c.html", {}, g, [[2.0] * 3])])
    if mutate:
        mutate(events)
    p = tmp_path / "t.jsonl"
    p.write_text("".join(json.dumps(e) + "\n" for e in events))
    return str(p)


def _profile(tmp_path, devices=None) -> str:
    p = tmp_path / "two.json"
    p.write_text(json.dumps({"devices": devices or CPUS["devices"]}))
    return str(p)


def _build(events) -> dict:
    return next(e for e in events if e["event"] == "build")


@pytest.mark.parametrize("mutate,problem", [
    pytest.param(lambda ev: _build(ev)["graph"].update(nodes=[]), ":2: build event: the graph has no nodes",
                 id="empty-graph"),
    pytest.param(lambda ev: _build(ev)["graph"].update(nodes=[{"op": "relu"}]),
                 ":2: build event: node 0 has no inputs, outputs", id="node-missing-fields"),
    pytest.param(lambda ev: _build(ev)["graph"]["nodes"][0].update(outputs=[]), ":2: build event: node 0 (conv2d) "
                 "has no outputs", id="node-without-outputs"),
    pytest.param(lambda ev: ev[0].pop("v"), ':1: no trace version ("v")', id="no-version"),
    pytest.param(lambda ev: ev[2].update(t=-1), ":3: dispatch event: t must be", id="bad-time"),
])
def test_bad_traces_are_refused(mutate, problem, tmp_path, capsys):
    t = _trace_file(tmp_path, mutate)
    rules = tmp_path / "r.toml"
    rules.write_text("")
    rc, out, err = _run(["policy", "replay", t, "--rules", str(rules), "--devices", _profile(tmp_path)], capsys)
    assert rc == 2 and len(err) == 1 and problem in err[0] and err[0].startswith("policy replay: "), err
    assert "0.50" not in out  # before: exit 0 with a modelled 0.50 ms


@pytest.mark.parametrize("command", ["replay", "serve"])
def test_an_unknown_backend_in_a_devices_profile(command, tmp_path, capsys):
    profile = _profile(tmp_path, [{"id": "g", "kind": "gpu", "backend": "cuda"}, CPUS["devices"][0]])
    rules = tmp_path / "r.toml"
    rules.write_text("")
    argv = (["policy", "replay", _trace_file(tmp_path), "--rules", str(rules), "--devices", profile]
            if command == "replay" else ["serve", "--port", "0", "--no-cache", "--devices", profile])
    rc, _, err = _run(argv, capsys)
    assert rc == 2 and len(err) == 1 and "devices[0]: unknown backend 'cuda' (known: onnxruntime" in err[0], err


@pytest.mark.parametrize("text,problem", [
    pytest.param('[[routes]]\nid = "r"\nwhen = { ops_any = ["nosuchop"] }\nbackends = ["openvino"]\n',
                 "when.ops_any: unknown operator(s) 'nosuchop'", id="unknown-op"),
    pytest.param('[[routes]]\nid = "r"\nwhen = { ops_none = ["conv2d", "convolution"] }\nbackends = ["openvino"]\n',
                 "when.ops_none: unknown operator(s) 'convolution'", id="unknown-op-none"),
    pytest.param('[policy.default]\norder = []\n', "[policy.default] order is empty", id="empty-policy-order"),
    pytest.param('[backends]\norder = []\n', "[backends] order is empty", id="empty-backend-order"),
    pytest.param('[backends]\ncpu = ["openvino", "onnxruntime", "openvino"]\n',
                 "[backends] cpu names backend(s) 'openvino' more than once", id="duplicate-backends"),
    pytest.param('[[routes]]\nid = "r"\nbackends = ["openvino", "openvino"]\n',
                 "backends names backend(s) 'openvino' more than once", id="duplicate-route-backends"),
    pytest.param('[[routes]]\nid = "r"\nbackends = []\nthreads = 1\n', "backends is empty", id="empty-route-backends"),
    pytest.param('[policy.low-power]\norder = ["npu", "cpu", "npu"]\n', "names kind(s) 'npu' more than once",
                 id="duplicate-kinds"),
    pytest.param('[[routes]]\nid = "r"\nkinds = ["tpu"]\n', "kinds: 'tpu' not one of cpu, gpu, npu", id="route-kind"),
    pytest.param('[[routes]]\nid = "r"\nkinds = []\n', "kinds is empty", id="route-empty-kinds"),
    pytest.param('[nosuch]\nx = 1\n', "unknown key 'nosuch' (known here: backends, build, latency, options, page, perf, "
                 "policy, pool_trial, privacy, qos, routes, strict, tier_up)", id="unknown-key-lists-options-and-routes"),
])
def test_check_refuses(text, problem, tmp_path, capsys):
    f = tmp_path / "bad.toml"
    f.write_text(text)
    rc, _, err = _run(["policy", "check", str(f)], capsys)
    assert rc == 2 and len(err) == 1 and problem in err[0], err


def test_check_accepts_kinds_and_io_bytes(tmp_path, capsys):
    f = tmp_path / "ok.toml"
    f.write_text('[[routes]]\nid = "small"\npolicies = ["default"]\nwhen = { max_io_bytes = 65536, '
                 'ops_any = ["softmax"] }\nkinds = ["cpu"]\nbackends = ["onnxruntime"]\n')
    rc, out, err = _run(["policy", "check", str(f)], capsys)
    assert rc == 0 and not err and "1 route(s)" in out


def test_a_tune_that_fails_writes_nothing(tmp_path, capsys):
    inv, rules, graphs, events, matrix = _h100()
    t = tmp_path / "t.jsonl"
    t.write_text("".join(json.dumps(e) + "\n" for e in events))
    (tmp_path / "m.json").write_text(json.dumps(matrix))
    report = tmp_path / "report"
    report.write_text("an existing file")
    out = tmp_path / "tuned.toml"
    rc, _, err = _run(["policy", "tune", str(t), "--matrix", str(tmp_path / "m.json"), "--devices",
                       _profile(tmp_path, H100["devices"]), "--out", str(out), "--report", str(report)], capsys)
    assert rc == 2 and len(err) == 1 and "--report" in err[0] and "not a folder" in err[0], err
    assert not out.exists() and [p.name for p in tmp_path.iterdir() if p.name.startswith(".tuned")] == []


def test_replay_refuses_a_matrix_from_another_machine(tmp_path, capsys):
    t = _trace_file(tmp_path)
    rules = tmp_path / "r.toml"
    rules.write_text("")
    m = tmp_path / "m.json"
    m.write_text(json.dumps({"version": 1, "devices": {"onnxruntime:CPUExecutionProvider": {}}, "graphs": {
        "ab" * 32: {"results": {"onnxruntime:CPUExecutionProvider": _cell(1.0)}}}}))
    rc, _, err = _run(["policy", "replay", t, "--rules", str(rules), "--devices", _profile(tmp_path),
                       "--matrix", str(m)], capsys)
    assert rc == 2 and len(err) == 1 and "the matrix names none of this inventory's devices" in err[0], err
    assert "another machine" in err[0]


def test_tune_help_says_where_it_writes(capsys):
    with pytest.raises(SystemExit) as e:
        bridge_cli.main(["policy", "tune", "--help"])
    text = "".join(capsys.readouterr().out.split())  # argparse wraps lines (and at hyphens)
    assert e.value.code == 0 and "(default:tuned-rules.toml" in text and "(default:tune-report)" in text
