import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { isZerdaError } from '@zerda/core';
import { createEntry } from '@zerda/core/adapter';
import { REPO_ROOT, spawnSource } from '../../../test/support/source-process.ts';
import { PostgresStorage } from './postgres-storage.js';
import { DATABASE_URL, adminUrl, describePostgres, freshSchema, ownerUrl } from './test-database.js';

const T0 = 1_700_000_000_000;

// An admin's kill of a connection waiting for a row lock: the process survives (an 'error'
// listener on the checked-out client), the write is retried on a fresh connection and lands.
describePostgres('PostgresStorage when a connection is killed (pg_terminate_backend mid-lock)', (url) => {
  const schema = freshSchema('kill');
  let storage: PostgresStorage;
  let holder: pg.Client;
  beforeAll(async () => {
    storage = await PostgresStorage.open({ connectionString: url, ownerConnectionString: ownerUrl(url), schema });
    await storage.put({ ...createEntry('t', { content: { title: 'c', text: 'counter' } }, T0), id: 'c' });
    holder = new pg.Client({ connectionString: url });
    await holder.connect();
  });
  afterAll(async () => {
    await holder?.end();
    await storage?.close();
  });

  /** Hold the entry's row lock, start `run`, kill the backend that waits for the lock, release. */
  async function killWaiter<T>(run: () => Promise<T>): Promise<{ result: T | undefined; error: unknown }> {
    await holder.query('BEGIN');
    await holder.query(`SET LOCAL citus.propagate_set_commands = 'local'`); // Citus: the workers see the tenant
    await holder.query(`SET LOCAL zerda.tenant = 't'`);
    const locked = await holder.query(
      `SELECT 1 FROM "${schema}".entries WHERE tenant_id = 't' AND id = 'c' FOR UPDATE`,
    );
    expect(locked.rowCount).toBe(1);
    const pending = run().then(
      (result) => ({ result, error: undefined }),
      (error: unknown) => ({ result: undefined, error }),
    );
    let killed = false;
    try {
      for (let i = 0; i < 200 && !killed; i++) {
        // pg_stat_activity is a snapshot kept for the transaction: take a fresh one each time.
        await holder.query('SELECT pg_stat_clear_snapshot()');
        const r = await holder.query<{ ok: boolean }>(
          `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
           WHERE pid <> pg_backend_pid() AND state = 'active' AND query LIKE '%FOR UPDATE%' AND datname = current_database()
             AND backend_type = 'client backend' AND query NOT LIKE '%pg_terminate_backend%'`,
        );
        killed = r.rows.some((x) => x.ok);
        if (!killed) await new Promise((r) => setTimeout(r, 25));
      }
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await holder.query('ROLLBACK');
    }
    expect(killed).toBe(true);
    return pending;
  }

  it('an update killed while waiting for its lock is retried and lands; the process keeps running', async () => {
    const { result, error } = await killWaiter(() =>
      storage.update('t', 'c', (e) => ({ ...e, metadata: { n: Number(e.metadata.n ?? 0) + 1 } })),
    );
    expect(error).toBeUndefined();
    expect(result?.metadata.n).toBe(1);
    expect((await storage.get('t', 'c'))?.metadata.n).toBe(1);
  });

  it('without retries the kill is a typed STORAGE error (SQLSTATE 57P01), nothing is written, the pool recovers', async () => {
    const once = await PostgresStorage.open({ connectionString: url, schema, retries: 0 });
    try {
      const { error } = await killWaiter(() =>
        once.update('t', 'c', (e) => ({ ...e, metadata: { n: Number(e.metadata.n ?? 0) + 1 } })),
      );
      expect(isZerdaError(error, 'STORAGE')).toBe(true);
      expect((error as { details?: Record<string, unknown> }).details).toMatchObject({
        sqlState: '57P01',
        connectionLost: true,
        outcome: 'not-written',
      });
      expect((await once.get('t', 'c'))?.metadata.n).toBe(1);
      await once.update('t', 'c', (e) => ({ ...e, metadata: { n: Number(e.metadata.n ?? 0) + 1 } }));
      expect((await storage.get('t', 'c'))?.metadata.n).toBe(2);
    } finally {
      await once.close();
    }
  });
});

