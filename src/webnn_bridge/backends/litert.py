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
import struct as _struct
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


class _Tensor:
    """A tensor of the model being built (the fields of TFLite's Tensor table it sets)."""

    __slots__ = ("shape", "type", "name", "buffer")

    def __init__(self, shape: list[int], type: int, name: str, buffer: int):  # noqa: A002 (the schema's name)
        self.shape, self.type, self.name, self.buffer = shape, type, name, buffer


class _Operator:
    """An operator of the model being built (TFLite's Operator table): its options, a builtin
    options object of the schema's object API (e.g. Conv2DOptionsT), or None."""

    __slots__ = ("opcodeIndex", "inputs", "outputs", "builtinOptionsType", "builtinOptions")

    def __init__(self, opcode_index: int, inputs: list[int], outputs: list[int], options_type: int, options):
        self.opcodeIndex, self.inputs, self.outputs = opcode_index, inputs, outputs
        self.builtinOptionsType, self.builtinOptions = options_type, options


class _Buffer:
    """A buffer of the model being built: a constant's bytes (a numpy array of uint8), or None."""

    __slots__ = ("data",)

    def __init__(self, data: np.ndarray | None):
        self.data = data


_FLOAT32, _INT32 = 0, 2  # TFLite's TensorType values (schema.fbs)
DESCRIPTION = b"webnn-bridge"


def _moves_only_ones(shape: Sequence[int], perm: Sequence[int]) -> bool:
    """Whether transposing ``shape`` by ``perm`` keeps the order of its axes longer than 1 (then the
    transpose is a reshape)."""
    big = [p for p in perm if shape[p] != 1]
    return big == sorted(big)


