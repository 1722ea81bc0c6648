"""`webnn-bridge codegen`: the one command that regenerates every generated file of the repository.

Each generated file has one generator, registered in ``GENERATORS`` below; ``webnn-bridge codegen``
writes every stale file and ``webnn-bridge codegen --check`` fails when any committed file differs
from what would be generated (tests/test_codegen.py does the same, and also fails when a file
carries a generated-file header that no generator here produces).

| file (package files: in src/webnn_bridge/) | generator |
|---|---|
| idl/model.json, js_shim/generated/webnn_idl.js | idl.py: the WebIDL (idl/*.idl) model as data, and the JS interfaces |
| js_shim/generated/webnn_ops.js | jsgen.py: the op rules (ops/) translated from Python |
| docs/operators.md (the operator table between its markers) | optable.py |
| docs/cli.md | cli_reference.py: the command-line reference, from the argparse parsers |
| policy/TRUTH_TABLE.md | policy/truth_table.py (also `webnn-bridge policy truth-table --write`) |
| backends/onnx_op_types.json | backend_tables.py: the ONNX operators each op's lowering emits |
| backends/openvino_caps.json | backend_tables.py: measured on the installed OpenVINO's CPU plugin |

``ROOT`` is the repository (docs/ is in it), ``PACKAGE`` the package's folder in it (src/webnn_bridge/);
a generator's ``paths`` are relative to ``ROOT``.

A generator that needs an optional runtime (OpenVINO's measured table) is run when that runtime is
installed; otherwise the command says which file it skipped and why (``--check`` still passes, the
test that compares the file skips with the same reason). A measured table takes tens of seconds, so
the test command (scripts/test.sh), which runs ``--check`` first, tells the test not to measure it
again (``WEBNN_BRIDGE_CODEGEN_CHECKED=1``).

Before it writes anything, the command checks that every operator has each piece CONTRIBUTING.md asks
for (preflight.py: its IDL method and MLOpSupportLimits member, its OpDef, its capability-sweep case) and
fails naming the missing step; a generator that fails later puts back the files the run had written.

The backend tables run the capability sweep's cases (devtools/sweep_cases.py, devtools/sweep_run.py).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .header import COMMAND, MARKER  # noqa: F401 (MARKER: read by tests/test_codegen.py)

PACKAGE = Path(__file__).resolve().parents[2]  # src/webnn_bridge: the package's folders
ROOT = PACKAGE.parents[1]  # the repository (docs/, tests/ and src/ beside each other)
SRC = PACKAGE.relative_to(ROOT)  # src/webnn_bridge, relative to ROOT
SKIP_MEASURED = "WEBNN_BRIDGE_CODEGEN_SKIP_MEASURED"  # "1": skip the measured tables, saying so


@dataclass(frozen=True)
class Generator:
    name: str
    paths: tuple[Path, ...]  # the files it writes (relative to ROOT)
    render: Callable[[], dict[Path, str]]  # path -> full text
    needs: str | None = None  # an optional module it needs; missing: skipped with a reason
    unavailable: Callable[[], str | None] | None = None  # why it cannot run here (asked after `needs`)
    reload: Callable[[], None] | None = None  # after a write: drop what this process cached of the old files
    measured: bool = False  # renders by running a backend (tens of seconds), not from the sources alone

    def missing(self) -> str | None:
        """Why this generator cannot run here, or None."""
        if self.needs and importlib.util.find_spec(self.needs) is None:
            return f"{self.needs} is not installed"
        if self.measured and os.environ.get(SKIP_MEASURED) == "1":
            return f"{SKIP_MEASURED}=1 (a measured table; tests/test_contributing_walk.py sets it)"
        return self.unavailable() if self.unavailable else None


def _idl() -> dict[Path, str]:
    from . import idl

    return idl.outputs()


def _ops_js() -> dict[Path, str]:
    from . import jsgen

    return jsgen.outputs()


def _ops_table() -> dict[Path, str]:
    from . import optable

    return optable.outputs(ROOT)


def _cli_reference() -> dict[Path, str]:
    from . import cli_reference

    return cli_reference.outputs(ROOT)


def _truth_table() -> dict[Path, str]:
    from webnn_bridge.policy.truth_table import TRUTH_TABLE_MD, render_truth_table

    return {TRUTH_TABLE_MD: render_truth_table()}


def _onnx_op_types() -> dict[Path, str]:
    from . import backend_tables

    return backend_tables.onnx_op_types_outputs()


def _openvino_caps() -> dict[Path, str]:
    from . import backend_tables

    return backend_tables.openvino_caps_outputs()


def _no_openvino_cpu() -> str | None:
    from . import backend_tables

    return None if backend_tables.openvino_cpu() is not None else "OpenVINO reports no CPU device"


def _reload_idl() -> None:
    from webnn_bridge.idl import idl_model

    idl_model.cache_clear()


def _reload_onnx_op_types() -> None:
    from webnn_bridge.backends.tensorrt import lowered_op_types

    lowered_op_types.cache_clear()


def _reload_openvino_caps() -> None:
    from webnn_bridge.backends.openvino import caps_table

    caps_table.cache_clear()


# In dependency order (each one reads the files of those before it): the host needs the IDL model to
# build the graphs the backend tables are measured on, and the operator table shows the backends' tables.
GENERATORS: tuple[Generator, ...] = (
    Generator("IDL model", (SRC / "js_shim/generated/webnn_idl.js", SRC / "idl/model.json"), _idl, needs="pywebidl2",
              reload=_reload_idl),
    Generator("op rules (JS)", (SRC / "js_shim/generated/webnn_ops.js",), _ops_js),
    Generator("policy truth table", (SRC / "policy/TRUTH_TABLE.md",), _truth_table),
    Generator("TensorRT ONNX operator table", (SRC / "backends/onnx_op_types.json",), _onnx_op_types,
              reload=_reload_onnx_op_types),
    Generator("OpenVINO capability table", (SRC / "backends/openvino_caps.json",), _openvino_caps, needs="openvino",
              unavailable=_no_openvino_cpu, reload=_reload_openvino_caps, measured=True),
    Generator("operator table", (Path("docs/operators.md"),), _ops_table),
    Generator("CLI reference", (Path("docs/cli.md"),), _cli_reference),
)


def generated_paths() -> set[Path]:
    """Every file a generator writes (absolute)."""
    return {ROOT / p for g in GENERATORS for p in g.paths}


def _rel(p: Path) -> str:
    p = ROOT / p  # a relative path is relative to ROOT; an absolute one stays
    return str(p.relative_to(ROOT)) if p.is_relative_to(ROOT) else str(p)


def outputs(generators: tuple[Generator, ...] | None = None) -> tuple[dict[Path, str], dict[str, str]]:
    """({path: text} of every generator (default: all of GENERATORS) that can run here, {name: why it was skipped}),
    each computed from the files as they are (nothing is written)."""
    out: dict[Path, str] = {}
    skipped: dict[str, str] = {}
    for g in GENERATORS if generators is None else generators:
        reason = g.missing()
        if reason:
            skipped[g.name] = f"{', '.join(map(_rel, g.paths))}: {reason}"
            continue
        out.update(g.render())
    return out, skipped


def _stale(texts: dict[Path, str]) -> list[Path]:
    return [path for path, text in texts.items() if (path.read_text() if path.exists() else None) != text]


def _restore(written: dict[Path, str | None], done: list[Generator]) -> None:
    for path, text in written.items():
        if text is None:
            path.unlink(missing_ok=True)
        else:
            path.write_text(text)
    for g in done:
        if g.reload:
            g.reload()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    p.add_argument("--check", action="store_true", help="fail if a committed generated file is stale (writes nothing)")
    args = p.parse_args(argv)
    from . import preflight
    from .jsgen import JsGenError

    missing = preflight.problems()  # each operator has every piece CONTRIBUTING.md asks for: else write nothing
    if missing:
        for line in missing:
            print(f"codegen: {line}", file=sys.stderr)
        return 2
    stale: list[Path] = []
    checked = skipped = 0
    written: dict[Path, str | None] = {}  # what this run overwrote (None: a new file), put back on a failure
    done: list[Generator] = []
    for g in GENERATORS:  # one at a time, in order: a later generator reads what an earlier one wrote
        reason = g.missing()
        if reason:
            print(f"codegen: skipped {g.name} ({', '.join(map(_rel, g.paths))}: {reason})", file=sys.stderr)
            skipped += 1
            continue
        try:
            texts = g.render()
        except Exception as e:  # any failure: name the generator, keep the tree as it was
            what = str(e) if isinstance(e, JsGenError) else f"{g.name} failed: {type(e).__name__}: {e}"
            _restore(written, done)
            print(f"codegen: {what}" + (f" (put back the {len(written)} file(s) this run had written)"
                                        if written else ""), file=sys.stderr)
            return 2
        checked += len(texts)
        now = _stale(texts)
        stale += now
        if now and not args.check:
            for path in now:
                written.setdefault(path, path.read_text() if path.exists() else None)
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(texts[path])
            if g.reload:
                g.reload()
            done.append(g)
    rel = [_rel(s) for s in stale]
    if args.check:
        if stale:
            print("generated files are stale: " + ", ".join(rel) + f" (run `{COMMAND}`)", file=sys.stderr)
            return 1
        print(f"generated files are up to date ({checked} checked, {skipped} generator(s) skipped)")
        return 0
    print("wrote " + ", ".join(rel) if rel else "generated files already up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
