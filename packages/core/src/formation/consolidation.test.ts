import { describe, expect, it } from 'vitest';
import { createEntry } from '../model/entry.js';
import type { JsonValue, MemoryEntry } from '../model/types.js';
import { consolidate, wordOverlap } from './consolidation.js';
import { readTurn } from '../language/turn-reading.js';
import type { FormedStatement } from './types.js';

const NOW = Date.UTC(2023, 4, 8, 12);
const DAY = 86_400_000;

/** A formed memory as the manager stores it. */
function memory(s: FormedStatement): MemoryEntry {
  const metadata: Record<string, JsonValue> = { about: s.about, sources: ['t0'] };
  if (s.attribute) metadata.attribute = s.attribute;
  if (s.value) metadata.value = s.value;
  if (s.at !== undefined) metadata.at = s.at;
  if (s.aka) metadata.aka = s.aka;
  return createEntry('t', { content: { title: s.about, text: s.text }, kind: s.kind, metadata }, NOW);
}
const said = (input: string, createdAt = NOW) => readTurn({ input, userId: 'me', createdAt }).statements[0]!;
/** What consolidating `input` with `known` decides, as `[op, id]` (`id` of the memory it touches). */
const decision = async (input: string, known: MemoryEntry[]) => {
  const d = await consolidate(said(input), known);
  return [d.op, 'id' in d ? d.id : undefined];
};

