"""The differential oracle's program generator and comparator (src/webnn_bridge/devtools/oracle.py), without native
Chromium: synthetic outcomes for the comparator, and the in-process runner on both backends."""

from __future__ import annotations

import json
import random

import pytest

from webnn_bridge.devtools import oracle

try:
    from . import shared_data
except ImportError:  # tests/ is not a package: pytest puts this directory on sys.path
    import shared_data

SEEDS = oracle.load_seeds()


def _seeds() -> list:
    """The seeds, which come from the WPT-derived data: missing data fails, naming the path."""
    shared_data.require("wpt_conformance", glob="*.json")
    assert SEEDS, "the conformance data is there, yet the oracle found no seeds in it"
    return SEEDS


def test_seeds_come_from_the_conformance_data_and_stay_small():
    assert len({s["op"] for s in _seeds()}) > 40
    assert all(oracle.elements(s["graph"]) <= oracle.MAX_ELEMENTS for s in SEEDS)


def test_generation_is_deterministic_and_mixes_origins():
    a = oracle.generate(SEEDS, 200, seed=5)
    b = oracle.generate(SEEDS, 200, seed=5)
    assert json.dumps(a) == json.dumps(b)
    assert json.dumps(a) != json.dumps(oracle.generate(SEEDS, 200, seed=6))
    assert len(a) == 200
    origins = {p["origin"] for p in a}
    assert {"random", "dtype", "shape", "option"} <= origins
    assert _seeds() and "wpt" in origins
    assert all(oracle.elements(p["graph"]) <= oracle.MAX_ELEMENTS for p in a)


def test_mutations_change_what_they_say():
    seed = next(s for s in _seeds() if s["op"] == "add")
    rng = random.Random(1)
    p = oracle.mutate(seed, rng, "dtype")
    changed = [n for n, spec in p["graph"]["inputs"].items()
               if spec["descriptor"]["dataType"] != seed["graph"]["inputs"][n]["descriptor"]["dataType"]]
    assert len(changed) == 1 and changed[0] in p["id"]
    s = oracle.mutate(seed, rng, "scalar")
    assert any(spec["descriptor"]["shape"] == [] for spec in s["graph"]["inputs"].values())
    assert seed["graph"] != p["graph"]  # the seed itself is untouched (deep copies)


def test_random_programs_reference_only_their_inputs():
    rng = random.Random(2)
    ops = set()
    for _ in range(300):
        p = oracle.random_program(rng)
        if p is None:
            continue
        ops.add(p["op"])
        (call,) = p["graph"]["operators"]
        for arg in call["arguments"]:
            ((key, value),) = arg.items()
            names = value if isinstance(value, list) else [value]
            for v in names:
                if isinstance(v, str) and v.startswith("in") and v[2:].isdigit():
                    assert v in p["graph"]["inputs"]
    assert len(ops) > 60  # every operator signature can be drawn, not only those with conformance data


def _ok(data, data_type="float32", shape=None):
    return {"stage": "ok", "outputs": {"out": {"dataType": data_type, "shape": shape or [len(data)], "data": data}}}


def _err(stage, name):
    return {"stage": stage, "error": name, "message": "m"}


@pytest.mark.parametrize(
    ("native", "shim", "agree", "kind"),
    [
        (_err("call", "TypeError"), _err("call", "TypeError"), True, "same-error"),
        (_err("call", "TypeError"), _err("call", "DataError"), False, "other-error"),
        (_err("call", "TypeError"), _err("build", "TypeError"), False, "other-stage"),
        (_err("build", "TypeError"), _ok([1.0]), False, "error-vs-ok"),
        (_ok([1.0]), _err("compute", "OperationError"), False, "ok-vs-error"),
        (_ok([1.0, 2.0]), _ok([1.0, 2.0], shape=[1, 2]), False, "shape"),
        (_ok([1.0, 2.0]), _ok([1.0, 2.0], "float16"), False, "shape"),
        (_ok([1.0, "NaN", "Infinity"]), _ok([1.0000001, "NaN", "Infinity"]), True, "same-result"),
        (_ok([1.0, 2.0]), _ok([1.0, 2.001]), False, "values"),
        (_ok([1.0, "NaN"]), _ok([1.0, 0.0]), False, "values"),
        (_ok(["9007199254740993n"], "int64"), _ok(["9007199254740993n"], "int64"), True, "same-result"),
        (_ok(["9007199254740993n"], "int64"), _ok(["9007199254740992n"], "int64"), False, "values"),
        (_ok([3], "int32"), _ok([4], "int32"), False, "values"),
    ],
)
def test_compare(native, shim, agree, kind):
    v = oracle.compare(native, shim, "add")
    assert (v.agree, v.kind) == (agree, kind)


