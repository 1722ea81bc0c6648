"""The page API every browser gives the tests (src/webnn_bridge/bridge/testing/browsers.py for Firefox and WebKit,
Playwright for Chromium): the same assertions in each, so the adapters answer as Playwright does."""

from __future__ import annotations

import http.server
import math
import shutil
import ssl
import subprocess
import threading

import pytest


def test_evaluate_values_arguments_and_errors(page, host):
    page.goto(f"{host.url}/basic.html")
    assert page.evaluate("1 + 2") == 3
    assert page.evaluate("async (x) => x * 2", 21) == 42
    assert page.evaluate("([a, b]) => a + b", [1, 2]) == 3
    assert page.evaluate("(o) => o", {"k": [1, "two", None, True]}) == {"k": [1, "two", None, True]}
    nan, neg_zero, inf, undef = page.evaluate("() => [NaN, -0, -Infinity, undefined]")
    assert math.isnan(nan) and math.copysign(1, neg_zero) < 0 and inf == -math.inf and undef is None
    assert page.evaluate("Promise.resolve({a: 1})") == {"a": 1}
    assert page.evaluate("typeof navigator.ml.createContext") == "function"
    with pytest.raises(Exception, match="bad thing"):
        page.evaluate("() => { throw new TypeError('bad thing'); }")
    with pytest.raises(Exception, match="rejected"):
        page.evaluate("async () => { throw new Error('rejected'); }")
    assert page.url == f"{host.url}/basic.html"


def test_console_messages_and_page_errors_reach_the_test(page, host):
    page.goto(f"{host.url}/basic.html")
    page.evaluate("console.warn('careful', 3); console.error('broken'); console.log('plain')")
    page.evaluate("setTimeout(() => { throw new RangeError('uncaught'); }, 0)")
    page.wait_for_timeout(300)
    assert {"warning: careful 3", "error: broken", "log: plain"} <= set(page.console_messages), page.console_messages
    assert any(m.startswith("pageerror:") and "uncaught" in m for m in page.console_messages), page.console_messages


def test_wait_for_function_and_inner_text(page, host):
    page.goto(f"{host.url}/basic.html")
    page.evaluate("setTimeout(() => { document.body.insertAdjacentHTML('beforeend', '<p id=late>here</p>'); }, 200)")
    page.wait_for_function("!!document.getElementById('late')", timeout=10_000)
    assert page.inner_text("#late") == "here"
    with pytest.raises(Exception, match="[Tt]imeout"):
        page.wait_for_function("false", timeout=300)


@pytest.fixture
def https_origin(tmp_path):
    """A static https server with a self-signed certificate no browser trusts."""
    if not shutil.which("openssl"):
        pytest.skip("needs the openssl command to make a self-signed certificate")
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "index.html").write_text("<!doctype html><title>tls</title><p id=t>over tls</p>")

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *a, **kw):
            super().__init__(*a, directory=str(tmp_path / "site"), **kw)

        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(cert, key)
    httpd.socket = tls.wrap_socket(httpd.socket, server_side=True)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"https://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_ignore_https_errors_is_per_context(browser, https_origin):
    trusting = browser.new_context(ignore_https_errors=True)
    strict = browser.new_context()
    try:
        page = trusting.new_page()
        page.goto(f"{https_origin}/index.html")
        assert page.evaluate("document.getElementById('t').textContent") == "over tls"
        other = strict.new_page()
        try:
            other.goto(f"{https_origin}/index.html")
            loaded = other.evaluate("!!document.getElementById('t')")
        except Exception:  # Chromium and Firefox fail the navigation
            loaded = False
        assert not loaded  # an untrusted certificate is refused unless the context says otherwise
    finally:
        trusting.close()
        strict.close()


def test_a_page_in_the_background_keeps_its_timers(browser, host):
    """Tests drive several pages at once (e.g. e2e/test_balancer.py): a page that is not the selected
    tab runs its timers as the selected one does (Firefox would otherwise hold them to 1 s)."""
    first = browser.new_page()
    second = browser.new_page()  # opened last: the first is now in the background
    try:
        first.goto(f"{host.url}/basic.html")
        second.goto(f"{host.url}/basic.html")
        ms = first.evaluate("""async () => {
          const t0 = performance.now();
          for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 10));
          return performance.now() - t0;
        }""")
        assert ms < 900, ms  # 10 timers of 10 ms; a background minimum of 1 s would take 10 s
    finally:
        first.close()
        second.close()
