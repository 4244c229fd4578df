/**
 * The demo (apps/demo) for every visitor, in real Chromium: axe-core finds no serious or critical
 * violation on the first screen, the guided start's steps, every tab, the dialogs (exact prompt,
 * delete and maintenance confirmations, undo) and the unlock screen, at desktop width, at 390 px
 * (phone) and at 320 px (WCAG reflow), where nothing scrolls sideways; every panel works by
 * keyboard alone with a visible focus ring. Saves the README tour's screenshots (test/e2e/.artifacts/tour-*.jpg, and docs/tour/
 * when ZERDA_UPDATE_TOUR=1).
 */
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { type AxeViolation, axeSerious, screenshot, tid, tourShot, useDemo, waitReady } from './demo-kit.ts';
import { chat, encryptAndReload, tab } from './demo-kit.ts';

const demo = useDemo();

const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
  // WCAG 2.2 reflow (1.4.10): content at 320 CSS px wide without scrolling in two directions.
  narrow: { width: 320, height: 640 },
} as const;
const TABS = ['memory', 'recall', 'importance', 'profile', 'privacy', 'sync', 'data'] as const;

const describe = (where: string, found: AxeViolation[]): string[] =>
  found.map((v) => `${where}: ${v.id} (${v.impact}) ${v.help} → ${v.targets.join(', ')}`);

/** How far the page scrolls sideways (0 when it does not), and the innermost elements sticking out. */
const overflow = (page: Page): Promise<{ by: number; culprits: string[] }> =>
  page.evaluate(() => {
    const by = document.documentElement.scrollWidth - window.innerWidth;
    const out = [...document.querySelectorAll<HTMLElement>('body *')].filter(
      (e) => e.getBoundingClientRect().right > window.innerWidth + 0.5,
    );
    const innermost = out.filter((e) => !out.some((o) => o !== e && e.contains(o)));
    const name = (e: HTMLElement) =>
      `${e.tagName.toLowerCase()}${e.dataset.testid ? `[${e.dataset.testid}]` : e.className ? `.${String(e.className).split(' ')[0]}` : ''}`;
    return { by, culprits: innermost.slice(0, 5).map(name) };
  });

/** Bring the tab bar to the top of the viewport, so a phone screenshot shows the panel. */
const scrollToTabs = (page: Page): Promise<void> =>
  page.locator('[role="tablist"]').evaluate((e) => e.scrollIntoView({ block: 'start' }));

for (const [width, viewport] of Object.entries(VIEWPORTS)) {
  test(`${width} (${viewport.width}×${viewport.height}): no serious axe violation, no sideways scrolling, on every tab`, async () => {
    const { ctx, page } = await demo.openOffline({ viewport });
    // The README tour shows desktop and phone; the 320 px run keeps its screenshots as test artifacts.
    const shoot = width === 'narrow' ? (p: Page, name: string) => screenshot(p, `a11y-${name}`) : tourShot;
    const problems: string[] = [];
    const seen = new Set<string>();
    const check = async (where: string) => {
      // Collapsed sections (<details>) are opened for the check, so what they hide is checked too,
      // and closed again afterwards.
      await page.evaluate(() => {
        for (const d of document.querySelectorAll<HTMLDetailsElement>('details:not([open])')) {
          d.dataset.a11yOpened = '';
          d.open = true;
        }
      });
      for (const v of await axeSerious(page)) {
        // Each finding once (the chat, the header… are on every tab).
        const fresh = v.targets.filter((t) => !seen.has(`${v.id} ${t}`));
        for (const t of fresh) seen.add(`${v.id} ${t}`);
        if (fresh.length) problems.push(...describe(where, [{ ...v, targets: fresh }]));
      }
      const over = await overflow(page);
      if (over.by > 0)
        problems.push(`${where}: the page scrolls sideways by ${over.by}px (${over.culprits.join(', ')})`);
      await page.evaluate(() => {
        for (const d of document.querySelectorAll<HTMLDetailsElement>('details[data-a11y-opened]')) {
          delete d.dataset.a11yOpened;
          d.open = false;
        }
      });
    };
    await check('first screen');
    await shoot(page, `${width}-01-start`);
    if (viewport.width < 600) {
      // Touch-size (44 px) controls where a thumb goes most: the tabs, the message box, Send.
      const small = await page.evaluate(() =>
        [
          ...document.querySelectorAll<HTMLElement>(
            '[role="tab"], [data-testid="chat-input"], [data-testid="chat-send"]',
          ),
        ]
          .filter((e) => e.getBoundingClientRect().height < 44)
          .map((e) => `${e.dataset.testid}: ${e.getBoundingClientRect().height}px`),
      );
      problems.push(...small.map((s) => `phone: control under 44 px tall, ${s}`));
    }

    // The guided start's four steps, each checked where it points.
    let n = 2;
    for (const step of ['tell', 'ask', 'clock', 'encrypt'] as const) {
      await page.click(tid(`guide-step-${step}`));
      await page.waitForFunction(
        (step) => document.querySelector(`[data-testid="guide-look-${step}"]`)?.textContent,
        step,
      );
      await page.waitForTimeout(700); // the guide scrolls smoothly to what it points at
      await check(`guide step ${step}`);
      await shoot(page, `${width}-${String(n++).padStart(2, '0')}-${step}`);
    }
    await page.click(tid('guide-dismiss'));

    await chat(page, 'My name is Ada and I work as an engineer.');
    await chat(page, 'I love hiking in the Swiss Alps.');
    await chat(page, 'Mail me at ada@example.com about the trip.');
    expect(await chat(page, 'Where do I love hiking?')).toContain('Swiss Alps');
    await check('chat after the guide and four turns');

    for (const id of TABS) {
      await tab(page, id);
      await page.waitForSelector(tid(`${id === 'memory' ? 'inspector' : id}-panel`), { state: 'visible' });
      // Panels that load asynchronously (lists, charts) settle first.
      await page.waitForTimeout(200);
      await check(`tab ${id}`);
      if (viewport.width < 600) await scrollToTabs(page);
      await shoot(page, `${width}-${String(n++).padStart(2, '0')}-${id}`);
    }
    expect(problems, problems.join('\n')).toEqual([]);
    await ctx.close();
  });
}

