/**
 * The demo (apps/demo) driven through its UI in real Chromium, built for production and served
 * with `vite preview`: every tier, persistence across reloads, two tabs, encryption with right and
 * wrong passphrases, offline reload through the service worker, and a 1,000-memory import that
 * keeps the page responsive. Screenshots go to test/e2e/.artifacts/.
 */
import { randomUUID } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { expect, test } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { PII_TYPES } from '@zerda/core';
import { sampleMemories } from '../../apps/demo/src/samples.ts';
import { errorBanner, idbStoresContaining, screenshot, tid, useDemo, waitReady } from './demo-kit.ts';
import { addMemory, answerConfirm, countWhen, deleteRow, setFilter, tab } from './demo-kit.ts';
import { chat, encryptAndReload, jumpClock, resetClock } from './demo-kit.ts';

const demo = useDemo();

// ---------------------------------------------------------------- specs

let shared: { ctx: BrowserContext; page: Page } | undefined;

test('every tier is visible and works through the UI', async () => {
  const { ctx, page } = await demo.openOffline();
  shared = { ctx, page };
  await screenshot(page, '01-start');

  // A fact stored directly in long-term memory, then two chat turns.
  await addMemory(page, 'Hobby', 'Loves hiking in the Swiss Alps, especially around Zermatt.', 'preference');
  const first = await chat(page, 'My name is Ada and I work as an engineer.');
  expect(first).toMatch(/remember/i);
  expect(await page.locator(tid('short-term-item')).count()).toBe(1);
  // The added memory, the turn, and the two facts formed from its two clauses (the user's name,
  // the user's job).
  await countWhen(page, tid('ltm-row'), 'n === 4');
  // A stored turn shows its reply under the user's words (text filters match both).
  expect(await page.locator(tid('ltm-reply')).first().textContent()).toMatch(/remember/i);
  // A formed memory shows its kind and the turn it came from.
  const formed = page.locator(tid('ltm-row'), { has: page.locator(tid('ltm-source')) });
  expect(await formed.count()).toBe(2);
  expect(await formed.locator(tid('ltm-kind')).allTextContents()).toEqual(['fact', 'fact']);
  for (const source of await formed.locator(tid('ltm-source')).allTextContents())
    expect(source).toContain('formed from turn “My name is Ada and I work as an engineer.”');

  const answer = await chat(page, 'What do I love doing outdoors?');
  expect(answer).toContain('hiking');
  await page.locator(tid('prompt-toggle')).last().click();
  const prompt = (await page.locator(tid('prompt-view')).last().textContent()) ?? '';
  expect(prompt).toContain('hiking in the Swiss Alps');
  expect(prompt).toContain('My name is Ada');
  expect(prompt).toContain('What do I love doing outdoors?');
  await page.keyboard.press('Escape');
  expect(await page.locator(tid('short-term-item')).count()).toBe(2);
  expect(await page.locator(tid('working-row')).allTextContents()).toEqual(
    expect.arrayContaining([expect.stringContaining('Swiss Alps')]),
  );
  await screenshot(page, '02-chat-and-memory');

  // Recall with its three scores.
  await tab(page, 'recall');
  await page.fill(tid('recall-query'), 'hiking Alps');
  await page.click(tid('recall-run'));
  await countWhen(page, tid('recall-row'), 'n >= 1');
  const cells = await page.locator(`${tid('recall-row')} td`).allTextContents();
  const [lexical, vector, fused] = cells.slice(2, 5).map(Number);
  expect(lexical).toBeGreaterThan(0);
  expect(vector).toBeGreaterThan(0);
  expect(fused).toBeGreaterThan(0);
  expect(fused).toBeLessThanOrEqual(1);
  await screenshot(page, '03-recall');

  // Importance over time: advancing the demo clock lowers effective importance (decay).
  await tab(page, 'importance');
  await page.waitForSelector(tid('chart-series-0'));
  const before = Number(await page.getAttribute(tid('chart-facts'), 'data-effective'));
  await jumpClock(page, 'month');
  await page.waitForFunction(
    (b) => Number(document.querySelector('[data-testid="chart-facts"]')?.getAttribute('data-effective')) < b,
    before,
  );
  const decayed = Number(await page.getAttribute(tid('chart-facts'), 'data-effective'));
  await screenshot(page, '04-importance');
  await resetClock(page);
  await page.waitForFunction(
    (d) => Number(document.querySelector('[data-testid="chart-facts"]')?.getAttribute('data-effective')) > d,
    decayed,
  );
  expect(Number(await page.getAttribute(tid('chart-facts'), 'data-effective'))).toBeCloseTo(before, 3);
  // Reinforcement: recalling the memory raises its importance.
  await page.click(tid('chart-recall'));
  await page.waitForFunction(
    (b) => Number(document.querySelector('[data-testid="chart-facts"]')?.getAttribute('data-effective')) > b + 0.01,
    before,
  );

  // Profile.
  await tab(page, 'profile');
  await page.waitForFunction(
    () => Number(document.querySelector('[data-testid="profile-interactions"]')?.textContent) === 2,
  );
  expect(await page.locator(tid('profile-topic')).count()).toBeGreaterThan(0);
  await screenshot(page, '05-profile');

  // The local responder answers from the best relevant memory; the question itself is not stored.
  await tab(page, 'memory');
  const stored = await page.locator(tid('ltm-row')).count();
  expect(await chat(page, 'My sister Ana lives in Lisbon.')).toMatch(/remember/i);
  await countWhen(page, tid('ltm-row'), `n === ${stored + 2}`);
  expect(await chat(page, 'Which city is my sibling in?')).toContain('You told me your sister Ana lives in Lisbon.');
  await new Promise((r) => setTimeout(r, 300));
  expect(await page.locator(tid('ltm-row')).count()).toBe(stored + 2);

  // Any statement is taken as something to remember, not only "my name is…"-style ones.
  expect(await chat(page, 'My favourite colour is teal.')).toMatch(/remember/i);

  // PII is masked before storage and reported.
  await chat(page, 'Please remember my email is ada@example.com');
  await page.waitForSelector(tid('pii-badge'));
  await tab(page, 'privacy');
  expect(await page.locator(tid('pii-finding')).first().textContent()).toContain('email');
  await tab(page, 'memory');
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-testid="ltm-text"]')].some((e) => e.textContent?.includes('my email is')),
  );
  const texts = await page.locator(tid('ltm-text')).allTextContents();
  expect(texts.some((t) => t.includes('ada@example.com'))).toBe(false);
  // Secrets too: the panel lists every finding type, and a password stated in words is masked,
  // reported as a credential and never stored.
  await chat(page, 'Please remember my wifi password is B3tterSafe!');
  await tab(page, 'privacy');
  expect(await page.locator(tid('pii-type')).evaluateAll((els) => els.map((e) => e.getAttribute('data-type')))).toEqual(
    [...PII_TYPES],
  );
  await page.waitForFunction(() =>
    document.querySelector('[data-testid="pii-finding"]')?.textContent?.includes('credential'),
  );
  await tab(page, 'memory');
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-testid="ltm-text"]')].some((e) => e.textContent?.includes('[CREDENTIAL_1]')),
  );
  expect((await page.locator(tid('ltm-text')).allTextContents()).some((t) => t.includes('B3tterSafe'))).toBe(false);

  // Access control: a reader may not delete, a user without a role may not chat.
  const rows = await page.locator(tid('ltm-row')).count();
  await page.selectOption(tid('user-select'), 'bob');
  await page.locator(tid('ltm-delete')).first().click();
  expect(await errorBanner(page)).toContain('ACCESS_DENIED');
  expect(await page.locator(tid('ltm-row')).count()).toBe(rows);
  await page.selectOption(tid('user-select'), 'eve');
  // Bob's denial belonged to Bob's action: gone with the switch.
  expect(await page.locator(tid('action-error')).count()).toBe(0);
  expect(await chat(page, 'hello there')).toContain('ACCESS_DENIED');
  // Eve does not see Alice's last turn, and app-level operations are refused to her as well.
  expect(await page.locator(tid('working-row')).count()).toBe(0);
  expect(await page.isHidden(tid('error-banner'))).toBe(true);
  await tab(page, 'data');
  await page.waitForFunction(() =>
    document.querySelector('[data-testid="stats-view"]')?.textContent?.includes('Not allowed'),
  );
  await page.click(tid('maintenance-run'));
  expect(await errorBanner(page)).toContain('ACCESS_DENIED');
  expect(await page.locator(tid('report-examined')).count()).toBe(0);
  await tab(page, 'privacy');
  await screenshot(page, '06-privacy-access-denied');
  await page.selectOption(tid('user-select'), 'alice');

  // Long-term editing: pin, filter by tag, edit, delete, add with a kind, filter by kind.
  await tab(page, 'memory');
  await page.locator(tid('ltm-pin')).first().click();
  await countWhen(page, `${tid('ltm-row')}.pinned`, 'n === 1');
  await setFilter(page, 'tag', 'pinned');
  await countWhen(page, tid('ltm-row'), 'n === 1');
  await setFilter(page, 'tag', '');
  await countWhen(page, tid('ltm-row'), `n === ${rows}`);
  await setFilter(page, 'from', '2099-01-01');
  await countWhen(page, tid('ltm-row'), 'n === 0');
  await setFilter(page, 'from', '');
  await countWhen(page, tid('ltm-row'), `n === ${rows}`);
  await page.locator(tid('ltm-edit')).first().click();
  await page.fill(tid('edit-title'), 'Edited: I prefer tea over coffee');
  await page.click(tid('edit-save'));
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-testid="ltm-text"]')].some((e) =>
      e.textContent?.startsWith('Edited: I prefer tea'),
    ),
  );
  await addMemory(page, 'Dentist', 'Dentist appointment on Tuesday', 'event');
  await setFilter(page, 'kind', 'event');
  await countWhen(page, tid('ltm-row'), 'n === 1');
  await setFilter(page, 'kind', '');
  await countWhen(page, tid('ltm-row'), `n === ${rows + 1}`);
  await deleteRow(page, 'last');
  await countWhen(page, tid('ltm-row'), `n === ${rows}`);
  await screenshot(page, '07-long-term');

  // Maintenance, statistics, backups.
  await tab(page, 'data');
  await page.click(tid('maintenance-run'));
  await page.waitForSelector(tid('report-examined'));
  expect(Number(await page.textContent(tid('report-examined')))).toBe(rows);
  expect(Number(await page.textContent(tid('stats-entries')))).toBe(rows);
  expect(Number(await page.textContent(tid('stats-vectors')))).toBe(rows);
  await page.click(tid('reindex-run'));
  await page.waitForFunction(() =>
    document.querySelector('[data-testid="reindex-progress-label"]')?.textContent?.includes('re-embedded'),
  );
  expect(await page.textContent(tid('reindex-progress-label'))).toBe(`${rows} of ${rows} memories re-embedded`);
  await page.click(tid('backup-create'));
  await countWhen(page, tid('backup-row'), 'n === 1');
  const [exported] = await Promise.all([page.waitForEvent('download'), page.click(tid('export-json'))]);
  const doc = JSON.parse(await readFile((await exported.path())!, 'utf8')) as { format: string; entries: unknown[] };
  expect(doc.format).toBe('zerda-export');
  expect(doc.entries).toHaveLength(rows);
  const [backupFile] = await Promise.all([page.waitForEvent('download'), page.click(tid('backup-download'))]);
  expect((await stat((await backupFile.path())!)).size).toBeGreaterThan(0);
  // A file that is not an export is refused, and the error stays up through the refreshes that follow.
  await page.setInputFiles(tid('import-file'), {
    name: 'notes.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"hello":1}'),
  });
  expect(await errorBanner(page)).toContain('VALIDATION');
  await page.waitForFunction(() =>
    document.querySelector('[data-testid="import-result"]')?.textContent?.includes('Nothing was imported'),
  );
  await new Promise((r) => setTimeout(r, 500));
  expect(await page.isVisible(tid('error-banner'))).toBe(true);
  expect(await page.textContent(tid('error-text'))).toContain('VALIDATION');
  await screenshot(page, '08-data');
  // Restore brings back a memory deleted after the backup.
  await tab(page, 'memory');
  await deleteRow(page, 'first');
  await countWhen(page, tid('ltm-row'), `n === ${rows - 1}`);
  await tab(page, 'data');
  // Restoring replaces everything, so it asks first (in the page): declining changes nothing.
  await page.click(tid('backup-restore'));
  await answerConfirm(page, false);
  await new Promise((r) => setTimeout(r, 300));
  expect(await page.textContent(tid('import-progress-label'))).not.toMatch(/restor|writing|embedding/);
  expect(Number(await page.textContent(tid('stats-entries')))).toBe(rows - 1);
  await page.click(tid('backup-restore'));
  await answerConfirm(page, true);
  await page.waitForFunction(
    (n) => Number(document.querySelector('[data-testid="stats-entries"]')?.textContent) === n,
    rows,
  );
  await tab(page, 'memory');
  await countWhen(page, tid('ltm-row'), `n === ${rows}`);
});

