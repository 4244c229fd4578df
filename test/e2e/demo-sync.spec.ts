/**
 * The demo's Sync panel (issue 22): two "devices" in one browser — the demo's memory (IndexedDB,
 * the bundled model) and a second store — sync through the demo's local sync server (the real
 * `createSyncHandler`, served at /sync like `bash scripts/demo.sh` does), go offline, are edited
 * on both sides, come back and converge. Real Chromium, the real built demo; no mocks.
 */
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { addMemory, tab, tid, useDemo } from './demo-kit.ts';

const demo = useDemo();

const converged = (page: Page, yes: boolean) =>
  page.waitForSelector(`${tid('sync-converged')}[data-converged="${yes}"]`, { timeout: 45_000 });

test('Sync panel: two devices exchange memories, go offline, are edited on both, reconnect and converge; the server sees only ciphertext', async () => {
  const { ctx, page } = await demo.openOffline();
  const pushed: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes('/sync/v1/')) pushed.push(r.postData() ?? '');
  });
  await addMemory(page, 'Sister', 'My sister Ana lives in Lisbon.');
  await tab(page, 'sync');
  await page.fill(tid('sync-passphrase'), 'a demo sync passphrase');
  await page.click(tid('sync-start'));
  await converged(page, true);
  const secondTexts = () =>
    page.locator(tid('sync-second-text')).evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
  expect(await secondTexts()).toContain('My sister Ana lives in Lisbon.');

  // Both devices offline; each is edited.
  await page.check(tid('sync-device-a-offline'));
  await page.check(tid('sync-device-b-offline'));
  await page.fill(tid('sync-second-new'), 'I drink my coffee black.');
  await page.click(tid('sync-second-add'));
  await page.waitForFunction(() =>
    [...document.querySelectorAll<HTMLInputElement>('[data-testid="sync-second-text"]')].some((e) =>
      e.value.includes('coffee'),
    ),
  );
  const ana = page.locator(`${tid('sync-second-item')}:has(input[value*="Lisbon"])`);
  await ana.locator('input').fill('My sister Ana lives in Porto now.');
  await ana.locator('button').click();
  await addMemory(page, 'Dog', 'My dog is called Rex.');
  await tab(page, 'sync');
  await converged(page, false);
  expect(await page.textContent(tid('sync-device-b-status'))).toContain('offline');

  // Back online: both sync at once and converge.
  await page.uncheck(tid('sync-device-a-offline'));
  await page.uncheck(tid('sync-device-b-offline'));
  await converged(page, true);
  expect(await secondTexts()).toEqual(expect.arrayContaining(['My dog is called Rex.', 'I drink my coffee black.']));
  await tab(page, 'memory');
  await page.waitForFunction(
    () => {
      const texts = [...document.querySelectorAll('[data-testid="ltm-text"]')].map((e) => e.textContent ?? '');
      return texts.some((t) => t.includes('coffee black')) && texts.some((t) => t.includes('Porto now'));
    },
    undefined,
    { timeout: 30_000 },
  );
  // What went to the server was sealed on the device.
  expect(pushed.length).toBeGreaterThan(0);
  for (const body of pushed) for (const word of ['Lisbon', 'Porto', 'Rex', 'coffee']) expect(body).not.toContain(word);
  await ctx.close();
});
