"""Pure decisions: which devices a context prefers, where a built graph runs, and why.

Everything here is a function of (options, inventory, graph, rules); the rules are data
(policy/rules.toml, merged with a user file by ``load_rules``). Decisions carry human-readable
reasons for the choice and for every rejected candidate. Those reasons are for the operator
(CLI, logs, traces); pages only ever see what policy/privacy.py lets through.

Host entry points (signatures kept stable for bridge/api.py and bridge/session.py):
- ``decide_context(options, inventory, rules=None) -> Decision`` at createContext();
- ``decide_build(decision, graph, inventory, rules=None, *, caps=None) -> Placement`` at build();
  it raises ``ops.core.NotSupportedError`` only for strict requests (see rules.toml §3).
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webnn_bridge.backends.base import Capabilities, Device
from webnn_bridge.backends.capabilities import graph_issues, union
from webnn_bridge.ops.core import DATA_TYPES, NotSupportedError, OperationError, WebNNTypeError

from .graphs import GraphSummary, summarize
from .inventory import (
    POWER_CLASSES,
    backend_name,
    capabilities_of,
    execution_device,
    is_simulated,
    power_class,
    takes_cpu_modes,
)
from .perf import perf_of

DEFAULT_RULES = Path(__file__).with_name("rules.toml")
POLICIES = ("default", "high-performance", "low-power", "fallback")
ABSENT = "absent"
OPTION_KEYS = ("powerPreference", "accelerated", "computePolicy", "deviceType")


def _enum(name: str, fallback: tuple[str, ...]) -> tuple[str, ...]:
    try:
        from webnn_bridge.ops import idl

        return tuple(idl.IDL["enums"][name])
    except Exception:  # pragma: no cover - the generated IDL table is always present
        return fallback


POWER_PREFERENCES = _enum("MLPowerPreference", ("default", "high-performance", "low-power"))
COMPUTE_POLICIES = _enum("MLComputePolicy", POLICIES)
DEVICE_TYPES = _enum("MLDeviceType", ("cpu", "gpu", "npu"))

# every value each option can take after WebIDL conversion (ABSENT: not passed by the page)
OPTION_VALUES: dict[str, tuple] = {
    "powerPreference": POWER_PREFERENCES,
    "accelerated": (True, False),
    "computePolicy": (ABSENT, *COMPUTE_POLICIES),
    "deviceType": (ABSENT, *DEVICE_TYPES),
}


class StrictPolicyError(NotSupportedError):
    """A strict request cannot be met. The message is generic (pages see it); ``reasons`` are
    for the operator."""

    def __init__(self, message: str, reasons: Sequence[str] = ()):
        super().__init__(message)
        self.reasons = list(reasons)


# --------------------------------------------------------------------------- rules


def _merge(base: dict, override: Mapping) -> dict:
    out = dict(base)
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def _resolve_profiles(table: Mapping, base_dir: Path) -> None:
    privacy = table.get("privacy")
    if isinstance(privacy, dict) and isinstance(privacy.get("profiles"), str):
        p = Path(privacy["profiles"])
        privacy["profiles"] = str(p if p.is_absolute() else (base_dir / p).resolve())


# --------------------------------------------------------------------------- rules-file checks

ROW_KEYS = {"id": str, "when": dict, "policy": str, "kinds": list, "strict": (bool, str), "reason": str}
def known_backends() -> tuple[str, ...]:
    """Backend names a rules file may name: every backend class of backends/ (installed or not).
    A runtime reached through another backend is named by that backend (DirectML is ONNX Runtime's
    DmlExecutionProvider: "onnxruntime")."""
    try:
        from webnn_bridge.backends import all_backends

        names = [cls.name for cls in all_backends()]
    except Exception:  # pragma: no cover - importing backends never fails (a missing runtime probes empty)
        names = ["onnxruntime", "tensorrt", "coreml", "openvino", "reference"]
    return tuple(dict.fromkeys(names))


# values that only take a few strings, by dotted key ("*" matches any table name); a callable is
# asked for the allowed values when a file is checked
RULE_ENUMS: dict[str, tuple | Callable[[], tuple]] = {
    "build.prefer": ("whole-graph", "preferred-device"),
    "privacy.report": ("context", "device"),
    "privacy.accelerated": ("echo", "effective"),
    "policy.*.order": DEVICE_TYPES,
    "policy.*.power": POWER_CLASSES,
    "strict.drop": DEVICE_TYPES,
    "page.contexts": DEVICE_TYPES,
    "page.data_types": tuple(DATA_TYPES),
    "backends.order": known_backends,
    "backends.cpu": known_backends,
    "backends.gpu": known_backends,
    "backends.npu": known_backends,
    "tier_up.from": known_backends,
    "tier_up.backends": known_backends,
    "tier_up.data_types": tuple(DATA_TYPES),
}


def _type_name(v: Any) -> str:
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string", list: "an array",
            dict: "a table"}.get(type(v), type(v).__name__)


def _same_type(value: Any, default: Any) -> bool:
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(value, bool) and isinstance(default, bool)
    if isinstance(default, (int, float)):
        return isinstance(value, (int, float))
    return isinstance(value, type(default))


def _enum_for(where: str) -> tuple | None:
    parts = where.split(".")
    for key, allowed in RULE_ENUMS.items():
        kp = key.split(".")
        if len(kp) == len(parts) and all(k in ("*", p) for k, p in zip(kp, parts)):
            return allowed() if callable(allowed) else allowed
    return None


def _check_value(value: Any, default: Any, where: str, problems: list[str]) -> None:
    if isinstance(default, dict):
        if not isinstance(value, dict):
            problems.append(f"{where} must be a table, not {_type_name(value)}")
            return
        _check_table(value, default, where, problems)
        return
    if not _same_type(value, default):
        problems.append(f"{where} must be {_type_name(default)}, not {_type_name(value)} ({value!r})")
        return
    allowed = _enum_for(where)
    items = value if isinstance(value, list) else [value]
    if isinstance(value, list) and default:
        for i, item in enumerate(value):
            _check_value(item, default[0], f"{where}[{i}]", problems)
    if allowed is not None:
        bad = [v for v in items if v not in allowed]
        if bad:
            problems.append(f"{where}: {', '.join(map(repr, bad))} not one of {', '.join(allowed)}")


def _check_table(table: Mapping, default: Mapping, where: str, problems: list[str]) -> None:
    prefix = f"{where}." if where else ""
    for key, value in table.items():
        name = f"{prefix}{key}"
        if name == "options":
            _check_rows(value, problems)
        elif name == "routes":
            continue  # [[routes]]: checked on the merged rules (validate_rules)
        elif name == "privacy.profiles" and isinstance(value, (str, list)):
            continue  # a profiles file, or [[privacy.profiles]] tables (policy/privacy.py checks them)
        elif key in default:
            _check_value(value, default[key], name, problems)
        elif where == "policy" and key in POLICIES:
            _check_value(value, default["default"], name, problems)
        elif where == "strict" and isinstance(value, bool):
            continue  # a new strict switch that rows may name
        else:
            keys = set(default) | ({"options", "routes"} if not where else set())
            known = ", ".join(sorted(keys)) or "none"
            problems.append(f"unknown key {name!r} (known here: {known})")


def _check_rows(rows: Any, problems: list[str]) -> None:
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        problems.append("options must be an array of tables ([[options]])")
        return
    for i, row in enumerate(rows):
        for key, value in row.items():
            types = ROW_KEYS.get(key)
            if types is None:
                problems.append(f"options row {i}: unknown key {key!r} (known: {', '.join(ROW_KEYS)})")
            elif not isinstance(value, types):
                problems.append(f"options row {i}: {key} must not be {_type_name(value)} ({value!r})")


def check_rules_file(override: Mapping, defaults: Mapping) -> list[str]:
    """A user rules file against the defaults: unknown keys, wrong types and values outside
    their enumerations (the merged rules are then checked by validate_rules)."""
    problems: list[str] = []
    _check_table(override, defaults, "", problems)
    return problems


def load_rules(path: str | Path | None = None) -> dict:
    """The default rules, with the file at ``path`` merged over them (tables merge recursively,
    everything else, arrays of tables included, replaces the default). A file with unknown keys,
    wrong types or out-of-range values raises ValueError naming each problem."""
    rules = tomllib.loads(DEFAULT_RULES.read_text())
    _resolve_profiles(rules, DEFAULT_RULES.parent)
    if path is not None:
        p = Path(path)
        try:
            override = tomllib.loads(p.read_text())
        except tomllib.TOMLDecodeError as e:
            raise ValueError(f"{p}: not TOML: {e}") from None
        problems = check_rules_file(override, rules)
        if problems:
            raise ValueError(f"{p}: " + "; ".join(problems))
        _resolve_profiles(override, p.parent)
        profiles = override.get("privacy", {}).get("profiles") if isinstance(override.get("privacy"), dict) else None
        if isinstance(profiles, str) and not Path(profiles).is_file():  # else every createContext() fails on it
            raise ValueError(f"{p}: [privacy] profiles names {profiles}, which is not a file (a relative path "
                             f"is resolved against the rules file's folder)")
        rules = _merge(rules, override)
    problems = validate_rules(rules)
    if problems:
        raise ValueError("invalid device-selection rules: " + "; ".join(problems))
    return rules


_DEFAULT_CACHE: dict[int, dict] = {}


def default_rules() -> dict:
    """The default rules, parsed once per file version. Shared: treat it as read-only (use
    load_rules() for a private copy)."""
    key = DEFAULT_RULES.stat().st_mtime_ns
    rules = _DEFAULT_CACHE.get(key)
    if rules is None:
        _DEFAULT_CACHE.clear()
        rules = _DEFAULT_CACHE[key] = load_rules()
    return rules


def validate_rules(rules: Mapping) -> list[str]:
    """Structural problems in a rules mapping (empty when it is usable)."""
    problems = []
    rows = rules.get("options")
    if not isinstance(rows, list) or not rows:
        return ["[[options]] rows are missing"]
    ids = set()
    for i, row in enumerate(rows):
        where = f"options row {i} ({row.get('id', '?')})"
        if "id" not in row or row["id"] in ids:
            problems.append(f"{where}: needs a unique id")
        ids.add(row.get("id"))
        for key, cond in dict(row.get("when", {})).items():
            if key not in OPTION_VALUES:
                problems.append(f"{where}: unknown option {key!r} in when")
                continue
            for v in cond if isinstance(cond, list) else [cond]:
                if v != "*" and v not in OPTION_VALUES[key]:
                    problems.append(f"{where}: {key} never takes the value {v!r}")
        pol = row.get("policy")
        if pol not in POLICIES and pol != "@powerPreference":
            problems.append(f"{where}: policy must be one of {POLICIES} or '@powerPreference'")
        for k in row.get("kinds", []):
            if k not in DEVICE_TYPES:
                problems.append(f"{where}: unknown kind {k!r}")
        strict = row.get("strict", False)
        if isinstance(strict, str) and strict not in rules.get("strict", {}):
            problems.append(f"{where}: strict switch {strict!r} is not in [strict]")
        kinds = row.get("kinds")
        if isinstance(kinds, list) and "kinds" in row:
            problems += _list_problems(kinds, f"{where}: kinds", "kind")
    for pol in POLICIES:
        table = rules.get("policy", {}).get(pol, {})
        if "order" not in table:
            problems.append(f"[policy.{pol}] needs an order")
        elif isinstance(table["order"], list):
            problems += _list_problems(table["order"], f"[policy.{pol}] order", "kind")
    if not problems:
        problems += _catch_all_problems(rules)
    problems += _number_problems(rules)
    problems += _backend_problems(rules)
    problems += route_problems(rules.get("routes", []))
    return problems


def _list_problems(items: list, where: str, what: str, *, empty_ok: bool = False) -> list[str]:
    """An order (device kinds or backends) must name something, and each thing once."""
    if not items and not empty_ok:
        return [f"{where} is empty: it must name at least one {what}"]
    dups = sorted({x for x in items if isinstance(x, str) and items.count(x) > 1})
    return [f"{where} names {what}(s) {', '.join(map(repr, dups))} more than once"] if dups else []


def _catch_all_problems(rules: Mapping) -> list[str]:
    """Every one of the 120 option combinations must match a row (else createContext() fails)."""
    import itertools

    keys = list(OPTION_VALUES)
    unmatched = []
    for values in itertools.product(*(OPTION_VALUES[k] for k in keys)):
        opts = dict(zip(keys, values))
        try:
            match_row(opts, rules)
        except ValueError:
            unmatched.append(opts)
    if not unmatched:
        return []
    example = ", ".join(f"{k}={_fmt(v)}" for k, v in unmatched[0].items())
    return [f"no [[options]] row matches {len(unmatched)} of the 120 option combinations (e.g. {example}): "
            "the last row must be a catch-all (when = {{}})".replace("{{}}", "{}")]


# [perf.*] figures: (key, strictly positive?) — all must be finite numbers
PERF_FIGURES = {"gflops": True, "bandwidth_gbs": True, "dispatch_ms": False, "per_node_ms": False,
                "boundary_ms": False}


def finite_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _table_number_problems(name: str, rules: Mapping, integers, numbers) -> list[str]:
    """The numbers of table ``name``: ``integers`` (key, low, high), each within its bounds;
    ``numbers`` (key, low, share), each finite and a share above 0, at most 1, or else at least low."""
    table, problems = dict(rules.get(name, {})), []
    for key, low, high in integers:
        v = table.get(key, low)
        if not isinstance(v, int) or isinstance(v, bool) or not low <= v <= high:
            problems.append(f"[{name}] {key} must be an integer from {low} to {high}, not {v!r}")
    for key, low, share in numbers:
        v = table.get(key, 1.0)
        if not finite_number(v) or (not 0.0 < v <= 1.0 if share else v < low):
            need = "a share above 0, at most 1" if share else f"a finite number >= {low:g}"
            problems.append(f"[{name}] {key} must be {need}, not {v!r}")
    return problems


def _number_problems(rules: Mapping) -> list[str]:
    problems = []
    for kind, table in dict(rules.get("perf", {})).items():
        if not isinstance(table, Mapping):
            continue
        for key, value in table.items():
            positive = PERF_FIGURES.get(key)
            if positive is None:
                continue
            if not finite_number(value) or (value <= 0 if positive else value < 0):
                need = "a finite number > 0" if positive else "a finite number >= 0"
                problems.append(f"[perf.{kind}] {key} must be {need}, not {value!r}")
    pols = dict(rules.get("policy", {}))
    for name, table in pols.items():
        t = table.get("cpu_threads", 0) if isinstance(table, Mapping) else 0
        if not isinstance(t, int) or isinstance(t, bool) or not 0 <= t <= MAX_THREADS:
            problems.append(f"[policy.{name}] cpu_threads must be 0 (the backend's choice) or 1..{MAX_THREADS}, "
                            f"not {t!r}")
    low, default = policy_threads(rules, "low-power"), policy_threads(rules, "default")
    if low and default and low > default:
        problems.append(f"[policy.low-power] cpu_threads = {low} is more than [policy.default]'s {default}: "
                        "low-power never gets more threads than the default")
    problems += _table_number_problems("tier_up", rules, (
        ("min_dispatches", 1, 10**9), ("trial_runs", 1, 1000), ("threads", 1, MAX_THREADS)), (
        ("min_run_ms", 0.0, False), ("margin", 0.0, True), ("cpu_margin", 0.0, True), ("cpu_latency_slack", 1.0, False)))
    problems += _table_number_problems("pool_trial", rules, (
        ("min_dispatches", 1, 10**9), ("block_runs", 2, 1000), ("blocks", 1, 1000)), (
        ("min_run_ms", 0.0, False), ("min_parallelism", 1.0, False), ("margin", 0.0, True), ("settle_s", 0.0, False),
        ("recheck_s", 0.0, False), ("max_recheck_s", 0.0, False), ("drift", 1.0, False)))
    problems += _table_number_problems("page", rules, (
        ("warm_up_runs", 0, 10**6), ("warm_up_ms", 0, 600_000), ("warm_up_after", 1, 10**9),
        ("warm_up_page_ms", 0, 3_600_000)), ())
    frac = dict(rules.get("build", {})).get("partial_min_fraction", 0.5)
    if not finite_number(frac) or not 0.0 <= frac <= 1.0:
        problems.append(f"[build] partial_min_fraction must be a share between 0 and 1, not {frac!r}")
    q = dict(rules.get("qos", {}))
    bounds, tiers = q.get("upper_ms", []), q.get("tiers", [])
    if isinstance(bounds, list) and isinstance(tiers, list):
        if len(bounds) != len(tiers) - 1:
            problems.append("[qos] needs one upper_ms bound fewer than tiers")
        elif not all(finite_number(b) and b > 0 for b in bounds) or bounds != sorted(bounds):
            problems.append("[qos] upper_ms must be finite, positive and ascending")
    return problems


def policy_threads(rules: Mapping, policy: str) -> int:
    """A policy's CPU mode (rules.toml §2 cpu_threads): 0 when unset or unusable."""
    t = dict(dict(rules.get("policy", {})).get(policy, {}) or {}).get("cpu_threads", 0)
    return t if isinstance(t, int) and not isinstance(t, bool) and 0 < t <= MAX_THREADS else 0


