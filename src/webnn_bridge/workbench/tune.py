"""`policy tune`: pick rules from measurements, keeping every hint's meaning.

Input: a trace (its workloads, weighted by their dispatch counts) and a matrix from `policy
measure` (p50/p90/CPU time per graph and real device). The search:

1. *single-backend* rule sets: for each real backend B, the base rules with B first in the
   [backends] order of its kind (what a user could write before routes existed);
2. *routed* rule sets: each single-backend set (the current rules' order among them), plus
   [[routes]] for the graphs another placement runs better than it, beyond the noise: from the
   current order, only the graphs that gain move. The other placement may be another backend of
   the same kind, or another device kind wherever the truth table lets the context's candidates
   be reordered (a default context has the CPU among its kinds: its small graphs may go there;
   "fallback" has no accelerator, a strict request no CPU): such a route says `kinds` and the
   `policies` it was measured for. For each target a route is written by graph features when one
   feature (node count, FLOPs, constant bytes, input and output bytes, at least or at most, or an
   operator present) separates those graphs from the others in the trace, its threshold at the
   moved graphs' own extreme, else by the graphs' hashes; the candidate's name says which;
3. CPU modes: each single-backend set also with every CPU mode the matrix measured
   ([policy.*] cpu_threads = n for all four policies, so "low-power" never gets more threads than
   the default), and routes may carry a mode (`threads`) for the graphs it serves better.

*Noise.* A difference counts only beyond its own 95% interval. Where the trace recorded both
placements of a graph in interleaved rounds (trace.py: Rounds), the rounds are pairs and the
decision is on the paired ratio (the geometric mean of the per-round ratios, with a bootstrap
interval): at least MIN_GAIN faster and the interval below 1. Otherwise the two figures are
independent estimates and their half-widths add in quadrature.

*Graphs tune has not seen* get the default order. A rule set that changes it (another backend
first, or a CPU mode for every graph) is eligible only when that order is no worse than the
current rules on every measured workload it places differently, beyond the noise (its figure
plus the difference's half-width at or below the current one); otherwise the routes carry the
gain and the default stays. Routes match by a threshold at the moved graphs' own extreme, so a
graph between the seen ones keeps its place, and the current rules' own routes follow the new ones.

Every candidate is priced by replay (workbench/trace.py) with the matrix: routes only reorder the
candidates a context already has, so "fallback" and accelerated=false never get an accelerator,
and the truth table is unchanged (the report shows its diff). The winner is the lowest weighted
total of the objective (latency-p50, latency-p90 or cpu-time) among the eligible candidates that
beat the current rules by more than the noise (``significantly_better``); when none does, the
current rules stay.
"""

from __future__ import annotations

import difflib
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webnn_bridge.backends.base import Device
from webnn_bridge.policy.engine import POLICIES, _merge, backend_order, io_bytes, normalize, validate_rules
from webnn_bridge.policy.graphs import summarize
from webnn_bridge.policy.inventory import backend_name

from .page_tune import report_lines as page_report_lines
from .page_tune import tune_page
from .trace import (
    MIN_GAIN,
    PairedRatio,
    ReplayOutcome,
    aligned_rounds,
    in_page_note,
    pair_rounds,
    paired_ratio,
    plot_bars,
    replay,
    workloads,
)

OBJECTIVES = ("latency-p50", "latency-p90", "cpu-time")

Paired = Callable[[Any, ReplayOutcome, ReplayOutcome], "PairedRatio | None"]


@dataclass
class Candidate:
    name: str
    override: dict  # what is written over the defaults
    rules: dict
    outcomes: list[ReplayOutcome] = field(default_factory=list)
    total: float | None = None  # weighted objective over all workloads (None: a workload fails)
    ci: tuple[float, float] | None = None
    anchor: Candidate | None = field(default=None, repr=False)  # a routed set: the set its routes start from
    unsafe: list[str] = field(default_factory=list)  # why its default order may not be written

    @property
    def routes(self) -> list[dict]:
        return list(self.override.get("routes", []))


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


def pairing(events: Sequence[Mapping], inventory: Sequence[Device]) -> Paired:
    """``paired(workload, a, b)``: the paired ratio of b to a (trace.paired_ratio) where the trace
    recorded both placements of the workload's graph in rounds that pair, else None."""
    rounds = aligned_rounds(events, inventory)
    memo: dict[tuple, PairedRatio | None] = {}

    def paired(w, a: ReplayOutcome, b: ReplayOutcome) -> PairedRatio | None:
        if a.latency_source != "recorded" or b.latency_source != "recorded" or not a.key or not b.key or a.key == b.key:
            return None
        h = summarize(w.graph).hash
        if (h, a.key, b.key) not in memo:
            per = rounds.get(h, {})
            pairs = pair_rounds(per.get(a.key, []), per.get(b.key, []))
            memo[(h, a.key, b.key)] = paired_ratio([(x.p50, y.p50) for x, y in pairs])
        return memo[(h, a.key, b.key)]

    return paired


