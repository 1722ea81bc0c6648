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

With a directory (the compile cache's: ``--cache-dir`` / ``--no-cache`` decide it) the memo is
also kept on disk, so that a restarted host skips the replay too: one file per message, named by
its key and the host's fingerprint (this code, the rules, the devices and their capabilities:
bridge/memo_disk.py), checked against its digest when read (a damaged, truncated or foreign file
is deleted, and the message replayed). A file holds the graph without its constants' bytes: it
names them by their SHA-256, read from the ConstantStore only when something needs them.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from webnn_bridge.backends.cache import (
    DiskBacked,
    DiskWriter,
    checked,
    memory_pressure,
    read_checked,
)
from webnn_bridge.ops.graph import GraphIR

log = logging.getLogger("webnn_bridge.memo")
SHA256_HEX = re.compile(r"[0-9a-f]{64}")
# a constant's key: the page's fast hash of its bytes (the shim's constantKey), 128 bits in hex
CONSTANT_KEY_HEX = re.compile(r"[0-9a-f]{32}")
MAX_KEYS = 16384  # keys remembered per origin (the least recently used go first)
KEYS_LISTED = 4096  # keys a createContext reply lists at most
KEYS_FILE = "keys"  # in an origin's folder: {key: SHA-256} as JSON


@dataclass
class Validated:
    ir: GraphIR
    placement: Any
    digest: str
    size: int


MEMO_MAGIC = b"webnn-bridge build memo 2\n"
# how old a disk entry may be for a restarted host to prepare it when its kind of context opens
RECENT_S = 7 * 24 * 3600.0


def memo_group(partition: str, context_key: str) -> str:
    """The group of a build's disk entry: its page's origin (the partition) and kind of context
    (MLContext.memo_key). A context of the group that opens may have its group's recent builds
    prepared before its page asks (BuildMemo.recent); the group of another origin is never read."""
    return hashlib.blake2b(json.dumps([partition, context_key]).encode(), digest_size=10).hexdigest()


# what the build memo and the constant store each keep in memory once the host has no page (as the
# compile cache's idle_bytes): a page that comes back after a pause finds the rest on disk
IDLE_BYTES = 16 << 20


