/**
 * Public surface of @zerda/embeddings (in-thread embedder). The worker host and client live in
 * `@zerda/embeddings/worker`, Node helpers in `@zerda/embeddings/node`.
 * @module @zerda/embeddings
 */
export { TransformersEmbedder, createTransformersEmbedder } from './transformers-embedder.js';
export { USE_LITE, useLiteModelFiles } from './bundled-model.js';
export {
  BUNDLED_MODEL,
  deriveModelId,
  type EmbeddingDevice,
  type EmbeddingDtype,
  type EmbeddingPooling,
  type ModelLoadProgress,
  type OrtWasmPaths,
  type SerializableEmbedderOptions,
  type TransformersEmbedderOptions,
} from './options.js';
// The core types in the embedders' signatures.
export type { Embedder, EmbedOptions } from '@zerda/core';