def _margin(a, b, objective: str, pr: PairedRatio | None = None) -> float:
    """How much faster outcome ``a`` is than ``b`` beyond the noise, in the objective's unit.
    Paired (``pr``: a's per-round ratio to b): b's figure times (1 - the ratio's upper bound).
    Else the difference of the two figures less its own 95% half-width (for p50, the half-widths of
    a's interval above and b's below, in quadrature: the two are independent estimates).
    Positive: clearly faster."""
    va, vb = _metric(a, objective), _metric(b, objective)
    if objective != "latency-p50":
        return vb - va
    if pr is not None:
        return vb * (1.0 - pr.hi)
    up = a.ci_ms[1] - va if a.ci_ms else 0.0
    down = vb - b.ci_ms[0] if b.ci_ms else 0.0
    return (vb - va) - math.hypot(max(0.0, up), max(0.0, down))


def clearly_faster(a, b, objective: str, pr: PairedRatio | None = None) -> bool:
    """Whether ``a`` beats ``b`` by at least MIN_GAIN and beyond the noise (paired: the ratio at
    most 1 - MIN_GAIN and its interval below 1)."""
    va, vb = _metric(a, objective), _metric(b, objective)
    if va is None or vb is None:
        return False
    if pr is not None and objective == "latency-p50":
        return pr.ratio <= 1.0 - MIN_GAIN and pr.hi < 1.0
    return va < vb * (1 - MIN_GAIN) and _margin(a, b, objective) > 0


def significantly_better(c: Candidate, ref: Candidate, ws: Sequence, objective: str,
                         paired: Paired | None = None) -> bool:
    """Whether ``c`` beats ``ref`` by more than the noise, over the workloads the two place
    differently (the rest cost both the same): at least MIN_GAIN of those workloads' weighted total,
    and for p50 still ahead after each difference gives up its 95% half-width (``_margin``; paired
    rounds where the trace has them)."""
    gain = base = worst = 0.0
    for w, a, b in zip(ws, c.outcomes, ref.outcomes):
        va, vb = _metric(a, objective), _metric(b, objective)
        if a.key == b.key or va is None or vb is None:
            continue
        gain += w.weight * (vb - va)
        base += w.weight * vb
        worst += w.weight * _margin(a, b, objective, paired(w, b, a) if paired else None)
    return base > 0 and gain >= MIN_GAIN * base and worst > 0


def default_problems(c: Candidate, ref: Candidate, ws: Sequence, objective: str,
                     paired: Paired | None = None) -> list[str]:
    """Why ``c``'s default (its rules without the routes tune adds) may not replace ``ref``'s:
    each measured workload it places differently where it is not shown no worse, beyond the noise
    (its figure plus the difference's half-width above ``ref``'s; paired rounds where the trace has
    them). Graphs tune has not seen would get that default."""
    out = []
    for w, a, b in zip(ws, c.outcomes, ref.outcomes):
        va, vb = _metric(a, objective), _metric(b, objective)
        if a.key == b.key and a.device == b.device:
            continue
        if va is None:
            out.append(f"{w.name} {w.options_text}: fails on it ({a.label})")
            continue
        if vb is None:
            continue
        pr = paired(w, b, a) if paired else None
        if objective != "latency-p50":
            worse = va - vb
        elif pr is not None:
            worse = vb * (pr.hi - 1.0)
        else:
            up = a.ci_ms[1] - va if a.ci_ms else 0.0
            down = vb - b.ci_ms[0] if b.ci_ms else 0.0
            worse = (va - vb) + math.hypot(max(0.0, up), max(0.0, down))
        if worse > 1e-12:
            out.append(f"{w.name} {w.options_text}: {va:.2f} on {a.label} against {vb:.2f} on {b.label}"
                       + (f" (paired {pr.describe()})" if pr else ""))
    return out


def hint_violations(c: Candidate, ws: Sequence) -> list[str]:
    """Workloads whose hint a candidate would betray: accelerated=false or "fallback" on an
    accelerator (routes cannot do it; checked all the same, so that no search ever can), or
    "low-power" with more threads than the default (its cpu_threads, else every core)."""
    import os

    from webnn_bridge.policy.engine import policy_threads

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


