import 'fake-indexeddb/auto';
import { appendFile, readFile, readdir, truncate, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isZerdaError, MemoryManager } from '@zerda/core';
import { createEntry } from '@zerda/core/adapter';
import type { MemoryEntry, ZerdaErrorCode } from '@zerda/core';
import { FilePersistence } from './file-persistence.js';
import { IndexedDbPersistence } from './indexeddb-persistence.js';
import { MemoryPersistence, createMemoryPersistenceState } from './persistence.js';
import type { AppendRecord, MemoryPersistenceState, Persistence } from './persistence.js';
import { SqliteStorage } from './sqlite-storage.js';
import { useTempDirs } from '../test/temp-dirs.js';

const T0 = 1_700_000_000_000;
const WEAK = { iterations: 1000, allowWeakIterations: true } as const;

/** A store on `persistence` encrypted with `passphrase` (weak key derivation: tests only). */
const openEncrypted = (persistence: Persistence, passphrase: string) =>
  SqliteStorage.open({ persistence, encryption: { passphrase, ...WEAK } });

const tempDir = useTempDirs('dur');

function fact(text: string, extra: Partial<Parameters<typeof createEntry>[1]> = {}): MemoryEntry {
  return createEntry('t1', { content: { title: 'note', text }, ...extra }, T0);
}

async function rejectsWith(p: Promise<unknown>, code: ZerdaErrorCode): Promise<Error> {
  try {
    await p;
  } catch (e) {
    expect(isZerdaError(e, code), `expected ${code}, got ${String(e)}`).toBe(true);
    return e as Error;
  }
  throw new Error(`expected rejection with ${code}`);
}

function snapshotState(s: MemoryPersistenceState): string {
  const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
  return JSON.stringify({
    meta: s.meta && hex(s.meta),
    main: {
      base: s.streams.main.base.map(hex),
      upto: s.streams.main.upto,
      log: s.streams.main.log.map((r) => [r.seq, hex(r.bytes)]),
    },
    vectors: { base: s.streams.vectors.base.map(hex), log: s.streams.vectors.log.map((r) => [r.seq, hex(r.bytes)]) },
    backups: [...s.backups.keys()],
  });
}

describe('encryption at rest', () => {
  it('a wrong passphrase fails with DECRYPTION and overwrites nothing; the right one opens', async () => {
    const state = createMemoryPersistenceState();
    const s = await openEncrypted(new MemoryPersistence(state), 'right');
    const e = fact('the secret kingfisher nests by the river');
    await s.put(e);
    await s.putVectors('t1', { id: 'm', dim: 2 }, [{ id: e.id, vector: new Float32Array([1, 2]) }]);
    await s.createBackup({ includeVectors: true });
    await s.close();
    const before = snapshotState(state);
    await rejectsWith(openEncrypted(new MemoryPersistence(state), 'wrong'), 'DECRYPTION');
    await rejectsWith(SqliteStorage.open({ persistence: new MemoryPersistence(state) }), 'DECRYPTION');
    expect(snapshotState(state)).toBe(before);
    const again = await openEncrypted(new MemoryPersistence(state), 'right');
    expect(await again.get('t1', e.id)).toEqual(e);
    expect((await again.lexicalSearch({ tenantId: 't1', query: 'kingfisher', limit: 5 })).map((h) => h.id)).toEqual([
      e.id,
    ]);
    await again.close();
  });

  it('nothing written holds plaintext', async () => {
    const dir = await tempDir();
    const s = await openEncrypted(new FilePersistence({ dir }), 'pw');
    await s.put(fact('plaintext-marker-xyzzy'));
    await s.compact();
    await s.put(fact('second-marker-plugh'));
    await s.createBackup();
    await s.close();
    const files = [
      ...(await readdir(dir)).map((f) => join(dir, f)),
      ...(await readdir(join(dir, 'backups'))).map((f) => join(dir, 'backups', f)),
    ];
    let total = 0;
    for (const f of files) {
      if ((await stat(f)).isDirectory()) continue;
      const text = (await readFile(f)).toString('latin1');
      total += text.length;
      expect(text).not.toContain('xyzzy');
      expect(text).not.toContain('plugh');
    }
    expect(total).toBeGreaterThan(1000);
  });

  it('changeEncryption re-encrypts everything: the new passphrase opens, the old one fails', async () => {
    const state = createMemoryPersistenceState();
    const s = await openEncrypted(new MemoryPersistence(state), 'old');
    const e = fact('rotate me');
    await s.put(e);
    const b = await s.createBackup();
    await s.changeEncryption({ passphrase: 'new', ...WEAK });
    await s.put(fact('after rotation'));
    await s.close();
    await rejectsWith(openEncrypted(new MemoryPersistence(state), 'old'), 'DECRYPTION');
    const again = await openEncrypted(new MemoryPersistence(state), 'new');
    expect(await again.count({ tenantId: 't1' })).toBe(2);
    const report = await again.restoreBackup(b.id);
    expect(report.added).toBe(1);
    expect(await again.query({ tenantId: 't1' })).toEqual([e]);
    await again.changeEncryption(null);
    await again.close();
    const plain = await SqliteStorage.open({ persistence: new MemoryPersistence(state) });
    expect(await plain.get('t1', e.id)).toEqual(e);
    await plain.close();
  });
});