// A server stopped like a crash (pg_ctl stop -m immediate) during a burst of writes, then started
// again: a private server of its own (it is stopped), so root and PostgreSQL binaries are needed.
// On Citus (ZERDA_TEST_CITUS=1) a private cluster of its own: first the worker holding the tenant's
// shards is crashed (the coordinator's connections to it die), then the coordinator.
const onCitus = process.env.ZERDA_TEST_CITUS === '1';
const crashPort = Number(
  process.env.ZERDA_TEST_CRASH_PG_PORT ?? Number(DATABASE_URL?.match(/port=(\d+)/)?.[1] ?? 55432) + 4,
);
const canCrash = DATABASE_URL !== undefined && process.getuid?.() === 0;
describe.skipIf(!canCrash)(
  `PostgresStorage when the ${onCitus ? 'cluster' : 'server'} stops mid-burst (pg_ctl stop -m immediate)${canCrash ? '' : ' (skipped: needs root and ZERDA_TEST_DATABASE_URL)'}`,
  () => {
    const script = `${REPO_ROOT}/scripts/pg-test-server.sh`;
    const env = { ...process.env, ZERDA_PG_PORT: String(crashPort) };
    const server = (...args: string[]) => execFileSync('bash', [script, ...args], { env, encoding: 'utf8' }).trim();
    let url = '';
    beforeAll(() => {
      url = server(onCitus ? 'start-citus' : 'start')
        .split('\n')
        .at(-1)!;
    }, 240_000);
    afterAll(() => {
      server('stop');
    });

    /** The cluster node (0 the coordinator, 1 and 2 the workers) holding `tenant`'s shard of `schema`'s entries. */
    async function workerOf(schema: string, tenant: string): Promise<string> {
      const admin = new pg.Client({ connectionString: adminUrl(url) });
      await admin.connect();
      try {
        const r = await admin.query<{ port: number }>(
          `SELECT n.nodeport AS port FROM pg_dist_placement p JOIN pg_dist_node n ON n.groupid = p.groupid
           WHERE p.shardid = get_shard_id_for_distribution_column($1::regclass, $2::text)`,
          [`${schema}.entries`, tenant],
        );
        expect(r.rows).toHaveLength(1);
        return String(r.rows[0]!.port - crashPort);
      } finally {
        await admin.end();
      }
    }

    it(
      'no crash, typed STORAGE errors while it is down, the pool recovers, nothing acknowledged is lost',
      async () => {
        const schema = freshSchema('crash');
        const child = spawnSource('packages/postgres/test/burst-writer.ts', [url, ownerUrl(url), schema, 't', '4']);
        let out = '';
        let err = '';
        let acked = 0;
        const waiters: { n: number; done: () => void }[] = [];
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          for (const m of d.toString().matchAll(/acked (\d+)/g)) acked = Math.max(acked, Number(m[1]));
          for (const w of waiters.splice(0))
            if (acked >= w.n) w.done();
            else waiters.push(w);
        });
        child.stderr.on('data', (d: Buffer) => (err += d.toString()));
        const exited = new Promise<number | null>((done) => child.on('exit', done));
        // A writer that crashed (an uncaught 'error') acknowledges nothing more: fail at once, saying so.
        const ackedAtLeast = (n: number) =>
          Promise.race([
            new Promise<void>((done) => (acked >= n ? done() : waiters.push({ n, done }))),
            exited.then((c) => {
              throw new Error(`the writer exited (${c}) before ${n} acknowledged puts: ${err.slice(-2000)}`);
            }),
          ]);
        let code: number | null;
        try {
          await ackedAtLeast(30);
          // On a cluster: the tenant's worker, then the coordinator; on one server, the server.
          const nodes = onCitus ? [await workerOf(schema, 't'), '0'] : [''];
          for (const node of nodes) {
            server('crash', ...(node ? [node] : []));
            const atCrash = acked;
            await new Promise((r) => setTimeout(r, 2000));
            server('resume', ...(node ? [node] : []));
            await ackedAtLeast(atCrash + 40);
          }
          child.stdin.write('stop\n');
          code = await exited;
        } finally {
          if (child.exitCode === null) child.kill(); // a failed step must not leave the writer running
        }
        expect(code, err).toBe(0);
        const report = JSON.parse(out.trim().split('\n').at(-1)!) as {
          acked: string[];
          errors: {
            zerda: boolean;
            code: string;
            sqlState?: string;
            connectionLost?: boolean;
            outcome?: string;
            message: string;
          }[];
        };
        // While a server was down, calls failed after their retries, each a typed STORAGE error;
        // a socket error is never reported as a SQLSTATE. On Citus a lost worker is reported by the
        // coordinator as XX000 ("connection to the remote node …"), a lost connection too.
        expect(report.errors.length).toBeGreaterThan(0);
        for (const e of report.errors) {
          expect(e.zerda, e.message).toBe(true);
          expect(e.code, e.message).toBe('STORAGE');
          expect(e.connectionLost, e.message).toBe(true);
          // The coordinator reporting a lost worker aborted the transaction: never an unknown outcome.
          if (/remote node|shard|SSL/.test(e.message)) expect(e.outcome, e.message).not.toBe('unknown');
          if (e.sqlState !== undefined)
            expect(e.sqlState, e.message).toMatch(onCitus ? /^(08|57P|XX000|58030)/ : /^(08|57P)/);
          expect(e.message).not.toMatch(/SQLSTATE E[A-Z]+/);
        }
        if (onCitus) expect(report.errors.some((e) => /remote node/.test(e.message))).toBe(true);
        // Every acknowledged write survived the crash.
        const check = await PostgresStorage.open({ connectionString: url, schema });
        try {
          const found = await check.getMany('t', report.acked);
          expect(found.length).toBe(report.acked.length);
        } finally {
          await check.close();
        }
      },
      onCitus ? 240_000 : 120_000,
    );
  },
);