def _route_target(backend: str, threads: int | None, others: list[str], kind: str | None = None) -> dict:
    """What a route says: the device kind first (``kind``, for a route across kinds), the backend
    order (``backend`` first), and a CPU mode unless ``threads`` is None (0: the backend's own
    choice, over a mode the rule set gives every graph)."""
    out: dict[str, Any] = {}
    if kind is not None:
        out["kinds"] = [kind]
    out["backends"] = [backend, *[b for b in dict.fromkeys(others) if b != backend]]
    if threads is not None:
        out["threads"] = threads
    return out


def _target_name(backend: str, threads: int | None, kind: str | None = None) -> str:
    name = f"{backend} with {threads} thread(s)" if threads else backend
    return f"{name} ({kind})" if kind else name


# graph features a route may match on: (name in the report, value)
FEATURES: dict[str, Callable[[Any], float]] = {
    "ops": lambda s: len(s.nodes),
    "flops": lambda s: s.flops(),
    "constant_bytes": lambda s: s.constant_bytes,
    "io_bytes": io_bytes,
}


def _separating_feature(ins: list, outs: list) -> dict[str, float] | None:
    """The `when` of a feature that separates ``ins`` (summaries) from ``outs``, with thresholds at
    the ins' own extremes (a graph between the two sets keeps its place):

    - one-sided where every out lies on one side ("min_flops" = the smallest of the ins: the outs
      are all smaller, so the larger graphs move, and with them any larger one: latencies grow
      with size at their own rate per placement, and the outs show which way the difference goes);
    - the ins' range, both bounds, where outs lie on both sides or there is no out at all (nothing
      says which way the difference goes beyond the graphs seen, so the route stays within them).

    Among the features that separate, the widest gap (the nearest out's ratio to the threshold;
    with no outs, the feature the ins spread widest on: the one that bounds their size best). A
    feature some graph has none of (no constants) is a presence test, not a size, and is not used.
    None when no feature separates them."""
    best: tuple[tuple[float, float], dict[str, float]] | None = None
    for name, f in FEATURES.items():
        vin, vout = [float(f(s)) for s in ins], [float(f(s)) for s in outs]
        if min(vin + vout) <= 0:
            continue
        lo, hi = min(vin), max(vin)
        if vout and all(v < lo for v in vout):
            when, gap = {f"min_{name}": lo}, lo / max(vout)
        elif vout and all(v > hi for v in vout):
            when, gap = {f"max_{name}": hi}, min(vout) / hi
        elif not any(lo <= v <= hi for v in vout):
            when = {f"min_{name}": lo, f"max_{name}": hi}
            gap = min((max(v / hi, lo / v) for v in vout), default=math.inf)
        else:
            continue
        rank = (gap, hi / lo)
        if best is None or rank > best[0]:
            best = (rank, when)
    return None if best is None else best[1]


def _when_text(when: Mapping[str, float]) -> str:
    parts = []
    for key, value in when.items():
        side, name = key.split("_", 1)
        parts.append(f"{'at least' if side == 'min' else 'at most'} {value:g} {name.replace('_', ' ')}")
    return " and ".join(parts)


def _route_for(graphs_in: list[dict], graphs_out: list[dict], backend: str, others: list[str], idx: int,
               threads: int | None = None, kind: str | None = None, policies: list[str] | None = None) -> dict:
    """A route sending ``graphs_in`` (summaries) to ``backend`` (of device kind ``kind`` first, for
    a route across kinds; with a CPU mode when ``threads``): by one separating feature if the trace
    has one, else by an operator present in all of them and none of the others, else by hash."""
    ins = [summarize(g) for g in graphs_in]
    outs = [summarize(g) for g in graphs_out]
    target, name = _route_target(backend, threads, others, kind), _target_name(backend, threads, kind)
    rid = f"tuned-{idx}-{backend}" + (f"-{kind}" if kind else "") + (f"-t{threads}" if threads else "")
    head: dict[str, Any] = {"id": rid}
    if policies:
        head["policies"] = list(policies)
    found = _separating_feature(ins, outs)
    if found:
        when = {k: float(v) if k.endswith("flops") else int(v) for k, v in found.items()}
        return {**head, "when": when, **target,
                "reason": f"tuned: graphs with {_when_text(when)} measured better on {name}"}
    common = set.intersection(*(set(s.op_counts()) for s in ins))
    for op in sorted(common):
        if all(op not in s.op_counts() for s in outs):
            return {**head, "when": {"ops_any": [op]}, **target,
                    "reason": f"tuned: graphs with {op} measured better on {name}"}
    return _hash_route(head, ins, target, name)


def _hash_route(head: Mapping, ins: list, target: Mapping, name: str) -> dict:
    return {**head, "when": {"graphs": sorted({s.hash[:16] for s in ins})}, **target,
            "reason": f"tuned: these graphs measured better on {name}"}


