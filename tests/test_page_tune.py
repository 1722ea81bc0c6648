"""`policy tune`'s [page] step (workbench/page_tune.py): the page's FLOPs bound from the times
pages recorded of each graph in the page and through the host."""

from __future__ import annotations

import json
import math

import pytest

from webnn_bridge.bridge import cli as bridge_cli
from webnn_bridge.policy import engine
from webnn_bridge.policy.graphs import load_graph, summarize
from webnn_bridge.policy.inventory import FIXTURES_DIR, parse_profile
from webnn_bridge.workbench import page_tune, trace, tune

GRAPHS = FIXTURES_DIR / "graphs"
TWO_CPUS = {"devices": [{"id": "ort-cpu", "kind": "cpu", "backend": "onnxruntime"},
                        {"id": "ov-cpu", "kind": "cpu", "backend": "openvino"}]}
NAMES = ("rank6-add", "embed-int64", "tiny-cnn", "gru-seq")  # 128, 1.35e5, 8.07e5, 1.84e6 FLOPs
BOUND = 2.0e5  # the current [page] max_flops in these tests: rank6-add and embed-int64 in the page


def _rules(bound: float = BOUND) -> dict:
    rules = engine.default_rules()
    return {**rules, "page": {**rules["page"], "max_flops": bound}}


def _runs(ms: float, n: int = 40, spread: float = 0.04) -> list[float]:
    """n runs around ms, deterministic, within +-spread."""
    return [ms * (1 + spread * math.sin(i * 1.7)) for i in range(n)]


def _events(sides: dict, *, refused: dict | None = None, first_host_runs: int = 0, bound: float = BOUND) -> list[dict]:
    """Traces as hosts record them: ``sides`` maps a graph name to (ms in the page or None, ms on the
    host or None). Host builds of graphs over ``bound`` carry the FLOPs refusal (recorded with a page
    runtime at hand), or ``refused[name]``; each graph the page ran has a build of its own (a trace
    under a higher bound). ``first_host_runs``: host runs of an in-page build while its runtime started."""
    inv = parse_profile(TWO_CPUS)
    rules = _rules(bound)
    d = engine.decide_context({}, inv, rules)
    events: list[dict] = [trace.context_event({}, d, ctx=1)]
    for i, (name, (page_ms, host_ms)) in enumerate(sides.items()):
        g = load_graph(GRAPHS / f"{name}.json")
        h = summarize(g).hash
        if host_ms is not None:
            ev = trace.build_event(g, engine.decide_build(d, g, inv, rules), ctx=1, page="/app.html", label=name, gid=f"h{i}")
            flops = summarize(g).flops()
            why = (refused or {}).get(name) or (f"FLOPs {flops:.3g} > [page] max_flops {bound:.3g}" if flops > bound else None)
            if why:  # as decide_build notes it: last in its first reason
                ev["decision"]["reasons"][0] += f"; not in the page: {why}"
            events.append(ev)
            events += [{"event": "pageLatency", "ctx": 1, "gid": f"h{i}", "graph": {"hash": h}, "ms": ms}
                       for ms in _runs(host_ms)]
        if page_ms is not None:
            events.append(trace.build_event(g, engine.decide_build(d, g, inv, rules), ctx=1, page="/app.html",
                                            label=name, gid=f"p{i}", in_page=True))
            events += [{"event": "pageLatency", "ctx": 1, "gid": f"p{i}", "graph": {"hash": h}, "ms": 50.0}
                       for _ in range(first_host_runs)]  # cold host runs before the takeover: left out
            events += [{"event": "pageLatency", "ctx": 1, "gid": f"p{i}", "graph": {"hash": h}, "ms": ms, "inPage": True}
                       for ms in _runs(page_ms)]
    for ev in events:
        assert trace.event_problem({"v": 1, **ev}) is None, ev
    return events


def test_workloads_gather_both_sides_and_leave_out_the_host_runs_before_the_takeover():
    events = _events({"rank6-add": (0.1, 0.4), "tiny-cnn": (None, 1.0)}, first_host_runs=3)
    ws = {w.label: w for w in page_tune.page_workloads(events)}
    assert set(ws) == {"rank6-add", "tiny-cnn"}
    add, cnn = ws["rank6-add"], ws["tiny-cnn"]
    assert (add.status, len(add.in_page), len(add.on_host)) == ("ran", 40, 40)
    assert max(add.on_host) < 1.0  # the 50 ms cold runs are not among them
    assert (cnn.status, cnn.in_page, len(cnn.on_host)) == ("unknown", [], 40)
    assert cnn.flops == pytest.approx(8.07e5, rel=1e-2) and cnn.placed_in_page(1e6) is None and not cnn.placed_in_page(BOUND)


