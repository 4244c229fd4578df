import { createHash } from 'node:crypto';
import type { Plugin } from 'vite';

/** Name of the file the service worker reads on install. */
export const PRECACHE_MANIFEST = 'precache-manifest.json';

/**
 * Emits `precache-manifest.json`: every file of the production build (app chunks, worker
 * bundles, WASM, model files) plus a version derived from their names, so the service worker
 * can cache the whole app on the first visit and drop stale caches after a deploy.
 */
export function precacheManifest(): Plugin {
  return {
    name: 'zerda-demo-precache-manifest',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const files = Object.keys(bundle)
        .filter((f) => !f.endsWith('.map') && f !== PRECACHE_MANIFEST)
        .sort();
      const version = createHash('sha256').update(files.join('\n')).digest('hex').slice(0, 16);
      const urls = ['./', ...files.filter((f) => f !== 'index.html').map((f) => `./${f}`)];
      this.emitFile({ type: 'asset', fileName: PRECACHE_MANIFEST, source: JSON.stringify({ version, urls }, null, 2) });
    },
  };
}
