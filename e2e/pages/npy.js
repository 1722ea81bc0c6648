// Minimal .npy reader for the e2e pages: little-endian float32 arrays,
// C order, format versions 1.0, 2.0 and 3.0.
//
//   const {shape, data} = parseNpy(arrayBuffer);   // data: Float32Array
//   const {shape, data} = await loadNpy(url);
//
// Exposed as window.parseNpy / window.loadNpy (plain script, no modules).
(function () {
  'use strict';

  const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // "\x93NUMPY"

  function parseNpy(buffer, name) {
    const label = name || '.npy data';
    if (Object.prototype.toString.call(buffer) !== '[object ArrayBuffer]') {
      throw new Error(`${label}: expected an ArrayBuffer`);
    }
    const bytes = new Uint8Array(buffer);
    if (bytes.length < 10 || MAGIC.some((b, i) => bytes[i] !== b)) {
      throw new Error(`${label}: not a .npy file (bad magic)`);
    }
    const major = bytes[6];
    const view = new DataView(buffer);
    let headerLen;
    let headerStart;
    if (major === 1) {
      headerLen = view.getUint16(8, true);
      headerStart = 10;
    } else if (major === 2 || major === 3) {
      headerLen = view.getUint32(8, true);
      headerStart = 12;
    } else {
      throw new Error(`${label}: unsupported .npy version ${major}.${bytes[7]}`);
    }
    const dataStart = headerStart + headerLen;
    if (dataStart > bytes.length) {
      throw new Error(`${label}: truncated header`);
    }
    // The header is an ASCII (v3: UTF-8) Python dict literal.
    const header = new TextDecoder('utf-8').decode(bytes.subarray(headerStart, dataStart));

    const descr = /'descr'\s*:\s*'([^']*)'/.exec(header);
    if (!descr) throw new Error(`${label}: header has no 'descr': ${header}`);
    if (descr[1] !== '<f4') {
      throw new Error(`${label}: dtype ${descr[1]} is not supported (need little-endian float32 '<f4')`);
    }
    const fortran = /'fortran_order'\s*:\s*(True|False)/.exec(header);
    if (fortran && fortran[1] === 'True') {
      throw new Error(`${label}: Fortran-ordered arrays are not supported`);
    }
    const shapeMatch = /'shape'\s*:\s*\(([^)]*)\)/.exec(header);
    if (!shapeMatch) throw new Error(`${label}: header has no 'shape': ${header}`);
    const shape = shapeMatch[1]
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s.length > 0)
      .map((s) => {
        const n = Number.parseInt(s, 10);
        if (!Number.isInteger(n) || n < 0) throw new Error(`${label}: bad shape ${shapeMatch[0]}`);
        return n;
      });

    const count = shape.reduce((a, b) => a * b, 1);
    const byteCount = count * 4;
    if (dataStart + byteCount > bytes.length) {
      throw new Error(`${label}: expected ${byteCount} data bytes for shape [${shape}], ` +
                      `file has ${bytes.length - dataStart}`);
    }
    // Copy into a fresh, aligned buffer holding just this array.
    const data = new Float32Array(buffer.slice(dataStart, dataStart + byteCount));
    return {shape, data};
  }

  async function loadNpy(url) {
    let response;
    try {
      response = await fetch(url);
    } catch (e) {
      throw new Error(`fetch ${url} failed: ${e && e.message ? e.message : e}`);
    }
    if (!response.ok) {
      throw new Error(`fetch ${url}: HTTP ${response.status} ${response.statusText}`);
    }
    return parseNpy(await response.arrayBuffer(), url);
  }

  window.parseNpy = parseNpy;
  window.loadNpy = loadNpy;
})();
