"""The tuning loop where a GPU exists (issue 36): record, measure, tune, re-run, through hosts.

    PYTHONPATH=. .venv/bin/python benchmarks/tune_loop.py [--devices ID,ID] [--rounds 3] [--seconds 20]
        [--graphs tiny,small,mlp,mobilenet,transformer] [--out DIR]

scripts/gpu_check.py runs it as its "tune" step (--skip-tune skips it). Every run goes the page's
path: `webnn-bridge serve --devices PROFILE --rules RULES --trace TRACE` subprocesses (a host per
rule set, benchmarks/soak.py's HostProcess), each driven over the wire as the shim drives it
(tests/wire.py: createContext with the workload's hint, build, then write, dispatch, read per
dispatch). The hosts' inventory is the chosen devices alone (a profile whose entries are bound to
the probed devices, so they really run): by default the first GPU and ONNX Runtime's CPU, or, on a
machine without a GPU, ONNX Runtime's CPU and OpenVINO's CPU as the "two devices" of a dry run.

Graphs (each in its own context, with its own hint):
  tiny         softmax of float32[64, 1000] (1 op)
  small        a small convnet on [1, 3, 64, 64] (8 ops)
  mlp          a 3-layer MLP on [64, 1024] (9 ops: matmul, add, relu x 3, softmax last)
  mobilenet    MobileNetV2 (scripts/gpu_check.py's graph; weights from ../shared/data; skipped
               where they are missing)
  transformer  scripts/gpu_check.py's transformer blocks (--layers, --seq, --dim; small defaults)

Steps:
  1. record: a host under the current rules and one per single-device rules file (that device
     first for every graph: its kind first, its backend first), rounds interleaved by workload
     (every order of the rule sets in turn, a pause before each block; a warm-up round first that
     is dropped from the traces), so that tune sees every graph on every device in paired rounds;
  2. measure: `policy measure` of the current rules' trace on the chosen devices, in this process;
  3. tune: `policy tune` from all the traces and the matrix: tuned rules, tune.md, tune.png;
  4. re-run: a host under the tuned rules and one per single-device rules file, interleaved as in
     1; per workload the host's p50 of the re-run against tune's prediction (replay with the matrix)
     for every rule set, and the weighted totals (each workload's p50 x its dispatches per round):
     tuned against each single device, as a ratio of the pooled totals with a 95% bootstrap
     interval (dispatches resampled) and, from 3 rounds on, the paired ratio of the per-round
     totals (workbench/trace.py's paired_ratio: geometric mean, bootstrap 95% interval).

Timing on a shared machine is noisy: differences under ~10% are noise.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
if str(ROOT / "src") not in sys.path:  # webnn_bridge: this checkout's, installed or not
    sys.path.insert(0, str(ROOT / "src"))

GRAPHS = ("tiny", "small", "mlp", "mobilenet", "transformer")
HINTS: dict[str, dict] = {"tiny": {}, "small": {}, "mlp": {}, "mobilenet": {},
                          "transformer": {"powerPreference": "high-performance"}}
DISPATCHES = {"tiny": 20, "small": 20, "mlp": 20, "mobilenet": 5, "transformer": 5}  # per block, x --scale
SETTLE_S = 0.2  # the pause before each block (bench_policy.py: the previous runtime's threads go idle)
CURRENT = "current"


# --------------------------------------------------------------------------- graphs, as the shim sends them


def _tag(v, ids: Mapping[int, int]):
    """An argument as the shim encodes it: operands as {"$operand": id}, numbers tagged."""
    from webnn_bridge.bridge import protocol

    if id(v) in ids:
        return {"$operand": ids[id(v)]}
    if isinstance(v, (list, tuple)):
        return [_tag(x, ids) for x in v]
    if isinstance(v, Mapping):
        return {str(k): _tag(x, ids) for k, x in v.items()}
    if isinstance(v, np.ndarray):
        return protocol.encode_value(v.tolist())
    if isinstance(v, np.generic):
        return protocol.encode_value(v.item())
    return protocol.encode_value(v)


@dataclass
class WireGraph:
    """A build message as the shim sends it, its constants' bytes (the message's parts), and the
    shapes of its inputs and outputs (float32)."""

    msg: dict
    parts: list[bytes]
    inputs: dict[str, list[int]]
    outputs: dict[str, list[int]]
    label: str  # as a trace names it (output names and node count)


class WireBuilder:
    """An MLGraphBuilder stand-in that records what a page's builder calls would send: every call
    also goes to a real builder (the numpy reference's context; nothing is compiled), which
    checks it and gives the shapes. So graph functions written for MLGraphBuilder
    (scripts/gpu_check.py's) build wire messages unchanged."""

    def __init__(self):
        from webnn_bridge.bridge.api import ML, MLGraphBuilder
        from webnn_bridge.policy.inventory import REFERENCE_CPU

        self._b = MLGraphBuilder(ML([REFERENCE_CPU]).createContext({}))
        self._ids: dict[int, int] = {}
        self._keep: list = []
        self._inputs: list[dict] = []
        self._constants: list[dict] = []
        self._parts: list[bytes] = []
        self._nodes: list[dict] = []

    def _new(self, operand) -> int:
        self._keep.append(operand)
        self._ids[id(operand)] = len(self._keep)
        return len(self._keep)

    def input(self, name: str, desc: Mapping):
        op = self._b.input(name, desc)
        self._inputs.append({"operand": self._new(op), "name": name, "desc": dict(desc)})
        return op

    def constant(self, desc, value=None):
        import hashlib

        from webnn_bridge.bridge import protocol

        if isinstance(desc, str):  # constant(type, value): a scalar
            op = self._b.constant(desc, value)
            self._constants.append({"operand": self._new(op),
                                    "scalar": {"dataType": desc, "value": protocol.encode_value(value)}})
            return op
        a = np.ascontiguousarray(value, dtype=np.dtype(desc["dataType"]))
        op = self._b.constant(desc, a)
        raw = a.tobytes()
        self._constants.append({"operand": self._new(op), "desc": {"dataType": desc["dataType"], "shape": list(desc["shape"])},
                                "part": len(self._parts), "sha256": hashlib.sha256(raw).hexdigest()})
        self._parts.append(raw)
        return op

    def __getattr__(self, op: str):
        if op.startswith("_"):
            raise AttributeError(op)

        def call(*args):
            result = self._b.operator(op, list(args))
            encoded = _tag(list(args), self._ids)
            outs = result if isinstance(result, list) else [result]
            self._nodes.append({"op": op, "args": encoded, "outputs": [self._new(o) for o in outs]})
            return result

        return call

    def build(self, outputs: Mapping) -> WireGraph:
        from webnn_bridge.workbench.trace import graph_label

        msg = {"inputs": self._inputs, "constants": self._constants, "nodes": self._nodes,
               "outputs": {name: self._ids[id(o)] for name, o in outputs.items()}}
        return WireGraph(msg, self._parts, {i["name"]: list(i["desc"]["shape"]) for i in self._inputs},
                         {name: list(o.shape) for name, o in outputs.items()},
                         graph_label(self._b._collect(dict(outputs))))


def _rnd(rng, *shape) -> np.ndarray:
    return (rng.standard_normal(shape) / math.sqrt(shape[0])).astype(np.float32)


def _f32(shape) -> dict:
    return {"dataType": "float32", "shape": list(shape)}


def tiny_graph(b):
    return b.build({"tiny_out": b.softmax(b.input("x", _f32([64, 1000])), 1)})


def small_graph(b):
    rng = np.random.default_rng(6)
    x = b.input("x", _f32([1, 3, 64, 64]))
    y = b.relu(b.conv2d(x, b.constant(_f32([16, 3, 3, 3]), _rnd(rng, 16, 3, 3, 3)), {"padding": [1, 1, 1, 1]}))
    y = b.maxPool2d(y, {"windowDimensions": [2, 2], "strides": [2, 2]})
    y = b.relu(b.conv2d(y, b.constant(_f32([32, 16, 3, 3]), _rnd(rng, 32, 16, 3, 3)), {"padding": [1, 1, 1, 1]}))
    y = b.reshape(b.averagePool2d(y), [1, 32])
    return b.build({"small_out": b.gemm(y, b.constant(_f32([32, 10]), _rnd(rng, 32, 10)))})


def mlp_graph(b, rows: int = 64, width: int = 1024):
    rng = np.random.default_rng(7)
    y = b.input("x", _f32([rows, width]))
    for i in range(3):
        y = b.add(b.matmul(y, b.constant(_f32([width, width]), _rnd(rng, width, width))),
                  b.constant(_f32([width]), _rnd(rng, width)))
        y = b.relu(y) if i < 2 else b.softmax(y, 1)
    return b.build({"mlp_out": y})


def wire_graphs(names: Sequence[str], *, data: Path | None = None, layers: int = 2, seq: int = 128,
                dim: int = 256) -> tuple[dict[str, WireGraph], list[str]]:
    """The workloads' build messages, and why any was left out (MobileNetV2 without its weights)."""
    from scripts import gpu_check

    out: dict[str, WireGraph] = {}
    skipped = []
    for name in names:
        if name == "tiny":
            out[name] = tiny_graph(WireBuilder())
        elif name == "small":
            out[name] = small_graph(WireBuilder())
        elif name == "mlp":
            out[name] = mlp_graph(WireBuilder())
        elif name == "mobilenet":
            weights = mobilenet_weights(data)
            if weights is None:
                skipped.append("mobilenet: no ../shared/data/mobilenetv2/weights")
                continue
            out[name] = gpu_check.mobilenet_graph(WireBuilder(), weights)
        elif name == "transformer":
            out[name] = gpu_check.transformer_graph(WireBuilder(), layers, seq, dim)
        else:
            raise ValueError(f"unknown graph {name!r} (one of {', '.join(GRAPHS)})")
    return out, skipped


def mobilenet_weights(data: Path | None):
    from tests.models import mobilenet_data as md

    for cand in (data, os.environ.get("WEBNN_BRIDGE_DATA"), ROOT.parent / "shared" / "data", ROOT / "shared" / "data"):
        if cand and (Path(cand) / "mobilenetv2" / "weights").is_dir():
            md.MOBILENET_DIR = Path(cand) / "mobilenetv2"
            return md.load_weights()
    return None


# --------------------------------------------------------------------------- hosts and pages


def package_path() -> str:
    """A PYTHONPATH under which ``webnn_bridge`` is this checkout's (installed or not): its src/,
    then the checkout (for ``tests``)."""
    return os.pathsep.join([str(ROOT / "src"), str(ROOT)])


def choose_devices(inventory, wanted: Sequence[str] | None = None) -> list:
    """``wanted`` (device ids), else the first GPU (PyTorch's first) and ONNX Runtime's CPU, else (no GPU: a dry run)
    ONNX Runtime's and OpenVINO's CPUs."""
    by_id = {d.id: d for d in inventory}
    if wanted:
        missing = [w for w in wanted if w not in by_id]
        if missing:
            raise ValueError(f"unknown device(s) {missing}; this machine has {sorted(by_id)}")
        return [by_id[w] for w in wanted]
    gpus = sorted((d for d in inventory if d.kind == "gpu"), key=lambda d: d.backend != "torch")  # torch:cuda:0 first
    ort = by_id.get("onnxruntime:CPUExecutionProvider")
    if gpus and ort:
        return [gpus[0], ort]
    ov = by_id.get("openvino:CPU")
    if ort and ov:
        return [ort, ov]
    raise ValueError("needs two devices: a GPU and ONNX Runtime's CPU, or ONNX Runtime's and OpenVINO's CPUs "
                     "(or --devices)")


def write_profile(devices, path: Path) -> Path:
    """A declared inventory of exactly ``devices``, each bound to the probed device (real runs)."""
    path.write_text(json.dumps({"name": "tune-loop", "devices": [
        {"id": d.id, "kind": d.kind, "probe": d.id, "name": d.name} for d in devices]}, indent=1))
    return path


def single_rules(device, devices) -> str:
    """Rules that put ``device`` first for every graph: its backend first in its kind's order, and
    a route with no `when` that puts its kind and backend first (a route only reorders a
    context's own candidates: "fallback" and accelerated=false keep the CPU)."""
    same = [d.backend for d in devices if d.kind == device.kind and d.backend != device.backend]
    order = json.dumps([device.backend, *dict.fromkeys(same)])
    return (f"# tune loop: {device.id} first for every graph\n[backends]\n{device.kind} = {order}\n\n"
            f'[[routes]]\nid = "only-{device.backend}-{device.kind}"\nkinds = ["{device.kind}"]\n'
            f'backends = {order}\nreason = "tune loop: one device for every graph"\n')


class Page:
    """One page over the wire: a context with the workload's hint, its graph, its tensors."""

    def __init__(self, url: str, options: dict, g: WireGraph, seed: int = 1):
        from tests.wire import Wire

        self.wire = Wire(url, timeout=300)
        self.call({"t": "createContext", "ctx": 1, "options": options})
        self.call({"t": "build", "ctx": 1, "graph": 2, **g.msg}, g.parts)
        rng = np.random.default_rng(seed)
        self.inputs, self.outputs = {}, {}
        tid = 10
        for group, shapes in ((self.inputs, g.inputs), (self.outputs, g.outputs)):
            for name, shape in shapes.items():
                tid += 1
                self.call({"t": "createTensor", "ctx": 1, "tensor": tid,
                           "desc": {"dataType": "float32", "shape": shape, "readable": True, "writable": True}})
                group[name] = (tid, rng.standard_normal(shape).astype(np.float32).tobytes())

    def call(self, msg: dict, parts: list[bytes] | None = None):
        from benchmarks.soak import wire_call

        return wire_call(self.wire, msg, parts)

    def run(self, n: int) -> list[float]:
        """n times: write every input, dispatch, read every output (as the shim sends them); the
        page's latencies (ms)."""
        from webnn_bridge.bridge.protocol import RAW_MIN_BYTES

        times = []
        for _ in range(n):
            t = time.perf_counter()
            for tid, x in self.inputs.values():
                if len(x) >= RAW_MIN_BYTES:
                    self.wire.send({"t": "writeTensor", "tensor": tid, "raw": len(x)})
                    self.wire.send_frame(x)
                else:
                    self.wire.send({"t": "writeTensor", "tensor": tid}, [x])
            self.wire.send({"t": "dispatch", "ctx": 1, "graph": 2, "inputs": {k: v[0] for k, v in self.inputs.items()},
                            "outputs": {k: v[0] for k, v in self.outputs.items()}})
            for tid, _ in self.outputs.values():
                self.call({"t": "readTensor", "tensor": tid})
            times.append((time.perf_counter() - t) * 1e3)
        return times

    def close(self) -> None:
        self.wire.close()


def round_of(t: float, rounds: Sequence[tuple[float, float]]) -> int | None:
    """The round (index into (start, end) wall-clock times) a dispatch that ended at ``t`` fell in
    (a trace's ``t`` is rounded to 1 ms; the page got its reply after it), None for none."""
    return next((i for i, (t0, t1) in enumerate(rounds) if t0 - 0.002 <= t <= t1 + 0.002), None)


@dataclass
class Phase:
    """A host per rule set (each with a page per workload, open throughout), a warm-up round, then
    rounds in which every workload runs under each rule set back to back, every order of the rule
    sets in turn (benchmarks/bench_policy.py's harness). ``rounds``: (start, end) wall-clock times
    of each recorded round, so that a trace's dispatches (their ``t``) fall into rounds."""

    rules: dict[str, Path]
    graphs: dict[str, WireGraph]
    profile: Path
    folder: Path
    dispatches: dict[str, int]
    hosts: dict = field(default_factory=dict)
    pages: dict = field(default_factory=dict)
    rounds: list = field(default_factory=list)

    def traces(self) -> dict[str, Path]:
        return {k: self.folder / f"trace-{k}.jsonl" for k in self.rules}

    def __enter__(self) -> Phase:
        from benchmarks.soak import HostProcess

        path = package_path()
        try:
            for k, rules in self.rules.items():
                trace = self.traces()[k]
                trace.unlink(missing_ok=True)
                self.hosts[k] = HostProcess("--devices", str(self.profile), "--rules", str(rules), "--trace", str(trace),
                                            root=ROOT, pythonpath=path)
                self.pages[k] = {name: Page(self.hosts[k].url, HINTS[name], g) for name, g in self.graphs.items()}
            self._round(0)  # the warm-up (fresh pages and runtimes are slow); its dispatches are dropped
        except BaseException:
            self.__exit__()
            raise
        return self

    def run(self, r: int) -> None:
        t0 = time.time()
        self._round(r)
        self.rounds.append((t0, time.time()))

    def _round(self, r: int) -> None:
        orders = list(itertools.permutations(self.rules))
        for i, name in enumerate(self.graphs):
            for k in orders[(r * len(self.graphs) + i) % len(orders)]:
                time.sleep(SETTLE_S)
                self.pages[k][name].run(self.dispatches[name])

    def __exit__(self, *exc) -> None:
        for pages in self.pages.values():
            for p in pages.values():
                try:
                    p.close()
                except Exception:  # noqa: BLE001 - closing what is left
                    pass
        for h in self.hosts.values():
            h.stop()

    def events(self, k: str) -> list[dict]:
        """Host ``k``'s trace without the warm-up's dispatches."""
        from webnn_bridge.workbench.trace import read_trace

        start = self.rounds[0][0] if self.rounds else 0.0
        return [ev for ev in read_trace(self.traces()[k])
                if not (ev.get("event") == "dispatch" and isinstance(ev.get("t"), (int, float)) and ev["t"] < start)]

    def samples(self, k: str, labels: Mapping[str, str]) -> dict[str, list[list[float]]]:
        """Host ``k``'s recorded latencies (ms) per workload (by name) and round."""
        from webnn_bridge.workbench.trace import workloads

        events = self.events(k)
        by_hash = {}
        for w in workloads(events):
            by_hash[w.graph.get("hash")] = labels.get(w.label, w.label)
        out = {name: [[] for _ in self.rounds] for name in by_hash.values()}
        for ev in events:
            if ev.get("event") != "dispatch" or not isinstance(ev.get("t"), (int, float)):
                continue
            name = by_hash.get((ev.get("graph") or {}).get("hash"))
            i = round_of(ev["t"], self.rounds)
            if name is not None and i is not None:
                out[name][i].append(sum(float(v) for v in ev["latencyMs"].values()))
        return out


# --------------------------------------------------------------------------- the report (pure)


def _name(text: str, labels: Mapping[str, str]) -> str:
    """A workload's name from a trace's label or workload name ("PAGE LABEL")."""
    return next((name for label, name in labels.items() if text == label or text.endswith(" " + label)), text)


def weighted_total(p50: Mapping[str, float], dispatches: Mapping[str, int]) -> float:
    return sum(p50[w] * dispatches[w] for w in p50)


def boot_ratio(a: Mapping[str, list[float]], b: Mapping[str, list[float]], dispatches: Mapping[str, int],
               n: int = 2000, seed: int = 0) -> tuple[float, float]:
    """95% interval of total(a) / total(b), each workload's dispatches resampled (p50 taken again)."""
    rng = np.random.default_rng(seed)

    def boot(s: Mapping[str, list[float]]) -> np.ndarray:
        out = np.zeros(n)
        for w, ms in s.items():
            x = np.asarray(ms, float)
            out += np.median(x[rng.integers(0, len(x), (n, len(x)))], axis=1) * dispatches[w]
        return out

    r = boot(a) / boot(b)
    lo, hi = np.percentile(r, [2.5, 97.5])
    return float(lo), float(hi)


def report(samples: Mapping[str, Mapping[str, Sequence[Sequence[float]]]], predicted: Mapping[str, Mapping[str, float]],
           dispatches: Mapping[str, int], *, tuned: str = "tuned") -> dict:
    """The re-run against the prediction: ``samples[rules][workload]`` the host latencies (ms) of
    each round, ``predicted[rules][workload]`` tune's/replay's p50, ``dispatches[workload]`` per
    round. Per rule set and workload: pooled p50, error against the prediction; per rule set: the
    pooled weighted total, per-round totals, the predicted total; and tuned against each other
    rule set: ratio of the pooled totals [95% bootstrap], and the paired ratio of per-round totals
    (None under 3 rounds)."""
    from webnn_bridge.workbench.trace import paired_ratio

    names = [w for w in dispatches if all(w in rs and rs[w] and all(rs[w]) for rs in samples.values())]
    out: dict = {"workloads": names, "rules": {}, "versus": {}}
    pooled = {k: {w: [x for r in samples[k][w] for x in r] for w in names} for k in samples}
    for k in samples:
        p50 = {w: statistics.median(pooled[k][w]) for w in names}
        rounds = len(next(iter(samples[k].values()))) if samples[k] else 0
        per_round = [weighted_total({w: statistics.median(samples[k][w][i]) for w in names}, dispatches)
                     for i in range(rounds)]
        pred = predicted.get(k, {})
        rows = {w: {"p50_ms": p50[w], "predicted_ms": pred.get(w),
                    "error": (pred[w] / p50[w] - 1) if pred.get(w) is not None and p50[w] > 0 else None} for w in names}
        total = weighted_total(p50, dispatches)
        ptotal = weighted_total({w: pred[w] for w in names}, dispatches) if all(pred.get(w) is not None
                                                                                 for w in names) else None
        out["rules"][k] = {"workloads": rows, "total_ms": total, "per_round_ms": per_round, "predicted_ms": ptotal,
                           "error": (ptotal / total - 1) if ptotal is not None and total > 0 else None}
    if tuned in samples:
        for k in samples:
            if k == tuned:
                continue
            a, b = out["rules"][tuned], out["rules"][k]
            pr = paired_ratio(list(zip(b["per_round_ms"], a["per_round_ms"])))
            out["versus"][k] = {"ratio": a["total_ms"] / b["total_ms"],
                                "ci95": boot_ratio(pooled[tuned], pooled[k], dispatches),
                                "paired": None if pr is None else {"ratio": pr.ratio, "lo": pr.lo, "hi": pr.hi, "n": pr.n,
                                                                   "faster": pr.faster}}
    return out


def format_report(rep: Mapping, labels: Mapping[str, str] | None = None, *, tuned: str = "tuned") -> str:
    labels = labels or {}
    keys = list(rep["rules"])
    lines = ["per workload: the host's p50 in the re-run (ms) against the prediction (tune's for the tuned rules, "
             "replay with the matrix for the others), error = predicted / re-run - 1",
             *(f"  [{i}] {labels.get(k, k)}" for i, k in enumerate(keys)),
             f"  {'workload':<12} " + " ".join(f"{f'[{i}] re-run / predicted':>30}" for i in range(len(keys)))]
    for w in rep["workloads"]:
        cells = []
        for k in keys:
            r = rep["rules"][k]["workloads"][w]
            pred = "-" if r["predicted_ms"] is None else f"{r['predicted_ms']:.3f}"
            err = "" if r["error"] is None else f" {r['error']:+.0%}"
            cells.append(f"{r['p50_ms']:.3f} / {pred}{err}")
        lines.append(f"  {w:<12} " + " ".join(f"{c:>30}" for c in cells))
    errs = [abs(r["error"]) for k in rep["rules"] for r in rep["rules"][k]["workloads"].values() if r["error"] is not None]
    if errs:
        lines.append(f"  prediction error: median {statistics.median(errs):.0%}, max {max(errs):.0%} over {len(errs)}")
    lines.append("weighted totals per round (each workload's p50 over all rounds x its dispatches per round) "
                 "[lowest, highest round]:")
    for k, r in rep["rules"].items():
        pr = r["per_round_ms"]
        pred = "" if r["predicted_ms"] is None else f"; predicted {r['predicted_ms']:.2f} ms ({r['error']:+.0%})"
        lines.append(f"  {labels.get(k, k):<40} {r['total_ms']:9.2f} ms [{min(pr):.2f}, {max(pr):.2f}]{pred}")
    for k, v in rep["versus"].items():
        p = v["paired"]
        paired = ("paired over rounds: needs 3 rounds" if p is None else
                  f"paired over {p['n']} rounds {p['ratio']:.2f}x [{p['lo']:.2f}, {p['hi']:.2f}], faster in "
                  f"{p['faster']} of {p['n']}")
        lines.append(f"  {labels.get(tuned, tuned)} / {labels.get(k, k)}: {v['ratio']:.2f}x "
                     f"[{v['ci95'][0]:.2f}, {v['ci95'][1]:.2f}] (bootstrap of the dispatches); {paired}")
    if rep["versus"]:
        best = min(rep["versus"], key=lambda k: rep["rules"][k]["total_ms"])
        if best != CURRENT or len(rep["versus"]) == 1:
            lines.append(f"  best single device: {labels.get(best, best)}; tuned / best "
                         f"{rep['versus'][best]['ratio']:.2f}x")
    return "\n".join(lines)


# --------------------------------------------------------------------------- the loop


def run(*, devices: Sequence[str] | None = None, graphs: Sequence[str] = GRAPHS, rounds: int = 3, seconds: float = 20.0,
        scale: float = 1.0, data: Path | None = None, out: Path | None = None, layers: int = 2, seq: int = 128,
        dim: int = 256, reps: int = 30, log=print) -> dict:
    """Record, measure, tune, re-run (module doc); prints as it goes and returns the figures."""
    from webnn_bridge.policy import engine
    from webnn_bridge.policy.inventory import load_profile, probe_inventory
    from webnn_bridge.workbench import measure, trace, tune

    t_start = time.perf_counter()
    out = Path(out) if out else Path(tempfile.mkdtemp(prefix="tune-loop-"))
    out.mkdir(parents=True, exist_ok=True)
    chosen = choose_devices(probe_inventory(), devices)
    profile = write_profile(chosen, out / "devices.json")
    inventory = load_profile(profile)
    wg, skipped = wire_graphs(graphs, data=data, layers=layers, seq=seq, dim=dim)
    labels = {g.label: name for name, g in wg.items()}
    dispatches = {name: max(1, round(DISPATCHES[name] * scale)) for name in wg}
    log(f"tune loop: devices {', '.join(d.id for d in chosen)}; graphs {', '.join(wg)}"
        + (f" (skipped: {'; '.join(skipped)})" if skipped else "") + f"; {rounds} round(s); out {out}")

    rules: dict[str, Path] = {CURRENT: out / "current.toml"}
    rules[CURRENT].write_text("# the current rules: the defaults\n")
    singles = {}
    for d in chosen:
        key = f"only {d.id}"
        singles[key] = out / f"only-{d.backend}-{d.kind}.toml"
        singles[key].write_text(single_rules(d, chosen))
        engine.load_rules(singles[key])  # validated before any host starts
    rules.update(singles)

    # 1. record
    rec = Phase(rules, wg, profile, out / "record", dispatches)
    rec.folder.mkdir(exist_ok=True)
    with rec:
        for r in range(rounds):
            rec.run(r)
            log(f"  record round {r + 1}/{rounds} done ({time.perf_counter() - t_start:.0f} s)")
    events = {k: rec.events(k) for k in rules}
    # 2. measure (in this process, the chosen devices)
    matrix = measure.measure(events[CURRENT], devices=inventory, seconds=seconds, reps=reps, progress=None)
    measure.write_matrix(matrix, out / "matrix.json")
    log(f"  measured {len(matrix['graphs'])} graph(s) on {', '.join(matrix['devices'])} "
        f"({time.perf_counter() - t_start:.0f} s)")
    for g in matrix["graphs"].values():
        row = ", ".join(f"{dev} {res['p50']:.3f}" for dev, res in g["results"].items())
        log(f"    {_name(g['label'], labels):<12} p50 ms: {row}"
            + (f"; skipped {g['skipped']}" if g.get("skipped") else ""))
    # 3. tune from every trace and the matrix
    base = engine.load_rules(rules[CURRENT])
    everything = [ev for k in rules for ev in events[k]]
    result = tune.tune(everything, matrix, base, inventory, objective="latency-p50")
    paths = tune.write_outputs(result, out / "tuned.toml", out / "report", base)
    log(f"  policy tune chose: {result['best'].name} -> {paths['rules']} ({paths['md']})")
    if result.get("note"):
        log(f"  tune: {result['note']}")
    predicted: dict[str, dict[str, float]] = {"tuned": {}}
    for w, o in zip(result["workloads"], result["best"].outcomes):
        if o.latency_ms is not None:
            predicted["tuned"][labels.get(w.label, w.label)] = o.latency_ms
    for k, path in singles.items():
        rows = trace.replay(everything, base, engine.load_rules(path), inventory, matrix=matrix)
        predicted[k] = {labels.get(r.label, r.label): r.b.latency_ms for r in rows if r.b.latency_ms is not None}
    # 4. re-run: tuned and each single device, interleaved
    again = Phase({"tuned": paths["rules"], **singles}, wg, profile, out / "rerun", dispatches)
    again.folder.mkdir(exist_ok=True)
    with again:
        for r in range(rounds):
            again.run(r)
            log(f"  re-run round {r + 1}/{rounds} done ({time.perf_counter() - t_start:.0f} s)")
    samples = {k: again.samples(k, labels) for k in again.rules}
    rep = report(samples, predicted, dispatches)
    rep.update(devices=[d.id for d in chosen], chosen=result["best"].name, note=result.get("note"),
               seconds=round(time.perf_counter() - t_start, 1), out=str(out), dispatches=dispatches,
               rounds={"record": rec.rounds, "rerun": again.rounds})
    log(format_report(rep, {"tuned": f"tuned ({result['best'].name})"}))
    (out / "summary.json").write_text(json.dumps(rep, indent=1, default=str))
    log(f"  tune loop: {rep['seconds']} s; traces, matrix.json, tuned.toml, report/tune.md, summary.json in {out}")
    return rep


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--devices", help="device ids, comma-separated (default: the first GPU and ONNX Runtime's CPU; "
                                      "without a GPU, ONNX Runtime's and OpenVINO's CPUs)")
    ap.add_argument("--graphs", default=",".join(GRAPHS))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=20.0, help="`policy measure` time budget")
    ap.add_argument("--scale", type=float, default=1.0, help="dispatches per block x this")
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--seq", type=int, default=128)
    ap.add_argument("--dim", type=int, default=256)
    ap.add_argument("--data", help="the shared data folder (MobileNetV2's weights)")
    ap.add_argument("--out", help="keep traces, matrix, rules and report here")
    args = ap.parse_args(argv)
    run(devices=args.devices.split(",") if args.devices else None, graphs=args.graphs.split(","), rounds=args.rounds,
        seconds=args.seconds, scale=args.scale, data=Path(args.data) if args.data else None,
        out=Path(args.out) if args.out else None, layers=args.layers, seq=args.seq, dim=args.dim)
    return 0


if __name__ == "__main__":
    sys.exit(main())
