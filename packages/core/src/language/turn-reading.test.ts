import { describe, expect, it } from 'vitest';
import { readTurn } from './turn-reading.js';

const NOON = Date.UTC(2024, 1, 20, 12); // Tuesday 20 February 2024
/** What `Ann` said, read with `Bob` as the other speaker: one `kind | about | text` line per statement. */
const read = (text: string, listener: string | null = 'Bob') =>
  readTurn({ input: `Ann: ${text}`, userId: 'u', createdAt: NOON }, listener ? { listener } : {}).statements.map(
    (s) => `${s.kind} | ${s.about} | ${s.text}`,
  );
const formed = (text: string) => read(text).filter((l) => !l.startsWith('conversation'));

describe('readTurn: statements about a person, kept whole', () => {
  it('a named third person is whom the fact is about', () => {
    expect(formed('My coworker Raj has a PhD in physics.')).toEqual([
      'fact | Raj | My coworker Raj has a PhD in physics.',
    ]);
  });

  it('a clause that refers back joins the statement before it; on its own it forms nothing', () => {
    expect(formed('I started physiotherapy last month. It helped me a lot with my back pain too.')).toEqual([
      'event | Ann | I started physiotherapy last month. It helped me a lot with my back pain too.',
    ]);
    expect(formed('It helped me a lot with my back pain too.')).toEqual([]);
    expect(formed('They just live in the woods.')).toEqual([]);
  });

  it('a clause of the same sentence that refers back is joined with the words that joined it ("and", "but")', () => {
    expect(formed('I finished my first painting, and my kids love it.')).toEqual([
      'event | Ann | I finished my first painting, and my kids love it.',
    ]);
    expect(formed('I made a vase but my cat broke it.')).toEqual(['event | Ann | I made a vase but my cat broke it.']);
    expect(formed('I adopted a puppy last week; we love it.')).toEqual([
      'event | Ann | I adopted a puppy last week; we love it.',
    ]);
  });

  it('"living in …" fills `lives in` after its subject, not when it opens a remark about anyone', () => {
    const slot = (text: string) =>
      readTurn({ input: `Ann: ${text}`, userId: 'u', createdAt: NOON }, { listener: 'Bob' }).statements.map(
        (s) => `${s.about} | ${s.attribute ?? '-'} | ${s.value ?? '-'}`,
      );
    expect(slot("I'm living in Lisbon now.")).toEqual(['Ann | lives in | Lisbon']);
    expect(slot("We've been living in Porto since 2019.")).toEqual(['Ann | lives in | Porto']);
    expect(slot('My sister Ana is living in Lisbon.')).toEqual(['Ana | lives in | Lisbon']);
    expect(
      slot('But living in a Japanese mansion surrounded by that city skyline must be stunning.'),
    ).not.toContainEqual(expect.stringContaining('lives in'));
    expect(formed('Living in Tokyo is expensive.')).toEqual([]);
    // "moved in" with the place left out: when or with whom is no place.
    expect(slot('Moved in last week.')).toEqual(['Ann | - | -']);
    expect(slot('We moved in together in May.')).toEqual(['Ann | - | -']);
    expect(slot('Moved to Lisbon last week.')).toEqual(['Ann | lives in | Lisbon']);
  });

  it('"you …" is about the other speaker; with no other speaker known it forms nothing', () => {
    expect(formed('You moved to Denver last year.')).toEqual(['event | Bob | You moved to Denver last year.']);
    expect(read('You moved to Denver last year.', null).filter((l) => !l.startsWith('conversation'))).toEqual([]);
  });
});

