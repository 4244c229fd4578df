import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MemoryManager, isZerdaError } from '@zerda/core';
import { createEntry, formatHlc } from '@zerda/core/adapter';
import type { MemoryEntry, ZerdaError } from '@zerda/core';
import { SqliteStorage } from '@zerda/sqlite';
import { startSync } from './index.js';
import type { SyncHandle, SyncOptions } from './index.js';
import { MemoryRecordStore, PostgresRecordStore, createSyncHandler, tokenVerifier } from './server/index.js';
import type { Quota, RecordStore, SyncCorsOptions } from './server/index.js';

// Devices are real SqliteStorage stores; the server is the real handler on a real HTTP server
// (127.0.0.1, ports 55470–55479), over an in-memory record store and, when ZERDA_TEST_DATABASE_URL
// is set, over PostgreSQL.

const PG_URL = process.env.ZERDA_TEST_DATABASE_URL;
const FAST = { iterations: 1000, allowWeakIterations: true } as const;
let nextPort = 55470;
/** Tenants the test token may sync besides t-a and t-b (each suite test uses a fresh one). */
const allowed = new Set<string>();

interface Harness {
  url: string;
  store: RecordStore;
  close(): Promise<void>;
}

async function serve(
  store: RecordStore,
  extra: { quota?: Quota; maxBodyBytes?: number; now?: () => number; cors?: SyncCorsOptions } = {},
) {
  const fixed = tokenVerifier({ 'tok-old': { tenants: ['t-a'], expiresAt: 1 } }, extra.now);
  const verify = (token: string) => (token === 'tok-a' ? { tenants: ['t-a', 't-b', ...allowed] } : fixed(token));
  const handler = createSyncHandler({
    store,
    verify,
    ...(extra.quota ? { quota: extra.quota } : {}),
    ...(extra.maxBodyBytes ? { maxBodyBytes: extra.maxBodyBytes } : {}),
    ...(extra.cors ? { cors: extra.cors } : {}),
  });
  const server: Server = createServer((req, res) => void handler(req, res));
  const port = nextPort++;
  if (nextPort > 55479) nextPort = 55470;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    store,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  } satisfies Harness;
}

const open = new Set<{ close(): Promise<void> }>();
afterEach(async () => {
  for (const o of open) await o.close().catch(() => undefined);
  open.clear();
});

/** Tenant t-a's sync of `storage` to a server on `port`, started by hand, whose backoff would wait a minute. */
function slowRetrySync(storage: SqliteStorage, port: number) {
  return startSync({
    storage,
    url: `http://127.0.0.1:${port}`,
    tenantId: 't-a',
    token: 'tok-a',
    passphrase: 'pw',
    autoStart: false,
    backoff: { minMs: 60_000 },
    ...FAST,
  });
}

async function device(): Promise<SqliteStorage> {
  const s = await SqliteStorage.open();
  open.add(s);
  return s;
}

function sync(h: Harness, storage: SqliteStorage, o: Partial<SyncOptions> = {}): SyncHandle {
  const handle = startSync({
    storage,
    url: h.url,
    tenantId: 't-a',
    token: 'tok-a',
    passphrase: 'correct horse battery',
    autoStart: false,
    batchSize: 3,
    ...FAST,
    ...o,
  });
  open.add({ close: () => handle.stop() });
  return handle;
}

function memory(text: string, extra: Partial<MemoryEntry> = {}): MemoryEntry {
  return { ...createEntry('t-a', { content: { title: 'note', text }, kind: 'fact' }, 1_700_000_000_000), ...extra };
}

async function exported(s: SqliteStorage, tenantId: string) {
  const { exportedAt: _at, ...doc } = await s.exportJson({ tenantId });
  return doc;
}

async function errorsOf(h: SyncHandle, fn: () => Promise<unknown>): Promise<ZerdaError[]> {
  const errors: ZerdaError[] = [];
  const off = h.on((e) => {
    if (e.type === 'error') errors.push(e.error);
  });
  await fn().catch(() => undefined);
  off();
  return errors;
}

