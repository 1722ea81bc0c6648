"""Measure where the device exists, model where it is only declared.

``measure(events, ...)`` re-runs every graph a trace recorded (its structure from the build
event's ``ir``, policy/replica.py) on every real device of this machine that runs it whole:
warm-up, then repetitions interleaved across devices (a busy machine slows every device alike),
until ``reps`` or the time budget. Per (graph, device): p50, p90, n, a 95% confidence interval of
the p50 (order statistics), and the process CPU time per dispatch (all threads: the energy proxy
on a CPU). The result is a *matrix* (JSON, ``write_matrix``; read with matrix.read_matrix).
workbench/insitu.py (``--browser chromium``) writes the same matrix timed where pages run the graphs.

``calibrate(...)`` times a standard micro-benchmark set per real backend and operator class
(convolution, matmul, elementwise, reduction, data movement, normalization, recurrent): a fixed
cost per dispatch, and per node a fixed cost plus a cost per unit of work (FLOPs for
convolution/matmul/recurrent, bytes for the rest). ``matrix.modelled_latency_ms`` prices a graph on a
calibrated backend from it. Devices that are only declared (inventory fixtures) are priced by the
static cost model (policy/qos.py, rules.toml [perf.*] and the profile's perf hints: documented
figures, not measurements). Every number says which it is: measured, recorded or modelled.
"""

from __future__ import annotations

import datetime
import json
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from webnn_bridge.backends.base import Device
from webnn_bridge.policy.graphs import GraphSummary, summarize
from webnn_bridge.policy.matrix import FLOP_CLASSES, MATRIX_VERSION, OP_CLASSES, node_work, stats

# --------------------------------------------------------------------------- running graphs


def real_devices(inventory: Sequence[Device] | None = None) -> list[Device]:
    """The devices of this machine that really execute (no declared/simulated ones, no numpy reference)."""
    from webnn_bridge.policy.inventory import is_simulated, probe_inventory

    inv = probe_inventory() if inventory is None else list(inventory)
    return [d for d in inv if not is_simulated(d) and d.backend != "reference"]


def _runs_whole(summary: GraphSummary, device: Device) -> str | None:
    from webnn_bridge.backends.capabilities import graph_issues
    from webnn_bridge.policy.inventory import capabilities_of

    issues = [i for node_issues in graph_issues(summary.nodes, capabilities_of(device)) for i in node_issues]
    return "; ".join(dict.fromkeys(issues))[:200] if issues else None


def _timed(compiled, inputs) -> tuple[float, float]:
    c0, t0 = time.process_time(), time.perf_counter()
    compiled.run(inputs)
    return (time.perf_counter() - t0) * 1e3, (time.process_time() - c0) * 1e3


def _progress(out, i: int, total: int, text: str) -> None:
    if out is None:
        return
    width = 24
    done = int(width * i / max(1, total))
    out.write(f"\r[{'#' * done}{'.' * (width - done)}] {i}/{total} {text[:70]:<70}")
    if i == total:
        out.write("\n")
    out.flush()


BLOCK = 5  # timed runs per device before switching to the next one
SETTLE_S = 0.005  # a pause at each switch: the previous runtime's pool threads stop spinning


IDLE_MAX_S = 0.05  # the longest idle gap repeated before a timed run (a longer one is timed as this)


def recorded_idle_ms(events: Sequence[Mapping], h: str) -> float:
    """The median time the pages' contexts sat idle before a dispatch of graph ``h`` (the trace's
    ``idleMs``; 0 when it has none, as traces before it: runs back to back)."""
    gaps = [float(ev["idleMs"]) for ev in events if ev.get("event") == "dispatch" and "idleMs" in ev
            and isinstance(ev.get("graph"), Mapping) and ev["graph"].get("hash") == h]
    return statistics.median(gaps) if gaps else 0.0


