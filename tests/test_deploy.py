"""Issue 24: the deployment recipes in deploy/ say what the host accepts and what the tested
balancer does: their serve arguments parse, their probes are the host's endpoints, their grace
periods outlast the drain, and HAProxy accepts the configuration the e2e test runs."""

from __future__ import annotations

import http.client
import importlib.util
import os
import shlex
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest
import yaml

from webnn_bridge.bridge import cli, server
from webnn_bridge.bridge.embed import start_host

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"
HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"


def _get(url_host: str, port: int, path: str, headers: dict | None = None) -> tuple[int, str]:
    conn = http.client.HTTPConnection(url_host, port, timeout=10)
    try:
        conn.request("GET", path, headers=headers or {})
        r = conn.getresponse()
        return r.status, r.read().decode(errors="replace")
    finally:
        conn.close()


def _port(url: str) -> int:
    return int(url.rsplit(":", 1)[1])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _need_haproxy() -> None:
    if not os.path.exists(HAPROXY):
        if os.environ.get("CI"):
            pytest.fail("Debian's haproxy is missing (scripts/test.sh installs it)")
        pytest.skip("needs Debian's haproxy")


def _serve_args(argv: list[str]):
    """argv after `webnn-bridge serve`, parsed by the real CLI parser (no host started)."""
    parser = cli.build_parser()
    return parser.parse_args(["serve", *argv])


def _flag(argv: list[str], name: str) -> str:
    return argv[argv.index(name) + 1]


def test_systemd_unit():
    text = (DEPLOY / "webnn-bridge.service").read_text()
    lines = text.split("ExecStart=", 1)[1].splitlines()
    command = []
    for line in lines:  # continued with a backslash
        command.append(line.rstrip().rstrip("\\"))
        if not line.rstrip().endswith("\\"):
            break
    argv = shlex.split(" ".join(command))
    assert argv[0].endswith("/webnn-bridge") and argv[1] == "serve"
    args = _serve_args(argv[2:])
    assert args.host == "0.0.0.0" and args.tls_cert and args.tls_key and args.token_file  # remote: TLS + token
    stop = int(text.split("TimeoutStopSec=")[1].split()[0])
    assert stop > args.drain_timeout
    assert "KillSignal=SIGTERM" in text and "ExecReload=/bin/kill -HUP $MAINPID" in text


def test_container_and_kubernetes():
    lines = (DEPLOY / "Containerfile").read_text().splitlines()
    import json

    entry = json.loads(next(x for x in lines if x.startswith("ENTRYPOINT"))[len("ENTRYPOINT"):])
    cmd = json.loads(next(x for x in lines if x.startswith("CMD"))[len("CMD"):])
    assert entry[:2] == ["webnn-bridge", "serve"]
    args = _serve_args(entry[2:] + cmd)
    assert args.insecure_remote and args.trusted_proxy == ["10.0.0.0/8"]
    docs = list(yaml.safe_load_all((DEPLOY / "kubernetes.yaml").read_text()))
    kinds = {d["kind"]: d for d in docs}
    assert set(kinds) == {"Secret", "Deployment", "Service"}
    pod = kinds["Deployment"]["spec"]["template"]["spec"]
    c = _container(pod, "host")
    k8s_args = _serve_args(entry[2:] + c["args"])
    assert pod["terminationGracePeriodSeconds"] > k8s_args.drain_timeout
    assert c["readinessProbe"]["httpGet"]["path"] == server.READY_PATH
    assert c["livenessProbe"]["httpGet"]["path"] == server.HEALTH_PATH
    assert c["env"][0]["name"] == "WEBNN_BRIDGE_TOKEN"
    assert kinds["Service"]["spec"]["sessionAffinity"] == "ClientIP"


def _container(pod: dict, name: str) -> dict:
    return next(c for c in pod["containers"] if c["name"] == name)


def _kubernetes():
    docs = {d["kind"]: d for d in yaml.safe_load_all((DEPLOY / "kubernetes.yaml").read_text())}
    template = docs["Deployment"]["spec"]["template"]
    lines = (DEPLOY / "Containerfile").read_text().splitlines()
    import json

    entry = json.loads(next(x for x in lines if x.startswith("ENTRYPOINT"))[len("ENTRYPOINT"):])
    return docs, template, _serve_args(entry[2:] + _container(template["spec"], "host")["args"])


def test_kubernetes_metrics_never_reach_the_ingress_side():
    """Issue 38: /metrics is not open to the cluster network the ingress lives in. The host serves it
    to loopback only (no --metrics-allow; nothing a trusted proxy forwards counts as loopback), and
    the metrics-relay container re-serves it on a port no Service exposes (an Ingress routes to
    Services only), where Prometheus's annotations point."""
    docs, template, args = _kubernetes()
    allowed = server.networks(args.metrics_allow or list(server.LOOPBACK_NETS))
    assert all(n.is_loopback for n in allowed), allowed
    trusted = server.networks(args.trusted_proxy)
    assert not any(a.overlaps(t) for a in allowed for t in trusted if a.version == t.version)
    relay = _container(template["spec"], "metrics-relay")
    (relay_port,) = relay["ports"]
    host_port = _container(template["spec"], "host")["ports"][0]["containerPort"]
    service_ports = {p["targetPort"] for p in docs["Service"]["spec"]["ports"]}
    assert relay_port["containerPort"] not in service_ports and relay_port["name"] not in service_ports
    assert template["metadata"]["annotations"]["prometheus.io/port"] == str(relay_port["containerPort"])
    cmd = relay["command"]
    assert cmd[0] == "python" and f"0.0.0.0:{relay_port['containerPort']}" == cmd[cmd.index("--listen") + 1]
    assert cmd[cmd.index("--host-url") + 1] == f"http://127.0.0.1:{host_port}"
    # the image holds the relay where the pod runs it from
    assert f"COPY deploy/metrics_relay.py {cmd[1]}" in (DEPLOY / "Containerfile").read_text()


