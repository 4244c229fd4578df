/**
 * Bench history: a bench writes what it measured as JSON to `test/bench/.results/<bench>.json`
 * (ignored by git), beside a checked-in baseline `test/bench/baseline/<bench>.json` of the same
 * shape; `compare.ts` prints every figure that moved beyond its noise band. Figures are mostly
 * ratios measured within one run (a scan against the machine's read limit, the worker against the
 * page thread), which travel between machines far better than milliseconds; each record also keeps
 * the machine's measured limits and its load, so a moved absolute figure can be told apart from a
 * slower machine. Never a CI gate.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../e2e/harness.js';

/** One measured figure. */
export interface BenchFigure {
  /** Stable name, e.g. `100000 VectorIndex p50 / read limit`. */
  name: string;
  value: number;
  /** `x` for a ratio, or a unit (`ms`, `sentences/s`, …). */
  unit: string;
  /** Relative noise band: a change within ±noise of the baseline is not reported (0.25 = ±25 %). */
  noise: number;
  /** Which way is better, so the report can say "better" or "worse". */
  better: 'lower' | 'higher';
}

/** One bench run as written to `.results/` (and, once accepted, to `baseline/`). */
export interface BenchRecord {
  bench: string;
  /** ISO time of the run. */
  at: string;
  /** Runtime and machine: Node or Chromium version, cores, CPU model, load average before/after. */
  env: Record<string, string | number>;
  /** The machine's limits measured in the same run (e.g. `read GB/s`), by name. */
  limits: Record<string, number>;
  figures: BenchFigure[];
}

/** `test/bench/.results` (latest runs) and `test/bench/baseline` (checked in). */
export const RESULTS_DIR = join(REPO_ROOT, 'test/bench/.results');
export const BASELINE_DIR = join(REPO_ROOT, 'test/bench/baseline');

/** The machine part of {@link BenchRecord.env}, with the load average now. */
export function machineEnv(): Record<string, string | number> {
  return {
    cores: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown',
    node: process.version,
    load: Number(loadavg()[0]!.toFixed(1)),
  };
}

/** Write `record` to `.results/<bench>.json`; returns the path. */
export function writeBenchRecord(record: BenchRecord): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `${record.bench}.json`);
  writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
  return file;
}

/** Read a record, or undefined when the file is missing. */
export function readBenchRecord(file: string): BenchRecord | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as BenchRecord;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/** How one figure compares with its baseline. */
export interface FigureChange {
  name: string;
  unit: string;
  before: number;
  after: number;
  /** after / before. */
  ratio: number;
  noise: number;
  /** Beyond the noise band, and which way. */
  verdict: 'within noise' | 'better' | 'worse';
}

/**
 * Compare a run with its baseline, figure by figure (matched by name; a figure in only one of them
 * is listed in `added` / `dropped`). The band is the baseline's `noise`: moved when `after / before`
 * leaves `[1 / (1 + noise), 1 + noise]`.
 */
export function compareRecords(
  baseline: BenchRecord,
  run: BenchRecord,
): { changes: FigureChange[]; added: string[]; dropped: string[] } {
  const now = new Map(run.figures.map((f) => [f.name, f]));
  const changes: FigureChange[] = [];
  const dropped: string[] = [];
  for (const b of baseline.figures) {
    const a = now.get(b.name);
    if (!a) {
      dropped.push(b.name);
      continue;
    }
    const ratio = b.value === 0 ? (a.value === 0 ? 1 : Infinity) : a.value / b.value;
    const moved = ratio > 1 + b.noise || ratio < 1 / (1 + b.noise);
    const up = ratio > 1;
    const verdict = !moved ? 'within noise' : up === (b.better === 'higher') ? 'better' : 'worse';
    changes.push({ name: b.name, unit: b.unit, before: b.value, after: a.value, ratio, noise: b.noise, verdict });
  }
  const known = new Set(baseline.figures.map((f) => f.name));
  const added = run.figures.filter((f) => !known.has(f.name)).map((f) => f.name);
  return { changes, added, dropped };
}
