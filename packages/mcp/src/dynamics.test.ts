import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setClock, startServer, tempDir, type Harness } from './test-harness.js';

// Decay and reinforcement through the spawned server, moved through time by its testing hook:
// ZERDA_CLOCK_FILE is re-read on every clock call.
const DAY = 86_400_000;
const T0 = Date.UTC(2025, 0, 1, 12);
const dataDir = tempDir();
const clockFile = join(dataDir, 'clock.txt');
let server: Harness;
const ids: Record<string, string> = {};

beforeAll(async () => {
  setClock(clockFile, T0);
  server = await startServer({ ZERDA_DATA_DIR: dataDir, ZERDA_CLOCK_FILE: clockFile });
  const add = async (key: string, args: Record<string, unknown>) => {
    const r = await server.call('remember', args);
    expect(r.isError, r.text).toBe(false);
    ids[key] = r.json.memory_id as string;
  };
  await add('chat', { title: 'Chat', content: 'We chatted about the weather in Oslo', importance: 8 });
  await add('core', { title: 'Name', content: 'The user is called Robin', importance: 8, tags: 'core', memory_type: 'fact' });
  await add('ephemeral', { title: 'Parking', content: 'Parked the car on level 3', importance: 4, memory_type: 'ephemeral' });
  await add('recalled', { title: 'Guitar', content: 'Robin is learning the banjo and the ukulele', importance: 5, memory_type: 'fact' });
  await add('top', { title: 'Allergy', content: 'Robin is severely allergic to peanuts', importance: 10, memory_type: 'fact' });
}, 60_000);

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function memory(id: string): Promise<Record<string, unknown>> {
  const r = await server.call('get_recent_memories', { limit: 100 });
  const m = r.json.results!.find((x) => x.id === id);
  expect(m, `memory ${id}`).toBeDefined();
  return m!;
}

async function recall(query: string, id: string): Promise<Record<string, unknown>> {
  const r = await server.call('search_memories', { query, search_type: 'keyword' });
  const hit = r.json.results!.find((x) => x.id === id);
  expect(hit, `${query} should recall ${id}`).toBeDefined();
  return hit!;
}

describe('memory dynamics (injectable clock)', () => {
  it('starts at the given importance and timestamps from the injected clock', async () => {
    const m = await memory(ids.chat!);
    expect(m.importance).toBe(8);
    expect(m.timestamp).toBe(new Date(T0).toISOString());
  });

  it('reinforces on recall: accumulates 0.1 per recall, writes in 0.5 steps', async () => {
    for (let i = 1; i <= 4; i++) {
      const hit = await recall('banjo ukulele', ids.recalled!);
      expect(hit.base_importance).toBe(5); // accumulated, not written yet
      expect(hit.version).toBe(1);
    }
    const fifth = await recall('banjo ukulele', ids.recalled!);
    expect(fifth.base_importance).toBe(5.5);
    expect(fifth.version).toBe(2);
    expect(fifth.access_count).toBe(5);
    const stats = await server.call('get_memory_stats');
    expect(stats.json.pending_reinforcements).toBe(0);
  });

  it('caps reinforcement at 10', async () => {
    for (let i = 0; i < 10; i++) await recall('peanuts allergic', ids.top!);
    const m = await memory(ids.top!);
    expect(m.base_importance).toBe(10);
    expect(m.importance).toBe(10);
  });

  it('decays lazily by half-life per type, never below the type floor; protected tags never decay', async () => {
    setClock(clockFile, T0 + 45 * DAY); // conversation half-life: 45 days
    const chat = await memory(ids.chat!);
    expect(chat.importance).toBeCloseTo(4, 1);
    const core = await memory(ids.core!);
    expect(core.importance).toBe(8);
    expect(core.protected).toBe(true);
    setClock(clockFile, T0 + 1000 * DAY);
    expect((await memory(ids.chat!)).importance).toBe(2); // conversation floor
    expect((await memory(ids.ephemeral!)).importance).toBe(1); // ephemeral floor
    expect((await memory(ids.core!)).importance).toBe(8);
  });

  it('writes decay back only when the change is meaningful', async () => {
    const before = await memory(ids.chat!);
    // The listing above already wrote the decayed value (a drop of >= 0.5 after >= 12 h).
    expect(before.base_importance).toBe(2);
    const version = before.version as number;
    setClock(clockFile, T0 + 1000 * DAY + 3_600_000);
    const again = await memory(ids.chat!);
    expect(again.version).toBe(version); // nothing meaningful changed: no write
    expect((await memory(ids.core!)).version).toBe(1); // protected: never written
  });

  it('a recall after decay raises the faded value, it does not restore the original', async () => {
    const faded = await memory(ids.ephemeral!);
    expect(faded.importance).toBe(1);
    for (let i = 0; i < 5; i++) await recall('parked car level', ids.ephemeral!);
    const m = await memory(ids.ephemeral!);
    expect(m.importance).toBe(1.5);
  });

  it('makes an automatic backup once 24 h passed with changes', async () => {
    const backups = () => {
      try {
        return readdirSync(join(dataDir, 'memory_backups')).filter((n) => n.startsWith('backup_'));
      } catch {
        return [];
      }
    };
    setClock(clockFile, T0 + 1001 * DAY + 3 * 3_600_000);
    await server.call('get_memory_stats'); // reinforcement wrote since the last backup
    const n = backups().length;
    expect(n).toBeGreaterThanOrEqual(2); // the clock jumped 45 and 1000 days with writes in between
    setClock(clockFile, T0 + 1003 * DAY);
    await server.call('get_memory_stats');
    expect(backups().length).toBe(n); // nothing changed since: no new backup
    await server.call('remember', { title: 'New', content: 'A fresh memory after the jump' });
    const names = backups().sort();
    expect(names.length).toBe(n + 1); // changed, and 24 h since the last backup
    const manifest = JSON.parse(readFileSync(join(dataDir, 'memory_backups', names.at(-1)!, 'manifest.json'), 'utf8'));
    expect(manifest.reason).toBe('interval');
    expect(manifest.created_at).toBe(new Date(T0 + 1003 * DAY).toISOString());
  });
});
