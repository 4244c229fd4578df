import { systemClock } from '../model/clock.js';
import type { Clock } from '../model/clock.js';
import { resolveConfig } from '../model/config.js';
import type { MemoryConfig } from '../model/config.js';
import { effectiveImportance, isProtected } from '../dynamics/decay.js';
import { createEntry } from '../model/entry.js';
import type { NewEntry } from '../model/entry.js';
import { invalid } from '../model/errors.js';
import { checkOptionKeys } from '../model/options.js';
import type { MemoryContent, MemoryEntry } from '../model/types.js';
import type { ShortTermView } from '../manager/tier-views.js';

/** Options of the short-term window. */
export interface ShortTermMemoryOptions {
  /** Resolved configuration (decay settings). Default `resolveConfig()`. */
  config?: MemoryConfig;
  clock?: Clock;
  /** Tenant of entries added without one. Default `default`. */
  tenantId?: string;
  /** Called with each entry the window pushes out (e.g. to promote it to long-term memory). */
  onEvict?: (entry: MemoryEntry) => void;
}

/** Options of {@link ShortTermMemory.add}. */
export type ShortTermAddOptions = Omit<NewEntry, 'content'> & { tenantId?: string };

/** Snapshot of a the short-term window. */
export interface ShortTermStats {
  size: number;
  windowSize: number;
  isFull: boolean;
  oldestAt: number | undefined;
  newestAt: number | undefined;
  /** Mean base importance (0 when empty). */
  averageImportance: number;
}

/**
 * Sliding window of the most recent entries (the conversation so far). Adding beyond the window
 * evicts the oldest. Entries are returned as copies, oldest first.
 */
export class ShortTermMemory implements ShortTermView {
  readonly #windowSize: number;
  readonly #config: MemoryConfig;
  readonly #clock: Clock;
  readonly #tenantId: string;
  readonly #onEvict: ((entry: MemoryEntry) => void) | undefined;
  #entries: MemoryEntry[] = [];

  /** @param windowSize maximum entries kept; an integer >= 1. */
  constructor(windowSize: number, options: ShortTermMemoryOptions = {}) {
    if (!Number.isInteger(windowSize) || windowSize < 1) invalid('windowSize', 'an integer >= 1', windowSize);
    checkOptionKeys(options, ['config', 'clock', 'tenantId', 'onEvict'], 'options');
    if (options.clock !== undefined && typeof options.clock !== 'function')
      invalid('options.clock', 'a function', options.clock);
    if (options.onEvict !== undefined && typeof options.onEvict !== 'function')
      invalid('options.onEvict', 'a function', options.onEvict);
    this.#windowSize = windowSize;
    this.#config = options.config ?? resolveConfig();
    this.#clock = options.clock ?? systemClock;
    this.#tenantId = options.tenantId ?? 'default';
    this.#onEvict = options.onEvict;
  }

  /**
   * Add an entry (tier `short_term` unless given). A string becomes `{input: text, output: ''}`.
   * Returns a copy of the stored entry. Throws `VALIDATION` (and adds nothing) on bad input.
   */
  add(content: MemoryContent | string, options: ShortTermAddOptions = {}): MemoryEntry {
    const { tenantId = this.#tenantId, ...rest } = options;
    const body: MemoryContent = typeof content === 'string' ? { input: content, output: '' } : content;
    const entry = createEntry(tenantId, { tier: 'short_term', ...rest, content: body }, this.#clock());
    this.#entries.push(entry);
    while (this.#entries.length > this.#windowSize) {
      const evicted = this.#entries.shift();
      if (evicted && this.#onEvict) this.#onEvict(structuredClone(evicted));
    }
    return structuredClone(entry);
  }

  /** Every entry, oldest first. */
  getAll(): MemoryEntry[] {
    return structuredClone(this.#entries);
  }

  /** The newest `n` entries, oldest first. `0` gives `[]`; a negative or fractional `n` throws `VALIDATION`. */
  getRecent(n: number): MemoryEntry[] {
    if (!Number.isInteger(n) || n < 0) invalid('n', 'an integer >= 0', n);
    if (n === 0) return [];
    return structuredClone(this.#entries.slice(-n));
  }

  /** Remove everything. */
  clear(): void {
    this.#entries = [];
  }

  /**
   * Remove and return the entries whose effective importance at `now` is below `min`.
   * Protected entries stay. With `enableDecay: false`, base importance decides.
   */
  evictBelow(min: number, now: number = this.#clock()): MemoryEntry[] {
    const evicted = new Set(this.below(min, now));
    this.#entries = this.#entries.filter((e) => !evicted.has(e));
    return [...evicted];
  }

  /**
   * The entries {@link evictBelow} would remove at `now` (effective importance below `min`,
   * protected ones excluded), without removing them.
   */
  below(min: number, now: number = this.#clock()): MemoryEntry[] {
    if (typeof min !== 'number' || !(min >= 0 && min <= 1)) invalid('min', 'a number in [0, 1]', min);
    return this.#entries.filter(
      (e) => !isProtected(e, this.#config) && effectiveImportance(e, now, this.#config) < min,
    );
  }

  /** Number of entries held. */
  get size(): number {
    return this.#entries.length;
  }

  /** Maximum number of entries. */
  get windowSize(): number {
    return this.#windowSize;
  }

  /** True when the next add evicts the oldest entry. */
  get isFull(): boolean {
    return this.#entries.length >= this.#windowSize;
  }

  /** A snapshot of size and contents. */
  stats(): ShortTermStats {
    const n = this.#entries.length;
    return {
      size: n,
      windowSize: this.#windowSize,
      isFull: this.isFull,
      oldestAt: this.#entries[0]?.createdAt,
      newestAt: this.#entries[n - 1]?.createdAt,
      averageImportance: n === 0 ? 0 : this.#entries.reduce((s, e) => s + e.importance, 0) / n,
    };
  }
}
