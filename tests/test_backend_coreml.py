"""Core ML backend: WebNN graphs lower to ML Programs (coremltools MIL), per op, and MIL's own
type/shape inference agrees with ours for every op x data type the backend claims. Conversion and
.mlpackage saving run wherever coremltools installs; prediction only on macOS."""

from __future__ import annotations

import dataclasses
import math
import os
import platform

import numpy as np
import pytest

pytest.importorskip("coremltools", reason="coremltools is not installed (pip install webnn-bridge[coreml])")
os.environ.setdefault("TQDM_DISABLE", "1")  # coremltools' pass-pipeline progress bars

from tests import test_capability_sweep as sweep  # noqa: E402
from tests import test_conformance as wpt  # noqa: E402
from webnn_bridge.backends.base import Device  # noqa: E402
from webnn_bridge.backends.capabilities import node_issues  # noqa: E402
from webnn_bridge.backends.coreml import (  # noqa: E402
    COMPUTE_UNITS,
    CoreMLBackend,
    MilDisagreement,
    coreml_ops,
    mil_program,
    save_mlpackage,
)
from webnn_bridge.bridge.api import MLGraphBuilder  # noqa: E402
from webnn_bridge.ops.core import OperationError  # noqa: E402
from webnn_bridge.ops.registry import load_all  # noqa: E402
from webnn_bridge.policy.graphs import summarize  # noqa: E402

CAPS = CoreMLBackend.instance().capabilities(Device(id="coreml:cpu", kind="cpu", backend="coreml"))
CLAIMED = [(op, dt) for op in coreml_ops() for dt in CAPS.ops[op][sweep.main_operand(op)].types]


def _sweep_graph(op, dt):
    sweep._seed(op, dt)
    b = MLGraphBuilder(sweep.REF)
    outs, ins = sweep.TABLE[op](b, dt)
    outs = outs if isinstance(outs, list) else [outs]
    return b.build({f"o{i}": o for i, o in enumerate(outs)}), ins


def test_claims_match_lowerings():
    assert sorted(CAPS.ops) == coreml_ops()
    assert len(coreml_ops()) >= 40
    assert {"gather", "lstm", "quantizeLinear", "resample2d", "where"} <= set(CAPS.ops)


@pytest.mark.parametrize(("op", "dt"), CLAIMED, ids=[f"{op}-{dt}" for op, dt in CLAIMED])
def test_mil_inference_agrees(op, dt):
    graph, _ = _sweep_graph(op, dt)
    prog, in_map, out_map = mil_program(graph.ir)  # raises MilDisagreement on any difference
    assert set(out_map) == set(graph.ir.outputs) and set(in_map) == set(graph.ir.inputs)
    assert len(list(prog.functions["main"].operations)) >= len(graph.ir.nodes)


# WPT conformance cases whose operators all have a Core ML lowering (by data type: see below)
WPT_CASES = [c for c in wpt.CASES if set(c.ops) <= set(coreml_ops())]


@pytest.mark.parametrize("case", WPT_CASES, ids=[c.name for c in WPT_CASES])
def test_wpt_case_converts_where_claimed(case):
    """Every WPT case the Core ML claims cover converts with MIL's inference equal to ours; a case
    outside them (a data type or rank not claimed) is one the policy keeps off Core ML."""
    graph, _, _ = wpt.build_case(sweep.REF, case)
    issues = [i for node in summarize(graph.ir).nodes for i in node_issues(node, CAPS)]
    if issues:
        assert any("not supported" in i or "rank" in i for i in issues), issues
        return
    prog, _, out_map = mil_program(graph.ir)
    assert set(out_map) == set(graph.ir.outputs)


def _fold(ir):
    """A graph of constants only, lowered to MIL: coremltools' builder computes each op's value with
    its own numpy model of the MIL op (value inference). Outputs as WebNN arrays, or None where an op
    in the chain has no such model."""
    prog, _, out_map = mil_program(ir)
    vals = {v.name: v.val for v in prog.functions["main"].outputs}
    if any(v is None for v in vals.values()):
        return None
    descs = ir.output_descs()
    return {n: np.asarray(vals[out_map[n]]).astype(descs[n].numpy_dtype).reshape(descs[n].shape) for n in ir.outputs}


