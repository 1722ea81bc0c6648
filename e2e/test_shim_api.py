"""The shim's WebIDL surface and the spec's error behaviour, observed from a real page."""

from __future__ import annotations

import json

import pytest

SETUP = """
const ctx = await navigator.ml.createContext();
const b = new MLGraphBuilder(ctx);
const f32 = (shape) => ({dataType: 'float32', shape});
const errName = (fn) => { try { fn(); return 'no error'; } catch (e) { return e.name; } };
const rejName = async (p) => { try { await p; return 'no error'; } catch (e) { return e.name; } };
"""


def page_websocket(page) -> None:
    """The link's transport (README "Transport"): the page's own websocket, whose send() a test can
    count. Under Playwright's Chromium the shim's default is its shared worker's; in the other
    engines it is already the page's websocket (and their adapters have no init scripts)."""
    if hasattr(page, "add_init_script"):
        page.add_init_script("globalThis.WEBNN_BRIDGE_TRANSPORT = 'websocket';")


def run(page, host, body: str):
    page.goto(f"{host.url}/basic.html")
    return page.evaluate(f"async () => {{ {SETUP}\n{body} }}")


def test_interfaces_are_installed_with_webidl_shape(page, host):
    r = run(
        page,
        host,
        """
        return {
          ml: Object.prototype.toString.call(navigator.ml),
          builderLength: MLGraphBuilder.length,
          addLength: MLGraphBuilder.prototype.add.length,
          constantLength: MLGraphBuilder.prototype.constant.length,
          enumerable: Object.getOwnPropertyDescriptor(MLGraphBuilder.prototype, 'conv2d').enumerable,
          ctxCtor: errName(() => new MLContext()),
          builderNoNew: errName(() => MLGraphBuilder(ctx)),
          illegalThis: errName(() => MLGraphBuilder.prototype.relu.call({}, 1)),
          names: ['ML','MLContext','MLGraphBuilder','MLOperand','MLGraph','MLTensor','MLTensorUsage'].filter(n => !(n in self)),
          accelerated: ctx.accelerated,
          layout: ctx.opSupportLimits().preferredInputLayout,
          limitsAdd: ctx.opSupportLimits().add.a.dataTypes.includes('float32'),
        };""",
    )
    assert r == {
        "ml": "[object ML]",
        "builderLength": 1,
        "addLength": 2,
        "constantLength": 1,
        "enumerable": True,
        "ctxCtor": "TypeError",
        "builderNoNew": "TypeError",
        "illegalThis": "TypeError",
        "names": [],
        "accelerated": True,
        "layout": "nchw",
        "limitsAdd": True,
    }


def test_builder_errors_are_synchronous_and_typed(page, host):
    r = run(
        page,
        host,
        """
        const x = b.input('x', f32([2, 3]));
        const i = b.input('i', {dataType: 'int32', shape: [2, 3]});
        const other = new MLGraphBuilder(ctx).input('x', f32([2, 3]));
        const out = {
          badEnum: errName(() => b.input('y', {dataType: 'float64', shape: [1]})),
          missingShape: errName(() => b.input('y', {dataType: 'float32'})),
          zeroDim: errName(() => b.input('y', f32([2, 0]))),
          dupName: errName(() => b.input('x', f32([1]))),
          emptyName: errName(() => b.input('', f32([1]))),
          mixedTypes: errName(() => b.add(x, i)),
          broadcast: errName(() => b.add(x, b.input('z', f32([4])))),
          foreign: errName(() => b.add(x, other)),
          notOperand: errName(() => b.relu(42)),
          enforceRange: errName(() => b.softmax(x, -1)),
          arity: errName(() => b.add(x)),
          shape: b.add(x, b.input('w', f32([3]))).shape,
          frozen: Object.isFrozen(x.shape),
          byteLength: errName(() => b.constant(f32([4]), new Float32Array(3))),
          viewType: errName(() => b.constant(f32([2]), new Int32Array(2))),
          u8view: b.constant(f32([1]), new Uint8Array(4)).dataType,
          scalar: b.constant('int32', 7).shape.length,
        };
        const y2 = b.relu(x);
        const g = b.build({y: b.relu(x)});
        out.afterBuild = errName(() => b.relu(x));
        out.rebuild = await rejName(b.build({y: y2}));
        await g;
        return out;""",
    )
    assert r == {
        "badEnum": "TypeError",
        "missingShape": "TypeError",
        "zeroDim": "TypeError",
        "dupName": "TypeError",
        "emptyName": "TypeError",
        "mixedTypes": "TypeError",
        "broadcast": "TypeError",
        "foreign": "TypeError",
        "notOperand": "TypeError",
        "enforceRange": "TypeError",
        "arity": "TypeError",
        "shape": [2, 3],
        "frozen": True,
        "byteLength": "TypeError",
        "viewType": "TypeError",
        "u8view": "float32",
        "scalar": 0,
        "afterBuild": "InvalidStateError",
        "rebuild": "InvalidStateError",
    }


