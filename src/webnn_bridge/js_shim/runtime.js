// webnn-bridge shim runtime (hand-written). Concatenated after generated/webnn_idl.js inside one
// function scope by bridge/shim.py, with HOST_ORIGIN, IDL, DATA_TYPES, defineInterfaces, the rules
// prelude ($Desc, $Dict, ...) and RULES in scope.
//
// Layers:
//  1. WebIDL binding: brand checks, overload resolution and argument conversion, driven by IDL.
//  2. Host link: one websocket (binary frames for tensor data), the page's own or, under an
//     automation driver, its SharedWorker's (see 'host transport').
//  3. Behaviour of ML, MLContext, MLGraphBuilder, MLOperand, MLGraph, MLTensor.
// Operator rules (validation, shape inference) are NOT written here: builder calls run the rules
// translated from the host's Python (generated/webnn_ops.js, RULES), so op semantics exist once.

const GLOBAL = typeof globalThis !== 'undefined' ? globalThis : self;

// ---------------------------------------------------------------------------------- errors
function makeError(name, message) {
  if (name === 'TypeError') return new TypeError(message);
  if (name === 'RangeError') return new RangeError(message);
  return new DOMException(message, name || 'UnknownError');
}

// ---------------------------------------------------------------------------------- slots
const SLOTS = new WeakMap();
function slotOf(obj, iface) {
  const s = (obj !== null && typeof obj === 'object') ? SLOTS.get(obj) : undefined;
  return s && s.iface === iface ? s : undefined;
}
function brand(obj, iface) {
  const s = slotOf(obj, iface);
  if (!s) throw new TypeError(`Illegal invocation: not an ${iface}.`);
  return s;
}
let CLASSES = null;
function wrap(iface, slots) {
  const obj = Object.create(CLASSES[iface].prototype);
  slots.iface = iface;
  slots.wrapper = obj;
  SLOTS.set(obj, slots);
  return obj;
}

// ---------------------------------------------------------------------------------- WebIDL conversion
const INT_RANGES = {
  'byte': [-128, 127], 'octet': [0, 255], 'short': [-32768, 32767], 'unsigned short': [0, 65535],
  'long': [-2147483648, 2147483647], 'unsigned long': [0, 4294967295],
  'long long': [-(2 ** 53) + 1, 2 ** 53 - 1], 'unsigned long long': [0, 2 ** 53 - 1],
};

function toNumber(v, what) {
  if (typeof v === 'bigint') throw new TypeError(`${what}: cannot convert a BigInt to a number.`);
  if (typeof v === 'symbol') throw new TypeError(`${what}: cannot convert a Symbol to a number.`);
  return Number(v);
}

// Buffers are recognised by their internal slots, as WebIDL does, not by instanceof: an
// ArrayBuffer made in another realm (an iframe's, a worker's) is an ArrayBuffer too.
const AB_BYTE_LENGTH = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get;
const SAB_BYTE_LENGTH = typeof SharedArrayBuffer === 'function'
  ? Object.getOwnPropertyDescriptor(SharedArrayBuffer.prototype, 'byteLength').get : null;

function hasSlot(getter, v) {
  if (getter === null || v === null || typeof v !== 'object') return false;
  try { getter.call(v); return true; } catch (e) { return false; }
}

function isArrayBuffer(v) { return hasSlot(AB_BYTE_LENGTH, v); }

// The dictionaries and records convert() makes (fresh objects, never buffers): isBuffer knows
// them without asking a buffer getter, whose exception costs about 8 us a time in V8.
const CONVERTED = new WeakSet();

function convertedEmpty() { const o = {}; CONVERTED.add(o); return o; }

function isBuffer(v) {
  if (ArrayBuffer.isView(v)) return true;
  if (v === null || typeof v !== 'object' || Array.isArray(v) || CONVERTED.has(v) || SLOTS.has(v)) return false;
  return isArrayBuffer(v) || hasSlot(SAB_BYTE_LENGTH, v);
}

// An ArrayBuffer WebSocket.send() takes as it is: not shared, not resizable.
function plainBuffer(b) { return isArrayBuffer(b) && !b.resizable; }

function isPlatformObject(v) { return v !== null && typeof v === 'object' && SLOTS.has(v); }

function dictionaryMembers(name) {
  const d = IDL.dictionaries[name];
  return (d.inherits ? dictionaryMembers(d.inherits) : []).concat(d.members);
}

function convert(t, v, what) {
  if (t.nullable && (v === null || v === undefined)) return null;
  const k = t.t;
  if (k in INT_RANGES) {
    const [lo, hi] = INT_RANGES[k];
    let x = toNumber(v, what);
    if (t.enforceRange) {
      if (!Number.isFinite(x)) throw new TypeError(`${what} must be a finite number.`);
      x = Math.trunc(x);
      if (x < lo || x > hi) throw new TypeError(`${what} (${x}) is outside the range ${lo}..${hi}.`);
      return x + 0;
    }
    if (!Number.isFinite(x)) return 0;
    x = Math.trunc(x);
    if (t.clamp) return Math.min(Math.max(x, lo), hi);
    const span = hi - lo + 1;
    x = ((x - lo) % span + span) % span + lo;
    return x + 0;
  }
  switch (k) {
    case 'boolean': return Boolean(v);
    case 'double': case 'float': {
      let x = toNumber(v, what);
      if (!Number.isFinite(x)) throw new TypeError(`${what} must be a finite number.`);
      if (k === 'float') { x = Math.fround(x); if (!Number.isFinite(x)) throw new TypeError(`${what} is out of range.`); }
      return x;
    }
    case 'unrestricted double': return toNumber(v, what);
    case 'unrestricted float': return Math.fround(toNumber(v, what));
    case 'bigint':
      if (typeof v === 'bigint') return v;
      if (typeof v === 'number') throw new TypeError(`${what} must be a BigInt.`);
      return BigInt(v);
    case 'DOMString': case 'ByteString':
      if (typeof v === 'symbol') throw new TypeError(`${what}: cannot convert a Symbol to a string.`);
      return String(v);
    case 'USVString': {
      if (typeof v === 'symbol') throw new TypeError(`${what}: cannot convert a Symbol to a string.`);
      const s = String(v);
      return typeof s.toWellFormed === 'function' ? s.toWellFormed() : s;
    }
    case 'enum': {
      if (typeof v === 'symbol') throw new TypeError(`${what}: cannot convert a Symbol to a string.`);
      const s = String(v);
      if (!IDL.enums[t.name].includes(s)) {
        throw new TypeError(`${what}: '${s}' is not a valid value for enumeration ${t.name}.`);
      }
      return s;
    }
    case 'dict': {
      if (v !== undefined && v !== null && typeof v !== 'object' && typeof v !== 'function') {
        throw new TypeError(`${what} is not an object (${t.name}).`);
      }
      const out = {};
      CONVERTED.add(out);
      for (const m of dictionaryMembers(t.name)) {
        const x = (v === undefined || v === null) ? undefined : v[m.name];
        if (x !== undefined) out[m.name] = convert(m.type, x, `${what}.${m.name}`);
        else if (m.required) throw new TypeError(`${what}: required member '${m.name}' is missing (${t.name}).`);
        else if (m.default !== null) out[m.name] = Array.isArray(m.default) ? [] : (typeof m.default === 'object' ? convertedEmpty() : m.default);
      }
      return out;
    }
    case 'sequence': case 'frozen': {
      if (v === null || (typeof v !== 'object' && typeof v !== 'function') || typeof v[Symbol.iterator] !== 'function') {
        throw new TypeError(`${what} is not iterable (sequence expected).`);
      }
      const out = [];
      let i = 0;
      for (const x of v) out.push(convert(t.of, x, `${what}[${i++}]`));
      return k === 'frozen' ? Object.freeze(out) : out;
    }
    case 'record': {
      if (v === null || (typeof v !== 'object' && typeof v !== 'function')) throw new TypeError(`${what} is not an object.`);
      const out = {};
      CONVERTED.add(out);
      for (const key of Reflect.ownKeys(v)) {
        if (typeof key !== 'string') continue;
        const desc = Reflect.getOwnPropertyDescriptor(v, key);
        if (desc && desc.enumerable) out[key] = convert(t.of, v[key], `${what}['${key}']`);
      }
      return out;
    }
    case 'union': {
      // (bigint or unrestricted double) is the only union at HEAD (MLNumber); (unsigned long or
      // sequence<unsigned long>) appears in split().
      const kinds = t.of.map((m) => m.t);
      if (kinds.includes('bigint') && typeof v === 'bigint') return v;
      const seq = t.of.find((m) => m.t === 'sequence');
      if (seq && v !== null && typeof v === 'object') return convert(seq, v, what);
      const num = t.of.find((m) => m.t !== 'sequence' && m.t !== 'bigint');
      if (num) return convert(num, v, what);
      return convert(t.of[0], v, what);
    }
    case 'iface': {
      if (t.name === 'GPUDevice') {
        if (typeof GLOBAL.GPUDevice === 'function' && v instanceof GLOBAL.GPUDevice) return v;
        throw new TypeError(`${what} is not a GPUDevice.`);
      }
      if (!slotOf(v, t.name)) throw new TypeError(`${what} is not of type ${t.name}.`);
      return v;
    }
    case 'buffer':
      if (!isBuffer(v)) throw new TypeError(`${what} is not an ArrayBuffer or ArrayBufferView.`);
      return v;
    case 'any': return v;
    default: throw new TypeError(`${what}: unsupported IDL type ${k}.`);
  }
}

// ``buffers``: whether an overload left takes a buffer at this argument; where none does, a
// buffer goes to the dictionary's overload, as WebIDL's overload resolution has it
function plausible(t, v, buffers) {
  switch (t.t) {
    case 'iface': return t.name === 'GPUDevice' ? (typeof GLOBAL.GPUDevice === 'function' && v instanceof GLOBAL.GPUDevice) : !!slotOf(v, t.name);
    case 'buffer': return isBuffer(v);
    case 'dict': return v === undefined || v === null || (typeof v === 'object' && !isPlatformObject(v) && !(buffers && isBuffer(v)));
    case 'enum': return typeof v === 'string';
    default: return true;
  }
}

function resolveOverload(overloads, args, what) {
  let n = args.length;
  const maxArgs = Math.max(...overloads.map((o) => o.args.length));
  n = Math.min(n, maxArgs);
  let candidates = overloads.filter((o) => {
    const req = o.args.filter((a) => !a.optional && !a.variadic).length;
    return req <= n && n <= o.args.length;
  });
  // trailing undefined arguments of optional parameters do not count
  while (candidates.length === 0 && n > 0 && args[n - 1] === undefined) {
    n -= 1;
    candidates = overloads.filter((o) => o.args.filter((a) => !a.optional).length <= n && n <= o.args.length);
  }
  if (candidates.length === 0) {
    const need = Math.min(...overloads.map((o) => o.args.filter((a) => !a.optional).length));
    throw new TypeError(`${what}: ${need} argument(s) required, but only ${args.length} present.`);
  }
  for (let i = 0; i < n && candidates.length > 1; i++) {
    const buffers = candidates.some((o) => i < o.args.length && o.args[i].type.t === 'buffer');
    const m = candidates.filter((o) => i < o.args.length && plausible(o.args[i].type, args[i], buffers));
    if (m.length) candidates = m;
  }
  return candidates[0];
}

function convertArgs(overload, args, what) {
  const out = {};
  CONVERTED.add(out);
  overload.args.forEach((spec, i) => {
    const v = args[i];
    const w = `${what}: argument '${spec.name}'`;
    if (v === undefined && spec.type.t !== 'dict') {
      if (!spec.optional) throw new TypeError(`${w} is required.`);
      out[spec.name] = spec.default === null ? undefined : spec.default;
    } else {
      out[spec.name] = convert(spec.type, v, w);
    }
  });
  return out;
}

