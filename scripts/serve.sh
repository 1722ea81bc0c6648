#!/usr/bin/env bash
# Install what the host needs (once) and start it: bash scripts/serve.sh [serve options]
# e.g. bash scripts/serve.sh --app ~/webnn-samples --port 8787
# The host is started again if a runtime crashes it (serve --restart-on-crash).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >&2
# the runtime pages run their small graphs with (onnxruntime-web from npm, pinned), fetched once;
# without it (offline, or --no-page-local) every graph runs on the host
skip=
for a in "$@"; do
  case "$a" in --no-page-local|--page-local=*) skip=1 ;; esac
done
if [ -z "$skip" ]; then
  bash scripts/install_ortweb.sh >&2 || echo "serve.sh: could not fetch the page runtime (bash scripts/install_ortweb.sh); every graph runs on the host" >&2
fi
exec .venv/bin/webnn-bridge serve --restart-on-crash "$@"
