"""The WebNN object model in Python: ML, MLContext, MLGraphBuilder, MLOperand, MLGraph, MLTensor.

Names follow the spec (camelCase) so that Python code reads like a page's JavaScript, and every
call goes through the same WebIDL conversion (ops/idl.py) and op registry as calls from pages.
The host's sessions drive these objects; tests and Python users can use them directly:

    ml = ML()
    ctx = ml.createContext({"powerPreference": "low-power"})
    b = MLGraphBuilder(ctx)
    x = b.input("x", {"dataType": "float32", "shape": [2]})
    g = b.build({"y": b.relu(x)})
    print(ctx.compute(g, {"x": np.array([-1, 2], np.float32)}))
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import functools
import itertools
import logging
import queue
import threading
import time
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from webnn_bridge.backends import all_backends, backend_for
from webnn_bridge.backends.base import Capabilities, Compiled, Device
from webnn_bridge.backends.cache import CompileCache, default_cache
from webnn_bridge.backends.crash_journal import runtime_token
from webnn_bridge.ops import idl
from webnn_bridge.ops.calls import (
    OperandChecks,
    OperandLike,
    check_dispatch,
    check_input_name,
    check_new_operand,
    check_scalar_constant,
    infer_call,
    is_operand,
    prepare_call,
)
from webnn_bridge.ops.core import (
    DATA_TYPES,
    SHAPE_GUARD,
    InvalidStateError,
    NotSupportedError,
    OperandDesc,
    OperationError,
    UnknownError,
    WebNNError,
    WebNNTypeError,
    cast_number,
    check_dimensions,
    check_rank_first,
    desc_from_dict,
    pack,
    unpack,
)
from webnn_bridge.ops.graph import GraphIR, Node, Ref
from webnn_bridge.ops.registry import load_all

from .budget import MemoryBudget, graph_bytes
from .buffers import array_from_bytes, buffer_bytes, constant_array, input_array
from .keywords import operator_method
from .memo import BuildMemo, ConstantStore

log = logging.getLogger("webnn_bridge.api")
# ML.prepare_recent: the most recent builds of a kind of context a restarted host prepares when
# one opens, and how often per kind
PREPARE_GRAPHS = 4
PREPARE_EVERY_S = 60.0
PREPARE_MAX_BYTES = 64 << 20  # a bigger graph's constants are not read into memory on a guess

# --------------------------------------------------------------------------- operands


class MLOperand(OperandLike):
    _ids = itertools.count(1)

    def __init__(self, builder: MLGraphBuilder, desc: OperandDesc, kind: str, name: str | None = None):
        self.builder = builder
        self.desc = desc
        self.kind = kind  # "input" | "constant" | "output"
        self.name = name
        self.id = next(MLOperand._ids)
        self.node: Node | None = None
        self.constant_tensor: MLTensor | None = None

    def __repr__(self) -> str:
        return f"MLOperand({self.kind} {self.desc})"


idl.register_interface("MLOperand", is_operand)


# --------------------------------------------------------------------------- ML


class ML:
    """navigator.ml. ``inventory`` is the device list (default: probed from installed runtimes)."""

    def __init__(self, inventory: Iterable[Device] | None = None, rules=None, simulated: bool = False,
                 compile_cache: CompileCache | None = None):
        from webnn_bridge.policy.inventory import probe_inventory

        self.inventory = list(inventory) if inventory is not None else probe_inventory()
        self.rules = rules
        self.simulated = simulated
        self.budget = MemoryBudget(None, name="host")  # host-wide; the server sets its limit
        # identical graphs share compiled sessions (backends/cache.py); default: in memory only
        self.compile_cache = compile_cache if compile_cache is not None else default_cache()
        self.tier_up = True  # graphs may tier up (rules.toml [tier_up]); off while the host records a policy trace
        self.session_limits = None  # what each page may hold (bridge.session.SessionLimits), set by the server
        # validated build messages of the host's pages (memo.py), and the constant bytes pages
        # uploaded, by origin and digest: on disk beside the compile cache's entries
        directory = self.compile_cache.directory
        self.build_memo = BuildMemo(directory=directory / "memo" if directory is not None else None,
                                    fingerprint=self.memo_fingerprint)
        self.constant_store = ConstantStore(directory=directory / "constants" if directory is not None else None)
        self._memo_fingerprint: str | None = None
        # serve --page-local: the page's own runtime (backends/page.py), where the policy's [page]
        # rules may place small graphs of contexts whose page can run them (MLContext.page_local)
        self.page_device: Device | None = None
        # prepare_recent (on when a server runs this ML: ``prepares``): when each memo group was
        # last prepared, the thread that prepares and how many jobs it has left
        self.prepares = False
        self._prepared: dict[str, float] = {}
        self._prepare_done = threading.Condition()
        self._prepare_pending = 0
        self._prepare_queue: queue.SimpleQueue | None = None

    def recalled(self, key: str, group: str, body: bytes, origin: str):
        """A build memo disk entry's bytes (BuildMemo.recall / recent) as a memo.Validated, its
        constants read from ``origin``'s store when needed; None (and the entry deleted) when
        this host cannot read it."""
        from . import memo_disk

        try:
            # the devices a placement may name: the page's runtime too (a graph placed in the page)
            return memo_disk.decode(body, self.placeable, functools.partial(self.constant_store.get, origin))
        except (ValueError, KeyError, TypeError, IndexError, AttributeError, RecursionError) as e:
            log.warning("ignoring a build memo entry this host cannot read: %r", e)
            self.build_memo.forget(key, group)
            return None

    def prepare_recent(self, ctx: MLContext, origin: str) -> None:
        """A context opens: on a thread of its own, the builds that contexts of its kind from its
        origin made last (the build memo's disk group, at most PREPARE_GRAPHS, used within a week)
        are read back and their sessions compiled (from the compile cache's disk entries), then let
        go warm, so that the page's build() of one of them finds it ready, as after a reload, where
        a restarted host would read and load it on the build's path (MobileNetV2: about 10 ms,
        while the page's builder calls take 20 ms or more). Once a minute per group at most; only
        with a disk cache; graphs of more than PREPARE_MAX_BYTES of constants are left out. What it
        prepares is what the page's build would have made: a build that arrives meanwhile takes the
        same entries (the compile cache compiles one graph once)."""
        if not self.prepares or self.build_memo.directory is None or not ctx.cache_partition:
            return
        from .memo import memo_group

        group = memo_group(ctx.cache_partition, ctx.memo_key)
        now = time.monotonic()
        with self._prepare_done:
            last = self._prepared.get(group)
            if last is not None and now - last < PREPARE_EVERY_S:
                return
            if len(self._prepared) >= 1024:  # a long-lived host: only the groups prepared within the minute
                self._prepared = {g: t for g, t in self._prepared.items() if now - t < PREPARE_EVERY_S}
            self._prepared[group] = now
            self._start_preparing()
            self._prepare_pending += 1
        self._prepare_queue.put((ctx, origin, group))

    def _start_preparing(self) -> None:
        """prepare_recent's thread, started once (by warm_up where this ML prepares)."""
        if self._prepare_queue is None:
            self._prepare_queue = queue.SimpleQueue()
            threading.Thread(target=self._prepare_loop, args=(self._prepare_queue,), name="webnn-prepare",
                             daemon=True).start()

    def wait_prepared(self, timeout_s: float = 10.0) -> bool:
        """Wait (at most ``timeout_s``) until prepare_recent has nothing left to do (tests)."""
        with self._prepare_done:
            return self._prepare_done.wait_for(lambda: self._prepare_pending == 0, timeout_s)

    def _prepare_loop(self, jobs: queue.SimpleQueue) -> None:
        while True:
            ctx, origin, group = jobs.get()
            try:
                self._prepare(ctx, origin, group)
            except Exception:  # preparing is a head start only: the page's build does the same work
                log.debug("preparing the recent builds of a context failed", exc_info=True)
            finally:
                with self._prepare_done:
                    self._prepare_pending -= 1
                    self._prepare_done.notify_all()

    def _prepare(self, ctx: MLContext, origin: str, group: str) -> None:
        for key, body in self.build_memo.recent(group, PREPARE_GRAPHS):
            if ctx.is_lost:  # destroyed, or its page left
                return
            hit = self.build_memo.get(key)
            if hit is None:
                hit = self.recalled(key, group, body, origin)
                if hit is None:
                    continue
                self.build_memo.put(key, hit)  # in memory: the page's build of it skips the disk
            if hit.size > PREPARE_MAX_BYTES:
                continue
            # warm in the compile cache (a graph the page runs: the model the page gets, and the
            # host's compile that runs it until the page's session of it is warm: a reloaded
            # page's is not)
            ctx.compile(hit.ir, hit.placement, hit.digest).close()
            if hit.placement.device.backend == "page":
                from webnn_bridge.policy import engine

                host = engine.decide_build(ctx.decision, hit.ir, self.inventory, self.rules)
                ctx.compile(hit.ir, host, hit.digest).close()

    @property
    def placeable(self) -> list[Device]:
        """Every device a placement may name: the inventory and the page's runtime when served."""
        return self.inventory + ([self.page_device] if self.page_device is not None else [])

    def memo_fingerprint(self) -> str:
        """What besides a build message decides its validation here (memo_disk.host_fingerprint):
        the build memo's disk entries of another host are not read."""
        if self._memo_fingerprint is None:
            from .memo_disk import host_fingerprint

            self._memo_fingerprint = host_fingerprint(self.inventory, self.rules, self.simulated)
        return self._memo_fingerprint

    def flush_to_disk(self, timeout_s: float = 10.0) -> bool:
        """Wait (at most ``timeout_s``) until what the host queued for its disk caches is written
        (constants, build memo entries, optimized models): a host that stops does so before its
        restart needs them. Whether everything was written in time."""
        def flush() -> None:
            self.constant_store.flush()
            self.build_memo.flush()
            self.compile_cache.flush()

        writer = threading.Thread(target=flush, name="webnn-flush", daemon=True)
        writer.start()
        writer.join(timeout_s)
        return not writer.is_alive()

    def warm_up(self) -> None:
        """Set up the runtimes of the inventory's devices and the disk caches' writers once (a host
        does, before serving)."""
        if self.build_memo.directory is not None:
            self.memo_fingerprint()
        for store in (self.constant_store, self.build_memo, self.compile_cache):
            store.start_writing()
        if self.prepares and self.build_memo.directory is not None:
            with self._prepare_done:
                self._start_preparing()
        names = {d.backend for d in self.inventory}
        for cls in all_backends():
            if cls.name in names:
                try:
                    cls.instance().warm_up()
                except Exception:  # a runtime that fails here fails its builds with the usual errors
                    log.exception("warming up %s failed", cls.name)

    def createContext(self, options: Mapping | None = None) -> MLContext:  # noqa: N802
        from webnn_bridge.policy import engine

        _, conv = idl.convert_args("ML", "createContext", [dict(options or {})])
        opts = conv["options"]
        decision = engine.decide_context(opts, self.inventory, self.rules)
        if decision.device is None:
            raise NotSupportedError("No device can satisfy these context options: " + "; ".join(decision.reasons))
        return MLContext(self, opts, decision)


class MLContext(OperandChecks):
    def __init__(self, ml: ML, options: dict, decision):
        self.ml = ml
        self.options = options
        self.decision = decision
        self.device: Device = decision.device
        # the execution device: in a simulated inventory everything really runs on the CPU backend
        self.exec_device: Device = decision.exec_device or decision.device
        self.backend = backend_for(self.exec_device)
        from webnn_bridge.policy import engine, privacy

        rules = ml.rules or engine.default_rules()
        # What the page is told and what the builder enforces are the same thing: the canonical
        # profile (privacy bucket) that fits inside what this context executes.
        truth = engine.context_capabilities(decision, ml.inventory, rules)
        self.profile = privacy.bucket_profile(truth, rules)
        self.limits_profile: str = self.profile.name
        self.capabilities: Capabilities = self.profile.caps
        self._limits = privacy.profile_limits(self.profile)  # shared by the profile's contexts: read only
        hint = bool(options.get("accelerated", True))
        if rules.get("privacy", {}).get("accelerated", "echo") == "effective":
            self.accelerated: bool = decision.device.kind != "cpu"
        else:
            self.accelerated = hint
        self._lost_event = threading.Event()
        self.lost_info: dict | None = None
        self.budget: MemoryBudget = ml.budget  # a host session replaces it with its own
        self.charged = 0  # bytes the context itself holds in its budget (see bridge.session)
        self.graphs: list[MLGraph] = []
        self.tensors: list[MLTensor] = []
        # compile caches are partitioned by this (the host sets the page's origin): a build's
        # timing must never reveal what another origin built
        self.cache_partition = ""
        # the page behind this context runs graphs itself (the host sets it when the page says so
        # and serves a page runtime): builds may then be placed on ml.page_device
        self.page_local = False

    # -- state
    @property
    def is_lost(self) -> bool:
        return self._lost_event.is_set()

    def destroy(self, message: str = "destroy() was called.") -> None:
        if self.is_lost:
            return
        self.lost_info = {"message": message}
        self._lost_event.set()
        for g in list(self.graphs):
            g.destroy()
        for t in list(self.tensors):
            t.destroy()
        self.budget.release(self.charged)
        self.charged = 0

    def compile(self, ir: GraphIR, placement, digest: str | None = None) -> Compiled:
        """Compile where the placement says: real devices run their own segments (a partition
        hands tensors between backends); a simulated placement runs on the execution CPU.
        ``digest``: the graph's digest when the caller knows it (the compile cache's key).
        With a crash journal (a host with a cache folder) the compile is journaled."""
        journal = self.ml.compile_cache.journal
        if journal is None:
            return self._compile(ir, placement, digest)
        from webnn_bridge.backends.cache import graph_digest

        digest = digest or graph_digest(ir)
        ops = sorted({n.op for n in ir.nodes})
        with journal.building(digest, f"{len(ir.nodes)} node(s): {', '.join(ops[:12])}"):
            return self._compile(ir, placement, digest)

    @staticmethod
    def _on_exec_device(placement) -> bool:
        """Whether a graph of this placement runs whole on the context's execution device (no
        placement, or a simulated one) rather than on the placement's real devices."""
        from webnn_bridge.policy.inventory import is_simulated

        return placement is None or not placement.assignment or placement.simulated or is_simulated(placement.device)

    def _placed_devices(self, placement) -> list[Device]:
        """The devices that compile and run a graph of this placement."""
        if self._on_exec_device(placement):
            return [self.exec_device]
        by_id = {d.id: d for d in self.ml.placeable}
        return [by_id[i] for i in dict.fromkeys(placement.assignment) if i in by_id]

    def _avoid_crashes(self, ir: GraphIR, placement, digest: str, journal):
        """The placement, or a new one without the devices whose runtime crashed the host before
        (backends/crash_journal.py): for this graph, for graphs of its operator signature (the same
        operators on the same data types), and, once this page's origin has crashed the host
        ORIGIN_CRASH_CAP times, for all of that origin's graphs (they keep the devices a crash
        cannot take down: the reference). Tells the journal the graph's signature and origin, which
        its compile and runs are noted with."""
        from webnn_bridge.backends import crash_journal as cj

        ops = cj.operator_signature(ir)
        signature = cj.signature_key(ops)
        origin = cj.origin_key(self.cache_partition) if self.cache_partition else None  # pages have one
        journal.label(digest, signature, origin, ops)
        by_digest, by_signature, by_origin = journal.quarantined_for(digest, signature, origin)
        if not (by_digest or by_signature or by_origin):  # almost every graph: a few dictionary lookups
            return placement
        devices = {d.id: d for d in [*self.ml.inventory, self.exec_device]}
        tokens: dict[str, str | None] = {}

        def installed(device_id, token) -> bool:
            """Whether ``device_id`` is here with that runtime version."""
            if device_id not in tokens:
                d = devices.get(device_id)
                tokens[device_id] = runtime_token(backend_for(d), d) if d is not None else None
            return tokens[device_id] is not None and tokens[device_id] == token

        def current(device_id, recs) -> dict | None:
            """The record of ``recs`` for the runtime version ``device_id`` has now, if any."""
            return next((r for r in recs if installed(device_id, r.get("token"))), None)

        avoid = {}
        for device_id, recs in by_digest.items():
            if r := current(device_id, recs):
                avoid[device_id] = (f"this graph crashed the host's runtime on {device_id} before "
                                    f"({r.get('last', '?')}, {r.get('crashes', 1)} crash(es)): not compiled there again")
        for device_id, recs in by_signature.items():
            if device_id not in avoid and (r := current(device_id, recs)):
                shown = ", ".join(ops[:6]) + (f" and {len(ops) - 6} more" if len(ops) > 6 else "")
                avoid[device_id] = (f"graphs of the same operators ({shown}) crashed the host's runtime on {device_id} "
                                    f"before ({r.get('last', '?')}, {r.get('crashes', 1)} crash(es)): not compiled there")
        crashes = sum(any(installed(device_id, token) for device_id, token in r["devices"]) for r in by_origin)
        if crashes >= cj.ORIGIN_CRASH_CAP:
            for d in devices.values():
                if d.backend not in cj.SAFE_BACKENDS:
                    avoid.setdefault(d.id, f"this page's origin crashed the host's runtimes {crashes} times: its graphs "
                                           f"are not compiled on {d.id} (only where a crash cannot take the host down)")
        placed = [d.id for d in self._placed_devices(placement)]
        if not avoid.keys() & set(placed):
            return placement
        log.warning("graph %s: %s", digest[:12], "; ".join(avoid[i] for i in placed if i in avoid))
        if self._on_exec_device(placement):
            raise OperationError("The graph could not be compiled: " + "; ".join(avoid[i] for i in placed if i in avoid))
        from webnn_bridge.policy import engine

        return engine.decide_build(self.decision, ir, self.ml.inventory, self.ml.rules, avoid=avoid)

    def _compile(self, ir: GraphIR, placement, digest: str | None = None) -> Compiled:
        from webnn_bridge.backends.partition import compile_partitioned, fallback_after_compile
        from webnn_bridge.policy.inventory import takes_cpu_modes

        cache, part = self.ml.compile_cache, self.cache_partition
        if self._on_exec_device(placement):
            return cache.compile(self.backend, ir, self.exec_device, part, digest)
        devices = {d.id: d for d in self.ml.placeable}
        if placement.threads:  # the placement's CPU mode, on the CPUs whose backend takes one
            devices = {i: dataclasses.replace(d, threads=placement.threads) if takes_cpu_modes(d) else d
                       for i, d in devices.items()}
        compiled = compile_partitioned(ir, placement.assignment, devices,  # the whole graph keeps its digest
                                       lambda g, d: cache.compile(backend_for(d), g, d, part, digest if g is ir else None))
        fallback = fallback_after_compile(compiled, devices, placement.fallback)
        if fallback != placement.fallback:
            placement.fallback = fallback
            placement.reasons.append(f"the runtime could not use the accelerator: cpuFallback is {fallback}")
        return compiled

    def _tier_up(self, graph: MLGraph, digest: str | None) -> None:
        """Give a graph whose placement names a tier-up candidate its trial (bridge/tier_up.py):
        only a graph compiled whole for one real CPU here, its outputs in host memory."""
        placement = graph.placement
        if (not self.ml.tier_up or placement is None or placement.tier_up is None or self._on_exec_device(placement)
                or placement.fallback_device is not None or getattr(graph.compiled, "resident", False)):
            return
        from webnn_bridge.policy.engine import default_rules

        from .tier_up import TierUp

        rules = (self.ml.rules or default_rules()).get("tier_up", {})
        device = dataclasses.replace(placement.tier_up, threads=int(rules.get("threads", 1)))
        cache, part = self.ml.compile_cache, self.cache_partition
        tier = TierUp(graph, device, rules, lambda d: cache.compile(backend_for(d), graph.ir, d, part, digest))
        journal = self.ml.compile_cache.journal
        if journal is not None:
            tier.device_set = _device_set(journal, [device])
        graph.tier = tier

    def _pool_trial(self, graph: MLGraph, digest: str | None) -> None:
        """Give a graph compiled whole on one real CPU with a thread pool its thread-count trial
        (bridge/pool_trial.py, rules.toml [pool_trial]): only where the policy set no thread count
        (a CPU mode's is the page's or the rules' to keep) and nothing else may move the graph."""
        placement, compiled = graph.placement, graph.compiled
        runtime = getattr(compiled, "compiled", compiled)  # the runtime's own, behind the compile cache's reference
        if (not getattr(runtime, "pooled", False) or not self.ml.tier_up or graph.tier is not None or self._on_exec_device(placement)
                or placement.fallback_device is not None or placement.threads or placement.device.kind != "cpu"
                or any(d != placement.device.id for d in placement.assignment) or getattr(compiled, "resident", False)):
            return
        from webnn_bridge.policy.engine import default_rules

        from .pool_trial import PoolTrial

        rules = (self.ml.rules or default_rules()).get("pool_trial", {})
        if not rules.get("enabled", False):
            return
        device = dataclasses.replace(placement.device, threads=1)
        cache, part = self.ml.compile_cache, self.cache_partition
        key = repr((placement.graph_hash or id(graph), placement.device.id, runtime.threads))
        graph.tier = PoolTrial(graph, runtime.threads, rules,
                               lambda: cache.compile(backend_for(device), graph.ir, device, part, digest), key)

    @property
    def memo_key(self) -> str:
        """What besides a graph decides its validation and placement in this context."""
        return repr((self.device.id, self.exec_device.id, self.limits_profile, self.accelerated,
                     sorted((k, repr(v)) for k, v in self.options.items()))
                    + (("page",) if self.page_local else ()))

    def graph_from_ir(self, ir: GraphIR, placement, digest: str | None = None) -> MLGraph:
        """The compile step of build(): a validated graph becomes an MLGraph of this context.
        Its bytes are reserved in the budget before compiling: the runtime may materialise values
        (constant folding) at once."""
        journal = self.ml.compile_cache.journal
        if journal is not None:  # devices on which this graph crashed the host before are left out
            from webnn_bridge.backends.cache import graph_digest

            digest = digest or graph_digest(ir)
            placement = self._avoid_crashes(ir, placement, digest, journal)
        charged = self.budget.charge(graph_bytes(ir), "build()", OperationError)
        try:
            compiled = self.compile(ir, placement, digest)
        except BaseException:
            self.budget.release(charged)
            raise
        graph = MLGraph(self, ir, compiled, placement)
        graph.charged = charged
        if journal is not None:  # its runs are journaled too, against every device it runs on
            devices = self._placed_devices(placement)
            graph.journal = (journal, digest, _device_set(journal, devices))
        self._tier_up(graph, digest)
        self._pool_trial(graph, digest)
        if self.is_lost:
            graph.destroy()
            raise InvalidStateError("The context was lost while building.")
        self.graphs.append(graph)
        return graph

    # -- limits
    def opSupportLimits(self) -> dict:  # noqa: N802
        return copy.deepcopy(self._limits)

    # -- tensors
    def createTensor(self, descriptor: Mapping) -> MLTensor:  # noqa: N802
        check_rank_first(descriptor, self.capabilities.max_rank, "tensor")
        _, conv = idl.convert_args("MLContext", "createTensor", [dict(descriptor)])
        if self.is_lost:
            raise InvalidStateError("The context is lost.")
        d = conv["descriptor"]
        desc = check_dimensions(desc_from_dict(d), "tensor", self.capabilities.max_rank)
        self._check_byte_length(desc)
        t = MLTensor(self, desc, readable=d["readable"], writable=d["writable"], constant=False)
        t.charged = self.budget.charge(desc.byte_length, "createTensor")
        t.data = np.zeros(desc.shape, desc.numpy_dtype)
        self.tensors.append(t)
        return t

    def createConstantTensor(self, descriptor: Mapping, inputData: Any) -> MLTensor:  # noqa: N802,N803
        check_rank_first(descriptor, self.capabilities.max_rank, "tensor")
        _, conv = idl.convert_args("MLContext", "createConstantTensor", [dict(descriptor), inputData])
        if self.is_lost:
            raise InvalidStateError("The context is lost.")
        desc = check_dimensions(desc_from_dict(conv["descriptor"]), "tensor", self.capabilities.max_rank)
        self._check_byte_length(desc)
        raw = buffer_bytes(conv["inputData"], desc, "createConstantTensor")
        t = MLTensor(self, desc, readable=False, writable=False, constant=True)
        t.charged = self.budget.charge(desc.byte_length, "createConstantTensor")
        t.data = array_from_bytes(raw, desc)
        self.tensors.append(t)
        return t

    def _check_tensor(self, tensor: Any, what: str) -> MLTensor:
        if not isinstance(tensor, MLTensor):
            raise WebNNTypeError(f"{what} is not an MLTensor.")
        if tensor.context is not self:
            raise WebNNTypeError(f"{what} belongs to another context.")
        if tensor.destroyed:
            raise WebNNTypeError(f"{what} has been destroyed.")
        return tensor

    def _writable(self, tensor: Any) -> MLTensor:
        t = self._check_tensor(tensor, "writeTensor: tensor")
        if not t.writable:
            raise WebNNTypeError("writeTensor: the tensor is not writable.")
        return t

    def _readable(self, tensor: Any) -> MLTensor:
        t = self._check_tensor(tensor, "readTensor: tensor")
        if not t.readable:
            raise WebNNTypeError("readTensor: the tensor is not readable.")
        if self.is_lost:
            raise InvalidStateError("The context is lost.")
        if t.failed is not None:
            raise UnknownError(f"readTensor: the tensor's contents are undefined: {t.failed}")
        return t

    def writeTensor(self, tensor: MLTensor, inputData: Any) -> None:  # noqa: N802,N803
        t = self._writable(tensor)
        raw = buffer_bytes(inputData, t.desc, "writeTensor")
        try:
            t.data = array_from_bytes(raw, t.desc)
        except MemoryError:
            t.fail("the write that was to fill it failed (the host ran out of memory)")
            raise

    def write_received(self, tensor: MLTensor, payload: memoryview, move: bool = False) -> None:
        """writeTensor with bytes the host received from a page: a read-only frame, so the
        tensor keeps a view of it instead of a copy (copied only when mutable or unaligned).
        ``move``: the shim moves the contents a graph in the page left (backends/page.py) to the
        host for a graph here: any tensor of the context, writable by the page or not."""
        t = self._check_tensor(tensor, "writeTensor: tensor") if move else self._writable(tensor)
        if len(payload) != t.desc.byte_length:
            raise WebNNTypeError(f"writeTensor: byte length {len(payload)} does not match {t.desc} "
                                 f"({t.desc.byte_length} bytes).")
        try:
            if DATA_TYPES[t.desc.data_type].is_packed:
                t.data = unpack(payload, t.desc)
                return
            a = np.frombuffer(payload, dtype=t.desc.numpy_dtype).reshape(t.desc.shape)
            t.data = a if payload.readonly and a.flags.aligned else a.copy()
        except MemoryError:
            t.fail("the write that was to fill it failed (the host ran out of memory)")
            raise

    def read_view(self, tensor: MLTensor, move: bool = False) -> np.ndarray:
        """readTensor for the host's sessions: the tensor's current contents, not copied (the
        caller serializes them at once; dispatch replaces, never mutates, a tensor's array).
        ``move``: the shim takes the contents to a graph in the page: readable by the page or not."""
        if move:
            t = self._check_tensor(tensor, "readTensor: tensor")
            if self.is_lost:
                raise InvalidStateError("The context is lost.")
            if t.failed is not None:
                raise UnknownError(f"the tensor's contents are undefined: {t.failed}")
            return t.data
        return self._readable(tensor).data

    def readTensor(self, tensor: MLTensor, outputData: Any = None) -> np.ndarray | None:  # noqa: N802,N803
        t = self._readable(tensor)
        if outputData is None:
            return t.data.copy()
        if isinstance(outputData, np.ndarray):
            if outputData.nbytes != t.desc.byte_length:
                raise WebNNTypeError("readTensor: output buffer byte length does not match the tensor.")
            outputData.reshape(-1).view(np.uint8)[:] = np.frombuffer(pack(t.data, t.desc.data_type), np.uint8)
            return None
        if isinstance(outputData, (bytearray, memoryview)):
            mv = memoryview(outputData).cast("B")
            if len(mv) != t.desc.byte_length:
                raise WebNNTypeError("readTensor: output buffer byte length does not match the tensor.")
            mv[:] = pack(t.data, t.desc.data_type)
            return None
        raise WebNNTypeError("readTensor: outputData is not a writable buffer.")

    # -- execution
    def dispatch(self, graph: MLGraph, inputs: Mapping, outputs: Mapping) -> None:
        if type(graph) is MLGraph and _tensor_record(inputs) and _tensor_record(outputs):
            inputs, outputs = dict(inputs), dict(outputs)  # what the IDL conversion would return
        else:
            _, conv = idl.convert_args("MLContext", "dispatch", [graph, dict(inputs), dict(outputs)])
            graph, inputs, outputs = conv["graph"], conv["inputs"], conv["outputs"]
        if graph.context is not self:
            raise WebNNTypeError("dispatch: the graph belongs to another context.")
        if graph.destroyed:
            raise InvalidStateError("dispatch: the graph has been destroyed.")
        for kind, named in (("input", inputs), ("output", outputs)):
            for name, t in named.items():
                self._check_tensor(t, f"dispatch: {kind} '{name}'")
        # The rules' verdict depends on the names, each tensor's descriptor and kind, and which
        # names share a tensor (ids of tensors alive together differ): a graph keeps the bindings
        # it accepted, so a page dispatching the same tensors again skips the checks.
        key = (tuple((n, id(t), t.desc.data_type, t.desc.shape, t.constant) for n, t in inputs.items()),
               tuple((n, id(t), t.desc.data_type, t.desc.shape, t.constant) for n, t in outputs.items()))
        if key not in graph.accepted:
            records = {kind: {name: {"id": id(t), "constant": t.constant, "dataType": t.desc.data_type,
                                     "shape": list(t.desc.shape)} for name, t in named.items()}
                       for kind, named in (("input", inputs), ("output", outputs))}
            check_dispatch(records["input"], records["output"], graph.resources["input"], graph.resources["output"])
            if len(graph.accepted) >= 64:
                graph.accepted.clear()
            graph.accepted.add(key)
        tier = graph.tier
        if tier is not None and tier.state != "done":
            return self._run_tiered(graph, tier, inputs, outputs)
        with self._journal_running(graph):
            return self._run(graph, inputs, outputs)

    @staticmethod
    def _journal_running(graph: MLGraph, device_set=None):
        """The crash journal's note of a run while it goes on (on the graph's devices, or on
        ``device_set``); nothing without a journal."""
        if graph.journal is None:
            return contextlib.nullcontext()
        journal, digest, devices = graph.journal
        return journal.running(digest, device_set or devices)

    def _run_tiered(self, graph: MLGraph, tier, inputs: Mapping, outputs: Mapping) -> None:
        """A dispatch of a graph that may tier up (bridge/tier_up.py): run where the trial says,
        timed; a candidate whose run fails is dropped and the dispatch runs where the graph is."""
        compiled, candidate = tier.pick()
        if candidate and not any(t.failed is not None for t in inputs.values()):
            try:
                with self._journal_running(graph, tier.device_set):
                    c0, t0 = time.process_time(), time.perf_counter()
                    self._run(graph, inputs, outputs, compiled)
                tier.ran(True, time.perf_counter() - t0, time.process_time() - c0)
                return
            except Exception as e:
                tier.failed(e)
        with self._journal_running(graph):
            c0, t0 = time.process_time(), time.perf_counter()
            self._run(graph, inputs, outputs)
        tier.ran(False, time.perf_counter() - t0, time.process_time() - c0)

    def _run(self, graph: MLGraph, inputs: Mapping, outputs: Mapping, compiled: Compiled | None = None) -> None:
        """Run the graph (``compiled``: another compiled form of it) into the outputs; when that
        fails, every output is marked failed (its old contents are never read as this dispatch's
        result) and the error goes on."""
        try:
            for name, t in inputs.items():
                if t.failed is not None:
                    raise UnknownError(f"dispatch: input '{name}' has undefined contents ({t.failed})")
            self._run_into(graph, inputs, outputs, compiled or graph.compiled)
        except BaseException as e:
            reason = f"the dispatch that was to write it failed ({_failure_text(e)})"
            for t in outputs.values():
                t.fail(reason)
            raise

    def _run_into(self, graph: MLGraph, inputs: Mapping, outputs: Mapping, compiled: Compiled) -> None:
        if getattr(compiled, "resident", False):  # the outputs stay in device memory until read (backends/base.py)
            feeds = {}
            for n, t in inputs.items():
                if t.current() is not None and t._device is None:  # uploaded once, kept beside the host array
                    t._device = compiled.upload(n, t._host)
                feeds[n] = t.current()
            values = compiled.run_resident(feeds)
            for name, t in outputs.items():
                t.set_resident(values[name])
            return
        results = compiled.run({n: t.data for n, t in inputs.items()})
        for name, t in outputs.items():
            t.data = np.ascontiguousarray(results[name], dtype=t.desc.numpy_dtype).reshape(t.desc.shape)

    def compute(self, graph: MLGraph, inputs: Mapping[str, Any]) -> dict[str, np.ndarray]:
        """Convenience for Python callers (not in the spec): run with arrays, get arrays."""
        expected = graph.ir.input_descs()
        missing, extra = sorted(set(expected) - set(inputs)), sorted(set(inputs) - set(expected))
        if missing or extra:
            raise WebNNTypeError(f"compute: the graph's inputs are {sorted(expected)}"
                                 + (f"; missing {missing}" if missing else "") + (f"; unknown {extra}" if extra else ""))
        ins = {}
        for name, desc in expected.items():
            data = input_array(inputs[name], desc, f"compute: input '{name}'")
            t = self.createTensor({"dataType": desc.data_type, "shape": list(desc.shape), "writable": True})
            self.writeTensor(t, data)
            ins[name] = t
        outs = {
            name: self.createTensor({"dataType": d.data_type, "shape": list(d.shape), "readable": True})
            for name, d in graph.ir.output_descs().items()
        }
        self.dispatch(graph, ins, outs)
        result = {name: self.readTensor(t) for name, t in outs.items()}
        for t in (*ins.values(), *outs.values()):
            t.destroy()
        return result


idl.register_interface("MLContext", lambda v: isinstance(v, MLContext))


def _device_set(journal, devices: Iterable[Device]):
    """The crash journal's device set of runs on ``devices``, each with its runtime's version."""
    return journal.device_set([(d.id, runtime_token(backend_for(d), d)) for d in devices])


def _tensor_record(d: Any) -> bool:
    """Whether ``d`` is already what converting it to record<USVString, MLTensor> gives (the
    host's sessions pass such dicts on every dispatch: the generic conversion is skipped)."""
    return type(d) is dict and all(type(k) is str and type(v) is MLTensor for k, v in d.items())

def _failure_text(e: BaseException) -> str:
    """A failed operation's reason as a page may read it: the spec's error's own message, else
    only its kind (a runtime's message may name the host's files)."""
    if isinstance(e, WebNNError):
        return str(e)[:200]
    if isinstance(e, MemoryError):
        return "the host ran out of memory"
    return "the runtime failed"


class MLTensor:
    def __init__(self, context: MLContext, desc: OperandDesc, readable: bool, writable: bool, constant: bool):
        self.context = context
        self.desc = desc
        self.readable = readable
        self.writable = writable
        self.constant = constant
        self.destroyed = False
        self._host: np.ndarray | None = None
        self._device = None  # a backend's DeviceValue: contents kept in device memory by dispatch
        self.charged = 0  # bytes reserved in the context's budget
        # why the contents are undefined: the dispatch or write that last targeted this tensor
        # failed. Never read as data (a read raises UnknownError) until a dispatch or write succeeds.
        self.failed: str | None = None

    @property
    def data(self) -> np.ndarray | None:
        """The contents as a host array (copied from the device once, when they live there)."""
        if self._host is None and self._device is not None:
            self._host = self._device.numpy()
        return self._host

    @data.setter
    def data(self, value: np.ndarray | None) -> None:
        self._host, self._device, self.failed = value, None, None

    def set_resident(self, value) -> None:
        self._host, self._device, self.failed = None, value, None

    def fail(self, reason: str) -> None:
        """The operation that was to write this tensor failed: its old contents are dropped (never
        read as that operation's result) and reads raise UnknownError until it is written again."""
        self._host, self._device, self.failed = None, None, reason

    def current(self):
        """What a dispatch feeds: the device value when there is one, else the host array."""
        return self._device if self._device is not None else self._host

    @property
    def dataType(self) -> str:  # noqa: N802
        return self.desc.data_type

    @property
    def shape(self) -> list[int]:
        return list(self.desc.shape)

    def destroy(self) -> None:
        if self.destroyed:
            return
        self.destroyed = True
        self.data = None
        self.context.budget.release(self.charged)
        self.charged = 0
        if self in self.context.tensors:
            self.context.tensors.remove(self)


idl.register_interface("MLTensor", lambda v: isinstance(v, MLTensor))


class MLGraph:
    def __init__(self, context: MLContext, ir: GraphIR, compiled: Compiled, placement=None):
        self.context = context
        self.ir = ir
        self.compiled = compiled
        self.placement = placement
        self.destroyed = False
        self.charged = 0  # bytes reserved in the context's budget
        self.journal = None  # (crash journal, digest, device set) where the host keeps one
        self.accepted: set = set()  # input and output bindings dispatch() has checked (MLContext.dispatch)
        # (compiled, placement) of a graph placed in the page that the host runs until the page's
        # session of it is warm (a build or Session.on_rehome with interim)
        self.page_held: tuple | None = None
        self.tier = None  # its tier-up trial (bridge/tier_up.py) while one may still move it

    @property
    def devices(self) -> list[str]:
        """MLGraph.devices (extension): the coarse device kinds of the placement."""
        from webnn_bridge.policy.privacy import graph_devices

        return graph_devices(self.placement) if self.placement is not None else ["cpu"]

    @functools.cached_property
    def resources(self) -> dict[str, dict]:
        """What dispatch() checks its tensors against (ops/calls.check_dispatch): "input" and
        "output", each name -> {"dataType", "shape"}."""
        return {kind: {n: {"dataType": d.data_type, "shape": list(d.shape)} for n, d in descs.items()}
                for kind, descs in (("input", self.ir.input_descs()), ("output", self.ir.output_descs()))}

    @property
    def in_page(self) -> bool:
        """Whether the page runs this graph (placed on the page's runtime, backends/page.py)."""
        return self.placement is not None and self.placement.device.backend == "page"

    def destroy(self) -> None:
        if self.destroyed:
            return
        self.destroyed = True
        if self.tier is not None:
            self.tier.close()
        self.compiled.close()
        if self.page_held is not None:
            self.page_held[0].close()
            self.page_held = None
        self.context.budget.release(self.charged)
        self.charged = 0
        if self in self.context.graphs:
            self.context.graphs.remove(self)


idl.register_interface("MLGraph", lambda v: isinstance(v, MLGraph))


# --------------------------------------------------------------------------- builder


class MLGraphBuilder:
    def __init__(self, context: MLContext):
        if not isinstance(context, MLContext):
            raise WebNNTypeError("MLGraphBuilder: argument 'context' is not of type MLContext.")
        if context.is_lost:
            raise InvalidStateError("MLGraphBuilder: the context is lost.")
        self.context = context
        self.has_built = False
        self.input_names: set[str] = set()
        self.page_ok = True  # False: this build may not go to the page's runtime (its page could not run it)
        # no list of the builder's nodes: an operand holds its builder, so a builder that held its
        # operands' nodes would be a reference cycle, and a page's constants would wait for the
        # cyclic collector after the page left (issue 38). build() finds the nodes from the outputs.

    def _check_can_build(self) -> None:
        if self.has_built:
            raise InvalidStateError("The builder has already built a graph.")
        if self.context.is_lost:
            raise InvalidStateError("The context is lost.")

    def _check_owned(self, operands: Iterable[Any]) -> None:
        for o in operands:
            if not isinstance(o, MLOperand) or o.builder is not self:
                raise WebNNTypeError("An operand was created by another MLGraphBuilder.")

    # -- graph inputs and constants
    def input(self, name: str, descriptor: Mapping) -> MLOperand:
        check_rank_first(descriptor, SHAPE_GUARD, "input")  # the exact rank rule is check_operand's
        _, conv = idl.convert_args("MLGraphBuilder", "input", [name, dict(descriptor)])
        self._check_can_build()
        name = conv["name"]
        check_input_name(name, self.input_names)
        desc = check_new_operand(self.context, "input", conv["descriptor"])
        self.input_names.add(name)
        return MLOperand(self, desc, "input", name)

    def constant(self, *args: Any) -> MLOperand:
        overload, conv = idl.convert_args("MLGraphBuilder", "constant", list(args))
        if "tensor" in conv:
            t = conv["tensor"]
            if t.context is not self.context or t.destroyed or not t.constant:
                raise WebNNTypeError("constant(tensor): the tensor must be a live constant tensor of this context.")
            self._check_can_build()
            op = MLOperand(self, t.desc, "constant")
            op.constant_tensor = t
            op.value = t.data
            return op
        self._check_can_build()
        if "value" in conv:
            dt = conv["dataType"]
            desc = check_scalar_constant(self.context, dt)
            value = np.array(cast_number(conv["value"], dt), dtype=DATA_TYPES[dt].numpy)
        else:
            desc = check_new_operand(self.context, "constant", conv["descriptor"])
            value = constant_array(buffer_bytes(conv["buffer"], desc, "constant()"), desc)
        value.flags.writeable = False  # a graph's constants are never written (cache.constant_digest)
        op = MLOperand(self, desc, "constant")
        op.value = value
        return op

    # -- operators (every IDL operator method; implemented ones come from the registry)
    def _op(self, op: str, args: tuple) -> MLOperand | list[MLOperand]:
        opdef, call = prepare_call(op, list(args))
        self._check_can_build()
        operands = [o for _, o in call.operands(is_operand)]
        self._check_owned(operands)
        descs = infer_call(opdef, call, self.context.capabilities)
        outs = [MLOperand(self, d, "output") for d in descs]
        node = Node(op, call.map_operands(lambda o: Ref(o.id), is_operand), [o.id for o in outs])
        node.operands = {o.id: o for o in operands}  # type: ignore[attr-defined]
        node.output_descs = {o.id: o.desc for o in outs}  # type: ignore[attr-defined]
        for o in outs:
            o.node = node
        return outs if _returns_sequence(op) else outs[0]

    def __getattr__(self, name: str):
        if name.startswith("_") or name not in idl.operations("MLGraphBuilder"):
            raise AttributeError(f"'MLGraphBuilder' object has no attribute {name!r}")
        return operator_method(self, name)

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | set(idl.operations("MLGraphBuilder")))

    def operator(self, op: str, args: list) -> MLOperand | list[MLOperand]:
        """Call a registered operator by name (a page's graph replayed on the host): nothing but
        the registry's operators can be reached this way."""
        if op not in load_all():
            raise WebNNTypeError(f"'{op[:64]}' is not an operator.")
        return self._op(op, tuple(args))

    # -- build
    def build(self, outputs: Mapping[str, MLOperand]) -> MLGraph:
        _, conv = idl.convert_args("MLGraphBuilder", "build", [dict(outputs)])
        self._check_can_build()
        outputs = conv["outputs"]
        if not outputs:
            raise WebNNTypeError("build(): at least one output is required.")
        for name, o in outputs.items():
            if not name:
                raise WebNNTypeError("build(): output names must not be empty.")
            self._check_owned([o])
            if o.kind != "output":
                raise WebNNTypeError(f"build(): output '{name}' is an input or constant operand.")
        ir = self._collect(outputs)
        # spec: [[hasBuilt]] is set only after every TypeError check passed
        self.has_built = True
        from webnn_bridge.policy import engine

        ctx = self.context
        page = ctx.ml.page_device if ctx.page_local and self.page_ok else None
        placement = engine.decide_build(ctx.decision, ir, ctx.ml.inventory, ctx.ml.rules, page=page)
        return ctx.graph_from_ir(ir, placement)

    def _collect(self, outputs: Mapping[str, MLOperand]) -> GraphIR:
        ir = GraphIR()
        needed: dict[int, MLOperand] = {}
        stack = list(outputs.values())
        nodes: dict[int, Node] = {}
        while stack:
            o = stack.pop()
            if o.id in needed:
                continue
            needed[o.id] = o
            if o.node is not None:
                nodes[id(o.node)] = o.node
                stack.extend(o.node.operands.values())  # type: ignore[attr-defined]
        for o in sorted(needed.values(), key=lambda o: o.id):
            ir.operands[o.id] = o.desc
            if o.kind == "input":
                ir.inputs[o.name] = o.id
            elif o.kind == "constant":
                if o.constant_tensor is not None and o.constant_tensor.destroyed and o.constant_tensor.data is None:
                    raise WebNNTypeError("build(): a constant's tensor has been destroyed.")
                ir.constants[o.id] = o.value
        # in the order they were created (operand ids grow with every call; a node's outputs are
        # created with it)
        ir.nodes = []
        for n in sorted(nodes.values(), key=lambda n: n.outputs[0]):
            # a multi-output op (split, gru, lstm) may have outputs the graph does not use: the
            # backends still need their descriptors
            for oid, desc in n.output_descs.items():  # type: ignore[attr-defined]
                ir.operands.setdefault(oid, desc)
            # the graph's own node, without the builder's operands: a graph (or the build memo's
            # copy of it) never keeps the page's builder, context or operands alive
            ir.nodes.append(Node(n.op, n.call, n.outputs))
        ir.outputs = {name: o.id for name, o in outputs.items()}
        return ir


idl.register_interface("MLGraphBuilder", lambda v: isinstance(v, MLGraphBuilder))


@functools.cache
def _returns_sequence(op: str) -> bool:
    return idl.operations("MLGraphBuilder")[op][0]["returns"]["t"] == "sequence"
