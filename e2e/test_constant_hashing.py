"""constant()'s copies hashed off the page's thread: where the host already holds constants of the
page's origin (a reload, a second context) but lists no keys for them, constant() hashes its copy
so that build() can name it by digest; the page's hashing worker does that beside the builder
calls (its buffer transferred there and back), and a page that cannot start one (a policy
forbidding blob: workers) hashes on its own thread. Either way the build names what the host
holds, sends what it lacks, and a source buffer changed after constant() does not change the
graph. Where the host lists the keys of what it holds (the pages of the origin sent them after
their builds), constant() copies and hashes nothing it lists: build() names those by key."""

from __future__ import annotations

import pytest

from e2e.conftest import start_host

# counts the page's Worker constructions, the hashing worker's ready answer and the buffers sent
# to it (installed before the page's first createContext, which is when the shim starts its
# worker; the shim's own calls pass through unchanged)
WATCH_WORKERS = """(() => {
  const Real = window.Worker;
  window.__workers = { made: 0, ready: 0, buffers: 0, failed: 0 };
  if (typeof Real !== 'function') return;
  window.Worker = function (...args) {
    let w;
    try { w = new Real(...args); } catch (e) { window.__workers.failed++; throw e; }
    window.__workers.made++;
    w.addEventListener('message', (e) => { if (e.data && e.data.id === 0 && e.data.ok) window.__workers.ready++; });
    w.addEventListener('error', () => { window.__workers.failed++; });
    const post = w.postMessage.bind(w);
    w.postMessage = (m, t) => { if (m && m.buf) window.__workers.buffers++; return post(m, t); };
    return w;
  };
  window.Worker.prototype = Real.prototype;
})();"""

BUILDS = """async () => {
  WATCH_WORKERS
  const f32 = {dataType: 'float32', shape: [4]};
  const run = async (ctx, w1, w2, changeAfter) => {
    const b = new MLGraphBuilder(ctx);
    const x = b.input('x', f32);
    const c1 = b.constant(f32, w1), c2 = b.constant(f32, w2);
    if (changeAfter) { w1.fill(-100); w2.fill(-100); }  // constant() copied them
    const g = await b.build({y: b.mul(b.add(x, c1), c2)});
    const tin = await ctx.createTensor({...f32, writable: true});
    const tout = await ctx.createTensor({...f32, readable: true});
    ctx.writeTensor(tin, new Float32Array([10, 20, 30, 40]));
    ctx.dispatch(g, {x: tin}, {y: tout});
    return Array.from(new Float32Array(await ctx.readTensor(tout)));
  };
  const first = await run(await navigator.ml.createContext(), new Float32Array([1, 2, 3, 4]), new Float32Array([2, 2, 2, 2]));
  // a second context: the host holds this origin's constants now, so constant() hashes
  const ctx = await navigator.ml.createContext();
  for (let i = 0; i < 100 && window.__workers.ready === 0 && window.__workers.made > 0 && window.__workers.failed === 0; i++) {
    await new Promise((r) => setTimeout(r, 20));
  }
  // the same bytes as the first build's (other buffers), and bytes the host has never seen
  const second = await run(ctx, new Float32Array([1, 2, 3, 4]), new Float32Array([3, 3, 3, 3]), true);
  return {first, second, workers: window.__workers};
}""".replace("WATCH_WORKERS", WATCH_WORKERS)


@pytest.fixture
def no_keys(monkeypatch):
    """A host that learns no keys: constant() hashes its copies, as before the host lists keys."""
    from webnn_bridge.bridge.session import Session

    monkeypatch.setattr(Session, "on_constantKeys", lambda s, h, p: None)


def _in_fresh_host(page, app_dir, page_name: str, script: str):
    """``script``'s result in a page of a host of its own (whose constant store starts empty)."""
    fresh = start_host(app_dir=app_dir)
    try:
        page.goto(f"{fresh.url}/{page_name}")
        return page.evaluate(script)
    finally:
        fresh.stop()


def _builds(page, app_dir, monkeypatch, page_name: str) -> dict:
    """BUILDS in a fresh host's page: its results and workers, and what each build named (checked
    here: the first build uploads both constants; the second names both by digest, then sends the
    one the host lacks), the results being the copies made at constant(), not the changed buffers."""
    from webnn_bridge.bridge.session import Session

    attempts = []
    real = Session.on_build
    monkeypatch.setattr(Session, "on_build", lambda s, h, p: attempts.append(sorted(
        "bytes" if "part" in c else "digest" if "sha256" in c else "upload" for c in h["constants"])) or real(s, h, p))
    r = _in_fresh_host(page, app_dir, page_name, BUILDS)
    assert r["first"] == [22, 44, 66, 88]
    assert r["second"] == [33, 66, 99, 132]
    assert attempts == [["upload", "upload"], ["digest", "digest"], ["bytes", "digest"]]
    return r["workers"]


def test_a_second_context_hashes_its_constants_in_the_pages_worker(page, app_dir, monkeypatch, no_keys):
    assert _builds(page, app_dir, monkeypatch, "basic.html") == {"made": 1, "ready": 1, "buffers": 2, "failed": 0}


def test_a_page_that_forbids_blob_workers_hashes_on_its_own_thread(page, app_dir, monkeypatch, no_keys):
    (app_dir / "no_workers.html").write_text(
        "<!doctype html><html><head><meta charset=utf-8>"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"worker-src 'none'\">"
        "<title>no workers</title></head><body>no workers</body></html>")
    workers = _builds(page, app_dir, monkeypatch, "no_workers.html")
    if workers["made"] and not workers["failed"]:
        pytest.fail(f"the page's policy forbids workers, yet one started: {workers}")
    assert workers["ready"] == 0 and workers["buffers"] == 0


