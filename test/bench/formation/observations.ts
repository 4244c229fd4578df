/**
 * Formation precision and coverage on LoCoMo, against its per-session `observation`s as a proxy
 * gold set (issue 28). LoCoMo ships 2,541 facts about each speaker, each citing the turn(s) it came
 * from. Through the public API, with the default configuration and the default (hashing)
 * embedder, every turn is saved as `"<speaker>: <text>"` (plus ` [image: <caption>]`) with the
 * clock at its session's date; then the formed memories (fact, preference, event, task) are read
 * back with `listMemories`.
 *
 * - supported: a formed memory is supported when an observation about the same person cites one
 *   of its source turns. "The same person" is the memory's `metadata.about`; a relation of a
 *   speaker ("Melanie's kids") counts as that speaker, since LoCoMo files facts about a speaker's
 *   family under the speaker.
 * - covered: an observation is covered when its turn formed a memory about that person.
 *
 * It is only a proxy: a junk clause cut from an observed turn still counts as supported, and a
 * true statement the annotator did not note counts as unsupported. Read the memories as well:
 * `--dump <conversation index>` (or a range `0-9`, or `all`) prints every formed memory of those
 * conversations with its turn; with `--misses`, also every observation it did not cover.
 *
 * `--noise punct,qmark,apos,lower` (or `all`) saves each turn as a person typing in a chat app
 * would have written it (`../chat-noise.ts`): no full stops, question marks or apostrophes, or
 * all lower case. Real chats are written that way; LoCoMo is not.
 *
 * Run (from the repository root):
 *   npx tsx --conditions=@zerda/source test/bench/formation/observations.ts [--conversations a-b] [--dump 0] [--noise all]
 * Data: LoCoMo's locomo10.json ($LOCOMO_PATH or ../shared/bench/data/locomo10.json; CC BY-NC 4.0,
 * read from disk, never copied here). Missing data: prints SKIPPED and exits 0.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { MemoryManager } from '@zerda/core';
import { chatNoise, parseNoise } from '../chat-noise.js';
import { parseLocomo, repairEvidence, type LocomoConversation } from '../retrieval/locomo.js';
import { REPO_ROOT } from '../retrieval/model.js';

const { values: args } = parseArgs({
  options: {
    conversations: { type: 'string' },
    dump: { type: 'string' },
    misses: { type: 'boolean' },
    noise: { type: 'string' },
  },
});
const noise = parseNoise(args.noise);
const dataPath = resolve(REPO_ROOT, process.env.LOCOMO_PATH ?? '../shared/bench/data/locomo10.json');
if (!existsSync(dataPath)) {
  console.log(`SKIPPED: LoCoMo data not found at ${dataPath}.`);
  process.exit(0);
}
const raw = JSON.parse(readFileSync(dataPath, 'utf8')) as {
  observation: Record<string, Record<string, [string, string | string[]][]>>;
}[];
const all = parseLocomo(raw);

/** The observations of one conversation: whom each is about and the turns it cites. */
function observationsOf(i: number): { person: string; turns: string[]; fact: string }[] {
  const out: { person: string; turns: string[]; fact: string }[] = [];
  for (const bySpeaker of Object.values(raw[i]!.observation))
    for (const [person, facts] of Object.entries(bySpeaker))
      for (const [fact, cites] of facts)
        out.push({ person, fact, turns: (Array.isArray(cites) ? cites : [cites]).flatMap(repairEvidence) });
  return out;
}

