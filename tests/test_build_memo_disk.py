"""The build memo on disk (src/webnn_bridge/bridge/memo.py BuildMemo, src/webnn_bridge/bridge/memo_disk.py), fed frames sans-I/O: a
restarted host (a new ML on the same cache directory) builds a message it validated before with no
replay, and reads its constants only when they are needed; anything that differs (the message,
the origin, the context, the host's devices or rules) or any damaged entry is replayed, with the
same results and the same errors as before."""

from __future__ import annotations

import hashlib
import math

import numpy as np
import pytest

from webnn_bridge.backends.cache import CompileCache
from webnn_bridge.bridge import memo_disk, protocol
from webnn_bridge.bridge.api import ML, MLGraphBuilder
from webnn_bridge.bridge.memo import MEMO_MAGIC, ConstantStore, Validated
from webnn_bridge.bridge.session import Session
from webnn_bridge.ops.graph import Ref
from webnn_bridge.ops.registry import OperandList

from .test_build_memo import SHA_W, W, X, _error, _missing, _named_build, _run

A = "http://a.test"


def _host(tmp_path, **kw) -> ML:
    return ML(compile_cache=CompileCache(tmp_path), **kw)


def _session(ml: ML, origin: str = A, options: dict | None = None) -> Session:
    """A page's session with one context, counting its replays."""
    s = Session(ml, origin)
    s.replays = []
    real = s.replay
    s.replay = lambda *a: s.replays.append(1) or real(*a)
    (frame,) = s.receive(protocol.encode({"t": "createContext", "id": 1, "ctx": 1, "options": options or {}}))
    assert "error" not in protocol.decode(frame)[0]
    return s


def _first_run(tmp_path, origin: str = A) -> ML:
    """A host that built y = x + W (W uploaded, named by its digest) and wrote it all to disk."""
    ml = _host(tmp_path)
    s = _session(ml, origin)
    assert _error(s, _named_build(1, W, SHA_W)) is None
    assert s.replays == [1]
    _flush(ml)
    return ml


def _flush(ml: ML) -> None:
    ml.constant_store.flush()
    ml.build_memo.flush()
    ml.compile_cache.flush()


def _memo_files(tmp_path) -> list:
    return sorted(p for p in (tmp_path / "memo").glob("*") if p.is_file())


def _builds(s: Session, gid: int = 1, op: str = "add") -> bool:
    """The page's build of y = op(x, W) with W named by its digest (no bytes), as after a reload."""
    return _missing(s, _named_build(gid, None, SHA_W, op)) is None


def test_a_restarted_host_builds_a_validated_message_without_a_replay(tmp_path):
    first = _first_run(tmp_path)
    charged = _session(first).budget.used
    (entry,) = _memo_files(tmp_path)
    assert b"a.test" not in entry.read_bytes() and "a.test" not in str(entry)  # no page text on disk
    s = _session(_host(tmp_path))
    assert _builds(s)
    assert s.replays == []
    np.testing.assert_array_equal(_run(s, 1, X), X + W)
    assert s.graphs[1].charged > 0 and charged <= s.budget.used  # the same budget as a replayed build
    again = _session(s.ml)  # then from memory
    assert _builds(again) and again.replays == []
    np.testing.assert_array_equal(_run(again, 1, X), X + W)


def test_the_budget_a_remembered_graph_charges_is_the_replayed_ones(tmp_path):
    first = _host(tmp_path)
    s = _session(first)
    assert _error(s, _named_build(1, W, SHA_W)) is None
    _flush(first)
    s2 = _session(_host(tmp_path))
    assert _builds(s2) and s2.replays == []
    assert s2.graphs[1].charged == s.graphs[1].charged


