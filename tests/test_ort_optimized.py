"""ONNX Runtime's optimized model in the disk compile cache: written off the build's path after a
graph compiles on the CPU EP, loaded (no optimization to do) by a restarted host, checked, and
never in the way: anything wrong with it falls back to the lowered model."""

from __future__ import annotations

import os
import sys
import threading

import numpy as np
import pytest

from webnn_bridge.backends import onnxruntime as ortb
from webnn_bridge.backends.base import Device
from webnn_bridge.backends.cache import OPTIMIZED_MAGIC, OPTIMIZER, CompileCache
from webnn_bridge.bridge.api import ML, MLGraphBuilder
from webnn_bridge.ops.graph import GraphIR

RNG = np.random.default_rng(8)
F1 = (RNG.standard_normal((16, 8, 3, 3)) * 0.2).astype(np.float32)
B1 = RNG.standard_normal(16).astype(np.float32)
G = (RNG.standard_normal((16 * 16 * 16, 96)) * 0.02).astype(np.float32)  # 1.5 MiB
C = RNG.standard_normal(96).astype(np.float32)
X = RNG.standard_normal((1, 8, 16, 16)).astype(np.float32)


@pytest.fixture(scope="module")
def cpu_ep():
    devices = [d for d in ML().inventory if d.backend == "onnxruntime" and d.providers == ("CPUExecutionProvider",)]
    if not devices:
        pytest.skip("onnxruntime is not installed")
    return devices[:1]


def _graph(devices, cache: CompileCache | None = None, scale: float = 1.0):
    """gemm(reshape(clamp(conv2d(x, F1) + B1, 0, 6)), G * scale) + C"""
    ctx = ML(devices, compile_cache=cache).createContext()
    ctx.cache_partition = "http://a.test"
    b = MLGraphBuilder(ctx)
    x = b.input("x", {"dataType": "float32", "shape": list(X.shape)})
    f = b.constant({"dataType": "float32", "shape": list(F1.shape)}, F1)
    bias = b.constant({"dataType": "float32", "shape": list(B1.shape)}, B1)
    y = b.clamp(b.conv2d(x, f, padding=[1, 1, 1, 1], bias=bias), minValue=0, maxValue=6)
    w = b.constant({"dataType": "float32", "shape": list(G.shape)}, G * np.float32(scale))
    c = b.constant({"dataType": "float32", "shape": list(C.shape)}, C)
    y = b.gemm(b.reshape(y, [1, G.shape[0]]), w, c=c)
    return ctx, b.build({"y": y})


def _run(ctx, g) -> np.ndarray:
    return ctx.compute(g, {"x": X})["y"]


@pytest.fixture(scope="module")
def reference():
    ref = [d for d in ML().inventory if d.backend == "reference"]
    ctx, g = _graph(ref)
    return _run(ctx, g)


def _files(path, suffix):
    return sorted(path.glob(f"*{suffix}"))


def _first_build(cpu_ep, tmp_path):
    """The first build on a fresh disk cache, its output, once its optimized model is written."""
    cache = CompileCache(tmp_path)
    ctx, g = _graph(cpu_ep, cache)
    assert g.compiled.source == "compiled" and not g.compiled.compiled.optimized
    out = _run(ctx, g)
    cache.flush()
    assert cache.optimized_stats == {"written": 1, "loaded": 0, "rejected": 0}
    assert len(_files(tmp_path, ".ortm")) == len(_files(tmp_path, ".ortd")) == 1
    assert _files(tmp_path, ".ortd")[0].stat().st_size > G.nbytes  # the optimized initializers
    assert not list(tmp_path.glob(".*"))  # no temporary file left
    return out


def _restart(cpu_ep, tmp_path, **kw):
    cache = CompileCache(tmp_path, **kw)
    ctx, g = _graph(cpu_ep, cache)
    return cache, g, _run(ctx, g)


def test_a_restarted_host_loads_the_optimized_model(cpu_ep, tmp_path, reference):
    first = _first_build(cpu_ep, tmp_path)
    np.testing.assert_allclose(first, reference, rtol=1e-4, atol=1e-4)
    cache, g, out = _restart(cpu_ep, tmp_path)
    assert g.compiled.source == "disk" and g.compiled.compiled.optimized
    assert cache.optimized_stats == {"written": 0, "loaded": 1, "rejected": 0}
    np.testing.assert_allclose(out, first, rtol=0, atol=1e-6)
    np.testing.assert_allclose(out, reference, rtol=1e-4, atol=1e-4)
    cache.flush()
    assert cache.optimized_stats["written"] == 0  # nothing to write again


def _replace(path, data: bytes) -> None:
    """Rewrites a file as a new one (a session may still map the old one's bytes)."""
    tmp = path.with_name("tampered")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def _flip(data: bytes, at: int) -> bytes:
    b = bytearray(data)
    b[at] ^= 0x01
    return bytes(b)


def _garbage_model(path) -> bytes:
    """A model file whose digest and data check hold but that ONNX Runtime refuses."""
    from webnn_bridge.backends.cache import _hasher

    body = path.read_bytes()[len(OPTIMIZED_MAGIC) + 32:][:16] + b"not an ONNX model"
    h = _hasher()
    h.update(body)
    return OPTIMIZED_MAGIC + h.digest() + body


