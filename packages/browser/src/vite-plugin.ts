// The Vite plugin. No Node import at module level: this file is also reachable from app code
// through `@zerda/browser/vite` (tree-shaken away in builds, served as-is by the dev server).
import type { Plugin, UserConfig } from 'vite';

/** Options of {@link zerda}. */
export interface ZerdaPluginOptions {
  /**
   * Send `Cross-Origin-Opener-Policy: same-origin` and `Cross-Origin-Embedder-Policy:
   * require-corp` from the dev and preview servers, so the page is cross-origin isolated and ONNX
   * Runtime may use WASM threads. Your production host must send the same headers for threads;
   * without them the model runs on one thread. They also block cross-origin resources that do not
   * opt in (CORP/CORS), so they are off by default.
   */
  crossOriginIsolation?: boolean;
  /**
   * Ship ONNX Runtime's WebGPU build (and its 27 MB asyncify WASM) so `device: 'webgpu'`/`'auto'`
   * can use a GPU. Default `false`: only the plain WASM build (14 MB, 3.7 MB gzipped), which is
   * also ~1.5× faster on CPU than the asyncify build WebGPU needs.
   */
  webgpu?: boolean;
  /**
   * Also emit `zerda-sw.js`, a service worker that caches every file of the build on the first
   * visit (from `zerda-precache.json`) so the app opens, remembers and recalls offline. Register
   * it from your page: `navigator.serviceWorker.register(import.meta.env.BASE_URL + 'zerda-sw.js')`.
   * Default `false` (apps with their own service worker read `zerda-precache.json` instead).
   */
  serviceWorker?: boolean;
}

/** The file every build emits: what to cache for offline use (see {@link ZerdaPrecache}). */
export const PRECACHE_FILE = 'zerda-precache.json';
/** The service worker `serviceWorker: true` emits. */
export const SERVICE_WORKER_FILE = 'zerda-sw.js';

/** The content of `zerda-precache.json`, for an app's own service worker (Workbox or hand-written). */
export interface ZerdaPrecache {
  /** Changes when any file name changes (the names are content-hashed): a cache name for this deploy. */
  version: string;
  /** Every file of the build, relative to the app's base (`./` for `index.html`); maps excluded. */
  files: string[];
  /** The part of `files` that Zerda brings: the model worker, the model, ONNX Runtime's and sql.js' WASM. */
  zerda: string[];
}

/** The Zerda packages: served as they are (their workers, `?url` and `new URL` assets need Vite's own pipeline, not the dependency optimiser). */
const PACKAGES = ['@zerda/browser', '@zerda/embeddings', '@zerda/sqlite', '@zerda/core'] as const;

/** Third-party imports of those packages, pre-bundled up front (sql.js is CommonJS; the others would otherwise be found late and reload the page). */
function thirdParty(webgpu: boolean): Record<string, string[]> {
  return {
    '@zerda/sqlite': ['sql.js', 'idb'],
    '@zerda/embeddings': ['comlink', 'onnxruntime-common', webgpu ? 'onnxruntime-web/webgpu' : 'onnxruntime-web/wasm'],
  };
}

const ORT_FILES = ['ort-wasm-simd-threaded.wasm', 'ort-wasm-simd-threaded.mjs'];

/**
 * Vite plugin for apps that use Zerda: `plugins: [zerda()]` in `vite.config.ts`, nothing else.
 *
 * - Dev server: the Zerda packages skip the dependency optimiser (which cannot bundle their
 *   `?worker` import) and their third-party imports are pre-bundled instead (sql.js is CommonJS).
 * - Workers are ES modules (the model worker imports ONNX Runtime dynamically).
 * - ONNX Runtime: only the plain WASM build is bundled and emitted; its WebGPU build and 27 MB
 *   asyncify WASM only with `webgpu: true`.
 * - The model files and sql.js' WASM are referenced with `new URL(…, import.meta.url)` / `?url`,
 *   so Vite emits them as hashed assets served from the app's own origin.
 * - `crossOriginIsolation: true`: COOP/COEP headers on the dev and preview servers (WASM threads).
 */