/** The focused element: whether it shows a focus ring, and what it is. */
async function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { tag: 'body', testid: '', role: '', ring: false, name: '' };
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2;
    const shadow = style.boxShadow !== 'none';
    return {
      tag: el.tagName.toLowerCase(),
      testid: el.dataset.testid ?? '',
      role: el.getAttribute('role') ?? '',
      // Chromium's own ring (1px auto) is too faint; the demo draws a 3px one.
      ring: outline || shadow,
      name: (
        el.getAttribute('aria-label') ??
        (el as HTMLInputElement).labels?.[0]?.textContent ??
        el.textContent ??
        ''
      ).trim(),
    };
  });
}

/** Press Tab until `done` holds for the focused element (at most `max` presses); each stop shows a focus ring. */
async function tabUntil(
  page: Page,
  done: (f: Awaited<ReturnType<typeof focused>>) => boolean,
  problems: string[],
  max = 40,
  key = 'Tab',
) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    const f = await focused(page);
    // (body: focus went past the end of the page, to the browser's own controls.)
    if (!f.ring && f.tag !== 'body')
      problems.push(`no visible focus on ${f.tag}[${f.testid || f.role}] “${f.name.slice(0, 40)}”`);
    if (done(f)) return f;
  }
  throw new Error(`focus never reached the target after ${max} × ${key}; problems so far: ${problems.join('; ')}`);
}

