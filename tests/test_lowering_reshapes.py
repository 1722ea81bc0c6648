"""1-D convolutions and reshape chains in the ONNX lowering. onnxruntime-web's WebNN EP sends an ONNX
1-D Conv as reshape [N, C, L] -> [N, C, L, 1] (or [N, C, 1, L]) -> conv2d -> reshape back, with an
activation after it: conv2d over a height (width) of 1 lowers to ONNX's 1-D Conv, and
lower_graph's fold_reshapes merges the reshapes around it, so that the Conv feeds the activation
directly (ONNX Runtime fuses them and keeps the Conv out of its NCHWc layout). Each case must give
what the reference gives on ONNX Runtime and OpenVINO, and the lowered model must have the
expected structure; the cases the 1-D form does not cover keep the 4-D Conv."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from tests.test_fuzz import assert_all_match, on_every_backend
from webnn_bridge.backends.onnx_lowering import OPSET, OnnxLowering, fold_reshapes, lower_graph
from webnn_bridge.backends.onnxruntime import supported_ir_version
from webnn_bridge.bridge.api import ML, MLGraphBuilder
from webnn_bridge.policy.inventory import REFERENCE_CPU

# filter layout -> the positions of (o, i, h, w) in its shape, as in conv2d.FILTER_AXES
FILTER_AXES = {"oihw": (0, 1, 2, 3), "hwio": (3, 2, 0, 1), "ohwi": (0, 3, 1, 2), "ihwo": (3, 0, 1, 2)}


def _model(build, external: bool = False):
    b = MLGraphBuilder(ML([REFERENCE_CPU]).createContext({}))
    return lower_graph(b._collect(build(b)), supported_ir_version(), external)[0]


def _types(model) -> list[str]:
    return [n.op_type for n in model.graph.node]


def _convs(model) -> list:
    return [n for n in model.graph.node if n.op_type == "Conv"]


def _kernel_rank(node) -> int:
    (k,) = [a for a in node.attribute if a.name == "kernel_shape"]
    return len(k.ints)


def _x(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def _check(build, feeds, exact: bool = False):
    """Every CPU backend (ONNX Runtime and OpenVINO among them) against the reference: reshapes
    exactly, convolutions within float32 rounding of sums of a few dozen products."""
    r = on_every_backend(build, feeds)
    assert {"onnxruntime", "openvino"} <= set(r), sorted(r)
    if exact:
        assert_all_match(dict(r), exact=True)
        return r
    ref = r.pop("reference")
    for name, got in r.items():
        for k, want in ref.items():
            assert got[k].shape == want.shape, (name, k)
            np.testing.assert_allclose(got[k], want, rtol=1e-4, atol=1e-5, err_msg=name)
    r["reference"] = ref
    return r


def _filter(o, i, k, layout, along_h):
    """An [o, i, k] filter as its 4-D shape in ``layout`` with the filter's 1 at H (along_h False)
    or W (along_h True)."""
    oihw = _x((o, i, k, 1) if along_h else (o, i, 1, k), seed=1)
    axes = FILTER_AXES[layout]  # oihw -> layout: inverse of layout -> oihw
    return np.ascontiguousarray(np.transpose(oihw, np.argsort(axes)))


CASES = [
    # (groups, channels in, channels out, kernel, bias, options on the 1-D axis)
    (1, 4, 6, 3, False, {}),
    (1, 4, 6, 3, True, {"pads": (1, 1)}),
    (1, 4, 6, 3, True, {"pads": (2, 0), "strides": 2}),
    (1, 4, 6, 3, False, {"dilations": 2, "pads": (0, 1)}),
    (4, 4, 4, 3, True, {"pads": (1, 1)}),  # depthwise
    (4, 4, 8, 5, False, {"pads": (2, 2), "strides": 3, "dilations": 2}),  # depthwise, multiplier 2
    (2, 4, 6, 1, True, {}),  # pointwise, 2 groups
]


def _options(groups, opts, along_h, layout):
    pb, pe = opts.get("pads", (0, 0))
    s, d = opts.get("strides", 1), opts.get("dilations", 1)
    return {"groups": groups, "filterLayout": layout,
            "padding": [pb, pe, 0, 0] if along_h else [0, 0, pb, pe],
            "strides": [s, 1] if along_h else [1, s], "dilations": [d, 1] if along_h else [1, d]}


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("along_h", [True, False], ids=["NCL1", "NC1L"])
@pytest.mark.parametrize("source", ["constant", "reshaped", "input"])
def test_a_1d_conv_between_reshapes_is_a_1d_conv_feeding_relu(case, along_h, source):
    """reshape -> conv2d (1-D) -> reshape -> relu: one 1-D Conv that Relu reads, no Reshape but
    the one of a filter that is a graph input."""
    groups, cin, cout, k, with_bias, opts = case
    n, length = 2, 11
    w = _filter(cout, cin // groups, k, "oihw", along_h)
    bias = _x((cout,), seed=2)

    def build(b):
        x = b.input("x", {"dataType": "float32", "shape": [n, cin, length]})
        if source == "constant":
            f = b.constant({"dataType": "float32", "shape": list(w.shape)}, w)
        elif source == "reshaped":  # as onnxruntime-web sends a 1-D filter: a reshape of the constant
            f = b.reshape(b.constant({"dataType": "float32", "shape": [cout, cin // groups, k]},
                                     w.reshape(cout, cin // groups, k)), list(w.shape))
        else:
            f = b.input("f", {"dataType": "float32", "shape": list(w.shape)})
        x4 = b.reshape(x, [n, cin, length, 1] if along_h else [n, cin, 1, length])
        options = _options(groups, opts, along_h, "oihw")
        if with_bias:
            options["bias"] = b.constant({"dataType": "float32", "shape": [cout]}, bias)
        y = b.conv2d(x4, f, options)
        return {"y": b.relu(b.reshape(y, [n, cout, y.shape[2] * y.shape[3]]))}

    model = _model(build)
    (conv,) = _convs(model)
    assert _kernel_rank(conv) == 1
    relu = next(nd for nd in model.graph.node if nd.op_type == "Relu")
    assert relu.input[0] == conv.output[0] and conv.input[0] == "input_0", _types(model)
    assert _types(model).count("Reshape") == (1 if source == "input" else 0), _types(model)
    feeds = {"x": _x((n, cin, length))} | ({"f": w} if source == "input" else {})
    _check(build, feeds)


@pytest.mark.parametrize("layout", sorted(FILTER_AXES))
@pytest.mark.parametrize("along_h", [True, False], ids=["NCL1", "NC1L"])
@pytest.mark.parametrize("source", ["constant", "input"])
def test_every_filter_layout(layout, along_h, source):
    groups, cin, cout, k = 2, 4, 6, 3
    w = _filter(cout, cin // groups, k, layout, along_h)
    shape = [1, cin, 9, 1] if along_h else [1, cin, 1, 9]

    def build(b):
        x = b.input("x", {"dataType": "float32", "shape": shape})
        f = (b.constant({"dataType": "float32", "shape": list(w.shape)}, w) if source == "constant"
             else b.input("f", {"dataType": "float32", "shape": list(w.shape)}))
        return {"y": b.conv2d(x, f, _options(groups, {"pads": (1, 0), "strides": 2}, along_h, layout))}

    model = _model(build)
    (conv,) = _convs(model)
    assert _kernel_rank(conv) == 1
    if source == "constant":  # the filter is a constant of the 1-D shape, not reshaped at run time
        inits = {t.name: t for t in model.graph.initializer}
        assert list(inits[conv.input[1]].dims) == [cout, cin // groups, k]
        assert "Transpose" not in _types(model)
    _check(build, {"x": _x(shape)} | ({"f": w} if source == "input" else {}))


def test_nhwc_input():
    w = _filter(6, 4, 3, "ohwi", False)

    def build(b):
        x = b.input("x", {"dataType": "float32", "shape": [2, 1, 10, 4]})
        f = b.constant({"dataType": "float32", "shape": list(w.shape)}, w)
        return {"y": b.relu(b.conv2d(x, f, {"inputLayout": "nhwc", "filterLayout": "ohwi", "padding": [0, 0, 1, 1]}))}

    (conv,) = _convs(_model(build))
    assert _kernel_rank(conv) == 1
    _check(build, {"x": _x((2, 1, 10, 4))})


@pytest.mark.parametrize(("shape", "filter_shape", "options"), [
    ([1, 4, 1, 9], [6, 4, 1, 3], {"padding": [1, 0, 0, 0]}),  # H padding: output height 2
    ([1, 4, 1, 9], [6, 4, 1, 3], {"padding": [1, 1, 1, 1]}),
    ([1, 4, 1, 9], [6, 4, 2, 3], {"padding": [1, 0, 0, 0]}),  # filter height 2 over a padded height 1
    ([1, 4, 9, 1], [6, 4, 3, 1], {"padding": [0, 0, 0, 1]}),  # W padding: output width 2
    ([1, 4, 2, 9], [6, 4, 1, 3], {}),  # height 2
    ([1, 4, 5, 7], [6, 4, 3, 3], {"padding": [1, 1, 1, 1]}),
])
def test_other_convolutions_keep_the_4d_conv(shape, filter_shape, options):
    w = _x(filter_shape, seed=1)

    def build(b):
        x = b.input("x", {"dataType": "float32", "shape": shape})
        return {"y": b.relu(b.conv2d(x, b.constant({"dataType": "float32", "shape": filter_shape}, w), options))}

    (conv,) = _convs(_model(build))
    assert _kernel_rank(conv) == 2
    _check(build, {"x": _x(shape)})


def test_a_big_filter_stays_external():
    """A filter big enough to be an external initializer (the ONNX Runtime backend) is reshaped at
    run time (ONNX Runtime folds that), not copied into the model; its own Reshape chain folds."""
    cin, cout, k = 16, 32, 3
    w = _x((cout, cin, k), seed=1)

    def build(b):
        x = b.input("x", {"dataType": "float32", "shape": [1, cin, 20]})
        f = b.reshape(b.constant({"dataType": "float32", "shape": [cout, cin, k]}, w), [cout, cin, 1, k])
        y = b.conv2d(b.reshape(x, [1, cin, 1, 20]), f, {"padding": [0, 0, 1, 1]})
        return {"y": b.relu(b.reshape(y, [1, cout, 20]))}

    model = _model(build, external=True)
    (conv,) = _convs(model)
    ext = [t.name for t in model.graph.initializer if t.data_location == TensorProto.EXTERNAL]
    assert conv.input[1] in ext and _types(model).count("Reshape") == 0, _types(model)
    _check(build, {"x": _x((1, cin, 20))})


# --------------------------------------------------------------------------- reshape chains


def _reshapes(model) -> list:
    return [n for n in model.graph.node if n.op_type == "Reshape"]


def test_a_chain_of_reshapes_is_one_reshape():
    def build(b):
        x = b.input("x", {"dataType": "float32", "shape": [2, 3, 4]})
        return {"y": b.relu(b.reshape(b.reshape(b.reshape(x, [6, 4]), [2, 12]), [24]))}

    model = _model(build)
    (r,) = _reshapes(model)
    assert r.input[0] == "input_0"
    assert not [t for t in model.graph.initializer if t.name not in {i for n in model.graph.node for i in n.input}]
    _check(build, {"x": _x((2, 3, 4))}, exact=True)


def test_squeeze_and_unsqueeze_like_reshapes_cancel():
    def build(b):
        x = b.input("x", {"dataType": "float32", "shape": [2, 3, 4]})
        y = b.reshape(b.reshape(b.reshape(x, [1, 2, 3, 4]), [2, 3, 4, 1]), [2, 3, 4])
        return {"y": b.relu(y)}

    model = _model(build)
    assert _types(model) == ["Relu", "Identity"]
    assert not model.graph.initializer
    _check(build, {"x": _x((2, 3, 4))}, exact=True)


def test_an_intermediate_graph_output_stays():
    def build(b):
        x = b.input("x", {"dataType": "float32", "shape": [2, 3, 4]})
        mid = b.reshape(x, [6, 4])
        return {"mid": mid, "y": b.relu(b.reshape(mid, [24]))}

    model = _model(build)
    rs = _reshapes(model)
    assert len(rs) == 2 and all(r.input[0] == "input_0" for r in rs)
    r = _check(build, {"x": _x((2, 3, 4))}, exact=True)
    assert r["reference"]["mid"].shape == (6, 4)


def test_an_intermediate_used_twice_stays():
    def build(b):
        x = b.input("x", {"dataType": "float32", "shape": [2, 3, 4]})
        mid = b.reshape(x, [6, 4])
        return {"y": b.add(b.relu(b.reshape(mid, [4, 6])), b.reshape(b.mul(mid, mid), [4, 6]))}

    model = _model(build)
    assert len(_reshapes(model)) == 3
    _check(build, {"x": _x((2, 3, 4))}, exact=True)


def test_an_identity_reshape_goes():
    def build(b):
        x = b.input("x", {"dataType": "float32", "shape": [2, 3]})
        return {"y": b.relu(b.reshape(x, [2, 3])), "z": b.reshape(x, [2, 3])}

    model = _model(build)
    assert "Reshape" not in _types(model)
    assert [list(n.input) for n in model.graph.node if n.op_type == "Identity"][1] == ["input_0"]
    _check(build, {"x": _x((2, 3))}, exact=True)


def test_a_reshaped_constant_is_a_constant_of_the_new_shape():
    c = np.arange(6, dtype=np.float32)

    def build(b, twice=False):
        x = b.input("x", {"dataType": "float32", "shape": [2, 3]})
        k = b.constant({"dataType": "float32", "shape": [6]}, c)
        y = b.add(x, b.reshape(k, [2, 3]))
        return {"y": b.add(b.reshape(y, [6]), k) if twice else y}

    model = _model(build)
    assert "Reshape" not in _types(model)
    assert [list(t.dims) for t in model.graph.initializer] == [[2, 3]]
    _check(build, {"x": _x((2, 3))}, exact=True)
    # the constant read elsewhere too: its Reshape stays
    assert _types(_model(lambda b: build(b, True))).count("Reshape") == 2
    _check(lambda b: build(b, True), {"x": _x((2, 3))}, exact=True)


def test_fold_reshapes_merges_squeeze_and_unsqueeze_nodes():
    """Squeeze / Unsqueeze nodes (other lowerings emit them) in a chain with Reshapes, built
    directly: one Reshape, the same values on ONNX Runtime."""
    lb = OnnxLowering()
    lb.shapes["x"], lb.dtypes["x"] = (2, 1, 3), "float32"
    a = lb.node("Unsqueeze", ["x", lb.ints([0, -1])])  # [1, 2, 1, 3, 1]
    s = lb.node("Squeeze", [a, lb.ints([2])])  # [1, 2, 3, 1]
    r = lb.node("Reshape", [s, lb.ints([6, 1])])
    q = lb.node("Squeeze", [a])  # every 1: [2, 3]; ``a`` read twice
    lb.nodes.append(helper.make_node("Identity", [r], ["y"]))
    lb.nodes.append(helper.make_node("Identity", [q], ["z"]))
    fold_reshapes(lb)
    types = [n.op_type for n in lb.nodes]
    assert types.count("Reshape") == 2 and "Squeeze" not in types and "Unsqueeze" not in types, types
    assert all(n.input[0] == "x" for n in lb.nodes if n.op_type == "Reshape")
    g = helper.make_graph(lb.nodes, "t", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 1, 3])],
                          [helper.make_tensor_value_info(v, TensorProto.FLOAT, None) for v in ("y", "z")],
                          initializer=lb.initializers)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", OPSET)])
    m.ir_version = supported_ir_version()
    x = _x((2, 1, 3))
    y, z = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})
    np.testing.assert_array_equal(y, x.reshape(6, 1))
    np.testing.assert_array_equal(z, x.reshape(2, 3))
    assert all(numpy_helper.to_array(t).dtype == np.int64 for t in lb.initializers)
