import { defineConfig } from 'vite';
import { zerda } from '@zerda/browser/vite';

// `serviceWorker: true` emits zerda-sw.js, which caches the whole build (app, model worker, model,
// ONNX Runtime's and sql.js' WASM) on the first visit: the chat then opens and remembers offline.
export default defineConfig({
  plugins: [zerda({ crossOriginIsolation: true, serviceWorker: true })],
});
