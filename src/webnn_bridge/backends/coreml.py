"""Core ML backend: WebNN graphs lowered to an ML Program with coremltools' MIL builder, one op at a
time by each op's own ``coreml`` lowering (ops/defs/*.py, next to its ONNX ``lower``).

While building, MIL infers every value's type and shape itself; the converter checks them against
ours and refuses the graph when they disagree. int8/uint8 values live inside the program (iOS17
MIL) but cross the model's edges as int32, and scalars as shape [1]: Core ML's inputs and outputs
have neither. Devices are compute-unit choices the policy picks
by kind: CPU_ONLY (cpu), CPU_AND_GPU (gpu), CPU_AND_NE (npu). Conversion and .mlpackage saving
work wherever coremltools installs (tested on Linux); prediction needs macOS, so probe() finds
devices only there (and does not import coremltools at start-up).
"""

from __future__ import annotations

import functools
import gc
import importlib.util
import platform
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from webnn_bridge.ops.core import OperationError
from webnn_bridge.ops.graph import GraphIR
from webnn_bridge.ops.registry import load_all

from .base import Backend, Capabilities, Compiled, Device, lower_nodes

# WebNN types a Core ML model takes and returns as they are
IO_TYPES = ("float32", "float16", "int32")
# WebNN types an ML Program carries inside (iOS17 MIL); at the model's edges they travel as int32
# (exact: every value fits), cast on the way in and out
NARROW_TYPES = ("int8", "uint8")
COREML_TYPES = IO_TYPES + NARROW_TYPES
# data types of an op whose lowering does not name its own (MIL's element-wise domain)
DEFAULT_OP_TYPES = IO_TYPES
MAX_RANK = 5
# device kind -> coremltools ComputeUnit name
COMPUTE_UNITS = {"cpu": "CPU_ONLY", "gpu": "CPU_AND_GPU", "npu": "CPU_AND_NE"}


class MilDisagreement(OperationError):
    """MIL's own type/shape inference differs from WebNN's for a value of the graph."""


def _mil():
    from coremltools.converters.mil import Builder
    from coremltools.converters.mil.mil import types

    return Builder, types