describe('readTurn: what stays in the episodic turn only', () => {
  it.each([
    ['a reaction', 'That sounds like a fascinating project!'],
    ['a reaction to the listener', 'It sounds like you had a busy day with a football game.'],
    ['praise of the listener', "You've made so much progress."],
    ['an offer', "Let me know if you'd like more details about the trip."],
    ['a wish', "I'd love to check them out sometime."],
    ['a caption alone', '[image: there is a tall building with a clock on it]'],
    ['pointing at a picture', 'Check out this piece I made!'],
    ['a passing state', "How's it going it's pretty late already today"],
    ['a generic remark', 'Volunteering is a great way to meet people.'],
    ['a world fact', 'Life is unpredictable, but family matters.'],
    ['"like" meaning "such as"', 'Or like pretzels because they last.'],
    ['a vague "task"', "I'll keep you posted."],
    ['a passing feeling', 'I felt so accepted.'],
    ['a feeling about nothing named', "I'm so excited to meet other people in the community!"],
    // The feeling's exception is read case-sensitively: "about the …", "for the …" name nothing.
    ['a feeling about something lowercase', 'I was so nervous about the big exam on cells.'],
    ['a feeling for a chance', "I'm grateful for the chance to teach kids."],
    ['a feeling about what the listener did', "I'm really grateful for your help with the garden project."],
    ['catching up', "A lot's happened since we talked."],
    ['regard for the listener', 'I really respect you for that.'],
    ['advice', 'I recommend finding a fantasy book series to read.'],
    ['encouragement of oneself in reply', "I won't give up, I promise!"],
    ['showing a picture', 'Look what letter I received yesterday!'],
    ['a reaction without "I\'m"', 'Glad you bonded over our love of nature.'],
    ['a reaction after a vocative', "Maria, I'm glad you're finding fulfillment there."],
    ['an object that refers back, on its own', 'I want to pass it on to others.'],
    ['a promise in reply', "I'll take your advice and find joy on the way."],
    ['advice with "I\'d"', "I'd recommend practicing mindful breathing for yoga."],
    ['showing with "Here\'s"', "Here's our latest work from last weekend."],
    ['an offer on a condition of the listener', "If you're interested, I can suggest some routines for you to try."],
    ['agreeing to try what was spoken of', "I'm keen to give it a shot."],
    ['an object that is what was shown', "I'm also a big fan of scents like this!"],
    ['catching up by time', 'Been a few days since we last talked.'],
    ['a hope', "Fingers crossed it'll help me."],
    ['what something said made one think', 'Really made me think about taking care of our minds.'],
    ['an object that refers back behind an opening phrase', 'Whenever I come here, I bring it with me.'],
    ['a generic "us"', 'Animals sure have a way of bringing us happiness.'],
  ])('%s: %s', (_why, text) => {
    expect(formed(text)).toEqual([]);
  });

  it('the speaker\'s "our" and a "we" of the past stay the speaker\'s; a list ending "all of that" is no pronoun object', () => {
    expect(formed('Storm forced us to cancel our yoga getaway.')).toEqual([
      'event | Ann | Storm forced us to cancel our yoga getaway.',
    ]);
    expect(formed("I've got lots of kids' books- classics, stories from different cultures, all of that.")).toEqual([
      "fact | Ann | I've got lots of kids' books- classics, stories from different cultures, all of that.",
    ]);
  });

  it('a topic or a sentence opener is no person', () => {
    for (const text of ['Athens is beautiful in spring.', 'Just got some new shoes, too!', 'Right now I live in Lyon.'])
      for (const line of read(text)) expect(line.split(' | ')[1]).toBe('Ann');
  });
});

describe('readTurn: statements about the speaker however they open', () => {
  it.each([
    ['a phrase in front of "I"', "Besides the dance classes, I'm offering one-on-one mentoring.", 'fact'],
    ['an activity that acts on the speaker', 'Dancing makes me so happy.', 'preference'],
    ['the speaker with someone', 'Samantha and I were also at McGee’s bar.', 'fact'],
    ['a favourite', 'Two of my favorites are "The Stormlight Archive" and "Kingkiller Chronicle".', 'preference'],
    ['a feeling about something named', "I'm grateful for my sister's help with the move.", 'fact'],
    [
      'a feeling about what the speaker does',
      "I'm excited about building a treehouse for the kids this summer.",
      'fact',
    ],
  ])('%s: %s', (_why, text, kind) => {
    expect(formed(text)).toEqual([`${kind} | Ann | ${text}`]);
  });

  it('a statement with a tag question is a statement; the tag is left out', () => {
    expect(formed('I started my own online clothing store not so long ago - pretty cool, huh?')).toEqual([
      'event | Ann | I started my own online clothing store not so long ago',
    ]);
  });

  it('a speaker prefix followed by a line break still names the speaker', () => {
    const r = readTurn({ input: 'Sam:\nI have never been to Rome.', userId: 'u', createdAt: NOON });
    expect(r.speaker).toBe('Sam');
  });
});

