#!/usr/bin/env bash
# One command to check the GPU path: conformance pass counts per GPU backend, MobileNetV2 and a
# transformer stack timed on the GPU against the CPU. Without a GPU it prints "no GPU" and exits 0.
# Runs from the checkout in place (no install needed): python from .venv when there is one, else
# $PYTHON or python3 (e.g. a GPU machine's own python with torch, onnx, onnxruntime, numpy,
# ml_dtypes). Shared data: ../shared/data, ./shared/data, or --data DIR. Options: see --help.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-}"
if [ -z "$PY" ]; then
  if [ -x .venv/bin/python ]; then PY=.venv/bin/python; else PY=python3; fi
fi
exec "$PY" scripts/gpu_check.py "$@"