test('keyboard only: chat, switch tabs with the arrow keys, operate a panel; focus is always visible', async () => {
  const { ctx, page } = await demo.openOffline({ viewport: VIEWPORTS.desktop });
  const problems: string[] = [];
  expect(
    await page.evaluate(
      () => [...document.querySelectorAll<HTMLElement>('[tabindex]')].filter((e) => e.tabIndex > 0).length,
    ),
  ).toBe(0);

  // The first Tab reaches the skip link; following it lands in the chat input.
  const skip = await tabUntil(page, () => true, problems, 1);
  expect(skip.testid).toBe('skip-to-chat');
  await page.keyboard.press('Enter');
  expect((await focused(page)).testid).toBe('chat-input');
  await page.keyboard.type('My e-mail is ada@example.com and I love hiking.');
  await page.keyboard.press('Enter');
  await page.waitForSelector(tid('chat-assistant'));
  // Focus comes back to the input for the next message.
  expect((await focused(page)).testid).toBe('chat-input');

  // Tab into the tab bar: only the selected tab is in the tab order (roving tabindex).
  const first = await tabUntil(page, (f) => f.role === 'tab', problems);
  expect(first.testid).toBe('tab-memory');
  expect(await page.locator('[role="tab"][tabindex="0"]').count()).toBe(1);
  const selected = async () => ({
    focus: (await focused(page)).testid,
    selected: await page.locator('[role="tab"][aria-selected="true"]').getAttribute('data-testid'),
    panel: await page.locator('[role="tabpanel"]:not([hidden])').getAttribute('aria-labelledby'),
  });
  const tabId = async (id: string) => page.locator(tid(`tab-${id}`)).getAttribute('id');
  await page.keyboard.press('ArrowRight');
  expect(await selected()).toEqual({ focus: 'tab-recall', selected: 'tab-recall', panel: await tabId('recall') });
  await page.keyboard.press('End');
  expect(await selected()).toEqual({ focus: 'tab-data', selected: 'tab-data', panel: await tabId('data') });
  await page.keyboard.press('ArrowRight'); // wraps around
  expect((await selected()).focus).toBe('tab-memory');
  await page.keyboard.press('ArrowLeft'); // and back
  expect((await selected()).focus).toBe('tab-data');
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  expect(await selected()).toEqual({ focus: 'tab-recall', selected: 'tab-recall', panel: await tabId('recall') });
  if (!(await focused(page)).ring) problems.push('no visible focus on the selected tab');

  // Into the Recall panel: type a query, run it with Enter, then with the button (Space).
  await tabUntil(page, (f) => f.testid === 'recall-query', problems);
  await page.keyboard.type('hiking');
  await page.keyboard.press('Enter');
  await page.waitForSelector(tid('recall-row'));
  await tabUntil(page, (f) => f.testid === 'recall-run', problems);
  await page.keyboard.press('Space');
  await page.waitForFunction(() =>
    document.querySelector('[data-testid="recall-source"]')?.textContent?.includes('hiking'),
  );

  // Back to the tabs (Shift+Tab), to Memory, and add a memory through the form by keyboard.
  await tabUntil(page, (f) => f.role === 'tab', problems, 20, 'Shift+Tab');
  await page.keyboard.press('Home');
  expect((await selected()).selected).toBe('tab-memory');
  const toggle = await tabUntil(page, (f) => f.testid === 'add-toggle', problems);
  expect(toggle.name).toMatch(/add a memory/i);
  await page.keyboard.press('Enter');
  await tabUntil(page, (f) => f.testid === 'add-title', problems);
  await page.keyboard.type('Tea');
  await tabUntil(page, (f) => f.testid === 'add-text', problems);
  await page.keyboard.type('Drinks green tea every morning.');
  await tabUntil(page, (f) => f.testid === 'add-submit', problems);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-testid="ltm-text"]')].some((e) => e.textContent?.includes('Tea')),
  );
  // Every control reached has a name (axe checks the whole page's names too).
  expect(problems, problems.join('\n')).toEqual([]);
  await ctx.close();
});

test('the unlock screen of an encrypted memory: no serious axe violation, focus in the passphrase field', async () => {
  const { ctx, page } = await demo.openOffline({ viewport: VIEWPORTS.phone });
  await encryptAndReload(page, 'correct horse');
  const problems = describe('unlock screen', await axeSerious(page));
  expect((await focused(page)).testid).toBe('unlock-passphrase');
  await page.keyboard.type('wrong one');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid="unlock-error"]')?.textContent);
  problems.push(...describe('unlock screen, wrong passphrase', await axeSerious(page)));
  if ((await overflow(page)).by > 0) problems.push('unlock screen scrolls sideways');
  await tourShot(page, 'phone-12-unlock');
  await page.keyboard.press('Control+a');
  await page.keyboard.type('correct horse');
  await page.keyboard.press('Enter');
  await waitReady(page);
  expect(problems, problems.join('\n')).toEqual([]);
  await ctx.close();
});

