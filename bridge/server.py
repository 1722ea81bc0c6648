"""The thin I/O layer: a websockets server that also answers a few HTTP GETs.

Routes (all on one port):
- ``/webnn``              websocket; one Session per connection (allowed origins only);
- ``/webnn-shim.js``      the shim script (public code, served to any page);
- anything else           the ``--app`` directory, HTML pages with the shim tag injected.
Everything protocol- or WebNN-related lives in session.py / api.py; this module moves bytes.
"""

from __future__ import annotations

import asyncio
import logging
import mimetypes
import posixpath
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from . import shim
from .api import ML
from .session import Session

log = logging.getLogger("webnn_bridge.server")

SHIM_PATH = "/webnn-shim.js"
WS_PATH = "/webnn"


@dataclass
class HostConfig:
    host: str = "127.0.0.1"
    port: int = 8787
    app_dir: Path | None = None
    allow_origins: list[str] = field(default_factory=list)
    max_message_bytes: int = 1 << 30
    ml_factory: Callable[[], ML] = ML
    observer: Callable[[str, dict], None] | None = None
    # sees every dynamic message the host sends to pages (websocket frames):
    # the e2e privacy scan uses it
    frame_tap: Callable[[str | bytes], None] | None = None


def own_origins(host: str, port: int) -> set[str]:
    names = {host}
    if host in ("127.0.0.1", "localhost", "::1", "[::1]"):
        names |= {"127.0.0.1", "localhost", "[::1]"}
    return {f"http://{n if ':' not in n or n.startswith('[') else f'[{n}]'}:{port}" for n in names}


def normalize_origin(origin: str) -> str:
    p = urllib.parse.urlsplit(origin.strip())
    if not p.scheme or not p.hostname:
        raise ValueError(f"not an origin: {origin!r}")
    default = {"http": 80, "https": 443}.get(p.scheme)
    host = f"[{p.hostname}]" if ":" in p.hostname else p.hostname
    port = f":{p.port}" if p.port and p.port != default else ""
    return f"{p.scheme}://{host}{port}"


def _response(status: int, body: bytes, content_type: str, extra: dict | None = None) -> Response:
    headers = Headers()
    headers["Content-Type"] = content_type
    headers["Content-Length"] = str(len(body))
    headers["Cache-Control"] = "no-store"
    headers["X-Content-Type-Options"] = "nosniff"
    for k, v in (extra or {}).items():
        headers[k] = v
    reason = {200: "OK", 403: "Forbidden", 404: "Not Found", 400: "Bad Request"}.get(status, "Error")
    return Response(status, reason, headers, body)


class Host:
    def __init__(self, config: HostConfig):
        self.config = config
        self.ml = config.ml_factory()
        self.sessions: dict[str, Session] = {}
        self.server = None
        self._allowed: set[str] = set()

    @property
    def allowed_origins(self) -> set[str]:
        return self._allowed

    def _compute_allowed(self, port: int) -> None:
        allowed = own_origins(self.config.host, port)
        allowed |= {normalize_origin(o) for o in self.config.allow_origins}
        self._allowed = allowed

    def origin_allowed(self, request: Request) -> tuple[bool, str | None]:
        """Every channel from a page checks its Origin; a same-origin GET (which browsers send
        without Origin) is recognised by Sec-Fetch-Site. Loopback alone is not a permission."""
        origin = request.headers.get("Origin")
        if origin is not None:
            try:
                return normalize_origin(origin) in self._allowed, origin
            except ValueError:
                return False, origin
        return request.headers.get("Sec-Fetch-Site") == "same-origin", None

    # ------------------------------------------------------------------ HTTP side
    def process_request(self, connection: ServerConnection, request: Request) -> Response | None:
        url = urllib.parse.urlsplit(request.path)
        path = url.path
        if path == WS_PATH:
            ok, origin = self.origin_allowed(request)
            if not ok or request.headers.get("Origin") is None:
                log.warning("refused websocket from origin %r", origin)
                return _response(403, b"origin not allowed\n", "text/plain")
            return None  # go on with the websocket handshake
        if path == SHIM_PATH:
            host = request.headers.get("Host") or f"{self.config.host}:{self.port}"
            body = shim.shim_source(f"http://{host}").encode()
            # CORP: pages that are cross-origin isolated (COEP require-corp, for SharedArrayBuffer)
            # may load the shim from the host's origin too
            return _response(200, body, "text/javascript; charset=utf-8",
                             {"Access-Control-Allow-Origin": "*", "Cross-Origin-Resource-Policy": "cross-origin"})
        if self.config.app_dir is not None:
            return self.static(path)
        return _response(404, b"not found\n", "text/plain")

    def static(self, path: str) -> Response:
        root = self.config.app_dir.absolute()
        rel = posixpath.normpath("/" + urllib.parse.unquote(path)).lstrip("/")
        if rel.startswith("..") or "\0" in rel:
            return _response(404, b"not found\n", "text/plain")
        # lexical containment: no '..' escapes; links placed inside the app directory are followed
        target = root / rel if rel not in ("", ".") else root
        if target.is_dir():
            target = target / "index.html"
        if not target.is_file():
            return _response(404, b"not found\n", "text/plain")
        ctype = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        body = target.read_bytes()
        if ctype == "text/html":
            body = shim.inject(body.decode("utf-8", "replace"), SHIM_PATH).encode()
            ctype = "text/html; charset=utf-8"
        elif ctype.startswith("text/") or ctype in ("application/javascript", "application/json"):
            ctype += "; charset=utf-8"
        return _response(200, body, ctype)

    # ------------------------------------------------------------------ websocket side
    async def handler(self, connection: ServerConnection) -> None:
        origin = connection.request.headers.get("Origin") if connection.request else None
        session = Session(self.ml, origin, self.config.observer)
        self.sessions[session.token] = session
        log.info("session %s opened from %s", session.token[:6], origin)
        try:
            async for message in connection:
                # handled one at a time, in order: the context timeline
                replies = await asyncio.to_thread(session.receive, message)
                for r in replies:
                    if self.config.frame_tap is not None:
                        self.config.frame_tap(r)
                    await connection.send(r)
        except Exception as e:  # a broken connection ends only its own session
            log.info("session %s ended: %s", session.token[:6], e)
        finally:
            self.sessions.pop(session.token, None)
            await asyncio.to_thread(session.close)
            log.info("session %s closed", session.token[:6])

    @property
    def port(self) -> int:
        if self.server is not None:
            for sock in self.server.sockets:
                return sock.getsockname()[1]
        return self.config.port

    async def start(self):
        self.server = await serve(
            self.handler,
            self.config.host,
            self.config.port,
            process_request=self.process_request,
            compression=None,
            max_size=self.config.max_message_bytes,
            ping_interval=None,
        )
        self._compute_allowed(self.port)
        return self.server

    @property
    def url(self) -> str:
        host = self.config.host if ":" not in self.config.host else f"[{self.config.host}]"
        return f"http://{host}:{self.port}"


async def run_forever(config: HostConfig, ready: Callable[[Host], None] | None = None) -> None:
    host = Host(config)
    server = await host.start()
    if ready:
        ready(host)
    await server.serve_forever()