interface Tally {
  memories: number;
  supported: number;
  observations: number;
  covered: number;
  turns: number;
  pronounLed: number;
  saveMs: number;
  kinds: Record<string, number>;
}
const tally = (): Tally => ({
  memories: 0,
  supported: 0,
  observations: 0,
  covered: 0,
  turns: 0,
  pronounLed: 0,
  saveMs: 0,
  kinds: {},
});
const PRONOUN_LED = /^(?:it|its|it's|it’s|this|that|these|those|they|them|he|she|him|her|there|which)\b/i;

async function run(i: number, conv: LocomoConversation, into: Tally, dump: boolean): Promise<void> {
  let now = 0;
  const mgr = await MemoryManager.create({ owner: 'bench', clock: () => now });
  const turnOf = new Map<string, string>();
  const textOf = new Map<string, string>();
  const t0 = performance.now();
  for (const session of conv.sessions) {
    now = session.timestamp;
    for (const turn of session.turns) {
      const text = chatNoise(turn.text, noise);
      const { entry } = await mgr.saveInteraction('bench', conv.sampleId, text, '');
      turnOf.set(entry.id, turn.diaId);
      textOf.set(turn.diaId, text);
      into.turns++;
    }
  }
  await mgr.flush();
  into.saveMs += performance.now() - t0;
  const observations = observationsOf(i);
  const observed = new Map<string, string[]>();
  for (const o of observations)
    for (const t of o.turns) observed.set(`${o.person}|${t}`, [...(observed.get(`${o.person}|${t}`) ?? []), o.fact]);
  into.observations += observations.length;
  const speakers = new Set(conv.speakers);
  const formed = await mgr.listMemories('bench', conv.sampleId, { kinds: ['fact', 'preference', 'event', 'task'] });
  const coveredKeys = new Set<string>();
  for (const m of formed) {
    const about = String(m.metadata.about ?? '');
    const owner = about.match(/^(.+?)['’]s\s/u)?.[1];
    const person = owner !== undefined && speakers.has(owner) ? owner : about;
    const sources = (Array.isArray(m.metadata.sources) ? m.metadata.sources : [])
      .map((s) => turnOf.get(String(s)))
      .filter((t): t is string => t !== undefined);
    const keys = sources.map((t) => `${person}|${t}`);
    for (const k of keys) if (observed.has(k)) coveredKeys.add(k);
    const ok = keys.some((k) => observed.has(k));
    into.memories++;
    if (ok) into.supported++;
    const text = 'text' in m.content ? m.content.text : '';
    if (PRONOUN_LED.test(text)) into.pronounLed++;
    into.kinds[m.kind] = (into.kinds[m.kind] ?? 0) + 1;
    if (dump)
      console.log(
        `${ok ? '+' : '-'} [${m.kind}] ${m.content && 'title' in m.content ? m.content.title : ''}${m.metadata.value !== undefined ? ` = ${String(m.metadata.value)}` : ''} :: ${text}\n    ⟵ ${sources[0]} ${textOf.get(sources[0] ?? '') ?? ''}${keys.length && observed.get(keys[0]!) ? `\n    obs: ${observed.get(keys[0]!)!.join(' | ')}` : ''}`,
      );
  }
  const missed = observations.filter((o) => !o.turns.some((t) => coveredKeys.has(`${o.person}|${t}`)));
  into.covered += observations.length - missed.length;
  if (dump && args.misses)
    for (const o of missed)
      console.log(`× ${o.person}: ${o.fact}\n    ⟵ ${o.turns[0]} ${textOf.get(o.turns[0] ?? '') ?? ''}`);
  await mgr.close();
}

let picked = all.map((c, i) => [i, c] as const);
if (args.conversations) {
  const [a, b = a] = args.conversations.split('-').map(Number);
  picked = picked.slice(a, b! + 1);
}
/** `--dump 3`, `--dump 0-9` or `--dump all`: the conversations whose memories (and misses) are printed. */
const dumpRange = (spec: string | undefined): [number, number] => {
  if (spec === undefined) return [-1, -1];
  if (spec === 'all') return [0, all.length - 1];
  const [a, b = a] = spec.split('-').map(Number);
  return [a!, b!];
};
const [dumpFrom, dumpTo] = dumpRange(args.dump);
const halves = { first: tally(), second: tally() };
for (const [i, conv] of picked) {
  const s = performance.now();
  await run(i, conv, i < 5 ? halves.first : halves.second, i >= dumpFrom && i <= dumpTo);
  console.log(`  ${conv.sampleId}: ${((performance.now() - s) / 1000).toFixed(1)} s`);
}
const pct = (a: number, b: number) => (b ? ((100 * a) / b).toFixed(1) : '–');
console.log(
  '\n| half | turns | formed memories (per turn) | supported | observations covered | pronoun-led | kinds | save ms/turn |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const [name, t] of Object.entries(halves)) {
  if (!t.turns) continue;
  const kinds = Object.entries(t.kinds)
    .sort()
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  console.log(
    `| ${name} | ${t.turns} | ${t.memories} (${(t.memories / t.turns).toFixed(2)}) | ${pct(t.supported, t.memories)} % | ${pct(t.covered, t.observations)} % (${t.covered} of ${t.observations}) | ${pct(t.pronounLed, t.memories)} % | ${kinds} | ${(t.saveMs / t.turns).toFixed(2)} |`,
  );
}
