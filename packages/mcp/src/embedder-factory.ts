import { statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { HashEmbedder, type Embedder } from '@zerda/core';
import type { TransformersEmbedderOptions } from '@zerda/embeddings';
import type { ServerConfig } from './config.js';

/**
 * The embedder the server uses: the bundled offline model (`ZERDA_EMBEDDER=model`, the default),
 * another model (`ZERDA_MODEL`: a local model folder, or a Hugging Face id when
 * `ZERDA_ALLOW_REMOTE_MODELS=1`), or deterministic feature hashing (`ZERDA_EMBEDDER=hash`: no
 * model, instant start, weaker semantic recall). The model package is imported lazily so a
 * hash-only server never loads ONNX Runtime.
 */
export async function createServerEmbedder(
  config: Pick<ServerConfig, 'embedder' | 'model' | 'modelDtype'>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Embedder> {
  if (config.embedder === 'hash') return new HashEmbedder();
  const { createTransformersEmbedder } = await import('@zerda/embeddings');
  if (!config.model) return createTransformersEmbedder({ device: 'cpu' });
  const dtype = config.modelDtype as TransformersEmbedderOptions['dtype'];
  const common = { device: 'cpu' as const, ...(dtype ? { dtype } : {}) };
  const path = resolve(config.model);
  if (isDirectory(path)) {
    return createTransformersEmbedder({ ...common, model: basename(path), localModelPath: dirname(path) });
  }
  return createTransformersEmbedder({
    ...common,
    model: config.model,
    allowRemoteModels: env.ZERDA_ALLOW_REMOTE_MODELS === '1',
  });
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
