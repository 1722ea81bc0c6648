"""The build memo's disk entries (bridge/memo.py BuildMemo): a validated build as JSON, without
its constants' bytes, and the host fingerprint that an entry must match to be read.

An entry holds the graph IR (operand descriptors, inputs, outputs, the builder calls of every node
as the replay left them), the placement (devices by id), the compile cache's digest of the graph
and its size. Constants are named by their SHA-256 (a page's constants, which the ConstantStore
keeps and checks against it) or written out when they are tiny (scalars); a graph with any other
constant is not written. Only plain values are written (no pickle): reading a file builds data,
never code, and anything unexpected in it makes it a miss (the message is replayed).

Constants are read only when something needs their bytes (LazyConstants): with ONNX Runtime's
optimized model in the compile cache, a restarted host builds a remembered graph without reading
them at all.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from webnn_bridge.ops.core import DATA_TYPES, OperandDesc
from webnn_bridge.ops.graph import GraphIR, Node, Ref, node_refs
from webnn_bridge.ops.registry import Call, OperandList, load_all

from .buffers import buffer_bytes, constant_array
from .memo import SHA256_HEX, Validated

FORMAT = 1
INLINE_BYTES = 256  # constants without a digest up to this size are written into the entry
SOURCES = ("bridge", "ops", "policy", "backends", "idl")  # the host's code and data
SOURCE_SUFFIXES = (".py", ".toml", ".idl", ".json")


class ConstantUnavailable(Exception):
    """Constants that a remembered graph names by digest are held nowhere any more (evicted, or
    their file was damaged): the page must send their bytes."""

    def __init__(self, digests: Sequence[str]):
        super().__init__(f"{len(digests)} constant(s) unavailable")
        self.digests = sorted(set(digests))


# ------------------------------------------------------------------ fingerprint
@functools.lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """A digest of the host's code and data files (operators, IDL, rules, policy, backends)."""
    root = Path(__file__).resolve().parent.parent
    h = hashlib.blake2b(digest_size=16)
    for folder in SOURCES:
        for f in sorted((root / folder).rglob("*")):
            if f.suffix in SOURCE_SUFFIXES and "fixtures" not in f.relative_to(root).parts and f.is_file():
                h.update(f"{f.relative_to(root)}\0".encode())
                h.update(f.read_bytes())
    return h.hexdigest()


def host_fingerprint(inventory: Sequence, rules: Mapping | None, simulated: bool) -> str:
    """Everything besides a message and its context that decides how the host validates and
    places it: this code, the rules, the devices and their capabilities."""
    from webnn_bridge.policy.inventory import capabilities_of

    h = hashlib.blake2b(digest_size=16)
    h.update(repr((FORMAT, code_fingerprint(), rules, simulated)).encode())
    for d in inventory:
        h.update(repr((type(d).__name__, d, capabilities_of(d))).encode())
    return h.hexdigest()


# ------------------------------------------------------------------ constants read when needed
class LazyConstants(Mapping):
    """A remembered graph's constants (oid -> array, in the graph's order): their sizes are known
    at once (``nbytes``); the bytes are fetched (``resolve(sha256)``, e.g. from the ConstantStore,
    which checks them against their digest) and turned into arrays the first time any is needed,
    all at once. Thread-safe."""

    def __init__(self, specs: dict[int, tuple[OperandDesc, str | None, np.ndarray | None, int]],
                 resolve: Callable[[str], Any]):
        self._specs = specs  # oid -> (descriptor, SHA-256 or None, the array when written inline, nbytes)
        self._resolve = resolve
        self._arrays: dict[int, np.ndarray] | None = None
        self._lock = threading.Lock()
        self.nbytes = sum(spec[3] for spec in specs.values())

    def load(self, resolve: Callable[[str], Any] | None = None) -> dict[int, np.ndarray]:
        """The arrays; ``resolve``: where this build finds the bytes first (a page's upload),
        before the one the entry was read with. Raises ConstantUnavailable."""
        with self._lock:
            if self._arrays is None:
                raws = {oid: spec[2] if spec[1] is None else _fetch(spec[1], resolve, self._resolve)
                        for oid, spec in self._specs.items()}
                missing = [self._specs[oid][1] for oid, raw in raws.items() if raw is None]
                if missing:
                    raise ConstantUnavailable(missing)
                self._arrays = {oid: _constant(self._specs[oid], raw) for oid, raw in raws.items()}
            return self._arrays

    def loaded(self) -> list[np.ndarray]:
        """The arrays already loaded (none before the first use): the host's memory accounting."""
        arrays = self._arrays
        return list(arrays.values()) if arrays is not None else []

    def __getitem__(self, oid: int) -> np.ndarray:
        return self.load()[oid]

    def __contains__(self, oid: object) -> bool:
        return oid in self._specs

    def __iter__(self) -> Iterator[int]:
        return iter(self._specs)

    def __len__(self) -> int:
        return len(self._specs)