describe('readTurn: kinds and dates', () => {
  it('a task is something to do; a past outcome is an event', () => {
    expect(formed('I need to renew my passport next week.')).toEqual([
      'task | Ann | I need to renew my passport next week.',
    ]);
    expect(formed('My exam went really well.')).toEqual(['event | Ann | My exam went really well.']);
    expect(formed('We are planning to play "Walking Dead" next Saturday.')).toEqual([
      'task | Ann | We are planning to play "Walking Dead" next Saturday.',
    ]);
    // Negated, or inside what the clause reports: no task.
    expect(formed("I'll never forget the day my youngest took her first steps.")[0]).not.toMatch(/^task/);
    expect(formed('I made a quilt to show my journey and how we should accept change.')[0]).not.toMatch(/^task/);
    // A promise to the listener is a task only when it is dated.
    expect(formed("I'll bring you the tent on Friday.")).toEqual(["task | Ann | I'll bring you the tent on Friday."]);
  });

  it('a date said in a clause that forms nothing goes to the clause beside it', () => {
    const [s] = readTurn({
      input: 'Ann: Today turned out nice, and I finally finished my thesis.',
      userId: 'u',
      createdAt: NOON,
    }).statements.filter((x) => x.kind !== 'conversation');
    expect(s).toMatchObject({ kind: 'event', text: 'I finally finished my thesis.', at: Date.UTC(2024, 1, 20) });
  });

  it('reads dd.mm.yyyy and "the Nth of Month"', () => {
    const at = (text: string) =>
      readTurn({ input: text, userId: 'u', createdAt: NOON }).statements.find((s) => s.kind === 'event')?.at;
    expect(at('I went to Porto on 23.01.2024.')).toBe(Date.UTC(2024, 0, 23));
    expect(at('We met on the 10th of February.')).toBe(Date.UTC(2024, 1, 10));
  });

  it('slot values name something: no pronoun, no preposition', () => {
    const slots = (text: string) => readTurn({ input: text, userId: 'u', createdAt: NOON }).statements;
    expect(slots('I work at it every day.').some((s) => s.attribute === 'works at')).toBe(false);
    expect(slots('My favourite book is of mice and men.').some((s) => s.value === 'of mice')).toBe(false);
    expect(slots('I also lost my job at Door Dash this month.').some((s) => s.attribute === 'works at')).toBe(false);
    expect(slots("Let's find a time that works for both of us.").some((s) => s.attribute === 'works at')).toBe(false);
    expect(
      slots('It was a chance to learn something new and work as a team.').some((s) => s.attribute === 'works as'),
    ).toBe(false);
    expect(slots('Watching them enjoy their favorite snacks is so fun.').some((s) => s.value === 'so fun')).toBe(false);
    expect(slots('I work as a team leader at a bakery.').find((s) => s.attribute === 'works as')?.value).toBe(
      'team leader',
    );
  });

  it("a slot whose verb has someone else's subject right before it is not the speaker's", () => {
    const slot = (text: string) =>
      readTurn({ input: `Ann: ${text}`, userId: 'u', createdAt: NOON })
        .statements.filter((s) => s.attribute !== undefined)
        .map((s) => `${s.about} | ${s.attribute} | ${s.value}`);
    expect(slot('I really love cats! Moreover, Max is already old, he is 8 years old.')).toEqual([]);
    expect(slot('My friend and I hang out a lot, Ana lives in Porto.')).toEqual([]);
    expect(slot('Honestly, she now works at Google.')).toEqual([]);
    // The speaker's own verb, or a name that is no subject.
    expect(slot('I am 34 years old.')).toEqual(['Ann | age | 34']);
    expect(slot('Now I live in Porto.')).toEqual(['Ann | lives in | Porto']);
    expect(slot('Now living in Porto with my partner.')).toEqual(['Ann | lives in | Porto']);
    expect(slot('My son is 8 years old.')).toEqual(["Ann's son | age | 8"]);
  });
});

describe('readTurn: fragments resolved within the turn, reactions to what was shown', () => {
  it('a pronoun object with substance after it joins the clause of the turn that names it', () => {
    expect(formed('My garden means a lot to me. I also use it to grow food for the neighbours.')).toEqual([
      'fact | Ann | My garden means a lot to me. I also use it to grow food for the neighbours.',
    ]);
    expect(formed("We adopted two puppies. I'm taking them out for a stroll in the park.")).toEqual([
      "event | Ann | We adopted two puppies. I'm taking them out for a stroll in the park.",
    ]);
  });

  it('a pronoun object whose referent is not in the turn (what the other speaker showed) stays episodic', () => {
    expect(formed('Yes, I made it at the workshop last Saturday.')).toEqual([]);
    expect(formed('Thanks! I painted this after my trip to the coast.')).toEqual([]);
    expect(formed('I will now add this to my morning routine.')).toEqual([]);
    expect(formed("I'm taking them out for a stroll in the park.")).toEqual([]);
  });

  it('a picture shared in the same turn is what "this" is: the statement keeps its caption', () => {
    expect(formed('I painted this after my trip to the coast. [image: a painting of a lighthouse]')).toEqual([
      'event | Ann | I painted this after my trip to the coast. [image: a painting of a lighthouse]',
    ]);
  });

  it('a liking of what was shown ("that colour") or of "the …" right after a reaction is a reaction', () => {
    expect(formed('Love that green colour!')).toEqual([]);
    expect(formed('I really like those shapes.')).toEqual([]);
    expect(formed("Wow, that's gorgeous! I love the warm colours and the calm mood.")).toEqual([]);
    // With no reaction before it, a liking of "the …" is a preference.
    expect(formed('I love the mountains in winter.')).toEqual(['preference | Ann | I love the mountains in winter.']);
  });

  it('generic remarks: an abstract noun that opens like "Love …", "our <people> give us …"', () => {
    expect(formed("Love and patience should be everyone's right.")).toEqual([]);
    expect(formed('Our loved ones give us the courage to face anything.')).toEqual([]);
    // The speaker's own, said of a time: no remark about everyone.
    expect(formed('Our daughter taught us to bake bread last year.')).toEqual([
      "event | Ann's daughter | Our daughter taught us to bake bread last year.",
    ]);
  });

  it('a capitalised determiner before an "-ed" word is no past action', () => {
    expect(formed('Our shared garden keeps me sane.')).toEqual(['fact | Ann | Our shared garden keeps me sane.']);
  });

  it('what something said made the speaker feel joins it; on its own it forms nothing', () => {
    expect(formed('Really made me proud of my town.')).toEqual([]);
    expect(formed('I went to the march on Saturday. Really made me proud of my town.')).toEqual([
      'event | Ann | I went to the march on Saturday. Really made me proud of my town.',
    ]);
  });

  it('thanks after a statement is not joined to it as a continuation', () => {
    const lines = formed(
      "The rain was only a drizzle, I had a lovely walk. But thank you for your concern, you're so kind!",
    );
    expect(lines.some((l) => /thank/i.test(l))).toBe(false);
  });

  it.each([
    ["trying one's best", "Trying my best, but it's been tough."],
    ['a promise with no time ("sometime")', "We'll visit the lake together sometime!"],
    ['a promise with no time ("someday")', "I'll try it out someday."],
    ['being up for something', "I'm totally up for trying new recipes."],
  ])('%s stays episodic: %s', (_why, text) => {
    expect(formed(text)).toEqual([]);
  });
});

