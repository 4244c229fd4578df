/**
 * Helpers for the demo specs (test/e2e/demo*.spec.ts): serve the built demo, open it, drive the
 * chat and the panels by their test ids, and read IndexedDB back.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser, offlineContext, REPO_ROOT, servePage, type ServedPage } from './harness.ts';
import { syncServer } from '../../apps/demo/sync-plugin.ts';

export const ARTIFACTS = join(REPO_ROOT, 'test/e2e/.artifacts');

/** The demo built for production and served with `vite preview`, plus a Chromium to drive it. */
export interface DemoServer {
  served: ServedPage;
  browser: Browser;
  close(): Promise<void>;
}

export async function serveDemo(): Promise<DemoServer> {
  const served = await servePage(join(REPO_ROOT, 'apps/demo'), { plugins: [syncServer()] }, { serviceWorker: true });
  const browser = await launchBrowser();
  return {
    served,
    browser,
    async close() {
      await browser.close();
      await served.close();
    },
  };
}

/** What a demo spec file shares: the served demo and its Chromium (see {@link useDemo}). */
export interface DemoFixture {
  readonly browser: Browser;
  readonly url: string;
  /** A new page of `ctx` on the demo, once the app is ready. */
  open(ctx: BrowserContext): Promise<Page>;
  /** A new offline context (see `offlineContext`) with a page on the demo, once the app is ready. */
  openOffline(options?: BrowserContextOptions): Promise<{ ctx: BrowserContext; page: Page }>;
}

/** Serve the demo for the spec file that calls this (before its tests; closed after them). */
export function useDemo(): DemoFixture {
  let demo: DemoServer | undefined;
  beforeAll(async () => {
    demo = await serveDemo();
  });
  afterAll(async () => {
    await demo?.close();
  });
  const served = (): DemoServer => {
    if (!demo) throw new Error('the demo is served in beforeAll: use the fixture inside a test');
    return demo;
  };
  return {
    get browser() {
      return served().browser;
    },
    get url() {
      return served().served.url;
    },
    open: (ctx) => openDemo(ctx, served().served.url),
    async openOffline(options) {
      const ctx = await offlineContext(served().browser, options);
      return { ctx, page: await openDemo(ctx, served().served.url) };
    },
  };
}

export const tid = (id: string) => `[data-testid="${id}"]`;

export async function openDemo(ctx: BrowserContext, url: string): Promise<Page> {
  const page = await ctx.newPage();
  page.on('pageerror', (err) => console.error('[demo page error]', err.message));
  await page.goto(url);
  await waitReady(page);
  return page;
}

export async function waitReady(page: Page): Promise<void> {
  await page.waitForSelector('body[data-ready="true"]', { timeout: 90_000 });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `demo-${name}.png`), fullPage: true });
}

/** Folder of the README tour's images (docs/tour), rewritten when ZERDA_UPDATE_TOUR=1. */
export const TOUR = join(REPO_ROOT, 'docs/tour');

/**
 * A small JPEG of the viewport: always to test/e2e/.artifacts/tour-<name>.jpg, and to
 * docs/tour/<name>.jpg when ZERDA_UPDATE_TOUR=1 (the images the README's tour links to).
 */
export async function tourShot(page: Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true });
  const shot = await page.screenshot({ type: 'jpeg', quality: 50, path: join(ARTIFACTS, `tour-${name}.jpg`) });
  if (process.env.ZERDA_UPDATE_TOUR === '1') {
    await mkdir(TOUR, { recursive: true });
    await writeFile(join(TOUR, `${name}.jpg`), shot);
  }
}

/** One axe-core finding, reduced to what a failure message needs. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/**
 * Run axe-core (injected from node_modules, no network) on the page, or on `include` only;
 * resolves to the serious and critical violations (axe's default rules plus WCAG 2.2 target size).
 */
export async function axeSerious(page: Page, include?: string): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_PATH });
  return page.evaluate(async (include) => {
    // biome-ignore lint/suspicious/noExplicitAny: axe is injected as a global script
    const axe = (window as any).axe;
    const result = await axe.run(include ? { include: [include] } : document, {
      resultTypes: ['violations'],
      // WCAG 2.2's 24 px minimum target size (off in axe by default).
      rules: { 'target-size': { enabled: true } },
    });
    return (result.violations as { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[])
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
  }, include);
}

/** Send a chat message; resolves to the assistant's reply. */
export async function chat(page: Page, text: string): Promise<string> {
  const before = await page.locator(`${tid('chat-assistant')}, ${tid('chat-error')}`).count();
  await page.fill(tid('chat-input'), text);
  await page.click(tid('chat-send'));
  await page.waitForFunction(
    ([sel, n]) => document.querySelectorAll(sel).length > n,
    [`${tid('chat-assistant')}, ${tid('chat-error')}`, before] as const,
    { timeout: 30_000 },
  );
  return (
    (await page
      .locator(`${tid('chat-assistant')} .bubble, ${tid('chat-error')} .bubble`)
      .last()
      .textContent()) ?? ''
  );
}

