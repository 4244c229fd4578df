import { describe, expect, it } from 'vitest';
import { isZerdaError } from '@zerda/core';
import { createEntry } from '@zerda/core/adapter';
import type { MemoryEntry, UserProfile } from '@zerda/core';
import { MemoryPersistence, createMemoryPersistenceState } from './persistence.js';
import { SqliteStorage } from './sqlite-storage.js';
import type { ZerdaExport } from '@zerda/core';

const T0 = 1_700_000_000_000;
const HOUR = 3_600_000;

function fact(tenant: string, text: string): MemoryEntry {
  return createEntry(
    tenant,
    { content: { title: 't', text }, tags: ['a', 'b'], metadata: { n: 1, nested: { ok: true } }, userId: 'u' },
    T0,
  );
}

function profile(tenantId: string, userId: string): UserProfile {
  return {
    tenantId,
    userId,
    createdAt: T0,
    updatedAt: T0,
    interactionCount: 3,
    topics: { coffee: 2 },
    memoryRetentionBoost: 0.1,
    attributes: { lang: 'en' },
  };
}

describe('export and import', () => {
  it('an export re-imported elsewhere gives identical memories, profiles and vectors', async () => {
    const a = await SqliteStorage.open();
    const es = [fact('t1', 'espresso'), fact('t1', 'green tea'), fact('t2', 'other tenant')];
    await a.putMany(es);
    await a.putProfile(profile('t1', 'u'));
    await a.putVectors('t1', { id: 'm', dim: 3 }, [{ id: es[0]!.id, vector: new Float32Array([0.1, -2.5, 3e-8]) }]);
    const doc = JSON.parse(JSON.stringify(await a.exportJson({ includeVectors: true }))) as ZerdaExport;
    expect(doc.format).toBe('zerda-export');
    const b = await SqliteStorage.open();
    const report = await b.importJson(JSON.stringify(doc));
    expect(report).toEqual({ added: 3, updated: 0, profiles: 1, vectors: 1 });
    for (const t of ['t1', 't2']) expect(await b.query({ tenantId: t })).toEqual(await a.query({ tenantId: t }));
    expect(await b.listProfiles('t1')).toEqual([profile('t1', 'u')]);
    expect(await b.loadVectors('t1', 'm')).toEqual(await a.loadVectors('t1', 'm'));
    expect((await b.lexicalSearch({ tenantId: 't1', query: 'espresso', limit: 3 })).map((h) => h.id)).toEqual([
      es[0]!.id,
    ]);
    const again = await b.importJson(doc);
    expect(again).toMatchObject({ added: 0, updated: 3 });
    const one = await a.exportJson({ tenantId: 't2' });
    expect(one.entries.map((e) => e.id)).toEqual([es[2]!.id]);
    await a.close();
    await b.close();
  });

  it('replace with a tenant-limited export replaces that tenant only, also after a reopen (replay)', async () => {
    const state = createMemoryPersistenceState();
    const a = await SqliteStorage.open({ persistence: new MemoryPersistence(state) });
    const [kept, other] = [fact('t1', 'espresso'), fact('t2', 'other tenant')];
    await a.putMany([kept, other]);
    await a.putProfile(profile('t2', 'u'));
    await a.putVectors('t2', { id: 'm', dim: 3 }, [{ id: other.id, vector: new Float32Array([1, 2, 3]) }]);
    const doc = await a.exportJson({ tenantId: 't1' });
    await a.put(fact('t1', 'added after the export'));
    const report = await a.importJson(doc, { mode: 'replace' });
    expect(report).toMatchObject({ added: 1, updated: 0 });
    const check = async (s: SqliteStorage) => {
      expect(await s.query({ tenantId: 't1' })).toEqual([kept]);
      expect(await s.query({ tenantId: 't2' })).toEqual([other]);
      expect(await s.listProfiles('t2')).toEqual([profile('t2', 'u')]);
      expect((await s.loadVectors('t2', 'm'))?.ids).toEqual([other.id]);
    };
    await check(a);
    await a.close();
    const b = await SqliteStorage.open({ persistence: new MemoryPersistence(state) });
    await check(b);
    // A document claiming a scope that does not cover its content is rejected whole.
    await expect(b.importJson({ ...doc, tenants: ['t2'] }, { mode: 'replace' })).rejects.toSatisfy((e: unknown) =>
      isZerdaError(e, 'VALIDATION'),
    );
    await check(b);
    await b.close();
  });

  it('validates the whole document first: one bad entry writes nothing', async () => {
    const s = await SqliteStorage.open();
    const good = fact('t1', 'fine');
    const bad = { ...fact('t1', 'broken'), importance: 7 };
    const doc: ZerdaExport = { format: 'zerda-export', version: 1, exportedAt: T0, entries: [good, bad], profiles: [] };
    await expect(s.importJson(doc)).rejects.toSatisfy(
      (e: unknown) => isZerdaError(e, 'VALIDATION') && /entries\[1\]/.test((e as Error).message),
    );
    await expect(s.importJson({ ...doc, version: 99 })).rejects.toSatisfy((e: unknown) =>
      isZerdaError(e, 'VALIDATION'),
    );
    await expect(s.importJson('{not json')).rejects.toSatisfy((e: unknown) => isZerdaError(e, 'VALIDATION'));
    await expect(s.importJson({ ...doc, entries: [good, good] })).rejects.toSatisfy((e: unknown) =>
      isZerdaError(e, 'VALIDATION'),
    );
    expect(await s.count({ tenantId: 't1' })).toBe(0);
    await s.close();
  });
});

