"""Foundations shared by every operator: data types, operand descriptors, errors.

Everything here is pure and has no dependency on a runtime or on the network.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

# --------------------------------------------------------------------------- errors


class WebNNError(Exception):
    """Base of the errors the WebNN API reports. ``name`` is the DOMException name."""

    name = "Error"

    def to_wire(self) -> dict:
        return {"name": self.name, "message": str(self)}


class WebNNTypeError(WebNNError, TypeError):
    name = "TypeError"


class DataError(WebNNError):
    name = "DataError"


class InvalidStateError(WebNNError):
    name = "InvalidStateError"


class OperationError(WebNNError):
    name = "OperationError"


class NotSupportedError(WebNNError):
    name = "NotSupportedError"


class UnknownError(WebNNError):
    name = "UnknownError"


class SecurityError(WebNNError):
    name = "SecurityError"


ERRORS_BY_NAME = {
    cls.name: cls
    for cls in (
        WebNNTypeError,
        DataError,
        InvalidStateError,
        OperationError,
        NotSupportedError,
        UnknownError,
        SecurityError,
    )
}


def error_from_wire(obj: dict) -> WebNNError:
    cls = ERRORS_BY_NAME.get(obj.get("name"), UnknownError)
    return cls(obj.get("message", ""))


# --------------------------------------------------------------------------- data types


@dataclass(frozen=True)
class DataType:
    name: str
    numpy: np.dtype
    js_array: str  # the TypedArray the spec pairs with this type
    onnx: int  # onnx.TensorProto enum value (kept numeric so ops/ does not import onnx)
    bits: int = 0  # bits per element in a buffer; 0: the numpy item size (4: packed two per byte)

    @property
    def itemsize(self) -> int:
        return self.numpy.itemsize

    @property
    def element_bits(self) -> int:
        return self.bits or 8 * self.numpy.itemsize

    @property
    def is_packed(self) -> bool:
        return self.element_bits < 8

    @property
    def is_float(self) -> bool:
        return self.numpy.kind == "f"

    @property
    def is_signed(self) -> bool:
        return self.numpy.kind in "fi" or self.name == "int4"

    @property
    def int_range(self) -> tuple[int, int]:
        """The smallest and largest value of an integer type."""
        if self.is_packed:
            n = self.element_bits
            return (-(2 ** (n - 1)), 2 ** (n - 1) - 1) if self.is_signed else (0, 2**n - 1)
        info = np.iinfo(self.numpy)
        return int(info.min), int(info.max)


def _ml_dtype(name: str) -> np.dtype:
    import ml_dtypes

    return np.dtype(getattr(ml_dtypes, name))


# int4 / uint4 (extension, see idl/extensions.idl): held unpacked on the host as ml_dtypes' int4 /
# uint4 arrays, packed two per byte (first element in the low nibble, as ONNX and Chromium do) in
# every buffer a page sends or receives. ONNX Runtime computes them as int8 / uint8 (``onnx``).
DATA_TYPES: dict[str, DataType] = {
    d.name: d
    for d in (
        DataType("float32", np.dtype(np.float32), "Float32Array", 1),
        DataType("float16", np.dtype(np.float16), "Float16Array", 10),
        DataType("int32", np.dtype(np.int32), "Int32Array", 6),
        DataType("uint32", np.dtype(np.uint32), "Uint32Array", 12),
        DataType("int64", np.dtype(np.int64), "BigInt64Array", 7),
        DataType("uint64", np.dtype(np.uint64), "BigUint64Array", 13),
        DataType("int8", np.dtype(np.int8), "Int8Array", 3),
        DataType("uint8", np.dtype(np.uint8), "Uint8Array", 2),
        DataType("int4", _ml_dtype("int4"), "Uint8Array", 3, bits=4),
        DataType("uint4", _ml_dtype("uint4"), "Uint8Array", 2, bits=4),
    )
}

PACKED_TYPES = ("int4", "uint4")
# the data types of the spec at c515210: what op limits mean by "any data type"
ALL_TYPES = tuple(t for t in DATA_TYPES if t not in PACKED_TYPES)
FLOAT_TYPES = ("float32", "float16")
INT_TYPES = ("int32", "uint32", "int64", "uint64", "int8", "uint8")
SIGNED_TYPES = ("float32", "float16", "int32", "int64", "int8")

MAX_DIMENSION = 2**31 - 1  # "valid dimension": fits in a long
MAX_TENSOR_COUNT = 8192  # "valid tensor count" for concat inputs / split outputs


def data_type(name: str) -> DataType:
    if name not in DATA_TYPES:
        raise WebNNTypeError(f"Unknown data type '{name}'.")
    return DATA_TYPES[name]


def data_type_of(array: np.ndarray) -> str:
    for d in DATA_TYPES.values():
        if d.numpy == array.dtype:
            return d.name
    raise WebNNTypeError(f"numpy dtype {array.dtype} has no WebNN data type.")


# --------------------------------------------------------------------------- descriptors


@dataclass(frozen=True)
class OperandDesc:
    """dataType + shape, the immutable facts of an operand or tensor."""

    data_type: str
    shape: tuple[int, ...]

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def byte_length(self) -> int:
        return -(-self.size * DATA_TYPES[self.data_type].element_bits // 8)

    @property
    def numpy_dtype(self) -> np.dtype:
        return DATA_TYPES[self.data_type].numpy

    def to_wire(self) -> dict:
        return {"dataType": self.data_type, "shape": list(self.shape)}

    def with_shape(self, shape: Iterable[int]) -> OperandDesc:
        return OperandDesc(self.data_type, tuple(int(s) for s in shape))

    def with_type(self, data_type: str) -> OperandDesc:
        return OperandDesc(data_type, self.shape)

    def __str__(self) -> str:
        return f"{self.data_type}[{','.join(map(str, self.shape))}]"


def check_dimensions(
    desc: OperandDesc, what: str = "operand", max_rank: int | None = None, max_byte_length: int | None = None
) -> OperandDesc:
    """The spec's 'check dimensions': every dimension and the element count are valid dimensions;
    with a context's limits also the rank ("shape's size is too large to be supported") and the
    byte length ("not supported by the implementation", i.e. above maxTensorByteLength)."""
    data_type(desc.data_type)
    # rank first, then a running element count that stops at the limit: a page's huge shape
    # costs linear time, never a product of thousands of big dimensions
    if max_rank is not None and desc.rank > max_rank:
        raise WebNNTypeError(f"Invalid {what} shape {shape_text(desc.shape)}: rank {desc.rank} exceeds the maximum {max_rank}.")
    count = 1
    for d in desc.shape:
        if not isinstance(d, int) or d <= 0 or d > MAX_DIMENSION:
            raise WebNNTypeError(f"Invalid {what} shape {shape_text(desc.shape)}: dimensions must be in 1..2^31-1.")
        count *= d
        if count > MAX_DIMENSION:
            raise WebNNTypeError(f"Invalid {what} shape {shape_text(desc.shape)}: element count exceeds 2^31-1.")
    if max_byte_length is not None and desc.byte_length > max_byte_length:
        raise WebNNTypeError(
            f"Invalid {what} {desc}: byte length {desc.byte_length} exceeds maxTensorByteLength {max_byte_length}."
        )
    return desc


# shapes longer than this are refused before any other check (a page's rank-80000 shape costs no
# per-dimension work); within it, the precise rank checks of the op rules apply, with their messages
SHAPE_GUARD = 1024


def check_rank_first(descriptor, max_rank: int, what: str = "operand") -> None:
    """Before any per-dimension work (WebIDL conversion included): a descriptor whose shape is
    longer than the context's maximum rank is refused at once, in time independent of its values."""
    shape = descriptor.get("shape") if isinstance(descriptor, dict) else None
    if isinstance(shape, (list, tuple)) and len(shape) > max_rank:
        raise WebNNTypeError(f"Invalid {what} shape {shape_text(shape)}: rank {len(shape)} exceeds the maximum {max_rank}.")


