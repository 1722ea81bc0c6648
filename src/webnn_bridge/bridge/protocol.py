"""Wire format between the shim and the host (sans-I/O: bytes in, bytes out, no sockets).

A message is one websocket frame:
- text frame: a JSON object (control only, never tensor data);
- binary frame: ``u32 little-endian header length | header JSON (UTF-8) | payload bytes``.
  ``header["parts"]`` lists ``[offset, length]`` slices of the payload when a message carries
  several buffers (a graph's constants).
- a raw payload: a message whose header has ``"raw": n`` carries no payload of its own; the next
  message is its payload, a binary frame of exactly ``n`` bytes with no header. Big tensor writes
  and reads travel so: neither side copies the tensor into a combined frame (the page's
  WebSocket.send copies it once, the page gets a read's frame as its ArrayBuffer).
- a batch: ``{"t": "batch", "text": [0|1, ...]}`` with one payload part per message (1: a text
  message as UTF-8), in order. The shim sends the small messages it issues together so; the host
  sends the small replies to one of the page's frames so (``coalesce``). An announced raw payload
  never rides in a batch.

JSON cannot carry every MLNumber, so values are tagged: ``{"$bigint": "123"}``,
``{"$number": "NaN" | "Infinity" | "-Infinity"}``; operands are ``{"$operand": id}`` inside a
graph.
"""

from __future__ import annotations

import json
import math
import struct
import weakref
from collections.abc import Callable
from typing import Any

Buffer = bytes | bytearray | memoryview  # or anything else with the buffer protocol (numpy arrays)

PROTOCOL_VERSION = 1
MAX_HEADER = 16 * 1024 * 1024  # JSON part of any frame (tensor bytes travel as payload)
RAW_MIN_BYTES = 64 * 1024  # a payload this big travels as a raw frame (smaller ones ride in their message's)
# where a host that serves a page runtime (serve --page-local, backends/page.py) serves its files
PAGE_RUNTIME_PATH = "/webnn/page-runtime/"
MAX_DEPTH = 32  # nesting of JSON arrays/objects; the deepest real message is far below


class ProtocolError(Exception):
    """A frame that is not a well-formed message."""


def encode(header: dict, payload: Buffer | None = None) -> str | bytes:
    text = json.dumps(header, separators=(",", ":"), allow_nan=False)
    if payload is None:
        return text
    head = text.encode()
    body = memoryview(payload).cast("B")
    # one copy of the payload into the frame (no intermediate bytes objects)
    frame = bytearray(4 + len(head) + len(body))
    struct.pack_into("<I", frame, 0, len(head))
    frame[4 : 4 + len(head)] = head
    memoryview(frame)[4 + len(head) :] = body  # (bytearray slice assignment would copy twice)
    return frame


FRAGMENT_BYTES = 1 << 20  # a big binary message leaves in fragments of this size (see Raw)
IN_FLIGHT_BYTES = 2 * FRAGMENT_BYTES  # what sending one costs beyond its buffers: a fragment's frame and socket buffer


class Raw:
    """A binary message sent straight from its buffers, never joined into one frame: ``head`` (a
    message's length prefix and header; empty for a raw payload, which follows the message that
    announces it) then ``data``. The server sends it in fragments of at most FRAGMENT_BYTES with
    flow control (one websocket message: a page receives it whole), so sending it costs
    IN_FLIGHT_BYTES, not a copy of it. ``release``: what to do once it is sent or dropped (give
    back the budget those bytes were charged to)."""

    __slots__ = ("data", "head", "_release", "__weakref__")

    def __init__(self, data: Buffer, head: bytes = b"", release: Callable[[], None] | None = None):
        self.data = memoryview(data).cast("B")
        self.head = head
        self._release = weakref.finalize(self, release) if release is not None else None

    @property
    def nbytes(self) -> int:
        return len(self.head) + len(self.data)

    def fragments(self, size: int = FRAGMENT_BYTES):
        """The message's bytes in pieces of at most ``size`` (views, not copies; at least one)."""
        if self.head or not self.data:
            yield self.head
        for i in range(0, len(self.data), size):
            yield self.data[i:i + size]

    def __bytes__(self) -> bytes:
        return b"".join((self.head, self.data))

    def sent(self) -> None:
        if self._release is not None:
            self._release()


def encode_raw(header: dict, payload: Buffer, release: Callable[[], None] | None = None) -> list:
    """A message and its payload as two frames (the payload not copied here)."""
    body = memoryview(payload).cast("B")
    return [encode({**header, "raw": len(body)}), Raw(body, release=release)]


