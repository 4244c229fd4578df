import { describe, expect, it } from 'vitest';
import { cloneEntry, createEntry, validateEntry } from './entry.js';
import type { MemoryEntry } from './types.js';
import { thrownCode as codeOf } from '../testing/rejections.js';

const NOW = 1_700_000_000_000;

describe('createEntry', () => {
  it('fills defaults and infers kind from content', () => {
    const a = createEntry('t1', { content: { input: 'hi', output: 'hello' } }, NOW);
    expect(a).toMatchObject({
      tenantId: 't1',
      tier: 'long_term',
      kind: 'conversation',
      createdAt: NOW,
      lastAccess: NOW,
      importance: 0.5,
      accessCount: 0,
      version: 1,
      tags: [],
      metadata: {},
    });
    const b = createEntry('t1', { content: { title: 'Name', text: 'Ada' } }, NOW);
    expect(b.kind).toBe('fact');
  });

  it('gives random UUIDs, never content hashes: same content twice -> different ids', () => {
    const c = { title: 'same', text: 'same' };
    const a = createEntry('t', { content: c }, NOW);
    const b = createEntry('t', { content: c }, NOW);
    expect(a.id).not.toBe(b.id);
    expect(a.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('normalises tags: trimmed, non-empty, deduped', () => {
    const e = createEntry('t', { content: { title: 'x', text: 'y' }, tags: [' a', 'a', '', '  ', 'b '] }, NOW);
    expect(e.tags).toEqual(['a', 'b']);
  });

  it('copies input: later mutation does not leak in', () => {
    const metadata = { nested: { n: 1 } };
    const content = { title: 't', text: 'x' };
    const e = createEntry('t', { content, metadata }, NOW);
    metadata.nested.n = 2;
    content.text = 'changed';
    expect(e.metadata).toEqual({ nested: { n: 1 } });
    expect(e.content).toEqual({ title: 't', text: 'x' });
  });

  it('uses createdAt for lastAccess on import', () => {
    const e = createEntry('t', { content: { title: 'a', text: 'b' }, createdAt: 5, id: 'fixed' }, NOW);
    expect([e.id, e.createdAt, e.lastAccess]).toEqual(['fixed', 5, 5]);
  });

  it.each([
    ['empty tenant', () => createEntry('', { content: { title: 'a', text: 'b' } }, NOW)],
    ['no content', () => createEntry('t', {} as never, NOW)],
    ['empty content', () => createEntry('t', { content: { input: ' ', output: '' } }, NOW)],
    ['bad content shape', () => createEntry('t', { content: { foo: 'x' } as never }, NOW)],
    ['importance > 1', () => createEntry('t', { content: { title: 'a', text: 'b' }, importance: 1.5 }, NOW)],
    ['importance NaN', () => createEntry('t', { content: { title: 'a', text: 'b' }, importance: NaN }, NOW)],
    ['bad tier', () => createEntry('t', { content: { title: 'a', text: 'b' }, tier: 'forever' as never }, NOW)],
    ['empty kind', () => createEntry('t', { content: { title: 'a', text: 'b' }, kind: '' }, NOW)],
    ['non-string tag', () => createEntry('t', { content: { title: 'a', text: 'b' }, tags: [1 as never] }, NOW)],
    [
      'function in metadata',
      () => createEntry('t', { content: { title: 'a', text: 'b' }, metadata: { f: (() => 1) as never } }, NOW),
    ],
    [
      'Infinity in metadata',
      () => createEntry('t', { content: { title: 'a', text: 'b' }, metadata: { n: Infinity } }, NOW),
    ],
    [
      'Date in metadata',
      () => createEntry('t', { content: { title: 'a', text: 'b' }, metadata: { d: new Date() as never } }, NOW),
    ],
  ])('rejects %s with VALIDATION', (_name, fn) => {
    expect(codeOf(fn)).toBe('VALIDATION');
  });

  it('keeps a "__proto__" metadata key as data', () => {
    const metadata = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, never>;
    const e = createEntry('t', { content: { title: 'a', text: 'b' }, metadata }, NOW);
    expect(Object.getPrototypeOf(e.metadata)).toBe(Object.prototype);
    expect((e.metadata as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.keys(e.metadata)).toEqual(['__proto__', 'a']);
  });

  it('rejects cyclic metadata', () => {
    const m: Record<string, unknown> = {};
    m.self = m;
    expect(codeOf(() => createEntry('t', { content: { title: 'a', text: 'b' }, metadata: m as never }, NOW))).toBe(
      'VALIDATION',
    );
  });
});

describe('validateEntry', () => {
  const base = (): MemoryEntry => createEntry('t', { content: { input: 'q', output: 'a' }, tags: ['x'] }, NOW);

  it('returns a clean copy without unknown fields', () => {
    const original = base();
    const e = { ...original, extra: 1 } as MemoryEntry;
    const v = validateEntry(e);
    expect(v).not.toBe(e);
    expect('extra' in v).toBe(false);
    expect(v).toEqual(original);
    expect(v.content).not.toBe(e.content);
  });

  it.each([
    ['version 0', { version: 0 }],
    ['negative accessCount', { accessCount: -1 }],
    ['fractional accessCount', { accessCount: 1.5 }],
    ['missing lastAccess', { lastAccess: undefined }],
    ['empty id', { id: '' }],
    ['bad importance', { importance: -0.1 }],
  ])('rejects %s', (_n, patch) => {
    expect(codeOf(() => validateEntry({ ...base(), ...patch } as MemoryEntry))).toBe('VALIDATION');
  });
});

describe('cloneEntry', () => {
  it('is deep', () => {
    const e = createEntry('t', { content: { title: 'a', text: 'b' }, tags: ['x'], metadata: { a: [1] } }, NOW);
    const c = cloneEntry(e);
    c.tags.push('y');
    (c.metadata.a as number[]).push(2);
    expect(e.tags).toEqual(['x']);
    expect(e.metadata.a).toEqual([1]);
  });
});
