"""Compile cache: building a graph the host has already compiled costs a lookup.

- In memory: identical graphs share one compiled session (reference counted: each MLGraph holds
  one reference and gives it back on destroy). A session nobody holds stays warm for a while
  (bounded LRU), so a page reload rebuilds its graphs without compiling.
- On disk (optional): the backend's compile artifact (for ONNX Runtime the lowered model), so
  that a restarted host skips lowering. Entries carry a digest; a corrupt or unreadable entry
  is ignored, deleted and rebuilt. The directory is bounded: the least recently used entries go.
- Beside it, the runtime's optimized model where the backend keeps one (ONNX Runtime's CPU EP, graphs over 1 MiB:
  the model after its graph optimizations and layout transforms, with their initializers in a
  data file), produced by a low-priority thread after the build, off its critical path: a
  restarted host loads it with no optimization to do. It depends on the runtime's build and the
  CPU too (the backend's optimized_token). Its model file carries a digest, the size and a
  checksum of its data file; anything that does not match is deleted and the artifact used.

The key is a canonical digest of the graph (structure, descriptors, constant bytes; operand ids
renumbered) plus the backend's cache token (runtime version, device, providers, this code's
lowering) plus a partition: the page's origin. A page can time its build, so a cache must never
tell one origin what another origin built.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import hashlib
import itertools
import logging
import os
import queue
import secrets
import struct
import sys
import threading
import time
import weakref
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

import numpy as np

from webnn_bridge.ops.graph import GraphIR, is_ref

from .base import Backend, Compiled, Device
from .compiler import COMPILER
from .crash_journal import CrashJournal, runtime_token

log = logging.getLogger("webnn_bridge.cache")

MAGIC = b"webnn-bridge compile cache 2\n"
OPTIMIZED_MAGIC = b"webnn-bridge optimized model 2\n"
DIGEST_BYTES = 32
CHECK_BYTES = 12  # a file's check (checked): its body's length (8 bytes) and CRC-32 (4), little-endian
ENTRY_SUFFIXES = (".wnc", ".ortm", ".ortd")  # artifact; optimized model, its data
OPTIMIZE_PENDING = 8  # at most this many optimized models waiting to be written, per cache
OPTIMIZE_AFTER_S = 0.1  # an optimized model is written no sooner after its build


def _hasher():
    return hashlib.blake2b(digest_size=DIGEST_BYTES)


def graph_digest(ir: GraphIR) -> str:
    """A digest of what the graph computes, independent of the operand ids a builder handed out."""
    h = _hasher()
    canon: dict[int, int] = {}

    def ref(oid: int) -> int:
        return canon.setdefault(oid, len(canon))

    def desc(oid: int) -> tuple:
        d = ir.operands[oid]
        return d.data_type, tuple(d.shape)

    for name, oid in ir.inputs.items():
        h.update(repr(("input", name, ref(oid), desc(oid))).encode())
    for oid, value in ir.constants.items():
        a = np.asarray(value)
        h.update(repr(("constant", ref(oid), desc(oid), a.dtype.str, a.shape)).encode())
        h.update(constant_digest(a))
    for node in ir.nodes:
        call = node.call.map_operands(lambda r: ("$", ref(r.id)), is_ref)
        outs = [(ref(o), desc(o)) for o in node.outputs]
        h.update(repr(("node", node.op, sorted(call.args.items()), sorted(call.options.items()), outs)).encode())
    h.update(repr(("outputs", sorted((name, ref(oid)) for name, oid in ir.outputs.items()))).encode())
    return h.hexdigest()


# SHA-256 of read-only arrays (a built graph's constants, which nothing writes), by id(array):
# a graph built again from the same validated constants (a memo hit, a partition's segments) is
# not hashed again; a page's upload, verified against its SHA-256, seeds it (remember_digest).
_digests: dict[int, tuple[weakref.ref, bytes]] = {}
# reentrant: a garbage collection can run inside it (any allocation may start one) and free an
# array whose weakref callback (forget) takes it again on the same thread
_digests_lock = threading.RLock()


def constant_digest(a: np.ndarray) -> bytes:
    """The SHA-256 of an array's bytes (C order)."""
    with _digests_lock:
        known = _digests.get(id(a))
    if known is not None and known[0]() is a:
        return known[1]
    digest = hashlib.sha256(np.ascontiguousarray(a).reshape(-1).view(np.uint8)).digest()
    remember_digest(a, digest)
    return digest