export function zerda(options: ZerdaPluginOptions = {}): Plugin {
  const webgpu = options.webgpu === true;
  const serviceWorker = options.serviceWorker === true;
  return {
    name: 'zerda',
    // After Vite's HTML plugin, so `index.html` is in the bundle.
    generateBundle: {
      order: 'post',
      handler(_output, bundle) {
        // The app's own (client) build only: not SSR builds, not the worker bundles.
        const env = (this as { environment?: { config: { consumer?: string } } }).environment;
        if (env && env.config.consumer !== undefined && env.config.consumer !== 'client') return;
        const names = Object.keys(bundle)
          .filter((f) => !f.endsWith('.map') && f !== PRECACHE_FILE && f !== SERVICE_WORKER_FILE)
          .sort();
        const url = (f: string) => (f === 'index.html' ? './' : f);
        const zerdaFiles = zerdaFilesOf(bundle, names);
        const manifest: ZerdaPrecache = {
          version: hashNames(names),
          files: names.map(url),
          zerda: names.filter((f) => zerdaFiles.has(f)).map(url),
        };
        this.emitFile({ type: 'asset', fileName: PRECACHE_FILE, source: `${JSON.stringify(manifest, null, 2)}\n` });
        if (serviceWorker) {
          const fs = nodeApis()?.fs as (NodeApis['fs'] & { readFileSync(p: URL, e: 'utf8'): string }) | undefined;
          if (!fs) this.error('zerda({ serviceWorker: true }) needs Node to read its service worker');
          const source = fs.readFileSync(new URL('../service-worker/zerda-sw.js', import.meta.url), 'utf8');
          this.emitFile({ type: 'asset', fileName: SERVICE_WORKER_FILE, source });
        }
      },
    },
    config(user): UserConfig {
      const root = user.root === undefined ? cwd() : user.root.startsWith('/') ? user.root : `${cwd()}/${user.root}`;
      const include: string[] = [];
      for (const [pkg, deps] of Object.entries(thirdParty(webgpu))) {
        const chain = chainTo(root, pkg);
        if (chain) include.push(...deps.map((d) => `${chain} > ${d}`));
      }
      const config: UserConfig = {
        optimizeDeps: { exclude: [...PACKAGES], include },
        worker: { format: 'es' },
      };
      if (!webgpu) {
        // transformers.js imports `onnxruntime-web/webgpu`, whose bundle references the asyncify
        // WASM with `new URL()`: Vite would emit that 27 MB file even when it is never fetched.
        config.resolve = { alias: [{ find: /^onnxruntime-web\/webgpu$/, replacement: 'onnxruntime-web/wasm' }] };
      }
      if (options.crossOriginIsolation) {
        const headers = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };
        config.server = { headers };
        config.preview = { headers };
      }
      return config;
    },
    async resolveId(source, importer) {
      // The WebGPU build needs the asyncify WASM; point the worker's `?url` imports at it.
      if (!webgpu) return null;
      const match = /^onnxruntime-web\/(ort-wasm-simd-threaded)\.(wasm|mjs)\?url$/.exec(source);
      if (!match || !ORT_FILES.includes(`${match[1]}.${match[2]}`)) return null;
      return this.resolve(`onnxruntime-web/${match[1]}.asyncify.${match[2]}?url`, importer, { skipSelf: true });
    },
  };
}

/** Files Zerda brings into a build: the model worker, the model, ONNX Runtime's and sql.js' WASM. */
const ZERDA_ASSET =
  /worker-entry|@zerda[\\/]|packages[\\/](embeddings|sqlite)[\\/]|sql\.js|sql-wasm|onnxruntime-web|ort-wasm/;

/**
 * The files of `names` that Zerda brought: those whose name or source path says so, and every
 * file the scripts among them refer to by name. The worker's own bundle reaches the app's bundle
 * as plain assets with no source path, so the model, tokenizer and embedder chunk it loads are
 * only found through the worker script that names them.
 */
function zerdaFilesOf(bundle: Record<string, unknown>, names: string[]): Set<string> {
  const found = new Set(
    names.filter((f) => {
      const item = bundle[f] as { originalFileNames?: string[] };
      return [f, ...(item.originalFileNames ?? [])].some((s) => ZERDA_ASSET.test(s));
    }),
  );
  const queue = [...found];
  while (queue.length > 0) {
    const f = queue.pop()!;
    if (!/\.m?js$/.test(f)) continue;
    const item = bundle[f] as { code?: string; source?: string | Uint8Array };
    const raw = item.code ?? item.source;
    const text = typeof raw === 'string' ? raw : raw ? new TextDecoder().decode(raw) : '';
    for (const other of names) {
      if (found.has(other)) continue;
      const base = other.slice(other.lastIndexOf('/') + 1);
      if (text.includes(base)) {
        found.add(other);
        queue.push(other);
      }
    }
  }
  return found;
}

/** A short, stable digest of the file names (53-bit, cyrb53): no Node import needed. */
function hashNames(names: string[]): string {
  const text = names.join('\n');
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}

interface NodeApis {
  fs: { existsSync(path: string): boolean; realpathSync(path: string): string };
  path: { join(...parts: string[]): string; dirname(path: string): string };
}

function nodeApis(): NodeApis | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const fs = proc?.getBuiltinModule?.('node:fs') as NodeApis['fs'] | undefined;
  const path = proc?.getBuiltinModule?.('node:path') as NodeApis['path'] | undefined;
  return fs && path ? { fs, path } : undefined;
}

function cwd(): string {
  return (globalThis as unknown as { process: { cwd(): string } }).process.cwd();
}

/**
 * The folder of `pkg` as Vite's resolver finds it from `from`: `node_modules/<pkg>` in `from` or
 * an ancestor. (Not Node's `require.resolve`, which also honours `NODE_PATH`; pnpm's bin shims
 * set that to its hidden hoisting folder, where Vite does not look.)
 */
function packageDir(node: NodeApis, from: string, pkg: string): string | undefined {
  for (let dir = from; ; dir = node.path.dirname(dir)) {
    const candidate = node.path.join(dir, 'node_modules', pkg);
    if (node.fs.existsSync(node.path.join(candidate, 'package.json'))) return node.fs.realpathSync(candidate);
    if (node.path.dirname(dir) === dir) return undefined;
  }
}

/**
 * How Vite reaches `pkg` from the app's root, as an `optimizeDeps.include` chain: `pkg` itself
 * when the app depends on it (or npm hoisted it), else through `@zerda/browser` (pnpm's strict
 * layout when the app only depends on `@zerda/browser`).
 */
function chainTo(root: string, pkg: string): string | undefined {
  const node = nodeApis();
  if (!node) return pkg;
  if (packageDir(node, root, pkg)) return pkg;
  const browser = packageDir(node, root, '@zerda/browser');
  if (browser && packageDir(node, browser, pkg)) return `@zerda/browser > ${pkg}`;
  return undefined;
}
