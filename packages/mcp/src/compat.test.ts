import { describe, expect, it } from 'vitest';
import { useServer } from './test-harness.js';

// A client written for the original Python server (`long_term_memory_mcp`), unchanged, against
// Zerda's, in the default result format: its documented example conversations, its result shapes
// `{ success, reason?, data: [...] }`, its ids, and its error results.
// ZERDA_RESULT_FORMAT unset: the default, the original's shape.
const server = useServer({ ZERDA_RESULT_FORMAT: '' });

type Data = Record<string, unknown>[];
interface Original {
  isError: boolean;
  success: boolean;
  reason?: string;
  data: Data;
}

/** Call a tool and read its text the way a script written for the original does. */
async function call(name: string, args: Record<string, unknown> = {}): Promise<Original> {
  const r = await server.call(name, args);
  const body = JSON.parse(r.text) as Omit<Original, 'isError'>;
  return { isError: r.isError, ...body };
}

const MEM_ID = /^mem_[0-9a-f]{8}_[0-9a-f]{16}$/;

describe('a client written for the original server', () => {
  it('finds the eleven tools with the original parameters (and get_memory_history)', async () => {
    const { tools } = await server.client.listTools();
    const params = Object.fromEntries(tools.map((t) => [t.name, Object.keys(t.inputSchema.properties ?? {}).sort()]));
    expect(params).toEqual({
      remember: ['content', 'importance', 'memory_type', 'tags', 'title'],
      search_memories: ['limit', 'query', 'search_type'],
      search_by_type: ['limit', 'memory_type'],
      search_by_tags: ['limit', 'tags'],
      get_recent_memories: ['limit'],
      update_memory: ['content', 'importance', 'memory_id', 'memory_type', 'tags', 'title'],
      delete_memory: ['memory_id'],
      get_memory_stats: [],
      create_backup: [],
      search_by_date_range: ['date_from', 'date_to', 'limit'],
      rebuild_vectors: [],
      get_memory_history: ['memory_id'],
    });
  });

  it('the documented conversation: remember → recall → update → recall shows the new content', async () => {
    // "My birthday is July 4th."
    const stored = await call('remember', {
      title: 'Birthday',
      content: 'My birthday is July 4th',
      tags: 'personal, dates',
      importance: 8,
      memory_type: 'fact',
    });
    expect(stored).toMatchObject({ isError: false, success: true });
    expect(stored.reason).toBeUndefined();
    const [memory] = stored.data;
    expect(memory).toMatchObject({
      title: 'Birthday',
      content: 'My birthday is July 4th',
      tags: ['personal', 'dates'],
      importance: 8,
      memory_type: 'fact',
    });
    expect(memory!.id).toMatch(MEM_ID);
    expect(Date.parse(memory!.timestamp as string)).not.toBeNaN();
    expect(memory!.metadata).toEqual({});
    const id = memory!.id as string;

    // "When is my birthday?"
    const recalled = await call('search_memories', { query: 'birthday July' });
    expect(recalled.success).toBe(true);
    expect(recalled.data[0]).toMatchObject({ id, content: 'My birthday is July 4th', match_type: 'semantic' });
    expect(recalled.data[0]!.relevance_score as number).toBeGreaterThan(0);

    // "Actually it's on the 5th."
    const updated = await call('update_memory', { memory_id: id, content: 'My birthday is July 5th' });
    expect(updated).toMatchObject({ success: true, data: [{ id, updated: true }] });

    const again = await call('search_memories', { query: 'birthday July' });
    expect(again.data[0]).toMatchObject({ id, content: 'My birthday is July 5th' });

    // "Change that to type 'preference' and tag it 'personal'." (the original's update example)
    const retyped = await call('update_memory', { memory_id: id, memory_type: 'preference', tags: 'personal' });
    expect(retyped.data[0]).toMatchObject({
      id,
      updated: true,
      memory_type: 'preference',
      tags: ['personal'],
      content: 'My birthday is July 5th',
    });
    expect((await call('search_by_type', { memory_type: 'preference' })).data.map((m) => m.id)).toEqual([id]);
    // An empty tags string, as the original's clients send for "no change", keeps them.
    const titled = await call('update_memory', { memory_id: id, title: 'My birthday', tags: '' });
    expect(titled.data[0]).toMatchObject({ title: 'My birthday', tags: ['personal'] });

    // The versions update_memory replaced.
    const history = await call('get_memory_history', { memory_id: id });
    expect(history.data.map((v) => v.content)).toEqual([
      'My birthday is July 4th',
      'My birthday is July 5th',
      'My birthday is July 5th',
      'My birthday is July 5th',
    ]);
  });

  it('reads every listing as data: [...] of memories (match_type "structured")', async () => {
    await call('remember', {
      title: 'Tea',
      content: 'I prefer tea over coffee',
      tags: 'personal, preference',
      memory_type: 'preference',
    });
    await call('remember', {
      title: 'Camping',
      content: 'Truck camping next weekend',
      tags: 'camping, truck',
      memory_type: 'event',
    });
    const today = new Date().toISOString().slice(0, 10);
    for (const [tool, args] of [
      ['search_by_type', { memory_type: 'event' }],
      ['search_by_tags', { tags: 'camping, truck' }],
      ['get_recent_memories', { limit: 2 }],
      ['search_by_date_range', { date_from: today }],
    ] as const) {
      const r = await call(tool, args);
      expect(r.success, tool).toBe(true);
      expect(r.data.length, tool).toBeGreaterThan(0);
      for (const m of r.data) {
        expect(Object.keys(m), tool).toEqual(
          expect.arrayContaining([
            'id',
            'title',
            'content',
            'timestamp',
            'tags',
            'importance',
            'memory_type',
            'metadata',
          ]),
        );
        expect(m.match_type).toBe('structured');
      }
    }
    expect((await call('get_recent_memories', { limit: 2 })).data).toHaveLength(2);
  });

  it('reads statistics, backups, deletes and the vector rebuild in the original fields', async () => {
    const stats = await call('get_memory_stats');
    expect(stats.success).toBe(true);
    const s = stats.data[0]!;
    expect(s).toMatchObject({ total_memories: 3, memory_types: 2, type_breakdown: { preference: 2, event: 1 } });
    expect(typeof s.avg_importance).toBe('number');
    expect(Date.parse(s.oldest_memory as string)).toBeLessThanOrEqual(Date.parse(s.newest_memory as string));
    for (const f of ['storage_size_mb', 'sqlite_size_mb', 'chroma_size_mb']) expect(typeof s[f], f).toBe('number');
    expect(s.storage_size_mb as number).toBeGreaterThan(0);

    const backup = await call('create_backup');
    expect(backup.data[0]).toMatchObject({ memories_backed_up: 3 });
    expect(backup.data[0]!.backup_name).toMatch(/^backup_/);
    expect(typeof backup.data[0]!.backup_path).toBe('string');

    const rebuilt = await call('rebuild_vectors');
    expect(rebuilt).toMatchObject({ success: true, data: [{ reindexed: true, count: 3 }] });

    const tea = (await call('search_by_type', { memory_type: 'preference' })).data.find((m) => m.title === 'Tea')!;
    const deleted = await call('delete_memory', { memory_id: tea.id as string });
    expect(deleted).toMatchObject({ success: true, data: [{ id: tea.id, title: 'Tea', deleted: true }] });
  });

  it('gets failures as { success: false, reason } (and isError), with nothing changed', async () => {
    const missing = await call('update_memory', { memory_id: 'mem_00000000_0000000000000000', title: 'x' });
    expect(missing).toMatchObject({ isError: true, success: false });
    expect(missing.reason).toMatch(/^Memory not found/);
    expect((await call('delete_memory', { memory_id: 'mem_00000000_0000000000000000' })).reason).toMatch(
      /^Memory not found/,
    );
    const dup = await call('remember', { title: 'Again', content: 'Truck camping next weekend' });
    expect(dup).toMatchObject({ isError: true, success: false });
    expect(dup.reason).toMatch(/^Duplicate content detected/);
    expect((await call('get_memory_stats')).data[0]!.total_memories).toBe(2);
  });
});
