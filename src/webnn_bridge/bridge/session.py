"""One page connection = one Session: its contexts, graphs and tensors, invisible to others.

Sans-I/O: ``Session.receive(frame)`` takes one websocket frame and returns the frames to send
back; nothing here touches a socket. Messages are handled strictly in arrival order, which is
the context timeline (writes, dispatches and reads of a tensor happen in the order issued).
Nothing a page sends can raise out of ``receive``: bad input becomes an error reply.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import logging
import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from webnn_bridge.backends import base as backend_base
from webnn_bridge.backends.cache import remember_digest
from webnn_bridge.ops.core import (
    DATA_TYPES,
    SHAPE_GUARD,
    DataError,
    InvalidStateError,
    NotSupportedError,
    OperationError,
    UnknownError,
    WebNNError,
    WebNNTypeError,
    check_dimensions,
    check_rank_first,
    desc_from_dict,
    pack,
)
from webnn_bridge.ops.registry import load_all

from . import memo, memo_disk, metrics, protocol
from .api import ML, MLContext, MLGraph, MLGraphBuilder, MLTensor
from .budget import MemoryBudget
from .heap import trim_heap
from .wire import MAX_MESSAGE_CHARS, context_wire, context_wire_key, placement_report, wire

log = logging.getLogger("webnn_bridge.session")

Frame = str | bytes


class Job:
    """What Session.prepare returns to run: call it for the replies; ``kind``: the message's type
    when known ("dispatch" runs a graph: the server sends what it holds before one)."""

    __slots__ = ("run", "kind")

    def __init__(self, run: Callable[[], list], kind: object = None):
        self.run = run
        self.kind = kind

    def __call__(self) -> list:
        return self.run()

# messages answered with a reply; the others are fire-and-forget (spec: no completion signal)
REPLIED = {"hello", "createContext", "build", "rehome", "createTensor", "createConstantTensor", "readTensor", "graphLatency"}
GENERIC_FAILURE = "The host could not complete the operation."
TRANSPORTS = ("websocket", "shared-worker")  # how a page's shim reaches the host (hello's "via")
# a graph placed in the page that the host runs (on_rehome): until the page runs it, or for good
INTERIM_REASON = "the page's session of it is starting and warming: the host runs the graph until the page runs it"
PAGE_FAILED_REASON = "the page could not run the graph placed in it: placed again without the page"
# cheap whatever their arguments (see Session.prepare)
QUICK = {"hello", "createTensor", "writeTensor", "destroyTensor", "destroyGraph", "graphLatency", "releaseConstants",
         "constantKeys"}
QUICK_READ_BYTES = 256 * 1024
QUICK_UPLOAD_BYTES = 256 * 1024  # a putConstant hashes its bytes: small ones take well under 1 ms
QUICK_DISPATCH_MS = 0.5
ALONE_DISPATCH_MS = 50.0  # the same for the only page connected: no one waits behind it
QUICK_HEADER_CHARS = 16 * 1024


def _header_chars(frame) -> int:
    """The size of a frame's JSON part, without parsing it."""
    if isinstance(frame, str):
        return len(frame)
    return int.from_bytes(bytes(frame[:4]), "little") if len(frame) >= 4 else 0
MAX_GRAPH_NODES = 30000  # far above real models (thousands); bounds one build's host time
CONTEXT_BYTES = 192 * 1024  # what a context costs the host (its limits and capabilities), charged to the page
# bytes are budgeted; these bound the count of tiny objects (each costs the host an entry)
MAX_UPLOADS = 65536  # constants one page may hold uploaded before their builds (real models: hundreds)
MAX_TENSORS = 65536  # MLTensors one page may hold at once


def _bound(table: dict, limit: int, what: str, error: type[WebNNError]) -> None:
    """Refuse one more entry in a page's ``table`` once it holds ``limit``."""
    if len(table) >= limit:
        raise error(f"This page holds {len(table)} {what}, the most one page may hold.")


@dataclass
class Upload:
    """A constant's bytes a page uploaded as constant() copied them (putConstant), held for the
    builders that use them: charged to the session's budget, or the error that refused them."""

    context: MLContext
    raw: memoryview | None
    sha256: str | None
    charged: int = 0
    error: WebNNError | None = None


@dataclass
class SessionLimits:
    """What one page connection may hold (the server's --session-budget / --max-graphs)."""

    budget_bytes: int | None = None
    max_graphs: int | None = None
    keepalive_timeout_s: float = 10.0
    strict_spec: bool = False  # serve --strict-spec: pages get spec HEAD's buffer rules (hello reply)


# Keepalive: the server's event loop sends ALIVE to every page at this interval, whatever its
# session is doing; a page that hears nothing for the timeout (told in the hello reply) declares the
# host hung. A busy session is not a hung host; a stopped or deadlocked process is.
ALIVE = protocol.encode({"t": "alive"})


def keepalive_interval(timeout_s: float) -> float:
    return max(0.1, min(timeout_s / 4, 2.5))


