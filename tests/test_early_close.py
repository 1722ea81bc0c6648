"""Issue 38 (B): a connection that closes before its request (a load balancer's TCP check, a port
scan, a client that gives up) costs the log at most one concise line, never a traceback, and the
host goes on serving. Real sockets against a running host, plain and TLS."""

from __future__ import annotations

import logging
import socket
import ssl
import struct
import time
import urllib.request

import pytest

from webnn_bridge.bridge.embed import start_host


def _close_early(port: int, how: str) -> None:
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    try:
        if how == "reset":  # RST instead of FIN
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        elif how == "partial":  # half a request line
            s.sendall(b"GET /healthz HT")
        elif how == "headers":  # a request line, headers never finished
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    finally:
        s.close()


def _healthy(url: str, ca=None) -> bool:
    ctx = ssl.create_default_context(cafile=str(ca)) if ca else None
    with urllib.request.urlopen(url + "/healthz", timeout=10, context=ctx) as r:
        return r.status == 200


def _settle(running) -> None:
    """Until the host has handled every connection (no handler task left), then a little more for
    anything logged after that (asyncio's TLS layer)."""
    deadline = time.monotonic() + 10
    while getattr(running.server, "handler_tasks", None) and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.3)


@pytest.fixture(scope="module", params=["http", "https"])
def running(request, tmp_path_factory):
    tls = tmp_path_factory.mktemp("tls") if request.param == "https" else None
    h = start_host(tls_self_signed=tls)
    yield h
    h.stop()


@pytest.mark.parametrize("how", ["close", "reset", "partial", "headers"])
def test_a_connection_closed_before_its_request_logs_at_most_one_line(running, how, caplog):
    caplog.set_level(logging.INFO)  # every logger at INFO (websockets and asyncio too): more than serve -v shows
    port = int(running.url.rsplit(":", 1)[1])
    _settle(running)  # what earlier requests log as they end is not this connection's
    caplog.clear()
    _close_early(port, how)
    _settle(running)
    # what this host logged (its event loop's thread), not other tests' hosts still winding down
    records = [r for r in caplog.records if r.levelno >= logging.INFO and r.thread == running.thread.ident]
    text = "\n".join(caplog.handler.format(r) for r in records)
    assert "Traceback" not in text and not any(r.exc_info for r in records), text
    assert len(records) <= 1 and all("\n" not in r.getMessage() for r in records), text
    assert _healthy(running.url, running.tls_ca)  # and the host goes on serving
