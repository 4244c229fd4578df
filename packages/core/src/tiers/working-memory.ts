import { invalid } from '../model/errors.js';
import { estimateTokens } from '../context/tokens.js';
import type { TokenCounter } from '../context/tokens.js';
import { entryText } from '../model/types.js';
import type { MemoryEntry } from '../model/types.js';
import type { WorkingMemoryView } from '../manager/tier-views.js';

/** Result of {@link WorkingMemory.rebuild}. */
export interface WorkingRebuild {
  /** What working memory now holds, best first. */
  kept: MemoryEntry[];
  /** Candidates that did not fit (capacity or token budget), in input order. */
  dropped: MemoryEntry[];
}

/** Snapshot of a working memory. */
export interface WorkingStats {
  size: number;
  capacity: number;
  tokenCount: number;
  tokenBudget: number;
}

/**
 * The few memories in play for the current turn. Rebuilt from a ranked list each turn; never
 * holds more than `capacity` entries or `tokenBudget` tokens.
 */
export class WorkingMemory implements WorkingMemoryView {
  readonly #capacity: number;
  readonly #tokenBudget: number;
  readonly #counter: TokenCounter;
  #entries: MemoryEntry[] = [];
  #tokens = 0;

  /**
   * @param capacity maximum entries (integer >= 1)
   * @param tokenBudget maximum total tokens of the entries' text (integer >= 1)
   * @param counter token counter (default {@link estimateTokens})
   */
  constructor(capacity: number, tokenBudget: number, counter: TokenCounter = estimateTokens) {
    if (!Number.isInteger(capacity) || capacity < 1) invalid('capacity', 'an integer >= 1', capacity);
    if (!Number.isInteger(tokenBudget) || tokenBudget < 1) invalid('tokenBudget', 'an integer >= 1', tokenBudget);
    if (typeof counter !== 'function') invalid('counter', 'a function', counter);
    this.#capacity = capacity;
    this.#tokenBudget = tokenBudget;
    this.#counter = counter;
  }

  /**
   * Replace the contents with the best candidates that fit. Walks `ranked` (best first) and keeps
   * each entry whose text still fits the remaining budget, so a long entry does not block shorter
   * ones after it. Duplicate ids keep their first occurrence.
   */
  rebuild(ranked: readonly MemoryEntry[]): WorkingRebuild {
    if (!Array.isArray(ranked)) invalid('ranked', 'an array of entries', ranked);
    const kept: MemoryEntry[] = [];
    const dropped: MemoryEntry[] = [];
    const seen = new Set<string>();
    let tokens = 0;
    for (const entry of ranked) {
      if (seen.has(entry.id)) continue;
      seen.add(entry.id);
      const cost = this.#counter(entryText(entry));
      if (kept.length < this.#capacity && tokens + cost <= this.#tokenBudget) {
        kept.push(structuredClone(entry));
        tokens += cost;
      } else {
        dropped.push(structuredClone(entry));
      }
    }
    this.#entries = kept;
    this.#tokens = tokens;
    return { kept: structuredClone(kept), dropped };
  }

  /** Current entries, best first (copies). */
  entries(): MemoryEntry[] {
    return structuredClone(this.#entries);
  }

  /** Total tokens of the current entries. */
  get tokenCount(): number {
    return this.#tokens;
  }

  /** Number of current entries. */
  get size(): number {
    return this.#entries.length;
  }

  /** Empty working memory. */
  clear(): void {
    this.#entries = [];
    this.#tokens = 0;
  }

  /** A snapshot of size and budget use. */
  stats(): WorkingStats {
    return { size: this.size, capacity: this.#capacity, tokenCount: this.#tokens, tokenBudget: this.#tokenBudget };
  }
}
