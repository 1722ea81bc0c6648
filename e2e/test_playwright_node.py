"""The Playwright Test (Node.js) example runs as a user's suite would: examples/playwright-test's
config starts `webnn-bridge serve` and the app's own server, and its specs run a page served by
the host, a page of another origin given the shim by the example's fixture (tests/webnn.mjs), and
the controls that make those two mean something. Playwright Test comes from npm, pinned by the
example's package-lock.json (scripts/install_playwright_test.sh, which scripts/test.sh runs)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import CHROMIUM, ROOT, free_port

EXAMPLE = ROOT / "examples" / "playwright-test"
PLAYWRIGHT = EXAMPLE / "node_modules" / ".bin" / "playwright"
SPECS = {  # every test of the example's suite, all of which must pass
    "a page the host serves (--app) runs its graph, with no fixture",
    "a page of another origin runs its graph with the shim the fixture adds",
    "without the fixture that page has no WebNN in this browser",
    "builder errors are the spec's, thrown synchronously",
}


def _outcomes(report: dict) -> dict[str, str]:
    """title -> Playwright's status of its one run ("expected", "unexpected", "flaky", "skipped")."""
    found = {}

    def walk(suite: dict) -> None:
        for spec in suite.get("specs", []):
            for t in spec.get("tests", []):
                found[spec["title"]] = t.get("status")
        for child in suite.get("suites", []):
            walk(child)

    for suite in report.get("suites", []):
        walk(suite)
    return found


def test_playwright_test_example_passes(tmp_path):
    if not PLAYWRIGHT.exists():
        why = f"Playwright Test is not installed in {EXAMPLE}: run scripts/install_playwright_test.sh (scripts/test.sh does)"
        if os.environ.get("CI"):  # the test command installs it: a broken install step fails here
            pytest.fail(why)
        pytest.skip(why)
    report = tmp_path / "report.json"
    env = dict(os.environ, CI="1", CHROMIUM=CHROMIUM, PLAYWRIGHT_JSON_OUTPUT_NAME=str(report),
               WEBNN_BRIDGE=str(Path(sys.executable).parent / "webnn-bridge"),
               WEBNN_BRIDGE_PORT=str(free_port()), APP_PORT=str(free_port()))
    run = subprocess.run([str(PLAYWRIGHT), "test", "--reporter=json", f"--output={tmp_path / 'results'}"],
                         cwd=EXAMPLE, env=env, capture_output=True, text=True, timeout=300)
    assert report.is_file(), f"no report (exit {run.returncode}):\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    outcomes = _outcomes(json.loads(report.read_text()))
    assert outcomes == dict.fromkeys(SPECS, "expected"), (outcomes, run.stderr[-3000:])
    assert run.returncode == 0, run.stderr[-3000:]
