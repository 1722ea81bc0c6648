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

    @property
    def itemsize(self) -> int:
        return self.numpy.itemsize

    @property
    def is_float(self) -> bool:
        return self.numpy.kind == "f"

    @property
    def is_signed(self) -> bool:
        return self.numpy.kind in "fi"


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
    )
}

ALL_TYPES = tuple(DATA_TYPES)
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
        return self.size * DATA_TYPES[self.data_type].itemsize

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
    for d in desc.shape:
        if not isinstance(d, int) or d <= 0 or d > MAX_DIMENSION:
            raise WebNNTypeError(f"Invalid {what} shape {list(desc.shape)}: dimensions must be in 1..2^31-1.")
    if max_rank is not None and desc.rank > max_rank:
        raise WebNNTypeError(f"Invalid {what} shape {list(desc.shape)}: rank {desc.rank} exceeds the maximum {max_rank}.")
    if desc.size > MAX_DIMENSION:
        raise WebNNTypeError(f"Invalid {what} shape {list(desc.shape)}: element count exceeds 2^31-1.")
    if max_byte_length is not None and desc.byte_length > max_byte_length:
        raise WebNNTypeError(
            f"Invalid {what} {desc}: byte length {desc.byte_length} exceeds maxTensorByteLength {max_byte_length}."
        )
    return desc


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


def cast_number(value, to: str):
    """The spec's internal cast of an MLNumber to a data type: round half to even, clamp, NaN -> 0."""
    dt = DATA_TYPES[to]
    if dt.is_float:
        return dt.numpy.type(float(value))
    if isinstance(value, int):
        v = value
    else:
        f = float(value)
        if math.isnan(f):
            return dt.numpy.type(0)
        if math.isinf(f):
            info = np.iinfo(dt.numpy)
            return dt.numpy.type(info.max if f > 0 else info.min)
        v = int(round(f))  # Python's round() is half-to-even
    info = np.iinfo(dt.numpy)
    return dt.numpy.type(min(max(v, info.min), info.max))
