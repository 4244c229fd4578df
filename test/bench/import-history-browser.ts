/**
 * History import in Chromium (issue 26), end to end as an app runs it: `openBrowserMemory` (sql.js
 * on IndexedDB, the bundled use-lite model in a Worker) and `MemoryManager.importHistory` of N chat
 * turns (default 10,000: LoCoMo's turns, each `"<speaker>: <text>"` with its session's date, the
 * ten conversations and then again a year later), formation, embedding and storage included, with
 * the page's main thread watched meanwhile (long tasks over 50 ms, the largest gap of a 10 ms
 * timer). First, the worker's own embedding rate over 2,000 of those turns (target ≥ 400
 * sentences/s with no main-thread task over 50 ms).
 * Run: `node --conditions=@zerda/source --import tsx test/bench/import-history-browser.ts [--turns 10000] [--embed 2000] [--attribute]`
 * `--attribute`: the page is built unminified and profiled (V8's sampler on the main thread); each
 * busy stretch over 50 ms is printed with the functions it spent its time in (`busy-stretches.ts`).
 * Data: LoCoMo's locomo10.json ($LOCOMO_PATH or ../shared/bench/data/locomo10.json); missing: SKIPPED.
 * Prints figures and writes the bench history (`.results/import-history-browser.json`); never a CI gate.
 */
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { HistoryTurn } from '@zerda/core';
import { callPage, openReadyPage } from '../e2e/harness.js';
import { busyStretches, busyTotal, profileMainThread } from './busy-stretches.js';
import { machineEnv, writeBenchRecord } from './history.js';
import type { ImportPageConfig, ImportPageResult } from './pages/import-history/main.js';
import { loadLocomo } from './retrieval/locomo.js';
import { REPO_ROOT } from './retrieval/model.js';

const { values: args } = parseArgs({
  options: {
    turns: { type: 'string', default: '10000' },
    embed: { type: 'string', default: '2000' },
    attribute: { type: 'boolean', default: false },
  },
});
const dataPath = resolve(REPO_ROOT, process.env.LOCOMO_PATH ?? '../shared/bench/data/locomo10.json');
if (!existsSync(dataPath)) {
  console.log(`SKIPPED: LoCoMo data not found at ${dataPath}.`);
  process.exit(0);
}
const YEAR = 365 * 86_400_000;
const locomo = loadLocomo(dataPath).flatMap((c) =>
  c.sessions.flatMap((s) => s.turns.map((t) => ({ text: t.text, at: s.timestamp }))),
);
const n = Number(args.turns);
const turns: HistoryTurn[] = Array.from({ length: n }, (_, i) => {
  const t = locomo[i % locomo.length]!;
  return { input: t.text, output: '', at: t.at + Math.floor(i / locomo.length) * YEAR };
});
const config: ImportPageConfig = { turns, embedTexts: locomo.slice(0, Number(args.embed)).map((t) => t.text) };

const { browser, tab, close } = await openReadyPage(
  join(REPO_ROOT, 'test/bench/pages/import-history'),
  undefined,
  args.attribute ? { build: { minify: false } } : {},
);
try {
  const stopProfile = args.attribute ? await profileMainThread(tab) : undefined;
  const load = loadavg()[0]!.toFixed(1);
  // Passed as unknown: Playwright's argument type of a recursive JSON type (metadata) is too deep for tsc.
  const r = await callPage<ImportPageResult>(tab, 'importBench', config);
  const after = loadavg()[0]!.toFixed(1);
  const profile = stopProfile ? await stopProfile() : undefined;
  const stretches = profile ? busyStretches(profile) : [];
  console.log(
    `Chromium ${browser.version()} (${r.isolated ? 'cross-origin isolated' : 'not isolated'}), load average ${load} -> ${after} on ${availableParallelism()} cores; open ${Math.round(r.openMs)} ms`,
  );
  console.log(
    `  worker embedding, ${r.embed.n} turns: ${r.embed.ms} ms = ${r.embed.sentencesPerSec} sentences/s; main thread meanwhile: longest task ${r.embed.longestTask} ms, ${r.embed.longTasks} over 50 ms, max timer gap ${r.embed.maxTimerGapMs} ms`,
  );
  console.log(
    `  importHistory, ${n} turns: ${(r.importMs / 1000).toFixed(1)} s = ${r.turnsPerSec} turns/s; ${r.report.longTerm} kept, ${r.report.memories} memories formed, ${r.report.embedded} embedded; ${r.progressCalls} progress calls (last ${JSON.stringify(r.lastProgress)})`,
  );
  console.log(
    `  main thread during the import: longest task ${r.watch.longestTask} ms, ${r.watch.longTasks} over 50 ms, max timer gap ${r.watch.maxTimerGapMs} ms; a recall right after: ${r.recallAfterMs} ms (stages ${JSON.stringify(r.recallAfterStages)})`,
  );
  if (stopProfile) {
    const { busyMs, spanMs } = busyTotal(profile!);
    console.log(
      `  profiled (so slower): main thread busy ${(busyMs / 1000).toFixed(1)} s of ${(spanMs / 1000).toFixed(1)} s; busy stretches over 50 ms: ${stretches.length}`,
    );
    for (const b of stretches.slice(0, 6)) {
      console.log(`    ${b.ms} ms; self: ${b.self.map(([f, ms]) => `${f} ${ms}`).join(', ')}`);
      console.log(`      inclusive: ${b.inclusive.map(([f, ms]) => `${f} ${ms}`).join(', ')}`);
    }
  }
  // A profiled run is slower: its figures stay out of the bench history.
  if (!stopProfile) {
    const file = writeBenchRecord({
      bench: 'import-history-browser',
      at: new Date().toISOString(),
      env: { ...machineEnv(), chromium: browser.version(), loadBefore: Number(load), isolated: String(r.isolated) },
      limits: {},
      figures: [
        {
          name: 'worker sentences/s',
          value: r.embed.sentencesPerSec,
          unit: 'sentences/s',
          noise: 0.5,
          better: 'higher',
        },
        {
          name: 'main-thread longest task while the worker embeds',
          value: r.embed.longestTask,
          unit: 'ms',
          noise: 1,
          better: 'lower',
        },
        { name: `importHistory ${n} turns/s`, value: r.turnsPerSec, unit: 'turns/s', noise: 0.5, better: 'higher' },
        {
          name: 'main-thread longest task during importHistory',
          value: r.watch.longestTask,
          unit: 'ms',
          noise: 1,
          better: 'lower',
        },
        {
          name: 'main-thread tasks over 50 ms during importHistory',
          value: r.watch.longTasks,
          unit: 'tasks',
          noise: 1,
          better: 'lower',
        },
      ],
    });
    console.error(`bench history: wrote ${file} (compare: test/bench/compare.ts)`);
  }
} finally {
  await close();
}
