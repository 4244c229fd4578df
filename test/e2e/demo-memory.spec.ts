/**
 * The Memory tab and what deletes memories (issue 15, memtab): collapsible sections with counts,
 * a paginated long-term list that holds one page of rows with 10,000 memories stored, delete that
 * asks in the page and can be undone exactly, maintenance that shows what it will forget before it
 * runs and can be undone, and four defects: the exact prompt opens in view, the PII log survives a
 * reload, a restore clears an old maintenance report, and switching users keeps the live chat.
 * Real Chromium, the real built demo, the real library; no mocks.
 */
import { randomUUID } from 'node:crypto';
import { expect, test } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { axeSerious, screenshot, tid, useDemo, waitReady } from './demo-kit.ts';
import { addMemory, answerConfirm, chat, countWhen, setFilter, tab } from './demo-kit.ts';
import { exportJson, importEntries, type ExportedEntry } from './demo-kit.ts';

const demo = useDemo();

/** A fresh browser context and the demo in it; any `window.confirm` fails the test (the demo must ask in the page). */
async function open(): Promise<{ ctx: BrowserContext; page: Page; nativeDialogs: string[] }> {
  const { ctx, page } = await demo.openOffline();
  const nativeDialogs: string[] = [];
  page.on('dialog', (d) => {
    nativeDialogs.push(d.message());
    void d.dismiss();
  });
  return { ctx, page, nativeDialogs };
}

function note(i: number, now: number, extra: Partial<ExportedEntry> = {}): ExportedEntry {
  const topics = ['hiking', 'cooking', 'physics', 'music', 'travel', 'gardening', 'chess', 'finance'];
  return {
    id: randomUUID(),
    tenantId: 'demo',
    userId: 'alice',
    content: { title: `Note ${i}`, text: `Imported note ${i} about ${topics[i % topics.length]}.` },
    tier: 'long_term',
    kind: 'fact',
    createdAt: now - i * 60_000,
    lastAccess: now - i * 60_000,
    importance: 0.5,
    accessCount: 0,
    tags: [topics[i % topics.length]!],
    metadata: {},
    version: 1,
    ...extra,
  };
}

const rows = (page: Page) => page.locator(tid('ltm-row')).count();
const label = (page: Page) => page.textContent(tid('ltm-page-label'));
const waitLabel = (page: Page, text: string) =>
  page.waitForFunction((t) => document.querySelector('[data-testid="ltm-page-label"]')?.textContent === t, text, {
    timeout: 30_000,
  });

