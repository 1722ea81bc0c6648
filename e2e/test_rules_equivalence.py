"""The op rules exist once: the JS the shim runs (src/webnn_bridge/js_shim/generated/webnn_ops.js, translated from the
Python rules by src/webnn_bridge/devtools/codegen/jsgen.py) must behave exactly as the Python originals, for every registered op.

Cases (a builder's input() operands, then builder calls in JS argument order):
- seeds: every operator call of the WPT-derived conformance JSON (../shared/data/wpt_conformance);
- mutations of those seeds: an input's shape or data type changed, an option replaced by a random
  value of its IDL type, the options dropped;
- random calls generated from each op's IDL signature (random data types, ranks, dimensions,
  option members with random enum/int/sequence/number values).
Python (bridge.api.MLGraphBuilder with a context of the same capabilities) and the page (the real
shim, in Debian's Chromium, all cases in one page.evaluate) must give identical outcomes: the
output descriptors, or the error's name and message. The test asserts its own coverage: every
registered op with valid and invalid cases.
"""

from __future__ import annotations

import json
import math
import os
import random
from pathlib import Path

import pytest

from tests import shared_data
from webnn_bridge.bridge.api import ML, MLGraphBuilder
from webnn_bridge.bridge.host_ml import ml_factory
from webnn_bridge.ops import idl
from webnn_bridge.ops.core import ALL_TYPES, DATA_TYPES, WebNNError
from webnn_bridge.ops.registry import load_all

from .conftest import ROOT, start_host

# thousands of generated calls in one page: the JS rules are plain ECMAScript; Chromium only (CI time)
pytestmark = pytest.mark.webnn_engines("chromium")

DATA_DIR = shared_data.path("wpt_conformance")
# fixed for reproducible runs; WEBNN_RULES_SEED=N explores other random calls
SEED = int(os.environ.get("WEBNN_RULES_SEED", "20261123"))
RANDOM_PER_OP = 160  # random candidates generated per op (Python keeps a sample of each outcome)
KEEP_PER_OUTCOME = 12


# --------------------------------------------------------------------------- JS values <-> JSON


def to_wire(v):
    """A Python argument -> JSON the page decodes (operands by name, BigInt and non-finite tagged)."""
    if isinstance(v, Operand):
        return {"$operand": v.name}
    if isinstance(v, BigInt):
        return {"$bigint": str(int(v))}
    if isinstance(v, float) and not math.isfinite(v):
        return {"$number": repr(v)}
    if isinstance(v, list):
        return [to_wire(x) for x in v]
    if isinstance(v, dict):
        return {k: to_wire(x) for k, x in v.items()}
    return v


def to_python(v, operands: dict):
    """What the host's replay gives the Python builder for a page's value (a JS number with an
    integer value arrives as an int)."""
    if isinstance(v, Operand):
        return operands[v.name]
    if isinstance(v, BigInt):
        return int(v)
    if isinstance(v, float) and math.isfinite(v) and v.is_integer():
        return int(v)
    if isinstance(v, list):
        return [to_python(x, operands) for x in v]
    if isinstance(v, dict):
        return {k: to_python(x, operands) for k, x in v.items()}
    return v


class Operand:
    def __init__(self, name: str):
        self.name = name


class BigInt(int):
    """A JS BigInt argument (MLNumber)."""


# --------------------------------------------------------------------------- cases


def case(inputs: list, calls: list) -> dict:
    """inputs: [name, dataType, shape] (an input()), plus ["constant", byte length] (constant(descriptor,
    buffer)) or ["scalar", value] (constant(dataType, value)); calls: [op, args, output name(s)]."""
    return {"inputs": inputs, "calls": calls}