// The binding object handed to the generated classes.
const $b = {
  illegalConstructor(name) { throw new TypeError(`Illegal constructor: ${name} cannot be constructed.`); },
  construct(self, iface, args, newTarget) {
    if (!newTarget) throw new TypeError(`Failed to construct '${iface}': use the 'new' operator.`);
    const ov = resolveOverload(IDL.interfaces[iface].constructor, args, `${iface} constructor`);
    const conv = convertArgs(ov, args, `${iface} constructor`);
    const slots = IMPL[iface].construct(conv);
    slots.iface = iface;
    slots.wrapper = self;
    SLOTS.set(self, slots);
  },
  getAttribute(self, iface, name) {
    // WebIDL: a promise-typed attribute's getter rejects instead of throwing on a wrong `this`
    if (IDL.interfaces[iface].attributes[name].type.t === 'promise' && !slotOf(self, iface)) {
      return Promise.reject(new TypeError(`Illegal invocation: not an ${iface}.`));
    }
    return IMPL[iface].get[name](brand(self, iface));
  },
  invoke(self, iface, op, args) {
    const overloads = IDL.interfaces[iface].operations[op];
    const returnsPromise = overloads[0].returns && overloads[0].returns.t === 'promise';
    try {
      const s = brand(self, iface);
      const what = `${iface}.${op}`;
      const ov = resolveOverload(overloads, Array.from(args), what);
      const conv = convertArgs(ov, Array.from(args), what);
      const impl = IMPL[iface].ops[op] || (iface === 'MLGraphBuilder' ? builderOp : null);
      if (!impl) throw makeError('NotSupportedError', `${what} is not supported by webnn-bridge.`);
      const result = impl(s, conv, op, ov);
      return returnsPromise ? reported(iface, op, Promise.resolve(result)) : result;
    } catch (e) {
      if (returnsPromise) return reported(iface, op, Promise.reject(e));
      if (iface === 'MLContext') reportFailure(iface, op, e);
      throw e;
    }
  },
};

// Never hang a client silently: some clients (onnxruntime-web's WebNN EP, inside its wasm
// callbacks) never observe a rejected promise and wait forever. Every failed MLContext call, and
// every rejected promise of the API, is also logged as a console error naming the call.
function reportFailure(iface, op, e) {
  console.error(`webnn-bridge: ${iface}.${op}() failed: ${e && e.name ? e.name : 'Error'}: ${e && e.message ? e.message : e}`);
}
function reported(iface, op, promise) {
  promise.catch((e) => reportFailure(iface, op, e));
  return promise;
}

// ---------------------------------------------------------------------------------- host link
// The host's origin is the one it wrote into this script: https when it serves TLS (serve
// --tls-cert/--tls-key), and then its websocket is wss. Behind a TLS-terminating proxy the host
// writes http: a script that came over https from that same host:port uses https and wss.
function hostOrigin(written) {
  try {
    const script = GLOBAL.document && GLOBAL.document.currentScript;
    const src = script && script.src ? new URL(script.src) : null;
    const host = new URL(written);
    if (src && src.protocol === 'https:' && host.protocol === 'http:' && src.host === host.host) {
      return `https://${host.host}`;
    }
  } catch (e) { /* no script URL (a worker's importScripts): the written origin holds */ }
  return written;
}
const HOST = hostOrigin(HOST_ORIGIN);
const WS_URL = HOST.replace(/^http/, 'ws') + '/webnn';
// An https page may not open ws:// or fetch http:// (mixed content; WebKit blocks even loopback hosts).
function mixedContent() {
  return !!(GLOBAL.location && GLOBAL.location.protocol === 'https:' && HOST.startsWith('http:'));
}
// Chromium and Firefox throw a SecurityError from new WebSocket(ws://...) on an https page: the
// page is told what it means and what to do instead.
function explainMixedContent(e) {
  if (mixedContent() && e && e.name === 'SecurityError') return makeError('NotSupportedError', mixedContentMessage());
  return e;
}
function mixedContentMessage() {
  return `This https page cannot reach the webnn-bridge host at ${WS_URL}: browsers block ws:// and ` +
    'http:// connections from https pages as mixed content (WebKit even to 127.0.0.1 and localhost). ' +
    'Serve the host over TLS, with webnn-bridge serve --tls-cert FILE --tls-key FILE (or --tls-self-signed ' +
    'for development), and load the shim from its https:// URL.';
}
// An access token, for a host started with --token-file (one other machines can reach): from the
// script's URL (webnn-shim.js?token=...) or set by the page (WebNNBridge.token = '...') before its
// first createContext(). It travels as a websocket subprotocol (pages cannot set other headers on
// a websocket), never in a URL the host logs; nothing reads it back.
let PAGE_TOKEN = null;
try {
  const script = GLOBAL.document && GLOBAL.document.currentScript;
  const t = script && script.src ? new URL(script.src).searchParams.get('token') : null;
  if (t) PAGE_TOKEN = t;
} catch (e) { /* no script URL (a worker's importScripts): WebNNBridge.token */ }
function openSocket() {
  return openHostSocket(WS_URL, PAGE_TOKEN ? ['webnn-bridge.v1', `webnn-bridge.token.${PAGE_TOKEN}`] : []);
}
const textEncoder = new TextEncoder();
const BATCH_MAX_BYTES = 64 * 1024;  // bigger frames are sent alone (batching would copy them again)
const textDecoder = new TextDecoder();

function tagValue(v, operand) {
  if (typeof v === 'bigint') return { $bigint: v.toString() };
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return { $number: 'NaN' };
    if (v === Infinity) return { $number: 'Infinity' };
    if (v === -Infinity) return { $number: '-Infinity' };
    return v;
  }
  if (v === undefined) return null;
  if (v === null || typeof v !== 'object') return v;
  const s = SLOTS.get(v);
  if (s && s.iface === 'MLOperand') return operand(s);
  if (Array.isArray(v)) return v.map((x) => tagValue(x, operand));
  const out = {};
  for (const key of Object.keys(v)) out[key] = tagValue(v[key], operand);
  return out;
}

// ---------------------------------------------------------------------------------- host transport
// The link's socket (README "Transport"). An automation driver of Chromium (Playwright, Puppeteer:
// they set navigator.webdriver) watches the page's network through its DevTools session, which is sent the
// payload of every websocket frame, base64-encoded: each inference's input and each build's
// constants crossed the driver too, and that doubled inference times on a small machine. Drivers
// leave a page's shared workers alone, so under a driver the link's websocket belongs to a
// SharedWorker of this page's own (a unique name: no other page shares it) and its frames are
// relayed over a MessagePort. The worker runs from a blob: URL of the page's origin, so its
// websocket carries the page's Origin and meets the host's checks unchanged; it ends with the page,
// which closes the socket (the host frees what the page held). Without a driver, or where a
// SharedWorker cannot start (no SharedWorker, a CSP that forbids blob: workers, an opaque origin), a
// plain WebSocket. A page may choose before the shim runs: globalThis.WEBNN_BRIDGE_TRANSPORT =
// 'websocket' or 'shared-worker'.
const RELAY_START_MS = 10000;  // a worker that has not started by then is given up for a plain WebSocket

function transportFor(g) {
  const asked = g.WEBNN_BRIDGE_TRANSPORT;
  const possible = typeof g.SharedWorker === 'function' && typeof g.Blob === 'function' &&
    !!g.URL && typeof g.URL.createObjectURL === 'function';
  if (asked === 'websocket' || !possible) return 'websocket';
  if (asked === 'shared-worker') return 'shared-worker';
  // Chromium's DevTools protocol is what copies frames to a driver (Playwright, Puppeteer); WebKitGTK
  // keeps a closed page's shared worker alive for a while, so other engines keep their own websocket
  return g.navigator && g.navigator.webdriver === true && isChromium(g) ? 'shared-worker' : 'websocket';
}

function isChromium(g) {
  return /Chrom(e|ium)\//.test((g.navigator && g.navigator.userAgent) || '');
}

// A WebSocket's subprotocols (the access token's): what new WebSocket() would take without throwing
const PROTOCOL_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function openHostSocket(url, protocols) {
  // what new WebSocket() refuses at once (mixed content, a malformed token) is refused here, by
  // the page's own WebSocket, so that the page is told why (HostLink)
  if (transportFor(GLOBAL) === 'shared-worker' && !mixedContent() && protocols.every((p) => PROTOCOL_NAME.test(p))) {
    try { return new RelaySocket(url, protocols); } catch (e) { /* the page may not start one: a plain WebSocket */ }
  }
  return plainSocket(url, protocols);
}

function plainSocket(url, protocols) {
  const ws = protocols.length ? new WebSocket(url, protocols) : new WebSocket(url);
  ws.binaryType = 'arraybuffer';
  ws.via = 'websocket';
  return ws;
}

// The SharedWorker's whole script: one websocket, its frames relayed to and from its one page
// (binary ones transferred, not copied). It closes itself once the socket closes.
function relayWorker() {
  self.onconnect = (connected) => {
    const port = connected.ports[0];
    let ws = null;
    const tell = (what) => port.postMessage({ relay: what });
    port.onmessage = (m) => {
      const d = m.data;
      if (typeof d === 'string' || d instanceof ArrayBuffer) {
        if (ws) ws.send(d);
      } else if (d && d.relay === 'open' && !ws) {
        try {
          ws = d.protocols.length ? new WebSocket(d.url, d.protocols) : new WebSocket(d.url);
        } catch (e) {
          tell('error');
          tell('close');
          return;
        }
        ws.binaryType = 'arraybuffer';
        ws.onopen = () => tell('open');
        ws.onerror = () => tell('error');
        ws.onclose = () => { tell('close'); self.close(); };
        ws.onmessage = (e) => port.postMessage(e.data, typeof e.data === 'string' ? [] : [e.data]);
      } else if (d && d.relay === 'close' && ws) {
        ws.close();
      }
    };
    tell('ready');
  };
}

// What HostLink uses of a WebSocket (send, close, onopen, onmessage, onerror, onclose), through
// the page's SharedWorker; a worker that fails to start gives way to a plain WebSocket, unseen by
// the link. send() copies binary data before it returns, as WebSocket.send does.
class RelaySocket {
  constructor(url, protocols) {
    this.url = url;
    this.protocols = protocols;
    this.via = 'shared-worker';
    this.direct = null;
    this.opened = false;
    this.uncacheable = null;  // the unload listener that keeps the page out of Firefox's back/forward cache
    this.onopen = this.onmessage = this.onerror = this.onclose = null;
    const name = `webnn-bridge ${GLOBAL.crypto && GLOBAL.crypto.randomUUID ? GLOBAL.crypto.randomUUID() : Math.random()}`;
    this.script = URL.createObjectURL(new Blob([`(${relayWorker})();`], { type: 'text/javascript' }));
    try {
      this.worker = new SharedWorker(this.script, { name });
    } catch (e) {
      URL.revokeObjectURL(this.script);
      throw e;
    }
    this.port = this.worker.port;
    this.started = false;
    this.worker.onerror = () => { if (!this.started) this.fallback(); };
    this.timer = setTimeout(() => { if (!this.started) this.fallback(); }, RELAY_START_MS);
    this.port.onmessage = (m) => this.received(m.data);
    // A page that leaves closes the worker's socket, as its own would close, so that the host frees
    // what the page held. Firefox may put the page in its back/forward cache first and suspend the
    // worker before it reads that; the socket then stays open for as long as the page is cached.
    // An unload listener keeps Firefox from caching the page while its relay is open (Chromium, which
    // has deprecated unload listeners, closes the worker with the page anyway).
    if (typeof GLOBAL.addEventListener === 'function') {
      GLOBAL.addEventListener('pagehide', () => this.close());
      if (!isChromium(GLOBAL)) {
        this.uncacheable = () => {};
        GLOBAL.addEventListener('unload', this.uncacheable);
      }
    }
  }
  received(d) {
    if (this.direct) return;
    if (typeof d === 'string' || d instanceof ArrayBuffer) {
      if (this.onmessage) this.onmessage({ data: d });
      return;
    }
    const what = d && d.relay;
    if (what === 'ready' && !this.started) {
      this.started = true;
      this.settle();
      this.port.postMessage({ relay: 'open', url: this.url, protocols: this.protocols });
    } else if (what === 'open') {
      this.opened = true;
      if (this.onopen) this.onopen({});
    } else if (!this.opened) {
      // the worker's socket failed to open: the page's own may not (a certificate the driver's
      // context trusts, e.g. Playwright's ignore_https_errors, which does not reach shared workers);
      // a refusal is refused again there, and reported as ever
      this.fallback();
    } else if (what === 'error') {
      if (this.onerror) this.onerror({});
    } else if (what === 'close') {
      this.port.close();
      this.cacheable();
      if (this.onclose) this.onclose({});
    }
  }
  settle() {
    clearTimeout(this.timer);
    URL.revokeObjectURL(this.script);
  }
  cacheable() {
    if (this.uncacheable) GLOBAL.removeEventListener('unload', this.uncacheable);
    this.uncacheable = null;
  }
  fallback() {
    if (this.direct || this.opened) return;
    this.settle();
    this.cacheable();
    this.port.close();
    const ws = plainSocket(this.url, this.protocols);
    this.direct = ws;
    this.via = ws.via;
    ws.onopen = (e) => { if (this.onopen) this.onopen(e); };
    ws.onmessage = (e) => { if (this.onmessage) this.onmessage(e); };
    ws.onerror = (e) => { if (this.onerror) this.onerror(e); };
    ws.onclose = (e) => { if (this.onclose) this.onclose(e); };
  }
  send(data) {
    if (this.direct) { this.direct.send(data); return; }
    if (typeof data === 'string') { this.port.postMessage(data); return; }
    const copy = isArrayBuffer(data) ? data.slice(0) : data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
    this.port.postMessage(copy, [copy]);
  }
  close() {
    if (this.direct) this.direct.close();
    else this.port.postMessage({ relay: 'close' });
  }
}