def cpu_mode(rules: Mapping, policy: str, route: Mapping | None) -> tuple[int, str | None]:
    """The intra-op threads of a graph's CPU part (0: the backend's choice) and why (rules.toml
    §4 step f): the route's threads, else the policy's; "low-power" is capped by its own
    cpu_threads and by [policy.default]'s, so it never gets more threads than the default."""
    threads, src = policy_threads(rules, policy), f"[policy.{policy}] cpu_threads"
    if route is not None and isinstance(route.get("threads"), int) and not isinstance(route["threads"], bool):
        threads, src = route["threads"], f"route '{route.get('id')}'"
    if policy == "low-power" and threads:
        caps = [c for c in (policy_threads(rules, "low-power"), policy_threads(rules, "default")) if c]
        if caps and threads > min(caps):
            return min(caps), f"{src} asks {threads} thread(s), capped at {min(caps)} for low-power"
    return (threads, f"{src}: {threads} thread(s)") if threads else (0, None)


def _backend_problems(rules: Mapping) -> list[str]:
    known = known_backends()
    problems = []
    table = dict(rules.get("backends", {}))
    for key in ("order", *DEVICE_TYPES):
        names = table.get(key, [])
        if not isinstance(names, list):
            continue
        bad = [n for n in names if n not in known]
        if bad:
            problems.append(f"[backends] {key}: unknown backend(s) {', '.join(map(repr, bad))} "
                            f"(known: {', '.join(known)})")
        # a kind's own order may be empty (then `order` applies); `order` itself may not
        problems += _list_problems(names, f"[backends] {key}", "backend", empty_ok=key != "order")
    return problems


