import { CATEGORY_NAMES, type LocomoConversation, type LocomoQuestion } from './locomo.js';
import type { LongMemEvalQuestion } from './longmemeval.js';

/** Recall modes, as `MemoryManager.recall` names them. */
export type RecallMode = 'lexical' | 'vector' | 'hybrid';

/** The cut-offs reported. */
export const CUTOFFS = [5, 10, 25] as const;

/**
 * A memory system under evaluation, driven through one conversation at a time: `open` gives a
 * fresh memory holding the conversation, whose `search` returns the `dia_id`s of the best turns,
 * best first.
 */
export interface RetrievalSystem {
  open(conversation: LocomoConversation): Promise<ConversationMemory>;
}

/** A fresh memory that holds one conversation. */
export interface ConversationMemory {
  search(query: string, k: number, mode: RecallMode): Promise<string[]>;
  close(): Promise<void>;
}

/** Recall@k sums for one group of questions. */
export interface RecallTally {
  questions: number;
  /** Sum over questions of the share of evidence found in the top k, per cut-off. */
  sums: Record<number, number>;
}

/** Results of one mode. */
export interface ModeResult {
  mode: RecallMode;
  overall: RecallTally;
  byCategory: Record<number, RecallTally>;
  byConversation: Record<string, RecallTally>;
  /** Query latencies in ms. */
  latencies: number[];
}

/** Share of `evidence` found among the first `k` of `ranked`. */
export function recallAt(ranked: readonly string[], evidence: readonly string[], k: number): number {
  const top = new Set(ranked.slice(0, k));
  let found = 0;
  for (const id of evidence) if (top.has(id)) found++;
  return found / evidence.length;
}

function tally(): RecallTally {
  return { questions: 0, sums: Object.fromEntries(CUTOFFS.map((k) => [k, 0])) };
}

function add(t: RecallTally, ranked: string[], q: LocomoQuestion): void {
  t.questions++;
  for (const k of CUTOFFS) t.sums[k]! += recallAt(ranked, q.evidence, k);
}

/** Percent recall@k of a tally (micro-average over its questions). */
export function percent(t: RecallTally, k: number): number {
  return t.questions ? (100 * t.sums[k]!) / t.questions : 0;
}

/** The `p`-th percentile (nearest rank) of `xs`. */
export function percentile(xs: readonly number[], p: number): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

/**
 * Run the protocol: for each conversation a fresh memory, then every question of categories 1–4
 * in every mode; recall@5/10/25 micro-averaged over questions, per category, per conversation and
 * overall, plus query latency.
 */
export async function evaluate(
  system: RetrievalSystem,
  conversations: readonly LocomoConversation[],
  modes: readonly RecallMode[],
  onConversation?: (conv: LocomoConversation, ms: number) => void,
): Promise<ModeResult[]> {
  const results = modes.map<ModeResult>((mode) => ({
    mode,
    overall: tally(),
    byCategory: {},
    byConversation: {},
    latencies: [],
  }));
  await eachMemory(
    conversations,
    (conv) => system.open(conv),
    async (memory, conv) => {
      for (const r of results) {
        const perConv = (r.byConversation[conv.sampleId] = tally());
        for (const q of conv.questions) {
          const ranked = await timedSearch(memory, r, q.question);
          add(r.overall, ranked, q);
          add((r.byCategory[q.category] ??= tally()), ranked, q);
          add(perConv, ranked, q);
        }
      }
    },
    onConversation,
  );
  return results;
}

/**
 * For each of `items` in turn: a fresh memory from `open`, handed to `measure`, then closed (also
 * when `measure` throws); `onItem` hears how long the item took, opening included.
 */
async function eachMemory<I>(
  items: readonly I[],
  open: (item: I) => Promise<ConversationMemory>,
  measure: (memory: ConversationMemory, item: I) => Promise<void>,
  onItem?: (item: I, ms: number) => void,
): Promise<void> {
  for (const item of items) {
    const t0 = performance.now();
    const memory = await open(item);
    try {
      await measure(memory, item);
    } finally {
      await memory.close();
    }
    onItem?.(item, performance.now() - t0);
  }
}

