"""Policy traces (JSONL) for tuning, and replay of a trace under two rule sets.

One JSON object per line. Event types and their fields:

    {"v": 1, "event": "context",  "ctx": ID, "options": {...}, "decision": Decision.to_dict()}
    {"v": 1, "event": "build",    "ctx": ID, "options": {...}, "graph": GraphSummary.to_dict(),
                                  "decision": Placement.to_dict()}
    {"v": 1, "event": "dispatch", "ctx": ID, "graph": {"hash": H}, "device": DEVICE_ID,
                                  "latencyMs": {DEVICE_ID: ms, ...}, "t": UNIX_SECONDS}
    {"v": 1, "event": "pageLatency", "ctx": ID, "gid": BUILD, "graph": {"hash": H}, "ms": ms[, "inPage": true]}

Since the tuner (workbench/tune.py) needs them, the host also records: per build ``page`` (the
page's path), ``label`` (the graph's output names), ``gid`` (a build id its dispatches repeat) and
``ir`` (the full structure, policy/replica.py, for `policy measure`) and ``inPage`` (true when the
page runs it, backends/page.py: replay, tune and measure leave those builds out; replay and tune
say how many);
per dispatch ``gid``,
``placement`` (the device id, or "partition:A>B" for a partitioned graph) and ``segmentsMs``
(host time per segment device of a partitioned graph), ``idleMs`` (how long its context sat
idle before it, which `policy measure` repeats between timed runs), ``cpuMs`` (the host's CPU
time spent on it, bridge/metrics.py DispatchCpu) and ``t`` (when it ended, wall
clock, so that rounds recorded by several hosts at once can be paired); ``pageLatency``: the page's own time from
dispatch() to the read of an output resolving, measured in the shim (js_shim/runtime.js); with ``inPage``, a
run of a graph the page ran itself, from dispatch() to the run's end (replay and tune report their p50).

Every line carries ``"v"`` (the trace version); a build's graph has at least one node, and every
node its ``op``, ``inputs`` and ``outputs`` (at least one): anything else is rejected with its line.

*Rounds.* A graph's dispatches on one placement are split into rounds: a round is a run of
dispatches of one context, broken by another graph's dispatch in that context or by an idle gap
of ROUND_GAP_MS or more. Each round is one sample of the machine's speed at the time: a recorded
p50's interval covers its rounds' own p50s (``_recorded_stats``), and rounds of two placements
recorded interleaved (by time ``t``, else in trace order) are *pairs* whose per-round ratios
``paired_ratio`` summarizes (workbench/tune.py decides on that ratio's interval).

``graph`` summaries hold op counts, data types, sizes, a stable hash and the node list (op and
operand types/shapes), never tensor values. Traces stay on the host: they name device ids and
hold exact timings, which pages must never see.

``replay(events, rules_a, rules_b, inventory)`` re-decides every recorded context + build with
each rule set and compares the chosen device and the latency: the recorded one when the trace
measured that device for that graph, else the cost-model estimate (policy/qos.py).
"""

from __future__ import annotations

import csv
import itertools
import json
import math
import random
import secrets
import statistics
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webnn_bridge.backends.base import Device
from webnn_bridge.ops.core import NotSupportedError
from webnn_bridge.policy.graphs import summarize

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
    """Every event of a JSONL trace. A truncated last line (a crash mid-write: it starts like an
    event) after at least one event is skipped; any other malformed line, an empty file, binary
    data or another trace version raises ValueError naming the line."""
    raw = Path(path).read_bytes()
    if b"\x00" in raw:
        raise ValueError(f"{path}: binary data, not a JSONL trace")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not UTF-8 text, not a JSONL trace") from None
    lines = text.splitlines()
    events = []
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            ev = json.loads(line)
        except json.JSONDecodeError as e:
            if i == len(lines) - 1 and events and line.lstrip().startswith("{") and not text.endswith("\n"):
                break
            raise ValueError(f"{path}:{i + 1}: not JSON: {e}") from None
        problem = event_problem(ev)
        if problem is None and "v" not in ev:
            problem = (f'no trace version ("v"): not a line webnn-bridge wrote (this webnn-bridge reads version '
                       f"{VERSION}; `serve --trace` writes it on every line)")
        if problem:
            raise ValueError(f"{path}:{i + 1}: {problem}")
        events.append(ev)
    if not events:
        raise ValueError(f"{path}: empty trace (no events)")
    return events


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and v >= 0


def _options_problem(options: Any) -> str | None:
    from webnn_bridge.ops.core import WebNNError
    from webnn_bridge.policy.engine import OPTION_KEYS, effective_options

    if not isinstance(options, dict):
        return "options must be an object"
    unknown = sorted(set(options) - set(OPTION_KEYS))
    if unknown:
        return f"unknown option key(s) {', '.join(map(repr, unknown))} (known: {', '.join(OPTION_KEYS)})"
    acc = options.get("accelerated")
    if acc is not None and not isinstance(acc, bool):
        return f"invalid option: accelerated must be a boolean, not {acc!r}"
    try:
        effective_options(options)
    except (WebNNError, TypeError) as e:
        return f"invalid option: {e}"
    return None


