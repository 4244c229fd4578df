import pg from 'pg';
import type { Pool, PoolClient, PoolConfig, QueryResult } from 'pg';
import { ZerdaError, isZerdaError } from '@zerda/core';
import { BaseStorage, ENTRY_COLUMNS, analyze, bm25Idf, bm25TermScore } from '@zerda/core/adapter';
import { checkKey, checkModel } from '@zerda/core/adapter';
import { entryText } from '@zerda/core';
import { entryColumnValues, entryData, entryFromRow, entryOrderSql, inIdOrder, invalid } from '@zerda/core/adapter';
import { systemClock } from '@zerda/core';
import { validateEntry } from '@zerda/core/adapter';
import type { Clock, LexicalHit, LexicalQuery, MemoryEntry, MemoryFilter, MemoryQuery } from '@zerda/core';
import type { EntryRow } from '@zerda/core/adapter';
import type { StorageAdapter, StorageStats, UserProfile, VectorBlock, VectorModel, VectorRecord } from '@zerda/core';
import { backfillChange, localChange, reportOf, resolveChanges, stampRecordId } from '@zerda/core/adapter';
import type { ApplyReport, SyncChange, SyncKind, SyncState } from '@zerda/core';
import type { ChangeRow, ChangeStamp } from '@zerda/core/adapter';
import { EXPORT_VERSION, validateExport } from '@zerda/sqlite';
import type { ExportOptions, ImportReport, ZerdaExport } from '@zerda/sqlite';

/** What an import changed, and the options of {@link PostgresStorage.exportJson}: the same as SQLite's. */
export type { ExportOptions, ImportReport };
import { isConnectionLoss, isRemoteLoss, isRetryable, pgError } from './errors.js';
import { filterSql, stripNul } from './filter-sql.js';
import { inlineParams, sqlLiteral } from './literals.js';
import { SCHEMA_VERSION, checkRoleName, checkSchemaName, isCitus, migrate, schemaVersion } from './schema.js';
import { Transaction } from './transaction.js';
import type { CommitState } from './transaction.js';
import { VECTOR_MAX_DIM, decodeVector, encodeVector, encodeVectorArray } from './vector-binary.js';

/** Options of {@link PostgresStorage.open}. */
export interface PostgresStorageOptions {
  /** `postgresql://user:password@host:port/database` (or a socket: `postgresql://user@localhost/db?host=/run/postgresql`). */
  connectionString?: string;
  /** Extra `pg` pool settings (ssl, timeouts, …). `connectionString` and `max` override theirs. */
  pool?: Omit<PoolConfig, 'connectionString' | 'max'>;
  /**
   * The owner (migrator) role's URL: `open` connects with it once to create or migrate the schema
   * and grant the app role (the one of `connectionString`) what it needs, then closes it. Without
   * it, `open` only checks that the schema is up to date (run {@link PostgresStorage.migrate} as
   * the owner when deploying), unless `allowOwnerRole` lets the app role migrate and own it.
   */
  ownerConnectionString?: string;
  /**
   * The app role owning Zerda's tables could `ALTER`, `DROP` or `TRUNCATE` them or turn row-level
   * security off, so `open` refuses it unless this is true (one role for everything: it then also
   * creates and migrates the schema itself). Default false.
   */
  allowOwnerRole?: boolean;
  /** Most connections this process opens. Default 10. */
  maxConnections?: number;
  /** Schema holding Zerda's tables (created on first open). Default `zerda`. */
  schema?: string;
  /** Source of time for exports. Default `Date.now`. */
  clock?: Clock;
  /**
   * Connecting as a superuser or a `BYPASSRLS` role turns row-level security off, so `open` refuses
   * it unless this is true. Default false: connect as an ordinary role that owns the schema.
   */
  allowRowSecurityBypass?: boolean;
  /**
   * Retries of a transaction that rolled back without writing anything: a lost deadlock or
   * serialization race, or a lost connection (server restart, failover, an admin's kill) before
   * COMMIT was sent; after a lost connection the retry waits 50 ms, 200 ms, 800 ms, ….
   * A connection lost *during* COMMIT is not retried (the outcome is unknown): `STORAGE` with
   * `details.outcome: 'unknown'`. Default 3.
   */
  retries?: number;
  /**
   * {@link PostgresStorage.searchVectors} searches a tenant holding fewer than this many vectors of
   * the model exactly (reads the tenant's rows by primary key and sorts them: recall 1, and far
   * faster than walking an HNSW graph shared with other tenants for a few of its rows), and a larger
   * one with the HNSW index. The tenant's size is counted, up to this bound, in the search's own
   * statement (tenants above it pay that count: ~6–12 % of an HNSW search). 0: always HNSW.
   * Default 1,500: with vectors kept in their rows, exact search of 1,000 rows took 0.6–0.8× the
   * HNSW search's time on a two-worker cluster and of 2,000 rows 1.1× (POSTGRES-RESULTS.md).
   */
  exactSearchBelow?: number;
  /**
   * `maintenance_work_mem` of an HNSW index build after a bulk load ({@link PostgresStorage.importJson},
   * a large {@link PostgresStorage.putVectors}), as PostgreSQL writes sizes (`'256MB'`, `'2GB'`); on
   * Citus each worker builds its shards' indexes with it, several at once. pgvector builds in memory
   * while the graph fits (about 110,000 vectors of 512-d per server or shard in 256MB) and on disk,
   * several times slower, past that: raise it for large imports (1M × 512-d on 4 shards: `'1GB'`).
   * Default `'256MB'`.
   */
  indexBuildMemory?: string;
  /**
   * The HNSW graph of each model's index, fixed when the index is built (on first use, or when a
   * bulk load rebuilds it): `m`, links per node (2–100), and `efConstruction`, the candidate list
   * while building (4–1000, at least `2 * m`). Larger settings find more of the true top-k at a
   * given `efSearch` and build slower: with a 100,000-memory tenant in a 330,000-vector graph
   * (512-d; the size of one shard of the 1M-memory cluster), 16 / 64 gave that tenant recall@10
   * 0.85 / 0.90 / 0.92 at `efSearch` 100 / 200 / 400 and 24 / 128 gave 0.98 / 1.00 / 1.00; its
   * rebuild alone took as long as the whole import with 16 / 64; on the two-worker Citus cluster
   * holding 1,000,000 memories, 24 / 128 gave the 100,000-memory tenant 0.99 / 1.00 / 1.00
   * (test/bench/POSTGRES-RESULTS.md). An index built with other settings (pgvector's own defaults,
   * 16 / 64, before schema migration 8) keeps them until {@link PostgresStorage.rebuildVectorIndexes}.
   * Default {@link DEFAULT_HNSW_INDEX} (24 / 128).
   */
  hnswIndex?: HnswIndexOptions;
}

/** The HNSW graph settings of {@link PostgresStorageOptions.hnswIndex}. */
export interface HnswIndexOptions {
  /** Links per node, 2–100. Default 16. */
  m?: number;
  /** Candidate list size while building, 4–1000 and at least `2 * m`. Default 64. */
  efConstruction?: number;
}

/** Options of {@link PostgresStorage.migrate}. */
export interface MigrateOptions {
  /** The owner (migrator) role's URL. */
  connectionString?: string;
  /** Other `pg` settings. */
  pool?: Omit<PoolConfig, 'connectionString' | 'max'>;
  /** Schema. Default `zerda`. */
  schema?: string;
  /** Roles granted DML on the schema's tables (the app's roles). */
  appRoles?: string[];
}

/** Options of {@link PostgresStorage.searchVectors}. */
export interface VectorSearchOptions {
  /**
   * `true`: exact search (the tenant's rows, sorted by cosine distance); `false`: the HNSW index
   * whatever the tenant's size. Default: exact for a tenant holding fewer than `exactSearchBelow`
   * vectors of the model (see {@link PostgresStorageOptions.exactSearchBelow}), HNSW otherwise.
   */
  exact?: boolean;
  /**
   * HNSW candidate list size (`hnsw.ef_search`); larger is slower and more accurate. Default 200
   * (at 1M memories, a 100,000-memory tenant in a shard of ~330,000: recall@10 0.92 at 100, 0.985 at
   * 200, same latency within noise; test/bench/POSTGRES-RESULTS.md).
   */
  efSearch?: number;
}

/** How many {@link PostgresStorage.searchVectors} calls took each path since the storage opened. */
export interface VectorSearchCounts {
  /** Answered by exact search (a small tenant, `exact: true`, or HNSW finding fewer than k rows). */
  exact: number;
  /** Answered by the HNSW index. */
  hnsw: number;
}

/** A vector search hit: cosine similarity (1 = same direction). */
export interface VectorHit {
  id: string;
  score: number;
}

type Db = Transaction;

const OPTION_KEYS = [
  'connectionString',
  'pool',
  'ownerConnectionString',
  'allowOwnerRole',
  'maxConnections',
  'schema',
  'clock',
  'allowRowSecurityBypass',
  'retries',
  'exactSearchBelow',
  'indexBuildMemory',
  'hnswIndex',
];

/**
 * A {@link StorageAdapter} on PostgreSQL + pgvector, shared by any number of processes.
 *
 * - **Tenant isolation in the database**: every transaction binds its tenant (`SET LOCAL
 *   zerda.tenant`, which Citus also carries to its workers) and forced row-level security on every
 *   table of tenant data lets it see and change only that tenant's rows, whatever SQL runs. The app
 *   role owns nothing (an owner role migrates: `ownerConnectionString` or {@link migrate}), so it
 *   cannot alter, disable, drop or truncate anything either.
 * - **Durability**: a write resolves after its transaction commits. Writes are all-or-nothing.
 * - **Concurrency: optimistic versioning.** A put whose `version` is lower than the stored one is
 *   rejected with `CONFLICT` (a stale write never overwrites a newer update), and
 *   {@link update} does read-modify-write under a row lock (`SELECT … FOR UPDATE`), so concurrent
 *   updates of one memory from many processes all land, none lost. Deadlocks and serialization
 *   failures are retried (the transaction changed nothing).
 * - **Never crashes the process**: every pooled connection has an `'error'` listener; a lost
 *   connection (restart, failover, `pg_terminate_backend`) is a `STORAGE` error, retried when the
 *   transaction provably did not commit (see `retries`), and the pool replaces the connection.
 * - **One round trip per read** (two on Citus): begin, tenant and search settings and the query go as one
 *   message (values quoted as literals by one function, `sqlLiteral`). **Two per write** (three
 *   on Citus): what a put, delete, profile write or update must read (locked) travels with BEGIN;
 *   the rows, postings, change rows and COMMIT go as the second message.
 * - **Lexical search**: core's `analyze` terms in a postings table (`terms`: tenant, term, id, tf),
 *   ranked with core's BM25 (`bm25Idf`, `bm25TermScore`) over per-tenant statistics, so scores
 *   equal the in-memory and SQLite adapters'.
 * - **Vectors**: pgvector columns sent and read in pgvector's binary form, one HNSW (cosine) index
 *   per model and dimension (built after the load for bulk writes), and {@link searchVectors} (HNSW
 *   or exact) for tenants too large to load whole.
 * - **Citus**: the same class on a Citus coordinator; the migrations distribute the tables by
 *   `tenant_id` (colocated) and make the global ones reference tables.
 * - Extras: {@link exportJson}, {@link importJson} (the `zerda-export` format of `@zerda/sqlite`),
 *   {@link update}, {@link searchVectors}.
 *
 * Create with {@link PostgresStorage.open} (or {@link createPostgresStorage}).
 */
