"""WebNN operator definitions: one registry read by codegen, backends, policy and tests."""

from .core import (  # noqa: F401
    DATA_TYPES,
    DataError,
    InvalidStateError,
    NotSupportedError,
    OperandDesc,
    OperationError,
    SecurityError,
    UnknownError,
    WebNNError,
    WebNNTypeError,
)
from .registry import REGISTRY, Call, Limits, OpDef, load_all  # noqa: F401