def event_problem(ev: Any) -> str | None:
    """Why ``ev`` is not a well-formed trace event (see the module doc), or None."""
    if not isinstance(ev, dict) or "event" not in ev:
        return "not a trace event"
    if "v" in ev and ev["v"] != VERSION:
        return f"trace version {ev['v']!r} is not supported (this webnn-bridge reads version {VERSION})"
    kind = ev["event"]
    graph = ev.get("graph")
    if kind in ("context", "build") and isinstance(ev.get("options"), dict):
        problem = _options_problem(ev["options"])
        if problem:
            return f"{kind} event: {problem}"
    if kind == "context":
        ok = isinstance(ev.get("options", {}), dict) and isinstance(ev.get("decision", {}), dict)
        return None if ok else "context event: options and decision must be objects"
    if kind == "build":
        if not isinstance(graph, dict) or not isinstance(graph.get("nodes"), list):
            return "build event: graph must be a graph summary with nodes"
        if not graph["nodes"]:
            return "build event: the graph has no nodes (a build records at least one operator)"
        if "inPage" in ev and not isinstance(ev["inPage"], bool):
            return "build event: inPage must be true or false"
        for i, node in enumerate(graph["nodes"]):
            missing = [k for k in ("op", "inputs", "outputs") if not isinstance(node, dict) or k not in node]
            if isinstance(node, dict) and missing:
                return f"build event: node {i} has no {', '.join(missing)} (each node needs op, inputs and outputs)"
            if isinstance(node, dict) and isinstance(node["outputs"], (list, dict)) and not node["outputs"]:
                return f"build event: node {i} ({node.get('op')}) has no outputs"
        try:
            summarize(graph)
        except (ValueError, TypeError, KeyError, IndexError) as e:
            return f"build event: {e}"
        if not isinstance(ev.get("decision", {}), dict):
            return "build event: decision must be an object"
        return None
    if kind == "dispatch":
        lat = ev.get("latencyMs")
        if not isinstance(graph, dict) or not isinstance(graph.get("hash"), str):
            return "dispatch event: graph.hash must be a string"
        if not isinstance(lat, dict) or not lat or not all(_is_number(v) for v in lat.values()):
            return "dispatch event: latencyMs must map device ids to finite, non-negative numbers"
        seg = ev.get("segmentsMs", {})
        if not isinstance(seg, dict) or not all(_is_number(v) for v in seg.values()):
            return "dispatch event: segmentsMs must map device ids to finite, non-negative numbers"
        if "idleMs" in ev and not _is_number(ev["idleMs"]):
            return "dispatch event: idleMs must be a finite, non-negative number"
        if "t" in ev and not _is_number(ev["t"]):
            return "dispatch event: t must be a finite, non-negative number (seconds)"
        if "cpuMs" in ev and not _is_number(ev["cpuMs"]):
            return "dispatch event: cpuMs must be a finite, non-negative number"
        return None
    if kind == "pageLatency":
        if not isinstance(graph, dict) or not isinstance(graph.get("hash"), str):
            return "pageLatency event: graph.hash must be a string"
        if "inPage" in ev and not isinstance(ev["inPage"], bool):
            return "pageLatency event: inPage must be true or false"
        return None if _is_number(ev.get("ms")) else "pageLatency event: ms must be a finite, non-negative number"
    return f"unknown event type {kind!r}"


def trace_devices(events: Sequence[Mapping]) -> set[str]:
    """Every device id the trace's decisions name."""
    ids: set[str] = set()
    for ev in events:
        d = ev.get("decision") or {}
        for key in ("device", "fallbackDevice"):
            if isinstance(d.get(key), str):
                ids.add(d[key])
        for c in d.get("candidates") or []:
            if isinstance(c, str):
                ids.add(c)
        for part in d.get("partitions") or []:
            if isinstance(part, list) and part and isinstance(part[0], str):
                ids.add(part[0])
    return ids


def check_replayable(events: Sequence[Mapping], path: str | Path = "trace") -> None:
    """What replay, measure and tune need beyond well-formed lines: at least one build, and
    dispatches only on devices the trace's decisions name. ValueError otherwise."""
    if not any(ev.get("event") == "build" for ev in events):
        raise ValueError(f"{path}: no build events: nothing to replay (a trace of dispatches alone, or contexts alone)")
    known = trace_devices(events)
    unknown: set[str] = set()
    for ev in events:
        if ev.get("event") == "dispatch":
            for dev in [*dict(ev.get("latencyMs") or {}), *dict(ev.get("segmentsMs") or {})]:
                if dev not in known and not dev.startswith("partition:"):
                    unknown.add(dev)
    if unknown:
        raise ValueError(f"{path}: dispatches on device(s) {', '.join(sorted(unknown))} that no decision in the "
                         "trace names")


# --------------------------------------------------------------------------- event builders


def context_event(options: Mapping, decision, *, ctx: Any = None) -> dict:
    return {"event": "context", "ctx": ctx, "options": dict(options or {}), "decision": decision.to_dict()}


def build_event(graph, placement=None, *, ctx: Any = None, options: Mapping | None = None, page: str | None = None,
                label: str | None = None, gid: Any = None, ir: Mapping | None = None, in_page: bool = False) -> dict:
    ev: dict = {"event": "build", "ctx": ctx, "graph": summarize(graph).to_dict()}
    if options is not None:
        ev["options"] = dict(options)
    if placement is not None:
        ev["decision"] = placement.to_dict()
    if in_page:  # the page runs it (backends/page.py): the [page] rules placed it, before any rule tuning changes
        ev["inPage"] = True
    for key, value in (("page", page), ("label", label), ("gid", gid), ("ir", ir)):
        if value is not None:
            ev[key] = value
    return ev


MODE_MARK = "@threads="  # a placement key's CPU mode suffix
MIN_GAIN = 0.05  # tune moves a workload only where it gets at least this much faster (tune.py, page_tune.py)


def placement_key(placement) -> str | None:
    """What a recorded latency is the latency of: the device id of a whole-graph placement, or
    "partition:A>B>..." (segment devices in order) for a partitioned one; with a CPU mode, its
    thread count after "@threads=" (measure writes its modes under the same keys)."""
    if placement is None:
        return None
    parts = placement.partitions()
    key = placement.device.id if len(parts) <= 1 else "partition:" + ">".join(d for d, _ in parts)
    threads = getattr(placement, "threads", 0)
    return f"{key}{MODE_MARK}{threads}" if threads else key


def split_mode(key: str) -> tuple[str, str]:
    """(the placement key without its CPU mode, the mode suffix or "")."""
    base, mark, n = key.rpartition(MODE_MARK)
    return (base, mark + n) if mark and n.isdigit() else (key, "")


IDLE_CAP_MS = 1000.0  # a dispatch's recorded idle time (idleMs) is at most this


def dispatch_event(graph, latency_ms: Mapping[str, float], *, ctx: Any = None, device: str | None = None,
                   gid: Any = None, placement: str | None = None, segments: Mapping[str, float] | None = None,
                   idle_ms: float | None = None, t: float | None = None, cpu_ms: float | None = None) -> dict:
    h = graph if isinstance(graph, str) else summarize(graph).hash
    ev = {"event": "dispatch", "ctx": ctx, "graph": {"hash": h}, "latencyMs": {k: float(v) for k, v in latency_ms.items()}}
    if device is not None:
        ev["device"] = device
    if gid is not None:
        ev["gid"] = gid
    if placement is not None:
        ev["placement"] = placement
    if segments:
        ev["segmentsMs"] = {k: float(v) for k, v in segments.items()}
    if idle_ms is not None:
        ev["idleMs"] = float(idle_ms)
    if cpu_ms is not None:
        ev["cpuMs"] = round(float(cpu_ms), 3)
    if t is not None:
        ev["t"] = round(float(t), 3)
    return ev