describe('readTurn: the speaker praising what the speaker did is no reaction', () => {
  it('"It was an awesome …" after the speaker\'s own event joins it', () => {
    expect(formed('I went to a street festival last Friday. It was an awesome mix of music and food.')).toEqual([
      'event | Ann | I went to a street festival last Friday. It was an awesome mix of music and food.',
    ]);
  });
});

describe('readTurn: statements about the speaker whose subject is a thing', () => {
  it.each([
    ['a thing named with "this"', 'This bracelet is super special to me, a gift from my aunt.', 'fact'],
    ['a thing named with "these"', 'These mugs I bought yesterday remind me of my grandmother.', 'event'],
    ["an activity that is part of the speaker's life", 'Gardening is a huge part of my life.', 'fact'],
    ['what keeps the speaker going', 'Music and friends keep me at peace.', 'fact'],
  ])('%s: %s', (_why, text, kind) => {
    expect(formed(text)).toEqual([`${kind} | Ann | ${text}`]);
  });

  it('"this" standing alone still refers back', () => {
    expect(formed('This is super special to me.')).toEqual([]);
  });
});

describe('readTurn: a demonstrative right after a statement points back at it', () => {
  it('"Those … friends" after the speaker\'s statement joins it', () => {
    expect(
      formed('We had a great time at the harvest fair last year. Those kind neighbours made it worth it!'),
    ).toEqual([
      'event | Ann | We had a great time at the harvest fair last year. Those kind neighbours made it worth it!',
    ]);
  });
});

describe('readTurn: a request names the speaker but says nothing about them', () => {
  it.each([['Please remember my bike lock code.'], ['Text me at the usual number.'], ['Remind me about the tickets.']])(
    '%s',
    (text) => {
      expect(formed(text).filter((l) => l.startsWith('fact'))).toEqual([]);
    },
  );
});

describe('readTurn: "one", "her" and "him" as objects point back like "it"', () => {
  it('"… but I really want one." joins the clause that says what one is', () => {
    expect(formed("I haven't bought a kayak yet, but I really want one.")).toEqual([
      "fact | Ann | I haven't bought a kayak yet, but I really want one.",
    ]);
  });
  it('"I met her at …" with no one named in the turn forms nothing about anyone', () => {
    expect(formed('I met her at the climbing gym last spring.')).toEqual([]);
  });
  it('"one" that names its object is no pronoun ("one more chance")', () => {
    expect(formed('I want one more chance at the marathon.')).not.toEqual([]);
  });
});

describe('readTurn: "so <noun phrase> and I …" is one subject, not two clauses', () => {
  it('"… so a group of friends and I teamed up" stays one statement', () => {
    const text = "I couldn't sort the leak out on my own so a group of friends and I teamed up and got the roof fixed.";
    expect(formed(text)).toEqual([`event | Ann | ${text}`]);
  });
  it('"… so my brother and I …" still starts a clause of its own', () => {
    expect(formed('I was too tired to cook so my brother and I ordered pizza.')).toEqual([
      'event | Ann | My brother and I ordered pizza.',
    ]);
  });
});