def test_build_rejects_inputs_as_outputs_and_empty_outputs(page, host):
    r = run(
        page,
        host,
        """
        const x = b.input('x', f32([2]));
        const b2 = new MLGraphBuilder(ctx);
        const out = [await rejName(b.build({x})), await rejName(b2.build({}))];
        // a build() that failed validation leaves the builder unbuilt: it builds once more
        const y = b.relu(x);
        out.push(await rejName(b.build({y})), await rejName(b.build({y})));
        return out;""",
    )
    assert r == ["TypeError", "TypeError", "no error", "InvalidStateError"]


def test_tensor_and_dispatch_rules(page, host):
    r = run(
        page,
        host,
        """
        const x = b.input('x', f32([2]));
        const g = await b.build({y: b.relu(x)});
        const tin = await ctx.createTensor({...f32([2]), writable: true});
        const tout = await ctx.createTensor({...f32([2]), readable: true});
        const wrong = await ctx.createTensor({...f32([3]), readable: true, writable: true});
        const legacy = await ctx.createTensor({...f32([2]), usage: MLTensorUsage.READ | MLTensorUsage.WRITE});
        const out = {
          names: errName(() => ctx.dispatch(g, {z: tin}, {y: tout})),
          shapes: errName(() => ctx.dispatch(g, {x: wrong}, {y: tout})),
          same: errName(() => ctx.dispatch(g, {x: legacy}, {y: legacy})),
          notWritable: errName(() => ctx.writeTensor(tout, new Float32Array(2))),
          notReadable: await rejName(ctx.readTensor(tin)),
          badLength: errName(() => ctx.writeTensor(tin, new Float32Array(3))),
          legacyFlags: [legacy.readable, legacy.writable],
        };
        ctx.writeTensor(tin, new Float32Array([-3, 4]));
        ctx.dispatch(g, {x: tin}, {y: tout});
        const byob = new Float32Array(2);
        out.byob = [await ctx.readTensor(tout, byob), Array.from(byob)];
        // chained dispatch: an output becomes the next input
        ctx.dispatch(g, {x: tout}, {y: legacy});
        out.chained = Array.from(new Float32Array(await ctx.readTensor(legacy)));
        tin.destroy(); tin.destroy();
        out.destroyedTensor = errName(() => ctx.dispatch(g, {x: tin}, {y: tout}));
        g.destroy();
        out.destroyedGraph = errName(() => ctx.dispatch(g, {x: legacy}, {y: tout}));
        return out;""",
    )
    assert r == {
        "names": "TypeError",
        "shapes": "TypeError",
        "same": "TypeError",
        "notWritable": "TypeError",
        "notReadable": "TypeError",
        "badLength": "TypeError",
        "legacyFlags": [True, True],
        "byob": [None, [0.0, 4.0]],
        "chained": [0.0, 4.0],
        "destroyedTensor": "TypeError",
        "destroyedGraph": "InvalidStateError",
    }


