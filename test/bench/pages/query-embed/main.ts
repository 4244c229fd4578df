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
}

/** Per variant: load ms, and per condition (`idle`, `busy`) the round trips (ms), in question order. */
export interface QueryEmbedPageResult {
  isolated: boolean;
  variants: { name: string; loadMs: number; idle: number[]; busy: number[] }[];
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
  const runs: { name: string; loadMs: number; idle: number[]; busy: number[]; e: WorkerEmbedder }[] = [];
  try {
    for (const v of c.variants) {
      const e = createWorkerEmbedder({
        worker: new EmbedWorker(),
        ...v.options,
        ...(v.files ? { modelFiles: useLiteModelFiles() } : {}),
      });
      const t = performance.now();
      await e.ready();
      runs.push({ name: v.name, loadMs: performance.now() - t, idle: [], busy: [], e });
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
    return { isolated: globalThis.crossOriginIsolated, variants: runs.map(({ e: _e, ...rest }) => rest) };
  } finally {
    await Promise.all(runs.map((r) => r.e.close()));
  }
};
document.getElementById('out')!.textContent = 'ready';
