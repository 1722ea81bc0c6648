"""Traces, replay, the `policy` CLI and the generated truth-table document."""

from __future__ import annotations

import argparse
import csv
import json
import threading

import pytest

from webnn_bridge.policy import engine
from webnn_bridge.policy.graphs import load_graph, summarize
from webnn_bridge.policy.inventory import FIXTURES_DIR, load_profile
from webnn_bridge.policy.truth_table import TRUTH_TABLE_MD, check_truth_table, render_truth_table
from webnn_bridge.workbench import cli, trace

GRAPHS = FIXTURES_DIR / "graphs"


def test_truth_table_doc_is_up_to_date():
    rules = engine.load_rules()
    assert TRUTH_TABLE_MD.read_text() == render_truth_table(rules), (
        "src/webnn_bridge/policy/TRUTH_TABLE.md is stale: run `webnn-bridge policy truth-table --write`"
    )
    assert check_truth_table(rules)
    text = TRUTH_TABLE_MD.read_text()
    for row in rules["options"]:
        assert f"`{row['id']}`" in text
    assert "## All 120 combinations" in text


def test_truth_table_cli_check(capsys):
    assert cli.main(["truth-table", "--check"]) == 0
    assert cli.main(["truth-table"]) == 0
    assert capsys.readouterr().out.startswith("# Context options truth table")


# --------------------------------------------------------------------------- traces


def test_trace_writer_is_thread_safe(tmp_path):
    path = tmp_path / "t.jsonl"
    graph = summarize(load_graph(GRAPHS / "tiny-cnn.json"))
    with trace.TraceWriter(path) as w:
        def work(k):
            for i in range(100):
                w.record(trace.dispatch_event(graph, {"cpu": k + i / 1000}, ctx=k))

        threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    events = trace.read_trace(path)
    assert len(events) == 800
    assert all(e["v"] == 1 and e["event"] == "dispatch" and e["graph"]["hash"] == graph.hash for e in events)
    assert sorted({e["ctx"] for e in events}) == list(range(8))
    with pytest.raises(ValueError):
        w.record({"event": "dispatch"})


def test_read_trace_skips_only_a_truncated_last_line(tmp_path):
    p = tmp_path / "t.jsonl"
    p.write_text('{"v": 1, "event": "context", "options": {}}\n\n{"v": 1, "event": "build", "gra')
    assert [e["event"] for e in trace.read_trace(p)] == ["context"]
    p.write_text('{"event": "context"\n{"event": "build"}\n')
    with pytest.raises(ValueError):
        trace.read_trace(p)


def test_graph_summary_round_trips_through_a_trace(tmp_path):
    g = load_graph(GRAPHS / "embed-int64.json")
    ev = trace.build_event(g, ctx=1, options={"deviceType": "npu"})
    again = summarize(json.loads(json.dumps(ev)))
    assert again.hash == g.hash and again.nodes == g.nodes
    d = ev["graph"]
    assert d["ops"] == {"add": 1, "gather": 1, "matmul": 2, "relu": 1, "reshape": 1, "softmax": 1}
    assert d["dataTypes"] == ["float32", "int64"] and d["nodeCount"] == 7 and d["maxRank"] == 3
    # --graph accepts a trace line and a whole trace
    line = tmp_path / "line.json"
    line.write_text(json.dumps(ev))
    assert load_graph(line).hash == g.hash
    jsonl = tmp_path / "t.jsonl"
    jsonl.write_text(json.dumps({"event": "context", "options": {}}) + "\n" + json.dumps(ev) + "\n")
    assert load_graph(jsonl).hash == g.hash


