"""The page-side shim: runtime.js (hand-written behaviour) + generated/webnn_idl.js (from the IDL)."""

from pathlib import Path

HERE = Path(__file__).resolve().parent
GENERATED = HERE / "generated" / "webnn_idl.js"
RUNTIME = HERE / "runtime.js"