def run_interleaved(compiled: Mapping[str, Any], inputs, *, reps: int, seconds: float, warmup: int = 3,
                    min_reps: int = 5, idle_s: float = 0.0) -> dict[str, dict]:
    """Time each compiled graph (by device id) in interleaved blocks of BLOCK runs (each block
    after one untimed run and a short pause, so that one runtime's threads never compete with
    another's, as in a host where a graph runs on one backend): warm-up runs first, then up to
    ``reps`` runs per device or until ``seconds`` are spent (at least ``min_reps``). ``idle_s``:
    an idle gap before each timed run, the pages' own cadence (a runtime is slower after a gap:
    its threads fall asleep and its caches go cold; back-to-back runs would flatter it)."""
    idle_s = min(max(0.0, idle_s), IDLE_MAX_S)
    wall: dict[str, list[float]] = {d: [] for d in compiled}
    cpu: dict[str, list[float]] = {d: [] for d in compiled}
    for c in compiled.values():
        for _ in range(warmup):
            c.run(inputs)
    start = time.perf_counter()
    done = 0
    while done < reps:
        block = min(BLOCK, reps - done)
        for dev, c in compiled.items():
            time.sleep(SETTLE_S)
            c.run(inputs)
            for _ in range(block):
                if idle_s:
                    time.sleep(idle_s)
                w, u = _timed(c, inputs)
                wall[dev].append(w)
                cpu[dev].append(u)
        done += block
        if done >= min_reps and time.perf_counter() - start > seconds:
            break
    out = {}
    for dev in compiled:
        s = stats(wall[dev])
        s["cpu_ms"] = statistics.median(cpu[dev])
        s["warmup"] = warmup
        s["idle_ms"] = round(idle_s * 1e3, 3)
        out[dev] = s
    return out


# thread counts `policy measure` also tries (opt-in: --threads 1). Off by default: measured
# 2026-11-25, one-thread modes priced in-process won routes that re-ran 15% slower than ONNX
# Runtime first on the bench_policy pages (the in-process timings of small graphs do not match
# the host's yet), so the default search keeps the backends' own threading.
CPU_MODES: tuple[int, ...] = ()


def plan(events: Sequence[Mapping], devs: Sequence[Device]) -> tuple[dict[str, dict], dict[str, Mapping], list[str]]:
    """(the matrix's graphs by hash, each one's structure from its build event, the hashes to
    time): a graph whose build carries no structure is skipped on every device, saying so."""
    from .trace import workloads

    if not devs:
        raise ValueError("this machine has no real device to measure on")
    structures: dict[str, Mapping] = {}
    for ev in events:
        if ev.get("event") == "build" and isinstance(ev.get("ir"), Mapping):
            structures.setdefault(summarize(ev["graph"]).hash, ev["ir"])
    graphs: dict[str, dict] = {}
    for w in workloads(events):
        h = summarize(w.graph).hash
        g = graphs.setdefault(h, {"label": w.name, "nodes": len(w.graph.get("nodes", [])), "results": {},
                                  "skipped": {}})
        if h not in structures:
            g["skipped"] = {d.id: "the trace has no structure (ir) for this graph" for d in devs}
    todo = [h for h in graphs if h in structures]
    if not todo:
        raise ValueError("no graph in the trace carries its structure (record it with `webnn-bridge serve --trace`)")
    return graphs, structures, todo


