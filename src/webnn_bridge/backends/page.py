"""The page's own runtime: small graphs run where the page is (issue 39).

A graph placed here is validated and lowered to ONNX by the host, exactly as for ONNX Runtime
(onnx_lowering), and its model goes back to the page, whose shim runs it with onnxruntime-web's
wasm backend (ONNX Runtime's CPU kernels compiled to WebAssembly, served by the host from the
folder ``serve --page-local`` names). The host never runs it: a dispatch costs no round trip,
which for graphs of a few hundred microseconds is most of their time.

There is no device to probe: the host adds this one to what its policy may place on when it
serves a page runtime, and the policy's [page] rules choose it per graph (policy/rules.toml §4c).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np

from webnn_bridge.ops.core import OperationError
from webnn_bridge.ops.graph import GraphIR

from .base import Backend, Compiled, Device

# the files of onnxruntime-web (npm, the version scripts/install_ortweb.sh pins) a page needs: the
# wasm-only ES module bundle and its WebAssembly binary
RUNTIME_FILES = ("ort.wasm.bundle.min.mjs", "ort-wasm-simd-threaded.wasm")
# the ONNX IR version of the models sent to pages: one every onnxruntime-web since 1.17 loads
PAGE_IR_VERSION = 10
# the runtime the page's models are lowered for (OnnxLowering's target): where an op's fastest ONNX
# form differs in onnxruntime-web's wasm kernels from native ONNX Runtime's (ops/defs/conv2d.py)
PAGE_TARGET = "wasm"
DEVICE_ID = "page:onnxruntime-web-wasm"


def runtime_folder(path: str | Path | None) -> Path | None:
    """``path`` when it holds every runtime file, else None."""
    if not path:
        return None
    folder = Path(path)
    return folder if all((folder / f).is_file() for f in RUNTIME_FILES) else None


def default_runtime_folder() -> Path | None:
    """Where ``serve`` finds the runtime when not told: $WEBNN_BRIDGE_PAGE_RUNTIME (set but empty:
    none), else the newest .ortweb/onnxruntime-web-* under the current folder, else under the
    checkout this package runs from (scripts/install_ortweb.sh puts it there)."""
    import os

    env = os.environ.get("WEBNN_BRIDGE_PAGE_RUNTIME")
    if env is not None:
        return runtime_folder(env)

    def version(p: Path) -> tuple:
        return tuple(int(x) if x.isdigit() else 0 for x in p.name.rsplit("-", 1)[-1].split("."))

    for base in (Path("."), Path(__file__).resolve().parents[3]):  # src/webnn_bridge/backends/page.py
        found = [p for p in (base / ".ortweb").glob("onnxruntime-web-*") if runtime_folder(p)]
        if found:
            return max(found, key=version).absolute()
    return None


def page_device(folder: Path) -> Device:
    return Device(id=DEVICE_ID, kind="cpu", backend=PageBackend.name,
                  name="the page's onnxruntime-web (wasm, one thread)", details={"runtime": str(folder)})


class PageCompiled(Compiled):
    """A graph the page runs: its ONNX model (constants inside) and its value names. ``model``:
    the serialized model when known (the compile cache's entry), else the graph is lowered."""

    def __init__(self, graph: GraphIR, model: bytes | None = None):
        from .onnx_lowering import io_names, lower_graph
        from .onnxruntime import disabled_optimizers

        if model is None:
            lowered, self.in_map, self.out_map = lower_graph(graph, PAGE_IR_VERSION, external=False, target=PAGE_TARGET)
            model = lowered.SerializeToString()
        else:
            self.in_map, self.out_map = io_names(graph)
        self.model = model
        self.disabled_optimizers = disabled_optimizers(graph)

    def run(self, inputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        raise OperationError("This graph runs in the page (its placement is the page's runtime), not on the host.")


class PageBackend(Backend):
    name = "page"

    @classmethod
    def probe(cls) -> list[Device]:
        return []  # added by a host that serves the runtime (bridge/host_ml.py), never probed

    def implements(self, op: str) -> bool:
        from .onnxruntime import OnnxRuntimeBackend

        return OnnxRuntimeBackend.instance().implements(op)

    def compile(self, graph: GraphIR, device: Device) -> Compiled:
        return PageCompiled(graph)

    # the compile cache keeps the lowered model (a reload, or a restarted host, sends it again
    # without lowering the graph): it is what the page's runtime compiles, constants inside
    def cache_token(self, device: Device) -> str:
        from .onnxruntime import lowering_fingerprint

        return repr(("page", PAGE_IR_VERSION, PAGE_TARGET, device.id, lowering_fingerprint()))

    def artifact(self, graph: GraphIR, device: Device) -> bytes:
        return PageCompiled(graph).model

    def load_artifact(self, artifact: bytes, graph: GraphIR, device: Device) -> Compiled:
        return PageCompiled(graph, artifact)
