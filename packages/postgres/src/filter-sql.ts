import type { MemoryFilter } from '@zerda/core';

/**
 * A parameterised WHERE clause over `entries e` for a filter (the tenant is bound separately).
 * Every value is a bind parameter (`$n`, numbered from `first`); lists are passed as arrays.
 */
export function filterSql(f: Omit<MemoryFilter, 'tenantId'>, first: number): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${first + params.length - 1}`;
  };
  if (f.ids !== undefined) parts.push(`e.id = ANY(${p(f.ids)}::text[])`);
  if (f.tiers !== undefined) parts.push(`e.tier = ANY(${p(f.tiers)}::text[])`);
  if (f.kinds !== undefined) parts.push(`e.kind = ANY(${p(f.kinds)}::text[])`);
  if (f.tags !== undefined) {
    const tags = [...new Set(f.tags)];
    // 'any' of no tags matches nothing; 'all' of no tags matches everything (as the other adapters).
    parts.push(f.tagMode === 'all' ? `e.tags @> ${p(tags)}::text[]` : `e.tags && ${p(tags)}::text[]`);
  }
  if (f.userId !== undefined) parts.push(`e.user_id = ${p(f.userId)}`);
  if (f.createdFrom !== undefined) parts.push(`e.created_at >= ${p(f.createdFrom)}`);
  if (f.createdTo !== undefined) parts.push(`e.created_at <= ${p(f.createdTo)}`);
  if (f.minImportance !== undefined) parts.push(`e.importance >= ${p(f.minImportance)}`);
  if (f.maxImportance !== undefined) parts.push(`e.importance < ${p(f.maxImportance)}`);
  // Lower-cased in JavaScript on both sides, so case folding is the same as in the other adapters
  // whatever the database's locale.
  if (f.text !== undefined) parts.push(`strpos(e.text_lc, ${p(stripNul(f.text.toLowerCase()))}) > 0`);
  return { sql: parts.length ? parts.join(' AND ') : 'true', params };
}

/** PostgreSQL text cannot hold U+0000; it is never part of a word, so indexed text drops it. */
export function stripNul(text: string): string {
  return text.includes('\u0000') ? text.replace(/\u0000/g, ' ') : text;
}
