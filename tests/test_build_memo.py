"""The host's build memo (src/webnn_bridge/bridge/memo.py), fed frames sans-I/O: an identical build message (up to
the page's object ids) skips the replay; anything that differs, or comes from another origin,
is validated again; failures are never remembered."""

from __future__ import annotations

import numpy as np
import pytest

from webnn_bridge.backends.cache import CompileCache
from webnn_bridge.bridge import protocol
from webnn_bridge.bridge.api import ML
from webnn_bridge.bridge.session import Session

F32 = {"dataType": "float32", "shape": [2, 2]}


@pytest.fixture
def ml():
    return ML(compile_cache=CompileCache())


def _session(ml, origin="http://a.test") -> Session:
    s = Session(ml, origin)
    replays = []
    real = s.replay
    s.replay = lambda *a: replays.append(1) or real(*a)
    s.replays = replays
    _ok(s, {"t": "createContext", "id": 1, "ctx": 1, "options": {}})
    return s


def _ok(s: Session, header: dict, payload: bytes | None = None) -> tuple[dict, memoryview | None]:
    (frame,) = s.receive(protocol.encode(header, payload) if payload is not None else protocol.encode(header))
    reply, data = protocol.decode(frame)
    assert "error" not in reply, reply
    return reply, data


def _build_frame(gid: int, base: int, w: np.ndarray, op: str = "add") -> bytes:
    """y = op(x, W): operand ids start at ``base`` (a page's ids differ between builds)."""
    return protocol.encode_parts({
        "t": "build", "id": 100 + gid, "ctx": 1, "graph": gid,
        "inputs": [{"operand": base, "name": "x", "desc": F32}],
        "constants": [{"operand": base + 1, "desc": F32, "part": 0}],
        "nodes": [{"op": op, "args": [{"$operand": base}, {"$operand": base + 1}], "outputs": [base + 2]}],
        "outputs": {"y": base + 2},
    }, [w.tobytes()])


def _run(s: Session, gid: int, x: np.ndarray) -> np.ndarray:
    t = 1000 + gid * 10
    _ok(s, {"t": "createTensor", "id": 1, "ctx": 1, "tensor": t, "desc": {**F32, "writable": True}})
    _ok(s, {"t": "createTensor", "id": 2, "ctx": 1, "tensor": t + 1, "desc": {**F32, "readable": True}})
    assert s.receive(protocol.encode({"t": "writeTensor", "tensor": t}, x.tobytes())) == []
    assert s.receive(protocol.encode({"t": "dispatch", "ctx": 1, "graph": gid, "inputs": {"x": t},
                                      "outputs": {"y": t + 1}})) == []
    _, data = _ok(s, {"t": "readTensor", "id": 3, "tensor": t + 1})
    return np.frombuffer(data, np.float32).reshape(2, 2)


W = np.array([[1, 2], [3, 4]], np.float32)
X = np.array([[10, 20], [30, 40]], np.float32)


def test_an_identical_build_skips_the_replay(ml):
    s = _session(ml)
    for gid, base in ((1, 5), (2, 5), (3, 7)):  # the shim numbers operands from 0: another numbering is another message
        (frame,) = s.receive(_build_frame(gid, base, W))
        assert "error" not in protocol.decode(frame)[0]
        np.testing.assert_array_equal(_run(s, gid, X), X + W)
    assert len(s.replays) == 2
    # a reloaded page (a new session of the same origin) too
    again = _session(ml)
    again.receive(_build_frame(1, 5, W))
    assert len(again.replays) == 0
    np.testing.assert_array_equal(_run(again, 1, X), X + W)


def test_any_difference_or_another_origin_replays(ml):
    s = _session(ml)
    s.receive(_build_frame(1, 5, W))
    w2 = W.copy()
    w2[1, 1] = 5
    s.receive(_build_frame(2, 5, w2))  # one constant value
    s.receive(_build_frame(3, 5, W, op="mul"))  # one operator
    assert len(s.replays) == 3
    np.testing.assert_array_equal(_run(s, 2, X), X + w2)
    np.testing.assert_array_equal(_run(s, 3, X), X * W)
    other = _session(ml, "http://b.test")
    other.receive(_build_frame(1, 5, W))
    assert len(other.replays) == 1


def test_failures_are_not_remembered(ml):
    s = _session(ml)
    for gid in (1, 2):  # conv2d of 2-D operands: invalid, both times
        (frame,) = s.receive(_build_frame(gid, 5, W, op="conv2d"))
        assert protocol.decode(frame)[0]["error"]["name"] == "TypeError"
    assert len(s.replays) == 2