class MilBuilder:
    """What an op's ``coreml`` lowering uses: coremltools' MIL Builder, plus scalar()."""

    def __init__(self):
        self._mb, self._types = _mil()

    def __getattr__(self, name):
        return getattr(self._mb, name)

    def scalar(self, value, like):
        """A constant of ``like``'s MIL data type; infinities become an integer type's limits."""
        dtype = np.dtype(self._types.nptype_from_builtin(like.dtype))
        if dtype.kind in "iu" and np.isinf(value):
            value = np.iinfo(dtype).max if value > 0 else np.iinfo(dtype).min
        return self._mb.const(val=np.array(value, dtype=dtype))

    def is_float(self, var) -> bool:
        return bool(self._types.is_float(var.dtype))

    def webnn_type(self, var) -> str:
        return np.dtype(self._types.nptype_from_builtin(var.dtype)).name

    def wide(self, var):
        """int8/uint8 -> int32 (exact), for MIL ops whose domain is fp16/fp32/int32 only."""
        return self._mb.cast(x=var, dtype="int32") if self.webnn_type(var) in NARROW_TYPES else var

    def narrow(self, var, data_type: str):
        """Back to ``data_type`` after wide() (values known to be in range): a cast only where wide() made one."""
        return self._mb.cast(x=var, dtype=data_type) if data_type in NARROW_TYPES else var

    def wrap(self, var, data_type: str):
        """An int32 result as int8/uint8 keeping its low 8 bits (two's complement wrap-around), from an
        int32 floor division: MIL has no bitwise ops and leaves an out-of-range cast undefined."""
        if data_type not in NARROW_TYPES:
            return var
        mb = self._mb
        w = self.wide(var)
        low = mb.sub(x=w, y=mb.mul(x=mb.floor_div(x=w, y=np.int32(256)), y=np.int32(256)))  # 0..255
        if data_type == "int8":
            low = mb.select(cond=mb.greater_equal(x=low, y=np.int32(128)), a=mb.sub(x=low, y=np.int32(256)), b=low)
        return mb.cast(x=low, dtype=data_type)

    def to_bool(self, var):
        """WebNN's uint8 booleans: non-zero is true."""
        return self._mb.not_equal(x=self.wide(var), y=np.int32(0))

    def to_u8(self, var):
        """A MIL bool result as WebNN's uint8 (1/0)."""
        return self._mb.cast(x=var, dtype="uint8")

    def broadcast_to(self, var, shape):
        """``var`` repeated to ``shape`` (unidirectional broadcasting) by reshape and tile."""
        shape = [int(d) for d in shape]
        padded = [1] * (len(shape) - var.rank) + [int(d) for d in var.shape]
        if padded == shape:
            return var
        y = self._mb.reshape(x=var, shape=np.array(padded, np.int32)) if len(padded) != var.rank else var
        return self._mb.tile(x=y, reps=[n if p == 1 else 1 for p, n in zip(padded, shape)])

    def pad_blocks(self, var, widths, value):
        """``var`` padded with constant blocks of ``value`` (widths: (begin, end) per axis), for every
        type (MIL's pad is float-only)."""
        dtype = np.dtype(self.webnn_type(var))
        y = var
        for axis, (b, e) in enumerate(widths):
            shape = [int(d) for d in y.shape]
            blocks = [np.full(shape[:axis] + [n] + shape[axis + 1:], value, dtype) for n in (b, e)]
            parts = ([blocks[0]] if b else []) + [y] + ([blocks[1]] if e else [])
            y = self._mb.concat(values=parts, axis=axis) if len(parts) > 1 else y
        return y

    def round_even(self, x):
        """Round half to even from floor and exact comparisons: MIL's round leaves halves to the
        device (Apple: ties go either way depending on the backend that runs it)."""
        mb = self._mb
        f = mb.floor(x=x)
        d = mb.sub(x=x, y=f)  # exact for finite x; NaN for NaN and infinities (which keep f)
        half = self.scalar(0.5, like=x)
        f_half = mb.mul(x=f, y=half)
        odd = mb.not_equal(x=mb.floor(x=f_half), y=f_half)
        up = mb.logical_or(x=mb.greater(x=d, y=half), y=mb.logical_and(x=mb.equal(x=d, y=half), y=odd))
        return mb.select(cond=up, a=mb.add(x=f, y=self.scalar(1, like=x)), b=f)


def coreml_ops() -> list[str]:
    """The ops that have a Core ML lowering."""
    return sorted(name for name, op in load_all().items() if op.coreml is not None)


def _check(var, desc, what: str, types) -> None:
    shape = tuple(int(d) for d in var.shape)
    dtype = np.dtype(types.nptype_from_builtin(var.dtype))
    if shape != tuple(desc.shape) or dtype != desc.numpy_dtype:
        raise MilDisagreement(f"{what}: MIL infers {dtype}{list(shape)}, WebNN {desc.data_type}{list(desc.shape)}")


def mil_program(graph: GraphIR):
    """GraphIR -> (MIL Program, input name map, output name map). Raises OperationError for ops
    without a Core ML lowering and MilDisagreement when MIL's inference differs from ours."""
    from coremltools.converters.mil.mil import Function, Program

    mb, types = MilBuilder(), _mil()[1]
    in_map = {name: f"input_{i}" for i, name in enumerate(graph.inputs)}
    placeholders = {}
    for name, oid in graph.inputs.items():
        desc = graph.operands[oid]
        if desc.data_type not in COREML_TYPES:
            raise OperationError(f"Core ML: input data type {desc.data_type} is not supported")
        dtype = types.numpy_type_to_builtin_type(np.dtype(_io_type(desc.data_type)))
        placeholders[in_map[name]] = mb.placeholder(shape=_io_shape(desc.shape), dtype=dtype)
    out_map = {name: f"output_{i}" for i, name in enumerate(graph.outputs)}
    with Function(placeholders, opset_version=_target()) as fn:
        values = {oid: _input(mb, fn.inputs[in_map[name]], graph.operands[oid])
                  for name, oid in graph.inputs.items()}
        for oid, arr in graph.constants.items():
            values[oid] = mb.const(val=arr)
        lower_nodes(graph, values, "coreml", mb, "Core ML",
                    lambda var, oid, what: _check(var, graph.operands[oid], what, types))
        fn.set_outputs([_output(mb, values[oid], graph.operands[oid].data_type, out_map[name])
                        for name, oid in graph.outputs.items()])
    prog = Program()
    prog.add_function("main", fn)
    return prog, in_map, out_map


