"""Prototype measurement (issue 39, "consider running them where the page is"): what a small
model's run would cost if the host compiled its WebNN graph and the page ran it in wasm, next to
the run through the host and native Chromium's WebNN, in one run, rounds interleaved.

For a real packaged model (default: silero VAD's 16 kHz OpenVINO export, see
scripts/install_models.sh) it:
  1. runs it through onnxruntime-web's WebNN EP on ours (Debian's Chromium, the shim, a host in
     this process) and keeps every WebNN graph the page built, as the host received it;
  2. lowers each graph to ONNX exactly as the host does for ONNX Runtime
     (backends/onnx_lowering.lower_graph) -- what "the host compiles" would hand the page;
  3. times, in one Debian Chromium page without the shim, onnxruntime-web's wasm backend (one
     thread, SIMD) running that lowered graph: the page-local placement's compute, without the
     plumbing a real placement would add (the shim's MLTensor bookkeeping: microseconds);
  4. in the same round: ours (WebNN EP through the host), native Chromium 153's WebNN (WebNN EP),
     and onnxruntime-web wasm running the original model (for scale).
Only a model onnxruntime-web runs as ONE WebNN graph is measured this way (a split model's wasm
parts would run between them either way).

    PYTHONPATH=. .venv/bin/python benchmarks/proto_page_local.py [--rounds 3] [--iters 200] \
        [--model FILE.onnx --dims NAME=AxB ...] [--native-chromium ~/peers/native/chromium]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_ortweb import NATIVE_ARGS, ORT_WEB, browser_rows, feeds_for, median  # noqa: E402
from benchmarks.bench_webnn import StaticServer, _console_lines, native_env  # noqa: E402
from webnn_bridge.bridge.embed import CHROMIUM, CHROMIUM_ARGS, start_host  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_MODEL = ROOT / ".ortweb" / "models" / "silero_vad_openvino_16k.onnx"

LOCAL_PAGE = """<!doctype html><meta charset=utf-8><title>page-local prototype</title>
<script src="ort/ort.min.js"></script><p>page-local</p>
<script>addEventListener('load', async () => {
  const say = (key, values) => console.log(`BENCH ${key} ${values.join(',')}`);
  try {
    ort.env.wasm.numThreads = 1;
    ort.env.wasm.wasmPaths = new URL('./ort/', location.href).href;
    for (const [key, file, feedFile] of [['lowered', './lowered.onnx', './lowered_feeds.json'],
                                         ['original', './model.onnx', './feeds.json']]) {
      const spec = await (await fetch(feedFile)).json();
      const feeds = {};
      for (const [name, f] of Object.entries(spec)) {
        const C = {float32: Float32Array, int64: BigInt64Array, int32: Int32Array}[f.type];
        feeds[name] = new ort.Tensor(f.type, f.type === 'int64' ? C.from(f.data, BigInt) : C.from(f.data), f.dims);
      }
      const session = await ort.InferenceSession.create(file, {executionProviders: ['wasm']});
      const times = [];
      for (let i = 0; i < %(iters)d + 10; i++) {
        const t = performance.now();
        await session.run(feeds);
        if (i >= 10) times.push(performance.now() - t);
      }
      say(key, times);
      await session.release();
    }
  } catch (e) {
    console.log(`BENCH error ${e}`);
  }
  say('done', [0]);
});</script>"""


class GraphCatcher:
    """Every distinct WebNN graph a page dispatches on a host in this process."""

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


def as_feeds_json(feeds: dict[str, np.ndarray]) -> str:
    return json.dumps({k: {"type": str(v.dtype), "dims": list(v.shape), "data": v.ravel().tolist()}
                       for k, v in feeds.items()})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", type=Path, default=DEFAULT_MODEL)
    ap.add_argument("--dims", action="append", default=[], metavar="NAME=AxBxC")
    ap.add_argument("--iters", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--native-chromium", type=Path, default=Path.home() / "peers" / "native" / "chromium")
    args = ap.parse_args()
    if not (ORT_WEB / "ort.min.js").is_file():
        sys.exit(f"onnxruntime-web is missing in {ORT_WEB}: run scripts/install_ortweb.sh")
    if not args.model.is_file():
        sys.exit(f"{args.model} is missing: run scripts/install_models.sh")
    import onnx

    from webnn_bridge.backends.onnx_lowering import lower_graph
    from webnn_bridge.backends.onnxruntime import supported_ir_version

    native = args.native_chromium if args.native_chromium.is_file() else None
    dims = {k: [int(v) for v in s.split("x")] for k, s in (d.split("=") for d in args.dims)}
    with tempfile.TemporaryDirectory() as d:
        app = Path(d)
        os.symlink(ORT_WEB, app / "ort")
        model = onnx.load(args.model)
        onnx.save(model, app / "model.onnx")
        feeds = feeds_for(model, 16000, dims)
        (app / "feeds.json").write_text(as_feeds_json(feeds))
        catcher = GraphCatcher()
        host = start_host(own_process=True, app_dir=app)
        try:
            browser_rows([CHROMIUM, *CHROMIUM_ARGS], host.url, app, 5, ["webnn"])
        finally:
            host.stop()
            catcher.close()
        print(f"model: {args.model.name}, {len(model.graph.node)} ONNX nodes; onnxruntime-web built "
              f"{len(catcher.irs)} WebNN graph(s) of {', '.join(str(len(ir.nodes)) for ir in catcher.irs)} operators")
        if len(catcher.irs) != 1:
            sys.exit("the prototype measures models onnxruntime-web runs as one WebNN graph")
        ir = catcher.irs[0]
        lowered, in_map, _ = lower_graph(ir, min(supported_ir_version(), 10))  # onnxruntime-web 1.30 reads IR <= 13
        onnx.save(lowered, app / "lowered.onnx")
        rng = np.random.default_rng(3)
        low_feeds = {in_map[name]: (rng.standard_normal(desc.shape) * 0.5).astype(desc.numpy_dtype)
                     for name, desc in ir.input_descs().items()}
        (app / "lowered_feeds.json").write_text(as_feeds_json(low_feeds))
        (app / "local.html").write_text(LOCAL_PAGE % {"iters": args.iters})
        print(f"lowered: {len(lowered.graph.node)} ONNX nodes; {args.iters} runs per target, {args.rounds} rounds")
        rows = []
        for rnd in range(args.rounds):
            r = {"load": os.getloadavg()[0]}
            targets = ["ours", "local", "native"]
            for t in targets[rnd % 3:] + targets[:rnd % 3]:
                if t == "ours":
                    host = start_host(own_process=True, app_dir=app)
                    try:
                        r["ours (WebNN EP, host)"] = browser_rows([CHROMIUM, *CHROMIUM_ARGS], host.url, app,
                                                                  args.iters, ["webnn"])["webnn"]
                    finally:
                        host.stop()
                elif t == "local":
                    server = StaticServer(app)
                    try:
                        with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile:
                            lines = _console_lines([CHROMIUM, *CHROMIUM_ARGS, "--enable-logging=stderr", "--v=0",
                                                    f"--user-data-dir={profile}", f"{server.url}/local.html"])
                    finally:
                        server.stop()
                    r["page-local (lowered, wasm)"] = median(lines["lowered"])
                    r["ort-web wasm (original)"] = median(lines["original"])
                elif native is not None:
                    server = StaticServer(app)
                    try:
                        r["native (WebNN EP)"] = browser_rows([str(native), *NATIVE_ARGS, "--headless"], server.url,
                                                              app, args.iters, ["webnn"], env=native_env(native))["webnn"]
                    finally:
                        server.stop()
            rows.append(r)
            print(f"round {rnd + 1} (load {r['load']:.1f}): "
                  + ", ".join(f"{k} {v:.2f} ms" for k, v in r.items() if k != "load"), flush=True)
        print("\nmedians over rounds (ms per run):")
        for k in rows[0]:
            if k != "load":
                print(f"  {k:28s} {median([r[k] for r in rows]):7.2f}")
        if native is not None:
            nat = "native (WebNN EP)"
            for k in ("ours (WebNN EP, host)", "page-local (lowered, wasm)"):
                ratios = [r[k] / r[nat] for r in rows]
                print(f"  {k} / native: {median(ratios):.2f}x (rounds: {', '.join(f'{x:.2f}' for x in ratios)})")
        else:
            print(f"native Chromium peer: not available at {args.native_chromium}")


if __name__ == "__main__":
    main()