# --------------------------------------------------------------------------- per-graph routes

# [[routes]] `when` keys: graph features (see rules.toml §4b)
ROUTE_WHEN = {
    "min_ops": int, "max_ops": int,
    "min_flops": (int, float), "max_flops": (int, float),
    "min_constant_bytes": int, "max_constant_bytes": int,
    "min_io_bytes": int, "max_io_bytes": int,
    "ops_any": list, "ops_all": list, "ops_none": list,
    "data_types": list,
    "graphs": list,
}
ROUTE_KEYS = {"id": str, "when": dict, "policies": list, "kinds": list, "backends": list, "threads": int,
              "reason": str}
MAX_THREADS = 1024  # a CPU mode's thread count is 1..MAX_THREADS


def route_problems(routes: Any) -> list[str]:
    """Why a [[routes]] array is unusable (empty when it is fine)."""
    if routes in (None, []):
        return []
    if not isinstance(routes, list) or not all(isinstance(r, Mapping) for r in routes):
        return ["routes must be an array of tables ([[routes]])"]
    problems = []
    known = known_backends()
    ids: set = set()
    for i, r in enumerate(routes):
        where = f"routes row {i} ({r.get('id', '?')})"
        for key, value in r.items():
            types = ROUTE_KEYS.get(key)
            if types is None:
                problems.append(f"{where}: unknown key {key!r} (known: {', '.join(ROUTE_KEYS)})")
            elif not isinstance(value, types) or isinstance(value, bool):
                problems.append(f"{where}: {key} must not be {_type_name(value)} ({value!r})")
        if not isinstance(r.get("id"), str) or r.get("id") in ids:
            problems.append(f"{where}: needs a unique id")
        ids.add(r.get("id"))
        threads = r.get("threads")
        if isinstance(threads, int) and not isinstance(threads, bool) and not 0 <= threads <= MAX_THREADS:
            problems.append(f"{where}: threads must be 1..{MAX_THREADS} (a CPU mode) or 0 (the backend's choice), "
                            f"not {threads}")
        if not r.get("backends") and not r.get("kinds") and "threads" not in r:
            problems.append(f"{where}: says nothing (give backends, kinds or threads)")
        for name in r.get("backends", []) if isinstance(r.get("backends"), list) else []:
            if name not in known:
                problems.append(f"{where}: unknown backend {name!r} (known: {', '.join(known)})")
        if isinstance(r.get("backends"), list):  # a route that only sets threads leaves backends out
            problems += _list_problems(r["backends"], f"{where}: backends", "backend")
        if isinstance(r.get("kinds"), list):
            problems += _list_problems(r["kinds"], f"{where}: kinds", "kind")
            problems += [f"{where}: kinds: {k!r} not one of {', '.join(DEVICE_TYPES)}" for k in r["kinds"]
                         if k not in DEVICE_TYPES]
        for pol in r.get("policies", []) if isinstance(r.get("policies"), list) else []:
            if pol not in POLICIES:
                problems.append(f"{where}: policies: {pol!r} not one of {', '.join(POLICIES)}")
        when = r.get("when", {})
        if not isinstance(when, Mapping):
            continue
        for key, value in when.items():
            types = ROUTE_WHEN.get(key)
            if types is None:
                problems.append(f"{where}: unknown feature {key!r} in when (known: {', '.join(ROUTE_WHEN)})")
            elif not isinstance(value, types) or isinstance(value, bool):
                problems.append(f"{where}: when.{key} must not be {_type_name(value)} ({value!r})")
            elif isinstance(value, (int, float)) and (not math.isfinite(value) or value < 0):
                problems.append(f"{where}: when.{key} must be a finite number >= 0")
            elif key == "data_types" and any(t not in DATA_TYPES for t in value):
                problems.append(f"{where}: when.data_types: unknown data type(s) "
                                f"{', '.join(repr(t) for t in value if t not in DATA_TYPES)}")
            elif key.startswith("ops_") and any(not isinstance(o, str) for o in value):
                problems.append(f"{where}: when.{key} must list operator names")
            elif key.startswith("ops_") and (unknown := [o for o in value if o not in known_ops()]):
                problems.append(f"{where}: when.{key}: unknown operator(s) {', '.join(map(repr, unknown))} "
                                "(WebNN operator names, as MLGraphBuilder spells them, e.g. conv2d, matmul)")
            elif key == "graphs" and any(not isinstance(h, str) or len(h) < 8 for h in value):
                problems.append(f"{where}: when.graphs lists graph hashes (at least 8 hex digits) or labels")
    return problems


