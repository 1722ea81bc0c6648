"""benchmarks/bench_apps.py's pure logic: no browsers, no network, no model files."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from benchmarks import bench_apps as ba


def _tiny(dims):
    """x [dims...] + a constant -> y, with the given (maybe free) input dimensions."""
    w = numpy_helper.from_array(np.arange(4, dtype=np.float32), "w")
    graph = helper.make_graph([helper.make_node("Add", ["x", "w"], ["y"])], "tiny",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, dims)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, dims)], [w])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


def test_static_dims_fixes_free_dimensions_and_keeps_weights():
    model = _tiny(["batch", 4])
    model.graph.input[0].type.tensor_type.shape.dim[0].Clear()  # unset, as well as symbolic below
    model2 = _tiny(["batch", 4])
    model2.graph.input[0].type.tensor_type.shape.dim[0].dim_value = -1  # PaddleOCR's exports say -1
    for m in (model, model2, _tiny(["batch", 4])):
        out = ba.static_dims(m, {"x": [3, 4]})
        dims = out.graph.input[0].type.tensor_type.shape.dim
        assert [(d.dim_value, d.dim_param) for d in dims] == [(3, ""), (4, "")]
        assert out.graph.initializer[0] == m.graph.initializer[0]
        assert list(out.graph.node) == list(m.graph.node)
        onnx.checker.check_model(out)
    assert model.graph.input[0].type.tensor_type.shape.dim[1].dim_value == 4  # the original is untouched


def test_static_dims_rejects_conflicts():
    with pytest.raises(ValueError, match="static dimension 4"):
        ba.static_dims(_tiny(["n", 4]), {"x": [1, 5]})
    with pytest.raises(ValueError, match="rank"):
        ba.static_dims(_tiny(["n", 4]), {"x": [1, 4, 1]})
    with pytest.raises(ValueError, match="no dimensions"):
        ba.static_dims(_tiny(["n", 4]), {})


@pytest.mark.parametrize("app", ba.MODELS, ids=lambda a: a.short)
def test_feeds_have_the_declared_shapes_and_types(app):
    feeds = ba.feeds_for(app)
    assert set(feeds) == set(app.inputs)
    for name, (dtype, shape) in app.inputs.items():
        assert feeds[name].dtype == np.dtype(dtype) and list(feeds[name].shape) == shape
        assert np.all(np.isfinite(feeds[name]))
    again = ba.feeds_for(app)
    assert all(np.array_equal(feeds[k], again[k]) for k in feeds)  # deterministic


def test_magika_bytes_pads_like_magika():
    x = ba.magika_bytes(b"abc", beg=8, end=8)
    assert x.dtype == np.int32 and x.shape == (1, 16)
    assert x[0, :8].tolist() == [97, 98, 99] + [256] * 5
    assert x[0, 8:].tolist() == [256] * 5 + [97, 98, 99]
    feed = ba.feeds_for(ba.BY_NAME["magika"])["bytes"]
    assert feed.min() >= 0 and feed.max() <= 256


def test_text_image_has_text():
    img = ba.text_image(48, 320, 4)
    assert img.shape == (48, 320) and 0 <= img.min() and img.max() <= 255
    assert 0.05 < (img < 128).mean() < 0.5


def test_outputs_are_printed_after_every_models_timed_runs(tmp_path):
    """A model's output (thousands of console lines for the OCR recogniser) is printed once every
    model has been timed: the browser and the benchmark's reader handle those lines for seconds,
    and a model timed meanwhile shared the cores with them (a classifier after the recogniser ran
    at 2.4x-3x its time alone)."""
    ba.write_page(tmp_path, ["det", "orient"], 10)
    page = (tmp_path / "apps.html").read_text()
    timed, printed, done = page.index("say(m, times)"), page.index("_out${k}"), page.index("say('done'")
    models_loop_end = page.index("await session.release()")
    assert timed < models_loop_end < printed < done


def test_parse_console_lines():
    values, errors = {}, {}
    keys = [ba.parse_line('[1:2:INFO:CONSOLE:3] "BENCH det 1.5,2,NaN", source: http://x/apps.html (3)\n', values, errors),
            ba.parse_line('[1:2:INFO:CONSOLE(3)] "BENCH_ERR rec Error: op "Foo" | at x", source: http://x (3)\n', values, errors),
            ba.parse_line("unrelated line\n", values, errors)]
    assert keys == ["det", None, None]
    assert values["det"][:2] == [1.5, 2.0] and np.isnan(values["det"][2])
    assert errors == {"rec": 'Error: op "Foo" | at x'}


def test_page_results_checks_outputs():
    ref = np.arange(3000, dtype=np.float32)
    values = {"m": [2.0, 1.0, 3.0], "m_load": [50.0], "m_calls": [2, 2, 2, 3, 1], "m_outn": [3000],
              "m_out0": list(ref[:2048]), "m_out1": list(ref[2048:] + 0.5)}
    r = ba.page_results(values, {}, ["m", "gone"], {"m": ref, "gone": ref}, {"m": {"partitions": 2, "lines": []}})
    assert r["m"]["ms"] == 2.0 and r["m"]["reads"] == 3 and r["m"]["graphs"] == 2 and r["m"]["partitions"] == 2
    assert r["m"]["max_err"] == 0.5 and r["m"]["error"] is None
    assert ba.wrong(r["m"], ref, 1e-3) is False  # 0.5 <= 1e-3 * 2999
    assert ba.wrong(r["m"], ref, 1e-4) is True
    assert r["gone"]["error"] == "no results"


def _round(phase, ours, native, inproc=1.0):
    return {"phase": phase, "in-process": {"a": inproc, "b": inproc},
            "ours": {"a": {"ms": ours, "graphs": 1, "builds": 1, "dispatches": 1, "reads": 2, "writes": 2, "in_page": 1},
                     "b": {"error": "boom"}},
            "native": {"a": {"ms": native, "graphs": 1, "builds": 1, "dispatches": 1, "reads": 1, "writes": 2},
                       "b": {"ms": 5.0}}}


def test_summary_ratios_and_targets():
    rounds = [_round("quiet", 2.0, 4.0), _round("quiet", 3.0, 2.0), _round("quiet", 4.0, 5.0),
              _round("busy", 6.0, 4.0), _round("busy", 3.0, 3.0), _round("busy", 4.5, 3.0)]
    s = ba.summarize(rounds, ["a", "b"])
    a = s["a"]
    assert a["ours"] == 3.0 and a["native"] == 4.0 and a["in-process"] == 1.0
    assert a["ratios"] == [0.5, 1.5, 0.8] and a["ours/native"] == 0.8  # the median of each round's ratio
    assert a["ours busy"] == 4.5 and a["ours/native busy"] == 1.5
    assert a["busy/quiet"] == 1.5  # ratio of the medians
    assert a["ours calls"]["reads"] == 2 and a["native calls"]["reads"] == 1
    b = s["b"]
    assert b["ours"] is None and b["native"] == 5.0 and b["ours/native"] is None and b["busy/quiet"] is None
    counts = ba.target_counts(s)
    assert counts == {"quiet_met": 1, "quiet_of": 1, "busy_met": 1, "busy_of": 1}
    text = ba.table(s)
    assert "| a | 1 | 1 of 1 | 1 | 2/1 | 2 | 1.00 | 3.00 | 4.00 | 0.80x | 1.50x | 1.50x |" in text
    assert "| b | - | - of - | - | - | - | 1.00 | - | 5.00 | - | - | - |" in text
    assert "host-only" not in text  # no --host-only target: no columns for it
    assert ba.targets_line(counts).endswith("1 of 1 models")
    s2 = ba.summarize([_round("quiet", 5.0, 4.0)], ["a"])
    assert ba.target_counts(s2) == {"quiet_met": 0, "quiet_of": 1, "busy_met": 0, "busy_of": 0}
    # --host-only: every graph on the host, a target of its own in the same rounds
    with_host = [{**r, "host": {"a": {"ms": 2 * r["ours"]["a"]["ms"]}, "b": {"error": "boom"}}} for r in rounds]
    s3 = ba.summarize(with_host, ["a", "b"])
    assert s3["a"]["host"] == 6.0 and s3["a"]["host/native"] == 1.6 and s3["a"]["host busy/quiet"] == 1.5
    assert ba.target_counts(s3, "host") == {"quiet_met": 0, "quiet_of": 1, "busy_met": 1, "busy_of": 1}
    assert "| 6.00 | 1.60x | 3.00x | 1.50x |" in ba.table(s3) and "host-only ms" in ba.table(s3)


def test_startup_rows_take_quiet_rounds_and_per_round_ratios():
    def rnd(phase, ours, native, host=None):
        r = {"phase": phase, "ours": {"a": {"ms": 1.0, "load_ms": ours[0], "first_ms": ours[1], "settled_ms": ours[2]}},
             "native": {"a": {"ms": 1.0, "load_ms": native[0], "first_ms": native[1]}}}
        if host:
            r["host"] = {"a": {"ms": 1.0, "load_ms": host[0], "first_ms": host[1], "settled_ms": host[1]}}
        return r

    rounds = [rnd("quiet", (100, 300, 400), (50, 100)), rnd("quiet", (90, 200, 350), (60, 200)),
              rnd("quiet", (120, 260, 380), (40, 130)), rnd("busy", (999, 999, 999), (1, 1))]
    st = ba.startup(rounds, ["a"])["a"]
    assert st["ours load_ms"] == 100 and st["native load_ms"] == 50 and st["ours settled_ms"] == 380
    assert st["ours/native load_ms"] == 2.0  # per round: 2.0, 1.5, 3.0
    assert st["ours/native first_ms"] == 2.0  # per round: 3.0, 1.0, 2.0
    assert st["host/native load_ms"] is None
    text = ba.startup_table(ba.startup(rounds, ["a"]))
    assert "| a | 100 | 50 | 2.00x | 260 | 130 | 2.00x | 380 |" in text and "host-only" not in text
    with_host = [rnd("quiet", (100, 300, 400), (50, 100), host=(75, 150))]
    text = ba.startup_table(ba.startup(with_host, ["a"]))
    assert "| a | 100 | 50 | 2.00x | 1.50x | 300 | 100 | 3.00x | 1.50x | 400 |" in text


def test_trimmed_mean_averages_timer_steps_and_drops_stalls():
    # performance.now() in 0.1 ms steps: 0.3 ms runs read as 0.2 or 0.3 or 0.4; a stall reads 9
    times = [0.2] * 30 + [0.3] * 40 + [0.4] * 28 + [9.0, 9.0]
    assert ba.trimmed_mean(times) == pytest.approx(0.2975, abs=0.01)
    assert ba.trimmed_mean([1.0]) == 1.0


def test_record_traces_three_ways_then_measures_and_tunes(tmp_path, monkeypatch):
    """--record DIR: ours under the given rules, with no page runtime, with the FLOPs bound lifted
    (the rules merged, the other bounds kept); then `policy measure` and `policy tune` on the three."""
    import argparse
    import subprocess

    from webnn_bridge.policy.engine import load_rules

    runs, cmds = [], []
    monkeypatch.setattr(ba, "page_runtime", lambda: tmp_path)
    monkeypatch.setattr(ba, "run_target", lambda target, app, native, shorts, t, rules=None, trace=None:
                        runs.append((target, rules, trace)) or ({}, {}, {}))
    monkeypatch.setattr(subprocess, "run", lambda cmd, **kw: cmds.append(cmd) or subprocess.CompletedProcess(cmd, 0, "", ""))
    user = tmp_path / "mine.toml"
    user.write_text('[page]\nmax_io_bytes = 1024\n\n[backends]\ncpu = ["openvino"]\n')
    out = tmp_path / "rec"
    ba.record(argparse.Namespace(record=out, rules=user), tmp_path, None, ["silero"], 10.0)
    assert [(t, r.name if r else None, p.name) for t, r, p in runs] == [
        ("ours", "mine.toml", "current.jsonl"), ("host", "mine.toml", "host-only.jsonl"),
        ("ours", "page-unbounded.toml", "page-unbounded.jsonl")]
    lifted = load_rules(out / "page-unbounded.toml")
    assert lifted["page"]["max_flops"] == 1e18 and lifted["page"]["max_io_bytes"] == 1024
    assert lifted["backends"]["cpu"] == ["openvino"]
    traces = [str(out / f"{n}.jsonl") for n in ("current", "host-only", "page-unbounded")]
    assert [c[4:] for c in cmds] == [
        ["measure", *traces, "--out", str(out / "matrix.json"), "--threads", "1,2"],
        ["tune", *traces, "--matrix", str(out / "matrix.json"), "--out", str(out / "tuned.toml"),
         "--report", str(out / "report"), "--rules", str(user)]]
