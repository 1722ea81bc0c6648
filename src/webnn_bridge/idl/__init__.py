"""The WebNN WebIDL (webnn.idl, external.idl, extensions.idl) and its model as data (model.json,
generated from them by `webnn-bridge codegen`: enums, dictionaries, interfaces and overloads)."""

from __future__ import annotations

import functools
import json
from pathlib import Path

MODEL = Path(__file__).with_name("model.json")


@functools.cache
def idl_model() -> dict:
    """The IDL model (without the file's "_generated" header field). Shared: never mutate it."""
    model = json.loads(MODEL.read_text())
    model.pop("_generated", None)
    return model