# the hashing worker fails while it holds a copy (simulated: the copy's buffer is taken and the
# worker reports an error): the build that needed the copy fails with an OperationError, never
# builds from bytes it no longer has; the page hashes on its own thread from then on
LOST = """async () => {
  const Real = window.Worker;
  window.Worker = function (...args) {
    const w = new Real(...args);
    w.addEventListener('message', (e) => { if (e.data && e.data.id === 0 && e.data.ok) window.__hasherReady = true; });
    const post = w.postMessage.bind(w);
    w.postMessage = (m, t) => {
      if (!(m && m.buf)) return post(m, t);
      structuredClone(m.buf, {transfer: [m.buf]});  // away, and never coming back
      setTimeout(() => w.dispatchEvent(new Event('error')), 0);
    };
    return w;
  };
  window.Worker.prototype = Real.prototype;
  const f32 = {dataType: 'float32', shape: [4]};
  const run = async (ctx, w) => {
    const b = new MLGraphBuilder(ctx);
    const g = await b.build({y: b.add(b.input('x', f32), b.constant(f32, w))});
    const tin = await ctx.createTensor({...f32, writable: true});
    const tout = await ctx.createTensor({...f32, readable: true});
    ctx.writeTensor(tin, new Float32Array([10, 20, 30, 40]));
    ctx.dispatch(g, {x: tin}, {y: tout});
    return Array.from(new Float32Array(await ctx.readTensor(tout)));
  };
  const first = await run(await navigator.ml.createContext(), new Float32Array([1, 2, 3, 4]));
  const ctx = await navigator.ml.createContext();
  for (let i = 0; i < 250 && !window.__hasherReady; i++) await new Promise((r) => setTimeout(r, 20));
  let failed = null;
  try { await run(ctx, new Float32Array([5, 6, 7, 8])); } catch (e) { failed = [e.name, e.message]; }
  const after = await run(ctx, new Float32Array([9, 9, 9, 9]));
  return {first, failed, after};
}"""


def test_a_copy_lost_with_the_hashing_worker_fails_its_build_and_the_page_hashes_itself(page, app_dir, no_keys):
    r = _in_fresh_host(page, app_dir, "basic.html", LOST)
    assert r["first"] == [11, 22, 33, 44]
    assert r["failed"] is not None and r["failed"][0] == "OperationError" and "hashing worker" in r["failed"][1]
    assert r["after"] == [19, 29, 39, 49]


# the keyed path: a first context uploads; once the host has learnt the constants' keys (the page
# sends them after its build), a second context names the same bytes by key (no copy, no digest),
# and a buffer changed after constant() changes nothing; a listed constant the host has lost since
# is sent from the page's buffer when that is unchanged, and fails the build when it is not
KEYED_FIRST = """async () => {
  const f32 = {dataType: 'float32', shape: [4]};
  window.__run = async (ctx, w, changeAfter) => {
    const b = new MLGraphBuilder(ctx);
    const c = b.constant(f32, w);
    if (changeAfter) w.fill(-100);
    const g = await b.build({y: b.add(b.input('x', f32), c)});
    const tin = await ctx.createTensor({...f32, writable: true});
    const tout = await ctx.createTensor({...f32, readable: true});
    ctx.writeTensor(tin, new Float32Array([10, 20, 30, 40]));
    ctx.dispatch(g, {x: tin}, {y: tout});
    return Array.from(new Float32Array(await ctx.readTensor(tout)));
  };
  return window.__run(await navigator.ml.createContext(), new Float32Array([1, 2, 3, 4]));
}"""
KEYED_SECOND = """async ([changeAfter]) => {
  const ctx = await navigator.ml.createContext();
  try { return await window.__run(ctx, new Float32Array([1, 2, 3, 4]), changeAfter); } catch (e) { return [e.name, e.message]; }
}"""


def test_a_constant_the_host_lists_is_named_by_key_and_never_copied(page, app_dir, monkeypatch):
    import time

    from webnn_bridge.bridge.session import Session

    attempts, evict = [], []
    real = Session.on_build

    def on_build(s, h, p):
        attempts.append(sorted("bytes" if "part" in c else "digest" if "sha256" in c else "key" if "key" in c
                               else "upload" for c in h["constants"]))
        if evict:  # the host loses the constant and the build memo's entry after listing its key
            evict.clear()
            s.ml.constant_store.idle_bytes = 0
            s.ml.constant_store.trim()
            s.ml.build_memo = type(s.ml.build_memo)()
        return real(s, h, p)

    monkeypatch.setattr(Session, "on_build", on_build)
    fresh = start_host(app_dir=app_dir)
    try:
        page.goto(f"{fresh.url}/basic.html")
        assert page.evaluate(KEYED_FIRST) == [11, 22, 33, 44]
        store, origin = fresh.host.ml.constant_store, fresh.url
        for _ in range(250):  # the page sends the keys once idle after its build
            if store.held_keys(origin):
                break
            time.sleep(0.02)
        assert len(store.held_keys(origin)) == 1
        assert page.evaluate(KEYED_SECOND, [True]) == [11, 22, 33, 44]  # named by key: the change is not seen
        assert attempts == [["upload"], ["key"]]
        del attempts[:]
        evict.append(1)
        assert page.evaluate(KEYED_SECOND, [False]) == [11, 22, 33, 44]  # the page's unchanged buffer is sent
        assert attempts == [["key"], ["bytes"]]
        evict.append(1)
        failed = page.evaluate(KEYED_SECOND, [True])
        assert failed[0] == "OperationError" and "changed since constant()" in failed[1]
    finally:
        fresh.stop()
