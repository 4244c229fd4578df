import { describe, expect, it } from 'vitest';
import { readQuery } from './query-reading.js';

describe('readQuery: the frame of a question that asks for a guess', () => {
  it('drops the words that say how sure the answer may be or where to look, keeping what is asked', () => {
    const r = readQuery('Based on the conversations, would Caroline likely pursue writing as a career?', 0);
    expect([...r.terms].sort()).toEqual(['career', 'carolin', 'pursu', 'write']);
    expect(r.keywords).toEqual(['caroline', 'pursue', 'writing', 'career']);
    expect(readQuery('What might John potentially do, considering his budget?', 0).keywords).toEqual([
      'john',
      'budget',
    ]);
  });

  it("does not read 'likely' as a liking: no preference question is asked", () => {
    expect(readQuery('Would Tim likely visit Ireland?', 0).slots.asked).toEqual([]);
    expect(readQuery('What would Tim like to visit?', 0).slots.asked).toHaveLength(1);
  });
});

describe('readQuery: a question as typed in a chat app (no capitals, apostrophes or question mark)', () => {
  /** The people a store of chats between Priya and Tomasz knows (speakers, folded). */
  const PEOPLE = new Set(['priya', 'tomasz', 'ines']);

  it("reads a known person's name typed in lower case as the name", () => {
    const r = readQuery('where does priya live', 0, PEOPLE);
    expect(r.names).toEqual(['priya']);
    expect(r.slots.asked.map((a) => a.cue.asks[0])).toEqual(['live']);
    expect(r.text).toBe('where does Priya live');
    // Two people, one of them first: a name the store knows is a name at the start too.
    expect(readQuery('tomasz and ines went where last summer', 0, PEOPLE).names).toEqual(['tomasz', 'ines']);
    // As written with care, the same reading.
    expect(readQuery('Where does Priya live?', 0, PEOPLE).names).toEqual(['priya']);
  });

  it('reads a possessive typed without its apostrophe, when its stem is a known person', () => {
    const r = readQuery('whats tomaszs job', 0, PEOPLE);
    expect(r.text).toBe("what's Tomasz's job");
    expect(r.names).toEqual(['tomasz']);
    expect(r.keywords).toEqual(['tomasz', 'job']);
    expect(r.slots.asked.map((a) => a.cue.asks[0])).toEqual(['job']);
    expect(readQuery('Priyas favourite band', 0, PEOPLE).names).toEqual(['priya']);
    // Someone the store knows as "Ines" and someone it knows as "Iness" are two people.
    expect(readQuery('what does iness do', 0, new Set(['ines', 'iness'])).names).toEqual(['iness']);
  });

  it('leaves a name alone when the store knows no such person (nothing to read it against)', () => {
    expect(readQuery('where does priya live', 0).names).toEqual([]);
    expect(readQuery('where does marta live', 0, PEOPLE).names).toEqual([]);
    // A longer name, or a handle, that starts with one is someone else.
    expect(readQuery('where does priyanka live', 0, PEOPLE).names).toEqual([]);
    expect(readQuery('what did priya2000 post', 0, PEOPLE).text).toBe('what did priya2000 post');
    expect(readQuery('what are the names of priyas dogs', 0, new Set(['tomasz'])).keywords).toContain('priyas');
  });

  it('never reads an everyday word as a name, even when someone is called so', () => {
    const people = new Set(['will', 'may', 'bill', 'june', 'hope', 'mark']);
    expect(readQuery('what will i do in june', 0, people).names).toEqual([]);
    expect(readQuery('may i pay the bill later', 0, people).names).toEqual([]);
    expect(readQuery('where did i mark the trail i hope to hike', 0, people).names).toEqual([]);
    expect(readQuery('when is the water bills due date', 0, people).text).toBe('when is the water bills due date');
    // Capitalised, they are still names.
    expect(readQuery('What did Bill cook?', 0, people).names).toEqual(['bill']);
    // "in june" is still a month.
    expect(readQuery('what did we do in june', Date.UTC(2026, 7, 1), people).timeRanges).toHaveLength(1);
  });

  it('reads contractions typed without the apostrophe as their contractions', () => {
    expect(readQuery('hows tomasz doing', 0, PEOPLE).text).toBe("how's Tomasz doing");
    expect(readQuery('why didnt ines come', 0, PEOPLE).text).toBe("why didn't Ines come");
    expect(readQuery('what should i bring when im hiking', 0).text).toBe("what should I bring when I'm hiking");
    // "were", "well", "its own" are words.
    expect(readQuery('were the wells on its own land', 0).text).toBe('were the wells on its own land');
  });

  it('reads a question without its question mark as a question, so it may ask about the world', () => {
    for (const q of [
      'whats the capital of peru',
      'hows the weather in oslo today',
      'in which year did the berlin wall fall',
      'for how long do eggs keep in the fridge',
      'according to the news, what happened in rome',
      'so what is the tallest mountain in africa',
      'is pluto a planet',
    ])
      expect(readQuery(q, 0).personal, q).toBe(false);
    // A bare topic searches the store; "to do" does not ask anything.
    for (const q of ['outdoor activities with friends', 'to do list for the weekend', 'weekend plans, hiking'])
      expect(readQuery(q, 0).personal, q).toBe(true);
  });
});
