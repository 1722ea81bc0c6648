"""https pages and the host over TLS (serve --tls-cert/--tls-key, here the development certificate
of --tls-self-signed): a page the host serves over https, and a page of another https origin the
host allows, run a graph through the shim over wss (a worker's shim too, and one behind a
TLS-terminating proxy); an https page whose shim points at an http host is told that this is mixed
content and how to serve TLS (WebKit blocks even a loopback host; Chromium and Firefox do not).

Browser contexts ignore certificate errors (the test's authority is trusted nowhere); every engine
adapter of the webnn_browser fixture supports ``new_context(ignore_https_errors=True)``. One test
trusts the authority in Chromium's NSS database instead, with the command ``serve`` prints."""

from __future__ import annotations

import asyncio
import itertools
import os
import shutil
import socket
import ssl
import subprocess
import sys
import threading
import urllib.request

import pytest

from webnn_bridge.bridge import tls

from .conftest import StaticServer, start_host
from .test_origins import FOREIGN_PAGE

PASSED = "passed: relu([-2, -1, 0, 3]) + 1 = [1, 1, 1, 4]"


def self_test_result(page) -> str:
    """The landing page's self-test line once it has run (only goto and evaluate: the calls every
    engine adapter of the webnn_browser fixture has)."""
    return page.evaluate("""async () => {
      const out = document.getElementById('selftest');
      for (let i = 0; i < 600 && !out.className; i++) await new Promise((r) => setTimeout(r, 100));
      return out.textContent;
    }""")


@pytest.fixture(scope="module")
def dev(tmp_path_factory):
    return tls.dev_certificate(tmp_path_factory.mktemp("tls"))


@pytest.fixture(scope="module")
def https_host(dev):
    h = start_host(tls_cert=dev.cert, tls_key=dev.key)
    yield h
    h.stop()


@pytest.fixture
def context(browser):
    ctx = browser.new_context(ignore_https_errors=True)
    yield ctx
    ctx.close()


@pytest.fixture
def https_site(tmp_path, dev):
    servers = []

    def make(page: str) -> StaticServer:
        (tmp_path / "foreign.html").write_text(page)
        s = StaticServer(tmp_path, tls.server_context(dev.cert, dev.key))
        servers.append(s)
        return s

    yield make
    for s in servers:
        s.stop()


def test_https_page_of_the_host_runs_the_self_test(context, https_host):
    h = https_host
    assert h.url.startswith("https://")
    page = context.new_page()
    page.goto(f"{h.url}/")
    assert self_test_result(page) == PASSED
    assert page.evaluate("location.protocol") == "https:"
    assert page.evaluate("window.__webnnBridge.host") == h.url


def test_dedicated_worker_of_an_https_page(context, https_host):
    """importScripts of the https shim in a worker (no currentScript there): wss too."""
    page = context.new_page()
    page.goto(f"{https_host.url}/")
    r = page.evaluate(
        """async (shim) => {
        const src = `importScripts(${JSON.stringify(shim)});
          onmessage = async () => {
            const ctx = await navigator.ml.createContext();
            const b = new MLGraphBuilder(ctx);
            const x = b.input('x', {dataType: 'float32', shape: [3]});
            const g = await b.build({y: b.sigmoid(x)});
            const ti = await ctx.createTensor({dataType: 'float32', shape: [3], writable: true});
            const to = await ctx.createTensor({dataType: 'float32', shape: [3], readable: true});
            ctx.writeTensor(ti, new Float32Array([0, 100, -100]));
            ctx.dispatch(g, {x: ti}, {y: to});
            postMessage([self.__webnnBridge.host, Array.from(new Float32Array(await ctx.readTensor(to)))]);
          };`;
        const w = new Worker(URL.createObjectURL(new Blob([src], {type: 'text/javascript'})));
        return await new Promise((res, rej) => {
          w.onmessage = (e) => res(e.data); w.onerror = (e) => rej(e.message); w.postMessage(0);
        });
    }""",
        f"{https_host.url}/webnn-shim.js",
    )
    assert r[0] == https_host.url and r[1] == pytest.approx([0.5, 1.0, 0.0], abs=1e-6)


