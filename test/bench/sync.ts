/**
 * @zerda/sync: what sync costs, on the real client, handler and record store.
 *   1. initial sync of N memories (default 10,000) to a new device: records/s, bytes per memory on
 *      the wire (request and response bodies), with the first device's push of them;
 *   2. push latency of one write (a write, then `syncNow()` until the server acknowledged it):
 *      p50 / p95 over 60 writes;
 *   3. server throughput with C clients (default 50) pushing and pulling at once, each its own
 *      device and tenant: records/s and request p50 / p95;
 *   4. the write path with sync on: `put` latency while a sync client pushes every 50 ms, against
 *      no sync client, same store kind, same run (ratio). The change log itself is written on every
 *      write whether sync runs or not (there is no store without it to compare with in one run).
 * The server is the `zerda-sync` bin (its own process, from source) on PostgreSQL when
 * ZERDA_TEST_DATABASE_URL is set (scripts/pg-test-server.sh start prints one), else
 * `createSyncHandler` over the in-memory record store in this process (the output says which).
 * Devices are SqliteStorage stores in memory (sql.js), each in this process. Key derivation uses
 * 1,000 PBKDF2 iterations (it runs once per device and is not what is measured).
 * Run: `node --conditions=@zerda/source --import tsx test/bench/sync.ts [memories] [clients]`
 * Prints figures and writes them to the bench history (history.ts); never gates CI.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEntry } from '@zerda/core/adapter';
import { isZerdaError } from '@zerda/core';
import type { MemoryEntry } from '@zerda/core';
import { SqliteStorage } from '@zerda/sqlite';
import { startSync } from '@zerda/sync';
import type { SyncHandle } from '@zerda/sync';
import { MemoryRecordStore, createSyncHandler } from '@zerda/sync/server';
import { spawnSource } from '../support/source-process.js';
import type { BenchFigure } from './history.js';
import { machineEnv, writeBenchRecord } from './history.js';

const [memories = 10_000, clients = 50] = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const PG_URL = process.env.ZERDA_TEST_DATABASE_URL?.trim() || undefined;
const TOKEN = 'bench-token';
const tenants = [
  'bench-initial',
  'bench-latency',
  'bench-write',
  ...Array.from({ length: clients }, (_, i) => `bench-c${i}`),
];
const runId = Date.now().toString(36);
const T = (t: string) => `${t}-${runId}`;
const log = (line: string) => console.error(line);

/** The sync server for this run: its base URL and how to stop it. */
async function startServer(): Promise<{ url: string; where: string; close(): Promise<void> }> {
  const grant = { [TOKEN]: { tenants: tenants.map(T) } };
  if (PG_URL) {
    const port = 55490;
    const child = spawnSource('packages/sync/src/server/cli.ts', [], {
      env: {
        ...process.env,
        ZERDA_SYNC_DATABASE_URL: PG_URL,
        ZERDA_SYNC_OWNER_DATABASE_URL:
          process.env.ZERDA_TEST_OWNER_DATABASE_URL?.trim() || PG_URL.replace('zerda_app@', 'zerda_owner@'),
        ZERDA_SYNC_SCHEMA: 'zerda_sync_bench',
        ZERDA_SYNC_PORT: String(port),
        ZERDA_SYNC_TOKENS: JSON.stringify(grant),
        // The initial sync's 10k records are one tenant's; the default quota is none.
        ZERDA_SYNC_MAX_BODY_BYTES: String(8 * 1024 * 1024),
      },
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    await new Promise<void>((ready, fail) => {
      child.stdout.on('data', (d: Buffer) => d.toString().includes('listening') && ready());
      child.on('exit', () => fail(new Error(`zerda-sync exited: ${err}`)));
    });
    const exited = new Promise<void>((done) => child.on('exit', () => done()));
    return {
      url: `http://127.0.0.1:${port}`,
      where: 'zerda-sync (own process) on PostgreSQL',
      async close() {
        child.kill('SIGKILL');
        await exited;
      },
    };
  }
  const handler = createSyncHandler({
    store: new MemoryRecordStore(),
    verify: (token) => (token === TOKEN ? { tenants: tenants.map(T) } : null),
    maxBodyBytes: 8 * 1024 * 1024,
  });
  const server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    where:
      'createSyncHandler over the in-memory record store, in this process (set ZERDA_TEST_DATABASE_URL for PostgreSQL)',
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Bytes sent and received by one device's requests (bodies only). */
interface Wire {
  sent: number;
  received: number;
  requests: number[];
}

function device(
  storage: SqliteStorage,
  url: string,
  tenant: string,
  extra: { batchSize?: number; intervalMs?: number } = {},
) {
  const wire: Wire = { sent: 0, received: 0, requests: [] };
  const counted: typeof fetch = async (input, init) => {
    const t0 = performance.now();
    if (typeof init?.body === 'string') wire.sent += Buffer.byteLength(init.body);
    const res = await fetch(input, init);
    const body = await res.arrayBuffer();
    wire.received += body.byteLength;
    wire.requests.push(performance.now() - t0);
    return new Response(body, { status: res.status, headers: res.headers });
  };
  const handle: SyncHandle = startSync({
    storage,
    url,
    tenantId: T(tenant),
    token: TOKEN,
    passphrase: 'bench passphrase for sync',
    iterations: 1000,
    allowWeakIterations: true,
    batchSize: extra.batchSize ?? 500,
    autoStart: extra.intervalMs !== undefined,
    // Without an interval only the bench's own syncNow() calls move records (no timer cycle between).
    intervalMs: extra.intervalMs ?? 3_600_000,
    fetch: counted,
  });
  return { handle, wire };
}

const TOPICS = ['hiking', 'tea', 'the project deadline', 'a sister in Lisbon', 'sourdough', 'the dentist', 'jazz'];
function memory(tenant: string, i: number): MemoryEntry {
  return createEntry(
    T(tenant),
    {
      content: {
        title: `note ${i}`,
        text: `Memory ${i}: the user mentioned ${TOPICS[i % TOPICS.length]} and said it matters to them (${i * 7919}).`,
      },
      kind: 'fact',
    },
    1_700_000_000_000 + i,
  );
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

/**
 * Connections the server closed under a request (its keep-alive timeout racing fetch's reuse of the
 * socket): the client reports them as offline (`STORAGE`) and a device retries; counted here.
 */
let retried = 0;

/** One sync cycle, retried at once when the server could not be reached. */
async function cycle(h: SyncHandle) {
  for (;;) {
    try {
      return await h.syncNow();
    } catch (e) {
      if (!isZerdaError(e, 'STORAGE') || e.details?.offline !== true || retried++ > 100) throw e;
    }
  }
}

/** Syncs until a cycle moves nothing. */
async function drain(h: SyncHandle): Promise<void> {
  for (;;) {
    const r = await cycle(h);
    if (r.pushed === 0 && r.pulled === 0) return;
  }
}

const server = await startServer();
log(`server: ${server.where}; ${memories} memories, ${clients} clients`);
const figures: BenchFigure[] = [];
const fig = (name: string, value: number, unit: string, better: 'lower' | 'higher', noise = 0.3) =>
  figures.push({ name, value: round(value), unit, noise, better });
const open: { close(): Promise<void> }[] = [];
const newStore = async () => {
  const s = await SqliteStorage.open();
  open.push(s);
  return s;
};

try {
  // 1. Initial sync of `memories` to a new device.
  {
    const a = await newStore();
    for (let i = 0; i < memories; i += 1000)
      await a.putMany(Array.from({ length: Math.min(1000, memories - i) }, (_, j) => memory('bench-initial', i + j)));
    const pusher = device(a, server.url, 'bench-initial');
    let t0 = performance.now();
    await drain(pusher.handle);
    const pushMs = performance.now() - t0;
    await pusher.handle.stop();
    const b = await newStore();
    const fresh = device(b, server.url, 'bench-initial');
    t0 = performance.now();
    await drain(fresh.handle);
    const pullMs = performance.now() - t0;
    await fresh.handle.stop();
    const got = await b.count({ tenantId: T('bench-initial') });
    if (got !== memories) throw new Error(`the new device holds ${got} of ${memories} memories`);
    fig(`initial sync ${memories}: new device, total`, pullMs, 'ms', 'lower');
    fig(`initial sync ${memories}: new device, records/s`, (memories / pullMs) * 1000, 'records/s', 'higher');
    fig(`initial sync ${memories}: bytes per memory received`, fresh.wire.received / memories, 'B', 'lower', 0.05);
    fig(`initial push ${memories}: first device, records/s`, (memories / pushMs) * 1000, 'records/s', 'higher');
    fig(`initial push ${memories}: bytes per memory sent`, pusher.wire.sent / memories, 'B', 'lower', 0.05);
    log(`1. initial sync done (${round(pullMs / 1000, 1)} s pull, ${round(pushMs / 1000, 1)} s push)`);
  }

  // 2. Push latency of one write.
  {
    const s = await newStore();
    const d = device(s, server.url, 'bench-latency');
    await cycle(d.handle);
    const samples: number[] = [];
    for (let i = 0; i < 60; i++) {
      const t0 = performance.now();
      await s.put(memory('bench-latency', i));
      const r = await cycle(d.handle);
      if (r.pushed !== 1) throw new Error(`a sync after one write pushed ${r.pushed}`);
      if (i >= 10) samples.push(performance.now() - t0);
    }
    await d.handle.stop();
    fig('push latency of one write p50', quantile(samples, 0.5), 'ms', 'lower');
    fig('push latency of one write p95', quantile(samples, 0.95), 'ms', 'lower');
    log('2. push latency done');
  }

  // 3. C clients at once, each its own tenant: each pushes 100 new records (4 batches of 25) and
  // pulls the 100 that another device of its tenant pushed just before.
  {
    const perClient = 100;
    const batch = (tenant: string, from: number) =>
      Array.from({ length: perClient }, (_, i) => memory(tenant, from + i));
    const prepared = await Promise.all(
      Array.from({ length: clients }, async (_, c) => {
        const tenant = `bench-c${c}`;
        const [other, s] = [await newStore(), await newStore()];
        await other.putMany(batch(tenant, 1_000_000));
        await s.putMany(batch(tenant, 0));
        return {
          tenant,
          other,
          s,
          seed: device(other, server.url, tenant),
          d: device(s, server.url, tenant, { batchSize: 25 }),
        };
      }),
    );
    // Untimed: both devices of each tenant meet once (key check, first records), then each writes
    // a fresh round and the other device pushes its round.
    for (const p of prepared) {
      await drain(p.seed.handle);
      await drain(p.d.handle);
      await p.other.putMany(batch(p.tenant, 2_000_000));
      await p.s.putMany(batch(p.tenant, 3_000_000));
      await drain(p.seed.handle);
      await p.seed.handle.stop();
    }
    for (const { d } of prepared) d.wire.requests.length = 0;
    const t0 = performance.now();
    await Promise.all(prepared.map(({ d }) => cycle(d.handle)));
    const wallMs = performance.now() - t0;
    // Counted from the devices (a cycle retried after a closed connection reports only its own part).
    for (const p of prepared) {
      const held = await p.s.count({ tenantId: T(p.tenant) });
      if (held !== 4 * perClient || p.d.handle.status.pending !== 0)
        throw new Error(`client ${p.tenant} holds ${held} of ${4 * perClient}, ${p.d.handle.status.pending} pending`);
    }
    const pushed = clients * perClient;
    const pulled = clients * perClient;
    const requests = prepared.flatMap(({ d }) => d.wire.requests);
    for (const { d } of prepared) await d.handle.stop();
    fig(`${clients} clients at once: records pushed/s (server)`, (pushed / wallMs) * 1000, 'records/s', 'higher');
    fig(
      `${clients} clients at once: records pushed and pulled/s`,
      ((pushed + pulled) / wallMs) * 1000,
      'records/s',
      'higher',
    );
    fig(`${clients} clients at once: request p50`, quantile(requests, 0.5), 'ms', 'lower');
    fig(`${clients} clients at once: request p95`, quantile(requests, 0.95), 'ms', 'lower');
    fig(`${clients} clients at once: wall time of one round`, wallMs, 'ms', 'lower');
    log(`3. ${clients} clients done (${requests.length} requests)`);
  }

  // 4. The write path with and without a sync client running (alternating rounds, medians).
  {
    const rounds = 6;
    const perRound = 150;
    const medians = { off: [] as number[], on: [] as number[] };
    let n = 0;
    for (let r = 0; r < rounds; r++) {
      for (const mode of r % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
        const s = await newStore();
        await s.putMany(Array.from({ length: 1000 }, (_, i) => memory('bench-write', 3_000_000 + r * 10_000 + i)));
        const d = mode === 'on' ? device(s, server.url, 'bench-write', { intervalMs: 50 }) : undefined;
        if (d) await cycle(d.handle);
        const times: number[] = [];
        for (let i = 0; i < perRound; i++) {
          const t0 = performance.now();
          await s.put(memory('bench-write', n++));
          times.push(performance.now() - t0);
        }
        if (d) {
          await drain(d.handle);
          await d.handle.stop();
        }
        medians[mode].push(quantile(times, 0.5));
      }
    }
    const off = quantile(medians.off, 0.5);
    const on = quantile(medians.on, 0.5);
    fig('write (put) p50, sync off', off, 'ms', 'lower');
    fig('write (put) p50, sync on (pushing every 50 ms)', on, 'ms', 'lower');
    fig('write with sync on / off', on / off, 'x', 'lower', 0.2);
    log('4. write path done');
  }
} finally {
  for (const s of open) await s.close().catch(() => undefined);
  await server.close();
}

console.log(
  `Sync bench — server: ${server.where}; ${retried} request(s) retried after the server closed the connection`,
);
console.table(figures.map(({ name, value, unit }) => ({ figure: name, value, unit })));
const file = writeBenchRecord({ bench: 'sync', at: new Date().toISOString(), env: machineEnv(), limits: {}, figures });
console.log(`written to ${file}`);
