/**
 * @zerda/postgres at scale, with SqliteStorage (FilePersistence, fsync per write) in the same run:
 * - one large tenant: bulk ingest rate (entries with postings, then vectors into HNSW), lexical,
 *   vector and hybrid query latency p50/p95 with HNSW and with exact search, HNSW recall@10
 *   against exact, hybrid top-10 overlap HNSW vs exact;
 * - many tenants of 1k each: ingest, per-tenant hybrid latency (HNSW with pgvector's iterative
 *   scan vs exact) and recall;
 * - the adapter against plain `pg` on the same server and index, in one run: HNSW top-10 p50 of
 *   `searchVectors` vs the same SELECT sent alone (same settings bound once per session), vector
 *   ingest of `putVectors` vs a multi-row INSERT (500 a batch), and a bulk `putVectors` (index
 *   built after the load);
 * - concurrent writers: W processes × N writes to the same tenant (puts plus row-locked updates of
 *   one shared memory): throughput, and lost writes / lost updates (must be 0).
 *
 * Run: `node --conditions=@zerda/source --import tsx test/bench/postgres-scale.ts`
 * Sizes (env): ZERDA_BENCH_N (one tenant, default 10000; the issue's scale is 1000000),
 * ZERDA_BENCH_TENANTS × ZERDA_BENCH_PER_TENANT (default 20 × 1000; issue: 1000 × 1000),
 * ZERDA_BENCH_DIM (512), ZERDA_BENCH_QUERIES (100), ZERDA_BENCH_WRITERS × ZERDA_BENCH_WRITES
 * (4 × 500; issue: 4 × 10000), ZERDA_BENCH_SQLITE_MAX (largest size run on SQLite, default 100000).
 * Database: ZERDA_BENCH_DATABASE_URL, else ZERDA_TEST_DATABASE_URL, else a throwaway server started
 * with scripts/pg-test-server.sh (as root). ZERDA_BENCH_SCHEMA names the schema (default: a new one
 * per run); with ZERDA_BENCH_SCALE_IMPORT=0 the scale section queries that schema as an earlier run
 * left it, without importing; ZERDA_BENCH_SCALE_QUERY=0 imports only (a long import can run unlocked
 * under load, its timed queries later under the bench lock). ZERDA_BENCH_INDEX_BUILD_MEMORY is the
 * adapter's `indexBuildMemory` (the HNSW build's maintenance_work_mem after a bulk load, default
 * '256MB'; size it to the largest shard's vectors, ~2.3 KB each at 512-d: the 1M run used '1GB').
 * ZERDA_BENCH_HNSW=m,efConstruction is the adapter's `hnswIndex` (default 24,128); with
 * ZERDA_BENCH_REBUILD=1 the run first rebuilds the schema's indexes to it (`rebuildVectorIndexes`,
 * timed), so one imported schema can be queried with two graphs.
 * Prints figures; never gates CI.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
// Internals of core (a benchmark measures them directly, so it imports their sources).
import { reciprocalRankFusion } from '../../packages/core/src/retrieval/fusion.js';
import { VectorIndex } from '../../packages/core/src/retrieval/vector-index.js';
import { analyze, createEntry, entryData } from '@zerda/core/adapter';
import { entryText } from '@zerda/core';
import type { LexicalHit, MemoryEntry, StorageAdapter, VectorModel } from '@zerda/core';
import type { VectorSearchOptions } from '@zerda/postgres';
import { PostgresStorage } from '@zerda/postgres';
import { DEFAULT_EF_SEARCH, hnswSettings } from '../../packages/postgres/src/postgres-storage.ts';
import { EXPORT_VERSION, SqliteStorage } from '@zerda/sqlite';
import type { ZerdaExport } from '@zerda/sqlite';
import { FilePersistence } from '@zerda/sqlite/node';
import { runWriter } from '../../packages/postgres/test/run-writer.ts';

const ROOT = resolve(import.meta.dirname, '../..');
// Plain `pg` for the baselines, as @zerda/postgres resolves it (it is that package's dependency).
interface PlainClient {
  connect(): Promise<void>;
  query(sql: string, params?: unknown[]): Promise<unknown>;
  end(): Promise<void>;
}
const pg = createRequire(join(ROOT, 'packages/postgres/package.json'))('pg') as {
  Client: (new (o: { connectionString: string }) => PlainClient) & { prototype: PlainClient };
};
// Round trips: every `query` call of a client is one message and its answer. Counted for the
// adapter's pooled connections (the plain baselines' own clients are left out).
const uncounted = new Set<PlainClient>();
let roundTrips = 0;
{
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: PlainClient, ...args: [string, unknown[]?]) {
    if (!uncounted.has(this)) roundTrips++;
    return query.apply(this, args);
  };
}
const plainClient = async (url: string) => {
  const c = new pg.Client({ connectionString: url });
  uncounted.add(c);
  await c.connect();
  return c;
};
const env = (k: string, d: number) => (process.env[k] ? Number(process.env[k]) : d);
const N = env('ZERDA_BENCH_N', 10_000);
const TENANTS = env('ZERDA_BENCH_TENANTS', 20);
const PER_TENANT = env('ZERDA_BENCH_PER_TENANT', 1_000);
const DIM = env('ZERDA_BENCH_DIM', 512);
const QUERIES = env('ZERDA_BENCH_QUERIES', 100);
const WRITERS = env('ZERDA_BENCH_WRITERS', 4);
const WRITES = env('ZERDA_BENCH_WRITES', 500);
const SQLITE_MAX = env('ZERDA_BENCH_SQLITE_MAX', 100_000);
const PUTS = env('ZERDA_BENCH_PUTS', 500);
const SCALE_TENANTS = env('ZERDA_BENCH_SCALE_TENANTS', 100);
const SCALE_PER_TENANT = env('ZERDA_BENCH_SCALE_PER_TENANT', 1_000);
// Larger tenants imported with them, one per size (comma-separated): latency by tenant size, exact
// against HNSW, on both sides of `exactSearchBelow` (the adapter's default unless
// ZERDA_BENCH_EXACT_BELOW is set).
const SCALE_SIZES = (process.env.ZERDA_BENCH_SCALE_SIZES ?? '').split(',').filter(Boolean).map(Number);
const EXACT_BELOW = process.env.ZERDA_BENCH_EXACT_BELOW ? Number(process.env.ZERDA_BENCH_EXACT_BELOW) : undefined;
const BUILD_MEMORY = process.env.ZERDA_BENCH_INDEX_BUILD_MEMORY;
const HNSW = process.env.ZERDA_BENCH_HNSW?.split(',').map(Number);
const REBUILD = process.env.ZERDA_BENCH_REBUILD === '1';
// The scale section's HNSW passes (comma-separated efSearch values) and its warm-up queries.
const EF_SEARCH = (process.env.ZERDA_BENCH_EF_SEARCH ?? `100,${DEFAULT_EF_SEARCH},400`).split(',').map(Number);
const WARMUP = env('ZERDA_BENCH_WARMUP', QUERIES);
// Which parts run (comma-separated): tenant (one large tenant + the adapter against plain pg),
// puts (single puts against plain pg), tenants (many tenants), writers (concurrent processes),
// scale (ZERDA_BENCH_SCALE_TENANTS × ZERDA_BENCH_SCALE_PER_TENANT, and one tenant of each of
// ZERDA_BENCH_SCALE_SIZES, imported at once, then single-tenant top-10 per group of tenants: the
// adapter's default path on ZERDA_BENCH_WARMUP other queries first (the group's first reads: cold),
// then on the bench's queries (warm) and on them again (hot), exact, and forced HNSW at each of
// ZERDA_BENCH_EF_SEARCH (default 100,200,400; a small tenant's only at the default), each with
// recall@10 against exact and against the same SELECT sent alone; not in the default set).
const SECTIONS = new Set((process.env.ZERDA_BENCH_SECTIONS ?? 'tenant,puts,tenants,writers').split(','));
const BATCH = 500;
const K = 10;
const MODEL: VectorModel = { id: `bench-${DIM}`, dim: DIM };
const log = (s: string) => console.error(`[bench] ${s}`);

// ---- synthetic corpus: topic words (Zipf within a topic) + common words, so queries have answers.
let seed = 42;
const rand = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
const syllables = [
  'ka',
  'lo',
  'mi',
  'ren',
  'to',
  'sa',
  'vel',
  'dor',
  'ni',
  'qua',
  'ber',
  'lin',
  'mor',
  'tis',
  'gal',
  'pe',
];
const word = () =>
  Array.from({ length: 2 + Math.floor(rand() * 3) }, () => syllables[Math.floor(rand() * syllables.length)]).join('');
const TOPICS = Array.from({ length: 200 }, () => Array.from({ length: 40 }, word));
const COMMON = Array.from({ length: 300 }, word);
const zipf = (n: number) => Math.min(n - 1, Math.floor(n ** rand()) - 1);
function sentence(topic: number, len: number): string {
  const out: string[] = [];
  for (let i = 0; i < len; i++)
    out.push(rand() < 0.6 ? TOPICS[topic]![zipf(40)]! : COMMON[Math.floor(rand() * COMMON.length)]!);
  return out.join(' ');
}
// Vectors: one random direction per topic plus noise (unit length), as dense sentence embeddings
// cluster by topic. (Feature-hashing vectors of random words are nearly orthogonal: every distance
// is about 1, which tells nothing about an approximate index.)
const gauss = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
const CENTROIDS = TOPICS.map(() => Float32Array.from({ length: DIM }, gauss));
function topicVector(topic: number): Float32Array {
  const c = CENTROIDS[topic]!;
  const v = Float32Array.from({ length: DIM }, (_, i) => c[i]! + 0.8 * gauss());
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

async function corpus(
  tenantId: string,
  n: number,
  idPrefix: string,
): Promise<{ entries: MemoryEntry[]; vectors: Float32Array[] }> {
  const entries: MemoryEntry[] = [];
  const vectors: Float32Array[] = [];
  for (let i = 0; i < n; i++) {
    const topic = Math.floor(rand() * TOPICS.length);
    const e = createEntry(
      tenantId,
      { content: { title: sentence(topic, 3), text: sentence(topic, 12 + Math.floor(rand() * 20)) }, kind: 'fact' },
      1_700_000_000_000 + i,
    );
    entries.push({ ...e, id: `${idPrefix}${String(i).padStart(8, '0')}` });
    vectors.push(topicVector(topic));
  }
  return { entries, vectors };
}

async function queries(n: number): Promise<{ text: string; vector: Float32Array }[]> {
  return Array.from({ length: n }, () => {
    const topic = Math.floor(rand() * TOPICS.length);
    return { text: sentence(topic, 4), vector: topicVector(topic) };
  });
}

async function ingest(
  s: StorageAdapter,
  entries: MemoryEntry[],
  vectors: Float32Array[],
): Promise<{ entriesPerS: number; vectorsPerS: number }> {
  let t = performance.now();
  for (let i = 0; i < entries.length; i += BATCH) await s.putMany(entries.slice(i, i + BATCH));
  const entriesPerS = entries.length / ((performance.now() - t) / 1000);
  t = performance.now();
  const tenantId = entries[0]!.tenantId;
  for (let i = 0; i < entries.length; i += BATCH)
    await s.putVectors(
      tenantId,
      MODEL,
      entries.slice(i, i + BATCH).map((e, j) => ({ id: e.id, vector: vectors[i + j]! })),
    );
  return { entriesPerS, vectorsPerS: entries.length / ((performance.now() - t) / 1000) };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const ms = (x: number) => Math.round(x * 100) / 100;
const overlap = (a: { id: string }[], b: { id: string }[]) => {
  const set = new Set(b.map((x) => x.id));
  return b.length === 0 ? 1 : a.filter((x) => set.has(x.id)).length / b.length;
};
const fuse = (lex: LexicalHit[], vec: { id: string; score: number }[]) => reciprocalRankFusion([lex, vec]).slice(0, K);

interface QueryFigures {
  lexical: number[];
  hnsw: number[];
  exact: number[];
  hybridHnsw: number[];
  hybridExact: number[];
  recall: number[];
  hybridOverlap: number[];
}

/** Query one tenant on PostgreSQL: lexical, HNSW, exact, and both hybrids. */
async function queryPostgres(
  pgs: PostgresStorage,
  tenantOf: () => string,
  qs: { text: string; vector: Float32Array }[],
): Promise<QueryFigures> {
  const f: QueryFigures = {
    lexical: [],
    hnsw: [],
    exact: [],
    hybridHnsw: [],
    hybridExact: [],
    recall: [],
    hybridOverlap: [],
  };
  for (const q of qs) {
    const tenantId = tenantOf();
    let t = performance.now();
    const lex = await pgs.lexicalSearch({ tenantId, query: q.text, limit: 50 });
    f.lexical.push(performance.now() - t);
    t = performance.now();
    const approx = await pgs.searchVectors(tenantId, MODEL, q.vector, 50);
    f.hnsw.push(performance.now() - t);
    t = performance.now();
    const exact = await pgs.searchVectors(tenantId, MODEL, q.vector, 50, { exact: true });
    f.exact.push(performance.now() - t);
    f.recall.push(overlap(approx.slice(0, K), exact.slice(0, K)));
    t = performance.now();
    const [l1, v1] = await Promise.all([
      pgs.lexicalSearch({ tenantId, query: q.text, limit: 50 }),
      pgs.searchVectors(tenantId, MODEL, q.vector, 50),
    ]);
    const h1 = fuse(l1, v1);
    f.hybridHnsw.push(performance.now() - t);
    t = performance.now();
    const [l2, v2] = await Promise.all([
      pgs.lexicalSearch({ tenantId, query: q.text, limit: 50 }),
      pgs.searchVectors(tenantId, MODEL, q.vector, 50, { exact: true }),
    ]);
    const h2 = fuse(l2, v2);
    f.hybridExact.push(performance.now() - t);
    f.hybridOverlap.push(overlap(h1, h2));
    void lex;
  }
  return f;
}

