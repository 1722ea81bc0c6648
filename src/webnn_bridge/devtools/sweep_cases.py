"""The capability sweep's cases: one minimal graph per operator and data type, shared by the sweep
(tests/test_capability_sweep.py: opSupportLimits() of the ONNX Runtime and PyTorch CPU contexts must be
truthful) and by `webnn-bridge codegen`'s measured tables (devtools/codegen/backend_tables.py).

For every operator in the registry and for every data type that a context reports for the op's main
input operand (read from ``opSupportLimits()``, never from a hard-coded list), a minimal valid graph
using that op with that data type must build and run and agree with the numpy reference backend.

Each case is ``make(b, dt, **kw) -> (outputs, inputs)``: it builds one call of the op on the builder
``b`` with main-input data type ``dt`` (inputs fed as graph inputs), and returns the output operand(s)
and the input arrays. Inputs come from ``_rng``, reseeded per case, so the reference and the backend
graphs see identical data.

An operator whose IDL method takes one operand, ``input``, and nothing else that is required (most
element-wise unary operators and activations) gets its case from its row: ``default_case`` (random
data in [-4, 4), shape [2, 3]). Any other operator, or one that needs other data (a domain, special
values), has its own entry in ``CASES``; ``missing_cases()`` names the operators that have neither
(`webnn-bridge codegen` refuses to run, naming them, and so does the sweep's test).

This module is only data and the functions that build graphs: it makes no context (devtools/sweep_run.py
makes the contexts and the case lists from what they report), so codegen can check it before writing.

A second, smaller sweep covers the operands whose data type is independent of the main input
(cast's output type, argMin/argMax outputDataType, quantize/dequantize parameter types, index
types): every type that opSupportLimits() allows for that operand gets one case (``SECONDARY``).
"""

from __future__ import annotations

import zlib

import numpy as np

from webnn_bridge.ops.registry import load_all

_rng = np.random.default_rng(0)


def _seed(*key) -> None:
    global _rng
    _rng = np.random.default_rng(zlib.crc32("/".join(map(str, key)).encode()))


# --------------------------------------------------------------------------- data helpers


def _is_float(dt: str) -> bool:
    return np.dtype(dt).kind == "f"


def _is_unsigned(dt: str) -> bool:
    return np.dtype(dt).kind == "u"


def rand(dt, shape, lo=-4, hi=4):
    """Random data of type dt; unsigned types never get negative values. Integer values lie in
    [lo, hi); float values are uniform in [lo, hi)."""
    if _is_unsigned(dt):
        lo = max(lo, 0)
    if _is_float(dt):
        return np.asarray(_rng.uniform(lo, hi, shape).astype(dt))
    return np.asarray(_rng.integers(lo, hi, shape).astype(dt))


def ints_as(dt, shape, lo=-4, hi=4):
    """Integer-valued data of any type (for comparisons, where ties matter, and exact casts)."""
    if _is_unsigned(dt):
        lo = max(lo, 0)
    return np.asarray(_rng.integers(lo, hi, shape).astype(dt))


