"""A 1-D convolution with a constant filter and few output positions, lowered for the page's
runtime (OnnxLowering target "wasm", backends/page.py), is a MatMul of its gathered frames by the
filter (conv2d._frames_win): onnxruntime-web's wasm Conv paid about 0.1 ms a run for silero
VAD's and openWakeWord's STFT filters however few their frames (issue 39). It must compute what
the reference computes, for every layout, axis, stride, dilation, padding and bias, and every other
convolution, and every model lowered for the host, keeps ONNX's Conv."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest

from webnn_bridge.backends.onnx_lowering import lower_graph
from webnn_bridge.backends.page import PAGE_IR_VERSION
from webnn_bridge.bridge.api import ML, MLGraphBuilder
from webnn_bridge.ops.defs.conv2d import _frames_win
from webnn_bridge.policy.inventory import REFERENCE_CPU

CTX = ML([REFERENCE_CPU]).createContext({})
FILTER_SHAPES = {"oihw": lambda o, i, h, w: [o, i, h, w], "hwio": lambda o, i, h, w: [h, w, i, o],
                 "ohwi": lambda o, i, h, w: [o, h, w, i], "ihwo": lambda o, i, h, w: [i, h, w, o]}


def conv1d(batch, channels, out_c, length, k, axis, layout="nchw", filter_layout="oihw", bias=True,
           constant_filter=True, dtype="float32", **options):
    """build(builder) for a conv2d that is 1-D along ``axis`` (0: height, 1: width), and its feeds."""
    hw = [1, length] if axis == 1 else [length, 1]
    kh, kw = (1, k) if axis == 1 else (k, 1)
    shape = [batch, channels, *hw] if layout == "nchw" else [batch, *hw, channels]
    fshape = FILTER_SHAPES[filter_layout](out_c, channels // options.get("groups", 1), kh, kw)
    rng = np.random.default_rng(length * 31 + k)
    w = rng.standard_normal(fshape).astype(dtype)
    bvals = rng.standard_normal([out_c]).astype(dtype)
    feeds = {"x": rng.standard_normal(shape).astype(dtype)}
    if not constant_filter:
        feeds["w"] = w
    if "padding" in options:  # given along the convolution's axis: [before, after]
        before, after = options.pop("padding")
        options["padding"] = [0, 0, before, after] if axis == 1 else [before, after, 0, 0]
    for key in ("strides", "dilations"):
        if key in options:
            options[key] = [1, options[key]] if axis == 1 else [options[key], 1]

    def build(b):
        x = b.input("x", {"dataType": dtype, "shape": shape})
        f = (b.constant({"dataType": dtype, "shape": fshape}, w) if constant_filter
             else b.input("w", {"dataType": dtype, "shape": fshape}))
        extra = {"bias": b.constant({"dataType": dtype, "shape": [out_c]}, bvals)} if bias else {}
        return {"y": b.conv2d(x, f, {"inputLayout": layout, "filterLayout": filter_layout, **options, **extra})}

    return build, feeds


def lowered(build, target: str):
    b = MLGraphBuilder(CTX)
    graph = b._collect(build(b))
    return lower_graph(graph, PAGE_IR_VERSION, external=False, target=target)


def run_lowered(build, feeds, target: str):
    """The model lowered for ``target`` run by ONNX Runtime (the same kernels' definitions the
    page's wasm build compiles), and its ONNX op types."""
    model, in_map, out_map = lowered(build, target)
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    out = session.run([out_map["y"]], {in_map[k]: v for k, v in feeds.items()})[0]
    return out, [n.op_type for n in model.graph.node]


def reference(build, feeds):
    b = MLGraphBuilder(CTX)
    graph = b.build(build(b))
    try:
        return CTX.compute(graph, feeds)["y"]
    finally:
        graph.destroy()


CASES = {
    # openWakeWord's melspectrogram STFT (8 frames of 512) and silero VAD's (4 of 256)
    "mel stft": dict(batch=1, channels=1, out_c=20, length=1760, k=512, axis=1, strides=160, bias=False),
    "silero stft": dict(batch=1, channels=1, out_c=18, length=640, k=256, axis=1, strides=128, bias=False),
    # silero's encoder: channels in, padding, stride 2, 4 -> 2 -> 1 positions
    "encoder": dict(batch=1, channels=129, out_c=16, length=4, k=3, axis=1, padding=[1, 1]),
    "encoder stride 2": dict(batch=1, channels=16, out_c=8, length=4, k=3, axis=1, padding=[1, 1], strides=2),
    "one position": dict(batch=2, channels=5, out_c=7, length=1, k=1, axis=1),
    "height axis, nhwc, hwio": dict(batch=2, channels=1, out_c=6, length=20, k=5, axis=0, layout="nhwc",
                                    filter_layout="hwio", strides=3),
    "dilated, ohwi": dict(batch=1, channels=1, out_c=4, length=12, k=4, axis=1, dilations=3, filter_layout="ohwi",
                          padding=[2, 0]),
    "ihwo, uneven padding": dict(batch=3, channels=4, out_c=5, length=3, k=3, axis=0, filter_layout="ihwo",
                                 padding=[0, 2], strides=2),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_few_positions_lower_to_a_matmul_of_frames_for_the_page(case):
    build, feeds = conv1d(**CASES[case])
    ref = reference(build, feeds)
    spatial = ref.shape[2:] if CASES[case].get("layout", "nchw") == "nchw" else ref.shape[1:3]
    assert _frames_win(CASES[case]["channels"], CASES[case]["k"], int(np.prod(spatial))), spatial
    atol = 1e-6 * float(np.abs(ref).max())  # sums of up to 512 products: float32's rounding, in any order
    got, types = run_lowered(build, feeds, "wasm")
    assert "Conv" not in types and "MatMul" in types, types
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=atol)
    host, host_types = run_lowered(build, feeds, "native")
    assert "Conv" in host_types and "MatMul" not in host_types, host_types  # the host's models keep Conv
    np.testing.assert_allclose(host, ref, rtol=1e-5, atol=atol)


@pytest.mark.parametrize(("why", "spec"), [
    ("more positions", dict(batch=1, channels=1, out_c=8, length=1760, k=512, axis=1, strides=80)),  # 16
    ("channels in, 8 positions", dict(batch=1, channels=16, out_c=16, length=8, k=3, axis=1, padding=[1, 1])),
    ("4 positions of a small window", dict(batch=1, channels=8, out_c=8, length=4, k=3, axis=1, padding=[1, 1])),
    ("a filter the page computes", dict(batch=1, channels=2, out_c=3, length=8, k=3, axis=1, constant_filter=False)),
    ("float16", dict(batch=1, channels=2, out_c=3, length=8, k=3, axis=1, dtype="float16")),
    ("groups", dict(batch=1, channels=4, out_c=4, length=8, k=3, axis=1, groups=2)),
])
def test_other_convolutions_keep_conv_in_the_page(why, spec):
    build, feeds = conv1d(**spec)
    got, types = run_lowered(build, feeds, "wasm")
    assert "Conv" in types and "MatMul" not in types, (why, types)
    tol = 1e-2 if spec.get("dtype") == "float16" else 1e-5
    np.testing.assert_allclose(got.astype(np.float32), reference(build, feeds).astype(np.float32), rtol=tol, atol=tol)


def test_a_reshaped_constant_filter_is_folded():
    """onnxruntime-web's WebNN EP sends a 1-D filter as a constant and a reshape to 4-D: the
    page's lowering still sees a constant filter (OnnxLowering.folded) and frames it."""
    rng = np.random.default_rng(5)
    w = rng.standard_normal([6, 1, 64]).astype(np.float32)
    x = rng.standard_normal([1, 1, 1, 200]).astype(np.float32)

    def build(b):
        f = b.reshape(b.constant({"dataType": "float32", "shape": [6, 1, 64]}, w), [6, 1, 1, 64])
        return {"y": b.conv2d(b.input("x", {"dataType": "float32", "shape": [1, 1, 1, 200]}), f, {"strides": [1, 32]})}

    got, types = run_lowered(build, {"x": x}, "wasm")
    assert "Conv" not in types and "MatMul" in types, types
    np.testing.assert_allclose(got, reference(build, {"x": x}), rtol=1e-5, atol=1e-5)


def test_the_page_backend_lowers_for_wasm():
    import onnx

    from webnn_bridge.backends.page import PageCompiled

    build, _ = conv1d(**CASES["silero stft"])
    b = MLGraphBuilder(CTX)
    types = [n.op_type for n in onnx.load_from_string(PageCompiled(b._collect(build(b))).model).graph.node]
    assert "Conv" not in types and "MatMul" in types, types
