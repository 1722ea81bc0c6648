"""The operator registry: one OpDef per WebNN operator, loaded from ops/defs/*.py.

An OpDef keeps everything about one operator together:
- ``limits``: the spec's "tensor limits" table (allowed data types and ranks per operand);
  it drives the generic checks below and ``opSupportLimits()``;
- ``infer(call)``: op-specific validation and shape inference on descriptors;
- ``reference(call)``: numpy reference on arrays;
- ``lower(onnx_builder, call)``: ONNX lowering on value names;
- ``coreml`` / ``torch``: Core ML (MIL) and PyTorch lowerings, attached by attach_coreml/attach_torch.

The three functions receive the same ``Call`` (arguments after WebIDL conversion, named as in
the IDL) with operand values substituted: descriptors, numpy arrays or ONNX value names.
"""

from __future__ import annotations

import importlib
import pkgutil
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .core import ALL_TYPES, OperandDesc, WebNNTypeError, check_dimensions

# --------------------------------------------------------------------------- limits


@dataclass(frozen=True)
class Limits:
    """Allowed data types and ranks of one operand of an op (one row of a tensor limits table).

    ``types`` is a tuple of data type names, or ``same=NAME`` says "same as operand NAME".
    ``ranks`` is (min, max) with max None meaning unbounded; ``same_rank=NAME`` ties it to NAME.
    ``required_types``/``required_ranks`` are the spec's "must support" columns.
    """

    types: tuple[str, ...] = ALL_TYPES
    ranks: tuple[int, int | None] = (0, None)
    same: str | None = None
    same_rank: str | None = None
    required_types: tuple[str, ...] = ()
    required_ranks: tuple[int, int] | None = None


@dataclass
class Capabilities:
    """What a device executes: per op, per operand, the data types and ranks (a narrowing of the
    registry's spec limits). Drives opSupportLimits() and policy feasibility checks."""

    ops: dict[str, dict[str, Limits]]
    max_rank: int = 8
    max_tensor_byte_length: int = 2**31 - 1
    preferred_input_layout: str = "nchw"

    def supports(self, op: str) -> bool:
        return op in self.ops


def resolve_same(limits: Mapping[str, Limits], name: str) -> Limits:
    """Operand ``name``'s limits with "same as" links followed: the data types of the operand it
    names, and its rank range too when the rank is tied (same_rank). Cycles stop the walk."""
    lim = limits[name]
    seen = {name}
    while lim.same is not None and lim.same in limits and lim.same not in seen:
        seen.add(lim.same)
        ref = limits[lim.same]
        lim = Limits(types=ref.types, ranks=lim.ranks if lim.same_rank is None else ref.ranks, same=ref.same)
    return lim


def same_as(name: str, same_rank: bool = True, ranks: tuple[int, int | None] = (0, None)) -> Limits:
    """Data type "same as NAME"; with same_rank the rank must match NAME's too."""
    return Limits(same=name, ranks=ranks, same_rank=name if same_rank else None)


# --------------------------------------------------------------------------- calls


class OperandList(list):
    """A sequence<MLOperand> argument (concat inputs)."""


@dataclass
class Call:
    """One builder call: op name, positional args and options, as the IDL names them."""

    op: str
    args: dict[str, Any]
    options: dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, name: str) -> Any:
        if name in self.args:
            return self.args[name]
        return self.options.get(name)

    def get(self, name: str, default: Any = None) -> Any:
        v = self[name]
        return default if v is None else v

    @property
    def label(self) -> str:
        return self.options.get("label") or ""

    def map_operands(self, fn: Callable[[Any], Any], is_operand: Callable[[Any], bool]) -> Call:
        def conv(v):
            if isinstance(v, OperandList):
                return OperandList(fn(x) for x in v)
            if is_operand(v):
                return fn(v)
            return v

        return Call(self.op, {k: v if v.__class__ in PLAIN else conv(v) for k, v in self.args.items()},
                    {k: v if v.__class__ in PLAIN else conv(v) for k, v in self.options.items()})

    def operands(self, is_operand: Callable[[Any], bool]) -> Iterator[tuple[str, Any]]:
        for source in (self.args, self.options):
            for k, v in source.items():
                if v.__class__ in PLAIN:
                    continue
                if isinstance(v, OperandList):
                    for x in v:
                        yield k, x
                elif is_operand(v):
                    yield k, v


# argument values of these exact classes are never operands (whatever stands for an operand in a
# Call, an MLOperand, OperandDesc or Ref, has a class of its own; a sequence of operands is an
# OperandList): map_operands and operands pass them over without asking is_operand
PLAIN = frozenset({int, float, bool, type(None), list, tuple, dict})


# --------------------------------------------------------------------------- op definitions


def _no_lowering(lb, call):  # pragma: no cover - replaced per op
    raise NotImplementedError


