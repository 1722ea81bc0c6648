"""The memory budget: bytes that a page's tensors, constants and built graphs may hold (one budget
per session, whose parent is the host's), and what a built graph is charged."""

from __future__ import annotations

import threading

import numpy as np

from webnn_bridge.ops.core import UnknownError, WebNNError
from webnn_bridge.ops.graph import GraphIR


class MemoryBudget:
    """Bytes that tensors, constants and built graphs may hold: one per session, whose parent is
    the host-wide one. ``limit`` None means unlimited. Thread-safe (sessions run on threads)."""

    def __init__(self, limit: int | None = None, parent: MemoryBudget | None = None, name: str = "session"):
        self.limit = limit
        self.parent = parent
        self.name = name
        self.used = 0
        self._lock = threading.Lock()

    def charge(self, n: int, what: str, error: type[WebNNError] = UnknownError) -> int:
        """Reserve ``n`` bytes or raise ``error`` (the spec's type for the failing call)."""
        with self._lock:
            if self.limit is not None and self.used + n > self.limit:
                raise error(f"{what} needs {n} bytes, more than the {self.name}'s allocation budget has left.")
            self.used += n
        if self.parent is not None:
            try:
                self.parent.charge(n, what, error)
            except WebNNError:
                self.release(n, parents=False)
                raise
        return n

    def release(self, n: int, parents: bool = True) -> None:
        with self._lock:
            self.used = max(0, self.used - n)
        if parents and self.parent is not None:
            self.parent.release(n)


def graph_bytes(ir: GraphIR) -> int:
    """What a built graph may hold: its constants and every intermediate/output value (an upper
    bound: the runtime reuses buffers, but constant folding may materialise any of them)."""
    produced = {oid for n in ir.nodes for oid in n.outputs}
    values = sum(ir.operands[oid].byte_length for oid in produced if oid in ir.operands)
    return values + ir.constant_bytes()


def _root(buffer):
    """The object that owns a buffer's memory (an array's base, a view's exporter)."""
    while True:
        if isinstance(buffer, np.ndarray) and buffer.base is not None:
            buffer = buffer.base
        elif isinstance(buffer, memoryview) and buffer.obj is not None:
            buffer = buffer.obj
        else:
            return buffer


def _nbytes(buffer) -> int:
    try:
        return memoryview(buffer).nbytes
    except TypeError:
        return int(getattr(buffer, "nbytes", 0))


def distinct_bytes(buffers, besides=()) -> int:
    """The memory behind ``buffers`` (arrays, views, bytes), each owner counted once, leaving out
    the owners of ``besides`` (what is already counted elsewhere, e.g. the pages' graphs): what a
    shared store adds to the process, not what its entries add up to."""
    seen = {id(_root(b)) for b in besides}
    total = 0
    for b in buffers:
        root = _root(b)
        if id(root) not in seen:
            seen.add(id(root))
            total += _nbytes(root)
    return total
