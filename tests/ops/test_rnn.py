"""gru, lstm and their cells (src/webnn_bridge/ops/defs/rnn.py): against ONNX Runtime's own GRU/LSTM operators, and every
option, reference against ONNX Runtime; returnSequence is indexed by input time step in every direction."""

from __future__ import annotations

import numpy as np
import pytest

from ._util import FLOATS, both, rand, run_by_backend


def _onnx_rnn(op, x, w, r, b, hidden, **attrs):
    """Run ONNX Runtime's own GRU/LSTM operator (an independent implementation)."""
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper

    from webnn_bridge.backends.onnxruntime import session_options, supported_ir_version

    inits = [numpy_helper.from_array(a, n) for a, n in ((w, "W"), (r, "R"), (b, "B"))]
    node = helper.make_node(op, ["X", "W", "R", "B"], ["Y", "Yh"], hidden_size=hidden, **attrs)
    g = helper.make_graph([node], "g", [helper.make_tensor_value_info("X", TensorProto.FLOAT, list(x.shape))],
                          [helper.make_tensor_value_info(n, TensorProto.FLOAT, None) for n in ("Y", "Yh")], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)])
    m.ir_version = supported_ir_version()
    s = ort.InferenceSession(m.SerializeToString(), session_options(), providers=["CPUExecutionProvider"])
    return s.run(None, {"X": x})


@pytest.mark.parametrize("reset_after", [True, False])
def test_gru_matches_onnx_gru(reset_after):
    steps, batch, inp, hidden = 4, 2, 3, 5
    x, w, r = rand([steps, batch, inp]), rand([1, 3 * hidden, inp], lo=-1, hi=1), rand([1, 3 * hidden, hidden], lo=-1, hi=1)
    bias, rbias = rand([1, 3 * hidden], lo=-1, hi=1), rand([1, 3 * hidden], lo=-1, hi=1)
    opts = {"resetAfter": reset_after, "returnSequence": True}
    got = both(lambda b, o: b.gru(o["x"], o["w"], o["r"], steps, hidden,
                                  {**opts, "bias": o["b"], "recurrentBias": o["rb"]}),
               {"x": x, "w": w, "r": r, "b": bias, "rb": rbias}, atol=1e-5)
    y, yh = _onnx_rnn("GRU", x, w, r, np.concatenate([bias, rbias], 1), hidden,
                      linear_before_reset=1 if reset_after else 0)
    np.testing.assert_allclose(got[0], yh, atol=1e-5)
    np.testing.assert_allclose(got[1], y, atol=1e-5)


