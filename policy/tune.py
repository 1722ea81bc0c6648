"""`policy tune`: pick rules from measurements, keeping every hint's meaning.

Input: a trace (its workloads, weighted by their dispatch counts) and a matrix from `policy
measure` (p50/p90/CPU time per graph and real device). The search:

1. *single-backend* rule sets: for each real backend B, the base rules with B first in the
   [backends] order of its kind (what a user could write before routes existed);
2. *routed* rule sets: each single-backend set (the current rules' order among them), plus
   [[routes]] for the graphs another backend runs better than it, beyond the noise: from the
   current order, only the graphs that gain move. For each such backend a route is written by
   graph features when one feature
   (min_ops, min_flops, min_constant_bytes, an operator present) separates those graphs from the
   others in the trace, else by the graphs' hashes;
3. CPU modes: each single-backend set also with every CPU mode the matrix measured
   ([policy.*] cpu_threads = n for all four policies, so "low-power" never gets more threads than
   the default), and routes may carry a mode (`threads`) for the graphs it serves better.

Every candidate is priced by replay (policy/trace.py) with the matrix: routes only reorder the
candidates a context already has, so "fallback" and accelerated=false never get an accelerator,
and the truth table is unchanged (the report shows its diff). The winner is the lowest weighted
total of the objective (latency-p50, latency-p90 or cpu-time) among the candidates that beat the
current rules by more than the noise (``significantly_better``); when none does, the current rules
stay. A measurement anchored to a noisy recording carries that noise in its interval (replay).
"""

from __future__ import annotations

import difflib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webnn_bridge.backends.base import Device

from .engine import POLICIES, _merge, backend_order, validate_rules
from .graphs import summarize
from .inventory import backend_name
from .trace import ReplayOutcome, plot_bars, replay, workloads

OBJECTIVES = ("latency-p50", "latency-p90", "cpu-time")
MIN_GAIN = 0.05  # a route must make a workload at least this much faster


@dataclass
class Candidate:
    name: str
    override: dict  # what is written over the defaults
    rules: dict
    outcomes: list[ReplayOutcome] = field(default_factory=list)
    total: float | None = None  # weighted objective over all workloads (None: a workload fails)
    ci: tuple[float, float] | None = None


def _metric(o: ReplayOutcome, objective: str) -> float | None:
    if o.latency_ms is None:
        return None
    if objective == "latency-p90":
        return o.p90_ms if o.p90_ms is not None else o.latency_ms
    if objective == "cpu-time":
        return o.cpu_ms if o.cpu_ms is not None else o.latency_ms
    return o.latency_ms


def _price(c: Candidate, events, base_rules, inventory, matrix, objective: str) -> None:
    rows = replay(events, base_rules, c.rules, inventory, matrix=matrix)
    c.outcomes = [r.b for r in rows]
    vals = [_metric(r.b, objective) for r in rows]
    if any(v is None for v in vals):
        c.total = None
        return
    c.total = sum(v * r.weight for v, r in zip(vals, rows))
    if objective == "latency-p50" and all(r.b.ci_ms for r in rows):
        c.ci = (sum(r.b.ci_ms[0] * r.weight for r in rows), sum(r.b.ci_ms[1] * r.weight for r in rows))


def _margin(a, b, objective: str) -> float:
    """How much faster outcome ``a`` is than ``b`` beyond the noise: the difference of the two
    figures less its own 95% half-width (for p50, the half-widths of a's interval above and b's
    below, in quadrature: the two are independent estimates). Positive: clearly faster."""
    va, vb = _metric(a, objective), _metric(b, objective)
    if objective != "latency-p50":
        return vb - va
    up = a.ci_ms[1] - va if a.ci_ms else 0.0
    down = vb - b.ci_ms[0] if b.ci_ms else 0.0
    return (vb - va) - math.hypot(max(0.0, up), max(0.0, down))


def significantly_better(c: Candidate, ref: Candidate, ws: Sequence, objective: str) -> bool:
    """Whether ``c`` beats ``ref`` by more than the noise, over the workloads the two place
    differently (the rest cost both the same): at least MIN_GAIN of those workloads' weighted total,
    and for p50 still ahead after each difference gives up its 95% half-width (``_margin``)."""
    gain = base = worst = 0.0
    for w, a, b in zip(ws, c.outcomes, ref.outcomes):
        va, vb = _metric(a, objective), _metric(b, objective)
        if a.key == b.key or va is None or vb is None:
            continue
        gain += w.weight * (vb - va)
        base += w.weight * vb
        worst += w.weight * _margin(a, b, objective)
    return base > 0 and gain >= MIN_GAIN * base and worst > 0


