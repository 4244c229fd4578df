import { ZerdaError } from '@zerda/core';
import { invalid } from '@zerda/core/adapter';
import type { ClientBase } from 'pg';

/**
 * How a migration's tables are laid out on the server it runs on. On a plain PostgreSQL server
 * every helper returns an empty string; on a Citus coordinator, tables of tenant data are
 * distributed by `tenant_id` and colocated with `tenants` (so every transaction of one tenant runs
 * on one worker), and small global tables are reference tables (a copy on every node).
 */
export interface Layout {
  /** True on a Citus coordinator. */
  readonly citus: boolean;
  /** SQL distributing a table of tenant data (its primary key must start with `tenant_id`). */
  tenantTable(table: string): string;
  /** SQL making a small table without tenant data a reference table. */
  globalTable(table: string): string;
  /**
   * SQL distributing a function by its tenant argument `arg` (colocated with the tenant tables), so
   * Citus runs a call made outside a transaction block on the worker holding that tenant's shards.
   */
  tenantFunction(signature: string, arg: string): string;
}

/** One forward migration: `up(s, layout)` is the SQL for the quoted schema name `s`. */
export interface Migration {
  /** What it adds, recorded in the `migrations` table. */
  readonly name: string;
  readonly up: (s: string, layout: Layout) => string;
}

/**
 * Tables the app role may only read (everything else in the schema gets SELECT, INSERT, UPDATE,
 * DELETE). Append here when a migration adds such a table.
 */
export const READ_ONLY_TABLES: readonly string[] = ['migrations', 'vector_indexes'];

