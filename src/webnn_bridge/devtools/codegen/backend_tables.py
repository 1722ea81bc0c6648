"""Generators of the backends' committed tables, both computed from the capability sweep's cases
(devtools/sweep_cases.py, which tests/test_capability_sweep.py runs: each op x each data type the ONNX
Runtime context reports, plus the secondary operands and the large 64-bit integer checks):

- backends/onnx_op_types.json: the ONNX operator types each WebNN op's lowering emits (TensorRT
  claims an op only when its ONNX parser supports every one of them). Needs only ONNX Runtime.
- backends/openvino_caps.json: what OpenVINO's CPU plugin really runs. Every case is built once, run
  on the numpy reference and on OpenVINO, and compared; the table lists the cases that agree.
  Needs OpenVINO (`webnn-bridge codegen` skips it, with that reason, where it is missing).

tests/test_backend_tensorrt.py and tests/test_backend_openvino.py compare these with the committed
files, and the OpenVINO test runs every claimed case through ``outcome`` below.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from types import ModuleType

import numpy as np

from .header import HEADER_LINE, MARKER


def _generated(what: str) -> str:
    return f"{MARKER}. {what}. {HEADER_LINE}"


@functools.cache
def sweep() -> ModuleType:
    """The capability sweep (devtools/sweep_run.py, over devtools/sweep_cases.py), imported on first use:
    it makes contexts, and its case lists come from the IDL model an earlier generator wrote."""
    from .. import sweep_run

    return sweep_run


def _dump(table: dict) -> str:
    return json.dumps(table, indent=1) + "\n"


# --------------------------------------------------------------------------- TensorRT: ONNX operator types


def measure_lowered_op_types() -> dict:
    """The ONNX operator types each WebNN op's lowering emits, over every capability-sweep case."""
    from webnn_bridge.backends.onnx_lowering import lower_graph
    from webnn_bridge.backends.onnxruntime import supported_ir_version
    from webnn_bridge.backends.tensorrt import onnx_op_types
    from webnn_bridge.bridge.api import MLGraphBuilder

    sw = sweep()
    ops: dict[str, set[str]] = {}
    for op, dt in sw.ORT_MAIN_CASES:
        b = MLGraphBuilder(sw.REF)
        outs, _ = sw.TABLE[op](b, dt)
        outs = outs if isinstance(outs, list) else [outs]
        graph = b.build({f"o{i}": o for i, o in enumerate(outs)})
        ops.setdefault(op, set()).update(onnx_op_types(lower_graph(graph.ir, supported_ir_version())[0]))
        graph.destroy()
    return {"_generated": _generated("The ONNX operators each op's lowering emits"),
            "ops": {op: sorted(t) for op, t in sorted(ops.items())}}


def onnx_op_types_outputs() -> dict[Path, str]:
    from webnn_bridge.backends.tensorrt import ONNX_OPS_TABLE

    return {ONNX_OPS_TABLE: _dump(measure_lowered_op_types())}


# --------------------------------------------------------------------------- OpenVINO: measured capabilities

_OUTCOMES: dict[tuple, str | None] = {}

# 64-bit integers wider than 32 bits, moved through a reshape: a plugin that computes 64-bit
# integers in 32 bits loses them (OpenVINO's CPU plugin does), so the type is not claimed for any
# operand carrying values. Index operands (gather indices, argMin/argMax outputs) stay claimed:
# their values are bounded by tensor dimensions, which the sweep covers.
WIDE = {"int64": [2**53 + 1, -(2**40) - 3], "uint64": [2**63 + 1, 2**40 + 3]}
INDEX_OPERANDS = {"indices", "output"}  # the secondary operands that carry indices (cast's output excepted)


@functools.cache
def openvino_cpu():
    """OpenVINO's CPU device, or None (OpenVINO missing or reporting no CPU)."""
    from webnn_bridge.backends.openvino import OpenVinoBackend

    devices = [d for d in OpenVinoBackend.probe() if d.providers == ("CPU",)]
    return devices[0] if devices else None


def _build(op, dt, kw):
    sw = sweep()
    from webnn_bridge.bridge.api import MLGraphBuilder

    sw._seed(op, dt, *sorted(kw.items()))
    b = MLGraphBuilder(sw.REF)
    outs, ins = sw.TABLE[op](b, dt, **kw)
    outs = outs if isinstance(outs, list) else [outs]
    return b.build({f"o{i}": o for i, o in enumerate(outs)}), ins, len(outs)


def _build_large(op, dt, kw):
    sw = sweep()
    from webnn_bridge.bridge.api import MLGraphBuilder

    data, build = sw.large_case(op, dt)
    b = MLGraphBuilder(sw.REF)
    out, ins = sw._big(b, dt, data, build)
    return b.build({"o0": out}), ins, 1


