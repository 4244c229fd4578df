import { describe, expect, it } from 'vitest';
import { readTurn } from './turn-reading.js';

const NOON = Date.UTC(2024, 1, 20, 12); // Tuesday 20 February 2024
/** What `Ann` said to `Bob`, as `kind | about | text` lines of the memories it forms (conversation left out). */
const formed = (text: string) =>
  readTurn({ input: `Ann: ${text}`, userId: 'u', createdAt: NOON }, { listener: 'Bob' })
    .statements.filter((s) => s.kind !== 'conversation')
    .map((s) => `${s.kind} | ${s.about} | ${s.text}`);

describe('readTurn: a statement with a remark after a comma is still a statement', () => {
  it('"I <do something>, it\'s <praise>": the first clause is the speaker\'s, not an opening phrase', () => {
    expect(formed("I'm learning the cello at a community school, it's tough.")).toEqual([
      "fact | Ann | I'm learning the cello at a community school, it's tough.",
    ]);
    expect(formed('Spent the whole weekend repainting my kitchen, which was long overdue!')).toEqual([
      'event | Ann | Spent the whole weekend repainting my kitchen, which was long overdue!',
    ]);
  });

  it('a short opener before a reaction is still left out ("Ben, that sounds …", "I have to say, …")', () => {
    expect(formed('Ben, that sounds like a lovely weekend!')).toEqual([]);
    expect(formed('I have to say, your garden looks stunning.')).toEqual([]);
  });
});

describe('readTurn: a past action with its "I" left out is an event', () => {
  it('"Just got …", "Spent …" are what the speaker did', () => {
    expect(formed('Just got a secondhand road bike.')).toEqual(['event | Ann | Just got a secondhand road bike.']);
    expect(formed('Need a new charger for my laptop.')).not.toContainEqual(expect.stringMatching(/^event/u));
  });
});

describe('readTurn: what the coverage rules above must not form', () => {
  it.each([
    ['a resolve ("Won\'t" is no "won")', "Won't let anything slow me down!"],
    ['a passing state in the past', 'Had a really rough week.'],
    ['a feeling with its "I\'m" left out', 'Excited for the weekend.'],
    ['encouragement of oneself before a remark', "I'm trying to stay positive, but it's hard."],
    ['a clause said to the listener before thanks', "I'll read those articles tonight, thanks a lot!"],
  ])('%s: %s', (_why, text) => {
    expect(formed(text)).toEqual([]);
  });
});
