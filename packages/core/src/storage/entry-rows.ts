import type { MemoryEntry } from '../model/types.js';
import type { MemoryQuery } from './storage.js';

// What the storage adapters share on their read path: `getMany`'s order rule, `query`'s order rule,
// and the row layout of the SQL adapters (@zerda/sqlite, @zerda/postgres): the fields they filter
// and order on as columns of `entries`, the rest of the entry as one JSON value in `data`.

/** `getMany`'s rule: what `find` returns for `ids`, in their order, each id once, misses skipped. */
export function inIdOrder<T>(ids: readonly string[], find: (id: string) => T | undefined): T[] {
  const out: T[] = [];
  for (const id of new Set(ids)) {
    const found = find(id);
    if (found !== undefined) out.push(found);
  }
  return out;
}

/** `query`'s order: the field (default `createdAt`) and direction (default descending); ties go by id ascending. */
export function queryOrder(query: Pick<MemoryQuery, 'orderBy' | 'order'>): {
  field: NonNullable<MemoryQuery['orderBy']>;
  descending: boolean;
} {
  return { field: query.orderBy ?? 'createdAt', descending: (query.order ?? 'desc') === 'desc' };
}

const ORDER_COLUMNS = { createdAt: 'created_at', lastAccess: 'last_access', importance: 'importance' } as const;

/** {@link queryOrder} as an SQL `ORDER BY` list over `entries e`. */
export function entryOrderSql(query: Pick<MemoryQuery, 'orderBy' | 'order'>): string {
  const { field, descending } = queryOrder(query);
  return `e.${ORDER_COLUMNS[field]} ${descending ? 'DESC' : 'ASC'}, e.id ASC`;
}

/** The columns of `entries e` that {@link entryFromRow} reads, in the order of {@link EntryRow}'s fields. */
export const ENTRY_COLUMNS =
  'e.tenant_id, e.id, e.user_id, e.tier, e.kind, e.created_at, e.last_access, e.importance, e.data';

/** The part of an entry an SQL adapter keeps as JSON in `data` (everything else has its own column). */
export interface EntryData {
  content: MemoryEntry['content'];
  accessCount: number;
  tags: string[];
  metadata: MemoryEntry['metadata'];
  version: number;
}

/** A row selected with {@link ENTRY_COLUMNS}, `data` already parsed. */
export interface EntryRow {
  tenant_id: string;
  id: string;
  user_id: string | null;
  tier: MemoryEntry['tier'];
  kind: string;
  created_at: number;
  last_access: number;
  importance: number;
  data: EntryData;
}

/**
 * An entry's column values after `tenant_id`, in {@link ENTRY_COLUMNS} order up to `data`: id, user_id, tier,
 * kind, created_at, last_access, importance.
 */
export function entryColumnValues(e: MemoryEntry): [string, string | null, string, string, number, number, number] {
  return [e.id, e.userId ?? null, e.tier, e.kind, e.createdAt, e.lastAccess, e.importance];
}

/** The JSON part of an entry's row. */
export function entryData(e: MemoryEntry): EntryData {
  return { content: e.content, accessCount: e.accessCount, tags: e.tags, metadata: e.metadata, version: e.version };
}

/** Rebuild an entry from its row. */
export function entryFromRow(r: EntryRow): MemoryEntry {
  const d = r.data;
  const e: MemoryEntry = {
    id: r.id,
    tenantId: r.tenant_id,
    content: d.content,
    tier: r.tier,
    kind: r.kind,
    createdAt: r.created_at,
    lastAccess: r.last_access,
    importance: r.importance,
    accessCount: d.accessCount,
    tags: d.tags,
    metadata: d.metadata,
    version: d.version,
  };
  if (r.user_id !== null) e.userId = r.user_id;
  return e;
}