def test_session_tracer_records_host_events(tmp_path):
    from webnn_bridge.bridge.api import ML, MLGraphBuilder

    rules = engine.load_rules()
    ml = ML(load_profile("intel-laptop-npu"), rules=rules, simulated=True)
    ctx = ml.createContext({"deviceType": "npu"})
    b = MLGraphBuilder(ctx)
    x = b.input("x", {"dataType": "float32", "shape": [2, 2]})
    g = b.build({"y": b.relu(x)})
    path = tmp_path / "s.jsonl"
    with trace.TraceWriter(path) as w:
        tracer = trace.SessionTracer(w)
        tracer("createContext", {"options": ctx.options, "decision": ctx.decision})
        tracer("build", {"graph": g, "context": ctx})
        tracer("dispatch", {"graph": g, "context": ctx})  # untimed: not recorded
        tracer("dispatch", {"graph": g, "context": ctx, "latencyMs": 1.25})
    events = trace.read_trace(path)
    assert [e["event"] for e in events] == ["context", "build", "dispatch"]
    assert events[0]["decision"]["device"] == "openvino:npu"
    assert events[1]["decision"]["fallback"] == "none" and events[1]["options"]["deviceType"] == "npu"
    assert events[2]["latencyMs"] == {ctx.exec_device.id: 1.25}


# --------------------------------------------------------------------------- replay


def _make_trace(path, inventory, rules):
    """Record a context + build + two dispatches for a few workloads, as the host would."""
    workloads = [
        ({"powerPreference": "low-power"}, "tiny-cnn"),
        ({}, "tiny-cnn"),
        ({"deviceType": "npu"}, "embed-int64"),
        ({"powerPreference": "high-performance"}, "gru-seq"),
        ({"computePolicy": "fallback"}, "rank6-add"),
    ]
    with trace.TraceWriter(path) as w:
        for ctx, (opts, gname) in enumerate(workloads):
            g = load_graph(GRAPHS / f"{gname}.json")
            d = engine.decide_context(opts, inventory, rules)
            p = engine.decide_build(d, g, inventory, rules)
            w.record(trace.context_event(opts, d, ctx=ctx))
            w.record(trace.build_event(g, p, ctx=ctx))
            for ms in (2.0 + ctx, 4.0 + ctx):
                w.record(trace.dispatch_event(g, {p.device.id: ms}, ctx=ctx, device=p.device.id))
    return workloads