export class PostgresStorage extends BaseStorage {
  /** @inheritdoc */
  readonly name = 'postgres';
  /** Schema holding the tables. */
  readonly schema: string;
  /** True when the database is a Citus coordinator. */
  readonly citus: boolean;

  readonly #pool: Pool;
  readonly #s: string;
  readonly #clock: Clock;
  readonly #retries: number;
  readonly #vectorOid: number;
  readonly #vectorIndexes = new Set<string>();
  readonly #exactBelow: number;
  readonly #buildMemory: string;
  readonly #hnsw: Required<HnswIndexOptions>;
  readonly #searches: VectorSearchCounts = { exact: 0, hnsw: 0 };
  #closed = false;
  #seq = 0;
  #closing: Promise<void> | undefined;
  readonly #inFlight = new Set<Promise<unknown>>();

  private constructor(pool: Pool, schema: string, options: PostgresStorageOptions, citus: boolean, vectorOid: number) {
    super();
    this.#pool = pool;
    this.schema = schema;
    this.citus = citus;
    this.#s = `"${schema}"`;
    this.#clock = options.clock ?? systemClock;
    this.#retries = options.retries ?? 3;
    this.#exactBelow = options.exactSearchBelow ?? EXACT_SEARCH_BELOW;
    this.#buildMemory = options.indexBuildMemory ?? BUILD_MEMORY;
    this.#hnsw = { ...DEFAULT_HNSW_INDEX, ...options.hnswIndex };
    this.#vectorOid = vectorOid;
  }

