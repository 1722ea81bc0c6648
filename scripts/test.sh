#!/usr/bin/env bash
# Install everything (Python packages, Debian's chromium, firefox-esr, webkit2gtk-driver, xvfb when missing) and run the whole suite:
# lint, generated-code check, unit + conformance + browser tests. Arguments, if any, go to one pytest run
# instead (e.g. scripts/test.sh e2e/test_basic.py -x).
set -euo pipefail
cd "$(dirname "$0")/.."
# the browsers the e2e suite runs in (pyproject's webnn_browser): Debian's chromium, firefox-esr
# (driven over WebDriver BiDi) and WebKitGTK (webkit2gtk-driver: WebKitWebDriver + MiniBrowser, under
# xvfb). Under CI=true a browser that is still missing fails its tests instead of skipping them.
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/firefox-esr ] || missing+=(firefox-esr)
[ -x /usr/bin/WebKitWebDriver ] || missing+=(webkit2gtk-driver)
[ -x /usr/bin/Xvfb ] || missing+=(xvfb)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "Debian packages missing: apt-get install -y ${missing[*]} (as root)" >&2
    if [[ " ${missing[*]} " == *" chromium "* || "${CI:-}" == true ]]; then exit 1; fi
  else
    echo "== installing Debian's ${missing[*]}" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
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
bash scripts/install_playwright_test.sh   # Playwright Test (npm, pinned) for e2e/test_playwright_node.py
echo "== ruff (set-up took ${SECONDS} s)" >&2
.venv/bin/ruff check .
echo "== generated code (${SECONDS} s)" >&2
.venv/bin/webnn-bridge codegen --check
# tests/test_codegen.py leaves the measured tables (tens of seconds on OpenVINO) to the check above
export WEBNN_BRIDGE_CODEGEN_CHECKED=1
if [ $# -gt 0 ]; then  # the caller chose what to run
  echo "== pytest $*" >&2
  exec .venv/bin/python -m pytest -q "$@"
fi
# tests/ is CPU-bound Python in one process: spread over the cores (pytest-xdist). e2e/ follows
# alone: its browsers take the machine, and its hang and transport tests time what they see.
workers=$(nproc 2>/dev/null || echo 1); [ "$workers" -le 4 ] || workers=4
status=0
# every direct dependency at the floor pyproject.toml declares: serve, the shim, /healthz and a wire
# round trip in an environment of its own (pip installs the floors once; then a few seconds)
echo "== dependency floors: scripts/floor_smoke.sh (${SECONDS} s)" >&2
bash scripts/floor_smoke.sh || status=$?
echo "== pytest tests/ ($workers processes; ${SECONDS} s)" >&2
.venv/bin/python -m pytest -q -n "$workers" tests || status=$?
echo "== pytest e2e/ (${SECONDS} s)" >&2
.venv/bin/python -m pytest -q e2e || status=$?
echo "== done in ${SECONDS} s (exit $status)" >&2
exit $status
