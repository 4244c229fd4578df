import { describe, expect, it } from 'vitest';
import { readTurn } from './turn-reading.js';

/**
 * Coverage, part 3 (issue 28): statements the rules used to leave episodic though they say what
 * the speaker values, means to do, plans with a date or shows of their own, each with the
 * near-misses that must still form nothing.
 */

const NOON = Date.UTC(2024, 1, 20, 12); // Tuesday 20 February 2024
/** The memories `Ann` forms from `text` (Bob the other speaker): one `kind | about | text` line each. */
const formed = (text: string) =>
  readTurn({ input: `Ann: ${text}`, userId: 'u', createdAt: NOON }, { listener: 'Bob' })
    .statements.filter((s) => s.kind !== 'conversation')
    .map((s) => `${s.kind} | ${s.about} | ${s.text}`);
const none = (texts: string[]) => {
  for (const text of texts) expect(formed(text), text).toEqual([]);
};

describe('readTurn: what matters to the speaker', () => {
  it('a thing or a person of the speaker that matters to them is a fact of the speaker', () => {
    expect(formed('Friendship means a lot to me.')).toEqual(['fact | Ann | Friendship means a lot to me.']);
    expect(formed('Nature is so therapeutic for me.')).toEqual(['fact | Ann | Nature is so therapeutic for me.']);
    expect(formed("Family's super important to me.")).toEqual(["fact | Ann | Family's super important to me."]);
    expect(formed('My family has been my rock through everything.')).toEqual([
      'fact | Ann | My family has been my rock through everything.',
    ]);
  });

  it('thanks to the listener, a pronoun said of elsewhere, or what only suits, form nothing', () => {
    none([
      'Your support means a lot to me.',
      'They mean the world to me.',
      'It means a lot to me.',
      'Saturday works for me!',
      'Nah, no changes for me.',
    ]);
  });
});

describe('readTurn: what the speaker is eager, or hopes, to do', () => {
  it('looking forward to doing something the clause names is a fact of the speaker', () => {
    expect(formed("I'm so excited to learn about Japanese culture and get a chance to expand.")).toEqual([
      "fact | Ann | I'm so excited to learn about Japanese culture and get a chance to expand.",
    ]);
    expect(formed("I'm thrilled to make a family for kids who need one.")).toEqual([
      "fact | Ann | I'm thrilled to make a family for kids who need one.",
    ]);
    expect(formed("I hope to build my own family and put a roof over kids who haven't had that before.")).toEqual([
      "fact | Ann | I hope to build my own family and put a roof over kids who haven't had that before.",
    ]);
    expect(formed('I\'m really excited to watch this new show called "The Wheel of Time".')).toEqual([
      'fact | Ann | I\'m really excited to watch this new show called "The Wheel of Time".',
    ]);
  });

  it('to see or hear, a pronoun, the listener, a vague good or too few words stay a feeling', () => {
    none([
      "I'm excited to see what the future holds.",
      "I'm excited to give it a try.",
      "I'm excited to hear how you reach out and help those kids.",
      "I'm excited to work hard and make a positive impact.",
      "I'm stoked to start this new chapter.",
      'I hope to work in the future.',
      'We hope to join you and the furry friends soon!',
    ]);
  });
});

describe('readTurn: a dream or joy of the speaker said with an "it" that stands for what follows', () => {
  it('"It\'s been a dream to …", "It brings me joy to …" are facts of the speaker', () => {
    expect(formed("It's been a dream to adopt and provide a safe, loving home for kids who need it.")).toEqual([
      "fact | Ann | It's been a dream to adopt and provide a safe, loving home for kids who need it.",
    ]);
    expect(formed('It brings me joy to spread that feeling and motivate people to find their own peace.')).toEqual([
      'fact | Ann | It brings me joy to spread that feeling and motivate people to find their own peace.',
    ]);
  });

  it('the listener\'s, a pronoun in what is done, or a bare "it" stay episodic', () => {
    none([
      "It's always a dream to see your favorites performing!",
      'It brings me so much happiness.',
      "It's been a dream to try it.",
    ]);
  });
});

