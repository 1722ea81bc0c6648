"""Recurrent networks: gruCell, gru, lstmCell, lstm.

The cell math is written once against a tiny tensor-ops interface with three implementations: numpy
(the reference), ONNX node emission (the lowering) and Core ML MIL ops (its lowering), so every
backend unrolls exactly the same computation; the ONNX lowering emits ONNX's own LSTM/GRU operator
instead wherever the call maps onto it exactly (see "ONNX's own LSTM / GRU" below). Everything runs in float32 (float16 operands are widened and the outputs rounded).

gru gates (layout "zrn": update z, reset r, new n; "rzn" swaps z and r):
    z = f(x·Wzᵀ + bz + h·Rzᵀ + rbz);  r = f(x·Wrᵀ + br + h·Rrᵀ + rbr)
    n = g(x·Wnᵀ + bn + r ⊙ (h·Rnᵀ + rbn))      resetAfter (default)
    n = g(x·Wnᵀ + bn + (r ⊙ h)·Rnᵀ + rbn)      otherwise
    h' = (1 - z) ⊙ n + z ⊙ h
lstm gates (layout "iofg" or "ifgo"; peepholeWeight is [i, o, f] blocks):
    i = f(x·Wiᵀ + bi + h·Riᵀ + rbi + pi ⊙ c);  fg = f(... + pf ⊙ c);  g = g(...)
    c' = fg ⊙ c + i ⊙ g;  o = f(... + po ⊙ c');  h' = o ⊙ h(c')
Sequences: step s of direction d reads input[s] (forward) or input[steps-1-s] (backward); the
sequence output holds, at index t, each direction's hidden state after it read input[t] (the
spec's emulation appends forward states and prepends backward ones).
"""

from __future__ import annotations

import numpy as np

from ..core import FLOAT_TYPES, WebNNTypeError
from ..registry import Call, Limits, OpDef, attach_coreml, attach_torch, register, same_as
from ._common import dtype_name, lower_sigmoid

F = FLOAT_TYPES
GRU_GATES = {"zrn": ("z", "r", "n"), "rzn": ("r", "z", "n")}
LSTM_GATES = {"iofg": ("i", "o", "f", "g"), "ifgo": ("i", "f", "g", "o")}
PEEPHOLE = ("i", "o", "f")


# --------------------------------------------------------------------------- tensor-op backends


class _Np:
    def __init__(self):
        pass

    def f32(self, a):
        return None if a is None else np.asarray(a, np.float32)

    def rows(self, w, start, stop):
        return w[start:stop]

    def cols(self, a, sizes):  # a split along its last axis
        ends = np.cumsum(sizes)
        return [a[:, e - n:e] for n, e in zip(sizes, ends)]

    def pick(self, w, d):  # w[d] of a per-direction operand
        return None if w is None else w[d]

    def step(self, x, t):
        return x[t]

    def xwt(self, x, w):
        return x @ w.T

    def add(self, a, b):
        return a + b

    def sub(self, a, b):
        return a - b

    def mul(self, a, b):
        return a * b

    def one_minus(self, a):
        return np.float32(1) - a

    def act(self, kind, a):
        if kind == "sigmoid":
            return np.float32(1) / (np.float32(1) + np.exp(-a))
        if kind == "tanh":
            return np.tanh(a)
        return np.maximum(a, np.float32(0))

    def zeros(self, shape):
        return np.zeros(shape, np.float32)

    def stack(self, items):
        return np.stack(items)


