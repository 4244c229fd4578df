import { execFileSync } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteStorage } from '@zerda/sqlite';
import { FilePersistence } from '@zerda/sqlite/node';
import { REPO_ROOT, spawnSource } from '../../../test/support/source-process.ts';

// Kill tests with real processes: devices (packages/sync/test/device.ts, SqliteStorage on files)
// and the `zerda-sync` server (its bin's source, on PostgreSQL) are child processes killed with
// SIGKILL mid-push, mid-pull and mid-batch; PostgreSQL itself is stopped like a crash and started
// again. Afterwards every acknowledged write is on every device, each record is on the server
// once, and the devices' exports are identical. Ports 55480–55489.

const PG_URL = process.env.ZERDA_TEST_DATABASE_URL?.trim() || undefined;
const owner = (url: string) =>
  process.env.ZERDA_TEST_OWNER_DATABASE_URL?.trim() || url.replace('zerda_app@', 'zerda_owner@');
const SKIP = PG_URL ? '' : ' (skipped: ZERDA_TEST_DATABASE_URL is not set; scripts/pg-test-server.sh start prints one)';
const T = 'kill-tenant';

interface Run {
  lines: string[];
  acked: string[];
  child: ChildProcessWithoutNullStreams;
  exited: Promise<{ code: number | null; signal: string | null; stderr: string }>;
}

/** Run the device script; `killWhen` sees each line and the run so far, and SIGKILLs the device when true. */
function device(dir: string, url: string, args: string[], killWhen?: (line: string, run: Run) => boolean): Run {
  const child = spawnSource('packages/sync/test/device.ts', [dir, url, T, ...args]);
  let buf = '';
  let stderr = '';
  const run: Run = { lines: [], acked: [], child, exited: undefined as never };
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.on('data', (d: Buffer) => {
    buf += d.toString();
    const lines = buf.split('\n');
    buf = lines.pop()!;
    for (const line of lines) {
      run.lines.push(line);
      if (line.startsWith('acked ')) run.acked.push(line.slice(6));
      if (killWhen?.(line, run) && child.exitCode === null) child.kill('SIGKILL');
    }
  });
  run.exited = new Promise((done) => child.on('exit', (code, signal) => done({ code, signal, stderr })));
  return run;
}

/** Kill at the `n`th line starting with `what` (`pushed`: an acknowledged batch, `pulled`: an applied page). */
const at = (n: number, what: string) => (_line: string, run: Run) =>
  run.lines.filter((x) => x.startsWith(what)).length === n;

async function finished(run: Run): Promise<Run> {
  const stuck = setTimeout(() => {
    console.error(`device still running; its last lines:\n${run.lines.slice(-8).join('\n')}`);
  }, 60_000);
  const { code, signal, stderr } = await run.exited.finally(() => clearTimeout(stuck));
  expect({ code, signal }, stderr).toEqual({ code: 0, signal: null });
  expect(run.lines.at(-1)).toBe('synced');
  return run;
}

async function killed(run: Run): Promise<Run> {
  const { signal, stderr } = await run.exited;
  expect(signal, `${stderr}\n${run.lines.slice(-5).join('\n')}`).toBe('SIGKILL');
  return run;
}

/** The `zerda-sync` bin (from source) on `dbUrl`, listening on `port`. */
async function syncServer(port: number, dbUrl: string, schema: string) {
  const child = spawnSource('packages/sync/src/server/cli.ts', [], {
    env: {
      ...process.env,
      ZERDA_SYNC_DATABASE_URL: dbUrl,
      ZERDA_SYNC_OWNER_DATABASE_URL: owner(dbUrl),
      ZERDA_SYNC_SCHEMA: schema,
      ZERDA_SYNC_PORT: String(port),
      ZERDA_SYNC_TOKENS: JSON.stringify({ tok: { tenants: [T] } }),
    },
  });
  let err = '';
  let killing = false;
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  await new Promise<void>((ready, fail) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('listening') && ready());
    child.on('exit', () => fail(new Error(`zerda-sync exited: ${err}`)));
  });
  // A server that dies on its own leaves the devices retrying an unreachable server (STORAGE)
  // until the test times out: say why it died.
  child.on('exit', (code, signal) => {
    if (!killing) console.error(`zerda-sync on port ${port} exited by itself (${code ?? signal}):\n${err}`);
  });
  const exited = new Promise<void>((done) => child.on('exit', () => done()));
  return {
    url: `http://127.0.0.1:${port}`,
    async kill() {
      killing = true;
      child.kill('SIGKILL');
      await exited;
    },
  };
}

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'zerda-sync-kill-'));
  dirs.push(d);
  return d;
}
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function exportOf(dir: string) {
  const s = await SqliteStorage.open({ persistence: new FilePersistence({ dir }) });
  try {
    const { exportedAt: _at, ...doc } = await s.exportJson({ tenantId: T });
    return doc;
  } finally {
    await s.close();
  }
}

