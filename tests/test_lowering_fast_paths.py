"""Faster ONNX for two shapes of work onnxruntime-web's WebNN EP sends (issue 39, real models): a
pooling window that covers the whole input (ONNX GlobalAveragePool arrives as such an
averagePool2d) lowers to ONNX's global pools, and nearest-neighbour resample2d by integer factors
to ONNX Runtime's asymmetric floor mode; hard-swish spelt as x * clip(x + 3, 0, 6) / 6 to ONNX
HardSwish (fuse_patterns), a convolution's output scaled and shifted by one-element constants gets
them per channel (which ONNX Runtime folds into the convolution), any other value scaled and
shifted so is one BatchNormalization, and a convolution of a 1 x 1 input stays 2-D on the host. Each must give
what the reference gives, on every CPU backend, and the slower general form must stay where the
fast one would differ."""

from __future__ import annotations

import numpy as np
import pytest

from tests.test_fuzz import assert_all_match, on_every_backend
from webnn_bridge.backends.onnx_lowering import lower_graph
from webnn_bridge.backends.onnxruntime import supported_ir_version
from webnn_bridge.bridge.api import ML, MLGraphBuilder
from webnn_bridge.policy.inventory import REFERENCE_CPU


def _onnx_nodes(build) -> list:
    b = MLGraphBuilder(ML([REFERENCE_CPU]).createContext({}))
    model, _, _ = lower_graph(b._collect(build(b)), supported_ir_version())
    return list(model.graph.node)


