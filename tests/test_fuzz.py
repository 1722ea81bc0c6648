"""Graphs of several operators agree with the reference on every CPU backend (src/webnn_bridge/devtools/fuzz.py).

The sweep runs a fixed set of seeds of every data type through ``webnn-bridge fuzz``'s generator;
the tests after it keep the smallest form of each difference the fuzzer found, so that each fix
stays checked whatever the generator draws later."""

from __future__ import annotations

import functools
import re

import numpy as np
import pytest

from webnn_bridge.bridge.api import MLGraphBuilder
from webnn_bridge.devtools import fuzz
from webnn_bridge.ops.core import WebNNTypeError

# (data type, seeds): about 25 s of CPU in all
SWEEP = [("float32", range(0, 40)), ("float32", range(40, 80)), ("float16", range(0, 40)),
         *((t, range(0, 25)) for t in fuzz.INT_TYPES)]


@functools.cache
def contexts() -> dict:
    return fuzz.contexts()


@pytest.mark.parametrize(("data_type", "seeds"), SWEEP, ids=[f"{t}-{s.start}:{s.stop}" for t, s in SWEEP])
def test_random_graphs_agree_with_the_reference(data_type, seeds):
    if len(contexts()) < 2:
        pytest.skip("no backend besides the reference")
    findings = [str(f) for seed in seeds for f in fuzz.check(seed, data_type, contexts())]
    assert not findings, "\n".join(findings)


def test_the_fuzzer_reports_a_backend_that_differs(monkeypatch):
    """A backend whose results differ is reported (the sweep above can fail)."""
    ctxs = contexts()
    other = next(name for name in ctxs if name != "reference")
    real = fuzz._compute

    def off_by_one(ctx, graph, feeds):
        out = real(ctx, graph, feeds)
        if ctx is ctxs[other] and isinstance(out, dict):
            out = {k: v + np.ones((), v.dtype) for k, v in out.items()}
        return out

    monkeypatch.setattr(fuzz, "_compute", off_by_one)
    findings = fuzz.check(0, "float32", ctxs)
    assert findings and all(f.backend == other for f in findings)
    assert "differ" in findings[0].what


def test_fuzz_command_prints_a_summary_and_shows_a_graph():
    lines: list[str] = []
    assert fuzz.main(["--seeds", "3:5", "--type", "int32"], out=lines.append) == 0
    assert lines[-1].startswith("2 graphs (int32) on ") and "0 difference(s)" in lines[-1]
    for name in contexts():  # each backend with the graphs it ran, of the 2
        if name != "reference":
            assert re.search(rf"\b{re.escape(name)} \([012]\)", lines[-1]), lines[-1]
    if "onnxruntime" in contexts():
        assert "onnxruntime (2)" in lines[-1]  # (it claims every int32 operator)
    lines.clear()
    assert fuzz.main(["--show", "3"], out=lines.append) == 0
    assert lines[0].startswith("seed 3 float32: inputs") and "reference:" in lines[0]


# --------------------------------------------------------------------------- what the fuzzer found


def on_every_backend(build, feeds: dict[str, np.ndarray]) -> dict[str, dict[str, np.ndarray]]:
    """``build(builder) -> outputs`` built and computed on every CPU backend."""
    results = {}
    for name, ctx in contexts().items():
        b = MLGraphBuilder(ctx)
        try:
            graph = b.build(build(b))
        except WebNNTypeError as e:  # a backend that does not claim the operator or type sits it out
            if name == "reference" or "by this context" not in str(e):
                raise
            continue
        try:
            results[name] = ctx.compute(graph, feeds)
        finally:
            graph.destroy()
    return results


def assert_all_match(results: dict, exact: bool = False) -> None:
    ref = results.pop("reference")
    for name, got in results.items():
        for k, r in ref.items():
            assert got[k].shape == r.shape, f"{name}: {k} shape {got[k].shape}, expected {r.shape}"
            if exact:
                np.testing.assert_array_equal(got[k], r, err_msg=name)
            else:
                np.testing.assert_allclose(got[k], r, rtol=1e-5, atol=1e-6, err_msg=name)


def f32(b, shape, values=None):
    a = np.asarray(values if values is not None else np.linspace(-1, 1, int(np.prod(shape))), np.float32)
    return b.constant({"dataType": "float32", "shape": list(shape)}, a.reshape(shape))


