/**
 * Embedding in Chromium: throughput in the worker, and the longest main-thread task while 1,000
 * memories are embedded (target: none over 50 ms), against the same work on the page's own thread;
 * then an in-run A/B of how the bundled model is loaded (`foldWeights` on, the default, against
 * ORT's fused `MatMulNBits` kernel) and of `batchSize` 8 (the default) against 32, over 32 LoCoMo
 * turns when the data is there, else 32 memories.
 * Run: `node --conditions=@zerda/source --import tsx test/bench/embeddings-browser.ts [n]`
 * Prints figures and writes them to the bench history (history.ts); never gates CI.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openReadyPage, REPO_ROOT } from '../e2e/harness.js';
import { memorySentences } from '../e2e/pages/embeddings/sentences.js';
import { machineEnv, writeBenchRecord } from './history.js';
import { loadLocomo } from './retrieval/locomo.js';

export interface BrowserEmbeddingFigures {
  load: Record<string, unknown>;
  worker: Record<string, unknown>;
  inThread: Record<string, unknown>;
  fold: Record<string, unknown>;
  /** Median ms to embed the A/B texts with `batchSize` 8 (the default) and 32. */
  batches: Record<string, number>;
}

/** 32 LoCoMo turns (longer than the memory sentences: what an imported history looks like), or 32 memory sentences without the data. */
function abTexts(): { texts: string[]; what: string } {
  const path = resolve(REPO_ROOT, process.env.LOCOMO_PATH ?? '../shared/bench/data/locomo10.json');
  if (!existsSync(path)) return { texts: memorySentences(32), what: 'memory sentences' };
  const turns = loadLocomo(path).flatMap((c) => c.sessions.flatMap((s) => s.turns.map((t) => t.text)));
  return { texts: turns.slice(0, 32), what: 'LoCoMo turns' };
}

export async function benchBrowserEmbeddings(n = 1000, baselineN = 200): Promise<BrowserEmbeddingFigures> {
  const { tab, close } = await openReadyPage(join(REPO_ROOT, 'test/e2e/pages/embeddings'));
  try {
    const load = await tab.evaluate(() => window.embeddingsPage.init());
    await tab.evaluate(() => window.embeddingsPage.responsiveness(32)); // warm-up
    const worker = await tab.evaluate((count) => window.embeddingsPage.responsiveness(count), n);
    const inThread = await tab.evaluate((count) => window.embeddingsPage.inThread(count), baselineN);
    await tab.evaluate(() => window.embeddingsPage.close());
    const { texts, what } = abTexts();
    const fold = { what, ...(await tab.evaluate((t) => window.embeddingsPage.fusionAb(t, 5), texts)) };
    const batches = await tab.evaluate((t) => window.embeddingsPage.batchAb(t, [8, 32], 3), texts);
    return { load, worker, inThread, fold, batches };
  } finally {
    await close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const n = Number(process.argv[2] ?? 1000);
  const { load, worker, inThread, fold, batches } = await benchBrowserEmbeddings(n);
  const longTasks = worker.longTasks as number[];
  console.log(
    `Chromium embeddings (use-lite q8, WASM, ${String(load.isolated ? 'cross-origin isolated' : 'not isolated')})`,
  );
  console.log(`  model load in worker:        ${String(load.loadMs)} ms`);
  console.log(`  worker, ${n} memories:       ${String(worker.ms)} ms = ${String(worker.sentencesPerSec)} sentences/s`);
  console.log(
    `  main thread meanwhile:       longest task ${String(worker.longestTask)} ms, ${longTasks.length} tasks over 50 ms, max timer gap ${String(worker.maxTimerGapMs)} ms`,
  );
  console.log(
    `  baseline, same work on the page thread (${String(inThread.n)} memories): ${String(inThread.sentencesPerSec)} sentences/s, longest task ${String(inThread.longestTask)} ms`,
  );
  const foldGain = Math.round((Number(fold.asAppMs) / Number(fold.bundledMs)) * 100) / 100;
  console.log(
    `  foldWeights A/B, page thread, ${String(fold.n)} ${String(fold.what)}, median of 5 alternating calls: folded ${String(fold.bundledMs)} ms vs ORT's fused kernel ${String(fold.asAppMs)} ms = ${foldGain}x; vectors max |diff| ${Number(fold.maxAbsDiff).toExponential(1)}, min cos ${Number(fold.minCos).toFixed(6)}`,
  );
  const batchGain = Math.round((batches['batch 32']! / batches['batch 8']!) * 100) / 100;
  console.log(
    `  batchSize A/B, same texts, median of 3: 8 per call ${batches['batch 8']} ms vs 32 per call ${batches['batch 32']} ms = ${batchGain}x`,
  );
  const workerRate = Number(worker.sentencesPerSec);
  const threadRate = Number(inThread.sentencesPerSec);
  const file = writeBenchRecord({
    bench: 'embeddings-browser',
    at: new Date().toISOString(),
    env: { ...machineEnv(), isolated: String(load.isolated) },
    // The page thread's own rate is this machine's anchor: the worker should match it, not beat it.
    limits: { 'page-thread sentences/s': threadRate },
    figures: [
      {
        name: 'worker / page-thread sentences/s',
        value: Math.round((workerRate / threadRate) * 100) / 100,
        unit: 'x',
        noise: 0.3,
        better: 'higher',
      },
      { name: 'worker sentences/s', value: workerRate, unit: 'sentences/s', noise: 0.5, better: 'higher' },
      {
        name: 'main-thread longest task while the worker embeds',
        value: Number(worker.longestTask),
        unit: 'ms',
        noise: 1,
        better: 'lower',
      },
      { name: 'main-thread tasks over 50 ms', value: longTasks.length, unit: 'tasks', noise: 0, better: 'lower' },
      { name: 'fused-kernel / folded-weights time', value: foldGain, unit: 'x', noise: 0.2, better: 'higher' },
      { name: 'batch-32 / batch-8 time', value: batchGain, unit: 'x', noise: 0.2, better: 'higher' },
    ],
  });
  console.error(`bench history: wrote ${file} (compare: test/bench/compare.ts)`);
}