def test_replay_compares_two_rule_sets(tmp_path):
    inv = load_profile("intel-laptop-npu")
    base = engine.load_rules()
    path = tmp_path / "t.jsonl"
    _make_trace(path, inv, base)
    cand_file = tmp_path / "npu-first.toml"
    cand_file.write_text('[policy.default]\norder = ["npu", "gpu", "cpu"]\n[strict]\ndeviceType = true\n')
    cand = engine.load_rules(cand_file)
    rows = trace.replay(trace.read_trace(path), base, cand, inv)
    assert [r.workload for r in rows] == ["tiny-cnn", "tiny-cnn", "embed-int64", "gru-seq", "rank6-add"]
    got = [(r.a.label, r.a.fallback, r.b.label, r.b.fallback, r.changed) for r in rows]
    assert got == [
        ("openvino:npu", "none", "openvino:npu", "none", False),
        ("openvino:gpu", "none", "openvino:npu", "none", True),  # default now prefers the NPU
        ("openvino:npu", "partial", "(NotSupportedError)", None, True),  # strict deviceType: gather
        ("openvino:gpu", "none", "openvino:gpu", "none", False),
        ("cpu", "none", "cpu", "none", False),
    ]
    # recorded latencies (median of 2 dispatches) where the trace measured the device, else estimates
    assert (rows[0].a.latency_source, rows[0].a.latency_ms) == ("recorded", 3.0)
    assert (rows[1].a.latency_source, rows[1].a.latency_ms) == ("recorded", 4.0)
    assert rows[1].b.latency_source == "recorded" and rows[1].b.latency_ms == 3.0  # measured in workload 0
    assert rows[2].a.latency_source == "modelled" and rows[2].b.latency_ms is None
    assert rows[3].a.tier == "excellent"

    table = trace.format_table(rows, ("base", "cand"))
    assert "5 workload(s), 2 placement(s) changed" in table
    out = trace.write_replay(rows, tmp_path / "out", ("base", "cand"))
    assert out["png"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with open(out["csv"], newline="") as fh:
        recs = list(csv.DictReader(fh))
    assert [r["changed"] for r in recs] == ["no", "yes", "yes", "no", "no"]
    assert recs[1]["b_device"] == "openvino:npu" and recs[2]["b_device"] == "(NotSupportedError)"
    md = out["md"].read_text()
    assert md.startswith("# Policy replay") and md.count("\n| ") == 6


# --------------------------------------------------------------------------- CLI


def test_explain_output(capsys):
    rc = cli.main(["explain", "--options", '{"powerPreference": "low-power"}', "--devices", "intel-laptop-npu",
                   "--graph", str(GRAPHS / "embed-int64.json")])
    assert rc == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "inventory: intel-laptop-npu  [SIMULATED: graphs execute on the host CPU backend]"
    assert "normalized: policy=low-power  strict=no  kinds=npu > gpu > cpu" in lines
    assert "  1. openvino:npu" in lines and "  2. openvino:gpu" in lines and "  3. cpu" in lines
    assert "context decision: openvino:npu (npu)" in lines
    assert "opSupportLimits bucket: cpu-full  (report=context; the device alone: npu-fp16)" in lines
    assert "build decision: openvino:gpu (gpu)  cpuFallback=none" in lines
    assert any(line.startswith("  x openvino:npu: runs 6 of 7 nodes: op gather is not supported") for line in lines)
    assert any(line.startswith("estimateQoS: excellent") for line in lines)
    assert 'effective (page view): {"accelerated": true, "cpuFallback": "none", "simulated": true}' in lines


def test_explain_json_options_file_and_rules(tmp_path, capsys):
    opts = tmp_path / "o.json"
    opts.write_text('{"deviceType": "npu"}')
    rules = tmp_path / "r.toml"
    rules.write_text("[strict]\ndeviceType = true\n")
    rc = cli.main(["explain", "--options", f"@{opts}", "--devices", str(FIXTURES_DIR / "dual-gpu.json"),
                   "--rules", str(rules), "--json"])
    assert rc == 0
    info = json.loads(capsys.readouterr().out)
    assert info["normalized"]["strict"] is True and info["normalized"]["kinds"] == ["npu"]
    assert info["context"]["device"] is None and info["error"].startswith("NotSupportedError")
    rc = cli.main(["explain", "--options", '{"deviceType": "npu"}', "--devices", "intel-laptop-npu",
                   "--rules", str(rules), "--graph", str(GRAPHS / "gru-seq.json")])
    assert rc == 0
    out = capsys.readouterr().out
    assert "build decision: NotSupportedError: The graph cannot run entirely" in out


@pytest.mark.parametrize("argv", [["explain", "--options", '{"computePolicy": "turbo"}', "--devices", "cpu-only"],
                                  ["explain", "--options", "[1]", "--devices", "cpu-only"],
                                  ["explain", "--devices", "no-such-profile"]])
def test_explain_errors(argv, capsys):
    assert cli.main(argv) == 2
    assert capsys.readouterr().err.startswith("policy explain:")


def test_replay_cli(tmp_path, capsys):
    inv = load_profile("dual-gpu")
    path = tmp_path / "t.jsonl"
    _make_trace(path, inv, engine.load_rules())
    rules = tmp_path / "hp.toml"
    rules.write_text('[policy.low-power]\norder = ["gpu", "npu", "cpu"]\npower = ["high-performance"]\n')
    out_dir = tmp_path / "out"
    rc = cli.main(["replay", str(path), "--rules", str(rules), "--out", str(out_dir), "--devices", "dual-gpu"])
    assert rc == 0
    text = capsys.readouterr().out
    assert "defaults device" in text and "hp device" in text
    assert "5 workload(s), 1 placement(s) changed" in text  # low-power tiny-cnn moves igpu -> dgpu
    assert {p.name for p in out_dir.iterdir()} == {"replay.png", "replay.csv", "replay.md"}


def test_register_adds_the_policy_command():
    p = argparse.ArgumentParser(prog="webnn-bridge")
    sub = p.add_subparsers(dest="cmd", required=True)
    cli.register(sub)
    args = p.parse_args(["policy", "explain", "--devices", "cpu-only", "--options", "{}"])
    assert args.cmd == "policy" and args.policy_cmd == "explain" and callable(args.func)
    args = p.parse_args(["policy", "replay", "t.jsonl", "--rules", "r.toml"])
    assert args.out is None and args.baseline is None  # nothing is written without --out
