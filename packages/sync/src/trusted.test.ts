import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryManager, entryText, isZerdaError } from '@zerda/core';
import { createEntry } from '@zerda/core/adapter';
import { PostgresStorage } from '@zerda/postgres';
import { SqliteStorage } from '@zerda/sqlite';
import { startSync } from './index.js';
import { PostgresRecordStore, createSyncHandler, tokenVerifier, trustedReplica } from './server/index.js';
import type { TrustedReplica } from './server/index.js';

// Trusted-server mode on a real PostgreSQL: the sync server also applies tenant t1's records to a
// PostgresStorage (a MemoryManager over it, as a server-side app or the MCP server would hold), so
// the server recalls what a device wrote, and what the server writes reaches the device.

const PG_URL = process.env.ZERDA_TEST_DATABASE_URL?.trim() || undefined;
const owner = (url: string) =>
  process.env.ZERDA_TEST_OWNER_DATABASE_URL?.trim() || url.replace('zerda_app@', 'zerda_owner@');
const FAST = { iterations: 1000, allowWeakIterations: true } as const;
const fresh = (p: string) => `${p}_${globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 10)}`;

describe.skipIf(!PG_URL)(
  `trusted-server mode: the server's PostgresStorage holds the same memory${PG_URL ? '' : ' (skipped: ZERDA_TEST_DATABASE_URL is not set)'}`,
  () => {
    const recordSchema = fresh('sync_trusted');
    let records: PostgresRecordStore;
    let serverStorage: PostgresStorage;
    let serverMemory: MemoryManager;
    let replica: TrustedReplica;
    let device: SqliteStorage;
    let http: ReturnType<typeof createServer>;
    let url = '';
    beforeAll(async () => {
      let handler: ReturnType<typeof createSyncHandler> | undefined;
      http = createServer((req, res) => void handler!(req, res));
      await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
      url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
      records = await PostgresRecordStore.open({
        connectionString: PG_URL!,
        ownerConnectionString: owner(PG_URL!),
        schema: recordSchema,
      });
      serverStorage = await PostgresStorage.open({
        connectionString: PG_URL!,
        ownerConnectionString: owner(PG_URL!),
        schema: fresh('trusted_memory'),
      });
      serverMemory = await MemoryManager.create({ storage: serverStorage, owner: 'me' });
      replica = trustedReplica({
        manager: serverMemory,
        url,
        passphrases: { t1: 'the user passphrase' },
        token: 'server-token',
        ...FAST,
      });
      handler = createSyncHandler({
        store: records,
        verify: tokenVerifier({ 'device-token': { tenants: ['t1', 't2'] }, 'server-token': { tenants: ['t1'] } }),
        onAppend: (t) => replica.notify(t),
      });
      device = await SqliteStorage.open();
    });
    afterAll(async () => {
      await replica?.stop();
      await new Promise<void>((r) => (http ? http.close(() => r()) : r()));
      await device?.close();
      await serverMemory?.close();
      await records?.close();
    });

    it("a device's memory is applied to the server's store as it arrives, and recalled there", async () => {
      const sync = startSync({
        storage: device,
        url,
        tenantId: 't1',
        token: 'device-token',
        passphrase: 'the user passphrase',
        autoStart: false,
        ...FAST,
      });
      try {
        await device.put({
          ...createEntry('t1', { content: { title: 'home', text: 'Ada lives in Lyon near the river' } }, Date.now()),
          id: 'lyon',
        });
        await sync.syncNow();
        // Applied by the push's notification, without asking the replica.
        for (let i = 0; i < 100 && !(await serverStorage.get('t1', 'lyon')); i++)
          await new Promise((r) => setTimeout(r, 50));
        expect(await serverStorage.get('t1', 'lyon')).toEqual(await device.get('t1', 'lyon'));
        const hits = await serverMemory.recall('me', 't1', 'where does Ada live?');
        expect(hits.map((h) => h.entry.id)).toContain('lyon');

        // A server-side write reaches the device.
        await serverMemory.remember('me', 't1', { title: 'plan', text: 'Ada plans a trip to Porto', kind: 'fact' });
        await replica.syncNow('t1');
        await sync.syncNow();
        const onDevice = (await device.query({ tenantId: 't1' })).map(entryText);
        expect(onDevice.some((t) => t.includes('Porto'))).toBe(true);
        const { exportedAt: _a, ...d } = await device.exportJson({ tenantId: 't1' });
        const { exportedAt: _b, ...s } = await serverStorage.exportJson({ tenantId: 't1' });
        expect(s.entries.map((e) => ({ ...e }))).toEqual(d.entries);
      } finally {
        await sync.stop();
      }
    });

    it('trusted mode is opt-in: no replica, no passphrases, no server-side copy', async () => {
      const refused = (o: Partial<Parameters<typeof trustedReplica>[0]>) => {
        try {
          trustedReplica({ storage: serverStorage, url, token: 'server-token', passphrases: { t1: 'p' }, ...o });
          return undefined;
        } catch (e) {
          return isZerdaError(e) ? e.code : e;
        }
      };
      expect(refused({ passphrases: {} })).toBe('VALIDATION');
      expect(refused({ passphrases: { t1: '' } })).toBe('VALIDATION');
      expect(refused({ manager: serverMemory })).toBe('VALIDATION');
      // A tenant the replica holds no passphrase for is never applied server-side.
      const other = startSync({
        storage: device,
        url,
        tenantId: 't2',
        token: 'device-token',
        passphrase: 'x',
        autoStart: false,
        ...FAST,
      });
      try {
        await device.put({
          ...createEntry('t2', { content: { title: 'x', text: 'private to the devices' } }, Date.now()),
          id: 'p',
        });
        expect((await other.syncNow()).pushed).toBe(1);
        await replica.syncNow();
        expect(await serverStorage.get('t2', 'p')).toBeUndefined();
      } finally {
        await other.stop();
      }
    });

    it('the records table still holds only ciphertext; the replica store holds plaintext (not end-to-end)', async () => {
      const c = new pg.Client({ connectionString: owner(PG_URL!) });
      await c.connect();
      try {
        await c.query('BEGIN');
        await c.query(`SELECT set_config('zerda.tenant', 't1', true)`);
        const r = await c.query<{ data: string }>(`SELECT data FROM "${recordSchema}".records`);
        await c.query('COMMIT');
        expect(r.rows.length).toBeGreaterThanOrEqual(2);
        for (const row of r.rows) {
          expect(row.data).not.toMatch(/Lyon|Porto/);
          expect(Buffer.from(row.data, 'base64').toString('latin1')).not.toMatch(/Lyon|Porto/);
        }
      } finally {
        await c.end();
      }
      const e = await serverStorage.get('t1', 'lyon');
      expect(e && entryText(e)).toContain('Lyon');
    });
  },
);