export async function tab(
  page: Page,
  id: 'memory' | 'recall' | 'importance' | 'profile' | 'privacy' | 'sync' | 'data',
): Promise<void> {
  await page.click(tid(`tab-${id}`));
}

/** Wait until `count(selector)` satisfies `predicate`; resolves to the count. */
export async function countWhen(page: Page, selector: string, predicate: string): Promise<number> {
  await page.waitForFunction(
    ([sel, pred]) => new Function('n', `return ${pred}`)(document.querySelectorAll(sel).length),
    [selector, predicate] as const,
    {
      timeout: 30_000,
    },
  );
  return page.locator(selector).count();
}

/** Set one of the Memory tab's list filters and apply it (the panel refreshes on `change`). */
export async function setFilter(
  page: Page,
  filter: 'kind' | 'tag' | 'from' | 'to' | 'text',
  value: string,
): Promise<void> {
  if (filter === 'kind') {
    await page.selectOption(tid('filter-kind'), value);
    return;
  }
  await page.fill(tid(`filter-${filter}`), value);
  await page.dispatchEvent(tid(`filter-${filter}`), 'change');
}

export async function addMemory(page: Page, title: string, text: string, kind = 'fact'): Promise<void> {
  await tab(page, 'memory');
  const details = page.locator('details.add');
  if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open))) await page.click(tid('add-toggle'));
  await page.fill(tid('add-title'), title);
  await page.fill(tid('add-text'), text);
  await page.selectOption(tid('add-kind'), kind);
  await page.click(tid('add-submit'));
  await page.waitForFunction(
    (t) => [...document.querySelectorAll('[data-testid="ltm-text"]')].some((e) => e.textContent?.includes(t)),
    title,
    {
      timeout: 30_000,
    },
  );
}

/** Move the header's demo clock forward (+1 day, +30 days, +365 days). */
export async function jumpClock(page: Page, by: 'day' | 'month' | 'year'): Promise<void> {
  const before = await page.getAttribute(tid('clock-bar'), 'data-offset-days');
  await page.click(tid(`clock-plus-${by}`));
  await page.waitForFunction(
    (b) => document.querySelector('[data-testid="clock-bar"]')?.getAttribute('data-offset-days') !== b,
    before,
  );
}

/** Put the header's demo clock back to real time. */
export async function resetClock(page: Page): Promise<void> {
  await page.click(tid('clock-reset'));
  await page.waitForSelector(`${tid('clock-bar')}[data-offset-days="0"]`);
}

/** Run one step of the guided start; resolves to the sentence that says where to look. */
export async function guideStep(page: Page, step: 'tell' | 'ask' | 'clock' | 'encrypt'): Promise<string> {
  await page.click(tid(`guide-step-${step}`));
  await page.waitForFunction(
    (id) => {
      const look = document.querySelector(`[data-testid="guide-look-${id}"]`)?.textContent ?? '';
      return look !== '' && look !== 'Working…';
    },
    step,
    { timeout: 30_000 },
  );
  return (await page.textContent(tid(`guide-look-${step}`))) ?? '';
}

/** Hide the guided-start card (remembered in localStorage). */
export async function dismissGuide(page: Page): Promise<void> {
  await page.click(tid('guide-dismiss'));
  await page.waitForSelector(`${tid('guide-card')}[hidden]`, { state: 'attached' });
}

/** Turn encryption on in the Privacy panel with `passphrase`, then reload; resolves once the unlock screen shows. */
export async function encryptAndReload(page: Page, passphrase: string): Promise<void> {
  await tab(page, 'privacy');
  await page.fill(tid('passphrase-input'), passphrase);
  await page.click(tid('encrypt-enable'));
  await page.waitForSelector(`${tid('encryption-status')}[data-state="on"]`);
  await page.reload();
  await page.waitForSelector(tid('unlock-form'));
}

/**
 * The error on screen: next to the action that failed (`action-error`; a chat turn's shows in the
 * conversation instead, see {@link chat}), or in the banner for the rest; waits for one to show.
 */
export async function errorBanner(page: Page): Promise<string> {
  const shown = `${tid('error-banner')}:not([hidden]), ${tid('action-error')}`;
  await page.waitForSelector(shown, { timeout: 10_000 });
  return (await page.locator(shown).last().textContent()) ?? '';
}