class LiteBuilder:
    """What an op's ``litert`` lowering uses to add tensors and operators to the model."""

    def __init__(self):
        self.s = _schema()
        self.buffers: list[_Buffer] = [_Buffer(None)]  # buffer 0: no data (a computed tensor's)
        self.tensors: list[_Tensor] = []
        self.operators: list[_Operator] = []
        self.codes: list[int] = []
        self._logical: dict[int, LiteValue] = {}  # tensor of an NHWC value -> its NCHW transpose
        self._nhwc: dict[int, LiteValue] = {}  # tensor of an NCHW value -> its NHWC transpose
        self.ops = self.s.BuiltinOperator
        self.options = self.s.BuiltinOptions

    # -- tensors
    def _tensor(self, shape, data: np.ndarray | None = None, ttype: int | None = None) -> int:
        buffer = 0
        if data is not None:
            # its bytes, as a numpy array (finish() places them after the flatbuffer)
            self.buffers.append(_Buffer(np.ascontiguousarray(data).reshape(-1).view(np.uint8)))
            buffer = len(self.buffers) - 1
        n = len(self.tensors)
        self.tensors.append(_Tensor([int(d) for d in shape], _FLOAT32 if ttype is None else ttype, f"t{n}", buffer))
        return n

    def constant(self, array: np.ndarray) -> LiteValue:
        # no copy of a graph's float32 constant (it is only read); ascontiguousarray would make a scalar 1-D
        a = np.asarray(array, np.float32, order="C")
        return LiteValue(self._tensor(a.shape, a), tuple(a.shape), const=a)

    def ints(self, values: Sequence[int], shape: Sequence[int] | None = None) -> int:
        """An int32 constant tensor (shapes, permutations, paddings)."""
        a = np.asarray(values, np.int32)
        if shape is not None:
            a = a.reshape(shape)
        return self._tensor(a.shape, a, _INT32)

    def value(self, shape) -> LiteValue:
        return LiteValue(self._tensor(shape), tuple(int(d) for d in shape))

    # -- operators
    def op(self, code: int, inputs: Sequence[LiteValue | int], shape, options_type: int = 0, options=None,
           nhwc: bool = False) -> LiteValue:
        """Adds an operator with one output of ``shape`` (as stored); -1 in ``inputs``: absent."""
        if code not in self.codes:
            self.codes.append(code)
        out = self.value(shape)
        out.nhwc = nhwc
        self.operators.append(_Operator(self.codes.index(code),
                                        [i.index if isinstance(i, LiteValue) else int(i) for i in inputs],
                                        [out.index], options_type if options is not None else 0, options))
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
        t = self.tensors[index]
        if t.buffer == 0 or t.type != _FLOAT32:
            return None
        return np.frombuffer(self.buffers[t.buffer].data.tobytes(), np.float32).reshape(t.shape)

    def fuse(self, outputs: Sequence[int]) -> None:
        """Passes over the operators that compute the same values with fewer kernels, where the
        values in between have no other reader (the graph's outputs count as readers):

        - a convolution's output multiplied by a constant, one value per output channel or one for
          all, becomes the convolution with its filter and bias scaled (hardSigmoid's alpha after a
          squeeze-and-excitation block's convolution);
        - a constant added to a convolution's output, one value per output channel or one for all,
          goes into the convolution's bias (hardSigmoid's beta);
        - RELU, RELU6 or RELU_N1_TO_1 after a convolution becomes its fused activation."""
        ops, codes = self.operators, self.codes
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
                if self.tensors[o.outputs[0]].shape != self.tensors[v].shape:
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
        for o in self.operators:
            used.update(i for i in o.inputs if i >= 0)
            used.update(o.outputs)
        keep = sorted(used)
        new = {old: k for k, old in enumerate(keep)}
        tensors, buffers = [], [self.buffers[0]]
        for old in keep:
            t = self.tensors[old]
            if t.buffer != 0:
                buffers.append(self.buffers[t.buffer])
                t.buffer = len(buffers) - 1
            tensors.append(t)
        self.tensors, self.buffers = tensors, buffers
        for o in self.operators:
            o.inputs = [new[i] if i >= 0 else i for i in o.inputs]
            o.outputs = [new[i] for i in o.outputs]
        for v in [*inputs, *outputs]:
            v.index = new[v.index]

    # -- the model
    def finish(self, inputs: Sequence[LiteValue], outputs: Sequence[LiteValue]) -> bytes:
        """The TFLite model: the flatbuffer of its operators and tensors, then the constants' bytes
        after it, each buffer naming its own by offset and size (TFLite's layout for models over
        2 GB, which its interpreter reads for any model). The constants are copied once, into the
        model; the flatbuffer is written by _model_bytes (flatbuffers' object API packed
        MobileNetV2's in 5-6 ms and an OCR classifier's 179 operators in 7 ms, half of the lowering)."""
        self._prune(inputs, outputs)
        return _model_bytes(self.codes, self.tensors, self.operators, [v.index for v in inputs],
                            [v.index for v in outputs], self.buffers)


BUFFER_ALIGN = 64  # each constant's bytes start on a cache line of the model (XNNPACK reads them once, to pack)

# The flatbuffer of a model, written forward in one pass of struct.pack calls (_model_bytes). Every
# table is written as a blob that starts on an 8-byte boundary with its own vtable first (the table's
# soffset is then the same in every blob of its kind) and the vectors and strings only it refers to
# after it: a blob's bytes do not depend on where it lands, and the vectors of tables are written
# once every blob's place is known. Field slots are the TFLite schema's (schema.fbs): Model (version 0,
# operator_codes 1, subgraphs 2, description 3, buffers 4), OperatorCode (deprecated_builtin_code 0,
# version 2, builtin_code 3), SubGraph (tensors 0, inputs 1, outputs 2, operators 3), Tensor (shape 0,
# type 1, buffer 2, name 3), Buffer (offset 1, size 2), Operator (opcode_index 0, inputs 1, outputs 2,
# builtin_options_type 3, builtin_options 4). A builtin options table is packed by flatbuffers' object
# API, once per distinct value, and placed so that its end falls on an 8-byte boundary (flatbuffers
# aligns a table's fields from its end).


def _pad8(n: int) -> int:
    return -n % 8


_TENSOR_TABLE = 12  # where a tensor's table starts in its blob (after its vtable)
# a buffer's blob: (its length, where its table starts) for one whose bytes follow the flatbuffer
# (vtable [10, 24 | -, offset 8, size 16] + 6 pad, table at 16) and for one of no bytes (vtable [4, 4])
_PLACED_BUFFER, _EMPTY_BUFFER = (40, 16), (8, 4)


