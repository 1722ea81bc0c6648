"""Issue 38 (A): /metrics is decided on the real client. Behind a trusted proxy that is the client
the proxy forwards for (X-Forwarded-For's right-most address that is not a trusted proxy, or RFC
7239 Forwarded's), not the proxy; a request that came through the proxy without naming its client
is refused; a trusted peer's own request (no proxy header at all) is decided on that peer."""

from __future__ import annotations

import http.client
import ipaddress
from types import SimpleNamespace
from urllib.parse import urlsplit

import pytest
from websockets.datastructures import Headers
from websockets.http11 import Request

from webnn_bridge.bridge.embed import start_host
from webnn_bridge.bridge.server import client_address, ip_of, networks

TRUSTED = networks(["127.0.0.1", "10.0.0.0/8"])


def _client(peer: str, headers: list[tuple[str, str]] = ()) -> str | None:
    h = Headers()
    for k, v in headers:
        h[k] = v  # Headers keeps repeated names (a second X-Forwarded-For line)
    addr = client_address(SimpleNamespace(remote_address=(peer, 4711)), Request("/metrics", h), TRUSTED)
    return None if addr is None else str(addr)


def test_addresses_as_proxies_write_them():
    assert str(ip_of("203.0.113.9")) == "203.0.113.9"
    assert str(ip_of(" 203.0.113.9:4711 ")) == "203.0.113.9"
    assert str(ip_of('"[2001:db8:cafe::17]:4711"')) == "2001:db8:cafe::17"
    assert str(ip_of("2001:db8::1")) == "2001:db8::1"
    assert str(ip_of("::ffff:192.0.2.1")) == "192.0.2.1"
    for not_an_address in ("unknown", "_hidden", "", "lb.example", "[nonsense]"):
        assert ip_of(not_an_address) is None, not_an_address


def test_the_client_behind_a_trusted_proxy():
    # not a trusted proxy: its forwarded headers are not believed
    assert _client("198.51.100.1", [("X-Forwarded-For", "127.0.0.1")]) == "198.51.100.1"
    # the proxy's client, not the proxy
    assert _client("127.0.0.1", [("X-Forwarded-For", "203.0.113.9")]) == "203.0.113.9"
    # what a client claims is left of what the proxy appends: the right-most untrusted address wins
    assert _client("127.0.0.1", [("X-Forwarded-For", "127.0.0.1, 203.0.113.9")]) == "203.0.113.9"
    assert _client("127.0.0.1", [("X-Forwarded-For", "127.0.0.1"), ("X-Forwarded-For", "203.0.113.9")]) == "203.0.113.9"
    # a chain of trusted proxies is walked through
    assert _client("127.0.0.1", [("X-Forwarded-For", "203.0.113.9, 10.1.2.3")]) == "203.0.113.9"
    # every hop trusted: the left-most (a machine of the trusted network itself)
    assert _client("127.0.0.1", [("X-Forwarded-For", "10.9.9.9, 10.1.2.3")]) == "10.9.9.9"
    # RFC 7239
    assert _client("127.0.0.1", [("Forwarded", 'for="[2001:db8::7]:4711";proto=https, for=10.1.2.3')]) == "2001:db8::7"
    assert _client("127.0.0.1", [("Forwarded", "for=203.0.113.9;host=webnn.example.com")]) == "203.0.113.9"
    # both headers: they must name the same client (a client can add the one its proxy does not manage)
    assert _client("127.0.0.1", [("X-Forwarded-For", "203.0.113.9"), ("Forwarded", "for=203.0.113.9")]) == "203.0.113.9"
    assert _client("127.0.0.1", [("X-Forwarded-For", "203.0.113.9"), ("Forwarded", "for=127.0.0.1")]) is None