def known_ops() -> frozenset[str]:
    """The operator names a route's ops_any / ops_all / ops_none may name: the registry's."""
    from webnn_bridge.ops.registry import load_all

    return frozenset(load_all())


def route_matches(route: Mapping, summary: GraphSummary, policy: str) -> bool:
    """Whether a [[routes]] row applies to this graph in a context of this internal policy."""
    pols = route.get("policies")
    if pols and policy not in pols:
        return False
    w = dict(route.get("when", {}))
    n = len(summary.nodes)
    ops = set(summary.op_counts())
    checks = (
        ("min_ops", lambda v: n >= v), ("max_ops", lambda v: n <= v),
        ("min_flops", lambda v: summary.flops() >= v), ("max_flops", lambda v: summary.flops() <= v),
        ("min_constant_bytes", lambda v: summary.constant_bytes >= v),
        ("max_constant_bytes", lambda v: summary.constant_bytes <= v),
        ("min_io_bytes", lambda v: io_bytes(summary) >= v), ("max_io_bytes", lambda v: io_bytes(summary) <= v),
        ("ops_any", lambda v: bool(ops & set(v))), ("ops_all", lambda v: set(v) <= ops),
        ("ops_none", lambda v: not ops & set(v)),
        ("data_types", lambda v: set(summary.data_types()) <= set(v)),
        ("graphs", lambda v: any(summary.hash.startswith(h) or (summary.name and summary.name == h) for h in v)),
    )
    return all(test(w[key]) for key, test in checks if key in w)


def io_bytes(summary: GraphSummary) -> int:
    """The bytes a dispatch moves in and out: the graph's inputs and outputs."""
    return int(summary.input_bytes + summary.output_bytes)


def route_order(cands: Sequence[Device], backends: Sequence[str], kinds: Sequence[str] = ()) -> list[Device]:
    """Candidates reordered by a route: the kinds it names first, in its order (the context's
    other kinds after them, in the context's order), then its backend order within each kind.
    Only the context's own candidates are reordered: a route never brings in a device (or a kind)
    the context's rules did not accept."""
    own = list(dict.fromkeys(d.kind for d in cands))
    first = [k for k in dict.fromkeys(kinds) if k in own]
    kind_order = first + [k for k in own if k not in first]
    order = list(backends)

    def key(d: Device):
        b = backend_name(d)
        return kind_order.index(d.kind), order.index(b) if b in order else len(order)

    return sorted(cands, key=key)


def match_route(summary: GraphSummary, policy: str, rules: Mapping) -> dict | None:
    """The first [[routes]] row that applies, or None."""
    for route in rules.get("routes", []) or []:
        if route_matches(route, summary, policy):
            return dict(route)
    return None


# --------------------------------------------------------------------------- normalization


