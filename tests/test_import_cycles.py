"""No import cycles among the project's own modules (issue 23), and the layers point one way (issue 37).

Every ``.py`` under src/webnn_bridge/'s src/webnn_bridge/bridge/, src/webnn_bridge/policy/, src/webnn_bridge/workbench/, src/webnn_bridge/ops/, src/webnn_bridge/backends/ and src/webnn_bridge/devtools/ is parsed
with ``ast``, and named as Python imports it (its path under src/: src/webnn_bridge/bridge/api.py is
``webnn_bridge.bridge.api``); each import of another project module -- absolute (``webnn_bridge.<folder>...``)
or relative, at module level or inside a function -- is an edge. The test fails on any cycle and prints it
(one closed path per strongly connected component).

A lazy (function-level) import that exists only to dodge a cycle is still a cycle, so lazy
imports count. ``ALLOWED`` lists the edges that are genuinely optional-runtime lazy loads and
may close a cycle; each entry states its reason. It is empty.

The same edges, grouped by layer (``LAYERS``: each module belongs to the longest name there that
is, or contains, it), must have no cycle either and must point down: a module imports only layers
ranked below its own (CONTRIBUTING.md's "Where things live"). The layers are the folders, except
the host's command line (src/webnn_bridge/bridge/cli.py) and its testing kit (src/webnn_bridge/bridge/testing/), which sit above the
workbench that src/webnn_bridge/bridge/cli.py wires in and that starts hosts itself; src/webnn_bridge/bridge/ itself is ranked
inside: the object model (api.py) above its helpers, the session above that, the server above it.
The CLI's by-name dispatch of the developer tools is no import (tests/test_packaging.py).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"  # module names are paths under src/
PACKAGE = "webnn_bridge"
FOLDERS = tuple(f"{PACKAGE}.{f}" for f in ("bridge", "policy", "workbench", "ops", "backends", "devtools"))

# (importer, imported) module-name pairs that may close a cycle, with the reason for each.
ALLOWED: dict[tuple[str, str], str] = {}

# The layers, bottom first; the layers of one row are peers (neither imports the other).
LAYERS: tuple[tuple[str, ...], ...] = (
    ("webnn_bridge.ops",),  # operators: definitions, shape rules, references, lowerings
    ("webnn_bridge.backends",),  # the runtimes behind probe / capabilities / compile / run
    ("webnn_bridge.policy",),  # the policy engine: pure decisions over (options, inventory, graph, rules)
    ("webnn_bridge.bridge",),  # the host's parts below its object model: protocol.py, memo, budget, heap, tls, ...
    ("webnn_bridge.bridge.api",),  # the object model: ML, MLContext, MLGraphBuilder, MLGraph, MLTensor
    ("webnn_bridge.bridge.wire", "webnn_bridge.bridge.host_ml"),  # replies' encoders; the host's ML from its options
    ("webnn_bridge.bridge.session",),  # one page's messages
    ("webnn_bridge.bridge.server",),  # the sockets
    ("webnn_bridge.bridge.embed",),  # a host in a thread of this process
    ("webnn_bridge.workbench", "webnn_bridge.bridge.testing"),  # traces, measure, tune; the pytest plugin, browsers, wire client
    ("webnn_bridge.bridge.cli",),  # the command line: serve, policy (the workbench), ...
    ("webnn_bridge.devtools",),  # code generators, WPT runner, oracle, fuzzer
)
# the layers the folder graph keeps apart from src/webnn_bridge/bridge/
FOLDER_LAYERS = {"webnn_bridge.bridge.cli", "webnn_bridge.bridge.testing"}


def _module_name(path: Path) -> str:
    rel = path.relative_to(SRC).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    found = {}
    for folder in FOLDERS:
        for path in sorted(SRC.joinpath(*folder.split(".")).rglob("*.py")):
            found[_module_name(path)] = path
    return found


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The project module ``name`` (dotted, as imported) is, or lies in."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def _imports(module: str, path: Path, modules: dict[str, Path]) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    out: set[str] = set()

    def add(dotted: str) -> None:
        target = _resolve(dotted, modules)
        if target is not None and target != module:
            out.add(target)

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                if not is_package:
                    base = base[:-1]
                if node.level > 1:
                    base = base[: len(base) - (node.level - 1)]
                prefix = ".".join(base)
                if node.module:
                    prefix = f"{prefix}.{node.module}" if prefix else node.module
            elif node.module:
                prefix = node.module
            else:
                continue
            for alias in node.names:
                # ``from pkg import mod`` imports the submodule; ``from mod import name`` the module.
                sub = f"{prefix}.{alias.name}" if prefix else alias.name
                if sub in modules:
                    add(sub)
                elif prefix:
                    add(prefix)
    return out


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    return {
        module: {t for t in _imports(module, path, modules) if (module, t) not in ALLOWED}
        for module, path in modules.items()
    }


def layer_of(module: str, names: set[str] | None = None) -> str:
    """The layer ``module`` belongs to: the longest of ``names`` (default: every layer) that is it or
    contains it."""
    names = {n for row in LAYERS for n in row} if names is None else names
    name = module
    while name:
        if name in names:
            return name
        name = name.rpartition(".")[0]
    raise AssertionError(f"{module}: in no layer of LAYERS")


def layer_graph(graph: dict[str, set[str]], names: set[str] | None = None) -> dict[str, set[str]]:
    """``graph`` with each module replaced by its layer (self-edges dropped)."""
    out: dict[str, set[str]] = {}
    for module, targets in graph.items():
        src = layer_of(module, names)
        out.setdefault(src, set())
        for t in targets:
            dst = layer_of(t, names)
            out.setdefault(dst, set())
            if dst != src:
                out[src].add(dst)
    return out


def folder_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The folders' graph: the package's folders (src/webnn_bridge/<folder>), with FOLDER_LAYERS on their own."""
    return layer_graph(graph, set(FOLDERS) | FOLDER_LAYERS)