class BuildMemo(DiskBacked):
    """Validated builds by build_key, in memory (bounded LRU) and, with a ``directory``, on disk
    (``put`` takes the bytes to write as a function, run off the build's path; ``recall`` reads
    them back for a key the memory lacks). ``fingerprint()``: what besides a message decides its
    validation in this host (bridge/memo_disk.py host_fingerprint): an entry of another code, rules
    or device set is never read."""

    def __init__(self, max_entries: int = 32, max_bytes: int = 256 << 20, directory: str | Path | None = None,
                 fingerprint: Callable[[], str] = lambda: "", max_disk_bytes: int = 64 << 20,
                 pressure: Callable[[], bool] = memory_pressure, idle_bytes: int = IDLE_BYTES):
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self.idle_bytes = idle_bytes  # what the memory keeps once the host has no page (trim)
        self.pressure = pressure  # the machine runs short of memory: the memory keeps nothing
        self.directory = Path(directory) if directory is not None else None
        self.fingerprint = fingerprint
        self._entries: OrderedDict[str, Validated] = OrderedDict()
        self._lock = threading.Lock()
        self._writer = DiskWriter("webnn-memo", lambda: self.directory.glob("*"), max_disk_bytes) if directory else None

    def get(self, key: str | None) -> Validated | None:
        if key is None:
            return None
        with self._lock:
            v = self._entries.get(key)
            if v is not None:
                self._entries.move_to_end(key)
            return v

    def put(self, key: str | None, value: Validated, encode: Callable[[], bytes] | None = None,
            group: str | None = None) -> None:
        """``encode``: the entry's bytes for the disk (None, or raising: kept in memory only).
        ``group``: memo_group of the build's context (its disk entry is listed by ``recent``)."""
        if key is None or value.size > self.max_bytes:
            return
        pressed = self.pressure()
        with self._lock:
            self._entries[key] = value
            while len(self._entries) > self.max_entries or sum(v.size for v in self._entries.values()) > self.max_bytes:
                self._entries.popitem(last=False)
            if pressed:
                self._entries.clear()
        if self._writer is not None and encode is not None:
            head = self._head(key)
            self._writer.put(self._path(key, group), lambda: checked(MEMO_MAGIC, head + encode()))

    def trim(self) -> None:
        """The host has no page: the memory keeps at most ``idle_bytes`` of the most recently used
        builds (none under memory pressure); the disk keeps the rest for a reload or a restart."""
        limit = 0 if self.pressure() else self.idle_bytes
        with self._lock:
            while self._entries and sum(v.size for v in self._entries.values()) > limit:
                self._entries.popitem(last=False)

    def held(self) -> list:
        """The constant arrays the memory holds (the host's memory accounting)."""
        with self._lock:
            entries = list(self._entries.values())
        out = []
        for v in entries:
            constants = v.ir.constants
            if isinstance(constants, dict):
                out.extend(constants.values())
            else:  # memo_disk.LazyConstants: only what was loaded
                out.extend(constants.loaded())
        return out

    def recall(self, key: str | None, group: str | None = None) -> bytes | None:
        """The bytes ``put`` wrote to disk for ``key`` (by a host with the same fingerprint), None
        when there are none, or when they are damaged (then the file is deleted)."""
        if key is None or self._writer is None:
            return None
        path = self._path(key, group)
        try:
            body = read_checked(path, MEMO_MAGIC)
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as e:
            log.warning("ignoring a damaged build memo entry: %s", e)
            self._writer.unlink(path)
            return None
        head = self._head(key)
        if not body.startswith(head):
            log.warning("ignoring a build memo entry of another host")
            self._writer.unlink(path)
            return None
        self._writer.used(path)
        return body[len(head):]

    def forget(self, key: str, group: str | None = None) -> None:
        """A disk entry that ``recall`` returned but its reader refused."""
        if self._writer is not None:
            self._writer.unlink(self._path(key, group))

    def recent(self, group: str, n: int, max_age_s: float = RECENT_S) -> list[tuple[str, bytes]]:
        """(key, bytes as ``recall`` returns them) of the ``n`` disk entries of ``group`` built or
        recalled most recently, within ``max_age_s``, newest first: what a restarted host may
        prepare when a context of that group opens. Damaged or foreign entries are left out."""
        if self._writer is None or n <= 0:
            return []
        prefix, now, stamped = group + "-", time.time(), []
        for name in [x for x in self._writer.names(self.directory) if x.startswith(prefix)]:
            try:
                mtime = os.stat(self.directory / name).st_mtime
            except OSError:
                continue
            if now - mtime <= max_age_s:
                stamped.append((mtime, name))
        out, fingerprint = [], self.fingerprint().encode() + b" "
        for _, name in sorted(stamped, reverse=True)[:n]:
            try:
                body = read_checked(self.directory / name, MEMO_MAGIC)
            except (OSError, ValueError):
                continue
            head, _, rest = body.partition(b"\n")
            if head.startswith(fingerprint):
                out.append((head[len(fingerprint):].decode("ascii", "replace"), rest))
        return out

    def _head(self, key: str) -> bytes:
        return f"{self.fingerprint()} {key}\n".encode()

    def _path(self, key: str, group: str | None = None) -> Path:
        name = hashlib.blake2b(self._head(key), digest_size=32).hexdigest()
        return self.directory / (f"{group}-{name}" if group else name)


