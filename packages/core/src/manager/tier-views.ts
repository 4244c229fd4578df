/**
 * Read-only views of the manager's tiers. The manager hands these out (after checking the
 * caller's `read` permission), never the tiers themselves: every change goes through the
 * manager's methods, which check access, take the tenant lock and mask PII.
 */
import type { effectiveImportance } from '../dynamics/decay.js';
import type { MemoryEntry, MemoryKind } from '../model/types.js';
import type { MemoryQuery } from '../storage/storage.js';
import type { LongTermMemory, LongTermStats, RankedEntry } from '../tiers/long-term-memory.js';
import type { ShortTermMemory, ShortTermStats } from '../tiers/short-term-memory.js';
import type { WorkingMemory, WorkingStats } from '../tiers/working-memory.js';

/** What a {@link LongTermView} can read. */
export const LONG_TERM_READS = [
  'get',
  'topByImportance',
  'rankByImportance',
  'recent',
  'count',
  'stats',
  'byKind',
  'byTags',
  'byDateRange',
  'searchText',
  'query',
  'effectiveImportance',
] as const;

/** The long-term tier of one tenant, read-only (no `store`, `delete` or `clear`). */
export interface LongTermView {
  /** The tenant this memory belongs to. */
  readonly tenantId: string;
  /** The entry with this id, or `undefined`. A pure read: nothing is written. */
  get(id: string): Promise<MemoryEntry | undefined>;
  /**
   * The `limit` entries with the highest *effective* importance now (at least `minImportance`),
   * highest first, ties by id ascending.
   */
  topByImportance(limit: number, minImportance?: number): Promise<MemoryEntry[]>;
  /** Like {@link LongTermView.topByImportance}, with each entry's effective importance. */
  rankByImportance(limit: number, minImportance?: number): Promise<RankedEntry[]>;
  /** The `limit` newest entries, newest first. */
  recent(limit: number): Promise<MemoryEntry[]>;
  /** Number of long-term entries. */
  count(): Promise<number>;
  /** Counts and importance averages. */
  stats(): Promise<LongTermStats>;
  /** Entries of one kind, newest first. */
  byKind(kind: MemoryKind, limit?: number): Promise<MemoryEntry[]>;
  /** Entries with any (default) or all of the tags, newest first. */
  byTags(tags: string[], options?: { mode?: 'any' | 'all'; limit?: number }): Promise<MemoryEntry[]>;
  /** Entries created in `[from, to]` (epoch ms, inclusive), newest first. */
  byDateRange(from: number, to: number, limit?: number): Promise<MemoryEntry[]>;
  /** BM25 search over entry text, best first (default limit: `config.retrievalLimit`). */
  searchText(text: string, limit?: number): Promise<MemoryEntry[]>;
  /** A storage query scoped to this tenant and the long-term tier. */
  query(q?: Omit<MemoryQuery, 'tenantId'>): Promise<MemoryEntry[]>;
  /** Effective importance of an entry at `now` (default: the clock's now; see {@link effectiveImportance}). */
  effectiveImportance(entry: MemoryEntry, now?: number): number;
}

/** One user's short-term window, read-only (no `add`, `clear` or `evictBelow`). */
export interface ShortTermView {
  /** Every entry, oldest first. */
  getAll(): MemoryEntry[];
  /** The newest `n` entries, oldest first. `0` gives `[]`; a negative or fractional `n` throws `VALIDATION`. */
  getRecent(n: number): MemoryEntry[];
  /** A snapshot of size and contents. */
  stats(): ShortTermStats;
  /** Number of entries held. */
  readonly size: number;
  /** Maximum number of entries. */
  readonly windowSize: number;
  /** True when the next add evicts the oldest entry. */
  readonly isFull: boolean;
}

/** One user's working memory, read-only (no `rebuild` or `clear`). */
export interface WorkingMemoryView {
  /** Current entries, best first (copies). */
  entries(): MemoryEntry[];
  /** A snapshot of size and budget use. */
  stats(): WorkingStats;
  /** Number of current entries. */
  readonly size: number;
  /** Total tokens of the current entries. */
  readonly tokenCount: number;
}

/** A frozen object whose methods read `tier` and whose getters follow it; nothing else reaches it. */
function view<T extends object>(tier: T, methods: readonly string[], getters: readonly string[]): object {
  const out: Record<string, unknown> = {};
  const t = tier as unknown as Record<string, unknown>;
  for (const m of methods) out[m] = (t[m] as (...args: unknown[]) => unknown).bind(tier);
  for (const g of getters) Object.defineProperty(out, g, { get: () => t[g], enumerable: true });
  return Object.freeze(out);
}

/** A {@link LongTermView} of `tier`. */
export function longTermView(tier: LongTermMemory): LongTermView {
  return view(tier, LONG_TERM_READS, ['tenantId']) as LongTermView;
}

/** A {@link ShortTermView} of `tier`. */
export function shortTermView(tier: ShortTermMemory): ShortTermView {
  return view(tier, ['getAll', 'getRecent', 'stats'], ['size', 'windowSize', 'isFull']) as ShortTermView;
}

/** A {@link WorkingMemoryView} of `tier`. */
export function workingMemoryView(tier: WorkingMemory): WorkingMemoryView {
  return view(tier, ['entries', 'stats'], ['size', 'tokenCount']) as WorkingMemoryView;
}
