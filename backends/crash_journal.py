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
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
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

# one slot per thread: state (0 free, 1 compiling, 2 running), the graph's digest (ASCII, at most
# 64 bytes), the index of its device list in the folder's devices.json
_SLOT = struct.Struct("<Q64sI4x")
_SLOTS = 512
_STATES = {1: "compiling", 2: "running"}


def record_key(digest: str, device_id: str, token: str) -> str:
    return f"{digest} {device_id} {token}"


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
        self._device_sets: dict[tuple, int] = {}
        # a journal let go of, and every journal of a process that exits normally (even with work
        # in flight: a drain's deadline), leaves nothing behind; only a crash does
        self._leave = weakref.finalize(self, _leave, self._own, self._alive_fd, self._slots_fd)
        self.recovered = self.recover()

    # ------------------------------------------------------------------ after a crash
    def recover(self) -> list[dict]:
        """Turn the in-flight entries of processes that died into suspects and quarantine records;
        returns the records quarantined now."""
        quarantined: list[dict] = []
        with self._exclusive(".recover.lock"):
            dead = []
            for folder in sorted(self.dir.glob("inflight-*")):
                if folder == self._own or not folder.is_dir():
                    continue
                if self._owner_alive(folder):
                    continue
                dead.append((folder, _in_flight(folder)))
            if dead:
                with self._exclusive(".quarantine.lock"):
                    records = self._read()
                    for _, entries in dead:
                        alone = len(entries) == 1
                        for e in entries:
                            for device_id, token in e.get("devices", []):
                                key = record_key(e.get("digest", ""), device_id, token)
                                r = records.setdefault(key, {"digest": e.get("digest"), "device": device_id,
                                                             "token": token, "crashes": 0, "quarantined": False})
                                r["crashes"] += 1
                                r["last"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())  # found
                                r["what"] = e.get("what", "")
                                if not r["quarantined"] and (alone or r["crashes"] >= QUARANTINE_AFTER_SUSPECT_CRASHES):
                                    r["quarantined"] = True
                                    quarantined.append(dict(r))
                    self._write(records)
                for folder, _ in dead:
                    shutil.rmtree(folder, ignore_errors=True)
        for r in quarantined:
            log.warning("a runtime crashed the host while %s graph %s on %s: that device will not get it again",
                        r["what"] or "compiling", (r["digest"] or "")[:12], r["device"])
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
            try:
                mtime = self.quarantine_file.stat().st_mtime
            except OSError:
                mtime = None
            if mtime != self._mtime:
                self._mtime = mtime
                self._by_digest = {}
                for r in self._read().values():
                    if r.get("quarantined") and isinstance(r.get("digest"), str) and isinstance(r.get("device"), str):
                        self._by_digest.setdefault(r["digest"], {}).setdefault(r["device"], []).append(r)
            return self._by_digest.get(digest, {})

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

    def device_set(self, devices: Sequence[tuple[str, str]]) -> int:
        """The index of a list of (device id, runtime token) pairs in this process's devices.json
        (written, under a new name and renamed, the first time the list is seen)."""
        key = tuple(tuple(d) for d in devices)
        with self._lock:
            index = self._device_sets.get(key)
            if index is None:
                index = self._device_sets[key] = len(self._device_sets)
                tmp = self._own / "devices.json.tmp"
                tmp.write_text(json.dumps([[list(d) for d in k] for k in self._device_sets]))
                os.replace(tmp, self._own / "devices.json")
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
        return self._noted(1, digest, self.device_set(devices))

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
    """What a dead process's slots say it was compiling or running."""
    try:
        device_sets = json.loads((folder / "devices.json").read_text())
        table = (folder / "slots").read_bytes()
    except (OSError, ValueError):
        return []
    out = []
    for at in range(0, len(table) - _SLOT.size + 1, _SLOT.size):
        state, digest, device_set = _SLOT.unpack_from(table, at)
        if state in _STATES and isinstance(device_sets, list) and device_set < len(device_sets):
            out.append({"digest": digest.rstrip(b"\0").decode("ascii", "replace"), "devices": device_sets[device_set],
                        "what": _STATES[state]})
    return out
