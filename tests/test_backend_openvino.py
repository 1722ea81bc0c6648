"""OpenVINO backend: its committed capability table is what OpenVINO's CPU plugin really runs.

Every case of the capability sweep (tests/test_capability_sweep.py: each op x each data type the
ONNX Runtime context reports, plus the secondary operands and the large 64-bit integer checks) is
built once, run on the numpy reference and on OpenVINO, and compared. A case the table claims
must pass; and the table rebuilt from the measured outcomes must equal the committed one, so a
new OpenVINO version that gains or loses a case is noticed. Regenerate with
``python -m tests.test_backend_openvino --write``.
"""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest

pytest.importorskip("openvino", reason="OpenVINO is not installed (pip install webnn-bridge[openvino])")

from tests import test_capability_sweep as sweep  # noqa: E402
from webnn_bridge.backends.openvino import CAPS_TABLE, OpenVinoBackend, OpenVinoCompiled, caps_table  # noqa: E402
from webnn_bridge.bridge.api import ML, MLGraphBuilder  # noqa: E402

DEVICES = [d for d in OpenVinoBackend.probe() if d.providers == ("CPU",)]
pytestmark = pytest.mark.skipif(not DEVICES, reason="OpenVINO reports no CPU device")
OV_CPU = DEVICES[0] if DEVICES else None

_OUTCOMES: dict[tuple, str | None] = {}


def _build(op, dt, kw):
    sweep._seed(op, dt, *sorted(kw.items()))
    b = MLGraphBuilder(sweep.REF)
    outs, ins = sweep.TABLE[op](b, dt, **kw)
    outs = outs if isinstance(outs, list) else [outs]
    return b.build({f"o{i}": o for i, o in enumerate(outs)}), ins, len(outs)


def _build_large(op, dt, kw):
    i64, u64, build = sweep.LARGE64[op]
    data = i64 if dt == "int64" or u64 is None else u64
    b = MLGraphBuilder(sweep.REF)
    out, ins = sweep._big(b, dt, data, build)
    return b.build({"o0": out}), ins, 1


# 64-bit integers wider than 32 bits, moved through a reshape: a plugin that computes 64-bit
# integers in 32 bits loses them (OpenVINO's CPU plugin does), so the type is not claimed for any
# operand carrying values. Index operands (gather indices, argMin/argMax outputs) stay claimed:
# their values are bounded by tensor dimensions, which the sweep covers.
WIDE = {"int64": [2**53 + 1, -(2**40) - 3], "uint64": [2**63 + 1, 2**40 + 3]}
INDEX_OPERANDS = {"indices", "output"}  # the secondary operands that carry indices (cast's output excepted)


def _build_wide(op, dt, kw):
    b = MLGraphBuilder(sweep.REF)
    ins = {}
    return b.build({"o0": b.reshape(sweep.inp(b, ins, "x", np.array(WIDE[dt], dt)), [2, 1])}), ins, 1


def wide_ok(dt: str) -> bool:
    return dt not in WIDE or outcome("reshape", dt, wide=True) is None


def outcome(op: str, dt: str, kw: dict | None = None, large: bool = False, wide: bool = False) -> str | None:
    """None when OpenVINO CPU agrees with the reference on this case, else why not."""
    kw = dict(kw or {})
    key = (op, dt, tuple(sorted(kw.items())), large, wide)
    if key not in _OUTCOMES:
        graph, ins, n = (_build_wide if wide else _build_large if large else _build)(op, dt, kw)
        try:
            ref = sweep.REF.compute(graph, ins)
            try:
                compiled = OpenVinoBackend.instance().compile(graph.ir, OV_CPU)
                got = compiled.run(ins)
                compiled.close()
                sweep._compare_outputs(op, dt, [ref[f"o{i}"] for i in range(n)], [got[f"o{i}"] for i in range(n)])
                _OUTCOMES[key] = None
            except Exception as e:
                _OUTCOMES[key] = f"{type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}"
        finally:
            graph.destroy()
    return _OUTCOMES[key]


