"""The compile cache: identical graphs share one compiled session, survive a host restart on disk,
stay partitioned by origin, and a corrupt entry is rebuilt."""

from __future__ import annotations

import numpy as np

from webnn_bridge.backends.cache import CompileCache, graph_digest
from webnn_bridge.backends.onnxruntime import OnnxRuntimeBackend
from webnn_bridge.bridge.api import ML, MLGraphBuilder


def _ctx(ort_devices, cache: CompileCache, partition: str = "http://a.test"):
    ctx = ML(ort_devices, compile_cache=cache).createContext()
    ctx.cache_partition = partition
    return ctx


def _build(ctx, w: np.ndarray, scale: float = 1.0, name: str = "x"):
    """y = relu(name @ W) * scale"""
    b = MLGraphBuilder(ctx)
    x = b.input(name, {"dataType": "float32", "shape": [1, w.shape[0]]})
    y = b.relu(b.matmul(x, b.constant({"dataType": "float32", "shape": list(w.shape)}, w)))
    y = b.mul(y, b.constant("float32", scale))
    return b.build({"y": y})


def _run(ctx, g, x: np.ndarray) -> np.ndarray:
    return ctx.compute(g, {"x": x})["y"]


W = np.arange(16, dtype=np.float32).reshape(4, 4) - 6
X = np.array([[1, -2, 3, 0.5]], np.float32)
WANT = np.maximum(X @ W, 0)


def test_identical_graphs_share_one_session_until_the_last_destroy(ort_devices):
    cache = CompileCache()
    ctx = _ctx(ort_devices, cache)
    g1 = _build(ctx, W)
    MLGraphBuilder(ctx).input("unused", {"dataType": "float32", "shape": [1]})  # shifts operand ids
    g2 = _build(ctx, W)  # other operand ids, same graph
    assert (g1.compiled.source, g2.compiled.source) == ("compiled", "memory")
    assert g1.compiled._entry is g2.compiled._entry
    g1.destroy()
    np.testing.assert_allclose(_run(ctx, g2, X), WANT)  # still usable by the other graph
    g2.destroy()
    g3 = _build(ctx, W)  # released but warm: a page reload rebuilds without compiling
    assert g3.compiled.source == "memory"
    np.testing.assert_allclose(_run(ctx, g3, X), WANT)
    assert cache.stats == {"compiled": 1, "memory": 2, "disk": 0}


def test_different_graphs_and_origins_do_not_share(ort_devices):
    cache = CompileCache()
    ctx = _ctx(ort_devices, cache)
    base = _build(ctx, W)
    w2 = W.copy()
    w2[0, 0] += 1  # one constant byte differs
    assert _build(ctx, w2).compiled.source == "compiled"
    assert _build(ctx, W, scale=2.0).compiled.source == "compiled"  # an attribute-like scalar differs
    assert _build(ctx, W, name="x2").compiled.source == "compiled"  # another input name
    other = _ctx(ort_devices, cache, "http://b.test")
    g = _build(other, W)
    assert g.compiled.source == "compiled"  # another origin never sees the first one's graph
    np.testing.assert_allclose(_run(other, g, X), WANT)
    np.testing.assert_allclose(_run(ctx, base, X), WANT)
    np.testing.assert_allclose(_run(ctx, _build(ctx, W, scale=2.0), X), 2 * WANT)


def test_digest_ignores_operand_ids_but_not_content(ort_devices):
    ctx = _ctx(ort_devices, CompileCache())
    assert graph_digest(_build(ctx, W).ir) == graph_digest(_build(ctx, W).ir)
    assert graph_digest(_build(ctx, W).ir) != graph_digest(_build(ctx, W.T.copy()).ir)