def _x(shape, dtype="float32", seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


POOLS = {"averagePool2d": ("GlobalAveragePool", "AveragePool"), "maxPool2d": ("GlobalMaxPool", "MaxPool"),
         "l2Pool2d": ("GlobalLpPool", "LpPool")}


@pytest.mark.parametrize("op", sorted(POOLS))
@pytest.mark.parametrize("layout", ["nchw", "nhwc"])
def test_a_window_over_the_whole_input_is_a_global_pool(op, layout):
    shape = [2, 3, 5, 7] if layout == "nchw" else [2, 5, 7, 3]

    def build(b, options=None):
        x = b.input("x", {"dataType": "float32", "shape": shape})
        return {"y": getattr(b, op)(x, {"layout": layout, **(options or {})})}

    for options in ({}, {"windowDimensions": [5, 7]}, {"windowDimensions": [5, 7], "strides": [3, 2]}):
        types = [n.op_type for n in _onnx_nodes(lambda b, o=options: build(b, o))]
        assert POOLS[op][0] in types and POOLS[op][1] not in types, (options, types)
        r = on_every_backend(lambda b, o=options: build(b, o), {"x": _x(shape)})
        assert r["reference"]["y"].shape == ((2, 3, 1, 1) if layout == "nchw" else (2, 1, 1, 3))
        assert_all_match(r)


@pytest.mark.parametrize("options", [
    {"windowDimensions": [5, 7], "padding": [1, 0, 0, 0]},  # padding: not the whole window any more
    {"windowDimensions": [3, 7]},  # part of the input
    {"windowDimensions": [3, 4], "dilations": [2, 2]},  # dilated over the input, still one output
])
def test_other_windows_keep_the_general_pool(options):
    def build(b):
        return {"y": b.averagePool2d(b.input("x", {"dataType": "float32", "shape": [1, 2, 5, 7]}), options)}

    types = [n.op_type for n in _onnx_nodes(build)]
    assert "GlobalAveragePool" not in types
    assert_all_match(on_every_backend(build, {"x": _x([1, 2, 5, 7])}))


def test_a_float16_whole_window_keeps_the_general_pool():
    def build(b):
        return {"y": b.averagePool2d(b.input("x", {"dataType": "float16", "shape": [1, 2, 4, 4]}))}

    assert "GlobalAveragePool" not in [n.op_type for n in _onnx_nodes(build)]


def _resize_attrs(build) -> dict:
    (node,) = [n for n in _onnx_nodes(build) if n.op_type == "Resize"]
    return {a.name: a.s.decode() for a in node.attribute if a.s}


@pytest.mark.parametrize(("shape", "options", "fast"), [
    ([1, 2, 3, 5], {"scales": [2.0, 2.0]}, True),
    ([1, 2, 3, 5], {"scales": [3.0, 1.0]}, True),
    ([1, 2, 3, 5], {"sizes": [12, 15]}, True),  # factors 4 and 3
    ([1, 2, 3, 5], {"sizes": [3, 5]}, True),  # factor 1: the input
    ([2, 4, 4, 3], {"scales": [2.0, 3.0], "axes": [1, 2]}, True),
    ([1, 2, 4, 6], {"scales": [1.5, 2.0]}, False),  # 6 = 1.5 * 4: not an integer factor
    ([1, 2, 4, 6], {"sizes": [2, 12]}, False),  # a downsample on one axis
    ([1, 2, 5, 5], {"sizes": [7, 10]}, False),
])
def test_nearest_by_integer_factors_uses_the_floor_mode(shape, options, fast):
    def build(b):
        return {"y": b.resample2d(b.input("x", {"dataType": "float32", "shape": shape}),
                                  {"mode": "nearest-neighbor", **options})}

    attrs = _resize_attrs(build)
    assert attrs["coordinate_transformation_mode"] == ("asymmetric" if fast else "half_pixel"), attrs
    assert attrs["nearest_mode"] == ("floor" if fast else "round_prefer_floor")
    assert_all_match(on_every_backend(build, {"x": _x(shape)}), exact=True)


def test_linear_resample_keeps_half_pixel():
    def build(b):
        return {"y": b.resample2d(b.input("x", {"dataType": "float32", "shape": [1, 1, 3, 3]}),
                                  {"mode": "linear", "scales": [2.0, 2.0]})}

    assert _resize_attrs(build)["coordinate_transformation_mode"] == "half_pixel"


def _scalar(b, value):
    return b.constant({"dataType": "float32", "shape": []}, np.array(value, np.float32))


def _hard_swish(b, x, add=3.0, low=0.0, high=6.0, divide=True, swap=False):
    """x * clip(x + 3, 0, 6) / 6, as PaddleOCR's ONNX models spell hard-swish."""
    c = b.clamp(b.add(x, _scalar(b, add)), {"minValue": low, "maxValue": high})
    y = b.mul(c, x) if swap else b.mul(x, c)
    return (b.div(y, _scalar(b, 6.0)) if divide else b.mul(y, _scalar(b, float(np.float32(1 / 6))))), c


def _conv_input(b, shape=(1, 4, 6, 6), dtype="float32"):
    x = b.input("x", {"dataType": dtype, "shape": list(shape)})
    w = b.constant({"dataType": dtype, "shape": [4, 4, 3, 3]},
                   (np.random.default_rng(1).standard_normal((4, 4, 3, 3)) * 0.5).astype(dtype))
    return b.conv2d(x, w, {"padding": [1, 1, 1, 1]})


@pytest.mark.parametrize(("divide", "swap"), [(True, False), (True, True), (False, False)])
def test_hard_swish_spelt_out_is_one_hard_swish(divide, swap):
    def build(b):
        return {"y": _hard_swish(b, _conv_input(b), divide=divide, swap=swap)[0]}

    types = [n.op_type for n in _onnx_nodes(build)]
    assert types.count("HardSwish") == 1 and not {"Clip", "Mul", "Div", "Add"} & set(types), types
    x = _x([1, 4, 6, 6]) * 4  # values across both bends (-3, 3) and beyond
    assert_all_match(on_every_backend(build, {"x": x}))


@pytest.mark.parametrize("case", ["bounds", "offset", "clip also an output", "float16"])
def test_what_is_not_hard_swish_stays_as_it_is(case):
    def build(b):
        dtype = "float16" if case == "float16" else "float32"
        x = _conv_input(b, dtype=dtype)
        if dtype == "float16":
            c = b.clamp(b.add(x, b.constant({"dataType": "float16", "shape": []}, np.array(3, np.float16))),
                        {"minValue": 0.0, "maxValue": 6.0})
            return {"y": b.div(b.mul(x, c), b.constant({"dataType": "float16", "shape": []}, np.array(6, np.float16)))}
        y, c = _hard_swish(b, x, high=5.0 if case == "bounds" else 6.0, add=2.0 if case == "offset" else 3.0)
        return {"y": y, "c": c} if case == "clip also an output" else {"y": y}

    types = [n.op_type for n in _onnx_nodes(build)]
    assert "HardSwish" not in types, types
    if case != "float16":
        assert_all_match(on_every_backend(build, {"x": _x([1, 4, 6, 6]) * 4}))


def test_a_runtime_of_unknown_support_gets_no_fused_pattern():
    b = MLGraphBuilder(ML([REFERENCE_CPU]).createContext({}))
    ir = b._collect({"y": _hard_swish(b, _conv_input(b))[0]})
    for fuse, target, fused in ((True, "native", True), (False, "native", False), (True, "wasm", False)):
        types = [n.op_type for n in lower_graph(ir, supported_ir_version(), fuse=fuse, target=target)[0].graph.node]
        assert ("HardSwish" in types) == fused, (fuse, target, types)


def test_the_rewrite_leaves_the_built_graph_as_it_was():
    """A built graph is shared (the build memo, the compile cache's digest): the rewrite that
    lowerings apply returns a new graph and leaves the page's as it is."""
    from webnn_bridge.ops import rewrite

    b = MLGraphBuilder(ML([REFERENCE_CPU]).createContext({}))
    ir = b._collect({"y": _hard_swish(b, _conv_input(b), swap=True)[0]})
    before = [n.op for n in ir.nodes]
    new = rewrite.hard_swish(ir)
    assert [n.op for n in ir.nodes] == before == ["conv2d", "add", "clamp", "mul", "div"]
    assert [n.op for n in new.nodes] == ["conv2d", "hardSwish"]
    assert new.nodes[1].outputs == ir.nodes[-1].outputs and new.outputs == ir.outputs
    b = MLGraphBuilder(ML([REFERENCE_CPU]).createContext({}))
    other = b._collect({"y": _hard_swish(b, _conv_input(b), add=2.0)[0]})
    assert rewrite.hard_swish(other) is other  # nothing matched: the same graph


def test_a_convolution_of_a_one_by_one_input_stays_two_dimensional_on_the_host():
    """A squeeze-and-excitation block's convolutions of its pooled channels: no reshapes to 1-D
    around them on the host (the page's wasm keeps its 1-D form)."""
    def build(b):
        x = b.input("x", {"dataType": "float32", "shape": [1, 8, 1, 1]})
        w = b.constant({"dataType": "float32", "shape": [4, 8, 1, 1]},
                       np.random.default_rng(2).standard_normal((4, 8, 1, 1)).astype(np.float32))
        return {"y": b.relu(b.conv2d(x, w))}

    b = MLGraphBuilder(ML([REFERENCE_CPU]).createContext({}))
    ir = b._collect(build(b))
    for target, rank in (("native", 2), ("wasm", 1)):
        nodes = lower_graph(ir, supported_ir_version(), target=target)[0].graph.node
        (conv,) = [n for n in nodes if n.op_type in ("Conv", "MatMul")] or [None]
        if conv is not None and conv.op_type == "Conv":
            kernel = next(a.ints for a in conv.attribute if a.name == "kernel_shape")
            assert len(kernel) == rank, (target, kernel)
        if target == "native":
            assert conv is not None and conv.op_type == "Conv" and "Reshape" not in [n.op_type for n in nodes]
    assert_all_match(on_every_backend(build, {"x": _x([1, 8, 1, 1])}))


def _affine(b, y, scale=1.5, shift=-0.25):
    """y * scale + shift with one-element constants, as PP-LCNetV3's learnable affine blocks."""
    s = b.constant({"dataType": "float32", "shape": [1]}, np.array([scale], np.float32))
    t = b.constant({"dataType": "float32", "shape": [1]}, np.array([shift], np.float32))
    return b.add(b.mul(s, y), t)


def _lowered(build):
    b = MLGraphBuilder(ML([REFERENCE_CPU]).createContext({}))
    model = lower_graph(b._collect(build(b)), supported_ir_version())[0]
    return list(model.graph.node), {t.name: list(t.dims) for t in model.graph.initializer}


def test_a_convolutions_affine_step_gets_its_constants_per_channel_and_a_later_one_is_batch_normalization():
    def build(b):
        y = _affine(b, _conv_input(b))
        return {"y": _affine(b, _hard_swish(b, y)[0])}  # after the activation

    nodes, inits = _lowered(build)
    steps = [n for n in nodes if n.op_type in ("Mul", "Add")]
    assert len(steps) == 2, [n.op_type for n in nodes]
    assert [inits.get(n.input[1]) for n in steps] == [[4, 1, 1], [4, 1, 1]]  # the conv's output first
    (bn,) = [n for n in nodes if n.op_type == "BatchNormalization"]
    assert [inits.get(i) for i in bn.input[1:]] == [[4]] * 4
    assert_all_match(on_every_backend(build, {"x": _x([1, 4, 6, 6]) * 4}))


@pytest.mark.parametrize("case", ["scaled twice", "per-channel scale", "rank 3", "a constant scaled"])
def test_what_is_not_a_scale_and_shift_stays_as_it_is(case):
    def build(b):
        if case == "rank 3":
            return {"y": _affine(b, b.input("x", {"dataType": "float32", "shape": [2, 3, 5]}))}
        x = b.input("x", {"dataType": "float32", "shape": [1, 4, 6, 6]})
        if case == "a constant scaled":
            x = b.constant({"dataType": "float32", "shape": [1, 4, 6, 6]}, _x([1, 4, 6, 6], seed=3))
            return {"y": b.add(_affine(b, x), b.input("z", {"dataType": "float32", "shape": [1, 4, 6, 6]}))}
        if case == "per-channel scale":
            s = b.constant({"dataType": "float32", "shape": [4, 1, 1]}, np.arange(1, 5, dtype=np.float32).reshape(4, 1, 1))
            return {"y": b.add(b.mul(b.relu(x), s), _scalar(b, 0.5))}
        scaled = b.mul(b.relu(x), _scalar(b, 2.0))
        return {"y": b.add(scaled, _scalar(b, 1.0)), "z": scaled}  # the product read twice

    nodes, _ = _lowered(build)
    assert "BatchNormalization" not in [n.op_type for n in nodes], case
    shape = [2, 3, 5] if case == "rank 3" else [1, 4, 6, 6]
    feeds = {"x": _x(shape)} if case != "a constant scaled" else {"z": _x(shape)}
    assert_all_match(on_every_backend(build, feeds))


def test_an_affine_step_of_a_value_read_twice_stays_as_it_is():
    def build(b):
        y = _conv_input(b)
        return {"y": _affine(b, y), "z": b.relu(y)}

    _, inits = _lowered(build)
    assert not any(name.startswith("per_channel") for name in inits)
    assert_all_match(on_every_backend(build, {"x": _x([1, 4, 6, 6])}))
