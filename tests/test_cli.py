"""The command line as a user meets it: one-line errors (no tracebacks), strict rules files,
malformed traces rejected, subcommand usage on bad flags, replay outputs only on request."""

from __future__ import annotations

import json

import pytest

from webnn_bridge.bridge.cli import main
from webnn_bridge.policy import engine
from webnn_bridge.policy.inventory import load_profile
from webnn_bridge.workbench import trace
from webnn_bridge.workbench.trace import event_problem

from .test_policy_trace_cli import _make_trace


def run(argv, capsys):
    try:
        rc = main(argv)
    except SystemExit as e:  # argparse errors
        rc = e.code
    out = capsys.readouterr()
    return rc, out.out, out.err


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.mark.parametrize(("argv", "expected"), [
    (["devices", "--devices", "{bad}"], "webnn-bridge devices: no device profile"),
    (["serve", "--devices", "{bad}"], "webnn-bridge serve: no device profile"),
    (["serve", "--rules", "{rules}"], "webnn-bridge serve: "),
    (["policy", "explain", "--rules", "{rules}"], "policy explain: "),
    (["policy", "truth-table", "--rules", "{rules}"], "webnn-bridge policy truth-table: "),
    (["devices", "--devices", "{json}"], "webnn-bridge devices: Expecting"),
    (["devices", "--devices", "{array}"], "webnn-bridge devices: "),
])
def test_bad_input_files_give_one_line(argv, expected, tmp_path, capsys):
    rules = tmp_path / "r.toml"
    rules.write_text('[strict]\ndeviceType = "maybe"\n')
    broken = tmp_path / "p.json"
    broken.write_text('{"devices": [')
    array = tmp_path / "a.json"
    array.write_text('[{"devices": []}]')
    argv = [a.format(bad=tmp_path / "missing.json", rules=rules, json=broken, array=array) for a in argv]
    rc, _, err = run(argv, capsys)
    assert rc == 2 and one_line(err).startswith(expected), err


def test_port_out_of_range_is_a_usage_error(capsys):
    rc, _, err = run(["serve", "--port", "99999"], capsys)
    assert rc == 2 and "usage: webnn-bridge serve" in err and "port 99999 is outside 0-65535" in err


@pytest.mark.parametrize(("argv", "usage"), [
    (["devices", "--bogus"], "usage: webnn-bridge devices"),
    (["serve", "--bogus"], "usage: webnn-bridge serve"),
    (["policy", "explain", "--bogus"], "usage: webnn-bridge policy explain"),
    (["policy", "replay", "t.jsonl", "--rules", "r.toml", "--bogus"], "usage: webnn-bridge policy replay"),
])
def test_unknown_flags_show_the_subcommand_usage(argv, usage, capsys):
    rc, _, err = run(argv, capsys)
    assert rc == 2 and err.startswith(usage) and "unrecognized arguments: --bogus" in err


@pytest.mark.parametrize(("text", "problem"), [
    ('[strict]\ndeviceType = "maybe"\n', "strict.deviceType must be a boolean"),
    ("colour = 3\n", "unknown key 'colour'"),
    ("[qos]\ntiers = 3\n", "qos.tiers must be an array"),
    ('[qos]\nupper_ms = [1, "x"]\n', "qos.upper_ms[1] must be a number"),
    ('[build]\nprefer = "gpu"\n', "build.prefer: 'gpu' not one of"),
    ('[policy.turbo]\norder = ["gpu"]\n', "unknown key 'policy.turbo'"),
    ('[policy.default]\norder = ["tpu"]\n', "policy.default.order: 'tpu' not one of"),
    ('[[options]]\nid = "x"\nwhen = {}\npolicy = "default"\ncolour = 1\n', "options row 0: unknown key 'colour'"),
    ("[perf.cpu]\ngflops = true\n", "perf.cpu.gflops must be a number"),
    ("[strict\n", "not TOML"),
    # a copy of rules.toml elsewhere names the default profiles file relative to itself
    ('[privacy]\nprofiles = "profiles.toml"\n', "[privacy] profiles names"),
])
def test_rules_files_are_checked_strictly(text, problem, tmp_path):
    p = tmp_path / "r.toml"
    p.write_text(text)
    with pytest.raises(ValueError) as e:
        engine.load_rules(p)
    assert problem in str(e.value)


