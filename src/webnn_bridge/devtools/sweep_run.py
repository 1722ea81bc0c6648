"""The capability sweep run: the CPU contexts swept against the numpy reference (ONNX Runtime, and
PyTorch's CPU device and every GPU device it sees where torch is installed), and the case lists built
from what their opSupportLimits() report, over the cases of devtools/sweep_cases.py (re-exported here).
tests/test_capability_sweep.py runs them; `webnn-bridge codegen`'s measured tables
(devtools/codegen/backend_tables.py) build and run them. Importing it makes the contexts."""

from __future__ import annotations

import numpy as np

from webnn_bridge.bridge.api import ML, MLGraphBuilder
from webnn_bridge.ops.registry import load_all

from .sweep_cases import (  # noqa: F401 (re-exported: the sweep's users read everything from here)
    CASES,
    CAST_OUT_OF_RANGE,
    LARGE32,
    LARGE64,
    OVERRIDES,
    SECONDARY,
    TABLE,
    TOL,
    _big,
    _compare_outputs,
    _is_float,
    _seed,
    case,
    default_case,
    inp,
    large_case,
    main_operand,
    missing_cases,
)

_ML = ML()
# ONNX Runtime's CPU by name: on a machine with a GPU the default context goes to the GPU
ORT = ML([d for d in _ML.inventory if d.id == "onnxruntime:CPUExecutionProvider"]).createContext()
REF = ML([d for d in _ML.inventory if d.backend == "reference"]).createContext()
LIMITS = ORT.opSupportLimits()
# every CPU backend swept against the reference: ONNX Runtime, and PyTorch's CPU device when torch
# is installed (the test extra installs it); test ids of the ONNX Runtime cases carry no prefix
_TORCH_CPU = [d for d in _ML.inventory if d.backend == "torch" and d.kind == "cpu"]
# and every GPU device PyTorch sees, where there is one (a lent GPU machine, never CI), keyed by its id
_TORCH_GPUS = [d for d in _ML.inventory if d.backend == "torch" and d.kind != "cpu"]
CONTEXTS = {"onnxruntime": ORT, **({"torch": ML(_TORCH_CPU[:1]).createContext()} if _TORCH_CPU else {}),
            **{d.id: ML([d]).createContext() for d in _TORCH_GPUS}}
LIMITS_OF = {name: ctx.opSupportLimits() for name, ctx in CONTEXTS.items()}


def _id(backend: str, text: str) -> str:
    return text if backend == "onnxruntime" else f"{backend}:{text}"

def allowed(op: str, operand: str, backend: str = "onnxruntime") -> list[str]:
    """The data types opSupportLimits() promises for one operand of one op ([] if absent)."""
    return list(LIMITS_OF[backend].get(op, {}).get(operand, {}).get("dataTypes", []))


MAIN_CASES = [(be, op, dt) for be in CONTEXTS for op in sorted(load_all()) for dt in allowed(op, main_operand(op), be)]
SECONDARY_CASES = [
    (be, op, main, kw, t)
    for be in CONTEXTS
    for op, (operand, kw) in sorted(SECONDARY.items())
    # cast: every (input, output) pair; the others: the op's first allowed main type
    for main in (allowed(op, main_operand(op), be) if op == "cast" else allowed(op, main_operand(op), be)[:1])
    for t in allowed(op, operand, be)
]

# the ONNX Runtime rows alone, in their (op, ...) form: other backends' capability tables are measured against them
ORT_MAIN_CASES = [(op, dt) for be, op, dt in MAIN_CASES if be == "onnxruntime"]
ORT_SECONDARY_CASES = [(op, main, kw, t) for be, op, main, kw, t in SECONDARY_CASES if be == "onnxruntime"]


def _run(ctx, op, dt, kw):
    _seed(op, dt, *sorted(kw.items()))
    b = MLGraphBuilder(ctx)
    outs, ins = TABLE[op](b, dt, **kw)
    outs = outs if isinstance(outs, list) else [outs]
    graph = b.build({f"o{i}": o for i, o in enumerate(outs)})
    try:
        res = ctx.compute(graph, ins)
    finally:
        graph.destroy()  # frees the ORT session (and its thread pool) now, not at interpreter exit
    return [res[f"o{i}"] for i in range(len(outs))]


def _check(backend, op, dt, **kw):
    ref = _run(REF, op, dt, kw)
    got = _run(CONTEXTS[backend], op, dt, kw)
    _compare_outputs(op, dt, ref, got)


LARGE64_CASES = [
    (be, op, dt)
    for be in CONTEXTS
    for op, (i64, u64, _) in sorted(LARGE64.items())
    for dt, data in (("int64", i64), ("uint64", u64 if u64 is not None else i64))
    if dt in allowed(op.split(":")[0], main_operand(op.split(":")[0]), be)
]


LARGE32_CASES = [
    (be, op, dt)
    for be in CONTEXTS
    for op in sorted(LARGE32)
    for dt in ("int32", "uint32")
    if dt in allowed(op, main_operand(op), be)
]


def _run_large(ctx, op: str, dt: str) -> np.ndarray:
    data, build = large_case(op, dt)
    b = MLGraphBuilder(ctx)
    out, ins = _big(b, dt, data, build)
    graph = b.build({"y": out})
    try:
        return ctx.compute(graph, ins)["y"]
    finally:
        graph.destroy()


CAST_CASES = [
    (be, src, to)
    for be in CONTEXTS
    for src in allowed("cast", "input", be)
    if _is_float(src)
    for to in allowed("cast", "output", be)
    if not _is_float(to)
]
