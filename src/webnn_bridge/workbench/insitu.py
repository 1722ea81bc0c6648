"""`policy measure --browser chromium`: time every recorded graph where pages run it, through a page.

``measure`` (workbench/measure.py) times a compiled graph in this process. A page's dispatch runs
elsewhere: in the host, between the page's writes and reads, beside a browser that shares the
machine's cores. Backends do not suffer alike there (measured 2026-11-26 on the 2-core machine:
ONNX Runtime's statically split thread pool ran the 512x512 matmul 15 to 50% slower in the host
than in-process; the in-process figure under-predicted it). This mode measures the same quantity
a trace records instead, where it arises:

- one host per real device of this machine, its inventory that device alone, so that every
  context and build lands on it (the device selection is not what is measured);
- one Chromium page per host (Playwright, Debian's Chromium) rebuilds each recorded graph from its
  structure through the shim's MLGraphBuilder (constants from the host's store where given, else
  replica's deterministic data; inputs deterministic), then runs blocks of write inputs, dispatch,
  read every output, pausing so that the host sits idle before each dispatch for the trace's
  median idle time (what the page's own round trip leaves idle is measured first and counted);
- the timing is the host's own dispatch latency (the observer hook a trace records with), in
  blocks interleaved across the devices; the CPU time is the host process's per dispatch.

The result is a matrix in ``measure``'s format (``"method": "browser"``), so replay and tune read
it unchanged. CPU modes (``--threads``) are not measured this way: a page cannot ask for them.
"""

from __future__ import annotations

import contextlib
import datetime
import sys
import tempfile
import threading
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from webnn_bridge.backends.base import Device
from webnn_bridge.ops.calls import positional_args
from webnn_bridge.policy.graphs import summarize
from webnn_bridge.policy.matrix import MATRIX_VERSION, stats

from .measure import (
    BLOCK,
    IDLE_MAX_S,
    SETTLE_S,
    _progress,
    _runs_whole,
    _summary_of,
    plan,
    real_devices,
    recorded_idle_ms,
)

PAGE = r"""<!doctype html><meta charset="utf-8"><title>webnn-bridge policy measure</title>
<p>policy measure: recorded graphs rebuilt and run through the shim</p>
<script>
'use strict';
const fetched = async (url) => (await fetch(url)).arrayBuffer();
const desc = ([dataType, shape]) => ({dataType, shape});
// the structure's values: {"$ref": id} an operand, {"$list": [...]} a sequence of operands
const value = (v, ops) => Array.isArray(v) ? v.map((x) => value(x, ops))
  : v !== null && typeof v === 'object'
    ? ('$ref' in v ? ops[v.$ref] : '$list' in v ? v.$list.map((x) => value(x, ops))
      : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, value(x, ops)])))
    : v;
window.graphs = {};
window.setUp = async (key, spec) => {
  const context = await navigator.ml.createContext({});
  const b = new MLGraphBuilder(context);
  const ops = {};
  for (const [name, id] of Object.entries(spec.inputs)) ops[id] = b.input(name, desc(spec.operands[id]));
  for (const [id, url] of Object.entries(spec.constants)) ops[id] = b.constant(desc(spec.operands[id]), await fetched(url));
  for (const n of spec.nodes) {
    const args = value(n.args, ops);
    const options = value(n.options, ops);
    const r = b[n.op](...args, ...(options && Object.keys(options).length ? [options] : []));
    const outs = Array.isArray(r) ? r : [r];
    n.outputs.forEach((id, i) => { ops[id] = outs[i]; });
  }
  const outputs = Object.fromEntries(Object.entries(spec.outputs).map(([name, id]) => [name, ops[id]]));
  const graph = await b.build(outputs);
  const ins = {}, outs = {}, data = {};
  for (const [name, id] of Object.entries(spec.inputs)) {
    ins[name] = await context.createTensor({...desc(spec.operands[id]), writable: true});
    data[name] = await fetched(spec.inputData[name]);
  }
  for (const [name, id] of Object.entries(spec.outputs)) {
    outs[name] = await context.createTensor({...desc(spec.operands[id]), readable: true});
  }
  window.graphs[key] = {context, graph, ins, outs, data};
};
// n runs as a page runs a model: its inputs written, a dispatch, every output read
window.runBlock = async (key, n, idleMs) => {
  const {context, graph, ins, outs, data} = window.graphs[key];
  const times = [];
  for (let i = 0; i < n; i++) {
    if (idleMs > 0) await new Promise((r) => setTimeout(r, idleMs));
    const t0 = performance.now();
    for (const [name, t] of Object.entries(ins)) context.writeTensor(t, data[name]);
    context.dispatch(graph, ins, outs);
    await Promise.all(Object.values(outs).map((t) => context.readTensor(t)));
    times.push(performance.now() - t0);
  }
  return times;
};
window.tearDown = (key) => {
  const g = window.graphs[key];
  delete window.graphs[key];
  g.graph.destroy();
  for (const t of [...Object.values(g.ins), ...Object.values(g.outs)]) t.destroy();
};
</script>
"""


