/// <reference types="vite/client" />
// Vite apps: `openBrowserMemory` with the bundled embedding model in a worker and sql.js' WASM,
// all emitted with the app and served from its own origin (no CDN, works offline).
import EmbedWorker from '@zerda/embeddings/worker-entry?worker';
import { sqlWasmUrl } from '@zerda/sqlite/vite';
import { openBrowserMemory as open, type BrowserMemory, type OpenBrowserMemoryOptions } from './open-browser-memory.js';

export * from './index.js';

/**
 * {@link open | openBrowserMemory} with Vite defaults: `embedder` is the bundled `use-lite` model
 * in a module worker (`@zerda/embeddings/worker-entry`, at most 4 WASM threads and one core left
 * to the page), `sqlWasmUrl` is sql.js' WASM. Pass `embedder: 'hash'` (or your own) to skip the
 * model, or `embedder: { worker, ... }` to choose the model options yourself.
 */
export function openBrowserMemory(options: OpenBrowserMemoryOptions = {}): Promise<BrowserMemory> {
  return open({
    sqlWasmUrl,
    ...options,
    embedder: options.embedder ?? (typeof Worker === 'function' ? { worker: new EmbedWorker(), ...workerThreads() } : 'hash'),
  });
}

/**
 * WASM threads for the model: up to 4, leaving one core to the page so it stays responsive.
 * Threads need cross-origin isolation (COOP/COEP) and SharedArrayBuffer (WebKitGTK is isolated
 * without it); without them the embedder's default (1) stands.
 */
function workerThreads(): { numThreads?: number } {
  if (!(globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated || typeof SharedArrayBuffer !== 'function') return {};
  const cores = (globalThis.navigator as Navigator | undefined)?.hardwareConcurrency ?? 2;
  return { numThreads: Math.max(1, Math.min(4, cores - 1)) };
}
