import { ZerdaError, invalid } from '@zerda/core';
import type { PoolClient } from 'pg';

/**
 * The database schema, as numbered forward migrations. Each one runs once, in order, inside one
 * transaction that holds a transaction-level advisory lock, so two processes starting together
 * migrate once and neither sees a half-built schema. Never edit a released migration: add the next.
 *
 * Every table holding tenant data has row-level security *forced* (it applies to the table owner
 * too) with a policy keyed by the tenant the transaction is bound to (`zerda.tenant`, set with
 * `set_config(…, true)` at the start of every transaction). A transaction bound to no tenant sees
 * and changes nothing. The tenant registry (`tenants`: ids only, no content) is readable across
 * tenants so `listTenants()` works, but rows are written only by their own tenant. `migrations` and
 * `vector_indexes` hold no tenant data.
 *
 * Identifiers (`id`, `tenant_id`, …) use the "C" collation so `ORDER BY id` is code-point order,
 * as in the other adapters, whatever the database's default collation.
 */
export const MIGRATIONS: readonly ((s: string) => string)[] = [
  // 1: entries, lexical postings, vectors, profiles, tenant registry, row-level security.
  (s) => `
    CREATE TABLE ${s}.tenants (
      tenant_id text COLLATE "C" PRIMARY KEY
    );
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
    CREATE INDEX terms_entry ON ${s}.terms (tenant_id, id);
    CREATE TABLE ${s}.vectors (
      tenant_id text COLLATE "C" NOT NULL,
      model_id text COLLATE "C" NOT NULL,
      id text COLLATE "C" NOT NULL,
      dim integer NOT NULL,
      embedding vector NOT NULL,
      PRIMARY KEY (tenant_id, model_id, id)
    );
    CREATE INDEX vectors_entry ON ${s}.vectors (tenant_id, id);
    CREATE TABLE ${s}.vector_indexes (
      model_id text COLLATE "C" NOT NULL,
      dim integer NOT NULL,
      index_name text NOT NULL,
      PRIMARY KEY (model_id, dim)
    );
    CREATE TABLE ${s}.profiles (
      tenant_id text COLLATE "C" NOT NULL,
      user_id text COLLATE "C" NOT NULL,
      data json NOT NULL,
      PRIMARY KEY (tenant_id, user_id)
    );
    ${['entries', 'terms', 'vectors', 'profiles']
      .map(
        (t) => `
    ALTER TABLE ${s}.${t} ENABLE ROW LEVEL SECURITY;
    ALTER TABLE ${s}.${t} FORCE ROW LEVEL SECURITY;
    CREATE POLICY tenant_isolation ON ${s}.${t}
      USING (tenant_id = current_setting('zerda.tenant', true))
      WITH CHECK (tenant_id = current_setting('zerda.tenant', true));`,
      )
      .join('')}
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
  // 2: the change log for sync (see core's change-log.ts): one row per changed entry or profile,
  // each tenant's server cursor, and the database's device id (no tenant data: no policy).
  (s) => `
    CREATE SEQUENCE ${s}.sync_seq;
    CREATE TABLE ${s}.sync_log (
      tenant_id text COLLATE "C" NOT NULL,
      kind text NOT NULL,
      key text COLLATE "C" NOT NULL,
      seq bigint NOT NULL DEFAULT nextval('${s}.sync_seq'),
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
      tenant_id text COLLATE "C" PRIMARY KEY,
      cursor text NOT NULL
    );
    CREATE TABLE ${s}.sync_device (
      one integer PRIMARY KEY CHECK (one = 1),
      device_id text NOT NULL
    );
    ${['sync_log', 'sync_cursor']
      .map(
        (t) => `
    ALTER TABLE ${s}.${t} ENABLE ROW LEVEL SECURITY;
    ALTER TABLE ${s}.${t} FORCE ROW LEVEL SECURITY;
    CREATE POLICY tenant_isolation ON ${s}.${t}
      USING (tenant_id = current_setting('zerda.tenant', true))
      WITH CHECK (tenant_id = current_setting('zerda.tenant', true));`,
      )
      .join('')}
  `,
];

/** The schema version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Check a schema name (it is an identifier in SQL, so only plain lowercase names are accepted). */
export function checkSchemaName(name: unknown): string {
  if (typeof name !== 'string' || !SCHEMA_NAME.test(name))
    invalid('schema', 'a lowercase identifier ([a-z_][a-z0-9_]*, at most 63 characters)', name);
  return name;
}

/**
 * Bring the schema up to date. Runs in its own transaction under an advisory lock keyed by the
 * schema name; resolves to the version found before (0 for a new schema). A database newer than
 * this code fails with `STORAGE` rather than being written by code that does not know its shape.
 */
export async function migrate(client: PoolClient, schema: string): Promise<number> {
  const s = `"${schema}"`;
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`zerda-migrate:${schema}`]);
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
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${s}.migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const found = Number((await client.query(`SELECT coalesce(max(version), 0) AS v FROM ${s}.migrations`)).rows[0].v);
    if (found > SCHEMA_VERSION)
      throw new ZerdaError(
        'STORAGE',
        `Schema "${schema}" is at version ${found}, newer than this @zerda/postgres (${SCHEMA_VERSION}); upgrade the package`,
      );
    for (let v = found + 1; v <= SCHEMA_VERSION; v++) {
      await client.query(MIGRATIONS[v - 1]!(s));
      await client.query(`INSERT INTO ${s}.migrations (version) VALUES ($1)`, [v]);
    }
    await client.query('COMMIT');
    return found;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}
