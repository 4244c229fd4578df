/**
 * One small driver layer over three browser engines, so a spec runs with the same assertions on
 * Chromium (playwright-core over CDP), Firefox ESR (puppeteer-core over WebDriver BiDi) and
 * WebKitGTK (plain W3C WebDriver `fetch` calls to WebKitWebDriver).
 *
 * Why a thin layer instead of porting every spec to one driver: no single client drives all
 * three Debian browsers here (Playwright needs its own patched Firefox/WebKit builds, which cannot
 * be downloaded; puppeteer has no WebKit; plain WebDriver on Chromium needs chromedriver, which
 * Debian ships separately and which would lose the deep specs' request interception). The specs
 * only need a handful of operations — open a page, evaluate a function, reload, open a second tab,
 * kill the browser process, take a screenshot — so an interface of six methods with three short
 * implementations is smaller than any port, and the deep Chromium specs keep using Playwright.
 *
 * Every engine runs on a persistent profile directory so a browser killed with SIGKILL can be
 * relaunched on the same storage (`launchEngine(name, { profileDir })`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname } from 'node:path';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { CHROMIUM_ARGS, chromiumPath } from '../harness.ts';

export type EngineName = 'chromium' | 'firefox' | 'webkit';
export const ENGINES: readonly EngineName[] = ['chromium', 'firefox', 'webkit'];
/** The engine this run drives: ZERDA_ENGINE (set by the vitest projects `e2e-firefox`, `e2e-webkit`), else Chromium. */
export const ENGINE = (process.env.ZERDA_ENGINE ?? 'chromium') as EngineName;

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
export const WEBKIT_DRIVER_PATH = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';
export const MINIBROWSER_PATH = process.env.MINIBROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