def wpt_seeds() -> list[dict]:
    seeds = []
    shared_data.require(DATA_DIR, glob="*.json")  # the seeds are the suite's anchor: no data fails
    for path in sorted(DATA_DIR.glob("*.json")):
        for test in json.loads(path.read_text())["tests"]:
            g = test["graph"]
            names = set(g["inputs"])
            inputs = [[n, s["descriptor"]["dataType"], s["descriptor"]["shape"]] for n, s in g["inputs"].items()]
            calls = []
            for op in g["operators"]:
                outs = op["outputs"]
                args = [_wpt_value(next(iter(a.values())), names) for a in op["arguments"]]
                calls.append([op["name"], args, outs])
                names.update(outs if isinstance(outs, list) else [outs])
            seeds.append(case(inputs, calls))
    return seeds


def _wpt_value(v, names: set):
    if isinstance(v, str) and v in names:
        return Operand(v)
    if isinstance(v, str) and v in ("NaN", "Infinity", "-Infinity"):
        return float(v.replace("Infinity", "inf"))
    if isinstance(v, str) and v.endswith("n") and v[:-1].lstrip("-").isdigit():
        return BigInt(int(v[:-1]))
    if isinstance(v, list):
        return [_wpt_value(x, names) for x in v]
    if isinstance(v, dict):
        return {k: _wpt_value(x, names) for k, x in v.items()}
    return v


def recurrent_seeds(rng: random.Random) -> list[dict]:
    """Valid gru/lstm (and cell) calls, which random shapes almost never hit: sizes, directions and
    the optional operands varied."""
    seeds = []
    for op, gates, cell in (("gru", 3, False), ("lstm", 4, False), ("gruCell", 3, True), ("lstmCell", 4, True)):
        for _ in range(6):
            dt = rng.choice(["float32", "float16"])
            steps, batch, size, hidden = rng.choice([1, 2]), rng.choice([1, 2]), rng.choice([2, 3]), rng.choice([2, 4])
            dirs = 2 if not cell and rng.random() < 0.5 else 1
            lead = [] if cell else [dirs]
            inputs = [["x", dt, [batch, size] if cell else [steps, batch, size]],
                      ["w", dt, lead + [gates * hidden, size]], ["r", dt, lead + [gates * hidden, hidden]]]
            args = [Operand("x"), Operand("w"), Operand("r")]
            if cell:
                inputs.append(["h", dt, [batch, hidden]])
                args.append(Operand("h"))
                if gates == 4:
                    inputs.append(["c", dt, [batch, hidden]])
                    args.append(Operand("c"))
            else:
                args.append(steps)
            args.append(hidden)
            opts = {}
            optional = [("bias", [gates * hidden]), ("recurrentBias", [gates * hidden])]
            if gates == 4:
                optional.append(("peepholeWeight", [3 * hidden]))
            if not cell:
                optional += [("initialHiddenState", [batch, hidden])] + ([("initialCellState", [batch, hidden])]
                                                                            if gates == 4 else [])
            for name, shape in optional:
                if rng.random() < 0.5:
                    inputs.append([name, dt, (lead + shape) if len(shape) == 1 else (lead + shape)])
                    opts[name] = Operand(name)
            if not cell:
                opts["direction"] = "both" if dirs == 2 else rng.choice(["forward", "backward"])
                opts["returnSequence"] = rng.random() < 0.5
            if rng.random() < 0.5:
                opts["activations"] = ["sigmoid", "tanh", "relu"][: 2 if gates == 3 else 3]
            seeds.append(case(inputs, [[op, args + [opts], "out"]]))
    return seeds


