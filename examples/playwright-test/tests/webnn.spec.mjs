import { test as plain } from '@playwright/test';
import { test, expect, HOST } from './webnn.mjs';

const APP = process.env.APP_URL || 'http://127.0.0.1:5173';
const EXPECTED = '0,2,3,4';  // relu([[1, 2], [3, 4]] + [[-10, 0], [0, 0]])

plain('a page the host serves (--app) runs its graph, with no fixture', async ({ page }) => {
  await page.goto(`${HOST}/index.html`);
  await expect(page.locator('#result')).toHaveText(EXPECTED);
});

test('a page of another origin runs its graph with the shim the fixture adds', async ({ page }) => {
  await page.goto(`${APP}/index.html`);
  await expect(page.locator('#result')).toHaveText(EXPECTED);
});

plain('without the fixture that page has no WebNN in this browser', async ({ page }) => {
  await page.goto(`${APP}/index.html`);
  await expect(page.locator('#result')).toHaveText(/^error: TypeError/);
});

test('builder errors are the spec\'s, thrown synchronously', async ({ page }) => {
  await page.goto(`${APP}/index.html`);
  const name = await page.evaluate(async () => {
    const builder = new MLGraphBuilder(await navigator.ml.createContext());
    const a = builder.input('a', {dataType: 'float32', shape: [2]});
    const b = builder.input('b', {dataType: 'float32', shape: [3]});
    try {
      builder.add(a, b);  // shapes [2] and [3] do not broadcast
      return 'no error';
    } catch (e) {
      return e.name;
    }
  });
  expect(name).toBe('TypeError');
});
