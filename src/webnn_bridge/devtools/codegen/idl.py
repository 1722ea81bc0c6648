"""Generator: WebNN WebIDL (idl/*.idl) -> the shim's interface layer and the host's IDL table.

Outputs (committed, with a GENERATED header; written by `webnn-bridge codegen`, see __init__.py):
- idl/model.json : the IDL model (enums, dictionaries with defaults/required, interfaces with
  overloads and argument types), the one copy: the host loads it (webnn_bridge.idl.idl_model) to
  convert and re-validate every call it receives, and bridge/shim.py serves it to pages as `IDL`;
- js_shim/generated/webnn_idl.js : one JS class per interface whose methods have the spec's arity
  and hand every call to the runtime's generic WebIDL binding layer, and the data type facts;
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2]  # src/webnn_bridge
IDL_DIR = PACKAGE / "idl"
IDL_FILES = ("external.idl", "webnn.idl", "extensions.idl")
JS_OUT = PACKAGE / "js_shim" / "generated" / "webnn_idl.js"
MODEL_OUT = PACKAGE / "idl" / "model.json"  # the model as data: the host loads it, and serves it inside the shim

ENUM_EXTENSION = "Extension"  # enum FooExtension { ... } adds values to enum Foo

# Typedefs kept opaque (they name a kind of value the runtime knows how to take).
OPAQUE_TYPEDEFS = {"AllowSharedBufferSource": "buffer", "ArrayBufferView": "buffer"}
PRIMITIVES = {
    "boolean",
    "byte",
    "octet",
    "short",
    "unsigned short",
    "long",
    "unsigned long",
    "long long",
    "unsigned long long",
    "float",
    "unrestricted float",
    "double",
    "unrestricted double",
    "bigint",
    "DOMString",
    "USVString",
    "ByteString",
    "undefined",
    "any",
    "object",
    "ArrayBuffer",
}


def _parse(text: str) -> list[dict]:
    from pywebidl2 import WebIDLParser, WebIDLVisitor, validate

    class Visitor(WebIDLVisitor):
        # pywebidl2 reports FrozenArray<T> as sequence<T>; keep the real generic name.
        def _fix(self, ctx, result):
            g = ctx.genericType()
            if g is not None and getattr(result, "generic", "") == "sequence":
                result.generic = g.getChild(0).getText()
            return result

        def visitSingleType(self, ctx):
            return self._fix(ctx, super().visitSingleType(ctx))

        def visitUnionMemberType(self, ctx):
            return self._fix(ctx, super().visitUnionMemberType(ctx))

    errors = validate(text)
    if errors:
        raise SystemExit(f"IDL does not parse: {errors[:3]}")
    return asdict(Visitor(WebIDLParser(text).parse()).run())["definitions"]


class Model:
    def __init__(self, defs: list[dict]):
        self.enums: dict[str, list[str]] = {}
        self.typedefs: dict[str, dict] = {}
        self.dicts: dict[str, dict] = {}
        self.ifaces: dict[str, dict] = {}
        self.mixins: dict[str, dict] = {}
        for d in defs:
            kind = d["type"]
            if kind == "enum":
                self.enums[d["name"]] = [v["value"] for v in d["values"]]
            elif kind == "typedef":
                self.typedefs[d["name"]] = d["idl_type"]
            elif kind == "dictionary":
                entry = self.dicts.setdefault(d["name"], {"inherits": None, "members": []})
                if d.get("inheritance"):
                    entry["inherits"] = d["inheritance"]
                entry["members"].extend(d["members"])
            elif kind in ("interface", "interface mixin"):
                target = self.ifaces if kind == "interface" else self.mixins
                entry = target.setdefault(d["name"], {"members": [], "ext_attrs": []})
                entry["members"].extend(d["members"])
                entry["ext_attrs"].extend(d.get("ext_attrs") or [])

    # -- types
    def type(self, t: dict) -> dict:
        ext = {e["name"] for e in t.get("ext_attrs") or []}
        node = self._type(t)
        if "EnforceRange" in ext:
            node["enforceRange"] = True
        if "Clamp" in ext:
            node["clamp"] = True
        if t.get("nullable"):
            node["nullable"] = True
        return node

    def _type(self, t: dict) -> dict:
        inner = t["idl_type"]
        if t.get("union"):
            members = []
            for m in inner:
                n = self.type(m)
                members.extend(n["of"] if n["t"] == "union" else [n])
            return {"t": "union", "of": members}
        generic = t.get("generic") or ""
        if generic:
            mapping = {"sequence": "sequence", "FrozenArray": "frozen", "record": "record", "Promise": "promise"}
            if generic == "record":
                return {"t": "record", "of": self.type(inner[1])}
            return {"t": mapping[generic], "of": self.type(inner[0])}
        name = inner
        if name in OPAQUE_TYPEDEFS:
            return {"t": OPAQUE_TYPEDEFS[name]}
        if name in self.typedefs:
            return self.type(self.typedefs[name])
        if name in self.enums:
            return {"t": "enum", "name": name}
        if name in self.dicts:
            return {"t": "dict", "name": name}
        if name in self.ifaces:
            return {"t": "iface", "name": name}
        if name in PRIMITIVES:
            return {"t": name}
        raise SystemExit(f"unknown IDL type {name}")

    @staticmethod
    def default(d):
        if d is None:
            return None
        kind, value = d["type"], d.get("value")
        if kind == "number":
            f = float(value)
            return int(f) if f.is_integer() and "e" not in value.lower() and "." not in value else f
        if kind in ("string", "boolean"):
            return value
        if kind == "dictionary":
            return {}
        if kind == "sequence":
            return []
        if kind == "null":
            return None
        raise SystemExit(f"unsupported default {d}")

    def merge_enum_extensions(self) -> None:
        """WebIDL has no partial enums: the values of an enum ``<Name>Extension`` (extensions.idl)
        are appended to enum ``<Name>``, and the ``...Extension`` enum itself is dropped."""
        for name in [n for n in self.enums if n.endswith(ENUM_EXTENSION)]:
            base = name[: -len(ENUM_EXTENSION)]
            if base not in self.enums:
                raise SystemExit(f"{name} extends unknown enum {base}")
            self.enums[base] = self.enums[base] + [v for v in self.enums.pop(name) if v not in self.enums[base]]

    # -- output model
    def build(self) -> dict:
        self.merge_enum_extensions()
        dicts = {}
        for name, d in sorted(self.dicts.items()):
            members = []
            for m in sorted(d["members"], key=lambda m: m["name"]):  # WebIDL: lexicographic order
                members.append(
                    {
                        "name": m["name"],
                        "type": self.type(m["idl_type"]),
                        "required": bool(m.get("required")),
                        "default": self.default(m.get("default")),
                    }
                )
            dicts[name] = {"inherits": d["inherits"], "members": members}
        ifaces = {}
        for name, iface in self.ifaces.items():
            if not any(e["name"] == "Exposed" for e in iface["ext_attrs"]) or not name.startswith("ML"):
                continue
            ops: dict[str, list] = {}
            attrs = {}
            ctor = None
            for m in iface["members"]:
                if m["type"] == "operation":
                    ops.setdefault(m["name"], []).append(self.overload(m))
                elif m["type"] == "attribute":
                    attrs[m["name"]] = {"type": self.type(m["idl_type"]), "readonly": bool(m.get("readonly"))}
                elif m["type"] == "constructor":
                    ctor = (ctor or []) + [self.overload(m)]
            ifaces[name] = {"constructor": ctor, "operations": ops, "attributes": attrs}
        return {"enums": dict(sorted(self.enums.items())), "dictionaries": dicts, "interfaces": ifaces}

    def overload(self, m: dict) -> dict:
        args = []
        for a in m["arguments"]:
            args.append(
                {
                    "name": a["name"],
                    "type": self.type(a["idl_type"]),
                    "optional": bool(a.get("optional")),
                    "default": self.default(a.get("default")),
                    "variadic": bool(a.get("variadic")),
                }
            )
        out = {"args": args}
        if m.get("idl_type") is not None:
            out["returns"] = self.type(m["idl_type"])
        return out


def load_model() -> dict:
    text = "\n".join((IDL_DIR / f).read_text() for f in IDL_FILES)
    return Model(_parse(text)).build()


def _header(comment: str) -> str:
    return (
        f"{comment} GENERATED FILE - DO NOT EDIT.\n"
        f"{comment} Produced by `webnn-bridge codegen` (src/webnn_bridge/devtools/codegen/idl.py) from src/webnn_bridge/idl/{{{','.join(IDL_FILES)}}}.\n"
        f"{comment} Regenerate with `webnn-bridge codegen`; CI runs `webnn-bridge codegen --check`.\n"
    )


def _js_params(overloads: list[dict]) -> list[str]:
    """Parameter names giving the method the spec's length: required args of the shortest overload."""
    best = None
    for o in overloads:
        req = []
        for a in o["args"]:
            if a["optional"] or a["variadic"]:
                break
            req.append(a["name"])
        if best is None or len(req) < len(best):
            best = req
    return best or []


