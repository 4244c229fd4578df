import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';
import { createSyncHandler, MemoryRecordStore, PostgresRecordStore } from '@zerda/sync/server';
import type { RecordStore } from '@zerda/sync/server';
import { syncServer } from '../../apps/demo/sync-plugin.ts';
import { CHROMIUM_ARGS, chromiumPath, pageReady, REPO_ROOT, servePage } from './harness.ts';
import type { ServedPage } from './harness.ts';
import type { SyncPageApi } from './pages/sync/main.ts';

// Devices are real Chromium profiles (launchPersistentContext: each its own browser process and
// IndexedDB), each running test/e2e/pages/sync: `@zerda/browser` (sql.js + IndexedDB) synced by
// `@zerda/sync`'s client. The sync server is the real `createSyncHandler` over a real PostgreSQL
// (ZERDA_TEST_DATABASE_URL, which scripts/test.sh starts), mounted on the page's own origin at
// /sync; without a database it runs over the in-memory record store and the titles say so.

declare const z: SyncPageApi;

const PG_URL = process.env.ZERDA_TEST_DATABASE_URL?.trim();
const ON = PG_URL ? 'on PostgreSQL' : 'on the in-memory record store (set ZERDA_TEST_DATABASE_URL for PostgreSQL)';
const PASSPHRASE = 'correct horse battery staple';

/** Tenants the test token may sync (each test takes fresh ones). */
const tenants: string[] = [];
let seq = 0;
const tenant = (what: string) => {
  const t = `e2e-${what}-${Date.now()}-${seq++}`;
  tenants.push(t);
  return t;
};

interface Seen {
  method: string;
  url: string;
  token: string;
}
/** Every request the server saw. */
const seen: Seen[] = [];
/** A test's interception of one request (the server stays the real handler). */
let intercept: ((req: IncomingMessage, res: ServerResponse, serve: () => Promise<void>) => Promise<void>) | undefined;

let store: RecordStore;
let served: ServedPage;
beforeAll(async () => {
  store = PG_URL
    ? await PostgresRecordStore.open({
        connectionString: PG_URL,
        ownerConnectionString:
          process.env.ZERDA_TEST_OWNER_DATABASE_URL?.trim() || PG_URL.replace('zerda_app@', 'zerda_owner@'),
        schema: 'zerda_sync_e2e',
      })
    : new MemoryRecordStore();
  const handler = createSyncHandler({
    store,
    verify: (token) => (token.startsWith('tok') ? { tenants } : null),
  });
  served = await servePage(join(REPO_ROOT, 'test/e2e/pages/sync'), {
    plugins: [
      syncServer(async (req, res) => {
        const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
        seen.push({ method: req.method ?? '', url: req.url ?? '', token });
        const serve = () => handler(req, res);
        await (intercept ? intercept(req, res, serve) : serve());
      }),
    ],
  });
});
afterAll(async () => {
  await served?.close();
  await store?.close();
});

interface Device {
  dir: string;
  ctx: BrowserContext;
  page: Page;
}
const devices = new Set<Device>();
afterEach(async () => {
  intercept = undefined;
  for (const d of devices) {
    await d.ctx.close().catch(() => undefined);
    await rm(d.dir, { recursive: true, force: true });
  }
  devices.clear();
});

/** Open (or reopen) the profile `dir` as a device: its own Chromium, the page open on `tenantId`. */
async function device(
  tenantId: string,
  o: { dir?: string; passphrase?: string; token?: string; batchSize?: number; url?: string } = {},
): Promise<Device> {
  const dir = o.dir ?? (await mkdtemp(join(tmpdir(), 'zerda-sync-device-')));
  const ctx = await chromium.launchPersistentContext(dir, {
    executablePath: chromiumPath(),
    args: CHROMIUM_ARGS,
    headless: true,
  });
  const d = { dir, ctx, page: await tab(ctx, tenantId, o) };
  devices.add(d);
  return d;
}

