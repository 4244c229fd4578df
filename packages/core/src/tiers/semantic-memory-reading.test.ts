import { describe, expect, it } from 'vitest';
import { readQuery } from '../language/query-reading.js';
import type { Embedder } from '../model/embedder.js';
import { createEntry } from '../model/entry.js';
import type { MemoryEntry } from '../model/types.js';
import { HashEmbedder } from '../retrieval/hash-embedder.js';
import type { RecallStage } from '../retrieval/hybrid-recall.js';
import { InMemoryStorage } from '../storage/in-memory-storage.js';
import { SemanticMemory } from './semantic-memory.js';

// Recall over one reading of the query: relation words, name variants, safety facts, stages.
const T = 't';
const NOW = Date.UTC(2026, 0, 15);
/** The relevance gate on, with floors derived for the hashing embedder (it has no calibrated ones). */
const GATED = { minSimilarity: 0.5 } as const;

const TURNS = [
  'My sister Ana lives in Lisbon.',
  'Muhammad: I just started a new job at the bakery downtown.',
  'Mark: I love sailing on the lake every summer.',
  'I am allergic to peanuts.',
  'We watched a documentary about volcanoes last night.',
  'The printer in the hallway is out of toner again.',
  'Katrina: my exam went really well, I passed with honours.',
  'The bus to the airport leaves every twenty minutes.',
  'I repainted the fence on Sunday, it took all day.',
  'Our neighbour plays the trumpet at seven in the morning.',
];

async function make(
  texts = TURNS,
): Promise<{ memory: SemanticMemory; entries: MemoryEntry[]; storage: InMemoryStorage }> {
  const storage = new InMemoryStorage();
  const memory = new SemanticMemory({ storage, embedder: new HashEmbedder({ dim: 256 }), clock: () => NOW });
  const entries = texts.map((text) => createEntry(T, { content: { title: '', text } }, NOW));
  await storage.putMany(entries);
  await memory.add(entries);
  return { memory, entries, storage };
}
const text = (e: MemoryEntry) => (e.content as { text: string }).text;