  /** How many vector searches took each path (exact, HNSW) since the storage opened: a copy. */
  get vectorSearchCounts(): VectorSearchCounts {
    return { ...this.#searches };
  }

  /**
   * Connect, check the role (row-level security must apply to it, and it must not own the tables
   * unless `allowOwnerRole`), and bring the schema up to date: as the owner when
   * `ownerConnectionString` is given (once, under an advisory lock, even when many processes open
   * together), as the app role itself when `allowOwnerRole` is set, otherwise only checked. The
   * storage owns its pool: {@link close} ends it.
   */
  static async open(options: PostgresStorageOptions): Promise<PostgresStorage> {
    if (typeof options !== 'object' || options === null || Array.isArray(options))
      invalid('options', 'an object', options);
    for (const k of Object.keys(options))
      if (!OPTION_KEYS.includes(k)) invalid(`options.${k}`, `one of ${OPTION_KEYS.join(', ')}`, k);
    if (
      options.connectionString !== undefined &&
      (typeof options.connectionString !== 'string' || !options.connectionString)
    )
      invalid('connectionString', 'a postgresql:// URL', options.connectionString);
    if (
      options.ownerConnectionString !== undefined &&
      (typeof options.ownerConnectionString !== 'string' || !options.ownerConnectionString)
    )
      invalid('ownerConnectionString', 'a postgresql:// URL', options.ownerConnectionString);
    if (options.allowOwnerRole !== undefined && typeof options.allowOwnerRole !== 'boolean')
      invalid('allowOwnerRole', 'a boolean', options.allowOwnerRole);
    if (options.connectionString === undefined && options.pool === undefined)
      invalid('options', 'a connectionString (or pool settings with host, database, user)', options);
    if (options.pool !== undefined && (typeof options.pool !== 'object' || options.pool === null))
      invalid('pool', 'pg pool settings', options.pool);
    const max = options.maxConnections ?? 10;
    if (!Number.isInteger(max) || max < 1) invalid('maxConnections', 'an integer >= 1', max);
    const retries = options.retries ?? 3;
    if (!Number.isInteger(retries) || retries < 0) invalid('retries', 'an integer >= 0', retries);
    const exactBelow = options.exactSearchBelow ?? EXACT_SEARCH_BELOW;
    if (!Number.isInteger(exactBelow) || exactBelow < 0 || exactBelow > 1_000_000)
      invalid('exactSearchBelow', 'an integer in [0, 1000000]', exactBelow);
    const buildMemory = options.indexBuildMemory ?? BUILD_MEMORY;
    if (typeof buildMemory !== 'string' || !/^[1-9][0-9]{0,6}(kB|MB|GB)$/.test(buildMemory))
      invalid('indexBuildMemory', "a PostgreSQL size such as '256MB' or '2GB'", buildMemory);
    checkHnswIndex(options.hnswIndex);
    if (options.clock !== undefined && typeof options.clock !== 'function')
      invalid('clock', 'a function returning epoch milliseconds', options.clock);
    const schema = checkSchemaName(options.schema ?? 'zerda');
    const pool = newPool(options.pool, options.connectionString, max);
    try {
      const client = await pool.connect().catch((e: unknown) => {
        throw pgError('connect', e);
      });
      try {
        const role = await client.query<{ bypass: boolean; name: string }>(
          'SELECT (rolsuper OR rolbypassrls) AS bypass, rolname AS name FROM pg_roles WHERE rolname = current_user',
        );
        const appRole = role.rows[0]!.name;
        if (role.rows[0]?.bypass && !options.allowRowSecurityBypass)
          throw new ZerdaError(
            'VALIDATION',
            `Role ${appRole} is a superuser or has BYPASSRLS, so row-level security would not isolate tenants: ` +
              'connect as an ordinary role (CREATE ROLE zerda_app LOGIN), or pass allowRowSecurityBypass: true',
          );
        if (options.ownerConnectionString !== undefined)
          await PostgresStorage.migrate({
            connectionString: options.ownerConnectionString,
            ...(options.pool ? { pool: options.pool } : {}),
            schema,
            appRoles: [appRole],
          });
        else if (options.allowOwnerRole)
          await migrate(client, schema).catch((e: unknown) => {
            throw pgError(`migrate schema ${schema} to version ${SCHEMA_VERSION}`, e);
          });
        const found = await schemaVersion(client, schema).catch((e: unknown) => {
          throw pgError(`read the version of schema ${schema} (the app role needs USAGE on it)`, e);
        });
        if (found !== SCHEMA_VERSION)
          throw new ZerdaError(
            'STORAGE',
            found > SCHEMA_VERSION
              ? `Schema "${schema}" is at version ${found}, newer than this @zerda/postgres (${SCHEMA_VERSION}); upgrade the package`
              : `Schema "${schema}" is at version ${found}, this @zerda/postgres needs ${SCHEMA_VERSION}: run PostgresStorage.migrate() as the owner role, ` +
                  'or pass ownerConnectionString (or allowOwnerRole: true to let this role own and migrate it)',
            { details: { found, expected: SCHEMA_VERSION } },
          );
        const owns = await client.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = $1 AND (pg_has_role(current_user, c.relowner, 'USAGE') OR pg_has_role(current_user, n.nspowner, 'USAGE'))`,
          [schema],
        );
        if (owns.rows[0]!.n > 0 && !options.allowOwnerRole)
          throw new ZerdaError(
            'VALIDATION',
            `Role ${appRole} owns schema "${schema}" or its tables, so it could ALTER, DROP or TRUNCATE them and turn row-level security off: ` +
              'migrate as a separate owner role (ownerConnectionString, or PostgresStorage.migrate) and connect as a role that only has the privileges it grants, ' +
              'or pass allowOwnerRole: true',
          );
        const citus = await isCitus(client);
        const oid = await client.query<{ oid: number }>(`SELECT 'vector'::regtype::oid::int AS oid`);
        return new PostgresStorage(pool, schema, options, citus, oid.rows[0]!.oid);
      } finally {
        client.release();
      }
    } catch (e) {
      await pool.end().catch(() => undefined);
      throw pgError('open the storage', e);
    }
  }

  /**
   * Create or migrate the schema as its owner (the role of `connectionString`, which needs CREATE on
   * the database) and grant `appRoles` what the app needs: USAGE on the schema, SELECT, INSERT,
   * UPDATE, DELETE on its tables (no TRUNCATE, no ownership), EXECUTE on the index functions.
   * Resolves to the schema version found before. Run it when deploying a new version, or let
   * `open({ ownerConnectionString })` run it.
   */
  static async migrate(options: MigrateOptions): Promise<number> {
    if (typeof options !== 'object' || options === null) invalid('options', 'an object', options);
    const schema = checkSchemaName(options.schema ?? 'zerda');
    const roles = (options.appRoles ?? []).map(checkRoleName);
    const pool = newPool(options.pool, options.connectionString, 1);
    try {
      const client = await pool.connect().catch((e: unknown) => {
        throw pgError('connect as the owner', e);
      });
      try {
        return await migrate(client, schema, roles).catch((e: unknown) => {
          throw pgError(`migrate schema ${schema} to version ${SCHEMA_VERSION}`, e);
        });
      } finally {
        client.release();
      }
    } finally {
      await pool.end().catch(() => undefined);
    }
  }

  // ---- StorageAdapter hooks (BaseStorage checks the arguments first) ------------------------------

  /**
   * Upsert validated entries in one transaction (all or nothing). `CONFLICT` when a newer version is
   * stored. **Two round trips** per tenant: BEGIN, the binding and what the write must read (the
   * registration's lock, the stored versions and change rows, locked) in one message; the entries,
   * their postings, their change rows and COMMIT in the second.
   */
  protected override async writeEntries(entries: MemoryEntry[], stamp: ChangeStamp): Promise<void> {
    const byTenant = [...groupByTenant(entries)];
    let index = 0;
    const first = byTenant[0]?.[0] ?? null;
    await this.#write(entries.length === 1 ? 'write an entry' : 'write entries', first, async (db, bind) => {
      for (const [g, [tenantId, list]] of byTenant.entries()) {
        await bind(tenantId);
        const latest = latestSorted(list);
        const ids = latest.map((e) => e.id);
        const keys = ids.map((key) => ({ kind: 'entry' as const, key }));
        const [registered, stored, log] = await db.batch([
          this.#registeredSql(tenantId),
          inlineParams(
            `SELECT id, version FROM ${this.#s}.entries WHERE tenant_id = $1 AND id = ANY($2::text[]) ORDER BY id FOR UPDATE`,
            [tenantId, ids],
          ),
          this.#logRowsSql(tenantId, keys, true),
        ]);
        if (registered!.rowCount !== 1) await this.#register(db, tenantId);
        const versions = new Map((stored!.rows as { id: string; version: number }[]).map((r) => [r.id, r.version]));
        const stale = latest
          .filter((e) => (versions.get(e.id) ?? Number.NEGATIVE_INFINITY) > e.version)
          .map((e) => e.id);
        if (stale.length > 0) throw staleConflict(tenantId, stale);
        const prev = logRowsIn(log!, keys);
        const rows = latest.map((e, i) =>
          localChange(prev[i], { tenantId, kind: 'entry', key: e.id }, 'put', stamp, stampRecordId(stamp, index++), e),
        );
        await db.batch(
          [...this.#upsertSql(tenantId, latest, true), this.#logWriteSql(rows)],
          g === byTenant.length - 1,
        );
      }
    });
  }

  /** A copy of the entry, or `undefined`. */
  protected override async readEntry(tenantId: string, id: string): Promise<MemoryEntry | undefined> {
    const rows = await this.#readOnce<EntryRow>(
      'read an entry',
      tenantId,
      `SELECT ${ENTRY_COLUMNS} FROM ${this.#s}.entries e WHERE e.tenant_id = $1 AND e.id = $2`,
      [tenantId, id],
    );
    return rows[0] ? entryFromRow(rows[0]) : undefined;
  }

  /** Copies of the entries found, in the order of `ids` (missing skipped, duplicates once). */
  protected override async readEntries(tenantId: string, ids: string[]): Promise<MemoryEntry[]> {
    const rows = await this.#readOnce<EntryRow>(
      'read entries',
      tenantId,
      `SELECT ${ENTRY_COLUMNS} FROM ${this.#s}.entries e WHERE e.tenant_id = $1 AND e.id = ANY($2::text[])`,
      [tenantId, ids],
    );
    const found = new Map(rows.map((row) => [row.id, row]));
    return inIdOrder(ids, (id) => {
      const row = found.get(id);
      return row && entryFromRow(row);
    });
  }

  /** Delete entries with their postings and vectors (one transaction); resolves to how many existed. */
  protected override async deleteEntries(tenantId: string, ids: string[], stamp: ChangeStamp): Promise<number> {
    // Two round trips: lock, delete the entries and lock their change rows; then the postings,
    // vectors, registration and change rows, and COMMIT.
    return this.#write('delete entries', tenantId, async (db) => {
      const keys = [...ids].sort(compareIds).map((key) => ({ kind: 'entry' as const, key }));
      const [, deleted, log] = await db.batch([
        this.#lockTenantSql(tenantId),
        inlineParams(`DELETE FROM ${this.#s}.entries WHERE tenant_id = $1 AND id = ANY($2::text[]) RETURNING id`, [
          tenantId,
          ids,
        ]),
        this.#logRowsSql(tenantId, keys, true),
      ]);
      const gone = new Set((deleted!.rows as { id: string }[]).map((row) => row.id));
      if (gone.size === 0) return 0;
      const prev = logRowsIn(log!, keys);
      const rows: ChangeRow[] = [];
      for (const [i, k] of keys.entries())
        if (gone.has(k.key))
          rows.push(localChange(prev[i], { tenantId, ...k }, 'delete', stamp, stampRecordId(stamp, rows.length)));
      const goneIds = rows.map((r) => r.key);
      await db.batch(
        [
          inlineParams(`DELETE FROM ${this.#s}.terms WHERE tenant_id = $1 AND id = ANY($2::text[])`, [
            tenantId,
            goneIds,
          ]),
          inlineParams(`DELETE FROM ${this.#s}.vectors WHERE tenant_id = $1 AND id = ANY($2::text[])`, [
            tenantId,
            goneIds,
          ]),
          this.#unregisterSql(tenantId),
          this.#logWriteSql(rows),
        ],
        true,
      );
      return gone.size;
    });
  }

  /** Filtered, ordered (ties by id ascending), paged copies. */
  protected override async queryEntries(query: MemoryQuery): Promise<MemoryEntry[]> {
    const { sql, params } = filterSql(query, 2);
    const n = params.length + 2;
    const rows = await this.#readOnce<EntryRow>(
      'query entries',
      query.tenantId,
      `SELECT ${ENTRY_COLUMNS} FROM ${this.#s}.entries e WHERE e.tenant_id = $1 AND ${sql}
       ORDER BY ${entryOrderSql(query)} LIMIT $${n} OFFSET $${n + 1}`,
      [query.tenantId, ...params, query.limit ?? null, query.offset ?? 0],
    );
    return rows.map(entryFromRow);
  }

  /** Number of entries matching the filter. */
  protected override async countEntries(filter: MemoryFilter): Promise<number> {
    const { sql, params } = filterSql(filter, 2);
    const rows = await this.#readOnce<{ n: number }>(
      'count entries',
      filter.tenantId,
      `SELECT count(*)::float8 AS n FROM ${this.#s}.entries e WHERE e.tenant_id = $1 AND ${sql}`,
      [filter.tenantId, ...params],
    );
    return rows[0]!.n;
  }

  /**
   * BM25 over core's analysed terms with the tenant's statistics (document count, average length,
   * document frequency over the whole tenant); the filter applies before ranking.
   */
  protected override async searchEntries(query: LexicalQuery): Promise<LexicalHit[]> {
    const terms = [...new Set(analyze(query.query))];
    if (terms.length === 0 || query.limit === 0) return [];
    const { sql, params } = filterSql(query.filter ?? {}, 3);
    return this.#read('search entries', query.tenantId, async (db) => {
      const stats = await db.query<{ n: number; total: number; df: Record<string, number> | null }>(
        `SELECT (SELECT count(*) FROM ${this.#s}.entries WHERE tenant_id = $1)::float8 AS n,
                (SELECT coalesce(sum(doc_len), 0) FROM ${this.#s}.entries WHERE tenant_id = $1)::float8 AS total,
                (SELECT json_object_agg(term, df) FROM (SELECT term, count(*) AS df FROM ${this.#s}.terms
                   WHERE tenant_id = $1 AND term = ANY($2::text[]) GROUP BY term) d) AS df`,
        [query.tenantId, terms],
      );
      const { n, total, df } = stats.rows[0]!;
      if (!df) return [];
      const postings = await db.query<{ id: string; term: string; tf: number; doc_len: number }>(
        `SELECT t.id, t.term, t.tf, e.doc_len FROM ${this.#s}.terms t
         JOIN ${this.#s}.entries e ON e.tenant_id = t.tenant_id AND e.id = t.id
         WHERE t.tenant_id = $1 AND t.term = ANY($2::text[]) AND ${sql}`,
        [query.tenantId, Object.keys(df), ...params],
      );
      const avgdl = n > 0 ? total / n || 1 : 1;
      const idf = new Map(Object.entries(df).map(([term, d]) => [term, bm25Idf(n, d)]));
      const scores = new Map<string, number>();
      for (const p of postings.rows)
        scores.set(p.id, (scores.get(p.id) ?? 0) + bm25TermScore(idf.get(p.term)!, p.tf, p.doc_len, avgdl));
      const hits: LexicalHit[] = [];
      for (const [id, score] of scores) if (score > 0) hits.push({ id, score });
      hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      return hits.slice(0, query.limit);
    });
  }

  /**
   * Store vectors of one model, all or nothing; each must have `model.dim` finite floats. Sent in
   * pgvector's binary form. A batch of at least 1,000 vectors that is as large as the model's index
   * loads first and rebuilds the HNSW index after (see `#bulkWrite`).
   */
  protected override async writeVectors(tenantId: string, model: VectorModel, records: VectorRecord[]): Promise<void> {
    checkDimension(model);
    const sorted = [...records].sort((a, b) => compareIds(a.id, b.id));
    await this.#ensureVectorIndex(model);
    await this.#bulkWrite('write vectors', tenantId, [{ model, n: sorted.length }], async (db) => {
      await this.#checkDim(db, tenantId, model);
      await this.#insertVectors(
        db,
        tenantId,
        model,
        sorted.map((r) => r.id),
        sorted.map((r) => r.vector),
      );
    });
  }

  /** Every vector of the tenant for `modelId`, packed, ids ascending; `undefined` when none. */
  protected override async readVectors(tenantId: string, modelId: string): Promise<VectorBlock | undefined> {
    const rows = await this.#readOnce<{ id: string; dim: number; v: Buffer }>(
      'read vectors',
      tenantId,
      `SELECT id, dim, vector_send(embedding) AS v FROM ${this.#s}.vectors WHERE tenant_id = $1 AND model_id = $2 ORDER BY id`,
      [tenantId, modelId],
    );
    if (rows.length === 0) return undefined;
    const dim = rows[0]!.dim;
    return { model: { id: modelId, dim }, ids: rows.map((row) => row.id), data: packVectors(rows, dim) };
  }

  /** Models holding at least one vector of the tenant, by id. */
  protected override async readVectorModels(tenantId: string): Promise<VectorModel[]> {
    const rows = await this.#readOnce<{ id: string; dim: number }>(
      'list vector models',
      tenantId,
      `SELECT model_id AS id, min(dim) AS dim FROM ${this.#s}.vectors WHERE tenant_id = $1 GROUP BY model_id ORDER BY model_id`,
      [tenantId],
    );
    return rows.map((row) => ({ id: row.id, dim: row.dim }));
  }

  /** Delete the tenant's vectors of one model (or all); resolves to rows deleted. */
  protected override async deleteVectorRows(tenantId: string, modelId?: string): Promise<number> {
    return this.#write('delete vectors', tenantId, async (db) => {
      const r = await db.query(
        `DELETE FROM ${this.#s}.vectors WHERE tenant_id = $1 AND ($2::text IS NULL OR model_id = $2)`,
        [tenantId, modelId ?? null],
      );
      return r.rowCount ?? 0;
    });
  }

  /**
   * The `k` nearest vectors of the tenant to `vector` by cosine similarity, best first. A tenant
   * holding fewer than `exactSearchBelow` vectors of the model is searched exactly, a larger one
   * with the model's HNSW index (approximate; pgvector's iterative scan keeps filtering by tenant
   * from starving results); `exact` forces either. One statement, sent alone with the vector in
   * binary, calls the schema's `search_vectors` function, which binds the tenant and the search
   * settings, counts the tenant's rows (up to the bound) and runs the one search that applies; on
   * Citus the coordinator hands the call to the worker holding the tenant. For tenants too large to load with
   * {@link loadVectors}; {@link vectorSearchCounts} says which path the searches took.
   */
  async searchVectors(
    tenantId: string,
    model: VectorModel,
    vector: Float32Array,
    k: number,
    options: VectorSearchOptions = {},
  ): Promise<VectorHit[]> {
    this.assertOpen();
    checkKey('tenantId', tenantId);
    checkModel(model);
    checkDimension(model);
    if (!(vector instanceof Float32Array) || vector.length !== model.dim)
      invalid('vector', `a Float32Array of length ${model.dim}`, vector);
    for (const x of vector) if (!Number.isFinite(x)) invalid('vector', 'finite values', x);
    if (!Number.isInteger(k) || k < 0) invalid('k', 'an integer >= 0', k);
    const ef = options.efSearch ?? DEFAULT_EF_SEARCH;
    if (!Number.isInteger(ef) || ef < 1 || ef > 1000) invalid('efSearch', 'an integer in [1, 1000]', ef);
    if (options.exact !== undefined && typeof options.exact !== 'boolean') invalid('exact', 'a boolean', options.exact);
    if (k === 0) return [];
    const mode = options.exact === true ? 1 : options.exact === false || this.#exactBelow === 0 ? 2 : 0;
    // One statement outside a transaction block (schema migration 6): the function binds the tenant
    // and the search settings itself, and on Citus runs on the worker holding the tenant's shards.
    // The vector travels once, in pgvector's binary form.
    const params = [
      tenantId,
      model.id,
      model.dim,
      encodeVector(vector),
      Math.min(k, 2 ** 31 - 1),
      ef,
      mode,
      this.#exactBelow,
    ];
    const found = await this.#track(
      this.#run('search vectors', 'read', async (client) => {
        const r = await client.query<{ id: string; distance: number; exact: boolean }>(
          `SELECT id, distance, exact FROM ${this.#s}.search_vectors($1, $2, $3, $4, $5, $6, $7, $8)`,
          params,
        );
        return r.rows;
      }),
    );
    // No rows: an empty tenant, searched exactly. Exact rows after HNSW ones: the HNSW scan found
    // fewer than k and the exact search answered.
    const exact = found.length === 0 || found.some((row) => row.exact);
    const rows = exact ? found.filter((row) => row.exact) : found;
    this.#searches[exact ? 'exact' : 'hnsw']++;
    // relaxed_order may return near-ties slightly out of order: sort the final page.
    return rows
      .map((row) => ({ id: row.id, score: 1 - row.distance }))
      .sort((a, b) => b.score - a.score || compareIds(a.id, b.id));
  }

  /** A copy of the profile, or `undefined`. */
  protected override async readProfile(tenantId: string, userId: string): Promise<UserProfile | undefined> {
    const rows = await this.#readOnce<{ data: UserProfile }>(
      'read a profile',
      tenantId,
      `SELECT data FROM ${this.#s}.profiles WHERE tenant_id = $1 AND user_id = $2`,
      [tenantId, userId],
    );
    return rows[0]?.data;
  }

  /** Upsert a profile (validated). */
  protected override async writeProfile(profile: UserProfile, stamp: ChangeStamp): Promise<void> {
    const p = profile;
    // Two round trips, as for entries.
    await this.#write('write a profile', p.tenantId, async (db) => {
      const keys = [{ kind: 'profile' as const, key: p.userId }];
      const [registered, log] = await db.batch([
        this.#registeredSql(p.tenantId),
        this.#logRowsSql(p.tenantId, keys, true),
      ]);
      if (registered!.rowCount !== 1) await this.#register(db, p.tenantId);
      const row = localChange(
        logRowsIn(log!, keys)[0],
        { tenantId: p.tenantId, ...keys[0]! },
        'put',
        stamp,
        stampRecordId(stamp, 0),
      );
      await db.batch([this.#profileWriteSql(p), this.#logWriteSql([row])], true);
    });
  }

  /** The tenant's profiles by `userId` ascending. */
  protected override async readProfiles(tenantId: string): Promise<UserProfile[]> {
    const rows = await this.#readOnce<{ data: UserProfile }>(
      'list profiles',
      tenantId,
      `SELECT data FROM ${this.#s}.profiles WHERE tenant_id = $1 ORDER BY user_id`,
      [tenantId],
    );
    return rows.map((row) => row.data);
  }

  /** Remove the tenant's entries, postings, vectors and profiles; resolves to entries removed. */
  protected override async deleteTenant(tenantId: string, stamp: ChangeStamp): Promise<number> {
    return this.#write('clear a tenant', tenantId, async (db) => {
      const ids = await db.query<{ id: string }>(`SELECT id FROM ${this.#s}.entries WHERE tenant_id = $1 ORDER BY id`, [
        tenantId,
      ]);
      const users = await db.query<{ user_id: string }>(
        `SELECT user_id FROM ${this.#s}.profiles WHERE tenant_id = $1 ORDER BY user_id`,
        [tenantId],
      );
      const n = await this.#clear(db, tenantId);
      await this.#logLocal(
        db,
        tenantId,
        [
          ...ids.rows.map((r) => ({ kind: 'entry' as const, key: r.id, op: 'delete' as const })),
          ...users.rows.map((r) => ({ kind: 'profile' as const, key: r.user_id, op: 'delete' as const })),
        ].map((c, index) => ({ ...c, index })),
        stamp,
      );
      return n;
    });
  }

  /** The database's device id (made on first use; shared by every process on this schema). */
  protected override async readSyncIdentity(): Promise<{ deviceId: string; lastHlc: string | undefined }> {
    return this.#write('read the sync device id', null, async (db) => {
      await db.query(`INSERT INTO ${this.#s}.sync_device (one, device_id) VALUES (1, $1) ON CONFLICT DO NOTHING`, [
        globalThis.crypto.randomUUID(),
      ]);
      const r = await db.query<{ device_id: string }>(`SELECT device_id FROM ${this.#s}.sync_device WHERE one = 1`);
      // Rows are per tenant (row-level security), so there is no cross-tenant latest clock here:
      // localChange keeps every entity's clock increasing anyway.
      return { deviceId: r.rows[0]!.device_id, lastHlc: undefined };
    });
  }

  protected override async readSyncState(tenantId: string): Promise<Omit<SyncState, 'deviceId'>> {
    return this.#read('read the sync state', tenantId, async (db) => {
      const r = await db.query<{ cursor: string | null; pending: number }>(
        `SELECT (SELECT cursor FROM ${this.#s}.sync_cursor WHERE tenant_id = $1) AS cursor,
                (SELECT count(*) FROM ${this.#s}.sync_log WHERE tenant_id = $1 AND pending)::float8 AS pending`,
        [tenantId],
      );
      return { cursor: r.rows[0]?.cursor ?? undefined, pending: Number(r.rows[0]?.pending ?? 0) };
    });
  }

  /** Pending rows with their entry or profile, read in one statement. */
  protected override async readPendingChanges(tenantId: string, limit: number): Promise<SyncChange[]> {
    return this.#read('read pending changes', tenantId, async (db) => {
      const r = await db.query<LogRow & Partial<EntryRow> & { pdata: UserProfile | null; eid: string | null }>(
        `SELECT l.tenant_id AS l_tenant, l.kind AS l_kind, l.key AS l_key, l.record_id, l.op, l.hlc, l.device_id,
                l.pending, l.clock, l.counters, e.id AS eid, ${ENTRY_COLUMNS}, p.data AS pdata
         FROM ${this.#s}.sync_log l
         LEFT JOIN ${this.#s}.entries e ON l.kind = 'entry' AND l.op = 'put' AND e.tenant_id = l.tenant_id AND e.id = l.key
         LEFT JOIN ${this.#s}.profiles p ON l.kind = 'profile' AND l.op = 'put' AND p.tenant_id = l.tenant_id AND p.user_id = l.key
         WHERE l.tenant_id = $1 AND l.pending ORDER BY l.seq LIMIT $2`,
        [tenantId, limit],
      );
      return r.rows.map((row) => {
        const { pending: _p, ...meta } = logRowToChange(row);
        const change: SyncChange = meta;
        if (row.eid !== null) change.entry = entryFromRow(row as EntryRow);
        if (row.pdata !== null) change.profile = row.pdata;
        return change;
      });
    });
  }

  protected override async writePushed(tenantId: string, recordIds: string[]): Promise<number> {
    return this.#write('mark changes pushed', tenantId, async (db) => {
      const r = await db.query(
        `UPDATE ${this.#s}.sync_log SET pending = false WHERE tenant_id = $1 AND pending AND record_id = ANY($2::text[])`,
        [tenantId, recordIds],
      );
      return r.rowCount ?? 0;
    });
  }

  /**
   * Merge by core's `resolveChanges` under row locks, all in one transaction with the cursor. **Two
   * round trips** (three on Citus): BEGIN, the tenant's lock and every affected change row, entry
   * and profile (locked) in one message; the resolved writes, the expired tombstones, the cursor and
   * COMMIT in the second (a first write of an unregistered tenant registers it in between).
   */
  protected override async mergeChanges(
    tenantId: string,
    changes: SyncChange[],
    cursor: string | undefined,
    horizon: string,
  ): Promise<ApplyReport> {
    const s = this.#s;
    const keyOf = (kind: SyncKind, key: string) => `${kind}\u0000${key}`;
    const unique = new Map(changes.map((c) => [keyOf(c.kind, c.key), { kind: c.kind, key: c.key }]));
    // Sorted, as #logRowsSql locks them: concurrent merges lock rows in the same order.
    const keys = [...unique.values()].sort((a, b) => compareIds(a.kind, b.kind) || compareIds(a.key, b.key));
    const ids = keys.filter((k) => k.kind === 'entry').map((k) => k.key);
    const users = keys.filter((k) => k.kind === 'profile').map((k) => k.key);
    return this.#write('apply sync changes', tenantId, async (db) => {
      const [registered, log, stored, profiles] = await db.batch([
        this.#lockTenantSql(tenantId),
        this.#logRowsSql(tenantId, keys, true),
        inlineParams(
          `SELECT ${ENTRY_COLUMNS} FROM ${s}.entries e WHERE e.tenant_id = $1 AND e.id = ANY($2::text[]) ORDER BY e.id FOR UPDATE`,
          [tenantId, ids],
        ),
        inlineParams(
          `SELECT user_id, data FROM ${s}.profiles WHERE tenant_id = $1 AND user_id = ANY($2::text[]) ORDER BY user_id FOR UPDATE`,
          [tenantId, users],
        ),
      ]);
      const rowOf = new Map(logRowsIn(log!, keys).map((row, i) => [keyOf(keys[i]!.kind, keys[i]!.key), row]));
      const entries = new Map((stored!.rows as EntryRow[]).map((row) => [row.id, entryFromRow(row)]));
      const found = new Map(
        (profiles!.rows as { user_id: string; data: UserProfile }[]).map((r) => [r.user_id, r.data]),
      );
      const r = resolveChanges(changes, {
        row: (kind, key) => rowOf.get(keyOf(kind, key)),
        entry: (id) => entries.get(id),
        profile: (userId) => found.get(userId),
      });
      const report = reportOf(r, (id) => entries.has(id));
      const put = [...r.entries.values()].filter((e): e is MemoryEntry => e !== null);
      const putProfiles = [...r.profiles.values()].filter((p): p is UserProfile => p !== null);
      const gone = [...r.profiles].filter(([, p]) => p === null).map(([userId]) => userId);
      if ((put.length > 0 || putProfiles.length > 0) && registered!.rowCount !== 1) await this.#register(db, tenantId);
      const removed = report.entriesRemoved;
      await db.batch(
        [
          ...(removed.length > 0
            ? ['entries', 'terms', 'vectors'].map((t) =>
                inlineParams(`DELETE FROM ${s}.${t} WHERE tenant_id = $1 AND id = ANY($2::text[])`, [
                  tenantId,
                  removed,
                ]),
              )
            : []),
          ...(put.length > 0 ? this.#upsertSql(tenantId, latestSorted(put), false) : []),
          ...(gone.length > 0
            ? [
                inlineParams(`DELETE FROM ${s}.profiles WHERE tenant_id = $1 AND user_id = ANY($2::text[])`, [
                  tenantId,
                  gone,
                ]),
              ]
            : []),
          ...putProfiles.map((p) => this.#profileWriteSql(p)),
          ...(r.rows.size > 0 ? [this.#logWriteSql([...r.rows.values()])] : []),
          // The SQL form of core's isExpiredTombstone.
          inlineParams(
            `DELETE FROM ${s}.sync_log WHERE tenant_id = $1 AND op = 'delete' AND NOT pending AND hlc < $2`,
            [tenantId, horizon],
          ),
          ...(cursor !== undefined
            ? [
                inlineParams(
                  `INSERT INTO ${s}.sync_cursor (tenant_id, cursor) VALUES ($1, $2)
                   ON CONFLICT (tenant_id) DO UPDATE SET cursor = EXCLUDED.cursor`,
                  [tenantId, cursor],
                ),
              ]
            : []),
          this.#unregisterSql(tenantId),
        ],
        true,
      );
      return report;
    });
  }

  /** Change rows for the tenant's entities that have none (a schema older than migration 3, an import). */
  protected override async backfillChanges(tenantId: string, stamp: ChangeStamp): Promise<number> {
    const missing = (db: Db) =>
      Promise.all([
        db.query<EntryRow>(
          `SELECT ${ENTRY_COLUMNS} FROM ${this.#s}.entries e WHERE e.tenant_id = $1 AND NOT EXISTS
             (SELECT 1 FROM ${this.#s}.sync_log l WHERE l.tenant_id = e.tenant_id AND l.kind = 'entry' AND l.key = e.id)
           ORDER BY e.id`,
          [tenantId],
        ),
        db.query<{ user_id: string }>(
          `SELECT p.user_id FROM ${this.#s}.profiles p WHERE p.tenant_id = $1 AND NOT EXISTS
             (SELECT 1 FROM ${this.#s}.sync_log l WHERE l.tenant_id = p.tenant_id AND l.kind = 'profile' AND l.key = p.user_id)
           ORDER BY p.user_id`,
          [tenantId],
        ),
      ]);
    const [e0, p0] = await this.#read('look for entities without change rows', tenantId, missing);
    if (e0.rows.length === 0 && p0.rows.length === 0) return 0;
    return this.#write('backfill the change log', tenantId, async (db) => {
      await this.#lockTenant(db, tenantId);
      const [e, p] = await missing(db);
      const entries = e.rows.map(entryFromRow);
      const rows = [
        ...entries.map((entry, i) =>
          backfillChange({ tenantId, kind: 'entry', key: entry.id }, stamp, stampRecordId(stamp, i), entry),
        ),
        ...p.rows.map((r, i) =>
          backfillChange(
            { tenantId, kind: 'profile', key: r.user_id },
            stamp,
            stampRecordId(stamp, entries.length + i),
          ),
        ),
      ];
      // A statement per 1,000 change rows rather than a round trip per entity.
      for (let i = 0; i < rows.length; i += 1000) await db.batch([this.#logWriteSql(rows.slice(i, i + 1000))]);
      return entries.length + p.rows.length;
    });
  }

  /** Tenants holding an entry or a profile, sorted. */
  protected override async readTenants(): Promise<string[]> {
    return this.#read('list tenants', null, async (db) => {
      const r = await db.query<{ tenant_id: string }>(`SELECT tenant_id FROM ${this.#s}.tenants ORDER BY tenant_id`);
      return r.rows.map((row) => row.tenant_id);
    });
  }

  /**
   * Counts for one tenant or all; `bytes` (all tenants only) is the size of Zerda's tables and
   * indexes on disk — on Citus, of their shards on every node (reference tables counted once per node).
   */
  protected override async readStats(tenantId?: string): Promise<StorageStats> {
    const total: StorageStats = { entries: 0, byTier: {}, byKind: {}, profiles: 0, vectors: 0 };
    const tenants = tenantId === undefined ? await this.listTenants() : [tenantId];
    await this.#read('compute statistics', null, async (db) => {
      for (const t of tenants) {
        await this.#bind(db, t);
        const r = await db.query<{
          tiers: Record<string, number> | null;
          kinds: Record<string, number> | null;
          profiles: number;
          vectors: number;
        }>(
          `SELECT (SELECT json_object_agg(tier, n) FROM (SELECT tier, count(*) AS n FROM ${this.#s}.entries WHERE tenant_id = $1 GROUP BY tier) a) AS tiers,
                  (SELECT json_object_agg(kind, n) FROM (SELECT kind, count(*) AS n FROM ${this.#s}.entries WHERE tenant_id = $1 GROUP BY kind) b) AS kinds,
                  (SELECT count(*) FROM ${this.#s}.profiles WHERE tenant_id = $1)::float8 AS profiles,
                  (SELECT count(*) FROM ${this.#s}.vectors WHERE tenant_id = $1)::float8 AS vectors`,
          [t],
        );
        const row = r.rows[0]!;
        for (const [tier, n] of Object.entries(row.tiers ?? {})) {
          total.byTier[tier] = (total.byTier[tier] ?? 0) + n;
          total.entries += n;
        }
        for (const [kind, n] of Object.entries(row.kinds ?? {})) total.byKind[kind] = (total.byKind[kind] ?? 0) + n;
        total.profiles += row.profiles;
        total.vectors += row.vectors;
      }
      if (tenantId === undefined) {
        // On Citus the coordinator's tables are empty shells: a distributed or reference table's size
        // is its shards' on every node (citus_total_relation_size; a reference table once per node).
        const size = this.citus
          ? `CASE WHEN EXISTS (SELECT 1 FROM pg_dist_partition p WHERE p.logicalrelid = c.oid)
             THEN citus_total_relation_size(c.oid) ELSE pg_total_relation_size(c.oid) END`
          : 'pg_total_relation_size(c.oid)';
        const r = await db.query<{ bytes: number }>(
          `SELECT coalesce(sum(${size}), 0)::float8 AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = $1 AND c.relkind = 'r'`,
          [this.schema],
        );
        total.bytes = r.rows[0]!.bytes;
      }
    });
    return total;
  }

  /**
   * Wait for calls in flight, then close the pool. Idempotent: later calls to `close` resolve
   * (with the first close); every other method rejects with `CLOSED`.
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#closed = true;
      await Promise.allSettled([...this.#inFlight]);
      await this.#pool.end().catch(() => undefined);
    })();
    return this.#closing;
  }

  // ---- Extras -----------------------------------------------------------------------------------

  /**
   * Read-modify-write of one entry under a row lock (`SELECT … FOR UPDATE`): `fn` gets the current
   * entry and returns the next one (or `undefined` to leave it). Concurrent updates of the same
   * memory from any number of processes run one after another, so none is lost. Resolves to what
   * was stored (`undefined` when the entry does not exist or `fn` declined). The returned entry
   * must keep its tenant and id; its `version` is set to the stored version + 1 unless `fn` raised it.
   */
  async update(
    tenantId: string,
    id: string,
    fn: (current: MemoryEntry) => MemoryEntry | undefined,
  ): Promise<MemoryEntry | undefined> {
    this.assertOpen();
    checkKey('tenantId', tenantId);
    checkKey('id', id);
    if (typeof fn !== 'function') invalid('fn', 'a function (current entry) => next entry', fn);
    // Before the transaction: the first stamp of a tenant may backfill its change log in one of its own.
    const s = await this.stamp(tenantId);
    // Two round trips: the row (locked), the registration and the change row; then the write and COMMIT.
    return this.#write('update an entry', tenantId, async (db) => {
      const keys = [{ kind: 'entry' as const, key: id }];
      const [r, registered, log] = await db.batch<EntryRow>([
        inlineParams(
          `SELECT ${ENTRY_COLUMNS} FROM ${this.#s}.entries e WHERE e.tenant_id = $1 AND e.id = $2 FOR UPDATE`,
          [tenantId, id],
        ),
        this.#registeredSql(tenantId),
        this.#logRowsSql(tenantId, keys, true),
      ]);
      if (!r!.rows[0]) return undefined;
      const current = entryFromRow(r!.rows[0]);
      const proposed = fn(structuredClone(current));
      if (proposed === undefined) return undefined;
      const next = validateEntry({ ...proposed, version: Math.max(proposed.version, current.version + 1) });
      if (next.tenantId !== tenantId || next.id !== id)
        invalid('update result', `the same tenantId and id (${tenantId}, ${id})`, `${next.tenantId}, ${next.id}`);
      if (registered!.rowCount !== 1) await this.#register(db, tenantId);
      const row = localChange(logRowsIn(log!, keys)[0], { tenantId, ...keys[0]! }, 'put', s, stampRecordId(s, 0), next);
      await db.batch([...this.#upsertSql(tenantId, [next], false), this.#logWriteSql([row])], true);
      return structuredClone(next);
    });
  }

  /** Export entries and profiles (optionally one tenant, optionally vectors) as versioned JSON (`zerda-export`). */
  async exportJson(options: ExportOptions = {}): Promise<ZerdaExport> {
    this.assertOpen();
    if (typeof options !== 'object' || options === null) invalid('options', 'an object', options);
    if (options.tenantId !== undefined) checkKey('options.tenantId', options.tenantId);
    const tenants = options.tenantId === undefined ? await this.listTenants() : [options.tenantId];
    const doc: ZerdaExport = {
      format: 'zerda-export',
      version: EXPORT_VERSION,
      exportedAt: this.#clock(),
      ...(options.tenantId === undefined ? {} : { tenants: [options.tenantId] }),
      entries: [],
      profiles: [],
      ...(options.includeVectors ? { vectors: [] } : {}),
    };
    // One repeatable-read transaction: the export is a consistent snapshot of every tenant.
    await this.#read(
      'export',
      null,
      async (db) => {
        for (const t of tenants) {
          await this.#bind(db, t);
          const e = await db.query<EntryRow>(
            `SELECT ${ENTRY_COLUMNS} FROM ${this.#s}.entries e WHERE e.tenant_id = $1 ORDER BY e.id`,
            [t],
          );
          doc.entries.push(...e.rows.map(entryFromRow));
          const p = await db.query<{ data: UserProfile }>(
            `SELECT data FROM ${this.#s}.profiles WHERE tenant_id = $1 ORDER BY user_id`,
            [t],
          );
          doc.profiles.push(...p.rows.map((row) => row.data));
          if (!options.includeVectors) continue;
          const models = await db.query<{ model_id: string }>(
            `SELECT DISTINCT model_id FROM ${this.#s}.vectors WHERE tenant_id = $1 ORDER BY model_id`,
            [t],
          );
          for (const { model_id } of models.rows) {
            const v = await db.query<{ id: string; dim: number; v: Buffer }>(
              `SELECT id, dim, vector_send(embedding) AS v FROM ${this.#s}.vectors WHERE tenant_id = $1 AND model_id = $2 ORDER BY id`,
              [t, model_id],
            );
            const dim = v.rows[0]!.dim;
            const data = packVectors(v.rows, dim);
            doc.vectors!.push({
              tenantId: t,
              model: { id: model_id, dim },
              ids: v.rows.map((row) => row.id),
              data: Buffer.from(data.buffer).toString('base64'),
            });
          }
        }
      },
      'REPEATABLE READ',
    );
    return doc;
  }

  /**
   * Import an export (object or JSON text), validated whole first, written in one transaction (all
   * or nothing). `mode: 'merge'` (default) upserts; `'replace'` first removes everything of the
   * tenants the document covers (its `tenants` when tenant-limited, else every tenant in the
   * database and in the document).
   */
  async importJson(input: ZerdaExport | string, options: { mode?: 'merge' | 'replace' } = {}): Promise<ImportReport> {
    this.assertOpen();
    const mode = options.mode ?? 'merge';
    if (mode !== 'merge' && mode !== 'replace') invalid('options.mode', "'merge' | 'replace'", mode);
    const valid = validateExport(input);
    const replace = mode === 'replace';
    const entries = groupByTenant(valid.entries);
    const profiles = groupByTenant(valid.profiles);
    const vectors = new Map<string, typeof valid.vectors>();
    for (const g of valid.vectors) vectors.set(g.tenantId, [...(vectors.get(g.tenantId) ?? []), g]);
    const cleared = replace ? (valid.tenants ?? (await this.listTenants())) : [];
    const tenants = [...new Set([...cleared, ...entries.keys(), ...profiles.keys(), ...vectors.keys()])].sort(
      compareIds,
    );
    for (const g of valid.vectors) checkDimension(g.model);
    for (const g of valid.vectors) await this.#ensureVectorIndex(g.model);
    // The index suspension covers the whole import: each model's vectors of every tenant.
    const loads = new Map<string, { model: VectorModel; n: number }>();
    for (const g of valid.vectors) {
      const key = `${g.model.dim}:${g.model.id}`;
      loads.set(key, { model: g.model, n: (loads.get(key)?.n ?? 0) + g.ids.length });
    }
    return this.#bulkWrite('import', tenants[0] ?? null, [...loads.values()], async (db, bind) => {
      const report: ImportReport = { added: 0, updated: 0, profiles: 0, vectors: 0 };
      for (const t of tenants) {
        await bind(t);
        if (cleared.includes(t)) await this.#clear(db, t);
        const list = entries.get(t) ?? [];
        if (list.length > 0) {
          const before = await db.query<{ n: number }>(
            `SELECT count(*)::float8 AS n FROM ${this.#s}.entries WHERE tenant_id = $1 AND id = ANY($2::text[])`,
            [t, list.map((e) => e.id)],
          );
          report.updated += before.rows[0]!.n;
          report.added += new Set(list.map((e) => e.id)).size - before.rows[0]!.n;
          await this.#upsert(db, t, latestSorted(list));
        }
        for (const p of profiles.get(t) ?? []) {
          await this.#writeProfileRow(db, p);
          report.profiles++;
        }
        for (const g of vectors.get(t) ?? []) {
          await this.#checkDim(db, t, g.model);
          const d = g.model.dim;
          await this.#insertVectors(
            db,
            t,
            g.model,
            g.ids,
            g.ids.map((_, i) => g.data.subarray(i * d, (i + 1) * d)),
          );
          report.vectors += g.ids.length;
        }
      }
      return report;
    }).finally(() => {
      // Imported entities carry no change rows: the next sync call backfills them.
      this.changeLogGaps();
    });
  }

  // ---- internals --------------------------------------------------------------------------------

  protected override assertOpen(): void {
    if (this.#closed) throw new ZerdaError('CLOSED', 'PostgresStorage is closed');
  }

  #track<T>(p: Promise<T>): Promise<T> {
    this.#inFlight.add(p);
    void p.finally(() => this.#inFlight.delete(p)).catch(() => undefined);
    return p;
  }

  /**
   * The statements that open a transaction bound to `tenantId` (none: only the registry is
   * visible) with `settings` as `SET LOCAL`s, joined for one round trip. `SET LOCAL`, not
   * `set_config(…, true)`: with `citus.propagate_set_commands = 'local'` Citus sends it to the
   * workers, which never see `set_config`.
   */
  #begin(begin: string, tenantId: string | null, settings: Readonly<Record<string, string>> = {}): string[] {
    const parts = [begin];
    if (this.citus) parts.push(`SET LOCAL citus.propagate_set_commands = 'local'`);
    if (tenantId !== null) parts.push(`SET LOCAL zerda.tenant = ${sqlLiteral(tenantId)}`);
    for (const [k, v] of Object.entries(settings)) parts.push(`SET LOCAL ${k} = ${sqlLiteral(v)}`);
    return parts;
  }

  async #bind(db: Db, tenantId: string): Promise<void> {
    await db.query(`SET LOCAL zerda.tenant = ${sqlLiteral(tenantId)}`);
  }

  /** A read-only transaction bound to `tenantId` (or to no tenant: only the registry is visible). */
  #read<T>(
    what: string,
    tenantId: string | null,
    fn: (db: Db) => Promise<T>,
    isolation = 'READ COMMITTED',
  ): Promise<T> {
    return this.#track(
      this.#run(what, 'read', async (client, state) => {
        const db = new Transaction(
          client,
          this.#begin(`BEGIN ISOLATION LEVEL ${isolation} READ ONLY`, tenantId),
          state,
          this.citus,
        );
        const out = await fn(db);
        await db.commit();
        return out;
      }),
    );
  }

  /**
   * One statement in a read-only transaction bound to `tenantId`, in **one round trip** (two on
   * Citus): BEGIN, the `SET LOCAL`s, the statement (its `$n` replaced by quoted literals) and
   * COMMIT go as one simple-protocol message. Values PostgreSQL text cannot hold (U+0000) are
   * `VALIDATION`.
   */
  #readOnce<R extends object>(
    what: string,
    tenantId: string,
    sql: string,
    params: readonly unknown[],
    settings?: Readonly<Record<string, string>>,
  ): Promise<R[]> {
    let messages: string[];
    try {
      const begin = this.#begin('BEGIN ISOLATION LEVEL READ COMMITTED READ ONLY', tenantId, settings).join('; ');
      const query = `${inlineParams(sql, params)}; COMMIT`;
      // Citus sends a SET's whole message text to the workers: there the SETs travel alone (two
      // round trips), or the workers would run the query too.
      messages = this.citus ? [begin, query] : [`${begin}; ${query}`];
    } catch (e) {
      return Promise.reject(e);
    }
    return this.#track(
      this.#run(what, 'read', async (db) => {
        let results: QueryResult<R>[] = [];
        for (const m of messages) results = (await db.query(m)) as unknown as QueryResult<R>[];
        return results[results.length - 2]!.rows;
      }),
    );
  }

  /**
   * A write transaction bound to `tenantId`; `bind(tenant)` switches the bound tenant (callers
   * visit tenants in sorted order so concurrent multi-tenant writes lock in the same order).
   * BEGIN and the binding ride with the first statements (see `Transaction`); a write that
   * batches its statements commits with its last message. Retried as `retries` says (deadlock,
   * serialization failure, connection lost before COMMIT).
   */
  #write<T>(
    what: string,
    tenantId: string | null,
    fn: (db: Db, bind: (tenantId: string) => Promise<void>) => Promise<T>,
  ): Promise<T> {
    return this.#track(
      this.#run(what, 'write', async (client, state) => {
        let bound = tenantId;
        const db = new Transaction(client, this.#begin('BEGIN', tenantId), state, this.citus);
        const out = await fn(db, async (t) => {
          if (t === bound) return;
          await this.#bind(db, t);
          bound = t;
        });
        await db.commit();
        return out;
      }),
    );
  }

  /**
   * Run `fn` on a pooled connection, with the retry rules of `retries`. On failure the transaction
   * is rolled back (or the connection discarded when it is gone) and the error becomes a typed
   * `ZerdaError`. The connection's `'error'` events are handled by {@link newPool}'s listener.
   */
  async #run<T>(
    what: string,
    kind: 'read' | 'write',
    fn: (client: PoolClient, state: CommitState) => Promise<T>,
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const state = { committing: false };
      let client: PoolClient | undefined;
      try {
        client = await this.#pool.connect();
        const out = await fn(client, state);
        client.release();
        return out;
      } catch (e) {
        const lost = isConnectionLoss(e);
        if (client) {
          let broken: Error | undefined = lost ? (e as Error) : undefined;
          if (!broken)
            await client.query('ROLLBACK').catch((err: unknown) => {
              broken = err instanceof Error ? err : new Error(String(err));
            });
          client.release(broken ?? false);
        }
        if (isZerdaError(e)) throw e;
        // A lost worker reported by the Citus coordinator aborted the transaction: not written.
        const unknownOutcome = lost && kind === 'write' && state.committing && !isRemoteLoss(e);
        const again = attempt < this.#retries && !this.#closed && (isRetryable(e) || (lost && !unknownOutcome));
        if (again) {
          if (lost) await sleep(50 * 4 ** attempt);
          continue;
        }
        throw pgError(
          client ? what : `connect to ${what}`,
          e,
          lost
            ? {
                connectionLost: true,
                attempts: attempt + 1,
                ...(unknownOutcome ? { outcome: 'unknown' } : kind === 'write' ? { outcome: 'not-written' } : {}),
              }
            : undefined,
        );
      }
    }
  }

  /**
   * Register the tenant (the row `listTenants` reads) and hold a shared lock on it until commit,
   * so a concurrent delete cannot drop the registration of a tenant this transaction writes to.
   */
  /** A row when the tenant is registered, which it then holds a shared lock on (see `#register`). */
  #registeredSql(tenantId: string): string {
    return inlineParams(`SELECT 1 FROM ${this.#s}.tenants WHERE tenant_id = $1 FOR KEY SHARE`, [tenantId]);
  }

  async #register(db: Db, tenantId: string): Promise<void> {
    // Usually the tenant is registered already: one statement. A registration being deleted
    // concurrently (clearTenant) is waited for, then found gone, and made again.
    for (let i = 0; i < 10; i++) {
      const lock = await db.query(`SELECT 1 FROM ${this.#s}.tenants WHERE tenant_id = $1 FOR KEY SHARE`, [tenantId]);
      if (lock.rowCount === 1) return;
      const ins = await db.query(`INSERT INTO ${this.#s}.tenants (tenant_id) VALUES ($1) ON CONFLICT DO NOTHING`, [
        tenantId,
      ]);
      if (ins.rowCount === 1) return;
    }
    throw new ZerdaError('CONFLICT', `Tenant ${tenantId} is being cleared and written at the same time; retry`);
  }

  /** Exclusive lock on the tenant's registration (before deletes: see `#unregisterSql`). */
  #lockTenantSql(tenantId: string): string {
    return inlineParams(`SELECT 1 FROM ${this.#s}.tenants WHERE tenant_id = $1 FOR UPDATE`, [tenantId]);
  }

  async #lockTenant(db: Db, tenantId: string): Promise<void> {
    await db.batch([this.#lockTenantSql(tenantId)]);
  }

  /** Drop the registration of a tenant left without entries and profiles. */
  #unregisterSql(tenantId: string): string {
    return inlineParams(
      `DELETE FROM ${this.#s}.tenants WHERE tenant_id = $1
       AND NOT EXISTS (SELECT 1 FROM ${this.#s}.entries WHERE tenant_id = $1)
       AND NOT EXISTS (SELECT 1 FROM ${this.#s}.profiles WHERE tenant_id = $1)`,
      [tenantId],
    );
  }

  /**
   * Upsert entries of one tenant (the transaction is bound to it, and registered: `#register`)
   * and their postings, one message. `entries` come from `latestSorted`.
   */
  async #upsert(db: Db, tenantId: string, entries: MemoryEntry[]): Promise<void> {
    await this.#register(db, tenantId);
    await db.batch(this.#upsertSql(tenantId, entries, false));
  }

  /**
   * The two statements writing `entries` (from `latestSorted`) of the bound tenant: the rows,
   * then their postings. With `guard`, an entry a concurrent transaction stored with a newer version
   * in the meantime (a new id written by two at once: no row to lock beforehand) is not overwritten,
   * and the statement fails with a serialization failure, so the transaction is retried and then
   * reports `CONFLICT` from the versions it reads.
   */
  #upsertSql(tenantId: string, entries: MemoryEntry[], guard: boolean): string[] {
    const rows = entries.map((e) => {
      const text = entryText(e);
      const terms = analyze(text);
      return {
        e,
        terms,
        row: [...entryColumnValues(e), e.version, e.tags, terms.length, stripNul(text.toLowerCase()), entryData(e)],
      };
    });
    const insert = inlineParams(
      `INSERT INTO ${this.#s}.entries AS x (tenant_id, id, user_id, tier, kind, created_at, last_access, importance, version, tags, doc_len, text_lc, data)
       SELECT $1, r.id, r.user_id, r.tier, r.kind, r.created_at, r.last_access, r.importance, r.version,
              ARRAY(SELECT json_array_elements_text(r.tags)), r.doc_len, r.text_lc, d.data::json
       FROM json_to_recordset($2::json) AS r(n integer, id text, user_id text, tier text, kind text, created_at float8, last_access float8,
            importance float8, version integer, tags json, doc_len integer, text_lc text)
       -- The JSON part travels as text: the json type keeps an escaped U+0000 that json_to_recordset would reject.
       JOIN unnest($3::text[]) WITH ORDINALITY AS d(data, n) ON d.n = r.n
       ON CONFLICT (tenant_id, id) DO UPDATE SET user_id = EXCLUDED.user_id, tier = EXCLUDED.tier, kind = EXCLUDED.kind,
         created_at = EXCLUDED.created_at, last_access = EXCLUDED.last_access, importance = EXCLUDED.importance,
         version = EXCLUDED.version, tags = EXCLUDED.tags, doc_len = EXCLUDED.doc_len, text_lc = EXCLUDED.text_lc, data = EXCLUDED.data
       ${guard ? 'WHERE x.version <= EXCLUDED.version RETURNING 1' : ''}`,
      [
        tenantId,
        JSON.stringify(
          rows.map(({ row }, i) => ({
            n: i + 1,
            id: row[0],
            user_id: row[1],
            tier: row[2],
            kind: row[3],
            created_at: row[4],
            last_access: row[5],
            importance: row[6],
            version: row[7],
            tags: row[8],
            doc_len: row[9],
            text_lc: row[10],
          })),
        ),
        rows.map(({ row }) => JSON.stringify(row[11])),
      ],
    );
    const ids = entries.map((e) => e.id);
    const pIds: string[] = [];
    const pTerms: string[] = [];
    const pTf: number[] = [];
    for (const { e, terms } of rows) {
      const tf = new Map<string, number>();
      for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [term, n] of tf) {
        pIds.push(e.id);
        pTerms.push(term);
        pTf.push(n);
      }
    }
    return [
      guard
        ? `WITH w AS (${insert}) SELECT ${this.#s}.check_written((SELECT count(*)::int FROM w), ${entries.length})`
        : insert,
      // Postings the new text no longer has are deleted, the others upserted (the DELETE and the
      // INSERT see the same snapshot and touch disjoint rows).
      inlineParams(
        `WITH fresh AS (SELECT t.id, t.term, t.tf FROM unnest($3::text[], $4::text[], $5::int[]) AS t(id, term, tf)),
         gone AS (DELETE FROM ${this.#s}.terms x WHERE x.tenant_id = $1 AND x.id = ANY($2::text[])
                  AND NOT EXISTS (SELECT 1 FROM fresh f WHERE f.id = x.id AND f.term = x.term))
         INSERT INTO ${this.#s}.terms (tenant_id, term, id, tf) SELECT $1, f.term, f.id, f.tf FROM fresh f
         ON CONFLICT (tenant_id, term, id) DO UPDATE SET tf = EXCLUDED.tf WHERE ${this.#s}.terms.tf <> EXCLUDED.tf`,
        [tenantId, ids, pIds, pTerms, pTf],
      ),
    ];
  }

  #profileWriteSql(p: UserProfile): string {
    return inlineParams(
      `INSERT INTO ${this.#s}.profiles (tenant_id, user_id, data) VALUES ($1, $2, $3::json)
       ON CONFLICT (tenant_id, user_id) DO UPDATE SET data = EXCLUDED.data`,
      [p.tenantId, p.userId, JSON.stringify(p)],
    );
  }

  async #writeProfileRow(db: Db, p: UserProfile): Promise<void> {
    await this.#register(db, p.tenantId);
    await db.batch([this.#profileWriteSql(p)]);
  }

  /** The SELECT of these entities' change rows (locked with `forUpdate`); read with `logRowsIn`. */
  #logRowsSql(tenantId: string, keys: readonly { kind: SyncKind; key: string }[], forUpdate: boolean): string {
    return inlineParams(
      `SELECT l.tenant_id AS l_tenant, l.kind AS l_kind, l.key AS l_key, l.record_id, l.op, l.hlc, l.device_id, l.pending, l.clock, l.counters
       FROM ${this.#s}.sync_log l
       JOIN unnest($2::text[], $3::text[]) AS k(kind, key) ON l.kind = k.kind AND l.key = k.key
       WHERE l.tenant_id = $1 ORDER BY l.kind, l.key ${forUpdate ? 'FOR UPDATE OF l' : ''}`,
      [tenantId, keys.map((k) => k.kind), keys.map((k) => k.key)],
    );
  }

  /** The change rows of these entities (locked with `forUpdate`), in the order given; missing ones undefined. */
  async #logRows(
    db: Db,
    tenantId: string,
    keys: { kind: SyncKind; key: string }[],
    forUpdate: boolean,
  ): Promise<(ChangeRow | undefined)[]> {
    const [r] = await db.batch([this.#logRowsSql(tenantId, keys, forUpdate)]);
    return logRowsIn(r!, keys);
  }

  /** One statement upserting change rows (one per entity), each with the next push order. */
  #logWriteSql(rows: readonly ChangeRow[]): string {
    const values = rows.map((row) =>
      [
        ...[row.tenantId, row.kind, row.key, row.recordId, row.op, row.hlc, row.deviceId, row.pending].map(sqlLiteral),
        `${sqlLiteral(JSON.stringify(row.clock))}::json`,
        `${sqlLiteral(row.counters ? JSON.stringify(row.counters) : null)}::json`,
        sqlLiteral(this.#nextSeq()),
      ].join(', '),
    );
    return `INSERT INTO ${this.#s}.sync_log AS l (tenant_id, kind, key, record_id, op, hlc, device_id, pending, clock, counters, seq)
       VALUES (${values.join('), (')})
       ON CONFLICT (tenant_id, kind, key) DO UPDATE SET seq = EXCLUDED.seq, record_id = EXCLUDED.record_id,
         op = EXCLUDED.op, hlc = EXCLUDED.hlc, device_id = EXCLUDED.device_id, pending = EXCLUDED.pending,
         clock = EXCLUDED.clock, counters = EXCLUDED.counters`;
  }

  /** Push order of change rows: microseconds since the epoch, strictly increasing in this process. */
  #nextSeq(): number {
    this.#seq = Math.max(this.#seq + 1, Date.now() * 1000);
    return this.#seq;
  }

  /** Write the change rows of local changes (the transaction is bound to the tenant): two messages. */
  async #logLocal(
    db: Db,
    tenantId: string,
    changes: { kind: SyncKind; key: string; op: 'put' | 'delete'; index: number; entry?: MemoryEntry }[],
    stamp: ChangeStamp,
  ): Promise<void> {
    if (changes.length === 0) return;
    const prev = await this.#logRows(db, tenantId, changes, true);
    await db.batch([
      this.#logWriteSql(
        changes.map((c, i) =>
          localChange(
            prev[i],
            { tenantId, kind: c.kind, key: c.key },
            c.op,
            stamp,
            stampRecordId(stamp, c.index),
            c.entry,
          ),
        ),
      ),
    ]);
  }

  async #clear(db: Db, tenantId: string): Promise<number> {
    await this.#lockTenant(db, tenantId);
    const r = await db.query(`DELETE FROM ${this.#s}.entries WHERE tenant_id = $1`, [tenantId]);
    await db.query(`DELETE FROM ${this.#s}.terms WHERE tenant_id = $1`, [tenantId]);
    await db.query(`DELETE FROM ${this.#s}.vectors WHERE tenant_id = $1`, [tenantId]);
    await db.query(`DELETE FROM ${this.#s}.profiles WHERE tenant_id = $1`, [tenantId]);
    await db.query(`DELETE FROM ${this.#s}.tenants WHERE tenant_id = $1`, [tenantId]);
    return r.rowCount ?? 0;
  }

  /** Upsert one model's vectors of the bound tenant, in pgvector's binary form (a `vector[]` parameter). */
  async #insertVectors(db: Db, tenantId: string, model: VectorModel, ids: string[], vectors: Float32Array[]) {
    await db.query(
      `INSERT INTO ${this.#s}.vectors (tenant_id, model_id, id, dim, embedding)
       SELECT $1, $2, r.id, $3, r.v FROM unnest($4::text[], $5::vector[]) AS r(id, v)
       ON CONFLICT (tenant_id, model_id, id) DO UPDATE SET dim = EXCLUDED.dim, embedding = EXCLUDED.embedding`,
      [tenantId, model.id, model.dim, ids, encodeVectorArray(this.#vectorOid, vectors)],
    );
  }

  /**
   * A write that loads `loads[i].n` vectors of each model, as a **bulk load** where that pays: a
   * model with at least `BULK_VECTORS` vectors in the load whose HNSW index holds no more rows
   * than that (`suspend_vector_index`: pg_class's estimate, summed over the shards on Citus) has its
   * index dropped first and built again over everything after the load — several times faster than
   * incremental upkeep. On one server that is one transaction (the drop holds an exclusive lock on
   * the vectors table until commit, so other writers and searches of it wait for the import). On
   * Citus it cannot be: the index DDL runs as the owner, and Citus lets no transaction touch a shard
   * as two roles. There the drop, the load and the rebuild are three transactions (the rebuild also
   * runs when the load fails): while the load runs, searches of that model are exact (no index),
   * and the index is built on each shard by its worker.
   */
  async #bulkWrite<T>(
    what: string,
    tenantId: string | null,
    loads: readonly { model: VectorModel; n: number }[],
    fn: (db: Db, bind: (tenantId: string) => Promise<void>) => Promise<T>,
  ): Promise<T> {
    const big = loads.filter((l) => l.n >= BULK_VECTORS);
    if (!this.citus)
      return this.#write(what, tenantId, async (db, bind) => {
        const dropped = await this.#suspendIndexes(db, big);
        const out = await fn(db, bind);
        await this.#rebuildIndexes(db, dropped);
        return out;
      });
    const dropped =
      big.length === 0
        ? []
        : await this.#write('suspend a vector index for a bulk load', null, (db) => this.#suspendIndexes(db, big));
    try {
      return await this.#write(what, tenantId, fn);
    } finally {
      if (dropped.length > 0)
        await this.#write('rebuild a vector index after a bulk load', null, (db) => this.#rebuildIndexes(db, dropped));
    }
  }

  /** Drop the indexes of the models whose load is at least as large as their index; the models dropped. */
  async #suspendIndexes(db: Db, loads: readonly { model: VectorModel; n: number }[]): Promise<VectorModel[]> {
    const dropped: VectorModel[] = [];
    for (const { model, n } of loads) {
      const r = await db.query<{ dropped: boolean }>(`SELECT ${this.#s}.suspend_vector_index($1, $2, $3) AS dropped`, [
        model.id,
        model.dim,
        n,
      ]);
      if (!r.rows[0]!.dropped) continue;
      dropped.push(model);
      this.#vectorIndexes.delete(`${model.dim}:${model.id}`);
    }
    return dropped;
  }

  async #rebuildIndexes(db: Db, models: readonly VectorModel[]): Promise<void> {
    if (models.length === 0) return;
    // The build's memory (indexBuildMemory); Citus carries SET LOCAL (not set_config) to the
    // workers, which build the shards' indexes.
    await db.query(`SET LOCAL maintenance_work_mem = '${this.#buildMemory}'`);
    for (const model of models) await this.#ensureIndexSql(db, model);
    for (const model of models) this.#vectorIndexes.add(`${model.dim}:${model.id}`);
  }

  async #checkDim(db: Db, tenantId: string, model: VectorModel): Promise<void> {
    // A batch, so that it travels with BEGIN.
    const [r] = await db.batch<{ dim: number }>([
      inlineParams(`SELECT dim FROM ${this.#s}.vectors WHERE tenant_id = $1 AND model_id = $2 LIMIT 1`, [
        tenantId,
        model.id,
      ]),
    ]);
    const dim = r!.rows[0]?.dim;
    if (dim !== undefined && dim !== model.dim)
      invalid('model.dim', `${dim} (stored vectors of model ${model.id})`, model.dim);
  }

  /** Make the model's HNSW index on first use (once per process; the database function is idempotent). */
  async #ensureVectorIndex(model: VectorModel): Promise<void> {
    const key = `${model.dim}:${model.id}`;
    if (this.#vectorIndexes.has(key)) return;
    await this.#write('create a vector index', null, (db) => this.#ensureIndexSql(db, model));
    this.#vectorIndexes.add(key);
  }

  /** `ensure_vector_index` with this storage's graph settings (idempotent: an existing index stays). */
  async #ensureIndexSql(db: Db, model: VectorModel): Promise<void> {
    await db.query(`SELECT ${this.#s}.ensure_vector_index($1, $2, $3, $4)`, [
      model.id,
      model.dim,
      this.#hnsw.m,
      this.#hnsw.efConstruction,
    ]);
  }

  /**
   * Rebuild every HNSW index whose graph settings differ from this storage's `hnswIndex` (an index
   * built before `hnswIndex` was set, or with other settings): each is dropped and built again over
   * all its vectors, with `indexBuildMemory`, one model per transaction. While a model's index is
   * rebuilt, writes of vectors and searches wait for it (minutes for a few hundred thousand vectors:
   * run it at a quiet time). Resolves to the models rebuilt.
   */
  async rebuildVectorIndexes(): Promise<VectorModel[]> {
    const stale = await this.#read('list vector indexes', null, (db) =>
      db.query<{ model_id: string; dim: number }>(
        `SELECT model_id, dim FROM ${this.#s}.vector_indexes WHERE index_name <> ''
           AND (coalesce(m, 16) <> $1 OR coalesce(ef_construction, 64) <> $2) ORDER BY model_id, dim`,
        [this.#hnsw.m, this.#hnsw.efConstruction],
      ),
    );
    const rebuilt: VectorModel[] = [];
    for (const row of stale.rows) {
      const model = { id: row.model_id, dim: row.dim };
      await this.#write('rebuild a vector index', null, async (db) => {
        await db.query(`SELECT ${this.#s}.suspend_vector_index($1, $2, $3)`, [model.id, model.dim, 2147483647]);
        await this.#rebuildIndexes(db, [model]);
      });
      rebuilt.push(model);
    }
    return rebuilt;
  }
}

