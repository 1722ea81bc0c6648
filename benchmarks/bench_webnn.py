"""Benchmark: the shim + host against its peers, side by side, with the ratios of issue 8's targets.

Rows (medians; no pass/fail: these machines are shared and noisy, compare ratios of one run):
  - MobileNetV2 (NCHW, the e2e page's graph, real weights from ../shared/data): in-process ONNX
    Runtime (same thread count as the host), ours (write + dispatch + read in Debian's Chromium
    through the shim, with no driver attached; again under Playwright, whose DevTools session
    is sent every websocket frame a page sends or receives, so the shim's link goes through the
    page's shared worker there, README "Transport"), native Chromium WebNN
    (--native-chromium), onnxruntime-web through its WebNN EP on ours / on native, and onnxruntime-web wasm
    (--ort-web; each with no driver attached, and again under Playwright);
  - MobileNetV2 build() (no driver attached, and again under Playwright): first build, identical
    rebuild in the same page, after a page reload,
    after a host restart (on-disk compile cache); native Chromium's build; and the floor a first
    build has over a websocket: MobileNetV2's 106 constants (13.3 MiB) sent from the page to a bare
    server that only counts bytes;
  - tiny graph (1x64 MLP) write + dispatch + read round trip, and a bare websocket echo of a
    tiny message from the same page;
  - transfer: 16 MiB written and read back through the shim vs echoed by a bare websocket.

With --drivers, only MobileNetV2's first build and inference with and without a driver (README
"Transport"), --rounds times interleaved, each in a fresh browser and host: no driver (the shim's
default there, its page's own websocket, and its shared worker's), under Playwright (its default
there, the shared worker's websocket, and the page's own websocket), under the pytest plugin's
fixtures (a pytest run of its own), native Chromium (under Playwright); with each the CPU time of
every process (this one, which runs the host, Chromium's, Playwright's driver) from the browser's
launch to the end of the inferences, which a busy machine inflates far less than wall-clock times.

Hosts run in this process with the served host's process settings (own_process: its garbage
collector tuning, src/webnn_bridge/bridge/server.py tune_gc).

Run (from the repository root):
  PYTHONPATH=. .venv/bin/python benchmarks/bench_webnn.py [--iters 30] [--runs 3] [--rounds 3] \
      [--native-chromium /path/to/chromium] [--ort-web /path/to/onnxruntime-web/dist]
(--rounds N: the no-driver rows of ours and every peer N times, interleaved; each target's ratio
per round and the median of those, for a noisy machine.)
  PYTHONPATH=. .venv/bin/python benchmarks/bench_webnn.py --drivers --iters 30 --rounds 4 \
      [--native-chromium /path/to/chromium]
  PYTHONPATH=. .venv/bin/python benchmarks/bench_webnn.py --builds-only --rounds 5 \
      [--native-chromium /path/to/chromium]
(--builds-only: MobileNetV2's build rows alone, with no driver, about 5 s a round: ours (first
build, identical rebuilds, after a reload, after a host restart; each with its builder calls'
share, constant()'s copies and digests included, and the host's) and native's first build,
interleaved round by round. --builds-model lenet or tiny: the same rows of a held-out graph
instead: LeNet (../shared/data, 1.7 MB, a graph the default rules place in the page) or the tiny
1x64 MLP.)

Peers (never needed by the tests; see README "Performance"): native Chromium with WebNN from npm
`@sparticuz/chromium` (unpack its brotli archives; the swiftshader libraries sit beside the
binary, in its directory and lib/), onnxruntime-web from npm `onnxruntime-web` (its dist/).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import http.server
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))  # this checkout's webnn_bridge, not the one installed (a worktree's A/B)

from tests.models import mobilenet_data  # noqa: E402
from webnn_bridge.bridge.embed import CHROMIUM, CHROMIUM_ARGS, start_host  # noqa: E402

NATIVE_ARGS = ["--enable-features=WebMachineLearningNeuralNetwork", "--no-zygote", "--use-angle=swiftshader",
               "--no-sandbox"]

# the e2e MobileNetV2 page's own functions (loadWeights, buildMobilenet, createContext, loadNpy)
# the build loop of MOBILENET_JS and HELD_OUT_BUILD_JS (%s: the page's builder function): the first
# build, then identical rebuilds, each timed with its builder calls (constant() copies included)
BUILD_LOOP = """  const builds = [];
  const calls = [];
  let graph = null;
  for (let r = 0; r <= rebuilds; r++) {
    const t0 = performance.now();
    const builder = new MLGraphBuilder(context);
    const output = %s(builder, weights);
    calls.push(performance.now() - t0);
    const g = await builder.build({output});
    builds.push(performance.now() - t0);
    if (graph) graph.destroy();
    graph = g;
  }"""
MOBILENET_JS = """async ([iters, rebuilds]) => {
  const context = await createContext();
  const [weights, input] = await Promise.all([loadWeights(), loadNpy(INPUT_URL)]);
BUILD_LOOP
  const inT = await context.createTensor({dataType: 'float32', shape: INPUT_SHAPE, writable: true});
  const outT = await context.createTensor({dataType: 'float32', shape: [1, 1000], readable: true});
  const times = [];
  let out = null;
  for (let i = 0; i < iters + 3; i++) {
    const t0 = performance.now();
    context.writeTensor(inT, input.data);
    context.dispatch(graph, {input: inT}, {output: outT});
    out = new Float32Array(await context.readTensor(outT));
    if (i >= 3) times.push(performance.now() - t0);
  }
  let top = 0;
  for (let i = 1; i < out.length; i++) if (out[i] > out[top]) top = i;
  context.destroy();
  return {builds, calls, times, top};
}""".replace("BUILD_LOOP", BUILD_LOOP % "buildMobilenet")

# --builds-model: held-out graphs built the way MOBILENET_JS builds (its builds, their builder
# calls), with no inference (one 0 stands for its times); buildHeldOut is the page's
HELD_OUT_BUILD_JS = """async ([iters, rebuilds]) => {
  const context = await navigator.ml.createContext();
  const weights = await loadHeldOut();
BUILD_LOOP
  context.destroy();
  return {builds, calls, times: [0], top: 0};
}""".replace("BUILD_LOOP", BUILD_LOOP % "buildHeldOut")
HELD_OUT_PAGES = {
    # the e2e LeNet page's own loader and builder
    "lenet": "<script>const loadHeldOut = loadWeights; const buildHeldOut = buildLenet;</script>",
    # TINY_JS's MLP, weights made in the page
    "tiny": """<script>