def _build_wide(op, dt, kw):
    sw = sweep()
    from webnn_bridge.bridge.api import MLGraphBuilder

    b = MLGraphBuilder(sw.REF)
    ins = {}
    return b.build({"o0": b.reshape(sw.inp(b, ins, "x", np.array(WIDE[dt], dt)), [2, 1])}), ins, 1


def wide_ok(dt: str) -> bool:
    return dt not in WIDE or outcome("reshape", dt, wide=True) is None


def outcome(op: str, dt: str, kw: dict | None = None, large: bool = False, wide: bool = False,
            raw: bool = False) -> str | None:
    """None when OpenVINO CPU agrees with the reference on this case, else why not. ``raw``: the
    graph as one OpenVINO model, without the backend's splits (what the table measures)."""
    from webnn_bridge.backends.openvino import OpenVinoBackend, OpenVinoCompiled

    sw = sweep()
    kw = dict(kw or {})
    key = (op, dt, tuple(sorted(kw.items())), large, wide, raw)
    if key not in _OUTCOMES:
        graph, ins, n = (_build_wide if wide else _build_large if large else _build)(op, dt, kw)
        try:
            ref = sw.REF.compute(graph, ins)
            try:
                if raw:
                    compiled = OpenVinoCompiled(graph.ir, "CPU")
                else:
                    compiled = OpenVinoBackend.instance().compile(graph.ir, openvino_cpu())
                got = compiled.run(ins)
                compiled.close()
                sw._compare_outputs(op, dt, [ref[f"o{i}"] for i in range(n)], [got[f"o{i}"] for i in range(n)])
                _OUTCOMES[key] = None
            except Exception as e:
                _OUTCOMES[key] = f"{type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}"
        finally:
            graph.destroy()
    return _OUTCOMES[key]


def measure_openvino_caps() -> dict:
    """The capability table measured on this machine's OpenVINO CPU plugin."""
    import openvino

    if openvino_cpu() is None:
        raise RuntimeError("OpenVINO reports no CPU device: src/webnn_bridge/backends/openvino_caps.json cannot be measured")
    sw = sweep()
    ops: dict[str, dict[str, list[str]]] = {}
    large = {(op, dt) for be, op, dt in sw.LARGE64_CASES if be == "onnxruntime"}
    for op, dt in sw.ORT_MAIN_CASES:
        if not wide_ok(dt):
            continue
        if outcome(op, dt) is None and ((op, dt) not in large or outcome(op, dt, large=True) is None):
            ops.setdefault(op, {}).setdefault(sw.main_operand(op), []).append(dt)
    for op, (operand, kw) in sorted(sw.SECONDARY.items()):
        mains = ops.get(op, {}).get(sw.main_operand(op), [])
        cases = [c for c in sw.ORT_SECONDARY_CASES if c[0] == op and c[1] in mains]
        good = [t for t in sw.allowed(op, operand)
                if (wide_ok(t) or (operand in INDEX_OPERANDS and op != "cast"))
                and all(outcome(op, m, {kw: t}) is None for _, m, _, t2 in cases if t2 == t)
                and any(t2 == t for *_, t2 in cases)]
        if good:
            ops[op][operand] = good
        else:
            ops.pop(op, None)
    # 32-bit integers above 2^24 (the sweep's LARGE32): what the plugin computes in float32 is still
    # claimed, and the backend runs those nodes on ONNX Runtime (backends/openvino.py
    # float32_int_nodes); left out instead, an OpenVINO-only context would fall below the spec's
    # baseline (int32 div is required)
    float32_ints: dict[str, list[str]] = {}
    for op in sorted(sw.LARGE32):
        for dt in ("int32", "uint32"):
            if dt in ops.get(op, {}).get(sw.main_operand(op), []) and outcome(op, dt, large=True, raw=True):
                float32_ints.setdefault(op, []).append(dt)
    return {
        "_generated": _generated("Measured on OpenVINO's CPU plugin against the numpy reference"),
        "openvino": openvino.__version__.split("-")[0],
        "device": "CPU",
        "ops": dict(sorted(ops.items())),
        "float32_ints": float32_ints,
    }


def openvino_caps_outputs() -> dict[Path, str]:
    """The measured table. Its "openvino" field names the version the table was measured on: a newer
    OpenVINO that measures the same ops keeps the committed version (the file is not stale)."""
    from webnn_bridge.backends.openvino import CAPS_TABLE

    table = measure_openvino_caps()
    if CAPS_TABLE.exists():
        committed = json.loads(CAPS_TABLE.read_text())
        if (committed.get("ops"), committed.get("float32_ints")) == (table["ops"], table["float32_ints"]) \
                and "openvino" in committed:
            table["openvino"] = committed["openvino"]
    return {CAPS_TABLE: _dump(table)}
