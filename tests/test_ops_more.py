"""Focused tests for the comparison, logical, reduction, normalization, activation, data-movement,
quantization, convTranspose2d and RNN operators: spec TypeError conditions, reference vs ONNX
Runtime agreement on random data, and small hand-computed cases."""

from __future__ import annotations

import numpy as np
import pytest

from webnn_bridge.bridge.api import ML, MLGraphBuilder
from webnn_bridge.ops.core import WebNNTypeError

_ML = ML()
ORT = _ML.createContext()
REF = ML([d for d in _ML.inventory if d.backend == "reference"]).createContext()
RNG = np.random.default_rng(1234)


def desc(dt, shape):
    return {"dataType": dt, "shape": list(shape)}


def run(ctx, build, inputs):
    """build(b, operands) -> output operand or list; inputs: name -> array."""
    b = MLGraphBuilder(ctx)
    ops = {n: b.input(n, desc(str(a.dtype), a.shape)) for n, a in inputs.items()}
    out = build(b, ops)
    outs = out if isinstance(out, list) else [out]
    res = ctx.compute(b.build({f"o{i}": o for i, o in enumerate(outs)}), inputs)
    return [res[f"o{i}"] for i in range(len(outs))]


def both(build, inputs, atol=0.0, rtol=0.0):
    ref = run(REF, build, inputs)
    ort = run(ORT, build, inputs)
    for r, o in zip(ref, ort):
        assert r.dtype == o.dtype and r.shape == o.shape
        np.testing.assert_allclose(o.astype(np.float64), r.astype(np.float64), atol=atol, rtol=rtol)
    return ref


def rand(shape, dt="float32", lo=-5, hi=5):
    if np.dtype(dt).kind == "f":
        return np.asarray(RNG.uniform(lo, hi, shape).astype(dt))
    return np.asarray(RNG.integers(lo, hi, shape).astype(dt))


# --------------------------------------------------------------------------- validation (TypeError)


def _b():
    return MLGraphBuilder(REF)


def _in(b, dt, shape, name=None):
    return b.input(name or f"i{RNG.integers(1 << 30)}", desc(dt, shape))