def hint_violations(c: Candidate, ws: Sequence) -> list[str]:
    """Workloads whose hint a candidate would betray: accelerated=false or "fallback" on an
    accelerator (routes cannot do it; checked all the same, so that no search ever can), or
    "low-power" with more threads than the default (its cpu_threads, else every core)."""
    import os

    from .engine import normalize, policy_threads

    bad = []
    default_threads = policy_threads(c.rules, "default") or (os.cpu_count() or 1)
    for w, o in zip(ws, c.outcomes):
        policy = normalize(w.options, c.rules).policy
        if o.kind not in (None, "cpu") and policy == "fallback":
            bad.append(f"{w.name}: {o.device} ({o.kind}) for a CPU-only hint")
        if policy == "low-power" and o.threads > default_threads:
            bad.append(f"{w.name}: {o.threads} threads for low-power (the default runs {default_threads})")
    return bad


def _with(base_override: Mapping, extra: Mapping) -> dict:
    return _merge(dict(base_override), extra)


def _route_target(backend: str, threads: int | None, others: list[str]) -> dict:
    """What a route says: the backend order (``backend`` first), and a CPU mode unless ``threads``
    is None (0: the backend's own choice, over a mode the rule set gives every graph)."""
    out: dict[str, Any] = {"backends": [backend, *[b for b in others if b != backend]]}
    if threads is not None:
        out["threads"] = threads
    return out


def _target_name(backend: str, threads: int | None) -> str:
    return f"{backend} with {threads} thread(s)" if threads else backend


def _route_for(graphs_in: list[dict], graphs_out: list[dict], backend: str, others: list[str], idx: int,
               threads: int | None = None) -> dict:
    """A route sending ``graphs_in`` (summaries) to ``backend`` (with a CPU mode when ``threads``):
    by one separating feature if the trace has one, else by hash."""
    ins = [summarize(g) for g in graphs_in]
    outs = [summarize(g) for g in graphs_out]
    target, name = _route_target(backend, threads, others), _target_name(backend, threads)
    rid = f"tuned-{idx}-{backend}" + (f"-t{threads}" if threads else "")
    feats = {
        "min_ops": lambda s: len(s.nodes),
        "min_flops": lambda s: s.flops(),
        "min_constant_bytes": lambda s: s.constant_bytes,
    }
    for key, f in feats.items():
        threshold = min(f(s) for s in ins)
        if all(f(s) < threshold for s in outs):
            value = int(threshold) if key != "min_flops" else float(threshold)
            return {"id": rid, "when": {key: value}, **target,
                    "reason": f"tuned: graphs with {key.replace('min_', '')} >= {value:g} measured better on {name}"}
    common = set.intersection(*(set(s.op_counts()) for s in ins))
    for op in sorted(common):
        if all(op not in s.op_counts() for s in outs):
            return {"id": rid, "when": {"ops_any": [op]}, **target,
                    "reason": f"tuned: graphs with {op} measured better on {name}"}
    return {"id": rid, "when": {"graphs": sorted(s.hash[:16] for s in ins)}, **target,
            "reason": f"tuned: these graphs measured better on {name}"}


def _routed(anchor: Candidate, priced: Sequence[Candidate], ws: Sequence, by_kind: Mapping[str, list[str]],
            modes: Sequence[int], events, base_rules, inventory, matrix, objective: str) -> list[Candidate]:
    """``anchor``'s rules plus routes for the graphs another backend runs clearly better (priced as
    the single-backend sets price them: recorded, anchored measurements or models): at least
    MIN_GAIN faster, and for p50 with the difference beyond its own 95% half-width (_margin: noise
    never earns a route). Two ways to write them: by a separating feature, and by graph hash."""
    prefer: dict[tuple, list[dict]] = {}
    stay: list[dict] = []
    for i, w in enumerate(ws):
        cur = anchor.outcomes[i]
        cur_v = _metric(cur, objective)
        best_alt = None
        for c in priced:
            alt = c.outcomes[i]
            v = _metric(alt, objective)
            if (c is anchor or v is None or cur_v is None or alt.key == cur.key or alt.kind != cur.kind
                    or (alt.key or "").startswith("partition:")):
                continue
            significant = v < cur_v * (1 - MIN_GAIN) and _margin(alt, cur, objective) > 0
            if significant and (best_alt is None or v < _metric(best_alt, objective)):
                best_alt = alt
        if best_alt is not None and best_alt.backend:
            prefer.setdefault((best_alt.backend, best_alt.threads), []).append(w.graph)
        else:
            stay.append(w.graph)
    if not prefer:
        return []
    kind = next(iter(by_kind))
    order_of = by_kind.get(kind, [])
    feature_routes, hash_routes = [], []
    for i, ((backend, n), gs) in enumerate(sorted(prefer.items())):
        others = [g for t, x in prefer.items() if t != (backend, n) for g in x] + stay
        threads = n if modes else None  # with modes in play, a route always says its own
        feature_routes.append(_route_for(gs, others, backend, order_of, i, threads))
        hash_routes.append({"id": f"tuned-{i}-{backend}" + (f"-t{threads}" if threads else ""),
                            "when": {"graphs": sorted(summarize(g).hash[:16] for g in gs)},
                            **_route_target(backend, threads, order_of),
                            "reason": f"tuned: these graphs measured better on {_target_name(backend, threads)}"})
    out = []
    for how, routes in (("features", feature_routes), ("by graph", hash_routes)):
        rules = dict(anchor.rules)
        rules["routes"] = routes
        if validate_rules(rules):
            continue
        c = Candidate(f"{anchor.name}, routed ({how})", _with(anchor.override, {"routes": routes}), rules)
        _price(c, events, base_rules, inventory, matrix, objective)
        out.append(c)
    return out


