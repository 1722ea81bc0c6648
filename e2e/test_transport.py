"""The link's transport (README "Transport"): under a driver, the page's shared worker owns the
websocket, so the driver's DevTools session is not sent every tensor's bytes; the host's checks
and budgets are the same; pages where a shared worker cannot start use a plain websocket."""

from __future__ import annotations

import base64

import numpy as np
import pytest

from .conftest import StaticServer, start_host, wait_until

N = 20_000  # float32 elements: 80 KB tensors, sent as raw frames both ways (protocol.RAW_MIN_BYTES)

RUN_JS = """async ([n, seed]) => {
  const t0 = performance.now();
  const ctx = await navigator.ml.createContext();
  const opened = performance.now() - t0;
  const b = new MLGraphBuilder(ctx);
  const x = b.input('x', {dataType: 'float32', shape: [n]});
  const c = new Float32Array(n).map((_, i) => Math.sin(i * seed));
  const y = b.mul(b.relu(b.add(x, b.constant({dataType: 'float32', shape: [n]}, c))), x);
  const g = await b.build({y});
  const tx = await ctx.createTensor({dataType: 'float32', shape: [n], writable: true});
  const ty = await ctx.createTensor({dataType: 'float32', shape: [n], readable: true});
  const xs = new Float32Array(n).map((_, i) => Math.cos(i * 0.37) * 3);
  ctx.writeTensor(tx, xs);
  ctx.dispatch(g, {x: tx}, {y: ty});
  const out = new Uint8Array(await ctx.readTensor(ty));
  let text = '';
  for (let i = 0; i < out.length; i += 8192) text += String.fromCharCode.apply(null, out.subarray(i, i + 8192));
  return {bytes: btoa(text), opened};
}"""


def expected(n: int, seed: float) -> np.ndarray:
    i = np.arange(n, dtype=np.float64)
    c = np.sin(i * seed).astype(np.float32)
    x = (np.cos(i * 0.37) * 3).astype(np.float32)
    return np.maximum(x + c, np.float32(0)) * x


def run(page, seed: float = 0.01, opened: list | None = None) -> np.ndarray:
    r = page.evaluate(RUN_JS, [N, seed])
    if opened is not None:
        opened.append(r["opened"])
    return np.frombuffer(base64.b64decode(r["bytes"]), dtype=np.float32)


def before_link(page, js: str) -> None:
    """Runs ``js`` in the page before its first createContext(), which opens the link and picks
    its transport then (page.evaluate: every engine adapter of the fixtures has it)."""
    page.evaluate(f"() => {{ {js} }}")


def sockets_seen(page) -> list[str]:
    """The websockets Playwright reports for a page (what its DevTools session sees)."""
    seen: list[str] = []
    page.on("websocket", lambda ws: seen.append(ws.url))
    return seen


@pytest.fixture
def bare_host(tmp_path_factory):
    """A host whose app is one blank page (the shim injected; nothing opens the link on load)."""
    app = tmp_path_factory.mktemp("blank")
    (app / "blank.html").write_text("<!doctype html><html><head></head><body>blank</body></html>")
    h = start_host(app_dir=app)
    yield h
    h.stop()


@pytest.mark.webnn_engines("chromium")  # the default under a driver in Chromium only (README "Transport")
def test_under_playwright_the_shared_worker_carries_the_link(bare_host, page):
    seen = sockets_seen(page)
    page.goto(bare_host.url + "/blank.html")
    assert page.evaluate("navigator.webdriver") is True  # a driver is attached: the shim's default changes
    out = run(page)
    np.testing.assert_array_equal(out, expected(N, 0.01))
    (session,) = bare_host.host.sessions.values()
    assert session.via == "shared-worker"
    assert not [u for u in seen if u.endswith("/webnn")], seen  # the driver saw no frame of it


def test_both_transports_give_identical_bytes(bare_host, browser, webnn_engine):
    results = {}
    for transport in ("websocket", "shared-worker"):
        ctx = browser.new_context()
        try:
            page = ctx.new_page()
            seen = sockets_seen(page)
            page.goto(bare_host.url + "/blank.html")
            before_link(page, f"globalThis.WEBNN_BRIDGE_TRANSPORT = '{transport}';")
            results[transport] = run(page, 0.02)
            assert [s.via for s in bare_host.host.sessions.values()] == [transport]
            if webnn_engine == "chromium":  # Playwright reports a page's websockets (the other adapters do not)
                assert bool([u for u in seen if u.endswith("/webnn")]) == (transport == "websocket"), seen
        finally:
            ctx.close()
        assert wait_until(lambda: not bare_host.host.sessions)
    assert results["websocket"].tobytes() == results["shared-worker"].tobytes()
    np.testing.assert_array_equal(results["websocket"], expected(N, 0.02))


