#!/usr/bin/env bash
# Install what the host needs (once) and start it: bash scripts/serve.sh [serve options]
# e.g. bash scripts/serve.sh --app ~/webnn-samples --port 8787
# The host is started again if a runtime crashes it (serve --restart-on-crash).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >&2
# --page-local without a folder: the runtime pages run small graphs with (npm, pinned), fetched once
for a in "$@"; do
  if [ "$a" = --page-local ]; then bash scripts/install_ortweb.sh >&2; fi
done
exec .venv/bin/webnn-bridge serve --restart-on-crash "$@"
