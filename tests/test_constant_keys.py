"""Constants named by key (the shim's constantKey, a fast hash a page computes instead of copying and
hashing its constants): the host learns which digest a key names from the pages of an origin,
lists those keys to the origin's new contexts, resolves a build's keys to digests (the build memo
and the replay see digests only), answers which keys it lacks, keeps the keys across a restart,
and never lets one origin's keys name another's constants. Fed to Sessions sans-I/O."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from tests.test_constant_upload import _run as run_graph
from webnn_bridge.backends.cache import CompileCache
from webnn_bridge.bridge import memo, protocol
from webnn_bridge.bridge.api import ML
from webnn_bridge.bridge.session import Session

F32 = {"dataType": "float32", "shape": [2, 2]}
W = np.array([[1, 2], [3, 4]], np.float32)
X = np.array([[10, 20], [30, 40]], np.float32)
SHA_W = hashlib.sha256(W.tobytes()).hexdigest()
KEY_W = "0123456789abcdef0123456789abcdef"
ORIGIN = "http://a.test"


def _reply(s: Session, header: dict, payload: bytes | None = None) -> dict:
    (frame,) = s.receive(protocol.encode(header, payload) if payload is not None else protocol.encode(header))
    return protocol.decode(frame)[0]


def _context(s: Session, ctx: int = 1) -> dict:
    r = _reply(s, {"t": "createContext", "id": 1, "ctx": ctx, "options": {}})
    assert "error" not in r
    return r["ok"]


def _build(s: Session, gid: int, item: dict, part: bytes | None = None) -> dict:
    header = {"t": "build", "id": 100 + gid, "ctx": 1, "graph": gid,
              "inputs": [{"operand": 1, "name": "x", "desc": F32}],
              "constants": [{"operand": 2, "desc": F32, **item}],
              "nodes": [{"op": "add", "args": [{"$operand": 1}, {"$operand": 2}], "outputs": [3]}],
              "outputs": {"y": 3}}
    if part is None:
        return _reply(s, header)
    (frame,) = s.receive(protocol.encode_parts(header, [part]))
    return protocol.decode(frame)[0]


def _run(s: Session, gid: int) -> np.ndarray:
    return run_graph(s, gid, X)


def _first_build(ml: ML, origin: str = ORIGIN) -> Session:
    """A page's first build (its constant uploaded), then the key the page sends after it."""
    s = Session(ml, origin)
    ok = _context(s)
    assert ok["constantsHeld"] is False and ok["constantKeys"] == []
    s.receive(protocol.encode({"t": "putConstant", "ctx": 1, "upload": 7}, W.tobytes()))
    r = _build(s, 1, {"upload": 7})
    assert r["ok"]["uploads"] == {"7": SHA_W}
    assert s.receive(protocol.encode({"t": "constantKeys", "keys": {SHA_W: KEY_W}})) == []
    return s


@pytest.fixture
def ml():
    return ML(compile_cache=CompileCache())


def test_a_reloaded_page_names_a_listed_constant_by_its_key_alone(ml):
    _first_build(ml)
    page = Session(ml, ORIGIN)  # the page reloaded: a new session of the origin
    ok = _context(page)
    assert ok["constantsHeld"] is True and ok["constantKeys"] == [KEY_W]
    r = _build(page, 2, {"key": KEY_W})
    assert "missing" not in r["ok"] and "error" not in r
    np.testing.assert_array_equal(_run(page, 2), X + W)


def test_a_key_and_a_digest_of_the_same_constant_are_one_build_for_the_memo(ml, monkeypatch):
    _first_build(ml)
    page = Session(ml, ORIGIN)
    _context(page)
    replays = []
    real = Session.replay
    monkeypatch.setattr(Session, "replay", lambda s, *a: replays.append(1) or real(s, *a))
    assert "error" not in _build(page, 2, {"key": KEY_W})
    assert "error" not in _build(page, 3, {"sha256": SHA_W})
    assert replays == []  # the first build's memo entry serves both