def _fetch(sha: str, *sources: Callable[[str], Any] | None):
    for source in sources:
        raw = source(sha) if source is not None else None
        if raw is not None:
            return raw
    return None


def _constant(spec: tuple, raw) -> np.ndarray:
    """A constant's array from its bytes, as MLGraphBuilder.constant() makes it."""
    from webnn_bridge.backends.cache import remember_digest

    desc, sha, inline, nbytes = spec
    if inline is not None:
        return inline
    a = constant_array(buffer_bytes(memoryview(raw), desc, "constant()"), desc)
    a.flags.writeable = False
    if a.nbytes != nbytes:
        raise ValueError("a remembered constant does not have its recorded size")
    if not DATA_TYPES[desc.data_type].is_packed:
        remember_digest(a, bytes.fromhex(sha))  # checked against it: not hashed again
    return a


# ------------------------------------------------------------------ values
def _enc(v: Any, devices: bool = False) -> Any:
    """A value of a builder call or a placement as JSON, its Python type kept (a tuple is not a
    list); anything else raises TypeError (the entry is not written)."""
    if v is None or isinstance(v, (bool, str)) or type(v) in (int, float):
        return v
    if type(v) is list:
        return [_enc(x, devices) for x in v]
    if type(v) is tuple:
        return {"t": [_enc(x, devices) for x in v]}
    if type(v) is OperandList:
        return {"l": [_enc(x, devices) for x in v]}
    if type(v) is Ref:
        return {"r": v.id}
    if type(v) is dict and all(type(k) is str for k in v):
        return {"d": [[k, _enc(x, devices)] for k, x in v.items()]}
    if devices and dataclasses.is_dataclass(v) and hasattr(v, "kind") and hasattr(v, "backend"):
        return {"device": v.id}
    raise TypeError(f"cannot remember a {type(v).__name__}")


def _decoder(devices: Mapping) -> Callable[[dict], Any]:
    """json.loads's object_hook for what _enc wrote (the entry itself is the only object with
    more than one key)."""

    def dec(obj: dict) -> Any:
        if len(obj) != 1:
            return obj
        ((tag, x),) = obj.items()
        if tag == "t":
            return tuple(x)
        if tag == "l":
            return OperandList(x)
        if tag == "r":
            return Ref(_int(x))
        if tag == "d":
            return {_str(k): v for k, v in x}
        if tag == "device":
            return devices[x]  # KeyError: a device this host does not have
        raise ValueError(f"unknown tag {tag!r}")

    return dec


def _int(v: Any) -> int:
    if type(v) is not int:
        raise ValueError("an id must be an integer")
    return v


def _str(v: Any) -> str:
    if type(v) is not str:
        raise ValueError("a name must be a string")
    return v


