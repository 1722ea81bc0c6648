"""gru, lstm, gruCell and lstmCell lowered to ONNX's own GRU / LSTM operators (ops/defs/rnn.py,
_onnx_rnn): one node instead of the unrolled cells wherever the WebNN call maps onto it exactly.

A grid of calls (both layouts, every direction, with and without biases, peepholes and initial
states, returnSequence on and off, one and several steps, batch 1 and 3, float32 and float16) runs
on ONNX Runtime (and a part of it on OpenVINO, which consumes the same ONNX) and is compared with
the numpy reference; the lowered model must hold an LSTM/GRU node exactly where the call maps
(an lstm with peepholeWeight does not: OpenVINO's ONNX import gets ONNX's P wrong).

Tolerances: float16 outputs within the op's own tolerance (OpDef.tolerance, ULP); float32 outputs
within the capability sweep's CPU tolerance (rtol 1e-5, atol 1e-6): the op's 3 ULP do not hold for
float32 values near 0 with either lowering (the reference sums its products in another order).
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.ops._util import ORT, REF, run
from webnn_bridge.backends.onnx_lowering import lower_graph
from webnn_bridge.backends.onnxruntime import supported_ir_version
from webnn_bridge.bridge.api import ML, MLGraphBuilder
from webnn_bridge.ops.defs import rnn
from webnn_bridge.ops.registry import load_all

F32_TOL = {"rtol": 1e-5, "atol": 1e-6}
INPUT_SIZE = 4
HIDDEN = 5

# L8 orthogonal array: 8 rows over 7 two-level factors, every pair of factors sees all 4 pairs
L8 = [
    (0, 0, 0, 0, 0, 0, 0), (0, 0, 0, 1, 1, 1, 1), (0, 1, 1, 0, 0, 1, 1), (0, 1, 1, 1, 1, 0, 0),
    (1, 0, 1, 0, 1, 0, 1), (1, 0, 1, 1, 0, 1, 0), (1, 1, 0, 0, 1, 1, 0), (1, 1, 0, 1, 0, 0, 1),
]
FACTORS = ("bias", "recurrentBias", "peepholeWeight", "initialHiddenState", "initialCellState", "returnSequence",
           "several_steps")


def _ulp(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance between the sign-magnitude bit patterns (float16 or float32)."""
    bits, mask = (np.int16, 0x7FFF) if a.dtype == np.float16 else (np.int32, 0x7FFFFFFF)

    def sm(x):
        i = x.view(bits).astype(np.int64)
        return np.where(i < 0, -(i & mask), i)

    return np.abs(sm(a) - sm(b))


def assert_close(op: str, got: list, ref: list):
    assert len(got) == len(ref)
    for k, (o, r) in enumerate(zip(got, ref)):
        assert (o.dtype, o.shape) == (r.dtype, r.shape), f"output {k}"
        if r.dtype == np.float16:
            kind, n = load_all()[op].tolerance(None, "float16")
            assert kind == "ulp"
            worst = int(_ulp(o, r).max(initial=0))
            assert worst <= n, f"{op} output {k}: {worst} ULP > {n}"
        else:
            np.testing.assert_allclose(o.astype(np.float64), r.astype(np.float64), **F32_TOL, err_msg=f"{op} output {k}")


def onnx_op_types(build, inputs: dict[str, np.ndarray]) -> list[str]:
    """The op types of the ONNX model that ``build(builder, operands)`` lowers to."""
    b = MLGraphBuilder(REF)
    ops = {n: b.input(n, {"dataType": str(a.dtype), "shape": list(a.shape)}) for n, a in inputs.items()}
    out = build(b, ops)
    outs = out if isinstance(out, list) else [out]
    model, _, _ = lower_graph(b._collect({f"o{i}": o for i, o in enumerate(outs)}), supported_ir_version())
    return [n.op_type for n in model.graph.node]


def _case(op: str, layout: str, direction: str, dt: str, row, batch: int, seed: int, lo=-1.0, hi=1.0):
    """(build, inputs, mappable) for one grid row."""
    f = dict(zip(FACTORS, row))
    lstm = op == "lstm"
    gates = 4 if lstm else 3
    steps = 3 if f["several_steps"] else 1
    nd = 2 if direction == "both" else 1
    rng = np.random.default_rng(seed)

    def r(*shape):
        return rng.uniform(lo, hi, shape).astype(dt)

    inputs = {"x": r(steps, batch, INPUT_SIZE), "w": r(nd, gates * HIDDEN, INPUT_SIZE),
              "r": r(nd, gates * HIDDEN, HIDDEN)}
    shapes = {"bias": (nd, gates * HIDDEN), "recurrentBias": (nd, gates * HIDDEN), "peepholeWeight": (nd, 3 * HIDDEN),
              "initialHiddenState": (nd, batch, HIDDEN), "initialCellState": (nd, batch, HIDDEN)}
    optional = [n for n in shapes if f[n] and (lstm or n not in ("peepholeWeight", "initialCellState"))]
    for n in optional:
        inputs[n] = r(*shapes[n])
    options = {"layout": layout, "direction": direction, "returnSequence": bool(f["returnSequence"])}
    if not lstm:
        options["resetAfter"] = bool(seed % 2)  # both values over the grid
    if seed % 3 == 0:  # relu somewhere, on rows the others leave at the default
        options["activations"] = ["sigmoid", "relu", "tanh"] if lstm else ["sigmoid", "relu"]

    def build(b, o):
        return getattr(b, op)(o["x"], o["w"], o["r"], steps, HIDDEN, {**options, **{n: o[n] for n in optional}})

    mappable = not (lstm and "peepholeWeight" in optional)
    return build, inputs, mappable


