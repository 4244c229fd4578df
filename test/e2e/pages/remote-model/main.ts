// Test page: a model downloaded from a hub the app names (`remoteHost`), in the ready-made worker.
// The spec drives it through `window.remoteModelPage.load(hubUrl)`.
import EmbedWorker from '@zerda/embeddings/worker-entry?worker';
import { createWorkerEmbedder } from '@zerda/embeddings/worker';
import type { ModelLoadProgress } from '@zerda/embeddings';

const dot = (a: Float32Array, b: Float32Array): number => a.reduce((s, x, i) => s + x * b[i]!, 0);

/** Progress events of the load in flight, so a load that never settles can say how far it got. */
let progress: ModelLoadProgress[] = [];

async function load(remoteHost: string): Promise<Record<string, unknown>> {
  progress = [];
  const embedder = createWorkerEmbedder({
    worker: new EmbedWorker(),
    model: 'zerda-test/use-lite',
    dtype: 'q8',
    allowRemoteModels: true,
    remoteHost,
    onProgress: (p) => progress.push(p),
  });
  try {
    await embedder.ready();
    const [birthday, question, hiking] = await embedder.embed([
      'My birthday is July 4th',
      'When is my birthday?',
      'I like hiking in the mountains',
    ]);
    return {
      modelId: embedder.modelId,
      dim: embedder.dim,
      related: dot(birthday!, question!),
      unrelated: dot(hiking!, question!),
      statuses: [...new Set(progress.map((p) => p.status))],
      modelBytes: Math.max(
        0,
        ...progress.filter((p) => p.file === 'onnx/model_quantized.onnx').map((p) => p.loaded ?? 0),
      ),
      cached: (await caches.keys()).length > 0,
    };
  } finally {
    await embedder.close();
  }
}

/** The last few progress events of the current load (status, file, loaded bytes). */
const lastProgress = (): string =>
  progress
    .slice(-4)
    .map((p) => [p.status, p.file, p.loaded].filter((x) => x !== undefined).join(' '))
    .join('; ') || 'none';

/** Load the model from `modelFiles` URLs (hashed-asset style) and return the error message, if any. */
async function loadFiles(files: Record<string, string>): Promise<string> {
  const embedder = createWorkerEmbedder({ worker: new EmbedWorker(), modelFiles: files, dtype: 'q8' });
  try {
    await embedder.ready();
    return 'loaded';
  } catch (e) {
    return `${(e as { code?: string }).code}: ${(e as Error).message}`;
  } finally {
    await embedder.close();
  }
}

Object.assign(globalThis, { remoteModelPage: { load, loadFiles, lastProgress } });
document.getElementById('out')!.textContent = 'ready';
