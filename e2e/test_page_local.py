"""Graphs in the page (serve --page-local, backends/page.py): a host that serves onnxruntime-web's
wasm runtime places small graphs in the page that built them; the page runs them without a round
trip, and tensors move between the page and the host in timeline order when graphs on both sides
use them. Observed from real pages against a host started with ``page_runtime=``."""

from __future__ import annotations

import os
import re

import numpy as np
import pytest

from e2e.conftest import start_host
from webnn_bridge.backends.page import default_runtime_folder

RUNTIME = default_runtime_folder()

SETUP = """
const ctx = await navigator.ml.createContext();
const f32 = (shape) => ({dataType: 'float32', shape});
const tensor = (shape, extra) => ctx.createTensor(Object.assign({dataType: 'float32', shape, readable: true, writable: true}, extra || {}));
const read = async (t) => Array.from(new Float32Array(await ctx.readTensor(t)));
const small = async () => {  // y = relu(x * 2 + 1): a few FLOPs, in the page
  const b = new MLGraphBuilder(ctx);
  const x = b.input('x', f32([4]));
  return b.build({y: b.relu(b.add(b.mul(x, b.constant(f32([4]), new Float32Array([2, 2, 2, 2]))),
                                   b.constant(f32([4]), new Float32Array([1, 1, 1, 1]))))});
};
const big = async (n) => {  // y = x @ I + 1 with a 512x512 identity: 2*n*512*512 FLOPs, on the host for n = 128
  const b = new MLGraphBuilder(ctx);
  const x = b.input('x', f32([n, 512]));
  const w = new Float32Array(512 * 512);
  for (let i = 0; i < 512; i++) w[i * 512 + i] = 1;
  return b.build({y: b.add(b.matmul(x, b.constant(f32([512, 512]), w)), b.constant(f32([1]), new Float32Array([1])))});
};
"""

# small() on [-3, -1, 0, 2] as a fresh page's first graph: run before and after it settled (the
# host runs it until the page's runtime has started), where it ran, and its results ([0, 0, 1, 5]
# wherever it runs)
RUN_SMALL = """
const g = await small();
const before = WebNNBridge.inPage(g);
const x = await tensor([4]); const y = await tensor([4]);
ctx.writeTensor(x, new Float32Array([-3, -1, 0, 2]));
ctx.dispatch(g, {x}, {y});
const first = await read(y);
const settled = await WebNNBridge.settled(g);
ctx.dispatch(g, {x}, {y});
return {before, settled, inPage: WebNNBridge.inPage(g), first, y: await read(y)};
"""


def small_result(in_page: bool) -> dict:
    return {"before": False, "settled": in_page, "inPage": in_page, "first": [0, 0, 1, 5], "y": [0, 0, 1, 5]}


@pytest.fixture(scope="module")
def page_host(app_dir):
    if RUNTIME is None:
        why = "onnxruntime-web's wasm runtime is not in .ortweb/: run scripts/install_ortweb.sh (scripts/test.sh does)"
        if os.environ.get("CI") == "true":
            pytest.fail(why)
        pytest.skip(why)
    h = start_host(app_dir=app_dir, page_runtime=RUNTIME)
    yield h
    h.stop()


WARM_RUNS = 40  # warm_host's [page] warm_up_runs


@pytest.fixture(scope="module")
def warm_host(app_dir, page_host):
    """A host whose rules warm a page's session with exactly WARM_RUNS runs, once its graph has
    been dispatched twice (rules.toml §4c warm_up_*; warm_up_ms far beyond what the runs take)."""
    from webnn_bridge.bridge.api import ML
    from webnn_bridge.policy import engine

    rules = engine.load_rules()
    rules["page"].update(warm_up_runs=WARM_RUNS, warm_up_ms=600_000, warm_up_after=2)
    h = start_host(app_dir=app_dir, page_runtime=RUNTIME, ml_factory=lambda: ML(rules=rules))
    yield h
    h.stop()