@pytest.mark.parametrize("change", ["message", "origin", "options", "devices", "rules"])
def test_anything_that_differs_is_replayed(tmp_path, change):
    _first_run(tmp_path)
    origin, options, kw, op = A, {}, {}, "add"
    if change == "message":
        op = "mul"
    elif change == "origin":
        origin = "http://b.test"
    elif change == "options":
        options = {"powerPreference": "low-power"}
    elif change == "devices":
        kw = {"inventory": [d for d in ML().inventory if d.backend in ("onnxruntime", "reference")][:1]}
    else:
        from webnn_bridge.policy import engine

        rules = {k: v for k, v in engine.default_rules().items()}
        rules["qos"] = dict(rules.get("qos", {}), unused_marker=1)
        kw = {"rules": rules}
    ml = _host(tmp_path, **kw)
    s = _session(ml, origin, options)
    if change == "origin":  # another origin is never told what this one holds
        assert _missing(s, _named_build(1, None, SHA_W)) == [SHA_W]
        assert _error(s, _named_build(1, W, SHA_W)) is None
    else:
        assert _builds(s, op=op)
    assert s.replays == [1]
    np.testing.assert_array_equal(_run(s, 1, X), X * W if op == "mul" else X + W)


def test_a_restarted_host_prepares_what_contexts_of_a_kind_built_last(tmp_path, monkeypatch):
    """A server's host (ML.prepares) prepares, when a context opens, the builds that contexts of
    its kind from its origin made last (memo entry read, session compiled and let go warm): the
    page's build then reads nothing from disk and takes the warm session. Another origin's context,
    or another kind of context, prepares none of them; a kind is prepared once a minute at most."""
    _first_run(tmp_path)
    ml = _host(tmp_path)
    ml.prepares = True
    jobs = []
    real = ml._prepare
    monkeypatch.setattr(ml, "_prepare", lambda *a: jobs.append(a[2]) or real(*a))
    _session(ml, "http://b.test")
    _session(ml, A, {"powerPreference": "low-power"})
    assert ml.wait_prepared()
    assert len(jobs) == 2 and ml.compile_cache.stats == {"compiled": 0, "memory": 0, "disk": 0}
    s = _session(ml, A)
    _session(ml, A)  # the same kind again: prepared already
    assert ml.wait_prepared()
    assert len(jobs) == 3 and ml.compile_cache.stats == {"compiled": 0, "memory": 0, "disk": 1}
    reads = []
    monkeypatch.setattr(ml.build_memo, "recall", lambda *a: reads.append(a))
    assert _builds(s) and s.replays == [] and reads == []
    assert s.graphs[1].compiled.source == "memory"
    np.testing.assert_array_equal(_run(s, 1, X), X + W)


def test_a_graph_over_the_bound_is_not_prepared(tmp_path, monkeypatch):
    """Preparing reads a graph's constants into memory on a guess: not for a big one."""
    from webnn_bridge.bridge import api

    _first_run(tmp_path)
    ml = _host(tmp_path)
    ml.prepares = True
    monkeypatch.setattr(api, "PREPARE_MAX_BYTES", W.nbytes - 1)
    s = _session(ml)
    assert ml.wait_prepared()
    assert ml.compile_cache.stats == {"compiled": 0, "memory": 0, "disk": 0}
    assert _builds(s) and s.replays == [] and s.graphs[1].compiled.source == "disk"


def test_a_host_that_no_server_runs_prepares_nothing(tmp_path):
    """Sans I/O (a Session fed frames, as tests do): no thread is started, the build does it all."""
    _first_run(tmp_path)
    ml = _host(tmp_path)
    s = _session(ml)
    assert ml._prepare_queue is None
    assert _builds(s) and s.replays == []
    assert s.graphs[1].compiled.source == "disk"


def test_failures_are_never_written(tmp_path):
    ml = _host(tmp_path)
    s = _session(ml)
    assert _error(s, _named_build(1, W, SHA_W, op="conv2d"))["name"] == "TypeError"
    _flush(ml)
    assert _memo_files(tmp_path) == []
    again = _session(_host(tmp_path))
    assert _error(again, _named_build(1, None, SHA_W, op="conv2d"))["name"] == "TypeError"
    assert again.replays == [1]


def _damage_truncated(path):
    path.write_bytes(path.read_bytes()[:-9])


def _damage_edited(path):
    raw = bytearray(path.read_bytes())
    raw[-3] ^= 0x20
    path.write_bytes(bytes(raw))


def _damage_version(path):
    path.write_bytes(path.read_bytes().replace(MEMO_MAGIC, MEMO_MAGIC[:-2] + b"0\n"))  # another version


