"""softmax(input, axis): exp(x - max) / sum(exp(x - max)) along ``axis``.

Spec: input float32/float16, rank >= 1; axis (required at HEAD) must be < rank; output same type
and shape.
"""

from __future__ import annotations

import numpy as np

from ..core import FLOAT_TYPES, WebNNTypeError
from ..registry import Call, Limits, OpDef, attach_coreml, attach_litert, attach_torch, register, same_as
from ._common import in_float32


def infer(call: Call):
    x, axis = call["input"], call["axis"]
    if axis >= x.rank:
        raise WebNNTypeError(f"axis {axis} must be less than the input rank {x.rank}.")
    return [x]


def _softmax(x, axis):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def reference(call: Call):
    with np.errstate(all="ignore"):
        return [in_float32(_softmax)(call["input"], axis=call["axis"])]


def lower(lb, call: Call):
    return [lb.node("Softmax", [call["input"]], axis=int(call["axis"]))]


def tolerance(call: Call, data_type: str):
    """WPT: ULP = inputShape[axis] * 3 + 3."""
    return ("ulp", call["input"].shape[call["axis"]] * 3 + 3)


register(
    OpDef(
        name="softmax",
        limits={
            "input": Limits(types=FLOAT_TYPES, ranks=(1, None), required_types=FLOAT_TYPES, required_ranks=(1, 5)),
            "output": same_as("input", ranks=(1, None)),
        },
        infer=infer,
        reference=reference,
        lower=lower,
        tolerance=tolerance,
        doc="Softmax along an axis.",
    )
)


attach_coreml({"softmax": lambda mb, call: [mb.softmax(x=call["input"], axis=int(call["axis"]))]})


def _torch_softmax(tb, call: Call):
    """The reference's exp(x - max) / sum in float32."""
    x, axis = tb.f32(call["input"]), int(call["axis"])
    e = tb.torch.exp(x - x.amax(dim=axis, keepdim=True))
    return [e / e.sum(dim=axis, keepdim=True)]


attach_torch({"softmax": _torch_softmax})


def _litert_softmax(lt, call: Call):
    """TFLite's SOFTMAX takes the last axis: another axis is moved there and back."""
    x = lt.logical(call["input"])
    rank, axis = len(x.shape), int(call["axis"])
    perm = list(range(rank))
    if axis != rank - 1:
        perm[axis], perm[-1] = perm[-1], perm[axis]
        x = lt.transpose(x, perm)
    y = lt.op(lt.ops.SOFTMAX, [x], x.shape, *lt.opts("SoftmaxOptions", beta=1.0))
    return [lt.transpose(y, perm) if axis != rank - 1 else y]


attach_litert({"softmax": _litert_softmax})