/** SQLite the way MemoryManager uses it: lexical in SQL, vectors loaded once into core's VectorIndex. */
async function querySqlite(s: SqliteStorage, tenantId: string, qs: { text: string; vector: Float32Array }[]) {
  let t = performance.now();
  const block = (await s.loadVectors(tenantId, MODEL.id))!;
  const index = new VectorIndex(DIM);
  for (let i = 0; i < block.ids.length; i++) index.upsert(block.ids[i]!, block.data.subarray(i * DIM, (i + 1) * DIM));
  const loadMs = performance.now() - t;
  const lexical: number[] = [];
  const hybrid: number[] = [];
  for (const q of qs) {
    t = performance.now();
    const lex = await s.lexicalSearch({ tenantId, query: q.text, limit: 50 });
    lexical.push(performance.now() - t);
    t = performance.now();
    const l = await s.lexicalSearch({ tenantId, query: q.text, limit: 50 });
    fuse(l, index.search(q.vector, 50));
    hybrid.push(performance.now() - t);
    void lex;
  }
  return { loadMs, lexical, hybrid };
}

// ---- the run -----------------------------------------------------------------------------------
let url = process.env.ZERDA_BENCH_DATABASE_URL ?? process.env.ZERDA_TEST_DATABASE_URL;
const serverEnv = { ...process.env, ZERDA_PG_PORT: '55433' };
let started = false;
if (!url) {
  log('starting a throwaway PostgreSQL server (scripts/pg-test-server.sh)');
  url = execFileSync('bash', [join(ROOT, 'scripts/pg-test-server.sh'), 'start'], { env: serverEnv, encoding: 'utf8' })
    .trim()
    .split('\n')
    .at(-1)!;
  started = true;
}
// The owner role migrates the schema; the app role (url) gets DML (scripts/pg-test-server.sh makes both).
const ownerUrl = process.env.ZERDA_BENCH_OWNER_DATABASE_URL ?? url.replace('zerda_app@', 'zerda_owner@');
// ZERDA_BENCH_SCHEMA reuses a schema an earlier run filled (with ZERDA_BENCH_SCALE_IMPORT=0 the scale
// section then only queries it: a long import can run under load and its queries later, quietly).
const schema = process.env.ZERDA_BENCH_SCHEMA ?? `bench_${Date.now().toString(36)}`;
const SCALE_IMPORT = process.env.ZERDA_BENCH_SCALE_IMPORT !== '0';
const SCALE_QUERY = process.env.ZERDA_BENCH_SCALE_QUERY !== '0';
const dir = await mkdtemp(join(tmpdir(), 'zerda-pg-bench-'));
const rows: Record<string, string | number>[] = [];
const row = (what: string, pg: string | number, sqlite: string | number = '') => {
  rows.push({ what, postgres: pg, sqlite });
  log(`${what}: postgres ${pg}${sqlite === '' ? '' : `, sqlite ${sqlite}`}`);
};

