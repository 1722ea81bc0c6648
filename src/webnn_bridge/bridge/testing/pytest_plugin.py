"""pytest plugin (entry point ``pytest11``; loaded automatically once webnn-bridge is installed):
test your own WebNN pages through the shim in Chromium, Firefox and WebKit. Chromium is driven by
Playwright: ``pip install 'webnn-bridge[pytest]'`` installs it with pytest (nothing else; Firefox and
WebKit need no Python package).

Browsers: ``--webnn-browser chromium|firefox|webkit`` or a comma list (the ``webnn_browser`` ini
value; default chromium). With several, every test that uses a browser fixture runs once per browser
(its id ends in ``[firefox]`` etc.), one browser at a time, each launched once per session. Chromium
is Debian's ``chromium`` driven by Playwright; Firefox is Debian's ``firefox-esr`` driven over WebDriver
BiDi and WebKit is Debian's WebKitGTK (``webkit2gtk-driver``) driven by WebKitWebDriver under Xvfb, both
through :mod:`webnn_bridge.bridge.testing.browsers`, which gives the Playwright page API tests use. A browser that
is not installed skips its tests (fails them when ``CI=true``).

Markers: ``@pytest.mark.webnn_engines("chromium", ...)`` runs a test on those browsers only (others are
left out); ``@pytest.mark.webnn_lacks("SharedArrayBuffer", "webkit")`` skips it in the browsers named after the
feature, which lack a feature the test needs, and says so.

Fixtures:

- ``webnn_host``    a host on a free loopback port for the whole test session, serving
                    ``--webnn-app DIR`` (or the ``webnn_app`` ini value) when given, and letting in
                    pages of the ``--webnn-allow-origin`` origins (the ``webnn_allow_origins`` ini
                    lines: e.g. your own development server's); ``.url``;
- ``webnn_engine``  the browser's name: ``chromium``, ``firefox`` or ``webkit``;
- ``webnn_available`` skips the test when that browser is not installed (for tests launching it);
- ``webnn_browser`` the browser (Chromium: ``--webnn-chromium PATH``, a Playwright Browser);
- ``webnn_page``    a fresh page in a fresh context; ``page.console_messages`` collects console output.
                    With allowed origins, every page it loads gets ``webnn_host``'s shim before its own
                    scripts, whatever its origin (Chromium and Firefox; WebKit cannot, so there a test
                    that opens a page the host does not serve fails and says why);
- ``webnn_shim``    the source of ``webnn_host``'s shim script (what ``webnn_page`` adds);
- ``webnn_app``     a factory: ``webnn_app(DIR)`` serves any app directory on its own host
                    (stopped after the test) and returns it; ``app.open("sub/page.html")``
                    opens a page of it in a fresh browser context.

Example::

    def test_my_model(webnn_app):
        app = webnn_app("site/")
        page = app.open("classify.html")
        assert page.evaluate("runModel()") == "cat"
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .browsers import ENGINES, missing

# the light extra that has what the plugin needs: pytest and Playwright (pyproject.toml)
PLAYWRIGHT_MISSING = ("webnn-bridge: the pytest fixtures need Playwright to drive Chromium: "
                      "pip install 'webnn-bridge[pytest]' (pytest and Playwright only)")


def pytest_addoption(parser):
    group = parser.getgroup("webnn-bridge")
    group.addoption("--webnn-app", metavar="DIR", help="app directory the webnn_host fixture serves")
    group.addoption("--webnn-chromium", metavar="PATH", help="Chromium executable (default /usr/bin/chromium)")
    group.addoption("--webnn-allow-origin", metavar="ORIGIN", action="append", default=[],
                    help="also let pages of this origin use the session host (repeatable); webnn_page then "
                         "gives every page it loads the shim")
    group.addoption("--webnn-browser", metavar="LIST",
                    help="browsers the fixtures run tests in: chromium, firefox, webkit or a comma list "
                         "(default: the webnn_browser ini value, else chromium)")
    parser.addini("webnn_app", "app directory the webnn_host fixture serves (relative to the rootdir)")
    parser.addini("webnn_browser", "browsers the fixtures run tests in (comma list; default chromium)")
    parser.addini("webnn_allow_origins", "origins whose pages may use the session host, one a line "
                  "(webnn_page gives every page it loads the shim)", type="linelist")


def pytest_configure(config):
    config.addinivalue_line("markers", "webnn_engines(*names): run this test in these browsers only")
    config.addinivalue_line("markers", "webnn_lacks(feature, *names): skip in browsers `names`, which lack `feature`")
    engines(config)  # a misspelt browser is a usage error before anything runs
    allowed_origins(config)  # so is a malformed origin


def engines(config) -> list[str]:
    """The browsers this session runs, in the order given."""
    raw = config.getoption("--webnn-browser") or config.getini("webnn_browser") or "chromium"
    names = [n.strip().lower() for n in raw.replace(" ", ",").split(",") if n.strip()]
    bad = [n for n in names if n not in ENGINES]
    if bad:
        raise pytest.UsageError(f"--webnn-browser: unknown browser {', '.join(bad)} (one of {', '.join(ENGINES)})")
    return list(dict.fromkeys(names))


def pytest_generate_tests(metafunc):
    if "webnn_engine" not in metafunc.fixturenames:
        return
    wanted = engines(metafunc.config)
    only = set()
    for m in metafunc.definition.iter_markers("webnn_engines"):
        only |= set(m.args)
    lacks = {}
    for m in metafunc.definition.iter_markers("webnn_lacks"):
        for name in m.args[1:]:
            lacks.setdefault(name, m.args[0])
    params = []
    for name in wanted:
        if only and name not in only:
            continue
        marks = [pytest.mark.skip(reason=f"{name} lacks {lacks[name]}")] if name in lacks else []
        params.append(pytest.param(name, marks=marks, id=name))
    if not params:  # every browser asked for is left out: say so once
        params = [pytest.param(wanted[0], id=wanted[0], marks=pytest.mark.skip(
            reason=f"runs in {', '.join(sorted(only))} only"))]
    metafunc.parametrize("webnn_engine", params, indirect=True, scope="session")


def _app_dir(config) -> Path | None:
    opt = config.getoption("--webnn-app")
    if opt:
        return Path(opt)
    ini = config.getini("webnn_app")
    return Path(config.rootpath, ini) if ini else None


class ServedApp:
    """An app directory served by its own host; ``open`` gives a page of it."""

    def __init__(self, running, browser):
        self.running = running
        self.browser = browser
        self._contexts = []

    @property
    def url(self) -> str:
        return self.running.url

    def open(self, path: str = ""):
        ctx = self.browser.new_context()
        self._contexts.append(ctx)
        page = _watched(ctx.new_page())
        page.goto(f"{self.url}/{path.lstrip('/')}")
        return page

    def close(self) -> None:
        for ctx in self._contexts:
            ctx.close()
        self.running.stop()


def _watched(page):
    page.console_messages = []
    page.on("console", lambda m: page.console_messages.append(f"{m.type}: {m.text}"))
    page.on("pageerror", lambda e: page.console_messages.append(f"pageerror: {e}"))
    return page


def allowed_origins(config) -> list[str]:
    """--webnn-allow-origin and the webnn_allow_origins ini lines (a malformed one is a usage error)."""
    from ..server import normalize_origin

    origins = [*config.getoption("--webnn-allow-origin"), *config.getini("webnn_allow_origins")]
    for o in origins:
        try:
            normalize_origin(o)
        except ValueError as e:
            raise pytest.UsageError(f"webnn-bridge: --webnn-allow-origin: {e}") from None
    return origins


def _start(app_dir: Path | None, allow_origins: list[str] | None = None):
    from ..embed import start_host

    if app_dir is not None and not app_dir.is_dir():
        pytest.fail(f"webnn-bridge: app directory {app_dir} does not exist")
    return start_host(app_dir=app_dir, allow_origins=list(allow_origins or []))


@pytest.fixture(scope="session")
def webnn_host(pytestconfig):
    running = _start(_app_dir(pytestconfig), allowed_origins(pytestconfig))
    yield running
    running.stop()


@pytest.fixture(scope="session")
def webnn_shim(webnn_host) -> str:
    """The shim script ``webnn_host`` serves (bound to it), for ``add_init_script``."""
    from ..shim import shim_source

    return shim_source(webnn_host.url)


@pytest.fixture(scope="session")
def webnn_engine(request):
    """The browser's name; parametrized by --webnn-browser (see pytest_generate_tests)."""
    return getattr(request, "param", None) or engines(request.config)[0]