def distinct(dt, shape):
    """Distinct values (no ties, so argMin/argMax have one answer)."""
    n = int(np.prod(shape))
    v = _rng.permutation(n) - (0 if _is_unsigned(dt) else n // 2)
    return np.asarray(v.reshape(shape).astype(dt))


def nonzero(dt, shape):
    """Divisors: magnitude in [1, 4] (floats [0.5, 4]), random sign for signed types."""
    mag = rand(dt, shape, 1, 5) if not _is_float(dt) else rand(dt, shape, 0.5, 4)
    if _is_unsigned(dt):
        return mag
    sign = np.where(_rng.integers(0, 2, shape) == 1, 1, -1).astype(dt)
    return np.asarray(mag * sign)


def inp(b, ins: dict, name: str, arr: np.ndarray):
    ins[name] = arr
    return b.input(name, {"dataType": str(arr.dtype), "shape": list(arr.shape)})


# --------------------------------------------------------------------------- table builders


def _unary(op, lo=-4, hi=4, shape=(2, 3), data=None, **opts):
    def make(b, dt):
        ins = {}
        x = inp(b, ins, "x", data(dt, shape) if data else rand(dt, shape, lo, hi))
        return (getattr(b, op)(x, opts) if opts else getattr(b, op)(x)), ins

    return make


def _binary(op, a_data=None, b_data=None):
    def make(b, dt):
        ins = {}
        a = inp(b, ins, "a", a_data(dt, (2, 3)) if a_data else rand(dt, (2, 3), -8, 8))
        c = inp(b, ins, "b", b_data(dt, (3,)) if b_data else rand(dt, (3,), -8, 8))
        return getattr(b, op)(a, c), ins

    return make


def _compare(op):
    # integer-valued data in a small range so that equal values (ties) occur
    return _binary(op, a_data=lambda dt, s: ints_as(dt, s, -2, 3), b_data=lambda dt, s: ints_as(dt, s, -2, 3))


def _logical(op):
    def make(b, dt):
        ins = {}
        a = inp(b, ins, "a", ints_as(dt, (2, 3), 0, 3))
        if op == "logicalNot":
            return b.logicalNot(a), ins
        return getattr(b, op)(a, inp(b, ins, "b", ints_as(dt, (3,), 0, 3))), ins

    return make


def _special(dt, shape):
    """Finite values plus NaN and +/-infinity for float types."""
    x = rand(dt, shape, -4, 4)
    if _is_float(dt):
        x.reshape(-1)[:3] = [np.nan, np.inf, -np.inf]
    return x


def _halves(dt, shape):
    """Multiples of 0.5, so that roundEven meets ties (round half to even)."""
    return np.asarray((np.round(_rng.uniform(-4, 4, shape) * 2) / 2).astype(dt))


def _reduce(op, lo=-4, hi=4):
    def make(b, dt):
        ins = {}
        x = inp(b, ins, "x", rand(dt, (2, 3), lo, hi))
        return getattr(b, op)(x, {"axes": [1]}), ins

    return make


def _pool(op):
    def make(b, dt):
        ins = {}
        x = inp(b, ins, "x", rand(dt, (1, 1, 4, 4)))
        return getattr(b, op)(x, {"windowDimensions": [2, 2], "strides": [2, 2]}), ins

    return make


def _arg(op):
    def make(b, dt, output="int32"):
        ins = {}
        x = inp(b, ins, "x", distinct(dt, (2, 3)))
        return getattr(b, op)(x, 1, {"outputDataType": output}), ins

    return make


def _cast(b, dt, output=None):
    ins = {}
    x = inp(b, ins, "x", ints_as(dt, (2, 3), 0, 100))  # in range of every type: exact, no saturation
    if output is None:
        output = "int32" if dt == "float32" else "float32"
    return b.cast(x, output), ins


def _clamp(b, dt):
    ins = {}
    x = inp(b, ins, "x", rand(dt, (2, 3), -4, 8))
    return b.clamp(x, {"minValue": 1, "maxValue": 5}), ins


def _concat(b, dt):
    ins = {}
    x = inp(b, ins, "x", rand(dt, (2, 3)))
    y = inp(b, ins, "y", rand(dt, (1, 3)))
    return b.concat([x, y], 0), ins


def _conv2d(b, dt):
    ins = {}
    x = inp(b, ins, "x", rand(dt, (1, 2, 3, 3), -1, 1))
    w = inp(b, ins, "w", rand(dt, (2, 2, 2, 2), -1, 1))
    bias = inp(b, ins, "bias", rand(dt, (2,), -1, 1))
    return b.conv2d(x, w, {"bias": bias}), ins


def _conv_transpose2d(b, dt):
    ins = {}
    x = inp(b, ins, "x", rand(dt, (1, 2, 2, 2), -1, 1))
    w = inp(b, ins, "w", rand(dt, (2, 2, 2, 2), -1, 1))  # iohw
    bias = inp(b, ins, "bias", rand(dt, (2,), -1, 1))
    return b.convTranspose2d(x, w, {"bias": bias}), ins


def _cumsum(b, dt):
    ins = {}
    x = inp(b, ins, "x", rand(dt, (2, 3), -4, 8))
    return b.cumulativeSum(x, 1), ins


def _dequantize(b, dt, scale="float32"):
    ins = {}
    x = inp(b, ins, "x", ints_as(dt, (2, 3), -10, 20))
    s = inp(b, ins, "s", rand(scale, (3,), 0.5, 2))
    z = inp(b, ins, "z", ints_as(dt, (3,), -3, 5))
    return b.dequantizeLinear(x, s, z), ins


def _quantize(b, dt, zero_point="uint8"):
    ins = {}
    x = inp(b, ins, "x", rand(dt, (2, 3), -20, 20))
    s = inp(b, ins, "s", rand(dt, (3,), 0.5, 2))
    z = inp(b, ins, "z", ints_as(zero_point, (3,), -3, 5))
    return b.quantizeLinear(x, s, z), ins


def _expand(b, dt):
    ins = {}
    return b.expand(inp(b, ins, "x", rand(dt, (1, 3))), [2, 3]), ins


def _gather(b, dt, indices="int32"):
    ins = {}
    x = inp(b, ins, "x", rand(dt, (3, 4), -8, 8))
    i = inp(b, ins, "i", ints_as(indices, (2,), 0, 3))
    return b.gather(x, i), ins


def _gather_elements(b, dt, indices="int32"):
    ins = {}
    x = inp(b, ins, "x", rand(dt, (3, 4), -8, 8))
    i = inp(b, ins, "i", ints_as(indices, (2, 4), 0, 3))
    return b.gatherElements(x, i), ins


def _gather_nd(b, dt, indices="int32"):
    ins = {}
    x = inp(b, ins, "x", rand(dt, (3, 4), -8, 8))
    i = inp(b, ins, "i", np.array([[0, 1], [2, 3]], indices))
    return b.gatherND(x, i), ins


def _scatter_elements(b, dt, indices="int32"):
    ins = {}
    x = inp(b, ins, "x", rand(dt, (3, 4), -8, 8))
    i = inp(b, ins, "i", ints_as(indices, (1, 4), 0, 3))  # one row: no duplicate targets
    u = inp(b, ins, "u", rand(dt, (1, 4), -8, 8))
    return b.scatterElements(x, i, u), ins


def _scatter_nd(b, dt, indices="int32"):
    ins = {}
    x = inp(b, ins, "x", rand(dt, (3, 4), -8, 8))
    i = inp(b, ins, "i", np.array([[2], [0]], indices))
    u = inp(b, ins, "u", rand(dt, (2, 4), -8, 8))
    return b.scatterND(x, i, u), ins


def _gemm(b, dt):
    ins = {}
    a = inp(b, ins, "a", rand(dt, (2, 3), -2, 2))
    c = inp(b, ins, "b", rand(dt, (3, 4), -2, 2))
    bias = inp(b, ins, "c", rand(dt, (4,), -2, 2))
    return b.gemm(a, c, {"c": bias}), ins


def _matmul(b, dt):
    ins = {}
    a = inp(b, ins, "a", rand(dt, (2, 3), -2, 2))
    c = inp(b, ins, "b", rand(dt, (3, 2), -2, 2))
    return b.matmul(a, c), ins


HID = 2  # hidden size of the recurrent cases


def _recurrent(gates: int, cell: bool):
    """gru (3 gates) / lstm (4 gates): a 2-step sequence, or one cell step with its states."""

    def make(b, dt):
        ins = {}
        lead = () if cell else (1,)
        x = inp(b, ins, "x", rand(dt, (1, 3) if cell else (2, 1, 3), -1, 1))
        w = inp(b, ins, "w", rand(dt, lead + (gates * HID, 3), -1, 1))
        r = inp(b, ins, "r", rand(dt, lead + (gates * HID, HID), -1, 1))
        if not cell:
            op = b.gru if gates == 3 else b.lstm
            return op(x, w, r, 2, HID, {"returnSequence": True}), ins
        states = [inp(b, ins, n, rand(dt, (1, HID), -1, 1)) for n in ("h", "c")[: gates - 2]]
        op = b.gruCell if gates == 3 else b.lstmCell
        return op(x, w, r, *states, HID), ins

    return make


def _batch_norm(b, dt):
    ins = {}
    x = inp(b, ins, "x", rand(dt, (1, 2, 3)))
    m = inp(b, ins, "m", rand(dt, (2,), -1, 1))
    v = inp(b, ins, "v", rand(dt, (2,), 0.5, 2))
    return b.batchNormalization(x, m, v), ins


def _instance_norm(b, dt):
    ins = {}
    return b.instanceNormalization(inp(b, ins, "x", rand(dt, (1, 2, 2, 3)))), ins


def _layer_norm(b, dt):
    ins = {}
    return b.layerNormalization(inp(b, ins, "x", rand(dt, (2, 3)))), ins


def _pad(b, dt):
    ins = {}
    return b.pad(inp(b, ins, "x", rand(dt, (2, 3), -8, 8)), [1, 0], [0, 1], {"value": 3}), ins


def _prelu(b, dt):
    ins = {}
    x = inp(b, ins, "x", rand(dt, (2, 3)))
    s = inp(b, ins, "s", rand(dt, (3,), -2, 2))
    return b.prelu(x, s), ins


def _resample2d(b, dt):
    ins = {}
    return b.resample2d(inp(b, ins, "x", rand(dt, (1, 1, 2, 2), -8, 8)), {"sizes": [4, 4]}), ins


def _reshape(b, dt):
    ins = {}
    return b.reshape(inp(b, ins, "x", rand(dt, (2, 3), -8, 8)), [3, 2]), ins


def _reverse(b, dt):
    ins = {}
    return b.reverse(inp(b, ins, "x", rand(dt, (2, 3), -8, 8))), ins


def _slice(b, dt):
    ins = {}
    return b.slice(inp(b, ins, "x", rand(dt, (2, 3), -8, 8)), [0, 1], [2, 2]), ins


def _softmax(b, dt):
    ins = {}
    return b.softmax(inp(b, ins, "x", rand(dt, (2, 3))), 1), ins


def _split(b, dt):
    ins = {}
    return b.split(inp(b, ins, "x", rand(dt, (2, 4), -8, 8)), 2, {"axis": 1}), ins


def _tile(b, dt):
    ins = {}
    return b.tile(inp(b, ins, "x", rand(dt, (2, 3), -8, 8)), [2, 1]), ins


def _transpose(b, dt):
    ins = {}
    return b.transpose(inp(b, ins, "x", rand(dt, (2, 3), -8, 8))), ins


def _triangular(b, dt):
    ins = {}
    return b.triangular(inp(b, ins, "x", rand(dt, (3, 3), -8, 8))), ins


def _where(b, dt):
    ins = {}
    c = inp(b, ins, "c", ints_as("uint8", (2, 3), 0, 3))
    t = inp(b, ins, "t", rand(dt, (2, 3), -8, 8))
    f = inp(b, ins, "f", rand(dt, (3,), -8, 8))
    return b.where(c, t, f), ins


def _pow_base(dt, shape):
    # float: positive bases (a negative base with a fractional exponent is NaN); int: small bases
    return rand(dt, shape, 0.5, 3) if _is_float(dt) else ints_as(dt, shape, -3, 4)


def _pow_exp(dt, shape):
    return rand(dt, shape, -2, 2) if _is_float(dt) else ints_as(dt, shape, 0, 4)


CASES = {
    # element-wise binary
    "add": _binary("add"),
    "sub": _binary("sub"),
    "mul": _binary("mul"),
    "div": _binary("div", b_data=nonzero),
    "max": _binary("max"),
    "min": _binary("min"),
    "pow": _binary("pow", a_data=_pow_base, b_data=_pow_exp),
    # comparison / logical
    "equal": _compare("equal"),
    "notEqual": _compare("notEqual"),
    "greater": _compare("greater"),
    "greaterOrEqual": _compare("greaterOrEqual"),
    "lesser": _compare("lesser"),
    "lesserOrEqual": _compare("lesserOrEqual"),
    "logicalNot": _logical("logicalNot"),
    "logicalAnd": _logical("logicalAnd"),
    "logicalOr": _logical("logicalOr"),
    "logicalXor": _logical("logicalXor"),
    "isNaN": _unary("isNaN", data=_special),
    "isInfinite": _unary("isInfinite", data=_special),
    "where": _where,
    # element-wise unary
    "identity": _unary("identity", -8, 8),
    "log": _unary("log", 0.1, 4),
    "reciprocal": _unary("reciprocal", data=nonzero),
    "roundEven": _unary("roundEven", data=_halves),
    "sqrt": _unary("sqrt", 0, 4),
    "tan": _unary("tan", -1, 1),
    # activations
    "linear": _unary("linear", alpha=2.0, beta=1.0),
    "prelu": _prelu,
    "softmax": _softmax,
    "clamp": _clamp,
    # reductions
    "argMax": _arg("argMax"),
    "argMin": _arg("argMin"),
    "cumulativeSum": _cumsum,
    "reduceL1": _reduce("reduceL1"),
    "reduceL2": _reduce("reduceL2"),
    "reduceLogSum": _reduce("reduceLogSum", 0.5, 4),
    "reduceLogSumExp": _reduce("reduceLogSumExp"),
    "reduceMax": _reduce("reduceMax", -8, 8),
    "reduceMean": _reduce("reduceMean"),
    "reduceMin": _reduce("reduceMin", -8, 8),
    "reduceProduct": _reduce("reduceProduct", -3, 4),
    "reduceSum": _reduce("reduceSum", -8, 8),
    "reduceSumSquare": _reduce("reduceSumSquare"),
    # type conversion / quantization
    "cast": _cast,
    "dequantizeLinear": _dequantize,
    "quantizeLinear": _quantize,
    # data movement
    "concat": _concat,
    "expand": _expand,
    "gather": _gather,
    "gatherElements": _gather_elements,
    "gatherND": _gather_nd,
    "scatterElements": _scatter_elements,
    "scatterND": _scatter_nd,
    "pad": _pad,
    "reshape": _reshape,
    "reverse": _reverse,
    "slice": _slice,
    "split": _split,
    "tile": _tile,
    "transpose": _transpose,
    "triangular": _triangular,
    # linear algebra / convolution / pooling / resampling
    "gemm": _gemm,
    "matmul": _matmul,
    "conv2d": _conv2d,
    "convTranspose2d": _conv_transpose2d,
    "averagePool2d": _pool("averagePool2d"),
    "l2Pool2d": _pool("l2Pool2d"),
    "maxPool2d": _pool("maxPool2d"),
    "resample2d": _resample2d,
    # normalization
    "batchNormalization": _batch_norm,
    "instanceNormalization": _instance_norm,
    "layerNormalization": _layer_norm,
    # recurrent
    "gru": _recurrent(3, cell=False),
    "gruCell": _recurrent(3, cell=True),
    "lstm": _recurrent(4, cell=False),
    "lstmCell": _recurrent(4, cell=True),
}



def _one_input_method(op: str, operations: dict | None = None) -> bool:
    """Whether the op's IDL method takes one operand, ``input``, and nothing else that is required."""
    if operations is None:
        from webnn_bridge.ops import idl

        operations = idl.operations("MLGraphBuilder")
    overloads = operations.get(op) or []
    return len(overloads) == 1 and [a["name"] for a in overloads[0]["args"] if not a["optional"]] == ["input"]


def default_case(op: str, operations: dict | None = None):
    """The case an operator gets from its row when CASES has none: one call ``b.op(x)`` on random data
    of shape [2, 3] in [-4, 4), for an op whose IDL method takes one required operand, ``input``, and
    whose registry limits name no other operand. None for any other op (it needs its own entry).
    ``operations``: the IDL model's MLGraphBuilder operations (default: the committed idl/model.json)."""
    d = load_all().get(op)
    if d is None or [n for n in d.limits if n not in d.outputs] != ["input"]:
        return None
    return _unary(op) if _one_input_method(op, operations) else None


def case(op: str, operations: dict | None = None):
    """The sweep's case of ``op``: its CASES entry, else its default case, else None."""
    return CASES.get(op) or default_case(op, operations)


def missing_cases(operations: dict | None = None) -> list[str]:
    """Registered operators that have no sweep case (neither an entry in CASES nor a default case)."""
    return [op for op in sorted(load_all()) if case(op, operations) is None]


def unknown_cases() -> list[str]:
    """CASES entries for operators the registry does not know."""
    return sorted(set(CASES) - set(load_all()))


class SweepCaseMissing(LookupError):
    """An operator without a capability-sweep case."""


class _Table(dict):
    """op -> make, every registered op's case (CASES, else its default case); an op without one
    raises SweepCaseMissing naming what to add."""

    def __missing__(self, op: str):
        make = case(op)
        if make is None:
            raise SweepCaseMissing(missing_message([op]))
        self[op] = make
        return make

    def __contains__(self, op) -> bool:
        return dict.__contains__(self, op) or (isinstance(op, str) and case(op) is not None)


def missing_message(ops: list[str]) -> str:
    return (f"no capability-sweep case for {ops}: an operator whose IDL method takes more than one operand "
            "(or required arguments besides `input`) needs its own entry in CASES in src/webnn_bridge/devtools/sweep_cases.py "
            "(CONTRIBUTING.md, adding an operator, step 3)")


TABLE = _Table(CASES)  # every registered op's case: CASES, and default cases filled in on first use

# The operand whose data types the main sweep walks, when it is not the op's first operand.
# where: the first operand (condition) is uint8-only; the data types vary with trueValue.
MAIN = {"where": "trueValue"}

# Operands whose data type is independent of the main input: op -> (operand, make keyword).
SECONDARY = {
    "argMax": ("output", "output"),
    "argMin": ("output", "output"),
    "cast": ("output", "output"),
    "dequantizeLinear": ("scale", "scale"),
    "quantizeLinear": ("zeroPoint", "zero_point"),
    "gather": ("indices", "indices"),
    "gatherElements": ("indices", "indices"),
    "gatherND": ("indices", "indices"),
    "scatterElements": ("indices", "indices"),
    "scatterND": ("indices", "indices"),
}

# --------------------------------------------------------------------------- tolerances

TOL = {"float32": (1e-5, 1e-6), "float16": (1e-2, 1e-3)}  # (rtol, atol); integer outputs are exact
OVERRIDES: dict[tuple[str, str], tuple[float, float]] = {
    # (op, float type) -> (rtol, atol), each with its justification
}


def main_operand(op: str) -> str:
    return MAIN.get(op) or next(iter(load_all()[op].limits))


# --------------------------------------------------------------------------- running


def _compare_outputs(op, dt, ref, got):
    assert len(ref) == len(got)
    for i, (r, o) in enumerate(zip(ref, got)):
        assert (o.dtype, o.shape) == (r.dtype, r.shape), f"output {i}: got {o.dtype}{o.shape}, ref {r.dtype}{r.shape}"
        if r.dtype.kind != "f":
            diff = np.abs(o.astype(np.float64) - r.astype(np.float64)).max(initial=0)
            assert np.array_equal(o, r), f"output {i} ({r.dtype}) differs, max abs diff {diff}\ngot {o}\nref {r}"
            continue
        rtol, atol = OVERRIDES.get((op, r.dtype.name), TOL[r.dtype.name])
        o64, r64 = o.astype(np.float64), r.astype(np.float64)
        with np.errstate(invalid="ignore"):
            diff = np.nanmax(np.abs(o64 - r64), initial=0)
        np.testing.assert_allclose(
            o64,
            r64,
            rtol=rtol,
            atol=atol,
            equal_nan=True,
            err_msg=f"output {i} ({r.dtype}) max abs diff {diff}",
        )


# --------------------------------------------------------------------------- beyond minimal graphs
# Two narrower checks that the minimal sweep above cannot see, because its data is small.

# 64-bit integers beyond 2**53: a lowering (or an ONNX Runtime kernel) that computes in float64
# rounds them, so the advertised int64/uint64 support would be exact only for small values. The
# values below never overflow 64 bits; only rounding can make the backends disagree.
_B = 2**53
_U = 2**63  # uint64 values above int64's range, for lowerings that reinterpret through int64


def _big(b, dt, data, build):
    ins = {}
    return build(b, inp(b, ins, "x", np.array(data, dt))), ins


def _c(b, dt, value, shape=()):
    return b.constant({"dataType": dt, "shape": list(shape)}, np.array(value, dt).reshape(shape))


def _wide(base: int) -> list:
    rows = [[base] * 17 for _ in range(17)]
    rows[5][7] = base + 1
    return [[rows]]


LARGE64 = {
    # op: (int64 data, uint64 data, build(b, x)); the data's dtype is filled in per case
    "reduceSum": ([[_B + 1, 2, 5], [3, 2**60 + 1, 1]], None, lambda b, x: b.reduceSum(x, {"axes": [1]})),
    "reduceL1": ([[_B + 1, 2, 5], [3, 2**60 + 1, 1]], None, lambda b, x: b.reduceL1(x, {"axes": [1]})),
    "reduceSumSquare": ([[2**27 + 1, 3], [5, 2**28 + 1]], None, lambda b, x: b.reduceSumSquare(x, {"axes": [1]})),
    "reduceProduct": ([[2**27 + 1, 2**27 + 3], [3, 5]], None, lambda b, x: b.reduceProduct(x, {"axes": [1]})),
    "reduceMax": (
        [[_B + 1, _B], [_B, _B + 3]],
        [[_U + 1, _U], [_U, _U + 3]],
        lambda b, x: b.reduceMax(x, {"axes": [1]}),
    ),
    "reduceMin": (
        [[_B + 1, _B], [_B, _B + 3]],
        [[_U + 1, _U], [_U, _U + 3]],
        lambda b, x: b.reduceMin(x, {"axes": [1]}),
    ),
    "argMax": ([[_B, _B + 1], [_B + 3, _B]], [[_U, _U + 1], [_U + 3, _U]], lambda b, x: b.argMax(x, 1)),
    "argMin": ([[_B + 1, _B], [_B, _B + 3]], [[_U + 1, _U], [_U, _U + 3]], lambda b, x: b.argMin(x, 1)),
    "cumulativeSum": ([[_B + 1, 2], [3, 2**60 + 1]], None, lambda b, x: b.cumulativeSum(x, 1)),
    "maxPool2d": ([[[[_B, _B + 1], [0, 1]]]], [[[[_U, _U + 1], [0, 1]]]], lambda b, x: b.maxPool2d(x)),
    # one 17x17 window (289 positions, over the 256 that the exact lowering handles)
    "maxPool2d:wide": (_wide(_B), _wide(_U), lambda b, x: b.maxPool2d(x)),
    "pow": ([[_B + 1, 3]], None, lambda b, x: b.pow(x, _c(b, x.dataType, [1, 2], [2]))),
    "add": ([[_B + 1, 3]], None, lambda b, x: b.add(x, x)),
    "max": ([[_B + 1, 3]], [[_U + 1, 3]], lambda b, x: b.max(x, b.reverse(x))),
    "greater": ([[_B + 1, _B]], [[_U + 1, _U]], lambda b, x: b.greater(x, b.reverse(x))),
}
# 32-bit integers beyond 2**24: a runtime that computes them in float32 rounds them (OpenVINO's CPU
# plugin did: int32 div of 16777217 by 1 gave 16777216, pow of 3 to the 19th 1162261504). No overflow.
_B32 = 2**24
LARGE32 = {
    # op: (int32 data, uint32 data or None for the int32 data, build(b, x))
    "add": ([[_B32 + 1, 2**30 + 3]], None, lambda b, x: b.add(x, _c(b, x.dataType, [2, 5], [2]))),
    "sub": ([[_B32 + 3, 2**30 + 3]], None, lambda b, x: b.sub(x, _c(b, x.dataType, [2, 1], [2]))),
    "mul": ([[_B32 + 1, 2**28 + 1]], None, lambda b, x: b.mul(x, _c(b, x.dataType, [1, 3], [2]))),
    "div": ([[_B32 + 1, 2**31 - 47]], [[_B32 + 1, 2**32 - 5]], lambda b, x: b.div(x, _c(b, x.dataType, [1, 3], [2]))),
    # (the exponents computed, not constants: OpenVINO was exact with a constant exponent)
    "pow": ([[3, 19]], None, lambda b, x: b.pow(x, b.reverse(x))),
    "max": ([[_B32 + 1, _B32 + 3]], None, lambda b, x: b.max(x, _c(b, x.dataType, [_B32, _B32 + 2], [2]))),
    "min": ([[_B32 + 1, _B32 + 3]], None, lambda b, x: b.min(x, _c(b, x.dataType, [_B32 + 2, _B32 + 4], [2]))),
    "reduceSum": ([[_B32 + 1, 2, 5], [3, 2**30 + 1, 1]], None, lambda b, x: b.reduceSum(x, {"axes": [1]})),
    "reduceL1": ([[_B32 + 1, 2, 5], [3, 2**30 + 1, 1]], None, lambda b, x: b.reduceL1(x, {"axes": [1]})),
    "reduceSumSquare": ([[2**12 + 1, 3], [5, 2**13 + 1]], None, lambda b, x: b.reduceSumSquare(x, {"axes": [1]})),
    "reduceProduct": ([[2**13 + 1, 2**13 + 3], [3, 5]], None, lambda b, x: b.reduceProduct(x, {"axes": [1]})),
    "cumulativeSum": ([[_B32 + 1, 2], [3, 2**30 + 1]], None, lambda b, x: b.cumulativeSum(x, 1)),
}
def large_case(op: str, dt: str):
    """(data, build) of the large-value check of ``op`` for ``dt`` (LARGE64 or LARGE32)."""
    big, unsigned, build = (LARGE64 if dt in ("int64", "uint64") else LARGE32)[op]
    return (unsigned if dt.startswith("u") and unsigned is not None else big), build


# cast from a float type to an integer type, for values outside the target's range (and NaN, +/-Infinity)
CAST_OUT_OF_RANGE = [-3.7, -1.0, 300.0, -300.0, 7e4, -7e4, 5e9, -5e9, np.nan, np.inf, -np.inf]