describe('single writer per file database', () => {
  it('a second instance on an open directory fails with CONFLICT; after close it opens', async () => {
    const dir = await tempDir();
    const a = await SqliteStorage.open({ persistence: new FilePersistence({ dir }) });
    await a.put(fact('only one writer'));
    await rejectsWith(SqliteStorage.open({ persistence: new FilePersistence({ dir }) }), 'CONFLICT');
    await a.close();
    const b = await SqliteStorage.open({ persistence: new FilePersistence({ dir }) });
    expect(await b.count({ tenantId: 't1' })).toBe(1);
    await b.close();
  });
});

describe('open options', () => {
  it('a typo or a bad value is VALIDATION before anything is written, never a silently in-memory or default database', async () => {
    const dir = await tempDir();
    const bad: unknown[] = [
      { persistance: new MemoryPersistence() },
      { persistence: { read: () => undefined } },
      { restoreFrom: 5 },
      { compaction: { maxLogRecord: 10 } },
      { compaction: { logToSnapshot: -1 } },
      { compaction: { logToSnapshot: '0.5' } },
      { backups: { evry: 3 } },
      { backups: { enabled: 'yes' } },
      { clock: 5 },
    ];
    for (const options of bad) await rejectsWith(SqliteStorage.open(options as never), 'VALIDATION');
    // A rejected open releases the driver it was given and leaves the directory as it was.
    await rejectsWith(
      SqliteStorage.open({ persistence: new FilePersistence({ dir }), backups: { kep: 1 } as never }),
      'VALIDATION',
    );
    expect((await readdir(dir)).filter((f) => f !== 'backups')).toEqual([]);
    const ok = await SqliteStorage.open({ persistence: new FilePersistence({ dir }) });
    await ok.close();
    expect(() => new FilePersistence({ dir, fsynk: false } as never)).toThrow(/fsynk/);
    expect(() => new IndexedDbPersistence({ nmae: 'x' } as never)).toThrow(/nmae/);
  });
});

describe('verifyKey', () => {
  it('releases the database: a wrong key after a right one is DECRYPTION (not CONFLICT), and the database opens afterwards', async () => {
    const dir = await tempDir();
    const s = await openEncrypted(new FilePersistence({ dir }), 'right');
    await s.put(fact('secret'));
    await s.close();
    const p = new FilePersistence({ dir });
    await SqliteStorage.verifyKey({ persistence: p, encryption: { passphrase: 'right', ...WEAK } });
    await rejectsWith(
      SqliteStorage.verifyKey({
        persistence: new FilePersistence({ dir }),
        encryption: { passphrase: 'wrong', ...WEAK },
      }),
      'DECRYPTION',
    );
    const again = await openEncrypted(p, 'right');
    expect(await again.count({ tenantId: 't1' })).toBe(1);
    await again.close();
  });
});

