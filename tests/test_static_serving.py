"""The host's HTTP side without a browser: static files (redirect, HEAD, ETag/304, Range/206/416),
the landing page, the origin probe, and shim injection that keeps the doctype first."""

from __future__ import annotations

import http.client
import json

import pytest

from webnn_bridge.bridge.embed import start_host
from webnn_bridge.bridge.shim import inject
from webnn_bridge.bridge.static import byte_range

BLOB = bytes(range(256)) * 10


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    d = tmp_path_factory.mktemp("app")
    (d / "lenet").mkdir()
    (d / "lenet" / "index.html").write_text("<!doctype html><title>x</title><p>hi")
    (d / "blob.bin").write_bytes(BLOB)
    (d / "empty").mkdir()
    h = start_host(app_dir=d)
    yield h
    h.stop()


@pytest.fixture(scope="module")
def bare():
    h = start_host()
    yield h
    h.stop()


def get(h, path, headers=None, method="GET"):
    c = http.client.HTTPConnection("127.0.0.1", h.host.port, timeout=30)
    try:
        c.request(method, path, headers=headers or {})
        r = c.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        c.close()


def test_directory_without_slash_redirects(host):
    status, headers, _ = get(host, "/lenet?x=1")
    assert status == 301 and headers["location"] == "/lenet/?x=1"
    status, headers, body = get(host, "/lenet/")
    assert status == 200 and body.startswith(b'<!doctype html><script src="/webnn-shim.js"></script><title>')


def test_etag_revalidation_and_head(host):
    status, headers, body = get(host, "/blob.bin")
    assert status == 200 and body == BLOB and headers["accept-ranges"] == "bytes"
    etag = headers["etag"]
    status, h304, body = get(host, "/blob.bin", {"If-None-Match": f'"other", {etag}'})
    assert status == 304 and body == b"" and h304["etag"] == etag
    assert get(host, "/blob.bin", {"If-None-Match": '"other"'})[0] == 200
    status, hh, body = get(host, "/blob.bin", method="HEAD")
    assert status == 200 and body == b"" and hh["content-length"] == str(len(BLOB))
    status, hh, body = get(host, "/webnn-shim.js", method="HEAD")
    assert status == 200 and body == b"" and int(hh["content-length"]) > 1000


def test_the_shim_is_revalidated_not_refetched(host):
    """A reload revalidates the shim (304, no body): the browser keeps its copy and its compiled
    code; the ETag names the bytes served for this Host (the script embeds the host's origin)."""
    status, headers, body = get(host, "/webnn-shim.js")
    assert status == 200 and headers["cache-control"] == "no-cache" and body.count(b"HOST_ORIGIN") >= 1
    etag = headers["etag"]
    status, h304, again = get(host, "/webnn-shim.js", {"If-None-Match": etag})
    assert status == 304 and again == b"" and h304["etag"] == etag and "content-length" not in h304
    assert h304["access-control-allow-origin"] == "*" and h304["cache-control"] == "no-cache"
    status, other, body2 = get(host, "/webnn-shim.js", {"Host": f"localhost:{host.host.port}", "If-None-Match": etag})
    assert status == 200 and other["etag"] != etag and body2 != body
    assert b"http://localhost:" in body2


def test_ranges(host):
    status, headers, body = get(host, "/blob.bin", {"Range": "bytes=10-19"})
    assert status == 206 and body == BLOB[10:20] and headers["content-range"] == f"bytes 10-19/{len(BLOB)}"
    status, _, body = get(host, "/blob.bin", {"Range": "bytes=-5"})
    assert status == 206 and body == BLOB[-5:]
    status, _, body = get(host, "/blob.bin", {"Range": "bytes=2550-"})
    assert status == 206 and body == BLOB[2550:]
    status, headers, _ = get(host, "/blob.bin", {"Range": "bytes=9999-"})
    assert status == 416 and headers["content-range"] == f"bytes */{len(BLOB)}"
    # a stale If-Range gets the whole file
    status, _, body = get(host, "/blob.bin", {"Range": "bytes=0-0", "If-Range": '"stale"'})
    assert status == 200 and body == BLOB


def test_byte_range_parsing():
    assert byte_range("bytes=0-0", 10) == (0, 1)
    assert byte_range("bytes=5-100", 10) == (5, 10)
    assert byte_range("bytes=-3", 10) == (7, 10)
    assert byte_range("bytes=0-1,4-5", 10) is None  # multiple ranges: served whole
    assert byte_range("items=0-1", 10) is None
    assert byte_range("bytes=10-", 10) == "unsatisfiable"
    assert byte_range("bytes=-0", 10) == "unsatisfiable"


def test_paths_outside_the_app_are_not_served(host):
    for path in ("/../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/lenet/../../x", "/nope.html", "/empty/"):
        assert get(host, path)[0] == 404, path


def test_landing_page_without_an_index(host, bare):
    for h in (host, bare):
        status, headers, body = get(h, "/")
        assert status == 200 and headers["content-type"].startswith("text/html")
        page = body.decode()
        assert f'&lt;script src=&quot;{h.url}/webnn-shim.js&quot;&gt;' in page
        assert all(o in page for o in h.host.allowed_origins)
        assert 'id="selftest"' in page and "--allow-origin" in page and "open sessions: 0" in page
        assert ("--app DIR" in page) == (h is bare)
    assert get(bare, "/other")[0] == 404


def test_origin_probe_answers_only_allowed_or_not(host):
    status, headers, body = get(host, "/webnn/origin", {"Origin": "http://evil.example"})
    assert status == 200 and json.loads(body) == {"allowed": False}
    assert headers["access-control-allow-origin"] == "http://evil.example"
    status, _, body = get(host, "/webnn/origin", {"Origin": host.url})
    assert json.loads(body) == {"allowed": True}


@pytest.mark.parametrize(("html", "expected"), [
    ("<!doctype html><meta charset=utf-8><p>x", "<!doctype html>{tag}<meta charset=utf-8><p>x"),
    ("<!DOCTYPE html>\n<html lang=en><head><title>t</title>", "<!DOCTYPE html>\n<html lang=en><head>{tag}<title>t</title>"),
    ("<!-- c --><!doctype html><html><body>", "<!-- c --><!doctype html><html>{tag}<body>"),
    ("<!doctype html><header>h</header>", "<!doctype html>{tag}<header>h</header>"),
    ("fragment", "{tag}fragment"),
])
def test_inject_keeps_the_doctype_first(html, expected):
    assert inject(html, "/s.js") == expected.format(tag='<script src="/s.js"></script>')
