"""Policy traces (JSONL) for tuning, and replay of a trace under two rule sets.

One JSON object per line. Event types and their fields:

    {"v": 1, "event": "context",  "ctx": ID, "options": {...}, "decision": Decision.to_dict()}
    {"v": 1, "event": "build",    "ctx": ID, "options": {...}, "graph": GraphSummary.to_dict(),
                                  "decision": Placement.to_dict()}
    {"v": 1, "event": "dispatch", "ctx": ID, "graph": {"hash": H}, "device": DEVICE_ID,
                                  "latencyMs": {DEVICE_ID: ms, ...}}

``graph`` summaries hold op counts, data types, sizes, a stable hash and the node list (op and
operand types/shapes), never tensor values. Traces stay on the host: they name device ids and
hold exact timings, which pages must never see.

``replay(events, rules_a, rules_b, inventory)`` re-decides every recorded context + build with
each rule set and compares the chosen device and the latency: the recorded one when the trace
measured that device for that graph, else the cost-model estimate (policy/qos.py).
"""

from __future__ import annotations

import csv
import json
import statistics
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webnn_bridge.backends.base import Device
from webnn_bridge.ops.core import NotSupportedError

from .graphs import summarize

VERSION = 1


def _json_default(o: Any):
    if isinstance(o, (set, frozenset, tuple)):
        return list(o)
    if hasattr(o, "to_dict"):
        return o.to_dict()
    if hasattr(o, "item"):  # numpy scalars
        return o.item()
    return str(o)


class TraceWriter:
    """Appends events to a JSONL file; ``record`` is safe to call from several threads."""

    def __init__(self, path: str | Path, *, mode: str = "a"):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._fh = open(self.path, mode, encoding="utf-8")  # noqa: SIM115 - closed in close()

    def record(self, event: Mapping[str, Any]) -> None:
        ev = {"v": VERSION, **event}
        line = json.dumps(ev, sort_keys=True, separators=(",", ":"), default=_json_default)
        with self._lock:
            if self._fh.closed:
                raise ValueError("trace writer is closed")
            self._fh.write(line + "\n")
            self._fh.flush()

    def close(self) -> None:
        with self._lock:
            if not self._fh.closed:
                self._fh.close()

    def __enter__(self) -> TraceWriter:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def read_trace(path: str | Path) -> list[dict]:
    """Every event of a JSONL trace. A truncated last line (a crash mid-write) is skipped; any
    other malformed line raises ValueError."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    events = []
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            ev = json.loads(line)
        except json.JSONDecodeError as e:
            if i == len(lines) - 1:
                break
            raise ValueError(f"{path}:{i + 1}: not JSON: {e}") from None
        problem = event_problem(ev)
        if problem:
            raise ValueError(f"{path}:{i + 1}: {problem}")
        events.append(ev)
    return events


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0


def event_problem(ev: Any) -> str | None:
    """Why ``ev`` is not a well-formed trace event (see the module doc), or None."""
    if not isinstance(ev, dict) or "event" not in ev:
        return "not a trace event"
    kind = ev["event"]
    graph = ev.get("graph")
    if kind == "context":
        ok = isinstance(ev.get("options", {}), dict) and isinstance(ev.get("decision", {}), dict)
        return None if ok else "context event: options and decision must be objects"
    if kind == "build":
        if not isinstance(graph, dict) or not isinstance(graph.get("nodes"), list):
            return "build event: graph must be a graph summary with nodes"
        return None if isinstance(ev.get("options", {}), dict) else "build event: options must be an object"
    if kind == "dispatch":
        lat = ev.get("latencyMs")
        if not isinstance(graph, dict) or not isinstance(graph.get("hash"), str):
            return "dispatch event: graph.hash must be a string"
        if not isinstance(lat, dict) or not all(_is_number(v) for v in lat.values()):
            return "dispatch event: latencyMs must map device ids to non-negative numbers"
        return None
    return f"unknown event type {kind!r}"


# --------------------------------------------------------------------------- event builders


def context_event(options: Mapping, decision, *, ctx: Any = None) -> dict:
    return {"event": "context", "ctx": ctx, "options": dict(options or {}), "decision": decision.to_dict()}


def build_event(graph, placement=None, *, ctx: Any = None, options: Mapping | None = None) -> dict:
    ev: dict = {"event": "build", "ctx": ctx, "graph": summarize(graph).to_dict()}
    if options is not None:
        ev["options"] = dict(options)
    if placement is not None:
        ev["decision"] = placement.to_dict()
    return ev


def dispatch_event(graph, latency_ms: Mapping[str, float], *, ctx: Any = None, device: str | None = None) -> dict:
    h = graph if isinstance(graph, str) else summarize(graph).hash
    ev = {"event": "dispatch", "ctx": ctx, "graph": {"hash": h}, "latencyMs": {k: float(v) for k, v in latency_ms.items()}}
    if device is not None:
        ev["device"] = device
    return ev


class SessionTracer:
    """An observer for bridge.session.Session(observer=...): turns its (event, facts) callbacks
    into trace events. Duck-typed (no bridge import). A dispatch is timed only when the facts
    carry "latencyMs" (a number, or {device id: ms})."""

    def __init__(self, writer: TraceWriter):
        self.writer = writer

    def __call__(self, event: str, facts: Mapping[str, Any]) -> None:
        if event == "createContext":
            d = facts.get("decision")
            ctx = id(facts.get("context")) if facts.get("context") is not None else None
            self.writer.record(context_event(facts.get("options", {}), d, ctx=ctx) if d is not None else
                               {"event": "context", "options": facts.get("options", {})})
        elif event == "build":
            g, c = facts.get("graph"), facts.get("context")
            ir = getattr(g, "ir", g)
            self.writer.record(build_event(ir, getattr(g, "placement", None), ctx=id(c) if c is not None else None,
                                           options=getattr(c, "options", None)))
        elif event == "dispatch":
            g, c = facts.get("graph"), facts.get("context")
            ms = facts.get("latencyMs")
            if ms is None:
                return
            dev = getattr(getattr(c, "exec_device", None), "id", None) or "unknown"
            latency = ms if isinstance(ms, Mapping) else {dev: float(ms)}
            self.writer.record(dispatch_event(getattr(g, "ir", g), latency, ctx=id(c) if c is not None else None,
                                              device=dev))


# --------------------------------------------------------------------------- replay


@dataclass
class ReplayOutcome:
    device: str | None
    kind: str | None
    fallback: str | None
    latency_ms: float | None
    latency_source: str  # "recorded" | "estimated" | "-"
    tier: str | None
    error: str | None = None
    reasons: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        return self.device or f"({self.error or 'none'})"


@dataclass
class ReplayRow:
    index: int
    workload: str
    graph_hash: str
    options: dict
    a: ReplayOutcome
    b: ReplayOutcome

    @property
    def changed(self) -> bool:
        return (self.a.device, self.a.fallback) != (self.b.device, self.b.fallback)


def _recorded_latencies(events: Sequence[Mapping]) -> dict[str, dict[str, float]]:
    """graph hash -> device id -> median recorded latency."""
    samples: dict[str, dict[str, list[float]]] = {}
    for ev in events:
        if ev.get("event") != "dispatch":
            continue
        h = (ev.get("graph") or {}).get("hash")
        for dev, ms in dict(ev.get("latencyMs") or {}).items():
            samples.setdefault(h, {}).setdefault(dev, []).append(float(ms))
    return {h: {d: statistics.median(v) for d, v in per.items()} for h, per in samples.items()}


def _device_kinds(events: Sequence[Mapping]) -> dict[str, str]:
    """device id -> kind, as the trace's own decisions name them."""
    kinds = {}
    for ev in events:
        d = ev.get("decision") or {}
        if isinstance(d.get("device"), str) and isinstance(d.get("kind"), str):
            kinds[d["device"]] = d["kind"]
    return kinds


