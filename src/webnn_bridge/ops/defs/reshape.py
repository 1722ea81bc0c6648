"""reshape(input, newShape).

Spec: input any data type, any rank; every item of newShape must be a valid dimension (an empty
newShape makes a scalar); the element counts must match; output input's type with newShape.
"""

from __future__ import annotations

import math

import numpy as np

from ..core import ALL_TYPES, MAX_DIMENSION, PACKED_TYPES, WebNNTypeError
from ..registry import Call, Limits, OpDef, attach_coreml, attach_litert, attach_torch, register

REQUIRED = ("float32", "float16", "int32", "int8", "uint8")


def infer(call: Call):
    x, new_shape = call["input"], [int(d) for d in call["newShape"]]
    for d in new_shape:
        if not 0 < d <= MAX_DIMENSION:
            raise WebNNTypeError(f"newShape {new_shape} has an invalid dimension {d}.")
    if math.prod(new_shape) != x.size:
        raise WebNNTypeError(
            f"newShape {new_shape} has {math.prod(new_shape)} elements, the input {list(x.shape)} has {x.size}."
        )
    return [x.with_shape(new_shape)]


def reference(call: Call):
    return [call["input"].reshape(tuple(call["newShape"]))]


def lower(lb, call: Call):
    return [lb.node("Reshape", [call["input"], lb.ints(call["newShape"])])]


register(
    OpDef(
        name="reshape",
        limits={
            # int4 / uint4 (extension): every type an op takes, the layout ops take too (issue 25)
            "input": Limits(types=ALL_TYPES + PACKED_TYPES, required_types=REQUIRED, required_ranks=(0, 5)),
            "output": Limits(same="input", required_types=REQUIRED, required_ranks=(0, 5)),
        },
        infer=infer,
        reference=reference,
        lower=lower,
        tolerance=("ulp", 0),
        doc="Reshape to newShape (same element count).",
    )
)


# Core ML (MIL): shape as an int32 constant (an empty list, a scalar's shape, would be a float one)
attach_coreml({"reshape": lambda mb, call: [mb.reshape(x=call["input"],
                                                       shape=np.array([int(d) for d in call["newShape"]], np.int32))]},
              types=("float32", "float16", "int32", "int8", "uint8"))


attach_torch({"reshape": lambda tb, call: [call["input"].reshape([int(d) for d in call["newShape"]])]})

attach_litert({"reshape": lambda lt, call: [lt.reshape(lt.logical(call["input"]), [int(d) for d in call["newShape"]])]})