describe('readTurn: a clause that points back joins the statement before it, whatever its kind', () => {
  it('"we" after a statement is whom that statement named: one memory, of the informative kind', () => {
    expect(formed('I feel so lucky to have my cousins and their kids nearby. We cook together every Sunday.')).toEqual([
      'fact | Ann | I feel so lucky to have my cousins and their kids nearby. We cook together every Sunday.',
    ]);
    expect(formed('I joined a choir in the autumn. We rehearse in an old church hall.')).toEqual([
      'event | Ann | I joined a choir in the autumn. We rehearse in an old church hall.',
    ]);
  });

  it('"we" first in a turn, or after a reaction, is the speaker\'s own statement', () => {
    expect(formed('We cook together every Sunday.')).toEqual(['fact | Ann | We cook together every Sunday.']);
    expect(formed('That sounds lovely! We went to the lake last weekend.')).toEqual([
      'event | Ann | We went to the lake last weekend.',
    ]);
    // A remark about the world or the listener is not whom "we" stands for.
    expect(formed('Autumn is the best season for walks. We went to the lake last weekend.')).toEqual([
      'event | Ann | We went to the lake last weekend.',
    ]);
  });

  it('a pronoun object after a preposition or "there" joins the clause that names it; alone it forms nothing', () => {
    expect(formed('I joined a chess club in March. I even swapped numbers with a couple of them.')).toEqual([
      'event | Ann | I joined a chess club in March. I even swapped numbers with a couple of them.',
    ]);
    expect(formed('I even swapped numbers with a couple of them.')).toEqual([]);
    expect(formed('I spent a week in Oslo in June. I made a few friends there too.')).toEqual([
      'event | Ann | I spent a week in Oslo in June. I made a few friends there too.',
    ]);
    expect(formed('I stayed there quite a bit.')).toEqual([]);
    // Going on with a clause of its own after the pronoun does not make it any less a fragment.
    expect(
      formed("I restored an old wooden sailboat last spring. I'm attached to it and it's where I spend my summers."),
    ).toEqual([
      "event | Ann | I restored an old wooden sailboat last spring. I'm attached to it and it's where I spend my summers.",
    ]);
  });

  it('a verbless "For …ing" fragment joins the statement before it; alone it forms nothing', () => {
    expect(formed('I bought a used kayak last week. For paddling on the river mostly.')).toEqual([
      'event | Ann | I bought a used kayak last week. For paddling on the river mostly.',
    ]);
    expect(formed('Thanks for teaching me how to knit scarves.')).toEqual([]);
  });
});

describe("readTurn: said in passing (the lexicon's SAID_IN_PASSING table) stays in the episodic turn", () => {
  it.each([
    ['a passing state', "I'm feeling great and ready to crush the exam."],
    ['a vague plan', "I'm gonna make it work!"],
    ['a vague plan with a start', "Starting Monday I'm going to do my best to stick with it."],
    ['encouragement of oneself', "I'm staying focused and trusting the process."],
    ['an offer to the listener', "Whenever you need a hand with the garden, I'm here for you."],
    ['an offer', "I can lend you my drill if you'd like."],
    ['a hope', "Hopefully I'll hear back from the landlord soon."],
    ['a reaction to what was shown', 'Seeing it reminds me of my first apartment.'],
    ['a bare reaction', 'Glad my notes were useful to the team.'],
    ['a generic remark', 'Learning an instrument takes patience!'],
    ['announcing what comes next', 'I wanted to talk about something that happened at work.'],
    ['announcing a talk', 'I need to talk to you.'],
    ['keeping spirits up', "I'm keeping my spirits up and hoping for the best."],
    ['something unnamed', 'I finally finished something with my cousins yesterday.'],
  ])('%s: %s', (_why, text) => {
    expect(formed(text)).toEqual([]);
  });

  it('what names its object is kept', () => {
    expect(formed('Seeing those puppies made me want to adopt a beagle.')).toEqual([
      'fact | Ann | Seeing those puppies made me want to adopt a beagle.',
    ]);
    expect(formed('Wanted to share some big news - my brother is getting married!')).toHaveLength(1);
    expect(formed("I've been organizing a charity run with my neighbours.")).toHaveLength(1);
  });
});

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
    ).toEqual([
      "event | Ann | Here's a photo I took at the marathon last spring. [image: a runner crossing a finish line]",
    ]);
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

