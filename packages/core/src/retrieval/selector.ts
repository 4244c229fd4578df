import { DAY_MS, systemClock, type Clock } from '../model/clock.js';
import { resolveConfig, type MemoryConfig } from '../model/config.js';
import { effectiveImportance } from '../dynamics/decay.js';
import { invalid } from '../model/errors.js';
import type { MemoryEntry } from '../model/types.js';

/** A candidate for ranking: an entry and its query relevance in [0, 1] (e.g. a recall score). */
export interface SelectorCandidate {
  entry: MemoryEntry;
  relevance: number;
}

/** A ranked memory with the components of its score, each in [0, 1]. */
export interface ScoredMemory {
  entry: MemoryEntry;
  relevance: number;
  /** `2^(-ageDays / recencyHalfLifeDays)`, age measured from `createdAt`. */
  recency: number;
  /** Effective (decayed) importance. */
  importance: number;
  /** Weighted mean of the three by `config.selectorWeights`. */
  score: number;
}

/**
 * Re-ranks recalled memories by a weighted mean of relevance, recency and effective importance
 * (`config.selectorWeights`, which need not sum to 1). Pure: it reads entries, never changes them.
 */
export class MemorySelector {
  readonly #config: MemoryConfig;
  readonly #clock: Clock;

  /** @param config full or partial configuration (validated). @param clock epoch-ms clock. */
  constructor(config: Partial<MemoryConfig> = {}, clock: Clock = systemClock) {
    if (typeof clock !== 'function') invalid('clock', 'a function returning epoch ms', clock);
    this.#config = resolveConfig(config);
    this.#clock = clock;
  }

  /**
   * Score and sort candidates, best first (ties: higher relevance, then id ascending). Throws
   * `VALIDATION` when a relevance is not a number in [0, 1].
   */
  rank(candidates: readonly SelectorCandidate[], now: number = this.#clock()): ScoredMemory[] {
    if (!Array.isArray(candidates)) invalid('candidates', 'an array of {entry, relevance}', candidates);
    if (typeof now !== 'number' || !Number.isFinite(now)) invalid('now', 'epoch milliseconds', now);
    candidates.forEach((c: SelectorCandidate, i: number) => {
      if (typeof c !== 'object' || c === null || typeof c.entry !== 'object' || c.entry === null)
        invalid(`candidates[${i}]`, 'an object {entry, relevance}', c);
      if (typeof c.relevance !== 'number' || !(c.relevance >= 0 && c.relevance <= 1))
        invalid(`candidates[${i}].relevance`, 'a number in [0, 1]', c.relevance);
    });
    const { relevance: wr, recency: wc, importance: wi } = this.#config.selectorWeights;
    const total = wr + wc + wi;
    const scored = candidates.map(({ entry, relevance }: SelectorCandidate): ScoredMemory => {
      const recency = this.recency(entry, now);
      const importance = effectiveImportance(entry, now, this.#config);
      const score = total > 0 ? (wr * relevance + wc * recency + wi * importance) / total : relevance;
      return { entry, relevance, recency, importance, score };
    });
    return scored.sort(
      (a, b) =>
        b.score - a.score ||
        b.relevance - a.relevance ||
        (a.entry.id < b.entry.id ? -1 : a.entry.id > b.entry.id ? 1 : 0),
    );
  }

  /**
   * Recency in [0, 1] from the entry's creation time. Creation, not last access: recall already
   * feeds back through reinforced importance, and counting it twice would let a memory that is
   * recalled often crowd out everything new.
   */
  recency(entry: Pick<MemoryEntry, 'createdAt'>, now: number = this.#clock()): number {
    const days = Math.max(0, now - entry.createdAt) / DAY_MS;
    const halfLife = this.#config.recencyHalfLifeDays;
    if (halfLife === 0) return days === 0 ? 1 : 0;
    return 2 ** (-days / halfLife);
  }
}
