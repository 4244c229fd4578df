import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { InMemoryStorage, type MemoryEntry, type StorageAdapter } from '@zerda/core';
import { announceWrites, ChangeFeed, type MemoryChange } from './change-feed.js';
import { openBrowserMemory, type BrowserMemory } from './index.js';
import { NO_EMBEDDER_WARNING } from './open-browser-memory.js';
import type { ImportProgress } from './import.js';
import { expectZerdaError as expectCode } from '@zerda/core/testing';

const T = 'tenant-a';

function entries(n: number, tenantId = T): MemoryEntry[] {
  const now = Date.now();
  return Array.from({ length: n }, (_, i) => ({
    id: randomUUID(),
    tenantId,
    content: {
      title: `Note ${i}`,
      text: `Imported note ${i} about ${i % 2 ? 'gardening tomatoes' : 'chess openings'}`,
    },
    tier: 'long_term',
    kind: 'fact',
    createdAt: now - i,
    lastAccess: now - i,
    importance: 0.5,
    accessCount: 0,
    tags: [],
    metadata: {},
    version: 1,
  }));
}

const dbName = () => `zerda-test-${randomUUID()}`;

describe('openBrowserMemory', () => {
  it('rejects bad options with VALIDATION naming the field, before opening anything', async () => {
    const err = (await expectCode(openBrowserMemory({ nmae: 'x' } as never), 'VALIDATION')) as Error;
    expect(err.message).toContain('options.nmae');
    await expectCode(openBrowserMemory({ storage: 'disk' as never }), 'VALIDATION');
    await expectCode(openBrowserMemory({ embedder: 'gpu' as never }), 'VALIDATION');
    await expectCode(openBrowserMemory({ passphrase: '' }), 'VALIDATION');
    await expectCode(openBrowserMemory({ name: '  ' }), 'VALIDATION');
    await expectCode(openBrowserMemory({ embedder: {} }), 'VALIDATION');
    await expectCode(openBrowserMemory({ name: 'never-created', config: { windowSize: 0 } }), 'VALIDATION');
    // Nothing was created by the rejected calls.
    expect((await indexedDB.databases()).map((d) => d.name)).not.toContain('never-created');
  });

  it('wires a working manager without any DOM (in-memory SQLite, hashing embedder)', async () => {
    expect(typeof document).toBe('undefined');
    const memory = await openBrowserMemory({ storage: 'memory', owner: 'me' });
    expect(memory.name).toBeNull();
    expect(memory.storage.name).toBe('sqlite');
    await memory.manager.remember('me', T, { title: 'Hobby', text: 'Loves hiking in the Alps' });
    await memory.manager.flush();
    const hits = await memory.manager.recall('me', T, 'hiking');
    expect(hits[0]?.entry.content).toEqual({ title: 'Hobby', text: 'Loves hiking in the Alps' });
    expect(hits[0]?.vectorScore).toBeGreaterThan(0);
    await memory.close();
    await expectCode(() => memory.manager.recall('me', T, 'hiking'), 'CLOSED');
  });

  it('reports progress from storage to ready, and nothing after ready', async () => {
    const phases: string[] = [];
    const memory = await openBrowserMemory({
      storage: 'memory',
      onProgress: (p) => phases.push(`${p.phase}:${p.progress ?? '-'}`),
    });
    expect(phases).toEqual(['storage:0', 'storage:1', 'model:0', 'ready:1']);
    await memory.close();
  });

  it('persists in IndexedDB and reopens only with the right passphrase', async () => {
    const name = dbName();
    const a = await openBrowserMemory({ name, passphrase: 'right one', owner: 'me' });
    expect(a.encrypted).toBe(true);
    await a.manager.remember('me', T, { title: 'Secret', text: 'The launch code is 0000' });
    await a.close();
    await expectCode(openBrowserMemory({ name, passphrase: 'wrong one', owner: 'me' }), 'DECRYPTION');
    await expectCode(openBrowserMemory({ name, owner: 'me' }), 'DECRYPTION');
    const b = await openBrowserMemory({ name, passphrase: 'right one', owner: 'me' });
    expect((await b.manager.listMemories('me', T)).map((e) => e.content)).toEqual([
      { title: 'Secret', text: 'The launch code is 0000' },
    ]);
    // Removing encryption: the next open needs no passphrase, and an old one no longer fits.
    await b.setPassphrase(null);
    expect(b.encrypted).toBe(false);
    await b.close();
    const c = await openBrowserMemory({ name, owner: 'me' });
    expect(await c.storage.count({ tenantId: T })).toBe(1);
    await c.setPassphrase('new one');
    await c.close();
    await expectCode(openBrowserMemory({ name, passphrase: 'right one', owner: 'me' }), 'DECRYPTION');
    const d = await openBrowserMemory({ name, passphrase: 'new one', owner: 'me' });
    expect(await d.storage.count({ tenantId: T })).toBe(1);
    await d.close();
  });

  it('no embedder: hashing, with a warning that says so; an explicit hash is silent', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const quiet = await openBrowserMemory({ storage: 'memory', owner: 'me', embedder: 'hash' });
      expect(warn).not.toHaveBeenCalled();
      await quiet.close();
      const memory = await openBrowserMemory({ storage: 'memory', owner: 'me' });
      expect(warn.mock.calls).toEqual([[NO_EMBEDDER_WARNING]]);
      expect(NO_EMBEDDER_WARNING).toMatch(/without the embedding model.*embedder: 'hash'/);
      expect(memory.embedder?.modelId).toBe(quiet.embedder?.modelId);
      await memory.close();
    } finally {
      warn.mockRestore();
    }
  });

  it('imports in batches with progress, embeds what lacks vectors, and recall finds it', async () => {
    const memory = await openBrowserMemory({ storage: 'memory', owner: 'me' });
    const doc = { format: 'zerda-export', version: 1, exportedAt: Date.now(), entries: entries(250), profiles: [] };
    const progress: ImportProgress[] = [];
    const report = await memory.importJson(JSON.stringify(doc), { onProgress: (p) => progress.push(p) });
    expect(report).toMatchObject({ entries: 250, profiles: 0, vectors: 0, embedded: 250, tenants: [T] });
    const writes = progress.filter((p) => p.phase === 'writing').map((p) => p.done);
    expect(writes).toEqual([0, 100, 200, 250]);
    expect(progress.at(-1)).toMatchObject({ phase: 'embedding', done: 250, total: 250 });
    expect((await memory.manager.stats(T)).storage.vectors).toBe(250);
    const hits = await memory.manager.recall('me', T, 'gardening tomatoes', { mode: 'vector', reinforce: false });
    expect(hits.length).toBeGreaterThan(0);
    expect(JSON.stringify(hits[0]!.entry.content)).toContain('gardening');
    await memory.close();
  });

  it('a replace import of a tenant-limited export replaces only that tenant', async () => {
    const memory = await openBrowserMemory({ storage: 'memory', owner: 'me' });
    await memory.importJson({
      format: 'zerda-export',
      version: 1,
      exportedAt: 0,
      entries: [...entries(3, 'keep'), ...entries(4)],
      profiles: [],
    });
    const doc = {
      format: 'zerda-export',
      version: 1,
      exportedAt: 0,
      tenants: [T],
      entries: entries(150),
      profiles: [],
    };
    const report = await memory.importJson(doc, { mode: 'replace' });
    expect(report.tenants).toEqual([T]);
    expect(await memory.storage.count({ tenantId: T })).toBe(150);
    expect(await memory.storage.count({ tenantId: 'keep' })).toBe(3);
    await memory.close();
  });

  it('validates the whole import before writing: one bad entry changes nothing', async () => {
    const memory = await openBrowserMemory({ storage: 'memory', owner: 'me' });
    const list = entries(250) as unknown as Record<string, unknown>[];
    list[180]!.importance = 7;
    const err = (await expectCode(
      memory.importJson({ format: 'zerda-export', version: 1, exportedAt: 0, entries: list, profiles: [] }),
      'VALIDATION',
    )) as Error;
    expect(err.message).toContain('entries[180]');
    expect(await memory.storage.count({ tenantId: T })).toBe(0);
    await memory.close();
  });

  it('creates, reads, restores and deletes backups, re-indexing after a restore', async () => {
    const memory = await openBrowserMemory({ name: dbName(), owner: 'me' });
    await memory.manager.remember('me', T, { title: 'Kept', text: 'Survives through the backup' });
    const info = await memory.createBackup();
    expect((await memory.listBackups()).map((b) => b.id)).toEqual([info.id]);
    expect((await memory.readBackup(info.id)).length).toBe(info.size);
    await memory.manager.clearTenant(T);
    expect(await memory.manager.recall('me', T, 'backup')).toEqual([]);
    const report = await memory.restoreBackup(info.id);
    expect(report.embedded).toBe(1);
    const hits = await memory.manager.recall('me', T, 'survives backup', { mode: 'vector' });
    expect(hits.map((h) => h.entry.content)).toEqual([{ title: 'Kept', text: 'Survives through the backup' }]);
    await memory.deleteBackup(info.id);
    expect(await memory.listBackups()).toEqual([]);
    await expectCode(memory.readBackup(info.id), 'NOT_FOUND');
    await memory.close();
  });

  it('says UNSUPPORTED for database features on a custom adapter', async () => {
    const memory = await openBrowserMemory({ storage: new InMemoryStorage(), embedder: 'none', owner: 'me' });
    expect(memory.embedder).toBeNull();
    await expectCode(memory.createBackup(), 'UNSUPPORTED');
    await expectCode(memory.setPassphrase('x'), 'UNSUPPORTED');
    expect(await memory.listBackups()).toEqual([]);
    await memory.close();
  });
});

