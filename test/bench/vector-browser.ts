/**
 * Vector search in Chromium (main thread of a production Vite bundle): VectorIndex vs a per-entry
 * loop vs @orama/orama, 512-d, 10k and 100k rows. The page computes the figures; this prints them.
 * Run: `node --conditions=@zerda/source --import tsx test/bench/vector-browser.ts [sizes...]`
 * (`--no-orama` skips Orama). 'VectorIndex' is the default
 * index (WebAssembly SIMD scan where available), 'VectorIndex (JS)' the same with `{ simd: false }`.
 * Prints figures and writes them to the bench history (history.ts); never gates CI.
 */
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { callPage, openReadyPage, REPO_ROOT } from '../e2e/harness.js';
import { machineEnv, writeBenchRecord } from './history.js';
import { formatResult, historyOf, type VectorBenchConfig, type VectorBenchResult } from './vector-bench-core.js';

type PageConfig = Omit<VectorBenchConfig, 'now' | 'log' | 'extraIndexes'>;

const args = process.argv.slice(2);
const sizes = args.map(Number).filter((n) => n > 0);
const config: PageConfig = { sizes: sizes.length ? sizes : [10_000, 100_000], skipOrama: args.includes('--no-orama') };
const { browser, tab, close } = await openReadyPage(join(REPO_ROOT, 'test/bench/pages/vector'));
try {
  const load = loadavg()[0]!.toFixed(1);
  const out = await callPage<{ result: VectorBenchResult; logs: string[] }>(tab, 'vectorBench', config);
  for (const l of out.logs) console.error(l);
  console.log(
    formatResult(
      `Chromium ${browser.version()} (load average ${load} -> ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores)`,
      out.result,
    ),
  );
  const file = writeBenchRecord({
    bench: 'vector-browser',
    at: new Date().toISOString(),
    env: { ...machineEnv(), chromium: browser.version(), loadBefore: Number(load) },
    ...historyOf(out.result),
  });
  console.error(`bench history: wrote ${file} (compare: test/bench/compare.ts)`);
} finally {
  await close();
}
