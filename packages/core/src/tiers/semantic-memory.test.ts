import { beforeEach, describe, expect, it } from 'vitest';
import type { Embedder } from '../model/embedder.js';
import { createEntry, type NewEntry } from '../model/entry.js';
import { isZerdaError } from '../model/errors.js';
import { HashEmbedder } from '../retrieval/hash-embedder.js';
import { InMemoryStorage } from '../storage/in-memory-storage.js';
import { SemanticMemory, type RecallHit } from './semantic-memory.js';
import type { MemoryEntry } from '../model/types.js';
import { RecordingEmbedder } from '../testing/secret-canary.js';

const T = 'tenant-1';
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 0, 15);

const FACTS: [string, Partial<NewEntry>][] = [
  ['My golden retriever is called Max and he loves the beach', { kind: 'fact', tags: ['pets'] }],
  ['My sister Ana lives in Lisbon and works as an architect', { kind: 'fact', tags: ['family'] }],
  ['I train for the Berlin marathon and run every morning at six', { kind: 'event', tags: ['sport'] }],
  ['Favourite food is sushi, especially salmon nigiri; I dislike olives', { kind: 'preference', tags: ['food'] }],
  ['Booked flights to Tokyo for the cherry blossom season in April', { kind: 'event', tags: ['travel'] }],
  ['I am allergic to penicillin, found out during a hospital visit', { kind: 'fact', tags: ['health'] }],
  ['My laptop is a ThinkPad X1 running Debian with the Sway window manager', { kind: 'fact', tags: ['tech'] }],
  ['Our team standup moved to 9:30 on Tuesdays and Thursdays', { kind: 'task', tags: ['work'] }],
  ['The kids take piano lessons with Mrs. Okafor on Saturday mornings', { kind: 'event', tags: ['family'] }],
  ['I prefer dark roast coffee, black, no sugar', { kind: 'preference', tags: ['food'] }],
  ['The colour of our new living room sofa is teal velvet', { kind: 'fact', tags: ['home'] }],
  ['Remind me to renew the car insurance before March 3', { kind: 'task', tags: ['admin'] }],
];

function entry(text: string, extra: Partial<NewEntry> = {}, tenantId = T, createdAt = NOW): MemoryEntry {
  return createEntry(tenantId, { content: { title: '', text }, createdAt, ...extra } as NewEntry, NOW);
}

/** A HashEmbedder that records what it embedded (texts and calls). */
const countingEmbedder = (dim = 256) => new RecordingEmbedder(new HashEmbedder({ dim }));

let storage: InMemoryStorage;
let embedder: RecordingEmbedder;
let memory: SemanticMemory;
let stored: MemoryEntry[];

async function store(entries: MemoryEntry[], sm = memory): Promise<void> {
  await storage.putMany(entries);
  await sm.add(entries);
}
const ids = (hits: RecallHit[]) => hits.map((h) => h.entry.id);

beforeEach(async () => {
  storage = new InMemoryStorage();
  embedder = countingEmbedder();
  memory = new SemanticMemory({ storage, embedder });
  stored = FACTS.map(([text, extra], i) => entry(text, extra, T, NOW - (FACTS.length - i) * DAY));
  await store(stored);
});