async function loadHeldOut() {
  const w1 = new Float32Array(64 * 128), w2 = new Float32Array(128 * 10);
  for (let i = 0; i < w1.length; i++) w1[i] = Math.sin(i) / 8;
  for (let i = 0; i < w2.length; i++) w2[i] = Math.cos(i) / 8;
  return {w1, w2};
}
function buildHeldOut(b, w) {
  const x = b.input('x', {dataType: 'float32', shape: [1, 64]});
  const h = b.relu(b.matmul(x, b.constant({dataType: 'float32', shape: [64, 128]}, new Float32Array(w.w1))));
  return b.softmax(b.matmul(h, b.constant({dataType: 'float32', shape: [128, 10]}, new Float32Array(w.w2))), 1);
}
</script>""",
}


def use_held_out_builds(app: Path, model: str) -> None:
    """The build rows of a held-out graph (--builds-model): the app's mobilenet.html becomes the
    e2e LeNet page (its data linked from ../shared/data) with the held-out graph's functions, and
    MOBILENET_JS builds it."""
    global MOBILENET_JS
    from tests import shared_data

    page = (ROOT / "e2e" / "pages" / "lenet.html").read_text()
    (app / "mobilenet.html").write_text(page.replace("</body>", HELD_OUT_PAGES[model] + "</body>"))
    if model == "lenet":
        os.symlink(shared_data.require("lenet"), app / "data" / "lenet")
    MOBILENET_JS = HELD_OUT_BUILD_JS


TINY_JS = """async ([iters, w1, w2]) => {
  const ctx = await navigator.ml.createContext();
  const b = new MLGraphBuilder(ctx);
  const x = b.input('x', {dataType: 'float32', shape: [1, 64]});
  const h = b.relu(b.matmul(x, b.constant({dataType: 'float32', shape: [64, 128]}, new Float32Array(w1))));
  const y = b.softmax(b.matmul(h, b.constant({dataType: 'float32', shape: [128, 10]}, new Float32Array(w2))), 1);
  const g = await b.build({y});
  // a page's first graphs run on the host until the page's runtime has started: time where it stays
  if (typeof WebNNBridge === 'object' && WebNNBridge.settled) await WebNNBridge.settled(g);
  const tin = await ctx.createTensor({dataType: 'float32', shape: [1, 64], writable: true});
  const tout = await ctx.createTensor({dataType: 'float32', shape: [1, 10], readable: true});
  const data = new Float32Array(64).fill(0.5);
  const times = [];
  for (let i = 0; i < iters + 20; i++) {
    const t0 = performance.now();
    ctx.writeTensor(tin, data);
    ctx.dispatch(g, {x: tin}, {y: tout});
    await ctx.readTensor(tout);
    if (i >= 20) times.push(performance.now() - t0);
  }
  ctx.destroy();
  return times;
}"""

TRANSFER_JS = """async ([n, reps]) => {
  const ctx = await navigator.ml.createContext();
  const t = await ctx.createTensor({dataType: 'float32', shape: [n], readable: true, writable: true});
  const data = new Float32Array(n).fill(1.5);
  const times = [];
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    ctx.writeTensor(t, data);
    const back = new Float32Array(await ctx.readTensor(t));
    times.push(performance.now() - t0);
    if (back[n - 1] !== 1.5) throw new Error('bad round trip');
  }
  ctx.destroy();
  return times;
}"""

# a bare websocket echo from the same page: the floor for any websocket design
ECHO_JS = """async ([url, iters, n, reps, uploads]) => {
  const ws = new WebSocket(url);
  ws.binaryType = 'arraybuffer';
  await new Promise((ok, fail) => { ws.onopen = ok; ws.onerror = fail; });
  const roundTrip = (data) => new Promise((ok) => { ws.onmessage = (ev) => ok(ev.data); ws.send(data); });
  const small = new Uint8Array(256);
  const tiny = [];
  for (let i = 0; i < iters + 20; i++) {
    const t0 = performance.now();
    await roundTrip(small);
    if (i >= 20) tiny.push(performance.now() - t0);
  }
  const big = new Float32Array(n).fill(1.5);
  const transfer = [];
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    const back = new Float32Array(await roundTrip(big));
    transfer.push(performance.now() - t0);
    if (back[n - 1] !== 1.5) throw new Error('bad echo');
  }
  // the first build's floor: a fresh copy of each of MobileNetV2's constants sent (as constant()
  // uploads them), until the server says it has every byte
  const upload = [];
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    ws.send('sink');
    for (const size of uploads) ws.send(new Uint8Array(size));
    const got = await roundTrip('count');
    upload.push(performance.now() - t0);
    if (+got !== uploads.reduce((a, b) => a + b, 0)) throw new Error('bad upload');
  }
  ws.close();
  return {tiny, transfer, upload};
}"""

ORT_WEB_PAGE = """<!doctype html><meta charset=utf-8><title>ort-web</title>
<script src="npy.js"></script><script src="ort/ort.all.min.js"></script><p>ort-web</p>"""

ORT_WEB_JS = """async ([ep, iters]) => {
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.wasmPaths = new URL('./ort/', location.href).href;
  const input = await loadNpy('./data/mobilenetv2/input.npy');
  const t0 = performance.now();
  const providers = ep === 'webnn' ? [{name: 'webnn', deviceType: 'cpu'}] : ['wasm'];
  const session = await ort.InferenceSession.create('./mobilenet.onnx', {executionProviders: providers});
  const load = performance.now() - t0;
  const feeds = {input: new ort.Tensor('float32', input.data, [1, 3, 224, 224])};
  const times = [];
  let out = null;
  for (let i = 0; i < iters + 3; i++) {
    const t1 = performance.now();
    out = (await session.run(feeds)).probs.data;
    if (i >= 3) times.push(performance.now() - t1);
  }
  let top = 0;
  for (let i = 1; i < out.length; i++) if (out[i] > out[top]) top = i;
  return {load, times, top};
}"""


def median(xs) -> float:
    return float(statistics.median(xs))


def trimmed_mean(xs, cut: float = 0.1) -> float:
    """The mean of the middle values (``cut`` of them left out at each end): the browsers'
    performance.now() counts in steps of 0.1 ms, so the median of sub-millisecond runs is one of a
    few steps; the trimmed mean averages the steps out and still drops stalls."""
    xs = sorted(xs)
    k = int(len(xs) * cut)
    mid = xs[k:len(xs) - k] or xs
    return sum(mid) / len(mid)


def cpu_seconds() -> float:
    """CPU time of this process (the host's threads, Playwright's client) and of every process under
    it, live (Chromium's, Playwright's driver) or reaped: what a page's work costs the machine, which
    a busy machine inflates far less than the wall-clock time."""
    t = os.times()
    total = t.user + t.system + t.children_user + t.children_system
    parents, own = {}, {}
    tick = os.sysconf("SC_CLK_TCK")
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(pid)] = int(fields[1])
        own[int(pid)] = (int(fields[11]) + int(fields[12])) / tick
    mine = {os.getpid()}
    for _ in range(8):  # descendants, level by level
        mine |= {pid for pid, ppid in parents.items() if ppid in mine}
    return total + sum(v for pid, v in own.items() if pid in mine and pid != os.getpid())


# --------------------------------------------------------------------------- setup


def make_app(d: Path, ort_web: Path | None) -> np.ndarray:
    """The e2e pages, the MobileNetV2 data they fetch and an .onnx of the same graph."""
    for f in (ROOT / "e2e" / "pages").iterdir():
        shutil.copy(f, d / f.name)
    mdir = d / "data" / "mobilenetv2" / "weights"
    mdir.mkdir(parents=True)
    for f in mobilenet_data.weights_dir().iterdir():
        os.symlink(f, mdir / f.name)
    weights = mobilenet_data.load_weights()
    mobilenet_data.save_npy(mdir / "gemm_104_weight.npy", weights["gemm_104_weight"])
    x = mobilenet_data.preprocess()
    mobilenet_data.save_npy(d / "data" / "mobilenetv2" / "input.npy", x)
    (d / "mobilenet.onnx").write_bytes(mobilenet_data.build_onnx_model(weights).SerializeToString())
    (d / "index.html").write_text("<!doctype html><meta charset=utf-8><title>bench</title><p>bench</p>")
    if ort_web is not None:
        os.symlink(ort_web.resolve(), d / "ort")
        (d / "ortweb.html").write_text(ORT_WEB_PAGE)
    return x


class StaticServer:
    """Plain HTTP for the native browser: no shim injected, the page gets the browser's own WebNN."""

    def __init__(self, root: Path):
        handler = functools.partial(_QuietHandler, directory=str(root))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self):
        self.httpd.shutdown()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript",
                      ".wasm": "application/wasm"}

    def log_message(self, *args):
        pass