def _number_or_none(v: Any) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and v >= 0 else None


def graph_label(ir) -> str:
    """A readable label for a built graph: its output names and node count."""
    outs = sorted(getattr(ir, "outputs", {}) or {})
    n = len(getattr(ir, "nodes", []) or [])
    return f"{','.join(outs)[:40]}[{n} ops]"


class SessionTracer:
    """An observer for bridge.session.Session(observer=...): turns its (event, facts) callbacks
    into trace events. Duck-typed (no bridge import). A dispatch is timed only when the facts
    carry "latencyMs" (a number, or {device id: ms})."""

    def __init__(self, writer: TraceWriter, *, with_ir: bool = True):
        self.writer = writer
        self.with_ir = with_ir
        # ids of contexts and graphs in the trace: unique in the file (id() is reused once an object
        # is freed; another host may append to the same file)
        self._prefix = secrets.token_hex(3)
        self._next = itertools.count(1)
        self._lock = threading.Lock()
        # when each context's latest dispatch ended (monotonic s), for the idle time before the next
        # one (bounded: the oldest contexts are forgotten first)
        self._last_end: dict[str, float] = {}

    def _id(self, obj: Any) -> str | None:
        if obj is None:
            return None
        tid = getattr(obj, "trace_id", None)
        if tid is None:
            with self._lock:
                tid = getattr(obj, "trace_id", None) or f"{self._prefix}-{next(self._next)}"
            try:
                obj.trace_id = tid
            except AttributeError:  # an object without attributes of its own: a fresh id each time
                pass
        return tid

    def _idle_before(self, ctx: str | None, ms: float) -> float | None:
        """How long the context was idle before this dispatch began (ms, capped at IDLE_CAP_MS):
        the time from its previous dispatch's end, on the host's clock. Runtimes are slower after
        an idle gap (threads asleep, caches cold), so `policy measure` repeats the gap."""
        if ctx is None:
            return None
        now = time.monotonic()
        with self._lock:
            prev = self._last_end.pop(ctx, None)
            self._last_end[ctx] = now
            if len(self._last_end) > 4096:
                del self._last_end[next(iter(self._last_end))]
        if prev is None:
            return None
        return round(min(IDLE_CAP_MS, max(0.0, (now - prev) * 1e3 - ms)), 3)

    def __call__(self, event: str, facts: Mapping[str, Any]) -> None:
        if event == "createContext":
            d = facts.get("decision")
            ctx = self._id(facts.get("context"))
            ev = (context_event(facts.get("options", {}), d, ctx=ctx) if d is not None else
                  {"event": "context", "options": facts.get("options", {})})
            if facts.get("page"):
                ev["page"] = str(facts["page"])
            self.writer.record(ev)
        elif event == "build":
            g, c = facts.get("graph"), facts.get("context")
            ir = getattr(g, "ir", g)
            ir_json = None
            if self.with_ir and hasattr(ir, "nodes") and hasattr(ir, "operands"):
                from webnn_bridge.policy.replica import ir_to_json

                try:
                    ir_json = ir_to_json(ir)
                except Exception:  # a structure we cannot write: the build is still recorded
                    ir_json = None
            self.writer.record(build_event(ir, getattr(g, "placement", None), ctx=self._id(c),
                                           options=getattr(c, "options", None), page=facts.get("page"),
                                           label=graph_label(ir), gid=self._id(g), ir=ir_json,
                                           in_page=getattr(g, "in_page", False) is True))
        elif event == "dispatch":
            g, c = facts.get("graph"), facts.get("context")
            ms = facts.get("latencyMs")
            if ms is None:
                return
            p = getattr(g, "placement", None)
            dev = getattr(getattr(c, "exec_device", None), "id", None) or "unknown"
            if p is not None and not p.simulated and len(p.partitions()) <= 1:
                dev = p.device.id  # a route may have moved the graph to another backend than the context's
            key = placement_key(p) if p is not None and not p.simulated else dev
            segments = getattr(getattr(g, "compiled", None), "last_segment_ms", None)
            latency = ms if isinstance(ms, Mapping) else {key if key and key.startswith("partition:") else dev: float(ms)}
            ctx = self._id(c)
            self.writer.record(dispatch_event(getattr(g, "ir", g), latency, ctx=ctx,
                                              device=dev, gid=self._id(g), placement=key,
                                              segments=dict(segments) if segments else None,
                                              idle_ms=self._idle_before(ctx, sum(latency.values())),
                                              t=time.time(), cpu_ms=_number_or_none(facts.get("cpuMs"))))
        elif event == "pageLatency":
            g, c = facts.get("graph"), facts.get("context")
            h = summarize(getattr(g, "ir", g)).hash
            ev = {"event": "pageLatency", "ctx": self._id(c), "gid": self._id(g), "graph": {"hash": h},
                  "ms": float(facts["ms"])}
            if getattr(g, "in_page", False) is True:  # the page ran it itself: dispatch() to its run's end
                ev["inPage"] = True
            self.writer.record(ev)


# --------------------------------------------------------------------------- replay


@dataclass
class ReplayOutcome:
    device: str | None
    kind: str | None
    fallback: str | None
    latency_ms: float | None
    latency_source: str  # "recorded" (the trace) | "measured" (policy measure) | "anchored" | "modelled" | "-"
    tier: str | None
    error: str | None = None
    reasons: list[str] = field(default_factory=list)
    backend: str | None = None
    ci_ms: tuple[float, float] | None = None  # the p50's 95% confidence interval (measured only)
    p90_ms: float | None = None
    cpu_ms: float | None = None
    key: str | None = None  # placement_key()
    threads: int = 0  # the placement's CPU mode (0: the backend's choice)
    note: str | None = None  # how the figure was made, where that needs saying (e.g. not anchored, and why)

    @property
    def label(self) -> str:
        if not self.device:
            return f"({self.error or 'none'})"
        return f"{self.device}{MODE_MARK}{self.threads}" if self.threads else self.device