@pytest.fixture(scope="module")
def budget_host(app_dir, page_host):
    """A host whose rules let a page's warm-ups run 150 ms in all, with no bound per graph."""
    from webnn_bridge.bridge.api import ML
    from webnn_bridge.policy import engine

    rules = engine.load_rules()
    rules["page"].update(warm_up_runs=10**6, warm_up_ms=600_000, warm_up_after=1, warm_up_page_ms=150)
    h = start_host(app_dir=app_dir, page_runtime=RUNTIME, ml_factory=lambda: ML(rules=rules))
    yield h
    h.stop()


# the page's own onnxruntime-web module (the shim imports the same URL: the same module), its
# sessions' creations, runs and releases counted
COUNT_RUNS = """
const ort = await import(`${location.origin}/%s/ort.wasm.bundle.min.mjs`);
const counts = {runs: 0, released: 0, created: 0, inputs: []};
const {run: run0, release: release0} = ort.InferenceSession.prototype;
ort.InferenceSession.prototype.run = function (feeds, ...rest) {
  counts.runs++;
  counts.inputs.push(Array.from(Object.values(feeds)[0].data));
  return run0.call(this, feeds, ...rest);
};
ort.InferenceSession.prototype.release = function (...a) { counts.released++; return release0.apply(this, a); };
const create0 = ort.InferenceSession.create;
ort.InferenceSession.create = async (...a) => { const s = await create0(...a); counts.created++; return s; };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const until = async (ok) => { const t0 = performance.now(); while (!ok() && performance.now() - t0 < 30000) await sleep(5); };
"""


def run(page, host, body: str, before: str = ""):
    page.goto(f"{host.url}/basic.html")
    return page.evaluate(f"async () => {{ {before}\n{SETUP}\n{body} }}")


def test_a_small_graph_runs_in_the_page_and_a_big_one_on_the_host(page, page_host):
    r = run(page, page_host, """
        const g = await small();
        await WebNNBridge.settled(g);
        const G = await big(128);
        const x = await tensor([4]); const y = await tensor([4]);
        ctx.writeTensor(x, new Float32Array([-3, -1, 0, 2]));
        ctx.dispatch(g, {x}, {y});
        const X = await tensor([128, 512]); const Y = await tensor([128, 512]);
        const xs = new Float32Array(128 * 512).map((_, i) => i % 7);
        ctx.writeTensor(X, xs);
        ctx.dispatch(G, {x: X}, {y: Y});
        const ys = new Float32Array(await ctx.readTensor(Y));
        return {y: await read(y), small: WebNNBridge.inPage(g), big: WebNNBridge.inPage(G),
                bigOk: ys.every((v, i) => v === xs[i] + 1), devices: g.devices,
                latency: await WebNNBridge.latency(g)};
    """)
    latency = r.pop("latency")  # a bucket of the page's own run time (the first run: any bucket)
    assert r == {"y": [0, 0, 1, 5], "small": True, "big": False, "bigOk": True, "devices": ["cpu"]}
    assert re.fullmatch(r"\d+-\d+ ms", latency), latency