describe('changeEncryption on real drivers', () => {
  for (const driver of ['file', 'indexeddb'] as const) {
    it(`rewrites everything through ${driver} persistence`, async () => {
      const dir = driver === 'file' ? await tempDir() : '';
      const name = `rekey-${Math.random()}`;
      const make = () => (driver === 'file' ? new FilePersistence({ dir }) : new IndexedDbPersistence({ name }));
      const s = await SqliteStorage.open({ persistence: make() });
      const e = fact('rekeyed kingfisher');
      await s.put(e);
      await s.putVectors('t1', { id: 'm', dim: 2 }, [{ id: e.id, vector: new Float32Array([3, 4]) }]);
      const b = await s.createBackup({ includeVectors: true });
      await s.changeEncryption({ passphrase: 'fresh', ...WEAK });
      await s.put(fact('written after'));
      await s.close();
      await rejectsWith(SqliteStorage.open({ persistence: make() }), 'DECRYPTION');
      const again = await openEncrypted(make(), 'fresh');
      expect(await again.count({ tenantId: 't1' })).toBe(2);
      expect([...(await again.loadVectors('t1', 'm'))!.data]).toEqual([3, 4]);
      expect((await again.lexicalSearch({ tenantId: 't1', query: 'kingfisher', limit: 3 })).map((h) => h.id)).toEqual([
        e.id,
      ]);
      expect((await again.restoreBackup(b.id)).added).toBe(1);
      await again.close();
    });
  }
});