class EchoServer:
    """A bare websocket echo on its own thread (no origin checks, no protocol)."""

    def __init__(self):
        from websockets.asyncio.server import serve

        self.loop = asyncio.new_event_loop()
        ready = threading.Event()

        async def echo(ws):
            sink = None  # after "sink": bytes received, until "count" asks for them
            async for m in ws:
                if m == "sink":
                    sink = 0
                elif m == "count":
                    await ws.send(str(sink))
                    sink = None
                elif sink is not None:
                    sink += len(m)
                else:
                    await ws.send(m)

        async def main():
            self.server = await serve(echo, "127.0.0.1", 0, compression=None, max_size=None, ping_interval=None)
            self.url = f"ws://127.0.0.1:{next(iter(self.server.sockets)).getsockname()[1]}"
            ready.set()
            await self.server.serve_forever()

        threading.Thread(target=lambda: self.loop.run_until_complete(main()), daemon=True).start()
        ready.wait(30)

    def stop(self):
        self.loop.call_soon_threadsafe(self.server.close)


# --------------------------------------------------------------------------- measurements


def in_process_ort(app: Path, x: np.ndarray, iters: int) -> dict:
    """The same model in-process: ONNX Runtime with the host's session settings (thread count)."""
    import onnxruntime as ort

    from webnn_bridge.backends.onnxruntime import session_options

    opts = session_options(pooled=True)  # the host's own for a big graph: a pool that stops spinning after runs
    t0 = time.perf_counter()
    sess = ort.InferenceSession(str(app / "mobilenet.onnx"), opts, providers=["CPUExecutionProvider"])
    load = (time.perf_counter() - t0) * 1000
    times = []
    for i in range(iters + 3):
        t0 = time.perf_counter()
        sess.run(["probs"], {"input": x})
        if i >= 3:
            times.append((time.perf_counter() - t0) * 1000)
    return {"load": load, "infer": median(times)}


class HostTimes:
    """Host-side spans (benchmark instrumentation only): how much of a page's time the host spends."""

    def __init__(self):
        from webnn_bridge.bridge.api import MLContext
        from webnn_bridge.bridge.session import Session

        self.spans: dict[str, list[float]] = {"build": [], "dispatch": []}
        self._undo = [self._wrap(Session, "on_build", "build"), self._wrap(MLContext, "dispatch", "dispatch")]

    def _wrap(self, cls, name: str, label: str):
        real = getattr(cls, name)
        spans = self.spans[label]

        def timed(*a, **k):
            t0 = time.perf_counter()
            try:
                return real(*a, **k)
            finally:
                spans.append((time.perf_counter() - t0) * 1000)

        setattr(cls, name, timed)
        return lambda: setattr(cls, name, real)

    def take(self, label: str) -> list[float]:
        out = list(self.spans[label])
        self.spans[label].clear()
        return out

    def close(self):
        for undo in self._undo:
            undo()


def page_of(browser, url: str):
    page = browser.new_page()
    page.set_default_timeout(600_000)
    page.goto(url)
    return page


def ours(pw, app: Path, args, echo: EchoServer) -> dict:
    w1, w2 = tiny_weights()
    r: dict = {}
    with tempfile.TemporaryDirectory() as cache_dir:
        from webnn_bridge.backends.cache import CompileCache
        from webnn_bridge.bridge.api import ML

        host = start_host(own_process=True, app_dir=app, ml_factory=lambda: ML(compile_cache=CompileCache(cache_dir)))
        port = host.host.port
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        spans = HostTimes()
        try:
            page = page_of(browser, f"{host.url}/mobilenet.html")
            m = page.evaluate(MOBILENET_JS, [args.iters, 2])
            r.update(infer=median(m["times"]), build=m["builds"][0], rebuild=median(m["builds"][1:]), top=m["top"])
            builds = spans.take("build")
            r.update(host_build=builds[0], host_rebuild=median(builds[1:]), host_dispatch=median(spans.take("dispatch")))
            page.reload()
            spans.take("build")
            r["reload"] = page.evaluate(MOBILENET_JS, [0, 0])["builds"][0]
            r["host_reload"] = spans.take("build")[0]
            page.goto(f"{host.url}/index.html")
            r["tiny"] = median(page.evaluate(TINY_JS, [args.iters * 20, w1, w2]))
            n = 4 * 1024 * 1024
            r["transfer"] = 2 * 16 / (median(page.evaluate(TRANSFER_JS, [n, 5])) / 1000)
            e = page.evaluate(ECHO_JS, [echo.url, args.iters * 20, n, 5, upload_sizes()])
            r["echo_tiny"] = median(e["tiny"])
            r["echo_transfer"] = 2 * 16 / (median(e["transfer"]) / 1000)
            r["echo_upload"] = median(e["upload"])
            if args.ort_web:
                page.goto(f"{host.url}/ortweb.html")
                o = page.evaluate(ORT_WEB_JS, ["wasm", args.iters])
                r.update(ortweb_wasm=median(o["times"]), ortweb_wasm_load=o["load"])
                o = page.evaluate(ORT_WEB_JS, ["webnn", args.iters])
                r.update(ortweb_webnn=median(o["times"]), ortweb_webnn_load=o["load"])
            page.close()
            host.stop()
            # a restarted host (same port, so the same page origin): the disk cache serves the build
            host = start_host(own_process=True, app_dir=app, port=port, ml_factory=lambda: ML(compile_cache=CompileCache(cache_dir)))
            page = page_of(browser, f"{host.url}/mobilenet.html")
            spans.take("build")
            r["restart"] = page.evaluate(MOBILENET_JS, [0, 0])["builds"][0]
            r["host_restart"] = spans.take("build")[0]
        finally:
            spans.close()
            browser.close()
            host.stop()
    return r