/** Open a {@link PostgresStorage} (same as {@link PostgresStorage.open}). */
export function createPostgresStorage(options: PostgresStorageOptions): Promise<PostgresStorage> {
  return PostgresStorage.open(options);
}

/**
 * A pool whose connections never crash the process: an `'error'` listener on every connection from
 * the moment it is made (pg's pool only listens while a connection is idle; a checked-out one
 * losing its server would otherwise raise an uncaught `'error'`). The query in flight fails with
 * the error instead, and the connection is discarded on release.
 */
function newPool(settings: PoolConfig | undefined, connectionString: string | undefined, max: number): Pool {
  const pool = new pg.Pool({ ...settings, ...(connectionString !== undefined ? { connectionString } : {}), max });
  pool.on('connect', (client) => client.on('error', () => undefined));
  pool.on('error', () => undefined);
  return pool;
}

/**
 * The settings an HNSW search binds (schema migration 6's `search_vectors` sets the same ones, as
 * transaction-local settings of its call; exported for tests and benchmarks that send the query
 * alone): the candidate list, pgvector's
 * iterative scan (filtering by tenant cannot starve the result), and neither a sequential scan nor
 * a sort — after ANALYZE the planner prices a small table's scan-and-sort below the index (10.9 ms
 * against 1 ms measured at 1,000 rows), so only the HNSW index's ordered scan is left to it. No
 * JIT: a disabled path is priced 10^10, which crosses every `jit_*_above_cost`, and compiling the
 * exact branch of a small tenant's search (which has no plan but a sort) took 0.8 s for a 1 ms
 * query.
 */
