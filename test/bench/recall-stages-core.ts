/**
 * The recall stage bench (issue 26), shared by Node (`recall-stages.ts`, the model in-thread) and
 * Chromium (`recall-stages-browser.ts`, the model in a real Worker): builds stores of LoCoMo turns
 * at each size over InMemoryStorage, then times `MemoryManager.recall` and `buildContext` with the
 * manager's defaults and each stage of them (`onStage`). Nothing here touches Node or the DOM.
 */
import { type Embedder, InMemoryStorage, MemoryManager, type MemoryEntry, type RecallStage } from '@zerda/core';
import { createEntry, lendEmbedder } from '@zerda/core/adapter';
import type { BenchFigure } from './history.js';

/** What a run needs: the corpus with its vectors (the model's, computed once), questions, and the query-side embedder. */
export interface StageBenchConfig {
  /** LoCoMo turns (`"<speaker>: <text>"`) and their session dates; repeated (vectors jittered) up to a size. */
  turns: readonly { text: string; at: number }[];
  /** The model's vector of each turn. */
  turnVectors: readonly Float32Array[];
  /** Distinct questions, at least `2 × queries` (recall and buildContext get disjoint halves). */
  questions: readonly string[];
  sizes: readonly number[];
  queries: number;
  /** The bundled model as an app gets it (never a cache): every query embedding is a model call. */
  embedder: Embedder;
  now: () => number;
  log?: (line: string) => void;
}

export interface Percentiles {
  p50: number;
  p95: number;
}

/** One size's figures (ms). */
export interface StageSizeResult {
  size: number;
  /** `warmUp(tenant)`: index load and one embedding. */
  warmMs: number;
  /** The first recall after `warmUp`. */
  firstMs: number;
  recall: Percentiles;
  buildContext: Percentiles;
  stages: Record<RecallStage, { recall: Percentiles; buildContext: Percentiles }>;
}

export const STAGES: RecallStage[] = [
  'read',
  'embed',
  'lexical',
  'vector',
  'fuse',
  'boost',
  'gate',
  'cut',
  'select',
  'pack',
];

const pct = (xs: readonly number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const percentiles = (xs: readonly number[]): Percentiles => ({ p50: pct(xs, 50), p95: pct(xs, 95) });
const fmt = (s: Percentiles): string => `${s.p50.toFixed(2)} / ${s.p95.toFixed(2)}`;

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

/** Stage durations of one call (summed when a stage runs more than once). */
class StageClock {
  readonly #open = new Map<RecallStage, number>();
  readonly spent = new Map<RecallStage, number>();
  constructor(readonly now: () => number) {}
  readonly listener = (stage: RecallStage, phase: 'start' | 'end'): void => {
    const t = this.now();
    if (phase === 'start') this.#open.set(stage, t);
    else this.spent.set(stage, (this.spent.get(stage) ?? 0) + t - (this.#open.get(stage) ?? t));
  };
}

/** Run every size; logs a table per size as it goes. */
export async function benchRecallStages(c: StageBenchConfig): Promise<StageSizeResult[]> {
  const { turns, turnVectors, questions, now } = c;
  if (questions.length < 2 * c.queries) throw new Error(`only ${questions.length} distinct questions`);
  const modelId = c.embedder.modelId;
  const results: StageSizeResult[] = [];
  for (const size of c.sizes) {
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
      await storage.putVectors(tenant, { id: modelId, dim: c.embedder.dim }, vectors.slice(i, i + 5000));

    const mgr = await MemoryManager.create({ storage, embedder: lendEmbedder(c.embedder), owner: 'bench' });
    const last = turns.at(-1)!.at + 86_400_000;
    const w = now();
    await mgr.warmUp(tenant);
    const warmMs = now() - w;
    const first = now();
    await mgr.recall('bench', tenant, 'What did we talk about last time?', { reinforce: false, now: last });
    const firstMs = now() - first;

    const recallMs: number[] = [];
    const contextMs: number[] = [];
    const recallStages = new Map<RecallStage, number[]>(STAGES.map((s) => [s, []]));
    const contextStages = new Map<RecallStage, number[]>(STAGES.map((s) => [s, []]));
    for (let i = 0; i < c.queries; i++) {
      const clock = new StageClock(now);
      const a = now();
      await mgr.recall('bench', tenant, questions[i]!, { reinforce: false, now: last, onStage: clock.listener });
      recallMs.push(now() - a);
      for (const s of STAGES) recallStages.get(s)!.push(clock.spent.get(s) ?? 0);
    }
    for (let i = 0; i < c.queries; i++) {
      const clock = new StageClock(now);
      const a = now();
      await mgr.buildContext('bench', tenant, questions[c.queries + i]!, {
        search: { now: last, onStage: clock.listener },
      });
      contextMs.push(now() - a);
      for (const s of STAGES) contextStages.get(s)!.push(clock.spent.get(s) ?? 0);
    }
    await mgr.close();
    const result: StageSizeResult = {
      size,
      warmMs,
      firstMs,
      recall: percentiles(recallMs),
      buildContext: percentiles(contextMs),
      stages: Object.fromEntries(
        STAGES.map((s) => [
          s,
          { recall: percentiles(recallStages.get(s)!), buildContext: percentiles(contextStages.get(s)!) },
        ]),
      ) as StageSizeResult['stages'],
    };
    for (const line of formatStageResult(result, c.queries)) c.log?.(line);
    results.push(result);
  }
  return results;
}

/** The printed table of one size. */
export function formatStageResult(r: StageSizeResult, queries: number): string[] {
  const lines = [
    `${r.size.toLocaleString('en')} memories: warmUp ${r.warmMs.toFixed(0)} ms (index load + one embedding), then first recall ${r.firstMs.toFixed(1)} ms; recall p50 / p95 ${fmt(r.recall)} ms; buildContext ${fmt(r.buildContext)} ms (${queries} questions each)`,
    '  stage      recall p50 / p95   buildContext p50 / p95 (ms)',
  ];
  for (const s of STAGES)
    lines.push(`  ${s.padEnd(8)}   ${fmt(r.stages[s].recall).padEnd(17)}  ${fmt(r.stages[s].buildContext)}`);
  return lines;
}

/**
 * Bench-history figures: per size, recall and buildContext p50 / p95 in ms, and recall p50 over the
 * query embedding's p50 (what the rest of the path adds to the model call, the ratio that travels
 * between machines). The query embedding's p50 at the first size is the run's limit.
 */
export function historyOfStages(results: readonly StageSizeResult[]): {
  limits: Record<string, number>;
  figures: BenchFigure[];
} {
  const round = (x: number) => Math.round(x * 100) / 100;
  const figures: BenchFigure[] = [];
  for (const r of results) {
    const n = r.size;
    for (const [what, p] of [
      ['recall', r.recall],
      ['buildContext', r.buildContext],
    ] as const) {
      figures.push({ name: `${n} ${what} p50`, value: round(p.p50), unit: 'ms', noise: 0.5, better: 'lower' });
      figures.push({ name: `${n} ${what} p95`, value: round(p.p95), unit: 'ms', noise: 1, better: 'lower' });
    }
    const embed = r.stages.embed.recall.p50;
    if (embed > 0)
      figures.push({
        name: `${n} recall p50 / query-embedding p50`,
        value: round(r.recall.p50 / embed),
        unit: 'x',
        noise: 0.3,
        better: 'lower',
      });
  }
  const first = results[0];
  return { limits: first ? { 'query embedding p50 ms': round(first.stages.embed.recall.p50) } : {}, figures };
}
