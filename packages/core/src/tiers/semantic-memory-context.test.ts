import { beforeEach, describe, expect, it } from 'vitest';
import { createEntry, type NewEntry } from '../model/entry.js';
import { isZerdaError } from '../model/errors.js';
import { HashEmbedder } from '../retrieval/hash-embedder.js';
import { InMemoryStorage } from '../storage/in-memory-storage.js';
import { DEFAULT_TIME_BOOST, indexedText, SemanticMemory, type RecallHit } from './semantic-memory.js';
import type { LexicalQuery } from '../storage/storage.js';
import type { MemoryEntry } from '../model/types.js';
import { RecordingEmbedder } from '../testing/secret-canary.js';

const T = 'tenant-ctx';
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 0, 15, 12);

class SpyStorage extends InMemoryStorage {
  readonly queries: string[] = [];
  override lexicalSearch(query: LexicalQuery) {
    this.queries.push(query.query);
    return super.lexicalSearch(query);
  }
}

function entry(text: string, extra: Partial<NewEntry> = {}, createdAt = NOW - DAY): MemoryEntry {
  return createEntry(
    T,
    { content: { input: text, output: '' }, kind: 'conversation', createdAt, ...extra } as NewEntry,
    NOW,
  );
}

const ids = (hits: RecallHit[]) => hits.map((h) => h.entry.id);

let storage: SpyStorage;
let embedder: RecordingEmbedder;
let memory: SemanticMemory;

async function store(entries: MemoryEntry[], sm = memory): Promise<void> {
  await storage.putMany(entries);
  await sm.add(entries);
}

beforeEach(() => {
  storage = new SpyStorage();
  embedder = new RecordingEmbedder(new HashEmbedder({ dim: 128 }));
  memory = new SemanticMemory({ storage, embedder, clock: () => NOW });
});

describe('SemanticMemory: how much of a long memory is embedded (limits.embedChars)', () => {
  it('embeds the first sentences up to embedChars (then the context), and the whole text stays searchable by keyword', async () => {
    const sentence = (i: number) => `Sentence number ${i} talks about the garden.`;
    const text = Array.from({ length: 400 }, (_, i) => sentence(i)).join(' ');
    const sm = new SemanticMemory({ storage, embedder, clock: () => NOW, config: { limits: { embedChars: 1_000 } } });
    const e = entry(`${text} The zebra-striped umbrella is in the attic.`, {
      metadata: { context: 'Asked about the garden' },
    });
    await store([e], sm);
    const [embedded] = embedder.texts;
    expect(embedded!.length).toBeLessThanOrEqual(1_000 + '\nAsked about the garden'.length);
    expect(embedded!.endsWith('garden.\nAsked about the garden')).toBe(true);
    expect(embedded).not.toContain('zebra');
    const hits = await storage.lexicalSearch({ tenantId: T, query: 'zebra umbrella', limit: 5 });
    expect(hits.map((h) => h.id)).toEqual([e.id]);
  });

  it('embeds a text up to embedChars whole, and rejects a limit below 1', () => {
    expect(indexedText(entry('Short text.'), 1_000)).toBe('Short text.');
    let err: unknown;
    try {
      new SemanticMemory({ storage, embedder, config: { limits: { embedChars: 0 } } });
    } catch (e) {
      err = e;
    }
    expect(isZerdaError(err) && err.code === 'VALIDATION' && err.message.includes('embedChars')).toBe(true);
  });
});

