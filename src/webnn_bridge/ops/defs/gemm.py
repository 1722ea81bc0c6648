"""gemm(a, b, {c, alpha, beta, aTranspose, bTranspose}): alpha * A' * B' + beta * C.

Spec: a and b float32/float16 rank 2 (b the same type as a); A' = a or a transposed, B' likewise,
A'[1] must equal B'[0]; c (same type, rank 0..2) must be unidirectionally broadcastable to
[M, N]; alpha and beta are cast to a's data type; output [M, N].
"""

from __future__ import annotations

import numpy as np

from ..core import FLOAT_TYPES, WebNNTypeError, broadcast_shapes, cast_number
from ..registry import Call, Limits, OpDef, attach_coreml, attach_litert, attach_torch, register


def output_shape(call: Call, shape_a, shape_b) -> tuple[int, int]:
    a = tuple(reversed(shape_a)) if call.get("aTranspose", False) else tuple(shape_a)
    b = tuple(reversed(shape_b)) if call.get("bTranspose", False) else tuple(shape_b)
    if a[1] != b[0]:
        raise WebNNTypeError(f"the shapes of a {list(a)} and b {list(b)} (after transposes) do not multiply.")
    return a[0], b[1]


def infer(call: Call):
    a, b, c = call["a"], call["b"], call["c"]
    shape = output_shape(call, a.shape, b.shape)
    if c is not None:
        try:
            broadcast_shapes(shape, c.shape, bidirectional=False)
        except WebNNTypeError:
            raise WebNNTypeError(f"c shape {list(c.shape)} is not broadcastable to {list(shape)}.") from None
    return [a.with_shape(shape)]


def _scalars(call: Call, data_type: str) -> tuple[float, float]:
    return (
        float(cast_number(call.get("alpha", 1.0), data_type)),
        float(cast_number(call.get("beta", 1.0), data_type)),
    )


def reference(call: Call):
    a, b, c = call["a"], call["b"], call["c"]
    dtype = a.dtype
    work = np.float32 if dtype == np.float16 else dtype.type
    alpha, beta = _scalars(call, "float16" if dtype == np.float16 else "float32")
    a = a.astype(work).T if call.get("aTranspose", False) else a.astype(work)
    b = b.astype(work).T if call.get("bTranspose", False) else b.astype(work)
    y = work(alpha) * (a @ b)
    if c is not None and beta != 0:
        y = y + work(beta) * c.astype(work)
    return [np.broadcast_to(y, (a.shape[0], b.shape[1])).astype(dtype)]


def lower(lb, call: Call):
    a, b, c = call["a"], call["b"], call["c"]
    alpha, beta = _scalars(call, lb.dtype(a))
    inputs = [a, b] + ([c] if c is not None else [])
    return [
        lb.node(
            "Gemm",
            inputs,
            alpha=alpha,
            beta=beta,
            transA=int(call.get("aTranspose", False)),
            transB=int(call.get("bTranspose", False)),
        )
    ]


def tolerance(call: Call, data_type: str):
    """WPT: ULP = 2 * K, +1 when alpha != 1, +1 for c (when beta != 0) and +1 more when beta != 1."""
    a = call["a"].shape
    t = 2 * (a[0] if call.get("aTranspose", False) else a[1])
    alpha, beta = call.get("alpha", 1.0), call.get("beta", 1.0)
    if alpha != 1.0:
        t += 1
    if call["c"] is not None and beta != 0.0:
        t += 2 if beta != 1.0 else 1
    return ("ulp", t)


register(
    OpDef(
        name="gemm",
        limits={
            "a": Limits(types=FLOAT_TYPES, ranks=(2, 2), required_types=FLOAT_TYPES, required_ranks=(2, 2)),
            "b": Limits(same="a", ranks=(2, 2), required_types=FLOAT_TYPES, required_ranks=(2, 2)),
            "c": Limits(same="a", ranks=(0, 2), required_types=FLOAT_TYPES, required_ranks=(0, 2)),
            "output": Limits(same="a", ranks=(2, 2), required_types=FLOAT_TYPES, required_ranks=(2, 2)),
        },
        infer=infer,
        reference=reference,
        lower=lower,
        tolerance=tolerance,
        doc="General matrix multiplication alpha * A * B + beta * C.",
    )
)


def _mil_gemm(mb, call: Call):
    a, c = call["a"], call["c"]
    y = mb.matmul(x=a, y=call["b"], transpose_x=bool(call.get("aTranspose", False)),
                  transpose_y=bool(call.get("bTranspose", False)))
    alpha, beta = float(call.get("alpha", 1.0)), float(call.get("beta", 1.0))
    if alpha != 1.0:
        y = mb.mul(x=y, y=mb.scalar(alpha, like=a))
    if c is not None:
        y = mb.add(x=y, y=c if beta == 1.0 else mb.mul(x=c, y=mb.scalar(beta, like=a)))
    return [y]


attach_coreml({"gemm": _mil_gemm})


def _torch_gemm(tb, call: Call):
    a, b, c = tb.f32(call["a"]), tb.f32(call["b"]), call["c"]
    alpha, beta = _scalars(call, "float16" if call["a"].dtype == tb.torch.float16 else "float32")
    a = a.t() if call.get("aTranspose", False) else a
    b = b.t() if call.get("bTranspose", False) else b
    y = tb.torch.matmul(a, b) * alpha
    if c is not None and beta != 0:
        y = y + tb.f32(c) * beta
    return [y.broadcast_to((a.shape[0], b.shape[1]))]


attach_torch({"gemm": _torch_gemm})


def _litert_gemm(lt, call: Call):
    """alpha * A @ B + beta * C: a FULLY_CONNECTED op where B is a constant (its weights [N, K],
    alpha folded in; a 1-D C of N values its bias), else BATCH_MATMUL and element-wise ops."""
    a, b, c = lt.logical(call["a"]), call["b"], call["c"]
    alpha, beta = _scalars(call, "float32")
    if call.get("aTranspose", False):
        a = lt.transpose(a, (1, 0))
    m, n = output_shape(call, call["a"].logical_shape, b.logical_shape)
    bias = -1
    if b.const is not None:
        w = b.const if call.get("bTranspose", False) else b.const.T  # [N, K]
        weights = lt.constant(np.float32(alpha) * w)
        if c is not None and beta != 0 and c.const is not None and c.logical_shape in ((n,), (1, n)):
            bias, c = lt.constant(np.float32(beta) * c.const.reshape(n)), None
        y = lt.op(lt.ops.FULLY_CONNECTED, [a, weights, bias], (m, n), *lt.opts("FullyConnectedOptions"))
    else:
        opt = lt.opts("BatchMatMulOptions", adjX=False, adjY=bool(call.get("bTranspose", False)))
        y = lt.op(lt.ops.BATCH_MATMUL, [a, lt.logical(b)], (m, n), *opt)
        if alpha != 1:
            y = lt.elementwise(lt.ops.MUL, [y, lt.constant(np.array(alpha, np.float32))])
    if c is not None and beta != 0:
        c = lt.logical(c)
        if beta != 1:
            c = lt.elementwise(lt.ops.MUL, [c, lt.constant(np.array(beta, np.float32))])
        y = lt.elementwise(lt.ops.ADD, [y, c])
    return [y]


attach_litert({"gemm": _litert_gemm})
