"""MobileNetV2 (NCHW) test data: weights, preprocessing and an independent
ONNX Runtime reference.

Weights live outside the repository in ``../shared/data/mobilenetv2/weights``
(relative to the repository root; tests/shared_data.py finds it); see ``../shared/data/README.md``. The final
fully connected matrix ``gemm_104_weight`` is not shipped there and is replaced
by a deterministic seeded random matrix (:func:`substitute_gemm_weight`).

The layer list below (:data:`STEM`, :data:`BLOCKS`, :data:`HEAD`) is the single
Python description of the network; ``e2e/pages/mobilenet.html`` hard-codes the
same list in JavaScript.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import numpy as np
from PIL import Image

from tests import shared_data

DATA_DIR = shared_data.root()
MOBILENET_DIR = DATA_DIR / "mobilenetv2"
RED_PANDA_JPG = MOBILENET_DIR / "red_panda.jpg"
LABELS_TXT = MOBILENET_DIR / "labels.txt"

GEMM_WEIGHT_SEED = 20260101
GEMM_WEIGHT_SHAPE = (1000, 1280)

MEAN = np.array([0.485, 0.456, 0.406], dtype=np.float32)
STD = np.array([0.229, 0.224, 0.225], dtype=np.float32)


class Block(NamedTuple):
    """One inverted-residual block: conv indices (``expand`` is None for the
    first block, which has no 1x1 expansion), depthwise stride, residual add."""

    expand: int | None
    depthwise: int
    project: int
    stride: int
    residual: bool


# conv_0: 3x3, stride 2, padding 1, + bias, relu6.
STEM = 0
# 17 inverted-residual blocks. 1x1 expand + relu6, 3x3 depthwise (groups =
# channels, padding 1) + relu6, 1x1 project (linear), then add the block
# input when `residual` (stride 1 and in == out channels).
BLOCKS: list[Block] = [
    Block(None, 2, 4, 1, False),  # 32 -> 16      112x112
    Block(5, 7, 9, 2, False),  # 16 -> 24 (96)     56x56
    Block(10, 12, 14, 1, True),  # 24 -> 24 (144)
    Block(16, 18, 20, 2, False),  # 24 -> 32 (144)  28x28
    Block(21, 23, 25, 1, True),  # 32 -> 32 (192)
    Block(27, 29, 31, 1, True),
    Block(33, 35, 37, 2, False),  # 32 -> 64 (192)  14x14
    Block(38, 40, 42, 1, True),  # 64 -> 64 (384)
    Block(44, 46, 48, 1, True),
    Block(50, 52, 54, 1, True),
    Block(56, 58, 60, 1, False),  # 64 -> 96 (384)
    Block(61, 63, 65, 1, True),  # 96 -> 96 (576)
    Block(67, 69, 71, 1, True),
    Block(73, 75, 77, 2, False),  # 96 -> 160 (576)  7x7
    Block(78, 80, 82, 1, True),  # 160 -> 160 (960)
    Block(84, 86, 88, 1, True),
    Block(90, 92, 94, 1, False),  # 160 -> 320 (960)
]
# conv_95: 1x1 320 -> 1280 + relu6; global average pool; reshape [1,1280];
# gemm_104 (bTranspose, + bias) -> [1,1000]; softmax(axis 1).
HEAD_CONV = 95
GEMM = 104


def describe_architecture() -> list[dict]:
    """Flat list of conv layers in execution order (for checks and docs).

    Each entry: ``{"conv": N, "stride": s, "groups": g, "padding": p,
    "relu6": bool, "residual_from": M | None}`` where ``residual_from`` names
    the conv whose *input* is added to this (project) conv's output. A final
    ``{"gemm": 104}`` entry closes the list.
    """
    w = load_conv_shapes()
    layers = [dict(conv=STEM, stride=2, groups=1, padding=1, relu6=True, residual_from=None)]
    for blk in BLOCKS:
        first = blk.expand if blk.expand is not None else blk.depthwise
        if blk.expand is not None:
            layers.append(dict(conv=blk.expand, stride=1, groups=1, padding=0, relu6=True, residual_from=None))
        groups = w[blk.depthwise][0]  # depthwise: one group per channel
        layers.append(dict(conv=blk.depthwise, stride=blk.stride, groups=groups, padding=1, relu6=True, residual_from=None))
        layers.append(
            dict(conv=blk.project, stride=1, groups=1, padding=0, relu6=False, residual_from=first if blk.residual else None)
        )
    layers.append(dict(conv=HEAD_CONV, stride=1, groups=1, padding=0, relu6=True, residual_from=None))
    layers.append(dict(gemm=GEMM))
    return layers


def weights_dir() -> Path:
    return shared_data.require(MOBILENET_DIR / "weights", glob="*.npy")


def load_conv_shapes() -> dict[int, tuple[int, ...]]:
    """conv index -> weight shape, read from the .npy headers only."""
    shapes = {}
    for f in sorted(weights_dir().glob("conv_*_weight.npy")):
        idx = int(f.name.split("_")[1])
        shapes[idx] = np.load(f, mmap_mode="r").shape
    return shapes


def substitute_gemm_weight() -> np.ndarray:
    """Deterministic stand-in for the missing gemm_104_weight (1000, 1280)."""
    rng = np.random.default_rng(GEMM_WEIGHT_SEED)
    return (rng.standard_normal(GEMM_WEIGHT_SHAPE, dtype=np.float32) * 0.01).astype(np.float32)


def load_weights() -> dict[str, np.ndarray]:
    """All weights keyed by file stem (``conv_N_weight``, ``conv_N_bias``,
    ``gemm_104_weight``, ``gemm_104_bias``), float32. gemm_104_weight is the
    seeded substitute unless a real file is present."""
    out: dict[str, np.ndarray] = {}
    for f in sorted(weights_dir().glob("*.npy")):
        out[f.stem] = np.load(f).astype(np.float32, copy=False)
    if "gemm_104_weight" not in out:
        out["gemm_104_weight"] = substitute_gemm_weight()
    _check_weights(out)
    return out


def _check_weights(w: dict[str, np.ndarray]) -> None:
    """Verify the layer list against the weight shapes (channel chaining)."""
    c = 3
    for layer in describe_architecture():
        if "gemm" in layer:
            gw = w[f"gemm_{layer['gemm']}_weight"]
            if gw.shape != (1000, c) or w[f"gemm_{layer['gemm']}_bias"].shape != (1000,):
                raise ValueError(f"gemm shape mismatch: {gw.shape} with {c} input features")
            continue
        n = layer["conv"]
        fw, fb = w[f"conv_{n}_weight"], w[f"conv_{n}_bias"]
        if fw.shape[1] * layer["groups"] != c or fb.shape != (fw.shape[0],):
            raise ValueError(f"conv_{n}: weight {fw.shape}, groups {layer['groups']}, input channels {c}")
        c = fw.shape[0]


def preprocess(jpg_path: str | Path = RED_PANDA_JPG) -> np.ndarray:
    """Image -> float32 [1,3,224,224]: bilinear resize, /255, (x-mean)/std, NCHW."""
    with Image.open(shared_data.require(Path(jpg_path))) as im:
        im = im.convert("RGB").resize((224, 224), Image.Resampling.BILINEAR)
        x = np.asarray(im, dtype=np.float32) / 255.0
    x = (x - MEAN) / STD
    return np.ascontiguousarray(x.transpose(2, 0, 1)[None]).astype(np.float32)


def load_labels() -> list[str]:
    return shared_data.require(LABELS_TXT).read_text().splitlines()


# --------------------------------------------------------------------------
# Independent reference: an ONNX graph built with onnx.helper, run on ORT CPU.

ONNX_OPSET = 13


def layers(x, weights: dict[str, np.ndarray], conv, add):
    """MobileNetV2 from its input to the head convolution's output (before pooling), in the
    caller's graph language: ``conv(x, n, stride, groups, pad, relu6)`` makes layer ``n``'s
    convolution (with its bias, and relu6 when asked), ``add(a, b, n)`` a residual sum."""
    x = conv(x, STEM, 2, 1, 1, True)
    for blk in BLOCKS:
        block_in = x
        if blk.expand is not None:
            x = conv(x, blk.expand, 1, 1, 0, True)
        channels = weights[f"conv_{blk.depthwise}_weight"].shape[0]
        x = conv(x, blk.depthwise, blk.stride, channels, 1, True)
        x = conv(x, blk.project, 1, 1, 0, False)
        if blk.residual:
            x = add(block_in, x, blk.project)
    return conv(x, HEAD_CONV, 1, 1, 0, True)


def build_onnx_model(weights: dict[str, np.ndarray], with_features: bool = False):
    """MobileNetV2 as an ONNX ModelProto. Outputs "probs" [1,1000] and, when
    ``with_features``, "features" (the pooled [1,1280] vector before gemm)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    nodes = []
    inits = [
        numpy_helper.from_array(np.array(0.0, dtype=np.float32), "clip_min"),
        numpy_helper.from_array(np.array(6.0, dtype=np.float32), "clip_max"),
        numpy_helper.from_array(np.array([1, 1280], dtype=np.int64), "flat_shape"),
    ]
    used: set[str] = set()

    def init(name: str) -> str:
        if name not in used:
            inits.append(numpy_helper.from_array(np.ascontiguousarray(weights[name], dtype=np.float32), name))
            used.add(name)
        return name

    def conv(x: str, n: int, stride: int, groups: int, pad: int, relu6: bool) -> str:
        k = weights[f"conv_{n}_weight"].shape[2]
        y = f"conv_{n}_out"
        nodes.append(
            helper.make_node(
                "Conv",
                [x, init(f"conv_{n}_weight"), init(f"conv_{n}_bias")],
                [y],
                kernel_shape=[k, k],
                strides=[stride, stride],
                pads=[pad] * 4,
                group=groups,
            )
        )
        if relu6:
            nodes.append(helper.make_node("Clip", [y, "clip_min", "clip_max"], [f"{y}_relu6"]))
            y = f"{y}_relu6"
        return y

    def add(a: str, b: str, n: int) -> str:
        nodes.append(helper.make_node("Add", [a, b], [f"add_{n}"]))
        return f"add_{n}"

    x = layers("input", weights, conv, add)
    nodes.append(helper.make_node("GlobalAveragePool", [x], ["pooled"]))
    nodes.append(helper.make_node("Reshape", ["pooled", "flat_shape"], ["features"]))
    nodes.append(
        helper.make_node(
            "Gemm",
            ["features", init(f"gemm_{GEMM}_weight"), init(f"gemm_{GEMM}_bias")],
            ["logits"],
            transB=1,
        )
    )
    nodes.append(helper.make_node("Softmax", ["logits"], ["probs"], axis=1))

    outputs = [helper.make_tensor_value_info("probs", TensorProto.FLOAT, [1, 1000])]
    if with_features:
        outputs.append(helper.make_tensor_value_info("features", TensorProto.FLOAT, [1, 1280]))
    graph = helper.make_graph(
        nodes,
        "mobilenetv2_reference",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, 224, 224])],
        outputs,
        initializer=inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", ONNX_OPSET)])
    model.ir_version = min(onnx.IR_VERSION, 10)
    onnx.checker.check_model(model)
    return model


