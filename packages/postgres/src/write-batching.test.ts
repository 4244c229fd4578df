import { afterAll, beforeAll, expect, it } from 'vitest';
import pg from 'pg';
import { InMemoryStorage, isZerdaError } from '@zerda/core';
import { createEntry, entryData } from '@zerda/core/adapter';
import { testProfile } from '@zerda/core/testing';
import type { MemoryEntry } from '@zerda/core';
import { PostgresStorage } from './postgres-storage.js';
import { sqlLiteral } from './literals.js';
import { describePostgres, freshSchema, ownerUrl } from './test-database.js';

const T0 = 1_700_000_000_000;
const entry = (tenant: string, id: string, version = 1): MemoryEntry => ({
  ...createEntry(tenant, { content: { title: `note ${id}`, text: `batched write of ${id}` } }, T0),
  id,
  version,
});

// Writes go as few messages as they can: BEGIN, the binding and what the write must read in one,
// the rows, postings, change rows and COMMIT in the next. Counted at the driver (every `query`
// call of a pooled connection is one round trip), never timed.
describePostgres('PostgresStorage batched writes', (url) => {
  const schema = freshSchema('batch');
  let storage: PostgresStorage;
  let raw: pg.Client;
  let messages = 0;
  const query = pg.Client.prototype.query;

  beforeAll(async () => {
    storage = await PostgresStorage.open({ connectionString: url, ownerConnectionString: ownerUrl(url), schema });
    raw = new pg.Client({ connectionString: url });
    await raw.connect();
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      if (this !== raw) messages++;
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
  });
  afterAll(async () => {
    pg.Client.prototype.query = query;
    await raw?.end();
    await storage?.close();
  });

  async function count(fn: () => Promise<unknown>): Promise<number> {
    messages = 0;
    await fn();
    return messages;
  }

  // One message more on Citus, where the opening SETs travel alone (see Transaction).
  const extra = () => (storage.citus ? 1 : 0);

  it('a put, a putMany, a delete, a profile write and an update each take two round trips', async () => {
    await storage.put(entry('t', 'first')); // registers the tenant
    expect(await count(() => storage.put(entry('t', 'a')))).toBe(2 + extra());
    expect(await count(() => storage.put({ ...entry('t', 'a'), version: 2 }))).toBe(2 + extra());
    expect(await count(() => storage.putMany(Array.from({ length: 50 }, (_, i) => entry('t', `many-${i}`))))).toBe(
      2 + extra(),
    );
    expect(await count(() => storage.deleteMany('t', ['many-1', 'many-2', 'nope']))).toBe(2 + extra());
    expect(await count(() => storage.putProfile(testProfile('t', 'u')))).toBe(2 + extra());
    expect(await count(() => storage.update('t', 'a', (e) => ({ ...e, metadata: { ...e.metadata, n: 1 } })))).toBe(
      2 + extra(),
    );
    // What they wrote, and one pending change per entity.
    expect((await storage.get('t', 'a'))?.version).toBe(3);
    expect((await storage.get('t', 'a'))?.metadata.n).toBe(1);
    expect(await storage.get('t', 'many-1')).toBeUndefined();
    expect((await storage.getMany('t', ['many-0', 'many-49'])).length).toBe(2);
    expect(await storage.lexicalSearch({ tenantId: 't', query: 'batched', limit: 100 })).toHaveLength(50);
    const pending = await storage.pendingChanges('t', 1000);
    expect(pending.map((c) => c.key).sort()).toEqual(
      ['a', 'first', 'u', ...Array.from({ length: 50 }, (_, i) => `many-${i}`)].sort(),
    );
    expect(pending.find((c) => c.key === 'many-1')?.op).toBe('delete');
  });

  it('applying a batch of sync changes takes two round trips, whatever it holds', async () => {
    // Another device's changes: new entries, an update and a delete of entries this one holds, a profile.
    const other = new InMemoryStorage();
    const mine = Array.from({ length: 3 }, (_, i) => entry('m', `shared-${i}`));
    await storage.putMany(mine);
    await other.putMany([...Array.from({ length: 20 }, (_, i) => entry('m', `remote-${i}`)), ...mine]);
    await other.put({ ...entry('m', 'shared-0'), version: 4, content: { title: 'edited', text: 'edited remotely' } });
    await other.delete('m', 'shared-1');
    await other.putProfile(testProfile('m', 'remote-user'));
    const changes = await other.pendingChanges('m', 1000);
    await storage.applyChanges('m', []); // the first sync call reads the device id
    let report: Awaited<ReturnType<PostgresStorage['applyChanges']>> | undefined;
    expect(
      await count(async () => {
        report = await storage.applyChanges('m', changes, 'cursor-1');
      }),
    ).toBe(2 + extra());
    expect(report!.entriesRemoved).toEqual(['shared-1']);
    expect(report!.entriesWritten).toHaveLength(22);
    expect((await storage.get('m', 'shared-0'))?.content).toMatchObject({ text: 'edited remotely' });
    expect(await storage.get('m', 'shared-1')).toBeUndefined();
    expect((await storage.getMany('m', ['remote-0', 'remote-19'])).length).toBe(2);
    expect((await storage.getProfile('m', 'remote-user'))?.userId).toBe('remote-user');
    expect((await storage.syncState('m')).cursor).toBe('cursor-1');
    // Applied again: every record is known, nothing changes (still two round trips).
    expect(
      await count(async () => {
        report = await storage.applyChanges('m', changes);
      }),
    ).toBe(2 + extra());
    expect(report!.skipped).toBe(changes.length);
  });

  it('a stale put is CONFLICT and writes nothing, its change row included', async () => {
    await storage.put({ ...entry('t', 'v'), version: 5 });
    const before = (await storage.pendingChanges('t', 1000)).find((c) => c.key === 'v');
    const e = await storage.put({ ...entry('t', 'v'), version: 4 }).catch((x: unknown) => x);
    expect(isZerdaError(e) && e.code).toBe('CONFLICT');
    expect((await storage.get('t', 'v'))?.version).toBe(5);
    expect((await storage.pendingChanges('t', 1000)).find((c) => c.key === 'v')).toEqual(before);
  });

  it('a new id stored with a newer version by a concurrent transaction in the meantime: CONFLICT, nothing written', async () => {
    const s = `"${schema}"`;
    // Another writer inserts the same new id (version 9) and holds its transaction open; the
    // adapter's put (version 1) found no row to lock, so its upsert waits on that insert.
    await raw.query('BEGIN');
    await raw.query(`SET LOCAL citus.propagate_set_commands = 'local'`);
    await raw.query(`SET LOCAL zerda.tenant = ${sqlLiteral('t')}`);
    const newer = entry('t', 'race', 9);
    await raw.query(
      `INSERT INTO ${s}.entries (tenant_id, id, user_id, tier, kind, created_at, last_access, importance, version, tags, doc_len, text_lc, data)
       VALUES ('t', 'race', NULL, $1, $2, $3, $3, 0.5, 9, '{}', 1, 'race', $4::json)`,
      [newer.tier, newer.kind, T0, JSON.stringify(entryData(newer))],
    );
    const put = storage.put(entry('t', 'race', 1)).catch((x: unknown) => x);
    // Wait until the put is blocked on that row, then commit the other writer.
    for (let i = 0; i < 200; i++) {
      const w = await raw.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`,
      );
      if ((w.rows[0] as { n: number }).n > 0) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    await raw.query('COMMIT');
    const e = await put;
    expect(isZerdaError(e) && e.code).toBe('CONFLICT');
    expect(await storage.get('t', 'race').then((x) => x?.version)).toBe(9);
    // The put's change row was not written either.
    expect((await storage.pendingChanges('t', 1000)).find((c) => c.key === 'race')).toBeUndefined();
  });
});