def cpu_by_process() -> dict[str, float]:
    """CPU seconds of this process (the host, Playwright's client) and of each kind of process under
    it (Chromium's browser, renderer and network processes, Playwright's driver), live ones only."""
    tick = os.sysconf("SC_CLK_TCK")
    parents, used, kind = {}, {}, {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            cmd = Path(f"/proc/{pid}/cmdline").read_text()
        except OSError:
            continue
        p = int(pid)
        parents[p], used[p] = int(fields[1]), (int(fields[11]) + int(fields[12])) / tick
        kind[p] = ("host and Playwright client" if p == os.getpid() else "Playwright driver" if "run-driver" in cmd
                   else "renderer" if "type=renderer" in cmd else "network" if "NetworkService" in cmd
                   else "browser" if "--type=" not in cmd else "other")
    mine = {os.getpid()}
    for _ in range(8):  # descendants, level by level
        mine |= {p for p, pp in parents.items() if pp in mine}
    out: dict[str, float] = {}
    for p in mine:
        out[kind[p]] = out.get(kind[p], 0.0) + used[p]
    return out


def inference_cpu(pw, app: Path, iters: int, transport: str) -> dict[str, float]:
    """CPU milliseconds one MobileNetV2 inference costs each kind of process under Playwright with
    the shim's ``transport``: the difference between a loop of 4 * iters and one of iters inferences
    in the same page (its graph rebuilt from the page's caches), over 3 * iters."""
    host = start_host(own_process=True, app_dir=app)
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    try:
        page = browser.new_page()
        page.set_default_timeout(600_000)
        page.add_init_script(f"globalThis.WEBNN_BRIDGE_TRANSPORT = {json.dumps(transport)};")
        page.goto(f"{host.url}/mobilenet.html")
        page.evaluate(MOBILENET_JS, [3, 0])  # the first build
        spent = []
        for n in (iters, 4 * iters):
            before = cpu_by_process()
            page.evaluate(MOBILENET_JS, [n, 0])
            after = cpu_by_process()
            spent.append({k: v - before.get(k, 0.0) for k, v in after.items()})
        return {k: (v - spent[0].get(k, 0.0)) / (3 * iters) * 1000 for k, v in spent[1].items()}
    finally:
        browser.close()
        host.stop()


def mobilenet_under_playwright(pw, app: Path, iters: int, transport: str | None = None) -> dict:
    """MobileNetV2's first build and inference under Playwright (a fresh browser and host), with the
    shim's default transport or the one named (README "Transport")."""
    host = start_host(own_process=True, app_dir=app)
    cpu = cpu_seconds()
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    spans = HostTimes()
    try:
        page = browser.new_page()
        page.set_default_timeout(600_000)
        if transport:
            page.add_init_script(f"globalThis.WEBNN_BRIDGE_TRANSPORT = {json.dumps(transport)};")
        page.goto(f"{host.url}/mobilenet.html")
        m = page.evaluate(MOBILENET_JS, [iters, 2])  # the plain page's work: three builds, the inferences
        cpu = cpu_seconds() - cpu
        via = [s.via for s in host.host.sessions.values()]
        return {"infer": median(m["times"]), "build": m["builds"][0], "top": m["top"], "via": via,
                "host_dispatch": median(spans.take("dispatch")[3:]), "cpu": cpu}
    finally:
        spans.close()
        browser.close()
        host.stop()


# the same page under the project's pytest plugin (src/webnn_bridge/bridge/testing/pytest_plugin.py): its webnn_app fixture's
# host and its webnn_browser's Chromium, in a pytest run of its own
PLUGIN_TEST = """import json, os

def test_mobilenet(webnn_app):
    page = webnn_app(os.environ["BENCH_APP"]).open("mobilenet.html")
    page.set_default_timeout(600_000)
    m = page.evaluate(os.environ["BENCH_JS"], [int(os.environ["BENCH_ITERS"]), 0])
    with open(os.environ["BENCH_OUT"], "w") as f:
        json.dump(m, f)
"""


def mobilenet_under_plugin(app: Path, iters: int) -> dict:
    """MobileNetV2's first build and inference in a test that uses the pytest plugin's fixtures."""
    with tempfile.TemporaryDirectory() as d:
        test, out = Path(d) / "test_bench_plugin.py", Path(d) / "out.json"
        test.write_text(PLUGIN_TEST)
        env = {**os.environ, "BENCH_APP": str(app), "BENCH_JS": MOBILENET_JS, "BENCH_ITERS": str(iters),
               "BENCH_OUT": str(out)}
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", d, str(test)],
                       cwd=d, env=env, check=True, stdout=subprocess.DEVNULL, timeout=600)
        m = json.loads(out.read_text())
    return {"infer": median(m["times"]), "build": m["builds"][0], "top": m["top"]}


# the page's measurements, run on load, each printed to the console (Chromium's stderr) as one line;
# then the page reloads itself and builds again, and, once the script restarted the host (it
# serves "restarted.txt" then), reloads and builds once more
PLAIN_HOOK = """<script>addEventListener('load', async () => {
  const say = (key, values) => console.log(`BENCH ${key} ${values.join(',')}`);
  const phase = sessionStorage.getItem('bench-phase');
  if (phase === 'reload' || phase === 'restart') {
    const b = await (%(mobilenet)s)([0, 0]);
    say(phase, b.builds);
    say(phase + '_calls', b.calls);
    if (phase === 'restart') { say('done', [0]); return; }
    sessionStorage.setItem('bench-phase', 'restart');
    say('restart_host', [0]);
    while (!(await fetch('restarted.txt').then((r) => r.ok, () => false))) {
      await new Promise((ok) => setTimeout(ok, 100));
    }
    location.reload();
    return;
  }
  const m = await (%(mobilenet)s)([%(iters)d, 2]);
  say('builds', m.builds);
  say('calls', m.calls);
  say('times', m.times);
  say('top', [m.top]);
%(rest)s
  sessionStorage.setItem('bench-phase', 'reload');
  location.reload();
});</script>"""

# the tiny graph, transfer and echo rows of PLAIN_HOOK (left out by --builds-only)
PLAIN_REST = """  const pageLocal = typeof WebNNBridge === 'object' && WebNNBridge.pageLocal === true;
  if (pageLocal) {  // serve's default: the tiny graph runs in the page; then the same through the host
    say('tiny_page', await (%(tiny)s)(%(tiny_args)s));
    WebNNBridge.pageLocal = false;
  }
  say('tiny', await (%(tiny)s)(%(tiny_args)s));
  if (pageLocal) WebNNBridge.pageLocal = true;
  say('transfer', await (%(transfer)s)([%(n)d, 5]));
  const e = await (%(echo)s)(%(echo_args)s);
  say('echo_tiny', e.tiny);
  say('echo_transfer', e.transfer);
  say('echo_upload', e.upload);"""


