"""Differential oracle: the same WebNN programs in native Chromium WebNN and through the shim.

A *program* is one graph in the layout of the WPT conformance JSON (``graph.inputs`` with
descriptors and data, ``graph.operators`` with arguments in JS call order). Programs come from
the conformance cases in ``../shared/data/wpt_conformance`` (valid calls), from seeded random
mutations of them (new random data, another data type, another shape or rank, a perturbed option:
mostly invalid calls) and from random calls of any operator built from its IDL signature
(``CallMaker``). ``devtools/oracle.js`` runs each program in a page and reports the stage
reached (``call``: a builder method threw; ``build``; ``compute``; ``ok``), the error name, or
every output's descriptor and values. Two runs are compared program by program.

    webnn-bridge oracle --native-chromium /work/peers/native/chromium [--count 400] [--seed 1]
                        [--ops add,cast] [--json FILE]

Native Chromium runs with its own WebNN (``--enable-features=WebMachineLearningNeuralNetwork``;
WebNN lives in its GPU process, so the GPU is not disabled); the shim runs in Debian's Chromium
against an in-process host. ``run_inprocess`` gives the host's own answers through the Python
object model (no browser), which the tests use to check the tool without native Chromium.
Never needed by the test suite.
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import os
import random
import sys
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from . import playwright_missing

REPO = Path(__file__).resolve().parents[3]  # the repository (src/webnn_bridge/devtools/ in it)
DATA_DIR = REPO.parent / "shared" / "data" / "wpt_conformance"
RUNNER_JS = Path(__file__).with_name("oracle.js")
NATIVE_ARGS = ["--enable-features=WebMachineLearningNeuralNetwork", "--no-zygote", "--use-angle=swiftshader",
               "--no-sandbox", "--headless"]
TYPES = ("float32", "float16", "int32", "uint32", "int64", "uint64", "int8", "uint8")
MUTATIONS = ("data", "dtype", "shape", "rank", "option", "scalar")

# --------------------------------------------------------------------------- programs


MAX_ELEMENTS = 4096  # per program (all inputs together): keeps pages fast and results small


def wpt_call_args(op: dict, resolve) -> list:
    """The builder call arguments of one operator entry of the WPT-derived JSON, in JS order:
    ``resolve(value, in_options)`` turns names into operands and special strings into numbers."""
    args = []
    for argument in op["arguments"]:
        # an entry usually names one argument; some name several in order ({scale, zeroPoint})
        for key, value in argument.items():
            if key == "options":
                args.append({k: resolve(x, True) for k, x in value.items()})
            elif isinstance(value, list) and op["name"] == "concat":
                args.append([resolve(x, False) for x in value])
            else:
                args.append(resolve(value, False))
    return args


def elements(graph: dict) -> int:
    return sum(math.prod(s["descriptor"]["shape"]) for s in graph["inputs"].values())


def load_seeds(data_dir: Path = DATA_DIR, ops: set[str] | None = None) -> list[dict]:
    """The conformance cases as programs: {"id", "op", "origin", "graph"} (no expected outputs)."""
    seeds = []
    for path in sorted(data_dir.glob("*.json")):
        for test in json.loads(path.read_text())["tests"]:
            graph = {k: test["graph"][k] for k in ("inputs", "operators")}
            op = graph["operators"][-1]["name"]
            if ops and not ({o["name"] for o in graph["operators"]} & ops):
                continue
            if elements(graph) > MAX_ELEMENTS:
                continue
            seeds.append({"id": test["name"], "op": op, "origin": "wpt", "graph": graph})
    return seeds


def random_data(rng: random.Random, data_type: str, shape: list[int], magnitude: int = 100) -> list:
    """Small random values of a data type (floats in [-10, 10], integers in [-magnitude, magnitude],
    never negative for unsigned types)."""
    n = math.prod(shape)
    if data_type in ("float32", "float16"):
        return [round(rng.uniform(-10, 10), 3) for _ in range(n)]
    lo = 0 if data_type.startswith("u") else -magnitude
    values = [rng.randint(lo, magnitude) for _ in range(n)]
    return [f"{v}n" for v in values] if data_type.endswith("64") else values


def _inputs_of(graph: dict) -> list[str]:
    return sorted(graph["inputs"])


def _mutate_data(rng, graph) -> str:
    for spec in graph["inputs"].values():
        d = spec["descriptor"]
        spec["data"] = random_data(rng, d["dataType"], d["shape"])
    return "random data"


def _mutate_dtype(rng, graph) -> str:
    name = rng.choice(_inputs_of(graph))
    d = graph["inputs"][name]["descriptor"]
    d["dataType"] = rng.choice([t for t in TYPES if t != d["dataType"]])
    graph["inputs"][name]["data"] = random_data(rng, d["dataType"], d["shape"])
    return f"{name}: dataType {d['dataType']}"


def _mutate_shape(rng, graph) -> str:
    name = rng.choice(_inputs_of(graph))
    d = graph["inputs"][name]["descriptor"]
    if d["shape"]:
        i = rng.randrange(len(d["shape"]))
        d["shape"][i] = max(1, d["shape"][i] + rng.choice((-1, 1, 2)))
    else:
        d["shape"] = [rng.randint(1, 3)]
    graph["inputs"][name]["data"] = random_data(rng, d["dataType"], d["shape"])
    return f"{name}: shape {d['shape']}"


def _mutate_rank(rng, graph) -> str:
    name = rng.choice(_inputs_of(graph))
    d = graph["inputs"][name]["descriptor"]
    if d["shape"] and rng.random() < 0.5:
        d["shape"] = d["shape"][1:]
    else:
        d["shape"] = [1] + d["shape"]
    graph["inputs"][name]["data"] = random_data(rng, d["dataType"], d["shape"])
    return f"{name}: shape {d['shape']}"


def _mutate_scalar(rng, graph) -> str:
    name = rng.choice(_inputs_of(graph))
    d = graph["inputs"][name]["descriptor"]
    d["shape"] = []
    graph["inputs"][name]["data"] = random_data(rng, d["dataType"], [])
    return f"{name}: scalar"


def _perturb(rng, v):
    if isinstance(v, bool):
        return not v
    if isinstance(v, int):
        return rng.choice((v + 1, v - 1, v + 3, -1 if v >= 0 else 0))
    if isinstance(v, float):
        return rng.choice((v * 2, -v, float("nan")))
    if isinstance(v, list) and v and all(isinstance(x, int) and not isinstance(x, bool) for x in v):
        choice = rng.randrange(3)
        if choice == 0:
            return v[:-1]
        if choice == 1:
            return v + [v[-1]]
        w = list(v)
        w[rng.randrange(len(w))] += rng.choice((1, 5))
        return w
    return None


def _mutate_option(rng, graph) -> str | None:
    sites = []
    for op in graph["operators"]:
        for i, arg in enumerate(op["arguments"]):
            ((key, value),) = arg.items()
            if key == "options":
                sites += [(op, i, k) for k, x in value.items() if _perturb(random.Random(0), x) is not None]
            elif _perturb(random.Random(0), value) is not None:
                sites.append((op, i, None))
    if not sites:
        return None
    op, i, k = rng.choice(sites)
    ((key, value),) = op["arguments"][i].items()
    if k is None:
        op["arguments"][i] = {key: _perturb(rng, value)}
        return f"{op['name']} {key}={op['arguments'][i][key]}"
    value[k] = _perturb(rng, value[k])
    return f"{op['name']} {k}={value[k]}"


_MUTATORS = {"data": _mutate_data, "dtype": _mutate_dtype, "shape": _mutate_shape, "rank": _mutate_rank,
             "option": _mutate_option, "scalar": _mutate_scalar}


def mutate(seed_program: dict, rng: random.Random, kind: str) -> dict | None:
    """A mutated copy of a program (``None`` when the mutation does not apply to it)."""
    graph = copy.deepcopy(seed_program["graph"])
    if not graph["inputs"]:
        return None
    what = _MUTATORS[kind](rng, graph)
    if what is None or elements(graph) > MAX_ELEMENTS:
        return None
    return {"id": f"{seed_program['id']} [{kind}: {what}]", "op": seed_program["op"], "origin": kind, "graph": graph}


# --------------------------------------------------------------------------- random calls from the IDL

SKIP_OPS = {"input", "constant", "build"}
COMMON_TYPES = ("float32", "float32", "float32", "float16", "int32", "int8", "uint8", "int64")


class CallMaker:
    """One random call of an operator, driven by its IDL signature: operand arguments become graph
    inputs (by default all of one data type and shape, so that many calls are valid), integers
    and integer lists are drawn around the input rank and dimensions, option dictionaries get a
    few random members. Returns the program, or None when the signature has no operand."""

    def __init__(self, rng: random.Random):
        from webnn_bridge.ops._idl import IDL

        self.rng, self.idl = rng, IDL
        self.inputs: dict[str, dict] = {}
        self.limits: dict = {}
        rank = rng.choice((0, 1, 2, 3, 4, 4))
        self.shape = [rng.randint(1, 4) for _ in range(rank)]
        self.dtype = rng.choice(COMMON_TYPES)

    def operand(self, arg: str = "") -> str:
        shape, dtype = list(self.shape), self.dtype
        lim = self.limits.get(arg)
        if lim is not None and lim.same is None and dtype not in lim.types and self.rng.random() < 0.8:
            dtype = self.rng.choice(lim.types)  # mostly a type the spec allows for this operand
        if self.rng.random() < 0.15:
            dtype = self.rng.choice(TYPES)
        if self.rng.random() < 0.15:
            shape = [self.rng.randint(1, 4) for _ in range(self.rng.randint(0, 4))]
        name = f"in{len(self.inputs)}"
        # integers small enough to be valid indices now and then (gather, scatter, ...)
        data = random_data(self.rng, dtype, shape, magnitude=3)
        self.inputs[name] = {"data": data, "descriptor": {"shape": shape, "dataType": dtype}}
        return name

    def value(self, t: dict, arg: str = ""):
        rng, kind = self.rng, t["t"]
        if kind == "iface" and t["name"] == "MLOperand":
            return self.operand(arg)
        if kind in ("unsigned long", "long", "unsigned long long", "long long"):
            return rng.randint(0, max(len(self.shape), 1))
        if kind in ("float", "double", "unrestricted double", "unrestricted float"):
            return round(rng.uniform(-2, 2), 2)
        if kind == "boolean":
            return rng.random() < 0.5
        if kind == "enum":
            return rng.choice(self.idl["enums"][t["name"]])
        if kind == "sequence":
            if t["of"]["t"] == "iface":
                return [self.operand(arg) for _ in range(rng.randint(1, 3))]
            n = len(self.shape) if rng.random() < 0.7 else rng.randint(0, 5)
            return [self.value(t["of"]) if t["of"]["t"] != "unsigned long" else rng.randint(0, 4) for _ in range(n)]
        if kind == "union":
            return self.value(rng.choice(t["of"]))
        if kind == "dict":
            return self.options(t["name"])
        return None

    def options(self, name: str) -> dict:
        members = [m for m in self._members(name) if m["name"] != "label"]
        chosen = self.rng.sample(members, k=min(len(members), self.rng.choice((0, 0, 1, 2))))
        out = {m["name"]: self.value(m["type"], m["name"]) for m in chosen}
        return {k: v for k, v in out.items() if v is not None}

    def _members(self, name: str) -> list[dict]:
        d = self.idl["dictionaries"][name]
        return (self._members(d["inherits"]) if d["inherits"] else []) + d["members"]

    def program(self, op: str) -> dict | None:
        from webnn_bridge.ops.registry import load_all

        opdef = load_all().get(op)
        self.limits = dict(opdef.limits) if opdef is not None else {}
        overload = self.rng.choice(self.idl["interfaces"]["MLGraphBuilder"]["operations"][op])
        args = []
        for a in overload["args"]:
            if a["type"]["t"] == "dict":
                args.append({"options": self.options(a["type"]["name"])})
                continue
            v = self.value(a["type"], a["name"])
            if v is None:
                return None
            args.append({a["name"]: v})
        if not self.inputs:
            return None
        many = overload.get("returns", {}).get("t") == "sequence"
        graph = {"inputs": self.inputs, "operators": [{"name": op, "arguments": args, "outputs": "out" if not many
                                                        else ["out"]}]}
        return {"id": f"{op} random", "op": op, "origin": "random", "graph": graph}


def random_program(rng: random.Random, ops: set[str] | None = None) -> dict | None:
    from webnn_bridge.ops._idl import IDL

    names = sorted(set(IDL["interfaces"]["MLGraphBuilder"]["operations"]) - SKIP_OPS)
    if ops:
        names = [n for n in names if n in ops]
    if not names:
        return None
    p = CallMaker(rng).program(rng.choice(names))
    return p if p is not None and elements(p["graph"]) <= MAX_ELEMENTS else None


def generate(seeds: list[dict], count: int, seed: int = 1, valid_share: float = 0.3, random_share: float = 0.3,
             ops: set[str] | None = None) -> list[dict]:
    """``count`` programs drawn deterministically from ``seed``: about ``random_share`` of them
    random calls of any operator (``random_program``), the others conformance cases, unmodified
    (``valid_share`` of them) or mutated."""
    rng = random.Random(seed)
    programs = []
    attempts = 0
    while len(programs) < count and attempts < count * 20:
        attempts += 1
        if not seeds or rng.random() < random_share:
            p = random_program(rng, ops)
        elif rng.random() < valid_share:
            p = copy.deepcopy(rng.choice(seeds))
        else:
            p = mutate(rng.choice(seeds), rng, rng.choice(MUTATIONS))
        if p is not None:
            p["id"] = f"{len(programs)}: {p['id']}"
            programs.append(p)
    return programs


# --------------------------------------------------------------------------- comparison

_SPECIAL = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def _value(v):
    if isinstance(v, str):
        if v in _SPECIAL:
            return _SPECIAL[v]
        return int(v[:-1] if v.endswith("n") else v)
    return v


# WPT-like tolerances: float outputs within a few ULP of the other (or a small absolute error for
# results near zero), integer outputs exact.
FLOAT_TOLERANCE = {"float32": (1e-5, 1e-6), "float16": (2e-3, 1e-3)}


def values_match(data_type: str, a: list, b: list, op: str = "") -> tuple[bool, str]:
    if len(a) != len(b):
        return False, f"{len(a)} values vs {len(b)}"
    if data_type not in FLOAT_TOLERANCE:
        for i, (x, y) in enumerate(zip(a, b)):
            if _value(x) != _value(y):
                return False, f"element {i}: {x} vs {y}"
        return True, ""
    rtol, atol = FLOAT_TOLERANCE[data_type]
    if op in _LOOSE_OPS:
        rtol, atol = rtol * 100, atol * 100
    x = np.array([_value(v) for v in a], np.float64)
    y = np.array([_value(v) for v in b], np.float64)
    bad = ~(np.isclose(x, y, rtol=rtol, atol=atol, equal_nan=True) | (x == y))
    if bad.any():
        i = int(np.argmax(bad))
        return False, f"element {i}: {a[i]} vs {b[i]} ({int(bad.sum())} of {len(a)} differ)"
    return True, ""


# operators whose WPT tolerance is loose (accumulations, transcendental chains)
_LOOSE_OPS = {"gru", "gruCell", "lstm", "lstmCell", "conv2d", "convTranspose2d", "matmul", "gemm", "softmax",
              "layerNormalization", "instanceNormalization", "batchNormalization", "reduceLogSumExp", "gelu",
              "averagePool2d", "l2Pool2d", "reduceMean", "reduceL2", "reduceLogSum", "erf", "tan", "pow",
              "resample2d", "linear", "elu", "softplus", "hardSwish", "sigmoid", "tanh", "exp", "log"}


@dataclass
class Verdict:
    agree: bool
    # same-error, same-result; capability (native lacks what it does not claim, see below);
    # error-vs-ok, ok-vs-error, other-error, other-stage, shape, values
    kind: str
    detail: str = ""


def _operand_descs(program: dict) -> list[tuple[str, str, int | None]]:
    """(operand name, data type, rank) of every graph input passed straight to the program's last
    operator, by the argument (or option member) that takes it; a requested output data type
    (cast's dataType, argMin/argMax's outputDataType) counts for "output" (rank None)."""
    inputs = program["graph"]["inputs"]
    out = []
    for arg in program["graph"]["operators"][-1]["arguments"]:
        ((key, value),) = arg.items()
        pairs = value.items() if key == "options" and isinstance(value, dict) else [(key, value)]
        for name, v in pairs:
            if name in ("dataType", "outputDataType") and v in TYPES + ("int4", "uint4"):
                out.append(("output", v, None))
            for x in v if isinstance(v, list) else [v]:
                if isinstance(x, str) and x in inputs:
                    d = inputs[x]["descriptor"]
                    out.append((name, d["dataType"], len(d["shape"])))
    return out


def _outside(limits: dict, name: str, data_type: str, rank: int | None) -> str | None:
    lim = limits.get(name)
    if not isinstance(lim, dict):
        return None
    if data_type not in lim.get("dataTypes", (data_type,)):
        return f"{name}: {data_type}"
    r = lim.get("rankRange") or {}
    if rank is not None and not r.get("min", 0) <= rank <= r.get("max", rank):
        return f"{name}: rank {rank}"
    return None


def native_lacks(program: dict, native: dict) -> str | None:
    """Why a native failure is a capability difference rather than a disagreement on the spec: a
    data type that native's own opSupportLimits() leaves out for the operator, or a build that
    native's backend rejects with NotSupportedError (the spec lets an implementation do both)."""
    if native["stage"] == "build" and native["error"] == "NotSupportedError":
        return "native backend: NotSupportedError at build"
    limits = native.get("limits")
    if native["stage"] == "call" and native["error"] == "TypeError" and limits:
        missing = sorted({w for w in (_outside(limits, *d) for d in _operand_descs(program)) if w})
        if missing:
            return f"native opSupportLimits().{program['op']} lacks {', '.join(missing)}"
    return None


