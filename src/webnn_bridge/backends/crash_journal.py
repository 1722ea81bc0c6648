"""Crash journal: a graph that crashed a runtime is not given to that runtime again.

A native runtime (ONNX Runtime, OpenVINO, PyTorch, TensorRT) that segfaults or aborts while it
compiles a page's graph takes the whole host process with it; no Python ``except`` sees it. The
host then restarts (systemd, Kubernetes, a shell loop: see the README), and without a memory of
what happened the same page would build the same graph and crash it again.

So every compile and every run is journaled while it goes on: each thread of the host owns a slot
of a small table that this process maps from a file in its own folder (``mmap``, so that noting
the graph's digest and its devices is a few memory stores, cheap enough for every dispatch; the
kernel keeps the file's pages when the process dies). A process that dies leaves the slots of
whatever its threads were compiling or running behind. The next
host to open the journal (this one after a restart, or another host sharing the cache folder)
finds folders whose owner is gone (each process holds an ``flock`` on its folder's lock file for
as long as it lives; the kernel releases it however the process ends) and turns what was in flight
into quarantine records:

- a graph that was the only one in flight is quarantined at once for those devices;
- graphs in flight together (several pages building at once) are suspects: only the one that is
  in flight at a second crash is quarantined, so a crash does not exile the innocent graphs
  beside it, and a graph that really crashes the runtime gets at most two tries.

A quarantined (graph, device) is left out of that graph's placement (policy.engine.decide_build's
``avoid``): the graph goes to another device that can run it, or build() fails with an
OperationError that says why. Records are kept per runtime version (the backend's cache token),
so upgrading a runtime gives its graphs another chance; deleting ``quarantine.json`` clears them.

A crash while running a graph quarantines every device of its placement (which segment of a
partitioned graph crashed is not known). The host still goes down with the crash each time: the
journal keeps the same graph from doing it again. Journaling needs a folder (the compile
cache's): ``serve --no-cache`` keeps none.

Exact graphs are not enough: a page that retries with another size, other weights or one more
node brings a new digest and the same crash. So each note also carries what MLContext tells the
journal of the graph (label()):

- its **operator signature** (operator_signature()): the sorted set of ``op:dataType`` of its
  nodes, the data type being that of each node's first operand, what the runtime's kernel
  computes in. Shapes, attributes, constants and wiring are left out: graphs with the same
  signature ask the runtime for the same kernels. It is quarantined by the rules above (at once
  when one signature was in flight), per (device, runtime version): a different graph of that
  signature goes to another device, or fails with an OperationError where there is none;
- the **origin** of its page (a hash of it; only pages have one): each crash counts against the
  origins that had work in flight. Once an origin has ORIGIN_CRASH_CAP crashes on runtime versions
  still installed, its graphs, whatever their signature, are built only on devices whose crash
  cannot take the host down (SAFE_BACKENDS: the numpy reference), or refused where the context
  has none (an OperationError). Other origins keep every device. One page's distinct graphs thus
  crash the host at most ORIGIN_CRASH_CAP times, fewer than a supervisor's restart limit
  (serve --restart-on-crash: 5 a minute).
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import functools
import hashlib
import itertools
import json
import logging
import mmap
import os
import shutil
import struct
import threading
import time
import uuid
import weakref
from collections.abc import Iterator, Sequence
from pathlib import Path

log = logging.getLogger("webnn_bridge.crash_journal")

QUARANTINE_AFTER_SUSPECT_CRASHES = 2
# crashes (on runtime versions still installed) after which a page origin's graphs go only to
# SAFE_BACKENDS: one page must not turn runtime crashes into a host that is down
ORIGIN_CRASH_CAP = 2
# backends whose failures are Python exceptions, never a dead process
SAFE_BACKENDS = frozenset({"reference"})

# one slot per thread: state (0 free, 1 compiling, 2 running), the graph's digest (ASCII, at most
# 64 bytes), the index of its note (devices, signature, origin) in the folder's notes.jsonl (a
# folder of an older host: its device list in devices.json)
_SLOT = struct.Struct("<Q64sI4x")
_SLOTS = 512
_STATES = {1: "compiling", 2: "running"}
_NOTES = "notes.jsonl"


def record_key(digest: str, device_id: str, token: str) -> str:
    return f"{digest} {device_id} {token}"


def signature_record_key(signature: str, device_id: str, token: str) -> str:
    return f"signature {signature} {device_id} {token}"


def origin_record_key(origin: str, crash: str) -> str:
    return f"origin {origin} {crash}"


def operator_signature(ir) -> tuple[str, ...]:
    """The kernels a graph asks of a runtime: the sorted set of ``op:dataType`` of its nodes, the
    data type of each node's first operand (of its first output for an operator without one).
    Kept in the graph's ``derived`` facts (a graph does not change after build())."""
    derived = getattr(ir, "derived", None)
    if derived is not None and "crash_signature" in derived:
        return derived["crash_signature"]
    from webnn_bridge.ops.graph import is_ref

    ops = set()
    for node in ir.nodes:
        first = next((ref.id for _, ref in node.call.operands(is_ref)), None)
        if first is None and node.outputs:
            first = node.outputs[0]
        desc = ir.operands.get(first)
        ops.add(f"{node.op}:{desc.data_type if desc is not None else '?'}")
    signature = tuple(sorted(ops))
    if derived is not None:
        derived["crash_signature"] = signature
    return signature


