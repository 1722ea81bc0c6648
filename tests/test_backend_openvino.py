"""OpenVINO backend: its committed capability table is what OpenVINO's CPU plugin really runs.

Every case of the capability sweep (tests/test_capability_sweep.py: each op x each data type the
ONNX Runtime context reports, plus the secondary operands and the large 64-bit integer checks) is
built once, run on the numpy reference and on OpenVINO, and compared. A case the table claims
must pass; and the table rebuilt from the measured outcomes must equal the committed one, so a
new OpenVINO version that gains or loses a case is noticed. The measuring code is the table's
generator (devtools/codegen/backend_tables.py); regenerate with ``webnn-bridge codegen``.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("openvino", reason="OpenVINO is not installed (pip install webnn-bridge[openvino])")

from tests import test_capability_sweep as sweep  # noqa: E402
from webnn_bridge.backends.openvino import CAPS_TABLE, OpenVinoBackend, OpenVinoCompiled, caps_table  # noqa: E402
from webnn_bridge.bridge.api import ML, MLGraphBuilder  # noqa: E402
from webnn_bridge.devtools.codegen.backend_tables import measure_openvino_caps, openvino_cpu, outcome  # noqa: E402

OV_CPU = openvino_cpu()
pytestmark = pytest.mark.skipif(OV_CPU is None, reason="OpenVINO reports no CPU device")

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
    measured = measure_openvino_caps()
    committed = caps_table()
    diff = {op: (committed["ops"].get(op), measured["ops"].get(op))
            for op in sorted(set(committed["ops"]) | set(measured["ops"]))
            if committed["ops"].get(op) != measured["ops"].get(op)}
    assert not diff, f"{CAPS_TABLE.name} is stale, run `webnn-bridge codegen` (committed, measured): {diff}"


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