class _Onnx:
    def __init__(self, lb):
        self.lb = lb

    def f32(self, a):
        return None if a is None else self.lb.cast(a, "float32")

    def rows(self, w, start, stop):
        lb = self.lb
        return lb.node("Slice", [w, lb.ints([start]), lb.ints([stop]), lb.ints([0])])

    def cols(self, a, sizes):
        return self.lb.node("Split", [a, self.lb.ints(sizes)], n_out=len(sizes), axis=1)

    def pick(self, w, d):
        if w is None:
            return None
        lb = self.lb
        return lb.node("Gather", [w, lb.const(np.array(d, np.int64))], axis=0)

    step = pick

    def xwt(self, x, w):
        return self.lb.node("Gemm", [x, w], transB=1)

    def add(self, a, b):
        return self.lb.node("Add", [a, b])

    def sub(self, a, b):
        return self.lb.node("Sub", [a, b])

    def mul(self, a, b):
        return self.lb.node("Mul", [a, b])

    def one_minus(self, a):
        return self.lb.node("Sub", [self.lb.scalar(1.0, "float32"), a])

    def act(self, kind, a):
        if kind == "sigmoid":
            return lower_sigmoid(self.lb, a)
        return self.lb.node({"tanh": "Tanh", "relu": "Relu"}[kind], [a])

    def zeros(self, shape):
        return self.lb.const(np.zeros(shape, np.float32))

    def stack(self, items):
        lb = self.lb
        parts = [lb.node("Unsqueeze", [i, lb.ints([0])]) for i in items]
        return parts[0] if len(parts) == 1 else lb.node("Concat", parts, axis=0)


class _Mil:
    def __init__(self, mb):
        self.mb = mb

    def f32(self, a):
        return a if a is None or self.mb.webnn_type(a) == "float32" else self.mb.cast(x=a, dtype="fp32")

    def rows(self, w, start, stop):
        rest = [int(d) for d in w.shape[1:]]
        return self.mb.slice_by_index(x=w, begin=[start] + [0] * len(rest), end=[stop] + rest)

    def cols(self, a, sizes):
        return list(self.mb.split(x=a, split_sizes=list(sizes), axis=1))

    def pick(self, w, d):
        return None if w is None else self.mb.gather(x=w, indices=np.int32(d), axis=0)

    step = pick

    def xwt(self, x, w):
        return self.mb.matmul(x=x, y=w, transpose_y=True)

    def add(self, a, b):
        return self.mb.add(x=a, y=b)

    def sub(self, a, b):
        return self.mb.sub(x=a, y=b)

    def mul(self, a, b):
        return self.mb.mul(x=a, y=b)

    def one_minus(self, a):
        return self.mb.sub(x=np.float32(1), y=a)

    def act(self, kind, a):
        return getattr(self.mb, kind)(x=a)  # sigmoid, tanh, relu

    def zeros(self, shape):
        return self.mb.const(val=np.zeros(shape, np.float32))

    def stack(self, items):
        return self.mb.stack(values=list(items), axis=0)


# --------------------------------------------------------------------------- cells


def _gates(T, w, names, h):
    return {n: T.rows(w, k * h, (k + 1) * h) for k, n in enumerate(names)}


def _lin(T, x, w, b):
    y = T.xwt(x, w)
    return y if b is None else T.add(y, b)


# Every gate's x·Wᵀ (and h·Rᵀ) comes from one product with the whole weight, split afterwards: each
# element is the same dot product as with the gate's rows alone, in a handful of nodes instead of
# a product, a bias and a slice per gate (a small graph's run costs per node). Gates that share an
# activation and sit side by side in the layout are activated together, then split.


def _gru_cell(T, x, h, W, R, b, rb, hidden, layout, reset_after, acts):
    names = GRU_GATES[layout]  # z and r come first in both layouts, n last
    f, g = acts
    xw = T.cols(_lin(T, x, W, b), [2 * hidden, hidden])
    if reset_after:
        hr = T.cols(_lin(T, h, R, rb), [2 * hidden, hidden])
    else:  # n's recurrent product needs r first
        hr = [_lin(T, h, T.rows(R, 0, 2 * hidden), None if rb is None else T.rows(rb, 0, 2 * hidden)), None]
    gates = dict(zip(names[:2], T.cols(T.act(f, T.add(xw[0], hr[0])), [hidden, hidden])))
    z, r = gates["z"], gates["r"]
    if reset_after:
        n_in = T.add(xw[1], T.mul(r, hr[1]))
    else:
        rn = None if rb is None else T.rows(rb, 2 * hidden, 3 * hidden)
        n_in = T.add(xw[1], _lin(T, T.mul(r, h), T.rows(R, 2 * hidden, 3 * hidden), rn))
    n = T.act(g, n_in)
    return T.add(T.mul(T.one_minus(z), n), T.mul(z, h))


