/**
 * @zerda/sqlite in Node: FilePersistence (fsync per write) against the naive baseline (export the
 * whole database and write+fsync it on every write), at 1k/10k/100k memories.
 * Run: `node --conditions=@zerda/source --import tsx test/bench/sqlite-node.ts [sizes...]`
 * Prints figures and writes them to the bench history (history.ts); never gates CI.
 */
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FilePersistence } from '@zerda/sqlite/node';
import { machineEnv, writeBenchRecord } from './history.js';
import { benchAll, historyOfSqlite } from './sqlite-bench-core.js';

const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const root = await mkdtemp(join(tmpdir(), 'zerda-bench-'));
try {
  const figures = await benchAll(
    {
      persistence: (name) => new FilePersistence({ dir: join(root, name) }),
      async storeWhole(name, bytes) {
        const fh = await open(join(root, `${name}.sqlite`), 'w');
        await fh.write(bytes, 0, bytes.length, 0);
        await fh.sync();
        await fh.close();
      },
      log: (l) => console.error(l),
    },
    sizes.length ? sizes : [1_000, 10_000, 100_000],
  );
  console.table(figures);
  const file = writeBenchRecord({
    bench: 'sqlite-node',
    at: new Date().toISOString(),
    env: machineEnv(),
    limits: {},
    figures: historyOfSqlite(figures),
  });
  console.error(`bench history: wrote ${file} (compare: test/bench/compare.ts)`);
} finally {
  await rm(root, { recursive: true, force: true });
}
