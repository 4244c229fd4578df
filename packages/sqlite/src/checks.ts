import { TIERS, invalid } from '@zerda/core';
import type { MemoryFilter, MemoryQuery, VectorModel } from '@zerda/core';

// Same argument rules as core's InMemoryStorage, so both adapters reject the same calls.

/** Throw `VALIDATION` unless `v` is a non-empty string. */
export function checkKey(field: string, v: unknown): asserts v is string {
  if (typeof v !== 'string' || !v) invalid(field, 'a non-empty string', v);
}

/** Throw `VALIDATION` unless `ids` is an array of non-empty strings. */
export function checkIds(ids: unknown): asserts ids is string[] {
  if (!Array.isArray(ids)) invalid('ids', 'an array of strings', ids);
  for (const id of ids) checkKey('ids[]', id);
}

/** Throw `VALIDATION` unless `model` is `{ id: non-empty string, dim: integer >= 1 }`. */
export function checkModel(model: unknown): asserts model is VectorModel {
  if (typeof model !== 'object' || model === null) invalid('model', 'an object {id, dim}', model);
  const m = model as VectorModel;
  checkKey('model.id', m.id);
  if (!Number.isInteger(m.dim) || m.dim < 1) invalid('model.dim', 'an integer >= 1', m.dim);
}

const STRING_LIST_FIELDS = ['ids', 'kinds', 'tags'] as const;

/** Validate a filter. */
export function checkFilter(f: MemoryFilter): void {
  if (typeof f !== 'object' || f === null) invalid('filter', 'an object with tenantId', f);
  checkKey('tenantId', f.tenantId);
  for (const k of STRING_LIST_FIELDS) {
    const v = f[k];
    if (v !== undefined && (!Array.isArray(v) || v.some((x) => typeof x !== 'string')))
      invalid(`filter.${k}`, 'an array of strings', v);
  }
  if (f.tiers !== undefined && (!Array.isArray(f.tiers) || f.tiers.some((t) => !TIERS.includes(t))))
    invalid('filter.tiers', `an array of ${TIERS.join(' | ')}`, f.tiers);
  if (f.tagMode !== undefined && f.tagMode !== 'any' && f.tagMode !== 'all') invalid('filter.tagMode', "'any' | 'all'", f.tagMode);
  if (f.userId !== undefined && typeof f.userId !== 'string') invalid('filter.userId', 'a string', f.userId);
  if (f.text !== undefined && typeof f.text !== 'string') invalid('filter.text', 'a string', f.text);
  for (const k of ['createdFrom', 'createdTo', 'minImportance', 'maxImportance'] as const) {
    const v = f[k];
    if (v !== undefined && (typeof v !== 'number' || Number.isNaN(v))) invalid(`filter.${k}`, 'a number', v);
  }
}

/** Validate a query (filter + order + page). */
export function checkQuery(q: MemoryQuery): void {
  checkFilter(q);
  if (q.orderBy !== undefined && !['createdAt', 'lastAccess', 'importance'].includes(q.orderBy))
    invalid('query.orderBy', "'createdAt' | 'lastAccess' | 'importance'", q.orderBy);
  if (q.order !== undefined && q.order !== 'asc' && q.order !== 'desc') invalid('query.order', "'asc' | 'desc'", q.order);
  if (q.limit !== undefined && (!Number.isInteger(q.limit) || q.limit < 0)) invalid('query.limit', 'an integer >= 0', q.limit);
  if (q.offset !== undefined && (!Number.isInteger(q.offset) || q.offset < 0)) invalid('query.offset', 'an integer >= 0', q.offset);
}

type SqlParam = string | number | null;

/** A parameterised WHERE clause over `entries e` (every value bound, lists as one JSON parameter). */
export function filterSql(f: Omit<MemoryFilter, 'tenantId'>): { sql: string; params: SqlParam[] } {
  const parts: string[] = [];
  const params: SqlParam[] = [];
  const list = (column: string, values: string[]) => {
    parts.push(`${column} IN (SELECT value FROM json_each(?))`);
    params.push(JSON.stringify(values));
  };
  if (f.ids !== undefined) list('e.id', f.ids);
  if (f.tiers !== undefined) list('e.tier', f.tiers);
  if (f.kinds !== undefined) list('e.kind', f.kinds);
  if (f.tags !== undefined) {
    const tags = [...new Set(f.tags)];
    const sub = 'FROM entry_tags t WHERE t.rid = e.rid AND t.tag IN (SELECT value FROM json_each(?))';
    if (f.tagMode === 'all') {
      parts.push(`(SELECT count(*) ${sub}) = ?`);
      params.push(JSON.stringify(tags), tags.length);
    } else {
      parts.push(`EXISTS (SELECT 1 ${sub})`);
      params.push(JSON.stringify(tags));
    }
  }
  if (f.userId !== undefined) {
    parts.push('e.user_id = ?');
    params.push(f.userId);
  }
  const num = (cond: string, v: number | undefined) => {
    if (v === undefined) return;
    parts.push(cond);
    params.push(v);
  };
  num('e.created_at >= ?', f.createdFrom);
  num('e.created_at <= ?', f.createdTo);
  num('e.importance >= ?', f.minImportance);
  num('e.importance < ?', f.maxImportance);
  if (f.text !== undefined) {
    parts.push('instr(e.text_lc, ?) > 0');
    params.push(f.text.toLowerCase());
  }
  return { sql: parts.length ? parts.join(' AND ') : '1', params };
}
