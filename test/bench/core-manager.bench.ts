/**
 * In-memory path benchmark (issue: Foundation): saveInteraction throughput and buildContext
 * latency at 1k and 10k memories, with InMemoryStorage + HashEmbedder. Prints figures; never
 * gates CI. Run: `npx tsx test/bench/core-manager.bench.ts`.
 */
import { HashEmbedder, InMemoryStorage, MemoryManager } from '@zerda/core';

const TOPICS = [
  'hiking',
  'cooking',
  'python',
  'jazz',
  'gardening',
  'chess',
  'travel',
  'photography',
  'running',
  'baking',
];
const PLACES = ['Lisbon', 'Kyoto', 'Denver', 'Oslo', 'Nairobi', 'Lima', 'Hanoi', 'Quebec'];

function turn(i: number): [string, string] {
  const t = TOPICS[i % TOPICS.length]!;
  const p = PLACES[(i * 7) % PLACES.length]!;
  return [
    `I really like ${t} and last month I went to ${p} (note ${i}). Remember that my favourite is ${t}.`,
    `Noted: you enjoy ${t}; ${p} sounds great.`,
  ];
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

async function run(size: number): Promise<void> {
  const mgr = await MemoryManager.create({
    storage: new InMemoryStorage(),
    embedder: new HashEmbedder({ dim: 256 }),
    owner: 'bench',
    config: { importanceThreshold: 0, maxLongTerm: size * 2 },
  });
  const t0 = performance.now();
  for (let i = 0; i < size; i++) {
    const [a, b] = turn(i);
    await mgr.saveInteraction('bench', 't', a, b, { importance: 0.6 });
  }
  await mgr.flush();
  const saveMs = performance.now() - t0;
  const queries = [
    'what do I like about jazz?',
    'when did I go to Kyoto?',
    'favourite hobby',
    'note 42',
    'chess in Oslo',
  ];
  const lat: number[] = [];
  for (let i = 0; i < 50; i++) {
    const q = queries[i % queries.length]!;
    const s = performance.now();
    await mgr.buildContext('bench', 't', q);
    lat.push(performance.now() - s);
  }
  console.log(
    `${size.toString().padStart(6)} memories | saveInteraction ${(size / (saveMs / 1000)).toFixed(0)}/s (incl. indexing) | buildContext p50 ${pct(lat, 50).toFixed(2)} ms p95 ${pct(lat, 95).toFixed(2)} ms`,
  );
  await mgr.close();
}

for (const n of [1_000, 10_000]) await run(n);