test('the Memory tab is compact: sections with counts, and 10,000 memories render one page of rows', async () => {
  const { ctx, page } = await open();
  // Sections, each with a summary that counts it and a "?" that explains it.
  for (const id of ['sec-short-term', 'sec-working', 'sec-long-term', 'sec-add'])
    expect(await page.locator(tid(id)).evaluate((d) => d.tagName)).toBe('DETAILS');
  const open_ = (id: string) => page.locator(tid(id)).evaluate((d) => (d as HTMLDetailsElement).open);
  expect(await open_('sec-long-term')).toBe(true);
  expect(await open_('sec-working')).toBe(true);
  expect(await open_('sec-short-term')).toBe(false);
  expect(await open_('sec-add')).toBe(false);
  expect(await page.locator(`${tid('sec-long-term')} + .help ${tid('help-long-term')}`).count()).toBe(1);
  // One turn: the turn itself and a fact from each of its two clauses (name, job) are long-term.
  await chat(page, 'My name is Ada and I work as an engineer.');
  await page.waitForFunction(() =>
    document.querySelector('[data-testid="sec-short-term-count"]')?.textContent?.startsWith('(1 of '),
  );
  await page.waitForFunction(
    () => Number(document.querySelector('[data-testid="long-term-count"]')?.getAttribute('data-total')) >= 1,
  );
  const height = await page.locator(tid('inspector-panel')).evaluate((el) => el.getBoundingClientRect().height);
  console.log(`Memory tab after one turn: ${Math.round(height)} px tall`);
  await screenshot(page, 'memory-01-sections');

  // 10,000 memories through the Data panel's import (vectors included, so nothing is embedded).
  const now = Date.now();
  const entries = Array.from({ length: 10_000 }, (_, i) => note(i, now));
  await tab(page, 'data');
  const t0 = Date.now();
  await importEntries(page, entries, true);
  console.log(`import of 10,000 memories with vectors: ${Date.now() - t0} ms`);
  await tab(page, 'memory');
  await waitLabel(page, '1–20 of 10,003');
  // One page of rows in the DOM, not 10,000.
  expect(await rows(page)).toBe(20);
  expect(await page.locator(`${tid('long-term-list')} *`).count()).toBeLessThan(1000);
  expect(await page.isDisabled(tid('ltm-page-prev'))).toBe(true);
  const t1 = Date.now();
  await page.click(tid('ltm-page-next'));
  await waitLabel(page, '21–40 of 10,003');
  console.log(`one page turn over 10,003 memories: ${Date.now() - t1} ms`);
  expect(await rows(page)).toBe(20);
  // The last page ends with the oldest memory.
  await page.click(tid('ltm-page-last'));
  await waitLabel(page, '10,001–10,003 of 10,003');
  expect(await rows(page)).toBeLessThanOrEqual(20);
  expect(await page.locator(tid('ltm-text')).last().textContent()).toContain('Note 9999');
  expect(await page.isDisabled(tid('ltm-page-next'))).toBe(true);
  await screenshot(page, 'memory-02-last-page');

  // The filter pages too, and a new filter starts at its first page.
  await setFilter(page, 'tag', 'chess');
  await waitLabel(page, '1–20 of 1,250');
  expect(await page.locator(tid('ltm-tag')).allTextContents()).toEqual(Array(20).fill('chess'));
  await page.click(tid('ltm-page-last'));
  await waitLabel(page, '1,241–1,250 of 1,250');
  expect(await rows(page)).toBe(10);
  // Editing and deleting work on a later page: the edited memory stays where it was.
  await page.locator(tid('ltm-edit')).first().click();
  await page.fill(tid('edit-title'), 'Edited chess note');
  await page.click(tid('edit-save'));
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-testid="ltm-text"]')].some((e) => e.textContent?.startsWith('Edited chess')),
  );
  expect(await label(page)).toBe('1,241–1,250 of 1,250');
  await page.locator(tid('ltm-delete')).last().click();
  await answerConfirm(page, true);
  await waitLabel(page, '1,241–1,249 of 1,249');
  await ctx.close();
}, 180_000);

test('delete asks in the page first, and Undo puts back the exact entry', async () => {
  const { ctx, page, nativeDialogs } = await open();
  await addMemory(page, 'Pet', 'My cat Miso sleeps on the piano.', 'preference');
  // Importance, tags and an edit history (metadata) that Undo must bring back as they were.
  await page.locator(tid('ltm-edit')).first().click();
  await page.fill(tid('edit-importance'), '0.85');
  await page.fill(tid('edit-tags'), 'cats, home');
  await page.click(tid('edit-save'));
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="ltm-tag"]').length === 2);
  const [before] = (await exportJson(page)).entries;
  expect(before?.metadata.history).toBeDefined();
  await tab(page, 'memory');

  // Asked in the page, focus on Cancel; Escape (and Cancel) change nothing.
  await page.locator(tid('ltm-delete')).first().click();
  await page.waitForSelector(`${tid('confirm-dialog')}[open]`);
  expect(await page.getAttribute(tid('confirm-dialog'), 'role')).toBe('alertdialog');
  expect(await page.textContent(tid('confirm-message'))).toContain('Pet: My cat Miso');
  expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid)).toBe('confirm-no');
  expect(await axeSerious(page)).toEqual([]);
  await screenshot(page, 'memory-03-confirm-delete');
  await page.keyboard.press('Escape');
  await page.waitForSelector(tid('confirm-dialog'), { state: 'detached' });
  expect(await rows(page)).toBe(1);
  // Focus goes back to the Delete button.
  expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid)).toBe('ltm-delete');
  await page.locator(tid('ltm-delete')).first().click();
  await answerConfirm(page, false);
  expect(await rows(page)).toBe(1);

  await page.locator(tid('ltm-delete')).first().click();
  await answerConfirm(page, true);
  await countWhen(page, tid('ltm-row'), 'n === 0');
  expect(await page.textContent(tid('ltm-undo-text'))).toBe('Deleted “Pet: My cat Miso sleeps on the piano.”.');
  await screenshot(page, 'memory-04-undo');
  await page.click(tid('ltm-undo-undo'));
  await countWhen(page, tid('ltm-row'), 'n === 1');
  await page.waitForFunction(() =>
    document.querySelector('[data-testid="ltm-undo-text"]')?.textContent?.startsWith('Restored'),
  );
  const [after] = (await exportJson(page)).entries;
  expect(after).toEqual(before);
  // Nothing asked through window.confirm.
  expect(nativeDialogs).toEqual([]);
  await ctx.close();
}, 120_000);

