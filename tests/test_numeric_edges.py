"""Numbers at the edge (issue 19): out-of-range, non-finite and over-long numbers anywhere in a
message (scalars, $bigint, shapes, options, ids) get an ok or the spec's named error, never a
traceback. A property test over the build and tensor message schemas, bounded for CI."""

from __future__ import annotations

import json
import logging
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from webnn_bridge.bridge import protocol
from webnn_bridge.bridge.api import ML, MLGraphBuilder
from webnn_bridge.bridge.session import Session, SessionLimits
from webnn_bridge.ops.core import ERRORS_BY_NAME, cast_number, to_double

EDGE_INTS = [0, 1, -1, 255, 256, 2**31 - 1, 2**31, -(2**31) - 1, 2**32, 2**53 + 1, 2**63, -(2**63) - 1, 2**64,
             10**400, -(10**400), 10**4000]
DATA_TYPES = ["float32", "float16", "int32", "uint32", "int64", "uint64", "int8", "uint8", "int4", "uint4"]

plain_numbers = st.one_of(
    st.sampled_from(EDGE_INTS),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),  # JSON numbers: 1e308, 5e-324, -0.0, ...
)
numbers = st.one_of(
    plain_numbers,
    st.sampled_from([{"$number": "NaN"}, {"$number": "Infinity"}, {"$number": "-Infinity"}]),
    st.builds(lambda i: {"$bigint": str(i)}, st.one_of(st.sampled_from(EDGE_INTS), st.integers())),
    st.sampled_from([{"$bigint": "9" * 4000}, {"$bigint": "1e5"}, {"$bigint": ""}, {"$bigint": 5},
                     {"$bigint": "-0"}, {"$number": "nan"}, True, None, "7", [], {}]),
)
dims = st.lists(st.one_of(st.integers(1, 4), numbers), min_size=0, max_size=3)


def X(n: int = 1) -> dict:
    return {"$operand": n}


def _node(op: str, args: list) -> dict:
    return {"op": op, "args": args, "outputs": [9]}


# builder calls of a float32 [2, 2] input x (operand 1) and a constant (operand 2), with numbers
# where the page's numbers go: MLNumber values, doubles, [EnforceRange] integers, sequences of them
NODES = {
    "clamp": lambda n, m: _node("clamp", [X(), {"minValue": n, "maxValue": m}]),
    "pad": lambda n, m: _node("pad", [X(), [n, 0], [0, m], {"mode": "constant", "value": n}]),
    "expand": lambda n, m: _node("expand", [X(), [2, n]]),
    "reshape": lambda n, m: _node("reshape", [X(), [n, m]]),
    "transpose": lambda n, m: _node("transpose", [X(), {"permutation": [n, m]}]),
    "softmax": lambda n, m: _node("softmax", [X(), n, {}]),
    "linear": lambda n, m: _node("linear", [X(), {"alpha": n, "beta": m}]),
    "leakyRelu": lambda n, m: _node("leakyRelu", [X(), {"alpha": n}]),
    "elu": lambda n, m: _node("elu", [X(), {"alpha": n}]),
    "gemm": lambda n, m: _node("gemm", [X(), X(), {"alpha": n, "beta": m}]),
    "slice": lambda n, m: _node("slice", [X(), [0, n], [1, m], {"strides": [1, n]}]),
    "split": lambda n, m: _node("split", [X(), n, {"axis": m}]),
    "cumulativeSum": lambda n, m: _node("cumulativeSum", [X(), n, {}]),
    "reduceSum": lambda n, m: _node("reduceSum", [X(), {"axes": [n], "keepDimensions": True}]),
    "triangular": lambda n, m: _node("triangular", [X(), {"diagonal": n}]),
    "gather": lambda n, m: _node("gather", [X(), X(2), {"axis": n}]),
    "instanceNormalization": lambda n, m: _node("instanceNormalization", [X(), {"epsilon": n}]),
    "resample2d": lambda n, m: _node("resample2d", [X(), {"scales": [n, m], "axes": [0, 1]}]),
    "conv2d": lambda n, m: _node("conv2d", [X(), X(), {"padding": [n, 0, 0, m], "strides": [n, 1],
                                                      "dilations": [1, m], "groups": n}]),
    "averagePool2d": lambda n, m: _node("averagePool2d", [X(), {"windowDimensions": [n, m]}]),
    "quantizeLinear": lambda n, m: _node("quantizeLinear", [X(), X(2), X(2)]),
}