def tune(events: Sequence[Mapping], matrix: Mapping, base_rules: Mapping, inventory: Sequence[Device], *,
         objective: str = "latency-p50", base_override: Mapping | None = None) -> dict:
    """The search (module doc). Returns {"best", "candidates", "baseline", "single", "rows", ...}."""
    if objective not in OBJECTIVES:
        raise ValueError(f"--objective must be one of {', '.join(OBJECTIVES)}, not {objective!r}")
    base_override = dict(base_override or {})
    ws = workloads(events)
    real = [d for d in inventory if d.id in matrix.get("devices", {})]
    if not real:
        raise ValueError("the matrix names none of this inventory's devices (measure on this machine)")
    cands: list[Candidate] = []
    baseline = Candidate("baseline (current rules)", base_override, dict(base_rules))
    cands.append(baseline)
    by_kind: dict[str, list[str]] = {}
    for d in real:
        by_kind.setdefault(d.kind, [])
        if backend_name(d) not in by_kind[d.kind]:
            by_kind[d.kind].append(backend_name(d))
    singles = []
    modes = [int(n) for n in matrix.get("modes", []) if isinstance(n, int) and not isinstance(n, bool) and n > 0]
    for kind, backends in by_kind.items():
        rest = [b for b in backend_order(base_rules, kind) if b not in backends]
        for b in backends:
            order = [b, *[x for x in backends if x != b], *rest]
            ov = _with(base_override, {"backends": {kind: order}})
            singles.append(Candidate(f"{b} first ({kind})", ov, _merge(dict(base_rules), {"backends": {kind: order}})))
            for n in modes if kind == "cpu" else []:  # the same with a CPU mode for every policy
                mode = {"policy": {p: {"cpu_threads": n} for p in POLICIES}}
                singles.append(Candidate(f"{b} first ({kind}), {n} thread(s)", _with(ov, mode),
                                         _merge(_merge(dict(base_rules), {"backends": {kind: order}}), mode)))
    cands += singles
    for c in cands:
        _price(c, events, base_rules, inventory, matrix, objective)
    priced = [c for c in singles if c.total is not None]
    if not priced:
        raise ValueError("no single-backend rule set runs every workload with the matrix's devices")
    best_single = min(priced, key=lambda c: c.total)
    for anchor in priced:  # routes from every single-backend set, the current rules' order among them
        cands += _routed(anchor, priced, ws, by_kind, modes, events, base_rules, inventory, matrix, objective)
    ok = [c for c in cands if c.total is not None and not hint_violations(c, ws)]
    # ties (the same placements written two ways): fewer routes, then the current backend orders
    ranked = sorted(ok, key=lambda c: (c.total, len(c.override.get("routes", [])),
                                       any(backend_order(c.rules, k) != backend_order(base_rules, k) for k in by_kind)))
    if baseline in ok:  # the current rules stay unless a candidate beats them by more than the noise
        best = next(c for c in ranked if c is baseline or significantly_better(c, baseline, ws, objective))
    else:
        best = ranked[0]
    kept = best is baseline and ranked[0] is not baseline
    return {"best": best, "baseline": baseline, "best_single": best_single, "candidates": cands,
            "workloads": ws, "objective": objective,
            "note": (f"kept the current rules: {ranked[0].name} totals less, but not by more than the noise "
                     f"(at least {MIN_GAIN:.0%} on the workloads it moves, and still ahead once each difference gives "
                     "up its 95% half-width)") if kept else None}


