// A Playwright Test fixture that gives every page WebNN through a running webnn-bridge host,
// whatever origin the page comes from: the host's shim script, fetched once per worker, runs
// before any script of the page (page.addInitScript). The page's origin must be allowed by the
// host (webnn-bridge serve --allow-origin ORIGIN; see playwright.config.mjs). Copy this file.
import { test as base, expect } from '@playwright/test';

export const HOST = process.env.WEBNN_BRIDGE_URL || 'http://127.0.0.1:8787';

export const test = base.extend({
  webnnShim: [async ({}, use) => {
    const response = await fetch(`${HOST}/webnn-shim.js`);
    if (!response.ok) throw new Error(`no webnn-bridge host at ${HOST} (${response.status})`);
    await use(await response.text());
  }, { scope: 'worker' }],
  page: async ({ page, webnnShim }, use) => {
    await page.addInitScript({ content: webnnShim });
    await use(page);
  },
});

export { expect };