def routes_how(routes: Sequence[Mapping]) -> str:
    """What a candidate's routes match on, for its name: the `when` keys ("graph hash")."""
    keys = []
    for r in routes:
        for k in dict(r.get("when", {})):
            keys.append("graph hash" if k == "graphs" else k)
    return ", ".join(dict.fromkeys(keys)) or "every graph"


def _unique_ids(new: list[dict], old: Sequence[Mapping]) -> list[dict]:
    """The new routes, then the current rules' own (so a graph no new route matches keeps its
    place), each id once."""
    taken = {r.get("id") for r in new}
    out = list(new)
    for r in old:
        r = dict(r)
        rid, n = r.get("id"), 2
        while r.get("id") in taken:
            r["id"] = f"{rid}-{n}"
            n += 1
        taken.add(r["id"])
        out.append(r)
    return out


def _routed(anchor: Candidate, sources: Sequence[Candidate], ws: Sequence, by_kind: Mapping[str, list[str]],
            modes: Sequence[int], events, base_rules, inventory, matrix, objective: str,
            paired: Paired | None = None, label: str | None = None) -> list[Candidate]:
    """``anchor``'s rules plus routes for the graphs another placement runs clearly better (priced as
    the single-backend sets and the kind-first sets price them: recorded, anchored measurements or
    models): at least MIN_GAIN faster, beyond the noise (clearly_faster: paired rounds where the
    trace has them). Two ways to write them: by a separating feature, and by graph hash."""
    prefer: dict[tuple, list[int]] = {}
    stay: list[int] = []
    for i, w in enumerate(ws):
        cur = anchor.outcomes[i]
        best_alt = None
        for c in sources:
            alt = c.outcomes[i]
            v = _metric(alt, objective)
            if (c is anchor or v is None or _metric(cur, objective) is None or alt.key == cur.key
                    or not alt.backend or not alt.kind or (alt.key or "").startswith("partition:")):
                continue
            if clearly_faster(alt, cur, objective, paired(w, cur, alt) if paired else None) and (
                    best_alt is None or v < _metric(best_alt, objective)):
                best_alt = alt
        if best_alt is not None:
            cross = best_alt.kind != cur.kind
            prefer.setdefault((best_alt.kind, best_alt.backend, best_alt.threads, cross), []).append(i)
        else:
            stay.append(i)
    if not prefer:
        return []
    old_routes = list(anchor.rules.get("routes") or [])
    policy_of = [normalize(w.options, anchor.rules).policy for w in ws]
    feature_routes, hash_routes = [], []
    for idx, ((kind, backend, n, cross), moved) in enumerate(sorted(prefer.items())):
        threads = n if modes else None  # with modes in play, a route always says its own
        # the target first, then the real backends of its kind and of the other kinds, each in the
        # anchor's order (a route's backend order applies within every kind)
        others = [b for k in (kind, *[k for k in by_kind if k != kind])
                  for b in sorted(by_kind.get(k, []), key=lambda x, k=k: _rank(anchor.rules, k, x))]
        policies = sorted({policy_of[i] for i in moved}, key=POLICIES.index) if cross else None
        in_hashes = {summarize(ws[i].graph).hash for i in moved}
        rest = [i for i in range(len(ws)) if i not in moved and (not policies or policy_of[i] in policies)]
        graphs_out = [ws[i].graph for i in rest if summarize(ws[i].graph).hash not in in_hashes]
        graphs_in = [ws[i].graph for i in moved]
        feature_routes.append(_route_for(graphs_in, graphs_out, backend, others, idx, threads,
                                         kind if cross else None, policies))
        head: dict[str, Any] = {"id": feature_routes[-1]["id"]}
        if policies:
            head["policies"] = policies
        hash_routes.append(_hash_route(head, [summarize(g) for g in graphs_in],
                                       _route_target(backend, threads, others, kind if cross else None),
                                       _target_name(backend, threads, kind if cross else None)))
    out = []
    ways = [feature_routes] if feature_routes == hash_routes else [feature_routes, hash_routes]
    for routes in ways:
        every = _unique_ids(routes, old_routes)
        rules = dict(anchor.rules)
        rules["routes"] = every
        if validate_rules(rules):
            continue
        c = Candidate(f"{label or anchor.name}, routed by {routes_how(routes)}",
                      _with(anchor.override, {"routes": every}), rules, anchor=anchor)
        _price(c, events, base_rules, inventory, matrix, objective)
        out.append(c)
    return out


def _rank(rules: Mapping, kind: str, backend: str) -> int:
    order = backend_order(rules, kind)
    return order.index(backend) if backend in order else len(order)