test('maintenance shows what it will forget after a year, asks, runs, and Undo puts it back; a restore clears its report', async () => {
  const { ctx, page, nativeDialogs } = await open();
  // Nine memories: one fact that keeps its importance for years, eight tasks that fade in weeks.
  const now = Date.now();
  const entries = [
    note(0, now, { content: { title: 'Name', text: 'My name is Ada.' }, importance: 0.9 }),
    ...Array.from({ length: 8 }, (_, i) =>
      note(i + 1, now, { kind: 'task', content: { title: `Task ${i + 1}`, text: `Buy item ${i + 1}` } }),
    ),
  ];
  await tab(page, 'data');
  await importEntries(page, entries);
  await page.click(tid('backup-create'));
  await countWhen(page, tid('backup-row'), 'n >= 1');
  const stats = () => page.textContent(tid('stats-entries')).then(Number);
  const waitStats = (n: number) =>
    page.waitForFunction((n) => Number(document.querySelector('[data-testid="stats-entries"]')?.textContent) === n, n);

  // One simulated year later (the header's demo clock).
  await page.click(tid('clock-plus-year'));
  await page.waitForFunction(
    () => document.querySelector('[data-testid="clock-bar"]')?.getAttribute('data-offset-days') === '365',
  );
  await page.click(tid('maintenance-run'));
  await page.waitForSelector(`${tid('confirm-dialog')}[open]`);
  expect(await page.textContent(tid('confirm-message'))).toContain('forget 8 memories of 9');
  const forgets = page.locator(tid('preview-forget'));
  expect(await forgets.count()).toBe(8);
  expect((await forgets.evaluateAll((els) => els.map((e) => e.getAttribute('data-id')))).sort()).toEqual(
    entries
      .slice(1)
      .map((e) => e.id)
      .sort(),
  );
  // Each says why: its importance faded below the deletion line.
  for (const why of await page.locator(tid('preview-why')).allTextContents())
    expect(why).toMatch(/task, importance 0\.50 faded to 0\.0\d\d, below the deletion line 0\.08/);
  expect(await axeSerious(page)).toEqual([]);
  await screenshot(page, 'memory-05-maintenance-preview');
  // Cancel: nothing was deleted.
  await answerConfirm(page, false);
  expect(await stats()).toBe(9);
  expect(await page.locator(tid('report-examined')).count()).toBe(0);

  // Confirm: the eight go, the report says so, Undo is offered.
  await page.click(tid('maintenance-run'));
  await answerConfirm(page, true);
  await page.waitForSelector(tid('report-examined'));
  expect(await page.getAttribute(tid('report-deleted'), 'data-count')).toBe('8');
  await waitStats(1);
  expect(await page.textContent(tid('maintenance-undo-text'))).toBe('Maintenance forgot 8 memories.');
  await page.click(tid('maintenance-undo-undo'));
  await waitStats(9);
  // The count and the notice are two renders: wait for the notice, then read it (a rehearsal read
  // it between them once: "Maintenance forgot 8 memories.").
  await page.waitForFunction(
    () => document.querySelector('[data-testid="maintenance-undo-text"]')?.textContent?.startsWith('Put back') === true,
  );
  expect(await page.textContent(tid('maintenance-undo-text'))).toBe('Put back 8 memories.');
  const restored = (await exportJson(page)).entries;
  expect(restored.map((e) => e.id).sort()).toEqual(entries.map((e) => e.id).sort());
  for (const e of entries) expect(restored.find((r) => r.id === e.id)).toEqual(e);

  // (c) An old maintenance report does not outlive a restore.
  await page.click(tid('maintenance-run'));
  await answerConfirm(page, true);
  await page.waitForSelector(tid('report-examined'));
  await page.click(tid('backup-restore'));
  await answerConfirm(page, true);
  await waitStats(9);
  await page.waitForSelector(tid('maintenance-stale'));
  expect(await page.locator(tid('report-examined')).count()).toBe(0);
  expect(await page.isHidden(tid('maintenance-undo'))).toBe(true);
  // Nothing asks through the browser (delete, maintenance and restore ask in the page).
  expect(nativeDialogs).toEqual([]);
  await ctx.close();
}, 120_000);

