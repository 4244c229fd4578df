/**
 * The Workbox offline path on Firefox ESR and WebKitGTK: examples/pwa-workbox (vite-plugin-pwa's
 * service worker, Zerda's files added from zerda-precache.json) installed with npm from the packed
 * tarballs, built and previewed; one online visit (the service worker precaches the app, the model
 * and both WASM files), then the server is stopped — the origin is gone, as offline — and after a
 * reload the app opens, remembers and recalls by meaning from the cache. On Chromium the same path
 * runs deeper in ../install.spec.ts (with Playwright's offline mode), so it is skipped here.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { installConsumer, removeDir, run, startVite } from '../consumer.ts';
import { ENGINE, engineMissing, launchEngine, waitFor, type EngineBrowser, type EnginePage } from './driver.ts';

const missing = ENGINE === 'chromium' ? 'covered by install.spec.ts' : engineMissing(ENGINE);

type App = {
  remember(t: string): Promise<void>;
  recall(q: string): Promise<string[]>;
  offlineReady(): Promise<unknown>;
};
declare const zerdaApp: App;

describe.skipIf(!!missing)(`${ENGINE}: the Workbox example works offline after one visit`, () => {
  let root: string;
  let dir: string;
  let profile: string;
  let browser: EngineBrowser;

  beforeAll(async () => {
    ({ root, app: dir } = await installConsumer(['pwa-workbox'], (name) => name !== '@zerda/ai-sdk'));
    profile = await mkdtemp(join(tmpdir(), `zerda-pwa-${ENGINE}-`));
    browser = await launchEngine(ENGINE, { profileDir: profile });
  }, 480_000);
  afterAll(async () => {
    await browser?.close();
    if (profile) await rm(profile, { recursive: true, force: true });
    if (root) await removeDir(root);
  });

  const ready = async (page: EnginePage) => {
    await waitFor(page, () => document.getElementById('status')?.textContent === 'ready', undefined, 120_000);
  };

  test('one online visit, then with the server gone: opens, remembers and recalls by meaning', async () => {
    const started = Date.now();
    // NODE_ENV as a stranger's shell has it (vitest sets `test`, which makes Workbox write a development build).
    const build = await run(join(dir, 'node_modules/.bin/vite'), ['build'], dir, { NODE_ENV: 'production' });
    expect(build.code, build.output).toBe(0);
    const server = await startVite(join(dir, 'node_modules/.bin'), dir, ['preview']);
    let stopped = false;
    try {
      const page = await browser.newPage();
      await page.goto(server.url);
      await ready(page);
      // Resolves once Workbox's service worker is active, i.e. its precache is complete.
      await page.evaluate(async () => {
        await zerdaApp.offlineReady();
        await zerdaApp.remember('My sister Ana lives in Lisbon.');
      });

      await server.close();
      stopped = true;
      await page.reload();
      await ready(page);
      const offline = await page.evaluate(async () => {
        const controlled = navigator.serviceWorker.controller !== null;
        await zerdaApp.remember('I adopted a cat named Miso.');
        return {
          controlled,
          cat: (await zerdaApp.recall('What is the name of my cat?'))[0],
          sister: (await zerdaApp.recall('Where does my sister live?'))[0],
        };
      });
      expect(offline).toEqual({
        controlled: true,
        cat: 'I adopted a cat named Miso.',
        sister: 'My sister Ana lives in Lisbon.',
      });
      await page.close();
      console.log(`[offline-pwa] ${ENGINE}: build + both visits ${((Date.now() - started) / 1000).toFixed(0)} s`);
    } finally {
      if (!stopped) await server.close();
    }
  }, 420_000);
});
