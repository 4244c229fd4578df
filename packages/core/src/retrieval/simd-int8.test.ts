import { describe, expect, it } from 'vitest';
import {
  createSimdInt8Dot,
  INT8_BOUND_SLACK,
  int8Stride,
  quantise,
  quantiseQuery,
  queryCodeMax,
  ROW_CODE_MAX,
  simdInt8Supported,
} from './simd-int8.js';
import type { WebAssemblyApi } from './wasm-asm.js';
import { cappedWasm, realWasm } from '../testing/wasm.js';
import { randomUnitVector as unit, seededRandom as rng } from '../testing/random.js';

describe('SimdInt8Dot', () => {
  it('computes the exact integer dot product of every row, for any dim (padding ignored)', () => {
    const rand = rng(1);
    for (const dim of [1, 2, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 384, 512, 1536]) {
      const n = 40;
      const dot = createSimdInt8Dot(dim, n)!;
      expect(dot).toBeDefined();
      expect(dot.stride).toBe(int8Stride(dim));
      expect(dot.stride % 32).toBe(0);
      const codes = dot.rows;
      for (let r = 0; r < n; r++)
        for (let j = 0; j < dim; j++) codes[r * dot.stride + j] = Math.floor(rand() * 255) - 127;
      const qMax = queryCodeMax(dim);
      const q = Int16Array.from({ length: dim }, () => Math.floor(rand() * (2 * qMax + 1)) - qMax);
      const got = dot.scores(q, n);
      expect(got.length).toBe(n);
      for (let r = 0; r < n; r++) {
        let exact = 0;
        for (let j = 0; j < dim; j++) exact += q[j]! * codes[r * dot.stride + j]!;
        expect(got[r]).toBe(exact);
      }
    }
  });

  it('never overflows: extreme codes at the largest query code sum exactly', () => {
    for (const dim of [512, 4096, 20_000]) {
      const dot = createSimdInt8Dot(dim, 2)!;
      const qMax = queryCodeMax(dim);
      dot.rows.fill(ROW_CODE_MAX, 0, dim);
      dot.rows.fill(-ROW_CODE_MAX, dot.stride, dot.stride + dim);
      const got = dot.scores(new Int16Array(dim).fill(qMax), 2);
      expect(got[0]).toBe(ROW_CODE_MAX * qMax * dim);
      expect(got[1]).toBe(-ROW_CODE_MAX * qMax * dim);
      expect(ROW_CODE_MAX * qMax * dim).toBeLessThan(2 ** 31);
    }
    expect(queryCodeMax(512)).toBe(32767);
  });

  it('grows keeping its codes in place, and refuses past its memory limit changing nothing', () => {
    const dot = createSimdInt8Dot(100, 1)!;
    dot.rows.set([1, -2, 3]);
    expect(dot.grow(50_000)).toBe(true); // 6.4 MB
    expect(Array.from(dot.rows.subarray(0, 4))).toEqual([1, -2, 3, 0]);
    expect(dot.capacity).toBe(50_000);
    const capped = createSimdInt8Dot(64, 100, { webAssembly: cappedWasm(2) })!;
    capped.rows[5] = 7;
    expect(capped.grow(100_000)).toBe(false);
    expect(capped.capacity).toBe(100);
    expect(capped.rows[5]).toBe(7);
  });

  it('is unavailable, without throwing, when SIMD does not validate or compiling is refused', () => {
    const noSimd: WebAssemblyApi = { ...realWasm(), validate: () => false };
    expect(simdInt8Supported()).toBe(true);
    expect(simdInt8Supported({ webAssembly: noSimd })).toBe(false);
    expect(createSimdInt8Dot(16, 10, { webAssembly: noSimd })).toBeUndefined();
    expect(createSimdInt8Dot(0, 10)).toBeUndefined();
  });
});

describe('quantise and the int8 error bound', () => {
  it('reports the exact reconstruction error and norm of its codes', () => {
    const v = Float32Array.of(0.5, -0.25, 0.1, 0);
    const codes = new Int8Array(4);
    const stats = new Float64Array(3);
    quantise(v, 0, 4, ROW_CODE_MAX, codes, 0, stats, 0);
    expect(Array.from(codes)).toEqual([127, -63, 25, 0]); // -63.5 rounds up
    const scale = 0.5 / 127;
    expect(stats[0]).toBe(scale);
    const err = Math.hypot(v[0]! - 127 * scale, v[1]! + 63 * scale, v[2]! - 25 * scale);
    expect(stats[1]).toBeCloseTo(err, 15);
    expect(stats[2]).toBeCloseTo(Math.hypot(127 * scale, 63 * scale, 25 * scale), 15);
    quantise(new Float32Array(4), 0, 4, ROW_CODE_MAX, codes, 0, stats, 0);
    expect(Array.from(stats)).toEqual([0, 0, 0]);
    expect(Array.from(codes)).toEqual([0, 0, 0, 0]);
  });

  it('bounds |exact − quantised score| for every pair, and the bound is not vacuous', () => {
    const rand = rng(4);
    for (const dim of [8, 64, 512]) {
      let worstRatio = 0;
      for (let t = 0; t < 300; t++) {
        const q = unit(rand, dim);
        // Rows with a spike (coarse scale, large error) as well as flat ones.
        const r = unit(rand, dim);
        if (t % 3 === 0) r[t % dim] = 3;
        const qc = new Int16Array(dim);
        const rc = new Int8Array(dim);
        const qs = new Float64Array(3);
        const rs = new Float64Array(3);
        quantiseQuery(q, qc, qs);
        quantise(r, 0, dim, ROW_CODE_MAX, rc, 0, rs, 0);
        let raw = 0;
        let exact = 0;
        let qn = 0;
        for (let j = 0; j < dim; j++) {
          raw += qc[j]! * rc[j]!;
          exact += q[j]! * r[j]!;
          qn += q[j]! * q[j]!;
        }
        const approx = raw * qs[0]! * rs[0]!;
        const bound = Math.sqrt(qn) * rs[1]! + qs[1]! * rs[2]! + INT8_BOUND_SLACK;
        const err = Math.abs(exact - approx);
        expect(err).toBeLessThanOrEqual(bound);
        worstRatio = Math.max(worstRatio, err / bound);
      }
      expect(worstRatio).toBeGreaterThan(0.01); // real rounding error, a bound within two orders of it
    }
  });
});
