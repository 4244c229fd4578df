/**
 * The README's other-bundler recipes taken literally (packages/browser/README.md#other-bundlers):
 * test/e2e/bundlers installed with npm from the packed tarballs outside the workspace, then for
 * esbuild and for webpack 5 the README's own code blocks (the copy script, `webpack.config.mjs`, the
 * build commands) written and run as they stand, the output served as plain static files and driven
 * in Chromium: the bundled `use-lite` model in a module worker, two notes remembered and recalled by
 * meaning after a reload, nothing fetched off-origin, no console warning. A wrong file name or path
 * in a recipe fails here. The esbuild command is also built without its `onnxruntime-web/webgpu`
 * alias, to show the README's word that the alias is required.
 */
import { copyFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, REPO_ROOT } from './harness.ts';
import {
  browserReadmeBlock,
  installConsumer,
  recordConsole,
  recordTraffic,
  removeDir,
  run,
  serveStatic,
} from './consumer.ts';

let browser: Browser;
let root: string;
let app: string;

beforeAll(async () => {
  ({ root, app } = await installConsumer([join(REPO_ROOT, 'test/e2e/bundlers')], (name) => name !== '@zerda/ai-sdk'));
  browser = await launchBrowser();
}, 480_000);

afterAll(async () => {
  await browser?.close();
  if (root) await removeDir(root);
});

/** Run a README shell block as it stands, in `dir`, with the app's installed binaries on PATH. */
async function runBlock(block: string, dir: string): Promise<number> {
  const started = Date.now();
  const env = { PATH: `${join(app, 'node_modules/.bin')}:${process.env.PATH}` };
  const r = await run('bash', ['-euo', 'pipefail', '-c', block], dir, env, 300_000);
  expect(r.code, r.output).toBe(0);
  return (Date.now() - started) / 1000;
}

type Memory = {
  manager: {
    remember(user: string, session: string, content: { title: string; text: string }): Promise<unknown>;
    flush(): Promise<void>;
    recall(user: string, session: string, q: string, o: { topK: number }): Promise<{ entry: { content: unknown } }[]>;
  };
  embedder?: { modelId?: string };
};

async function recall(page: Page, query: string): Promise<string> {
  return page.evaluate(async (q) => {
    const { manager } = (globalThis as unknown as { zerdaMemory: Memory }).zerdaMemory;
    const hits = await manager.recall('me', 'notes', q, { topK: 3 });
    return (hits[0]?.entry.content as { text?: string } | undefined)?.text ?? '';
  }, query);
}

/**
 * Serve `dist` (with the app's index.html next to the output, as the recipe says) and drive it:
 * the model loads in its worker, two notes are remembered, recalled by meaning after a reload.
 * Resolves with the paths the page fetched.
 */
async function driveStatic(dist: string): Promise<string[]> {
  await copyFile(join(app, 'index.html'), join(dist, 'index.html'));
  const server = await serveStatic(dist);
  try {
    const ctx = await browser.newContext();
    const traffic = await recordTraffic(ctx, server.url.replace(/\/$/, ''));
    const page = await ctx.newPage();
    const problems = recordConsole(page);
    const ready = async () => {
      await page.waitForFunction(() => document.getElementById('status')?.textContent !== 'loading', undefined, {
        timeout: 120_000,
      });
      expect(await page.textContent('#status'), problems.join('\n')).toBe('ready');
    };
    await page.goto(server.url);
    await ready();
    expect(
      await page.evaluate(() => (globalThis as unknown as { zerdaMemory: Memory }).zerdaMemory.embedder?.modelId),
    ).toMatch(/use-lite/);
    await page.evaluate(async () => {
      const { manager } = (globalThis as unknown as { zerdaMemory: Memory }).zerdaMemory;
      for (const text of ['My sister Ana lives in Lisbon.', 'I go bouldering at the climbing gym on Thursdays.'])
        await manager.remember('me', 'notes', { title: text.slice(0, 60), text });
      await manager.flush();
    });
    await page.reload();
    await ready();
    expect(await recall(page, 'Where does my sibling live?')).toBe('My sister Ana lives in Lisbon.');
    expect(await recall(page, 'What sport do I do?')).toBe('I go bouldering at the climbing gym on Thursdays.');
    expect(traffic.offOrigin).toEqual([]);
    expect(problems).toEqual([]);
    await ctx.close();
    return traffic.requests.map((u) => new URL(u).pathname);
  } finally {
    await server.close();
  }
}