try {
  const pgs = await PostgresStorage.open({
    connectionString: url,
    ownerConnectionString: ownerUrl,
    schema,
    maxConnections: 8,
    ...(EXACT_BELOW !== undefined ? { exactSearchBelow: EXACT_BELOW } : {}),
    ...(BUILD_MEMORY !== undefined ? { indexBuildMemory: BUILD_MEMORY } : {}),
    ...(HNSW !== undefined ? { hnswIndex: { m: HNSW[0], efConstruction: HNSW[1] } } : {}),
  });
  if (REBUILD) {
    const t0 = performance.now();
    const rebuilt = await pgs.rebuildVectorIndexes();
    row(
      `rebuild HNSW to m,efConstruction ${HNSW?.join(',') ?? '24,128 (the default)'}`,
      `${rebuilt.length} index(es), ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
  }
  const qs = await queries(QUERIES);

  // 1. one large tenant
  if (SECTIONS.has('tenant')) {
    log(`one tenant: ${N} memories × ${DIM}-d`);
    const big = await corpus('big', N, 'm');
    const pgIngest = await ingest(pgs, big.entries, big.vectors);
    let sqIngest: { entriesPerS: number; vectorsPerS: number } | undefined;
    let sq: SqliteStorage | undefined;
    if (N <= SQLITE_MAX) {
      sq = await SqliteStorage.open({
        persistence: new FilePersistence({ dir: join(dir, 'big') }),
        backups: { enabled: false },
      });
      sqIngest = await ingest(sq, big.entries, big.vectors);
    }
    row(
      `ingest ${N} entries (entries/s, batches of ${BATCH})`,
      Math.round(pgIngest.entriesPerS),
      sqIngest ? Math.round(sqIngest.entriesPerS) : 'n/a',
    );
    row(
      `ingest ${N} vectors (vectors/s; PG maintains HNSW)`,
      Math.round(pgIngest.vectorsPerS),
      sqIngest ? Math.round(sqIngest.vectorsPerS) : 'n/a',
    );
    const f = await queryPostgres(pgs, () => 'big', qs);
    const sf = sq ? await querySqlite(sq, 'big', qs) : undefined;
    row(
      `lexical top-50 p50 / p95 ms`,
      `${ms(pct(f.lexical, 50))} / ${ms(pct(f.lexical, 95))}`,
      sf ? `${ms(pct(sf.lexical, 50))} / ${ms(pct(sf.lexical, 95))}` : 'n/a',
    );
    row(`vector top-50 HNSW p50 / p95 ms`, `${ms(pct(f.hnsw, 50))} / ${ms(pct(f.hnsw, 95))}`);
    row(`vector top-50 exact p50 / p95 ms`, `${ms(pct(f.exact, 50))} / ${ms(pct(f.exact, 95))}`);
    row(
      `hybrid (lexical + HNSW, RRF) p50 / p95 ms`,
      `${ms(pct(f.hybridHnsw, 50))} / ${ms(pct(f.hybridHnsw, 95))}`,
      sf ? `${ms(pct(sf.hybrid, 50))} / ${ms(pct(sf.hybrid, 95))} (in-process exact)` : 'n/a',
    );
    row(`hybrid (lexical + exact, RRF) p50 / p95 ms`, `${ms(pct(f.hybridExact, 50))} / ${ms(pct(f.hybridExact, 95))}`);
    row(`HNSW recall@10 vs exact (mean)`, ms(f.recall.reduce((a, b) => a + b, 0) / f.recall.length));
    row(
      `hybrid top-10 overlap HNSW vs exact (mean)`,
      ms(f.hybridOverlap.reduce((a, b) => a + b, 0) / f.hybridOverlap.length),
    );
    if (sf) row(`load tenant vectors into memory (ms, once per tenant)`, '—', Math.round(sf.loadMs));
    await sq?.close();

    // 1b. the adapter against plain pg on the same server, same table and index (ratios, one run).
    {
      const plain = await plainClient(url);
      // The query alone: tenant and HNSW settings bound once for the session, then only the SELECT.
      await plain.query(`SET citus.propagate_set_commands = 'local'`).catch(() => undefined);
      await plain.query(`SET zerda.tenant = 'big'`);
      await plain.query(`SET hnsw.ef_search = ${DEFAULT_EF_SEARCH}`);
      await plain.query(`SET hnsw.iterative_scan = relaxed_order`);
      // The same plan as the adapter's (it binds these too: the index, not scan-and-sort).
      await plain.query(`SET enable_seqscan = off`);
      await plain.query(`SET enable_sort = off`);
      const sql = `SELECT id, embedding::vector(${DIM}) <=> $1::vector(${DIM}) AS d FROM "${schema}".vectors
      WHERE tenant_id = 'big' AND model_id = $2 AND dim = ${DIM} ORDER BY embedding::vector(${DIM}) <=> $1::vector(${DIM}) LIMIT 10`;
      const alone: number[] = [];
      const adapter: number[] = [];
      for (const q of qs) {
        const text = `[${Array.from(q.vector).join(',')}]`;
        let t = performance.now();
        await plain.query(sql, [text, MODEL.id]);
        alone.push(performance.now() - t);
        t = performance.now();
        await pgs.searchVectors('big', MODEL, q.vector, 10);
        adapter.push(performance.now() - t);
      }
      row(
        'HNSW top-10 p50 ms: adapter / query alone (ratio)',
        `${ms(pct(adapter, 50))} / ${ms(pct(alone, 50))} (${ms(pct(adapter, 50) / pct(alone, 50))}×)`,
      );
      // Vector ingest into the same index: the adapter's putVectors (binary vector[]) against one
      // multi-row INSERT of text vectors, 500 rows a batch (below the bulk-rebuild threshold).
      const n = Math.min(2000, big.vectors.length);
      const recs = big.entries.slice(0, n).map((e, i) => ({ id: e.id, vector: big.vectors[i]! }));
      await plain.query(`SET zerda.tenant = 'plain-ingest'`);
      let t = performance.now();
      for (let i = 0; i < n; i += 500) {
        const chunk = recs.slice(i, Math.min(n, i + 500));
        const values = chunk
          .map((_, j) => `('plain-ingest', $1, $${j * 2 + 2}, ${DIM}, $${j * 2 + 3}::vector)`)
          .join(',');
        await plain.query(
          `INSERT INTO "${schema}".vectors (tenant_id, model_id, id, dim, embedding) VALUES ${values}`,
          [MODEL.id, ...chunk.flatMap((v) => [v.id, `[${Array.from(v.vector).join(',')}]`])],
        );
      }
      const plainRate = n / ((performance.now() - t) / 1000);
      t = performance.now();
      for (let i = 0; i < n; i += 500)
        await pgs.putVectors('adapter-ingest', MODEL, recs.slice(i, Math.min(n, i + 500)));
      const adapterRate = n / ((performance.now() - t) / 1000);
      row(
        `vector ingest ${n} × ${DIM}-d into the HNSW index, vectors/s: adapter / multi-row INSERT (ratio)`,
        `${Math.round(adapterRate)} / ${Math.round(plainRate)} (${ms(adapterRate / plainRate)}×)`,
      );
      // Bulk import: one putVectors of the whole batch into a fresh model (loads, then builds the index).
      const bulkModel = { id: `bulk-${DIM}`, dim: DIM };
      t = performance.now();
      await pgs.putVectors('big', bulkModel, recs);
      row(
        `bulk putVectors ${n} (index built after the load), vectors/s`,
        Math.round(n / ((performance.now() - t) / 1000)),
      );
      await plain.end();
    }
  }

  // 1c. single puts: the adapter (its transaction, postings and change row) against plain pg
  // writing the same rows as one message in a transaction — the floor for a put.
  if (SECTIONS.has('puts')) {
    log(`${PUTS} single puts`);
    const c = await corpus('puts', PUTS, 'p');
    await pgs.put({ ...c.entries[0]!, id: 'warm-up' }); // registers the tenant
    roundTrips = 0;
    let t = performance.now();
    for (const e of c.entries) await pgs.put(e);
    const adapterRate = PUTS / ((performance.now() - t) / 1000);
    const adapterTrips = roundTrips / PUTS;
    const plain = await plainClient(url);
    // The tenant binding: on one server a session setting; on Citus only SET LOCAL reaches the
    // workers, and a SET must travel in a message of its own — the floor there is two messages.
    const bind = `SET LOCAL citus.propagate_set_commands = 'local'; SET LOCAL zerda.tenant = 'puts-plain'`;
    if (!pgs.citus) await plain.query(`SET zerda.tenant = 'puts-plain'`);
    const q = (v: string) => `'${v.replace(/'/g, "''")}'`;
    const s = `"${schema}"`;
    await plain.query(`BEGIN; ${pgs.citus ? bind : ''}`);
    await plain.query(`INSERT INTO ${s}.tenants (tenant_id) VALUES ('puts-plain'); COMMIT`);
    t = performance.now();
    for (const [i, e] of c.entries.entries()) {
      const text = entryText(e);
      const tf = new Map<string, number>();
      for (const term of analyze(text)) tf.set(term, (tf.get(term) ?? 0) + 1);
      if (pgs.citus) await plain.query(`BEGIN; ${bind}`);
      await plain.query(
        [
          ...(pgs.citus ? [] : ['BEGIN']),
          `INSERT INTO ${s}.entries (tenant_id, id, user_id, tier, kind, created_at, last_access, importance, version, tags, doc_len, text_lc, data)
           VALUES ('puts-plain', ${q(e.id)}, NULL, ${q(e.tier)}, ${q(e.kind)}, ${e.createdAt}, ${e.lastAccess}, ${e.importance}, ${e.version},
                   '{}', ${analyze(text).length}, ${q(text.toLowerCase())}, ${q(JSON.stringify(entryData(e)))}::json)`,
          `INSERT INTO ${s}.terms (tenant_id, term, id, tf) VALUES ${[...tf].map(([term, n]) => `('puts-plain', ${q(term)}, ${q(e.id)}, ${n})`).join(', ')}`,
          `INSERT INTO ${s}.sync_log (tenant_id, kind, key, record_id, op, hlc, device_id, pending, clock, seq)
           VALUES ('puts-plain', 'entry', ${q(e.id)}, ${q(`r${i}`)}, 'put', ${q(String(i).padStart(12, '0'))}, 'plain', true, '{}'::json, ${i})`,
          'COMMIT',
        ].join(';\n'),
      );
    }
    const plainRate = PUTS / ((performance.now() - t) / 1000);
    await plain.end();
    row(
      `single puts (entry + postings + change row), puts/s: adapter / plain pg, fewest messages (ratio)`,
      `${Math.round(adapterRate)} / ${Math.round(plainRate)} (${ms(adapterRate / plainRate)}×)`,
    );
    row(`round trips per put: adapter / plain pg`, `${ms(adapterTrips)} / ${pgs.citus ? 2 : 1}`);
  }

  // 2. many tenants
  if (SECTIONS.has('tenants')) {
    log(`${TENANTS} tenants × ${PER_TENANT}`);
    let t = performance.now();
    let tenantEntries = 0;
    const sqMulti =
      TENANTS * PER_TENANT <= SQLITE_MAX
        ? await SqliteStorage.open({
            persistence: new FilePersistence({ dir: join(dir, 'multi') }),
            backups: { enabled: false },
          })
        : undefined;
    let pgMs = 0;
    let sqMs = 0;
    for (let i = 0; i < TENANTS; i++) {
      const c = await corpus(`tenant-${i}`, PER_TENANT, 'm');
      t = performance.now();
      await ingest(pgs, c.entries, c.vectors);
      pgMs += performance.now() - t;
      if (sqMulti) {
        t = performance.now();
        await ingest(sqMulti, c.entries, c.vectors);
        sqMs += performance.now() - t;
      }
      tenantEntries += PER_TENANT;
    }
    row(
      `ingest ${TENANTS} × ${PER_TENANT} (entries+vectors /s)`,
      Math.round(tenantEntries / (pgMs / 1000)),
      sqMulti ? Math.round(tenantEntries / (sqMs / 1000)) : 'n/a',
    );
    const mf = await queryPostgres(pgs, () => `tenant-${Math.floor(rand() * TENANTS)}`, qs);
    row(`per-tenant hybrid HNSW p50 / p95 ms`, `${ms(pct(mf.hybridHnsw, 50))} / ${ms(pct(mf.hybridHnsw, 95))}`);
    row(`per-tenant hybrid exact p50 / p95 ms`, `${ms(pct(mf.hybridExact, 50))} / ${ms(pct(mf.hybridExact, 95))}`);
    row(
      `per-tenant HNSW recall@10 vs exact (iterative scan)`,
      ms(mf.recall.reduce((a, b) => a + b, 0) / mf.recall.length),
    );
    if (sqMulti) {
      const smf = await querySqlite(sqMulti, 'tenant-0', qs);
      row(
        `per-tenant hybrid, SQLite (vectors in memory)`,
        '',
        `${ms(pct(smf.hybrid, 50))} / ${ms(pct(smf.hybrid, 95))}`,
      );
      await sqMulti.close();
    }
  }

  // 3. concurrent writers (separate processes, same tenant)
  if (SECTIONS.has('writers')) {
    log(`${WRITERS} processes × ${WRITES} writes`);
    const updates = Math.max(1, Math.floor(WRITES / 10));
    const results = await Promise.all(
      Array.from({ length: WRITERS }, (_, w) =>
        runWriter({
          url: url!,
          ownerUrl,
          schema,
          tenant: 'shared',
          worker: w,
          puts: WRITES,
          updates,
          counterId: 'counter',
        }),
      ),
    );
    // Each writer times its own write loop (after its process started and connected); they overlap.
    const wall = Math.max(...results.map((r) => r.ms)) / 1000;
    const acked = results.flatMap((r) => r.acked);
    const found = (await pgs.getMany('shared', acked)).length;
    const counter = await pgs.get('shared', 'counter');
    row(
      `${WRITERS} processes × ${WRITES} puts (+${updates} row-locked updates each): writes/s (all processes together)`,
      Math.round((acked.length + WRITERS * updates) / wall),
      'n/a (one process per database)',
    );
    row(`acknowledged puts lost`, acked.length - found);
    row(
      `updates lost (counter ${String(counter?.metadata.n)} of ${WRITERS * updates})`,
      WRITERS * updates - Number(counter?.metadata.n ?? 0),
    );
  }

  // 4. the scale run: many tenants imported at once (one importJson: entries, postings, vectors;
  // the HNSW index dropped first and built after the load — on Citus by each worker for its
  // shards), then single-tenant HNSW top-10 against exact search.
  if (SECTIONS.has('scale')) {
    log(`scale: ${SCALE_TENANTS} tenants × ${SCALE_PER_TENANT} memories × ${DIM}-d, one importJson`);
    log(`scale: schema ${schema}${SCALE_IMPORT ? '' : ' (reused: no import, queries only)'}`);
    let t = performance.now();
    if (SCALE_IMPORT) {
      const doc: ZerdaExport = {
        format: 'zerda-export',
        version: EXPORT_VERSION,
        exportedAt: Date.now(),
        entries: [],
        profiles: [],
        vectors: [],
      };
      const tenants = [
        ...Array.from({ length: SCALE_TENANTS }, (_, i) => ({ tenantId: `scale-${i}`, n: SCALE_PER_TENANT })),
        ...SCALE_SIZES.map((n) => ({ tenantId: `sized-${n}`, n })),
      ];
      for (const { tenantId, n } of tenants) {
        const c = await corpus(tenantId, n, 'm');
        doc.entries.push(...c.entries);
        const data = new Float32Array(n * DIM);
        c.vectors.forEach((v, j) => data.set(v, j * DIM));
        doc.vectors!.push({
          tenantId,
          model: MODEL,
          ids: c.entries.map((e) => e.id),
          data: Buffer.from(data.buffer).toString('base64'),
        });
      }
      const total = tenants.reduce((sum, t) => sum + t.n, 0);
      t = performance.now();
      await pgs.importJson(doc);
      const importS = (performance.now() - t) / 1000;
      doc.entries = [];
      doc.vectors = [];
      row(
        `scale: import ${total} memories × ${DIM}-d in ${tenants.length} tenants (entries, postings, vectors; index built after), memories/s`,
        `${Math.round(total / importS)} (${Math.round(importS)} s)`,
      );
      // Incremental upkeep once the index exists: 500 more vectors into one tenant.
      const extra = await corpus('scale-0', 500, 'x');
      t = performance.now();
      await pgs.putVectors(
        'scale-0',
        MODEL,
        extra.entries.map((e, j) => ({ id: e.id, vector: extra.vectors[j]! })),
      );
      row(`scale: putVectors 500 into the built index, vectors/s`, Math.round(500 / ((performance.now() - t) / 1000)));
    }
  }
  if (SECTIONS.has('scale') && SCALE_QUERY) {
    // The query sent alone: the same SELECTs on a plain connection as the superuser (row-level
    // security does not apply, so no tenant binding is needed; the tenant filter is in the SQL),
    // inside one open read-only transaction whose SET LOCALs (the adapter's HNSW settings) Citus
    // also carries to the workers: each query is then one message.
    const plain = await plainClient(url.replace('zerda_app@', 'postgres@'));
    await plain.query('BEGIN READ ONLY');
    if (pgs.citus) await plain.query(`SET LOCAL citus.propagate_set_commands = 'local'`);
    for (const [k, v] of Object.entries(hnswSettings(DEFAULT_EF_SEARCH))) await plain.query(`SET LOCAL ${k} = '${v}'`);
    const select = (exact: boolean, tenantId: string, q: Float32Array) => {
      const v = `'[${Array.from(q).join(',')}]'`;
      const distance = exact ? `embedding <=> ${v}::vector` : `embedding::vector(${DIM}) <=> ${v}::vector(${DIM})`;
      return plain.query(`SELECT id, ${distance} AS d FROM "${schema}".vectors
        WHERE tenant_id = '${tenantId}' AND model_id = '${MODEL.id}' AND dim = ${DIM} ORDER BY ${distance} LIMIT ${K}`);
    };
    const groups = [
      {
        name: `${SCALE_PER_TENANT}-memory tenants`,
        sized: false,
        pick: () => `scale-${Math.floor(rand() * SCALE_TENANTS)}`,
      },
      ...SCALE_SIZES.map((n) => ({ name: `one ${n}-memory tenant`, sized: true, pick: () => `sized-${n}` })),
    ];
    // Other queries of the same topics, searched first: they warm the index and the rows the way
    // earlier traffic would (generated after the bench's queries, which stay those of every run).
    const warmUp = await queries(WARMUP);
    const mean = (xs: number[]) => ms(xs.reduce((x, y) => x + y, 0) / xs.length);
    const p = (xs: number[]) => `${ms(pct(xs, 50))} / ${ms(pct(xs, 95))}`;
    const ratio = (xs: number[], ys: number[]) => `${ms(pct(xs, 50) / pct(ys, 50))}×`;
    for (const g of groups) {
      const tenants = qs.map(() => g.pick());
      const warmTenants = warmUp.map(() => g.pick());
      // One timed pass of searches; `path` counts the searches the adapter answered exactly.
      const pass = async (tenantOf: (i: number) => string, list: typeof qs, options?: VectorSearchOptions) => {
        const times: number[] = [];
        const hits: { id: string }[][] = [];
        const exact0 = pgs.vectorSearchCounts.exact;
        for (const [i, q] of list.entries()) {
          const t0 = performance.now();
          hits.push(await pgs.searchVectors(tenantOf(i), MODEL, q.vector, K, options));
          times.push(performance.now() - t0);
        }
        return { times, hits, exact: pgs.vectorSearchCounts.exact - exact0 };
      };
      const alone = async (exact: boolean) => {
        const times: number[] = [];
        for (const [i, q] of qs.entries()) {
          const t0 = performance.now();
          await select(exact, tenants[i]!, q.vector);
          times.push(performance.now() - t0);
        }
        return times;
      };
      const trips0 = roundTrips;
      let searches = 0;
      // The first searches of this group: cold for its pages (as the import or earlier groups left them).
      const first = await pass((i) => warmTenants[i]!, warmUp);
      searches += warmUp.length;
      row(
        `scale, ${g.name}: default top-10 p50 / p95 ms, FIRST pass (${warmUp.length} warm-up queries, the group's first reads: cold; path: ${first.exact} exact of ${warmUp.length})`,
        p(first.times),
      );
      // The bench's queries after that warm-up (warm: a hot index, these queries' own rows read for the first time).
      const auto = await pass((i) => tenants[i]!, qs);
      const exact = await pass((i) => tenants[i]!, qs, { exact: true });
      // The same queries again (hot: their pages read just before).
      const again = await pass((i) => tenants[i]!, qs);
      searches += 3 * qs.length;
      const recall = (hits: { id: string }[][]) => mean(hits.map((h, i) => overlap(h, exact.hits[i]!)));
      row(
        `scale, ${g.name}: default top-10 p50 / p95 ms, WARM (after the warm-up; path: ${auto.exact} exact of ${qs.length}); recall@10 vs exact`,
        `${p(auto.times)}; ${recall(auto.hits)}`,
      );
      row(`scale, ${g.name}: default top-10 p50 / p95 ms, HOT (the same queries repeated)`, p(again.times));
      const exactAlone = await alone(true);
      row(
        `scale, ${g.name}: exact top-10 p50 / p95 ms (exact: true); the SELECT alone p50; adapter ÷ alone`,
        `${p(exact.times)}; ${ms(pct(exactAlone, 50))}; ${ratio(exact.times, exactAlone)}`,
      );
      // HNSW at each efSearch (forced; a small tenant's, whose default is exact, only at the default
      // efSearch: its shared-graph walk is slow), against the same SELECT alone at that ef_search.
      for (const ef of g.sized ? EF_SEARCH : [DEFAULT_EF_SEARCH]) {
        await plain.query(`SET LOCAL hnsw.ef_search = ${ef}`);
        const h = await pass((i) => tenants[i]!, qs, { exact: false, efSearch: ef });
        searches += qs.length;
        const hAlone = await alone(false);
        row(
          `scale, ${g.name}: HNSW efSearch ${ef} (warm): top-10 p50 / p95 ms; recall@10 vs exact; the SELECT alone p50 / p95; adapter ÷ alone (p50)`,
          `${p(h.times)}; ${recall(h.hits)}; ${p(hAlone)}; ${ratio(h.times, hAlone)}`,
        );
      }
      await plain.query(`SET LOCAL hnsw.ef_search = ${DEFAULT_EF_SEARCH}`);
      // The baselines are uncounted.
      row(`scale, ${g.name}: round trips per adapter search`, ms((roundTrips - trips0) / searches));
    }
    await plain.query('COMMIT');
    await plain.end();
  }

  const stats = await pgs.stats();
  row(`database size (MB, tables + indexes)`, Math.round((stats.bytes ?? 0) / 1e6));
  await pgs.close();
} finally {
  await rm(dir, { recursive: true, force: true });
  if (started) execFileSync('bash', [join(ROOT, 'scripts/pg-test-server.sh'), 'stop'], { env: serverEnv });
}
console.table(rows);
console.log(
  [
    '| what | PostgreSQL | SQLite |',
    '|---|---|---|',
    ...rows.map((r) => `| ${r.what} | ${r.postgres} | ${r.sqlite} |`),
  ].join('\n'),
);
