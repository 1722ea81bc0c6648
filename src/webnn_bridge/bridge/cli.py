"""The `webnn-bridge` command line."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import logging
import sys
from pathlib import Path

from .host_ml import ml_factory


def reload_rules(ml, rules_path: str | None) -> bool:
    """Re-read the rules file into a running host (SIGHUP): validated first; a bad file keeps the
    old rules and logs why. New contexts and builds use the new rules; what was built stays."""
    from webnn_bridge.policy.engine import load_rules

    log = logging.getLogger("webnn_bridge.policy")
    try:
        rules = load_rules(rules_path)
    except (OSError, ValueError) as e:
        detail = f"{e.filename}: {e.strerror}" if isinstance(e, OSError) and e.filename and e.strerror else str(e)
        log.warning("SIGHUP: kept the old rules: %s", detail)
        return False
    ml.rules = rules
    ml._memo_fingerprint = None  # remembered builds were placed under the old rules
    memo = getattr(ml, "build_memo", None)
    entries = getattr(memo, "_entries", None)
    if entries is not None:
        with memo._lock:
            entries.clear()
    log.warning("SIGHUP: reloaded the rules from %s", rules_path or "the defaults")
    return True


# SIGHUP means "reload the rules": it never ends a host, in any phase. serve takes it over first
# thing (_hold_signals: main, before it parses the command line), before the host reads its rules:
# one that comes while the host starts reloads the rules once it is ready; while it serves, they
# are reloaded at once; once its event loop is closed (it stops), there is nothing to reload, and
# the interpreter's exit ignores it. A supervisor (serve --restart-on-crash) starts the host with
# SIGHUP blocked, so one that comes before the host's main runs waits for it. Only the interpreter's
# own start (before any of this module runs) is not covered.
_sighup_target: tuple | None = None  # (event loop, ML, rules path) of the host that serves
_sighup_pending = False  # a SIGHUP came before the host was ready
_sighup_at_exit = False  # ignored once the interpreter exits


def _on_sighup(_signum, _frame) -> None:
    global _sighup_pending
    target = _sighup_target
    if target is None:
        _sighup_pending = True
        return
    loop, ml, rules_path = target
    try:  # the loop wakes for it (its self-pipe): the handler runs between two steps of its thread
        loop.call_soon_threadsafe(reload_rules, ml, rules_path)
    except RuntimeError:  # the loop is closed: the host is stopping
        pass


def _hold_signals() -> None:
    """serve's first step: SIGHUP no longer ends the process (_on_sighup), and the signals a
    supervisor kept blocked while it started this process (_supervise) are let through."""
    import atexit
    import signal

    if not hasattr(signal, "SIGHUP"):
        return
    try:
        signal.signal(signal.SIGHUP, _on_sighup)
    except ValueError:  # not the main thread: serve run inside another program, whose signals they are
        return
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _held_signals())
    global _sighup_at_exit
    if not _sighup_at_exit:
        # the interpreter puts the default action (the end of the process) back for the signals it
        # handles as it exits: after every other exit step (disk caches written), ignore SIGHUP instead
        atexit.register(signal.signal, signal.SIGHUP, signal.SIG_IGN)
        _sighup_at_exit = True


def _reload_on_sighup(ml, rules_path: str | None) -> None:
    """SIGHUP reloads the rules of the host serving on this event loop from now on (serve calls this
    once the host is ready); one that came while the host started reloads them now."""
    global _sighup_target, _sighup_pending
    import signal

    if not hasattr(signal, "SIGHUP"):
        return
    try:
        loop = asyncio.get_running_loop()
        signal.signal(signal.SIGHUP, _on_sighup)  # (again: a host started without serve's first step)
    except (RuntimeError, ValueError):  # no loop, or not the main thread: no signals here
        return
    _sighup_target = (loop, ml, rules_path)
    if _sighup_pending:
        _sighup_pending = False
        loop.call_soon(reload_rules, ml, rules_path)


class UsageError(Exception):
    """A bad argument or input file: printed as one line, exit status 2."""


# signals that end a host by a crash (a runtime's segfault or abort; SIGKILL: the kernel's
# out-of-memory killer): serve --restart-on-crash starts it again
CRASH_SIGNALS = ("SIGSEGV", "SIGABRT", "SIGBUS", "SIGILL", "SIGFPE", "SIGKILL")
RESTARTS_PER_MINUTE = 5
RESTART_PAUSE_S = 0.5  # between a crash and the next start
# what a supervised host learns of its supervisor: "pid:fd", fd the end of a pipe only the
# supervisor writes to (_follow_supervisor)
SUPERVISOR_ENV = "WEBNN_BRIDGE_SUPERVISOR"
_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def _held_signals() -> set:
    """The signals a supervisor passes on to its host (SIGTERM, SIGINT, SIGHUP)."""
    import signal

    return {getattr(signal, name) for name in ("SIGTERM", "SIGINT", "SIGHUP") if hasattr(signal, name)}


def _supervise(argv: list[str], port: int) -> int:
    """serve --restart-on-crash: the host runs in a child process (this command line without the
    option), started again when a crash signal ends it, as systemd's Restart=on-failure would; its
    crash journal (the cache folder's) keeps the graph that crashed it off that device. SIGTERM,
    SIGINT and SIGHUP are passed on to the host; its own exit (a stop, a bad option) is final, as
    are more than RESTARTS_PER_MINUTE crashes in a minute. A SIGTERM or SIGINT while no host runs
    (the pause after a crash) stops at once, 0; a SIGHUP then is dropped (the next host reads the
    rules as it starts). The host dies with this process, even by SIGKILL (_follow_supervisor)."""
    import contextlib
    import os
    import signal
    import socket
    import subprocess
    import time

    if port == 0:  # one free port for every start, so that pages find the host again
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
    cmd = [sys.executable, "-m", "webnn_bridge.bridge.cli", "serve",
           *[a for a in argv if a != "--restart-on-crash"], "--port", str(port)]
    crash_signals = {getattr(signal, name) for name in CRASH_SIGNALS if hasattr(signal, name)}
    stops = {getattr(signal, name) for name in ("SIGTERM", "SIGINT") if hasattr(signal, name)}
    held = _held_signals()
    child: subprocess.Popen | None = None
    stopping = False

    def forward(signum, _frame):
        nonlocal stopping
        stopping = stopping or signum in stops
        if child is not None and child.poll() is None:
            child.send_signal(signum)

    for signum in held:
        signal.signal(signum, forward)

    @contextlib.contextmanager
    def holding():
        """These signals wait (blocked) while a host is started: forward() never sees one half
        started, and the host begins with them blocked, so that a SIGHUP cannot end it before its
        serve takes SIGHUP over (_hold_signals lets them through then)."""
        if not hasattr(signal, "pthread_sigmask"):
            yield
            return
        old = signal.pthread_sigmask(signal.SIG_BLOCK, held)
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)  # what came meanwhile is handled now

    extra: dict = {}
    if os.name == "posix":  # the host watches this pipe where the kernel cannot end it with us
        watch, _keep = os.pipe()  # the write end stays open here, in no other process, until we end
        extra = {"pass_fds": (watch,), "env": {**os.environ, SUPERVISOR_ENV: f"{os.getpid()}:{watch}"}}
    crashes: list[float] = []
    while True:
        with holding():
            if stopping:
                return 0
            child = subprocess.Popen(cmd, **extra)
        rc = child.wait()
        if stopping:  # the host stopped as asked (by the signal itself while it was starting)
            return 0 if rc == 0 or -rc in stops else rc if rc > 0 else 128 - rc
        if rc >= 0 or -rc not in crash_signals:
            return rc if rc >= 0 else 128 - rc
        now = time.monotonic()
        crashes = [t for t in crashes if now - t < 60] + [now]
        name = signal.Signals(-rc).name
        if len(crashes) > RESTARTS_PER_MINUTE:
            print(f"webnn-bridge serve: the host was ended by {name}, {len(crashes)} crashes in a minute: "
                  "not starting it again", file=sys.stderr, flush=True)
            return 128 - rc
        print(f"webnn-bridge serve: the host was ended by {name}; starting it again (its crash journal keeps "
              "what it was compiling or running off that device)", file=sys.stderr, flush=True)
        deadline = time.monotonic() + RESTART_PAUSE_S
        while not stopping and (left := deadline - time.monotonic()) > 0:
            time.sleep(min(left, 0.05))  # a signal's handler runs between these
        if stopping:
            print("webnn-bridge serve: stopped before the host was started again", file=sys.stderr, flush=True)
            return 0


def _follow_supervisor() -> None:
    """In a host that serve --restart-on-crash started: end with the supervisor, however it ends
    (SIGKILL included), rather than hold its port with nobody to restart it. Linux: the kernel sends
    this process SIGTERM (a drain) when the supervisor dies (prctl PR_SET_PDEATHSIG); elsewhere a
    thread waits for the end of the supervisor's pipe and sends it. A supervisor that died before
    either was in place is no longer this process's parent: SIGTERM at once."""
    import os
    import signal

    spec = os.environ.pop(SUPERVISOR_ENV, None)  # not the host's own children's
    try:
        pid, fd = (int(x) for x in (spec or "").split(":"))
    except ValueError:
        return
    if _die_with_parent(signal.SIGTERM):
        os.close(fd)
    else:
        import threading

        threading.Thread(target=_watch_supervisor, args=(fd,), name="webnn-supervisor", daemon=True).start()
    if os.getppid() != pid:
        os.kill(os.getpid(), signal.SIGTERM)


def _die_with_parent(signum: int) -> bool:
    """Linux: the kernel sends this process ``signum`` when its parent dies. False elsewhere."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signum), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch_supervisor(fd: int) -> None:
    """SIGTERM to this process when nobody holds the pipe's write end any more (its supervisor ended)."""
    import os
    import signal

    try:
        while os.read(fd, 1):
            pass
    except OSError:
        pass
    os.kill(os.getpid(), signal.SIGTERM)


def _serve(args) -> int:
    _hold_signals()  # first (main did already for a command line): a SIGHUP must not end the host while it starts
    _follow_supervisor()
    from .server import HostConfig, normalize_origin, run_forever

    for o in args.allow_origin:
        try:
            normalize_origin(o)
        except ValueError as e:
            raise UsageError(f"--allow-origin: {e}") from None
    if args.app is not None and not Path(args.app).is_dir():
        raise UsageError(f"--app {args.app}: not a directory")
    tls_files, tls_note = _tls_files(args)
    token = _remote_access(args, tls_files is not None)
    if args.spin:  # read by the backends when they compile (backends/base.py spinning)
        import os

        os.environ["WEBNN_BRIDGE_SPIN"] = "1"
    from webnn_bridge.backends.page import RUNTIME_FILES, default_runtime_folder, runtime_folder

    page_runtime = None
    if args.no_page_local:
        if args.page_local is not None:
            raise UsageError("--page-local and --no-page-local: choose one")
    elif args.page_local is not None:  # asked for: a missing runtime is an error
        page_runtime = runtime_folder(args.page_local) if args.page_local else default_runtime_folder()
        if page_runtime is None:
            raise UsageError(f"--page-local {args.page_local or '(default)'}: no folder with {', '.join(RUNTIME_FILES)} "
                             "(bash scripts/install_ortweb.sh fetches them into .ortweb/)")
    else:  # the default: pages run their small graphs themselves wherever the runtime is installed
        page_runtime = default_runtime_folder()
    if args.restart_on_crash:  # the options are checked above, once; the host runs in a child
        return _supervise(args.argv, args.port)
    ml = ml_factory(args.devices, args.rules, None if args.no_cache else args.cache_dir)()  # a bad profile or rules file fails here, in one line

    config = HostConfig(
        host=args.host,
        port=args.port,
        app_dir=Path(args.app) if args.app else None,
        allow_origins=list(args.allow_origin),
        ml_factory=lambda: ml,
        allow_hosts=list(args.allow_host),
        max_graphs_per_session=args.max_graphs or None,
        keepalive_timeout_s=args.keepalive_timeout,
        strict_spec=args.strict_spec,
        own_process=True,
        tls_cert=tls_files[0] if tls_files else None,
        tls_key=tls_files[1] if tls_files else None,
        token=token,
        trusted_proxies=list(args.trusted_proxy),
        drain_timeout_s=args.drain_timeout,
        page_runtime=page_runtime,
    )
    if args.metrics_allow:
        config.metrics_allow = list(args.metrics_allow)
    if args.session_budget is not None:
        config.session_budget_bytes = args.session_budget << 20 or None
    if args.host_budget is not None:
        config.host_budget_bytes = args.host_budget << 20 or None
    if args.trace:
        from webnn_bridge.workbench.trace import SessionTracer, TraceWriter

        config.observer = SessionTracer(TraceWriter(args.trace))

    def ready(host):
        _reload_on_sighup(host.ml, args.rules)
        print(f"webnn-bridge serving on {host.url}", flush=True)
        print(f"  shim:      <script src=\"{host.url}/webnn-shim.js\"></script>", flush=True)
        if config.app_dir:
            print(f"  app:       {host.url}/  (from {config.app_dir})", flush=True)
        print(f"  origins:   {', '.join(sorted(host.allowed_origins))}", flush=True)
        if page_runtime is not None:
            bound = (host.ml.rules or {}).get("page", {}).get("max_flops")
            print(f"  page:      pages run their small graphs themselves ([page] max_flops {bound}), "
                  f"onnxruntime-web from {page_runtime} (--no-page-local: every graph on the host)", flush=True)
        elif not args.no_page_local:
            print("  page:      off: no page runtime installed (bash scripts/install_ortweb.sh), every graph runs on "
                  "the host", flush=True)
        if token is not None:  # never the token itself
            print("  access:    pages need the access token (webnn-shim.js?token=... or WebNNBridge.token)", flush=True)
        if tls_note:
            print(tls_note, end="", flush=True)

    logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
    if args.verbose:  # the host's own session log; websockets' per-request lines stay quiet
        logging.getLogger("webnn_bridge").setLevel(logging.INFO)
    try:
        asyncio.run(run_forever(config, ready))
    except (KeyboardInterrupt, asyncio.CancelledError):  # Ctrl-C, SIGTERM: stopped, disk caches written
        pass
    except OSError as e:
        print(f"webnn-bridge serve: cannot listen on {args.host}:{args.port}: {e.strerror or e}", file=sys.stderr)
        return 1
    return 0


TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")


def check_token(token: str, where: str) -> str:
    """An access token: 16 to 512 characters a websocket subprotocol may carry."""
    if not 16 <= len(token) <= 512 or not set(token) <= TOKEN_CHARS:
        raise UsageError(f"{where}: an access token is 16 to 512 characters of A-Z a-z 0-9 - . _ ~ "
                         "(make one with `webnn-bridge token`)")
    return token


def _remote_access(args, tls: bool) -> str | None:
    """serve's access token (--token-file, else $WEBNN_BRIDGE_TOKEN), and the rule that a host
    others can reach needs TLS and a token unless --insecure-remote says otherwise."""
    import ipaddress
    import os

    token = None
    if args.token_file:
        try:
            token = check_token(Path(args.token_file).read_text(encoding="utf-8").strip(), "--token-file")
        except (OSError, UnicodeDecodeError) as e:
            raise UsageError(f"--token-file: {getattr(e, 'strerror', None) or e}") from None
    elif os.environ.get("WEBNN_BRIDGE_TOKEN"):
        token = check_token(os.environ["WEBNN_BRIDGE_TOKEN"].strip(), "WEBNN_BRIDGE_TOKEN")
    for spec in [*args.trusted_proxy, *args.metrics_allow]:
        try:
            ipaddress.ip_network(spec, strict=False)
        except ValueError:
            raise UsageError(f"not an IP address or network: {spec!r} (--trusted-proxy / --metrics-allow)") from None
    if args.drain_timeout < 0:
        raise UsageError("--drain-timeout must be >= 0 seconds")
    name = args.host.strip("[]").lower()
    try:
        loopback = ipaddress.ip_address(name).is_loopback
    except ValueError:
        loopback = name == "localhost"
    if not loopback and not args.insecure_remote and (not tls or token is None):
        missing = " and ".join(w for w, ok in (("TLS (--tls-cert/--tls-key)", tls),
                                                ("an access token (--token-file)", token is not None)) if not ok)
        raise UsageError(f"--host {args.host} lets other machines reach this host: it needs {missing}; "
                         "--insecure-remote starts it without (e.g. behind a TLS-terminating proxy on a private network)")
    return token


def _token(args) -> int:
    import secrets

    print(secrets.token_urlsafe(32))
    return 0


def _tls_files(args) -> tuple[tuple[str, str] | None, str]:
    """serve's TLS flags: (certificate, key) or None, and what to print about them. A bad
    certificate or key is a one-line usage error here, before the host starts."""
    from . import tls

    if args.tls_self_signed is not None and (args.tls_cert or args.tls_key):
        raise UsageError("--tls-self-signed makes its own certificate: give it or --tls-cert/--tls-key, not both")
    if bool(args.tls_cert) != bool(args.tls_key):
        raise UsageError("--tls-cert and --tls-key go together (the certificate and its private key)")
    note = ""
    if args.tls_self_signed is not None:
        try:
            dev = tls.dev_certificate(args.tls_self_signed or None, extra_names=[args.host])
        except ImportError:
            raise UsageError("--tls-self-signed needs the 'cryptography' package (pip install cryptography)") from None
        except OSError as e:
            raise UsageError(f"--tls-self-signed: {_os_detail(e)}") from None
        files = (str(dev.cert), str(dev.key))
        note = tls.trust_instructions(dev)
    elif args.tls_cert:
        files = (args.tls_cert, args.tls_key)
    else:
        return None, ""
    try:
        tls.server_context(*files)
    except (OSError, ValueError) as e:
        raise UsageError(f"--tls-cert/--tls-key: {_os_detail(e) if isinstance(e, OSError) else e}") from None
    tls.warn_if_readable(files[1])
    return files, note


def _os_detail(e: OSError) -> str:
    """One line for an OSError, ssl.SSLError included (its reason, not the C source line)."""
    import ssl

    if isinstance(e, ssl.SSLError):
        reason = e.reason or (e.args[1] if len(e.args) > 1 else str(e))
        if reason == "KEY_VALUES_MISMATCH":
            return "the private key does not belong to the certificate"
        return f"not a usable PEM certificate and key ({e.library or 'SSL'}: {reason})"
    if e.filename and e.strerror:
        return f"{e.filename}: {e.strerror}"
    return str(e)


def _devices(args) -> int:
    from webnn_bridge.policy.inventory import capabilities_of, load_profile, probe_inventory

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
        print(_table(["kind", "id", "backend", "ops", "max rank", "data types", "name"], [
            [r["kind"], r["id"], r.get("declared backend", r["backend"]) + (" (simulated)" if r.get("simulated") else ""),
             str(r["ops"]), str(r["maxRank"]), ",".join(r["dataTypes"]), r["name"]] for r in rows]))
    return 0


def _table(head: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(x) for x in col) for col in zip(head, *rows)]
    return "\n".join("  ".join(x.ljust(w) for x, w in zip(line, widths)).rstrip() for line in [head, *rows])