def _session(model):
    import onnxruntime as ort

    from webnn_bridge.backends.onnxruntime import session_options

    opts = session_options()  # one thread: a reference needs no speed
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    return ort.InferenceSession(model.SerializeToString(), opts, providers=["CPUExecutionProvider"])


def mobilenet_onnx_reference(weights: dict[str, np.ndarray], x: np.ndarray) -> np.ndarray:
    """Reference probabilities, float32 [1000]."""
    sess = _session(build_onnx_model(weights))
    (probs,) = sess.run(["probs"], {"input": np.asarray(x, dtype=np.float32)})
    return probs[0]


def mobilenet_onnx_features(weights: dict[str, np.ndarray], x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(pooled 1280-dim feature vector, probabilities[1000]) from the reference."""
    sess = _session(build_onnx_model(weights, with_features=True))
    probs, feats = sess.run(["probs", "features"], {"input": np.asarray(x, dtype=np.float32)})
    return feats[0], probs[0]


def save_npy(path: str | Path, arr: np.ndarray) -> Path:
    """Write a little-endian float32 .npy (the format e2e/pages/npy.js reads)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.save(path, np.ascontiguousarray(arr, dtype="<f4"))
    return path


if __name__ == "__main__":
    w = load_weights()
    x = preprocess()
    feats, probs = mobilenet_onnx_features(w, x)
    print("input", x.shape, x.dtype, float(x.min()), float(x.max()))
    print(
        "features: finite", bool(np.isfinite(feats).all()),
        "min %.4f max %.4f mean %.4f std %.4f nonzero %d/1280"
        % (feats.min(), feats.max(), feats.mean(), feats.std(), int((feats > 0).sum())),
    )
    top = np.argsort(probs)[::-1][:5]
    labels = load_labels()
    print("probs sum %.6f top5" % probs.sum(), [(int(i), labels[i], round(float(probs[i]), 5)) for i in top])