describe('SemanticMemory.search', () => {
  it.each([
    ['what is my golden retriever called', 0],
    ['where does my sister live', 1],
    ['marathon training', 2],
    ['sushi', 3],
    ['Tokyo trip in April', 4],
    ['penicillin allergy', 5],
    ['which laptop do I use', 6],
    ['when is the standup', 7],
    ['piano lessons', 8],
    ['how do I take my coffee', 9],
    ['car insurance renewal', 11],
  ])('puts the relevant memory first: %s', async (query, expected) => {
    for (const mode of ['hybrid', 'lexical'] as const) {
      const hits = await memory.search(T, query, { mode });
      expect(hits[0]?.entry.id, mode).toBe(stored[expected]!.id);
    }
    const rrf = await memory.search(T, query, { fusion: 'rrf' });
    expect(rrf[0]?.entry.id, 'rrf').toBe(stored[expected]!.id);
  });

  it('returns scores in 0..1, best first, with the evidence behind each rank', async () => {
    const hits = await memory.search(T, 'coffee roast morning run', { ratio: 0 });
    expect(hits.length).toBeGreaterThan(1);
    for (let i = 0; i < hits.length; i++) {
      const h = hits[i]!;
      expect(h.score).toBeGreaterThan(0);
      expect(h.score).toBeLessThanOrEqual(1);
      if (i > 0) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(h.score);
      expect(h.lexicalRank !== undefined || h.vectorRank !== undefined).toBe(true);
      if (h.lexicalRank !== undefined) expect(h.lexicalScore).toBeGreaterThan(0);
      if (h.vectorRank !== undefined) expect(h.vectorScore).toBeGreaterThan(0);
    }
    for (const fusion of ['score', 'rrf'] as const) {
      const [best] = await memory.search(T, 'allergic to penicillin hospital visit', { fusion });
      expect(best!.entry.id).toBe(stored[5]!.id);
      expect([best!.lexicalRank, best!.vectorRank]).toEqual([1, 1]);
      expect(best!.score, fusion).toBeCloseTo(1, 10); // first in every list = 1
    }
  });

  it('modes use only their own signal; vector mode bridges spelling variants BM25 cannot', async () => {
    const lexical = await memory.search(T, 'sofa color', { mode: 'lexical' });
    expect(lexical.every((h) => h.vectorRank === undefined && h.lexicalRank !== undefined)).toBe(true);
    const vector = await memory.search(T, 'color', { mode: 'vector' });
    expect(vector.every((h) => h.lexicalRank === undefined && h.vectorRank !== undefined)).toBe(true);
    expect(vector[0]!.entry.id).toBe(stored[10]!.id); // "colour" shares character 3-grams with "color"
    expect(await memory.search(T, 'color', { mode: 'lexical' })).toEqual([]);
    expect((await memory.search(T, 'color', { mode: 'hybrid' }))[0]!.entry.id).toBe(stored[10]!.id);
  });

  it('applies filters before ranking (kinds, tags, tiers, dates) and never returns a filtered-out entry', async () => {
    const q = 'dog beach sister marathon sushi piano coffee';
    const byKind = await memory.search(T, q, { filter: { kinds: ['preference'] }, ratio: 0 });
    expect(byKind.length).toBeGreaterThan(0);
    expect(byKind.every((h) => h.entry.kind === 'preference')).toBe(true);

    // The unfiltered best hit is the dog; with a tag filter top-1 is the best *allowed* entry.
    const top = await memory.search(T, 'Max the golden retriever at the beach with my sister', { topK: 1 });
    expect(top[0]!.entry.id).toBe(stored[0]!.id);
    const family = await memory.search(T, 'Max the golden retriever at the beach with my sister', {
      topK: 1,
      filter: { tags: ['family'] },
    });
    expect(family.map((h) => h.entry.id)).toEqual([stored[1]!.id]);

    const from = NOW - 5 * DAY;
    const recent = await memory.search(T, q, { filter: { createdFrom: from }, ratio: 0, mode: 'vector' });
    expect(recent.length).toBeGreaterThan(0);
    expect(recent.every((h) => h.entry.createdAt >= from)).toBe(true);

    const shortTerm = entry('Max chewed my slippers this morning', { tier: 'short_term' });
    await store([shortTerm]);
    const lt = await memory.search(T, 'Max slippers', { filter: { tiers: ['long_term'] }, ratio: 0 });
    expect(ids(lt)).not.toContain(shortTerm.id);
    const st = await memory.search(T, 'Max slippers', { filter: { tiers: ['short_term'] } });
    expect(ids(st)).toEqual([shortTerm.id]);

    expect(await memory.search(T, q, { filter: { kinds: ['no-such-kind'] } })).toEqual([]);
  });

  it('cuts with an adaptive threshold that follows the top hit', async () => {
    const all = await memory.search(T, 'morning coffee run piano', { ratio: 0, topK: 12 });
    expect(all.length).toBeGreaterThan(2);
    const top = all[0]!.score;
    for (const ratio of [0.3, 0.6, 0.9]) {
      const kept = await memory.search(T, 'morning coffee run piano', { ratio, topK: 12 });
      expect(ids(kept)).toEqual(ids(all.filter((h) => h.score >= top * ratio)));
    }
    const floor = all[1]!.score;
    const withMin = await memory.search(T, 'morning coffee run piano', { ratio: 0, minScore: floor, topK: 12 });
    expect(ids(withMin)).toEqual(ids(all.filter((h) => h.score >= floor)));
  });

  it('falls back to the top hit alone when nothing passes minScore, and returns [] when nothing matches', async () => {
    const hits = await memory.search(T, 'sushi olives', { minScore: 1, ratio: 0 });
    expect(hits).toHaveLength(1);
    expect(hits[0]!.entry.id).toBe(stored[3]!.id);
    // Kept by the cut when it scores 1 (first in every list), else by the fallback.
    expect(hits[0]!.reason).toBe(hits[0]!.score >= 1 ? 'ranked' : 'fallback');
    const weak = await memory.search(T, 'sushi piano', { minScore: 1, ratio: 0 });
    expect(weak).toHaveLength(1);
    expect(weak[0]!.reason).toBe(weak[0]!.score >= 1 ? 'ranked' : 'fallback');
    expect(await memory.search(T, '   ')).toEqual([]);
    expect(await memory.search(T, 'zzqxv', { mode: 'lexical' })).toEqual([]);
  });

  it('gates by absolute relevance: an unrelated query recalls nothing; minScore 0 ranks and cuts nothing; each hit says why', async () => {
    const gated = new SemanticMemory({ storage, embedder, config: { minSimilarity: 0.35 } });
    const related = await gated.search(T, 'which city does my sister live in', { ratio: 0 });
    expect(related[0]!.entry.id).toBe(stored[1]!.id);
    expect(related.every((h) => h.reason === 'similarity' || h.reason === 'keywords')).toBe(true);
    for (const h of related) {
      expect(h.similarity).toBeTypeOf('number');
      // 'similarity': at least the related floor (0.6 × minSimilarity); 'keywords': below it.
      expect(h.similarity! >= 0.6 * 0.35).toBe(h.reason === 'similarity');
    }
    // An unrelated question: weak similarities everywhere, no shared words beyond noise.
    expect(await gated.search(T, 'what is the boiling point of nitrogen', { ratio: 0 })).toEqual([]);
    // The same question with minScore given: the gate is off, everything ranked is returned.
    const ranked = await gated.search(T, 'what is the boiling point of nitrogen', { ratio: 0, minScore: 0, topK: 12 });
    expect(ranked.length).toBeGreaterThan(0);
    expect(ranked.every((h) => h.reason === 'ranked')).toBe(true);
    // The per-search floor overrides the configured one.
    expect(
      (await gated.search(T, 'tell me about my sister', { ratio: 0, minSimilarity: 0.05 })).length,
    ).toBeGreaterThan(0);
    expect(await gated.search(T, 'tell me about my sister', { ratio: 0, minSimilarity: 1 })).toEqual([]);
    // The fallback only returns a hit that passed the gate.
    const strict = await gated.search(T, 'which city does my sister live in', { ratio: 1 });
    expect(strict).toHaveLength(1);
    expect(strict[0]!.reason === 'similarity' || strict[0]!.reason === 'keywords').toBe(true);
    expect(() => new SemanticMemory({ storage, embedder, config: { minSimilarity: 2 } })).toThrow(/minSimilarity/);
  });

  it('honours topK and keeps tenants apart', async () => {
    expect(await memory.search(T, 'the morning coffee sushi piano', { topK: 2, ratio: 0 })).toHaveLength(2);
    const other = entry('Max is the name of my cat', {}, 'tenant-2');
    await store([other]);
    const mine = await memory.search(T, 'Max cat', { ratio: 0 });
    expect(ids(mine)).not.toContain(other.id);
    expect(ids(await memory.search('tenant-2', 'Max', { ratio: 0 }))).toEqual([other.id]);
  });

  it('caches query embeddings in an LRU of embeddingCacheSize', async () => {
    const before = embedder.calls;
    await memory.search(T, 'piano lessons');
    await memory.search(T, 'piano lessons', { mode: 'vector' });
    expect(embedder.calls - before).toBe(1);
    const uncached = new SemanticMemory({ storage, embedder, config: { embeddingCacheSize: 0 } });
    const mid = embedder.calls;
    await uncached.search(T, 'piano lessons');
    await uncached.search(T, 'piano lessons');
    expect(embedder.calls - mid).toBe(2);
    const q1 = await memory.embedQuery('piano lessons');
    q1.fill(0); // a copy: mutating it must not poison the cache
    expect((await memory.embedQuery('piano lessons')).some((x) => x !== 0)).toBe(true);
  });

  it('shares one model call between asks for a query whose embedding is under way', async () => {
    const uncached = new SemanticMemory({ storage, embedder, config: { embeddingCacheSize: 0 } });
    // Loaded: a query is read against the people the tenant knows first (loading it when cold).
    await uncached.vectorCount(T);
    const before = embedder.calls;
    const early = uncached.embedQuery('cherry blossom in Tokyo');
    const hits = await uncached.search(T, 'cherry blossom in Tokyo', { mode: 'vector' });
    expect(embedder.calls - before).toBe(1);
    expect(ids(hits)[0]).toBe(stored[4]!.id);
    expect(await early).toEqual(await uncached.embedQuery('cherry blossom in Tokyo'));
    expect(embedder.calls - before).toBe(2); // once settled, nothing is kept without a cache
  });

  it('once the model is known, calls the embedder in the calling task (a worker starts before the search ranks)', async () => {
    const uncached = new SemanticMemory({ storage, embedder, config: { embeddingCacheSize: 0 } });
    const first = embedder.calls;
    const loading = uncached.embedQuery('warm-up');
    expect(embedder.calls - first).toBe(0); // the first ask waits for ready() to learn the model
    await loading;
    const before = embedder.calls;
    const pending = uncached.embedQuery('cherry blossom in Tokyo');
    expect(embedder.calls - before).toBe(1);
    expect((await pending).some((x) => x !== 0)).toBe(true);
  });

  it('rejects bad arguments with VALIDATION', async () => {
    const bad: (() => Promise<unknown>)[] = [
      () => memory.search('', 'x'),
      () => memory.search(T, 42 as unknown as string),
      () => memory.search(T, 'x', { topK: 0 }),
      () => memory.search(T, 'x', { mode: 'fuzzy' as 'hybrid' }),
      () => memory.search(T, 'x', { ratio: 2 }),
      () => memory.search(T, 'x', { weights: { lexical: -1 } }),
      () => memory.search(T, 'x', { weights: { lexical: 0, vector: 0 } }),
      () => memory.search(T, 'x', { fusion: 'max' as 'rrf' }),
      () => memory.search(T, 'x', { filter: { tenantId: 'other' } as never }),
    ];
    for (const f of bad) await expect(f()).rejects.toSatisfy((e) => isZerdaError(e, 'VALIDATION'));
  });
});

