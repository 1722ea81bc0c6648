"""OpenVINO backend: a second real runtime. The graph is lowered to ONNX by the same per-op
``lower`` functions as the ONNX Runtime backend and read by OpenVINO's ONNX frontend, then
compiled for one OpenVINO device (CPU here; Intel GPU/NPU where present).

Capabilities are a committed table (``openvino_caps.json``), measured by running every op x data
type case of the capability sweep on the CPU plugin against the numpy reference
(``webnn-bridge codegen``, devtools/codegen/backend_tables.py; tests/test_backend_openvino.py and
``codegen --check`` fail when the table no longer matches what the installed OpenVINO really runs).
Start-up only reads it.
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

import numpy as np

from webnn_bridge.ops.core import OperationError
from webnn_bridge.ops.graph import GraphIR, node_refs
from webnn_bridge.ops.registry import load_all

from .base import Backend, Capabilities, Compiled, Device, contiguous, native_work
from .onnx_lowering import lower_graph
from .onnxruntime import supported_ir_version

CAPS_TABLE = Path(__file__).with_name("openvino_caps.json")

# OpenVINO device type (the part of the device name before any ".N") -> WebNN device kind
KINDS = {"CPU": "cpu", "GPU": "gpu", "NPU": "npu"}
# Devices the sweep has not measured get the CPU table narrowed to these types (untested here).
UNMEASURED_TYPES = ("float32", "float16")


def _ov():
    import openvino

    return openvino


@functools.lru_cache(maxsize=1)
def _core():
    return _ov().Core()


@functools.lru_cache(maxsize=1)
def caps_table() -> dict:
    """The measured table: {"ops": {op: {operand: [data types]}}, ...}."""
    return json.loads(CAPS_TABLE.read_text())


def capabilities_from_table(ops_table: Mapping[str, Mapping[str, list]], types: tuple[str, ...] | None = None
                            ) -> Capabilities:
    """Narrow the registry's spec limits to a measured table; ``types`` narrows further (None: no
    further narrowing). Operands the table does not name follow their "same as" link."""
    registry = load_all()
    ops = {}
    for op, operands in ops_table.items():
        if op not in registry:
            continue
        limits = dict(registry[op].limits)
        for name, measured in operands.items():
            lim = limits[name]
            keep = tuple(t for t in lim.types if t in measured and (types is None or t in types))
            limits[name] = replace(lim, types=keep)
        if all(lim.types or lim.same for lim in limits.values()):
            ops[op] = limits
    return Capabilities(ops=ops)


def _flushed_by_openvino(t) -> np.ndarray | None:
    """The array of a float32 initializer that OpenVINO's CPU plugin would not keep bit for bit,
    else None: a constant holding a subnormal value comes back with every value of exponent 0
    (subnormals and -0 alike) flushed to +0 (measured on OpenVINO 2025/2026 with Identity, Cast
    and Neg; runtime inputs and arithmetic keep them)."""
    from onnx import TensorProto, numpy_helper

    if t.data_type != TensorProto.FLOAT:
        return None
    a = numpy_helper.to_array(t)
    bits = a.view(np.uint32) & 0x7FFFFFFF
    return a if bool(np.any((bits > 0) & (bits < 0x00800000))) else None


_REDUCE_OPS = frozenset({"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2",
                         "ReduceSumSquare", "ReduceLogSum", "ReduceLogSumExp"})
_ELEMENTWISE_OPS = frozenset({
    "Add", "Sub", "Mul", "Div", "Pow", "Max", "Min", "Mod", "PRelu", "Where", "Equal", "Greater", "GreaterOrEqual",
    "Less", "LessOrEqual", "And", "Or", "Xor", "Not", "Abs", "Neg", "Relu", "Sigmoid", "Tanh", "Exp", "Log", "Sqrt",
    "Reciprocal", "Clip", "Cast", "Erf", "Floor", "Ceil", "Round", "Sign", "Softplus", "Softsign", "LeakyRelu", "Elu",
    "HardSigmoid", "HardSwish", "Sin", "Cos", "Tan", "Identity", "IsNaN", "IsInf"})


def _operands_fused_into_reductions(model) -> set[str]:
    """The non-scalar initializers read by elementwise operations that follow a reduction (directly
    or through other elementwise operations). OpenVINO 2026.4's CPU plugin fuses such an operation
    into the reduction as a post-op, and a constant of per-channel shape ([C, 1] or [1, C, 1]
    after a [N, C, 1] reduction) was then applied along the wrong axis: wrong values, no error.
    Fed as inputs, they are not fused."""
    from onnx import numpy_helper

    inits = {t.name: t for t in model.graph.initializer}
    consumers: dict[str, list] = {}
    for n in model.graph.node:
        for i in n.input:
            consumers.setdefault(i, []).append(n)
    seen, marked = set(), set()
    todo = [o for n in model.graph.node if n.op_type in _REDUCE_OPS for o in n.output]
    while todo:
        value = todo.pop()
        for n in consumers.get(value, ()):
            if n.op_type not in _ELEMENTWISE_OPS or id(n) in seen:
                continue
            seen.add(id(n))
            for i in n.input:
                t = inits.get(i)
                if t is not None and int(np.prod(t.dims)) > 1 and numpy_helper.to_array(t).dtype.kind in "fiub":
                    marked.add(i)
            todo.extend(n.output)
    return marked


# operations that read their second input as weights multiplied into a sum
_WEIGHTED_OPS = frozenset({"Conv", "ConvTranspose", "MatMul", "Gemm"})


def _only_weights(model) -> set[str]:
    """The initializers read only as the weights of convolutions and matrix products (input 1 of
    Conv, ConvTranspose, MatMul, Gemm). A subnormal weight that OpenVINO flushes to +0 changes a
    product by less than 2**-126 times the other factor: an output changes only where the whole
    sum is that small. Fed as inputs instead (as other constants with subnormals are), such
    weights cost a model its constant folding and prepacked weights (PP-OCRv4's detector, four
    such filters: 9.1 ms a run fed, 8.7 ms kept)."""
    use: dict[str, bool] = {}
    for n in model.graph.node:
        for k, i in enumerate(n.input):
            use[i] = use.get(i, True) and n.op_type in _WEIGHTED_OPS and k == 1
    return {name for name, weights_only in use.items() if weights_only}


def _constants_as_inputs(model) -> dict[str, np.ndarray]:
    """Turns the initializers OpenVINO would get wrong into graph inputs (fed their values on
    every run, from the host's array): the float32 ones it would flush (except weights, see
    _only_weights) and those it would fuse into a reduction. Returns them by name."""
    from onnx import helper, numpy_helper

    fused = _operands_fused_into_reductions(model)
    weights = _only_weights(model)
    kept, fed = [], {}
    for t in model.graph.initializer:
        a = _flushed_by_openvino(t) if t.name not in weights else None
        if a is None and t.name in fused:
            a = numpy_helper.to_array(t)
        if a is None:
            kept.append(t)
        else:
            fed[t.name] = contiguous(a)
            model.graph.input.append(helper.make_tensor_value_info(t.name, t.data_type, list(a.shape)))
    if fed:
        del model.graph.initializer[:]
        model.graph.initializer.extend(kept)
    return fed


# a graph with more such places (a float16 transformer casting to float32 around every softmax)
# runs as one model, float16 values computed in float32 throughout: each cut is a model of its own
# to compile (about 40 ms) and a hand-off through the host on every dispatch
MAX_FLOAT16_CUTS = 4


def float16_boundaries(graph: GraphIR) -> set[int]:
    """The nodes that read a float16 value another node made and give a result of another type
    (a cast from float16, a comparison, argMin/argMax, ...). OpenVINO's CPU plugin computes a
    float16 graph in float32 and rounds to float16 only at the model's outputs, so the float16
    value such a node reads would reach it unrounded (a cast of 1.0003 to float16 and back gave
    1.0003, not 1): from each of these nodes on, the graph runs as a model of its own, and the
    value arrives rounded as the previous model's float16 output."""
    made_here = {oid for n in graph.nodes for oid in n.outputs}
    cuts = set()
    for i, n in enumerate(graph.nodes):
        if all(graph.operands[o].data_type == "float16" for o in n.outputs):
            continue
        if any(r in made_here and graph.operands[r].data_type == "float16" for r in node_refs(n)):
            cuts.add(i)
    return cuts


