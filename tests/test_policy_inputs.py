"""Issue 18, item 7: every bad policy input gets a one-line error and exit status 2 (or, under
serve, a refusal to start), never a traceback or silent acceptance."""

from __future__ import annotations

import json

import pytest

from webnn_bridge.bridge import cli as bridge_cli
from webnn_bridge.bridge import host_ml
from webnn_bridge.policy import engine
from webnn_bridge.policy.graphs import load_graph
from webnn_bridge.policy.inventory import FIXTURES_DIR, load_profile, parse_profile
from webnn_bridge.workbench import trace

GRAPHS = FIXTURES_DIR / "graphs"


def run(argv, capsys):
    rc = bridge_cli.main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


def one_line(err: str) -> str:
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def _good_trace(path, inv_name="intel-laptop-npu"):
    inv = load_profile(inv_name)
    rules = engine.load_rules()
    g = load_graph(GRAPHS / "tiny-cnn.json")
    d = engine.decide_context({}, inv, rules)
    p = engine.decide_build(d, g, inv, rules)
    events = [trace.context_event({}, d, ctx=1), trace.build_event(g, p, ctx=1, options={}),
              trace.dispatch_event(g, {p.device.id: 2.0}, ctx=1, device=p.device.id)]
    path.write_text("".join(json.dumps({"v": 1, **e}) + "\n" for e in events))
    return events


# --------------------------------------------------------------------------- rules files

NO_CATCH_ALL = '[[options]]\nid = "only-fallback"\nwhen = { computePolicy = "fallback" }\npolicy = "fallback"\n'


@pytest.mark.parametrize("text,problem", [
    (NO_CATCH_ALL, "no [[options]] row matches 96 of the 120 option combinations"),
    ("[perf.cpu]\ngflops = 0\n", "[perf.cpu] gflops must be a finite number > 0, not 0"),
    ("[perf.gpu]\ngflops = -5.0\n", "[perf.gpu] gflops must be a finite number > 0"),
    ("[perf.npu]\nbandwidth_gbs = inf\n", "[perf.npu] bandwidth_gbs must be a finite number > 0"),
    ("[perf.cpu]\ndispatch_ms = nan\n", "[perf.cpu] dispatch_ms must be a finite number >= 0"),
    ("[perf.transfer]\nboundary_ms = -1\n", "[perf.transfer] boundary_ms must be a finite number >= 0"),
    ("[build]\npartial_min_fraction = 7\n", "partial_min_fraction must be a share between 0 and 1, not 7"),
    ("[build]\npartial_min_fraction = -0.1\n", "partial_min_fraction must be a share between 0 and 1"),
    ('[backends]\norder = ["onnxruntime", "directx"]\n', "backends.order: 'directx' not one of"),
    ('[backends]\ncpu = ["openvno"]\n', "backends.cpu: 'openvno' not one of"),
    ('[[routes]]\nid = "r"\nbackends = ["tpu-runtime"]\n', "unknown backend 'tpu-runtime'"),
    ('[[routes]]\nid = "r"\nwhen = { min_opps = 3 }\nbackends = ["openvino"]\n', "unknown feature 'min_opps'"),
    ('[[routes]]\nid = "r"\nwhen = { min_flops = inf }\nbackends = ["openvino"]\n', "must be a finite number"),
    ('[[routes]]\nid = "r"\nwhen = { data_types = ["float33"] }\nbackends = ["openvino"]\n', "unknown data type"),
    ('[[routes]]\nid = "r"\nbackends = ["openvino"]\nthreads = 2000\n', "threads must be 1..1024 (a CPU mode)"),
    ('[[routes]]\nid = "r"\nthreads = -1\n', "threads must be 1..1024"),
    ('[[routes]]\nid = "r"\nthreads = "all"\n', "threads must not be a string"),
    ("[policy.fallback]\ncpu_threads = -2\n", "[policy.fallback] cpu_threads must be 0 (the backend's choice) or 1..1024"),
    ("[policy.default]\ncpu_threads = 2\n[policy.low-power]\ncpu_threads = 4\n",
     "low-power never gets more threads than the default"),
    ('[[routes]]\nid = "r"\n', "says nothing"),
    ("[qos]\nupper_ms = [16, 1e400, 1000, 10000, 30000, 60000]\n", "upper_ms must be finite"),
])
def test_bad_rules_are_rejected_everywhere(text, problem, tmp_path, capsys):
    f = tmp_path / "bad.toml"
    f.write_text(text)
    with pytest.raises(ValueError) as e:
        engine.load_rules(f)
    assert problem in str(e.value)
    rc, _, err = run(["policy", "check", str(f)], capsys)
    assert rc == 2 and problem in one_line(err) and one_line(err).startswith("policy check: ")
    rc, _, err = run(["policy", "explain", "--rules", str(f), "--devices", "cpu-only"], capsys)
    assert rc == 2 and problem in one_line(err)
    # serve refuses to start (before it listens) with the same line
    rc, _, err = run(["serve", "--port", "0", "--no-cache", "--rules", str(f)], capsys)
    assert rc == 2 and problem in one_line(err)


