import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { join } from 'node:path';
import { openReadyPage, type ReadyPage } from './harness.js';
import { expectBundledModelInfo, expectEmbeddingBasics } from './embedder-expectations.ts';

// The worker embedder with the bundled model, in real Chromium, offline: every request outside
// the test server is aborted, and the spec checks none was even attempted.
let page: ReadyPage;
let tab: Page;
const requests: string[] = [];

beforeAll(async () => {
  page = await openReadyPage(join(import.meta.dirname, 'pages/embeddings'), (ctx) =>
    ctx.on('request', (r) => requests.push(r.url())),
  );
  tab = page.tab;
});
afterAll(async () => {
  await tab?.evaluate(() => window.embeddingsPage.close()).catch(() => undefined);
  await page?.close();
});

test('the worker loads the bundled model offline, from the app origin only', async () => {
  const info = await tab.evaluate(() => window.embeddingsPage.init());
  console.log('[embeddings] load', JSON.stringify(info));
  expectBundledModelInfo(info);
  expect(info.loadStatuses).toContain('done');
  const foreign = requests.filter((u) => !u.startsWith(page.url) && !/^(blob|data):/.test(u));
  expect(foreign).toEqual([]);
  expect(requests.some((u) => u.endsWith('.onnx'))).toBe(true);
  expect(requests.some((u) => /ort-wasm-simd-threaded[^/]*\.wasm$/.test(u))).toBe(true);
  // The plain WASM build, never the 27 MB asyncify one from the CDN default.
  expect(requests.some((u) => u.includes('asyncify'))).toBe(false);
});

test('returns 512-d unit vectors in separate buffers; the model ran in the worker', async () => {
  const r = await tab.evaluate(() => window.embeddingsPage.basics());
  expect(r.count).toBe(4);
  expectEmbeddingBasics(r);
});

test('errors keep their code across the worker hop', async () => {
  const r = await tab.evaluate(() => window.embeddingsPage.errorHop());
  expect(r.missingModel).toMatchObject({ rejected: true, isEmbedding: true, instance: true });
  expect(r.missingModel!.message).toContain('no-such-model');
  // A worker that never comes up fails the call with EMBEDDING instead of hanging.
  expect(r.brokenWorker).toMatchObject({ rejected: true, isEmbedding: true });
});

test('aborting on the main thread stops the worker between batches', async () => {
  const r = await tab.evaluate(() => window.embeddingsPage.abortHop());
  console.log('[embeddings] abort', JSON.stringify(r));
  expect(r.code).toBe('ABORTED');
  expect((r.progress as number[]).length).toBeLessThanOrEqual(3);
  expect((r.progress as number[]).at(-1)).toBeLessThan(300);
  expect(r.afterLength).toBe(512);
});

test('the main thread stays responsive while 240 sentences are embedded', async () => {
  const r = await tab.evaluate(() => window.embeddingsPage.responsiveness(240));
  console.log('[embeddings] responsiveness', JSON.stringify(r));
  expect(r.allUnit).toBe(true);
  // Chromium reports tasks over 50 ms. Target: none. A rare one of ~60 ms has been seen on this
  // 2-core VM (GC, or the worker's threads starving the page), so allow a small tolerance.
  expect(r.longestTask as number).toBeLessThanOrEqual(80);
  expect((r.longTasks as number[]).length).toBeLessThanOrEqual(1);
});
