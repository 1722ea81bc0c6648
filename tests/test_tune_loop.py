"""benchmarks/tune_loop.py (issue 36, the tuning loop where a GPU exists), without a GPU: its
report arithmetic on figures shaped like the H100 run's, its single-device rules, the wire
messages it builds, and the loop itself end to end on two CPU backends with small graphs."""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import tune_loop as tl  # noqa: E402

# the H100 figures (host p50, ms): ONNX Runtime CPU against torch:cuda:0
H100 = {"tiny": (0.23, 0.40), "mobilenet": (2.21, 1.03), "mlp": (2.29, 0.27)}
DISPATCHES = {"tiny": 20, "mobilenet": 5, "mlp": 20}


def _rounds(p50: float, rounds: int, n: int, seed: int, drift=None) -> list[list[float]]:
    """``rounds`` rounds of ``n`` latencies around ``p50`` (+-2%), each round scaled by ``drift``."""
    rng = np.random.default_rng(seed)
    drift = drift or [1.0] * rounds
    return [list(p50 * d * (1 + 0.02 * rng.uniform(-1, 1, n))) for d in drift]


def _h100_samples(rounds: int = 4, drift=None):
    cpu = {w: _rounds(c, rounds, 15, i, drift) for i, (w, (c, _)) in enumerate(H100.items())}
    gpu = {w: _rounds(g, rounds, 15, 10 + i, drift) for i, (w, (_, g)) in enumerate(H100.items())}
    tuned = {w: _rounds(min(H100[w]), rounds, 15, 20 + i, drift) for i, w in enumerate(H100)}
    return {"tuned": tuned, "only cpu": cpu, "only gpu": gpu}


def test_report_on_h100_shaped_figures():
    samples = _h100_samples()
    predicted = {"tuned": {"tiny": 0.23, "mobilenet": 1.03, "mlp": 0.27},
                 "only cpu": {w: c for w, (c, _) in H100.items()},
                 "only gpu": {w: g * 1.1 for w, (_, g) in H100.items()}}  # GPU predicted 10% high
    rep = tl.report(samples, predicted, DISPATCHES)
    assert rep["workloads"] == list(DISPATCHES)
    tuned_total = 0.23 * 20 + 1.03 * 5 + 0.27 * 20
    gpu_total = 0.40 * 20 + 1.03 * 5 + 0.27 * 20
    cpu_total = 0.23 * 20 + 2.21 * 5 + 2.29 * 20
    for k, total in (("tuned", tuned_total), ("only gpu", gpu_total), ("only cpu", cpu_total)):
        assert rep["rules"][k]["total_ms"] == pytest.approx(total, rel=0.02)
        assert len(rep["rules"][k]["per_round_ms"]) == 4
    for w in DISPATCHES:
        assert rep["rules"]["tuned"]["workloads"][w]["error"] == pytest.approx(0, abs=0.03)
        assert rep["rules"]["only gpu"]["workloads"][w]["error"] == pytest.approx(0.1, abs=0.03)
    assert rep["rules"]["only gpu"]["error"] == pytest.approx(0.1, abs=0.03)
    gpu = rep["versus"]["only gpu"]
    assert gpu["ratio"] == pytest.approx(tuned_total / gpu_total, rel=0.03)  # about 0.82x: the softmax on the CPU
    assert gpu["ci95"][0] <= gpu["ratio"] <= gpu["ci95"][1] < 1
    assert gpu["paired"]["n"] == 4 and gpu["paired"]["hi"] < 1 and gpu["paired"]["faster"] == 4
    assert rep["versus"]["only cpu"]["ratio"] == pytest.approx(tuned_total / cpu_total, rel=0.03)
    text = tl.format_report(rep)
    assert "tuned / only gpu: 0.8" in text and "paired over 4 rounds" in text
    assert "best single device: only gpu" in text


