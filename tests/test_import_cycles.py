"""No import cycles among the project's own modules (issue 23).

Every ``.py`` under bridge/, policy/, ops/, backends/ and devtools/ is parsed with ``ast``; each import of
another project module -- absolute (``webnn_bridge.<folder>...``) or relative, at module level or
inside a function -- is an edge (package ``webnn_bridge.<folder>`` is folder ``<folder>/``). The
test fails on any cycle and prints it (one closed path per strongly connected component).

A lazy (function-level) import that exists only to dodge a cycle is still a cycle, so lazy
imports count. ``ALLOWED`` lists the edges that are genuinely optional-runtime lazy loads and
may close a cycle; each entry states its reason. It is empty.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("bridge", "policy", "ops", "backends", "devtools")
PACKAGE = "webnn_bridge"

# (importer, imported) module-name pairs that may close a cycle, with the reason for each.
ALLOWED: dict[tuple[str, str], str] = {}


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    found = {}
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            found[_module_name(path)] = path
    return found


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The project module ``name`` (dotted, without the package prefix) is, or lies in."""
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
                if alias.name.startswith(PACKAGE + "."):
                    add(alias.name[len(PACKAGE) + 1:])
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
            elif node.module and (node.module == PACKAGE or node.module.startswith(PACKAGE + ".")):
                prefix = node.module[len(PACKAGE) + 1:]
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
    assert "ops.registry" in graph["bridge.api"] or any(t.startswith("ops.") for t in graph["bridge.api"])


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