class Session:
    def __init__(self, ml: ML, origin: str | None = None, observer: Callable[[str, dict], None] | None = None):
        self.ml = ml
        self.origin = origin
        limits: SessionLimits = ml.session_limits or SessionLimits()
        self.max_graphs = limits.max_graphs
        self.keepalive_timeout_s = limits.keepalive_timeout_s
        self.strict_spec = limits.strict_spec
        self.budget = MemoryBudget(limits.budget_bytes, parent=ml.budget, name="session")
        self.token = secrets.token_urlsafe(18)
        self.contexts: dict[int, MLContext] = {}
        self.graphs: dict[int, MLGraph] = {}
        self.tensors: dict[int, MLTensor] = {}
        self.closed = False
        self.observer = observer  # policy tracing hook: (event, facts)
        # operations hook (bridge/metrics.py): (message kind, seconds spent handling it)
        self.timer: Callable[[str, float], None] | None = None
        self.page = ""  # the page's path (hello), named in policy traces
        self.via: str | None = None  # the page's transport, as its hello says (TRANSPORTS)
        self.held: dict[str, memoryview] = {}  # constants held for the build being handled
        self.uploads: dict[int, Upload] = {}  # constants uploaded before their build (on_putConstant)
        self.sent_errors = 0
        self._raw_for: dict | None = None  # a message waiting for its raw payload (the next message)
        # the only page connected to the host (the server says): its dispatches of graphs that
        # ran in under ALONE_DISPATCH_MS count as quick (no thread hop there and back)
        self.alone = False

    # ------------------------------------------------------------------ entry point
    def messages(self, frame: Frame) -> list:
        """The messages of one websocket frame, in order: a batch's (protocol.unbatch), or the
        frame whole when it is the raw payload the previous message announced."""
        return [frame] if self._raw_for is not None else protocol.unbatch(frame)

    def raw_expected(self) -> int | None:
        """The byte length of the raw payload the previous message announced (the next message
        is that payload), None when no message waits for one."""
        return None if self._raw_for is None else self._raw_for["raw"]

    def receive(self, frame: Frame) -> list:
        """One message's frame in, the frames to send back out (a protocol.Raw is sent as one
        binary message, from its buffers)."""
        return self.prepare(frame)[1]()

    def _receive(self, frame: Frame) -> list:
        try:
            header, payload = protocol.decode(frame)
        except protocol.ProtocolError as e:
            return [protocol.encode({"t": "error", "error": wire(DataError(str(e)))})]
        return self.handle(header, payload)

    def handle(self, header: dict, payload) -> list:
        """One decoded message (``receive`` without the parsing). A message announcing a raw
        payload waits for it: the next message is that payload."""
        if "raw" in header:
            try:
                if protocol.raw_length(header) is None or payload is not None:
                    raise protocol.ProtocolError("a message announcing a raw payload carries none of its own")
            except protocol.ProtocolError as e:
                return self._failed(header["t"][:64], header, WebNNTypeError(f"malformed '{header['t'][:64]}' message: {e}"))
            self._raw_for = header
            return []
        return self._handle(header, payload)

    def _paired(self, frame: Frame) -> tuple[bool, Job]:
        """(quick, job) for the raw payload the previous message announced."""
        header, self._raw_for = self._raw_for, None
        kind = header["t"][:64]
        if isinstance(frame, protocol.Unkept) and isinstance(frame.error, WebNNError):  # over the budget
            return True, Job(lambda: self._failed(kind, header, frame.error), kind)
        try:
            payload = protocol.raw_payload(frame, header["raw"])
        except protocol.ProtocolError as e:
            error = WebNNTypeError(f"malformed '{kind}' message: {e}")
            return True, Job(lambda: self._failed(kind, header, error), kind)
        return self._quick_or_not(header, payload), Job(lambda: self._handle(header, payload), kind)

    def _handle(self, header: dict, payload) -> list:
        if self.timer is None:
            return self._handle_message(header, payload)
        t0 = time.perf_counter()
        out = self._handle_message(header, payload)
        self.timer(header["t"][:64], time.perf_counter() - t0)
        return out

    def _handle_message(self, header: dict, payload) -> list:
        kind = header["t"][:64]
        handler = getattr(self, f"on_{kind}", None)
        if handler is None:
            return [self._error(protocol.request_id(header), WebNNTypeError(f"unknown message type '{kind}'"))]
        try:
            reply = handler(header, payload)
        except WebNNError as e:
            return self._failed(kind, header, e)
        except protocol.ProtocolError as e:
            return self._failed(kind, header, WebNNTypeError(f"malformed '{kind}' message: {e}"))
        except KeyError as e:
            return self._failed(kind, header, WebNNTypeError(f"malformed '{kind}' message: missing {e}"))
        except (TypeError, ValueError, IndexError, AttributeError, RecursionError, OverflowError) as e:
            log.debug("malformed %s: %r", kind, e)
            return self._failed(kind, header, WebNNTypeError(f"malformed '{kind}' message."))
        except MemoryError:
            log.warning("session %s: %s ran out of host memory", self.token[:6], kind)
            return self._failed(kind, header, UnknownError(GENERIC_FAILURE))
        except Exception:  # a backend failure must not take the host down; its details stay here
            log.exception("unexpected failure handling %s", kind)
            return self._failed(kind, header, UnknownError(GENERIC_FAILURE))
        if reply is None:
            return []
        return reply if isinstance(reply, list) else [reply]

    def _undefine(self, kind: str, header: dict, e: WebNNError) -> None:
        """A dispatch or writeTensor that failed past its checks (the host's budget or memory, the
        runtime): the tensors it was to write hold no result, and reading them raises UnknownError
        (MLTensor.fail), never returns their old contents as if it had run. A call its checks
        refused (TypeError, InvalidStateError: what the spec throws at once, before anything is
        queued) changes nothing."""
        if isinstance(e, (WebNNTypeError, InvalidStateError)):
            return
        if kind == "dispatch":
            named = header.get("outputs")
            ids = list(named.values()) if isinstance(named, dict) else []
        elif kind == "writeTensor":
            ids = [header.get("tensor")]
        else:
            return
        for tid in ids:
            try:
                t = self.tensors.get(tid)
            except TypeError:  # an unhashable id: nothing of this page's
                continue
            if t is not None and not t.destroyed and t.failed is None:
                t.fail(f"the {kind} that was to write it failed ({str(e)[:200]})")

    def _error(self, rid, e: WebNNError) -> Frame:
        return protocol.encode({"t": "reply", "re": rid, "error": wire(e)})

    def _failed(self, kind: str, header: dict, e: WebNNError) -> list[Frame]:
        if kind in REPLIED:
            return [self._error(protocol.request_id(header), e)]
        self._undefine(kind, header, e)
        # spec: failures of dispatch/writeTensor are not reported to the caller; log and tell
        # the page's console through an event (no promise to reject)
        log.info("session %s: %s failed: %s", self.token[:6], kind, str(e)[:MAX_MESSAGE_CHARS])
        self.sent_errors += 1
        return [protocol.encode({"t": "warning", "op": kind, "error": wire(e)})]

    def _ok(self, header: dict, _encoded: dict | None = None, **fields) -> Frame:
        """A reply with these fields; ``_encoded``: more of them, already as protocol.encode_value makes them."""
        ok = protocol.encode_value(fields)
        if _encoded:
            ok.update(_encoded)
        return protocol.encode({"t": "reply", "re": protocol.request_id(header), "ok": ok})

    # ------------------------------------------------------------------ lookups
    def _context(self, cid) -> MLContext:
        ctx = self.contexts.get(cid)
        if ctx is None:
            raise WebNNTypeError("unknown context")
        return ctx

    def _tensor(self, tid) -> MLTensor:
        t = self.tensors.get(tid)
        if t is None:
            raise WebNNTypeError("unknown or destroyed tensor")
        return t

    def _graph(self, gid) -> MLGraph:
        g = self.graphs.get(gid)
        if g is None:
            raise InvalidStateError("unknown or destroyed graph")
        return g

    @staticmethod
    def _new_id(table: dict, oid) -> int:
        if not isinstance(oid, int) or isinstance(oid, bool) or oid in table:
            raise WebNNTypeError("object ids must be fresh integers")
        return oid

    # ------------------------------------------------------------------ handlers
    def on_hello(self, h, payload):
        ms = int(self.keepalive_timeout_s * 1000)
        page = h.get("page")  # the page's path, for the operator's policy trace only
        self.page = page.split("?")[0][:200] if isinstance(page, str) else ""
        via = h.get("via")  # the page's transport (README "Transport"): its own websocket or its shared worker's
        self.via = via if via in TRANSPORTS else None
        # serve --page-local: where the page finds the runtime that runs graphs placed in it
        runtime = protocol.PAGE_RUNTIME_PATH if self.ml.page_device is not None else None
        return self._ok(h, session=self.token, protocol=protocol.PROTOCOL_VERSION, keepalive=ms,
                        rawMinBytes=protocol.RAW_MIN_BYTES, trace=self.observer is not None,
                        strictSpec=self.strict_spec, pageRuntime=runtime)

    def on_createContext(self, h, payload):  # noqa: N802
        cid = self._new_id(self.contexts, h["ctx"])
        options = protocol.decode_value(h.get("options") or {})
        ctx = self.ml.createContext(options)
        ctx.budget = self.budget
        ctx.cache_partition = self.origin or ""
        # the page runs graphs itself (its shim loads the runtime this host serves): the policy
        # may place small graphs of this context there (rules.toml §4c)
        ctx.page_local = h.get("page") is True and self.ml.page_device is not None
        ctx.charged = self.budget.charge(CONTEXT_BYTES, "createContext()", NotSupportedError)
        self.contexts[cid] = ctx
        self._observe("createContext", {"options": options, "decision": ctx.decision, "context": ctx, "page": self.page})
        # the shim runs the op rules itself (generated from ops/): it needs the capabilities the
        # builder enforces, i.e. the context's privacy-bucketed profile (data only)
        # whether this origin's constants are held (a reload, a restarted host): then the page
        # hashes its constants and uploads only what the host lacks, else it uploads them as it
        # copies them, unhashed (this origin's own partition: nothing about other origins)
        held = self.ml.constant_store.holds_any(self.origin or "")
        # ... and the keys of those constants: a constant the page names by a listed key needs no
        # copy, no digest and no upload (the shim's constantCopy)
        keys = self.ml.constant_store.held_keys(self.origin or "") if held else []
        # a restarted host prepares what contexts like this one of this origin built last (their
        # memo entries and compiled sessions), beside the page's builder calls
        self.ml.prepare_recent(ctx, self.origin or "")
        # whether the page's runtime may get this context's graphs (then the shim asks, in the
        # build of a graph placed in the page, for the host's interim compile too)
        from webnn_bridge.policy import engine

        page_graphs = ctx.page_local and engine.page_context_refusal(ctx.decision, self.ml.rules or engine.default_rules()) is None
        # the context's limits and rules, unless the page holds them from an earlier context under
        # their key (rulesKnown): then the key alone (encoding and parsing 54 KB cost a page's
        # every context about 2 ms)
        key = context_wire_key(ctx.profile)
        known = h.get("rulesKnown")
        encoded = {"rulesKey": key} if isinstance(known, list) and key in known[:8] else {**context_wire(ctx.profile), "rulesKey": key}
        return self._ok(h, accelerated=ctx.accelerated, constantsHeld=held, constantKeys=keys, pageGraphs=page_graphs,
                        _encoded=encoded)

    def on_destroyContext(self, h, payload):  # noqa: N802
        ctx = self.contexts.pop(h.get("ctx"), None) if isinstance(h.get("ctx"), int) else None
        if ctx is not None:
            ctx.destroy()
            self._forget(ctx)
            self._release([uid for uid, u in self.uploads.items() if u.context is ctx])
        return None

    def _forget(self, ctx: MLContext) -> None:
        for table in (self.graphs, self.tensors):
            for k in [k for k, v in table.items() if v.context is ctx]:
                del table[k]

    def on_build(self, h, payload):
        ctx = self._context(h["ctx"])
        gid = self._new_id(self.graphs, h["graph"])
        if self.max_graphs is not None:
            _bound(self.graphs, self.max_graphs, "graphs", OperationError)
        missing = False
        keyed: dict[str, str | None] = {}
        try:
            keyed = self._resolve_keys(h, payload)
            digests = self._hold_named(h)
            if digests or None in keyed.values():  # no graph: the page sends the build again with these constants' bytes
                missing = True
                return self._missing(h, digests, keyed)
            uploads = self._hold_uploads(ctx, h)
            graph = self._memoized_build(ctx, h, payload)
        except memo_disk.ConstantUnavailable as e:  # held when asked, gone since (evicted, damaged)
            missing = True
            return self._missing(h, e.digests, keyed)
        finally:
            self.held = {}
            if not missing:  # built or failed: the builder's uploads are done with
                self._release(h.get("release"))
        self.graphs[gid] = graph
        self._observe("build", {"graph": graph, "context": ctx, "page": self.page})
        if graph.in_page:
            return self._page_graph(h, graph, uploads=uploads)
        return self._ok(h, uploads=uploads, **placement_report(graph))

    def _missing(self, h: dict, digests: list[str], keyed: dict[str, str | None]) -> Frame:
        """No graph: the build names constants this origin's store lacks, by their digest
        (``missing``) or by their key alone (``missingKeys``), which the page sends again with
        their bytes."""
        by_digest = {sha: key for key, sha in keyed.items() if sha is not None}
        keys = {key for key, sha in keyed.items() if sha is None} | {by_digest[d] for d in digests if d in by_digest}
        return self._ok(h, missing=[d for d in digests if d not in by_digest], missingKeys=sorted(keys))

    def _resolve_keys(self, h: dict, payload) -> dict[str, str | None]:
        """A build's constants named by their key alone (the shim's constantKey; see
        memo.ConstantStore) are named by the SHA-256 the key names for this origin from here on;
        a key that comes with a digest or with the bytes is learnt. Returns {key: its digest, or
        None where the store names nothing by it} for the constants named by key alone."""
        store, origin = self.ml.constant_store, self.origin or ""
        constants = h.get("constants", [])
        if not isinstance(constants, list):
            raise WebNNTypeError("constants must be a list")
        keyed: dict[str, str | None] = {}
        for item in constants:
            if not isinstance(item, dict) or "key" not in item:
                continue
            key = item.pop("key")  # the build memo's key and the replay name a constant by its digest
            if not isinstance(key, str) or not memo.CONSTANT_KEY_HEX.fullmatch(key):
                raise WebNNTypeError("a constant's key must be 32 hexadecimal digits")
            if "sha256" in item:  # checked against the bytes where they come with it
                store.learn(origin, key, item["sha256"])
            elif "part" in item:  # the bytes of a constant the page named by key, which the store lacked
                item["sha256"] = hashlib.sha256(protocol.part(h, payload, item["part"])).hexdigest()
                store.learn(origin, key, item["sha256"])
            elif "upload" not in item:  # an upload's key came with it (on_putConstant)
                sha = store.sha_for(origin, key)
                keyed[key] = sha if sha is not None and store.has(origin, sha) else None
                if keyed[key] is not None:
                    item["sha256"] = keyed[key]
        return keyed

    def _page_graph(self, h: dict, graph: MLGraph, **fields) -> Frame:
        """The reply for a graph the page runs (backends/page.py): its ONNX model as the payload,
        and what the page's runtime calls its inputs and outputs, and how the page warms its
        session before it takes the graph over (rules.toml §4c). A build that says ``interim``
        (the shim's, for every graph placed in the page) also gets the graph compiled for the host
        in the same message, and ``interim: true`` where it was (see _run_interim); the model is
        then left out, for the page to ask when it starts its session (on_pageModel), not on the
        build's path (LeNet's, 1.7 MB, took its first build 7 to 10 ms)."""
        from webnn_bridge.policy import engine

        c = _page_compiled(graph.compiled)
        ok = protocol.encode_value({**fields, **placement_report(graph)})
        ok["page"] = {"inputs": c.in_map, "outputs": c.out_map, "disabledOptimizers": c.disabled_optimizers,
                      "warmUp": engine.page_warm_up(graph.context.ml.rules or engine.default_rules())}
        if h.get("interim") is True and self._run_interim(graph):
            ok["interim"] = True
            return protocol.encode({"t": "reply", "re": protocol.request_id(h), "ok": ok})
        return protocol.encode({"t": "reply", "re": protocol.request_id(h), "ok": ok}, c.model)

    def on_pageModel(self, h, payload):  # noqa: N802
        """The model of a graph placed in the page that the host runs meanwhile (a build with
        ``interim``), asked by the page when it starts its session."""
        graph = self._graph(h["graph"])
        held = graph.page_held
        if held is None:
            raise OperationError("This graph is not waiting for the page's runtime.")
        return protocol.encode({"t": "reply", "re": protocol.request_id(h), "ok": {}}, _page_compiled(held[0]).model)

    def _run_interim(self, graph: MLGraph) -> bool:
        """A graph placed in the page: compiled for the host too, which runs it until the page
        says it runs it (its session started and warm) or cannot (on_inPage); the page's compile
        is held until then. Whether the host can (where it cannot, the page's build waits for its
        session)."""
        try:
            self._compile_without_page(graph, interim=True)
        except WebNNError as e:  # the page's build then waits for its runtime: not a failed build
            log.debug("no interim host compile: %s", e)
            return False
        except Exception:  # the same for the page; the details stay in the host's log
            log.exception("the interim host compile of a page graph failed")
            return False
        return True

    def _compile_without_page(self, graph: MLGraph, interim: bool) -> None:
        """The graph compiled where the policy places it without the page; the page's compile
        is held (``interim``: until the page says whether it runs it) or closed. Nothing changes
        where the compile fails."""
        from webnn_bridge.policy import engine

        ctx = graph.context
        placement = engine.decide_build(ctx.decision, graph.ir, ctx.ml.inventory, ctx.ml.rules)
        placement.reasons.append(INTERIM_REASON if interim else PAGE_FAILED_REASON)
        compiled = ctx.compile(graph.ir, placement)
        if interim:
            graph.page_held = (graph.compiled, graph.placement)
        else:
            graph.compiled.close()
        graph.compiled, graph.placement = compiled, placement

    def on_rehome(self, h, payload):  # noqa: N802
        """A graph placed in the page that the page does not run: compiled again where the policy
        places it without the page. ``interim``: the page's runtime is still starting (its first
        session in this page); the host runs the graph until the page says it runs it or cannot
        (on_inPage), and keeps what the page placement needs until then (the shim asks this in
        its build message instead: _page_graph)."""
        graph = self._graph(h["graph"])
        if not graph.in_page:
            return self._ok(h, **placement_report(graph))
        interim = h.get("interim") is True
        self._compile_without_page(graph, interim)
        if not interim:
            self._observe("build", {"graph": graph, "context": graph.context, "page": self.page})
        return self._ok(h, **placement_report(graph))

    def on_inPage(self, h, payload):  # noqa: N802
        """The page runs (``ok``) or cannot run a graph the host has run meanwhile (rehome with
        ``interim``); the page sends it after the dispatches the host was to run. Where the page
        runs it, the host lets its own compile go; else the graph stays on the host for good."""
        graph = self._graph(h["graph"])
        held, graph.page_held = graph.page_held, None
        if held is None:  # not a graph the host runs for the page meanwhile: nothing to do
            return None
        if h.get("ok") is True:
            mine, (graph.compiled, graph.placement) = graph.compiled, held
            mine.close()
        else:
            held[0].close()
            graph.placement.reasons = [PAGE_FAILED_REASON if r == INTERIM_REASON else r for r in graph.placement.reasons]
            self._observe("build", {"graph": graph, "context": graph.context, "page": self.page})
        return None

    def _hold_named(self, h: dict) -> list[str]:
        """The digests of a build's constants named by their SHA-256 alone that this origin's store
        lacks. Their bytes are read only if the build needs them (_hold_stored, a remembered
        graph's LazyConstants)."""
        missing = []
        constants = h.get("constants", [])
        if not isinstance(constants, list):
            raise WebNNTypeError("constants must be a list")
        for item in constants:
            if not isinstance(item, dict) or "part" in item or "sha256" not in item:
                continue
            sha = item["sha256"]
            if not isinstance(sha, str) or not memo.SHA256_HEX.fullmatch(sha):
                raise WebNNTypeError("a constant's digest must be a SHA-256 in hex")
            if not self.ml.constant_store.has(self.origin or "", sha):
                missing.append(sha)
        return sorted(set(missing))

    def _hold_stored(self, h: dict) -> None:
        """The bytes of the constants a build names by their digest alone, from this origin's store,
        held for the build (checked against their digest when read from disk)."""
        missing = []
        for item in h.get("constants", []):
            if "part" in item or "sha256" not in item or item["sha256"] in self.held:
                continue
            raw = self.ml.constant_store.get(self.origin or "", item["sha256"])
            if raw is None:
                missing.append(item["sha256"])
            else:
                self.held[item["sha256"]] = raw
        if missing:
            raise memo_disk.ConstantUnavailable(missing)

    def _hold_uploads(self, ctx: MLContext, h: dict) -> dict[str, str]:
        """A build's constants that name an upload (on_putConstant) name its digest instead, with
        its bytes held for this build (as _hold_named does); returns {upload id: digest}, by
        which the page's later builds name them."""
        digests = {}
        for item in h.get("constants", []):
            if "upload" not in item:
                continue
            if "part" in item or "sha256" in item:
                raise WebNNTypeError("a constant is either uploaded before the build or named in it")
            uid = item.pop("upload")
            u = self.uploads.get(uid) if isinstance(uid, int) else None
            if u is None or u.context is not ctx:
                raise WebNNTypeError("a constant names an upload that this context does not hold")
            if u.error is not None:
                raise u.error
            item["sha256"] = u.sha256
            self.held[u.sha256] = u.raw
            digests[str(uid)] = u.sha256
        return digests

    def on_putConstant(self, h, payload):  # noqa: N802
        """A constant's bytes, sent as constant() copies them, before the build that uses them:
        charged to the session's budget at once (a refusal is reported by that build), hashed and
        kept for this origin's later builds, and held until a build message or releaseConstants
        releases it or its context goes."""
        ctx = self._context(h["ctx"])
        uid = self._new_id(self.uploads, h["upload"])
        if payload is None:
            raise WebNNTypeError("putConstant needs data")
        _bound(self.uploads, MAX_UPLOADS, "constants not yet built", OperationError)
        try:
            charged = self.budget.charge(len(payload), "constant()", OperationError)
        except WebNNError as e:
            self.uploads[uid] = Upload(ctx, None, None, error=e)
            return None
        sha = hashlib.sha256(payload).hexdigest()
        self.ml.constant_store.put(self.origin or "", sha, payload)
        self.uploads[uid] = Upload(ctx, payload, sha, charged)
        return None

    def on_constantKeys(self, h, payload):  # noqa: N802
        """The keys of constants a build uploaded (the shim's teachKeys), by their digest: learnt
        for this origin's later builds where the store holds the constant."""
        keys = h.get("keys")
        if not isinstance(keys, dict) or len(keys) > memo.MAX_KEYS:
            raise WebNNTypeError(f"constantKeys needs an object of at most {memo.MAX_KEYS} keys by digest")
        store, origin = self.ml.constant_store, self.origin or ""
        for sha, key in keys.items():
            if isinstance(sha, str) and memo.SHA256_HEX.fullmatch(sha) and store.has(origin, sha):
                store.learn(origin, key, sha)
        return None

    def on_releaseConstants(self, h, payload):  # noqa: N802
        self._release(h.get("uploads"))
        return None

    def _release(self, ids) -> None:
        """Let go of these uploads (ids the page sent: anything malformed is ignored)."""
        if not isinstance(ids, list):
            return
        for uid in ids:
            u = self.uploads.pop(uid, None) if isinstance(uid, int) else None
            if u is not None:
                self.budget.release(u.charged)

    def _memoized_build(self, ctx: MLContext, h: dict, payload) -> MLGraph:
        """A message the host validated before (same graph, same kind of context, same origin)
        skips the replay, also after a restart (the memo's disk entries); anything else is
        replayed call by call."""
        key = memo.build_key(ctx.cache_partition, ctx.memo_key, h, payload)
        group = memo.memo_group(ctx.cache_partition, ctx.memo_key)
        hit = self.ml.build_memo.get(key)
        recalled = hit is None and (hit := self._recall(key, group)) is not None
        if hit is not None:
            in_place = _mostly_constants(h, payload)
            for item in h.get("constants", []):
                if "part" in item and "sha256" in item:  # a digest the page names is always checked
                    self.held[item["sha256"]] = self._constant_bytes(h, payload, item, in_place)
            if self.held and isinstance(hit.ir.constants, memo_disk.LazyConstants):
                hit.ir.constants.load(self.held.get)  # what the page sent first, then the store
            graph = ctx.graph_from_ir(hit.ir, hit.placement, hit.digest)
            if recalled:
                self.ml.build_memo.put(key, hit)
            return graph
        self._hold_stored(h)
        graph = self.replay(ctx, h, payload)
        digest = getattr(graph.compiled, "digest", None)
        validated = memo.Validated(graph.ir, graph.placement, digest, graph.ir.constant_bytes())
        self.ml.build_memo.put(key, validated, functools.partial(memo_disk.encode, validated), group)
        return graph

    def _recall(self, key: str | None, group: str) -> memo.Validated | None:
        """A build validated by an earlier run of the host (the memo's disk entry), its constants
        read from this origin's store when needed; None without one."""
        body = self.ml.build_memo.recall(key, group)
        return None if body is None else self.ml.recalled(key, group, body, self.origin or "")

    def replay(self, ctx: MLContext, h: dict, payload) -> MLGraph:
        """Rebuild the page's graph with a real MLGraphBuilder: every rule is checked again."""
        b = MLGraphBuilder(ctx)
        operands: dict[int, Any] = {}

        def resolve(tag: dict):
            oid = tag.get("$operand")
            if oid not in operands:
                raise WebNNTypeError(f"graph references unknown operand {oid}")
            return operands[oid]

        for item in h.get("inputs", []):
            operands[item["operand"]] = b.input(item["name"], item["desc"])
        in_place = _mostly_constants(h, payload)
        digests: dict[int, str] = {}
        for item in h.get("constants", []):
            if "part" in item or "sha256" in item:
                check_rank_first(item["desc"], SHAPE_GUARD, "constant")
                desc = check_dimensions(desc_from_dict(item["desc"]))
                raw = self._constant_bytes(h, payload, item, in_place)
                operand = operands[item["operand"]] = b.constant(item["desc"], raw)
                if "sha256" in item:  # what the build memo's disk entry names the constant by
                    digests[operand.id] = item["sha256"]
                    if not DATA_TYPES[desc.data_type].is_packed:
                        remember_digest(operand.value, bytes.fromhex(item["sha256"]))  # checked: not hashed again
            elif "scalar" in item:
                s = item["scalar"]
                operands[item["operand"]] = b.constant(s["dataType"], protocol.decode_value(s["value"]))
            else:
                operands[item["operand"]] = b.constant(self._tensor(item["tensor"]))
        nodes = h.get("nodes", [])
        if not isinstance(nodes, list) or len(nodes) > MAX_GRAPH_NODES:
            raise OperationError(f"A graph may have at most {MAX_GRAPH_NODES} operators.")
        for node in nodes:
            op = node["op"]
            if not isinstance(op, str) or op not in load_all():
                # only registered operators are dispatched, never other builder attributes
                raise WebNNTypeError(f"'{str(op)[:64]}' is not an operator")
            args = protocol.decode_value(node["args"], resolve)
            if not isinstance(args, list):
                raise WebNNTypeError(f"{op}: arguments must be a list")
            result = b.operator(op, args)
            outs = result if isinstance(result, list) else [result]
            ids = node["outputs"]
            if len(ids) != len(outs):
                raise WebNNTypeError(f"{op}: the page expected {len(ids)} outputs, the operator has {len(outs)}")
            for oid, o in zip(ids, outs):
                operands[oid] = o
        outputs = {name: resolve({"$operand": oid}) for name, oid in h["outputs"].items()}
        graph = b.build(outputs)
        graph.ir.derived["constant_sha256"] = digests
        return graph

    def _constant_bytes(self, h: dict, payload, item: dict, in_place: bool) -> memoryview:
        """A build's constant: uploaded in the message (kept by digest for later builds of this
        origin), or named by a digest (held by _hold_named or _hold_uploads). ``in_place``:
        the constants may keep the received message alive (it is mostly theirs), else copied."""
        if "part" in item:
            raw = memo.verified_part(h, payload, item)
            if not in_place or not _aligned_for(raw, item):
                # copied once, into bytes that the graph's array and the constant store share
                # (a misaligned part would be copied into the array and the message kept by the store)
                raw = memoryview(bytes(raw))
            if "sha256" in item:
                self.ml.constant_store.put(self.origin or "", item["sha256"], raw)
            return raw
        raw = self.held.get(item["sha256"])
        if raw is None:
            raise WebNNTypeError("a constant named by its digest was not held for this build")
        return raw

    def on_destroyGraph(self, h, payload):  # noqa: N802
        g = self.graphs.pop(h.get("graph"), None)
        if g is not None:
            g.destroy()
        return None

    def on_createTensor(self, h, payload):  # noqa: N802
        ctx = self._context(h["ctx"])
        tid = self._new_id(self.tensors, h["tensor"])
        _bound(self.tensors, MAX_TENSORS, "tensors", UnknownError)
        self.tensors[tid] = ctx.createTensor(h["desc"])
        return self._ok(h)

    def on_createConstantTensor(self, h, payload):  # noqa: N802
        ctx = self._context(h["ctx"])
        tid = self._new_id(self.tensors, h["tensor"])
        _bound(self.tensors, MAX_TENSORS, "tensors", UnknownError)
        if payload is None:
            raise WebNNTypeError("createConstantTensor needs data")
        self.tensors[tid] = ctx.createConstantTensor(h["desc"], payload)
        return self._ok(h)

    def on_writeTensor(self, h, payload):  # noqa: N802
        t = self._tensor(h["tensor"])
        move = h.get("move") is True  # the contents a graph in the page left (backends/page.py)
        if move and isinstance(h.get("failed"), str):  # ... or that it failed to fill: reads of it fail
            t.fail(h["failed"][:MAX_MESSAGE_CHARS])
            return None
        if payload is None:
            raise WebNNTypeError("writeTensor needs data")
        t.context.write_received(t, payload, move=move)
        return None

    def on_readTensor(self, h, payload):  # noqa: N802
        t = self._tensor(h["tensor"])
        data = t.context.read_view(t, move=h.get("move") is True)
        if DATA_TYPES[t.desc.data_type].is_packed:
            body = pack(data, t.desc.data_type)
        else:
            body = np.ascontiguousarray(data).reshape(-1).view(np.uint8)  # no copy before the frame
        reply = {"t": "reply", "re": protocol.request_id(h), "ok": {}}
        n = memoryview(body).nbytes
        if n < protocol.RAW_MIN_BYTES:
            return protocol.encode(reply, body)
        # sent from the tensor's own bytes (not copied into a frame), in fragments: what that costs
        # counts against the page's budget until it is sent
        charged = self.budget.charge(min(n, protocol.IN_FLIGHT_BYTES), "readTensor()", UnknownError)
        release = functools.partial(self.budget.release, charged)
        if h.get("rawReply") is True:
            return protocol.encode_raw(reply, body, release)
        return [protocol.encode_unjoined(reply, body, release)]

    def on_destroyTensor(self, h, payload):  # noqa: N802
        t = self.tensors.pop(h.get("tensor"), None)
        if t is not None:
            t.destroy()
        return None

    # ------------------------------------------------------------------ scheduling hint
    def prepare(self, frame: Frame) -> tuple[bool, Job]:
        """(quick, job): ``job()`` handles the frame as ``receive`` does, parsing it at most once;
        ``quick`` says whether that is cheap enough (well under a millisecond) to run on the host's
        event loop instead of a worker thread: control messages, zero-copy tensor writes, small
        reads and dispatches of graphs whose previous run was quick (for the only page connected,
        ``alone``, under ALONE_DISPATCH_MS: nobody else's message waits behind it). A wrong guess
        only costs latency; it never changes what a message does."""
        if self._raw_for is not None:
            return self._paired(frame)
        if _header_chars(frame) > QUICK_HEADER_CHARS:
            return False, Job(lambda: self._receive(frame))  # a big message is parsed on a worker thread
        try:
            header, payload = protocol.decode(frame)
        except protocol.ProtocolError:
            return True, Job(lambda: self._receive(frame))  # answered with an error at once
        return self._quick_or_not(header, payload), Job(lambda: self.handle(header, payload), header.get("t"))

    def _quick_or_not(self, header: dict, payload) -> bool:
        try:
            return self._quick(header, payload)
        except Exception:  # malformed (unhashable ids, ...): the handler answers with an error
            return True

    def _quick(self, header: dict, payload=None) -> bool:
        kind = header["t"]
        if kind in QUICK:
            return True
        if kind == "putConstant":
            return payload is None or len(payload) <= QUICK_UPLOAD_BYTES
        if kind == "readTensor":
            t = self.tensors.get(header.get("tensor"))
            return t is None or t.desc.byte_length <= QUICK_READ_BYTES
        if kind == "dispatch":
            g = self.graphs.get(header.get("graph"))
            bound = ALONE_DISPATCH_MS if self.alone else QUICK_DISPATCH_MS
            return g is None or getattr(g, "fastest_ms", bound) < bound
        return False

    def on_dispatch(self, h, payload):
        ctx = self._context(h["ctx"])
        graph = self._graph(h["graph"])
        ins = {k: self._tensor(v) for k, v in h["inputs"].items()}
        outs = {k: self._tensor(v) for k, v in h["outputs"].items()}
        backend_base.ACTIVE_PAGES.touch(self)  # the pages sharing the cores (backends/base.py pool_threads)
        clock = metrics.DISPATCH_CPU.start()
        t0 = time.perf_counter()
        ctx.dispatch(graph, ins, outs)
        ms = (time.perf_counter() - t0) * 1000.0
        cpu_ms = metrics.DISPATCH_CPU.stop(clock) * 1000.0  # for /metrics (Metrics.message) and traces
        graph.last_latency_ms = ms  # operator-side only; pages get a bucket (on_graphLatency)
        # for Session.prepare: what the graph costs (a busy machine only makes runs slower)
        graph.fastest_ms = min(ms, getattr(graph, "fastest_ms", ms))
        self._observe("dispatch", {"graph": graph, "context": ctx, "latencyMs": ms, "cpuMs": cpu_ms})
        return None

    def on_pageLatency(self, h, payload):  # noqa: N802
        """The page's own latency of a dispatch (shim: dispatch() to a read resolved), sent only
        while the host records a policy trace; it goes to the trace alone, never to any page."""
        graph = self.graphs.get(h.get("graph"))
        ms = h.get("ms")
        if self.observer is None or graph is None or not isinstance(ms, (int, float)) or isinstance(ms, bool):
            return None
        if math.isfinite(ms) and 0 <= ms < 3.6e6:
            self._observe("pageLatency", {"graph": graph, "context": graph.context, "ms": float(ms)})
        return None

    def on_graphLatency(self, h, payload):  # noqa: N802
        """The bucketed latency of a graph's latest dispatch (10-20 ms steps, coarser above)."""
        from webnn_bridge.policy import privacy

        graph = self._graph(h["graph"])
        ms = getattr(graph, "last_latency_ms", None)
        if graph.in_page:  # the page times the graphs it runs itself; the bucket is the host's rule
            ms = h.get("ms")
            if not isinstance(ms, (int, float)) or isinstance(ms, bool) or not math.isfinite(ms) or ms < 0:
                ms = None
        bucket = None if ms is None else privacy.bucket_latency(ms, graph.context.ml.rules)
        return self._ok(h, latency=bucket)

    # ------------------------------------------------------------------ lifecycle
    def close(self) -> None:
        """The page went away: lose every context and free everything."""
        if self.closed:
            return
        self.closed = True
        for ctx in self.contexts.values():
            ctx.destroy("The connection to the host was closed.")
        self.contexts.clear()
        self.graphs.clear()
        self.tensors.clear()
        self._release(list(self.uploads))
        trim_heap()

    def graph_constants(self) -> list:
        """The constant arrays of this page's graphs (the host's memory accounting)."""
        out = []
        for g in list(self.graphs.values()):
            constants = g.ir.constants
            out.extend(constants.values() if isinstance(constants, dict) else constants.loaded())
        return out

    def _observe(self, event: str, facts: dict) -> None:
        if self.observer is not None:
            try:
                self.observer(event, facts)
            except Exception:  # tracing must never break a session
                log.exception("observer failed")