def test_paired_ratio_cancels_the_machines_drift():
    """Rounds 2.5x apart (the machine's drift): the pooled interval is wide, the paired one is not."""
    drift = [1.0, 2.5, 1.0, 2.5, 1.2]
    rep = tl.report(_h100_samples(5, drift), {}, DISPATCHES)
    gpu = rep["versus"]["only gpu"]
    assert gpu["paired"]["hi"] < 1 and gpu["paired"]["ratio"] == pytest.approx(gpu["ratio"], rel=0.1)
    assert gpu["paired"]["hi"] - gpu["paired"]["lo"] < gpu["ci95"][1] - gpu["ci95"][0]
    assert rep["rules"]["tuned"]["predicted_ms"] is None and rep["rules"]["tuned"]["error"] is None


def test_under_three_rounds_there_is_no_paired_ratio():
    rep = tl.report(_h100_samples(2), {}, DISPATCHES)
    assert all(v["paired"] is None for v in rep["versus"].values())
    assert "needs 3 rounds" in tl.format_report(rep)


def test_a_workload_missing_from_a_rule_set_is_left_out_of_every_total():
    samples = _h100_samples(3)
    del samples["only cpu"]["mlp"]
    rep = tl.report(samples, {}, DISPATCHES)
    assert rep["workloads"] == ["tiny", "mobilenet"]
    assert rep["rules"]["tuned"]["total_ms"] == pytest.approx(0.23 * 20 + 1.03 * 5, rel=0.02)


def test_a_dispatch_falls_in_its_own_round():
    rounds = [(100.0, 110.0), (110.3, 120.0)]
    assert tl.round_of(100.0, rounds) == 0 and tl.round_of(110.0005, rounds) == 0
    assert tl.round_of(110.3, rounds) == 1 and tl.round_of(110.5, rounds) == 1  # not the earlier round's
    assert tl.round_of(99.0, rounds) is None and tl.round_of(110.2, rounds) is None and tl.round_of(121, rounds) is None


class _Dev:
    def __init__(self, id, kind, backend):
        self.id, self.kind, self.backend, self.name = id, kind, backend, id


def test_single_device_rules_put_the_device_first_for_every_graph(tmp_path):
    from webnn_bridge.policy.engine import load_rules

    gpu, cpu = _Dev("torch:cuda:0", "gpu", "torch"), _Dev("onnxruntime:CPUExecutionProvider", "cpu", "onnxruntime")
    for d in (gpu, cpu):
        p = tmp_path / f"{d.kind}.toml"
        p.write_text(tl.single_rules(d, [gpu, cpu]))
        rules = load_rules(p)  # valid, as a host would load it
        route = rules["routes"][0]
        assert route["kinds"] == [d.kind] and route["backends"][0] == d.backend and "when" not in route
        assert rules["backends"][d.kind][0] == d.backend
    ov = _Dev("openvino:CPU", "cpu", "openvino")
    assert '["openvino", "onnxruntime"]' in tl.single_rules(ov, [cpu, ov])


def test_choose_devices():
    gpu, cpu, ov = (_Dev("torch:cuda:0", "gpu", "torch"), _Dev("onnxruntime:CPUExecutionProvider", "cpu", "onnxruntime"),
                    _Dev("openvino:CPU", "cpu", "openvino"))
    assert tl.choose_devices([cpu, ov, gpu]) == [gpu, cpu]
    assert tl.choose_devices([cpu, ov]) == [cpu, ov]
    ort_cuda = _Dev("onnxruntime:CUDAExecutionProvider", "gpu", "onnxruntime")
    assert tl.choose_devices([ort_cuda, cpu, gpu]) == [gpu, cpu]  # PyTorch's GPU, as the H100 run had
    assert tl.choose_devices([cpu, ov, gpu], ["openvino:CPU"]) == [ov]
    with pytest.raises(ValueError, match="unknown device"):
        tl.choose_devices([cpu], ["nope"])
    with pytest.raises(ValueError, match="needs two devices"):
        tl.choose_devices([cpu])


