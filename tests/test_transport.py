"""The page's transport as its hello names it (README "Transport"): recorded for the operator, never
trusted for anything else; a value that is not one of the known transports is not kept."""

from __future__ import annotations

import json

import pytest

from webnn_bridge.bridge import protocol
from webnn_bridge.bridge.api import ML
from webnn_bridge.bridge.session import TRANSPORTS, Session


def hello(session: Session, **extra) -> dict:
    (reply,) = session.receive(json.dumps({"t": "hello", "id": 1, **extra}))
    return protocol.decode(reply)[0]


@pytest.fixture(scope="module")
def ml():
    return ML()


@pytest.mark.parametrize("via", TRANSPORTS)
def test_hello_records_the_transport(ml, via):
    s = Session(ml)
    assert s.via is None
    assert hello(s, via=via)["ok"]["session"] == s.token
    assert s.via == via


@pytest.mark.parametrize("via", ["webtransport", "", 1, None, ["websocket"], {"x": 1}, "x" * 100_000])
def test_hello_ignores_an_unknown_transport(ml, via):
    s = Session(ml)
    assert hello(s, via=via)["ok"]["session"] == s.token  # the page is answered as ever
    assert s.via is None
