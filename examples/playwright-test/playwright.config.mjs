// Playwright Test with webnn-bridge: Playwright starts the host and the app's own server, and
// runs the tests in Debian's Chromium (no `npx playwright install`). Environment:
//   WEBNN_BRIDGE       the host command (default: webnn-bridge, as `pip install` puts it on PATH)
//   WEBNN_BRIDGE_PORT  the host's port (8787); APP_PORT the app server's port (5173)
//   CHROMIUM           the browser (default /usr/bin/chromium)
import { defineConfig } from '@playwright/test';

const hostPort = process.env.WEBNN_BRIDGE_PORT || '8787';
const appPort = process.env.APP_PORT || '5173';
const host = `http://127.0.0.1:${hostPort}`;
const app = `http://127.0.0.1:${appPort}`;
process.env.WEBNN_BRIDGE_URL = host;  // for tests/webnn.mjs
process.env.APP_URL = app;

export default defineConfig({
  testDir: 'tests',
  forbidOnly: !!process.env.CI,
  webServer: [
    {
      // serves site/ with the shim injected (--app), and lets pages of the app's origin in
      command: `${process.env.WEBNN_BRIDGE || 'webnn-bridge'} serve --port ${hostPort} --app site --allow-origin ${app}`,
      url: `${host}/healthz`,
      reuseExistingServer: !process.env.CI,
    },
    {
      // the app's own server (a dev server such as vite in a real project)
      command: `python3 -m http.server ${appPort} --bind 127.0.0.1 --directory site`,
      url: `${app}/index.html`,
      reuseExistingServer: !process.env.CI,
      stderr: 'ignore',  // its request log
    },
  ],
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
             '--disable-sync', '--no-first-run'],
    },
  },
});
