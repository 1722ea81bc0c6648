"""The ONNX lowering shared by the ONNX Runtime, OpenVINO and TensorRT backends: a GraphIR becomes
an ONNX model, each op emitting its nodes through its ``lower`` function from the registry. The
ONNX IR version the model declares is the caller's (ONNX Runtime's newest loadable one, see
``onnxruntime.supported_ir_version``)."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping

import numpy as np

from webnn_bridge.ops.core import DATA_TYPES
from webnn_bridge.ops.graph import GraphIR, is_ref
from webnn_bridge.ops.registry import load_all

from .base import contiguous

OPSET = 21

def make_node(op_type: str, inputs: list[str], outputs: list[str], attrs: Mapping):
    """onnx.helper.make_node(op_type, inputs, outputs, **attrs), the same NodeProto made faster:
    its attributes of plain int, float, str and list-of-int values are made directly (the helper
    tells types apart by abstract base classes), the others by the helper."""
    from onnx import NodeProto, helper

    node = NodeProto(op_type=op_type, input=inputs, output=outputs)
    if attrs:
        node.attribute.extend(_attribute(k, v, helper) for k, v in sorted(attrs.items()) if v is not None)
    return node


def _attribute(key: str, value, helper):
    from onnx import AttributeProto

    t = type(value)
    if t is int:
        return AttributeProto(name=key, i=value, type=AttributeProto.INT)
    if t is float:
        return AttributeProto(name=key, f=value, type=AttributeProto.FLOAT)
    if t is str:
        return AttributeProto(name=key, s=value.encode(), type=AttributeProto.STRING)
    if (t is list or t is tuple) and value and all(type(v) is int for v in value):
        return AttributeProto(name=key, ints=value, type=AttributeProto.INTS)
    return helper.make_attribute(key, value)


@functools.lru_cache(maxsize=256)
def _safe_name(hint: str) -> str:
    return re.sub(r"[^A-Za-z0-9_]", "_", hint)


# numpy dtype -> its WebNN data type
_TYPE_OF_NUMPY = {d.numpy: name for name, d in DATA_TYPES.items()}


class OnnxLowering:
    """What an op's ``lower`` function uses to emit ONNX nodes. Values are named strings.
    ``target``: the runtime that runs the model, where an op's fastest form differs between them:
    "native" (ONNX Runtime, OpenVINO, TensorRT on the host) or "wasm" (onnxruntime-web's wasm
    kernels in the page, backends/page.py: one thread, 128-bit SIMD)."""

    def __init__(self, target: str = "native"):
        self.target = target
        self.nodes: list = []
        self.initializers: list = []
        self.dtypes: dict[str, str] = {}
        self.shapes: dict[str, tuple[int, ...]] = {}
        self._arrays: dict[str, np.ndarray] = {}  # the values of the initializers made by const()
        self._reshapes: dict[str, tuple[str, str]] = {}  # a Reshape's output -> (its data, its shape)
        self._n = 0

    def fresh(self, hint: str = "v") -> str:
        self._n += 1
        return f"{_safe_name(hint)}_{self._n}"

    def dtype(self, value: str) -> str:
        return self.dtypes[value]

    def shape(self, value: str) -> tuple[int, ...] | None:
        return self.shapes.get(value)

    def node(self, op_type: str, inputs: list[str], n_out: int = 1, dtype: str | None = None, **attrs):
        outs = [self.fresh(op_type) for _ in range(n_out)]
        self.nodes.append(make_node(op_type, list(inputs), outs, attrs))
        if op_type == "Reshape" and not attrs:
            self._reshapes[outs[0]] = (inputs[0], inputs[1])
        known = dtype or next((self.dtypes[i] for i in inputs if i in self.dtypes), None)
        for o in outs:
            if known:
                self.dtypes[o] = known
        return outs[0] if n_out == 1 else outs

    def const(self, array: np.ndarray, hint: str = "const") -> str:
        from onnx import numpy_helper

        name = self.fresh(hint)
        array = contiguous(array)
        self.initializers.append(numpy_helper.from_array(ort_storage(array), name))
        self._arrays[name] = array
        return self._known(name, array)

    def constant(self, value: str) -> np.ndarray | None:
        """The array of ``value`` when it is an initializer inside the model (made by const());
        None for any other value, external initializers included."""
        return self._arrays.get(value)

    def folded(self, value: str) -> np.ndarray | None:
        """The array of ``value`` when it is a constant inside the model or a Reshape of one by a
        constant shape (a graph's constant filter that onnxruntime-web's WebNN EP reshapes):
        what constant folding would make of it; None otherwise."""
        array = self._arrays.get(value)
        if array is not None or value not in self._reshapes:
            return array
        data, shape = self._reshapes[value]
        base, dims = self.folded(data), self._arrays.get(shape)
        if base is None or dims is None:
            return None
        dims = [base.shape[i] if d == 0 else int(d) for i, d in enumerate(dims)]  # 0: the input's dimension
        return base.reshape(dims)

    def _known(self, name: str, array: np.ndarray) -> str:
        dname = _TYPE_OF_NUMPY.get(array.dtype)
        if dname is not None:
            self.dtypes[name] = dname
        self.shapes[name] = tuple(array.shape)
        return name

    def graph_constant(self, k: int, array: np.ndarray) -> str:
        """The graph's k-th constant: a big one as an external initializer (external_constants)."""
        array = np.asarray(array)
        if not is_external(array):
            return self.const(array, f"c{k}")
        from onnx import TensorProto, helper

        storage = ort_storage(array)
        name = _external_name(k)
        tensor = TensorProto(name=name, dims=list(array.shape),
                             data_type=helper.np_dtype_to_tensor_dtype(storage.dtype),
                             data_location=TensorProto.EXTERNAL)
        tensor.external_data.add(key="location", value=name)
        self.initializers.append(tensor)
        return self._known(name, array)

    def scalar(self, value, dtype: str) -> str:
        return self.const(np.array(value, dtype=DATA_TYPES[dtype].numpy), "scalar")

    def ints(self, values) -> str:
        return self.const(np.array(list(values), dtype=np.int64), "ints")

    def cast(self, value: str, dtype: str) -> str:
        if self.dtypes.get(value) == dtype:
            return value
        return self.node("Cast", [value], dtype=dtype, to=DATA_TYPES[dtype].onnx)

    def where(self, cond: str, a: str, b: str) -> str:
        """ONNX Where of ``a``'s type, for every type: the types that ONNX Runtime's CPU kernel
        lacks in some version select in a wider type that holds the same values (uint64: the same
        bits) and are cast back, exactly."""
        dt = self.dtype(a)
        wide = _WHERE_WIDE.get(dt)
        if wide is None:
            return self.node("Where", [cond, a, b], dtype=dt)
        return self.cast(self.node("Where", [cond, self.cast(a, wide), self.cast(b, wide)], dtype=wide), dt)


