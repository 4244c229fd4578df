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
 *
 * Run (from the repository root):
 *   npx tsx --conditions=@zerda/source test/bench/recall-stages.ts [--sizes 1000,10000,100000] [--queries 200] [--json file]
 * Data: LoCoMo's locomo10.json ($LOCOMO_PATH or ../shared/bench/data/locomo10.json); missing: SKIPPED.
 * Figures are never a CI gate; compare runs on one machine, medians.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { InMemoryStorage, MemoryManager, type MemoryEntry, type RecallStage } from '@zerda/core';
import { createEntry, lendEmbedder } from '@zerda/core/adapter';
import { createTransformersEmbedder } from '@zerda/embeddings';
import { loadLocomo } from './retrieval/locomo.js';
import { createCachedUseLite, REPO_ROOT, USE_LITE_ID } from './retrieval/model.js';

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000,100000' },
    queries: { type: 'string', default: '200' },
    json: { type: 'string' },
  },
});
const dataPath = resolve(REPO_ROOT, process.env.LOCOMO_PATH ?? '../shared/bench/data/locomo10.json');
if (!existsSync(dataPath)) {
  console.log(`SKIPPED: LoCoMo data not found at ${dataPath}.`);
  process.exit(0);
}
const sizes = args.sizes.split(',').map(Number);
const nQueries = Number(args.queries);

const conversations = loadLocomo(dataPath);
const turns = conversations.flatMap((c) =>
  c.sessions.flatMap((s) => s.turns.map((t) => ({ text: t.text, at: s.timestamp }))),
);
const questions = [...new Set(conversations.flatMap((c) => c.questions.map((q) => q.question)))];
if (questions.length < 2 * nQueries) throw new Error(`only ${questions.length} distinct questions`);

// The stores' vectors: the model's, cached (a store is built without running formation on 100k turns).
const cached = createCachedUseLite();
const t0 = performance.now();
const turnVectors = await cached.embed(turns.map((t) => t.text));
cached.save();
console.log(
  `${turns.length} LoCoMo turns embedded (${cached.misses} by the model, ${(performance.now() - t0) / 1000} s); ${questions.length} questions`,
);

/** A deterministic jitter, so the copies of a turn beyond the first do not tie. */
function jittered(v: Float32Array, seed: number): Float32Array {
  const out = new Float32Array(v.length);
  let x = seed * 2654435761;
  let norm = 0;
  for (let d = 0; d < v.length; d++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[d] = v[d]! + ((x / 2 ** 32 - 0.5) * 0.02) / Math.sqrt(v.length);
    norm += out[d]! * out[d]!;
  }
  norm = Math.sqrt(norm);
  for (let d = 0; d < v.length; d++) out[d]! /= norm;
  return out;
}

// The query side: the bundled model itself, as an app gets it (never a cache).
const model = createTransformersEmbedder({ device: 'cpu' });
await model.ready();
if (model.modelId !== USE_LITE_ID) throw new Error(`model id ${model.modelId}, expected ${USE_LITE_ID}`);

type Stats = { p50: number; p95: number };
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const stats = (xs: number[]): Stats => ({ p50: pct(xs, 50), p95: pct(xs, 95) });
const fmt = (s: Stats) => `${s.p50.toFixed(2)} / ${s.p95.toFixed(2)}`;