def ours_plain(app: Path, iters: int, echo: EchoServer, transport: str | None = None,
               builds_only: bool = False) -> dict:
    """MobileNetV2, tiny graph and transfer rows through the shim in a Chromium that no driver is
    attached to.

    Playwright's DevTools session is sent every websocket frame of the page (the 600 KB input
    base64-encoded, each inference): the browser and the driver then burn CPU while the host
    dispatches, which inflates both the round trip and the host's dispatch on a small machine (the
    shim avoids it under a driver: README "Transport"). ``transport``: the shim's, chosen by the
    page (README "Transport"); by default a plain websocket here. ``builds_only``: MobileNetV2's
    builds (and the few inferences that check them) alone, no tiny graph, transfer or echo rows.
    The tiny round trip and the echo are also given as trimmed means ("tiny_tmean",
    "echo_tiny_tmean": sub-millisecond times come in 0.1 ms steps)."""
    w1, w2 = tiny_weights()
    n = 4 * 1024 * 1024
    rest = "" if builds_only else PLAIN_REST % {
        "tiny": TINY_JS, "tiny_args": json.dumps([iters * 20, w1, w2]), "transfer": TRANSFER_JS, "n": n,
        "echo": ECHO_JS, "echo_args": json.dumps([echo.url, iters * 20, n, 5, upload_sizes()])}
    hook = PLAIN_HOOK % {"mobilenet": MOBILENET_JS, "iters": iters, "rest": rest}
    if transport:  # the link's transport (README "Transport"), chosen when the page's first context opens
        hook = f"<script>globalThis.WEBNN_BRIDGE_TRANSPORT = {json.dumps(transport)};</script>" + hook
    (app / "mobilenet_plain.html").write_text((app / "mobilenet.html").read_text().replace("</body>", hook + "</body>"))
    (app / "restarted.txt").unlink(missing_ok=True)
    spans = HostTimes()
    with tempfile.TemporaryDirectory() as cache_dir, tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile:
        from webnn_bridge.backends.cache import CompileCache
        from webnn_bridge.bridge.api import ML

        def ml():
            return ML(compile_cache=CompileCache(cache_dir))

        from webnn_bridge.backends.page import default_runtime_folder

        runtime = default_runtime_folder()  # as serve starts: small graphs in the page where it is installed
        hosts = [start_host(own_process=True, app_dir=app, ml_factory=ml, page_runtime=runtime)]

        cpu = [cpu_seconds()]

        def restart(key: str) -> None:
            if key == "times":  # the page's start, its three MobileNetV2 builds and its inferences
                cpu.append(cpu_seconds())
            if key == "restart_host":  # the same port, so the same page origin: the disk caches serve it
                port = hosts[-1].host.port
                hosts[-1].stop()
                hosts.append(start_host(own_process=True, app_dir=app, port=port, ml_factory=ml, page_runtime=runtime))
                (app / "restarted.txt").write_text("restarted")

        try:
            lines = _console_lines([CHROMIUM, *CHROMIUM_ARGS, "--enable-logging=stderr", "--v=0",
                                    f"--user-data-dir={profile}", f"{hosts[0].url}/mobilenet_plain.html"],
                                   on_line=restart)
            dispatch = spans.take("dispatch")[3:iters + 3] or [0.0]  # the MobileNetV2 loop's, after its warm-up
            # the first MobileNetV2 build, two identical rebuilds, the tiny graph's, after a reload, after a restart
            builds = spans.take("build")
        finally:
            spans.close()
            hosts[-1].stop()
    r = {"infer": median(lines["times"]), "host_dispatch": median(dispatch), "top": int(lines["top"][0]),
         "cpu": cpu[1] - cpu[0],
         "build": lines["builds"][0], "rebuild": median(lines["builds"][1:]),
         "host_build": builds[0], "host_rebuild": median(builds[1:3]),
         "reload": lines["reload"][0], "host_reload": builds[-2],
         "restart": lines["restart"][0], "host_restart": builds[-1],
         # the builder calls' share of each (constant()'s copies and digests started included)
         "calls_build": lines["calls"][0], "calls_rebuild": median(lines["calls"][1:]),
         "calls_reload": lines["reload_calls"][0], "calls_restart": lines["restart_calls"][0]}
    if builds_only:
        return r
    if lines.get("tiny_page"):
        r["tiny_page_tmean"] = trimmed_mean(lines["tiny_page"])
    return {**r, "tiny": median(lines["tiny"]), "tiny_tmean": trimmed_mean(lines["tiny"]),
            "echo_tiny_tmean": trimmed_mean(lines["echo_tiny"]), "transfer": 2 * 16 / (median(lines["transfer"]) / 1000),
            "echo_tiny": median(lines["echo_tiny"]), "echo_transfer": 2 * 16 / (median(lines["echo_transfer"]) / 1000),
            "echo_upload": median(lines["echo_upload"])}


# ORT-web's rows with no driver attached: the page runs each execution provider on load and logs the
# times (or the error) to the console
ORT_PLAIN_HOOK = """<script>addEventListener('load', async () => {
  const say = (key, values) => console.log(`BENCH ${key} ${values.join(',')}`);
  try {
    for (const ep of %(eps)s) {
      const o = await (%(ort)s)([ep, %(iters)d]);
      say(`ortweb_${ep}`, o.times);
      say(`ortweb_${ep}_load`, [o.load]);
      say(`ortweb_${ep}_top`, [o.top]);
    }
  } catch (e) {
    console.log(`BENCH error ${e}`);
  }
  say('done', [0]);
});</script>"""


def ortweb_plain(cmd: list[str], base_url: str, app: Path, iters: int, eps: list[str], env=None) -> dict:
    """onnxruntime-web's MobileNetV2 rows (one per execution provider) in a browser (``cmd``, to which
    the page's URL is appended) that no driver is attached to."""
    hook = ORT_PLAIN_HOOK % {"eps": json.dumps(eps), "ort": ORT_WEB_JS, "iters": iters}
    (app / "ortweb_plain.html").write_text(ORT_WEB_PAGE + hook)
    lines = page_console(cmd, f"{base_url}/ortweb_plain.html", env=env)
    r: dict = {}
    for ep in eps:
        r.update({f"ortweb_{ep}": median(lines[f"ortweb_{ep}"]), f"ortweb_{ep}_load": lines[f"ortweb_{ep}_load"][0],
                  f"ortweb_{ep}_top": int(lines[f"ortweb_{ep}_top"][0])})
    return r


def ours_ortweb_plain(app: Path, iters: int) -> dict:
    """ORT-web's WebNN EP (and its wasm, for scale) on ours, in a Chromium with no driver attached."""
    host = start_host(own_process=True, app_dir=app)
    try:
        return ortweb_plain([CHROMIUM, *CHROMIUM_ARGS], host.url, app, iters, ["wasm", "webnn"])
    finally:
        host.stop()


BUILD_KEYS = ("build", "rebuild", "reload", "restart")


def medians(runs: list[dict]) -> dict:
    """Per-measurement medians of several runs; ratios of build times are taken within each run
    (key "ratio_X": X / that run's first build), and each run's builds are kept ("runs")."""
    out = {k: median([r[k] for r in runs]) for k in runs[0] if k != "top"}
    out["top"] = runs[0]["top"]
    for k in BUILD_KEYS[1:]:
        out["ratio_" + k] = median([r[k] / r["build"] for r in runs])
    out["runs"] = [{k: r[k] for k in BUILD_KEYS} for r in runs]
    return out