test('esbuild, as the README says: two entry points, the copy script, served as static files — the model in its worker, recall by meaning after a reload, nothing off-origin', async () => {
  const dir = join(app, 'esbuild');
  await writeFile(join(dir, 'copy-zerda-assets.mjs'), await browserReadmeBlock('js', '// copy-zerda-assets.mjs'));
  const seconds = await runBlock(await browserReadmeBlock('sh', 'esbuild src/main.ts'), dir);
  const fetched = await driveStatic(join(dir, 'dist'));
  // The copied files are the ones the page used (ONNX Runtime's from /ort/, the model from /models/).
  expect(fetched).toEqual(
    expect.arrayContaining(['/embed-worker.js', '/ort/ort-wasm-simd-threaded.wasm', '/sql-wasm-browser.wasm']),
  );
  expect(fetched.some((p) => p.startsWith('/models/use-lite/') && p.endsWith('.onnx'))).toBe(true);
  console.log(`[bundlers] esbuild build + copy ${seconds.toFixed(1)} s`);
});

test("esbuild without the README's `onnxruntime-web/webgpu` alias: the bundle asks for ONNX Runtime's asyncify WASM, which no recipe copies, and the memory does not open — the alias is required", async () => {
  const dir = join(app, 'esbuild');
  await writeFile(join(dir, 'copy-zerda-assets.mjs'), await browserReadmeBlock('js', '// copy-zerda-assets.mjs'));
  const block = await browserReadmeBlock('sh', 'esbuild src/main.ts');
  const alias = ' --alias:onnxruntime-web/webgpu=onnxruntime-web/wasm';
  expect(block).toContain(alias);
  // The same commands, the alias left out, into a folder of its own.
  const noAlias = block
    .replace(alias, '')
    .replace('--outdir=dist', '--outdir=dist-no-alias')
    .replace('copy-zerda-assets.mjs dist', 'copy-zerda-assets.mjs dist-no-alias');
  await runBlock(noAlias, dir);
  const dist = join(dir, 'dist-no-alias');
  await copyFile(join(app, 'index.html'), join(dist, 'index.html'));
  const server = await serveStatic(dist);
  try {
    const page = await browser.newPage();
    await page.goto(server.url);
    await page.waitForFunction(() => document.getElementById('status')?.textContent !== 'loading', undefined, {
      timeout: 120_000,
    });
    const status = (await page.textContent('#status')) ?? '';
    await page.close();
    const log = server.output().split('\n');
    expect(
      log.filter((l) => /^404 \/ort\/ort-wasm-simd-threaded\.asyncify\.(mjs|wasm)$/.test(l)),
      server.output(),
    ).not.toEqual([]);
    expect(status).toMatch(/^error: .*Could not load embedding model "use-lite"/);
    console.log(`[bundlers] esbuild without the alias: ${status.slice(0, 200)}`);
  } finally {
    await server.close();
  }
});

test('webpack 5, as the README says: webpack.config.mjs, one ONNX Runtime WASM emitted, sql.js copied — the model in its worker, recall by meaning after a reload, nothing off-origin', async () => {
  const dir = join(app, 'webpack');
  await writeFile(join(dir, 'webpack.config.mjs'), await browserReadmeBlock('js', '// webpack.config.mjs'));
  await copyFile(join(REPO_ROOT, 'examples/nextjs/scripts/copy-zerda-assets.mjs'), join(dir, 'copy-zerda-assets.mjs'));
  const seconds = await runBlock(await browserReadmeBlock('sh', '(webpack-cli)'), dir);
  const dist = join(dir, 'dist');
  // Exactly one ONNX Runtime WASM (webpack names assets by hash: compare by size with the plain
  // build's), no WebGPU/asyncify or JSEP one, and sql.js' where the copy put it.
  const ortWasm = join(app, 'node_modules/onnxruntime-web/dist/ort-wasm-simd-threaded.wasm');
  const wasm = (await readdir(dist, { recursive: true })).filter((f) => f.endsWith('.wasm')).sort();
  expect(wasm).toHaveLength(2);
  expect(wasm).toContain('sql-wasm-browser.wasm');
  const emitted = wasm.find((f) => f !== 'sql-wasm-browser.wasm')!;
  expect((await stat(join(dist, emitted))).size).toBe((await stat(ortWasm)).size);
  const fetched = await driveStatic(dist);
  expect(fetched).toEqual(expect.arrayContaining([`/${emitted}`, '/sql-wasm-browser.wasm']));
  expect(fetched.some((p) => p.endsWith('.onnx'))).toBe(true);
  console.log(`[bundlers] webpack build + copy ${seconds.toFixed(1)} s`);
}, 420_000);