/**
 * The database schema, as an ordered list of forward migrations: version N is `MIGRATIONS[N - 1]`.
 * Each one runs once, in order, as the **owner** role, inside one transaction that holds an
 * advisory lock, so two processes starting together migrate once and neither sees a half-built
 * schema. Never edit a released migration: append the next one. A migration that adds a table of
 * tenant data gives it a primary key starting with `tenant_id`, calls `layout.tenantTable`, and
 * enables (and forces) row-level security with the `tenant_isolation` policy ({@link tenantPolicy});
 * the app role's privileges are granted after every migration run (see {@link grantAppRole}).
 *
 * Every table holding tenant data has row-level security *forced* (it applies to the table owner
 * too) with a policy keyed by the tenant the transaction is bound to (`zerda.tenant`, set with
 * `SET LOCAL` at the start of every transaction). A transaction bound to no tenant sees and changes
 * nothing. The tenant registry (`tenants`: ids only, no content) is readable across tenants so
 * `listTenants()` works, but rows are written only by their own tenant. `migrations` and
 * `vector_indexes` hold no tenant data.
 *
 * Identifiers (`id`, `tenant_id`, …) use the "C" collation so `ORDER BY id` is code-point order,
 * as in the other adapters, whatever the database's default collation.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    name: 'entries, lexical postings, vectors, profiles, tenant registry, row-level security',
    up: (s, layout) => `
    CREATE TABLE ${s}.tenants (
      tenant_id text COLLATE "C" PRIMARY KEY
    );
    ${layout.tenantTable(`${s}.tenants`)}
    CREATE TABLE ${s}.entries (
      tenant_id text COLLATE "C" NOT NULL,
      id text COLLATE "C" NOT NULL,
      user_id text COLLATE "C",
      tier text NOT NULL,
      kind text NOT NULL,
      created_at double precision NOT NULL,
      last_access double precision NOT NULL,
      importance double precision NOT NULL,
      version integer NOT NULL,
      tags text[] COLLATE "C" NOT NULL,
      doc_len integer NOT NULL,
      text_lc text NOT NULL,
      data json NOT NULL,
      PRIMARY KEY (tenant_id, id)
    );
    ${layout.tenantTable(`${s}.entries`)}
    CREATE INDEX entries_created ON ${s}.entries (tenant_id, created_at, id);
    CREATE INDEX entries_last_access ON ${s}.entries (tenant_id, last_access, id);
    CREATE INDEX entries_importance ON ${s}.entries (tenant_id, importance, id);
    CREATE INDEX entries_doc_len ON ${s}.entries (tenant_id) INCLUDE (doc_len);
    CREATE TABLE ${s}.terms (
      tenant_id text COLLATE "C" NOT NULL,
      term text COLLATE "C" NOT NULL,
      id text COLLATE "C" NOT NULL,
      tf integer NOT NULL,
      PRIMARY KEY (tenant_id, term, id) INCLUDE (tf)
    );
    ${layout.tenantTable(`${s}.terms`)}
    CREATE INDEX terms_entry ON ${s}.terms (tenant_id, id);
    CREATE TABLE ${s}.vectors (
      tenant_id text COLLATE "C" NOT NULL,
      model_id text COLLATE "C" NOT NULL,
      id text COLLATE "C" NOT NULL,
      dim integer NOT NULL,
      embedding vector NOT NULL,
      PRIMARY KEY (tenant_id, model_id, id)
    );
    ${layout.tenantTable(`${s}.vectors`)}
    CREATE INDEX vectors_entry ON ${s}.vectors (tenant_id, id);
    CREATE TABLE ${s}.vector_indexes (
      model_id text COLLATE "C" NOT NULL,
      dim integer NOT NULL,
      index_name text NOT NULL,
      PRIMARY KEY (model_id, dim)
    );
    ${layout.globalTable(`${s}.vector_indexes`)}
    CREATE TABLE ${s}.profiles (
      tenant_id text COLLATE "C" NOT NULL,
      user_id text COLLATE "C" NOT NULL,
      data json NOT NULL,
      PRIMARY KEY (tenant_id, user_id)
    );
    ${layout.tenantTable(`${s}.profiles`)}
    ${['entries', 'terms', 'vectors', 'profiles'].map((t) => tenantPolicy(`${s}.${t}`)).join('')}
    ALTER TABLE ${s}.tenants ENABLE ROW LEVEL SECURITY;
    ALTER TABLE ${s}.tenants FORCE ROW LEVEL SECURITY;
    CREATE POLICY tenants_listed ON ${s}.tenants FOR SELECT USING (true);
    CREATE POLICY tenants_insert ON ${s}.tenants FOR INSERT WITH CHECK (tenant_id = current_setting('zerda.tenant', true));
    CREATE POLICY tenants_update ON ${s}.tenants FOR UPDATE USING (tenant_id = current_setting('zerda.tenant', true));
    CREATE POLICY tenants_delete ON ${s}.tenants FOR DELETE USING (tenant_id = current_setting('zerda.tenant', true));

    -- One HNSW (cosine) index per embedding model and dimension, made on first use. A pgvector
    -- index needs a fixed dimension, so it is a partial expression index over that model's rows.
    -- Names and literals are quoted by format(%I, %L): no caller text reaches SQL unquoted.
    CREATE FUNCTION ${s}.ensure_vector_index(p_model text, p_dim integer) RETURNS text
    LANGUAGE plpgsql AS $fn$
    DECLARE
      v_name text := 'vectors_hnsw_' || md5(p_model || ':' || p_dim::text);
    BEGIN
      IF p_dim < 1 OR p_dim > 16000 THEN
        RAISE EXCEPTION 'vector dimension % is outside 1..16000', p_dim USING ERRCODE = '22023';
      END IF;
      PERFORM pg_advisory_xact_lock(hashtext('${s}.ensure_vector_index'));
      IF NOT EXISTS (SELECT 1 FROM ${s}.vector_indexes WHERE model_id = p_model AND dim = p_dim) THEN
        IF p_dim <= 2000 THEN
          EXECUTE format(
            'CREATE INDEX %I ON ${s}.vectors USING hnsw ((embedding::vector(%s)) vector_cosine_ops) WHERE model_id = %L AND dim = %s',
            v_name, p_dim, p_model, p_dim);
        ELSE
          v_name := '';  -- pgvector's HNSW holds at most 2,000 dimensions: exact search only.
        END IF;
        INSERT INTO ${s}.vector_indexes (model_id, dim, index_name) VALUES (p_model, p_dim, v_name);
      END IF;
      RETURN v_name;
    END
    $fn$;
  `,
  },
  {
    name: 'owner-run index functions (SECURITY DEFINER) for a DML-only app role; index suspended during bulk loads',
    up: (s) => `
    -- The app role owns nothing and may not create indexes: these functions, run with the owner's
    -- rights on a fixed search_path, are the one DDL it may ask for.
${ensureVectorIndex(s, 'fixed')}

    -- Bulk loads: when a batch of p_batch vectors is at least as large as what the model's HNSW
    -- index holds (pg_class.reltuples), drop the index (and its vector_indexes row) so the rows load
    -- without incremental graph upkeep; ensure_vector_index, later in the same transaction, builds
    -- it again over everything. True when the index was dropped.
    CREATE FUNCTION ${s}.suspend_vector_index(p_model text, p_dim integer, p_batch integer) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
    DECLARE
      v_name text;
      v_rows real;
    BEGIN
      PERFORM pg_advisory_xact_lock(hashtext('${s}.ensure_vector_index'));
      SELECT index_name INTO v_name FROM ${s}.vector_indexes WHERE model_id = p_model AND dim = p_dim;
      IF v_name IS NULL OR v_name = '' THEN RETURN false; END IF;
      SELECT greatest(reltuples, 0) INTO v_rows FROM pg_class WHERE oid = to_regclass('${s}.' || quote_ident(v_name));
      IF coalesce(v_rows, 0) > p_batch THEN RETURN false; END IF;
      EXECUTE format('DROP INDEX ${s}.%I', v_name);
      DELETE FROM ${s}.vector_indexes WHERE model_id = p_model AND dim = p_dim;
      RETURN true;
    END
    $fn$;
    REVOKE ALL ON FUNCTION ${s}.ensure_vector_index(text, integer) FROM PUBLIC;
    REVOKE ALL ON FUNCTION ${s}.suspend_vector_index(text, integer, integer) FROM PUBLIC;
  `,
  },
  {
    name: 'sync change log: one row per changed entry or profile, per-tenant server cursors, the device id',
    up: (s, layout) => `
    CREATE TABLE ${s}.sync_log (
      tenant_id text COLLATE "C" NOT NULL,
      kind text NOT NULL,
      key text COLLATE "C" NOT NULL,
      -- Push order, assigned by the adapter (no sequence: on Citus a sequence default cannot be created
      -- with its schema in one migration transaction, as the workers do not see the schema yet).
      seq bigint NOT NULL,
      record_id text COLLATE "C" NOT NULL,
      op text NOT NULL,
      hlc text COLLATE "C" NOT NULL,
      device_id text COLLATE "C" NOT NULL,
      pending boolean NOT NULL,
      clock json NOT NULL,
      counters json,
      PRIMARY KEY (tenant_id, kind, key)
    );
    CREATE INDEX sync_log_pending ON ${s}.sync_log (tenant_id, seq) WHERE pending;
    CREATE TABLE ${s}.sync_cursor (
      tenant_id text COLLATE "C" NOT NULL,
      cursor text NOT NULL,
      PRIMARY KEY (tenant_id)
    );
    -- The database's device id (no tenant data, so no policy).
    CREATE TABLE ${s}.sync_device (
      one integer PRIMARY KEY CHECK (one = 1),
      device_id text NOT NULL
    );
    ${layout.tenantTable(`${s}.sync_log`)}
    ${layout.tenantTable(`${s}.sync_cursor`)}
    ${layout.globalTable(`${s}.sync_device`)}
    ${tenantPolicy(`${s}.sync_log`)}
    ${tenantPolicy(`${s}.sync_cursor`)}
  `,
  },
  {
    name: 'check_written (batched writes); suspend_vector_index sizes the index over the shards on Citus',
    up: (s) => `
    -- A put sends its rows, postings, change rows and COMMIT as one message, so a row its upsert
    -- skipped (a newer version stored meanwhile) must stop the message in SQL: a serialization
    -- failure, which the adapter retries and then answers CONFLICT from the versions it reads.
    CREATE FUNCTION ${s}.check_written(p_written integer, p_expected integer) RETURNS integer
    LANGUAGE plpgsql AS $fn$
    BEGIN
      IF p_written <> p_expected THEN
        RAISE EXCEPTION '% of % entries written: a newer version was stored concurrently', p_written, p_expected
          USING ERRCODE = '40001';
      END IF;
      RETURN p_written;
    END
    $fn$;

    -- As migration 2's, but on Citus the coordinator's index is empty: the rows are in the shards'
    -- indexes (named <index>_<shard id>), so their estimates are summed.
    CREATE OR REPLACE FUNCTION ${s}.suspend_vector_index(p_model text, p_dim integer, p_batch integer) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
    DECLARE
      v_name text;
      v_rows real;
    BEGIN
      PERFORM pg_advisory_xact_lock(hashtext('${s}.ensure_vector_index'));
      SELECT index_name INTO v_name FROM ${s}.vector_indexes WHERE model_id = p_model AND dim = p_dim;
      IF v_name IS NULL OR v_name = '' THEN RETURN false; END IF;
      IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
        SELECT sum(greatest(result::real, 0)) INTO v_rows FROM run_command_on_shards('${s}.vectors',
          'SELECT coalesce(sum(greatest(c.reltuples, 0)), 0) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid ' ||
          'WHERE i.indrelid = ''%s''::regclass AND starts_with(c.relname, ' || quote_literal(v_name) || ')');
      ELSE
        SELECT greatest(reltuples, 0) INTO v_rows FROM pg_class WHERE oid = to_regclass('${s}.' || quote_ident(v_name));
      END IF;
      IF coalesce(v_rows, 0) > p_batch THEN RETURN false; END IF;
      EXECUTE format('DROP INDEX ${s}.%I', v_name);
      DELETE FROM ${s}.vector_indexes WHERE model_id = p_model AND dim = p_dim;
      RETURN true;
    END
    $fn$;
  `,
  },
  {
    name: 'vectors kept in their row (toast_tuple_target 8160): exact search reads no TOAST',
    up: (s) => `
    -- pgvector's type is STORAGE external and a 512-d row (2,056 bytes of vector) passes the 2 KB
    -- TOAST threshold, so every vector lived in the TOAST table and an exact search fetched each one
    -- through the TOAST index (1.6-4.3x slower, measured). Rows up to a page now keep it inline;
    -- larger vectors still go to TOAST. Citus propagates SET (...) to the shards (not SET STORAGE).
    -- Rows stored before stay in TOAST until rewritten (VACUUM FULL, or a re-import).
    ALTER TABLE ${s}.vectors SET (toast_tuple_target = 8160);
  `,
  },
  {
    name: 'search_vectors: a vector search in one statement (on Citus delegated to the shard worker)',
    up: (s, layout) => `
    -- PostgresStorage.searchVectors in one call, sent alone (no transaction block), the query
    -- vector a binary parameter: the tenant and search settings are bound here, as SET LOCALs of
    -- the call's own transaction. On Citus the function is distributed by p_tenant, so
    -- the coordinator hands the whole call to the worker holding the tenant's shards (one hop; no
    -- BEGIN, SET LOCALs and COMMIT to carry) and the settings apply where the shards are read.
    -- p_mode: 0 exact below p_below vectors of the model, HNSW from there; 1 exact; 2 HNSW. An HNSW
    -- scan that ends with fewer than p_k rows (a region of the shared graph it could not leave) is
    -- followed by the exact search: the caller then keeps only the rows marked exact.
    CREATE FUNCTION ${s}.search_vectors(p_tenant text, p_model text, p_dim integer, p_query public.vector,
      p_k integer, p_ef integer, p_mode integer, p_below integer)
    RETURNS TABLE (id text, distance double precision, exact boolean)
    LANGUAGE plpgsql AS $fn$
    DECLARE
      v_exact boolean := p_mode = 1;
      v_n bigint;
    BEGIN
      -- SET LOCAL, not set_config: when Citus runs the call on the coordinator (inside a transaction
      -- block it does not delegate) it carries SET LOCAL, never set_config, to the workers.
      SET LOCAL citus.propagate_set_commands = 'local';
      EXECUTE format('SET LOCAL zerda.tenant = %L', p_tenant);
      IF p_mode = 0 THEN
        SELECT count(*) INTO v_n FROM (SELECT 1 FROM ${s}.vectors v
          WHERE v.tenant_id = p_tenant AND v.model_id = p_model LIMIT p_below) t;
        v_exact := v_n < p_below;
      END IF;
      IF NOT v_exact THEN
        -- As hnswSettings in postgres-storage.ts; the dimension is a type modifier (never a
        -- parameter) so the expression matches the model's index.
        EXECUTE format('SET LOCAL hnsw.ef_search = %s', p_ef);
        SET LOCAL hnsw.iterative_scan = 'relaxed_order';
        SET LOCAL enable_seqscan = off;
        SET LOCAL enable_sort = off;
        SET LOCAL jit = off;
        RETURN QUERY EXECUTE format(
          'SELECT id, embedding::public.vector(%1$s) OPERATOR(public.<=>) $1::public.vector(%1$s), false FROM ${s}.vectors
           WHERE tenant_id = $2 AND model_id = $3 AND dim = %1$s
           ORDER BY embedding::public.vector(%1$s) OPERATOR(public.<=>) $1::public.vector(%1$s) LIMIT $4', p_dim)
          USING p_query, p_tenant, p_model, p_k;
        GET DIAGNOSTICS v_n = ROW_COUNT;
        IF v_n >= p_k THEN RETURN; END IF;
      END IF;
      RETURN QUERY EXECUTE format(
        'SELECT id, embedding OPERATOR(public.<=>) $1, true FROM ${s}.vectors
         WHERE tenant_id = $2 AND model_id = $3 AND dim = %s ORDER BY 2 LIMIT $4', p_dim)
        USING p_query, p_tenant, p_model, p_k;
    END
    $fn$;
    ${layout.tenantFunction(`${s}.search_vectors(text, text, integer, public.vector, integer, integer, integer, integer)`, 'p_tenant')}
  `,
  },
  {
    name: "ensure_vector_index builds with the caller's maintenance_work_mem when above 256MB (indexBuildMemory)",
    up: (s) => ensureVectorIndex(s, 'at-least'),
  },
  {
    name: 'HNSW graph settings (m, ef_construction) chosen by the caller and recorded per index (hnswIndex)',
    up: (s) => `
    -- NULL: an index built before this migration, with pgvector's defaults (16, 64).
    ALTER TABLE ${s}.vector_indexes ADD COLUMN IF NOT EXISTS m integer, ADD COLUMN IF NOT EXISTS ef_construction integer;
${ensureVectorIndex(s, 'graph')}
    REVOKE ALL ON FUNCTION ${s}.ensure_vector_index(text, integer, integer, integer) FROM PUBLIC;
    -- The two-argument form stays, with pgvector's defaults, for a process of the previous version
    -- still running during a rolling upgrade (its grant is kept; new installs do not grant it).
    CREATE OR REPLACE FUNCTION ${s}.ensure_vector_index(p_model text, p_dim integer) RETURNS text
    LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS $fn$ SELECT ${s}.ensure_vector_index(p_model, p_dim, 16, 64) $fn$;
    REVOKE ALL ON FUNCTION ${s}.ensure_vector_index(text, integer) FROM PUBLIC;
  `,
  },
];

/**
 * The owner-run `ensure_vector_index` (migration 2; migrations 7 and 8 replaced it). `fixed`: the
 * build's `maintenance_work_mem` is 256MB whatever the caller set; `at-least`: 256MB unless the
 * caller's transaction set more (PostgresStorageOptions.indexBuildMemory); `graph`: as `at-least`,
 * and the caller gives the graph's `m` and `ef_construction` (PostgresStorageOptions.hnswIndex),
 * checked against pgvector's limits and recorded in `vector_indexes`.
 */
