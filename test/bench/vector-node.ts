/**
 * Vector search in Node: VectorIndex vs a per-entry loop vs @orama/orama, 512-d, 10k and 100k rows.
 * Run: `node --conditions=@zerda/source --import tsx test/bench/vector-node.ts [sizes...]`
 * (`--cpu` times with process CPU time instead of wall time, which a busy shared machine distorts
 * less; `--no-orama` skips Orama). 'VectorIndex' is the default
 * index (WebAssembly SIMD scan where available), 'VectorIndex (JS)' the same with `{ simd: false }`.
 * Prints figures and writes them to the bench history (history.ts); never gates CI.
 */
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { machineEnv, writeBenchRecord } from './history.js';
import { benchVectors, formatResult, historyOf } from './vector-bench-core.js';

const args = process.argv.slice(2);
const sizes = args.map(Number).filter((n) => n > 0);
const cpu = args.includes('--cpu');
const load = loadavg()[0]!.toFixed(1);
const result = await benchVectors({
  sizes: sizes.length ? sizes : [10_000, 100_000],
  skipOrama: args.includes('--no-orama'),
  now: cpu
    ? () => {
        const u = process.cpuUsage();
        return (u.user + u.system) / 1000;
      }
    : () => performance.now(),
  log: (l) => console.error(l),
});
console.log(
  formatResult(
    `Node ${process.version}, ${cpu ? 'process CPU time' : 'wall time'} (load average ${load} -> ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores)`,
    result,
  ),
);
const file = writeBenchRecord({
  bench: cpu ? 'vector-node-cpu' : 'vector-node',
  at: new Date().toISOString(),
  env: { ...machineEnv(), clock: cpu ? 'process CPU time' : 'wall time', loadBefore: Number(load) },
  ...historyOf(result),
});
console.error(`bench history: wrote ${file} (compare: test/bench/compare.ts)`);
