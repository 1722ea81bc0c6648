#!/usr/bin/env bash
# Install what the host needs (once) and start it: bash scripts/serve.sh [serve options]
# e.g. bash scripts/serve.sh --app ~/webnn-samples --port 8787
# The host is started again if a runtime crashes it (serve --restart-on-crash).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >&2
exec .venv/bin/webnn-bridge serve --restart-on-crash "$@"
