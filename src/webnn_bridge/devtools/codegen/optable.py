"""Generator: the operators x backends x data types table of docs/operators.md, rendered from the
op registry and each backend's capabilities (`webnn-bridge codegen` splices it between the markers of
that hand-written page; `--check` fails when it is stale).

It lives with the code generators, not in ops/: it reads every backend's capabilities, and the
runtime's ops/ never imports backends/."""

from __future__ import annotations

from pathlib import Path

from webnn_bridge.backends.base import Capabilities, Device
from webnn_bridge.ops.registry import Limits, load_all, resolve_same

from .header import COMMAND, MARKER

DOC = Path("docs/operators.md")  # relative to the repository root
BEGIN = f"<!-- ops-table:begin ({MARKER}: `{COMMAND}` writes it from src/webnn_bridge/ops/ and src/webnn_bridge/backends/) -->"
END = "<!-- ops-table:end -->"
SHORT = {"float32": "f32", "float16": "f16", "int32": "i32", "uint32": "u32", "int64": "i64",
         "uint64": "u64", "int8": "i8", "uint8": "u8", "int4": "i4*", "uint4": "u4*"}
ORDER = list(SHORT)


def _types(limits: dict[str, Limits], name: str) -> tuple[str, ...]:
    types = resolve_same(limits, name).types
    return tuple(t for t in ORDER if t in types)


def _fmt_types(types: tuple[str, ...]) -> str:
    return " ".join(SHORT[t] for t in types) if types else "–"


def _rank(lim: Limits) -> str:
    lo, hi = lim.ranks
    if lim.same_rank is not None:
        return ""
    if hi is not None and lo == hi:
        return f" ({lo}-D)"
    if (lo, hi) == (0, None):
        return ""
    return f" (rank {lo}–{'N' if hi is None else hi})"


def _operands(limits: dict[str, Limits]) -> str:
    parts = []
    for name, lim in limits.items():
        if name == "output":
            continue
        if lim.same is not None:
            parts.append(f"{name}{_rank(lim)}: = {lim.same}")
        else:
            parts.append(f"{name}{_rank(lim)}: {_fmt_types(_types(limits, name))}")
    return "<br>".join(parts)


def _backend_cell(spec: dict[str, Limits], caps: Capabilities, op: str) -> str:
    got = caps.ops.get(op)
    if got is None:
        return "–"
    missing = []
    for name in spec:
        if name not in got:
            missing.append(f"no {name}")
            continue
        lost = [t for t in _types(spec, name) if t not in _types(got, name)]
        if lost:
            missing.append(f"{name} without {_fmt_types(tuple(lost))}")
    return "✓" if not missing else "✓ (" + "; ".join(missing) + ")"


def backend_columns() -> list[tuple[str, Capabilities]]:
    """(column title, capabilities) for each backend, on a representative CPU device: the table
    does not depend on the machine that renders it."""
    from webnn_bridge.backends.coreml import CoreMLBackend
    from webnn_bridge.backends.onnxruntime import OnnxRuntimeBackend
    from webnn_bridge.backends.openvino import OpenVinoBackend
    from webnn_bridge.backends.reference import ReferenceBackend
    from webnn_bridge.backends.tensorrt import TensorRtBackend
    from webnn_bridge.backends.torch import TorchBackend

    cols = []
    for title, cls, dev in (
        ("numpy reference", ReferenceBackend, Device("reference:cpu", "cpu", ReferenceBackend.name)),
        ("ONNX Runtime CPU", OnnxRuntimeBackend,
         Device("onnxruntime:CPUExecutionProvider", "cpu", OnnxRuntimeBackend.name,
                providers=("CPUExecutionProvider",))),
        ("OpenVINO CPU (measured)", OpenVinoBackend, Device("openvino:CPU", "cpu", OpenVinoBackend.name,
                                                            providers=("CPU",))),
        ("TensorRT (declared)", TensorRtBackend, Device("tensorrt:0", "gpu", TensorRtBackend.name, providers=("0",))),
        ("Core ML (converts)", CoreMLBackend, Device("coreml:cpu", "cpu", CoreMLBackend.name, providers=("CPU_ONLY",))),
        ("PyTorch CPU, CUDA", TorchBackend, Device("torch:cpu", "cpu", TorchBackend.name, providers=("cpu",))),
        ("PyTorch MPS (declared)", TorchBackend, Device("torch:mps", "gpu", TorchBackend.name, providers=("mps",))),
    ):
        cols.append((title, cls.instance().capabilities(dev)))
    return cols


def render() -> str:
    cols = backend_columns()
    head = "| operator | operands and data types (spec) | " + " | ".join(t for t, _ in cols) + " |"
    lines = [BEGIN, "", head, "|" + "---|" * (2 + len(cols))]
    for name, op in sorted(load_all().items()):
        cells = [f"`{name}`", _operands(op.limits)] + [_backend_cell(op.limits, caps, name) for _, caps in cols]
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", f"{len(load_all())} operators. ✓: the backend runs every data type the spec allows for the op "
              "(what `opSupportLimits()` reports before privacy bucketing); a note lists what it lacks. "
              "`i4*` / `u4*`: int4 / uint4, an extension beyond the spec's data types (packed two per byte).",
              "", END]
    return "\n".join(lines)


def splice(text: str) -> str:
    """The page's text with the table between the markers replaced (the markers must be present)."""
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < 0:
        raise ValueError(f"{DOC} lacks the ops-table markers")
    return text[:start] + render() + text[end + len(END):]


def outputs(root: Path) -> dict[Path, str]:
    """{docs/operators.md: its text with a current table}."""
    path = root / DOC
    return {path: splice(path.read_text())}