def _check(ctx, op, build, inputs, mappable, native="LSTM"):
    types = onnx_op_types(build, inputs)
    assert (native in types) == mappable, types
    if mappable:
        assert "Gemm" not in types, types  # nothing left unrolled
    assert_close(op, run(ctx, build, inputs), run(REF, build, inputs))


GRID = [(op, layout, direction, dt) for op, layouts in (("lstm", ("iofg", "ifgo")), ("gru", ("zrn", "rzn")))
        for layout in layouts for direction in ("forward", "backward", "both") for dt in ("float32", "float16")]


@pytest.mark.parametrize(("op", "layout", "direction", "dt"), GRID, ids=["-".join(p) for p in GRID])
def test_grid_on_onnxruntime(op, layout, direction, dt):
    for k, row in enumerate(L8):
        batch = 3 if row[0] == row[1] else 1
        build, inputs, mappable = _case(op, layout, direction, dt, row, batch, seed=k)
        _check(ORT, op, build, inputs, mappable, native=op.upper())


@pytest.mark.parametrize("op", ["lstm", "gru"])
@pytest.mark.parametrize("direction", ["forward", "backward", "both"])
def test_saturating_values(op, direction):
    """Weights and inputs in [-5, 5]: gates near 0 and 1, where ONNX Runtime's LSTM/GRU kernels
    use their own sigmoid and tanh."""
    layout = "ifgo" if op == "lstm" else "rzn"
    for k, row in enumerate(L8[:4]):
        build, inputs, mappable = _case(op, layout, direction, "float32", row, 3, seed=100 + k, lo=-5.0, hi=5.0)
        types = onnx_op_types(build, inputs)
        assert (op.upper() in types) == mappable
        np.testing.assert_allclose(run(ORT, build, inputs)[0], run(REF, build, inputs)[0], rtol=1e-5, atol=1e-5)


CELLS = [(op, layout, dt) for op, layouts in (("lstmCell", ("iofg", "ifgo")), ("gruCell", ("zrn", "rzn")))
         for layout in layouts for dt in ("float32", "float16")]


@pytest.mark.parametrize(("op", "layout", "dt"), CELLS, ids=["-".join(p) for p in CELLS])
def test_cells_on_onnxruntime(op, layout, dt):
    lstm = op == "lstmCell"
    gates = 4 if lstm else 3
    for k, (bias, rbias, batch, extra) in enumerate([(0, 0, 1, 0), (1, 0, 3, 1), (0, 1, 3, 0), (1, 1, 1, 1)]):
        rng = np.random.default_rng(k)

        def r(*shape, rng=rng):
            return rng.uniform(-1, 1, shape).astype(dt)

        inputs = {"x": r(batch, INPUT_SIZE), "w": r(gates * HIDDEN, INPUT_SIZE), "r": r(gates * HIDDEN, HIDDEN),
                  "h": r(batch, HIDDEN)}
        if lstm:
            inputs["c"] = r(batch, HIDDEN)
        opt_names = [n for n, on in (("bias", bias), ("recurrentBias", rbias)) if on]
        if lstm and extra and k == 3:
            opt_names.append("peepholeWeight")
        for n in opt_names:
            inputs[n] = r(3 * HIDDEN if n == "peepholeWeight" else gates * HIDDEN)
        options = {"layout": layout}
        if not lstm:
            options["resetAfter"] = not extra
        if extra and k == 1:
            options["activations"] = ["relu", "tanh", "relu"] if lstm else ["relu", "sigmoid"]

        def build(b, o, options=options, opt_names=opt_names):
            states = [o["h"], o["c"]] if lstm else [o["h"]]
            out = getattr(b, op)(o["x"], o["w"], o["r"], *states, HIDDEN, {**options, **{n: o[n] for n in opt_names}})
            return out if isinstance(out, list) else [out]

        _check(ORT, op, build, inputs, "peepholeWeight" not in opt_names, native="LSTM" if lstm else "GRU")