def _lstm_cell(T, x, h, c, W, R, b, rb, p, hidden, layout, acts):
    names = LSTM_GATES[layout]
    pg = _gates(T, p, PEEPHOLE, hidden) if p is not None else dict.fromkeys(PEEPHOLE)
    fa, ga, ha = acts
    pre = T.add(_lin(T, x, W, b), _lin(T, h, R, rb))  # every gate's pre-activation, side by side
    if p is None and layout == "iofg":  # i, o, f: one activation
        iof, g_in = T.cols(pre, [3 * hidden, hidden])
        i, o, fg = T.cols(T.act(fa, iof), [hidden] * 3)
        g = T.act(ga, g_in)
        c2 = T.add(T.mul(fg, c), T.mul(i, g))
        return T.mul(o, T.act(ha, c2)), c2
    gate = dict(zip(names, T.cols(pre, [hidden] * 4)))
    i_in, f_in = gate["i"], gate["f"]
    if pg["i"] is not None:
        i_in, f_in = T.add(i_in, T.mul(pg["i"], c)), T.add(f_in, T.mul(pg["f"], c))
    i, fg, g = T.act(fa, i_in), T.act(fa, f_in), T.act(ga, gate["g"])
    c2 = T.add(T.mul(fg, c), T.mul(i, g))
    o_in = gate["o"]
    if pg["o"] is not None:
        o_in = T.add(o_in, T.mul(pg["o"], c2))
    o = T.act(fa, o_in)
    return T.mul(o, T.act(ha, c2)), c2


# --------------------------------------------------------------------------- validation


def _acts(call: Call, n: int, default):
    a = call["activations"]
    a = list(default) if a is None else list(a)
    if len(a) != n:
        raise WebNNTypeError(f"activations must have {n} values, got {len(a)}.")
    return a


def _expect(call: Call, name: str, shape) -> None:
    d = call[name]
    if d is not None and tuple(d.shape) != tuple(shape):
        raise WebNNTypeError(f"{name} shape {list(d.shape)} must be {list(shape)}.")


def _check_hidden(hidden: int) -> None:
    if hidden <= 0:
        raise WebNNTypeError("hiddenSize must be greater than 0.")


def _gru_cell_infer(call: Call):
    x, hidden = call["input"], call["hiddenSize"]
    _check_hidden(hidden)
    b, i = x.shape
    _acts(call, 2, ("sigmoid", "tanh"))
    _expect(call, "weight", (3 * hidden, i))
    _expect(call, "recurrentWeight", (3 * hidden, hidden))
    _expect(call, "hiddenState", (b, hidden))
    _expect(call, "bias", (3 * hidden,))
    _expect(call, "recurrentBias", (3 * hidden,))
    return [x.with_shape((b, hidden))]


def _lstm_cell_infer(call: Call):
    x, hidden = call["input"], call["hiddenSize"]
    _check_hidden(hidden)
    b, i = x.shape
    _acts(call, 3, ("sigmoid", "tanh", "tanh"))
    _expect(call, "weight", (4 * hidden, i))
    _expect(call, "recurrentWeight", (4 * hidden, hidden))
    _expect(call, "hiddenState", (b, hidden))
    _expect(call, "cellState", (b, hidden))
    _expect(call, "bias", (4 * hidden,))
    _expect(call, "recurrentBias", (4 * hidden,))
    _expect(call, "peepholeWeight", (3 * hidden,))
    return [x.with_shape((b, hidden)), x.with_shape((b, hidden))]


