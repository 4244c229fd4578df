import { openBrowserMemory } from '@zerda/browser';

// The recipe for webpack 5: webpack emits the worker, ONNX Runtime's WASM and the model from their
// `new URL(…, import.meta.url)`; only sql.js' WASM is copied (examples/nextjs/scripts/copy-zerda-assets.mjs).
openBrowserMemory({
  name: 'notes',
  owner: 'me',
  embedder: { worker: new Worker(new URL('./embed-worker.ts', import.meta.url), { type: 'module' }) },
  sqlWasmUrl: '/sql-wasm-browser.wasm',
}).then(
  (memory) => {
    // For test/e2e/bundlers.spec.ts, which drives this page in Chromium.
    Object.assign(globalThis, { zerdaMemory: memory });
    document.getElementById('status').textContent = 'ready';
  },
  (e) => {
    document.getElementById('status').textContent = `error: ${e}`;
  },
);
