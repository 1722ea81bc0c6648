#!/usr/bin/env bash
# Installs the onnxruntime-web files the differential test (e2e/test_ortweb_node.py) and the
# benchmarks load into .ortweb/ (git-ignored): the npm package, pinned, through npm itself
# (33 MB download once), keeping only its WebNN-capable bundle (ort.min.js and the JSEP wasm, 29 MB).
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=1.30.0
DEST=.ortweb/onnxruntime-web-$VERSION
FILES="ort.min.js ort-wasm-simd-threaded.jsep.mjs ort-wasm-simd-threaded.jsep.wasm"
ok=1
for f in $FILES; do [ -s "$DEST/$f" ] || ok=0; done
if [ $ok = 1 ]; then exit 0; fi
if ! command -v npm >/dev/null; then echo "npm is missing: apt-get install -y npm (as root)" >&2; exit 1; fi
echo "== installing onnxruntime-web@$VERSION into $DEST" >&2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "onnxruntime-web@$VERSION" >/dev/null)
mkdir -p "$tmp/x"
tar xzf "$tmp/onnxruntime-web-$VERSION.tgz" -C "$tmp/x" $(for f in $FILES; do echo "package/dist/$f"; done)
rm -rf "$DEST" && mkdir -p "$DEST"
for f in $FILES; do mv "$tmp/x/package/dist/$f" "$DEST/"; done