export function hnswSettings(efSearch: number): Record<string, string> {
  return {
    'hnsw.ef_search': String(efSearch),
    'hnsw.iterative_scan': 'relaxed_order',
    enable_seqscan: 'off',
    enable_sort: 'off',
    jit: 'off',
  };
}

/**
 * Default `exactSearchBelow`. Exact search reads the tenant's rows (~2 KB each at 512-d) and costs
 * about linearly in them; HNSW costs a near-constant graph walk, longer when the tenant is a small
 * part of a shared index. They cross between 1,000 and 2,000 rows at 512-d on the two-worker
 * cluster (test/bench/postgres-scale.ts, POSTGRES-RESULTS.md, 2026-12-02 "re-tuned"); at 1M
 * memories a shard's graph is larger and HNSW of a mid-size tenant slower, which favours exact.
 */
const EXACT_SEARCH_BELOW = 1500;

/** Batches of at least this many vectors may rebuild the index after loading (see `#bulkWrite`). */
const BULK_VECTORS = 1000;

/** Default `efSearch` of {@link PostgresStorage.searchVectors}. */
export const DEFAULT_EF_SEARCH = 200;

/**
 * Default {@link PostgresStorageOptions.hnswIndex}: 24 / 128, above pgvector's own 16 / 64, whose
 * graph held a large tenant sharing a few hundred thousand vectors to recall@10 0.92 whatever the
 * `efSearch` (test/bench/POSTGRES-RESULTS.md).
 */
