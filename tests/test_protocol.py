"""Sans-I/O tests: frames in, frames out, no sockets."""

from __future__ import annotations

import json
import struct

import numpy as np
import pytest

from webnn_bridge.bridge import protocol
from webnn_bridge.bridge.api import ML
from webnn_bridge.bridge.session import Session


@pytest.fixture(scope="module")
def ml():
    return ML()


def reply(frames):
    assert len(frames) == 1, frames
    return protocol.decode(frames[0])


class Client:
    """Drives a Session the way the shim does."""

    def __init__(self, session: Session):
        self.s = session
        self.n = 0

    def call(self, header, payload=None, parts=None):
        self.n += 1
        header = {**header, "id": self.n}
        if parts is not None:
            frame = protocol.encode_parts(header, parts)
        else:
            frame = protocol.encode(header, payload)
        return self.s.receive(frame)

    def ok(self, header, parts=None):
        h, payload = reply(self.call(header, parts=parts))
        assert "error" not in h, h
        return h["ok"], payload


def test_frame_round_trip():
    text = protocol.encode({"t": "x", "v": 1})
    assert isinstance(text, str) and protocol.decode(text) == ({"t": "x", "v": 1}, None)
    binary = protocol.encode_parts({"t": "y"}, [b"abc", b"defg"])
    h, payload = protocol.decode(binary)
    assert bytes(protocol.part(h, payload, 0)) == b"abc"
    assert bytes(protocol.part(h, payload, 1)) == b"defg"


@pytest.mark.parametrize(
    "frame",
    [
        b"",
        b"\x01\x00",
        struct.pack("<I", 1000) + b"{}",
        struct.pack("<I", 2) + b"[]",
        "not json",
        "[1,2]",
        '{"t": 5}',
        struct.pack("<I", 3) + b"\xff\xfe\xfd",
    ],
)
def test_malformed_frames_raise_protocol_error(frame):
    with pytest.raises(protocol.ProtocolError):
        protocol.decode(frame)


def test_part_bounds_are_checked():
    h, payload = protocol.decode(protocol.encode({"t": "x", "parts": [[2, 100]]}, b"abc"))
    with pytest.raises(protocol.ProtocolError):
        protocol.part(h, payload, 0)
    with pytest.raises(protocol.ProtocolError):
        protocol.part(h, payload, 3)


def test_tagged_values():
    v = protocol.decode_value([{"$bigint": "18446744073709551615"}, {"$number": "-Infinity"}, {"a": {"$number": "NaN"}}])
    assert v[0] == 2**64 - 1 and v[1] == float("-inf") and v[2]["a"] != v[2]["a"]
    assert protocol.encode_value([float("inf"), 1.5, {"x": float("nan")}]) == [
        {"$number": "Infinity"},
        1.5,
        {"x": {"$number": "NaN"}},
    ]
    with pytest.raises(protocol.ProtocolError):
        protocol.decode_value({"$operand": 3})


def build_relu_add(c: Client, ctx=1, graph=10, b=np.array([1, -5, 2], np.float32)):
    return c.call(
        {
            "t": "build",
            "ctx": ctx,
            "graph": graph,
            "inputs": [{"operand": 1, "name": "a", "desc": {"dataType": "float32", "shape": [2, 3]}}],
            "constants": [{"operand": 2, "desc": {"dataType": "float32", "shape": [3]}, "part": 0}],
            "nodes": [
                {"op": "add", "args": [{"$operand": 1}, {"$operand": 2}, {}], "outputs": [3]},
                {"op": "relu", "args": [{"$operand": 3}, {"label": "r"}], "outputs": [4]},
            ],
            "outputs": {"out": 4},
        },
        parts=[b.tobytes()],
    )


def test_full_session_flow(ml):
    s = Session(ml)
    c = Client(s)
    ok, _ = c.ok({"t": "hello"})
    assert ok["session"] == s.token and ok["protocol"] == protocol.PROTOCOL_VERSION
    assert ok["rawMinBytes"] == protocol.RAW_MIN_BYTES  # the page's threshold for raw writes
    ok, _ = c.ok({"t": "createContext", "ctx": 1, "options": {"deviceType": "cpu"}})
    assert ok["accelerated"] is True and ok["limits"]["add"]["a"]["dataTypes"]
    h, _ = reply(build_relu_add(c))
    assert "error" not in h
    c.ok({"t": "createTensor", "ctx": 1, "tensor": 20, "desc": {"dataType": "float32", "shape": [2, 3], "writable": True}})
    c.ok({"t": "createTensor", "ctx": 1, "tensor": 21, "desc": {"dataType": "float32", "shape": [2, 3], "readable": True}})
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    assert c.call({"t": "writeTensor", "tensor": 20}, payload=a.tobytes()) == []
    assert c.call({"t": "dispatch", "ctx": 1, "graph": 10, "inputs": {"a": 20}, "outputs": {"out": 21}}) == []
    ok, payload = c.ok({"t": "readTensor", "tensor": 21})
    got = np.frombuffer(bytes(payload), np.float32).reshape(2, 3)
    np.testing.assert_array_equal(got, np.maximum(a + np.array([1, -5, 2], np.float32), 0))


