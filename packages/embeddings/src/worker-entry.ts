// Ready-made worker for Vite apps: `import EmbedWorker from '@zerda/embeddings/worker-entry?worker'`,
// then `createWorkerEmbedder({ worker: new EmbedWorker() })`. Serves ONNX Runtime's WASM and the
// bundled model from the app's own origin.
import { ortWasmPaths } from './vite.js';
import { exposeEmbedder } from './worker.js';

exposeEmbedder({ wasmPaths: ortWasmPaths });