def _align_recorded(recorded: dict[str, dict[str, float]], kinds: Mapping[str, str],
                    inventory: Sequence[Device]) -> dict[str, dict[str, float]]:
    """Latencies recorded on a device the replay inventory lacks (a trace of the real host
    replayed under --devices) count for the inventory's one device of the same kind, unless
    that device has recordings of its own."""
    ids = {d.id for d in inventory}
    by_kind: dict[str, list[str]] = {}
    for d in inventory:
        by_kind.setdefault(d.kind, []).append(d.id)
    out = {}
    for h, per in recorded.items():
        aligned = {dev: ms for dev, ms in per.items() if dev in ids}
        for dev, ms in per.items():
            same = by_kind.get(kinds.get(dev, ""), [])
            if dev not in ids and len(same) == 1:
                aligned.setdefault(same[0], ms)
        out[h] = aligned
    return out


def _workloads(events: Sequence[Mapping]) -> list[tuple[dict, dict]]:
    """(options, graph summary dict) for each build event, options from the build event or from
    the context event it belongs to (same "ctx", else the latest context event)."""
    ctx_options: dict[Any, dict] = {}
    last: dict = {}
    out = []
    for ev in events:
        kind = ev.get("event")
        if kind == "context":
            last = dict(ev.get("options") or {})
            if ev.get("ctx") is not None:
                ctx_options[ev["ctx"]] = last
        elif kind == "build":
            opts = ev.get("options")
            if opts is None:
                opts = ctx_options.get(ev.get("ctx"), last)
            out.append((dict(opts), ev["graph"]))
    return out