/** IndexedDB stores (of every database of the page's origin) whose bytes contain `needle` as UTF-8. */
export async function idbStoresContaining(page: Page, needle: string): Promise<string[]> {
  return page.evaluate(async (needle) => {
    const collect = (v: unknown): number[] => {
      if (v instanceof Uint8Array) return [...v];
      if (v instanceof ArrayBuffer) return [...new Uint8Array(v)];
      if (typeof v === 'string') return [...new TextEncoder().encode(v)];
      if (v && typeof v === 'object') return Object.values(v).flatMap(collect);
      return [];
    };
    const found: string[] = [];
    for (const { name } of await indexedDB.databases()) {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const r = indexedDB.open(name!);
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
      for (const store of db.objectStoreNames) {
        const values = await new Promise<unknown[]>((resolve) => {
          const r = db.transaction(store).objectStore(store).getAll();
          r.onsuccess = () => resolve(r.result);
        });
        if (new TextDecoder().decode(new Uint8Array(values.flatMap(collect))).includes(needle))
          found.push(`${name}/${store}`);
      }
      db.close();
    }
    return found;
  }, needle);
}

// ---------------------------------------------------------------- dialogs, import, clock (memtab)

/** Answer the demo's in-page confirmation dialog (`confirm-dialog`): `yes` confirms, otherwise Cancel. */
export async function answerConfirm(page: Page, yes: boolean): Promise<void> {
  await page.waitForSelector(`${tid('confirm-dialog')}[open]`, { timeout: 10_000 });
  await page.click(tid(yes ? 'confirm-yes' : 'confirm-no'));
  await page.waitForSelector(tid('confirm-dialog'), { state: 'detached', timeout: 10_000 });
}

/** Delete a long-term row through its Delete button and the confirmation. */
export async function deleteRow(page: Page, which: 'first' | 'last' = 'first'): Promise<void> {
  await page.locator(tid('ltm-delete'))[which]().click();
  await answerConfirm(page, true);
}

/** A long-term entry as it appears in a `zerda-export` document. */
export interface ExportedEntry {
  id: string;
  tenantId: string;
  userId?: string;
  content: { title: string; text: string } | { input: string; output: string };
  tier: 'long_term';
  kind: string;
  createdAt: number;
  lastAccess: number;
  importance: number;
  accessCount: number;
  tags: string[];
  metadata: Record<string, unknown>;
  version: number;
}

/**
 * Import entries through the Data panel's "Import JSON" (the file is built in the page, so a
 * large import costs no transfer). With `vectors`, a random unit vector per entry for the demo's
 * model is included, so the import computes none (for size tests, not for recall quality).
 * Resolves when the panel reports the import.
 */
export async function importEntries(page: Page, entries: ExportedEntry[], vectors = false): Promise<void> {
  await page.evaluate(
    async ({ entries, vectors }) => {
      const doc: Record<string, unknown> = {
        format: 'zerda-export',
        version: 1,
        exportedAt: Date.now(),
        entries,
        profiles: [],
      };
      if (vectors) {
        const label = document.querySelector('[data-testid="stats-embedder"]')?.textContent ?? '';
        const m = /^(.*) \((\d+)-d\)$/.exec(label);
        if (!m) throw new Error(`no embedder shown in the Data panel: “${label}”`);
        const dim = Number(m[2]);
        const data = new Float32Array(entries.length * dim);
        for (let i = 0; i < entries.length; i++) {
          let norm = 0;
          for (let j = 0; j < dim; j++) {
            const x = Math.random() - 0.5;
            data[i * dim + j] = x;
            norm += x * x;
          }
          norm = Math.sqrt(norm);
          for (let j = 0; j < dim; j++) data[i * dim + j]! /= norm;
        }
        const bytes = new Uint8Array(data.buffer);
        let binary = '';
        for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
        const tenantId = (entries[0] as { tenantId: string }).tenantId;
        doc.vectors = [
          {
            tenantId,
            model: { id: m[1], dim },
            ids: entries.map((e) => (e as { id: string }).id),
            data: btoa(binary),
          },
        ];
      }
      const input = document.querySelector<HTMLInputElement>('[data-testid="import-file"]')!;
      const files = new DataTransfer();
      files.items.add(new File([JSON.stringify(doc)], 'generated.json', { type: 'application/json' }));
      input.files = files.files;
      input.dispatchEvent(new Event('change'));
    },
    { entries, vectors },
  );
  await page.waitForSelector(`${tid('import-result')}[data-entries="${entries.length}"]`, { timeout: 150_000 });
}

/** The demo's Export JSON, downloaded and parsed. */
export async function exportJson(page: Page): Promise<{ entries: ExportedEntry[] }> {
  await tab(page, 'data');
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(tid('export-json'))]);
  const { readFile } = await import('node:fs/promises');
  return JSON.parse(await readFile((await file.path())!, 'utf8')) as { entries: ExportedEntry[] };
}