describe('change feed', () => {
  it('announces successful writes to other contexts, coalesced, and not failed ones', async () => {
    const name = dbName();
    const here = new ChangeFeed(name);
    const there = new ChangeFeed(name);
    const seenThere: MemoryChange[] = [];
    const seenHere: MemoryChange[] = [];
    there.subscribe((c) => seenThere.push(c));
    here.subscribe((c) => seenHere.push(c));
    const storage: StorageAdapter = announceWrites(new InMemoryStorage(), here);
    const [a, b] = entries(2);
    await storage.put(a!);
    await storage.put({ ...b!, tenantId: 'tenant-b' });
    await expectCode(storage.put({ ...a!, importance: 9 }), 'VALIDATION');
    expect(await storage.count({ tenantId: T })).toBe(1); // reads pass through to #private state
    await new Promise((r) => setTimeout(r, 150));
    expect(seenThere).toEqual([{ tenantIds: [T, 'tenant-b'], source: 'remote' }]);
    expect(seenHere).toEqual([{ tenantIds: [T, 'tenant-b'], source: 'local' }]);
    here.close();
    there.close();
  });

  it('reloads the recall index of a tenant another context changed', async () => {
    const name = dbName();
    const memory: BrowserMemory = await openBrowserMemory({ name, owner: 'me' });
    await memory.manager.remember('me', T, { title: 'One', text: 'first memory about sailing' });
    await memory.manager.flush();
    expect((await memory.manager.stats(T)).indexedVectors).toBe(1);
    // Another context writes a vector straight into the same tenant (as a second tab would).
    const model = { id: memory.manager.embedder!.modelId, dim: memory.manager.embedder!.dim };
    await memory.storage.putVectors(T, model, [
      { id: (await memory.manager.listMemories('me', T))[0]!.id, vector: new Float32Array(model.dim).fill(0) },
    ]);
    const other = new ChangeFeed(name);
    const changes: MemoryChange[] = [];
    memory.onChange((c) => changes.push(c));
    other.notify([T]);
    await new Promise((r) => setTimeout(r, 150));
    expect(changes.filter((c) => c.source === 'remote')).toEqual([{ tenantIds: [T], source: 'remote' }]);
    // The index was dropped and reloads from storage: the zero vector now scores nothing.
    const hits = await memory.manager.recall('me', T, 'sailing', { mode: 'vector', reinforce: false });
    expect(hits.every((h) => (h.vectorScore ?? 0) === 0)).toBe(true);
    other.close();
    await memory.close();
  });
});
