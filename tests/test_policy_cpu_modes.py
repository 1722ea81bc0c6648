"""Issue 18, item 3: CPU execution modes (intra-op threads per graph) as placements: rules
([policy.*] cpu_threads, a route's threads), the low-power cap, backends that take a thread
count (ONNX Runtime, OpenVINO) and those that do not, the keys measure/replay share, and tune's
search over modes."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.policy_routes import tuned as _tuned
from webnn_bridge.backends.base import Device
from webnn_bridge.policy import engine
from webnn_bridge.policy.graphs import load_graph, summarize
from webnn_bridge.policy.inventory import FIXTURES_DIR, probe_inventory
from webnn_bridge.workbench import trace, tune

GRAPHS = FIXTURES_DIR / "graphs"
ORT = Device("onnxruntime:CPUExecutionProvider", "cpu", "onnxruntime", providers=("CPUExecutionProvider",))
OV = Device("openvino:CPU", "cpu", "openvino", providers=("CPU",))
TORCH = Device("torch:cpu", "cpu", "torch")


def _rules(tmp_path, text: str) -> dict:
    f = tmp_path / "r.toml"
    f.write_text(text)
    return engine.load_rules(f)


def _place(options, inv, rules, graph="tiny-cnn.json"):
    g = load_graph(GRAPHS / graph)
    return engine.decide_build(engine.decide_context(options, inv, rules), g, inv, rules)


# --------------------------------------------------------------------------- the engine


def test_no_mode_by_default():
    p = _place({}, [ORT, OV], engine.load_rules())
    assert p.threads == 0 and trace.placement_key(p) == ORT.id
    assert not any("CPU mode" in r for r in p.reasons)


def test_policy_cpu_threads_and_route_threads(tmp_path):
    rules = _rules(tmp_path, "[policy.fallback]\ncpu_threads = 1\n"
                             '[[routes]]\nid = "convs-two"\nwhen = { ops_any = ["conv2d"] }\nthreads = 2\n')
    p = _place({"computePolicy": "fallback"}, [ORT, OV], rules)  # tiny-cnn has a conv2d: the route
    assert (p.device.id, p.threads, p.route) == (ORT.id, 2, "convs-two")
    assert "CPU mode: route 'convs-two': 2 thread(s)" in p.reasons
    assert trace.placement_key(p) == f"{ORT.id}@threads=2" and p.to_dict()["threads"] == 2
    q = _place({"computePolicy": "fallback"}, [ORT, OV], rules, "embed-int64.json")  # no conv: the policy's
    assert (q.threads, q.route) == (1, None)
    assert "CPU mode: [policy.fallback] cpu_threads: 1 thread(s)" in q.reasons
    # other policies keep the backend's own threading
    assert _place({}, [ORT, OV], rules, "embed-int64.json").threads == 0


def test_a_route_can_set_threads_back_to_the_backends_choice(tmp_path):
    rules = _rules(tmp_path, "[policy.default]\ncpu_threads = 1\n"
                             '[[routes]]\nid = "own"\nwhen = { ops_any = ["conv2d"] }\nthreads = 0\n')
    assert _place({}, [ORT], rules).threads == 0
    assert _place({}, [ORT], rules, "embed-int64.json").threads == 1


def test_low_power_never_gets_more_threads_than_the_default(tmp_path):
    rules = _rules(tmp_path, "[policy.default]\ncpu_threads = 2\n"
                             '[[routes]]\nid = "many"\nthreads = 8\n')
    low = _place({"powerPreference": "low-power"}, [ORT], rules)
    assert low.threads == 2
    assert any("asks 8 thread(s), capped at 2 for low-power" in r for r in low.reasons)
    assert _place({}, [ORT], rules).threads == 8  # the route holds for the other policies
    own = _rules(tmp_path, "[policy.low-power]\ncpu_threads = 1\n[[routes]]\nid = \"many\"\nthreads = 8\n")
    assert _place({"powerPreference": "low-power"}, [ORT], own).threads == 1


def test_a_backend_without_modes_says_so_and_runs_its_own_way(tmp_path):
    rules = _rules(tmp_path, "[policy.default]\ncpu_threads = 1\n")
    p = _place({}, [TORCH], rules)
    assert p.device.id == TORCH.id and p.threads == 0
    assert any("CPU mode not applied" in r and "torch takes no thread count per graph" in r for r in p.reasons)
    # declared (what-if) devices: no CPU of this machine runs the placement as declared
    from webnn_bridge.policy.inventory import load_profile

    inv = load_profile("cpu-only")
    d = engine.decide_context({}, inv, rules)
    assert engine.decide_build(d, load_graph(GRAPHS / "tiny-cnn.json"), inv, rules).threads == 0


# --------------------------------------------------------------------------- keys, traces, replay


def test_mode_keys_align_like_device_ids():
    assert trace.split_mode("a:cpu@threads=3") == ("a:cpu", "@threads=3")
    assert trace.split_mode("partition:x>y@threads=1") == ("partition:x>y", "@threads=1")
    assert trace.split_mode("weird@threads=x") == ("weird@threads=x", "")
    facts = {"old-ort": ("cpu", "onnxruntime")}
    out, notes = trace.align_recorded({"h": {"old-ort@threads=1": 2.0, "old-ort": 3.0}}, facts, [ORT, OV])
    assert out == {"h": {f"{ORT.id}@threads=1": 2.0, ORT.id: 3.0}}
    assert notes and "count for" in notes[0]


def test_replay_prices_a_mode_from_the_matrix_and_reports_the_change(tmp_path):
    base = engine.load_rules()
    one = _rules(tmp_path, "[policy.default]\ncpu_threads = 1\n")
    g = load_graph(GRAPHS / "tiny-cnn.json")
    d = engine.decide_context({}, [ORT], base)
    p = engine.decide_build(d, g, [ORT], base)
    events = [trace.context_event({}, d, ctx=1), trace.build_event(g, p, ctx=1),
              trace.dispatch_event(g, {ORT.id: 4.0}, ctx=1, device=ORT.id, placement=trace.placement_key(p))]
    h = summarize(g).hash
    res = {"p50": 3.0, "p90": 3.5, "n": 9, "ci95": [2.9, 3.1], "cpu_ms": 6.0}
    mode = {"p50": 3.3, "p90": 3.6, "n": 9, "ci95": [3.2, 3.4], "cpu_ms": 3.3}
    matrix = {"version": 1, "devices": {ORT.id: {}}, "modes": [1],
              "graphs": {h: {"results": {ORT.id: res, f"{ORT.id}@threads=1": mode}}}}
    rows = trace.replay(events, base, one, [ORT], matrix=matrix)
    a, b = rows[0].a, rows[0].b
    assert (a.latency_ms, a.latency_source, a.threads) == (4.0, "recorded", 0)
    # anchored: the measured mode plus the host overhead the trace recorded (4.0 - 3.0)
    assert (b.latency_source, b.threads, b.cpu_ms) == ("anchored", 1, 3.3)
    assert b.latency_ms == pytest.approx(4.3)
    assert rows[0].changed and b.label == f"{ORT.id}@threads=1"
    assert f"{ORT.id}@threads=1" in trace.format_table(rows)


# --------------------------------------------------------------------------- tune


def _trace_of(graphs: list[str], options: dict, rules: dict) -> list[dict]:
    events = []
    for i, name in enumerate(graphs):
        g = load_graph(GRAPHS / name)
        d = engine.decide_context(options, [ORT, OV], rules)
        p = engine.decide_build(d, g, [ORT, OV], rules)
        events += [trace.context_event(options, d, ctx=i), trace.build_event(g, p, ctx=i, label=name)]
    return events


def _cell(p50: float, cpu: float) -> dict:
    return {"p50": p50, "p90": p50 * 1.1, "n": 30, "ci95": [p50 * 0.98, p50 * 1.02], "cpu_ms": cpu}


def _two_workloads(cnn_cells: tuple, emb_cells: tuple) -> tuple[list[dict], dict, dict]:
    """(events, matrix, base rules) for the convnet and the embedding graph; each cells tuple is
    (p50, cpu) for ORT, ORT@threads=1, OV, OV@threads=1."""
    base = engine.load_rules()
    events = _trace_of(["tiny-cnn.json", "embed-int64.json"], {}, base)
    cnn, emb = (summarize(load_graph(GRAPHS / n)).hash for n in ("tiny-cnn.json", "embed-int64.json"))
    keys = (ORT.id, ORT.id + "@threads=1", OV.id, OV.id + "@threads=1")
    matrix = {"version": 1, "devices": {ORT.id: {}, OV.id: {}}, "modes": [1], "graphs": {
        h: {"results": {k: _cell(*c) for k, c in zip(keys, cells)}} for h, cells in ((cnn, cnn_cells), (emb, emb_cells))}}
    return events, matrix, base


def test_tune_searches_cpu_modes_for_cpu_time(tmp_path):
    # the convnet: one thread halves the CPU time on ONNX Runtime for a little latency;
    # the embedding: one thread changes nothing
    events, matrix, base = _two_workloads(((2.0, 4.0), (2.2, 2.2), (3.0, 6.0), (3.3, 3.3)),
                                          ((1.0, 1.0), (1.0, 1.0), (2.0, 2.0), (2.0, 2.0)))
    by_cpu = tune.tune(events, matrix, base, [ORT, OV], objective="cpu-time")
    best = by_cpu["best"]
    assert [o.threads for o in best.outcomes][0] == 1 and best.total == pytest.approx(2.2 + 1.0)
    assert {c.name for c in by_cpu["candidates"]} >= {"onnxruntime first (cpu)", "onnxruntime first (cpu), 1 thread(s)"}
    # for latency the backend's own threading stays
    by_p50 = tune.tune(events, matrix, base, [ORT, OV], objective="latency-p50")
    assert [o.threads for o in by_p50["best"].outcomes] == [0, 0]
    # the written rules load, and a host would place the convnet with one thread
    paths = tune.write_outputs(by_cpu, tmp_path / "tuned.toml", tmp_path / "report", base)
    written = engine.load_rules(paths["rules"])
    assert _place({}, [ORT, OV], written).threads == 1
    assert "1 thread(s)" in paths["md"].read_text()


def test_tune_routes_carry_a_mode_for_the_graphs_it_serves(tmp_path):
    events, matrix, base = _two_workloads(((2.0, 4.0), (2.0, 2.0), (3.0, 6.0), (3.0, 3.0)),
                                          ((1.0, 1.0), (1.0, 3.0), (2.0, 2.0), (2.0, 2.5)))
    res = tune.tune(events, matrix, base, [ORT, OV], objective="cpu-time")
    best = res["best"]
    assert "routed" in best.name, [(c.name, c.total) for c in res["candidates"]]
    assert [o.threads for o in best.outcomes] == [1, 0] and best.total == pytest.approx(3.0)
    assert _tuned(best.override["routes"]) and all("threads" in r for r in _tuned(best.override["routes"]))
    assert engine.validate_rules(best.rules) == []


def test_tune_never_gives_low_power_more_threads_than_the_default(tmp_path):
    rules = _rules(tmp_path, "[policy.default]\ncpu_threads = 1\n")
    cand = tune.Candidate("x", {}, rules)
    ws = trace.workloads(_trace_of(["tiny-cnn.json"], {"powerPreference": "low-power"}, rules))
    cand.outcomes = [trace.ReplayOutcome(ORT.id, "cpu", "full", 1.0, "measured", None, threads=2)]
    assert tune.hint_violations(cand, ws) == [f"{ws[0].name}: 2 threads for low-power (the default runs 1)"]
    cand.outcomes = [trace.ReplayOutcome(ORT.id, "cpu", "full", 1.0, "measured", None, threads=1)]
    assert tune.hint_violations(cand, ws) == []


# --------------------------------------------------------------------------- backends and the host


def _real(backend: str) -> Device:
    devs = [d for d in probe_inventory() if d.kind == "cpu" and d.backend == backend]
    if not devs:
        pytest.skip(f"{backend} is not installed (the test extra installs it)")
    return devs[0]


def _mlp_ir():
    from webnn_bridge.bridge.api import ML, MLGraphBuilder
    from webnn_bridge.policy.inventory import REFERENCE_CPU

    ctx = ML([REFERENCE_CPU]).createContext({})
    b = MLGraphBuilder(ctx)
    x = b.input("x", {"dataType": "float32", "shape": [4, 64]})
    w = b.constant({"dataType": "float32", "shape": [64, 64]},
                   np.random.default_rng(0).standard_normal((64, 64)).astype("float32"))
    return b._collect({"y": b.relu(b.matmul(x, w))})


@pytest.mark.parametrize("backend", ["onnxruntime", "openvino"])
def test_backends_run_a_mode_with_that_many_threads_and_the_same_results(backend):
    from webnn_bridge.backends import backend_for

    dev = _real(backend)
    ir = _mlp_ir()
    x = np.random.default_rng(1).standard_normal((4, 64)).astype("float32")
    plain, one, two = (backend_for(dev).compile(ir, dataclasses_replace(dev, threads=n)) for n in (0, 1, 2))
    try:
        ref = plain.run({"x": x})["y"]
        for c in (one, two):
            np.testing.assert_array_equal(c.run({"x": x})["y"], ref)
        if backend == "onnxruntime":
            assert one.session.get_session_options().intra_op_num_threads == 1
            assert two.session.get_session_options().intra_op_num_threads in (2, 1)  # 1 when the pool bound is reached
            assert backend_for(dev).cache_token(dataclasses_replace(dev, threads=1)) != backend_for(dev).cache_token(dev)
        else:
            assert int(one.compiled.get_property("INFERENCE_NUM_THREADS")) == 1
            assert int(two.compiled.get_property("INFERENCE_NUM_THREADS")) == 2
    finally:
        for c in (plain, one, two):
            c.close()


def dataclasses_replace(dev, **kw):
    import dataclasses

    return dataclasses.replace(dev, **kw)


def test_a_host_builds_with_the_placements_mode(tmp_path):
    from webnn_bridge.bridge.api import ML, MLGraphBuilder

    dev = _real("onnxruntime")
    rules = _rules(tmp_path, '[[routes]]\nid = "one"\nwhen = { ops_any = ["matmul"] }\nthreads = 1\n'
                             '[policy.default]\ncpu_threads = 2\n')
    ml = ML([dev], rules=rules)
    ctx = ml.createContext({})
    b = MLGraphBuilder(ctx)
    x = b.input("x", {"dataType": "float32", "shape": [2, 2]})
    g1 = b.build({"y": b.matmul(x, b.constant({"dataType": "float32", "shape": [2, 2]},
                                               np.eye(2, dtype="float32")))})
    b2 = MLGraphBuilder(ctx)
    x2 = b2.input("x", {"dataType": "float32", "shape": [2, 2]})
    g2 = b2.build({"y": b2.relu(x2)})
    assert (g1.placement.threads, g1.placement.route) == (1, "one")
    assert g2.placement.threads == 2
    assert json.loads(json.dumps(g1.placement.to_dict()))["threads"] == 1
    out = ctx.compute(g1, {"x": np.array([[1, 2], [3, 4]], dtype="float32")})
    np.testing.assert_array_equal(out["y"], [[1, 2], [3, 4]])
    ctx.destroy()


def test_measure_modes_are_opt_in_and_checked():
    from webnn_bridge.workbench import measure
    from webnn_bridge.workbench.cli import _thread_modes

    assert measure.CPU_MODES == ()  # off unless asked for (README: why)
    assert _thread_modes("none") == () and _thread_modes("2,1,2") == (1, 2)
    for bad in ("x", "0", "2000"):
        with pytest.raises(ValueError):
            _thread_modes(bad)
