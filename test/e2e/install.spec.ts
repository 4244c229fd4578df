/**
 * The stranger's path: pack @zerda/{core,sqlite,embeddings,browser}, `npm install` the tarballs
 * into a copy of examples/vite-app outside the workspace, type-check it with `skipLibCheck: false`,
 * build it with the `zerda()` plugin and nothing else, and drive it in Chromium (save, reload,
 * recall by meaning, nothing fetched off-origin, no console warnings); then the same app on the
 * Vite dev server; and the MV3 example extension (examples/mv3-extension), installed the same way,
 * loaded unpacked. Prints the bytes fetched on the first visit and on a reload.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath, launchBrowser } from './harness.ts';
import {
  installExamples,
  packPackages,
  recordConsole,
  recordTraffic,
  removeDir,
  run,
  startVite,
  type Server,
} from './consumer.ts';

let browser: Browser;
let root: string;
let app: string;
let bin: string;
const cleanup: string[] = [];

beforeAll(async () => {
  const tarballs = await packPackages(join(REPO_TMP(), 'tarballs'));
  const installed = await installExamples(['vite-app', 'mv3-extension'], tarballs);
  root = installed.root;
  app = installed.app;
  bin = join(app, 'node_modules/.bin');
  if (installed.install.code !== 0) throw new Error(`npm install failed:\n${installed.install.output}`);
  browser = await launchBrowser();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  if (root) await removeDir(root);
  for (const dir of cleanup) await removeDir(dir);
});

function REPO_TMP(): string {
  return join(import.meta.dirname, '../../.tmp/install-spec');
}

test('a browser install has no Node-only packages (no onnxruntime-node, no sharp)', async () => {
  const modules = await readdir(join(app, 'node_modules'));
  expect(modules).toContain('onnxruntime-web');
  expect(modules).not.toContain('onnxruntime-node');
  expect(modules).not.toContain('sharp');
  expect(existsSync(join(app, 'node_modules/@huggingface/transformers'))).toBe(false);
});

test('the app type-checks against the published declarations with skipLibCheck: false', async () => {
  const r = await run(join(bin, 'tsc'), ['--noEmit', '-p', 'tsconfig.json'], app);
  expect(r.output).toBe('');
  expect(r.code).toBe(0);
});

async function waitReady(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready', undefined, {
    timeout: 120_000,
  });
}

async function saveAndRecall(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const z = (globalThis as unknown as { zerdaApp: { remember(t: string): Promise<void> } }).zerdaApp;
    await z.remember('My birthday is on the fourth of July.');
    await z.remember('I go hiking in the mountains every weekend.');
    await z.remember('My favourite programming language is Rust.');
  });
}

async function recall(page: Page, query: string): Promise<string[]> {
  return page.evaluate(
    (q) => (globalThis as unknown as { zerdaApp: { recall(q: string): Promise<string[]> } }).zerdaApp.recall(q),
    query,
  );
}

test('built with the plugin: saves, survives a reload, recalls by meaning, stays on its origin', async () => {
  const build = await run(join(bin, 'vite'), ['build'], app);
  expect(build.code, build.output).toBe(0);
  const assets = await readdir(join(app, 'dist/assets'));
  // Only the ONNX Runtime build that runs: no WebGPU/asyncify or JSEP WASM in the output.
  expect(
    assets
      .filter((f) => f.endsWith('.wasm'))
      .map((f) => f.replace(/-[\w-]{8}\.wasm$/, '.wasm'))
      .sort(),
  ).toEqual(['ort-wasm-simd-threaded.wasm', 'sql-wasm-browser.wasm']);
  let total = 0;
  for (const f of assets) total += (await stat(join(app, 'dist/assets', f))).size;

  const server = await startVite(bin, app, ['preview']);
  try {
    const ctx = await browser.newContext();
    const traffic = await recordTraffic(ctx, server.url.replace(/\/$/, ''), false);
    const page = await ctx.newPage();
    const problems = recordConsole(page);
    await page.goto(server.url);
    await waitReady(page);
    const first = await traffic.bytes();
    const firstRequests = traffic.requests.length;
    expect(
      await page.evaluate(() => (globalThis as unknown as { zerdaApp: { modelId: string } }).zerdaApp.modelId),
    ).toContain('use-lite');
    await saveAndRecall(page);

    traffic.reset();
    await page.reload();
    await waitReady(page);
    const reload = await traffic.bytes();
    const hits = await recall(page, 'When is my birthday?');
    expect(hits[0]).toBe('My birthday is on the fourth of July.');
    expect((await recall(page, 'outdoor activities'))[0]).toBe('I go hiking in the mountains every weekend.');

    expect(traffic.offOrigin).toEqual([]);
    expect(problems).toEqual([]);
    // The budget for a first visit on the WASM path, model included (compressed as any host serves it).
    expect(first).toBeLessThanOrEqual(12_000_000);
    expect(reload).toBeLessThan(100_000);
    console.log(
      `[install] build output ${(total / 1e6).toFixed(1)} MB; first visit ${(first / 1e6).toFixed(2)} MB in ${firstRequests} requests; ` +
        `reload ${(reload / 1e6).toFixed(2)} MB in ${traffic.requests.length} requests`,
    );
    await ctx.close();
  } finally {
    await server.close();
  }
});

test('the dev server serves the app with no extra config: model loads, no errors', async () => {
  let server: Server | undefined;
  try {
    server = await startVite(bin, app, []);
    const ctx = await browser.newContext();
    const traffic = await recordTraffic(ctx, server.url.replace(/\/$/, ''));
    const page = await ctx.newPage();
    const problems = recordConsole(page);
    await page.goto(server.url);
    await waitReady(page);
    await page.evaluate(() =>
      (globalThis as unknown as { zerdaApp: { remember(t: string): Promise<void> } }).zerdaApp.remember(
        'I am allergic to peanuts.',
      ),
    );
    expect((await recall(page, 'What food should I avoid?'))[0]).toBe('I am allergic to peanuts.');
    expect(traffic.offOrigin).toEqual([]);
    expect(problems.filter((p) => !p.includes('[vite]'))).toEqual([]);
    expect(server.output()).not.toMatch(/error/i);
    await ctx.close();
  } finally {
    await server?.close();
  }
});

test('the MV3 example extension loads unpacked: popup -> background -> offscreen document saves and recalls by meaning; the service worker keeps a hash memory of its own', async () => {
  const ext = join(app, 'mv3-extension');
  const build = await run(join(bin, 'vite'), ['build'], ext);
  expect(build.code, build.output).toBe(0);
  const dist = join(ext, 'dist');
  const profile = await mkdtemp(join(tmpdir(), 'zerda-ext-profile-'));
  cleanup.push(profile);
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    args: [
      ...CHROMIUM_ARGS.filter((a) => a !== '--headless'),
      `--disable-extensions-except=${dist}`,
      `--load-extension=${dist}`,
    ],
  });
  try {
    const worker = ctx.serviceWorkers()[0] ?? (await ctx.waitForEvent('serviceworker', { timeout: 30_000 }));
    const origin = `chrome-extension://${new URL(worker.url()).host}`;
    expect(origin).toMatch(/^chrome-extension:\/\//);
    const seen: string[] = [];
    ctx.on('request', (r) => seen.push(r.url()));
    const popup = await ctx.newPage();
    const problems = recordConsole(popup);
    await popup.goto(`${origin}/popup.html`);
    type Where = { where?: 'offscreen' | 'service-worker' };
    type Ask = (
      r: ({ type: 'remember'; text: string } | { type: 'recall'; query: string }) & Where,
    ) => Promise<string[]>;
    await popup.evaluate(async () => {
      const { ask } = (globalThis as unknown as { zerdaPopup: { ask: Ask } }).zerdaPopup;
      await ask({ type: 'remember', text: 'My birthday is on the fourth of July.' });
      await ask({ type: 'remember', text: 'I go hiking in the mountains every weekend.' });
      await ask({ type: 'remember', text: 'My favourite programming language is Rust.' });
    });
    const recall = (query: string) =>
      popup.evaluate(
        (q) => (globalThis as unknown as { zerdaPopup: { ask: Ask } }).zerdaPopup.ask({ type: 'recall', query: q }),
        query,
      );
    expect((await recall('When is my birthday?'))[0]).toBe('My birthday is on the fourth of July.');
    expect((await recall('outdoor activities'))[0]).toBe('I go hiking in the mountains every weekend.');
    // The service worker's own memory (`embedder: 'hash'`, no Web Worker there): opens, saves, recalls.
    const here = await popup.evaluate(async () => {
      const { ask } = (globalThis as unknown as { zerdaPopup: { ask: Ask } }).zerdaPopup;
      await ask({ type: 'remember', text: 'The spare key is under the blue flowerpot.', where: 'service-worker' });
      await ask({ type: 'remember', text: 'My favourite programming language is Rust.', where: 'service-worker' });
      return ask({ type: 'recall', query: 'Where is the spare key?', where: 'service-worker' });
    });
    expect(here[0]).toBe('The spare key is under the blue flowerpot.');
    expect(seen.filter((u) => !u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:'))).toEqual([]);
    expect(problems).toEqual([]);
  } finally {
    await ctx.close();
  }
});