test('memories survive a reload', async () => {
  const { page } = shared!;
  await tab(page, 'memory');
  const before = await page.locator(tid('ltm-text')).allTextContents();
  expect(before.length).toBeGreaterThan(0);
  await page.reload();
  await waitReady(page);
  await countWhen(page, tid('ltm-row'), `n === ${before.length}`);
  expect(await page.locator(tid('ltm-text')).allTextContents()).toEqual(before);
  expect(await page.locator(tid('chat-past')).count()).toBeGreaterThan(0);
});

test('replies can come from an OpenAI-compatible endpoint, with the built context as messages', async () => {
  const { page } = shared!;
  const endpoint = 'http://localhost:9/v1/chat/completions';
  let sent: { model?: string; messages?: { role: string; content: string }[] } | undefined;
  let auth: string | undefined;
  const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'authorization, content-type' };
  await page.route(endpoint, async (route) => {
    if (route.request().method() === 'OPTIONS') return route.fulfill({ status: 204, headers: cors });
    sent = route.request().postDataJSON() as typeof sent;
    auth = route.request().headers().authorization;
    return route.fulfill({
      status: 200,
      headers: { ...cors, 'content-type': 'application/json' },
      body: JSON.stringify({
        choices: [{ message: { role: 'assistant', content: 'From the endpoint: you like tea.' } }],
      }),
    });
  });
  await page.click('details.responder > summary');
  await page.selectOption(tid('responder-select'), 'endpoint');
  await page.fill(tid('endpoint-url'), 'http://localhost:9/v1');
  await page.fill(tid('endpoint-model'), 'test-model');
  await page.fill(tid('endpoint-key'), 'sk-test');
  await page.dispatchEvent(tid('endpoint-key'), 'change');
  const reply = await chat(page, 'Do I prefer tea or coffee?');
  expect(reply).toBe('From the endpoint: you like tea.');
  expect(sent?.model).toBe('test-model');
  expect(auth).toBe('Bearer sk-test');
  expect(sent?.messages?.[0]?.role).toBe('system');
  expect(sent?.messages?.at(-1)).toEqual({
    role: 'user',
    content: expect.stringContaining('Do I prefer tea or coffee?'),
  });
  // The built context travels as messages: the system section with the profile and the recalled memory.
  expect(sent?.messages?.[0]?.content).toContain('=== User Profile ===');
  expect(sent?.messages?.[0]?.content).toContain('I prefer tea over coffee');
  await page.selectOption(tid('responder-select'), 'local');
  await page.dispatchEvent(tid('responder-select'), 'change');
  await page.unroute(endpoint);
});