test('keyboard only: every control of every panel is reachable, named, and shows its focus', async () => {
  const { ctx, page } = await demo.openOffline({ viewport: VIEWPORTS.desktop });
  await chat(page, 'I love hiking in the Swiss Alps.');
  await chat(page, 'Where do I love hiking?');
  const problems: string[] = [];
  const reached: Record<string, string[]> = {};
  await tabUntil(page, (f) => f.role === 'tab', problems);
  for (const [i, id] of TABS.entries()) {
    if (i > 0) await page.keyboard.press('ArrowRight');
    expect((await focused(page)).testid).toBe(`tab-${id}`);
    // Walk forward through the panel until focus leaves it; every stop is named and ringed.
    const stops: string[] = [];
    for (let n = 0; n < 120; n++) {
      await page.keyboard.press('Tab');
      const inPanel = await page.evaluate(
        (id) => document.getElementById(`panel-${id}`)?.contains(document.activeElement) ?? false,
        id,
      );
      if (!inPanel) break;
      const f = await focused(page);
      const control = ['input', 'select', 'textarea', 'button', 'summary', 'a'].includes(f.tag);
      stops.push(f.testid || f.role || f.tag);
      if (!f.ring) problems.push(`${id}: no visible focus on ${f.tag}[${f.testid}]`);
      if (control && !f.name) problems.push(`${id}: ${f.tag}[${f.testid}] has no name`);
    }
    reached[id] = stops;
    // And back to the tab bar the same way.
    await tabUntil(page, (f) => f.role === 'tab', problems, 130, 'Shift+Tab');
  }
  // Every panel is reachable (the panel itself, then its controls).
  for (const id of TABS) expect(reached[id]?.[0], `panel ${id}`).toBe(`${id === 'memory' ? 'inspector' : id}-panel`);
  expect(reached.recall).toEqual(expect.arrayContaining(['recall-query', 'recall-mode', 'recall-run']));
  expect(reached.data).toEqual(expect.arrayContaining(['maintenance-run', 'backup-create', 'import-file']));
  expect(reached.privacy).toEqual(expect.arrayContaining(['passphrase-input', 'role-bob']));
  expect(problems, problems.join('\n')).toEqual([]);
  await ctx.close();
});

test('dialogs and undo bars (exact prompt, delete, maintenance): no serious axe violation at 390 px, keyboard in and out', async () => {
  const { ctx, page } = await demo.openOffline({ viewport: VIEWPORTS.phone });
  const problems: string[] = [];
  const check = async (where: string) => {
    problems.push(...describe(where, await axeSerious(page)));
    const over = await overflow(page);
    if (over.by > 0) problems.push(`${where}: the page scrolls sideways by ${over.by}px (${over.culprits.join(', ')})`);
  };
  await chat(page, 'I love hiking in the Swiss Alps.');
  await chat(page, 'Where do I love hiking?');

  // The exact prompt opens in a dialog; focus goes in, Escape closes it and focus comes back.
  await page.locator(tid('prompt-toggle')).last().focus();
  await page.keyboard.press('Enter');
  await page.waitForSelector(`${tid('prompt-view-dialog')}[open]`);
  await check('exact-prompt dialog');
  expect(await page.evaluate(() => !!document.activeElement?.closest('dialog'))).toBe(true);
  if (!(await focused(page)).ring) problems.push('exact-prompt dialog: no visible focus');
  await tourShot(page, 'phone-13-prompt');
  await page.keyboard.press('Escape');
  await page.waitForSelector(tid('prompt-view-dialog'), { state: 'detached' });
  expect((await focused(page)).testid).toBe('prompt-toggle');

  // More than a page of long-term memories: the pager shows (and is checked) too.
  await tab(page, 'memory');
  if (!(await page.locator('details.add').evaluate((d) => (d as HTMLDetailsElement).open)))
    await page.click(tid('add-toggle'));
  for (let i = 0; i < 3; i++) await page.click(tid('add-samples'));
  await page.waitForSelector(`${tid('ltm-pager')}:not([hidden])`);
  await check('Memory tab with its pager');

  // Deleting a memory asks first (focus on Cancel), then offers Undo.
  await page.locator(tid('ltm-delete')).first().click();
  await page.waitForSelector(`${tid('confirm-dialog')}[open]`);
  await check('delete confirmation');
  await tourShot(page, 'phone-14-confirm-delete');
  expect((await focused(page)).testid).toBe('confirm-no');
  await page.keyboard.press('Shift+Tab'); // the confirm button comes first
  expect((await focused(page)).testid).toBe('confirm-yes');
  await page.keyboard.press('Enter');
  await page.waitForSelector(`${tid('ltm-undo')}:not([hidden])`);
  await check('undo bar after a delete');

  // Maintenance previews what it would forget, in a dialog.
  await page.click(tid('clock-plus-year'));
  await tab(page, 'data');
  await page.click(tid('maintenance-run'));
  await page.waitForSelector(`${tid('confirm-dialog')}[open]`);
  await check('maintenance preview');
  await tourShot(page, 'phone-15-maintenance-preview');
  await page.keyboard.press('Escape');
  await page.waitForSelector(tid('confirm-dialog'), { state: 'detached' });
  expect(problems, problems.join('\n')).toEqual([]);
  await ctx.close();
});
