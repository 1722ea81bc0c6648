"""LeNet test data: weight loader, digit renderer and a plain-numpy reference.

The weights live outside the repository in ``../shared/data/lenet/lenet.bin``
(relative to the repository root; tests/shared_data.py finds it); see ``../shared/data/README.md``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from tests import shared_data

DATA_DIR = shared_data.root()
LENET_BIN = DATA_DIR / "lenet" / "lenet.bin"

LENET_BIN_SIZE = 1_724_336

# (name, shape) in file order; "skip" entries are raw bytes to step over.
LENET_LAYOUT: list[tuple[str, tuple[int, ...] | int]] = [
    ("conv1_filter", (20, 1, 5, 5)),
    ("conv1_bias", (1, 20, 1, 1)),
    ("conv2_filter", (50, 20, 5, 5)),
    ("conv2_bias", (1, 50, 1, 1)),
    ("skip", 16),  # two int64 values of a reshape shape
    ("fc1_weight", (500, 800)),
    ("fc1_bias", (1, 500)),
    ("fc2_weight", (10, 500)),
    ("fc2_bias", (1, 10)),
]


def load_lenet_weights(path: str | Path = LENET_BIN) -> dict[str, np.ndarray]:
    """Read lenet.bin into a dict of float32 arrays (layout per the data README)."""
    raw = shared_data.require(Path(path)).read_bytes()
    if len(raw) != LENET_BIN_SIZE:
        raise ValueError(f"{path}: expected {LENET_BIN_SIZE} bytes, got {len(raw)}")
    weights: dict[str, np.ndarray] = {}
    offset = 0
    for name, shape in LENET_LAYOUT:
        if name == "skip":
            offset += int(shape)  # type: ignore[arg-type]
            continue
        count = int(np.prod(shape))
        arr = np.frombuffer(raw, dtype="<f4", count=count, offset=offset)
        weights[name] = arr.reshape(shape).astype(np.float32)
        offset += count * 4
    if offset != len(raw):
        raise ValueError(f"{path}: layout consumed {offset} of {len(raw)} bytes")
    return weights


def _fit_and_centre(glyph: np.ndarray, box: int = 20, size: int = 28) -> np.ndarray:
    """MNIST-style normalisation: crop, fit into box x box keeping aspect ratio,
    paste into size x size so that the centre of mass lands in the middle."""
    ys, xs = np.nonzero(glyph > 0.05)
    crop = glyph[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    h, w = crop.shape
    scale = box / max(h, w)
    nh, nw = max(1, round(h * scale)), max(1, round(w * scale))
    img = Image.fromarray((crop * 255).astype(np.uint8), mode="L")
    small = np.asarray(img.resize((nw, nh), Image.Resampling.LANCZOS), dtype=np.float32) / 255.0
    small = np.clip(small, 0.0, 1.0)

    total = small.sum()
    cy = (small.sum(axis=1) * np.arange(nh)).sum() / total
    cx = (small.sum(axis=0) * np.arange(nw)).sum() / total
    top = int(round(size / 2 - 0.5 - cy))
    left = int(round(size / 2 - 0.5 - cx))
    top = min(max(top, 0), size - nh)
    left = min(max(left, 0), size - nw)

    out = np.zeros((size, size), dtype=np.float32)
    out[top : top + nh, left : left + nw] = small
    return out


def render_digit(digit: int, font_size: int = 72, shear: float = 0.15, blur: float = 0.8) -> np.ndarray:
    """Render one digit with Pillow's built-in font, white on black, 28x28 in 0..1.

    The glyph is slanted slightly to the right (handwriting-like ``shear``) and
    softened with a Gaussian blur (radius in pixels of the ``font_size`` canvas)
    before the MNIST-style fit-and-centre step. The defaults were chosen with
    :func:`lenet_numpy` (all ten digits classified correctly, also for
    neighbouring parameter values).
    """
    font = ImageFont.load_default(size=font_size)
    canvas = Image.new("L", (font_size * 2, font_size * 2), 0)
    ImageDraw.Draw(canvas).text((font_size // 2, font_size // 4), str(digit), fill=255, font=font)
    if shear:
        # output (x, y) samples input (x + shear*y - shear*font_size, y): bottom shifts left
        canvas = canvas.transform(
            canvas.size,
            Image.Transform.AFFINE,
            (1, shear, -shear * font_size, 0, 1, 0),
            resample=Image.Resampling.BILINEAR,
        )
    if blur > 0:
        canvas = canvas.filter(ImageFilter.GaussianBlur(blur))
    glyph = np.asarray(canvas, dtype=np.float32) / 255.0
    return _fit_and_centre(glyph)


def render_digits() -> list[np.ndarray]:
    """Ten 28x28 float32 images (values 0..1) of the digits 0..9."""
    return [render_digit(d) for d in range(10)]


def lenet_numpy(weights: dict[str, np.ndarray], image: np.ndarray) -> np.ndarray:
    """Plain-numpy LeNet forward pass; returns 10 softmax probabilities (float64)."""

    def conv_valid(x: np.ndarray, w: np.ndarray) -> np.ndarray:
        # x [C,H,W], w [O,C,K,K] -> [O,H-K+1,W-K+1]
        c, h, wd = x.shape
        o, _, k, _ = w.shape
        oh, ow = h - k + 1, wd - k + 1
        cols = np.empty((c, k, k, oh, ow), dtype=np.float64)
        for i in range(k):
            for j in range(k):
                cols[:, i, j] = x[:, i : i + oh, j : j + ow]
        return np.tensordot(w.astype(np.float64), cols, axes=([1, 2, 3], [0, 1, 2]))

    def maxpool2(x: np.ndarray) -> np.ndarray:
        c, h, wd = x.shape
        return x[:, : h // 2 * 2, : wd // 2 * 2].reshape(c, h // 2, 2, wd // 2, 2).max(axis=(2, 4))

    x = np.asarray(image, dtype=np.float64).reshape(1, 28, 28)
    x = conv_valid(x, weights["conv1_filter"]) + weights["conv1_bias"][0]
    x = maxpool2(x)
    x = conv_valid(x, weights["conv2_filter"]) + weights["conv2_bias"][0]
    x = maxpool2(x)
    x = x.reshape(1, 800)
    x = x @ weights["fc1_weight"].T.astype(np.float64) + weights["fc1_bias"]
    x = np.maximum(x, 0.0)
    x = x @ weights["fc2_weight"].T.astype(np.float64) + weights["fc2_bias"]
    x = x - x.max(axis=1, keepdims=True)
    e = np.exp(x)
    return (e / e.sum(axis=1, keepdims=True))[0]


if __name__ == "__main__":
    w = load_lenet_weights()
    correct = 0
    for d, img in enumerate(render_digits()):
        p = lenet_numpy(w, img)
        correct += int(p.argmax() == d)
        print(d, int(p.argmax()), f"{p[d]:.4f}", np.round(p, 3).tolist())
    print(f"accuracy {correct}/10")
