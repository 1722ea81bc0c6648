"""WPT WebNN conformance cases (converted to JSON) on every backend.

Each case of ``<repo>/../shared/data/wpt_conformance/*.json`` is built with the Python object
model (bridge.api) exactly as the WPT harness builds it in JavaScript: graph inputs become
``input()`` operands (``constant()`` when flagged ``constant``), operators are called with their
arguments in JS call order (a string argument naming a graph input or an earlier operator's
output is that operand; so are such strings inside an options dictionary), and the expected
outputs are compared with the WPT tolerance rules:

- the tolerance of a graph is the sum of its operators' tolerances, and each operator's tolerance
  comes from its OpDef in the registry (``tolerance``: ``("ulp", n)``/``("atol", x)`` or a function
  of the validated call and the expected output data type);
- ULP distance, float32: both values as float32, distance between their sign-magnitude bit
  patterns; float16: distance between the raw 16-bit patterns, where +0 and -0 match; integer
  types: the absolute difference; ATOL: absolute difference. Equal values (infinities included)
  and NaN against NaN always match.

JSON encodings: "NaN", "Infinity" and "-Infinity" are strings; BigInt values are strings like
"123n" (int64/uint64 data may also be plain decimal strings); a scalar ``data`` with a non-scalar
shape fills the whole tensor.

Cases that cannot pass yet are listed in tests/conformance_exceptions.py and run as strict xfails:
one that starts passing fails the run until its entry is removed.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

from webnn_bridge.bridge.api import ML, MLGraphBuilder, MLOperand
from webnn_bridge.devtools.oracle import wpt_call_args
from webnn_bridge.ops.core import DATA_TYPES, WebNNTypeError
from webnn_bridge.ops.graph import is_ref
from webnn_bridge.ops.registry import load_all

try:
    from . import shared_data
    from .conformance_exceptions import EXCEPTIONS
except ImportError:  # tests/ is not a package: pytest puts this directory on sys.path
    import shared_data
    from conformance_exceptions import EXCEPTIONS

DATA_DIR = shared_data.path("wpt_conformance")
BACKENDS = ("reference", "onnxruntime", "torch", "openvino")
# backends whose contexts claim less than the spec allows (openvino_caps.json, measured): a case
# outside those claims is skipped, as the WPT suite skips what opSupportLimits() does not list;
# the others must build every case
NARROWED = {"openvino"}
# what a builder call says when it meets the context's claims or limits, not a rule of the spec
_OUTSIDE_CLAIMS = ("is not supported by this context", "for this context", "exceeds the maximum")

# --------------------------------------------------------------------------- loading


_SPECIAL = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def js_number(v: Any) -> Any:
    """A JSON-encoded JS number/BigInt -> int or float (leaves other values alone)."""
    if isinstance(v, str):
        if v in _SPECIAL:
            return _SPECIAL[v]
        text = v[:-1] if v.endswith("n") else v
        try:
            return int(text)
        except ValueError:
            return float(text)
    return v


def _is_number_string(v: Any) -> bool:
    if not isinstance(v, str):
        return False
    if v in _SPECIAL:
        return True
    text = v[:-1] if v.endswith("n") else v
    return text.lstrip("-").isdigit()


def decode(data: Any, descriptor: dict) -> np.ndarray:
    """JSON ``data`` + descriptor -> numpy array of the WebNN data type."""
    dtype = DATA_TYPES[descriptor["dataType"]].numpy
    shape = tuple(descriptor["shape"])
    if not isinstance(data, list):  # one value fills the tensor
        return np.full(shape, decode([data], {"dataType": descriptor["dataType"], "shape": [1]})[0], dtype)
    values = [js_number(v) for v in data]
    if dtype.kind in "iu":
        arr = np.array([int(v) for v in values], dtype=dtype)
    else:
        arr = np.array(values, dtype=np.float64).astype(np.float32).astype(dtype)
    return arr.reshape(shape)


# WPT validates at most this many leading elements of an output whose expected data is one value
MAX_FILLED_CHECK = 1000


def expected_values(data: Any, descriptor: dict) -> np.ndarray:
    """Expected data kept exact: float64 for float types, Python ints for integer types. A single
    value for a larger shape expects that value in (the first MAX_FILLED_CHECK) elements."""
    if isinstance(data, list):
        values = [js_number(v) for v in data]
    else:
        values = [js_number(data)] * min(MAX_FILLED_CHECK, math.prod(descriptor["shape"]))
    if DATA_TYPES[descriptor["dataType"]].is_float:
        return np.array(values, dtype=np.float64)
    return np.array([int(v) for v in values], dtype=object)


@dataclass
class Case:
    name: str
    file: str
    graph: dict
    ops: list[str] = field(default_factory=list)

    def __repr__(self) -> str:  # keep failure reports short
        return f"Case({self.name!r})"

    @functools.cached_property
    def arrays(self) -> dict[str, np.ndarray]:
        return {n: decode(s["data"], s["descriptor"]) for n, s in self.graph["inputs"].items()}

    @functools.cached_property
    def expected(self) -> dict[str, np.ndarray]:
        return {n: expected_values(s["data"], s["descriptor"]) for n, s in self.graph["expectedOutputs"].items()}


def load_cases() -> list[Case]:
    """Every case of the data folder; none when it is missing (the tests below then fail, naming it)."""
    cases = []
    for path in sorted(DATA_DIR.glob("*.json")):
        for test in json.loads(path.read_text())["tests"]:
            graph = test["graph"]
            cases.append(Case(test["name"], path.name, graph, [op["name"] for op in graph["operators"]]))
    return cases


CASES = load_cases()

# --------------------------------------------------------------------------- building


@functools.cache
def context(backend: str):
    ml = ML()
    devices = [d for d in ml.inventory if d.backend == backend and d.kind == "cpu"]
    if not devices:
        pytest.skip(f"backend {backend} is not available")
    return ML(devices[:1]).createContext()


def build_case(ctx, case: Case):
    """Build the case's graph on ``ctx``; returns (graph, feeds, output operands, nodes)."""
    b = MLGraphBuilder(ctx)
    inputs = case.graph["inputs"]
    operands: dict[str, MLOperand] = {}
    feeds: dict[str, np.ndarray] = {}

    def graph_input(name: str) -> MLOperand:
        if name not in operands:
            spec = inputs[name]
            desc = {"dataType": spec["descriptor"]["dataType"], "shape": list(spec["descriptor"]["shape"])}
            if spec.get("constant"):
                operands[name] = b.constant(desc, case.arrays[name])
            else:
                operands[name] = b.input(name, desc)
                feeds[name] = case.arrays[name]
        return operands[name]

    intermediates: dict[str, Any] = {}

    def resolve(v: Any, in_options: bool) -> Any:
        if isinstance(v, str):
            if v in intermediates:
                return intermediates[v]
            if v in inputs:
                return graph_input(v)
            if in_options and _is_number_string(v):
                return js_number(v)
        return v

    nodes = []
    for op in case.graph["operators"]:
        result = getattr(b, op["name"])(*wpt_call_args(op, resolve))
        outs = op["outputs"]
        if isinstance(outs, list):
            intermediates.update(zip(outs, result))
            nodes.append(result[0].node)
        else:
            intermediates[outs] = result
            nodes.append(result.node)
    outputs = {name: intermediates[name] for name in case.graph["expectedOutputs"]}
    for name, operand in outputs.items():
        desc = case.graph["expectedOutputs"][name]["descriptor"]
        assert operand.dataType == desc["dataType"], f"output {name} data type"
        assert operand.shape == list(desc["shape"]), f"output {name} shape"
    return b.build(outputs), feeds, nodes