describe('SemanticMemory vectors', () => {
  it('hydrates a tenant index lazily from stored vectors', async () => {
    const fresh = countingEmbedder();
    const second = new SemanticMemory({ storage, embedder: fresh });
    expect(await second.vectorCount(T)).toBe(FACTS.length);
    const hits = await second.search(T, 'penicillin', { mode: 'vector' });
    expect(hits[0]!.entry.id).toBe(stored[5]!.id);
    expect(fresh.texts).toHaveLength(1); // only the query was embedded, not the entries
  });

  it('upserts re-embed changed content, and removed entries are never returned', async () => {
    await memory.vectorCount(T); // load the index so add/remove must keep it in sync
    const changed = {
      ...stored[0]!,
      content: { title: '', text: 'My parrot Kiwi whistles the Star Wars theme' },
      version: 2,
    };
    await store([changed]);
    expect(ids(await memory.search(T, 'golden retriever', { mode: 'vector', ratio: 0 }))).not.toContain(changed.id);
    expect((await memory.search(T, 'parrot whistles', { mode: 'vector' }))[0]!.entry.id).toBe(changed.id);
    expect(await memory.vectorCount(T)).toBe(FACTS.length);

    await storage.delete(T, stored[3]!.id);
    await memory.remove(T, [stored[3]!.id]);
    expect(ids(await memory.search(T, 'sushi nigiri', { ratio: 0 }))).not.toContain(stored[3]!.id);
    expect(await memory.vectorCount(T)).toBe(FACTS.length - 1);

    // Deleted in storage only: reindex prunes the stale row...
    await storage.delete(T, stored[9]!.id);
    expect(await memory.reindex(T)).toEqual({ total: FACTS.length - 2, embedded: 0, removed: 1 });
    expect(await memory.vectorCount(T)).toBe(FACTS.length - 2);
    // ...and a search skips it and drops it from the index.
    await storage.delete(T, stored[8]!.id);
    expect(ids(await memory.search(T, 'piano lessons Okafor', { ratio: 0 }))).not.toContain(stored[8]!.id);
    expect(await memory.vectorCount(T)).toBe(FACTS.length - 3);
  });

  it('reindex embeds entries missing a vector for the current model, with progress', async () => {
    const late = [entry('The boiler service is booked for next Monday'), entry('Grandma turns ninety in June')];
    await storage.putMany(late); // stored without vectors
    expect(await memory.search(T, 'boiler service', { mode: 'vector' }).then(ids)).not.toContain(late[0]!.id);
    const progress: [number, number][] = [];
    const report = await memory.reindex(T, { batchSize: 1, onProgress: (d, t) => progress.push([d, t]) });
    expect(report).toEqual({ total: FACTS.length + 2, embedded: 2, removed: 0 });
    expect(progress).toEqual([
      [0, 2],
      [1, 2],
      [2, 2],
    ]);
    expect((await memory.search(T, 'boiler service', { mode: 'vector' }))[0]!.entry.id).toBe(late[0]!.id);
    expect((await memory.reindex(T)).embedded).toBe(0);
    expect((await memory.reindex(T, { force: true })).embedded).toBe(FACTS.length + 2);

    const ac = new AbortController();
    ac.abort();
    await expect(memory.reindex(T, { signal: ac.signal })).rejects.toSatisfy((e) => isZerdaError(e, 'ABORTED'));
  });

  it('never compares vectors of another model id or dimension', async () => {
    const other = new SemanticMemory({ storage, embedder: countingEmbedder(64) });
    expect(await other.vectorCount(T)).toBe(0); // hash-256 vectors are not loaded for hash-64
    expect(await other.search(T, 'penicillin', { mode: 'vector' })).toEqual([]);
    expect((await other.search(T, 'penicillin'))[0]!.entry.id).toBe(stored[5]!.id); // lexical still works
    expect((await other.reindex(T)).embedded).toBe(FACTS.length);
    expect((await other.search(T, 'penicillin', { mode: 'vector' }))[0]!.entry.id).toBe(stored[5]!.id);
    expect((await storage.vectorModels(T)).map((m) => m.id)).toEqual(['hash-256', 'hash-64']);

    // A block whose dimension disagrees with the embedder (same id) is ignored, not compared.
    class SkewedStorage extends InMemoryStorage {
      override async loadVectors(tenantId: string, modelId: string) {
        const block = await super.loadVectors(tenantId, modelId);
        return (
          block && {
            ...block,
            model: { ...block.model, dim: block.model.dim / 2 },
            ids: [...block.ids, ...block.ids].map((id, i) => `${id}-${i}`),
          }
        );
      }
    }
    const skewed = new SkewedStorage();
    const sm = new SemanticMemory({ storage: skewed, embedder });
    await skewed.put(stored[0]!);
    await sm.add([stored[0]!]);
    sm.unload();
    expect(await sm.vectorCount(T)).toBe(0);
  });

  it('add is awaitable and propagates failures', async () => {
    const failing: Embedder = {
      modelId: 'broken',
      dim: 8,
      ready: async () => {},
      embed: async () => {
        throw new Error('model crashed');
      },
      close: async () => {},
    };
    const sm = new SemanticMemory({ storage, embedder: failing });
    await expect(sm.add([stored[0]!])).rejects.toSatisfy((e) => isZerdaError(e, 'EMBEDDING'));
    const wrongDim: Embedder = { ...failing, embed: async (t: string[]) => t.map(() => new Float32Array(3)) };
    await expect(new SemanticMemory({ storage, embedder: wrongDim }).add([stored[0]!])).rejects.toSatisfy((e) =>
      isZerdaError(e, 'EMBEDDING'),
    );
    await storage.close();
    await expect(memory.add([entry('after close')])).rejects.toSatisfy((e) => isZerdaError(e, 'CLOSED'));
    await expect(memory.add([{ id: '', tenantId: T } as MemoryEntry])).rejects.toSatisfy((e) =>
      isZerdaError(e, 'VALIDATION'),
    );
  });
});
