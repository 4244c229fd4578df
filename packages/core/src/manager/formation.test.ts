import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../model/clock.js';
import { HashEmbedder } from '../retrieval/hash-embedder.js';
import type { Embedder, LlmClient } from '../model/embedder.js';
import { isZerdaError } from '../model/errors.js';
import type { MemoryEntry } from '../model/types.js';
import type { MemoryExtractor } from '../formation/types.js';
import type { TurnReading } from '../language/turn-reading.js';
import { buildExport, validateExport } from '../storage/export-format.js';
import { InMemoryStorage } from '../storage/in-memory-storage.js';
import { MemoryManager, type MemoryManagerOptions } from './memory-manager.js';

const START = Date.UTC(2026, 0, 5, 12); // a Monday

async function make(options: MemoryManagerOptions = {}) {
  let now = START;
  const storage = new InMemoryStorage();
  const mgr = await MemoryManager.create({ storage, clock: () => now, owner: 'me', ...options });
  return { mgr, storage, advance: (ms: number) => (now += ms), now: () => now };
}
const memoriesOf = (mgr: MemoryManager) =>
  mgr.listMemories('me', 't', { kinds: ['fact', 'preference', 'event', 'task'] });
const textOf = (m: MemoryEntry) => ('text' in m.content ? m.content.text : '');
const turnsOf = (mgr: MemoryManager) => mgr.listMemories('me', 't', { kinds: ['conversation'] });
/** The user `me` says `input` in tenant `t`; the assistant answers `output`. */
const say = (mgr: MemoryManager, input: string, output: string) => mgr.saveInteraction('me', 't', input, output);

/**
 * An embedder that finds every two texts faintly alike (cosine about 0.1, as a small model does)
 * and "hobbies" no closer to "hiking": under a strict gate (floors derived from 0.5) only a slot
 * can answer a question whose words the memory does not share.
 */
function faintEmbedder(): Embedder {
  const inner = new HashEmbedder({ dim: 255 });
  return {
    modelId: 'faint-256',
    dim: 256,
    ready: () => inner.ready(),
    close: () => inner.close(),
    embed: async (texts, o) =>
      (await inner.embed(texts, o)).map((v) => {
        const out = new Float32Array(256);
        for (let d = 0; d < 255; d++) out[d] = 0.95 * v[d]!;
        out[255] = 0.31;
        return out;
      }),
  };
}

/** An LlmClient answering from a script. */
function scripted(...answers: (string | Error)[]): LlmClient & { calls: number } {
  const llm = {
    calls: 0,
    async generate() {
      llm.calls++;
      const a = answers.shift();
      if (a === undefined || a instanceof Error) throw a ?? new Error('script exhausted');
      return a;
    },
  };
  return llm;
}

