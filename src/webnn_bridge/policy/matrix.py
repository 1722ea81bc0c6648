"""The latency matrix that ``policy measure`` writes and replay, tune and the calibrated model
read: per-graph statistics, the matrix file's checks, op classes and the calibrated latency model
(pure: nothing here times a runtime; measure.py does)."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .graphs import node_bytes, node_flops, summarize

MATRIX_VERSION = 1
OP_CLASSES = ("convolution", "matmul", "elementwise", "reduction", "data-movement", "normalization", "recurrent")
_CLASS_OF = {
    **{op: "convolution" for op in ("conv2d", "convTranspose2d")},
    **{op: "matmul" for op in ("matmul", "gemm")},
    **{op: "reduction" for op in ("reduceL1", "reduceL2", "reduceLogSum", "reduceLogSumExp", "reduceMax", "reduceMean",
                                  "reduceMin", "reduceProduct", "reduceSum", "reduceSumSquare", "argMax", "argMin",
                                  "softmax", "averagePool2d", "maxPool2d", "l2Pool2d", "cumulativeSum")},
    **{op: "data-movement" for op in ("reshape", "transpose", "concat", "slice", "split", "gather", "gatherElements",
                                      "gatherND", "scatterElements", "scatterND", "pad", "expand", "tile", "reverse",
                                      "resample2d", "identity", "cast", "triangular")},
    **{op: "normalization" for op in ("batchNormalization", "layerNormalization", "instanceNormalization")},
    **{op: "recurrent" for op in ("gru", "gruCell", "lstm", "lstmCell")},
}
FLOP_CLASSES = ("convolution", "matmul", "recurrent")


def op_class(op: str) -> str:
    return _CLASS_OF.get(op, "elementwise")


def node_work(node) -> float:
    """A node's work in its class's unit: FLOPs, or bytes read and written."""
    return float(node_flops(node)) if op_class(node.op) in FLOP_CLASSES else float(node_bytes(node))


# --------------------------------------------------------------------------- statistics


def stats(samples: Sequence[float]) -> dict:
    """p50, p90, n and a distribution-free 95% confidence interval of the median."""
    xs = sorted(samples)
    n = len(xs)
    if n == 0:
        raise ValueError("no samples")

    def q(p: float) -> float:
        k = (n - 1) * p
        lo, hi = math.floor(k), math.ceil(k)
        return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)

    # ranks (1-based) j = floor(n/2 - 1.96 sqrt(n)/2), k = ceil(1 + n/2 + 1.96 sqrt(n)/2): the normal
    # approximation of the binomial interval of the median's rank (distribution-free)
    half = 0.98 * math.sqrt(n)
    lo = min(n - 1, max(0, math.floor(n / 2 - half) - 1))
    hi = min(n - 1, max(0, math.ceil(1 + n / 2 + half) - 1))
    return {"p50": q(0.5), "p90": q(0.9), "n": n, "ci95": [xs[lo], xs[hi]]}


# --------------------------------------------------------------------------- matrix files


def _finite(v: Any, positive: bool = False) -> bool:
    ok = isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
    return ok and (v > 0 if positive else v >= 0)


def read_matrix(path: str | Path) -> dict:
    """A matrix file; ValueError (one line) when it is not one."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"{path}: not a matrix (JSON) file: {e}") from None
    if not isinstance(data, dict) or data.get("version") != MATRIX_VERSION or not isinstance(data.get("graphs"), dict):
        raise ValueError(f"{path}: not a `policy measure` matrix (version {MATRIX_VERSION} with graphs)")
    for h, g in data["graphs"].items():
        if not isinstance(g, dict) or not isinstance(g.get("results", {}), dict):
            raise ValueError(f"{path}: graph {h[:10]}: results must be an object")
        for dev, r in g.get("results", {}).items():
            ci = r.get("ci95") if isinstance(r, dict) else None
            if (not isinstance(r, dict) or not _finite(r.get("p50")) or not _finite(r.get("p90"))
                    or not isinstance(ci, list) or len(ci) != 2 or not all(_finite(x) for x in ci)
                    or not isinstance(r.get("n"), int) or r["n"] < 1):
                raise ValueError(f"{path}: graph {h[:10]} on {dev}: needs finite p50, p90, ci95 [lo, hi] and n >= 1")
    cal = data.get("calibration")
    if cal is not None:
        problem = calibration_problem(cal)
        if problem:
            raise ValueError(f"{path}: calibration: {problem}")
    return data


# --------------------------------------------------------------------------- calibration


def calibration_problem(cal: Any) -> str | None:
    if not isinstance(cal, dict) or not isinstance(cal.get("backends"), dict):
        return "needs a 'backends' object"
    for name, b in cal["backends"].items():
        if not isinstance(b, dict) or not _finite(b.get("dispatch_ms")) or not isinstance(b.get("classes"), dict):
            return f"{name}: needs a finite dispatch_ms and classes"
        for cls, f in b["classes"].items():
            if cls not in OP_CLASSES:
                return f"{name}: unknown op class {cls!r}"
            if not isinstance(f, dict) or not _finite(f.get("ms_per_node")) or not _finite(f.get("ms_per_unit")):
                return f"{name}.{cls}: needs finite, non-negative ms_per_node and ms_per_unit"
    return None


def modelled_latency_ms(graph, placement, rules: Mapping, matrix: Mapping | None) -> float | None:
    """A graph's latency on a calibrated real backend (the matrix's "calibration"), by op class;
    None when the placement's device is declared, partitioned or not calibrated (the caller then
    uses the static cost model)."""
    from .inventory import is_simulated

    cal = ((matrix or {}).get("calibration") or {}).get("backends") or {}
    if placement is None or len(placement.partitions()) > 1 or is_simulated(placement.device):
        return None
    entry = cal.get(f"{placement.device.backend}:{placement.device.kind}")
    if entry is None:
        return None
    summary = summarize(graph)
    total = float(entry["dispatch_ms"])
    classes = entry["classes"]
    for node in summary.nodes:
        f = classes.get(op_class(node.op)) or classes.get("elementwise")
        if f is None:
            return None
        total += f["ms_per_node"] + f["ms_per_unit"] * node_work(node)
    return total
