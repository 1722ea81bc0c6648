"""IDL fidelity (WPT idlharness style) and the shipped-but-unspecified surface (extensions.idl),
observed from a real page through the shim. The expected values are what native Chromium 153
WebNN answers to the same script (checked with `webnn-bridge oracle`'s native browser)."""

from __future__ import annotations

SCRIPT = """async () => {
  const rej = async (p) => { try { await p; return 'resolved'; } catch (e) { return e.name; } };
  const err = (fn) => { try { fn(); return 'no error'; } catch (e) { return e.name; } };
  const ctx = await navigator.ml.createContext();
  const b = new MLGraphBuilder(ctx);
  const x = b.input('x', {dataType: 'float32', shape: [2]});
  const s = b.input('s', {dataType: 'float32', shape: []});
  const g = await b.build({y: b.relu(x), z: b.pad(s, [], [])});
  const t = await ctx.createTensor({dataType: 'float32', shape: [2], readable: true});
  const nav = Object.getOwnPropertyDescriptor(Navigator.prototype, 'ml');
  const lengths = {};
  for (const I of ['ML', 'MLContext', 'MLGraphBuilder', 'MLTensor', 'MLGraph']) {
    for (const k of Object.getOwnPropertyNames(self[I].prototype)) {
      const d = Object.getOwnPropertyDescriptor(self[I].prototype, k);
      if (k !== 'constructor' && d.value) lengths[`${I}.${k}`] = d.value.length;
    }
  }
  return {
    navProto: err(() => Navigator.prototype.ml),
    navGetter: [nav.get.name, nav.enumerable, nav.configurable, navigator.ml === navigator.ml],
    lostProto: await rej(MLContext.prototype.lost),
    lostThrows: err(() => MLContext.prototype.lost),
    devices: g.devices, devicesFrozen: Object.isFrozen(g.devices),
    gpuDevice: t.gpuDevice,
    exportable: await rej(ctx.createExportableTensor({dataType: 'float32', shape: [2]}, {})),
    exportToGPU: await rej(ctx.exportToGPU(t)),
    exportToGPUBad: await rej(ctx.exportToGPU({})),
    scalarPadBad: err(() => { const b2 = new MLGraphBuilder(ctx); b2.pad(b2.input('q', {dataType: 'float32', shape: []}), [1], [1]); }),
    lengths,
  };
}"""


def test_idl_fidelity_and_extensions_match_native(page, host):
    page.goto(f"{host.url}/basic.html")
    r = page.evaluate(SCRIPT)
    assert r["navProto"] == "TypeError"
    assert r["navGetter"] == ["get ml", True, True, True]
    assert (r["lostProto"], r["lostThrows"]) == ("TypeError", "no error")
    assert (r["devices"], r["devicesFrozen"], r["gpuDevice"]) == (["cpu"], True, None)
    # createExportableTensor: not a GPUDevice -> TypeError (WebIDL); exportToGPU: never exportable
    assert (r["exportable"], r["exportToGPU"], r["exportToGPUBad"]) == ("TypeError", "TypeError", "TypeError")
    assert r["scalarPadBad"] == "TypeError"
    lengths = r["lengths"]
    assert lengths["ML.createContext"] == 0
    assert lengths["MLContext.createExportableTensor"] == 2
    assert lengths["MLContext.exportToGPU"] == 1
    assert lengths["MLContext.readTensor"] == 1
    assert lengths["MLContext.writeTensor"] == 2
    assert lengths["MLGraphBuilder.constant"] == 1
    assert lengths["MLGraphBuilder.lstmCell"] == 6
    assert lengths["MLGraphBuilder.gru"] == 5


def test_create_exportable_tensor_with_a_gpu_device_is_not_supported(page, host):
    page.goto(f"{host.url}/basic.html")
    # a stand-in GPUDevice class, as a page with WebGPU would have one: the shim has no interop
    r = page.evaluate("""async () => {
      self.GPUDevice = class GPUDevice {};
      const ctx = await navigator.ml.createContext();
      try { await ctx.createExportableTensor({dataType: 'float16', shape: [4]}, new GPUDevice()); return 'resolved'; }
      catch (e) { return e.name; }
    }""")
    assert r == "NotSupportedError"


