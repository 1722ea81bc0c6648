"""The thin I/O layer: a websockets server that also answers a few HTTP GETs.

Routes (all on one port):
- ``/webnn``              websocket; one Session per connection (allowed origins only);
- ``/webnn-shim.js``      the shim script (public code, served to any page);
- ``/webnn/page-runtime/<file>`` onnxruntime-web's wasm runtime, for pages that run small graphs
                          themselves (``serve --page-local``, backends/page.py; public code, like the shim);
- ``/webnn/origin``       tells a page only whether its own Origin is allowed (so the shim can
                          explain a refused websocket, which browsers report without a status);
- ``/healthz``, ``/readyz`` liveness, and readiness for new sessions (503 while draining);
- ``/metrics``            Prometheus metrics (bridge/metrics.py), for --metrics-allow clients only (behind
                          a trusted proxy: the client it forwards for, see client_address);
- anything else           the ``--app`` directory (bridge/static.py: GET/HEAD, ETag, Range), HTML
                          pages with the shim tag injected; ``/`` without an index.html is the
                          landing page (bridge/landing.py).
The websockets HTTP hook closes the connection after each plain HTTP response (no keep-alive).
With ``tls_cert``/``tls_key`` (bridge/tls.py) every route is served over TLS: https and wss.
Everything protocol- or WebNN-related lives in session.py / api.py; this module moves bytes.
"""

from __future__ import annotations

import asyncio
import gc
import hmac
import http
import inspect
import ipaddress
import json
import logging
import os
import signal
import ssl
import sys
import urllib.parse
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import websockets
from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from webnn_bridge.backends.compiler import COMPILER
from webnn_bridge.ops.core import WebNNError

from . import landing, protocol, shim, static, tls
from .api import ML
from .budget import distinct_bytes
from .heap import big_buffer, idle, tune_malloc
from .metrics import Metrics, resident_bytes
from .session import ALIVE, Session, SessionLimits, keepalive_interval
from .session import warm_up as session_warm_up

log = logging.getLogger("webnn_bridge.server")

SHIM_PATH = "/webnn-shim.js"
PAGE_RUNTIME_PATH = protocol.PAGE_RUNTIME_PATH
WS_PATH = "/webnn"
SWITCH_INTERVAL_S = 0.001
ORIGIN_PATH = "/webnn/origin"
HEALTH_PATH, READY_PATH, METRICS_PATH = "/healthz", "/readyz", "/metrics"
SUBPROTOCOL = "webnn-bridge.v1"  # the shim offers it with its access token (TOKEN_PROTOCOL + token)
TOKEN_PROTOCOL = "webnn-bridge.token."
LOOPBACK_NETS = ("127.0.0.0/8", "::1/128")
IDLE_TRIM_S = 1.0  # the last page gone this long: shared caches shrink to their idle size (session.idle)


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
    # DNS-rebinding defence: Host header names accepted besides IP literals and localhost
    allow_hosts: list[str] = field(default_factory=list)
    # what one page connection, and all of them together, may hold (None: unlimited)
    session_budget_bytes: int | None = 4 << 30
    host_budget_bytes: int | None = field(default_factory=lambda: default_host_budget())
    max_graphs_per_session: int | None = 1024
    # pages declare the host lost when they hear nothing from it this long (it sends heartbeats)
    keepalive_timeout_s: float = 10.0
    # pages get spec HEAD's behaviour where shipping Chromium is more lenient (README: Compatibility)
    strict_spec: bool = False
    # worker threads for builds and long dispatches (0: one per core, at least 2)
    workers: int = 0
    # tune the process's garbage collector for serving (tune_gc): the CLI host owns its process;
    # a host embedded in another program leaves that program's collector alone
    own_process: bool = False
    # TLS: PEM certificate (chain) and private key files; both given, the host speaks https and wss only
    tls_cert: str | os.PathLike | None = None
    tls_key: str | os.PathLike | None = None
    # an access token every websocket must present (serve --token-file; hosts reachable by others)
    token: str | None = None
    # peers (IP addresses or networks) whose X-Forwarded-Host / X-Forwarded-Proto are believed:
    # the load balancer or reverse proxy in front of the host
    trusted_proxies: list[str] = field(default_factory=list)
    # clients (IP addresses or networks) that may read /metrics: the peer, or behind a trusted proxy the
    # client it forwards for (client_address)
    metrics_allow: list[str] = field(default_factory=lambda: list(LOOPBACK_NETS))
    # SIGTERM: refuse new sessions, let open ones finish for at most this long, then close them
    drain_timeout_s: float = 30.0
    # serve --page-local: the folder of onnxruntime-web's wasm runtime (backends/page.py), served to
    # pages that then run the small graphs the policy's [page] rules place there themselves
    page_runtime: str | os.PathLike | None = None