export const DEFAULT_HNSW_INDEX: Readonly<Required<HnswIndexOptions>> = Object.freeze({ m: 24, efConstruction: 128 });

function checkHnswIndex(o: HnswIndexOptions | undefined): void {
  if (o === undefined) return;
  if (typeof o !== 'object' || o === null || Array.isArray(o))
    invalid('hnswIndex', 'an object { m, efConstruction }', o);
  for (const k of Object.keys(o))
    if (k !== 'm' && k !== 'efConstruction') invalid(`hnswIndex.${k}`, 'one of m, efConstruction', k);
  const m = o.m ?? DEFAULT_HNSW_INDEX.m;
  if (!Number.isInteger(m) || m < 2 || m > 100) invalid('hnswIndex.m', 'an integer in [2, 100]', o.m);
  const ef = o.efConstruction ?? DEFAULT_HNSW_INDEX.efConstruction;
  if (!Number.isInteger(ef) || ef < 4 || ef > 1000 || ef < 2 * m)
    invalid('hnswIndex.efConstruction', `an integer in [4, 1000] and at least 2 * m (${2 * m})`, o.efConstruction);
}

/** Default `indexBuildMemory` (`ensure_vector_index` never builds with less). */
const BUILD_MEMORY = '256MB';

/** pgvector's limit, checked before any SQL runs (a larger vector is the caller's mistake). */
function checkDimension(model: VectorModel): void {
  if (model.dim > VECTOR_MAX_DIM)
    invalid('model.dim', `at most ${VECTOR_MAX_DIM} dimensions (pgvector's limit)`, model.dim);
}