def test_bad_input_gets_error_replies_not_exceptions(ml):
    s = Session(ml)
    c = Client(s)
    h, _ = reply(s.receive(b"\x00\x01garbage"))
    assert h["t"] == "error"
    h, _ = reply(c.call({"t": "nonsense"}))
    assert h["error"]["name"] == "TypeError"
    h, _ = reply(c.call({"t": "createContext", "ctx": 1, "options": {"powerPreference": "turbo"}}))
    assert h["error"]["name"] == "TypeError"
    c.ok({"t": "createContext", "ctx": 1})
    h, _ = reply(c.call({"t": "createContext", "ctx": 1}))  # id reuse
    assert h["error"]["name"] == "TypeError"
    h, _ = reply(c.call({"t": "build", "ctx": 1}))  # missing fields
    assert h["error"]["name"] == "TypeError"
    h, _ = reply(c.call({"t": "readTensor", "tensor": 999}))
    assert h["error"]["name"] == "TypeError"
    # fire-and-forget failures come back as warnings (spec: not reported to the caller)
    h, _ = reply(c.call({"t": "dispatch", "ctx": 1, "graph": 77, "inputs": {}, "outputs": {}}))
    assert h["t"] == "warning" and h["error"]["name"] == "InvalidStateError"


def test_host_revalidates_the_page_graph(ml):
    s = Session(ml)
    c = Client(s)
    c.ok({"t": "createContext", "ctx": 1})
    # a constant whose bytes do not match its descriptor
    h, _ = reply(build_relu_add(c, b=np.array([1, 2], np.float32)))
    assert h["error"]["name"] == "TypeError"
    # an operator the page claims has a different number of outputs
    h, _ = reply(
        c.call(
            {
                "t": "build",
                "ctx": 1,
                "graph": 11,
                "inputs": [{"operand": 1, "name": "a", "desc": {"dataType": "float32", "shape": [2]}}],
                "nodes": [{"op": "relu", "args": [{"$operand": 1}, {}], "outputs": [2, 3]}],
                "outputs": {"o": 2},
            }
        )
    )
    assert h["error"]["name"] == "TypeError"
    # int32 + float32 is rejected by the registry, whatever the page's shim said
    h, _ = reply(
        c.call(
            {
                "t": "build",
                "ctx": 1,
                "graph": 12,
                "inputs": [
                    {"operand": 1, "name": "a", "desc": {"dataType": "float32", "shape": [2]}},
                    {"operand": 2, "name": "b", "desc": {"dataType": "int32", "shape": [2]}},
                ],
                "nodes": [{"op": "add", "args": [{"$operand": 1}, {"$operand": 2}, {}], "outputs": [3]}],
                "outputs": {"o": 3},
            }
        )
    )
    assert h["error"]["name"] == "TypeError" and "data type" in h["error"]["message"]
    # an input operand cannot be an output
    h, _ = reply(
        c.call(
            {
                "t": "build",
                "ctx": 1,
                "graph": 13,
                "inputs": [{"operand": 1, "name": "a", "desc": {"dataType": "float32", "shape": [2]}}],
                "nodes": [],
                "outputs": {"o": 1},
            }
        )
    )
    assert h["error"]["name"] == "TypeError"


def test_sessions_are_isolated(ml):
    a, b = Session(ml), Session(ml)
    ca, cb = Client(a), Client(b)
    ca.ok({"t": "createContext", "ctx": 1})
    ca.ok({"t": "createTensor", "ctx": 1, "tensor": 5, "desc": {"dataType": "float32", "shape": [1], "readable": True}})
    cb.ok({"t": "createContext", "ctx": 1})
    h, _ = reply(cb.call({"t": "readTensor", "tensor": 5}))
    assert h["error"]["name"] == "TypeError"
    assert a.token != b.token


def test_create_context_reply_carries_the_rules_data(ml):
    """The shim runs the op rules itself; the reply gives it the context's bucketed capabilities."""
    s = Session(ml)
    ok, _ = Client(s).ok({"t": "createContext", "ctx": 7})
    rules = ok["rules"]
    ctx = s.contexts[7]
    assert rules["maxRank"] == ctx.capabilities.max_rank
    assert rules["maxTensorByteLength"] == ctx.capabilities.max_tensor_byte_length
    assert set(rules["ops"]) == set(ctx.capabilities.ops)
    conv = rules["ops"]["conv2d"]["input"]
    assert conv["types"] == list(ctx.capabilities.ops["conv2d"]["input"].types) and conv["ranks"] == [4, 4]
    assert not hasattr(s, "validate")  # no synchronous validation channel any more


