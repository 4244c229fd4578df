import { describe, expect, it } from 'vitest';
import { createEntry } from '../model/entry.js';
import { isZerdaError } from '../model/errors.js';
import { WorkingMemory } from './working-memory.js';

const words = (n: number, w = 'word') => Array.from({ length: n }, () => w).join(' ');
const fact = (text: string) => createEntry('t', { content: { title: '', text } }, 0);
// one token per whitespace-separated word, so budgets are exact in these tests
const wordCounter = (t: string) => (t.trim() ? t.trim().split(/\s+/).length : 0);

describe('WorkingMemory', () => {
  it('never holds more than capacity entries', () => {
    const wm = new WorkingMemory(2, 1000, wordCounter);
    const es = [fact('a'), fact('b'), fact('c')];
    const r = wm.rebuild(es);
    expect(r.kept.map((e) => e.id)).toEqual([es[0]!.id, es[1]!.id]);
    expect(r.dropped.map((e) => e.id)).toEqual([es[2]!.id]);
    expect(wm.size).toBe(2);
  });

  it('never exceeds the token budget, and skips an oversize entry for smaller ones after it', () => {
    const wm = new WorkingMemory(10, 10, wordCounter);
    const es = [fact(words(6)), fact(words(6)), fact(words(3)), fact(words(2))];
    const r = wm.rebuild(es);
    expect(r.kept.map((e) => e.id)).toEqual([es[0]!.id, es[2]!.id]);
    expect(wm.tokenCount).toBe(9);
    expect(wm.tokenCount).toBeLessThanOrEqual(10);
  });

  it('replaces contents on each rebuild and dedupes ids', () => {
    const wm = new WorkingMemory(5, 100, wordCounter);
    const a = fact('a');
    wm.rebuild([fact('x'), fact('y')]);
    const r = wm.rebuild([a, a]);
    expect(r.kept).toHaveLength(1);
    expect(wm.entries().map((e) => e.id)).toEqual([a.id]);
    expect(wm.stats()).toEqual({ size: 1, capacity: 5, tokenCount: 1, tokenBudget: 100 });
    wm.clear();
    expect([wm.size, wm.tokenCount]).toEqual([0, 0]);
  });

  it('uses estimateTokens by default', () => {
    const wm = new WorkingMemory(5, 10);
    wm.rebuild([fact(words(20))]);
    expect(wm.size).toBe(0);
  });

  it.each([
    [0, 10],
    [1, 0],
    [1.5, 10],
  ])('rejects capacity %s / budget %s', (c, b) => {
    let code: string | undefined;
    try {
      new WorkingMemory(c, b);
    } catch (e) {
      code = isZerdaError(e) ? e.code : 'other';
    }
    expect(code).toBe('VALIDATION');
  });
});
