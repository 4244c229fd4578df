import { describe, expect, it } from 'vitest';
import { readTurn } from './turn-reading.js';

/**
 * Fragments whose referent is in the speaker's own turn before (issue 28, precision): a "they"
 * first in a turn stands for what the speaker named in their turn before the other speaker's
 * ("my dogs"), said in front of it; with nothing of the kind named there, it forms nothing.
 */

const NOON = Date.UTC(2024, 1, 20, 12); // Tuesday 20 February 2024
/** The memories Ann forms from `text`, after her own `own` turns (newest first) and Bob's `reply`. */
const formed = (text: string, reply: string, ...own: string[]) =>
  readTurn(
    { input: `Ann: ${text}`, userId: 'u', createdAt: NOON },
    { previous: { input: `Bob: ${reply}` }, earlier: own.map((t) => ({ input: t })) },
  )
    .statements.filter((s) => s.kind !== 'conversation')
    .map((s) => `${s.kind} | ${s.about} | ${s.text}`);

describe("readTurn: a 'they' for what the speaker named in their own turn before", () => {
  it('says what "they" is, from the speaker\'s turn before the reply', () => {
    expect(
      formed(
        'Thanks! They have tons of energy and love meeting new pals at playdates.',
        'Wow, looks like fun!',
        'Ann: Last Friday I took my dogs to the park.',
      ),
    ).toEqual(['fact | Ann | About my dogs: They have tons of energy and love meeting new pals at playdates.']);
  });

  it('a "they" clause too short to stand alone stands with what it stands for', () => {
    expect(
      formed('They mean the world to me.', 'You have such a strong bond with them!', 'Ann: My dogs make me happy.'),
    ).toEqual(['fact | Ann | About my dogs: They mean the world to me.']);
  });

  it("follows the speaker's turns that go on saying 'them' back to the one that names them", () => {
    expect(
      formed(
        'They need exercise and to explore every day.',
        'They look so happy out there!',
        'Ann: When I take them out, we usually play fetch.',
        'Bob: Do you walk them every day?',
        'Ann: My pups love the beach.',
      ),
    ).toEqual(['fact | Ann | About my pups: They need exercise and to explore every day.']);
  });

  it('a statement whose "them" nothing before it in the turn names says what the speaker named before', () => {
    expect(
      formed(
        "Thanks! Your words of encouragement mean a lot. It's tough, but I'm devoted to keeping them healthy and happy.",
        'Keep up the good work!',
        'Ann: My dogs have been acting strange lately.',
      ),
    ).toEqual(["fact | Ann | About my dogs: I'm devoted to keeping them healthy and happy."]);
    // What the turn names before it is what "them" stands for.
    expect(
      formed(
        "Cats are so calm. It's tough, but I'm devoted to keeping them healthy and happy.",
        'Keep up the good work!',
        'Ann: My dogs have been acting strange lately.',
      ),
    ).not.toContainEqual(expect.stringContaining('About my dogs'));
  });

  it('forms nothing when no turn of the speaker before names anything of theirs, or another turn is between', () => {
    const they = 'They have tons of energy and love meeting new pals at playdates.';
    expect(formed(they, 'Wow, looks like fun!', 'Ann: We went to the park last Friday.')).toEqual([]);
    expect(formed(they, 'Wow, looks like fun!', 'Bob: My dogs love the park.')).toEqual([]);
    expect(formed(they, 'Wow, looks like fun!', 'Ann: I keep thinking about my goals.')).toEqual([]);
  });

  it('near-misses: "they" for what the turn names before it, or a "they" that only agrees', () => {
    expect(
      formed(
        'Animals are great! They really bring so much joy.',
        'People who love dogs are awesome.',
        'Ann: I took my dogs to the park.',
      ),
    ).toEqual([]);
    expect(
      formed(
        'A pet would truly be great for you! They bring so much love and happiness.',
        "I've been thinking about getting a pet.",
        'Ann: My dogs are so sweet.',
      ),
    ).toEqual([]);
    expect(
      formed(
        'They really do, bringing loads of love and happiness.',
        'Pets make everything better.',
        'Ann: My dogs love the park.',
      ),
    ).toEqual([]);
  });
});

describe("readTurn: a 'they' for what the other speaker just named as the listener's (coverage 5)", () => {
  it('"… your pets!" → "They are the source of my joy": the speaker\'s pets', () => {
    expect(formed('They are the source of my joy.', "It's great that you care so much about your pets!")).toEqual([
      'fact | Ann | About my pets: They are the source of my joy.',
    ]);
    expect(
      formed("They're all mutts, but two of them are Lab mixes.", 'Your pups look like such a fun bunch!'),
    ).toEqual(["fact | Ann | About my pups: They're all mutts, but two of them are Lab mixes."]);
  });

  it("near-misses: the speaker's own named before wins; thoughts or interests are no one; a reaction stays one", () => {
    expect(formed('They mean the world to me.', 'Your kids are adorable.', 'Ann: My dogs make me happy.')).toEqual([
      'fact | Ann | About my dogs: They mean the world to me.',
    ]);
    expect(
      formed('They asked for some tips on their game.', 'It must be nice when people share your interests.'),
    ).toEqual([]);
    expect(formed("They're so cute!", 'Your kids are adorable.')).toEqual([]);
  });
});