def _relay_module():
    spec = importlib.util.spec_from_file_location("metrics_relay", DEPLOY / "metrics_relay.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_metrics_relay_serves_the_hosts_metrics_and_the_host_refuses_forwarded_clients():
    """The pod's two containers for real, on loopback: the host as kubernetes.yaml starts it (here
    loopback also stands for the ingress, a trusted proxy) and the relay in front of its /metrics."""
    import threading

    _, _, args = _kubernetes()
    h = start_host(trusted_proxies=[*args.trusted_proxy, "127.0.0.1"])  # default metrics_allow: loopback
    relay = _relay_module().serve("127.0.0.1:0", h.url)
    thread = threading.Thread(target=relay.serve_forever, daemon=True)
    thread.start()
    try:
        port = relay.server_address[1]
        status, body = _get("127.0.0.1", port, "/metrics")
        assert status == 200 and "# TYPE webnn_bridge_sessions gauge" in body, (status, body)
        assert _get("127.0.0.1", port, "/webnn-shim.js")[0] == 404  # metrics only
        # through the ingress: the client it forwards for decides, even one of the cluster network
        # (a load balancer's SNAT gives public clients node addresses)
        for client in ("203.0.113.9", "10.1.2.3"):
            fwd = {"X-Forwarded-For": client, "X-Forwarded-Host": "127.0.0.1"}
            assert _get("127.0.0.1", _port(h.url), "/metrics", fwd)[0] == 403, client
    finally:
        relay.shutdown()
        relay.server_close()
        h.stop()
    # the host gone, the relay says so (502), it does not hang
    relay = _relay_module().serve("127.0.0.1:0", f"http://127.0.0.1:{_free_port()}")
    thread = threading.Thread(target=relay.serve_forever, daemon=True)
    thread.start()
    try:
        assert _get("127.0.0.1", relay.server_address[1], "/metrics")[0] == 502
    finally:
        relay.shutdown()
        relay.server_close()


def test_haproxy_denies_metrics_on_the_public_side():
    """Issue 38: the balancer's frontend never passes /metrics on; the hosts are scraped directly."""
    text = (DEPLOY / "haproxy.cfg").read_text()
    frontend = text.split("\nfrontend ", 1)[1].split("\nbackend ", 1)[0]
    assert f"http-request deny deny_status 404 if {{ path {server.METRICS_PATH} }}" in frontend
    _need_haproxy()
    h = start_host(trusted_proxies=["127.0.0.1"])
    lb = _free_port()
    env = dict(os.environ, WEBNN_LB_BIND=f"127.0.0.1:{lb}", WEBNN_HOST1=f"127.0.0.1:{_port(h.url)}",
               WEBNN_HOST2=f"127.0.0.1:{_port(h.url)}")
    proc = subprocess.Popen([HAPROXY, "-db", "-f", str(DEPLOY / "haproxy.cfg")], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while True:  # the host in rotation (two passed checks, 300 ms apart)
            try:
                if _get("127.0.0.1", lb, server.READY_PATH)[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "the balancer did not come up"
            time.sleep(0.1)
        for path in (server.METRICS_PATH, server.METRICS_PATH + "?x=1"):
            status, body = _get("127.0.0.1", lb, path)
            assert status == 404 and "webnn_bridge" not in body, (path, status, body)
        assert _get("127.0.0.1", lb, server.HEALTH_PATH)[0] == 200  # the rest passes
        assert _get("127.0.0.1", _port(h.url), server.METRICS_PATH)[0] == 200  # scraped directly
    finally:
        proc.terminate()
        proc.wait(10)
        h.stop()


def test_haproxy_configuration_is_valid_and_checks_readiness():
    text = (DEPLOY / "haproxy.cfg").read_text()
    assert f"uri {server.READY_PATH}" in text and "retry-on" in text and "timeout tunnel" in text
    haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
    if not os.path.exists(haproxy):
        if os.environ.get("CI"):
            pytest.fail("Debian's haproxy is missing (scripts/test.sh installs it)")
        pytest.skip("needs Debian's haproxy")
    env = dict(os.environ, WEBNN_LB_BIND="127.0.0.1:1", WEBNN_HOST1="127.0.0.1:2", WEBNN_HOST2="127.0.0.1:3")
    r = subprocess.run([haproxy, "-c", "-f", str(DEPLOY / "haproxy.cfg")], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
