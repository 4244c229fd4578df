import { describe, expect, it } from 'vitest';
import { MemoryManager } from '../manager/memory-manager.js';
import type { MemoryEntry } from '../model/types.js';
import { InMemoryStorage } from '../storage/in-memory-storage.js';
import { SAFETY_TEXT_RE } from './lexicon.js';
import { SAFETY_WORDS } from './relations.js';
import { readTurn } from './turn-reading.js';

/**
 * Safety facts (issue 28): an allergy, a medical condition or a dietary limit stated of the
 * speaker, a relation or a person named is a fact about them, and reaches the prompt of a food or
 * health question; passing ailments, questions, negations, the listener's condition and remarks
 * about everyone are none.
 */

const NOON = Date.UTC(2026, 0, 5, 12);
const textOf = (m: MemoryEntry) => ('text' in m.content ? m.content.text : '');

async function make() {
  return MemoryManager.create({ storage: new InMemoryStorage(), clock: () => NOON, owner: 'u' });
}
/** What `u` forms from `text` said alone: one `kind | about | text` line per memory. */
async function formed(text: string): Promise<string[]> {
  const mgr = await make();
  await mgr.saveInteraction('u', 'default', text, '');
  const memories = await mgr.listMemories('u', 'default', { kinds: ['fact', 'preference', 'event', 'task'] });
  await mgr.close();
  return memories.map((m) => `${m.kind} | ${String(m.metadata.about)} | ${textOf(m)}`);
}
/** The rule that decided each statement `Ann` makes in `text` (Bob the other speaker). */
const rules = (text: string) =>
  readTurn({ input: `Ann: ${text}`, userId: 'u', createdAt: NOON }, { listener: 'Bob' }).statements.map((s) =>
    SAFETY_TEXT_RE.test(s.text) && s.kind === 'fact' ? 'safety fact' : s.kind,
  );

describe('safety facts: formed through MemoryManager', () => {
  it('a condition or a dietary limit of the speaker is a fact about the speaker', async () => {
    for (const text of [
      'I have type 2 diabetes.',
      "I can't eat gluten.",
      "I don't eat pork.",
      "I'm vegetarian.",
      "I'm vegan.",
      'I keep kosher.',
      'I eat halal.',
      "I'm pregnant.",
      'I have high blood pressure.',
      'I have a heart condition.',
      'I have IBS.',
      "I have Crohn's disease.",
      'I have kidney disease.',
      "I'm epileptic.",
      'I have a severe peanut allergy.',
      "I can't have dairy.",
      'I have to avoid shellfish.',
    ])
      expect(await formed(text), text).toEqual([`fact | u | ${text}`]);
    // The clause that states it is the fact; what follows it is said with it in the turn.
    expect(await formed('I have asthma, so I carry an inhaler.')).toEqual(['fact | u | I have asthma']);
  });

  it('whom it is about: a relation, a person named, the speaker of "Name: …"', async () => {
    expect(await formed('My son has epilepsy.')).toEqual(["fact | u's son | My son has epilepsy."]);
    expect(await formed('My daughter is allergic to shellfish.')).toEqual([
      "fact | u's daughter | My daughter is allergic to shellfish.",
    ]);
    expect(await formed('Raj is diabetic.')).toEqual(['fact | Raj | Raj is diabetic.']);
    expect(await formed("Raj can't eat peanuts.")).toEqual(["fact | Raj | Raj can't eat peanuts."]);
    expect(await formed('Ana: I have celiac disease')).toEqual(['fact | Ana | I have celiac disease']);
    // Typed in lower case, the name is still whom it is about.
    expect(await formed('raj is allergic to peanuts')).toEqual(['fact | Raj | raj is allergic to peanuts']);
  });

  it('near-misses form no safety fact', async () => {
    // A passing ailment: at most an event, by the rules that read time.
    expect(await formed('I have a cold today')).toEqual(['event | u | I have a cold today']);
    expect(await formed('I have a bad cold.')).toEqual([]);
    for (const text of [
      'I have a headache',
      'I have a meeting',
      'Do you have asthma?',
      'Gluten is bad for you',
      "I'm not vegetarian.",
      "I don't have diabetes.",
      "I'm not allergic to anything.",
      'Everyone is vegan.',
    ])
      expect(await formed(text), text).toEqual([]);
    // A habit said of these days, or of now, is what the rules for the speaker make of it, not a limit.
    for (const text of ["I don't eat breakfast much these days", "I can't eat another bite."])
      expect(
        (await formed(text)).filter((m) => SAFETY_TEXT_RE.test(m)),
        text,
      ).toEqual([]);
  });

  it('a food question gets none of the near-misses as a safety fact', async () => {
    const mgr = await make();
    for (const text of [
      'I have a cold today',
      'I have a headache',
      'I have a meeting',
      "I don't eat breakfast much these days",
      "I can't eat another bite.",
      'Gluten is bad for you',
    ])
      await mgr.saveInteraction('u', 'default', text, '');
    await mgr.flush();
    const hits = await mgr.recall('u', 'default', 'What snack should I buy for the road trip?', { reinforce: false });
    expect(hits.filter((h) => h.reason === 'safety')).toEqual([]);
    await mgr.close();
  });

  it('they survive a year of maintenance with the default configuration', async () => {
    let now = NOON;
    const mgr = await MemoryManager.create({ storage: new InMemoryStorage(), clock: () => now, owner: 'u' });
    const said = ["I can't eat gluten.", "I don't eat pork.", 'My son has epilepsy.', "I'm vegan."];
    for (const text of said) await mgr.saveInteraction('u', 'default', text, 'Noted.');
    for (let day = 0; day < 365; day += 30) {
      now += 30 * 86_400_000;
      await mgr.runMaintenance('default');
    }
    const left = await mgr.listMemories('u', 'default', { kinds: ['fact'] });
    expect(left.map(textOf).sort()).toEqual([...said].sort());
    await mgr.close();
  });

  it("in a chat of two, the other speaker's condition is not the speaker's", async () => {
    const mgr = await make();
    await mgr.saveInteraction('u', 'default', 'Bob: I just got back from my run.', '');
    await mgr.saveInteraction('u', 'default', 'Ann: You have asthma, right?', '');
    await mgr.saveInteraction('u', 'default', 'Ann: You have asthma.', '');
    expect(await mgr.listMemories('u', 'default', { kinds: ['fact'] })).toEqual([]);
    expect(rules('You have asthma.')).toEqual(['conversation']);
    expect(rules('Bob has asthma.')).toEqual(['safety fact']);
  });
});