def effective_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The four option values the truth table matches on, with WebIDL defaults applied.
    Unknown enum values raise TypeError, as WebIDL conversion would."""
    options = dict(options or {})
    out: dict[str, Any] = {}
    pp = options.get("powerPreference")
    out["powerPreference"] = "default" if pp is None else pp
    acc = options.get("accelerated")
    out["accelerated"] = True if acc is None else bool(acc)
    cp = options.get("computePolicy")
    out["computePolicy"] = ABSENT if cp is None else cp
    dt = options.get("deviceType")
    out["deviceType"] = ABSENT if dt is None else dt
    valid = {"powerPreference": POWER_PREFERENCES, "computePolicy": COMPUTE_POLICIES, "deviceType": DEVICE_TYPES}
    for key, values in valid.items():
        if options.get(key) is not None and options[key] not in values:
            raise WebNNTypeError(f"createContext(): '{options[key]}' is not a valid value for {key}.")
    return out


def _cond_matches(cond: Any, value: Any) -> bool:
    if cond == "*":
        return True
    if isinstance(cond, list):
        return value in cond
    return value == cond and type(value) is type(cond)


def match_row(opts: Mapping[str, Any], rules: Mapping) -> tuple[int, dict]:
    """The first truth-table row whose `when` matches the effective options."""
    for i, row in enumerate(rules["options"]):
        if all(_cond_matches(cond, opts[key]) for key, cond in dict(row.get("when", {})).items()):
            return i, row
    raise ValueError(f"no [[options]] row matches {opts}; the rules need a catch-all last row")


def _fmt(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


@dataclass(frozen=True)
class Normalized:
    policy: str  # "default" | "high-performance" | "low-power" | "fallback"
    device_type: str | None
    source: str  # id of the truth-table row that decided
    kinds: tuple[str, ...] | None = None  # None: the policy's [policy.X].order
    strict: bool = False
    reason: str = ""
    options: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def to_dict(self) -> dict:
        return {
            "policy": self.policy,
            "kinds": None if self.kinds is None else list(self.kinds),
            "strict": self.strict,
            "row": self.source,
            "reason": self.reason,
            "options": {k: _fmt(v) for k, v in self.options.items()},
        }


def resolve_row(row: Mapping, opts: Mapping[str, Any], rules: Mapping) -> tuple[str, tuple[str, ...], bool]:
    """(policy, kinds, strict) that a row yields for these effective options."""
    policy = row["policy"]
    if policy == "@powerPreference":
        policy = opts["powerPreference"]
    kinds = list(row.get("kinds") or rules["policy"][policy]["order"])
    strict_spec = row.get("strict", False)
    strict = bool(rules.get("strict", {}).get(strict_spec, False)) if isinstance(strict_spec, str) else bool(strict_spec)
    if strict and policy != "fallback":
        drop = set(rules.get("strict", {}).get("drop", ["cpu"]))
        kinds = [k for k in kinds if k not in drop]
    return policy, tuple(kinds), strict


def normalize(options: Mapping[str, Any] | None, rules: Mapping | None = None) -> Normalized:
    """Map HEAD options, PR #923 computePolicy and legacy deviceType to one internal policy,
    through the first matching truth-table row of the rules."""
    rules = rules or default_rules()
    opts = effective_options(options)
    _, row = match_row(opts, rules)
    policy, kinds, strict = resolve_row(row, opts, rules)
    reason = str(row.get("reason", "")).format_map({k: _fmt(v) for k, v in opts.items()})
    dt = None if opts["deviceType"] == ABSENT else opts["deviceType"]
    return Normalized(policy, dt, str(row["id"]), kinds, strict, reason, opts)


def expand_truth_table(rules: Mapping | None = None) -> list[dict]:
    """Every combination of option values (120) with the row that decides it."""
    import itertools

    rules = rules or default_rules()
    out = []
    keys = list(OPTION_VALUES)
    for values in itertools.product(*(OPTION_VALUES[k] for k in keys)):
        opts = dict(zip(keys, values))
        _, row = match_row(opts, rules)
        policy, kinds, strict = resolve_row(row, opts, rules)
        out.append({"options": opts, "row": row["id"], "policy": policy, "kinds": list(kinds), "strict": strict})
    return out


# --------------------------------------------------------------------------- ranking


def backend_order(rules: Mapping, kind: str) -> list[str]:
    """The backend order within a device kind: [backends].<kind> when set, else [backends].order."""
    table = rules.get("backends", {})
    return list(table.get(kind) or table.get("order", []))


def _backend_rank(rules: Mapping, d: Device) -> int:
    order = backend_order(rules, d.kind)
    b = backend_name(d)
    return order.index(b) if b in order else len(order)


def _throughput(d: Device, rules: Mapping) -> float:
    """The device's effective compute figure from the cost model (kind default x perf hints)."""
    return perf_of(d, rules)["gflops"]


def rank_candidates(
    norm: Normalized, inventory: Sequence[Device], rules: Mapping
) -> tuple[list[Device], list[str], list[tuple[str, str]]]:
    """(ordered candidates, reasons, rejected (device id, reason)) for a normalized policy."""
    pol = rules["policy"][norm.policy]
    kinds = list(pol["order"] if norm.kinds is None else norm.kinds)
    power = list(pol.get("power", []))
    by_tp = bool(pol.get("by_throughput", False))
    reasons = [f"policy '{norm.policy}' from row '{norm.source}': {norm.reason}"]
    if norm.strict:
        reasons.append(f"strict: only {'/'.join(kinds) or 'no'} devices, no CPU fallback")
    simulated_pool = any(is_simulated(d) for d in inventory)
    rejected: list[tuple[str, str]] = []
    pool = []
    for d in inventory:
        if simulated_pool and not is_simulated(d):
            rejected.append((d.id, "host execution device, not a candidate: the declared inventory replaces probing"))
        elif d.kind not in kinds:
            rejected.append((d.id, f"kind {d.kind} is not acceptable for policy '{norm.policy}' (acceptable: {', '.join(kinds) or 'none'})"))
        else:
            pool.append(d)

    def key(d: Device):
        pc = power_class(d)
        return (
            kinds.index(d.kind),
            power.index(pc) if pc in power else len(power),
            -_throughput(d, rules) if by_tp else 0.0,
            _backend_rank(rules, d),
            d.id,
            d.name,
        )

    ordered = sorted(pool, key=key)
    missing = [k for k in kinds if not any(d.kind == k for d in pool)]
    if missing:
        reasons.append(f"no {'/'.join(missing)} device in the inventory")
    if ordered:
        sort_keys = "kind, power class" + (", throughput" if by_tp else "") + ", backend order, id"
        reasons.append(f"ranked {len(ordered)} candidate(s) by {sort_keys}: {', '.join(d.id for d in ordered)}")
    return ordered, reasons, sorted(rejected)