def _widen_float16_constants(model) -> None:
    """Replaces each Cast of a float16 initializer to float32 by the widened initializer (exact).
    OpenVINO 2026.4's CPU plugin folds such a Cast wrongly into what follows it: Abs of a float16
    constant cast to float32 came back unchanged (negative), so every accurate sigmoid
    (lower_sigmoid) of a float16 constant lost its sign."""
    from onnx import TensorProto, numpy_helper

    inits = {t.name: t for t in model.graph.initializer}
    keep = []
    for n in model.graph.node:
        to = next((a.i for a in n.attribute if a.name == "to"), None)
        t = inits.get(n.input[0]) if n.op_type == "Cast" and n.input else None
        if t is not None and t.data_type == TensorProto.FLOAT16 and to == TensorProto.FLOAT:
            model.graph.initializer.append(numpy_helper.from_array(numpy_helper.to_array(t).astype(np.float32),
                                                                   n.output[0]))
        else:
            keep.append(n)
    if len(keep) != len(model.graph.node):
        del model.graph.node[:]
        model.graph.node.extend(keep)


def _attrs_and_kernel(n, inits: dict) -> tuple[dict, list[int]]:
    """An ONNX node's attributes, and its kernel's spatial shape (a Conv's from its weight
    initializer when the attribute is absent; [] for a node without one)."""
    from onnx import helper

    attrs = {a.name: helper.get_attribute_value(a) for a in n.attribute}
    kernel = list(attrs.get("kernel_shape") or ())
    if not kernel and n.op_type == "Conv" and len(n.input) > 1 and n.input[1] in inits:
        kernel = list(inits[n.input[1]].dims[2:])
    return attrs, kernel


