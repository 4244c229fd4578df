/**
 * A stranger's app: the packages packed into tarballs (as `npm publish` would ship them) and
 * installed with npm into a copy of examples/vite-app outside the workspace. Used by
 * install.spec.ts.
 */
import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, extname, isAbsolute, join, normalize } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { REPO_ROOT } from './harness.ts';

/** The browser packages, in dependency order (and the AI SDK middleware the chat example uses). */
export const BROWSER_PACKAGES = ['core', 'sqlite', 'embeddings', 'browser', 'ai-sdk'] as const;

export interface RunResult {
  code: number | null;
  output: string;
}

/** Run a command; resolves with its exit code and combined output (never rejects on failure). */
export function run(
  cmd: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
  timeoutMs = 180_000,
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    timer.unref();
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** A long-running child (dev or preview server) that prints its URL. */
export interface Server {
  url: string;
  output(): string;
  close(): Promise<void>;
}

/** Start `vite <args>` (from the installed `bin` folder) in `app` and wait for the URL it prints. */
export function startVite(bin: string, app: string, args: string[]): Promise<Server> {
  return startServer(join(bin, 'vite'), [...args, '--host', '127.0.0.1', '--port', '0', '--strictPort'], app);
}

/**
 * Start a server command in `cwd` and resolve once it prints an `http://127.0.0.1:<port>/` URL
 * (rejects with its output if it exits first).
 */
export function startServer(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Server> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let found = false;
    const onData = (d: Buffer) => {
      output += d.toString();
      const m = /(http:\/\/127\.0\.0\.1:\d+)\/?/.exec(output);
      if (m && !found) {
        found = true;
        resolve({
          url: `${m[1]!}/`,
          output: () => output,
          close: () =>
            new Promise<void>((r) => {
              if (child.exitCode !== null) return r();
              child.once('close', () => r());
              child.kill('SIGTERM');
            }),
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('close', (code) => {
      if (!found) reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}:\n${output}`));
    });
  });
}

/**
 * Pack the browser packages (pnpm rewrites `workspace:*` to versions) in one pnpm run, once per
 * vitest run: every spec file runs in its own child of the same vitest process, so the set lives
 * in `.tmp/e2e-tarballs/<that process's pid>` (sets of runs that have ended are removed).
 */
export async function packPackages(): Promise<Record<string, string>> {
  const base = join(REPO_ROOT, '.tmp/e2e-tarballs');
  const dir = join(base, `${process.ppid}`);
  const done = join(dir, 'packed');
  if (await stat(done).catch(() => undefined)) return tarballPaths(dir);
  for (const other of await readdir(base).catch(() => [] as string[]))
    if (!alive(Number(other))) await rm(join(base, other), { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const filters = BROWSER_PACKAGES.flatMap((name) => ['--filter', `@zerda/${name}`]);
  const r = await run('npx', ['-y', 'pnpm@10.34.9', '-r', ...filters, 'pack', '--pack-destination', dir], REPO_ROOT);
  if (r.code !== 0) throw new Error(`pnpm pack failed:\n${r.output}`);
  await writeFile(done, '');
  return tarballPaths(dir);
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function tarballPaths(dir: string): Promise<Record<string, string>> {
  const tarballs: Record<string, string> = {};
  for (const name of BROWSER_PACKAGES) {
    const pkg = JSON.parse(await readFile(join(REPO_ROOT, 'packages', name, 'package.json'), 'utf8')) as {
      version: string;
    };
    tarballs[`@zerda/${name}`] = join(dir, `zerda-${name}-${pkg.version}.tgz`);
  }
  return tarballs;
}

/** The package managers a stranger may install with: npm (as bundled with Node), pnpm 10, yarn 1. */
export type PackageManager = 'npm' | 'pnpm' | 'yarn';

/**
 * Copy `examples[0]` (a folder under examples/, or an absolute path) into a fresh temp folder outside the workspace and
 * install it with `manager` (npm by default), with the tarballs in place of the registry's
 * `@zerda/*` packages. The other examples are copied inside it (`<app>/<name>`) and resolve their
 * packages from its node_modules, so one install serves them all (their dependencies are merged in).
 */
export async function installExamples(
  examples: string[],
  tarballs: Record<string, string>,
  manager: PackageManager = 'npm',
): Promise<{ root: string; app: string; install: RunResult }> {
  const root = await mkdtemp(join(tmpdir(), 'zerda-consumer-'));
  const app = join(root, basename(examples[0]!));
  const pkgs: Record<string, Record<string, string> | undefined>[] = [];
  for (const [i, example] of examples.entries()) {
    const dest = i === 0 ? app : join(app, basename(example));
    await cp(isAbsolute(example) ? example : join(REPO_ROOT, 'examples', example), dest, {
      recursive: true,
      filter: (src) => !/node_modules|dist$/.test(src),
    });
    pkgs.push(
      JSON.parse(await readFile(join(dest, 'package.json'), 'utf8')) as Record<
        string,
        Record<string, string> | undefined
      >,
    );
  }
  const pkg = pkgs[0]!;
  for (const other of pkgs.slice(1)) {
    pkg.dependencies = { ...other.dependencies, ...pkg.dependencies };
    pkg.devDependencies = { ...other.devDependencies, ...pkg.devDependencies };
  }
  for (const [name, file] of Object.entries(tarballs))
    if (pkg.dependencies?.[name]) pkg.dependencies[name] = `file:${file}`;
  // Transitive @zerda/* dependencies come from the tarballs too, not the registry (each manager
  // spells that differently).
  const pinned = Object.fromEntries(Object.entries(tarballs).map(([n, f]) => [n, `file:${f}`]));
  if (manager === 'npm') pkg.overrides = pinned;
  else if (manager === 'pnpm') (pkg as Record<string, unknown>).pnpm = { overrides: pinned };
  else pkg.resolutions = pinned;
  await writeFile(join(app, 'package.json'), JSON.stringify(pkg, null, 2));
  const env = { npm_config_update_notifier: 'false' };
  // An install is killed after 6 minutes (not run's default 3: a loaded machine has needed more).
  const limit = 360_000;
  const install =
    manager === 'npm'
      ? await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=warn'], app, env, limit)
      : manager === 'pnpm'
        ? await run(
            'npx',
            ['-y', 'pnpm@10.34.9', 'install', '--prefer-offline', '--reporter=append-only'],
            app,
            env,
            limit,
          )
        : await run(
            'npx',
            ['-y', 'yarn@1', 'install', '--non-interactive', '--no-progress', '--prefer-offline'],
            app,
            env,
            limit,
          );
  return { root, app, install };
}

/**
 * A spec's set-up: pack the packages (once per vitest run), install `examples` with npm from those
 * tarballs (only the packages `keep` accepts, all by default), and throw with npm's output if the
 * install failed.
 */
export async function installConsumer(
  examples: string[],
  keep: (name: string) => boolean = () => true,
): Promise<{ tarballs: Record<string, string>; root: string; app: string }> {
  const packed = await packPackages();
  const tarballs = Object.fromEntries(Object.entries(packed).filter(([name]) => keep(name)));
  const installed = await installExamples(examples, tarballs);
  if (installed.install.code !== 0)
    throw new Error(`npm install failed (exit ${installed.install.code}):\n${installed.install.output}`);
  return { tarballs, root: installed.root, app: installed.app };
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
};

/**
 * Serve `dir` as plain static files on 127.0.0.1 (as any static host would: a `Content-Length`, the
 * `.wasm` type streaming compilation needs; `/` is `index.html`; anything missing is a 404).
 */
export function serveStatic(dir: string): Promise<Server> {
  const log: string[] = [];
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    const file = join(dir, path.endsWith('/') ? `${path}index.html` : path);
    const info = file.startsWith(dir) ? await stat(file).catch(() => undefined) : undefined;
    log.push(`${info?.isFile() ? 200 : 404} ${path}`);
    if (!info?.isFile()) return void res.writeHead(404).end();
    res.writeHead(200, {
      'content-type': MIME[extname(file)] ?? 'application/octet-stream',
      'content-length': info.size,
    });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({
        url: `http://127.0.0.1:${port}/`,
        output: () => log.join('\n'),
        close: () =>
          new Promise<void>((r) => {
            server.close(() => r());
            server.closeAllConnections();
          }),
      });
    });
  });
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** Bytes and requests seen by a context, split into same-origin and elsewhere. */
export interface Traffic {
  requests: string[];
  offOrigin: string[];
  bytes(): Promise<number>;
  reset(): void;
}

/**
 * Record every request of `ctx` (pages and their workers) and sum what came over the wire
 * (headers + encoded body; 0 for HTTP-cache and Cache Storage hits). Requests off `origin` are
 * listed; with `block` they are also aborted (routing turns Chromium's HTTP cache off, so reload
 * figures are measured without it).
 */
export async function recordTraffic(ctx: BrowserContext, origin: string, block = true): Promise<Traffic> {
  let pending: Promise<number>[] = [];
  const traffic: Traffic = {
    requests: [],
    offOrigin: [],
    async bytes() {
      return (await Promise.all(pending)).reduce((a, b) => a + b, 0);
    },
    reset() {
      pending = [];
      traffic.requests = [];
    },
  };
  const local = (url: string) => url.startsWith(origin) || url.startsWith('data:') || url.startsWith('blob:');
  if (block) {
    await ctx.route('**/*', (route) => (local(route.request().url()) ? route.continue() : route.abort()));
  }
  ctx.on('request', (req) => {
    if (!local(req.url())) traffic.offOrigin.push(req.url());
  });
  ctx.on('requestfinished', (req) => {
    traffic.requests.push(req.url());
    pending.push(
      req.sizes().then(
        (s) => s.responseBodySize + s.responseHeadersSize,
        () => 0,
      ),
    );
  });
  return traffic;
}

/** Console warnings and errors of a page (and its workers), plus uncaught errors. */
export function recordConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'warning' || m.type() === 'error') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  return problems;
}

/**
 * The body of packages/browser/README.md's one ```lang block whose text contains `marker` (the
 * other-bundler recipes, taken as they stand); throws unless there is exactly one.
 */
export async function browserReadmeBlock(lang: string, marker: string): Promise<string> {
  const readme = await readFile(join(REPO_ROOT, 'packages/browser/README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```(\w+)\n([\s\S]*?)```/g)].filter(
    (m) => m[1] === lang && m[2]!.includes(marker),
  );
  if (blocks.length !== 1)
    throw new Error(`packages/browser/README.md: ${blocks.length} \`\`\`${lang} blocks with ${marker}, not one`);
  return blocks[0]![2]!;
}