describe('corruption', () => {
  it('a torn append at the end of the file log is dropped; the valid prefix and later writes survive', async () => {
    const dir = await tempDir();
    const s = await SqliteStorage.open({ persistence: new FilePersistence({ dir }) });
    const es = [fact('one'), fact('two'), fact('three')];
    for (const e of es) await s.put(e);
    await s.close();
    // A torn frame: a length promising more bytes than were written.
    await appendFile(join(dir, 'main.log'), Buffer.from([200, 0, 0, 0, 9, 9, 9]));
    const s2 = await SqliteStorage.open({ persistence: new FilePersistence({ dir }) });
    expect(s2.openReport.droppedLogRecords).toBe(1);
    expect(await s2.count({ tenantId: 't1' })).toBe(3);
    const late = fact('four');
    await s2.put(late);
    await s2.close();
    const s3 = await SqliteStorage.open({ persistence: new FilePersistence({ dir }) });
    expect(s3.openReport.droppedLogRecords).toBe(0);
    expect(await s3.get('t1', late.id)).toEqual(late);
    expect(await s3.count({ tenantId: 't1' })).toBe(4);
    await s3.close();
  });

  // A frame whose checksum is valid but whose seq is out of order (a misdirected or buggy write,
  // not a bit flip): open keeps the prefix and reports the drop, and the repair must remove that
  // frame itself, or the next acknowledged put lands behind it and is dropped on the next open.
  const misdirected: [string, () => Promise<() => Persistence>][] = [
    [
      'file',
      async () => {
        const dir = await tempDir();
        return () => new FilePersistence({ dir });
      },
    ],
    [
      'indexeddb',
      async () => {
        const name = `misdirected-${Math.random().toString(36).slice(2)}`;
        return () => new IndexedDbPersistence({ name });
      },
    ],
    [
      'memory',
      async () => {
        const state = createMemoryPersistenceState();
        return () => new MemoryPersistence(state);
      },
    ],
  ];
  // (IndexedDB keys records by seq, so a record out of order cannot exist there.)
  for (const [kind, setup] of misdirected.filter(([k]) => k !== 'indexeddb')) {
    it(`${kind}: a valid frame with a wrong seq is cut where it lies; the next put survives a reopen`, async () => {
      const persistence = await setup();
      const s = await SqliteStorage.open({ persistence: persistence() });
      const es = [fact('one'), fact('two'), fact('three')];
      for (const e of es) await s.put(e);
      const vectors = es.map((e, i) => ({ id: e.id, vector: new Float32Array([i, 1]) }));
      for (const v of vectors) await s.putVectors('t1', { id: 'm', dim: 2 }, [v]);
      await s.close();
      const raw = persistence();
      for (const stream of ['main', 'vectors'] as const) {
        const { log } = await raw.read(stream);
        expect(log.length).toBeGreaterThanOrEqual(3);
        // Record 2 written again after the last one: checksum fine, seq out of order.
        await raw.append([{ stream, seq: log[1]!.seq, bytes: log[1]!.bytes }]);
      }
      await raw.close();

      const s2 = await SqliteStorage.open({ persistence: persistence() });
      expect(s2.openReport.droppedLogRecords).toBe(1);
      expect(await s2.count({ tenantId: 't1' })).toBe(3);
      const late = fact('four');
      await s2.put(late);
      await s2.putVectors('t1', { id: 'm', dim: 2 }, [{ id: late.id, vector: new Float32Array([9, 9]) }]);
      await s2.close();

      const s3 = await SqliteStorage.open({ persistence: persistence() });
      expect(s3.openReport.droppedLogRecords).toBe(0);
      expect(await s3.get('t1', late.id)).toEqual(late);
      expect(await s3.count({ tenantId: 't1' })).toBe(4);
      const block = await s3.loadVectors('t1', 'm');
      const row = (id: string) => {
        const i = block!.ids.indexOf(id);
        return i < 0 ? undefined : [...block!.data.subarray(i * 2, i * 2 + 2)];
      };
      expect(block?.ids.length).toBe(4);
      expect(row(late.id)).toEqual([9, 9]);
      expect(row(es[2]!.id)).toEqual([2, 1]);
      await s3.close();
    });
  }

  for (const [kind, setup] of misdirected) {
    it(`${kind}: a valid frame below the snapshot whose record says another seq is cut; the next put survives a reopen`, async () => {
      const persistence = await setup();
      const s = await SqliteStorage.open({ persistence: persistence() });
      const es = [fact('one'), fact('two'), fact('three')];
      for (const e of es) await s.put(e);
      await s.close();
      const raw = persistence();
      const first = (await raw.read('main')).log[0]!;
      await raw.close();
      const s1 = await SqliteStorage.open({ persistence: persistence() });
      await s1.compact();
      await s1.close();
      const raw2 = persistence();
      const { upto, log } = await raw2.read('main');
      expect(log).toHaveLength(0);
      // Frame seq below the snapshot's, checksum valid, but the record inside is seq 1's.
      await raw2.append([{ stream: 'main', seq: upto - 1, bytes: first.bytes }]);
      await raw2.close();

      const s2 = await SqliteStorage.open({ persistence: persistence() });
      expect(s2.openReport.droppedLogRecords).toBe(1);
      const late = fact('four');
      await s2.put(late);
      await s2.close();
      const s3 = await SqliteStorage.open({ persistence: persistence() });
      expect(s3.openReport.droppedLogRecords).toBe(0);
      expect(await s3.get('t1', late.id)).toEqual(late);
      expect(await s3.count({ tenantId: 't1' })).toBe(4);
      await s3.close();
    });
  }

  it('a record cut short (checksum mismatch) ends replay there', async () => {
    const dir = await tempDir();
    const s = await SqliteStorage.open({ persistence: new FilePersistence({ dir }) });
    const a = fact('kept');
    const b = fact('lost');
    await s.put(a);
    await s.put(b);
    await s.close();
    const size = (await stat(join(dir, 'main.log'))).size;
    await truncate(join(dir, 'main.log'), size - 3);
    const s2 = await SqliteStorage.open({ persistence: new FilePersistence({ dir }) });
    expect(s2.openReport.droppedLogRecords).toBe(1);
    expect(await s2.get('t1', a.id)).toEqual(a);
    expect(await s2.get('t1', b.id)).toBeUndefined();
    await s2.close();
  });

  it('without Web Locks, a second IndexedDB instance on the same database in this process is refused (CONFLICT)', async () => {
    expect((globalThis.navigator as Navigator | undefined)?.locks).toBeUndefined();
    const name = 'no-locks-twice';
    const s = await SqliteStorage.open({ persistence: new IndexedDbPersistence({ name }) });
    await s.put(fact('first'));
    await rejectsWith(SqliteStorage.open({ persistence: new IndexedDbPersistence({ name }) }), 'CONFLICT');
    await s.put(fact('second'));
    await s.close();
    const again = await SqliteStorage.open({ persistence: new IndexedDbPersistence({ name }) });
    expect(await again.count({ tenantId: 't1' })).toBe(2);
    await again.close();
  });

  it('a bit-flipped IndexedDB log record is detected by its checksum and the tail dropped', async () => {
    const name = 'corrupt-idb';
    const s = await SqliteStorage.open({ persistence: new IndexedDbPersistence({ name }) });
    const es = [fact('alpha'), fact('beta'), fact('gamma')];
    for (const e of es) await s.put(e);
    await s.close();
    const { openDB } = await import('idb');
    const db = await openDB(name, 1);
    const keys = (await db.getAllKeys('main-log')) as number[];
    const rec = (await db.get('main-log', keys[1]!)) as Uint8Array;
    rec[rec.length - 2]! ^= 0xff;
    await db.put('main-log', rec, keys[1]!);
    db.close();
    const s2 = await SqliteStorage.open({ persistence: new IndexedDbPersistence({ name }) });
    expect(s2.openReport.droppedLogRecords).toBe(2);
    expect((await s2.query({ tenantId: 't1', orderBy: 'createdAt' })).map((e) => e.id).sort()).toEqual([es[0]!.id]);
    await s2.put(es[2]!);
    await s2.close();
    const s3 = await SqliteStorage.open({ persistence: new IndexedDbPersistence({ name }) });
    expect(await s3.count({ tenantId: 't1' })).toBe(2);
    await s3.close();
  });

  it('on any driver, a log record stored under another seq than its own (defect 4) ends replay there, reported; nothing after it applies', async () => {
    const state = createMemoryPersistenceState();
    const s = await SqliteStorage.open({ persistence: new MemoryPersistence(state) });
    const es = [fact('first'), fact('second'), fact('third')];
    for (const e of es) await s.put(e);
    await s.close();
    // The second record now claims to be covered by the snapshot (seq 2 -> 0): it must not be skipped silently.
    state.streams.main.log[1]!.seq = 0;
    const s2 = await SqliteStorage.open({ persistence: new MemoryPersistence(state) });
    expect(s2.openReport.droppedLogRecords).toBe(2);
    expect((await s2.query({ tenantId: 't1' })).map((e) => e.id)).toEqual([es[0]!.id]);
    await s2.close();
  });

  it('on any driver, a snapshot whose base says it covers another seq than the snapshot itself (defect 5) is corrupt: STORAGE, and restoreFrom replays the newer records', async () => {
    const state = createMemoryPersistenceState();
    const s = await SqliteStorage.open({ persistence: new MemoryPersistence(state) });
    const es = [fact('one'), fact('two'), fact('three')];
    await s.put(es[0]!);
    await s.createBackup();
    await s.put(es[1]!);
    await s.compact();
    await s.put(es[2]!);
    await s.close();
    state.streams.main.upto = 3;
    const err = await rejectsWith(SqliteStorage.open({ persistence: new MemoryPersistence(state) }), 'STORAGE');
    expect(err.message).toContain("restoreFrom: 'latest'");
    const r = await SqliteStorage.open({ persistence: new MemoryPersistence(state), restoreFrom: 'latest' });
    // The backup holds `one`; `two` lived only in the damaged snapshot; `three` is replayed from the log.
    expect(r.openReport.replayed).toBe(1);
    expect((await r.query({ tenantId: 't1' })).map((e) => e.id).sort()).toEqual([es[0]!.id, es[2]!.id].sort());
    await r.close();
  });

  it('a corrupt vector base is dropped, rewritten and reported; memories stay and recall re-embeds them', async () => {
    const state = createMemoryPersistenceState();
    const s = await SqliteStorage.open({ persistence: new MemoryPersistence(state) });
    const mgr = await MemoryManager.create({ storage: s, owner: 'o' });
    for (const text of [
      'my cat Miso sleeps on the piano',
      'water the fern on Sundays',
      'the bike lock code is in the notebook',
    ])
      await mgr.remember('o', 't1', { title: 'note', text });
    await mgr.flush();
    const modelId = mgr.embedder!.modelId;
    await s.compact();
    await mgr.close();
    expect(state.streams.vectors.base.length).toBeGreaterThan(1);
    state.streams.vectors.base[1]![40]! ^= 0x55;
    const s2 = await SqliteStorage.open({ persistence: new MemoryPersistence(state) });
    expect(await s2.count({ tenantId: 't1' })).toBe(3);
    expect(await s2.loadVectors('t1', modelId)).toBeUndefined();
    expect(isZerdaError(s2.maintenanceError, 'STORAGE')).toBe(true);
    expect(s2.maintenanceError?.message).toMatch(/vector store was corrupt.*reindex/);
    const m2 = await MemoryManager.create({ storage: s2, owner: 'o' });
    await m2.recall('o', 't1', 'piano', { reinforce: false });
    await m2.flush();
    expect((await s2.loadVectors('t1', modelId))?.ids.length).toBe(3);
    await m2.close();
    const s3 = await SqliteStorage.open({ persistence: new MemoryPersistence(state) });
    expect((await s3.loadVectors('t1', modelId))?.ids.length).toBe(3);
    expect(s3.maintenanceError).toBeUndefined();
    await s3.close();
  });

  it('a corrupt snapshot fails with STORAGE (never an empty database); restoreFrom recovers from a backup', async () => {
    const state = createMemoryPersistenceState();
    const s = await SqliteStorage.open({ persistence: new MemoryPersistence(state) });
    const e = fact('precious');
    await s.put(e);
    await s.createBackup();
    await s.put(fact('newer'));
    await s.compact();
    await s.close();
    const snap = state.streams.main.base[0]!;
    snap[200]! ^= 0x55;
    const err = await rejectsWith(SqliteStorage.open({ persistence: new MemoryPersistence(state) }), 'STORAGE');
    // The advice names the option that works on a database that cannot be opened.
    expect(err.message).toContain("restoreFrom: 'latest'");
    const r = await SqliteStorage.open({ persistence: new MemoryPersistence(state), restoreFrom: 'latest' });
    expect(r.openReport.restoredFrom).toBeDefined();
    expect(await r.query({ tenantId: 't1' })).toEqual([e]);
    await r.close();
    const again = await SqliteStorage.open({ persistence: new MemoryPersistence(state) });
    expect(await again.count({ tenantId: 't1' })).toBe(1);
    await again.close();
  });
});

