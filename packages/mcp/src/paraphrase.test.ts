import { existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, startServer, tempDir, writeLegacyFolder, type Harness } from './test-harness.js';

// A user switching from the original server, through the official SDK client, with the bundled
// model and the default (original) result shape: natural questions about a small personal store
// find their memory first, nearest first by relevance_score; the guarded top-1 fallback fires when
// nothing passes; an unrelated question gets nothing. The original's rule decides, not core's
// app-facing relevance gate (which drops several of these).
const model = join(REPO_ROOT, 'packages/embeddings/model/use-lite/onnx/model_quantized.onnx');
const available = existsSync(model) && statSync(model).size > 1_000_000;

const MEMORIES: [title: string, content: string, type: string][] = [
  ['Family', 'Donny, my husband, has his birthday on 12 May', 'fact'],
  ['Home town', 'I grew up on a farm outside Ghent', 'fact'],
  ['Lactose', 'Donny is lactose intolerant and avoids milk and cream', 'fact'],
  ['Sister', 'My sister Ana moved to Edinburgh last year', 'fact'],
  ['Work', 'I work as a nurse at the city hospital, mostly night shifts', 'fact'],
  ['Pet', 'Our dog is a border collie named Pixel', 'fact'],
  ['Car', 'I drive a blue 2015 Volvo estate', 'fact'],
  ['Coffee', 'I take my coffee black, without sugar', 'preference'],
  ['Guitar', 'I have been learning the guitar since January', 'preference'],
  ['Dentist', 'Dentist appointment on Friday at 3pm', 'task'],
  ['Holiday', 'We are going camping in Norway in August', 'event'],
  ['Thesis', "James' thesis is about coral reefs in the Red Sea", 'fact'],
];

/** Paraphrases: few or no words in common with the memory they ask about. */
const QUESTIONS: [question: string, title: string][] = [
  ['When is Donny born?', 'Family'],
  ['How old is Donny?', 'Family'],
  ['Does he have any food intolerance?', 'Lactose'],
  ['Is Donny allergic to dairy?', 'Lactose'],
  ['Where did I grow up?', 'Home town'],
  ['Where does my sibling live?', 'Sister'],
  ['What do I do for a living?', 'Work'],
  ['What breed is our pet?', 'Pet'],
  ['What kind of car do I have?', 'Car'],
  ['How do I like my coffee?', 'Coffee'],
  ['Which instrument am I learning?', 'Guitar'],
  ['When do I have to see the dentist?', 'Dentist'],
  ['Where are we travelling this summer?', 'Holiday'],
  ["What is James's research about?", 'Thesis'],
  ['What does James study?', 'Thesis'],
];

type Hit = Record<string, unknown> & { title: string; relevance_score: number; match_type: string };

async function search(s: Harness, query: string, search_type?: string): Promise<Hit[]> {
  const r = await s.call('search_memories', { query, ...(search_type ? { search_type } : {}) });
  expect(r.isError, r.text).toBe(false);
  return (r.json as { data: Hit[] }).data;
}

function expectNearestFirst(hits: Hit[]): void {
  const scores = hits.map((h) => h.relevance_score);
  expect(scores).toEqual([...scores].sort((a, b) => b - a));
}

describe.skipIf(!available)('paraphrased questions through the SDK client (bundled model, original shape)', () => {
  let dir = '';
  let server: Harness;

  beforeAll(async () => {
    dir = tempDir();
    server = await startServer({ ZERDA_DATA_DIR: dir, ZERDA_EMBEDDER: 'model', ZERDA_RESULT_FORMAT: '' });
    for (const [title, content, memory_type] of MEMORIES) {
      const r = await server.call('remember', { title, content, memory_type });
      expect(r.isError, r.text).toBe(false);
    }
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('each of 15 questions returns its memory first, nearest first', async () => {
    const misses: string[] = [];
    for (const [question, title] of QUESTIONS) {
      const hits = await search(server, question);
      if (hits[0]?.title !== title) misses.push(`${question} → ${hits.map((h) => h.title).join(', ') || 'nothing'}`);
      expectNearestFirst(hits);
      for (const h of hits) expect(h.match_type, question).toBe('semantic');
    }
    expect(misses).toEqual([]);
  }, 60_000);

  it('the same by meaning alone (search_type "vector")', async () => {
    for (const [question, title] of QUESTIONS) {
      const hits = await search(server, question, 'vector');
      expect(hits[0]?.title, question).toBe(title);
      expectNearestFirst(hits);
    }
  }, 60_000);

  it('a question nothing answers well gets exactly one semantic_fallback hit', async () => {
    const hits = await search(server, 'What should I cook for dinner tonight?');
    expect(hits.map((h) => h.match_type)).toEqual(['semantic_fallback']);
    // Below min_relevance (0.15), at or above the guard (0.08), on the original's scale.
    expect(hits[0]!.relevance_score).toBeLessThan(0.15);
    expect(hits[0]!.relevance_score).toBeGreaterThanOrEqual(0.08);
  }, 60_000);

  it('an unrelated question gets nothing', async () => {
    expect(await search(server, 'Who won the 1998 World Cup?')).toEqual([]);
    expect(await search(server, 'Who won the 1998 World Cup?', 'vector')).toEqual([]);
  }, 60_000);

  it('keyword search matches a possessive name, best first', async () => {
    const hits = await search(server, "Tell me about James's project", 'keyword');
    expect(hits[0]?.title).toBe('Thesis');
    expectNearestFirst(hits);
  }, 60_000);
});

describe.skipIf(!available)('a folder of the Python tool, imported', () => {
  let dir = '';
  let server: Harness;

  beforeAll(async () => {
    dir = tempDir();
    await writeLegacyFolder(dir, [
      [
        'mem_1a_2b',
        'Allergy',
        'The user is allergic to penicillin',
        '2024-03-01T09:00:00',
        '[]',
        8,
        'fact',
        '{}',
        null,
      ],
      [
        'mem_3c_4d',
        'Plants',
        'Keeps a dozen orchids on the kitchen windowsill',
        '2024-03-02T09:00:00',
        '[]',
        5,
        'preference',
        '{}',
        null,
      ],
      [
        'mem_5e_6f',
        'Language',
        'Takes Spanish lessons on Tuesday evenings',
        '2024-03-03T09:00:00',
        '[]',
        5,
        'fact',
        '{}',
        null,
      ],
    ]);
    server = await startServer({ AI_COMPANION_DATA_DIR: dir, ZERDA_EMBEDDER: 'model', ZERDA_RESULT_FORMAT: '' });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is found by meaning right after the import', async () => {
    for (const [question, id] of [
      ['Which medicine must I never take?', 'mem_1a_2b'],
      ['What flowers do I grow at home?', 'mem_3c_4d'],
      ['Which language am I learning?', 'mem_5e_6f'],
    ]) {
      const hits = await search(server, question!);
      expect(hits[0]?.id, question).toBe(id);
      expectNearestFirst(hits);
    }
  }, 60_000);
});