@dataclass
class ReplayRow:
    index: int
    workload: str
    graph_hash: str
    options: dict
    a: ReplayOutcome
    b: ReplayOutcome
    weight: int = 1  # dispatches recorded for this workload (at least 1)
    page: str = ""
    label: str = ""
    page_ms: float | None = None  # median page-side latency, when the shim reported it

    @property
    def changed(self) -> bool:
        return (self.a.device, self.a.fallback, self.a.threads) != (self.b.device, self.b.fallback, self.b.threads)


@dataclass
class Workload:
    """Builds of one graph by one page with the same options (what replay and tune price)."""

    index: int
    page: str
    label: str
    graph: dict  # the graph summary dict
    options: dict
    gids: list = field(default_factory=list)
    dispatches: int = 0
    page_ms: list = field(default_factory=list)
    host_ms: dict = field(default_factory=dict)  # placement key -> recorded host latencies
    page_by_key: dict = field(default_factory=dict)  # placement key -> the page's own latencies there

    @property
    def options_text(self) -> str:
        """The createContext() options, compact ("{}" when the page passed none)."""
        return json.dumps(self.options, sort_keys=True, separators=(", ", ": "))

    @property
    def name(self) -> str:
        g = self.label or self.graph.get("name") or str(self.graph.get("hash", ""))[:10]
        return f"{self.page} {g}".strip() if self.page else g

    @property
    def weight(self) -> int:
        return max(1, self.dispatches)


def _dispatch_key(ev: Mapping) -> str | None:
    if isinstance(ev.get("placement"), str):
        return ev["placement"]
    lat = dict(ev.get("latencyMs") or {})
    return next(iter(lat)) if len(lat) == 1 else None


def _recorded_latencies(events: Sequence[Mapping]) -> dict[str, dict[str, float]]:
    """graph hash -> placement key (device id or partition:...) -> median recorded host latency."""
    samples: dict[str, dict[str, list[float]]] = {}
    for ev in events:
        if ev.get("event") != "dispatch":
            continue
        h = (ev.get("graph") or {}).get("hash")
        key = _dispatch_key(ev)
        for dev, ms in dict(ev.get("latencyMs") or {}).items():
            samples.setdefault(h, {}).setdefault(key if key is not None and len(ev["latencyMs"]) == 1 else dev,
                                                 []).append(float(ms))
    return {h: {d: statistics.median(v) for d, v in per.items()} for h, per in samples.items()}


ROUND_GAP_MS = 500.0  # an idle gap this long (or longer) starts a new round
PAIR_WINDOW_S = 120.0  # rounds with times pair only when they began at most this far apart
MIN_PAIRS = 3  # a paired ratio needs at least this many pairs
MIN_ANCHOR_ROUNDS = 2  # a browser matrix is scaled by a recorded figure only from this many rounds


@dataclass
class Round:
    """A run of one context's dispatches of one graph on one placement (module doc: Rounds)."""

    key: str
    ctx: Any
    seq: int  # the order of its first dispatch among the trace's rounds
    t: float | None  # when its first dispatch ended (wall clock s), when the trace says
    samples: list = field(default_factory=list)
    t_last: float | None = None

    @property
    def p50(self) -> float:
        return statistics.median(self.samples)


def recorded_rounds(events: Sequence[Mapping]) -> dict[str, dict[str, list[Round]]]:
    """graph hash -> placement key -> its rounds, in trace order (module doc: Rounds)."""
    out: dict[str, dict[str, list[Round]]] = {}
    current: dict[tuple, Round] = {}
    last_of_ctx: dict[Any, tuple] = {}
    seq = 0
    for ev in events:
        if ev.get("event") != "dispatch":
            continue
        lat = dict(ev.get("latencyMs") or {})
        key = _dispatch_key(ev)
        if key is None or len(lat) != 1:
            continue
        h = (ev.get("graph") or {}).get("hash")
        ctx = ev.get("ctx") if isinstance(ev.get("ctx"), (str, int)) else None
        ms = float(next(iter(lat.values())))
        t = float(ev["t"]) if _is_number(ev.get("t")) else None
        r = current.get((ctx, h, key))
        idle = ev.get("idleMs")
        gap = (t - r.t_last - ms / 1e3) * 1e3 if r is not None and t is not None and r.t_last is not None else None
        if (r is None or last_of_ctx.get(ctx) != (h, key) or (_is_number(idle) and idle >= ROUND_GAP_MS)
                or (gap is not None and gap >= ROUND_GAP_MS)):
            r = current[(ctx, h, key)] = Round(key, ctx, seq, t)
            seq += 1
            out.setdefault(h, {}).setdefault(key, []).append(r)
        r.samples.append(ms)
        r.t_last = t
        last_of_ctx[ctx] = (h, key)
    return out


def pair_rounds(a: Sequence[Round], b: Sequence[Round]) -> list[tuple[Round, Round]]:
    """Rounds of two placements of one graph, paired: by time when every round has one (the
    nearest first, at most PAIR_WINDOW_S apart, each round in one pair), else in trace order
    (the i-th round of each: rounds recorded interleaved, e.g. a host per rule set)."""
    if not a or not b:
        return []
    if all(r.t is not None for r in (*a, *b)):
        near = sorted((abs(x.t - y.t), i, j) for i, x in enumerate(a) for j, y in enumerate(b)  # type: ignore[operator]
                      if abs(x.t - y.t) <= PAIR_WINDOW_S)  # type: ignore[operator]
        used_a: set[int] = set()
        used_b: set[int] = set()
        pairs = []
        for _, i, j in near:
            if i not in used_a and j not in used_b:
                used_a.add(i)
                used_b.add(j)
                pairs.append((a[i], b[j]))
        return sorted(pairs, key=lambda p: p[0].seq)
    return list(zip(a, b))


@dataclass(frozen=True)
class PairedRatio:
    """Per-round ratios of placement b to placement a (b's p50 / a's, round by round)."""

    n: int  # pairs
    ratio: float  # their geometric mean
    lo: float  # its 95% interval (bootstrap over the pairs)
    hi: float
    faster: int  # pairs in which b was faster

    def describe(self) -> str:
        return (f"{self.ratio:.2f}x [{self.lo:.2f}, {self.hi:.2f}] over {self.n} paired rounds, "
                f"faster in {self.faster} of {self.n}")