function suite(name: string, makeStore: () => Promise<RecordStore>) {
  describe(`sync through the server (${name})`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await serve(await makeStore());
    });
    afterAll(async () => {
      await h.close();
      await h.store.close();
    });
    let tenantSeq = 0;
    const tenant = () => {
      const t = `t-${name.replace(/\W/g, '')}-${Date.now()}-${tenantSeq++}`;
      allowed.add(t);
      return t;
    };

    it('two devices write offline, sync, and converge to identical exports (edits, deletes, recalls on both)', async () => {
      const tenantId = tenant();
      const [a, b] = [await device(), await device()];
      const [sa, sb] = [sync(h, a, { tenantId }), sync(h, b, { tenantId })];
      const shared = memory('lives in Lyon', { tenantId });
      await a.put(shared);
      await sa.syncNow();
      await sb.syncNow();
      expect(await b.get(tenantId, shared.id)).toEqual(shared);
      // Offline: both edit and recall the shared memory, each adds and deletes its own.
      await a.put({ ...shared, content: { title: 'note', text: 'lives in Paris' }, accessCount: 2, version: 2 });
      // B's edit is the later one: a millisecond on, so the two clocks cannot stamp the same wall
      // time (a tie is settled by device id, which would make the winner a coin toss).
      await new Promise((r) => setTimeout(r, 2));
      await b.put({ ...shared, accessCount: 3, lastAccess: shared.lastAccess + 5, version: 2 });
      const onlyA = memory('A-only', { tenantId });
      const onlyB = memory('B-only', { tenantId });
      const goneB = memory('deleted on B', { tenantId });
      await a.putMany([onlyA, goneB]);
      await b.put(onlyB);
      await b.putProfile({
        tenantId,
        userId: 'u1',
        createdAt: 1,
        updatedAt: 2,
        interactionCount: 4,
        topics: { tea: 2 },
        memoryRetentionBoost: 0,
        attributes: {},
      });
      await sa.syncNow();
      await sb.syncNow();
      await b.delete(tenantId, goneB.id);
      for (let i = 0; i < 2; i++) {
        await sa.syncNow();
        await sb.syncNow();
      }
      const [ea, eb] = [await exported(a, tenantId), await exported(b, tenantId)];
      expect(ea).toEqual(eb);
      // B's version is the later one and wins; A's concurrent edit is kept in its history.
      expect(ea.entries.map((e) => entryTextOf(e)).sort()).toEqual(['A-only', 'B-only', 'lives in Lyon'].sort());
      const merged = ea.entries.find((e) => e.id === shared.id)!;
      const history = merged.metadata.history as { content: { text: string } }[];
      expect(history.map((x) => x.content.text)).toEqual(['lives in Paris']);
      // Recalls on both devices count: 2 - 0 on A, 3 - 0 on B after the common version.
      expect(merged.accessCount).toBe(5);
      expect(merged.lastAccess).toBe(shared.lastAccess + 5);
      expect(ea.profiles).toHaveLength(1);
      expect(sa.status.pending).toBe(0);
      expect((await a.syncState(tenantId)).pending).toBe(0);
    });

    it('three devices and a late joiner with the passphrase converge; re-pulling applies nothing twice', async () => {
      const tenantId = tenant();
      const devices = [await device(), await device(), await device()];
      const syncs = devices.map((d) => sync(h, d, { tenantId }));
      for (const [i, d] of devices.entries())
        await d.putMany([1, 2, 3].map((n) => memory(`d${i} m${n}`, { tenantId })));
      for (let round = 0; round < 2; round++) for (const s of syncs) await s.syncNow();
      const late = await device();
      const ls = sync(h, late, { tenantId });
      const progress: number[] = [];
      ls.on((e) => e.type === 'progress' && progress.push(e.remaining));
      const report = await ls.syncNow();
      expect(report.pulled).toBe(9);
      expect(progress.at(-1)).toBe(0);
      const base = await exported(devices[0]!, tenantId);
      expect(base.entries).toHaveLength(9);
      for (const d of [...devices, late]) expect(await exported(d, tenantId)).toEqual(base);
      // A device that lost its cursor pulls everything again: nothing changes.
      const again = await (await device()).importJson(await late.exportJson({ tenantId }));
      expect(again.added).toBe(9);
      const twice = await late.applyChanges(tenantId, [], '0');
      expect(twice.applied).toBe(0);
      expect((await ls.syncNow()).applied).toBe(0);
      expect(await exported(late, tenantId)).toEqual(base);
    });

    it('a wrong passphrase is DECRYPTION and applies nothing', async () => {
      const tenantId = tenant();
      const [a, b] = [await device(), await device()];
      await a.put(memory('secret', { tenantId }));
      await sync(h, a, { tenantId }).syncNow();
      const sb = sync(h, b, { tenantId, passphrase: 'wrong horse' });
      const err = await sb.syncNow().catch((e: unknown) => e);
      expect(isZerdaError(err, 'DECRYPTION')).toBe(true);
      expect(await b.count({ tenantId })).toBe(0);
      expect(sb.status.state).toBe('error');
      await b.put(memory('local still works', { tenantId }));
      expect(isZerdaError(await sb.syncNow().catch((e: unknown) => e), 'DECRYPTION')).toBe(true);
      expect((await b.syncState(tenantId)).pending).toBe(1);
    });

    it('an expired token is ACCESS_DENIED; a token for another tenant too', async () => {
      const a = await device();
      await a.put(memory('x'));
      const expired = await sync(h, a, { token: 'tok-old' })
        .syncNow()
        .catch((e: unknown) => e);
      expect(isZerdaError(expired, 'ACCESS_DENIED')).toBe(true);
      const foreign = await sync(h, a, { tenantId: 't-z' })
        .syncNow()
        .catch((e: unknown) => e);
      expect(isZerdaError(foreign, 'ACCESS_DENIED')).toBe(true);
      expect((await a.syncState('t-a')).pending).toBe(1);
    });

    it('raw records on the server hold no plaintext', async () => {
      const tenantId = tenant();
      const a = await device();
      await a.put(memory('the vault code is 4711 kingfisher', { tenantId }));
      await sync(h, a, { tenantId }).syncNow();
      const { records } = await h.store.list(tenantId, 0, 100);
      expect(records).toHaveLength(1);
      const raw = JSON.stringify(records);
      expect(raw).not.toMatch(/kingfisher|4711|vault/);
      expect(Buffer.from(records[0]!.data, 'base64').toString('latin1')).not.toMatch(/kingfisher/);
    });
  });
}