class HostLink {
  constructor() {
    this.nextId = 1;
    this.pending = new Map();
    this.token = null;
    this.closed = false;
    this.contexts = new Set();
    this.contextRules = new Map();  // createContext's reply key -> {limits, rules} (contextRules), shared by contexts
    this.queue = [];  // frames waiting for the next flush(), in order
    this.flushing = false;
    this.rawFor = null;  // a reply whose raw payload is the next binary frame (protocol.py)
    this.ready = this.open().catch((e) => { throw explainMixedContent(e); });
  }
  open() {
    return new Promise((resolve, reject) => {
      let ws;
      try { ws = openSocket(); } catch (e) { reject(e); return; }  // mixed content, a malformed token
      this.ws = ws;
      ws.onopen = () => {
        this.request({ t: 'hello', page: String((GLOBAL.location && GLOBAL.location.pathname) || '').slice(0, 200), via: ws.via }).then((r) => {
          this.token = r.session;
          this.rawMinBytes = r.rawMinBytes;  // bigger tensors travel as raw frames (protocol.py)
          this.strictSpec = r.strictSpec === true;  // serve --strict-spec: spec HEAD's buffer rules
          this.tracing = r.trace === true;  // the operator records a policy trace: report page-side latencies
          // serve --page-local: the folder of the runtime that runs graphs the host places in the page
          this.pageRuntime = typeof r.pageRuntime === 'string' ? new URL(r.pageRuntime, HOST).href : null;
          this.keepalive(r.keepalive);
          resolve(this);
        }, reject);
      };
      ws.onerror = () => { HostLink.whyRefused().then((m) => reject(makeError('NotSupportedError', m))); };
      ws.onclose = () => this.onClose();
      ws.onmessage = (ev) => this.onMessage(ev.data);
    });
  }
  // A refused websocket handshake reaches the page without its status: ask the host's origin
  // probe whether this page's origin is allowed, to tell a refusal from an unreachable host.
  static async whyRefused() {
    const origin = GLOBAL.location ? GLOBAL.location.origin : 'this page\'s origin';
    let allowed = null; let wantsToken = false;
    try {
      const r = await (await fetch(`${HOST}/webnn/origin`, { cache: 'no-store' })).json();
      allowed = r.allowed;
      wantsToken = r.token === true;
    } catch (e) { /* unreachable, or blocked by the browser */ }
    if (allowed === false) {
      return `The webnn-bridge host at ${HOST} refused this page's origin (${origin}). ` +
        `Start the host with --allow-origin ${origin}.`;
    }
    if (wantsToken) {
      return `The webnn-bridge host at ${HOST} requires an access token and refused this page's ` +
        `(${PAGE_TOKEN ? 'a wrong token' : 'none given'}): load webnn-shim.js?token=... or set ` +
        'WebNNBridge.token before the first createContext().';
    }
    if (mixedContent()) return mixedContentMessage();
    return `Cannot reach the webnn-bridge host at ${WS_URL}. Is it running? (A page that is not on ` +
      'a loopback origin may also be blocked by the browser\'s local network access checks.)';
  }
  onClose(message = 'The connection to the webnn-bridge host was closed.') {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    for (const { reject } of this.pending.values()) reject(makeError('InvalidStateError', message));
    this.pending.clear();
    for (const ctx of Array.from(this.contexts)) loseContext(ctx, message);
    if (LINK === this) LINK = null;
  }
  // Keepalive: a host that is alive but stuck (stopped, deadlocked) never closes the socket. Its
  // event loop sends 'alive' frames however busy the session is; when nothing at all arrives for
  // `timeoutMs` (the host's setting), every context of this link is lost and every pending promise
  // rejects. A tick that comes late (the page itself was busy in synchronous work, or its timers
  // were throttled) restarts the wait: frames may be queued behind it.
  keepalive(timeoutMs) {
    if (!(timeoutMs > 0)) return;
    const every = Math.max(100, Math.min(timeoutMs / 4, 2500));
    let lastTick = Date.now();
    this.heard = lastTick;
    this.heartbeat = setInterval(() => {
      const now = Date.now();
      if (now - lastTick > 2 * every + 500) this.heard = now;
      lastTick = now;
      if (this.closed) clearInterval(this.heartbeat);
      else if (now - this.heard > timeoutMs) {
        try { this.ws.close(); } catch (e) { /* already closing */ }
        this.onClose('The webnn-bridge host stopped responding.');
      }
    }, every);
  }
  onMessage(data) {
    this.heard = Date.now();
    try { this.handle(data); } catch (e) {
      // a message the page cannot read: every pending request would wait forever, so the link is
      // fatal; each context is lost (its lost promise says why) and pending promises reject
      console.error(`webnn-bridge: a message from the host could not be handled (${e && e.message}); the connection is closed.`);
      try { this.ws.close(); } catch (e2) { /* already closing */ }
      this.onClose('The webnn-bridge host sent a message the page could not read.');
    }
  }
  handle(data) {
    let header; let payload = null;
    if (this.rawFor) {  // the announced payload, whole: the page may keep this ArrayBuffer
      if (typeof data === 'string') return;  // a keepalive sent between the reply and its payload
      header = this.rawFor;
      this.rawFor = null;
      payload = new Uint8Array(data);
      payload.own = true;
    } else if (typeof data === 'string') {
      header = JSON.parse(data);
    } else {
      const n = new DataView(data).getUint32(0, true);
      header = JSON.parse(textDecoder.decode(new Uint8Array(data, 4, n)));
      payload = new Uint8Array(data, 4 + n);  // a view: readTensor copies it once, where it goes
    }
    if (header.raw !== undefined && payload === null) { this.rawFor = header; return; }
    if (header.t === 'batch' && payload) {  // small replies the host sent together (protocol.coalesce)
      header.parts.forEach(([off, len], i) => {
        const bytes = payload.subarray(off, off + len);
        // a binary message as an ArrayBuffer of its own, which a readTensor() may keep
        this.handle(header.text[i] ? textDecoder.decode(bytes) : bytes.slice().buffer);
      });
      return;
    }
    if (header.t === 'reply') {
      const p = this.pending.get(header.re);
      if (!p) return;
      this.pending.delete(header.re);
      if (header.error) p.reject(makeError(header.error.name, header.error.message));
      else p.resolve(payload ? Object.assign({ $payload: payload }, header.ok) : header.ok);
    } else if (header.t === 'warning') {  // dispatch() / writeTensor(): the spec reports nothing to the page
      const call = header.op === 'dispatch' || header.op === 'writeTensor' ? `MLContext.${header.op}()` : `'${header.op}'`;
      console.error(`webnn-bridge: ${call} failed on the host: ${header.error.name}: ${header.error.message}`);
    } else if (header.t === 'error') {
      console.error(`webnn-bridge: host error: ${header.error.message}`);
    }
  }
  frame(header, parts) {
    // parts are copied here, once, into the frame (the caller's buffers may change afterwards)
    if (!parts) return JSON.stringify(header);
    let total = 0;
    const offsets = parts.map((p) => { const o = [total, p.byteLength]; total += p.byteLength; return o; });
    const [buf, start] = this.blankFrame(Object.assign({}, header, { parts: offsets }), total);
    let pos = start;
    for (const p of parts) { buf.set(p, pos); pos += p.byteLength; }
    return buf.buffer;
  }
  // A binary frame with room for `total` payload bytes, for the caller to fill: [frame, payload offset].
  blankFrame(header, total) {
    const head = textEncoder.encode(JSON.stringify(header));
    // the header padded with JSON whitespace so that the payload starts 8-byte aligned: the host
    // then uses received tensor bytes in place
    const n = head.byteLength + ((8 - ((4 + head.byteLength) % 8)) % 8);
    const buf = new Uint8Array(4 + n + total);
    new DataView(buf.buffer).setUint32(0, n, true);
    buf.set(head, 4);
    buf.fill(0x20, 4 + head.byteLength, 4 + n);
    return [buf, 4 + n];
  }
  // A big frame sent now, after what is queued (not at the next microtask): a constant's upload
  // leaves while the page goes on with its builder calls.
  sendNow(buffer) {
    if (this.closed) return;
    if (this.held) { this.held.push({ frame: buffer }); return; }
    if (this.queue.length) this.flush();
    this.ws.send(buffer);
  }
  // A big tensor's bytes as a raw frame after its message (protocol.py): WebSocket.send copies
  // them before returning, so no copy of ours (a shared or resizable buffer, which send() refuses,
  // goes the usual way).
  sendRaw(header, bytes) {
    if (!(bytes.byteLength >= this.rawMinBytes) || !plainBuffer(bytes.buffer) || this.held) { this.send(header, [bytes]); return; }
    if (this.closed) return;
    if (this.queue.length) this.flush();
    this.ws.send(JSON.stringify(Object.assign({}, header, { raw: bytes.byteLength })));
    this.ws.send(bytes);
  }
  send(header, parts) {
    if (this.closed) return;
    this.enqueue(this.frame(header, parts), true);
  }
  request(header, parts) {
    if (this.closed) return Promise.reject(makeError('InvalidStateError', 'The connection to the webnn-bridge host is closed.'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.enqueue(this.frame(Object.assign({ id }, header), parts));
    });
  }
  // Messages issued together leave together: small ones as one 'batch' frame (the host handles
  // them in order), big ones alone. A message awaiting a reply (readTensor, ...) leaves at the next
  // microtask with everything queued before it; fire-and-forget ones (writeTensor, dispatch, ...)
  // wait for the next task (a MessageChannel message, unthrottled), so that the writes, dispatch
  // and reads a client such as onnxruntime-web issues across awaits in one run cross to the host
  // as one frame: every frame wakes the browser's network process and the host (README
  // 'Performance'). The order of messages is never changed.
  // Fire-and-forget messages held past BATCH_MAX_BYTES (a page writing in a loop of awaits)
  // leave at the next microtask instead, so that what waits stays small.
  enqueue(frame, later = false) {
    if (this.held) { this.held.push({ frame }); return; }
    this.queue.push(frame);
    this.queuedBytes = (this.queuedBytes || 0) + (typeof frame === 'string' ? frame.length : frame.byteLength);
    if (!later || this.queuedBytes > BATCH_MAX_BYTES) {
      if (!this.flushing) { this.flushing = true; queueMicrotask(() => this.flush()); }
    } else if (!this.flushing && !this.flushLater) {
      this.flushLater = true;
      // the next task's message is posted at the next microtask, and only where nothing flushed
      // the queue by then: a write, dispatch and read issued together (one task) post none
      queueMicrotask(() => {
        if (!this.flushLater || this.flushing) return;
        if (!this.tick) {
          this.tick = new MessageChannel();
          this.tick.port1.onmessage = () => { if (this.flushLater && !this.flushing) this.flush(); };
        }
        this.tick.port2.postMessage(0);
      });
    }
  }
  // Messages issued from now on wait for `pending` (a promise of [header, bytes], or null for
  // nothing) and leave after its message: a tensor's contents that a graph in the page is still
  // computing go to the host before the dispatch that reads them (timeline order is kept).
  after(pending) {
    const gate = { wait: pending.then((m) => (m ? this.frame(m[0], [m[1]]) : null), () => null) };
    if (this.held) { this.held.push(gate); return; }
    this.held = [gate];
    this.release();
  }
  release() {
    this.held[0].wait.then((frame) => {
      const held = this.held;
      held.shift();
      this.held = null;
      if (frame) this.enqueue(frame);
      while (held.length && !held[0].wait) this.enqueue(held.shift().frame);
      if (held.length) { this.held = held; this.release(); }
    });
  }
  flush() {
    this.flushing = false;
    this.flushLater = false;
    const queue = this.queue;
    this.queue = [];
    this.queuedBytes = 0;
    if (this.closed) return;
    let small = [];
    let smallBytes = 0;
    const sendSmall = () => {
      if (small.length === 1) this.ws.send(small[0]);
      else if (small.length > 1) {
        const parts = small.map((f) => (typeof f === 'string' ? textEncoder.encode(f) : new Uint8Array(f)));
        this.ws.send(this.frame({ t: 'batch', text: small.map((f) => (typeof f === 'string' ? 1 : 0)) }, parts));
      }
      small = [];
      smallBytes = 0;
    };
    for (const f of queue) {
      const n = typeof f === 'string' ? f.length : f.byteLength;
      if (n <= BATCH_MAX_BYTES) {  // a batch frame holds at most about BATCH_MAX_BYTES
        if (smallBytes + n > BATCH_MAX_BYTES) sendSmall();
        small.push(f);
        smallBytes += n;
        continue;
      }
      sendSmall();
      this.ws.send(f);
    }
    sendSmall();
  }
  // A build in one round trip where it can be: constants the host may already hold for this
  // origin are named by their key (a constant the host listed, never copied: see constantCopy) or
  // their SHA-256 (hashed by constant() or named by the host's replies), and every constant with a
  // key names it too, for the host to learn. A host that lacks some answers which (`missing`
  // digests, `missingKeys`; no graph made) and the build goes again with those constants' bytes,
  // which the host checks against their digests. ``copies``: constant()'s records of the parts
  // (their bytes are read once their digests have resolved: the page's hashing worker holds a
  // copy until then).
  async buildRequest(header, message, copies) {
    const hashes = copies.length ? await Promise.all(copies.map((c) => c.sha256)) : [];
    if (copies.some((c) => c.lost)) {
      throw makeError('OperationError', 'build(): a constant\'s copy was lost with the page\'s hashing worker.');
    }
    const items = message.constants.filter((item) => item.part !== undefined);
    const copyOf = items.map((item) => copies[item.part]);
    items.forEach((item, k) => {
      if (hashes[items[k].part]) item.sha256 = hashes[items[k].part];
      if (copyOf[k].key) item.key = copyOf[k].key;
    });
    const attempt = (withBytes) => {
      const sent = [];
      items.forEach((item, k) => {
        const copy = copyOf[k];
        if ((item.sha256 || copy.bytes === null) && !withBytes(item)) { delete item.part; return; }
        item.part = sent.length;
        sent.push(copy.bytes === null ? listedBytes(copy) : copy.bytes);
      });
      return this.request(Object.assign({}, header, message), sent.length ? sent : null);
    };
    const first = await attempt(() => false);
    if (!first.missing) return first;
    const missing = new Set(first.missing);
    const missingKeys = new Set(first.missingKeys || []);
    const second = await attempt((item) => missing.has(item.sha256) || (!item.sha256 && missingKeys.has(item.key)));
    // evicted in between (the host's store is bounded): the bytes of every constant, which cannot miss
    return second.missing ? attempt(() => true) : second;
  }
}
// The bytes of a constant that constant() named by its key alone (the host listed it) and that the
// host no longer holds (evicted since): the page's own buffer, unless the page wrote to it after
// constant() (then what constant() was given is gone, and the build cannot go on).
function listedBytes(copy) {
  if (constantKey(copy.source) !== copy.key) {
    throw makeError('OperationError', 'build(): the host no longer holds a constant whose buffer the page has changed since constant(); call constant() again.');
  }
  return copy.source;
}
let LINK = null;
let nextObjectId = 1;
function link() {
  if (!LINK || LINK.closed) LINK = new HostLink();
  return LINK.ready;
}