@dataclass
class OpDef:
    name: str
    limits: Mapping[str, Limits]
    infer: Callable[[Call], Sequence[OperandDesc]]
    reference: Callable[[Call], Sequence[Any]]
    lower: Callable[[Any, Call], Sequence[str]] = _no_lowering
    # Core ML ML Program lowering (coremltools MIL builder): fn(mb, call) -> output vars; None: absent
    coreml: Callable[[Any, Call], Sequence[Any]] | None = None
    coreml_types: tuple[str, ...] | None = None  # data types the Core ML lowering takes (None: any)
    # PyTorch lowering (backends/torch.py): fn(tb, call) -> output tensors, operands as torch tensors
    # in their storage types (TorchBuilder.storage); None: absent
    torch: Callable[[Any, Call], Sequence[Any]] | None = None
    torch_types: tuple[str, ...] | None = None  # data types the torch lowering takes (None: any)
    # LiteRT lowering (backends/litert.py): fn(lt, call) -> output values of the TFLite model being
    # built (LiteBuilder), operands as its values; None: absent
    litert: Callable[[Any, Call], Sequence[Any]] | None = None
    # names of limits entries that describe outputs, in output order
    outputs: tuple[str, ...] = ("output",)
    # conformance tolerance (WPT rule): ("ulp", n) or ("atol", x); may be a function of the call
    tolerance: Any = ("ulp", 0)
    doc: str = ""

    def validate(self, call: Call) -> list[OperandDesc]:
        """Generic tensor-limits checks, then the op's own inference. Raises WebNNTypeError."""
        descs: dict[str, OperandDesc] = {}
        for name, d in call.operands(_is_desc):
            descs.setdefault(name, d)
            self._check_limits(name, d, descs)
        outs = list(self.infer(call))
        for i, out in enumerate(outs):
            # every operand an op creates must pass the spec's "check dimensions" (valid dimensions,
            # element count in the range of long): overflowing shape arithmetic is a TypeError
            check_dimensions(out, "output")
            lname = self.outputs[min(i, len(self.outputs) - 1)]
            if lname in self.limits:
                self._check_limits(lname, out, {**descs, lname: out}, output=True)
        return outs

    def _check_limits(self, name: str, d: OperandDesc, descs: dict, output: bool = False) -> None:
        lim = self.limits.get(name)
        if lim is None:
            return
        what = f"{self.name}: {'output' if output else 'operand'} '{name}'"
        if lim.same is not None and lim.same in descs:
            if d.data_type != descs[lim.same].data_type:
                raise WebNNTypeError(
                    f"{what} has data type {d.data_type}, which must match '{lim.same}' ({descs[lim.same].data_type})."
                )
        elif lim.same is None and d.data_type not in lim.types:
            raise WebNNTypeError(f"{what} has unsupported data type {d.data_type}; allowed: {', '.join(lim.types)}.")
        if lim.same_rank is not None and lim.same_rank in descs and lim.same_rank != name:
            if d.rank != descs[lim.same_rank].rank:
                raise WebNNTypeError(f"{what} has rank {d.rank}, which must match '{lim.same_rank}'.")
        lo, hi = lim.ranks
        if d.rank < lo or (hi is not None and d.rank > hi):
            raise WebNNTypeError(f"{what} has rank {d.rank}; allowed ranks are {lo}..{'N' if hi is None else hi}.")


def _is_desc(v: Any) -> bool:
    return isinstance(v, OperandDesc)


# --------------------------------------------------------------------------- the registry

REGISTRY: dict[str, OpDef] = {}


def register(*defs: OpDef) -> None:
    for d in defs:
        if d.name in REGISTRY:
            raise RuntimeError(f"operator {d.name} registered twice")
        REGISTRY[d.name] = d


def attach_coreml(lowerings: Mapping[str, Callable[[Any, Call], Sequence[Any]]],
                  types: Sequence[str] | None = None) -> None:
    """Give registered ops their Core ML (MIL) lowering, next to their ONNX ``lower``; ``types``
    narrows the data types the lowering takes."""
    for name, fn in lowerings.items():
        REGISTRY[name].coreml = fn
        REGISTRY[name].coreml_types = None if types is None else tuple(types)


def attach_torch(lowerings: Mapping[str, Callable[[Any, Call], Sequence[Any]]],
                 types: Sequence[str] | None = None) -> None:
    """Give registered ops their PyTorch lowering (backends/torch.py), next to their ONNX ``lower``;
    ``types`` narrows the data types the lowering takes."""
    for name, fn in lowerings.items():
        REGISTRY[name].torch = fn
        REGISTRY[name].torch_types = None if types is None else tuple(types)


def attach_litert(lowerings: Mapping[str, Callable[[Any, Call], Sequence[Any]]]) -> None:
    """Give registered ops their LiteRT (TFLite) lowering (backends/litert.py), next to their ONNX
    ``lower``; every one takes float32 (the backend's one data type)."""
    for name, fn in lowerings.items():
        REGISTRY[name].litert = fn


_LOAD_LOCK = threading.RLock()
_loaded = False


def load_all() -> dict[str, OpDef]:
    """Import every module in ops/defs; each registers its operators. Thread-safe: the host's
    sessions run on worker threads, and none may see a half-filled registry."""
    global _loaded
    if not _loaded:
        with _LOAD_LOCK:
            if not _loaded:
                from . import defs

                for mod in sorted(pkgutil.iter_modules(defs.__path__), key=lambda m: m.name):
                    importlib.import_module(f"{defs.__name__}.{mod.name}")
                _loaded = True
    return REGISTRY


def get(name: str) -> OpDef | None:
    return load_all().get(name)