/** The best `max(CUTOFFS)` ids for `query` in `r`'s mode; the query's latency is added to `r`. */
async function timedSearch(
  memory: ConversationMemory,
  r: { mode: RecallMode; latencies: number[] },
  query: string,
): Promise<string[]> {
  const s = performance.now();
  const ranked = await memory.search(query, Math.max(...CUTOFFS), r.mode);
  r.latencies.push(performance.now() - s);
  return ranked;
}

/** Sum the per-conversation tallies of `ids` (e.g. a held-out split). */
export function subset(result: ModeResult, ids: readonly string[]): RecallTally {
  const t = tally();
  for (const id of ids) {
    const c = result.byConversation[id];
    if (!c) continue;
    t.questions += c.questions;
    for (const k of CUTOFFS) t.sums[k]! += c.sums[k]!;
  }
  return t;
}

const fmt = (x: number) => x.toFixed(1);

/** A Markdown table: one row per mode, R@5/10/25 overall and R@10 per category, plus latency. */
export function formatTable(results: readonly ModeResult[], label = ''): string {
  const cats = [1, 2, 3, 4] as const;
  const head = [
    '| mode | R@5 | R@10 | R@25 | ' +
      cats.map((c) => `${CATEGORY_NAMES[c]} R@5/10/25`).join(' | ') +
      ' | p50 ms | p95 ms |',
    '|---|---|---|---|' + cats.map(() => '---|').join('') + '---|---|',
  ];
  const rows = results.map((r) => {
    const overall = CUTOFFS.map((k) => fmt(percent(r.overall, k)));
    const byCat = cats.map((c) => {
      const t = r.byCategory[c];
      return t ? CUTOFFS.map((k) => fmt(percent(t, k))).join(' / ') : '–';
    });
    return `| ${label}${r.mode} | ${overall.join(' | ')} | ${byCat.join(' | ')} | ${percentile(r.latencies, 50).toFixed(2)} | ${percentile(r.latencies, 95).toFixed(2)} |`;
  });
  return [...head, ...rows].join('\n');
}

/** A Markdown table of overall R@5/10/25 of `ids` per mode (for tuning vs held-out splits). */
export function formatSplit(results: readonly ModeResult[], splits: Record<string, readonly string[]>): string {
  const names = Object.keys(splits);
  const head = [
    '| mode | ' + names.map((n) => `${n} R@5 / R@10 / R@25`).join(' | ') + ' |',
    '|---|' + names.map(() => '---|').join(''),
  ];
  const rows = results.map((r) => {
    const cells = names.map((n) => {
      const t = subset(r, splits[n]!);
      return `${CUTOFFS.map((k) => fmt(percent(t, k))).join(' / ')} (${t.questions} q)`;
    });
    return `| ${r.mode} | ${cells.join(' | ')} |`;
  });
  return [...head, ...rows].join('\n');
}

// ---------------------------------------------------------------------------------------------
// LongMemEval: one fresh memory per question; turn-level and session-level recall.

/** A memory system driven one LongMemEval question at a time; `search` returns turn ids. */
export interface QuestionSystem {
  open(question: LongMemEvalQuestion): Promise<ConversationMemory>;
}

/** Turn-level and session-level tallies of one group of LongMemEval questions. */
export interface LevelTallies {
  /** Share of `has_answer` turns in the top k (questions with at least one such turn). */
  turn: RecallTally;
  /** Share of evidence sessions with at least one turn in the top k. */
  session: RecallTally;
  /** 1 when every evidence session has a turn in the top k (LongMemEval's `recall_all`). */
  sessionAll: RecallTally;
}

/** LongMemEval results of one mode. */
export interface LongMemEvalModeResult {
  mode: RecallMode;
  overall: LevelTallies;
  byType: Record<string, LevelTallies>;
  /** Query latencies in ms. */
  latencies: number[];
}

/** 1 when every id of `evidence` is among the first `k` of `ranked`, else 0. */
export function recallAllAt(ranked: readonly string[], evidence: readonly string[], k: number): number {
  return recallAt(ranked, evidence, k) === 1 ? 1 : 0;
}

function levels(): LevelTallies {
  return { turn: tally(), session: tally(), sessionAll: tally() };
}

