"""Data-movement operators: expand, gather, gatherElements, gatherND, scatterElements,
scatterND, slice, split, pad, tile, reverse, triangular.

All are exact (0 ULP). Index operands (int32, uint32, int64) are clamped to [-dim, dim-1] and
negative values count from the end, as the spec's gather/scatter algorithms require; lowerings
do the same explicitly so ONNX Runtime never sees an out-of-range index.
"""

from __future__ import annotations

import math

import numpy as np

from ..core import (
    ALL_TYPES,
    FLOAT_TYPES,
    MAX_DIMENSION,
    MAX_TENSOR_COUNT,
    PACKED_TYPES,
    WebNNTypeError,
    broadcast_shapes,
    cast_number,
    check_axes,
    check_axis,
)
from ..registry import Call, Limits, OpDef, attach_coreml, attach_torch, register, same_as
from ._common import INT64_MIN

REQ3 = FLOAT_TYPES + ("int32",)
REQ5 = FLOAT_TYPES + ("int32", "int8", "uint8")
INDEX_TYPES = ("int32", "uint32", "int64")
LAYOUT_TYPES = ALL_TYPES + PACKED_TYPES  # expand, gather, slice: int4 / uint4 too (extension)



def _check_shape(shape, what="output") -> tuple[int, ...]:
    for d in shape:
        if not 0 < d <= MAX_DIMENSION:
            raise WebNNTypeError(f"{what} shape {list(shape)} has an invalid dimension {d}.")
    if math.prod(shape) > MAX_DIMENSION:
        raise WebNNTypeError(f"{what} shape {list(shape)} has too many elements.")
    return tuple(int(d) for d in shape)


def _exact(name, limits, infer, reference, lower, doc, outputs=("output",)):
    return OpDef(name=name, limits=limits, infer=infer, reference=reference, lower=lower,
                 outputs=outputs, tolerance=("ulp", 0), doc=doc)


# --------------------------------------------------------------------------- index helpers


def _np_norm_index(idx: np.ndarray, dim) -> np.ndarray:
    i = idx.astype(np.int64)
    dim = np.asarray(dim, np.int64)
    i = np.clip(i, -dim, dim - 1)
    return np.where(i < 0, i + dim, i)


def _lower_norm_index(lb, idx, dim):
    """Indices -> int64 in [0, dim) (clamped); ``dim`` is an int or a 1-D list broadcast on the last axis."""
    i = lb.cast(idx, "int64")
    d = np.asarray(dim, np.int64)
    lo, hi = lb.const(-d), lb.const(d - 1)
    i = lb.node("Min", [lb.node("Max", [i, lo]), hi])
    neg = lb.node("Less", [i, lb.scalar(0, "int64")], dtype="bool")
    return lb.node("Where", [neg, lb.node("Add", [i, lb.const(d)]), i])


# --------------------------------------------------------------------------- expand


def _expand_infer(call: Call):
    x = call["input"]
    new = _check_shape(call["newShape"], "newShape")
    try:
        shape = broadcast_shapes(new, x.shape, bidirectional=False)
    except WebNNTypeError:
        raise WebNNTypeError(f"input shape {list(x.shape)} cannot be broadcast to newShape {list(new)}.") from None
    return [x.with_shape(shape)]


def _expand_ref(call: Call):
    return [np.broadcast_to(call["input"], tuple(call["newShape"])).copy()]


def _expand_lower(lb, call: Call):
    return [lb.node("Expand", [call["input"], lb.ints(call["newShape"])])]


# --------------------------------------------------------------------------- gather family


def _gather_infer(call: Call):
    x, idx = call["input"], call["indices"]
    axis = check_axis(call["axis"], x.rank)
    return [x.with_shape(x.shape[:axis] + idx.shape + x.shape[axis + 1:])]


def _gather_ref(call: Call):
    x, idx, axis = call["input"], call["indices"], call["axis"]
    return [np.take(x, _np_norm_index(idx, x.shape[axis]), axis=axis)]