/** The server's records of the tenant (as the schema's owner, inside the tenant's row-level security). */
async function serverRecords(dbUrl: string, schema: string): Promise<{ total: number; distinct: number }> {
  const c = new pg.Client({ connectionString: owner(dbUrl) });
  await c.connect();
  try {
    await c.query('BEGIN');
    await c.query(`SELECT set_config('zerda.tenant', $1, true)`, [T]);
    const r = await c.query<{ total: string; distinct: string }>(
      `SELECT count(*) AS total, count(DISTINCT record_id) AS distinct FROM "${schema}".records`,
    );
    await c.query('COMMIT');
    return { total: Number(r.rows[0]!.total), distinct: Number(r.rows[0]!.distinct) };
  } finally {
    await c.end();
  }
}

/**
 * Both devices hold every acknowledged write exactly once, with identical exports; `unacked` writes
 * at most may be there besides (a device killed after a write was durable, before it said so).
 * Resolves to the number of entries.
 */
async function expectConverged(dirA: string, dirB: string, acked: string[], unacked = 0): Promise<number> {
  const [a, b] = [await exportOf(dirA), await exportOf(dirB)];
  expect(b).toEqual(a);
  const ids = a.entries.map((e) => e.id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(acked.filter((id) => !ids.includes(id))).toEqual([]);
  expect(ids.length - new Set(acked).size).toBeGreaterThanOrEqual(0);
  expect(ids.length - new Set(acked).size).toBeLessThanOrEqual(unacked);
  // No version met itself as a concurrent one (what applying a record twice as new would do).
  expect(a.entries.filter((e) => e.metadata.history !== undefined)).toEqual([]);
  return ids.length;
}

/**
 * The devices met the outage as retried `STORAGE` (offline) errors only, and one more round each
 * converges them.
 */
async function retriedThenConverge(url: string, ...devices: [string, Run][]) {
  const errors = devices.flatMap(([, r]) => r.lines).filter((l) => l.startsWith('error'));
  expect(errors.length).toBeGreaterThan(0);
  expect(errors.filter((l) => l !== 'error STORAGE true')).toEqual([]);
  for (const [dir] of [...devices].reverse()) await finished(device(dir, url, ['sync', '100']));
  const [[dirA], [dirB]] = devices as [[string, Run], [string, Run]];
  await expectConverged(
    dirA,
    dirB,
    devices.flatMap(([, r]) => r.acked),
  );
}

const schemaName = () => `sync_kill_${globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 10)}`;

describe.skipIf(!PG_URL)(`sync when processes are killed (SIGKILL, real PostgreSQL)${SKIP}`, () => {
  it('a device killed mid-push and another killed mid-pull resume: nothing lost, nothing twice', async () => {
    const schema = schemaName();
    const server = await syncServer(55480, PG_URL!, schema);
    try {
      const [dirA, dirB] = [await tempDir(), await tempDir()];
      const acked: string[] = [];
      // A writes 80 memories, then pushes 5 per batch: killed after its 3rd acknowledged batch,
      // then at its 7th acknowledged write of a second round written while it syncs.
      const w = await killed(device(dirA, server.url, ['write', '80', 'a', 'sync', '5'], at(3, 'pushed')));
      acked.push(...w.acked);
      expect(w.acked).toHaveLength(80);
      const live = await killed(
        device(dirA, server.url, ['live', '40', 'a2', '5'], (l, r) => l.startsWith('pushed') && r.acked.length >= 7),
      );
      acked.push(...live.acked);
      await finished(device(dirA, server.url, ['sync', '50']));
      // Resumed, A pushes the rest. B writes its own, then pulls 5 a page: killed after its 4th applied page, twice.
      const b1 = await killed(device(dirB, server.url, ['write', '30', 'b', 'sync', '5'], at(4, 'pulled')));
      acked.push(...b1.acked);
      await killed(device(dirB, server.url, ['sync', '5'], at(4, 'pulled')));
      await finished(device(dirB, server.url, ['sync', '50']));
      await finished(device(dirA, server.url, ['sync', '50']));
      // The live round was killed mid-write: one write may be durable without its acknowledgement.
      const n = await expectConverged(dirA, dirB, acked, 1);
      expect(await serverRecords(PG_URL!, schema)).toEqual({ total: n, distinct: n });
    } finally {
      await server.kill();
    }
  }, 300_000);

  it('the sync server killed mid-batch, three times: the devices retry with typed errors, then converge', async () => {
    const schema = schemaName();
    const port = 55481;
    let server = await syncServer(port, PG_URL!, schema);
    const [dirA, dirB] = [await tempDir(), await tempDir()];
    try {
      let kills = 0;
      let restarting: Promise<void> = Promise.resolve();
      // A pushes 300 memories 50 a batch; each acknowledged batch (while fewer than 3 kills) kills
      // the server a moment later, while A seals and sends the next one, then starts it again.
      const a = device(dirA, server.url, ['write', '300', 'a', 'sync', '50'], (line) => {
        if (line.startsWith('pushed') && kills < 3 && !line.endsWith(' 0')) {
          kills++;
          restarting = restarting.then(async () => {
            await new Promise((r) => setTimeout(r, Math.random() * 40));
            await server.kill();
            await new Promise((r) => setTimeout(r, 300));
            server = await syncServer(port, PG_URL!, schema);
          });
        }
        return false;
      });
      const b = device(dirB, server.url, ['write', '20', 'b', 'sync', '50']);
      await finished(a);
      await restarting;
      await finished(b);
      expect(kills).toBe(3);
      await retriedThenConverge(server.url, [dirA, a], [dirB, b]);
      const held = await serverRecords(PG_URL!, schema);
      expect(held).toEqual({ total: 320, distinct: 320 });
    } finally {
      await server.kill();
    }
  }, 300_000);
});

// PostgreSQL stopped like a crash (pg_ctl stop -m immediate) and started again during sync: a
// private server of its own (root and PostgreSQL binaries needed), as in @zerda/postgres's
// connection-loss tests.
const crashPort = Number(
  process.env.ZERDA_TEST_SYNC_CRASH_PG_PORT ?? Number(PG_URL?.match(/port=(\d+)/)?.[1] ?? 55432) + 5,
);
const canCrash = PG_URL !== undefined && process.getuid?.() === 0 && process.env.ZERDA_TEST_CITUS !== '1';
describe.skipIf(!canCrash)(
  `sync when PostgreSQL restarts mid-sync${canCrash ? '' : ' (skipped: needs root and ZERDA_TEST_DATABASE_URL, single server)'}`,
  () => {
    const script = `${REPO_ROOT}/scripts/pg-test-server.sh`;
    const env = { ...process.env, ZERDA_PG_PORT: String(crashPort) };
    const pgServer = (cmd: string) => execFileSync('bash', [script, cmd], { env, encoding: 'utf8' }).trim();
    let url = '';
    beforeAll(() => {
      url = pgServer('start').split('\n').at(-1)!;
    }, 120_000);
    afterAll(() => {
      pgServer('stop');
    });

    it('the server answers typed errors while PostgreSQL is down and recovers; nothing lost, nothing twice', async () => {
      const schema = schemaName();
      const server = await syncServer(55482, url, schema);
      const [dirA, dirB] = [await tempDir(), await tempDir()];
      try {
        let crashed: Promise<void> | undefined;
        const a = device(dirA, server.url, ['live', '200', 'a', '20'], (line, r) => {
          if (!crashed && line.startsWith('pushed') && r.acked.length >= 60)
            crashed = (async () => {
              pgServer('crash');
              await new Promise((done) => setTimeout(done, 1500));
              pgServer('resume');
            })();
          return false;
        });
        const b = device(dirB, server.url, ['write', '25', 'b', 'sync', '20']);
        await finished(a);
        await crashed;
        await finished(b);
        expect(crashed).toBeDefined();
        await retriedThenConverge(server.url, [dirA, a], [dirB, b]);
        expect(await serverRecords(url, schema)).toEqual({ total: 225, distinct: 225 });
      } finally {
        await server.kill();
      }
    }, 300_000);
  },
);