def test_tensors_move_between_the_page_and_the_host_in_timeline_order(page, page_host):
    r = run(page, page_host, """
        const b = new MLGraphBuilder(ctx);
        const x = b.input('x', f32([64, 512]));
        const P = await b.build({y: b.relu(b.add(b.mul(x, b.constant(f32([1]), new Float32Array([2]))),
                                                 b.constant(f32([1]), new Float32Array([1]))))});
        await WebNNBridge.settled(P);
        const H = await big(64);  // 33.6 MFLOP: over [page] max_flops, on the host
        const [a, p1, h1, p2, p3] = await Promise.all([0, 1, 2, 3, 4].map(() => tensor([64, 512])));
        const xs = new Float32Array(64 * 512).map((_, i) => (i % 7) - 3);
        const xs2 = new Float32Array(64 * 512).map((_, i) => (i % 5) - 2);
        // no await between these: each call's effect must follow the ones before it
        ctx.writeTensor(a, xs);
        ctx.dispatch(P, {x: a}, {y: p1});       // page: a (written on the host) moves to the page
        ctx.writeTensor(a, xs2);                // a lives in the page now: written there, after the run above
        ctx.dispatch(H, {x: p1}, {y: h1});      // host: p1 moves to the host before this dispatch
        ctx.dispatch(P, {x: h1}, {y: p2});      // page: h1 comes back from the host
        ctx.dispatch(P, {x: a}, {y: p3});       // page: reads the second write
        const [rp1, rh1, rp2, rp3] = await Promise.all([p1, h1, p2, p3].map(async (t) => new Float32Array(await ctx.readTensor(t))));
        const f = (v) => Math.max(2 * v + 1, 0);
        const bad = (got, want) => got.findIndex((v, i) => v !== want(i));
        return {P: WebNNBridge.inPage(P), H: WebNNBridge.inPage(H),
                p1: bad(rp1, (i) => f(xs[i])), h1: bad(rh1, (i) => f(xs[i]) + 1),
                p2: bad(rp2, (i) => f(f(xs[i]) + 1)), p3: bad(rp3, (i) => f(xs2[i]))};
    """)
    assert r == {"P": True, "H": False, "p1": -1, "h1": -1, "p2": -1, "p3": -1}


def test_the_page_takes_over_a_graph_the_host_ran_while_its_runtime_started(page, page_host):
    """A fresh page's first graph: build() does not wait for the runtime; the host runs its
    dispatches until the page's session is ready, then the page does. The results follow the
    page's calls in order across the switch."""
    r = run(page, page_host, """
        const b = new MLGraphBuilder(ctx);
        const x = b.input('x', f32([64, 512]));
        const P = await b.build({y: b.relu(b.add(b.mul(x, b.constant(f32([1]), new Float32Array([2]))),
                                                 b.constant(f32([1]), new Float32Array([-3]))))});
        const before = WebNNBridge.inPage(P);
        const [a, p1, p2, p3] = await Promise.all([0, 1, 2, 3].map(() => tensor([64, 512])));
        const xs = new Float32Array(64 * 512).map((_, i) => (i % 9) - 4);
        ctx.writeTensor(a, xs);
        ctx.dispatch(P, {x: a}, {y: p1});    // on the host: the page's session is starting
        ctx.dispatch(P, {x: p1}, {y: p2});
        const settled = await WebNNBridge.settled(P);
        ctx.dispatch(P, {x: p2}, {y: p3});   // in the page: p2 comes from the host first
        ctx.writeTensor(a, new Float32Array(64 * 512));  // in the page now: zeros
        ctx.dispatch(P, {x: a}, {y: p1});
        const [r1, r2, r3] = await Promise.all([p1, p2, p3].map(async (t) => new Float32Array(await ctx.readTensor(t))));
        const f = (v) => Math.max(2 * v - 3, 0);
        const bad = (got, want) => got.findIndex((v, i) => v !== want(i));
        return {before, settled, after: WebNNBridge.inPage(P), p1: bad(r1, () => 0),
                p2: bad(r2, (i) => f(f(xs[i]))), p3: bad(r3, (i) => f(f(f(xs[i]))))};
    """)
    assert r == {"before": False, "settled": True, "after": True, "p1": -1, "p2": -1, "p3": -1}


def test_a_graph_destroyed_before_the_page_took_it_over_stays_gone(page, page_host):
    r = run(page, page_host, """
        const d = await small();
        d.destroy();
        const gone = await WebNNBridge.settled(d);   // its page session is released, never used
        const g = await small();
        await WebNNBridge.settled(g);
        const x = await tensor([4]); const y = await tensor([4]);
        ctx.writeTensor(x, new Float32Array([-3, -1, 0, 2]));
        ctx.dispatch(g, {x}, {y});
        let dispatchError = 'none';
        try { ctx.dispatch(d, {x}, {y}); } catch (e) { dispatchError = e.name; }
        return {gone, inPage: WebNNBridge.inPage(g), y: await read(y), dispatchError};
    """)
    assert r == {"gone": False, "inPage": True, "y": [0, 0, 1, 5], "dispatchError": "InvalidStateError"}


