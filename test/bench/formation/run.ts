/**
 * Memory formation on LoCoMo (issue 9, part 1): what formation keeps and forms, and whether recall
 * through the evaluation path holds. For each conversation, the path:
 * `MemoryManager.create({ owner, clock, embedder })` with the bundled use-lite model and the
 * default configuration except `importanceThreshold: 0`, `enableDecay: false` (and the
 * `formation` under test); every turn `saveInteraction(user, tenant, "<speaker>: <text>", '',
 * { importance: 0.5 })` with the clock at its session's date; questions (categories 1-4) through
 * `recall(..., { topK: 25, mode: 'hybrid', reinforce: false, ratio: 0, minScore: 0 })`, each hit
 * mapped to turns through its entry id or `metadata.sources`.
 *
 * Prints, per formation mode: share of turns promoted to long-term memory, memories formed per
 * kind, and recall@5/10/25 on both LoCoMo halves (first five conversations, last five). R@k counts
 * the first k hits (memories), each standing for its turns.
 *
 * Run (from the repository root):
 *   npx tsx --conditions=@zerda/source test/bench/formation/run.ts [--modes turns,offline] [--conversations a-b]
 * Data: LoCoMo's locomo10.json ($LOCOMO_PATH or ../shared/bench/data/locomo10.json; CC BY-NC 4.0,
 * read from disk, never copied here). Missing data: prints SKIPPED and exits 0.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { MemoryManager, type Embedder } from '@zerda/core';
import { lendEmbedder } from '@zerda/core/adapter';
import { loadLocomo, type LocomoConversation } from '../retrieval/locomo.js';
import { createCachedUseLite, REPO_ROOT } from '../retrieval/model.js';

const { values: args } = parseArgs({
  options: { modes: { type: 'string', default: 'turns,offline' }, conversations: { type: 'string' } },
});
const dataPath = resolve(REPO_ROOT, process.env.LOCOMO_PATH ?? '../shared/bench/data/locomo10.json');
if (!existsSync(dataPath)) {
  console.log(`SKIPPED: LoCoMo data not found at ${dataPath}.`);
  process.exit(0);
}
const modes = args.modes.split(',') as ('turns' | 'offline')[];
let conversations = loadLocomo(dataPath);
/** Index of the first conversation run (halves are by position in the whole file). */
let offset = 0;
if (args.conversations) {
  const [a, b = a] = args.conversations.split('-').map(Number);
  conversations = conversations.slice(a, b! + 1);
  offset = a!;
}
const embedder = createCachedUseLite();
const lent: Embedder = lendEmbedder(embedder);

const CUTS = [5, 10, 25] as const;
interface Tally {
  questions: number;
  sums: Record<number, number>;
}
const tally = (): Tally => ({ questions: 0, sums: { 5: 0, 10: 0, 25: 0 } });

interface ModeResult {
  turns: number;
  promoted: number;
  memories: Record<string, number>;
  halves: Record<'first' | 'second', Tally>;
  saveMs: number;
}

async function run(
  mode: 'turns' | 'offline',
  conv: LocomoConversation,
  into: ModeResult,
  half: 'first' | 'second',
): Promise<void> {
  let now = 0;
  const mgr = await MemoryManager.create({
    owner: 'bench',
    clock: () => now,
    embedder: lent,
    formation: mode,
    config: { importanceThreshold: 0, enableDecay: false },
  });
  const turnOf = new Map<string, string>();
  const t0 = performance.now();
  for (const session of conv.sessions) {
    now = session.timestamp;
    for (const turn of session.turns) {
      const { entry } = await mgr.saveInteraction('bench', conv.sampleId, turn.text, '', { importance: 0.5 });
      turnOf.set(entry.id, turn.diaId);
      into.turns++;
      if (entry.tier === 'long_term') into.promoted++;
    }
  }
  await mgr.flush();
  into.saveMs += performance.now() - t0;
  now = conv.sessions.at(-1)!.timestamp + 86_400_000;
  for (const m of await mgr.listMemories('bench', conv.sampleId))
    into.memories[m.kind] = (into.memories[m.kind] ?? 0) + 1;
  for (const q of conv.questions) {
    const hits = await mgr.recall('bench', conv.sampleId, q.question, {
      topK: 25,
      mode: 'hybrid',
      reinforce: false,
      ratio: 0,
      minScore: 0,
    });
    const t = into.halves[half];
    t.questions++;
    for (const k of CUTS) {
      const found = new Set<string>();
      for (const h of hits.slice(0, k)) {
        const own = turnOf.get(h.entry.id);
        if (own) found.add(own);
        const sources = h.entry.metadata.sources;
        if (Array.isArray(sources))
          for (const s of sources) if (typeof s === 'string' && turnOf.has(s)) found.add(turnOf.get(s)!);
      }
      t.sums[k]! += q.evidence.filter((e) => found.has(e)).length / q.evidence.length;
    }
  }
  await mgr.close();
}

const pct = (t: Tally, k: number) => (t.questions ? ((100 * t.sums[k]!) / t.questions).toFixed(1) : '–');
console.log(
  `LoCoMo formation: ${conversations.length} conversations, ${conversations.reduce((n, c) => n + c.questions.length, 0)} questions; model ${embedder.modelId}`,
);
const rows: string[] = [];
for (const mode of modes) {
  const r: ModeResult = { turns: 0, promoted: 0, memories: {}, halves: { first: tally(), second: tally() }, saveMs: 0 };
  for (const [i, conv] of conversations.entries()) {
    const s = performance.now();
    await run(mode, conv, r, offset + i < 5 ? 'first' : 'second');
    console.log(`  ${mode} ${conv.sampleId}: ${((performance.now() - s) / 1000).toFixed(1)} s`);
  }
  const all: Tally = {
    questions: r.halves.first.questions + r.halves.second.questions,
    sums: Object.fromEntries(CUTS.map((k) => [k, r.halves.first.sums[k]! + r.halves.second.sums[k]!])),
  };
  const kinds = Object.entries(r.memories)
    .sort()
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  rows.push(
    `| ${mode} | ${((100 * r.promoted) / r.turns).toFixed(1)} % of ${r.turns} | ${kinds} | ${CUTS.map((k) => pct(r.halves.first, k)).join(' / ')} | ${CUTS.map((k) => pct(r.halves.second, k)).join(' / ')} | ${CUTS.map((k) => pct(all, k)).join(' / ')} | ${(r.saveMs / r.turns).toFixed(2)} |`,
  );
}
embedder.save();
await embedder.close();
console.log(
  '\n| formation | turns promoted | long-term entries by kind | first half R@5/10/25 | second half R@5/10/25 | all R@5/10/25 | save ms/turn |',
);
console.log('|---|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
