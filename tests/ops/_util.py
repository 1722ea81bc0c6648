"""Helpers of the operator tests: a builder's inputs, a graph run on both backends of this machine
(the numpy reference and ONNX Runtime CPU), random data (tests/ops/conftest.py reseeds RNG before
each test, so a test's data does not depend on which tests ran before it)."""

from __future__ import annotations

import numpy as np

from webnn_bridge.bridge.api import ML, MLGraphBuilder


def inp(b, shape, data_type="float32", name=None):
    return b.input(name or f"in{len(b.input_names)}", {"dataType": data_type, "shape": list(shape)})


def run_both(contexts, build, feeds):
    """Build with ``build(builder)`` -> operand on both backends; returns the two results."""
    out = []
    for ctx in contexts.values():
        bb = MLGraphBuilder(ctx)
        g = bb.build({"y": build(bb)})
        out.append(ctx.compute(g, feeds)["y"])
    return out


_ML = ML()


# ONNX Runtime's CPU by name: on a machine with a GPU the default context goes to the GPU
ORT = ML([d for d in _ML.inventory if d.id == "onnxruntime:CPUExecutionProvider"]).createContext()


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


def _b():
    return MLGraphBuilder(REF)


def _in(b, dt, shape, name=None):
    return b.input(name or f"i{RNG.integers(1 << 30)}", desc(dt, shape))


FLOATS = ["float32", "float16"]


def run_by_backend(contexts, build, feeds):
    """``build(builder)`` -> {name: operand}; returns {backend: {name: array}}."""
    out = {}
    for name, ctx in contexts.items():
        bb = MLGraphBuilder(ctx)
        out[name] = ctx.compute(bb.build(build(bb)), feeds)
    return out