describe('MemoryManager formation (offline, the default)', () => {
  it('keeps questions, greetings and acknowledgements in the short-term window only', async () => {
    const { mgr } = await make();
    for (const text of ['Hello!', 'What is my email address?', 'Got it, thanks.']) {
      const { entry, memories } = await mgr.saveInteraction('me', 't', text, 'Noted — I will remember that.');
      expect(entry.tier).toBe('short_term');
      expect(memories).toEqual([]);
    }
    expect(await mgr.listMemories('me', 't')).toEqual([]);
    expect(mgr.shortTerm('t', 'me').size).toBe(3);
  });

  it('stores the turn as an episodic record and forms memories that link back to it', async () => {
    const { mgr } = await make();
    const { entry, memories } = await say(
      mgr,
      'Hi! My sister Ana lives in Lisbon. I am allergic to peanuts. What should I cook?',
      'Noted.',
    );
    expect(entry).toMatchObject({ tier: 'long_term', kind: 'conversation' });
    expect(memories.map((m) => [m.kind, m.content, m.metadata.about])).toEqual([
      ['fact', { title: 'Ana · lives in', text: 'My sister Ana lives in Lisbon.' }, 'Ana'],
      ['fact', { title: 'me', text: 'I am allergic to peanuts.' }, 'me'],
    ]);
    for (const m of memories) expect(m.metadata).toMatchObject({ sources: [entry.id], formedBy: 'offline' });
    await mgr.flush();
    // Recall hits, working memory and exports keep the link.
    const hits = await mgr.recall('me', 't', 'which city is my sister in?', { reinforce: false });
    expect(hits[0]!.entry.content).toEqual({ title: 'Ana · lives in', text: 'My sister Ana lives in Lisbon.' });
    expect(hits[0]!.entry.metadata.sources).toEqual([entry.id]);
    const ctx = await mgr.buildContext('me', 't', 'Is there anything I cannot eat, like peanuts?');
    const allergy = ctx.working.find((w) => w.entry.kind === 'fact' && String(w.entry.metadata.about) === 'me');
    expect(allergy?.entry.metadata.sources).toEqual([entry.id]);
    const all = await mgr.listMemories('me', 't');
    const exported = validateExport(
      JSON.parse(JSON.stringify(buildExport({ exportedAt: START, tenants: ['t'], entries: all, profiles: [] }))),
    );
    expect(exported.entries.filter((e) => e.kind === 'fact').map((e) => e.metadata.sources)).toEqual([
      [entry.id],
      [entry.id],
    ]);
  });

  it('a sentence of independent clauses forms one memory per clause; a coordinated subject stays one', async () => {
    const { mgr } = await make();
    const { entry, memories } = await say(mgr, 'My name is Ada and I love hiking in the Alps.', '');
    expect(memories.map((m) => [m.kind, m.content, m.metadata.attribute, m.metadata.value])).toEqual([
      ['fact', { title: 'me · name', text: 'My name is Ada' }, 'name', 'Ada'],
      ['preference', { title: 'me', text: 'I love hiking in the Alps.' }, undefined, undefined],
    ]);
    for (const m of memories) expect(m.metadata.sources).toEqual([entry.id]);
    const together = await mgr.saveInteraction('me', 't', 'Ana and I went to Porto last week.', '');
    expect(together.memories.map((m) => [m.kind, (m.content as { text: string }).text])).toEqual([
      ['event', 'Ana and I went to Porto last week.'],
    ]);
    // The name slot holds the name alone, so a later name supersedes it without touching the preference.
    await mgr.saveInteraction('me', 't', 'Actually, my name is Adele.', '');
    const now = await memoriesOf(mgr);
    expect(now.filter((m) => m.metadata.attribute === 'name').map((m) => m.metadata.value)).toEqual(['Adele']);
    expect(now.filter((m) => m.kind === 'preference')).toHaveLength(1);
  });

  it('a turn forms what it says: "call me" with a time is a task, a dated move fills the slot with the place, "my wife and I" is the user', async () => {
    const { mgr, advance } = await make();
    const first = await say(
      mgr,
      'Call me after six. I moved to Porto in 2019. My wife and I went to Rome last week.',
      'Will do.',
    );
    expect(
      first.memories.map((m) => [m.kind, m.metadata.about, m.metadata.attribute, m.metadata.value, m.metadata.at]),
    ).toEqual([
      ['task', 'me', undefined, undefined, undefined],
      ['fact', 'me', 'lives in', 'Porto', Date.UTC(2019, 0, 1)],
      ['event', 'me', undefined, undefined, Date.UTC(2025, 11, 29)],
    ]);
    // No name was formed from "call me after six"; "Call me Liz" forms one.
    const liz = await mgr.saveInteraction('me', 't', 'Call me Liz.', '');
    expect(liz.memories.map((m) => [m.metadata.attribute, m.metadata.value])).toEqual([['name', 'Liz']]);
    // "I live in Porto" restates the dated move; "I moved to Lisbon" supersedes it.
    advance(DAY_MS);
    const again = await mgr.saveInteraction('me', 't', 'I live in Porto.', '');
    expect(again.memories.map((m) => m.id)).toEqual([first.memories[1]!.id]);
    await mgr.saveInteraction('me', 't', 'I moved to Lisbon.', '');
    const residence = (await memoriesOf(mgr)).filter((m) => m.metadata.attribute === 'lives in');
    expect(residence.map((m) => [m.id, m.metadata.value, m.metadata.at])).toEqual([
      [first.memories[1]!.id, 'Lisbon', undefined],
    ]);
    expect((await memoriesOf(mgr)).filter((m) => String(m.metadata.about).includes("'s"))).toEqual([]);
  });

  it('recall answers a question about a kind or slot of its subject from formed memories ("slot")', async () => {
    const { mgr } = await make({ embedder: faintEmbedder(), config: { minSimilarity: 0.5 } });
    // A liking that names no pastime: the hobby lexicon (hiking, climbing …) would cover "hobbies" by its words.
    await mgr.saveInteraction('me', 't', 'My name is Ada and I love jazz records from the fifties.', '');
    await mgr.saveInteraction('me', 't', 'I was born in 1990.', '');
    await mgr.saveInteraction('me', 't', 'My sister Ana has two cats.', '');
    await mgr.flush();
    const recalled = async (q: string) =>
      (await mgr.recall('me', 't', q, { reinforce: false })).map((h) => [
        (h.entry.content as { text?: string; input?: string }).text ?? (h.entry.content as { input: string }).input,
        h.reason,
      ]);
    expect(await recalled('What are my hobbies?')).toEqual([['I love jazz records from the fifties.', 'slot']]);
    expect(await recalled('How old am I?')).toEqual([['I was born in 1990.', 'slot']]);
    // Nobody of the store named, or another subject: nothing.
    expect(await recalled('What are the hobbies of a typical teenager?')).toEqual([]);
    expect(await recalled('What is the capital of Australia?')).toEqual([]);
    expect(await recalled('What does my brother enjoy?')).toEqual([]);
  });

  it('a possessive names its person: "What are James\' hobbies?" finds what James said (the slot passes the gate)', async () => {
    const { mgr } = await make({ embedder: faintEmbedder(), config: { minSimilarity: 0.5 } });
    // A transcript line: the memory is about its speaker and its text does not name him, so no
    // candidate is strong by its words or similarity; only the slot (about "James", a preference)
    // shows the store answers (without it, nothing is recalled). The turn itself is left out of
    // the search. Past the gate the hit may also be related by the similarity of its title
    // ("James"), and the reason names the first signal that holds, so only the hit is compared.
    await mgr.saveInteraction('me', 't', 'James: I love sailing.', '');
    await mgr.saveInteraction('me', 't', 'Chris: My sister lives in Oslo.', '');
    await mgr.flush();
    const filter = { kinds: ['fact', 'preference', 'event', 'task'] };
    const recalled = async (q: string) =>
      (await mgr.recall('me', 't', q, { reinforce: false, filter })).map(
        (h) => (h.entry.content as { text?: string }).text,
      );
    for (const q of ["What are James' hobbies?", "What are James's hobbies?", 'What are James’s hobbies?'])
      expect(await recalled(q), q).toEqual(['I love sailing.']);
    // Another person whose name ends in s, or the asker: not James's.
    expect(await recalled("What are Chris' hobbies?")).toEqual([]);
    expect(await recalled('What are my hobbies?')).toEqual([]);
  });

  it('a restatement reinforces the memory (one memory, both turns as sources)', async () => {
    const { mgr, advance } = await make();
    const first = await mgr.saveInteraction('me', 't', 'I am allergic to peanuts.', '', { importance: 0.6 });
    advance(DAY_MS);
    const second = await mgr.saveInteraction('me', 't', 'Hey, just so you know, I have a peanut allergy!', '', {
      importance: 0.6,
    });
    const memories = await memoriesOf(mgr);
    expect(memories).toHaveLength(1);
    expect(memories[0]!.metadata.sources).toEqual([first.entry.id, second.entry.id]);
    expect(memories[0]!.importance).toBeCloseTo(0.65, 10);
    expect(second.memories[0]!.id).toBe(memories[0]!.id);
  });

  it('a superseding statement updates the memory and keeps the previous version, both directions', async () => {
    const { mgr, advance } = await make();
    const lisbon = await mgr.saveInteraction('me', 't', 'I live in Lisbon.', '');
    await mgr.saveInteraction('me', 't', 'My sister Ana lives in Lisbon too.', '');
    await mgr.saveInteraction('me', 't', 'My favourite colour is blue.', '');
    advance(30 * DAY_MS);
    const porto = await mgr.saveInteraction('me', 't', 'I moved to Porto last week!', '');
    let residence = (await memoriesOf(mgr)).filter(
      (m) => m.metadata.attribute === 'lives in' && m.metadata.about === 'me',
    );
    expect(residence).toHaveLength(1);
    expect(residence[0]!).toMatchObject({
      id: lisbon.memories[0]!.id,
      content: { text: 'I moved to Porto last week!' },
      metadata: { value: 'Porto', sources: [lisbon.entry.id, porto.entry.id] },
      version: 2,
    });
    expect((residence[0]!.metadata.history as { content: { text: string } }[]).map((h) => h.content.text)).toEqual([
      'I live in Lisbon.',
    ]);
    advance(30 * DAY_MS);
    await mgr.saveInteraction('me', 't', 'I moved back to Lisbon.', '');
    residence = (await memoriesOf(mgr)).filter((m) => m.metadata.attribute === 'lives in' && m.metadata.about === 'me');
    expect(residence).toHaveLength(1);
    expect(residence[0]!.metadata.value).toBe('Lisbon');
    expect((residence[0]!.metadata.history as { content: { text: string } }[]).map((h) => h.content.text)).toEqual([
      'I live in Lisbon.',
      'I moved to Porto last week!',
    ]);
    // Unrelated facts were not retired: Ana still lives in Lisbon, the colour is still blue.
    const rest = (await memoriesOf(mgr)).filter((m) => m.id !== residence[0]!.id).map((m) => m.content);
    expect(rest).toEqual(
      expect.arrayContaining([
        { title: 'Ana · lives in', text: 'My sister Ana lives in Lisbon too.' },
        { title: 'me · favourite colour', text: 'My favourite colour is blue.' },
      ]),
    );
    // The turns themselves are all still stored.
    expect(await turnsOf(mgr)).toHaveLength(5);
    // The updated text is what recall finds.
    await mgr.flush();
    const hits = await mgr.recall('me', 't', 'Where do I live now?', { reinforce: false });
    expect(hits.some((h) => h.entry.id === residence[0]!.id)).toBe(true);
  });

  it('facts survive a year of maintenance with the default configuration; chatter does not', async () => {
    const { mgr, advance } = await make();
    await mgr.saveInteraction('me', 't', 'Hi, my name is Jeremy.', 'Hello Jeremy!');
    await mgr.saveInteraction('me', 't', 'I am allergic to peanuts.', 'Noted.');
    await mgr.saveInteraction('me', 't', 'The weather here was grey and rainy the whole afternoon.', 'Sorry to hear.');
    for (let day = 0; day < 365; day += 30) {
      advance(30 * DAY_MS);
      await mgr.runMaintenance('t');
    }
    const left = await mgr.listMemories('me', 't');
    expect(
      left
        .map((m) => (m.content as { text?: string }).text)
        .filter(Boolean)
        .sort(),
    ).toEqual(['I am allergic to peanuts.', 'My name is Jeremy.']);
    expect(left.every((m) => m.kind === 'fact')).toBe(true);
  });

  it("formation: 'turns' keeps every turn as said", async () => {
    const { mgr } = await make({ formation: 'turns' });
    const q = await mgr.saveInteraction('me', 't', 'What is my email address?', '', { importance: 0.5 });
    const f = await mgr.saveInteraction('me', 't', 'I am allergic to peanuts.', '', { importance: 0.5 });
    expect([q.entry.tier, f.entry.tier]).toEqual(['long_term', 'long_term']);
    expect(f.memories).toEqual([]);
    expect((await mgr.listMemories('me', 't')).map((m) => m.kind)).toEqual(['conversation', 'conversation']);
  });

  it('a caller-given kind is kept as is (no formation)', async () => {
    const { mgr } = await make();
    const r = await mgr.saveInteraction('me', 't', 'What is the capital of Peru?', 'Lima', {
      kind: 'fact',
      importance: 0.5,
    });
    expect(r.entry).toMatchObject({ tier: 'long_term', kind: 'fact' });
    expect(r.memories).toEqual([]);
  });

  it('rejects a bad formation option', async () => {
    await expect(MemoryManager.create({ formation: 'magic' as never })).rejects.toMatchObject({ code: 'VALIDATION' });
    await expect(MemoryManager.create({ formation: 'llm' })).rejects.toMatchObject({ code: 'VALIDATION' });
  });

  it('the evaluation path: turns with information stay findable, directly or through sources', async () => {
    let now = START;
    const mgr = await MemoryManager.create({
      owner: 'me',
      clock: () => now,
      config: { importanceThreshold: 0, enableDecay: false },
    });
    const ids = new Map<string, string>();
    const said = [
      ['a', 'Ana: Hey Bo! Long time no see!'],
      ['b', 'Bo: Hi Ana! How have you been?'],
      ['c', 'Ana: I finally adopted a puppy last week, a little beagle called Toby.'],
      ['d', 'Bo: Wow, congrats! What made you choose a beagle?'],
      ['e', 'Ana: I love hiking and beagles are great hiking buddies.'],
    ];
    for (const [turn, text] of said) {
      const { entry } = await mgr.saveInteraction('me', 't', text!, '', { importance: 0.5 });
      ids.set(entry.id, turn!);
      now += 60_000;
    }
    await mgr.flush();
    const turnsFor = async (question: string) => {
      const hits = await mgr.recall('me', 't', question, {
        topK: 25,
        mode: 'hybrid',
        reinforce: false,
        ratio: 0,
        minScore: 0,
      });
      return hits
        .flatMap((h) => [h.entry.id, ...((h.entry.metadata.sources as string[] | undefined) ?? [])])
        .map((id) => ids.get(id))
        .filter(Boolean);
    };
    expect((await turnsFor('What pet did Ana adopt?'))[0]).toBe('c');
    expect((await turnsFor('What does Ana love doing?'))[0]).toBe('e');
    // Greetings and questions are not in long-term memory.
    const stored = (await mgr.listMemories('me', 't', { kinds: ['conversation'] })).map((m) => ids.get(m.id)).sort();
    expect(stored).toEqual(['c', 'e']);
  });
});

