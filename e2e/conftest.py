"""Fixtures for the browser tests: a real host on a free loopback port, Debian's Chromium driven
by Playwright, and an app directory assembled per test session."""

from __future__ import annotations

import asyncio
import functools
import http.server
import shutil
import threading
from pathlib import Path

import pytest

from bridge.server import Host, HostConfig

ROOT = Path(__file__).resolve().parent.parent
PAGES = ROOT / "e2e" / "pages"
SHARED_DATA = (ROOT / ".." / "shared" / "data").resolve()
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


class RunningHost:
    """A Host on its own event loop thread; stop() shuts it down."""

    def __init__(self, config: HostConfig):
        self.loop = asyncio.new_event_loop()
        self.host = Host(config)
        self._started = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        if not self._started.wait(30):
            raise RuntimeError("host did not start")

    def _run(self):
        asyncio.set_event_loop(self.loop)
        self.server = self.loop.run_until_complete(self.host.start())
        self._started.set()
        self.loop.run_forever()

    @property
    def url(self) -> str:
        return self.host.url

    def stop(self):
        async def close():
            self.server.close()
            await self.server.wait_closed()

        asyncio.run_coroutine_threadsafe(close(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(30)


def start_host(**kw) -> RunningHost:
    kw.setdefault("port", 0)
    return RunningHost(HostConfig(**kw))


@pytest.fixture(scope="session")
def app_dir(tmp_path_factory) -> Path:
    """The e2e pages plus links to ../shared/data (never copied into the repo)."""
    d = tmp_path_factory.mktemp("app")
    for f in PAGES.iterdir():
        shutil.copy(f, d / f.name)
    (d / "data").mkdir()
    return d


@pytest.fixture(scope="session")
def host(app_dir):
    h = start_host(app_dir=app_dir)
    yield h
    h.stop()


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run the README test command (it installs Debian's chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    ctx = browser.new_context()
    pg = ctx.new_page()
    pg.console_messages = []
    pg.on("console", lambda m: pg.console_messages.append(f"{m.type}: {m.text}"))
    pg.on("pageerror", lambda e: pg.console_messages.append(f"pageerror: {e}"))
    yield pg
    ctx.close()


class StaticServer:
    """A plain HTTP server on another loopback port: a page from a different origin."""

    def __init__(self, directory: Path):
        handler = functools.partial(_QuietHandler, directory=str(directory))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass
