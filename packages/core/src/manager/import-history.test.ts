import { describe, expect, it, vi } from 'vitest';
import { DAY_MS } from '../model/clock.js';
import { HashEmbedder } from '../retrieval/hash-embedder.js';
import { InMemoryStorage } from '../storage/in-memory-storage.js';
import { expectZerdaError as rejectsWith } from '../testing/rejections.js';
import { MemoryManager } from './memory-manager.js';
import type { HistoryTurn, ImportProgress } from './types.js';

const NOW = Date.UTC(2026, 5, 1);
const T0 = Date.UTC(2025, 0, 10);

async function make() {
  const storage = new InMemoryStorage();
  const mgr = await MemoryManager.create({
    storage,
    embedder: new HashEmbedder({ dim: 64 }),
    clock: () => NOW,
    owner: 'me',
  });
  return { mgr, storage };
}

const HISTORY: HistoryTurn[] = [
  { input: 'My sister Ana moved to Lisbon last week', output: 'How exciting!', at: T0 },
  { input: 'hi', output: 'hello', at: T0 + DAY_MS },
  { input: 'I started learning the cello yesterday', output: 'Great choice.', at: T0 + 30 * DAY_MS },
  { input: 'My email is ana.smith@example.com', output: 'Noted.', at: T0 + 31 * DAY_MS },
];

