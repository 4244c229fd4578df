/**
 * The stranger's path: pack @zerda/{core,sqlite,embeddings,browser}, `npm install` the tarballs
 * into a copy of examples/vite-app outside the workspace, type-check it with `skipLibCheck: false`,
 * build it with the `zerda()` plugin and nothing else, and drive it in Chromium (save, reload,
 * recall by meaning, nothing fetched off-origin, no console warnings); then the same app on the
 * Vite dev server; and the MV3 example extension (examples/mv3-extension), installed the same way,
 * loaded unpacked (its service worker also opens memories itself: `'hash'` and `'none'` work, the
 * default says UNSUPPORTED); and the AI SDK chat (examples/ai-sdk-chat): a fact recalled three turns later,
 * then offline after one visit (Zerda's own service worker, `zerda({ serviceWorker: true })`); and
 * the Workbox example (examples/pwa-workbox: vite-plugin-pwa's service worker, Zerda's files added
 * from zerda-precache.json) offline after one visit. Prints the bytes fetched on the first visit and on a reload.
 * The same tarballs installed with pnpm 10 (strict node_modules: indirect dependencies are not
 * importable) and yarn 1 into a copy of examples/vite-app: type-checked, built, saved and recalled;
 * under pnpm the other-bundler copy scripts also run there and find every file.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath, launchBrowser, REPO_ROOT } from './harness.ts';
import {
  browserReadmeBlock,
  installConsumer,
  installExamples,
  recordConsole,
  recordTraffic,
  removeDir,
  run,
  type PackageManager,
  startVite,
  type Server,
} from './consumer.ts';

let browser: Browser;
let root: string;
let app: string;
let bin: string;
let tarballs: Record<string, string>;
const cleanup: string[] = [];

beforeAll(async () => {
  ({ tarballs, root, app } = await installConsumer(['vite-app', 'mv3-extension', 'ai-sdk-chat', 'pwa-workbox']));
  bin = join(app, 'node_modules/.bin');
  browser = await launchBrowser();
}, 480_000);

afterAll(async () => {
  await browser?.close();
  if (root) await removeDir(root);
  for (const dir of cleanup) await removeDir(dir);
});

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
}, 300_000);

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
    // The budget for a first visit on the WASM path, model included, compressed as most hosts serve
    // it — and as `vite preview` does from Vite 8.4 on (8.3 sent `.wasm` uncompressed: 21.8 MB).
    const vite = (
      JSON.parse(await readFile(join(app, 'node_modules/vite/package.json'), 'utf8')) as { version: string }
    ).version;
    expect(first, `first visit from vite ${vite} preview`).toBeLessThanOrEqual(12_000_000);
    expect(reload).toBeLessThan(100_000);
    console.log(
      `[install] build output ${(total / 1e6).toFixed(1)} MB; vite ${vite} preview: first visit ${(first / 1e6).toFixed(2)} MB in ${firstRequests} requests; ` +
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

test('the MV3 example extension loads unpacked: popup -> background -> offscreen document saves and recalls by meaning; the service worker keeps a hash memory of its own, opens one with embedder none, and the default there is UNSUPPORTED', async () => {
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
    // In the service worker itself: `embedder: 'none'` (keywords only) opens, saves and recalls too;
    // the default (the model, which needs a Web Worker) rejects with UNSUPPORTED, as documented.
    const inWorker = await worker.evaluate(async () => {
      type Open = (o: Record<string, unknown>) => Promise<{
        manager: {
          remember(u: string, s: string, c: { title: string; text: string }): Promise<unknown>;
          recall(u: string, s: string, q: string, o: { topK: number }): Promise<{ entry: { content: unknown } }[]>;
          flush(): Promise<void>;
        };
        close(): Promise<void>;
      }>;
      const { openBrowserMemory } = (globalThis as unknown as { zerdaBackground: { openBrowserMemory: Open } })
        .zerdaBackground;
      const none = await openBrowserMemory({ name: 'service-worker-none', owner: 'me', embedder: 'none' });
      for (const text of ['The spare key is under the blue flowerpot.', 'My favourite programming language is Rust.'])
        await none.manager.remember('me', 'notes', { title: text.slice(0, 40), text });
      await none.manager.flush();
      const hits = await none.manager.recall('me', 'notes', 'Where is the spare key?', { topK: 3 });
      await none.close();
      const byDefault = await openBrowserMemory({ name: 'service-worker-default', owner: 'me' }).then(
        () => 'opened',
        (e: { code?: string; message?: string }) => `${e.code}: ${e.message}`,
      );
      return { none: (hits[0]?.entry.content as { text?: string } | undefined)?.text, byDefault };
    });
    expect(inWorker.none).toBe('The spare key is under the blue flowerpot.');
    expect(inWorker.byDefault).toMatch(/^UNSUPPORTED: /);
    expect(seen.filter((u) => !u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:'))).toEqual([]);
    expect(problems).toEqual([]);
  } finally {
    await ctx.close();
  }
});

test('the AI SDK chat example remembers a fact told three turns earlier, and opens, remembers and recalls offline after one visit', async () => {
  const dir = join(app, 'ai-sdk-chat');
  const tsc = await run(join(bin, 'tsc'), ['--noEmit', '-p', 'tsconfig.json'], dir);
  expect(tsc.output).toBe('');
  const build = await run(join(bin, 'vite'), ['build'], dir);
  expect(build.code, build.output).toBe(0);
  const list = JSON.parse(await readFile(join(dir, 'dist/zerda-precache.json'), 'utf8')) as {
    files: string[];
    zerda: string[];
  };
  const kinds = list.zerda.map((f) => f.replace(/^assets\//, '').replace(/-[\w-]{8}(\.\w+)$/, '$1'));
  expect(kinds).toEqual(expect.arrayContaining(['ort-wasm-simd-threaded.wasm', 'sql-wasm-browser.wasm']));
  expect(kinds.some((k) => k.endsWith('.onnx'))).toBe(true);
  expect(kinds.some((k) => k.startsWith('worker-entry'))).toBe(true);
  expect(list.files).toContain('./');
  expect(existsSync(join(dir, 'dist/zerda-sw.js'))).toBe(true);

  const server = await startVite(bin, dir, ['preview']);
  try {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    const problems = recordConsole(page);
    type Chat = { send(t: string): Promise<string>; offlineReady(): Promise<unknown> };
    const send = (text: string) =>
      page.evaluate((t) => (globalThis as unknown as { zerdaChat: Chat }).zerdaChat.send(t), text);
    await page.goto(server.url);
    await waitReady(page);
    await page.evaluate(() => (globalThis as unknown as { zerdaChat: Chat }).zerdaChat.offlineReady());
    const answers: string[] = [];
    for (const text of [
      'My sister Ana lives in Lisbon.',
      'I am planning a trip to Japan next spring.',
      'Do you like jazz?',
      'Where does my sister live?',
    ])
      answers.push(await send(text));
    expect(answers[0]).toBe('Noted.');
    expect(answers[3]).toContain('Lisbon');

    // Offline: the page, its chunks, the model worker, the model and both WASM files come from the cache.
    await ctx.setOffline(true);
    await page.reload();
    await waitReady(page);
    expect(await send('I adopted a cat named Miso.')).toBe('Noted.');
    expect(await send('What is the name of my cat?')).toContain('Miso');
    expect(await send('Where does my sister live?')).toContain('Lisbon');
    expect(problems).toEqual([]);
    await ctx.close();
  } finally {
    await server.close();
  }
}, 300_000);

test('the Workbox example (vite-plugin-pwa) precaches every file zerda-precache.json lists, then opens, remembers and recalls offline after one visit', async () => {
  const dir = join(app, 'pwa-workbox');
  const tsc = await run(join(bin, 'tsc'), ['--noEmit', '-p', 'tsconfig.json'], dir);
  expect(tsc.output).toBe('');
  // NODE_ENV as a stranger's shell has it (vitest sets `test`, which makes Workbox write a development build).
  const build = await run(join(bin, 'vite'), ['build'], dir, { NODE_ENV: 'production' });
  expect(build.code, build.output).toBe(0);
  const list = JSON.parse(await readFile(join(dir, 'dist/zerda-precache.json'), 'utf8')) as { zerda: string[] };
  // Workbox's precache list, as generateSW wrote it into sw.js.
  const sw = await readFile(join(dir, 'dist/sw.js'), 'utf8');
  const precached = [...sw.matchAll(/\burl"?:\s*"([^"]+)"/g)].map((m) => m[1]);
  expect(precached).toContain('index.html');
  expect(list.zerda.some((f) => f.endsWith('.onnx'))).toBe(true);
  expect(list.zerda.filter((f) => !precached.includes(f))).toEqual([]);

  const server = await startVite(bin, dir, ['preview']);
  try {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    const problems = recordConsole(page);
    type App = { offlineReady(): Promise<unknown> };
    await page.goto(server.url);
    await waitReady(page);
    await page.evaluate(() => (globalThis as unknown as { zerdaApp: App }).zerdaApp.offlineReady());
    await page.evaluate(() =>
      (globalThis as unknown as { zerdaApp: { remember(t: string): Promise<void> } }).zerdaApp.remember(
        'My sister Ana lives in Lisbon.',
      ),
    );

    // Offline: the page, its chunks, the model worker, the model and both WASM files come from Workbox's cache.
    await ctx.setOffline(true);
    await page.reload();
    await waitReady(page);
    await page.evaluate(() =>
      (globalThis as unknown as { zerdaApp: { remember(t: string): Promise<void> } }).zerdaApp.remember(
        'I adopted a cat named Miso.',
      ),
    );
    expect((await recall(page, 'What is the name of my cat?'))[0]).toBe('I adopted a cat named Miso.');
    expect((await recall(page, 'Where does my sister live?'))[0]).toBe('My sister Ana lives in Lisbon.');
    expect(problems).toEqual([]);
    await ctx.close();
  } finally {
    await server.close();
  }
}, 300_000);

/** Every package folder name anywhere under `node_modules` (pnpm keeps them under `.pnpm`). */
async function installedPackages(dir: string): Promise<string[]> {
  const names: string[] = [];
  for (const entry of await readdir(join(dir, 'node_modules'), { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    if (entry.name === '.pnpm') names.push(...(await readdir(join(dir, 'node_modules/.pnpm'))));
    else if (entry.name.startsWith('@'))
      for (const sub of await readdir(join(dir, 'node_modules', entry.name))) names.push(`${entry.name}/${sub}`);
    else names.push(entry.name);
  }
  return names;
}

for (const manager of ['pnpm', 'yarn'] as PackageManager[]) {
  test(`installed with ${manager}: type-checks with skipLibCheck: false and builds${manager === 'pnpm' ? '; saves and recalls by meaning; the other-bundler copy scripts find every file' : ''}`, async () => {
    const started = Date.now();
    // Only the packages the app depends on: yarn 1 installs every `resolutions` entry's dependencies.
    const browserOnly = Object.fromEntries(Object.entries(tarballs).filter(([name]) => name !== '@zerda/ai-sdk'));
    const installed = await installExamples(['vite-app'], browserOnly, manager);
    cleanup.push(installed.root);
    expect(installed.install.code, installed.install.output).toBe(0);
    const dir = installed.app;
    const installSeconds = (Date.now() - started) / 1000;
    const names = await installedPackages(dir);
    expect(names.some((n) => n.startsWith('onnxruntime-web'))).toBe(true);
    expect(names.filter((n) => /onnxruntime-node|sharp|huggingface/.test(n))).toEqual([]);
    const dirBin = join(dir, 'node_modules/.bin');
    const tsc = await run(join(dirBin, 'tsc'), ['--noEmit', '-p', 'tsconfig.json'], dir, {}, 300_000);
    expect(tsc.output).toBe('');
    expect(tsc.code).toBe(0);
    const build = await run(join(dirBin, 'vite'), ['build'], dir);
    expect(build.code, build.output).toBe(0);
    const wasm = (await readdir(join(dir, 'dist/assets')))
      .filter((f) => f.endsWith('.wasm'))
      .map((f) => f.replace(/-[\w-]{8}\.wasm$/, '.wasm'))
      .sort();
    expect(wasm).toEqual(['ort-wasm-simd-threaded.wasm', 'sql-wasm-browser.wasm']);
    // yarn 1 lays node_modules out as npm does (driven in Chromium above); pnpm's strict layout is
    // the one that can break at run time, so only it is driven here too.
    if (manager === 'pnpm') {
      await driveBuiltApp(dirBin, dir);
      await copyScriptsFind(dir);
    }
    console.log(
      `[install] ${manager}: install ${installSeconds.toFixed(0)} s, whole check ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
  }, 600_000);
}

/**
 * The other-bundler recipes' copy scripts (the esbuild one in packages/browser/README.md, and
 * examples/nextjs/scripts/copy-zerda-assets.mjs for webpack and Next.js) run in an app installed
 * with pnpm, where sql.js, onnxruntime-web and @zerda/embeddings are indirect dependencies that
 * the app itself cannot resolve: every file they name is copied.
 */
async function copyScriptsFind(dir: string): Promise<void> {
  await writeFile(join(dir, 'copy-zerda-assets.mjs'), await browserReadmeBlock('js', '// copy-zerda-assets.mjs'));
  const esbuild = await run('node', ['copy-zerda-assets.mjs', 'copied-esbuild'], dir);
  expect(esbuild.code, esbuild.output).toBe(0);
  const next = await run(
    'node',
    [join(REPO_ROOT, 'examples/nextjs/scripts/copy-zerda-assets.mjs'), 'copied-next'],
    dir,
  );
  expect(next.code, next.output).toBe(0);
  const esbuildFiles = [
    'ort/ort-wasm-simd-threaded.mjs',
    'ort/ort-wasm-simd-threaded.wasm',
    'models/use-lite/config.json',
    'models/use-lite/tokenizer.json',
    'models/use-lite/onnx/model_quantized.onnx',
    'sql-wasm-browser.wasm',
  ];
  expect(esbuildFiles.filter((f) => !existsSync(join(dir, 'copied-esbuild', f)))).toEqual([]);
  expect(await readdir(join(dir, 'copied-next'))).toEqual(['sql-wasm-browser.wasm']);
}

/** Preview a built copy of examples/vite-app in Chromium: save, reload, recall, nothing off-origin. */
async function driveBuiltApp(dirBin: string, dir: string): Promise<void> {
  const server = await startVite(dirBin, dir, ['preview']);
  try {
    const ctx = await browser.newContext();
    const traffic = await recordTraffic(ctx, server.url.replace(/\/$/, ''));
    const page = await ctx.newPage();
    const problems = recordConsole(page);
    await page.goto(server.url);
    await waitReady(page);
    await saveAndRecall(page);
    await page.reload();
    await waitReady(page);
    expect((await recall(page, 'When is my birthday?'))[0]).toBe('My birthday is on the fourth of July.');
    expect(traffic.offOrigin).toEqual([]);
    expect(problems).toEqual([]);
    await ctx.close();
  } finally {
    await server.close();
  }
}
