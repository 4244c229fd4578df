/**
 * The demo for a first-time visitor (issue 15, "guide" part), in real Chromium against the built
 * demo and the real library: the guided-start card and its four real actions, the header clock,
 * the "?" explanations by keyboard, the Recall panel's wording, the start-up bar, profile topics.
 * Screenshots go to test/e2e/.artifacts/ (demo-guide-*.png).
 */
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { DEFAULT_FUSION_METHOD } from '@zerda/core';
import { screenshot, tid, useDemo, waitReady } from './demo-kit.ts';
import { addMemory, answerConfirm, chat, dismissGuide, guideStep, jumpClock, resetClock, tab } from './demo-kit.ts';

const demo = useDemo();

const DAY = 86_400_000;

/** The test id of the selected inspector tab. */
const selectedTab = (page: Page) =>
  page.getAttribute('[role="tab"][aria-selected="true"]', 'data-testid') as Promise<string | null>;
/** Test ids (or, failing that, text) of the elements the guide outlines. */
const highlighted = (page: Page) =>
  page.$$eval('.guide-highlight', (els) => els.map((e) => (e as HTMLElement).dataset.testid ?? e.tagName));

test('first visit: the guide card runs its four steps for real and points at where each shows', async () => {
  const ctx = await demo.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(demo.url);
  await waitReady(page);
  // The start-up bar goes as soon as the app is ready (it used to linger ~4 s).
  await page.waitForSelector(tid('model-progress'), { state: 'hidden', timeout: 1000 });

  expect(await page.isVisible(tid('guide-card'))).toBe(true);
  expect(await page.getAttribute(tid('guide-open'), 'aria-expanded')).toBe('true');
  await screenshot(page, 'guide-01-first-visit');

  // 1. Tell it a fact: sent through the chat, stored, and the new memory outlined in Memory.
  const told = await guideStep(page, 'tell');
  expect(told).toMatch(/Memory → Long-term/);
  expect(await page.locator(tid('chat-user')).last().textContent()).toContain('My sister Ana lives in Lisbon.');
  expect(await selectedTab(page)).toBe('tab-memory');
  const row = page.locator(`${tid('ltm-row')}.guide-highlight`);
  expect(await row.count()).toBe(1);
  expect(await row.textContent()).toContain('Lisbon');
  expect(await row.isVisible()).toBe(true);
  expect(await page.isVisible(tid('guide-done-tell'))).toBe(true);
  expect(await page.isVisible(tid('guide-done-ask'))).toBe(false);

  // 2. Ask about it: the reply comes from memory; Recall shows (and outlines) the memory it used.
  const asked = await guideStep(page, 'ask');
  expect(asked).toMatch(/from memory/);
  expect(
    await page
      .locator(`${tid('chat-assistant')} .bubble`)
      .last()
      .textContent(),
  ).toContain('Lisbon');
  expect(await selectedTab(page)).toBe('tab-recall');
  const hit = page.locator(`${tid('recall-row')}.guide-highlight`);
  expect(await hit.count()).toBe(1);
  expect(await hit.textContent()).toContain('Lisbon');
  expect(await page.isVisible(tid('guide-done-ask'))).toBe(true);

  // 3. Jump the clock a year: the header clock moves, the chart (of the fact) is outlined.
  const jumped = await guideStep(page, 'clock');
  expect(jumped).toMatch(/a year later/);
  expect(await page.getAttribute(tid('clock-bar'), 'data-offset-days')).toBe('365');
  expect(await page.textContent(tid('clock-offset'))).toBe('+1 year');
  expect(await selectedTab(page)).toBe('tab-importance');
  expect(await highlighted(page)).toEqual(expect.arrayContaining(['importance-chart', 'clock-bar']));
  expect(await page.textContent(tid('chart-facts'))).toMatch(/^fact /);
  await screenshot(page, 'guide-02-clock');

  // 4. Encryption: the Privacy tab with the passphrase field focused; done only once encrypted.
  const how = await guideStep(page, 'encrypt');
  expect(how).toMatch(/passphrase/);
  expect(await selectedTab(page)).toBe('tab-privacy');
  expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid)).toBe(
    'passphrase-input',
  );
  expect(await page.isVisible(tid('guide-done-encrypt'))).toBe(false);
  expect(await page.getAttribute(tid('storage-status'), 'data-encrypted')).toBe('false');
  await page.keyboard.type('guide passphrase');
  await page.keyboard.press('Enter');
  await page.waitForSelector(`${tid('storage-status')}[data-encrypted="true"]`, { timeout: 30_000 });
  await page.waitForSelector(tid('guide-done-encrypt'));
  expect(await highlighted(page)).toEqual(['storage-status']);
  expect(await page.textContent(tid('storage-status'))).toContain('encrypted');
  await screenshot(page, 'guide-03-done');
  await ctx.close();
});