def _tensor_blob(t: _Tensor) -> bytes:
    # vtable [12, 17 | shape 4, type 16, buffer 12, name 8]; table at 12: soffset 12, shape (its vector
    # at 32), name (its string after the shape), buffer, type; then the shape and the name
    name = t.name.encode()
    r, n = len(t.shape), len(name)
    blob = _struct.pack(f"<6HiIIIb3xI{r}iI{n}sx", 12, 17, 4, 16, 12, 8, 12, 16, 16 + 4 * r, t.buffer, t.type,
                        r, *t.shape, n, name)
    return blob + bytes(_pad8(len(blob)))


def _options_blob(options, cache: dict) -> tuple[bytes, int]:
    """(the builtin options table packed alone, its table's place in those bytes), packed once per
    distinct value (an options object with a field that cannot be part of a key is packed alone)."""
    try:
        key = (type(options).__name__, tuple(sorted((k, tuple(v) if isinstance(v, (list, np.ndarray)) else v)
                                                    for k, v in vars(options).items())))
        got = cache.get(key)
    except TypeError:  # unhashable
        key, got = None, None
    if got is None:
        import flatbuffers

        builder = flatbuffers.Builder(64)
        end = options.Pack(builder)
        blob = bytes(builder.Bytes[builder.Head():])
        got = (blob, len(blob) - end)
        if key is not None:
            cache[key] = got
    return got


def _operator_blob(o: _Operator, cache: dict) -> tuple[bytes, int]:
    """(the operator's blob, where its table starts in it)."""
    ins, outs = o.inputs, o.outputs
    ni, no = len(ins), len(outs)
    if o.builtinOptions is None or not o.builtinOptionsType:
        # vtable [10, 16 | opcode_index 4, inputs 8, outputs 12] (+2 pad); table at 12; the vectors at 28
        blob = _struct.pack(f"<5H2xiIIII{ni}iI{no}i", 10, 16, 4, 8, 12, 12, o.opcodeIndex, 8, 8 + 4 * ni,
                            ni, *ins, no, *outs)
        return blob + bytes(_pad8(len(blob))), 12
    # vtable [14, 21 | opcode_index 4, inputs 8, outputs 12, options type 20, options 16] (+2 pad); table
    # at 16 (24 bytes with its padding); the vectors at 40; the options table after them
    opts, at = _options_blob(o.builtinOptions, cache)
    end = 48 + 4 * (ni + no)
    start = end + (-(end + len(opts)) % 8)  # the options' bytes end on an 8-byte boundary
    head = _struct.pack(f"<7H2xiIIIIB3xI{ni}iI{no}i", 14, 21, 4, 8, 12, 20, 16, 16, o.opcodeIndex, 16,
                        16 + 4 * ni, start + at - 32, o.builtinOptionsType, ni, *ins, no, *outs)
    return head + bytes(start - end) + opts + bytes(_pad8(start + len(opts))), 16