INVALID = {
    "equal type mismatch": lambda b: b.equal(_in(b, "float32", [2]), _in(b, "int32", [2])),
    "greater not broadcastable": lambda b: b.greater(_in(b, "float32", [2, 3]), _in(b, "float32", [4])),
    "logicalAnd float": lambda b: b.logicalAnd(_in(b, "float32", [2]), _in(b, "float32", [2])),
    "logicalNot int8": lambda b: b.logicalNot(_in(b, "int8", [2])),
    "where float condition": lambda b: b.where(_in(b, "float32", [2]), _in(b, "float32", [2]), _in(b, "float32", [2])),
    "where value types differ": lambda b: b.where(_in(b, "uint8", [2]), _in(b, "float32", [2]), _in(b, "int32", [2])),
    "reduceSum axis out of range": lambda b: b.reduceSum(_in(b, "float32", [2, 3]), {"axes": [2]}),
    "reduceSum duplicate axes": lambda b: b.reduceSum(_in(b, "float32", [2, 3]), {"axes": [1, 1]}),
    "reduceMean int32": lambda b: b.reduceMean(_in(b, "int32", [2, 3])),
    "reduceL1 int8": lambda b: b.reduceL1(_in(b, "int8", [2, 3])),
    "argMax axis": lambda b: b.argMax(_in(b, "float32", [2, 3]), 2),
    "argMax 0-D": lambda b: b.argMax(_in(b, "float32", []), 0),
    "argMin outputDataType": lambda b: b.argMin(_in(b, "float32", [2, 3]), 0, {"outputDataType": "float32"}),
    "cumulativeSum axis": lambda b: b.cumulativeSum(_in(b, "float32", [2, 3]), 2),
    "cumulativeSum int8": lambda b: b.cumulativeSum(_in(b, "int8", [2, 3]), 0),
    "slice too long": lambda b: b.slice(_in(b, "float32", [4]), [2], [3]),
    "slice zero size": lambda b: b.slice(_in(b, "float32", [4]), [0], [0]),
    "slice rank mismatch": lambda b: b.slice(_in(b, "float32", [4, 4]), [0], [1]),
    "slice zero stride": lambda b: b.slice(_in(b, "float32", [4]), [0], [2], {"strides": [0]}),
    "split not divisible": lambda b: b.split(_in(b, "float32", [5]), 2),
    "split sum mismatch": lambda b: b.split(_in(b, "float32", [5]), [2, 2]),
    "split axis": lambda b: b.split(_in(b, "float32", [4]), 2, {"axis": 1}),
    "expand not broadcastable": lambda b: b.expand(_in(b, "float32", [3, 2]), [3, 4]),
    "expand lower rank": lambda b: b.expand(_in(b, "float32", [5, 4]), [4]),
    "gather axis": lambda b: b.gather(_in(b, "float32", [3]), _in(b, "int32", [2]), {"axis": 1}),
    "gather float indices": lambda b: b.gather(_in(b, "float32", [3]), _in(b, "float32", [2])),
    "gatherElements shape": lambda b: b.gatherElements(_in(b, "float32", [3, 4]), _in(b, "int32", [2, 3])),
    "gatherElements rank": lambda b: b.gatherElements(_in(b, "float32", [3, 4]), _in(b, "int32", [3])),
    "gatherND too deep": lambda b: b.gatherND(_in(b, "float32", [3, 4]), _in(b, "int32", [2, 3])),
    "scatterElements updates": lambda b: b.scatterElements(
        _in(b, "float32", [3, 4]), _in(b, "int32", [2, 4]), _in(b, "float32", [3, 4])),
    "scatterND updates": lambda b: b.scatterND(
        _in(b, "float32", [3, 4]), _in(b, "int32", [2, 1]), _in(b, "float32", [2, 3])),
    "pad length": lambda b: b.pad(_in(b, "float32", [3, 4]), [1], [1]),
    "pad reflection too wide": lambda b: b.pad(_in(b, "float32", [3]), [3], [0], {"mode": "reflection"}),
    "tile zero": lambda b: b.tile(_in(b, "float32", [3]), [0]),
    "tile length": lambda b: b.tile(_in(b, "float32", [3]), [1, 2]),
    "reverse duplicate axes": lambda b: b.reverse(_in(b, "float32", [3, 2]), {"axes": [0, 0]}),
    "triangular rank 1": lambda b: b.triangular(_in(b, "float32", [3])),
    "resample2d axes length": lambda b: b.resample2d(_in(b, "float32", [1, 1, 2, 2]), {"axes": [2]}),
    "resample2d scale zero": lambda b: b.resample2d(_in(b, "float32", [1, 1, 2, 2]), {"scales": [0, 1]}),
    "resample2d rank 3": lambda b: b.resample2d(_in(b, "float32", [1, 2, 2])),
    "dequantize block": lambda b: b.dequantizeLinear(
        _in(b, "uint8", [3, 2, 5]), _in(b, "float32", [2]), _in(b, "uint8", [2])),
    "dequantize zeroPoint shape": lambda b: b.dequantizeLinear(
        _in(b, "uint8", [3, 2]), _in(b, "float32", [2]), _in(b, "uint8", [1])),
    "quantize float zeroPoint": lambda b: b.quantizeLinear(
        _in(b, "float32", [3, 2]), _in(b, "float32", [2]), _in(b, "float32", [2])),
    "batchNorm mean shape": lambda b: b.batchNormalization(
        _in(b, "float32", [1, 3, 2]), _in(b, "float32", [2]), _in(b, "float32", [3])),
    "batchNorm axis": lambda b: b.batchNormalization(
        _in(b, "float32", [1, 3]), _in(b, "float32", [3]), _in(b, "float32", [3]), {"axis": 2}),
    "layerNorm scale shape": lambda b: b.layerNormalization(
        _in(b, "float32", [2, 3, 4]), {"scale": _in(b, "float32", [4, 3])}),
    "layerNorm int": lambda b: b.layerNormalization(_in(b, "int32", [2, 3])),
    "instanceNorm rank": lambda b: b.instanceNormalization(_in(b, "float32", [2, 3, 4])),
    "instanceNorm bias": lambda b: b.instanceNormalization(
        _in(b, "float32", [1, 3, 2, 2]), {"bias": _in(b, "float32", [2])}),
    "elu int32": lambda b: b.elu(_in(b, "int32", [2])),
    "prelu slope": lambda b: b.prelu(_in(b, "float32", [3, 2]), _in(b, "float32", [3])),
    "convTranspose2d channels": lambda b: b.convTranspose2d(
        _in(b, "float32", [1, 3, 4, 4]), _in(b, "float32", [2, 1, 3, 3])),
    "convTranspose2d outputPadding": lambda b: b.convTranspose2d(
        _in(b, "float32", [1, 1, 4, 4]), _in(b, "float32", [1, 1, 3, 3]), {"outputPadding": [1, 1]}),
    "convTranspose2d outputSizes": lambda b: b.convTranspose2d(
        _in(b, "float32", [1, 1, 4, 4]), _in(b, "float32", [1, 1, 3, 3]),
        {"strides": [2, 2], "outputSizes": [12, 9]}),
    "convTranspose2d bias": lambda b: b.convTranspose2d(
        _in(b, "float32", [1, 1, 4, 4]), _in(b, "float32", [1, 2, 3, 3]), {"bias": _in(b, "float32", [1])}),
    "gruCell activations": lambda b: b.gruCell(
        _in(b, "float32", [2, 3]), _in(b, "float32", [12, 3]), _in(b, "float32", [12, 4]),
        _in(b, "float32", [2, 4]), 4, {"activations": ["sigmoid"]}),
    "gruCell weight": lambda b: b.gruCell(
        _in(b, "float32", [2, 3]), _in(b, "float32", [9, 3]), _in(b, "float32", [12, 4]), _in(b, "float32", [2, 4]), 4),
    "gru steps": lambda b: b.gru(
        _in(b, "float32", [2, 1, 3]), _in(b, "float32", [1, 12, 3]), _in(b, "float32", [1, 12, 4]), 3, 4),
    "gru both directions weight": lambda b: b.gru(
        _in(b, "float32", [2, 1, 3]), _in(b, "float32", [1, 12, 3]), _in(b, "float32", [1, 12, 4]), 2, 4,
        {"direction": "both"}),
    "lstm peephole": lambda b: b.lstm(
        _in(b, "float32", [2, 1, 3]), _in(b, "float32", [1, 16, 3]), _in(b, "float32", [1, 16, 4]), 2, 4,
        {"peepholeWeight": _in(b, "float32", [1, 16])}),
    "lstmCell cellState": lambda b: b.lstmCell(
        _in(b, "float32", [2, 3]), _in(b, "float32", [16, 3]), _in(b, "float32", [16, 4]),
        _in(b, "float32", [2, 4]), _in(b, "float32", [1, 4]), 4),
}


