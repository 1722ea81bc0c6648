"""Issue 24: many ordinary hosts behind a real load balancer (Debian's HAProxy, running
deploy/haproxy.cfg as shipped). Pages in Chromium load from the balancer's origin and run
inferences through it: sessions spread over the hosts; a host that drains (SIGTERM) lets its
pages finish while new pages go to the other one, with no failed dispatch; a host that dies
loses only its own pages' contexts, and they recover on the next createContext()."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from .conftest import free_port

ROOT = Path(__file__).resolve().parent.parent
HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>balancer</title></head><body><script>
window.state = {lost: 0};
window.open_ = async () => {
  const ctx = await navigator.ml.createContext();
  ctx.lost.then((info) => { window.state.lost += 1; window.state.why = info.message; });
  const b = new MLGraphBuilder(ctx);
  const x = b.input('x', {dataType: 'float32', shape: [4]});
  const g = await b.build({y: b.relu(x)});
  const tin = await ctx.createTensor({dataType: 'float32', shape: [4], writable: true});
  const tout = await ctx.createTensor({dataType: 'float32', shape: [4], readable: true});
  window.run = {ctx, g, tin, tout};
};
window.infer = async (i) => {
  const {ctx, g, tin, tout} = window.run;
  ctx.writeTensor(tin, new Float32Array([i, -i, 1, 2]));
  ctx.dispatch(g, {x: tin}, {y: tout});
  const r = new Float32Array(await ctx.readTensor(tout));
  return r[0] === i && r[1] === 0 && r[3] === 2;
};
window.loop = (n, gapMs) => {
  window.result = (async () => {
    let ok = 0; const errors = [];
    for (let i = 0; i < n; i++) {
      try { if (await window.infer(i)) ok++; } catch (e) { errors.push(String(e)); }
      await new Promise((r) => setTimeout(r, gapMs));
    }
    return {ok, errors};
  })();
};
</script></body></html>
"""


def _metric(url: str, name: str) -> float:
    with urllib.request.urlopen(url + "/metrics", timeout=5) as r:
        for line in r.read().decode().splitlines():
            if line.startswith(name + " "):
                return float(line.split()[1])
    raise KeyError(name)


