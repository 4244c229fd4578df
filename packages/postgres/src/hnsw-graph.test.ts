import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isZerdaError } from '@zerda/core';
import { createEntry } from '@zerda/core/adapter';
import pg from 'pg';
import { DEFAULT_HNSW_INDEX, type HnswIndexOptions, PostgresStorage } from './postgres-storage.js';
import { describePostgres, freshSchema, ownerUrl } from './test-database.js';

const DIM = 8;
const MODEL = { id: 'graph-8', dim: DIM };
const unit = (i: number) => {
  const v = Array.from({ length: DIM }, (_, d) => Math.sin(i * 1.7 + d * 0.9) + (d === i % DIM ? 2 : 0));
  const n = Math.hypot(...v);
  return Float32Array.from(v.map((x) => x / n));
};

describe('hnswIndex options (checked before any connection)', () => {
  const url = 'postgresql://nobody@127.0.0.1:1/none';
  const cases: [string, unknown][] = [
    ['m below 2', { m: 1 }],
    ['m above 100', { m: 101 }],
    ['m not an integer', { m: 16.5 }],
    ['efConstruction below 2 * m', { m: 16, efConstruction: 20 }],
    ['efConstruction above 1000', { efConstruction: 1001 }],
    ['an unknown key', { ef: 64 }],
    ['not an object', 16],
  ];
  for (const [what, hnswIndex] of cases)
    it(`rejects ${what} as VALIDATION`, async () => {
      const err = await PostgresStorage.open({ connectionString: url, hnswIndex: hnswIndex as HnswIndexOptions }).catch(
        (e: unknown) => e,
      );
      expect(isZerdaError(err) && err.code === 'VALIDATION').toBe(true);
      expect(String((err as Error).message)).toMatch(/hnswIndex/);
    });
  it("defaults to 24 / 128, a larger graph than pgvector's own 16 / 64", () => {
    expect(DEFAULT_HNSW_INDEX).toEqual({ m: 24, efConstruction: 128 });
  });
});

describePostgres('PostgresStorage hnswIndex: the graph settings of the HNSW index, and rebuilding it', (url) => {
  const schema = freshSchema('graph');
  const open = (hnswIndex?: HnswIndexOptions) =>
    PostgresStorage.open({ connectionString: url, ownerConnectionString: ownerUrl(url), schema, hnswIndex });
  let owner: pg.Client;
  beforeAll(async () => {
    owner = new pg.Client({ connectionString: ownerUrl(url) });
    await owner.connect();
  });
  afterAll(async () => {
    await owner?.end();
  });

  /** The model's vector_indexes row and its index's definition. */
  async function index(): Promise<{ m: number | null; ef: number | null; def: string }> {
    const r = await owner.query(
      `SELECT v.m, v.ef_construction AS ef, i.indexdef AS def FROM "${schema}".vector_indexes v
         JOIN pg_indexes i ON i.schemaname = $1 AND i.indexname = v.index_name
        WHERE v.model_id = $2 AND v.dim = $3`,
      [schema, MODEL.id, MODEL.dim],
    );
    expect(r.rows).toHaveLength(1);
    return r.rows[0];
  }

  async function nearestIsItself(s: PostgresStorage): Promise<void> {
    const hits = await s.searchVectors('t', MODEL, unit(7), 3, { exact: false });
    expect(hits[0]?.id).toBe('e-7');
  }

  it('builds the index with the given m and ef_construction and records them', async () => {
    const s = await open({ m: 8, efConstruction: 32 });
    try {
      const entries = Array.from({ length: 60 }, (_, i) => ({
        ...createEntry('t', { content: { title: 't', text: `v ${i}` } }, 1_700_000_000_000),
        id: `e-${i}`,
      }));
      await s.putMany(entries);
      await s.putVectors(
        't',
        MODEL,
        entries.map((e, i) => ({ id: e.id, vector: unit(i) })),
      );
      const { m, ef, def } = await index();
      expect([m, ef]).toEqual([8, 32]);
      expect(def).toMatch(/m='?8'?, ef_construction='?32'?/);
      await nearestIsItself(s);
      // Same settings: nothing to rebuild.
      expect(await s.rebuildVectorIndexes()).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('keeps an index built with other settings until rebuildVectorIndexes, which rebuilds it over every vector', async () => {
    const s = await open({ m: 12, efConstruction: 48 });
    try {
      expect((await index()).m).toBe(8);
      expect(await s.rebuildVectorIndexes()).toEqual([MODEL]);
      const { m, ef, def } = await index();
      expect([m, ef]).toEqual([12, 48]);
      expect(def).toMatch(/m='?12'?, ef_construction='?48'?/);
      await nearestIsItself(s);
      expect((await s.searchVectors('t', MODEL, unit(3), 60, { exact: false })).length).toBe(60);
      expect(await s.rebuildVectorIndexes()).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('the default storage rebuilds to 24 / 128', async () => {
    const s = await open();
    try {
      expect(await s.rebuildVectorIndexes()).toEqual([MODEL]);
      expect(await index()).toMatchObject({ m: 24, ef: 128 });
      await nearestIsItself(s);
    } finally {
      await s.close();
    }
  });

  it("keeps the two-argument ensure_vector_index of the previous version, building with pgvector's defaults", async () => {
    // A process of the previous version, still running during a rolling upgrade, calls this form.
    const name = (await owner.query(`SELECT "${schema}".ensure_vector_index('old-4', 4) AS n`)).rows[0].n;
    const r = await owner.query(
      `SELECT v.m, v.ef_construction AS ef, i.indexdef AS def FROM "${schema}".vector_indexes v
         JOIN pg_indexes i ON i.schemaname = $1 AND i.indexname = v.index_name WHERE v.model_id = 'old-4'`,
      [schema],
    );
    expect(r.rows).toHaveLength(1);
    expect(r.rows[0]).toMatchObject({ m: 16, ef: 64 });
    expect(r.rows[0].def).toContain(name);
    expect(r.rows[0].def).toMatch(/m='?16'?, ef_construction='?64'?/);
  });
});