/** `vector_send` rows (bytea) packed into one Float32Array. */
function packVectors(rows: readonly { v: Buffer }[], dim: number): Float32Array {
  const data = new Float32Array(rows.length * dim);
  rows.forEach((row, i) => decodeVector(row.v, data, i * dim));
  return data;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function groupByTenant<T extends { tenantId: string }>(items: T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const x of [...items].sort((a, b) => compareIds(a.tenantId, b.tenantId))) {
    const list = out.get(x.tenantId);
    if (list) list.push(x);
    else out.set(x.tenantId, [x]);
  }
  return out;
}

/** The last of each id's entries, ids ascending (so concurrent batches lock rows in the same order). */
function latestSorted(list: readonly MemoryEntry[]): MemoryEntry[] {
  const latest = new Map<string, MemoryEntry>();
  for (const e of list) latest.set(e.id, e);
  return [...latest.values()].sort((a, b) => compareIds(a.id, b.id));
}

function staleConflict(tenantId: string, stale: string[]): ZerdaError {
  return new ZerdaError(
    'CONFLICT',
    `A newer version of ${stale.length === 1 ? `memory ${stale[0]}` : `memories ${stale.slice(0, 5).join(', ')}`} in tenant ${tenantId} is stored ` +
      '(another process updated it); nothing was written. Read it again and reapply the change (update() does this under a row lock).',
    { details: { tenantId, ids: stale } },
  );
}