def _folded_outputs(case):
    """The case with every input made a constant, folded; skips a case outside Core ML's claims
    (test_wpt_case_converts_where_claimed checks that the policy keeps it off Core ML) or one with an
    op that coremltools has no value model for."""
    consts = {n: {**spec, "constant": True} for n, spec in case.graph["inputs"].items()}
    graph, _, nodes = wpt.build_case(sweep.REF, dataclasses.replace(case, graph={**case.graph, "inputs": consts}))
    if any(node_issues(node, CAPS) for node in summarize(graph.ir).nodes):
        pytest.skip("outside Core ML's claims (a data type or rank the policy keeps off Core ML)")
    got = _fold(graph.ir)
    if got is None:
        pytest.skip(f"coremltools has no value model for an op of {sorted(set(case.ops))} (numerics need macOS)")
    return got, nodes


# Cases where coremltools' numpy model differs from WPT's expected data by more than WPT's tolerance,
# with why (strict: one that starts passing fails the run until removed here)
_F16_LAYER_NORM = ("coremltools' value model of layer_norm computes in float16 numpy (the reference and WPT "
                   "in float32); a device's precision is not checked here")
VALUE_MODEL_GAPS = {
    "layerNormalization float16 4D tensor options.scale and options.axes=[0, 2]": _F16_LAYER_NORM,
    "layerNormalization float16 4D tensor options.bias and options.axes=[3, 1, 2]": _F16_LAYER_NORM,
    "layerNormalization float16 4D tensor all options": _F16_LAYER_NORM,
}


def _numerics_params():
    for case in WPT_CASES:
        reason = VALUE_MODEL_GAPS.get(case.name)
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        yield pytest.param(case, id=case.name, marks=marks)


def test_value_model_gaps_are_cases():
    assert set(VALUE_MODEL_GAPS) <= {c.name for c in WPT_CASES}


@pytest.mark.parametrize("case", list(_numerics_params()))
def test_wpt_numerics_by_mil_value_inference(case):
    """Numerics on Linux, as far as they go without Core ML's runtime: where coremltools can fold a
    whole case (every MIL op used has a numpy value model), the folded outputs meet WPT's expected
    data within WPT's tolerance. This checks the lowerings as MIL defines its ops, not a device."""
    got, nodes = _folded_outputs(case)
    out_type = next(iter(case.graph["expectedOutputs"].values()))["descriptor"]["dataType"]
    metric, tol = wpt.graph_tolerance(nodes, out_type)
    for name, spec in case.graph["expectedOutputs"].items():
        desc = spec["descriptor"]
        bad = wpt.mismatches(got[name], case.expected[name], desc["dataType"], metric, tol)
        assert not bad, f"{name}: " + "; ".join(bad)


def test_wpt_cases_cover_the_new_lowerings():
    ops = {op for c in WPT_CASES for op in c.ops}
    assert {"equal", "greater", "lesserOrEqual", "logicalNot", "gather"} <= ops


SECONDARY = [(op, operand, kw, t) for op, (operand, kw) in sorted(sweep.SECONDARY.items()) if op in CAPS.ops
             for t in sorted(CAPS.ops[op][operand].types)]


@pytest.mark.parametrize(("op", "operand", "kw", "t"), SECONDARY, ids=[f"{o}-{n}-{t}" for o, n, _, t in SECONDARY])
def test_mil_inference_agrees_secondary_types(op, operand, kw, t):
    """Operands whose type is independent of the main input (index types, zero points, cast and
    argMin/argMax outputs): every claimed type converts."""
    main = sorted(CAPS.ops[op][sweep.main_operand(op)].types)[0]
    sweep._seed(op, main, t)
    b = MLGraphBuilder(sweep.REF)
    out, _ = sweep.TABLE[op](b, main, **{kw: t})
    mil_program(b.build({"y": out}).ir)


def _folded(build):
    """(MIL's folded value, the reference's value) of a one-output graph built from constants only."""
    b = MLGraphBuilder(sweep.REF)
    graph = b.build({"y": build(b)})
    got = _fold(graph.ir)
    assert got is not None, "not folded"
    return got["y"], sweep.REF.compute(graph, {})["y"]


@pytest.mark.parametrize(("op", "dt"), CLAIMED, ids=[f"{op}-{dt}" for op, dt in CLAIMED])
def test_sweep_numerics_by_value_inference(op, dt, monkeypatch):
    """Every claimed op x type of the capability sweep, its inputs made constants and folded by
    coremltools' value models, agrees with the reference within the sweep's tolerances."""
    # the sweep's graph builders live in devtools.sweep_cases and look `inp` up there
    monkeypatch.setattr(sweep.sweep_cases, "inp", lambda b, ins, name, arr: _const(b, arr))
    graph, _ = _sweep_graph(op, dt)
    got = _fold(graph.ir)
    if got is None:
        pytest.skip("an op on the way has no value model in coremltools")
    ref = sweep.REF.compute(graph, {})
    sweep._compare_outputs(op, dt, [ref[n] for n in sorted(ref)], [got[n] for n in sorted(ref)])


