/** @module @zerda/browser/worker */
// The model worker's side, for apps on other bundlers (webpack, Next.js, esbuild): under pnpm an
// app can import only its direct dependencies, and @zerda/embeddings is not one.
//
//   // embed-worker.ts
//   import { exposeEmbedder } from '@zerda/browser/worker';
//   exposeEmbedder(); // webpack 5 / Turbopack emit ONNX Runtime's WASM; esbuild: { wasmPaths: '/ort/' }
export { exposeEmbedder } from '@zerda/embeddings/worker';
export type { OrtWasmPaths, TransformersEmbedderOptions } from '@zerda/embeddings';