def rank_devices(norm: Normalized, inventory: Sequence[Device], rules: Mapping) -> tuple[list[Device], list[str]]:
    ordered, reasons, _ = rank_candidates(norm, inventory, rules)
    return ordered, reasons


# --------------------------------------------------------------------------- createContext


@dataclass
class Decision:
    device: Device | None
    policy: str
    candidates: list[Device] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    exec_device: Device | None = None  # differs from device only for simulated inventories
    strict: bool = False
    rejected: list[tuple[str, str]] = field(default_factory=list)
    normalized: Normalized | None = None
    simulated: bool = False

    def to_dict(self) -> dict:
        """Operator view (traces, CLI): names device ids, never sent to pages."""
        return {
            "device": self.device.id if self.device else None,
            "kind": self.device.kind if self.device else None,
            "backend": backend_name(self.device) if self.device else None,
            "policy": self.policy,
            "strict": self.strict,
            "simulated": self.simulated,
            "candidates": [d.id for d in self.candidates],
            "candidateFacts": {d.id: [d.kind, backend_name(d)] for d in self.candidates},
            "rejected": [list(r) for r in self.rejected],
            "reasons": list(self.reasons),
            "row": self.normalized.source if self.normalized else None,
        }


def decide_context(options: Mapping[str, Any], inventory: Sequence[Device], rules: Mapping | None = None) -> Decision:
    """Feasibility and preference order at createContext(). ``device`` is None when no device
    can serve the request (the host then rejects with NotSupportedError)."""
    rules = rules or default_rules()
    norm = normalize(options, rules)
    ordered, reasons, rejected = rank_candidates(norm, inventory, rules)
    if not ordered:
        reasons.append("no device of an acceptable kind" + (" (strict request)" if norm.strict else ""))
        return Decision(None, norm.policy, [], reasons, None, norm.strict, rejected, norm, False)
    chosen = ordered[0]
    reasons.append(f"preferred device {chosen.id} ({chosen.kind}, {backend_name(chosen)}, power {power_class(chosen)})")
    exec_device = chosen
    simulated = is_simulated(chosen)
    if simulated:
        exec_device = execution_device(inventory, rules.get("backends", {}).get("order", ()))
        reasons.append(f"simulated inventory: execution uses the CPU backend ({exec_device.id})")
    return Decision(chosen, norm.policy, ordered, reasons, exec_device, norm.strict, rejected, norm, simulated)


# --------------------------------------------------------------------------- build


@dataclass
class Placement:
    device: Device
    fallback: str  # "none" | "partial" | "full"
    reasons: list[str]
    fallback_device: Device | None = None  # the CPU that runs the other nodes (a partition)
    assignment: list[str] = field(default_factory=list)  # device id per node, in node order
    rejected: list[tuple[str, str]] = field(default_factory=list)
    policy: str = "default"
    strict: bool = False
    simulated: bool = False
    exec_device: Device | None = None
    graph_hash: str = ""
    route: str | None = None  # the [[routes]] row that reordered the candidates
    threads: int = 0  # the CPU mode of the placement's CPU part (0: the backend's choice)
    # another CPU device that runs every node, tried in live dispatches once the graph is hot
    # ([tier_up], bridge/tier_up.py); its CPU mode is [tier_up].threads
    tier_up: Device | None = None

    @property
    def accelerated(self) -> bool:
        """Whether an accelerator runs (part of) the graph (not when its runtime fell back)."""
        return self.device.kind != "cpu" and self.fallback != "full"

    def partitions(self) -> list[tuple[str, list[int]]]:
        """Contiguous runs of nodes on one device, in node order."""
        from webnn_bridge.backends.partition import runs

        return runs(self.assignment)

    def to_dict(self) -> dict:
        """Operator view (traces, CLI): names device ids, never sent to pages."""
        return {
            "device": self.device.id,
            "kind": self.device.kind,
            "backend": backend_name(self.device),
            "fallback": self.fallback,
            "fallbackDevice": self.fallback_device.id if self.fallback_device else None,
            "partitions": [[d, len(nodes)] for d, nodes in self.partitions()],
            "policy": self.policy,
            "strict": self.strict,
            "simulated": self.simulated,
            "route": self.route,
            "threads": self.threads,
            "tierUp": self.tier_up.id if self.tier_up is not None else None,
            "rejected": [list(r) for r in self.rejected],
            "reasons": list(self.reasons),
        }


CapsSource = Mapping[str, Capabilities] | Callable[[Device], Capabilities] | None


def _caps_lookup(caps: CapsSource) -> Callable[[Device], Capabilities]:
    if caps is None:
        return capabilities_of
    if callable(caps):
        return caps
    return lambda d: caps[d.id] if d.id in caps else capabilities_of(d)


def tier_up_candidate(device: Device, cands: Sequence[Device], summary: GraphSummary, rules: Mapping,
                      runs_all: Callable[[Device], bool]) -> tuple[Device | None, str | None]:
    """The CPU device a graph placed whole on ``device`` may move to once it is hot, and the
    reason line saying so (rules.toml [tier_up]): (None, None) when the rules do not ask for one
    here, (None, why) when they would but no candidate runs the whole graph."""
    tier = rules.get("tier_up") or {}
    if (not tier.get("enabled", False) or device.kind != "cpu" or is_simulated(device)
            or backend_name(device) not in tier.get("from", [])):
        return None, None
    # the graphs it applies to, as a [[routes]] row's `when` says them (an empty list: any graph)
    when = {k: tier[k] for k in ("ops_any", "data_types", "max_constant_bytes") if tier.get(k) not in (None, [])}
    if not route_matches({"when": when}, summary, ""):
        return None, None
    wanted = list(tier.get("backends", []))
    others = [d for d in cands if d.kind == "cpu" and d.id != device.id and not is_simulated(d)
              and backend_name(d) in wanted]
    others.sort(key=lambda d: wanted.index(backend_name(d)))
    for d in others:
        if runs_all(d):
            return d, (f"tier-up: once it has run {tier.get('min_dispatches')} times at "
                       f"{tier.get('min_run_ms')} ms or more, {d.id} ({tier.get('threads')} thread(s)) compiles it "
                       f"in the background and the faster of the two in interleaved live dispatches (or as fast for "
                       f"less CPU time) keeps it ([tier_up])")
    if others:
        return None, f"no tier-up: {', '.join(d.id for d in others)} cannot run the whole graph"
    return None, None


def fallback_for_kind(decision: Decision) -> str:
    """cpuFallback of a graph a CPU runs whole in a context of this decision (as step 3 says)."""
    return "none" if decision.policy == "fallback" else "full"


def _issue_summary(issues: list[list[str]], limit: int = 3) -> str:
    flat: list[str] = []
    for node_issues_ in issues:
        for i in node_issues_:
            if i not in flat:
                flat.append(i)
    more = f"; +{len(flat) - limit} more" if len(flat) > limit else ""
    return "; ".join(flat[:limit]) + more


