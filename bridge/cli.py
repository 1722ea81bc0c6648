"""The `webnn-bridge` command line."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from pathlib import Path


def ml_factory(devices: str | None, rules_path: str | None):
    """What the host builds its ML from: the probed inventory, or a declared (simulated) one."""
    from .api import ML

    def make_ml():
        from policy.engine import load_rules
        from policy.inventory import load_profile, probe_inventory

        rules = load_rules(rules_path)
        if devices:
            cpu = [d for d in probe_inventory() if d.kind == "cpu"]
            return ML(load_profile(devices) + cpu[:1], rules=rules, simulated=True)
        return ML(rules=rules)

    return make_ml


def _serve(args) -> int:
    from .server import HostConfig, normalize_origin, run_forever

    for o in args.allow_origin:
        try:
            normalize_origin(o)
        except ValueError as e:
            print(f"webnn-bridge: --allow-origin: {e}", file=sys.stderr)
            return 2
    if args.app is not None and not Path(args.app).is_dir():
        print(f"webnn-bridge: --app {args.app}: not a directory", file=sys.stderr)
        return 2

    config = HostConfig(
        host=args.host,
        port=args.port,
        app_dir=Path(args.app) if args.app else None,
        allow_origins=list(args.allow_origin),
        ml_factory=ml_factory(args.devices, args.rules),
    )
    if args.trace:
        from policy.trace import SessionTracer, TraceWriter

        config.observer = SessionTracer(TraceWriter(args.trace))

    def ready(host):
        print(f"webnn-bridge serving on {host.url}", flush=True)
        print(f"  shim:      <script src=\"{host.url}/webnn-shim.js\"></script>", flush=True)
        if config.app_dir:
            print(f"  app:       {host.url}/  (from {config.app_dir})", flush=True)
        print(f"  origins:   {', '.join(sorted(host.allowed_origins))}", flush=True)

    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(name)s: %(message)s")
    try:
        asyncio.run(run_forever(config, ready))
    except KeyboardInterrupt:
        pass
    except OSError as e:
        print(f"webnn-bridge: cannot listen on {args.host}:{args.port}: {e}", file=sys.stderr)
        return 1
    return 0


def _devices(args) -> int:
    from policy.inventory import capabilities_of, load_profile, probe_inventory

    devices = load_profile(args.devices) if args.devices else probe_inventory()
    rows = []
    for d in devices:
        caps = capabilities_of(d)
        # data types of each op's main (first) operand: what the device computes in
        types = sorted({t for lims in caps.ops.values() for t in next(iter(lims.values())).types})
        rows.append({"id": d.id, "kind": d.kind, "backend": d.backend, "name": d.name, **dict(d.details),
                     "ops": len(caps.ops), "dataTypes": types, "maxRank": caps.max_rank,
                     "maxTensorByteLength": caps.max_tensor_byte_length})
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        for r in rows:
            backend = r.get("declared backend", r["backend"]) + (" (simulated)" if r.get("simulated") else "")
            print(f"{r['kind']:4} {r['id']:34} {backend:24} ops={r['ops']:<3} rank<={r['maxRank']} "
                  f"{','.join(r['dataTypes'])}  {r['name']}")
    return 0


def _codegen(args) -> int:
    from idl import codegen

    return codegen.main(["--check"] if args.check else [])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="webnn-bridge", description="Run W3C WebNN pages on a Python host.")
    sub = p.add_subparsers(dest="cmd", required=True)

    s = sub.add_parser("serve", help="start the host (websocket + shim + optional app)")
    s.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    s.add_argument("--port", type=int, default=8787, help="port (default 8787; 0 picks a free one)")
    s.add_argument("--app", metavar="DIR", help="serve a static web app from DIR with the shim injected")
    s.add_argument("--allow-origin", metavar="ORIGIN", action="append", default=[],
                   help="also accept pages from ORIGIN (repeatable)")
    s.add_argument("--devices", metavar="PROFILE.json", help="simulate a declared device inventory")
    s.add_argument("--rules", metavar="RULES.toml", help="override device-selection rules")
    s.add_argument("--trace", metavar="TRACE.jsonl",
                   help="record every context, build and dispatch (options, graph summary, decision, latency)")
    s.add_argument("-v", "--verbose", action="store_true", help="log sessions and failures")
    s.set_defaults(func=_serve)

    d = sub.add_parser("devices", help="print the device inventory (operator view)")
    d.add_argument("--devices", metavar="PROFILE.json", help="show a declared inventory instead")
    d.add_argument("--json", action="store_true")
    d.set_defaults(func=_devices)

    c = sub.add_parser("codegen", help="regenerate the shim's interface layer and op rules, and the host IDL table")
    c.add_argument("--check", action="store_true", help="fail if generated files are stale")
    c.set_defaults(func=_codegen)

    from policy import cli as policy_cli

    policy_cli.register(sub)

    w = sub.add_parser("wpt", help="run a local wpt checkout's WebNN suites in Chromium through the shim",
                       add_help=False)
    w.set_defaults(func=None)

    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ["wpt"]:
        from . import wpt

        return wpt.main(argv[1:])
    args = p.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