def test_known_backends_are_the_backend_modules_and_check_accepts_good_files(tmp_path, capsys):
    from webnn_bridge.backends import all_backends

    f = tmp_path / "ok.toml"
    f.write_text('[backends]\norder = ["tensorrt", "onnxruntime"]\ncpu = ["openvino", "onnxruntime"]\n'
                 '[[routes]]\nid = "convs"\nwhen = { ops_any = ["conv2d"], min_ops = 2 }\nbackends = ["openvino"]\n')
    rc, out, _ = run(["policy", "check", str(f)], capsys)
    assert rc == 0 and out.strip() == f"{f}: ok (11 option rows, 1 route(s))"
    assert set(engine.known_backends()) == {cls.name for cls in all_backends()}
    assert engine.validate_rules(engine.load_rules()) == []  # the defaults name only real backends
    # DirectML has no backend of its own (it is ONNX Runtime's DmlExecutionProvider): naming it is an error
    bad = tmp_path / "dml.toml"
    bad.write_text('[backends]\norder = ["directml", "onnxruntime"]\n')
    rc, _, err = run(["policy", "check", str(bad)], capsys)
    assert rc == 2 and "backends.order: 'directml' not one of onnxruntime" in err


def test_serve_with_no_catch_all_never_reaches_create_context(tmp_path):
    """Before: serve accepted it and every createContext({}) failed as a malformed message."""
    f = tmp_path / "bad.toml"
    f.write_text(NO_CATCH_ALL)
    with pytest.raises(ValueError, match="catch-all"):
        host_ml.ml_factory(None, str(f))()


@pytest.mark.parametrize("perf,problem", [({"gflops": 0}, "perf.gflops must be a finite number > 0"),
                                          ({"throughput": -2}, "perf.throughput must be a finite number > 0"),
                                          ({"dispatchMs": float("inf")}, "perf.dispatchMs must be a finite number"),
                                          ({"latency": True}, "perf.latency must be a finite number")])
def test_profile_perf_hints_must_be_finite_and_positive(perf, problem):
    with pytest.raises(ValueError) as e:
        parse_profile({"devices": [{"id": "g", "kind": "gpu", "perf": perf}]})
    assert problem in str(e.value)


# --------------------------------------------------------------------------- graphs and traces


def test_non_object_nodes_are_one_line_errors(tmp_path, capsys):
    graph = tmp_path / "g.json"
    graph.write_text(json.dumps({"nodes": [1, 2, 3]}))
    rc, _, err = run(["policy", "explain", "--devices", "cpu-only", "--graph", str(graph)], capsys)
    assert rc == 2 and "node 0: a node must be an object, not int" in one_line(err)
    t = tmp_path / "t.jsonl"
    t.write_text(json.dumps({"v": 1, "event": "context", "options": {}}) + "\n"
                 + json.dumps({"v": 1, "event": "build", "graph": {"nodes": [1, 2, 3]}}) + "\n")
    rules = tmp_path / "r.toml"
    rules.write_text("")
    rc, _, err = run(["policy", "replay", str(t), "--rules", str(rules)], capsys)
    assert rc == 2 and one_line(err).startswith(f"policy replay: {t}:2: build event: node 0: a node must be an object")
    rc, _, err = run(["policy", "explain", "--devices", "cpu-only", "--graph", str(t)], capsys)
    assert rc == 2 and "a node must be an object" in one_line(err)


def _lines(*events) -> str:
    return "".join(json.dumps({"v": 1, **e}) + "\n" for e in events)


@pytest.mark.parametrize("mutate,problem", [
    (lambda ev: ev[2].update(latencyMs={"openvino:gpu": 1e400}), ":3: dispatch event: latencyMs must map device ids "
                                                                  "to finite, non-negative numbers"),
    (lambda ev: ev[0].update(v=99), ":1: trace version 99 is not supported"),
    (lambda ev: ev[2].update(latencyMs={"nvidia:gpu": 2.0}), "dispatches on device(s) nvidia:gpu that no decision"),
    (lambda ev: ev[1].update(options={"powerPrefrence": "low-power"}), ":2: build event: unknown option key(s) "
                                                                      "'powerPrefrence'"),
    (lambda ev: ev[0].update(options={"powerPreference": "turbo"}), ":1: context event: invalid option: "
                                                                    "createContext(): 'turbo' is not a valid value"),
    (lambda ev: ev[0].update(options={"accelerated": "yes"}), ":1: context event: invalid option: accelerated must"),
])
def test_bad_traces_are_one_line_errors(mutate, problem, tmp_path, capsys):
    t = tmp_path / "t.jsonl"
    events = _good_trace(t)
    rules = tmp_path / "r.toml"
    rules.write_text("")
    assert run(["policy", "replay", str(t), "--rules", str(rules), "--devices", "intel-laptop-npu"], capsys)[0] == 0
    mutate(events)
    t.write_text(_lines(*events))
    rc, _, err = run(["policy", "replay", str(t), "--rules", str(rules), "--devices", "intel-laptop-npu"], capsys)
    assert rc == 2 and problem in one_line(err), err


