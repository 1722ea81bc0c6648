"""Reductions (reduceL1 ... reduceSumSquare), argMin/argMax and cumulativeSum.

Reduce ops: ``axes`` (default: all axes; an empty list reduces nothing, so the op is applied
element-wise only) and ``keepDimensions``. Each row of _REDUCE gives the allowed and required
input types, the numpy reference (on float32 for float16 input), the ONNX op and the WPT ULP
tolerance as a function of the reduced element count.
"""

from __future__ import annotations

import math

import numpy as np

from ..core import ALL_TYPES, FLOAT_TYPES, WebNNTypeError, check_axes, check_axis
from ..registry import Call, Limits, OpDef, attach_coreml, attach_torch, register, same_as
from ._common import dtype_name, f32, from_ordered, int64_extreme, ordered_int64

SUMMABLE = ("float32", "float16", "int32", "uint32", "int64", "uint64")
INT_REQ = ("float32", "float16", "int32")



# the int32 reductions whose ONNX Runtime kernels saturate on overflow (webnn-bridge fuzz found
# reduceSum, reduceL1 and reduceSumSquare; reduceProduct before it)
_INT32_SATURATES = ("reduceSum", "reduceL1", "reduceSumSquare", "reduceProduct")


def _axes(call: Call, rank: int) -> list[int]:
    axes = call["axes"]
    return list(range(rank)) if axes is None else list(axes)


def _int64_exact_sum(lb, x: str, op: str, shape, axes, keep: int) -> str:
    """ReduceSum/SumSquare/L1 on int64 without ONNX Runtime's reduce kernels, which lose bits
    above 2^53: a running sum (CumSum, exact in integers) along each axis, then its last entry."""
    y = {"ReduceSumSquare": lambda: lb.node("Mul", [x, x]), "ReduceL1": lambda: lb.node("Abs", [x])}.get(
        op, lambda: x)()
    for a in axes:
        y = lb.node("CumSum", [y, lb.scalar(a, "int64")])
        y = lb.node("Slice", [y, lb.ints([shape[a] - 1]), lb.ints([shape[a]]), lb.ints([a])])
    return y if keep else lb.node("Squeeze", [y, lb.ints(list(axes))])


def _int64_exact_product(lb, x: str, shape, axes, keep: int) -> str:
    """ReduceProd on int64 without ONNX Runtime's kernel (float64 inside): along each axis, pad
    to a power of two with ones, then multiply the two halves until one entry is left. Integer
    Mul keeps the low bits, as wrapping int64/uint64 products do."""
    y = x
    rank = len(shape)
    for a in axes:
        n = shape[a]
        m = 1 << max(0, (n - 1).bit_length())
        if m > n:
            pads = [0] * (2 * rank)
            pads[rank + a] = m - n
            y = lb.node("Pad", [y, lb.ints(pads), lb.scalar(1, "int64")], mode="constant")
        while m > 1:
            m //= 2
            lo = lb.node("Slice", [y, lb.ints([0]), lb.ints([m]), lb.ints([a])])
            hi = lb.node("Slice", [y, lb.ints([m]), lb.ints([2 * m]), lb.ints([a])])
            y = lb.node("Mul", [lo, hi])
    return y if keep else lb.node("Squeeze", [y, lb.ints(list(axes))])


def _reduce_infer(call: Call):
    x = call["input"]
    axes = check_axes(_axes(call, x.rank), x.rank)
    keep = bool(call["keepDimensions"])
    shape = [1 if i in axes else d for i, d in enumerate(x.shape)] if keep else [
        d for i, d in enumerate(x.shape) if i not in axes
    ]
    return [x.with_shape(shape)]


def _reduced_count(call: Call) -> int:
    x = call["input"]
    shape = tuple(x.shape)
    axes = _axes(call, len(shape))
    return math.prod(shape[a] for a in axes) if axes else 1


def _np_sum(x, axes, keep):
    return np.sum(x, axis=axes, keepdims=keep, dtype=x.dtype)