# ONNX Runtime's CPU Where kernel: 1.30 has none for int8 and uint32, 1.32 none for uint64 (seen on
# the GPU machine, and here); float32/float16/int32/int64/uint8/bool select as themselves
_WHERE_WIDE = {"int8": "int32", "uint32": "int64", "uint64": "int64"}


def io_names(graph: GraphIR) -> tuple[dict[str, str], dict[str, str]]:
    """WebNN input/output names -> the lowered model's value names."""
    return ({name: f"input_{i}" for i, name in enumerate(graph.inputs)},
            {name: f"output_{i}" for i, name in enumerate(graph.outputs)})


def ort_storage(array: np.ndarray) -> np.ndarray:
    """int4 / uint4 arrays as the int8 / uint8 tensors that hold them on ONNX Runtime (values are
    kept in range by the lowerings that produce them: cast, quantizeLinear)."""
    if array.dtype == DATA_TYPES["int4"].numpy:
        return array.astype(np.int8)
    if array.dtype == DATA_TYPES["uint4"].numpy:
        return array.astype(np.uint8)
    return array


def lower_graph(graph: GraphIR, ir_version: int, external: bool = False, target: str = "native",
                fuse: bool = True):
    """GraphIR -> (onnx.ModelProto, input name map, output name map). ``ir_version``: the ONNX IR
    version the model declares; ``external``: the graph's big constants are left out of the model
    (see onnxruntime.external_constants), not copied into it; ``target``: OnnxLowering's;
    ``fuse``: patterns of several operators become the one ONNX operator the runtime runs faster
    (fuse_patterns; on the host only: a runtime whose support of those is unknown says False)."""
    from onnx import helper

    from webnn_bridge.ops import rewrite

    if fuse and target == "native":
        graph = rewrite.hard_swish(graph)  # ONNX HardSwish, which ONNX Runtime fuses into a convolution
    registry = load_all()
    lb = OnnxLowering(target)
    names: dict[int, str] = {}
    in_map, out_map = io_names(graph)
    graph_inputs = []
    for name, oid in graph.inputs.items():
        desc = graph.operands[oid]
        vname = in_map[name]
        names[oid] = vname
        lb.dtypes[vname], lb.shapes[vname] = desc.data_type, desc.shape
        graph_inputs.append(helper.make_tensor_value_info(vname, DATA_TYPES[desc.data_type].onnx, list(desc.shape)))
    for k, (oid, arr) in enumerate(graph.constants.items()):
        names[oid] = lb.graph_constant(k, arr) if external else lb.const(arr, f"c{oid}")
    for node in graph.nodes:
        op = registry[node.op]
        call = node.call.map_operands(lambda r: names[r.id], is_ref)
        outs = op.lower(lb, call)
        for oid, vname in zip(node.outputs, outs):
            desc = graph.operands[oid]
            # make the declared WebNN type hold even when a lowering computed in another type
            vname = lb.cast(vname, desc.data_type) if lb.dtypes.get(vname) not in (None, desc.data_type) else vname
            lb.dtypes[vname], lb.shapes[vname] = desc.data_type, desc.shape
            names[oid] = vname
    graph_outputs = []
    for name, oid in graph.outputs.items():
        desc = graph.operands[oid]
        vname = out_map[name]
        lb.nodes.append(helper.make_node("Identity", [names[oid]], [vname]))
        graph_outputs.append(helper.make_tensor_value_info(vname, DATA_TYPES[desc.data_type].onnx, list(desc.shape)))
    if fuse and target == "native":
        fuse_patterns(lb)
    fold_reshapes(lb)
    g = helper.make_graph(lb.nodes, "webnn", graph_inputs, graph_outputs, initializer=lb.initializers)
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="webnn-bridge")
    model.ir_version = ir_version
    return model, in_map, out_map


