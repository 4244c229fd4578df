import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { join } from 'node:path';
import { launchBrowser, offlineContext, servePage, type ServedPage } from './harness.ts';

let browser: Browser;
let page: ServedPage;
beforeAll(async () => {
  page = await servePage(join(import.meta.dirname, 'pages/smoke'));
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await page?.close();
});

test('harness serves a built page cross-origin isolated, offline, in real Chromium', async () => {
  const ctx = await offlineContext(browser);
  const tab = await ctx.newPage();
  await tab.goto(page.url);
  await tab.waitForFunction(() => document.getElementById('out')?.textContent !== 'loading');
  const result = JSON.parse((await tab.textContent('#out'))!);
  expect(result).toEqual({ isolated: true, ok: true });
  await ctx.close();
});
