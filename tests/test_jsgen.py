"""The op-rules translator (src/webnn_bridge/devtools/codegen/jsgen.py): its output is committed and complete, and anything
outside its Python subset fails the generation loudly, naming the file and line.
(Behavioural equivalence of the generated JS with Python: e2e/test_rules_equivalence.py.)"""

from __future__ import annotations

import inspect

import numpy as np
import pytest

from webnn_bridge.devtools import codegen
from webnn_bridge.devtools.codegen import jsgen
from webnn_bridge.ops.core import WebNNTypeError
from webnn_bridge.ops.registry import load_all

HERE = "tests.test_jsgen"


def test_generated_rules_are_committed_and_current():
    text = jsgen.JS_OUT.read_text()
    assert text == jsgen.render(), "run `webnn-bridge codegen`"
    assert text.startswith("// GENERATED FILE - DO NOT EDIT.")
    assert jsgen.JS_OUT in codegen.generated_paths()


def test_every_registered_op_has_its_rules_in_the_shim():
    text = jsgen.JS_OUT.read_text()
    for op in load_all():
        assert f'"{op}": $opdef("{op}", ' in text


def _uses_numpy(x):
    return np.zeros(x)


def _generator(x):
    yield x


def _raises_value_error(x):
    if x:
        raise ValueError("no")
    return x


def _identity_test(x, y):
    return x is y


def _while_else(x):
    while x:
        x -= 1
    else:
        x = 3
    return x


def _star_kwargs(x, **kw):
    return x


def _calls_unsupported(x):
    return _uses_numpy(x) if x else 0


@pytest.mark.parametrize(
    "fn, what",
    [
        (_uses_numpy, "numpy.zeros"),
        (_generator, "Yield"),
        (_raises_value_error, "WebNNTypeError"),
        (_identity_test, "'is'"),
        (_while_else, "while/else"),
        (_star_kwargs, "**kwargs"),
        (_calls_unsupported, "numpy.zeros"),  # found through a call: the callee's line is named
    ],
)
def test_constructs_outside_the_subset_fail_with_file_and_line(fn, what):
    with pytest.raises(jsgen.JsGenError) as info:
        jsgen.translate(fn, packages=(HERE, jsgen.PACKAGES[0]))
    msg = str(info.value)
    assert what in msg
    target = _uses_numpy if fn is _calls_unsupported else fn
    lines, first = inspect.getsourcelines(target)
    assert any(f"tests/test_jsgen.py:{first + i}:" in msg for i in range(len(lines))), msg


def test_functions_outside_the_rule_packages_are_refused():
    with pytest.raises(jsgen.JsGenError, match="outside the translated packages"):
        jsgen.translate(_uses_numpy)


def _subset_sample(shape, axis):
    if axis < 0:
        axis = axis + len(shape)
    if not 0 <= axis < len(shape):
        raise WebNNTypeError(f"axis {axis} is out of range for {list(shape)}")
    head, tail = shape[:axis], shape[axis + 1:]
    return tuple(d // 2 for d in head) + tail[::-1]


def test_the_subset_translates_to_prelude_calls():
    js = jsgen.translate(_subset_sample, packages=(HERE,))
    assert "function test_jsgen__subset_sample(shape, axis)" in js
    assert "$floordiv(d, 2)" in js and "$slice(shape, null, axis, null)" in js
    assert "throw new $WebNNTypeError(`axis ${$str(axis)} is out of range for ${$str($list(shape))}`);" in js
    assert "$slice(tail, null, null, $neg(1))" in js


def test_codegen_reports_an_untranslatable_rule_and_writes_nothing(monkeypatch, capsys):
    def broken():
        raise jsgen.JsGenError("src/webnn_bridge/ops/defs/x.py:3: the statement 'With' is outside the translatable Python subset")

    monkeypatch.setattr(jsgen, "render", broken)
    assert codegen.main([]) == 2
    assert "src/webnn_bridge/ops/defs/x.py:3:" in capsys.readouterr().err


def test_a_new_operator_renumbers_nothing(monkeypatch):
    """Constants are named by their content and each op's limits by the op: adding an operator (here one
    that sorts first, the worst case for positional names) adds lines and changes none."""
    import dataclasses

    from webnn_bridge.ops.registry import Limits, same_as

    before = jsgen.render().splitlines()
    registry = load_all()
    limits = {"input": Limits(types=("float32",), required_types=("float32",), required_ranks=(0, 3)),
              "output": same_as("input")}
    monkeypatch.setitem(registry, "aaaNew", dataclasses.replace(registry["sqrt"], name="aaaNew", limits=limits))
    after = jsgen.render().splitlines()
    assert set(before) <= set(after), sorted(set(before) - set(after))[:5]
    added = [ln for ln in after if ln not in set(before)]
    assert 1 <= len(added) <= 4, added