function ensureVectorIndex(s: string, memory: 'fixed' | 'at-least' | 'graph'): string {
  const set = "PERFORM set_config('maintenance_work_mem', '256MB', true);";
  const memoryLine =
    memory === 'fixed'
      ? `          ${set}`
      : `          IF pg_size_bytes(current_setting('maintenance_work_mem')) < pg_size_bytes('256MB') THEN ${set} END IF;`;
  const graph = memory === 'graph';
  const args = graph
    ? 'p_model text, p_dim integer, p_m integer, p_ef_construction integer'
    : 'p_model text, p_dim integer';
  const check = graph
    ? `
      IF p_m < 2 OR p_m > 100 OR p_ef_construction < 4 OR p_ef_construction > 1000 OR p_ef_construction < 2 * p_m THEN
        RAISE EXCEPTION 'HNSW m % / ef_construction % outside pgvector''s limits (m 2..100, ef_construction 4..1000 and >= 2 * m)',
          p_m, p_ef_construction USING ERRCODE = '22023';
      END IF;`
    : '';
  const withClause = graph ? ' WITH (m = %s, ef_construction = %s)' : '';
  const withArgs = graph ? ', p_m, p_ef_construction' : '';
  const insert = graph
    ? `INSERT INTO ${s}.vector_indexes (model_id, dim, index_name, m, ef_construction)
          VALUES (p_model, p_dim, v_name, CASE WHEN v_name = '' THEN NULL ELSE p_m END, CASE WHEN v_name = '' THEN NULL ELSE p_ef_construction END);`
    : `INSERT INTO ${s}.vector_indexes (model_id, dim, index_name) VALUES (p_model, p_dim, v_name);`;
  return `
    CREATE OR REPLACE FUNCTION ${s}.ensure_vector_index(${args}) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
    DECLARE
      v_name text := 'vectors_hnsw_' || md5(p_model || ':' || p_dim::text);
    BEGIN
      IF p_dim < 1 OR p_dim > 16000 THEN
        RAISE EXCEPTION 'vector dimension % is outside 1..16000', p_dim USING ERRCODE = '22023';
      END IF;${check}
      PERFORM pg_advisory_xact_lock(hashtext('${s}.ensure_vector_index'));
      IF NOT EXISTS (SELECT 1 FROM ${s}.vector_indexes WHERE model_id = p_model AND dim = p_dim) THEN
        IF p_dim <= 2000 THEN
${memoryLine}
          EXECUTE format(
            'CREATE INDEX %I ON ${s}.vectors USING hnsw ((embedding::public.vector(%s)) public.vector_cosine_ops)${withClause} WHERE model_id = %L AND dim = %s',
            v_name, p_dim${withArgs}, p_model, p_dim);
        ELSE
          v_name := '';  -- pgvector's HNSW holds at most 2,000 dimensions: exact search only.
        END IF;
        ${insert}
      END IF;
      RETURN v_name;
    END
    $fn$;
`;
}