@pytest.mark.parametrize("how", ["no SharedWorker", "CSP forbids workers"])
def test_falls_back_to_a_websocket(how, bare_host, page, tmp_path):
    if how == "no SharedWorker":
        page.goto(bare_host.url + "/blank.html")
        before_link(page, "delete globalThis.SharedWorker;")
    else:  # the worker cannot start: the shim does not wait for it, it opens a plain websocket
        h = start_host(app_dir=tmp_path)
        (tmp_path / "csp.html").write_text(
            "<!doctype html><html><head><meta http-equiv=\"Content-Security-Policy\" content=\"worker-src 'none'\">"
            "</head><body>csp</body></html>")
        page.goto(h.url + "/csp.html")
    try:
        opened: list[float] = []
        np.testing.assert_array_equal(run(page, opened=opened), expected(N, 0.01))
        assert opened[0] < 5000  # the link opened at once, not after RELAY_START_MS's wait for the worker
        host = bare_host if how == "no SharedWorker" else h
        assert [s.via for s in host.host.sessions.values()] == ["websocket"]
    finally:
        if how != "no SharedWorker":
            h.stop()


RELAYED_PAGE = """<!doctype html><html><head><script src="{host}/webnn-shim.js"></script></head><body><script>
window.tryContext = async function () {{
  try {{ await navigator.ml.createContext(); return 'ok'; }}
  catch (e) {{ return e.name + ': ' + e.message; }}
}};
</script></body></html>"""


def test_the_worker_socket_meets_the_origin_allowlist(page, tmp_path):
    """The relay's websocket carries the page's own Origin: allowed where the page is, refused (with
    the page told why) where it is not."""
    site = StaticServer(tmp_path)
    allowed, refused = start_host(allow_origins=[site.origin]), start_host()
    try:
        for h, name in ((allowed, "allowed.html"), (refused, "refused.html")):
            (tmp_path / name).write_text(RELAYED_PAGE.format(host=h.url))
        page.goto(f"{site.origin}/refused.html")
        before_link(page, "globalThis.WEBNN_BRIDGE_TRANSPORT = 'shared-worker';")
        r = page.evaluate("window.tryContext()")
        assert r.startswith("NotSupportedError") and "refused this page's origin" in r, r
        assert not refused.host.sessions
        page.goto(f"{site.origin}/allowed.html")
        before_link(page, "globalThis.WEBNN_BRIDGE_TRANSPORT = 'shared-worker';")
        assert page.evaluate("window.tryContext()") == "ok"
        (session,) = allowed.host.sessions.values()
        assert (session.via, session.origin) == ("shared-worker", site.origin)
    finally:
        allowed.stop()
        refused.stop()
        site.stop()


HOLD_JS = """async (n) => {
  const ctx = await navigator.ml.createContext();
  window.held = [];
  for (let i = 0; i < 4; i++) {
    const t = await ctx.createTensor({dataType: 'float32', shape: [n], writable: true, readable: true});
    ctx.writeTensor(t, new Float32Array(n).fill(i));
    window.held.push(t);
  }
  return new Float32Array(await ctx.readTensor(window.held[3]))[n - 1];
}"""


@pytest.mark.webnn_engines("chromium", "firefox")  # WebKitGTK keeps a closed page's shared worker a while
def test_each_page_has_its_own_worker_and_a_page_that_leaves_frees_its_bytes(bare_host, browser):
    ctx = browser.new_context()
    try:
        before = bare_host.host.ml.budget.used
        pages = [ctx.new_page(), ctx.new_page()]  # same origin, same context: still one worker each
        for p in pages:
            p.goto(bare_host.url + "/blank.html")
            before_link(p, "globalThis.WEBNN_BRIDGE_TRANSPORT = 'shared-worker';")
            assert p.evaluate(HOLD_JS, N) == 3.0
        sessions = list(bare_host.host.sessions.values())
        assert len(sessions) == 2 and {s.via for s in sessions} == {"shared-worker"}
        assert all(s.budget.used >= 4 * 4 * N for s in sessions)
        assert bare_host.host.ml.budget.used >= before + 2 * 4 * 4 * N
        pages[0].close()  # its worker ends with it, closing the socket
        assert wait_until(lambda: len(bare_host.host.sessions) == 1)
        assert bare_host.host.sessions[sessions[1].token] is sessions[1]
        pages[1].goto("about:blank")  # navigating away ends the worker too
        assert wait_until(lambda: not bare_host.host.sessions)
        assert wait_until(lambda: bare_host.host.ml.budget.used == before)
    finally:
        ctx.close()


@pytest.mark.webnn_engines("chromium")  # the default under a driver in Chromium only
@pytest.mark.parametrize("webdriver, asked, via", [
    (False, None, "websocket"),  # no driver: the page's own websocket
    (False, "shared-worker", "shared-worker"),  # the page's choice wins
    (True, "websocket", "websocket"),
    (True, "bogus", "shared-worker"),  # an unknown choice is the default
])
def test_the_page_or_its_driver_chooses_the_transport(webdriver, asked, via, bare_host, page):
    page.goto(bare_host.url + "/blank.html")
    # navigator.webdriver as a page with no driver attached reports it
    before_link(page, f"Object.defineProperty(Navigator.prototype, 'webdriver', {{get: () => {str(webdriver).lower()}}});")
    if asked is not None:
        before_link(page, f"globalThis.WEBNN_BRIDGE_TRANSPORT = '{asked}';")
    np.testing.assert_array_equal(run(page), expected(N, 0.01))
    assert [s.via for s in bare_host.host.sessions.values()] == [via]