def test_a_trace_records_the_pages_own_run_times(page, app_dir, tmp_path):
    """A host recording a policy trace: the page reports the time of each run it makes itself
    (pageLatency with inPage), and replay reports them for the builds it leaves out."""
    from webnn_bridge.workbench import trace as tr

    if RUNTIME is None:
        pytest.skip("onnxruntime-web's wasm runtime is not in .ortweb/ (scripts/install_ortweb.sh)")
    path = tmp_path / "t.jsonl"
    with tr.TraceWriter(path) as w:
        h = start_host(app_dir=app_dir, page_runtime=RUNTIME, observer=tr.SessionTracer(w))
        try:
            r = run(page, h, """
                const g = await small();
                const inPage = await WebNNBridge.settled(g);
                const x = await tensor([4]); const y = await tensor([4]);
                for (let i = 0; i < 5; i++) { ctx.writeTensor(x, new Float32Array([i, 1, 2, 3])); ctx.dispatch(g, {x}, {y}); await read(y); }
                return {inPage};
            """)
            page.goto("about:blank")  # the page leaves: its messages have reached the host
        finally:
            h.stop()
    events = tr.read_trace(path)
    assert r == {"inPage": True}
    assert len(tr.in_page_runs(events)) == 5 and all(ms < 1000 for ms in tr.in_page_runs(events))
    assert "the page timed 5 of their runs" in tr.in_page_note(events)


def test_a_fresh_tensor_is_zeros_in_the_page_and_reads_copy(page, page_host):
    r = run(page, page_host, """
        const g = await small();
        await WebNNBridge.settled(g);
        const x = await tensor([4]); const y = await tensor([4]);
        ctx.dispatch(g, {x}, {y});          // x never written: zeros, relu(0 * 2 + 1) = 1
        const out = new Float32Array(4);
        await ctx.readTensor(y, out);
        const again = await read(y);
        out[0] = 99;                         // the caller's buffer is its own
        ctx.writeTensor(x, new Float32Array([1, 2, 3, 4]));
        ctx.dispatch(g, {x}, {y});
        return {first: Array.from(out).slice(1), again, second: await read(y), x: await read(x)};
    """)
    assert r == {"first": [1, 1, 1], "again": [1, 1, 1, 1], "second": [3, 5, 7, 9], "x": [1, 2, 3, 4]}


def test_a_page_that_opts_out_keeps_its_graphs_on_the_host(page, page_host):
    r = run(page, page_host, RUN_SMALL, before="WebNNBridge.pageLocal = false;")
    assert r == small_result(False)


def test_a_runtime_that_fails_to_load_leaves_the_graph_on_the_host(page, app_dir, tmp_path):
    """A page whose runtime cannot load (here a corrupt wasm binary) warns once and asks the host
    to compile the graph for itself: the page's calls behave the same."""
    import shutil

    from webnn_bridge.backends.page import RUNTIME_FILES

    broken = tmp_path / "runtime"
    broken.mkdir()
    shutil.copy(RUNTIME / RUNTIME_FILES[0], broken / RUNTIME_FILES[0])
    (broken / RUNTIME_FILES[1]).write_bytes(b"\0asm not really")
    h = start_host(app_dir=app_dir, page_runtime=broken)
    try:
        warnings = []
        if hasattr(page, "on"):
            page.on("console", lambda m: warnings.append(m.text) if "could not run a graph" in m.text else None)
        r = run(page, h, RUN_SMALL)
    finally:
        h.stop()
    assert r == small_result(False)
    if hasattr(page, "on"):
        assert len(warnings) == 1, warnings