def _num_dirs(call: Call) -> int:
    return 2 if call.get("direction", "forward") == "both" else 1


def _seq_common(call: Call, gates: int):
    x, steps, hidden = call["input"], call["steps"], call["hiddenSize"]
    _check_hidden(hidden)
    if steps <= 0:
        raise WebNNTypeError("steps must be greater than 0.")
    if x.shape[0] != steps:
        raise WebNNTypeError(f"steps {steps} must equal the input's first dimension {x.shape[0]}.")
    _, b, i = x.shape
    d = _num_dirs(call)
    _expect(call, "weight", (d, gates * hidden, i))
    _expect(call, "recurrentWeight", (d, gates * hidden, hidden))
    _expect(call, "bias", (d, gates * hidden))
    _expect(call, "recurrentBias", (d, gates * hidden))
    _expect(call, "initialHiddenState", (d, b, hidden))
    return x, steps, hidden, b, d


def _gru_infer(call: Call):
    x, steps, hidden, b, d = _seq_common(call, 3)
    _acts(call, 2, ("sigmoid", "tanh"))
    outs = [x.with_shape((d, b, hidden))]
    if call["returnSequence"]:
        outs.append(x.with_shape((steps, d, b, hidden)))
    return outs


def _lstm_infer(call: Call):
    x, steps, hidden, b, d = _seq_common(call, 4)
    _acts(call, 3, ("sigmoid", "tanh", "tanh"))
    _expect(call, "peepholeWeight", (d, 3 * hidden))
    _expect(call, "initialCellState", (d, b, hidden))
    outs = [x.with_shape((d, b, hidden)), x.with_shape((d, b, hidden))]
    if call["returnSequence"]:
        outs.append(x.with_shape((steps, d, b, hidden)))
    return outs


# --------------------------------------------------------------------------- shared run (both backends)


def _run_gru_cell(T, call: Call):
    g = T.f32
    return [_gru_cell(T, g(call["input"]), g(call["hiddenState"]), g(call["weight"]), g(call["recurrentWeight"]),
                      g(call["bias"]), g(call["recurrentBias"]), call["hiddenSize"], call.get("layout", "zrn"),
                      call.get("resetAfter", True), _acts(call, 2, ("sigmoid", "tanh")))]


def _run_lstm_cell(T, call: Call):
    g = T.f32
    return list(_lstm_cell(T, g(call["input"]), g(call["hiddenState"]), g(call["cellState"]), g(call["weight"]),
                           g(call["recurrentWeight"]), g(call["bias"]), g(call["recurrentBias"]),
                           g(call["peepholeWeight"]), call["hiddenSize"], call.get("layout", "iofg"),
                           _acts(call, 3, ("sigmoid", "tanh", "tanh"))))


