"""The backend interface: probe / capabilities / compile / run."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import math
import os
import threading
import time
import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import numpy as np

from webnn_bridge.ops.core import OperandDesc, OperationError
from webnn_bridge.ops.graph import GraphIR, is_ref, node_refs
from webnn_bridge.ops.registry import Capabilities, Limits, load_all  # noqa: F401 (Capabilities: re-exported)


@dataclass(frozen=True)
class Device:
    """One place a graph can run. ``name``/``details`` are for the operator's CLI, never for pages."""

    id: str  # stable key, e.g. "onnxruntime:CPUExecutionProvider"
    kind: str  # "cpu" | "gpu" | "npu"
    backend: str  # backend class name attribute
    name: str = ""
    details: Mapping[str, str] = field(default_factory=dict)
    # providers to try in order (ONNX Runtime EPs); the last one is the in-device fallback
    providers: tuple[str, ...] = ()
    # options of the first provider (ONNX Runtime provider options: device_id, device_type, ...)
    options: Mapping[str, str] = field(default_factory=dict)
    # a CPU mode: intra-op threads for what is compiled on this device (0: the backend's own
    # choice). Never probed: the policy's placement sets it on a copy (Placement.threads) and only
    # for backends whose ``cpu_modes`` is true; the id stays the device's.
    threads: int = 0


class DeviceValue:
    """A tensor's contents in a backend's device memory (Compiled.run_resident): ``numpy()`` copies
    them to the host. Whoever holds it owns the device memory; dropping it frees it."""

    def numpy(self) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError


