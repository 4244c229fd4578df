/// <reference types="vite/client" />
/**
 * Vite-only helpers: `?url` imports make Vite emit ONNX Runtime's WASM files with the app, so the
 * browser never fetches them from a CDN. Other bundlers: copy the two files and pass `wasmPaths`.
 * @module @zerda/embeddings/vite
 */
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.wasm?url';
import ortMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.mjs?url';
import type { OrtWasmPaths } from './options.js';

export { useLiteModelFiles } from './bundled-model.js';

/**
 * URLs of ONNX Runtime's plain (non-asyncify, 1.5× faster) threaded WASM build, emitted by Vite
 * into the app's own origin. Pass as `wasmPaths`.
 */
export const ortWasmPaths: OrtWasmPaths = { wasm: ortWasmUrl, mjs: ortMjsUrl };