def _run_seq(T, call: Call, batch: int, lstm: bool):
    g = T.f32
    steps, hidden = call["steps"], call["hiddenSize"]
    direction = call.get("direction", "forward")
    ndir = 2 if direction == "both" else 1
    x = g(call["input"])
    W, R, B, RB = g(call["weight"]), g(call["recurrentWeight"]), g(call["bias"]), g(call["recurrentBias"])
    H0 = g(call["initialHiddenState"])
    C0 = g(call["initialCellState"]) if lstm else None
    P = g(call["peepholeWeight"]) if lstm else None
    acts = _acts(call, 3, ("sigmoid", "tanh", "tanh")) if lstm else _acts(call, 2, ("sigmoid", "tanh"))
    per = []
    for d in range(ndir):
        per.append(dict(W=T.pick(W, d), R=T.pick(R, d), B=T.pick(B, d), RB=T.pick(RB, d), P=T.pick(P, d) if lstm else None,
                        h=T.pick(H0, d) if H0 is not None else T.zeros((batch, hidden)),
                        c=(T.pick(C0, d) if C0 is not None else T.zeros((batch, hidden))) if lstm else None,
                        backward=(d == 1 or direction == "backward"), seq=[None] * steps))
    for s in range(steps):
        for st in per:
            t = steps - 1 - s if st["backward"] else s
            xt = T.step(x, t)
            if lstm:
                st["h"], st["c"] = _lstm_cell(T, xt, st["h"], st["c"], st["W"], st["R"], st["B"], st["RB"], st["P"],
                                              hidden, call.get("layout", "iofg"), acts)
            else:
                st["h"] = _gru_cell(T, xt, st["h"], st["W"], st["R"], st["B"], st["RB"], hidden,
                                    call.get("layout", "zrn"), call.get("resetAfter", True), acts)
            st["seq"][t] = st["h"]
    outs = [T.stack([st["h"] for st in per])]
    if lstm:
        outs.append(T.stack([st["c"] for st in per]))
    if call["returnSequence"]:
        # the sequence is indexed by input time step: a backward direction's state after reading
        # input[t] is at t (the spec's emulation prepends each backward step)
        outs.append(T.stack([T.stack([st["seq"][t] for st in per]) for t in range(steps)]))
    return outs


def _ref(run):
    def reference(call: Call):
        dt = call["input"].dtype
        with np.errstate(all="ignore"):
            return [np.asarray(o).astype(dt) for o in run(_Np(), call)]

    return reference


# --------------------------------------------------------------------------- ONNX's own LSTM / GRU
# A WebNN gru/lstm (or a cell: a one-step, forward sequence) maps exactly onto ONNX's GRU/LSTM
# operator: one node instead of a dozen per step and direction (a small graph's run costs per node,
# notably in onnxruntime-web's wasm build). ONNX's gate orders are LSTM i, o, f, c (WebNN "iofg")
# and GRU z, r, h (WebNN "zrn"); the other layouts have their weight and bias rows gathered into
# that order. B is [Wb, Rb] per direction (an absent one zeros), linear_before_reset is
# resetAfter, and Y (layout 0: [steps, directions, batch, hidden]) holds a reverse direction's
# state after it read X[t] at t, as WebNN's sequence does. Everything runs in float32, as the
# unrolled cells do (ONNX Runtime's CPU LSTM/GRU kernels are float32 only).
# What does not map keeps the unrolled cells: an activation missing from _ONNX_ACT (none WebNN has
# today), and an lstm with peepholeWeight. ONNX's P is [i, o, f] like peepholeWeight and ONNX
# Runtime computes it right, but OpenVINO (2026.4) consumes this same ONNX and its LSTM import
# gets a constant P wrong (near the peephole-less result) and fails to run with a P input.

_ONNX_ACT = {"sigmoid": "Sigmoid", "tanh": "Tanh", "relu": "Relu"}
_ONNX_DIRECTION = {"forward": "forward", "backward": "reverse", "both": "bidirectional"}
# each WebNN layout's gate blocks, in ONNX's gate order (None: already in it)
_ONNX_GATE_ORDER = {"iofg": None, "ifgo": (0, 3, 1, 2), "zrn": None, "rzn": (1, 0, 2)}


def _onnx_gates(lb, w, layout: str, hidden: int, axis: int):
    """w's gate blocks along ``axis`` reordered into ONNX's gate order."""
    order = _ONNX_GATE_ORDER[layout]
    if w is None or order is None:
        return w
    rows = np.concatenate([np.arange(k * hidden, (k + 1) * hidden) for k in order]).astype(np.int64)
    return lb.node("Gather", [w, lb.const(rows, "gate_rows")], axis=axis)


