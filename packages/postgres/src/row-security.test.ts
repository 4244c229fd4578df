import { afterAll, beforeAll, expect, it } from 'vitest';
import pg from 'pg';
import { isZerdaError } from '@zerda/core';
import { createEntry } from '@zerda/core/adapter';
import { testProfile } from '@zerda/core/testing';
import { PostgresStorage } from './postgres-storage.js';
import { SCHEMA_VERSION } from './schema.js';
import { sqlLiteral } from './literals.js';
import { describePostgres, freshSchema, ownerUrl } from './test-database.js';

// The database itself isolates tenants: raw SQL on the app's own role, bound to tenant A, cannot
// see or touch tenant B's rows, even when it asks for them by name, and cannot change the rules
// (the tables belong to a separate owner role that migrated them).
describePostgres('PostgresStorage row-level security (raw SQL on the app role)', (url) => {
  const schema = freshSchema('rls');
  const s = `"${schema}"`;
  let storage: PostgresStorage;
  let client: pg.Client;
  const A = 'tenant-a';
  const B = 'tenant-b';

  beforeAll(async () => {
    storage = await PostgresStorage.open({ connectionString: url, ownerConnectionString: ownerUrl(url), schema });
    const model = { id: 'm', dim: 3 };
    for (const t of [A, B]) {
      const e = createEntry(
        t,
        { content: { title: `secret of ${t}`, text: `only ${t} may read this` } },
        1_700_000_000_000,
      );
      await storage.put({ ...e, id: 'same-id' });
      await storage.putVectors(t, model, [{ id: 'same-id', vector: Float32Array.from([1, 0, 0]) }]);
      await storage.putProfile(testProfile(t, 'u'));
    }
    client = new pg.Client({ connectionString: url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await storage?.close();
  });

  async function asTenant<T>(tenant: string | undefined, fn: () => Promise<T>): Promise<T> {
    await client.query('BEGIN');
    try {
      // As the adapter binds it: SET LOCAL, which Citus carries to the workers (set_config does not).
      await client.query(`SET LOCAL citus.propagate_set_commands = 'local'`);
      if (tenant !== undefined) await client.query(`SET LOCAL zerda.tenant = ${sqlLiteral(tenant)}`);
      return await fn();
    } finally {
      await client.query('ROLLBACK');
    }
  }

  it('a transaction bound to A sees only A, even asking for B by name', async () => {
    await asTenant(A, async () => {
      for (const table of ['entries', 'terms', 'vectors', 'profiles']) {
        const all = await client.query(`SELECT DISTINCT tenant_id FROM ${s}.${table}`);
        expect(
          all.rows.map((r) => r.tenant_id),
          table,
        ).toEqual([A]);
        const theirs = await client.query(`SELECT count(*)::int AS n FROM ${s}.${table} WHERE tenant_id = $1`, [B]);
        expect(theirs.rows[0].n, table).toBe(0);
      }
      const text = await client.query(`SELECT data FROM ${s}.entries WHERE data::text LIKE '%tenant-b%'`);
      expect(text.rowCount).toBe(0);
    });
  });

  it('a transaction bound to no tenant sees no tenant data', async () => {
    await asTenant(undefined, async () => {
      for (const table of ['entries', 'terms', 'vectors', 'profiles']) {
        const r = await client.query(`SELECT count(*)::int AS n FROM ${s}.${table}`);
        expect(r.rows[0].n, table).toBe(0);
      }
    });
  });

  it("A cannot update, delete or insert B's rows", async () => {
    await asTenant(A, async () => {
      const upd = await client.query(`UPDATE ${s}.entries SET importance = 0 WHERE tenant_id = $1`, [B]);
      expect(upd.rowCount).toBe(0);
      const del = await client.query(`DELETE FROM ${s}.profiles WHERE tenant_id = $1`, [B]);
      expect(del.rowCount).toBe(0);
    });
    let error: unknown;
    await asTenant(A, async () => {
      await client
        .query(`INSERT INTO ${s}.profiles (tenant_id, user_id, data) VALUES ($1, 'intruder', '{}')`, [B])
        .catch((e: unknown) => (error = e));
    });
    expect((error as { code?: string }).code).toBe('42501'); // new row violates row-level security policy
    let moved: unknown;
    await asTenant(A, async () => {
      await client
        .query(`UPDATE ${s}.entries SET tenant_id = $1 WHERE tenant_id = $2`, [B, A])
        .catch((e: unknown) => (moved = e));
    });
    // 42501: the policy's WITH CHECK refuses the moved row; on Citus the distribution column
    // cannot be updated at all (0A000).
    expect(['42501', '0A000']).toContain((moved as { code?: string }).code);
    // B's data is intact.
    expect((await storage.get(B, 'same-id'))?.content).toEqual({
      title: `secret of ${B}`,
      text: `only ${B} may read this`,
    });
    expect(await storage.listProfiles(B)).toHaveLength(1);
  });

  it('the registry lists tenant ids only, and only its own tenant may write it', async () => {
    await asTenant(A, async () => {
      const r = await client.query(`SELECT tenant_id FROM ${s}.tenants ORDER BY 1`);
      expect(r.rows.map((x) => x.tenant_id)).toEqual([A, B]);
      const del = await client.query(`DELETE FROM ${s}.tenants WHERE tenant_id = $1`, [B]);
      expect(del.rowCount).toBe(0);
    });
  });

  it('the app role owns nothing: it cannot alter, disable, drop or truncate, nor write the migrations', async () => {
    const owner = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = $1 AND pg_has_role(current_user, c.relowner, 'USAGE')`,
      [schema],
    );
    expect(owner.rows[0]!.n).toBe(0);
    const attempts = [
      `ALTER TABLE ${s}.entries NO FORCE ROW LEVEL SECURITY`,
      `ALTER TABLE ${s}.entries DISABLE ROW LEVEL SECURITY`,
      `DROP POLICY tenant_isolation ON ${s}.entries`,
      `CREATE POLICY open_door ON ${s}.entries USING (true)`,
      `ALTER TABLE ${s}.entries ADD COLUMN x int`,
      `DROP TABLE ${s}.vectors`,
      `TRUNCATE ${s}.entries`,
      `TRUNCATE ${s}.tenants CASCADE`,
      `DROP INDEX ${s}.entries_created`,
      `CREATE TABLE ${s}.mine (x int)`,
      `CREATE OR REPLACE FUNCTION ${s}.ensure_vector_index(p_model text, p_dim integer, p_m integer, p_ef integer) RETURNS text LANGUAGE sql AS 'SELECT 1::text'`,
      `CREATE OR REPLACE FUNCTION ${s}.ensure_vector_index(p_model text, p_dim integer) RETURNS text LANGUAGE sql AS 'SELECT 1::text'`,
      `INSERT INTO ${s}.migrations (version) VALUES (99)`,
      `DELETE FROM ${s}.migrations`,
      `INSERT INTO ${s}.vector_indexes (model_id, dim, index_name) VALUES ('x', 1, 'x')`,
    ];
    for (const sql of attempts) {
      let error: unknown;
      await asTenant(A, async () => {
        await client.query(sql).catch((e: unknown) => (error = e));
      });
      expect((error as { code?: string } | undefined)?.code, sql).toBe('42501'); // insufficient privilege / must be owner
    }
    // Every tenant's rows are still there (seen through each tenant's own binding).
    for (const t of [A, B]) expect(await storage.get(t, 'same-id')).toBeDefined();
  });

  it('open refuses an app role that owns the tables unless allowOwnerRole', async () => {
    const asOwner = ownerUrl(url);
    const err = await PostgresStorage.open({ connectionString: asOwner, schema }).catch((e: unknown) => e);
    expect(isZerdaError(err, 'VALIDATION')).toBe(true);
    expect((err as Error).message).toMatch(/owns schema .* ALTER, DROP or TRUNCATE/);
    const allowed = await PostgresStorage.open({ connectionString: asOwner, schema, allowOwnerRole: true });
    expect(await allowed.get(A, 'same-id')).toBeDefined();
    await allowed.close();
  });

  it('open without the owner finds an unmigrated schema and says how to migrate it', async () => {
    const err = await PostgresStorage.open({ connectionString: url, schema: freshSchema('unmigrated') }).catch(
      (e: unknown) => e,
    );
    expect(isZerdaError(err, 'STORAGE')).toBe(true);
    expect((err as Error).message).toMatch(
      /version 0, this @zerda\/postgres needs \d+: run PostgresStorage\.migrate\(\)/,
    );
  });

  it('PostgresStorage.migrate as the owner, then open as the app role (the deploy-time path)', async () => {
    const fresh = freshSchema('deploy');
    expect(
      await PostgresStorage.migrate({ connectionString: ownerUrl(url), schema: fresh, appRoles: ['zerda_app'] }),
    ).toBe(0);
    expect(
      await PostgresStorage.migrate({ connectionString: ownerUrl(url), schema: fresh, appRoles: ['zerda_app'] }),
    ).toBe(SCHEMA_VERSION);
    const app = await PostgresStorage.open({ connectionString: url, schema: fresh });
    await app.put(createEntry(A, { content: { title: 'deployed', text: 'works' } }, 1_700_000_000_000));
    expect(await app.count({ tenantId: A })).toBe(1);
    await app.close();
  });

  it('open refuses a role that bypasses row-level security', async () => {
    const role = await client.query<{ bypass: boolean }>(
      'SELECT (rolsuper OR rolbypassrls) AS bypass FROM pg_roles WHERE rolname = current_user',
    );
    expect(role.rows[0]!.bypass).toBe(false); // the app role is subject to RLS (the suite's premise)
    const admin = url.replace('zerda_app@', 'postgres@');
    if (admin === url) return;
    const err = await PostgresStorage.open({ connectionString: admin, schema }).catch((e: unknown) => e);
    expect(isZerdaError(err, 'VALIDATION')).toBe(true);
    expect((err as Error).message).toMatch(/row-level security/);
  });
});
