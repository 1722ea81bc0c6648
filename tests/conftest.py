"""Shared fixtures: one context per backend of this machine (ONNX Runtime CPU and the numpy
reference), and a builder on the reference context."""

from __future__ import annotations

import pytest

from webnn_bridge.bridge.api import ML, MLGraphBuilder


@pytest.fixture(scope="session")
def contexts():
    ml = ML()
    ort = [d for d in ml.inventory if d.backend == "onnxruntime" and d.kind == "cpu"][:1]
    ref = [d for d in ml.inventory if d.backend == "reference"]
    return {"onnxruntime": ML(ort).createContext(), "reference": ML(ref).createContext()}


@pytest.fixture(scope="module")
def ort_devices():
    """The first ONNX Runtime CPU device, for tests that make their own ML()."""
    devices = [d for d in ML().inventory if d.backend == "onnxruntime" and d.kind == "cpu"][:1]
    if not devices:
        pytest.skip("onnxruntime is not installed")
    return devices


@pytest.fixture
def b(contexts):
    return MLGraphBuilder(contexts["reference"])