def _onnx_rnn(lb, call: Call, lstm: bool, cell: bool):
    """ONNX's LSTM/GRU node for a WebNN lstm/gru (cell: lstmCell/gruCell), or None where the call
    does not map onto it; returns WebNN's outputs in float32."""
    acts = _acts(call, 3, ("sigmoid", "tanh", "tanh")) if lstm else _acts(call, 2, ("sigmoid", "tanh"))
    if any(a not in _ONNX_ACT for a in acts) or (lstm and call["peepholeWeight"] is not None):
        return None
    hidden = call["hiddenSize"]
    gates = 4 if lstm else 3
    layout = call.get("layout", "iofg" if lstm else "zrn")
    direction = "forward" if cell else call.get("direction", "forward")
    ndir = 2 if direction == "both" else 1
    T = _Onnx(lb)
    lead = (lambda v: None if v is None else lb.node("Unsqueeze", [v, lb.ints([0])])) if cell else (lambda v: v)
    x = lead(T.f32(call["input"]))
    w_axis = 0 if cell else 1  # the gate rows of a weight or bias
    W, R = (lead(_onnx_gates(lb, T.f32(call[n]), layout, hidden, w_axis)) for n in ("weight", "recurrentWeight"))
    b, rb = (lead(_onnx_gates(lb, T.f32(call[n]), layout, hidden, w_axis)) for n in ("bias", "recurrentBias"))
    B = None
    if b is not None or rb is not None:
        zeros = T.zeros((ndir, gates * hidden))
        B = lb.node("Concat", [zeros if b is None else b, zeros if rb is None else rb], axis=1)
    h0 = lead(T.f32(call["hiddenState" if cell else "initialHiddenState"]))
    ins = [x, W, R, B, None, h0]
    if lstm:
        ins.append(lead(T.f32(call["cellState" if cell else "initialCellState"])))
    while ins[-1] is None:
        ins.pop()
    want_seq = not cell and bool(call["returnSequence"])
    outs = [lb.fresh("Y") if want_seq else "", lb.fresh("Y_h")] + ([lb.fresh("Y_c")] if lstm else [])
    default = ("sigmoid", "tanh", "tanh") if lstm else ("sigmoid", "tanh")
    attrs = {"hidden_size": hidden, "direction": _ONNX_DIRECTION[direction],
             "activations": None if tuple(acts) == default else [_ONNX_ACT[a] for a in acts] * ndir}
    if not lstm:
        attrs["linear_before_reset"] = 1 if call.get("resetAfter", True) else 0
    from onnx import helper  # lb.node names every output; Y is left out where WebNN has no use for it

    lb.nodes.append(helper.make_node("LSTM" if lstm else "GRU", ["" if i is None else i for i in ins], outs,
                                     **{k: v for k, v in attrs.items() if v is not None}))
    for o in outs:
        if o:
            lb.dtypes[o] = "float32"
    states = outs[1:]  # Y_h (, Y_c)
    if cell:
        return [lb.node("Squeeze", [s, lb.ints([0])]) for s in states]
    return states + ([outs[0]] if want_seq else [])


def _low_native(run, lstm: bool, cell: bool):
    def lower(lb, call: Call):
        dt = lb.dtype(call["input"])
        outs = _onnx_rnn(lb, call, lstm, cell)
        if outs is None:
            outs = run(_Onnx(lb), call)
        return [lb.cast(o, dt) for o in outs]

    return lower


def _seq_run(lstm: bool):
    def run(T, call: Call):
        x = call["input"]
        batch = x.shape[1] if hasattr(x, "shape") else T.lb.shape(x)[1]
        return _run_seq(T, call, batch, lstm)

    return run


def _tol(ulp32: int, ulp16: int):
    def tol(call: Call, data_type: str | None = None):
        dt = data_type or dtype_name(call["input"])
        return ("ulp", ulp16 if dt == "float16" else ulp32)

    return tol


def _lim(rank):
    return Limits(types=F, ranks=(rank, rank), required_types=F, required_ranks=(rank, rank))


def _same(rank):
    return same_as("input", same_rank=False, ranks=(rank, rank))


