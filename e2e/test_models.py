"""(b) LeNet and (c) MobileNetV2 built in a real page from real weights, checked against
in-process references."""

from __future__ import annotations

import os

import numpy as np
import pytest

from tests import shared_data
from tests.models import lenet_data, mobilenet_data
from webnn_bridge.bridge.api import ML, MLGraphBuilder


@pytest.fixture(scope="module")
def model_data(app_dir):
    """Link the shared weights into the app directory; write the generated files next to them."""
    data = app_dir / "data"
    if not (data / "lenet").exists():
        os.symlink(shared_data.require("lenet"), data / "lenet")
    mdir = data / "mobilenetv2" / "weights"
    mdir.mkdir(parents=True, exist_ok=True)
    for f in mobilenet_data.weights_dir().iterdir():
        if not (mdir / f.name).exists():
            os.symlink(f, mdir / f.name)
    weights = mobilenet_data.load_weights()
    mobilenet_data.save_npy(mdir / "gemm_104_weight.npy", weights["gemm_104_weight"])
    x = mobilenet_data.preprocess()
    mobilenet_data.save_npy(data / "mobilenetv2" / "input.npy", x)
    return {"mobilenet_weights": weights, "mobilenet_input": x}


def lenet_in_process(images: list[np.ndarray]) -> np.ndarray:
    """The same LeNet graph through the Python object model on the numpy reference backend."""
    w = lenet_data.load_lenet_weights()
    ml = ML([d for d in ML().inventory if d.backend == "reference"])
    ctx = ml.createContext()
    b = MLGraphBuilder(ctx)

    def const(a):
        a = np.ascontiguousarray(a, np.float32)
        return b.constant({"dataType": "float32", "shape": list(a.shape)}, a)

    x = b.input("input", {"dataType": "float32", "shape": [1, 1, 28, 28]})
    y = b.add(b.conv2d(x, const(w["conv1_filter"])), const(w["conv1_bias"]))
    y = b.maxPool2d(y, {"windowDimensions": [2, 2], "strides": [2, 2]})
    y = b.add(b.conv2d(y, const(w["conv2_filter"])), const(w["conv2_bias"]))
    y = b.maxPool2d(y, {"windowDimensions": [2, 2], "strides": [2, 2]})
    y = b.reshape(y, [1, 800])
    y = b.relu(b.add(b.matmul(y, b.transpose(const(w["fc1_weight"]))), const(w["fc1_bias"])))
    y = b.add(b.matmul(y, b.transpose(const(w["fc2_weight"]))), const(w["fc2_bias"]))
    g = b.build({"output": b.softmax(y, 1)})
    return np.stack([ctx.compute(g, {"input": img.reshape(1, 1, 28, 28)})["output"][0] for img in images])


def test_lenet_classifies_rendered_digits(host, page, model_data):
    images = lenet_data.render_digits()
    page.goto(f"{host.url}/lenet.html")
    probs = np.array(page.evaluate("(imgs) => window.runLenet(imgs)", [img.ravel().tolist() for img in images]))
    assert probs.shape == (10, 10)
    predicted = probs.argmax(axis=1)
    correct = int((predicted == np.arange(10)).sum())
    print(f"LeNet in the browser: {correct}/10 digits correct, predictions {predicted.tolist()}")
    assert correct >= 8, predicted
    reference = lenet_in_process(images)
    diff = float(np.abs(probs - reference).max())
    print(f"LeNet page vs in-process reference backend: max abs diff {diff:.3g}")
    np.testing.assert_allclose(probs, reference, atol=1e-5, rtol=0)


# numerical parity of a 100-layer model is the host's (LeNet runs in every browser); CI time: Chromium
@pytest.mark.webnn_engines("chromium")
def test_mobilenetv2_matches_in_process_onnx_runtime(host, page, model_data):
    page.goto(f"{host.url}/mobilenet.html")
    page.set_default_timeout(240_000)
    got = np.array(page.evaluate("() => window.runMobilenet(2)"), np.float32)  # one graph, run twice
    assert len(page.evaluate("() => window.mobilenetTimings.computeRunsMs")) == 2
    want = mobilenet_data.mobilenet_onnx_reference(model_data["mobilenet_weights"], model_data["mobilenet_input"])
    assert got.shape == (1000,)
    diff = float(np.abs(got - want).max())
    print(f"MobileNetV2 page vs in-process ONNX Runtime: max abs diff {diff:.3g}, top-1 {int(got.argmax())}")
    assert np.isclose(got.sum(), 1.0, atol=1e-4)
    np.testing.assert_allclose(got, want, atol=1e-4, rtol=0)
    # with the random final matrix the probabilities are nearly flat (~1e-3): check relatively too
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=0)
