import { describe, expect, it } from 'vitest';
import type { MemoryEntry, MemoryKind } from '../model/types.js';
import { aboutUser, questionSlots } from './question-slots.js';

const formed = (
  kind: MemoryKind,
  text: string,
  about: string,
  slot: { attribute?: string; value?: string } = {},
  userId = 'me',
): MemoryEntry => ({
  id: text,
  tenantId: 't',
  userId,
  content: { title: slot.attribute ? `${about} · ${slot.attribute}` : about, text },
  tier: 'long_term',
  kind,
  createdAt: 0,
  lastAccess: 0,
  importance: 0.5,
  accessCount: 0,
  tags: [],
  metadata: { about, ...slot, sources: ['turn'] },
  version: 1,
});

const hiking = formed('preference', 'I love hiking in the Alps.', 'me');
const born = formed('fact', 'I was born in 1990.', 'me');
const nurse = formed('fact', 'I work as a nurse.', 'me', { attribute: 'works as', value: 'nurse' });
const lisbon = formed('fact', 'I live in Lisbon.', 'me', { attribute: 'lives in', value: 'Lisbon' });
const village = formed('fact', 'I grew up in a small village near the coast.', 'me');
const labelled = formed('preference', 'User: I prefer tea over coffee.', 'User', {}, 'bench');
const sisterJazz = formed('preference', 'My sister loves jazz.', "me's sister");
const carolinePaints = formed('preference', 'Caroline: I love painting.', 'Caroline', {}, 'bench');
const jamesSails = formed('preference', 'James loves sailing.', 'James');
const chrisJazz = formed('preference', 'Chris: I love jazz.', 'Chris', {}, 'bench');
/** Formed before possessives were read as names: `about` kept the apostrophe. */
const jamesOld = formed('preference', "James's into chess.", "James's");
const turn: MemoryEntry = {
  ...hiking,
  kind: 'conversation',
  content: { input: 'I love hiking', output: '' },
  metadata: {},
};
const MEMORIES = {
  labelled,
  village,
  hiking,
  born,
  nurse,
  lisbon,
  sisterJazz,
  carolinePaints,
  jamesSails,
  chrisJazz,
  jamesOld,
  turn,
};
type Key = keyof typeof MEMORIES;

describe('questionSlots: a formed memory answering what a question asks of its subject', () => {
  it.each([
    ['What are my hobbies?', 'hiking', 1],
    ['What do I enjoy?', 'hiking', 1],
    ['What do I love doing outdoors?', 'hiking', 0.5],
    ['How old am I?', 'born', 1],
    ['When is my birthday?', 'born', 1],
    ['What is my job?', 'nurse', 1],
    ['What do I do for a living?', 'nurse', 1],
    ['Where do I live?', 'lisbon', 1],
    ['Where did I grow up?', 'village', 1],
    ['What do I like to drink?', 'labelled', 0.5],
    ['What does my sister like?', 'sisterJazz', 1],
    ["What are Caroline's hobbies?", 'carolinePaints', 1],
    // A possessive of a name ending in s is the name: "James'", "James's", "James’s" → James.
    ["What are James' hobbies?", 'jamesSails', 1],
    ["What are James's hobbies?", 'jamesSails', 1],
    ['What are James’s hobbies?', 'jamesSails', 1],
    ["What are Chris' hobbies?", 'chrisJazz', 1],
    ["What are Chris's hobbies?", 'chrisJazz', 1],
    // Its text says "James's", which tokenises to the name too (a possessive 's is dropped).
    ["What are James' hobbies?", 'jamesOld', 1],
    ["What are my sister's hobbies?", 'sisterJazz', 1],
    // A subject that includes the asker is the asker, as formation files "My wife and I love hiking".
    ['What do my wife and I enjoy?', 'hiking', 0.5],
    ['What do me and my sister like?', 'hiking', 0.5],
  ] as [string, Key, number][])('%s ↔ %s', (question, key, coverage) => {
    expect(questionSlots(question)(MEMORIES[key])).toBe(coverage);
  });

  it.each([
    // Another subject: the asker's preferences do not answer for the sister, and the reverse.
    ['What does my sister like?', 'hiking'],
    ['What are my hobbies?', 'sisterJazz'],
    ['What do my wife and I enjoy?', 'sisterJazz'],
    ["What are Melanie's hobbies?", 'carolinePaints'],
    // A name that really ends in s is not another name with a possessive, nor the reverse.
    ["What are Chris' hobbies?", 'jamesSails'],
    ["What are Jame's hobbies?", 'jamesSails'],
    ["What are Chri's hobbies?", 'chrisJazz'],
    ["What are my sister's hobbies?", 'jamesSails'],
    // Nobody named: general knowledge is never answered by a slot.
    ['What are the hobbies of a typical teenager?', 'hiking'],
    ['When was Mozart born?', 'born'],
    // The wrong slot, or no slot asked for.
    ['Where do I live?', 'nurse'],
    ['What do I do for a living?', 'lisbon'],
    ['What is my job?', 'hiking'],
    ['Which city is my sibling in?', 'hiking'],
    // Turns carry no subject or kind of their own.
    ['What are my hobbies?', 'turn'],
  ] as [string, Key][])('%s does not read a slot in %s', (question, key) => {
    expect(questionSlots(question)(MEMORIES[key])).toBeUndefined();
  });
});

describe('aboutUser', () => {
  it('the user, one of theirs (by relation, or named and also known by it), or no one of theirs', () => {
    expect(aboutUser(formed('fact', "I can't eat gluten.", 'me'))).toBe('self');
    expect(aboutUser(formed('fact', 'My son has epilepsy.', "me's son"))).toBe('relation');
    const max = formed('fact', 'My son Max is allergic to peanuts.', 'Max');
    expect(aboutUser(max)).toBeUndefined();
    expect(aboutUser({ ...max, metadata: { ...max.metadata, aka: ["me's son"] } })).toBe('relation');
    // Another user's relation is not this one's.
    expect(aboutUser({ ...max, metadata: { ...max.metadata, aka: ["ann's son"] } })).toBeUndefined();
  });
});
