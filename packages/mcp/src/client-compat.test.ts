import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer, tempDir, useServer } from './test-harness.js';

// What desktop clients and small local models actually send: quoted numbers, tag arrays, nulls
// for unused optional parameters, a `~` path in a JSON config, and a second app on the same folder.
const server = useServer();
const { dataDir } = server;

describe('arguments the way LLM clients send them', () => {
  it('reads quoted numbers as numbers, and still rejects out-of-range ones', async () => {
    const r = await server.call('remember', {
      title: 'Sister',
      content: 'Ana, the sister, was born on 14 June',
      importance: '7',
      memory_type: 'fact',
    });
    expect(r.isError, r.text).toBe(false);
    expect((r.json.memory as Record<string, unknown>).importance).toBe(7);
    const upd = await server.call('update_memory', { memory_id: r.json.memory_id, importance: ' 8.5 ' });
    expect(upd.isError, upd.text).toBe(false);
    expect((upd.json.memory as Record<string, unknown>).importance).toBe(8.5);
    await server.call('remember', { title: 'Other', content: 'Another memory about June plans' });
    const limited = await server.call('get_recent_memories', { limit: '1' });
    expect(limited.isError, limited.text).toBe(false);
    expect(limited.json.count).toBe(1);
    for (const [args, message] of [
      [{ title: 'x', content: 'quoted 42', importance: '42' }, /importance must be a number from 1 to 10/],
      [
        { title: 'x', content: 'quoted word', importance: 'seven' },
        /importance must be a number from 1 to 10 \(received "seven"\)/,
      ],
    ] as const) {
      const bad = await server.call('remember', args);
      expect(bad.isError, bad.text).toBe(true);
      expect(bad.text).toMatch(message);
    }
    expect((await server.call('search_memories', { query: 'June', limit: '2.5' })).text).toMatch(
      /limit must be an integer/,
    );
    expect((await server.call('get_memory_stats')).json.total_memories).toBe(2);
    // The advertised schema still asks for numbers.
    const { tools } = await server.client.listTools();
    const props = tools.find((t) => t.name === 'remember')!.inputSchema.properties as Record<string, { type?: string }>;
    expect(props.importance!.type).toBe('number');
    expect(props.tags!.type).toBe('string');
  });

  it('accepts tags as an array of strings and null for unused optional parameters', async () => {
    const r = await server.call('remember', {
      title: 'Pets',
      content: 'The family cat is called Miso',
      tags: ['Family', 'pets'],
      importance: null,
      memory_type: null,
    });
    expect(r.isError, r.text).toBe(false);
    const mem = r.json.memory as Record<string, unknown>;
    expect(mem).toMatchObject({ tags: ['family', 'pets'], importance: 5, memory_type: 'conversation' });
    const byTags = await server.call('search_by_tags', { tags: ['pets'], limit: null });
    expect(byTags.isError, byTags.text).toBe(false);
    expect(byTags.json.results!.map((x) => x.id)).toEqual([r.json.memory_id]);
    const search = await server.call('search_memories', { query: 'cat', search_type: null, limit: null });
    expect(search.isError, search.text).toBe(false);
    expect(search.json.search_type).toBe('semantic');
    const range = await server.call('search_by_date_range', { date_from: '2000-01-01', date_to: null });
    expect(range.isError, range.text).toBe(false);
    expect(range.json.count).toBe(3);
    const future = await server.call('search_by_date_range', { date_from: '2999-01-01' });
    expect(future.isError).toBe(true);
    expect(future.text).toMatch(/date_from: expected a time not after now \(.*date_to defaults to now\)/);
    const none = await server.call('update_memory', { memory_id: r.json.memory_id, title: null, content: null });
    expect(none.isError).toBe(true);
    expect(none.text).toMatch(/at least one of title, content, tags, importance/);
  });

  it('an update that changes nothing adds no version', async () => {
    const r = await server.call('remember', { title: 'Car', content: 'Drives a blue 2015 Volvo', tags: 'car,family' });
    const id = r.json.memory_id;
    const same = await server.call('update_memory', {
      memory_id: id,
      content: 'Drives a blue 2015 Volvo',
      tags: 'car, family',
      importance: 5,
    });
    expect(same.isError, same.text).toBe(false);
    expect(same.json).toMatchObject({ unchanged: true, previous_versions: 0 });
    expect((same.json.memory as Record<string, unknown>).version).toBe(1);
    const changed = await server.call('update_memory', { memory_id: id, content: 'Drives a red 2021 Volvo' });
    expect(changed.json.previous_versions).toBe(1);
    expect((changed.json.memory as Record<string, unknown>).version).toBe(2);
  });
});

describe('ZERDA_MASK_PII=1', () => {
  it('still refuses the same content twice (compared in its masked, stored form)', async () => {
    const dir = tempDir();
    const s = await startServer({ ZERDA_DATA_DIR: dir, ZERDA_MASK_PII: '1' });
    try {
      const content = 'Her e-mail is maria.silva@example.com';
      const first = await s.call('remember', { title: 'Contact', content });
      expect(first.isError, first.text).toBe(false);
      expect((first.json.memory as Record<string, unknown>).content).not.toContain('maria.silva@example.com');
      const again = await s.call('remember', { title: 'Contact again', content });
      expect(again.isError, again.text).toBe(true);
      expect(again.text).toMatch(/Duplicate content/);
      expect((await s.call('get_memory_stats')).json.total_memories).toBe(1);
    } finally {
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('data directory', () => {
  it('expands ~ in ZERDA_DATA_DIR (no shell does it for a JSON config)', async () => {
    const home = tempDir('zerda-mcp-home-');
    const s = await startServer({ HOME: home, USERPROFILE: home, ZERDA_DATA_DIR: '~/my-memory' });
    try {
      const stats = await s.call('get_memory_stats');
      expect(stats.json.data_directory).toBe(join(home, 'my-memory'));
      expect(existsSync(join(home, 'my-memory', 'memory_db'))).toBe(true);
    } finally {
      await s.close();
      rmSync(home, { recursive: true, force: true });
    }
  }, 60_000);

  it('a second server on the same folder refuses to start and says how to recover from a stale lock', async () => {
    const err = await startServer({ ZERDA_DATA_DIR: dataDir }).then(
      async (s) => {
        await s.close();
        return 'started';
      },
      (e: unknown) => (e as Error).message,
    );
    expect(err).toMatch(/is open in another process/);
    expect(err).toContain(join(dataDir, 'memory_db', 'lock'));
    // The first server is unaffected.
    expect((await server.call('get_memory_stats')).json.total_memories).toBe(4);
  }, 60_000);
});
