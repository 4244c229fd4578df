import { describe, expect, it } from 'vitest';
import { createSimdDot, dotErrorBound, simdDotSupported, type WebAssemblyApi } from './simd-dot.js';
import { cappedWasm, realWasm } from '../testing/wasm.js';
import { randomUnitVector as unit, seededRandom as rng } from '../testing/random.js';

describe('SimdDot', () => {
  it('scores every row within dotErrorBound of the double-precision dot product, for any dim', () => {
    const rand = rng(1);
    for (const dim of [1, 2, 3, 4, 5, 15, 16, 17, 31, 63, 64, 65, 100, 384, 512, 1536]) {
      const n = 50;
      const dot = createSimdDot(dim, n)!;
      expect(dot).toBeDefined();
      const rows = dot.rows;
      expect(rows.length).toBe(n * dim);
      for (let r = 0; r < n; r++) rows.set(unit(rand, dim), r * dim);
      const q = unit(rand, dim);
      const got = dot.scores(q, n);
      expect(got.length).toBe(n);
      let worst = 0;
      for (let r = 0; r < n; r++) {
        let exact = 0;
        for (let j = 0; j < dim; j++) exact += q[j]! * rows[r * dim + j]!;
        worst = Math.max(worst, Math.abs(got[r]! - exact));
      }
      expect(worst).toBeLessThanOrEqual(dotErrorBound(dim));
      if (dim >= 16) expect(worst).toBeGreaterThan(0); // float32 sums really round: the bound is not vacuous
    }
  });

  it('scores only the first n rows and reuses the query area', () => {
    const dot = createSimdDot(4, 8)!;
    dot.rows.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0]);
    expect(Array.from(dot.scores(Float32Array.of(0, 1, 0, 0), 3))).toEqual([0, 1, 0]);
    expect(Array.from(dot.scores(Float32Array.of(0.5, 0, 2, 0), 2))).toEqual([0.5, 0]);
    expect(dot.scores(Float32Array.of(1, 1, 1, 1), 0).length).toBe(0);
  });

  it('grows across many pages keeping the rows in place; the old view is detached, never stale', () => {
    const dot = createSimdDot(128, 1)!;
    const before = dot.rows;
    before.set(Float32Array.from({ length: 128 }, (_, j) => j + 1));
    expect(dot.grow(20_000)).toBe(true); // 10 MB: ~157 pages
    expect(before.length).toBe(0); // detached by memory.grow
    expect(dot.capacity).toBe(20_000);
    expect(dot.rows.length).toBe(20_000 * 128);
    expect(Array.from(dot.rows.subarray(0, 3))).toEqual([1, 2, 3]);
    dot.rows.fill(0.5, 19_999 * 128);
    const q = new Float32Array(128).fill(1);
    const s = dot.scores(q, 20_000);
    expect(s[0]).toBe((128 * 129) / 2);
    expect(s[19_999]).toBe(64);
    expect(s[10]).toBe(0);
    expect(dot.grow(10)).toBe(true); // never shrinks
    expect(dot.capacity).toBe(20_000);
  });

  it('refuses to grow past its memory limit and changes nothing', () => {
    const capped = cappedWasm(3);
    const dot = createSimdDot(64, 100, { webAssembly: capped })!;
    dot.rows[5] = 7;
    const rows = dot.rows;
    expect(dot.grow(100_000)).toBe(false);
    expect(dot.capacity).toBe(100);
    expect(dot.rows).toBe(rows);
    expect(rows[5]).toBe(7);
    expect(createSimdDot(64, 100_000, { webAssembly: capped })).toBeUndefined();
  });

  it('is unavailable, without throwing, when SIMD does not validate or compiling is refused (CSP)', () => {
    const noSimd: WebAssemblyApi = { ...realWasm(), validate: () => false };
    let compiles = 0;
    const csp: WebAssemblyApi = {
      ...realWasm(),
      Module: class {
        constructor() {
          compiles++;
          throw new WebAssembly.CompileError('WebAssembly.Module(): Wasm code generation disallowed by embedder');
        }
      } as unknown as WebAssemblyApi['Module'],
    };
    expect(simdDotSupported()).toBe(true);
    for (const webAssembly of [noSimd, csp]) {
      expect(simdDotSupported({ webAssembly })).toBe(false);
      expect(createSimdDot(16, 10, { webAssembly })).toBeUndefined();
    }
    expect(compiles).toBe(1); // decided once per WebAssembly namespace
    expect(createSimdDot(0, 10)).toBeUndefined();
  });
});
