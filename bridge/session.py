"""One page connection = one Session: its contexts, graphs and tensors, invisible to others.

Sans-I/O: ``Session.receive(frame)`` takes one websocket frame and returns the frames to send
back; nothing here touches a socket. Messages are handled strictly in arrival order, which is
the context timeline (writes, dispatches and reads of a tensor happen in the order issued).
Nothing a page sends can raise out of ``receive``: bad input becomes an error reply.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from ops.core import (
    InvalidStateError,
    UnknownError,
    WebNNError,
    WebNNTypeError,
    check_dimensions,
    desc_from_dict,
)

from . import protocol
from .api import ML, MLContext, MLGraph, MLGraphBuilder, MLTensor

log = logging.getLogger("webnn_bridge.session")

Frame = str | bytes

# messages answered with a reply; the others are fire-and-forget (spec: no completion signal)
REPLIED = {"hello", "createContext", "build", "createTensor", "createConstantTensor", "readTensor"}


class Session:
    def __init__(self, ml: ML, origin: str | None = None, observer: Callable[[str, dict], None] | None = None):
        self.ml = ml
        self.origin = origin
        self.token = secrets.token_urlsafe(18)
        self.contexts: dict[int, MLContext] = {}
        self.graphs: dict[int, MLGraph] = {}
        self.tensors: dict[int, MLTensor] = {}
        self.closed = False
        self.observer = observer  # policy tracing hook: (event, facts)
        self.sent_errors = 0

    # ------------------------------------------------------------------ entry point
    def receive(self, frame: Frame) -> list[Frame]:
        try:
            header, payload = protocol.decode(frame)
        except protocol.ProtocolError as e:
            return [protocol.encode({"t": "error", "error": {"name": "DataError", "message": str(e)}})]
        kind = header["t"]
        rid = header.get("id")
        handler = getattr(self, f"on_{kind}", None)
        if handler is None:
            return [self._error(rid, WebNNTypeError(f"unknown message type '{kind}'"))]
        try:
            reply = handler(header, payload)
        except WebNNError as e:
            return self._failed(kind, header, e)
        except protocol.ProtocolError as e:
            return self._failed(kind, header, WebNNTypeError(f"malformed '{kind}' message: {e}"))
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            return self._failed(kind, header, WebNNTypeError(f"malformed '{kind}' message: {type(e).__name__}: {e}"))
        except MemoryError:
            return self._failed(kind, header, UnknownError("out of memory"))
        except Exception as e:  # a backend failure must not take the host down
            log.exception("unexpected failure handling %s", kind)
            return self._failed(kind, header, UnknownError(f"{type(e).__name__}: {e}"))
        if reply is None:
            return []
        return reply if isinstance(reply, list) else [reply]

    def _error(self, rid, e: WebNNError) -> Frame:
        return protocol.encode({"t": "reply", "re": rid, "error": e.to_wire()})

    def _failed(self, kind: str, header: dict, e: WebNNError) -> list[Frame]:
        if kind in REPLIED:
            return [self._error(header.get("id"), e)]
        # spec: failures of dispatch/writeTensor are not reported to the caller; log and tell
        # the page's console through an event (no promise to reject)
        log.info("session %s: %s failed: %s", self.token[:6], kind, e)
        self.sent_errors += 1
        return [protocol.encode({"t": "warning", "op": kind, "error": e.to_wire()})]

    def _ok(self, header: dict, **fields) -> Frame:
        return protocol.encode({"t": "reply", "re": header.get("id"), "ok": protocol.encode_value(fields)})

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
        return self._ok(h, session=self.token, protocol=protocol.PROTOCOL_VERSION)

    def on_createContext(self, h, payload):  # noqa: N802
        cid = self._new_id(self.contexts, h["ctx"])
        options = protocol.decode_value(h.get("options") or {})
        ctx = self.ml.createContext(options)
        self.contexts[cid] = ctx
        self._observe("createContext", {"options": options, "decision": ctx.decision, "context": ctx})
        # the shim runs the op rules itself (generated from ops/): it needs the capabilities the
        # builder enforces, i.e. the context's privacy-bucketed profile (data only)
        return self._ok(h, accelerated=ctx.accelerated, limits=ctx.opSupportLimits(), rules=rules_wire(ctx))

    def on_destroyContext(self, h, payload):  # noqa: N802
        ctx = self.contexts.get(h.get("ctx"))
        if ctx is not None:
            ctx.destroy()
            self._forget(ctx)
        return None

    def _forget(self, ctx: MLContext) -> None:
        for table in (self.graphs, self.tensors):
            for k in [k for k, v in table.items() if v.context is ctx]:
                del table[k]

    def on_build(self, h, payload):
        ctx = self._context(h["ctx"])
        gid = self._new_id(self.graphs, h["graph"])
        graph = self.replay(ctx, h, payload)
        self.graphs[gid] = graph
        self._observe("build", {"graph": graph, "context": ctx})
        return self._ok(h, **placement_report(graph))

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
        for item in h.get("constants", []):
            if "part" in item:
                desc = check_dimensions(desc_from_dict(item["desc"]))
                raw = protocol.part(h, payload, item["part"])
                operands[item["operand"]] = b.constant(item["desc"], np.frombuffer(raw, dtype=desc.numpy_dtype))
            elif "scalar" in item:
                s = item["scalar"]
                operands[item["operand"]] = b.constant(s["dataType"], protocol.decode_value(s["value"]))
            else:
                operands[item["operand"]] = b.constant(self._tensor(item["tensor"]))
        for node in h.get("nodes", []):
            args = protocol.decode_value(node["args"], resolve)
            op = node["op"]
            if not isinstance(op, str) or op in ("input", "constant", "build"):
                raise WebNNTypeError(f"'{op}' is not an operator")
            result = getattr(b, op)(*args)
            outs = result if isinstance(result, list) else [result]
            ids = node["outputs"]
            if len(ids) != len(outs):
                raise WebNNTypeError(f"{op}: the page expected {len(ids)} outputs, the operator has {len(outs)}")
            for oid, o in zip(ids, outs):
                operands[oid] = o
        outputs = {name: resolve({"$operand": oid}) for name, oid in h["outputs"].items()}
        return b.build(outputs)

    def on_destroyGraph(self, h, payload):  # noqa: N802
        g = self.graphs.pop(h.get("graph"), None)
        if g is not None:
            g.destroy()
        return None

    def on_createTensor(self, h, payload):  # noqa: N802
        ctx = self._context(h["ctx"])
        tid = self._new_id(self.tensors, h["tensor"])
        self.tensors[tid] = ctx.createTensor(h["desc"])
        return self._ok(h)

    def on_createConstantTensor(self, h, payload):  # noqa: N802
        ctx = self._context(h["ctx"])
        tid = self._new_id(self.tensors, h["tensor"])
        if payload is None:
            raise WebNNTypeError("createConstantTensor needs data")
        self.tensors[tid] = ctx.createConstantTensor(h["desc"], payload)
        return self._ok(h)

    def on_writeTensor(self, h, payload):  # noqa: N802
        t = self._tensor(h["tensor"])
        if payload is None:
            raise WebNNTypeError("writeTensor needs data")
        t.context.writeTensor(t, payload)
        return None

    def on_readTensor(self, h, payload):  # noqa: N802
        t = self._tensor(h["tensor"])
        data = t.context.readTensor(t)
        return protocol.encode({"t": "reply", "re": h.get("id"), "ok": {}}, np.ascontiguousarray(data).tobytes())

    def on_destroyTensor(self, h, payload):  # noqa: N802
        t = self.tensors.pop(h.get("tensor"), None)
        if t is not None:
            t.destroy()
        return None

    def on_dispatch(self, h, payload):
        ctx = self._context(h["ctx"])
        graph = self._graph(h["graph"])
        ins = {k: self._tensor(v) for k, v in h["inputs"].items()}
        outs = {k: self._tensor(v) for k, v in h["outputs"].items()}
        t0 = time.perf_counter()
        ctx.dispatch(graph, ins, outs)
        ms = (time.perf_counter() - t0) * 1000.0
        graph.last_latency_ms = ms  # operator-side only; pages get a bucket (on_graphLatency)
        self._observe("dispatch", {"graph": graph, "context": ctx, "latencyMs": ms})
        return None

    def on_graphLatency(self, h, payload):  # noqa: N802
        """The bucketed latency of a graph's latest dispatch (10-20 ms steps, coarser above)."""
        from policy import privacy

        graph = self._graph(h["graph"])
        ms = getattr(graph, "last_latency_ms", None)
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

    def _observe(self, event: str, facts: dict) -> None:
        if self.observer is not None:
            try:
                self.observer(event, facts)
            except Exception:  # tracing must never break a session
                log.exception("observer failed")


def rules_wire(ctx: MLContext) -> dict:
    """The context's capabilities as the shim's translated rules read them (bridge/api.py
    _check_capabilities): per op and operand the data types, rank range and "same as" link."""
    caps = ctx.capabilities
    ops = {
        op: {name: {"types": list(lim.types), "ranks": list(lim.ranks), "same": lim.same} for name, lim in lims.items()}
        for op, lims in caps.ops.items()
    }
    return {"ops": ops, "maxRank": caps.max_rank, "maxTensorByteLength": caps.max_tensor_byte_length}


def placement_report(graph: MLGraph) -> dict:
    """What a page learns after build() (experimental, namespaced as WebNNBridge in the shim):
    the effective policy (#934) and a DAOP-style QoS tier, both coarse and identity-free."""
    from policy import privacy

    p = graph.placement
    if p is None:
        return {}
    rules = graph.context.ml.rules
    report = {"effective": privacy.effective_report(p, rules, simulated=graph.context.ml.simulated)}
    try:
        report["qos"] = privacy.estimate_qos(graph.ir, p.device, rules, placement=p)
    except Exception:  # an estimate is optional; never fail a build over it
        log.exception("QoS estimate failed")
    return report
