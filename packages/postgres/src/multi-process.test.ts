import { afterAll, beforeAll, expect, it } from 'vitest';
import pg from 'pg';
import { isZerdaError } from '@zerda/core';
import { createEntry } from '@zerda/core/adapter';
import { PostgresStorage } from './postgres-storage.js';
import { SCHEMA_VERSION } from './schema.js';
import { describePostgres, freshSchema, ownerUrl } from './test-database.js';
import { runWriter, type WriterResult } from '../test/run-writer.ts';

const WRITERS = 4;
const PUTS = 60;
const UPDATES = 30;

describePostgres('PostgresStorage with several processes', (url) => {
  const schema = freshSchema('multi');
  const tenant = 'shared-tenant';
  let storage: PostgresStorage;
  let results: WriterResult[];

  beforeAll(async () => {
    // The writers open a schema that does not exist yet, all at once: they race to migrate it.
    results = await Promise.all(
      Array.from({ length: WRITERS }, (_, w) =>
        runWriter({
          url,
          ownerUrl: ownerUrl(url),
          schema,
          tenant,
          worker: w,
          puts: PUTS,
          updates: UPDATES,
          counterId: 'counter',
        }).catch((e: unknown) => e as WriterResult),
      ),
    );
    storage = await PostgresStorage.open({ connectionString: url, schema });
  }, 120_000);
  afterAll(async () => {
    await storage?.close();
  });

  it('processes starting together migrate the schema once', async () => {
    for (const r of results) expect(r).not.toBeInstanceOf(Error);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const r = await client.query(`SELECT version FROM "${schema}".migrations ORDER BY version`);
      expect(r.rows.map((x) => x.version)).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1));
    } finally {
      await client.end();
    }
  });

  it('every acknowledged write of every process is stored (none lost)', async () => {
    const acked = results.flatMap((r) => r.acked);
    expect(acked).toHaveLength(WRITERS * PUTS);
    const found = await storage.getMany(tenant, acked);
    expect(found.map((e) => e.id).sort()).toEqual([...acked].sort());
  });

  it('concurrent update() calls of one memory from every process all land (row locks: no lost update)', async () => {
    expect(results.every((r) => r.updates === UPDATES)).toBe(true);
    const counter = (await storage.get(tenant, 'counter'))!;
    expect(counter.metadata.n).toBe(WRITERS * UPDATES);
    for (let w = 0; w < WRITERS; w++) expect(counter.metadata[`w${w}`]).toBe(UPDATES);
    expect(counter.version).toBe(1 + WRITERS * UPDATES);
    expect(await storage.count({ tenantId: tenant })).toBe(WRITERS * PUTS + 1);
  });

  it('a stale put (older version than stored) is rejected with CONFLICT and writes nothing', async () => {
    const current = (await storage.get(tenant, 'counter'))!;
    const stale = { ...current, version: current.version - 1, content: { title: 'stale', text: 'an old copy' } };
    const err = await storage.put(stale).catch((e: unknown) => e);
    expect(isZerdaError(err, 'CONFLICT')).toBe(true);
    const batch = await storage
      .putMany([
        { ...createEntry(tenant, { content: { title: 'new', text: 'fresh' } }, 1_700_000_000_000), id: 'fresh-one' },
        stale,
      ])
      .catch((e: unknown) => e);
    expect(isZerdaError(batch, 'CONFLICT')).toBe(true);
    expect(await storage.get(tenant, 'fresh-one')).toBeUndefined();
    expect(await storage.get(tenant, 'counter')).toEqual(current);
  });
});
