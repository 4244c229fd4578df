/// <reference types="vite/client" />
// Vite apps: `openBrowserMemory` with the bundled embedding model in a worker and sql.js' WASM,
// all emitted with the app and served from its own origin (no CDN, works offline).
import EmbedWorker from '@zerda/embeddings/worker-entry?worker';
import { sqlWasmUrl } from '@zerda/sqlite/vite';
import { openBrowserMemory as open, type BrowserMemory, type OpenBrowserMemoryOptions } from './open-browser-memory.js';

export * from './index.js';

/**
 * {@link open | openBrowserMemory} with Vite defaults: `embedder` is the bundled `use-lite` model
 * in a module worker (`@zerda/embeddings/worker-entry`), `sqlWasmUrl` is sql.js' WASM. Pass
 * `embedder: 'hash'` (or your own) to skip the model.
 */
export function openBrowserMemory(options: OpenBrowserMemoryOptions = {}): Promise<BrowserMemory> {
  return open({
    sqlWasmUrl,
    ...options,
    embedder: options.embedder ?? (typeof Worker === 'function' ? { worker: new EmbedWorker() } : 'hash'),
  });
}
