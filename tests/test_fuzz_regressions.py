"""The smallest form of each difference that the wider fuzz campaign (seeds 7000 and up, every data
type, src/webnn_bridge/devtools/fuzz.py) found, each with its seed: the graph is written out, so that the fix stays
checked whatever the generator draws later, and the seed is run too."""

from __future__ import annotations

import numpy as np
import pytest

from tests.test_fuzz import assert_all_match, contexts, on_every_backend
from webnn_bridge.bridge.api import MLGraphBuilder
from webnn_bridge.devtools import fuzz


def _needs(backend: str):
    if backend not in contexts():
        pytest.skip(f"{backend} is not available")
    return contexts()[backend]


def test_seed_7207_float16_an_output_folded_to_a_constant():
    """OpenVINO: a float16 graph whose cast from a computed float16 value cuts it into parts
    (float16_boundaries), with a second output computed from a constant alone, which the backend
    folds into a constant. No part computed that output and the partitioned run looked it up
    among the parts' results: KeyError. Found as seed 7207 float16 (clamp, cast to int8 and back
    to float16, of an input and of a constant)."""
    x = np.array([-2.75, -1.5, -0.4, 0.0, 0.9, 1.25, 1.999, -1.999, 2.5, -0.0, 0.5, -2.0], np.float16).reshape(4, 3)
    k = np.array([1.7, -0.6, -1.2, 0.3, 1.0, -2.4], np.float16).reshape(2, 3)

    def build(b):
        def round_trip(v):
            return b.cast(b.cast(b.clamp(v, {"minValue": -100, "maxValue": 100}), "int8"), "float16")

        return {"out": round_trip(b.input("x", {"dataType": "float16", "shape": [4, 3]})),
                "mid": round_trip(b.constant({"dataType": "float16", "shape": [2, 3]}, k))}

    r = on_every_backend(build, {"x": x})
    np.testing.assert_array_equal(r["reference"]["out"], np.trunc(x))
    np.testing.assert_array_equal(r["reference"]["mid"], np.trunc(k))
    assert "openvino" in r or "openvino" not in contexts()
    assert_all_match(r, exact=True)


def test_seed_7207_float16_runs_in_parts_on_openvino():
    """The graph above takes the path that failed: OpenVINO runs it in parts, the folded output
    kept aside and returned with the others (a copy each time)."""
    from webnn_bridge.backends.openvino import OpenVinoSplit

    ctx = _needs("openvino")
    b = MLGraphBuilder(ctx)
    c = b.constant({"dataType": "float16", "shape": [2]}, np.array([1.5, -2.5], np.float16))
    x = b.input("x", {"dataType": "float16", "shape": [2]})
    g = b.build({"out": b.cast(b.cast(b.relu(x), "int8"), "float16"), "mid": b.cast(b.cast(c, "int8"), "float16")})
    assert isinstance(g.compiled, OpenVinoSplit) and set(g.compiled.constant_outputs) == {"mid"}
    first = ctx.compute(g, {"x": np.array([2.5, -1.0], np.float16)})
    first["mid"][0] = 99
    again = ctx.compute(g, {"x": np.array([-3.0, 7.75], np.float16)})
    assert again["out"].tolist() == [0.0, 7.0] and again["mid"].tolist() == [1.0, -2.0]


B24 = 2**24


def test_seed_8444_int32_reduce_min_of_large_values():
    """OpenVINO computed int32 reduceMin in float32: -880226899 came back -880226880 (seed 8444
    int32: reduceMin over every axis of an input anywhere in int32's range, then expand). The
    backend runs it on ONNX Runtime, between OpenVINO's parts, as the integer div and pow."""
    x = np.array([[-880226899], [1509987871], [-880226898]], np.int32)

    def build(b):
        y = b.reduceMin(b.input("x", {"dataType": "int32", "shape": [3, 1]}), {"axes": [0, 1], "keepDimensions": True})
        return {"out": b.expand(y, [2, 1, 1])}

    r = on_every_backend(build, {"x": x})
    np.testing.assert_array_equal(r["reference"]["out"], np.full((2, 1, 1), -880226899, np.int32))
    assert "openvino" in r or "openvino" not in contexts()
    assert_all_match(r, exact=True)