def paired_ratio(pairs: Sequence[tuple[float, float]], resamples: int = 2000) -> PairedRatio | None:
    """The geometric mean of b/a over paired figures (a, b), with a 95% percentile-bootstrap
    interval over the pairs (deterministic: a fixed seed, so tune stays a pure function of its
    inputs). None with fewer than MIN_PAIRS pairs."""
    logs = [math.log(b / a) for a, b in pairs if a > 0 and b > 0]
    n = len(logs)
    if n < MIN_PAIRS:
        return None
    rng = random.Random(20261127 + n)
    means = sorted(sum(rng.choices(logs, k=n)) / n for _ in range(resamples))
    lo, hi = means[int(0.025 * resamples)], means[int(0.975 * resamples) - 1]
    return PairedRatio(n, math.exp(sum(logs) / n), math.exp(lo), math.exp(hi), sum(x < 0 for x in logs))


def _recorded_stats(events: Sequence[Mapping], rounds: Mapping | None = None) -> dict[str, dict[str, dict]]:
    """graph hash -> placement key -> matrix.stats() of the recorded host latencies, with
    "rounds" (how many) and "contexts" (how many recorded it).

    A round's dispatches are not independent samples: a page's session runs at one speed of the
    machine, the next round at another (this shared 2-core VM drifts 20% between minutes). Where
    several rounds recorded a graph on a device, the 95% interval of its p50 is therefore at
    least the interval of the rounds' own p50s (each round one sample), so that a difference
    that did not hold from one round to the next never counts as significant."""
    from webnn_bridge.policy.matrix import stats

    rounds = recorded_rounds(events) if rounds is None else rounds
    out: dict[str, dict[str, dict]] = {}
    for h, per in rounds.items():
        for k, rs in per.items():
            s = stats([x for r in rs for x in r.samples])
            if len(rs) > 1:
                across = stats([r.p50 for r in rs])["ci95"]
                s["ci95"] = [min(s["ci95"][0], across[0]), max(s["ci95"][1], across[1])]
            s["rounds"] = len(rs)
            s["contexts"] = len({r.ctx for r in rs})
            out.setdefault(h, {})[k] = s
    return out


def _device_facts(events: Sequence[Mapping]) -> dict[str, tuple[str, str]]:
    """device id -> (kind, backend), as the trace's own decisions name them (the backend from the
    decision, else the id's prefix, e.g. "onnxruntime:CPUExecutionProvider")."""
    facts: dict[str, tuple[str, str]] = {}
    for ev in events:
        d = ev.get("decision") or {}
        cf = d.get("candidateFacts")
        if isinstance(cf, dict):
            for dev, kb in cf.items():
                if isinstance(kb, list) and len(kb) == 2 and all(isinstance(x, str) for x in kb):
                    facts.setdefault(dev, (kb[0], kb[1]))
        if isinstance(d.get("device"), str) and isinstance(d.get("kind"), str):
            backend = d.get("backend") if isinstance(d.get("backend"), str) else d["device"].split(":")[0]
            facts[d["device"]] = (d["kind"], backend)
    return facts


def align_recorded(recorded: dict[str, dict[str, Any]], facts: Mapping[str, tuple[str, str]],
                   inventory: Sequence[Device]) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """Latencies recorded on devices the replay inventory lacks (a trace of the real host replayed
    under --devices) count for the inventory's one device of the same kind AND backend; never for
    another backend. Returns the aligned latencies and one note per mapped or dropped device."""
    from webnn_bridge.policy.inventory import backend_name

    ids = {d.id for d in inventory}
    mapping: dict[str, str | None] = {}
    notes: list[str] = []

    def target(dev: str) -> str | None:
        if dev in ids:
            return dev
        if dev not in mapping:
            kind, backend = facts.get(dev, ("?", dev.split(":")[0]))
            same = [d.id for d in inventory if d.kind == kind and backend_name(d) == backend]
            if kind == "?":  # an old trace that does not say the device's kind: by backend alone
                same = [d.id for d in inventory if backend_name(d) == backend]
            mapping[dev] = same[0] if len(same) == 1 else None
            if len(same) == 1:
                notes.append(f"recorded latencies of {dev} count for {same[0]} (same backend {backend}, kind {kind})")
            else:
                notes.append(f"recorded latencies of {dev} are NOT used: the inventory has "
                             f"{'no' if not same else 'several'} {backend} {kind} device(s)")
        return mapping[dev]

    out = {}
    for h, per in recorded.items():
        aligned: dict[str, float] = {}
        for key, ms in per.items():
            base, mode = split_mode(key)
            if base.startswith("partition:"):
                devs = [target(x) for x in base[len("partition:"):].split(">")]
                if all(devs):
                    aligned.setdefault("partition:" + ">".join(devs) + mode, ms)  # type: ignore[arg-type]
            else:
                t = target(base)
                if t is not None and (t == base or t + mode not in per):
                    aligned.setdefault(t + mode, ms)
        out[h] = aligned
    return out, notes


def in_page_builds(events: Sequence[Mapping]) -> int:
    """Builds the trace says ran in the page (serve with a page runtime): workloads() leaves them
    out, since the [page] rules place them before any rule tuning changes."""
    return sum(1 for ev in events if ev.get("event") == "build" and ev.get("inPage") is True)


def in_page_runs(events: Sequence[Mapping]) -> list[float]:
    """The page's own times of the runs of graphs it ran itself (pageLatency events with inPage:
    dispatch() to the run's end, recorded while the host records a trace)."""
    return [float(ev["ms"]) for ev in events if ev.get("event") == "pageLatency" and ev.get("inPage") is True
            and _is_number(ev.get("ms"))]


def in_page_note(events: Sequence[Mapping]) -> str | None:
    """What replay and tune say of the builds workloads() left out because the page ran them, with
    the page's times of their runs where the trace has them."""
    n = in_page_builds(events)
    if not n:
        return None
    runs = sorted(in_page_runs(events))
    timed = (f"; the page timed {len(runs)} of their runs: p50 {runs[len(runs) // 2]:.3g} ms, "
             f"p90 {runs[min(len(runs) - 1, int(0.9 * len(runs)))]:.3g} ms") if runs else ""
    return (f"{n} build(s) ran in the page (the [page] rules put them there before the rules tuning changes "
            f"are asked): left out of the host's figures{timed}")


