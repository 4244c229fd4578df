import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../model/clock.js';
import { resolveConfig } from '../model/config.js';
import type { MemoryConfig } from '../model/config.js';
import { InMemoryStorage } from '../storage/in-memory-storage.js';
import { LongTermMemory } from './long-term-memory.js';
import type { MemoryEntry } from '../model/types.js';
import { codeOf as rejectsWith } from '../testing/rejections.js';
import { recordingStorage } from '../testing/recording-storage.js';

function setup(config: Partial<MemoryConfig> = {}, tenantId = 't1') {
  const clock = { now: 0 };
  const { storage, writes } = recordingStorage(new InMemoryStorage());
  const ltm = new LongTermMemory({ storage, tenantId, config: resolveConfig(config), clock: () => clock.now });
  return { ltm, storage, writes, clock };
}

const fact = (text: string, extra: Record<string, unknown> = {}) => ({ content: { title: 'f', text }, ...extra });

describe('LongTermMemory', () => {
  it('stores new entries with random ids: same content twice gives two entries', async () => {
    const { ltm } = setup();
    const a = await ltm.store(fact('same'));
    const b = await ltm.store(fact('same'));
    expect(a.id).not.toBe(b.id);
    expect(await ltm.count()).toBe(2);
    expect(a.tier).toBe('long_term');
  });

  it('get(id) performs no write and changes nothing', async () => {
    const { ltm, writes, storage, clock } = setup();
    const e = await ltm.store(fact('quiet read'));
    const before = writes.length;
    clock.now = 10 * DAY_MS;
    const got = await ltm.get(e.id);
    await ltm.get(e.id);
    expect(got).toEqual(e);
    expect(writes.length).toBe(before);
    expect(await storage.get('t1', e.id)).toEqual(e);
  });

  it('other reads perform no writes either', async () => {
    const { ltm, writes } = setup();
    await ltm.storeMany([fact('alpha beta', { tags: ['x'] }), fact('gamma', { kind: 'event' })]);
    const before = writes.length;
    await ltm.topByImportance(5);
    await ltm.recent(5);
    await ltm.byKind('event');
    await ltm.byTags(['x']);
    await ltm.byDateRange(0, 10);
    await ltm.searchText('alpha');
    await ltm.stats();
    await ltm.count();
    expect(writes.length).toBe(before);
  });

  describe('one upsert semantics', () => {
    it('store replaces the whole entry, content included', async () => {
      const { ltm } = setup();
      const e = await ltm.store(fact('first', { tags: ['a'], metadata: { x: 1 } }));
      const replaced: MemoryEntry = {
        ...e,
        content: { title: 'g', text: 'second' },
        tags: ['b'],
        metadata: {},
        version: 2,
      };
      await ltm.store(replaced);
      expect(await ltm.get(e.id)).toEqual(replaced);
      expect(await ltm.count()).toBe(1);
    });

    it('storeMany replaces the whole entry the same way', async () => {
      const { ltm } = setup();
      const [e] = await ltm.storeMany([fact('first', { tags: ['a'], metadata: { x: 1 } })]);
      const replaced: MemoryEntry = {
        ...e!,
        content: { input: 'q', output: 'second' },
        kind: 'conversation',
        tags: [],
        metadata: { y: 2 },
        version: 2,
      };
      await ltm.storeMany([replaced]);
      expect(await ltm.get(e!.id)).toEqual(replaced);
    });

    it('a NewEntry naming an existing id replaces it too', async () => {
      const { ltm } = setup();
      const e = await ltm.store(fact('first', { tags: ['a'] }));
      await ltm.store({ id: e.id, content: { title: 'new', text: 'content' } });
      const got = await ltm.get(e.id);
      expect(got?.content).toEqual({ title: 'new', text: 'content' });
      expect(got?.tags).toEqual([]);
    });

    it('storeMany is all-or-nothing: one invalid entry writes nothing', async () => {
      const { ltm, writes } = setup();
      const existing = await ltm.store(fact('keep me'));
      const before = writes.length;
      const code = await rejectsWith(
        ltm.storeMany([
          fact('new one'),
          { ...existing, content: { title: 'x', text: 'changed' } },
          fact('bad', { importance: 7 }),
        ]),
      );
      expect(code).toBe('VALIDATION');
      expect(writes.length).toBe(before);
      expect(await ltm.count()).toBe(1);
      expect(await ltm.get(existing.id)).toEqual(existing);
    });

    it('rejects entries of another tenant', async () => {
      const { ltm } = setup();
      const other = setup({}, 't2').ltm;
      const e = await other.store(fact('x'));
      expect(await rejectsWith(ltm.store(e))).toBe('VALIDATION');
    });
  });

  it('identity is (tenantId, id): two tenants hold the same id without touching each other', async () => {
    const storage = new InMemoryStorage();
    const config = resolveConfig();
    const a = new LongTermMemory({ storage, tenantId: 'a', config, clock: () => 0 });
    const b = new LongTermMemory({ storage, tenantId: 'b', config, clock: () => 0 });
    await a.store({ id: 'same', content: { title: 'A', text: 'alpha' } });
    await b.store({ id: 'same', content: { title: 'B', text: 'beta' } });
    expect((await a.get('same'))?.content).toEqual({ title: 'A', text: 'alpha' });
    expect((await b.get('same'))?.content).toEqual({ title: 'B', text: 'beta' });
    await a.delete('same');
    expect(await a.get('same')).toBeUndefined();
    expect((await b.get('same'))?.content).toEqual({ title: 'B', text: 'beta' });
    await a.store({ content: { title: 'A2', text: 'x' } });
    await a.clear();
    expect(await b.count()).toBe(1);
  });

  describe('decay-aware operations', () => {
    it('never compounds: reading decayed importance twice writes nothing and changes nothing', async () => {
      const { ltm, clock, writes } = setup();
      await ltm.storeMany(
        [0.3, 0.4, 0.6, 0.9].map((importance, i) => fact(`e${i}`, { importance, kind: 'conversation' })),
      );
      clock.now = 60 * DAY_MS; // 0.3 -> 0.075, 0.4 -> 0.1, 0.6 -> 0.15, 0.9 -> 0.225
      const snapshot = await ltm.query({ orderBy: 'importance' });
      const top1 = await ltm.topByImportance(10);
      const before = writes.length;
      expect(await ltm.query({ orderBy: 'importance' })).toEqual(snapshot);
      expect(await ltm.topByImportance(10)).toEqual(top1);
      expect(writes.length).toBe(before);
      expect(snapshot.map((e) => e.importance)).toEqual([0.9, 0.6, 0.4, 0.3]);
    });

    it('topByImportance ranks by effective importance', async () => {
      const { ltm, clock } = setup();
      const chat = await ltm.store(fact('chat', { kind: 'conversation', importance: 0.9 }));
      const f = await ltm.store(fact('fact', { kind: 'fact', importance: 0.6 }));
      expect((await ltm.topByImportance(2)).map((e) => e.id)).toEqual([chat.id, f.id]);
      clock.now = 60 * DAY_MS; // chat 0.225, fact ~0.53
      expect((await ltm.topByImportance(2)).map((e) => e.id)).toEqual([f.id, chat.id]);
      const ranked = await ltm.rankByImportance(2);
      expect(ranked.map((r) => r.entry.id)).toEqual([f.id, chat.id]);
      expect(ranked[1]!.effectiveImportance).toBeCloseTo(0.225, 10);
      expect((await ltm.topByImportance(5, 0.3)).map((e) => e.id)).toEqual([f.id]);
      expect(await ltm.topByImportance(0)).toEqual([]);
    });

    it('enableDecay: false is honoured by ranking', async () => {
      const { ltm, clock } = setup({ enableDecay: false });
      const chat = await ltm.store(fact('chat', { kind: 'conversation', importance: 0.9 }));
      const f = await ltm.store(fact('fact', { kind: 'fact', importance: 0.6 }));
      clock.now = 1000 * DAY_MS;
      const ranked = await ltm.rankByImportance(2);
      expect(ranked.map((r) => [r.entry.id, r.effectiveImportance])).toEqual([
        [chat.id, 0.9],
        [f.id, 0.6],
      ]);
    });
  });

  describe('queries', () => {
    it('recent, byKind, byTags, byDateRange, searchText, query', async () => {
      const { ltm, clock } = setup();
      clock.now = 1000;
      const a = await ltm.store(fact('espresso coffee beans', { kind: 'preference', tags: ['food', 'morning'] }));
      clock.now = 2000;
      const b = await ltm.store(fact('green tea', { kind: 'preference', tags: ['food'] }));
      clock.now = 3000;
      const c = await ltm.store(fact('meeting with Bob about coffee', { kind: 'event', tags: ['work'] }));
      expect((await ltm.recent(2)).map((e) => e.id)).toEqual([c.id, b.id]);
      expect((await ltm.byKind('preference')).map((e) => e.id)).toEqual([b.id, a.id]);
      expect((await ltm.byTags(['food', 'morning'], { mode: 'all' })).map((e) => e.id)).toEqual([a.id]);
      expect((await ltm.byTags(['morning', 'work'])).map((e) => e.id)).toEqual([c.id, a.id]);
      expect((await ltm.byDateRange(1500, 3000)).map((e) => e.id)).toEqual([c.id, b.id]);
      expect((await ltm.searchText('coffee', 5)).map((e) => e.id).sort()).toEqual([a.id, c.id].sort());
      expect((await ltm.query({ orderBy: 'createdAt', order: 'asc', limit: 1 })).map((e) => e.id)).toEqual([a.id]);
    });

    it('ignores entries of other tiers in the same tenant', async () => {
      const { ltm, storage } = setup();
      const stored = await ltm.store(fact('long'));
      await storage.put({ ...stored, id: 'short', tier: 'short_term' });
      expect(await ltm.count()).toBe(1);
      expect(await ltm.get('short')).toBeUndefined();
      expect(await ltm.delete('short')).toBe(false);
      expect(await storage.get('t1', 'short')).toBeDefined();
    });

    it('stats summarise the tier', async () => {
      const { ltm } = setup();
      expect(await ltm.stats()).toEqual({
        count: 0,
        byKind: {},
        protected: 0,
        averageImportance: 0,
        averageEffectiveImportance: 0,
        oldestAt: undefined,
        newestAt: undefined,
      });
      await ltm.storeMany([fact('a', { importance: 0.2 }), fact('b', { importance: 0.6, kind: 'event' })]);
      const st = await ltm.stats();
      expect(st.count).toBe(2);
      expect(st.byKind).toEqual({ fact: 1, event: 1 });
      expect(st.averageImportance).toBeCloseTo(0.4, 10);
    });

    it.each([
      ['recent(-1)', (l: LongTermMemory) => l.recent(-1)],
      ['topByImportance(1.5)', (l: LongTermMemory) => l.topByImportance(1.5)],
      ['byTags([])', (l: LongTermMemory) => l.byTags([])],
      ['byDateRange(to < from)', (l: LongTermMemory) => l.byDateRange(10, 5)],
      ['store(bad)', (l: LongTermMemory) => l.store({ content: { nope: 1 } as never })],
    ])('rejects %s with VALIDATION', async (_n, call) => {
      expect(await rejectsWith(call(setup().ltm))).toBe('VALIDATION');
    });
  });
});

