import 'fake-indexeddb/auto';
import { afterAll, describe, expect, it } from 'vitest';
import { createEntry } from '@zerda/core/adapter';
import { runStorageConformance } from '@zerda/core/testing';
import { SqliteStorage } from '@zerda/sqlite';
import { announceWrites, ChangeFeed, type MemoryChange } from './change-feed.js';

// The wrapper BrowserMemory puts around its storage must still be a conforming StorageAdapter.
const feeds: ChangeFeed[] = [];
const changes: MemoryChange[] = [];
afterAll(() => {
  for (const f of feeds) f.close();
});

runStorageConformance('announceWrites(SqliteStorage) (the change-feed wrapper)', async () => {
  const feed = new ChangeFeed(null);
  feeds.push(feed);
  feed.subscribe((c) => changes.push(c));
  return announceWrites(await SqliteStorage.open(), feed);
});

describe('announceWrites', () => {
  it('announces the tenant of a write once it succeeded, and nothing for a rejected one', async () => {
    const feed = new ChangeFeed(null);
    const seen: MemoryChange[] = [];
    feed.subscribe((c) => seen.push(c));
    const s = announceWrites(await SqliteStorage.open(), feed);
    await s.put(createEntry('t-feed', { content: { title: 'x', text: 'y' } }, 1_700_000_000_000));
    await expect(s.put({ id: '' } as never)).rejects.toThrow();
    feed.close();
    expect(seen).toEqual([{ tenantIds: ['t-feed'], source: 'local' }]);
    await s.close();
  });
});