def test_create_context_replies_share_nothing_a_caller_can_change(ml):
    """The reply's limits and rules are encoded once per canonical profile: what one context's
    opSupportLimits() caller does to its dictionary reaches neither the next reply nor the builder."""
    s = Session(ml)
    c = Client(s)
    first, _ = c.ok({"t": "createContext", "ctx": 1})
    assert first["limits"] == protocol.encode_value(s.contexts[1].opSupportLimits())
    s.contexts[1].opSupportLimits()["conv2d"]["input"]["dataTypes"].clear()
    second, _ = c.ok({"t": "createContext", "ctx": 2})
    assert second["limits"] == first["limits"] and second["rules"] == first["rules"]
    assert s.contexts[2].opSupportLimits() == s.contexts[1].opSupportLimits()


def test_a_page_holding_a_contexts_rules_gets_their_key_alone(ml):
    """A page's later contexts name the keys of the limits and rules it holds (rulesKnown): a context
    of a known profile gets the key alone, one of another profile (or an unknown key) everything."""
    s = Session(ml)
    c = Client(s)
    first, _ = c.ok({"t": "createContext", "ctx": 1})
    key = first["rulesKey"]
    assert isinstance(key, str) and first["rules"] and first["limits"]
    again, _ = c.ok({"t": "createContext", "ctx": 2, "rulesKnown": [key]})
    assert again["rulesKey"] == key and "rules" not in again and "limits" not in again
    assert s.contexts[2].opSupportLimits() == s.contexts[1].opSupportLimits()
    other, _ = c.ok({"t": "createContext", "ctx": 3, "rulesKnown": ["0" * 20, 5, None]})
    assert other["rulesKey"] == key and other["rules"] == first["rules"] and other["limits"] == first["limits"]
    # every canonical profile has a key of its own
    from webnn_bridge.bridge.wire import context_wire_key
    from webnn_bridge.policy.privacy import canonical_profiles

    profiles = canonical_profiles()
    assert len(profiles) > 1 and len({context_wire_key(p) for p in profiles}) == len(profiles)
    assert key in {context_wire_key(p) for p in profiles}


def test_close_loses_every_context(ml):
    s = Session(ml)
    c = Client(s)
    c.ok({"t": "createContext", "ctx": 1})
    ctx = s.contexts[1]
    s.close()
    assert ctx.is_lost and ctx.lost_info["message"]
    assert not s.contexts


def test_frames_are_json_or_binary_never_base64(ml):
    s = Session(ml)
    c = Client(s)
    c.ok({"t": "createContext", "ctx": 1})
    c.ok({"t": "createTensor", "ctx": 1, "tensor": 2, "desc": {"dataType": "float32", "shape": [4], "readable": True}})
    frames = c.call({"t": "readTensor", "tensor": 2})
    assert isinstance(frames[0], (bytes, bytearray))
    n = struct.unpack_from("<I", frames[0])[0]
    header = json.loads(frames[0][4 : 4 + n])
    assert header == {"t": "reply", "re": c.n, "ok": {}} and len(frames[0]) == 4 + n + 16


def _big_tensors(c: Client, n: int) -> None:
    """Tensor 20 (writable) and 21 (readable) of n float32s, and an identity-like graph 30 between them."""
    c.ok({"t": "createContext", "ctx": 1})
    for tid, flag in ((20, "writable"), (21, "readable")):
        c.ok({"t": "createTensor", "ctx": 1, "tensor": tid, "desc": {"dataType": "float32", "shape": [n], flag: True}})
    c.ok({"t": "build", "ctx": 1, "graph": 30, "inputs": [{"name": "x", "operand": 1, "desc": {"dataType": "float32", "shape": [n]}}],
          "constants": [], "nodes": [{"op": "relu", "args": [{"$operand": 1}, {}], "outputs": [2]}], "outputs": {"y": 2}})