def test_the_bound_rises_to_take_a_graph_the_page_runs_clearly_faster_and_no_further():
    events = _events({"rank6-add": (0.1, 0.4), "embed-int64": (0.2, 0.5),
                      "tiny-cnn": (0.6, 1.0),   # faster in the page: goes there
                      "gru-seq": (3.0, 1.2)})   # slower in the page: stays on the host
    pt = page_tune.tune_page(events, _rules())
    cnn = summarize(load_graph(GRAPHS / "tiny-cnn.json")).flops()
    assert pt.chosen == cnn and pt.override == {"page": {"max_flops": cnn}}
    assert pt.note.startswith(f"[page] max_flops {BOUND:.3g} -> {cnn:.3g}: /app.html tiny-cnn into the page: 0.60x")
    chosen = next(c for c in pt.candidates if c.bound == pt.chosen)
    assert [m.workload.label for m in chosen.moves] == ["tiny-cnn"] and chosen.saved_ms == pytest.approx(40 * 0.4, rel=0.05)
    over = [c for c in pt.candidates if c.bound > cnn]
    assert over and not any(c.eligible for c in over)  # taking gru-seq too would move a graph that is slower there
    # the rules it writes put tiny-cnn in the page and leave gru-seq out
    rules = engine._merge(_rules(), pt.override)
    assert rules["page"]["max_flops"] >= cnn > BOUND
    assert summarize(load_graph(GRAPHS / "gru-seq.json")).flops() > rules["page"]["max_flops"]


def test_the_bound_falls_when_the_host_runs_a_page_graph_clearly_faster():
    events = _events({"rank6-add": (0.1, 0.4), "embed-int64": (0.9, 0.5)}, bound=2.0e5)
    pt = page_tune.tune_page(events, _rules())
    embed = summarize(load_graph(GRAPHS / "embed-int64.json")).flops()
    assert pt.chosen < embed and pt.chosen >= 128  # just under embed-int64: rank6-add stays in the page
    assert pt.note.endswith("/app.html embed-int64 to the host: 0.56x" + pt.note.split("0.56x")[1])


def test_a_gain_inside_the_noise_or_an_unmeasured_graph_keeps_the_bound():
    noisy = _events({"rank6-add": (0.1, 0.4), "tiny-cnn": (0.97, 1.0)})
    pt = page_tune.tune_page(noisy, _rules())
    assert pt.chosen == BOUND and pt.override == {} and pt.note.startswith(f"kept [page] max_flops {BOUND:.3g}")
    assert "not clearly faster there" in pt.note
    # gru-seq runs 3x faster in the page, but tiny-cnn lies between the bound and it, and was recorded only
    # with no page runtime at hand (no refusal among its reasons): where a higher bound puts it is unknown
    unknown = _events({"rank6-add": (0.1, 0.4), "gru-seq": (0.5, 1.5)})
    unknown += [e for e in _events({"tiny-cnn": (None, 1.0)}, bound=1e9) if e["event"] != "context"]
    pt = page_tune.tune_page(unknown, _rules())
    assert pt.override == {} and "its side under this bound is unknown" in pt.note


def test_a_graph_the_page_refused_for_more_than_its_flops_never_moves():
    events = _events({"rank6-add": (0.1, 0.4), "tiny-cnn": (None, 1.0)},
                     refused={"tiny-cnn": "data types int64 not in [page] data_types"})
    pt = page_tune.tune_page(events, _rules())
    ws = {w.label: w for w in pt.workloads}
    assert ws["tiny-cnn"].status == "refused" and pt.override == {}
    assert all(m.workload.label != "tiny-cnn" for c in pt.candidates for m in c.moves)
    assert "host (data types int64 not in [page] data_types)" in "\n".join(page_tune.report_lines(pt))


def test_no_page_times_no_step_and_cpu_time_keeps_the_bound():
    host_only = [e for e in _events({"tiny-cnn": (None, 1.0)})]
    assert page_tune.tune_page(host_only, _rules()) is None
    pt = page_tune.tune_page(_events({"rank6-add": (0.1, 0.4), "tiny-cnn": (0.5, 1.0)}), _rules(), "cpu-time")
    assert pt.override == {} and "latency only" in pt.note