// ---------------------------------------------------------------------------------- buffers
// constant()'s copies, by source buffer and byte range: a page that passes the same, unchanged
// bytes again (an identical rebuild) gets the earlier copy, with no new copy. Where the host holds
// no constant of this origin yet, a new copy is written straight into the frame that uploads it at
// once (putConstant), while the page goes on with its builder calls; the host hashes it, holds it
// for the builders that use it and names its SHA-256 in the build's reply, and the page sends the
// copy's key (constantKey) after the build (teachKeys). Else (a reload, a restarted host) constant()
// computes the constant's key: one whose key the host listed (its createContext reply) is not
// copied at all, and build() names it by its key; any other is copied and hashed, and build()
// uploads it if the host lacks it. A copy lives as long as its source buffer.
const CONSTANT_COPIES = new WeakMap();
function constantCopy(b, data, desc) {
  const view = viewOf(data, desc, 'constant()');
  const slot = `${view.byteOffset}:${view.byteLength}`;
  let copies = CONSTANT_COPIES.get(view.buffer);
  const known = copies && copies.get(slot);
  if (known && known.bytes !== null && sameBytes(known.bytes, view)) return known;
  let copy;
  if (b.context.constantsHeld) {
    const held = b.context.constantKeys;
    const key = held ? constantKey(view) : null;
    if (known && known.bytes === null && key !== null && known.key === key) return known;
    copy = key !== null && held.has(key) ? { bytes: null, key, source: view, sha256: null, upload: null } : hashedCopy(view, key);
  } else {
    copy = uploadedCopy(b.context, view);
  }
  if (!copies) CONSTANT_COPIES.set(view.buffer, copies = new Map());
  copies.set(slot, copy);
  return copy;
}
// constantKey's loop runs optimized from a page's first constants: V8 optimizes a function after
// it has run for a while, and a page's first MobileNetV2 hashed its 13.3 MiB in 17 ms while V8 was
// still compiling constantKey, in 3 ms once compiled. The first context of a page runs it on a
// small buffer first (about 1 ms), while the page fetches or decodes its weights.
let KEYS_WARM = false;
function warmConstantKey() {
  if (KEYS_WARM) return;
  KEYS_WARM = true;
  const scratch = new Uint8Array(64 * 1024);
  for (let i = 0; i < 8; i++) constantKey(scratch);
}
// A constant's key: 128 bits of a fast hash of its bytes and their length (MobileNetV2's 13.3 MiB in
// 3 to 5 ms once V8 has optimized it, where SHA-256 in the page takes 13 to 19 ms and the copy it
// needs 10 ms). Two chained 64-bit states take the 32-bit words in turn; each step is a bijection of
// its state for a given word, so bytes that differ in one word never share a key, and any other
// difference does by chance alone (about 2^-64 at worst). Not a digest: a page names by it only what
// its own origin's pages gave the host (the host's list of keys is per origin), and the host names
// the bytes by their SHA-256 from there on.
function constantKey(view) {
  const n = view.byteLength;
  const whole = n >>> 2;
  const words = view.byteOffset % 4 === 0 ? new Uint32Array(view.buffer, view.byteOffset, whole)
    : new Uint32Array(view.slice(0, whole * 4).buffer);
  let a0 = 0x6a09e667 ^ n; let b0 = 0xbb67ae85 ^ Math.floor(n / 4294967296); let a1 = 0x3c6ef372; let b1 = 0xa54ff53a;
  let i = 0;
  for (; i + 1 < whole; i += 2) {
    a0 = Math.imul(a0 ^ words[i], 0x9e3779b1);
    b0 = Math.imul(b0 ^ ((a0 << 15) | (a0 >>> 17)), 0x85ebca77);
    a1 = Math.imul(a1 ^ words[i + 1], 0xc2b2ae3d);
    b1 = Math.imul(b1 ^ ((a1 << 13) | (a1 >>> 19)), 0x27d4eb2f);
  }
  let last = i < whole ? words[i] : 0;
  for (let k = whole * 4; k < n; k++) last = (last << 8) | view[k];  // at most 3 bytes: no whole word left then
  a0 = Math.imul(a0 ^ last, 0x9e3779b1);
  b0 = Math.imul(b0 ^ ((a0 << 15) | (a0 >>> 17)), 0x85ebca77);
  const out = [a0 ^ b1, b0 ^ a1, a1 ^ b0 ^ a0, b1 ^ a0 ^ b0].map((h) => {  // avalanche (murmur3's fmix32)
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    return ((h ^ (h >>> 16)) >>> 0).toString(16).padStart(8, '0');
  });
  return out.join('');
}
function hashedCopy(view, key) {
  HASHER.start();  // started by createContext unless the host listed keys
  const bytes = view.slice();
  const copy = { bytes, key, sha256: null, upload: null };
  // Chromium's crypto.subtle.digest hashes on the calling thread (13.3 MiB: 13 to 19 ms): the
  // page's hashing worker does it beside the page's builder calls where it runs
  copy.sha256 = HASHER.ready ? HASHER.hash(copy) : digestOf(bytes);
  return copy;
}
function digestOf(bytes) {
  const subtle = globalThis.crypto && globalThis.crypto.subtle;
  if (!subtle) return null;
  try {
    return subtle.digest('SHA-256', bytes).then(hexOf, () => null);
  } catch (e) {
    return null;  // the page uploads the constant
  }
}
// The page's hashing worker (one per page, started by the first context whose host holds
// constants of this origin): a copy's buffer is transferred to it (no copy), hashed there and
// transferred back with its digest, while the page goes on with its builder calls. Until the
// worker has answered that it can hash (or where the page cannot start one: no Worker, a policy
// that forbids blob: workers, no crypto.subtle in workers), the page hashes on its own thread.
// A copy is away while hashed: its record's bytes are empty until its digest resolves, and
// build() waits for the digests before it reads any copy.
const HASHER = {
  worker: null, ready: false, failed: false, next: 1, pending: new Map(),
  start() {
    if (this.worker || this.failed) return;
    const url = GLOBAL.URL;
    if (typeof Worker !== 'function' || typeof Blob !== 'function' || !url || !url.createObjectURL
        || !(globalThis.crypto && globalThis.crypto.subtle)) { this.failed = true; return; }
    const source = `onmessage = (e) => {
  const m = e.data;
  if (m.id === 0) { postMessage({ id: 0, ok: !!(self.crypto && self.crypto.subtle) }); return; }
  const done = (h) => postMessage({ id: m.id, buf: m.buf, h }, [m.buf]);
  try { crypto.subtle.digest('SHA-256', m.buf).then(done, () => done(null)); } catch (err) { done(null); }
};`;
    let href = null;
    try {
      href = url.createObjectURL(new Blob([source], { type: 'text/javascript' }));
      this.worker = new Worker(href);
    } catch (e) {
      this.failed = true;
      if (href) url.revokeObjectURL(href);
      return;
    }
    this.worker.onmessage = (e) => {
      const m = e.data;
      if (m.id === 0) {
        url.revokeObjectURL(href);
        if (m.ok && !this.failed) this.ready = true; else this.stop();
        return;
      }
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      p.copy.bytes = new Uint8Array(m.buf);
      p.resolve(m.h ? hexOf(m.h) : null);
    };
    this.worker.onerror = this.worker.onmessageerror = () => { url.revokeObjectURL(href); this.stop(); };
    this.worker.postMessage({ id: 0 });
  },
  // the copy's digest (a promise of its hex, or null); its bytes are away until it resolves
  hash(copy) {
    const id = this.next++;
    const buf = copy.bytes.buffer;
    return new Promise((resolve) => {
      this.pending.set(id, { copy, resolve });
      try {
        this.worker.postMessage({ id, buf }, [buf]);
        copy.bytes = new Uint8Array(0);
      } catch (e) {  // not sent: the copy stays here; the page hashes it
        this.pending.delete(id);
        resolve(digestOf(copy.bytes));
      }
    });
  },
  // a worker that fails: what it held is lost (build() says so); the page hashes from now on
  stop() {
    this.failed = true;
    this.ready = false;
    if (this.worker) this.worker.terminate();
    for (const p of this.pending.values()) { p.copy.lost = true; p.resolve(null); }
    this.pending.clear();
  },
};
function hexOf(buffer) {
  return Array.from(new Uint8Array(buffer), (x) => x.toString(16).padStart(2, '0')).join('');
}
function uploadedCopy(c, view) {
  const upload = { id: nextObjectId++, link: c.link, context: c, users: 0, live: true };
  const [frame, start] = c.link.blankFrame({ t: 'putConstant', ctx: c.id, upload: upload.id }, view.byteLength);
  const bytes = frame.subarray(start);
  bytes.set(view);
  c.link.sendNow(frame.buffer);
  return { bytes, key: null, sha256: null, upload };
}
// The keys of a build's copies that have none yet (constant() computes a key only where the host
// listed some): computed while the page is idle (waiting for the host's build, say; 2 ms at a time,
// once the page's hashing worker has given the copies back), then sent with the digests the build
// named, so that a reloaded page or a restarted host names these constants by key.
function teachKeys(link, copies, built) {
  const keys = {};
  let i = 0;
  const later = typeof GLOBAL.requestIdleCallback === 'function'  // while the page waits (for this build, say)
    ? (f) => GLOBAL.requestIdleCallback(f, { timeout: 1000 }) : (f) => setTimeout(f, 0);
  const step = (done) => {
    const until = performance.now() + 2;
    for (; i < copies.length && performance.now() < until; i++) {
      const c = copies[i];
      if (c.key === null && c.bytes && c.bytes.byteLength) c.key = constantKey(c.bytes);
    }
    if (i < copies.length) later(() => step(done)); else done();
  };
  const hashed = Promise.all(copies.map((c) => c.sha256));  // their bytes are back from the worker
  Promise.all([hashed.then(() => new Promise((done) => later(() => step(done)))), built]).then(async ([, reply]) => {
    const uploads = (reply && reply.uploads) || {};
    for (const c of copies) {
      const sha = c.upload ? uploads[String(c.upload.id)] : await c.sha256;
      if (c.key && typeof sha === 'string') keys[sha] = c.key;
    }
    if (Object.keys(keys).length && !link.closed) link.send({ t: 'constantKeys', keys });
  }, () => {});
}

