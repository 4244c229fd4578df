/**
 * The cross-engine subset: the same assertions on Chromium, Firefox ESR and WebKitGTK through the
 * driver layer in ./driver.ts. The engine comes from ZERDA_ENGINE (vitest projects `e2e`
 * → chromium, `e2e-firefox`, `e2e-webkit`). The deep suites (../*.spec.ts) stay on Chromium.
 *
 * Covered here, on every engine: what the engine offers (feature detection, with the expected
 * differences written down as assertions); storage durability across reload and across SIGKILL
 * of the browser process in the middle of a write burst; a second writer refused with CONFLICT;
 * two tabs sharing one database with Web Locks, and ownership taken over when the owner closes;
 * the explicit fallback where Web Locks are missing; encryption with right and wrong
 * passphrases; the worker embedder with the bundled model; the demo's main path (chat, recall
 * from memory, reload).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { pageReady, REPO_ROOT, servePage, type ServedPage } from '../harness.ts';
import type { SqlitePageApi } from '../pages/sqlite/main.ts';
import { dbNamer, fillUntilQuota, openDb, openSqliteTab, SQLITE_PAGE } from '../sqlite-page.ts';
import { expectBundledModelInfo, expectEmbeddingBasics } from '../embedder-expectations.ts';
import { ENGINE, engineMissing, launchEngine, waitFor, type EngineBrowser, type EnginePage } from './driver.ts';

const ARTIFACTS = join(REPO_ROOT, 'test/e2e/.artifacts');

declare const z: SqlitePageApi;
declare const window: Window &
  Record<string, unknown> & { embeddingsPage: Record<string, () => Promise<Record<string, unknown>>> };

const missing = engineMissing(ENGINE);
if (missing) console.warn(`[engines] skipping ${ENGINE}: ${missing}`);

describe.skipIf(!!missing)(`${ENGINE}: storage, tabs, encryption`, () => {
  let profile: string;
  let browser: EngineBrowser;
  let sqlite: ServedPage;

  beforeAll(async () => {
    profile = await mkdtemp(join(tmpdir(), `zerda-${ENGINE}-`));
    sqlite = await servePage(SQLITE_PAGE);
    browser = await launchEngine(ENGINE, { profileDir: profile });
    console.log(`[engines] ${ENGINE} ${browser.version}`);
  });
  afterAll(async () => {
    await browser?.close();
    await sqlite?.close();
    if (profile) await rm(profile, { recursive: true, force: true });
  });

  const tab = (db?: string): Promise<EnginePage> => openSqliteTab(browser, sqlite.url, db);
  const dbName = dbNamer('x');

  test('feature detection: what the engine offers, and the differences we rely on', async () => {
    const page = await tab();
    const f = await page.evaluate(async () => {
      const db = await new Promise<IDBDatabase>((res, rej) => {
        const r = indexedDB.open('probe-durability', 1);
        r.onupgradeneeded = () => r.result.createObjectStore('s');
        r.onsuccess = () => res(r.result);
        r.onerror = () => rej(r.error);
      });
      const tx = db.transaction('s', 'readwrite', { durability: 'strict' });
      const durability = (tx as IDBTransaction & { durability?: string }).durability ?? 'not exposed';
      tx.abort();
      db.close();
      // The smallest module that uses a v128 instruction (i32x4.splat): compiles only with WASM SIMD.
      const simd = WebAssembly.validate(
        new Uint8Array([
          0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 8, 1, 6, 0, 65, 0, 253, 17, 11,
        ]),
      );
      let moduleWorker = false;
      try {
        const w = new Worker(
          URL.createObjectURL(new Blob(['import.meta; postMessage(1)'], { type: 'text/javascript' })),
          { type: 'module' },
        );
        moduleWorker = await new Promise<boolean>((res) => {
          w.onmessage = () => res(true);
          w.onerror = () => res(false);
          setTimeout(() => res(false), 5000);
        });
        w.terminate();
      } catch {
        moduleWorker = false;
      }
      return {
        locks: typeof navigator.locks?.request === 'function',
        broadcastChannel: typeof BroadcastChannel === 'function',
        durability,
        simd,
        moduleWorker,
        crossOriginIsolated: globalThis.crossOriginIsolated === true,
        sharedArrayBuffer: typeof SharedArrayBuffer === 'function',
        cacheStorage: typeof caches?.open === 'function',
        persistApi: typeof navigator.storage?.persist === 'function',
        persisted: typeof navigator.storage?.persisted === 'function' ? await navigator.storage.persisted() : null,
        estimate: typeof navigator.storage?.estimate === 'function',
        userAgent: navigator.userAgent,
      };
    });
    console.log(`[engines] ${ENGINE} features`, JSON.stringify(f));
    // The same on all three engines (if one of these ever changes, the library's handling of it
    // needs a look: see README "Browser engines").
    expect(f).toMatchObject({
      locks: true,
      broadcastChannel: true,
      simd: true,
      moduleWorker: true,
      crossOriginIsolated: true,
      cacheStorage: true,
    });
    // WebKitGTK: cross-origin isolated, yet no SharedArrayBuffer, so no WASM threads (the
    // embedder asks for one thread there instead of having ORT fall back with a console warning),
    // and no navigator.storage.estimate() (nothing in Zerda needs it).
    expect(f.sharedArrayBuffer).toBe(ENGINE !== 'webkit');
    expect(f.estimate).toBe(ENGINE !== 'webkit');
    // WebKitGTK has no navigator.storage.persist()/persisted() either (Safari has them since 15.2;
    // there, sites not added to the home screen are evicted after 7 days without use regardless).
    // Zerda never calls them itself: asking for persistence is the app's decision.
    expect(f.persistApi).toBe(ENGINE !== 'webkit');
    // Nothing is persisted (exempt from eviction) unless the site asks and the browser grants it.
    expect(f.persisted).toBe(ENGINE === 'webkit' ? null : false);
    // Known differences, asserted so a change is noticed. `durability: 'strict'` is honoured
    // where the engine reports it back; where the attribute is missing the request is ignored
    // silently by the browser, which IndexedDbPersistence reports as `effectiveDurability`.
    expect(f.durability).toBe({ chromium: 'strict', firefox: 'strict', webkit: 'strict' }[ENGINE]);
    await page.close();
  });

  test('writes survive a reload (snapshot + log replay from IndexedDB)', async () => {
    const name = dbName('reload');
    const page = await tab(name);
    await page.evaluate(() => z.write(40, 'r'));
    await page.reload();
    await waitFor(page, pageReady);
    const opened = await page.evaluate((name) => z.open({ name }), name);
    expect(opened.report?.replayed).toBe(40);
    expect(await page.evaluate(() => z.count())).toBe(40);
    expect(await page.evaluate(() => z.search('memory 7'))).toContain('r-7');
    await page.close();
  });

  test('a second writer on the same database is refused with CONFLICT (no interleaved logs)', async () => {
    const name = dbName('conflict');
    const a = await tab();
    const b = await tab();
    await openDb(a, name);
    await a.evaluate(() => z.write(3, 'x'));
    expect((await b.evaluate((name) => z.open({ name }), name)).error?.code).toBe('CONFLICT');
    await a.close();
    // Chromium frees the closed tab's lock at once; the WebDriver engines may take a moment.
    if (ENGINE === 'chromium') expect((await b.evaluate((name) => z.open({ name }), name)).error).toBeUndefined();
    else await waitFor(b, (name) => z.open({ name }).then((r) => r.ok), name, 30_000);
    expect(await b.evaluate(() => z.count())).toBe(3);
    await b.close();
  });

  test('two tabs share one database through Web Locks; the other takes over when the owner closes', async () => {
    const name = dbName('tabs');
    const a = await tab();
    const b = await tab();
    expect(await a.evaluate((name) => z.open({ name, shared: true }), name)).toMatchObject({ ok: true, owner: true });
    expect(await b.evaluate((name) => z.open({ name, shared: true }), name)).toMatchObject({ ok: true, owner: false });
    // Started in both tabs, then awaited: runs concurrently on every driver (a WebDriver session
    // runs one command at a time). Chromium, the deep-suite engine, takes the larger load.
    const perTab = ENGINE === 'chromium' ? 500 : 200;
    const start = ({ prefix, n }: { prefix: string; n: number }) => {
      window.__done = null;
      void z.write(n, prefix, true).then(
        (k) => (window.__done = k),
        (e: unknown) => (window.__done = String(e)),
      );
    };
    await a.evaluate(start, { prefix: 'A', n: perTab });
    await b.evaluate(start, { prefix: 'B', n: perTab });
    await waitFor(a, () => window.__done !== null, undefined, 120_000);
    await waitFor(b, () => window.__done !== null, undefined, 120_000);
    expect(await a.evaluate(() => window.__done)).toBe(perTab);
    expect(await b.evaluate(() => window.__done)).toBe(perTab);
    expect(await a.evaluate(() => z.count())).toBe(2 * perTab);
    expect(await b.evaluate(() => z.count())).toBe(2 * perTab);
    // The owner tab goes away: the other takes over and still sees everything.
    await a.close();
    await b.evaluate(() => z.write(10, 'after'));
    expect(await b.evaluate(() => z.isOwner())).toBe(true);
    expect(await b.evaluate(() => z.count())).toBe(2 * perTab + 10);
    await b.close();
  });

  test('without Web Locks: sharing fails with UNSUPPORTED, a single writer still works', async () => {
    // No current engine lacks Web Locks (feature test above); older Safari (< 15.4) did. Removing
    // them proves the fallback is explicit, never a silent unsynchronised share.
    const name = dbName('nolocks');
    const page = await tab();
    await page.evaluate(() => void Object.defineProperty(navigator, 'locks', { value: undefined, configurable: true }));
    const shared = await page.evaluate((name) => z.open({ name, shared: true }), name);
    expect(shared.error?.code).toBe('UNSUPPORTED');
    await openDb(page, name);
    await page.evaluate(() => z.write(2, 'n'));
    expect(await page.evaluate(() => z.count())).toBe(2);
    await page.close();
  });

  test('a wrong passphrase fails with DECRYPTION and destroys nothing', async () => {
    const name = dbName('pass');
    const page = await tab();
    await openDb(page, name, 'right horse');
    await page.evaluate(() => z.write(5, 'p'));
    await page.evaluate(() => z.close());
    const wrong = await page.evaluate((name) => z.open({ name, passphrase: 'wrong horse' }), name);
    expect(wrong.ok).toBe(false);
    expect(wrong.error?.code).toBe('DECRYPTION');
    expect((await page.evaluate((name) => z.open({ name }), name)).error?.code).toBe('DECRYPTION');
    await openDb(page, name, 'right horse');
    expect(await page.evaluate(() => z.count())).toBe(5);
    expect(await page.evaluate(() => z.search('memory'))).toHaveLength(5);
    await page.close();
  });

  test('SIGKILL of the browser in the middle of a write burst loses no acknowledged write', async () => {
    const name = dbName('kill');
    const page = await tab(name);
    await page.evaluate(() => {
      const acked: string[] = [];
      window.acked = acked;
      window.ack = (id: string) => acked.push(id);
      void z.write(5000, 'k').catch(() => undefined);
    });
    await waitFor(page, () => (window.acked as string[]).length >= 100, undefined, 120_000);
    const snapshot = await page.evaluate(() => [...(window.acked as string[])]);
    await browser.kill();
    expect(snapshot.length).toBeGreaterThanOrEqual(100);
    browser = await launchEngine(ENGINE, { profileDir: profile });
    const again = await tab(name);
    const stored = new Set(await again.evaluate(() => z.ids()));
    if (ENGINE === 'webkit') {
      // WebKitWebDriver runs MiniBrowser in automation mode, whose website data store is
      // ephemeral: a killed browser takes all its storage with it, so durability across a process
      // kill cannot be observed on WebKit here (reload durability above can). If this ever
      // fails, the store became persistent: drop this branch so the assertions below apply.
      expect(stored.size).toBe(0);
    } else {
      expect(snapshot.filter((id) => !stored.has(id))).toEqual([]);
      expect(stored.size).toBeLessThan(5000);
    }
    await again.close();
  });
});

// On Chromium, embeddings.spec.ts and demo.spec.ts already run these (and much more) in depth.
describe.skipIf(!!missing || ENGINE === 'chromium')(`${ENGINE}: worker embedder and demo`, () => {
  let profile: string;
  let browser: EngineBrowser;
  beforeAll(async () => {
    profile = await mkdtemp(join(tmpdir(), `zerda-${ENGINE}-`));
    browser = await launchEngine(ENGINE, { profileDir: profile });
  });
  afterAll(async () => {
    await browser?.close();
    if (profile) await rm(profile, { recursive: true, force: true });
  });

  // On Firefox, ORT's threaded start-up hung intermittently (init() never settled): the embedder
  // now uses one thread there by default (README "Browser engines"). The 90 s bound and one retry
  // stay as a guard; a second failure still fails.
  test('the worker embedder loads the bundled model from the app origin and embeds', { retry: 1 }, async () => {
    const served = await servePage(join(REPO_ROOT, 'test/e2e/pages/embeddings'));
    try {
      const page = await browser.newPage();
      await page.goto(served.url);
      await waitFor(page, pageReady);
      // Bounded in the page, so a hang fails in 90 s with a message instead of a protocol timeout.
      const info = await page.evaluate(() =>
        Promise.race([
          window.embeddingsPage.init(),
          new Promise<never>((_, reject) =>
            setTimeout(() => reject(new Error('embeddingsPage.init() did not settle within 90 s')), 90_000),
          ),
        ]),
      );
      console.log(`[engines] ${ENGINE} embedder`, JSON.stringify(info));
      expectBundledModelInfo(info);
      const r = await page.evaluate(() => window.embeddingsPage.basics());
      expectEmbeddingBasics(r);
      // Nothing outside the test server was requested by the page.
      const foreign = await page.evaluate(
        (origin) =>
          performance
            .getEntriesByType('resource')
            .map((e) => e.name)
            .filter((u) => !u.startsWith(origin)),
        served.url,
      );
      expect(foreign).toEqual([]);
      await page.evaluate(() => window.embeddingsPage.close());
      await page.close();
    } finally {
      await served.close();
    }
  });

  test("the demo's main path: chat, an answer recalled from memory, persistence across reload", {
    timeout: 300_000,
  }, async () => {
    const served = await servePage(join(REPO_ROOT, 'apps/demo'), {}, { serviceWorker: true });
    try {
      const page = await browser.newPage();
      await page.goto(served.url);
      const ready = () => document.body.dataset.ready === 'true';
      await waitFor(page, ready, undefined, 120_000).catch(async (e: unknown) => {
        await page.screenshot(join(ARTIFACTS, `engines-${ENGINE}-demo-not-ready.png`));
        throw new Error(
          `${String(e)}; page says: ${await page.evaluate(() => (document.body.textContent ?? '').slice(0, 500))}`,
        );
      });
      const chat = async (text: string): Promise<string> => {
        const sel = '[data-testid="chat-assistant"], [data-testid="chat-error"]';
        const before = await page.evaluate((sel) => document.querySelectorAll(sel).length, sel);
        await page.evaluate((text) => {
          const input = document.querySelector('[data-testid="chat-input"]') as HTMLInputElement | HTMLTextAreaElement;
          input.value = text;
          input.dispatchEvent(new Event('input', { bubbles: true }));
          (document.querySelector('[data-testid="chat-send"]') as HTMLButtonElement).click();
        }, text);
        await waitFor(page, ([sel, n]) => document.querySelectorAll(sel).length > n, [sel, before] as const, 60_000);
        return page.evaluate(
          (sel) => [...document.querySelectorAll(sel)].at(-1)!.querySelector('.bubble')?.textContent ?? '',
          sel,
        );
      };
      expect(await chat('I love hiking in the Swiss Alps around Zermatt.')).toMatch(/remember/i);
      expect(await chat('What do I love doing outdoors?')).toContain('hiking');
      await page.screenshot(join(ARTIFACTS, `engines-${ENGINE}-demo.png`));
      const rows = () => [...document.querySelectorAll('[data-testid="ltm-text"]')].map((e) => e.textContent ?? '');
      const before = await page.evaluate(rows);
      expect(before.some((t) => t.includes('Zermatt'))).toBe(true);
      await page.reload();
      await waitFor(page, ready, undefined, 120_000);
      await waitFor(
        page,
        (n) => document.querySelectorAll('[data-testid="ltm-text"]').length === n,
        before.length,
        30_000,
      );
      expect(await page.evaluate(rows)).toEqual(before);
      await page.close();
    } finally {
      await served.close();
    }
  });
});

// Quota exhaustion for real on Firefox: a profile whose storage limit is lowered by preference
// (dom.quotaManager.temporaryStorage.fixedLimit, in KiB). Chromium's equivalent runs in
// sqlite.spec.ts on a small tmpfs; WebKitGTK offers no way to lower it here.
describe.runIf(!missing && ENGINE === 'firefox')('firefox: quota', () => {
  test('IndexedDB over quota: QUOTA_EXCEEDED, and the store holds exactly the acknowledged writes', async () => {
    const profile = await mkdtemp(join(tmpdir(), 'zerda-firefox-quota-'));
    const served = await servePage(SQLITE_PAGE);
    const browser = await launchEngine('firefox', {
      profileDir: profile,
      firefoxPrefs: { 'dom.quotaManager.temporaryStorage.fixedLimit': 12 * 1024 },
    });
    try {
      const page = await openSqliteTab(browser, served.url);
      await openDb(page, 'quota');
      const filled = await fillUntilQuota(page);
      console.log(
        `[engines] firefox quota: ${filled.acked.length} fills acknowledged, then ${JSON.stringify(filled.error)}`,
      );
      await page.evaluate(() => z.close());
      // Unlike Chromium 156 (which discards the origin's store after a disk-full abort, see
      // sqlite.spec.ts), Firefox keeps it: reopening shows every acknowledged write.
      const reopened = await page.evaluate((name) => z.open({ name }), 'quota');
      expect(reopened.ok, JSON.stringify(reopened.error)).toBe(true);
      expect(await page.evaluate(() => z.count())).toBe(20 + filled.acked.length);
      await page.evaluate(() => z.close());
    } finally {
      await browser.close();
      await served.close();
      await rm(profile, { recursive: true, force: true });
    }
  });
});
