/**
 * The query embedding in Chromium (issue 26): one LoCoMo question at a time through the bundled
 * model in a real Worker, round trip as the page sees it, for several ways of loading the model in
 * one run (interleaved question by question), picked with `--variants` (default
 * `default,float,thread1,float1`): `default` (the integer-product graph, `quantizeActivations`; the
 * model's own `sentence_embedding` output; default WASM threads), `float` (the float-product graph),
 * `pooling` (the float files loaded as a plain model, so transformers.js' mean pooling over every
 * token), `thread1` / `thread2` (1 / 2 WASM threads), `float1` (float products, 1 thread). Each
 * question is asked twice per variant: with the page idle, and with the page's thread busy for
 * `--busy` ms right after the request (what a search's lexical side does meanwhile). `--turns n`:
 * then n LoCoMo turns in batches of 8 per variant, interleaved batch by batch (sentences/s), and
 * the cosine of each variant's vectors to the first variant's.
 * Run: `node --conditions=@zerda/source --import tsx test/bench/query-embed-browser.ts [--queries 150] [--busy 4] [--turns 240] [--variants a,b]`
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
  options: {
    queries: { type: 'string', default: '150' },
    busy: { type: 'string', default: '4' },
    turns: { type: 'string', default: '0' },
    variants: { type: 'string', default: 'default,float,thread1,float1' },
  },
});
const dataPath = resolve(REPO_ROOT, process.env.LOCOMO_PATH ?? '../shared/bench/data/locomo10.json');
if (!existsSync(dataPath)) {
  console.log(`SKIPPED: LoCoMo data not found at ${dataPath}.`);
  process.exit(0);
}
const locomo = loadLocomo(dataPath);
const questions = [...new Set(locomo.flatMap((c) => c.questions.map((q) => q.question)))].slice(
  0,
  Number(args.queries),
);
const turns = locomo.flatMap((c) => c.sessions.flatMap((s) => s.turns.map((t) => t.text))).slice(0, Number(args.turns));
const known: Record<string, QueryEmbedVariant> = {
  default: { name: 'default (int8 products, own pooled out)' },
  float: { name: 'float products (quantizeActivations off)', options: { quantizeActivations: false } },
  // The same files under a plain model name: not the bundled path, so transformers.js pools.
  pooling: {
    name: 'pipeline mean pooling',
    options: { model: 'use-lite', dtype: 'q8', foldWeights: true },
    files: true,
  },
  thread1: { name: '1 WASM thread', options: { numThreads: 1 } },
  thread2: { name: '2 WASM threads', options: { numThreads: 2 } },
  float1: { name: 'float products, 1 WASM thread', options: { quantizeActivations: false, numThreads: 1 } },
};
const variants = args.variants.split(',').map((k) => known[k]!);
const pct = (xs: readonly number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};
const fmt = (xs: readonly number[]) => `${pct(xs, 50).toFixed(2)} / ${pct(xs, 95).toFixed(2)}`;

const { browser, tab, close } = await openReadyPage(join(REPO_ROOT, 'test/bench/pages/query-embed'));
try {
  const load = loadavg()[0]!.toFixed(1);
  const config: QueryEmbedPageConfig = { questions, variants, busyMs: Number(args.busy), turns };
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
  if (turns.length > 0) {
    console.log(`  ${turns.length} LoCoMo turns in batches of 8, sentences/s (median batch):`);
    for (const v of r.variants)
      console.log(
        `  ${v.name.padEnd(38)}${(8000 / pct(v.batches, 50)).toFixed(1)} (sum ${(v.batches.reduce((a, b) => a + b, 0) / 1000).toFixed(2)} s)`,
      );
  }
  const vs = r.vectors ?? [];
  for (let i = 1; i < vs.length; i++) {
    let min = 1;
    vs[i]!.forEach((v, j) => {
      const u = vs[0]![j]!;
      min = Math.min(
        min,
        v.reduce((a, x, k) => a + x * u[k]!, 0),
      );
    });
    console.log(`  cosine ${r.variants[i]!.name} vs ${r.variants[0]!.name}: min ${min.toFixed(6)}`);
  }
} finally {
  await close();
}
