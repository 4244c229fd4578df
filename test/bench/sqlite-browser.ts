/**
 * @zerda/sqlite in Chromium: IndexedDbPersistence (strict durability) against the naive baseline
 * (export the whole database and put it in IndexedDB on every write), at 1k/10k/100k memories.
 * Run: `node --conditions=@zerda/source --import tsx test/bench/sqlite-browser.ts [sizes...]`
 * Prints figures and writes them to the bench history (history.ts); never gates CI.
 */
import { join } from 'node:path';
import { callPage, openReadyPage, REPO_ROOT } from '../e2e/harness.js';
import { machineEnv, writeBenchRecord } from './history.js';
import { historyOfSqlite, type SizeFigures } from './sqlite-bench-core.js';

const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const { browser, tab, close } = await openReadyPage(join(REPO_ROOT, 'test/e2e/pages/sqlite-bench'));
try {
  const result = await callPage<{ figures: SizeFigures[]; logs: string[] }>(
    tab,
    'sqliteBench',
    sizes.length ? sizes : [1_000, 10_000, 100_000],
  );
  for (const l of result.logs) console.error(l);
  console.table(result.figures);
  const file = writeBenchRecord({
    bench: 'sqlite-browser',
    at: new Date().toISOString(),
    env: { ...machineEnv(), chromium: browser.version() },
    limits: {},
    figures: historyOfSqlite(result.figures),
  });
  console.error(`bench history: wrote ${file} (compare: test/bench/compare.ts)`);
} finally {
  await close();
}
