"""Fixtures for the browser tests: a real host on a free loopback port, the browsers (the pytest
plugin's: Chromium, Firefox and WebKit, see --webnn-browser), and an app directory assembled per
test session."""

from __future__ import annotations

import functools
import http.server
import shutil
import socket
import ssl
import threading
import time
from pathlib import Path

import pytest

from tests import shared_data
from webnn_bridge.bridge import embed
from webnn_bridge.bridge.embed import CHROMIUM, CHROMIUM_ARGS, RunningHost  # noqa: F401
from webnn_bridge.workbench.trace import SessionTracer, TraceWriter

ROOT = Path(__file__).resolve().parent.parent
PAGES = ROOT / "e2e" / "pages"
SHARED_DATA = shared_data.root()  # <repo>/../shared/data, or $WEBNN_BRIDGE_DATA
@pytest.fixture(scope="session")
def app_dir(tmp_path_factory) -> Path:
    """The e2e pages plus links to ../shared/data (never copied into the repo)."""
    d = tmp_path_factory.mktemp("app")
    for f in PAGES.iterdir():
        shutil.copy(f, d / f.name)
    (d / "data").mkdir()
    return d


# Every dynamic message any e2e host sends to a page (websocket frames): test_privacy.py scans them
# all for device identity and exact timings (after_all: after every other test of the session).
FRAMES: list = []


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "after_all: run after every other test of the session (it checks what they left behind)"
    )


@pytest.hookimpl(trylast=True)  # after any other reordering
def pytest_collection_modifyitems(config, items):
    """Tests marked after_all run last, whatever their file is called and whatever else was chosen;
    each of them also makes its own traffic, so it holds when it runs alone."""
    items.sort(key=lambda item: item.get_closest_marker("after_all") is not None)  # stable


def wait_until(cond, timeout_s: float = 10.0) -> bool:
    """Whether ``cond()`` holds within ``timeout_s``: for what the host does just after the page
    has its reply (a read's in-flight bytes are given back once its last fragment's send returns)."""
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.02)
    return cond()


def start_host(**kw) -> RunningHost:
    kw.setdefault("frame_tap", FRAMES.append)
    return embed.start_host(**kw)


@pytest.fixture(scope="session")
def trace_path(tmp_path_factory) -> Path:
    """The JSONL policy trace the session host records of the whole e2e suite."""
    return tmp_path_factory.mktemp("trace") / "e2e-trace.jsonl"


@pytest.fixture(scope="session")
def host(app_dir, trace_path):
    writer = TraceWriter(trace_path)
    h = start_host(app_dir=app_dir, observer=SessionTracer(writer))
    yield h
    h.stop()


# the browser and pages are the ones the project's pytest plugin gives its users
# (webnn_bridge.bridge.testing.pytest_plugin): the suite tests what users get
@pytest.fixture(scope="session")
def browser(webnn_browser):
    return webnn_browser


@pytest.fixture
def page(webnn_page):
    return webnn_page


def free_port() -> int:
    """A loopback port free now (for a server a test starts in another process)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class StaticServer:
    """A plain file server on another loopback port: a page from a different origin (https with
    ``ssl_context``)."""

    def __init__(self, directory: Path, ssl_context: ssl.SSLContext | None = None):
        handler = functools.partial(_QuietHandler, directory=str(directory))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        if ssl_context is not None:
            self.httpd.socket = ssl_context.wrap_socket(self.httpd.socket, server_side=True)
        self.scheme = "https" if ssl_context is not None else "http"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    @property
    def origin(self) -> str:
        return f"{self.scheme}://127.0.0.1:{self.httpd.server_address[1]}"

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def handle(self):
        try:
            super().handle()
        except (ssl.SSLError, ConnectionError):  # a browser that gave up on a connection
            pass
