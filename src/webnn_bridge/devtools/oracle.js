// webnn-bridge differential oracle: the page side (see devtools/oracle.py).
// runOraclePrograms(programs) runs each program (WPT conformance JSON layout: graph.inputs,
// graph.operators) with whatever WebNN the page has (native, or the shim) and reports per program
// the stage reached and the error name, or every output's descriptor and values.
// Values are encoded as JSON-safe strings where needed: "NaN", "Infinity", "-Infinity", "123n".
(function () {
  const ARRAYS = {
    float32: Float32Array, int32: Int32Array, uint32: Uint32Array, int8: Int8Array, uint8: Uint8Array,
    int64: BigInt64Array, uint64: BigUint64Array, float16: Uint16Array,
  };
  const SPECIAL = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity };

  function f32ToF16Bits(v) {
    const f = new Float32Array(1); const u = new Uint32Array(f.buffer);
    f[0] = v; const x = u[0];
    const sign = (x >>> 16) & 0x8000; const exp = (x >>> 23) & 0xff; let mant = x & 0x7fffff;
    if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
    let e = exp - 127 + 15;
    if (e >= 0x1f) return sign | 0x7c00;
    if (e <= 0) {
      if (e < -10) return sign;
      mant |= 0x800000;
      const shift = 14 - e; const half = 1 << (shift - 1);
      let r = mant >> shift;
      const rem = mant & ((1 << shift) - 1);
      if (rem > half || (rem === half && (r & 1))) r += 1;
      return sign | r;
    }
    let r = (e << 10) | (mant >> 13);
    const rem = mant & 0x1fff;
    if (rem > 0x1000 || (rem === 0x1000 && (r & 1))) r += 1;
    return sign | r;
  }
  function f16BitsToNumber(h) {
    const s = h & 0x8000 ? -1 : 1; const e = (h >> 10) & 0x1f; const m = h & 0x3ff;
    if (e === 0) return s * m * 2 ** -24;
    if (e === 0x1f) return m ? NaN : s * Infinity;
    return s * (1 + m / 1024) * 2 ** (e - 15);
  }

  function number(v) {
    if (typeof v === 'string') {
      if (v in SPECIAL) return SPECIAL[v];
      return Number(v.endsWith('n') ? v.slice(0, -1) : v);
    }
    return v;
  }
  function bigint(v) {
    if (typeof v === 'string') return BigInt(v.endsWith('n') ? v.slice(0, -1) : v);
    return BigInt(Math.trunc(v));
  }
  function typedArray(desc, data) {
    const n = desc.shape.reduce((a, b) => a * b, 1);
    const values = Array.isArray(data) ? data : new Array(n).fill(data);
    const Ctor = ARRAYS[desc.dataType];
    if (!Ctor) throw new TypeError(`oracle: no typed array for ${desc.dataType}`);
    const out = new Ctor(n);
    for (let i = 0; i < n; i++) {
      const v = values[i % Math.max(values.length, 1)];
      if (desc.dataType === 'int64' || desc.dataType === 'uint64') out[i] = bigint(v);
      else if (desc.dataType === 'float16') out[i] = f32ToF16Bits(number(v));
      else out[i] = number(v);
    }
    return out;
  }
  function encodeValues(dataType, buffer) {
    const Ctor = ARRAYS[dataType];
    const arr = Array.from(new Ctor(buffer));
    return arr.map((v) => {
      if (typeof v === 'bigint') return `${v}n`;
      if (dataType === 'float16') v = f16BitsToNumber(v);
      if (Number.isNaN(v)) return 'NaN';
      if (v === Infinity) return 'Infinity';
      if (v === -Infinity) return '-Infinity';
      return v;
    });
  }
  function isNumberString(v) {
    if (typeof v !== 'string') return false;
    if (v in SPECIAL) return true;
    return /^-?\d+n?$/.test(v);
  }

  async function runOne(context, program) {
    const g = program.graph;
    let stage = 'call';
    try {
      const builder = new MLGraphBuilder(context);
      const operands = {};
      const feeds = {};
      const graphInput = (name) => {
        if (!(name in operands)) {
          const spec = g.inputs[name];
          const desc = { dataType: spec.descriptor.dataType, shape: spec.descriptor.shape.slice() };
          if (spec.constant) {
            operands[name] = builder.constant(desc, typedArray(desc, spec.data));
          } else {
            operands[name] = builder.input(name, desc);
            feeds[name] = { desc, data: typedArray(desc, spec.data) };
          }
        }
        return operands[name];
      };
      const values = {};
      const resolve = (v, inOptions) => {
        if (typeof v === 'string') {
          if (v in values) return values[v];
          if (v in g.inputs) return graphInput(v);
          if (inOptions && isNumberString(v)) return v.endsWith('n') ? bigint(v) : number(v);
        }
        return v;
      };
      let last = null;
      for (const op of g.operators) {
        const args = op.arguments.map((a) => {
          const [key, value] = Object.entries(a)[0];
          if (key === 'options') {
            const o = {};
            for (const [k, x] of Object.entries(value)) o[k] = resolve(x, true);
            return o;
          }
          if (Array.isArray(value) && op.name === 'concat') return value.map((x) => resolve(x, false));
          return resolve(value, false);
        });
        const result = builder[op.name](...args);
        let names = Array.isArray(op.outputs) ? op.outputs : [op.outputs];
        if (Array.isArray(result) && result.length !== names.length) names = result.map((_, i) => `${names[0]}${i}`);
        const list = Array.isArray(result) ? result : [result];
        names.forEach((n, i) => { values[n] = list[i]; });
        last = names;
      }
      const outNames = program.outputs || last;
      const named = {};
      for (const n of outNames) named[n] = values[n];
      stage = 'build';
      const graph = await builder.build(named);
      stage = 'compute';
      const inTensors = {};
      for (const [name, f] of Object.entries(feeds)) {
        inTensors[name] = await context.createTensor({ dataType: f.desc.dataType, shape: f.desc.shape, writable: true });
        context.writeTensor(inTensors[name], f.data);
      }
      const outTensors = {};
      for (const [name, o] of Object.entries(named)) {
        outTensors[name] = await context.createTensor({ dataType: o.dataType, shape: Array.from(o.shape), readable: true });
      }
      context.dispatch(graph, inTensors, outTensors);
      const outputs = {};
      for (const [name, t] of Object.entries(outTensors)) {
        const buf = await context.readTensor(t);
        outputs[name] = { dataType: t.dataType, shape: Array.from(t.shape), data: encodeValues(t.dataType, buf) };
      }
      graph.destroy();
      return { stage: 'ok', outputs };
    } catch (e) {
      return { stage, error: (e && e.name) || String(e), message: (e && e.message) || '' };
    }
  }

  self.runOraclePrograms = async function (programs, options) {
    const context = await navigator.ml.createContext(options || {});
    const limits = context.opSupportLimits();
    const results = [];
    for (const p of programs) {
      const r = await runOne(context, p);
      r.limits = limits[p.op] || null;  // what this implementation reports for the program's operator
      results.push(r);
    }
    return results;
  };
})();