describe('SemanticMemory: memory context (metadata.context)', () => {
  const reply = () =>
    entry('Caroline: Yes! It was so much fun, the kids loved it.', {
      metadata: { context: 'Melanie: How was the pottery workshop with your kids?' },
    });
  const other = () => entry('Melanie: I bought new running shoes for the marathon.');

  it('embeds the context after the entry text', async () => {
    const e = reply();
    await store([e, other()]);
    expect(indexedText(e)).toBe(
      'Caroline: Yes! It was so much fun, the kids loved it.\nMelanie: How was the pottery workshop with your kids?',
    );
    expect(embedder.texts[0]).toBe(indexedText(e));
    expect(indexedText(other())).toBe('Melanie: I bought new running shoes for the marathon.');
    expect(indexedText(entry('x', { metadata: { context: '   ' } }))).toBe('x');
    expect(indexedText(entry('x', { metadata: { context: 42 } }))).toBe('x');
  });

  it('finds a memory by words only its context holds, weighted below its own text', async () => {
    const e = reply();
    const own = entry('Caroline: The pottery workshop was cancelled.');
    await store([e, other(), own]);
    const hits = await memory.search(T, 'pottery workshop', { mode: 'lexical', ratio: 0 });
    expect(ids(hits)).toEqual([own.id, e.id]);
    expect(hits[1]!.lexicalScore).toBeLessThan(hits[0]!.lexicalScore!);
    const without = await memory.search(T, 'pottery workshop', { mode: 'lexical', ratio: 0, contextWeight: 0 });
    expect(ids(without)).toEqual([own.id]);
  });

  it('rebuilds the context index from storage, follows updates and removals', async () => {
    const e = reply();
    await store([e, other()]);
    const fresh = new SemanticMemory({ storage, embedder, clock: () => NOW });
    expect(ids(await fresh.search(T, 'pottery', { mode: 'lexical' }))).toEqual([e.id]);

    await fresh.vectorCount(T); // loaded: later changes must reach the loaded index
    const updated: MemoryEntry = { ...e, metadata: {}, version: 2 };
    await store([updated], fresh);
    expect(await fresh.search(T, 'pottery', { mode: 'lexical' })).toEqual([]);

    await store([e], fresh);
    expect(ids(await fresh.search(T, 'pottery', { mode: 'lexical' }))).toEqual([e.id]);
    await storage.delete(T, e.id);
    await fresh.remove(T, [e.id]);
    expect(await fresh.search(T, 'pottery', { mode: 'lexical' })).toEqual([]);
  });

  it('finds a memory by words only its earlier context holds (metadata.earlierContext), which is never embedded', async () => {
    const e = entry('Jolene: I bought it a year ago in Paris.', {
      metadata: {
        context: 'Deborah: Where did you get it?',
        earlierContext: 'Jolene: My second snake Seraphim did it.',
      },
    });
    await store([e, other()]);
    expect(indexedText(e)).toBe('Jolene: I bought it a year ago in Paris.\nDeborah: Where did you get it?');
    expect(embedder.texts[0]).toBe(indexedText(e));
    // Ranked only: the relevance gate reads the memory's own words and vector, which hold none of it.
    const ranked = { mode: 'lexical', ratio: 0, minScore: 0 } as const;
    expect(ids(await memory.search(T, 'seraphim', ranked))).toEqual([e.id]);
    const fresh = new SemanticMemory({ storage, embedder, clock: () => NOW });
    expect(ids(await fresh.search(T, 'seraphim', ranked))).toEqual([e.id]);
  });

  it('reindex embeds the context too', async () => {
    const e = reply();
    await storage.putMany([e]);
    await memory.reindex(T);
    expect(embedder.texts).toEqual([indexedText(e)]);
    expect(ids(await memory.search(T, 'pottery', { mode: 'lexical' }))).toEqual([e.id]);
  });
});

describe('SemanticMemory: time expressions in queries', () => {
  const text = 'We went hiking up the mountain with the dog';

  it('boosts memories created in the span the query names, keeping scores in 0..1', async () => {
    const june = entry(text, {}, Date.UTC(2025, 5, 14));
    const march = entry(text, {}, Date.UTC(2025, 2, 3));
    await store([june, march]);
    const plain = await memory.search(T, 'hiking with the dog', { ratio: 0 });
    expect(plain[0]!.score).toBeCloseTo(plain[1]!.score, 10);

    for (const q of ['When did we go hiking in June?', 'hiking on 14 June 2025', 'hiking in June 2025']) {
      const hits = await memory.search(T, q, { ratio: 0 });
      expect(ids(hits), q).toEqual([june.id, march.id]);
      expect(hits[0]!.score).toBeLessThanOrEqual(1);
      expect(hits[1]!.score).toBeCloseTo(hits[0]!.score / (1 + DEFAULT_TIME_BOOST), 10);
    }
    const march1 = await memory.search(T, 'hiking in March', { ratio: 0 });
    expect(ids(march1)).toEqual([march.id, june.id]);
    const off = await memory.search(T, 'hiking in June', { ratio: 0, timeBoost: 0 });
    expect(off[0]!.score).toBeCloseTo(off[1]!.score, 10);
  });

  it('resolves relative expressions with the clock, or with `now`', async () => {
    const recent = entry(text, {}, NOW - DAY);
    const old = entry(text, {}, NOW - 40 * DAY);
    await store([recent, old]);
    expect(ids(await memory.search(T, 'hiking yesterday', { ratio: 0 }))[0]).toBe(recent.id);
    expect(ids(await memory.search(T, 'hiking yesterday', { ratio: 0, now: old.createdAt + DAY }))[0]).toBe(old.id);
    // A span that holds no candidate changes nothing.
    const none = await memory.search(T, 'hiking in 2019', { ratio: 0 });
    expect(none[0]!.score).toBeCloseTo(none[1]!.score, 10);
  });
});

describe('SemanticMemory: query text for the storage', () => {
  it('sends only meaningful words to the adapter, or the raw query when nothing is left', async () => {
    await store([entry('I practise the piano every evening')]);
    await memory.search(T, 'What did I say about the piano?', { mode: 'lexical' });
    expect(storage.queries.at(-1)).toBe('say piano');
    await memory.search(T, 'what about it?', { mode: 'lexical' });
    expect(storage.queries.at(-1)).toBe('what about it?');
  });

  it('rejects bad options and a bad clock', async () => {
    for (const bad of [
      { contextWeight: -1 },
      { contextWeight: Number.NaN },
      { timeBoost: -0.1 },
      { now: Number.POSITIVE_INFINITY },
    ]) {
      await expect(memory.search(T, 'x', bad)).rejects.toSatisfy((e: unknown) => isZerdaError(e, 'VALIDATION'));
    }
    expect(() => new SemanticMemory({ storage, embedder, clock: 5 as unknown as () => number })).toThrow(
      expect.objectContaining({ code: 'VALIDATION' }),
    );
  });
});
