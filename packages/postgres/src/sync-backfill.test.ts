import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { entryText } from '@zerda/core';
import { BACKFILL_COUNTER, createEntry } from '@zerda/core/adapter';
import type { UserProfile } from '@zerda/core';
import { PostgresStorage } from './postgres-storage.js';
import { describePostgres, freshSchema, ownerUrl } from './test-database.js';

const T0 = 1_700_000_000_000;
const profile = (userId: string): UserProfile => ({
  tenantId: 't',
  userId,
  createdAt: T0,
  updatedAt: T0,
  interactionCount: 2,
  topics: { tea: 2 },
  memoryRetentionBoost: 0,
  attributes: {},
});

// A schema older than the change log (migration 3): its entries and profiles get change rows on
// the first sync call, once. The older schema is made the way it existed: data written, then the
// change log's tables and migration row removed (what version 2 had), then opened by this code.
describePostgres('PostgresStorage: change rows backfilled for data older than the change log', (url) => {
  const schema = freshSchema('backfill');
  const s = `"${schema}"`;
  let storage: PostgresStorage;
  beforeAll(async () => {
    const writer = await PostgresStorage.open({ connectionString: url, ownerConnectionString: ownerUrl(url), schema });
    for (let i = 0; i < 5; i++)
      await writer.put({
        ...createEntry('t', { content: { title: 'old', text: `older memory ${i}` } }, T0),
        id: `m${i}`,
        accessCount: i,
      });
    await writer.putProfile(profile('u1'));
    await writer.close();
    const owner = new pg.Client({ connectionString: ownerUrl(url) });
    await owner.connect();
    try {
      await owner.query(`DROP TABLE ${s}.sync_log, ${s}.sync_cursor, ${s}.sync_device`);
      // What migrations 4 and 6 added goes too (they run again after 3).
      await owner.query(`DROP FUNCTION IF EXISTS ${s}.check_written`);
      await owner.query(`DROP FUNCTION IF EXISTS ${s}.search_vectors`);
      await owner.query(`DELETE FROM ${s}.migrations WHERE version >= 3`);
    } finally {
      await owner.end();
    }
    storage = await PostgresStorage.open({ connectionString: url, ownerConnectionString: ownerUrl(url), schema });
  });
  afterAll(async () => {
    await storage?.close();
  });

  it('pending puts for every older entity, counts under the backfill counter, once (a second process adds none)', async () => {
    expect((await storage.syncState('t')).pending).toBe(6);
    const changes = await storage.pendingChanges('t', 100);
    expect(changes.map((c) => `${c.kind}:${c.key}`).sort()).toEqual([
      'entry:m0',
      'entry:m1',
      'entry:m2',
      'entry:m3',
      'entry:m4',
      'profile:u1',
    ]);
    const m3 = changes.find((c) => c.key === 'm3')!;
    expect(m3.op).toBe('put');
    expect(m3.entry && entryText(m3.entry)).toContain('older memory 3');
    expect(m3.counters?.access).toEqual({ [BACKFILL_COUNTER]: [3, 0] });
    expect(changes.find((c) => c.kind === 'profile')?.profile).toEqual(profile('u1'));
    const other = await PostgresStorage.open({ connectionString: url, schema });
    try {
      expect((await other.pendingChanges('t', 100)).map((c) => c.recordId).sort()).toEqual(
        changes.map((c) => c.recordId).sort(),
      );
    } finally {
      await other.close();
    }
    expect(
      await storage.markPushed(
        't',
        changes.map((c) => c.recordId),
      ),
    ).toBe(6);
    expect((await storage.syncState('t')).pending).toBe(0);
  });

  it('entities imported with importJson are backfilled at the next sync call', async () => {
    const doc = await storage.exportJson({ tenantId: 't' });
    await storage.importJson({
      ...doc,
      entries: [{ ...createEntry('t', { content: { title: 'imp', text: 'imported' } }, T0), id: 'imp' }],
      profiles: [],
    });
    const pending = await storage.pendingChanges('t', 100);
    expect(pending.map((c) => c.key)).toEqual(['imp']);
  });
});