describe('backups', () => {
  it('backs up automatically every N new memories and keeps the last K', async () => {
    let now = T0;
    const state = createMemoryPersistenceState();
    const s = await SqliteStorage.open({
      persistence: new MemoryPersistence(state),
      clock: () => now,
      backups: { everyNewEntries: 3, keep: 2 },
    });
    for (let i = 0; i < 2; i++) await s.put(fact('t1', `m${i}`));
    expect(await s.listBackups()).toHaveLength(0);
    await s.put(fact('t1', 'm2'));
    expect(await s.listBackups()).toHaveLength(1);
    for (let i = 3; i < 9; i++) {
      now += 1000;
      await s.put(fact('t1', `m${i}`));
    }
    const list = await s.listBackups();
    expect(list).toHaveLength(2);
    expect(list[0]!.createdAt).toBeLessThan(list[1]!.createdAt);
    // Updating an existing memory is not a new memory.
    const e = (await s.query({ tenantId: 't1', limit: 1 }))[0]!;
    for (let i = 0; i < 5; i++) await s.put({ ...e, version: e.version + i + 1 });
    expect((await s.listBackups()).map((b) => b.id)).toEqual(list.map((b) => b.id));
    await s.close();
  });

  it('backs up after the interval (injected clock) and restores a backup', async () => {
    let now = T0;
    const s = await SqliteStorage.open({
      persistence: new MemoryPersistence(),
      clock: () => now,
      backups: { intervalMs: 24 * HOUR },
    });
    const first = fact('t1', 'first');
    await s.put(first);
    expect(await s.listBackups()).toHaveLength(0);
    now += 25 * HOUR;
    await s.put(fact('t1', 'second'));
    const [b] = await s.listBackups();
    expect(b?.createdAt).toBe(now);
    await s.put(fact('t1', 'third'));
    expect(await s.count({ tenantId: 't1' })).toBe(3);
    const report = await s.restoreBackup(b!.id);
    expect(report.added).toBe(2);
    expect(await s.count({ tenantId: 't1' })).toBe(2);
    await expect(s.restoreBackup('backup-missing')).rejects.toSatisfy((e: unknown) => isZerdaError(e, 'NOT_FOUND'));
    await s.close();
  });

  it('keeps backing up after the clock jumps back (a backup stamped in the future) or forward (one backup, not a burst)', async () => {
    const state = createMemoryPersistenceState();
    let now = T0 + 30 * 24 * HOUR;
    const ahead = await SqliteStorage.open({
      persistence: new MemoryPersistence(state),
      clock: () => now,
      backups: { intervalMs: 24 * HOUR },
    });
    await ahead.put(fact('t1', 'written while the clock ran a month ahead'));
    await ahead.createBackup();
    await ahead.close();
    now = T0;
    const s = await SqliteStorage.open({
      persistence: new MemoryPersistence(state),
      clock: () => now,
      backups: { intervalMs: 24 * HOUR },
    });
    await s.put(fact('t1', 'after the clock was fixed'));
    expect(await s.listBackups()).toHaveLength(1);
    now += 25 * HOUR;
    await s.put(fact('t1', 'a day later'));
    const after = await s.listBackups();
    expect(after).toHaveLength(2);
    expect(after.some((b) => b.createdAt === now)).toBe(true);
    now += 365 * 24 * HOUR;
    for (let i = 0; i < 3; i++) await s.put(fact('t1', `a year later ${i}`));
    expect(await s.listBackups()).toHaveLength(3);
    await s.close();
  });
});