def test_constant_tensors_and_context_loss(page, host):
    r = run(
        page,
        host,
        """
        const ct = await ctx.createConstantTensor(f32([2]), new Float32Array([10, -20]));
        const x = b.input('x', f32([2]));
        const g = await b.build({y: b.add(x, b.constant(ct))});
        ct.destroy();  // legal after build
        const tin = await ctx.createTensor({...f32([2]), writable: true});
        const tout = await ctx.createTensor({...f32([2]), readable: true});
        ctx.writeTensor(tin, new Float32Array([1, 2]));
        ctx.dispatch(g, {x: tin}, {y: tout});
        const out = {sum: Array.from(new Float32Array(await ctx.readTensor(tout))), flags: [ct.constant, ct.readable]};
        const pending = rejName(ctx.readTensor(tout));
        ctx.destroy();
        out.lost = (await ctx.lost).message.length > 0;
        out.pending = await pending;
        out.createAfter = await rejName(ctx.createTensor(f32([1])));
        out.builderAfter = errName(() => new MLGraphBuilder(ctx));
        out.dispatchAfter = errName(() => ctx.dispatch(g, {x: tin}, {y: tout}));
        return out;""",
    )
    assert r["sum"] == [11.0, -18.0] and r["flags"] == [True, False]
    assert r["lost"] is True
    assert r["pending"] in ("InvalidStateError", "no error")  # the read may complete before destroy
    assert r["createAfter"] == "InvalidStateError"
    assert r["builderAfter"] == "InvalidStateError"
    assert r["dispatchAfter"] == "InvalidStateError"


def test_context_options_are_checked(page, host):
    r = run(
        page,
        host,
        """
        return {
          badPolicy: await rejName(navigator.ml.createContext({computePolicy: 'turbo'})),
          fallback: (await navigator.ml.createContext({computePolicy: 'fallback'})).accelerated,
          notAccel: (await navigator.ml.createContext({accelerated: false})).accelerated,
          legacy: (await navigator.ml.createContext({deviceType: 'gpu'})).accelerated,
          badLegacy: await rejName(navigator.ml.createContext({deviceType: 'tpu'})),
        };""",
    )
    assert r == {"badPolicy": "TypeError", "fallback": True, "notAccel": False, "legacy": True, "badLegacy": "TypeError"}


def test_later_contexts_share_the_first_ones_rules(page, host, monkeypatch):
    """A page's later contexts of the same profile get their limits and rules as a key the page
    holds (createContext's rulesKnown): they report the same opSupportLimits() and their builders
    refuse what the first's refuse, with the same errors."""
    from webnn_bridge.bridge.session import Session

    known = []
    real = Session.on_createContext
    monkeypatch.setattr(Session, "on_createContext", lambda s, h, p: known.append(h.get("rulesKnown")) or real(s, h, p))
    r = run(
        page,
        host,
        """
        const ctxs = [ctx, await navigator.ml.createContext(), await navigator.ml.createContext({powerPreference: 'low-power'})];
        const limits = ctxs.map((c) => JSON.stringify(c.opSupportLimits()));
        const refused = ctxs.map((c) => {
          const bb = new MLGraphBuilder(c);
          return [errName(() => bb.add(bb.input('a', f32([2, 3])), bb.input('b', f32([4])))),
                  errName(() => bb.conv2d(bb.input('x', f32([1, 2, 3])), bb.input('w', f32([1, 2, 3, 3]))))];
        });
        return {same: limits.every((l) => l === limits[0]), refused};""",
    )
    assert r == {"same": True, "refused": [["TypeError", "TypeError"]] * 3}
    assert known[0] == [] and all(k and len(k) == 1 for k in known[1:])


def test_dedicated_worker_with_import_scripts(page, host):
    page.goto(f"{host.url}/basic.html")
    r = page.evaluate(
        """async (shim) => {
        const src = `importScripts(${JSON.stringify(shim)});
          onmessage = async () => {
            const ctx = await navigator.ml.createContext();
            const b = new MLGraphBuilder(ctx);
            const x = b.input('x', {dataType: 'float32', shape: [3]});
            const g = await b.build({y: b.sigmoid(x)});
            const ti = await ctx.createTensor({dataType: 'float32', shape: [3], writable: true});
            const to = await ctx.createTensor({dataType: 'float32', shape: [3], readable: true});
            ctx.writeTensor(ti, new Float32Array([0, 100, -100]));
            ctx.dispatch(g, {x: ti}, {y: to});
            postMessage(Array.from(new Float32Array(await ctx.readTensor(to))));
          };`;
        const w = new Worker(URL.createObjectURL(new Blob([src], {type: 'text/javascript'})));
        return await new Promise((res, rej) => { w.onmessage = (e) => res(e.data); w.onerror = (e) => rej(e.message); w.postMessage(0); });
    }""",
        f"{host.url}/webnn-shim.js",
    )
    assert r == pytest.approx([0.5, 1.0, 0.0], abs=1e-6)