@pytest.mark.parametrize("name", sorted(INVALID))
def test_type_errors(name):
    with pytest.raises(WebNNTypeError):
        INVALID[name](_b())


def test_output_descriptors():
    b = _b()
    x = _in(b, "float32", [2, 3, 4])
    assert b.reduceSum(x, {"axes": [1], "keepDimensions": True}).shape == [2, 1, 4]
    assert b.argMax(x, 2, {"outputDataType": "int64"}).dataType == "int64"
    assert [o.shape for o in b.split(x, [1, 2], {"axis": 1})] == [[2, 1, 4], [2, 2, 4]]
    assert b.equal(x, _in(b, "float32", [4])).dataType == "uint8"
    assert b.slice(x, [0, 0, 1], [2, 3, 3], {"strides": [1, 2, 2]}).shape == [2, 2, 2]
    assert b.gather(x, _in(b, "int64", [5, 6]), {"axis": 1}).shape == [2, 5, 6, 4]
    outs = b.gru(_in(b, "float16", [5, 2, 3]), _in(b, "float16", [2, 12, 3]), _in(b, "float16", [2, 12, 4]), 5, 4,
                 {"direction": "both", "returnSequence": True})
    assert [o.shape for o in outs] == [[2, 2, 4], [5, 2, 2, 4]] and outs[0].dataType == "float16"
    assert len(b.lstm(_in(b, "float32", [5, 2, 3]), _in(b, "float32", [1, 16, 3]), _in(b, "float32", [1, 16, 4]),
                      5, 4)) == 2
    y = b.convTranspose2d(_in(b, "float32", [1, 5, 5, 2]), _in(b, "float32", [3, 3, 4, 2]),
                          {"inputLayout": "nhwc", "filterLayout": "hwoi", "strides": [2, 2],
                           "outputSizes": [12, 12], "groups": 1})
    assert y.shape == [1, 12, 12, 4]
    assert b.resample2d(_in(b, "float32", [1, 2, 3, 4]), {"scales": [2.0, 0.5]}).shape == [1, 2, 6, 2]


