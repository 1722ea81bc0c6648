#!/usr/bin/env bash
# Installs Playwright Test (npm @playwright/test, pinned by examples/playwright-test/package-lock.json)
# into examples/playwright-test/node_modules (git-ignored) for e2e/test_playwright_node.py: the
# example a Node.js test suite copies. No browser is downloaded: the example runs Debian's Chromium.
set -euo pipefail
cd "$(dirname "$0")/../examples/playwright-test"
want=$(node -p "require('./package.json').devDependencies['@playwright/test']")
have=$(node -p "try { require('./node_modules/@playwright/test/package.json').version } catch (e) { '' }" 2>/dev/null || true)
if [ "$have" = "$want" ]; then exit 0; fi
if ! command -v npm >/dev/null; then echo "npm is missing: apt-get install -y npm (as root)" >&2; exit 1; fi
echo "== installing @playwright/test $want into examples/playwright-test" >&2
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --silent --no-audit --no-fund >/dev/null
