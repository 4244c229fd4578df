/**
 * Recall end to end, stage by stage (issue 26): what `MemoryManager.recall` and `buildContext` cost
 * at 1k / 10k / 100k memories with the bundled use-lite model, including the query embedding, and
 * where that time goes (`onStage`: read the query, embed it, lexical, vector, fuse, boosts, gate,
 * cut; `buildContext` adds select and pack).
 *
 * Runs in Node (the bundled model through `@zerda/embeddings`, CPU / WASM, in-thread), over
 * InMemoryStorage, with the manager's defaults (formation on, the relevance gate, the default
 * search) — the path an app uses. Stores hold LoCoMo turns (`"<speaker>: <text>"`, its ten
 * conversations, each turn once up to 5.9k memories and then again with a small jitter on its
 * vector so that no two rows tie); their vectors are the model's, computed once and cached under
 * `.tmp/`. Questions are LoCoMo's, each asked once per measured call (so every query embedding is
 * a real model call; the manager's query-vector LRU would make repeats free), recall and
 * buildContext on disjoint question sets. Before measuring, `mgr.warmUp(tenant)` (index load and
 * one embedding; printed with the first recall after it).
 *
 * Prints per size: p50 / p95 of recall and buildContext, and per stage its p50 / p95 (ms, per
 * call; stages that overlap — lexical runs while the query is embedded — are timed each on its own).
 * The shared part is `recall-stages-core.ts`; Chromium with the model in a Worker:
 * `recall-stages-browser.ts`. Writes the bench history (`.results/recall-stages-node.json`).
 *
 * Run (from the repository root):
 *   npx tsx --conditions=@zerda/source test/bench/recall-stages.ts [--sizes 1000,10000,100000] [--queries 200] [--threads n] [--json file]
 * Data: LoCoMo's locomo10.json ($LOCOMO_PATH or ../shared/bench/data/locomo10.json); missing: SKIPPED.
 * Figures are never a CI gate; compare runs on one machine, medians.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createTransformersEmbedder } from '@zerda/embeddings';
import { machineEnv, writeBenchRecord } from './history.js';
import { benchRecallStages, historyOfStages } from './recall-stages-core.js';
import { loadLocomo } from './retrieval/locomo.js';
import { createCachedUseLite, REPO_ROOT, USE_LITE_ID } from './retrieval/model.js';

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000,100000' },
    queries: { type: 'string', default: '200' },
    threads: { type: 'string' },
    json: { type: 'string' },
  },
});
const dataPath = resolve(REPO_ROOT, process.env.LOCOMO_PATH ?? '../shared/bench/data/locomo10.json');
if (!existsSync(dataPath)) {
  console.log(`SKIPPED: LoCoMo data not found at ${dataPath}.`);
  process.exit(0);
}
const sizes = args.sizes.split(',').map(Number);
const queries = Number(args.queries);

const conversations = loadLocomo(dataPath);
const turns = conversations.flatMap((c) =>
  c.sessions.flatMap((s) => s.turns.map((t) => ({ text: t.text, at: s.timestamp }))),
);
const questions = [...new Set(conversations.flatMap((c) => c.questions.map((q) => q.question)))];

// The stores' vectors: the model's, cached (a store is built without running formation on 100k turns).
const cached = createCachedUseLite();
const t0 = performance.now();
const turnVectors = await cached.embed(turns.map((t) => t.text));
cached.save();
console.log(
  `${turns.length} LoCoMo turns embedded (${cached.misses} by the model, ${(performance.now() - t0) / 1000} s); ${questions.length} questions`,
);

// The query side: the bundled model itself, as an app gets it (never a cache).
const model = createTransformersEmbedder({
  device: 'cpu',
  ...(args.threads !== undefined ? { numThreads: Number(args.threads) } : {}),
});
await model.ready();
if (model.modelId !== USE_LITE_ID) throw new Error(`model id ${model.modelId}, expected ${USE_LITE_ID}`);

const load = loadavg()[0]!.toFixed(1);
const results = await benchRecallStages({
  turns,
  turnVectors,
  questions,
  sizes,
  queries,
  embedder: model,
  now: () => performance.now(),
  log: (line) => console.log(line),
});
await model.close();
console.log(`load average ${load} -> ${loadavg()[0]!.toFixed(1)}`);
const file = writeBenchRecord({
  bench: 'recall-stages-node',
  at: new Date().toISOString(),
  env: { ...machineEnv(), loadBefore: Number(load), threads: args.threads ?? 'default' },
  ...historyOfStages(results),
});
console.error(`bench history: wrote ${file} (compare: test/bench/compare.ts)`);
if (args.json) {
  mkdirSync(dirname(resolve(args.json)), { recursive: true });
  writeFileSync(
    resolve(args.json),
    JSON.stringify({ model: USE_LITE_ID, runtime: `node ${process.version}`, results }, null, 2),
  );
}