@pytest.fixture(scope="session")
def webnn_available(pytestconfig, webnn_engine):
    """Skips (fails for Chromium, or under CI=true) when ``webnn_engine`` is not installed: for tests
    that launch the browser themselves."""
    from ..embed import CHROMIUM

    exe = pytestconfig.getoption("--webnn-chromium") or CHROMIUM
    why = missing(webnn_engine, exe)
    if why:  # Chromium is the default and must be there; under CI every browser asked for must be
        if webnn_engine == "chromium" or os.environ.get("CI", "").lower() in ("1", "true"):
            pytest.fail(f"webnn-bridge: {why}")
        pytest.skip(f"webnn-bridge: {why}")
    return exe


@pytest.fixture(scope="session")
def webnn_browser(webnn_available, webnn_engine):
    from ..embed import CHROMIUM_ARGS

    exe = webnn_available
    if webnn_engine != "chromium":
        from .browsers import launch

        browser = launch(webnn_engine)
        yield browser
        browser.close()
        return
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail(PLAYWRIGHT_MISSING)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def webnn_page(request, webnn_browser):
    ctx = webnn_browser.new_context()
    cannot = None
    if allowed_origins(request.config):  # pages of those origins get the shim before their own scripts
        from .browsers import Error

        try:
            ctx.add_init_script(script=request.getfixturevalue("webnn_shim"))
        except Error as e:  # WebKit: the host's own pages still work, others fail when opened
            cannot = str(e)
    page = _watched(ctx.new_page())
    if cannot:
        _host_pages_only(page, request.getfixturevalue("webnn_host").url, cannot)
    yield page
    ctx.close()


def _host_pages_only(page, host_url: str, why: str) -> None:
    """``page.goto`` fails the test, saying why, for a page the host does not serve."""
    from urllib.parse import urlsplit

    goto = page.goto

    def checked(url: str, **kw):
        if urlsplit(url)[:2] != urlsplit(host_url)[:2]:
            pytest.fail(f"webnn-bridge: {url} cannot get the shim in this browser: {why}")
        return goto(url, **kw)

    page.goto = checked


@pytest.fixture
def webnn_app(webnn_browser):
    apps: list[ServedApp] = []

    def serve(app_dir) -> ServedApp:
        app = ServedApp(_start(Path(app_dir)), webnn_browser)
        apps.append(app)
        return app

    yield serve
    for app in apps:
        app.close()
