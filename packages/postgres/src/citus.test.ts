import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createEntry } from '@zerda/core/adapter';
import { PostgresStorage } from './postgres-storage.js';
import { DATABASE_URL, adminUrl, freshSchema, ownerUrl } from './test-database.js';

// The same PostgresStorage on a Citus cluster (scripts/pg-test-server.sh start-citus: a coordinator,
// two workers and a spare node): how the migrations lay the tables out, that the tenant binding
// reaches the workers, and a rebalance onto the spare while writing. Runs when ZERDA_TEST_CITUS=1
// (scripts/test.sh sets it for its cluster run).
const onCitus = DATABASE_URL !== undefined && process.env.ZERDA_TEST_CITUS === '1';
const T0 = 1_700_000_000_000;

describe.skipIf(!onCitus)(
  `PostgresStorage on a Citus cluster${onCitus ? '' : ' (skipped: ZERDA_TEST_CITUS is not 1)'}`,
  () => {
    const url = DATABASE_URL ?? '';
    const schema = freshSchema('citus');
    let storage: PostgresStorage;
    let admin: pg.Client;
    const model = { id: 'm8', dim: 8 };
    const vec = (i: number) => Float32Array.from({ length: 8 }, (_, j) => Math.cos((i + 1) * (j + 1)));

    beforeAll(async () => {
      storage = await PostgresStorage.open({ connectionString: url, ownerConnectionString: ownerUrl(url), schema });
      admin = new pg.Client({ connectionString: adminUrl(url) });
      await admin.connect();
      for (const t of ['a', 'b', 'c', 'd']) {
        const entries = Array.from({ length: 5 }, (_, i) => ({
          ...createEntry(t, { content: { title: `${t}${i}`, text: `tenant ${t} note ${i}` } }, T0 + i),
          id: `${t}-${i}`,
        }));
        await storage.putMany(entries);
        await storage.putVectors(
          t,
          model,
          entries.map((e, i) => ({ id: e.id, vector: vec(i) })),
        );
      }
    }, 120_000);
    afterAll(async () => {
      await admin?.end();
      await storage?.close();
    });

    it('reports a Citus cluster', () => {
      expect(storage.citus).toBe(true);
    });

    it('tenant tables are distributed by tenant_id in one colocation group; global tables are reference tables', async () => {
      const r = await admin.query<{ t: string; method: string; col: string | null; coloc: number }>(
        `SELECT logicalrelid::regclass::text AS t, partmethod AS method,
              column_to_column_name(logicalrelid, partkey) AS col, colocationid AS coloc
       FROM pg_dist_partition WHERE logicalrelid::regclass::text LIKE $1 ORDER BY 1`,
        [`${schema}.%`],
      );
      const by = new Map(r.rows.map((x) => [x.t.replace(`${schema}.`, ''), x]));
      const tenantTables = ['entries', 'profiles', 'tenants', 'terms', 'vectors'];
      for (const t of tenantTables) {
        expect(by.get(t)?.method, t).toBe('h');
        expect(by.get(t)?.col, t).toBe('tenant_id');
      }
      expect(new Set(tenantTables.map((t) => by.get(t)!.coloc)).size).toBe(1);
      for (const t of ['migrations', 'vector_indexes']) expect(by.get(t)?.method, t).toBe('n');
    });

    it('one HNSW index per shard of the vectors table', async () => {
      const shards = await admin.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_dist_shard WHERE logicalrelid = $1::regclass`,
        [`${schema}.vectors`],
      );
      const indexes = await admin.query<{ result: string }>(
        `SELECT result FROM run_command_on_workers($$SELECT count(*) FROM citus_shard_indexes_on_worker
         WHERE "Schema" = '${schema}' AND "Name" LIKE 'vectors_hnsw_%'$$)`,
      );
      const total = indexes.rows.reduce((n, x) => n + Number(x.result), 0);
      expect(shards.rows[0]!.n).toBeGreaterThan(1);
      expect(total).toBe(shards.rows[0]!.n);
      const hits = await storage.searchVectors('b', model, vec(3), 2);
      expect(hits[0]!.id).toBe('b-3');
    });

    it('the workers see the tenant bound with SET LOCAL (propagated), never one bound with set_config', async () => {
      const app = new pg.Client({ connectionString: url });
      await app.connect();
      try {
        const count = async (bind: string) => {
          await app.query('BEGIN');
          try {
            await app.query(`SET LOCAL citus.propagate_set_commands = 'local'`);
            await app.query(bind);
            return (await app.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${schema}".entries`)).rows[0]!.n;
          } finally {
            await app.query('ROLLBACK');
          }
        };
        expect(await count(`SET LOCAL zerda.tenant = 'a'`)).toBe(5);
        expect(await count(`SELECT set_config('zerda.tenant', 'a', true)`)).toBe(0); // fails closed
      } finally {
        await app.end();
      }
    });

    it("a vector search is one call Citus hands to the tenant's worker; not handed over, it still binds the tenant there", async () => {
      const fn = `${schema}.search_vectors(text, text, integer, vector, integer, integer, integer, integer)`;
      const dist = await admin.query<{ arg: number; same: boolean }>(
        `SELECT o.distribution_argument_index AS arg, o.colocationid = p.colocationid AS same
         FROM pg_dist_object o, pg_dist_partition p WHERE o.objid = $1::regprocedure AND p.logicalrelid = $2::regclass`,
        [fn, `${schema}.vectors`],
      );
      expect(dist.rows).toEqual([{ arg: 0, same: true }]);
      const app = new pg.Client({ connectionString: url });
      await app.connect();
      const issued: string[] = [];
      app.on('notice', (n) => {
        if (n.message?.startsWith('issuing ')) issued.push(n.message);
      });
      try {
        await app.query('SET citus.log_remote_commands = on; SET client_min_messages = log');
        const call = `SELECT id FROM "${schema}".search_vectors('b', 'm8', 8, $1, 2, 100, 1, 1000)`;
        const q = `[${Array.from(vec(3)).join(',')}]`;
        // Alone: the coordinator sends the worker the call itself, one command.
        expect((await app.query<{ id: string }>(call, [q])).rows[0]?.id).toBe('b-3');
        expect(issued).toHaveLength(1);
        expect(issued[0]).toContain('search_vectors(');
        // Inside a transaction block Citus runs the function on the coordinator: its SET LOCAL of the
        // tenant travels to the worker with the shard's statements, so the search still finds b's rows.
        issued.length = 0;
        await app.query('BEGIN');
        expect((await app.query<{ id: string }>(call, [q])).rows[0]?.id).toBe('b-3');
        await app.query('COMMIT');
        expect(issued.join('\n')).toContain(`SET LOCAL zerda.tenant = 'b'`);
      } finally {
        await app.end();
      }
    });

    it('rebalancing onto a third worker while the app writes loses nothing', async () => {
      const spare = Number(url.match(/port=(\d+)/)![1]) + 3;
      await admin.query(`SELECT citus_add_node('127.0.0.1', $1)`, [spare]);
      const acked: string[] = [];
      const failures: unknown[] = [];
      let writing = true;
      const writers = ['a', 'b', 'c', 'd'].map(async (t) => {
        for (let i = 0; writing; i++) {
          const id = `${t}-r${i}`;
          try {
            await storage.put({
              ...createEntry(t, { content: { title: id, text: `during rebalance ${id}` } }, T0),
              id,
            });
            acked.push(`${t}/${id}`);
          } catch (e) {
            failures.push(e);
          }
        }
      });
      // block_writes: FORCE ROW LEVEL SECURITY stops Citus's logical-replication moves (README).
      // This schema's colocation group only (the other suites' schemas share the cluster).
      await admin.query(`SELECT rebalance_table_shards($1, shard_transfer_mode => 'block_writes')`, [
        `${schema}.entries`,
      ]);
      writing = false;
      await Promise.all(writers);
      const moved = await admin.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM citus_shards WHERE nodeport = $1 AND table_name::text = $2`,
        [spare, `${schema}.entries`],
      );
      expect(moved.rows[0]!.n).toBeGreaterThan(0);
      expect(acked.length).toBeGreaterThan(0);
      for (const t of ['a', 'b', 'c', 'd']) {
        const ids = acked.filter((x) => x.startsWith(`${t}/`)).map((x) => x.slice(2));
        expect((await storage.getMany(t, ids)).length, t).toBe(ids.length);
        expect(await storage.count({ tenantId: t })).toBe(5 + ids.length);
      }
      // Failed calls (if any) were typed and wrote nothing: the counts above equal the acked writes.
      for (const e of failures) expect((e as { code?: string }).code).toMatch(/^(STORAGE|CONFLICT)$/);
      // The search function follows its colocated shards to their new node.
      expect((await storage.searchVectors('b', model, vec(3), 2))[0]?.id).toBe('b-3');
    }, 300_000);
  },
);
