"""A runtime that crashes the host, seen from a page: `serve --restart-on-crash` (what
scripts/serve.sh runs) starts the host again, the page's context is lost and a new one works, and
the graph that crashed the runtime is built again on another device (the crash journal) instead
of crashing it a second time.

The crash is planted (tests/crash_plant.py) in every process of the host through a sitecustomize
module: ONNX Runtime's session creation aborts for matmuls of width 77."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys

import numpy as np
import pytest

from tests.crash_plant import PLANT

from .conftest import free_port

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>crash</title></head><body><script>
window.state = {lost: 0};
// y = relu(x @ W), x [2, n] = 0, 1, 2 ..., W [n, n] all 1/n: built, run, read; or the error's name
window.infer = async (n) => {
  try {
    const ctx = await navigator.ml.createContext();
    ctx.lost.then(() => { window.state.lost += 1; });
    const b = new MLGraphBuilder(ctx);
    const x = b.input('x', {dataType: 'float32', shape: [2, n]});
    const w = b.constant({dataType: 'float32', shape: [n, n]}, new Float32Array(n * n).fill(1 / n));
    const g = await b.build({y: b.relu(b.matmul(x, w))});
    const tin = await ctx.createTensor({dataType: 'float32', shape: [2, n], writable: true});
    const tout = await ctx.createTensor({dataType: 'float32', shape: [2, n], readable: true});
    ctx.writeTensor(tin, new Float32Array(2 * n).map((_, i) => i));
    ctx.dispatch(g, {x: tin}, {y: tout});
    return Array.from(new Float32Array(await ctx.readTensor(tout)));
  } catch (e) {
    return e.name || String(e);
  }
};
</script></body></html>
"""


def _expected(n: int) -> np.ndarray:
    x = np.arange(2 * n, dtype=np.float32).reshape(2, n)
    return np.maximum(x @ (np.ones((n, n), np.float32) / n), 0).ravel()


def _serving(p: subprocess.Popen) -> str:
    while "serving on" not in (line := p.stdout.readline()):
        assert line, "the host stopped: " + p.stderr.read()[-2000:]
    return re.search(r"serving on (http://\S+)", line).group(1)


@pytest.fixture
def crashing_host(tmp_path):
    plant = tmp_path / "plant"
    plant.mkdir()
    (plant / "sitecustomize.py").write_text(PLANT)
    app = tmp_path / "app"
    app.mkdir()
    (app / "crash.html").write_text(PAGE)
    env = {**os.environ, "WEBNN_BRIDGE_TORCH": "0",
           "PYTHONPATH": os.pathsep.join([str(plant), os.environ.get("PYTHONPATH", "")])}
    p = subprocess.Popen([sys.executable, "-m", "webnn_bridge.bridge.cli", "serve", "--port", str(free_port()),
                          "--app", str(app), "--cache-dir", str(tmp_path / "cache"), "--drain-timeout", "1",
                          "--restart-on-crash", "--no-page-local"],  # the graphs must reach the host's runtime
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        yield p
    finally:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                p.kill()


def test_a_page_survives_a_runtime_crash_and_its_graph_runs_elsewhere(page, crashing_host):
    url = _serving(crashing_host)
    assert page.goto(url + "/crash.html").status == 200
    np.testing.assert_allclose(page.evaluate("() => window.infer(8)"), _expected(8), rtol=1e-5)
    failed = page.evaluate("() => window.infer(77)")  # the runtime takes the host down mid-build
    assert isinstance(failed, str), failed
    assert _serving(crashing_host) == url  # started again, on the same port
    page.wait_for_function("() => window.state.lost >= 1", timeout=15000)
    # the same graph, from the same page, now built on another device; and the others as before
    np.testing.assert_allclose(page.evaluate("() => window.infer(77)"), _expected(77), rtol=1e-5)
    np.testing.assert_allclose(page.evaluate("() => window.infer(8)"), _expected(8), rtol=1e-5)
    crashing_host.send_signal(signal.SIGTERM)
    assert crashing_host.wait(30) == 0
    err = crashing_host.stderr.read()
    assert "the host was ended by SIGABRT; starting it again" in err
    assert "crashed the host's runtime on onnxruntime:CPUExecutionProvider before" in err