describe('readTurn: a plan with the listener and its date', () => {
  it('"Let\'s … next Saturday", "Can\'t wait to … with you next Saturday" are events ahead', () => {
    const plan = readTurn(
      { input: "Ann: Let's get everything ready and paint next Saturday.", userId: 'u', createdAt: NOON },
      { listener: 'Bob' },
    ).statements.find((s) => s.kind !== 'conversation');
    expect(plan?.kind).toBe('event');
    expect(new Date(plan!.at!).toISOString().slice(0, 10)).toBe('2024-02-24');
    expect(formed("Can't wait to paint with you next Saturday.")).toEqual([
      "event | Ann | Can't wait to paint with you next Saturday.",
    ]);
  });

  it('no date, nothing planned, a pronoun, or no one to do it with form nothing', () => {
    none([
      "Let's paint together sometime!",
      'Let’s make tomorrow unforgettable, Bob.',
      "Let's make some awesome memories tomorrow at the grand opening!",
      "Let's do it next month when the weather is more pleasant.",
      "Let's plan for next month.",
      "Can't wait to visit next month.",
    ]);
  });
});

describe('readTurn: wishing to do something named', () => {
  it('"I really wish I could …" with what the speaker would do is a preference', () => {
    expect(formed('I really wish I could go on a road trip with a furry companion.')).toEqual([
      'preference | Ann | I really wish I could go on a road trip with a furry companion.',
    ]);
  });

  it('a pronoun, the listener, a picture or too few words form nothing', () => {
    none([
      'I wish I could do that more often.',
      'I wish I could make it the way you do!',
      'Sometimes I wish I could go back to places like the one in the photo below.',
      'I wish I could bring you along.',
    ]);
  });
});

describe("readTurn: showing the speaker's own in three words", () => {
  it('"Here\'s a pic of my fam at the beach" is a fact of the speaker', () => {
    expect(formed("Here's a pic of my fam at the beach.")).toEqual([
      "fact | Ann | Here's a pic of my fam at the beach.",
    ]);
  });

  it("a picture that names nothing of the speaker's stays in the turn", () => {
    none(['Check out this pic I took!', "Here's a pic from the event!", 'Here is my bookshelf.']);
  });
});

describe('readTurn: a liking said to last', () => {
  it('"I will always love reading" is a preference, not a task', () => {
    expect(formed('I will always love reading, personally.')).toEqual([
      'preference | Ann | I will always love reading, personally.',
    ]);
  });

  it('of the listener or of a pronoun it forms nothing', () => {
    none(["I'll always love you.", "I'll always love it!", 'I will always cherish them.']);
  });
});

describe("readTurn: someone of the speaker's introduced by name", () => {
  it('a name with "my …", "he/she …" or "his/her …" after it is a fact of the speaker', () => {
    expect(formed('That one is Max, my childhood dog.')).toEqual(['fact | Ann | That one is Max, my childhood dog.']);
    expect(formed("This is Max – he's so lovable and playful.")).toEqual([
      "fact | Ann | This is Max – he's so lovable and playful.",
    ]);
    expect(formed("Here's Toby at his favorite spot.")).toEqual(["fact | Ann | Here's Toby at his favorite spot."]);
  });

  it('a name alone, a month, or a place called out to the listener form nothing', () => {
    none(['This is Susie.', "That's Boston, Bob!", 'This is Boston.', "That's June - she said it was fun."]);
  });
});

describe('readTurn: looking forward to doing something named, and a name as what is meant', () => {
  it('"I\'m looking forward to exploring the city" and "I was excited to explore Shinjuku" are facts of the speaker', () => {
    expect(formed("I'm looking forward to exploring the city, trying out some delicious food.")).toEqual([
      "fact | Ann | I'm looking forward to exploring the city, trying out some delicious food.",
    ]);
    expect(formed('I was excited to explore Shinjuku.')).toEqual(['fact | Ann | I was excited to explore Shinjuku.']);
  });

  it('to see, the listener\'s, more, or "one" said of elsewhere form nothing', () => {
    none([
      'Looking forward to seeing them have fun hiking.',
      "I'm looking forward to listening to your podcast.",
      "I'm really looking forward to creating more enjoyable experiences!",
      'I was so thrilled to restore one last year.',
      "I'm so excited to see Paris.",
    ]);
  });
});

describe('readTurn: what the rules of coverage 3 show keeps the picture shared with it', () => {
  it("the speaker's own shown briefly and someone introduced by name keep the caption", () => {
    expect(formed("Here's a pic of my fam at the beach. [image: a photo of a couple walking into the ocean]")).toEqual([
      "fact | Ann | Here's a pic of my fam at the beach. [image: a couple walking into the ocean]",
    ]);
    expect(formed("This is Max – he's so lovable. [image: a photo of a dog on a couch]")).toEqual([
      "fact | Ann | This is Max – he's so lovable. [image: a dog on a couch]",
    ]);
  });

  it('what is looked forward to "there" names no place', () => {
    none(['Looking forward to exploring the beautiful snowy landscapes there.']);
  });
});
