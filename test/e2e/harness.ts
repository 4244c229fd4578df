/**
 * Shared harness for the Chromium specs: serves a page folder with Vite (built, then previewed,
 * so specs exercise production bundles) and launches Debian's Chromium through playwright-core.
 * Never downloads a browser.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from 'playwright-core';
import { build, defaultClientConditions, preview, type InlineConfig, type PreviewServer } from 'vite';
import { zerda, type ZerdaPluginOptions } from '@zerda/browser/vite';

export const REPO_ROOT = resolve(import.meta.dirname, '../..');

/** Chromium flags that work on this machine (no sandbox as root, no network chatter). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-quic',
  '--disable-sync',
];

export function chromiumPath(): string {
  const p = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(p))
    throw new Error(`Chromium not found at ${p}; install Debian's chromium (apt-get install -y chromium)`);
  return p;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS, headless: true });
}

/** A context that blocks every non-localhost request, to prove pages work offline. */
export async function offlineContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const ctx = await browser.newContext(options);
  await ctx.route(/^(?!https?:\/\/(localhost|127\.0\.0\.1)[:/]).*/, (route) => {
    const url = route.request().url();
    if (url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    return route.abort();
  });
  return ctx;
}

/**
 * Vite config shared by test pages and the demo: the `zerda()` plugin (ES workers, the plain WASM
 * build of ONNX Runtime only, COOP/COEP for WASM threads) over the workspace's TypeScript sources.
 */
export function pageViteConfig(root: string, extra: InlineConfig = {}, options: ZerdaPluginOptions = {}): InlineConfig {
  return {
    root,
    configFile: false,
    logLevel: 'warn',
    resolve: {
      // Workspace sources first, then Vite's defaults (keeping 'browser', so e.g. sql.js's browser build is used).
      conditions: ['@zerda/source', ...defaultClientConditions],
    },
    preview: { host: '127.0.0.1' },
    ...extra,
    plugins: [zerda({ crossOriginIsolation: true, ...options }), ...(extra.plugins ?? [])],
  };
}

export interface ServedPage {
  url: string;
  close(): Promise<void>;
}

/** Build `root` (a folder with index.html) into a temp dir and serve it with `vite preview`. */
export async function servePage(
  root: string,
  extra: InlineConfig = {},
  options: ZerdaPluginOptions = {},
): Promise<ServedPage> {
  const outDir = await mkdtemp(join(tmpdir(), 'zerda-e2e-'));
  const config = pageViteConfig(root, extra, options);
  await build({ ...config, build: { target: 'es2022', ...config.build, outDir, emptyOutDir: true } });
  const server: PreviewServer = await preview({
    ...config,
    build: { outDir },
    preview: { ...config.preview, port: 0 },
  });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('preview server has no port');
  return {
    url: `http://127.0.0.1:${address.port}/`,
    async close() {
      await new Promise<void>((r) => server.httpServer.close(() => r()));
      await rm(outDir, { recursive: true, force: true });
    },
  };
}

/**
 * The test pages' (test/e2e/pages/*) sign that their script has run: `#out` reads `ready`. Only
 * page globals inside, so it can be handed to `waitForFunction` or the engine driver's `waitFor`.
 */
export const pageReady = (): boolean => document.getElementById('out')?.textContent === 'ready';

/**
 * Call the page's global async function `name` with `arg` (structured-cloned both ways) and return
 * what it resolves to: how the benches drive their pages (`window.recallStagesBench(config)` …).
 */
export function callPage<R>(tab: import('playwright-core').Page, name: string, arg: unknown): Promise<R> {
  return tab.evaluate(
    ([fn, a]) => (globalThis as unknown as Record<string, (a: unknown) => Promise<unknown>>)[fn]!(a),
    [name, arg] as const,
  ) as Promise<R>;
}

/** A built page opened offline in a fresh Chromium, once its `#out` element reads `ready`. */
export interface ReadyPage {
  browser: Browser;
  /** Where the page is served. */
  url: string;
  tab: import('playwright-core').Page;
  close(): Promise<void>;
}

/**
 * Serve `root`, launch Chromium, open the page offline and wait for `#out` to read `ready`.
 * `onContext` sees the offline context before the page opens (to watch its requests from the start);
 * `extra` is more Vite config for the page's build (e.g. `build.minify: false` for readable profiles).
 */
export async function openReadyPage(
  root: string,
  onContext?: (ctx: BrowserContext) => void,
  extra: InlineConfig = {},
): Promise<ReadyPage> {
  const served = await servePage(root, extra);
  const browser = await launchBrowser().catch(async (err: unknown) => {
    await served.close();
    throw err;
  });
  const close = async () => {
    await browser.close();
    await served.close();
  };
  try {
    const ctx = await offlineContext(browser);
    onContext?.(ctx);
    const tab = await ctx.newPage();
    await tab.goto(served.url);
    await tab.waitForFunction(pageReady);
    return { browser, url: served.url, tab, close };
  } catch (err) {
    await close();
    throw err;
  }
}