def test_repeated_builder_calls_are_independent(page, host):
    """Repeated calls give equal but independent descriptors, repeated errors stay errors of the
    same type, and state checks still come first."""
    r = run(
        page,
        host,
        """
        const x = b.input('x', f32([2, 3]));
        const y1 = b.relu(x), y2 = b.relu(x);
        const independent = y1.shape !== y2.shape && JSON.stringify(y1.shape) === JSON.stringify(y2.shape);
        const bad = b.input('bad', {dataType: 'int32', shape: [2]});
        const e1 = errName(() => b.softmax(bad, 0)), e2 = errName(() => b.softmax(bad, 0));
        const b2 = new MLGraphBuilder(ctx);
        const x2 = b2.input('x', f32([2, 3]));
        await b2.build({y: b2.relu(x2)});
        const afterBuild = errName(() => b2.relu(x2));  // a valid call, but the builder has built
        return {independent, e1, e2, afterBuild};
        """,
    )
    assert r == {"independent": True, "e1": "TypeError", "e2": "TypeError", "afterBuild": "InvalidStateError"}


def test_constants_uploaded_as_copied_serve_every_builder_that_uses_them(page, app_dir, monkeypatch):
    """A host that holds no constant of the page's origin yet: constant() uploads each new copy at
    once (putConstant), builders that share a copy share its upload, and once built, an unchanged
    buffer is named by the digest the host replied (not uploaded again)."""
    from webnn_bridge.bridge.embed import start_host
    from webnn_bridge.bridge.session import Session

    seen = []

    def constants(h, p):  # how each build names its constants, before the host handles them
        return [("upload" if "upload" in c else "bytes" if "part" in c else "digest") for c in h["constants"]]

    for kind in ("putConstant", "build"):
        real = getattr(Session, f"on_{kind}")
        monkeypatch.setattr(Session, f"on_{kind}", lambda s, h, p, real=real, kind=kind: seen.append(
            kind if kind == "putConstant" else constants(h, p)) or real(s, h, p))
    fresh = start_host(app_dir=app_dir)
    try:
        page.goto(f"{fresh.url}/basic.html")
        r = page.evaluate("""async () => {
          const ctx = await navigator.ml.createContext();
          const f32 = (shape) => ({dataType: 'float32', shape});
          const run = async (g) => {
            const tin = await ctx.createTensor({...f32([4]), writable: true});
            const tout = await ctx.createTensor({...f32([4]), readable: true});
            ctx.writeTensor(tin, new Float32Array([10, 20, 30, 40]));
            ctx.dispatch(g, {x: tin}, {y: tout});
            return Array.from(new Float32Array(await ctx.readTensor(tout)));
          };
          const w = new Float32Array([1, 2, 3, 4]);
          const b1 = new MLGraphBuilder(ctx), b2 = new MLGraphBuilder(ctx), b3 = new MLGraphBuilder(ctx);
          const x1 = b1.input('x', f32([4])), x2 = b2.input('x', f32([4])), x3 = b3.input('x', f32([4]));
          const y1 = b1.add(b1.add(x1, b1.constant(f32([4]), w)), b1.constant(f32([4]), w));
          const y2 = b2.mul(x2, b2.constant(f32([4]), w));  // before b1 builds: b1's upload
          w[0] = 100;  // changed: a new copy, uploaded
          const y3 = b3.sub(x3, b3.constant(f32([4]), w));
          const g1 = await b1.build({y: y1});
          const g2 = await b2.build({y: y2});
          const g3 = await b3.build({y: y3});
          const b4 = new MLGraphBuilder(ctx);
          const x4 = b4.input('x', f32([4]));
          const g4 = await b4.build({y: b4.add(x4, b4.constant(f32([4]), w))});
          return [await run(g1), await run(g2), await run(g3), await run(g4)];
        }""")
    finally:
        fresh.stop()
    assert r == [[12, 24, 36, 48], [10, 40, 90, 160], [-90, 18, 27, 36], [110, 22, 33, 44]]
    # two uploads; b1 and b2 share the first, b3 has the second; b4 names it by digest alone
    assert seen == ["putConstant", "putConstant", ["upload", "upload"], ["upload"], ["upload"], ["digest"]]


