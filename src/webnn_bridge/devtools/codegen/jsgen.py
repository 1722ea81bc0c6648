"""Op rules in JavaScript, generated from the Python rules: a transpiler of a small Python subset.

The page must throw a builder call's errors synchronously, and the op rules (validation and shape
inference) must exist once. So the rules are written once, in Python (``ops/defs/*`` ``infer``
functions, the generic checks of ``ops/registry.py``, ``ops/core.py`` and ``ops/calls.py``), and
this module translates them into ``js_shim/generated/webnn_ops.js``, which the shim runs locally.
The host still re-validates everything at build() with the Python originals.

The translation starts at the roots (every registered op's ``infer``, the generic checks) and
follows the globals, module attributes and closure values each function references: functions
are translated once each, constants (numbers, strings, tuples, dicts, ``Limits`` tables) become
JS data. Python value semantics JS lacks (tuples vs lists, floor division, negative indexes,
``str()`` of values in messages...) live in the hand-written prelude ``js_shim/rules_prelude.js``.

The subset: def (positional parameters with literal defaults, nested defs), if/elif/else, for,
while, break/continue, return, assignment with tuple unpacking and subscript targets, augmented
assignment, ``raise WebNNTypeError(message)``, ``try/except WebNNTypeError``; arithmetic with
Python's ``//``, ``%`` and ``**``, comparisons (chained too), ``in``, ``is None``, and/or/not with
Python's truthiness, conditional expressions, tuple/list/set/dict literals and comprehensions,
generator expressions, lambdas, subscripts and slices, f-strings (``!r``, ``:g``), the builtins
listed in BUILTINS, ``math.prod/ceil/floor/isnan/isinf/isfinite``, ``isinstance`` with the types
in ISINSTANCE, the methods in METHODS, and attributes/methods of descriptors and calls
(``OperandDesc``, ``Call``, ``OpDef``). Anything else fails the generation with ``file:line``
(``JsGenError``), so future rules stay translatable.
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
import hashlib
import inspect
import json
import math
import textwrap
import types
from collections.abc import Callable
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2]  # src/webnn_bridge
ROOT = PACKAGE.parents[1]  # the repository: messages name files from there
JS_OUT = PACKAGE / "js_shim" / "generated" / "webnn_ops.js"
# packages whose functions may be translated (anything else referenced is an error)
PACKAGES = ("webnn_bridge.ops.",)  # the op rules: ops/ (installed as webnn_bridge.ops)

HEADER = (
    "// GENERATED FILE - DO NOT EDIT.\n"
    "// Produced by `webnn-bridge codegen` (src/webnn_bridge/devtools/codegen/jsgen.py) from the Python op rules in src/webnn_bridge/ops/\n"
    "// (defs/*, registry.py, core.py, calls.py). Regenerate with `webnn-bridge codegen`; CI runs `webnn-bridge codegen --check`.\n"
)

RESERVED = {
    "arguments", "await", "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete",
    "do", "else", "enum", "eval", "export", "extends", "false", "finally", "for", "function", "if", "implements",
    "import", "in", "instanceof", "interface", "let", "new", "null", "package", "private", "protected", "public",
    "return", "static", "super", "switch", "this", "throw", "true", "try", "typeof", "var", "void", "while", "with",
    "yield", "self",
}

# builtins -> prelude functions (called with the translated positional arguments)
BUILTINS = {
    "len": "$len", "range": "$range", "abs": "$abs", "min": "$min", "max": "$max", "sum": "$sum", "all": "$all",
    "any": "$any", "tuple": "$tuple", "list": "$list", "sorted": "$sorted", "reversed": "$reversed",
    "enumerate": "$enumerate", "zip": "$zip", "int": "$int", "str": "$str", "set": "$set", "bool": "$truthy",
    "float": "$float", "isinstance": None, "dict": None, "repr": "$repr",
}
MATH = {"prod": "$prod", "ceil": "Math.ceil", "floor": "Math.floor", "isnan": "Number.isNaN", "isinf": "$isinf", "isfinite": "Number.isFinite", "inf": "Infinity"}
# Python methods of builtin types (the prelude's $M table dispatches on the receiver)
METHODS = {
    "append", "extend", "insert", "pop", "index", "count", "get", "setdefault", "items", "keys", "values", "join",
    "startswith", "endswith", "add", "copy", "lower", "upper", "strip", "split", "update",
}


class JsGenError(Exception):
    """A construct outside the translatable subset (the message names file:line)."""


def _pos(fn_info, node) -> str:
    return f"{fn_info.filename}:{fn_info.first_line + getattr(node, 'lineno', 1) - 1}"


@dataclasses.dataclass
class FnInfo:
    fn: Callable
    name: str
    filename: str
    first_line: int
    tree: ast.FunctionDef
    env: dict  # free name -> value (closure cells first, then globals)
    method_of: type | None = None


def _js_str(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


class Transpiler:
    def __init__(self, packages: tuple[str, ...] = PACKAGES):
        self.packages = packages
        self.funcs: dict[tuple, str] = {}  # (code, closure ids) -> JS name
        self.queue: list[FnInfo] = []
        self.out_funcs: list[str] = []
        self.consts: dict[int, str] = {}
        self.const_keep: list = []  # keep constants alive so their ids stay unique
        self.out_consts: list[str] = []
        self.const_bodies: dict[str, str] = {}  # JS text of an immutable constant -> its const's name
        self.used_names: set[str] = set()

    # ------------------------------------------------------------------ naming
    def _fresh(self, base: str) -> str:
        base = "".join(c if c.isalnum() or c == "_" else "_" for c in base)
        name, i = base, 2
        while name in self.used_names:
            name, i = f"{base}_{i}", i + 1
        self.used_names.add(name)
        return name

    # ------------------------------------------------------------------ functions
    def function(self, fn: Callable, method_of: type | None = None, op: str | None = None) -> str:
        """The JS name of a Python function, translated on first use. ``op``: the operator whose rule it
        is; a closure (one function, several closures: one per op of a family) is named after it, so that
        a new operator never renumbers the others' functions."""
        if isinstance(fn, (staticmethod, classmethod)):
            fn = fn.__func__
        if not isinstance(fn, types.FunctionType):
            raise JsGenError(f"{fn!r} is not a Python function")
        if not fn.__module__.startswith(self.packages):
            raise JsGenError(f"{fn.__module__}.{fn.__qualname__} is outside the translated packages")
        # code objects of two files compare equal when their text and first line match: keep the file
        key = (fn.__code__.co_filename, fn.__code__, tuple(id(c.cell_contents) for c in fn.__closure__ or ()))
        if key in self.funcs:
            return self.funcs[key]
        if fn.__name__ == "<lambda>":
            raise JsGenError(f"{fn.__code__.co_filename}:{fn.__code__.co_firstlineno}: a lambda cannot be a root")
        mod = fn.__module__.rsplit(".", 1)[-1].lstrip("_")
        base = f"{mod}_{fn.__qualname__.replace('.<locals>.', '_').replace('.', '_')}"
        name = self._fresh(f"{base}__{op}" if op and fn.__closure__ else base)
        self.funcs[key] = name
        src_lines, first = inspect.getsourcelines(fn)
        tree = ast.parse(textwrap.dedent("".join(src_lines))).body[0]
        env = dict(fn.__globals__)
        for var, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
            env[var] = cell.cell_contents
        filename = str(Path(fn.__code__.co_filename).resolve().relative_to(ROOT))
        self.queue.append(FnInfo(fn, name, filename, first, tree, env, method_of))
        return name

    def run(self) -> None:
        while self.queue:
            info = self.queue.pop(0)
            self.out_funcs.append(FunctionWriter(self, info).render())

    # ------------------------------------------------------------------ constants
    def const(self, value, where: str, name: str | None = None) -> str:
        """A JS expression for a constant value (data inline or a shared top-level const)."""
        if value is None:
            return "null"
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, int):
            if abs(value) > 2**53:
                raise JsGenError(f"{where}: integer constant {value} does not fit a JS number")
            return str(value)
        if isinstance(value, float):
            if math.isnan(value):
                return "NaN"
            if math.isinf(value):
                return "Infinity" if value > 0 else "-Infinity"
            return f"$F({value!r})"
        if isinstance(value, str):
            return _js_str(value)
        if id(value) in self.consts:
            return self.consts[id(value)]
        if isinstance(value, tuple):
            body = f"$T([{', '.join(self.const(v, where) for v in value)}])"
        elif isinstance(value, list):
            body = f"[{', '.join(self.const(v, where) for v in value)}]"
        elif isinstance(value, (set, frozenset)):
            body = f"$set([{', '.join(self.const(v, where) for v in sorted(value, key=repr))}])"
        elif isinstance(value, dict):
            items = ", ".join(f"[{self.const(k, where)}, {self.const(v, where)}]" for k, v in value.items())
            body = f"$dict([{items}])"
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            fields = ", ".join(
                f"{f.name}: {self._field(getattr(value, f.name), where)}" for f in dataclasses.fields(value)
            )
            body = f"Object.freeze({{{fields}}})"
        else:
            raise JsGenError(f"{where}: constant {value!r} ({type(value).__name__}) cannot be translated")
        if len(body) < 24 and isinstance(value, tuple):
            return body
        # Named by content, never by position: a new op adds lines for its own constants and renames
        # none of the others (an immutable value shares the const of an equal one). ``name``: a given one.
        immutable = isinstance(value, (tuple, frozenset)) or (
            dataclasses.is_dataclass(value) and value.__dataclass_params__.frozen)
        if name is None and immutable and body in self.const_bodies:
            name = self.const_bodies[body]
        else:
            name = self._fresh(name or f"K_{hashlib.sha1(body.encode()).hexdigest()[:10]}")
            self.out_consts.append(f"const {name} = {body};")
            if immutable:
                self.const_bodies[body] = name
        self.consts[id(value)] = name
        self.const_keep.append(value)
        return name

    def _field(self, value, where: str) -> str:
        if callable(value) and isinstance(value, types.FunctionType):
            return "null"  # functions in data (e.g. reference/lower) are not rules
        if type(value).__module__ == "numpy" or type(value).__name__ == "dtype":
            return _js_str(str(value))
        try:
            return self.const(value, where)
        except JsGenError:
            return "null"