# --------------------------------------------------------------------------- hand-computed cases


@pytest.mark.parametrize("ctx", [REF, ORT], ids=["reference", "onnxruntime"])
def test_hand_computed(ctx):
    x = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
    (r,) = run(ctx, lambda b, o: b.cumulativeSum(o["x"], 1, {"exclusive": True, "reversed": True}), {"x": x})
    np.testing.assert_array_equal(r, [[5, 3, 0], [11, 6, 0]])
    (r,) = run(ctx, lambda b, o: b.triangular(o["x"], {"upper": False, "diagonal": 1}), {"x": x})
    np.testing.assert_array_equal(r, [[1, 2, 0], [4, 5, 6]])
    (r,) = run(ctx, lambda b, o: b.pad(o["x"], [0, 2], [1, 1], {"mode": "reflection"}), {"x": x})
    np.testing.assert_array_equal(r, [[3, 2, 1, 2, 3, 2], [6, 5, 4, 5, 6, 5], [3, 2, 1, 2, 3, 2]])
    (r,) = run(ctx, lambda b, o: b.pad(o["x"], [1, 0], [0, 1], {"value": 9}), {"x": x})
    np.testing.assert_array_equal(r, [[9, 9, 9, 9], [1, 2, 3, 9], [4, 5, 6, 9]])
    idx = np.array([-1, 7, -9], np.int32)  # negative counts from the end; out of range clamps
    (r,) = run(ctx, lambda b, o: b.gather(o["x"], o["i"], {"axis": 1}), {"x": x, "i": idx})
    np.testing.assert_array_equal(r, [[3, 3, 1], [6, 6, 4]])
    a = np.array([3, 1, 3, 0], np.int32)
    (r,) = run(ctx, lambda b, o: b.argMax(o["a"], 0), {"a": a})
    assert r.dtype == np.int32 and int(r) == 0  # first occurrence
    (r,) = run(ctx, lambda b, o: b.scatterND(o["x"], o["i"], o["u"]),
               {"x": x, "i": np.array([[1], [0]], np.int64), "u": np.array([[7, 8, 9], [0, 0, 0]], np.float32)})
    np.testing.assert_array_equal(r, [[0, 0, 0], [7, 8, 9]])
    c = np.array([1, 0, 2], np.uint8)
    (r,) = run(ctx, lambda b, o: b.where(o["c"], o["t"], o["f"]),
               {"c": c, "t": np.array([1, 2, 3], np.int32), "f": np.array([-1], np.int32)})
    np.testing.assert_array_equal(r, [1, -1, 3])
    q = np.array([-1.5, 0.5, 1.5, 2.5, 300], np.float32)
    (r,) = run(ctx, lambda b, o: b.quantizeLinear(o["q"], b.constant(desc("float32", []), np.array(1, np.float32)),
                                                   b.constant(desc("uint8", []), np.array(1, np.uint8))), {"q": q})
    np.testing.assert_array_equal(r, [0, 1, 3, 3, 255])  # round half to even, then saturate
    f = np.array([np.nan, np.inf, -1.0], np.float32)
    r1, r2 = run(ctx, lambda b, o: [b.isNaN(o["f"]), b.isInfinite(o["f"])], {"f": f})
    np.testing.assert_array_equal(r1, [1, 0, 0])
    np.testing.assert_array_equal(r2, [0, 1, 0])