def upload_sizes() -> list[int]:
    """The byte sizes of MobileNetV2's constants (106 arrays, 13.3 MiB), in the page's order."""
    return [a.nbytes for a in mobilenet_data.load_weights().values()]


def tiny_weights() -> tuple[list[float], list[float]]:
    rng = np.random.default_rng(0)
    return (rng.standard_normal((64, 128)).astype(np.float32).ravel().tolist(),
            rng.standard_normal((128, 10)).astype(np.float32).ravel().tolist())


def _console_lines(cmd: list[str], timeout_s: float = 600, on_line=None, env=None) -> dict[str, list[float]]:
    """Run a browser until its page logs "BENCH done"; each "BENCH key v1,v2,..." line as key: values
    (``on_line(key)`` is called as each arrives); a "BENCH error ..." line raises."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    watchdog = threading.Timer(timeout_s, proc.kill)
    watchdog.start()
    found: dict[str, list[float]] = {}
    try:
        for line in proc.stderr:
            if "BENCH error" in line:
                raise RuntimeError("the page failed: " + line[line.index("BENCH error") + 12:].split('", source:')[0])
            m = re.search(r"BENCH (\w+) ([-0-9.e,]+)", line)
            if m:
                found[m[1]] = [float(v) for v in m[2].split(",")]
                if on_line is not None:
                    on_line(m[1])
            if "done" in found:
                return found
        raise RuntimeError(f"the browser exited after logging only {sorted(found)}")
    finally:
        watchdog.cancel()
        proc.terminate()  # the browser closes its child processes
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def page_console(cmd: list[str], url: str, env=None, on_line=None) -> dict[str, list[float]]:
    """_console_lines of a browser (``cmd``) opening ``url`` with a fresh profile, logging to stderr."""
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile:
        return _console_lines([*cmd, "--enable-logging=stderr", "--v=0", f"--user-data-dir={profile}", url],
                              on_line=on_line, env=env)


def native_env(exe: Path) -> dict:
    return {**os.environ, "LD_LIBRARY_PATH": f"{exe.parent}:{exe.parent / 'lib'}"}


def native_ortweb_plain(app: Path, args) -> dict:
    """ORT-web's WebNN EP on native Chromium, with no driver attached."""
    exe = Path(args.native_chromium)
    server = StaticServer(app)
    try:
        return ortweb_plain([str(exe), *NATIVE_ARGS, "--headless"], server.url, app, args.iters, ["webnn"],
                            env=native_env(exe))
    finally:
        server.stop()


def native(pw, app: Path, args) -> dict:
    exe = Path(args.native_chromium)
    env = native_env(exe)
    server = StaticServer(app)
    browser = pw.chromium.launch(executable_path=str(exe), args=NATIVE_ARGS, env=env)
    r: dict = {}
    try:
        page = page_of(browser, f"{server.url}/mobilenet.html")
        m = page.evaluate(MOBILENET_JS, [args.iters, 2])
        r.update(infer=median(m["times"]), build=m["builds"][0], rebuild=median(m["builds"][1:]), top=m["top"])
        if args.ort_web:
            page.goto(f"{server.url}/ortweb.html")
            o = page.evaluate(ORT_WEB_JS, ["webnn", args.iters])
            r.update(ortweb_webnn=median(o["times"]), ortweb_webnn_load=o["load"])
    finally:
        browser.close()
        server.stop()
    return r


# --------------------------------------------------------------------------- report


def report(p: dict, q: dict, o: dict, n: dict | None, nq: dict | None = None) -> None:
    """p: in-process ORT, q: ours with no driver attached, o: ours under Playwright, n: native (under
    Playwright), nq: native's ORT-web rows with no driver attached."""
    def ms(v):
        return "-" if v is None else f"{v:9.2f} ms"

    def ratio(a, b, target: str = ""):
        if a is None or b is None:
            return "-"
        return f"{a / b:6.2f}x" + (f"  (target {target})" if target else "")

    n = n or {}
    print("\nMobileNetV2 inference (write + dispatch + read; median)")
    print(f"  in-process ONNX Runtime       {ms(p['infer'])}")
    print(f"  ours (shim + host)            {ms(q['infer'])}   vs in-process {ratio(q['infer'], p['infer'], '<= 1.3x')}"
          f"   vs native {ratio(q['infer'], n.get('infer'), '<= 0.6x')}")
    print(f"    of which host dispatch      {ms(q['host_dispatch'])}   vs in-process {ratio(q['host_dispatch'], p['infer'])}")
    print(f"  ours under Playwright         {ms(o['infer'])}   (through the page's shared worker: README 'Transport')")
    print(f"    of which host dispatch      {ms(o['host_dispatch'])}   vs in-process {ratio(o['host_dispatch'], p['infer'])}")
    print(f"  native Chromium WebNN         {ms(n.get('infer'))}")
    nq = nq or {}
    for title, ours_r, native_r in (("no driver", q, nq), ("under Playwright", o, n)):
        print(f"  ORT-web ({title}):")
        print(f"    WebNN EP on ours            {ms(ours_r.get('ortweb_webnn'))}   vs in-process "
              f"{ratio(ours_r.get('ortweb_webnn'), p['infer'], '<= 1.3x')}   vs native EP "
              f"{ratio(ours_r.get('ortweb_webnn'), native_r.get('ortweb_webnn'), '<= 0.6x')}")
        print(f"    WebNN EP on native          {ms(native_r.get('ortweb_webnn'))}")
        print(f"    wasm (1 thread)             {ms(ours_r.get('ortweb_wasm'))}")
    print(f"  top-1 class: ours {q['top']} (under Playwright {o['top']}), native {n.get('top', '-')}"
          f"; ORT-web WebNN EP with no driver: on ours {q.get('ortweb_webnn_top', '-')}, "
          f"on native {nq.get('ortweb_webnn_top', '-')}")
    print("\nMobileNetV2 build()")
    print("  (page: builder calls + build(); host: the build message, of that)")
    for title, r in ((f"no driver (medians of {len(q['runs'])} runs)", q), ("under Playwright", o)):
        print(f"  {title}:")
        for label, key in (("first build", "build"), ("identical rebuild", "rebuild"),
                           ("after a page reload", "reload"), ("after a host restart", "restart")):
            vs = f"vs native {ratio(r[key], n.get('build'), '<= 1x')}" if key == "build" else \
                f"vs first {r['ratio_' + key]:6.2f}x  (target <= 0.1x)" if "ratio_" + key in r else \
                f"vs first {ratio(r[key], r['build'], '<= 0.1x')}"
            print(f"  ours, {label:23} {ms(r[key])}   {vs}   host {ms(r['host_' + key])}"
                  + ("" if key == "build" else f" ({ratio(r['host_' + key], r['host_build'])} of the first)"))
    if len(q["runs"]) > 1:
        print("  no driver, each run: " + "; ".join(
            " / ".join(f"{r[k]:.0f}" for k in BUILD_KEYS) for r in q["runs"]) + " ms (first / rebuild / reload / restart)")
    print(f"  bare websocket upload of the constants {ms(q.get('echo_upload'))}   (a fresh copy of each of the"
          f" {len(upload_sizes())} arrays sent as one message, to a server that counts them: the first build's floor)")
    print(f"  native, first build           {ms(n.get('build'))}")
    print(f"  native, identical rebuild     {ms(n.get('rebuild'))}")
    print(f"  in-process ORT session load   {ms(p['load'])}")
    for title, r in (("", q), (" (under Playwright)", o)):
        print(f"\nTiny graph and transfer{title}")
        print(f"  ours: write+dispatch+read     {ms(r['tiny'])}   (target <= 0.3 ms)")
        print(f"  bare websocket echo (256 B)   {ms(r['echo_tiny'])}   ours vs echo {ratio(r['tiny'], r['echo_tiny'])}")
        print(f"  ours: 16 MiB write + read     {r['transfer']:9.1f} MiB/s")
        print(f"  bare websocket echo 16 MiB    {r['echo_transfer']:9.1f} MiB/s   ours vs echo "
              f"{r['transfer'] / r['echo_transfer'] * 100:5.1f} %  (target >= 50 %)")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--iters", type=int, default=30, help="MobileNetV2 inferences per measurement (x20 tiny ones)")
    p.add_argument("--native-chromium", metavar="PATH", help="a Chromium with WebNN (libraries beside it)")
    p.add_argument("--ort-web", metavar="DIR", type=Path, help="onnxruntime-web's dist/ directory")
    p.add_argument("--runs", type=int, default=1, help="no-driver runs (fresh browser and host each); medians")
    p.add_argument("--rounds", type=int, default=1,
                   help="repeat the no-driver rows of ours and of every peer this many times, interleaved, and "
                        "print each target's ratio per round and their median (the table is the first round's)")
    p.add_argument("--builds-only", action="store_true",
                   help="only MobileNetV2's build rows with no driver (first build, rebuild, after a reload, after a "
                        "restart; ours and native's, --rounds times interleaved)")
    p.add_argument("--builds-model", choices=("mobilenet", *HELD_OUT_PAGES), default="mobilenet",
                   help="with --builds-only: the graph built (held out: LeNet, placed in the page; the tiny MLP)")
    p.add_argument("--drivers", action="store_true",
                   help="only the rows with and without a driver (README 'Transport'), --rounds times interleaved")
    args = p.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as d, sync_playwright() as pw:
        app = Path(d)
        x = make_app(app, args.ort_web)
        echo = EchoServer()
        rounds = []
        try:
            if args.drivers:
                drivers = [driver_round(pw, app, args, echo) for _ in range(args.rounds)]
                report_drivers(drivers)
                return
            if args.builds_only:
                if args.builds_model != "mobilenet":
                    use_held_out_builds(app, args.builds_model)
                report_builds([builds_round(pw, app, args, echo) for _ in range(args.rounds)], args.builds_model)
                return
            o = ours(pw, app, args, echo)
            for _ in range(args.rounds):
                plain = medians([ours_plain(app, args.iters, echo) for _ in range(args.runs)])
                if args.ort_web:
                    plain.update(ours_ortweb_plain(app, args.iters))
                n = native(pw, app, args) if args.native_chromium else None
                nq = native_ortweb_plain(app, args) if args.native_chromium and args.ort_web else None
                rounds.append((in_process_ort(app, x, args.iters), plain, n, nq))
        finally:
            echo.stop()
    inproc, plain, n, nq = rounds[0]
    report(inproc, plain, o, n, nq)
    if len(rounds) > 1:
        report_rounds(rounds)