def signature_key(ops: Sequence[str]) -> str:
    """The journal's name of an operator signature (operator_signature())."""
    return hashlib.sha256("\n".join(ops).encode()).hexdigest()[:16]


@functools.lru_cache(maxsize=4096)
def origin_key(origin: str) -> str:
    """The journal's name of a page origin: a hash (the journal never writes origins down)."""
    return hashlib.sha256(b"webnn-bridge crash journal origin\0" + origin.encode()).hexdigest()[:16]


def runtime_token(backend, device) -> str:
    """A short fingerprint of what compiles for ``device`` (runtime version, options, our lowering
    code; not the placement's CPU mode): crash records hold for it alone."""
    if getattr(device, "threads", 0):
        device = dataclasses.replace(device, threads=0)
    token = backend.cache_token(device) or device.backend
    return hashlib.sha256(str(token).encode()).hexdigest()[:16]


class CrashJournal:
    def __init__(self, directory: str | Path):
        self.dir = Path(directory) / "crash-journal"
        self.dir.mkdir(parents=True, exist_ok=True)
        self.quarantine_file = self.dir / "quarantine.json"
        self._lock = threading.Lock()
        self._current = threading.local()
        self._by_digest: dict[str, dict[str, list[dict]]] = {}
        self._by_signature: dict[str, dict[str, list[dict]]] = {}
        self._by_origin: dict[str, list[dict]] = {}
        self._mtime: float | None = None
        # this process's folder: its lock file stays locked (flock) for as long as the process lives
        self._own = self.dir / f"inflight-{uuid.uuid4().hex}"
        self._own.mkdir()
        self._alive_fd = os.open(self._own / ".alive", os.O_CREAT | os.O_RDWR, 0o600)
        fcntl.flock(self._alive_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        self._slots_fd = os.open(self._own / "slots", os.O_CREAT | os.O_RDWR, 0o600)
        os.ftruncate(self._slots_fd, _SLOT.size * _SLOTS)
        self._map = mmap.mmap(self._slots_fd, _SLOT.size * _SLOTS)
        self._next_slot = itertools.count()
        # (devices, signature, origin) -> its line in notes.jsonl (appended, never rewritten)
        self._notes: dict[tuple, int] = {}
        self._notes_fd = os.open(self._own / _NOTES, os.O_CREAT | os.O_WRONLY | os.O_APPEND, 0o600)
        # a journal let go of, and every journal of a process that exits normally (even with work
        # in flight: a drain's deadline), leaves nothing behind; only a crash does
        self._leave = weakref.finalize(self, _leave, self._own, self._alive_fd, self._slots_fd, self._notes_fd)
        self.recovered = self.recover()

    # ------------------------------------------------------------------ after a crash
    def recover(self) -> list[dict]:
        """Turn the in-flight entries of processes that died into suspects, quarantine records and
        origin crash counts; returns the records quarantined now (graphs' and, with a ``kind`` of
        "signature", operator signatures')."""
        quarantined: list[dict] = []
        with self._exclusive(".recover.lock"):
            dead = []
            for folder in sorted(self.dir.glob("inflight-*")):
                if folder == self._own or not folder.is_dir():
                    continue
                if self._owner_alive(folder):
                    continue
                dead.append((folder, _in_flight(folder)))
            capped: dict[str, int] = {}
            if dead:
                with self._exclusive(".quarantine.lock"):
                    records = self._read()
                    for _, entries in dead:
                        quarantined += _count_crash(records, entries, capped)
                    self._write(records)
                for folder, _ in dead:
                    shutil.rmtree(folder, ignore_errors=True)
        for r in quarantined:
            if r.get("kind") == "signature":
                log.warning("a runtime crashed the host while %s a graph of operators %s on %s: that device will "
                            "not get graphs of these operators again", r["what"] or "compiling",
                            _ops_text(r.get("ops")), r["device"])
            else:
                log.warning("a runtime crashed the host while %s graph %s on %s: that device will not get it again",
                            r["what"] or "compiling", (r["digest"] or "")[:12], r["device"])
        for origin, crashes in capped.items():
            log.warning("the pages of one origin (%s) have crashed the host %d times: from now on their graphs run only "
                        "on devices a crash cannot take down (%s)", origin, crashes, ", ".join(sorted(SAFE_BACKENDS)))
        return quarantined

    @staticmethod
    def _owner_alive(folder: Path) -> bool:
        try:
            fd = os.open(folder / ".alive", os.O_RDWR)
        except FileNotFoundError:
            # created, but its owner died before it locked the folder (or it is being created now:
            # then it is empty, and removing nothing of it is harmless)
            return time.time() - folder.stat().st_mtime < 5
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        finally:
            os.close(fd)
        return False

    @contextlib.contextmanager
    def _exclusive(self, name: str) -> Iterator[None]:
        fd = os.open(self.dir / name, os.O_CREAT | os.O_RDWR, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    def _read(self) -> dict[str, dict]:
        try:
            data = json.loads(self.quarantine_file.read_text())
        except (OSError, ValueError):
            return {}
        return {k: v for k, v in data.items() if isinstance(v, dict)} if isinstance(data, dict) else {}

    def _write(self, records: dict[str, dict]) -> None:
        tmp = self.quarantine_file.with_name(f".quarantine.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(records, indent=1, sort_keys=True))
        os.replace(tmp, self.quarantine_file)

    # ------------------------------------------------------------------ while serving
    def quarantined_on(self, digest: str) -> dict[str, list[dict]]:
        """The quarantine records of this graph by device id (each for one runtime version); {}
        for almost every graph. Re-reads the records when another host sharing the folder changed
        them."""
        with self._lock:
            self._reindex()
            return self._by_digest.get(digest, {})

    def quarantined_for(self, digest: str, signature: str | None = None, origin: str | None = None,
                        ) -> tuple[dict[str, list[dict]], dict[str, list[dict]], list[dict]]:
        """What the journal holds against a graph: the quarantine records of the graph and of its
        operator signature by device id (each for one runtime version), and the crashes of its
        page's origin (one record each, with the (device id, runtime version) pairs it had work on:
        the caller knows which versions are installed). All empty for almost every graph."""
        with self._lock:
            self._reindex()
            return (self._by_digest.get(digest, {}), self._by_signature.get(signature, {}) if signature else {},
                    self._by_origin.get(origin, []) if origin else [])

    def _reindex(self) -> None:
        try:
            mtime = self.quarantine_file.stat().st_mtime
        except OSError:
            mtime = None
        if mtime == self._mtime:
            return
        self._mtime = mtime
        self._by_digest, self._by_signature, self._by_origin = {}, {}, {}
        for r in self._read().values():
            kind = r.get("kind", "digest")
            if kind == "origin" and isinstance(r.get("origin"), str) and isinstance(r.get("devices"), list):
                pairs = [p for p in r["devices"] if isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p)]
                self._by_origin.setdefault(r["origin"], []).append({**r, "devices": pairs})
            if not isinstance(r.get("device"), str):
                continue
            if kind == "digest" and r.get("quarantined") and isinstance(r.get("digest"), str):
                self._by_digest.setdefault(r["digest"], {}).setdefault(r["device"], []).append(r)
            elif kind == "signature" and r.get("quarantined") and isinstance(r.get("signature"), str):
                self._by_signature.setdefault(r["signature"], {}).setdefault(r["device"], []).append(r)

    def quarantined(self, digest: str, device_id: str, token: str) -> dict | None:
        """The quarantine record of this graph on this device at this runtime version, if any."""
        return next((r for r in self.quarantined_on(digest).get(device_id, []) if r.get("token") == token), None)

    @contextlib.contextmanager
    def building(self, digest: str, what: str = "") -> Iterator[None]:
        """The page graph (its digest) that the compiles this thread journals belong to: a
        partition's segments are compiled as graphs of their own, but it is the page's graph that
        must not go back to the device that crashed."""
        outer = getattr(self._current, "build", None)
        self._current.build = (digest, what)
        try:
            yield
        finally:
            self._current.build = outer

    def current_build(self) -> tuple[str, str] | None:
        return getattr(self._current, "build", None)

    def label(self, digest: str, signature: str | None, origin: str | None, ops: Sequence[str] = ()) -> None:
        """What MLContext knows of the graph ``digest`` it is about to compile on this thread: its
        operator signature (signature_key(); ``ops``, operator_signature(), for the records'
        readers) and its page's origin (origin_key(); None without one). Noted with this thread's
        compiles of ``digest`` and with the next device set it asks for without a digest (the
        graph's runs)."""
        self._current.label = (digest, signature, origin, tuple(ops))

    def device_set(self, devices: Sequence[tuple[str, str]], digest: str | None = None) -> int:
        """The index of a list of (device id, runtime token) pairs, with the label() of this
        thread's graph (that of ``digest`` only, when given), in this process's notes.jsonl
        (a line appended the first time they are seen)."""
        label = getattr(self._current, "label", None)
        if label is not None and digest is not None and label[0] != digest:
            label = None
        _, signature, origin, ops = label or (None, None, None, ())
        key = (tuple(tuple(d) for d in devices), signature, origin)
        with self._lock:
            index = self._notes.get(key)
            if index is None:
                line = json.dumps({"devices": [list(d) for d in key[0]], "signature": signature, "ops": list(ops),
                                   "origin": origin})
                os.write(self._notes_fd, (line + "\n").encode())  # one write: a line is whole, or absent
                index = self._notes[key] = len(self._notes)
        return index

    @contextlib.contextmanager
    def _noted(self, state: int, digest: str, device_set: int) -> Iterator[None]:
        slot = getattr(self._current, "slot", None)
        if slot is None:
            slot = self._current.slot = next(self._next_slot)
            if slot == _SLOTS:
                log.warning("crash journal: more than %d threads; the others' work is not journaled", _SLOTS)
        if slot >= _SLOTS:
            yield
            return
        at = slot * _SLOT.size
        before = self._map[at:at + _SLOT.size]  # a note inside another (a run inside a compile) is restored
        _SLOT.pack_into(self._map, at, 0, digest.encode("ascii", "replace")[:64], device_set)
        struct.pack_into("<Q", self._map, at, state)  # the state last: a slot is never half noted
        try:
            yield
        finally:
            self._map[at:at + _SLOT.size] = before

    def compiling(self, digest: str, devices: Sequence[tuple[str, str]], what: str = ""):
        """Journal one compile of ``digest`` on ``devices`` ((device id, runtime token) pairs) while it goes on."""
        return self._noted(1, digest, self.device_set(devices, digest))

    def running(self, digest: str, device_set: int):
        """Journal one run of ``digest`` on the devices of ``device_set`` (device_set()) while it goes on."""
        return self._noted(2, digest, device_set)

    def close(self) -> None:
        """Leave the journal now: its folder goes, nothing is in flight."""
        self._leave()


def _leave(folder: Path, *fds: int) -> None:
    shutil.rmtree(folder, ignore_errors=True)
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)


def _in_flight(folder: Path) -> list[dict]:
    """What a dead process's slots say it was compiling or running: digest, devices, what, and
    the graph's signature, operators and origin where it was labelled."""
    try:
        notes = _read_notes(folder)
        table = (folder / "slots").read_bytes()
    except (OSError, ValueError):
        return []
    out = []
    for at in range(0, len(table) - _SLOT.size + 1, _SLOT.size):
        state, digest, index = _SLOT.unpack_from(table, at)
        if state in _STATES and index < len(notes) and notes[index] is not None:
            out.append({**notes[index], "digest": digest.rstrip(b"\0").decode("ascii", "replace"),
                        "what": _STATES[state]})
    return out


def _read_notes(folder: Path) -> list[dict | None]:
    """A folder's notes by index (None: a line that cannot be read)."""
    if not (folder / _NOTES).exists():  # the folder of an older host: device lists alone
        device_sets = json.loads((folder / "devices.json").read_text())
        return [{"devices": d} if isinstance(d, list) else None for d in device_sets] if isinstance(device_sets, list) else []
    notes: list[dict | None] = []
    for line in (folder / _NOTES).read_text(errors="replace").splitlines():
        try:
            note = json.loads(line)
        except ValueError:
            note = None
        ok = isinstance(note, dict) and isinstance(note.get("devices"), list)
        notes.append({"devices": note["devices"], "signature": _str_or_none(note.get("signature")),
                      "ops": [o for o in note.get("ops") or [] if isinstance(o, str)],
                      "origin": _str_or_none(note.get("origin"))} if ok else None)
    return notes


def _count(v) -> int:
    return v if isinstance(v, int) and v >= 0 else 0


def _str_or_none(v) -> str | None:
    return v if isinstance(v, str) and v else None


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def _ops_text(ops, limit: int = 8) -> str:
    ops = list(ops or [])
    return ", ".join(ops[:limit]) + (f" (+{len(ops) - limit} more)" if len(ops) > limit else "") if ops else "(none)"


def _count_crash(records: dict[str, dict], entries: list[dict], capped: dict[str, int]) -> list[dict]:
    """One dead process's crash, counted into the records: against each graph and operator signature
    in flight, per device and runtime version (once, however many of their notes were in flight),
    and as one record for each origin in flight (the crash, with the devices and runtime versions
    its work was on). A graph or signature that was the only one in flight is quarantined at once,
    one of several at its QUARANTINE_AFTER_SUSPECT_CRASHES-th crash. Returns the records
    quarantined now; ``capped`` gets the origins that reach ORIGIN_CRASH_CAP crashes now."""
    quarantined: list[dict] = []
    digests = {e.get("digest", "") for e in entries}
    signatures = {e.get("signature") for e in entries}
    seen: set[str] = set()
    origins: dict[str, dict] = {}
    for e in entries:
        for pair in e.get("devices", []):
            if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)):
                continue
            device_id, token = pair
            counted = [(record_key(e.get("digest", ""), device_id, token), len(digests) == 1,
                        {"digest": e.get("digest"), "device": device_id, "token": token})]
            if e.get("signature"):
                counted.append((signature_record_key(e["signature"], device_id, token), len(signatures) == 1,
                                {"kind": "signature", "signature": e["signature"], "ops": e.get("ops") or [],
                                 "device": device_id, "token": token}))
            for key, alone, fields in counted:
                if key in seen:
                    continue
                seen.add(key)
                r = records.setdefault(key, {**fields, "crashes": 0, "quarantined": False})
                r["crashes"] = _count(r.get("crashes")) + 1
                r["last"] = _now()  # found
                r["what"] = e.get("what", "")
                if not r.get("quarantined") and (alone or r["crashes"] >= QUARANTINE_AFTER_SUSPECT_CRASHES):
                    r["quarantined"] = True
                    quarantined.append(dict(r))
            if e.get("origin"):
                crash = origins.setdefault(e["origin"], {"kind": "origin", "origin": e["origin"], "devices": [],
                                                         "last": _now(), "what": e.get("what", "")})
                if [device_id, token] not in crash["devices"]:
                    crash["devices"].append([device_id, token])
    for origin, crash in origins.items():
        records[origin_record_key(origin, uuid.uuid4().hex[:16])] = crash
        total = sum(1 for r in records.values() if r.get("kind") == "origin" and r.get("origin") == origin)
        if total >= ORIGIN_CRASH_CAP:
            capped[origin] = total
    return quarantined