class Gen:
    """Random builder calls from the IDL signatures."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def shape(self, base: list[int]) -> list[int]:
        r = self.rng.random()
        if r < 0.45:
            return list(base)
        if r < 0.6 and base:
            return base[self.rng.randint(0, len(base)):]  # a broadcastable suffix
        if r < 0.65 and len(base) == 2:
            return [base[1], self.rng.choice([base[0], 2])]  # matrix products
        if r < 0.7 and base:
            s = list(base)
            s[self.rng.randrange(len(s))] = self.rng.choice([1, 2, 3, 5])
            return s
        return [self.rng.choice([1, 2, 3, 4]) for _ in range(self.rng.choice([0, 1, 2, 3, 4, 4, 5]))]

    def call(self, op: str) -> dict:
        overloads = idl.operations("MLGraphBuilder")[op]
        ov = self.rng.choice(overloads)
        rng = self.rng
        # mostly what the op's first operand allows (its limits), else anything
        lim = next(iter(load_all()[op].limits.values()), None)
        dtype = rng.choice(lim.types if lim and lim.same is None and rng.random() < 0.85 else ALL_TYPES)
        lo, hi = lim.ranks if lim and rng.random() < 0.85 else (0, 5)
        base = [rng.choice([1, 2, 3, 4]) for _ in range(rng.randint(lo, min(hi if hi is not None else 5, 5)))]
        st = {"inputs": [], "dtype": dtype, "base": base}
        args = []
        for a in ov["args"]:
            if a["optional"] and rng.random() < 0.15:
                break
            args.append(self.value(a["type"], st, a["name"]))
        return case(st["inputs"], [[op, args, "out"]])

    def operand(self, st) -> Operand:
        rng = self.rng
        name = f"in{len(st['inputs'])}"
        dt = st["dtype"] if rng.random() < 0.8 else rng.choice(ALL_TYPES)
        shape = st["base"] if not st["inputs"] else self.shape(st["base"])
        if rng.random() < 0.03:
            shape = shape + [0]  # an invalid dimension
        entry = [name, dt, shape]
        r = rng.random()
        if r < 0.05 and not shape:
            entry += ["scalar", rng.choice([3, 1.5, -2])]  # constant(dataType, value)
        elif r < 0.15 and math.prod(shape) <= 4096:
            entry += ["constant", math.prod(shape) * DATA_TYPES[dt].itemsize]  # constant(descriptor, buffer)
        st["inputs"].append(entry)
        return Operand(name)

    def small_int(self, st, signed: bool) -> int:
        rng = self.rng
        rank = len(st["base"])
        r = rng.random()
        if r < 0.5:
            v = rng.randint(0, max(rank - 1, 0))
        elif r < 0.8:
            v = rng.choice([1, 2, 3, 4, 8])
        else:
            v = rng.choice([0, 5, 7, 2**31 - 1, 2**32 - 1])
        return -v if signed and rng.random() < 0.2 else v

    def sequence(self, of: dict, st, name: str) -> list:
        rng = self.rng
        rank = len(st["base"])
        n = rank if rng.random() < 0.5 else rng.choice([0, 1, 2, 3, 4, 5])
        if name in ("newShape", "sizes", "outputSizes", "repetitions") and rng.random() < 0.5:
            return [rng.choice([1, 2, 3, 4, 6]) for _ in range(n)]
        if name in ("permutation", "axes") and rng.random() < 0.5:
            perm = list(range(rank))
            rng.shuffle(perm)
            return perm[: n if name == "axes" else rank]
        return [self.value(of, st, name) for _ in range(n)]

    def value(self, t: dict, st, name: str):
        rng = self.rng
        k = t["t"]
        if k == "iface" and t["name"] == "MLOperand":
            return self.operand(st)
        if k in ("sequence", "frozen"):
            if t["of"] == {"t": "iface", "name": "MLOperand"}:
                return [self.operand(st) for _ in range(rng.choice([1, 2, 2, 3]))]
            return self.sequence(t["of"], st, name)
        if k in ("unsigned long", "long", "unsigned long long", "long long", "short", "unsigned short", "byte",
                 "octet"):
            return self.small_int(st, signed=not k.startswith("unsigned") and k != "octet")
        if k in ("float", "double", "unrestricted double", "unrestricted float"):
            return rng.choice([0.0, 1.0, -1.0, 0.5, 2.0, 1e-5, 3.5, 6.0])
        if k == "union":
            kinds = [m["t"] for m in t["of"]]
            if "bigint" in kinds:  # MLNumber
                if rng.random() < 0.25:
                    return BigInt(rng.choice([-3, 0, 2, 6, 2**40]))
                return rng.choice([0, 1, 2.5, -1, 6, 3, -0.5, math.nan, math.inf, -math.inf])
            return self.value(rng.choice(t["of"]), st, name)
        if k == "enum":
            return rng.choice(idl.IDL["enums"][t["name"]])
        if k == "boolean":
            return rng.random() < 0.5
        if k == "dict":
            return self.dictionary(t["name"], st)
        if k in ("DOMString", "USVString"):
            return rng.choice(["", "lbl"])
        raise AssertionError(f"no generator for {t}")

    def dictionary(self, name: str, st) -> dict:
        out = {}
        for m in _members(name):
            if m["name"] == "label" and self.rng.random() < 0.7:
                continue
            if self.rng.random() < 0.45:
                out[m["name"]] = self.value(m["type"], st, m["name"])
        return out


def _members(name: str) -> list[dict]:
    d = idl.IDL["dictionaries"][name]
    return (_members(d["inherits"]) if d.get("inherits") else []) + d["members"]


def mutations(seed: dict, rng: random.Random, gen: Gen) -> list[dict]:
    """Variants of a (valid) seed: one input's shape or type, one option, or the options dropped."""
    out = []
    inputs, calls = seed["inputs"], seed["calls"]
    if inputs:
        i = rng.randrange(len(inputs))
        name, dt, shape = inputs[i][:3]  # a mutated constant becomes an input (no buffer to resize)
        changed = list(shape)
        if changed and rng.random() < 0.5:
            changed[rng.randrange(len(changed))] += rng.choice([1, 2])
        elif changed and rng.random() < 0.5:
            changed.pop(rng.randrange(len(changed)))
        else:
            changed.append(rng.choice([1, 2]))
        out.append(case([*inputs[:i], [name, dt, changed], *inputs[i + 1:]], calls))
        out.append(case([*inputs[:i], [name, rng.choice(ALL_TYPES), shape], *inputs[i + 1:]], calls))
    op, args, outs = calls[0]
    first = next((i for i, a in enumerate(args) if isinstance(a, Operand)), None)
    if first is not None:  # not an operand where one is expected
        out.append(case(inputs, [[op, [*args[:first], rng.choice([1, "x", None]), *args[first + 1:]], outs]]))
    # a missing trailing argument, an extra one
    out.append(case(inputs, [[op, args[:-1], outs]]))
    out.append(case(inputs, [[op, [*args, {}, 3], outs]]))
    if args and isinstance(args[-1], dict):
        ov = idl.resolve_overload("MLGraphBuilder", op, args)
        spec = ov["args"][len(args) - 1]
        if spec["type"]["t"] == "dict":
            members = _members(spec["type"]["name"])
            m = rng.choice(members)
            st = {"inputs": list(inputs), "dtype": inputs[0][1] if inputs else "float32",
                  "base": inputs[0][2] if inputs else []}
            opts = dict(args[-1])
            opts[m["name"]] = gen.value(m["type"], st, m["name"])
            out.append(case(st["inputs"], [[op, [*args[:-1], opts], outs], *calls[1:]]))
            out.append(case(inputs, [[op, args[:-1], outs], *calls[1:]]))
    return out