describe('LongTermMemory.topByImportance over many entries', () => {
  it('matches a brute-force ranking by effective importance (early-stopping scan is exact)', async () => {
    let now = Date.UTC(2026, 0, 1);
    const storage = new InMemoryStorage();
    const ltm = new LongTermMemory({ storage, tenantId: 't', config: resolveConfig({}), clock: () => now });
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const kinds = ['conversation', 'fact', 'ephemeral', 'task'];
    for (let i = 0; i < 300; i++) {
      now = Date.UTC(2026, 0, 1) + Math.floor(rnd() * 200) * DAY_MS;
      await ltm.store({
        content: { title: `n${i}`, text: `note ${i}` },
        importance: Math.round(rnd() * 20) / 20,
        kind: kinds[i % 4]!,
        tags: i % 17 === 0 ? ['pinned'] : [],
      });
    }
    // Many high-base ephemeral entries that have decayed to nothing: the true top entries sit
    // several pages down when scanning by base importance.
    now = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 200; i++)
      await ltm.store({
        content: { title: `e${i}`, text: 'gone' },
        importance: 0.95 + (i % 5) / 100,
        kind: 'ephemeral',
      });
    now = Date.UTC(2026, 9, 1);
    const all = await storage.query({ tenantId: 't' });
    for (const [limit, min] of [
      [5, 0],
      [40, 0],
      [100, 0.1],
      [300, 0],
    ] as const) {
      const expected = all
        .map((e) => ({ id: e.id, eff: ltm.effectiveImportance(e) }))
        .filter((r) => r.eff >= min)
        .sort((a, b) => b.eff - a.eff || (a.id < b.id ? -1 : 1))
        .slice(0, limit)
        .map((r) => r.id);
      expect((await ltm.topByImportance(limit, min)).map((e) => e.id)).toEqual(expected);
    }
  });
});