describe('safety facts: a food question gets them', () => {
  it('"What snack should I buy for the road trip?" gets the formed facts, reason safety', async () => {
    const mgr = await make();
    for (const text of [
      'I have type 2 diabetes.',
      "I can't eat gluten.",
      'My son has epilepsy.',
      'We repainted the fence on Sunday, it took all day.',
      'My sister Ana lives in Lisbon.',
      'I bought a new bike last week.',
    ])
      await mgr.saveInteraction('u', 'default', text, '');
    await mgr.flush();
    const q = 'What snack should I buy for the road trip?';
    const safety = (await mgr.recall('u', 'default', q, { reinforce: false })).filter((h) => h.reason === 'safety');
    // The formed facts rather than the turns they came from.
    expect(safety.map((h) => [h.entry.kind, textOf(h.entry)]).sort()).toEqual([
      ['fact', "I can't eat gluten."],
      ['fact', 'I have type 2 diabetes.'],
      ['fact', 'My son has epilepsy.'],
    ]);
    const ctx = await mgr.buildContext('u', 'default', q);
    const inPrompt = ctx.recalled.filter((h) => h.reason === 'safety').map((h) => textOf(h.entry));
    expect(inPrompt).toContain('I have type 2 diabetes.');
    expect(inPrompt).toContain("I can't eat gluten.");
    expect(ctx.text).toContain('I have type 2 diabetes.');
    await mgr.close();
  });

  it('"she\'s vegetarian" after "My wife is coming with me" is the wife\'s limit, kept once the turns are gone', async () => {
    const mgr = await make();
    await mgr.saveInteraction('u', 'default', 'My wife is coming with me to Porto next week.', 'How lovely!');
    await mgr.saveInteraction('u', 'default', "she's vegetarian btw", 'Good to know.');
    await mgr.flush();
    const facts = await mgr.listMemories('u', 'default', { kinds: ['fact'] });
    const diet = facts.find((m) => /vegetarian/u.test(textOf(m)));
    expect([textOf(diet!), diet!.metadata.about]).toEqual(["About my wife: she's vegetarian btw", "u's wife"]);
    // The turns themselves fade (forgotten, or deleted by the user); what was formed of them stays.
    for (const turn of await mgr.listMemories('u', 'default', { kinds: ['conversation'] }))
      await mgr.deleteMemory('u', 'default', turn.id);
    await mgr.clearShortTerm('u', 'default');
    const ctx = await mgr.buildContext('u', 'default', 'What snack should I buy for the road trip?');
    expect(ctx.recalled.filter((h) => h.reason === 'safety').map((h) => textOf(h.entry))).toEqual([
      "About my wife: she's vegetarian btw",
    ]);
    await mgr.close();
  });

  it('a limit the user says no longer holds reaches no food question', async () => {
    const mgr = await make();
    await mgr.saveInteraction('u', 'default', "I'm vegetarian.", '');
    await mgr.saveInteraction('u', 'default', "I can't eat gluten.", '');
    await mgr.saveInteraction('u', 'default', "Actually I'm not vegetarian anymore, I eat fish now.", '');
    await mgr.flush();
    const facts = await mgr.listMemories('u', 'default', { kinds: ['fact'] });
    // The correction supersedes the fact (kept in its history), it does not restate it.
    const diet = facts.find((m) => /vegetarian/u.test(textOf(m)));
    expect(textOf(diet!)).toBe("I'm not vegetarian anymore, I eat fish now.");
    expect(diet!.metadata.history).toHaveLength(1);
    const q = 'What snack should I buy for the road trip?';
    const ctx = await mgr.buildContext('u', 'default', q);
    expect(ctx.text).toContain("I can't eat gluten.");
    expect(ctx.recalled.map((h) => textOf(h.entry))).not.toContain("I'm vegetarian.");
    await mgr.close();
  });

  it("who said it and of whom: the user's own and their people's, never the listener's, the assistant's or a named person's", async () => {
    const mgr = await make();
    await mgr.saveInteraction('u', 'default', "I can't eat gluten.", 'Noted.');
    await mgr.saveInteraction('u', 'default', 'My son has epilepsy.', '');
    // The other speaker of a transcript, talking to the user; the assistant; someone named.
    await mgr.saveInteraction('u', 'default', 'Ann: You have asthma.', '');
    await mgr.saveInteraction('u', 'default', 'Ann: I am allergic to shellfish.', '');
    await mgr.saveInteraction('u', 'default', 'What should I cook tonight?', 'You are lactose intolerant, remember.');
    await mgr.saveInteraction('u', 'default', 'Raj is diabetic.', '');
    await mgr.saveInteraction('u', 'default', 'Lea told me she is vegan.', '');
    await mgr.flush();
    const q = 'What snack should I buy for the road trip?';
    const safety = (await mgr.recall('u', 'default', q, { reinforce: false })).filter((h) => h.reason === 'safety');
    expect(safety.map((h) => textOf(h.entry)).sort()).toEqual(["I can't eat gluten.", 'My son has epilepsy.']);
    const ctx = await mgr.buildContext('u', 'default', q);
    expect(
      ctx.recalled
        .filter((h) => h.reason === 'safety')
        .map((h) => textOf(h.entry))
        .sort(),
    ).toEqual(["I can't eat gluten.", 'My son has epilepsy.']);
    expect(ctx.text).toContain("I can't eat gluten.");
    expect(ctx.text).toContain('My son has epilepsy.');
    await mgr.close();
  });

  it('every one of four allergies and a diet reaches the question, not the first three', async () => {
    const mgr = await make();
    const said = [
      'I am allergic to peanuts.',
      'I am allergic to shellfish.',
      'I am allergic to eggs.',
      'I am allergic to sesame.',
      "I'm vegetarian.",
    ];
    for (const text of said) await mgr.saveInteraction('u', 'default', text, '');
    await mgr.saveInteraction('u', 'default', 'I bought a new bike last week.', '');
    await mgr.flush();
    const q = 'What snack should I buy for the road trip?';
    const safety = (await mgr.recall('u', 'default', q, { reinforce: false })).filter((h) => h.reason === 'safety');
    expect(safety.map((h) => textOf(h.entry)).sort()).toEqual([...said].sort());
    const ctx = await mgr.buildContext('u', 'default', q);
    for (const text of said) expect(ctx.text).toContain(text);
    await mgr.close();
  });

  it('the words of the issue are in the one safety table recall searches with', () => {
    for (const w of [
      'celiac',
      'diabetic',
      'epilepsy',
      'kidney',
      'blood',
      'ibs',
      "crohn's",
      'nut',
      'peanut',
      'shellfish',
      'halal',
      'kosher',
      'vegan',
      'vegetarian',
      'pregnant',
    ])
      expect(SAFETY_WORDS, w).toContain(w);
    for (const text of [
      "I can't eat gluten.",
      "I don't eat pork.",
      'I have high blood pressure.',
      'I have a heart condition.',
      'My son has epilepsy.',
      "I have Crohn's disease.",
      'We only eat dairy-free food.',
      'I have a tree-nut allergy.',
    ])
      expect(SAFETY_TEXT_RE.test(text), text).toBe(true);
    for (const text of [
      'I had chicken for dinner.',
      'My heart is full.',
      'The restaurant is vegan-friendly.',
      "I don't eat breakfast much these days",
      'I bought nutmeg.',
    ])
      expect(SAFETY_TEXT_RE.test(text), text).toBe(false);
  });
});