test('two tabs share one database', async () => {
  const { ctx, page } = shared!;
  const other = await demo.open(ctx);
  const n = await page.locator(tid('ltm-row')).count();
  await countWhen(other, tid('ltm-row'), `n === ${n}`);
  await addMemory(other, 'Second tab', 'Written from the second tab');
  await countWhen(page, tid('ltm-row'), `n === ${n + 1}`);
  await addMemory(page, 'First tab', 'Written from the first tab about origami cranes');
  await countWhen(other, tid('ltm-row'), `n === ${n + 2}`);
  // The other tab's recall index picked up the new vector too.
  await tab(other, 'recall');
  await other.selectOption(tid('recall-mode'), 'vector');
  await other.fill(tid('recall-query'), 'origami cranes');
  await other.click(tid('recall-run'));
  await countWhen(other, tid('recall-row'), 'n >= 1');
  const top = await other.locator(`${tid('recall-row')} td`).allTextContents();
  expect(top[0]).toContain('origami cranes');
  expect(Number(top[3])).toBeGreaterThan(0);
  // Only the owner tab may change encryption; the other says so in words a visitor can act on.
  await tab(other, 'privacy');
  await other.fill(tid('passphrase-input'), 'not here');
  await other.click(tid('encrypt-enable'));
  expect(await errorBanner(other)).toContain('tab that opened this demo first');
  expect(await other.getAttribute(tid('encryption-status'), 'data-state')).toBe('off');
  // The first tab owns the database; when it goes away the other takes over, losing nothing.
  await page.close();
  await addMemory(other, 'After takeover', 'Written once the first tab was gone');
  await other.reload();
  await waitReady(other);
  await tab(other, 'memory');
  await countWhen(other, tid('ltm-row'), `n === ${n + 3}`);
  await screenshot(other, '12-second-tab');
  await shared!.ctx.close();
});

