#!/usr/bin/env bash
# Install what the host needs (once) and start it: bash scripts/serve.sh [serve options]
# e.g. bash scripts/serve.sh --app ~/webnn-samples --port 8787
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >&2
exec .venv/bin/webnn-bridge serve "$@"