# ------------------------------------------------------------------ entries
def encode(value: Validated) -> bytes:
    """An entry's bytes (TypeError / ValueError: the build cannot be written)."""
    ir = value.ir
    digests = ir.derived.get("constant_sha256", {})
    constants = []
    for oid, a in ir.constants.items():
        a = np.asarray(a)
        sha = digests.get(oid)
        inline = None
        if sha is None:
            desc = ir.operands[oid]
            if a.nbytes > INLINE_BYTES or a.dtype != desc.numpy_dtype or a.shape != desc.shape:
                raise ValueError("a constant without a digest")
            inline = a.tobytes().hex()
        constants.append([oid, sha, inline, int(a.nbytes)])
    placement = value.placement
    entry = {
        "operands": [[oid, d.data_type, list(d.shape)] for oid, d in ir.operands.items()],
        "inputs": [[name, oid] for name, oid in ir.inputs.items()],
        "constants": constants,
        "nodes": [[n.op, n.call.op, _enc(n.call.args), _enc(n.call.options), list(n.outputs)] for n in ir.nodes],
        "outputs": [[name, oid] for name, oid in ir.outputs.items()],
        "placement": None if placement is None else [type(placement).__module__, type(placement).__qualname__, _enc(
            {f.name: getattr(placement, f.name) for f in dataclasses.fields(placement)}, devices=True)],
        "digest": value.digest,
        "size": value.size,
    }
    return json.dumps(entry, separators=(",", ":")).encode()


def decode(body: bytes, inventory: Sequence, resolve: Callable[[str], Any]) -> Validated:
    """An entry read back (ValueError, KeyError, TypeError when it is not one this code wrote);
    its constants are fetched with ``resolve`` when first needed."""
    e = json.loads(body, object_hook=_decoder({d.id: d for d in inventory}))
    if not isinstance(e, dict) or len(e) == 1:
        raise ValueError("not an entry")
    ir = GraphIR()
    for oid, dt, shape in e["operands"]:
        if dt not in DATA_TYPES or not all(type(s) is int and s >= 0 for s in shape):
            raise ValueError("a malformed descriptor")
        ir.operands[_int(oid)] = OperandDesc(dt, tuple(shape))
    ir.inputs = {_str(name): _int(oid) for name, oid in e["inputs"]}
    ir.outputs = {_str(name): _int(oid) for name, oid in e["outputs"]}
    specs = {}
    for oid, sha, inline, nbytes in e["constants"]:
        desc = ir.operands[_int(oid)]
        array = None
        if sha is None:
            array = np.frombuffer(bytes.fromhex(inline), desc.numpy_dtype).reshape(desc.shape)
        elif type(sha) is not str or not SHA256_HEX.fullmatch(sha):
            raise ValueError("a malformed digest")
        specs[_int(oid)] = (desc, sha, array, _int(nbytes))
    ir.constants = LazyConstants(specs, resolve)
    ir.nodes = [Node(_str(op), Call(_str(call_op), args, options), [_int(o) for o in outs])
                for op, call_op, args, options, outs in e["nodes"]]
    ops = load_all()
    for n in ir.nodes:
        if n.op not in ops or not isinstance(n.call.args, dict) or not isinstance(n.call.options, dict):
            raise ValueError("a malformed call")
        if any(o not in ir.operands for o in (*n.outputs, *node_refs(n))):
            raise ValueError("an operand without a descriptor")
    if any(o not in ir.operands for o in (*ir.inputs.values(), *ir.outputs.values())):
        raise ValueError("an operand without a descriptor")
    if e["digest"] is not None and type(e["digest"]) is not str:
        raise ValueError("a malformed digest")
    return Validated(ir, _placement(e["placement"]), e["digest"], _int(e["size"]))


def _placement(p):
    if p is None:
        return None
    from webnn_bridge.policy.engine import Placement

    module, name, values = p
    if (module, name) != (Placement.__module__, Placement.__qualname__) or not isinstance(values, dict):
        raise ValueError("not a placement")
    if set(values) != {f.name for f in dataclasses.fields(Placement)}:
        raise ValueError("not this code's placement")
    return Placement(**values)