def remember_digest(a: np.ndarray, digest: bytes) -> None:
    """``digest``: the SHA-256 of ``a``'s bytes; kept only while ``a`` lives and is read-only."""
    if not _immutable(a):
        return
    key = id(a)

    def forget(_ref, key=key):
        with _digests_lock:
            if _digests.get(key, (None,))[0] is _ref:
                del _digests[key]

    ref = weakref.ref(a, forget)
    with _digests_lock:
        _digests[key] = (ref, digest)


def _immutable(a: np.ndarray) -> bool:
    """Nothing can change ``a``'s bytes: a read-only array owning them, or a view of bytes."""
    if a.flags.writeable:
        return False
    base = a.base
    while isinstance(base, np.ndarray):
        if base.flags.writeable:
            return False
        base = base.base
    if isinstance(base, memoryview):
        base = base.obj
    return base is None or isinstance(base, bytes)


def trim_oldest(paths, max_bytes: int, unlink) -> int:
    """Delete the least recently written of ``paths`` (with ``unlink``) until they hold at most
    ``max_bytes``; returns the bytes left."""
    entries = []
    for p in paths:
        try:
            st = p.stat()
        except OSError:
            continue
        entries.append((st.st_mtime, st.st_size, p))
    total = sum(size for _, size, _ in entries)
    for _, size, p in sorted(entries):
        if total <= max_bytes:
            break
        unlink(p)
        total -= size
    return total


def _check(body) -> bytes:
    # CRC-32 finds damage (every burst of up to 32 bits, any other with odds of 2**-32) at about
    # 4 GB/s; a keyed or cryptographic digest would add nothing here (whoever can write the cache
    # can write its check too) and costs 4x: blake2b took 15 ms of a 14 MB model's 37 ms reload
    return struct.pack("<QI", len(body), zlib.crc32(body))


def read_checked(path: Path, magic: bytes) -> bytes:
    """A file's body written as ``checked(magic, body)``, checked (ValueError when the file is not one
    of this version, or is damaged or truncated). The body is read as it is returned: one copy."""
    with open(path, "rb") as f:
        head = f.read(len(magic) + CHECK_BYTES)
        body = f.read()
    if head[:len(magic)] != magic or head[len(magic):] != _check(body):
        raise ValueError("not an entry of this version, or damaged or truncated")
    return body


def checked(magic: bytes, body: bytes) -> bytes:
    """What read_checked reads back: ``magic``, the check of ``body`` (its length, its CRC-32), then ``body``."""
    return b"".join((magic, _check(body), body))