def test_a_key_the_host_lacks_is_answered_and_the_page_sends_its_bytes(ml):
    s = Session(ml, ORIGIN)
    _context(s)
    unknown = "f" * 32
    r = _build(s, 1, {"key": unknown})
    assert r["ok"] == {"missing": [], "missingKeys": [unknown]}
    assert 1 not in s.graphs  # no graph: the page builds again
    r = _build(s, 1, {"key": unknown, "part": 0}, W.tobytes())
    assert "error" not in r
    np.testing.assert_array_equal(_run(s, 1), X + W)
    # the host learnt the key with the bytes (hashed here): the next page names it by key
    assert _context(Session(ml, ORIGIN))["constantKeys"] == [unknown]
    assert ml.constant_store.sha_for(ORIGIN, unknown) == SHA_W


def test_a_listed_key_whose_constant_is_gone_is_answered_missing(ml):
    _first_build(ml)
    page = Session(ml, ORIGIN)
    assert _context(page)["constantKeys"] == [KEY_W]
    ml.constant_store.idle_bytes = 0  # (no disk here: the memory is all it has)
    ml.constant_store.trim()
    ml.build_memo = type(ml.build_memo)()  # no memo entry either: the build needs the bytes
    r = _build(page, 2, {"key": KEY_W})
    assert r["ok"] == {"missing": [], "missingKeys": [KEY_W]}


def test_keys_are_partitioned_by_origin(ml):
    _first_build(ml)
    other = Session(ml, "http://b.test")
    ok = _context(other)
    assert ok["constantsHeld"] is False and ok["constantKeys"] == []
    r = _build(other, 1, {"key": KEY_W})
    assert r["ok"]["missingKeys"] == [KEY_W]
    # nor can another origin teach keys for digests it does not hold
    other.receive(protocol.encode({"t": "constantKeys", "keys": {SHA_W: "e" * 32}}))
    assert ml.constant_store.sha_for("http://b.test", "e" * 32) is None


@pytest.mark.parametrize("key", ["", "XYZ", "0" * 31, "0" * 33, 5, None, "0123456789ABCDEF0123456789ABCDEF"])
def test_a_malformed_key_is_a_type_error_and_learns_nothing(ml, key):
    s = _first_build(ml)
    r = _build(s, 2, {"key": key})
    assert r["error"]["name"] == "TypeError"
    s.receive(protocol.encode({"t": "constantKeys", "keys": {SHA_W: key}}))
    assert ml.constant_store.held_keys(ORIGIN) == [KEY_W]


def test_constant_keys_messages_are_bounded(ml):
    s = _first_build(ml)
    keys = {f"{i:064x}": f"{i:032x}" for i in range(memo.MAX_KEYS + 1)}
    (frame,) = s.receive(protocol.encode({"t": "constantKeys", "id": 9, "keys": keys}))
    assert protocol.decode(frame)[0]["error"]["name"] == "TypeError"


def test_the_keys_an_origin_holds_are_bounded(monkeypatch):
    monkeypatch.setattr(memo, "MAX_KEYS", 3)
    store = memo.ConstantStore()
    for i in range(5):
        store.learn(ORIGIN, f"{i:032x}", f"{i:064x}")
    assert [store.sha_for(ORIGIN, f"{i:032x}") for i in range(5)] == [None, None, f"{2:064x}", f"{3:064x}", f"{4:064x}"]


def test_a_restarted_host_lists_the_keys_it_learnt(tmp_path):
    def host():
        return ML(compile_cache=CompileCache(tmp_path))

    first = host()
    _first_build(first)
    first.flush_to_disk()
    restarted = host()
    page = Session(restarted, ORIGIN)
    ok = _context(page)
    assert ok["constantsHeld"] is True and ok["constantKeys"] == [KEY_W]
    assert "error" not in _build(page, 1, {"key": KEY_W})
    np.testing.assert_array_equal(_run(page, 1), X + W)


def test_a_damaged_keys_file_is_ignored(tmp_path):
    store = memo.ConstantStore(directory=tmp_path)
    store.put(ORIGIN, SHA_W, memoryview(W.tobytes()))
    store.learn(ORIGIN, KEY_W, SHA_W)
    store.flush()
    (keys_file,) = tmp_path.glob(f"*/{memo.KEYS_FILE}")
    keys_file.write_bytes(b"{not json")
    restarted = memo.ConstantStore(directory=tmp_path)
    assert restarted.held_keys(ORIGIN) == []
    assert restarted.has(ORIGIN, SHA_W)  # the constant itself is still there
