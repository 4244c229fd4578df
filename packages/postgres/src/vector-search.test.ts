import { afterAll, beforeAll, expect, it } from 'vitest';
import { isZerdaError } from '@zerda/core';
import { createEntry } from '@zerda/core/adapter';
import pg from 'pg';
import { sqlLiteral } from './literals.js';
import { PostgresStorage, hnswSettings } from './postgres-storage.js';
import { adminUrl, describePostgres, freshSchema, ownerUrl } from './test-database.js';

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
    s = await PostgresStorage.open({ connectionString: url, ownerConnectionString: ownerUrl(url), schema });
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

  /** The name of the model's HNSW index (vector_indexes; on Citus each shard's is <name>_<shard id>). */
  async function indexName(model: { id: string; dim: number }): Promise<string> {
    const owner = new pg.Client({ connectionString: ownerUrl(url) });
    await owner.connect();
    try {
      const r = await owner.query(
        `SELECT index_name FROM "${schema}".vector_indexes WHERE model_id = $1 AND dim = $2`,
        [model.id, model.dim],
      );
      return r.rows[0].index_name;
    } finally {
      await owner.end();
    }
  }

  /**
   * The rows the model's HNSW index recorded when it was built (pg_class.reltuples; 0 for an index
   * maintained row by row since it was made on an empty table): on Citus, summed over the shards'
   * indexes (<index>_<shard id>; the coordinator's holds no rows).
   */
  async function indexRows(model: { id: string; dim: number }): Promise<number> {
    const index = await indexName(model);
    const owner = new pg.Client({ connectionString: ownerUrl(url) });
    await owner.connect();
    try {
      const count = `SELECT coalesce(sum(greatest(c.reltuples, 0)), 0) AS n FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid`;
      const r = s.citus
        ? await owner.query(`SELECT sum(result::real) AS n FROM run_command_on_shards($1, $2)`, [
            `"${schema}".vectors`,
            `${count} WHERE i.indrelid = '%s'::regclass AND starts_with(c.relname, ${sqlLiteral(index)})`,
          ])
        : await owner.query(`${count} WHERE c.relname = $1 AND c.relnamespace = $2::regnamespace`, [
            index,
            `"${schema}"`,
          ]);
      return Number(r.rows[0].n);
    } finally {
      await owner.end();
    }
  }

  it('HNSW finds what exact search finds, best first, scores are cosine similarities', async () => {
    let agree = 0;
    for (let q = 0; q < 8; q++) {
      const query = near(q);
      const exact = await s.searchVectors('large', MODEL, query, 10, { exact: true });
      const approx = await s.searchVectors('large', MODEL, query, 10, { exact: false });
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

  it('rejects a vector of the wrong length, a bad k, efSearch, exact or exactSearchBelow', async () => {
    for (const call of [
      () => s.searchVectors('large', MODEL, new Float32Array(3), 5),
      () => s.searchVectors('large', MODEL, near(0), -1),
      () => s.searchVectors('large', MODEL, near(0), 5, { efSearch: 0 }),
      () => s.searchVectors('large', MODEL, near(0), 5, { exact: 'yes' as unknown as boolean }),
      () => PostgresStorage.open({ connectionString: url, schema, exactSearchBelow: -1 }),
      () => PostgresStorage.open({ connectionString: url, schema, exactSearchBelow: 1.5 }),
      () => PostgresStorage.open({ connectionString: url, schema, indexBuildMemory: '1 GB' }),
      () => PostgresStorage.open({ connectionString: url, schema, indexBuildMemory: '0MB' }),
    ])
      expect(isZerdaError(await call().catch((e: unknown) => e), 'VALIDATION')).toBe(true);
  });

  /**
   * Run one search of `storage`, check it sent one statement (the `search_vectors` call, outside a
   * transaction block) and, on a single server, replay that call as the superuser with
   * `auto_explain` logging the function's own statements to this client: the hits, and the HNSW
   * index's scans that ran (`Actual Loops`, summed over the plans; undefined on Citus, whose
   * distributed plans auto_explain cannot print).
   */
  async function searchExplained(storage: PostgresStorage, tenant: string, query: Float32Array) {
    const index = await indexName(MODEL);
    const sent: [string, unknown[] | undefined][] = [];
    const query0 = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      if (typeof args[0] === 'string') sent.push([args[0], args[1] as unknown[] | undefined]);
      return (query0 as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query0;
    let hits: Awaited<ReturnType<PostgresStorage['searchVectors']>>;
    try {
      hits = await storage.searchVectors(tenant, MODEL, query, 10);
    } finally {
      pg.Client.prototype.query = query0;
    }
    expect(sent).toHaveLength(1);
    const [sql, params] = sent[0]!;
    expect(sql).toMatch(/^SELECT id, distance, exact FROM "[a-z0-9_]+"\.search_vectors\(/);
    // The vector travels once, in pgvector's binary form: 4 bytes a dimension after a 4-byte header.
    expect(params?.[3]).toBeInstanceOf(Buffer);
    expect((params![3] as Buffer).length).toBe(4 + 4 * DIM);
    const admin = adminUrl(url);
    if (storage.citus || admin === undefined) return { hits, hnswLoops: undefined };
    const replay = new pg.Client({ connectionString: admin });
    await replay.connect();
    const plans: unknown[] = [];
    replay.on('notice', (n) => {
      const at = n.message?.indexOf('{') ?? -1;
      if (at >= 0) plans.push(JSON.parse(n.message!.slice(at)));
    });
    try {
      await replay.query(`LOAD 'auto_explain'`);
      await replay.query(
        `SET auto_explain.log_min_duration = 0; SET auto_explain.log_analyze = on; SET auto_explain.log_nested_statements = on;
         SET auto_explain.log_format = json; SET client_min_messages = log`,
      );
      await replay.query(sql, params);
    } finally {
      await replay.end();
    }
    let loops = 0;
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        const o = node as Record<string, unknown>;
        if (typeof o['Index Name'] === 'string' && o['Index Name'].startsWith(index))
          loops += Number(o['Actual Loops'] ?? 0);
        Object.values(o).forEach(walk);
      }
    };
    expect(plans.length).toBeGreaterThan(0);
    walk(plans);
    return { hits, hnswLoops: loops };
  }

  it('a tenant below exactSearchBelow is searched exactly, a larger one with HNSW: one statement, one path runs', async () => {
    const auto = await PostgresStorage.open({ connectionString: url, schema, exactSearchBelow: 100 });
    try {
      expect(auto.vectorSearchCounts).toEqual({ exact: 0, hnsw: 0 });
      // 'small' (5 rows) and a 60-row tenant: exact, and the HNSW index scan never runs.
      const mid = Array.from({ length: 60 }, (_, i) => ({ id: `mid-${i}`, vector: near(i % 8) }));
      await s.putMany(
        mid.map((m) => ({ ...createEntry('mid', { content: { title: 'm', text: m.id } }, 1), id: m.id })),
      );
      await s.putVectors('mid', MODEL, mid);
      for (let q = 0; q < 4; q++) {
        const query = near(q);
        const { hits, hnswLoops } = await searchExplained(auto, 'mid', query);
        if (hnswLoops !== undefined) expect(hnswLoops).toBe(0);
        expect(hits).toEqual(await s.searchVectors('mid', MODEL, query, 10, { exact: true }));
      }
      expect((await searchExplained(auto, 'small', near(0))).hnswLoops ?? 0).toBe(0);
      expect(auto.vectorSearchCounts).toEqual({ exact: 5, hnsw: 0 });
      // 'large' (400 rows): the HNSW index.
      const { hits, hnswLoops } = await searchExplained(auto, 'large', near(1));
      if (hnswLoops !== undefined) expect(hnswLoops).toBeGreaterThan(0);
      expect(hits).toHaveLength(10);
      expect(auto.vectorSearchCounts).toEqual({ exact: 5, hnsw: 1 });
      // exact: true / false force either path whatever the size.
      await auto.searchVectors('large', MODEL, near(1), 10, { exact: true });
      await auto.searchVectors('mid', MODEL, near(1), 10, { exact: false });
      expect(auto.vectorSearchCounts).toEqual({ exact: 6, hnsw: 2 });
      // The bound is a count of the tenant's rows of this model: at exactly the bound, HNSW.
      const edge = await PostgresStorage.open({ connectionString: url, schema, exactSearchBelow: 60 });
      try {
        expect((await searchExplained(edge, 'mid', near(2))).hnswLoops ?? 1).toBeGreaterThan(0);
        expect(edge.vectorSearchCounts).toEqual({ exact: 0, hnsw: 1 });
      } finally {
        await edge.close();
      }
    } finally {
      await auto.close();
    }
  });

  it('a 20,000-d vector is VALIDATION (pgvector holds at most 16,000) and writes nothing', async () => {
    const big = { id: 'too-big', dim: 20_000 };
    const put = await s
      .putVectors('large', big, [{ id: 'large-0', vector: new Float32Array(20_000).fill(0.5) }])
      .catch((e: unknown) => e);
    expect(isZerdaError(put, 'VALIDATION')).toBe(true);
    expect((put as { details?: { sqlState?: string } }).details?.sqlState).toBeUndefined();
    const search = await s.searchVectors('large', big, new Float32Array(20_000).fill(0.5), 5).catch((e: unknown) => e);
    expect(isZerdaError(search, 'VALIDATION')).toBe(true);
    expect((await s.vectorModels('large')).map((m) => m.id)).toEqual([MODEL.id]);
  });

  it('a bulk putVectors loads first and builds the HNSW index after (reltuples = rows at build time)', async () => {
    const bulk = { id: 'bulk-8', dim: 8 };
    const entries = Array.from({ length: 1200 }, (_, i) => ({
      ...createEntry('bulk', { content: { title: 'b', text: `bulk ${i}` } }, 1_700_000_000_000),
      id: `bulk-${i}`,
    }));
    await s.putMany(entries);
    const vec = (i: number) => unit(Array.from({ length: 8 }, (_, j) => Math.sin((i + 1) * (j + 1))));
    await s.putVectors(
      'bulk',
      bulk,
      entries.map((e, i) => ({ id: e.id, vector: vec(i) })),
    );
    // An index built over the loaded rows records their number; one maintained row by row says 0.
    expect(await indexRows(bulk)).toBe(1200);
    const before = s.vectorSearchCounts;
    const hits = await s.searchVectors('bulk', bulk, vec(7), 3);
    expect(hits[0]!.id).toBe('bulk-7');
    // 1,200 rows: below the default exactSearchBelow (1,500), so searched exactly.
    expect(s.vectorSearchCounts).toEqual({ exact: before.exact + 1, hnsw: before.hnsw });
    expect((await s.loadVectors('bulk', bulk.id))?.ids).toHaveLength(1200);
  });

  it('an index build takes indexBuildMemory when above 256MB and never less than 256MB', async () => {
    // ensure_vector_index sets the build's maintenance_work_mem for the rest of its transaction:
    // what a build in that transaction ran with.
    const owner = new pg.Client({ connectionString: ownerUrl(url) });
    await owner.connect();
    const built = async (memory: string, model: string) => {
      await owner.query('BEGIN');
      try {
        if (s.citus) await owner.query(`SET LOCAL citus.propagate_set_commands = 'local'`);
        await owner.query(`SET LOCAL maintenance_work_mem = '${memory}'`);
        await owner.query(`SELECT "${schema}".ensure_vector_index($1, 8, 16, 64)`, [model]);
        return (await owner.query(`SELECT current_setting('maintenance_work_mem') AS m`)).rows[0].m;
      } finally {
        await owner.query('ROLLBACK');
      }
    };
    try {
      expect(await built('300MB', 'mem-high')).toBe('300MB');
      expect(await built('64MB', 'mem-low')).toBe('256MB');
    } finally {
      await owner.end();
    }
    // The adapter binds its setting before the build that follows a bulk load.
    const roomy = await PostgresStorage.open({ connectionString: url, schema, indexBuildMemory: '300MB' });
    await roomy.putMany(
      Array.from({ length: 1000 }, (_, i) => ({
        ...createEntry('mem', { content: { title: 'm', text: `mem ${i}` } }, 1_700_000_000_000),
        id: `m-${i}`,
      })),
    );
    const sent: string[] = [];
    const query0 = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      if (typeof args[0] === 'string') sent.push(args[0]);
      return (query0 as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query0;
    const model = { id: 'mem-bulk', dim: 8 };
    try {
      await roomy.putVectors(
        'mem',
        model,
        Array.from({ length: 1000 }, (_, i) => ({
          id: `m-${i}`,
          vector: unit(Array.from({ length: 8 }, (_, j) => Math.sin((i + 2) * (j + 1)))),
        })),
      );
    } finally {
      pg.Client.prototype.query = query0;
      await roomy.close();
    }
    expect(sent).toContain(`SET LOCAL maintenance_work_mem = '300MB'`);
    expect(await indexRows(model)).toBe(1000);
  });

  it('an importJson of many tenants suspends the index once and builds it after the whole import', async () => {
    const model = { id: 'import-8', dim: 8 };
    const vec = (i: number) => unit(Array.from({ length: 8 }, (_, j) => Math.cos((i + 3) * (j + 1))));
    // 6 tenants × 200 vectors: no tenant reaches the bulk size alone, the import does.
    const tenants = Array.from({ length: 6 }, (_, t) => `imp-${t}`);
    await s.putVectors('imp-seed', model, [{ id: 'seed', vector: vec(999) }]); // the index exists, near empty
    const doc = {
      format: 'zerda-export' as const,
      version: 1,
      exportedAt: 1,
      entries: [],
      profiles: [],
      vectors: tenants.map((t, k) => ({
        tenantId: t,
        model,
        ids: Array.from({ length: 200 }, (_, i) => `v-${i}`),
        data: Buffer.from(
          Float32Array.from(Array.from({ length: 200 }, (_, i) => [...vec(k * 200 + i)]).flat()).buffer,
        ).toString('base64'),
      })),
    };
    const report = await s.importJson(doc);
    expect(report.vectors).toBe(1200);
    expect(await indexRows(model)).toBe(1201);
    expect((await s.searchVectors('imp-3', model, vec(3 * 200 + 17), 1))[0]?.id).toBe('v-17');
  });

  it('512-d vectors stay in their rows (no TOAST), which exact search reads directly', async () => {
    const wide = { id: 'wide-512', dim: 512 };
    await s.putVectors(
      'wide',
      wide,
      Array.from({ length: 20 }, (_, i) => ({
        id: `w-${i}`,
        vector: unit(Array.from({ length: 512 }, (_, j) => Math.sin(i + j))),
      })),
    );
    const owner = new pg.Client({ connectionString: ownerUrl(url) });
    await owner.connect();
    try {
      const size = `SELECT pg_relation_size(reltoastrelid) FROM pg_class WHERE oid = `;
      const r = s.citus
        ? await owner.query(`SELECT sum(result::bigint) AS n FROM run_command_on_shards($1, $2)`, [
            `"${schema}".vectors`,
            `${size} '%s'::regclass`,
          ])
        : await owner
            .query(`${size} $1::regclass`, [`"${schema}".vectors`])
            .then((q) => ({ rows: [{ n: Object.values(q.rows[0])[0] }] }));
      expect(Number(r.rows[0].n)).toBe(0);
    } finally {
      await owner.end();
    }
    expect(
      (await s.searchVectors('wide', wide, unit(Array.from({ length: 512 }, (_, j) => Math.sin(3 + j))), 1))[0]?.id,
    ).toBe('w-3');
  });

  it("after ANALYZE the planner keeps the HNSW index for the adapter's search settings", async () => {
    const owner = new pg.Client({ connectionString: ownerUrl(url) });
    await owner.connect();
    try {
      await owner.query(`ANALYZE "${schema}".vectors`);
      const [{ index_name: index }] = (
        await owner.query(`SELECT index_name FROM "${schema}".vector_indexes WHERE model_id = $1`, [MODEL.id])
      ).rows;
      const q = `[${Array.from(near(0)).join(',')}]`;
      const explain = async (settings: Record<string, string>) => {
        await owner.query('BEGIN');
        try {
          await owner.query(`SET LOCAL citus.propagate_set_commands = 'local'`);
          await owner.query(`SET LOCAL zerda.tenant = 'large'`);
          for (const [k, v] of Object.entries(settings)) await owner.query(`SET LOCAL ${k} = ${sqlLiteral(v)}`);
          const r = await owner.query(
            `EXPLAIN (FORMAT JSON) SELECT id FROM "${schema}".vectors WHERE tenant_id = 'large' AND model_id = $1 AND dim = ${DIM}
             ORDER BY embedding::vector(${DIM}) <=> $2::vector(${DIM}) LIMIT 10`,
            [MODEL.id, q],
          );
          return JSON.stringify(r.rows[0]);
        } finally {
          await owner.query('ROLLBACK');
        }
      };
      expect(await explain(hnswSettings(100))).toContain(index);
    } finally {
      await owner.end();
    }
    // And the search itself (search_vectors binds its own copy of the settings): after ANALYZE, a
    // 400-row tenant searched by HNSW scans the index (on a single server, where auto_explain shows it).
    const always = await PostgresStorage.open({ connectionString: url, schema, exactSearchBelow: 0 });
    try {
      const { hits, hnswLoops } = await searchExplained(always, 'large', near(0));
      expect(hits).toHaveLength(10);
      if (hnswLoops !== undefined) expect(hnswLoops).toBeGreaterThan(0);
      expect(always.vectorSearchCounts).toEqual({ exact: 0, hnsw: 1 });
    } finally {
      await always.close();
    }
  });
});