describe('SemanticMemory.search reads the query once', () => {
  it('a class word finds the member the memory names: sibling → sister', async () => {
    const { memory } = await make();
    const lexical = await memory.search(T, 'Where does my sibling live?', { mode: 'lexical', ratio: 0, minScore: 0 });
    expect(text(lexical[0]!.entry)).toBe('My sister Ana lives in Lisbon.');
    const gated = await memory.search(T, 'Where does my sibling live?', GATED);
    expect(gated.map((h) => text(h.entry))).toContain('My sister Ana lives in Lisbon.');
  });

  it('a class word of a whole-person question finds what its members are: books → reading, places → visited', async () => {
    const { memory } = await make([
      'Priya: I like my coffee strong and black.',
      'Priya: I finished reading a detective novel by the lake last night.',
      'Tomas: I like the new bakery.',
      'Priya: We visited Porto and Seville on our trip in spring.',
    ]);
    const plain = { mode: 'lexical', ratio: 0, minScore: 0 } as const;
    const books = await memory.search(T, 'What books does Priya like?', plain);
    expect(text(books[0]!.entry)).toMatch(/detective novel/);
    const places = await memory.search(T, 'Which places has Priya been to?', plain);
    expect(text(places[0]!.entry)).toMatch(/Porto and Seville/);
  });

  it('a question about pastimes, a relationship, unwinding or martial arts finds what answers it in other words', async () => {
    const { memory } = await make([
      'Priya: I like my coffee strong and black.',
      'Priya: I went climbing again with the gym crew on Saturday.',
      'Priya: My husband and I are celebrating ten years this month.',
      'Priya: Honestly yoga is what calms me down after a long week.',
      'Priya: I started taekwondo classes at the community centre.',
      'Tomas: The printer is out of toner again.',
    ]);
    const plain = { mode: 'lexical', ratio: 0, minScore: 0 } as const;
    for (const [q, answer] of [
      ['What are Priya hobbies?', /climbing|yoga|taekwondo/],
      ['What does Priya do for fun?', /climbing|yoga/],
      ['Is Priya married?', /husband/],
      ["What is Priya's relationship status?", /husband/],
      ['What does Priya do to relax?', /yoga/],
      ['What martial arts has Priya done?', /taekwondo/],
    ] as const) {
      const hits = await memory.search(T, q, plain);
      expect.soft(text(hits[0]!.entry), q).toMatch(answer);
    }
  });

  it("a verb's irregular past finds what the question asks with the verb, and the other way round", async () => {
    const { memory } = await make([
      'Jolene: I bought it a year ago in Paris.',
      'Jolene: The bakery is great.',
      'Evan: We met at a ski resort in Canada.',
      'Evan: The resort was packed.',
    ]);
    const plain = { mode: 'lexical', ratio: 0, minScore: 0 } as const;
    expect(text((await memory.search(T, 'Where did Jolene buy it?', plain))[0]!.entry)).toMatch(/bought/);
    expect(text((await memory.search(T, 'Where did Evan meet?', plain))[0]!.entry)).toMatch(/met at/);
    const { memory: other } = await make(['Jolene: I like to buy fresh bread on Sundays.', 'Jolene: It was sunny.']);
    expect(text((await other.search(T, 'What has Jolene bought?', plain))[0]!.entry)).toMatch(/buy/);
  });

  it('a name spelled differently finds the memories of the name the store knows', async () => {
    const { memory } = await make();
    // Without the variant, the first question ranks Mark's summer first and the second finds nothing.
    for (const q of ['What did Mohammed do this summer?', 'How did Katarina do?']) {
      const hits = await memory.search(T, q, { mode: 'lexical', ratio: 0, minScore: 0 });
      expect(text(hits[0]!.entry), q).toMatch(/^(Muhammad|Katrina):/);
    }
    // A different name is not merged: nothing of Mark's answers a question about Mary.
    const mary = await memory.search(T, 'Does Mary like sailing?', { mode: 'lexical', ratio: 0, minScore: 0 });
    const marks = await memory.search(T, 'Does Mark like sailing?', { mode: 'lexical', ratio: 0, minScore: 0 });
    expect(marks[0]!.lexicalScore!).toBeGreaterThan(mary[0]!.lexicalScore!);
  });

  it('a first-person food or health question gets the safety facts, a general one does not', async () => {
    const { memory } = await make();
    const snack = await memory.search(T, 'What snack should I buy for the road trip?', GATED);
    expect(snack.filter((h) => h.reason === 'safety').map((h) => text(h.entry))).toEqual(['I am allergic to peanuts.']);
    for (const q of ['What is the main ingredient of guacamole?', 'Which organ produces insulin?'])
      expect(
        (await memory.search(T, q, GATED)).filter((h) => h.reason === 'safety'),
        q,
      ).toEqual([]);
    // An explicit floor asks for a ranking: nothing is added to it.
    const ranked = await memory.search(T, 'What snack should I buy for the road trip?', { minScore: 0, ratio: 0 });
    expect(ranked.some((h) => h.reason === 'safety')).toBe(false);
  });

  it('a question about someone favours what they said and what was formed about them over turns that name them', async () => {
    const { memory, entries, storage } = await make([
      'Caroline: Cool, Melanie! Rest in the park.',
      'Melanie: After work I like to rest with a long walk in the park.',
      'Caroline: I rest by reading fantasy novels.',
    ]);
    const formed = createEntry(
      T,
      {
        content: { title: '', text: 'Melanie goes running in the park to rest.' },
        kind: 'preference',
        metadata: { about: 'Melanie' },
      },
      NOW,
    );
    const q = 'How does Melanie rest in the park?';
    const plain = { mode: 'lexical', ratio: 0, minScore: 0 } as const;
    // Without the subject boost the friend's shorter turn ranks first: the same words, and it names her.
    const before = await memory.search(T, q, { ...plain, subjectBoost: 0 });
    expect(before[0]!.entry.id).toBe(entries[0]!.id);
    const after = await memory.search(T, q, plain);
    expect(after[0]!.entry.id).toBe(entries[1]!.id);
    await storage.put(formed);
    await memory.add([formed]);
    const ids = (await memory.search(T, q, plain)).map((h) => h.entry.id);
    expect(ids).toContain(formed.id);
    expect(ids.indexOf(formed.id)).toBeLessThan(ids.indexOf(entries[0]!.id));
    await expect(memory.search(T, q, { subjectBoost: -1 })).rejects.toMatchObject({ code: 'VALIDATION' });
  });

  it('a question typed in lower case still names whom the store knows: its speakers and whom memories are about', async () => {
    const { memory, entries, storage } = await make([
      'Tomasz: Cool, Priya! Rest in the park.',
      'Priya: After work I like to rest with a long walk in the park.',
      'User: I rest by reading fantasy novels at the Park Hotel.',
    ]);
    const formed = [
      { text: 'Ines paints birds on weekends.', about: 'Ines' },
      { text: 'The user walks to work.', about: 'dana' },
    ].map(({ text, about }) =>
      createEntry(T, { content: { title: '', text }, kind: 'fact', metadata: { about }, userId: 'dana' }, NOW),
    );
    await storage.putMany(formed);
    await memory.add(formed);
    // Speakers and whom a formed memory is about; not the user (a `User:` label, their id) nor
    // another capitalised word ("Park").
    expect([...(await memory.people(T))].sort()).toEqual(['ines', 'priya', 'tomasz']);
    const plain = { mode: 'lexical', ratio: 0, minScore: 0 } as const;
    const q = 'how does priya rest in the park';
    expect((await memory.search(T, q, { ...plain, subjectBoost: 0 }))[0]!.entry.id).toBe(entries[0]!.id);
    expect((await memory.search(T, q, plain))[0]!.entry.id).toBe(entries[1]!.id);
  });

  it('the time boost counts a formed event by the date it happened, not only the day it was said', async () => {
    const { memory, entries, storage } = await make(['I went on a trip with friends.']);
    const june = createEntry(
      T,
      {
        content: { title: '', text: 'I went on a long road trip through the mountains with friends.' },
        kind: 'event',
        metadata: { about: 'u', at: Date.UTC(2025, 5, 20) },
      },
      NOW,
    );
    await storage.put(june);
    await memory.add([june]);
    const q = 'Where did I go on a trip in June 2025?';
    const plain = { mode: 'lexical', ratio: 0, minScore: 0, now: NOW } as const;
    expect((await memory.search(T, q, { ...plain, timeBoost: 0 }))[0]!.entry.id).toBe(entries[0]!.id);
    expect((await memory.search(T, q, plain))[0]!.entry.id).toBe(june.id);
  });

  it('takes a reading in place of the text, and reports each stage once, in order', async () => {
    const { memory } = await make();
    const seen: string[] = [];
    const onStage = (s: RecallStage, phase: 'start' | 'end') => seen.push(`${s}:${phase}`);
    const reading = readQuery('Where does my sister live?', NOW);
    const hits = await memory.search(T, reading, { ...GATED, onStage });
    expect(text(hits[0]!.entry)).toBe('My sister Ana lives in Lisbon.');
    const ended = seen.filter((s) => s.endsWith(':end')).map((s) => s.split(':')[0]);
    // Lexical ranking runs while the query is embedded: those two in either order.
    expect([...ended.slice(0, 2)].sort()).toEqual(['embed', 'lexical']);
    expect(ended.slice(2)).toEqual(['vector', 'fuse', 'boost', 'gate', 'cut']);
    await expect(memory.search(T, 'x', { onStage: 42 as never })).rejects.toMatchObject({ code: 'VALIDATION' });
  });
});