def encode_unjoined(header: dict, payload: Buffer, release: Callable[[], None] | None = None) -> Raw:
    """``encode(header, payload)`` as a Raw: the same message, its payload not copied into a frame."""
    head = json.dumps(header, separators=(",", ":"), allow_nan=False).encode()
    return Raw(payload, struct.pack("<I", len(head)) + head, release)


def raw_length(header: dict) -> int | None:
    """The byte length of the raw payload a message announces, None if it announces none."""
    n = header.get("raw")
    if n is None:
        return None
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise ProtocolError("'raw' must be a byte length")
    return n


class Unkept:
    """A binary message the server received in place of an announced raw payload without keeping
    its bytes: ``error``, why it was refused (over the page's budget), or else longer than announced."""

    __slots__ = ("size", "error")

    def __init__(self, size: int, error: Exception | None = None):
        self.size = size
        self.error = error


def raw_payload(frame, n: int) -> memoryview:
    """The announced raw payload: a binary frame of exactly ``n`` bytes."""
    if isinstance(frame, str):
        raise ProtocolError("the announced raw payload is a text frame")
    if isinstance(frame, Unkept):
        raise ProtocolError(f"the announced raw payload has {frame.size} bytes, not {n}")
    mv = memoryview(frame).cast("B")
    if len(mv) != n:
        raise ProtocolError(f"the announced raw payload has {len(mv)} bytes, not {n}")
    return mv


def encode_parts(header: dict, parts: list[bytes]) -> bytes:
    offsets, pos = [], 0
    for p in parts:
        offsets.append([pos, len(p)])
        pos += len(p)
    return encode({**header, "parts": offsets}, b"".join(parts))


def _finite(text: str) -> float:
    v = float(text)
    if not math.isfinite(v):
        raise ProtocolError("numbers must be finite (use {\"$number\": ...})")
    return v


def _no_constant(name: str):
    raise ProtocolError(f"{name} is not JSON (use {{\"$number\": ...}})")


def _check_depth(value: Any) -> None:
    """Iteratively (no recursion a page could exhaust) bound the nesting of a parsed message."""
    level = [value] if isinstance(value, (dict, list)) else []
    depth = 0
    while level:
        depth += 1
        if depth > MAX_DEPTH:
            raise ProtocolError(f"message nests deeper than {MAX_DEPTH} levels")
        children = []
        for v in level:
            items = v.values() if v.__class__ is dict else v
            children += [x for x in items if x.__class__ is dict or x.__class__ is list]
        level = children


_DECODER = json.JSONDecoder(parse_float=_finite, parse_constant=_no_constant)


def parse_json(text: str | bytes, what: str = "message") -> Any:
    """Strict, bounded JSON (UTF-8): finite numbers only, at most MAX_HEADER bytes and MAX_DEPTH
    levels."""
    if len(text) > MAX_HEADER:
        raise ProtocolError(f"{what} is longer than {MAX_HEADER} bytes")
    try:
        value = _DECODER.decode(text if isinstance(text, str) else text.decode("utf-8"))
    except RecursionError:
        raise ProtocolError(f"{what} nests too deeply") from None
    except (ValueError, UnicodeDecodeError) as e:
        raise ProtocolError(f"{what} is not JSON: {e}") from None
    # nesting deeper than MAX_DEPTH needs more opening brackets than that (a cheap bound first)
    opening = text.count("[") + text.count("{") if isinstance(text, str) else text.count(b"[") + text.count(b"{")
    if opening > MAX_DEPTH:
        _check_depth(value)
    return value


def decode(frame: str | bytes | bytearray | memoryview) -> tuple[dict, memoryview | None]:
    """Parse one frame into (header, payload). Raises ProtocolError on anything malformed."""
    if isinstance(frame, Raw):  # a message the host sends, read back (tests)
        frame = bytes(frame)
    if isinstance(frame, str):
        header = parse_json(frame, "text frame")
        payload = None
    else:
        mv = memoryview(frame)
        if len(mv) < 4:
            raise ProtocolError("binary frame shorter than its length prefix")
        (n,) = struct.unpack_from("<I", mv, 0)
        if n > min(MAX_HEADER, len(mv) - 4):
            raise ProtocolError("binary frame header length exceeds the frame")
        header = parse_json(bytes(mv[4 : 4 + n]), "binary frame header")
        payload = mv[4 + n :]
    if not isinstance(header, dict) or not isinstance(header.get("t"), str):
        raise ProtocolError("message must be a JSON object with a string 't' field")
    return header, payload


def request_id(header: dict) -> int | None:
    """The id a reply echoes: a safe integer, else None (a reply must always be encodable)."""
    rid = header.get("id")
    if isinstance(rid, int) and not isinstance(rid, bool) and abs(rid) <= 2**53:
        return rid
    return None


