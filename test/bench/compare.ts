/**
 * Bench history report: for every checked-in baseline (`test/bench/baseline/<bench>.json`) with a
 * newer run in `test/bench/.results/`, prints each figure that moved beyond its noise band (and how
 * many stayed within), plus the machine limits of both runs so a slower machine shows as such.
 * `--all` prints every figure; `--accept <bench>…` copies those runs over their baselines (commit
 * the result when the change is understood). Always exits 0: a report, never a CI gate.
 * Run: `node --conditions=@zerda/source --import tsx test/bench/compare.ts [--all] [--accept bench…]`
 */
import { copyFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BASELINE_DIR, compareRecords, readBenchRecord, RESULTS_DIR } from './history.js';

const args = process.argv.slice(2);
const all = args.includes('--all');
const accept = args.includes('--accept') ? args.slice(args.indexOf('--accept') + 1) : [];
for (const bench of accept) {
  const from = join(RESULTS_DIR, `${bench}.json`);
  if (!existsSync(from)) console.log(`${bench}: no run in ${RESULTS_DIR} to accept`);
  else {
    copyFileSync(from, join(BASELINE_DIR, `${bench}.json`));
    console.log(`${bench}: baseline replaced by the run of ${readBenchRecord(from)!.at}`);
  }
}

const fmt = (x: number): string =>
  Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 1 ? x.toFixed(2) : x.toPrecision(3);
const baselines = existsSync(BASELINE_DIR) ? readdirSync(BASELINE_DIR).filter((f) => f.endsWith('.json')) : [];
for (const file of baselines.sort()) {
  const baseline = readBenchRecord(join(BASELINE_DIR, file))!;
  const run = readBenchRecord(join(RESULTS_DIR, file));
  if (!run) {
    console.log(`${baseline.bench}: no run yet (baseline of ${baseline.at})`);
    continue;
  }
  const { changes, added, dropped } = compareRecords(baseline, run);
  const moved = changes.filter((c) => c.verdict !== 'within noise');
  console.log(`${baseline.bench}: run of ${run.at} vs baseline of ${baseline.at}`);
  const limits = [...new Set([...Object.keys(baseline.limits), ...Object.keys(run.limits)])];
  for (const l of limits)
    console.log(`  limit ${l}: ${fmt(baseline.limits[l] ?? NaN)} -> ${fmt(run.limits[l] ?? NaN)}`);
  console.log(`  load average: ${String(baseline.env.load)} -> ${String(run.env.load)}`);
  for (const c of all ? changes : moved)
    console.log(
      `  ${c.verdict === 'within noise' ? '  ' : c.verdict === 'better' ? '+ ' : '- '}${c.name}: ${fmt(c.before)} -> ${fmt(c.after)} ${c.unit} (x${fmt(c.ratio)}, band ±${Math.round(c.noise * 100)} %, ${c.verdict})`,
    );
  console.log(`  ${moved.length} moved beyond their noise band, ${changes.length - moved.length} within`);
  if (added.length) console.log(`  new figures (no baseline): ${added.join('; ')}`);
  if (dropped.length) console.log(`  figures no longer measured: ${dropped.join('; ')}`);
}
if (baselines.length === 0) console.log(`no baselines in ${BASELINE_DIR}`);