/** Why an engine cannot run here, or undefined when it can. */
export function engineMissing(engine: EngineName): string | undefined {
  const need: Record<EngineName, string[]> = {
    chromium: [process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'],
    firefox: [FIREFOX_PATH],
    webkit: [WEBKIT_DRIVER_PATH, MINIBROWSER_PATH, '/usr/bin/xvfb-run'],
  };
  const missing = need[engine].filter((p) => !existsSync(p));
  return missing.length
    ? `${engine}: not installed (${missing.join(', ')}); apt-get install -y ${engine === 'chromium' ? 'chromium' : engine === 'firefox' ? 'firefox-esr' : 'webkit2gtk-driver xvfb'}`
    : undefined;
}

export interface EnginePage {
  goto(url: string): Promise<void>;
  /** Runs `fn(arg)` in the page (serialised with `toString`, so it may only use its argument and page globals); awaits promises. */
  evaluate<R, A = undefined>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R>;
  reload(): Promise<void>;
  screenshot(path: string): Promise<void>;
  close(): Promise<void>;
}

export interface EngineBrowser {
  readonly engine: EngineName;
  /** The browser's own version string. */
  readonly version: string;
  /** A new tab of the same browser (same profile, same origin storage). */
  newPage(): Promise<EnginePage>;
  /** SIGKILL the browser process (no unload, no clean shutdown). */
  kill(): Promise<void>;
  close(): Promise<void>;
}

export interface LaunchOptions {
  profileDir: string;
  /** Firefox only: extra preferences (e.g. a small storage limit for the quota spec). */
  firefoxPrefs?: Record<string, unknown>;
}

/** Poll `fn` in the page until it returns truthy (any page with the driver's `evaluate`: a Playwright Page too). */
export async function waitFor<A>(
  page: Pick<EnginePage, 'evaluate'>,
  fn: (arg: A) => unknown,
  arg?: A,
  timeoutMs = 60_000,
): Promise<void> {
  const start = Date.now();
  for (;;) {
    if (await page.evaluate(fn as (arg: A) => boolean, arg)) return;
    if (Date.now() - start > timeoutMs)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${fn.toString().slice(0, 120)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** `(fn)(arg)` as an expression; JSON is enough for the arguments these specs pass. */
function expression(fn: (arg: never) => unknown, arg: unknown): string {
  return `(${fn.toString()})(${arg === undefined ? '' : JSON.stringify(arg)})`;
}

export async function launchEngine(engine: EngineName, options: LaunchOptions): Promise<EngineBrowser> {
  const missing = engineMissing(engine);
  if (missing) throw new Error(missing);
  await mkdir(options.profileDir, { recursive: true });
  if (engine === 'chromium') return launchChromium(options);
  if (engine === 'firefox') return launchFirefox(options);
  return launchWebKit(options);
}

// ---------------------------------------------------------------- Chromium (playwright-core, CDP)

async function launchChromium({ profileDir }: LaunchOptions): Promise<EngineBrowser> {
  // Started here (not by Playwright) so the spec owns the process and can SIGKILL it; Playwright
  // attaches over CDP.
  const proc = spawn(
    chromiumPath(),
    [...CHROMIUM_ARGS, `--user-data-dir=${profileDir}`, '--remote-debugging-port=0', 'about:blank'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const ws = await new Promise<string>((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`Chromium did not start: ${err}`)), 60_000);
    proc.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    proc.on('exit', (code) => reject(new Error(`Chromium exited (${code}): ${err}`)));
  });
  proc.stderr!.resume();
  const browser = await chromium.connectOverCDP(ws);
  const ctx = browser.contexts()[0]!;
  const stop = async (signal: NodeJS.Signals) => {
    if (proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill(signal);
      await exited;
    }
  };
  return {
    engine: 'chromium',
    version: browser.version(),
    async newPage() {
      const page = await ctx.newPage();
      return {
        goto: async (url) => void (await page.goto(url)),
        evaluate: (fn, arg) => page.evaluate(expression(fn, arg)),
        reload: async () => void (await page.reload()),
        screenshot: async (path) => {
          await mkdir(dirname(path), { recursive: true });
          await page.screenshot({ path });
        },
        close: () => page.close({ runBeforeUnload: false }),
      };
    },
    kill: () => stop('SIGKILL'),
    async close() {
      await browser.close().catch(() => undefined);
      await stop('SIGTERM');
    },
  };
}

// ---------------------------------------------------------------- Firefox (puppeteer-core, WebDriver BiDi)

async function launchFirefox({ profileDir, firefoxPrefs }: LaunchOptions): Promise<EngineBrowser> {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    userDataDir: profileDir,
    protocolTimeout: 180_000,
    ...(firefoxPrefs ? { extraPrefsFirefox: firefoxPrefs } : {}),
  });
  const proc = browser.process();
  const version = await browser.version();
  return {
    engine: 'firefox',
    version,
    async newPage() {
      const page = await browser.newPage();
      return {
        goto: async (url) => void (await page.goto(url)),
        evaluate: (fn, arg) => page.evaluate(expression(fn, arg)) as never,
        reload: async () => void (await page.reload()),
        screenshot: async (path) => {
          await mkdir(dirname(path), { recursive: true });
          await page.screenshot({ path });
        },
        close: () => page.close({ runBeforeUnload: false }),
      };
    },
    async kill() {
      if (proc && proc.exitCode === null && proc.signalCode === null) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGKILL');
        await exited;
      }
      browser.disconnect().catch(() => undefined);
    },
    async close() {
      await browser.close().catch(() => undefined);
    },
  };
}

// ---------------------------------------------------------------- WebKit (W3C WebDriver over fetch)

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (a && typeof a === 'object' ? resolve(a.port) : reject(new Error('no port'))));
    });
  });
}

/** All descendants of `pid` (from /proc), to find MiniBrowser under xvfb-run and WebKitWebDriver. */
async function descendants(pid: number): Promise<number[]> {
  const { readdir, readFile } = await import('node:fs/promises');
  const parents = new Map<number, number>();
  for (const d of await readdir('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const stat = await readFile(`/proc/${d}/stat`, 'utf8').catch(() => '');
    const m = /\) \S (\d+)/.exec(stat);
    if (m) parents.set(Number(d), Number(m[1]));
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [child, parent] of parents) {
      if (parent !== p) continue;
      out.push(child);
      walk(child);
    }
  };
  walk(pid);
  return out;
}

async function commName(pid: number): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  return (await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '')).trim();
}