@pytest.mark.webnn_lacks("a way for the test to force a garbage collection (Chromium's CDP / --js-flags)",
                        "firefox", "webkit")
def test_a_dropped_builders_uploads_are_released(browser, app_dir):
    """A builder that never builds is garbage: its uploads (constant() copies sent at once) are
    released on the host through the shim's FinalizationRegistry (releaseConstants), so the page's
    budget comes back. Needs a browser whose page can force a garbage collection."""
    from webnn_bridge.bridge.embed import CHROMIUM, CHROMIUM_ARGS, start_host
    from webnn_bridge.bridge.session import CONTEXT_BYTES

    fresh = start_host(app_dir=app_dir)  # holds no constants of the origin: constant() uploads at once
    gc_browser = browser.browser_type.launch(executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, "--js-flags=--expose-gc"])
    try:
        page = gc_browser.new_page()
        page.goto(f"{fresh.url}/basic.html")
        page.evaluate("""async () => {
          window.ctx = await navigator.ml.createContext();
          (() => {
            const b = new MLGraphBuilder(ctx);
            for (let i = 0; i < 4; i++) b.constant({dataType: 'float32', shape: [256]}, new Float32Array(256).fill(i));
          })();
          await new Promise((r) => setTimeout(r, 200));
        }""")
        (session,) = [s for s in fresh.host.sessions.values() if s.contexts]
        assert len(session.uploads) == 4 and session.budget.used == CONTEXT_BYTES + 4 * 1024
        for _ in range(50):
            page.evaluate("async () => { gc(); await new Promise((r) => setTimeout(r, 50)); }")
            if not session.uploads:
                break
        assert session.uploads == {}
        assert session.budget.used == CONTEXT_BYTES
    finally:
        gc_browser.close()
        fresh.stop()


def test_big_tensors_travel_as_raw_frames(page, app_dir, monkeypatch):
    """Writes and reads of 64 KiB and more send the tensor's bytes as a raw frame after their
    message (no combined frame): a write still takes the bytes as they were at the call, from the
    view's own range, and both kinds of read get them back."""
    from webnn_bridge.bridge import protocol
    from webnn_bridge.bridge.embed import start_host
    from webnn_bridge.bridge.session import Session

    raw_in, raw_out = [], []
    real_paired, real_read = Session._paired, Session.on_readTensor
    monkeypatch.setattr(Session, "_paired", lambda s, f: raw_in.append(len(f)) or real_paired(s, f))
    monkeypatch.setattr(Session, "on_readTensor", lambda s, h, p: (
        lambda r: raw_out.append(isinstance(r, list)) or r)(real_read(s, h, p)))
    fresh = start_host(app_dir=app_dir)
    try:
        page.goto(f"{fresh.url}/basic.html")
        r = page.evaluate("""async () => {
          const n = 100000;
          const ctx = await navigator.ml.createContext();
          const b = new MLGraphBuilder(ctx);
          const g = await b.build({y: b.relu(b.input('x', {dataType: 'float32', shape: [n]}))});
          const tin = await ctx.createTensor({dataType: 'float32', shape: [n], writable: true});
          const tout = await ctx.createTensor({dataType: 'float32', shape: [n], readable: true});
          const want = (src) => Array.from(src, (v) => Math.max(v, 0));
          const same = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);
          const results = [];
          const sources = [
            new Float32Array(n).map((_, i) => Math.sin(i)),                       // a whole buffer
            new Float32Array(n + 8).map((_, i) => i - 50000).subarray(5, n + 5),  // a view's range
            new Float32Array(new ArrayBuffer(4 * n, {maxByteLength: 8 * n})),  // resizable
          ];
          sources[2].forEach((_, i) => { sources[2][i] = 1 - i; });
          for (const src of sources) {
            const before = Array.from(src);
            ctx.writeTensor(tin, src);
            src.fill(123);  // after the call: not what was written
            ctx.dispatch(g, {x: tin}, {y: tout});
            const fresh = new Float32Array(await ctx.readTensor(tout));
            const into = new Float32Array(n);
            await ctx.readTensor(tout, into);
            results.push(same(fresh, want(before)) && same(into, want(before)));
          }
          return results;
        }""")
    finally:
        fresh.stop()
    assert r == [True, True, True]
    assert raw_in == [400000, 400000], "the two plain buffers are sent raw; a resizable one is copied into a frame"
    assert raw_out == [True, True] * 3, "both kinds of read take their bytes as a raw frame"
    assert protocol.RAW_MIN_BYTES <= 400000