# --------------------------------------------------------------------------- reference vs ONNX Runtime


FLOATS = ["float32", "float16"]


@pytest.mark.parametrize("dt", ["float32", "float16", "int32", "uint32", "int64", "uint64", "int8", "uint8"])
def test_comparisons_logical(dt):
    a, b_ = rand([3, 4], dt, 0, 4), rand([4], dt, 0, 4)
    both(lambda b, o: [b.notEqual(o["a"], o["b"]), b.lesserOrEqual(o["a"], o["b"]), b.isNaN(o["a"]),
                       b.isInfinite(o["a"]), b.where(b.greater(o["a"], o["b"]), o["a"], o["b"]),
                       b.argMin(o["a"], 1), b.argMax(o["a"], 0, {"keepDimensions": True, "outputDataType": "int64"}),
                       b.reduceMax(o["a"], {"axes": [0]}), b.reduceMin(o["a"])], {"a": a, "b": b_})
    u = rand([2, 3], "uint8", 0, 3)
    both(lambda b, o: [b.logicalAnd(o["u"], o["v"]), b.logicalOr(o["u"], o["v"]), b.logicalXor(o["u"], o["v"])],
         {"u": u, "v": rand([3], "uint8", 0, 3)})


@pytest.mark.parametrize("dt", ["float32", "float16", "int32", "uint32", "int64", "uint64"])
def test_cumulative_sum_and_integer_reductions(dt):
    x = rand([3, 4, 2], dt, 0, 9)
    tol = 1e-2 if dt == "float16" else 1e-5
    both(lambda b, o: [b.cumulativeSum(o["x"], 1), b.cumulativeSum(o["x"], 2, {"exclusive": True}),
                       b.cumulativeSum(o["x"], 0, {"reversed": True}), b.reduceSum(o["x"], {"axes": [0, 2]}),
                       b.reduceL1(o["x"]), b.reduceSumSquare(o["x"], {"axes": []}),
                       b.reduceProduct(o["x"], {"axes": [2]})], {"x": x}, rtol=tol)


@pytest.mark.parametrize("dt", ["float32", "float16", "int32", "uint8"])
def test_data_movement(dt):
    x = rand([3, 4, 5], dt, 0, 50)
    ge_idx = rand([3, 2, 5], "int32", -4, 4)
    nd_idx = rand([2, 2], "int64", -3, 3)
    se_idx = np.array([[[0, 1, 2, 3, 0]] * 4, [[1, 2, 3, 0, 1]] * 4, [[3, 3, 3, 3, 3]] * 4], np.int32)[:, :1, :]
    both(lambda b, o: [
        b.gatherElements(o["x"], o["gi"], {"axis": 1}),
        b.gatherND(o["x"], o["ni"]),
        b.scatterElements(o["x"], o["si"], b.slice(o["x"], [0, 0, 0], [3, 1, 5]), {"axis": 1}),
        b.scatterND(o["x"], o["ni2"], b.reshape(b.slice(o["x"], [0, 0, 0], [2, 1, 5]), [2, 5])),
        b.pad(o["x"], [1, 0, 2], [0, 3, 1], {"mode": "edge"}),
        b.pad(o["x"], [1, 2, 0], [2, 1, 4], {"mode": "reflection"}),
        b.pad(o["x"], [0, 1, 1], [1, 0, 0], {"value": 7}),
        b.tile(o["x"], [2, 1, 3]),
        b.reverse(o["x"]), b.reverse(o["x"], {"axes": [2, 0]}), b.reverse(o["x"], {"axes": []}),
        b.triangular(o["x"]), b.triangular(o["x"], {"upper": False, "diagonal": -2}),
        b.expand(b.slice(o["x"], [0, 0, 0], [1, 4, 1]), [2, 3, 4, 6]),
    ], {"x": x, "gi": ge_idx, "ni": nd_idx, "si": se_idx, "ni2": np.array([[0, 1], [2, 3]], np.uint32)})


