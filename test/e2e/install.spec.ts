/**
 * The stranger's path: pack @zerda/{core,sqlite,embeddings,browser}, `npm install` the tarballs
 * into a copy of examples/vite-app outside the workspace, type-check it with `skipLibCheck: false`,
 * build it with the `zerda()` plugin and nothing else, and drive it in Chromium (save, reload,
 * recall by meaning, nothing fetched off-origin, no console warnings); then the same app on the
 * Vite dev server. Prints the bytes fetched on the first visit and on a reload.
 */
import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './harness.ts';
import { installExample, packPackages, recordConsole, recordTraffic, removeDir, run, startVite, type Server } from './consumer.ts';

let browser: Browser;
let root: string;
let app: string;
let tarballDir: string;

beforeAll(async () => {
  tarballDir = join(REPO_TMP(), 'tarballs');
  const tarballs = await packPackages(tarballDir);
  const installed = await installExample('vite-app', tarballs);
  root = installed.root;
  app = installed.app;
  if (installed.install.code !== 0) throw new Error(`npm install failed:\n${installed.install.output}`);
  browser = await launchBrowser();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  if (root) await removeDir(root);
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
  const r = await run(join(app, 'node_modules/.bin/tsc'), ['--noEmit', '-p', 'tsconfig.json'], app);
  expect(r.output).toBe('');
  expect(r.code).toBe(0);
});

async function waitReady(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready', undefined, { timeout: 120_000 });
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
  return page.evaluate((q) => (globalThis as unknown as { zerdaApp: { recall(q: string): Promise<string[]> } }).zerdaApp.recall(q), query);
}

test('built with the plugin: saves, survives a reload, recalls by meaning, stays on its origin', async () => {
  const build = await run(join(app, 'node_modules/.bin/vite'), ['build'], app);
  expect(build.code, build.output).toBe(0);
  const assets = await readdir(join(app, 'dist/assets'));
  // Only the ONNX Runtime build that runs: no WebGPU/asyncify or JSEP WASM in the output.
  expect(assets.filter((f) => f.endsWith('.wasm')).map((f) => f.replace(/-[\w-]{8}\.wasm$/, '.wasm')).sort())
    .toEqual(['ort-wasm-simd-threaded.wasm', 'sql-wasm-browser.wasm']);
  let total = 0;
  for (const f of assets) total += (await stat(join(app, 'dist/assets', f))).size;

  const server = await startVite(app, ['preview']);
  try {
    const ctx = await browser.newContext();
    const traffic = await recordTraffic(ctx, server.url.replace(/\/$/, ''));
    const page = await ctx.newPage();
    const problems = recordConsole(page);
    await page.goto(server.url);
    await waitReady(page);
    const first = await traffic.bytes();
    const firstRequests = traffic.requests.length;
    expect(await page.evaluate(() => (globalThis as unknown as { zerdaApp: { modelId: string } }).zerdaApp.modelId)).toContain('use-lite');
    await saveAndRecall(page);

    traffic.reset();
    await page.reload();
    await waitReady(page);
    const reload = await traffic.bytes();
    const hits = await recall(page, 'When were you born?');
    expect(hits[0]).toBe('My birthday is on the fourth of July.');
    expect((await recall(page, 'outdoor activities'))[0]).toBe('I go hiking in the mountains every weekend.');

    expect(traffic.offOrigin).toEqual([]);
    expect(problems).toEqual([]);
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
    server = await startVite(app, []);
    const ctx = await browser.newContext();
    const traffic = await recordTraffic(ctx, server.url.replace(/\/$/, ''));
    const page = await ctx.newPage();
    const problems = recordConsole(page);
    await page.goto(server.url);
    await waitReady(page);
    await page.evaluate(() => (globalThis as unknown as { zerdaApp: { remember(t: string): Promise<void> } }).zerdaApp.remember('I am allergic to peanuts.'));
    expect((await recall(page, 'What food should I avoid?'))[0]).toBe('I am allergic to peanuts.');
    expect(traffic.offOrigin).toEqual([]);
    expect(problems.filter((p) => !p.includes('[vite]'))).toEqual([]);
    expect(server.output()).not.toMatch(/error/i);
    await ctx.close();
  } finally {
    await server?.close();
  }
});