def _probes(base_rules: Mapping, base_override: Mapping, by_kind: Mapping[str, list[str]]) -> list[Candidate]:
    """Rule sets that put one device kind and one backend first for every graph (a route with no
    `when`): never written, they price each workload on every placement its context may be moved
    to, so that a route can move a graph across kinds (small graphs of a default context to the
    CPU). Only with more than one kind."""
    if len(by_kind) < 2:
        return []
    old = list(base_rules.get("routes") or [])
    out = []
    for kind, backends in by_kind.items():
        for b in backends:
            probe = {"id": f"probe-{kind}-{b}", "kinds": [kind], "backends": [b, *[x for x in backends if x != b]]}
            routes = _unique_ids([probe], old)
            out.append(Candidate(f"{b} ({kind}) for every graph", _with(base_override, {"routes": routes}),
                                 _merge(dict(base_rules), {"routes": routes})))
    return out


def _defaults(rules: Mapping, by_kind: Mapping[str, list[str]]) -> tuple:
    """What graphs no route matches get: the order of this machine's backends of each kind, and
    each policy's CPU mode."""
    from webnn_bridge.policy.engine import policy_threads

    return (tuple(tuple(sorted(bs, key=lambda b, k=k: _rank(rules, k, b))) for k, bs in by_kind.items()),
            tuple(policy_threads(rules, p) for p in POLICIES))


def _same_defaults(c: Candidate, base_rules: Mapping, kinds) -> bool:
    return _defaults(c.rules, kinds) == _defaults(base_rules, kinds)


def tune(events: Sequence[Mapping], matrix: Mapping, base_rules: Mapping, inventory: Sequence[Device], *,
         objective: str = "latency-p50", base_override: Mapping | None = None) -> dict:
    """The search (module doc). Returns {"best", "candidates", "baseline", "best_single", "workloads",
    "objective", "note", "paired", "probes", "page"} ("page": the [page] step's PageTuning, workbench/
    page_tune.py, or None when the trace holds no page-side times)."""
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
            # an order the current rules already give is not written again
            current = sorted(backends, key=lambda x, k=kind: _rank(base_rules, k, x))
            # an order the current rules already give (for this machine's backends) is not written again
            change = {"backends": {kind: order}} if order[:len(backends)] != current else {}
            ov = _with(base_override, change)
            singles.append(Candidate(f"{b} first ({kind})", ov, _merge(dict(base_rules), change)))
            for n in modes if kind == "cpu" else []:  # the same with a CPU mode for every policy
                mode = {"policy": {p: {"cpu_threads": n} for p in POLICIES}}
                singles.append(Candidate(f"{b} first ({kind}), {n} thread(s)", _with(ov, mode),
                                         _merge(_merge(dict(base_rules), change), mode)))
    cands += singles
    probes = _probes(base_rules, base_override, by_kind)
    for c in cands + probes:
        _price(c, events, base_rules, inventory, matrix, objective)
    priced = [c for c in singles if c.total is not None]
    if not priced:
        raise ValueError("no single-backend rule set runs every workload with the matrix's devices")
    paired = pairing(events, inventory)
    for c in singles:  # a new default order must be no worse than the current one wherever measured
        if not _same_defaults(c, base_rules, by_kind):
            c.unsafe = default_problems(c, baseline, ws, objective, paired)
    best_single = min(priced, key=lambda c: c.total)
    sources = priced + [p for p in probes if p.total is not None]
    anchored: set = set()
    for anchor in priced:  # routes from every single-backend set, the current rules' order among them
        if anchor.unsafe:
            continue  # its default would not be written: the routes from the current order carry the gain
        sig = _defaults(anchor.rules, by_kind)
        if sig in anchored:
            continue  # the same defaults as a set already routed (e.g. each kind's current order)
        anchored.add(sig)
        label = "current rules" if sig == _defaults(base_rules, by_kind) else None
        cands += _routed(anchor, sources, ws, by_kind, modes, events, base_rules, inventory, matrix, objective, paired,
                         label)
    ok = [c for c in cands if c.total is not None and not hint_violations(c, ws)]
    eligible = [c for c in ok if not c.unsafe]
    # ties (the same placements written two ways): fewer routes, then the current backend orders
    ranked = sorted(eligible, key=lambda c: (c.total, len(c.routes), not _same_defaults(c, base_rules, by_kind)))
    if not ranked:
        raise ValueError("no eligible rule set runs every workload with the matrix's devices")
    if baseline in eligible:  # the current rules stay unless a candidate beats them by more than the noise
        best = next(c for c in ranked if c is baseline or significantly_better(c, baseline, ws, objective, paired))
    else:
        best = ranked[0]
    notes = []
    left_out = in_page_note(events)
    if left_out:
        notes.append(left_out)
    if best is baseline and ranked[0] is not baseline:
        notes.append(f"kept the current rules: {ranked[0].name} totals less, but not by more than the noise "
                     f"(at least {MIN_GAIN:.0%} on the workloads it moves, and still ahead once each difference gives "
                     "up its 95% half-width)")
    lower = [c for c in ok if c.unsafe and c.total is not None and best.total is not None and c.total < best.total]
    if lower:
        c = min(lower, key=lambda x: x.total)
        notes.append(f"{c.name} totals less ({c.total:.2f}), but its default order is not shown no worse than the "
                     f"current one beyond the noise on {len(c.unsafe)} workload(s) (e.g. {c.unsafe[0]}): graphs tune "
                     "has not seen would get it, so the default stays and routes carry the gain")
    startup = startup_note(ws, baseline.outcomes, best.outcomes, matrix) if best is not baseline else None
    if startup:
        notes.append(startup)
    page = tune_page(events, base_rules, objective)  # the [page] bound, from the pages' own times
    if page is not None:
        notes.append(page.note)
    return {"best": best, "baseline": baseline, "best_single": best_single, "candidates": cands,
            "workloads": ws, "objective": objective, "paired": paired, "probes": probes, "page": page,
            "note": "; ".join(notes) if notes else None}