# --------------------------------------------------------------------------- running


def python_outcomes(ctx, c: dict) -> list:
    """Each call's outcome: [dataType, shape] per output, or {"error", "message"}; stops at the first error."""
    b = MLGraphBuilder(ctx)
    operands = {}
    out = []
    try:
        for name, dt, shape, *kind in c["inputs"]:
            desc = {"dataType": dt, "shape": shape}
            if not kind:
                operands[name] = b.input(name, desc)
            elif kind[0] == "constant":
                operands[name] = b.constant(desc, bytes(kind[1]))
            else:
                operands[name] = b.constant(dt, to_python(kind[1], {}))
    except WebNNError as e:
        return [{"error": e.name, "message": str(e), "stage": "input"}]
    for op, args, outs in c["calls"]:
        try:
            r = getattr(b, op)(*to_python(args, operands))
        except WebNNError as e:
            out.append({"error": e.name, "message": str(e)})
            return out
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
            # not a rule's error: the page reports an invalid call (a TypeError)
            out.append({"error": "TypeError", "message": f"python {type(e).__name__}"})
            return out
        results = r if isinstance(r, list) else [r]
        out.append([[o.dataType, o.shape] for o in results])
        names = outs if isinstance(outs, list) else [outs]
        for n, o in zip(names, results):
            operands[n] = o
    return out