test('an encrypted database reopens only with the right passphrase', async () => {
  const { ctx, page } = await demo.openOffline();
  await tab(page, 'memory');
  await page.click(tid('add-toggle'));
  await page.click(tid('add-samples'));
  // All of them: the list refreshes while they are still being added, one by one.
  const n = sampleMemories().length;
  await countWhen(page, tid('ltm-row'), `n === ${n}`);
  expect(await idbStoresContaining(page, 'Zermatt')).not.toEqual([]);
  await encryptAndReload(page, 'correct horse battery staple');
  await page.fill(tid('unlock-passphrase'), 'wrong horse');
  await page.click(tid('unlock-submit'));
  await page.waitForFunction(() => !!document.querySelector('[data-testid="unlock-error"]')?.textContent);
  expect(await page.textContent(tid('unlock-error'))).toContain('DECRYPTION');
  await screenshot(page, '09-unlock-wrong-passphrase');
  // "Start over" deletes the database, so it asks in the page first; Cancel keeps everything.
  await page.click(tid('unlock-reset'));
  await answerConfirm(page, false);
  expect(await page.isVisible(tid('unlock-form'))).toBe(true);
  await page.fill(tid('unlock-passphrase'), 'correct horse battery staple');
  await page.click(tid('unlock-submit'));
  await waitReady(page);
  await countWhen(page, tid('ltm-row'), `n === ${n}`);
  expect(await page.getAttribute(tid('storage-status'), 'data-encrypted')).toBe('true');
  // Nothing readable is left in IndexedDB (before encryption, the same scan finds the text).
  const leaked = await idbStoresContaining(page, 'Zermatt');
  expect(leaked).toEqual([]);
  await ctx.close();
});

