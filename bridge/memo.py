"""Build memo: a page that builds a graph the host has already validated gets it without a replay.

Validating a build message (replaying every builder call) is a pure function of the message and
of the context it targets. The memo keeps, for messages that passed, the validated result (graph
IR, placement, compile-cache digest), keyed by
  - a canonical form of the message: the page's object ids renumbered in order of appearance
    (they differ between two builds of the same graph), everything else verbatim, plus the
    bytes of each uploaded constant (or its SHA-256, which the host checks against the bytes
    whenever they are uploaded): so a hit is the same message up to a renaming of ids;
  - the context: the page's origin (the memo is probe-able by timing), the devices, the limits
    profile and the options that decided them.
Messages that reference host objects other than their own operands (constant MLTensors) are
never memoized.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from webnn_bridge.ops.graph import GraphIR


@dataclass
class Validated:
    ir: GraphIR
    placement: Any
    digest: str
    size: int


class BuildMemo:
    def __init__(self, max_entries: int = 32, max_bytes: int = 256 << 20):
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self._entries: OrderedDict[str, Validated] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str | None) -> Validated | None:
        if key is None:
            return None
        with self._lock:
            v = self._entries.get(key)
            if v is not None:
                self._entries.move_to_end(key)
            return v

    def put(self, key: str | None, value: Validated) -> None:
        if key is None or value.size > self.max_bytes:
            return
        with self._lock:
            self._entries[key] = value
            while len(self._entries) > self.max_entries or sum(v.size for v in self._entries.values()) > self.max_bytes:
                self._entries.popitem(last=False)


class ConstantStore:
    """Constant bytes pages uploaded, by (origin, SHA-256), verified on upload: a page that builds
    again (a rebuild, a reload) sends the digests and uploads only what the host lacks. Bounded
    LRU by bytes. Partitioned by origin: a page never learns what another origin uploaded."""

    def __init__(self, max_bytes: int = 256 << 20):
        self.max_bytes = max_bytes
        self._entries: OrderedDict[tuple[str, str], memoryview] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, origin: str, sha256: str) -> memoryview | None:
        with self._lock:
            v = self._entries.get((origin, sha256))
            if v is not None:
                self._entries.move_to_end((origin, sha256))
            return v

    def put(self, origin: str, sha256: str, data: memoryview) -> None:
        if len(data) > self.max_bytes:
            return
        with self._lock:
            old = self._entries.pop((origin, sha256), None)
            self._bytes += len(data) - (len(old) if old is not None else 0)
            self._entries[(origin, sha256)] = data
            while self._bytes > self.max_bytes:
                self._bytes -= len(self._entries.popitem(last=False)[1])


def verified_part(header: dict, payload, item: dict) -> memoryview:
    """An uploaded constant's bytes; when the page names their SHA-256, checked against it."""
    from webnn_bridge.ops.core import WebNNTypeError

    from . import protocol

    raw = protocol.part(header, payload, item["part"])
    sha = item.get("sha256")
    if sha is not None and hashlib.sha256(raw).hexdigest() != sha:
        raise WebNNTypeError("a constant's bytes do not match their digest")
    return raw


def build_key(partition: str, context_key: str, header: dict, payload) -> str | None:
    """The memo key of a build message, or None when it must not be memoized."""
    ids: dict[Any, int] = {}

    def op(i) -> int:
        if not isinstance(i, int) or isinstance(i, bool):
            raise TypeError("operand ids are integers")
        return ids.setdefault(i, len(ids))

    def args(v):
        if isinstance(v, list):
            return [args(x) for x in v]
        if isinstance(v, dict):
            if set(v) == {"$operand"}:
                return {"$operand": op(v["$operand"])}
            return {k: args(x) for k, x in v.items()}
        return v

    from . import protocol

    h = hashlib.blake2b(digest_size=32)
    try:
        constants = []
        for c in header.get("constants", []):
            if "tensor" in c:
                return None
            if "sha256" in c:  # named by digest: uploaded or held, the same constant
                c = {k: v for k, v in c.items() if k != "part"}
            elif "part" in c:
                h.update(protocol.part(header, payload, c["part"]))
            constants.append({**c, "operand": op(c["operand"])})
        canon = {
            "inputs": [{**i, "operand": op(i["operand"])} for i in header.get("inputs", [])],
            "constants": constants,
            "nodes": [{**n, "args": args(n["args"]), "outputs": [op(o) for o in n["outputs"]]}
                      for n in header.get("nodes", [])],
            "outputs": {k: op(v) for k, v in header["outputs"].items()},
            "rest": {k: v for k, v in header.items()
                     if k not in ("t", "id", "ctx", "graph", "inputs", "constants", "nodes", "outputs", "parts")},
        }
        text = json.dumps([partition, context_key, canon], sort_keys=True, separators=(",", ":"))
    except (TypeError, KeyError, AttributeError, ValueError, protocol.ProtocolError):
        return None  # malformed: the replay reports it
    h.update(text.encode())
    return h.hexdigest()