class FunctionWriter:
    """Translates one function (and nested defs, lambdas, comprehensions inside it)."""

    def __init__(self, tp: Transpiler, info: FnInfo):
        self.tp = tp
        self.info = info
        self.scopes: list[set[str]] = []
        self.tmp = 0

    def err(self, node, what: str) -> JsGenError:
        return JsGenError(f"{_pos(self.info, node)}: {what} is outside the translatable Python subset")

    # ------------------------------------------------------------------ scopes
    def local(self, name: str) -> bool:
        return any(name in s for s in self.scopes)

    @staticmethod
    def jsname(name: str) -> str:
        return f"{name}_" if name in RESERVED or name.startswith("$") else name

    def _assigned(self, body: list[ast.stmt]) -> list[str]:
        names: list[str] = []

        def visit(node):
            if isinstance(node, (ast.FunctionDef, ast.Lambda, ast.ListComp, ast.GeneratorExp, ast.SetComp,
                                 ast.DictComp)):
                if isinstance(node, ast.FunctionDef) and node.name not in names:
                    names.append(node.name)
                return
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.id not in names:
                names.append(node.id)
            if isinstance(node, ast.ExceptHandler) and node.name and node.name not in names:
                names.append(node.name)
            for child in ast.iter_child_nodes(node):
                visit(child)

        for stmt in body:
            visit(stmt)
        return names

    # ------------------------------------------------------------------ functions
    def render(self) -> str:
        t = self.info.tree
        if not isinstance(t, ast.FunctionDef):
            raise self.err(t, type(t).__name__)
        return f"function {self.info.name}{self.function_body(t)}\n"

    def params(self, args: ast.arguments, node) -> tuple[list[str], list[str]]:
        if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs:
            raise self.err(node, "*args/**kwargs/keyword-only parameters")
        names = [a.arg for a in args.args]
        defaults = [None] * (len(names) - len(args.defaults)) + list(args.defaults)
        out = []
        for n, d in zip(names, defaults):
            out.append(self.jsname(n) if d is None else f"{self.jsname(n)} = {self.default(d)}")
        return names, out

    def default(self, node) -> str:
        # a default is evaluated once, at def time: only constants (None, numbers, strings, tuples)
        try:
            value = ast.literal_eval(node)
        except ValueError:
            raise self.err(node, "a non-literal default") from None
        return self.tp.const(value, _pos(self.info, node))

    def function_body(self, t: ast.FunctionDef) -> str:
        if t.decorator_list:
            raise self.err(t, "a decorated function")
        names, params = self.params(t.args, t)
        body = t.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body = body[1:]  # docstring
        self.scopes.append(set(names))
        local = [n for n in self._assigned(body) if n not in names]
        self.scopes[-1].update(local)
        lines = []
        if local:
            lines.append(f"let {', '.join(self.jsname(n) for n in local)};")
        lines += self.block(body)
        self.scopes.pop()
        inner = "\n".join("  " + ln for ln in "\n".join(lines).split("\n"))
        return f"({', '.join(params)}) {{\n{inner}\n}}"

    # ------------------------------------------------------------------ statements
    def block(self, body: list[ast.stmt]) -> list[str]:
        out: list[str] = []
        for s in body:
            out += self.stmt(s)
        return out

    def indent(self, lines: list[str]) -> list[str]:
        return ["  " + ln for ln in lines]

    def stmt(self, s: ast.stmt) -> list[str]:
        m = getattr(self, f"s_{type(s).__name__}", None)
        if m is None:
            raise self.err(s, f"the statement '{type(s).__name__}'")
        return m(s)

    def s_Pass(self, s):  # noqa: N802
        return []

    def s_Expr(self, s):  # noqa: N802
        if isinstance(s.value, ast.Constant) and isinstance(s.value.value, str):
            return []
        return [f"{self.expr(s.value)};"]

    def s_Return(self, s):  # noqa: N802
        return [f"return {self.expr(s.value)};" if s.value is not None else "return null;"]

    def s_Break(self, s):  # noqa: N802
        return ["break;"]

    def s_Continue(self, s):  # noqa: N802
        return ["continue;"]

    def s_Raise(self, s):  # noqa: N802
        exc = s.exc
        if (
            isinstance(exc, ast.Call)
            and len(exc.args) == 1
            and not exc.keywords
            and self.static(exc.func) is _type_error()
        ):
            return [f"throw new $WebNNTypeError({self.expr(exc.args[0])});"]
        raise self.err(s, "raising anything but WebNNTypeError(message)")

    def s_Try(self, s):  # noqa: N802
        if s.orelse or s.finalbody or len(s.handlers) != 1:
            raise self.err(s, "try with else/finally or several handlers")
        h = s.handlers[0]
        if h.type is None or self.static(h.type) is not _type_error():
            raise self.err(h, "catching anything but WebNNTypeError")
        tmp = self.fresh_tmp()
        bind = [f"{self.jsname(h.name)} = {tmp};"] if h.name else []
        if h.name:
            self.scopes[-1].add(h.name)
        return [
            "try {", *self.indent(self.block(s.body)), f"}} catch ({tmp}) {{",
            f"  if (!({tmp} instanceof $WebNNTypeError)) throw {tmp};",
            *self.indent(bind + self.block(h.body)), "}",
        ]

    def s_If(self, s):  # noqa: N802
        out = [f"if ({self.test(s.test)}) {{", *self.indent(self.block(s.body))]
        orelse = s.orelse
        while len(orelse) == 1 and isinstance(orelse[0], ast.If):
            out += [f"}} else if ({self.test(orelse[0].test)}) {{", *self.indent(self.block(orelse[0].body))]
            orelse = orelse[0].orelse
        if orelse:
            out += ["} else {", *self.indent(self.block(orelse))]
        return out + ["}"]

    def s_While(self, s):  # noqa: N802
        if s.orelse:
            raise self.err(s, "while/else")
        return [f"while ({self.test(s.test)}) {{", *self.indent(self.block(s.body)), "}"]

    def s_For(self, s):  # noqa: N802
        if s.orelse:
            raise self.err(s, "for/else")
        tmp = self.fresh_tmp()
        return [
            f"for (const {tmp} of $iter({self.expr(s.iter)})) {{",
            *self.indent(self.assign(s.target, tmp, s)),
            *self.indent(self.block(s.body)),
            "}",
        ]

    def s_Assign(self, s):  # noqa: N802
        if len(s.targets) == 1:
            return self.assign(s.targets[0], self.expr(s.value), s)
        tmp = self.fresh_tmp()
        out = [f"const {tmp} = {self.expr(s.value)};"]
        for t in s.targets:
            out += self.assign(t, tmp, s)
        return out

    def s_AnnAssign(self, s):  # noqa: N802
        if s.value is None:
            return []
        return self.assign(s.target, self.expr(s.value), s)

    def s_AugAssign(self, s):  # noqa: N802
        op = BINOPS.get(type(s.op))
        if op is None or not isinstance(s.target, ast.Name):
            raise self.err(s, "this augmented assignment")
        name = self.jsname(s.target.id)
        return [f"{name} = {op}({name}, {self.expr(s.value)});"]

    def s_FunctionDef(self, s):  # noqa: N802
        return [f"{self.jsname(s.name)} = function {self.function_body(s)};"]

    def fresh_tmp(self) -> str:
        self.tmp += 1
        return f"$t{self.tmp}"

    def assign(self, target, value: str, node) -> list[str]:
        if isinstance(target, ast.Name):
            return [f"{self.jsname(target.id)} = {value};"]
        if isinstance(target, (ast.Tuple, ast.List)):
            if any(isinstance(e, ast.Starred) for e in target.elts):
                raise self.err(node, "starred unpacking")
            tmp = self.fresh_tmp()
            out = [f"const {tmp} = $unpack({value}, {len(target.elts)});"]
            for i, e in enumerate(target.elts):
                out += self.assign(e, f"{tmp}[{i}]", node)
            return out
        if isinstance(target, ast.Subscript) and not isinstance(target.slice, ast.Slice):
            return [f"$setitem({self.expr(target.value)}, {self.expr(target.slice)}, {value});"]
        raise self.err(node, f"assignment to {type(target).__name__}")

    # ------------------------------------------------------------------ expressions
    def test(self, node) -> str:
        """A JS boolean for a Python truth test."""
        if isinstance(node, ast.BoolOp):
            op = " && " if isinstance(node.op, ast.And) else " || "
            return "(" + op.join(self.test(v) for v in node.values) + ")"
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return f"!{self.test(node.operand)}"
        if isinstance(node, ast.Compare):
            return self.expr(node)
        return f"$truthy({self.expr(node)})"

    def expr(self, node) -> str:
        m = getattr(self, f"e_{type(node).__name__}", None)
        if m is None:
            raise self.err(node, f"the expression '{type(node).__name__}'")
        return m(node)

    def e_Constant(self, node):  # noqa: N802
        return self.tp.const(node.value, _pos(self.info, node))

    def e_Name(self, node):  # noqa: N802
        if self.local(node.id):
            return self.jsname(node.id)
        return self.value_ref(self.lookup(node), node)

    def lookup(self, node: ast.Name):
        if node.id in self.info.env:
            return self.info.env[node.id]
        if hasattr(builtins, node.id):
            return getattr(builtins, node.id)
        raise self.err(node, f"the unknown name '{node.id}'")

    def static(self, node):
        """The Python value of a name or module attribute not bound locally, else a sentinel."""
        if isinstance(node, ast.Name) and not self.local(node.id):
            try:
                return self.lookup(node)
            except JsGenError:
                return _NOTHING
        if isinstance(node, ast.Attribute):
            base = self.static(node.value)
            if isinstance(base, (types.ModuleType, type)):
                return getattr(base, node.attr, _NOTHING)
        return _NOTHING

    def value_ref(self, value, node) -> str:
        """A referenced global/closure value used as a value."""
        if isinstance(value, types.FunctionType):
            return self.tp.function(value)
        if value is math.inf:
            return "Infinity"
        if isinstance(value, (types.ModuleType, type)) or callable(value):
            raise self.err(node, f"using {getattr(value, '__name__', value)!r} as a value")
        return self.tp.const(value, _pos(self.info, node))

    def e_Attribute(self, node):  # noqa: N802
        base = self.static(node.value)
        if base is math:
            if node.attr in ("inf",):
                return "Infinity"
            raise self.err(node, f"math.{node.attr} as a value")
        if isinstance(base, types.ModuleType):
            value = getattr(base, node.attr, _NOTHING)
            if value is _NOTHING:
                raise self.err(node, f"the unknown attribute {base.__name__}.{node.attr}")
            return self.value_ref(value, node)
        if isinstance(base, type):
            return self.value_ref(getattr(base, node.attr), node)
        return f"{self.expr(node.value)}.{node.attr}"

    def e_Subscript(self, node):  # noqa: N802
        value = self.expr(node.value)
        sl = node.slice
        if isinstance(sl, ast.Slice):
            parts = [self.expr(p) if p is not None else "null" for p in (sl.lower, sl.upper, sl.step)]
            return f"$slice({value}, {', '.join(parts)})"
        return f"$getitem({value}, {self.expr(sl)})"

    def e_Tuple(self, node):  # noqa: N802
        return f"$T({self.seq(node.elts)})"

    def e_List(self, node):  # noqa: N802
        return self.seq(node.elts)

    def e_Set(self, node):  # noqa: N802
        return f"$set({self.seq(node.elts)})"

    def seq(self, elts) -> str:
        items = []
        for e in elts:
            items.append(f"...$iter({self.expr(e.value)})" if isinstance(e, ast.Starred) else self.expr(e))
        return f"[{', '.join(items)}]"

    def e_Dict(self, node):  # noqa: N802
        parts = []
        for k, v in zip(node.keys, node.values):
            if k is None:
                parts.append(f"...$items({self.expr(v)})")
            else:
                parts.append(f"[{self.expr(k)}, {self.expr(v)}]")
        return f"$dict([{', '.join(parts)}])"

    def e_BinOp(self, node):  # noqa: N802
        op = BINOPS.get(type(node.op))
        if op is None:
            raise self.err(node, f"the operator {type(node.op).__name__}")
        return f"{op}({self.expr(node.left)}, {self.expr(node.right)})"

    def e_UnaryOp(self, node):  # noqa: N802
        if isinstance(node.op, ast.Not):
            return f"!{self.test(node.operand)}"
        if isinstance(node.op, ast.USub):
            return f"$neg({self.expr(node.operand)})"
        if isinstance(node.op, ast.UAdd):
            return self.expr(node.operand)
        raise self.err(node, f"the operator {type(node.op).__name__}")

    def e_BoolOp(self, node):  # noqa: N802
        # Python's and/or yield an operand, not a boolean
        fn = "$and" if isinstance(node.op, ast.And) else "$or"
        out = self.expr(node.values[-1])
        for v in reversed(node.values[:-1]):
            out = f"{fn}({self.expr(v)}, () => {out})"
        return out

    def e_IfExp(self, node):  # noqa: N802
        return f"({self.test(node.test)} ? {self.expr(node.body)} : {self.expr(node.orelse)})"

    def e_Compare(self, node):  # noqa: N802
        if len(node.ops) == 1:
            return self.compare(node.ops[0], self.expr(node.left), node.comparators[0], node)
        # a < b < c: each operand evaluated once, the chain stops at the first false comparison
        operands = [node.left, *node.comparators]
        names = [f"$c{i}" for i in range(len(operands) - 1)]
        parts = [self.compare(op, names[i], operands[i + 1] if i + 1 == len(names) else None, node, names[i + 1]
                              if i + 1 < len(names) else None) for i, op in enumerate(node.ops)]
        values = ", ".join(self.expr(o) for o in operands[:-1])
        return f"(({', '.join(names)}) => {' && '.join(parts)})({values})"

    def compare(self, op, a: str, right, node, b: str | None = None) -> str:
        if isinstance(op, (ast.Is, ast.IsNot)):
            if not (isinstance(right, ast.Constant) and right.value is None):
                raise self.err(node, "'is' with anything but None")
            return f"({a} {'==' if isinstance(op, ast.Is) else '!='} null)"
        if b is None:
            b = self.expr(right)
        fn = COMPARE.get(type(op))
        if fn is None:
            raise self.err(node, f"the comparison {type(op).__name__}")
        if fn.startswith("!"):
            return f"!{fn[1:]}({a}, {b})"
        return f"{fn}({a}, {b})"

    def e_JoinedStr(self, node):  # noqa: N802
        parts = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                parts.append(v.value.replace("\\", "\\\\").replace("`", "\\`").replace("${", "\\${"))
            else:
                parts.append("${" + self.formatted(v) + "}")
        return "`" + "".join(parts) + "`"

    def formatted(self, v: ast.FormattedValue) -> str:
        value = self.expr(v.value)
        if v.conversion == ord("r"):
            value = f"$repr({value})"
        if v.format_spec is not None:
            spec = v.format_spec
            if not (len(spec.values) == 1 and isinstance(spec.values[0], ast.Constant)):
                raise self.err(v, "a computed format spec")
            return f"$format({value}, {_js_str(spec.values[0].value)})"
        return f"$str({value})"

    def e_Lambda(self, node):  # noqa: N802
        names, params = self.params(node.args, node)
        self.scopes.append(set(names))
        body = self.expr(node.body)
        self.scopes.pop()
        return f"(({', '.join(params)}) => {body})"

    def e_ListComp(self, node):  # noqa: N802
        body = self._comp_body(node, lambda: f"$r.push({self.expr(node.elt)});")
        return f"(() => {{ const $r = [];\n{body}\nreturn $r; }})()"

    e_GeneratorExp = e_ListComp

    def e_SetComp(self, node):  # noqa: N802
        return f"$set({self.e_ListComp(node)})"

    def e_DictComp(self, node):  # noqa: N802
        body = self._comp_body(node, lambda: f"$r.push([{self.expr(node.key)}, {self.expr(node.value)}]);")
        return f"$dict((() => {{ const $r = [];\n{body}\nreturn $r; }})())"

    def _comp_body(self, node, push: Callable[[], str]) -> str:
        # the element is translated last, once the loop targets are in scope
        self.scopes.append(set())
        lines = []
        depth = 0
        for gen in node.generators:
            tmp = self.fresh_tmp()
            target_names = [n.id for n in ast.walk(gen.target) if isinstance(n, ast.Name)]
            it = self.expr(gen.iter)
            self.scopes[-1].update(target_names)
            decl = ", ".join(self.jsname(n) for n in target_names)
            ind = "  " * depth
            lines.append(ind + f"for (const {tmp} of $iter({it})) {{ let {decl};")
            lines += [ind + ln for ln in self.assign(gen.target, tmp, node)]
            for cond in gen.ifs:
                lines.append(ind + f"if (!{self.test(cond)}) continue;")
            depth += 1
        lines.append("  " * depth + push())
        lines += ["  " * (depth - 1 - i) + "}" for i in range(depth)]
        self.scopes.pop()
        return "\n".join(lines)

    def e_Starred(self, node):  # noqa: N802
        raise self.err(node, "a starred expression here")

    # ------------------------------------------------------------------ calls
    def e_Call(self, node):  # noqa: N802
        func = node.func
        target = self.static(func)
        if target is not _NOTHING:
            return self.call_static(target, node)
        if isinstance(func, ast.Attribute):
            if any(k.arg is None for k in node.keywords):
                raise self.err(node, "**kwargs in a call")
            recv = self.expr(func.value)
            args = self.call_args(node)
            own = self.own_method(func)
            if own is not None:
                fn = inspect.getattr_static(self.info.method_of, func.attr)
                return f"{own}({', '.join(self.bind_keywords(fn, node, [recv] + args))})"
            if node.keywords:
                raise self.err(node, f"keyword arguments to the method .{func.attr}()")
            if func.attr in METHODS:
                return f"$M.{func.attr}({', '.join([recv] + args)})"
            return f"{recv}.{func.attr}({', '.join(args)})"
        if isinstance(func, ast.Name) and self.local(func.id):
            if node.keywords:
                raise self.err(node, "keyword arguments to a local function")
            return f"{self.jsname(func.id)}({', '.join(self.call_args(node))})"
        raise self.err(node, "this call")

    def own_method(self, func: ast.Attribute) -> str | None:
        """self.method(...) inside a method: the class's function, translated."""
        cls = self.info.method_of
        if cls is None or not (isinstance(func.value, ast.Name) and func.value.id == "self"):
            return None
        attr = inspect.getattr_static(cls, func.attr, None)
        if isinstance(attr, (types.FunctionType, staticmethod)):
            return self.tp.function(attr, cls)
        return None

    def call_args(self, node) -> list[str]:
        return [f"...$iter({self.expr(a.value)})" if isinstance(a, ast.Starred) else self.expr(a) for a in node.args]

    def call_static(self, target, node) -> str:
        if target is _type_error():
            raise self.err(node, "WebNNTypeError outside a raise statement")
        if target is isinstance:
            return self.isinstance_call(node)
        args = self.call_args(node)
        if target in _primitives():
            return f"{_primitives()[target]}({', '.join(args)})"
        if isinstance(target, types.FunctionType):
            return f"{self.tp.function(target)}({', '.join(self.bind_keywords(target, node, args))})"
        if target is dict:
            if node.args:
                raise self.err(node, "dict() with positional arguments")
            items = ", ".join(f"[{_js_str(k.arg)}, {self.expr(k.value)}]" for k in node.keywords)
            return f"$dict([{items}])"
        if node.keywords:
            raise self.err(node, f"keyword arguments to {getattr(target, '__name__', target)}")
        if getattr(target, "__module__", None) == "math" or (callable(target) and target in _MATH_FUNCS):
            js = MATH.get(target.__name__)
            if js is None:
                raise self.err(node, f"math.{target.__name__}")
            return f"{js}({', '.join(args)})"
        name = getattr(target, "__name__", None)
        if getattr(builtins, name or "", None) is target and BUILTINS.get(name):
            return f"{BUILTINS[name]}({', '.join(args)})"
        if isinstance(target, type) and target.__name__ in CONSTRUCTORS:
            return f"new {CONSTRUCTORS[target.__name__]}({', '.join(args)})"
        owner = getattr(target, "__module__", None)
        raise self.err(node, f"calling {owner + '.' if owner else ''}{name or repr(target)}")

    def bind_keywords(self, fn, node, args: list[str]) -> list[str]:
        if not node.keywords:
            return args
        if any(a.startswith("...") for a in args):
            raise self.err(node, "starred and keyword arguments together")
        params = list(inspect.signature(fn).parameters)
        out = list(args)
        for k in node.keywords:
            if k.arg is None or k.arg not in params:
                raise self.err(node, f"the keyword argument {k.arg}")
            i = params.index(k.arg)
            out += ["undefined"] * (i + 1 - len(out))
            out[i] = self.expr(k.value)
        return out

    def isinstance_call(self, node) -> str:
        obj, cls = node.args
        classes = cls.elts if isinstance(cls, ast.Tuple) else [cls]
        checks = []
        for c in classes:
            value = self.static(c)
            name = getattr(value, "__name__", None)
            if name not in ISINSTANCE:
                raise self.err(node, f"isinstance(..., {name})")
            checks.append(ISINSTANCE[name])
        v = self.expr(obj)
        return "(" + " || ".join(f"{c}({v})" for c in checks) + ")"


