import { describe, expect, it } from 'vitest';
import { formed, kinds, statementsOf } from './formed.fixture.js';

/**
 * Kinds of memory (issue 28, precision): a liking is said by someone who likes, a task is
 * something to do. Each rule with the near-misses that keep their kind.
 */

describe('readTurn: "like" after a word that is no name', () => {
  it('"is like", "\'re like", "emotions like", "my love for" are no liking', () => {
    for (const text of [
      "We're like a family - always supporting each other.",
      'The people at the shelter have become like family to me.',
      'My team is like my second family too.',
      'I keep bouncing between crazy emotions like relief, excitement and worry!',
      "I'm hoping to share my love of gaming with others.",
    ])
      expect(kinds(text), text).not.toContain('preference');
  });

  it('near-misses: a pronoun, a capitalised name, "my …", two adverbs and "started to" still like', () => {
    expect(formed('Ana loves jazz.')).toEqual(['preference | Ana | Ana loves jazz.']);
    expect(kinds('My kids love the beach.')).toEqual(['preference']);
    expect(kinds('We really like the new place.')).toEqual(['preference']);
    expect(kinds('We both love hiking.')).toEqual(['preference']);
    expect(kinds('And I also don’t like bowling itself, to be honest.')).toEqual(['preference']);
    expect(kinds("I've started to enjoy running in the mornings.")).toEqual(['preference']);
  });
});

describe('readTurn: a cue of the future that is no task', () => {
  it('a purpose, what someone has to do, and what will always be, are no task', () => {
    for (const text of [
      'I have a painting in my room to remind me to stay true and be a leader in everything I do.',
      'Having a routine helps me stay on top of everything I need to do.',
      'I will always love reading, personally.',
      "I'll always be here to support you and give you that boost.",
    ])
      expect(kinds(text), text).not.toContain('task');
  });

  it('near-misses: a plan, a request to be reminded', () => {
    expect(kinds('I need to renew my passport.')).toEqual(['task']);
    expect(kinds('I want you to remind me to call mom tomorrow.')).toEqual(['task']);
    expect(kinds('Remind me to call mom.')).toEqual(['task']);
  });

  it('a reminder asked for as a question is the request it asks, a task', () => {
    expect(formed('Can you remind me to call the dentist tomorrow?')).toEqual([
      'task | Ann | Remind me to call the dentist tomorrow.',
    ]);
    expect(formed("hey could u pls remind me about mom's birthday on friday")).toEqual([
      "task | Ann | Remind me about mom's birthday on friday.",
    ]);
    expect(kinds("Don't let me forget to water the plants tomorrow.")).toEqual(['task']);
    // What the listener is asked to recall is a question.
    expect(formed('Can you remind me what we talked about?')).toEqual([]);
  });
});

describe("readTurn: a step of one's life with its date is an event", () => {
  it('"I graduated last week!" keeps its date; "I graduated in history" is who the speaker is', () => {
    expect(kinds('I graduated last week!')).toEqual(['event']);
    expect(statementsOf('I graduated from college in 2019.').find((s) => s.kind === 'event')?.at).toBe(
      Date.UTC(2019, 0, 1),
    );
    expect(kinds('I graduated in history.')).toEqual(['fact']);
  });
});

describe('readTurn: how the speaker wants to be answered', () => {
  it('a standing instruction is a preference of the speaker, tagged core (always in the prompt)', () => {
    for (const text of [
      'Please always answer in Spanish.',
      "From now on, don't use emojis in your replies.",
      'Never use bullet points.',
      'Always keep your answers short.',
      "please don't call me Samuel",
    ]) {
      const [s, ...rest] = statementsOf(text);
      expect(rest, text).toEqual([]);
      expect(s, text).toMatchObject({ kind: 'preference', about: 'Ann', tags: ['core'] });
      expect(s!.attribute, text).toBeUndefined();
    }
  });

  it('near-misses: advice to the listener, a request said once', () => {
    for (const text of [
      "Don't use the oven.",
      'Never give up!',
      'Always remember to smile.',
      'Can you write me a poem?',
    ])
      expect(
        statementsOf(text).filter((s) => s.kind !== 'conversation'),
        text,
      ).toEqual([]);
    // A liking of anything but the answers is no instruction.
    expect(statementsOf('I prefer short walks.')[0]).not.toHaveProperty('tags');
    expect(statementsOf('I prefer metric units.')[0]).not.toHaveProperty('tags');
  });

  it('how the speaker likes the answers is an instruction too ("I prefer short answers", "Keep your answers brief")', () => {
    for (const text of ['I prefer short answers.', 'Keep your answers brief.', 'Use metric units please.'])
      expect(statementsOf(text)[0], text).toMatchObject({ kind: 'preference', tags: ['core'] });
  });
});