def test_an_unnamed_client_behind_a_trusted_proxy_is_unknown():
    # through the proxy (its headers say so) but whom for is not said, or not an address
    assert _client("127.0.0.1", [("X-Forwarded-Host", "webnn.example.com")]) is None
    assert _client("127.0.0.1", [("Via", "1.1 lb")]) is None
    assert _client("127.0.0.1", [("X-Forwarded-For", "unknown")]) is None
    assert _client("127.0.0.1", [("X-Forwarded-For", "")]) is None
    assert _client("127.0.0.1", [("Forwarded", "for=_hidden")]) is None
    assert _client("127.0.0.1", [("Forwarded", "proto=https")]) is None
    # an unknown hop hides whoever is behind it, even a trusted-looking address further left
    assert _client("127.0.0.1", [("X-Forwarded-For", "127.0.0.1, unknown")]) is None
    # no proxy header at all: the trusted machine's own request (a scrape from the balancer's machine)
    assert _client("127.0.0.1") == "127.0.0.1"
    assert ipaddress.ip_address(_client("::ffff:127.0.0.1")) == ipaddress.ip_address("127.0.0.1")


def _get(url: str, headers: list[tuple[str, str]] = ()) -> tuple[int, str]:
    """A GET with these header lines (repeats kept, as a proxy that appends its own sends them)."""
    u = urlsplit(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=10)
    try:
        conn.putrequest("GET", u.path or "/", skip_accept_encoding=True)
        for k, v in headers:
            conn.putheader(k, v)
        conn.endheaders()
        r = conn.getresponse()
        return r.status, r.read().decode()
    finally:
        conn.close()


@pytest.fixture(scope="module")
def behind_proxy():
    """`serve --trusted-proxy 127.0.0.1 --allow-host webnn.example.com --metrics-allow 127.0.0.0/8
    --metrics-allow 198.51.100.0/24`: the test is both the proxy and, by its headers, its clients."""
    h = start_host(trusted_proxies=["127.0.0.1"], allow_hosts=["webnn.example.com"],
                   metrics_allow=["127.0.0.0/8", "198.51.100.0/24"])
    yield h.url + "/metrics"
    h.stop()


PUBLIC = [("X-Forwarded-For", "203.0.113.9"), ("X-Forwarded-Host", "webnn.example.com")]


def test_the_issue_repro_is_refused(behind_proxy):
    """curl -H 'X-Forwarded-For: 203.0.113.9' -H 'X-Forwarded-Host: webnn.example.com' .../metrics"""
    status, body = _get(behind_proxy, PUBLIC)
    assert status == 403 and "--metrics-allow" in body
    # claiming an allowed address in front of the one the proxy appends does not help
    assert _get(behind_proxy, [("X-Forwarded-For", "127.0.0.1"), *PUBLIC])[0] == 403
    assert _get(behind_proxy, [("X-Forwarded-For", "198.51.100.7, 203.0.113.9"), PUBLIC[1]])[0] == 403
    # nor does a Forwarded header the proxy did not write
    assert _get(behind_proxy, [("Forwarded", "for=127.0.0.1"), *PUBLIC])[0] == 403


def test_a_proxy_that_does_not_name_its_client_gets_no_metrics(behind_proxy):
    status, body = _get(behind_proxy, [PUBLIC[1]])
    assert status == 403 and "X-Forwarded-For" in body


def test_an_allowed_client_through_the_proxy_gets_metrics(behind_proxy):
    for fwd in (("X-Forwarded-For", "198.51.100.7"), ("Forwarded", 'for="198.51.100.7:5555";proto=http')):
        status, body = _get(behind_proxy, [fwd, PUBLIC[1]])
        assert status == 200 and "# TYPE webnn_bridge_sessions gauge" in body, (fwd, status, body)
    # the proxy's machine scraping the host directly (no proxy header): its own address decides
    assert _get(behind_proxy)[0] == 200
    # health stays open to everyone the host answers
    assert _get(behind_proxy.replace("/metrics", "/healthz"), PUBLIC)[0] == 200


def test_forwarded_headers_of_an_untrusted_peer_are_ignored():
    h = start_host(metrics_allow=["198.51.100.0/24"])  # no trusted proxy: the peer (loopback) decides
    try:
        assert _get(h.url + "/metrics", [("X-Forwarded-For", "198.51.100.7")])[0] == 403
    finally:
        h.stop()