def test_native_capability_gaps_are_not_disagreements():
    program = {"op": "abs", "graph": {"inputs": {"x": {"descriptor": {"dataType": "int8", "shape": [2]}}},
                                      "operators": [{"name": "abs", "arguments": [{"input": "x"}], "outputs": "y"}]}}
    native = dict(_err("call", "TypeError"), limits={"input": {"dataTypes": ["float32", "int32"]}})
    assert oracle.compare(native, _ok([1, 2], "int8"), "abs", program).kind == "capability"
    claimed = dict(native, limits={"input": {"dataTypes": ["float32", "int8"]}})
    assert oracle.compare(claimed, _ok([1, 2], "int8"), "abs", program).kind == "error-vs-ok"
    # another operand's types (a comparison's uint8 output) do not excuse the input's
    output_only = dict(native, limits={"input": {"dataTypes": ["float32"]}, "output": {"dataTypes": ["int8"]}})
    assert oracle.compare(output_only, _ok([1, 2], "int8"), "abs", program).kind == "capability"
    assert oracle.native_lacks(program, output_only) == "native opSupportLimits().abs lacks input: int8"
    ranked = dict(native, limits={"input": {"dataTypes": ["int8"], "rankRange": {"min": 0, "max": 0}}})
    assert oracle.native_lacks(program, ranked) == "native opSupportLimits().abs lacks input: rank 1"
    cast = {"op": "cast", "graph": {"inputs": {"x": {"descriptor": {"dataType": "float32", "shape": [2]}}},
                                    "operators": [{"name": "cast", "arguments": [{"input": "x"}, {"dataType": "uint4"}],
                                                   "outputs": "y"}]}}
    no_u4 = dict(native, limits={"input": {"dataTypes": ["float32"]}, "output": {"dataTypes": ["int8"]}})
    assert oracle.native_lacks(cast, no_u4) == "native opSupportLimits().cast lacks output: uint4"
    unsupported = _err("build", "NotSupportedError")
    assert oracle.compare(unsupported, _ok([1.0]), "convTranspose2d", program).kind == "capability"


def test_report_counts_per_operator_and_keeps_examples():
    programs = [{"id": f"{i}", "op": op, "origin": "wpt", "graph": {"inputs": {}, "operators": []}}
                for i, op in enumerate(["add", "add", "relu"])]
    natives = [_ok([1.0]), _ok([1.0]), _err("call", "TypeError")]
    shims = [_ok([1.0]), _ok([5.0]), _err("call", "TypeError")]
    report = oracle.compare_all(programs, natives, shims)
    assert report.per_op["add"]["agree"] == 1 and report.per_op["add"]["disagree"] == 1
    assert report.totals["agree"] == 2 and report.totals["disagree"] == 1
    text = report.render()
    assert "add" in text and "1: values" in text
    assert [r["agree"] for r in report.rows] == [True, False, True]
    assert "graph" in report.rows[1] and "graph" not in report.rows[0]  # disagreements keep their program


def test_inprocess_runs_agree_between_backends():
    """The oracle's in-process runner on ONNX Runtime against the numpy reference: the same
    generated programs (valid and invalid) give the same outcomes within WPT-like tolerances."""
    programs = oracle.generate(SEEDS, 120, seed=3)
    ort = oracle.run_inprocess(programs, "onnxruntime")
    ref = oracle.run_inprocess(programs, "reference")
    report = oracle.compare_all(programs, ref, ort)
    # integer division by zero is not specified: ONNX Runtime fails the dispatch (so does native
    # Chromium; the host reports it without the runtime's words), numpy returns values; every
    # other outcome must agree
    others = [r for r in report.rows if not r["agree"] and not (r["op"] == "div" and r["kind"] == "ok-vs-error")]
    assert not others, report.render()
    assert sum(r["stage"] == "ok" for r in ort) > 30 and sum(r["stage"] != "ok" for r in ort) > 10


@pytest.mark.parametrize("data_type", ["int32", "uint32"])
def test_reduce_product_overflow_wraps_on_both_backends(data_type):
    """Found by the oracle: ONNX Runtime's int32 ReduceProd saturated on overflow where the
    reference and native Chromium keep the low 32 bits."""
    values = [18, 14, 22, 6, 71, 91, 99, 46, 31, 94, 24, 54]
    graph = {"inputs": {"x": {"data": values, "descriptor": {"shape": [12], "dataType": data_type}}},
             "operators": [{"name": "reduceProduct", "arguments": [{"input": "x"}], "outputs": "y"}]}
    program = {"id": "p", "op": "reduceProduct", "origin": "hand", "graph": graph}
    exact = 1
    for v in values:
        exact *= v
    low = exact % 2**32
    want = low - 2**32 if data_type == "int32" and low >= 2**31 else low
    for backend in ("reference", "onnxruntime"):
        (out,) = oracle.run_inprocess([program], backend)
        assert out["outputs"]["y"]["data"] == [want], backend


def test_wpt_arguments_naming_several_values_give_them_in_order():
    """WPT's newer files give dequantizeLinear's scale and zeroPoint in one entry."""
    from webnn_bridge.devtools.oracle import wpt_call_args

    op = {"name": "dequantizeLinear", "arguments": [{"input": "x"}, {"scale": "s", "zeroPoint": "z"}],
          "outputs": "y"}
    assert wpt_call_args(op, lambda v, in_options: f"<{v}>") == ["<x>", "<s>", "<z>"]
    op = {"name": "concat", "arguments": [{"inputs": ["a", "b"]}, {"axis": 0}, {"options": {"label": "l"}}]}
    assert wpt_call_args(op, lambda v, in_options: (v, in_options)) == [
        [("a", False), ("b", False)], (0, False), {"label": ("l", True)}]