def startup_note(ws: Sequence, before: Sequence[ReplayOutcome], after: Sequence[ReplayOutcome],
                 matrix: Mapping) -> str | None:
    """What the chosen rules cost at build(), which the search does not weigh: the matrix's compile
    times (`policy measure`, each compile cold) of the workloads they place elsewhere, times their
    recorded builds, before and after."""
    moved = [(w, a, b) for w, a, b in zip(ws, before, after) if a.key != b.key]
    if not moved:
        return None
    graphs = matrix.get("graphs", {})
    total_a = total_b = 0.0
    builds = unknown = 0
    for w, a, b in moved:
        results = graphs.get(summarize(w.graph).hash, {}).get("results", {})
        ca, cb = (results.get(o.key or "", {}).get("compile_ms") for o in (a, b))
        if ca is None or cb is None:
            unknown += 1
            continue
        n = max(1, len(w.gids))
        builds += n
        total_a, total_b = total_a + n * ca, total_b + n * cb
    if not builds:  # a matrix from before compile times were measured: nothing to say
        return None
    ratio = f" ({total_b / total_a:.2f}x)" if total_a > 0 else ""
    return (f"start-up, not weighed: the {builds} recorded build(s) it places elsewhere compile in "
            f"{total_b:.0f} ms against {total_a:.0f} ms{ratio} (`policy measure`'s cold compiles)"
            + (f"; {unknown} moved workload(s) without compile times" if unknown else ""))


def chosen_override(result: Mapping) -> dict:
    """What the tuned rules file holds: the chosen rule set's override and the [page] step's."""
    page = result.get("page")
    return _with(result["best"].override, page.override) if page is not None and page.override else dict(
        result["best"].override)


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
    note = " (not anchored: 1 round)" if o.note and o.note.startswith("not anchored") else ""
    return f"{v:.2f}{ci} {o.latency_source}{note}"


def _md(text: str) -> str:
    return str(text).replace("|", "\\|")


def _page_ms(w, o: ReplayOutcome) -> str:
    """The page's own p50 (dispatch to the read of an output, as the shim reported it) where the
    trace recorded it on this placement, else "-"."""
    import statistics

    xs = (getattr(w, "page_by_key", {}) or {}).get(o.key or "")
    return f"{statistics.median(xs):.2f}" if xs else "-"


def _route_rows(c: Candidate) -> list[str]:
    if not c.routes:
        return ["(no routes)"]
    out = ["| route | policies | when | kinds first | backends | threads | reason |", "|---|---|---|---|---|---|---|"]
    for r in c.routes:
        when = ", ".join(f"{k} = {json.dumps(v)}" for k, v in dict(r.get("when", {})).items()) or "every graph"
        out.append(f"| `{r.get('id')}` | {', '.join(r.get('policies', [])) or 'all'} | {_md(when)} | "
                   f"{' > '.join(r.get('kinds', [])) or '-'} | {' > '.join(r.get('backends', [])) or '-'} | "
                   f"{r.get('threads', '-')} | {_md(r.get('reason', ''))} |")
    return out