@pytest.fixture(scope="module")
def ml():
    return ML()


class Tracebacks(logging.Handler):
    """Records of the host's log that carry a traceback or an error."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.bad: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info or record.levelno >= logging.ERROR:
            self.bad.append(self.format(record))


@pytest.fixture
def tracebacks():
    handler = Tracebacks()
    logger = logging.getLogger("webnn_bridge")
    logger.addHandler(handler)
    level = logger.level
    logger.setLevel(logging.DEBUG)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


class Page:
    """A session under a small budget (a valid huge shape is refused by the budget, never run)."""

    def __init__(self, ml):
        ml.session_limits = SessionLimits(64 << 20, 64)
        try:
            self.s = Session(ml)
        finally:
            ml.session_limits = None
        self.n = 0
        self.send({"t": "createContext", "ctx": 1, "id": 1}, replied=True)

    def send(self, msg: dict, replied: bool = False, payload: bytes | None = None) -> list[dict]:
        """The message as JSON text (over-long integers and all), every reply checked."""
        self.n += 1
        msg = {**msg, "id": self.n}
        text = json.dumps(msg)
        frame = text if payload is None else protocol.encode(json.loads(text), payload)
        headers = [protocol.decode(f)[0] for f in self.s.receive(frame)]
        for h in headers:
            assert h["t"] in ("reply", "warning", "error"), h
            if "error" in h:
                assert h["error"]["name"] in ERRORS_BY_NAME, h
            elif h["t"] == "reply":
                assert "ok" in h, h
        if replied:
            assert len(headers) == 1 and headers[0].get("re") == self.n, headers
        return headers


def _check(page: Page, tracebacks: Tracebacks) -> None:
    assert not tracebacks.bad, tracebacks.bad[0][-2000:]
    (h,) = page.send({"t": "hello"}, replied=True)  # the session goes on
    assert "ok" in h


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(op=st.sampled_from(sorted(NODES)), n=numbers, m=numbers, scalar=numbers,
       scalar_type=st.sampled_from(DATA_TYPES), shape=dims)
def test_build_messages_with_edge_numbers_get_ok_or_a_named_error(ml, tracebacks, op, n, m, scalar, scalar_type, shape):
    page = Page(ml)
    gid = 100 + page.n
    msg = {"t": "build", "ctx": 1, "graph": gid,
           "inputs": [{"operand": 1, "name": "x", "desc": {"dataType": "float32", "shape": [2, 2]}},
                      {"operand": 3, "name": "z", "desc": {"dataType": "float32", "shape": shape}}],
           "constants": [{"operand": 2, "scalar": {"dataType": scalar_type, "value": scalar}}],
           "nodes": [NODES[op](n, m)], "outputs": {"y": 9}}
    (h,) = page.send(msg, replied=True)
    if "ok" in h:
        page.send({"t": "destroyGraph", "graph": gid})
    _check(page, tracebacks)


@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=dims, data_type=st.sampled_from(DATA_TYPES), tid=numbers, other=numbers,
       kind=st.sampled_from(["createTensor", "writeTensor", "readTensor", "dispatch", "destroyTensor",
                             "createConstantTensor", "graphLatency", "destroyGraph", "createContext"]))
def test_tensor_messages_with_edge_numbers_get_ok_or_a_named_error(ml, tracebacks, shape, data_type, tid, other, kind):
    page = Page(ml)
    page.send({"t": "createTensor", "ctx": 1, "tensor": 7,
               "desc": {"dataType": "float32", "shape": [2, 2], "readable": True, "writable": True}}, replied=True)
    desc = {"dataType": data_type, "shape": shape, "readable": True, "writable": True}
    msg, payload = {
        "createTensor": ({"t": "createTensor", "ctx": other, "tensor": tid, "desc": desc}, None),
        "createConstantTensor": ({"t": "createConstantTensor", "ctx": 1, "tensor": tid, "desc": desc}, bytes(16)),
        "writeTensor": ({"t": "writeTensor", "tensor": tid}, bytes(16)),
        "readTensor": ({"t": "readTensor", "tensor": tid, "rawReply": other}, None),
        "dispatch": ({"t": "dispatch", "ctx": other, "graph": tid, "inputs": {"x": tid}, "outputs": {"y": other}}, None),
        "destroyTensor": ({"t": "destroyTensor", "tensor": tid}, None),
        "graphLatency": ({"t": "graphLatency", "graph": tid}, None),
        "destroyGraph": ({"t": "destroyGraph", "graph": tid}, None),
        "createContext": ({"t": "createContext", "ctx": tid, "options": {"powerPreference": other}}, None),
    }[kind]
    page.send(msg, replied=kind in ("createTensor", "createConstantTensor", "readTensor", "graphLatency",
                                    "createContext"), payload=payload)
    _check(page, tracebacks)


@pytest.mark.parametrize("text", [
    '{"t":"build","id":1,"ctx":1,"graph":2,"inputs":[],"constants":[{"operand":1,"scalar":'
    '{"dataType":"float32","value":1e400}}],"nodes":[],"outputs":{}}',
    '{"t":"hello","id":' + "9" * 5000 + "}",  # past Python's integer-string limit
    '{"t":"createTensor","id":2,"ctx":1,"tensor":3,"desc":{"dataType":"float32","shape":[' + "9" * 5000 + "]}}",
    '{"t":"createTensor","id":2,"ctx":1,"tensor":3,"desc":{"dataType":"float32","shape":[1e400]}}',
    '{"t":"createTensor","id":2,"ctx":1,"tensor":3,"desc":{"dataType":"float32","shape":[-1e-400]}}',
], ids=["float-1e400", "id-5000-digits", "shape-5000-digits", "shape-1e400", "shape-tiny"])
def test_over_long_json_numbers_are_refused_as_data(ml, tracebacks, text):
    page = Page(ml)
    for f in page.s.receive(text):
        h = protocol.decode(f)[0]
        assert h["error"]["name"] in ERRORS_BY_NAME
    _check(page, tracebacks)


@pytest.mark.parametrize("value, dt, expected", [
    (10**400, "float32", math.inf), (-(10**400), "float32", -math.inf), (10**400, "float16", math.inf),
    (1e300, "float32", math.inf), (1e300, "float16", math.inf), (2**200, "float32", math.inf),
    (10**400, "int8", 127), (-(10**400), "uint64", 0), (10**4000, "uint4", 15), (-(10**400), "int4", -8),
    (math.nan, "int32", 0), (math.inf, "uint32", 2**32 - 1), (2**63, "int64", 2**63 - 1),
], ids=lambda v: str(v)[:12])
def test_cast_number_saturates_as_javascript_does(value, dt, expected):
    """The issue's crash: a float32 scalar of 10**400 or a 4000-digit BigInt (OverflowError)."""
    assert cast_number(value, dt) == expected
    assert to_double(10**400) == math.inf and to_double(-(10**400)) == -math.inf and to_double(3) == 3.0


def test_huge_scalar_constants_build_as_the_issue_reported(ml, tracebacks):
    page = Page(ml)
    for gid, value in ((10, 10**400), (11, {"$bigint": "9" * 4000})):
        (h,) = page.send({"t": "build", "ctx": 1, "graph": gid,
                          "inputs": [{"operand": 1, "name": "x", "desc": {"dataType": "float32", "shape": [2]}}],
                          "constants": [{"operand": 2, "scalar": {"dataType": "float32", "value": value}}],
                          "nodes": [{"op": "mul", "args": [X(1), X(2), {}], "outputs": [3]}], "outputs": {"y": 3}},
                         replied=True)
        assert "ok" in h, h
    # and through the Python API
    b = MLGraphBuilder(ml.createContext())
    assert np.isinf(b.constant("float32", 10**400).value)
    _check(page, tracebacks)
