/// <reference types="vite/client" />
/**
 * Vite apps: `openBrowserMemory` with the bundled embedding model in a worker and sql.js' WASM,
 * all emitted with the app and served from its own origin (no CDN, works offline); and `zerda()`,
 * the Vite plugin that makes the dev server and the build handle them with no other config.
 * The worker and the WASM URL are static imports: an extension service worker allows no dynamic
 * `import()` (nor Vite's preload helper, which needs `window`). Node, where `?worker` and `?url`
 * do not exist, gets `vite-node.ts` instead (the `node` export condition), so `vite.config.ts`
 * can import the plugin from here.
 * @module @zerda/browser/vite
 */
import { ZerdaError, type Embedder } from '@zerda/core';
import EmbedWorker from '@zerda/embeddings/worker-entry?worker';
import { sqlWasmUrl as bundledSqlWasmUrl } from '@zerda/sqlite/vite';
import {
  openBrowserMemory as open,
  type BrowserMemory,
  type OpenBrowserMemoryOptions,
  type WorkerModelOptions,
} from './open-browser-memory.js';

export * from './vite-entry-common.js';

/**
 * {@link open | openBrowserMemory} with Vite defaults: `embedder` is the bundled `use-lite` model
 * in a module worker (`@zerda/embeddings/worker-entry`, at most 4 WASM threads and one core left
 * to the page), `sqlWasmUrl` is sql.js' WASM. Model options without `worker`/`workerUrl`
 * (`{ model, allowRemoteModels, remoteHost, ... }`) run in that same worker. Pass `embedder:
 * 'hash'` (or your own `Embedder`) to skip the model.
 *
 * Where no `Worker` can be created (an extension's background service worker) the default model
 * cannot run, and this rejects with `UNSUPPORTED` instead of quietly using another embedder: open
 * the memory in a page or an offscreen document, or choose `embedder` explicitly.
 */
export async function openBrowserMemory(options: OpenBrowserMemoryOptions = {}): Promise<BrowserMemory> {
  const embedder = defaultEmbedder(options.embedder);
  return open({ ...options, sqlWasmUrl: options.sqlWasmUrl ?? bundledSqlWasmUrl, embedder });
}

function defaultEmbedder(choice: OpenBrowserMemoryOptions['embedder']): OpenBrowserMemoryOptions['embedder'] {
  if (choice !== undefined && !isBareModelOptions(choice)) return choice;
  if (typeof Worker !== 'function') {
    throw new ZerdaError(
      'UNSUPPORTED',
      'The embedding model runs in a Web Worker, and this context (an extension service worker?) cannot create one. ' +
        'Open the memory in a page or an offscreen document and message it, or pass `embedder` explicitly ' +
        "('hash' for feature hashing without a model, 'none' for lexical recall only).",
    );
  }
  return { ...workerThreads(), ...(choice ?? {}), worker: new EmbedWorker() };
}

/** Model options without a worker of their own (`{ model, allowRemoteModels, ... }`). */
function isBareModelOptions(choice: NonNullable<OpenBrowserMemoryOptions['embedder']>): choice is WorkerModelOptions {
  if (typeof choice !== 'object' || choice === null) return false;
  const c = choice as Partial<Embedder & WorkerModelOptions>;
  return typeof c.embed !== 'function' && c.worker === undefined && c.workerUrl === undefined;
}

/**
 * WASM threads for the model: up to 4, leaving one core to the page so it stays responsive.
 * Threads need cross-origin isolation (COOP/COEP) and SharedArrayBuffer (WebKitGTK is isolated
 * without it); without them the embedder's default (1) stands.
 */
function workerThreads(): { numThreads?: number } {
  if (!(globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated || typeof SharedArrayBuffer !== 'function')
    return {};
  const cores = (globalThis.navigator as Navigator | undefined)?.hardwareConcurrency ?? 2;
  return { numThreads: Math.max(1, Math.min(4, cores - 1)) };
}
