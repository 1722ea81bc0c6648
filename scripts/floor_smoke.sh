#!/usr/bin/env bash
# The declared dependency floors work (issue 38): a virtual environment of its own gets every direct
# dependency pinned to the floor pyproject.toml declares (scripts/floor_smoke.py pins: derived from
# pyproject each run, so they cannot drift) and webnn-bridge without dependencies; then
# `webnn-bridge serve` on a free loopback port answers /webnn-shim.js and /healthz, a wire client
# builds, computes and reads a tiny graph (scripts/floor_smoke.py check), and once the host is
# stopped its log holds no traceback. scripts/test.sh runs it; it takes a few seconds once the
# environment exists (WEBNN_FLOOR_VENV, default /tmp/webnn-floor-venv, rebuilt when the pins change).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
PY="${PYTHON:-python3}"
VENV="${WEBNN_FLOOR_VENV:-/tmp/webnn-floor-venv}"
pins=$("$PY" scripts/floor_smoke.py pins pyproject.toml)
echo "floor smoke: $(echo "$pins" | paste -sd ' ' -)" >&2
if [ ! -x "$VENV/bin/python" ] || [ "$(cat "$VENV/.floor-pins" 2>/dev/null)" != "$pins" ]; then
  rm -rf "$VENV"
  "$PY" -m venv "$VENV"
  mapfile -t reqs <<<"$pins"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check "${reqs[@]}"
  echo "$pins" >"$VENV/.floor-pins"
fi
# the floors together satisfy one another (a floor that needs a newer sibling fails here)
"$VENV/bin/python" -m pip check --disable-pip-version-check >&2
"$VENV/bin/python" -m pip install -q --disable-pip-version-check --no-deps --force-reinstall "$ROOT"
"$VENV/bin/python" -m pip check --disable-pip-version-check >/dev/null  # and webnn-bridge's own requirements

work=$(mktemp -d)
pid=
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work"  # nothing of the checkout on the path: webnn_bridge comes from the floor environment
XDG_CACHE_HOME="$work/cache" "$VENV/bin/webnn-bridge" serve --host 127.0.0.1 --port 0 --no-cache >"$work/host.log" 2>&1 &
pid=$!
url=
for _ in $(seq 600); do  # up to 60 s: the host warms its runtimes up before it listens
  url=$(sed -n 's/^webnn-bridge serving on \(http:[^ ]*\).*/\1/p' "$work/host.log" | head -n 1)
  [ -n "$url" ] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
status=0
if [ -z "$url" ]; then
  echo "floor smoke: the host did not start" >&2
  status=1
else
  "$VENV/bin/python" "$ROOT/scripts/floor_smoke.py" check "$url" || status=1
fi
kill -TERM "$pid" 2>/dev/null || true  # drains (no sessions left) and exits
for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$pid" 2>/dev/null; then
  echo "floor smoke: the host did not stop on SIGTERM" >&2
  status=1
fi
if grep -q Traceback "$work/host.log"; then
  echo "floor smoke: the host logged a traceback" >&2
  status=1
fi
if [ "$status" != 0 ]; then
  echo "floor smoke: FAILED with $(echo "$pins" | paste -sd ' ' -); the host's log:" >&2
  cat "$work/host.log" >&2
  exit 1
fi
echo "floor smoke: passed (serve, /webnn-shim.js, /healthz and a wire round trip at every floor)" >&2
