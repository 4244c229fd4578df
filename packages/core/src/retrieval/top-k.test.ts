import { describe, expect, it } from 'vitest';
import { TopK } from './top-k.js';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

describe('TopK', () => {
  it('keeps exactly the k best of a random stream, best first, matching a full sort', () => {
    const rand = rng(7);
    for (const k of [0, 1, 3, 10, 50]) {
      const items = Array.from({ length: 200 }, (_, i) => ({ id: `id${i}`, score: Math.round(rand() * 50) / 50 }));
      const top = new TopK(k);
      for (const it of items) top.push(it.id, it.score);
      const expected = [...items]
        .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .slice(0, k);
      expect(top.sorted()).toEqual(expected);
    }
  });
  it('reports the entry threshold once full', () => {
    const top = new TopK(2);
    expect(top.threshold).toBe(-Infinity);
    top.push('a', 1);
    top.push('b', 3);
    expect(top.threshold).toBe(1);
    top.push('c', 2);
    expect(top.threshold).toBe(2);
    expect(top.size).toBe(2);
  });
});