test('the guide stays hidden after "Hide" and a reload; the header button brings it back', async () => {
  const ctx = await demo.browser.newContext();
  const page = await demo.open(ctx);
  expect(await page.isVisible(tid('guide-card'))).toBe(true);
  await dismissGuide(page);
  expect(await page.getAttribute(tid('guide-open'), 'aria-expanded')).toBe('false');
  // Focus goes back to the header button, so keyboard users are not lost.
  expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid)).toBe('guide-open');
  await page.reload();
  await waitReady(page);
  expect(await page.isHidden(tid('guide-card'))).toBe(true);
  await page.focus(tid('guide-open'));
  await page.keyboard.press('Enter');
  expect(await page.isVisible(tid('guide-card'))).toBe(true);
  expect(await page.getAttribute(tid('guide-open'), 'aria-expanded')).toBe('true');
  await ctx.close();
});

test('the header clock: jumps and reset, seen by the Importance chart, backups and Maintenance', async () => {
  const ctx = await demo.browser.newContext();
  const page = await demo.open(ctx);
  await dismissGuide(page);
  expect(await page.textContent(tid('clock-offset'))).toBe('real time');
  expect(await page.isDisabled(tid('clock-reset'))).toBe(true);
  await addMemory(page, 'Dentist', 'The dentist appointment is on Friday', 'event');

  await tab(page, 'importance');
  await page.waitForSelector(tid('chart-series-0'));
  // No second clock on the Importance tab: it uses the header's.
  expect(await page.locator(`${tid('importance-panel')} [data-testid^="clock-"]`).count()).toBe(0);
  const effective = () => page.getAttribute(tid('chart-facts'), 'data-effective').then(Number);
  const before = await effective();

  await jumpClock(page, 'day');
  await jumpClock(page, 'month');
  expect(await page.textContent(tid('clock-offset'))).toBe('+1 month 1 day');
  await jumpClock(page, 'year');
  expect(await page.textContent(tid('clock-offset'))).toBe('+1 year 1 month 1 day');
  const shown = Date.parse((await page.getAttribute(tid('clock-date'), 'datetime')) ?? '');
  expect(Math.round((shown - Date.now()) / DAY)).toBe(396);
  await page.waitForFunction((b) => {
    const v = Number(document.querySelector('[data-testid="chart-facts"]')?.getAttribute('data-effective'));
    return v < b;
  }, before);
  // An event fades with a 90-day half-life: after 396 days it is near its floor.
  expect(await effective()).toBeLessThan(before / 4);

  // Backups are dated by the demo clock.
  await tab(page, 'data');
  await page.click(tid('backup-create'));
  await page.waitForSelector(tid('backup-row'));
  const dated = await page.evaluate(() => {
    const shownAt = Date.parse(document.querySelector('[data-testid="clock-date"]')!.getAttribute('datetime')!);
    const day = new Date(shownAt).toLocaleString(undefined, { dateStyle: 'short' });
    return document.querySelector('[data-testid="backup-row"]')!.textContent!.startsWith(day);
  });
  expect(dated).toBe(true);
  // Maintenance judges fading by the demo clock: a year on, it would forget the faded event (and
  // says as of which date). Cancelled: nothing is deleted.
  await page.click(tid('maintenance-run'));
  await page.waitForSelector(`${tid('confirm-dialog')}[open]`);
  const asOf = await page.evaluate(() => {
    const shownAt = Date.parse(document.querySelector('[data-testid="clock-date"]')!.getAttribute('datetime')!);
    const day = new Date(shownAt).toLocaleString(undefined, { dateStyle: 'short' });
    return document.querySelector('[data-testid="confirm-message"]')!.textContent!.includes(`As of ${day}`);
  });
  expect(asOf).toBe(true);
  expect(await page.locator(tid('preview-forget')).allInnerTexts()).toEqual([expect.stringContaining('Dentist')]);
  await answerConfirm(page, false);

  await resetClock(page);
  expect(await page.textContent(tid('clock-offset'))).toBe('real time');
  await tab(page, 'importance');
  await page.waitForFunction((b) => {
    const v = Number(document.querySelector('[data-testid="chart-facts"]')?.getAttribute('data-effective'));
    return Math.abs(v - b) < 0.001;
  }, before);
  await ctx.close();
});

