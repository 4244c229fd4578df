import { describe, expect, it } from 'vitest';
import { isZerdaError } from '@zerda/core';
import { baseToImportance, importanceToBase } from './dynamics.js';
import { parseDateArg } from './dates.js';
import { parseToolArgs } from './schemas.js';
import { resolveServerConfig } from './config.js';

function rejects(fn: () => unknown, field: string): void {
  try {
    fn();
  } catch (e) {
    expect(isZerdaError(e, 'VALIDATION')).toBe(true);
    expect((e as Error).message).toContain(field);
    return;
  }
  throw new Error(`expected a VALIDATION error for ${field}`);
}

describe('tool arguments', () => {
  it('maps importance 1..10 to base 0.1..1.0 and back', () => {
    expect(importanceToBase(1)).toBe(0.1);
    expect(importanceToBase(10)).toBe(1);
    expect(importanceToBase(7.5)).toBe(0.75);
    expect(baseToImportance(0.55)).toBe(5.5);
  });

  it('checks importance against 1..10 in the one schema (quoted numbers read as numbers)', () => {
    expect(parseToolArgs('remember', { title: 't', content: 'c', importance: '7.5' }).importance).toBe(7.5);
    for (const bad of [0, 0.99, 10.01, 42, -1, Number.NaN, Infinity, 'high', true]) {
      rejects(() => parseToolArgs('remember', { title: 't', content: 'c', importance: bad }), 'importance');
    }
  });

  it('parses ISO dates and date-times, UTC unless an offset is given', () => {
    expect(parseDateArg('2025-03-01', 'd')).toBe(Date.UTC(2025, 2, 1));
    expect(parseDateArg('2025-03-01', 'd', true)).toBe(Date.UTC(2025, 2, 2) - 1);
    expect(parseDateArg('2025-03-01T14:30', 'd')).toBe(Date.UTC(2025, 2, 1, 14, 30));
    expect(parseDateArg('2025-03-01T14:30:15.250Z', 'd')).toBe(Date.UTC(2025, 2, 1, 14, 30, 15, 250));
    expect(parseDateArg('2025-03-01T14:30:00+02:00', 'd')).toBe(Date.UTC(2025, 2, 1, 12, 30));
    expect(parseDateArg('2025-03-01 14:30:00-0130', 'd')).toBe(Date.UTC(2025, 2, 1, 16, 0));
    expect(parseDateArg('2024-02-29', 'd')).toBe(Date.UTC(2024, 1, 29));
    // Years 0001..0099 are real ISO years (an assistant asking for "everything since 0001-01-01"), not 1901..1999.
    expect(new Date(parseDateArg('0001-01-01', 'd')).toISOString()).toBe('0001-01-01T00:00:00.000Z');
    expect(new Date(parseDateArg('0099-12-31T23:00Z', 'd')).toISOString()).toBe('0099-12-31T23:00:00.000Z');
    for (const bad of [
      '2025-02-29',
      '2025-13-01',
      '2025-00-10',
      '2025-03-32',
      '2025-03-01T24:00',
      '2025-03-01T12:60',
      'yesterday',
      '03/01/2025',
      '2025-3-1',
      '',
      20250301,
      null,
    ])
      rejects(() => parseDateArg(bad, 'date_from'), 'date_from');
  });

  it('splits comma-separated tags, trimmed, lowercased and de-duplicated', () => {
    const tags = (raw: unknown) => parseToolArgs('remember', { title: 't', content: 'c', tags: raw }).tags;
    expect(tags(' work, Ideas ,,WORK ')).toEqual(['work', 'ideas']);
    expect(tags(['a', ' B '])).toEqual(['a', 'b']);
    expect(tags('')).toEqual([]);
    rejects(() => tags(5), 'tags');
    rejects(() => tags('x'.repeat(101)), 'tags');
    // update_memory: "" is "no change", "," clears.
    expect(parseToolArgs('update_memory', { memory_id: 'm', tags: '' }).tags).toBeUndefined();
    expect(parseToolArgs('update_memory', { memory_id: 'm', tags: ' , ' }).tags).toEqual([]);
    rejects(() => parseToolArgs('search_by_tags', { tags: ' , ' }), 'tags');
  });

  it('validates limits, text, search types and dates', () => {
    expect(parseToolArgs('get_recent_memories', {}).limit).toBeUndefined();
    expect(parseToolArgs('get_recent_memories', { limit: '3' }).limit).toBe(3);
    for (const bad of [0, -1, 2.5, 1001, 'three'])
      rejects(() => parseToolArgs('get_recent_memories', { limit: bad }), 'limit');
    rejects(() => parseToolArgs('search_memories', { query: 'x', limit: 101 }), 'limit');
    expect(parseToolArgs('search_memories', { query: '  x ', search_type: 'Keyword' })).toMatchObject({
      query: 'x',
      search_type: 'keyword',
    });
    rejects(() => parseToolArgs('search_memories', { query: 'x', search_type: 'telepathic' }), 'search_type');
    rejects(() => parseToolArgs('remember', { title: '   ', content: 'c' }), 'title');
    rejects(() => parseToolArgs('remember', { content: 'c' }), 'title is required');
    expect(parseToolArgs('search_by_date_range', { date_from: '2025-03-01', date_to: '2025-03-01' })).toMatchObject({
      date_from: Date.UTC(2025, 2, 1),
      date_to: Date.UTC(2025, 2, 2) - 1,
    });
    rejects(() => parseToolArgs('search_by_date_range', { date_from: '2025-02-30' }), 'date_from');
    expect(parseToolArgs('update_memory', { memory_id: 'm', memory_type: 'Event', title: null })).toEqual({
      memory_id: 'm',
      memory_type: 'event',
    });
  });
});