def test_constant_tensors_are_not_memoized(ml):
    s = _session(ml)
    _ok(s, {"t": "createConstantTensor", "id": 9, "ctx": 1, "tensor": 77, "desc": F32}, W.tobytes())
    for gid in (1, 2):
        _ok(s, {"t": "build", "id": 10 + gid, "ctx": 1, "graph": gid,
                "inputs": [{"operand": 1, "name": "x", "desc": F32}],
                "constants": [{"operand": 2, "tensor": 77}],
                "nodes": [{"op": "add", "args": [{"$operand": 1}, {"$operand": 2}], "outputs": [3]}],
                "outputs": {"y": 3}})
    assert len(s.replays) == 2
    np.testing.assert_array_equal(_run(s, 2, X), X + W)


def _named_build(gid: int, w: np.ndarray | None, sha: str, op: str = "add") -> bytes:
    """y = op(x, W) with W named by its SHA-256: uploaded when ``w`` is given, else held."""
    const = {"operand": 2, "desc": F32, "sha256": sha}
    header = {"t": "build", "id": 100 + gid, "ctx": 1, "graph": gid,
              "inputs": [{"operand": 1, "name": "x", "desc": F32}], "constants": [const],
              "nodes": [{"op": op, "args": [{"$operand": 1}, {"$operand": 2}], "outputs": [3]}],
              "outputs": {"y": 3}}
    if w is None:
        return protocol.encode(header)
    const["part"] = 0
    return protocol.encode_parts(header, [w.tobytes()])


def _error(s: Session, frame) -> dict | None:
    (reply,) = s.receive(frame)
    return protocol.decode(reply)[0].get("error")


def _missing(s: Session, frame) -> list[str] | None:
    """The digests a build named without bytes that the host lacks (no graph made), else None."""
    (reply,) = s.receive(frame)
    h = protocol.decode(reply)[0]
    assert "error" not in h, h
    return h["ok"].get("missing")


def test_constants_are_uploaded_once_per_origin_and_checked_against_their_digest(ml):
    import hashlib

    sha = hashlib.sha256(W.tobytes()).hexdigest()
    s = _session(ml)
    assert _error(s, _named_build(1, W + 1, sha))["name"] == "TypeError"  # bytes that do not match
    assert _missing(s, _named_build(2, None, sha)) == [sha]  # never uploaded: the page must send it
    assert 2 not in s.graphs and not s.held
    assert _error(s, _named_build(2, W, sha)) is None  # sent again with the bytes, verified
    reload = _session(ml)  # the same origin, another session: the host holds it
    assert _missing(reload, _named_build(1, None, sha)) is None  # built in one round trip
    np.testing.assert_array_equal(_run(reload, 1, X), X + W)
    assert _missing(reload, _named_build(2, None, sha, op="mul")) is None  # another graph, the same constant
    assert not reload.held  # held for the build being handled only
    other = _session(ml, "http://b.test")  # never told what another origin uploaded
    assert _missing(other, _named_build(1, None, sha)) == [sha]
    assert _error(other, _named_build(2, W, sha)) is None
    np.testing.assert_array_equal(_run(other, 2, X), X + W)
    assert _error(other, _named_build(3, None, "not a digest"))["name"] == "TypeError"


# ---------------------------------------------------------------- constants on disk (a restarted host)

SHA_W = __import__("hashlib").sha256(W.tobytes()).hexdigest()


def _upload(ml: ML, origin: str = "http://a.test") -> None:
    assert _error(_session(ml, origin), _named_build(1, W, SHA_W)) is None
    ml.constant_store.flush()


def _holds(ml: ML, origin: str = "http://a.test") -> bool:
    return _missing(_session(ml, origin), _named_build(1, None, SHA_W)) is None


def _stored(tmp_path) -> list:
    return sorted(p for p in (tmp_path / "constants").rglob("*") if p.is_file())


def test_a_restarted_host_holds_the_constants_pages_uploaded(tmp_path):
    _upload(ML(compile_cache=CompileCache(tmp_path)))
    (path,) = _stored(tmp_path)
    assert path.read_bytes() == W.tobytes() and "a.test" not in str(path)  # no page text in paths
    restarted = ML(compile_cache=CompileCache(tmp_path))
    s = _session(restarted)
    assert _missing(s, _named_build(1, None, SHA_W)) is None  # built without uploading the bytes
    np.testing.assert_array_equal(_run(s, 1, X), X + W)


def test_a_tampered_stored_constant_is_rejected_and_deleted(tmp_path):
    _upload(ML(compile_cache=CompileCache(tmp_path)))
    (path,) = _stored(tmp_path)
    path.write_bytes((W + 1).tobytes())
    restarted = ML(compile_cache=CompileCache(tmp_path))
    assert not _holds(restarted)
    assert not path.exists()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(W.tobytes()[:7])  # truncated
    assert not _holds(ML(compile_cache=CompileCache(tmp_path)))


