import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, tempDir, writeLegacyFolder, type Harness, type LegacyRow } from './test-harness.js';

// Coming from the Python "long-term memory MCP": pointing AI_COMPANION_DATA_DIR at its data folder
// imports its memories once, ids and all, and leaves its files alone.
const dataDir = tempDir();
const servers: Harness[] = [];

afterAll(async () => {
  for (const s of servers) await s.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function writeLegacyDb(): Promise<void> {
  const rows: LegacyRow[] = [
    [
      'mem_a1_b2',
      'Name',
      'The user is called Robin',
      '2024-05-01T09:30:00.123456+00:00',
      '["identity"]',
      9,
      'fact',
      '{"reinforcement_accum": 0.2}',
      '2024-06-01T00:00:00+00:00',
    ],
    [
      'mem_c3_d4',
      'Tea',
      'Robin likes green tea',
      '2024-05-02T10:00:00',
      '["food", "Drinks"]',
      6,
      'preference',
      '{}',
      null,
    ],
    ['mem_e5_f6', 'Broken', 'A row with a bad date', 'not a date', '[]', 5, 'conversation', '{}', null],
  ];
  await writeLegacyFolder(dataDir, rows);
  writeFileSync(join(dataDir, 'memory_db', 'chroma_db', 'chroma.sqlite3'), 'vectors of the old tool');
}

describe('AI_COMPANION_DATA_DIR', () => {
  it("imports the Python tool's memories once, keeping ids, importance, types and dates", async () => {
    await writeLegacyDb();
    // The clock stands one day after the last legacy write, so decay has not moved anything yet.
    const clockFile = join(dataDir, 'clock.txt');
    writeFileSync(clockFile, '2024-05-03T10:00:00Z');
    const env = { AI_COMPANION_DATA_DIR: dataDir, ZERDA_CLOCK_FILE: clockFile };
    const first = await startServer(env);
    servers.push(first);
    const stats = await first.call('get_memory_stats');
    expect(stats.json.data_directory).toBe(dataDir);
    expect(stats.json.total_memories).toBe(2);
    const recent = await first.call('get_recent_memories');
    const byId = new Map(recent.json.results!.map((m) => [m.id, m]));
    expect(byId.get('mem_a1_b2')).toMatchObject({
      title: 'Name',
      memory_type: 'fact',
      base_importance: 9,
      tags: ['identity'],
      protected: true,
      timestamp: '2024-05-01T09:30:00.123Z',
      last_accessed: '2024-06-01T00:00:00.000Z',
    });
    // The original's accumulated reinforcement (0.2 on its scale) carries on: +0.1 for this listing.
    const metadata = byId.get('mem_a1_b2')!.metadata as Record<string, unknown>;
    expect(metadata.reinforcementAccum).toBeCloseTo(0.03, 9);
    expect(metadata.reinforcement_accum).toBeUndefined();
    expect(byId.get('mem_c3_d4')).toMatchObject({
      memory_type: 'preference',
      base_importance: 6,
      importance: 6,
      tags: ['food', 'drinks'],
      timestamp: '2024-05-02T10:00:00.000Z',
    });
    const found = await first.call('search_memories', { query: 'green tea', search_type: 'keyword' });
    expect(found.json.results![0]!.id).toBe('mem_c3_d4');
    const upd = await first.call('update_memory', { memory_id: 'mem_c3_d4', content: 'Robin likes jasmine tea' });
    expect(upd.isError, upd.text).toBe(false);
    await first.call('delete_memory', { memory_id: 'mem_a1_b2' });
    await first.call('delete_memory', { memory_id: 'mem_c3_d4' });
    await first.close();
    servers.pop();

    const second = await startServer(env);
    servers.push(second);
    expect((await second.call('get_memory_stats')).json.total_memories).toBe(0); // never imported twice
    const backup = await second.call('create_backup');
    const copied = readdirSync(join((backup.json.backup as Record<string, string>).path!, 'memory_db'));
    expect(copied).not.toContain('memories.db');
    expect(copied).not.toContain('chroma_db');
    expect(existsSync(join(dataDir, 'memory_db', 'memories.db'))).toBe(true);
    expect(existsSync(join(dataDir, 'legacy-import.json'))).toBe(true);
  }, 60_000);
});
