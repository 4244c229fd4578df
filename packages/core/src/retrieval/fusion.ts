import { invalid } from '../model/errors.js';
import type { Scored } from './top-k.js';

/** A fused result: the fused score and the 1-based rank in each input list (undefined when absent). */
export interface FusedItem {
  id: string;
  /** Weighted RRF score: Σ weight_i / (k + rank_i). */
  score: number;
  ranks: (number | undefined)[];
}

/** Options of {@link reciprocalRankFusion}. */
export interface RrfOptions {
  /** Rank damping constant; larger flattens the difference between ranks. Default 60. */
  k?: number;
  /** One weight (>= 0) per list; default 1 each. */
  weights?: readonly number[];
}

/** Default RRF damping constant (Cormack et al., 2009). */
export const DEFAULT_RRF_K = 60;

function checkRrf(lists: number, k: unknown, weights: readonly number[] | undefined): void {
  if (typeof k !== 'number' || !Number.isFinite(k) || k < 0) invalid('rrfK', 'a finite number >= 0', k);
  if (weights === undefined) return;
  if (!Array.isArray(weights) || weights.length !== lists)
    invalid('weights', `${lists} weights (one per list)`, weights);
  for (const w of weights)
    if (typeof w !== 'number' || !Number.isFinite(w) || w < 0) invalid('weights', 'finite numbers >= 0', w);
}

/**
 * Weighted reciprocal-rank fusion. Each list must be best first; an id's fused score is
 * Σ weight_i / (k + rank_i) over the lists that contain it (an id repeated within a list counts at
 * its best rank). Result is best first, ties by id ascending.
 */
export function reciprocalRankFusion(lists: readonly (readonly Scored[])[], options: RrfOptions = {}): FusedItem[] {
  if (!Array.isArray(lists)) invalid('lists', 'an array of ranked lists', lists);
  const { k = DEFAULT_RRF_K, weights } = options;
  checkRrf(lists.length, k, weights);
  const fused = new Map<string, FusedItem>();
  lists.forEach((list: readonly Scored[], li: number) => {
    const w = weights?.[li] ?? 1;
    list.forEach((item: Scored, r: number) => {
      let f = fused.get(item.id);
      if (!f) fused.set(item.id, (f = { id: item.id, score: 0, ranks: new Array(lists.length).fill(undefined) }));
      if (f.ranks[li] !== undefined) return;
      f.ranks[li] = r + 1;
      f.score += w / (k + r + 1);
    });
  });
  return [...fused.values()].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Options of {@link scoreFusion}. */
export interface ScoreFusionOptions {
  /** One weight (>= 0) per list; default 1 each. */
  weights?: readonly number[];
  /**
   * Power (> 0) each max-normalised score is raised to before weighting; default 1. Above 1 it
   * favours a candidate near the top of one list over one half-way down both.
   */
  exponent?: number;
}

/**
 * Weighted convex combination of max-normalised scores: each list's scores are divided by that
 * list's best score, then `Σ weight_i × norm_i / Σ weight_i` over the lists that returned anything.
 * Unlike RRF it keeps how far apart the scores are, so a weak signal's near-ties barely move the
 * order. The result is in 0..1 (1 = best in every list), best first, ties by id ascending.
 * Lists must be best first; non-positive scores contribute nothing. With `exponent` e, a
 * normalised score n counts as n^e.
 */
export function scoreFusion(lists: readonly (readonly Scored[])[], options: ScoreFusionOptions = {}): FusedItem[] {
  if (!Array.isArray(lists)) invalid('lists', 'an array of ranked lists', lists);
  const { weights, exponent = 1 } = options;
  checkRrf(lists.length, 0, weights);
  if (typeof exponent !== 'number' || !Number.isFinite(exponent) || !(exponent > 0))
    invalid('exponent', 'a finite number > 0', exponent);
  const fused = new Map<string, FusedItem>();
  let totalWeight = 0;
  lists.forEach((list: readonly Scored[], li: number) => {
    const w = weights?.[li] ?? 1;
    const max = list.reduce((m, it) => Math.max(m, it.score), 0);
    if (list.length === 0 || w === 0 || !(max > 0)) return;
    totalWeight += w;
    list.forEach((item: Scored, r: number) => {
      let f = fused.get(item.id);
      if (!f) fused.set(item.id, (f = { id: item.id, score: 0, ranks: new Array(lists.length).fill(undefined) }));
      if (f.ranks[li] !== undefined) return;
      f.ranks[li] = r + 1;
      if (item.score > 0) f.score += w * (exponent === 1 ? item.score / max : (item.score / max) ** exponent);
    });
  });
  const out = [...fused.values()];
  // Clamped: a float rounding of "first everywhere" (1.0000000000000002) is still 1.
  if (totalWeight > 0) for (const f of out) f.score = Math.min(1, f.score / totalWeight);
  return out.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * The highest fused score attainable with these weights (rank 1 in every list). Dividing by it
 * maps weighted RRF scores onto 0..1, where 1 means "first everywhere".
 */
export function maxRrfScore(weights: readonly number[], k: number = DEFAULT_RRF_K): number {
  checkRrf(weights.length, k, weights);
  return weights.reduce((s, w) => s + w / (k + 1), 0);
}

/** Scale scores linearly onto 0..1 (all equal → all 1). Order is kept. */
export function minMaxNormalize<T extends { score: number }>(items: readonly T[]): T[] {
  if (items.length === 0) return [];
  let lo = Infinity;
  let hi = -Infinity;
  for (const it of items) {
    lo = Math.min(lo, it.score);
    hi = Math.max(hi, it.score);
  }
  const span = hi - lo;
  return items.map((it) => ({ ...it, score: span > 0 ? (it.score - lo) / span : 1 }));
}

/** Options of {@link adaptiveThreshold}. */
export interface ThresholdOptions {
  /** Absolute floor on the score. Default 0. */
  minScore?: number;
  /** Keep hits scoring at least `ratio` × the top score. Default 0.5. */
  ratio?: number;
}

/**
 * Keep the hits (sorted best first) whose score is at least `max(minScore, top × ratio)`, so the
 * cut follows the best match instead of a fixed number. When none passes, the top hit alone is
 * returned (a weak best guess beats an empty answer).
 */
export function adaptiveThreshold<T extends { score: number }>(
  hits: readonly T[],
  options: ThresholdOptions = {},
): T[] {
  const { minScore = 0, ratio = 0.5 } = options;
  if (typeof minScore !== 'number' || !Number.isFinite(minScore)) invalid('minScore', 'a finite number', minScore);
  if (typeof ratio !== 'number' || !(ratio >= 0 && ratio <= 1)) invalid('ratio', 'a number in [0, 1]', ratio);
  if (hits.length === 0) return [];
  const cut = Math.max(minScore, hits[0]!.score * ratio);
  const kept = hits.filter((h) => h.score >= cut);
  return kept.length > 0 ? kept : [hits[0]!];
}