def _rank() -> dict[str, int]:
    return {name: i for i, row in enumerate(LAYERS) for name in row}


def upward_edges(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a layer ranked at or above the importer's, as "a.b -> c.d (layer x -> layer y)"."""
    rank = _rank()
    bad = []
    for module in sorted(graph):
        src = layer_of(module)
        for t in sorted(graph[module]):
            dst = layer_of(t)
            if dst != src and rank[dst] >= rank[src]:
                bad.append(f"{module} -> {t}   (layer {src} -> {dst})")
    return bad


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle in ``graph`` as a closed path ``[a, b, ..., a]``, or None."""
    WHITE, GREY, BLACK = 0, 1, 2
    colour = dict.fromkeys(graph, WHITE)
    for start in sorted(graph):
        if colour[start] != WHITE:
            continue
        stack = [(start, iter(sorted(graph[start])))]
        path = [start]
        colour[start] = GREY
        while stack:
            node, children = stack[-1]
            for child in children:
                if colour.get(child, BLACK) == GREY:
                    return path[path.index(child):] + [child]
                if colour.get(child) == WHITE:
                    colour[child] = GREY
                    path.append(child)
                    stack.append((child, iter(sorted(graph.get(child, ())))))
                    break
            else:
                colour[node] = BLACK
                path.pop()
                stack.pop()
    return None


def all_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected component with more than one node, sorted (for the message)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        work = [(v, iter(sorted(graph.get(v, ()))))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        while work:
            node, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    break
                if w in on_stack:
                    low[node] = min(low[node], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.append(w)
                        if w == node:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def _describe(graph: dict[str, set[str]]) -> str:
    lines = []
    for comp in all_cycles(graph):
        sub = {m: graph[m] & set(comp) for m in comp}
        lines.append(" -> ".join(find_cycle(sub) or comp) + f"   (component: {', '.join(comp)})")
    return "\n".join(lines)


def test_graph_sees_known_edges():
    """The parser finds absolute, relative and function-level imports (guards against a vacuous pass)."""
    graph = import_graph()
    assert len(graph) > 40
    assert sum(len(t) for t in graph.values()) > 100
    api = graph["webnn_bridge.bridge.api"]
    assert "webnn_bridge.ops.registry" in api or any(t.startswith("webnn_bridge.ops.") for t in api)
    assert all(m.startswith(PACKAGE + ".") for m in graph)  # named as imported, from src/


def test_find_cycle_reports_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert all_cycles(graph) == [["a", "b", "c"]]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_allowlist_entries_are_real_and_explained():
    modules = _modules()
    for (src, dst), reason in ALLOWED.items():
        assert src in modules and dst in modules, (src, dst)
        assert reason.strip(), (src, dst)


def test_no_module_import_cycle():
    graph = import_graph()
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle(s) among project modules:\n" + _describe(graph)



def test_layers_name_real_modules():
    modules = _modules()
    names = [n for row in LAYERS for n in row]
    assert len(names) == len(set(names))
    for name in names:
        assert any(m == name or m.startswith(name + ".") for m in modules), f"LAYERS names {name!r}: no such module"
    assert FOLDER_LAYERS <= set(names)
    assert set(FOLDERS) <= set(names)
    for module in modules:
        layer_of(module)  # every module has a layer


def test_no_folder_import_cycle():
    graph = folder_graph(import_graph())
    assert set(graph) == set(FOLDERS) | FOLDER_LAYERS
    # not vacuous
    assert "webnn_bridge.policy" in graph["webnn_bridge.bridge"] and "webnn_bridge.workbench" in graph["webnn_bridge.bridge.cli"]
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle(s) among folders:\n" + _describe(graph)


def test_no_layer_import_cycle():
    graph = layer_graph(import_graph())
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle(s) among layers:\n" + _describe(graph)


def test_layers_point_down():
    """ops -> backends -> policy (the engine) -> bridge's object model -> session -> server / CLI, with
    the workbench, the testing kit and the developer tools above: nothing imports up or sideways."""
    bad = upward_edges(import_graph())
    assert bad == [], "imports against the layer order (CONTRIBUTING.md):\n" + "\n".join(bad)


def test_layer_check_sees_an_upward_import():
    p = PACKAGE + "."
    assert upward_edges({p + "policy.measure": {p + "bridge.api"}, p + "bridge.api": set()}) == [
        "webnn_bridge.policy.measure -> webnn_bridge.bridge.api   (layer webnn_bridge.policy -> webnn_bridge.bridge.api)"]
    assert upward_edges({p + "bridge.session": {p + "workbench.trace"}, p + "workbench.trace": set()})
    assert upward_edges({p + "workbench.trace": {p + "bridge.testing.browsers"}, p + "bridge.testing.browsers": set()})
    assert upward_edges({p + "bridge.cli": {p + "workbench.cli"}, p + "workbench.cli": {p + "bridge.api"},
                         p + "bridge.api": set()}) == []
    assert layer_of(p + "bridge.testing.pytest_plugin") == p + "bridge.testing"
    assert layer_of(p + "bridge.protocol") == p + "bridge"
    assert layer_of(p + "bridge.cli", set(FOLDERS) | FOLDER_LAYERS) == p + "bridge.cli"
    assert layer_of(p + "bridge.session", set(FOLDERS) | FOLDER_LAYERS) == p + "bridge"
