import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEntry, isZerdaError } from '@zerda/core';
import { PostgresStorage } from './postgres-storage.js';
import { describePostgres, freshSchema } from './test-database.js';

const DIM = 16;
const MODEL = { id: 'clusters-16', dim: DIM };
let seed = 7;
const rand = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
const unit = (v: number[]) => {
  const n = Math.hypot(...v);
  return Float32Array.from(v.map((x) => x / n));
};
const centroids = Array.from({ length: 8 }, () => Array.from({ length: DIM }, () => rand() * 2 - 1));
const near = (c: number) => unit(centroids[c]!.map((x) => x + (rand() - 0.5) * 0.3));

describePostgres('PostgresStorage.searchVectors (HNSW and exact)', (url) => {
  const schema = freshSchema('vec');
  let s: PostgresStorage;
  beforeAll(async () => {
    s = await PostgresStorage.open({ connectionString: url, schema });
    for (const [tenant, n] of [
      ['large', 400],
      ['small', 5],
    ] as const) {
      const entries = Array.from({ length: n }, (_, i) => ({
        ...createEntry(tenant, { content: { title: 't', text: `v ${i}` } }, 1_700_000_000_000),
        id: `${tenant}-${i}`,
      }));
      await s.putMany(entries);
      await s.putVectors(
        tenant,
        MODEL,
        entries.map((e, i) => ({ id: e.id, vector: near(i % 8) })),
      );
    }
  });
  afterAll(async () => {
    await s?.close();
  });

  it('HNSW finds what exact search finds, best first, scores are cosine similarities', async () => {
    let agree = 0;
    for (let q = 0; q < 8; q++) {
      const query = near(q);
      const exact = await s.searchVectors('large', MODEL, query, 10, { exact: true });
      const approx = await s.searchVectors('large', MODEL, query, 10);
      expect(exact).toHaveLength(10);
      expect(approx).toHaveLength(10);
      for (const list of [exact, approx])
        for (let i = 1; i < list.length; i++) expect(list[i - 1]!.score).toBeGreaterThanOrEqual(list[i]!.score);
      expect(exact.every((h) => Number(h.id.split('-')[1]) % 8 === q)).toBe(true); // the query's own cluster
      const ids = new Set(exact.map((h) => h.id));
      agree += approx.filter((h) => ids.has(h.id)).length;
    }
    expect(agree / 80).toBeGreaterThanOrEqual(0.9);
  });

  it('only the tenant is searched; a small tenant in a large shared index still gets its rows', async () => {
    const hits = await s.searchVectors('small', MODEL, near(0), 10);
    expect(hits.map((h) => h.id).sort()).toEqual(['small-0', 'small-1', 'small-2', 'small-3', 'small-4']);
    expect(await s.searchVectors('nobody', MODEL, near(0), 10)).toEqual([]);
  });

  it('rejects a vector of the wrong length, a bad k or efSearch', async () => {
    for (const call of [
      () => s.searchVectors('large', MODEL, new Float32Array(3), 5),
      () => s.searchVectors('large', MODEL, near(0), -1),
      () => s.searchVectors('large', MODEL, near(0), 5, { efSearch: 0 }),
    ])
      expect(isZerdaError(await call().catch((e: unknown) => e), 'VALIDATION')).toBe(true);
  });
});
