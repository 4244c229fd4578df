import { describe, expect, it } from 'vitest';
import { restoreApostrophes } from './chat-text.js';
import { formed } from './formed.fixture.js';

/** Typed chat (issue 28): what people leave out when they type, put back before a turn is read. */

describe('restoreApostrophes', () => {
  it('puts back the apostrophe of a contraction typed without one, in the case it was typed', () => {
    expect(restoreApostrophes('im so tired i cant sleep')).toBe("I'm so tired I can't sleep");
    expect(restoreApostrophes('Dont wait up, youre late')).toBe("Don't wait up, you're late");
    expect(restoreApostrophes('THATS HUGE')).toBe("THAT'S HUGE");
    expect(restoreApostrophes('whats up, hows the new job')).toBe("what's up, how's the new job");
  });

  it('"its", "lets", "ill" and "id" only where the next word makes them a contraction', () => {
    expect(restoreApostrophes('its been a while')).toBe("it's been a while");
    expect(restoreApostrophes('the dog wagged its tail')).toBe('the dog wagged its tail');
    expect(restoreApostrophes('lets grab coffee')).toBe("let's grab coffee");
    expect(restoreApostrophes('she lets me borrow her car')).toBe('she lets me borrow her car');
    expect(restoreApostrophes('ill be there at six')).toBe("I'll be there at six");
    expect(restoreApostrophes('I was ill all week')).toBe('I was ill all week');
    expect(restoreApostrophes('id love to come')).toBe("I'd love to come");
    expect(restoreApostrophes('I lost my id card')).toBe('I lost my id card');
  });

  it('words that are words of their own stay as typed', () => {
    for (const s of ['we were there', 'all is well', 'what the hell', 'they wed in June', 'the shed is full'])
      expect(restoreApostrophes(s)).toBe(s);
  });

  it('a lone "i" becomes "I"; "i.e." and a list\'s "i)" do not', () => {
    expect(restoreApostrophes("i think i'm ready, i've packed")).toBe("I think I'm ready, I've packed");
    expect(restoreApostrophes('two options, i.e. this one')).toBe('two options, i.e. this one');
    expect(restoreApostrophes('i) flour ii) sugar')).toBe('i) flour ii) sugar');
    expect(restoreApostrophes('a wi-fi code')).toBe('a wi-fi code');
  });
});

describe('readTurn: a turn typed without apostrophes forms what the punctuated one does', () => {
  it.each([
    ['im allergic to peanuts.', "I'm allergic to peanuts."],
    ['ive been learning the violin since march.', "I've been learning the violin since march."],
    ['i dont eat meat anymore.', "I don't eat meat anymore."],
    ['my sister just moved to Lisbon, shes a nurse there.', "my sister just moved to Lisbon, she's a nurse there."],
  ])('%s', (typed, punctuated) => {
    const got = formed(typed);
    expect(got).not.toEqual([]);
    expect(got).toEqual(formed(punctuated));
  });
});
