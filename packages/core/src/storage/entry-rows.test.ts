import { describe, expect, it } from 'vitest';
import { createEntry } from '../model/entry.js';
import { ENTRY_COLUMNS, entryColumnValues, entryData, entryFromRow, entryOrderSql, inIdOrder } from './entry-rows.js';

describe('entry rows', () => {
  it('inIdOrder keeps the order of ids, each id once, and skips misses', () => {
    const found = new Map([
      ['a', 1],
      ['b', 2],
      ['c', 0],
    ]);
    expect(inIdOrder(['c', 'x', 'a', 'c', 'b', 'a'], (id) => found.get(id))).toEqual([0, 1, 2]);
  });

  it('entryOrderSql defaults to createdAt descending and breaks ties by id', () => {
    expect(entryOrderSql({})).toBe('e.created_at DESC, e.id ASC');
    expect(entryOrderSql({ orderBy: 'lastAccess', order: 'asc' })).toBe('e.last_access ASC, e.id ASC');
    expect(entryOrderSql({ orderBy: 'importance' })).toBe('e.importance DESC, e.id ASC');
  });

  it('an entry survives its row (columns in ENTRY_COLUMNS order plus data), with and without a user', () => {
    const names = ENTRY_COLUMNS.split(', ').map((c) => c.slice(2));
    for (const userId of ['u1', undefined]) {
      const e = createEntry(
        't1',
        { content: { title: 'Max', text: 'my dog' }, kind: 'fact', tags: ['pets'], userId },
        5,
      );
      const values = [e.tenantId, ...entryColumnValues(e), entryData(e)];
      const row = Object.fromEntries(names.map((n, i) => [n, values[i]]));
      expect(entryFromRow(row as never)).toEqual(e);
    }
  });
});
