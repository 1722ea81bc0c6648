"""The pytest plugin (src/webnn_bridge/bridge/testing/pytest_plugin.py) run the way a user runs it: a separate pytest on a
user's own project, with the plugin loaded as its entry point would load it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .conftest import StaticServer

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parent.parent

USER_TESTS = '''
def test_page_runs_a_graph(webnn_app):
    app = webnn_app("site")
    page = app.open("app/")
    assert page.evaluate("window.run()") == [0, 3]
    assert not [m for m in page.console_messages if m.startswith("pageerror")]


def test_session_host_serves_the_ini_app(webnn_host, webnn_page):
    webnn_page.goto(webnn_host.url + "/app/")
    assert webnn_page.evaluate("typeof navigator.ml.createContext") == "function"


def test_a_failing_page_fails(webnn_app):
    page = webnn_app("site").open("app/")
    assert page.evaluate("window.run()") == [1, 2]
'''

PAGE = """<!doctype html><title>user app</title><script>
window.run = async () => {
  const ctx = await navigator.ml.createContext();
  const b = new MLGraphBuilder(ctx);
  const x = b.input('x', {dataType: 'float32', shape: [2]});
  const g = await b.build({y: b.relu(x)});
  const tx = await ctx.createTensor({dataType: 'float32', shape: [2], writable: true});
  const ty = await ctx.createTensor({dataType: 'float32', shape: [2], readable: true});
  ctx.writeTensor(tx, new Float32Array([-1, 3]));
  ctx.dispatch(g, {x: tx}, {y: ty});
  return Array.from(new Float32Array(await ctx.readTensor(ty)));
};
</script>"""


def test_plugin_fixtures_in_a_user_project(pytester, monkeypatch, pytestconfig):
    """Once per browser this suite runs (--webnn-browser): the user's tests run in each, in one session."""
    from webnn_bridge.bridge.testing.browsers import missing
    from webnn_bridge.bridge.testing.pytest_plugin import engines

    names = [e for e in engines(pytestconfig) if not missing(e) or os.environ.get("CI", "").lower() in ("1", "true")]
    (pytester.path / "site" / "app").mkdir(parents=True)
    (pytester.path / "site" / "app" / "index.html").write_text(PAGE)
    pytester.makeini("[pytest]\nwebnn_app = site\n")
    pytester.makepyfile(test_user=USER_TESTS)
    plugin = _user_run(monkeypatch)
    result = pytester.runpytest_subprocess(*plugin, "-q", f"--webnn-browser={','.join(names)}", timeout=300)
    result.assert_outcomes(passed=2 * len(names), failed=len(names))
    result.stdout.fnmatch_lines([f"*test_a_failing_page_fails[[]{name}[]]*" for name in names])


OTHER_ORIGIN_TESTS = '''
import os


def test_a_page_of_another_origin_runs_a_graph(webnn_page):
    webnn_page.goto(os.environ["USER_APP_URL"] + "/app/")
    assert webnn_page.evaluate("window.run()") == [0, 3]


def test_the_hosts_own_pages_still_run(webnn_host, webnn_page):
    webnn_page.goto(webnn_host.url + "/app/")  # the host injects its tag too: the page has the shim twice
    assert webnn_page.evaluate("window.run()") == [0, 3]
'''