class QuotaPersistence extends MemoryPersistence {
  full = false;
  override async append(records: AppendRecord[]): Promise<void> {
    if (this.full) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    return super.append(records);
  }
}

describe('quota', () => {
  it('maps quota exhaustion to QUOTA_EXCEEDED and keeps memory equal to what was persisted', async () => {
    const p = new QuotaPersistence();
    const s = await SqliteStorage.open({ persistence: p });
    const a = fact('before the disk filled');
    await s.put(a);
    p.full = true;
    const b = fact('does not fit');
    await rejectsWith(s.put(b), 'QUOTA_EXCEEDED');
    await rejectsWith(s.delete('t1', a.id), 'QUOTA_EXCEEDED');
    expect(await s.get('t1', b.id)).toBeUndefined();
    expect(await s.get('t1', a.id)).toEqual(a);
    expect(await s.lexicalSearch({ tenantId: 't1', query: 'fit', limit: 5 })).toEqual([]);
    p.full = false;
    await s.put(b);
    await s.close();
    const again = await SqliteStorage.open({ persistence: new MemoryPersistence(p.state) });
    expect((await again.query({ tenantId: 't1', orderBy: 'createdAt' })).map((e) => e.id).sort()).toEqual(
      [a.id, b.id].sort(),
    );
    await again.close();
  });
});

