// Benchmark page for test/bench/vector-browser.ts: runs the shared vector benchmark on the main thread.
import { benchVectors } from '../../vector-bench-core.js';
import type { VectorBenchConfig, VectorBenchResult } from '../../vector-bench-core.js';

type PageConfig = Omit<VectorBenchConfig, 'now' | 'log' | 'extraIndexes'>;

const logs: string[] = [];
(
  globalThis as unknown as { vectorBench: (c: PageConfig) => Promise<{ result: VectorBenchResult; logs: string[] }> }
).vectorBench = async (config) => {
  const result = await benchVectors({ ...config, now: () => performance.now(), log: (l) => logs.push(l) });
  return { result, logs };
};
document.getElementById('out')!.textContent = 'ready';
