"""The checklists of CONTRIBUTING.md, as tests: each fails, naming the step, when a contribution
misses one. Adding an operator: its IDL lines (the MLGraphBuilder method and its MLOpSupportLimits
member), one op definition under src/webnn_bridge/ops/defs/ with its rules, reference and lowerings, its capability-sweep
case, `webnn-bridge codegen` (tests/test_codegen.py checks every generated file), and test data
(tests/test_contributing_walk.py follows the steps on a copy of the repository). Adding a backend:
one module under src/webnn_bridge/backends/ behind the small interface,
its registration in src/webnn_bridge/backends/__init__.py, no runtime imported until it is used."""

from __future__ import annotations

import ast
import functools
import inspect
import json
from pathlib import Path

import pytest

from webnn_bridge.backends import all_backends
from webnn_bridge.backends.base import Backend
from webnn_bridge.devtools.codegen import preflight
from webnn_bridge.idl import idl_model
from webnn_bridge.ops import idl
from webnn_bridge.ops.registry import _no_lowering, load_all

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "src" / "webnn_bridge"  # the package's folders
CONFORMANCE = ROOT.parent / "shared" / "data" / "wpt_conformance"
NOT_OPERATORS = preflight.NOT_OPERATORS  # MLGraphBuilder methods that are not operators


def _rel(fn) -> str:
    return Path(inspect.getsourcefile(fn)).resolve().relative_to(ROOT).as_posix()


# --------------------------------------------------------------------------- adding an operator


def test_every_idl_operator_has_an_op_definition_and_every_definition_its_idl_line():
    idl_ops = set(idl.operations("MLGraphBuilder")) - NOT_OPERATORS
    registry = set(load_all())
    assert not idl_ops - registry, (f"step 2 (CONTRIBUTING.md): no OpDef registered under src/webnn_bridge/ops/defs/ for "
                                    f"{sorted(idl_ops - registry)}")
    assert not registry - idl_ops, (f"step 1 (CONTRIBUTING.md): no MLGraphBuilder method in src/webnn_bridge/idl/*.idl for "
                                    f"{sorted(registry - idl_ops)}")


def test_every_operator_method_has_its_op_support_limits_member_and_every_member_its_method():
    """Without its MLOpSupportLimits member an operator silently drops out of opSupportLimits() and of
    both backend tables (the capability sweep walks what opSupportLimits() reports)."""
    model = idl_model()
    methods, members = preflight.idl_operators(model), preflight.limits_members(model)
    assert not methods - members, (f"step 1 (CONTRIBUTING.md): no MLOpSupportLimits member in src/webnn_bridge/idl/webnn.idl for "
                                   f"{sorted(methods - members)}")
    assert not members - methods, (f"step 1 (CONTRIBUTING.md): MLOpSupportLimits members without an MLGraphBuilder "
                                   f"method: {sorted(members - methods)}")


def test_a_missing_op_support_limits_member_is_named():
    model = json.loads(json.dumps(idl_model()))
    members = model["dictionaries"][preflight.LIMITS_DICT]["members"]
    members[:] = [m for m in members if m["name"] != "sqrt"]
    problems = preflight.idl_problems(model, set(load_all()))
    assert len(problems) == 1 and "step 1" in problems[0] and "MLOpSupportLimits member" in problems[0]
    assert "['sqrt']" in problems[0]


def test_codegen_finds_nothing_missing():
    assert preflight.problems() == []


@pytest.mark.parametrize("op", sorted(load_all()))
def test_an_operator_lives_in_one_module_with_its_rules_reference_and_lowering(op):
    d = load_all()[op]
    assert d.lower is not _no_lowering, f"{op}: step 2: no ONNX lowering (OpDef.lower)"
    assert d.doc, f"{op}: step 2: no doc (the README's table and help() show it)"
    homes = {_rel(fn) for fn in (d.infer, d.reference, d.lower)}
    assert len(homes) == 1 and next(iter(homes)).startswith("src/webnn_bridge/ops/defs/"), (
        f"{op}: step 2: its rules, reference and lowering live in {sorted(homes)}, not in one src/webnn_bridge/ops/defs/ module")


