/**
 * Retrieval quality on LoCoMo and LongMemEval (issue 4, "Retrieval quality"). Drives the public
 * recall path an app uses — `MemoryManager.saveInteraction` to store, `MemoryManager.recall` to
 * search — over InMemoryStorage (default) or SqliteStorage, with the bundled use-lite model, and
 * prints recall@5/10/25 for lexical, vector and hybrid recall, plus latency: per category on
 * LoCoMo, turn-level and session-level per `question_type` on LongMemEval.
 *
 * Run (from the repository root):
 *   npx tsx --conditions=@zerda/source test/bench/retrieval/run.ts [options]
 * Options:
 *   --data <path>           the data file. Default: LoCoMo's locomo10.json ($LOCOMO_PATH or
 *                           ../shared/bench/data/locomo10.json); with --format longmemeval,
 *                           $LONGMEMEVAL_PATH or ../shared/bench/data/longmemeval_s_cleaned.json
 *   --format locomo|longmemeval
 *                           default: detected from the JSON's shape
 *   --storage memory|sqlite default memory
 *   --context default|none|previous|neighbours
 *                           what each memory carries as `metadata.context`. default: nothing is
 *                           passed and the manager attaches the user's previous turn itself (its
 *                           default `turnContext`); none: bare turns; previous / neighbours: the
 *                           harness passes the previous (and next) turn of the same session
 *   --modes a,b,c           default lexical,vector,hybrid
 *   --conversations a-b     0-based range of conversations (LoCoMo, default all ten) or of
 *                           questions (LongMemEval, counted before abstention questions are left out)
 *   --json <file>           also write the raw results as JSON
 *
 * LoCoMo: Maharana et al., "Evaluating Very Long-Term Conversational Memory of LLM Agents",
 * ACL 2024, https://github.com/snap-research/LoCoMo — data CC BY-NC 4.0.
 * LongMemEval: Wu et al., "LongMemEval: Benchmarking Chat Assistants on Long-Term Interactive
 * Memory", 2024, https://github.com/xiaowu0162/LongMemEval — MIT.
 * Both are read from disk, never copied into this repository.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { InMemoryStorage, MemoryManager, type Embedder, type StorageAdapter } from '@zerda/core';
import { lendEmbedder } from '@zerda/core/adapter';
import {
  evaluate,
  evaluateLongMemEval,
  formatLongMemEval,
  formatSplit,
  formatTable,
  percentile,
  type ConversationMemory,
  type RecallMode,
  type RetrievalSystem,
} from './evaluate.js';
import { parseLocomo } from './locomo.js';
import { isLongMemEval, parseLongMemEval } from './longmemeval.js';
import { createCachedUseLite, REPO_ROOT } from './model.js';

/** How much surrounding dialogue a turn's memory carries in `metadata.context`. */
type ContextMode = 'default' | 'none' | 'previous' | 'neighbours';

const { values: args } = parseArgs({
  options: {
    data: { type: 'string' },
    format: { type: 'string' },
    storage: { type: 'string', default: 'memory' },
    context: { type: 'string', default: 'default' },
    modes: { type: 'string', default: 'lexical,vector,hybrid' },
    conversations: { type: 'string' },
    json: { type: 'string' },
  },
});

if (args.format !== undefined && args.format !== 'locomo' && args.format !== 'longmemeval')
  throw new Error(`--format must be locomo or longmemeval, got ${args.format}`);
const dataPath = resolve(
  REPO_ROOT,
  args.data ??
    (args.format === 'longmemeval'
      ? (process.env.LONGMEMEVAL_PATH ?? '../shared/bench/data/longmemeval_s_cleaned.json')
      : (process.env.LOCOMO_PATH ?? '../shared/bench/data/locomo10.json')),
);
if (!existsSync(dataPath)) {
  if (args.format === 'longmemeval') {
    console.log(`SKIPPED: LongMemEval data not found at ${dataPath}.`);
    console.log(
      'Get longmemeval_s_cleaned.json (or _oracle / _m) from https://github.com/xiaowu0162/LongMemEval (MIT) and pass --data <path> or set LONGMEMEVAL_PATH.',
    );
  } else {
    console.log(`SKIPPED: LoCoMo data not found at ${dataPath}.`);
    console.log(
      'Get locomo10.json from https://github.com/snap-research/LoCoMo (data/, CC BY-NC 4.0) and pass --data <path> or set LOCOMO_PATH.',
    );
  }
  process.exit(0);
}
const storageKind = args.storage;
if (storageKind !== 'memory' && storageKind !== 'sqlite')
  throw new Error(`--storage must be memory or sqlite, got ${storageKind}`);
const contextMode = args.context as ContextMode;
if (!['default', 'none', 'previous', 'neighbours'].includes(contextMode))
  throw new Error(`--context must be default, none, previous or neighbours`);