describe("readTurn: an answer reads the other speaker's question before it", () => {
  /** What `Ann` said in answer to `Bob`'s turn `asked`: one `kind | about | text` line per formed statement. */
  const answer = (asked: string, text: string) =>
    readTurn({ input: `Ann: ${text}`, userId: 'u', createdAt: NOON }, { previous: { input: `Bob: ${asked}` } })
      .statements.filter((s) => s.kind !== 'conversation')
      .map((s) => `${s.kind} | ${s.about} | ${s.text}${s.attribute ? ` | ${s.attribute} = ${s.value}` : ''}`);

  it('a clause whose referent is what was asked forms a memory about the answerer, the question made explicit', () => {
    expect(
      answer('Did you go to the concert on Saturday?', 'Yes, it was amazing, they played for three hours.'),
    ).toEqual([
      'event | Ann | Asked "Did you go to the concert on Saturday?": Yes, it was amazing, they played for three hours.',
    ]);
    expect(
      answer(
        'What do you love most about camping with your family?',
        "It's a chance for the whole family to be together.",
      ),
    ).toEqual([
      'fact | Ann | Asked "What do you love most about camping with your family?": It\'s a chance for the whole family to be together.',
    ]);
    // What follows it in the turn and refers back joins it.
    expect(
      answer('How did you get into pottery?', 'My aunt showed it to me years ago. It became my way to unwind.'),
    ).toEqual([
      'event | Ann\'s aunt | Asked "How did you get into pottery?": My aunt showed it to me years ago. It became my way to unwind.',
    ]);
  });

  it('a statement of its own that says "we", "her" or "it" of what was asked quotes the question too', () => {
    expect(
      answer('What did you and your friends do on Saturday?', 'We went bowling and looked at her photos.'),
    ).toEqual([
      'event | Ann | Asked "What did you and your friends do on Saturday?": We went bowling and looked at her photos.',
    ]);
  });

  it('an elliptic answer to "What\'s your favourite …?" fills the slot of the answerer', () => {
    expect(answer("What's your favourite board game?", 'Definitely Catan!')).toEqual([
      'preference | Ann | Asked "What\'s your favourite board game?": Definitely Catan! | favourite board game = Catan',
    ]);
    expect(answer('So what kind of music do you listen to when you run?', 'Mostly old punk rock.')).toEqual([
      'preference | Ann | Asked "So what kind of music do you listen to when you run?": Mostly old punk rock.',
    ]);
  });

  it('without a question of content before it, such a clause still forms nothing', () => {
    expect(answer('How was it?', 'It was amazing, they played for three hours.')).toEqual([]);
    // A reaction or a remark on how things are is no answer about the answerer.
    expect(answer('How did it feel when you saw it working?', 'It was such a surreal moment.')).toEqual([]);
    expect(answer('How does yoga make you feel?', "It's amazing how a few quiet moments work wonders.")).toEqual([]);
    expect(answer('Do you have any favourite scents for your yoga?', "I'm a big fan of scents like this!")).toEqual([]);
    expect(answer('I went to the concert on Saturday.', 'It was amazing, they played for three hours.')).toEqual([]);
    expect(answer('And you?', 'Definitely Catan!')).toEqual([]);
    // Thanks or a tag question are no answer and no question; only the first clause that says something answers.
    expect(answer('Is there anything I can do to help improve the situation?', 'Thanks for the offer, Maria.')).toEqual(
      [],
    );
    expect(answer("Life does throw us some surprises, doesn't it?", 'This is a reminder to stay strong.')).toEqual([]);
    // A reaction without a verb the reading knows is no answer, nor is a remark with a question mark a question.
    expect(answer('Any plans for the weekend?', 'Melanie, that photo is amazing!')).toEqual([]);
    expect(answer('Wanna give the new recipe a try?', 'Mmm, looks yummy!')).toEqual([]);
    expect(answer('See how happy my dog was on the hike?', "It's so cute, he's a real adventurer.")).toEqual([]);
    expect(
      answer('How often do you get to see sunsets on your walks?', "I see them weekly. It's a good way to disconnect."),
    ).toEqual([]);
    // The speaker's own question before is nothing the speaker answers.
    expect(
      readTurn(
        { input: 'Ann: It was amazing, they played for three hours.', userId: 'u', createdAt: NOON },
        { previous: { input: 'Ann: Did you hear about the concert on Saturday?' } },
      ).statements.filter((s) => s.kind !== 'conversation'),
    ).toEqual([]);
  });

  it('a statement that names its own subject, a reaction, or words to the asker are read as before', () => {
    expect(answer('Did you go to the concert on Saturday?', 'I went with my sister Ana last week.')).toEqual([
      'event | Ann | I went with my sister Ana last week.',
    ]);
    expect(answer('Did you see my photos from the trip?', 'That sounds like a fascinating trip!')).toEqual([]);
    expect(answer('Did you see my photos from the trip?', "Yes, you're so talented!")).toEqual([]);
  });

  it("in a chat without speaker names, the question is the assistant's reply before", () => {
    const r = readTurn(
      { input: 'Definitely sushi.', userId: 'u', createdAt: NOON },
      { previous: { input: 'I want to cook something new.', output: "Nice! What's your favourite food?" } },
    );
    expect(r.statements.map((s) => [s.kind, s.about, s.attribute, s.value])).toEqual([
      ['preference', 'u', 'favourite food', 'sushi'],
    ]);
  });
});
describe("readTurn: looking forward to something of the speaker's own is a plan", () => {
  it('"Can\'t wait for …", "I\'m looking forward to …" with what is ahead named: an event, dated when a date is said', () => {
    const r = readTurn(
      { input: "Ann: Can't wait for our camping trip to the lakes next month!", userId: 'u', createdAt: NOON },
      { listener: 'Bob' },
    ).statements.filter((s) => s.kind !== 'conversation');
    expect(r.map((s) => `${s.kind} | ${s.about} | ${s.text}`)).toEqual([
      "event | Ann | Can't wait for our camping trip to the lakes next month!",
    ]);
    expect(r[0]!.at).toBe(Date.UTC(2024, 2, 1));
    expect(formed("I can't wait to see my cousins in Lisbon.")).toEqual([
      "event | Ann | I can't wait to see my cousins in Lisbon.",
    ]);
  });

  it('looking forward to what the listener spoke of, or to nothing named, stays episodic', () => {
    for (const text of [
      "Can't wait!",
      "Can't wait to see it!",
      "I can't wait to see your new place!",
      "Can't wait to hear all about it.",
      "I'm looking forward to chatting more soon.",
      "Can't wait to make some memories with my kids!",
      "Can't wait to visit next month.",
    ])
      expect(formed(text), text).toEqual([]);
  });
});

