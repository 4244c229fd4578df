import { describe, expect, it } from 'vitest';
import { isZerdaError } from '../model/errors.js';
import { simdDotSupported, type WebAssemblyApi } from './simd-dot.js';
import { VectorIndex, type VectorIndexOptions } from './vector-index.js';
import { cosine } from './cosine.js';
import { thrownBy as errorOf } from '../testing/rejections.js';
import { cappedWasm, realWasm } from '../testing/wasm.js';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}
function randomVector(rand: () => number, dim: number): Float32Array {
  return Float32Array.from({ length: dim }, () => rand() * 2 - 1);
}
/** Upserts a fresh random vector as `v${i}` for i = from, from + step, … below `to`, into `idx` and `ref` alike. */
function upsertRandom(
  idx: VectorIndex,
  ref: Map<string, Float32Array>,
  rand: () => number,
  from: number,
  to: number,
  step: number,
): void {
  for (let i = from; i < to; i += step) {
    const v = randomVector(rand, idx.dim);
    idx.upsert(`v${i}`, v);
    ref.set(`v${i}`, v);
  }
}
/** Removes `v${i}` for i = 0, step, … below `to` from `idx` and `ref` alike. */
function removeEvery(idx: VectorIndex, ref: Map<string, Float32Array>, to: number, step: number): void {
  for (let i = 0; i < to; i += step) {
    idx.remove(`v${i}`);
    ref.delete(`v${i}`);
  }
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
// Every behaviour test runs on the three scan paths: plain JavaScript, and each WebAssembly SIMD
// kernel (int8, the default, and float32) from the first row (simdMinRows: 0), which must then
// really be in use.
const KERNELS: [string, VectorIndexOptions][] = [
  ['int8 SIMD', { simdMinRows: 0 }],
  ['float32 SIMD', { simdMinRows: 0, quantization: 'none' }],
];
const MODES: [string, VectorIndexOptions][] = [['JavaScript', { simd: false }], ...KERNELS];
function expectMode(idx: VectorIndex, opts: VectorIndexOptions) {
  expect(idx.simd).toBe(opts.simd !== false);
  expect(idx.quantization).toBe(opts.simd !== false && opts.quantization !== 'none' ? 'int8' : 'none');
}

describe.each(MODES)('VectorIndex (%s)', (_mode, opts) => {
  it('exact top-k matches a brute-force reference on random data, through growth, upserts and removals', () => {
    const rand = rng(42);
    const dim = 24;
    const idx = new VectorIndex(dim, { ...opts, initialCapacity: 2 });
    const ref = new Map<string, Float32Array>();
    upsertRandom(idx, ref, rand, 0, 500, 1);
    expect(idx.capacity).toBe(512); // doubled from 2
    removeEvery(idx, ref, 500, 3);
    upsertRandom(idx, ref, rand, 1, 500, 7);
    expect(idx.size).toBe(ref.size);
    expectMode(idx, opts);
    for (let t = 0; t < 20; t++) {
      const q = randomVector(rand, dim);
      for (const k of [1, 5, 37]) expectSameRanking(idx.search(q, k), bruteForce(ref, q, k));
      const allow = (id: string) => id.endsWith('5');
      expectSameRanking(idx.search(q, 10, allow), bruteForce(ref, q, 10, allow));
    }
  });

  it('remove swaps the last row into the hole and keeps every other vector intact', () => {
    const idx = new VectorIndex(3, opts);
    expectMode(idx, opts);
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

  it('dot reads a row in place: the stored vector times the query, undefined for an id not indexed', () => {
    const idx = new VectorIndex(16, opts);
    const rand = rng(7);
    const ref = new Map<string, Float32Array>();
    upsertRandom(idx, ref, rand, 0, 40, 1);
    removeEvery(idx, ref, 40, 3);
    const q = randomVector(rand, 16);
    for (const id of ref.keys()) {
      const v = idx.get(id)!;
      expect(idx.dot(id, q)).toBeCloseTo(
        v.reduce((s, x, d) => s + x * q[d]!, 0),
        6,
      );
    }
    expect(idx.dot('absent', q)).toBeUndefined();
  });

  it('upsert replaces in place; a zero vector scores 0', () => {
    const idx = new VectorIndex(2, opts);
    expectMode(idx, opts);
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
    const idx = new VectorIndex(8, opts);
    for (let i = 0; i < 20; i++) idx.upsert(`x${i}`, randomVector(rand, 8));
    const block = idx.toBlock('hash-8');
    expect(block.model).toEqual({ id: 'hash-8', dim: 8 });
    const copy = VectorIndex.fromBlock(block, opts);
    expectMode(copy, opts);
    const q = randomVector(rand, 8);
    expect(copy.search(q, 5)).toEqual(idx.search(q, 5));
    expect(copy.size).toBe(20);
  });

  it('rejects dimension mismatches and malformed input with VALIDATION, changing nothing', () => {
    const idx = new VectorIndex(3, opts);
    idx.upsert('a', [1, 0, 0]);
    const bad = [
      () => idx.upsert('b', [1, 0]),
      () => idx.upsert('b', new Float32Array(4)),
      () => idx.upsert('b', [1, NaN, 0]),
      () => idx.upsert('', [1, 0, 0]),
      () => idx.search([1, 0], 1),
      () => idx.search([1, 0, 0], -1),
      () => new VectorIndex(0, opts),
      () => VectorIndex.fromBlock({ model: { id: 'm', dim: 2 }, ids: ['a'], data: new Float32Array(3) }),
      () => VectorIndex.fromBlock({ model: { id: 'm', dim: 1 }, ids: ['a', 'a'], data: new Float32Array(2) }),
    ];
    for (const f of bad) expect(isZerdaError(errorOf(f), 'VALIDATION')).toBe(true);
    expect(idx.size).toBe(1);
    expect(idx.ids()).toEqual(['a']);
  });
});

describe('VectorIndex quantization option', () => {
  it('defaults to the int8 kernel, is chosen by option (also from a block), and is validated', () => {
    const rand = rng(9);
    const js = new VectorIndex(16, { simd: false });
    for (let i = 0; i < 40; i++) js.upsert(`b${i}`, randomVector(rand, 16));
    const block = js.toBlock('m');
    expect(VectorIndex.fromBlock(block, { simdMinRows: 0 }).quantization).toBe('int8');
    expect(VectorIndex.fromBlock(block, { simdMinRows: 0, quantization: 'none' }).quantization).toBe('none');
    expect(VectorIndex.fromBlock(block, { simdMinRows: 0, quantization: 'none' }).simd).toBe(true);
    expect(VectorIndex.fromBlock(block).quantization).toBe('none'); // 40 rows < simdMinRows: JavaScript
    expect(
      isZerdaError(
        errorOf(() => new VectorIndex(4, { quantization: 'pq' as 'int8' })),
        'VALIDATION',
      ),
    ).toBe(true);
  });
});

/** Two indexes over the same rows: a SIMD kernel from the first row, and the JavaScript scan. */
function pairOf(kernel: VectorIndexOptions) {
  return (dim: number, extra: VectorIndexOptions = {}): [VectorIndex, VectorIndex] => [
    new VectorIndex(dim, { ...extra, ...kernel }),
    new VectorIndex(dim, { ...extra, simd: false }),
  ];
}
function upsertBoth([a, b]: [VectorIndex, VectorIndex], id: string, v: Float32Array) {
  a.upsert(id, v);
  b.upsert(id, v);
}
/** Both paths return the same ids in the same order and bit-identical scores. */
function expectSameSearch(
  [simd, js]: [VectorIndex, VectorIndex],
  q: Float32Array,
  k: number,
  allow?: (id: string) => boolean,
) {
  const want = js.search(q, k, allow);
  expect(simd.search(q, k, allow)).toEqual(want);
  return want;
}

describe.each(KERNELS)('VectorIndex WebAssembly SIMD path (%s)', (_kernel, kernel) => {
  const pair = pairOf(kernel);
  const withKernel = (extra: VectorIndexOptions): VectorIndexOptions => ({ ...kernel, ...extra });
  it('runs in this runtime (Node 20 has WebAssembly SIMD), so the tests below exercise the kernel', () => {
    expect(simdDotSupported()).toBe(true);
    expect(new VectorIndex(4, kernel).simd).toBe(true);
    expectMode(new VectorIndex(4, kernel), kernel);
    expect(new VectorIndex(4, { ...kernel, simd: false }).simd).toBe(false);
  });

  it('returns the JavaScript scan’s ids, scores and tie order, for any dim, k and allow predicate', () => {
    const rand = rng(7);
    for (const dim of [1, 3, 4, 7, 16, 33, 64, 100]) {
      const both = pair(dim);
      const rows: Float32Array[] = [];
      for (let i = 0; i < 300; i++) {
        const v = randomVector(rand, dim);
        rows.push(v);
        upsertBoth(both, `r${String(i).padStart(3, '0')}`, v);
      }
      // Exact ties: the same vector under other ids (and scaled, which normalises to the same row).
      for (let i = 0; i < 20; i++)
        upsertBoth(
          both,
          `dup${i}`,
          rows[i % 4]!.map((x) => x * (1 + (i % 3))),
        );
      expect(both[0].simd).toBe(true);
      for (let t = 0; t < 15; t++) {
        const q = t % 2 ? randomVector(rand, dim) : rows[t % 4]!.map((x) => x + 0.01 * (rand() - 0.5));
        for (const k of [1, 3, 10, 50, 400]) {
          const hits = expectSameSearch(both, q, k);
          expect(hits).toHaveLength(Math.min(k, 320));
        }
        expectSameSearch(both, q, 10, (id) => id.startsWith('dup') || id.endsWith('7'));
        expect(expectSameSearch(both, q, 10, (id) => id === 'r005' || id === 'dup3')).toHaveLength(2);
        expect(expectSameSearch(both, q, 5, () => false)).toEqual([]);
      }
      expectSameSearch(both, new Float32Array(dim), 7); // zero query: all score 0, ties by id
    }
  });

  it('ranks near-ties below float32 resolution exactly as the double-precision JavaScript scan', () => {
    // Rows differ from a base vector by ~1e-7 per coordinate, so their cosines to the base differ
    // by less than the float32 kernel's rounding: only the exact re-scoring can order them.
    const rand = rng(3);
    const dim = 512;
    const base = randomVector(rand, dim);
    const both = pair(dim);
    for (let i = 0; i < 400; i++)
      upsertBoth(
        both,
        `n${i}`,
        base.map((x) => x + (rand() - 0.5) * 2e-7 * (1 + (i % 5))),
      );
    for (let i = 0; i < 600; i++) upsertBoth(both, `far${i}`, randomVector(rand, dim));
    for (let t = 0; t < 10; t++) {
      const q = base.map((x) => x + (rand() - 0.5) * 1e-3);
      const hits = expectSameSearch(both, q, 10);
      expect(hits.every((h) => h.id.startsWith('n'))).toBe(true);
      expectSameSearch(both, q, 25, (id) => !id.endsWith('1'));
    }
  });

  it('keeps its rows through growth across many wasm memory pages, then removals and upserts', () => {
    const rand = rng(11);
    const dim = 96; // 384 bytes per row: 5000 rows span ~30 pages, reached by 13 doublings
    const both = pair(dim, { initialCapacity: 1 });
    const ref = new Map<string, Float32Array>();
    for (let i = 0; i < 5000; i++) {
      const v = randomVector(rand, dim);
      ref.set(`g${i}`, v);
      upsertBoth(both, `g${i}`, v);
    }
    const [simd, js] = both;
    expect(simd.simd).toBe(true);
    expect(simd.capacity).toBe(8192);
    // Every row read back after the last growth (a stale view would read zeros or throw).
    for (const id of ['g0', 'g1', 'g2047', 'g4999']) expect(simd.get(id)).toEqual(js.get(id));
    for (let t = 0; t < 5; t++) expectSameSearch(both, randomVector(rand, dim), 10);
    for (let i = 0; i < 5000; i += 3) {
      expect(simd.remove(`g${i}`)).toBe(js.remove(`g${i}`));
      ref.delete(`g${i}`);
    }
    for (let i = 1; i < 5000; i += 11) upsertBoth(both, `g${i}`, randomVector(rand, dim));
    for (let i = 0; i < 200; i++) upsertBoth(both, `new${i}`, randomVector(rand, dim));
    expect(simd.ids()).toEqual(js.ids());
    expect(simd.toBlock('m')).toEqual(js.toBlock('m'));
    for (let t = 0; t < 10; t++) {
      const q = randomVector(rand, dim);
      expectSameSearch(both, q, 10);
      expectSameSearch(both, q, 10, (id) => id.startsWith('new'));
    }
    // A removed row is never returned, even though its bytes may still sit past the end.
    const q = ref.get('g4')!;
    expect(simd.search(q, 5).some((h) => h.id === 'g3')).toBe(false);
  });

  it('moves its rows into wasm memory once the capacity reaches simdMinRows, and hydrates large blocks there', () => {
    const rand = rng(5);
    const idx = new VectorIndex(8, withKernel({ initialCapacity: 64, simdMinRows: 128 }));
    const js = new VectorIndex(8, { simd: false });
    for (let i = 0; i < 64; i++) {
      const v = randomVector(rand, 8);
      idx.upsert(`m${i}`, v);
      js.upsert(`m${i}`, v);
    }
    expect(idx.simd).toBe(false);
    idx.upsert('m64', [1, 2, 3, 4, 5, 6, 7, 8]);
    js.upsert('m64', [1, 2, 3, 4, 5, 6, 7, 8]);
    expectMode(idx, kernel);
    expect(idx.capacity).toBe(128);
    expect(idx.toBlock('m')).toEqual(js.toBlock('m'));
    expectSameSearch([idx, js], randomVector(rand, 8), 10);

    const block = js.toBlock('m');
    expect(VectorIndex.fromBlock(block, withKernel({ simdMinRows: 1024 })).simd).toBe(false); // 65 rows < 1024
    const big = VectorIndex.fromBlock(block, withKernel({ simdMinRows: 65 }));
    expectMode(big, kernel);
    const bigJs = VectorIndex.fromBlock(block, { simd: false });
    expect(big.toBlock('m')).toEqual(bigJs.toBlock('m'));
    expectSameSearch([big, bigJs], randomVector(rand, 8), 10);
  });

  it('falls back to JavaScript silently when WebAssembly SIMD is missing or compiling is refused', () => {
    const noSimd: WebAssemblyApi = { ...realWasm(), validate: () => false };
    const csp: WebAssemblyApi = {
      ...realWasm(),
      Module: class {
        constructor() {
          throw new WebAssembly.CompileError('WebAssembly.Module(): Wasm code generation disallowed by embedder');
        }
      } as unknown as WebAssemblyApi['Module'],
    };
    for (const webAssembly of [noSimd, csp]) {
      const rand = rng(2);
      const idx = new VectorIndex(16, withKernel({ initialCapacity: 1, webAssembly }));
      const js = new VectorIndex(16, { simd: false });
      expect(idx.simd).toBe(false);
      for (let i = 0; i < 100; i++) upsertBoth([idx, js], `f${i}`, randomVector(rand, 16));
      expect(idx.simd).toBe(false);
      expectSameSearch([idx, js], randomVector(rand, 16), 10);
      expect(VectorIndex.fromBlock(js.toBlock('m'), withKernel({ webAssembly })).simd).toBe(false);
    }
  });

  it('moves back to JavaScript, keeping every row, when its wasm memory cannot grow', () => {
    const capped = cappedWasm(2);
    const rand = rng(8);
    // 256 bytes per float32 row, 64 per int8 row: 2 pages hold fewer than 512 or 2048 rows
    const dim = 64;
    const idx = new VectorIndex(dim, withKernel({ initialCapacity: 1, webAssembly: capped }));
    const js = new VectorIndex(dim, { simd: false });
    let sawSimd = false;
    for (let i = 0; i < 3000; i++) {
      upsertBoth([idx, js], `c${i}`, randomVector(rand, dim));
      sawSimd ||= idx.simd;
    }
    expect(sawSimd).toBe(true);
    expect(idx.simd).toBe(false);
    expect(idx.capacity).toBe(4096);
    expect(idx.toBlock('m')).toEqual(js.toBlock('m'));
    expectSameSearch([idx, js], randomVector(rand, dim), 10);
  });

  it('validates its options with VALIDATION', () => {
    for (const opts of [
      { simd: 'yes' },
      { simdMinRows: -1 },
      { simdMinRows: 1.5 },
      { webAssembly: 5 },
    ] as unknown as VectorIndexOptions[])
      expect(
        isZerdaError(
          errorOf(() => new VectorIndex(4, opts)),
          'VALIDATION',
        ),
      ).toBe(true);
  });
});
