import type { MemoryFilter } from '@zerda/core';

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
