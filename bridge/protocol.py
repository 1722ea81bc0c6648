"""Wire format between the shim and the host (sans-I/O: bytes in, bytes out, no sockets).

A message is one websocket frame:
- text frame: a JSON object (control only, never tensor data);
- binary frame: ``u32 little-endian header length | header JSON (UTF-8) | payload bytes``.
  ``header["parts"]`` lists ``[offset, length]`` slices of the payload when a message carries
  several buffers (a graph's constants).

JSON cannot carry every MLNumber, so values are tagged: ``{"$bigint": "123"}``,
``{"$number": "NaN" | "Infinity" | "-Infinity"}``; operands are ``{"$operand": id}`` inside a
graph.
"""

from __future__ import annotations

import json
import math
import struct
from collections.abc import Callable
from typing import Any

PROTOCOL_VERSION = 1
MAX_HEADER = 64 * 1024 * 1024


class ProtocolError(Exception):
    """A frame that is not a well-formed message."""


def encode(header: dict, payload: bytes | bytearray | memoryview | None = None) -> str | bytes:
    text = json.dumps(header, separators=(",", ":"), allow_nan=False)
    if payload is None:
        return text
    head = text.encode()
    return struct.pack("<I", len(head)) + head + bytes(payload)


def encode_parts(header: dict, parts: list[bytes]) -> bytes:
    offsets, pos = [], 0
    for p in parts:
        offsets.append([pos, len(p)])
        pos += len(p)
    return encode({**header, "parts": offsets}, b"".join(parts))


def decode(frame: str | bytes | bytearray | memoryview) -> tuple[dict, memoryview | None]:
    """Parse one frame into (header, payload). Raises ProtocolError on anything malformed."""
    if isinstance(frame, str):
        try:
            header = json.loads(frame)
        except ValueError as e:
            raise ProtocolError(f"text frame is not JSON: {e}") from None
        payload = None
    else:
        mv = memoryview(frame)
        if len(mv) < 4:
            raise ProtocolError("binary frame shorter than its length prefix")
        (n,) = struct.unpack_from("<I", mv, 0)
        if n > min(MAX_HEADER, len(mv) - 4):
            raise ProtocolError("binary frame header length exceeds the frame")
        try:
            header = json.loads(bytes(mv[4 : 4 + n]).decode())
        except (ValueError, UnicodeDecodeError) as e:
            raise ProtocolError(f"binary frame header is not JSON: {e}") from None
        payload = mv[4 + n :]
    if not isinstance(header, dict) or not isinstance(header.get("t"), str):
        raise ProtocolError("message must be a JSON object with a string 't' field")
    return header, payload


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