def compare(native: dict, shim: dict, op: str = "", program: dict | None = None) -> Verdict:
    """One program's outcomes: native vs shim."""
    n_ok, s_ok = native["stage"] == "ok", shim["stage"] == "ok"
    if not n_ok and shim["stage"] != "call" and program is not None:
        why = native_lacks(program, native)
        if why:
            return Verdict(True, "capability", why)
    if not n_ok and not s_ok:
        if native["error"] != shim["error"]:
            return Verdict(False, "other-error", f"native {native['stage']} {native['error']}, shim {shim['stage']} "
                           f"{shim['error']}: {shim.get('message', '')[:160]}")
        if native["stage"] != shim["stage"]:
            return Verdict(False, "other-stage", f"{native['error']} at {native['stage']} (native) vs "
                           f"{shim['stage']} (shim): {shim.get('message', '')[:160]}")
        return Verdict(True, "same-error", native["error"])
    if not n_ok:
        return Verdict(False, "error-vs-ok", f"native {native['stage']} {native['error']}: "
                       f"{native.get('message', '')[:200]}")
    if not s_ok:
        return Verdict(False, "ok-vs-error", f"shim {shim['stage']} {shim['error']}: {shim.get('message', '')[:200]}")
    for name, out in native["outputs"].items():
        other = shim["outputs"].get(name)
        if other is None or (out["dataType"], out["shape"]) != (other["dataType"], other["shape"]):
            got = other and (other["dataType"], other["shape"])
            return Verdict(False, "shape", f"{name}: native {out['dataType']}{out['shape']} vs shim {got}")
        ok, why = values_match(out["dataType"], out["data"], other["data"], op)
        if not ok:
            return Verdict(False, "values", f"{name} ({out['dataType']}): {why}")
    return Verdict(True, "same-result")


