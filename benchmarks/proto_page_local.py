"""Prototype measurement (issue 39, "consider running them where the page is"): what a small
model's run would cost if the host compiled its WebNN graph and the page ran it in wasm, next to
the run through the host and native Chromium's WebNN, in one run, rounds interleaved.

For each of bench_apps.py's models (--models; default the ones under about a millisecond native:
silero, mel, embed, cls and the held-out timer head; scripts/install_models.sh fetches them), with
the same static input dimensions and feeds, it:
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
        [--models silero,mel,...] [--native-chromium ~/peers/native/chromium]
Times are trimmed means of the runs (bench_apps.trimmed_mean).
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

from benchmarks.bench_ortweb import NATIVE_ARGS, ORT_WEB, GraphCatcher, browser_rows, median  # noqa: E402
from benchmarks.bench_webnn import StaticServer, native_env, page_console  # noqa: E402
from webnn_bridge.bridge.embed import CHROMIUM, CHROMIUM_ARGS, start_host  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_MODELS = "silero,mel,embed,cls,timer"

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


def as_feeds_json(feeds: dict[str, np.ndarray]) -> str:
    return json.dumps({k: {"type": str(v.dtype), "dims": list(v.shape), "data": v.ravel().tolist()}
                       for k, v in feeds.items()})


def measure(short: str, args, native: Path | None) -> list[dict]:
    """The rounds of one model: {target: ms} each."""
    import onnx

    from benchmarks import bench_apps
    from webnn_bridge.backends.onnx_lowering import lower_graph
    from webnn_bridge.backends.onnxruntime import supported_ir_version

    app_def = bench_apps.BY_NAME[short]
    with tempfile.TemporaryDirectory() as d:
        app = Path(d)
        os.symlink(ORT_WEB, app / "ort")
        model = bench_apps.static_dims(onnx.load(bench_apps.MODELS_DIR / app_def.file),
                                       {k: s for k, (_, s) in app_def.inputs.items()})
        onnx.save(model, app / "model.onnx")
        (app / "feeds.json").write_text(as_feeds_json(bench_apps.feeds_for(app_def)))
        catcher = GraphCatcher()
        host = start_host(own_process=True, app_dir=app)
        try:
            browser_rows([CHROMIUM, *CHROMIUM_ARGS], host.url, app, 5, ["webnn"])
        finally:
            host.stop()
            catcher.close()
        print(f"\n{short}: {app_def.what}, {len(model.graph.node)} ONNX nodes; onnxruntime-web built "
              f"{len(catcher.irs)} WebNN graph(s) of {', '.join(str(len(ir.nodes)) for ir in catcher.irs)} operators",
              flush=True)
        if len(catcher.irs) != 1:
            print("  skipped: the prototype measures models onnxruntime-web runs as one WebNN graph")
            return []
        ir = catcher.irs[0]
        lowered, in_map, _ = lower_graph(ir, min(supported_ir_version(), 10))  # onnxruntime-web 1.30 reads IR <= 13
        onnx.save(lowered, app / "lowered.onnx")
        rng = np.random.default_rng(3)
        low_feeds = {in_map[name]: (rng.standard_normal(desc.shape) * 0.5).astype(desc.numpy_dtype)
                     for name, desc in ir.input_descs().items()}
        (app / "lowered_feeds.json").write_text(as_feeds_json(low_feeds))
        (app / "local.html").write_text(LOCAL_PAGE % {"iters": args.iters})
        rows = []
        for rnd in range(args.rounds):
            r = {"load": os.getloadavg()[0]}
            targets = ["ours", "local", "native"]
            for t in targets[rnd % 3:] + targets[:rnd % 3]:
                if t == "ours":
                    host = start_host(own_process=True, app_dir=app)
                    try:
                        lines = _rows_lines([CHROMIUM, *CHROMIUM_ARGS], host.url, app, args.iters)
                    finally:
                        host.stop()
                    r["ours (host)"] = bench_apps.trimmed_mean(lines["webnn"])
                elif t == "local":
                    server = StaticServer(app)
                    try:
                        lines = page_console([CHROMIUM, *CHROMIUM_ARGS], f"{server.url}/local.html")
                    finally:
                        server.stop()
                    r["page-local (wasm)"] = bench_apps.trimmed_mean(lines["lowered"])
                    r["ort-web wasm (original)"] = bench_apps.trimmed_mean(lines["original"])
                elif native is not None:
                    server = StaticServer(app)
                    try:
                        lines = _rows_lines([str(native), *NATIVE_ARGS, "--headless"], server.url, app, args.iters,
                                            env=native_env(native))
                    finally:
                        server.stop()
                    r["native"] = bench_apps.trimmed_mean(lines["webnn"])
            rows.append(r)
            print(f"  round {rnd + 1} (load {r['load']:.1f}): "
                  + ", ".join(f"{k} {v:.2f} ms" for k, v in r.items() if k != "load"), flush=True)
        return rows


def _rows_lines(cmd: list[str], base_url: str, app: Path, iters: int, env=None) -> dict:
    """bench_ortweb's WebNN EP page in a browser: its console lines (every run's time)."""
    from benchmarks.bench_ortweb import FEEDS_JS, PAGE

    (app / "bench.html").write_text(PAGE % {"eps": json.dumps(["webnn"]), "iters": iters, "feeds": FEEDS_JS})
    return page_console(cmd, f"{base_url}/bench.html", env=env)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", default=DEFAULT_MODELS)
    ap.add_argument("--iters", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--native-chromium", type=Path, default=Path.home() / "peers" / "native" / "chromium")
    args = ap.parse_args()
    if not (ORT_WEB / "ort.min.js").is_file():
        sys.exit(f"onnxruntime-web is missing in {ORT_WEB}: run scripts/install_ortweb.sh")
    native = args.native_chromium if args.native_chromium.is_file() else None
    if native is None:
        print(f"native Chromium peer: not available at {args.native_chromium}")
    results = {m.strip(): measure(m.strip(), args, native) for m in args.models.split(",") if m.strip()}
    print("\nmedians over rounds (ms per run) and each round's ratio to native, their median:")
    for m, rows in results.items():
        if not rows:
            continue
        cells = [f"{k} {median([r[k] for r in rows]):.2f}" for k in rows[0] if k != "load"]
        if native is not None:
            for k in ("ours (host)", "page-local (wasm)"):
                ratios = [r[k] / r["native"] for r in rows]
                cells.append(f"{k.split(' ')[0]}/native {median(ratios):.2f}x ({', '.join(f'{x:.2f}' for x in ratios)})")
        print(f"  {m:8s} " + "; ".join(cells))


if __name__ == "__main__":
    main()