# each against the value one above or below it (equal in float32) and a far one
LARGE_A = np.array([B24 + 1, B24 + 2, -(B24 + 1), 2**30 + 1, B24 + 3, 2**31 - 1, -(2**31), 5], np.int32)
LARGE_B = np.array([B24, B24 + 3, -(B24 + 2), 2**30, B24 + 3, 2**31 - 2, -(2**31) + 1, 5], np.int32)


@pytest.mark.parametrize("op", ["equal", "notEqual", "greater", "greaterOrEqual", "lesser", "lesserOrEqual",
                                "reduceMax", "reduceMin", "where"])
def test_int32_comparisons_and_extremes_of_large_values(op):
    """After seed 8444: OpenVINO computed every int32 comparison and reduceMax/reduceMin in
    float32 (equal(16777217, 16777216) was true, and a where() fused with its comparison passed
    its values through float32 too); the tables that say so had no large-value case for them."""
    wide_a, wide_b = LARGE_A.astype(np.int64), LARGE_B.astype(np.int64)
    expected = {"equal": wide_a == wide_b, "notEqual": wide_a != wide_b, "greater": wide_a > wide_b,
                "greaterOrEqual": wide_a >= wide_b, "lesser": wide_a < wide_b, "lesserOrEqual": wide_a <= wide_b,
                "reduceMax": wide_a.reshape(2, 4).max(1), "reduceMin": wide_a.reshape(2, 4).min(1),
                "where": np.where(wide_a > wide_b, wide_a, wide_b)}[op]

    def build(b):
        # (computed operands: an input fed straight to the comparison was exact)
        a = b.add(b.input("a", {"dataType": "int32", "shape": [8]}), b.constant("int32", 0))
        if op.startswith("reduce"):
            return {"y": getattr(b, op)(b.reshape(a, [2, 4]), {"axes": [1]})}
        c = b.add(b.input("b", {"dataType": "int32", "shape": [8]}), b.constant("int32", 0))
        if op == "where":
            return {"y": b.where(b.greater(a, c), a, c)}
        return {"y": getattr(b, op)(a, c)}

    r = on_every_backend(build, {"a": LARGE_A} if op.startswith("reduce") else {"a": LARGE_A, "b": LARGE_B})
    np.testing.assert_array_equal(r["reference"]["y"], expected.astype(r["reference"]["y"].dtype))
    assert_all_match(r, exact=True)


def test_seed_8799_float32_gather_elements_of_a_slice():
    """OpenVINO's EliminateSliceBeforeGatherElements dropped a slice that starts at 0 before a
    gatherElements though the slice cut another axis than the gathered one: data [1, 4, 2] and
    indices [1, 2, 2] no longer fit, and the graph failed to compile (seed 8799 float32:
    layerNormalization, slice to [1, 2, 1], gatherElements along axis 2)."""
    x = np.arange(8, dtype=np.float32).reshape(1, 4, 2) - 3.5

    def build(b):
        y = b.relu(b.input("x", {"dataType": "float32", "shape": [1, 4, 2]}))
        s = b.slice(y, [0, 0, 0], [1, 2, 1])
        idx = b.constant({"dataType": "int32", "shape": [1, 2, 2]}, np.zeros((1, 2, 2), np.int32))
        return {"out": b.gatherElements(s, idx, {"axis": 2}), "mid": y}

    r = on_every_backend(build, {"x": x})
    sliced = np.maximum(x, 0)[:, :2, :1]
    np.testing.assert_array_equal(r["reference"]["out"], np.take_along_axis(sliced, np.zeros((1, 2, 2), int), 2))
    assert "openvino" in r or "openvino" not in contexts()
    assert_all_match(r, exact=True)


