/**
 * The recall stage bench in Chromium (issue 26): `recall` and `buildContext` at 1k / 10k / 100k
 * memories on the page's thread, the bundled use-lite model in a real Worker (the package's
 * ready-made entry, WASM, its default threads), over InMemoryStorage with the manager's defaults.
 * Same corpus, questions and stages as the Node bench (`recall-stages-core.ts`): LoCoMo turns with
 * the model's vectors (cached under `.tmp/`, sent to the page once), each question asked once.
 * Prints p50 / p95 per stage and writes the bench history (`.results/recall-stages-browser.json`).
 *
 * Run (from the repository root):
 *   node --conditions=@zerda/source --import tsx test/bench/recall-stages-browser.ts [--sizes 1000,10000,100000] [--queries 200] [--threads n] [--embedder '<json>']
 * `--embedder`: more worker embedder options, e.g. `'{"quantizeActivations":false}'` (the float
 * graph) for an A/B against the default in alternating runs.
 * Data: LoCoMo's locomo10.json ($LOCOMO_PATH or ../shared/bench/data/locomo10.json); missing: SKIPPED.
 * Figures are never a CI gate; compare runs on one machine, medians.
 */
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { callPage, openReadyPage } from '../e2e/harness.js';
import { machineEnv, writeBenchRecord } from './history.js';
import type { RecallStagesPageConfig, RecallStagesPageResult } from './pages/recall-stages/main.js';
import { historyOfStages } from './recall-stages-core.js';
import { loadLocomo } from './retrieval/locomo.js';
import { createCachedUseLite, REPO_ROOT } from './retrieval/model.js';

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000,100000' },
    queries: { type: 'string', default: '200' },
    threads: { type: 'string' },
    embedder: { type: 'string' },
  },
});
const dataPath = resolve(REPO_ROOT, process.env.LOCOMO_PATH ?? '../shared/bench/data/locomo10.json');
if (!existsSync(dataPath)) {
  console.log(`SKIPPED: LoCoMo data not found at ${dataPath}.`);
  process.exit(0);
}
const conversations = loadLocomo(dataPath);
const turns = conversations.flatMap((c) =>
  c.sessions.flatMap((s) => s.turns.map((t) => ({ text: t.text, at: s.timestamp }))),
);
const questions = [...new Set(conversations.flatMap((c) => c.questions.map((q) => q.question)))];
const cached = createCachedUseLite();
const turnVectors = await cached.embed(turns.map((t) => t.text));
cached.save();
const dim = turnVectors[0]!.length;
const flat = new Float32Array(turnVectors.length * dim);
turnVectors.forEach((v, i) => flat.set(v, i * dim));

const config: RecallStagesPageConfig = {
  turns,
  vectors: Buffer.from(flat.buffer).toString('base64'),
  dim,
  questions,
  sizes: args.sizes.split(',').map(Number),
  queries: Number(args.queries),
  ...(args.threads !== undefined ? { numThreads: Number(args.threads) } : {}),
  ...(args.embedder !== undefined ? { embedderOptions: JSON.parse(args.embedder) as Record<string, unknown> } : {}),
};
const { browser, tab, close } = await openReadyPage(join(REPO_ROOT, 'test/bench/pages/recall-stages'));
try {
  const load = loadavg()[0]!.toFixed(1);
  const out = await callPage<RecallStagesPageResult>(tab, 'recallStagesBench', config);
  console.log(
    `Chromium ${browser.version()}, model in a Worker (${out.device}, ${out.isolated ? 'cross-origin isolated' : 'not isolated'}, threads ${args.threads ?? 'default'}${args.embedder ? `, ${args.embedder}` : ''}; load ${out.loadMs.toFixed(0)} ms), load average ${load} -> ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`,
  );
  for (const l of out.logs) console.log(l);
  const file = writeBenchRecord({
    bench: 'recall-stages-browser',
    at: new Date().toISOString(),
    env: {
      ...machineEnv(),
      chromium: browser.version(),
      loadBefore: Number(load),
      isolated: String(out.isolated),
      threads: args.threads ?? 'default',
      ...(args.embedder !== undefined ? { embedder: args.embedder } : {}),
    },
    ...historyOfStages(out.results),
  });
  console.error(`bench history: wrote ${file} (compare: test/bench/compare.ts)`);
} finally {
  await close();
}
