"""Embedding the host: run it on a background thread (tests, the WPT runner, Playwright suites),
and the Chromium flags we launch Debian's Chromium with."""

from __future__ import annotations

import asyncio
import os
import threading

from .server import Host, HostConfig

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


class RunningHost:
    """A Host on its own event loop thread; stop() shuts it down."""

    tls_ca = None  # start_host(tls_self_signed=...): the authority that signed its certificate

    def __init__(self, config: HostConfig):
        self.host = Host(config)  # a bad TLS certificate or key raises here
        self.loop = asyncio.new_event_loop()
        self._started = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        if not self._started.wait(30):
            raise RuntimeError("host did not start")

    def _run(self):
        asyncio.set_event_loop(self.loop)
        self.server = self.loop.run_until_complete(self.host.start())
        self._started.set()
        self.loop.run_forever()

    @property
    def url(self) -> str:
        return self.host.url

    def stop(self):
        async def close():
            self.server.close()
            await self.server.wait_closed()
            # what is still running (a connection that arrived as the server closed, mid-handshake)
            # ends here, not destroyed pending with the loop
            rest = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for t in rest:
                t.cancel()
            if rest:
                await asyncio.wait(rest, timeout=5)

        asyncio.run_coroutine_threadsafe(close(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(30)
        self.host.ml.flush_to_disk()  # what a restart will read


def start_host(*, tls_self_signed: str | os.PathLike | None = None, **kw) -> RunningHost:
    """A host on a free port (unless ``port=`` says otherwise); ``kw`` are HostConfig's fields.

    TLS: ``tls_cert=`` and ``tls_key=`` (PEM files), or ``tls_self_signed=DIR`` for the
    development certificate of ``serve --tls-self-signed`` (made or reused in DIR). An https host's
    ``url`` is ``https://...``; ``running.tls_ca`` is then the authority file a client trusts
    (``ssl.create_default_context(cafile=running.tls_ca)``; None for a certificate of your own)."""
    kw.setdefault("port", 0)
    ca = None
    if tls_self_signed is not None:
        from . import tls

        dev = tls.dev_certificate(tls_self_signed, extra_names=[kw.get("host", "127.0.0.1")])
        kw["tls_cert"], kw["tls_key"], ca = dev.cert, dev.key, dev.ca
    running = RunningHost(HostConfig(**kw))
    running.tls_ca = ca
    return running