/** Row-level security on a table of tenant data: forced, keyed by the bound tenant. */
export function tenantPolicy(table: string): string {
  return `
    ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY;
    ALTER TABLE ${table} FORCE ROW LEVEL SECURITY;
    CREATE POLICY tenant_isolation ON ${table}
      USING (tenant_id = current_setting('zerda.tenant', true))
      WITH CHECK (tenant_id = current_setting('zerda.tenant', true));`;
}

/** The schema version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
const ROLE_NAME = /^[A-Za-z_][A-Za-z0-9_$-]{0,62}$/;

/** Check a schema name (it is an identifier in SQL, so only plain lowercase names are accepted). */
export function checkSchemaName(name: unknown): string {
  if (typeof name !== 'string' || !SCHEMA_NAME.test(name))
    invalid('schema', 'a lowercase identifier ([a-z_][a-z0-9_]*, at most 63 characters)', name);
  return name;
}

/** Check a role name given to {@link migrate} (quoted as an identifier in GRANT statements). */
export function checkRoleName(name: unknown): string {
  if (typeof name !== 'string' || !ROLE_NAME.test(name)) invalid('appRoles', 'role names', name);
  return name;
}

function layoutFor(citus: boolean): Layout {
  const lit = (x: string) => `'${x.replace(/'/g, "''")}'`;
  return {
    citus,
    tenantTable: (t) =>
      citus
        ? `SELECT create_distributed_table(${lit(t)}, 'tenant_id'${t.endsWith('.tenants') ? '' : `, colocate_with => ${lit(t.replace(/\.[a-z_]+$/, '.tenants'))}`});`
        : '',
    globalTable: (t) => (citus ? `SELECT create_reference_table(${lit(t)});` : ''),
    tenantFunction: (f, arg) =>
      citus
        ? `SELECT create_distributed_function(${lit(f)}, ${lit(arg)}, colocate_with => ${lit(f.replace(/\.[a-z_]+\(.*$/, '.tenants'))});`
        : '',
  };
}

