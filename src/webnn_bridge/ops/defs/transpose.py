"""transpose(input, {permutation}).

Spec: input any data type, any rank; permutation defaults to the reversed axes, otherwise it must
have rank items, each in [0, rank), without duplicates. The output shape is the permuted input
shape (HEAD's text "copy the input operand" omits the permutation; the intent is implemented).
"""

from __future__ import annotations

import numpy as np

from ..core import ALL_TYPES, PACKED_TYPES, WebNNTypeError
from ..registry import Call, Limits, OpDef, attach_coreml, attach_litert, attach_torch, register, same_as

REQUIRED = ("float32", "float16", "int32")


def permutation(call: Call, rank: int) -> list[int]:
    perm = call["permutation"]
    if perm is None:
        return list(reversed(range(rank)))
    perm = [int(p) for p in perm]
    if len(perm) != rank:
        raise WebNNTypeError(f"permutation {perm} must have {rank} items (the input rank).")
    if any(not 0 <= p < rank for p in perm):
        raise WebNNTypeError(f"permutation {perm} has values outside [0, {rank}).")
    if len(set(perm)) != rank:
        raise WebNNTypeError(f"permutation {perm} contains duplicates.")
    return perm


def infer(call: Call):
    x = call["input"]
    perm = permutation(call, x.rank)
    return [x.with_shape(x.shape[p] for p in perm)]


def reference(call: Call):
    x = call["input"]
    return [np.transpose(x, permutation(call, x.ndim))]


def lower(lb, call: Call):
    x = call["input"]
    perm = permutation(call, len(lb.shape(x)))
    return [lb.node("Transpose", [x], perm=perm) if perm else lb.node("Identity", [x])]


register(
    OpDef(
        name="transpose",
        limits={
            # int4 / uint4 (extension): as every layout op (issue 25)
            "input": Limits(types=ALL_TYPES + PACKED_TYPES, required_types=REQUIRED, required_ranks=(0, 5)),
            "output": same_as("input"),
        },
        infer=infer,
        reference=reference,
        lower=lower,
        tolerance=("ulp", 0),
        doc="Permute the dimensions (default: reverse them).",
    )
)


def _mil_transpose(mb, call: Call):
    x = call["input"]
    perm = call["permutation"]
    if x.rank == 0:
        return [mb.identity(x=x)]
    return [mb.transpose(x=x, perm=list(range(x.rank))[::-1] if perm is None else [int(p) for p in perm])]


attach_coreml({"transpose": _mil_transpose}, types=("float32", "float16", "int32", "int8", "uint8"))


def _torch_transpose(tb, call: Call):
    x = call["input"]
    return [x.permute(permutation(call, x.dim())) if x.dim() else x.clone()]


attach_torch({"transpose": _torch_transpose})



def _litert_transpose(lt, call: Call):
    x = lt.logical(call["input"])
    return [lt.transpose(x, permutation(call, len(x.shape)))]


attach_litert({"transpose": _litert_transpose})