test('plain words first: "?" explanations open by keyboard; Recall says how it really combines scores', async () => {
  const ctx = await demo.browser.newContext();
  const page = await demo.open(ctx);
  await dismissGuide(page);
  await addMemory(page, 'Hiking', 'I love hiking in the Alps', 'preference');
  await tab(page, 'recall');
  const fusion = page.locator(tid('recall-fusion'));
  expect(await fusion.getAttribute('data-fusion')).toBe(DEFAULT_FUSION_METHOD);
  const wording = (await fusion.textContent()) ?? '';
  expect(wording).not.toMatch(/reciprocal-rank/);
  expect(wording).toMatch(DEFAULT_FUSION_METHOD === 'score' ? /weighted score fusion/ : /reciprocal-rank fusion/);
  await page.fill(tid('recall-query'), 'hiking Alps');
  await page.click(tid('recall-run'));
  await page.waitForSelector(tid('recall-row'));
  const headers = await page.locator(`${tid('recall-results')} th`).allInnerTexts();
  expect(headers.join('|')).toMatch(/keyword match.*meaning match.*combined/);
  expect(headers.join('|')).not.toMatch(/BM25|fused|lexical|vector/);

  // Reach a "?" with the Tab key from the query field, open it with Enter, close it with Escape.
  await page.focus(tid('recall-query'));
  let focused = '';
  for (let i = 0; i < 40 && focused !== 'help-keyword'; i++) {
    await page.keyboard.press('Tab');
    focused = await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid ?? '');
  }
  expect(focused).toBe('help-keyword');
  const button = page.locator(`${tid('recall-results')} ${tid('help-keyword')}`);
  const tip = page.locator(`#${await button.getAttribute('aria-controls')}`);
  expect(await tip.isHidden()).toBe(true);
  expect(await button.getAttribute('title')).toMatch(/BM25/);
  await page.keyboard.press('Enter');
  expect(await button.getAttribute('aria-expanded')).toBe('true');
  expect(await tip.isVisible()).toBe(true);
  expect(await tip.textContent()).toMatch(/rare words count more.*BM25/);
  expect(await button.getAttribute('aria-describedby')).toBe(await tip.getAttribute('id'));
  await page.keyboard.press('Escape');
  expect(await button.getAttribute('aria-expanded')).toBe('false');
  expect(await tip.isHidden()).toBe(true);
  await page.keyboard.press('Space');
  expect(await tip.isVisible()).toBe(true);
  await screenshot(page, 'guide-04-recall-help');
  await ctx.close();

  // Touch works too (a bare title tooltip would not): a tap opens the explanation, on a phone.
  const phone = await demo.browser.newContext({
    hasTouch: true,
    isMobile: true,
    viewport: { width: 390, height: 844 },
  });
  const touch = await demo.open(phone);
  await dismissGuide(touch);
  await tab(touch, 'recall');
  const gate = touch.locator(`${tid('recall-panel')} ${tid('help-gate')}`);
  await gate.tap();
  expect(await gate.getAttribute('aria-expanded')).toBe('true');
  expect(await touch.locator(`#${await gate.getAttribute('aria-controls')}`).isVisible()).toBe(true);
  await screenshot(touch, 'guide-05-phone-help');
  await phone.close();
});

test('profile topics leave out filler words', async () => {
  const ctx = await demo.browser.newContext();
  const page = await demo.open(ctx);
  await dismissGuide(page);
  await chat(page, 'Call me whenever you like, my number is +44 20 7946 0958.');
  await chat(page, 'I go sailing whenever the weather is good; sailing is my favourite.');
  await tab(page, 'profile');
  await page.waitForFunction(
    () => Number(document.querySelector('[data-testid="profile-interactions"]')?.textContent) === 2,
  );
  const topics = await page.locator(`${tid('profile-topic')} span:first-child`).allTextContents();
  expect(topics).toContain('sailing');
  expect(topics).not.toContain('whenever');
  expect(topics).not.toContain('number');
  await ctx.close();
});

test("the chat's own hint works: the question it suggests is answered from the fact it suggests", async () => {
  const ctx = await demo.browser.newContext();
  const page = await demo.open(ctx);
  const hint = (await page.textContent(tid('chat-hint'))) ?? '';
  const [fact, question] = [...hint.matchAll(/“([^”]+)”/g)].map((m) => m[1]!);
  expect(fact).toBeTruthy();
  expect(question).toBeTruthy();
  await chat(page, fact!);
  // The local responder answers from the best relevant memory (it quotes it), or says it found none.
  expect(await chat(page, question!)).toContain('Alps');
  // A follow-up sharing no word with the fact, and little likeness for the model: the formed
  // preference answers what the question asks of the user (recall reason 'slot').
  expect(await chat(page, 'What are my hobbies?')).toContain('hiking');
  await ctx.close();
});