def _writes(c: Candidate, base_override: Mapping) -> str:
    """What a candidate writes beyond the current rules, in a few words."""
    parts = []
    for kind, order in dict(c.override.get("backends", {})).items():
        if order != dict(base_override.get("backends", {})).get(kind):
            parts.append(f"[backends] {kind} = {' > '.join(order)}")
    pol = {p: t.get("cpu_threads") for p, t in dict(c.override.get("policy", {})).items() if isinstance(t, Mapping)}
    if pol and pol != {p: t.get("cpu_threads") for p, t in dict(base_override.get("policy", {})).items()
                       if isinstance(t, Mapping)}:
        parts.append(f"cpu_threads = {sorted(set(pol.values()))[0]} for every policy")
    new = [r for r in c.routes if str(r.get("id", "")).startswith("tuned-")
           and r not in list(base_override.get("routes", []))]
    if new:
        parts.append(f"{len(new)} route(s) by {routes_how(new)}")
    return "; ".join(parts) or "the current rules"


SOURCES = """\
## Where each number comes from

All figures are milliseconds per dispatch (`cpu-time`: CPU milliseconds per dispatch), the host's
p50 of its dispatch of the graph, unless a column says page; totals weigh each workload by its
dispatch count.

- **recorded**: what the trace's dispatches took on that device, in the host. Its 95% interval
  covers the p50s of the rounds that recorded it (a round: a run of one context's dispatches of
  the graph; each round is one sample of the machine's speed then), so many dispatches from
  rounds that disagree are not a precise figure.
- **measured**: `policy measure` on this machine (warm-up, then runs interleaved across the
  devices; the p50 and its 95% interval). Where the trace recorded the same graph on another
  device, a measurement is *anchored* instead, when that can be done honestly.
- **anchored**: a measurement corrected by what the trace recorded for the same graph on the
  device it did run on, so that both sides of a comparison are priced in the same conditions.
  A browser matrix (`--browser`) times what a trace records, so the recorded/measured ratio on the
  anchor device is the machine's speed then and now, and it scales the measurement; an in-process
  matrix lacks the host's overhead, so recorded minus measured there is added. The interval adds
  the anchor's own (its recorded rounds and its measurement, in quadrature). A browser
  measurement is scaled only from at least two recorded rounds: one round is one sample of the
  machine's speed and is never multiplied through; such a figure stays **measured**, marked
  "not anchored: 1 round", its interval reaching the scaled value.
- **modelled**: the per-op-class model of `policy calibrate` (calibrated real backends) or the
  static cost model (`[perf.*]` of the rules, a profile's perf hints) for declared devices.
- **paired**: where the trace recorded both placements of a graph in interleaved rounds (rules
  recorded by several hosts at once, or one after the other round by round), each round of one is
  paired with the other's nearest in time, and the decision is on the geometric mean of the
  per-round ratios, with a bootstrap 95% interval: a route needs it at most 0.95 and the interval
  below 1.
- **page**: the page's own p50, from `dispatch()` to the read of an output (reported by the shim
  while tracing), on the placement where the trace recorded it. It includes the transfers and
  the page's event loop, often 2-4x the host's figure; tune compares the host's figures, which
  every placement has.
"""


