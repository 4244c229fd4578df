// The bench's worker: the package's ready-made entry (ONNX Runtime's WASM from the app's origin).
import '@zerda/embeddings/worker-entry';