PAGE_RUN = """async (text) => {
  const cases = JSON.parse(text);
  const ctx = await navigator.ml.createContext();
  const all = [];
  for (const c of cases) {
    const out = [];
    const b = new MLGraphBuilder(ctx);
    const operands = {};
    const dec = (v) => {
      if (Array.isArray(v)) return v.map(dec);
      if (v === null || typeof v !== 'object') return v;
      if ('$operand' in v) return operands[v.$operand];
      if ('$bigint' in v) return BigInt(v.$bigint);
      if ('$number' in v) return Number(v.$number.replace('inf', 'Infinity'));
      const o = {};
      for (const k of Object.keys(v)) o[k] = dec(v[k]);
      return o;
    };
    try {
      for (const [name, dataType, shape, kind, arg] of c.inputs) {
        if (kind === 'constant') operands[name] = b.constant({dataType, shape}, new ArrayBuffer(arg));
        else if (kind === 'scalar') operands[name] = b.constant(dataType, dataType.endsWith('64') ? BigInt(Math.trunc(arg)) : arg);
        else operands[name] = b.input(name, {dataType, shape});
      }
    } catch (e) { all.push([{error: e.name, message: e.message, stage: 'input'}]); continue; }
    for (const [op, args, outs] of c.calls) {
      let r;
      try { r = b[op](...dec(args)); } catch (e) { out.push({error: e.name, message: e.message}); break; }
      const list = Array.isArray(r) ? r : [r];
      out.push(list.map((o) => [o.dataType, Array.from(o.shape)]));
      const names = Array.isArray(outs) ? outs : [outs];
      names.forEach((n, i) => { operands[n] = list[i]; });
    }
    all.push(out);
  }
  return JSON.stringify(all);
}"""


def comparable(outcome: list) -> list:
    # a Python error that is not a rule's error only has to be a TypeError in the page too
    return [
        {"error": "TypeError", "message": "invalid call"}
        if isinstance(o, dict) and o["error"] == "TypeError" and o["message"].startswith(("python ", "webnn-bridge: invalid call"))
        else o
        for o in outcome
    ]


def build_cases(ctx) -> tuple[list[dict], list[list]]:
    rng = random.Random(SEED)
    gen = Gen(rng)
    seeds = wpt_seeds() + recurrent_seeds(rng)
    # input() names: empty, taken
    cases = [case([["", "float32", [2]]], []), case([["a", "float32", [2]], ["a", "int32", [1]]], [])]
    # the context's limits on created operands: rank, byte length, element count
    x, y = Operand("x"), ["x", "float32", [2]]
    for op, args in (("reshape", [x, [1] * 7 + [2]]), ("reshape", [x, [1] * 8 + [2]]), ("expand", [x, [2**28, 2]]),
                     ("expand", [x, [2**29, 2]]), ("tile", [x, [2**30]]), ("tile", [x, [2**31 - 1]]),
                     ("concat", [[x] * 5, 0]), ("pad", [x, [2**31 - 3], [0]]), ("pad", [x, [2**31 - 2], [0]])):
        cases.append(case([y], [[op, args, "out"]]))
    cases += seeds
    for s in seeds:
        cases += mutations(s, rng, gen)
    known: dict[int, list] = {}  # the outcomes of the random calls kept (computed while choosing them)
    for op in sorted(load_all()):
        kept: dict[str, list] = {"valid": [], "invalid": []}
        for attempt in range(20 * RANDOM_PER_OP):
            if attempt >= RANDOM_PER_OP and kept["invalid"] and (kept["valid"] or op not in ctx.capabilities.ops):
                break
            c = gen.call(op)
            r = python_outcomes(ctx, c)
            kind = "valid" if r and not isinstance(r[-1], dict) else "invalid"
            if len(kept[kind]) < KEEP_PER_OUTCOME:
                kept[kind].append((c, r))
        for c, r in kept["valid"] + kept["invalid"]:
            known[id(c)] = r
            cases.append(c)
        for c, _ in kept["valid"][:4]:
            cases += mutations(c, rng, gen)
    return cases, [known[id(c)] if id(c) in known else python_outcomes(ctx, c) for c in cases]