describe('compaction', () => {
  it('folds the log into a snapshot on the record threshold; vectors stay out of the snapshot', async () => {
    const state = createMemoryPersistenceState();
    const s = await SqliteStorage.open({
      persistence: new MemoryPersistence(state),
      compaction: { maxLogRecords: 5, logToSnapshot: 0, maxVectorLogRecords: 3 },
    });
    const es = Array.from({ length: 12 }, (_, i) => fact(`memory number ${i}`));
    for (const e of es) await s.put(e);
    expect(state.streams.main.log.length).toBeLessThan(5);
    expect(state.streams.main.base).toHaveLength(1);
    const dim = 512;
    for (let k = 0; k < 4; k++)
      await s.putVectors(
        't1',
        { id: 'm', dim },
        es.slice(k * 3, k * 3 + 3).map((e) => ({ id: e.id, vector: new Float32Array(dim).fill(k + 1) })),
      );
    await s.compact();
    const snapshotBytes = state.streams.main.base[0]!.length;
    const vectorBytes = state.streams.vectors.base.reduce((n, b) => n + b.length, 0);
    expect(vectorBytes).toBeGreaterThan(12 * dim * 4);
    expect(state.streams.vectors.log).toHaveLength(0);
    await s.close();
    const again = await SqliteStorage.open({ persistence: new MemoryPersistence(state) });
    expect(await again.count({ tenantId: 't1' })).toBe(12);
    const block = await again.loadVectors('t1', 'm');
    expect(block?.ids).toHaveLength(12);
    expect(block?.data[dim * block.ids.indexOf(es[11]!.id)]).toBe(4);
    await again.put(fact('one more'));
    await again.compact();
    // The snapshot did not absorb the 24 KB of vectors.
    expect(state.streams.main.base[0]!.length).toBeLessThan(snapshotBytes + 8192);
    await again.close();
  });
});

