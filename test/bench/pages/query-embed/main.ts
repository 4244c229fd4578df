// Benchmark page for test/bench/query-embed-browser.ts: one short question at a time through
// worker embedders loaded in different ways, interleaved, with and without the page's thread busy.
import { useLiteModelFiles } from '@zerda/embeddings/vite';
import { createWorkerEmbedder, type WorkerEmbedder } from '@zerda/embeddings/worker';
import EmbedWorker from './probe-worker.ts?worker';

/** One way to load the model: `options` go to `createWorkerEmbedder`; `files` adds the bundled model's files as `modelFiles`. */
export interface QueryEmbedVariant {
  name: string;
  options?: Record<string, unknown>;
  files?: boolean;
}

export interface QueryEmbedPageConfig {
  questions: string[];
  variants: QueryEmbedVariant[];
  /** How long the page's thread stays busy right after each request (the lexical side of a search). */
  busyMs: number;
  /** Texts embedded in batches of 8 per variant after the questions, interleaved batch by batch (throughput). */
  turns?: string[];
}

/** Per variant: load ms, and per condition (`idle`, `busy`) the round trips (ms), in question order. */
export interface QueryEmbedPageResult {
  isolated: boolean;
  variants: { name: string; loadMs: number; idle: number[]; busy: number[]; batches: number[] }[];
  /** Per variant, the vectors of the first questions (agreement check). */
  vectors?: number[][][];
}

function spin(ms: number): void {
  const t = performance.now();
  while (performance.now() - t < ms) {
    /* busy */
  }
}

(
  globalThis as unknown as { queryEmbedBench: (c: QueryEmbedPageConfig) => Promise<QueryEmbedPageResult> }
).queryEmbedBench = async (c) => {
  const runs: { name: string; loadMs: number; idle: number[]; busy: number[]; batches: number[]; e: WorkerEmbedder }[] =
    [];
  try {
    for (const v of c.variants) {
      const e = createWorkerEmbedder({
        worker: new EmbedWorker(),
        ...v.options,
        ...(v.files ? { modelFiles: useLiteModelFiles() } : {}),
      });
      const t = performance.now();
      await e.ready();
      runs.push({ name: v.name, loadMs: performance.now() - t, idle: [], busy: [], batches: [], e });
    }
    for (const r of runs) await r.e.embed(c.questions.slice(0, 8)); // first calls of each shape
    for (const [i, q] of c.questions.entries()) {
      // Alternate the order, so neither variant always runs right after the other.
      for (const r of i % 2 === 0 ? runs : [...runs].reverse()) {
        let t = performance.now();
        await r.e.embed([q]);
        r.idle.push(performance.now() - t);
        t = performance.now();
        const pending = r.e.embed([`${q} `]);
        spin(c.busyMs);
        await pending;
        r.busy.push(performance.now() - t);
      }
    }
    const turns = c.turns ?? [];
    for (let i = 0; i < turns.length; i += 8) {
      for (const r of (i / 8) % 2 === 0 ? runs : [...runs].reverse()) {
        const t = performance.now();
        await r.e.embed(turns.slice(i, i + 8));
        r.batches.push(performance.now() - t);
      }
    }
    const probe = c.questions.slice(0, 20).concat(turns.slice(0, 20));
    const vectors: number[][][] = [];
    for (const r of runs) vectors.push((await r.e.embed(probe)).map((v) => Array.from(v)));
    return { isolated: globalThis.crossOriginIsolated, variants: runs.map(({ e: _e, ...rest }) => rest), vectors };
  } finally {
    await Promise.all(runs.map((r) => r.e.close()));
  }
};
document.getElementById('out')!.textContent = 'ready';
