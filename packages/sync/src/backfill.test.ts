import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { entryText } from '@zerda/core';
import { BACKFILL_COUNTER, createEntry } from '@zerda/core/adapter';
import type { StorageAdapter } from '@zerda/core';
import { SqliteStorage } from '@zerda/sqlite';
import { FilePersistence } from '@zerda/sqlite/node';
import { startSync } from './index.js';
import { MemoryRecordStore, createSyncHandler, tokenVerifier } from './server/index.js';

// Stores created before the change log existed: their entries and profiles get change rows on the
// first sync call, once, and sync like any other. A real SQLite file written by an older build
// (the format-1 fixture of @zerda/sqlite: schema before the change log, records without stamps),
// and entities imported with importJson (which writes no change rows). Port 55483.

const FIXTURE = new URL('../../sqlite/test/fixtures/file-format1.json.gz', import.meta.url);
const FAST = { iterations: 1000, allowWeakIterations: true } as const;
const dirs: string[] = [];
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close().catch(() => undefined);
});
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** A directory holding the older build's files. */
async function olderStore(): Promise<string> {
  const raw = JSON.parse(gunzipSync(await readFile(FIXTURE)).toString('utf8')) as Record<string, string>;
  const dir = await mkdtemp(join(tmpdir(), 'zerda-backfill-'));
  dirs.push(dir);
  for (const [name, b64] of Object.entries(raw)) {
    await mkdir(join(dir, name, '..'), { recursive: true });
    await writeFile(join(dir, name), Buffer.from(b64, 'base64'));
  }
  return dir;
}

async function openDir(dir: string): Promise<SqliteStorage> {
  const s = await SqliteStorage.open({ persistence: new FilePersistence({ dir }) });
  open.push(s);
  return s;
}

async function server() {
  const store = new MemoryRecordStore();
  const handler = createSyncHandler({ store, verify: tokenVerifier({ tok: { tenants: ['t1'] } }) });
  const http = createServer((req, res) => void handler(req, res));
  await new Promise<void>((r) => http.listen(55483, '127.0.0.1', r));
  open.push({ close: () => new Promise<void>((r) => http.close(() => r())) });
  return { url: 'http://127.0.0.1:55483', store };
}

function sync(url: string, storage: StorageAdapter) {
  const h = startSync({ storage, url, tenantId: 't1', token: 'tok', passphrase: 'pw', autoStart: false, ...FAST });
  open.push({ close: () => h.stop() });
  return h;
}

async function exported(s: SqliteStorage) {
  const { exportedAt: _at, ...doc } = await s.exportJson({ tenantId: 't1' });
  return doc;
}

describe('backfill of change rows for stores older than the change log', () => {
  it('an older SQLite file: its memories get change rows on the first sync call, once, and reach a new device', async () => {
    const dir = await olderStore();
    let old = await openDir(dir);
    const ids = (await old.query({ tenantId: 't1' })).map((e) => e.id).sort();
    expect(ids).toEqual(['m0', 'm1', 'm3', 'm4', 'm5', 'm6', 'm7']);
    // Nothing of the older build is in the change log until a sync call asks.
    expect((await old.syncState('t1')).pending).toBe(ids.length);
    const pending = await old.pendingChanges('t1', 100);
    expect(pending.map((c) => c.key).sort()).toEqual(ids);
    expect(new Set(pending.map((c) => c.recordId)).size).toBe(ids.length);
    for (const c of pending) {
      expect(c.op).toBe('put');
      expect(Object.keys(c.counters!.access)).toEqual([BACKFILL_COUNTER]);
    }
    // Once: reopened, the rows are there (replayed from the log) and nothing new is added.
    await old.close();
    old = await openDir(dir);
    expect((await old.pendingChanges('t1', 100)).map((c) => c.recordId).sort()).toEqual(
      pending.map((c) => c.recordId).sort(),
    );
    const { url, store } = await server();
    expect((await sync(url, old).syncNow()).pushed).toBe(ids.length);
    expect((await sync(url, old).syncNow()).pushed).toBe(0);
    const fresh = await SqliteStorage.open();
    open.push(fresh);
    await sync(url, fresh).syncNow();
    expect(await exported(fresh)).toEqual(await exported(old));
    expect(store.records('t1')).toHaveLength(ids.length);
  });

  it('two devices restored from the same older store converge without counting its recalls twice', async () => {
    const [a, b] = [await openDir(await olderStore()), await openDir(await olderStore())];
    const before = await a.get('t1', 'm0');
    await a.put({ ...before!, accessCount: before!.accessCount + 2 });
    const { url } = await server();
    const [sa, sb] = [sync(url, a), sync(url, b)];
    await sa.syncNow();
    await sb.syncNow();
    await sa.syncNow();
    expect(await exported(b)).toEqual(await exported(a));
    // The older counts once (importance too), plus the two recalls on A.
    expect(before!.importance).toBeGreaterThan(0);
    const after = await b.get('t1', 'm0');
    expect(after?.accessCount).toBe(before!.accessCount + 2);
    expect(after?.importance).toBeCloseTo(before!.importance, 9);
  });

  it('entities imported with importJson (no change rows) are backfilled at the next sync call', async () => {
    const src = await SqliteStorage.open();
    open.push(src);
    await src.put({
      ...createEntry('t1', { content: { title: 'n', text: 'imported memory' } }, 1_700_000_000_000),
      id: 'imp',
    });
    await src.putProfile({
      tenantId: 't1',
      userId: 'u1',
      createdAt: 1_700_000_000_000,
      updatedAt: 1_700_000_000_000,
      interactionCount: 1,
      topics: {},
      memoryRetentionBoost: 0,
      attributes: {},
    });
    const doc = await src.exportJson({ tenantId: 't1' });
    const dst = await SqliteStorage.open();
    open.push(dst);
    const { url } = await server();
    const sd = sync(url, dst);
    await sd.syncNow();
    await dst.importJson(doc);
    expect((await dst.syncState('t1')).pending).toBe(2);
    expect((await sd.syncNow()).pushed).toBe(2);
    const other = await SqliteStorage.open();
    open.push(other);
    await sync(url, other).syncNow();
    const imported = await other.get('t1', 'imp');
    expect(imported && entryText(imported)).toContain('imported memory');
    expect(await other.listProfiles('t1')).toHaveLength(1);
  });
});
