import { openBrowserMemory } from '@zerda/browser';

// The recipe for esbuild: the worker is a second entry point, ONNX Runtime's files, the model and
// sql.js' WASM are copied next to the output (copy-zerda-assets.mjs from the README).
openBrowserMemory({
  name: 'notes',
  owner: 'me',
  embedder: { workerUrl: '/embed-worker.js', localModelPath: '/models/' },
  sqlWasmUrl: '/sql-wasm-browser.wasm',
}).then(
  (memory) => {
    // For test/e2e/bundlers.spec.ts, which drives this page in Chromium.
    Object.assign(globalThis, { zerdaMemory: memory });
    document.getElementById('status')!.textContent = 'ready';
  },
  (e) => {
    document.getElementById('status')!.textContent = `error: ${e}`;
  },
);
