import { defineConfig } from 'vite';
import { zerda } from '@zerda/browser/vite';
import { syncServer } from './sync-plugin.ts';

// The `zerda()` plugin does what Zerda needs (ES workers, only ONNX Runtime's plain WASM build,
// model and WASM files as assets, COOP/COEP so the model may use WASM threads); the e2e harness
// (`pageViteConfig` in test/e2e/harness.ts) uses the same. Workspace packages resolve to their
// TypeScript sources; the plugin itself is loaded from the built package (`pnpm run build`).
// `serviceWorker: true` emits the package's service worker (`zerda-sw.js`), which src/offline.ts
// registers: the demo works offline after one visit. `syncServer()` serves the local sync server of the Sync panel at /sync (records kept in memory).
export default defineConfig({
  resolve: { conditions: ['@zerda/source'] },
  preview: { host: '127.0.0.1' },
  build: { target: 'es2022' },
  plugins: [zerda({ crossOriginIsolation: true, serviceWorker: true }), syncServer()],
});