function entryTextOf(e: MemoryEntry): string {
  return (e.content as { text: string }).text;
}

suite('memory store', async () => new MemoryRecordStore());
if (PG_URL)
  suite('PostgreSQL', () =>
    PostgresRecordStore.open({
      connectionString: PG_URL,
      ownerConnectionString:
        process.env.ZERDA_TEST_OWNER_DATABASE_URL?.trim() || PG_URL.replace('zerda_app@', 'zerda_owner@'),
      schema: 'zerda_sync_test',
    }));
else describe.skip('sync through the server (PostgreSQL): set ZERDA_TEST_DATABASE_URL to run', () => it('skipped'));

// The sync server's database connection lost while a request uses it (what a PostgreSQL restart
// does to the requests in flight): that request is STORAGE, the process survives (pg raises the
// loss as an 'error' event on the connection, uncaught unless someone listens) and the next
// request gets a fresh connection. The loss is pg_terminate_backend on the store's own
// connections only (by application_name), so suites sharing the database are untouched.
describe.skipIf(!PG_URL)('the PostgreSQL record store when its connection is lost', () => {
  it('a request in flight is STORAGE, the server lives on, and the next request succeeds', async () => {
    const app = `zerda-sync-loss-${Date.now()}`;
    const store = await PostgresRecordStore.open({
      connectionString: `${PG_URL}${PG_URL!.includes('?') ? '&' : '?'}application_name=${app}`,
      ownerConnectionString:
        process.env.ZERDA_TEST_OWNER_DATABASE_URL?.trim() || PG_URL!.replace('zerda_app@', 'zerda_owner@'),
      schema: 'zerda_sync_test',
    });
    const killer = new pg.Client({ connectionString: PG_URL });
    await killer.connect();
    try {
      const tenantId = `t-loss-${Date.now()}`;
      const record = (id: string) => ({ id, device: 'd1', hlc: formatHlc(1_700_000_000_000, 0), data: 'AAAA' });
      await store.append(tenantId, [record('r0')], undefined);
      // Hold the tenant's row lock so the next append waits inside its transaction, then cut it off.
      await killer.query('BEGIN');
      await killer.query(`SELECT set_config('zerda.tenant', $1, true)`, [tenantId]);
      await killer.query('SELECT 1 FROM zerda_sync_test.tenants WHERE tenant_id = $1 FOR UPDATE', [tenantId]);
      const inFlight = store.append(tenantId, [record('r1')], undefined);
      const waiting = () =>
        killer.query(`SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`, [
          app,
        ]);
      while ((await waiting()).rowCount === 0) await new Promise((r) => setTimeout(r, 20));
      await killer.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [app]);
      const err = await inFlight.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isZerdaError(err, 'STORAGE')).toBe(true);
      await killer.query('ROLLBACK');
      expect(await store.append(tenantId, [record('r2'), record('r1')], undefined)).toEqual({
        accepted: 2,
        duplicates: 0,
      });
      expect((await store.list(tenantId, 0, 10)).records.map((r) => r.id)).toEqual(['r0', 'r2', 'r1']);
    } finally {
      await killer.end();
      await store.close();
    }
  });
});

