/**
 * Next.js, the most common host of chat UIs, with its default bundler (Turbopack) and server
 * rendering: examples/nextjs installed with npm from the packed tarballs outside the workspace,
 * `npm run build` (sql.js' WASM copied, then `next build`, server pass included), `next start`,
 * and the page driven in Chromium: server-rendered HTML, then the bundled `use-lite` model in a
 * module worker, two notes remembered and each recalled by meaning, nothing fetched off-origin.
 * The slowest browser check (about 3 minutes on a loaded 2-core machine, most of it `next build`).
 */
import { readdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './harness.ts';
import { installConsumer, recordConsole, recordTraffic, removeDir, run, startServer } from './consumer.ts';

let browser: Browser;
let root: string;
let app: string;

beforeAll(async () => {
  ({ root, app } = await installConsumer(['nextjs'], (name) => name !== '@zerda/ai-sdk'));
  browser = await launchBrowser();
}, 480_000);

afterAll(async () => {
  await browser?.close();
  if (root) await removeDir(root);
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

type NextApp = { remember(t: string): Promise<void>; recall(q: string): Promise<string[]>; modelId?: string };
const zerdaApp = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { zerdaApp: NextApp }).zerdaApp.modelId ?? 'none');

test('next build (Turbopack, server rendering) + next start: the page remembers and recalls by meaning with the bundled model, one ONNX Runtime WASM, nothing off-origin', async () => {
  const env = { NEXT_TELEMETRY_DISABLED: '1' };
  const build = await run('npm', ['run', 'build'], app, env, 540_000);
  expect(build.code, build.output).toBe(0);
  // One copy of ONNX Runtime's WASM (the one the bundler emits and the worker loads), none of the
  // WebGPU/asyncify build, and sql.js' WASM only where the copy script put it.
  const media = await readdir(join(app, '.next/static/media'));
  expect(media.filter((f) => f.endsWith('.wasm')).map((f) => f.replace(/\.[\w-]+\.wasm$/, '.wasm'))).toEqual([
    'ort-wasm-simd-threaded.wasm',
  ]);
  expect(await readdir(join(app, 'public/zerda'))).toEqual(['sql-wasm-browser.wasm']);

  const port = await freePort();
  const server = await startServer(
    join(app, 'node_modules/.bin/next'),
    ['start', '-H', '127.0.0.1', '-p', `${port}`],
    app,
    env,
  );
  try {
    // Server rendering: the client component's first state is in the HTML Next sends.
    const html = await (await fetch(server.url)).text();
    expect(html).toContain('<p id="status">loading</p>');

    const ctx = await browser.newContext();
    const traffic = await recordTraffic(ctx, server.url.replace(/\/$/, ''));
    const page = await ctx.newPage();
    const problems = recordConsole(page);
    await page.goto(server.url);
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready', undefined, {
      timeout: 120_000,
    });
    expect(await zerdaApp(page)).toMatch(/use-lite/);
    const recalled = await page.evaluate(async () => {
      const z = (globalThis as unknown as { zerdaApp: NextApp }).zerdaApp;
      await z.remember('My sister Ana lives in Lisbon.');
      await z.remember('I go bouldering at the climbing gym on Thursdays.');
      return { family: await z.recall('Where does my sibling live?'), sport: await z.recall('What sport do I do?') };
    });
    expect(recalled.family[0]).toBe('My sister Ana lives in Lisbon.');
    expect(recalled.sport[0]).toBe('I go bouldering at the climbing gym on Thursdays.');
    expect(traffic.offOrigin).toEqual([]);
    expect(problems).toEqual([]);
    await ctx.close();
  } finally {
    await server.close();
  }
}, 600_000);