TAMPER = {
    "truncated data": lambda model, data: (None, data.read_bytes()[:-4096]),
    "a data byte flipped": lambda model, data: (None, _flip(data.read_bytes(), data.stat().st_size // 2)),
    "a model byte flipped": lambda model, data: (_flip(model.read_bytes(), -100), None),
    "truncated model": lambda model, data: (model.read_bytes()[:100], None),
    "a model ONNX Runtime refuses": lambda model, data: (_garbage_model(model), None),
}


@pytest.mark.parametrize("how", TAMPER)
def test_a_damaged_optimized_model_is_deleted_and_the_lowered_model_used(cpu_ep, tmp_path, reference, how,
                                                                         monkeypatch):
    first = _first_build(cpu_ep, tmp_path)
    (model,), (data,) = _files(tmp_path, ".ortm"), _files(tmp_path, ".ortd")
    new_model, new_data = TAMPER[how](model, data)
    if new_model is not None:
        _replace(model, new_model)
    if new_data is not None:
        _replace(data, new_data)
    monkeypatch.setattr(CompileCache, "_optimize_later", lambda *args: None)  # nothing rewrites it yet
    cache, g, out = _restart(cpu_ep, tmp_path)
    assert g.compiled.source == "disk" and not g.compiled.compiled.optimized  # the lowered model, from disk
    assert cache.optimized_stats == {"written": 0, "loaded": 0, "rejected": 1}
    assert not _files(tmp_path, ".ortm") and not _files(tmp_path, ".ortd")
    np.testing.assert_allclose(out, first, rtol=0, atol=1e-6)
    np.testing.assert_allclose(out, reference, rtol=1e-4, atol=1e-4)
    monkeypatch.undo()
    cache, g, _ = _restart(cpu_ep, tmp_path)  # the next build writes it again
    cache.flush()
    assert cache.optimized_stats["written"] == 1
    cache, g, out = _restart(cpu_ep, tmp_path)
    assert g.compiled.compiled.optimized
    np.testing.assert_allclose(out, first, rtol=0, atol=1e-6)


def test_another_cpu_or_runtime_misses(cpu_ep, tmp_path, monkeypatch):
    first = _first_build(cpu_ep, tmp_path)
    monkeypatch.setattr(ortb, "cpu_fingerprint", lambda: "another CPU")
    cache, g, out = _restart(cpu_ep, tmp_path)
    assert g.compiled.source == "disk" and not g.compiled.compiled.optimized  # the lowered model still serves
    assert cache.optimized_stats["loaded"] == 0
    np.testing.assert_array_equal(out, first)
    monkeypatch.undo()
    import onnxruntime

    monkeypatch.setattr(onnxruntime, "__version__", "0.0.0-other")
    cache, g, out = _restart(cpu_ep, tmp_path)
    assert g.compiled.source == "compiled"
    assert cache.optimized_stats["loaded"] == 0
    np.testing.assert_allclose(out, first, rtol=0, atol=1e-6)


def test_the_cpu_fingerprint_is_the_machine_and_its_flags():
    assert ortb.cpu_fingerprint() == ortb.cpu_fingerprint()
    assert len(ortb.cpu_fingerprint()) == 32


def test_only_onnx_runtime_s_cpu_ep_keeps_one():
    backend = ortb.OnnxRuntimeBackend()

    def token(graph, *providers):
        return backend.optimized_token(graph, Device(id="d", kind="cpu", backend="onnxruntime", providers=providers))

    big, small = GraphIR(constants={0: G}), GraphIR(constants={0: C})
    assert token(big, "CPUExecutionProvider") is not None
    assert token(small, "CPUExecutionProvider") is None  # too small for its optimizations to take long
    for ep in ("CUDAExecutionProvider", "TensorrtExecutionProvider", "OpenVINOExecutionProvider"):
        assert token(big, ep, "CPUExecutionProvider") is None


def test_optimized_models_stay_within_the_disk_bound(cpu_ep, tmp_path):
    bound = 3 << 20  # room for one graph's entries, not two
    cache = CompileCache(tmp_path, max_disk_bytes=bound)
    for scale in (1.0, 2.0):
        _graph(cpu_ep, cache, scale)
        cache.flush()
    assert cache.optimized_stats["written"] == 2
    entries = [p for p in tmp_path.iterdir() if p.suffix in (".wnc", ".ortm", ".ortd")]
    assert sum(p.stat().st_size for p in entries) <= bound
    assert len(_files(tmp_path, ".ortd")) == 1


def test_no_disk_cache_writes_nothing(cpu_ep, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    cache = CompileCache(None)
    ctx, g = _graph(cpu_ep, cache)
    _run(ctx, g)
    cache.flush()
    assert not cache._optimizing and cache.optimized_stats["written"] == 0
    assert not list(tmp_path.iterdir())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="thread priorities are set on Linux only")
def test_the_writer_is_one_thread_at_the_lowest_priority(cpu_ep, tmp_path):
    _first_build(cpu_ep, tmp_path / "a")
    _first_build(cpu_ep, tmp_path / "b")  # another cache: the same thread
    writers = [t for t in threading.enumerate() if t.name == "webnn-optimize"]
    assert writers == [OPTIMIZER._thread]
    assert os.getpriority(os.PRIO_PROCESS, writers[0].native_id) == 19