@dataclass
class Report:
    per_op: dict = field(default_factory=lambda: defaultdict(Counter))
    examples: dict = field(default_factory=lambda: defaultdict(list))
    rows: list = field(default_factory=list)

    def add(self, program: dict, native: dict, shim: dict, verdict: Verdict) -> None:
        op = program["op"]
        self.per_op[op]["agree" if verdict.agree else "disagree"] += 1
        self.per_op[op][verdict.kind] += 1
        if not verdict.agree and len(self.examples[op]) < 3:
            self.examples[op].append(f"{program['id']}: {verdict.kind}: {verdict.detail}")
        row = {"id": program["id"], "op": op, "origin": program["origin"], "agree": verdict.agree,
               "kind": verdict.kind, "detail": verdict.detail, "native": _brief(native), "shim": _brief(shim)}
        if not verdict.agree:
            row["graph"] = program["graph"]
        self.rows.append(row)

    @property
    def totals(self) -> Counter:
        t = Counter()
        for c in self.per_op.values():
            t.update(c)
        return t

    def render(self) -> str:
        lines = [f"{'operator':24} {'agree':>6} {'disagree':>8}  kinds"]
        for op in sorted(self.per_op):
            c = self.per_op[op]
            kinds = ", ".join(f"{k} {v}" for k, v in sorted(c.items()) if k not in ("agree", "disagree"))
            lines.append(f"{op:24} {c['agree']:>6} {c['disagree']:>8}  {kinds}")
        t = self.totals
        lines.append(f"{'total':24} {t['agree']:>6} {t['disagree']:>8}")
        for op in sorted(self.examples):
            lines.append(f"\n{op}:")
            lines += [f"  {e}" for e in self.examples[op]]
        return "\n".join(lines)


