"""Render the context-options truth table (policy/TRUTH_TABLE.md) from the rules data."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from .engine import ABSENT, OPTION_VALUES, default_rules, expand_truth_table

TRUTH_TABLE_MD = Path(__file__).with_name("TRUTH_TABLE.md")
COLUMNS = ("computePolicy", "accelerated", "deviceType", "powerPreference")


def _v(value) -> str:
    if isinstance(value, bool):
        return "`true`" if value else "`false`"
    if value == ABSENT:
        return "(absent)"
    return f"`{value}`"


def _cond(when: Mapping, key: str) -> str:
    if key not in when or when[key] == "*":
        return "any"
    cond = when[key]
    if isinstance(cond, list):
        return " or ".join(_v(c) for c in cond)
    return _v(cond)


def _kinds(kinds) -> str:
    return " > ".join(kinds) if kinds else "(none: rejected)"


def _strict_spec(row: Mapping, rules: Mapping) -> str:
    spec = row.get("strict", False)
    if isinstance(spec, str):
        on = bool(rules.get("strict", {}).get(spec, False))
        return f"{'yes' if on else 'no'} (`[strict].{spec}`)"
    return "yes" if spec else "no"


def _cell(entry: dict) -> str:
    s = f"`{entry['policy']}`: {_kinds(entry['kinds'])}"
    return s + (" (strict)" if entry["strict"] else "")


def _threads_cell(route) -> str:
    if "threads" not in route:
        return ""
    n = route["threads"]
    return f"; {n} thread(s)" if n else "; the backend's own threads"


def render_truth_table(rules: Mapping | None = None) -> str:
    rules = rules or default_rules()
    rows = rules["options"]
    table = expand_truth_table(rules)
    lines: list[str] = []
    add = lines.append
    add("# Context options truth table")
    add("")
    add("<!-- GENERATED FILE - DO NOT EDIT. Produced from src/webnn_bridge/policy/rules.toml by `webnn-bridge codegen` (also "
        "`webnn-bridge policy truth-table --write`); CI runs `webnn-bridge codegen --check`. -->")
    add("")
    add("`createContext(options)` accepts three shapes of options: the spec HEAD members `powerPreference`")
    add("and `accelerated`, `computePolicy` from PR #923, and the legacy `deviceType`. The policy engine")
    add("(`policy/engine.py`) maps every combination to one internal policy (the `MLComputePolicy`")
    add("vocabulary), an order of device kinds, and a strictness flag, using the `[[options]]` rows of")
    add("`policy/rules.toml`. After WebIDL conversion `powerPreference` is always present (default")
    add("`default`) and so is `accelerated` (default `true`); `computePolicy` and `deviceType` can be")
    add("absent.")
    add("")
    add("How contradictions are resolved (WebNN issue #911, PR #923):")
    add("")
    add("- `computePolicy`, when present, wins over `powerPreference`, `accelerated` and `deviceType`;")
    add("- `accelerated` picks the category: `accelerated: false` means the CPU, whatever the power hint")
    add("  or `deviceType` say;")
    add("- the power hint picks within the category (between device kinds, and between devices of one")
    add("  kind by the power class their profile declares);")
    add("- `fallback` never picks an accelerator.")
    add("")
    add("Within the kind order, devices are ranked by power class, then (for `high-performance`)")
    add("relative throughput, then backend order, then id. Kinds missing from the inventory are skipped;")
    add("when none of the kinds exists, `createContext()` rejects with `NotSupportedError`.")
    add("")
    add("**Strict** requests (off by default; switched on per class in the `[strict]` table of a rules")
    add("file) lose the kinds in `[strict].drop` (the CPU) and make `build()` reject with")
    add("`NotSupportedError` instead of partitioning the graph or falling back to the CPU.")
    add("")
    add("## The order in which the rules apply")
    add("")
    add("1. the truth table below maps the options to an internal policy, its kinds and strictness;")
    add("2. the ranking sorts the inventory's devices of those kinds (kind, power class, throughput for")
    add("   `high-performance`, backend order: `[backends].<kind>` when set, else `[backends].order`, id):")
    add("   the context's preferred device is the first;")
    add("3. at `build()`, when the preferred device is a CPU, only CPU candidates remain: an accelerator")
    add("   never takes the build of a context the rules put on the CPU;")
    add("4. the first `[[routes]]` row whose graph features match (node count, FLOPs, constant bytes,")
    add("   input and output bytes, operators present, data types, graph hash) reorders those candidates:")
    add("   the kinds it names first (`kinds`, only kinds the context already has), then its backend order")
    add("   within each kind; it never adds a device, so `fallback` and `accelerated: false` stay on the CPU")
    add("   and a strict request (its kinds without the CPU) never gets the CPU;")
    add("5. the graph is placed on the candidates: whole graph on an accelerator, a partition, the CPU;")
    add("   after a route that put a kind first, the candidates in its order, a CPU included (a small")
    add("   graph of an accelerated context may run on the CPU);")
    add("6. the CPU mode: the route's `threads`, else the policy's `cpu_threads` (0: the backend's own")
    add("   threading), capped for `low-power` so that it never runs with more threads than the default,")
    add("   applies to the placement's CPU part when its backend takes a thread count per graph.")
    add("")
    page = rules.get("page") or {}
    add("On a host that serves a page runtime (`serve`'s default where it is installed), the `[page]` table")
    add("is asked first, at `build()`: a graph")
    add(f"of a context whose preferred device is of a kind in `contexts` ({', '.join(page.get('contexts', []))};")
    add("not strict, not simulated), within its bounds (FLOPs, constant bytes, input and output bytes, data")
    add("types) and run whole by the page's runtime goes to the page that built it, before steps 3 to 6.")
    add("")
    routes = rules.get("routes") or []
    if routes:
        add("Routes of these rules:")
        add("")
        add("| # | route | applies to policies | when | backends | reason |")
        add("|---|---|---|---|---|---|")
        for i, r in enumerate(routes, 1):
            when = ", ".join(f"{k} = {json.dumps(v)}" for k, v in dict(r.get("when", {})).items()) or "every graph"
            kinds = f"kinds {' > '.join(r['kinds'])} first; " if r.get("kinds") else ""
            add(f"| {i} | `{r['id']}` | {', '.join(r.get('policies', [])) or 'all'} | {when} | "
                f"{kinds}{' > '.join(r.get('backends', [])) or '-'}{_threads_cell(r)} | "
                f"{str(r.get('reason', '')).replace('|', '/')} |")
        add("")
    add("## Rules, in order (the first matching row wins)")
    add("")
    add("| # | row | computePolicy | accelerated | deviceType | powerPreference | policy | kinds | strict | reason |")
    add("|---|---|---|---|---|---|---|---|---|---|")
    for i, row in enumerate(rows, 1):
        when = dict(row.get("when", {}))
        pol = row["policy"]
        pol_s = "same as `powerPreference`" if pol == "@powerPreference" else f"`{pol}`"
        kinds = row.get("kinds")
        kinds_s = _kinds(kinds) if kinds else "policy order"
        conds = " | ".join(_cond(when, k) for k in COLUMNS)
        reason = str(row.get("reason", "")).replace("|", "\\|")
        add(f"| {i} | `{row['id']}` | {conds} | {pol_s} | {kinds_s} | {_strict_spec(row, rules)} | {reason} |")
    add("")
    add("Kind order of each policy (`[policy.*]`), with the power-class order used within a kind:")
    add("")
    add("| policy | kinds | power classes | by throughput |")
    add("|---|---|---|---|")
    for pol, spec in rules["policy"].items():
        add(f"| `{pol}` | {_kinds(spec['order'])} | {' > '.join(spec.get('power', [])) or '-'} | "
            f"{'yes' if spec.get('by_throughput') else 'no'} |")
    add("")

    def lookup(**opts) -> dict:
        for e in table:
            if all(e["options"][k] == v for k, v in opts.items()):
                return e
        raise KeyError(opts)  # pragma: no cover

    add("## HEAD options (`computePolicy` and `deviceType` absent)")
    add("")
    add("| powerPreference \\ accelerated | `true` (default) | `false` |")
    add("|---|---|---|")
    for pp in OPTION_VALUES["powerPreference"]:
        cells = [_cell(lookup(powerPreference=pp, accelerated=a, computePolicy=ABSENT, deviceType=ABSENT))
                 for a in (True, False)]
        add(f"| `{pp}` | {cells[0]} | {cells[1]} |")
    add("")
    add("## `computePolicy` (PR #923)")
    add("")
    add("| computePolicy | result, for every `powerPreference`, `accelerated` and `deviceType` |")
    add("|---|---|")
    for cp in OPTION_VALUES["computePolicy"]:
        if cp == ABSENT:
            continue
        cells = {_cell(e) for e in table if e["options"]["computePolicy"] == cp}
        add(f"| `{cp}` | {'; '.join(sorted(cells))} |")
    add("")
    add("## Legacy `deviceType` (`computePolicy` absent)")
    add("")
    pps = OPTION_VALUES["powerPreference"]
    add("| deviceType | " + " | ".join(f"`{pp}`, accelerated `true`" for pp in pps) + " | accelerated `false` |")
    add("|---|" + "---|" * (len(pps) + 1))
    for dt in OPTION_VALUES["deviceType"]:
        if dt == ABSENT:
            continue
        cells = [_cell(lookup(powerPreference=pp, accelerated=True, computePolicy=ABSENT, deviceType=dt)) for pp in pps]
        off = {_cell(e) for e in table if e["options"]["computePolicy"] == ABSENT and e["options"]["deviceType"] == dt
               and e["options"]["accelerated"] is False}
        add(f"| `{dt}` | " + " | ".join(cells) + f" | {'; '.join(sorted(off))} |")
    add("")
    add("## Strictness switches (`[strict]`)")
    add("")
    add("A row whose `strict` names a switch is strict when the switch is `true`; `drop` lists the")
    add("kinds a strict request never uses (unless its policy is `fallback`).")
    add("")
    add("| switch | value |")
    add("|---|---|")
    for k, v in rules.get("strict", {}).items():
        add(f"| `{k}` | `{json.dumps(v)}` |")
    add("")
    add(f"## All {len(table)} combinations")
    add("")
    add("| powerPreference | accelerated | computePolicy | deviceType | row | policy | kinds | strict |")
    add("|---|---|---|---|---|---|---|---|")
    for e in table:
        o = e["options"]
        add(f"| {_v(o['powerPreference'])} | {_v(o['accelerated'])} | {_v(o['computePolicy'])} | {_v(o['deviceType'])} "
            f"| `{e['row']}` | `{e['policy']}` | {_kinds(e['kinds'])} | {'yes' if e['strict'] else 'no'} |")
    add("")
    return "\n".join(lines)


def check_truth_table(rules: Mapping | None = None, path: Path = TRUTH_TABLE_MD) -> bool:
    return path.exists() and path.read_text() == render_truth_table(rules)


def write_truth_table(rules: Mapping | None = None, path: Path = TRUTH_TABLE_MD) -> Path:
    path.write_text(render_truth_table(rules))
    return path


__all__ = ["render_truth_table", "check_truth_table", "write_truth_table"]