def _gather_lower(lb, call: Call):
    x, axis = call["input"], call["axis"]
    idx = _lower_norm_index(lb, call["indices"], lb.shape(x)[axis])
    return [lb.node("Gather", [x, idx], dtype=lb.dtype(x), axis=int(axis))]


def _gather_el_infer(call: Call):
    x, idx = call["input"], call["indices"]
    axis = check_axis(call["axis"], x.rank)
    for i, (a, b) in enumerate(zip(x.shape, idx.shape)):
        if i != axis and a != b:
            raise WebNNTypeError(
                f"indices shape {list(idx.shape)} must match input shape {list(x.shape)} except along axis {axis}."
            )
    return [x.with_shape(idx.shape)]


def _gather_el_ref(call: Call):
    x, idx, axis = call["input"], call["indices"], call["axis"]
    return [np.take_along_axis(x, _np_norm_index(idx, x.shape[axis]), axis=axis)]


def _gather_el_lower(lb, call: Call):
    x, axis = call["input"], call["axis"]
    idx = _lower_norm_index(lb, call["indices"], lb.shape(x)[axis])
    return [lb.node("GatherElements", [x, idx], dtype=lb.dtype(x), axis=int(axis))]


def _gather_nd_infer(call: Call):
    x, idx = call["input"], call["indices"]
    k = idx.shape[-1]
    if k > x.rank:
        raise WebNNTypeError(f"indices' last dimension {k} exceeds the input rank {x.rank}.")
    return [x.with_shape(idx.shape[:-1] + x.shape[k:])]


def _gather_nd_ref(call: Call):
    x, idx = call["input"], call["indices"]
    k = idx.shape[-1]
    norm = _np_norm_index(idx, np.array(x.shape[:k]))
    flat = norm.reshape(-1, k)
    out = np.stack([x[tuple(row)] for row in flat]) if flat.shape[0] else np.zeros((0,) + x.shape[k:], x.dtype)
    return [out.reshape(idx.shape[:-1] + x.shape[k:])]


def _gather_nd_lower(lb, call: Call):
    x, idx = call["input"], call["indices"]
    k = lb.shape(idx)[-1]
    nidx = _lower_norm_index(lb, idx, list(lb.shape(x)[:k]))
    return [lb.node("GatherND", [x, nidx], dtype=lb.dtype(x))]


def _scatter_el_infer(call: Call):
    x, idx, upd = call["input"], call["indices"], call["updates"]
    axis = check_axis(call["axis"], x.rank)
    if upd.shape != idx.shape:
        raise WebNNTypeError(f"updates shape {list(upd.shape)} must equal indices shape {list(idx.shape)}.")
    for i, (a, b) in enumerate(zip(x.shape, idx.shape)):
        if i != axis and a != b:
            raise WebNNTypeError(
                f"indices shape {list(idx.shape)} must match input shape {list(x.shape)} except along axis {axis}."
            )
    return [x]


def _scatter_el_ref(call: Call):
    x, idx, upd, axis = call["input"], call["indices"], call["updates"], call["axis"]
    out = x.copy()
    norm = _np_norm_index(idx, x.shape[axis])
    np.put_along_axis(out, norm, upd, axis=axis)
    return [out]


def _scatter_el_lower(lb, call: Call):
    x, axis = call["input"], call["axis"]
    idx = _lower_norm_index(lb, call["indices"], lb.shape(x)[axis])
    return [lb.node("ScatterElements", [x, idx, call["updates"]], dtype=lb.dtype(x), axis=int(axis))]


def _scatter_nd_infer(call: Call):
    x, idx, upd = call["input"], call["indices"], call["updates"]
    k = idx.shape[-1]
    if k > x.rank:
        raise WebNNTypeError(f"indices' last dimension {k} exceeds the input rank {x.rank}.")
    expected = idx.shape[:-1] + x.shape[k:]
    if upd.shape != expected:
        raise WebNNTypeError(f"updates shape {list(upd.shape)} must be {list(expected)}.")
    return [x]


