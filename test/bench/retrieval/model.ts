import { fileURLToPath } from 'node:url';
import { createTransformersEmbedder, deriveModelId, USE_LITE } from '@zerda/embeddings';
import { CachedEmbedder } from './cached-embedder.js';

/** The repository root (this file is `test/bench/retrieval/model.ts`). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Model id of the bundled `use-lite` model as `TransformersEmbedder` reports it. */
export const USE_LITE_ID = deriveModelId(USE_LITE.name, USE_LITE.dtype, 'mean');

/**
 * The bundled offline model (Universal Sentence Encoder Lite, 512-d, int8), exactly as an app
 * gets it from `@zerda/embeddings` (`createTransformersEmbedder()` with its defaults, CPU in Node),
 * behind a file cache under `.tmp/` so reruns skip the model. The model only loads on a cache miss.
 */
export function createCachedUseLite(cacheDir = `${REPO_ROOT}.tmp/retrieval-cache`): CachedEmbedder {
  // `ZERDA_BENCH_INT8_ACTIVATIONS=1`: the bundled model's integer-product graph (the browser's
  // default), cached apart, to measure recall with the vectors a browser makes.
  const int8 = process.env.ZERDA_BENCH_INT8_ACTIVATIONS === '1';
  return new CachedEmbedder({
    modelId: USE_LITE_ID,
    dim: USE_LITE.dim,
    file: `${cacheDir}/${USE_LITE_ID.replace(/[^\w.-]+/g, '_')}${int8 ? '_int8-activations' : ''}`,
    create: async () => createTransformersEmbedder({ device: 'cpu', ...(int8 ? { quantizeActivations: true } : {}) }),
  });
}
