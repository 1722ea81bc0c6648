"""Page buffers <-> operand arrays: the checks and the one copy of an AllowSharedBufferSource's
bytes that MLContext and MLGraphBuilder (api.py) and the build memo's disk store (memo_disk.py)
share."""

from __future__ import annotations

from typing import Any

import numpy as np

from webnn_bridge.ops.core import DATA_TYPES, PACKED_TYPES, OperandDesc, WebNNTypeError, pack, unpack


def buffer_bytes(data: Any, desc: OperandDesc, what: str) -> memoryview:
    """Check an AllowSharedBufferSource against a descriptor; a byte view of it, not a copy
    (callers copy it at once with array_from_bytes: spec, copied synchronously at the call)."""
    if isinstance(data, np.ndarray):
        if data.dtype != desc.numpy_dtype and data.dtype != np.uint8:
            raise WebNNTypeError(f"{what}: a {data.dtype} array cannot hold {desc.data_type} data.")
        if desc.data_type in PACKED_TYPES and data.dtype == desc.numpy_dtype and data.shape == desc.shape:
            raw = memoryview(pack(data, desc.data_type))  # element values, two per byte
        else:
            raw = memoryview(np.ascontiguousarray(data).reshape(-1).view(np.uint8))
    elif isinstance(data, (bytes, bytearray, memoryview)):
        raw = memoryview(data).cast("B") if memoryview(data).format != "B" else memoryview(data)
    else:
        raise WebNNTypeError(f"{what}: expected an ArrayBuffer or ArrayBufferView.")
    if raw.nbytes != desc.byte_length:
        raise WebNNTypeError(f"{what}: byte length {raw.nbytes} does not match {desc} ({desc.byte_length} bytes).")
    return raw


def input_array(value: Any, desc: OperandDesc, what: str) -> np.ndarray:
    """An array for ``desc`` from a Python value, never a silent change of data type: arrays must
    already have the operand's dtype; Python numbers and lists convert only without loss."""
    if isinstance(value, (np.ndarray, np.generic)):
        if value.dtype != desc.numpy_dtype:
            raise WebNNTypeError(f"{what} is {value.dtype}, the graph expects {desc.data_type} "
                                 f"(convert it explicitly, e.g. .astype(np.{desc.numpy_dtype.name})).")
        arr = np.asarray(value)
    else:
        natural = np.asarray(value)
        if natural.dtype.kind not in "biuf":
            raise WebNNTypeError(f"{what}: expected numbers, got {natural.dtype}.")
        arr = natural.astype(desc.numpy_dtype)
        if not np.array_equal(arr.astype(np.float64), natural.astype(np.float64), equal_nan=True):
            raise WebNNTypeError(f"{what}: the values do not fit {desc.data_type} exactly.")
    if list(arr.shape) != list(desc.shape):
        raise WebNNTypeError(f"{what} has shape {list(arr.shape)}, the graph expects {list(desc.shape)}.")
    return arr


def array_from_bytes(raw: bytes | memoryview, desc: OperandDesc) -> np.ndarray:
    """The one copy of a page's bytes into a tensor's storage (int4/uint4 unpacked)."""
    return unpack(raw, desc)


def constant_array(raw: memoryview, desc: OperandDesc) -> np.ndarray:
    """A constant's array: immutable bytes (a received frame) are used in place when aligned for
    the data type, anything else is copied (the caller may change it later); the caller marks it
    read-only."""
    if isinstance(raw.obj, bytes) and not DATA_TYPES[desc.data_type].is_packed:
        a = np.frombuffer(raw, dtype=desc.numpy_dtype).reshape(desc.shape)
        if a.flags.aligned:
            return a
    return array_from_bytes(raw, desc)
