/**
 * A model from a hub the app names: a local HTTP server stands in for the Hugging Face hub and
 * serves the bundled model under the hub's layout (`/<model>/resolve/main/<file>`). The page
 * downloads it with progress (`allowRemoteModels` + `remoteHost`), keeps it in Cache Storage, and
 * loads it again after a reload with the hub gone.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join, normalize } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, offlineContext, pageReady, REPO_ROOT, servePage, type ServedPage } from './harness.ts';

const MODEL_DIR = join(REPO_ROOT, 'packages/embeddings/model/use-lite');
const PREFIX = '/zerda-test/use-lite/resolve/main/';

/** The local stand-in for the hub: serves MODEL_DIR under PREFIX with CORS, and records every request. */
interface Hub {
  url: string;
  /** `METHOD /path?query` of every request, in order. */
  requests: string[];
  /** Stop serving (nothing to do once stopped). */
  close(): Promise<void>;
}

async function startHub(): Promise<Hub> {
  const requests: string[] = [];
  const server = createServer(async (req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const cors = { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'content-length' };
    if (req.method === 'OPTIONS') return res.writeHead(204, { ...cors, 'access-control-allow-headers': '*' }).end();
    const path = decodeURIComponent((req.url ?? '').split('?')[0]!);
    const file = path.startsWith(PREFIX) ? normalize(path.slice(PREFIX.length)) : undefined;
    const size =
      file && !file.startsWith('..')
        ? await stat(join(MODEL_DIR, file)).then(
            (s) => s.size,
            () => undefined,
          )
        : undefined;
    if (size === undefined) return res.writeHead(404, cors).end();
    res.writeHead(200, { ...cors, 'content-length': String(size), 'content-type': 'application/octet-stream' });
    if (req.method === 'HEAD') return res.end();
    createReadStream(join(MODEL_DIR, file!)).pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('hub has no port');
  return {
    url: `http://127.0.0.1:${address.port}/`,
    requests,
    close: async () => {
      if (server.listening) await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

let browser: Browser;
let served: ServedPage;
let hub: Hub;

beforeAll(async () => {
  hub = await startHub();
  served = await servePage(join(import.meta.dirname, 'pages/remote-model'));
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await served?.close();
  await hub?.close();
});

interface Loaded {
  modelId: string;
  dim: number;
  related: number;
  unrelated: number;
  statuses: string[];
  modelBytes: number;
  cached: boolean;
}

interface RemoteModelPage {
  load(host: string): Promise<Loaded>;
  loadFiles(files: Record<string, string>): Promise<string>;
  lastProgress(): string;
}

// retry: once in a CI rehearsal this test timed out (180 s) without saying where; it passed alone
// and 10 of 10 times under extra CPU load. Each load is now bounded at 60 s and says how far it
// got; one retry guards the run, a second failure still fails it.
test('downloads from the named host with progress, caches it, and loads it again offline', { retry: 1 }, async () => {
  const ctx = await offlineContext(browser);
  const tab = await ctx.newPage();
  const load = async (): Promise<Loaded> => {
    await tab.goto(served.url);
    await tab.waitForFunction(pageReady);
    return tab.evaluate((host) => {
      const page = (globalThis as unknown as { remoteModelPage: RemoteModelPage }).remoteModelPage;
      return Promise.race([
        page.load(host),
        new Promise<never>((_, reject) =>
          setTimeout(
            () => reject(new Error(`the model load did not settle within 60 s; last progress: ${page.lastProgress()}`)),
            60_000,
          ),
        ),
      ]);
    }, hub.url);
  };

  const first = await load();
  expect(first.modelId).toBe('transformers:zerda-test/use-lite:q8:mean');
  expect(first.dim).toBe(512);
  expect(first.related).toBeGreaterThan(first.unrelated + 0.2);
  expect(first.statuses).toEqual(expect.arrayContaining(['initiate', 'progress', 'done', 'ready']));
  const onnxBytes = (await stat(join(MODEL_DIR, 'onnx/model_quantized.onnx'))).size;
  expect(first.modelBytes).toBe(onnxBytes);
  expect(first.cached).toBe(true);
  expect(hub.requests.some((r) => r.endsWith('/onnx/model_quantized.onnx') && r.startsWith('GET'))).toBe(true);
  // Nothing was looked for on the app's own origin.
  expect(hub.requests.every((r) => r.includes(PREFIX))).toBe(true);

  // The hub goes away; a reload loads the same model from Cache Storage.
  await hub.close();
  const before = hub.requests.length;
  const second = await load();
  expect(hub.requests.length).toBe(before);
  expect(second.modelId).toBe(first.modelId);
  expect(second.related).toBeCloseTo(first.related, 5);
  await ctx.close();
});

test('a model file the host does not have: the error names the URL that answered 404 (not an internal path)', async () => {
  const missingHub = await startHub();
  try {
    const ctx = await offlineContext(browser);
    const tab = await ctx.newPage();
    await tab.goto(served.url);
    await tab.waitForFunction(pageReady);
    const at = (file: string) => `${missingHub.url}${PREFIX.slice(1)}${file}`;
    const missing = `${missingHub.url}assets/model_quantized-1a2b3c4d.onnx`;
    const message = await tab.evaluate(
      (files) => (globalThis as unknown as { remoteModelPage: RemoteModelPage }).remoteModelPage.loadFiles(files),
      {
        'config.json': at('config.json'),
        'tokenizer.json': at('tokenizer.json'),
        'tokenizer_config.json': at('tokenizer_config.json'),
        'onnx/model_quantized.onnx': missing,
      },
    );
    expect(message).toContain(`EMBEDDING: Could not load embedding model "use-lite": ${missing} answered 404`);
    expect(message).not.toContain('@zerda-model-files');
    await ctx.close();
  } finally {
    await missingHub.close();
  }
});