def _ops_in_tests(path: Path) -> set[str]:
    """The operators a test module's test functions use: a builder call ``.op(...)`` or the op's name as a
    string (a parametrized case) inside a ``test_*`` function or its decorators. A name elsewhere (a
    comment, a helper's table, another file's list) is no test data."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
            for sub in [*ast.walk(node), *(n for d in node.decorator_list for n in ast.walk(d))]:
                if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                    found.add(sub.value)
                elif isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute):
                    found.add(sub.func.attr)
    return found


@functools.cache
def _tested_ops() -> frozenset[str]:
    own = {Path(__file__).name, "test_contributing_walk.py"}
    return frozenset().union(*(_ops_in_tests(p) for p in (ROOT / "tests").rglob("test_*.py") if p.name not in own))


def _tested_in_project(op: str) -> bool:
    return op in _tested_ops()


def test_test_data_means_a_test_function_that_uses_the_operator(tmp_path):
    module = tmp_path / "test_x.py"
    module.write_text("# square\nTABLE = {'square': 1}\ndef helper(b):\n    return b.square(1)\n")
    assert "square" not in _ops_in_tests(module)
    module.write_text("import pytest\n@pytest.mark.parametrize('op', ['square'])\ndef test_a(op):\n    pass\n"
                      "def test_b(b):\n    b.cube(1)\n")
    assert {"square", "cube"} <= _ops_in_tests(module)


def _in_conformance_data() -> set[str]:
    if not CONFORMANCE.is_dir():
        pytest.fail(f"the WPT-derived conformance data is missing: {CONFORMANCE} (../shared/data beside the repo)")
    ops = set()
    for path in CONFORMANCE.glob("*.json"):
        for case in json.loads(path.read_text())["tests"]:
            ops |= {o.get("name") for o in case.get("graph", {}).get("operators", [])}
    return ops


def test_every_operator_has_test_data():
    conformance = _in_conformance_data()
    missing = [op for op in sorted(load_all()) if op not in conformance and not _tested_in_project(op)]
    assert not missing, (f"step 5 (CONTRIBUTING.md): no test data for {missing}: add cases (tests/, named by "
                         "the operator) beside the WPT-derived ones in ../shared/data")


# --------------------------------------------------------------------------- adding a backend

THIRD_PARTY_CORE = {"numpy", "onnx", "ml_dtypes"}  # the host's own dependencies: importable everywhere


def _backend_modules() -> dict[str, list[str]]:
    """src/webnn_bridge/backends/*.py that define a Backend subclass -> the class names."""
    out = {}
    for path in sorted((PKG / "backends").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        classes = [n.name for n in tree.body if isinstance(n, ast.ClassDef)
                   and any(isinstance(b, ast.Name) and b.id == "Backend" for b in n.bases)]
        if classes:
            out[path.stem] = classes
    return out


def test_every_backend_module_is_registered():
    registered = {cls.__name__ for cls in all_backends()}
    defined = {c for classes in _backend_modules().values() for c in classes}
    assert defined, "no backend module found"
    assert not defined - registered, (f"step 2 (CONTRIBUTING.md): {sorted(defined - registered)} not listed in "
                                      "src/webnn_bridge/backends/__init__.py all_backends()")


@pytest.mark.parametrize("cls", all_backends(), ids=lambda c: c.name)
def test_a_backend_implements_the_small_interface(cls):
    assert issubclass(cls, Backend) and isinstance(cls.name, str) and cls.name
    # probe() and compile() are the backend's own; capabilities() may stay the base's (every
    # registered operator its implements() accepts, with the spec's limits)
    for method in ("probe", "compile"):
        assert getattr(cls, method) is not getattr(Backend, method), f"{cls.name}: step 1: {method}() missing"
    assert callable(cls.capabilities) and callable(cls.implements)
    names = [c.name for c in all_backends()]
    assert names.count(cls.name) == 1, f"{cls.name}: step 2: two backends share the name"


@pytest.mark.parametrize("module", sorted(_backend_modules()))
def test_a_backend_module_imports_its_runtime_only_when_used(module):
    """A missing runtime shrinks the inventory and never breaks an import: no module-level import
    of anything but the standard library, the host's own dependencies and the project."""
    import sys

    tree = ast.parse((PKG / "backends" / f"{module}.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("webnn_bridge")):
                continue
            for name in ([a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]):
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names or top in THIRD_PARTY_CORE or top == "__future__", (
                    f"src/webnn_bridge/backends/{module}.py: step 3 (CONTRIBUTING.md): imports {name} at module level; import the "
                    "runtime inside probe()/compile() so that its absence only shrinks the inventory")