def _const(b, arr):
    arr = np.asarray(arr)
    return b.constant({"dataType": str(arr.dtype), "shape": list(arr.shape)}, arr)


_X = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
_BIG_COND = (np.arange(24).reshape(2, 3, 4) % 3 == 0).astype(np.uint8)
EDGES = {
    "where-condition-larger": lambda b: b.where(_const(b, _BIG_COND), _const(b, np.float32(5)),
                                                _const(b, np.arange(4, dtype=np.float32))),
    "where-uint8-scalars": lambda b: b.where(_const(b, _BIG_COND), _const(b, np.uint8(5)), _const(b, np.uint8(7))),
    "gather-0d-negative-index": lambda b: b.gather(_const(b, _X), _const(b, np.int32(-1)), {"axis": 1}),
    "gather-out-of-range-clamped": lambda b: b.gather(_const(b, _X), _const(b, np.array([[5, -9], [0, 2]], np.int32)),
                                                      {"axis": 2}),
    "gatherElements-negative": lambda b: b.gatherElements(_const(b, _X), _const(b, np.array([[[1, -1, 0, 2]] * 3] * 2,
                                                                                            np.int32)), {"axis": 1}),
    "scatterElements-negative": lambda b: b.scatterElements(
        _const(b, _X), _const(b, np.array([[[-1, 0, 1, -3]]] * 2, np.int32)), _const(b, -np.ones((2, 1, 4), np.float32)),
        {"axis": 1}),
    "triangular-lower-int8": lambda b: b.triangular(_const(b, _X.astype(np.int8)), {"upper": False, "diagonal": -1}),
    "triangular-upper-2": lambda b: b.triangular(_const(b, _X), {"upper": True, "diagonal": 2}),
    "isInfinite": lambda b: b.isInfinite(_const(b, np.array([np.nan, 1, np.inf, -np.inf], np.float32))),
    "logicalXor-nonzero-true": lambda b: b.logicalXor(_const(b, np.array([0, 1, 2, 0], np.uint8)),
                                                      _const(b, np.array([0, 0, 3, 5], np.uint8))),
    "prelu-int32": lambda b: b.prelu(_const(b, np.array([[-3, 2], [4, -1]], np.int32)), _const(b, np.array([2, -3], np.int32))),
    "expand-0d": lambda b: b.expand(_const(b, np.float32(3)), [2, 3]),
    "add-int8-wraps": lambda b: b.add(_const(b, np.array([127, -128, 100], np.int8)), _const(b, np.array([1, -1, 100], np.int8))),
    "sub-uint8-wraps": lambda b: b.sub(_const(b, np.array([0, 5, 255], np.uint8)), _const(b, np.array([1, 10, 0], np.uint8))),
    "mul-uint8-wraps": lambda b: b.mul(_const(b, np.array([16, 255, 3], np.uint8)), _const(b, np.array([16, 255, 85], np.uint8))),
    "mul-int8-wraps": lambda b: b.mul(_const(b, np.array([-128, 127, -7], np.int8)), _const(b, np.array([-1, 127, 19], np.int8))),
    "abs-neg-int8": lambda b: b.neg(b.abs(_const(b, np.array([-128, -5, 0, 127], np.int8)))),
    "prelu-int8-wraps": lambda b: b.prelu(_const(b, np.array([-128, -3, 5, -100], np.int8)),
                                          _const(b, np.array([3, -50, 7, 2], np.int8))),
    "relu-max-int8": lambda b: b.max(b.relu(_const(b, np.array([-128, -1, 0, 127], np.int8))), _const(b, np.int8(2))),
}


@pytest.mark.parametrize("name", sorted(EDGES))
def test_edge_cases_by_value_inference(name):
    got, ref = _folded(EDGES[name])
    np.testing.assert_array_equal(got, ref)