# --------------------------------------------------------------------------- tolerances


def graph_tolerance(nodes, data_type: str) -> tuple[str, float]:
    """Sum of the registry tolerances of the graph's operators (WPT getPrecisionTolerance)."""
    registry = load_all()
    metric, total = None, 0
    for node in nodes:
        tol = registry[node.op].tolerance
        if callable(tol):
            call = node.call.map_operands(lambda r, n=node: n.operands[r.id].desc, is_ref)
            tol = tol(call, data_type)
        kind, value = tol
        if metric not in (None, kind):
            raise AssertionError(f"mixed tolerance metrics {metric} and {kind}")
        metric, total = kind, total + value
    return metric or "ulp", total


def _sign_magnitude32(x: np.ndarray) -> np.ndarray:
    bits = np.abs(x.astype(np.float32)).view(np.int32).astype(np.int64)
    return np.where(np.signbit(x), -bits, bits)


def mismatches(actual: np.ndarray, expected: np.ndarray, data_type: str, metric: str, tol) -> list[str]:
    """Indices (with values) where ``actual`` is not within ``tol`` of ``expected``."""
    actual = actual.reshape(-1)[: expected.size]
    if DATA_TYPES[data_type].is_float:
        a64 = actual.astype(np.float64)
        with np.errstate(invalid="ignore"):
            same = (a64 == expected) | (np.isnan(a64) & np.isnan(expected))
        if metric == "atol":
            with np.errstate(invalid="ignore"):
                ok = same | (np.abs(a64 - expected) <= tol)
            dist = np.abs(a64 - expected)
        elif data_type == "float32":
            dist = np.abs(_sign_magnitude32(actual) - _sign_magnitude32(expected.astype(np.float32)))
            ok = same | (dist <= tol)
        else:  # float16: raw bit patterns, +0 == -0
            ab = actual.astype(np.float16).view(np.uint16).astype(np.int64)
            eb = expected.astype(np.float32).astype(np.float16).view(np.uint16).astype(np.int64)
            dist = np.where(((ab & 0x7FFF) == 0) & ((eb & 0x7FFF) == 0), 0, np.abs(ab - eb))
            ok = same | (dist <= tol)
    else:
        dist = np.abs(actual.astype(object) - expected)
        ok = np.array([d <= tol for d in dist], dtype=bool)
    bad = np.flatnonzero(~ok)
    return [f"[{i}] actual {actual[i]!r} expected {expected[i]!r} distance {dist[i]}" for i in bad[:10]]