@pytest.mark.parametrize("dt", ["float32", "float16"])
@pytest.mark.parametrize(("width", "padding", "after"), [(1, [0, 0, 0, 1], "bias"), (3, [0, 0, 0, 2], "bias"),
                                                         (2, [0, 0, 0, 1], "add"), (1, [1, 1, 1, 1], "bias"),
                                                         (1, [0, 1, 0, 0], "")])
def test_seeds_13214_and_18216_a_padded_pointwise_convolution_of_one_row(dt, width, padding, after):
    """OpenVINO's CPU plugin crashed the process (a segfault, the host with it) running a 1x1
    convolution of a [1, C, 1, W] value with padding at the end of its width and a bias (or a
    per-channel add, which it folds into one): seeds 13214 (float32 and float16) and 18216
    float32, each a [1, 1, 1, 1] value with padding [0, 0, 0, 1]. The backend pads the
    convolution's result instead, and adds the bias after."""
    x = (np.arange(2 * width, dtype=np.float32).reshape(1, 2, 1, width) - 1.5).astype(dt)
    w = np.array([0.5, -1, 2, 0.25, -0.75, 1.5], dt).reshape(3, 2, 1, 1)
    bias = np.array([0.125, -0.5, 1], dt)

    def build(b):
        y = b.relu(b.input("x", {"dataType": dt, "shape": [1, 2, 1, width]}))
        opts = {"padding": padding}
        if after == "bias":
            opts["bias"] = b.constant({"dataType": dt, "shape": [3]}, bias)
        y = b.conv2d(y, b.constant({"dataType": dt, "shape": [3, 2, 1, 1]}, w), opts)
        if after == "add":
            y = b.add(y, b.constant({"dataType": dt, "shape": [1, 3, 1, 1]}, bias.reshape(1, 3, 1, 1)))
        return {"y": y}

    r = on_every_backend(build, {"x": x})
    padded = np.pad(np.maximum(x.astype(np.float64), 0), [(0, 0), (0, 0), padding[:2], padding[2:]])
    want = np.einsum("oi,nihw->nohw", w[:, :, 0, 0].astype(np.float64), padded)
    want += bias.astype(np.float64).reshape(1, 3, 1, 1) if after else 0
    got = r.pop("reference")["y"]
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=1e-3 if dt == "float16" else 1e-6)
    assert "openvino" in r or "openvino" not in contexts()
    for name, out in r.items():
        np.testing.assert_allclose(out["y"].astype(np.float64), got.astype(np.float64),
                                   rtol=1e-3 if dt == "float16" else 1e-6, atol=1e-6, err_msg=name)


def test_seed_12891_float16_products_stay_finite():
    """The fuzzer's float16 reduceProduct of up to 256 values overflowed float16 to inf (seed 12891:
    a softmax of it was NaN on the reference, 1 on OpenVINO, which computes float16 in float32, a
    known limit): a difference of the arithmetic, not of a backend. Its float16 products now read
    tanh of the value, below 1 in magnitude."""
    ctx = contexts()["reference"]
    b = MLGraphBuilder(ctx)
    outputs, feeds = fuzz.draw_graph(b, 12891, "float16")
    g = b.build(outputs)
    made_by = {o: n.op for n in g.ir.nodes for o in n.outputs}
    products = [n for n in g.ir.nodes if n.op == "reduceProduct"]
    assert products and all(made_by.get(n.call.args["input"].id) == "tanh" for n in products)
    out = ctx.compute(g, {k: v for k, v in feeds.items() if k in g.ir.inputs})
    assert all(np.isfinite(v).all() for v in out.values())


@pytest.mark.parametrize(("seed", "data_type"), [(7207, "float16"), (8444, "int32"), (8799, "float32"),
                                                 (12891, "float16"), (13214, "float32"), (13214, "float16"),
                                                 (18216, "float32")])
def test_the_seeds_agree_with_the_reference(seed, data_type):
    if len(contexts()) < 2:
        pytest.skip("no backend besides the reference")
    findings = [str(f) for f in fuzz.check(seed, data_type, contexts())]
    assert not findings, "\n".join(findings)