@pytest.mark.parametrize("dt", FLOATS)
def test_float_ops(dt):
    x = rand([2, 3, 4, 5], dt)
    tol = 2e-2 if dt == "float16" else 1e-5
    both(lambda b, o: [
        b.prelu(o["x"], o["s"]), b.elu(o["x"], {"alpha": 0.5}), b.leakyRelu(o["x"]), b.linear(o["x"], {"beta": 1}),
        b.hardSigmoid(o["x"]), b.resample2d(o["x"], {"mode": "linear", "scales": [1.5, 0.6]}),
        b.resample2d(o["x"], {"sizes": [7, 3], "axes": [1, 2]}),
        b.layerNormalization(o["x"], {"axes": [3, 1], "scale": o["ls"]}),
        b.instanceNormalization(o["x"], {"layout": "nhwc"}),
        b.reduceLogSumExp(o["x"], {"axes": [1, 3], "keepDimensions": True}), b.reduceL2(o["x"]),
    ], {"x": x, "s": rand([4, 1], dt), "ls": rand([5, 3], dt)}, atol=tol, rtol=tol)


@pytest.mark.parametrize("qt", ["uint8", "int8", "int32", "uint32"])
def test_quantization_blockwise(qt):
    x = rand([4, 6], "float32", -100, 100)
    s = rand([2, 3], "float32", 0.5, 2)
    z = rand([2, 3], qt, 0, 5)
    ref = both(lambda b, o: [b.quantizeLinear(o["x"], o["s"], o["z"]),
                             b.dequantizeLinear(b.quantizeLinear(o["x"], o["s"], o["z"]), o["s"], o["z"])],
               {"x": x, "s": s, "z": z}, atol=1e-5)
    # each scale element covers a 2x2 block
    se, ze = np.repeat(np.repeat(s, 2, 0), 2, 1), np.repeat(np.repeat(z, 2, 0), 2, 1).astype(np.float64)
    info = np.iinfo(qt)
    expect = np.clip(np.round(x / se) + ze, info.min, info.max)
    np.testing.assert_array_equal(ref[0], expect.astype(qt))


@pytest.mark.parametrize("dt", FLOATS)
def test_conv_transpose2d_layouts(dt):
    x = rand([1, 4, 3, 3], dt)
    w = rand([4, 1, 3, 2], dt)  # iohw with groups=2 -> 2 output channels
    tol = 5e-2 if dt == "float16" else 1e-4
    both(lambda b, o: [
        b.convTranspose2d(o["x"], o["w"], {"groups": 2, "strides": [2, 3], "padding": [1, 0, 0, 1],
                                           "dilations": [1, 2], "outputPadding": [1, 2], "bias": o["bias"]}),
        b.convTranspose2d(o["x"], b.transpose(o["w"], {"permutation": [2, 3, 1, 0]}),
                          {"filterLayout": "hwoi", "groups": 2, "outputSizes": [8, 7], "strides": [2, 2]}),
    ], {"x": x, "w": w, "bias": rand([2], dt)}, atol=tol, rtol=tol)


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


@pytest.mark.parametrize("mode", ["linear", "nearest-neighbor"])
def test_resample2d_nhwc_between_convs(mode):
    """Regression (DeepLabV3, NHWC): resample2d over axes [1, 2] between NHWC convolutions used to
    fail ORT's graph optimizer ("Number of elements of input 'sizes' (0) does not match ...")."""
    x = rand([1, 5, 6, 3])

    def build(b, o):
        y = b.conv2d(o["x"], o["w1"], {"inputLayout": "nhwc", "filterLayout": "ohwi"})
        y = b.resample2d(y, {"sizes": [11, 9], "axes": [1, 2], "mode": mode})
        return b.conv2d(y, o["w2"], {"inputLayout": "nhwc", "filterLayout": "ohwi"})

    out = both(build, {"x": x, "w1": rand([4, 1, 1, 3]), "w2": rand([2, 3, 3, 4])}, atol=1e-4, rtol=1e-4)
    assert out[0].shape == (1, 9, 7, 2)