describe('server configuration', () => {
  it('reads the data directory from ZERDA_DATA_DIR, then AI_COMPANION_DATA_DIR, then the home folder', () => {
    expect(resolveServerConfig({ ZERDA_DATA_DIR: '/a', AI_COMPANION_DATA_DIR: '/b' }, '/home/u').dataDir).toBe('/a');
    expect(resolveServerConfig({ AI_COMPANION_DATA_DIR: '/b' }, '/home/u').dataDir).toBe('/b');
    const d = resolveServerConfig({}, '/home/u');
    expect(d.dataDir).toBe('/home/u/.zerda-memory');
    // No shell expands `~` in a desktop app's JSON configuration.
    expect(resolveServerConfig({ ZERDA_DATA_DIR: '~/my-memory' }, '/home/u').dataDir).toBe('/home/u/my-memory');
    expect(resolveServerConfig({ AI_COMPANION_DATA_DIR: '~' }, '/home/u').dataDir).toBe('/home/u');
    expect(resolveServerConfig({ ZERDA_DATA_DIR: '/srv/~x' }, '/home/u').dataDir).toBe('/srv/~x');
    expect(d).toMatchObject({
      tenantId: 'default',
      embedder: 'model',
      storage: 'sqlite',
      backupIntervalHours: 24,
      backupEvery: 100,
      backupKeep: 10,
      maskPii: false,
    });
  });

  it('rejects malformed variables by name', () => {
    rejects(() => resolveServerConfig({ ZERDA_EMBEDDER: 'gpt' }), 'ZERDA_EMBEDDER');
    rejects(() => resolveServerConfig({ ZERDA_BACKUP_KEEP: '0' }), 'ZERDA_BACKUP_KEEP');
    rejects(() => resolveServerConfig({ ZERDA_BACKUP_EVERY: '2.5' }), 'ZERDA_BACKUP_EVERY');
    rejects(() => resolveServerConfig({ ZERDA_NOW_OFFSET_MS: 'soon' }), 'ZERDA_NOW_OFFSET_MS');
    rejects(() => resolveServerConfig({ ZERDA_MASK_PII: 'maybe' }), 'ZERDA_MASK_PII');
    rejects(() => resolveServerConfig({ ZERDA_STORAGE: 'postgres' }), 'ZERDA_STORAGE');
    rejects(() => resolveServerConfig({ ZERDA_RESULT_FORMAT: 'json' }), 'ZERDA_RESULT_FORMAT');
    expect(resolveServerConfig({}).resultFormat).toBe('original');
    expect(resolveServerConfig({ ZERDA_RESULT_FORMAT: 'Zerda' }).resultFormat).toBe('zerda');
    expect(resolveServerConfig({ ZERDA_MASK_PII: 'yes' }).maskPii).toBe(true);
  });
});
