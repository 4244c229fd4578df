// Benchmark page for test/bench/vector-browser.ts: runs the shared vector benchmark on the main thread.
import { benchVectors } from '../../vector-bench-core.js';
import { VectorIndex as VectorIndexBefore } from '../../vector-index-before.js';
import { WasmSimdIndex } from '../../vector-wasm-simd.js';
import type { VectorBenchConfig, VectorBenchResult } from '../../vector-bench-core.js';

type PageConfig = Omit<VectorBenchConfig, 'now' | 'log' | 'extraIndexes'> & { before?: boolean; wasm?: boolean };

const logs: string[] = [];
(globalThis as unknown as { vectorBench: (c: PageConfig) => Promise<{ result: VectorBenchResult; logs: string[] }> }).vectorBench = async (
  config,
) => {
  const result = await benchVectors({ ...config, extraIndexes: {
      ...(config.before === false ? {} : { 'VectorIndex (before)': VectorIndexBefore }),
      ...(config.wasm ? { 'wasm SIMD probe': WasmSimdIndex } : {}),
    }, now: () => performance.now(), log: (l) => logs.push(l) });
  return { result, logs };
};
document.getElementById('out')!.textContent = 'ready';