def test_https_page_of_an_allowed_origin_runs_a_graph(context, dev, https_site, tmp_path):
    site = https_site("")  # the page is written once the host's URL is known
    # the certificate of serve --tls-self-signed DIR, made in DIR
    h = start_host(tls_self_signed=tmp_path / "tls", allow_origins=[site.origin])
    try:
        (tmp_path / "foreign.html").write_text(FOREIGN_PAGE.format(host=h.url))
        page = context.new_page()
        page.goto(f"{site.origin}/foreign.html")
        assert page.evaluate("window.tryContext()") == {"ok": [0.0, 2.0]}
        assert page.evaluate("window.__webnnBridge.host") == h.url
    finally:
        h.stop()


def test_https_page_of_a_refused_origin_is_told_so(context, https_host, https_site):
    h = https_host
    site = https_site(FOREIGN_PAGE.format(host=h.url))
    page = context.new_page()
    page.goto(f"{site.origin}/foreign.html")
    r = page.evaluate("window.tryContext()")
    # the origin probe answers over https too: a refusal, not "mixed content" nor "unreachable"
    assert r.get("error") == "NotSupportedError", r
    assert "refused this page's origin" in r["message"] and f"--allow-origin {site.origin}" in r["message"], r
    assert not [s for s in list(h.host.sessions.values()) if s.origin == site.origin]


