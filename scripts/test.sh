#!/usr/bin/env bash
# Install everything (Python packages, Debian's chromium when missing) and run the whole suite:
# lint, generated-code check, unit + conformance + browser tests. Extra args go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" != 0 ]; then echo "Debian's chromium is missing: apt-get install -y chromium (as root)" >&2; exit 1; fi
  echo "== installing Debian's chromium" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
if ! command -v certutil >/dev/null && [ "$(id -u)" = 0 ]; then
  # certutil: e2e/test_tls.py trusts a test certificate authority the way a user would
  echo "== installing Debian's libnss3-tools" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libnss3-tools >/dev/null
fi
if ! command -v haproxy >/dev/null && [ ! -x /usr/sbin/haproxy ]; then  # e2e/test_balancer.py
  if [ "$(id -u)" != 0 ]; then echo "Debian's haproxy is missing: apt-get install -y haproxy (as root)" >&2; exit 1; fi
  echo "== installing Debian's haproxy" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null
fi
bash scripts/setup.sh test
bash scripts/install_ortweb.sh   # onnxruntime-web (npm, pinned) for e2e/test_ortweb_node.py
echo "== ruff" >&2
.venv/bin/ruff check .
echo "== generated code" >&2
.venv/bin/webnn-bridge codegen --check
echo "== pytest" >&2
exec .venv/bin/python -m pytest -q "$@"