@pytest.mark.parametrize("op", ["lstm", "gru"])
def test_constant_weights(op):
    """Weights as graph constants (the big ones external initializers), in the layout that needs
    its rows gathered: the usual shape of a real model."""
    lstm = op == "lstm"
    gates, hidden, size, steps = (4 if lstm else 3), 16, 8, 2
    rng = np.random.default_rng(5)
    w = rng.uniform(-1, 1, (2, gates * hidden, size)).astype(np.float32)
    rw = rng.uniform(-1, 1, (2, gates * hidden, hidden)).astype(np.float32)
    bias = rng.uniform(-1, 1, (2, gates * hidden)).astype(np.float32)
    x = rng.uniform(-1, 1, (steps, 1, size)).astype(np.float32)
    options = {"layout": "ifgo" if lstm else "rzn", "direction": "both", "returnSequence": True}

    def build(b, o):
        c = lambda a: b.constant({"dataType": "float32", "shape": list(a.shape)}, a)  # noqa: E731
        return getattr(b, op)(o["x"], c(w), c(rw), steps, hidden, {**options, "bias": c(bias)})

    _check(ORT, op, build, {"x": x}, True, native=op.upper())


def test_an_activation_onnx_lacks_keeps_the_unrolled_cells(monkeypatch):
    """Every WebNN activation (relu, sigmoid, tanh) has its ONNX name; one that had none would keep
    the unrolled cells, which must still give the reference's values."""
    monkeypatch.setattr(rnn, "_ONNX_ACT", {"sigmoid": "Sigmoid", "tanh": "Tanh"})
    row = (1, 1, 0, 1, 1, 1, 1)  # biases, initial states, a sequence of several steps
    for op in ("lstm", "gru"):
        for seed in (3, 4):  # 3: relu among the activations (no ONNX name now); 4: the defaults
            # batch 2, a shape no other test builds: no graph compiled with the other lowering is reused
            build, inputs, _ = _case(op, "iofg" if op == "lstm" else "zrn", "both", "float32", row, 2, seed=seed)
            types = onnx_op_types(build, inputs)
            assert (op.upper() in types) == (seed == 4), types
            assert_close(op, run(ORT, build, inputs), run(REF, build, inputs))


def test_peephole_keeps_the_unrolled_cells():
    build, inputs, mappable = _case("lstm", "iofg", "forward", "float32", (0, 0, 1, 0, 0, 0, 1), 1, seed=3)
    assert not mappable
    types = onnx_op_types(build, inputs)
    assert "LSTM" not in types and "Gemm" in types


def test_silero_like_lstm_is_one_node():
    """An lstm like silero VAD's: batch 1, one step, 128 in, 128 hidden, forward, biases, states."""
    rng = np.random.default_rng(0)
    inputs = {"x": rng.standard_normal((1, 1, 128)).astype(np.float32),
              "h": rng.standard_normal((1, 1, 128)).astype(np.float32),
              "c": rng.standard_normal((1, 1, 128)).astype(np.float32)}
    w, r = (rng.uniform(-0.1, 0.1, (1, 512, 128)).astype(np.float32) for _ in range(2))
    bias, rbias = (rng.uniform(-0.1, 0.1, (1, 512)).astype(np.float32) for _ in range(2))

    def build(b, o):
        c = lambda a: b.constant({"dataType": "float32", "shape": list(a.shape)}, a)  # noqa: E731
        return b.lstm(o["x"], c(w), c(r), 1, 128, {"bias": c(bias), "recurrentBias": c(rbias),
                                                   "initialHiddenState": o["h"], "initialCellState": o["c"]})

    types = onnx_op_types(build, inputs)
    assert types.count("LSTM") == 1 and "Gemm" not in types, types
    assert_close("lstm", run(ORT, build, inputs), run(REF, build, inputs))


# --------------------------------------------------------------------------- OpenVINO (same ONNX)


def _openvino():
    pytest.importorskip("openvino")
    devices = [d for d in ML().inventory if d.id == "openvino:CPU"]
    if not devices:
        pytest.skip("OpenVINO reports no CPU device")
    return ML(devices).createContext()


OV_GRID = [(op, layout, direction) for op, layouts in (("lstm", ("iofg", "ifgo")), ("gru", ("zrn", "rzn")))
           for layout in layouts for direction in ("forward", "backward", "both")]


@pytest.mark.parametrize(("op", "layout", "direction"), OV_GRID, ids=["-".join(p) for p in OV_GRID])
def test_grid_on_openvino(op, layout, direction):
    ov = _openvino()
    for k in (1, 2, 4, 7):  # rows with and without peepholes, biases, states, sequences
        row = L8[k]
        for dt in ("float32", "float16"):
            build, inputs, mappable = _case(op, layout, direction, dt, row, 3 if k % 2 else 1, seed=k)
            _check(ov, op, build, inputs, mappable, native=op.upper())