def write_atomic(path: Path, data) -> None:
    """``data`` to ``path`` under a temporary name, then renamed: a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _tmp_name(path)
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "webnn-bridge"


def engine_cache_dir() -> Path:
    """Where built engines (ours, and the ONNX Runtime TensorRT EP's) are kept."""
    root = os.environ.get("WEBNN_BRIDGE_CACHE") or Path.home() / ".cache" / "webnn-bridge"
    return Path(root) / "tensorrt"


def held_bytes(ir: GraphIR) -> int:
    """What a compiled session of ``ir`` may hold while nobody uses it: its constants, every
    value it computes (constant folding materialises values when the session is created, and a
    runtime's memory arena keeps what a run allocated) and a copy of its inputs (a CUDA graph's
    static input buffers). An upper bound, as a page's build is charged."""
    values = sum(ir.operands[o].byte_length for n in ir.nodes for o in n.outputs if o in ir.operands)
    inputs = sum(ir.operands[o].byte_length for o in ir.inputs.values())
    return values + inputs + ir.constant_bytes()


def memory_pressure(meminfo: str = "/proc/meminfo") -> bool:
    """Whether the machine runs short of memory: less than PRESSURE_FRACTION of it available
    (Linux's MemAvailable; False where the platform does not say). The machine's own reading is
    reused for PRESSURE_TTL_S: the caches ask at every constant they keep (MobileNetV2's upload:
    106 times), and reading /proc/meminfo took 0.12 ms a time."""
    global _PRESSURE_READ
    if meminfo != MEMINFO:
        return _meminfo_pressure(meminfo)
    now = time.monotonic()
    last = _PRESSURE_READ
    if last is not None and now - last[0] < PRESSURE_TTL_S:
        return last[1]
    pressed = _meminfo_pressure(meminfo)
    _PRESSURE_READ = (now, pressed)
    return pressed


def _meminfo_pressure(meminfo: str) -> bool:
    fields: dict[str, str] = {}
    try:
        with open(meminfo, encoding="ascii") as f:
            for line in f:  # MemTotal and MemAvailable come first: read no further
                name, _, value = line.partition(":")
                fields[name] = value
                if "MemTotal" in fields and "MemAvailable" in fields:
                    break
        total = int(fields["MemTotal"].split()[0])
        available = int(fields["MemAvailable"].split()[0])
    except (OSError, KeyError, ValueError, IndexError):
        return False
    return available < PRESSURE_FRACTION * total


MEMINFO = "/proc/meminfo"
PRESSURE_FRACTION = 0.05
PRESSURE_TTL_S = 0.25
_PRESSURE_READ: tuple[float, bool] | None = None  # (when, the reading) of the machine's meminfo


class _Entry:
    def __init__(self, key: str, compiled: Compiled, size: int):
        self.key = key
        self.compiled = compiled
        self.size = size
        self.refs = 0


class SharedCompiled(Compiled):
    """One graph's reference to a cached compiled session."""

    def __init__(self, cache: CompileCache, entry: _Entry, source: str, digest: str):
        self._cache = cache
        self._entry = entry
        self.source = source  # "compiled" | "memory" | "disk": how this build was served
        self.digest = digest
        self._closed = False

    @property
    def compiled(self) -> Compiled:
        """The shared compiled graph behind this reference."""
        return self._entry.compiled

    @property
    def fell_back(self) -> bool:  # type: ignore[override]
        return self._entry.compiled.fell_back

    def run(self, inputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        return self._entry.compiled.run(inputs)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._cache._release(self._entry)


class DiskBacked:
    """A cache whose disk copies a DiskWriter (``_writer``, None without a folder) writes off the
    callers' path."""

    _writer: DiskWriter | None = None

    def start_writing(self) -> None:
        """Start the disk writer's thread now (ML.warm_up), not on a build's path."""
        if self._writer is not None:
            self._writer.start()

    def flush(self) -> None:
        """Wait until everything put so far is on disk (tests, shutdown)."""
        if self._writer is not None:
            self._writer.flush()


class CompileCache(DiskBacked):
    """``warm_entries`` / ``warm_bytes``: the most sessions nobody uses that stay warm, and what they
    may hold together (held_bytes: constants and runtime memory); ``idle_bytes``: what they may
    keep once the host has no page (trim); ``pressure``: whether the machine runs short of memory
    (checked whenever a session goes warm: then none stays)."""

    def __init__(self, directory: str | Path | None = None, max_disk_bytes: int = 2 << 30,
                 warm_entries: int = 16, warm_bytes: int = 256 << 20, idle_bytes: int = 16 << 20,
                 pressure=memory_pressure):
        self.directory = Path(directory) if directory is not None else None
        self.max_disk_bytes = max_disk_bytes
        self.warm_entries = warm_entries
        self.warm_bytes = warm_bytes
        self.idle_bytes = idle_bytes
        self.pressure = pressure
        self._live: dict[str, _Entry] = {}
        self._warm: OrderedDict[str, _Entry] = OrderedDict()
        self._lock = threading.Lock()
        self._building: dict[str, threading.Lock] = {}
        self.stats = {"compiled": 0, "memory": 0, "disk": 0}
        # optimized models: written, loaded (a subset of "disk" above), rejected (deleted)
        self.optimized_stats = {"written": 0, "loaded": 0, "rejected": 0}
        self._optimizing: dict[str, tuple] = {}  # optimized models to write: key -> job
        self._optimized_idle = threading.Condition(self._lock)
        # what was compiling when a runtime crashed the process (backends/crash_journal.py): on disk
        # beside the cache, so that it outlives the crash
        self.journal = None
        # artifacts are written off the build's path
        self._writer = DiskWriter("webnn-compile", self._entries, max_disk_bytes) if self.directory is not None else None
        if self.directory is not None:
            OPTIMIZER.start()  # now, not on a build's path
            try:
                self.journal = CrashJournal(self.directory)
            except OSError as e:
                log.warning("no crash journal in %s: %s", self.directory, e)

    # ------------------------------------------------------------------ the one entry point
    def compile(self, backend: Backend, ir: GraphIR, device: Device, partition: str = "",
                digest: str | None = None) -> Compiled:
        """``digest``: graph_digest(ir) when the caller already knows it."""
        token = backend.cache_token(device)
        if token is None:
            ir.load_constants()  # a failure to get them is not the backend's to report
            with self._journaled(backend, ir, device, digest):
                return _on_compile_thread(lambda: backend.compile(ir, device), ir)
        digest = digest or graph_digest(ir)
        key = _hasher()
        key.update(repr((partition, token)).encode())
        key.update(digest.encode())
        key = key.hexdigest()
        with self._key_lock(key):  # concurrent builds of one graph compile it once
            entry = self._take(key)
            if entry is not None:
                return SharedCompiled(self, entry, "memory", digest)
            try:
                with self._journaled(backend, ir, device, digest):
                    compiled, source = self._compile(backend, ir, device, key)
            except BaseException:
                with self._lock:
                    self._building.pop(key, None)
                raise
            entry = _Entry(key, compiled, held_bytes(ir))
            with self._lock:
                entry.refs = 1
                self._live[key] = entry
                self.stats[source] += 1
            return SharedCompiled(self, entry, source, digest)

    def _journaled(self, backend: Backend, ir: GraphIR, device: Device, digest: str | None):
        """The crash journal's note of this compile while it runs (the page's graph it belongs to
        when MLContext says, else this graph); nothing without a journal."""
        if self.journal is None:
            return contextlib.nullcontext()
        build = self.journal.current_build()
        digest, what = build if build is not None else (digest or graph_digest(ir), "")
        return self.journal.compiling(digest, [(device.id, runtime_token(backend, device))], what)

    def _compile(self, backend: Backend, ir: GraphIR, device: Device, key: str) -> tuple[Compiled, str]:
        """Compiled from disk (the optimized model, else the artifact) or anew: (compiled, source)."""
        okey = self._optimized_key(backend, ir, device, key)
        compiled = self._load_optimized(backend, ir, device, okey)
        if compiled is not None:
            return compiled, "disk"
        ir.load_constants()  # from here on the constants' bytes are needed
        loaded, source = self._load(backend, ir, device, key), "disk"
        if loaded is None:
            loaded, source = self._build(backend, ir, device, key), "compiled"
        compiled, artifact = loaded
        if okey is not None and artifact is not None:
            self._optimize_later(okey, (backend, ir, device, artifact))
        return compiled, source

    def _key_lock(self, key: str) -> threading.Lock:
        with self._lock:
            return self._building.setdefault(key, threading.Lock())

    def _take(self, key: str) -> _Entry | None:
        """A live or warm entry, with one more reference taken (atomically with any release)."""
        with self._lock:
            entry = self._live.get(key) or self._warm.pop(key, None)
            if entry is not None:
                self._live[key] = entry
                entry.refs += 1
                self.stats["memory"] += 1
            return entry

    def _release(self, entry: _Entry) -> None:
        with self._lock:
            entry.refs -= 1
            if entry.refs > 0 or self._live.get(entry.key) is not entry:
                return
            del self._live[entry.key]
            self._warm[entry.key] = entry
        self._evict(0 if self.pressure() else self.warm_bytes, self.warm_entries)

    def _evict(self, max_bytes: int, max_entries: int) -> None:
        """Close the least recently used warm sessions until at most ``max_entries`` hold at
        most ``max_bytes``."""
        evicted = []
        with self._lock:
            while self._warm and (len(self._warm) > max_entries or self.warm_size() > max_bytes):
                evicted.append(self._warm.popitem(last=False)[1])
            for e in evicted:
                self._building.pop(e.key, None)
        for e in evicted:
            e.compiled.close()

    def warm_size(self) -> int:
        """What the warm sessions may hold together (held_bytes)."""
        return sum(e.size for e in self._warm.values())

    def trim(self) -> None:
        """The host has no page: the warm sessions keep at most ``idle_bytes`` (none under memory
        pressure)."""
        self._evict(0 if self.pressure() else self.idle_bytes, self.warm_entries)

    def clear(self) -> None:
        """Drop the warm (unreferenced) sessions; graphs in use keep theirs."""
        self._evict(0, 0)

    # ------------------------------------------------------------------ disk
    def _path(self, key: str, suffix: str = ".wnc") -> Path | None:
        return None if self.directory is None else self.directory / f"{key}{suffix}"

    def _load(self, backend: Backend, ir: GraphIR, device: Device, key: str) -> tuple[Compiled, bytes] | None:
        """(compiled, artifact) from the disk entry, None without one."""
        path = self._path(key)
        if path is None or not path.is_file():
            return None
        try:
            artifact = read_checked(path, MAGIC)
            compiled = _on_compile_thread(lambda: backend.load_artifact(artifact, ir, device), ir)
        except Exception as e:  # a corrupt entry is rebuilt, never fatal
            log.warning("ignoring unreadable compile cache entry %s: %s", path.name, e)
            path.unlink(missing_ok=True)
            return None
        _touch(path)  # recently used: evicted last
        return compiled, artifact

    def _build(self, backend: Backend, ir: GraphIR, device: Device, key: str) -> tuple[Compiled, bytes | None]:
        path = self._path(key)
        if path is None:
            return _on_compile_thread(lambda: backend.compile(ir, device), ir), None
        artifact = backend.artifact(ir, device)
        compiled = _on_compile_thread(lambda: backend.load_artifact(artifact, ir, device), ir)
        # the build's reply does not wait for the disk (nor for listing the folder to trim it: a
        # small graph's first build spent 1 to 2 ms of its 4 there)
        self._writer.put(path, lambda: checked(MAGIC, artifact))
        return compiled, artifact

    def _store(self, path: Path, artifact: bytes, magic: bytes = MAGIC) -> None:
        write_atomic(path, checked(magic, artifact))
        self._trim()

    def _entries(self) -> Iterable[Path]:
        return itertools.chain.from_iterable(self.directory.glob(f"*{s}") for s in ENTRY_SUFFIXES)

    def _trim(self) -> None:
        trim_oldest(self._entries(), self.max_disk_bytes, lambda p: p.unlink(missing_ok=True))

    # ------------------------------------------------------------------ the runtime's optimized model
    def _optimized_key(self, backend: Backend, ir: GraphIR, device: Device, key: str) -> str | None:
        if self.directory is None:
            return None
        token = backend.optimized_token(ir, device)
        if token is None:
            return None
        h = _hasher()
        h.update(repr((key, token)).encode())
        return h.hexdigest()

    def _optimized_paths(self, okey: str) -> tuple[Path, Path]:
        return self._path(okey, ".ortm"), self._path(okey, ".ortd")

    def _load_optimized(self, backend: Backend, ir: GraphIR, device: Device, okey: str | None) -> Compiled | None:
        if okey is None:
            return None
        model_path, data_path = self._optimized_paths(okey)
        if not model_path.is_file():
            return None
        try:
            body = read_checked(model_path, OPTIMIZED_MAGIC)
            if struct.unpack_from("<QQ", body) != data_check(data_path):
                raise ValueError("its data file does not match")
            compiled = _on_compile_thread(lambda: backend.load_optimized(body[16:], self.directory, ir, device), ir)
        except Exception as e:  # an optimization only: the artifact's path serves the build
            log.debug("ignoring optimized model %s: %s", model_path.name, e)
            self._unlink_optimized(okey)
            with self._lock:
                self.optimized_stats["rejected"] += 1
            return None
        _touch(model_path)
        _touch(data_path)
        with self._lock:
            self.optimized_stats["loaded"] += 1
        return compiled

    def _unlink_optimized(self, okey: str) -> None:
        for p in self._optimized_paths(okey):
            try:
                p.unlink(missing_ok=True)
            except OSError as e:  # in use (Windows) or a read-only disk: the check catches it again
                log.debug("cannot delete %s: %s", p.name, e)

    def _optimize_later(self, okey: str, job: tuple) -> None:
        """Queues the writing of an optimized model (OPTIMIZER: one thread, one model at a time)."""
        if self._optimized_paths(okey)[0].is_file():
            return
        with self._lock:
            if okey in self._optimizing or len(self._optimizing) >= OPTIMIZE_PENDING:
                return
            self._optimizing[okey] = job
        OPTIMIZER.submit(self, okey)

    def _write_queued(self, okey: str, write: bool) -> None:
        """The optimizer's turn for a queued model (``write``: False at exit: dropped)."""
        with self._lock:
            job = self._optimizing[okey]
        try:
            if write:
                self._write_optimized(okey, *job)
        finally:
            with self._lock:
                del self._optimizing[okey]
                self._optimized_idle.notify_all()

    def _write_optimized(self, okey: str, backend: Backend, ir: GraphIR, device: Device, artifact: bytes) -> None:
        # the runtime maps the data file into the sessions that load it: files are only ever
        # replaced (a temporary name, renamed), never rewritten in place
        model_path, data_path = self._optimized_paths(okey)
        data_tmp = _tmp_name(data_path)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            model = backend.save_optimized(artifact, ir, device, self.directory, data_tmp.name, data_path.name)
            if not data_tmp.exists():  # nothing big enough for a data file
                data_tmp.write_bytes(b"")
            check = struct.pack("<QQ", *data_check(data_tmp))
            os.replace(data_tmp, data_path)
            self._store(model_path, check + model, OPTIMIZED_MAGIC)
        except Exception as e:  # an optimization only: never fails a build
            log.debug("cannot write an optimized model: %s", e)
            data_tmp.unlink(missing_ok=True)
            self._unlink_optimized(okey)
            return
        with self._lock:
            self.optimized_stats["written"] += 1

    def flush(self) -> None:
        """Wait until the artifacts and optimized models queued so far are written (tests,
        shutdown)."""
        super().flush()
        with self._optimized_idle:
            self._optimized_idle.wait_for(lambda: not self._optimizing)


def _on_compile_thread(compile: Callable[[], Compiled], ir: GraphIR) -> Compiled:
    """A backend's compile of ``ir``, where its memory is faulted in already (backends/compiler.py)."""
    return COMPILER.run(compile, ir.constant_bytes())


def data_check(path: Path) -> tuple[int, int]:
    """(size, checksum) of a file: the sum of its little-endian 64-bit words, modulo 2**64 (a
    cheap check, about 2 ms for 14 MB: any change of up to 8 aligned bytes shows)."""
    size = path.stat().st_size
    if size == 0:
        return 0, 0
    data = np.memmap(path, np.uint8, mode="r")
    whole = size // 8 * 8
    tail = np.zeros(8, np.uint8)
    tail[:size - whole] = data[whole:]
    total = int(data[:whole].view("<u8").sum(dtype=np.uint64)) + int(tail.view("<u8")[0])
    del data
    return size, total % (1 << 64)


def _tmp_name(path: Path) -> Path:
    """A writer's own temporary name beside ``path``: unique across threads, processes and the
    machines of hosts that share one cache folder (a network file system)."""
    return path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.{secrets.token_hex(6)}.tmp")


def _touch(path: Path) -> None:
    try:
        os.utime(path)
    except OSError:
        pass


class DiskWriter:
    """Writes the files of one bounded folder off the callers' path: one thread, at the lowest
    priority, each file atomically (a temporary name, renamed); past ``max_bytes`` (``files()``:
    the folder's files) the least recently used go first."""

    def __init__(self, name: str, files: Callable[[], Iterable[Path]], max_bytes: int):
        self.name = name
        self.files = files
        self.max_bytes = max_bytes
        self.listed: dict[Path, set[str]] = {}  # the names in each folder, listed once
        self._queue: queue.Queue = queue.Queue()  # (path, bytes or a function returning them), in order
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._disk_bytes: int | None = None  # on disk, as of the last listing plus what was written since

    def start(self) -> None:
        """Start the writing thread (once): a host does before it serves, as starting a thread on a
        build's path costs it milliseconds (the new thread takes the interpreter's lock first)."""
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
                self._thread.start()

    def put(self, path: Path, data: memoryview | bytes | Callable[[], bytes]) -> None:
        self.start()
        self._queue.put((path, data))

    def names(self, folder: Path) -> set[str]:
        """The files in a folder, listed once (then kept up to date by this writer)."""
        names = self.listed.get(folder)
        if names is None:
            try:
                names = set(os.listdir(folder))
            except OSError:
                names = set()
            with self._lock:
                names = self.listed.setdefault(folder, names)
        return names

    @staticmethod
    def used(path: Path) -> None:
        """A file just read: the most recently used, evicted last."""
        try:
            os.utime(path)
        except OSError:
            pass

    def unlink(self, path: Path) -> None:
        path.unlink(missing_ok=True)
        self.names(path.parent).discard(path.name)

    def _run(self) -> None:
        background_priority()  # copying megabytes to disk yields the CPU to uploads, builds and runs
        while True:
            path, data = self._queue.get()
            try:
                self._write(path, data)
            finally:
                self._queue.task_done()

    def _write(self, path: Path, data) -> None:
        try:
            data = data() if callable(data) else data
        except Exception as e:  # what cannot be encoded stays in memory only
            log.debug("not written to disk: %s", e)
            return
        try:
            write_atomic(path, data)
            self.names(path.parent).add(path.name)
            size = memoryview(data).nbytes
            if self._disk_bytes is None or self._disk_bytes + size > self.max_bytes:
                self._disk_bytes = trim_oldest(self.files(), self.max_bytes, self.unlink)  # listed only when it may be over
            else:
                self._disk_bytes += size
        except OSError as e:  # a full or read-only disk only costs the next restart some work
            log.warning("cannot write %s to disk: %s", self.name, e)
            self.unlink(path)

    def flush(self) -> None:
        """Wait until everything put so far is written."""
        self._queue.join()


class _Optimizer:
    """The one thread that writes optimized models, for every cache: at the lowest priority, one
    model at a time, each at least OPTIMIZE_AFTER_S after its build (whose reply goes first)."""

    def __init__(self):
        self._jobs: queue.Queue = queue.Queue()  # (due time, cache, key)
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._writing = threading.Lock()  # held while a model is written
        self._exiting = False

    def start(self) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="webnn-optimize", daemon=True)
                self._thread.start()

    def submit(self, cache: CompileCache, key: str) -> None:
        self.start()
        self._jobs.put((time.monotonic() + OPTIMIZE_AFTER_S, cache, key))

    def _run(self) -> None:
        background_priority()
        while True:
            due, cache, key = self._jobs.get()
            time.sleep(max(0.0, due - time.monotonic()))
            with self._writing:
                try:
                    cache._write_queued(key, not self._exiting)
                except Exception as e:  # never ends the thread
                    log.debug("optimized model not written: %s", e)

    def stop(self) -> None:
        """At exit: the model in hand is finished (a thread still inside the runtime while the
        interpreter ends could crash it), the others dropped."""
        self._exiting = True
        if self._writing.acquire(timeout=10):
            self._writing.release()


OPTIMIZER = _Optimizer()
atexit.register(OPTIMIZER.stop)


def background_priority() -> None:
    """The calling thread yields the CPU to everything else (Linux: nice is per thread; elsewhere
    nothing changes). For the host's disk writers: uploads, builds and runs come first."""
    if sys.platform.startswith("linux"):
        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
        except OSError:
            pass


@functools.lru_cache(maxsize=1)
def default_cache() -> CompileCache:
    """The in-memory cache of an ML built without one (Python users, tests)."""
    return CompileCache()
