import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { InMemoryStorage, MemoryManager, type RecallHit } from '@zerda/core';
import { createTransformersEmbedder, type TransformersEmbedder } from './transformers-embedder.js';

// The relevance gate with the real bundled model on a tiny store, as a first-time demo visitor
// fills it: a few turns, then natural follow-up questions. Small stores are where the model's
// similarity is weakest evidence ("What are my hobbies?" ↔ "I love hiking in the Alps.": 0.17).
let embedder: TransformersEmbedder;
let mgr: MemoryManager;
beforeAll(async () => {
  embedder = createTransformersEmbedder();
  await embedder.ready();
  mgr = await MemoryManager.create({ storage: new InMemoryStorage(), embedder, owner: 'alice' });
  for (const said of [
    'My name is Ada and I love hiking in the Alps.',
    'I was born in 1990.',
    'I work as a nurse in Lisbon.',
    'My sister Ana has two cats.',
  ])
    await mgr.saveInteraction('alice', 't', said, "Noted — I'll remember that.");
  await mgr.flush();
}, 60_000);
afterAll(async () => {
  await mgr?.close();
  await embedder?.close();
});

const textOf = (h: RecallHit): string => {
  const c = h.entry.content as { text?: string; input?: string };
  return c.text ?? c.input ?? '';
};

describe('recall on a tiny store with the bundled model', () => {
  test.each([
    ['What are my hobbies?', /hiking/],
    ['What do I enjoy?', /hiking/],
    ['What do I like to do?', /hiking/],
    ['What do I love doing outdoors?', /hiking/],
    ['How old am I?', /born in 1990/],
    ['What is my name?', /Ada/],
    ['Where do I work?', /nurse/],
  ])('%s recalls the memory that answers it first', async (question, answer) => {
    const hits = await mgr.recall('alice', 't', question, { reinforce: false });
    expect(hits.length).toBeGreaterThan(0);
    expect(textOf(hits[0]!)).toMatch(answer);
  });

  test.each([
    'What is the capital of Australia?',
    'Who wrote the novel Pride and Prejudice?',
    'What is the stock price of Nvidia?',
    'What are the hobbies of a typical teenager?',
    'What do most people enjoy on holidays?',
    'When was the Eiffel Tower built?',
  ])('%s recalls nothing', async (question) => {
    expect(await mgr.recall('alice', 't', question, { reinforce: false })).toEqual([]);
  });
});