def test_pages_of_an_allowed_origin_get_the_shim(pytester, monkeypatch, pytestconfig):
    """A user's own development server (another origin): with --webnn-allow-origin, webnn_page gives
    its pages the session host's shim before their own scripts; WebKit cannot, and the test that
    opens such a page fails saying so, while the host's own pages still run there."""
    from webnn_bridge.bridge.testing.browsers import missing
    from webnn_bridge.bridge.testing.pytest_plugin import engines

    names = [e for e in engines(pytestconfig) if not missing(e) or os.environ.get("CI", "").lower() in ("1", "true")]
    (pytester.path / "site" / "app").mkdir(parents=True)
    (pytester.path / "site" / "app" / "index.html").write_text(PAGE)  # no shim tag
    server = StaticServer(pytester.path / "site")
    try:
        origin = server.origin
        pytester.makeini("[pytest]\nwebnn_app = site\n")
        pytester.makepyfile(test_user=OTHER_ORIGIN_TESTS)
        monkeypatch.setenv("USER_APP_URL", origin)
        plugin = _user_run(monkeypatch)
        args = [*plugin, "-q", f"--webnn-browser={','.join(names)}"]
        result = pytester.runpytest_subprocess(*args, "--webnn-allow-origin", origin, timeout=300)
        webkit = "webkit" in names
        result.assert_outcomes(passed=2 * len(names) - webkit, failed=int(webkit))
        if webkit:
            result.stdout.fnmatch_lines(["*test_a_page_of_another_origin_runs_a_graph[[]webkit[]]*",
                                         "*cannot get the shim in this browser*"])
        # the control, in Chromium alone: without the option those pages have no WebNN
        result = pytester.runpytest_subprocess(*plugin, "-q", "--webnn-browser=chromium", "-k", "another_origin",
                                               timeout=300)
        result.assert_outcomes(failed=1)
    finally:
        server.stop()


def test_a_malformed_allowed_origin_is_a_usage_error(pytester, monkeypatch):
    pytester.makepyfile(test_user="def test_x(webnn_page):\n    pass\n")
    plugin = _user_run(monkeypatch)
    result = pytester.runpytest_subprocess(*plugin, "-q", "--webnn-allow-origin", "localhost:5173", timeout=120)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--webnn-allow-origin*not an origin*"])


def test_unknown_browser_is_a_usage_error(pytester, monkeypatch):
    pytester.makepyfile(test_user="def test_x(webnn_page):\n    pass\n")
    plugin = _user_run(monkeypatch)
    result = pytester.runpytest_subprocess(*plugin, "-q", "--webnn-browser=chromium,netscape", timeout=120)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*unknown browser netscape*"])


def _user_run(monkeypatch) -> list[str]:
    """Sets up a user's pytest run (this checkout importable); the arguments that load the plugin
    as its pytest11 entry point would (the shared dev install may predate the entry point)."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    return ["-p", "webnn_bridge.bridge.testing.pytest_plugin"] if "webnn_bridge" not in _entry_points() else []


def _entry_points() -> set[str]:
    from importlib.metadata import entry_points

    return {e.name for e in entry_points(group="pytest11")}


def test_entry_point_is_declared():
    import tomllib

    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert meta["project"]["entry-points"]["pytest11"] == {"webnn_bridge": "webnn_bridge.bridge.testing.pytest_plugin"}


MARKED = '''
import pytest


def test_everywhere(webnn_page):
    pass


@pytest.mark.webnn_engines("chromium")
def test_chromium_only(webnn_page):
    pass


@pytest.mark.webnn_lacks("SharedArrayBuffer", "webkit")
def test_needs_sab(webnn_page):
    pass


def test_no_browser():
    pass
'''


def test_browsers_parametrize_and_markers(pytester, monkeypatch):
    """Collection only (no browser starts): one item per browser, markers narrow or skip."""
    pytester.makepyfile(test_user=MARKED)
    plugin = _user_run(monkeypatch)
    result = pytester.runpytest_subprocess(*plugin, "--collect-only", "-q", "--webnn-browser", "firefox, webkit,chromium",
                                           timeout=120)
    items = {line.split("::")[1] for line in result.stdout.lines if "::" in line}
    assert items == {
        "test_everywhere[firefox]", "test_everywhere[webkit]", "test_everywhere[chromium]",
        "test_chromium_only[chromium]",
        "test_needs_sab[firefox]", "test_needs_sab[webkit]", "test_needs_sab[chromium]",
        "test_no_browser",
    }
    result = pytester.runpytest_subprocess(*plugin, "-rs", "-k", "needs_sab and webkit or chromium_only",
                                           "--webnn-browser", "webkit", timeout=120)
    result.assert_outcomes(skipped=2)
    result.stdout.fnmatch_lines(["*runs in chromium only*", "*webkit lacks SharedArrayBuffer*"])