def unbatch(frame: str | bytes) -> list[str | bytes | memoryview]:
    """The messages of a frame: a ``batch`` frame (header ``{"t": "batch", "text": [0|1, ...]}``,
    one payload part per message, 1 = a text message as UTF-8) carries several small messages
    in order; any other frame is one message. A malformed batch is returned whole, for the
    session to answer with an error."""
    if isinstance(frame, str) or len(frame) < 4:
        return [frame]
    try:
        header, payload = decode(frame)
        if header["t"] != "batch":
            return [frame]
        text = header.get("text")
        if not isinstance(text, list) or len(text) != len(header.get("parts") or ()):
            raise ProtocolError("batch parts do not match its text flags")
        return [bytes(part(header, payload, i)).decode() if flag else part(header, payload, i)
                for i, flag in enumerate(text)]
    except (ProtocolError, UnicodeDecodeError):
        return [frame]


REPLY_BATCH_BYTES = 64 * 1024  # replies up to this size (together) leave as one batch frame


def encode_batch(messages: list) -> bytes:
    """Several messages (text or binary) as one ``batch`` frame, in order (what unbatch reads)."""
    parts = [m.encode() if isinstance(m, str) else bytes(m) for m in messages]
    return encode_parts({"t": "batch", "text": [int(isinstance(m, str)) for m in messages]}, parts)


def coalesce(frames: list) -> list:
    """The host's replies to one frame of the page's, with runs of small ones joined into
    ``batch`` frames (the form unbatch reads): each frame the page gets wakes its browser's network
    process and its page, so two small replies cost one wake-up, not two. A payload announced by
    the message before it (a ``Raw`` without head) follows that message alone, as ever; big
    messages go alone. Small ``Raw`` messages are copied into the batch and released at once."""
    out: list = []
    run: list = []
    size = 0

    def close_run() -> None:
        nonlocal run, size
        if len(run) == 1:
            out.append(run[0])
        elif run:
            out.append(encode_batch(run))
            for f in run:
                if isinstance(f, Raw):
                    f.sent()
        run, size = [], 0

    for i, f in enumerate(frames):
        n = f.nbytes if isinstance(f, Raw) else len(f)
        announces = i + 1 < len(frames) and isinstance(frames[i + 1], Raw) and not frames[i + 1].head
        if announces or (isinstance(f, Raw) and not f.head) or n > REPLY_BATCH_BYTES:
            close_run()
            out.append(f)
            continue
        if size + n > REPLY_BATCH_BYTES:
            close_run()
        run.append(f)
        size += n
    close_run()
    return out


def part(header: dict, payload: memoryview | None, index: int) -> memoryview:
    """The index-th buffer of a multi-part payload (bounds-checked)."""
    if payload is None:
        raise ProtocolError("message has no binary payload")
    parts = header.get("parts")
    if not isinstance(parts, list) or not isinstance(index, int) or not 0 <= index < len(parts):
        raise ProtocolError(f"no payload part {index}")
    off, ln = parts[index]
    if not (isinstance(off, int) and isinstance(ln, int) and 0 <= off and 0 <= ln and off + ln <= len(payload)):
        raise ProtocolError(f"payload part {index} is out of bounds")
    return payload[off : off + ln]


# --------------------------------------------------------------------------- tagged values


def decode_value(v: Any, operand: Callable[[dict], Any] | None = None) -> Any:
    """Undo the JSON tagging of argument values; ``operand`` resolves $operand tags."""
    if isinstance(v, list):
        return [decode_value(x, operand) for x in v]
    if isinstance(v, dict):
        if len(v) == 1:
            (k, x), = v.items()
            if k == "$bigint":
                try:
                    return int(x)
                except (TypeError, ValueError):
                    raise ProtocolError("bad $bigint") from None
            if k == "$number":
                if x not in ("NaN", "Infinity", "-Infinity"):
                    raise ProtocolError("bad $number")
                return float(x.replace("Infinity", "inf"))
            if k == "$operand":
                if operand is None:
                    raise ProtocolError(f"{k} is not allowed here")
                return operand(v)
        return {str(k): decode_value(x, operand) for k, x in v.items()}
    return v


def encode_value(v: Any) -> Any:
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return v
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        if math.isnan(v):
            return {"$number": "NaN"}
        if math.isinf(v):
            return {"$number": "Infinity" if v > 0 else "-Infinity"}
        return v
    if isinstance(v, (list, tuple)):
        return [encode_value(x) for x in v]
    if isinstance(v, dict):
        return {k: encode_value(x) for k, x in v.items()}
    raise TypeError(f"cannot encode {type(v)}")