def _damage_host(path):
    """Valid as a file (its digest matches), but written by another host (fingerprint)."""
    from webnn_bridge.backends.cache import checked, read_checked

    body = read_checked(path, MEMO_MAGIC)
    path.write_bytes(checked(MEMO_MAGIC, b"0" * 32 + body[32:]))


def _damage_content(path):
    """Valid as a file, its head too, but its entry is not one this code writes."""
    from webnn_bridge.backends.cache import checked, read_checked

    body = read_checked(path, MEMO_MAGIC)
    head = body[:body.index(b"\n") + 1]
    path.write_bytes(checked(MEMO_MAGIC, head + body[len(head):].replace(b'"add"', b'"nope"')))


@pytest.mark.parametrize("damage", [_damage_truncated, _damage_edited, _damage_version, _damage_host,
                                    _damage_content])
def test_a_damaged_entry_is_replayed_and_replaced(tmp_path, damage):
    _first_run(tmp_path)
    (entry,) = _memo_files(tmp_path)
    damage(entry)
    ml = _host(tmp_path)
    s = _session(ml)
    assert _builds(s)
    assert s.replays == [1]
    np.testing.assert_array_equal(_run(s, 1, X), X + W)
    _flush(ml)
    s2 = _session(_host(tmp_path))  # written again, whole
    assert _builds(s2) and s2.replays == []


def test_without_a_cache_directory_nothing_is_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ml = ML(compile_cache=CompileCache())  # serve --no-cache
    s = _session(ml)
    assert _error(s, _named_build(1, W, SHA_W)) is None
    _flush(ml)
    assert ml.build_memo.directory is None and list(tmp_path.rglob("*")) == []
    s2 = _session(ML(compile_cache=CompileCache()))
    assert _missing(s2, _named_build(1, None, SHA_W)) == [SHA_W]


def test_a_stored_constant_damaged_since_is_asked_for_again(tmp_path):
    """The memo names constants; a small graph (no optimized model) needs their bytes, which are
    checked when read: a damaged file is never used, the page is asked for the bytes instead."""
    _first_run(tmp_path)
    (const,) = (tmp_path / "constants").rglob(SHA_W)
    const.write_bytes((W + 1).tobytes())
    s = _session(_host(tmp_path))
    assert _missing(s, _named_build(1, None, SHA_W)) == [SHA_W]  # listed, but damaged when read
    assert not const.exists() and 1 not in s.graphs
    assert _error(s, _named_build(1, W, SHA_W)) is None  # sent again with its bytes
    assert s.replays == []
    np.testing.assert_array_equal(_run(s, 1, X), X + W)


# ---------------------------------------------------------------- big graphs: no constant read at all
BIG = (np.random.default_rng(3).standard_normal((520, 512)) * 0.05).astype(np.float32)  # 1 MiB and more
SHA_BIG = hashlib.sha256(BIG.tobytes()).hexdigest()
XB = np.random.default_rng(4).standard_normal((1, 520)).astype(np.float32)


def _big_build(gid: int, with_bytes: bool) -> bytes:
    const = {"operand": 2, "desc": {"dataType": "float32", "shape": list(BIG.shape)}, "sha256": SHA_BIG}
    header = {"t": "build", "id": 100 + gid, "ctx": 1, "graph": gid,
              "inputs": [{"operand": 1, "name": "x", "desc": {"dataType": "float32", "shape": list(XB.shape)}}],
              "constants": [const],
              "nodes": [{"op": "matmul", "args": [{"$operand": 1}, {"$operand": 2}], "outputs": [3]}],
              "outputs": {"y": 3}}
    if not with_bytes:
        return protocol.encode(header)
    const["part"] = 0
    return protocol.encode_parts(header, [BIG.tobytes()])