def test_valid_rules_files_still_load(tmp_path):
    p = tmp_path / "r.toml"
    p.write_text('[strict]\ndeviceType = true\nmine = false\n[perf.cpu]\ngflops = 50\n[policy.low-power]\n'
                 'order = ["gpu", "cpu"]\n')
    rules = engine.load_rules(p)
    assert rules["strict"]["deviceType"] is True and rules["perf"]["cpu"]["gflops"] == 50


@pytest.mark.parametrize(("event", "problem"), [
    ({"event": "launch"}, "unknown event type"),
    ({"event": "build", "graph": {"hash": "h"}}, "graph must be a graph summary"),
    ({"event": "dispatch", "graph": {"hash": "h"}, "latencyMs": {"cpu": "fast"}}, "latencyMs"),
    ({"event": "dispatch", "graph": {}, "latencyMs": {"cpu": 1.0}}, "graph.hash"),
    ({"event": "context", "options": [1]}, "options and decision must be objects"),
])
def test_malformed_trace_lines_are_rejected(event, problem, tmp_path, capsys):
    assert problem in event_problem(event)
    p = tmp_path / "t.jsonl"
    p.write_text(json.dumps(event) + "\n" + json.dumps({"event": "context", "options": {}}) + "\n")
    rules = tmp_path / "r.toml"
    rules.write_text("")
    rc, _, err = run(["policy", "replay", str(p), "--rules", str(rules)], capsys)
    assert rc == 2 and one_line(err).startswith(f"policy replay: {p}:1: ")


def test_replay_writes_only_with_out(tmp_path, capsys, monkeypatch):
    path = tmp_path / "t.jsonl"
    _make_trace(path, load_profile("dual-gpu"), engine.load_rules())
    rules = tmp_path / "r.toml"
    rules.write_text("")
    monkeypatch.chdir(tmp_path)
    before = set(tmp_path.iterdir())
    rc, out, _ = run(["policy", "replay", str(path), "--rules", str(rules), "--devices", "dual-gpu"], capsys)
    assert rc == 0 and "5 workload(s)" in out and "wrote" not in out
    assert set(tmp_path.iterdir()) == before
    blocker = tmp_path / "file"
    blocker.write_text("")
    rc, _, err = run(["policy", "replay", str(path), "--rules", str(rules), "--out", str(blocker / "x")], capsys)
    assert rc == 2 and one_line(err).startswith("policy replay: cannot write to")


def test_failed_workloads_are_flagged_not_fast(tmp_path):
    inv = load_profile("intel-laptop-npu")
    path = tmp_path / "t.jsonl"
    _make_trace(path, inv, engine.load_rules())
    strict = tmp_path / "strict.toml"
    strict.write_text("[strict]\ndeviceType = true\n")
    rows = trace.replay(trace.read_trace(path), engine.load_rules(), engine.load_rules(strict), inv)
    failed = [r for r in rows if r.b.latency_ms is None]
    assert failed and all(r.a.latency_ms is not None for r in failed)
    line = trace.summary_line(rows, ("base", "strict"))
    assert "FAILED: base 0, strict 1" in line
    both = [r for r in rows if r.b.latency_ms is not None]
    weighted = sum(r.a.latency_ms * r.weight for r in both)  # totals weigh each workload by its dispatches
    assert f"{len(both)} workload(s) both run ({sum(r.weight for r in both)} dispatches): base {weighted:.2f} ms" in line
    assert "FAILED" in trace.format_table(rows)


def test_recorded_latencies_survive_a_declared_inventory(tmp_path):
    """A trace of the real host (probed CPU id) replayed under --devices keeps its CPU timings."""
    inv = load_profile("intel-laptop-npu")
    path = tmp_path / "t.jsonl"
    real_cpu = "onnxruntime:CPUExecutionProvider"
    with trace.TraceWriter(path) as w:
        w.record({"event": "context", "ctx": 1, "options": {"computePolicy": "fallback"},
                  "decision": {"device": real_cpu, "kind": "cpu"}})
        w.record({"event": "build", "ctx": 1, "graph": _tiny_graph()})
        w.record(trace.dispatch_event(_tiny_graph_hash(), {real_cpu: 7.5}, ctx=1, device=real_cpu))
    rows = trace.replay(trace.read_trace(path), engine.load_rules(), engine.load_rules(), inv)
    assert rows[0].a.device == "cpu" and (rows[0].a.latency_source, rows[0].a.latency_ms) == ("recorded", 7.5)