async function launchWebKit({ profileDir }: LaunchOptions): Promise<EngineBrowser> {
  const port = await freePort();
  // Own process group, so the driver, Xvfb and the browser are stopped together by group id.
  const driver: ChildProcess = spawn('xvfb-run', ['-a', WEBKIT_DRIVER_PATH, `--port=${port}`], {
    detached: true,
    stdio: 'ignore',
    env: {
      ...process.env,
      HOME: profileDir,
      XDG_DATA_HOME: `${profileDir}/data`,
      XDG_CACHE_HOME: `${profileDir}/cache`,
    },
  });
  const base = `http://127.0.0.1:${port}`;
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(base + path, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await res.json()) as { value: T & { error?: string; message?: string } };
    if (!res.ok || (json.value && typeof json.value === 'object' && 'error' in json.value && json.value.error))
      throw new Error(`WebDriver ${method} ${path}: ${json.value?.error} ${json.value?.message ?? ''}`);
    return json.value;
  };
  const start = Date.now();
  for (;;) {
    try {
      const r = await fetch(`${base}/status`);
      if (r.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() - start > 60_000) throw new Error('WebKitWebDriver did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
  const created = await call<{ sessionId: string; capabilities: { browserVersion?: string } }>('POST', '/session', {
    capabilities: {
      alwaysMatch: {
        'webkitgtk:browserOptions': { binary: MINIBROWSER_PATH, args: ['--automation'] },
        timeouts: { script: 180_000, pageLoad: 120_000 },
      },
    },
  });
  const s = `/session/${created.sessionId}`;
  // WebDriver drives one window at a time: every page switches to its own handle first, and the
  // session serialises commands (the spec starts concurrent work with one evaluate and polls).
  // The session's first window stays open on about:blank for the session's lifetime: closing a
  // session's last window ends the session in WebKitWebDriver.
  let current = await call<string>('GET', `${s}/window`);
  const keeper = current;
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(handle: string, f: () => Promise<T>): Promise<T> => {
    const run = queue.then(async () => {
      if (current !== handle) {
        await call('POST', `${s}/window`, { handle });
        current = handle;
      }
      return f();
    });
    queue = run.catch(() => undefined);
    return run;
  };
  let dead = false;
  const stopDriver = async () => {
    if (driver.pid && driver.exitCode === null) {
      try {
        process.kill(-driver.pid, 'SIGTERM');
      } catch {
        /* gone */
      }
      await new Promise((r) => (driver.exitCode === null ? driver.once('exit', r) : r(null)));
    }
  };
  return {
    engine: 'webkit',
    version: `WebKitGTK ${created.capabilities.browserVersion ?? '?'}`,
    async newPage() {
      const handle = (
        await serial(keeper, () => call<{ handle: string }>('POST', `${s}/window/new`, { type: 'window' }))
      ).handle;
      const page: EnginePage = {
        goto: (url) => serial(handle, () => call('POST', `${s}/url`, { url })).then(() => undefined),
        evaluate: (fn, arg) =>
          serial(handle, async () => {
            const script = `const done = arguments[arguments.length - 1];
              Promise.resolve().then(() => ${expression(fn, arg)}).then((v) => done({ ok: true, v: v === undefined ? null : v }), (e) => done({ ok: false, e: String(e && e.stack || e) }));`;
            const r = await call<{ ok: boolean; v?: unknown; e?: string }>('POST', `${s}/execute/async`, {
              script,
              args: [],
            });
            if (!r.ok) throw new Error(`evaluate failed in WebKit: ${r.e}`);
            return r.v as never;
          }),
        reload: () => serial(handle, () => call('POST', `${s}/refresh`, {})).then(() => undefined),
        screenshot: (path) =>
          serial(handle, async () => {
            const b64 = await call<string>('GET', `${s}/screenshot`);
            await mkdir(dirname(path), { recursive: true });
            await writeFile(path, Buffer.from(b64, 'base64'));
          }),
        close: () => serial(handle, () => call('DELETE', `${s}/window`)).then(() => void (current = '')),
      };
      return page;
    },
    async kill() {
      dead = true;
      for (const pid of await descendants(driver.pid!))
        if ((await commName(pid)) === 'MiniBrowser') process.kill(pid, 'SIGKILL');
      await new Promise((r) => setTimeout(r, 500));
      await stopDriver();
    },
    async close() {
      if (!dead) await call('DELETE', s).catch(() => undefined);
      await stopDriver();
    },
  };
}
