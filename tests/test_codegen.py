"""`webnn-bridge codegen` (src/webnn_bridge/devtools/codegen/): every generated file is current, the repository holds no
generated file the command does not know, skipped generators say why, and the check mode really checks.
Also the IDL model (src/webnn_bridge/devtools/codegen/idl.py) and the interface layer generated from it."""

from __future__ import annotations

import os
import subprocess

import pytest

from webnn_bridge.bridge import cli
from webnn_bridge.devtools import codegen
from webnn_bridge.devtools.codegen import idl as idl_gen
from webnn_bridge.devtools.codegen import jsgen
from webnn_bridge.idl import idl_model
from webnn_bridge.ops.registry import load_all

ROOT = codegen.ROOT


@pytest.mark.parametrize("gen", codegen.GENERATORS, ids=[g.name for g in codegen.GENERATORS])
def test_committed_generated_file_is_current(gen):
    why = gen.missing()
    if why:
        pytest.skip(f"{gen.name} cannot be generated here: {why}")
    if gen.measured and os.environ.get("WEBNN_BRIDGE_CODEGEN_CHECKED") == "1":
        pytest.skip(f"{gen.name}: measured and compared by `webnn-bridge codegen --check` earlier in this run "
                    "(scripts/test.sh)")
    texts = gen.render()
    assert sorted(texts) == sorted(ROOT / p for p in gen.paths)  # writes what the registry declares
    for path, text in texts.items():
        assert path.read_text() == text, f"{path} is stale: run `webnn-bridge codegen`"
        head = text[:600]  # docs/operators.md's spliced table begins near the top, too
        assert codegen.MARKER in head and "`webnn-bridge codegen`" in head, f"{path}: no generated-file header"