def _scatter_nd_ref(call: Call):
    x, idx, upd = call["input"], call["indices"], call["updates"]
    k = idx.shape[-1]
    out = x.copy()
    norm = _np_norm_index(idx, np.array(x.shape[:k])).reshape(-1, k)
    u = upd.reshape((norm.shape[0],) + x.shape[k:])
    for row, val in zip(norm, u):
        out[tuple(row)] = val
    return [out]


def _scatter_nd_lower(lb, call: Call):
    x, idx = call["input"], call["indices"]
    k = lb.shape(idx)[-1]
    nidx = _lower_norm_index(lb, idx, list(lb.shape(x)[:k]))
    return [lb.node("ScatterND", [x, nidx, call["updates"]], dtype=lb.dtype(x))]


# --------------------------------------------------------------------------- slice / split


def _slice_infer(call: Call):
    x = call["input"]
    starts, sizes = list(call["starts"]), list(call["sizes"])
    strides = list(call["strides"]) if call["strides"] is not None else [1] * x.rank
    for what, seq in (("starts", starts), ("sizes", sizes), ("strides", strides)):
        if len(seq) != x.rank:
            raise WebNNTypeError(f"{what} has length {len(seq)}; it must equal the input rank {x.rank}.")
    shape = []
    for i, (d, s, n, st) in enumerate(zip(x.shape, starts, sizes, strides)):
        if n == 0:
            raise WebNNTypeError(f"sizes[{i}] must not be 0.")
        if st < 1:
            raise WebNNTypeError(f"strides[{i}] must be at least 1.")
        if s >= d:
            raise WebNNTypeError(f"starts[{i}]={s} is out of range for dimension {d}.")
        if s + n > d:
            raise WebNNTypeError(f"starts[{i}]+sizes[{i}]={s + n} exceeds dimension {d}.")
        shape.append(-(-n // st))
    return [x.with_shape(shape)]


def _slice_parts(call: Call, rank: int):
    starts, sizes = list(call["starts"]), list(call["sizes"])
    strides = list(call["strides"]) if call["strides"] is not None else [1] * rank
    return starts, sizes, strides


def _slice_ref(call: Call):
    x = call["input"]
    starts, sizes, strides = _slice_parts(call, x.ndim)
    return [x[tuple(slice(s, s + n, st) for s, n, st in zip(starts, sizes, strides))].copy()]


def _slice_lower(lb, call: Call):
    x = call["input"]
    rank = len(lb.shape(x))
    if rank == 0:
        return [lb.node("Identity", [x])]
    starts, sizes, strides = _slice_parts(call, rank)
    ends = [s + n for s, n in zip(starts, sizes)]
    return [lb.node("Slice", [x, lb.ints(starts), lb.ints(ends), lb.ints(range(rank)), lb.ints(strides)])]


def _split_sizes(call: Call, dim: int) -> list[int]:
    splits = call["splits"]
    if isinstance(splits, (list, tuple)):
        sizes = [int(s) for s in splits]
        if not sizes:
            raise WebNNTypeError("splits must not be empty.")
        if any(s == 0 for s in sizes):
            raise WebNNTypeError("splits values must be greater than 0.")
        if sum(sizes) != dim:
            raise WebNNTypeError(f"the sum of splits {sizes} must equal the dimension {dim} along axis.")
        return sizes
    n = int(splits)
    if n == 0:
        raise WebNNTypeError("splits must be greater than 0.")
    if dim % n:
        raise WebNNTypeError(f"dimension {dim} along axis is not divisible by splits={n}.")
    return [dim // n] * n


def _split_infer(call: Call):
    x = call["input"]
    axis = check_axis(call["axis"], x.rank)
    sizes = _split_sizes(call, x.shape[axis])
    if len(sizes) > MAX_TENSOR_COUNT:
        raise WebNNTypeError(f"split would create {len(sizes)} outputs; at most {MAX_TENSOR_COUNT} are allowed.")
    return [x.with_shape(x.shape[:axis] + (s,) + x.shape[axis + 1:]) for s in sizes]


def _split_ref(call: Call):
    x = call["input"]
    axis = call["axis"]
    sizes = _split_sizes(call, x.shape[axis])
    return [a.copy() for a in np.split(x, np.cumsum(sizes)[:-1], axis=axis)]


def _split_lower(lb, call: Call):
    x = call["input"]
    axis = call["axis"]
    sizes = _split_sizes(call, lb.shape(x)[axis])
    if len(sizes) == 1:
        return [lb.node("Identity", [x])]
    outs = lb.node("Split", [x, lb.ints(sizes)], n_out=len(sizes), axis=int(axis))
    return list(outs)


# --------------------------------------------------------------------------- pad / tile / reverse / triangular


_PAD_MODES = {"constant": "constant", "edge": "edge", "reflection": "reflect"}


def _pad_infer(call: Call):
    x = call["input"]
    b, e = list(call["beginningPadding"]), list(call["endingPadding"])
    for what, seq in (("beginningPadding", b), ("endingPadding", e)):
        if len(seq) != x.rank:
            raise WebNNTypeError(f"{what} has length {len(seq)}; it must equal the input rank {x.rank}.")
    mode = call.get("mode", "constant")
    if mode == "reflection":
        for i, (d, p, q) in enumerate(zip(x.shape, b, e)):
            if p >= d or q >= d:
                raise WebNNTypeError(f"reflection padding along axis {i} must be smaller than the dimension {d}.")
    return [x.with_shape(_check_shape([p + d + q for d, p, q in zip(x.shape, b, e)]))]


def _pad_ref(call: Call):
    x = call["input"]
    widths = list(zip(call["beginningPadding"], call["endingPadding"]))
    mode = call.get("mode", "constant")
    if x.ndim == 0:
        return [x.copy()]
    if mode == "constant":
        v = cast_number(call.get("value", 0), _dtname(x))
        return [np.pad(x, widths, mode="constant", constant_values=v)]
    return [np.pad(x, widths, mode="edge" if mode == "edge" else "reflect")]


def _dtname(a: np.ndarray) -> str:
    from ._common import dtype_name

    return dtype_name(a)


def _pad_lower(lb, call: Call):
    x = call["input"]
    rank = len(lb.shape(x))
    if rank == 0:
        return [lb.node("Identity", [x])]
    pads = lb.ints(list(call["beginningPadding"]) + list(call["endingPadding"]))
    mode = call.get("mode", "constant")
    if mode == "constant":
        dt = lb.dtype(x)
        v = lb.scalar(cast_number(call.get("value", 0), dt), dt)
        return [lb.node("Pad", [x, pads, v], mode="constant")]
    return [lb.node("Pad", [x, pads], mode=_PAD_MODES[mode])]


def _tile_infer(call: Call):
    x = call["input"]
    reps = list(call["repetitions"])
    if len(reps) != x.rank:
        raise WebNNTypeError(f"repetitions has length {len(reps)}; it must equal the input rank {x.rank}.")
    if any(r == 0 for r in reps):
        raise WebNNTypeError("repetitions values must be greater than 0.")
    return [x.with_shape(_check_shape([d * r for d, r in zip(x.shape, reps)]))]


def _tile_ref(call: Call):
    return [np.tile(call["input"], tuple(call["repetitions"])) if call["input"].ndim else call["input"].copy()]


def _tile_lower(lb, call: Call):
    x = call["input"]
    if not call["repetitions"]:
        return [lb.node("Identity", [x])]
    return [lb.node("Tile", [x, lb.ints(call["repetitions"])])]


def _reverse_axes(call: Call, rank: int) -> list[int]:
    axes = call["axes"]
    return list(range(rank)) if axes is None else list(axes)


def _reverse_infer(call: Call):
    x = call["input"]
    check_axes(_reverse_axes(call, x.rank), x.rank)
    return [x]


def _reverse_ref(call: Call):
    x = call["input"]
    axes = _reverse_axes(call, x.ndim)
    return [np.flip(x, axis=tuple(axes)).copy() if axes else x.copy()]


def _reverse_lower(lb, call: Call):
    x = call["input"]
    axes = _reverse_axes(call, len(lb.shape(x)))
    if not axes:
        return [lb.node("Identity", [x])]
    n = len(axes)
    return [lb.node("Slice", [x, lb.ints([-1] * n), lb.ints([INT64_MIN] * n), lb.ints(axes), lb.ints([-1] * n)])]


def _tri_mask(shape, upper: bool, diagonal: int) -> np.ndarray:
    h, w = shape[-2], shape[-1]
    rows = np.arange(h)[:, None]
    cols = np.arange(w)[None, :]
    return (cols - rows >= diagonal) if upper else (cols - rows <= diagonal)


def _tri_infer(call: Call):
    return [call["input"]]


def _tri_ref(call: Call):
    x = call["input"]
    mask = _tri_mask(x.shape, bool(call.get("upper", True)), int(call.get("diagonal", 0)))
    return [np.where(mask, x, np.zeros((), x.dtype)).astype(x.dtype)]


def _tri_lower(lb, call: Call):
    x = call["input"]
    dt = lb.dtype(x)
    mask = lb.const(_tri_mask(lb.shape(x), bool(call.get("upper", True)), int(call.get("diagonal", 0))))
    return [lb.where(mask, x, lb.scalar(0, dt))]


def _lim(types=ALL_TYPES, ranks=(0, None), req=REQ3, req_ranks=(0, 5)):
    return Limits(types=types, ranks=ranks, required_types=req, required_ranks=req_ranks)


register(
    # int4 / uint4 (extension) for the layout ops a client prepares such operands with (issue 25)
    _exact("expand", {"input": _lim(types=LAYOUT_TYPES), "output": same_as("input", same_rank=False)},
           _expand_infer, _expand_ref, _expand_lower, "Broadcast input to newShape."),
    _exact("gather", {
        "input": _lim(types=LAYOUT_TYPES, ranks=(1, None), req=REQ5, req_ranks=(1, 5)),
        "indices": _lim(types=INDEX_TYPES, req=("int32",)),
        "output": same_as("input", same_rank=False),
    }, _gather_infer, _gather_ref, _gather_lower, "Gather slices along axis at indices."),
    _exact("gatherElements", {
        "input": _lim(ranks=(1, None), req_ranks=(1, 5)),
        "indices": Limits(types=INDEX_TYPES, same_rank="input", required_types=("int32",), required_ranks=(1, 5)),
        "output": same_as("input"),
    }, _gather_el_infer, _gather_el_ref, _gather_el_lower, "Gather single elements along axis."),
    _exact("gatherND", {
        "input": _lim(ranks=(1, None), req=REQ5, req_ranks=(1, 5)),
        "indices": _lim(types=INDEX_TYPES, ranks=(1, None), req=("int32",), req_ranks=(1, 5)),
        "output": same_as("input", same_rank=False),
    }, _gather_nd_infer, _gather_nd_ref, _gather_nd_lower, "Gather slices at N-d indices."),
    _exact("scatterElements", {
        "input": _lim(ranks=(1, None), req_ranks=(1, 5)),
        "indices": Limits(types=INDEX_TYPES, same_rank="input", required_types=("int32",), required_ranks=(1, 5)),
        "updates": same_as("input"),
        "output": same_as("input"),
    }, _scatter_el_infer, _scatter_el_ref, _scatter_el_lower, "Scatter updates along axis at indices."),
    _exact("scatterND", {
        "input": _lim(ranks=(1, None), req_ranks=(1, 5)),
        "indices": _lim(types=INDEX_TYPES, ranks=(1, None), req=("int32",), req_ranks=(1, 5)),
        "updates": same_as("input", same_rank=False),
        "output": same_as("input"),
    }, _scatter_nd_infer, _scatter_nd_ref, _scatter_nd_lower, "Scatter updates at N-d indices."),
    _exact("slice", {"input": _lim(types=LAYOUT_TYPES, req=REQ5), "output": same_as("input")},
           _slice_infer, _slice_ref, _slice_lower, "Slice with starts, sizes and strides."),
    _exact("split", {"input": _lim(ranks=(1, None), req_ranks=(1, 5)), "outputs": same_as("input")},
           _split_infer, _split_ref, _split_lower, "Split along axis into equal parts or given sizes.",
           outputs=("outputs",)),
    _exact("pad", {"input": _lim(req=FLOAT_TYPES), "output": same_as("input")},
           _pad_infer, _pad_ref, _pad_lower, "Pad with a constant, edge or reflection values."),
    _exact("tile", {"input": _lim(), "output": same_as("input")},
           _tile_infer, _tile_ref, _tile_lower, "Repeat the input along each axis."),
    _exact("reverse", {"input": _lim(), "output": same_as("input")},
           _reverse_infer, _reverse_ref, _reverse_lower, "Reverse the order of elements along axes."),
    _exact("triangular", {"input": _lim(ranks=(2, None), req=FLOAT_TYPES, req_ranks=(2, 5)),
                          "output": same_as("input")},
           _tri_infer, _tri_ref, _tri_lower, "Keep the upper or lower triangle of the last two axes."),
)


# --------------------------------------------------------------------------- Core ML (MIL) lowerings
# Gather/scatter indices: int32 only (MIL's index type),
# clamped and made non-negative first as in the reference (iOS17 MIL takes only in-range indices).


def _mil_slice(mb, call: Call):
    x = call["input"]
    if x.rank == 0:
        return [mb.identity(x=x)]
    starts, sizes, strides = _slice_parts(call, x.rank)
    return [mb.slice_by_index(x=x, begin=starts, end=[s + n for s, n in zip(starts, sizes)], stride=strides)]


def _mil_split(mb, call: Call):
    x, axis = call["input"], int(call.get("axis", 0))
    parts = mb.split(x=mb.wide(x), split_sizes=_split_sizes(call, x.shape[axis]), axis=axis)
    return [mb.narrow(p, mb.webnn_type(x)) for p in parts]


def _mil_tile(mb, call: Call):
    x = call["input"]
    return [mb.narrow(mb.tile(x=mb.wide(x), reps=[int(r) for r in call["repetitions"]]), mb.webnn_type(x))]


def _mil_expand(mb, call: Call):
    x = call["input"]
    return [mb.narrow(mb.broadcast_to(mb.wide(x), call["newShape"]), mb.webnn_type(x))]


def _mil_pad(mb, call: Call):
    """Constant mode: MIL's pad for floats (its pad is float-only), constant blocks concatenated
    for integers; edge and reflection: the reference's own source indices (np.pad of an index
    range) as a gather per padded axis, for every type and rank."""
    x = call["input"]
    if x.rank == 0:
        return [mb.identity(x=x)]
    widths = [(int(b), int(e)) for b, e in zip(call["beginningPadding"], call["endingPadding"])]
    mode = call.get("mode", "constant")
    if mode == "constant":
        v = cast_number(call.get("value", 0), mb.webnn_type(x))
        if mb.is_float(x):
            return [mb.pad(x=x, pad=[p for w in widths for p in w], mode="constant", constant_val=mb.scalar(v, like=x))]
        return [mb.pad_blocks(x, widths, v)]
    y = x
    for axis, (b, e) in enumerate(widths):
        if b or e:
            idx = np.pad(np.arange(int(x.shape[axis])), (b, e), mode="edge" if mode == "edge" else "reflect")
            y = mb.gather(x=y, indices=idx.astype(np.int32), axis=axis, validate_indices=False)
    return [y]


def _mil_reverse(mb, call: Call):
    x = call["input"]
    axes = _reverse_axes(call, x.rank)
    return [mb.reverse(x=x, axes=axes) if axes else mb.identity(x=x)]


def _mil_norm_index(mb, idx, dim):
    """int32 indices -> [0, dim) (clamped); ``dim`` is an int or a 1-D list broadcast on the last axis."""
    d = np.asarray(dim, np.int32)
    i = mb.minimum(x=mb.maximum(x=idx, y=-d), y=d - 1)
    return mb.select(cond=mb.less(x=i, y=np.int32(0)), a=mb.add(x=i, y=d), b=i)


def _mil_gather(mb, call: Call):
    x, axis = call["input"], int(call["axis"])
    idx = _mil_norm_index(mb, call["indices"], x.shape[axis])
    return [mb.gather(x=x, indices=idx, axis=axis, validate_indices=False)]


def _mil_gather_elements(mb, call: Call):
    x, axis = call["input"], int(call["axis"])
    idx = _mil_norm_index(mb, call["indices"], x.shape[axis])
    return [mb.gather_along_axis(x=x, indices=idx, axis=axis, validate_indices=False)]


def _mil_nd_index(mb, x, idx):
    return _mil_norm_index(mb, idx, [int(d) for d in x.shape[: idx.shape[-1]]])


def _mil_scatter_elements(mb, call: Call):
    x, axis = call["input"], int(call["axis"])
    idx = _mil_norm_index(mb, call["indices"], x.shape[axis])
    r = mb.scatter_along_axis(data=mb.wide(x), indices=idx, updates=mb.wide(call["updates"]), axis=axis,
                              mode="update", validate_indices=False)
    return [mb.narrow(r, mb.webnn_type(x))]


def _mil_scatter_nd(mb, call: Call):
    x = call["input"]
    r = mb.scatter_nd(data=mb.wide(x), indices=_mil_nd_index(mb, x, call["indices"]), updates=mb.wide(call["updates"]),
                      mode="update", validate_indices=False)
    return [mb.narrow(r, mb.webnn_type(x))]


def _mil_triangular(mb, call: Call):
    x = call["input"]
    dt = mb.webnn_type(x)
    mask = _tri_mask(x.shape, bool(call.get("upper", True)), int(call.get("diagonal", 0)))
    wide = mb.wide(x)
    return [mb.narrow(mb.select(cond=mask, a=wide, b=mb.scalar(0, like=wide)), dt)]


attach_coreml({
    "gather": _mil_gather,
    "gatherElements": _mil_gather_elements,
    "gatherND": lambda mb, call: [mb.gather_nd(x=call["input"], validate_indices=False,
                                               indices=_mil_nd_index(mb, call["input"], call["indices"]))],
    "scatterElements": _mil_scatter_elements,
    "scatterND": _mil_scatter_nd,
    "triangular": _mil_triangular,
}, types=REQ5)
attach_coreml({
    "slice": _mil_slice,
    "split": _mil_split,
    "expand": _mil_expand,
    "reverse": _mil_reverse,
    "tile": _mil_tile,
}, types=REQ5)  # int8/uint8 through int32 where MIL's op lacks them (split, tile)
attach_coreml({"pad": _mil_pad}, types=REQ5)


# --------------------------------------------------------------------------- PyTorch lowerings
# Indices are clamped to [-dim, dim - 1] and made non-negative, as the reference does (int32,
# uint32 and int64 indices alike: their storage is int32 or int64). Index arrays that depend only
# on shapes (pad's edge/reflection sources, triangular's mask) are constants of the compiled graph.


def _torch_norm_index(tb, idx, dim):
    """Indices -> int64 in [0, dim); ``dim`` an int, or a list broadcast along the last axis."""
    torch = tb.torch
    i = idx.to(torch.int64)
    if isinstance(dim, int):
        i = torch.clamp(i, -dim, dim - 1)
        return torch.where(i < 0, i + dim, i)
    d = tb.const(np.asarray(dim, np.int64))
    i = torch.minimum(torch.maximum(i, -d), d - 1)
    return torch.where(i < 0, i + d, i)


def _torch_gather(tb, call: Call):
    x, axis = call["input"], int(call["axis"])
    idx = _torch_norm_index(tb, call["indices"], x.shape[axis])
    out = x.index_select(axis, idx.reshape(-1))
    return [out.reshape(tuple(x.shape[:axis]) + tuple(idx.shape) + tuple(x.shape[axis + 1:]))]


def _torch_gather_el(tb, call: Call):
    x, axis = call["input"], int(call["axis"])
    return [tb.torch.gather(x, axis, _torch_norm_index(tb, call["indices"], x.shape[axis]))]


def _torch_linear_index(tb, x, idx):
    """N-d indices (last axis k) -> (flat positions into x's first k axes, k)."""
    k = idx.shape[-1]
    dims = [int(d) for d in x.shape[:k]]
    norm = _torch_norm_index(tb, idx, dims).reshape(-1, k)
    strides = [int(np.prod(dims[j + 1:])) for j in range(k)]
    lin = (norm * tb.const(np.asarray(strides, np.int64))).sum(dim=1)
    return lin, k, int(np.prod(dims))


def _torch_gather_nd(tb, call: Call):
    x, idx = call["input"], call["indices"]
    lin, k, n = _torch_linear_index(tb, x, idx)
    rest = tuple(x.shape[k:])
    return [x.reshape((n,) + rest).index_select(0, lin).reshape(tuple(idx.shape[:-1]) + rest)]


def _torch_scatter_el(tb, call: Call):
    x, axis = call["input"], int(call["axis"])
    idx = _torch_norm_index(tb, call["indices"], x.shape[axis])
    return [x.clone().scatter_(axis, idx, call["updates"])]


def _torch_scatter_nd(tb, call: Call):
    x, idx, upd = call["input"], call["indices"], call["updates"]
    lin, k, n = _torch_linear_index(tb, x, idx)
    rest = tuple(x.shape[k:])
    out = x.clone().reshape((n,) + rest)
    out.index_copy_(0, lin, upd.reshape((lin.shape[0],) + rest))
    return [out.reshape(x.shape)]


def _torch_slice(tb, call: Call):
    x = call["input"]
    if x.dim() == 0:
        return [x.clone()]
    starts, sizes, strides = _slice_parts(call, x.dim())
    return [x[tuple(slice(s, s + n, st) for s, n, st in zip(starts, sizes, strides))]]


def _torch_split(tb, call: Call):
    x, axis = call["input"], int(call["axis"])
    return list(tb.torch.split(x, _split_sizes(call, x.shape[axis]), dim=axis))


def _torch_pad(tb, call: Call):
    x = call["input"]
    if x.dim() == 0:
        return [x.clone()]
    widths = [(int(b), int(e)) for b, e in zip(call["beginningPadding"], call["endingPadding"])]
    mode = call.get("mode", "constant")
    if mode == "constant":
        dt = tb.type(x)
        v = cast_number(call.get("value", 0), dt)
        if dt == "uint64":
            v = v - 2**64 if v >= 2**63 else v
        shape = [d + b + e for d, (b, e) in zip(x.shape, widths)]
        out = tb.torch.full(shape, v, dtype=x.dtype, device=x.device)
        out[tuple(slice(b, b + d) for d, (b, _) in zip(x.shape, widths))] = x
        return [out]
    y = x
    for axis, (b, e) in enumerate(widths):
        if b or e:
            src = np.pad(np.arange(int(x.shape[axis])), (b, e), mode="edge" if mode == "edge" else "reflect")
            y = y.index_select(axis, tb.const(src.astype(np.int64)))
    return [y]


def _torch_tile(tb, call: Call):
    x = call["input"]
    return [x.repeat([int(r) for r in call["repetitions"]]) if x.dim() else x.clone()]


def _torch_reverse(tb, call: Call):
    x = call["input"]
    axes = _reverse_axes(call, x.dim())
    return [tb.torch.flip(x, [int(a) for a in axes]) if axes else x.clone()]


def _torch_tri(tb, call: Call):
    x = call["input"]
    mask = tb.const(_tri_mask(tuple(x.shape), bool(call.get("upper", True)), int(call.get("diagonal", 0))))
    return [tb.torch.where(mask, x, tb.torch.zeros_like(x))]


attach_torch({
    "expand": lambda tb, call: [call["input"].expand([int(d) for d in call["newShape"]])],
    "gather": _torch_gather, "gatherElements": _torch_gather_el, "gatherND": _torch_gather_nd,
    "scatterElements": _torch_scatter_el, "scatterND": _torch_scatter_nd, "slice": _torch_slice,
    "split": _torch_split, "pad": _torch_pad, "tile": _torch_tile, "reverse": _torch_reverse,
    "triangular": _torch_tri,
})
