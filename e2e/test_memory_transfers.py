"""Big tensors through the shim (issue 19): the host sends a read of more than a fragment as a
fragmented websocket message and receives a write fragment by fragment into one buffer; the
page sees whole messages both ways, and every byte charged for the transfer is given back."""

from __future__ import annotations

from webnn_bridge.bridge import protocol
from webnn_bridge.bridge.session import CONTEXT_BYTES

from .conftest import start_host, wait_until


def test_fragmented_writes_and_reads_arrive_whole(page, app_dir, monkeypatch):
    from webnn_bridge.bridge.server import Host

    received, fragmented = [], []
    real_receive, real_fragments = Host._receive, protocol.Raw.fragments

    async def receive(self, connection, session):
        frame, charged = await real_receive(self, connection, session)
        received.append(charged)  # a raw payload received into a buffer charged to the page
        return frame, charged

    monkeypatch.setattr(Host, "_receive", receive)
    monkeypatch.setattr(protocol.Raw, "fragments", lambda r, *a: fragmented.append(r.nbytes) or real_fragments(r, *a))
    fresh = start_host(app_dir=app_dir)
    n = (3 * protocol.FRAGMENT_BYTES) // 4 + 5  # float32: 3 MiB and 20 bytes, three fragments and a bit
    try:
        page.goto(f"{fresh.url}/basic.html")
        r = page.evaluate("""async (n) => {
          const ctx = await navigator.ml.createContext();
          const b = new MLGraphBuilder(ctx);
          const g = await b.build({y: b.neg(b.input('x', {dataType: 'float32', shape: [n]}))});
          const tin = await ctx.createTensor({dataType: 'float32', shape: [n], writable: true});
          const tout = await ctx.createTensor({dataType: 'float32', shape: [n], readable: true});
          self.kept = [ctx, g, tin, tout];  // the budget check below counts them: no collection before it
          const src = new Float32Array(n).map((_, i) => (i % 1000) - 500.5);
          ctx.writeTensor(tin, src);
          ctx.dispatch(g, {x: tin}, {y: tout});
          const fresh = new Float32Array(await ctx.readTensor(tout));
          const into = new Float32Array(n);
          await ctx.readTensor(tout, into);
          const ok = (a) => a.length === n && a.every((v, i) => v === -src[i]);
          return [ok(fresh), ok(into)];
        }""", n)
        assert r == [True, True]
        assert 4 * n in received, "the write's bytes were received fragment by fragment"
        assert len(fragmented) == 2 and min(fragmented) >= 4 * n, "both reads left as fragmented messages"
        (session,) = [s for s in fresh.host.sessions.values() if s.contexts]
        # the two tensors, the graph and the context: nothing of the transfers is still charged
        # (a read's in-flight bytes come back once its last fragment's send returns on the host,
        # which may be just after the page has the whole message)
        graph_bytes = next(iter(session.graphs.values())).charged
        kept = CONTEXT_BYTES + 2 * 4 * n + graph_bytes
        assert wait_until(lambda: session.budget.used == kept, 5.0), (session.budget.used, kept)
    finally:
        fresh.stop()
