/**
 * Node entry of @zerda/embeddings: the in-thread embedder and the bundled model's paths on disk.
 * @module @zerda/embeddings/node
 */
import { fileURLToPath } from 'node:url';
import { USE_LITE } from './bundled-model.js';

export { TransformersEmbedder, createTransformersEmbedder } from './transformers-embedder.js';

/**
 * Absolute path of the folder that contains the bundled model's folder (`use-lite/`): pass it as
 * `localModelPath` together with `model: 'use-lite'`, or copy the folder elsewhere.
 */
export function bundledModelPath(): string {
  return fileURLToPath(new URL('../model/', import.meta.url));
}

/** Absolute path of the bundled model's own folder (`…/model/use-lite`). */
export function bundledModelDir(): string {
  return fileURLToPath(new URL(`../model/${USE_LITE.name}/`, import.meta.url));
}