# --------------------------------------------------------------------------- the test


def _exception(case: Case, backend: str) -> str | None:
    for key in [case.name, *case.ops]:
        entry = EXCEPTIONS.get(key)
        if entry is None:
            continue
        reason, backends = (entry, BACKENDS) if isinstance(entry, str) else entry
        if backend in backends:
            return f"{key}: {reason}"
    return None


def _params():
    for case in CASES:
        for backend in BACKENDS:
            reason = _exception(case, backend)
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            yield pytest.param(case, backend, id=f"{backend}:{case.name}", marks=marks)
    if not CASES:  # no data: one item that fails naming what to fetch, not an empty (skipped) set
        yield pytest.param(None, None, id="missing-data")


@pytest.mark.parametrize(("case", "backend"), list(_params()))
def test_conformance(case: Case | None, backend: str | None):
    if case is None:
        shared_data.require("wpt_conformance", glob="*.json")
        pytest.fail(f"{DATA_DIR} holds JSON files but no cases")
    registry = load_all()
    missing = [op for op in case.ops if op not in registry]
    if missing and not _exception(case, backend):
        pytest.fail(f"operator(s) {missing} not registered; list them in tests/conformance_exceptions.py")
    ctx = context(backend)
    try:
        graph, feeds, nodes = build_case(ctx, case)
    except WebNNTypeError as e:
        if backend in NARROWED and any(m in str(e) for m in _OUTSIDE_CLAIMS):
            pytest.skip(f"outside what the {backend} context claims: {e}")
        raise
    try:
        results = ctx.compute(graph, feeds)
    finally:
        graph.destroy()
    out_type = next(iter(case.graph["expectedOutputs"].values()))["descriptor"]["dataType"]
    metric, tol = graph_tolerance(nodes, out_type)
    problems = []
    for name, spec in case.graph["expectedOutputs"].items():
        desc = spec["descriptor"]
        actual = results[name]
        assert actual.dtype == DATA_TYPES[desc["dataType"]].numpy
        assert list(actual.shape) == list(desc["shape"])
        bad = mismatches(actual, case.expected[name], desc["dataType"], metric, tol)
        if bad:
            problems.append(f"{name} ({desc['dataType']}, {metric} {tol}): " + "; ".join(bad))
    assert not problems, "\n".join(problems)


def test_exceptions_are_known():
    """Every exceptions entry names a conformance case or an operator used by one, and only
    known backends; so a renamed case cannot leave a dead entry behind."""
    shared_data.require("wpt_conformance", glob="*.json")
    names = {c.name for c in CASES} | {op for c in CASES for op in c.ops}
    for key, entry in EXCEPTIONS.items():
        assert key in names, f"conformance_exceptions: unknown case or operator {key!r}"
        if not isinstance(entry, str):
            reason, backends = entry
            assert isinstance(reason, str) and set(backends) <= set(BACKENDS), key


def test_all_cases_loaded():
    shared_data.require("wpt_conformance", glob="*.json")
    assert CASES, f"no conformance cases in {DATA_DIR}"
    assert len(CASES) == sum(len(json.loads(p.read_text())["tests"]) for p in DATA_DIR.glob("*.json"))
    assert len({c.name for c in CASES}) == len(CASES), "case names must be unique (they are test ids)"