def test_raw_payloads_travel_as_their_own_frames(ml):
    """A big write's bytes follow its message as a raw frame; a read asking for it gets the
    tensor's bytes as a protocol.Raw after the reply (no combined frame on either side)."""
    n = protocol.RAW_MIN_BYTES // 4 * 3
    c = Client(Session(ml))
    _big_tensors(c, n)
    x = np.linspace(-1, 1, n, dtype=np.float32)
    assert c.s.receive(protocol.encode({"t": "writeTensor", "tensor": 20, "raw": x.nbytes})) == []
    assert c.s._raw_for is not None and c.s.messages(x.tobytes()) == [x.tobytes()]  # taken whole, not unbatched
    assert c.s.receive(x.tobytes()) == []
    assert c.call({"t": "dispatch", "ctx": 1, "graph": 30, "inputs": {"x": 20}, "outputs": {"y": 21}}) == []
    text, raw = c.call({"t": "readTensor", "tensor": 21, "rawReply": True})
    assert protocol.decode(text) == ({"t": "reply", "re": c.n, "ok": {}, "raw": x.nbytes}, None)
    assert isinstance(raw, protocol.Raw) and len(raw.data) == x.nbytes
    np.testing.assert_array_equal(np.frombuffer(raw.data, np.float32), np.maximum(x, 0))
    h, payload = reply(c.call({"t": "readTensor", "tensor": 21}))  # not asked for: one combined frame
    assert "raw" not in h and bytes(payload) == bytes(raw.data)


@pytest.mark.parametrize("follow", ["text", "short", "long"])
def test_a_wrong_raw_payload_is_refused_and_the_session_goes_on(ml, follow):
    n = protocol.RAW_MIN_BYTES // 4
    c = Client(Session(ml))
    _big_tensors(c, n)
    x = np.ones(n, np.float32)
    c.s.receive(protocol.encode({"t": "writeTensor", "tensor": 20, "raw": x.nbytes}))
    bad = {"text": '{"t": "hello", "id": 99}', "short": x.tobytes()[:-4], "long": x.tobytes() + b"\0"}[follow]
    (warning,) = c.s.receive(bad)
    h, _ = protocol.decode(warning)
    assert h["t"] == "warning" and h["op"] == "writeTensor" and h["error"]["name"] == "TypeError"
    assert "raw payload" in h["error"]["message"]
    ok, _ = c.ok({"t": "hello"})  # the next message is a message again
    assert ok["session"] == c.s.token


@pytest.mark.parametrize("raw", [-1, "8", True, 1.5])
def test_a_malformed_raw_announcement_is_refused(ml, raw):
    c = Client(Session(ml))
    _big_tensors(c, 2)
    h, _ = reply(c.call({"t": "readTensor", "tensor": 21, "raw": raw}))
    assert h["error"]["name"] == "TypeError" and c.s._raw_for is None
    h, _ = reply(c.call({"t": "readTensor", "tensor": 21, "raw": 4}, payload=b"abcd"))  # and a payload of its own
    assert h["error"]["name"] == "TypeError" and c.s._raw_for is None


def test_a_packed_tensor_read_travels_raw_too(ml):
    c = Client(Session(ml))
    c.ok({"t": "createContext", "ctx": 1})
    n = 2 * protocol.RAW_MIN_BYTES  # uint4: two per byte
    c.ok({"t": "createTensor", "ctx": 1, "tensor": 5, "desc": {"dataType": "uint4", "shape": [n], "readable": True}})
    text, raw = c.call({"t": "readTensor", "tensor": 5, "rawReply": True})
    assert protocol.decode(text)[0]["raw"] == n // 2 and bytes(raw.data) == bytes(n // 2)


def test_nesting_is_bounded_at_max_depth():
    def nested(depth: int) -> str:  # the message object counts as one level
        inner = "1"
        for i in range(depth - 1):
            inner = f"[{inner}]" if i % 2 else f'{{"k":{inner}}}'
        return f'{{"t":"x","v":{inner}}}'

    assert protocol.decode(nested(protocol.MAX_DEPTH))[0]["t"] == "x"
    with pytest.raises(protocol.ProtocolError, match="deeper"):
        protocol.decode(nested(protocol.MAX_DEPTH + 1))
    with pytest.raises(protocol.ProtocolError, match="deeper"):
        protocol.decode(struct.pack("<I", len(nested(40))) + nested(40).encode())
    flat = '{"t":"x","s":"' + "[{" * 100 + '"}'  # brackets in a string nest nothing
    assert protocol.decode(flat)[0]["s"] == "[{" * 100


def test_the_only_page_runs_short_dispatches_on_the_event_loop(ml):
    """A dispatch of a graph that ran in a few ms is handled on the event loop for the only page
    connected (no thread hop); with other pages connected it goes to a worker."""
    c = Client(Session(ml))
    _big_tensors(c, 4)
    dispatch = protocol.encode({"t": "dispatch", "ctx": 1, "graph": 30, "inputs": {"x": 20}, "outputs": {"y": 21}})
    c.s.graphs[30].fastest_ms = 7.0  # a MobileNet-sized run
    for alone, quick in ((True, True), (False, False)):
        c.s.alone = alone
        assert c.s.prepare(dispatch)[0] is quick
    c.s.alone = True
    c.s.graphs[30].fastest_ms = 400.0  # a long run still leaves the loop free
    assert c.s.prepare(dispatch)[0] is False
