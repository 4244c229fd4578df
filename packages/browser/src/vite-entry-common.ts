// What both builds of `@zerda/browser/vite` export besides their own `openBrowserMemory`: the
// package's main entry and the `zerda()` plugin (`vite.ts` in a Vite bundle, `vite-node.ts` in Node).
export * from './index.js';
export {
  zerda,
  PRECACHE_FILE,
  SERVICE_WORKER_FILE,
  type ZerdaPluginOptions,
  type ZerdaPrecache,
} from './vite-plugin.js';
