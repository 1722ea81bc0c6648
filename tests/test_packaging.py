"""The installed package exposes one import name, `webnn_bridge` (issue 11): the repo's folders
(bridge, ops, policy, backends, idl, js_shim) are its subpackages, never top-level modules in a
user's environment."""

from __future__ import annotations

import subprocess
import sys

import pytest

SUBPACKAGES = ("bridge", "ops", "policy", "backends", "idl", "js_shim")


def _run(code: str, tmp_path) -> subprocess.CompletedProcess:
    # run outside the checkout so the working directory cannot make the repo's folders importable
    return subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("name", SUBPACKAGES)
def test_subpackage_importable_under_one_name(name, tmp_path):
    r = _run(f"import webnn_bridge.{name} as m; print(m.__name__)", tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == f"webnn_bridge.{name}"


@pytest.mark.parametrize("name", SUBPACKAGES)
def test_no_generic_top_level_module(name, tmp_path):
    r = _run(f"import importlib.util, sys; sys.exit(importlib.util.find_spec({name!r}) is not None)", tmp_path)
    assert r.returncode == 0, f"the installed package exposes a top-level module {name!r}"
