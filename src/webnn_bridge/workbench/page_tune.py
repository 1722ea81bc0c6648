"""`policy tune`'s [page] step: the FLOPs bound under which a graph runs in the page that built it
(rules.toml §4c), from what pages timed themselves.

A graph in the page and a graph on the host are compared as the page sees them: ``pageLatency``
events (js_shim/runtime.js, while the host records a trace), from ``dispatch()`` to the run's end
in the page (``"inPage": true``) and from ``dispatch()`` to the read of an output resolving on the
host (the round trip included). The host's own dispatch times leave out the round trip and would
flatter the host. So both sides of a graph must have been recorded: record the same pages under
the current rules, with the page's runtime off (`serve --no-page-local`) and with a higher bound
(`[page] max_flops` in a rules file), and pass every trace to `policy tune` (benchmarks/
bench_apps.py --record does the three).

The search moves one number, ``[page] max_flops``. A workload (page, graph, options; as replay's)
counts for the page only where a trace shows the page running it; one that a build's reasons say
the page refused for anything but its FLOPs never moves; one never placed with a page runtime at
hand is unknown, and a bound that would move it is not considered. The first runs a host made of
a graph placed in the page, while the page's runtime started, are left out (cold, and the page's
first dispatches only). Candidate bounds sit at the moved graphs' own FLOPs (raising: the largest
moved into the page; lowering: just under the smallest moved out). A candidate is eligible only
when every workload it moves is measured on both sides and clearly faster where it goes: the
ratio of the two p50s at most 1 - MIN_GAIN and its bootstrap 95% interval below 1. Among eligible
candidates the one that saves the most page time, weighted by each workload's runs, wins; with
none, the current bound stays. Under the cpu-time objective the step does not run (the page's CPU
time is not recorded).
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from webnn_bridge.policy.graphs import summarize

from .trace import MIN_GAIN, BuildKeys

MIN_RUNS = 5  # fewer timed runs on a side than this: not measured
RESAMPLES = 1000
_REFUSED = "not in the page: "  # policy/engine.py decide_build's note


@dataclass
class PageWorkload:
    """One workload's page-side times, where the page ran it and where the host did."""

    page: str
    label: str
    graph_hash: str
    options: dict
    flops: float
    status: str = "unknown"  # "ran": a trace has the page running it; "refused": not for its FLOPs alone
    why: str = ""  # the refusal, for "refused"
    in_page: list = field(default_factory=list)  # ms, dispatch() to the run's end in the page
    on_host: list = field(default_factory=list)  # ms, dispatch() to the read resolving, the host running it

    @property
    def name(self) -> str:
        return f"{self.page} {self.label or self.graph_hash[:10]}".strip()

    @property
    def weight(self) -> int:
        return max(1, len(self.in_page), len(self.on_host))

    def placed_in_page(self, bound: float) -> bool | None:
        """Whether a bound puts it in the page: None when that is not known (never placed with a
        page runtime at hand, or refused for its FLOPs alone and never tried under a higher bound)."""
        if self.status == "refused":
            return False
        if self.flops > bound:
            return False
        return True if self.status == "ran" else None


@dataclass
class Move:
    workload: PageWorkload
    to_page: bool
    ratio: float | None = None  # new side's p50 / old side's p50
    ci: tuple | None = None
    problem: str | None = None  # why the move is not shown to gain

    def describe(self) -> str:
        where = "into the page" if self.to_page else "to the host"
        if self.ratio is None:
            return f"{self.workload.name} {where}: {self.problem}"
        ci = f" [{self.ci[0]:.2f}, {self.ci[1]:.2f}]" if self.ci else ""
        return f"{self.workload.name} {where}: {self.ratio:.2f}x{ci}" + (f" ({self.problem})" if self.problem else "")


@dataclass
class PageCandidate:
    bound: float
    moves: list
    saved_ms: float = 0.0  # page time saved per recorded runs, summed over the moved workloads

    @property
    def eligible(self) -> bool:
        """Every move measured and clearly faster where it goes (so it saves page time)."""
        return all(m.problem is None for m in self.moves)