describe('MemoryManager formation with an LLM', () => {
  const answer = (ops: unknown[]) => JSON.stringify({ operations: ops });

  it('forms memories in the background; flush() awaits them', async () => {
    const llm = scripted(answer([{ op: 'ADD', text: 'The user is allergic to peanuts', kind: 'fact', about: 'me' }]));
    const { mgr } = await make({ llm, formation: 'llm' });
    const { entry, memories } = await say(mgr, 'Peanuts make me very sick, so I avoid them.', 'Noted.');
    expect(memories).toEqual([]);
    await mgr.flush();
    const formed = await memoriesOf(mgr);
    expect(
      formed.map((m) => [m.kind, (m.content as { text: string }).text, m.metadata.sources, m.metadata.formedBy]),
    ).toEqual([['fact', 'The user is allergic to peanuts', [entry.id], 'llm']]);
    expect(llm.calls).toBe(1);
  });

  it('a turn the offline reading would leave out is stored once the LLM forms a memory from it, so sources resolve', async () => {
    const llm = scripted(
      answer([{ op: 'ADD', text: 'The user is planning a trip to Kyoto', kind: 'task', about: 'me' }]),
    );
    const { mgr } = await make({ llm, formation: 'llm' });
    const { entry } = await mgr.saveInteraction('me', 't', 'Any tips for my Kyoto trip?', '', { importance: 0.6 });
    expect(entry.tier).toBe('short_term');
    await mgr.flush();
    const [memory] = await memoriesOf(mgr);
    expect(memory!.metadata.sources).toEqual([entry.id]);
    expect(await mgr.getMemory('me', 't', entry.id)).toMatchObject({ id: entry.id, tier: 'long_term' });
  });

  it('UPDATE keeps history; NOOP reinforces', async () => {
    const llm = scripted(
      answer([
        { op: 'ADD', text: 'Lives in Lisbon', kind: 'fact', about: 'me', attribute: 'lives in', value: 'Lisbon' },
      ]),
      answer([
        {
          op: 'UPDATE',
          id: 'm1',
          text: 'Lives in Porto',
          kind: 'fact',
          about: 'me',
          attribute: 'lives in',
          value: 'Porto',
        },
      ]),
      answer([{ op: 'NOOP', id: 'm1' }]),
    );
    const { mgr } = await make({ llm, formation: 'llm' });
    await mgr.saveInteraction('me', 't', 'I live in Lisbon.', '');
    await mgr.flush();
    await mgr.saveInteraction('me', 't', 'I moved to Porto.', '');
    await mgr.flush();
    await mgr.saveInteraction('me', 't', 'Porto is home now.', '');
    await mgr.flush();
    const [m] = await memoriesOf(mgr);
    expect((m!.content as { text: string }).text).toBe('Lives in Porto');
    expect((m!.metadata.history as { content: { text: string } }[]).map((h) => h.content.text)).toEqual([
      'Lives in Lisbon',
    ]);
    expect(m!.metadata.sources).toHaveLength(3);
    expect(m!.accessCount).toBe(1);
  });

  it.each([
    ['invalid output', 'Sure, I will remember that!'],
    ['a failing LLM', new Error('endpoint down')],
  ])('%s falls back to the offline extractor and is reported by flush()', async (_name, reply) => {
    const { mgr } = await make({ llm: scripted(reply), formation: 'llm' });
    const { entry } = await mgr.saveInteraction('me', 't', 'I am allergic to peanuts.', '');
    const err = await mgr.flush().catch((e: unknown) => e);
    expect(isZerdaError(err, 'FORMATION')).toBe(true);
    const formed = await memoriesOf(mgr);
    expect(formed.map((m: MemoryEntry) => [m.metadata.formedBy, m.metadata.sources])).toEqual([
      ['offline', [entry.id]],
    ]);
    // Reported once.
    await expect(mgr.flush()).resolves.toBeUndefined();
  });
});