def measure(events: Sequence[Mapping], *, devices: Sequence[Device] | None = None, seconds: float = 60.0,
            reps: int = 50, warmup: int = 3, progress=sys.stderr,
            constants: Callable[[str], bytes | None] | None = None, modes: Sequence[int] = CPU_MODES) -> dict:
    """The measurement matrix of every graph the trace built (see the module doc). ``constants``:
    bytes by SHA-256 (replica.store_constants); a constant it lacks gets deterministic data.
    ``modes``: CPU modes (intra-op thread counts) also timed on the CPUs whose backend takes one,
    under the placement keys replay uses ("<device id>@threads=<n>")."""
    from webnn_bridge.backends import backend_for
    from webnn_bridge.policy.inventory import takes_cpu_modes
    from webnn_bridge.policy.replica import inputs_for, ir_from_json

    from .trace import MODE_MARK

    devs = real_devices(devices)
    graphs, structures, todo = plan(events, devs)
    per_graph = seconds / len(todo)
    for i, h in enumerate(todo):
        g = graphs[h]
        summary = summarize(_summary_of(events, h))
        _progress(progress, i, len(todo), f"{g['label']}: compiling")
        ir = ir_from_json(structures[h], constants)
        g["constants"] = {"stored": sum(1 for sha in structures[h].get("constants", {}).values()
                                        if constants is not None and constants(sha) is not None),
                          "total": len(structures[h].get("constants", {}))}
        compiled: dict[str, Any] = {}
        compile_ms: dict[str, float] = {}
        for d in devs:
            why = _runs_whole(summary, d)
            if why:
                g["skipped"][d.id] = f"does not run the whole graph: {why}"
                continue
            variants = [(d.id, d)] + ([(f"{d.id}{MODE_MARK}{n}", replace(d, threads=n)) for n in modes]
                                      if takes_cpu_modes(d) else [])
            for key, dv in variants:
                try:
                    t0 = time.perf_counter()
                    compiled[key] = backend_for(dv).compile(ir, dv)
                    compile_ms[key] = (time.perf_counter() - t0) * 1e3  # what a build pays once, cold
                except Exception as e:  # a runtime that fails on this graph: skipped, said why
                    g["skipped"][key] = f"compile failed: {type(e).__name__}: {str(e)[:120]}"
        inputs = inputs_for(ir)
        try:
            if compiled:
                _progress(progress, i, len(todo), f"{g['label']}: timing on {', '.join(compiled)}")
                g["results"] = run_interleaved(compiled, inputs, reps=reps, seconds=per_graph, warmup=warmup,
                                               idle_s=recorded_idle_ms(events, h) / 1e3)
                for key, ms in compile_ms.items():
                    if key in g["results"]:
                        g["results"][key]["compile_ms"] = round(ms, 3)
        finally:
            for c in compiled.values():
                c.close()
        _progress(progress, i + 1, len(todo), g["label"])
    return {
        "version": MATRIX_VERSION,
        "what": "webnn-bridge policy measure: ms per dispatch on this machine's real devices",
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "seconds": seconds,
        "devices": {d.id: {"kind": d.kind, "backend": d.backend, "name": d.name} for d in devs},
        "modes": sorted({int(n) for n in modes}),
        "graphs": graphs,
    }


def _summary_of(events: Sequence[Mapping], h: str) -> Mapping:
    for ev in events:
        if ev.get("event") == "build" and summarize(ev["graph"]).hash == h:
            return ev["graph"]
    raise KeyError(h)


# --------------------------------------------------------------------------- matrix files


def write_matrix(matrix: Mapping, path: str | Path) -> Path:
    p = Path(path)
    if p.parent and not p.parent.exists():
        p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(json.dumps(matrix, indent=1, sort_keys=True), encoding="utf-8")
    return p


# --------------------------------------------------------------------------- calibration