def test_prelu_broadcasts_a_short_slope_along_the_last_axes():
    """OpenVINO's PRelu took a 1-D slope as long as the input's dimension 1 as per-channel."""
    x = np.linspace(-2, 2, 12, dtype=np.float32).reshape(3, 2, 2)
    r = on_every_backend(lambda b: {"y": b.prelu(b.input("x", {"dataType": "float32", "shape": [3, 2, 2]}),
                                                  f32(b, [2], [0.5, -3.0]))}, {"x": x})
    np.testing.assert_allclose(r["reference"]["y"], np.where(x >= 0, x, x * np.array([0.5, -3.0], np.float32)))
    assert_all_match(r)


def test_a_rank_0_input_keeps_its_rank():
    """PyTorch's backend got rank-0 inputs as shape [1] (np.ascontiguousarray makes 0-d arrays
    1-d): a transpose of one then refused its empty permutation."""
    r = on_every_backend(lambda b: {"y": b.floor(b.transpose(b.input("x", {"dataType": "float32", "shape": []})))},
                         {"x": np.array(2.5, np.float32)})
    assert r["reference"]["y"].shape == ()
    assert_all_match(r)


POW_CASES = [(be, dt) for be in ("onnxruntime", "openvino", "torch") for dt in fuzz.INT_TYPES]


