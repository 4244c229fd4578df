import 'fake-indexeddb/auto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { runStorageConformance } from '@zerda/core/testing';
import type { StorageAdapter } from '@zerda/core';
import { FilePersistence } from './file-persistence.js';
import { IndexedDbPersistence } from './indexeddb-persistence.js';
import { MemoryPersistence } from './persistence.js';
import type { Persistence } from './persistence.js';
import { SqliteStorage } from './sqlite-storage.js';
import type { SqliteStorageOptions } from './options.js';

const reopeners = new WeakMap<StorageAdapter, () => Promise<SqliteStorage>>();

/** Open a storage over a persistence made by `make` (called again on reopen, same location). */
function opener(make: () => Persistence, options: SqliteStorageOptions = {}) {
  return async (): Promise<SqliteStorage> => {
    const s = await SqliteStorage.open({ ...options, persistence: make() });
    reopeners.set(s, opener(make, options));
    return s;
  };
}

async function reopen(old: StorageAdapter): Promise<StorageAdapter> {
  const again = reopeners.get(old);
  if (!again) throw new Error('unknown storage');
  await old.close();
  return again();
}

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

runStorageConformance('SqliteStorage (no persistence)', () => SqliteStorage.open());

runStorageConformance(
  'SqliteStorage + MemoryPersistence',
  () => {
    const state = new MemoryPersistence().state;
    return opener(() => new MemoryPersistence(state))();
  },
  { reopen },
);

let idb = 0;
runStorageConformance(
  'SqliteStorage + IndexedDbPersistence (fake-indexeddb)',
  () => {
    const name = `conf-${idb++}`;
    return opener(() => new IndexedDbPersistence({ name }))();
  },
  { reopen },
);

runStorageConformance(
  'SqliteStorage + IndexedDbPersistence, encrypted, compacting every 2 records',
  () => {
    const name = `conf-${idb++}`;
    return opener(() => new IndexedDbPersistence({ name }), {
      encryption: { passphrase: 'correct horse', iterations: 1000, allowWeakIterations: true },
      compaction: { maxLogRecords: 2, logToSnapshot: 0, maxVectorLogRecords: 2 },
    })();
  },
  { reopen },
);

runStorageConformance(
  'SqliteStorage + FilePersistence',
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'zerda-sqlite-'));
    dirs.push(dir);
    return opener(() => new FilePersistence({ dir }))();
  },
  { reopen },
);

runStorageConformance(
  'SqliteStorage + FilePersistence, encrypted, compacting every 2 records',
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'zerda-sqlite-'));
    dirs.push(dir);
    return opener(() => new FilePersistence({ dir }), {
      encryption: { passphrase: 'correct horse', iterations: 1000, allowWeakIterations: true },
      compaction: { maxLogRecords: 2, logToSnapshot: 0, maxVectorLogRecords: 2 },
    })();
  },
  { reopen },
);