def _model_bytes(codes: Sequence[int], tensor_list: Sequence[_Tensor], operator_list: Sequence[_Operator],
                 ins: Sequence[int], outs: Sequence[int], buffers: Sequence[_Buffer]) -> bytes:
    """A model of one subgraph: its flatbuffer, then each buffer's bytes (a numpy array of uint8, or
    none) on a BUFFER_ALIGN boundary, named by offset and size."""
    pack = _struct.pack
    cache: dict = {}
    tensors = [_tensor_blob(t) for t in tensor_list]
    operators, operator_tables = zip(*[_operator_blob(o, cache) for o in operator_list]) if operator_list else ((), ())
    desc = DESCRIPTION
    # header (root offset, "TFL3"), the Model's vtable [14, 24 | 4, 8, 12, 16, 20] (+2 pad), its table
    # at 24; then the description
    desc_at = 48
    codes_at = desc_at + 4 + len(desc) + 1
    codes_at += _pad8(codes_at)
    codes_blobs_at = codes_at + 4 + 4 * len(codes)
    codes_blobs_at += _pad8(codes_blobs_at)
    subgraphs_at = codes_blobs_at + 32 * len(codes)  # an OperatorCode's blob: 32 bytes
    sub_at = subgraphs_at + 8
    # the SubGraph's blob: vtable [12, 20 | tensors 4, inputs 8, outputs 12, operators 16], table at 12,
    # its inputs and outputs at 32, then the vectors of its tensors and operators
    tensors_vec = 32 + 8 + 4 * (len(ins) + len(outs))
    operators_vec = tensors_vec + 4 + 4 * len(tensors)
    sub_len = operators_vec + 4 + 4 * len(operators)
    sub_len += _pad8(sub_len)
    place = sub_at + sub_len
    tensor_at = []
    for b in tensors:
        tensor_at.append(place)
        place += len(b)
    operator_at = []
    for b in operators:
        operator_at.append(place)
        place += len(b)
    buffers_at = place
    buffer_blobs_at = buffers_at + 4 + 4 * len(buffers)
    buffer_blobs_at += _pad8(buffer_blobs_at)
    sizes = [0 if b.data is None else len(b.data) for b in buffers]
    buffer_at, place = [], buffer_blobs_at
    for n in sizes:
        buffer_at.append(place)
        place += (_PLACED_BUFFER if n else _EMPTY_BUFFER)[0]
    flat_end = place
    parts: list = [
        pack("<I4s7H2xiIIIII", 24, b"TFL3", 14, 24, 4, 8, 12, 16, 20, 16, 3, codes_at - 32, subgraphs_at - 36,
             desc_at - 40, buffers_at - 44),
        pack(f"<I{len(desc)}sx", len(desc), desc),
    ]
    parts.append(bytes(codes_at - desc_at - 4 - len(desc) - 1))
    at = codes_at + 4
    parts.append(pack(f"<I{len(codes)}I", len(codes),
                      *(codes_blobs_at + 32 * k + 12 - (at + 4 * k) for k in range(len(codes)))))
    parts.append(bytes(codes_blobs_at - at - 4 * len(codes)))
    for code in codes:  # vtable [12, 13 | deprecated code 12, -, version 4, code 8]; table at 12
        parts.append(pack("<6HiiiB7x", 12, 13, 12, 0, 4, 8, 12, 1, code, min(code, 127)))
    parts.append(pack("<II", 1, sub_at + 12 - (subgraphs_at + 4)))
    sub = [pack("<6HiIIII", 12, 20, 4, 8, 12, 16, 12, tensors_vec - 16, 12, 12 + 4 * len(ins), operators_vec - 28),
           pack(f"<I{len(ins)}iI{len(outs)}i", len(ins), *ins, len(outs), *outs)]
    first = sub_at + tensors_vec + 4
    sub.append(pack(f"<I{len(tensors)}I", len(tensors), *(a + _TENSOR_TABLE - (first + 4 * k) for k, a in enumerate(tensor_at))))
    first = sub_at + operators_vec + 4
    sub.append(pack(f"<I{len(operators)}I", len(operators),
                    *(a + table - (first + 4 * k) for k, (a, table) in enumerate(zip(operator_at, operator_tables)))))
    sub.append(bytes(_pad8(operators_vec + 4 + 4 * len(operators))))
    parts += sub
    parts += tensors
    parts += operators
    first = buffers_at + 4
    parts.append(pack(f"<I{len(buffers)}I", len(buffers),
                      *(a + (_PLACED_BUFFER if n else _EMPTY_BUFFER)[1] - (first + 4 * k)
                        for k, (a, n) in enumerate(zip(buffer_at, sizes)))))
    parts.append(bytes(buffer_blobs_at - first - 4 * len(buffers)))
    data, end = [], flat_end
    for b, n in zip(buffers, sizes):
        if not n:
            parts.append(pack("<2Hi", 4, 4, 4))
            continue
        pad = -end % BUFFER_ALIGN
        if pad:
            data.append(bytes(pad))
            end += pad
        parts.append(pack("<5H6xi4xQQ", 10, 24, 0, 8, 16, 16, end, n))
        data.append(memoryview(np.ascontiguousarray(b.data)).cast("B"))
        end += n
    return b"".join(parts + data)  # the interpreter takes bytes: the constants' one copy


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
