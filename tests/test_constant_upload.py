"""Constants uploaded as constant() copies them (putConstant), before the build that names them,
fed to a Session sans-I/O: the host hashes them, charges them to the session's budget at once,
holds them until a build message or releaseConstants releases them or their context goes, and
still validates everything at build."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from webnn_bridge.backends.cache import CompileCache
from webnn_bridge.bridge import protocol
from webnn_bridge.bridge.api import ML
from webnn_bridge.bridge.session import CONTEXT_BYTES, Session, SessionLimits

F32 = {"dataType": "float32", "shape": [2, 2]}
W = np.array([[1, 2], [3, 4]], np.float32)
X = np.array([[10, 20], [30, 40]], np.float32)
SHA_W = hashlib.sha256(W.tobytes()).hexdigest()


@pytest.fixture
def ml():
    return ML(compile_cache=CompileCache())


def _reply(s: Session, header: dict, payload: bytes | None = None) -> dict:
    (frame,) = s.receive(protocol.encode(header, payload) if payload is not None else protocol.encode(header))
    return protocol.decode(frame)[0]


def _session(ml, origin="http://a.test", ctx=1) -> Session:
    s = Session(ml, origin)
    assert "error" not in _reply(s, {"t": "createContext", "id": 1, "ctx": ctx, "options": {}})
    return s


def _put(s: Session, upload: int, data: bytes, ctx: int = 1) -> list:
    return s.receive(protocol.encode({"t": "putConstant", "ctx": ctx, "upload": upload}, data))


def _build(s: Session, gid: int, upload: int, release: list | None = None, desc: dict = F32) -> dict:
    header = {"t": "build", "id": 100 + gid, "ctx": 1, "graph": gid,
              "inputs": [{"operand": 1, "name": "x", "desc": F32}],
              "constants": [{"operand": 2, "desc": desc, "upload": upload}],
              "nodes": [{"op": "add", "args": [{"$operand": 1}, {"$operand": 2}], "outputs": [3]}],
              "outputs": {"y": 3}}
    if release is not None:
        header["release"] = release
    return _reply(s, header)


def _run(s: Session, gid: int, x: np.ndarray) -> np.ndarray:
    t = 1000 + gid * 10
    _reply(s, {"t": "createTensor", "id": 1, "ctx": 1, "tensor": t, "desc": {**F32, "writable": True}})
    _reply(s, {"t": "createTensor", "id": 2, "ctx": 1, "tensor": t + 1, "desc": {**F32, "readable": True}})
    s.receive(protocol.encode({"t": "writeTensor", "tensor": t}, x.tobytes()))
    s.receive(protocol.encode({"t": "dispatch", "ctx": 1, "graph": gid, "inputs": {"x": t}, "outputs": {"y": t + 1}}))
    (frame,) = s.receive(protocol.encode({"t": "readTensor", "id": 3, "tensor": t + 1}))
    return np.frombuffer(protocol.decode(frame)[1], np.float32).reshape(2, 2)


def test_an_uploaded_constant_builds_and_the_reply_names_its_digest(ml):
    s = _session(ml)
    assert _reply(s, {"t": "createContext", "id": 2, "ctx": 2, "options": {}})["ok"]["constantsHeld"] is False
    assert _put(s, 40, W.tobytes()) == []  # no reply: fire and forget
    reply = _build(s, 1, 40, release=[40])
    assert reply["ok"]["uploads"] == {"40": SHA_W}
    np.testing.assert_array_equal(_run(s, 1, X), X + W)
    assert 40 not in s.uploads  # released by the build
    # the host keeps it for the origin: a later build names it by its digest, a reloaded page hashes
    assert s.ml.constant_store.get(s.origin, SHA_W) is not None
    assert _reply(_session(ml), {"t": "createContext", "id": 2, "ctx": 2, "options": {}})["ok"]["constantsHeld"]
    other = _session(ml, "http://b.test")
    assert _reply(other, {"t": "createContext", "id": 2, "ctx": 2, "options": {}})["ok"]["constantsHeld"] is False


def test_an_upload_is_held_until_released_and_charged_to_the_budget(ml):
    s = _session(ml)
    used = s.budget.used
    _put(s, 40, W.tobytes())
    assert s.budget.used == used + W.nbytes
    assert "error" not in _build(s, 1, 40)  # not released: a second builder may use it too
    assert "error" not in _build(s, 2, 40, release=[40])
    assert "error" in _build(s, 3, 40)  # released
    _put(s, 41, W.tobytes())
    s.receive(protocol.encode({"t": "releaseConstants", "uploads": [41, "junk", [1]]}))
    assert 41 not in s.uploads
    _put(s, 42, W.tobytes())
    s.receive(protocol.encode({"t": "destroyContext", "ctx": 1}))
    assert not s.uploads
    s.close()
    assert s.budget.used == 0


def test_an_upload_over_the_budget_fails_its_build(ml):
    ml.session_limits = SessionLimits(budget_bytes=CONTEXT_BYTES + W.nbytes - 1)
    s = _session(ml)
    _put(s, 40, W.tobytes())
    error = _build(s, 1, 40, release=[40])["error"]
    assert error["name"] == "OperationError" and "constant()" in error["message"]
    assert not s.uploads


def test_the_host_validates_what_an_upload_is_used_as(ml):
    s = _session(ml)
    _put(s, 40, W.tobytes()[:12])  # 3 floats named as a 2x2 constant
    assert _build(s, 1, 40)["error"]["name"] == "TypeError"
    assert _build(s, 2, 99)["error"]["name"] == "TypeError"  # never uploaded
    assert _build(s, 3, "40")["error"]["name"] == "TypeError"
    _put(s, 41, W.tobytes(), ctx=7)  # no such context: refused, never held
    assert 41 not in s.uploads
    _reply(s, {"t": "createContext", "id": 2, "ctx": 2, "options": {}})
    _put(s, 42, W.tobytes(), ctx=2)
    assert _build(s, 4, 42)["error"]["name"] == "TypeError"  # another context's upload
    _put(s, 43, W.tobytes())
    assert "error" in _reply(s, {"t": "build", "id": 9, "ctx": 1, "graph": 9, "inputs": [], "outputs": {"y": 2},
                                 "constants": [{"operand": 2, "desc": F32, "upload": 43, "sha256": SHA_W}],
                                 "nodes": []})
    assert s.receive(protocol.encode({"t": "putConstant", "ctx": 1, "upload": 43}, W.tobytes())) != []  # id reused


def test_uploads_are_not_trusted_across_sessions(ml):
    a = _session(ml)
    _put(a, 40, W.tobytes())
    b = _session(ml)
    assert _build(b, 1, 40)["error"]["name"] == "TypeError"


def test_a_rebuild_naming_the_uploads_digests_skips_the_replay(ml):
    s = _session(ml)
    replays = []
    real = s.replay
    s.replay = lambda *a: replays.append(1) or real(*a)
    _put(s, 40, W.tobytes())
    sha = _build(s, 1, 40, release=[40])["ok"]["uploads"]["40"]
    reply = _reply(s, {"t": "build", "id": 6, "ctx": 1, "graph": 2,
                       "inputs": [{"operand": 1, "name": "x", "desc": F32}],
                       "constants": [{"operand": 2, "desc": F32, "sha256": sha}],
                       "nodes": [{"op": "add", "args": [{"$operand": 1}, {"$operand": 2}], "outputs": [3]}],
                       "outputs": {"y": 3}})
    assert "error" not in reply and replays == [1]
    np.testing.assert_array_equal(_run(s, 2, X), X + W)


def test_the_count_of_held_uploads_is_bounded(ml, monkeypatch):
    """Bytes are charged to the budget; the count bounds a flood of tiny uploads (each costs the
    host an entry): the one over the limit is refused with a warning and a build naming it fails."""
    from webnn_bridge.bridge import session as session_module

    monkeypatch.setattr(session_module, "MAX_UPLOADS", 3)
    s = _session(ml)
    for uid in (1, 2, 3):
        assert _put(s, uid, W.tobytes()) == []
    (frame,) = _put(s, 4, W.tobytes())
    warning = protocol.decode(frame)[0]
    assert warning["t"] == "warning" and warning["error"]["name"] == "OperationError"
    assert len(s.uploads) == 3
    assert _build(s, 1, 4)["error"]["name"] == "TypeError"
    assert "ok" in _build(s, 2, 1, release=[1, 2, 3])
    assert _put(s, 5, W.tobytes()) == []  # released: room again