/** The change rows of a {@link PostgresStorage}'s `#logRowsSql` result, in the order of `keys`; missing ones undefined. */
function logRowsIn(r: QueryResult, keys: readonly { kind: SyncKind; key: string }[]): (ChangeRow | undefined)[] {
  const found = new Map((r.rows as LogRow[]).map((row) => [`${row.l_kind}\u0000${row.l_key}`, logRowToChange(row)]));
  return keys.map((k) => found.get(`${k.kind}\u0000${k.key}`));
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A `sync_log` row as selected (tenant, kind and key aliased so they do not clash with entry columns). */
interface LogRow {
  l_tenant: string;
  l_kind: SyncKind;
  l_key: string;
  record_id: string;
  op: 'put' | 'delete';
  hlc: string;
  device_id: string;
  pending: boolean;
  clock: ChangeRow['clock'];
  counters: ChangeRow['counters'] | null;
}

function logRowToChange(r: LogRow): ChangeRow {
  const row: ChangeRow = {
    tenantId: r.l_tenant,
    kind: r.l_kind,
    key: r.l_key,
    recordId: r.record_id,
    op: r.op,
    hlc: r.hlc,
    deviceId: r.device_id,
    clock: r.clock,
    pending: r.pending,
  };
  if (r.counters) row.counters = r.counters;
  return row;
}