_CAST_TYPES = ["float32", "float16", "int32", "int8", "uint8"]
_CAST_DATA = {
    "float32": [np.nan, np.inf, -np.inf, -1e10, 3e9, 2147483520.0, -2147483648.0, -300.7, -128.9, -0.5, 0.99, 127.5,
                255.9, 256.0, 65504.0, 1e5],
    "float16": [np.nan, np.inf, -np.inf, -65504.0, -300.5, -128.9, -0.5, 0.99, 127.5, 255.9, 256.0, 65504.0],
    "int32": [-2147483648, 2147483647, -70000, -300, -129, -128, -1, 0, 127, 128, 255, 256, 70000],
    "int8": [-128, -1, 0, 1, 127],
    "uint8": [0, 1, 127, 128, 255],
}


@pytest.mark.parametrize("to", _CAST_TYPES)
@pytest.mark.parametrize("src", _CAST_TYPES)
def test_cast_by_value_inference(src, to):
    """Every claimed cast pair: saturation, NaN, truncation and wrap-around as in the reference."""
    x = np.array(_CAST_DATA[src], np.float64).astype(src)
    got, ref = _folded(lambda b: b.cast(_const(b, x), to))
    np.testing.assert_array_equal(got, ref)


@pytest.mark.parametrize("dt", ["float32", "float16", "int32", "int8", "uint8"])
@pytest.mark.parametrize("opts", [{"mode": "constant", "value": 7}, {"mode": "constant", "value": 300}, {"mode": "edge"},
                                  {"mode": "reflection"}])
def test_pad_by_value_inference(dt, opts):
    x = np.arange(24).reshape(2, 3, 4).astype(dt)
    got, ref = _folded(lambda b: b.pad(_const(b, x), [1, 0, 2], [0, 2, 3], opts))
    np.testing.assert_array_equal(got, ref)


POOLS = [("maxPool2d", "int32", {}), ("maxPool2d", "int8", {"padding": [1, 2, 0, 1], "strides": [2, 2]}),
         ("maxPool2d", "uint8", {"layout": "nhwc", "roundingType": "ceil", "strides": [2, 2]}),
         ("maxPool2d", "float32", {"dilations": [2, 1], "padding": [3, 3, 3, 3]}),
         ("averagePool2d", "float32", {"dilations": [1, 2], "padding": [1, 1, 2, 0], "roundingType": "ceil",
                                       "strides": [2, 2]}),
         ("averagePool2d", "float16", {"dilations": [2, 2]}),
         ("l2Pool2d", "float32", {"windowDimensions": [2, 3], "roundingType": "ceil", "strides": [2, 2]}),
         ("l2Pool2d", "float16", {"dilations": [2, 2], "layout": "nhwc"})]


@pytest.mark.parametrize(("op", "dt", "opts"), POOLS, ids=[f"{o}-{d}-{i}" for i, (o, d, _) in enumerate(POOLS)])
def test_pool_slices_by_value_inference(op, dt, opts):
    """Dilated windows, integer maxPool2d and l2Pool2d with ceil rounding (the strided-slice form)."""
    x = np.random.default_rng(4).uniform(-100, 100, (1, 7, 8, 3) if opts.get("layout") == "nhwc" else (1, 3, 7, 8))
    x = (np.abs(x) if dt == "uint8" else x).astype(dt)
    got, ref = _folded(lambda b: getattr(b, op)(_const(b, x), {"windowDimensions": [3, 2], **opts}))
    if op == "maxPool2d":
        np.testing.assert_array_equal(got, ref)
    else:
        np.testing.assert_allclose(got.astype(np.float64), ref.astype(np.float64), rtol=2e-3 if dt == "float16" else 1e-5)


@pytest.mark.parametrize("dt", ["float32", "float16"])
def test_round_even_ties_by_value_inference(dt):
    x = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5, -0.49999997, 0.49999997, 2.4, -2.6, 1e30, 8388609.0,
                  np.nan, np.inf, -np.inf], np.float32).astype(dt)
    got, ref = _folded(lambda b: b.roundEven(_const(b, x)))
    np.testing.assert_array_equal(got.astype(dt), ref)


@pytest.mark.parametrize(("xshape", "pshape"), [((2, 4), ()), ((2, 4), (4,)), ((2, 4), (2, 1)), ((2, 4), (1, 2)),
                                                 ((4, 6), (2, 3)), ((2, 2, 4), (2, 1, 2))])
