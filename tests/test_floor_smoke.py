"""Issue 38 (C): scripts/floor_smoke.sh checks the declared dependency floors. Its pins come from
pyproject.toml (so they cannot drift), its check is a real one (it passes against a working host and
names what fails against a broken one), and the CI test command runs it. The smoke run itself, which
installs the floors from the package index, is scripts/test.sh's step, not this file's."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from webnn_bridge.bridge.embed import start_host

ROOT = Path(__file__).resolve().parent.parent


def _smoke():
    spec = importlib.util.spec_from_file_location("floor_smoke", ROOT / "scripts" / "floor_smoke.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_pins_are_the_declared_floors():
    pins = _smoke().floor_pins(ROOT / "pyproject.toml")
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert len(pins) == len(deps)
    for dep, pin in zip(deps, pins):
        name, floor = re.fullmatch(r"([A-Za-z0-9._-]+)\s*>=\s*([^,;\s]+).*", dep).groups()
        assert pin == f"{name}=={floor}"
    # never below what issue 38 found the code needs (see pyproject.toml's notes)
    floors = {pin.split("==")[0]: tuple(int(x) for x in pin.split("==")[1].split(".")) for pin in pins}
    assert floors["websockets"] >= (17, 0) and floors["onnxruntime"] >= (1, 26)


def test_pins_keep_extras_and_markers_and_refuse_an_unbounded_dependency(tmp_path):
    p = tmp_path / "pyproject.toml"
    p.write_text('[project]\ndependencies = ["a[x,y] >= 1.2, <2", "b>=3; sys_platform == \'linux\'", "c~=4.1"]\n')
    assert _smoke().floor_pins(p) == ["a[x,y]==1.2", "b==3; sys_platform == 'linux'", "c==4.1"]
    p.write_text('[project]\ndependencies = ["numpy>=1.26", "requests"]\n')
    with pytest.raises(ValueError, match="'requests' declares no floor"):
        _smoke().floor_pins(p)
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "floor_smoke.py"), "pins", str(p)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and "no floor" in r.stderr


def test_the_check_passes_on_a_working_host_and_names_what_fails():
    h = start_host()
    try:
        assert _smoke().check(h.url) == []
    finally:
        h.stop()
    # a host that is gone: every step fails, each named, nothing raised
    problems = _smoke().check(h.url)
    assert [p.split(":")[0] for p in problems] == ["GET /webnn-shim.js", "HEAD /webnn-shim.js", "GET /healthz",
                                                   "wire round trip"], problems


def test_the_ci_test_command_runs_the_floor_smoke_test():
    text = (ROOT / "scripts" / "test.sh").read_text()
    whole_suite = text.split('if [ $# -gt 0 ]; then', 1)[1]  # after the caller-chosen pytest run
    assert "bash scripts/floor_smoke.sh || status=$?" in whole_suite
    assert "exec bash scripts/test.sh" in (ROOT / ".ci" / "run").read_text()
    smoke = (ROOT / "scripts" / "floor_smoke.sh").read_text()
    assert "floor_smoke.py pins pyproject.toml" in smoke and "--no-deps" in smoke and "Traceback" in smoke