def test_a_session_the_started_runtime_fails_to_create_leaves_that_graph_on_the_host(page, page_host):
    """The runtime has started, then fails to create one graph's session (as onnxruntime-web in
    WebKit once did in CI: "Can't create a session ... invalid node_index"; here the test makes
    the page's runtime module refuse the next create once): the host, which runs every graph
    placed in the page until the page's session of it is warm, keeps that graph with the same
    results, the page warns once on the console, and the graphs built after it run in the page."""
    from webnn_bridge.bridge import protocol

    warnings = []
    if hasattr(page, "on"):
        page.on("console", lambda m: warnings.append(m.text) if "could not run a graph" in m.text else None)
    base = f"{page_host.url}{protocol.PAGE_RUNTIME_PATH}"
    r = run(page, page_host, """
        const x = await tensor([4]); const y = await tensor([4]);
        ctx.writeTensor(x, new Float32Array([-3, -1, 0, 2]));
        const result = async (g) => { ctx.dispatch(g, {x}, {y}); return await read(y); };
        const g1 = await small();
        await WebNNBridge.settled(g1);  // the runtime has started
        const ort = await import('""" + base + """ort.wasm.bundle.min.mjs');  // the shim's module
        const create = ort.InferenceSession.create;
        let refused = 0;
        ort.InferenceSession.create = async () => {
          ort.InferenceSession.create = create;
          refused++;
          throw new Error("Can't create a session (refused by the test)");
        };
        const g2 = await small();
        const g3 = await small();
        const built = [g2, g3].map((g) => WebNNBridge.inPage(g));  // on the host until settled
        const settled = [await WebNNBridge.settled(g2), await WebNNBridge.settled(g3)];
        return {refused, built, settled, inPage: [g1, g2, g3].map((g) => WebNNBridge.inPage(g)),
                y: [await result(g1), await result(g2), await result(g3)]};
    """)
    assert r == {"refused": 1, "built": [False, False], "settled": [False, True], "inPage": [True, False, True],
                 "y": [[0, 0, 1, 5]] * 3}
    if hasattr(page, "on"):
        assert len(warnings) == 1 and "refused by the test" in warnings[0], warnings


def test_a_short_1d_convolution_runs_in_the_page_as_frames_by_a_matmul(page, page_host):
    """An STFT-like 1-D convolution (openWakeWord's and silero VAD's shape: one channel in, a long
    filter, few frames) is lowered for the page as a MatMul of its gathered frames
    (tests/test_lowering_framed_conv.py); in the page's own runtime it gives the convolution."""
    r = run(page, page_host, """
        const b = new MLGraphBuilder(ctx);
        const x = b.input('x', f32([1, 1, 1, 36]));
        const w = new Float32Array(3 * 8).map((_, i) => Math.sin(i) / 2);
        const y = b.conv2d(x, b.constant(f32([3, 1, 1, 8]), w), {strides: [1, 4], padding: [0, 0, 1, 1],
                           bias: b.constant(f32([3]), new Float32Array([0.5, -1, 2]))});
        const g = await b.build({y});
        await WebNNBridge.settled(g);
        const xt = await tensor([1, 1, 1, 36]); const yt = await tensor([1, 3, 1, 8]);
        ctx.writeTensor(xt, new Float32Array(36).map((_, i) => Math.cos(i)));
        ctx.dispatch(g, {x: xt}, {y: yt});
        return {inPage: WebNNBridge.inPage(g), y: await read(yt)};
    """)
    x = np.pad(np.cos(np.arange(36)).astype(np.float32), 1)
    w = (np.sin(np.arange(24)) / 2).astype(np.float32).reshape(3, 8)
    want = np.array([[w[o] @ x[4 * p:4 * p + 8] for p in range(8)] for o in range(3)]) + np.array([[0.5], [-1], [2]])
    assert r["inPage"] is True
    np.testing.assert_allclose(np.array(r["y"]).reshape(3, 8), want, rtol=1e-5, atol=1e-5)