# each target's ratio in one round: (label, a, b) with a / b the ratio; None where a peer is missing
ROUND_RATIOS = (
    ("inference, ours / in-process ORT (<= 1.3x)", lambda p, q, n, nq: (q["infer"], p["infer"])),
    ("inference, ours / native (<= 0.6x)", lambda p, q, n, nq: (q["infer"], n and n["infer"])),
    ("ORT-web WebNN EP, ours / native (<= 0.6x)",
     lambda p, q, n, nq: (q.get("ortweb_webnn"), nq and nq.get("ortweb_webnn"))),
    ("first build, ours / native (<= 1x)", lambda p, q, n, nq: (q["build"], n and n["build"])),
    ("first build / bare upload of its constants", lambda p, q, n, nq: (q["build"], q.get("echo_upload"))),
    ("native first build / our bare upload floor", lambda p, q, n, nq: (n and n["build"], q.get("echo_upload"))),
    ("identical rebuild / first (<= 0.1x)", lambda p, q, n, nq: (q["rebuild"], q["build"])),
    ("after a page reload / first (<= 0.1x)", lambda p, q, n, nq: (q["reload"], q["build"])),
    ("after a host restart / first (<= 0.1x)", lambda p, q, n, nq: (q["restart"], q["build"])),
    ("tiny round trip / bare echo", lambda p, q, n, nq: (q["tiny"], q["echo_tiny"])),
    ("transfer, ours / bare echo (>= 0.5x)", lambda p, q, n, nq: (q["transfer"], q["echo_transfer"])),
)


def builds_round(pw, app: Path, args, echo: EchoServer) -> dict:
    """One round of --builds-only: ours with no driver (a fresh browser and host: the first build,
    two identical rebuilds, after a reload, after a restart), then native Chromium's first build."""
    r = {"ours": ours_plain(app, 1, echo, builds_only=True)}
    if args.native_chromium:
        r["native"] = native(pw, app, argparse.Namespace(**{**vars(args), "iters": 1, "ort_web": None}))
    r["load"] = os.getloadavg()[0]
    q, n = r["ours"], r.get("native", {})
    print("  round: ours " + " / ".join(f"{q[k]:.0f}" for k in BUILD_KEYS)
          + " ms (builder calls " + " / ".join(f"{q['calls_' + k]:.0f}" for k in BUILD_KEYS)
          + "; host " + " / ".join(f"{q['host_' + k]:.0f}" for k in BUILD_KEYS) + ")"
          + (f"; native {n['build']:.0f} ms" if n else "") + f"; load {r['load']:.1f}", flush=True)
    return r


def report_builds(rounds: list[dict], model: str = "mobilenet") -> None:
    name = {"mobilenet": "MobileNetV2", "lenet": "LeNet (held out)", "tiny": "the tiny MLP (held out)"}[model]
    print(f"\n{name} build(), no driver (medians of {len(rounds)} interleaved rounds; ms; "
          "page: builder calls + build(), of which the builder calls; host: its build message)")
    for key, title in (("build", "first build"), ("rebuild", "identical rebuild"),
                       ("reload", "after a page reload"), ("restart", "after a host restart")):
        print(f"  ours, {title:22} {median([r['ours'][key] for r in rounds]):8.1f}   builder calls "
              f"{median([r['ours']['calls_' + key] for r in rounds]):7.1f}   host "
              f"{median([r['ours']['host_' + key] for r in rounds]):7.1f}")
    natives = [r["native"]["build"] for r in rounds if "native" in r]
    if natives:
        print(f"  native, first build          {median(natives):8.1f}")
    print("  ratios, each round's (their median):")
    pairs = {"first build / native (<= 1x)": [(r["ours"]["build"], r["native"]["build"]) for r in rounds if "native" in r]}
    for key in BUILD_KEYS[1:]:
        pairs[f"{key} / first (<= 0.15x)"] = [(r["ours"][key], r["ours"]["build"]) for r in rounds]
    for label, ab in pairs.items():
        if ab:
            print(f"    {label:36} {median([a / b for a, b in ab]):5.2f}x   ({', '.join(f'{a / b:.2f}' for a, b in ab)})")