function addLevels(
  t: LevelTallies,
  ranked: readonly string[],
  q: LongMemEvalQuestion,
  sessionOf: ReadonlyMap<string, string>,
): void {
  if (q.evidence.length) {
    t.turn.questions++;
    for (const k of CUTOFFS) t.turn.sums[k]! += recallAt(ranked, q.evidence, k);
  }
  if (q.evidenceSessions.length) {
    // The top k turns, read as the sessions they come from: a session is hit by any of its turns.
    const sessions = ranked.map((id) => sessionOf.get(id) ?? '');
    t.session.questions++;
    t.sessionAll.questions++;
    for (const k of CUTOFFS) {
      t.session.sums[k]! += recallAt(sessions, q.evidenceSessions, k);
      t.sessionAll.sums[k]! += recallAllAt(sessions, q.evidenceSessions, k);
    }
  }
}

/**
 * Run the LongMemEval protocol: for each question a fresh memory holding its haystack, then the
 * question in every mode; turn-level and session-level recall@5/10/25, micro-averaged over
 * questions, per `question_type` and overall, plus query latency. Questions with neither evidence
 * turns nor evidence sessions are skipped (nothing to measure).
 */
export async function evaluateLongMemEval(
  system: QuestionSystem,
  questions: readonly LongMemEvalQuestion[],
  modes: readonly RecallMode[],
  onQuestion?: (question: LongMemEvalQuestion, ms: number) => void,
): Promise<LongMemEvalModeResult[]> {
  const results = modes.map<LongMemEvalModeResult>((mode) => ({ mode, overall: levels(), byType: {}, latencies: [] }));
  const measurable = questions.filter((q) => q.evidence.length || q.evidenceSessions.length);
  await eachMemory(
    measurable,
    (q) => system.open(q),
    async (memory, q) => {
      const sessionOf = new Map(q.sessions.flatMap((s) => s.turns.map((t) => [t.id, t.sessionKey] as const)));
      for (const r of results) {
        const ranked = await timedSearch(memory, r, q.question);
        addLevels(r.overall, ranked, q, sessionOf);
        addLevels((r.byType[q.type] ??= levels()), ranked, q, sessionOf);
      }
    },
    onQuestion,
  );
  return results;
}

const triple = (t: RecallTally) => CUTOFFS.map((k) => fmt(percent(t, k))).join(' / ');

/**
 * Markdown tables of LongMemEval results: overall per mode (turn-level R@5/10/25, session-level
 * R@5/10/25 and all@5/10/25, latency), then one row per `question_type` and mode.
 */
export function formatLongMemEval(results: readonly LongMemEvalModeResult[]): string {
  const overall = [
    '| mode | turn R@5 | turn R@10 | turn R@25 | session R@5 | session R@10 | session R@25 | session all@5/10/25 | p50 ms | p95 ms |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...results.map((r) => {
      const o = r.overall;
      return `| ${r.mode} | ${CUTOFFS.map((k) => fmt(percent(o.turn, k))).join(' | ')} | ${CUTOFFS.map((k) => fmt(percent(o.session, k))).join(' | ')} | ${triple(o.sessionAll)} | ${percentile(r.latencies, 50).toFixed(2)} | ${percentile(r.latencies, 95).toFixed(2)} |`;
    }),
  ];
  const first = results[0];
  const counts = first
    ? `Questions: ${first.overall.turn.questions} with evidence turns (turn level), ${first.overall.session.questions} with evidence sessions (session level).`
    : '';
  const types = Object.keys(first?.byType ?? {}).sort();
  const byType = [
    '| question type | turn q | session q | mode | turn R@5/10/25 | session R@5/10/25 | session all@5/10/25 |',
    '|---|---|---|---|---|---|---|',
    ...types.flatMap((type) =>
      results.map((r) => {
        const t = r.byType[type]!;
        return `| ${type} | ${t.turn.questions} | ${t.session.questions} | ${r.mode} | ${t.turn.questions ? triple(t.turn) : '–'} | ${t.session.questions ? triple(t.session) : '–'} | ${t.sessionAll.questions ? triple(t.sessionAll) : '–'} |`;
      }),
    ),
  ];
  return [counts, '', ...overall, '', ...byType].join('\n');
}
