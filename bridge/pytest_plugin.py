"""pytest plugin (entry point ``pytest11``; loaded automatically once webnn-bridge is installed):
test your own WebNN pages in Debian's headless Chromium through the shim.

Fixtures:

- ``webnn_host``    a host on a free loopback port for the whole test session, serving
                    ``--webnn-app DIR`` (or the ``webnn_app`` ini value) when given; ``.url``;
- ``webnn_browser`` Debian's Chromium (``--webnn-chromium PATH``) driven by Playwright;
- ``webnn_page``    a fresh Playwright page; ``page.console_messages`` collects console output;
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

from pathlib import Path

import pytest


def pytest_addoption(parser):
    group = parser.getgroup("webnn-bridge")
    group.addoption("--webnn-app", metavar="DIR", help="app directory the webnn_host fixture serves")
    group.addoption("--webnn-chromium", metavar="PATH", help="Chromium executable (default /usr/bin/chromium)")
    parser.addini("webnn_app", "app directory the webnn_host fixture serves (relative to the rootdir)")


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


def _start(app_dir: Path | None):
    from .embed import start_host

    if app_dir is not None and not app_dir.is_dir():
        pytest.fail(f"webnn-bridge: app directory {app_dir} does not exist")
    return start_host(app_dir=app_dir)


@pytest.fixture(scope="session")
def webnn_host(pytestconfig):
    running = _start(_app_dir(pytestconfig))
    yield running
    running.stop()


@pytest.fixture(scope="session")
def webnn_browser(pytestconfig):
    from .embed import CHROMIUM, CHROMIUM_ARGS

    exe = pytestconfig.getoption("--webnn-chromium") or CHROMIUM
    if not Path(exe).exists():
        pytest.fail(f"webnn-bridge: no Chromium at {exe} (apt-get install chromium, or pass --webnn-chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("webnn-bridge: the pytest fixtures need Playwright (pip install 'webnn-bridge[test]')")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def webnn_page(webnn_browser):
    ctx = webnn_browser.new_context()
    yield _watched(ctx.new_page())
    ctx.close()


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