def _aligned_for(raw: memoryview, item: dict) -> bool:
    """Whether a received constant's bytes can be its array in place (aligned for its data type)."""
    try:
        size = np.dtype(DATA_TYPES[item["desc"]["dataType"]].numpy).itemsize
    except (KeyError, TypeError):
        return True  # malformed: the replay reports it
    return len(raw) == 0 or np.frombuffer(raw, np.uint8).ctypes.data % size == 0


def _mostly_constants(h: dict, payload) -> bool:
    """Whether the constants a build message uploads make up most of its bytes: then they are
    used in place (no copy), without a small constant keeping a big message alive."""
    try:
        parts = {item["part"] for item in h.get("constants", []) if "part" in item}
        used = sum(len(protocol.part(h, payload, i)) for i in parts)
    except (TypeError, KeyError, ValueError, IndexError, protocol.ProtocolError):
        return False  # malformed: the replay reports it
    return payload is not None and 2 * used >= len(payload)


WARM_UP_ORIGIN = "webnn-bridge:warm-up"  # the warm-up's session's origin (its partition of the caches)


def _page_compiled(compiled):
    """A page graph's PageCompiled (backends/page.py), from the compile cache's shared entry."""
    return getattr(compiled, "compiled", compiled)


def warm_up(ml: ML) -> list[str]:
    """What a host process pays once, on its first build and run, paid before it serves: a small
    graph's build message fed to a throwaway session of a throwaway ML with ``ml``'s devices and
    rules (in-memory caches only: nothing of ``ml`` changes), once on the host and, where ``ml``
    serves a page runtime, once for the page; then a run of the host's (lazy imports, compiled
    patterns, the runtime's first session and run: 5 ms of a small graph's first build). The
    kinds of the messages that failed (none where the host works)."""
    from webnn_bridge.backends.cache import CompileCache

    # what a build of a graph with a thread pool or a tier-up imports (statistics, decimal and
    # fractions with them: 15 ms of a first such build where no bytecode is cached)
    from . import pool_trial, tier_up  # noqa: F401

    spare = ML(ml.inventory, ml.rules, ml.simulated, compile_cache=CompileCache(None))
    spare.page_device = ml.page_device
    session = _WarmUpSession(spare, WARM_UP_ORIGIN)
    w = np.linspace(-1, 1, 64, dtype=np.float32).reshape(8, 8)
    f32 = lambda shape: {"dataType": "float32", "shape": shape}  # noqa: E731
    build = {"inputs": [{"operand": 0, "name": "x", "desc": f32([1, 8])}],
             "constants": [{"operand": 1, "desc": f32([8, 8]), "part": 0,
                            "sha256": hashlib.sha256(w.tobytes()).hexdigest()}],
             "nodes": [{"op": "matmul", "args": [{"$operand": 0}, {"$operand": 1}], "outputs": [2]},
                       {"op": "relu", "args": [{"$operand": 2}], "outputs": [3]},
                       {"op": "softmax", "args": [{"$operand": 3}, 1], "outputs": [4]}],
             "outputs": {"y": 4}}
    frames = [protocol.encode({"t": "createContext", "id": 1, "ctx": 1, "options": {}}),
              protocol.encode_parts({"t": "build", "id": 2, "ctx": 1, "graph": 1, **build}, [w.tobytes()]),
              protocol.encode({"t": "createTensor", "id": 3, "ctx": 1, "tensor": 1, "desc": {**f32([1, 8]), "writable": True}}),
              protocol.encode({"t": "createTensor", "id": 4, "ctx": 1, "tensor": 2, "desc": {**f32([1, 8]), "readable": True}}),
              protocol.encode({"t": "writeTensor", "id": 5, "tensor": 1}, np.ones(8, np.float32).tobytes()),
              protocol.encode({"t": "dispatch", "id": 6, "ctx": 1, "graph": 1, "inputs": {"x": 1}, "outputs": {"y": 2}}),
              protocol.encode({"t": "readTensor", "id": 7, "tensor": 2})]
    if spare.page_device is not None:
        frames += [protocol.encode({"t": "createContext", "id": 8, "ctx": 2, "options": {}, "page": True}),
                   protocol.encode_parts({"t": "build", "id": 9, "ctx": 2, "graph": 2, **build}, [w.tobytes()])]
    failed = []
    try:
        for frame in frames:
            kind = protocol.decode(frame)[0]["t"]
            for reply in session.receive(frame):
                header, _ = protocol.decode(reply) if isinstance(reply, (str, bytes)) else ({}, None)
                if "error" in header:
                    failed.append(kind)
                    log.debug("the warm-up's %s failed: %s", kind, header["error"])
    finally:
        session.close()
    return failed


class _WarmUpSession(Session):
    """The warm-up's session: Session's methods as this module defines them, whatever a test or a
    benchmark wraps on Session later to count what pages do (the warm-up is no page)."""


for _name, _value in list(vars(Session).items()):
    if inspect.isfunction(_value):
        setattr(_WarmUpSession, _name, _value)