def _outcome(options: Mapping, graph, rules: Mapping, inventory: Sequence[Device],
             recorded: Mapping[str, float]) -> ReplayOutcome:
    from .engine import decide_build, decide_context
    from .qos import estimate_latency_ms, qos_tier

    decision = decide_context(options, inventory, rules)
    if decision.device is None:
        return ReplayOutcome(None, None, None, None, "-", None, "NotSupportedError", decision.reasons)
    try:
        placement = decide_build(decision, graph, inventory, rules)
    except NotSupportedError as e:
        return ReplayOutcome(None, None, None, None, "-", None, "NotSupportedError", list(getattr(e, "reasons", [])))
    dev = placement.device
    if len(placement.partitions()) <= 1 and dev.id in recorded:
        ms, src = recorded[dev.id], "recorded"
    else:
        ms, src = estimate_latency_ms(graph, dev, rules, placement=placement), "estimated"
    return ReplayOutcome(dev.id, dev.kind, placement.fallback, ms, src, qos_tier(ms, rules), None, placement.reasons)


def replay(trace_events: Iterable[Mapping], rules_a: Mapping, rules_b: Mapping,
           inventory: Sequence[Device]) -> list[ReplayRow]:
    """Re-decide every recorded context + build under two rule sets (a: baseline, b: candidate)."""
    events = list(trace_events)
    recorded = _align_recorded(_recorded_latencies(events), _device_kinds(events), inventory)
    rows = []
    for i, (options, gdict) in enumerate(_workloads(events)):
        graph = summarize(gdict)
        rec = recorded.get(graph.hash, {})
        rows.append(ReplayRow(
            i,
            graph.name or graph.hash[:10],
            graph.hash,
            options,
            _outcome(options, graph, rules_a, inventory, rec),
            _outcome(options, graph, rules_b, inventory, rec),
        ))
    return rows


# --------------------------------------------------------------------------- replay outputs

CSV_FIELDS = ("index", "workload", "graph_hash", "options",
              "a_device", "a_kind", "a_fallback", "a_latency_ms", "a_latency_source", "a_tier",
              "b_device", "b_kind", "b_fallback", "b_latency_ms", "b_latency_source", "b_tier", "changed")


def _row_record(r: ReplayRow) -> dict:
    rec: dict = {"index": r.index, "workload": r.workload, "graph_hash": r.graph_hash,
                 "options": json.dumps(r.options, sort_keys=True)}
    for side, o in (("a", r.a), ("b", r.b)):
        rec[f"{side}_device"] = o.label
        rec[f"{side}_kind"] = o.kind or ""
        rec[f"{side}_fallback"] = o.fallback or ""
        rec[f"{side}_latency_ms"] = "" if o.latency_ms is None else f"{o.latency_ms:.3f}"
        rec[f"{side}_latency_source"] = o.latency_source
        rec[f"{side}_tier"] = o.tier or ""
    rec["changed"] = "yes" if r.changed else "no"
    return rec


def _fmt_ms(o: ReplayOutcome) -> str:
    if o.latency_ms is None:
        return "FAILED" if o.error else "-"
    return f"{o.latency_ms:.2f}{'*' if o.latency_source == 'estimated' else ''}"