/**
 * What the app role may do: use the schema, read and write rows (never TRUNCATE, never own or
 * alter anything), read the {@link READ_ONLY_TABLES}, call the index functions. Idempotent; run
 * after every migration so tables added later are covered.
 */
export function grantAppRole(s: string, role: string): string {
  const r = `"${role}"`;
  const fns = [
    'ensure_vector_index(text, integer, integer, integer)',
    'suspend_vector_index(text, integer, integer)',
    'check_written(integer, integer)',
    'search_vectors(text, text, integer, public.vector, integer, integer, integer, integer)',
  ];
  return `
    GRANT USAGE ON SCHEMA ${s} TO ${r};
    GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${s} TO ${r};
    GRANT USAGE ON ALL SEQUENCES IN SCHEMA ${s} TO ${r};
    REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON ${READ_ONLY_TABLES.map((t) => `${s}.${t}`).join(', ')} FROM ${r};
    ${fns.map((f) => `GRANT EXECUTE ON FUNCTION ${s}.${f} TO ${r};`).join('\n')}`;
}

/** Whether the connected database is a Citus coordinator (the extension is created there). */
export async function isCitus(client: ClientBase): Promise<boolean> {
  const r = await client.query(`SELECT 1 FROM pg_extension WHERE extname = 'citus'`);
  return (r.rowCount ?? 0) > 0;
}