def test_a_build_naming_constants_the_host_no_longer_holds_sends_their_bytes(page, app_dir, monkeypatch):
    """A page names the constants it knows the digest of, in one round trip; a host that has let
    them go (its store is bounded) answers which it lacks, and the page sends the build again with
    those bytes."""
    from webnn_bridge.bridge.api import ML
    from webnn_bridge.bridge.embed import start_host
    from webnn_bridge.bridge.memo import ConstantStore
    from webnn_bridge.bridge.session import Session

    ml = ML()
    attempts = []
    real = Session.on_build
    monkeypatch.setattr(Session, "on_build", lambda s, h, p: attempts.append(sorted(
        "bytes" if "part" in c else "digest" if "sha256" in c else "upload" for c in h["constants"])) or real(s, h, p))
    fresh = start_host(app_dir=app_dir, ml_factory=lambda: ml)
    try:
        page.goto(f"{fresh.url}/basic.html")
        build = """async (op) => {
          window.ctx = window.ctx || await navigator.ml.createContext();
          window.w = window.w || new Float32Array([1, 2, 3, 4]);
          const f32 = {dataType: 'float32', shape: [4]};
          const b = new MLGraphBuilder(ctx);
          const g = await b.build({y: b[op](b.input('x', f32), b.constant(f32, w))});
          const tin = await ctx.createTensor({...f32, writable: true});
          const tout = await ctx.createTensor({...f32, readable: true});
          ctx.writeTensor(tin, new Float32Array([10, 20, 30, 40]));
          ctx.dispatch(g, {x: tin}, {y: tout});
          return Array.from(new Float32Array(await ctx.readTensor(tout)));
        }"""
        assert page.evaluate(build, "add") == [11, 22, 33, 44]
        ml.constant_store = ConstantStore()  # the host let every constant go
        assert page.evaluate(build, "mul") == [10, 40, 90, 160]
        assert page.evaluate(build, "sub") == [9, 18, 27, 36]
    finally:
        fresh.stop()
    assert attempts == [["upload"], ["digest"], ["bytes"], ["digest"]]


def test_identical_graphs_from_different_builders_send_identical_messages(page, app_dir, monkeypatch):
    """The shim numbers a graph's operands from 0: two builders of one graph (each with its own
    object ids, one with an unused output of split and a scalar constant) send the same message, and
    the host's build memo skips the second replay; another graph replays."""
    from webnn_bridge.bridge.embed import start_host
    from webnn_bridge.bridge.session import Session

    messages, replays = [], []
    real_build, real_replay = Session.on_build, Session.replay
    monkeypatch.setattr(Session, "on_build", lambda s, h, p: messages.append(
        json.loads(json.dumps({k: v for k, v in h.items() if k not in ("id", "graph", "release")}))) or real_build(s, h, p))
    monkeypatch.setattr(Session, "replay", lambda s, *a: replays.append(1) or real_replay(s, *a))
    fresh = start_host(app_dir=app_dir)
    try:
        page.goto(f"{fresh.url}/basic.html")
        r = page.evaluate("""async () => {
          const ctx = await navigator.ml.createContext();
          const w = new Float32Array([1, 2, 3, 4]);
          const run = async (op) => {
            const b = new MLGraphBuilder(ctx);
            b.input('unused', {dataType: 'float32', shape: [1]});  // ids the graph does not use
            const x = b.input('x', {dataType: 'float32', shape: [4]});
            const [lo] = b.split(b[op](x, b.constant({dataType: 'float32', shape: [4]}, w)), 2);
            const g = await b.build({y: b.mul(lo, b.constant('float32', 2))});
            const tin = await ctx.createTensor({dataType: 'float32', shape: [4], writable: true});
            const tout = await ctx.createTensor({dataType: 'float32', shape: [2], readable: true});
            ctx.writeTensor(tin, new Float32Array([10, 20, 30, 40]));
            ctx.dispatch(g, {x: tin}, {y: tout});
            return Array.from(new Float32Array(await ctx.readTensor(tout)));
          };
          return [await run('add'), await run('add'), await run('sub')];
        }""")
    finally:
        fresh.stop()
    assert r == [[22, 44], [22, 44], [18, 36]]
    assert len(messages) == 3 and replays == [1, 1]
    assert [c.get("upload") is not None for c in messages[0]["constants"]] == [True, False]  # uploaded; scalar
    assert [c.get("sha256") is not None for c in messages[1]["constants"]] == [True, False]  # named by digest
    first, second = ({**m, "constants": [{k: v for k, v in c.items() if k not in ("upload", "sha256", "key")}
                                         for c in m["constants"]]} for m in messages[:2])
    assert first == second  # the same numbering
    assert first["outputs"] == {"y": max(o for n in first["nodes"] for o in n["outputs"])}