def measure() -> dict:
    """The capability table measured on this machine's OpenVINO CPU plugin."""
    ops: dict[str, dict[str, list[str]]] = {}
    large = {(op, dt) for be, op, dt in sweep.LARGE64_CASES if be == "onnxruntime"}
    for op, dt in sweep.ORT_MAIN_CASES:
        if not wide_ok(dt):
            continue
        if outcome(op, dt) is None and ((op, dt) not in large or outcome(op, dt, large=True) is None):
            ops.setdefault(op, {}).setdefault(sweep.main_operand(op), []).append(dt)
    for op, (operand, kw) in sorted(sweep.SECONDARY.items()):
        mains = ops.get(op, {}).get(sweep.main_operand(op), [])
        cases = [c for c in sweep.ORT_SECONDARY_CASES if c[0] == op and c[1] in mains]
        good = [t for t in sweep.allowed(op, operand)
                if (wide_ok(t) or (operand in INDEX_OPERANDS and op != "cast"))
                and all(outcome(op, m, {kw: t}) is None for _, m, _, t2 in cases if t2 == t)
                and any(t2 == t for *_, t2 in cases)]
        if good:
            ops[op][operand] = good
        else:
            ops.pop(op, None)
    import openvino

    return {
        "_generated": "python -m tests.test_backend_openvino --write (measured, do not edit)",
        "openvino": openvino.__version__.split("-")[0],
        "device": "CPU",
        "ops": dict(sorted(ops.items())),
    }


def claimed(op: str, operand: str, dt: str) -> bool:
    return dt in caps_table()["ops"].get(op, {}).get(operand, [])


CLAIMED_MAIN = [(op, dt) for op, dt in sweep.ORT_MAIN_CASES if claimed(op, sweep.main_operand(op), dt)]
CLAIMED_SECONDARY = [
    (op, dt, kw, t) for op, dt, kw, t in sweep.ORT_SECONDARY_CASES
    if claimed(op, sweep.main_operand(op), dt) and claimed(op, sweep.SECONDARY[op][0], t)
]


@pytest.mark.parametrize(("op", "dt"), CLAIMED_MAIN, ids=[f"{op}-{dt}" for op, dt in CLAIMED_MAIN])
def test_claimed_main_types_run(op, dt):
    assert outcome(op, dt) is None


@pytest.mark.parametrize(("op", "dt", "kw", "t"), CLAIMED_SECONDARY,
                         ids=[f"{op}-{dt}-{kw}={t}" for op, dt, kw, t in CLAIMED_SECONDARY])
def test_claimed_secondary_types_run(op, dt, kw, t):
    assert outcome(op, dt, {kw: t}) is None


def test_committed_table_is_what_openvino_runs():
    measured = measure()
    committed = caps_table()
    diff = {op: (committed["ops"].get(op), measured["ops"].get(op))
            for op in sorted(set(committed["ops"]) | set(measured["ops"]))
            if committed["ops"].get(op) != measured["ops"].get(op)}
    assert not diff, f"regenerate {CAPS_TABLE.name} (committed, measured): {diff}"


def test_context_runs_on_openvino_and_matches_reference():
    ml = ML([OV_CPU])
    ctx = ml.createContext()
    assert ctx.exec_device.backend == "openvino" and not ml.simulated
    limits = ctx.opSupportLimits()
    assert "float32" in limits["conv2d"]["input"]["dataTypes"]
    x = np.random.default_rng(1).standard_normal((1, 2, 5, 5)).astype(np.float32)
    w = np.random.default_rng(2).standard_normal((3, 2, 3, 3)).astype(np.float32)

    def build(c):
        b = MLGraphBuilder(c)
        xi = b.input("x", {"dataType": "float32", "shape": [1, 2, 5, 5]})
        wc = b.constant({"dataType": "float32", "shape": [3, 2, 3, 3]}, w)
        return b.build({"y": b.softmax(b.reshape(b.relu(b.conv2d(xi, wc)), [3, 9]), 1)})

    g = build(ctx)
    assert isinstance(g.compiled, OpenVinoCompiled)
    got = ctx.compute(g, {"x": x})["y"]
    ref = sweep.REF.compute(build(sweep.REF), {"x": x})["y"]
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-6)


def test_unmeasured_devices_claim_less():
    from webnn_bridge.backends.base import Device

    gpu = Device(id="openvino:GPU", kind="gpu", backend="openvino", providers=("GPU",))
    caps = OpenVinoBackend.instance().capabilities(gpu)
    cpu = OpenVinoBackend.instance().capabilities(OV_CPU)
    assert set(caps.ops) <= set(cpu.ops)
    assert caps.ops["add"]["a"].types == ("float32", "float16")


if __name__ == "__main__":
    if "--write" not in sys.argv:
        sys.exit("usage: python -m tests.test_backend_openvino --write")
    CAPS_TABLE.write_text(json.dumps(measure(), indent=1) + "\n")
    print(f"wrote {CAPS_TABLE}: {len(caps_table.__wrapped__()['ops'])} ops")