def shape_text(shape: Sequence[int], most: int = 10) -> str:
    """A shape for an error message, abbreviated when a page sent a very long one."""
    shown = ",".join([str(d) for d in shape[:most]])
    return f"[{shown}]" if len(shape) <= most else f"[{shown},... ({len(shape)} dimensions)]"


def desc_from_dict(obj: dict, what: str = "descriptor") -> OperandDesc:
    """Build an OperandDesc from an already IDL-converted MLOperandDescriptor dictionary."""
    return OperandDesc(obj["dataType"], tuple(int(s) for s in obj["shape"]))


# --------------------------------------------------------------------------- shape helpers used by many ops


def broadcast_shapes(a: Sequence[int], b: Sequence[int], bidirectional: bool = True) -> tuple[int, ...]:
    """Numpy-style broadcasting. Unidirectional: b must broadcast to a (result is a's shape)."""
    ra, rb = len(a), len(b)
    out = []
    for i in range(max(ra, rb)):
        da = a[ra - 1 - i] if i < ra else 1
        db = b[rb - 1 - i] if i < rb else 1
        if da == db or db == 1:
            out.append(da)
        elif da == 1 and bidirectional:
            out.append(db)
        else:
            raise WebNNTypeError(f"Shapes {list(a)} and {list(b)} are not broadcastable.")
    if not bidirectional and len(out) != ra:
        raise WebNNTypeError(f"Shape {list(b)} cannot be broadcast to {list(a)}.")
    return tuple(reversed(out))


