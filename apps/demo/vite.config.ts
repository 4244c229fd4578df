import { defineConfig } from 'vite';
import { precacheManifest } from './precache-plugin.ts';

// Same settings as the e2e harness (`pageViteConfig` in test/e2e/harness.ts): workspace packages
// resolve to their TypeScript sources, workers are ES modules, and the page is cross-origin
// isolated (COOP/COEP) so ONNX Runtime may use WASM threads. The WebGPU build of onnxruntime-web
// is aliased to the WASM one: the demo must run on machines without a GPU.
const headers = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

export default defineConfig({
  resolve: {
    conditions: ['@zerda/source'],
    alias: [{ find: /^onnxruntime-web\/webgpu$/, replacement: 'onnxruntime-web/wasm' }],
  },
  worker: { format: 'es' },
  server: { headers },
  preview: { headers, host: '127.0.0.1' },
  build: { target: 'es2022' },
  plugins: [precacheManifest()],
});
