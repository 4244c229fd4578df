/**
 * Read-only views of the manager's tiers. The manager hands these out (after checking the
 * caller's `read` permission), never the tiers themselves: every change goes through the
 * manager's methods, which check access, take the tenant lock and mask PII.
 */
import type { LongTermMemory } from '../tiers/long-term-memory.js';
import type { ShortTermMemory } from '../tiers/short-term-memory.js';
import type { WorkingMemory } from '../tiers/working-memory.js';

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
export type LongTermView = Readonly<Pick<LongTermMemory, (typeof LONG_TERM_READS)[number] | 'tenantId'>>;

/** One user's short-term window, read-only (no `add`, `clear` or `evictBelow`). */
export type ShortTermView = Readonly<
  Pick<ShortTermMemory, 'getAll' | 'getRecent' | 'stats' | 'size' | 'windowSize' | 'isFull'>
>;

/** One user's working memory, read-only (no `rebuild` or `clear`). */
export type WorkingMemoryView = Readonly<Pick<WorkingMemory, 'entries' | 'stats' | 'size' | 'tokenCount'>>;

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
