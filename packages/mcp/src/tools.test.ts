import { describe, expect, it } from 'vitest';
import { useServer } from './test-harness.js';

// Every tool through the official SDK client against the real spawned server (stdio), on a
// fresh data directory: SQLite on disk, hash embedder for speed.
const server = useServer();
const { dataDir } = server;

async function remember(args: Record<string, unknown>): Promise<string> {
  const r = await server.call('remember', args);
  expect(r.isError, r.text).toBe(false);
  return r.json.memory_id as string;
}

describe('zerda-mcp tools over stdio', () => {
  it('lists the eleven tools of the original server (same parameters) plus get_memory_history', async () => {
    const { tools } = await server.client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect([...byName.keys()].sort()).toEqual(
      [
        'create_backup',
        'delete_memory',
        'get_memory_stats',
        'get_recent_memories',
        'remember',
        'search_by_date_range',
        'search_by_tags',
        'search_by_type',
        'search_memories',
        'update_memory',
        'rebuild_vectors',
        'get_memory_history',
      ].sort(),
    );
    const remember = byName.get('remember')!.inputSchema;
    expect(Object.keys(remember.properties ?? {}).sort()).toEqual([
      'content',
      'importance',
      'memory_type',
      'tags',
      'title',
    ]);
    expect(remember.required?.sort()).toEqual(['content', 'title']);
    expect(Object.keys(byName.get('search_memories')!.inputSchema.properties ?? {}).sort()).toEqual([
      'limit',
      'query',
      'search_type',
    ]);
    expect(Object.keys(byName.get('update_memory')!.inputSchema.properties ?? {}).sort()).toEqual([
      'content',
      'importance',
      'memory_id',
      'memory_type',
      'tags',
      'title',
    ]);
    expect(Object.keys(byName.get('rebuild_vectors')!.inputSchema.properties ?? {})).toEqual([]);
    expect(byName.get('get_memory_history')!.inputSchema.required).toEqual(['memory_id']);
    expect(byName.get('search_by_date_range')!.inputSchema.required).toEqual(['date_from']);
  });

  it('remembers and finds memories by meaning, type, tags, recency and date', async () => {
    const coffee = await remember({
      title: 'Coffee preference',
      content: 'Alex drinks espresso with oat milk every morning',
      tags: 'food, Morning',
      importance: 7,
      memory_type: 'preference',
    });
    const dog = await remember({
      title: 'Dog',
      content: 'Alex has a border collie named Pixel',
      tags: 'family,pets',
      memory_type: 'fact',
    });
    const chat = await remember({ title: 'Chat about holidays', content: 'We talked about a trip to Lisbon in May' });

    const search = await server.call('search_memories', { query: 'espresso oat milk', limit: 5 });
    expect(search.isError).toBe(false);
    const top = search.json.results![0]!;
    expect(top.id).toBe(coffee);
    expect(top.relevance_score).toBeGreaterThan(0);
    expect(top.relevance_score).toBeLessThanOrEqual(1);
    expect(top.importance).toBe(7);
    expect(top.tags).toEqual(['food', 'morning']);
    for (const r of search.json.results!)
      expect(r.relevance_score as number).toBeLessThanOrEqual(top.relevance_score as number);

    const keyword = await server.call('search_memories', { query: 'border collie', search_type: 'keyword' });
    expect(keyword.json.results!.map((r) => r.id)).toEqual([dog]);

    const byType = await server.call('search_by_type', { memory_type: 'fact' });
    expect(byType.json.results!.map((r) => r.id)).toEqual([dog]);
    const defaultType = await server.call('search_by_type', { memory_type: 'conversation' });
    expect(defaultType.json.results!.map((r) => r.id)).toEqual([chat]);
    expect(defaultType.json.results![0]!.importance).toBe(5);

    const byTags = await server.call('search_by_tags', { tags: 'pets, MORNING' });
    expect(byTags.json.results!.map((r) => r.id).sort()).toEqual([coffee, dog].sort());

    const recent = await server.call('get_recent_memories', { limit: 3 });
    expect(recent.json.results!.map((r) => r.id).sort()).toEqual([coffee, dog, chat].sort());
    const times = recent.json.results!.map((r) => Date.parse(r.timestamp as string));
    expect([...times].sort((a, b) => b - a)).toEqual(times); // newest first
    expect((await server.call('get_recent_memories', { limit: 2 })).json.count).toBe(2);

    const today = new Date().toISOString().slice(0, 10);
    const range = await server.call('search_by_date_range', { date_from: today });
    expect(range.json.count).toBeGreaterThanOrEqual(3);
    const past = await server.call('search_by_date_range', { date_from: '2001-01-01', date_to: '2001-12-31' });
    expect(past.json.count).toBe(0);
  });

  it('updates keep the previous version; delete removes for good', async () => {
    const id = await remember({
      title: 'Job',
      content: 'Alex works as a nurse, write to alex.doe@example.com',
      importance: 6,
      memory_type: 'fact',
    });
    const stored = await server.call('search_memories', { query: 'nurse', search_type: 'keyword' });
    expect(stored.json.results![0]!.content).toBe('Alex works as a nurse, write to alex.doe@example.com'); // not masked by default
    // Returned by a search: reinforced (access recorded), but a read is not a new version.
    expect(stored.json.results![0]!).toMatchObject({ version: 1, access_count: 1 });
    const upd = await server.call('update_memory', {
      memory_id: id,
      content: 'Alex works as a paramedic',
      importance: 9,
    });
    expect(upd.isError, upd.text).toBe(false);
    expect(upd.json.previous_versions).toBe(1);
    const mem = upd.json.memory as Record<string, unknown>;
    expect(mem.content).toBe('Alex works as a paramedic');
    expect(mem.title).toBe('Job');
    expect(mem.importance).toBe(9);
    expect(mem.version).toBe(2);
    const found = await server.call('search_memories', { query: 'paramedic', search_type: 'keyword' });
    expect(found.json.results!.map((r) => r.id)).toEqual([id]);
    const old = await server.call('search_memories', { query: 'nurse', search_type: 'keyword' });
    expect(old.json.results!.map((r) => r.id)).not.toContain(id);

    const del = await server.call('delete_memory', { memory_id: id });
    expect(del.isError, del.text).toBe(false);
    const again = await server.call('delete_memory', { memory_id: id });
    expect(again.isError).toBe(true);
    expect(again.text).toMatch(/No memory with id/);
    const gone = await server.call('search_memories', { query: 'paramedic', search_type: 'keyword' });
    expect(gone.json.results!.map((r) => r.id)).not.toContain(id);
  });

  it('update_memory changes the type alone; tags "" leaves tags alone and "," clears them; history shows each version', async () => {
    const id = await remember({
      title: 'Camping',
      content: 'Truck camping next weekend at the lake',
      tags: 'camping,truck',
    });
    const typed = await server.call('update_memory', { memory_id: id, memory_type: 'Event' });
    expect(typed.isError, typed.text).toBe(false);
    expect(typed.json.memory).toMatchObject({ memory_type: 'event', tags: ['camping', 'truck'], version: 2 });
    // Reads reinforce (they write the memory) but are not versions; the same tags reordered are no change.
    for (let i = 0; i < 3; i++) await server.call('search_by_tags', { tags: 'truck' });
    const reordered = await server.call('update_memory', { memory_id: id, tags: 'truck, camping' });
    expect(reordered.json).toMatchObject({ unchanged: true, previous_versions: 1 });
    expect(reordered.json.memory).toMatchObject({ version: 2, access_count: 3, tags: ['camping', 'truck'] });

    const blank = await server.call('update_memory', {
      memory_id: id,
      content: 'Truck camping at the lake on Saturday',
      tags: '',
    });
    expect(blank.json.memory).toMatchObject({
      content: 'Truck camping at the lake on Saturday',
      tags: ['camping', 'truck'],
    });
    const cleared = await server.call('update_memory', { memory_id: id, tags: ',' });
    expect((cleared.json.memory as Record<string, unknown>).tags).toEqual([]);

    const history = await server.call('get_memory_history', { memory_id: id });
    expect(history.isError, history.text).toBe(false);
    const versions = history.json.versions as Record<string, unknown>[];
    expect(versions.map((v) => [v.version, v.memory_type, v.content, v.tags, v.current])).toEqual([
      [1, 'conversation', 'Truck camping next weekend at the lake', ['camping', 'truck'], false],
      [2, 'event', 'Truck camping next weekend at the lake', ['camping', 'truck'], false],
      [3, 'event', 'Truck camping at the lake on Saturday', ['camping', 'truck'], false],
      [4, 'event', 'Truck camping at the lake on Saturday', [], true],
    ]);
    expect(versions.slice(0, 3).every((v) => typeof v.replaced_at === 'string')).toBe(true);
    expect((await server.call('search_by_type', { memory_type: 'event' })).json.results!.map((r) => r.id)).toEqual([
      id,
    ]);
    expect((await server.call('delete_memory', { memory_id: id })).isError).toBe(false);
  });

  it('rebuild_vectors re-embeds every memory; search by meaning still works afterwards', async () => {
    const r = await server.call('rebuild_vectors');
    expect(r.isError, r.text).toBe(false);
    expect(r.json).toMatchObject({ success: true, reindexed: true, count: 3, embedded: 3 });
    const sem = await server.call('search_memories', { query: 'border collie Pixel', search_type: 'vector', limit: 1 });
    expect(sem.json.results![0]!.title).toBe('Dog');
  });

  it('reports stats: counts by type, storage, model, data directory', async () => {
    const stats = await server.call('get_memory_stats');
    expect(stats.isError).toBe(false);
    const s = stats.json;
    expect(s.total_memories).toBe(3);
    expect(s.by_type).toEqual({ preference: 1, fact: 1, conversation: 1 });
    expect(s.data_directory).toBe(dataDir);
    expect((s.storage as Record<string, unknown>).kind).toBe('sqlite');
    expect((s.storage as Record<string, number>).bytes_on_disk).toBeGreaterThan(0);
    expect((s.model as Record<string, unknown>).id).toBe('hash-256');
  });

  it('rejects bad arguments with a clear tool error and changes nothing', async () => {
    const before = (await server.call('get_memory_stats')).json.total_memories;
    const ids = (await server.call('get_recent_memories')).json.results!.map((r) => r.id as string);
    // get_memory_history reads without reinforcing, so it shows whether anything was written.
    const snapshot = async () =>
      Promise.all(
        ids.map(async (id) =>
          JSON.stringify((await server.call('get_memory_history', { memory_id: id })).json.versions),
        ),
      );
    const recentBefore = await snapshot();
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['remember', { content: 'no title' }, /title is required/],
      ['remember', { title: '   ', content: 'blank title' }, /title/],
      ['remember', { title: 'x', content: 'y', importance: 42 }, /importance must be a number from 1 to 10/],
      ['remember', { title: 'x', content: 'y', importance: 0 }, /importance/],
      ['remember', { title: 'x', content: 'y', importance: 'high' }, /importance/],
      ['remember', { title: 'Dup', content: 'Alex has a border collie named Pixel' }, /Duplicate content/],
      ['search_memories', { query: '' }, /query/],
      ['search_memories', { query: 'x', search_type: 'telepathic' }, /search_type/],
      ['search_memories', { query: 'x', limit: 0 }, /limit/],
      ['search_by_type', {}, /memory_type is required/],
      ['search_by_tags', { tags: ' , ' }, /tags/],
      ['get_recent_memories', { limit: 2.5 }, /limit/],
      ['search_by_date_range', { date_from: 'yesterday' }, /date_from.*ISO date/],
      ['search_by_date_range', { date_from: '2025-13-45' }, /date_from/],
      ['search_by_date_range', { date_from: '2025-02-30' }, /date_from/],
      ['search_by_date_range', { date_from: '2025-03-01', date_to: '2025-01-01' }, /date_from/],
      ['update_memory', { memory_id: 'does-not-exist', title: 'x' }, /No memory with id "does-not-exist"/],
      ['update_memory', { memory_id: 'does-not-exist' }, /at least one of/],
      ['update_memory', { memory_id: 'does-not-exist', tags: '' }, /at least one of/],
      ['get_memory_history', { memory_id: 'does-not-exist' }, /No memory with id/],
      ['update_memory', { memory_id: ids[0], importance: 11 }, /importance/],
      ['delete_memory', { memory_id: 'does-not-exist' }, /No memory with id/],
      ['delete_memory', {}, /memory_id is required/],
      ['no_such_tool', {}, /no_such_tool/],
    ];
    for (const [tool, args, message] of cases) {
      const r = await server.call(tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args)} -> ${r.text}`).toBe(true);
      expect(r.text).toMatch(message);
    }
    expect((await server.call('get_memory_stats')).json.total_memories).toBe(before);
    expect(await snapshot()).toEqual(recentBefore);
  });

  it('serves 100 concurrent calls', async () => {
    const calls = Array.from({ length: 100 }, (_, i) =>
      i % 2 === 0
        ? server.call('remember', {
            title: `Note ${i}`,
            content: `Concurrent note number ${i} about topic${i}`,
            tags: 'load',
          })
        : server.call('search_memories', { query: `topic${i - 1}` }),
    );
    const results = await Promise.all(calls);
    for (const r of results) expect(r.isError, r.text).toBe(false);
    const ids = new Set(results.filter((_, i) => i % 2 === 0).map((r) => r.json.memory_id));
    expect(ids.size).toBe(50);
    const tagged = await server.call('search_by_tags', { tags: 'load', limit: 100 });
    expect(tagged.json.count).toBe(50);
    expect((await server.call('get_memory_stats')).json.total_memories).toBe(53);
  });

  it('finds everything again after a restart', async () => {
    const before = await server.call('get_recent_memories', { limit: 1000 });
    const stats = (await server.call('get_memory_stats')).json;
    await server.restart();
    const after = await server.call('get_recent_memories', { limit: 1000 });
    // (Importance moves with every listing: each one reinforces what it returns.)
    expect(after.json.results!.map((r) => [r.id, r.title, r.content, r.memory_type, r.tags])).toEqual(
      before.json.results!.map((r) => [r.id, r.title, r.content, r.memory_type, r.tags]),
    );
    const again = (await server.call('get_memory_stats')).json;
    expect(again.total_memories).toBe(stats.total_memories);
    expect(again.by_type).toEqual(stats.by_type);
    const search = await server.call('search_memories', { query: 'espresso oat milk' });
    expect(search.json.results![0]!.title).toBe('Coffee preference');
    const sem = await server.call('search_memories', {
      query: 'Concurrent note number 42',
      search_type: 'vector',
      limit: 3,
    });
    expect(sem.json.results!.map((r) => r.title)).toContain('Note 42');
  }, 60_000);
});
