// Benchmark page for test/bench/recall-stages-browser.ts: the recall stage bench on the page's
// thread, the bundled model in a real Worker (the package's ready-made entry), as an app runs it.
import EmbedWorker from '@zerda/embeddings/worker-entry?worker';
import { createWorkerEmbedder } from '@zerda/embeddings/worker';
import { benchRecallStages, type StageSizeResult } from '../../recall-stages-core.js';

/** What the Node side sends: the corpus, its vectors (base64 of the float32 rows, concatenated), the questions. */
export interface RecallStagesPageConfig {
  turns: { text: string; at: number }[];
  vectors: string;
  dim: number;
  questions: string[];
  sizes: number[];
  queries: number;
  numThreads?: number;
  /** More `createWorkerEmbedder` options (an A/B of how the model loads, e.g. `quantizeActivations`). */
  embedderOptions?: Record<string, unknown>;
}

export interface RecallStagesPageResult {
  results: StageSizeResult[];
  logs: string[];
  isolated: boolean;
  device: string | undefined;
  loadMs: number;
}

function decodeRows(base64: string, dim: number): Float32Array[] {
  const bytes = Uint8Array.from(atob(base64), (ch) => ch.charCodeAt(0));
  const all = new Float32Array(bytes.buffer);
  const rows: Float32Array[] = [];
  for (let i = 0; i < all.length; i += dim) rows.push(all.slice(i, i + dim));
  return rows;
}

(
  globalThis as unknown as { recallStagesBench: (c: RecallStagesPageConfig) => Promise<RecallStagesPageResult> }
).recallStagesBench = async (c) => {
  const t0 = performance.now();
  const embedder = createWorkerEmbedder({
    worker: new EmbedWorker(),
    ...(c.numThreads !== undefined ? { numThreads: c.numThreads } : {}),
    ...c.embedderOptions,
  });
  await embedder.ready();
  const loadMs = performance.now() - t0;
  const logs: string[] = [];
  try {
    const results = await benchRecallStages({
      turns: c.turns,
      turnVectors: decodeRows(c.vectors, c.dim),
      questions: c.questions,
      sizes: c.sizes,
      queries: c.queries,
      embedder,
      now: () => performance.now(),
      log: (l) => logs.push(l),
    });
    return { results, logs, isolated: globalThis.crossOriginIsolated, device: embedder.device, loadMs };
  } finally {
    await embedder.close();
  }
};
document.getElementById('out')!.textContent = 'ready';
