import { readFileSync } from 'node:fs';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { zerda, type ZerdaPrecache } from '@zerda/browser/vite';

/** A Workbox precache entry (`ManifestEntry` in workbox-build). */
type Entry = { url: string; revision: string | null; size: number };

/**
 * Add Zerda's files to Workbox's precache list from `zerda-precache.json`, which the `zerda()`
 * plugin has written by the time Workbox runs. Workbox's own glob (js, css, html and wasm files in
 * vite-plugin-pwa) finds the app's files but not the model (`.onnx`) nor its tokenizer (`.json`).
 * Their names are content-hashed, so they need no revision.
 */
function zerdaFiles(outDir: string) {
  return async (entries: Entry[]) => {
    const list = JSON.parse(readFileSync(`${outDir}/zerda-precache.json`, 'utf8')) as ZerdaPrecache;
    const listed = new Set(entries.map((e) => e.url));
    const missing = list.zerda.filter((url) => url !== './' && !listed.has(url));
    return { manifest: [...entries, ...missing.map((url) => ({ url, revision: null, size: 0 }))], warnings: [] };
  };
}

export default defineConfig({
  plugins: [
    zerda({ crossOriginIsolation: true }),
    VitePWA({
      injectRegister: false, // src/main.ts registers sw.js itself
      manifest: false, // no web app manifest in this example (add yours: name, icons, …)
      workbox: {
        manifestTransforms: [zerdaFiles('dist')],
        // ONNX Runtime's WASM is 14 MB (27 MB with `webgpu: true`); Workbox's limit is 2 MiB.
        maximumFileSizeToCacheInBytes: 32 * 1024 * 1024,
      },
    }),
  ],
});
