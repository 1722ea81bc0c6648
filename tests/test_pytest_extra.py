"""Issue 38 (D): after `pip install webnn-bridge pytest`, a test on Chromium says to install the
light `[pytest]` extra (pytest and Playwright), not the project's own `[test]` extra (torch,
OpenVINO, coremltools, matplotlib ...)."""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

import pytest

from webnn_bridge.bridge.testing import pytest_plugin

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parent.parent
TESTING = ROOT / "src" / "webnn_bridge" / "bridge" / "testing"


def _names(requirements: list[str]) -> set[str]:
    return {re.match(r"[A-Za-z0-9._-]+", r).group(0).lower() for r in requirements}


def test_the_pytest_extra_is_what_the_plugin_needs():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert _names(extras["pytest"]) == {"pytest", "playwright"}
    # the same versions the project's own suite runs the plugin with
    test = {r for r in extras["test"] if _names([r]) & {"pytest", "playwright"}}
    assert set(extras["pytest"]) == test
    # the plugin imports no other third-party package than those and webnn-bridge's own dependencies
    source = (TESTING / "pytest_plugin.py").read_text() + (TESTING / "browsers.py").read_text()
    imported = {m.split(".")[0] for m in re.findall(r"^\s*(?:from|import) ([A-Za-z_][\w.]*)", source, re.M)}
    third_party = imported - set(sys.stdlib_module_names) - {"__future__"}
    core = _names(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"])
    assert third_party <= {"pytest", "playwright"} | core, third_party


def test_missing_playwright_names_the_pytest_extra(pytester):
    """A user's project where Playwright is not installed (its import fails) and Chromium is asked for."""
    pytester.makeconftest("import sys\nsys.modules['playwright'] = None  # as if not installed\n")
    pytester.makepyfile(test_user="def test_page(webnn_browser):\n    pass\n")
    plugin = [] if "webnn_bridge" in _entry_points() else ["-p", "webnn_bridge.bridge.testing.pytest_plugin"]
    # any existing file passes for the Chromium executable: the fixture stops before launching it
    result = pytester.runpytest_subprocess(*plugin, "-q", "--webnn-browser=chromium",
                                           f"--webnn-chromium={sys.executable}", timeout=120)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    out = result.stdout.str()
    assert f"Failed: {pytest_plugin.PLAYWRIGHT_MISSING}" in out, out
    assert "pip install 'webnn-bridge[pytest]'" in pytest_plugin.PLAYWRIGHT_MISSING
    assert "webnn-bridge[test]" not in out


def _entry_points() -> set[str]:
    from importlib.metadata import entry_points

    return {e.name for e in entry_points(group="pytest11")}