def _micro_graphs() -> dict[str, list[tuple[str, Any]]]:
    """Per op class, a small and a large one-node graph (GraphIR), built through the Python API."""
    from webnn_bridge.bridge.api import ML, MLGraphBuilder
    from webnn_bridge.policy.inventory import REFERENCE_CPU

    ml = ML([REFERENCE_CPU])
    out: dict[str, list[tuple[str, Any]]] = {}

    def build(fn) -> Any:
        ctx = ml.createContext({})
        b = MLGraphBuilder(ctx)
        y = fn(b)
        return b._collect({"y": y})

    def f32(b, name, shape):
        return b.input(name, {"dataType": "float32", "shape": list(shape)})

    def const(b, shape):
        import numpy as np

        return b.constant({"dataType": "float32", "shape": list(shape)},
                          (np.random.default_rng(1).standard_normal(shape) * 0.1).astype("float32"))

    for size, (c, hw) in (("small", (8, 16)), ("large", (32, 56))):
        out.setdefault("convolution", []).append((size, build(
            lambda b, c=c, hw=hw: b.conv2d(f32(b, "x", (1, c, hw, hw)), const(b, (c, c, 3, 3)), padding=[1, 1, 1, 1]))))
    for size, n in (("small", 32), ("large", 384)):
        out.setdefault("matmul", []).append((size, build(lambda b, n=n: b.matmul(f32(b, "a", (n, n)), const(b, (n, n))))))
    for size, n in (("small", 64), ("large", 1024)):
        out.setdefault("elementwise", []).append((size, build(
            lambda b, n=n: b.add(f32(b, "a", (n, n)), f32(b, "b", (n, n))))))
        out.setdefault("reduction", []).append((size, build(
            lambda b, n=n: b.reduceMean(f32(b, "a", (n, n)), axes=[1]))))
        out.setdefault("data-movement", []).append((size, build(
            lambda b, n=n: b.transpose(f32(b, "a", (n, n))))))
        out.setdefault("normalization", []).append((size, build(
            lambda b, n=n: b.layerNormalization(f32(b, "a", (n, n)), axes=[1]))))
    for size, (steps, hidden) in (("small", (4, 16)), ("large", (32, 128))):
        out.setdefault("recurrent", []).append((size, build(
            lambda b, s=steps, h=hidden: b.gru(f32(b, "x", (s, 1, h)), const(b, (1, 3 * h, h)), const(b, (1, 3 * h, h)),
                                               s, h)[0])))
    out["dispatch"] = [("tiny", build(lambda b: b.relu(f32(b, "a", (1,)))))]
    return out


def calibrate(*, devices: Sequence[Device] | None = None, seconds: float = 30.0, reps: int = 40,
              progress=sys.stderr) -> dict:
    """Per real backend: dispatch_ms, and per op class ms per node and ms per unit of work."""
    from webnn_bridge.backends import backend_for
    from webnn_bridge.policy.replica import inputs_for

    devs = real_devices(devices)
    micro = _micro_graphs()
    jobs = [(cls, size, ir) for cls, items in micro.items() for size, ir in items]
    per_job = seconds / max(1, len(jobs))
    timings: dict[str, dict[tuple[str, str], float]] = {d.id: {} for d in devs}
    for i, (cls, size, ir) in enumerate(jobs):
        _progress(progress, i, len(jobs), f"{cls} ({size})")
        summary = summarize(ir)
        compiled = {}
        for d in devs:
            if _runs_whole(summary, d) is None:
                try:
                    compiled[d.id] = backend_for(d).compile(ir, d)
                except Exception:
                    continue
        try:
            res = run_interleaved(compiled, inputs_for(ir), reps=reps, seconds=per_job) if compiled else {}
        finally:
            for c in compiled.values():
                c.close()
        for dev, r in res.items():
            timings[dev][(cls, size)] = r["p50"]
        _progress(progress, i + 1, len(jobs), f"{cls} ({size})")
    work = {(cls, size): sum(node_work(n) for n in summarize(ir).nodes) for cls, size, ir in jobs}
    out: dict[str, dict] = {}
    for d in devs:
        t = timings[d.id]
        dispatch = t.get(("dispatch", "tiny"))
        if dispatch is None:
            continue
        classes = {}
        for cls in OP_CLASSES:
            if (cls, "small") not in t or (cls, "large") not in t:
                continue
            ws, wl = work[(cls, "small")], work[(cls, "large")]
            ts, tl = max(0.0, t[(cls, "small")] - dispatch), max(0.0, t[(cls, "large")] - dispatch)
            slope = max(0.0, (tl - ts) / (wl - ws)) if wl > ws else 0.0
            classes[cls] = {"ms_per_node": max(0.0, ts - slope * ws), "ms_per_unit": slope,
                            "unit": "flop" if cls in FLOP_CLASSES else "byte"}
        out[d.backend + ":" + d.kind] = {"device": d.id, "dispatch_ms": dispatch, "classes": classes}
    return {"what": "webnn-bridge policy calibrate: per backend and op class, measured on this machine",
            "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            "backends": out}