@pytest.mark.parametrize("zdt", ["uint8", "int8"])
def test_quantization_by_value_inference(xshape, pshape, zdt):
    """Per-tensor, per-axis and block-wise parameters; ties, saturation, NaN and infinities."""
    rng = np.random.default_rng(7)
    n = int(np.prod(xshape))
    x = (np.round(rng.uniform(-300, 300, n) * 2) / 2).astype(np.float32)
    x[:4] = [np.nan, np.inf, -np.inf, 2.5]
    x = x.reshape(xshape)
    scale = rng.choice([0.5, 1.0, 2.0], pshape).astype(np.float32)
    zp = rng.integers(0, 5, pshape).astype(zdt)
    got, ref = _folded(lambda b: b.quantizeLinear(_const(b, x), _const(b, scale), _const(b, zp)))
    np.testing.assert_array_equal(got.astype(zdt), ref)
    q = rng.integers(0, 100, xshape).astype(zdt)
    got, ref = _folded(lambda b: b.dequantizeLinear(_const(b, q), _const(b, scale.astype(np.float16)), _const(b, zp)))
    np.testing.assert_array_equal(got.astype(np.float16), ref)


@pytest.mark.parametrize("dt", ["float32", "float16", "uint8", "int8"])
@pytest.mark.parametrize("opts", [{"sizes": [5, 3]}, {"scales": [1.5, 0.5], "mode": "linear"},
                                  {"sizes": [3, 7], "mode": "linear", "axes": [1, 2]}, {"scales": [2.0, 3.0]},
                                  {"sizes": [4, 5], "axes": [3, 0], "mode": "linear"}])
def test_resample2d_by_value_inference(dt, opts):
    x = np.random.default_rng(5).uniform(0, 100, (2, 3, 4, 5)).astype(dt)
    got, ref = _folded(lambda b: b.resample2d(_const(b, x), opts))
    if opts.get("mode") != "linear":
        np.testing.assert_array_equal(got.astype(dt), ref)  # nearest: exact
    elif dt.startswith("float"):  # within WPT's linear-mode ULP
        tol = 84 if dt == "float32" else 10
        np.testing.assert_allclose(got.astype(np.float64), ref.astype(np.float64), rtol=tol * np.finfo(dt).eps)
    else:  # float32 blends (the reference: float64) may round a near-tie the other way: 1, the op's tolerance
        np.testing.assert_allclose(got.astype(np.int64), ref.astype(np.int64), rtol=0, atol=1)


def test_dequantize_int32_by_value_inference():
    """int32 differences beyond float32's integers, rounded once as in the reference."""
    x = np.array([2**31 - 1, -2**31, 2**30 + 1, 16777217, -16777219, 5, 0, -1], np.int32).reshape(2, 4)
    zp = np.array([-1, 2**31 - 1, 2**30, -2**31], np.int32)
    scale = np.array([0.5, 1.0, 3.0, 1e-3], np.float32)
    got, ref = _folded(lambda b: b.dequantizeLinear(_const(b, x), _const(b, scale), _const(b, zp)))
    np.testing.assert_array_equal(got, ref)


def test_quantize_int32_by_value_inference():
    """int32 zero points added exactly and saturated, as the reference does in float64."""
    x = np.array([3e9, -3e9, 1073741825.0, 2.5, -2.5, np.nan, np.inf, -np.inf, 1e20, -7.0, 16777216.0, 33554436.0],
                 np.float32).reshape(3, 4)
    zp = np.array([2**31 - 1, -2**31, -7, 100000], np.int32)
    scale = np.array([1.0, 0.5, 3.0, 1.0], np.float32)
    got, ref = _folded(lambda b: b.quantizeLinear(_const(b, x), _const(b, scale), _const(b, zp)))
    np.testing.assert_array_equal(got, ref)