def test_policy_tune_writes_the_bound_and_reports_both_sides(tmp_path, capsys):
    """End to end through the CLI: traces with host dispatches (priced by the matrix as always) and
    the pages' own times; the tuned rules file carries [page] max_flops, the report its table."""
    events = _events({"rank6-add": (0.1, 0.4), "embed-int64": (0.2, 0.5), "tiny-cnn": (0.6, 1.0), "gru-seq": (3.0, 1.2)})
    for ev in [e for e in events if e["event"] == "build" and not e.get("inPage")]:
        g = load_graph(GRAPHS / f"{ev['label']}.json")
        events += [trace.dispatch_event(g, {"ort-cpu": 0.3}, ctx=1, gid=ev["gid"], placement="ort-cpu") for _ in range(3)]
    matrix = {"version": 1, "devices": {"ort-cpu": {}, "ov-cpu": {}},
              "graphs": {summarize(load_graph(GRAPHS / f"{n}.json")).hash: {"label": n, "results": {
                  dev: {"p50": 0.3, "p90": 0.36, "n": 20, "ci95": [0.29, 0.31], "cpu_ms": 0.4} for dev in ("ort-cpu", "ov-cpu")}}
                  for n in NAMES}}
    rules_in = tmp_path / "rules.toml"
    rules_in.write_text(f"[page]\nmax_flops = {BOUND}\n")
    (tmp_path / "t.jsonl").write_text("".join(json.dumps({"v": 1, **e}) + "\n" for e in events))
    (tmp_path / "m.json").write_text(json.dumps(matrix))
    (tmp_path / "devices.json").write_text(json.dumps(TWO_CPUS))
    rc = bridge_cli.main(["policy", "tune", str(tmp_path / "t.jsonl"), "--matrix", str(tmp_path / "m.json"),
                          "--devices", str(tmp_path / "devices.json"), "--rules", str(rules_in),
                          "--out", str(tmp_path / "tuned.toml"), "--report", str(tmp_path / "rep")])
    out = capsys.readouterr().out
    assert rc == 0, out
    cnn = summarize(load_graph(GRAPHS / "tiny-cnn.json")).flops()
    assert f"[page] max_flops {BOUND:.3g} -> {cnn:.3g}" in out
    assert "[page] /app.html tiny-cnn: 8.07e+05 FLOPs; in the page p50 0.600 ms (40 runs), on the host p50 1.001 ms (40 runs)" in out
    tuned = engine.load_rules(tmp_path / "tuned.toml")
    assert tuned["page"]["max_flops"] == cnn and tuned["page"]["max_io_bytes"] == engine.default_rules()["page"]["max_io_bytes"]
    md = (tmp_path / "rep" / "tune.md").read_text()
    assert "## The page's bound ([page] max_flops)" in md and "| /app.html tiny-cnn | 8.07e+05 | 0.600 (40) | 1.001 (40) | 0.60x | host | page |" in md
    # the same traces tuned again from the tuned rules: the bound stays
    result = tune.tune(events, matrix, tuned, parse_profile(TWO_CPUS), base_override={"page": {"max_flops": cnn}})
    assert result["page"].override == {} and result["page"].chosen == cnn


def test_the_refusal_is_read_as_decide_build_writes_it(tmp_path):
    """With a real page device at hand, decide_build's own note says why the page refused a graph:
    over the FLOPs bound only (it may move), or for something else (it never moves)."""
    from webnn_bridge.backends.page import RUNTIME_FILES, page_device

    for f in RUNTIME_FILES:
        (tmp_path / f).write_bytes(b"x")
    from webnn_bridge.policy.inventory import probe_inventory

    page = page_device(tmp_path)
    inv = [d for d in probe_inventory() if d.id == "onnxruntime:CPUExecutionProvider"]  # real: a declared one is simulated
    g = load_graph(GRAPHS / "tiny-cnn.json")
    events = []
    for gid, rules in (("a", _rules()), ("b", {**_rules(1e18), "page": {**_rules(1e18)["page"], "max_constant_bytes": -1}})):
        d = engine.decide_context({}, inv, rules)
        p = engine.decide_build(d, g, inv, rules, page=page)
        assert p.device.id != page.id
        events.append(trace.build_event(g, p, ctx=1, page="/app.html", label="tiny-cnn", gid=gid))
    first, second = (page_tune._refusal(e) for e in events)
    assert first.startswith("FLOPs ") and "max_flops" in first
    assert second.startswith("constant bytes ") and "max_constant_bytes" in second
    (w,) = page_tune.page_workloads(events)
    assert w.status == "refused" and w.why == second


def test_a_p50_under_the_pages_clock_step_is_never_beaten():
    """Chromium's clock counts in 0.1 ms steps: a graph whose page runs read 0 stays in the page,
    however fast the host, and the search does not fail on it."""
    events = _events({"rank6-add": (0.0, 0.05), "embed-int64": (0.2, 0.5)})
    pt = page_tune.tune_page(events, _rules())
    assert pt.override == {}
    moved = [m for c in pt.candidates for m in c.moves if m.workload.label == "rank6-add"]
    assert moved and all(m.problem == "not clearly faster there" and m.ratio == math.inf for m in moved)
    assert "| /app.html rank6-add | 128 | 0.000 (40) | 0.050 (40) | 0.00x | page | page |" in "\n".join(
        page_tune.report_lines(pt))