class BuildKeys:
    """Which workload a build belongs to, from the context events before it: (page path, graph
    hash, options as JSON). Options come from the build event, else from its context event (same
    "ctx", else the latest context event); the page from the build, else its context."""

    def __init__(self) -> None:
        self.options: dict[Any, dict] = {}
        self.pages: dict[Any, str] = {}
        self.last: dict = {}

    def context(self, ev: Mapping) -> None:
        self.last = dict(ev.get("options") or {})
        if ev.get("ctx") is not None:
            self.options[ev["ctx"]] = self.last
            if ev.get("page"):
                self.pages[ev["ctx"]] = str(ev["page"])

    def key(self, ev: Mapping, graph_hash: str) -> tuple[tuple, str, dict]:
        """(key, page, options) of a build event."""
        opts = ev.get("options")
        if opts is None:
            opts = self.options.get(ev.get("ctx"), self.last)
        page = str(ev.get("page") or self.pages.get(ev.get("ctx"), ""))
        return (page, graph_hash, json.dumps(opts, sort_keys=True)), page, opts


def workloads(events: Sequence[Mapping]) -> list[Workload]:
    """The trace's workloads: builds grouped by (page, graph, options) (BuildKeys), with their
    dispatch counts and page-side latencies."""
    keys = BuildKeys()
    by_key: dict[tuple, Workload] = {}
    by_gid: dict[Any, Workload] = {}
    by_ctx_hash: dict[tuple, Workload] = {}
    last_key: dict[tuple, str | None] = {}  # (gid, ctx, hash) -> the placement of its latest dispatch
    for ev in events:
        kind = ev.get("event")
        if kind == "context":
            keys.context(ev)
        elif kind == "build":
            if ev.get("inPage") is True:  # run by the page: nothing a host rule decides (in_page_builds)
                continue
            g = ev["graph"]
            h = summarize(g).hash
            key, page, opts = keys.key(ev, h)
            w = by_key.get(key)
            if w is None or "gid" not in ev:  # old traces: one workload per build
                w = Workload(len(by_key), page, str(ev.get("label") or ""), g, dict(opts))
                by_key[key if "gid" in ev else (*key, len(by_key))] = w
            if ev.get("gid") is not None:
                w.gids.append(ev["gid"])
                by_gid[ev["gid"]] = w
            by_ctx_hash[(ev.get("ctx"), h)] = w
        elif kind in ("dispatch", "pageLatency"):
            h = (ev.get("graph") or {}).get("hash")
            w = by_gid.get(ev.get("gid")) if ev.get("gid") is not None else by_ctx_hash.get((ev.get("ctx"), h))
            if w is None:
                continue
            src = (ev.get("gid"), ev.get("ctx"), h)
            if kind == "dispatch":
                w.dispatches += 1
                key = _dispatch_key(ev)
                lat = dict(ev.get("latencyMs") or {})
                if key is not None and len(lat) == 1:
                    w.host_ms.setdefault(key, []).append(float(next(iter(lat.values()))))
                last_key[src] = key
            else:
                w.page_ms.append(float(ev["ms"]))
                if last_key.get(src) is not None:  # the page's time of the placement its dispatches ran on
                    w.page_by_key.setdefault(last_key[src], []).append(float(ev["ms"]))
    return list(by_key.values())


def aligned_rounds(events: Sequence[Mapping], inventory: Sequence[Device]) -> dict[str, dict[str, list[Round]]]:
    """recorded_rounds() with the device ids mapped onto ``inventory`` as replay maps them."""
    return align_recorded(recorded_rounds(events), _device_facts(events), inventory)[0]


def load_matrix(path: str | Path) -> dict:
    """A measurement matrix written by `policy measure` (workbench/measure.py)."""
    from webnn_bridge.policy.matrix import read_matrix

    return read_matrix(path)


def _anchor_widths(rec_ms: float, rec_stats: Mapping | None, measured: Mapping,
                   relative: bool = False) -> tuple[float, float]:
    """The lower and upper half-widths of an anchor's correction: the recorded and the measured
    p50's 95% intervals in quadrature (a recording without statistics counts as exact). For the
    offset (recorded minus measured) in ms; ``relative``: for the factor (recorded over measured),
    each p50's half-widths as a fraction of it."""
    m50 = float(measured["p50"])
    r_lo, r_hi = (rec_ms - rec_stats["ci95"][0], rec_stats["ci95"][1] - rec_ms) if rec_stats else (0.0, 0.0)
    m_lo, m_hi = m50 - float(measured["ci95"][0]), float(measured["ci95"][1]) - m50
    if relative:
        r_lo, r_hi = (r_lo / rec_ms, r_hi / rec_ms) if rec_ms > 0 else (0.0, 0.0)
        m_lo, m_hi = (m_lo / m50, m_hi / m50) if m50 > 0 else (0.0, 0.0)
    # either correction grows with the recording and shrinks with the measurement: its low side
    # takes the recording's low and the measurement's high
    return math.hypot(max(0.0, r_lo), max(0.0, m_hi)), math.hypot(max(0.0, r_hi), max(0.0, m_lo))