/** A tab of `ctx` on the page, its memory open (IndexedDB `device`) and syncing `tenantId`. */
async function tab(
  ctx: BrowserContext,
  tenantId: string,
  o: { passphrase?: string; token?: string; batchSize?: number; url?: string } = {},
): Promise<Page> {
  const page = await ctx.newPage();
  page.on('pageerror', (err) => console.error('[sync page error]', err.message));
  await page.goto(served.url);
  await page.waitForFunction(pageReady);
  const opened = await page.evaluate((o) => z.open(o), {
    name: 'device',
    tenant: tenantId,
    passphrase: o.passphrase ?? PASSPHRASE,
    ...(o.token ? { token: o.token } : {}),
    ...(o.batchSize ? { batchSize: o.batchSize } : {}),
    ...(o.url ? { url: o.url } : {}),
  });
  expect(opened.ok, JSON.stringify(opened)).toBe(true);
  return page;
}

const syncNow = async (d: Device | Page) => {
  const r = await ('page' in d ? d.page : d).evaluate(() => z.syncNow());
  if (!r.ok) throw new Error(`syncNow failed: ${r.error.code}: ${r.error.message}`);
  return r.report;
};
const exported = (d: Device) => d.page.evaluate(() => z.exported());
const ids = (d: Device) => d.page.evaluate(() => z.ids());

/** Sync round-robin until a whole round moves nothing; every device then holds every record. */
async function converge(...all: Device[]): Promise<void> {
  for (let round = 0; round < 6; round++) {
    let moved = 0;
    for (const d of all) {
      const r = await syncNow(d);
      moved += r.pushed + r.applied + r.merged;
    }
    if (moved === 0) return;
  }
  throw new Error('the devices did not converge in 6 rounds');
}

/** Records the server holds for `tenantId`. */
async function serverRecords(tenantId: string) {
  const page = await store.list(tenantId, 0, 1000);
  return page.records;
}

/** SIGKILL the Chromium of `d` (its browser process, found by its profile directory). */
async function kill(d: Device): Promise<void> {
  const closed = new Promise<void>((resolve) => d.ctx.once('close', () => resolve()));
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    let cmd: string[];
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (cmd.includes(`--user-data-dir=${d.dir}`) && !cmd.some((a) => a.startsWith('--type='))) {
      process.kill(Number(pid), 'SIGKILL');
      await closed;
      devices.delete(d);
      return;
    }
  }
  throw new Error(`no Chromium runs the profile ${d.dir}`);
}

const isPush = (req: IncomingMessage) => req.method === 'POST' && /\/records$/.test(req.url ?? '');
const isPull = (req: IncomingMessage) => req.method === 'GET' && /\/records\?/.test(req.url ?? '');

