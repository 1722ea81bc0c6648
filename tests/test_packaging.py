"""The installed package exposes one import name, `webnn_bridge` (issue 11): the folders of
src/webnn_bridge/ (bridge, ops, policy, workbench, backends, idl, js_shim, devtools) are its subpackages, never
top-level modules in a user's environment.

The developer tools (src/webnn_bridge/devtools/: the WPT runner and the oracle) sit above the runtime (issue 23): the
runtime packages never import them, statically or by name, except the CLI's one lazy dispatch of
`webnn-bridge wpt|oracle`.

The tuning workbench (src/webnn_bridge/workbench/) and the testing kit (.../bridge/testing/) sit above the host (issue 37):
serving pages loads neither."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

SUBPACKAGES = ("bridge", "bridge.testing", "ops", "policy", "workbench", "backends", "idl", "js_shim", "devtools")
RUNTIME = ("bridge", "ops", "policy", "workbench", "backends", "idl", "js_shim")
DEVTOOLS = "webnn_bridge.devtools"
ROOT = Path(__file__).resolve().parent.parent
PACKAGE_DIR = ROOT / "src" / "webnn_bridge"


def _run(code: str, tmp_path) -> subprocess.CompletedProcess:
    # run outside the checkout so the working directory cannot make the repo's folders importable
    return subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("name", SUBPACKAGES)
def test_subpackage_importable_under_one_name(name, tmp_path):
    r = _run(f"import webnn_bridge.{name} as m; print(m.__name__)", tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == f"webnn_bridge.{name}"


def test_src_layout_without_a_package_dir_mapping(tmp_path):
    """The package is src/webnn_bridge/ (issue 37), a regular package that setuptools finds under src/: no
    pyproject mapping from package names to other folders, so tools that follow imports see its layers."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert "package-dir" not in setuptools
    assert setuptools["packages"]["find"]["where"] == ["src"]
    assert (PACKAGE_DIR / "__init__.py").is_file()
    for name in SUBPACKAGES:
        assert (PACKAGE_DIR / name.replace(".", "/") / "__init__.py").is_file(), name
        top = name.split(".")[0]
        assert not (ROOT / top / "__init__.py").exists(), f"a top-level package {top}/ beside src/"
    r = _run("import webnn_bridge; print(webnn_bridge.__file__)", tmp_path)
    assert r.returncode == 0, r.stderr
    assert Path(r.stdout.strip()).resolve() == PACKAGE_DIR / "__init__.py"


@pytest.mark.parametrize("name", SUBPACKAGES)
def test_no_generic_top_level_module(name, tmp_path):
    name = name.split(".")[-1]
    r = _run(f"import importlib.util, sys; sys.exit(importlib.util.find_spec({name!r}) is not None)", tmp_path)
    assert r.returncode == 0, f"the installed package exposes a top-level module {name!r}"


def devtools_imports(module: str, source: str, is_package: bool = False) -> list[str]:
    """Every import in ``source`` (module ``webnn_bridge.<module>``; absolute or relative, at any
    depth) that names the dev tools, and every string constant that spells their package name
    (an ``importlib.import_module`` by name)."""
    found = []
    base = f"webnn_bridge.{module}".split(".")
    if not is_package:
        base = base[:-1]
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            prefix = ".".join(base[: len(base) - (node.level - 1)]) if node.level else ""
            target = ".".join(p for p in (prefix, node.module) if p)
            names = [target] + [f"{target}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            names = [node.value] if node.value.startswith(DEVTOOLS) else []
        found += [n for n in names if n == DEVTOOLS or n.startswith(DEVTOOLS + ".")][:1]
    return found


def test_devtools_scan_sees_every_form():
    """The scan below is not vacuous: it catches absolute, relative, function-level and by-name imports."""
    assert devtools_imports("bridge.x", "from ..devtools import wpt")
    assert devtools_imports("bridge.x", "def f():\n    from webnn_bridge.devtools.oracle import main")
    assert devtools_imports("bridge", "from ..devtools import wpt", is_package=True)  # bridge/__init__.py
    assert devtools_imports("bridge", "from .devtools import wpt", is_package=True) == []  # webnn_bridge.bridge.devtools
    assert devtools_imports("ops.defs.x", "import webnn_bridge.devtools.wpt as w")
    assert devtools_imports("bridge.x", "importlib.import_module('webnn_bridge.devtools.wpt')")
    assert devtools_imports("bridge.x", "from . import wpt\nfrom .embed import start_host") == []


def test_runtime_packages_never_import_the_devtools():
    files = [p for folder in RUNTIME for p in sorted((PACKAGE_DIR / folder).rglob("*.py"))]
    assert len(files) > 40
    offenders = {}
    for path in files:
        rel = path.relative_to(PACKAGE_DIR).with_suffix("")
        parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
        hits = devtools_imports(".".join(parts), path.read_text(encoding="utf-8"), rel.name == "__init__")
        if hits:
            offenders[str(path.relative_to(PACKAGE_DIR))] = hits
    # the one sanctioned reference: the CLI's lazy dispatch of `webnn-bridge wpt|oracle` by name
    assert offenders.pop("bridge/cli.py", None) == [DEVTOOLS]
    assert offenders == {}, f"runtime modules import the dev tools: {offenders}"


def test_the_runtime_loads_without_the_devtools(tmp_path):
    """Importing the host, the CLI and the pytest plugin (and building the CLI's parser) loads no dev tool."""
    r = _run("import sys\n"
             "import webnn_bridge.bridge.cli as cli, webnn_bridge.bridge.embed, webnn_bridge.bridge.testing.pytest_plugin\n"
             "import webnn_bridge.bridge.server, webnn_bridge.workbench.cli, webnn_bridge.backends\n"
             "cli.build_parser()\n"
             "print(sorted(m for m in sys.modules if m.startswith('webnn_bridge.')))", tmp_path)
    assert r.returncode == 0, r.stderr
    loaded = ast.literal_eval(r.stdout)
    assert "webnn_bridge.bridge.server" in loaded
    assert not [m for m in loaded if m.startswith(DEVTOOLS)], loaded


def test_devtools_ship_the_oracle_page(tmp_path):
    r = _run("from webnn_bridge.devtools import oracle; print(oracle.RUNNER_JS.is_file(), oracle.RUNNER_JS.name)", tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["True", "oracle.js"]


def test_serving_loads_neither_the_workbench_nor_the_testing_kit(tmp_path):
    """A host (the server, an embedded host, the policy engine) imports no workbench and no testing
    module: they sit above it (only src/webnn_bridge/bridge/cli.py wires the workbench in, when its commands run)."""
    r = _run("import sys\n"
             "import webnn_bridge.bridge.server, webnn_bridge.bridge.embed, webnn_bridge.bridge.session\n"
             "import webnn_bridge.bridge.host_ml, webnn_bridge.bridge.heap, webnn_bridge.bridge.wire\n"
             "import webnn_bridge.policy.engine, webnn_bridge.policy.privacy, webnn_bridge.policy.truth_table\n"
             "import webnn_bridge.policy.matrix, webnn_bridge.policy.replica\n"
             "print(sorted(m for m in sys.modules if m.startswith('webnn_bridge.')))", tmp_path)
    assert r.returncode == 0, r.stderr
    loaded = ast.literal_eval(r.stdout)
    assert "webnn_bridge.bridge.server" in loaded
    assert not [m for m in loaded if m.startswith(("webnn_bridge.workbench", "webnn_bridge.bridge.testing"))], loaded
