"""(d) Pages from origins that are not allowed cannot open a session; allowed ones can."""

from __future__ import annotations

import pytest
import websockets
from websockets.sync.client import connect

from .conftest import StaticServer, start_host

FOREIGN_PAGE = """<!doctype html><html><head><script src="{host}/webnn-shim.js"></script></head><body><script>
window.tryContext = async function () {{
  try {{
    const ctx = await navigator.ml.createContext();
    const b = new MLGraphBuilder(ctx);
    const x = b.input('x', {{dataType: 'float32', shape: [2]}});
    const g = await b.build({{y: b.relu(x)}});
    const tx = await ctx.createTensor({{dataType: 'float32', shape: [2], writable: true}});
    const ty = await ctx.createTensor({{dataType: 'float32', shape: [2], readable: true}});
    ctx.writeTensor(tx, new Float32Array([-1, 2]));
    ctx.dispatch(g, {{x: tx}}, {{y: ty}});
    return {{ok: Array.from(new Float32Array(await ctx.readTensor(ty)))}};
  }} catch (e) {{ return {{error: e.name, message: e.message}}; }}
}};
window.tryValidate = async function () {{
  const r = await fetch('{host}/webnn/validate?q=%7B%7D').catch((e) => null);
  return r ? r.status : 'blocked';
}};
</script></body></html>"""


@pytest.fixture
def foreign(tmp_path):
    servers = []

    def make(host_url: str) -> StaticServer:
        (tmp_path / "foreign.html").write_text(FOREIGN_PAGE.format(host=host_url))
        s = StaticServer(tmp_path)
        servers.append(s)
        return s

    yield make
    for s in servers:
        s.stop()


def test_disallowed_origin_cannot_open_a_session(host, page, foreign):
    site = foreign(host.url)
    page.goto(f"{site.origin}/foreign.html")
    r = page.evaluate("window.tryContext()")
    assert r.get("error") == "NotSupportedError", r
    # the page is told that its origin was refused, and how to allow it
    assert "refused this page's origin" in r["message"] and f"--allow-origin {site.origin}" in r["message"], r
    assert not host.host.sessions
    # there is no validation endpoint any more (the op rules run in the page): nothing to reach
    assert page.evaluate("window.tryValidate()") in (404, "blocked")


def test_allowed_origin_runs_a_graph(page, tmp_path):
    site = StaticServer(tmp_path)  # another origin; the host is told to allow it
    h = start_host(allow_origins=[site.origin])
    try:
        (tmp_path / "foreign.html").write_text(FOREIGN_PAGE.format(host=h.url))
        page.goto(f"{site.origin}/foreign.html")
        assert page.evaluate("window.tryContext()") == {"ok": [0.0, 2.0]}
    finally:
        h.stop()
        site.stop()


def test_unreachable_host_is_not_reported_as_a_refusal(page, foreign):
    h = start_host()
    site = foreign(h.url)
    page.goto(f"{site.origin}/foreign.html")  # the shim loads, then the host goes away
    h.stop()
    r = page.evaluate("window.tryContext()")
    assert r.get("error") == "NotSupportedError" and "Cannot reach the webnn-bridge host" in r["message"], r


def _ws_status(url: str, origin: str | None) -> int | str:
    try:
        kw = {"origin": origin} if origin else {}
        with connect(url, **kw) as ws:
            ws.send('{"t":"hello","id":1}')
            ws.recv(timeout=10)
            return "open"
    except websockets.InvalidStatus as e:
        return e.response.status_code


def test_websocket_origin_checks_without_a_browser(host):
    ws = host.url.replace("http", "ws") + "/webnn"
    assert _ws_status(ws, None) == 403  # loopback is not a permission
    assert _ws_status(ws, "http://evil.example") == 403
    assert _ws_status(ws, host.url) == "open"


def test_cross_origin_isolated_pages_can_load_the_shim(host):
    """COEP require-corp pages (SharedArrayBuffer) load the shim cross-origin: it carries CORP."""
    import urllib.request

    with urllib.request.urlopen(f"{host.url}/webnn-shim.js") as r:
        assert r.headers["Cross-Origin-Resource-Policy"] == "cross-origin"
        assert r.headers["Access-Control-Allow-Origin"] == "*"