def format_table(rows: Sequence[ReplayRow], labels: tuple[str, str] = ("baseline", "rules")) -> str:
    """A plain-text comparison table (latencies marked * are estimates)."""
    head = ["#", "workload", "options", f"{labels[0]} device", "fallback", "ms",
            f"{labels[1]} device", "fallback", "ms", "changed"]
    body = [[str(r.index), r.workload, json.dumps(r.options, sort_keys=True, separators=(",", ":")),
             r.a.label, r.a.fallback or "-", _fmt_ms(r.a), r.b.label, r.b.fallback or "-", _fmt_ms(r.b),
             "yes" if r.changed else ""] for r in rows]
    widths = [max(len(x) for x in col) for col in zip(head, *body)]
    lines = ["  ".join(x.ljust(w) for x, w in zip(line, widths)).rstrip() for line in [head, *body]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines.append("")
    lines.append(summary_line(rows, labels))
    lines.append("(* = cost-model estimate; other latencies were recorded in the trace)")
    return "\n".join(lines)


def summary_line(rows: Sequence[ReplayRow], labels: tuple[str, str] = ("baseline", "rules")) -> str:
    """Counts, failures per rule set, and total latency over the workloads that both rule sets
    run (a workload that fails is never counted as fast)."""
    changed = sum(r.changed for r in rows)
    both = [r for r in rows if r.a.latency_ms is not None and r.b.latency_ms is not None]
    ta = sum(r.a.latency_ms for r in both)
    tb = sum(r.b.latency_ms for r in both)
    fa = sum(r.a.latency_ms is None for r in rows)
    fb = sum(r.b.latency_ms is None for r in rows)
    failed = f"; FAILED: {labels[0]} {fa}, {labels[1]} {fb}" if fa or fb else ""
    return (f"{len(rows)} workload(s), {changed} placement(s) changed{failed}; total latency over the "
            f"{len(both)} workload(s) both run: {labels[0]} {ta:.2f} ms, {labels[1]} {tb:.2f} ms")


def format_markdown(rows: Sequence[ReplayRow], labels: tuple[str, str] = ("baseline", "rules")) -> str:
    out = ["# Policy replay", "", summary_line(rows, labels), "",
           f"| # | workload | options | {labels[0]} device | fallback | ms | tier | {labels[1]} device | fallback | ms "
           "| tier | changed |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        opts = json.dumps(r.options, sort_keys=True, separators=(",", ":")).replace("|", "\\|")
        out.append(f"| {r.index} | {r.workload} | `{opts}` | {r.a.label} | {r.a.fallback or '-'} | {_fmt_ms(r.a)} "
                   f"| {r.a.tier or '-'} | {r.b.label} | {r.b.fallback or '-'} | {_fmt_ms(r.b)} | {r.b.tier or '-'} "
                   f"| {'yes' if r.changed else ''} |")
    out += ["", "Latencies marked * are cost-model estimates; the others were recorded in the trace.", ""]
    return "\n".join(out)


def write_csv(rows: Sequence[ReplayRow], path: str | Path) -> Path:
    p = Path(path)
    with open(p, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=CSV_FIELDS)
        w.writeheader()
        for r in rows:
            w.writerow(_row_record(r))
    return p


def plot_replay(rows: Sequence[ReplayRow], path: str | Path, labels: tuple[str, str] = ("baseline", "rules")) -> Path:
    """replay.png: the chosen device (top) and latency (bottom, log scale) per workload for each
    rule set. Hatched bars are estimates."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    n = len(rows)
    xs = list(range(n))
    devices = sorted({o.label for r in rows for o in (r.a, r.b)})
    ypos = {d: i for i, d in enumerate(devices)}
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(max(6.0, 0.7 * n + 3), 7), sharex=True)
    off = 0.18
    for side, (lab, color, marker, dx) in enumerate(((labels[0], "tab:blue", "o", -off), (labels[1], "tab:orange", "s", off))):
        outs = [r.a if side == 0 else r.b for r in rows]
        ax1.scatter([x + dx for x in xs], [ypos[o.label] for o in outs], label=lab, color=color, marker=marker, s=60)
        vals = [o.latency_ms or 0.0 for o in outs]
        bars = ax2.bar([x + dx for x in xs], vals, width=2 * off * 0.95, label=lab, color=color)
        for bar, o in zip(bars, outs):
            if o.latency_source == "estimated":
                bar.set_hatch("//")
        failed = [x + dx for x, o in zip(xs, outs) if o.latency_ms is None]
        if failed:  # a failed workload has no latency: marked, never drawn as a fast bar
            ax2.scatter(failed, [0] * len(failed), marker="x", color="red", s=80, zorder=3,
                        transform=ax2.get_xaxis_transform(), clip_on=False,
                        label=f"{lab}: failed" if side == 0 else f"{lab}: failed ")
    ax1.set_yticks(range(len(devices)))
    ax1.set_yticklabels(devices)
    ax1.set_ylabel("chosen device")
    fig.suptitle("Policy replay: chosen device and latency per workload")
    ax1.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    ax1.grid(axis="y", alpha=0.3)
    positive = [o.latency_ms for r in rows for o in (r.a, r.b) if o.latency_ms]
    if positive and max(positive) / min(positive) > 50:  # wide spread: log scale
        ax2.set_yscale("log")
    ax2.set_ylabel("latency (ms; hatched = estimate)")
    ax2.set_xticks(xs)
    ax2.set_xticklabels([f"{r.index}:{r.workload}" for r in rows], rotation=30, ha="right")
    ax2.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    ax2.grid(axis="y", alpha=0.3)
    p = Path(path)
    # legends sit right of the axes; a tight bounding box keeps them, the title and labels whole
    fig.savefig(p, dpi=100, bbox_inches="tight", pad_inches=0.2)
    plt.close(fig)
    return p


def write_replay(rows: Sequence[ReplayRow], out_dir: str | Path,
                 labels: tuple[str, str] = ("baseline", "rules")) -> dict[str, Path]:
    """Write replay.csv, replay.md and replay.png into ``out_dir``."""
    d = Path(out_dir)
    d.mkdir(parents=True, exist_ok=True)
    md = d / "replay.md"
    md.write_text(format_markdown(rows, labels), encoding="utf-8")
    return {
        "csv": write_csv(rows, d / "replay.csv"),
        "md": md,
        "png": plot_replay(rows, d / "replay.png", labels),
    }
