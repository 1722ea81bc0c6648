"""Benchmark: where one MobileNetV2 inference through the shim spends its time (no driver attached).

The page (Debian's Chromium, no Playwright: DevTools slows websocket traffic) runs the e2e
MobileNetV2 graph as bench_webnn.py does (writeTensor + dispatch + readTensor) and stamps each
inference on its clock (performance.timeOrigin + now(), the time the 600 KB frame was handed to
WebSocket.send, the time the read resolved); the host, in this process, stamps the arrival of each
frame and each message it handles. Both clocks are this machine's wall clock. Printed per span:
median, 10th and 90th percentile over the inferences, and the in-process ONNX Runtime run with the
host's options for a big graph. The page's clock is coarse (0.1 ms steps).

Run (from the repository root): PYTHONPATH=. .venv/bin/python benchmarks/bench_split.py [--iters 40]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
from bench_webnn import make_app, page_console  # this directory: the pages and data bench_webnn uses

from webnn_bridge.bridge.embed import CHROMIUM, CHROMIUM_ARGS, start_host
from webnn_bridge.bridge.session import Session

HOOK = """<script>
let bigSend = 0;
const realSend = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  if ((data.byteLength || 0) > 500000) bigSend = performance.timeOrigin + performance.now();
  return realSend.call(this, data);
};
addEventListener('load', async () => {
  const now = () => performance.timeOrigin + performance.now();
  const context = await createContext();
  const [weights, input] = await Promise.all([loadWeights(), loadNpy(INPUT_URL)]);
  const builder = new MLGraphBuilder(context);
  const graph = await builder.build({output: buildMobilenet(builder, weights)});
  const inT = await context.createTensor({dataType: 'float32', shape: INPUT_SHAPE, writable: true});
  const outT = await context.createTensor({dataType: 'float32', shape: [1, 1000], readable: true});
  const start = [], sent = [], done = [];
  for (let i = 0; i < %(iters)d + 3; i++) {
    const t0 = now();
    context.writeTensor(inT, input.data);
    context.dispatch(graph, {input: inT}, {output: outT});
    await context.readTensor(outT);
    if (i >= 3) { start.push(t0); sent.push(bigSend); done.push(now()); }
  }
  for (const [k, v] of Object.entries({start, sent, done})) console.log(`BENCH ${k} ${v.join(',')}`);
  console.log('BENCH done 0');
});
</script>"""


class HostStamps:
    """Wall-clock stamps of the host's session (benchmark instrumentation only)."""

    def __init__(self):
        self.arrivals: list[tuple[float, int]] = []  # (ms, frame bytes)
        self.handled: dict[str, list[tuple[float, float]]] = {}  # kind -> [(start ms, end ms)]
        self._real = (Session.prepare, Session.handle)
        prepare, handle = self._real
        stamps = self

        def stamped_prepare(session, frame):
            stamps.arrivals.append((time.time() * 1000, len(frame)))
            return prepare(session, frame)

        def stamped_handle(session, header, payload):
            t0 = time.time() * 1000
            try:
                return handle(session, header, payload)
            finally:
                stamps.handled.setdefault(str(header.get("t")), []).append((t0, time.time() * 1000))

        Session.prepare, Session.handle = stamped_prepare, stamped_handle

    def close(self):
        Session.prepare, Session.handle = self._real


def spans(page: dict[str, list[float]], host: HostStamps, iters: int) -> dict[str, list[float]]:
    """Per inference: the spans from the page's start to its read resolving, in order."""
    big = [i for i, (_, n) in enumerate(host.arrivals) if n > 500000][-iters:]
    arrive = [host.arrivals[i][0] for i in big]
    after = [host.arrivals[i + 1][0] for i in big]  # the frame after the input: dispatch + read
    disp = host.handled["dispatch"][-iters:]
    read = host.handled["readTensor"][-iters:]
    rows = zip(page["start"], page["sent"], arrive, after, disp, read, page["done"])
    out: dict[str, list[float]] = {}
    for start, sent, a, b, (d0, d1), (_, r1), done in rows:
        for k, v in (("total (page)", done - start), ("page: call to WebSocket.send of the input", sent - start),
                     ("input in flight (send to host has it)", a - sent), ("host: input to the next frame", b - a),
                     ("host: next frame to dispatch start", d0 - b),
                     ("host: dispatch", d1 - d0), ("host: dispatch end to read reply", r1 - d1),
                     ("reply in flight and page resolves the read", done - r1)):
            out.setdefault(k, []).append(v)
    return out


def in_process(app: Path, x: np.ndarray, iters: int) -> float:
    import onnxruntime as ort

    from webnn_bridge.backends.onnxruntime import session_options

    sess = ort.InferenceSession(str(app / "mobilenet.onnx"), session_options(pooled=True),
                                providers=["CPUExecutionProvider"])
    times = []
    for _ in range(iters + 3):
        t0 = time.perf_counter()
        sess.run(["probs"], {"input": x})
        times.append((time.perf_counter() - t0) * 1000)
    return float(statistics.median(times[3:]))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--iters", type=int, default=40)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as d:
        app = Path(d)
        x = make_app(app, None)
        page_html = (app / "mobilenet.html").read_text().replace("</body>", HOOK % {"iters": args.iters} + "</body>")
        (app / "split.html").write_text(page_html)
        host = start_host(own_process=True, app_dir=app)
        stamps = HostStamps()
        try:
            page = page_console([CHROMIUM, *CHROMIUM_ARGS], f"{host.url}/split.html")
        finally:
            stamps.close()
            host.stop()
        ort_ms = in_process(app, x, args.iters)
    rows = spans(page, stamps, args.iters)
    print(f"MobileNetV2 inference through the shim, {args.iters} runs (ms: median, p10, p90)")
    for k, v in rows.items():
        print(f"  {k:45} {statistics.median(v):7.2f} {np.percentile(v, 10):7.2f} {np.percentile(v, 90):7.2f}")
    total = statistics.median(rows["total (page)"])
    print(f"  in-process ONNX Runtime (host's options)      {ort_ms:7.2f}   total / in-process {total / ort_ms:.2f}x")
    print(json.dumps({k: round(statistics.median(v), 3) for k, v in rows.items()} | {"in_process": ort_ms}))


if __name__ == "__main__":
    main()