describe('MemoryManager.importHistory', () => {
  it('stores the turns in order with their own dates, forms and embeds their memories, and reports progress', async () => {
    const { mgr, storage } = await make();
    const seen: ImportProgress[] = [];
    const report = await mgr.importHistory('me', 't', HISTORY, { onProgress: (p) => seen.push(p) });
    const stored = await storage.query({ tenantId: 't', orderBy: 'createdAt', order: 'asc' });
    expect(stored.length).toBeGreaterThan(0);
    // Every stored memory dates from its turn, none from the import's own clock.
    expect(stored.every((e) => e.createdAt >= T0 && e.createdAt <= T0 + 31 * DAY_MS)).toBe(true);
    const cello = stored.filter((e) => JSON.stringify(e.content).includes('cello'));
    expect(cello.length).toBeGreaterThan(0);
    expect(cello.every((e) => e.createdAt === T0 + 30 * DAY_MS)).toBe(true);
    expect(report.turns).toBe(4);
    expect(report.longTerm).toBe(stored.filter((e) => e.kind === 'conversation').length);
    expect(report.memories).toBeGreaterThan(0);
    expect(report.pii).toBe(1);
    expect(JSON.stringify(stored)).not.toContain('ana.smith@example.com');
    // All that was kept is indexed: a vector per stored memory, and the count reported.
    expect((await mgr.stats('t')).indexedVectors).toBe(stored.length);
    expect(report.embedded).toBe(stored.length);
    expect(
      (await mgr.recall('me', 't', 'cello', { reinforce: false, mode: 'vector' }))[0]?.entry.content,
    ).toBeDefined();
    // Progress: starts at 0, counts every turn, ends with everything queued embedded.
    expect(seen[0]).toEqual({ saved: 0, total: 4, embedded: 0, queued: 0 });
    expect(new Set(seen.map((p) => p.saved))).toEqual(new Set([0, 1, 2, 3, 4]));
    expect(seen.at(-1)).toEqual({ saved: 4, total: 4, embedded: report.embedded, queued: report.embedded });
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.saved).toBeGreaterThanOrEqual(seen[i - 1]!.saved);
  });

  it("loads the tenant's index before the first turn, so the imported turns join it and the first question after loads nothing", async () => {
    const { mgr, storage } = await make();
    await mgr.saveInteraction('me', 't', 'I keep bees on my roof', 'Lovely.');
    const loads = vi.spyOn(storage, 'loadVectors');
    await mgr.importHistory('me', 't', HISTORY, {});
    expect(loads).toHaveBeenCalledTimes(1);
    const hits = await mgr.recall('me', 't', 'cello', { reinforce: false, mode: 'vector' });
    expect(JSON.stringify(hits[0]?.entry.content)).toContain('cello');
    expect((await mgr.recall('me', 't', 'bees', { reinforce: false, mode: 'vector' }))[0]).toBeDefined();
    expect(loads).toHaveBeenCalledTimes(1);
  });

  it('checks every turn before storing the first: a bad one rejects with VALIDATION naming it, and nothing is stored', async () => {
    const { mgr, storage } = await make();
    const bad = [HISTORY[0]!, { input: 'fine', output: 'ok', at: -5 }];
    const err = await rejectsWith(mgr.importHistory('me', 't', bad), 'VALIDATION');
    expect(err.message).toContain('turns[1]');
    await rejectsWith(
      mgr.importHistory('me', 't', [{ input: 'x', output: 'y', colour: 'red' } as HistoryTurn]),
      'VALIDATION',
    );
    await rejectsWith(mgr.importHistory('me', 't', 'not turns' as unknown as HistoryTurn[]), 'VALIDATION');
    expect(await storage.count({ tenantId: 't' })).toBe(0);
    await rejectsWith(mgr.importHistory('stranger', 't', HISTORY), 'ACCESS_DENIED');
  });

  it('checks the turns in slices: the event loop gets a turn before the first is stored, and a late bad turn still stores nothing', async () => {
    // A clock that advances 5 ms per reading: checking passes the 20 ms slice every few turns.
    let now = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => (now += 5));
    try {
      const { mgr, storage } = await make();
      const events: string[] = [];
      for (const write of ['put', 'putMany'] as const) {
        const original = storage[write].bind(storage) as (...a: unknown[]) => Promise<void>;
        vi.spyOn(storage, write).mockImplementation((...args: unknown[]) => {
          if (!events.includes('store')) events.push('store');
          return original(...args);
        });
      }
      const many = Array.from({ length: 40 }, (_, i) => ({ ...HISTORY[i % 2]!, at: T0 + i * DAY_MS }));
      // A macrotask queued before the import: it runs at the import's first yield (the shared
      // `yieldToEventLoop` is `setImmediate` in Node, queued after this one), never after the import.
      setImmediate(() => events.push('timer'));
      await rejectsWith(mgr.importHistory('me', 't', [...many, { input: 'x', output: 'y', at: -1 }]), 'VALIDATION');
      expect(await storage.count({ tenantId: 't' })).toBe(0);
      setImmediate(() => events.push('timer'));
      await mgr.importHistory('me', 't', many);
      expect(events.slice(0, 2)).toEqual(['timer', 'timer']);
      expect(events).toContain('store');
    } finally {
      clock.mockRestore();
    }
  });

  it('stops before the next turn when aborted; what it stored stays stored and indexed', async () => {
    const { mgr, storage } = await make();
    const controller = new AbortController();
    await rejectsWith(
      mgr.importHistory('me', 't', HISTORY, {
        signal: controller.signal,
        onProgress: (p) => {
          if (p.saved === 1) controller.abort();
        },
      }),
      'ABORTED',
    );
    await mgr.flush();
    const stored = await storage.query({ tenantId: 't' });
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.every((e) => e.createdAt === T0)).toBe(true);
    expect((await mgr.stats('t')).indexedVectors).toBe(stored.length);
  });

  it('saveInteraction takes `at` too, and rejects a bad one', async () => {
    const { mgr } = await make();
    const saved = await mgr.saveInteraction('me', 't', 'My sister Ana moved to Lisbon', 'Nice', { at: T0 });
    expect(saved.entry.createdAt).toBe(T0);
    expect(saved.memories.every((m) => m.createdAt === T0)).toBe(true);
    await rejectsWith(mgr.saveInteraction('me', 't', 'x', 'y', { at: Number.NaN }), 'VALIDATION');
  });
  it("reads each turn after the turn before it: a reply's fragment keeps the other speaker's remark", async () => {
    const { mgr } = await make();
    await mgr.importHistory('me', 't', [
      { input: 'Ana: I started yoga last month.', output: '', at: T0 },
      { input: 'Ben: I tried it last year and it helped me a lot.', output: '', at: T0 + DAY_MS },
    ]);
    const formed = await mgr.listMemories('me', 't', { kinds: ['fact', 'preference', 'event', 'task'] });
    const texts = formed.map((m) => ('text' in m.content ? m.content.text : ''));
    expect(texts).toContain(
      `Replying to Ana's "I started yoga last month.": I tried it last year and it helped me a lot.`,
    );
  });
  it('reads each turn after the speaker\'s own turn before: a "they" says what the speaker named there', async () => {
    const { mgr } = await make();
    await mgr.importHistory('me', 't', [
      { input: 'Ana: Last Friday I took my dogs to the park.', output: '', at: T0 },
      { input: 'Ben: Wow, looks like fun!', output: '', at: T0 },
      { input: 'Ana: They have tons of energy and love meeting new pals at playdates.', output: '', at: T0 },
    ]);
    const formed = await mgr.listMemories('me', 't', { kinds: ['fact', 'preference', 'event', 'task'] });
    expect(formed.map((m) => ('text' in m.content ? m.content.text : ''))).toContain(
      'About my dogs: They have tons of energy and love meeting new pals at playdates.',
    );
  });
});
