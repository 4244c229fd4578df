/**
 * Embedding throughput in Node (onnxruntime-node, CPU) with the bundled model.
 * Run: `node --conditions=@zerda/source --import tsx test/bench/embeddings-node.ts [n]`
 * Prints figures only; never gates CI.
 */
import { createTransformersEmbedder } from '@zerda/embeddings';
import { memorySentences } from '../e2e/pages/embeddings/sentences.js';

export interface NodeEmbeddingFigures {
  loadMs: number;
  n: number;
  /** Sentences per second by batch size. */
  throughput: Record<string, number>;
}

export async function benchNodeEmbeddings(n = 1000): Promise<NodeEmbeddingFigures> {
  const texts = memorySentences(n);
  const t0 = performance.now();
  const warm = createTransformersEmbedder();
  await warm.ready();
  const loadMs = Math.round(performance.now() - t0);
  await warm.close();
  const throughput: Record<string, number> = {};
  for (const batchSize of [1, 8, 32, 64]) {
    const embedder = createTransformersEmbedder({ batchSize });
    await embedder.ready();
    await embedder.embed(texts.slice(0, 16)); // warm-up
    const count = batchSize === 1 ? Math.min(n, 300) : n;
    const start = performance.now();
    await embedder.embed(texts.slice(0, count));
    throughput[`batch ${batchSize}`] = Math.round((count / (performance.now() - start)) * 1000);
    await embedder.close();
  }
  return { loadMs, n, throughput };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const n = Number(process.argv[2] ?? 1000);
  const figures = await benchNodeEmbeddings(n);
  console.log(`Node embeddings (use-lite q8, CPU), ${n} sentences`);
  console.log(`  model load: ${figures.loadMs} ms`);
  for (const [k, v] of Object.entries(figures.throughput)) console.log(`  ${k.padEnd(9)} ${v} sentences/s`);
}