describe("readTurn: a question of few words asks of the speaker's own turn before it", () => {
  it('"What inspired you?", "Where are you going to live?": the answer is quoted with the question and what it asks of', () => {
    expect(
      formed(
        "I painted it after a trip to my grandma's cabin.",
        'Wow! What inspired you?',
        'Ann: I painted a lake sunrise last year.',
      ),
    ).toEqual([
      `event | Ann | Asked "What inspired you?" about "I painted a lake sunrise last year.": I painted it after a trip to my grandma's cabin.`,
    ]);
    expect(
      formed(
        'We found it last week, an apartment close to the harbour.',
        "That's great news! Where are you going to live?",
        'Ann: Sam and I have decided to move in together!',
      ),
    ).toHaveLength(1);
    expect(
      formed(
        'We found it last week, an apartment close to the harbour.',
        "That's great news! Where are you going to live?",
        'Ann: Sam and I have decided to move in together!',
      )[0],
    ).toContain('Asked "Where are you going to live?" about "Sam and I have decided to move in together!": ');
  });

  it("near-misses: a yes/no question, one that asks how the listener is, or no turn of the speaker's before", () => {
    for (const [text, reply] of [
      ["I painted it after a trip to my grandma's cabin.", 'Nice! Did you celebrate?'],
      ["I painted it after a trip to my grandma's cabin.", 'Nice! How have you been?'],
    ])
      for (const line of formed(text!, reply!, 'Ann: I painted a lake sunrise last year.'))
        expect(line).not.toContain(' about "');
    expect(formed("I painted it after a trip to my grandma's cabin.", 'Wow! What inspired you?')).toEqual([]);
    expect(
      formed("I painted it after a trip to my grandma's cabin.", 'Wow! What inspired you?', 'Bob: I painted a lake.'),
    ).toEqual([]);
  });
});

describe("readTurn: a 'they' the question before does not name stands for the speaker's own", () => {
  it('asked what names nothing in the plural, "they" is what the speaker named before, said in front of it', () => {
    expect(
      formed(
        'Yes, they bring me such joy.',
        'And how long have you been prioritizing your health?',
        'Ann: My kids love the swings at the park.',
      ),
    ).toEqual(["fact | Ann's kids | About my kids: Yes, they bring me such joy."]);
  });
});

describe("readTurn: a 'she' or 'he' for the person the speaker named by their relation", () => {
  /** What the user forms from `text` in a chat without speaker names, after their own turn `before`. */
  const user = (text: string, before?: string) =>
    readTurn(
      { input: text, userId: 'u', createdAt: NOON },
      before !== undefined ? { previous: { input: before, output: 'Sounds lovely!' } } : {},
    )
      .statements.filter((s) => s.kind !== 'conversation')
      .map((s) => `${s.kind} | ${s.about} | ${s.text}${s.attribute ? ` | ${s.attribute} = ${s.value}` : ''}`);

  it('in the same turn: what "she" is said to be is the statement about her, of its kind and slot', () => {
    expect(user("My wife is coming too. She's vegetarian.")).toEqual([
      "fact | u's wife | My wife is coming too. She's vegetarian.",
    ]);
    expect(user('My sister just had a baby. She lives in Porto now.')).toEqual([
      "event | u's sister | My sister just had a baby. She lives in Porto now. | lives in = Porto",
    ]);
  });

  it('first in the turn: the person the user named in their own turn before, said in front of it', () => {
    expect(user("she's vegetarian btw", 'My wife is coming with me to Porto.')).toEqual([
      "fact | u's wife | About my wife: she's vegetarian btw",
    ]);
    expect(user("He's allergic to peanuts.", 'My son Max starts school on Monday.')).toEqual([
      "fact | Max | About Max: He's allergic to peanuts.",
    ]);
    // In a chat of named speakers: the speaker's turn before the other speaker's.
    expect(
      formed('She just got a job at Google!', "Wow, that's a big change!", 'Ann: My sister moved back home.'),
    ).toEqual(["fact | Ann's sister | About my sister: She just got a job at Google!"]);
  });

  it('near-misses: a pronoun that cannot be theirs, a remark, someone else named in between', () => {
    expect(user("he's vegetarian btw", 'My wife is coming with me to Porto.')).toEqual([]);
    expect(user('She thinks it is a great idea.', 'My wife is coming with me to Porto.')).toEqual([]);
    expect(user("he's vegetarian btw", 'I am going to Porto.')).toEqual([]);
    expect(formed("She's vegetarian.", 'My sister is visiting too!', 'Ann: My wife is coming with me.')).toEqual([]);
  });
});
