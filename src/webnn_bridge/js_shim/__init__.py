"""The page-side shim: the IDL model (idl/model.json, put first by bridge/shim.py), generated/webnn_idl.js
(the interfaces, from the IDL), rules_prelude.js + generated/webnn_ops.js (the op rules translated from
Python by devtools/codegen/jsgen.py) and runtime.js (hand-written behaviour)."""

from pathlib import Path

HERE = Path(__file__).resolve().parent
GENERATED = HERE / "generated" / "webnn_idl.js"
PRELUDE = HERE / "rules_prelude.js"
RULES = HERE / "generated" / "webnn_ops.js"
RUNTIME = HERE / "runtime.js"