class TlsProxy:
    """A TLS-terminating proxy on another loopback port in front of a plain http host (as nginx
    or Caddy would be): the host writes http into the shim, which the shim upgrades."""

    def __init__(self, dev: tls.DevCertificate):
        self.target_port: int | None = None  # set once the host behind it runs
        self.loop = asyncio.new_event_loop()

        async def pipe(reader, writer):
            try:
                while data := await reader.read(1 << 16):
                    writer.write(data)
                    await writer.drain()
            except (ConnectionError, ssl.SSLError):
                pass
            finally:
                writer.close()

        async def handle(reader, writer):
            try:
                up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
            except OSError:
                writer.close()
                return
            await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

        context = tls.server_context(dev.cert, dev.key)
        started = threading.Event()

        def run():
            asyncio.set_event_loop(self.loop)
            self.server = self.loop.run_until_complete(asyncio.start_server(handle, "127.0.0.1", 0, ssl=context))
            started.set()
            self.loop.run_forever()

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        assert started.wait(30)

    @property
    def origin(self) -> str:
        return f"https://127.0.0.1:{self.server.sockets[0].getsockname()[1]}"

    def stop(self):
        async def shutdown():
            self.server.close()
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(shutdown(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(30)


def test_shim_behind_a_tls_proxy_uses_wss(context, dev):
    """The shim came over https from the host:port it was written for: it uses https and wss."""
    proxy = TlsProxy(dev)
    h = start_host(allow_origins=[proxy.origin])  # plain http; the proxied pages' origin allowed
    proxy.target_port = h.host.port
    try:
        page = context.new_page()
        page.goto(f"{proxy.origin}/")  # the landing page, through the proxy
        assert self_test_result(page) == PASSED
        assert page.evaluate("window.__webnnBridge.host") == proxy.origin
    finally:
        proxy.stop()
        h.stop()


def non_loopback_address() -> str | None:
    """An IPv4 address of this machine other than loopback: browsers allow http://127.0.0.1 from
    https pages in Chromium and Firefox (loopback is potentially trustworthy), not to other hosts."""
    candidates = []
    try:
        candidates += [ai[4][0] for ai in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    except OSError:
        pass
    for probe in ("192.0.2.1", "10.255.255.255"):  # a UDP "connect" sends nothing; it picks a route
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                candidates.append(s.getsockname()[0])
        except OSError:
            pass
    for address in candidates:
        if not address.startswith("127.") and address != "0.0.0.0":
            try:
                with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
                    s.bind((address, 0))
                return address
            except OSError:
                continue
    return None


def test_https_page_with_an_http_host_is_told_mixed_content(context, https_site, tmp_path):
    address = non_loopback_address()
    if address is None:
        pytest.skip("needs a non-loopback address: browsers exempt loopback hosts from mixed-content blocking")
    site = https_site("")
    h = start_host(host=address, allow_origins=[site.origin])  # plain http, and the page's origin allowed
    try:
        # the page carries its own copy of the shim bound to the http host (an https page cannot
        # load a script over http either)
        with urllib.request.urlopen(f"{h.url}/webnn-shim.js", timeout=30) as r:
            (tmp_path / "webnn-shim.js").write_bytes(r.read())
        (tmp_path / "foreign.html").write_text(FOREIGN_PAGE.format(host="."))
        page = context.new_page()
        page.goto(f"{site.origin}/foreign.html")
        assert page.evaluate("window.__webnnBridge.host") == h.url
        r = page.evaluate("window.tryContext()")
        assert r.get("error") == "NotSupportedError", r
        assert "mixed content" in r["message"] and "serve --tls-cert FILE --tls-key FILE" in r["message"], r
        assert "--tls-self-signed" in r["message"] and "Is it running?" not in r["message"], r
        assert not h.host.sessions
    finally:
        h.stop()


SELF_TEST = """
import sys
from playwright.sync_api import Error, sync_playwright
from webnn_bridge.bridge.embed import CHROMIUM, CHROMIUM_ARGS
with sync_playwright() as p:
    browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    page = browser.new_page()
    try:
        page.goto(sys.argv[1] + "/")
        page.wait_for_function("document.getElementById('selftest').className !== ''", timeout=60_000)
        print(page.inner_text("#selftest"))
    except Error as e:
        print(str(e).splitlines()[0])
    browser.close()
"""


def test_chromium_trusts_the_dev_certificate_once_told_as_serve_prints(tmp_path):
    """No ignored errors: Chromium on Linux trusts the NSS database in $HOME/.pki/nssdb. Before
    its authority is added the certificate is refused; after the Chromium lines `serve
    --tls-self-signed` prints, run as printed on a $HOME that has no certificate database yet (they
    make it), the landing page's self-test passes on 127.0.0.1 and localhost."""
    if shutil.which("certutil") is None:
        pytest.skip("needs certutil (Debian's libnss3-tools; scripts/test.sh installs it as root)")
    home = tmp_path / "home"
    home.mkdir()
    h = start_host(tls_self_signed=tmp_path / "tls")
    dev = tls.dev_certificate(tmp_path / "tls")
    assert not dev.created  # the host's own

    def self_test(url: str) -> str:
        # its own process: this one's Playwright already drives the suite's browser
        r = subprocess.run([sys.executable, "-c", SELF_TEST, url], env={**os.environ, "HOME": str(home)},
                           capture_output=True, text=True, timeout=180)
        assert r.returncode == 0, r.stderr
        return r.stdout.strip()

    try:
        assert "ERR_CERT_AUTHORITY_INVALID" in self_test(h.url)
        lines = tls.trust_instructions(dev).splitlines()
        start = next(i for i, x in enumerate(lines) if x.strip().startswith("Chromium:"))
        steps = [lines[start].split("Chromium:", 1)[1].strip()]
        steps += [x.strip() for x in itertools.takewhile(lambda x: not x.strip().startswith("("), lines[start + 1:])]
        subprocess.run(["sh", "-e", "-c", "\n".join(steps)], env={**os.environ, "HOME": str(home)},
                       stdin=subprocess.DEVNULL, check=True, capture_output=True, timeout=60)
        assert self_test(h.url) == PASSED
        assert self_test(h.url.replace("127.0.0.1", "localhost")) == PASSED
    finally:
        h.stop()


def test_https_page_with_an_http_loopback_host(context, https_site, tmp_path):
    """Issue 21's case: Chromium and Firefox exempt http://127.0.0.1 from mixed-content blocking, so
    the page works; WebKit does not, and the page is told why (not "Is it running?")."""
    site = https_site("")
    h = start_host(allow_origins=[site.origin])  # plain http on 127.0.0.1
    try:
        with urllib.request.urlopen(f"{h.url}/webnn-shim.js", timeout=30) as r:
            (tmp_path / "webnn-shim.js").write_bytes(r.read())
        (tmp_path / "foreign.html").write_text(FOREIGN_PAGE.format(host="."))
        page = context.new_page()
        page.goto(f"{site.origin}/foreign.html")
        agent = page.evaluate("navigator.userAgent")
        r = page.evaluate("window.tryContext()")
        if "Chrome/" in agent or "Firefox/" in agent:
            assert r == {"ok": [0.0, 2.0]}, (agent, r)
        else:  # WebKit
            assert r.get("error") == "NotSupportedError", (agent, r)
            assert "mixed content" in r["message"] and "--tls-cert" in r["message"], (agent, r)
    finally:
        h.stop()
