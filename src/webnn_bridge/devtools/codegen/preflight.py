"""What `webnn-bridge codegen` checks before it writes any file: that every operator has each piece
CONTRIBUTING.md's "Adding an operator" asks for. A missing piece is named with its step, instead of a
generator failing half-way through the files (a bare ``KeyError: 'square'`` after three of them).

The checks read the IDL source (idl/*.idl, parsed afresh: the committed idl/model.json is one of the
files codegen is about to rewrite) and the registry (ops/defs/). tests/test_contributing.py runs the
same checks on the committed model.
"""

from __future__ import annotations

import importlib.util

# MLGraphBuilder methods that are not operators, and MLOpSupportLimits members that are not operators
NOT_OPERATORS = frozenset({"input", "constant", "build"})
LIMITS_NOT_OPERATORS = frozenset({"preferredInputLayout", "maxTensorByteLength", "input", "constant", "output"})
LIMITS_DICT = "MLOpSupportLimits"

STEP_IDL = "step 1 (CONTRIBUTING.md, adding an operator: its IDL lines)"
STEP_OP = "step 2 (CONTRIBUTING.md, adding an operator: one op definition)"
STEP_SWEEP = "step 3 (CONTRIBUTING.md, adding an operator: its capability-sweep case)"


def idl_operators(model: dict) -> set[str]:
    """The MLGraphBuilder methods of an IDL model that are operators."""
    return set(model["interfaces"]["MLGraphBuilder"]["operations"]) - NOT_OPERATORS


def limits_members(model: dict) -> set[str]:
    """The operator members of MLOpSupportLimits (each operator's entry of opSupportLimits())."""
    return {m["name"] for m in model["dictionaries"][LIMITS_DICT]["members"]} - LIMITS_NOT_OPERATORS


def idl_problems(model: dict, registry: set[str]) -> list[str]:
    """The IDL against the registry: each operator needs its MLGraphBuilder method, its MLOpSupportLimits
    member (without it the op silently drops out of opSupportLimits() and the backend tables) and its
    OpDef; each message names the step and what to add."""
    methods, members = idl_operators(model), limits_members(model)
    out = []
    if registry - methods:
        out.append(f"{STEP_IDL}: no MLGraphBuilder method in src/webnn_bridge/idl/webnn.idl for {sorted(registry - methods)} "
                   "(`MLOperand <op>(MLOperand input, optional MLOperatorOptions options = {});`)")
    if methods - members:
        out.append(f"{STEP_IDL}: no MLOpSupportLimits member in src/webnn_bridge/idl/webnn.idl for {sorted(methods - members)} "
                   "(`MLSingleInputSupportLimits <op>;` in a `partial dictionary MLOpSupportLimits`); without it the "
                   "operator is missing from opSupportLimits() and from the backends' tables")
    if members - methods:
        out.append(f"{STEP_IDL}: MLOpSupportLimits members without an MLGraphBuilder method: {sorted(members - methods)}")
    if methods - registry:
        out.append(f"{STEP_OP}: no OpDef registered under src/webnn_bridge/ops/defs/ for {sorted(methods - registry)} (a unary "
                   "element-wise operator: one row of _ROWS in src/webnn_bridge/ops/defs/unary.py)")
    return out


def _model() -> dict:
    """The IDL model of the sources as they are now (the committed model where pywebidl2 is missing)."""
    if importlib.util.find_spec("pywebidl2") is not None:
        from . import idl

        return idl.load_model()
    from webnn_bridge.idl import idl_model

    return idl_model()


def problems() -> list[str]:
    """Everything missing, as messages naming the step; [] when codegen may run."""
    from webnn_bridge.ops.registry import load_all

    from .. import sweep_cases

    model = _model()
    registry = set(load_all())
    out = idl_problems(model, registry)
    if out:
        return out  # the sweep's default cases read the IDL: fix it first
    operations = model["interfaces"]["MLGraphBuilder"]["operations"]
    missing = sweep_cases.missing_cases(operations)
    if missing:
        out.append(f"{STEP_SWEEP}: " + sweep_cases.missing_message(missing))
    if sweep_cases.unknown_cases():
        out.append(f"{STEP_SWEEP}: CASES entries in src/webnn_bridge/devtools/sweep_cases.py for unknown operators "
                   f"{sweep_cases.unknown_cases()}")
    return out