def _np_logsumexp(x, axes, keep):
    if not axes:
        return x.copy()
    m = np.max(x, axis=axes, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    with np.errstate(all="ignore"):
        r = np.log(np.sum(np.exp(x - m), axis=axes, keepdims=True)) + m
    return r if keep else np.squeeze(r, axis=axes)


_REDUCE = {
    # name: (allowed, required, numpy fn(x, axes, keep), ONNX op, element-wise op for empty axes, ulp(n))
    "reduceL1": (SUMMABLE, INT_REQ, lambda x, a, k: _np_sum(np.abs(x), a, k), "ReduceL1", "Abs", lambda n: n),
    "reduceL2": (FLOAT_TYPES, FLOAT_TYPES, lambda x, a, k: np.sqrt(np.sum(x * x, axis=a, keepdims=k)),
                 "ReduceL2", "Abs", lambda n: 2 * n + 1),
    "reduceLogSum": (FLOAT_TYPES, FLOAT_TYPES, lambda x, a, k: np.log(np.sum(x, axis=a, keepdims=k)),
                     "ReduceLogSum", "Log", lambda n: n + 18),
    "reduceLogSumExp": (FLOAT_TYPES, FLOAT_TYPES, _np_logsumexp, "ReduceLogSumExp", "Identity",
                        lambda n: 2 * n + 18),
    "reduceMax": (ALL_TYPES, INT_REQ, lambda x, a, k: np.max(x, axis=a, keepdims=k) if x.size else x,
                  "ReduceMax", "Identity", lambda n: 0),
    "reduceMin": (ALL_TYPES, INT_REQ, lambda x, a, k: np.min(x, axis=a, keepdims=k) if x.size else x,
                  "ReduceMin", "Identity", lambda n: 0),
    "reduceMean": (FLOAT_TYPES, FLOAT_TYPES, lambda x, a, k: np.mean(x, axis=a, keepdims=k),
                   "ReduceMean", "Identity", lambda n: n + 2),
    "reduceProduct": (SUMMABLE, FLOAT_TYPES, lambda x, a, k: np.prod(x, axis=a, keepdims=k, dtype=x.dtype),
                      "ReduceProd", "Identity", lambda n: n),
    "reduceSum": (SUMMABLE, INT_REQ, _np_sum, "ReduceSum", "Identity", lambda n: n),
    "reduceSumSquare": (SUMMABLE, INT_REQ, lambda x, a, k: _np_sum(x * x, a, k), "ReduceSumSquare", "Square",
                        lambda n: 2 * n),
}


def _make_reduce(name, allowed, required, fn, onnx_op, elementwise, ulp_fn) -> OpDef:
    def reference(call: Call):
        x = call["input"]
        axes = tuple(_axes(call, x.ndim))
        keep = bool(call["keepDimensions"])
        with np.errstate(all="ignore"):
            if name == "reduceL1" and x.dtype.kind == "u":
                r = _np_sum(x, axes, keep)
            else:
                r = fn(f32(x), axes, keep)
        return [np.asarray(r).astype(x.dtype)]

    def lower(lb, call: Call):
        x = call["input"]
        dt = lb.dtype(x)
        rank = len(lb.shape(x))
        axes = _axes(call, rank)
        keep = 1 if call["keepDimensions"] else 0
        # compute type: ORT CPU reduce kernels cover float32/float16/int32/int64 (+ int8/uint8 for max/min)
        back = None
        if dt == "float16" and name not in ("reduceMax", "reduceMin"):
            x, back = lb.cast(x, "float32"), "float16"
        elif dt == "uint64" and name in ("reduceMax", "reduceMin"):
            x = ordered_int64(lb, x)
            back = "ordered"
        elif dt in ("uint32", "uint64") or (dt == "int32" and name in _INT32_SATURATES):
            # int32 sums and products: ORT's kernels saturate on overflow; the int64 result's low
            # bits wrap like the reference (and native Chromium)
            x, back = lb.cast(x, "int64"), dt
        op = onnx_op
        if name == "reduceL1" and dt in ("uint32", "uint64"):
            op = "ReduceSum"  # |x| == x; int64 abs would break values >= 2^63
        if not axes:
            if elementwise == "Identity" or (elementwise == "Abs" and dt in ("uint32", "uint64")):
                r = lb.node("Identity", [x])
            elif elementwise == "Square":
                r = lb.node("Mul", [x, x])
            else:
                r = lb.node(elementwise, [x])
        elif name in ("reduceMax", "reduceMin") and lb.dtype(x) == "int64":
            r = int64_extreme(lb, x, name, lb.shape(call["input"]), axes, keep)
        elif op in ("ReduceSum", "ReduceSumSquare", "ReduceL1") and lb.dtype(x) == "int64":
            r = _int64_exact_sum(lb, x, op, lb.shape(call["input"]), axes, keep)
        elif op == "ReduceProd" and lb.dtype(x) == "int64":
            r = _int64_exact_product(lb, x, lb.shape(call["input"]), axes, keep)
        else:
            r = lb.node(op, [x, lb.ints(axes)], keepdims=keep)
        if back == "ordered":
            return [from_ordered(lb, r)]
        return [lb.cast(r, back) if back else r]

    def tolerance(call: Call, data_type: str | None = None):
        return ("ulp", ulp_fn(_reduced_count(call)))

    return OpDef(
        name=name,
        limits={
            "input": Limits(types=tuple(allowed), required_types=tuple(required), required_ranks=(0, 5)),
            "output": same_as("input", same_rank=False),
        },
        infer=_reduce_infer,
        reference=reference,
        lower=lower,
        tolerance=tolerance,
        doc=f"{name} over options.axes (default all).",
    )


# --------------------------------------------------------------------------- argMin / argMax


def _arg_infer(call: Call):
    x = call["input"]
    axis = check_axis(call["axis"], x.rank)
    out_type = call.get("outputDataType", "int32")
    if out_type not in ("int32", "int64"):
        raise WebNNTypeError(f"outputDataType must be int32 or int64, not {out_type}.")
    if call["keepDimensions"]:
        shape = [1 if i == axis else d for i, d in enumerate(x.shape)]
    else:
        shape = [d for i, d in enumerate(x.shape) if i != axis]
    return [x.with_type(out_type).with_shape(shape)]


def _make_arg(name, np_fn, onnx_op) -> OpDef:
    def reference(call: Call):
        x = call["input"]
        axis = call["axis"]
        r = np_fn(x, axis=axis)  # first occurrence, like ONNX select_last_index=0
        if call["keepDimensions"]:
            r = np.expand_dims(r, axis)
        return [r.astype(call.get("outputDataType", "int32"))]

    def lower(lb, call: Call):
        x = call["input"]
        dt = lb.dtype(x)
        if dt == "uint64":
            x = ordered_int64(lb, x)
        elif dt == "uint32":
            x = lb.cast(x, "int64")
        r = lb.node(onnx_op, [x], dtype="int64", axis=int(call["axis"]),
                    keepdims=1 if call["keepDimensions"] else 0, select_last_index=0)
        return [lb.cast(r, call.get("outputDataType", "int32"))]

    return OpDef(
        name=name,
        limits={
            "input": Limits(ranks=(1, None), required_types=INT_REQ, required_ranks=(1, 5)),
            "output": Limits(types=("int32", "int64"), required_types=("int32",), required_ranks=(0, 5)),
        },
        infer=_arg_infer,
        reference=reference,
        lower=lower,
        tolerance=("ulp", 0),
        doc=f"{name}: index of the {'smallest' if 'Min' in name else 'largest'} value along axis.",
    )


# --------------------------------------------------------------------------- cumulativeSum


def _cumsum_infer(call: Call):
    x = call["input"]
    check_axis(call["axis"], x.rank)
    return [x]


def _cumsum_ref(call: Call):
    x = call["input"]
    axis = call["axis"]
    a = f32(x)
    if call["reversed"]:
        a = np.flip(a, axis)
    r = np.cumsum(a, axis=axis, dtype=a.dtype)
    if call["exclusive"]:
        r = r - a
    if call["reversed"]:
        r = np.flip(r, axis)
    return [r.astype(x.dtype)]


def _cumsum_lower(lb, call: Call):
    x = call["input"]
    dt = lb.dtype(x)
    if dt in ("uint32", "uint64"):
        x = lb.cast(x, "int64")
    elif dt == "float16":
        x = lb.cast(x, "float32")
    r = lb.node("CumSum", [x, lb.const(np.array(call["axis"], np.int64))],
                exclusive=1 if call["exclusive"] else 0, reverse=1 if call["reversed"] else 0)
    return [lb.cast(r, dt)]


def _cumsum_tol(call: Call, data_type: str | None = None):
    x = call["input"]
    n = tuple(x.shape)[call["axis"]]
    return ("ulp", n) if dtype_name(x) in FLOAT_TYPES else ("ulp", 0)


register(
    *(_make_reduce(n, *row) for n, row in _REDUCE.items()),
    _make_arg("argMin", np.argmin, "ArgMin"),
    _make_arg("argMax", np.argmax, "ArgMax"),
    OpDef(
        name="cumulativeSum",
        limits={
            "input": Limits(types=SUMMABLE, ranks=(1, None), required_types=INT_REQ, required_ranks=(1, 5)),
            "output": same_as("input"),
        },
        infer=_cumsum_infer,
        reference=_cumsum_ref,
        lower=_cumsum_lower,
        tolerance=_cumsum_tol,
        doc="Cumulative sum along axis (exclusive, reversed options).",
    ),
)


# Core ML (MIL) lowerings of the reductions; an empty ``axes`` (or a scalar input) reduces nothing:
# only the op's element-wise part is applied (the same one the ONNX lowering uses).
_MIL_REDUCE = {"reduceSum": "reduce_sum", "reduceMean": "reduce_mean", "reduceMax": "reduce_max",
               "reduceMin": "reduce_min", "reduceProduct": "reduce_prod", "reduceL1": "reduce_l1_norm",
               "reduceL2": "reduce_l2_norm", "reduceLogSumExp": "reduce_log_sum_exp",
               "reduceSumSquare": "reduce_sum_square", "reduceLogSum": "reduce_log_sum"}


_MIL_ELEMENTWISE = {
    "Identity": lambda mb, x: mb.identity(x=x),
    "Abs": lambda mb, x: mb.abs(x=x),
    "Log": lambda mb, x: mb.log(x=x, epsilon=0.0),
    "Square": lambda mb, x: mb.mul(x=x, y=x),
}


def _mil_reduce(name: str, op: str):
    def lower(mb, call: Call):
        x = call["input"]
        axes = _axes(call, x.rank)
        if not axes:
            return [_MIL_ELEMENTWISE[_REDUCE[name][4]](mb, x)]
        if name == "reduceL2" and mb.webnn_type(x) == "float16":
            # float32 inside, as in the reference: the sum of squares overflows float16 long before its root
            y = mb.reduce_l2_norm(x=mb.cast(x=x, dtype="fp32"), axes=axes, keep_dims=bool(call["keepDimensions"]))
            return [mb.cast(x=y, dtype="fp16")]
        y = getattr(mb, op)(x=mb.wide(x), axes=axes, keep_dims=bool(call["keepDimensions"]))
        return [mb.narrow(y, mb.webnn_type(x))]

    return lower


# int8/uint8: reduceMax/reduceMin only (through int32: their results stay in range)
_MIL_8BIT = ("reduceMax", "reduceMin")
attach_coreml({n: _mil_reduce(n, op) for n, op in _MIL_REDUCE.items() if n not in _MIL_8BIT})
attach_coreml({n: _mil_reduce(n, _MIL_REDUCE[n]) for n in _MIL_8BIT}, types=INT_REQ + ("int8", "uint8"))


def _mil_arg(op: str):
    def lower(mb, call: Call):
        return [getattr(mb, op)(x=mb.wide(call["input"]), axis=int(call["axis"]),
                                keep_dims=bool(call["keepDimensions"]))]

    return lower


attach_coreml({"argMax": _mil_arg("reduce_argmax"), "argMin": _mil_arg("reduce_argmin")}, types=INT_REQ + ("int8", "uint8"))
attach_coreml({"cumulativeSum": lambda mb, call: [mb.cumsum(x=call["input"], axis=int(call["axis"]),
                                                            exclusive=bool(call["exclusive"]),
                                                            reverse=bool(call["reversed"]))]})


# --------------------------------------------------------------------------- PyTorch
# The reference's formulas: floats in float32 (float16 widened), integers in int64 whose low bits
# the backend keeps (sums and products wrap as the reference's do); uint64 max/min/arg in order.
# An empty ``axes`` reduces nothing (PyTorch would reduce everything for dim=()).


def _torch_reduce(name: str):
    def lower(tb, call: Call):
        torch = tb.torch
        x = call["input"]
        dt = tb.type(x)
        axes = tuple(_axes(call, x.dim()))
        keep = bool(call["keepDimensions"])
        if not axes and name in ("reduceMax", "reduceMin", "reduceMean", "reduceProduct", "reduceSum",
                                 "reduceLogSumExp"):
            return [x.clone()]
        v = tb.f32(x) if x.is_floating_point() else tb.wide(x)

        def s(t):
            return torch.sum(t, dim=axes, keepdim=keep) if axes else t

        if name in ("reduceMax", "reduceMin"):
            fn = torch.amax if name == "reduceMax" else torch.amin
            return [tb.unordered(fn(tb.ordered(v, dt), dim=axes, keepdim=keep), dt)]
        if name == "reduceL1":
            return [s(v if dt in ("uint32", "uint64") else torch.abs(v))]
        if name == "reduceL2":
            return [torch.sqrt(s(v * v))]
        if name == "reduceLogSum":
            return [torch.log(s(v))]
        if name == "reduceSum":
            return [s(v)]
        if name == "reduceSumSquare":
            return [s(v * v)]
        if name == "reduceMean":
            return [torch.mean(v, dim=axes, keepdim=keep)]
        if name == "reduceProduct":
            for a in sorted(axes, reverse=True):
                v = torch.prod(v, dim=a, keepdim=keep)
            return [v]
        # reduceLogSumExp
        m = torch.amax(v, dim=axes, keepdim=True)
        m = torch.where(torch.isfinite(m), m, 0.0)
        r = torch.log(torch.sum(torch.exp(v - m), dim=axes, keepdim=True)) + m
        return [r if keep else r.squeeze(axes)]

    return lower


def _torch_arg(name: str):
    def lower(tb, call: Call):
        x = call["input"]
        dt = tb.type(x)
        fn = tb.torch.argmax if name == "argMax" else tb.torch.argmin
        return [fn(tb.ordered(x, dt), dim=int(call["axis"]), keepdim=bool(call["keepDimensions"]))]

    return lower


def _torch_cumsum(tb, call: Call):
    torch = tb.torch
    x = call["input"]
    axis = int(call["axis"])
    a = tb.f32(x) if x.is_floating_point() else tb.wide(x)
    if call["reversed"]:
        a = torch.flip(a, (axis,))
    r = torch.cumsum(a, dim=axis)
    if call["exclusive"]:
        r = r - a
    if call["reversed"]:
        r = torch.flip(r, (axis,))
    return [r]


attach_torch({**{n: _torch_reduce(n) for n in _REDUCE}, "argMin": _torch_arg("argMin"), "argMax": _torch_arg("argMax"),
              "cumulativeSum": _torch_cumsum})
