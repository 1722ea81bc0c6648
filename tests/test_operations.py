"""Issue 24: operable and remotely usable hosts: /healthz, /readyz, /metrics (its allowlist),
graceful drain on SIGTERM, access tokens, trusted proxies, and the refusal to start a host other
machines can reach without TLS and a token."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

import numpy as np
import pytest
from websockets.exceptions import InvalidStatus

from webnn_bridge.bridge import cli
from webnn_bridge.bridge.embed import start_host
from webnn_bridge.bridge.testing.wire_client import WireClient

TOKEN = "s3cret-token-for-tests-0123456789"


def get(url: str, headers: dict | None = None) -> tuple[int, str]:
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def run(coro):
    return asyncio.run(coro)


async def _one_inference(url: str, **kw) -> np.ndarray:
    c = await WireClient.open(url, **kw)
    try:
        await c.context()
        await c.matmul_graph(1, 4)
        return await c.round_trip(1, np.ones((1, 4), np.float32))
    finally:
        await c.close()


@pytest.fixture(scope="module")
def host():
    h = start_host()
    yield h
    h.stop()


# --------------------------------------------------------------------------- health and metrics


def test_health_and_readiness(host):
    assert get(host.url + "/healthz") == (200, "ok\n")
    assert get(host.url + "/readyz") == (200, "ready\n")
    # a page of another origin cannot use them (every channel from a page checks its Origin)
    assert get(host.url + "/healthz", {"Origin": "http://evil.example"})[0] == 403
    assert get(host.url + "/healthz", {"Origin": host.url})[0] == 200


def test_metrics_count_what_the_host_does(host):
    before = get(host.url + "/metrics")[1]
    np.testing.assert_allclose(run(_one_inference(host.url)), [1, 1, 1, 1])
    status, text = get(host.url + "/metrics")
    assert status == 200

    def value(body: str, name: str) -> float:
        line = next(x for x in body.splitlines() if x.startswith(name + " ") or x.startswith(name + "{"))
        return float(line.rsplit(" ", 1)[1])

    assert value(text, "webnn_bridge_dispatches_total") == value(before, "webnn_bridge_dispatches_total") + 1
    assert value(text, "webnn_bridge_sessions_opened_total") == value(before, "webnn_bridge_sessions_opened_total") + 1
    assert value(text, "webnn_bridge_build_seconds_count") >= 1
    assert 'webnn_bridge_dispatch_seconds_bucket{le="+Inf"}' in text
    assert value(text, "webnn_bridge_received_bytes_total") > value(before, "webnn_bridge_received_bytes_total") + 64
    assert value(text, "webnn_bridge_sent_bytes_total") > value(before, "webnn_bridge_sent_bytes_total") + 16
    assert 'webnn_bridge_memory_bytes{owner="pages"}' in text
    assert 'webnn_bridge_compile_cache_total{result="compiled"}' in text
    assert "# TYPE webnn_bridge_build_seconds histogram" in text
    assert "origin" not in text.lower() and "127.0.0.1" not in text  # no page or peer named


def test_metrics_only_for_allowed_peers():
    h = start_host(metrics_allow=["10.0.0.0/8"])
    try:
        status, body = get(h.url + "/metrics")
        assert status == 403 and "--metrics-allow" in body
        assert get(h.url + "/healthz")[0] == 200  # health stays open to balancers
    finally:
        h.stop()


def test_a_page_cannot_grow_the_metric_labels(host):
    m = host.host.metrics
    for i in range(200):
        m.message(f"bogus{i}", 0.001)
    assert len(m.messages) <= 65 and m.messages.get("other", 0) > 0


# --------------------------------------------------------------------------- draining


def test_draining_refuses_new_sessions_and_lets_open_ones_finish():
    h = start_host(drain_timeout_s=30)
    try:
        async def scenario():
            c = await WireClient.open(h.url)
            await c.context()
            await c.matmul_graph(1, 4)
            stopped = asyncio.Event()
            fut = asyncio.run_coroutine_threadsafe(h.host.drain(lambda: h.loop.call_soon_threadsafe(stopped.set)),
                                                   h.loop)
            await asyncio.sleep(0.1)
            assert get(h.url + "/readyz") == (503, "draining\n")
            with pytest.raises(InvalidStatus) as e:
                await WireClient.open(h.url)
            assert e.value.response.status_code == 503
            for _ in range(5):  # the open page goes on
                np.testing.assert_allclose(await c.round_trip(1, np.full((1, 4), 2, np.float32)), [2, 2, 2, 2])
            assert not fut.done()
            await c.close()
            await asyncio.wrap_future(fut)  # the drain ends when the last page has left
            return h.host.metrics.sessions_refused

        assert run(scenario()) == 1
    finally:
        h.stop()


def _serve(*args: str, env: dict | None = None) -> tuple[subprocess.Popen, str]:
    p = subprocess.Popen([sys.executable, "-m", "webnn_bridge.bridge.cli", "serve", "--port", "0", "--no-cache", *args],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    line = p.stdout.readline()
    assert line.startswith("webnn-bridge serving on "), (line, p.stderr.read() if p.poll() is not None else "")
    return p, line.split()[-1]


def test_sigterm_drains_then_closes_what_is_left():
    p, url = _serve("--drain-timeout", "1")
    try:
        async def scenario():
            c = await WireClient.open(url)
            await c.context()
            await c.matmul_graph(1, 4)
            t0 = time.monotonic()
            p.send_signal(signal.SIGTERM)
            await asyncio.sleep(0.2)
            np.testing.assert_allclose(await c.round_trip(1, np.ones((1, 4), np.float32)), [1, 1, 1, 1])
            await c.ws.wait_closed()  # the drain timeout closes the page's connection
            return time.monotonic() - t0

        waited = run(scenario())
        assert 0.8 < waited < 10
        assert p.wait(20) == 0
    finally:
        p.kill()


# --------------------------------------------------------------------------- access tokens


def test_a_host_with_a_token_refuses_websockets_without_it(caplog):
    h = start_host(token=TOKEN)
    try:
        with caplog.at_level(logging.INFO, logger="webnn_bridge"):
            for token in (None, "wrong-token-0123456789"):
                with pytest.raises(InvalidStatus) as e:
                    run(_one_inference(h.url, token=token))
                assert e.value.response.status_code == 401
            np.testing.assert_allclose(run(_one_inference(h.url, token=TOKEN)), [1, 1, 1, 1])
        assert "access token" in caplog.text
        assert TOKEN not in caplog.text and "wrong-token" not in caplog.text
        # the origin probe says a token is wanted (never the token)
        status, body = get(h.url + "/webnn/origin", {"Origin": h.url})
        assert status == 200 and '"token": true' in body and TOKEN not in body
    finally:
        h.stop()


def test_remote_hosts_need_tls_and_a_token(tmp_path, capsys):
    rc = cli.main(["serve", "--host", "0.0.0.0", "--port", "0", "--no-cache"])
    err = capsys.readouterr().err
    assert rc == 2 and "needs TLS (--tls-cert/--tls-key) and an access token (--token-file)" in err
    assert "--insecure-remote" in err
    tok = tmp_path / "token"
    tok.write_text(TOKEN + "\n")
    rc = cli.main(["serve", "--host", "192.0.2.1", "--port", "0", "--no-cache", "--token-file", str(tok)])
    err = capsys.readouterr().err
    assert rc == 2 and "needs TLS (--tls-cert/--tls-key);" in err
    tok.write_text("short\n")
    rc = cli.main(["serve", "--port", "0", "--no-cache", "--token-file", str(tok)])
    assert rc == 2 and "an access token is 16 to 512 characters" in capsys.readouterr().err
    rc = cli.main(["serve", "--port", "0", "--no-cache", "--trusted-proxy", "not-an-ip"])
    assert rc == 2 and "not an IP address or network: 'not-an-ip'" in capsys.readouterr().err
    assert cli.main(["token"]) == 0
    new = capsys.readouterr().out.strip()
    assert len(new) >= 40 and cli.check_token(new, "x") == new


def test_a_remote_host_with_tls_and_a_token_starts_and_serves(tmp_path):
    import ssl

    tok = tmp_path / "token"
    tok.write_text(TOKEN)
    p, url = _serve("--host", "0.0.0.0", "--tls-self-signed", str(tmp_path / "tls"), "--token-file", str(tok),
                    "--allow-origin", "https://127.0.0.1:1")
    try:
        assert url.startswith("https://0.0.0.0:")
        local = url.replace("0.0.0.0", "127.0.0.1")
        ctx = ssl.create_default_context(cafile=str(tmp_path / "tls" / "webnn-bridge-ca.pem"))
        out = run(_one_inference(local, token=TOKEN, ssl_context=ctx, origin="https://127.0.0.1:1"))
        np.testing.assert_allclose(out, [1, 1, 1, 1])
        p.send_signal(signal.SIGTERM)
        assert p.wait(20) == 0
        assert TOKEN not in p.stdout.read() + p.stderr.read()
    finally:
        p.kill()


# --------------------------------------------------------------------------- behind a proxy


def test_a_trusted_proxy_forwards_the_origin_pages_see():
    h = start_host(trusted_proxies=["127.0.0.1"], allow_hosts=["lb.example"])
    plain = start_host(allow_hosts=["lb.example"])
    try:
        fwd = {"X-Forwarded-Host": "lb.example:8443", "X-Forwarded-Proto": "https"}
        ok = {**fwd, "Origin": "https://lb.example:8443"}
        assert get(h.url + "/webnn/origin", ok)[1].startswith('{"allowed": true')
        assert get(plain.url + "/webnn/origin", ok)[1] == '{"allowed": false}'  # untrusted peer: not believed
        # another page's origin stays refused; a forwarded name the host does not answer to too
        assert get(h.url + "/webnn/origin", {**fwd, "Origin": "https://evil.example"})[1] == '{"allowed": false}'
        assert get(h.url + "/webnn/origin", {"X-Forwarded-Host": "evil.example", "Origin": "http://evil.example"})[0] == 403
        # the websocket itself, as a balancer passes it on
        async def through_proxy():
            from websockets.asyncio.client import connect

            ws = await connect(h.url.replace("http", "ws") + "/webnn", origin="https://lb.example:8443",
                               additional_headers=fwd)
            await ws.close()

        run(through_proxy())
    finally:
        h.stop()
        plain.stop()


def test_serve_help_lists_the_operations_flags(capsys):
    with pytest.raises(SystemExit):
        cli.main(["serve", "--help"])
    out = capsys.readouterr().out
    for flag in ("--token-file", "--insecure-remote", "--trusted-proxy", "--metrics-allow", "--drain-timeout"):
        assert flag in out


def test_env_token_is_used(tmp_path, monkeypatch):
    env = dict(os.environ, WEBNN_BRIDGE_TOKEN=TOKEN)
    p, url = _serve(env=env)
    try:
        with pytest.raises(InvalidStatus):
            run(_one_inference(url))
        np.testing.assert_allclose(run(_one_inference(url, token=TOKEN)), [1, 1, 1, 1])
    finally:
        p.send_signal(signal.SIGTERM)
        p.wait(20)