@dataclass
class PageTuning:
    current: float | None
    chosen: float | None
    workloads: list
    candidates: list
    note: str

    @property
    def override(self) -> dict:
        """What the tuned rules write: nothing when the bound stays."""
        if self.chosen is None or self.chosen == self.current:
            return {}
        return {"page": {"max_flops": self.chosen}}


def _refusal(ev: Mapping) -> str | None:
    """Why a build's page refused it: the note decide_build puts last in its first reason
    ("graph ...: ...; not in the page: WHY"), or None."""
    for reason in (ev.get("decision") or {}).get("reasons", []) or []:
        _, mark, why = str(reason).partition(_REFUSED)
        if mark:
            return why
    return None


def page_workloads(events: Sequence[Mapping]) -> list[PageWorkload]:
    """The traces' workloads with their page-side times on each side (module doc)."""
    keys = BuildKeys()
    by_key: dict[tuple, PageWorkload] = {}
    by_gid: dict = {}  # gid -> (workload, whether its build put it in the page)
    for ev in events:
        kind = ev.get("event")
        if kind == "context":
            keys.context(ev)
        elif kind == "build":
            s = summarize(ev["graph"])
            key, page, opts = keys.key(ev, s.hash)
            w = by_key.get(key)
            if w is None:
                w = by_key[key] = PageWorkload(page, str(ev.get("label") or ""), s.hash, dict(opts), float(s.flops()))
            in_page = ev.get("inPage") is True
            if in_page:
                w.status = "ran"
            else:
                why = _refusal(ev)
                if why is not None and not why.startswith("FLOPs ") and w.status == "unknown":
                    w.status, w.why = "refused", why
            if ev.get("gid") is not None:
                by_gid[ev["gid"]] = (w, in_page)
        elif kind == "pageLatency" and ev.get("gid") in by_gid:
            w, built_in_page = by_gid[ev["gid"]]
            ms = float(ev["ms"])
            if ev.get("inPage") is True:
                w.in_page.append(ms)
            elif not built_in_page:  # a host run of a graph placed in the page: its runtime was starting
                w.on_host.append(ms)
    for w in by_key.values():  # a page that ran it outranks a refusal recorded elsewhere
        if w.in_page and w.status != "ran":
            w.status, w.why = "ran", ""
    return list(by_key.values())


def _ratio(new: float, old: float) -> float:
    """new / old; a page's clock counts in steps (0.1 ms in Chromium), so an old p50 of 0 is
    possible: nothing is shown faster than it."""
    return new / old if old > 0 else math.inf


def _median_ratio_ci(new: Sequence[float], old: Sequence[float], seed: int) -> tuple[float, tuple[float, float]]:
    """median(new) / median(old) and its bootstrap 95% interval (both sides resampled)."""
    rng = random.Random(seed)
    point = _ratio(statistics.median(new), statistics.median(old))
    ratios = sorted(_ratio(statistics.median(rng.choices(new, k=len(new))), statistics.median(rng.choices(old, k=len(old))))
                    for _ in range(RESAMPLES))
    return point, (ratios[int(0.025 * (RESAMPLES - 1))], ratios[int(math.ceil(0.975 * (RESAMPLES - 1)))])


def _move(w: PageWorkload, to_page: bool, seed: int) -> Move:
    new, old = (w.in_page, w.on_host) if to_page else (w.on_host, w.in_page)
    missing = [side for side, xs in (("in the page", w.in_page), ("on the host", w.on_host)) if len(xs) < MIN_RUNS]
    if missing:
        return Move(w, to_page, problem=f"not measured {' and '.join(missing)} (at least {MIN_RUNS} runs)")
    ratio, ci = _median_ratio_ci(new, old, seed)
    m = Move(w, to_page, ratio, ci)
    if not (ratio <= 1 - MIN_GAIN and ci[1] < 1):
        m.problem = "not clearly faster there"
    return m