def _outcome(options: Mapping, graph, rules: Mapping, inventory: Sequence[Device],
             recorded: Mapping[str, float], matrix: Mapping | None = None,
             recorded_stats: Mapping[str, dict] | None = None) -> ReplayOutcome:
    from webnn_bridge.policy.engine import decide_build, decide_context
    from webnn_bridge.policy.inventory import backend_name
    from webnn_bridge.policy.qos import estimate_latency_ms, qos_tier

    decision = decide_context(options, inventory, rules)
    if decision.device is None:
        return ReplayOutcome(None, None, None, None, "-", None, "NotSupportedError", decision.reasons)
    try:
        placement = decide_build(decision, graph, inventory, rules)
    except NotSupportedError as e:
        return ReplayOutcome(None, None, None, None, "-", None, "NotSupportedError", list(getattr(e, "reasons", [])))
    dev = placement.device
    key = placement_key(placement)
    results = (matrix or {}).get("graphs", {}).get(graph.hash, {}).get("results", {})
    measured = results.get(key or "")
    ci = p90 = cpu = None
    note = None
    rec_stats = (recorded_stats or {}).get(key or "")
    if key in recorded:  # what this graph's dispatches took on this device, in the host, as recorded
        ms, src = recorded[key], "recorded"
        if rec_stats:
            ci, p90 = tuple(rec_stats["ci95"]), rec_stats["p90"]
        if measured:
            cpu = measured.get("cpu_ms")
    elif measured:
        ms, src = float(measured["p50"]), "measured"
        ci, p90, cpu = tuple(measured["ci95"]), measured.get("p90"), measured.get("cpu_ms")
        anchors = [k for k in recorded if k in results]
        by_factor = (matrix or {}).get("method") == "browser"
        if by_factor:  # (a zero can scale nothing)
            anchors = [k for k in anchors if float(results[k]["p50"]) > 0] if ms > 0 else []
        rounds = max((int(((recorded_stats or {}).get(k) or {}).get("rounds", 1)) for k in anchors), default=0)
        if anchors and by_factor:
            # anchored, by a factor: a browser matrix times what the trace records (the host's
            # dispatch of a page's run), so where recorded and measured differ on the device the
            # trace ran it on, it is the machine's speed then and now, a factor for every device
            factor = statistics.median(recorded[k] / float(results[k]["p50"]) for k in anchors)
            widths = [_anchor_widths(recorded[k], (recorded_stats or {}).get(k), results[k], relative=True)
                      for k in anchors]
            lo_r = math.hypot((ms - ci[0]) / ms, statistics.median(w[0] for w in widths))
            hi_r = math.hypot((ci[1] - ms) / ms, statistics.median(w[1] for w in widths))
            scaled = ms * factor
            scaled_ci = (max(0.0, scaled * (1 - lo_r)), scaled * (1 + hi_r))
            if rounds >= MIN_ANCHOR_ROUNDS:
                ms, src, ci = scaled, "anchored", scaled_ci
                p90 = p90 * factor if p90 is not None else None
            else:
                # one recorded round is one sample of the machine's speed: never multiplied through.
                # The figure stays the measurement; its interval reaches the scaled one, so that
                # neither side of a comparison claims more than that round can tell
                ci = (min(ci[0], scaled_ci[0]), max(ci[1], scaled_ci[1]))
                note = (f"not anchored: its anchor ({', '.join(anchors)}) is {rounds} recorded round; "
                        f"the interval reaches the anchored {scaled:.2f} ms (x{factor:.2f})")
        elif anchors:
            # anchored: the host's own overhead on this workload (recorded minus measured, on the
            # device the trace ran it on) is added to the measurement of the device it did not run on
            off = statistics.median(recorded[k] - float(results[k]["p50"]) for k in anchors)
            shifted = max(ms + off, ms * 0.5)
            off = shifted - ms
            # the interval widens by the offset's own uncertainty (the recorded and the measured
            # p50 of the anchor: independent estimates, so their half-widths add in quadrature)
            lo_w, hi_w = ms - ci[0], ci[1] - ms
            widths = [_anchor_widths(recorded[k], (recorded_stats or {}).get(k), results[k]) for k in anchors]
            lo_w = math.hypot(lo_w, statistics.median(w[0] for w in widths))
            hi_w = math.hypot(hi_w, statistics.median(w[1] for w in widths))
            measured_ci = ci
            ms, src = shifted, "anchored"
            ci = (max(0.0, ms - lo_w), ms + hi_w)
            p90 = p90 + off if p90 is not None else None
            if rounds < MIN_ANCHOR_ROUNDS:  # one round's overhead: the interval also covers the bare measurement
                ci = (min(ci[0], measured_ci[0]), max(ci[1], measured_ci[1]))
    else:
        from webnn_bridge.policy.matrix import modelled_latency_ms

        ms, src = modelled_latency_ms(graph, placement, rules, matrix), "modelled"
        if ms is None:
            ms = estimate_latency_ms(graph, dev, rules, placement=placement)
    return ReplayOutcome(dev.id, dev.kind, placement.fallback, ms, src, qos_tier(ms, rules), None, placement.reasons,
                         backend_name(dev), ci, p90, cpu, key, placement.threads, note)


def replay(trace_events: Iterable[Mapping], rules_a: Mapping, rules_b: Mapping,
           inventory: Sequence[Device], *, matrix: Mapping | None = None,
           notes: list[str] | None = None) -> list[ReplayRow]:
    """Re-decide every recorded workload under two rule sets (a: baseline, b: candidate). Each
    latency is measured (the matrix of `policy measure`), recorded (the trace), or modelled;
    ``notes`` collects how recorded device ids were mapped onto the inventory."""
    events = list(trace_events)
    facts = _device_facts(events)
    recorded, mapped = align_recorded(_recorded_latencies(events), facts, inventory)
    if notes is not None:
        notes.extend(mapped)
        left_out = in_page_note(events)
        if left_out:
            notes.append(left_out)
    rstats, _ = align_recorded(_recorded_stats(events), facts, inventory)  # the same mapping, as statistics
    rows = []
    for i, w in enumerate(workloads(events)):
        graph = summarize(w.graph)
        rec = recorded.get(graph.hash, {})
        rows.append(ReplayRow(
            i, w.name, graph.hash, w.options,
            _outcome(w.options, graph, rules_a, inventory, rec, matrix, rstats.get(graph.hash)),
            _outcome(w.options, graph, rules_b, inventory, rec, matrix, rstats.get(graph.hash)),
            w.weight, w.page, w.label, statistics.median(w.page_ms) if w.page_ms else None,
        ))
    return rows


# --------------------------------------------------------------------------- replay outputs

CSV_FIELDS = ("index", "workload", "graph_hash", "options", "dispatches", "page_ms",
              "a_device", "a_kind", "a_fallback", "a_latency_ms", "a_latency_source", "a_tier",
              "b_device", "b_kind", "b_fallback", "b_latency_ms", "b_latency_source", "b_tier", "changed")


def _row_record(r: ReplayRow) -> dict:
    rec: dict = {"index": r.index, "workload": r.workload, "graph_hash": r.graph_hash,
                 "options": json.dumps(r.options, sort_keys=True), "dispatches": r.weight,
                 "page_ms": "" if r.page_ms is None else f"{r.page_ms:.3f}"}
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
    return f"{o.latency_ms:.2f}{ {'modelled': '*', 'measured': 'm', 'anchored': 'a'}.get(o.latency_source, '')}"


