import pg from 'pg';
import type { Pool, PoolClient } from 'pg';
import { ZerdaError, isZerdaError } from '@zerda/core';
import { invalid } from '@zerda/core/adapter';
import type { StoredRecord, WireRecord } from '../protocol.js';
import { checkQuota, dedupe, recordBytes } from './record-store.js';
import type { Quota, RecordStore } from './record-store.js';

/** Options of {@link PostgresRecordStore.open}. */
export interface PostgresRecordStoreOptions {
  connectionString: string;
  /**
   * The role that owns the schema and runs its migrations (then grants the app role row access
   * only). Default: `connectionString`'s role does both.
   */
  ownerConnectionString?: string;
  /** Schema of the sync tables (created on first open). Default `zerda_sync`. */
  schema?: string;
  maxConnections?: number;
  /** Allow a superuser or BYPASSRLS role (row-level security would not isolate tenants). Default false. */
  allowRowSecurityBypass?: boolean;
}

const MIGRATIONS: readonly ((s: string) => string)[] = [
  (s) => `
    CREATE TABLE ${s}.tenants (
      tenant_id text COLLATE "C" PRIMARY KEY,
      next_seq bigint NOT NULL DEFAULT 1,
      records bigint NOT NULL DEFAULT 0,
      bytes bigint NOT NULL DEFAULT 0,
      key_check text
    );
    CREATE TABLE ${s}.records (
      tenant_id text COLLATE "C" NOT NULL,
      seq bigint NOT NULL,
      record_id text COLLATE "C" NOT NULL,
      device_id text COLLATE "C" NOT NULL,
      hlc text COLLATE "C" NOT NULL,
      data text NOT NULL,
      PRIMARY KEY (tenant_id, seq),
      UNIQUE (tenant_id, record_id)
    );
    ${['tenants', 'records']
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

/**
 * The sync server's {@link RecordStore} on PostgreSQL: a `records` table keyed by tenant and a
 * per-tenant sequence (allocated under a row lock on the tenant, so sequence numbers commit in
 * order and a puller never skips one), a `tenants` table with the counters the quota reads and the
 * key check. Both tables have forced row-level security bound to the request's tenant, as in
 * `@zerda/postgres`: a transaction sees only the tenant it serves. In end-to-end mode `data` holds
 * only ciphertext.
 */
export class PostgresRecordStore implements RecordStore {
  readonly #pool: Pool;
  readonly #s: string;

  private constructor(pool: Pool, schema: string) {
    this.#pool = pool;
    this.#s = `"${schema}"`;
  }

  /** Connect, refuse a role that bypasses row-level security, and create or migrate the tables. */
  static async open(options: PostgresRecordStoreOptions): Promise<PostgresRecordStore> {
    if (typeof options?.connectionString !== 'string' || options.connectionString === '')
      invalid('connectionString', 'a postgresql:// URL', options?.connectionString);
    const schema = options.schema ?? 'zerda_sync';
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) invalid('schema', 'a lowercase identifier', schema);
    const pool = new pg.Pool({ connectionString: options.connectionString, max: options.maxConnections ?? 10 });
    // pg's pool listens for a connection's 'error' only while it is idle: a checked-out connection
    // losing its server (PostgreSQL restarted mid-request) would raise an uncaught 'error' and end
    // the server's process. Listening from the start, the request in flight fails with the error
    // instead (STORAGE), and the dead connection is dropped on release (as in @zerda/postgres).
    pool.on('connect', (client) => client.on('error', () => undefined));
    pool.on('error', () => undefined);
    try {
      const client = await pool.connect();
      try {
        const role = await client.query<{ bypass: boolean; name: string }>(
          'SELECT (rolsuper OR rolbypassrls) AS bypass, rolname AS name FROM pg_roles WHERE rolname = current_user',
        );
        if (role.rows[0]?.bypass && !options.allowRowSecurityBypass)
          throw new ZerdaError(
            'VALIDATION',
            `Role ${role.rows[0].name} bypasses row-level security, so tenants would not be isolated: connect as an ordinary role or pass allowRowSecurityBypass`,
          );
        if (options.ownerConnectionString === undefined) await migrate(client, schema);
        else {
          const app = role.rows[0]!.name;
          const owner = new pg.Client({ connectionString: options.ownerConnectionString });
          await owner.connect();
          try {
            await migrate(owner, schema);
            const r = `"${app.replace(/"/g, '""')}"`;
            await owner.query(
              `GRANT USAGE ON SCHEMA "${schema}" TO ${r}; GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA "${schema}" TO ${r}`,
            );
          } finally {
            await owner.end();
          }
        }
      } finally {
        client.release();
      }
    } catch (e) {
      await pool.end().catch(() => undefined);
      throw isZerdaError(e)
        ? e
        : new ZerdaError('STORAGE', `Cannot open the sync record store: ${(e as Error).message}`, { cause: e });
    }
    return new PostgresRecordStore(pool, schema);
  }

  async append(tenantId: string, records: WireRecord[], quota: Quota | undefined) {
    return this.#tx(tenantId, async (db) => {
      const s = this.#s;
      await db.query(`INSERT INTO ${s}.tenants (tenant_id) VALUES ($1) ON CONFLICT DO NOTHING`, [tenantId]);
      const t = (
        await db.query<{ next_seq: string; records: string; bytes: string }>(
          `SELECT next_seq, records, bytes FROM ${s}.tenants WHERE tenant_id = $1 FOR UPDATE`,
          [tenantId],
        )
      ).rows[0]!;
      const unique = dedupe(records);
      const held = new Set(
        (
          await db.query<{ record_id: string }>(
            `SELECT record_id FROM ${s}.records WHERE tenant_id = $1 AND record_id = ANY($2::text[])`,
            [tenantId, unique.map((r) => r.id)],
          )
        ).rows.map((r) => r.record_id),
      );
      const fresh = unique.filter((r) => !held.has(r.id));
      const bytes = fresh.reduce((n, r) => n + recordBytes(r), 0);
      checkQuota(
        tenantId,
        { records: Number(t.records), bytes: Number(t.bytes) },
        { records: fresh.length, bytes },
        quota,
      );
      if (fresh.length > 0) {
        const first = Number(t.next_seq);
        await db.query(
          `INSERT INTO ${s}.records (tenant_id, seq, record_id, device_id, hlc, data)
           SELECT $1, $2 + o - 1, r.id, r.device, r.hlc, r.data
           FROM unnest($3::text[], $4::text[], $5::text[], $6::text[]) WITH ORDINALITY AS r(id, device, hlc, data, o)`,
          [
            tenantId,
            first,
            fresh.map((r) => r.id),
            fresh.map((r) => r.device),
            fresh.map((r) => r.hlc),
            fresh.map((r) => r.data),
          ],
        );
        await db.query(
          `UPDATE ${s}.tenants SET next_seq = next_seq + $2, records = records + $2, bytes = bytes + $3 WHERE tenant_id = $1`,
          [tenantId, fresh.length, bytes],
        );
      }
      return { accepted: fresh.length, duplicates: records.length - fresh.length };
    });
  }

  async list(tenantId: string, after: number, limit: number) {
    return this.#tx(tenantId, async (db) => {
      const r = await db.query<{ seq: string; record_id: string; device_id: string; hlc: string; data: string }>(
        `SELECT seq, record_id, device_id, hlc, data FROM ${this.#s}.records WHERE tenant_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
        [tenantId, after, limit],
      );
      const records: StoredRecord[] = r.rows.map((x) => ({
        seq: Number(x.seq),
        id: x.record_id,
        device: x.device_id,
        hlc: x.hlc,
        data: x.data,
      }));
      const last = records.at(-1)?.seq ?? after;
      const rest = await db.query<{ n: string }>(
        `SELECT count(*) AS n FROM ${this.#s}.records WHERE tenant_id = $1 AND seq > $2`,
        [tenantId, last],
      );
      return { records, remaining: Number(rest.rows[0]!.n) };
    });
  }

  async getKey(tenantId: string) {
    return this.#tx(tenantId, async (db) => {
      const r = await db.query<{ key_check: string | null }>(
        `SELECT key_check FROM ${this.#s}.tenants WHERE tenant_id = $1`,
        [tenantId],
      );
      return r.rows[0]?.key_check ?? undefined;
    });
  }

  async putKey(tenantId: string, check: string) {
    return this.#tx(tenantId, async (db) => {
      await db.query(`INSERT INTO ${this.#s}.tenants (tenant_id) VALUES ($1) ON CONFLICT DO NOTHING`, [tenantId]);
      const r = await db.query<{ key_check: string }>(
        `UPDATE ${this.#s}.tenants SET key_check = coalesce(key_check, $2) WHERE tenant_id = $1 RETURNING key_check`,
        [tenantId, check],
      );
      return r.rows[0]!.key_check;
    });
  }

  async close() {
    await this.#pool.end();
  }

  async #tx<T>(tenantId: string, fn: (db: PoolClient) => Promise<T>): Promise<T> {
    let db: PoolClient;
    try {
      db = await this.#pool.connect();
    } catch (e) {
      throw new ZerdaError('STORAGE', `Cannot reach the sync database: ${(e as Error).message}`, {
        cause: e,
        details: { status: 503 },
      });
    }
    let broken: Error | undefined;
    try {
      await db.query('BEGIN');
      await db.query(`SELECT set_config('zerda.tenant', $1, true)`, [tenantId]);
      const out = await fn(db);
      await db.query('COMMIT');
      return out;
    } catch (e) {
      // A connection that cannot even roll back is broken: discard it rather than hand it out again.
      broken = await db.query('ROLLBACK').then(
        () => undefined,
        (rollbackError: Error) => rollbackError,
      );
      if (isZerdaError(e)) throw e;
      throw new ZerdaError('STORAGE', `Sync database failure: ${(e as Error).message}`, {
        cause: e,
        details: { status: 503 },
      });
    } finally {
      db.release(broken);
    }
  }
}

async function migrate(client: pg.ClientBase, schema: string): Promise<void> {
  const s = `"${schema}"`;
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`zerda-sync-migrate:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${s}.migrations (version integer PRIMARY KEY)`);
    const found = Number((await client.query(`SELECT coalesce(max(version), 0) AS v FROM ${s}.migrations`)).rows[0].v);
    if (found > MIGRATIONS.length)
      throw new ZerdaError(
        'STORAGE',
        `Sync schema ${schema} is newer (${found}) than this @zerda/sync (${MIGRATIONS.length})`,
      );
    for (let v = found + 1; v <= MIGRATIONS.length; v++) {
      await client.query(MIGRATIONS[v - 1]!(s));
      await client.query(`INSERT INTO ${s}.migrations (version) VALUES ($1)`, [v]);
    }
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}