_NOTHING = object()
_MATH_FUNCS = (math.prod, math.ceil, math.floor, math.isnan, math.isinf, math.isfinite)

BINOPS = {
    ast.Add: "$add", ast.Sub: "$sub", ast.Mult: "$mul", ast.Div: "$truediv", ast.FloorDiv: "$floordiv",
    ast.Mod: "$mod", ast.Pow: "$pow",
}
COMPARE = {
    ast.Eq: "$eq", ast.NotEq: "!$eq", ast.Lt: "$lt", ast.LtE: "$le", ast.Gt: "$gt", ast.GtE: "$ge",
    ast.In: "$in", ast.NotIn: "!$in",
}
ISINSTANCE = {
    "int": "$isint", "float": "$isnumber", "bool": "$isbool", "str": "$isstr", "list": "$islist",
    "tuple": "$istuple", "dict": "$isdict", "OperandDesc": "$isdesc", "OperandList": "$isoperandlist",
}
CONSTRUCTORS = {"OperandDesc": "$Desc", "Call": "$Call", "OperandList": "$OperandList"}


def _primitives() -> dict:
    """Numeric primitives with a hand-written JS twin in the prelude (value casts, not op rules);
    the equivalence test covers them through the ops that use them."""
    from webnn_bridge.ops.core import cast_number

    return {cast_number: "$cast_number"}


