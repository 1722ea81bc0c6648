"""Hostile pages and a hung host, in every browser (issue 10).

An attacker page talks to the host over its own websocket with malformed frames; every reply it
gets is tapped into FRAMES, so test_privacy.py's scan covers the host's error paths too (and it replays
these frames itself). A host that is stopped (SIGSTOP), not dead, is detected by the shim's keepalive."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time

import pytest

from .conftest import ROOT

ATTACK = """async (frames) => {
  const ws = new WebSocket(location.origin.replace(/^http/, 'ws') + '/webnn');
  ws.binaryType = 'arraybuffer';
  const replies = [];
  ws.onmessage = (ev) => replies.push(typeof ev.data === 'string' ? ev.data : '(binary)');
  await new Promise((ok, fail) => { ws.onopen = ok; ws.onerror = fail; });
  for (const f of frames) ws.send(f);
  ws.send('{"t":"hello","id":424242}');
  const t0 = Date.now();
  while (!replies.some((r) => r.includes('424242')) && Date.now() - t0 < 20000) await new Promise((r) => setTimeout(r, 20));
  const open = ws.readyState === WebSocket.OPEN;
  ws.close();
  return {replies, open};
}"""

DEEP = "[" * 1000 + "]" * 1000
HOSTILE_FRAMES = [
    '{"t":"hello","id":NaN}',
    '{"t":"hello","id":1e400}',
    DEEP,
    '{"t":"createContext","id":1,"ctx":1,"options":' + '{"a":' * 500 + "1" + "}" * 500 + "}",
    '{"t":"createContext","id":2,"ctx":1}',
    '{"t":"build","id":3,"ctx":1,"graph":5,"inputs":[],"nodes":[{"op":"__setattr__","args":["has_built",true],'
    '"outputs":[2]}],"outputs":{"y":2}}',
    '{"t":"createTensor","id":4,"ctx":1,"tensor":9,"desc":{"dataType":"float32","shape":['
    + ",".join(["2147483647"] * 20000) + "]}}",
    '{"t":"graphLatency","id":5,"graph":777}',
    '{"t":"readTensor","id":6,"tensor":{"$bigint":"1"}}',
    '{"t":"dispatch","ctx":1,"graph":5,"inputs":{},"outputs":{}}',
    '{"t":"__init__","id":7}',
]


def test_attacker_page_gets_errors_and_the_session_survives(host, page):
    page.goto(f"{host.url}/basic.html")
    r = page.evaluate(ATTACK, HOSTILE_FRAMES)
    assert r["open"], "the host closed the attacker's session instead of answering"
    replies = r["replies"]
    assert any('"re":424242' in x for x in replies)
    for rid in (3, 4, 5, 6, 7):  # every request is answered, with an error
        assert any(f'"re":{rid},' in x and '"error"' in x for x in replies), (rid, replies)
    assert sum('"t":"error"' in x for x in replies) >= 4  # NaN, 1e400, deep, deeper options
    assert any('"t":"warning"' in x for x in replies)  # the failed dispatch
    errors = [x for x in replies if '"error"' in x]
    assert all(len(x) < 800 for x in errors), max(errors, key=len)  # short messages of our own
    text = "\n".join(errors)
    assert "Traceback" not in text and "site-packages" not in text and "2147483647,2147483647" * 20 not in text


def test_latency_of_an_unknown_graph_rejects_instead_of_hanging(host, page):
    page.goto(f"{host.url}/basic.html")
    r = page.evaluate("""async () => {
      const ctx = await navigator.ml.createContext();
      const b = new MLGraphBuilder(ctx);
      const g = await b.build({y: b.relu(b.input('x', {dataType: 'float32', shape: [2]}))});
      const before = await WebNNBridge.latency(g);
      g.destroy();
      try { await WebNNBridge.latency(g); return [before, 'resolved']; } catch (e) { return [before, e.name]; }
    }""")
    assert r == [None, "InvalidStateError"]


@pytest.fixture
def stoppable_host(app_dir):
    """A host in its own process (so that it can be stopped) with a short keepalive timeout."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-c", "from webnn_bridge.bridge.cli import main; main()", "serve", "--port", "0",
         "--app", str(app_dir), "--keepalive-timeout", "1.5"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=ROOT)
    try:
        line = proc.stdout.readline()
        m = re.search(r"serving on (http://\S+)", line)
        assert m, f"host did not start: {line!r}"
        yield proc, m.group(1)
    finally:
        os.kill(proc.pid, signal.SIGCONT)
        proc.terminate()
        proc.wait(30)


def test_stopped_host_loses_contexts_and_rejects_pending_work(stoppable_host, page):
    proc, url = stoppable_host
    page.goto(f"{url}/basic.html")
    page.evaluate("""async () => {
      window.ctx = await navigator.ml.createContext();
      window.lostMessage = null;
      ctx.lost.then((info) => { window.lostMessage = info.message; });
    }""")
    time.sleep(3)  # twice the timeout: an idle but live host keeps its contexts
    assert page.evaluate("window.lostMessage") is None
    # a page busy in synchronous work for longer than the timeout is not a hung host either
    page.evaluate("() => { const t = Date.now(); while (Date.now() - t < 3500); }")
    time.sleep(1)
    assert page.evaluate("window.lostMessage") is None
    os.kill(proc.pid, signal.SIGSTOP)
    r = page.evaluate("""async () => {
      const t0 = Date.now();
      const pending = ctx.createTensor({dataType: 'float32', shape: [2]}).then(() => 'resolved', (e) => e.name);
      const never = new Promise((r) => setTimeout(() => r({message: 'never lost'}), 15000));
      const info = await Promise.race([ctx.lost, never]);
      const settled = await Promise.race([pending, new Promise((r) => setTimeout(() => r('still pending'), 1000))]);
      return {message: info.message, pending: settled, seconds: (Date.now() - t0) / 1000};
    }""")
    assert "stopped responding" in r["message"]
    assert r["pending"] == "InvalidStateError"
    assert r["seconds"] < 8
