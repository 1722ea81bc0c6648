"""The speed paths in a real page: constants the host holds are not uploaded again, batched
messages and rebuilt graphs still compute the right thing."""

from __future__ import annotations

import random

import numpy as np
import pytest

# speed paths (what the host copies and hashes): engine-independent host behaviour; Chromium only (CI time)
pytestmark = pytest.mark.webnn_engines("chromium")

# y = (x + A) * B: the second build reuses A and brings a new B, so one constant is held by the
# host and the other is uploaded (the page renumbers the parts it still sends)
JS = """async ([a, b1, b2]) => {
  const ctx = await navigator.ml.createContext();
  const run = async (bvals) => {
    const builder = new MLGraphBuilder(ctx);
    const desc = {dataType: 'float32', shape: [4]};
    const x = builder.input('x', desc);
    const y = builder.mul(builder.add(x, builder.constant(desc, new Float32Array(a))),
                          builder.constant(desc, new Float32Array(bvals)));
    const g = await builder.build({y});
    const tin = await ctx.createTensor({...desc, writable: true});
    const tout = await ctx.createTensor({...desc, readable: true});
    ctx.writeTensor(tin, new Float32Array([1, 2, 3, 4]));
    ctx.dispatch(g, {x: tin}, {y: tout});
    return Array.from(new Float32Array(await ctx.readTensor(tout)));
  };
  return [await run(b1), await run(b1), await run(b2)];
}"""


def test_rebuilds_reuse_held_constants_and_compute_correctly(host, page, monkeypatch):
    page.goto(f"{host.url}/basic.html")
    # the host holds a constant of this origin before the context opens (as whenever another test
    # ran first): the context's constant() calls then hash their copies, and build() uploads only
    # what the host lacks. A context that opened when the host held none uploads every copy as it
    # makes it (the first build's path: the upload runs beside the builder calls).
    page.evaluate("""async () => {
      const ctx = await navigator.ml.createContext();
      const b = new MLGraphBuilder(ctx);
      const d = {dataType: 'float32', shape: [1]};
      await b.build({y: b.add(b.input('x', d), b.constant(d, new Float32Array([Math.random()])))});
    }""")
    store = host.host.ml.constant_store
    uploads = []
    real_put = store.put
    monkeypatch.setattr(store, "put", lambda origin, sha, data: uploads.append(sha) or real_put(origin, sha, data))
    # values no other test of the session uses: a constant the host already holds for this origin
    # (another test's [1, 2, 3, 4], say) is rightly not uploaded again
    u = float(np.float32(random.random()))
    a, b1, b2 = [0.5, -1, 2, 8 + u], [1, 2, 3, 4 + u], [-1, 0.25, 10, 3 + u]
    before = dict(store._entries)
    got = page.evaluate(JS, [a, b1, b2])
    x = np.array([1, 2, 3, 4], np.float32)
    for result, b in zip(got, (b1, b1, b2)):
        np.testing.assert_array_equal(np.array(result, np.float32), (x + np.float32(a)) * np.float32(b))
    new = set(store._entries) - set(before)
    assert len(new) == 3 and len(uploads) == 3  # a, b1, b2: each uploaded once, kept under its digest
    assert {origin for origin, _ in new} == {host.url.replace("localhost", "127.0.0.1")}


# the same source buffer passed to constant() again: unchanged, its earlier copy and digest are
# reused (no new hash); changed (even between constant() and build()), the bytes at the call count.
# A copy is hashed on the page's thread or, once the shim's hashing worker is up, sent to it.
REUSE_JS = """async () => {
  let hashed = 0;
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (m, t) { if (m && m.buf) hashed += 1; return post.call(this, m, t); };
  const ctx = await navigator.ml.createContext();
  const digest = crypto.subtle.digest.bind(crypto.subtle);
  crypto.subtle.digest = (algo, data) => { hashed += 1; return digest(algo, data); };
  const w = new Float32Array([1, 2, 3, 4]);
  const desc = {dataType: 'float32', shape: [4]};
  const run = async (afterConstant) => {
    const builder = new MLGraphBuilder(ctx);
    const y = builder.add(builder.input('x', desc), builder.constant(desc, w));
    afterConstant();
    const g = await builder.build({y});
    const tin = await ctx.createTensor({...desc, writable: true});
    const tout = await ctx.createTensor({...desc, readable: true});
    ctx.writeTensor(tin, new Float32Array([10, 20, 30, 40]));
    ctx.dispatch(g, {x: tin}, {y: tout});
    return {y: Array.from(new Float32Array(await ctx.readTensor(tout))), hashed};
  };
  const out = [await run(() => {}), await run(() => {})];
  out.push(await run(() => { w[0] = 100; }));  // changed after constant(): the copy has 1
  out.push(await run(() => {}));  // now 100: a new copy and a new hash
  return out;
}"""


def test_an_unchanged_constant_buffer_is_not_copied_or_hashed_again(host, page):
    page.goto(f"{host.url}/basic.html")
    got = page.evaluate(REUSE_JS)
    assert [r["y"] for r in got] == [[11, 22, 33, 44]] * 3 + [[110, 22, 33, 44]]
    hashed = [r["hashed"] for r in got]
    # one hash for the first copy, none where the host lists the constant's key (an earlier page of
    # this origin built it: named by key, neither copied nor hashed); none for the unchanged buffer;
    # one for the changed one
    assert hashed[0] <= 1 and hashed[1] == hashed[2] == hashed[0] and hashed[3] == hashed[0] + 1, hashed
