// webnn-bridge shim: Python value semantics for the op rules translated by devtools/codegen/jsgen.py
// (generated/webnn_ops.js). Hand-written; concatenated before the generated rules by bridge/shim.py,
// after generated/webnn_idl.js (DATA_TYPES). No op rule lives here: only what Python's values do
// that JavaScript's do not (tuples vs lists, floor division, negative indexes, str() of values...).

class $WebNNTypeError extends Error {}
// a Python error other than WebNNTypeError (KeyError, IndexError, ...): a bug or a malformed call
class $PyError extends Error {}

const $TUPLE = Symbol('tuple');
const $OPLIST = Symbol('operandList');
function $T(a) { a[$TUPLE] = true; return a; }
function $F(x) { return x; }
function $isarray(v) { return Array.isArray(v); }
function $istuple(v) { return Array.isArray(v) && v[$TUPLE] === true; }
function $islist(v) { return Array.isArray(v) && v[$TUPLE] !== true; }
function $isint(v) { return (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint' || typeof v === 'boolean'; }
function $isnumber(v) { return typeof v === 'number'; }
function $isbool(v) { return typeof v === 'boolean'; }
function $isstr(v) { return typeof v === 'string'; }
function $isdict(v) { return v instanceof $Dict; }
function $isdesc(v) { return v instanceof $Desc; }
function $isoperandlist(v) { return Array.isArray(v) && v[$OPLIST] === true; }
function $isinf(v) { return v === Infinity || v === -Infinity; }
function $OperandList(v) { const a = Array.from($iter(v)); a[$OPLIST] = true; return a; }

// ------------------------------------------------------------------ containers
class $Dict extends Map {
  get(k, d = null) { return super.has(k) ? super.get(k) : d; }
}
function $dict(entries = []) { return new $Dict(entries); }
function $set(items = []) { return new Set($iter(items)); }
function $items(d) {
  if (d instanceof Map) return Array.from(d.entries());
  return Object.entries(d);
}
function $iter(v) {
  if (Array.isArray(v)) return v;
  if (v instanceof Map) return Array.from(v.keys());
  if (v instanceof Set || typeof v === 'string') return Array.from(v);
  throw new $PyError(`'${$typename(v)}' object is not iterable`);
}
function $typename(v) {
  if (v === null || v === undefined) return 'NoneType';
  if ($istuple(v)) return 'tuple';
  if (Array.isArray(v)) return 'list';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'string') return 'str';
  if (typeof v === 'boolean') return 'bool';
  return v && v.constructor ? v.constructor.name : typeof v;
}
function $same(like, arr) { return $istuple(like) ? $T(arr) : arr; }
function $index(a, i) {
  if (typeof i === 'bigint') i = Number(i);
  if (typeof i === 'boolean') i = Number(i);
  const j = i < 0 ? a.length + i : i;
  if (!Number.isInteger(j) || j < 0 || j >= a.length) throw new $PyError(`${$typename(a)} index out of range`);
  return j;
}
function $getitem(o, k) {
  if (Array.isArray(o) || typeof o === 'string') return o[$index(o, k)];
  if (o instanceof Map) {
    if (!o.has(k)) throw new $PyError(`KeyError: ${$repr(k)}`);
    return Map.prototype.get.call(o, k);
  }
  if (o instanceof $Call) return o.__getitem__(k);
  if (o !== null && typeof o === 'object' && Object.prototype.hasOwnProperty.call(o, k)) return o[k];
  throw new $PyError(`KeyError: ${$repr(k)}`);
}
function $setitem(o, k, v) {
  if (Array.isArray(o)) o[$index(o, k)] = v;
  else if (o instanceof Map) o.set(k, v);
  else throw new $PyError(`'${$typename(o)}' object does not support item assignment`);
}
function $slice(o, lo, hi, step) {
  const n = o.length;
  step = step === null ? 1 : step;
  const norm = (i, dflt) => {
    if (i === null) return dflt;
    if (i < 0) i += n;
    return step > 0 ? Math.min(Math.max(i, 0), n) : Math.min(Math.max(i, -1), n - 1);
  };
  const out = [];
  if (step > 0) {
    for (let i = norm(lo, 0), e = norm(hi, n); i < e; i += step) out.push(o[i]);
  } else {
    for (let i = norm(lo, n - 1), e = norm(hi, -1); i > e; i += step) out.push(o[i]);
  }
  if (typeof o === 'string') return out.join('');
  return $same(o, out);
}
function $unpack(v, n) {
  const a = $iter(v);
  if (a.length !== n) throw new $PyError(`cannot unpack ${a.length} values into ${n}`);
  return a;
}
function $len(v) {
  if (Array.isArray(v) || typeof v === 'string') return v.length;
  if (v instanceof Map || v instanceof Set) return v.size;
  throw new $PyError(`object of type '${$typename(v)}' has no len()`);
}

// ------------------------------------------------------------------ builtins
function $range(a, b, step) {
  if (b === undefined) { b = a; a = 0; }
  step = step === undefined ? 1 : step;
  const out = [];
  if (step > 0) for (let i = a; i < b; i += step) out.push(i);
  else for (let i = a; i > b; i += step) out.push(i);
  return out;
}
function $enumerate(it, start = 0) { return $iter(it).map((x, i) => $T([i + start, x])); }
function $zip(...its) {
  const arrays = its.map($iter);
  const n = Math.min(...arrays.map((a) => a.length));
  const out = [];
  for (let i = 0; i < n; i++) out.push($T(arrays.map((a) => a[i])));
  return out;
}
function $tuple(it = []) { return $T(Array.from($iter(it))); }
function $list(it = []) { return Array.from($iter(it)); }
function $sorted(it) { return Array.from($iter(it)).sort((a, b) => ($lt(a, b) ? -1 : $lt(b, a) ? 1 : 0)); }
function $reversed(it) { return Array.from($iter(it)).reverse(); }
function $all(it) { return $iter(it).every($truthy); }
function $any(it) { return $iter(it).some($truthy); }
function $sum(it, start = 0) { return $iter(it).reduce((a, b) => $add(a, b), start); }
function $prod(it) { return $iter(it).reduce((a, b) => $mul(a, b), 1); }
function $pick(args, better) {
  const items = args.length === 1 ? $iter(args[0]) : args;
  if (!items.length) throw new $PyError('min()/max() of an empty sequence');
  return items.reduce((a, b) => (better(b, a) ? b : a));
}
function $min(...args) { return $pick(args, $lt); }
function $max(...args) { return $pick(args, $gt); }
function $abs(x) { return x < 0 ? -x : x; }
function $int(x) {
  if (typeof x === 'bigint') return x;
  if (typeof x === 'boolean') return x ? 1 : 0;
  if (typeof x === 'string') {
    if (!/^\s*[-+]?\d+\s*$/.test(x)) throw new $PyError(`invalid literal for int(): ${$repr(x)}`);
    return parseInt(x, 10);
  }
  if (!Number.isFinite(x)) throw new $PyError('cannot convert a non-finite float to an integer');
  return Math.trunc(x) + 0;
}
function $float(x) { return Number(x); }
function $truthy(v) {
  if (v === null || v === undefined) return false;
  switch (typeof v) {
    case 'boolean': return v;
    case 'number': return v !== 0;
    case 'bigint': return v !== 0n;
    case 'string': return v.length > 0;
    default:
      if (Array.isArray(v)) return v.length > 0;
      if (v instanceof Map || v instanceof Set) return v.size > 0;
      return true;
  }
}
function $and(a, f) { return $truthy(a) ? f() : a; }
function $or(a, f) { return $truthy(a) ? a : f(); }

// ------------------------------------------------------------------ arithmetic (Python semantics)
function $nums(a, b) {
  // int arithmetic stays exact with BigInt operands (MLNumber options may be BigInts)
  if (typeof a === 'bigint' || typeof b === 'bigint') {
    const ints = (typeof a === 'bigint' || Number.isInteger(a)) && (typeof b === 'bigint' || Number.isInteger(b));
    return ints ? [BigInt(a), BigInt(b)] : [Number(a), Number(b)];
  }
  return [typeof a === 'boolean' ? Number(a) : a, typeof b === 'boolean' ? Number(b) : b];
}
function $add(a, b) {
  if (Array.isArray(a) && Array.isArray(b)) return $same(a, a.concat(b));
  if (typeof a === 'string' && typeof b === 'string') return a + b;
  [a, b] = $nums(a, b);
  return a + b;
}
function $sub(a, b) { [a, b] = $nums(a, b); return a - b; }
function $mul(a, b) {
  if (Array.isArray(a) || Array.isArray(b)) {
    const [seq, n] = Array.isArray(a) ? [a, b] : [b, a];
    let out = [];
    for (let i = 0; i < n; i++) out = out.concat(seq);
    return $same(seq, out);
  }
  [a, b] = $nums(a, b);
  return a * b;
}
function $zero(b) { if (b == 0) throw new $PyError('division by zero'); }
function $truediv(a, b) { $zero(b); return Number(a) / Number(b); }
function $mod(a, b) {
  $zero(b);
  [a, b] = $nums(a, b);
  let r = a % b;
  if (r != 0 && (r < 0) !== (b < 0)) r += b;
  return r;
}
function $floordiv(a, b) {
  $zero(b);
  [a, b] = $nums(a, b);
  if (typeof a === 'bigint') return (a - $mod(a, b)) / b;
  if (Number.isInteger(a) && Number.isInteger(b)) return (a - $mod(a, b)) / b;
  return Math.floor(a / b);
}
function $pow(a, b) { [a, b] = $nums(a, b); return a ** b; }
function $neg(a) { return typeof a === 'boolean' ? -Number(a) : -a; }

// ------------------------------------------------------------------ comparisons
function $eq(a, b) {
  if (a === b) return true;
  if (a === null || a === undefined || b === null || b === undefined) return (a == null) && (b == null);
  const ta = typeof a; const tb = typeof b;
  if ((ta === 'number' || ta === 'bigint' || ta === 'boolean') && (tb === 'number' || tb === 'bigint' || tb === 'boolean')) {
    return (ta === 'boolean' ? Number(a) : a) == (tb === 'boolean' ? Number(b) : b); // eslint-disable-line eqeqeq
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    return $istuple(a) === $istuple(b) && a.length === b.length && a.every((x, i) => $eq(x, b[i]));
  }
  if (a instanceof Map && b instanceof Map) {
    if (a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !$eq(v, Map.prototype.get.call(b, k))) return false;
    return true;
  }
  if (a instanceof $Desc && b instanceof $Desc) return a.data_type === b.data_type && $eq(a.shape, b.shape);
  return false;
}
function $cmp(a, b) {
  // -1, 0, 1 for numbers, strings and sequences (lexicographic)
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = $cmp(a[i], b[i]);
      if (c) return c;
    }
    return a.length - b.length;
  }
  return a < b ? -1 : (a > b ? 1 : 0);
}
function $lt(a, b) { return Array.isArray(a) ? $cmp(a, b) < 0 : a < b; }
function $le(a, b) { return Array.isArray(a) ? $cmp(a, b) <= 0 : a <= b; }
function $gt(a, b) { return Array.isArray(a) ? $cmp(a, b) > 0 : a > b; }
function $ge(a, b) { return Array.isArray(a) ? $cmp(a, b) >= 0 : a >= b; }
function $in(x, c) {
  if (Array.isArray(c)) return c.some((y) => $eq(x, y));
  if (typeof c === 'string') return c.includes(x);
  if (c instanceof Map || c instanceof Set) return c.has(x);
  if (c !== null && typeof c === 'object') return Object.prototype.hasOwnProperty.call(c, x);
  throw new $PyError(`argument of type '${$typename(c)}' is not iterable`);
}

