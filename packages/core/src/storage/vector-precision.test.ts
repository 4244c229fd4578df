import { describe, expect, it } from 'vitest';
import { VectorIndex } from '../retrieval/vector-index.js';
import {
  checkVectorPrecision,
  decodeVectorRowsInto,
  encodeVectorRows,
  vectorRowBytes,
  vectorRowsPrecision,
} from './vector-precision.js';

/** Deterministic normal deviates (mulberry32 + Box-Muller). */
function gaussian(seed: number): () => number {
  let a = seed >>> 0;
  const uniform = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
}

/**
 * `n` rows of `dim` around `clusters` centres (spread `noise` per dimension): near neighbours sit
 * close together, the hard case for a lossy code (the top 10 of a query differ by small margins).
 */
function clustered(n: number, dim: number, clusters: number, noise: number, seed: number): Float32Array {
  const g = gaussian(seed);
  const centres = Array.from({ length: clusters }, () => Float32Array.from({ length: dim }, g));
  const out = new Float32Array(n * dim);
  for (let r = 0; r < n; r++) {
    const c = centres[r % clusters]!;
    for (let j = 0; j < dim; j++) out[r * dim + j] = c[j]! + noise * g();
  }
  return out;
}

function indexOf(data: Float32Array, dim: number): VectorIndex {
  const n = data.length / dim;
  return VectorIndex.fromBlock(
    { model: { id: 'm', dim }, ids: Array.from({ length: n }, (_, i) => `r${String(i).padStart(5, '0')}`), data },
    { simd: false },
  );
}

describe('vector precision', () => {
  it('float32 rows round-trip bit for bit', () => {
    const data = clustered(7, 13, 3, 0.3, 1);
    const bytes = encodeVectorRows(data, 13, 'float32');
    expect(bytes.byteLength).toBe(7 * vectorRowBytes(13, 'float32'));
    const out = new Float32Array(data.length);
    expect(decodeVectorRowsInto(bytes, 7, 13, out)).toBe(true);
    expect(out).toEqual(data);
  });

  it('int8 rows take dim + 4 bytes and decode within half a step of each row', () => {
    const dim = 384;
    const data = clustered(50, dim, 5, 0.5, 2);
    const bytes = encodeVectorRows(data, dim, 'int8');
    expect(bytes.byteLength).toBe(50 * (dim + 4));
    expect(vectorRowsPrecision(bytes.byteLength, 50, dim)).toBe('int8');
    const out = new Float32Array(data.length);
    expect(decodeVectorRowsInto(bytes, 50, dim, out)).toBe(true);
    let changed = 0;
    let worst = 0;
    for (let r = 0; r < 50; r++) {
      const row = data.subarray(r * dim, (r + 1) * dim);
      const step = Math.max(...row.map(Math.abs)) / 127;
      for (let j = 0; j < dim; j++) {
        const e = Math.abs(out[r * dim + j]! - row[j]!);
        worst = Math.max(worst, e / step);
        if (e > 0) changed++;
      }
    }
    expect(worst).toBeGreaterThan(0.4);
    expect(worst).toBeLessThanOrEqual(0.5 * (1 + 1e-5));
    // Lossy for real: most values moved (a float32 copy would leave every one).
    expect(changed).toBeGreaterThan(50 * dim * 0.9);
    // Decoding what was decoded and encoded again gives the same rows (no drift on re-encoding).
    const again = new Float32Array(data.length);
    decodeVectorRowsInto(encodeVectorRows(out, dim, 'int8'), 50, dim, again);
    let drift = 0;
    for (let i = 0; i < out.length; i++)
      drift = Math.max(drift, Math.abs(again[i]! - out[i]!) / (Math.abs(out[i]!) || 1));
    expect(drift).toBeLessThanOrEqual(1e-6);
  });

  it('keeps zero rows zero and tells the precisions apart by length alone', () => {
    const data = new Float32Array(8);
    const out = new Float32Array(8).fill(1);
    expect(decodeVectorRowsInto(encodeVectorRows(data, 4, 'int8'), 2, 4, out)).toBe(true);
    expect([...out]).toEqual(new Array(8).fill(0));
    for (let dim = 1; dim <= 2048; dim++) expect(vectorRowBytes(dim, 'int8')).not.toBe(vectorRowBytes(dim, 'float32'));
    expect(vectorRowsPrecision(10, 1, 4)).toBeUndefined();
    expect(decodeVectorRowsInto(new Uint8Array(10), 1, 4, out)).toBe(false);
    expect(() => checkVectorPrecision('vectorPrecision', 'fp16')).toThrow(
      expect.objectContaining({ code: 'VALIDATION' }),
    );
  });

  it('int8 rows keep the exact top 10 of a clustered set (recall of the quantised scan vs exact)', () => {
    const dim = 256;
    const n = 4000;
    const data = clustered(n, dim, 40, 0.35, 3);
    const decoded = new Float32Array(data.length);
    decodeVectorRowsInto(encodeVectorRows(data, dim, 'int8'), n, dim, decoded);
    const exact = indexOf(data, dim);
    const quantised = indexOf(decoded, dim);
    const queries = clustered(100, dim, 40, 0.35, 4);
    let overlap = 0;
    let top1 = 0;
    for (let q = 0; q < 100; q++) {
      const query = queries.subarray(q * dim, (q + 1) * dim);
      const want = exact.search(query, 10).map((h) => h.id);
      const got = quantised.search(query, 10).map((h) => h.id);
      overlap += got.filter((id) => want.includes(id)).length;
      if (got[0] === want[0]) top1++;
    }
    expect(overlap / 1000).toBeGreaterThanOrEqual(0.95);
    expect(top1).toBeGreaterThanOrEqual(95);
  });
});
