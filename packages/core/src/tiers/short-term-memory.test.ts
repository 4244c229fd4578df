import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../model/clock.js';
import { resolveConfig } from '../model/config.js';
import { ShortTermMemory } from './short-term-memory.js';
import type { MemoryEntry } from '../model/types.js';
import { thrownCode as codeOf } from '../testing/rejections.js';

const texts = (es: MemoryEntry[]) => es.map((e) => ('input' in e.content ? e.content.input : e.content.text));

describe('ShortTermMemory', () => {
  it('keeps a sliding window, oldest first, evicting the oldest', () => {
    const evicted: string[] = [];
    const stm = new ShortTermMemory(3, { onEvict: (e) => evicted.push(texts([e])[0]!) });
    for (const t of ['a', 'b', 'c', 'd', 'e']) stm.add(t);
    expect(texts(stm.getAll())).toEqual(['c', 'd', 'e']);
    expect(evicted).toEqual(['a', 'b']);
    expect(stm.size).toBe(3);
    expect(stm.isFull).toBe(true);
  });

  it('getRecent(n) gives the newest n, oldest first', () => {
    const stm = new ShortTermMemory(5);
    for (const t of ['a', 'b', 'c', 'd']) stm.add(t);
    expect(texts(stm.getRecent(2))).toEqual(['c', 'd']);
    expect(texts(stm.getRecent(10))).toEqual(['a', 'b', 'c', 'd']);
  });

  it('rejects misspelt or ill-typed options with VALIDATION', () => {
    expect(codeOf(() => new ShortTermMemory(3, { confg: resolveConfig() } as never))).toBe('VALIDATION');
    expect(codeOf(() => new ShortTermMemory(3, { onEvict: 1 } as never))).toBe('VALIDATION');
    expect(codeOf(() => new ShortTermMemory(3, { clock: () => 0 }))).toBeUndefined();
  });

  it('getRecent(0) returns [] (not the whole window)', () => {
    const stm = new ShortTermMemory(5);
    stm.add('a');
    stm.add('b');
    expect(stm.getRecent(0)).toEqual([]);
  });

  it('rejects negative or fractional n with VALIDATION', () => {
    const stm = new ShortTermMemory(5);
    stm.add('a');
    expect(codeOf(() => stm.getRecent(-1))).toBe('VALIDATION');
    expect(codeOf(() => stm.getRecent(1.5))).toBe('VALIDATION');
  });

  it.each([0, -1, 2.5, NaN])('rejects windowSize %s with VALIDATION', (w) => {
    expect(codeOf(() => new ShortTermMemory(w))).toBe('VALIDATION');
  });

  it('returns copies', () => {
    const stm = new ShortTermMemory(2);
    const added = stm.add({ input: 'q', output: 'a' }, { tags: ['x'] });
    added.tags.push('mutated');
    stm.getAll()[0]!.tags.push('mutated');
    expect(stm.getAll()[0]!.tags).toEqual(['x']);
  });

  it('adds nothing on invalid input', () => {
    const stm = new ShortTermMemory(2);
    expect(codeOf(() => stm.add({ input: 'q', output: 'a' }, { importance: 2 }))).toBe('VALIDATION');
    expect(stm.size).toBe(0);
  });

  it('evictBelow uses effective importance and spares protected entries', () => {
    let now = 0;
    const stm = new ShortTermMemory(10, { clock: () => now });
    const low = stm.add('old chat', { importance: 0.4, kind: 'conversation' });
    stm.add('fact', { importance: 0.4, kind: 'fact' });
    stm.add('pinned', { importance: 0.4, kind: 'ephemeral', tags: ['pinned'] });
    now = 60 * DAY_MS; // conversation: 0.4 -> 0.1; fact: ~0.36
    const evicted = stm.evictBelow(0.2);
    expect(evicted.map((e) => e.id)).toEqual([low.id]);
    expect(texts(stm.getAll())).toEqual(['fact', 'pinned']);
    expect(stm.evictBelow(0.2)).toEqual([]);
  });

  it('evictBelow honours enableDecay: false', () => {
    let now = 0;
    const stm = new ShortTermMemory(10, { clock: () => now, config: resolveConfig({ enableDecay: false }) });
    stm.add('old chat', { importance: 0.4 });
    now = 1000 * DAY_MS;
    expect(stm.evictBelow(0.2)).toEqual([]);
    expect(stm.size).toBe(1);
  });

  it('uses the default tenant and tier, and stats reflect contents', () => {
    let now = 10;
    const stm = new ShortTermMemory(4, { clock: () => now, tenantId: 'acme' });
    const e = stm.add('x', { importance: 0.2 });
    now = 20;
    stm.add('y', { importance: 0.6, tenantId: 'other' });
    expect([e.tenantId, e.tier]).toEqual(['acme', 'short_term']);
    expect(stm.getAll()[1]!.tenantId).toBe('other');
    expect(stm.stats()).toEqual({
      size: 2,
      windowSize: 4,
      isFull: false,
      oldestAt: 10,
      newestAt: 20,
      averageImportance: 0.4,
    });
    stm.clear();
    expect(stm.stats().size).toBe(0);
  });
});