def report_markdown(result: Mapping, truth_diff: str, base_override: Mapping | None = None) -> str:
    best, base, single = result["best"], result["baseline"], result["best_single"]
    obj = result["objective"]
    paired = result.get("paired")
    base_override = base_override or {}
    unit = "CPU ms" if obj == "cpu-time" else "ms"
    total = f"{best.total:.2f} {unit}" if best.total is not None else "-"
    ci = f" (95% interval {best.ci[0]:.2f} to {best.ci[1]:.2f})" if best.ci else ""
    out = ["# policy tune report", "",
           f"Objective: {obj}, {unit} per dispatch, weighted by each workload's dispatch count. "
           f"Chosen: **{best.name}**, predicted total {total}{ci}"
           + (f"; {result['note']}." if result.get("note") else "."), "",
           "A rule set that changes the default order (what graphs tune has not seen get) is eligible only when "
           "that order is no worse than the current rules on every measured workload it places differently, "
           "beyond the noise; the others keep the default and route the graphs that gain.", "",
           "## Rule sets", "",
           f"| rule set | writes | weighted total ({unit}) | 95% interval of the total | eligible |", "|---|---|---|---|---|"]
    for c in result["candidates"]:
        tot = "FAILS a workload" if c.total is None else f"{c.total:.2f}"
        ci_c = f"[{c.ci[0]:.2f}, {c.ci[1]:.2f}]" if c.ci else "-"
        hv = hint_violations(c, result["workloads"]) if c.outcomes else []
        elig = ("no: its default order is not shown no worse on " + "; ".join(c.unsafe[:3])
                + (f"; +{len(c.unsafe) - 3} more" if len(c.unsafe) > 3 else "")) if c.unsafe else (
            f"no: {hv[0]}" if hv else "yes")
        out.append(f"| {c.name}{' **(chosen)**' if c is best else ''} | {_md(_writes(c, base_override))} | {tot} "
                   f"| {ci_c} | {_md(elig)} |")
    out += ["", "## Workloads", "",
            "Each workload is a page, a graph (its output names and node count) and the createContext() options. "
            f"Figures: {unit} per dispatch, the host's p50 [95% interval] and where it comes from (below); page: "
            "the page's own p50 where the trace has it.", "",
            f"| # | page | graph | options | dispatches | before: device | before {unit} | page | "
            f"best single: device | {unit} | after: device | after {unit} | page | after vs before |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for i, (w, a, s, b) in enumerate(zip(result["workloads"], base.outcomes, single.outcomes, best.outcomes)):
        graph = w.label or str(w.graph.get("name") or "") or str(w.graph.get("hash", ""))[:10]
        pr = paired(w, a, b) if paired else None
        va, vb = _metric(a, obj), _metric(b, obj)
        vs = "same placement" if a.key == b.key else (
            f"paired {pr.describe()}" if pr else (f"{vb / va:.2f}x" if va and vb is not None else "-"))
        out.append(f"| {i} | {_md(w.page or '-')} | {_md(graph)} | `{_md(w.options_text)}` | {w.weight} | {a.label} | "
                   f"{_fmt(a, obj)} | {_page_ms(w, a)} | {s.label} | {_fmt(s, obj)} | {b.label} | {_fmt(b, obj)} | "
                   f"{_page_ms(w, b)} | {vs} |")
    out += ["", "## Routes each rule set would write", ""]
    for c in result["candidates"]:
        out += [f"### {c.name}{' (chosen)' if c is best else ''}", "", *_route_rows(c), ""]
    if result.get("page") is not None:
        out += page_report_lines(result["page"])
    out += [SOURCES, "## Truth table diff", "", "```diff",
            truth_diff or "(no change: tuning never edits [[options]])", "```", ""]
    return "\n".join(out)


def write_outputs(result: Mapping, rules_path: str | Path, report_dir: str | Path, base_rules: Mapping,
                  base_override: Mapping | None = None) -> dict:
    """Write the chosen rules and the report (tune.md, tune.png). The rules file is written only
    when all of it succeeds: the rules are validated from a temporary file beside their path, which
    takes the rules' name once the report is written (a failure leaves no rules file behind)."""
    import os

    from webnn_bridge.policy.engine import load_rules
    from webnn_bridge.policy.truth_table import render_truth_table

    best = result["best"]
    page = result.get("page")
    also = f"; {page.note}" if page is not None and page.override else ""
    header = (f"Written by `webnn-bridge policy tune` (objective {result['objective']}): {best.name}{also}.\n"
              "Merged over the default rules: `webnn-bridge serve --rules THIS_FILE`, or SIGHUP a running host.")
    rp = Path(rules_path)
    if rp.is_dir():
        raise ValueError(f"--out {rp}: a folder, not a rules file")
    d = Path(report_dir)
    if d.exists() and not d.is_dir():
        raise ValueError(f"--report {d}: not a folder (tune.md and tune.png go in it)")
    rp.parent.mkdir(parents=True, exist_ok=True)
    tmp = rp.with_name(f".{rp.name}.{os.getpid()}.tmp")  # beside it: the rename below is atomic
    try:
        tmp.write_text(to_toml(chosen_override(result), header), encoding="utf-8")
        try:
            written = load_rules(tmp)  # what a host would load: validated, or ValueError
        except ValueError as e:
            raise ValueError(str(e).replace(str(tmp), str(rp))) from None
        before = render_truth_table(base_rules).splitlines()
        after = render_truth_table(written).splitlines()
        diff = "\n".join(difflib.unified_diff(before, after, "before", "after", lineterm="", n=1))
        d.mkdir(parents=True, exist_ok=True)
        md = d / "tune.md"
        md.write_text(report_markdown(result, diff, base_override), encoding="utf-8")
        ws = result["workloads"]
        png = plot_bars([f"{w.name} {w.options_text} (x{w.weight})" for w in ws],
                        [("before", "tab:blue", result["baseline"].outcomes),
                         (f"best single: {result['best_single'].name}", "tab:gray", result["best_single"].outcomes),
                         (f"tuned: {best.name}", "tab:orange", best.outcomes)],
                        d / "tune.png", f"policy tune ({result['objective']}): host p50 per dispatch before and after")
        os.replace(tmp, rp)
    finally:
        tmp.unlink(missing_ok=True)
    return {"rules": rp, "md": md, "png": png}