def _marked(path) -> bool:
    """A generated-file header: the marker in the first lines (JSON: its "_generated" field), or an
    HTML comment opening a generated section of a hand-written Markdown file."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (UnicodeDecodeError, OSError):
        return False
    return any(codegen.MARKER.lower() in ln.lower() for ln in lines[:5]) or any(
        ln.startswith("<!--") and codegen.MARKER in ln for ln in lines)


def test_every_file_with_a_generated_header_has_a_generator(tmp_path):
    files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.split()
    assert len(files) > 100
    marked = {ROOT / f for f in files if (ROOT / f).is_file() and _marked(ROOT / f)}
    assert marked == codegen.generated_paths(), (
        f"generated files `webnn-bridge codegen` does not make: {sorted(map(str, marked - codegen.generated_paths()))}; "
        f"generator outputs without a header: {sorted(map(str, codegen.generated_paths() - marked))}")
    # the scan is not vacuous: a stray file with the header is seen
    stray = tmp_path / "stray.js"
    stray.write_text(f"// {codegen.MARKER}.\n")
    assert _marked(stray) and not _marked(codegen.PACKAGE / "js_shim" / "runtime.js")


def _only(monkeypatch, *names):
    monkeypatch.setattr(codegen, "GENERATORS", tuple(g for g in codegen.GENERATORS if g.name in names))


@pytest.mark.parametrize("module, name, gen", [(idl_gen, "webnn_idl.js", "IDL model"),
                                               (jsgen, "webnn_ops.js", "op rules (JS)")])
def test_check_mode_fails_on_a_stale_file(module, name, gen, tmp_path, monkeypatch, capsys):
    stale = tmp_path / name
    stale.write_text("// edited by hand\n")
    monkeypatch.setattr(module, "JS_OUT", stale)
    _only(monkeypatch, gen)
    assert codegen.main(["--check"]) == 1
    assert "stale" in capsys.readouterr().err
    assert stale.read_text() == "// edited by hand\n"  # --check never writes
    assert codegen.main([]) == 0 and stale.read_text() != "// edited by hand\n"  # codegen rewrites it
    assert codegen.main(["--check"]) == 0


def test_a_generator_that_cannot_run_is_reported_not_silent(tmp_path, monkeypatch, capsys):
    out = tmp_path / "table.json"
    gens = (codegen.Generator("needs-runtime", (out,), lambda: {out: "x"}, needs="no_such_runtime_webnn"),
            codegen.Generator("no-device", (out,), lambda: {out: "x"}, unavailable=lambda: "no device here"))
    monkeypatch.setattr(codegen, "GENERATORS", gens)
    assert cli.main(["codegen", "--check"]) == 0  # through the CLI's dispatch
    err = capsys.readouterr().err
    assert f"skipped needs-runtime ({out}: no_such_runtime_webnn is not installed)" in err
    assert f"skipped no-device ({out}: no device here)" in err
    assert codegen.main([]) == 0 and not out.exists()


def test_one_run_converges_when_a_generator_reads_an_earlier_ones_file(tmp_path, monkeypatch, capsys):
    """Generators run in order and each writes before the next renders (the backend tables need the
    IDL model; the operator table shows the backend tables): one `codegen` leaves nothing stale."""
    model, table = tmp_path / "model.json", tmp_path / "table.md"
    gens = (codegen.Generator("model", (model,), lambda: {model: "v2\n"}),
            codegen.Generator("table", (table,), lambda: {table: f"rows of {model.read_text().strip()}\n"}))
    model.write_text("v1\n")
    table.write_text("rows of v1\n")
    monkeypatch.setattr(codegen, "GENERATORS", gens)
    assert codegen.main(["--check"]) == 1  # the model is stale (the table only after the model changes)
    assert codegen.main([]) == 0
    assert table.read_text() == "rows of v2\n" and codegen.main(["--check"]) == 0
    model.unlink()  # a deleted generated file is regenerated
    assert codegen.main([]) == 0 and model.read_text() == "v2\n"


def test_a_missing_step_is_named_before_any_file_is_written(tmp_path, monkeypatch, capsys):
    from webnn_bridge.devtools.codegen import preflight

    out = tmp_path / "out.txt"
    monkeypatch.setattr(codegen, "GENERATORS", (codegen.Generator("g", (out,), lambda: {out: "x"}),))
    monkeypatch.setattr(preflight, "problems", lambda: [f"{preflight.STEP_SWEEP}: no capability-sweep case for ['newOp']"])
    for argv in ([], ["--check"]):
        assert codegen.main(argv) == 2 and not out.exists()
        assert "codegen: step 3 (CONTRIBUTING.md" in capsys.readouterr().err


def test_an_operator_without_a_sweep_case_is_named_with_its_step(monkeypatch):
    """An operator with two operands and no CASES entry: codegen stops before writing, naming step 3 (it
    used to write three files, then fail with a bare KeyError in the backend tables)."""
    from webnn_bridge.devtools import sweep_cases
    from webnn_bridge.devtools.codegen import preflight

    monkeypatch.delitem(sweep_cases.CASES, "add")
    problems = preflight.problems()
    assert len(problems) == 1 and problems[0].startswith(preflight.STEP_SWEEP), problems
    assert "['add']" in problems[0] and "CASES in src/webnn_bridge/devtools/sweep_cases.py" in problems[0]


def test_a_failing_generator_puts_back_what_the_run_wrote(tmp_path, monkeypatch, capsys):
    first, second = tmp_path / "first.txt", tmp_path / "second.txt"
    first.write_text("old\n")

    def broken():
        raise KeyError("newOp")

    monkeypatch.setattr(codegen, "GENERATORS", (
        codegen.Generator("first", (first,), lambda: {first: "new\n"}),
        codegen.Generator("made", (second,), lambda: {second: "made\n"}),
        codegen.Generator("broken", (tmp_path / "x",), broken)))
    assert codegen.main([]) == 2
    err = capsys.readouterr().err
    assert "broken failed: KeyError: 'newOp'" in err and "put back the 2 file(s)" in err
    assert first.read_text() == "old\n" and not second.exists()


def test_the_registry_is_in_dependency_order():
    names = [g.name for g in codegen.GENERATORS]
    assert names.index("IDL model") < names.index("TensorRT ONNX operator table") < names.index("operator table")
    assert names.index("OpenVINO capability table") < names.index("operator table")


def test_model_covers_the_spec():
    IDL = idl_model()
    builder = IDL["interfaces"]["MLGraphBuilder"]["operations"]
    operators = set(builder) - {"input", "constant", "build"}
    assert operators == set(load_all())  # one method per registered operator (the count follows the registry)
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
    js = idl_gen.JS_OUT.read_text()
    assert js.startswith("// GENERATED FILE - DO NOT EDIT.")
    assert "    add(a, b) { return $b.invoke(this, 'MLGraphBuilder', 'add', arguments); }" in js
    assert "    constructor(context) { $b.construct(this, 'MLGraphBuilder', arguments, new.target); }" in js
    assert "    createContext() {" in js  # every argument of createContext(options) is optional
    assert "    readTensor(tensor) {" in js  # shortest overload


def test_enum_extensions_merge_into_their_enum():
    model = idl_gen.Model(idl_gen._parse('enum E { "a", "b" };\nenum EExtension { "b", "c" };\n'))
    model.merge_enum_extensions()
    assert model.enums == {"E": ["a", "b", "c"]}
    orphan = idl_gen.Model(idl_gen._parse('enum FExtension { "x" };\n'))
    with pytest.raises(SystemExit, match="unknown enum F"):
        orphan.merge_enum_extensions()