def test_int4_packed_buffers_through_the_shim(page, host):
    """int4 data travels packed two per byte (a Uint8Array or ArrayBuffer of ceil(N / 2) bytes);
    native Chromium 153 gives the same answers to this script."""
    page.goto(f"{host.url}/basic.html")
    r = page.evaluate("""async () => {
      const err = (fn) => { try { fn(); return 'ok'; } catch (e) { return e.name; } };
      const c = await navigator.ml.createContext();
      const b = new MLGraphBuilder(c);
      const out = {
        u8: err(() => b.constant({dataType: 'int4', shape: [3]}, new Uint8Array(2))),
        buffer: err(() => b.constant({dataType: 'int4', shape: [4]}, new ArrayBuffer(2))),
        i8: err(() => b.constant({dataType: 'int4', shape: [4]}, new Int8Array(2))),
        tooLong: err(() => b.constant({dataType: 'int4', shape: [3]}, new Uint8Array(3))),
        // a scalar constant of a 4-bit type: Chromium refuses it (WPT validation_tests/constant)
        scalarInt4: err(() => b.constant('int4', 3)),
        scalarUint4: err(() => b.constant('uint4', 3)),
        scalarInt8: err(() => b.constant('int8', 3)),
        limits: c.opSupportLimits().dequantizeLinear.input.dataTypes.includes('int4'),
      };
      const x = b.input('x', {dataType: 'int4', shape: [5]});
      const s = b.constant({dataType: 'float32', shape: [1]}, new Float32Array([0.5]));
      const zp = b.constant({dataType: 'int4', shape: [1]}, new Uint8Array([0x0f]));
      const g = await b.build({y: b.dequantizeLinear(x, s, zp), q: b.cast(x, 'uint4')});
      const tx = await c.createTensor({dataType: 'int4', shape: [5], writable: true});
      out.short = err(() => c.writeTensor(tx, new Uint8Array([0x98, 0x7f])));
      c.writeTensor(tx, new Uint8Array([0x98, 0x7f, 0x01]));
      const ty = await c.createTensor({dataType: 'float32', shape: [5], readable: true});
      const tq = await c.createTensor({dataType: 'uint4', shape: [5], readable: true});
      c.dispatch(g, {x: tx}, {y: ty, q: tq});
      out.y = Array.from(new Float32Array(await c.readTensor(ty)));
      out.q = Array.from(new Uint8Array(await c.readTensor(tq)));
      return out;
    }""")
    assert r == {"u8": "ok", "buffer": "ok", "i8": "TypeError", "tooLong": "TypeError", "limits": True,
                 "scalarInt4": "TypeError", "scalarUint4": "TypeError", "scalarInt8": "ok",
                 "short": "TypeError", "y": [-3.5, -3, 0, 4, 1], "q": [0x98, 0x7F, 0x01]}


def test_buffers_from_another_realm_are_buffers(page, host):
    """An ArrayBuffer (or a view of one) made by an iframe's globals is an ArrayBuffer to WebIDL:
    writeTensor, a read into a caller's buffer and constant() take it (instanceof would not)."""
    page.goto(f"{host.url}/basic.html")
    r = page.evaluate("""async () => {
      const frame = document.createElement('iframe');
      document.body.appendChild(frame);
      const W = frame.contentWindow;
      const ctx = await navigator.ml.createContext();
      const b = new MLGraphBuilder(ctx);
      const foreign = new W.Float32Array([1, 2, 3, 4]).buffer;
      const x = b.input('x', {dataType: 'float32', shape: [4]});
      const c = b.constant({dataType: 'float32', shape: [4]}, foreign);
      const g = await b.build({y: b.add(x, c)});
      const tx = await ctx.createTensor({dataType: 'float32', shape: [4], writable: true});
      const ty = await ctx.createTensor({dataType: 'float32', shape: [4], readable: true});
      ctx.writeTensor(tx, new W.Float32Array([10, 20, 30, 40]).buffer);
      ctx.dispatch(g, {x: tx}, {y: ty});
      const into = new W.ArrayBuffer(16);
      await ctx.readTensor(ty, into);
      const view = new W.Float32Array(4);
      await ctx.readTensor(ty, view);
      return {
        foreign: !(foreign instanceof ArrayBuffer),
        buffer: Array.from(new Float32Array(into)),
        view: Array.from(view),
        notABuffer: (() => { try { ctx.writeTensor(tx, {byteLength: 16}); return 'ok'; } catch (e) { return e.name; } })(),
      };
    }""")
    assert r == {"foreign": True, "buffer": [11, 22, 33, 44], "view": [11, 22, 33, 44], "notABuffer": "TypeError"}
