"""The WebNN IDL model (enums, dictionaries, interfaces and overloads) as ``IDL``, loaded on first use
from idl/model.json (`webnn-bridge codegen` generates it; see webnn_bridge.idl.idl_model)."""

from webnn_bridge.idl import idl_model


def __getattr__(name: str):
    if name == "IDL":
        return idl_model()
    raise AttributeError(name)