def serialize_graph(graph: GraphIR, ir_version: int, external: bool = False) -> bytes:
    return lower_graph(graph, ir_version, external)[0].SerializeToString()


# Graph constants of at least this many bytes are handed to ONNX Runtime as external initializers
# (the IR's arrays, not copied into the model): the model stays small (no protobuf copy of a
# model's weights, a compile cache entry of a few KB) and names them by their position in the
# graph's constants, which a compile cache key (graph_digest) fixes.
EXTERNAL_BYTES = 1024


def _external_name(k: int) -> str:
    return f"webnn_constant_{k}"


def is_external(array: np.ndarray) -> bool:
    return array.nbytes >= EXTERNAL_BYTES and array.dtype != object


# --------------------------------------------------------------------------- reshape folding

# --------------------------------------------------------------------------- pattern fusion

def fuse_patterns(lb: OnnxLowering) -> None:
    """Passes over the lowered nodes that compute the same values with fewer passes over the
    tensors, where the intermediate values involved have no other consumer:

    (Hard-swish spelled out is one hardSwish before the lowering, lower_graph: ops/rewrite.py.
    ONNX Runtime fuses its HardSwish into the convolution before it: an OCR direction classifier
    with 18 of them, 0.525 -> 0.401 ms a run; the OCR recogniser, 28, 10.3 -> 9.4 ms.)

    - a convolution's output scaled or shifted by a one-element constant (directly or after
      another such step: PP-LCNetV3's learnable affine blocks) gets that constant as one value per
      output channel, a broadcast of the same values, which ONNX Runtime folds into the
      convolution's weights and bias (its ConvMulFusion and ConvAddFusion take per-channel
      constants only);
    - any other float32 [N, C, H, W] value scaled and shifted so (PP-LCNetV3's step after its
      activation) becomes one BatchNormalization (mean 0, variance 1, epsilon 0: x * s + b),
      which ONNX Runtime runs inside its NCHWc layout as a depthwise convolution instead of
      leaving the layout for two kernels and coming back (the OCR recogniser's optimized model:
      61 NCHWc reorders -> 7, 7.09 -> 5.57 ms a run; the detector 86 -> 39, 7.42 -> 6.36 ms)."""
    from onnx import AttributeProto, helper

    nodes = lb.nodes
    if any(a.type in (AttributeProto.GRAPH, AttributeProto.GRAPHS) for n in nodes for a in n.attribute):
        return  # a subgraph may read outer values: their consumers are not all in this list
    made, uses = _producers_and_uses(nodes)
    affine: set[str] = set()  # a convolution's outputs scaled or shifted so far
    for k, n in enumerate(nodes):
        if n.op_type not in ("Mul", "Add") or len(n.input) != 2:
            continue
        for v, c in (tuple(n.input), tuple(n.input[::-1])):
            src, a, shape = made.get(v), lb.constant(c), lb.shapes.get(v)
            if (src is None or not (src.op_type == "Conv" or v in affine) or uses.get(v) != 1 or not _one_float(a)
                    or shape is None or len(shape) < 3 or lb.shapes.get(n.output[0]) != shape):
                continue
            per_channel = np.full((shape[1],) + (1,) * (len(shape) - 2), a.reshape(()), np.float32)
            nodes[k] = helper.make_node(n.op_type, [v, lb.const(per_channel, "per_channel")], list(n.output))
            affine.add(n.output[0])
            break

    made, uses = _producers_and_uses(nodes)
    gone_steps: set[int] = set()
    for k, n in enumerate(nodes):
        found = None if n.output[0] in affine else _scale_then_shift(lb, n, made, uses)
        if found is None:
            continue
        mul, v, scale, shift = found
        channels = lb.shapes[v][1]
        stats = [lb.const(np.full((channels,), value, np.float32), hint)
                 for value, hint in ((scale, "bn_scale"), (shift, "bn_shift"), (0.0, "bn_mean"), (1.0, "bn_var"))]
        nodes[k] = helper.make_node("BatchNormalization", [v, *stats], list(n.output), epsilon=0.0)
        gone_steps.add(id(mul))
    nodes[:] = [n for n in nodes if id(n) not in gone_steps]


