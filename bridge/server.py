"""The thin I/O layer: a websockets server that also answers a few HTTP GETs.

Routes (all on one port):
- ``/webnn``              websocket; one Session per connection (allowed origins only);
- ``/webnn-shim.js``      the shim script (public code, served to any page);
- ``/webnn/validate?q=``  synchronous builder-call validation for the shim (allowed origins
                          only, and only for a live session token);
- ``/webnn/origin``       tells a page only whether its own Origin is allowed (so the shim can
                          explain a refused websocket, which browsers report without a status);
- anything else           the ``--app`` directory (bridge/static.py: GET/HEAD, ETag, Range), HTML
                          pages with the shim tag injected; ``/`` without an index.html is the
                          landing page (bridge/landing.py).
The websockets HTTP hook closes the connection after each plain HTTP response (no keep-alive).
Everything protocol- or WebNN-related lives in session.py / api.py; this module moves bytes.
"""

from __future__ import annotations

import asyncio
import http
import json
import logging
import urllib.parse
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import websockets.http11
from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from ops.core import WebNNError, WebNNTypeError

from . import landing, shim, static
from .api import ML
from .session import Session

log = logging.getLogger("webnn_bridge.server")

# validation requests carry their arguments in the URL (a GET, see module doc)
websockets.http11.MAX_LINE_LENGTH = max(websockets.http11.MAX_LINE_LENGTH, 4 * 1024 * 1024)

SHIM_PATH = "/webnn-shim.js"
WS_PATH = "/webnn"
VALIDATE_PATH = "/webnn/validate"
ORIGIN_PATH = "/webnn/origin"


@dataclass
class HostConfig:
    host: str = "127.0.0.1"
    port: int = 8787
    app_dir: Path | None = None
    allow_origins: list[str] = field(default_factory=list)
    max_message_bytes: int = 1 << 30
    ml_factory: Callable[[], ML] = ML
    observer: Callable[[str, dict], None] | None = None
    # sees every dynamic message the host sends to pages (websocket frames, validation replies):
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
    headers["Connection"] = "close"  # the websockets HTTP hook closes after each response
    for k, v in (extra or {}).items():
        headers[k] = v
    return Response(status, http.HTTPStatus(status).phrase, headers, body)


def _head(request: Request, response: Response) -> Response:
    """HEAD: the GET response's status and headers (Content-Length included), no body."""
    if request.method != "HEAD":
        return response
    return Response(response.status_code, response.reason_phrase, response.headers, b"")


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
            return _head(request, _response(200, body, "text/javascript; charset=utf-8",
                         {"Access-Control-Allow-Origin": "*", "Cross-Origin-Resource-Policy": "cross-origin"}))
        if path == VALIDATE_PATH:
            return self.validate(request, url.query)
        if path == ORIGIN_PATH:
            return self.origin_probe(request)
        return self.static(request, url)

    def validate(self, request: Request, query: str) -> Response:
        ok, origin = self.origin_allowed(request)
        cors = {"Access-Control-Allow-Origin": origin, "Vary": "Origin"} if (ok and origin) else {}
        if not ok:
            return _response(403, b'{"error":{"name":"SecurityError","message":"origin not allowed"}}', "application/json")
        try:
            q = json.loads(urllib.parse.parse_qs(query).get("q", ["{}"])[0])
            session = self.sessions.get(q.get("s"))
            if session is None:
                raise WebNNTypeError("no such session")
            op = q.get("op")
            if not isinstance(op, str) or not isinstance(q.get("args"), list):
                raise WebNNTypeError("malformed validation request")
            body = {"outputs": session.validate(q.get("c"), op, q["args"])}
        except WebNNError as e:
            body = {"error": e.to_wire()}
        except Exception as e:  # malformed input never takes the host down
            body = {"error": {"name": "TypeError", "message": f"{type(e).__name__}: {e}"}}
        raw = json.dumps(body).encode()
        if self.config.frame_tap is not None:
            self.config.frame_tap(raw)
        return _response(200, raw, "application/json", cors)

    def origin_probe(self, request: Request) -> Response:
        """Whether the asking page's own origin is allowed, and nothing else (readable by that
        page only: the CORS header echoes its origin)."""
        ok, origin = self.origin_allowed(request)
        cors = {"Access-Control-Allow-Origin": origin, "Vary": "Origin"} if origin else {}
        return _response(200, json.dumps({"allowed": ok}).encode(), "application/json", cors)

    def static(self, request: Request, url: urllib.parse.SplitResult) -> Response | Awaitable[Response]:
        """The app directory (read off the event loop) or, at ``/`` without an index, the landing page."""
        if request.method not in ("GET", "HEAD"):
            return _response(405, b"method not allowed\n", "text/plain", {"Allow": "GET, HEAD"})
        app = self.config.app_dir
        if url.path == "/" and (app is None or not (app / "index.html").is_file()):
            body = landing.page(self.url_for(request), SHIM_PATH, list(self._allowed),
                                sessions=len(self.sessions), app=app is not None)
            return _head(request, _response(200, body, "text/html; charset=utf-8"))
        if app is None:
            return _response(404, b"not found\n", "text/plain")
        return self._static_reply(request, app, url)

    async def _static_reply(self, request: Request, app: Path, url: urllib.parse.SplitResult) -> Response:
        r = await asyncio.to_thread(static.serve_file, app, request.method, url.path, url.query,
                                    request.headers, SHIM_PATH)
        headers = Headers(r.headers)
        headers["X-Content-Type-Options"] = "nosniff"
        headers["Connection"] = "close"
        if "Content-Length" not in headers and r.status != 304:
            headers["Content-Length"] = str(len(r.body))
        return Response(r.status, http.HTTPStatus(r.status).phrase, headers, r.body)

    def url_for(self, request: Request) -> str:
        """The host's URL as the page addressed it (its Host header), else the bound one."""
        host = request.headers.get("Host")
        return f"http://{host}" if host else self.url

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
