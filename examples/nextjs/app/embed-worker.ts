// The model's worker: transformers.js + ONNX Runtime (plain WASM build) + the bundled use-lite
// model. Turbopack emits the model's files and ONNX Runtime's WASM through `new URL(…,
// import.meta.url)`; with no `wasmPaths`, ONNX Runtime loads that copy (never a CDN).
import { exposeEmbedder } from '@zerda/browser/worker';

exposeEmbedder();
