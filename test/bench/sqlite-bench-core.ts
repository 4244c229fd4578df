/**
 * Shared body of the @zerda/sqlite benchmarks (Node: sqlite-node.ts, Chromium: sqlite-browser.ts).
 * For each size it seeds a database, then measures in the same run:
 * - durable single write latency (p50/p95) of SqliteStorage (log record per write) against the
 *   naive baseline (in-memory write, then export the whole database and store it);
 * - cold open to first query (open + lexical search + recent query);
 * - bulk import of the seed (importJson, one durable record) and the compaction after it.
 * Prints nothing itself; returns figures. Never part of CI.
 */
import { createEntry } from '@zerda/core/adapter';
import type { MemoryEntry } from '@zerda/core';
import { SqliteStorage } from '@zerda/sqlite';
import type { Persistence, SqliteStorageOptions, ZerdaExport } from '@zerda/sqlite';

export interface BenchEnv {
  /** A fresh persistence for `name` (same name = same data). */
  persistence(name: string): Persistence;
  /** The naive baseline's "store the whole database" step. */
  storeWhole(name: string, bytes: Uint8Array): Promise<void>;
  /** Extra SqliteStorage options (e.g. locateFile in the browser). */
  options?: Omit<SqliteStorageOptions, 'persistence'>;
  log?: (line: string) => void;
}

export interface SizeFigures {
  size: number;
  importMs: number;
  compactMs: number;
  snapshotMB: number;
  writeP50: number;
  writeP95: number;
  baselineP50: number;
  baselineP95: number;
  speedupP50: number;
  coldOpenMs: number;
  /** First query after the cold open: the 10 most recent memories. */
  firstQueryMs: number;
  coldOpenToFirstQueryMs: number;
  /** Then a lexical search whose two terms each occur in about 1 memory in 6 (a third of the corpus matches). */
  lexicalMs: number;
  /** Open breakdown (read / decode / load / replay), ms. */
  openBreakdown: string;
}

const WORDS =
  'hiking cooking python jazz garden chess travel photo running baking lisbon kyoto denver oslo nairobi lima hanoi quebec coffee tea birthday sister project deadline meeting doctor recipe guitar novel movie'.split(
    ' ',
  );

function text(i: number): string {
  const w = (k: number) => WORDS[(i * 31 + k * 17) % WORDS.length]!;
  return `Note ${i}: I talked about ${w(1)} and ${w(2)} while planning ${w(3)} with ${w(4)}; remember the ${w(5)} detail number ${i % 97}.`;
}