// The upload a builder's constant names: the copy's, while the host holds it for this context
// (each builder that uses it counts), else null (the build names the copy's digest or sends it).
function useUpload(b, copy) {
  const u = copy.upload;
  if (!u || !u.live || u.link !== b.context.link || u.context !== b.context) return null;
  const state = b.uploads;
  if (!state.recs.has(u)) { state.recs.add(u); u.users++; }
  if (!state.registered) { state.registered = true; DROPPED_BUILDERS.register(b.wrapper, state); }
  return u;
}
// A builder that built its graph, or was dropped, no longer uses its uploads: the ids of those
// no other builder uses, for the host to release.
function releasedUploads(state) {
  const ids = [];
  for (const u of state.recs) if (--u.users === 0 && u.live) { u.live = false; ids.push(u.id); }
  state.recs.clear();
  return ids;
}
const DROPPED_BUILDERS = new FinalizationRegistry((state) => {
  const ids = releasedUploads(state);
  if (ids.length) state.link.send({ t: 'releaseConstants', uploads: ids });
});
const DROPPED_GRAPHS = new FinalizationRegistry((rec) => {
  rec.context.graphs.delete(rec.ref);
  if (rec.page) { releasePage(rec.context, rec.page); rec.page = null; }
  if (!rec.destroyed && !rec.context.isLost) {
    rec.destroyed = true;
    rec.context.link.send({ t: 'destroyGraph', graph: rec.id });
  }
  kick(rec, true);  // a warm-up waiting to begin: its session is released
});
function sameBytes(a, b) {
  if (a.byteLength !== b.byteLength) return false;
  let x = a; let y = b;
  if (a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0 && a.byteLength % 4 === 0) {  // 4 bytes at a time
    x = new Uint32Array(a.buffer, a.byteOffset, a.byteLength / 4);
    y = new Uint32Array(b.buffer, b.byteOffset, b.byteLength / 4);
  }
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

// ---------------------------------------------------------------------------------- graphs in the page
// serve --page-local (backends/page.py): the host may place a small graph in the page that built
// it. Its build reply then carries the graph lowered to ONNX, which onnxruntime-web's wasm backend
// (served by the host, loaded once per page, one thread) runs here: a dispatch costs no round trip.
// A tensor's contents live where the graphs that use it run: in the page (t.where === 'page',
// t.bytes) while only graphs in the page use it, on the host otherwise; they move, in timeline
// order, when a graph on the other side needs them (toPage, toHost). The page's work runs in
// order on its context's page timeline (pageWork), which never rejects.
let PAGE_LOCAL = true;  // WebNNBridge.pageLocal = false, or webnn-shim.js?pageLocal=0: every graph on the host
try {
  const script = GLOBAL.document && GLOBAL.document.currentScript;
  const flag = script && script.src ? new URL(script.src).searchParams.get('pageLocal') : null;
  if (flag !== null) PAGE_LOCAL = flag !== '0' && flag !== 'false';
} catch (e) { /* no script URL: the default holds */ }
let PAGE_ORT = null;  // onnxruntime-web's module, once loaded (a promise)
let PAGE_ORT_FAILED = false;
const ORT_ARRAYS = {
  float32: Float32Array, float16: Uint16Array, int32: Int32Array, uint32: Uint32Array,
  int64: BigInt64Array, uint64: BigUint64Array, int8: Int8Array, uint8: Uint8Array,
};
function pageLocal(link) {
  return PAGE_LOCAL && !PAGE_ORT_FAILED && !!link.pageRuntime && typeof WebAssembly === 'object';
}
function pageRuntime(link) {
  if (!PAGE_ORT) {
    PAGE_ORT = import(link.pageRuntime + 'ort.wasm.bundle.min.mjs').then((ort) => {
      ort.env.wasm.numThreads = 1;  // the page's own thread: no worker pool beside the browser's
      ort.env.wasm.proxy = false;
      ort.env.wasm.wasmPaths = { wasm: link.pageRuntime + 'ort-wasm-simd-threaded.wasm' };  // its glue is in the bundle
      return ort;
    });
    PAGE_ORT.catch(() => { PAGE_ORT_FAILED = true; });
  }
  return PAGE_ORT;
}
// ``id``: the graph's, whose model the page asks for where the build's reply left it out (a graph
// the host runs meanwhile): fetched while the runtime starts
async function pageSession(link, reply, id) {
  const model = reply.$payload || link.request({ t: 'pageModel', graph: id }).then((r) => r.$payload);
  const [ort, bytes] = await Promise.all([pageRuntime(link), model]);
  const options = { executionProviders: ['wasm'], graphOptimizationLevel: 'all' };
  const off = reply.page.disabledOptimizers || [];
  if (off.length) options.extra = { optimization: { disable_specified_optimizers: off.join(',') } };
  const session = await ort.InferenceSession.create(bytes, options);
  return { ort, session, inputs: reply.page.inputs, outputs: reply.page.outputs };
}
// A graph placed in the page runs on the host first (build()): the page's session of it is made
// (once) after its first result, or when WebNNBridge.settled asks, and warmed (warmUp); the page
// then runs it (the host lets its compile go: 'inPage', after the dispatches the host ran) or,
// when the runtime fails, the host keeps it. Resolves to whether the page runs it.
function startInPage(g) {
  if (g.settled) return g.settled;
  const c = g.context;
  const reply = g.later;
  g.later = null;
  const gone = () => g.destroyed || g.rec.destroyed || c.isLost;
  if (gone()) return (g.settled = Promise.resolve(false));
  g.settled = pageSession(c.link, reply, g.id).then((p) => warmUp(g, p, reply.page.warmUp, gone)).then((p) => {
    if (gone()) { p.session.release(); return false; }
    g.page = p;
    g.rec.page = p;
    c.link.send({ t: 'inPage', graph: g.id, ok: true });
    return true;
  }, (e) => {
    if (gone()) return false;  // destroyed meanwhile: nothing to run, nothing to say
    console.warn(`webnn-bridge: this page could not run a graph placed in it (${e && e.message}); the host runs it.`);
    c.link.send({ t: 'inPage', graph: g.id, ok: false });
    return false;
  });
  return g.settled;
}
// A new session of a graph the host runs meanwhile, run on zeros before the page takes the graph
// over (rules.toml §4c warm_up_*): the browser optimizes a wasm function once it has run enough,
// and a fresh session's first hundreds of runs are its slowest. It begins once the graph has been
// dispatched `after` times (a page that runs a graph once or twice pays nothing) or settled()
// asks; it runs in tasks of a few ms on the page's timeline, at most `runs` times, for at most
// `maxMs`, while the page's warm-ups together have run for less than `pageMaxMs` (a page of many
// small graphs: the later ones take over cold). A run that fails ends it: the graph's own runs
// say what is wrong with them.
const WARM_SLICE_MS = 4;
let PAGE_WARM_SPENT = 0;  // ms the page's warm-ups have run, all graphs together
async function warmUp(g, p, warm, gone) {
  const runs = (warm && warm.runs) || 0;
  if (!runs || gone()) return p;
  if (!g.asked && g.rec.hostRuns < warm.after) {
    await new Promise((resolve) => { g.rec.kickAt = warm.after; g.rec.kick = resolve; });
  }
  const t0 = performance.now();
  let n = 0;
  try {
    const feeds = {};
    for (const [name, d] of Object.entries(g.inputs)) {
      const A = ORT_ARRAYS[d.dataType];
      feeds[p.inputs[name]] = new p.ort.Tensor(d.dataType, new A(tensorBytes(d) / A.BYTES_PER_ELEMENT), d.shape.slice());
    }
    const slice = async () => {
      const s = performance.now();
      do {
        const r = await p.session.run(feeds);
        for (const v of Object.values(r)) if (v.dispose) v.dispose();
        n++;
      } while (n < runs && performance.now() - s < WARM_SLICE_MS);
      PAGE_WARM_SPENT += performance.now() - s;
    };
    while (n < runs && performance.now() - t0 < warm.maxMs && PAGE_WARM_SPENT < (warm.pageMaxMs || 0) && !gone()) {
      await pageWork(g.context, slice);
      await new Promise((resolve) => setTimeout(resolve, 0));  // the page's other tasks between slices
    }
  } catch (e) { /* the graph's own runs will say it */ }
  return p;
}
// a graph the host runs meanwhile that waits to warm up (warmUp): dispatched again, settled()
// asked, or gone
function kick(rec, force) {
  const k = rec.kick;
  if (!k || !(force || rec.hostRuns >= rec.kickAt)) return;
  rec.kick = null;
  k();
}
// after a read from the host resolved: the graphs dispatched before it that wait for the runtime
// start it, once the page's own code that awaited the read has run
function startWaiting(c) {
  const gs = c.pageStarts;
  if (!gs) return;
  c.pageStarts = null;
  setTimeout(() => { for (const g of gs) startInPage(g); }, 0);
}
function releasePage(c, page) {
  pageWork(c, () => page.session.release()).catch(() => {});
}
// a tensor's bytes (int4/uint4 are packed two per byte: ceil(elements * bits / 8))
function tensorBytes(desc) {
  return Math.ceil(desc.shape.reduce((a, b) => a * b, 1) * DATA_TYPES[desc.dataType].bits / 8);
}
function pageBytes(t) {
  if (!t.bytes) t.bytes = new Uint8Array(tensorBytes(t.desc));  // a tensor starts as zeros
  return t.bytes;
}
// `step` after everything before it on the context's page timeline; its result as a promise
function pageWork(c, step) {
  c.pageBusy = (c.pageBusy || 0) + 1;
  const p = (c.pageTail || Promise.resolve()).then(step);
  const done = () => { c.pageBusy--; };
  c.pageTail = p.then(done, done);
  return p;
}
// a tensor a graph in the page reads: its contents come from the host when the host has any
function toPage(c, t) {
  if (t.where === 'page') return;
  t.where = 'page';
  if (!t.written) return;  // never written on the host: zeros
  const read = c.link.request({ t: 'readTensor', tensor: t.id, rawReply: true, move: true });
  pageWork(c, () => read.then((r) => {
    t.bytes = r.$payload.own ? r.$payload : r.$payload.slice();
    t.failed = null;
  }, (e) => { t.bytes = null; t.failed = (e && e.message) || 'moving it to the page failed'; }));
}
// a tensor a graph on the host reads: its contents go to the host before that dispatch
function toHost(c, t) {
  t.where = 'host';
  t.written = true;
  c.link.after(pageWork(c, () => {
    const bytes = pageBytes(t);
    const failed = t.failed;
    t.bytes = null;
    t.failed = null;
    if (t.destroyed) return null;
    return failed ? [{ t: 'writeTensor', tensor: t.id, move: true, failed }, new Uint8Array(0)]
      : [{ t: 'writeTensor', tensor: t.id, move: true }, bytes];
  }));
}
// a tensor a graph on the host writes: what the page held is dropped once the page is done with it
function leavePage(c, t) {
  t.where = 'host';
  pageWork(c, () => { t.bytes = null; t.failed = null; });
}
function dispatchInPage(c, g, ins, outs) {
  for (const t of Object.values(ins)) toPage(c, t);
  for (const t of Object.values(outs)) t.where = 'page';
  const page = g.page;
  const at = c.link.tracing ? performance.now() : null;  // the operator's trace: the page's own time of the run
  pageWork(c, () => runInPage(page, ins, outs)).then(() => {
    if (at !== null && !g.destroyed) c.link.send({ t: 'pageLatency', graph: g.id, ms: performance.now() - at });
  }, (e) => {
    const why = `${(e && e.name) || 'Error'}: ${e && e.message}`;
    for (const t of Object.values(outs)) t.failed = `the dispatch that was to fill it failed (${why})`;
    console.error(`webnn-bridge: MLContext.dispatch() failed in the page: ${why}`);
  });
}
async function runInPage(page, ins, outs) {
  const feeds = {};
  for (const [name, t] of Object.entries(ins)) {
    if (t.failed) throw makeError('OperationError', `input '${name}': ${t.failed}`);
    const A = ORT_ARRAYS[t.desc.dataType];
    const b = pageBytes(t);
    feeds[page.inputs[name]] = new page.ort.Tensor(t.desc.dataType, new A(b.buffer, b.byteOffset, b.byteLength / A.BYTES_PER_ELEMENT), t.desc.shape.slice());
  }
  const t0 = performance.now();
  const results = await page.session.run(feeds);
  page.lastMs = performance.now() - t0;
  for (const [name, t] of Object.entries(outs)) {
    const r = results[page.outputs[name]];
    const d = r.data;
    if (!t.destroyed) { pageBytes(t).set(new Uint8Array(d.buffer, d.byteOffset, d.byteLength)); t.failed = null; }
    if (r.dispose) r.dispose();
  }
}

// ---------------------------------------------------------------------------------- spec mode
// Compatible by default, strict on request. Where spec HEAD (c515210) is stricter than shipping
// Chromium and real pages depend on Chromium's behaviour, the shim accepts what Chromium accepts
// (README "Compatibility with shipping Chromium" lists every such case) and warns once per page
// and case, naming the spec step. Strict mode gives HEAD's behaviour: the host's
// `serve --strict-spec` (its hello reply says `strictSpec`), or the page's own switch,
// `WebNNBridge.strict = true` or `webnn-shim.js?strict=1`, which wins over the host's when set.
let PAGE_STRICT = null;
try {
  const script = GLOBAL.document && GLOBAL.document.currentScript;
  const flag = script && script.src ? new URL(script.src).searchParams.get('strict') : null;
  if (flag !== null) PAGE_STRICT = flag !== '0' && flag !== 'false';
} catch (e) { /* no script URL (a worker's importScripts): the default holds */ }
function strictSpec(link) {
  if (PAGE_STRICT !== null) return PAGE_STRICT;
  return !!(link && link.strictSpec);
}
const WARNED = new Set();
function divergence(kind, message) {
  if (WARNED.has(kind)) return;
  WARNED.add(kind);
  console.warn(`webnn-bridge: ${message} Shipping Chromium accepts this; WebNN spec HEAD does not. ` +
    'Set WebNNBridge.strict = true (or load webnn-shim.js?strict=1) for the spec\'s behaviour.');
}

const ANY_VIEW = Object.freeze({ anyView: true });
const ANY_VIEW_OR_LARGER = Object.freeze({ anyView: true, larger: true });
function laxFor(ctx, lax) { return strictSpec(ctx.link) ? null : lax; }

// The checked bytes of an AllowSharedBufferSource, not copied: for data that is copied into a
// frame before the call returns (HostLink.send/request build the frame synchronously).
// `lax`: the call's own divergences from HEAD (README), for pages not in strict mode:
//   anyView: an ArrayBufferView of any element type (Chromium checks only the byte length);
//   larger:  a buffer at least as long as the tensor (readTensor: the tensor fills its start).
function viewOf(data, desc, what, lax) {
  let view;
  const step = `the spec's "validate buffer with descriptor" step of ${what}`;
  const size = tensorBytes(desc);
  if (ArrayBuffer.isView(data)) {
    const expected = DATA_TYPES[desc.dataType].array;
    const ctor = data.constructor && data.constructor.name;
    const ok = ctor === 'Uint8Array' || ctor === expected || (desc.dataType === 'float16' && ctor === 'Uint16Array');
    if (!ok) {
      if (!(lax && lax.anyView)) throw new TypeError(`${what}: a ${ctor} cannot hold ${desc.dataType} data.`);
      if (data.byteLength === size || (lax.larger && data.byteLength > size)) {
        divergence(`${what}:view`, `${what} was given a ${ctor} for ${desc.dataType} data, which ${step} rejects.`);
      }
    }
    view = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  } else {
    view = new Uint8Array(data);
  }
  if (view.byteLength !== size) {
    if (lax && lax.larger && view.byteLength > size) {
      divergence(`${what}:larger`, `${what} was given a buffer of ${view.byteLength} bytes for ` +
        `${desc.dataType}[${desc.shape.join(',')}] (${size} bytes), which ${step} rejects; the tensor fills its start.`);
      return view.subarray(0, size);
    }
    throw new TypeError(`${what}: byte length ${view.byteLength} does not match ${desc.dataType}[${desc.shape.join(',')}] (${size} bytes).`);
  }
  return view;
}

// ---------------------------------------------------------------------------------- behaviour
function loseContext(ctx, message) {
  if (ctx.isLost) return;
  ctx.isLost = true;
  ctx.resolveLost({ message });
  for (const ref of ctx.graphs) {
    const g = ref.deref();
    if (g) { g.destroyed = true; kick(g.rec, true); }
    if (g && g.page) { releasePage(ctx, g.page); g.page = null; g.rec.page = null; }
  }
  for (const t of ctx.tensors) destroyTensor(t);
  if (LINK) LINK.contexts.delete(ctx);
}

function destroyTensor(t) {
  if (t.destroyed) return;
  t.destroyed = true;
  for (const reject of t.pendingReads) reject(makeError('InvalidStateError', 'The tensor was destroyed.'));
  t.pendingReads.clear();
  t.context.tensors.delete(t);
  t.bytes = null;
  if (!t.context.isLost) t.context.link.send({ t: 'destroyTensor', tensor: t.id });
}

function canBuild(b) {
  if (b.hasBuilt) throw makeError('InvalidStateError', 'The MLGraphBuilder has already built a graph.');
  if (b.context.isLost) throw makeError('InvalidStateError', 'The MLContext is lost.');
}

function newOperand(b, desc, kind, extra) {
  const s = Object.assign({ builder: b, id: nextObjectId++, desc: { dataType: desc.dataType, shape: Object.freeze(desc.shape.slice()) }, kind }, extra || {});
  return wrap('MLOperand', s);
}

function ownOperands(b, conv) {
  // every MLOperand argument (also inside option dictionaries and sequences) must be this builder's
  const visit = (v) => {
    if (v === null || typeof v !== 'object') return;
    const s = SLOTS.get(v);
    if (s) {
      if (s.iface === 'MLOperand' && s.builder !== b) throw new TypeError('An MLOperand from another MLGraphBuilder was passed.');
      return;
    }
    if (Array.isArray(v)) v.forEach(visit); else if (!isBuffer(v)) Object.values(v).forEach(visit);
  };
  visit(conv);
}

// ---------------------------------------------------------------------------------- op rules
// The op rules run here, synchronously: generated/webnn_ops.js is translated from the host's
// Python rules (devtools/codegen/jsgen.py), so they exist once; the host checks everything again at build().
const PY_OVERLOADS = new WeakMap();

function pyValue(v) {
  // converted arguments -> the values the translated rules expect (dicts, lists, descriptors)
  if (v === undefined || v === null) return null;
  if (typeof v !== 'object') return v;
  const s = SLOTS.get(v);
  if (s) return s.iface === 'MLOperand' ? new $Desc(s.desc.dataType, s.desc.shape) : v;
  if (Array.isArray(v)) return v.map(pyValue);
  if (isBuffer(v)) return v;
  return new $Dict(Object.keys(v).map((k) => [k, pyValue(v[k])]));
}

// the host's JSON, the IDL's overload descriptions and the shim's own records (plain data, never
// a buffer or a platform object) as the translated rules read it: no buffer check (pyValue's asks
// an ArrayBuffer getter, whose exception for anything else costs about 8 us warm, more in a
// fresh page: the first call of each operator converted its overload, 1.3 ms of a tiny graph's
// builder calls)
function pyJson(v) {
  if (v === null || typeof v !== 'object') return v === undefined ? null : v;
  if (Array.isArray(v)) return v.map(pyJson);
  return new $Dict(Object.keys(v).map((k) => [k, pyJson(v[k])]));
}

function ruleError(e, message) {
  if (e instanceof $WebNNTypeError) return new TypeError(message(e.message));
  if (e instanceof $PyError) return new TypeError(`webnn-bridge: invalid call (${e.message}).`);
  return e;
}

function contextRules(reply) {
  // the context's capabilities (the privacy-bucketed profile the host enforces), as the rules read them
  const r = reply.rules;
  const limit = (l) => Object.freeze({ types: $T(l.types), ranks: $T(l.ranks), same: l.same });
  const ops = new $Dict(Object.entries(r.ops).map(([op, lims]) => [op, new $Dict(Object.entries(lims).map(([n, l]) => [n, limit(l)]))]));
  const caps = { ops, max_rank: r.maxRank, max_tensor_byte_length: r.maxTensorByteLength };
  return { _limits: pyJson(reply.limits), capabilities: caps, check_operand(kind, desc) { return RULES.check_operand(this, kind, desc); } };
}

function checkScalarConstant(ctx, dataType) {
  try {
    RULES.check_scalar_constant(ctx.rules, dataType);
  } catch (e) { throw ruleError(e, (m) => m); }
}

function checkNewOperand(ctx, kind, descriptor) {
  try {
    const d = RULES.check_new_operand(ctx.rules, kind, pyValue(descriptor));
    return { dataType: d.data_type, shape: Array.from(d.shape) };
  } catch (e) { throw ruleError(e, (m) => m); }
}

// Every operator method: WebIDL conversion happened in $b.invoke; the translated op rules do the
// op's validation and shape inference; the call is recorded for build().
function builderOp(b, conv, op, overload) {
  canBuild(b);
  ownOperands(b, conv);
  const opdef = RULES.ops[op];
  if (opdef === undefined) throw makeError('NotSupportedError', `MLGraphBuilder.${op}() is not supported by webnn-bridge yet.`);
  let pyOverload = PY_OVERLOADS.get(overload);
  if (!pyOverload) { pyOverload = pyJson(overload); PY_OVERLOADS.set(overload, pyOverload); }
  const call = RULES.call_from(op, pyOverload, pyValue(conv));
  let outs;
  try { outs = RULES.validate_call(opdef, call, b.context.rules.capabilities); } catch (e) {
    throw ruleError(e, (m) => RULES.labelled_message(call, m));
  }
  const args = overload.args.map((a) => conv[a.name]);
  const node = { op, args, outputs: [] };
  const operands = outs.map((d) => newOperand(b, { dataType: d.data_type, shape: Array.from(d.shape) }, 'output', { node }));
  node.outputs = operands.map((o) => SLOTS.get(o));
  b.nodes.push(node);
  return overload.returns.t === 'sequence' ? operands : operands[0];
}

function collectGraph(b, outputs) {
  // the sub-graph reachable from the outputs, in creation order
  const seen = new Set();
  const stack = Object.values(outputs).map((o) => SLOTS.get(o));
  const nodes = new Set();
  while (stack.length) {
    const s = stack.pop();
    if (seen.has(s)) continue;
    seen.add(s);
    if (s.node && !nodes.has(s.node)) {
      nodes.add(s.node);
      tagValue(s.node.args, (x) => { stack.push(x); return null; });
    }
  }
  // the message numbers the graph's operands from 0 in creation order: identical graphs send
  // identical messages (the host's build memo takes a message as it is)
  for (const node of nodes) for (const o of node.outputs) seen.add(o);  // outputs no one reads too
  const number = new Map();
  Array.from(seen).sort((x, y) => x.id - y.id).forEach((s, i) => number.set(s, i));
  const inputs = []; const constants = []; const copies = []; const uploaded = new Map();
  for (const [s, n] of number) {
    if (s.kind === 'input') inputs.push({ operand: n, name: s.name, desc: { dataType: s.desc.dataType, shape: Array.from(s.desc.shape) } });
    if (s.kind === 'constant') {
      if (s.copy) {
        const item = { operand: n, desc: { dataType: s.desc.dataType, shape: Array.from(s.desc.shape) } };
        if (s.upload) { item.upload = s.upload.id; uploaded.set(String(s.upload.id), s.copy); }
        else { item.part = copies.length; copies.push(s.copy); }
        constants.push(item);
      }
      else if (s.scalar) constants.push({ operand: n, scalar: s.scalar });
      else {
        if (s.tensor.destroyed) throw new TypeError('build(): a constant MLTensor has been destroyed.');
        constants.push({ operand: n, tensor: s.tensor.id });
      }
    }
  }
  const nodeList = b.nodes.filter((n) => nodes.has(n)).map((n) => ({
    op: n.op,
    args: tagValue(n.args, (s) => ({ $operand: number.get(s) })),
    outputs: n.outputs.map((s) => number.get(s)),
  }));
  const outs = {};
  for (const [name, o] of Object.entries(outputs)) outs[name] = number.get(SLOTS.get(o));
  const graphInputs = {};
  for (const i of inputs) graphInputs[i.name] = i.desc;
  const graphOutputs = {};
  for (const [name, o] of Object.entries(outputs)) {
    const s = SLOTS.get(o);
    graphOutputs[name] = { dataType: s.desc.dataType, shape: Array.from(s.desc.shape) };
  }
  return { message: { inputs, constants, nodes: nodeList, outputs: outs }, copies, uploaded, graphInputs, graphOutputs };
}

function checkTensor(ctx, tensorObj, what) {
  const t = SLOTS.get(tensorObj);
  if (t.context !== ctx) throw new TypeError(`${what}: the MLTensor belongs to another MLContext.`);
  if (t.destroyed) throw new TypeError(`${what}: the MLTensor has been destroyed.`);
  return t;
}

function legacyUsage(desc) {
  // MLTensorUsage flags of older drafts (still sent by some samples): map to readable/writable
  if (desc.usage !== undefined) {
    if (desc.usage & MLTensorUsage.READ) desc.readable = true;
    if (desc.usage & MLTensorUsage.WRITE) desc.writable = true;
    delete desc.usage;
  }
  return desc;
}

const MLTensorUsage = Object.freeze({ WEBGPU_INTEROP: 1, READ: 2, WRITE: 4 });

const IMPL = {
  ML: {
    get: {},
    ops: {
      async createContext(ml, conv) {
        if (conv.gpuDevice) throw makeError('NotSupportedError', 'Creating an MLContext from a GPUDevice is not supported by webnn-bridge.');
        let hostLink;
        try { hostLink = await link(); } catch (e) {
          throw makeError('NotSupportedError', e && e.message ? e.message : 'The webnn-bridge host is unreachable.');
        }
        const id = nextObjectId++;
        // whether this page runs the small graphs the host places in it (a host that serves the page
        // runtime); the host says whether this context's graphs may go there (pageGraphs). The
        // runtime loads when a graph placed in the page first starts there (startInPage): a
        // module evaluated beside the page's builder calls delays them on a small machine
        const page = pageLocal(hostLink);
        // the limits and rules of a context like an earlier one of this link come as their key alone
        const rulesKnown = Array.from(hostLink.contextRules.keys()).slice(-8);
        const pending = hostLink.request({ t: 'createContext', ctx: id, options: tagValue(conv.options, () => null), page, rulesKnown });
        warmConstantKey();  // while the host answers
        const reply = await pending;
        let shared = reply.rules === undefined ? hostLink.contextRules.get(reply.rulesKey) : undefined;
        if (!shared) {
          shared = { limits: reply.limits, rules: contextRules(reply) };  // read only, by every context that shares them
          if (typeof reply.rulesKey === 'string') hostLink.contextRules.set(reply.rulesKey, shared);
        }
        // constant() hashes its copies where the host lists no keys (else at its first constant the host lacks)
        if (reply.constantsHeld === true && !(Array.isArray(reply.constantKeys) && reply.constantKeys.length)) HASHER.start();
        let resolveLost;
        const lost = new Promise((r) => { resolveLost = r; });
        const ctx = {
          id, link: hostLink, accelerated: reply.accelerated, limits: shared.limits, rules: shared.rules,
          constantsHeld: reply.constantsHeld === true, pageGraphs: page && reply.pageGraphs === true,
          // the keys of this origin's constants the host holds (constantCopy)
          constantKeys: Array.isArray(reply.constantKeys) && reply.constantKeys.length ? new Set(reply.constantKeys) : null,
          lost, resolveLost, isLost: false, graphs: new Set(), tensors: new Set(),
        };
        hostLink.contexts.add(ctx);
        return wrap('MLContext', ctx);
      },
    },
  },
  MLContext: {
    get: {
      accelerated: (c) => c.accelerated,
      lost: (c) => c.lost,
    },
    ops: {
      opSupportLimits(c) { return JSON.parse(JSON.stringify(c.limits)); },
      destroy(c) {
        if (c.isLost) return;
        loseContext(c, 'destroy() was called on the MLContext.');
        c.link.send({ t: 'destroyContext', ctx: c.id });
      },
      async createTensor(c, conv) {
        if (c.isLost) throw makeError('InvalidStateError', 'The MLContext is lost.');
        const desc = legacyUsage(conv.descriptor);
        const id = nextObjectId++;
        await c.link.request({ t: 'createTensor', ctx: c.id, tensor: id, desc });
        if (c.isLost) throw makeError('InvalidStateError', 'The MLContext was lost.');
        // where: the side that holds its contents (graphs in the page); written: the host's are not zeros
        const t = { id, context: c, desc: { dataType: desc.dataType, shape: Object.freeze(desc.shape.slice()) }, readable: desc.readable, writable: desc.writable, constant: false, destroyed: false, pendingReads: new Set(), where: 'host', written: false, bytes: null, failed: null };
        c.tensors.add(t);
        return wrap('MLTensor', t);
      },
      // WebGPU interop (extensions.idl): there is no GPUDevice behind webnn-bridge's contexts
      async createExportableTensor() {
        throw makeError('NotSupportedError', 'createExportableTensor: WebGPU interop is not supported by webnn-bridge.');
      },
      async exportToGPU(c, conv) {
        // only a tensor from createExportableTensor() can be exported, and there is none here
        checkTensor(c, conv.tensor, 'exportToGPU');
        throw new TypeError('exportToGPU: the MLTensor was not created with createExportableTensor().');
      },
      async createConstantTensor(c, conv) {
        if (c.isLost) throw makeError('InvalidStateError', 'The MLContext is lost.');
        const desc = conv.descriptor;
        const bytes = viewOf(conv.inputData, desc, 'createConstantTensor()', laxFor(c, ANY_VIEW));
        const id = nextObjectId++;
        await c.link.request({ t: 'createConstantTensor', ctx: c.id, tensor: id, desc }, [bytes]);
        if (c.isLost) throw makeError('InvalidStateError', 'The MLContext was lost.');
        const t = { id, context: c, desc: { dataType: desc.dataType, shape: Object.freeze(desc.shape.slice()) }, readable: false, writable: false, constant: true, destroyed: false, pendingReads: new Set(), where: 'host', written: true, bytes: null, failed: null };
        c.tensors.add(t);
        return wrap('MLTensor', t);
      },
      writeTensor(c, conv) {
        const t = checkTensor(c, conv.tensor, 'writeTensor');
        if (!t.writable) throw new TypeError('writeTensor: the MLTensor is not writable.');
        const bytes = viewOf(conv.inputData, t.desc, 'writeTensor()', laxFor(c, ANY_VIEW));
        if (t.where === 'page') {  // copied now (the caller may change its buffer), applied in timeline order
          if (!c.pageBusy) { pageBytes(t).set(bytes); t.failed = null; return; }
          const copy = bytes.slice();
          pageWork(c, () => { if (!t.destroyed) { pageBytes(t).set(copy); t.failed = null; } });
          return;
        }
        t.written = true;
        c.link.sendRaw({ t: 'writeTensor', tensor: t.id }, bytes);
      },
      readTensor(c, conv) {
        const t = checkTensor(c, conv.tensor, 'readTensor');
        if (!t.readable) throw new TypeError('readTensor: the MLTensor is not readable.');
        const out = conv.outputData;
        // type and length check; the bytes the tensor fills (all of them, or their start: README)
        const target = out === undefined ? undefined : viewOf(out, t.desc, 'readTensor()', laxFor(c, ANY_VIEW_OR_LARGER));
        if (t.where === 'page') {
          return new Promise((resolve, reject) => {
            t.pendingReads.add(reject);
            pageWork(c, () => {
              if (!t.pendingReads.has(reject)) return;
              t.pendingReads.delete(reject);
              if (t.failed) { reject(makeError('UnknownError', `readTensor: the tensor's contents are undefined: ${t.failed}`)); return; }
              const b = pageBytes(t);
              if (out === undefined) { resolve(b.slice().buffer); return; }
              if (target.byteLength !== b.byteLength) { reject(new TypeError('readTensor: the output buffer was detached.')); return; }
              target.set(b);
              resolve(undefined);
            });
          });
        }
        return new Promise((resolve, reject) => {
          t.pendingReads.add(reject);
          c.link.request({ t: 'readTensor', tensor: t.id, rawReply: true }).then((r) => {
            if (!t.pendingReads.has(reject)) return;
            t.pendingReads.delete(reject);
            const d = t.dispatched;
            if (d) { t.dispatched = null; c.link.send({ t: 'pageLatency', graph: d.g.id, ms: performance.now() - d.at }); }
            startWaiting(c);
            if (out === undefined) { resolve(r.$payload.own ? r.$payload.buffer : r.$payload.slice().buffer); return; }
            if (target.byteLength !== r.$payload.byteLength) { reject(new TypeError('readTensor: the output buffer was detached.')); return; }
            target.set(r.$payload);
            resolve(undefined);
          }).catch((e) => { t.pendingReads.delete(reject); reject(e); });
        });
      },
      dispatch(c, conv) {
        const g = SLOTS.get(conv.graph);
        if (g.context !== c) throw new TypeError('dispatch: the MLGraph belongs to another MLContext.');
        if (g.destroyed || c.isLost) throw makeError('InvalidStateError', 'dispatch: the MLGraph has been destroyed.');
        // each tensor a live MLTensor of this context (here), then the rules dispatch shares with
        // the host (ops/calls.py check_dispatch, generated into RULES)
        const ids = {};
        const records = {};
        for (const [kind, named] of [['input', conv.inputs], ['output', conv.outputs]]) {
          ids[kind] = {};
          records[kind] = {};
          for (const name of Object.keys(named)) {
            const t = checkTensor(c, named[name], `dispatch: ${kind} '${name}'`);
            ids[kind][name] = t.id;
            records[kind][name] = t;
          }
        }
        // The rules' verdict depends only on which tensor goes by which name (a tensor's
        // descriptor and kind never change; destroyed ones were refused above): a graph keeps the
        // bindings it has accepted, and a page that dispatches the same tensors again (every run
        // of onnxruntime-web's WebNN EP) skips the rules' conversions and checks.
        const key = JSON.stringify([ids.input, ids.output]);
        if (!(g.accepted && g.accepted.has(key))) {
          if (!g.resources) g.resources = [pyJson(g.inputs), pyJson(g.outputs)];
          const record = (named) => {
            const out = {};
            for (const name of Object.keys(named)) {
              const t = named[name];
              out[name] = { id: t.id, constant: t.constant, dataType: t.desc.dataType, shape: t.desc.shape };
            }
            return pyJson(out);
          };
          try {
            RULES.check_dispatch(record(records.input), record(records.output), ...g.resources);
          } catch (e) { throw ruleError(e, (m) => m); }
          if (!g.accepted || g.accepted.size >= 64) g.accepted = new Set();
          g.accepted.add(key);
        }
        if (g.page) { dispatchInPage(c, g, records.input, records.output); return; }
        for (const t of Object.values(records.input)) if (t.where === 'page') toHost(c, t);
        for (const t of Object.values(records.output)) { if (t.where === 'page') leavePage(c, t); t.written = true; }
        c.link.send({ t: 'dispatch', ctx: c.id, graph: g.id, inputs: ids.input, outputs: ids.output });
        g.rec.hostRuns++;
        if (g.rec.kick) kick(g.rec, false);
        if (g.later && !(c.pageStarts && c.pageStarts.includes(g))) (c.pageStarts = c.pageStarts || []).push(g);
        if (c.link.tracing) {  // page-side latency for the operator's trace: dispatch() to a read of an output resolved
          const at = performance.now();
          for (const name of Object.keys(conv.outputs)) SLOTS.get(conv.outputs[name]).dispatched = { g, at };
        }
      },
    },
  },
  MLGraph: {
    get: {
      // extensions.idl: the coarse device kinds of the host's placement (["cpu"], ["gpu", "cpu"], ...)
      devices: (g) => g.devices,
    },
    ops: {
      destroy(g) {
        if (g.destroyed) return;
        g.destroyed = true;
        g.rec.destroyed = true;
        kick(g.rec, true);
        g.context.graphs.delete(g.rec.ref);
        if (g.page) { releasePage(g.context, g.page); g.page = null; g.rec.page = null; }
        if (!g.context.isLost) g.context.link.send({ t: 'destroyGraph', graph: g.id });
      },
    },
  },
  MLTensor: {
    get: {
      dataType: (t) => t.desc.dataType,
      shape: (t) => t.desc.shape,
      readable: (t) => t.readable,
      writable: (t) => t.writable,
      constant: (t) => t.constant,
      gpuDevice: () => null,  // no exportable tensors without WebGPU interop
    },
    ops: { destroy(t) { destroyTensor(t); } },
  },
  MLOperand: {
    get: {
      dataType: (o) => o.desc.dataType,
      shape: (o) => o.desc.shape,
    },
    ops: {},
  },
  MLGraphBuilder: {
    construct(conv) {
      const c = SLOTS.get(conv.context);
      if (c.isLost) throw makeError('InvalidStateError', 'The MLContext is lost.');
      return { context: c, hasBuilt: false, inputNames: new Set(), nodes: [], uploads: { recs: new Set(), registered: false, link: c.link } };
    },
    get: {},
    ops: {
      input(b, conv) {
        canBuild(b);
        try { RULES.check_input_name(conv.name, b.inputNames); } catch (e) { throw ruleError(e, (m) => m); }
        const desc = checkNewOperand(b.context, 'input', conv.descriptor);
        b.inputNames.add(conv.name);
        return newOperand(b, desc, 'input', { name: conv.name });
      },
      constant(b, conv) {
        if (conv.tensor !== undefined) {
          const t = SLOTS.get(conv.tensor);
          if (t.context !== b.context || t.destroyed || !t.constant) {
            throw new TypeError('constant(): the MLTensor must be a live constant tensor of this context.');
          }
          canBuild(b);
          return newOperand(b, t.desc, 'constant', { tensor: t });
        }
        canBuild(b);
        if (conv.dataType !== undefined) {
          checkScalarConstant(b.context, conv.dataType);
          return newOperand(b, { dataType: conv.dataType, shape: [] }, 'constant', { scalar: { dataType: conv.dataType, value: tagValue(conv.value) } });
        }
        const desc = checkNewOperand(b.context, 'constant', conv.descriptor);
        const copy = constantCopy(b, conv.buffer, desc);
        return newOperand(b, desc, 'constant', { copy, upload: useUpload(b, copy) });
      },
      async build(b, conv) {
        canBuild(b);
        // spec: every TypeError check happens before [[hasBuilt]] is set (the builder stays usable)
        const outputs = conv.outputs;
        const entries = Object.entries(outputs);
        if (entries.length === 0) throw new TypeError('build(): at least one output is required.');
        for (const [name, o] of entries) {
          if (name === '') throw new TypeError('build(): output names must not be empty.');
          const s = SLOTS.get(o);
          if (s.builder !== b) throw new TypeError('An MLOperand from another MLGraphBuilder was passed.');
          if (s.kind !== 'output') throw new TypeError(`build(): output '${name}' is an input or constant operand.`);
        }
        const g = collectGraph(b, outputs);
        b.hasBuilt = true;
        const c = b.context;
        const id = nextObjectId++;
        const release = releasedUploads(b.uploads);  // released by the host after this build
        if (release.length) g.message.release = release;
        // a graph placed in the page runs on the host until the page's session of it is started
        // and warm (startInPage: the page's first session fetches, compiles and starts 14 MB of
        // wasm, a few hundred ms, which would delay build() and the page's first result; and a new
        // session is at its slowest in its first hundreds of runs): the host, asked in this
        // message (`interim`), also compiles it for itself and runs it meanwhile; where it cannot,
        // the build waits for the page's session after all
        const header = { t: 'build', ctx: c.id, graph: id };
        if (c.pageGraphs) header.interim = true;
        const unkeyed = [...g.uploaded.values(), ...g.copies].filter((copy) => copy.key === null);
        const request = c.link.buildRequest(header, g.message, g.copies);
        if (unkeyed.length) teachKeys(c.link, unkeyed, request);
        let reply = await request;
        for (const [uid, sha256] of Object.entries(reply.uploads || {})) {
          const copy = g.uploaded.get(uid);
          if (copy) copy.sha256 = sha256;
        }
        let page = null;
        // a graph the host runs until the page's session of it has started and warmed
        // (startInPage: the runtime loads then, all of its start in one place, never beside the
        // page's builder calls)
        const later = reply.page && reply.interim === true ? reply : null;
        if (reply.page && !later) {  // placed in the page (backends/page.py): its runtime runs it here
          try { page = await pageSession(c.link, reply, id); } catch (e) {
            console.warn(`webnn-bridge: this page could not run a graph placed in it (${e && e.message}); the host runs it.`);
            reply = await c.link.request({ t: 'rehome', graph: id });
          }
        }
        if (c.isLost) {
          if (page) page.session.release();
          throw makeError('InvalidStateError', 'The MLContext was lost while building.');
        }
        const graph = { id, context: c, inputs: g.graphInputs, outputs: g.graphOutputs, destroyed: false, report: reply.effective || null, qos: reply.qos || null, devices: Object.freeze((reply.devices || []).slice()), page, later, settled: later ? null : Promise.resolve(!!page), asked: false };
        // the context refers to its graphs weakly: a graph the page drops without destroy() is
        // released on the host once collected (clients such as onnxruntime-web never destroy
        // theirs, and the host caps the graphs a page holds)
        graph.rec = { id, context: c, destroyed: false, ref: new WeakRef(graph), page, hostRuns: 0, kick: null, kickAt: 0 };
        c.graphs.add(graph.rec.ref);
        const wrapper = wrap('MLGraph', graph);
        DROPPED_GRAPHS.register(wrapper, graph.rec);
        return wrapper;
      },
    },
  },
};

// ---------------------------------------------------------------------------------- install
CLASSES = defineInterfaces($b);
for (const [name, cls] of Object.entries(CLASSES)) {
  // WebIDL: members are enumerable; the class has a toStringTag
  for (const key of Object.getOwnPropertyNames(cls.prototype)) {
    if (key === 'constructor') continue;
    const d = Object.getOwnPropertyDescriptor(cls.prototype, key);
    d.enumerable = true;
    Object.defineProperty(cls.prototype, key, d);
  }
  Object.defineProperty(cls.prototype, Symbol.toStringTag, { value: name, configurable: true });
  Object.defineProperty(GLOBAL, name, { value: cls, writable: true, configurable: true, enumerable: false });
}
Object.defineProperty(GLOBAL, 'MLTensorUsage', { value: MLTensorUsage, writable: true, configurable: true, enumerable: false });

const ML_INSTANCE = wrap('ML', {});
for (const nav of [GLOBAL.Navigator, GLOBAL.WorkerNavigator]) {
  if (typeof nav === 'function') {
    // WebIDL brand check: the platform's own Navigator getter throws on anything but a navigator
    const ua = Object.getOwnPropertyDescriptor(nav.prototype, 'userAgent');
    const accessors = {
      get ml() {
        if (ua && ua.get) ua.get.call(this); else if (!(this instanceof nav)) throw new TypeError('Illegal invocation');
        return ML_INSTANCE;
      },
    };
    const desc = Object.getOwnPropertyDescriptor(accessors, 'ml');
    Object.defineProperty(nav.prototype, 'ml', { get: desc.get, set: undefined, configurable: true, enumerable: true });
  }
}
if (GLOBAL.navigator && Object.prototype.hasOwnProperty.call(GLOBAL.navigator, 'ml')) {
  Object.defineProperty(GLOBAL.navigator, 'ml', { value: ML_INSTANCE, configurable: true });
}
GLOBAL.__webnnBridge = { host: HOST, version: 1 };

// Extensions beyond the spec, namespaced (never added to the WebNN interfaces). Coarse,
// identity-free facts only: see README "Extensions".
function bridgeGraph(graph, what) {
  const g = graph && SLOTS.get(graph);
  if (!g || !g.context || !('report' in g)) throw new TypeError(`WebNNBridge.${what}: an MLGraph is required.`);
  return g;
}
const WebNNBridge = Object.freeze({
  // strict mode (README "Compatibility with shipping Chromium"): true gives spec HEAD's behaviour
  // where shipping Chromium is more lenient; reads the host's --strict-spec until the page sets it
  get strict() { return strictSpec(LINK); },
  set strict(v) { PAGE_STRICT = v === null || v === undefined ? null : Boolean(v); },
  // whether this page runs the small graphs a host started with --page-local places in it (default
  // true); false keeps every graph on the host, for contexts created after this
  get pageLocal() { return PAGE_LOCAL; },
  set pageLocal(v) { PAGE_LOCAL = Boolean(v); },
  // the host's access token (serve --token-file), for connections opened after this; write-only
  get token() { return PAGE_TOKEN !== null; },
  set token(v) { PAGE_TOKEN = v === null || v === undefined || v === '' ? null : String(v); },
  // issue #934: the effective policy after build(): {accelerated, cpuFallback, simulated}
  effectivePolicy(graph) {
    const g = bridgeGraph(graph, 'effectivePolicy');
    return g.report ? Object.assign({}, g.report) : null;
  },
  // whether this page runs the graph itself (placed in the page by a host that serves the page
  // runtime); such a graph runs on the host until the page's session of it has started and
  // warmed, which begins after its first result (or settled below)
  inPage(graph) { return !!bridgeGraph(graph, 'inPage').page; },
  // resolves once the graph is where it stays: true when the page runs it, false on the host
  // (and starts and warms its page session now if it waits for it)
  settled(graph) {
    const g = bridgeGraph(graph, 'settled');
    g.asked = true;
    kick(g.rec, true);
    return startInPage(g);
  },
  // DAOP: one of excellent, good, fair, moderate, slow, very-slow, poor
  estimateQoS(graph) { return bridgeGraph(graph, 'estimateQoS').qos; },
  // the latest dispatch's latency, bucketed (e.g. "10-20 ms"); null before any dispatch
  async latency(graph) {
    const g = bridgeGraph(graph, 'latency');
    if (g.destroyed || g.context.isLost) throw makeError('InvalidStateError', 'The graph is destroyed.');
    // a graph the page runs: its own latest run time, bucketed by the host's rule
    const own = g.page ? { ms: g.page.lastMs === undefined ? null : g.page.lastMs } : {};
    const reply = await g.context.link.request(Object.assign({ t: 'graphLatency', graph: g.id }, own));
    return reply.latency;
  },
});
Object.defineProperty(GLOBAL, 'WebNNBridge', { value: WebNNBridge, writable: true, configurable: true, enumerable: false });