def format_table(rows: Sequence[ReplayRow], labels: tuple[str, str] = ("baseline", "rules")) -> str:
    """A plain-text comparison table (latencies marked * are estimates)."""
    head = ["#", "workload", "options", "dispatches", "page ms", f"{labels[0]} device", "fallback", "ms",
            f"{labels[1]} device", "fallback", "ms", "changed"]
    body = [[str(r.index), r.workload, json.dumps(r.options, sort_keys=True, separators=(",", ":")), str(r.weight),
             "-" if r.page_ms is None else f"{r.page_ms:.2f}",
             r.a.label, r.a.fallback or "-", _fmt_ms(r.a), r.b.label, r.b.fallback or "-", _fmt_ms(r.b),
             "yes" if r.changed else ""] for r in rows]
    widths = [max(len(x) for x in col) for col in zip(head, *body)]
    lines = ["  ".join(x.ljust(w) for x, w in zip(line, widths)).rstrip() for line in [head, *body]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines.append("")
    lines.append(summary_line(rows, labels))
    lines.append("(ms per dispatch; m = measured by `policy measure`, a = measured and anchored to what the trace "
                 "recorded for the graph on another device (an in-process matrix: plus the host's overhead there; a "
                 "browser matrix: scaled by the recorded/measured ratio there, from at least 2 recorded rounds), "
                 "* = modelled, others recorded in the trace; totals are weighted "
                 "by each workload's dispatch count; page ms: the page's own dispatch-to-read p50, as the shim "
                 "reported it under the recorded rules)")
    return "\n".join(lines)


def summary_line(rows: Sequence[ReplayRow], labels: tuple[str, str] = ("baseline", "rules")) -> str:
    """Counts, failures per rule set, and total latency over the workloads that both rule sets
    run (a workload that fails is never counted as fast)."""
    changed = sum(r.changed for r in rows)
    both = [r for r in rows if r.a.latency_ms is not None and r.b.latency_ms is not None]
    ta = sum(r.a.latency_ms * r.weight for r in both)
    tb = sum(r.b.latency_ms * r.weight for r in both)
    fa = sum(r.a.latency_ms is None for r in rows)
    fb = sum(r.b.latency_ms is None for r in rows)
    failed = f"; FAILED: {labels[0]} {fa}, {labels[1]} {fb}" if fa or fb else ""
    return (f"{len(rows)} workload(s), {changed} placement(s) changed{failed}; total latency over the "
            f"{len(both)} workload(s) both run ({sum(r.weight for r in both)} dispatches): "
            f"{labels[0]} {ta:.2f} ms, {labels[1]} {tb:.2f} ms")


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
    out += ["", "Latencies marked m were measured (`policy measure`), * modelled; the others were recorded in the trace.",
            ""]
    return "\n".join(out)


def write_csv(rows: Sequence[ReplayRow], path: str | Path) -> Path:
    p = Path(path)
    with open(p, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=CSV_FIELDS)
        w.writeheader()
        for r in rows:
            w.writerow(_row_record(r))
    return p


def plot_bars(names: Sequence[str], series: Sequence[tuple[str, str, Sequence[ReplayOutcome]]], path: str | Path,
              title: str) -> Path:
    """Horizontal bars, one row per workload (readable at 50+ workloads: the figure grows in
    height, labels stay horizontal), one bar per series, 95% CI error bars where measured, hatched
    bars for modelled latencies, a red x for a workload that fails, the chosen backend at each bar."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    n = len(names)
    k = max(1, len(series))
    height = max(3.0, 0.32 * n * max(1.0, k / 2) + 1.6)
    fig, ax = plt.subplots(figsize=(11, height))
    bar_h = 0.8 / k
    for j, (lab, color, outs) in enumerate(series):
        ys = [i + (j - (k - 1) / 2) * bar_h for i in range(n)]
        vals = [o.latency_ms or 0.0 for o in outs]
        lo = [max(0.0, v - o.ci_ms[0]) if o.ci_ms else 0.0 for v, o in zip(vals, outs)]
        hi = [max(0.0, o.ci_ms[1] - v) if o.ci_ms else 0.0 for v, o in zip(vals, outs)]
        bars = ax.barh(ys, vals, height=bar_h * 0.9, color=color, label=lab, xerr=[lo, hi],
                       error_kw={"elinewidth": 1, "capsize": 2, "ecolor": "black"})
        for bar, o, y in zip(bars, outs, ys):
            if o.latency_source == "modelled":
                bar.set_hatch("//")
            if o.latency_ms is None:
                ax.scatter([0], [y], marker="x", color="red", s=40, zorder=3)
            else:  # the backend, right of the bar and its error bar
                right = max(o.latency_ms, o.ci_ms[1] if o.ci_ms else 0.0)
                ax.annotate(f" {o.backend or o.label} ({o.latency_source})", (right, y), va="center", fontsize=7)
    ax.set_yticks(range(n))
    ax.set_yticklabels([name[:60] for name in names], fontsize=8)
    ax.invert_yaxis()
    positive = [o.latency_ms for _, _, outs in series for o in outs if o.latency_ms]
    if positive and max(positive) / min(positive) > 50:
        ax.set_xscale("log")
    ax.set_xlabel("ms per dispatch (p50; error bars: its 95% CI; hatched: modelled; x: the workload fails)")
    ax.set_title(title, pad=28 if k > 1 else 8)
    ax.grid(axis="x", alpha=0.3)
    ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=min(k, 3), fontsize=8, frameon=False)
    lo_x, hi_x = ax.get_xlim()
    ax.set_xlim(lo_x, hi_x * (3.0 if ax.get_xscale() == "log" else 1.25))  # room for the labels
    p = Path(path)
    fig.savefig(p, dpi=100, bbox_inches="tight", pad_inches=0.2)
    plt.close(fig)
    return p


def plot_replay(rows: Sequence[ReplayRow], path: str | Path, labels: tuple[str, str] = ("baseline", "rules")) -> Path:
    """replay.png: each workload's latency and chosen backend under the two rule sets."""
    return plot_bars([f"{r.index}:{r.workload} (x{r.weight})" for r in rows],
                     [(labels[0], "tab:blue", [r.a for r in rows]), (labels[1], "tab:orange", [r.b for r in rows])],
                     path, "Policy replay: latency per workload and the backend each rule set picks")


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