describe(`sync between Chromium profiles through the sync server ${ON}`, () => {
  test('two devices write offline, come back online (sync resumes by itself) and converge to identical exports', async () => {
    const t = tenant('two');
    const [a, b] = [await device(t), await device(t)];
    await a.page.evaluate(() => z.remember('shared', 2));
    await syncNow(a);
    await syncNow(b);
    expect(await ids(b)).toEqual(['shared-0', 'shared-1']);

    await a.ctx.setOffline(true);
    await b.ctx.setOffline(true);
    await a.page.evaluate(async () => {
      await z.remember('a', 3);
      await z.update('shared-0', 'edited on A');
      await z.recall('memory written by shared');
    });
    await b.page.evaluate(async () => {
      await z.remember('b', 3);
      await z.remove('shared-1');
      await z.update('shared-0', 'edited on B, later');
    });
    const offline = await a.page.evaluate(() => z.syncNow());
    expect(offline.ok).toBe(false);
    expect(await a.page.evaluate(() => z.status().state)).toBe('offline');
    expect(await serverRecords(t)).toHaveLength(2);

    const back = Date.now();
    await a.ctx.setOffline(false);
    await b.ctx.setOffline(false);
    // The runtime's `online` event starts a cycle at once: no syncNow here.
    for (const d of [a, b])
      await d.page.waitForFunction(
        (back) => {
          const s = z.status();
          return s.state === 'idle' && s.pending === 0 && (s.lastSyncedAt ?? 0) >= back;
        },
        back,
        { timeout: 20_000 },
      );
    await converge(a, b);

    const [ea, eb] = [await exported(a), await exported(b)];
    expect(ea).toEqual(eb);
    const byId = new Map(ea.entries.map((e) => [e.id, e]));
    expect([...byId.keys()].sort()).toEqual(['a-0', 'a-1', 'a-2', 'b-0', 'b-1', 'b-2', 'shared-0']);
    const winner = byId.get('shared-0')!;
    expect((winner.content as { text: string }).text).toBe('edited on B, later');
    // The losing concurrent version is kept, not lost.
    expect(JSON.stringify(winner.metadata.history)).toContain('edited on A');
  });

  test('three devices converge, and a device that joins later with the passphrase gets the same memory', async () => {
    const t = tenant('three');
    const all = [await device(t), await device(t), await device(t)];
    for (const [i, d] of all.entries()) await d.page.evaluate((p) => z.remember(p, 4), `d${i}`);
    await converge(...all);
    await all[2]!.page.evaluate(() => z.update('d0-1', 'edited on the third device'));
    await all[0]!.page.evaluate(() => z.remove('d1-0'));
    await converge(...all);
    const first = await exported(all[0]!);
    expect(first.entries).toHaveLength(11);
    for (const d of all.slice(1)) expect(await exported(d)).toEqual(first);

    const late = await device(t);
    expect(await ids(late)).toEqual([]);
    const report = await syncNow(late);
    expect(report).toMatchObject({ refused: 0 });
    expect(report.applied).toBeGreaterThanOrEqual(11);
    expect(await exported(late)).toEqual(first);
  });

  test('a wrong passphrase is DECRYPTION: nothing applied, nothing pushed, and sync stays stopped', async () => {
    const t = tenant('wrong');
    const a = await device(t);
    await a.page.evaluate(() => z.remember('a', 3));
    await syncNow(a);
    const intruder = await device(t, { passphrase: 'not the passphrase' });
    await intruder.page.evaluate(() => z.remember('x', 2));
    for (let i = 0; i < 2; i++) {
      const r = await intruder.page.evaluate(() => z.syncNow());
      expect(r.ok ? 'synced' : r.error.code).toBe('DECRYPTION');
    }
    expect(await intruder.page.evaluate(() => z.status())).toMatchObject({
      state: 'error',
      lastError: { code: 'DECRYPTION' },
    });
    expect(await ids(intruder)).toEqual(['x-0', 'x-1']);
    expect((await serverRecords(t)).map((r) => r.id).length).toBe(3);
    // The right device is untouched and still syncs.
    await a.page.evaluate(() => z.remember('a-more', 1));
    expect((await syncNow(a)).pushed).toBe(1);
  });

  test('Chromium SIGKILLed mid-push, then reopened: no acknowledged write lost, none stored or applied twice', async () => {
    const t = tenant('kill-push');
    const a = await device(t, { batchSize: 5 });
    const acked: string[] = [];
    await a.page.exposeFunction('ack', (id: string) => acked.push(id));
    await a.page.evaluate(() => z.remember('w', 20));
    expect(acked).toHaveLength(20);
    // The third batch is stored by the server, but the browser dies before the answer reaches it.
    let pushes = 0;
    intercept = async (req, res, serve) => {
      if (!isPush(req) || ++pushes !== 3) return serve();
      const end = res.end.bind(res);
      res.end = ((...args: Parameters<typeof end>) => {
        void kill(a).then(() => end(...args));
        return res;
      }) as typeof res.end;
      await serve();
    };
    void a.page.evaluate(() => z.syncNow()).catch(() => undefined);
    await new Promise<void>((resolve) => a.ctx.once('close', () => resolve()));
    intercept = undefined;
    expect(await serverRecords(t)).toHaveLength(15);

    const again = await device(t, { dir: a.dir, batchSize: 5 });
    expect(await ids(again)).toEqual([...acked].sort());
    // Batches 1–2 stay marked pushed; 3 (stored, never acknowledged) and 4 go again: 3 as duplicates.
    expect((await syncNow(again)).pushed).toBe(10);
    const records = await serverRecords(t);
    expect(records).toHaveLength(20);
    expect(new Set(records.map((r) => r.id)).size).toBe(20);

    const b = await device(t);
    expect(await syncNow(b)).toMatchObject({ applied: 20, skipped: 0, refused: 0 });
    expect(await exported(b)).toEqual(await exported(again));
  });

  test('Chromium SIGKILLed mid-pull (while applying a page), then reopened: it resumes from its cursor, nothing lost or applied twice', async () => {
    const t = tenant('kill-pull');
    const a = await device(t);
    await a.page.evaluate(async () => {
      await z.remember('p', 20);
      await z.recall('memory written by p');
    });
    await syncNow(a);
    const b = await device(t, { batchSize: 5, token: 'tok-b' });
    let pulls = 0;
    intercept = async (req, res, serve) => {
      if (!isPull(req) || !req.headers.authorization?.endsWith('tok-b') || ++pulls !== 3) return serve();
      // The third page goes out; the browser is killed while it decrypts and applies it.
      res.once('finish', () => void kill(b));
      await serve();
    };
    void b.page.evaluate(() => z.syncNow()).catch(() => undefined);
    await new Promise<void>((resolve) => b.ctx.once('close', () => resolve()));
    intercept = undefined;

    const again = await device(t, { dir: b.dir, batchSize: 5, token: 'tok-b' });
    const before = (await ids(again)).length;
    // Pages are applied with their cursor in one transaction: 2 pages, or 3 if it finished.
    expect([10, 15]).toContain(before);
    const report = await syncNow(again);
    expect(report).toMatchObject({ applied: 20 - before, skipped: 0, refused: 0 });
    expect(await exported(again)).toEqual(await exported(a));
  });

  test('with several tabs on one profile only the owner tab syncs (no wiring); when it closes the next tab takes over by itself', async () => {
    const t = tenant('tabs');
    const first = await device(t, { token: 'tok-tab1' });
    const second = await tab(first.ctx, t, { token: 'tok-tab2' });
    await second.evaluate(() => z.remember('from-follower', 2));
    expect(await syncNow(second)).toMatchObject({ pushed: 0, pulled: 0 });
    expect(await second.evaluate(() => z.status().state)).toBe('follower');
    // The owner tab pushes what the follower wrote (through it, to the one database).
    expect((await syncNow(first)).pushed).toBe(2);
    expect(seen.filter((s) => s.token === 'tok-tab2')).toEqual([]);
    // Pending when the owner closes (its next timer cycle is 10 minutes away).
    await second.evaluate(() => z.remember('before-close', 1));
    expect((await serverRecords(t)).length).toBe(2);

    await first.page.close();
    // Nobody calls syncNow: the second tab finds it owns the database now and syncs by itself.
    await expect.poll(async () => (await serverRecords(t)).length, { timeout: 20_000, interval: 200 }).toBe(3);
    expect(seen.some((s) => s.token === 'tok-tab2' && s.method === 'POST')).toBe(true);
    await second.waitForFunction(() => z.status().state === 'idle' && z.status().pending === 0, undefined, {
      timeout: 10_000,
      polling: 100,
    });
    await second.evaluate(() => z.remember('after-takeover', 1));
    expect((await syncNow(second)).pushed).toBe(1);
    expect((await serverRecords(t)).length).toBe(4);
  });

  test('a page syncs with a sync server on another origin that allows it (CORS), and not with one that does not', async () => {
    const t = tenant('cors');
    const pageOrigin = new URL(served.url).origin;
    // Two servers on other ports (other origins) over the same store: one allows the page's origin.
    const servers = await Promise.all(
      [[pageOrigin], ['https://app.example.com']].map(async (origins) => {
        const handler = createSyncHandler({
          store,
          verify: (token) => (token.startsWith('tok') ? { tenants } : null),
          cors: { origins },
        });
        const server = createServer((req, res) => void handler(req, res));
        await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
        return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
      }),
    );
    try {
      const allowed = await device(t, { url: servers[0]!.url });
      await allowed.page.evaluate(() => z.remember('cross-origin', 2));
      expect((await syncNow(allowed)).pushed).toBe(2);
      expect((await serverRecords(t)).length).toBe(2);
      // The browser refuses the other server's answers (no allow header): unreachable, nothing sent.
      const refused = await device(t, { url: servers[1]!.url });
      const r = await refused.page.evaluate(() => z.syncNow());
      expect(r).toMatchObject({ ok: false, error: { code: 'STORAGE' } });
      expect(await ids(refused)).toEqual([]);
    } finally {
      for (const { server } of servers) await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