test('works offline after the first visit (service worker)', async () => {
  const ctx = await demo.browser.newContext();
  const page = await demo.open(ctx);
  await page.waitForSelector(`${tid('offline-status')}[data-state="ready"]`, { timeout: 60_000 });
  await addMemory(page, 'Offline', 'Cached by the service worker for offline use');
  await ctx.setOffline(true);
  await page.reload();
  await waitReady(page);
  await countWhen(page, tid('ltm-row'), 'n === 1');
  const reply = await chat(page, 'What is cached for offline use?');
  expect(reply).toContain('Offline');
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  await screenshot(page, '10-offline');
  await ctx.close();
});

test('a 1,000-memory import keeps the page responsive', async () => {
  const { ctx, page } = await demo.openOffline();
  const now = Date.now();
  const topics = [
    'hiking',
    'cooking',
    'physics',
    'music',
    'travel',
    'gardening',
    'chess',
    'finance',
    'painting',
    'running',
  ];
  const entries = Array.from({ length: 1000 }, (_, i) => ({
    id: randomUUID(),
    tenantId: 'demo',
    userId: 'alice',
    content: {
      title: `Note ${i}`,
      text: `Imported note ${i} about ${topics[i % topics.length]} and item ${(i * 7919) % 1000}.`,
    },
    tier: 'long_term',
    kind: i % 3 ? 'fact' : 'preference',
    createdAt: now - i * 60_000,
    lastAccess: now - i * 60_000,
    importance: 0.4 + (i % 5) / 10,
    accessCount: 0,
    tags: [topics[i % topics.length]],
    metadata: {},
    version: 1,
  }));
  const doc = { format: 'zerda-export', version: 1, exportedAt: now, entries, profiles: [] };
  await page.evaluate(() => {
    const w = window as unknown as { longTasks: number[]; lags: number[] };
    w.longTasks = [];
    w.lags = [];
    new PerformanceObserver((list) => list.getEntries().forEach((e) => w.longTasks.push(e.duration))).observe({
      type: 'longtask',
    });
    // Event-loop lag: how late a 20 ms timer fires (what a click would wait for).
    let expected = performance.now() + 20;
    const tick = () => {
      const now = performance.now();
      w.lags.push(Math.max(0, now - expected));
      expected = now + 20;
      setTimeout(tick, 20);
    };
    setTimeout(tick, 20);
  });
  await tab(page, 'data');
  const started = Date.now();
  await page.setInputFiles(tid('import-file'), {
    name: 'export.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(doc)),
  });
  await page.waitForSelector(`${tid('import-result')}[data-entries="1000"]`, { timeout: 150_000 });
  const elapsed = Date.now() - started;
  const { longTasks, lags } = await page.evaluate(() => {
    const w = window as unknown as { longTasks: number[]; lags: number[] };
    return { longTasks: w.longTasks, lags: w.lags };
  });
  const maxTask = Math.max(0, ...longTasks);
  const maxLag = Math.max(0, ...lags);
  console.log(
    `import 1000: ${elapsed} ms; long tasks ${longTasks.length}, longest ${maxTask.toFixed(0)} ms; worst event-loop lag ${maxLag.toFixed(0)} ms`,
  );
  await screenshot(page, '11-import');
  expect(Number(await page.textContent(tid('stats-entries')))).toBe(1000);
  expect(Number(await page.textContent(tid('stats-vectors')))).toBe(1000);
  // Responsive: the embedding runs in the worker, not on the page. This is a correctness check, not a speed
  // goal (figures are printed above; test/bench has the speed runs): embedding these 1,000 memories on the
  // page thread blocks it for 1.6 s or more in one task, while in the worker no task comes near that even
  // on a loaded 2-core machine (quiet: none over 50 ms; under load up to ~400 ms seen).
  expect(maxTask).toBeLessThan(1000);
  expect(maxLag).toBeLessThan(2000);
  // Recall works over the imported set.
  await tab(page, 'recall');
  await page.fill(tid('recall-query'), 'gardening');
  await page.click(tid('recall-run'));
  await countWhen(page, tid('recall-row'), 'n >= 1');
  // And everything goes at once.
  await tab(page, 'data');
  await page.click(tid('clear-tenant'));
  await answerConfirm(page, true);
  await page.waitForSelector(tid('clear-result'));
  expect(await page.textContent(tid('clear-result'))).toBe('Deleted 1000 memories.');
  expect(Number(await page.textContent(tid('stats-entries')))).toBe(0);
  await ctx.close();
});