def _tiny_graph():
    from webnn_bridge.policy.graphs import load_graph
    from webnn_bridge.policy.inventory import FIXTURES_DIR

    return trace.build_event(load_graph(FIXTURES_DIR / "graphs" / "tiny-cnn.json"))["graph"]


def _tiny_graph_hash():
    return _tiny_graph()["hash"]


def test_devices_table_has_headers(capsys):
    rc, out, _ = run(["devices", "--devices", "dual-gpu"], capsys)
    head = out.splitlines()[0].split()
    assert rc == 0 and head[:3] == ["kind", "id", "backend"] and "dml:dgpu" in out


def test_serve_stops_on_sigterm_with_its_disk_caches_written(tmp_path):
    """`webnn-bridge serve` stopped by SIGTERM (as a service manager stops it) exits 0 with no
    traceback, after writing what it queued for its disk caches."""
    import signal
    import subprocess
    import sys
    import time

    proc = subprocess.Popen([sys.executable, "-m", "webnn_bridge.bridge.cli", "serve", "--port", "0",
                             "--cache-dir", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert "serving on" in proc.stdout.readline()
        time.sleep(0.2)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 0 and "Traceback" not in err, err


def test_flush_to_disk_waits_for_queued_writes(tmp_path, monkeypatch):
    import hashlib
    import time

    from webnn_bridge.backends.cache import CompileCache
    from webnn_bridge.bridge import memo
    from webnn_bridge.bridge.api import ML

    real = memo.DiskWriter._write
    monkeypatch.setattr(memo.DiskWriter, "_write", lambda self, path, data: time.sleep(0.3) or real(self, path, data))
    ml = ML(compile_cache=CompileCache(tmp_path))
    data = memoryview(b"constant bytes")
    sha = hashlib.sha256(data).hexdigest()
    ml.constant_store.put("http://a.test", sha, data)
    assert not list(tmp_path.glob(f"constants/*/{sha}"))  # still queued
    assert ml.flush_to_disk() is True
    assert [p.read_bytes() for p in tmp_path.glob(f"constants/*/{sha}")] == [b"constant bytes"]


# `webnn-bridge wpt|oracle` live in webnn_bridge.devtools (issue 23), loaded only when they run


def test_wpt_and_oracle_dispatch_to_the_devtools(tmp_path, capsys):
    rc, _, err = run(["wpt", str(tmp_path)], capsys)
    assert rc == 2 and one_line(err) == f"webnn-bridge wpt: {tmp_path}/resources/testharness.js is missing: not a wpt checkout"
    rc, _, err = run(["oracle", "--native-chromium", "/nonexistent", "--data", str(tmp_path), "--count", "0"], capsys)
    assert rc == 2 and one_line(err) == "webnn-bridge oracle: no programs to run"
    rc, _, err = run(["oracle"], capsys)  # the tool's own argparse: its usage, not the top-level parser's
    assert rc == 2 and "usage: webnn-bridge oracle" in err and "--native-chromium" in err


@pytest.mark.parametrize("tool", ["wpt", "oracle"])
def test_devtools_not_installed_is_one_line(tool, tmp_path, capsys, monkeypatch):
    import sys

    for name in [m for m in sys.modules if m.startswith("webnn_bridge.devtools.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "webnn_bridge.devtools", None)  # as if the package were not installed
    rc, out, err = run([tool, str(tmp_path)], capsys)
    assert rc == 2 and out == ""
    assert one_line(err) == f"webnn-bridge {tool}: the developer tools (webnn_bridge.devtools) are not installed " \
                            "with this webnn-bridge"


@pytest.mark.parametrize("argv", [["wpt", "{root}"], ["oracle", "--native-chromium", "/nonexistent"]])
def test_devtools_without_playwright_is_one_line(argv, tmp_path, capsys, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "playwright", None)  # as if the devtools extra were not installed
    rc, out, err = run([a.format(root=tmp_path) for a in argv], capsys)
    assert rc == 2 and out == ""
    assert one_line(err) == f"webnn-bridge {argv[0]}: Chromium runs through Playwright, which is not installed " \
                            "(pip install 'webnn-bridge[devtools]')"
