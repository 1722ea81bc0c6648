#!/usr/bin/env bash
# Shared set-up for scripts/serve.sh and scripts/test.sh: a virtual environment in .venv with the
# project installed (editable). Idempotent; re-run after changing pyproject.toml.
set -euo pipefail
cd "$(dirname "$0")/.."
EXTRAS="${1:-}"
PY="${PYTHON:-python3}"
if ! "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  echo "webnn-bridge needs Python >= 3.11 (found: $("$PY" --version 2>&1))" >&2
  exit 1
fi
if [ ! -x .venv/bin/python ]; then
  if ! "$PY" -m venv .venv 2>/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
      "$PY" -m venv .venv
    else
      echo "cannot create a virtual environment (install python3-venv)" >&2
      exit 1
    fi
  fi
fi
stamp=".venv/.installed${EXTRAS:+-$EXTRAS}"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  if [[ ",$EXTRAS," == *",test,"* ]] && ! .venv/bin/python -c 'import torch' 2>/dev/null; then
    # the tests run the torch backend on the CPU: its CPU build, pinned, so that resolving the
    # extra's "torch>=2.1" does not fetch a CUDA build and its GBs of libraries (on these machines
    # pip's find-links hold torch==2.13.0+cpu; elsewhere set WEBNN_BRIDGE_TORCH_PIN or pre-install)
    .venv/bin/python -m pip install -q --disable-pip-version-check "torch==${WEBNN_BRIDGE_TORCH_PIN:-2.13.0}"
  fi
  .venv/bin/python -m pip install -q --disable-pip-version-check -e ".${EXTRAS:+[$EXTRAS]}"
  touch "$stamp"
fi
