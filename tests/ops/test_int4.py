"""int4 / uint4 (extension, src/webnn_bridge/idl/extensions.idl): packed two per byte in every buffer, accepted by
input/constant/cast/quantizeLinear/dequantizeLinear, reported by opSupportLimits(), computed
the same way on both backends."""

from __future__ import annotations

import numpy as np
import pytest

from webnn_bridge.bridge.api import ML, MLGraphBuilder
from webnn_bridge.ops.core import DATA_TYPES, OperandDesc, WebNNTypeError, cast_number, pack, unpack

_ML = ML()
BACKENDS = ("reference", "onnxruntime")


def context(backend: str):
    devices = [d for d in _ML.inventory if d.backend == backend and d.kind == "cpu"]
    if not devices:
        pytest.skip(f"backend {backend} is not available")
    return ML(devices[:1]).createContext()


def test_packing_two_per_byte_low_nibble_first():
    desc = OperandDesc("int4", (5,))
    assert desc.byte_length == 3
    values = np.array([-8, -7, -1, 7, 1], DATA_TYPES["int4"].numpy)
    raw = pack(values, "int4")
    assert raw == bytes([0x98, 0x7F, 0x01])  # -8 = 0x8 low, -7 = 0x9 high; odd count: high nibble 0
    assert unpack(raw, desc).tolist() == values.tolist()
    u = np.array([0, 15, 3], DATA_TYPES["uint4"].numpy)
    assert pack(u, "uint4") == bytes([0xF0, 0x03])
    assert unpack(bytes([0xF0, 0x03]), OperandDesc("uint4", (3,))).tolist() == [0, 15, 3]
    assert OperandDesc("uint4", (2, 3)).byte_length == 3 and OperandDesc("int4", ()).byte_length == 1


def test_limits_report_int4_where_it_is_accepted():
    lim = context("onnxruntime").opSupportLimits()
    for kind in ("input", "constant", "output"):
        assert {"int4", "uint4"} <= set(lim[kind]["dataTypes"])
    assert {"int4", "uint4"} <= set(lim["cast"]["input"]["dataTypes"]) & set(lim["cast"]["output"]["dataTypes"])
    assert {"int4", "uint4"} <= set(lim["dequantizeLinear"]["input"]["dataTypes"])
    assert {"int4", "uint4"} <= set(lim["quantizeLinear"]["zeroPoint"]["dataTypes"])
    assert "int4" not in lim["add"]["a"]["dataTypes"]


def test_int4_rejected_where_not_reported():
    b = MLGraphBuilder(context("reference"))
    x = b.input("x", {"dataType": "int4", "shape": [4]})
    with pytest.raises(WebNNTypeError):
        b.add(x, x)
    with pytest.raises(WebNNTypeError, match="byte length"):
        b.constant({"dataType": "uint4", "shape": [4]}, bytes(4))  # 4 elements need 2 bytes


def test_cast_number_saturates_to_4_bits():
    assert int(cast_number(100, "int4")) == 7 and int(cast_number(-100.0, "int4")) == -8
    assert int(cast_number(float("inf"), "uint4")) == 15 and int(cast_number(-3, "uint4")) == 0


@pytest.mark.parametrize("backend", BACKENDS)
def test_quantize_dequantize_and_cast_through_packed_buffers(backend):
    ctx = context(backend)
    b = MLGraphBuilder(ctx)
    x = b.input("x", {"dataType": "int4", "shape": [5]})
    f = b.input("f", {"dataType": "float32", "shape": [5]})
    s = b.constant({"dataType": "float32", "shape": [1]}, np.array([0.5], np.float32))
    zp = b.constant({"dataType": "int4", "shape": [1]}, bytes([0x0F]))  # -1
    g = b.build({
        "dq": b.dequantizeLinear(x, s, zp),
        "q": b.quantizeLinear(f, s, b.constant({"dataType": "uint4", "shape": [1]}, bytes([3]))),
        "f2i4": b.cast(f, "int4"),
        "i2i4": b.cast(b.cast(f, "int32"), "int4"),
        "i2u4": b.cast(b.cast(f, "int32"), "uint4"),
        "i4f": b.cast(x, "float32"),
    })
    tx = ctx.createTensor({"dataType": "int4", "shape": [5], "writable": True})
    ctx.writeTensor(tx, bytes([0x98, 0x7F, 0x01]))  # -8, -7, -1, 7, 1
    tf = ctx.createTensor({"dataType": "float32", "shape": [5], "writable": True})
    ctx.writeTensor(tf, np.array([-100, 1.6, 2.5, 9.7, 20], np.float32))
    types = {"dq": "float32", "q": "uint4", "f2i4": "int4", "i2i4": "int4", "i2u4": "uint4", "i4f": "float32"}
    outs = {n: ctx.createTensor({"dataType": t, "shape": [5], "readable": True}) for n, t in types.items()}
    ctx.dispatch(g, {"x": tx, "f": tf}, outs)
    got = {n: ctx.readTensor(t).tolist() for n, t in outs.items()}
    assert got == {
        "dq": [-3.5, -3.0, 0.0, 4.0, 1.0],  # (x - (-1)) * 0.5
        "q": [0, 6, 8, 15, 15],  # clamp(round(f / 0.5) + 3, 0, 15)
        "f2i4": [-8, 1, 2, 7, 7],  # truncate, saturate
        "i2i4": [-4, 1, 2, -7, 4],  # low 4 bits, two's complement: -100 -> -4, 9 -> -7, 20 -> 4
        "i2u4": [12, 1, 2, 9, 4],
        "i4f": [-8.0, -7.0, -1.0, 7.0, 1.0],
    }
    buf = bytearray(3)
    ctx.readTensor(outs["q"], buf)
    assert bytes(buf) == bytes([0x60, 0xF8, 0x0F])
