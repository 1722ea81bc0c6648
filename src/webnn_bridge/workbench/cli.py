"""`webnn-bridge policy ...`: explain a decision, replay a trace, render the truth table.

bridge/cli.py wires these in with ``register(subparsers)``; ``main(argv)`` runs them alone
(``python -m webnn_bridge.workbench.cli explain --options '{"powerPreference": "low-power"}' --devices dual-gpu``).

    policy explain [--options JSON|@FILE] [--graph GRAPH.json] [--devices PROFILE.json]
                   [--rules RULES.toml] [--json]
    policy replay TRACE.jsonl [TRACE.jsonl ...] --rules RULES.toml [--baseline RULES.toml] [--out DIR]
                  [--devices PROFILE.json]
    policy measure TRACE.jsonl --out MATRIX.json [--seconds S] [--reps N] [--threads 1,2 | --browser chromium]
    policy calibrate --out CAL.json [--seconds S]
    policy tune TRACE.jsonl --matrix MATRIX.json [--objective latency-p50|latency-p90|cpu-time]
                [--rules RULES.toml] [--out RULES.toml] [--report DIR]
    policy check RULES.toml
    policy truth-table [--write | --check]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path


def _read_options(arg: str | None) -> dict:
    from webnn_bridge.policy.engine import OPTION_KEYS

    if not arg:
        return {}
    text = Path(arg[1:]).read_text() if arg.startswith("@") else arg
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("--options must be a JSON object")
    unknown = sorted(set(data) - set(OPTION_KEYS))
    if unknown:
        import difflib

        hints = [f"{k!r} (did you mean {m[0]!r}?)" if (m := difflib.get_close_matches(k, OPTION_KEYS, 1)) else repr(k)
                 for k in unknown]
        raise ValueError(f"--options: unknown key(s) {', '.join(hints)}; known: {', '.join(OPTION_KEYS)}")
    return data


def _load_trace(paths: str | list[str], *, replayable: bool = True) -> list[dict]:
    """The events of one or more traces, in order (e.g. rounds under different rules: then each
    workload has recorded latencies on every backend it ran on)."""
    from .trace import check_replayable, read_trace

    paths = [paths] if isinstance(paths, str) else list(paths)
    events = [ev for path in paths for ev in read_trace(path)]
    if replayable:
        check_replayable(events, ", ".join(paths))
    return events


def _load_matrix(matrix: str | None, calibration: str | None) -> dict | None:
    from webnn_bridge.policy.matrix import calibration_problem, read_matrix

    m = read_matrix(matrix) if matrix else None
    if calibration:
        try:
            cal = json.loads(Path(calibration).read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise ValueError(f"{calibration}: not a calibration (JSON) file: {e}") from None
        problem = calibration_problem(cal)
        if problem:
            raise ValueError(f"{calibration}: {problem}")
        m = dict(m or {"version": 1, "graphs": {}, "devices": {}})
        m["calibration"] = cal
    return m


def _inventory(arg: str | None):
    from webnn_bridge.policy.inventory import load_profile, probe_inventory

    if arg:
        return load_profile(arg), True
    return probe_inventory(), False


def explain(options: dict, inventory, rules, graph=None, *, profile_label: str = "") -> dict:
    """Everything `policy explain` prints, as data (operator view)."""
    from webnn_bridge.policy import engine, privacy, qos
    from webnn_bridge.policy.inventory import backend_name, capabilities_of, power_class

    norm = engine.normalize(options, rules)
    decision = engine.decide_context(options, inventory, rules)
    out: dict = {
        "inventory": {
            "source": profile_label or "probed",
            "simulated": decision.simulated or any(getattr(d, "backend", "") == "simulated" for d in inventory),
            "devices": [
                {"id": d.id, "kind": d.kind, "backend": backend_name(d), "power": power_class(d),
                 "ops": len(capabilities_of(d).ops)}
                for d in inventory
            ],
        },
        "options": options,
        "normalized": norm.to_dict(),
        "ranking": [d.id for d in decision.candidates],
        "context": decision.to_dict(),
    }
    if decision.device is None:
        out["error"] = "NotSupportedError: createContext() rejects"
        return out
    ctx_caps = engine.context_capabilities(decision, inventory, rules)
    prof, _ = privacy.bucketed_support_limits(ctx_caps, rules)
    dev_prof, _ = privacy.bucketed_support_limits(capabilities_of(decision.device), rules)
    out["limits"] = {"profile": prof, "deviceProfile": dev_prof,
                     "report": rules.get("privacy", {}).get("report", "context")}
    if graph is not None:
        from webnn_bridge.policy.graphs import summarize

        summary = summarize(graph)
        out["graph"] = {"name": summary.name, "hash": summary.hash, "nodes": len(summary.nodes),
                        "ops": summary.op_counts(), "dataTypes": summary.data_types(), "flops": summary.flops()}
        try:
            placement = engine.decide_build(decision, summary, inventory, rules)
        except engine.NotSupportedError as e:
            out["build"] = {"error": f"{e.name}: {e}", "reasons": list(getattr(e, "reasons", []))}
            return out
        ms = qos.estimate_latency_ms(summary, rules=rules, placement=placement)
        out["build"] = placement.to_dict()
        out["qos"] = {"tier": qos.qos_tier(ms, rules), "estimateMs": round(ms, 3),
                      "latencyBucket": privacy.bucket_latency(ms, rules)}
        out["effective"] = privacy.effective_report(placement, rules)
    return out


def format_explain(info: dict) -> str:
    lines: list[str] = []
    add = lines.append
    inv = info["inventory"]
    sim = "  [SIMULATED: graphs execute on the host CPU backend]" if inv["simulated"] else ""
    add(f"inventory: {inv['source']}{sim}")
    w = max((len(d["id"]) for d in inv["devices"]), default=0)
    for d in inv["devices"]:
        add(f"  {d['kind']:3}  {d['id']:<{w}}  backend={d['backend']:<12} power={d['power']:<16} ops={d['ops']}")
    add(f"options: {json.dumps(info['options'], sort_keys=True)}")
    n = info["normalized"]
    add(f"normalized: policy={n['policy']}  strict={'yes' if n['strict'] else 'no'}  "
        f"kinds={' > '.join(n['kinds'] or []) or '(none)'}")
    add(f"  row {n['row']}: {n['reason']}")
    add("ranking:")
    for i, d in enumerate(info["ranking"], 1):
        add(f"  {i}. {d}")
    if not info["ranking"]:
        add("  (no candidate)")
    ctx = info["context"]
    add(f"context decision: {ctx['device'] or 'none'}" + (f" ({ctx['kind']})" if ctx["kind"] else ""))
    for r in ctx["reasons"]:
        add(f"  - {r}")
    for dev, why in ctx["rejected"]:
        add(f"  x {dev}: {why}")
    if "error" in info:
        add(info["error"])
        return "\n".join(lines)
    lim = info["limits"]
    add(f"opSupportLimits bucket: {lim['profile']}  (report={lim['report']}; the device alone: {lim['deviceProfile']})")
    if "graph" in info:
        g = info["graph"]
        add(f"graph: {g['name'] or g['hash'][:10]}  {g['nodes']} node(s)  hash {g['hash'][:16]}  "
            f"types {','.join(g['dataTypes'])}  {g['flops']:.3g} FLOP")
        b = info["build"]
        if "error" in b:
            add(f"build decision: {b['error']}")
            for r in b["reasons"]:
                add(f"  - {r}")
            return "\n".join(lines)
        add(f"build decision: {b['device']} ({b['kind']})  cpuFallback={b['fallback']}"
            + (f"  fallback device={b['fallbackDevice']}" if b["fallbackDevice"] else ""))
        if len(b["partitions"]) > 1:
            add("  partitions: " + " | ".join(f"{d} x{k}" for d, k in b["partitions"]))
        for r in b["reasons"]:
            add(f"  - {r}")
        for dev, why in b["rejected"]:
            add(f"  x {dev}: {why}")
        q = info["qos"]
        add(f"estimateQoS: {q['tier']}  (page sees the tier; operator-only estimate {q['estimateMs']} ms, "
            f"bucket {q['latencyBucket']})")
        add(f"effective (page view): {json.dumps(info['effective'], sort_keys=True)}")
    return "\n".join(lines)


def _cmd_explain(args) -> int:
    from webnn_bridge.policy.engine import load_rules
    from webnn_bridge.policy.graphs import load_graph

    try:
        rules = load_rules(args.rules)
        options = _read_options(args.options)
        inventory, declared = _inventory(args.devices)
        graph = load_graph(args.graph) if args.graph else None
    except (OSError, ValueError) as e:
        print(f"policy explain: {e}", file=sys.stderr)
        return 2
    try:
        info = explain(options, inventory, rules, graph, profile_label=args.devices if declared else "probed")
    except TypeError as e:  # WebNNTypeError: an invalid option value
        print(f"policy explain: TypeError: {e}", file=sys.stderr)
        return 2
    print(json.dumps(info, indent=2, sort_keys=True) if args.json else format_explain(info))
    return 0


def _fail(cmd: str, e: BaseException) -> int:
    detail = f"{e.filename}: {e.strerror}" if isinstance(e, OSError) and e.filename and e.strerror else str(e)
    print(f"policy {cmd}: {detail}", file=sys.stderr)
    return 2


def _check_matrix_machine(matrix: dict | None, inventory, path: str | None) -> None:
    """A matrix whose measurements name none of the inventory's devices was measured on another
    machine (or for another profile): replay would silently price nothing from it."""
    from .trace import split_mode

    if matrix is None or not path:
        return
    measured = set(matrix.get("devices") or {})
    for g in (matrix.get("graphs") or {}).values():
        measured |= {split_mode(k)[0] for k in (g.get("results") or {}) if not k.startswith("partition:")}
    if measured and not measured & {d.id for d in inventory}:
        raise ValueError(f"{path}: the matrix names none of this inventory's devices (it measured "
                         f"{', '.join(sorted(measured)[:4])}{' ...' if len(measured) > 4 else ''}; this inventory has "
                         f"{', '.join(d.id for d in inventory[:4])}{' ...' if len(inventory) > 4 else ''}): measured on "
                         "another machine or for another --devices profile; measure here (`policy measure`) or pass "
                         "the matching --devices")


def _cmd_replay(args) -> int:
    from webnn_bridge.policy.engine import load_rules

    from .trace import format_table, replay, write_replay

    try:
        rules_b = load_rules(args.rules)
        rules_a = load_rules(args.baseline)
        events = _load_trace(args.trace)
        inventory, _ = _inventory(args.devices)
        matrix = _load_matrix(args.matrix, args.calibration)
        _check_matrix_machine(matrix, inventory, args.matrix)
    except (OSError, ValueError) as e:
        return _fail("replay", e)
    labels = (Path(args.baseline).stem if args.baseline else "defaults", Path(args.rules).stem)
    if labels[0] == labels[1]:
        labels = ("baseline", "rules")
    notes: list[str] = []
    rows = replay(events, rules_a, rules_b, inventory, matrix=matrix, notes=notes)
    for note in notes:  # how the trace's devices map onto the inventory: said loudly, first
        print(f"NOTE: {note}")
    for note in dict.fromkeys(f"{r.workload} on {o.label}: {o.note}" for r in rows for o in (r.a, r.b) if o.note):
        print(f"NOTE: {note}")
    modelled = sum(o.latency_source == "modelled" for r in rows for o in (r.a, r.b))
    if modelled and matrix is None:
        print(f"NOTE: {modelled} latency(ies) marked * are modelled (for a real backend without --calibration: "
              "the static cost model, one figure per device kind); measure them with `policy measure` and pass "
              "--matrix")
    print(format_table(rows, labels))
    if args.out is None:
        return 0
    try:
        paths = write_replay(rows, args.out, labels)
    except OSError as e:
        print(f"policy replay: cannot write to {args.out}: {e.strerror or e}", file=sys.stderr)
        return 2
    print("wrote " + ", ".join(str(p) for p in paths.values()))
    return 0


def _cmd_check(args) -> int:
    from webnn_bridge.policy.engine import load_rules

    try:
        rules = load_rules(args.file)
    except (OSError, ValueError) as e:
        return _fail("check", e)
    print(f"{args.file}: ok ({len(rules['options'])} option rows, {len(rules.get('routes', []))} route(s))")
    return 0


def _thread_modes(text: str) -> tuple[int, ...]:
    """--threads: "1,2" -> (1, 2); "none" -> ()."""
    from webnn_bridge.policy.engine import MAX_THREADS

    if text.strip().lower() in ("", "none"):
        return ()
    try:
        modes = tuple(sorted({int(x) for x in text.split(",")}))
    except ValueError:
        raise ValueError(f"--threads takes thread counts like 1,2 (or none), not {text!r}") from None
    if any(not 1 <= n <= MAX_THREADS for n in modes):
        raise ValueError(f"--threads: each count must be 1..{MAX_THREADS}")
    return modes


def _cmd_measure(args) -> int:
    from .measure import measure, write_matrix

    if not args.seconds > 0 or args.reps < 1:
        return _fail("measure", ValueError("--seconds must be > 0 and --reps >= 1"))
    if args.cache_dir is None:
        from webnn_bridge.backends.cache import default_cache_dir

        args.cache_dir = str(default_cache_dir())
    try:
        events = _load_trace(args.trace)
        from webnn_bridge.policy.replica import store_constants

        store = None if args.no_store else store_constants(args.cache_dir)
        if args.browser:
            if _thread_modes(args.threads):
                raise ValueError("--threads cannot be measured with --browser (a page cannot ask for a CPU mode)")
            from .insitu import measure_in_browser

            matrix = measure_in_browser(events, seconds=args.seconds, reps=args.reps, warmup=args.warmup,
                                        progress=None if args.quiet else sys.stderr, constants=store,
                                        executable=args.browser_path)
        else:
            matrix = measure(events, seconds=args.seconds, reps=args.reps, warmup=args.warmup,
                             progress=None if args.quiet else sys.stderr, constants=store,
                             modes=_thread_modes(args.threads))
        if args.calibration:
            matrix["calibration"] = _load_matrix(None, args.calibration)["calibration"]
        path = write_matrix(matrix, args.out)
    except (OSError, ValueError) as e:
        return _fail("measure", e)
    for h, g in matrix["graphs"].items():
        cells = ", ".join(f"{dev}: p50 {r['p50']:.3f} ms [{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}] p90 {r['p90']:.3f} "
                          f"n={r['n']} cpu {r['cpu_ms']:.3f} ms"
                          + (f" compile {r['compile_ms']:.0f} ms" if "compile_ms" in r else "")
                          for dev, r in g["results"].items())
        c = g.get("constants")
        stored = f" [constants: {c['stored']}/{c['total']} from the store]" if c and c["total"] else ""
        print(f"{g['label']} ({h[:10]}){stored}: {cells or 'not measured'}")
        for dev, why in g.get("skipped", {}).items():
            print(f"  skipped {dev}: {why}")
    print(f"wrote {path}")
    return 0


def _cmd_calibrate(args) -> int:
    from .measure import calibrate

    if not args.seconds > 0:
        return _fail("calibrate", ValueError("--seconds must be > 0"))
    try:
        cal = calibrate(seconds=args.seconds, progress=None if args.quiet else sys.stderr)
        out = Path(args.out)
        out.write_text(json.dumps(cal, indent=1, sort_keys=True), encoding="utf-8")
    except (OSError, ValueError) as e:
        return _fail("calibrate", e)
    for name, b in cal["backends"].items():
        print(f"{name}: dispatch {b['dispatch_ms']:.3f} ms; " + ", ".join(
            f"{c} {f['ms_per_node']:.3f} ms/node + {f['ms_per_unit'] * (1e9 if f['unit'] == 'flop' else 1e6):.3f} "
            f"ms/{'GFLOP' if f['unit'] == 'flop' else 'MB'}" for c, f in b["classes"].items()))
    print(f"wrote {out} (measured on this machine)")
    return 0


def _cmd_tune(args) -> int:
    import tomllib

    from webnn_bridge.policy.engine import load_rules

    from .tune import tune, write_outputs

    try:
        base = load_rules(args.rules)
        override = tomllib.loads(Path(args.rules).read_text()) if args.rules else {}
        events = _load_trace(args.trace)
        matrix = _load_matrix(args.matrix, args.calibration)
        inventory, _ = _inventory(args.devices)
        _check_matrix_machine(matrix, inventory, args.matrix)
        result = tune(events, matrix, base, inventory, objective=args.objective, base_override=override)
        paths = write_outputs(result, args.out, args.report, base, override)
    except (OSError, ValueError) as e:
        return _fail("tune", e)
    unit = "ms CPU" if args.objective == "cpu-time" else "ms"
    width = max(28, *(len(c.name) for c in result["candidates"]))
    for c in result["candidates"]:
        total = "fails a workload" if c.total is None else f"{c.total:.2f} {unit}"
        flag = "  <- chosen" if c is result["best"] else ("  (not eligible: its default order is slower somewhere)"
                                                          if c.unsafe else "")
        print(f"  {c.name:<{width}} {total}{flag}")
    if result.get("note"):
        print(result["note"])
    page = result.get("page")
    if page is not None:
        for w in sorted(page.workloads, key=lambda w: w.flops):
            sides = ", ".join(f"{name} p50 {statistics.median(xs):.3f} ms ({len(xs)} runs)"
                              for name, xs in (("in the page", w.in_page), ("on the host", w.on_host)) if xs)
            print(f"  [page] {w.name}: {w.flops:.3g} FLOPs; {sides or 'no page-side times'}")
    print(f"wrote {paths['rules']}, {paths['md']}, {paths['png']}")
    return 0


def _cmd_truth_table(args) -> int:
    from webnn_bridge.policy.engine import load_rules
    from webnn_bridge.policy.truth_table import TRUTH_TABLE_MD, check_truth_table, render_truth_table, write_truth_table

    rules = load_rules(args.rules)
    if args.check:
        if check_truth_table(rules):
            return 0
        print(f"{TRUTH_TABLE_MD} is stale: run `webnn-bridge policy truth-table --write` (or `webnn-bridge codegen`)",
              file=sys.stderr)
        return 1
    if args.write:
        print(f"wrote {write_truth_table(rules)}")
        return 0
    print(render_truth_table(rules))
    return 0


def add_commands(parser: argparse.ArgumentParser) -> None:
    """Add the explain / replay / truth-table subcommands to ``parser``."""
    sub = parser.add_subparsers(dest="policy_cmd", required=True)

    e = sub.add_parser("explain", help="show how options map to a policy, a device and a placement")
    e.add_argument("--options", metavar="JSON|@FILE", help="createContext() options (JSON object or @file)")
    e.add_argument("--graph", metavar="GRAPH.json", help="a graph JSON file or a trace line (policy/graphs.py)")
    e.add_argument("--devices", metavar="PROFILE.json", help="a declared inventory (file or fixture name)")
    e.add_argument("--rules", metavar="RULES.toml", help="rules merged over the defaults")
    e.add_argument("--json", action="store_true", help="print the explanation as JSON")
    e.set_defaults(parser=e, func=_cmd_explain)

    r = sub.add_parser("replay", help="re-decide a recorded trace under two rule sets and compare")
    r.add_argument("trace", metavar="TRACE.jsonl", nargs="+", help="one or more traces, read as one")
    r.add_argument("--rules", metavar="RULES.toml", required=True, help="the candidate rules")
    r.add_argument("--baseline", metavar="RULES.toml", help="the baseline rules (default: the defaults)")
    r.add_argument("--out", metavar="DIR", help="also write replay.png, replay.csv and replay.md into DIR")
    r.add_argument("--devices", metavar="PROFILE.json", help="a declared inventory (file or fixture name)")
    r.add_argument("--matrix", metavar="MATRIX.json", help="measured latencies from `policy measure`")
    r.add_argument("--calibration", metavar="CAL.json", help="per-op-class figures from `policy calibrate`")
    r.set_defaults(parser=r, func=_cmd_replay)

    m = sub.add_parser("measure", help="re-run every graph of a trace on every real device of this machine")
    m.add_argument("trace", metavar="TRACE.jsonl", nargs="+", help="one or more traces, read as one")
    m.add_argument("--out", metavar="MATRIX.json", required=True)
    m.add_argument("--seconds", type=float, default=60.0, help="time budget for the timed runs (default 60)")
    m.add_argument("--reps", type=int, default=50, help="repetitions per graph and device at most (default 50)")
    m.add_argument("--warmup", type=int, default=3, help="untimed runs first (default 3)")
    m.add_argument("--calibration", metavar="CAL.json", help="embed `policy calibrate` figures in the matrix")
    m.add_argument("--cache-dir", metavar="DIR", default=None,
                   help="the host's cache directory: constants from its store (default: serve's default)")
    m.add_argument("--no-store", action="store_true", help="deterministic data for every constant")
    m.add_argument("--threads", default="none", metavar="N[,N...]",
                   help="CPU modes (intra-op threads) also timed on CPUs whose backend takes them, e.g. 1 or 1,2 "
                        "(default none: tune then keeps the backends' own threading)")
    m.add_argument("--browser", choices=["chromium"], default=None,
                   help="time each graph where pages run it: rebuilt in a Chromium page, run through a host per "
                        "device (workbench/insitu.py); the host-side latency a trace records (default: in-process)")
    m.add_argument("--browser-path", metavar="PATH", default=None, help="the Chromium to use (default /usr/bin/chromium)")
    m.add_argument("--quiet", action="store_true", help="no progress bar")
    m.set_defaults(parser=m, func=_cmd_measure)

    c = sub.add_parser("calibrate", help="per backend and op class micro-benchmarks (for the latency model)")
    c.add_argument("--out", metavar="CAL.json", required=True)
    c.add_argument("--seconds", type=float, default=30.0)
    c.add_argument("--quiet", action="store_true")
    c.set_defaults(parser=c, func=_cmd_calibrate)

    tn = sub.add_parser("tune", help="search rules for a trace's workloads from a measured matrix")
    tn.add_argument("trace", metavar="TRACE.jsonl", nargs="+", help="one or more traces, read as one")
    tn.add_argument("--matrix", metavar="MATRIX.json", required=True)
    tn.add_argument("--objective", choices=("latency-p50", "latency-p90", "cpu-time"), default="latency-p50")
    tn.add_argument("--rules", metavar="RULES.toml", help="the rules the trace ran under (default: the defaults)")
    tn.add_argument("--out", metavar="RULES.toml", default="tuned-rules.toml",
                    help="the rules file to write (default: %(default)s, in the current folder)")
    tn.add_argument("--report", metavar="DIR", default="tune-report",
                    help="the folder tune.md and tune.png go in (default: %(default)s)")
    tn.add_argument("--calibration", metavar="CAL.json")
    tn.add_argument("--devices", metavar="PROFILE.json", help="a declared inventory (default: this machine's)")
    tn.set_defaults(parser=tn, func=_cmd_tune)

    k = sub.add_parser("check", help="validate a rules file as serve would (exit 2 with the problems)")
    k.add_argument("file", metavar="RULES.toml")
    k.set_defaults(parser=k, func=_cmd_check)

    t = sub.add_parser("truth-table", help="render policy/TRUTH_TABLE.md from the rules")
    g = t.add_mutually_exclusive_group()
    g.add_argument("--write", action="store_true", help="write policy/TRUTH_TABLE.md")
    g.add_argument("--check", action="store_true", help="fail when policy/TRUTH_TABLE.md is stale")
    t.add_argument("--rules", metavar="RULES.toml", help=argparse.SUPPRESS)
    t.set_defaults(parser=t, func=_cmd_truth_table)


def register(subparsers) -> argparse.ArgumentParser:
    """Add `policy` (with explain / replay / truth-table) to a top-level CLI's subparsers.
    The parsed args carry ``func``; call ``args.func(args)``."""
    p = subparsers.add_parser("policy", help="device-selection policy: explain, replay, measure, tune, check, truth table")
    add_commands(p)
    return p


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="webnn-bridge policy", description="Device-selection policy tools.")
    add_commands(p)
    args = p.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