def _scale_then_shift(lb: OnnxLowering, add, made: dict, uses: dict[str, int]):
    """(the Mul, x, s, b) when node ``add`` computes x * s + b of a float32 [N, C, H, W] value x
    with one-element constants s and b, and nothing else reads x * s; else None."""
    if add.op_type != "Add" or len(add.input) != 2:
        return None
    for product, c in (tuple(add.input), tuple(add.input[::-1])):
        mul, b = made.get(product), lb.constant(c)
        if mul is None or mul.op_type != "Mul" or uses.get(product) != 1 or not _one_float(b):
            continue
        for x, c2 in (tuple(mul.input), tuple(mul.input[::-1])):
            s = lb.constant(c2)
            shape = lb.shapes.get(x)
            if (_one_float(s) and lb.constant(x) is None and shape is not None and len(shape) == 4
                    and lb.dtypes.get(x) == "float32" and lb.shapes.get(add.output[0]) == shape):
                return mul, x, float(s.reshape(())), float(b.reshape(()))
    return None


def _one_float(a) -> bool:
    return a is not None and a.size == 1 and a.dtype == np.float32


def _producers_and_uses(nodes) -> tuple[dict, dict[str, int]]:
    """Each value's node, and how many node inputs read it."""
    made = {o: n for n in nodes for o in n.output}
    uses: dict[str, int] = {}
    for n in nodes:
        for i in n.input:
            uses[i] = uses.get(i, 0) + 1
    return made, uses


_RESHAPES = ("Reshape", "Squeeze", "Unsqueeze")