@pytest.mark.parametrize("content,problem", [
    (b"", "empty trace (no events)"),
    (b"\n\n  \n", "empty trace (no events)"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary data, not a JSONL trace"),
    (b"\xff\xfe{\n", "not UTF-8 text"),
    (b"hello world", ":1: not JSON"),
    (b'{"event": "conte', ":1: not JSON"),  # a lone truncated line is no trace
    (b'{"v": 1, "event": "dispatch", "graph": {"hash": "h"}, "latencyMs": {"cpu": 1.0}}\n', "no build events"),
    (b'{"v": 1, "event": "context", "options": {}}\n', "no build events"),
])
def test_files_that_are_not_traces(content, problem, tmp_path, capsys):
    t = tmp_path / "t.jsonl"
    t.write_bytes(content)
    rules = tmp_path / "r.toml"
    rules.write_text("")
    for argv in (["policy", "replay", str(t), "--rules", str(rules)],
                 ["policy", "measure", str(t), "--out", str(tmp_path / "m.json"), "--quiet"],
                 ["policy", "tune", str(t), "--matrix", str(tmp_path / "none.json")]):
        rc, _, err = run(argv, capsys)
        assert rc == 2 and problem in one_line(err), (argv, err)


def test_a_truncated_last_line_after_events_is_still_skipped(tmp_path):
    t = tmp_path / "t.jsonl"
    events = _good_trace(t)
    t.write_text(_lines(*events) + '{"v": 1, "event": "dispa')
    assert len(trace.read_trace(t)) == 3
    t.write_text(_lines(*events) + "garbage\n")
    with pytest.raises(ValueError, match=":4: not JSON"):
        trace.read_trace(t)


def test_explain_rejects_unknown_option_keys(capsys):
    rc, _, err = run(["policy", "explain", "--devices", "cpu-only", "--options", '{"powerPrefrence": "low-power"}'],
                     capsys)
    line = one_line(err)
    assert rc == 2 and "unknown key(s) 'powerPrefrence' (did you mean 'powerPreference'?)" in line


def test_bad_matrix_files(tmp_path, capsys):
    t = tmp_path / "t.jsonl"
    _good_trace(t)
    m = tmp_path / "m.json"
    rules = tmp_path / "r.toml"
    rules.write_text("")
    for content, problem in (("[]", "not a `policy measure` matrix"), ("{", "not a matrix (JSON) file"),
                             (json.dumps({"version": 1, "graphs": {"h": {"results": {"cpu": {"p50": float("inf"),
                                                                                            "p90": 1, "n": 3,
                                                                                            "ci95": [1, 2]}}}}}),
                              "needs finite p50")):
        m.write_text(content)
        rc, _, err = run(["policy", "replay", str(t), "--rules", str(rules), "--matrix", str(m)], capsys)
        assert rc == 2 and problem in one_line(err)


def test_measure_and_tune_say_what_is_missing(tmp_path, capsys):
    t = tmp_path / "t.jsonl"
    _good_trace(t)  # recorded by hand: builds without their structure
    rc, _, err = run(["policy", "measure", str(t), "--out", str(tmp_path / "m.json"), "--quiet"], capsys)
    assert rc == 2 and "no graph in the trace carries its structure" in one_line(err)
    rc, _, err = run(["policy", "measure", str(t), "--out", str(tmp_path / "m.json"), "--seconds", "0"], capsys)
    assert rc == 2 and "--seconds must be > 0" in one_line(err)
    m = tmp_path / "m.json"
    m.write_text(json.dumps({"version": 1, "devices": {"elsewhere:cpu": {}}, "graphs": {}}))
    rc, _, err = run(["policy", "tune", str(t), "--matrix", str(m), "--out", str(tmp_path / "r.toml"),
                      "--report", str(tmp_path / "rep")], capsys)
    assert rc == 2 and "the matrix names none of this inventory's devices" in one_line(err)
    with pytest.raises(SystemExit) as e:  # argparse: the usage of the subcommand, exit 2
        bridge_cli.main(["policy", "tune", str(t), "--matrix", str(m), "--objective", "speed"])
    assert e.value.code == 2 and "invalid choice: 'speed'" in capsys.readouterr().err