describe('compaction in proportion to the snapshot', () => {
  it('a long run of writes compacts when the log reaches half the snapshot: the snapshots written add up to a few times the last one, not one per maxLogRecords', async () => {
    const state = createMemoryPersistenceState();
    const inner = new MemoryPersistence(state);
    // Each main compaction: the bytes of the snapshot it replaced and wrote, and of the log it folded.
    const compactions: { before: number; after: number; log: number; records: number }[] = [];
    const persistence: Persistence = Object.assign(Object.create(inner) as MemoryPersistence, {
      compact: async (stream: 'main' | 'vectors', base: Uint8Array[], upto: number) => {
        if (stream === 'main') {
          const log = state.streams.main.log.filter((r) => r.seq <= upto);
          compactions.push({
            before: state.streams.main.base[0]?.length ?? 0,
            after: base[0]!.length,
            log: log.reduce((n, r) => n + r.bytes.length, 0),
            records: log.length,
          });
        }
        return inner.compact(stream, base, upto);
      },
    });
    const s = await SqliteStorage.open({ persistence, backups: { enabled: false }, compaction: { maxLogRecords: 10 } });
    const written: string[] = [];
    for (let i = 0; i < 600; i++) {
      const e = fact(`memory number ${i}: ${'a longer text that makes the database grow with every write '.repeat(4)}`);
      await s.put(e);
      written.push(e.id);
    }
    // With the record count alone this would be 60 compactions, each writing the whole database.
    expect(compactions.length).toBeGreaterThan(1);
    expect(compactions.length).toBeLessThan(15);
    for (const c of compactions) {
      expect(c.records).toBeGreaterThanOrEqual(10);
      expect(c.log).toBeGreaterThanOrEqual(0.5 * c.before);
    }
    const last = compactions.at(-1)!.after;
    expect(compactions.reduce((n, c) => n + c.after, 0)).toBeLessThan(5 * last);
    // The log left over is bounded by the same rule, and nothing acknowledged is lost.
    const left = state.streams.main.log.reduce((n, r) => n + r.bytes.length, 0);
    expect(left).toBeLessThan(0.5 * last + 10 * 2048);
    await s.close();
    const again = await SqliteStorage.open({ persistence: new MemoryPersistence(state) });
    expect(again.openReport.replayed).toBe(state.streams.main.log.length);
    expect((await again.query({ tenantId: 't1', limit: 1000 })).map((e) => e.id).sort()).toEqual(written.sort());
    await again.close();
  });

  it('maxLogBytes compacts whatever the snapshot size; logToSnapshot 0 compacts on the record count alone', async () => {
    const count = async (compaction: object) => {
      const state = createMemoryPersistenceState();
      let n = 0;
      const inner = new MemoryPersistence(state);
      const persistence: Persistence = Object.assign(Object.create(inner) as MemoryPersistence, {
        compact: async (stream: 'main' | 'vectors', base: Uint8Array[], upto: number) => {
          if (stream === 'main') n++;
          return inner.compact(stream, base, upto);
        },
      });
      const s = await SqliteStorage.open({ persistence, backups: { enabled: false }, compaction });
      for (let i = 0; i < 40; i++) await s.put(fact(`memory number ${i}`));
      await s.close();
      return n;
    };
    // The first compaction comes at 10 records (there is no snapshot yet); the snapshot it writes
    // (the schema: tens of KB) is more than twice the 30 short records that follow.
    expect(await count({ maxLogRecords: 10 })).toBe(1);
    expect(await count({ maxLogRecords: 10, logToSnapshot: 0 })).toBe(4);
    expect(await count({ maxLogRecords: 10, maxLogBytes: 2000 })).toBeGreaterThanOrEqual(4);
  });
});

