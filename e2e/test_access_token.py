"""Issue 24: a host with an access token (serve --token-file): a page gives the token in the
shim's URL or through WebNNBridge.token; without it, or with a wrong one, it is told why."""

from __future__ import annotations

from .conftest import StaticServer, start_host
from .test_origins import FOREIGN_PAGE

TOKEN = "e2e-access-token-0123456789abcdef"
CASES = {"none": "", "wrong": "?token=wrong-token-0123456789", "url": f"?token={TOKEN}", "set": ""}


def test_a_page_needs_the_hosts_token(page, tmp_path):
    sites = {}
    for name in CASES:
        (tmp_path / name).mkdir()
        sites[name] = StaticServer(tmp_path / name)
    h = start_host(token=TOKEN, allow_origins=[s.origin for s in sites.values()])
    try:
        for name, query in CASES.items():
            (tmp_path / name / "foreign.html").write_text(
                FOREIGN_PAGE.format(host=h.url).replace("/webnn-shim.js", "/webnn-shim.js" + query))
        for name, expect in (("none", "none given"), ("wrong", "a wrong token")):
            page.goto(f"{sites[name].origin}/foreign.html")
            r = page.evaluate("window.tryContext()")
            assert r.get("error") == "NotSupportedError", r
            assert "requires an access token" in r["message"] and expect in r["message"], r
            assert TOKEN not in r["message"]
        assert not h.host.sessions
        # the token in the script's URL
        page.goto(f"{sites['url'].origin}/foreign.html")
        assert page.evaluate("window.tryContext()") == {"ok": [0.0, 2.0]}
        assert page.evaluate("WebNNBridge.token") is True  # set, never readable
        # set by the page before its first createContext()
        page.goto(f"{sites['set'].origin}/foreign.html")
        assert page.evaluate("WebNNBridge.token") is False
        page.evaluate(f"WebNNBridge.token = {TOKEN!r}")
        assert page.evaluate("window.tryContext()") == {"ok": [0.0, 2.0]}
    finally:
        h.stop()
        for s in sites.values():
            s.stop()