describe('MemoryManager formation: the turn read once, the plan decides', () => {
  it('"I quit nursing … now I teach biology" supersedes "I work as a nurse" (one current job, the old in history)', async () => {
    const { mgr } = await make();
    await say(mgr, 'I work as a nurse.', '');
    await say(mgr, 'I quit nursing last month and now I teach biology at a high school.', '');
    const jobs = (await memoriesOf(mgr)).filter((m) => m.metadata.attribute === 'works as');
    expect(jobs.map((m) => m.metadata.value)).toEqual(['biology teacher']);
    expect(jobs[0]!.metadata.history).toHaveLength(1);
  });

  it('"I don\'t live in Lisbon anymore" supersedes "I live in Lisbon"; with where they moved, it fills the slot', async () => {
    const { mgr } = await make();
    await say(mgr, 'I live in Lisbon.', '');
    await say(mgr, "I don't live in Lisbon anymore.", '');
    const [home] = await memoriesOf(mgr);
    expect([textOf(home!), home!.metadata.attribute, home!.metadata.history]).toEqual([
      "I don't live in Lisbon anymore.",
      undefined,
      [expect.objectContaining({ content: expect.objectContaining({ text: 'I live in Lisbon.' }) })],
    ]);
    const other = await make();
    await say(other.mgr, 'I work at Google.', '');
    await say(other.mgr, "I don't work at Google anymore, I work at a small startup now.", '');
    const jobs = await memoriesOf(other.mgr);
    expect(jobs.map((m) => [m.metadata.attribute, m.metadata.value])).toEqual([['works at', 'small startup']]);
  });

  it('"my sister" after "My sister Ana lives in Lisbon" is Ana: her home is superseded, her name kept', async () => {
    const { mgr } = await make();
    await say(mgr, 'My sister Ana lives in Lisbon.', '');
    await say(mgr, "My sister doesn't live in Lisbon anymore, she moved to Berlin.", '');
    const formed = await memoriesOf(mgr);
    expect(formed.map((m) => [m.metadata.about, m.metadata.aka, m.metadata.value])).toEqual([
      ['Ana', ["me's sister"], 'Berlin'],
    ]);
    expect(formed[0]!.content).toMatchObject({ title: 'Ana · lives in' });
    expect(formed[0]!.metadata.history).toHaveLength(1);
    // Named after the relation: the memory said of "my sister" is Ana's from then on.
    const other = await make();
    await say(other.mgr, 'My brother lives in Madrid.', '');
    await say(other.mgr, 'My brother Tom lives in Madrid.', '');
    await say(other.mgr, 'Tom moved to Rome.', '');
    const tom = await memoriesOf(other.mgr);
    expect(tom.map((m) => [m.metadata.about, m.metadata.value])).toEqual([['Tom', 'Rome']]);
  });

  it('near-misses: a relation two named people share stands for neither; they stay two', async () => {
    const { mgr } = await make();
    await say(mgr, 'My friend Ana lives in Lisbon.', '');
    await say(mgr, 'My friend Raj lives in Paris.', '');
    await say(mgr, 'My friend moved to Berlin.', '');
    const formed = await memoriesOf(mgr);
    expect(formed.map((m) => [m.metadata.about, m.metadata.value]).sort()).toEqual([
      ['Ana', 'Lisbon'],
      ['Raj', 'Paris'],
      ["me's friend", 'Berlin'],
    ]);
  });

  it('"Please forget that I\'m vegetarian" deletes the memory and the turn it was formed from, and stores nothing', async () => {
    const { mgr } = await make();
    await say(mgr, "I'm vegetarian.", 'Noted!');
    await say(mgr, 'I live in Lisbon.', 'Lovely city.');
    const saved = await say(mgr, "Please forget that I'm vegetarian.", 'Done.');
    expect((await memoriesOf(mgr)).map(textOf)).toEqual(['I live in Lisbon.']);
    // Neither the turn that said it nor the request (which says it again) is kept to be recalled.
    expect((await turnsOf(mgr)).map((t) => (t.content as { input: string }).input)).toEqual(['I live in Lisbon.']);
    expect(saved.entry.tier).toBe('short_term');
    const hits = await mgr.recall('me', 't', 'What snack should I buy for the road trip?', { reinforce: false });
    expect(hits.map((h) => JSON.stringify(h.entry.content))).not.toContainEqual(expect.stringMatching(/vegetarian/u));
    // "… what I told you about my sister": each memory about her.
    await say(mgr, 'My sister Ana lives in Porto.', '');
    await say(mgr, 'My sister is a nurse.', '');
    await say(mgr, 'Can you forget what I told you about my sister?', 'Of course.');
    expect((await memoriesOf(mgr)).map(textOf)).toEqual(['I live in Lisbon.']);
  });

  it('near-misses: no request, nothing it names, a user who may not delete, a chat of two people', async () => {
    const { mgr } = await make();
    await say(mgr, "I'm vegetarian.", '');
    await say(mgr, 'I forgot my keys at home yesterday.', '');
    await say(mgr, "Forget about it, let's go to the beach.", '');
    await say(mgr, 'Please forget that I like jazz.', '');
    expect((await memoriesOf(mgr)).map(textOf)).toContain("I'm vegetarian.");
    // A writer may add and correct, not delete.
    mgr.grant('bob', 't', 'writer');
    await mgr.saveInteraction('bob', 't', "I'm vegan.", '');
    await mgr.saveInteraction('bob', 't', "Please forget that I'm vegan.", '');
    expect((await memoriesOf(mgr)).map(textOf)).toContain("I'm vegan.");
    // Said to the other person of a two-person chat, it asks nothing of memory.
    await say(mgr, 'Ann: I work at the bakery.', '');
    await say(mgr, 'Bob: Cool!', '');
    await say(mgr, 'Ann: Please forget what I said about the bakery.', '');
    expect((await memoriesOf(mgr)).map(textOf)).toContain('I work at the bakery.');
  });

  it('how the user wants to be answered is always in the prompt, whatever the question', async () => {
    const { mgr } = await make();
    await say(mgr, 'Please always answer in Spanish.', '¡Claro! Responderé en español.');
    await say(mgr, 'I adopted a cat called Miso.', 'Lovely!');
    for (let i = 0; i < 12; i++) await say(mgr, `We talked about topic number ${i} for a while.`, 'Okay.');
    const [instruction] = (await memoriesOf(mgr)).filter((m) => m.kind === 'preference');
    expect(textOf(instruction!)).toBe('Please always answer in Spanish.');
    expect(instruction!.tags).toEqual(['core']);
    const ctx = await mgr.buildContext('me', 't', "What's the tallest mountain in Europe?", { historyTurns: 0 });
    expect(ctx.recalled.map((h) => textOf(h.entry))).toContain('Please always answer in Spanish.');
    expect(ctx.recalled.map((h) => textOf(h.entry))).not.toContain('I adopted a cat called Miso.');
  });

  it('"My coworker Raj has a PhD in physics." forms a fact about Raj, not about the user', async () => {
    const { mgr } = await make();
    await say(mgr, 'My coworker Raj has a PhD in physics.', '');
    const formed = await memoriesOf(mgr);
    expect(formed.map((m) => [m.kind, m.metadata.about])).toEqual([['fact', 'Raj']]);
    const hits = await mgr.recall('me', 't', 'What did Raj study?', { reinforce: false });
    expect(hits.map((h) => h.entry.id)).toContain(formed[0]!.id);
  });

  it("an answer is read with the question before it: the other speaker's, or the assistant's reply", async () => {
    const { mgr } = await make();
    await say(mgr, 'Bob: Did you go to the concert on Saturday?', '');
    const { memories } = await say(mgr, 'Ann: Yes, it was amazing, they played for three hours.', '');
    expect(memories.map((m) => [m.kind, m.metadata.about, textOf(m)])).toEqual([
      [
        'event',
        'Ann',
        'Asked "Did you go to the concert on Saturday?": Yes, it was amazing, they played for three hours.',
      ],
    ]);
    const hits = await mgr.recall('me', 't', 'Which concert did Ann go to?', { reinforce: false });
    expect(hits.map((h) => h.entry.id)).toContain(memories[0]!.id);
    // Without speaker names, the user answers what the assistant asked.
    await say(mgr, 'I want to cook something new tonight.', "Nice! What's your favourite food?");
    const food = await say(mgr, 'Definitely sushi.', 'Sushi it is!');
    expect(food.memories.map((m) => [m.kind, m.metadata.about, m.metadata.attribute, m.metadata.value])).toEqual([
      ['preference', 'me', 'favourite food', 'sushi'],
    ]);
  });

  it('dates written "dd.mm.yyyy" and "the Nth of Month" date the event (metadata.at)', async () => {
    const { mgr } = await make();
    await say(mgr, 'I went to Porto on 23.12.2025.', '');
    await say(mgr, 'We met on the 10th of December.', '');
    const at = Object.fromEntries((await memoriesOf(mgr)).map((m) => [textOf(m), m.metadata.at]));
    expect(at).toEqual({
      'I went to Porto on 23.12.2025.': Date.UTC(2025, 11, 23),
      'We met on the 10th of December.': Date.UTC(2025, 11, 10),
    });
  });

  it('a season dates the event: "last summer" is the latest summer that ended before the turn', async () => {
    const { mgr } = await make();
    await say(mgr, 'I went to Bogota on vacation last summer.', '');
    const [m] = await memoriesOf(mgr);
    // Said on 5 January 2026: the summer of 2025.
    expect([textOf(m!), m!.metadata.at]).toEqual(['I went to Bogota on vacation last summer.', Date.UTC(2025, 5, 1)]);
  });

  it("a turn's date lands on the clause that carries content, not on an empty one", async () => {
    const { mgr } = await make();
    await say(mgr, 'Yesterday turned out nice, and I finally finished my thesis.', '');
    const formed = await memoriesOf(mgr);
    expect(formed.map((m) => [m.kind, textOf(m), m.metadata.at])).toEqual([
      ['event', 'I finally finished my thesis.', START - DAY_MS - (START % DAY_MS)],
    ]);
  });

  it('an inline extractor gets the reading the write path made, and its plan.keep decides the tier', async () => {
    const seen: (TurnReading | undefined)[] = [];
    const keepNothing: MemoryExtractor = {
      name: 'skeptic',
      inline: true,
      extract: async (turn) => {
        seen.push(turn.reading);
        return { keep: false, ops: [], dropped: [] };
      },
    };
    const { mgr } = await make({ formation: keepNothing, config: { importanceThreshold: 0 } });
    const { entry, memories } = await say(mgr, 'My sister Ana lives in Lisbon.', 'Nice.');
    // The reading says it carries a statement, but the extractor decided to keep nothing.
    expect(seen[0]?.keep).toBe(true);
    expect(seen[0]?.statements[0]?.about).toBe('Ana');
    expect(entry.tier).toBe('short_term');
    expect(memories).toEqual([]);
    expect(await turnsOf(mgr)).toEqual([]);
  });

  it('an inline extractor that fails rejects the save with FORMATION and stores nothing', async () => {
    const broken: MemoryExtractor = {
      name: 'broken',
      inline: true,
      extract: async () => {
        throw new Error('boom');
      },
    };
    const { mgr, storage } = await make({ formation: broken });
    const err = await say(mgr, 'I live in Porto.', '').catch((e: unknown) => e);
    expect(isZerdaError(err) && err.code).toBe('FORMATION');
    expect(await storage.query({ tenantId: 't' })).toEqual([]);
  });
});