def _brief(outcome: dict) -> dict:
    if outcome["stage"] != "ok":
        return {k: outcome.get(k) for k in ("stage", "error", "message")}
    return {"stage": "ok", "outputs": {n: {"dataType": o["dataType"], "shape": o["shape"]}
                                       for n, o in outcome["outputs"].items()}}


def compare_all(programs: list[dict], native: list[dict], shim: list[dict]) -> Report:
    report = Report()
    for p, n, s in zip(programs, native, shim):
        report.add(p, n, s, compare(n, s, p["op"], p))
    return report


# --------------------------------------------------------------------------- running in browsers

PAGE = "<!doctype html><meta charset=utf-8><title>webnn-bridge oracle</title><script src=oracle.js></script>\n"
BATCH = 25


def _page_dir() -> Path:
    d = Path(tempfile.mkdtemp(prefix="webnn-oracle-"))
    (d / "oracle.html").write_text(PAGE)
    (d / "oracle.js").write_text(RUNNER_JS.read_text())
    return d


def _run_pages(browser, url: str, programs: list[dict], timeout_ms: int = 120_000) -> list[dict]:
    """Runs the programs in batches, a fresh page per batch (a crash loses one batch only)."""
    results = []
    for i in range(0, len(programs), BATCH):
        batch = programs[i:i + BATCH]
        page = browser.new_page()
        page.set_default_timeout(timeout_ms)
        try:
            page.goto(url)
            results += page.evaluate("(ps) => runOraclePrograms(ps)", batch)
        except Exception as e:  # a page crash or timeout: every program of the batch reports it
            results += [{"stage": "harness", "error": "HarnessError", "message": str(e)[:200]} for _ in batch]
        finally:
            page.close()
    return results