describe('a malicious or failing server', () => {
  it('a kept-alive socket the server closed is retried at once on a new connection, not after the backoff', async () => {
    const store = new MemoryRecordStore();
    const handler = createSyncHandler({ store, verify: tokenVerifier({ 'tok-a': { tenants: ['t-a'] } }) });
    // The server drops every kept-alive socket the moment it is reused (what a server that closes
    // idle connections does to a client that sends on one just then): no answer, the socket reset.
    let dropped = 0;
    const served = new WeakMap<object, number>();
    const server = createServer((req, res) => {
      const n = (served.get(req.socket) ?? 0) + 1;
      served.set(req.socket, n);
      if (n > 1) {
        dropped++;
        req.socket.destroy();
        return;
      }
      void handler(req, res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    try {
      const a = await device();
      await a.put(memory('one'));
      await a.put(memory('two'));
      const sa = slowRetrySync(a, port);
      open.add({ close: () => sa.stop() });
      expect(await sa.syncNow()).toMatchObject({ pushed: 2, refused: 0 });
      expect((await sa.syncNow()).pushed).toBe(0);
      expect(dropped).toBeGreaterThan(0);
      expect(store.records('t-a')).toHaveLength(2);
      expect(sa.status).toMatchObject({ state: 'idle', lastError: undefined });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('a tampered record and one replayed from another tenant are refused; the rest syncs', async () => {
    const store = new MemoryRecordStore();
    const h = await serve(store);
    try {
      const [a, b] = [await device(), await device()];
      const other = await device();
      await a.putMany([memory('one'), memory('two'), memory('three')]);
      await sync(h, a).syncNow();
      await other.put({ ...memory('from tenant b'), tenantId: 't-b' });
      await sync(h, other, { tenantId: 't-b' }).syncNow();
      const recs = store.records('t-a');
      const d = Buffer.from(recs[1]!.data, 'base64');
      d[d.length - 5]! ^= 1;
      recs[1]!.data = d.toString('base64');
      // Replay tenant b's record into tenant a (a server bug or an attack).
      store.records('t-a').push({ ...store.records('t-b')[0]!, seq: recs.length + 1 });
      const sb = sync(h, b);
      const errors = await errorsOf(sb, () => sb.syncNow());
      expect(errors.map((e) => e.code)).toEqual(['DECRYPTION', 'DECRYPTION']);
      expect((await b.query({ tenantId: 't-a' })).map(entryTextOf).sort()).toEqual(['one', 'three']);
      expect(await b.count({ tenantId: 't-b' })).toBe(0);
    } finally {
      await h.close();
    }
  });

  it('an oversized batch is refused (413, VALIDATION), nothing stored; smaller batches then go through', async () => {
    const store = new MemoryRecordStore();
    const h = await serve(store, { maxBodyBytes: 3000 });
    try {
      const a = await device();
      await a.putMany([1, 2, 3].map((n) => memory(`${n} ${'x'.repeat(600)}`)));
      const err = await sync(h, a)
        .syncNow()
        .catch((e: unknown) => e);
      expect(isZerdaError(err, 'VALIDATION')).toBe(true);
      expect((err as ZerdaError).message).toMatch(/exceeds 3000 bytes/);
      expect(store.records('t-a')).toHaveLength(0);
      expect((await a.syncState('t-a')).pending).toBe(3);
      await sync(h, a, { batchSize: 1 }).syncNow();
      expect(store.records('t-a')).toHaveLength(3);
    } finally {
      await h.close();
    }
  });

  it('a full quota is QUOTA_EXCEEDED: nothing of the batch stored, local writes go on, pulls still arrive', async () => {
    const store = new MemoryRecordStore();
    const h = await serve(store, { quota: { records: 2 } });
    try {
      const [a, b] = [await device(), await device()];
      await b.put(memory('from b'));
      await sync(h, b).syncNow();
      await a.putMany([memory('a1'), memory('a2')]);
      const sa = sync(h, a, { batchSize: 5 });
      const err = await sa.syncNow().catch((e: unknown) => e);
      expect(isZerdaError(err, 'QUOTA_EXCEEDED')).toBe(true);
      expect(store.records('t-a')).toHaveLength(1);
      expect((await a.query({ tenantId: 't-a' })).map(entryTextOf).sort()).toEqual(['a1', 'a2', 'from b']);
      await a.put(memory('a3'));
      expect((await a.syncState('t-a')).pending).toBe(3);
    } finally {
      await h.close();
    }
  });

  it('an unreachable server is offline with backoff; the next sync after it returns pushes everything once', async () => {
    const store = new MemoryRecordStore();
    const a = await device();
    await a.put(memory('written offline'));
    const port = 55479;
    const sa = slowRetrySync(a, port);
    open.add({ close: () => sa.stop() });
    const err = await sa.syncNow().catch((e: unknown) => e);
    expect(isZerdaError(err, 'STORAGE')).toBe(true);
    expect(sa.status.state).toBe('offline');
    const handler = createSyncHandler({ store, verify: tokenVerifier({ 'tok-a': { tenants: ['t-a'] } }) });
    const server = createServer((req, res) => void handler(req, res));
    await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
    try {
      expect((await sa.syncNow()).pushed).toBe(1);
      expect((await sa.syncNow()).pushed).toBe(0);
      expect(store.records('t-a')).toHaveLength(1);
      expect(sa.status.state).toBe('idle');
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('only the owner syncs: a follower context does nothing', async () => {
    const h = await serve(new MemoryRecordStore());
    try {
      const a = await device();
      await a.put(memory('x'));
      let owner = false;
      const sa = sync(h, a, { isOwner: () => owner });
      expect((await sa.syncNow()).pushed).toBe(0);
      expect(sa.status.state).toBe('follower');
      owner = true;
      expect((await sa.syncNow()).pushed).toBe(1);
    } finally {
      await h.close();
    }
  });

  it("by default a manager syncs only while its store's isOwner holds, and takes over by itself when it turns true", async () => {
    const store = new MemoryRecordStore();
    const h = await serve(store);
    try {
      const a = await device();
      // A shared store's ownership (SharedSqliteStorage: the Web Lock of the profile's tabs).
      let owner = false;
      Object.defineProperty(a, 'isOwner', { get: () => owner });
      const manager = await MemoryManager.create({ storage: a, owner: 'me' });
      open.add({ close: () => manager.close() });
      await manager.remember('me', 't-a', { title: 'tab', text: 'written in a follower tab', kind: 'fact' });
      const states: string[] = [];
      // Background cycles only (no syncNow), and an interval far longer than the test.
      const sa = startSync({
        ...FAST,
        manager,
        url: h.url,
        tenantId: 't-a',
        token: 'tok-a',
        passphrase: 'pw',
        intervalMs: 600_000,
      });
      open.add({ close: () => sa.stop() });
      sa.on((e) => {
        if (e.type === 'status') states.push(e.status.state);
      });
      await vi.waitFor(() => expect(sa.status.state).toBe('follower'));
      expect(store.records('t-a')).toHaveLength(0);
      owner = true;
      await vi.waitFor(() => expect(store.records('t-a')).toHaveLength(1), { timeout: 5000, interval: 50 });
      // A follower's checks emit nothing until its state changes.
      expect(states.filter((s) => s === 'follower')).toHaveLength(1);
    } finally {
      await h.close();
    }
  });
});

describe('CORS (a web app on another origin than the sync server)', () => {
  const APP = 'https://app.example.com';
  const preflight = (url: string, origin: string) =>
    fetch(`${url}/v1/tenants/t-a/records`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });

  it('an allowed origin gets its preflight answered and allow headers on answers and typed errors', async () => {
    const h = await serve(new MemoryRecordStore(), {
      cors: { origins: [APP, 'http://localhost:5173'], maxAgeSeconds: 60 },
    });
    try {
      const pre = await preflight(h.url, APP);
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe(APP);
      expect(pre.headers.get('access-control-allow-methods')?.split(', ')).toEqual(['GET', 'POST', 'PUT']);
      expect(pre.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
      expect(pre.headers.get('access-control-max-age')).toBe('60');
      expect(pre.headers.get('vary')).toBe('Origin');
      // A typed error (no token) is readable by the page: the allow header is on it too.
      const denied = await fetch(`${h.url}/v1/tenants/t-a/key`, { headers: { origin: APP } });
      expect(denied.status).toBe(401);
      expect(denied.headers.get('access-control-allow-origin')).toBe(APP);
      expect(((await denied.json()) as { error: { code: string } }).error.code).toBe('ACCESS_DENIED');
      // And a device syncing from that origin works as any other.
      const a = await device();
      await a.put(memory('from the web app'));
      const cross = sync(h, a, {
        fetch: (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as object), origin: APP } }),
      });
      expect((await cross.syncNow()).pushed).toBe(1);
    } finally {
      await h.close();
    }
  });

  it('another origin gets no allow headers and its preflight is refused (403 ACCESS_DENIED); nothing stored', async () => {
    const store = new MemoryRecordStore();
    const h = await serve(store, { cors: { origins: [APP] } });
    try {
      const pre = await preflight(h.url, 'https://evil.example.com');
      expect(pre.status).toBe(403);
      expect(pre.headers.get('access-control-allow-origin')).toBeNull();
      expect(((await pre.json()) as { error: { code: string } }).error.code).toBe('ACCESS_DENIED');
      const res = await fetch(`${h.url}/v1/tenants/t-a/key`, { headers: { origin: 'https://evil.example.com' } });
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(res.headers.get('vary')).toBe('Origin');
      expect(store.records('t-a')).toEqual([]);
    } finally {
      await h.close();
    }
  });

  it("'*' allows any origin; without the option there are no CORS headers and no preflight answers", async () => {
    const any = await serve(new MemoryRecordStore(), { cors: { origins: '*' } });
    const none = await serve(new MemoryRecordStore());
    try {
      const pre = await preflight(any.url, 'https://anywhere.example');
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe('*');
      // An ordinary request then (no token: 401), which the browser refuses to read.
      const plain = await preflight(none.url, APP);
      expect(plain.status).toBe(401);
      expect(plain.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await any.close();
      await none.close();
    }
  });

  it('origins that are not origins are VALIDATION when the handler is made', () => {
    const store = new MemoryRecordStore();
    const verify = () => null;
    for (const origins of [['app.example.com'], ['https://app.example.com/'], ['https://app.example.com/path'], 'all'])
      expect(() => createSyncHandler({ store, verify, cors: { origins: origins as string[] } })).toThrow(
        expect.objectContaining({ code: 'VALIDATION' }),
      );
    expect(() => createSyncHandler({ store, verify, cors: { origins: [APP], maxAgeSeconds: -1 } })).toThrow(
      expect.objectContaining({ code: 'VALIDATION' }),
    );
  });
});