def test_a_runs_messages_issued_across_awaits_cross_as_one_frame(page, host, webnn_engine):
    """writeTensor and dispatch (fire-and-forget) wait for the next task or the next message that
    awaits a reply: a run issued across awaits, as onnxruntime-web issues it, is one frame to the
    host, in order; fire-and-forget messages with nothing after them still leave (next task)."""
    page_websocket(page)  # frames counted at WebSocket.send: the page's own socket
    r = run(
        page,
        host,
        """
        const x = b.input('x', f32([2])), y = b.input('y', f32([2]));
        const g = await b.build({out: b.add(x, y)});
        const tx = await ctx.createTensor({...f32([2]), writable: true});
        const ty = await ctx.createTensor({...f32([2]), writable: true});
        const to = await ctx.createTensor({...f32([2]), readable: true});
        const send = WebSocket.prototype.send;
        let frames = 0;
        WebSocket.prototype.send = function (...a) { frames++; return send.apply(this, a); };
        const tick = () => new Promise((r) => setTimeout(r, 0));
        try {
          ctx.writeTensor(tx, new Float32Array([1, 2]));
          await null;
          ctx.writeTensor(ty, new Float32Array([10, 20]));
          await Promise.resolve();
          ctx.dispatch(g, {x: tx, y: ty}, {out: to});
          await null;
          const first = Array.from(new Float32Array(await ctx.readTensor(to)));
          const oneRun = frames;
          // fire-and-forget alone: sent at the next task, before a later read
          frames = 0;
          ctx.writeTensor(tx, new Float32Array([3, 4]));
          ctx.dispatch(g, {x: tx, y: ty}, {out: to});
          // the next task: Chromium and Firefox run a MessageChannel message (the shim's tick)
          // before a setTimeout(0) posted after it; WebKitGTK may run several timers first
          let turns = 0;
          while (frames === 0 && turns < 20) { await tick(); turns++; }
          const alone = frames;
          const second = Array.from(new Float32Array(await ctx.readTensor(to)));
          return {first, oneRun, alone, second, turns};
        } finally {
          WebSocket.prototype.send = send;
        }""",
    )
    turns = r.pop("turns")
    assert turns == 1 or (webnn_engine == "webkit" and turns < 20), (turns, r)
    assert r == {"first": [11, 22], "oneRun": 1, "alone": 1, "second": [13, 24]}


def test_held_messages_leave_in_bounded_frames(page, host):
    """A page writing in a loop of awaits (no task between): what the shim holds leaves once past
    64 KiB, in batch frames of about that size, in order."""
    page_websocket(page)  # frames counted at WebSocket.send: the page's own socket
    r = run(
        page,
        host,
        """
        const t = await ctx.createTensor({...f32([256]), writable: true, readable: true});
        const send = WebSocket.prototype.send;
        const sizes = [];
        WebSocket.prototype.send = function (d) { sizes.push(typeof d === 'string' ? d.length : d.byteLength); return send.call(this, d); };
        try {
          for (let i = 0; i < 200; i++) { ctx.writeTensor(t, new Float32Array(256).fill(i)); await null; }
          const last = new Float32Array(await ctx.readTensor(t));
          return {frames: sizes.length, biggest: Math.max(...sizes), last: [last[0], last[255]]};
        } finally {
          WebSocket.prototype.send = send;
        }""",
    )
    assert r["last"] == [199, 199]
    assert 3 <= r["frames"] < 200
    assert r["biggest"] < 80 * 1024