class StaticServer:
    """Plain loopback HTTP (a secure context) for the native run's page."""

    def __init__(self, directory: Path):
        import http.server
        import threading

        class Quiet(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args):
                pass

        handler = lambda *a, **kw: Quiet(*a, directory=str(directory), **kw)  # noqa: E731
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.origin = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def _run_in(executable: str, args: list[str], env: dict | None, url: str, programs: list[dict]) -> list[dict]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=args, env=env, headless=True)
        try:
            return _run_pages(browser, url, programs)
        finally:
            browser.close()


def native_launch(chromium: str) -> tuple[list[str], dict]:
    """Arguments and environment for a native Chromium with WebNN (its libraries next to the
    binary and in lib/)."""
    d = Path(chromium).resolve().parent
    return NATIVE_ARGS, dict(os.environ, LD_LIBRARY_PATH=f"{d / 'lib'}:{d}")


def run_native(chromium: str, programs: list[dict]) -> list[dict]:
    """The programs in native Chromium WebNN."""
    args, env = native_launch(chromium)
    server = StaticServer(_page_dir())
    try:
        return _run_in(chromium, args, env, f"{server.origin}/oracle.html", programs)
    finally:
        server.stop()


def run_shim(programs: list[dict], chromium: str | None = None) -> list[dict]:
    """The programs through the shim, in Debian's Chromium (or ``chromium``) with an in-process host."""
    from webnn_bridge.bridge.embed import CHROMIUM, CHROMIUM_ARGS, start_host

    host = start_host(app_dir=_page_dir())
    try:
        return _run_in(chromium or CHROMIUM, CHROMIUM_ARGS, None, f"{host.url}/oracle.html", programs)
    finally:
        host.stop()


