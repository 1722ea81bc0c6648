"""concat(inputs, axis).

Spec: 1..8192 inputs ("valid tensor count"), each any data type, rank >= 1, all of the first
input's data type and rank; axis < rank; all dimensions but axis equal; the summed axis size must
be a valid dimension.
"""

from __future__ import annotations

import numpy as np

from ..core import ALL_TYPES, MAX_DIMENSION, MAX_TENSOR_COUNT, PACKED_TYPES, WebNNTypeError
from ..registry import Call, Limits, OpDef, attach_coreml, attach_torch, register

REQUIRED = ("float32", "float16", "int32")


def infer(call: Call):
    inputs, axis = list(call["inputs"]), call["axis"]
    if not 1 <= len(inputs) <= MAX_TENSOR_COUNT:
        raise WebNNTypeError(f"{len(inputs)} inputs given; 1 to {MAX_TENSOR_COUNT} are allowed.")
    first = inputs[0]
    if axis >= first.rank:
        raise WebNNTypeError(f"axis {axis} must be less than the inputs' rank {first.rank}.")
    size = first.shape[axis]
    for i, x in enumerate(inputs[1:], 1):
        if x.data_type != first.data_type:
            raise WebNNTypeError(f"inputs[{i}] data type {x.data_type} differs from inputs[0] ({first.data_type}).")
        if x.rank != first.rank:
            raise WebNNTypeError(f"inputs[{i}] rank {x.rank} differs from inputs[0] ({first.rank}).")
        for d in range(first.rank):
            if d != axis and x.shape[d] != first.shape[d]:
                raise WebNNTypeError(
                    f"inputs[{i}] shape {list(x.shape)} differs from inputs[0] {list(first.shape)} outside axis {axis}."
                )
        size += x.shape[axis]
        if size > MAX_DIMENSION:
            raise WebNNTypeError(f"the concatenated axis size {size} is not a valid dimension.")
    shape = list(first.shape)
    shape[axis] = size
    return [first.with_shape(shape)]


def reference(call: Call):
    return [np.concatenate(list(call["inputs"]), axis=call["axis"])]


def lower(lb, call: Call):
    return [lb.node("Concat", list(call["inputs"]), axis=int(call["axis"]))]


register(
    OpDef(
        name="concat",
        limits={
            # int4 / uint4 (extension): as every layout op (issue 25)
            "inputs": Limits(types=ALL_TYPES + PACKED_TYPES, ranks=(1, None), required_types=REQUIRED,
                             required_ranks=(1, 5)),
            "output": Limits(same="inputs", ranks=(1, None), required_types=REQUIRED, required_ranks=(1, 5)),
        },
        infer=infer,
        reference=reference,
        lower=lower,
        tolerance=("ulp", 0),
        doc="Concatenate along an axis.",
    )
)


attach_coreml({"concat": lambda mb, call: [mb.concat(values=list(call["inputs"]), axis=int(call["axis"]))]},
              types=("float32", "float16", "int32", "int8", "uint8"))


attach_torch({"concat": lambda tb, call: [tb.torch.cat(list(call["inputs"]), dim=int(call["axis"]))]})