def page_spec(structure: Mapping, files: Path, prefix: str,
              constants: Callable[[str], bytes | None] | None = None) -> tuple[dict, int]:
    """What the page rebuilds a graph from: the trace's structure, with each constant's and each
    input's bytes written under ``files`` (served as ``prefix``/...). Returns (spec, constants
    found in the store)."""
    from webnn_bridge.policy.replica import inputs_for, ir_from_json

    ir = ir_from_json(structure, constants)
    files.mkdir(parents=True, exist_ok=True)
    spec = {"operands": structure["operands"], "inputs": structure["inputs"], "outputs": structure["outputs"],
            "nodes": [{**n, "args": positional_args(n["op"], n["args"])} for n in structure["nodes"]],
            "constants": {}, "inputData": {}}
    stored = 0
    for oid, sha in structure["constants"].items():
        raw = constants(sha) if constants is not None else None
        stored += raw is not None
        (files / f"c{oid}.bin").write_bytes(np.ascontiguousarray(ir.constants[int(oid)]).tobytes())
        spec["constants"][oid] = f"{prefix}/c{oid}.bin"
    for k, (name, data) in enumerate(sorted(inputs_for(ir).items())):
        (files / f"i{k}.bin").write_bytes(np.ascontiguousarray(data).tobytes())
        spec["inputData"][name] = f"{prefix}/i{k}.bin"
    return spec, stored