test('the exact prompt opens in view, the PII log survives a reload, and a user switch keeps the live chat', async () => {
  const { ctx, page } = await open();
  await chat(page, 'Please remember my email is ada@example.com');
  // (a) The exact prompt: a modal dialog in the viewport, focus inside, Escape closes it.
  await page.locator(tid('prompt-toggle')).last().click();
  await page.waitForSelector(`${tid('prompt-view-dialog')}[open]`);
  expect(await page.textContent(tid('prompt-view'))).toContain('Please remember my email is');
  const box = (await page.locator(tid('prompt-view-dialog')).boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
  expect(
    await page.evaluate(() => document.activeElement?.closest('[data-testid="prompt-view-dialog"]') !== null),
  ).toBe(true);
  expect(await axeSerious(page)).toEqual([]);
  await screenshot(page, 'memory-06-prompt-dialog');
  await page.keyboard.press('Escape');
  await page.waitForSelector(tid('prompt-view-dialog'), { state: 'detached' });
  expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid)).toBe(
    'prompt-toggle',
  );

  // (b) The PII log, rebuilt from what is stored after a reload.
  await tab(page, 'privacy');
  await page.waitForSelector(`${tid('pii-row')}[data-from="session"]`);
  await page.reload();
  await waitReady(page);
  await tab(page, 'privacy');
  await page.waitForSelector(`${tid('pii-row')}[data-from="storage"]`);
  const finding = (await page.locator(tid('pii-finding')).first().textContent()) ?? '';
  expect(finding).toContain('email');
  expect(finding).toContain('[EMAIL_1]');
  expect(finding).not.toContain('ada@example.com');

  // (d) Switching away and back keeps this session's chat live (not faded history).
  const reply = await chat(page, 'My favourite colour is teal.');
  expect(await page.locator(tid('chat-assistant')).count()).toBe(1);
  await page.selectOption(tid('user-select'), 'bob');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="chat-assistant"]').length === 0);
  await page.selectOption(tid('user-select'), 'alice');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="chat-assistant"]').length === 1);
  expect(await page.locator(`${tid('chat-assistant')} .bubble`).textContent()).toBe(reply);
  // The live turn is not shown a second time as history; the earlier session's turn is.
  const past = await page.locator(`${tid('chat-past')} .bubble`).allTextContents();
  expect(past).toContain('Please remember my email is [EMAIL_1]');
  expect(past).not.toContain('My favourite colour is teal.');
  await screenshot(page, 'memory-07-live-chat');
  await ctx.close();
}, 120_000);