export function seedDoc(size: number, tenant = 'bench'): ZerdaExport {
  const t0 = 1_700_000_000_000;
  const entries: MemoryEntry[] = [];
  for (let i = 0; i < size; i++)
    entries.push(
      createEntry(
        tenant,
        {
          content: { input: text(i), output: `Noted (${i}).` },
          tags: [WORDS[i % WORDS.length]!],
          importance: (i % 10) / 10,
        },
        t0 + i * 1000,
      ),
    );
  return { format: 'zerda-export', version: 1, exportedAt: t0, entries, profiles: [] };
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

const round = (x: number) => Math.round(x * 100) / 100;

export async function benchSize(env: BenchEnv, size: number, writes = 100, baselineWrites = 30): Promise<SizeFigures> {
  const name = `bench-${size}-${Date.now()}`;
  const doc = seedDoc(size);
  const s = await SqliteStorage.open({
    ...env.options,
    persistence: env.persistence(name),
    backups: { enabled: false },
  });
  let t = performance.now();
  await s.importJson(doc);
  const importMs = performance.now() - t;
  t = performance.now();
  await s.compact();
  const compactMs = performance.now() - t;
  const snapshotMB = s.exportDatabase().length / 1e6;
  env.log?.(`  seeded ${size} (import ${importMs.toFixed(0)} ms, compact ${compactMs.toFixed(0)} ms)`);

  const lat: number[] = [];
  for (let i = 0; i < writes; i++) {
    const e = createEntry('bench', { content: { title: 'new', text: text(size + i) } }, Date.now());
    const a = performance.now();
    await s.put(e);
    lat.push(performance.now() - a);
  }
  await s.close();

  // Baseline: the same database held in memory, exported whole and stored on every write.
  const base = await SqliteStorage.open({ ...env.options, backups: { enabled: false } });
  await base.importJson(doc);
  const blat: number[] = [];
  for (let i = 0; i < baselineWrites; i++) {
    const e = createEntry('bench', { content: { title: 'new', text: text(size + i) } }, Date.now());
    const a = performance.now();
    await base.put(e);
    await env.storeWhole(`${name}-baseline`, base.exportDatabase());
    blat.push(performance.now() - a);
  }
  await base.close();

  t = performance.now();
  const cold = await SqliteStorage.open({
    ...env.options,
    persistence: env.persistence(name),
    backups: { enabled: false },
  });
  const coldOpenMs = performance.now() - t;
  let q = performance.now();
  const recent = await cold.query({ tenantId: 'bench', limit: 10 });
  const firstQueryMs = performance.now() - q;
  q = performance.now();
  const hits = await cold.lexicalSearch({ tenantId: 'bench', query: 'birthday sister', limit: 10 });
  const lexicalMs = performance.now() - q;
  if (hits.length === 0 || recent.length !== 10) throw new Error('benchmark queries found nothing');
  const tm = cold.openReport.timings;
  const openBreakdown = [tm.read, tm.decode, tm.load, tm.replay].map((x) => x.toFixed(0)).join('/');
  await cold.close();

  const f: SizeFigures = {
    size,
    importMs: round(importMs),
    compactMs: round(compactMs),
    snapshotMB: round(snapshotMB),
    writeP50: round(pct(lat, 50)),
    writeP95: round(pct(lat, 95)),
    baselineP50: round(pct(blat, 50)),
    baselineP95: round(pct(blat, 95)),
    speedupP50: round(pct(blat, 50) / pct(lat, 50)),
    coldOpenMs: round(coldOpenMs),
    firstQueryMs: round(firstQueryMs),
    coldOpenToFirstQueryMs: round(coldOpenMs + firstQueryMs),
    lexicalMs: round(lexicalMs),
    openBreakdown,
  };
  return f;
}

export async function benchAll(env: BenchEnv, sizes: number[]): Promise<SizeFigures[]> {
  const out: SizeFigures[] = [];
  for (const size of sizes) {
    env.log?.(`size ${size}`);
    out.push(await benchSize(env, size, size >= 100_000 ? 60 : 100, size >= 100_000 ? 10 : 30));
  }
  return out;
}

/**
 * The figures kept in the bench history (history.ts): per size, the durable write's speed-up over
 * the naive baseline measured in the same run (±50 %), write p50, cold open and import in ms
 * (±60 %), and the snapshot size (±5 %: it depends on the data, not the machine).
 */
export function historyOfSqlite(sizes: SizeFigures[]): {
  name: string;
  value: number;
  unit: string;
  noise: number;
  better: 'lower' | 'higher';
}[] {
  return sizes.flatMap((f) => [
    {
      name: `${f.size} write p50 speed-up vs export-per-write`,
      value: f.speedupP50,
      unit: 'x',
      noise: 0.5,
      better: 'higher' as const,
    },
    { name: `${f.size} durable write p50`, value: f.writeP50, unit: 'ms', noise: 0.6, better: 'lower' as const },
    {
      name: `${f.size} cold open to first query`,
      value: f.coldOpenToFirstQueryMs,
      unit: 'ms',
      noise: 0.6,
      better: 'lower' as const,
    },
    { name: `${f.size} bulk import`, value: f.importMs, unit: 'ms', noise: 0.6, better: 'lower' as const },
    { name: `${f.size} snapshot`, value: f.snapshotMB, unit: 'MB', noise: 0.05, better: 'lower' as const },
  ]);
}