describe('SemanticMemory.search fuses every candidate on both signals', () => {
  /** Two-dimensional vectors set per text, so each memory's cosine to the query is known. */
  const VECTORS: Record<string, [number, number]> = {
    'kettle repair': [1, 0],
    'kettle kettle kettle': [0.6, 0.8], // the best word match, cosine 0.6
    'the kettle broke down': [0.99, 0.141], // cosine 0.99
    'my teapot cracked': [0.95, 0.312], // no word of the query, cosine 0.95
  };
  const table: Embedder = {
    modelId: 'table',
    dim: 2,
    ready: async () => undefined,
    embed: async (texts) => texts.map((t) => Float32Array.from(VECTORS[t] ?? [0, 1])),
    close: async () => undefined,
  };

  it('a lexical candidate the vector list did not reach is fused with its own cosine, not with none', async () => {
    const storage = new InMemoryStorage();
    const memory = new SemanticMemory({ storage, embedder: table, clock: () => NOW });
    const entries = Object.keys(VECTORS)
      .slice(1)
      .map((text) => createEntry(T, { content: { title: '', text } }, NOW));
    await storage.putMany(entries);
    await memory.add(entries);
    // Two candidates per list: the vector list holds the broken kettle and the teapot only.
    const plain = { topK: 2, candidates: 2, ratio: 0, minScore: 0, fusionExponent: 1 } as const;
    const without = await memory.search(T, 'kettle repair', { ...plain, completeScores: false });
    expect(without.map((h) => text(h.entry))).toEqual(['the kettle broke down', 'kettle kettle kettle']);
    expect(without[1]!.vectorScore).toBeUndefined();
    const hits = await memory.search(T, 'kettle repair', plain);
    expect(hits.map((h) => text(h.entry))).toEqual(['kettle kettle kettle', 'the kettle broke down']);
    expect(hits[0]!.vectorScore).toBeCloseTo(0.6, 5);
    expect(hits[0]!.score).toBeCloseTo((1 + (0.7 * 0.6) / 0.99) / 1.7, 5);
    await expect(memory.search(T, 'kettle', { completeScores: 'yes' as never })).rejects.toMatchObject({
      code: 'VALIDATION',
    });
    await expect(memory.search(T, 'kettle', { fusionExponent: 0 })).rejects.toMatchObject({ code: 'VALIDATION' });
  });
});