def _unstride_padded_pointwise_convs(model) -> None:
    """Rewrites each padded Conv with a 1x1 kernel and a stride above 1 as Pad, a strided Slice
    and an unstrided, unpadded Conv (the same values). OpenVINO 2026.4's CPU plugin moves such a
    convolution's strides onto the operation before it and drops the padding on the way: the
    result came back one element too wide per padded axis (refused at run time) or, with
    padding on one side only, with wrong values and no error. A Conv whose input is a graph
    input was right (nothing to move the strides to); an explicit Pad before it is folded back
    into the Conv and fails alike, so the stride is taken by a Slice of our own."""
    from onnx import helper, numpy_helper

    inits = {t.name: t for t in model.graph.initializer}
    nodes, changed = [], False
    for n in model.graph.node:
        attrs, kernel = _attrs_and_kernel(n, inits)
        strides = list(attrs.get("strides") or [1] * len(kernel))
        pads = list(attrs.get("pads") or [0] * (2 * len(kernel)))
        if (n.op_type != "Conv" or not kernel or any(k != 1 for k in kernel) or all(s == 1 for s in strides)
                or not any(pads) or attrs.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET")):
            nodes.append(n)
            continue
        changed = True
        rank = len(kernel) + 2
        tag = f"{n.output[0]}_unstrided"
        pad_spec = [0, 0] + pads[:len(kernel)] + [0, 0] + pads[len(kernel):]
        spatial = list(range(2, rank))

        def const(name, values, tag=tag):
            model.graph.initializer.append(numpy_helper.from_array(np.array(values, np.int64), f"{tag}_{name}"))
            return f"{tag}_{name}"

        nodes.append(helper.make_node("Pad", [n.input[0], const("pads", pad_spec)], [f"{tag}_padded"]))
        nodes.append(helper.make_node("Slice", [f"{tag}_padded", const("starts", [0] * len(kernel)),
                                                const("ends", [np.iinfo(np.int64).max] * len(kernel)),
                                                const("axes", spatial), const("steps", strides)],
                                      [f"{tag}_sliced"]))
        keep = {k: v for k, v in attrs.items() if k not in ("strides", "pads")}
        nodes.append(helper.make_node("Conv", [f"{tag}_sliced", *n.input[1:]], list(n.output), name=n.name, **keep))
    if changed:
        del model.graph.node[:]
        model.graph.node.extend(nodes)


def _pad_after_padded_pointwise_convs(model) -> None:
    """Rewrites each padded, unstrided Conv with a 1x1 kernel as the unpadded Conv, a Pad of its
    result with zeros and the bias added after (the same values: a padded position of such a
    convolution sees zeros alone). OpenVINO 2026.4's CPU plugin crashed the process (a segfault
    while running it) on such a convolution of a [1, C, 1, W] value for small W with padding at
    the end of the width, when it had a bias or a per-channel Add that the plugin folds into one
    (webnn-bridge fuzz seeds 13214 and 18216 float32 and 13214 float16: a [1, 1, 1, 1] value,
    padding [0, 0, 0, 1]). The bias stays out of the Conv: added to it, it crashed alike. Runs
    after _unstride_padded_pointwise_convs, which leaves strided ones unpadded."""
    from onnx import helper, numpy_helper

    inits = {t.name: t for t in model.graph.initializer}
    nodes, changed = [], False
    for n in model.graph.node:
        attrs, kernel = _attrs_and_kernel(n, inits)
        pads = list(attrs.get("pads") or [0] * (2 * len(kernel)))
        if (n.op_type != "Conv" or not kernel or any(k != 1 for k in kernel) or not any(pads)
                or any(s != 1 for s in attrs.get("strides") or [1])
                or attrs.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET")):
            nodes.append(n)
            continue
        changed = True
        tag = f"{n.output[0]}_padded_after"
        spatial = len(kernel)
        keep = {k: v for k, v in attrs.items() if k != "pads"}
        nodes.append(helper.make_node("Conv", list(n.input[:2]), [f"{tag}_conv"], name=n.name, **keep))
        pad_spec = [0, 0] + pads[:spatial] + [0, 0] + pads[spatial:]
        model.graph.initializer.append(numpy_helper.from_array(np.array(pad_spec, np.int64), f"{tag}_pads"))
        bias = n.input[2] if len(n.input) > 2 and n.input[2] else None
        nodes.append(helper.make_node("Pad", [f"{tag}_conv", f"{tag}_pads"], [f"{tag}_out" if bias else n.output[0]]))
        if bias:
            axes = f"{tag}_axes"
            model.graph.initializer.append(numpy_helper.from_array(np.arange(1, 1 + spatial, dtype=np.int64), axes))
            nodes.append(helper.make_node("Unsqueeze", [bias, axes], [f"{tag}_bias"]))
            nodes.append(helper.make_node("Add", [f"{tag}_out", f"{tag}_bias"], [n.output[0]]))
    if changed:
        del model.graph.node[:]
        model.graph.node.extend(nodes)


def _copy_sliced_gather_elements_data(model) -> None:
    """Gives each GatherElements whose data is a Slice's result a copy of it, Max(x, x) (the same
    values, exactly, in every type). OpenVINO 2026.4's EliminateSliceBeforeGatherElements removes
    a Slice that starts at 0 before a GatherElements, which is right only when the Slice cut the
    gathered axis alone: one that cut another axis left data and indices of different shapes, and
    the model failed to compile (webnn-bridge fuzz seed 8799 float32: a [1, 4, 2] value sliced to
    [1, 2, 1], then gathered along axis 2)."""
    from onnx import helper

    sliced = {o for n in model.graph.node if n.op_type == "Slice" for o in n.output}
    nodes, changed = [], False
    for n in model.graph.node:
        if n.op_type == "GatherElements" and n.input[0] in sliced:
            copy = f"{n.output[0]}_data"
            nodes.append(helper.make_node("Max", [n.input[0], n.input[0]], [copy]))
            n.input[0] = copy
            changed = True
        nodes.append(n)
    if changed:
        del model.graph.node[:]
        model.graph.node.extend(nodes)


def _abs_of_a_copy(model, float16: bool) -> None:
    """Gives each Abs of a computed value a copy of it as its input: Max(x, x) (the same value, -0
    and NaN included), or for a float16 value its cast to float32, cast back after the Abs (both
    exact). OpenVINO 2026.4's CPU plugin computed Abs in place over a Concat's result (directly or
    through a Reshape) that other operations or the outputs still read: they saw the absolute
    values (a sigmoid of a concat lost its sign). And it folded the Abs of a float16 value
    computed from constants into that value, sign kept. webnn-bridge fuzz found both.
    ``float16``: whether the graph holds float16 values (their types are inferred then)."""
    from onnx import TensorProto, helper, shape_inference

    made = {o for n in model.graph.node for o in n.output}
    halves: set[str] = set()
    if float16:
        inferred = shape_inference.infer_shapes(model)
        halves = {v.name for v in (*inferred.graph.value_info, *inferred.graph.input, *inferred.graph.output)
                  if v.type.tensor_type.elem_type == TensorProto.FLOAT16}
        halves |= {t.name for t in model.graph.initializer if t.data_type == TensorProto.FLOAT16}
    nodes, changed = [], False
    for n in model.graph.node:
        if n.op_type == "Abs" and n.input[0] in halves:
            wide, out = f"{n.output[0]}_wide", f"{n.output[0]}_abs"
            nodes.append(helper.make_node("Cast", [n.input[0]], [wide], to=TensorProto.FLOAT))
            nodes.append(helper.make_node("Abs", [wide], [out], name=n.name))
            nodes.append(helper.make_node("Cast", [out], list(n.output), to=TensorProto.FLOAT16))
            changed = True
        elif n.op_type == "Abs" and n.input[0] in made:
            copy = f"{n.output[0]}_copied"
            nodes.append(helper.make_node("Max", [n.input[0], n.input[0]], [copy]))
            nodes.append(helper.make_node("Abs", [copy], list(n.output), name=n.name))
            changed = True
        else:
            nodes.append(n)
    if changed:
        del model.graph.node[:]
        model.graph.node.extend(nodes)


# OpenVINO operations after which a NaN input must give NaN (IEEE arithmetic, the reference, ONNX
# Runtime and PyTorch) but which the CPU plugin computes with max/min instructions that return the
# other operand for a NaN (and Exp, which clamps its argument first: exp(NaN) gave inf). Measured
# with OpenVINO 2026.4.1 on an AVX-512 CPU and, with ONEDNN_MAX_CPU_ISA, as AVX2 and SSE4.1: relu,
# clamp, max/min against a constant, hardSigmoid, exp (and sigmoid through it), maxPool2d,
# reduceMax/reduceMin/reduceLogSumExp and softmax gave a number for NaN on all three, elu (a Min)
# on AVX2 only. The other activations made of max/min (HSwish, PRelu for leakyRelu and prelu,
# HSigmoid) are wrapped too: the instructions the plugin picks depend on the CPU.
_NAN_ELEMENTWISE = frozenset({"Relu", "Clamp", "Maximum", "Minimum", "Elu", "HardSigmoid", "HSigmoid", "HSwish",
                              "PRelu", "Exp"})
# ... and those that must give NaN for a NaN anywhere in their window (reduced axes, softmax's
# axis). MaxPool and ReduceMax also gave float32's lowest number for a window of -inf alone (and
# of padding alone), ReduceMin its largest for +inf: corrected with the same mask.
_NAN_WINDOWED = frozenset({"ReduceMax", "ReduceMin", "MaxPool", "Softmax"})


def _nan_free_constant(value) -> bool:
    node = value.get_node()
    return node.get_type_name() == "Constant" and not bool(np.isnan(node.get_data()).any())


# the elementwise operations that give no NaN for an operand that is not NaN (exp(-inf) is 0,
# relu(inf) is inf; not PRelu or HSwish, whose -inf * 0 is NaN): a chain of them (clamp's Maximum
# and Minimum) is wrapped once, at its end, with the first operation's operand
_NAN_CHAINED = frozenset({"Relu", "Clamp", "Maximum", "Minimum", "Exp"})


def _is_nan(ops, v):
    """IsNaN written v != v: the plugin fuses NotEqual with the Select it feeds into one kernel,
    where its own IsNaN ran as a kernel of its own (MobileNetV2 took about 15% longer with it)."""
    return ops.not_equal(v, v)


def _nan_operands(node) -> list:
    """The operands of an elementwise operation of ``_NAN_ELEMENTWISE`` that may hold NaN: the
    first (the data; the rest are parameters), both of max/min, less NaN-free constants."""
    values = [node.input_value(i) for i in range(node.get_input_size() if node.get_type_name() in (
        "Maximum", "Minimum") else 1)]
    return [v for v in values if not _nan_free_constant(v)]


def propagate_nan(ov_model) -> int:
    """Makes NaN propagate through the operations of ``_NAN_ELEMENTWISE`` and ``_NAN_WINDOWED`` on
    every CPU: a floating elementwise result r becomes Select(IsNaN(x), x, r) for each operand x
    that may hold NaN (a chain of ``_NAN_CHAINED`` operations, Select(IsNaN(x), x, chain(x))), a
    window's Select(any NaN in it, NaN, r) (and for max/min Select(only -inf/+inf in it, -inf/+inf,
    r)). Other values are the plugin's own. IsNaN is written x != x (_is_nan). Returns the number
    of Selects added.

    The cost, measured on 2 loaded cores (AVX-512): a clamp after a convolution is no longer fused
    into it, and its Select runs as a kernel of its own: MobileNetV2 took 5-10% more kernel time
    (the plugin's counters) and 32-38% more wall time; relu alone and a 1x1 convolution with a
    clamp 3-16%; a maxPool2d and a softmax, which read their input again for the mask, about
    twice their time; a transformer's blocks about the same."""
    import openvino.opset13 as ops

    def wrappable(node) -> bool:
        # float32 and float16 only: WebNN has no float64, which arises only inside lowerings (gelu's
        # negative branch, a saturating cast's bounds) where no NaN reaches a result through it
        kind = node.get_type_name()
        return ((kind in _NAN_ELEMENTWISE or kind in _NAN_WINDOWED) and node.get_output_size() >= 1
                and node.output(0).get_element_type().to_dtype() in (np.float32, np.float16))

    origin: dict = {}  # the output of a chained operation left unwrapped -> the chain's first operand
    wrapped = 0
    for node in list(ov_model.get_ordered_ops()):
        if not wrappable(node):
            continue
        kind = node.get_type_name()
        out = node.output(0)
        targets = list(out.get_target_inputs())
        if kind in _NAN_ELEMENTWISE:
            operands = _nan_operands(node)
            if len(operands) == 2 and operands[0] == operands[1]:
                continue  # max(x, x) is x, NaN included, whatever the instruction (_abs_of_a_copy's copy)
            sources = list(dict.fromkeys(origin.get(v, v) for v in operands))
            if not sources:
                continue
            after = targets[0].get_node() if len(targets) == 1 else None
            if (len(sources) == 1 and kind in _NAN_CHAINED and after is not None and wrappable(after)
                    and after.get_type_name() in _NAN_CHAINED and len(_nan_operands(after)) == 1):
                origin[out] = sources[0]  # the next operation of the chain wraps it
                continue
            result = out
            for v in reversed(sources):
                result = ops.select(_is_nan(ops, v), v, result).output(0)
            wrapped += len(sources)
        else:
            x = node.input_value(0)
            dtype = out.get_element_type().to_dtype()
            nan = ops.constant(np.array(np.nan, dtype))
            if kind == "Softmax":
                axis = ops.constant(np.array([node.get_attributes()["axis"]], np.int64))
                result = ops.select(ops.reduce_logical_or(_is_nan(ops, x), axis, True), nan, out).output(0)
                wrapped += 1
            else:
                # per element 2 for NaN, 0 for the infinity that only a window of nothing else
                # gives (-inf for a max), 1 for the rest; the window's largest code says which
                extreme = ops.constant(np.array(-np.inf if kind in ("MaxPool", "ReduceMax") else np.inf, dtype))
                code = ops.add(ops.convert(ops.not_equal(x, extreme), "f32"), ops.convert(_is_nan(ops, x), "f32"))
                if kind == "MaxPool":
                    a = node.get_attributes()
                    top = ops.max_pool(code, a["strides"], a.get("dilations", [1] * len(a["strides"])),
                                       a["pads_begin"], a["pads_end"], a["kernel"], a["rounding_type"],
                                       a["auto_pad"]).output(0)  # (a window of padding alone: float32's lowest)
                else:
                    top = ops.reduce_max(code, node.input_value(1), node.get_attributes()["keep_dims"]).output(0)
                result = ops.select(ops.less(top, ops.constant(np.float32(0.5))), extreme, out)
                result = ops.select(ops.greater(top, ops.constant(np.float32(1.5))), nan, result).output(0)
                wrapped += 2
        for t in targets:
            t.replace_source_output(result)
    return wrapped


def fold_constants(graph: GraphIR) -> GraphIR:
    """The graph with each node whose operands are all constants computed by the numpy reference
    (the spec's results) and given to OpenVINO as a constant (an output may be one). OpenVINO
    2026.4's own folding of an Abs over a value computed from constants kept the value's sign:
    abs(min(a, b)) of two float16 constants, and every sigmoid (lower_sigmoid takes an Abs) of
    one (webnn-bridge fuzz)."""
    from .reference import evaluate_node

    registry = load_all()
    folded: dict[int, np.ndarray] = {}  # (the graph's own constants are read only where a node folds)
    kept = []
    for n in graph.nodes:
        refs = node_refs(n)
        if not refs or not all(r in folded or r in graph.constants for r in refs):
            kept.append(n)
            continue
        values = {r: folded[r] if r in folded else graph.constants[r] for r in refs}
        evaluate_node(registry[n.op], n, values, graph.operands)
        folded.update((oid, values[oid]) for oid in n.outputs)
    if not folded:
        return graph
    used = {r for n in kept for r in node_refs(n)} | set(graph.outputs.values())
    constants = {k: folded[k] if k in folded else graph.constants[k]
                 for k in used if k in folded or k in graph.constants}
    return GraphIR(operands=graph.operands, inputs=dict(graph.inputs), constants=constants,
                   nodes=kept, outputs=dict(graph.outputs))


# Operations the CPU plugin also computes in float32 for 32-bit integers, beyond the measured
# table's "float32_ints" (the capability sweep's large-value cases it is measured from, LARGE32 in
# devtools/sweep_cases.py, do not cover them): webnn-bridge fuzz found int32 reduceMin of -880226899 giving -880226880 (seed 8444
# int32), and every comparison and reduceMax came out alike (equal(16777217, 16777216) was true;
# a where() fused with the comparison that picks its values passed them through float32 too).
FLOAT32_INTS_UNMEASURED = {op: ("int32", "uint32") for op in (
    "equal", "notEqual", "greater", "greaterOrEqual", "lesser", "lesserOrEqual", "reduceMax", "reduceMin")}


def float32_int_nodes(graph: GraphIR) -> set[int]:
    """The nodes whose operation the CPU plugin computes in float32 though its operand is a 32-bit
    integer (the measured table's "float32_ints": values above 2^24 came back rounded, int32 div of
    16777217 by 1 gave 16777216; and FLOAT32_INTS_UNMEASURED): ONNX Runtime runs those, exactly."""
    table = caps_table().get("float32_ints", {})
    found = set()
    for i, n in enumerate(graph.nodes):
        types = (*table.get(n.op, ()), *FLOAT32_INTS_UNMEASURED.get(n.op, ()))
        main = next(iter(node_refs(n)), None)
        if types and main is not None and graph.operands[main].data_type in types:
            found.add(i)
    return found


# the label of the parts ONNX Runtime runs in an OpenVinoSplit
EXACT = "exact-on-onnxruntime"


class OpenVinoSplit(Compiled):
    """One graph as consecutive models: OpenVINO's, cut before each node of float16_boundaries,
    and ONNX Runtime's CPU for the nodes of float32_int_nodes (partition.py hands the values
    between them as host arrays). One compiled graph for the policy and traces: the device is the
    OpenVINO one, and every part runs on its CPU."""

    def __init__(self, graph: GraphIR, cuts: set[int], exact: set[int], device: Device, compile_part):
        from .onnxruntime import OrtCompiled
        from .partition import compile_partitioned

        # outputs that fold_constants made constants: no part computes them, so the parts run the
        # graph without them and run() adds them (the partitioned run looked them up among the
        # parts' results: a KeyError, webnn-bridge fuzz seed 7207 float16)
        self.constant_outputs = {name: np.ascontiguousarray(graph.constants[oid])
                                 for name, oid in graph.outputs.items() if oid in graph.constants}
        if self.constant_outputs:
            graph = replace(graph, outputs={name: oid for name, oid in graph.outputs.items()
                                            if name not in self.constant_outputs}, derived={})
        part, labels = 0, []
        for i in range(len(graph.nodes)):
            part += i in cuts
            labels.append(EXACT if i in exact else str(part))
        devices = {label: device for label in labels}
        label_of = dict(zip(map(id, graph.nodes), labels))  # a part's nodes are the graph's own

        def compile_on(g, _device):
            if label_of.get(id(g.nodes[0])) == EXACT:
                return OrtCompiled(g, ("CPUExecutionProvider",), threads=device.threads)
            return compile_part(g)

        self.parts = compile_partitioned(graph, labels, devices, compile_on)

    def run(self, inputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        out = self.parts.run(inputs)
        out.update((name, a.copy()) for name, a in self.constant_outputs.items())
        return out

    def close(self) -> None:
        self.parts.close()


class OpenVinoCompiled(Compiled):
    def __init__(self, graph: GraphIR, device_name: str, threads: int = 0):
        model, in_map, out_map = lower_graph(graph, supported_ir_version())
        self.constant_feeds: dict[int, np.ndarray] = {}
        _abs_of_a_copy(model, any(d.data_type == "float16" for d in graph.operands.values()))
        _widen_float16_constants(model)  # (after: it widens the casts _abs_of_a_copy makes too)
        _unstride_padded_pointwise_convs(model)
        _pad_after_padded_pointwise_convs(model)
        _copy_sliced_gather_elements_data(model)
        fed = _constants_as_inputs(model)
        core = _core()
        try:
            ov_model = core.read_model(model.SerializeToString(), b"")  # (its bytes are copied holding the GIL)
            propagate_nan(ov_model)
            config = {"PERFORMANCE_HINT": "LATENCY"}
            if device_name.split(".")[0] in ("CPU", "GPU"):
                config["INFERENCE_PRECISION_HINT"] = "f32"  # never bf16/f16 for float32 graphs
            if device_name.split(".")[0] == "CPU":  # a CPU mode (Device.threads), else CPU thrift's count
                from .base import graph_threads  # as ONNX Runtime's pools

                config["INFERENCE_NUM_THREADS"] = int(graph_threads(graph, threads))
            with native_work():
                self.compiled = core.compile_model(ov_model, device_name, config)
        except Exception as e:  # OpenVINO rejects the model: a compile failure per spec
            raise OperationError(f"OpenVINO could not compile the graph: {type(e).__name__}") from e
        # OpenVINO keeps the ONNX graph's input/output order
        onnx_inputs = [i.name for i in model.graph.input]
        self.feed_index = {name: onnx_inputs.index(v) for name, v in in_map.items()}
        self.constant_feeds = {onnx_inputs.index(name): a for name, a in fed.items()}
        self.webnn_outputs = list(out_map.keys())
        self.dtypes = [graph.operands[graph.outputs[n]].numpy_dtype for n in self.webnn_outputs]
        self.request = self.compiled.create_infer_request()
        self._lock = threading.Lock()

    def run(self, inputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        feed = {self.feed_index[k]: contiguous(v) for k, v in inputs.items()}
        feed.update(self.constant_feeds)
        with self._lock:
            self.request.infer(feed)
            results = [self.request.get_output_tensor(i).data.copy() for i in range(len(self.webnn_outputs))]
        # OpenVINO reports bool for boolean-valued ONNX outputs that WebNN types as uint8
        return {n: r.astype(dt, copy=False) for n, r, dt in zip(self.webnn_outputs, results, self.dtypes)}

    def close(self) -> None:
        self.request = None
        self.compiled = None


class OpenVinoBackend(Backend):
    name = "openvino"
    cpu_modes = True  # INFERENCE_NUM_THREADS per compiled model on its CPU device

    @classmethod
    def probe(cls) -> list[Device]:
        try:
            ov = _ov()
            core = _core()
            names = list(core.available_devices)
        except Exception:
            return []
        devices = []
        for dev in names:
            kind = KINDS.get(dev.split(".")[0])
            if kind is None:
                continue
            devices.append(
                Device(
                    id=f"openvino:{dev}",
                    kind=kind,
                    backend=cls.name,
                    name=f"{dev} via OpenVINO",
                    details={"openvino": ov.__version__, "device": dev},
                    providers=(dev,),
                )
            )
        return devices

    def capabilities(self, device: Device) -> Capabilities:
        table = caps_table()
        measured = device.providers[:1] == (table.get("device", "CPU"),)
        return capabilities_from_table(table["ops"], None if measured else UNMEASURED_TYPES)

    def implements(self, op: str) -> bool:
        return op in caps_table()["ops"]

    def compile(self, graph: GraphIR, device: Device) -> Compiled:
        name = device.providers[0] if device.providers else "CPU"
        graph = fold_constants(graph)
        cuts = float16_boundaries(graph)
        if len(cuts) > MAX_FLOAT16_CUTS:
            cuts = set()
        exact = float32_int_nodes(graph)
        if not cuts and not exact:
            return OpenVinoCompiled(graph, name, device.threads)
        return OpenVinoSplit(graph, cuts, exact, device, lambda g: OpenVinoCompiled(g, name, device.threads))
