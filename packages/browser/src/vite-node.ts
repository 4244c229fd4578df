// What `@zerda/browser/vite` is in Node (the `node` export condition): the `zerda()` plugin, for
// `vite.config.ts`, without the browser entry's `?worker` and `?url` imports, which only a Vite
// build understands. Its `openBrowserMemory` rejects: the memory runs in the browser bundle.
import { ZerdaError } from '@zerda/core';
import type { BrowserMemory, OpenBrowserMemoryOptions } from './open-browser-memory.js';

export * from './vite-entry-common.js';

/** In Node this rejects with `UNSUPPORTED`: `@zerda/browser/vite` opens the memory in a Vite browser bundle. */
export async function openBrowserMemory(_options: OpenBrowserMemoryOptions = {}): Promise<BrowserMemory> {
  throw new ZerdaError(
    'UNSUPPORTED',
    "openBrowserMemory from '@zerda/browser/vite' runs in a browser bundle built by Vite; this module was loaded " +
      'under the `node` export condition (Node, or a server-side build). Call it from client code only; in Node ' +
      'use MemoryManager from @zerda/core with @zerda/sqlite/node or @zerda/postgres.',
  );
}