class _MemoryErrorLine(logging.Filter):
    """A message the host ran out of memory receiving (the websockets library's reader, asyncio's
    transport) closes that page's connection: one line, not a traceback per page."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, MemoryError):
            log.warning("a page's connection was closed: the host ran out of memory receiving its message")
            return False
        return True


_MEMORY_ERROR_LINE = _MemoryErrorLine()


def quiet_memory_errors() -> None:
    """Idempotent: the libraries' loggers that report a reader's MemoryError say it in one line."""
    for name in ("websockets.server", "websockets", "asyncio"):
        logger = logging.getLogger(name)
        if _MEMORY_ERROR_LINE not in logger.filters:
            logger.addFilter(_MEMORY_ERROR_LINE)


GC_YOUNG_THRESHOLD = 20000


def tune_gc() -> None:
    """Process-wide: what is alive once the host is set up (modules, runtimes, the op registry)
    leaves the cyclic collector's view (gc.freeze), and the young generation is collected after
    GC_YOUNG_THRESHOLD allocations, not 700. A build allocates hundreds of thousands of small,
    short-lived objects: with the defaults, the collector walked every module's objects in the
    middle of builds (a full collection took 18 ms on a 2-core machine) and ran 150 times in one
    MobileNetV2 page. Reference counting still frees almost everything at once."""
    gc.collect()
    gc.freeze()
    young, *older = gc.get_threshold()
    if young < GC_YOUNG_THRESHOLD:
        gc.set_threshold(GC_YOUNG_THRESHOLD, *older)


def default_host_budget() -> int | None:
    """Three quarters of physical memory (None where the platform does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") * 3 // 4
    except (ValueError, OSError, AttributeError):
        return None


def default_workers() -> int:
    return max(2, os.cpu_count() or 1)


def own_origins(host: str, port: int, scheme: str = "http") -> set[str]:
    """The origins of the host's own pages (the scheme it serves: http, or https with TLS)."""
    names = {host}
    if host in ("127.0.0.1", "localhost", "::1", "[::1]"):
        names |= {"127.0.0.1", "localhost", "[::1]"}
    return {f"{scheme}://{n if ':' not in n or n.startswith('[') else f'[{n}]'}:{port}" for n in names}


def tls_context(config: HostConfig) -> ssl.SSLContext | None:
    """The server's ssl context when the config names a certificate and key (both or neither)."""
    if config.tls_cert is None and config.tls_key is None:
        return None
    if config.tls_cert is None or config.tls_key is None:
        raise ValueError("TLS needs both a certificate and its private key (tls_cert and tls_key)")
    return tls.server_context(config.tls_cert, config.tls_key)


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
    extra = dict(extra or {})
    headers["Cache-Control"] = extra.pop("Cache-Control", "no-store")
    headers["X-Content-Type-Options"] = "nosniff"
    headers["Connection"] = "close"  # the websockets HTTP hook closes after each response
    for k, v in extra.items():
        headers[k] = v
    return Response(status, http.HTTPStatus(status).phrase, headers, body)


def _not_modified(extra: dict) -> Response:
    """304: the validators and caching headers a 200 would carry, no body and no length."""
    headers = Headers()
    for k, v in {**extra, "X-Content-Type-Options": "nosniff", "Connection": "close"}.items():
        headers[k] = v
    return Response(304, "Not Modified", headers, b"")


def _head(request: Request, response: Response) -> Response:
    """HEAD: the GET response's status and headers (Content-Length included), no body."""
    if request.method != "HEAD":
        return response
    return Response(response.status_code, response.reason_phrase, response.headers, b"")


def host_name_allowed(host_header: str | None, extra: set[str]) -> bool:
    """Jupyter's rule against DNS rebinding: a request must address us by an IP literal, by a
    localhost name, or by a name the operator allowed; a rebound attacker's name is none of these."""
    if not host_header:
        return False
    try:
        name = urllib.parse.urlsplit(f"//{host_header}").hostname or ""
    except ValueError:
        return False
    name = name.rstrip(".").lower()
    if name == "localhost" or name.endswith(".localhost") or name in extra:
        return True
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return False


def networks(specs: list[str]) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """IP addresses or networks (``10.0.0.0/8``); ValueError names the bad one."""
    out = []
    for spec in specs:
        try:
            out.append(ipaddress.ip_network(spec.strip(), strict=False))
        except ValueError:
            raise ValueError(f"not an IP address or network: {spec!r}") from None
    return out


Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def ip_of(text: str) -> Address | None:
    """An IP address as peers and proxies write it: ``192.0.2.7``, ``192.0.2.7:4711``, ``2001:db8::1``,
    ``[2001:db8::1]:4711`` (quoted or not; an IPv4-mapped IPv6 address is its IPv4 address); None for
    anything else (``unknown``, an obfuscated ``_name``, a host name)."""
    text = text.strip().strip('"').strip()
    if text.startswith("["):
        text = text[1:].split("]", 1)[0]
    elif text.count(":") == 1:  # IPv4 with a port
        text = text.split(":", 1)[0]
    try:
        addr = ipaddress.ip_address(text.split("%")[0])
    except ValueError:
        return None
    mapped = getattr(addr, "ipv4_mapped", None)
    return mapped if mapped is not None else addr


def peer_address(connection: ServerConnection) -> Address | None:
    try:
        return ip_of(str(connection.remote_address[0]))
    except (TypeError, IndexError):
        return None


def peer_in(connection: ServerConnection, nets: list) -> bool:
    addr = peer_address(connection)
    return addr is not None and any(addr in n for n in nets)


# headers a proxy adds: a request from a trusted proxy that carries one of them came through it
PROXY_HEADERS = ("X-Forwarded-For", "Forwarded", "X-Forwarded-Host", "X-Forwarded-Proto", "X-Real-IP", "Via")


def _forwarded_for(values: list[str]) -> list[str]:
    """The ``for=`` of each element of RFC 7239 ``Forwarded`` headers, in order (an element without
    one gives "", an unknown hop)."""
    hops = []
    for value in values:
        element, quoted = [], False
        for ch in value + ",":  # elements are comma-separated; a quoted string may hold commas
            if ch == '"':
                quoted = not quoted
            if ch == "," and not quoted:
                pairs = dict(p.partition("=")[::2] for p in "".join(element).split(";"))
                pairs = {k.strip().lower(): v for k, v in pairs.items()}
                hops.append(pairs.get("for", ""))
                element = []
            else:
                element.append(ch)
    return hops


def _rightmost_untrusted(hops: list[str], trusted: list) -> Address | None:
    """The client in a forwarded-for list: the right-most address that is not a trusted proxy (each
    trusted proxy appends the address it saw); all of them trusted, the left-most. None when a hop on
    the way is not an address (``unknown``, obfuscated): who stands behind it is not known."""
    addr = None
    for hop in reversed(hops):
        addr = ip_of(hop)
        if addr is None or not any(addr in n for n in trusted):
            return addr
    return addr


def client_address(connection: ServerConnection, request: Request, trusted: list) -> Address | None:
    """Who sent the request. From a peer that is not a trusted proxy: that peer (its forwarded
    headers are not believed). From a trusted proxy: the client it forwards for, by
    X-Forwarded-For and RFC 7239 Forwarded (both present, they must agree). None when that is not
    known: a request that came through the proxy (it carries a proxy's headers) without saying
    whom for; a trusted peer's request with no proxy header at all is its own (a monitoring
    scrape from the balancer's machine)."""
    peer = peer_address(connection)
    if peer is None or not any(peer in n for n in trusted):
        return peer
    chains = []
    xff = request.headers.get_all("X-Forwarded-For")
    if xff:
        chains.append([hop for value in xff for hop in value.split(",")])
    forwarded = request.headers.get_all("Forwarded")
    if forwarded:
        chains.append(_forwarded_for(forwarded))
    if not chains:
        return None if any(request.headers.get_all(h) for h in PROXY_HEADERS) else peer
    clients = {_rightmost_untrusted(chain, trusted) for chain in chains}
    return clients.pop() if len(clients) == 1 else None


def select_subprotocol(connection: ServerConnection, offered) -> str | None:
    """The shim offers SUBPROTOCOL beside its access token; a page without a token offers none."""
    return SUBPROTOCOL if SUBPROTOCOL in offered else None


def forwarded_host(request: Request) -> str | None:
    """The first X-Forwarded-Host (a proxy appends to a list); only asked for trusted peers."""
    value = single_header(request, "X-Forwarded-Host")
    return value.split(",")[0].strip() or None if value else None


def offered_token(request: Request) -> str | None:
    """The access token a websocket handshake offers as a subprotocol (browsers cannot set
    other headers on a websocket); never logged."""
    for value in request.headers.get_all("Sec-WebSocket-Protocol"):
        for proto in value.split(","):
            proto = proto.strip()
            if proto.startswith(TOKEN_PROTOCOL):
                return proto[len(TOKEN_PROTOCOL):]
    return None


def single_header(request: Request, name: str) -> str | None:
    """A header that must appear at most once (two Origin headers are a malformed request)."""
    values = request.headers.get_all(name)
    if len(values) > 1:
        raise ValueError(f"more than one {name} header")
    return values[0] if values else None


class Host:
    def __init__(self, config: HostConfig):
        self.config = config
        self.ssl = tls_context(config)  # a bad certificate or key fails here, before anything starts
        self.scheme = "https" if self.ssl is not None else "http"
        self.ml = config.ml_factory()
        if config.page_runtime is not None:
            from webnn_bridge.backends.page import RUNTIME_FILES, page_device, runtime_folder

            folder = runtime_folder(config.page_runtime)
            if folder is None:
                raise ValueError(f"page runtime {config.page_runtime}: needs {', '.join(RUNTIME_FILES)} "
                                 "(bash scripts/install_ortweb.sh puts them in .ortweb/onnxruntime-web-*)")
            self.ml.page_device = page_device(folder.absolute())
        self.ml.budget.limit = config.host_budget_bytes
        self.ml.prepares = True  # a context that opens has its kind's recent builds prepared (ML.prepare_recent)
        # a policy trace records each graph where the rules place it: no tier-up moves it meanwhile
        self.ml.tier_up = config.observer is None
        self.ml.session_limits = SessionLimits(
            config.session_budget_bytes, config.max_graphs_per_session, config.keepalive_timeout_s,
            strict_spec=config.strict_spec,
        )
        self.sessions: dict[str, Session] = {}
        self.server = None
        self.pool: ThreadPoolExecutor | None = None
        self._allowed: set[str] = set()
        self._hosts = {h.lower().strip("[]") for h in config.allow_hosts} | {config.host.lower().strip("[]")}
        self._idle_timer: asyncio.TimerHandle | None = None
        self.trusted = networks(config.trusted_proxies)
        self.metrics_peers = networks(config.metrics_allow)
        self.metrics = Metrics()
        self.draining = False
        self.drain_task: asyncio.Task | None = None

    @property
    def allowed_origins(self) -> set[str]:
        return self._allowed

    def _compute_allowed(self, port: int) -> None:
        allowed = own_origins(self.config.host, port, self.scheme)
        allowed |= {normalize_origin(o) for o in self.config.allow_origins}
        self._allowed = allowed

    def origin_allowed(self, request: Request, proxied: bool = False) -> tuple[bool, str | None]:
        """Every channel from a page checks its Origin; a same-origin GET (which browsers send
        without Origin) is recognised by Sec-Fetch-Site. Loopback alone is not a permission.
        ``proxied``: the request came through a trusted proxy, so the origin the page saw the
        host under (the forwarded scheme and host) is the host's own too."""
        origin = single_header(request, "Origin")
        if origin is not None:
            try:
                origin_n = normalize_origin(origin)
                if origin_n in self._allowed:
                    return True, origin
                return proxied and origin_n == self.forwarded_origin(request), origin
            except ValueError:
                return False, origin
        return request.headers.get("Sec-Fetch-Site") == "same-origin", None

    def forwarded_origin(self, request: Request) -> str | None:
        """The origin a page reached the host under, as a trusted proxy forwards it."""
        host = forwarded_host(request)
        proto = (single_header(request, "X-Forwarded-Proto") or self.scheme).split(",")[0].strip().lower()
        if not host or proto not in ("http", "https"):
            return None
        try:
            return normalize_origin(f"{proto}://{host}")
        except ValueError:
            return None

    # ------------------------------------------------------------------ HTTP side
    def process_request(self, connection: ServerConnection, request: Request) -> Response | None:
        """Every request: a malformed one gets a 4xx, never a 500 or a traceback."""
        try:
            proxied = bool(self.trusted) and peer_in(connection, self.trusted)
            host_header = (forwarded_host(request) if proxied else None) or single_header(request, "Host")
            if not host_name_allowed(host_header, self._hosts):
                log.warning("refused request for host %r", request.headers.get_all("Host")[:1])
                return _response(403, b"host not allowed\n", "text/plain")
            path = urllib.parse.urlsplit(request.path).path
            if path in (HEALTH_PATH, READY_PATH, METRICS_PATH):
                return self.operations(connection, request, path, proxied)
            if path == WS_PATH:
                return self.handshake(request, proxied)
            response = self.route(request, proxied)
        except (ValueError, OSError) as e:
            return self._refused(request, e)
        if inspect.isawaitable(response):  # static files are read off the event loop
            return self._guarded(request, response)
        return response

    async def _guarded(self, request: Request, pending: Awaitable[Response]) -> Response:
        try:
            return await pending
        except (ValueError, OSError) as e:
            return self._refused(request, e)

    @staticmethod
    def _refused(request: Request, e: Exception) -> Response:
        if isinstance(e, ValueError):
            return _response(400, f"bad request: {e}\n".encode(), "text/plain")
        # e.g. a path longer than the file system allows
        log.info("request for %r failed: %s", request.path[:80], e)
        return _response(414 if len(request.path) > 1024 else 404, b"not found\n", "text/plain")

    def handshake(self, request: Request, proxied: bool) -> Response | None:
        """A websocket: its origin, the access token when the host has one, and not while
        draining (a balancer then sends the page to another host)."""
        ok, origin = self.origin_allowed(request, proxied)
        if not ok or origin is None:
            log.warning("refused websocket from origin %r", origin)
            return _response(403, b"origin not allowed\n", "text/plain")
        if self.config.token is not None:
            offered = offered_token(request)
            if offered is None or not hmac.compare_digest(offered.encode(), self.config.token.encode()):
                log.warning("refused websocket from origin %r: %s access token", origin,
                            "no" if offered is None else "a wrong")
                return _response(401, b"access token required\n", "text/plain")
        if self.draining:
            self.metrics.session_refused()
            return _response(503, b"draining: no new sessions\n", "text/plain", {"Retry-After": "1"})
        return None  # go on with the websocket handshake

    def operations(self, connection: ServerConnection, request: Request, path: str, proxied: bool) -> Response:
        """/healthz, /readyz and /metrics: for load balancers, orchestrators and monitoring, not
        pages: a request that carries an Origin must still come from an allowed one."""
        if request.method not in ("GET", "HEAD"):
            return _response(405, b"method not allowed\n", "text/plain", {"Allow": "GET, HEAD"})
        if single_header(request, "Origin") is not None and not self.origin_allowed(request, proxied)[0]:
            return _response(403, b"origin not allowed\n", "text/plain")
        if path == HEALTH_PATH:
            return _head(request, _response(200, b"ok\n", "text/plain"))
        if path == READY_PATH:
            if self.draining:
                return _head(request, _response(503, b"draining\n", "text/plain"))
            return _head(request, _response(200, b"ready\n", "text/plain"))
        # decided on the real client: behind a trusted proxy, the one it forwards for
        client = client_address(connection, request, self.trusted)
        if client is None:
            log.info("refused /metrics to an unknown client behind %s", peer_address(connection))
            return _response(403, b"metrics are not served to a client a proxy does not name (X-Forwarded-For); "
                             b"see serve --metrics-allow\n", "text/plain")
        if not any(client in n for n in self.metrics_peers):
            log.info("refused /metrics to %s", client)
            return _response(403, b"metrics are not served to this address (serve --metrics-allow)\n", "text/plain")
        return _head(request, _response(200, self.render_metrics().encode(), "text/plain; version=0.0.4"))

    def render_metrics(self) -> str:
        cache = self.ml.compile_cache
        sessions = list(self.sessions.values())
        pages = sum(s.budget.used for s in sessions)
        warm = cache.warm_size() if hasattr(cache, "warm_size") else 0
        # the build memo's and the constant store's memory, less what the pages' graphs hold
        # already (the same buffers, charged to the pages)
        live = [a for s in sessions for a in s.graph_constants()]
        memo_bytes = distinct_bytes(self.ml.build_memo.held(), live)
        store_bytes = distinct_bytes(self.ml.constant_store.held(), [*live, *self.ml.build_memo.held()])
        return self.metrics.render(
            sessions_open=len(self.sessions), draining=self.draining,
            memory={"pages": pages, "compile-cache": warm, "build-memo": memo_bytes, "constant-store": store_bytes},
            cache=dict(getattr(cache, "stats", {})), warm_bytes=warm, resident=resident_bytes())

    def route(self, request: Request, proxied: bool = False) -> Response | None:
        url = urllib.parse.urlsplit(request.path)
        path = url.path
        if path == SHIM_PATH:
            host = request.headers.get("Host") or f"{self.config.host}:{self.port}"
            body, etag = shim.shim_body(f"{self.scheme}://{host}")
            # CORP: pages that are cross-origin isolated (COEP require-corp, for SharedArrayBuffer)
            # may load the shim from the host's origin too. Revalidated, never stale: a reload
            # gets "304 Not Modified" and the browser reuses its copy and its compiled code.
            extra = {"Access-Control-Allow-Origin": "*", "Cross-Origin-Resource-Policy": "cross-origin",
                     "ETag": etag, "Cache-Control": "no-cache"}
            if static.etag_matches(request.headers.get("If-None-Match"), etag):
                return _not_modified(extra)
            return _head(request, _response(200, body, "text/javascript; charset=utf-8", extra))
        if path == ORIGIN_PATH:
            return self.origin_probe(request, proxied)
        if path.startswith(PAGE_RUNTIME_PATH):
            return self.page_runtime(request, path[len(PAGE_RUNTIME_PATH):])
        return self.static(request, url)

    def page_runtime(self, request: Request, name: str) -> Response | Awaitable[Response]:
        """One of the page runtime's files (backends/page.RUNTIME_FILES), to any page, as the shim
        is: read off the event loop, revalidated by ETag (the browser keeps its compiled wasm)."""
        from webnn_bridge.backends.page import RUNTIME_FILES

        device = self.ml.page_device
        if device is None or name not in RUNTIME_FILES:
            return _response(404, b"not found\n", "text/plain")
        if request.method not in ("GET", "HEAD"):
            return _response(405, b"method not allowed\n", "text/plain", {"Allow": "GET, HEAD"})
        folder = Path(device.details["runtime"])
        return self._static_reply(request, folder, urllib.parse.urlsplit("/" + name),
                                  {"Access-Control-Allow-Origin": "*", "Cross-Origin-Resource-Policy": "cross-origin"})

    def origin_probe(self, request: Request, proxied: bool = False) -> Response:
        """Whether the asking page's own origin is allowed, and whether the host wants an access
        token (never the token), nothing else (readable by that page only: the CORS header
        echoes its origin)."""
        ok, origin = self.origin_allowed(request, proxied)
        cors = {"Access-Control-Allow-Origin": origin, "Vary": "Origin"} if origin else {}
        facts = {"allowed": ok, "token": True} if ok and self.config.token is not None else {"allowed": ok}
        return _response(200, json.dumps(facts).encode(), "application/json", cors)

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

    async def _static_reply(self, request: Request, app: Path, url: urllib.parse.SplitResult,
                            extra: dict[str, str] | None = None) -> Response:
        r = await asyncio.to_thread(static.serve_file, app, request.method, url.path, url.query,
                                    request.headers, SHIM_PATH)
        headers = Headers({**r.headers, **(extra or {})})
        headers["X-Content-Type-Options"] = "nosniff"
        headers["Connection"] = "close"
        if "Content-Length" not in headers and r.status != 304:
            headers["Content-Length"] = str(len(r.body))
        return Response(r.status, http.HTTPStatus(r.status).phrase, headers, r.body)

    def url_for(self, request: Request) -> str:
        """The host's URL as the page addressed it (its Host header), else the bound one."""
        host = request.headers.get("Host")
        return f"{self.scheme}://{host}" if host else self.url

    # ------------------------------------------------------------------ websocket side
    async def handler(self, connection: ServerConnection) -> None:
        """One session per connection, its messages handled strictly one at a time in arrival
        order (the context timeline). Cheap messages (Session.prepare) run right here on the
        event loop: no thread hop for a tiny write, dispatch or read. The rest (builds, big
        dispatches) go to the shared worker pool, one job per session at a time, so a pool queue
        holds at most one job of each session: a storming page waits its turn like any other."""
        origin = connection.request.headers.get("Origin") if connection.request else None
        session = Session(self.ml, origin, self.config.observer)
        session.timer = self.metrics.message
        self.metrics.session_opened()
        self.sessions[session.token] = session
        log.info("session %s opened from %s", session.token[:6], origin)
        loop = asyncio.get_running_loop()
        sending = asyncio.Lock()  # a reply and the raw payload it announces leave with nothing between
        beat = asyncio.create_task(self.heartbeat(connection, sending))
        try:
            while True:
                frame, charged = await self._receive(connection, session)
                session.alone = len(self.sessions) == 1
                try:
                    await self._handle(connection, session, frame, sending)
                finally:
                    del frame  # nothing of a message outlives its handling (a big one is charged until then)
                    session.budget.release(charged)
        except websockets.ConnectionClosedOK:
            pass
        except Exception as e:  # a broken connection ends only its own session
            log.info("session %s ended: %s", session.token[:6], e)
        finally:
            beat.cancel()
            try:  # a session counts as open until what it held is freed (a drain, /metrics and tests wait for that)
                await loop.run_in_executor(self.pool, session.close)
            finally:
                self.sessions.pop(session.token, None)
            log.info("session %s closed", session.token[:6])
            self._idle_soon(loop)

    def _idle_soon(self, loop: asyncio.AbstractEventLoop) -> None:
        """IDLE_TRIM_S after the last page left (and none came), the host gives memory back."""
        if self._idle_timer is not None:
            self._idle_timer.cancel()
        if not self.sessions:
            def trim() -> None:
                if not self.sessions:
                    try:
                        loop.run_in_executor(self.pool, idle, self.ml)
                    except RuntimeError:  # the host is stopping (its pool is shut down)
                        pass
            self._idle_timer = loop.call_later(IDLE_TRIM_S, trim)

    async def _handle(self, connection: ServerConnection, session: Session, frame, sending: asyncio.Lock) -> None:
        """The messages of one frame (the shim batches small ones), in order. Their replies are
        held and leave together (protocol.coalesce: one frame wakes the page once, as a run's
        reads of onnxruntime-web want), except that what is held leaves before anything that
        takes time: a job for the worker pool, or a dispatch (a page may read one result while
        it dispatches the next)."""
        loop = asyncio.get_running_loop()
        held: list = []
        for message in session.messages(frame):
            quick, job = session.prepare(message)
            if held and (not quick or job.kind == "dispatch"):
                await self._send_held(connection, held, sending)
                held = []
            replies = job() if quick else await loop.run_in_executor(self.pool, job)
            if replies:
                held += replies
        if held:
            await self._send_held(connection, held, sending)

    async def _send_held(self, connection: ServerConnection, held: list, sending: asyncio.Lock) -> None:
        async with sending:
            await self._send(connection, protocol.coalesce(held) if len(held) > 1 else held)

    async def _receive(self, connection: ServerConnection, session: Session) -> tuple:
        """The next message, and the bytes charged to the page's budget for it. A raw payload the
        session awaits (a big writeTensor's bytes) is copied fragment by fragment into one buffer
        charged to the page while it is handled (the page's browser sends it in fragments): no
        fragments joined into a second copy of the whole message. Over the page's budget, or
        longer than announced, its bytes are not kept (protocol.Unkept: the session refuses it)."""
        n = session.raw_expected()
        if n is None or n < protocol.RAW_MIN_BYTES or n > self.config.max_message_bytes:
            frame = await connection.recv()
            self.metrics.received(len(frame))
            return frame, 0
        refused, charged = None, 0
        try:
            charged = session.budget.charge(n, "A tensor's bytes in transit")
        except WebNNError as e:
            refused = e
        try:
            buffer, size, text = (big_buffer(n) if refused is None else None), 0, []
            async for fragment in connection.recv_streaming():  # every fragment is consumed
                if isinstance(fragment, str):  # a text message: not a raw payload, the session says so
                    text.append(fragment)
                    continue
                end = size + len(fragment)
                self.metrics.received(len(fragment))
                if buffer is not None and end <= n:
                    buffer[size:end] = fragment
                size = end
            if text:
                return "".join(text), charged
            if refused is not None or size > n:
                return protocol.Unkept(size, refused), charged
            return memoryview(buffer)[:size].toreadonly(), charged
        except BaseException:
            session.budget.release(charged)
            raise

    async def _send(self, connection: ServerConnection, replies: list) -> None:
        for r in replies:
            if isinstance(r, protocol.Raw):  # a binary message sent from its buffers, in fragments
                try:
                    if self.config.frame_tap is not None and r.head:
                        self.config.frame_tap(bytes(r))
                    await connection.send(r.fragments() if r.nbytes > protocol.FRAGMENT_BYTES else bytes(r))
                    self.metrics.sent(r.nbytes)
                finally:
                    r.sent()
                continue
            if self.config.frame_tap is not None:
                self.config.frame_tap(r)
            await connection.send(r)
            self.metrics.sent(len(r))

    async def heartbeat(self, connection: ServerConnection, sending: asyncio.Lock) -> None:
        """Tell the page the host is alive, from the event loop, however busy its session is."""
        interval = keepalive_interval(self.config.keepalive_timeout_s)
        try:
            while True:
                await asyncio.sleep(interval)
                async with sending:
                    await connection.send(ALIVE)
        except websockets.ConnectionClosed:
            pass

    @property
    def port(self) -> int:
        if self.server is not None:
            for sock in self.server.sockets:
                return sock.getsockname()[1]
        return self.config.port

    async def start(self):
        # Workers hold the interpreter while they replay and lower graphs; the default 5 ms
        # switch interval then adds up to 5 ms per wake-up of the event loop that serves every
        # other page's small messages. 1 ms keeps those bounded (process-wide, hence only lowered).
        if sys.getswitchinterval() > SWITCH_INTERVAL_S:
            sys.setswitchinterval(SWITCH_INTERVAL_S)
        if self.pool is None:
            self.pool = ThreadPoolExecutor(self.config.workers or default_workers(), thread_name_prefix="webnn-host")
        await asyncio.get_running_loop().run_in_executor(self.pool, self.ml.warm_up)  # not in the first build
        try:  # a throwaway build and run: what the first page's build would pay once
            await asyncio.get_running_loop().run_in_executor(self.pool, session_warm_up, self.ml)
        except Exception:  # a head start only
            log.debug("the host's warm-up build failed", exc_info=True)
        if self.config.own_process:
            tune_gc()
            tune_malloc()
            # big graphs' compiles, out of a reserve of faulted-in memory (glibc), made now while no
            # page waits (backends/compiler.py)
            COMPILER.start()
            COMPILER.refill_soon()
        quiet_memory_errors()
        self.server = await serve(
            self.handler,
            self.config.host,
            self.config.port,
            process_request=self.process_request,
            compression=None,
            max_size=self.config.max_message_bytes,
            ping_interval=None,
            ssl=self.ssl,
            select_subprotocol=select_subprotocol,
        )
        self._compute_allowed(self.port)
        return self.server

    async def drain(self, stop: Callable[[], None]) -> None:
        """Graceful drain (SIGTERM): /readyz answers 503 and new websockets are refused, so a load
        balancer sends new pages elsewhere; open sessions go on until they end or
        ``drain_timeout_s`` passes; then ``stop()`` (the server closes what is left: those pages'
        contexts are lost, the path they already handle for a host that goes away)."""
        self.draining = True
        deadline = asyncio.get_running_loop().time() + max(0.0, self.config.drain_timeout_s)
        log.warning("draining: no new sessions; %d open, waiting for them at most %g s",
                    len(self.sessions), self.config.drain_timeout_s)
        while self.sessions and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)
        if self.sessions:
            log.warning("drain timeout: closing %d session(s)", len(self.sessions))
        stop()

    @property
    def url(self) -> str:
        host = self.config.host if ":" not in self.config.host else f"[{self.config.host}]"
        return f"{self.scheme}://{host}:{self.port}"


async def run_forever(config: HostConfig, ready: Callable[[Host], None] | None = None) -> None:
    """Serve until interrupted (Ctrl-C, SIGTERM); then the disk caches get what was queued for
    them (a restarted host finds every constant, memo entry and optimized model)."""
    host = Host(config)
    server = await host.start()
    loop = asyncio.get_running_loop()
    serving = asyncio.current_task()

    def on_term() -> None:  # the first SIGTERM drains, a second one stops at once
        if host.draining:
            serving.cancel()
        else:
            host.drain_task = loop.create_task(host.drain(serving.cancel))

    try:
        loop.add_signal_handler(signal.SIGTERM, on_term)
    except (NotImplementedError, RuntimeError):  # no signals here (another platform, a thread)
        pass
    if ready:
        ready(host)
    try:
        await server.serve_forever()
    finally:
        server.close()
        host.ml.flush_to_disk()