def _codegen(args) -> int:
    # the generators (webnn_bridge.devtools.codegen) are a developer tool: loaded only now
    return _devtool("codegen", ["--check"] if args.check else [])


def default_cache_dir():
    from webnn_bridge.backends.cache import default_cache_dir

    return default_cache_dir()


def _default_tls_dir():
    from .tls import default_dir

    return default_dir()


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port {port} is outside 0-65535")
    return port


def _run(args) -> int:
    """Run a parsed command; bad input files and arguments end in one line on stderr, exit 2."""
    name = " ".join(x for x in ("webnn-bridge", args.cmd, getattr(args, "policy_cmd", None)) if x)
    try:
        return args.func(args)
    except UsageError as e:
        print(f"{name}: {e}", file=sys.stderr)
    except (OSError, ValueError, TypeError, KeyError) as e:
        # ValueError covers JSON/TOML syntax and profile/rules/trace checks; TypeError a bad option
        detail = f"{e.filename}: {e.strerror}" if isinstance(e, OSError) and e.filename and e.strerror else str(e)
        print(f"{name}: {detail}", file=sys.stderr)
    return 2


def _parse(p: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    """Like parse_args, but an unknown flag is reported with the usage of its subcommand."""
    args, extra = p.parse_known_args(argv)
    if extra:
        getattr(args, "parser", p).error(f"unrecognized arguments: {' '.join(extra)}")
    return args


def build_parser() -> argparse.ArgumentParser:
    """The whole command line (deploy/ recipes are checked against it)."""
    p = argparse.ArgumentParser(prog="webnn-bridge", description="Run W3C WebNN pages on a Python host.")
    sub = p.add_subparsers(dest="cmd", required=True)

    s = sub.add_parser("serve", help="start the host (websocket + shim + optional app)")
    s.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    s.add_argument("--port", type=_port, default=8787, help="port (default 8787; 0 picks a free one)")
    s.add_argument("--app", metavar="DIR", help="serve a static web app from DIR with the shim injected")
    s.add_argument("--allow-origin", metavar="ORIGIN", action="append", default=[],
                   help="also accept pages from ORIGIN (repeatable)")
    s.add_argument("--devices", metavar="PROFILE.json", help="simulate a declared device inventory")
    s.add_argument("--rules", metavar="RULES.toml", help="override device-selection rules")
    s.add_argument("--trace", metavar="TRACE.jsonl",
                   help="record every context, build and dispatch (options, graph summary, decision, latency)")
    s.add_argument("--allow-host", metavar="NAME", action="append", default=[],
                   help="also answer requests addressed to this host name (repeatable; DNS-rebinding defence)")
    s.add_argument("--session-budget", metavar="MIB", type=int,
                   help="bytes of tensors and graphs one page may hold, in MiB (default 4096; 0: unlimited)")
    s.add_argument("--host-budget", metavar="MIB", type=int,
                   help="the same for all pages together (default 3/4 of physical RAM; 0: unlimited)")
    s.add_argument("--max-graphs", metavar="N", type=int, default=1024,
                   help="graphs one page may hold at once (default 1024; 0: unlimited)")
    s.add_argument("--keepalive-timeout", metavar="SECONDS", type=float, default=10.0,
                   help="pages declare the host lost when they hear nothing from it this long (default 10)")
    s.add_argument("--strict-spec", action="store_true",
                   help="give pages the spec's buffer rules where shipping Chromium is more lenient (default: Chromium's)")
    s.add_argument("--cache-dir", metavar="DIR", default=str(default_cache_dir()),
                   help="keep compiled graphs here across restarts (default: %(default)s)")
    s.add_argument("--no-cache", action="store_true", help="keep compiled graphs in memory only")
    s.add_argument("--tls-cert", metavar="FILE",
                   help="serve https and wss with this PEM certificate (chain); needs --tls-key")
    s.add_argument("--tls-key", metavar="FILE", help="the certificate's PEM private key")
    s.add_argument("--tls-self-signed", metavar="DIR", nargs="?", const="",
                   help="development: serve https with a localhost certificate made (or reused) in DIR "
                        f"(default {_default_tls_dir()}), and print how to trust it in each browser")
    s.add_argument("--token-file", metavar="FILE",
                   help="pages must present this access token (first line of FILE; else $WEBNN_BRIDGE_TOKEN)")
    s.add_argument("--insecure-remote", action="store_true",
                   help="allow a non-loopback --host without TLS and a token (e.g. behind a TLS-terminating proxy)")
    s.add_argument("--trusted-proxy", metavar="ADDR", action="append", default=[],
                   help="a load balancer / reverse proxy (IP or network, repeatable) whose X-Forwarded-Host and "
                        "X-Forwarded-Proto are believed for Host and Origin checks")
    s.add_argument("--metrics-allow", metavar="ADDR", action="append", default=[],
                   help="clients (IP or network, repeatable) that may read /metrics (default: loopback); behind a "
                        "--trusted-proxy, the client it forwards for (X-Forwarded-For / Forwarded)")
    s.add_argument("--drain-timeout", metavar="SECONDS", type=float, default=30.0,
                   help="on SIGTERM, refuse new sessions and wait this long for open ones (default 30)")
    s.add_argument("--restart-on-crash", action="store_true",
                   help="run the host in a child process and start it again when a runtime crashes it "
                        "(a segfault, an abort, the out-of-memory killer)")
    s.add_argument("--spin", action="store_true",
                   help="let runtimes' pool threads spin between a run's operators (about 0.2 ms faster a run "
                        "of a big graph, for a core or more of CPU time while it runs; default: they sleep; "
                        "also WEBNN_BRIDGE_SPIN=1)")
    s.add_argument("--page-local", metavar="DIR", nargs="?", const="",
                   help="serve onnxruntime-web's wasm runtime from DIR and let pages run the small graphs the "
                        "policy's [page] rules place there themselves: no round trip per dispatch. On by default "
                        "when the runtime is installed ($WEBNN_BRIDGE_PAGE_RUNTIME, else .ortweb/onnxruntime-web-* "
                        "here or in the checkout, which scripts/install_ortweb.sh fills); naming it makes a missing "
                        "runtime an error")
    s.add_argument("--no-page-local", action="store_true",
                   help="serve no page runtime: every graph runs on the host")
    s.add_argument("-v", "--verbose", action="store_true", help="log sessions opening and closing, and refused origins")
    s.set_defaults(func=_serve, parser=s)

    tk = sub.add_parser("token", help="print a new random access token (for serve --token-file)")
    tk.set_defaults(func=_token, parser=tk)

    d = sub.add_parser("devices", help="print the device inventory (operator view)")
    d.add_argument("--devices", metavar="PROFILE.json", help="show a declared inventory instead")
    d.add_argument("--json", action="store_true", help="print JSON instead of a table")
    d.set_defaults(func=_devices, parser=d)

    c = sub.add_parser("codegen", help="regenerate every generated file (shim interface layer and op rules, host IDL "
                                       "table, policy truth table, backend tables, docs/operators.md's table, docs/cli.md)")
    c.add_argument("--check", action="store_true", help="fail if a generated file is stale (writes nothing)")
    c.set_defaults(func=_codegen)

    from webnn_bridge.workbench import cli as policy_cli

    policy_cli.register(sub)

    w = sub.add_parser("wpt", help="run a local wpt checkout's WebNN suites through the shim in Chromium, Firefox or WebKit",
                       add_help=False)
    w.set_defaults(func=None)

    o = sub.add_parser("oracle", help="differential run: native Chromium WebNN vs the shim", add_help=False)
    o.set_defaults(func=None)

    f = sub.add_parser("fuzz", help="differential run: random multi-operator graphs on every CPU backend vs the "
                                    "reference", add_help=False)
    f.set_defaults(func=None)
    return p


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ["serve"]:  # as early as serve can: before the parser (its imports take a while)
        _hold_signals()
    p = build_parser()
    if argv[:1] in (["wpt"], ["oracle"], ["fuzz"]):
        return _devtool(argv[0], argv[1:])
    args = _parse(p, argv)
    args.argv = argv[1:]  # the subcommand's own arguments (serve --restart-on-crash passes them on)
    return _run(args)


DEVTOOLS = "webnn_bridge.devtools"


def _devtool(name: str, argv: list[str]) -> int:
    """``webnn-bridge wpt|oracle|fuzz``: the developer tools' own ``main`` (webnn_bridge.devtools, which
    the runtime never imports), loaded only now; one line and exit 2 when they are not installed."""
    try:
        module = importlib.import_module(f"{DEVTOOLS}.{name}")
    except ModuleNotFoundError as e:
        if e.name not in (DEVTOOLS, f"{DEVTOOLS}.{name}"):
            raise  # the tools are there but broken: a real error, not "not installed"
        print(f"webnn-bridge {name}: the developer tools ({DEVTOOLS}) are not installed with this webnn-bridge",
              file=sys.stderr)
        return 2
    return module.main(argv)


if __name__ == "__main__":
    sys.exit(main())