def test_dispatch_checks_are_the_hosts_rules_with_the_hosts_messages(page, host):
    """dispatch()'s checks of its tensors run in the page from the rules the host runs
    (src/webnn_bridge/ops/calls.py check_dispatch): the same TypeError and message on both sides."""
    from webnn_bridge.bridge.api import ML, MLGraphBuilder
    from webnn_bridge.ops.core import WebNNTypeError

    cases = ["names", "constant", "twice", "shape"]
    page_msgs = run(page, host, """
        const x = b.input('x', f32([2]));
        const g = await b.build({y: b.relu(x)});
        const w = {dataType: 'float32', shape: [2], writable: true, readable: true};
        const t = await ctx.createTensor(w), u = await ctx.createTensor(w);
        const wrong = await ctx.createTensor({...w, shape: [3]});
        const k = await ctx.createConstantTensor(f32([2]), new Float32Array(2));
        const msg = (fn) => { try { fn(); return 'no error'; } catch (e) { return `${e.name}: ${e.message}`; } };
        return [
          msg(() => ctx.dispatch(g, {z: t}, {y: u})),
          msg(() => ctx.dispatch(g, {x: k}, {y: u})),
          msg(() => ctx.dispatch(g, {x: t}, {y: t})),
          msg(() => ctx.dispatch(g, {x: wrong}, {y: u})),
        ];""")
    ctx = ML().createContext({})
    b = MLGraphBuilder(ctx)
    g = b.build({"y": b.relu(b.input("x", {"dataType": "float32", "shape": [2]}))})
    w = {"dataType": "float32", "shape": [2], "writable": True, "readable": True}
    t, u, wrong = ctx.createTensor(w), ctx.createTensor(w), ctx.createTensor({**w, "shape": [3]})
    k = ctx.createConstantTensor({"dataType": "float32", "shape": [2]}, bytes(8))
    python_msgs = []
    for ins, outs in (({"z": t}, {"y": u}), ({"x": k}, {"y": u}), ({"x": t}, {"y": t}), ({"x": wrong}, {"y": u})):
        with pytest.raises(WebNNTypeError) as e:
            ctx.dispatch(g, ins, outs)
        python_msgs.append(f"TypeError: {e.value}")
    assert dict(zip(cases, page_msgs)) == dict(zip(cases, python_msgs))
    assert "is float32 [3], the graph expects float32 [2]" in page_msgs[3]


def test_an_accepted_binding_is_not_checked_again_but_others_are(page, host):
    """dispatch() remembers the tensor bindings a graph accepted (onnxruntime-web dispatches the
    same tensors every run); a binding that differs in any way is checked again, and a tensor of
    an accepted binding that was destroyed since is refused."""
    r = run(page, host, """
        const x = b.input('x', f32([2]));
        const g = await b.build({y: b.relu(x)});
        const w = {dataType: 'float32', shape: [2], writable: true, readable: true};
        const t = await ctx.createTensor(w), u = await ctx.createTensor(w), v = await ctx.createTensor(w);
        const msg = (fn) => { try { fn(); return 'ok'; } catch (e) { return e.name; } };
        const out = [];
        ctx.writeTensor(t, new Float32Array([-1, 2]));
        for (let i = 0; i < 3; i++) out.push(msg(() => ctx.dispatch(g, {x: t}, {y: u})));
        out.push(Array.from(new Float32Array(await ctx.readTensor(u))));
        out.push(msg(() => ctx.dispatch(g, {x: u}, {y: u})));  // the same tensor twice
        out.push(msg(() => ctx.dispatch(g, {x: u}, {y: v})));  // accepted pairs in another order
        out.push(msg(() => ctx.dispatch(g, {x: t}, {y: t})));
        v.destroy();
        out.push(msg(() => ctx.dispatch(g, {x: u}, {y: v})));
        out.push(Array.from(new Float32Array(await ctx.readTensor(u))));
        return out;""")
    assert r == ["ok", "ok", "ok", [0, 2], "TypeError", "ok", "TypeError", "TypeError", [0, 2]]

