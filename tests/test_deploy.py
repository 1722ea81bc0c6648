"""Issue 24: the deployment recipes in deploy/ say what the host accepts and what the tested
balancer does: their serve arguments parse, their probes are the host's endpoints, their grace
periods outlast the drain, and HAProxy accepts the configuration the e2e test runs."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from webnn_bridge.bridge import cli, server

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"


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
    (c,) = pod["containers"]
    k8s_args = _serve_args(entry[2:] + c["args"])
    assert pod["terminationGracePeriodSeconds"] > k8s_args.drain_timeout
    assert c["readinessProbe"]["httpGet"]["path"] == server.READY_PATH
    assert c["livenessProbe"]["httpGet"]["path"] == server.HEALTH_PATH
    assert c["env"][0]["name"] == "WEBNN_BRIDGE_TOKEN"
    assert kinds["Service"]["spec"]["sessionAffinity"] == "ClientIP"


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
