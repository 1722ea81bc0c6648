"""The WPT runner (`webnn-bridge wpt`) on a miniature wpt tree written here: META parsing, the
generated window/worker pages, and a real Chromium run through the shim with results read back.

The real suites need a wpt checkout (README: "Running the WPT WebNN suites"). The stand-in
harness below implements just enough of testharness.js's API for these two files.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from webnn_bridge.devtools import wpt

# A tiny testharness.js stand-in: test / promise_test / promise_setup / setup / done /
# add_completion_callback with testharness's status codes (0 PASS, 1 FAIL; harness 0 OK).
HARNESS = """
(function () {
  const tests = [], callbacks = [];
  let setupPromise = Promise.resolve();
  let chain = Promise.resolve();
  self.setup = function () {};
  self.add_completion_callback = (cb) => callbacks.push(cb);
  self.promise_setup = (fn) => { setupPromise = Promise.resolve().then(fn); };
  function record(name, fn) {
    chain = chain.then(() => setupPromise).then(fn).then(
      () => tests.push({name, status: 0, message: null}),
      (e) => tests.push({name, status: 1, message: String(e && e.message || e)}));
  }
  self.test = (fn, name) => record(name, async () => fn());
  self.promise_test = (fn, name) => record(name, fn);
  self.assert_equals = (a, b, m) => { if (a !== b) throw new Error(`${m || 'assert_equals'}: ${a} !== ${b}`); };
  self.done = () => {};
  addEventListener('load', () => setTimeout(() => chain.then(() => callbacks.forEach((cb) => cb(tests, {status: 0, message: null}))), 0));
})();
"""

TEST = """\
// META: title=mini relu
// META: global=window
// META: variant=?cpu
// META: variant=?gpu
// META: script=../resources/helper.js
// META: timeout=long
'use strict';
promise_setup(async () => { self.ctx = await navigator.ml.createContext(contextOptions()); });
promise_test(async () => {
  const b = new MLGraphBuilder(ctx);
  const x = b.input('x', {dataType: 'float32', shape: [4]});
  const g = await b.build({y: b.relu(x)});
  const tin = await ctx.createTensor({dataType: 'float32', shape: [4], writable: true});
  const tout = await ctx.createTensor({dataType: 'float32', shape: [4], readable: true});
  ctx.writeTensor(tin, new Float32Array([-1, 2, -3, 4]));
  ctx.dispatch(g, {x: tin}, {y: tout});
  assert_equals(Array.from(new Float32Array(await ctx.readTensor(tout))).join(), '0,2,0,4');
}, 'relu through the shim');
test(() => assert_equals(1 + 1, 3, 'arithmetic'), 'a subtest that fails');
"""

HELPER = "function contextOptions() { return {deviceType: location.search.substring(1)}; }\n"


def make_mini_wpt(root: Path, tests: dict[str, str]) -> Path:
    """A WPT checkout in miniature under ``root``: the harness stand-in, ``tests`` (file name ->
    source) in webnn/conformance_tests, an empty webnn/validation_tests."""
    (root / "resources").mkdir()
    (root / "resources" / "testharness.js").write_text(HARNESS)
    d = root / "webnn" / "conformance_tests"
    d.mkdir(parents=True)
    for name, text in tests.items():
        (d / name).write_text(text)
    (root / "webnn" / "validation_tests").mkdir()
    return root


@pytest.fixture
def mini_wpt(tmp_path) -> Path:
    make_mini_wpt(tmp_path, {"relu.https.any.js": TEST})
    (tmp_path / "webnn" / "resources").mkdir()
    (tmp_path / "webnn" / "resources" / "helper.js").write_text(HELPER)
    return tmp_path


def test_meta_parsing():
    m = wpt.parse_meta(TEST)
    assert m.title == "mini relu" and m.globals == ("window",) and m.timeout == "long"
    assert m.variants == ("?cpu", "?gpu") and m.scripts == ("../resources/helper.js",)
    # defaults: window + dedicated worker, one variant; "worker" means a dedicated worker
    assert wpt.parse_meta("'use strict';").globals == ("window", "dedicatedworker")
    assert wpt.parse_meta("// META: global=window,worker\n").globals == ("window", "dedicatedworker")
    # META lines after the first code line are ignored, like wptserve
    assert wpt.parse_meta("x();\n// META: variant=?npu\n").variants == ("",)


def test_pages_and_worker_scripts(mini_wpt):
    [f] = wpt.discover(mini_wpt, ["webnn/conformance_tests"])
    assert f.pages(["cpu"], ["window", "dedicatedworker"]) == ["/webnn/conformance_tests/relu.https.any.html?cpu"]
    assert len(f.pages(None, ["window"])) == 2
    page = wpt.window_page(f, "http://127.0.0.1:1/webnn-shim.js")
    # the shim first, then the harness, the META scripts resolved against the test, then the test
    order = [page.index(s) for s in ("webnn-shim.js", "/resources/testharness.js", "/webnn/resources/helper.js",
                                     "/webnn/conformance_tests/relu.https.any.js")]
    assert order == sorted(order) and '<meta name="timeout" content="long">' in page
    worker = wpt.worker_script(f, "http://h/webnn-shim.js")
    assert worker.index("importScripts(\"http://h/webnn-shim.js\")") < worker.index("testharness.js")
    assert worker.rstrip().endswith("done();")
    assert "new Worker(\"/webnn/conformance_tests/relu.https.any.worker.js?cpu\")" in wpt.worker_page(f, "?cpu")


def test_server_refuses_paths_outside_the_root(mini_wpt):
    server = wpt.WptServer(mini_wpt, "http://h/webnn-shim.js", {})
    try:
        assert server.respond("/../../etc/passwd", "")[0] == 404
        assert server.respond("/resources/testharnessreport.js", "")[2].startswith(b"(function")
        status, ctype, body = server.respond("/webnn/conformance_tests/relu.https.any.html", "cpu")
        assert status == 200 and ctype == "text/html" and b"webnn-shim.js" in body
    finally:
        server.stop()


# --browser: Firefox's path is WebKit's (src/webnn_bridge/devtools/wpt.py run_pages_driven) with another launch(), which
# every Firefox e2e test exercises; a second Firefox start here would cost ~10 s of CI time
@pytest.mark.webnn_engines("chromium", "webkit")
def test_runner_end_to_end(mini_wpt, tmp_path, capsys, webnn_engine, webnn_available):
    """In Chromium and WebKit (--browser)."""
    out = tmp_path / "results.json"
    rc = wpt.main([str(mini_wpt), "--json", str(out), "--failures", "--browser", webnn_engine])
    printed = capsys.readouterr().out
    assert rc == 1  # one subtest fails on purpose
    [page] = json.loads(out.read_text())
    assert page["url"] == "/webnn/conformance_tests/relu.https.any.html?cpu" and page["harness"] == "OK"
    assert {t["name"]: t["status"] for t in page["subtests"]} == {
        "relu through the shim": "PASS", "a subtest that fails": "FAIL"}
    assert "TOTAL" in printed and "1/2" in printed
    assert "FAIL     /webnn/conformance_tests/relu.https.any.html?cpu :: a subtest that fails" in printed


def test_runner_rejects_a_non_wpt_directory(tmp_path, capsys):
    assert wpt.main([str(tmp_path)]) == 2
    assert "not a wpt checkout" in capsys.readouterr().err


def test_headers_files_apply_to_generated_pages(mini_wpt):
    """wptserve's FILE.headers: COOP/COEP for the SharedArrayBuffer tests reach the .any pages."""
    (mini_wpt / "webnn" / "conformance_tests" / "relu.https.any.js.headers").write_text(
        "Cross-Origin-Embedder-Policy: require-corp\nCross-Origin-Opener-Policy: same-origin\n")
    server = wpt.WptServer(mini_wpt, "http://h/webnn-shim.js", {})
    try:
        for page in ("relu.https.any.html", "relu.https.any.worker.html", "relu.https.any.worker.js",
                     "relu.https.any.js"):
            h = server.headers_for(f"/webnn/conformance_tests/{page}")
            assert h == {"Cross-Origin-Embedder-Policy": "require-corp", "Cross-Origin-Opener-Policy": "same-origin"}
        assert server.headers_for("/webnn/resources/helper.js") == {}
    finally:
        server.stop()


def test_native_pages_carry_no_shim_and_aliases_resolve(mini_wpt):
    """--native-chromium serves the same pages without the shim; /resources/WebIDLParser.js is
    wptserve's alias of resources/webidl2/lib/webidl2.js (idlharness needs it)."""
    lib = mini_wpt / "resources" / "webidl2" / "lib"
    lib.mkdir(parents=True)
    (lib / "webidl2.js").write_text("var WebIDL2 = {};\n")
    server = wpt.WptServer(mini_wpt, "", {})
    try:
        status, _, body = server.respond("/webnn/conformance_tests/relu.https.any.html", "cpu")
        assert status == 200 and b"webnn-shim" not in body and b'<script src="">' not in body
        _, _, worker = server.respond("/webnn/conformance_tests/relu.https.any.worker.js", "cpu")
        assert b"importScripts(\"\")" not in worker and b"testharness.js" in worker
        assert server.respond("/resources/WebIDLParser.js", "")[2] == b"var WebIDL2 = {};\n"
    finally:
        server.stop()