def _cnn(layout="nchw", filter_layout="oihw"):
    b = MLGraphBuilder(sweep.REF)
    shape = [1, 2, 6, 6] if layout == "nchw" else [1, 6, 6, 2]
    fshape = {"oihw": [3, 2, 3, 3], "hwio": [3, 3, 2, 3], "ohwi": [3, 3, 3, 2], "ihwo": [2, 3, 3, 3]}[filter_layout]
    x = b.input("x", {"dataType": "float32", "shape": shape})
    w = b.constant({"dataType": "float32", "shape": fshape}, np.ones(fshape, np.float32))
    y = b.conv2d(x, w, {"inputLayout": layout, "filterLayout": filter_layout, "padding": [1, 0, 1, 0],
                        "strides": [2, 1]})
    return b.build({"y": b.softmax(b.reshape(b.relu(y), [3, math.prod(y.shape) // 3]), 1)})


@pytest.mark.parametrize(("layout", "filter_layout"),
                         [("nchw", "oihw"), ("nhwc", "ohwi"), ("nhwc", "hwio"), ("nchw", "ihwo")])
def test_conv2d_layouts_agree(layout, filter_layout):
    mil_program(_cnn(layout, filter_layout).ir)


def test_disagreement_is_refused():
    ir = _cnn().ir
    out = ir.outputs["y"]
    ir.operands[out] = dataclasses.replace(ir.operands[out], shape=(3, 5))
    with pytest.raises(MilDisagreement, match="MIL infers"):
        mil_program(ir)


def test_op_without_lowering_is_a_compile_error(monkeypatch):
    monkeypatch.setattr(load_all()["relu"], "coreml", None)
    assert "relu" not in coreml_ops()
    with pytest.raises(OperationError, match="no Core ML lowering"):
        mil_program(_cnn().ir)


def _c(b, shape, seed=0, dt="float32"):
    return _const(b, np.random.default_rng(seed).uniform(-1, 1, shape).astype(dt))


RNN_CASES = [("gru", {}), ("gru", {"direction": "both", "layout": "rzn", "resetAfter": False}),
             ("gru", {"direction": "backward", "activations": ["relu", "tanh"], "all": True}),
             ("lstm", {}), ("lstm", {"direction": "both", "layout": "ifgo"}), ("lstm", {"direction": "backward", "all": True})]


@pytest.mark.parametrize("dt", ["float32", "float16"])
@pytest.mark.parametrize(("op", "opts"), RNN_CASES)
def test_rnn_by_value_inference(dt, op, opts):
    """The unrolled MIL GRU/LSTM folds (coremltools' value models) to the reference: the sequence output."""
    d, g = (2 if opts.get("direction") == "both" else 1), (3 if op == "gru" else 4) * 3

    def build(b):
        o = {k: v for k, v in opts.items() if k != "all"}
        if opts.get("all"):
            o.update(bias=_c(b, [d, g], 5, dt), recurrentBias=_c(b, [d, g], 6, dt), initialHiddenState=_c(b, [d, 2, 3], 7, dt))
            if op == "lstm":
                o.update(peepholeWeight=_c(b, [d, 9], 8, dt), initialCellState=_c(b, [d, 2, 3], 9, dt))
        return getattr(b, op)(_c(b, [4, 2, 5], 1, dt), _c(b, [d, g, 5], 2, dt), _c(b, [d, g, 3], 3, dt), 4, 3,
                              {**o, "returnSequence": True})[-1]

    got, ref = _folded(build)
    tol = 2e-3 if dt == "float16" else 1e-5
    np.testing.assert_allclose(got.astype(np.float32), ref.astype(np.float32), rtol=tol, atol=tol / 10)


def test_cells_by_value_inference():
    got, ref = _folded(lambda b: b.lstmCell(_c(b, [2, 5], 1), _c(b, [12, 5], 2), _c(b, [12, 3], 3), _c(b, [2, 3], 4),
                                            _c(b, [2, 3], 5), 3, {"peepholeWeight": _c(b, [9], 6)})[1])
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-6)
    got, ref = _folded(lambda b: b.gruCell(_c(b, [2, 5], 1), _c(b, [9, 5], 2), _c(b, [9, 3], 3), _c(b, [2, 3], 4), 3,
                                           {"resetAfter": False}))
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-6)


def _save_cases():
    """Per op: its first claimed type, and int8/uint8 where claimed (they cross the model's edges as int32)."""
    for op in coreml_ops():
        types = [dt for o, dt in CLAIMED if o == op]
        yield from ((op, dt) for dt in dict.fromkeys(types[:1] + [dt for dt in types if dt in ("int8", "uint8")]))


SAVE_CASES = list(_save_cases())


@pytest.mark.parametrize(("op", "dt"), SAVE_CASES, ids=[f"{op}-{dt}" for op, dt in SAVE_CASES])
def test_every_op_converts_and_saves(op, dt, tmp_path):
    """The whole conversion (coremltools' pass pipeline included), then .mlpackage saving."""
    graph, _ = _sweep_graph(op, dt)
    path = save_mlpackage(graph.ir, tmp_path / "m.mlpackage", COMPUTE_UNITS["cpu"])
    assert (path / "Manifest.json").is_file()


def test_conversion_does_no_full_garbage_collection(tmp_path):
    """coremltools' convert() ends with gc.collect(): a full collection walks every object of the
    host while holding the GIL (every page's session waits). Ours asks only for a young one."""
    import gc

    graph, _ = _sweep_graph("add", "float32")
    seen = []

    def record(phase, info):
        if phase == "start":
            seen.append(info["generation"])

    was_enabled = gc.isenabled()
    gc.disable()  # only explicit collections now
    gc.callbacks.append(record)
    try:
        save_mlpackage(graph.ir, tmp_path / "m.mlpackage", COMPUTE_UNITS["cpu"])
    finally:
        gc.callbacks.remove(record)
        if was_enabled:
            gc.enable()
    assert seen, "coremltools no longer collects: _coremltools() can go"
    assert max(seen) == 0, seen


@pytest.mark.parametrize(("pad", "out_pad"), [([1, 2, 0, 1], [1, 1]), ([0, 0, 0, 0], [1, 2]), ([2, 0, 1, 1], [1, 2])])
def test_conv_transpose2d_output_padding_identity(pad, out_pad):
    """What the Core ML lowering relies on, checked on the reference: outputPadding equals taking it
    off the ending padding, and where that padding is smaller, zero rows/columns appended before the bias."""
    rng = np.random.default_rng(11)
    x, w, bias = rng.standard_normal((1, 2, 3, 4)), rng.standard_normal((2, 3, 3, 2)), rng.standard_normal(3)

    def conv(b, padding, output_padding):
        return b.convTranspose2d(_const(b, x.astype(np.float32)), _const(b, w.astype(np.float32)),
                                 {"padding": padding, "outputPadding": output_padding, "strides": [3, 3]})

    b = MLGraphBuilder(sweep.REF)
    want = sweep.REF.compute(b.build({"y": b.add(conv(b, pad, out_pad), _const(b, bias.astype(np.float32).reshape(3, 1, 1)))}),
                             {})["y"]
    b = MLGraphBuilder(sweep.REF)
    kept = [pad[0], max(pad[1] - out_pad[0], 0), pad[2], max(pad[3] - out_pad[1], 0)]
    extra = [max(out_pad[0] - pad[1], 0), max(out_pad[1] - pad[3], 0)]
    y = b.pad(conv(b, kept, [0, 0]), [0, 0, 0, 0], [0, 0, *extra])
    got = sweep.REF.compute(b.build({"y": b.add(y, _const(b, bias.astype(np.float32).reshape(3, 1, 1)))}), {})["y"]
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def test_mlpackage_saves(tmp_path):
    path = save_mlpackage(_cnn("nhwc", "ohwi").ir, tmp_path / "cnn.mlpackage", COMPUTE_UNITS["npu"])
    assert (path / "Manifest.json").is_file()
    assert any(p.suffix == ".mlmodel" for p in path.rglob("*"))


def test_devices_are_compute_unit_choices():
    assert COMPUTE_UNITS == {"cpu": "CPU_ONLY", "gpu": "CPU_AND_GPU", "npu": "CPU_AND_NE"}
    devices = CoreMLBackend.probe()
    if platform.system() != "Darwin":
        assert devices == []
    else:
        assert {d.kind: d.providers[0] for d in devices} == COMPUTE_UNITS


@pytest.mark.skipif(platform.system() != "Darwin", reason="Core ML prediction needs macOS")
@pytest.mark.parametrize("kind", ["cpu", "gpu", "npu"])
def test_prediction_matches_reference(kind):
    device = next(d for d in CoreMLBackend.probe() if d.kind == kind)
    graph = _cnn()
    x = np.random.default_rng(3).standard_normal((1, 2, 6, 6)).astype(np.float32)
    got = CoreMLBackend.instance().compile(graph.ir, device).run({"x": x})["y"]
    ref = sweep.REF.compute(graph, {"x": x})["y"]
    np.testing.assert_allclose(got, ref, rtol=1e-3, atol=1e-4)  # the GPU/ANE may compute in float16


@pytest.mark.skipif(platform.system() != "Darwin", reason="Core ML prediction needs macOS")
def test_sweep_prediction_on_cpu_matches_reference():
    """Every claimed op x type of the capability sweep, predicted on Core ML's CPU (one test: the
    failures are listed together)."""
    device = next(d for d in CoreMLBackend.probe() if d.kind == "cpu")
    failures = []
    for op, dt in CLAIMED:
        graph, ins = _sweep_graph(op, dt)
        try:
            got = CoreMLBackend.instance().compile(graph.ir, device).run(ins)
            ref = sweep.REF.compute(graph, ins)
            sweep._compare_outputs(op, dt, [ref[n] for n in sorted(ref)], [got[n] for n in sorted(ref)])
        except Exception as e:  # noqa: BLE001 - collected, reported below
            failures.append(f"{op}-{dt}: {type(e).__name__}: {str(e)[:200]}")
    assert not failures, f"{len(failures)} of {len(CLAIMED)} failed:\n" + "\n".join(failures)


def test_run_converts_at_the_model_edges(monkeypatch):
    """Our side of prediction, on any OS: int8/uint8 and scalars go in as int32 / shape [1] and come
    back as WebNN's types and shapes. Core ML's predict is replaced by a recorder that answers what
    an ML Program with these edges returns (int32, rank >= 1): it checks our glue, not Core ML."""
    from coremltools.proto import FeatureTypes_pb2

    b = MLGraphBuilder(sweep.REF)
    a = b.input("a", {"dataType": "uint8", "shape": []})
    c = b.input("c", {"dataType": "int8", "shape": [3]})
    d = b.input("d", {"dataType": "uint8", "shape": [3]})
    f = b.input("f", {"dataType": "float32", "shape": []})
    graph = b.build({"eq": b.equal(b.expand(a, [3]), d), "same": b.reshape(c, [1, 3]), "neg": b.neg(f)})
    compiled = CoreMLBackend.instance().compile(graph.ir, Device(id="coreml:cpu", kind="cpu", backend="coreml",
                                                                  providers=("CPU_ONLY",)))
    seen = {}

    def predict(feeds):
        seen.update(feeds)
        return {compiled.out_map["eq"]: np.array([1, 0, 1], np.int32),
                compiled.out_map["same"]: np.array([[-3, 4, 5]], np.int32),
                compiled.out_map["neg"]: np.array([-2.5], np.float32)}

    monkeypatch.setattr(compiled.model, "predict", predict)
    out = compiled.run({"a": np.array(7, np.uint8), "c": np.array([-3, 4, 5], np.int8),
                        "d": np.array([7, 1, 7], np.uint8), "f": np.float32(2.5)})
    assert {k: (v.dtype, v.shape) for k, v in seen.items()} == {compiled.in_map["a"]: (np.int32, (1,)),
                                                                compiled.in_map["c"]: (np.int32, (3,)),
                                                                compiled.in_map["d"]: (np.int32, (3,)),
                                                                compiled.in_map["f"]: (np.float32, (1,))}
    assert (out["eq"].dtype, out["eq"].shape, out["same"].dtype, out["same"].shape) == (np.uint8, (3,), np.int8, (1, 3))
    assert out["neg"].shape == () and out["neg"].dtype == np.float32
    np.testing.assert_array_equal(out["same"], [[-3, 4, 5]])
    spec = compiled.model.get_spec().description
    types = {i.name: i.type.multiArrayType.dataType for i in (*spec.input, *spec.output)}
    assert types.pop(compiled.in_map["f"]) == types.pop(compiled.out_map["neg"]) == FeatureTypes_pb2.ArrayFeatureType.FLOAT32
    assert set(types.values()) == {FeatureTypes_pb2.ArrayFeatureType.INT32}


def _one(build):
    b = MLGraphBuilder(sweep.REF)
    return b.build({"y": build(b)}).ir


def test_option_paths_beyond_the_sweep():
    def x(b, shape):
        return b.input("x", {"dataType": "float32", "shape": shape})

    def c(b, shape):
        return b.constant({"dataType": "float32", "shape": shape}, np.ones(shape, np.float32))

    mil_program(_one(lambda b: b.batchNormalization(x(b, [2, 3, 4]), c(b, [4]), c(b, [4]), {"axis": 2})))
    mil_program(_one(lambda b: b.maxPool2d(x(b, [1, 5, 5, 2]), {"layout": "nhwc", "windowDimensions": [2, 2],
                                                                 "roundingType": "ceil", "strides": [2, 2]})))
    mil_program(_one(lambda b: b.gemm(x(b, [3, 2]), c(b, [4, 3]), {"aTranspose": True, "bTranspose": True,
                                                                    "alpha": 2.0, "c": c(b, [4]), "beta": 0.5})))
    mil_program(_one(lambda b: b.expand(x(b, [3, 1]), [2, 3, 4])))

