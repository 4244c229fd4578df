import { describe, expect, it } from 'vitest';
import type { VectorRecord } from '@zerda/core';
import { MemoryPersistence, createMemoryPersistenceState } from './persistence.js';
import type { MemoryPersistenceState } from './persistence.js';
import { SqliteStorage } from './sqlite-storage.js';

const DIM = 96;
const MODEL = { id: 'use-lite', dim: DIM };

/** Deterministic pseudo-random rows (an LCG), values in (-1, 1). */
function records(n: number, seed: number, prefix = 'v'): VectorRecord[] {
  let x = seed >>> 0;
  const next = () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 31 - 1;
  };
  return Array.from({ length: n }, (_, i) => ({
    id: `${prefix}${String(i).padStart(4, '0')}`,
    vector: Float32Array.from({ length: DIM }, next),
  }));
}

/** Bytes of the vector stream at rest (base chunks and log records). */
function vectorBytes(state: MemoryPersistenceState): number {
  const s = state.streams.vectors;
  return [...s.base, ...s.log.map((r) => r.bytes)].reduce((n, b) => n + b.byteLength, 0);
}

async function stored(state: MemoryPersistenceState, precision: 'float32' | 'int8', rows: VectorRecord[]) {
  const s = await SqliteStorage.open({ persistence: new MemoryPersistence(state), vectorPrecision: precision });
  await s.putVectors('t', MODEL, rows);
  return s;
}

describe('SqliteStorage vectorPrecision', () => {
  it("'int8' keeps vectors in about a quarter of the bytes, within half a step of each row", async () => {
    const rows = records(600, 7);
    const f32 = createMemoryPersistenceState();
    const i8 = createMemoryPersistenceState();
    const a = await stored(f32, 'float32', rows);
    const b = await stored(i8, 'int8', rows);
    await a.compact();
    await b.compact();
    const ratio = vectorBytes(i8) / vectorBytes(f32);
    expect(ratio).toBeGreaterThan((DIM + 4) / (4 * DIM));
    expect(ratio).toBeLessThan(0.3);
    const exact = await a.loadVectors('t', MODEL.id);
    const approx = await b.loadVectors('t', MODEL.id);
    expect(exact!.ids).toEqual(approx!.ids);
    rows.forEach((r, i) => expect(exact!.data.subarray(i * DIM, (i + 1) * DIM)).toEqual(r.vector));
    let worst = 0;
    rows.forEach((r, i) => {
      const step = Math.max(...r.vector.map(Math.abs)) / 127;
      for (let j = 0; j < DIM; j++) worst = Math.max(worst, Math.abs(approx!.data[i * DIM + j]! - r.vector[j]!) / step);
    });
    expect(worst).toBeGreaterThan(0.4);
    expect(worst).toBeLessThanOrEqual(0.5 + 1e-5);
    await a.close();
    await b.close();
  });

  it('loads the same int8 rows before and after reopening, from the log and from compacted chunks', async () => {
    const state = createMemoryPersistenceState();
    const s = await stored(state, 'int8', records(300, 11));
    const before = await s.loadVectors('t', MODEL.id);
    await s.close();
    // The log replayed (no compaction yet), by a storage opened without the option.
    const fromLog = await SqliteStorage.open({ persistence: new MemoryPersistence(state) });
    expect(await fromLog.loadVectors('t', MODEL.id)).toEqual(before);
    await fromLog.compact();
    await fromLog.close();
    expect(state.streams.vectors.log).toHaveLength(0);
    const fromBase = await SqliteStorage.open({ persistence: new MemoryPersistence(state), vectorPrecision: 'int8' });
    expect(await fromBase.loadVectors('t', MODEL.id)).toEqual(before);
    const exported = await fromBase.exportJson({ includeVectors: true });
    await fromBase.close();
    const copy = await SqliteStorage.open({ vectorPrecision: 'int8' });
    await copy.importJson(exported);
    expect(await copy.loadVectors('t', MODEL.id)).toEqual(before);
    await copy.close();
  });

  it('keeps float32 rows stored before switching to int8 exact, and both kinds across compaction', async () => {
    const state = createMemoryPersistenceState();
    const old = records(50, 3, 'a');
    const s = await stored(state, 'float32', old);
    await s.close();
    const t = await stored(state, 'int8', records(50, 5, 'b'));
    await t.compact();
    await t.close();
    const u = await SqliteStorage.open({ persistence: new MemoryPersistence(state) });
    const block = await u.loadVectors('t', MODEL.id);
    expect(block!.ids).toHaveLength(100);
    old.forEach((r, i) => expect(block!.data.subarray(i * DIM, (i + 1) * DIM)).toEqual(r.vector));
    const fresh = records(50, 5, 'b');
    expect(block!.data.subarray(50 * DIM, 51 * DIM)).not.toEqual(fresh[0]!.vector);
    await u.close();
  });

  it('rejects an unknown precision before opening anything', async () => {
    await expect(SqliteStorage.open({ vectorPrecision: 'fp16' as never })).rejects.toMatchObject({
      code: 'VALIDATION',
    });
  });
});
