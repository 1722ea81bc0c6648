"""Differential graph fuzzer: random multi-operator graphs on every CPU backend against the reference.

The WPT conformance cases test one operator at a time. Runtimes rewrite whole graphs (fusions,
constant folding, stride and layout propagation, in-place buffers), and their bugs show only where
operators meet. This tool found, among others: OpenVINO moving a padded 1x1 convolution's strides
onto the operation before it and losing the padding, computing Abs in place over a Concat that
was still read, folding Abs over constants with the sign kept; ONNX Runtime's int32 reductions
saturating where the reference wraps; PyTorch's backend receiving rank-0 inputs as shape [1].

A graph is drawn from a seed and a data type: one or two sources of random rank (0 to 4) and
shape, inputs or (a quarter of them) constants, integer data sometimes anywhere in the type's
range; then 3 to 12 steps, each applying a random operator (60 or so patterns covering the 95
operators) to an operand made so far (mostly the last), with constants and options drawn to be
valid. In float graphs the steps that jump (comparisons, rounding, casts to integers,
quantization) read a source, so that one ULP of difference upstream cannot pass for a bug. The
graph is built on every CPU backend's context (a backend that does not claim an operator or type
the graph uses sits that graph out, as WPT skips what ``opSupportLimits()`` leaves out) and run on
the same inputs; every output is compared with the numpy reference: integers exactly, float32
within 1e-4 (relative, and absolute scaled by the output's magnitude), float16 within 5e-3.
Values stay finite (exp of tanh, sqrt of abs, division by |x| + 0.5, float16 products of tanh),
so a difference is a backend's, not the arithmetic's.

    webnn-bridge fuzz [--seeds 0:500] [--type float32] [--backends onnxruntime,openvino] [--show SEED] [--trace]

Prints one line per difference (seed, backend, what differs), then how many graphs each backend
ran (a backend sits out a graph that uses what it does not claim), and exits 1 when there is a
difference;
``--show SEED`` prints that graph's operators and every backend's outputs. tests/test_fuzz.py runs
a fixed set of seeds of every type in CI.
"""

from __future__ import annotations

import argparse
import faulthandler
import random
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

FLOAT_TYPES = ("float32", "float16")
INT_TYPES = ("int32", "int8", "uint8", "int64", "uint32", "uint64")
TYPES = FLOAT_TYPES + INT_TYPES
# what a builder call says when the graph uses something the context does not claim
_NOT_CLAIMED = "by this context"