def _run_big(s: Session, gid: int) -> np.ndarray:
    t = 5000 + gid * 10
    for tid, desc in ((t, {"dataType": "float32", "shape": list(XB.shape), "writable": True}),
                      (t + 1, {"dataType": "float32", "shape": [1, 512], "readable": True})):
        (frame,) = s.receive(protocol.encode({"t": "createTensor", "id": 1, "ctx": 1, "tensor": tid, "desc": desc}))
        assert "error" not in protocol.decode(frame)[0]
    s.receive(protocol.encode({"t": "writeTensor", "tensor": t}, XB.tobytes()))
    s.receive(protocol.encode({"t": "dispatch", "ctx": 1, "graph": gid, "inputs": {"x": t}, "outputs": {"y": t + 1}}))
    (frame,) = s.receive(protocol.encode({"t": "readTensor", "id": 3, "tensor": t + 1}))
    return np.frombuffer(protocol.decode(frame)[1], np.float32).reshape(1, 512)


def _big_built_and_flushed(tmp_path):
    """A host that built and ran the big graph, with its disk caches written: its results."""
    first = _host(tmp_path)
    s = _session(first)
    assert _error(s, _big_build(1, True)) is None
    expected = _run_big(s, 1)
    _flush(first)
    if first.compile_cache.optimized_stats["written"] != 1:
        pytest.skip("no ONNX Runtime optimized model here (onnxruntime CPU EP not the context's device)")
    return expected


