"""Traces a tuner can use, recorded through a real page: the page's path, the graph's label and
structure per build, and the page-side latency the shim measures (dispatch to read resolved)."""

from __future__ import annotations

import time

from webnn_bridge.workbench.trace import read_trace, workloads


def test_a_real_page_records_its_path_label_and_page_side_latency(host, page, trace_path):
    page.goto(f"{host.url}/basic.html?run=policy-trace")
    for _ in range(3):
        r = page.evaluate("() => window.runBasic([1, -2, 3, -4, 5, -6], [0, 0, 0, 0, 0, 0])")
        assert r["result"] == [1, 0, 3, 0, 5, 0]
    # the pageLatency messages are fire-and-forget: the last one may still be on its way to the host
    for _ in range(100):
        events = read_trace(trace_path)
        gids = {e["gid"] for e in events if e["event"] == "build" and e.get("page") == "/basic.html"}
        if len([e for e in events if e["event"] == "pageLatency" and e["gid"] in gids]) >= 3:
            break
        time.sleep(0.05)
    builds = [e for e in events if e["event"] == "build" and e.get("page") == "/basic.html" and e["label"] == "out[2 ops]"]
    assert len(builds) >= 3, "the build events name the page's path (never its query) and the graph's outputs"
    assert all([n["op"] for n in b["ir"]["nodes"]] == ["add", "relu"] for b in builds)
    gids = {b["gid"] for b in builds}
    page_ms = [e["ms"] for e in events if e["event"] == "pageLatency" and e["gid"] in gids]
    dispatches = [e for e in events if e["event"] == "dispatch" and e.get("gid") in gids]
    assert len(page_ms) >= 3 and len(dispatches) >= 3  # one page-side latency per dispatch that was read
    assert all(0 <= ms < 60_000 for ms in page_ms)
    w = [w for w in workloads(events) if w.name == "/basic.html out[2 ops]"]
    assert w and sum(x.dispatches for x in w) >= 3 and sum(len(x.page_ms) for x in w) >= 3