# --------------------------------------------------------------------------- outputs


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{ " + ", ".join(f"{k} = {_toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(type(v).__name__)


def to_toml(override: Mapping, header: str = "") -> str:
    """A rules file (merged over the defaults by load_rules) for ``override``."""
    lines = [f"# {line}" for line in header.splitlines()] + ([""] if header else [])
    tables = {k: v for k, v in override.items() if isinstance(v, Mapping)}
    arrays = {k: v for k, v in override.items() if isinstance(v, list) and v and all(isinstance(x, Mapping) for x in v)}
    for key, value in override.items():
        if key not in tables and key not in arrays:
            lines.append(f"{key} = {_toml_value(value)}")

    def table(prefix: str, t: Mapping) -> None:
        plain = {k: v for k, v in t.items() if not isinstance(v, Mapping)}
        if plain:
            lines.append(f"[{prefix}]")
            lines.extend(f"{k} = {_toml_value(v)}" for k, v in plain.items())
            lines.append("")
        for k, v in t.items():
            if isinstance(v, Mapping):
                table(f"{prefix}.{k}", v)

    for key, t in tables.items():
        table(key, t)
    for key, rows in arrays.items():
        for row in rows:
            lines.append(f"[[{key}]]")
            lines.extend(f"{k} = {_toml_value(v)}" for k, v in row.items())
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _fmt(o: ReplayOutcome, objective: str) -> str:
    v = _metric(o, objective)
    if v is None:
        return "FAILED"
    ci = f" [{o.ci_ms[0]:.2f}, {o.ci_ms[1]:.2f}]" if o.ci_ms and objective == "latency-p50" else ""
    return f"{v:.2f}{ci} {o.latency_source}"


def report_markdown(result: Mapping, truth_diff: str) -> str:
    best, base, single = result["best"], result["baseline"], result["best_single"]
    obj = result["objective"]
    unit = "ms CPU" if obj == "cpu-time" else "ms"
    out = ["# policy tune report", "",
           f"Objective: {obj} (per dispatch, weighted by each workload's dispatch count). Chosen: **{best.name}**"
           + (f"; {result['note']}." if result.get("note") else "."), "",
           "| rule set | weighted total | 95% CI of the total |", "|---|---|---|"]
    for c in result["candidates"]:
        tot = "FAILS a workload" if c.total is None else f"{c.total:.2f} {unit}"
        ci = f"[{c.ci[0]:.2f}, {c.ci[1]:.2f}]" if c.ci else "-"
        out.append(f"| {c.name}{' (chosen)' if c is best else ''} | {tot} | {ci} |")
    out += ["", f"| workload (page, graph) | dispatches | before: device | before {unit} | best single: device "
                f"| {unit} | after: device | after {unit} |", "|---|---|---|---|---|---|---|---|"]
    for w, a, s, b in zip(result["workloads"], base.outcomes, single.outcomes, best.outcomes):
        out.append(f"| {w.name} | {w.weight} | {a.label} | {_fmt(a, obj)} | {s.label} | {_fmt(s, obj)} "
                   f"| {b.label} | {_fmt(b, obj)} |")
    out += ["", "Sources: measured = `policy measure` on this machine; recorded = the trace; modelled = the "
                "per-op-class model (calibrated backends) or the static cost model (declared devices).", "",
            "## Truth table diff", "", "```diff", truth_diff or "(no change: tuning never edits [[options]])", "```", ""]
    return "\n".join(out)


def write_outputs(result: Mapping, rules_path: str | Path, report_dir: str | Path, base_rules: Mapping) -> dict:
    from .engine import load_rules
    from .truth_table import render_truth_table

    best = result["best"]
    header = (f"Written by `webnn-bridge policy tune` (objective {result['objective']}): {best.name}.\n"
              "Merged over the default rules: `webnn-bridge serve --rules THIS_FILE`, or SIGHUP a running host.")
    rp = Path(rules_path)
    rp.parent.mkdir(parents=True, exist_ok=True)
    rp.write_text(to_toml(best.override, header), encoding="utf-8")
    written = load_rules(rp)  # what a host would load: validated, or ValueError
    before = render_truth_table(base_rules).splitlines()
    after = render_truth_table(written).splitlines()
    diff = "\n".join(difflib.unified_diff(before, after, "before", "after", lineterm="", n=1))
    d = Path(report_dir)
    d.mkdir(parents=True, exist_ok=True)
    md = d / "tune.md"
    md.write_text(report_markdown(result, diff), encoding="utf-8")
    ws = result["workloads"]
    png = plot_bars([f"{w.name} (x{w.weight})" for w in ws],
                    [("before", "tab:blue", result["baseline"].outcomes),
                     (f"best single: {result['best_single'].name}", "tab:gray", result["best_single"].outcomes),
                     (f"tuned: {best.name}", "tab:orange", best.outcomes)],
                    d / "tune.png", f"policy tune ({result['objective']}): p50 per dispatch before and after")
    return {"rules": rp, "md": md, "png": png}