// ------------------------------------------------------------------ str() and repr()
function $numstr(n) {
  if (typeof n === 'bigint') return n.toString();
  if (Number.isNaN(n)) return 'nan';
  if (n === Infinity) return 'inf';
  if (n === -Infinity) return '-inf';
  const a = Math.abs(n);
  if (Number.isInteger(n) && a < 1e16) return String(n);
  if (a !== 0 && (a < 1e-4 || a >= 1e16)) {
    const [m, e] = n.toExponential().split('e');
    const exp = Number(e);
    return `${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(n);
}
function $repr(v) {
  if (typeof v === 'string') {
    const q = v.includes("'") && !v.includes('"') ? '"' : "'";
    return q + v.replace(/\\/g, '\\\\').split(q).join('\\' + q) + q;
  }
  if (Array.isArray(v)) {
    const items = v.map($repr);
    if ($istuple(v)) return items.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`;
    return `[${items.join(', ')}]`;
  }
  if (v instanceof Map) return `{${Array.from(v, ([k, x]) => `${$repr(k)}: ${$repr(x)}`).join(', ')}}`;
  if (v instanceof Set) return v.size ? `{${Array.from(v, $repr).join(', ')}}` : 'set()';
  return $str(v);
}
function $str(v) {
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number' || typeof v === 'bigint') return $numstr(v);
  if (typeof v === 'string') return v;
  if (v instanceof $Desc) return `${v.data_type}[${v.shape.map($numstr).join(',')}]`;
  return $repr(v);
}
function $format(v, spec) {
  if (spec === '') return $str(v);
  if (spec === 'g') return $formatG(Number(v));
  throw new $PyError(`format spec '${spec}' is not supported`);
}
function $formatG(x) {
  // Python's format(x, 'g'): 6 significant digits, exponent form below 1e-4 and from 1e6
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const strip = (t) => (t.includes('.') ? t.replace(/0+$/, '').replace(/\.$/, '') : t);
  const [m, e] = x.toExponential(5).split('e');
  const exp = Number(e);
  if (exp < -4 || exp >= 6) return `${strip(m)}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return strip(x.toFixed(5 - exp));
}

// ------------------------------------------------------------------ methods of Python's builtin types
const $M = {
  append(l, x) { l.push(x); return null; },
  extend(l, it) { for (const x of $iter(it)) l.push(x); return null; },
  insert(l, i, x) { l.splice(i < 0 ? Math.max(0, l.length + i) : i, 0, x); return null; },
  pop(o, i = -1) {
    if (o instanceof Map) { const v = $getitem(o, i); o.delete(i); return v; }
    return o.splice($index(o, i), 1)[0];
  },
  index(l, x) {
    const i = $iter(l).findIndex((y) => $eq(x, y));
    if (i < 0) throw new $PyError(`${$repr(x)} is not in list`);
    return i;
  },
  count(l, x) { return $iter(l).filter((y) => $eq(x, y)).length; },
  get(o, k, d = null) {
    if (o instanceof $Call || o instanceof $Dict) return o.get(k, d);
    if (o instanceof Map) return o.has(k) ? Map.prototype.get.call(o, k) : d;
    if (o !== null && typeof o === 'object' && Object.prototype.hasOwnProperty.call(o, k)) return o[k];
    return d;
  },
  setdefault(m, k, d = null) {
    if (!m.has(k)) m.set(k, d);
    return Map.prototype.get.call(m, k);
  },
  items(m) { return $items(m).map(([k, v]) => $T([k, v])); },
  keys(m) { return $items(m).map(([k]) => k); },
  values(m) { return $items(m).map(([, v]) => v); },
  update(m, other) { for (const [k, v] of $items(other)) m.set(k, v); return null; },
  copy(o) { return o instanceof Map ? new $Dict(o) : (o instanceof Set ? new Set(o) : $same(o, o.slice())); },
  add(s, x) { s.add(x); return null; },
  join(sep, it) { return $iter(it).join(sep); },
  startswith(s, p) { return ($isarray(p) ? p : [p]).some((x) => s.startsWith(x)); },
  endswith(s, p) { return ($isarray(p) ? p : [p]).some((x) => s.endsWith(x)); },
  lower(s) { return s.toLowerCase(); },
  upper(s) { return s.toUpperCase(); },
  strip(s) { return s.trim(); },
  split(s, sep) { return s.split(sep); },
};

// ------------------------------------------------------------------ the rules' own types
// ops/core.py OperandDesc: data type + shape (a tuple)
class $Desc {
  constructor(dataType, shape) { this.data_type = dataType; this.shape = $T(Array.from($iter(shape))); }
  get rank() { return this.shape.length; }
  get size() { return $prod(this.shape); }
  get byte_length() { return Math.ceil(this.size * DATA_TYPES[this.data_type].bits / 8); }  // int4/uint4: two per byte
  with_shape(shape) { return new $Desc(this.data_type, $iter(shape).map($int)); }
  with_type(dataType) { return new $Desc(dataType, this.shape); }
}
// ops/registry.py Call: op name, positional arguments and options (as the IDL names them)
class $Call {
  constructor(op, args, options) { this.op = op; this.args = args; this.options = options; }
  __getitem__(name) { return this.args.has(name) ? Map.prototype.get.call(this.args, name) : $M.get(this.options, name); }
  get(name, d = null) { const v = this.__getitem__(name); return v === null || v === undefined ? d : v; }
  get label() { const l = $M.get(this.options, 'label'); return $truthy(l) ? l : ''; }
  operands(isOperand) {
    const out = [];
    for (const source of [this.args, this.options]) {
      for (const [k, v] of $items(source)) {
        if ($isoperandlist(v)) for (const x of v) out.push($T([k, x]));
        else if (isOperand(v)) out.push($T([k, v]));
      }
    }
    return out;
  }
}
// an OpDef of the registry: its limits table, output names and infer function
function $opdef(name, limits, outputs, infer) {
  return { name, limits, outputs, infer, validate(call) { return RULES.opdef_validate(this, call); } };
}

// ops/core.py cast_number: an MLNumber cast to a data type (round half to even, saturate, NaN -> 0)
const $INT_RANGE = {
  int8: [-128n, 127n], uint8: [0n, 255n], int32: [-(2n ** 31n), 2n ** 31n - 1n], uint32: [0n, 2n ** 32n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n], uint64: [0n, 2n ** 64n - 1n],
};
function $roundHalfEven(x) {
  const f = Math.floor(x);
  const d = x - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}
function $f16round(x) {
  if (typeof Math.f16round === 'function') return Math.f16round(x);
  if (!Number.isFinite(x) || x === 0) return x;
  const a = Math.abs(x);
  if (a >= 65520) return x > 0 ? Infinity : -Infinity;
  let e = Math.max(Math.floor(Math.log2(a)), -14);
  if (2 ** e > a) e -= 1;
  if (2 ** (e + 1) <= a) e += 1;
  e = Math.max(e, -14);
  const q = 2 ** (e - 10);
  return Math.sign(x) * $roundHalfEven(a / q) * q;
}
function $cast_number(v, dataType) {
  if (dataType === 'float32') return Math.fround(Number(v));
  if (dataType === 'float16') return $f16round(Number(v));
  const [lo, hi] = $INT_RANGE[dataType];
  let b;
  if (typeof v === 'bigint') b = v;
  else if (Number.isNaN(v)) b = 0n;
  else if (v === Infinity) b = hi;
  else if (v === -Infinity) b = lo;
  else b = BigInt($roundHalfEven(v));
  b = b < lo ? lo : (b > hi ? hi : b);
  return dataType === 'int64' || dataType === 'uint64' ? b : Number(b);
}