@pytest.fixture(scope="module")
def narrow_rules(tmp_path_factory) -> Path:
    """Device-selection rules whose largest canonical profile is "gpu-common" (no 64-bit types,
    ranks up to 5, some ops excluded): contexts whose capabilities narrow the spec's limits."""
    d = tmp_path_factory.mktemp("narrow")
    text = (ROOT / "src" / "webnn_bridge" / "policy" / "profiles.toml").read_text()
    blocks = text.split("[[profile]]")
    assert 'name = "cpu-full"' in blocks[1]
    (d / "profiles.toml").write_text("[[profile]]".join([blocks[0], *blocks[2:]]))
    (d / "rules.toml").write_text('[privacy]\nprofiles = "profiles.toml"\n')
    return d / "rules.toml"


@pytest.fixture(scope="module", params=["cpu-full", "gpu-common"])
def equivalence(request, browser, host, app_dir, narrow_rules):
    """(profile, ops it supports, cases, Python outcomes, page outcomes) on a host whose contexts
    get ``profile``."""
    profile = request.param
    started = None
    if profile == "cpu-full":
        ml = ML()
    else:
        ml = ml_factory(None, str(narrow_rules))()
        host = started = start_host(app_dir=app_dir, ml_factory=ml_factory(None, str(narrow_rules)))
    ctx = ml.createContext({})
    assert ctx.limits_profile == profile
    cases, expected = build_cases(ctx)
    page = browser.new_page()
    try:
        page.goto(f"{host.url}/basic.html")
        # as one JSON string each way: Playwright's own encoding of a value this size (2 MB of JSON
        # in thousands of small objects) took 11 s of the 13 s here
        got = json.loads(page.evaluate(PAGE_RUN, json.dumps([{**c, "calls": to_wire(c["calls"])} for c in cases], allow_nan=False)))
    finally:
        page.close()
        if started is not None:
            started.stop()
    return profile, set(ctx.capabilities.ops), cases, expected, got


def test_js_rules_match_python_for_every_op(equivalence):
    _, _, cases, expected, got = equivalence
    assert len(got) == len(cases)
    mismatches = [
        (c, e, g) for c, e, g in zip(cases, expected, got) if comparable(e) != comparable(g)
    ]
    report = "\n".join(f"{json.dumps(to_wire(c))}\n  python: {e}\n  page:   {g}" for c, e, g in mismatches[:8])
    assert not mismatches, f"{len(mismatches)} of {len(cases)} cases differ:\n{report}"


def test_every_op_is_covered_with_valid_and_invalid_calls(equivalence):
    profile, supported, cases, expected, _ = equivalence
    seen: dict[str, set] = {}
    for c, e in zip(cases, expected):
        if e and isinstance(e[0], dict) and e[0].get("stage") == "input":
            continue
        for (op, _, _), outcome in zip(c["calls"], e):
            seen.setdefault(op, set()).add("invalid" if isinstance(outcome, dict) else "valid")
    missing = {op: {"valid", "invalid"} - seen.get(op, set()) for op in load_all()}
    missing = {op: kinds for op, kinds in missing.items() if kinds}
    # an op the context does not support has no valid call
    missing = {op: kinds for op, kinds in missing.items() if kinds != {"valid"} or op in supported}
    assert not missing, f"ops without valid/invalid cases: {missing}"
    assert len(cases) > 2000
    # the context's own limits were hit too (rank, byte length; narrower types and ops)
    messages = [e[-1]["message"] for e in expected if e and isinstance(e[-1], dict)]
    assert any("maxTensorByteLength" in m for m in messages)
    assert any("exceeds the maximum" in m for m in messages)
    if profile == "gpu-common":
        assert any("is not supported by this context" in m for m in messages)