def page_context_refusal(decision: Decision, rules: Mapping) -> str | None:
    """Why no graph of this context goes to the page's runtime (rules.toml §4c: its preferred
    device's kind, strictness), or None when its small graphs may."""
    kinds = rules.get("page", {}).get("contexts", ["cpu"])
    if decision.strict or decision.simulated or decision.device is None or decision.device.kind not in kinds:
        return (f"the context's preferred device is a {decision.device.kind if decision.device else 'none'}"
                f"{' (strict)' if decision.strict else ''}: [page] contexts = {list(kinds)}")
    return None


def page_warm_up(rules: Mapping) -> dict:
    """How the page warms a graph's session before it takes the graph over from the host
    (rules.toml §4c): at most ``runs`` runs on zeros for at most ``maxMs``, once it has been
    dispatched ``after`` times, while the page's warm-ups together have run less than ``pageMaxMs``.
    A key the rules lack takes the default rules' value."""
    page = {**default_rules()["page"], **rules.get("page", {})}
    return {"runs": page["warm_up_runs"], "maxMs": page["warm_up_ms"], "after": page["warm_up_after"],
            "pageMaxMs": page["warm_up_page_ms"]}


def page_refusal(decision: Decision, summary: GraphSummary, rules: Mapping, caps: Capabilities) -> str | None:
    """Why a graph stays off the page's runtime (rules.toml §4c), or None when the page runs it."""
    page = rules.get("page", {})
    why = page_context_refusal(decision, rules)
    if why is not None:
        return why
    flops, constants, io = summary.flops(), summary.constant_bytes, io_bytes(summary)
    for what, value, key in (("FLOPs", flops, "max_flops"), ("constant bytes", constants, "max_constant_bytes"),
                             ("input and output bytes", io, "max_io_bytes")):
        limit = page.get(key)
        if limit is not None and value > limit:
            return f"{what} {value:.3g} > [page] {key} {limit:.3g}"
    allowed = set(page.get("data_types", []))
    odd = sorted(set(summary.data_types()) - allowed)
    if odd:
        return f"data types {', '.join(odd)} not in [page] data_types"
    issues = graph_issues(summary.nodes, caps)
    if any(issues):
        return f"the page's runtime cannot run: {_issue_summary(issues)}"
    return None