def test_destroying_tensors_graphs_and_the_context_behaves_as_on_the_host(page, page_host):
    r = run(page, page_host, """
        const g = await small();
        await WebNNBridge.settled(g);
        const x = await tensor([4]); const y = await tensor([4]);
        ctx.writeTensor(x, new Float32Array([1, 2, 3, 4]));
        ctx.dispatch(g, {x}, {y});
        const pending = ctx.readTensor(y).then(() => 'read', (e) => e.name);
        y.destroy();                                   // before the page's run and read complete
        const afterDestroy = await pending;
        const y2 = await tensor([4]);
        g.destroy();
        let dispatchError = 'none';
        try { ctx.dispatch(g, {x}, {y: y2}); } catch (e) { dispatchError = e.name; }
        const g2 = await small();
        ctx.dispatch(g2, {x}, {y: y2});
        const before = await read(y2);
        const read2 = ctx.readTensor(y2).then(() => 'read', (e) => e.name);
        ctx.destroy();
        const lost = await ctx.lost;
        return {afterDestroy, dispatchError, before, read2: await read2, lost: typeof lost.message};
    """)
    assert r["afterDestroy"] == "InvalidStateError" and r["dispatchError"] == "InvalidStateError"
    assert r["before"] == [3, 5, 7, 9] and r["lost"] == "string"
    assert r["read2"] in ("read", "InvalidStateError")  # resolved before the destroy, or rejected by it


def test_bad_bindings_of_a_graph_in_the_page_throw_as_on_the_host(page, page_host):
    r = run(page, page_host, """
        const g = await small();
        await WebNNBridge.settled(g);
        const x = await tensor([4]); const y = await tensor([4]);
        const wrong = await tensor([5]);
        const ro = await ctx.createTensor({dataType: 'float32', shape: [4], readable: true});
        const names = [];
        for (const f of [() => ctx.dispatch(g, {x: wrong}, {y}), () => ctx.dispatch(g, {x}, {}),
                         () => ctx.dispatch(g, {x: y}, {y}), () => ctx.writeTensor(ro, new Float32Array(4))]) {
          try { f(); names.push('none'); } catch (e) { names.push(e.name); }
        }
        return {names, inPage: WebNNBridge.inPage(g)};
    """)
    assert r == {"names": ["TypeError"] * 4, "inPage": True}


@pytest.mark.parametrize("flags, in_page", [([], True), (["--no-page-local"], False)], ids=["default", "off"])
def test_serve_as_a_user_starts_it_runs_small_graphs_in_the_page(page, app_dir, flags, in_page):
    """`webnn-bridge serve` from the checkout, no flag: the runtime scripts/install_ortweb.sh put in
    .ortweb/ is found and small graphs run in the page; --no-page-local keeps them on the host.
    Either way the page gets the same result."""
    import signal
    import subprocess
    import sys
    from pathlib import Path

    if RUNTIME is None:
        pytest.skip("onnxruntime-web's wasm runtime is not in .ortweb/ (scripts/install_ortweb.sh)")
    root = Path(__file__).resolve().parent.parent
    env = {k: v for k, v in os.environ.items() if k != "WEBNN_BRIDGE_PAGE_RUNTIME"}
    proc = subprocess.Popen([sys.executable, "-m", "webnn_bridge.bridge.cli", "serve", "--port", "0", "--no-cache",
                             "--app", str(app_dir), *flags], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=root, env=env)
    try:
        url = proc.stdout.readline().split("serving on ")[1].strip()
        page.goto(f"{url}/basic.html")
        r = page.evaluate(f"async () => {{ {SETUP}\n{RUN_SMALL} }}")
        page.goto("about:blank")  # the page leaves: its session ends before the host stops
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert r == small_result(in_page)
    assert proc.returncode == 0 and "Traceback" not in err, err


def _count_runs() -> str:
    from webnn_bridge.bridge import protocol

    return COUNT_RUNS % protocol.PAGE_RUNTIME_PATH.strip("/")