def test_stored_constants_are_partitioned_by_origin(tmp_path):
    _upload(ML(compile_cache=CompileCache(tmp_path)), "http://a.test")
    restarted = ML(compile_cache=CompileCache(tmp_path))
    assert not _holds(restarted, "http://b.test")
    assert _holds(restarted, "http://a.test")


def test_without_a_cache_directory_nothing_is_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ml = ML(compile_cache=CompileCache())  # serve --no-cache
    _upload(ml)
    assert ml.constant_store.directory is None and list(tmp_path.rglob("*")) == []
    assert not _holds(ML(compile_cache=CompileCache()))


def test_stored_constants_are_bounded_least_recently_used_first_out(tmp_path):
    from webnn_bridge.bridge.memo import ConstantStore

    store = ConstantStore(directory=tmp_path / "constants", max_disk_bytes=40)
    digests = []
    for i in range(4):  # 16 bytes each: at most two fit
        data = (W + i).tobytes()
        digests.append(__import__("hashlib").sha256(data).hexdigest())
        store.put("o", digests[-1], memoryview(data))
        store.flush()
    assert len(_stored(tmp_path)) == 2
    fresh = ConstantStore(directory=tmp_path / "constants")
    assert [fresh.get("o", d) is not None for d in digests] == [False, False, True, True]


def _aligned(frame) -> bytes:
    """The frame as the shim sends it (its header padded so that the payload starts 8-aligned)
    and the server receives it (immutable bytes)."""
    header, payload = protocol.decode(frame)
    header["pad"] = ""
    while True:
        out = bytes(protocol.encode(header, payload))
        if (4 + int.from_bytes(out[:4], "little")) % 8 == 0:
            return out
        header["pad"] += " "


def test_uploaded_constants_are_used_in_place_unless_the_message_is_mostly_other_bytes(ml):
    s = _session(ml)
    frame = _aligned(_build_frame(1, 5, W))  # as the server receives it from the shim
    s.receive(frame)
    (const,) = s.graphs[1].ir.constants.values()
    assert np.shares_memory(const, np.frombuffer(frame, np.uint8)) and not const.flags.writeable
    np.testing.assert_array_equal(_run(s, 1, X), X + W)
    with pytest.raises(ValueError):
        const[0, 0] = 5  # read-only: nothing writes a graph's constants
    # a small constant must not keep a big message (here an unused 64 KiB part) alive
    header, _ = protocol.decode(_build_frame(2, 5, W + 1))
    padded = _aligned(protocol.encode_parts({k: v for k, v in header.items() if k != "parts"},
                                            [(W + 1).tobytes(), bytes(65536)]))
    s.receive(padded)
    (const,) = s.graphs[2].ir.constants.values()
    assert not np.shares_memory(const, np.frombuffer(padded, np.uint8)) and not const.flags.writeable
    np.testing.assert_array_equal(_run(s, 2, X), X + W + 1)
    mutable = _build_frame(3, 5, W + 2)  # a bytearray: its owner could change it, so it is copied
    s.receive(mutable)
    (const,) = s.graphs[3].ir.constants.values()
    assert not np.shares_memory(const, np.frombuffer(mutable, np.uint8))


def test_the_constant_writer_runs_at_the_lowest_priority(tmp_path):
    """Writing constants to disk must not compete with the uploads and builds it follows."""
    import hashlib
    import os
    import threading

    from webnn_bridge.bridge.memo import ConstantStore

    store = ConstantStore(directory=tmp_path)
    data = memoryview(b"x" * 64)
    store.put("o", hashlib.sha256(data).hexdigest(), data)
    store.flush()
    writer = next(t for t in threading.enumerate() if t.name == "webnn-constants")
    assert os.getpriority(os.PRIO_PROCESS, writer.native_id) == 19
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) < 19  # only that thread


def test_a_malformed_digest_fails_the_build_and_holds_nothing(ml):
    s = _session(ml)
    _upload(ml)  # the store holds W for this origin
    header = {"t": "build", "id": 7, "ctx": 1, "graph": 9, "inputs": [{"operand": 1, "name": "x", "desc": F32}],
              "constants": [{"operand": 2, "desc": F32, "sha256": SHA_W}, {"operand": 3, "desc": F32, "sha256": "zz"}],
              "nodes": [{"op": "add", "args": [{"$operand": 1}, {"$operand": 2}], "outputs": [4]}], "outputs": {"y": 4}}
    assert _error(s, protocol.encode(header))["name"] == "TypeError"
    assert not s.held and 9 not in s.graphs
