import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEntry } from '@zerda/core/adapter';
import { PostgresStorage } from './postgres-storage.js';
import { describePostgres, freshSchema, ownerUrl } from './test-database.js';

const T0 = 1_700_000_000_000;

// stats().bytes is the size of the data on disk: on Citus the coordinator's tables are empty
// shells, so their size does not move when rows are written (the shards on the workers grow).
describePostgres('PostgresStorage stats', (url) => {
  const schema = freshSchema('stats');
  let storage: PostgresStorage;

  beforeAll(async () => {
    storage = await PostgresStorage.open({ connectionString: url, ownerConnectionString: ownerUrl(url), schema });
  });
  afterAll(async () => {
    await storage?.close();
  });

  it('bytes grows by at least the text written', async () => {
    const before = (await storage.stats()).bytes!;
    // ~1.5 KB of distinct words per entry: stored uncompressed (under TOAST's 2 KB threshold),
    // twice (the lowercased text and the entry's JSON).
    const text = (i: number) =>
      Array.from({ length: 200 }, (_, j) => `w${((i * 7919 + j * 104_729) % 1_000_003).toString(36)}`).join(' ');
    const entries = Array.from({ length: 300 }, (_, i) => ({
      ...createEntry(`t${i % 3}`, { content: { title: `n${i}`, text: text(i) } }, T0 + i),
      id: `e${i}`,
    }));
    const written = entries.reduce((n, e) => n + text(Number(e.id.slice(1))).length, 0);
    for (let i = 0; i < entries.length; i += 100) await storage.putMany(entries.slice(i, i + 100));
    const after = await storage.stats();
    expect(after.entries).toBe(300);
    expect(written).toBeGreaterThan(300_000);
    expect(after.bytes! - before).toBeGreaterThanOrEqual(written);
  });
});