def decide_build(decision: Decision, graph, inventory: Sequence[Device], rules: Mapping | None = None, *,
                 caps: CapsSource = None, avoid: Mapping[str, str] | None = None,
                 page: Device | None = None) -> Placement:
    """Per-graph placement at build(): check every node's op, data types and ranks against each
    candidate's capabilities; whole graph on one device, a partition (accelerator + CPU), the
    CPU alone, or NotSupportedError for strict requests. See rules.toml §4. ``avoid``: device
    id -> why this graph must not go there (the host's crash journal); none left: OperationError.
    ``page``: the page's runtime (backends/page.py) when the page that builds can run graphs
    itself: a graph the [page] rules admit goes there whole (§4c), before any other step."""
    rules = rules or default_rules()
    if decision.device is None:
        raise NotSupportedError("No device is available for this context.")
    summary: GraphSummary = summarize(graph)
    n = len(summary.nodes)
    head = f"graph {summary.hash[:10]}: {n} node(s), ops {', '.join(summary.op_counts()) or 'none'}"
    page_note = None
    if page is not None and not (avoid and page.id in avoid):
        caps_of_page = _caps_lookup(caps)(page)
        why = page_refusal(decision, summary, rules, caps_of_page)
        if why is None:
            return Placement(page, fallback_for_kind(decision), [
                head,
                f"whole graph in the page ({page.id}): {summary.flops():.3g} FLOPs, "
                f"{summary.constant_bytes} constant bytes, {io_bytes(summary)} input and output bytes "
                "are within the [page] rules: no round trip per dispatch"],
                None, [page.id] * n, [], policy=decision.policy, strict=decision.strict, simulated=False,
                exec_device=decision.exec_device, graph_hash=summary.hash)
        page_note = f"not in the page: {why}"
    caps_of = _caps_lookup(caps)
    build = dict(rules.get("build", {}))
    min_fraction = float(build.get("partial_min_fraction", 0.5))
    prefer = build.get("prefer", "whole-graph")
    cands = list(decision.candidates) or [decision.device]
    tail = ["simulated inventory: the graph executes on the host CPU backend"] if decision.simulated else []
    why_not: dict[str, str] = {}
    notes: list[str] = []
    if avoid:
        why_not.update({d.id: avoid[d.id] for d in cands if d.id in avoid})
        cands = [d for d in cands if d.id not in avoid]
        if not cands:
            raise OperationError("The graph could not be compiled: " + "; ".join(avoid.values()))
        notes.append("left out: " + "; ".join(avoid.values()))
    # the rules put this context on the CPU: no accelerator takes its builds (rules.toml §4, rule 0)
    if decision.device.kind == "cpu":
        for d in cands:
            if d.kind != "cpu":
                why_not[d.id] = "the context's preferred device is a CPU: accelerators never take its builds"
        cands = [d for d in cands if d.kind == "cpu"]
    route = match_route(summary, decision.policy, rules)
    kind_first = False  # a route put a kind first: that kind is tried for the whole graph first
    if route is not None and (route.get("backends") or route.get("kinds")):
        before = [d.kind for d in cands]
        cands = route_order(cands, route.get("backends") or [], route.get("kinds") or [])
        kind_first = [d.kind for d in cands] != before
        notes.append(f"route '{route['id']}'" + (f" ({route['reason']})" if route.get("reason") else "")
                     + (f": kinds {' > '.join(route['kinds'])} first" if route.get("kinds") else "")
                     + (f": backends {' > '.join(route['backends'])}" if route.get("backends") else "")
                     + f"; candidates now {', '.join(d.id for d in cands)}")
    common = dict(policy=decision.policy, strict=decision.strict, simulated=decision.simulated,
                  exec_device=decision.exec_device, graph_hash=summary.hash,
                  route=route["id"] if route else None)
    if page_note:
        notes.append(page_note)
    head = "; ".join([head, *notes])

    issues: dict[str, list[list[str]]] = {}  # per candidate, checked when a step first asks

    def issues_of(d: Device) -> list[list[str]]:
        if d.id not in issues:
            issues[d.id] = graph_issues(summary.nodes, caps_of(d))
        return issues[d.id]

    def bad(d: Device) -> list[int]:
        return [i for i, iss in enumerate(issues_of(d)) if iss]

    accels = [d for d in cands if d.kind != "cpu"]
    cpus = [d for d in cands if d.kind == "cpu"]

    threads, threads_why = cpu_mode(rules, decision.policy, route)

    def done(p: Placement) -> Placement:
        used = {p.device.id, p.fallback_device.id if p.fallback_device else None}
        for d in cands:
            if d.id not in used and d.id not in why_not:
                why_not[d.id] = f"ranked below {p.device.id}"
        p.rejected = [(i, r) for i, r in why_not.items() if i not in used]
        if threads:  # the CPU mode (step f): for the CPU part, when its backend takes one
            cpu_part = [d for d in (p.device, p.fallback_device) if d is not None and d.kind == "cpu"]
            if p.simulated or not cpu_part:
                p.reasons.append(f"CPU mode not applied ({threads_why}): no CPU of this machine runs the graph")
            elif all(takes_cpu_modes(d) for d in cpu_part):
                p.threads = threads
                p.reasons.append(f"CPU mode: {threads_why}")
            else:
                p.reasons.append(f"CPU mode not applied ({threads_why}): "
                                 f"{', '.join(backend_name(d) for d in cpu_part if not takes_cpu_modes(d))} "
                                 "takes no thread count per graph")
        if p.fallback_device is None and not p.simulated:
            p.tier_up, why = tier_up_candidate(p.device, cands, summary, rules, lambda d: not bad(d))
            if why:
                p.reasons.append(why)
        return p

    def fallback_for(d: Device) -> str:
        return fallback_for_kind(decision) if d.kind == "cpu" else "none"

    def whole(d: Device, why: str) -> Placement:
        return done(Placement(d, fallback_for(d), [head, why, *tail], None, [d.id] * n, [], **common))

    # 1. the whole graph on one device (after a route that put a kind first: on the candidates in
    #    its order, a CPU included where the route puts it before an accelerator, so that a small
    #    graph can leave an accelerated context's GPU; a CPU after every accelerator keeps its place
    #    after the partition step)
    if decision.strict:
        pool = cands
    elif kind_first:
        pool = [d for i, d in enumerate(cands) if d.kind != "cpu" or any(x.kind != "cpu" for x in cands[i + 1:])]
    else:
        pool = accels
    whole_pool = pool[:1] if prefer == "preferred-device" and not decision.strict else pool
    for d in whole_pool:
        b = bad(d)
        if not b:
            if d.kind == "cpu" and kind_first and decision.device.kind != "cpu":
                return whole(d, f"whole graph on {d.id} (cpu): the route puts the CPU first and it runs every op, "
                                "data type and rank")
            return whole(d, f"whole graph on {d.id} ({d.kind}): every op, data type and rank is supported")
        why_not[d.id] = f"runs {n - len(b)} of {n} nodes: {_issue_summary(issues_of(d))}"
    if decision.strict:
        raise StrictPolicyError(
            "The graph cannot run entirely on the kind of device this context strictly requires.",
            [head, *(f"rejected {i}: {r}" for i, r in why_not.items())],
        )

    # 2. partition: accelerator for what it supports, CPU after it
    for d in accels:
        b = bad(d)
        if not b:
            return whole(d, f"whole graph on {d.id} ({d.kind}): every op, data type and rank is supported")
        share = (n - len(b)) / n if n else 0.0
        if share < min_fraction:
            why_not[d.id] = (f"runs only {n - len(b)} of {n} nodes (< {min_fraction:.0%} needed to partition): "
                             f"{_issue_summary(issues_of(d))}")
            continue
        bset = set(b)
        cpu = next((c for c in cpus if all(not issues_of(c)[i] for i in bset)), None)
        if cpu is None:
            why_not[d.id] = (f"runs {n - len(b)} of {n} nodes and no CPU candidate runs the rest: "
                             f"{_issue_summary(issues_of(d))}")
            continue
        assignment = [cpu.id if i in bset else d.id for i in range(n)]
        p = Placement(d, "partial", [], cpu, assignment, [], **common)
        p.reasons = [
            head,
            f"partition: {n - len(b)} of {n} nodes on {d.id} ({d.kind}), {len(b)} on {cpu.id} (cpu) "
            f"in {len(p.partitions())} segment(s); CPU for: {_issue_summary(issues_of(d))}",
            *tail,
        ]
        return done(p)

    # 3. the CPU alone
    for d in cpus[:1] if prefer == "preferred-device" else cpus:
        if not bad(d):
            why = ("whole graph on the CPU, as the policy asks" if decision.policy == "fallback"
                   else "no accelerator can take the graph: CPU fallback for the whole graph")
            return whole(d, f"{why} ({d.id})")
        why_not[d.id] = f"cannot run the whole graph: {_issue_summary(issues_of(d))}"

    # 3b. partition across CPU backends: the first CPU takes what it runs, another the rest
    for d in cpus:
        bset = set(bad(d))
        if not bset or (n - len(bset)) / n < min_fraction:
            continue
        other = next((c for c in cpus if c is not d and all(not issues_of(c)[i] for i in bset)), None)
        if other is None:
            continue
        assignment = [other.id if i in bset else d.id for i in range(n)]
        p = Placement(d, fallback_for(d), [], other, assignment, [], **common)
        p.reasons = [
            head,
            f"partition across CPU backends: {n - len(bset)} of {n} nodes on {d.id}, {len(bset)} on {other.id} "
            f"in {len(p.partitions())} segment(s); {other.id} for: {_issue_summary(issues_of(d))}",
            *tail,
        ]
        return done(p)

    # 4. nothing is known to run everything: leave it to the runtime (non-strict)
    d = cpus[0] if cpus else cands[0]
    return done(Placement(
        d,
        fallback_for(d),
        [head, f"no candidate is known to run every node; compiling on {d.id} and letting the runtime decide", *tail],
        None,
        [d.id] * n,
        [],
        **common,
    ))


# --------------------------------------------------------------------------- limits of a context


def context_capabilities(decision: Decision, inventory: Sequence[Device], rules: Mapping | None = None, *,
                         caps: CapsSource = None) -> Capabilities:
    """What a context executes, the input of privacy.bucketed_support_limits(): the device's
    capabilities, plus its CPU fallback's unless the request is strict or [privacy].report is
    "device"."""
    rules = rules or default_rules()
    caps_of = _caps_lookup(caps)
    if decision.device is None:
        raise NotSupportedError("No device is available for this context.")
    own = caps_of(decision.device)
    if decision.strict or rules.get("privacy", {}).get("report", "context") == "device":
        return own
    cpu = next((d for d in decision.candidates if d.kind == "cpu" and d is not decision.device), None)
    return union(own, caps_of(cpu)) if cpu is not None else own
