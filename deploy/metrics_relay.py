"""The monitoring port of a webnn-bridge pod (deploy/kubernetes.yaml runs it beside the host, in the
same image): GET or HEAD /metrics on ``--listen`` answers with the host's /metrics, fetched over the
pod's own loopback. The host serves /metrics to loopback only (its default --metrics-allow), so a
request that reaches the host through the Service or an Ingress (its one port, 8787) never gets
metrics, whatever address the ingress or a load balancer's SNAT gives it; Prometheus scrapes this
port on each pod, which no Service exposes. Anything else here is 404. Standard library only.

    python metrics_relay.py --listen 0.0.0.0:9100 --host-url http://127.0.0.1:8787
"""

from __future__ import annotations

import argparse
import sys
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

PATH = "/metrics"
TIMEOUT_S = 5.0


def make_handler(host_url: str) -> type[BaseHTTPRequestHandler]:
    upstream = host_url.rstrip("/") + PATH

    class Relay(BaseHTTPRequestHandler):
        server_version = "webnn-bridge-metrics-relay"

        def do_GET(self) -> None:
            self._relay(body=True)

        def do_HEAD(self) -> None:
            self._relay(body=False)

        def _relay(self, body: bool) -> None:
            if urlsplit(self.path).path != PATH:
                return self._reply(404, b"not found\n", "text/plain", body)
            try:
                # no proxy header: to the host this is the pod's own (loopback) request
                with urllib.request.urlopen(upstream, timeout=TIMEOUT_S) as r:
                    return self._reply(200, r.read(), r.headers.get("Content-Type", "text/plain"), body)
            except urllib.error.HTTPError as e:  # e.g. 403: the host does not count loopback as allowed
                why = f"the host answered {e.code}"
            except OSError as e:
                why = f"the host did not answer: {e}"
            sys.stderr.write(f"metrics relay: {why}\n")
            return self._reply(502, f"{why}\n".encode(), "text/plain", body)

        def _reply(self, status: int, data: bytes, content_type: str, body: bool) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            if body:
                self.wfile.write(data)

        def log_message(self, format: str, *args) -> None:  # a line per scrape would be noise
            pass

    return Relay


def serve(listen: str, host_url: str) -> ThreadingHTTPServer:
    """The relay's server (not yet serving: call serve_forever); ``listen`` is ``ADDRESS:PORT``."""
    address, _, port = listen.rpartition(":")
    server = ThreadingHTTPServer((address.strip("[]") or "0.0.0.0", int(port)), make_handler(host_url))
    server.daemon_threads = True
    return server


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--listen", default="0.0.0.0:9100", help="ADDRESS:PORT to serve /metrics on (default 0.0.0.0:9100)")
    p.add_argument("--host-url", default="http://127.0.0.1:8787", help="the host, over loopback")
    args = p.parse_args(argv)
    server = serve(args.listen, args.host_url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