def check_axis(axis: int, rank: int, what: str = "axis") -> int:
    if not 0 <= axis < rank:
        raise WebNNTypeError(f"{what} {axis} is out of range for rank {rank}.")
    return axis


def check_axes(axes: Sequence[int], rank: int, what: str = "axes") -> list[int]:
    seen = set()
    for a in axes:
        check_axis(a, rank, what)
        if a in seen:
            raise WebNNTypeError(f"{what} {list(axes)} contains duplicates.")
        seen.add(a)
    return list(axes)


def same_type(name_a: str, a: OperandDesc, name_b: str, b: OperandDesc) -> None:
    if a.data_type != b.data_type:
        raise WebNNTypeError(f"{name_b} data type {b.data_type} must match {name_a} data type {a.data_type}.")


# --------------------------------------------------------------------------- numeric casting (MLNumber)


def to_double(value) -> float:
    """A number as a double, as JavaScript's Number() makes one: an integer beyond the double's
    range (a BigInt, or a page's over-long JSON integer) becomes +-Infinity, never an OverflowError."""
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def cast_number(value, to: str):
    """The spec's internal cast of an MLNumber to a data type: round half to even, clamp, NaN -> 0;
    to a float type as JavaScript does (a value beyond its range becomes +-Infinity)."""
    dt = DATA_TYPES[to]
    if dt.is_float:
        with np.errstate(over="ignore"):
            return dt.numpy.type(to_double(value))
    lo, hi = dt.int_range
    if isinstance(value, int):
        v = value
    else:
        f = float(value)
        if math.isnan(f):
            return dt.numpy.type(0)
        if math.isinf(f):
            return dt.numpy.type(hi if f > 0 else lo)
        v = int(round(f))  # Python's round() is half-to-even
    return dt.numpy.type(min(max(v, lo), hi))


# --------------------------------------------------------------------------- buffers (packed types)


def pack(array: np.ndarray, data_type: str) -> bytes:
    """The bytes of an array as a page's buffer holds them (int4 / uint4: two per byte, first
    element in the low nibble; an odd count leaves the last high nibble zero)."""
    if not DATA_TYPES[data_type].is_packed:
        return np.ascontiguousarray(array).tobytes()
    nibbles = np.asarray(array).reshape(-1).astype(np.int16) & 0xF
    if nibbles.size % 2:
        nibbles = np.append(nibbles, 0)
    return (nibbles[0::2] | (nibbles[1::2] << 4)).astype(np.uint8).tobytes()


def unpack(raw: bytes, desc: OperandDesc) -> np.ndarray:
    """The array a page's buffer (``desc.byte_length`` bytes) holds."""
    dt = DATA_TYPES[desc.data_type]
    if not dt.is_packed:
        return np.frombuffer(raw, dtype=dt.numpy).reshape(desc.shape).copy()
    b = np.frombuffer(raw, dtype=np.uint8).astype(np.int16)
    nibbles = np.stack([b & 0xF, b >> 4], axis=-1).reshape(-1)[: desc.size]
    if dt.is_signed:
        nibbles = np.where(nibbles >= 8, nibbles - 16, nibbles)
    return nibbles.astype(dt.numpy).reshape(desc.shape)