class _Latencies:
    """A host's observer: every dispatch its pages make, as (device, graph hash, ms, idle ms before
    it: from the end of the graph's previous dispatch, on the host's clock, as traces take idleMs)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.ms: list[tuple[str | None, str, float, float | None]] = []
        # per graph object (weakly: a freed graph's id() is reused by the next one): its structure
        # hash (taken once) and when its latest dispatch ended (monotonic s)
        self.hashes: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self.ended: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def __call__(self, event: str, facts: Mapping[str, Any]) -> None:
        if event != "dispatch" or not isinstance(facts.get("latencyMs"), (int, float)):
            return
        now = time.monotonic()
        graph = facts.get("graph")
        p = getattr(graph, "placement", None)
        dev = p.device.id if p is not None and len(p.partitions()) <= 1 else None
        ms = float(facts["latencyMs"])
        with self.lock:
            h = self.hashes.get(graph)
            if h is None:
                h = self.hashes[graph] = summarize(getattr(graph, "ir", graph)).hash
            prev = self.ended.get(graph)
            self.ended[graph] = now
            idle = None if prev is None else max(0.0, (now - prev) * 1e3 - ms)
            self.ms.append((dev, h, ms, idle))

    def take(self) -> list[tuple[str | None, str, float, float | None]]:
        with self.lock:
            out, self.ms = self.ms, []
        return out


def measure_in_browser(events: Sequence[Mapping], *, devices: Sequence[Device] | None = None,
                       seconds: float = 60.0, reps: int = 50, warmup: int = 3, progress=sys.stderr,
                       constants: Callable[[str], bytes | None] | None = None,
                       executable: str | None = None, browser=None) -> dict:
    """``measure``'s matrix, timed through Chromium pages and hosts (see the module doc).
    ``browser``: a Playwright Chromium browser to open the pages in (a caller's own sync Playwright
    session; one cannot be nested in another); by default one is launched and closed here."""
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    from webnn_bridge.backends.cache import CompileCache
    from webnn_bridge.bridge.api import ML
    from webnn_bridge.bridge.embed import CHROMIUM, CHROMIUM_ARGS, start_host

    devs = real_devices(devices)
    chromium = executable or CHROMIUM
    if browser is None and not Path(chromium).exists():
        raise ValueError(f"--browser chromium needs Chromium at {chromium} (Debian: apt-get install -y chromium)")
    graphs, structures, todo = plan(events, devs)
    per_graph = seconds / len(todo)
    with tempfile.TemporaryDirectory(prefix="webnn-measure-") as tmp, contextlib.ExitStack() as stack:
        app = Path(tmp)
        (app / "measure.html").write_text(PAGE)
        observers = {d.id: _Latencies() for d in devs}
        hosts = {}
        contexts = []
        if browser is None:
            pw = stack.enter_context(sync_playwright())
            browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS, headless=True)
            stack.callback(browser.close)
        try:
            pages = {}
            for d in devs:  # a host per device, whose inventory is that device alone
                hosts[d.id] = start_host(app_dir=app, observer=observers[d.id],
                                         ml_factory=lambda d=d: ML([d], compile_cache=CompileCache()))
                contexts.append(browser.new_context())
                pages[d.id] = contexts[-1].new_page()
                pages[d.id].set_default_timeout(600_000)
                pages[d.id].goto(f"{hosts[d.id].url}/measure.html")
            for i, h in enumerate(todo):
                g = graphs[h]
                summary = summarize(_summary_of(events, h))
                _progress(progress, i, len(todo), f"{g['label']}: building in the pages")
                try:
                    spec, stored = page_spec(structures[h], app / f"g{i}", f"/g{i}", constants)
                except ValueError as e:  # a structure no builder call can replay: this graph only
                    g["skipped"] = {d.id: f"its structure cannot be rebuilt: {str(e)[:160]}" for d in devs}
                    _progress(progress, i + 1, len(todo), g["label"])
                    continue
                g["constants"] = {"stored": stored, "total": len(structures[h].get("constants", {}))}
                ready = []
                for d in devs:
                    why = _runs_whole(summary, d)
                    if why:
                        g["skipped"][d.id] = f"does not run the whole graph: {why}"
                        continue
                    try:
                        pages[d.id].evaluate("([k, s]) => window.setUp(k, s)", [h, spec])
                    except PlaywrightError as e:
                        g["skipped"][d.id] = f"the page could not build it: {str(e).splitlines()[0][:160]}"
                        continue
                    ready.append(d)
                if ready:
                    _progress(progress, i, len(todo), f"{g['label']}: timing on {', '.join(d.id for d in ready)}")
                    g["results"] = _interleaved(ready, pages, observers, h, reps=reps, seconds=per_graph,
                                                warmup=warmup, idle_s=recorded_idle_ms(events, h) / 1e3)
                    for d in ready:
                        if g["results"].get(d.id) is None:
                            g["results"].pop(d.id, None)
                            g["skipped"][d.id] = ("the host placed it on another device, partitioned it, or the "
                                                  "page's graph is not the recorded one (its structure hash differs)")
                        pages[d.id].evaluate("(k) => window.tearDown(k)", h)
                _progress(progress, i + 1, len(todo), g["label"])
        finally:
            for c in contexts:
                c.close()
            for host in hosts.values():
                host.stop()
    return {
        "version": MATRIX_VERSION,
        "what": "webnn-bridge policy measure --browser chromium: the host's ms per dispatch of pages on this "
                "machine's real devices",
        "method": "browser",
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "seconds": seconds,
        "devices": {d.id: {"kind": d.kind, "backend": d.backend, "name": d.name} for d in devs},
        "modes": [],
        "graphs": graphs,
    }


def _interleaved(devs: Sequence[Device], pages: Mapping, observers: Mapping[str, _Latencies], key: str, *,
                 reps: int, seconds: float, warmup: int, idle_s: float) -> dict[str, dict | None]:
    """Blocks of BLOCK page runs per device in turn (run_interleaved's schedule, through the pages,
    each block after a pause and one untimed run):
    the host-side latency of each dispatch, the host process's CPU time per dispatch, and the
    page's own time per run (dispatch to every output read) beside them."""
    target = min(max(0.0, idle_s), IDLE_MAX_S) * 1e3
    wall: dict[str, list[float]] = {d.id: [] for d in devs}
    cpu: dict[str, list[float]] = {d.id: [] for d in devs}
    page_ms: dict[str, list[float]] = {d.id: [] for d in devs}
    idle: dict[str, list[float]] = {d.id: [] for d in devs}
    where: dict[str, set] = {d.id: set() for d in devs}
    pause: dict[str, float] = {}
    for d in devs:
        pages[d.id].evaluate("([k, n]) => window.runBlock(k, n, 0)", [key, max(4, warmup)])
        # the host already idles between a page's runs (the replies and the next inputs in
        # transit): the page pauses only for what the recorded idle time has beyond that
        natural = [i for *_, i in observers[d.id].take() if i is not None]
        pause[d.id] = max(0.0, target - (float(np.median(natural)) if natural else 0.0))
    start = time.perf_counter()
    done = 0
    while done < reps:
        block = min(BLOCK, reps - done)
        for d in devs:
            # as run_interleaved: at each switch a pause (the previous runtime's threads stop
            # spinning) and one untimed run (this one's threads wake up)
            time.sleep(SETTLE_S)
            pages[d.id].evaluate("([k, n]) => window.runBlock(k, n, 0)", [key, 1])
            observers[d.id].take()
            c0 = time.process_time()
            page_ms[d.id] += pages[d.id].evaluate("([k, n, idle]) => window.runBlock(k, n, idle)",
                                                  [key, block, pause[d.id]])
            runs = observers[d.id].take()
            cpu[d.id].append((time.process_time() - c0) * 1e3 / max(1, len(runs)))
            wall[d.id] += [ms for _, _, ms, _ in runs]
            achieved = [i for *_, i in runs if i is not None]
            idle[d.id] += achieved
            if achieved and target > 0:  # the round trip's share drifts: the pause follows it
                pause[d.id] = max(0.0, pause[d.id] + target - float(np.median(achieved)))
            where[d.id] |= {(dev, h) for dev, h, _, _ in runs}
        done += block
        if done >= 5 and time.perf_counter() - start > seconds:
            break
    out: dict[str, dict | None] = {}
    for d in devs:
        if not wall[d.id] or where[d.id] != {(d.id, key)}:
            out[d.id] = None  # placed elsewhere, partitioned, or not the recorded graph: not its latency
            continue
        s = stats(wall[d.id])
        s["cpu_ms"] = float(np.median(cpu[d.id]))
        s["warmup"] = warmup
        s["idle_ms"] = round(float(np.median(idle[d.id])), 3) if idle[d.id] else round(target, 3)  # as achieved
        s["page_p50"] = float(np.median(page_ms[d.id]))
        out[d.id] = s
    return out