def _np_input(spec: dict) -> np.ndarray:
    from webnn_bridge.ops.core import DATA_TYPES

    desc = spec["descriptor"]
    dt = DATA_TYPES[desc["dataType"]]
    n = math.prod(desc["shape"])
    data = spec["data"] if isinstance(spec["data"], list) else [spec["data"]]
    values = [_value(data[i % len(data)]) for i in range(n)]
    if dt.is_float:
        arr = np.array(values, np.float64).astype(np.float32).astype(dt.numpy)
    else:
        lo, hi = dt.int_range
        arr = np.array([(int(v) - lo) % (hi - lo + 1) + lo for v in values], dtype=object).astype(dt.numpy)
    return arr.reshape(desc["shape"])


def _encode(arr: np.ndarray) -> list:
    out = []
    for v in arr.reshape(-1).tolist():
        if isinstance(v, float):
            out.append("NaN" if math.isnan(v) else ("Infinity" if v == math.inf else "-Infinity" if v == -math.inf
                                                     else v))
        elif arr.dtype.itemsize == 8 and arr.dtype.kind in "iu":
            out.append(f"{v}n")
        else:
            out.append(int(v))
    return out


def _run_one_inprocess(ctx, program: dict) -> dict:
    from webnn_bridge.bridge.api import MLGraphBuilder
    from webnn_bridge.ops.core import WebNNError

    g, stage = program["graph"], "call"
    try:
        b = MLGraphBuilder(ctx)
        operands, feeds, values, last = {}, {}, {}, []

        def resolve(v, in_options):
            if isinstance(v, str):
                if v in values:
                    return values[v]
                if v in g["inputs"]:
                    if v not in operands:
                        spec = g["inputs"][v]
                        desc = {"dataType": spec["descriptor"]["dataType"], "shape": list(spec["descriptor"]["shape"])}
                        if spec.get("constant"):
                            operands[v] = b.constant(desc, _np_input(spec))
                        else:
                            operands[v] = b.input(v, desc)
                            feeds[v] = _np_input(spec)
                    return operands[v]
                if in_options and (v in _SPECIAL or v.rstrip("n").lstrip("-").isdigit()):
                    return _value(v)
            return v

        for op in g["operators"]:
            result = getattr(b, op["name"])(*wpt_call_args(op, resolve))
            names = op["outputs"] if isinstance(op["outputs"], list) else [op["outputs"]]
            results = result if isinstance(result, list) else [result]
            if len(results) != len(names):
                names = [f"{names[0]}{i}" for i in range(len(results))]
            values.update(zip(names, results))
            last = names
        named = {n: values[n] for n in program.get("outputs") or last}
        stage = "build"
        graph = b.build(named)
        stage = "compute"
        ins = {}
        for name, arr in feeds.items():
            ins[name] = ctx.createTensor({"dataType": str(operands[name].dataType), "shape": list(arr.shape),
                                          "writable": True})
            ctx.writeTensor(ins[name], arr)
        outs = {n: ctx.createTensor({"dataType": o.dataType, "shape": list(o.shape), "readable": True})
                for n, o in named.items()}
        ctx.dispatch(graph, ins, outs)
        return {"stage": "ok", "outputs": {n: {"dataType": t.desc.data_type, "shape": list(t.desc.shape),
                                               "data": _encode(ctx.readTensor(t))} for n, t in outs.items()}}
    except WebNNError as e:
        return {"stage": stage, "error": e.name, "message": str(e)}
    except TypeError as e:  # Python-level argument errors stand for WebIDL TypeErrors
        return {"stage": stage, "error": "TypeError", "message": str(e)}
    except Exception as e:  # a runtime failing inside dispatch(): a page would see no error at all
        if stage != "compute":
            raise
        return {"stage": "compute", "error": "DispatchFailed", "message": str(e)[:200]}