describe('SemanticMemory.warm', () => {
  it('loads the index and runs the embedder once before the first search', async () => {
    const storage = new InMemoryStorage();
    const calls: string[][] = [];
    const hash = new HashEmbedder({ dim: 64 });
    const embedder: Embedder = {
      modelId: hash.modelId,
      dim: hash.dim,
      ready: () => hash.ready(),
      close: () => hash.close(),
      embed: (texts: string[]) => {
        calls.push(texts);
        return hash.embed(texts);
      },
    };
    const entries = TURNS.map((t) => createEntry(T, { content: { title: '', text: t } }, NOW));
    await storage.putMany(entries);
    await new SemanticMemory({ storage, embedder }).add(entries);
    const memory = new SemanticMemory({ storage, embedder });
    calls.length = 0;
    await memory.warm(T);
    expect(calls).toEqual([['warm-up']]);
    expect(await memory.vectorCount(T)).toBe(TURNS.length);
    await expect(memory.warm('')).rejects.toMatchObject({ code: 'VALIDATION' });
  });
});

describe('readQuery', () => {
  it('reads terms, names, time ranges, slot cues and the safety cue in one pass', () => {
    const r = readQuery("What did Katarina's sister eat last week? I'm vegan.", NOW);
    expect(r.keywords).toEqual(['katarina', 'sister', 'eat', 'last', 'week', 'vegan']);
    expect(r.names).toEqual(['katarina']);
    // A month or weekday is a time span, not a name to favour memories by.
    expect(readQuery('What did Dave open in May 2023, after Sunday?', NOW).names).toEqual(['dave']);
    expect(r.timeRanges).toHaveLength(1);
    expect(r.safety).toBe(true);
    expect(readQuery('What is my job?', NOW).slots.asked.length).toBe(1);
    expect([...readQuery('Where does my sibling live?', NOW).slots.relations]).toEqual(
      expect.arrayContaining(['sibl', 'sister', 'brother']),
    );
    expect(readQuery('What is the main ingredient of guacamole?', NOW).safety).toBe(false);
    expect(readQuery('What is the capital of Peru?', NOW).personal).toBe(false);
    expect(readQuery('When is our trip?', NOW).personal).toBe(true);
    expect(readQuery('Does he have any food intolerance?', NOW).personal).toBe(true);
    expect(() => readQuery(42 as never, NOW)).toThrow(expect.objectContaining({ code: 'VALIDATION' }));
  });
});