class Compiled:
    """A compiled graph: run() maps input arrays to output arrays (by WebNN names).
    ``fell_back`` is True when the runtime silently put the graph on its CPU instead of the
    device asked for (reported truthfully as CPU fallback)."""

    fell_back: bool = False
    # True: run_resident() keeps outputs in the device's memory (MLTensors hold them between
    # dispatches: write -> device, read -> host, dispatch never copies through the host)
    resident: bool = False

    def run(self, inputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:  # pragma: no cover
        raise NotImplementedError

    def upload(self, name: str, array: np.ndarray) -> DeviceValue:
        """Input ``name``'s array copied into device memory (a written MLTensor keeps it)."""
        raise NotImplementedError  # pragma: no cover

    def run_resident(self, inputs: Mapping[str, np.ndarray | DeviceValue]) -> dict[str, DeviceValue]:
        """Inputs as host arrays or as values a run_resident() returned (used where they are,
        when on this graph's device); outputs left in device memory."""
        raise NotImplementedError  # pragma: no cover

    def close(self) -> None:
        pass


class Backend:
    name: ClassVar[str]
    # takes a thread count per compiled graph on its CPU devices (Device.threads): the policy's
    # CPU modes; a backend without it runs every graph with its own threading
    cpu_modes: ClassVar[bool] = False
    _instance: ClassVar[Backend | None] = None

    @classmethod
    def instance(cls) -> Backend:
        if cls.__dict__.get("_instance") is None:
            cls._instance = cls()
        return cls._instance

    @classmethod
    def probe(cls) -> list[Device]:
        """Devices this backend can use on this machine; [] when its runtime is missing."""
        raise NotImplementedError

    def capabilities(self, device: Device) -> Capabilities:
        return Capabilities(ops={name: dict(op.limits) for name, op in load_all().items() if self.implements(name)})

    def implements(self, op: str) -> bool:
        return True

    def compile(self, graph: GraphIR, device: Device) -> Compiled:
        raise NotImplementedError

    def warm_up(self) -> None:
        """One-time setup of the runtime, done by a host before it serves (not by the first build)."""

    # -- compile cache (backends/cache.py); a backend that returns no token is never cached
    def cache_token(self, device: Device) -> str | None:
        """What besides the graph decides the compiled result (runtime version, device, code)."""
        return None

    def artifact(self, graph: GraphIR, device: Device) -> bytes:
        """The compile work worth keeping on disk (load_artifact turns it into a Compiled)."""
        raise NotImplementedError

    def load_artifact(self, artifact: bytes, graph: GraphIR, device: Device) -> Compiled:
        raise NotImplementedError

    # -- the runtime's own optimized model, kept beside the artifact (ONNX Runtime's CPU EP)
    def optimized_token(self, graph: GraphIR, device: Device) -> str | None:
        """What besides the cache key decides the runtime's optimized model (its build, the CPU);
        None: this backend keeps none for this graph on this device."""
        return None

    def save_optimized(self, artifact: bytes, graph: GraphIR, device: Device, folder: Path, data_tmp: str,
                       data_name: str) -> bytes:
        """Writes the optimized model's data to ``folder / data_tmp``; returns the model, which
        reads it from ``data_name`` in the same folder."""
        raise NotImplementedError

    def load_optimized(self, model: bytes, folder: Path, graph: GraphIR, device: Device) -> Compiled:
        """Raises when the runtime refuses the model (the cache then loads the artifact)."""
        raise NotImplementedError


@functools.cache
def code_fingerprint(*files: str) -> str:
    """A digest of the op registry's code (ops/) and ``files`` (a backend's own lowering): what a
    compile cache token names, so that an artifact on disk is reused only by the code that made it."""
    from webnn_bridge import ops

    h = hashlib.blake2b(digest_size=16)
    for f in sorted(Path(ops.__file__).parent.rglob("*.py")) + [Path(f) for f in files]:
        h.update(f.read_bytes())
    return h.hexdigest()


def lower_nodes(graph: GraphIR, values: dict, lowering: str, builder, runtime: str, check) -> None:
    """The graph's nodes lowered in order by each op's ``lowering`` (its registry row's attribute,
    e.g. "coreml", "litert") with ``builder``: operands as ``values`` (operand id -> the runtime's
    value), each output checked by ``check(value, operand_id, what)`` and added to ``values``. An op
    without that lowering, or a variant its lowering cannot express (NotImplementedError), is an
    OperationError naming ``runtime``."""
    registry = load_all()
    for i, node in enumerate(graph.nodes):
        fn = getattr(registry[node.op], lowering)
        if fn is None:
            raise OperationError(f"{runtime}: {node.op} has no {runtime} lowering")
        call = node.call.map_operands(lambda r: values[r.id], is_ref)
        try:
            outs = fn(builder, call)
        except NotImplementedError as e:
            raise OperationError(f"{runtime}: {node.op}: {e}") from e
        for k, (oid, v) in enumerate(zip(node.outputs, outs)):
            check(v, oid, f"node {i} ({node.op}) output {k}")
            values[oid] = v


def check_inputs(graph: GraphIR, inputs: Mapping[str, np.ndarray]) -> None:
    for name, desc in graph.input_descs().items():
        a = inputs[name]
        if a.dtype != desc.numpy_dtype or tuple(a.shape) != desc.shape:
            raise ValueError(f"input {name}: got {a.dtype}{list(a.shape)}, expected {desc}")


def contiguous(a) -> np.ndarray:
    """``a`` as a C-contiguous array of its own shape. (``np.ascontiguousarray`` gives a rank-0
    array shape (1,): a scalar input or output would change rank.)"""
    a = np.asarray(a)
    return a if a.flags.c_contiguous else np.ascontiguousarray(a).reshape(a.shape)


def desc_of(a: np.ndarray) -> OperandDesc:
    from webnn_bridge.ops.core import data_type_of

    return OperandDesc(data_type_of(a), tuple(a.shape))


# -- CPU thrift (issue 39): how many threads a runtime's pool may use for a graph, the same rule for
# every runtime (ONNX Runtime, OpenVINO, PyTorch), and whether pool threads may spin.
SPIN_ENV = "WEBNN_BRIDGE_SPIN"  # "1": pool threads spin between a run's operators (`serve --spin`)
THRIFT_THREADS = 2  # the most threads a pool gets by default (see pool_threads)
ACTIVE_WINDOW_S = 1.0  # a page is active while its latest dispatch is at most this old


def spinning() -> bool:
    """Whether runtimes' pool threads may spin (busy-wait) for work: off unless asked for
    (``serve --spin`` or WEBNN_BRIDGE_SPIN=1), since a spinning pool burns cores the page's
    browser needs; spinning saves the wake-up of sleeping threads (about 0.2 ms a run)."""
    return os.environ.get(SPIN_ENV, "") == "1"


def cpu_cores() -> int:
    """The cores this process may use: its CPU affinity, bounded by a cgroup (v2) CPU quota."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    try:
        with open("/sys/fs/cgroup/cpu.max") as f:
            quota, period = f.read().split()[:2]
        if quota != "max":
            cores = min(cores, max(1, math.ceil(int(quota) / int(period))))
    except (OSError, ValueError):
        pass
    return max(1, cores)


class ActivePages:
    """The pages (host sessions) that dispatched in the last ``window`` seconds; a closed one no
    longer counts. Thread-safe; sessions call touch() on each dispatch."""

    def __init__(self, window: float = ACTIVE_WINDOW_S):
        self.window = window
        self._seen: dict[int, tuple[float, weakref.ref]] = {}
        self._lock = threading.Lock()

    def touch(self, page: object) -> None:
        now = time.monotonic()
        with self._lock:
            entry = self._seen.get(id(page))
            if entry is not None and entry[1]() is page:
                self._seen[id(page)] = (now, entry[1])
                return
            try:
                ref = weakref.ref(page)
            except TypeError:
                return
            self._seen[id(page)] = (now, ref)
            if len(self._seen) > 4096:
                self._prune(now)

    def _prune(self, now: float) -> None:
        for key, (t, ref) in list(self._seen.items()):
            page = ref()
            if page is None or now - t > self.window or getattr(page, "closed", False):
                del self._seen[key]

    def count(self) -> int:
        with self._lock:
            self._prune(time.monotonic())
            return len(self._seen)


ACTIVE_PAGES = ActivePages()


# A graph gets a thread pool (pool_threads()) when threads shorten its runs: measured on the 2-core
# machine with pools that do not spin (CPU thrift), one run after each pause a page's round trip
# makes, a second thread slowed every model under about 1 ms of single-thread work (openWakeWord's
# embedding, 85 MFLOP: 0.80 -> 0.87 ms; an OCR direction classifier, 35 MFLOP: 0.60 -> 1.19 ms;
# six 1024x1024 matmuls on 16 rows, 200 MFLOP: 0.89 -> 0.93 ms) while it cost up to 2x the CPU
# time: waking a sleeping thread for each operator costs more than it saves. An OCR recogniser
# (1.5 GFLOP) ran 11.8 -> 9.7 ms. Memory-bound graphs with big values gain too.
POOL_MIN_FLOPS = 3e8
POOL_MIN_VALUE_BYTES = 16 << 20


# A runtime's own compile call that releases the GIL for its whole length, arguments included
# (OpenVINO's compile_model): a thread that compiles on idle CPU time only (bridge/tier_up.py)
# lowers its priority inside such calls alone. Were it of idle priority while it holds the GIL,
# every other thread of the host would wait for it as long as the machine stays busy (a priority
# inversion: with two cores kept busy, MobileNetV2's dispatches waited 2.5 to 4.8 s while a
# tier-up compile's Python lowering held the GIL). A call that copies a big argument holding the
# GIL first (read_model's bytes, ONNX Runtime's session's model) is not such a call.
_NATIVE = threading.local()


@contextlib.contextmanager
def native_work():
    """Around a runtime's call that releases the GIL for its whole length: the calling thread's
    priority switch (native_work_priority), when it has one, lowers its priority there alone."""
    switch = getattr(_NATIVE, "switch", None)
    if switch is None:
        yield
        return
    switch(True)
    try:
        yield
    finally:
        switch(False)


def native_work_priority(switch) -> None:
    """The calling thread's priority switch for native_work (``switch(low: bool)``; None: none)."""
    _NATIVE.switch = switch


def graph_value_bytes(graph: GraphIR) -> int:
    """The bytes of every value a graph computes (an upper bound of what a run allocates)."""
    return sum(graph.operands[o].byte_length for n in graph.nodes for o in n.outputs)


def graph_peak_value_bytes(graph: GraphIR) -> int:
    """The most bytes of computed values alive at once when the nodes run in the graph's order (a
    value lives from its node until the last node that reads it; outputs to the end): about what
    a runtime's memory plan holds at its peak. Far below graph_value_bytes for deep graphs (the
    OCR detector: 11 MiB at once of 162 MiB in all)."""
    last: dict[int, int] = {}
    for i, node in enumerate(graph.nodes):
        for oid in node_refs(node):
            last[oid] = i
    outputs = set(graph.outputs.values())
    live = peak = 0
    alive: dict[int, int] = {}
    for i, node in enumerate(graph.nodes):
        for oid in node.outputs:
            alive[oid] = graph.operands[oid].byte_length
            live += alive[oid]
        peak = max(peak, live)
        for oid in set(node_refs(node)):
            if last[oid] == i and oid in alive and oid not in outputs:
                live -= alive.pop(oid)
    return peak


def gains_from_threads(graph: GraphIR) -> bool:
    """Whether a graph's runs are long enough for a thread pool to pay for its wake-ups (above)."""
    from webnn_bridge.ops.cost import graph_flops

    return graph_value_bytes(graph) >= POOL_MIN_VALUE_BYTES or graph_flops(graph) >= POOL_MIN_FLOPS


class PoolSlots:
    """At most ``limit`` compiled graphs hold a thread pool of their own at once (thread-safe)."""

    def __init__(self, limit: int):
        self.limit = limit
        self.used = 0
        self._lock = threading.Lock()

    def take(self) -> bool:
        with self._lock:
            if self.used >= self.limit:
                return False
            self.used += 1
            return True

    def give_back(self) -> None:
        with self._lock:
            self.used -= 1


POOL_THREADS = 64  # at most this many pool threads in all, ONNX Runtime's sessions' and LiteRT's interpreters'
POOLED_SESSIONS = max(1, POOL_THREADS // min(THRIFT_THREADS, cpu_cores()))  # compiled graphs with a pool at once
POOL_SLOTS = PoolSlots(POOLED_SESSIONS)


class HoldsPool:
    """A compiled graph whose runtime gives it a thread pool of its own (ONNX Runtime's session,
    LiteRT's interpreter) while it holds one of POOL_SLOTS; its close() calls give_back_pool()."""

    pooled = False

    def take_pool(self, threads: int) -> int:
        """The threads the graph runs on: ``threads`` where it asks for a pool and a slot is free,
        else 1 (the caller's thread alone)."""
        self.pooled = threads > 1 and POOL_SLOTS.take()
        return threads if self.pooled else 1

    def give_back_pool(self) -> None:
        """Its slot back (the pool's threads end with the runtime's object)."""
        if self.pooled:
            self.pooled = False
            if POOL_SLOTS is not None:  # None only while the interpreter shuts down
                POOL_SLOTS.give_back()

    def close(self) -> None:
        self.give_back_pool()

    def __del__(self):
        if self.pooled:
            self.close()


def graph_threads(graph: GraphIR, threads: int | None = 0) -> int:
    """The threads a CPU runtime runs ``graph`` on: a CPU mode's (Device.threads), else the
    backend's choice, the same for every runtime: pool_threads() for a graph that gains from
    threads, one thread otherwise."""
    return threads or (pool_threads() if gains_from_threads(graph) else 1)


def pool_threads(active: int | None = None) -> int:
    """The threads a runtime's pool gets for a graph compiled now when the policy sets no CPU mode
    (Device.threads 0): the cores this process may use shared by the pages that dispatch now
    (``active``, default ACTIVE_PAGES.count(), at least one), and at most THRIFT_THREADS.
    ONNX Runtime, OpenVINO and PyTorch take the same count, so the runs that overlap (the host runs
    at most one job per page, on a worker per core) hold about a thread per core between them.
    The bound: n threads busy through a run cost n times its latency in CPU time, which the page's
    browser, on the same cores, goes without (issue 39 asks for at most 1.5x); a policy's
    cpu_threads (rules.toml) gives a graph more. A pool's size is fixed when its graph is compiled
    (ONNX Runtime has no per-run thread count): a graph compiled while many pages were active keeps
    its smaller pool."""
    pages = ACTIVE_PAGES.count() if active is None else active
    return max(1, min(THRIFT_THREADS, cpu_cores() // max(1, pages)))