/** Records stage durations of one call (summed when a stage runs more than once). */
class StageClock {
  readonly #open = new Map<RecallStage, number>();
  readonly spent = new Map<RecallStage, number>();
  readonly listener = (stage: RecallStage, phase: 'start' | 'end') => {
    const now = performance.now();
    if (phase === 'start') this.#open.set(stage, now);
    else this.spent.set(stage, (this.spent.get(stage) ?? 0) + now - (this.#open.get(stage) ?? now));
  };
}

const STAGES: RecallStage[] = ['read', 'embed', 'lexical', 'vector', 'fuse', 'boost', 'gate', 'cut', 'select', 'pack'];
const results: Record<string, unknown>[] = [];

for (const size of sizes) {
  const storage = new InMemoryStorage();
  const tenant = 't';
  const entries: MemoryEntry[] = [];
  const vectors: { id: string; vector: Float32Array }[] = [];
  for (let i = 0; i < size; i++) {
    const turn = turns[i % turns.length]!;
    const e = createEntry(
      tenant,
      { content: { input: turn.text, output: '' }, userId: 'bench', importance: 0.5, createdAt: turn.at },
      turn.at,
    );
    entries.push(e);
    const v = turnVectors[i % turns.length]!;
    vectors.push({ id: e.id, vector: i < turns.length ? v : jittered(v, i) });
  }
  for (let i = 0; i < entries.length; i += 5000) await storage.putMany(entries.slice(i, i + 5000));
  for (let i = 0; i < vectors.length; i += 5000)
    await storage.putVectors(tenant, { id: USE_LITE_ID, dim: 512 }, vectors.slice(i, i + 5000));

  const mgr = await MemoryManager.create({ storage, embedder: lendEmbedder(model), owner: 'bench' });
  const last = turns.at(-1)!.at + 86_400_000;
  const w = performance.now();
  await mgr.warmUp(tenant);
  const warmMs = performance.now() - w;
  const first = performance.now();
  await mgr.recall('bench', tenant, 'What did we talk about last time?', { reinforce: false, now: last });
  const firstMs = performance.now() - first;

  const recallMs: number[] = [];
  const contextMs: number[] = [];
  const recallStages = new Map<RecallStage, number[]>(STAGES.map((s) => [s, []]));
  const contextStages = new Map<RecallStage, number[]>(STAGES.map((s) => [s, []]));
  for (let i = 0; i < nQueries; i++) {
    const clock = new StageClock();
    const a = performance.now();
    await mgr.recall('bench', tenant, questions[i]!, { reinforce: false, now: last, onStage: clock.listener });
    recallMs.push(performance.now() - a);
    for (const s of STAGES) recallStages.get(s)!.push(clock.spent.get(s) ?? 0);
  }
  for (let i = 0; i < nQueries; i++) {
    const clock = new StageClock();
    const a = performance.now();
    await mgr.buildContext('bench', tenant, questions[nQueries + i]!, {
      search: { now: last, onStage: clock.listener },
    });
    contextMs.push(performance.now() - a);
    for (const s of STAGES) contextStages.get(s)!.push(clock.spent.get(s) ?? 0);
  }
  await mgr.close();

  const r = stats(recallMs);
  const c = stats(contextMs);
  console.log(
    `\n${size.toLocaleString('en')} memories: warmUp ${warmMs.toFixed(0)} ms (index load + one embedding), then first recall ${firstMs.toFixed(1)} ms; recall p50 / p95 ${fmt(r)} ms; buildContext ${fmt(c)} ms (${nQueries} questions each)`,
  );
  console.log(`  stage      recall p50 / p95   buildContext p50 / p95 (ms)`);
  for (const s of STAGES) {
    const rs = stats(recallStages.get(s)!);
    const cs = stats(contextStages.get(s)!);
    console.log(`  ${s.padEnd(8)}   ${fmt(rs).padEnd(17)}  ${fmt(cs)}`);
  }
  results.push({
    size,
    warmMs,
    firstMs,
    recall: r,
    buildContext: c,
    stages: Object.fromEntries(
      STAGES.map((s) => [s, { recall: stats(recallStages.get(s)!), buildContext: stats(contextStages.get(s)!) }]),
    ),
  });
}
await model.close();
if (args.json) {
  mkdirSync(dirname(resolve(args.json)), { recursive: true });
  writeFileSync(
    resolve(args.json),
    JSON.stringify({ model: USE_LITE_ID, runtime: `node ${process.version}`, results }, null, 2),
  );
}
