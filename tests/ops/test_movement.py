"""The data-movement operators (src/webnn_bridge/ops/defs/movement.py: gatherElements, gatherND, scatterElements, scatterND,
pad, tile, reverse, triangular, expand), reference against ONNX Runtime; one output of split() used
alone."""

from __future__ import annotations

import numpy as np
import pytest

from ._util import both, rand, run_by_backend


@pytest.mark.parametrize("dt", ["float32", "float16", "int32", "uint8"])
def test_data_movement(dt):
    x = rand([3, 4, 5], dt, 0, 50)
    ge_idx = rand([3, 2, 5], "int32", -4, 4)
    nd_idx = rand([2, 2], "int64", -3, 3)
    se_idx = np.array([[[0, 1, 2, 3, 0]] * 4, [[1, 2, 3, 0, 1]] * 4, [[3, 3, 3, 3, 3]] * 4], np.int32)[:, :1, :]
    both(lambda b, o: [
        b.gatherElements(o["x"], o["gi"], {"axis": 1}),
        b.gatherND(o["x"], o["ni"]),
        b.scatterElements(o["x"], o["si"], b.slice(o["x"], [0, 0, 0], [3, 1, 5]), {"axis": 1}),
        b.scatterND(o["x"], o["ni2"], b.reshape(b.slice(o["x"], [0, 0, 0], [2, 1, 5]), [2, 5])),
        b.pad(o["x"], [1, 0, 2], [0, 3, 1], {"mode": "edge"}),
        b.pad(o["x"], [1, 2, 0], [2, 1, 4], {"mode": "reflection"}),
        b.pad(o["x"], [0, 1, 1], [1, 0, 0], {"value": 7}),
        b.tile(o["x"], [2, 1, 3]),
        b.reverse(o["x"]), b.reverse(o["x"], {"axes": [2, 0]}), b.reverse(o["x"], {"axes": []}),
        b.triangular(o["x"]), b.triangular(o["x"], {"upper": False, "diagonal": -2}),
        b.expand(b.slice(o["x"], [0, 0, 0], [1, 4, 1]), [2, 3, 4, 6]),
    ], {"x": x, "gi": ge_idx, "ni": nd_idx, "si": se_idx, "ni2": np.array([[0, 1], [2, 3]], np.uint32)})


def test_unused_outputs_of_a_multi_output_op(contexts):
    # building a graph that uses one output of split() (or of gru/lstm) must not need the others
    x = np.arange(6, dtype=np.float32)
    got = run_by_backend(contexts, lambda bb: {"a": bb.split(bb.input("x", {"dataType": "float32", "shape": [6]}), 3)[1]},
                   {"x": x})
    for res in got.values():
        np.testing.assert_array_equal(res["a"], [2, 3])


# ONNX Runtime's CPU Where lacks some integer kernels in some versions (1.30: int8, uint32; 1.32:
# uint64): the lowerings of where, triangular and integer prelu select those types in a wider one
WHERE_WIDENED = {"int8": "int32", "uint32": "int64", "uint64": "int64"}


@pytest.mark.parametrize("dt", ["int8", "uint32", "uint64", "int32", "uint8", "float32"])
def test_where_selects_only_in_types_every_onnx_runtime_has(dt):
    from onnx import helper, shape_inference

    from webnn_bridge.backends.onnx_lowering import lower_graph
    from webnn_bridge.backends.onnxruntime import supported_ir_version

    from ._util import REF, MLGraphBuilder

    b = MLGraphBuilder(REF)
    x = b.input("x", {"dataType": dt, "shape": [3, 3]})
    c = b.input("c", {"dataType": "uint8", "shape": [3, 3]})
    outs = {"w": b.where(c, x, b.neg(x) if dt.startswith("int") or dt.startswith("f") else x),
            "t": b.triangular(x, {"diagonal": 1})}
    if dt in ("int8", "int32"):
        outs["p"] = b.prelu(x, x)
    model, _, _ = lower_graph(b.build(outs).ir, supported_ir_version())
    model = shape_inference.infer_shapes(model)
    types = {v.name: v.type.tensor_type.elem_type for v in
             [*model.graph.value_info, *model.graph.input, *model.graph.output]}
    selected = {helper.tensor_dtype_to_np_dtype(types[n.input[1]]).name
                for n in model.graph.node if n.op_type == "Where"}
    assert selected == {WHERE_WIDENED.get(dt, dt)}
    # and cast back: the outputs keep the operand's type
    assert {helper.tensor_dtype_to_np_dtype(types[o.name]).name for o in model.graph.output} == {dt}
