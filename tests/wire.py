"""One link to a host over the wire for the sync tests (and scripts): webnn_bridge.bridge.testing.wire_client.WireClient
on an event loop of its own, each call run to completion. Messages are read through
WireClient.receive, so a batch frame of several replies is read one message at a time; the host's
heartbeats are passed over unless asked for. Async tests use WireClient itself."""

from __future__ import annotations

import asyncio
import json
import ssl

from webnn_bridge.bridge import protocol
from webnn_bridge.bridge.testing.wire_client import WireClient, WireError

__all__ = ["Wire", "WireError"]


def _is_heartbeat(message) -> bool:
    return isinstance(message, str) and len(message) < 64 and json.loads(message).get("t") == "alive"


class Wire:
    """A page's link to a host (its ``hello`` already answered): ``Wire(host.url)``, a context
    manager that closes the link."""

    def __init__(self, url: str, *, origin: str | None = None, token: str | None = None,
                 ssl_context: ssl.SSLContext | None = None, timeout: float = 60):
        self.timeout = timeout
        self.loop = asyncio.new_event_loop()
        try:
            self.client = self._run(WireClient.open(url, origin=origin, token=token, ssl_context=ssl_context))
        except BaseException:
            self.loop.close()
            raise

    def _run(self, coro, timeout: float | None = None):
        return self.loop.run_until_complete(asyncio.wait_for(coro, timeout or self.timeout))

    @property
    def hello(self) -> dict:
        """The host's reply to the link's hello."""
        return self.client.hello

    def request(self, header: dict, parts: list[bytes] | None = None) -> tuple[dict, memoryview | None]:
        """``header`` with the next id, and its reply (header, payload); WireError on an error reply.
        Other messages that arrive first (warnings, heartbeats) are passed over."""
        return self._run(self.client.request(header, parts))

    def send(self, header: dict, parts: list[bytes] | None = None) -> None:
        """A message as the shim encodes it (no id added: give one to get a reply)."""
        self._run(self.client.send(header, parts))

    def send_frame(self, frame) -> None:
        """A message as it is: text, bytes, or an iterable of byte fragments (one message)."""
        self._run(self.client.ws.send(frame))

    def receive(self, timeout: float | None = None, *, heartbeats: bool = False):
        """The host's next message (str or bytes); heartbeats only when asked for."""
        while True:
            message = self._run(self.client.receive(), timeout)
            if heartbeats or not _is_heartbeat(message):
                return message

    def receive_decoded(self, timeout: float | None = None) -> tuple[dict, memoryview | None]:
        """The host's next message (not a heartbeat) as (header, payload)."""
        return protocol.decode(self.receive(timeout))

    def close(self) -> None:
        try:
            self._run(self.client.close())
        finally:
            self.loop.close()

    def __enter__(self) -> Wire:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