def test_the_page_warms_a_graphs_session_before_it_takes_the_graph_over(page, warm_host):
    """rules.toml §4c: after its first result the page makes the graph's session, waits for a
    second dispatch (a page that runs a graph once pays no warm-up), runs the session
    warm_up_runs times on zeros while the host still runs the graph, and only then runs it
    itself; the results are the same all along."""
    r = run(page, warm_host, """
        const g = await small();
        const x = await tensor([4]); const y = await tensor([4]);
        ctx.writeTensor(x, new Float32Array([-3, -1, 0, 2]));
        ctx.dispatch(g, {x}, {y});
        const first = await read(y);
        await until(() => counts.created === 1);  // made after the first result
        await sleep(100);
        const waiting = {runs: counts.runs, inPage: WebNNBridge.inPage(g)};
        ctx.dispatch(g, {x}, {y});  // the second dispatch (on the host) begins the warm-up
        const second = await read(y);
        await until(() => WebNNBridge.inPage(g));
        const warmed = counts.runs;
        ctx.dispatch(g, {x}, {y});
        const third = await read(y);
        return {waiting, warmed, zeros: counts.inputs.slice(0, warmed).every((v) => v.every((e) => e === 0)),
                runs: counts.runs, inPage: WebNNBridge.inPage(g), y: [first, second, third]};
    """, before=_count_runs())
    assert r == {"waiting": {"runs": 0, "inPage": False}, "warmed": WARM_RUNS, "zeros": True,
                 "runs": WARM_RUNS + 1, "inPage": True, "y": [[0, 0, 1, 5]] * 3}


def test_settled_warms_at_once_and_a_graph_destroyed_while_it_waits_releases_its_session(page, warm_host):
    """settled() asks for the graph now: it resolves once the warm-up's runs are done and the page
    runs it. A graph destroyed while its session waits for the warm-up's dispatch lets that
    session go (and never runs it)."""
    r = run(page, warm_host, """
        const g = await small();
        const settled = await WebNNBridge.settled(g);
        const warmed = counts.runs;
        const d = await small();
        const x = await tensor([4]); const y = await tensor([4]);
        ctx.writeTensor(x, new Float32Array([-3, -1, 0, 2]));
        ctx.dispatch(d, {x}, {y});
        const first = await read(y);
        await until(() => counts.created === 2);
        await sleep(50);
        const before = {runs: counts.runs, released: counts.released};
        d.destroy();
        await until(() => counts.released > 0);
        return {settled, warmed, inPage: WebNNBridge.inPage(g), first, before,
                after: {runs: counts.runs, released: counts.released}};
    """, before=_count_runs())
    assert r == {"settled": True, "warmed": WARM_RUNS, "inPage": True, "first": [0, 0, 1, 5],
                 "before": {"runs": WARM_RUNS, "released": 0}, "after": {"runs": WARM_RUNS, "released": 1}}


def test_a_pages_warm_ups_stop_at_its_budget_and_later_graphs_take_over_cold(page, budget_host):
    """[page] warm_up_page_ms bounds the page's warm-ups together: the first graph warms until
    the budget is spent, the next takes over with no warm-up, and both run in the page."""
    r = run(page, budget_host, """
        const g1 = await small();
        const t0 = performance.now();
        const s1 = await WebNNBridge.settled(g1);
        const first = {runs: counts.runs, ms: performance.now() - t0};
        const g2 = await small();
        const s2 = await WebNNBridge.settled(g2);
        const second = counts.runs - first.runs;
        const x = await tensor([4]); const y = await tensor([4]);
        ctx.writeTensor(x, new Float32Array([-3, -1, 0, 2]));
        ctx.dispatch(g2, {x}, {y});
        return {settled: [s1, s2], warmed: first.runs > 0, longEnough: first.ms >= 150, second,
                y: await read(y), runs: counts.runs - first.runs};
    """, before=_count_runs())
    assert r == {"settled": [True, True], "warmed": True, "longEnough": True, "second": 0, "y": [0, 0, 1, 5],
                 "runs": 1}