describe('tags', () => {
  it('tag rows never outlive their entry (rowids are reused after deletes)', async () => {
    const s = await SqliteStorage.open();
    const tagged = createEntry('a', { content: { title: 't', text: 'x' }, tags: ['red'] }, T0);
    await s.put(tagged);
    await s.clearTenant('a');
    const plain = createEntry('b', { content: { title: 't', text: 'y' } }, T0);
    await s.put(plain);
    expect(await s.query({ tenantId: 'b', tags: ['red'] })).toEqual([]);
    const again = createEntry('b', { content: { title: 't', text: 'z' }, tags: ['red'] }, T0);
    await s.put(again);
    await s.delete('b', again.id);
    await s.put(createEntry('b', { content: { title: 't', text: 'w' } }, T0));
    expect(await s.count({ tenantId: 'b', tags: ['red'] })).toBe(0);
    await s.put({ ...plain, tags: ['blue'], version: 2 });
    expect((await s.query({ tenantId: 'b', tags: ['blue'] })).map((e) => e.id)).toEqual([plain.id]);
    await s.close();
  });
});

describe('lexical search', () => {
  it('stems with porter and keeps BM25 statistics per tenant', async () => {
    const s = await SqliteStorage.open();
    const run = createEntry('t1', { content: { title: 'Sport', text: 'I was running in the park' } }, T0);
    const other = createEntry('t1', { content: { title: 'Food', text: 'pasta with tomato' } }, T0);
    await s.putMany([run, other]);
    const hits = await s.lexicalSearch({ tenantId: 't1', query: 'runs', limit: 5 });
    expect(hits.map((h) => h.id)).toEqual([run.id]);
    const before = hits[0]!.score;
    await s.putMany(
      Array.from({ length: 20 }, (_, i) =>
        createEntry('t2', { content: { title: 'x', text: `runner ${i} runs` } }, T0),
      ),
    );
    const after = await s.lexicalSearch({ tenantId: 't1', query: 'runs', limit: 5 });
    expect(after[0]!.score).toBe(before);
    expect(await s.lexicalSearch({ tenantId: 't1', query: '"); DROP TABLE entries; --', limit: 5 })).toEqual([]);
    expect(await s.count({ tenantId: 't1' })).toBe(2);
    await s.close();
  });
});