@pytest.mark.parametrize(("backend", "dt"), POW_CASES)
def test_integer_pow_keeps_the_low_bits_on_overflow(backend, dt):
    """ONNX Runtime computed integer pow through float64: (2^32 - 3)^3 as uint32 came back 0, not
    the low 32 bits of the power, as integer mul wraps."""
    if backend not in contexts():
        pytest.skip(f"{backend} is not available")
    info = np.iinfo(dt)
    base = np.array([info.max - 2, 3, info.max // 3, 0, 1, 7], dt)
    if info.min < 0:
        base = np.concatenate([base, np.array([info.min + 1, -3, -1], dt)])
    exp = np.array([3, 40, 2, 5, 63, 11] + ([7, 33, 9] if info.min < 0 else []), dt)
    expected = np.array([pow(int(a), int(e), 2 ** (8 * base.itemsize)) for a, e in zip(base, exp)], dtype=object)
    b = MLGraphBuilder(contexts()[backend])
    try:
        y = b.pow(b.input("a", {"dataType": dt, "shape": [len(base)]}), b.input("e", {"dataType": dt, "shape": [len(exp)]}))
    except WebNNTypeError as e:
        assert "by this context" in str(e)
        pytest.skip(f"{backend} does not claim pow on {dt}")
    graph = b.build({"y": y})
    got = contexts()[backend].compute(graph, {"a": base, "e": exp})["y"]
    np.testing.assert_array_equal(got, expected.astype(np.uint64).astype(dt))


@pytest.mark.parametrize("padding", [[0, 0, 1, 1], [0, 0, 1, 0], [1, 1, 0, 0], [1, 0, 1, 1]])
def test_a_padded_strided_pointwise_convolution_after_another_operation(padding):
    """OpenVINO moved a 1x1 convolution's strides onto the operation before it and lost its
    padding: an output one element too wide, or wrong values with padding on one side."""
    x = np.arange(1, 16, dtype=np.float32).reshape(1, 1, 3, 5)

    def build(b):
        y = b.relu(b.input("x", {"dataType": "float32", "shape": [1, 1, 3, 5]}))
        return {"y": b.conv2d(y, f32(b, [1, 1, 1, 1], [0.5]), {"padding": padding, "strides": [2, 2]})}

    assert_all_match(on_every_backend(build, {"x": x}))


def test_an_average_pool_window_of_padding_alone_is_nan():
    """Such a window averages no element (0/0); OpenVINO gave 0."""
    x = np.ones((1, 1, 3, 1), np.float32)
    r = on_every_backend(lambda b: {"y": b.averagePool2d(b.input("x", {"dataType": "float32", "shape": [1, 1, 3, 1]}),
                                                         {"windowDimensions": [1, 1], "padding": [0, 0, 1, 1]})},
                         {"x": x})
    assert np.isnan(r["reference"]["y"][..., 0]).all() and (r["reference"]["y"][..., 1] == 1).all()
    for name, got in r.items():
        np.testing.assert_array_equal(np.isnan(got["y"]), np.isnan(r["reference"]["y"]), err_msg=name)


@pytest.mark.parametrize("dt", ["float32", "float16"])
@pytest.mark.parametrize("then", ["mul", "add", "sub"])
def test_a_per_channel_constant_after_a_reduction(dt, then):
    """OpenVINO fused the elementwise operation into the reduction and applied a [C, 1] constant
    along the wrong axis (wrong values, no error)."""
    x = np.random.default_rng(5).uniform(-2, 2, (6, 3, 4)).astype(dt)

    def build(b):
        r = b.reduceSum(b.input("x", {"dataType": dt, "shape": [6, 3, 4]}), {"axes": [2], "keepDimensions": True})
        c = b.constant({"dataType": dt, "shape": [3, 1]}, np.array([[1], [2], [3]], dt))
        return {"y": getattr(b, then)(b.abs(r), c)}

    r = on_every_backend(build, {"x": x})
    ref = r.pop("reference")["y"].astype(np.float64)
    for name, got in r.items():
        np.testing.assert_allclose(got["y"].astype(np.float64), ref, rtol=2e-3 if dt == "float16" else 1e-5,
                                   atol=1e-2 if dt == "float16" else 1e-5, err_msg=name)


@pytest.mark.parametrize("op", ["reduceSum", "reduceL1", "reduceSumSquare", "reduceProduct"])
def test_int32_reductions_wrap_on_overflow(op):
    """ONNX Runtime's int32 ReduceSum, ReduceL1 and ReduceSumSquare kernels saturated at 2^31 - 1;
    the reference (and native Chromium) keep the low 32 bits, as int32 add does."""
    x = np.array([[2**31 - 1, 5, 2**30], [-(2**31), -7, 46341]], np.int32)
    r = on_every_backend(lambda b: {"y": getattr(b, op)(b.input("x", {"dataType": "int32", "shape": [2, 3]}),
                                                        {"axes": [1]})}, {"x": x})
    wide = x.astype(np.int64)
    expected = {"reduceSum": wide.sum(1), "reduceL1": np.abs(wide).sum(1), "reduceSumSquare": (wide * wide).sum(1),
                "reduceProduct": wide.prod(1)}[op]
    np.testing.assert_array_equal(r["reference"]["y"], (expected % 2**32).astype(np.uint32).astype(np.int32))
    assert_all_match(r, exact=True)


@pytest.mark.parametrize("to", ["int32", "uint32"])
def test_casts_to_32bit_integers_saturate(to):
    """OpenVINO computes the float64 of the saturating cast in float32, where 2^31 - 1 rounds up to
    2^31: float16 infinity cast to int32 came back -2^31."""
    x = np.array([np.inf, -np.inf, 65504, -65504, np.nan, 3.75], np.float16)
    r = on_every_backend(lambda b: {"y": b.cast(b.input("x", {"dataType": "float16", "shape": [6]}), to)}, {"x": x})
    info = np.iinfo(to)
    np.testing.assert_array_equal(r["reference"]["y"], np.array([info.max, info.min, min(65504, info.max),
                                                                 max(-65504, info.min), 0, 3], to))
    assert_all_match(r, exact=True)


def test_abs_of_a_value_computed_from_float16_constants():
    """OpenVINO folded abs(min(a, b)) of two float16 constants into min's result, sign kept."""
    a = np.array([1.15, 0.43, -1.29, 1.92], np.float16)

    def build(b):
        c = b.constant({"dataType": "float16", "shape": [4]}, a)
        return {"y": b.abs(b.min(c, b.constant({"dataType": "float16", "shape": [1]}, np.array([0.11], np.float16))))}

    r = on_every_backend(build, {})
    np.testing.assert_array_equal(r["reference"]["y"], np.abs(np.minimum(a, np.float16(0.11))))
    assert_all_match(r, exact=True)


@pytest.mark.parametrize("first", ["layerNormalization", "gru"])
def test_a_float16_value_cast_back_then_transposed_into_a_matmul(first):
    """ONNX Runtime 1.32 crashed (a segfault, taking the host with it) creating the session of
    Cast(float32 -> float16), Transpose, MatMul: the lowering of a float16 gru or normalization
    ends in such a cast. The backend turns the fusion that crashed off for float16 graphs."""
    x = np.random.default_rng(2).uniform(-1, 1, (1, 2, 4)).astype(np.float16)

    def build(b):
        h = lambda shape: b.constant({"dataType": "float16", "shape": list(shape)},  # noqa: E731
                                     np.full(shape, 0.25, np.float16))
        y = b.input("x", {"dataType": "float16", "shape": [1, 2, 4]})
        if first == "gru":
            y = b.gru(y, h((1, 6, 4)), h((1, 6, 2)), 1, 2, {"returnSequence": True})[1]
            y = b.reshape(y, [1, 2, 2])
        else:
            y = b.layerNormalization(y, {"axes": [2]})
        t = b.transpose(y, {"permutation": [1, 0, 2]})
        return {"y": b.matmul(t, h((t.shape[-1], 3)))}

    r = on_every_backend(build, {"x": x})
    ref = r.pop("reference")["y"].astype(np.float64)
    for name, got in r.items():
        np.testing.assert_allclose(got["y"].astype(np.float64), ref, rtol=5e-3, atol=5e-3, err_msg=name)