class ConstantStore(DiskBacked):
    """Constant bytes pages uploaded, by (origin, SHA-256), verified on upload: a page that builds
    again (a rebuild, a reload) sends the digests and uploads only what the host lacks. Bounded
    LRU by bytes. Partitioned by origin: a page never learns what another origin uploaded.

    Each origin's pages also name their constants by a key (the shim's constantKey, a fast hash
    that a page computes in a few milliseconds where SHA-256 and the copy it needs take tens): the
    store remembers which digest each key named (``learn``, as a page of the origin said; bounded
    by MAX_KEYS), lists the keys of what it holds to the origin's new contexts (``held_keys``) and
    names by ``sha_for`` the constants a build names by key. A page that claims a wrong key only
    misleads its own origin's pages, which could send any bytes anyway.

    With a ``directory`` (the compile cache's, so ``--cache-dir`` / ``--no-cache`` decide it) the
    constants are also kept on disk, one file per digest in a folder per origin, written off the
    build's critical path, checked against their digest when read (a tampered or truncated file is
    deleted, never served) and bounded by ``max_disk_bytes`` (least recently used first out): a
    restarted host still holds what pages uploaded before."""

    def __init__(self, max_bytes: int = 256 << 20, directory: str | Path | None = None,
                 max_disk_bytes: int = 1 << 30, pressure: Callable[[], bool] = memory_pressure,
                 idle_bytes: int = IDLE_BYTES):
        self.max_bytes = max_bytes
        self.idle_bytes = idle_bytes  # what the memory keeps once the host has no page (trim)
        self.pressure = pressure  # the machine runs short of memory: the memory keeps nothing
        self.directory = Path(directory) if directory is not None else None
        self.max_disk_bytes = max_disk_bytes
        self._entries: OrderedDict[tuple[str, str], memoryview] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self._folders: dict[str, Path] = {}  # each origin's folder
        self._writer = (DiskWriter("webnn-constants", lambda: self.directory.glob("*/*"), max_disk_bytes)
                        if directory is not None else None)
        self._keys: dict[str, OrderedDict[str, str]] = {}  # origin -> {key: SHA-256}, most recent last
        self._keys_queued: set[str] = set()  # origins whose keys file is to be written

    def get(self, origin: str, sha256: str) -> memoryview | None:
        with self._lock:
            v = self._entries.get((origin, sha256))
            if v is not None:
                self._entries.move_to_end((origin, sha256))
                return v
        v = self._load(origin, sha256)
        if v is not None:
            self._remember(origin, sha256, v)
        return v

    def trim(self) -> None:
        """The host has no page: the memory keeps at most ``idle_bytes`` of the most recently used
        constants (none under memory pressure); the disk, where there is one, keeps the rest."""
        limit = 0 if self.pressure() else self.idle_bytes
        with self._lock:
            while self._entries and self._bytes > limit:
                self._bytes -= len(self._entries.popitem(last=False)[1])

    def held(self) -> list:
        """The buffers the memory holds (the host's memory accounting)."""
        with self._lock:
            return list(self._entries.values())

    def has(self, origin: str, sha256: str) -> bool:
        """Whether this constant is held, in memory or on disk (read and checked only by ``get``)."""
        with self._lock:
            if (origin, sha256) in self._entries:
                return True
        folder = self._folder(origin, sha256)
        return folder is not None and sha256 in self._writer.names(folder)

    def holds_any(self, origin: str) -> bool:
        """Whether any constant of this origin is held, in memory or on disk."""
        with self._lock:
            if any(o == origin for o, _ in self._entries):
                return True
        folder = self._origin_folder(origin)
        return folder is not None and any(SHA256_HEX.fullmatch(n) for n in self._writer.names(folder))

    def put(self, origin: str, sha256: str, data: memoryview) -> None:
        """``data``: bytes whose SHA-256 the caller verified."""
        if len(data) > self.max_bytes:
            return
        self._remember(origin, sha256, data)
        folder = self._folder(origin, sha256)
        if folder is not None:
            names = self._writer.names(folder)
            if sha256 not in names:
                names.add(sha256)  # written soon; a second put of it is not queued again
                self._writer.put(folder / sha256, data)

    def _remember(self, origin: str, sha256: str, data: memoryview) -> None:
        pressed = self.pressure()
        with self._lock:
            old = self._entries.pop((origin, sha256), None)
            self._bytes += len(data) - (len(old) if old is not None else 0)
            self._entries[(origin, sha256)] = data
            while self._bytes > self.max_bytes or (pressed and self._entries):
                self._bytes -= len(self._entries.popitem(last=False)[1])

    # ------------------------------------------------------------------ keys
    def learn(self, origin: str, key, sha256) -> None:
        """A page of this origin named these bytes (``sha256``) by ``key``; malformed ones are ignored."""
        if not (isinstance(key, str) and CONSTANT_KEY_HEX.fullmatch(key) and isinstance(sha256, str)
                and SHA256_HEX.fullmatch(sha256)):
            return
        keys = self._keys_of(origin)
        with self._lock:
            if keys.get(key) == sha256:
                keys.move_to_end(key)
                return
            keys[key] = sha256
            keys.move_to_end(key)
            while len(keys) > MAX_KEYS:
                keys.popitem(last=False)
        self._save_keys(origin)

    def sha_for(self, origin: str, key: str) -> str | None:
        """The digest ``key`` names for this origin, None where it names nothing known."""
        keys = self._keys_of(origin)
        with self._lock:
            return keys.get(key)

    def held_keys(self, origin: str, limit: int = KEYS_LISTED) -> list[str]:
        """The keys of this origin's constants the store holds (in memory or on disk), the most
        recently learnt first."""
        keys = self._keys_of(origin)
        with self._lock:
            pairs = list(reversed(keys.items()))
        return [k for k, sha in pairs if self.has(origin, sha)][:limit]

    def _keys_of(self, origin: str) -> OrderedDict[str, str]:
        keys = self._keys.get(origin)
        if keys is None:
            keys = OrderedDict()
            folder = self._origin_folder(origin)
            if folder is not None and KEYS_FILE in self._writer.names(folder):
                try:
                    saved = json.loads((folder / KEYS_FILE).read_bytes())
                    for k, sha in list(saved.items())[-MAX_KEYS:]:
                        if isinstance(k, str) and CONSTANT_KEY_HEX.fullmatch(k) and isinstance(sha, str) \
                                and SHA256_HEX.fullmatch(sha):
                            keys[k] = sha
                except (OSError, ValueError, AttributeError):
                    log.warning("ignoring a damaged constant keys file")
            with self._lock:
                keys = self._keys.setdefault(origin, keys)
        return keys

    def _save_keys(self, origin: str) -> None:
        """The origin's keys, written off the caller's path (once per batch of changes)."""
        folder = self._origin_folder(origin)
        if folder is None:
            return
        with self._lock:
            if origin in self._keys_queued:
                return
            self._keys_queued.add(origin)

        def encode() -> bytes:
            with self._lock:
                self._keys_queued.discard(origin)
                return json.dumps(dict(self._keys[origin]), separators=(",", ":")).encode()

        self._writer.put(folder / KEYS_FILE, encode)

    # ------------------------------------------------------------------ disk
    def _folder(self, origin: str, sha256: str) -> Path | None:
        """The origin's folder (named by a digest: no page text in paths), None without a
        directory or for a malformed digest."""
        if not isinstance(sha256, str) or not SHA256_HEX.fullmatch(sha256):
            return None
        return self._origin_folder(origin)

    def _origin_folder(self, origin: str) -> Path | None:
        if self.directory is None:
            return None
        folder = self._folders.get(origin)
        if folder is None:
            folder = self._folders[origin] = self.directory / hashlib.blake2b(origin.encode(), digest_size=16).hexdigest()
        return folder

    def _load(self, origin: str, sha256: str) -> memoryview | None:
        folder = self._folder(origin, sha256)
        if folder is None or sha256 not in self._writer.names(folder):
            return None
        path = folder / sha256
        try:
            raw = path.read_bytes()
        except OSError:
            return None
        if hashlib.sha256(raw).hexdigest() != sha256:
            log.warning("ignoring a stored constant whose bytes do not match their digest")
            self._writer.unlink(path)
            return None
        self._writer.used(path)
        return memoryview(raw)


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
    """The memo key of a build message, or None when it must not be memoized. The message is
    taken as it is (the shim numbers a graph's operands from 0, in creation order, so identical
    graphs send identical messages whatever their builders' object ids): a key matches only a
    message that would replay to the same graph. A constant named by its digest and the same
    constant sent with that digest are one."""
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
            constants.append(c)
        rest = {k: v for k, v in header.items() if k not in ("t", "id", "ctx", "graph", "constants", "parts", "release")}
        text = json.dumps([partition, context_key, constants, rest], separators=(",", ":"), allow_nan=False)
    except (TypeError, KeyError, AttributeError, ValueError, protocol.ProtocolError):
        return None  # malformed: the replay reports it
    h.update(text.encode())
    return h.hexdigest()
