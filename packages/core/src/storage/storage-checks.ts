import { invalid } from '../model/errors.js';
import { checkOptionKeys } from '../model/options.js';
import { checkId } from '../model/ids.js';
import type { LexicalQuery, MemoryFilter, MemoryQuery, VectorModel, VectorRecord } from './storage.js';
import { TIERS } from '../model/types.js';

// Argument rules shared by every StorageAdapter, so all adapters reject the same calls the same way.

/** Throw `VALIDATION` unless `v` keeps the id rule (`checkId`, model/ids.ts): tenant, entry, user and model ids alike. */
export function checkKey(field: string, v: unknown): asserts v is string {
  checkId(field, v);
}

/** Throw `VALIDATION` unless `ids` is an array of non-empty strings. */
export function checkIds(ids: unknown): asserts ids is string[] {
  if (!Array.isArray(ids)) invalid('ids', 'an array of strings', ids);
  for (const id of ids) checkKey('ids[]', id);
}

/**
 * Throw `VALIDATION` unless `records` is an array of `{ id, vector }` whose ids keep the id rule
 * and whose vectors are `Float32Array`s of `model.dim` finite values (rule 8 of `StorageAdapter`).
 */
export function checkVectorRecords(records: unknown, model: VectorModel): asserts records is VectorRecord[] {
  if (!Array.isArray(records)) invalid('records', 'an array of {id, vector}', records);
  records.forEach((r: unknown, i) => {
    if (typeof r !== 'object' || r === null) invalid(`records[${i}]`, 'an object {id, vector}', r);
    const { id, vector: v } = r as { id?: unknown; vector?: unknown };
    checkKey(`records[${i}].id`, id);
    if (!(v instanceof Float32Array)) invalid(`records[${i}].vector`, 'a Float32Array', v);
    if (v.length !== model.dim) invalid(`records[${i}].vector`, `length ${model.dim} (model.dim)`, v.length);
    for (const x of v) if (!Number.isFinite(x)) invalid(`records[${i}].vector`, 'finite values', x);
  });
}

/** Throw `VALIDATION` unless `model` is `{ id: non-empty string, dim: integer >= 1 }`. */
export function checkModel(model: unknown): asserts model is VectorModel {
  if (typeof model !== 'object' || model === null) invalid('model', 'an object {id, dim}', model);
  const m = model as VectorModel;
  checkKey('model.id', m.id);
  if (!Number.isInteger(m.dim) || m.dim < 1) invalid('model.dim', 'an integer >= 1', m.dim);
}

const STRING_LIST_FIELDS = ['ids', 'kinds', 'tags'] as const;

const FILTER_KEYS = [
  'tenantId',
  'ids',
  'tiers',
  'kinds',
  'tags',
  'tagMode',
  'userId',
  'createdFrom',
  'createdTo',
  'minImportance',
  'maxImportance',
  'text',
];
const QUERY_KEYS = [...FILTER_KEYS, 'orderBy', 'order', 'limit', 'offset'];

/** Validate a filter. Unknown keys are rejected: `{ kind: 'fact' }` must not silently match everything. */
export function checkFilter(f: MemoryFilter): void {
  checkFilterWith(f, FILTER_KEYS);
}

function checkFilterWith(f: MemoryFilter, keys: readonly string[]): void {
  checkOptionKeys(f, keys, 'filter');
  checkKey('tenantId', f.tenantId);
  for (const k of STRING_LIST_FIELDS) {
    const v = f[k];
    if (v !== undefined && (!Array.isArray(v) || v.some((x) => typeof x !== 'string')))
      invalid(`filter.${k}`, 'an array of strings', v);
  }
  if (f.tiers !== undefined && (!Array.isArray(f.tiers) || f.tiers.some((t) => !TIERS.includes(t))))
    invalid('filter.tiers', `an array of ${TIERS.join(' | ')}`, f.tiers);
  if (f.tagMode !== undefined && f.tagMode !== 'any' && f.tagMode !== 'all')
    invalid('filter.tagMode', "'any' | 'all'", f.tagMode);
  if (f.userId !== undefined && typeof f.userId !== 'string') invalid('filter.userId', 'a string', f.userId);
  if (f.text !== undefined && typeof f.text !== 'string') invalid('filter.text', 'a string', f.text);
  for (const k of ['createdFrom', 'createdTo', 'minImportance', 'maxImportance'] as const) {
    const v = f[k];
    if (v !== undefined && (typeof v !== 'number' || Number.isNaN(v))) invalid(`filter.${k}`, 'a number', v);
  }
}

/** Validate a query (filter + order + page). */
export function checkQuery(q: MemoryQuery): void {
  checkFilterWith(q, QUERY_KEYS);
  if (q.orderBy !== undefined && !['createdAt', 'lastAccess', 'importance'].includes(q.orderBy))
    invalid('query.orderBy', "'createdAt' | 'lastAccess' | 'importance'", q.orderBy);
  if (q.order !== undefined && q.order !== 'asc' && q.order !== 'desc')
    invalid('query.order', "'asc' | 'desc'", q.order);
  if (q.limit !== undefined && (!Number.isInteger(q.limit) || q.limit < 0))
    invalid('query.limit', 'an integer >= 0', q.limit);
  if (q.offset !== undefined && (!Number.isInteger(q.offset) || q.offset < 0))
    invalid('query.offset', 'an integer >= 0', q.offset);
}

/** Validate a lexical search request (tenant, query text, limit, optional filter). */
export function checkLexicalQuery(query: LexicalQuery): void {
  if (typeof query !== 'object' || query === null) invalid('query', 'an object', query);
  checkKey('tenantId', query.tenantId);
  if (typeof query.query !== 'string') invalid('query.query', 'a string', query.query);
  if (!Number.isInteger(query.limit) || query.limit < 0) invalid('query.limit', 'an integer >= 0', query.limit);
  checkFilter({ ...(query.filter ?? {}), tenantId: query.tenantId });
}