const modes = args.modes.split(',') as RecallMode[];
for (const m of modes) if (!['lexical', 'vector', 'hybrid'].includes(m)) throw new Error(`unknown mode ${m}`);

const raw = JSON.parse(readFileSync(dataPath, 'utf8')) as unknown;
const format = isLongMemEval(raw) ? 'longmemeval' : 'locomo';
if (args.format !== undefined && args.format !== format)
  throw new Error(`--format ${args.format}, but ${dataPath} has the ${format} shape`);
const range = args.conversations?.split('-').map(Number);
/** The `--conversations a-b` slice of `xs`. */
function sliced<T>(xs: T[]): T[] {
  if (!range) return xs;
  const [a, b = a] = range;
  return xs.slice(a, b! + 1);
}
const embedder = createCachedUseLite();

/** A turn to store: its id (returned by `search`), its session and its memory text. */
interface StoredTurn {
  id: string;
  session: string | number;
  text: string;
}

/** The surrounding turns of `i` within its session, per `mode`. */
function contextOf(turns: readonly StoredTurn[], i: number, mode: ContextMode): string {
  if (mode === 'none' || mode === 'default') return '';
  const t = turns[i]!;
  const near = mode === 'previous' ? [i - 1] : [i - 1, i + 1];
  return near
    .map((j) => turns[j])
    .filter((n): n is StoredTurn => n !== undefined && n.session === t.session)
    .map((n) => n.text)
    .join('\n');
}

async function openStorage(): Promise<StorageAdapter> {
  if (storageKind === 'memory') return new InMemoryStorage();
  const { createSqliteStorage } = await import('@zerda/sqlite');
  return createSqliteStorage();
}

const USER = 'bench';

/** The shared embedder, lent to one manager: `MemoryManager.close()` closes its embedder. */
const lent: Embedder = lendEmbedder(embedder);

/**
 * A fresh manager over fresh storage holding `sessions` (in order; the clock is each session's
 * date while its turns are saved), whose `search` recalls as of `now` and returns turn ids.
 */
async function openMemory(
  tenant: string,
  sessions: readonly { timestamp: number; turns: readonly StoredTurn[] }[],
  now: number,
): Promise<ConversationMemory> {
  let clock = 0;
  const mgr = await MemoryManager.create({
    storage: await openStorage(),
    embedder: lent,
    owner: USER,
    masker: false,
    clock: () => clock,
    // 'default': the manager attaches the user's previous turn itself (turnContext 'previous');
    // 'none' stores bare turns; 'previous'/'neighbours' pass metadata.context explicitly.
    turnContext: contextMode === 'default' ? 'previous' : 'none',
    // Every turn goes to long-term memory; nothing is forgotten or compressed during the run.
    config: { importanceThreshold: 0, enableDecay: false, maxLongTerm: 100_000 },
  });
  const turns = sessions.flatMap((s) => s.turns);
  let i = 0;
  for (const session of sessions) {
    clock = session.timestamp;
    for (const turn of session.turns) {
      const context = contextOf(turns, i++, contextMode);
      await mgr.saveInteraction(USER, tenant, turn.text, '', {
        importance: 0.5,
        topics: [],
        metadata: context ? { diaId: turn.id, context } : { diaId: turn.id },
      });
    }
    await mgr.flush();
  }
  clock = now;
  return {
    async search(query, k, mode) {
      // ratio 0, minScore 0: recall@k measures the ranking, so neither the adaptive threshold nor
      // the relevance gate may cut the list.
      // now: the manager's clock (LoCoMo: the day after the last session; LongMemEval: the
      // question's date), for "in June", "last week".
      const hits = await mgr.recall(USER, tenant, query, {
        topK: k,
        mode,
        ratio: 0,
        minScore: 0,
        reinforce: false,
        now,
      });
      return hits.map((h) => String(h.entry.metadata.diaId));
    },
    close: () => mgr.close().catch(() => undefined),
  };
}

const t0 = performance.now();
let questionTexts: string[];
let report: () => void;
let rawResults: unknown;