describe('readTurn: whom or what the speaker is lucky to have is a fact', () => {
  it.each([
    ['lucky to have a pet named', 'We feel so lucky to have Biscuit.'],
    ['lucky to have relations', "I'm lucky to have my brothers nearby."],
    ["grateful for something of the speaker's", "I'm so grateful for my team at work."],
  ])('%s: %s', (_why, text) => {
    expect(formed(text)).toEqual([`fact | Ann | ${text}`]);
  });

  it('lucky to have the listener, or grateful for what the listener did, stays episodic', () => {
    for (const text of [
      "I'm so lucky to have you!",
      "We're lucky to have friends like you.",
      "I'm grateful for your support.",
    ])
      expect(formed(text), text).toEqual([]);
  });
});

describe('readTurn: a short habit or skill of the speaker is a fact', () => {
  it.each([
    ['an instrument', 'I play clarinet!'],
    ['a craft', 'I knit scarves.'],
  ])('%s: %s', (_why, text) => {
    expect(formed(text)).toEqual([`fact | Ann | ${text}`]);
  });

  it('a habit whose object is said elsewhere stays episodic', () => {
    for (const text of ['I play it too!', 'I cook a lot.']) expect(formed(text), text).toEqual([]);
  });
});

describe("readTurn: a picture introduced as the speaker's own says what it shows", () => {
  it('"This is my …", "This is a photo from my …": a fact, also with the caption before it', () => {
    expect(formed('This is my new puppy.')).toEqual(['fact | Ann | This is my new puppy.']);
    expect(formed("This is a photo from my sister's wedding. [image: a bride and groom dancing]")).toEqual([
      "fact | Ann | This is a photo from my sister's wedding.",
    ]);
    expect(formed('[image: a puppy asleep on a rug] This is my new puppy.')).toEqual([
      'fact | Ann | This is my new puppy.',
    ]);
  });

  it('"this is my" that names no thing stays episodic', () => {
    for (const text of [
      'This is my favourite part!',
      'This is my first time hearing that.',
      "That's my point.",
      'This is just our random photo.',
    ])
      expect(formed(text), text).toEqual([]);
  });
});

describe('readTurn: a phrase that only opens what follows is left out', () => {
  it('"That reminds me, …", "You won\'t believe it - …": what follows is the statement, about the speaker', () => {
    expect(formed("That reminds me, I've been meaning to learn to sew.")).toEqual([
      "fact | Ann | I've been meaning to learn to sew.",
    ]);
    expect(formed("You won't believe it - I got a promotion at the bakery yesterday!")).toEqual([
      'event | Ann | I got a promotion at the bakery yesterday!',
    ]);
  });
});

describe('readTurn: an experience or a liking said in few words is kept', () => {
  it.each([
    ['an experience', "I've played chess before.", 'fact'],
    ['never been somewhere', "I've never been to Oslo.", 'fact'],
    ['a liking as "drawn to"', "I'm drawn to turtles.", 'preference'],
  ])('%s: %s', (_why, text, kind) => {
    expect(formed(text)).toEqual([`${kind} | Ann | ${text}`]);
  });

  it('an experience of what was said elsewhere, or a liking of what the listener showed, forms nothing', () => {
    for (const text of ["I've done it before.", "I've never been there.", "I'm drawn to it."])
      expect(formed(text), text).toEqual([]);
  });
});

