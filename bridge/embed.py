"""Embedding the host: run it on a background thread (tests, the WPT runner, Playwright suites),
and the Chromium flags we launch Debian's Chromium with."""

from __future__ import annotations

import asyncio
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

    def __init__(self, config: HostConfig):
        self.loop = asyncio.new_event_loop()
        self.host = Host(config)
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

        asyncio.run_coroutine_threadsafe(close(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(30)
        self.host.ml.flush_to_disk()  # what a restart will read


def start_host(**kw) -> RunningHost:
    kw.setdefault("port", 0)
    return RunningHost(HostConfig(**kw))
