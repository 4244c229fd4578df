import { describe, expect, it } from 'vitest';
import { isZerdaError } from '@zerda/core';
import { baseToImportance, importanceToBase, parseDateArg, parseLimit, parseTags } from './args.js';
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
    for (const bad of [0, 0.99, 10.01, 42, -1, Number.NaN, Infinity, '5', null]) rejects(() => importanceToBase(bad), 'importance');
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
    for (const bad of ['2025-02-29', '2025-13-01', '2025-00-10', '2025-03-32', '2025-03-01T24:00', '2025-03-01T12:60',
      'yesterday', '03/01/2025', '2025-3-1', '', 20250301, null]) rejects(() => parseDateArg(bad, 'date_from'), 'date_from');
  });

  it('splits comma-separated tags, trimmed and de-duplicated', () => {
    expect(parseTags(' work, ideas ,,work ')).toEqual(['work', 'ideas']);
    expect(parseTags(['a', ' b '])).toEqual(['a', 'b']);
    expect(parseTags('')).toEqual([]);
    rejects(() => parseTags(5), 'tags');
    rejects(() => parseTags('x'.repeat(101)), 'tags');
  });

  it('validates limits', () => {
    expect(parseLimit(undefined, 20)).toBe(20);
    expect(parseLimit(3, 20)).toBe(3);
    for (const bad of [0, -1, 2.5, 1001, '3']) rejects(() => parseLimit(bad, 20), 'limit');
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
    expect(d).toMatchObject({ tenantId: 'default', embedder: 'model', storage: 'sqlite', backupIntervalHours: 24, backupEvery: 100, backupKeep: 10, maskPii: false });
  });

  it('rejects malformed variables by name', () => {
    rejects(() => resolveServerConfig({ ZERDA_EMBEDDER: 'gpt' }), 'ZERDA_EMBEDDER');
    rejects(() => resolveServerConfig({ ZERDA_BACKUP_KEEP: '0' }), 'ZERDA_BACKUP_KEEP');
    rejects(() => resolveServerConfig({ ZERDA_BACKUP_EVERY: '2.5' }), 'ZERDA_BACKUP_EVERY');
    rejects(() => resolveServerConfig({ ZERDA_NOW_OFFSET_MS: 'soon' }), 'ZERDA_NOW_OFFSET_MS');
    rejects(() => resolveServerConfig({ ZERDA_MASK_PII: 'maybe' }), 'ZERDA_MASK_PII');
    rejects(() => resolveServerConfig({ ZERDA_STORAGE: 'postgres' }), 'ZERDA_STORAGE');
    expect(resolveServerConfig({ ZERDA_MASK_PII: 'yes' }).maskPii).toBe(true);
  });
});