def _type_error():
    from webnn_bridge.ops.core import WebNNTypeError

    return WebNNTypeError


# --------------------------------------------------------------------------- roots and output


def roots() -> tuple[dict, list[tuple[str, Callable, type | None]]]:
    """The registry (op name -> OpDef) and the generic entry points the shim calls."""
    from webnn_bridge.ops import calls
    from webnn_bridge.ops.registry import OpDef, load_all

    entries = [
        ("validate_call", calls.validate_call, None),
        ("labelled_message", calls.labelled_message, None),
        ("call_from", calls.call_from, None),
        ("check_new_operand", calls.check_new_operand, None),
        ("check_scalar_constant", calls.check_scalar_constant, None),
        ("check_input_name", calls.check_input_name, None),
        ("check_dispatch", calls.check_dispatch, None),
        ("check_operand", calls.OperandChecks.check_operand, calls.OperandChecks),
        ("check_byte_length", calls.OperandChecks._check_byte_length, calls.OperandChecks),
        ("opdef_validate", OpDef.validate, OpDef),
    ]
    return load_all(), entries


def render() -> str:
    tp = Transpiler()
    registry, entries = roots()
    exports = []
    for name, fn, cls in entries:
        exports.append(f"  {name}: {tp.function(fn, cls)},")
    op_lines = []
    for op, d in sorted(registry.items()):
        where = f"ops registry '{op}'"
        limits = tp.const(dict(d.limits), where, name=f"LIMITS_{op}")
        outputs = tp.const(tuple(d.outputs), where)
        op_lines.append(f"  {_js_str(op)}: $opdef({_js_str(op)}, {limits}, {outputs}, {tp.function(d.infer, op=op)}),")
    tp.run()
    return (
        HEADER
        + "// The op rules (validation and shape inference), translated from Python; the prelude\n"
        + "// (js_shim/rules_prelude.js) gives Python's value semantics.\n\n"
        + "\n".join(tp.out_consts)
        + "\n\n"
        + "\n".join(tp.out_funcs)
        + "\nconst RULES = {\n"
        + "\n".join(exports)
        + "\n  ops: {\n"
        + "\n".join("  " + ln for ln in op_lines)
        + "\n  },\n};\n"
    )


def outputs() -> dict[Path, str]:
    return {JS_OUT: render()}


def translate(fn: Callable, packages: tuple[str, ...] = PACKAGES) -> str:
    """Translate one function and what it references (used by tests)."""
    tp = Transpiler(packages)
    tp.function(fn)
    tp.run()
    return "\n".join(tp.out_consts + tp.out_funcs)