/** The schema version recorded in the database (0 when the schema or its table does not exist). */
export async function schemaVersion(client: ClientBase, schema: string): Promise<number> {
  const r = await client.query<{ v: number | null }>(`SELECT CASE WHEN to_regclass($1) IS NULL THEN 0 END AS v`, [
    `"${schema}".migrations`,
  ]);
  if (r.rows[0]!.v === 0) return 0;
  return Number((await client.query(`SELECT coalesce(max(version), 0) AS v FROM "${schema}".migrations`)).rows[0].v);
}

/**
 * Bring the schema up to date, as the role that will own it, and grant `appRoles` what the app
 * needs (DML only). Runs in its own transaction under an advisory lock keyed by the schema name;
 * resolves to the version found before (0 for a new schema). A database newer than this code fails
 * with `STORAGE` rather than being written by code that does not know its shape.
 */
export async function migrate(client: ClientBase, schema: string, appRoles: readonly string[] = []): Promise<number> {
  const s = `"${schema}"`;
  for (const r of appRoles) checkRoleName(r);
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`zerda-migrate:${schema}`]);
    const citus = await isCitus(client);
    // Citus: DDL of several distributed tables in one transaction must use one connection per node.
    if (citus) await client.query(`SET LOCAL citus.multi_shard_modify_mode TO 'sequential'`);
    const vector = await client.query(`SELECT 1 FROM pg_extension WHERE extname = 'vector'`);
    if (vector.rowCount === 0) {
      await client.query('SAVEPOINT ext');
      try {
        await client.query('CREATE EXTENSION IF NOT EXISTS vector');
      } catch (e) {
        throw new ZerdaError(
          'STORAGE',
          'The pgvector extension is not enabled in this database and this role may not enable it: ' +
            'run CREATE EXTENSION vector; once as a superuser (pgvector must be installed on the server)',
          { cause: e },
        );
      }
    }
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    if ((await schemaVersion(client, schema)) === 0) {
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${s}.migrations (version integer PRIMARY KEY, name text, applied_at timestamptz NOT NULL DEFAULT now())`,
      );
      if (citus && !(await isDistributed(client, `${s}.migrations`)))
        await client.query(`SELECT create_reference_table($1)`, [`${s}.migrations`]);
    }
    const found = await schemaVersion(client, schema);
    if (found > SCHEMA_VERSION)
      throw new ZerdaError(
        'STORAGE',
        `Schema "${schema}" is at version ${found}, newer than this @zerda/postgres (${SCHEMA_VERSION}); upgrade the package`,
      );
    const layout = layoutFor(citus);
    // Schemas made before migrations had names.
    if (found < SCHEMA_VERSION) await client.query(`ALTER TABLE ${s}.migrations ADD COLUMN IF NOT EXISTS name text`);
    for (let v = found + 1; v <= SCHEMA_VERSION; v++) {
      const m = MIGRATIONS[v - 1]!;
      for (const statement of statements(m.up(s, layout))) await client.query(statement);
      await client.query(`INSERT INTO ${s}.migrations (version, name) VALUES ($1, $2)`, [v, m.name]);
    }
    for (const r of appRoles) for (const statement of statements(grantAppRole(s, r))) await client.query(statement);
    await client.query('COMMIT');
    return found;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}

/**
 * A migration's SQL as single statements: Citus forwards some DDL (GRANT … ON ALL TABLES, …) to the
 * workers as the query text it came in, which must then hold one command. A statement ends at a
 * line ending in `;` outside a `$fn$` function body.
 */
export function statements(sql: string): string[] {
  const out: string[] = [];
  let current: string[] = [];
  let inBody = false;
  for (const line of sql.split('\n')) {
    current.push(line);
    if ((line.split('$fn$').length - 1) % 2 === 1) inBody = !inBody;
    if (!inBody && line.trimEnd().endsWith(';')) {
      const text = current.join('\n').trim();
      if (text.replace(/--.*$/gm, '').trim()) out.push(text);
      current = [];
    }
  }
  const rest = current.join('\n').replace(/--.*$/gm, '').trim();
  if (rest) out.push(rest);
  return out;
}

async function isDistributed(client: ClientBase, table: string): Promise<boolean> {
  const r = await client.query(`SELECT 1 FROM pg_dist_partition WHERE logicalrelid = to_regclass($1)`, [table]);
  return (r.rowCount ?? 0) > 0;
}
