"""LiteRT backend (Google's TensorFlow Lite runtime, `ai-edge-litert` on PyPI): WebNN graphs lowered
to a TFLite model one op at a time by each op's own ``litert`` lowering (ops/defs/*.py, next to its
ONNX ``lower``), run by LiteRT's interpreter with its XNNPACK kernels on the CPU: the kernels
Chromium's own WebNN runs on Linux.

Why: XNNPACK computes convolutions channels-last, and ONNX Runtime's blocked (NCHWc) kernels pad
odd channel counts. On one thread, openWakeWord's speech embedding (24 and 72 channels) ran
10-20% faster here than on ONNX Runtime, and the same for an OCR direction classifier's runs
after a pause; MobileNetV2 (0.6 GFLOP) ran as fast on one thread and 20% faster on two. The default
rules' one route (rules.toml §4b) sends float32 convolution networks up to 1 GFLOP here: one thread
under 0.3 GFLOP, a pool above (docs/performance.md "LiteRT").

Layout: TFLite's convolutions and pools take NHWC. A 4-D value a convolution or pool made from
an NCHW input stays in NHWC (``LiteValue.nhwc``), element-wise ops keep it so (their constants are
transposed when the model is built), and a transpose brings it back to NCHW only where an op needs
the value's own layout (a reshape, a graph output). A transpose that only moves axes of size 1 is
a reshape.

v0: float32 values only, rank 4 at most, and the ops with a ``litert`` lowering; a graph with
anything else is not this backend's (capabilities), and the policy places it elsewhere. After the
lowering, ``LiteBuilder.fuse`` does what ONNX Runtime's optimizer does for the ONNX lowering:
a constant multiplying or added to a convolution's output goes into its filter and bias, and a
following RELU / RELU6 becomes its fused activation. Before the lowering, hard-swish spelled out as
four ops becomes one hardSwish (ops/rewrite.py), TFLite's HARD_SWISH.

Compile cache (backends/cache.py): the artifact is the TFLite model, constants inside. An
identical build (a page reload) shares the interpreter; a restarted host makes one from the stored
model, without lowering the graph again.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import os
import sys
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from webnn_bridge.ops import rewrite
from webnn_bridge.ops.core import OperationError, UnknownError
from webnn_bridge.ops.graph import GraphIR
from webnn_bridge.ops.registry import load_all

from . import base
from .base import (
    Backend,
    Capabilities,
    Compiled,
    Device,
    HoldsPool,
    code_fingerprint,
    graph_threads,
    lower_nodes,
)

LITERT_TYPES = ("float32",)
MAX_RANK = 4
TO_NHWC = (0, 2, 3, 1)
TO_NCHW = (0, 3, 1, 2)


@functools.cache
def _schema():
    from ai_edge_litert import schema_py_generated as schema

    return schema


@dataclass(eq=False)
class LiteValue:
    """A value of the model being built: its tensor, its shape as stored, whether it is an NCHW
    value stored as NHWC, and its array where it is a constant (in its logical layout)."""

    index: int
    shape: tuple[int, ...]
    nhwc: bool = False
    const: np.ndarray | None = None

    @property
    def logical_shape(self) -> tuple[int, ...]:
        return tuple(self.shape[i] for i in TO_NCHW) if self.nhwc else self.shape


def _moves_only_ones(shape: Sequence[int], perm: Sequence[int]) -> bool:
    """Whether transposing ``shape`` by ``perm`` keeps the order of its axes longer than 1 (then the
    transpose is a reshape)."""
    big = [p for p in perm if shape[p] != 1]
    return big == sorted(big)


class LiteBuilder:
    """What an op's ``litert`` lowering uses to add tensors and operators to the model."""

    def __init__(self):
        self.s = _schema()
        s = self.s
        self.model = s.ModelT()
        self.model.version = 3
        self.model.description = "webnn-bridge"
        self.model.buffers = [s.BufferT()]  # buffer 0: no data (a computed tensor's)
        self.subgraph = s.SubGraphT()
        self.subgraph.tensors = []
        self.subgraph.operators = []
        self.codes: list[int] = []
        self._logical: dict[int, LiteValue] = {}  # tensor of an NHWC value -> its NCHW transpose
        self._nhwc: dict[int, LiteValue] = {}  # tensor of an NCHW value -> its NHWC transpose
        self.ops = s.BuiltinOperator
        self.options = s.BuiltinOptions

    # -- tensors
    def _tensor(self, shape, data: np.ndarray | None = None, ttype: int | None = None) -> int:
        s = self.s
        t = s.TensorT()
        t.shape = [int(d) for d in shape]
        t.type = s.TensorType.FLOAT32 if ttype is None else ttype
        t.name = f"t{len(self.subgraph.tensors)}"
        t.buffer = 0
        if data is not None:
            b = s.BufferT()
            # its bytes, as a numpy array (finish() places them after the flatbuffer)
            b.data = np.ascontiguousarray(data).reshape(-1).view(np.uint8)
            self.model.buffers.append(b)
            t.buffer = len(self.model.buffers) - 1
        self.subgraph.tensors.append(t)
        return len(self.subgraph.tensors) - 1

    def constant(self, array: np.ndarray) -> LiteValue:
        # no copy of a graph's float32 constant (it is only read); ascontiguousarray would make a scalar 1-D
        a = np.asarray(array, np.float32, order="C")
        return LiteValue(self._tensor(a.shape, a), tuple(a.shape), const=a)

    def ints(self, values: Sequence[int], shape: Sequence[int] | None = None) -> int:
        """An int32 constant tensor (shapes, permutations, paddings)."""
        a = np.asarray(values, np.int32)
        if shape is not None:
            a = a.reshape(shape)
        return self._tensor(a.shape, a, self.s.TensorType.INT32)

    def value(self, shape) -> LiteValue:
        return LiteValue(self._tensor(shape), tuple(int(d) for d in shape))

    # -- operators
    def op(self, code: int, inputs: Sequence[LiteValue | int], shape, options_type: int = 0, options=None,
           nhwc: bool = False) -> LiteValue:
        """Adds an operator with one output of ``shape`` (as stored); -1 in ``inputs``: absent."""
        s = self.s
        if code not in self.codes:
            self.codes.append(code)
        out = self.value(shape)
        out.nhwc = nhwc
        o = s.OperatorT()
        o.opcodeIndex = self.codes.index(code)
        o.inputs = [i.index if isinstance(i, LiteValue) else int(i) for i in inputs]
        o.outputs = [out.index]
        if options is not None:
            o.builtinOptionsType = options_type
            o.builtinOptions = options
        self.subgraph.operators.append(o)
        return out

    def opts(self, name: str, **fields):
        """A builtin options object (e.g. "Conv2DOptions") with its fields set."""
        o = getattr(self.s, name + "T")()
        for k, v in fields.items():
            setattr(o, k, v)
        return getattr(self.options, name), o

    def transpose(self, v: LiteValue, perm: Sequence[int]) -> LiteValue:
        """``v`` (as stored) transposed; a reshape where only axes of size 1 move."""
        shape = tuple(v.shape[p] for p in perm)
        if v.const is not None:
            return self.constant(np.transpose(v.const if not v.nhwc else np.transpose(v.const, TO_NHWC), perm))
        if _moves_only_ones(v.shape, perm):
            return self.reshape(v, shape)
        return self.op(self.ops.TRANSPOSE, [v, self.ints(perm)], shape)

    def reshape(self, v: LiteValue, shape) -> LiteValue:
        shape = tuple(int(d) for d in shape)
        if v.const is not None:
            return self.constant(v.const.reshape(shape))
        if tuple(v.shape) == shape:
            return v
        opt = self.opts("ReshapeOptions", newShape=list(shape))
        return self.op(self.ops.RESHAPE, [v, self.ints(shape)], shape, *opt)

    # -- layouts
    def logical(self, v: LiteValue) -> LiteValue:
        """``v`` stored in its own layout (an NHWC-stored NCHW value transposed back)."""
        if not v.nhwc:
            return v
        if v.const is not None:
            return self.constant(v.const)
        if v.index not in self._logical:
            self._logical[v.index] = self.transpose(LiteValue(v.index, v.shape), TO_NCHW)
        return self._logical[v.index]

    def as_nhwc(self, v: LiteValue) -> LiteValue:
        """A 4-D NCHW value stored as NHWC (the layout of TFLite's convolutions and pools)."""
        if v.nhwc:
            return v
        if v.index not in self._nhwc:
            t = self.transpose(v, TO_NHWC)
            self._nhwc[v.index] = LiteValue(t.index, t.shape, nhwc=True, const=v.const)
        return self._nhwc[v.index]

    def like(self, v: LiteValue, other: LiteValue) -> LiteValue:
        """``other`` stored the way ``v`` is, for an element-wise op with ``v`` (numpy broadcasting
        of the logical shapes): an operand of a 4-D NHWC-stored value gets rank 4 and NHWC too."""
        if not v.nhwc or other.nhwc:
            return other
        logical = other.logical_shape
        if len(logical) > 4:
            raise NotImplementedError("an element-wise operand of rank over 4")
        if other.const is not None:
            full = other.const.reshape((1,) * (4 - len(logical)) + tuple(logical))
            return LiteValue(self.constant(np.transpose(full, TO_NHWC)).index,
                             tuple(full.shape[i] for i in TO_NHWC), nhwc=True, const=other.const)
        if len(logical) < 4:
            other = self.reshape(other, (1,) * (4 - len(logical)) + tuple(logical))
        return self.as_nhwc(other)

    def elementwise(self, code: int, values: Sequence[LiteValue], options_type: int = 0, options=None) -> LiteValue:
        """An element-wise op: inputs stored alike (NHWC where one of them is), numpy broadcasting."""
        lead = next((v for v in values if v.nhwc), None)
        if lead is not None:
            values = [self.like(lead, v) for v in values]
        shape = np.broadcast_shapes(*[v.shape for v in values])
        return self.op(code, values, shape, options_type, options, nhwc=lead is not None)

    # -- convolutions and pools (NHWC values)
    def pad_hw(self, v: LiteValue, padding: Sequence[int], fill: float = 0.0) -> LiteValue:
        """An NHWC-stored value padded in height and width by ``padding`` [beginH, endH, beginW,
        endW] with ``fill``."""
        if not any(padding):
            return v
        n, h, w, c = v.shape
        pads = self.ints([0, 0, padding[0], padding[1], padding[2], padding[3], 0, 0], (4, 2))
        shape = (n, h + padding[0] + padding[1], w + padding[2] + padding[3], c)
        if fill == 0.0:
            return self.op(self.ops.PAD, [v, pads], shape, nhwc=v.nhwc)
        return self.op(self.ops.PADV2, [v, pads, self.constant(np.array([fill], np.float32))], shape, nhwc=v.nhwc)

    def padding_mode(self, in_hw, window, padding, strides, dilations) -> tuple[int, list[int]]:
        """(TFLite padding, the padding still to add): SAME where ``padding`` is TFLite's SAME
        padding for these sizes, else VALID and all of it."""
        same = []
        for i in range(2):
            eff = (window[i] - 1) * dilations[i] + 1
            out = -(-in_hw[i] // strides[i])
            total = max((out - 1) * strides[i] + eff - in_hw[i], 0)
            same += [total // 2, total - total // 2]
        if list(padding) == same and any(same):
            return self.s.Padding.SAME, [0, 0, 0, 0]
        return self.s.Padding.VALID, list(padding)

    # -- fusion
    def const_array(self, index: int) -> np.ndarray | None:
        """The float32 array of a constant tensor, else None."""
        t = self.subgraph.tensors[index]
        if t.buffer == 0 or t.type != self.s.TensorType.FLOAT32:
            return None
        return np.frombuffer(self.model.buffers[t.buffer].data.tobytes(), np.float32).reshape(t.shape)

    def fuse(self, outputs: Sequence[int]) -> None:
        """Passes over the operators that compute the same values with fewer kernels, where the
        values in between have no other reader (the graph's outputs count as readers):

        - a convolution's output multiplied by a constant, one value per output channel or one for
          all, becomes the convolution with its filter and bias scaled (hardSigmoid's alpha after a
          squeeze-and-excitation block's convolution);
        - a constant added to a convolution's output, one value per output channel or one for all,
          goes into the convolution's bias (hardSigmoid's beta);
        - RELU, RELU6 or RELU_N1_TO_1 after a convolution becomes its fused activation."""
        ops, codes = self.subgraph.operators, self.codes
        B = self.ops

        def code(o) -> int:
            return codes[o.opcodeIndex]

        def index():
            made, uses = {}, {}
            for o in ops:
                for t in o.outputs:
                    made[t] = o
                for t in o.inputs:
                    uses[t] = uses.get(t, 0) + 1
            for t in outputs:
                uses[t] = uses.get(t, 0) + 1
            return made, uses

        def only(made, uses, t: int, want: int):
            o = made.get(t)
            return o if o is not None and code(o) == want and uses.get(t) == 1 else None

        convs = (B.CONV_2D, B.DEPTHWISE_CONV_2D)

        def conv_and_constant(made, uses, o):
            """(conv, constant, conv's bias), the arrays flat, where ``o`` combines a convolution's
            output that nothing else reads (and that has no fused activation) with a constant of
            one value or one per output channel, into a value of the output's shape."""
            if len(o.inputs) != 2 or o.builtinOptions is not None and o.builtinOptions.fusedActivationFunction:
                return None
            for v, c in (tuple(o.inputs), tuple(o.inputs[::-1])):
                conv = only(made, uses, v, convs[0]) or only(made, uses, v, convs[1])
                a = self.const_array(c)
                bias = conv and self.const_array(conv.inputs[2])
                if conv is None or a is None or bias is None or conv.builtinOptions.fusedActivationFunction:
                    continue
                channels = bias.shape[0]
                if a.size not in (1, channels) or (a.size == channels and a.shape[-1] != channels):
                    continue
                if self.subgraph.tensors[o.outputs[0]].shape != self.subgraph.tensors[v].shape:
                    continue
                return conv, a.reshape(-1), bias
            return None

        made, uses = index()
        gone = set()
        for o in list(ops):  # a convolution's output scaled by a constant: scaled filter and bias
            found = code(o) == B.MUL and conv_and_constant(made, uses, o)
            filt = found and self.const_array(found[0].inputs[1])
            if not found or filt is None:
                continue
            conv, a, bias = found
            # the filter's output channels: CONV_2D [O, H, W, I], DEPTHWISE_CONV_2D [1, H, W, O]
            scale = a.reshape((-1, 1, 1, 1) if code(conv) == B.CONV_2D else (1, 1, 1, -1))
            conv.inputs[1] = self.constant(filt * scale).index
            conv.inputs[2] = self.constant(bias * a).index
            conv.outputs = list(o.outputs)
            made[o.outputs[0]] = conv  # a later step of another constant folds in too
            gone.add(id(o))
        ops[:] = [o for o in ops if id(o) not in gone]

        made, uses = index()
        gone = set()
        for o in list(ops):  # a per-channel (or single) constant added to a convolution's output: its bias
            found = code(o) == B.ADD and conv_and_constant(made, uses, o)
            if not found:
                continue
            conv, a, bias = found
            conv.inputs[2] = self.constant(bias + a).index
            conv.outputs = list(o.outputs)
            made[o.outputs[0]] = conv  # a later add of another constant folds in too
            gone.add(id(o))
        ops[:] = [o for o in ops if id(o) not in gone]

        made, uses = index()
        acts = {B.RELU: self.s.ActivationFunctionType.RELU, B.RELU6: self.s.ActivationFunctionType.RELU6,
                B.RELU_N1_TO_1: self.s.ActivationFunctionType.RELU_N1_TO_1}
        gone = set()
        for o in ops:  # an activation after a convolution: its fused one
            if code(o) not in acts:
                continue
            conv = only(made, uses, o.inputs[0], convs[0]) or only(made, uses, o.inputs[0], convs[1])
            if conv is None or conv.builtinOptions.fusedActivationFunction:
                continue
            conv.builtinOptions.fusedActivationFunction = acts[code(o)]
            conv.outputs = list(o.outputs)
            gone.add(id(o))
        ops[:] = [o for o in ops if id(o) not in gone]

    def _prune(self, inputs: Sequence[LiteValue], outputs: Sequence[LiteValue]) -> None:
        """Only the tensors (and constants' buffers) an operator, input or output names stay: a
        constant the lowering replaced (a filter transposed, a bias fused into) is not written
        twice. Renumbers the tensors, and ``inputs`` / ``outputs`` with them."""
        used = {v.index for v in [*inputs, *outputs]}
        for o in self.subgraph.operators:
            used.update(i for i in o.inputs if i >= 0)
            used.update(o.outputs)
        keep = sorted(used)
        new = {old: k for k, old in enumerate(keep)}
        tensors, buffers = [], [self.model.buffers[0]]
        for old in keep:
            t = self.subgraph.tensors[old]
            if t.buffer != 0:
                buffers.append(self.model.buffers[t.buffer])
                t.buffer = len(buffers) - 1
            tensors.append(t)
        self.subgraph.tensors, self.model.buffers = tensors, buffers
        for o in self.subgraph.operators:
            o.inputs = [new[i] if i >= 0 else i for i in o.inputs]
            o.outputs = [new[i] for i in o.outputs]
        for v in [*inputs, *outputs]:
            v.index = new[v.index]

    # -- the model
    def finish(self, inputs: Sequence[LiteValue], outputs: Sequence[LiteValue]) -> bytes:
        """The TFLite model: the flatbuffer of its operators and tensors, then the constants' bytes
        after it, each buffer naming its own by offset and size (TFLite's layout for models over
        2 GB, which its interpreter reads for any model). The flatbuffer is built without them and
        the constants are copied once, into the model: packing them into the flatbuffer copied
        each twice more (MobileNetV2's 14 MB: finish() 12-56 ms, now 8-20)."""
        import flatbuffers

        s = self.s
        self._prune(inputs, outputs)
        self.subgraph.inputs = [v.index for v in inputs]
        self.subgraph.outputs = [v.index for v in outputs]
        self.model.subgraphs = [self.subgraph]
        self.model.operatorCodes = []
        for code in self.codes:
            oc = s.OperatorCodeT()
            oc.builtinCode = code
            oc.deprecatedBuiltinCode = min(code, 127)  # PLACEHOLDER_FOR_GREATER_OP_CODES beyond 127
            oc.version = 1
            self.model.operatorCodes.append(oc)
        placed = [_placed_buffer(b.data) if b.data is not None and len(b.data) else b for b in self.model.buffers]
        self.model.buffers = placed
        builder = flatbuffers.Builder(64 * len(self.subgraph.tensors) + 256 * len(self.subgraph.operators)
                                      + 64 * len(placed) + 4096)
        builder.Finish(self.model.Pack(builder), file_identifier=b"TFL3")
        head = bytearray(memoryview(builder.Bytes)[builder.Head():])
        parts, end = [head], len(head)
        for b in placed:
            if getattr(b, "bytes", None) is None:  # buffer 0, or one of no bytes
                continue
            pad = -end % BUFFER_ALIGN
            if pad:
                parts.append(bytes(pad))
                end += pad
            _set_offset(head, len(head) - b.position, end)
            parts.append(b.bytes)
            end += len(b.bytes)
        return b"".join(parts)  # the interpreter takes bytes: the constants' one copy


BUFFER_ALIGN = 64  # each constant's bytes start on a cache line of the model (XNNPACK reads them once, to pack)
_UNPLACED = 1 << 40  # a buffer's offset until the flatbuffer is built (TFLite reads 0 and 1 as "no offset")


@functools.cache
def _placed_buffer_type():
    class PlacedBuffer(_schema().BufferT):
        """A Buffer whose bytes follow the flatbuffer: packed with a stand-in offset (8 bytes, as
        the real one), its table's position kept for _set_offset."""

        def Pack(self, builder):  # noqa: N802 (flatbuffers' object API)
            self.position = super().Pack(builder)
            return self.position

    return PlacedBuffer


def _placed_buffer(data: np.ndarray):
    b = _placed_buffer_type()(None, _UNPLACED, data.nbytes)
    b.bytes = memoryview(np.ascontiguousarray(data)).cast("B")
    return b


def _set_offset(model: bytearray, table: int, offset: int) -> None:
    """A Buffer table's offset field (the table at ``table`` in the finished flatbuffer) set to
    ``offset``: through the table's vtable, as a flatbuffers reader finds it (field 1: data, offset,
    size)."""
    vtable = table - int.from_bytes(model[table:table + 4], "little", signed=True)
    field = int.from_bytes(model[vtable + 6:vtable + 8], "little")
    if not field or int.from_bytes(model[table + field:table + field + 8], "little") != _UNPLACED:
        raise OperationError("LiteRT: a constant's place in the model could not be set")
    model[table + field:table + field + 8] = offset.to_bytes(8, "little")


def litert_ops() -> list[str]:
    """The ops that have a LiteRT lowering."""
    return sorted(name for name, op in load_all().items() if op.litert is not None)


def tflite_model(graph: GraphIR) -> bytes:
    """GraphIR -> TFLite flatbuffer, its inputs and outputs in the graph's order. Raises
    OperationError where the graph is not this backend's."""
    graph = rewrite.hard_swish(graph)
    lt = LiteBuilder()
    values: dict[int, LiteValue] = {}
    inputs = []
    for name, oid in graph.inputs.items():
        desc = graph.operands[oid]
        if desc.data_type not in LITERT_TYPES or len(desc.shape) > MAX_RANK:
            raise OperationError(f"LiteRT: input {name} ({desc}) is not supported")
        values[oid] = lt.value(desc.shape)
        inputs.append(values[oid])
    for oid, arr in graph.constants.items():
        if np.asarray(arr).dtype != np.float32:
            raise OperationError(f"LiteRT: a constant of {np.asarray(arr).dtype} is not supported")
        values[oid] = lt.constant(np.asarray(arr))

    def check(v: LiteValue, oid: int, what: str) -> None:
        want = tuple(graph.operands[oid].shape)
        if v.logical_shape != want:
            raise OperationError(f"LiteRT: {what}: {list(v.logical_shape)} against WebNN's {list(want)}")

    lower_nodes(graph, values, "litert", lt, "LiteRT", check)
    outputs = []
    for oid in graph.outputs.values():
        v = lt.logical(values[oid])
        if v.const is not None or any(v.index == o.index for o in [*inputs, *outputs]):
            # an output that is a constant, an input or another output: a copy of its own
            v = lt.op(lt.ops.RESHAPE, [v, lt.ints(v.shape)], v.shape, *lt.opts("ReshapeOptions", newShape=list(v.shape)))
        outputs.append(v)
    lt.fuse([v.index for v in outputs])
    return lt.finish(inputs, outputs)


class LiteRTCompiled(HoldsPool, Compiled):
    """``model``: the graph's TFLite model where it is known (the compile cache's artifact)."""

    def __init__(self, graph: GraphIR, threads: int, model: bytes | None = None):
        from ai_edge_litert.interpreter import Interpreter

        model = tflite_model(graph) if model is None else model
        self.in_names, self.out_names = list(graph.inputs), list(graph.outputs)  # the model's order
        # a pool of XNNPACK's (threads - 1 of its own) while the bound on pools allows (base.POOL_SLOTS,
        # shared with ONNX Runtime's sessions), else the caller's thread alone
        self.threads = self.take_pool(threads)
        try:
            self.interpreter = Interpreter(model_content=model, num_threads=self.threads)
            self.interpreter.allocate_tensors()
        except (RuntimeError, ValueError) as e:  # the runtime refuses the model: a compile failure
            self.close()
            raise OperationError(f"LiteRT could not compile the graph: {e}") from None
        self.in_index = [d["index"] for d in self.interpreter.get_input_details()]
        self.out_index = [d["index"] for d in self.interpreter.get_output_details()]
        self._lock = threading.Lock()  # an interpreter runs one invocation at a time

    def run(self, inputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        it = self.interpreter
        with self._lock:
            try:
                for name, index in zip(self.in_names, self.in_index):
                    a = np.asarray(inputs[name], np.float32)
                    it.set_tensor(index, a if a.flags.c_contiguous else a.copy())
                it.invoke()
                return {name: it.get_tensor(index).copy() for name, index in zip(self.out_names, self.out_index)}
            except (RuntimeError, ValueError) as e:
                raise UnknownError(f"LiteRT could not execute the graph: {e}") from None

    def close(self) -> None:
        self.interpreter = None
        self.give_back_pool()  # its pool's thread ends with the interpreter


@contextlib.contextmanager
def _stderr_silenced():
    """File descriptor 2 to /dev/null for the block: TFLite's runtime prints one INFO line to it the
    first time a process makes an XNNPACK delegate, and no setting of its turns that off; a host's
    stderr is its log (warm_up runs before the host serves, on its one thread)."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


class LiteRTBackend(Backend):
    name = "litert"
    cpu_modes = True  # num_threads per compiled graph

    @classmethod
    def probe(cls) -> list[Device]:
        if importlib.util.find_spec("ai_edge_litert") is None:
            return []
        return [Device(id="litert:CPU", kind="cpu", backend=cls.name, name="LiteRT CPU (XNNPACK)")]

    def capabilities(self, device: Device) -> Capabilities:
        from .capabilities import capabilities_from_spec

        ops = litert_ops()
        return capabilities_from_spec({"ops": ops, "dataTypes": list(LITERT_TYPES), "maxRank": MAX_RANK,
                                       "opDataTypes": {op: list(LITERT_TYPES) for op in ops}})

    def implements(self, op: str) -> bool:
        return load_all()[op].litert is not None

    def warm_up(self) -> None:
        """The runtime loaded (ai_edge_litert's import takes about 0.25 s, its shared libraries) and
        XNNPACK set up, by one tiny convolution, before the host serves: not in a first build."""
        from ai_edge_litert.interpreter import Interpreter

        lt = LiteBuilder()
        x = lt.value((1, 4, 4, 2))
        opt = lt.opts("Conv2DOptions", padding=lt.s.Padding.VALID, strideH=1, strideW=1, dilationHFactor=1,
                      dilationWFactor=1)
        y = lt.op(lt.ops.CONV_2D, [x, lt.constant(np.ones((2, 1, 1, 2), np.float32)),
                                   lt.constant(np.zeros(2, np.float32))], (1, 4, 4, 2), *opt)
        with _stderr_silenced():  # TFLite's "INFO: Created TensorFlow Lite XNNPACK delegate for CPU.", once
            it = Interpreter(model_content=lt.finish([x], [y]), num_threads=1)
            it.allocate_tensors()
            it.invoke()

    def compile(self, graph: GraphIR, device: Device) -> Compiled:
        return LiteRTCompiled(graph, graph_threads(graph, device.threads))

    # the compile cache keeps the TFLite model, constants inside: an identical build (a reload)
    # shares the interpreter, a restarted host makes one from the model without lowering the graph
    def cache_token(self, device: Device) -> str:
        # base.py too: its lower_nodes walks the graph for this lowering
        token = ("litert", _runtime_version(), device.id, code_fingerprint(__file__, base.__file__))
        return repr((*token, ("threads", device.threads)) if device.threads else token)

    def artifact(self, graph: GraphIR, device: Device) -> bytes:
        return tflite_model(graph)

    def load_artifact(self, artifact: bytes, graph: GraphIR, device: Device) -> Compiled:
        return LiteRTCompiled(graph, graph_threads(graph, device.threads), artifact)


@functools.cache
def _runtime_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("ai-edge-litert")
    except PackageNotFoundError:  # importable without its metadata (a vendored copy)
        return "unknown"