def fold_reshapes(lb: OnnxLowering) -> None:
    """A pass over the lowered nodes (all shapes static) that changes no value. A Reshape /
    Squeeze / Unsqueeze (with a constant shape or axes) reading another one's output reads that
    one's input instead, as a Reshape to its own output shape, and the other goes when nothing
    else reads it (so a chain whose intermediate values have no other consumer becomes one
    Reshape); a Reshape to its input's own shape goes (its consumers read the input); a Reshape
    of an initializer inside the model that nothing else reads becomes that initializer with the
    new dims; initializers inside the model that no node reads any more go.
    Graph outputs are read by the Identity nodes lower_graph ends with, so they count as consumers
    like any other (and are never made by a node this pass removes). Such chains come from
    onnxruntime-web's WebNN EP (a 1-D Conv sent as reshape -> conv2d -> reshape) meeting the
    reshapes of conv2d's own 1-D lowering; without them ONNX Runtime fuses Conv with the
    activation after it and keeps it out of its NCHWc layout."""
    from onnx import AttributeProto, TensorProto

    nodes = lb.nodes
    if any(a.type in (AttributeProto.GRAPH, AttributeProto.GRAPHS) for n in nodes for a in n.attribute):
        return  # a subgraph may read outer values: their consumers are not all in this list
    inits = {t.name: t for t in lb.initializers}

    def ints(name: str) -> list[int] | None:
        a = lb.constant(name)
        return [int(v) for v in a] if a is not None and a.dtype == np.int64 and a.ndim == 1 else None

    shapes = dict(lb.shapes)
    _, uses = _producers_and_uses(nodes)
    rename: dict[str, str] = {}
    made_by: dict[str, int] = {}  # value -> position in ``kept`` of the Reshape that makes it
    kept: list = []
    for n in nodes:
        for k, i in enumerate(n.input):
            if i in rename:
                n.input[k] = rename[i]
        target = _target_shape(n, shapes, ints) if n.op_type in _RESHAPES else None
        if target is None:
            kept.append(n)
            continue
        out, src = n.output[0], n.input[0]
        shapes[out] = target
        prev = made_by.get(src)
        if prev is not None:  # a chain: read what its earlier Reshape reads
            earlier = kept[prev]
            uses[src] -= 1
            src = earlier.input[0]
            if uses[earlier.output[0]]:
                uses[src] += 1  # the earlier one stays for its other consumers
            else:
                kept[prev] = None  # nothing else reads it: it goes, its read passes to this node
        if src in shapes and tuple(shapes[src]) == target:  # nothing to reshape
            rename[out] = src
            uses[src] += uses.get(out, 0) - 1
            continue
        t = inits.get(src)
        if t is not None and uses[src] == 1 and lb.constant(src) is not None:
            del t.dims[:]  # the initializer itself takes the shape (its data is the same)
            t.dims.extend(target)
            lb._arrays[src] = lb._arrays[src].reshape(target)
            shapes[src] = target
            rename[out] = src
            uses[src] = uses.get(out, 0)
            continue
        if src != n.input[0]:  # it reads another value now: a Reshape of that one
            n = make_node("Reshape", [src, lb.ints(target)], [out], {})
        made_by[out] = len(kept)
        kept.append(n)
    lb.nodes = [n for n in kept if n is not None]
    read = {i for n in lb.nodes for i in n.input}
    lb.initializers = [t for t in lb.initializers if t.name in read or t.data_location == TensorProto.EXTERNAL]


def _target_shape(node, shapes: dict, ints) -> tuple[int, ...] | None:
    """The static output shape of a Reshape / Squeeze / Unsqueeze node with constant shape or
    axes and no attributes; None when it is not known, or has a 0 (a Reshape would copy it)."""
    if node.attribute or len(node.output) != 1:
        return None
    if node.op_type == "Reshape":
        target = ints(node.input[1]) if len(node.input) == 2 else None
    else:
        shape = shapes.get(node.input[0])
        axes = ints(node.input[1]) if len(node.input) == 2 and node.input[1] else None
        if shape is None or (axes is None and (node.op_type == "Unsqueeze" or len(node.input) == 2)):
            return None
        rank = len(shape) + (0 if node.op_type == "Squeeze" else len(axes))
        if axes is not None and not all(-rank <= a < rank for a in axes):
            return None
        if node.op_type == "Squeeze":
            drop = {a % rank for a in axes} if axes is not None else {k for k, d in enumerate(shape) if d == 1}
            if any(shape[k] != 1 for k in drop):
                return None
            target = [d for k, d in enumerate(shape) if k not in drop]
        else:
            at = {a % rank for a in axes}
            if len(at) != len(axes):
                return None
            rest = iter(shape)
            target = [1 if k in at else next(rest) for k in range(rank)]
    if target is None or any(d <= 0 for d in target):
        return None
    return tuple(target)
