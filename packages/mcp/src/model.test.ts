import { existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, startServer, tempDir, type Harness } from './test-harness.js';

// The default configuration: the bundled offline model (use-lite) embeds in-process. Paraphrased
// questions, with no word in common with the memory, must still find it.
const model = join(REPO_ROOT, 'packages/embeddings/model/use-lite/onnx/model_quantized.onnx');
const available = existsSync(model) && statSync(model).size > 1_000_000;
let dataDir = '';
let server: Harness;

describe.skipIf(!available)('with the bundled model', () => {
  beforeAll(async () => {
    dataDir = tempDir();
    server = await startServer({ ZERDA_DATA_DIR: dataDir, ZERDA_EMBEDDER: 'model' });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('recalls by meaning', async () => {
    const stats = await server.call('get_memory_stats');
    expect(String((stats.json.model as Record<string, unknown>).id)).toContain('use-lite');
    const memories = [
      ['Coffee', 'Alex drinks espresso with oat milk every morning', 'preference'],
      ['Dog', 'Alex has a border collie named Pixel', 'fact'],
      ['Trip', 'We talked about a trip to Lisbon in May', 'conversation'],
    ];
    for (const [title, content, memory_type] of memories) {
      const r = await server.call('remember', { title, content, memory_type });
      expect(r.isError, r.text).toBe(false);
    }
    const cases: [string, string][] = [
      ['travel plans to Portugal', 'Trip'],
      ['What does Alex like to drink at breakfast?', 'Coffee'],
    ];
    for (const [query, title] of cases) {
      const r = await server.call('search_memories', { query, search_type: 'vector' });
      const top = r.json.results![0]!;
      expect(top.title, query).toBe(title);
      expect(top.similarity as number).toBeGreaterThan(0.2);
      expect(top.similarity as number).toBeLessThanOrEqual(1);
    }
  }, 60_000);

  it('cuts like the original: personal questions find their fact, an unrelated one gets at most the top-1 fallback', async () => {
    const dir = tempDir();
    const s = await startServer({ ZERDA_DATA_DIR: dir, ZERDA_EMBEDDER: 'model', ZERDA_RESULT_FORMAT: '' });
    try {
      const facts: [string, string][] = [
        ['Birthday', 'My birthday is July 4th'],
        ['Drinks', 'I prefer tea over coffee'],
        ['Camping', 'Truck camping at the lake next weekend'],
        ['Sister', 'My sister Ana lives in Lisbon'],
        ['Job', 'I work as a nurse at the city hospital'],
        ['Dog', 'Our dog is a border collie named Pixel'],
        ['Allergy', 'I am severely allergic to peanuts'],
        ['Car', 'I drive a blue 2015 Volvo'],
        ['Move', 'I moved to Berlin in 2019'],
        ['Guitar', 'I am learning to play the guitar'],
        ['Diet', 'I cannot eat gluten'],
      ];
      for (const [title, content] of facts)
        expect((await s.call('remember', { title, content, memory_type: 'fact' })).isError).toBe(false);
      const ask = async (query: string) =>
        (JSON.parse((await s.call('search_memories', { query })).text) as { data: Record<string, unknown>[] }).data;
      const unrelated = await ask('What is the stock price of Nvidia?');
      expect(unrelated.length).toBeLessThanOrEqual(1);
      for (const hit of unrelated) expect(hit.relevance_score as number).toBeLessThan(0.25);
      for (const [query, title] of [
        ['Where does my sister live?', 'Sister'],
        ['What is the name of my dog?', 'Dog'],
        ['Which instrument am I learning?', 'Guitar'],
      ]) {
        const hits = await ask(query!);
        expect(hits[0]?.title, query).toBe(title);
        expect(hits.length, query).toBeLessThanOrEqual(3);
      }
    } finally {
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('re-indexes existing memories when the embedder changes', async () => {
    const dir = tempDir();
    try {
      const hash = await startServer({ ZERDA_DATA_DIR: dir, ZERDA_EMBEDDER: 'hash' });
      await hash.call('remember', { title: 'Trip', content: 'We talked about a trip to Lisbon in May' });
      await hash.call('remember', { title: 'Dog', content: 'Alex has a border collie named Pixel' });
      await hash.close();
      const withModel = await startServer({ ZERDA_DATA_DIR: dir, ZERDA_EMBEDDER: 'model' });
      try {
        const r = await withModel.call('search_memories', { query: 'travel plans to Portugal', search_type: 'vector' });
        expect(r.json.results![0]!.title).toBe('Trip');
        expect(r.json.results![0]!.similarity as number).toBeGreaterThan(0.3);
      } finally {
        await withModel.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('loads another model from a local folder (ZERDA_MODEL, ZERDA_MODEL_DTYPE)', async () => {
    const dir = tempDir();
    const folder = join(REPO_ROOT, 'packages/embeddings/model/use-lite');
    const custom = await startServer({
      ZERDA_DATA_DIR: dir,
      ZERDA_EMBEDDER: 'model',
      ZERDA_MODEL: folder,
      ZERDA_MODEL_DTYPE: 'q8',
    });
    try {
      const stats = await custom.call('get_memory_stats');
      expect((stats.json.model as Record<string, unknown>).id).toBe('transformers:use-lite:q8:mean');
      await custom.call('remember', { title: 'Trip', content: 'We talked about a trip to Lisbon in May' });
      const r = await custom.call('search_memories', { query: 'holiday in Portugal', search_type: 'vector' });
      expect(r.json.results![0]!.title).toBe('Trip');
      const bad = await startServer({
        ZERDA_DATA_DIR: join(dir, 'other'),
        ZERDA_EMBEDDER: 'model',
        ZERDA_MODEL: join(dir, 'no-such-model'),
      }).catch((e: Error) => e);
      expect(bad).toBeInstanceOf(Error);
    } finally {
      await custom.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