def tune_page(events: Sequence[Mapping], base_rules: Mapping, objective: str = "latency-p50") -> PageTuning | None:
    """The [page] max_flops bound (module doc), or None when the traces hold no page-side times."""
    ws = page_workloads(events)
    if not any(w.in_page for w in ws):
        return None
    current = (base_rules.get("page") or {}).get("max_flops")
    current = float(current) if current is not None else math.inf
    if objective == "cpu-time":
        return PageTuning(current, current, ws, [], "the [page] bound is tuned for latency only (the page's CPU "
                                                     "time is not recorded): kept")
    movable = [w for w in ws if w.status != "refused"]
    # raised to take a graph over the bound, or lowered to leave one under it out
    bounds = {w.flops if w.flops > current else math.nextafter(w.flops, -math.inf) for w in movable}
    cands: list[PageCandidate] = []
    for bound in sorted(bounds):
        moves = []
        for i, w in enumerate(movable):
            if (w.flops <= current) == (w.flops <= bound):
                continue  # the bound does not change its side
            before, after = w.placed_in_page(current), w.placed_in_page(bound)
            if before is None or after is None:
                moves.append(Move(w, bool(after), problem="never placed in the page with a page runtime at hand: "
                                                          "its side under this bound is unknown"))
                continue
            moves.append(_move(w, after, 20261128 + i))  # a workload's seed: the same in every candidate
        if not moves:
            continue
        c = PageCandidate(bound, moves)
        for m in moves:
            if m.ratio is not None and math.isfinite(m.ratio):
                old = m.workload.on_host if m.to_page else m.workload.in_page
                c.saved_ms += m.workload.weight * statistics.median(old) * (1 - m.ratio)
        cands.append(c)
    ok = [c for c in cands if c.eligible]
    if not ok:
        # the candidate that would save the most page time, were its moves shown to gain
        closest = max(cands, key=lambda c: c.saved_ms, default=None)
        why = (f"; e.g. max_flops {closest.bound:.3g}: "
               + "; ".join(m.describe() for m in closest.moves if m.problem)[:400]) if closest else ""
        return PageTuning(current, current, ws, cands,
                          f"kept [page] max_flops {current:.3g}: no other bound moves only graphs measured clearly "
                          f"faster where they go{why}")
    best = max(ok, key=lambda c: (c.saved_ms, -abs(math.log(max(c.bound, 1.0) / max(current, 1.0)))))
    return PageTuning(current, best.bound, ws, cands,
                      f"[page] max_flops {current:.3g} -> {best.bound:.3g}: "
                      + "; ".join(m.describe() for m in best.moves))


def _side(w: PageWorkload, bound: float | None) -> str:
    if w.status == "refused":
        return f"host ({w.why})".replace("|", "/")
    return {True: "page", False: "host", None: "?"}[w.placed_in_page(math.inf if bound is None else bound)]


def report_lines(pt: PageTuning) -> list[str]:
    """The report's section: every workload's two sides, the candidates and the decision."""
    out = ["## The page's bound ([page] max_flops)", "",
           f"{pt.note}.", "",
           "Each workload's p50 as its page timed it (ms, dispatch() to the result): where the page ran "
           "it, and where the host did (the round trip included).", "",
           "| workload | FLOPs | in the page (runs) | on the host (runs) | page / host | side now | after |",
           "|---|---|---|---|---|---|---|"]
    for w in sorted(pt.workloads, key=lambda w: w.flops):
        p = f"{statistics.median(w.in_page):.3f} ({len(w.in_page)})" if w.in_page else "-"
        h = f"{statistics.median(w.on_host):.3f} ({len(w.on_host)})" if w.on_host else "-"
        r = f"{_ratio(statistics.median(w.in_page), statistics.median(w.on_host)):.2f}x" if w.in_page and w.on_host else "-"
        out.append(f"| {w.name.replace('|', '/')} | {w.flops:.3g} | {p} | {h} | {r} | {_side(w, pt.current)} | "
                   f"{_side(w, pt.chosen)} |")
    if pt.candidates:
        out += ["", "| candidate max_flops | moves | saved (ms over the recorded runs) | eligible |", "|---|---|---|---|"]
        for c in pt.candidates:
            out.append(f"| {c.bound:.6g}{' **(chosen)**' if c.bound == pt.chosen and pt.override else ''} | "
                       f"{'; '.join(m.describe() for m in c.moves).replace('|', '/')} | {c.saved_ms:.1f} | "
                       f"{'yes' if c.eligible else 'no'} |")
    return out + [""]