register(
    OpDef(
        name="gruCell",
        limits={"input": _lim(2), "weight": _same(2), "recurrentWeight": _same(2), "hiddenState": _same(2),
                "bias": _same(1), "recurrentBias": _same(1), "output": _same(2)},
        infer=_gru_cell_infer, reference=_ref(_run_gru_cell), lower=_low_native(_run_gru_cell, False, True),
        tolerance=_tol(3, 3), doc="One GRU step.",
    ),
    OpDef(
        name="lstmCell",
        limits={"input": _lim(2), "weight": _same(2), "recurrentWeight": _same(2), "hiddenState": _same(2),
                "cellState": _same(2), "bias": _same(1), "recurrentBias": _same(1), "peepholeWeight": _same(1),
                "output0": _same(2), "output1": _same(2)},
        outputs=("output0", "output1"),
        infer=_lstm_cell_infer, reference=_ref(_run_lstm_cell), lower=_low_native(_run_lstm_cell, True, True),
        tolerance=_tol(3, 3), doc="One LSTM step: [hiddenState, cellState].",
    ),
    OpDef(
        name="gru",
        limits={"input": _lim(3), "weight": _same(3), "recurrentWeight": _same(3), "bias": _same(2),
                "recurrentBias": _same(2), "initialHiddenState": _same(3), "output0": _same(3), "output1": _same(4)},
        outputs=("output0", "output1"),
        infer=_gru_infer, reference=_ref(_seq_run(False)), lower=_low_native(_seq_run(False), False, False),
        tolerance=_tol(3, 3), doc="GRU over steps: [hidden, (sequence)].",
    ),
    OpDef(
        name="lstm",
        limits={"input": _lim(3), "weight": _same(3), "recurrentWeight": _same(3), "bias": _same(2),
                "recurrentBias": _same(2), "peepholeWeight": _same(2), "initialHiddenState": _same(3),
                "initialCellState": _same(3), "output0": _same(3), "output1": _same(3), "output2": _same(4)},
        outputs=("output0", "output1", "output2"),
        infer=_lstm_infer, reference=_ref(_seq_run(True)), lower=_low_native(_seq_run(True), True, False),
        tolerance=_tol(3, 3), doc="LSTM over steps: [hidden, cell, (sequence)].",
    ),
)


def _mil(run):
    def lower(mb, call: Call):
        f16 = mb.webnn_type(call["input"]) == "float16"
        return [mb.cast(x=o, dtype="fp16") if f16 else o for o in run(_Mil(mb), call)]

    return lower


attach_coreml({"gruCell": _mil(_run_gru_cell), "lstmCell": _mil(_run_lstm_cell), "gru": _mil(_seq_run(False)),
               "lstm": _mil(_seq_run(True))})


# --------------------------------------------------------------------------- PyTorch
# The same unrolled cells on torch tensors in float32 (float16 widened, rounded once by the backend).


class _Torch(_Np):
    def __init__(self, tb):
        self.tb = tb
        self.torch = tb.torch

    def f32(self, a):
        return None if a is None else a.float()

    def xwt(self, x, w):
        return x @ w.t()

    def one_minus(self, a):
        return 1.0 - a

    def act(self, kind, a):
        if kind == "sigmoid":
            return 1.0 / (1.0 + self.torch.exp(-a))
        if kind == "tanh":
            return self.torch.tanh(a)
        return self.torch.clamp_min(a, 0.0)

    def zeros(self, shape):
        return self.torch.zeros(shape, dtype=self.torch.float32, device=self.tb.device)

    def stack(self, items):
        return self.torch.stack(list(items))


def _torch_rnn(run):
    return lambda tb, call: list(run(_Torch(tb), call))


attach_torch({"gruCell": _torch_rnn(_run_gru_cell), "lstmCell": _torch_rnn(_run_lstm_cell),
              "gru": _torch_rnn(_seq_run(False)), "lstm": _torch_rnn(_seq_run(True))})
