"""Graphs that mix operator families: the spec's TypeError conditions of the comparison, logical,
reduction, movement, normalization, RNN and resample operators, their output descriptors, small
hand-computed cases, comparison/logical/activation/normalization graphs, reference against ONNX
Runtime, and int64 max/min/clamp/relu/reductions across the 32-bit boundary. (Single-family tests live in tests/ops/test_<family>.py.)"""

from __future__ import annotations

import numpy as np
import pytest

from webnn_bridge.ops.core import WebNNTypeError

from ._util import FLOATS, ORT, REF, _b, _in, both, desc, rand, run, run_by_backend

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


def test_int64_max_min_clamp_relu_across_the_32_bit_boundary(contexts):
    # ONNX Runtime's own int64 Max/Min/Clip/ReduceMax/ReduceMin get these wrong
    x = np.array([2147483648, -4147483648, 5, -2, 4147483647, 0], np.int64)

    def build(bb):
        a = bb.input("x", {"dataType": "int64", "shape": [6]})
        five = bb.constant("int64", 5)
        return {
            "max": bb.max(a, five), "min": bb.min(a, five), "relu": bb.relu(a),
            "clamp": bb.clamp(a, {"minValue": -2, "maxValue": 4147483645}),
            "rmax": bb.reduceMax(a), "rmin": bb.reduceMin(a),
        }

    for got in run_by_backend(contexts, build, {"x": x}).values():
        np.testing.assert_array_equal(got["max"], np.maximum(x, 5))
        np.testing.assert_array_equal(got["min"], np.minimum(x, 5))
        np.testing.assert_array_equal(got["relu"], np.maximum(x, 0))
        np.testing.assert_array_equal(got["clamp"], np.clip(x, -2, 4147483645))
        assert got["rmax"] == x.max() and got["rmin"] == x.min()