def test_lstm_matches_onnx_lstm():
    steps, batch, inp, hidden = 3, 2, 4, 3
    x, w, r = rand([steps, batch, inp]), rand([1, 4 * hidden, inp], lo=-1, hi=1), rand([1, 4 * hidden, hidden], lo=-1, hi=1)
    bias, rbias = rand([1, 4 * hidden], lo=-1, hi=1), rand([1, 4 * hidden], lo=-1, hi=1)
    got = both(lambda b, o: b.lstm(o["x"], o["w"], o["r"], steps, hidden,
                                   {"bias": o["b"], "recurrentBias": o["rb"], "returnSequence": True}),
               {"x": x, "w": w, "r": r, "b": bias, "rb": rbias}, atol=1e-5)
    y, yh = _onnx_rnn("LSTM", x, w, r, np.concatenate([bias, rbias], 1), hidden)  # ONNX gate order is iofc too
    np.testing.assert_allclose(got[0], yh, atol=1e-5)
    np.testing.assert_allclose(got[2], y, atol=1e-5)


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("direction", ["forward", "backward", "both"])
def test_rnn_options_agree(dt, direction):
    steps, batch, inp, hidden = 3, 2, 4, 3
    d = 2 if direction == "both" else 1
    tol = 2e-2 if dt == "float16" else 1e-5
    ins = {"x": rand([steps, batch, inp], dt, -1, 1), "wg": rand([d, 3 * hidden, inp], dt, -1, 1),
           "rg": rand([d, 3 * hidden, hidden], dt, -1, 1), "wl": rand([d, 4 * hidden, inp], dt, -1, 1),
           "rl": rand([d, 4 * hidden, hidden], dt, -1, 1), "p": rand([d, 3 * hidden], dt, -1, 1),
           "h0": rand([d, batch, hidden], dt, -1, 1), "c0": rand([d, batch, hidden], dt, -1, 1)}
    both(lambda b, o: [
        *b.gru(o["x"], o["wg"], o["rg"], steps, hidden,
               {"direction": direction, "layout": "rzn", "initialHiddenState": o["h0"], "returnSequence": True,
                "activations": ["sigmoid", "relu"]}),
        *b.lstm(o["x"], o["wl"], o["rl"], steps, hidden,
                {"direction": direction, "layout": "ifgo", "peepholeWeight": o["p"], "initialHiddenState": o["h0"],
                 "initialCellState": o["c0"], "returnSequence": True}),
        b.gruCell(b.reshape(b.slice(o["x"], [0, 0, 0], [1, batch, inp]), [batch, inp]),
                  b.reshape(b.slice(o["wg"], [0, 0, 0], [1, 3 * hidden, inp]), [3 * hidden, inp]),
                  b.reshape(b.slice(o["rg"], [0, 0, 0], [1, 3 * hidden, hidden]), [3 * hidden, hidden]),
                  b.reshape(b.slice(o["h0"], [0, 0, 0], [1, batch, hidden]), [batch, hidden]), hidden,
                  {"resetAfter": False}),
    ], ins, atol=tol, rtol=tol)


@pytest.mark.parametrize("op", ["gru", "lstm"])
def test_sequence_output_is_indexed_by_input_time_step(contexts, op):
    """returnSequence[t] holds each direction's state after it read input[t]: for a backward
    direction the last state computed (the final hidden state) is at t = 0."""
    steps, batch, size, hidden = 3, 2, 3, 4
    gates = 3 if op == "gru" else 4
    rng = np.random.default_rng(7)
    feeds = {
        "x": rng.uniform(-1, 1, (steps, batch, size)).astype(np.float32),
        "w": rng.uniform(-1, 1, (2, gates * hidden, size)).astype(np.float32),
        "r": rng.uniform(-1, 1, (2, gates * hidden, hidden)).astype(np.float32),
    }

    def build(direction):
        def f(bb):
            # a lone backward direction uses the weights that "both" uses for its backward pass
            d, first = (2, 0) if direction == "both" else (1, 1)
            x = bb.input("x", {"dataType": "float32", "shape": [steps, batch, size]})
            w = bb.slice(bb.input("w", {"dataType": "float32", "shape": [2, gates * hidden, size]}),
                         [first, 0, 0], [d, gates * hidden, size])
            r = bb.slice(bb.input("r", {"dataType": "float32", "shape": [2, gates * hidden, hidden]}),
                         [first, 0, 0], [d, gates * hidden, hidden])
            outs = getattr(bb, op)(x, w, r, steps, hidden, {"direction": direction, "returnSequence": True})
            return {"h": outs[0], "seq": outs[-1]}
        return f

    for direction in ("backward", "both"):
        for got in run_by_backend(contexts, build(direction), feeds).values():
            h, seq = got["h"], got["seq"]
            if direction == "backward":
                np.testing.assert_array_equal(seq[0, 0], h[0])
            else:
                np.testing.assert_array_equal(seq[steps - 1, 0], h[0])  # forward: last step
                np.testing.assert_array_equal(seq[0, 1], h[1])  # backward: first position
    # both directions agree with the single-direction graphs
    one = run_by_backend(contexts, build("backward"), feeds)["reference"]["seq"]
    both = run_by_backend(contexts, build("both"), feeds)["reference"]["seq"]
    np.testing.assert_allclose(both[:, 1], one[:, 0], rtol=1e-6)
