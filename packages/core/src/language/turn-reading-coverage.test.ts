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

describe("readTurn: showing something of the speaker's own says something about them", () => {
  it('a picture of what the speaker did is an event; of what they have, a fact', () => {
    expect(
      formed("Here's a photo I took at the marathon last spring. [image: a runner crossing a finish line]"),
    ).toEqual(["event | Ann | Here's a photo I took at the marathon last spring."]);
    expect(formed('Check out my new workbench in the garage!')).toEqual([
      'fact | Ann | Check out my new workbench in the garage!',
    ]);
  });

  it('pointing with nothing of the speaker in it, or said to the listener, stays episodic', () => {
    expect(formed('Check out this sunset! [image: a sunset over a lake]')).toEqual([]);
    expect(formed("Here's a pic from the festival!")).toEqual([]);
    expect(formed("I'll show you a photo I took of my garden.")).toEqual([]);
  });
});

describe("readTurn: showing names what it is, and that it is the speaker's", () => {
  it.each([
    ['a picture that names nothing', 'Check out this shot I took!'],
    ['a picture found online', "Here's a picture of the harbour I found online."],
  ])('%s: %s', (_why, text) => {
    expect(formed(text)).toEqual([]);
  });
});