def driver_round(pw, app: Path, args, echo: EchoServer) -> dict:
    """One round of MobileNetV2 with and without a driver, each in a fresh browser and host: no driver
    (the shim's default transport there, a plain websocket, and the shared worker's relay), under
    Playwright (its default there, the shared worker's relay, and a plain websocket), under the pytest
    plugin's fixtures, and native Chromium (under Playwright)."""
    r = {"plain": ours_plain(app, args.iters, echo), "pw": mobilenet_under_playwright(pw, app, args.iters),
         "plugin": mobilenet_under_plugin(app, args.iters),
         "pw_ws": mobilenet_under_playwright(pw, app, args.iters, "websocket"),
         "plain_sw": ours_plain(app, args.iters, echo, "shared-worker")}
    if args.native_chromium:
        r["native"] = native(pw, app, args)
    r["cpu_sw"] = inference_cpu(pw, app, args.iters, "shared-worker")
    r["cpu_ws"] = inference_cpu(pw, app, args.iters, "websocket")
    r["load"] = os.getloadavg()[0]
    print("  round: " + ", ".join(f"{k} {v['infer']:.1f} ms / build {v['build']:.0f} ms" for k, v in r.items()
                                  if isinstance(v, dict) and "infer" in v)
          + f"; CPU per inference {sum(r['cpu_sw'].values()):.1f} / {sum(r['cpu_ws'].values()):.1f} ms"
          + f"; load {r['load']:.1f}", flush=True)
    return r


# (label, a, b): each round's a / b
DRIVER_RATIOS = (
    ("inference, Playwright / no driver (<= 1.2x)", lambda r: (r["pw"]["infer"], r["plain"]["infer"])),
    ("inference, Playwright / native (<= 1x)", lambda r: (r["pw"]["infer"], r.get("native", {}).get("infer"))),
    ("first build, Playwright / no driver (<= 1.3x)", lambda r: (r["pw"]["build"], r["plain"]["build"])),
    ("inference, plugin fixtures / no driver (<= 1.2x)", lambda r: (r["plugin"]["infer"], r["plain"]["infer"])),
    ("inference, plugin fixtures / native (<= 1x)",
     lambda r: (r["plugin"]["infer"], r.get("native", {}).get("infer"))),
    ("first build, plugin fixtures / no driver (<= 1.3x)", lambda r: (r["plugin"]["build"], r["plain"]["build"])),
    ("inference, Playwright + websocket / no driver", lambda r: (r["pw_ws"]["infer"], r["plain"]["infer"])),
    ("first build, Playwright + websocket / no driver", lambda r: (r["pw_ws"]["build"], r["plain"]["build"])),
    ("inference, no driver: shared worker / websocket", lambda r: (r["plain_sw"]["infer"], r["plain"]["infer"])),
    ("first build, no driver: shared worker / websocket", lambda r: (r["plain_sw"]["build"], r["plain"]["build"])),
    ("CPU, Playwright / no driver", lambda r: (r["pw"]["cpu"], r["plain"]["cpu"])),
    ("CPU, Playwright + websocket / no driver", lambda r: (r["pw_ws"]["cpu"], r["plain"]["cpu"])),
    ("CPU, no driver: shared worker / websocket", lambda r: (r["plain_sw"]["cpu"], r["plain"]["cpu"])),
)


def report_drivers(rounds: list[dict]) -> None:
    def ms(key, field):
        vals = [r[key][field] for r in rounds if key in r]
        return f"{median(vals):8.1f} ms" if vals else "       - "

    loads = ", ".join(f"{r['load']:.1f}" for r in rounds)
    print(f"\nMobileNetV2 with and without a driver (medians of {len(rounds)} interleaved rounds; "
          f"1-minute load average after each: {loads})")
    print("                                          inference    first build   host dispatch   CPU, all processes")
    for key, title in (("plain", "no driver (websocket, the default)"), ("plain_sw", "no driver, shared worker"),
                       ("pw", "Playwright (shared worker, the default)"), ("plugin", "pytest plugin fixtures"),
                       ("pw_ws", "Playwright, websocket"), ("native", "native Chromium (Playwright)")):
        cpus = [r[key]["cpu"] for r in rounds if "cpu" in r.get(key, {})]
        print(f"  {title:39} {ms(key, 'infer')}  {ms(key, 'build')}  "
              + (ms(key, "host_dispatch") if all("host_dispatch" in r.get(key, {}) for r in rounds) else "       -   ")
              + (f"    {median(cpus):6.2f} s" if cpus else ""))
    print("  (CPU: from the browser's launch to the end of the inferences: startup, three builds, the inferences)")
    vias = {v for r in rounds for v in r["pw"]["via"]}
    tops = {r[k]["top"] for r in rounds for k in ("plain", "plain_sw", "pw", "plugin", "pw_ws", "native") if k in r}
    print(f"  transport the host saw under Playwright: {sorted(vias)}; top-1 classes: {sorted(tops)}")
    kinds = sorted({k for r in rounds for key in ("cpu_sw", "cpu_ws") for k in r[key]})
    print("  CPU per inference under Playwright, ms by process (median of the rounds):")
    for key, title in (("cpu_sw", "shared worker (the default)"), ("cpu_ws", "the page's websocket")):
        per = {k: median([r[key].get(k, 0.0) for r in rounds]) for k in kinds}
        total = median([sum(r[key].values()) for r in rounds])
        print(f"    {title:28} total {total:6.1f}: " + ", ".join(f"{k} {v:.1f}" for k, v in per.items()))
    print("  ratios, each round's (their median):")
    for label, pick in DRIVER_RATIOS:
        pairs = [(a, b) for a, b in (pick(r) for r in rounds) if a is not None and b]
        if pairs:
            print(f"    {label:50} {median([a / b for a, b in pairs]):5.2f}x   "
                  f"({', '.join(f'{a / b:.2f}' for a, b in pairs)})")


def report_rounds(rounds: list[tuple]) -> None:
    print(f"\nEach target's ratio in each of {len(rounds)} rounds (no driver), their median, and the medians"
          " of its two sides (ms; MiB/s for transfer)")
    for label, pick in ROUND_RATIOS:
        pairs = [(a, b) for a, b in (pick(*r) for r in rounds) if a is not None and b]
        if pairs:
            ratios = ", ".join(f"{a / b:.2f}" for a, b in pairs)
            print(f"  {label:44} {median([a / b for a, b in pairs]):6.2f}x   ({ratios}; medians "
                  f"{median([a for a, _ in pairs]):.1f} vs {median([b for _, b in pairs]):.1f})")


if __name__ == "__main__":
    main()