def test_a_big_remembered_graph_is_built_without_reading_its_constants(tmp_path, monkeypatch):
    expected = _big_built_and_flushed(tmp_path)
    reads = []
    real = ConstantStore._load
    monkeypatch.setattr(ConstantStore, "_load", lambda self, *a: reads.append(a) or real(self, *a))
    restarted = _host(tmp_path)
    s2 = _session(restarted)
    assert _missing(s2, _big_build(1, False)) is None
    assert s2.replays == [] and reads == []
    assert restarted.compile_cache.optimized_stats["loaded"] == 1
    np.testing.assert_allclose(_run_big(s2, 1), expected, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(expected, XB @ BIG, rtol=1e-4, atol=1e-4)


def test_a_big_remembered_graph_whose_optimized_model_is_damaged_reads_its_constants(tmp_path):
    expected = _big_built_and_flushed(tmp_path)
    (data,) = tmp_path.glob("*.ortd")
    raw = bytearray(data.read_bytes())
    raw[100] ^= 1
    data.write_bytes(bytes(raw))
    restarted = _host(tmp_path)
    s2 = _session(restarted)
    assert _missing(s2, _big_build(1, False)) is None
    assert s2.replays == [] and restarted.compile_cache.optimized_stats["rejected"] == 1
    np.testing.assert_allclose(_run_big(s2, 1), expected, rtol=1e-5, atol=1e-5)


# ---------------------------------------------------------------- the entry's format
def _same(a, b) -> bool:
    """Equal, and of the same Python types all the way down (a tuple is not a list)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    if isinstance(a, float):
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    return a == b


def test_an_entry_reads_back_as_the_graph_it_was_written_from():
    ml = ML(compile_cache=CompileCache())
    ctx = ml.createContext()
    b = MLGraphBuilder(ctx)
    x = b.input("x", {"dataType": "float32", "shape": [1, 2, 4, 4]})
    w = b.constant({"dataType": "float32", "shape": [2, 1, 3, 3]}, np.ones((2, 1, 3, 3), np.float32))
    y = b.conv2d(x, w, padding=[1, 1, 1, 1], groups=2, label="c")
    y = b.clamp(y, minValue=float("-inf"), maxValue=-0.0)
    y = b.concat([y, b.add(y, b.constant("float32", 2.5))], 1)
    parts = b.split(y, [1, 3], axis=1)
    g = b.build({"a": parts[0], "b": b.reduceMean(parts[1], axes=[2, 3], keepDimensions=True)})
    sha = hashlib.sha256(np.ones((2, 1, 3, 3), np.float32).tobytes()).hexdigest()
    oid_w = next(oid for oid, a in g.ir.constants.items() if a.size == 18)
    g.ir.derived["constant_sha256"] = {oid_w: sha}
    v = Validated(g.ir, g.placement, "d" * 64, g.ir.constant_bytes())
    fetched = []
    back = memo_disk.decode(memo_disk.encode(v), ml.inventory,
                            lambda s: fetched.append(s) or memoryview(np.ones(18, np.float32).tobytes()))
    ir = back.ir
    assert _same(ir.operands, g.ir.operands) and _same(ir.inputs, g.ir.inputs) and _same(ir.outputs, g.ir.outputs)
    assert len(ir.nodes) == len(g.ir.nodes)
    for n, m in zip(ir.nodes, g.ir.nodes):
        assert (n.op, n.call.op, n.outputs) == (m.op, m.call.op, m.outputs)
        assert _same(n.call.args, m.call.args) and _same(n.call.options, m.call.options), (n, m)
    assert any(isinstance(v, OperandList) for n in ir.nodes for v in n.call.args.values())
    assert any(isinstance(v, Ref) for n in ir.nodes for v in n.call.args.values())
    assert fetched == [] and ir.constant_bytes() == g.ir.constant_bytes()  # sizes known, nothing read
    assert list(ir.constants) == list(g.ir.constants)
    for oid, a in g.ir.constants.items():
        np.testing.assert_array_equal(ir.constants[oid], a)
        assert ir.constants[oid].dtype == a.dtype and not ir.constants[oid].flags.writeable
    assert fetched == [sha]
    assert back.placement == g.placement and back.digest == "d" * 64 and back.size == v.size


def test_a_graph_with_an_unnamed_constant_is_kept_in_memory_only():
    ml = ML(compile_cache=CompileCache())
    b = MLGraphBuilder(ml.createContext())
    x = b.input("x", {"dataType": "float32", "shape": [64, 4]})
    g = b.build({"y": b.add(x, b.constant({"dataType": "float32", "shape": [64, 4]}, np.ones((64, 4), np.float32)))})
    with pytest.raises(ValueError):  # 1 KiB with no digest: not written
        memo_disk.encode(Validated(g.ir, g.placement, None, g.ir.constant_bytes()))


def test_the_memo_on_disk_is_bounded_least_recently_used_first_out(tmp_path):
    from webnn_bridge.bridge.memo import BuildMemo

    memo = BuildMemo(directory=tmp_path, fingerprint=lambda: "f", max_disk_bytes=700)
    v = Validated(None, None, None, 0)
    for key in ("k1", "k2", "k3"):  # about 300 bytes each on disk: two fit
        memo.put(key, v, lambda key=key: key.encode() * 100)
        memo.flush()
    assert len(list(tmp_path.iterdir())) == 2
    fresh = BuildMemo(directory=tmp_path, fingerprint=lambda: "f")
    assert [fresh.recall(k) for k in ("k1", "k2", "k3")] == [None, b"k2" * 100, b"k3" * 100]
    assert BuildMemo(directory=tmp_path, fingerprint=lambda: "g").recall("k3") is None  # another host's


def test_the_host_fingerprint_covers_the_devices_capabilities_and_the_rules():
    from webnn_bridge.backends.capabilities import capabilities_from_spec
    from webnn_bridge.policy.engine import default_rules
    from webnn_bridge.policy.inventory import DeclaredDevice

    def device(spec=None):
        return DeclaredDevice(id="sim:gpu", kind="gpu", backend="simulated",
                              capabilities=capabilities_from_spec(spec) if spec else None)

    base = memo_disk.host_fingerprint([device()], None, True)
    assert base == memo_disk.host_fingerprint([device()], None, True)  # stable
    assert base != memo_disk.host_fingerprint([device({"maxRank": 4})], None, True)  # same id, other capabilities
    assert base != memo_disk.host_fingerprint([device()], None, False)
    assert base != memo_disk.host_fingerprint([device()], {**default_rules(), "x": 1}, True)


def test_a_restarted_host_on_another_backend_reads_the_constants_it_needs(tmp_path):
    from webnn_bridge.policy.inventory import REFERENCE_CPU

    first = _host(tmp_path, inventory=[REFERENCE_CPU])  # the numpy reference: no compile cache token
    assert _error(_session(first), _named_build(1, W, SHA_W)) is None
    _flush(first)
    s = _session(_host(tmp_path, inventory=[REFERENCE_CPU]))
    assert _builds(s) and s.replays == []
    np.testing.assert_array_equal(_run(s, 1, X), X + W)
    (const,) = (tmp_path / "constants").rglob(SHA_W)
    const.write_bytes(b"damaged")  # listed, damaged since: asked for again, never a build error
    s2 = _session(_host(tmp_path, inventory=[REFERENCE_CPU]))
    assert _missing(s2, _named_build(1, None, SHA_W)) == [SHA_W]
    assert s2.replays == [] and not const.exists()
    assert _error(s2, _named_build(1, W, SHA_W)) is None
    np.testing.assert_array_equal(_run(s2, 1, X), X + W)


def test_the_warm_up_builds_and_runs_on_a_throwaway_host(tmp_path, monkeypatch):
    """session.warm_up (serve's, before it serves): a build, a run and a read on an ML of the same
    devices with in-memory caches only, none failing; the host's own caches and budget are
    untouched, and what wraps Session's handlers to count a page's builds does not see it."""
    from webnn_bridge.bridge import session as session_mod

    seen = []
    real = session_mod.Session.on_build
    monkeypatch.setattr(session_mod.Session, "on_build", lambda s, h, p: seen.append(h) or real(s, h, p))
    ml = _host(tmp_path)
    assert session_mod.warm_up(ml) == [] and seen == []
    assert not list(tmp_path.glob("**/*.wnc")) and ml.compile_cache.stats == {"compiled": 0, "memory": 0, "disk": 0}
    assert ml.budget.used == 0


def test_a_host_starts_its_disk_threads_before_it_serves(tmp_path):
    """ML.warm_up starts the disk caches' writers and prepare_recent's thread, so that no page's
    build or createContext starts a thread (a few ms each on a busy machine); an ML that does not
    prepare, or keeps no disk cache, starts none of them."""
    threads = lambda ml: [w._thread for w in (ml.constant_store._writer, ml.build_memo._writer,  # noqa: E731
                                               ml.compile_cache._writer)] + [ml._prepare_queue]
    ml = _host(tmp_path / "a")
    ml.prepares = True
    assert threads(ml) == [None] * 4
    ml.warm_up()
    assert all(t is not None for t in threads(ml))
    ml = _host(tmp_path / "b")
    ml.warm_up()
    assert ml._prepare_queue is None
    ml = ML()
    ml.warm_up()
    assert ml.build_memo._writer is None and ml._prepare_queue is None


def test_recent_lists_a_groups_newest_readable_entries_of_this_host(tmp_path):
    """BuildMemo.recent: a group's entries, newest first, at most n, within the age limit; a
    damaged entry or one of another host (its fingerprint) is left out; other groups never show."""
    import os
    import time

    from webnn_bridge.bridge.memo import BuildMemo, memo_group

    v = Validated(None, None, "d", 1)  # what the memory keeps: recent() reads the disk alone
    memo = BuildMemo(directory=tmp_path, fingerprint=lambda: "host-a")
    a, b = memo_group("http://a.test", "k"), memo_group("http://b.test", "k")
    for i, key in enumerate(["k1", "k2", "k3"]):
        memo.put(key, v, lambda i=i: f"body{i}".encode(), a)
    memo.put("other", v, lambda: b"theirs", b)
    memo.flush()
    now = time.time()
    for i, key in enumerate(["k1", "k2", "k3"]):  # k3 newest
        os.utime(memo._path(key, a), (now - 30 + i, now - 30 + i))
    assert [k for k, _ in memo.recent(a, 2)] == ["k3", "k2"]
    assert memo.recent(a, 5)[0] == ("k3", b"body2")
    os.utime(memo._path("k1", a), (now - 3600, now - 3600))
    assert [k for k, _ in memo.recent(a, 5, max_age_s=600)] == ["k3", "k2"]
    damaged = memo._path("k3", a)
    damaged.write_bytes(damaged.read_bytes()[:-3])
    assert [k for k, _ in memo.recent(a, 5)] == ["k2", "k1"]
    assert BuildMemo(directory=tmp_path, fingerprint=lambda: "host-b").recent(a, 5) == []
    assert [k for k, _ in memo.recent(b, 5)] == ["other"]