class Cluster:
    def __init__(self, app: Path, tmp: Path):
        self.app, self.tmp = app, tmp
        self.hosts: dict[str, tuple[subprocess.Popen, str]] = {}
        self.lb_port = free_port()
        self.lb_url = f"http://127.0.0.1:{self.lb_port}"
        self.haproxy: subprocess.Popen | None = None

    def start_host(self, name: str, port: int | None = None) -> str:
        port = port or free_port()
        p = subprocess.Popen(
            [sys.executable, "-m", "webnn_bridge.bridge.cli", "serve", "--port", str(port), "--app", str(self.app),
             "--no-cache", "--trusted-proxy", "127.0.0.1", "--drain-timeout", "30",
             # every dispatch goes to a host (what draining is about); in the page, WebKit would also
             # throttle the loop's timers to 1 s in these background pages (no network activity)
             "--no-page-local"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = p.stdout.readline()
        assert line.startswith("webnn-bridge serving on"), line
        self.hosts[name] = (p, f"http://127.0.0.1:{port}")
        return self.hosts[name][1]

    def start_balancer(self, ports: list[int]) -> None:
        env = dict(os.environ, WEBNN_LB_BIND=f"127.0.0.1:{self.lb_port}",
                   WEBNN_HOST1=f"127.0.0.1:{ports[0]}", WEBNN_HOST2=f"127.0.0.1:{ports[1]}")
        cfg = ROOT / "deploy" / "haproxy.cfg"
        subprocess.run([HAPROXY, "-c", "-q", "-f", str(cfg)], env=env, check=True)
        self.haproxy = subprocess.Popen([HAPROXY, "-db", "-f", str(cfg)], env=env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1.0)  # a few health checks (300 ms apart): both hosts in rotation
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if self._ready(self.lb_url) and all(self._ready(u) for _, u in self.hosts.values()):
                return
            time.sleep(0.1)
        raise RuntimeError("the balancer did not come up")

    @staticmethod
    def _ready(url: str) -> bool:
        try:
            with urllib.request.urlopen(url + "/readyz", timeout=2) as r:
                return r.status == 200
        except OSError:
            return False

    def stop(self) -> None:
        for p, _ in self.hosts.values():
            if p.poll() is None:
                p.kill()
        if self.haproxy is not None:
            self.haproxy.kill()


@pytest.fixture
def cluster(tmp_path):
    if not os.path.exists(HAPROXY):
        if os.environ.get("CI"):
            pytest.fail("Debian's haproxy is missing (scripts/test.sh installs it)")
        pytest.skip("needs Debian's haproxy (apt-get install haproxy)")
    app = tmp_path / "app"
    app.mkdir()
    (app / "balancer.html").write_text(PAGE)
    c = Cluster(app, tmp_path)
    ports = [free_port(), free_port()]
    c.start_host("a", ports[0])
    c.start_host("b", ports[1])
    c.start_balancer(ports)
    yield c
    c.stop()


def _open_pages(browser, url: str, n: int) -> list:
    pages = []
    for _ in range(n):
        ctx = browser.new_context()
        page = ctx.new_page()
        r = page.goto(url + "/balancer.html")
        assert r is not None and r.status == 200, f"the balancer answered {r and r.status}: {page.content()[:200]}"
        page.evaluate("() => window.open_()")
        pages.append(page)
    return pages


def test_sessions_spread_and_a_draining_host_loses_no_dispatch(browser, cluster):
    (pa, url_a), (_, url_b) = cluster.hosts["a"], cluster.hosts["b"]
    pages = _open_pages(browser, cluster.lb_url, 4)
    on_a, on_b = _metric(url_a, "webnn_bridge_sessions"), _metric(url_b, "webnn_bridge_sessions")
    assert on_a + on_b == 4 and on_a >= 1 and on_b >= 1, (on_a, on_b)  # spread by the balancer
    for p in pages:
        p.evaluate("() => window.loop(60, 15)")
    time.sleep(0.3)
    pa.send_signal(signal.SIGTERM)  # host a drains while its pages are mid-loop
    time.sleep(1.5)  # the balancer's health checks (two failures, 300 ms apart) take it out of rotation
    newcomers = _open_pages(browser, cluster.lb_url, 2)  # new pages: all to host b
    for p in newcomers:
        assert p.evaluate("() => window.infer(7)") is True
    assert _metric(url_b, "webnn_bridge_sessions") == on_b + 2
    for p in pages:  # every dispatch of every page succeeded, on both hosts
        assert p.evaluate("() => window.result") == {"ok": 60, "errors": []}, p.evaluate("() => window.state")
        assert p.evaluate("() => window.state.lost") == 0
    for p in pages:
        p.context.close()  # host a's pages leave: its drain ends
    assert pa.wait(30) == 0
    for p in newcomers:
        assert p.evaluate("() => window.infer(8)") is True
        p.context.close()


def test_a_host_that_dies_loses_only_its_own_pages(browser, cluster):
    (_, url_a), (pb, url_b) = cluster.hosts["a"], cluster.hosts["b"]
    pages = _open_pages(browser, cluster.lb_url, 4)
    assert _metric(url_a, "webnn_bridge_sessions") >= 1 and _metric(url_b, "webnn_bridge_sessions") >= 1
    n_b = _metric(url_b, "webnn_bridge_sessions")
    pb.kill()  # host b dies without a word
    pb.wait(10)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        lost = [p.evaluate("() => window.state.lost") for p in pages]
        if sum(lost) == n_b:
            break
        time.sleep(0.1)
    assert sum(lost) == n_b, lost  # exactly host b's pages lost their contexts
    time.sleep(1.5)  # the balancer notices host b is gone
    for p, was_lost in zip(pages, lost):
        if was_lost:
            p.evaluate("() => window.open_()")  # recover: a new context, through the balancer, on host a
        assert p.evaluate("() => window.infer(3)") is True
    assert _metric(url_a, "webnn_bridge_sessions") == 4
    for p in pages:
        p.context.close()