describe('consolidate', () => {
  it('supersedes the same subject and attribute, both directions', async () => {
    const lisbon = memory(said('I live in Lisbon.'));
    const porto = said('I moved to Porto.');
    expect(await consolidate(porto, [lisbon])).toEqual({ op: 'update', id: lisbon.id, statement: porto });
    const portoMemory = memory(porto);
    const back = said('I moved back to Lisbon last year.');
    expect(await consolidate(back, [portoMemory])).toEqual({ op: 'update', id: portoMemory.id, statement: back });
  });

  it('the same value again is a restatement, whatever the wording', async () => {
    const lisbon = memory(said('I live in Lisbon.'));
    expect(await decision('Hi! I am living in lisbon now.', [lisbon])).toEqual(['reinforce', lisbon.id]);
    const name = memory(said('My name is Jeremy.'));
    expect(await consolidate(said("Hi, I'm Jeremy."), [name])).toMatchObject({ op: 'reinforce', id: name.id });
  });

  it('a time said with a move is no part of the value: a later "I live in Porto" restates it, "I moved to Lisbon" updates it', async () => {
    const moved = memory(said('I moved to Porto in 2019.'));
    expect(moved.metadata).toMatchObject({ attribute: 'lives in', value: 'Porto', at: Date.UTC(2019, 0, 1) });
    expect(await consolidate(said('I live in Porto.'), [moved])).toMatchObject({ op: 'reinforce', id: moved.id });
    expect(await decision('I have been living in Porto for three years.', [moved])).toEqual(['reinforce', moved.id]);
    const lisbon = said('I moved to Lisbon two weeks ago.');
    expect(await consolidate(lisbon, [moved])).toEqual({ op: 'update', id: moved.id, statement: lisbon });
    // And the other way round: the dated statement restates the plain one.
    const live = memory(said('I live in Porto.'));
    expect(await decision('I moved to Porto in 2019.', [live])).toEqual(['reinforce', live.id]);
  });

  it('"my wife and I" fills the speaker\'s slot, never a slot of the wife', async () => {
    const wife = memory(said('My wife lives in Lisbon.'));
    const mine = memory(said('I live in Porto.'));
    const together = said('My wife and I live in Lisbon.');
    expect(await consolidate(together, [wife, mine])).toEqual({ op: 'update', id: mine.id, statement: together });
  });

  it('a paraphrase reinforces instead of duplicating', async () => {
    const allergy = memory(said('I am allergic to peanuts.'));
    expect(await decision('I have a serious peanut allergy.', [allergy])).toEqual(['reinforce', allergy.id]);
  });

  it('unrelated facts do not retire or merge with each other', async () => {
    const sister = memory(said('My sister Ana lives in Lisbon.'));
    const colour = memory(said('My favourite colour is blue.'));
    const allergy = memory(said('I am allergic to peanuts.'));
    const known = [sister, colour, allergy];
    // Another person's residence, another attribute, another allergy: all new.
    expect((await consolidate(said('I live in Porto.'), known)).op).toBe('add');
    expect((await consolidate(said('My favourite food is pizza.'), known)).op).toBe('add');
    expect((await consolidate(said('I am allergic to cats.'), known)).op).toBe('add');
    expect((await consolidate(said('Ana works at the hospital.'), known)).op).toBe('add');
    // The same words from someone else are their own memory.
    expect((await consolidate(said('Bob: I am allergic to peanuts.'), known)).op).toBe('add');
  });

  it('two events days apart are two memories', async () => {
    const first = memory(said('I went hiking yesterday.', NOW));
    expect((await consolidate(said('I went hiking yesterday.', NOW + 10 * DAY), [first])).op).toBe('add');
    expect((await consolidate(said('I went hiking yesterday.', NOW), [first])).op).toBe('reinforce');
  });

  it('uses embedding similarity for paraphrases that share few words', async () => {
    const hiking = memory(said('I love hiking.'));
    const statement = said('I enjoy hiking a lot.');
    expect((await consolidate(statement, [hiking])).op).toBe('add');
    const similarity = async (_: string, others: string[]) => others.map(() => 0.93);
    expect(await consolidate(statement, [hiking], { similarity })).toMatchObject({ op: 'reinforce', id: hiking.id });
    const far = async (_: string, others: string[]) => others.map(() => 0.7);
    expect((await consolidate(statement, [hiking], { similarity: far })).op).toBe('add');
  });

  it('what no longer holds supersedes what said it held, never restates it', async () => {
    const vegetarian = memory(said("I'm vegetarian."));
    expect(await decision("I'm not vegetarian anymore.", [vegetarian])).toEqual(['update', vegetarian.id]);
    expect(await decision("I don't eat meat.", [memory(said('I eat meat.'))])).toEqual(['update', expect.any(String)]);
    // What stopped is all in what it supersedes; when it stopped is not part of it.
    const tennis = memory(said('I play tennis every week.'));
    expect(await decision('I stopped playing tennis.', [tennis])).toEqual(['update', tennis.id]);
    const job = memory(said('I love my job at the bakery.'));
    expect(await decision('I quit my job last week.', [job])).toEqual(['update', job.id]);
    // And back again.
    const notVegan = memory(said("I'm not vegan anymore."));
    expect(await decision("I'm vegan again.", [notVegan])).toEqual(['update', notVegan.id]);
    // An embedding that finds them alike does not make a denial a restatement.
    const similarity = async (_: string, others: string[]) => others.map(() => 0.95);
    expect((await consolidate(said("I don't love hiking."), [memory(said('I love hiking.'))], { similarity })).op).toBe(
      'update',
    );
  });

  it('a denial is read in its own clause: what it denies, and only that', async () => {
    const penicillin = memory(said("I'm allergic to penicillin."));
    expect(await decision("I was wrong, I'm not allergic to penicillin, it's amoxicillin.", [penicillin])).toEqual([
      'update',
      penicillin.id,
    ]);
    const hiking = memory(said('I love hiking.'));
    expect((await consolidate(said("I don't love running, but hiking is great."), [hiking])).op).not.toBe('update');
  });

  it('how many children or pets: a later count supersedes the one before', async () => {
    const two = said('I have two kids.');
    expect([two.attribute, two.value]).toEqual(['number of children', 'two']);
    const kids = memory(two);
    expect(await decision('I have three kids now, we just had a baby!', [kids])).toEqual(['update', kids.id]);
    expect(await decision("We've got two kids.", [kids])).toEqual(['reinforce', kids.id]);
    expect((await consolidate(said('I have two dogs.'), [kids])).op).toBe('add');
  });

  it('where the speaker stands ("I\'m single") is a slot the next step supersedes', async () => {
    const single = said("I'm single.");
    expect([single.kind, single.attribute, single.value]).toEqual(['fact', 'relationship status', 'single']);
    const engaged = said('I just got engaged to Mark!');
    expect([engaged.kind, engaged.value]).toEqual(['event', 'engaged']);
    const known = memory(single);
    expect(await decision('I just got engaged to Mark!', [known])).toEqual(['update', known.id]);
    // Someone else's step is not the speaker's.
    expect((await consolidate(said('My friend Ana just got engaged!'), [known])).op).toBe('add');
  });

  it('a job said as who the speaker is supersedes the one before', async () => {
    const teacher = memory(said("I'm a teacher."));
    expect(await decision("I'm a lawyer now.", [teacher])).toEqual(['update', teacher.id]);
    const nurse = memory(said('I work as a nurse.'));
    expect(await decision("I'm a nurse.", [nurse])).toEqual(['reinforce', nurse.id]);
  });

  it('near-misses: "stopped by", another thing stopped, the same denial again', async () => {
    const mom = memory(said("My mom's place is in Ohio."));
    expect((await consolidate(said("I stopped by my mom's place."), [mom])).op).toBe('add');
    const tennis = memory(said('I play tennis every week.'));
    expect((await consolidate(said('I stopped eating meat.'), [tennis])).op).toBe('add');
    const notVegan = memory(said("I'm not vegan anymore."));
    expect(await decision("I'm not vegan anymore!", [notVegan])).toEqual(['reinforce', notVegan.id]);
  });

  it('a subject said by a relation is the person named with it ("My sister Ana …" then "My sister …")', async () => {
    const ana = said('My sister Ana lives in Lisbon.');
    expect([ana.about, ana.aka]).toEqual(['Ana', ["me's sister"]]);
    const berlin = said('My sister moved to Berlin.');
    expect(await consolidate(berlin, [memory(ana)])).toMatchObject({
      op: 'update',
      statement: { about: 'Ana', aka: ["me's sister"], value: 'Berlin' },
    });
    // Named after the relation: the name is who the memory is about from then on.
    const sister = memory(said('My sister lives in Lisbon.'));
    expect(await consolidate(ana, [sister])).toMatchObject({
      op: 'reinforce',
      id: sister.id,
      statement: { about: 'Ana' },
    });
    // No alias for a plural relation, nor when no relation names them.
    expect(said('My kids Ana and Tom love swimming.').aka).toBeUndefined();
    expect(said('Ana lives in Lisbon.').aka).toBeUndefined();
  });

  it('near-misses: two people who share a relation are not each other, and a relation of two is neither', async () => {
    const ana = memory(said('My friend Ana lives in Lisbon.'));
    expect((await consolidate(said('My friend Raj lives in Paris.'), [ana])).op).toBe('add');
    const raj = memory(said('My friend Raj lives in Paris.'));
    expect((await consolidate(said('My friend moved to Berlin.'), [ana, raj])).op).toBe('add');
  });

  it('a slot said not to hold fills no slot, and supersedes the one it denies', async () => {
    expect(said("I don't live in Lisbon anymore.").attribute).toBeUndefined();
    expect(said('I no longer work at Google.').attribute).toBeUndefined();
    expect(said("I don't live in Lisbon anymore, I moved to Berlin.")).toMatchObject({ value: 'Berlin' });
    const lisbon = memory(said('I live in Lisbon.'));
    expect(await decision("I don't live in Lisbon anymore.", [lisbon])).toEqual(['update', lisbon.id]);
    const google = memory(said('I work at Google.'));
    expect(await decision('I no longer work at Google.', [google])).toEqual(['update', google.id]);
  });

  it('wordOverlap treats word forms alike and penalises very different lengths', () => {
    expect(wordOverlap('I am allergic to peanuts', 'peanut allergy')).toBe(1);
    expect(wordOverlap('I love hiking', 'I love biking')).toBeLessThan(0.75);
    expect(wordOverlap('hiking', 'I went hiking with my brother and his two dogs in the Alps')).toBeLessThan(0.5);
    expect(wordOverlap('?!', 'hiking')).toBe(0);
  });
});