def test_wire_builder_sends_what_the_builder_got():
    """The recorded build message, replayed by the host's session code path (an in-process host),
    computes what the same graph computes in-process."""
    from webnn_bridge.bridge.api import ML, MLGraphBuilder
    from webnn_bridge.policy.inventory import REFERENCE_CPU
    from webnn_bridge.workbench.trace import graph_label

    g = tl.small_graph(tl.WireBuilder())
    assert g.label == "small_out[8 ops]" and g.inputs == {"x": [1, 3, 64, 64]} and g.outputs == {"small_out": [1, 10]}
    assert [n["op"] for n in g.msg["nodes"]] == ["conv2d", "relu", "maxPool2d", "conv2d", "relu", "averagePool2d",
                                                 "reshape", "gemm"]
    assert all(c["part"] < len(g.parts) for c in g.msg["constants"])
    ir = tl.small_graph(MLGraphBuilder(ML([REFERENCE_CPU]).createContext({}))).ir
    assert graph_label(ir) == g.label
    m = tl.mlp_graph(tl.WireBuilder())
    assert m.label == "mlp_out[9 ops]"
    assert any(isinstance(a, dict) and "$operand" in a for n in m.msg["nodes"] for a in n["args"])


def test_wire_graph_runs_through_a_host():
    pytest.importorskip("websockets")
    from benchmarks.soak import HostProcess
    from webnn_bridge.bridge.api import ML, MLGraphBuilder
    from webnn_bridge.policy.inventory import REFERENCE_CPU

    host = HostProcess(root=ROOT, pythonpath=tl.package_path())
    try:
        page = tl.Page(host.url, {}, tl.tiny_graph(tl.WireBuilder()))
        try:
            assert len(page.run(3)) == 3
            (tid, x), = page.inputs.values()
            (oid, _), = page.outputs.values()
            _, body = page.call({"t": "readTensor", "tensor": oid})
            y = np.frombuffer(bytes(body), np.float32).reshape(64, 1000)
        finally:
            page.close()
    finally:
        host.stop()
    ctx = ML([REFERENCE_CPU]).createContext({})
    graph = tl.tiny_graph(MLGraphBuilder(ctx))
    ref = ctx.compute(graph, {"x": np.frombuffer(x, np.float32).reshape(64, 1000)})["tiny_out"]
    assert np.allclose(y, ref, atol=1e-5)


@pytest.mark.skipif(importlib.util.find_spec("openvino") is None or importlib.util.find_spec("websockets") is None,
                    reason="the dry run's two devices are ONNX Runtime's and OpenVINO's CPUs")
def test_the_loop_end_to_end_on_two_cpu_backends(tmp_path):
    """Record, measure, tune, re-run with two small graphs, one round: every step's output is there
    and every figure is finite (timings on a shared machine: no claim on which is faster)."""
    lines: list[str] = []
    rep = tl.run(graphs=["tiny", "small"], rounds=1, seconds=1.0, scale=0.25, out=tmp_path, reps=10,
                 log=lines.append)
    assert rep["devices"] == ["onnxruntime:CPUExecutionProvider", "openvino:CPU"]
    assert rep["workloads"] == ["tiny", "small"]
    assert set(rep["rules"]) == {"tuned", "only onnxruntime:CPUExecutionProvider", "only openvino:CPU"}
    for r in rep["rules"].values():
        assert math.isfinite(r["total_ms"]) and r["total_ms"] > 0
        for w in r["workloads"].values():
            assert w["predicted_ms"] is not None and math.isfinite(w["error"])
    assert set(rep["versus"]) == {"only onnxruntime:CPUExecutionProvider", "only openvino:CPU"}
    for f in ("matrix.json", "tuned.toml", "report/tune.md", "summary.json", "record/trace-current.jsonl",
              "rerun/trace-tuned.jsonl"):
        assert (tmp_path / f).is_file(), f
    text = "\n".join(lines)
    assert "policy tune chose:" in text and "prediction error: median" in text and "tuned" in text