if (format === 'locomo') {
  const conversations = sliced(parseLocomo(raw));
  const system: RetrievalSystem = {
    open: (conv) =>
      openMemory(
        conv.sampleId,
        conv.sessions.map((s) => ({
          timestamp: s.timestamp,
          turns: s.turns.map((t) => ({ id: t.diaId, session: s.number, text: t.text })),
        })),
        conv.sessions.at(-1)!.timestamp + 86_400_000,
      ),
  };
  console.log(
    `LoCoMo retrieval: ${conversations.length} conversations, ${conversations.reduce((n, c) => n + c.questions.length, 0)} questions; storage ${storageKind}; context ${contextMode}; model ${embedder.modelId} (${embedder.size} cached vectors)`,
  );
  const results = await evaluate(system, conversations, modes, (conv, ms) =>
    console.log(
      `  ${conv.sampleId}: ${conv.sessions.reduce((n, s) => n + s.turns.length, 0)} turns, ${conv.questions.length} questions, ${(ms / 1000).toFixed(1)} s`,
    ),
  );
  rawResults = results;
  questionTexts = conversations.flatMap((c) => c.questions.map((q) => q.question));
  const tune = conversations.slice(0, 5).map((c) => c.sampleId);
  const heldOut = conversations.slice(5).map((c) => c.sampleId);
  report = () => {
    console.log(`\n${formatTable(results)}\n`);
    if (heldOut.length)
      console.log(`${formatSplit(results, { 'tuning (first 5)': tune, 'held out (last 5)': heldOut })}\n`);
  };
} else {
  const data = parseLongMemEval(sliced(raw as unknown[]));
  const questions = data.questions;
  const system = {
    open: (q: (typeof questions)[number]) =>
      openMemory(
        q.questionId,
        q.sessions.map((s) => ({
          timestamp: s.timestamp,
          turns: s.turns.map((t) => ({ id: t.id, session: s.key, text: t.text })),
        })),
        q.questionTimestamp,
      ),
  };
  const turnCount = questions.reduce((n, q) => n + q.sessions.reduce((m, s) => m + s.turns.length, 0), 0);
  console.log(
    `LongMemEval retrieval: ${questions.length} questions (${data.abstention.length} abstention questions left out), ${turnCount} turns; storage ${storageKind}; context ${contextMode}; model ${embedder.modelId} (${embedder.size} cached vectors)`,
  );
  if (data.unresolvedSessions.length)
    console.log(`  answer_session_ids naming no haystack session (dropped): ${data.unresolvedSessions.join(', ')}`);
  // Questions with neither evidence turns nor evidence sessions have nothing to measure.
  const measured = questions.filter((q) => q.evidence.length || q.evidenceSessions.length).length;
  if (measured < questions.length)
    console.log(`  ${questions.length - measured} questions have no evidence turn or session and are skipped`);
  const every = measured <= 20 ? 1 : 25;
  let done = 0;
  const results = await evaluateLongMemEval(system, questions, modes, (q, ms) => {
    if (++done % every === 0 || done === measured)
      console.log(
        `  ${done}/${measured} ${q.questionId} (${q.type}): ${q.sessions.length} sessions, ${q.sessions.reduce((n, s) => n + s.turns.length, 0)} turns, ${q.evidence.length} evidence turns, ${q.evidenceSessions.length} evidence sessions, ${(ms / 1000).toFixed(1)} s`,
      );
  });
  rawResults = { results, abstention: data.abstention, unresolvedSessions: data.unresolvedSessions };
  questionTexts = questions.map((q) => q.question);
  report = () => console.log(`\n${formatLongMemEval(results)}\n`);
}
embedder.save();
const totalS = (performance.now() - t0) / 1000;

// Query-side model cost, which the cached runs above do not pay: embed 50 questions one at a time.
const embedMs: number[] = [];
const sample = questionTexts.filter((_, i) => i % 31 === 0).slice(0, 50);
if (modes.some((m) => m !== 'lexical')) {
  const { createTransformersEmbedder } = await import('@zerda/embeddings');
  const real = createTransformersEmbedder({ device: 'cpu' });
  await real.ready();
  const cached = await embedder.embed(sample);
  let worst = 0;
  for (const [j, q] of sample.entries()) {
    const s = performance.now();
    const [v] = await real.embed([q]);
    embedMs.push(performance.now() - s);
    let dot = 0;
    for (let d = 0; d < v!.length; d++) dot += v![d]! * cached[j]![d]!;
    worst = Math.max(worst, Math.abs(1 - dot));
  }
  await real.close();
  if (worst > 1e-3)
    throw new Error(`Cached vectors differ from the model's (1 - cos up to ${worst}); delete .tmp/retrieval-cache`);
}
await embedder.close();

report();
if (embedMs.length)
  console.log(
    `Query embedding with the model (not in the latencies above, which hit the vector cache): p50 ${percentile(embedMs, 50).toFixed(1)} ms, p95 ${percentile(embedMs, 95).toFixed(1)} ms over ${embedMs.length} questions.`,
  );
console.log(`Total ${totalS.toFixed(1)} s (model cache: ${embedder.misses} embedded, ${embedder.hits} cached).`);

if (args.json) {
  const out = resolve(args.json);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(
    out,
    JSON.stringify(
      { format, storage: storageKind, context: contextMode, model: embedder.modelId, results: rawResults, embedMs },
      null,
      2,
    ),
  );
}
