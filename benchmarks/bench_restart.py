"""Benchmark: the host's part of a MobileNetV2 build after a host restart, in process (no browser
in the timed part), with and without the build memo's disk entry.

The build messages are those a page sends: the e2e MobileNetV2 page runs once in Debian's headless
Chromium through the shim (as bench_webnn.py serves it) and the host records its messages. Then,
on one cache directory, the first build (a replay, compiled from nothing), and N times a restarted
host (a new ML, set up as `serve` sets it up) given the same build message as a page sends it
after a restart (constants named by their digest): once with the build memo's disk entry, once
with it deleted (the message replayed, constants read from disk, as before the memo was kept on
disk). Prints medians and ratios (no pass/fail: compare ratios of one run on a noisy machine).

Run (from the repository root):
  PYTHONPATH=. .venv/bin/python benchmarks/bench_restart.py [--restarts 9]
"""

from __future__ import annotations

import argparse
import copy
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_webnn import _console_lines, make_app  # noqa: E402

from webnn_bridge.backends.cache import CompileCache  # noqa: E402
from webnn_bridge.bridge.api import ML  # noqa: E402
from webnn_bridge.bridge.embed import CHROMIUM, CHROMIUM_ARGS, start_host  # noqa: E402
from webnn_bridge.bridge.server import tune_gc  # noqa: E402
from webnn_bridge.bridge.session import Session  # noqa: E402

BUILD_ONCE = """<script>addEventListener('load', async () => {
  const context = await createContext();
  const [weights] = await Promise.all([loadWeights()]);
  const builder = new MLGraphBuilder(context);
  await builder.build({output: buildMobilenet(builder, weights)});
  console.log('BENCH done 0');
});</script>"""
RECORDED = ("on_createContext", "on_putConstant", "on_build")
ORIGIN = "http://127.0.0.1"


def capture() -> list[tuple[str, dict, bytes | None]]:
    """The createContext, putConstant and build messages of one MobileNetV2 build by the page."""
    msgs = []
    originals = {name: getattr(Session, name) for name in RECORDED}

    def recorder(name):
        def record(self, h, payload):
            msgs.append((name, copy.deepcopy(h), bytes(payload) if payload is not None else None))
            return originals[name](self, h, payload)
        return record

    with tempfile.TemporaryDirectory() as d, tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile:
        app = Path(d)
        make_app(app, None)
        (app / "build.html").write_text((app / "mobilenet.html").read_text().replace("</body>", BUILD_ONCE + "</body>"))
        for name in RECORDED:
            setattr(Session, name, recorder(name))
        host = start_host(app_dir=app)
        try:
            _console_lines([CHROMIUM, *CHROMIUM_ARGS, "--enable-logging=stderr", "--v=0", f"--user-data-dir={profile}",
                            f"{host.url}/build.html"])
        finally:
            host.stop()
            for name, f in originals.items():
                setattr(Session, name, f)
    return msgs


def host(cache_dir: str) -> ML:
    ml = ML(compile_cache=CompileCache(cache_dir))
    ml.warm_up()  # as `serve` does before it serves, and its garbage collector settings
    tune_gc()
    return ml


def session(ml: ML, msgs) -> Session:
    s = Session(ml, ORIGIN)
    s.replays = 0
    replay = s.replay

    def counted(*a):
        s.replays += 1
        return replay(*a)

    s.replay = counted
    s.on_createContext(copy.deepcopy(msgs[0][1]), None)
    return s


def first_build(cache_dir: str, msgs) -> tuple[float, dict]:
    """The page's first build (its constants uploaded with putConstant), then every disk writer
    flushed; returns its time and the build message a page sends after a restart."""
    ml = host(cache_dir)
    s = session(ml, msgs)
    build = None
    for name, h, payload in copy.deepcopy(msgs[1:]):
        if name == "on_build":
            t0 = time.perf_counter()
        getattr(s, name)(h, memoryview(payload) if payload is not None else None)
        if name == "on_build":
            ms, build = (time.perf_counter() - t0) * 1000, h
    for flush in (ml.constant_store.flush, ml.build_memo.flush, ml.compile_cache.flush):
        flush()
    # after a restart the page names every constant by its digest (the host's reply named them)
    for item in build["constants"]:
        item.pop("upload", None)
    return ms, build


def restarted_build(cache_dir: str, msgs, build: dict, keep_memo: bool) -> tuple[float, int]:
    if not keep_memo:
        shutil.rmtree(Path(cache_dir) / "memo", ignore_errors=True)
    ml = host(cache_dir)
    s = session(ml, msgs)
    message = copy.deepcopy(build)
    t0 = time.perf_counter()
    reply = s.on_build(message, None)
    ms = (time.perf_counter() - t0) * 1000
    if b"missing" in (reply if isinstance(reply, bytes) else reply.encode()):
        raise SystemExit("the restarted host lacked constants: the benchmark's capture is wrong")
    if not keep_memo:
        ml.build_memo.flush()  # written again, for the next restart with its entry
    return ms, s.replays


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--restarts", type=int, default=9)
    args = ap.parse_args()
    msgs = capture()
    if [m[0] for m in msgs].count("on_build") != 1:
        raise SystemExit(f"expected one build message, got {[m[0] for m in msgs]}")
    with tempfile.TemporaryDirectory() as cache_dir:
        first, build = first_build(cache_dir, msgs)
        rows = {True: [], False: []}
        replays = {True: 0, False: 0}
        for _ in range(args.restarts):  # interleaved: both see the same machine
            for keep in (True, False):
                ms, n = restarted_build(cache_dir, msgs, build, keep)
                rows[keep].append(ms)
                replays[keep] += n
    memo, replayed = statistics.median(rows[True]), statistics.median(rows[False])
    print(f"MobileNetV2 host build, in process ({args.restarts} restarts, medians):")
    print(f"  first build (replay + compile)                 {first:7.1f} ms")
    print(f"  after a restart, memo entry on disk            {memo:7.1f} ms  (replays: {replays[True]})")
    print(f"  after a restart, memo entry deleted (replay)   {replayed:7.1f} ms  (replays: {replays[False]})")
    print(f"  ratio memo / replay: {memo / replayed:.2f}x; restart with memo / first build: {memo / first:.3f}x")


if __name__ == "__main__":
    main()
