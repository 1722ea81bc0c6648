"""Execution backends behind one small interface (see base.py); capabilities as data (compact
declarations, subset/union) in capabilities.py.

Importing this package never fails because a runtime is missing: each backend's probe() returns
no devices instead, and the device inventory shrinks.
"""

from .base import Backend, Compiled, Device  # noqa: F401


def all_backends() -> list[type]:
    from .coreml import CoreMLBackend
    from .litert import LiteRTBackend
    from .onnxruntime import OnnxRuntimeBackend
    from .openvino import OpenVinoBackend
    from .page import PageBackend
    from .reference import ReferenceBackend
    from .tensorrt import TensorRtBackend
    from .torch import TorchBackend

    return [OnnxRuntimeBackend, TensorRtBackend, CoreMLBackend, OpenVinoBackend, TorchBackend, LiteRTBackend,
            ReferenceBackend, PageBackend]


def backend_for(device: "Device") -> "Backend":
    for cls in all_backends():
        if cls.name == device.backend:
            return cls.instance()
    raise KeyError(device.backend)
