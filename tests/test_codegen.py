"""The generated interface layer and IDL table: up to date, and the check mode really checks."""

from __future__ import annotations

import pytest

from webnn_bridge.idl import codegen
from webnn_bridge.ops import jsgen
from webnn_bridge.ops._idl import IDL


def test_committed_generated_files_are_current():
    for path, text in codegen.outputs().items():
        assert path.read_text() == text, f"{path} is stale: run `webnn-bridge codegen`"


@pytest.mark.parametrize("module, name", [(codegen, "webnn_idl.js"), (jsgen, "webnn_ops.js")])
def test_check_mode_fails_on_a_stale_file(module, name, tmp_path, monkeypatch, capsys):
    stale = tmp_path / name
    stale.write_text("// edited by hand\n")
    monkeypatch.setattr(module, "JS_OUT", stale)
    assert codegen.main(["--check"]) == 1
    assert "stale" in capsys.readouterr().err
    assert stale.read_text() == "// edited by hand\n"  # --check never writes


def test_model_covers_the_spec():
    builder = IDL["interfaces"]["MLGraphBuilder"]["operations"]
    operators = set(builder) - {"input", "constant", "build"}
    assert len(operators) == 95
    assert len(builder["constant"]) == 3
    assert len(IDL["dictionaries"]) == 54 + 0  # extensions only add members to existing dictionaries
    # the spec's eight, then the int4 / uint4 extension (enum MLOperandDataTypeExtension, merged)
    assert IDL["enums"]["MLOperandDataType"] == ["float32", "float16", "int32", "uint32", "int64", "uint64", "int8", "uint8",
                                                 "int4", "uint4"]
    assert not any(name.endswith("Extension") for name in IDL["enums"])
    assert IDL["interfaces"]["MLGraph"]["attributes"]["devices"]["type"] == {"t": "frozen", "of": {"t": "enum", "name": "MLDeviceType"}}
    ctx_ops = IDL["interfaces"]["MLContext"]["operations"]
    assert [a["name"] for a in ctx_ops["createExportableTensor"][0]["args"]] == ["descriptor", "device"]
    assert IDL["interfaces"]["MLTensor"]["attributes"]["gpuDevice"]["type"]["nullable"]
    conv = {m["name"]: m for m in IDL["dictionaries"]["MLConv2dOptions"]["members"]}
    assert conv["groups"]["default"] == 1 and conv["filterLayout"]["default"] == "oihw"
    desc = {m["name"]: m for m in IDL["dictionaries"]["MLOperandDescriptor"]["members"]}
    assert desc["shape"]["required"] and desc["shape"]["type"]["of"]["enforceRange"]


def test_js_methods_have_the_spec_arity():
    js = codegen.JS_OUT.read_text()
    assert js.startswith("// GENERATED FILE - DO NOT EDIT.")
    assert "    add(a, b) { return $b.invoke(this, 'MLGraphBuilder', 'add', arguments); }" in js
    assert "    constructor(context) { $b.construct(this, 'MLGraphBuilder', arguments, new.target); }" in js
    assert "    createContext() {" in js  # every argument of createContext(options) is optional
    assert "    readTensor(tensor) {" in js  # shortest overload


def test_enum_extensions_merge_into_their_enum():
    model = codegen.Model(codegen._parse('enum E { "a", "b" };\nenum EExtension { "b", "c" };\n'))
    model.merge_enum_extensions()
    assert model.enums == {"E": ["a", "b", "c"]}
    orphan = codegen.Model(codegen._parse('enum FExtension { "x" };\n'))
    with pytest.raises(SystemExit, match="unknown enum F"):
        orphan.merge_enum_extensions()
