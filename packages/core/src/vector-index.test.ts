import { describe, expect, it } from 'vitest';
import { isZerdaError } from './errors.js';
import { createVectorIndex, VectorIndex } from './vector-index.js';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}
function randomVector(rand: () => number, dim: number): Float32Array {
  return Float32Array.from({ length: dim }, () => rand() * 2 - 1);
}
function cosine(a: Float32Array, b: Float32Array): number {
  let d = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    d += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na && nb ? d / Math.sqrt(na * nb) : 0;
}
function bruteForce(vectors: Map<string, Float32Array>, q: Float32Array, k: number, allow?: (id: string) => boolean) {
  return [...vectors]
    .filter(([id]) => !allow || allow(id))
    .map(([id, v]) => ({ id, score: cosine(q, v) }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
    .slice(0, k);
}
function expectSameRanking(actual: { id: string; score: number }[], expected: { id: string; score: number }[]) {
  expect(actual.map((h) => h.id)).toEqual(expected.map((h) => h.id));
  actual.forEach((h, i) => expect(h.score).toBeCloseTo(expected[i]!.score, 4));
}
function errorOf(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
}

describe('VectorIndex', () => {
  it('exact top-k matches a brute-force reference on random data, through growth, upserts and removals', () => {
    const rand = rng(42);
    const dim = 24;
    const idx = createVectorIndex(dim, { initialCapacity: 2 });
    const ref = new Map<string, Float32Array>();
    for (let i = 0; i < 500; i++) {
      const v = randomVector(rand, dim);
      idx.upsert(`v${i}`, v);
      ref.set(`v${i}`, v);
    }
    expect(idx.capacity).toBe(512); // doubled from 2
    for (let i = 0; i < 500; i += 3) {
      idx.remove(`v${i}`);
      ref.delete(`v${i}`);
    }
    for (let i = 1; i < 500; i += 7) {
      const v = randomVector(rand, dim);
      idx.upsert(`v${i}`, v);
      ref.set(`v${i}`, v);
    }
    expect(idx.size).toBe(ref.size);
    for (let t = 0; t < 20; t++) {
      const q = randomVector(rand, dim);
      for (const k of [1, 5, 37]) expectSameRanking(idx.search(q, k), bruteForce(ref, q, k));
      const allow = (id: string) => id.endsWith('5');
      expectSameRanking(idx.search(q, 10, allow), bruteForce(ref, q, 10, allow));
    }
  });

  it('remove swaps the last row into the hole and keeps every other vector intact', () => {
    const idx = new VectorIndex(3);
    idx.upsert('a', [1, 0, 0]);
    idx.upsert('b', [0, 1, 0]);
    idx.upsert('c', [0, 0, 2]);
    expect(idx.remove('a')).toBe(true);
    expect(idx.remove('a')).toBe(false);
    expect(idx.ids()).toEqual(['c', 'b']);
    expect(Array.from(idx.get('c')!)).toEqual([0, 0, 1]); // stored normalised
    expect(Array.from(idx.get('b')!)).toEqual([0, 1, 0]);
    expect(idx.search([0, 0, 1], 1)).toEqual([{ id: 'c', score: 1 }]);
    expect(idx.has('a')).toBe(false);
    expect(idx.search([1, 0, 0], 3).map((h) => h.id)).not.toContain('a');
  });

  it('upsert replaces in place; a zero vector scores 0', () => {
    const idx = new VectorIndex(2);
    idx.upsert('a', [1, 0]);
    idx.upsert('a', [0, 1]);
    expect(idx.size).toBe(1);
    expect(idx.search([0, 1], 5)).toEqual([{ id: 'a', score: 1 }]);
    idx.upsert('z', [0, 0]);
    expect(idx.search([0, 1], 5)).toEqual([
      { id: 'a', score: 1 },
      { id: 'z', score: 0 },
    ]);
    expect(idx.search([0, 0], 5).every((h) => h.score === 0)).toBe(true);
  });

  it('round-trips through a VectorBlock', () => {
    const rand = rng(1);
    const idx = new VectorIndex(8);
    for (let i = 0; i < 20; i++) idx.upsert(`x${i}`, randomVector(rand, 8));
    const block = idx.toBlock('hash-8');
    expect(block.model).toEqual({ id: 'hash-8', dim: 8 });
    const copy = VectorIndex.fromBlock(block);
    const q = randomVector(rand, 8);
    expect(copy.search(q, 5)).toEqual(idx.search(q, 5));
    expect(copy.size).toBe(20);
  });

  it('rejects dimension mismatches and malformed input with VALIDATION, changing nothing', () => {
    const idx = new VectorIndex(3);
    idx.upsert('a', [1, 0, 0]);
    const bad = [
      () => idx.upsert('b', [1, 0]),
      () => idx.upsert('b', new Float32Array(4)),
      () => idx.upsert('b', [1, NaN, 0]),
      () => idx.upsert('', [1, 0, 0]),
      () => idx.search([1, 0], 1),
      () => idx.search([1, 0, 0], -1),
      () => new VectorIndex(0),
      () => VectorIndex.fromBlock({ model: { id: 'm', dim: 2 }, ids: ['a'], data: new Float32Array(3) }),
      () => VectorIndex.fromBlock({ model: { id: 'm', dim: 1 }, ids: ['a', 'a'], data: new Float32Array(2) }),
    ];
    for (const f of bad) expect(isZerdaError(errorOf(f), 'VALIDATION')).toBe(true);
    expect(idx.size).toBe(1);
    expect(idx.ids()).toEqual(['a']);
  });
});

describe('VectorIndex int8 mode', () => {
  it('returns exact cosines and (nearly always) the exact top-k, through growth, upserts and removals', () => {
    const rand = rng(9);
    const dim = 64;
    const idx = new VectorIndex(dim, { quantization: 'int8', initialCapacity: 4 });
    expect(idx.quantization).toBe('int8');
    const ref = new Map<string, Float32Array>();
    for (let i = 0; i < 1000; i++) {
      const v = randomVector(rand, dim);
      idx.upsert(`v${i}`, v);
      ref.set(`v${i}`, v);
    }
    for (let i = 0; i < 1000; i += 4) {
      idx.remove(`v${i}`);
      ref.delete(`v${i}`);
    }
    for (let i = 1; i < 1000; i += 9) {
      const v = randomVector(rand, dim);
      idx.upsert(`v${i}`, v);
      ref.set(`v${i}`, v);
    }
    let found = 0;
    let wanted = 0;
    for (let t = 0; t < 30; t++) {
      const q = randomVector(rand, dim);
      const exact = bruteForce(ref, q, 10);
      const hits = idx.search(q, 10);
      expect(hits).toHaveLength(10);
      for (const h of hits) expect(h.score).toBeCloseTo(cosine(q, ref.get(h.id)!), 5); // re-scored with floats
      const truth = new Set(exact.map((h) => h.id));
      found += hits.filter((h) => truth.has(h.id)).length;
      wanted += 10;
      const allow = (id: string) => id.endsWith('3');
      expect(idx.search(q, 5, allow).every((h) => allow(h.id))).toBe(true);
    }
    expect(found / wanted).toBeGreaterThanOrEqual(0.99);
  });

  it('is chosen by option, also from a block, and validated', () => {
    const block = new VectorIndex(4).toBlock('m');
    expect(VectorIndex.fromBlock(block, { quantization: 'int8' }).quantization).toBe('int8');
    expect(new VectorIndex(4).quantization).toBe('none');
    expect(isZerdaError(errorOf(() => new VectorIndex(4, { quantization: 'pq' as 'int8' })), 'VALIDATION')).toBe(true);
    expect(isZerdaError(errorOf(() => new VectorIndex(4, { rescore: 0 })), 'VALIDATION')).toBe(true);
    const idx = new VectorIndex(2, { quantization: 'int8' });
    idx.upsert('z', [0, 0]);
    idx.upsert('a', [1, 0]);
    expect(idx.search([0, 0], 2)).toEqual([
      { id: 'a', score: 0 },
      { id: 'z', score: 0 },
    ]);
    expect(idx.search([1, 0], 1)).toEqual([{ id: 'a', score: 1 }]);
  });
});