def render_js(model: dict) -> str:
    from webnn_bridge.ops.core import DATA_TYPES

    dtypes = {n: {"bits": d.element_bits, "array": d.js_array} for n, d in DATA_TYPES.items()}
    lines = [_header("//"), "// The IDL model (const IDL) used by the runtime's WebIDL binding layer is idl/model.json,",
             "// which bridge/shim.py puts before this file when it assembles the served script."]
    lines.append("// MLOperandDataType facts (element size, typed array), generated from ops/core.py.")
    lines.append("const DATA_TYPES = " + json.dumps(dtypes, indent=1) + ";")
    lines.append("")
    lines.append("// One class per interface; every member goes through the runtime binding layer ($b).")
    lines.append("function defineInterfaces($b) {")
    lines.append("  const classes = {};")
    for name, iface in model["interfaces"].items():
        lines.append(f"  classes.{name} = class {name} {{")
        if iface["constructor"]:
            params = ", ".join(_js_params(iface["constructor"]))
            lines.append(f"    constructor({params}) {{ $b.construct(this, '{name}', arguments, new.target); }}")
        else:
            lines.append(f"    constructor() {{ $b.illegalConstructor('{name}'); }}")
        for attr in iface["attributes"]:
            lines.append(f"    get {attr}() {{ return $b.getAttribute(this, '{name}', '{attr}'); }}")
        for op, overloads in iface["operations"].items():
            params = ", ".join(_js_params(overloads))
            lines.append(f"    {op}({params}) {{ return $b.invoke(this, '{name}', '{op}', arguments); }}")
        lines.append("  };")
    lines.append("  return classes;")
    lines.append("}")
    return "\n".join(lines) + "\n"


def render_model(model: dict) -> str:
    """idl/model.json: the one copy of the model (JSON has no comments: the header is its first field)."""
    header = " ".join(line.lstrip("# ") for line in _header("#").splitlines())
    return json.dumps({"_generated": header, **model}, indent=1) + "\n"


def outputs() -> dict[Path, str]:
    model = load_model()
    return {JS_OUT: render_js(model), MODEL_OUT: render_model(model)}