def _io_type(data_type: str) -> str:
    return "int32" if data_type in NARROW_TYPES else data_type


def _io_shape(shape) -> list[int]:
    """Core ML model inputs and outputs have rank >= 1: a scalar travels as shape [1]."""
    return [int(d) for d in shape] or [1]


def _input(mb, var, desc):
    if not desc.shape:
        var = mb.squeeze(x=var)
    return mb.narrow(var, desc.data_type)


def _output(mb, var, data_type: str, name: str):
    if var.rank == 0:
        var = mb.expand_dims(x=var, axes=[0])
    if data_type in NARROW_TYPES:
        return mb.cast(x=var, dtype=_io_type(data_type), name=name)
    return mb.identity(x=var, name=name)


def _target():
    return _coremltools().target.iOS17


class _YoungCollections:
    """The gc module as coremltools' converter sees it (see _coremltools): collect() looks at the
    youngest generation only."""

    def __getattr__(self, name):
        return getattr(gc, name)

    @staticmethod
    def collect(generation: int = 0) -> int:
        return gc.collect(0)


@functools.cache
def _coremltools():
    """coremltools, imported once. Its convert() ends with a full gc.collect(), which walks every
    object of the process while holding the GIL: in a host with a big heap that stalls every page's
    session (and a test process's, 0.3 to 1 s per conversion). The converter's own garbage is young,
    so it gets a young-generation collection instead."""
    import coremltools as ct
    from coremltools.converters import _converters_entry

    if getattr(_converters_entry, "gc", None) is gc:
        _converters_entry.gc = _YoungCollections()
    return ct


def convert(graph: GraphIR, compute_units: str = "ALL"):
    """GraphIR -> (coremltools MLModel, input map, output map); prediction needs macOS."""
    ct = _coremltools()
    prog, in_map, out_map = mil_program(graph)
    model = ct.convert(prog, convert_to="mlprogram", minimum_deployment_target=_target(),
                       compute_units=getattr(ct.ComputeUnit, compute_units), compute_precision=None)
    return model, in_map, out_map


def save_mlpackage(graph: GraphIR, path: str | Path, compute_units: str = "ALL") -> Path:
    model, _, _ = convert(graph, compute_units)
    model.save(str(path))
    return Path(path)


class CoreMLCompiled(Compiled):
    def __init__(self, graph: GraphIR, compute_units: str):
        self.model, self.in_map, self.out_map = convert(graph, compute_units)
        self.outs = {n: graph.operands[oid] for n, oid in graph.outputs.items()}
        self.ins = {n: graph.operands[oid] for n, oid in graph.inputs.items()}

    def run(self, inputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        feeds = {self.in_map[k]: np.asarray(v).astype(_io_type(self.ins[k].data_type), copy=False)
                 .reshape(_io_shape(self.ins[k].shape)) for k, v in inputs.items()}
        out = self.model.predict(feeds)
        return {n: np.asarray(out[self.out_map[n]]).astype(d.numpy_dtype, copy=False).reshape(d.shape)
                for n, d in self.outs.items()}


class CoreMLBackend(Backend):
    name = "coreml"

    @classmethod
    def probe(cls) -> list[Device]:
        if platform.system() != "Darwin" or importlib.util.find_spec("coremltools") is None:
            return []  # conversion works elsewhere, prediction does not
        return [Device(id=f"coreml:{kind}", kind=kind, backend=cls.name, name=f"Core ML {unit}",
                       details={"computeUnits": unit}, providers=(unit,))
                for kind, unit in COMPUTE_UNITS.items()]

    def capabilities(self, device: Device) -> Capabilities:
        from .capabilities import capabilities_from_spec

        registry = load_all()
        per_op = {op: list(registry[op].coreml_types or DEFAULT_OP_TYPES) for op in coreml_ops()}
        return capabilities_from_spec({"ops": coreml_ops(), "dataTypes": list(COREML_TYPES), "maxRank": MAX_RANK,
                                       "opDataTypes": per_op})

    def implements(self, op: str) -> bool:
        return load_all()[op].coreml is not None

    def compile(self, graph: GraphIR, device: Device) -> Compiled:
        return CoreMLCompiled(graph, device.providers[0] if device.providers else "ALL")
