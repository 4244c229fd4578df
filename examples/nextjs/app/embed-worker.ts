// The model's worker: transformers.js + ONNX Runtime (plain WASM build) + the bundled use-lite
// model, whose files Turbopack emits through `new URL(…, import.meta.url)` in @zerda/embeddings.
import { exposeEmbedder } from '@zerda/browser/worker';

exposeEmbedder({ wasmPaths: '/zerda/ort/' });