def run_inprocess(programs: list[dict], backend: str | None = None) -> list[dict]:
    """The programs through the Python object model (no browser): the host's own answers, what the
    shim must reproduce. ``backend`` picks one backend's CPU device ("reference", "onnxruntime")."""
    from webnn_bridge.bridge.api import ML

    ml = ML()
    if backend is not None:
        ml = ML([d for d in ml.inventory if d.backend == backend and d.kind == "cpu"][:1])
    ctx = ml.createContext()
    limits = ctx.opSupportLimits()
    return [dict(_run_one_inprocess(ctx, p), limits=limits.get(p["op"])) for p in programs]


# --------------------------------------------------------------------------- CLI


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="webnn-bridge oracle", description=__doc__.splitlines()[0])
    p.add_argument("--native-chromium", metavar="PATH", required=True, help="a Chromium binary with WebNN")
    p.add_argument("--chromium", metavar="PATH", help="the browser that runs the shim (default Debian's)")
    p.add_argument("--data", metavar="DIR", default=str(DATA_DIR), help="WPT conformance JSON directory")
    p.add_argument("--count", type=int, default=300, help="number of programs (default 300)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--ops", help="comma-separated operators to draw from (default all)")
    p.add_argument("--json", metavar="FILE", help="write every program's outcome and verdict")
    args = p.parse_args(argv)
    if why := playwright_missing("oracle"):
        print(why, file=sys.stderr)
        return 2

    ops = set(args.ops.split(",")) if args.ops else None
    seeds = load_seeds(Path(args.data), ops) if Path(args.data).is_dir() else []
    programs = generate(seeds, args.count, args.seed, ops=ops)
    if not programs:
        print("webnn-bridge oracle: no programs to run", file=sys.stderr)
        return 2
    native = run_native(args.native_chromium, programs)
    shim = run_shim(programs, args.chromium)
    report = compare_all(programs, native, shim)
    print(report.render())
    if args.json:
        Path(args.json).write_text(json.dumps({"seed": args.seed, "rows": report.rows}, indent=1))
    return 0

