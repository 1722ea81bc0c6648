"""matmul(a, b): matrix product with batch broadcasting.

Spec (HEAD): a and b float32/float16 (b the same type), both rank >= 2 (rank-1 inputs are a
TypeError); a's columns must equal b's rows; the batch dimensions (all but the last two) are
bidirectionally broadcast; output batch shape + [rowsA, colsB].
"""

from __future__ import annotations

import numpy as np

from ..core import FLOAT_TYPES, WebNNTypeError, broadcast_shapes
from ..registry import Call, Limits, OpDef, attach_coreml, attach_torch, register
from ._common import in_float32


def infer(call: Call):
    a, b = call["a"], call["b"]
    if a.rank < 2 or b.rank < 2:
        raise WebNNTypeError(f"a (rank {a.rank}) and b (rank {b.rank}) must both have rank >= 2.")
    if a.shape[-1] != b.shape[-2]:
        raise WebNNTypeError(f"a's columns ({a.shape[-1]}) must equal b's rows ({b.shape[-2]}).")
    batch = broadcast_shapes(a.shape[:-2], b.shape[:-2])
    return [a.with_shape(batch + (a.shape[-2], b.shape[-1]))]


def reference(call: Call):
    return [in_float32(np.matmul)(call["a"], call["b"])]


def lower(lb, call: Call):
    return [lb.node("MatMul", [call["a"], call["b"]])]


def tolerance(call: Call, data_type: str):
    """WPT: ULP = 2 * (a's last dimension)."""
    return ("ulp", call["a"].shape[-1] * 2)


register(
    OpDef(
        name="matmul",
        limits={
            "a": Limits(types=FLOAT_TYPES, ranks=(2, None), required_types=FLOAT_TYPES, required_ranks=(2, 5)),
            "b": Limits(same="a", ranks=(2, None), required_types=FLOAT_TYPES, required_ranks=(2, 5)),
            "output": Limits(same="a", ranks=(2, None), required_types=FLOAT_TYPES, required_ranks=(2, 5)),
        },
        infer=infer,
        reference=reference,
        lower=lower,
        tolerance=tolerance,
        doc="Matrix product with numpy-style batch broadcasting (ranks >= 2).",
    )
)


attach_coreml({"matmul": lambda mb, call: [mb.matmul(x=call["a"], y=call["b"])]})


attach_torch({"matmul": lambda tb, call: [tb.torch.matmul(tb.f32(call["a"]), tb.f32(call["b"]))]})