def test_disk_cache_survives_a_restart_and_rebuilds_corrupt_entries(ort_devices, tmp_path, monkeypatch):
    # the artifact's path alone (ONNX Runtime's optimized model, kept beside it, is tested in test_ort_optimized.py)
    monkeypatch.setattr(OnnxRuntimeBackend, "optimized_token", lambda self, graph, device: None)
    def host():  # a new host process: empty memory (what it writes is on disk once flushed)
        cache = CompileCache(tmp_path)
        return _ctx(ort_devices, cache), cache

    ctx, cache = host()
    g = _build(ctx, W)
    assert g.compiled.source == "compiled"
    cache.flush()  # written after the build, off its path
    files = list(tmp_path.glob("*.wnc"))
    assert len(files) == 1
    restarted, _ = host()
    g = _build(restarted, W)
    assert g.compiled.source == "disk"
    np.testing.assert_allclose(_run(restarted, g, X), WANT)
    # flip one byte inside the stored model: the digest catches it, the graph is rebuilt
    raw = bytearray(files[0].read_bytes())
    raw[-20] ^= 0xFF
    files[0].write_bytes(bytes(raw))
    again, cache = host()
    g = _build(again, W)
    assert g.compiled.source == "compiled"
    np.testing.assert_allclose(_run(again, g, X), WANT)
    cache.flush()
    # truncated: ignored and rewritten as well
    files[0].write_bytes(files[0].read_bytes()[:10])
    ctx, cache = host()
    assert _build(ctx, W).compiled.source == "compiled"
    cache.flush()
    assert _build(host()[0], W).compiled.source == "disk"


def test_disk_cache_is_bounded(ort_devices, tmp_path):
    cache = CompileCache(tmp_path, max_disk_bytes=1)  # keeps only the newest entry
    ctx = _ctx(ort_devices, cache)
    for scale in (1.0, 2.0, 3.0):
        _build(ctx, W, scale=scale)
    assert len(list(tmp_path.glob("*.wnc"))) <= 1


def test_warm_sessions_are_bounded(ort_devices):
    cache = CompileCache(warm_entries=1)
    ctx = _ctx(ort_devices, cache)
    for scale in (1.0, 2.0):
        _build(ctx, W, scale=scale).destroy()
    assert _build(ctx, W, scale=2.0).compiled.source == "memory"
    assert _build(ctx, W, scale=1.0).compiled.source == "compiled"  # evicted


def test_the_reference_backend_is_not_cached():
    ref = [d for d in ML().inventory if d.backend == "reference"]
    cache = CompileCache()
    ctx = ML(ref, compile_cache=cache).createContext()
    g = _build(ctx, W)
    np.testing.assert_allclose(_run(ctx, g, X), WANT)
    assert cache.stats == {"compiled": 0, "memory": 0, "disk": 0}


def test_a_garbage_collection_inside_the_digest_lock_does_not_deadlock():
    """A collection can start at any allocation, also while the digests' lock is held, and free an
    array whose digest is remembered: its weakref callback takes the lock again (same thread)."""
    import gc
    import threading

    from webnn_bridge.backends import cache

    a = np.arange(16, dtype=np.float32)
    a.flags.writeable = False
    cache.remember_digest(a, bytes(32))
    cycle = [a]
    cycle.append(cycle)  # the array is only freed by a collection
    del a, cycle

    def collect_holding_the_lock():
        with cache._digests_lock:
            gc.collect()

    t = threading.Thread(target=collect_holding_the_lock, daemon=True)
    t.start()
    t.join(timeout=10)
    assert not t.is_alive(), "deadlocked"


def _hammer(directory: str, rounds: int) -> list[str]:
    """A host process of its own building the same graphs over one shared cache folder."""
    from webnn_bridge.policy.inventory import probe_inventory

    devices = [d for d in probe_inventory() if d.backend == "onnxruntime" and d.kind == "cpu"]
    out, caches = [], []
    for i in range(rounds):
        caches.append(CompileCache(directory, max_disk_bytes=1 << 20))  # small: trims race too
        ctx = _ctx(devices, caches[-1])
        for k in range(4):
            g = _build(ctx, W + k, scale=1.0 + (i % 2))
            np.testing.assert_allclose(_run(ctx, g, X), np.maximum(X @ (W + k), 0) * (1.0 + (i % 2)))
            out.append(g.compiled.source)
    for cache in caches:  # as a stopping host does: the pool ends its processes without waiting for their writers
        cache.flush()
    return out


def test_hosts_sharing_one_cache_folder(ort_devices, tmp_path):
    """Several hosts (processes) on one cache folder: every file is written under its own
    temporary name and renamed, entries are checked when read, trimming tolerates a file another
    host removed: no build fails, and the folder keeps no temporary files."""
    import multiprocessing

    with multiprocessing.get_context("spawn").Pool(3) as pool:
        results = pool.starmap(_hammer, [(str(tmp_path), 6)] * 3)
    sources = [s for r in results for s in r]
    assert len(sources) == 72 and set(sources) <= {"compiled", "memory", "disk"}
    assert "disk" in sources  # the hosts did read each other's entries
    assert not list(tmp_path.glob(".*.tmp"))
