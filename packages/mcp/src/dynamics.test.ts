import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setClock, startServer, tempDir, type Harness } from './test-harness.js';

// The original server's dynamics through the spawned server, moved through time by its testing
// hook (ZERDA_CLOCK_FILE is re-read on every clock call): +0.1 per retrieval accumulated in the
// memory's metadata and written as +0.5, decay written back in half steps when it moved by >= 0.5.
const DAY = 86_400_000;
const T0 = Date.UTC(2025, 0, 1, 12);
const dataDir = tempDir();
const clockFile = join(dataDir, 'clock.txt');
let server: Harness;
const ids: Record<string, string> = {};

const start = () => startServer({ ZERDA_DATA_DIR: dataDir, ZERDA_CLOCK_FILE: clockFile });

beforeAll(async () => {
  setClock(clockFile, T0);
  server = await start();
  const add = async (key: string, args: Record<string, unknown>) => {
    const r = await server.call('remember', args);
    expect(r.isError, r.text).toBe(false);
    ids[key] = r.json.memory_id as string;
  };
  await add('chat', { title: 'Chat', content: 'We chatted about the weather in Oslo', importance: 8 });
  await add('core', {
    title: 'Name',
    content: 'The user is called Robin',
    importance: 8,
    tags: 'core',
    memory_type: 'fact',
  });
  await add('ephemeral', {
    title: 'Parking',
    content: 'Parked the car on level 3',
    importance: 4,
    memory_type: 'ephemeral',
  });
  await add('recalled', {
    title: 'Banjo',
    content: 'Robin is learning the banjo and the ukulele',
    importance: 5,
    memory_type: 'fact',
  });
  await add('reads', {
    title: 'Kayak',
    content: 'Robin paddles a red kayak',
    importance: 5,
    memory_type: 'hobby',
    tags: 'boats',
  });
  await add('top', {
    title: 'Allergy',
    content: 'Robin is severely allergic to peanuts',
    importance: 10,
    memory_type: 'fact',
  });
  await add('fact', { title: 'Sister', content: 'Robin has a sister called Mira', importance: 7, memory_type: 'fact' });
}, 60_000);

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The memory as stored, read without reinforcing it (get_memory_history's current version). */
async function stored(id: string): Promise<{ importance: number; version: number }> {
  const r = await server.call('get_memory_history', { memory_id: id });
  const current = (r.json.versions as Record<string, unknown>[]).at(-1)!;
  return { importance: current.importance as number, version: current.version as number };
}

async function recall(query: string, id: string): Promise<Record<string, unknown>> {
  const r = await server.call('search_memories', { query, search_type: 'keyword' });
  const hit = r.json.results!.find((x) => x.id === id);
  expect(hit, `${query} should recall ${id}`).toBeDefined();
  return hit!;
}

describe('memory dynamics (injectable clock)', () => {
  it('starts at the given importance and timestamps from the injected clock', async () => {
    const r = await server.call('search_by_type', { memory_type: 'conversation' });
    const m = r.json.results!.find((x) => x.id === ids.chat)!;
    expect(m.importance).toBe(8);
    expect(m.timestamp).toBe(new Date(T0).toISOString());
  });

  it("accumulates +0.1 per retrieval in the memory's metadata, and writes +0.5 once it reaches 0.5, across a restart", async () => {
    for (let i = 1; i <= 3; i++) {
      const hit = await recall('banjo ukulele', ids.recalled!);
      expect(hit.base_importance).toBe(5); // accumulated, not written yet
      expect((hit.metadata as Record<string, number>).reinforcementAccum).toBeCloseTo(i * 0.01, 9);
    }
    await server.close();
    server = await start();
    await recall('banjo ukulele', ids.recalled!);
    const fifth = await recall('banjo ukulele', ids.recalled!);
    expect(fifth.base_importance).toBe(5.5); // 3 recalls, restart, 2 recalls: nothing lost
    expect((fifth.metadata as Record<string, number>).reinforcementAccum).toBe(0);
    expect(fifth.access_count).toBe(5);
  }, 60_000);

  it('every read tool that returns memories reinforces them', async () => {
    const day = new Date(T0).toISOString().slice(0, 10);
    const reads = [
      () => server.call('search_by_type', { memory_type: 'hobby' }),
      () => server.call('search_by_tags', { tags: 'boats' }),
      () => server.call('get_recent_memories', { limit: 100 }),
      () => server.call('search_by_date_range', { date_from: day, date_to: day }),
      () => server.call('search_memories', { query: 'kayak', search_type: 'keyword' }),
    ];
    for (const read of reads) {
      const r = await read();
      expect(
        r.json.results!.map((x) => x.id),
        r.text,
      ).toContain(ids.reads);
    }
    expect((await stored(ids.reads!)).importance).toBe(5.5);
    // Reading a memory's history is not a retrieval.
    const before = await stored(ids.reads!);
    await server.call('get_memory_history', { memory_id: ids.reads! });
    expect(await stored(ids.reads!)).toEqual(before);
  });

  it('caps reinforcement at 10', async () => {
    for (let i = 0; i < 10; i++) await recall('peanuts allergic', ids.top!);
    expect((await stored(ids.top!)).importance).toBe(10);
  });

  it('decay: a drop under 0.5 is not written; a larger one is written rounded to halves', async () => {
    setClock(clockFile, T0 + 5 * DAY); // fact, 120-day half-life: 7 -> 6.80, rounds back to 7
    await recall('sister Mira', ids.fact!);
    expect((await stored(ids.fact!)).importance).toBe(7);
    setClock(clockFile, T0 + 65 * DAY); // 60 days since that recall: 7 x 2^-0.5 = 4.95 -> 5.0
    const hit = await recall('sister Mira', ids.fact!);
    expect(hit.base_importance).toBe(5);
    expect((hit.metadata as Record<string, number>).lastDecayAt).toBe(T0 + 65 * DAY);
  });

  it('update_memory counts as an access: the decay so far is kept, and runs from now', async () => {
    setClock(clockFile, T0 + 95 * DAY); // Sister: 5 since day 65; 30 days of a 120-day half-life: 4.20 -> 4
    expect((await stored(ids.fact!)).importance).toBe(5);
    const upd = await server.call('update_memory', {
      memory_id: ids.fact!,
      content: 'Robin has a younger sister called Mira',
    });
    const mem = upd.json.memory as Record<string, number>;
    expect(mem.base_importance).toBe(4);
    expect(mem.importance).toBe(4); // decay restarts at the update
    expect(upd.json.memory).toMatchObject({ last_accessed: new Date(T0 + 95 * DAY).toISOString() });
  });

  it('decay never goes below the type floor; protected tags never decay', async () => {
    setClock(clockFile, T0 + 1000 * DAY);
    const chat = await recall('weather Oslo', ids.chat!);
    expect(chat.base_importance).toBe(2); // conversation floor
    const parking = await recall('parked level', ids.ephemeral!);
    expect(parking.base_importance).toBe(1); // ephemeral floor
    const core = await recall('Robin called', ids.core!);
    expect(core.base_importance).toBe(8);
    expect(core.protected).toBe(true);
  });

  it('a retrieval after decay raises the faded value, it does not restore the original', async () => {
    for (let i = 0; i < 4; i++) await recall('parked level', ids.ephemeral!);
    expect((await stored(ids.ephemeral!)).importance).toBe(1.5);
  });

  it('makes an automatic backup once 24 h passed with changes', async () => {
    const backups = () => {
      try {
        return readdirSync(join(dataDir, 'memory_backups')).filter((n) => n.startsWith('backup_'));
      } catch {
        return [];
      }
    };
    setClock(clockFile, T0 + 1091 * DAY + 3 * 3_600_000);
    await server.call('get_memory_stats'); // the update changed something since the last backup
    const n = backups().length;
    expect(n).toBeGreaterThanOrEqual(2); // the clock jumped 65 and 1000 days with writes in between
    setClock(clockFile, T0 + 1093 * DAY);
    await server.call('get_memory_stats');
    expect(backups().length).toBe(n); // nothing changed since: no new backup
    await server.call('remember', { title: 'New', content: 'A fresh memory after the jump' });
    const names = backups().sort();
    expect(names.length).toBe(n + 1); // changed, and 24 h since the last backup
    const manifest = JSON.parse(readFileSync(join(dataDir, 'memory_backups', names.at(-1)!, 'manifest.json'), 'utf8'));
    expect(manifest.reason).toBe('interval');
    expect(manifest.created_at).toBe(new Date(T0 + 1093 * DAY).toISOString());
  });
});