class Draw:
    """One graph being drawn: the builder, the random sources and the operands made so far."""

    def __init__(self, builder, seed: int, data_type: str):
        self.b, self.dt = builder, data_type
        self.rng = random.Random(seed)
        self.np_rng = np.random.default_rng(seed)
        self.np_dt = np.dtype(np.float16 if data_type == "float16" else data_type)
        self.pool: list = []
        self.feeds: dict[str, np.ndarray] = {}
        self.sources = 0  # the graph's inputs and input-like constants: the first operands of the pool

    def pick(self):
        """Mostly the operand made last (graphs are chains more than bushes: what no output reads
        is dropped by build()), else any."""
        return self.pool[-1] if self.rng.random() < 0.6 else self.rng.choice(self.pool)

    def exact(self, x):
        """``x``, or in a float graph one of its inputs: what a step that jumps (a comparison, a
        rounding, a cast to an integer, quantization) reads. One ULP of difference upstream, which
        backends may have, would move a value across the jump and look like a bug."""
        return x if self.np_dt.kind != "f" else self.rng.choice(self.pool[:self.sources])

    # ----------------------------------------------------------------- values
    def const(self, shape: Sequence[int], lo: float = -1.0, hi: float = 1.0):
        if self.np_dt.kind == "f":
            a = self.np_rng.uniform(lo, hi, size=tuple(shape))
        else:
            a = self.np_rng.integers(int(lo), int(hi) + 1, size=tuple(shape))
        return self.b.constant({"dataType": self.dt, "shape": list(shape)}, np.asarray(a).astype(self.np_dt))

    def scalar(self, value):
        return self.b.constant(self.dt, value)

    def indices(self, values: Sequence[int], shape: Sequence[int]):
        return self.b.constant({"dataType": "int32", "shape": list(shape)},
                               np.array(values, np.int32).reshape(tuple(shape)))

    def broadcastable(self, shape: Sequence[int]) -> list[int]:
        """A shape that broadcasts to ``shape``: a suffix of it with some dimensions made 1."""
        tail = list(shape)[self.rng.randint(0, len(shape)):]
        return [1 if self.rng.random() < 0.3 else d for d in tail]

    def axes(self, rank: int, at_least: int = 0) -> list[int]:
        return sorted(self.rng.sample(range(rank), self.rng.randint(min(at_least, rank), rank)))

    def as_nchw(self, x):
        """``x`` as a 4-D operand (reshaped when it is not one)."""
        if len(x.shape) == 4:
            return x
        n = int(np.prod(x.shape)) if x.shape else 1
        return self.b.reshape(x, [1, 1, 2, n // 2] if n % 2 == 0 and n > 2 else [1, 1, 1, n])


# --------------------------------------------------------------------------- steps
# Each step takes the draw, an operand x (chosen from those made so far) and its shape, and
# returns a new operand. Steps for every type, float only, integer only.

JUMPS = ("ceil", "floor", "sign", "roundEven")


def _unary(d: Draw, x, s):
    b, op = d.b, d.rng.choice(["abs", "ceil", "floor", "neg", "relu", "sigmoid", "tanh", "softsign", "softplus",
                               "gelu", "hardSwish", "identity", "sign", "roundEven", "sin", "cos", "erf", "elu",
                               "leakyRelu", "hardSigmoid", "exp", "sqrt", "log", "reciprocal", "tan"])
    if op in JUMPS:
        return getattr(b, op)(d.exact(x))
    if op == "exp":
        return b.exp(b.tanh(x))
    if op == "sqrt":
        return b.sqrt(b.abs(x))
    if op == "log":
        return b.log(b.add(b.abs(x), d.scalar(1)))
    if op == "reciprocal":
        return b.reciprocal(b.add(b.abs(x), d.scalar(0.5)))
    if op == "tan":
        return b.tan(b.mul(b.tanh(x), d.scalar(1.2)))
    if op == "elu":
        return b.elu(x, {"alpha": d.rng.choice([1.0, 0.5])})
    if op == "leakyRelu":
        return b.leakyRelu(x, {"alpha": d.rng.choice([0.01, 0.2])})
    if op == "hardSigmoid":
        return b.hardSigmoid(x, {"alpha": 0.2, "beta": 0.5})
    return getattr(b, op)(x)


def _binary(d: Draw, x, s):
    b, op = d.b, d.rng.choice(["add", "sub", "mul", "max", "min", "div", "pow"])
    y = d.pick()
    try:
        np.broadcast_shapes(tuple(s), tuple(y.shape))
    except ValueError:
        y = None
    if y is None or d.rng.random() < 0.5:
        y = d.const(d.broadcastable(s))
    if d.rng.random() < 0.5:
        x, y = y, x
    if op == "div":
        return b.div(x, b.add(b.abs(y), d.scalar(0.5)))
    if op == "pow":
        return b.pow(b.abs(x), d.scalar(d.rng.choice([2.0, 0.5, 3.0])))
    return getattr(b, op)(x, y)


def _reduce(d: Draw, x, s):
    op = d.rng.choice(["reduceSum", "reduceMean", "reduceMax", "reduceMin", "reduceL1", "reduceL2", "reduceSumSquare",
                       "reduceLogSumExp", "reduceProduct"])
    opts = {"keepDimensions": d.rng.random() < 0.5}
    if d.rng.random() < 0.8:
        opts["axes"] = d.axes(len(s))
    if d.rng.random() < 0.1:  # (of a positive value)
        return d.b.reduceLogSum(d.b.add(d.b.abs(x), d.scalar(1)), opts)
    if op == "reduceProduct" and d.dt == "float16":
        # of values below 1 in magnitude: the product of up to 256 values above 1 overflowed float16
        # to inf (seed 12891: a softmax of it gave NaN), which backends that compute float16 in
        # float32 (OpenVINO's CPU plugin, a known limit) keep finite
        x = d.b.tanh(x)
    return getattr(d.b, op)(x, opts)


def _transpose(d: Draw, x, s):
    perm = list(range(len(s)))
    d.rng.shuffle(perm)
    return d.b.transpose(x, {"permutation": perm}) if d.rng.random() < 0.8 else d.b.transpose(x)


def _reshape(d: Draw, x, s):
    n = int(np.prod(s)) if s else 1
    shapes = [[n], [1, n], [n, 1]] + [v for k in range(2, 6) if n % k == 0 for v in ([k, n // k], [1, k, n // k])]
    return d.b.reshape(x, d.rng.choice(shapes))


def _matmul(d: Draw, x, s):
    b = d.b
    if len(s) < 2:
        x = b.reshape(x, [1, int(np.prod(s)) if s else 1])
        s = list(x.shape)
    n = d.rng.randint(1, 5)
    w = d.const(d.broadcastable(s[:-2]) + [s[-1], n] if d.rng.random() < 0.5 else [s[-1], n])
    y = b.matmul(x, w)
    return b.add(y, d.const([n])) if d.rng.random() < 0.5 else y


def _gemm(d: Draw, x, s):
    b = d.b
    x = x if len(s) == 2 else b.reshape(x, [1, int(np.prod(s)) if s else 1])
    m, k = x.shape
    n = d.rng.randint(1, 4)
    opts = {}
    if d.rng.random() < 0.5:
        opts["c"] = d.const(d.rng.choice([[n], [m, n], [1, n], [1]]))
    if d.rng.random() < 0.3:
        opts["alpha"] = 0.5
    if d.rng.random() < 0.3:
        opts["beta"] = 2.0
    if d.rng.random() < 0.5:
        opts["bTranspose"] = True
    return b.gemm(x, d.const([n, k] if opts.get("bTranspose") else [k, n]), opts)


def _conv(d: Draw, x, s):
    b, rng = d.b, d.rng
    x = d.as_nchw(x)
    _, c, h, w = x.shape
    kh, kw = rng.randint(1, min(3, h)), rng.randint(1, min(3, w))
    groups, oc = (c, c) if c > 1 and rng.random() < 0.3 else (1, rng.randint(1, 3))
    opts = {"groups": groups}
    if rng.random() < 0.5:
        opts["bias"] = d.const([oc])
    if rng.random() < 0.4:
        opts["padding"] = [rng.randint(0, 1) for _ in range(4)]
    if rng.random() < 0.4:
        opts["strides"] = [rng.randint(1, 2), rng.randint(1, 2)]
    if rng.random() < 0.2 and 2 * kh - 1 <= h and 2 * kw - 1 <= w:
        opts["dilations"] = [2, 2]
    y = b.conv2d(x, d.const([oc, c // groups, kh, kw]), opts)
    if rng.random() < 0.5:
        y = b.relu(y) if rng.random() < 0.5 else b.add(y, d.const([1, oc, 1, 1]))
    return y


def _conv_transpose(d: Draw, x, s):
    rng = d.rng
    x = d.as_nchw(x)
    c = x.shape[1]
    oc, kh, kw = rng.randint(1, 2), rng.randint(1, 2), rng.randint(1, 2)
    opts = {}
    if rng.random() < 0.4:
        opts["strides"] = [rng.randint(1, 2), rng.randint(1, 2)]
        if rng.random() < 0.3:
            opts["outputPadding"] = [opts["strides"][0] - 1, 0]
    if rng.random() < 0.3:
        opts["padding"] = [0, kh - 1, 0, kw - 1]
    if rng.random() < 0.5:
        opts["bias"] = d.const([oc])
    return d.b.convTranspose2d(x, d.const([c, oc, kh, kw]), opts)


def _pool(d: Draw, x, s):
    rng = d.rng
    x = d.as_nchw(x)
    h, w = x.shape[2:]
    opts = {}
    if rng.random() < 0.6:
        opts["windowDimensions"] = [rng.randint(1, h), rng.randint(1, w)]
    if rng.random() < 0.3:
        opts["strides"] = [rng.randint(1, 2), rng.randint(1, 2)]
    return getattr(d.b, rng.choice(["averagePool2d", "maxPool2d", "l2Pool2d"]))(x, opts)


def _normalization(d: Draw, x, s):
    b, rng = d.b, d.rng
    kind = rng.choice(["batch", "instance", "layer"] if d.dt == "float32" else ["batch"])
    # (over a few near-equal values, instance and layer normalization turn a 1-ULP difference
    # upstream into a large one: float16 graphs leave them out)
    if kind == "layer":
        axes = d.axes(len(s), at_least=1)
        opts = {"axes": axes}
        if rng.random() < 0.5:
            opts["scale"] = d.const([s[a] for a in axes], 0.5, 1.5)
        if rng.random() < 0.5:
            opts["bias"] = d.const([s[a] for a in axes])
        return b.layerNormalization(x, opts)
    x = d.as_nchw(x)
    c = x.shape[1]
    opts = {}
    if rng.random() < 0.5:
        opts["scale"] = d.const([c], 0.5, 1.5)
    if rng.random() < 0.5:
        opts["bias"] = d.const([c])
    if kind == "instance":
        return b.instanceNormalization(x, opts)
    return b.batchNormalization(x, d.const([c]), d.const([c], 0.5, 1.5), {**opts, "epsilon": 1e-3})


def _softmax(d: Draw, x, s):
    return d.b.softmax(x, d.rng.randrange(len(s))) if s else d.b.softmax(d.b.reshape(x, [1]), 0)


def _slice(d: Draw, x, s):
    starts = [d.rng.randint(0, n - 1) for n in s]
    sizes = [d.rng.randint(1, n - st) for n, st in zip(s, starts)]
    opts = {"strides": [d.rng.randint(1, 2) for _ in s]} if d.rng.random() < 0.3 else {}
    return d.b.slice(x, starts, sizes, opts)


def _concat(d: Draw, x, s):
    if not s:
        return d.b.identity(x)
    axis = d.rng.randrange(len(s))
    other = list(s)
    other[axis] = d.rng.randint(1, 3)
    return d.b.concat([x, d.const(other), x], axis)


def _clamp(d: Draw, x, s):
    lo = 0 if d.dt.startswith("u") else -2
    return d.b.clamp(x, {"minValue": lo, "maxValue": d.rng.choice([2, 5])})


def _where(d: Draw, x, s):
    x = d.exact(x)
    s = list(x.shape)
    y = d.const(d.broadcastable(s))
    cond = getattr(d.b, d.rng.choice(["greater", "lesserOrEqual", "equal", "notEqual"]))(x, y)
    return d.b.where(cond, x, y)


def _logical(d: Draw, x, s):
    x = d.exact(x)
    s = list(x.shape)
    b = d.b
    c1 = getattr(b, d.rng.choice(["equal", "notEqual", "greater", "greaterOrEqual", "lesser", "lesserOrEqual"]))(
        x, d.const(d.broadcastable(s)))
    c = getattr(b, d.rng.choice(["logicalAnd", "logicalOr", "logicalXor"]))(c1, b.greater(x, d.scalar(0)))
    if d.rng.random() < 0.5:
        c = b.logicalNot(c)
    if d.rng.random() < 0.3:
        c = b.logicalOr(c, b.isNaN(x) if d.rng.random() < 0.5 else b.isInfinite(b.div(x, d.scalar(0))))
    return b.where(c, x, b.abs(x)) if d.rng.random() < 0.5 else b.cast(c, d.dt)


def _expand(d: Draw, x, s):
    return d.b.expand(x, [2] + list(s)) if len(s) < 4 else d.b.identity(x)


def _cast_round_trip(d: Draw, x, s):
    x = d.exact(x)
    to = d.rng.choice(["float16", "float32", "int32", "int8", "uint8", "int64"])
    if d.dt.startswith("float") and not to.startswith("float"):
        x = d.b.clamp(x, {"minValue": -100, "maxValue": 100})  # out-of-range casts are the implementation's
    return d.b.cast(d.b.cast(x, to), d.dt)


def _linear(d: Draw, x, s):
    return d.b.linear(x, {"alpha": 2.0, "beta": -0.5})


def _prelu(d: Draw, x, s):
    return d.b.prelu(x, d.const(d.broadcastable(s)))


def _gather(d: Draw, x, s):
    rng, b = d.rng, d.b
    if not s:
        return b.identity(x)
    kind = rng.choice(["gather", "gatherElements", "gatherND"])
    axis = rng.randrange(len(s))
    if kind == "gather":
        idx = [rng.randrange(s[axis]) for _ in range(rng.randint(1, 3))]
        return b.gather(x, d.indices(idx, [len(idx)]), {"axis": axis})
    if kind == "gatherElements":
        shape = list(s)
        shape[axis] = rng.randint(1, 2)
        idx = [rng.randrange(s[axis]) for _ in range(int(np.prod(shape)))]
        return b.gatherElements(x, d.indices(idx, shape), {"axis": axis})
    k, n = rng.randint(1, len(s)), rng.randint(1, 2)
    return b.gatherND(x, d.indices([rng.randrange(s[j]) for _ in range(n) for j in range(k)], [n, k]))


def _scatter(d: Draw, x, s):
    rng, b = d.rng, d.b
    if not s:
        return b.identity(x)
    if rng.random() < 0.5:
        axis = rng.randrange(len(s))
        shape = list(s)
        shape[axis] = 1
        idx = [rng.randrange(s[axis]) for _ in range(int(np.prod(shape)))]
        return b.scatterElements(x, d.indices(idx, shape), d.const(shape), {"axis": axis})
    k = rng.randint(1, len(s))
    where = sorted({tuple(rng.randrange(s[j]) for j in range(k)) for _ in range(2)})  # no repeats
    idx = d.indices([v for p in where for v in p], [len(where), k])
    return b.scatterND(x, idx, d.const([len(where)] + list(s[k:])))


def _pad(d: Draw, x, s):
    if not s:
        return d.b.identity(x)
    mode = d.rng.choice(["constant", "edge", "reflection"])
    top = [(lambda n: d.rng.randint(0, min(1, n - 1) if mode == "reflection" else 1))(n) for n in s]
    end = [(lambda n: d.rng.randint(0, min(1, n - 1) if mode == "reflection" else 1))(n) for n in s]
    return d.b.pad(x, top, end, {"mode": mode})


def _split(d: Draw, x, s):
    axes = [a for a, n in enumerate(s) if n >= 2]
    if not axes:
        return d.b.identity(x)
    axis = d.rng.choice(axes)
    return d.b.split(x, [1, s[axis] - 1], {"axis": axis})[d.rng.randrange(2)]


def _resample(d: Draw, x, s):
    rng = d.rng
    opts = {"mode": rng.choice(["nearest-neighbor", "linear"])}
    if rng.random() < 0.5:
        opts["scales"] = [rng.choice([1.0, 1.5, 2.0]), rng.choice([1.0, 2.0, 3.0])]
    else:
        opts["sizes"] = [rng.randint(1, 5), rng.randint(1, 5)]
    return d.b.resample2d(d.as_nchw(x), opts)


def _cumulative_sum(d: Draw, x, s):
    if not s:
        return d.b.identity(x)
    return d.b.cumulativeSum(x, d.rng.randrange(len(s)), {"exclusive": d.rng.random() < 0.5,
                                                          "reversed": d.rng.random() < 0.5})


def _arg(d: Draw, x, s):
    x = d.exact(x)
    s = list(x.shape)
    if not s:
        return d.b.identity(x)
    y = getattr(d.b, d.rng.choice(["argMax", "argMin"]))(
        x, d.rng.randrange(len(s)), {"keepDimensions": d.rng.random() < 0.5,
                                     "outputDataType": d.rng.choice(["int32", "int64"])})
    return d.b.cast(y, d.dt)


def _tile(d: Draw, x, s):
    return d.b.tile(x, [d.rng.randint(1, 2) for _ in s])


def _reverse(d: Draw, x, s):
    return d.b.reverse(x, {"axes": d.axes(len(s))} if s and d.rng.random() < 0.7 else {})


def _triangular(d: Draw, x, s):
    if len(s) < 2:
        return d.b.identity(x)
    return d.b.triangular(x, {"upper": d.rng.random() < 0.5, "diagonal": d.rng.randint(-2, 2)})


def _quantize_round_trip(d: Draw, x, s):
    x = d.exact(x)
    s = list(x.shape)
    b = d.b
    qt = d.rng.choice(["int8", "uint8"])
    scale = d.const(d.broadcastable(s), 0.01, 0.1)
    zero_point = b.constant({"dataType": qt, "shape": list(scale.shape)},
                            np.full(tuple(scale.shape), d.rng.randint(0, 10), np.dtype(qt)))
    return b.dequantizeLinear(b.quantizeLinear(x, scale, zero_point), scale, zero_point)


def _recurrent(d: Draw, x, s):
    b, rng = d.b, d.rng
    x = x if len(s) == 3 else b.reshape(x, [1, 1, int(np.prod(s)) if s else 1])
    steps, batch, size = x.shape
    hidden = rng.randint(1, 2)
    direction = rng.choice(["forward", "backward", "both"])
    dirs = 2 if direction == "both" else 1
    gates = 3 if rng.random() < 0.5 else 4
    opts = {"direction": direction, "returnSequence": rng.random() < 0.5}
    for name in ("bias", "recurrentBias"):
        if rng.random() < 0.5:
            opts[name] = d.const([dirs, gates * hidden])
    if rng.random() < 0.3:
        opts["initialHiddenState"] = d.const([dirs, batch, hidden])
    weights = (d.const([dirs, gates * hidden, size]), d.const([dirs, gates * hidden, hidden]))
    if gates == 3:
        if rng.random() < 0.5:
            opts["resetAfter"] = False
        outs = b.gru(x, *weights, steps, hidden, opts)
    else:
        if rng.random() < 0.3:
            opts["peepholeWeight"] = d.const([dirs, 3 * hidden])
        outs = b.lstm(x, *weights, steps, hidden, opts)
    return outs[rng.randrange(len(outs))]


def _cell(d: Draw, x, s):
    b, rng = d.b, d.rng
    x = x if len(s) == 2 else b.reshape(x, [1, int(np.prod(s)) if s else 1])
    batch, size = x.shape
    hidden = rng.randint(1, 3)
    gates = 3 if rng.random() < 0.5 else 4
    opts = {}
    for name in ("bias", "recurrentBias"):
        if rng.random() < 0.5:
            opts[name] = d.const([gates * hidden])
    weights = (d.const([gates * hidden, size]), d.const([gates * hidden, hidden]))
    state = d.const([batch, hidden])
    if gates == 3:
        if rng.random() < 0.5:
            opts["resetAfter"] = False
        return b.gruCell(x, *weights, state, hidden, opts)
    if rng.random() < 0.3:
        opts["peepholeWeight"] = d.const([3 * hidden])
    return b.lstmCell(x, *weights, state, d.const([batch, hidden]), hidden, opts)[rng.randrange(2)]


def _int_arithmetic(d: Draw, x, s):
    b, op = d.b, d.rng.choice(["add", "sub", "mul", "max", "min", "div", "pow"])
    if op == "div":
        return b.div(x, d.const(d.broadcastable(s), 1, 3))
    if op == "pow":
        return b.pow(x, d.scalar(d.rng.choice([0, 1, 2, 3])))
    y = d.const(d.broadcastable(s), 0 if d.dt.startswith("u") else -3, 3)
    return getattr(b, op)(*((x, y) if d.rng.random() < 0.5 else (y, x)))


def _int_unary(d: Draw, x, s):
    return getattr(d.b, d.rng.choice(["abs", "neg", "sign", "relu"]))(x)


def _int_reduce(d: Draw, x, s):
    op = d.rng.choice(["reduceSum", "reduceMax", "reduceMin", "reduceProduct", "reduceL1", "reduceSumSquare"])
    return getattr(d.b, op)(x, {"axes": d.axes(len(s)), "keepDimensions": d.rng.random() < 0.5})


SHARED = [_transpose, _reshape, _slice, _concat, _clamp, _where, _expand, _cast_round_trip, _prelu, _gather,
          _scatter, _pad, _split, _cumulative_sum, _arg, _tile, _reverse, _triangular]
FLOAT_STEPS = [_unary] * 4 + [_binary] * 4 + SHARED + [
    _reduce, _matmul, _gemm, _conv, _conv_transpose, _pool, _normalization, _softmax, _logical, _linear, _resample,
    _quantize_round_trip, _recurrent, _cell]
INT_STEPS = [_int_arithmetic] * 4 + [_int_unary, _int_reduce] + SHARED


def draw_graph(builder, seed: int, data_type: str):
    """The graph of ``seed`` on ``builder``: (outputs by name, inputs by name). A step the spec does
    not allow for the type is drawn again; a call the context does not claim raises."""
    from webnn_bridge.ops.core import WebNNTypeError

    d = Draw(builder, seed, data_type)
    rng = d.rng
    for i in range(rng.randint(1, 2)):
        shape = [rng.randint(1, 4) for _ in range(rng.randint(0, 4))]
        if d.np_dt.kind == "f":
            data = d.np_rng.uniform(-2, 2, size=shape)
        elif rng.random() < 0.2:  # anywhere in the type's range: overflow wraps, as the reference's
            info = np.iinfo(d.np_dt)
            data = d.np_rng.integers(info.min, info.max, size=shape, dtype=d.np_dt, endpoint=True)
        else:
            data = d.np_rng.integers(0 if data_type.startswith("u") else -4, 5, size=shape)
        data = np.asarray(data).astype(d.np_dt)
        desc = {"dataType": data_type, "shape": shape}
        if rng.random() < 0.25:  # the same data as a constant: runtimes fold constants their own way
            d.pool.append(builder.constant(desc, data))
        else:
            d.pool.append(builder.input(f"in{i}", desc))
            d.feeds[f"in{i}"] = data
    d.sources = len(d.pool)
    steps = FLOAT_STEPS if data_type in FLOAT_TYPES else INT_STEPS
    for _ in range(rng.randint(3, 12)):
        for attempt in range(8):
            x = d.pick()
            try:
                d.pool.append(rng.choice(steps)(d, x, list(x.shape)))
                break
            except WebNNTypeError as e:  # the spec's type table leaves this step out for the type
                if _NOT_CLAIMED in str(e) or "unsupported data type" not in str(e) or attempt == 7:
                    raise
    made = d.pool[d.sources:]
    outputs = {"out": made[-1]}
    if rng.random() < 0.4 and len(made) > 1:
        outputs["mid"] = made[rng.randrange(len(made) - 1)]
    return outputs, d.feeds


# --------------------------------------------------------------------------- running and comparing


@dataclass
class Finding:
    seed: int
    data_type: str
    backend: str
    what: str

    def __str__(self) -> str:
        return f"seed {self.seed} {self.data_type} on {self.backend}: {self.what}"


def contexts(backends: Sequence[str] | None = None) -> dict:
    """One context per CPU backend of this machine by backend name (the reference first), and one
    per GPU or NPU device by its id (``torch:cuda:0``). ``backends``: backend names or device ids."""
    from webnn_bridge.bridge.api import ML

    found: dict = {}
    for dev in ML().inventory:
        key = dev.backend if dev.kind == "cpu" else dev.id
        if key not in found and (backends is None or key in backends or dev.backend in backends
                                 or dev.backend == "reference"):
            found[key] = ML([dev]).createContext()
    return dict(sorted(found.items(), key=lambda kv: kv[0] != "reference"))


def run_seed(seed: int, data_type: str, ctxs: Mapping) -> dict[str, dict | Exception | None]:
    """Each backend's outputs for the graph of ``seed`` (None: the backend does not claim what the
    graph uses; an exception: building or computing failed)."""
    from webnn_bridge.bridge.api import MLGraphBuilder

    results: dict = {}
    for name, ctx in ctxs.items():
        try:
            builder = MLGraphBuilder(ctx)
            outputs, feeds = draw_graph(builder, seed, data_type)
            graph = builder.build(outputs)
        except Exception as e:  # noqa: BLE001 - reported below
            results[name] = None if name != "reference" and _NOT_CLAIMED in str(e) else e
            continue
        results[name] = _compute(ctx, graph, feeds)
    return results


def _compute(ctx, graph, feeds):
    try:
        return ctx.compute(graph, {k: v for k, v in feeds.items() if k in graph.ir.inputs})
    except Exception as e:  # noqa: BLE001
        return e
    finally:
        graph.destroy()


def differences(expected: Mapping[str, np.ndarray], got: Mapping[str, np.ndarray]) -> list[str]:
    out = []
    for name, r in expected.items():
        a = got[name]
        if a.shape != r.shape or a.dtype != r.dtype:
            out.append(f"{name}: {a.dtype}{list(a.shape)}, expected {r.dtype}{list(r.shape)}")
            continue
        if r.dtype.kind in "iub":
            bad = a != r
        else:
            r64, a64 = r.astype(np.float64), a.astype(np.float64)
            finite = np.abs(r64[np.isfinite(r64)])
            scale = max(1.0, float(finite.max())) if finite.size else 1.0
            rtol, atol = (5e-3, 3e-3 * scale) if r.dtype == np.float16 else (1e-4, 1e-4 * scale)
            bad = ~np.isclose(a64, r64, rtol=rtol, atol=atol, equal_nan=True)
        if bad.any():
            i = int(np.argmax(bad))
            out.append(f"{name}: {int(bad.sum())} of {r.size} differ, e.g. {a.flat[i]!r} (expected {r.flat[i]!r})")
    return out


def check(seed: int, data_type: str, ctxs: Mapping, ran: dict[str, int] | None = None) -> list[Finding]:
    """What differs from the reference on each backend for the graph of ``seed``. ``ran``, when
    given, counts the graphs each backend ran (one that does not claim what a graph uses sits it
    out)."""
    results = run_seed(seed, data_type, ctxs)
    ref = results.pop("reference")
    if isinstance(ref, Exception):  # the generator drew something the spec refuses: its own bug
        return [Finding(seed, data_type, "reference", f"{type(ref).__name__}: {ref}")]
    findings = []
    for name, got in results.items():
        if got is None:
            continue
        if ran is not None:
            ran[name] = ran.get(name, 0) + 1
        if isinstance(got, Exception):
            findings.append(Finding(seed, data_type, name, f"{type(got).__name__}: {str(got)[:300]}"))
        else:
            findings.extend(Finding(seed, data_type, name, w) for w in differences(ref, got))
    return findings


def describe(seed: int, data_type: str, ctxs: Mapping) -> str:
    """The graph of ``seed`` (its operators and options) and every backend's outputs."""
    from webnn_bridge.bridge.api import MLGraphBuilder

    builder = MLGraphBuilder(ctxs["reference"])
    outputs, feeds = draw_graph(builder, seed, data_type)
    graph = builder.build(outputs)
    lines = [f"seed {seed} {data_type}: inputs " + ", ".join(f"{k} {list(v.shape)}" for k, v in feeds.items())]
    for node in graph.ir.nodes:
        options = {k: v for k, v in node.call.options.items() if k != "label"}
        shapes = [list(graph.ir.operands[o].shape) for o in node.outputs]
        lines.append(f"  {node.op}({', '.join(map(str, node.call.args.values()))}) {options} -> {node.outputs} {shapes}")
    graph.destroy()
    for name, got in run_seed(seed, data_type, ctxs).items():
        shown = got if not isinstance(got, dict) else {k: np.round(v.astype(np.float64), 5).tolist()
                                                      for k, v in got.items()}
        lines.append(f"  {name}: {shown!r}"[:2000])
    return "\n".join(lines)


def _seed_range(text: str) -> range:
    lo, _, hi = text.partition(":")
    return range(int(lo), int(hi)) if hi else range(int(lo), int(lo) + 1)


def main(argv: list[str] | None = None, out: Callable[[str], None] = print) -> int:
    p = argparse.ArgumentParser(prog="webnn-bridge fuzz", description=__doc__.splitlines()[0])
    p.add_argument("--seeds", default="0:200", help="seeds START:END (default 0:200)")
    p.add_argument("--type", dest="data_type", choices=TYPES, default="float32", help="the graphs' data type")
    p.add_argument("--backends", help="comma-separated backends (CPU) or device ids (GPU, NPU) to compare "
                                      "(default: all present)")
    p.add_argument("--show", type=int, metavar="SEED", help="print one graph and every backend's outputs")
    p.add_argument("--trace", action="store_true",
                   help="print each seed to stderr before running it (a runtime that crashes the process "
                        "leaves its seed as the last line)")
    args = p.parse_args(argv)
    faulthandler.enable()  # a runtime's crash prints where it happened
    ctxs = contexts(args.backends.split(",") if args.backends else None)
    if len(ctxs) < 2:
        out("webnn-bridge fuzz: no backend besides the reference to compare")
        return 2
    if args.show is not None:
        out(describe(args.show, args.data_type, ctxs))
        return 0
    seeds = _seed_range(args.seeds)
    found = 0
    ran: dict[str, int] = {}
    for seed in seeds:
        if args.trace:
            print(f"seed {seed}", file=sys.stderr, flush=True)
        for f in check(seed, args.data_type, ctxs, ran):
            found += 1
            out(str(f))
    # (each backend with the number of graphs it ran: the others used what it does not claim)
    out(f"{len(seeds)} graphs ({args.data_type}) on "
        f"{', '.join(f'{k} ({ran.get(k, 0)})' for k in ctxs if k != 'reference')}: "
        f"{found} difference(s) from the reference")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
