/**
 * The query embedding in Chromium (issue 26): one LoCoMo question at a time through the bundled
 * model in a real Worker, round trip as the page sees it, for several ways of loading the model in
 * one run (interleaved question by question): the default (the model's own `sentence_embedding`
 * output, default WASM threads), the same files loaded as a plain model (`modelFiles`, so
 * transformers.js' mean pooling over every token), and one WASM thread. Each question is asked
 * twice per variant: with the page idle, and with the page's thread busy for `--busy` ms right
 * after the request (what a search's lexical side does meanwhile).
 * Run: `node --conditions=@zerda/source --import tsx test/bench/query-embed-browser.ts [--queries 150] [--busy 4]`
 * Data: LoCoMo's locomo10.json ($LOCOMO_PATH or ../shared/bench/data/locomo10.json); missing: SKIPPED.
 * Prints p50 / p95 per variant and condition, and each variant's p50 over the default's; never a CI gate.
 */
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { callPage, openReadyPage } from '../e2e/harness.js';
import type { QueryEmbedPageConfig, QueryEmbedPageResult, QueryEmbedVariant } from './pages/query-embed/main.js';
import { loadLocomo } from './retrieval/locomo.js';
import { REPO_ROOT } from './retrieval/model.js';

const { values: args } = parseArgs({
  options: { queries: { type: 'string', default: '150' }, busy: { type: 'string', default: '4' } },
});
const dataPath = resolve(REPO_ROOT, process.env.LOCOMO_PATH ?? '../shared/bench/data/locomo10.json');
if (!existsSync(dataPath)) {
  console.log(`SKIPPED: LoCoMo data not found at ${dataPath}.`);
  process.exit(0);
}
const questions = [...new Set(loadLocomo(dataPath).flatMap((c) => c.questions.map((q) => q.question)))].slice(
  0,
  Number(args.queries),
);
const variants: QueryEmbedVariant[] = [
  { name: 'default (sentence_embedding output)' },
  // The same files under a plain model name: not the bundled path, so transformers.js pools.
  { name: 'pipeline mean pooling', options: { model: 'use-lite', dtype: 'q8', foldWeights: true }, files: true },
  { name: '1 WASM thread', options: { numThreads: 1 } },
];
const pct = (xs: readonly number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};
const fmt = (xs: readonly number[]) => `${pct(xs, 50).toFixed(2)} / ${pct(xs, 95).toFixed(2)}`;

const { browser, tab, close } = await openReadyPage(join(REPO_ROOT, 'test/bench/pages/query-embed'));
try {
  const load = loadavg()[0]!.toFixed(1);
  const config: QueryEmbedPageConfig = { questions, variants, busyMs: Number(args.busy) };
  const r = await callPage<QueryEmbedPageResult>(tab, 'queryEmbedBench', config);
  console.log(
    `Chromium ${browser.version()} (${r.isolated ? 'cross-origin isolated' : 'not isolated'}), ${questions.length} questions, load average ${load} -> ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`,
  );
  console.log(
    `  variant                               round trip p50 / p95 ms: idle       page busy ${args.busy} ms   p50 ÷ default`,
  );
  const base = r.variants[0]!;
  for (const v of r.variants)
    console.log(
      `  ${v.name.padEnd(38)}${fmt(v.idle).padEnd(19)}${fmt(v.busy).padEnd(20)}${(pct(v.idle, 50) / pct(base.idle, 50)).toFixed(2)} / ${(pct(v.busy, 50) / pct(base.busy, 50)).toFixed(2)}`,
    );
} finally {
  await close();
}