describe('readTurn: what is no task', () => {
  it('"I got to …" is a chance the speaker had; "… remind me how …" a reflection, not a reminder', () => {
    expect(formed('We got to see some epic spots on the coast last summer.')[0]).not.toMatch(/^task/u);
    expect(formed('Moments like these remind me how much my grandparents matter.')[0]).not.toMatch(/^task/u);
    expect(formed('Remind me to call the plumber tomorrow.')[0]).toMatch(/^task/u);
  });
});

describe('readTurn: fragments whose referent the other speaker said, wishes and generic remarks stay episodic', () => {
  it.each([
    ['an activity with "them" as the subject', 'Seeing them so happy makes me really happy.'],
    ['being with "them"', 'Being with them brings me so much joy.'],
    ['a verb whose "it" is left out', 'Helps me chill and enjoy the view.'],
    ['a hope for the listener, with an adverb', 'I really hope your pups feel better soon!'],
    ['a hope said with "we"', 'We hope to join you on the next hike!'],
    ['a wish for the listener', "I'm wishing you and your family the best."],
    ['a generic "have a way of"', 'Pets have a way of brightening our days.'],
    ['agreeing to try what the listener showed', "I'll give these a try."],
    ["doing one's best", "I'm putting in my best effort."],
    ['a promise on a condition ("need" is no past tense)', "I'll reach out if I need any help."],
    ['what is left once agreeing is cut off refers back', 'Yeah, I totally agree, it makes a big difference.'],
  ])('%s: %s', (_why, text) => {
    expect(formed(text)).toEqual([]);
  });

  it('the fragment joins the statement before it in the turn, which says what "them" or "it" is', () => {
    expect(formed('I adopted two cats last spring. Having them around keeps me calm.')).toEqual([
      'event | Ann | I adopted two cats last spring. Having them around keeps me calm.',
    ]);
    expect(formed("I've been going on long car rides lately. Helps me clear my head.")).toEqual([
      "fact | Ann | I've been going on long car rides lately. Helps me clear my head.",
    ]);
  });

  it('what follows agreeing is read on its own; "a way of" said of the speaker, and "I need …", are kept', () => {
    expect(formed('I agree with you, I also love to travel.')).toEqual(['preference | Ann | I also love to travel.']);
    expect(formed('Being outdoors has a way of calming my mind.')).toEqual([
      'fact | Ann | Being outdoors has a way of calming my mind.',
    ]);
    expect(formed('I need a new laptop for school.')).toEqual(['fact | Ann | I need a new laptop for school.']);
  });

  it('a feeling that names what inspires the speaker is kept; one inspired by the listener is not', () => {
    expect(formed("I'm inspired by autumn colours this year.")).toHaveLength(1);
    expect(formed("I'm really inspired by your drive to make a difference.")).toEqual([]);
  });
});

describe('readTurn: offers, unnamed places, frequency adverbs and things that are from somewhere', () => {
  it.each([
    ['an offer on a condition of the listener', "I can help you get started if you're interested."],
    ['a place unnamed', 'Last month I drove somewhere fun.'],
    ['"similar ones" of what the listener showed', "I'm thinking of ordering some similar ones."],
    ['an object that refers back after "Sometimes"', "Sometimes I even use it when I'm playing games with friends."],
    ['a gerund before an object that refers back', 'I also like holding them.'],
  ])('%s: %s', (_why, text) => {
    expect(formed(text)).toEqual([]);
  });

  it('"Sometimes I …" is still about the speaker; "Recently" opening a clause is no person', () => {
    expect(formed('Sometimes I bake bread for my neighbours.')).toEqual([
      'fact | Ann | Sometimes I bake bread for my neighbours.',
    ]);
    expect(formed('Recently started learning the cello.')).toEqual([
      'event | Ann | Recently started learning the cello.',
    ]);
  });

  it('a thing that is from somewhere fills no "is from" slot; a person does', () => {
    const slot = (text: string) =>
      readTurn({ input: `Ann: ${text}`, userId: 'u', createdAt: NOON }, { listener: 'Bob' }).statements.map(
        (s) => s.attribute,
      );
    expect(slot('The photo is from a forest near my hometown.')).toEqual([undefined]);
    expect(slot('My sister is from Lisbon.')).toEqual(['is from']);
  });

  it('"… to remind me of …" is a reflection, not a reminder', () => {
    expect(formed('I keep this ball to remind me of my old team.')).toEqual([
      'fact | Ann | I keep this ball to remind me of my old team.',
    ]);
  });

  it("looking forward to a plan of the speaker's own, with a remark after a dash, is still a plan", () => {
    expect(formed("I can't wait for our hike next month - it's gonna be awesome!")).toEqual([
      "event | Ann | I can't wait for our hike next month - it's gonna be awesome!",
    ]);
  });
});
