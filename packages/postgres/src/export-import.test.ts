import { afterAll, beforeAll, expect, it } from 'vitest';
import { isZerdaError } from '@zerda/core';
import { createEntry } from '@zerda/core/adapter';
import { SqliteStorage } from '@zerda/sqlite';
import { PostgresStorage } from './postgres-storage.js';
import { describePostgres, freshSchema, ownerUrl } from './test-database.js';

const MODEL = { id: 'm3', dim: 3 };

describePostgres('PostgresStorage export / import (zerda-export, shared with SqliteStorage)', (url) => {
  let a: PostgresStorage;
  let b: PostgresStorage;
  beforeAll(async () => {
    a = await PostgresStorage.open({
      connectionString: url,
      ownerConnectionString: ownerUrl(url),
      schema: freshSchema('exp'),
    });
    b = await PostgresStorage.open({
      connectionString: url,
      ownerConnectionString: ownerUrl(url),
      schema: freshSchema('imp'),
    });
    for (const t of ['alice', 'bob']) {
      const entries = [0, 1].map((i) => ({
        ...createEntry(
          t,
          { content: { title: `${t} ${i}`, text: `${t} likes item ${i}` }, tags: ['x'] },
          1_700_000_000_000 + i,
        ),
        id: `${t}-${i}`,
      }));
      await a.putMany(entries);
      await a.putVectors(
        t,
        MODEL,
        entries.map((e, i) => ({ id: e.id, vector: Float32Array.from([i, 1, 0.5]) })),
      );
      await a.putProfile({
        tenantId: t,
        userId: 'u',
        createdAt: 1,
        updatedAt: 2,
        interactionCount: 3,
        topics: { a: 1 },
        memoryRetentionBoost: 0,
        attributes: {},
      });
    }
  }, 120_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('a tenant export moves to another database and to SQLite unchanged, vectors included', async () => {
    const doc = await a.exportJson({ tenantId: 'alice', includeVectors: true });
    expect(doc.tenants).toEqual(['alice']);
    expect(doc.entries.map((e) => e.id)).toEqual(['alice-0', 'alice-1']);
    expect(await b.importJson(JSON.stringify(doc))).toEqual({ added: 2, updated: 0, profiles: 1, vectors: 2 });
    expect(await b.query({ tenantId: 'alice', order: 'asc' })).toEqual(
      await a.query({ tenantId: 'alice', order: 'asc' }),
    );
    expect(await b.loadVectors('alice', MODEL.id)).toEqual(await a.loadVectors('alice', MODEL.id));
    expect(await b.listProfiles('alice')).toEqual(await a.listProfiles('alice'));
    expect(await b.lexicalSearch({ tenantId: 'alice', query: 'likes item', limit: 5 })).toEqual(
      await a.lexicalSearch({ tenantId: 'alice', query: 'likes item', limit: 5 }),
    );
    expect(await b.listTenants()).toEqual(['alice']);

    const sqlite = await SqliteStorage.open();
    try {
      await sqlite.importJson(doc);
      expect(await sqlite.query({ tenantId: 'alice', order: 'asc' })).toEqual(
        await a.query({ tenantId: 'alice', order: 'asc' }),
      );
      // Same analysis and BM25 in both adapters: the same scores.
      const pgHits = await a.lexicalSearch({ tenantId: 'alice', query: 'alice likes item 1', limit: 5 });
      const sqHits = await sqlite.lexicalSearch({ tenantId: 'alice', query: 'alice likes item 1', limit: 5 });
      expect(pgHits.map((h) => h.id)).toEqual(sqHits.map((h) => h.id));
      pgHits.forEach((h, i) => expect(h.score).toBeCloseTo(sqHits[i]!.score, 9));
    } finally {
      await sqlite.close();
    }
  });

  it('merge reports updates; replace of a tenant-limited export replaces only that tenant', async () => {
    const whole = await a.exportJson();
    expect(whole.entries).toHaveLength(4);
    expect(await b.importJson(whole)).toMatchObject({ added: 2, updated: 2 });
    await b.put({
      ...createEntry('alice', { content: { title: 'extra', text: 'only in b' } }, 1_700_000_000_000),
      id: 'alice-extra',
    });
    const aliceOnly = await a.exportJson({ tenantId: 'alice' });
    await b.importJson(aliceOnly, { mode: 'replace' });
    expect((await b.query({ tenantId: 'alice' })).map((e) => e.id).sort()).toEqual(['alice-0', 'alice-1']);
    expect(await b.count({ tenantId: 'bob' })).toBe(2);
  });

  it('an invalid document is rejected whole (VALIDATION) and changes nothing', async () => {
    const doc = await a.exportJson({ tenantId: 'bob' });
    const bad = { ...doc, entries: [...doc.entries, { ...doc.entries[0]!, id: 'bob-bad', importance: 5 }] };
    const before = await b.count({ tenantId: 'bob' });
    expect(isZerdaError(await b.importJson(bad, { mode: 'replace' }).catch((e: unknown) => e), 'VALIDATION')).toBe(
      true,
    );
    expect(await b.count({ tenantId: 'bob' })).toBe(before);
  });
});
