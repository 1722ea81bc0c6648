"""Capability sweep: opSupportLimits() of the ONNX Runtime (and PyTorch) CPU contexts must be truthful.

For every operator in the registry and for every data type that a context reports for the op's main
input operand (read from ``opSupportLimits()``, never from a hard-coded list), a minimal valid graph
using that op with that data type must build and run on the backend and agree with the numpy reference
backend. The cases live in src/webnn_bridge/devtools/sweep_cases.py (the contexts and case lists in src/webnn_bridge/devtools/sweep_run.py),
which `webnn-bridge codegen`'s measured tables share: an operator with one operand, ``input``, gets its case from its row; any other has its own entry
there, and ``test_every_registered_op_has_a_case`` makes sure a new operator cannot be silently skipped.

A second, smaller sweep covers the operands whose data type is independent of the main input
(cast's output type, argMin/argMax outputDataType, quantize/dequantize parameter types, index
types): every type that opSupportLimits() allows for that operand gets one case.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.conformance_exceptions import ORT_LARGE_INT64
from webnn_bridge.bridge.api import MLGraphBuilder
from webnn_bridge.devtools import sweep_cases
from webnn_bridge.devtools.sweep_run import (  # noqa: F401 (re-exported: tests/test_backend_*.py import this module)
    CASES,
    CAST_CASES,
    CAST_OUT_OF_RANGE,
    CONTEXTS,
    LARGE32,
    LARGE32_CASES,
    LARGE64,
    LARGE64_CASES,
    LIMITS_OF,
    MAIN_CASES,
    ORT,
    ORT_MAIN_CASES,
    ORT_SECONDARY_CASES,
    REF,
    SECONDARY,
    SECONDARY_CASES,
    TABLE,
    _big,
    _check,
    _compare_outputs,
    _id,
    _is_float,
    _run_large,
    _seed,
    allowed,
    inp,
    large_case,
    main_operand,
)
from webnn_bridge.ops.registry import load_all


def test_contexts():
    for name, ctx in CONTEXTS.items():
        dev = ctx.exec_device
        assert dev.id == name if dev.kind != "cpu" else (dev.backend == name)
    assert REF.exec_device.backend == "reference"


@pytest.mark.parametrize(("backend", "op", "dt"), MAIN_CASES, ids=[_id(be, f"{op}-{dt}") for be, op, dt in MAIN_CASES])
def test_main_input_types(backend, op, dt):
    assert op in TABLE, f"no sweep entry for {op}"
    _check(backend, op, dt)


@pytest.mark.parametrize(
    ("backend", "op", "dt", "kw", "t"), SECONDARY_CASES,
    ids=[_id(be, f"{op}-{dt}-{kw}={t}") for be, op, dt, kw, t in SECONDARY_CASES]
)
def test_secondary_operand_types(backend, op, dt, kw, t):
    _check(backend, op, dt, **{kw: t})


@pytest.mark.parametrize(("backend", "op", "dt"), LARGE32_CASES, ids=[_id(be, f"{op}-{dt}") for be, op, dt in LARGE32_CASES])
def test_large_32bit_values_are_exact(backend, op, dt):
    ref, got = _run_large(REF, op, dt), _run_large(CONTEXTS[backend], op, dt)
    assert ref.dtype == got.dtype and np.array_equal(ref, got), f"{backend} {got.tolist()} != reference {ref.tolist()}"


@pytest.mark.parametrize(
    ("backend", "op", "dt"),
    [pytest.param(be, op, dt, marks=pytest.mark.xfail(reason=ORT_LARGE_INT64[op, dt], strict=True))
     if be == "onnxruntime" and (op, dt) in ORT_LARGE_INT64 else (be, op, dt) for be, op, dt in LARGE64_CASES],
    ids=[_id(be, f"{op}-{dt}") for be, op, dt in LARGE64_CASES],
)
def test_large_64bit_values_are_exact(backend, op, dt):
    ref, got = _run_large(REF, op, dt), _run_large(CONTEXTS[backend], op, dt)
    assert ref.dtype == got.dtype and np.array_equal(ref, got), f"{backend} {got.tolist()} != reference {ref.tolist()}"


# cast from a float type to an integer type, for values outside the target's range (and NaN,
# +/-Infinity). The spec leaves this implementation-defined; this project's reference defines it
# (src/webnn_bridge/ops/defs/cast.py: truncate, NaN -> 0, saturate), so both backends of one host should agree.


@pytest.mark.parametrize(("backend", "src", "to"), CAST_CASES, ids=[_id(be, f"{s}-to-{t}") for be, s, t in CAST_CASES])
def test_cast_float_to_integer_out_of_range(backend, src, to):
    with np.errstate(over="ignore"):
        x = np.array(CAST_OUT_OF_RANGE, src)

    def run(ctx):
        b = MLGraphBuilder(ctx)
        ins = {}
        graph = b.build({"y": b.cast(inp(b, ins, "x", x), to)})
        try:
            return ctx.compute(graph, ins)["y"]
        finally:
            graph.destroy()

    ref, got = run(REF), run(CONTEXTS[backend])
    bad = ref != got
    assert not bad.any(), f"x={x[bad].tolist()}: {backend} {got[bad].tolist()} != reference {ref[bad].tolist()}"


def test_every_registered_op_has_a_case():
    registry = load_all()
    assert sweep_cases.missing_cases() == [], sweep_cases.missing_message(sweep_cases.missing_cases())
    assert sweep_cases.unknown_cases() == [], "CASES entries for unknown operators"
    assert all(TABLE[op] for op in registry)
    # every op a swept context reports must be swept over at least one data type
    for backend, limits in LIMITS_OF.items():
        reported = {op for op in registry if op in limits}
        swept = {op for be, op, _ in MAIN_CASES if be == backend}
        assert sorted(reported - swept) == [], backend


def test_an_operator_with_one_input_gets_its_case_from_its_row():
    assert "abs" not in CASES and sweep_cases.default_case("abs") is not None  # derived from the row
    assert sweep_cases.default_case("softmax") is None  # required axis: its own entry
    assert sweep_cases.default_case("add") is None  # two operands
    with pytest.raises(sweep_cases.SweepCaseMissing, match="src/webnn_bridge/devtools/sweep_cases.py"):
        sweep_cases._Table()["no_such_op"]
