import { describe, expect, it } from 'vitest';
import { readTurn } from '../language/turn-reading.js';
import { OfflineExtractor } from './offline-extractor.js';
import type { FormationContext, FormationTurn } from './types.js';

const NOON = Date.UTC(2023, 4, 8, 12); // Monday 8 May 2023
const DAY = 86_400_000;
const read = (input: string, createdAt = NOON) => readTurn({ input, userId: 'me', createdAt });
const noKnown: FormationContext = { similar: async () => [] };
const turn = (input: string, output = ''): FormationTurn => ({
  id: 't1',
  tenantId: 't',
  userId: 'me',
  input,
  output,
  createdAt: NOON,
});

describe('readTurn: what is left out', () => {
  it.each([
    ['What is my email address?', 'question'],
    ['¿Dónde vives?', 'question'],
    ['Hello!', 'greeting'],
    ['Thanks so much!', 'greeting'],
    ['Noted — I will remember that.', 'acknowledgement'],
    ['Got it.', 'acknowledgement'],
    ['That is amazing, Melanie!', 'filler'],
    ['You told me your sister lives in Lisbon.', 'restatement'],
  ])('%s → %s', (input, reason) => {
    const r = read(input);
    expect(r.statements).toEqual([]);
    expect(r.dropped.map((d) => d.reason)).toEqual([reason]);
  });

  it('never reads an assistant speaker', () => {
    const r = read('Assistant: You live in Lisbon and love hiking.');
    expect(r.statements).toEqual([]);
    expect(r.dropped[0]!.reason).toBe('restatement');
  });

  it('keeps the statements of a mixed turn and drops the rest', () => {
    const r = read(
      'Melanie: Hey Caroline! Good to see you! I went to a pottery class yesterday. What is new with you?',
    );
    expect(r.statements.map((s) => s.text)).toEqual(['I went to a pottery class yesterday.']);
    expect(r.dropped.map((d) => d.reason)).toEqual(['greeting', 'greeting', 'question']);
  });
});

describe('readTurn: kinds, subjects and slots', () => {
  it('a name in a greeting is a fact', () => {
    expect(read('Hi my name is Jeremy').statements).toEqual([
      { text: 'My name is Jeremy', kind: 'fact', about: 'me', attribute: 'name', value: 'Jeremy' },
    ]);
    const r = read("Hi, I'm Jeremy from Berlin, what's your name?");
    expect(r.statements).toMatchObject([{ kind: 'fact', attribute: 'name', value: 'Jeremy' }]);
    expect(r.dropped).toEqual([{ text: "what's your name?", reason: 'question' }]);
  });

  it('a statement before ", any recommendations?" is kept; a plan with its month is due the next such month', () => {
    const r = readTurn({
      input: "I'm planning a trip to Japan in April, any recommendations?",
      userId: 'me',
      createdAt: Date.UTC(2026, 11, 5),
    });
    expect(r.statements).toEqual([
      { text: "I'm planning a trip to Japan in April", kind: 'task', about: 'me', at: Date.UTC(2027, 3, 1) },
    ]);
    expect(r.dropped).toEqual([{ text: 'any recommendations?', reason: 'question' }]);
    expect(read('We adopted a rescue dog, thoughts on training?').statements).toMatchObject([
      { text: 'We adopted a rescue dog', kind: 'event' },
    ]);
  });

  it('what the speaker has on a day ahead is a plan on that day ("I have a job interview next Tuesday")', () => {
    const at = (input: string) => readTurn({ input, userId: 'me', createdAt: Date.UTC(2026, 11, 5) }).statements[0];
    expect(at('I have a job interview at Google next Tuesday at 10am.')).toMatchObject({
      kind: 'task',
      at: Date.UTC(2026, 11, 8),
    });
    expect(at('We have a flight on Friday.')).toMatchObject({ kind: 'task', at: Date.UTC(2026, 11, 11) });
    expect(at("We're moving to Seattle next month!")).toMatchObject({ kind: 'task', at: Date.UTC(2027, 0, 1) });
    expect(at('I just started a new job as a product manager at Stripe.')).toMatchObject({
      attribute: 'works at',
      value: 'Stripe',
    });
    expect(at('Our anniversary is on June 12.')).toMatchObject({ attribute: 'anniversary' });
    // Past, it is an event of that day.
    expect(at('I had a job interview last Tuesday.')).toMatchObject({ kind: 'event', at: Date.UTC(2026, 11, 1) });
  });

  it('"My daughter\'s name is Lily" is her name slot, and she also goes by Lily', () => {
    expect(read("My daughter's name is Lily and she's 5.").statements[0]).toMatchObject({
      about: "me's daughter",
      aka: ['Lily'],
      attribute: 'name',
      value: 'Lily',
    });
    expect(read("My sister's birthday is May 3.").statements[0]).toMatchObject({
      about: "me's sister",
      attribute: 'birthday',
    });
    expect(read('My name is Sam.').statements[0]!.aka).toBeUndefined();
  });

  it('"I\'m lactose intolerant and my husband doesn\'t eat pork" is two facts, one each', () => {
    expect(
      read("yeah I'm lactose intolerant and my husband doesn't eat pork").statements.map((s) => [s.about, s.text]),
    ).toEqual([
      ['me', "I'm lactose intolerant"],
      ["me's husband", "My husband doesn't eat pork"],
    ]);
  });

  it('who the speaker is in a word or two is a fact ("I\'m retired", "I\'m a night owl", "I\'m on a diet")', () => {
    for (const input of ["I'm retired.", "I'm an introvert.", "I'm a night owl.", "I'm colorblind.", "I'm on a diet."])
      expect(read(input).statements, input).toMatchObject([{ kind: 'fact', about: 'me' }]);
    // Not what the word says in passing.
    expect(read("I'm blind to his faults.").statements.filter((s) => s.kind !== 'conversation')).toEqual([]);
  });

  it('a place in a greeting is a fact', () => {
    expect(read('Hey there! I live in Lisbon.').statements).toMatchObject([
      { kind: 'fact', attribute: 'lives in', value: 'Lisbon' },
    ]);
  });

  it('facts, preferences, events, tasks and plain conversation', () => {
    expect(read('I am allergic to peanuts.').statements[0]!.kind).toBe('fact');
    expect(read('I have two dogs, Max and Bella.').statements[0]!.kind).toBe('fact');
    expect(read('I love hiking in the mountains.').statements[0]!.kind).toBe('preference');
    expect(read('My favourite colour is blue.').statements[0]).toMatchObject({
      kind: 'preference',
      attribute: 'favourite colour',
      value: 'blue',
    });
    expect(read('I ran a charity race last weekend.').statements[0]!.kind).toBe('event');
    expect(read('I need to call the dentist tomorrow.').statements[0]!.kind).toBe('task');
    expect(read('The weather has been rainy and grey all day here.').statements[0]!.kind).toBe('conversation');
  });

  it('anchors dates to the turn time, not to any clock', () => {
    const then = Date.UTC(2020, 1, 10, 9); // Monday 10 Feb 2020
    const cases: [text: string, kind: string, at: number][] = [
      ['I went to a support group yesterday.', 'event', Date.UTC(2020, 1, 9)],
      ['I have a dentist appointment tomorrow.', 'task', Date.UTC(2020, 1, 11)],
      ['I must finish the report by next Friday.', 'task', Date.UTC(2020, 1, 14)],
      ['We got married on 8 May 2015.', 'event', Date.UTC(2015, 4, 8)],
    ];
    for (const [text, kind, at] of cases) expect(read(text, then).statements[0], text).toMatchObject({ kind, at });
  });

  it('dates a past weekday to that day of the week before the turn, and leaves a weekday ahead undated', async () => {
    const then = Date.UTC(2020, 1, 10, 9); // Monday 10 Feb 2020
    const tuesday = Date.UTC(2020, 1, 4);
    const plan = await new OfflineExtractor().extract(
      { ...turn('I went hiking last Tuesday.'), createdAt: then },
      noKnown,
    );
    expect(plan.ops).toEqual([
      { op: 'add', statement: { text: 'I went hiking last Tuesday.', kind: 'event', about: 'me', at: tuesday } },
    ]);
    expect(read('We went to the lake on Tuesday night.', then).statements[0]).toMatchObject({
      kind: 'event',
      at: tuesday,
    });
    expect(read('I met Ana a couple of days ago.', then).statements[0]).toMatchObject({ at: Date.UTC(2020, 1, 8) });
    // Said on a Tuesday, "last Tuesday" is a week back, not the same day.
    expect(read('I went hiking last Tuesday.', Date.UTC(2020, 1, 11, 9)).statements[0]!.at).toBe(tuesday);
    // Not past: a weekday ahead, a habit, a name.
    expect(read("I'm so excited about the party on Saturday.", then).statements[0]!.at).toBeUndefined();
    expect(read('Next Friday works.', then).statements[0]).toMatchObject({ kind: 'conversation' });
    expect(read('Next Friday works.', then).statements[0]!.at).toBeUndefined();
    expect(read('We go climbing on Tuesdays.', then).statements[0]!.at).toBeUndefined();
    expect(read("I shared Tuesday's meeting notes with the team.", then).statements[0]!.at).toBeUndefined();
  });

  it('attributes a memory to the speaker, or to the person it names', () => {
    expect(read('Caroline: I moved to Porto.').statements[0]).toMatchObject({
      about: 'Caroline',
      attribute: 'lives in',
      value: 'Porto',
    });
    expect(read('My sister Ana lives in Lisbon.').statements[0]).toMatchObject({
      about: 'Ana',
      attribute: 'lives in',
      value: 'Lisbon',
    });
    expect(read('My coworker has a PhD in chemistry.').statements[0]).toMatchObject({ about: "me's coworker" });
    expect(read('Ana works at the hospital.').statements[0]).toMatchObject({
      about: 'Ana',
      attribute: 'works at',
      value: 'hospital',
    });
    expect(read('I live in Lisbon.').statements[0]!.about).toBe('me');
  });

  it('splits a turn into its statements and joins a continuation to the one before', () => {
    const r = read('I adopted a puppy last week. It was the best decision ever. Also, I am vegetarian now.');
    expect(r.statements.map((s) => [s.kind, s.text])).toEqual([
      ['event', 'I adopted a puppy last week. It was the best decision ever.'],
      ['fact', 'I am vegetarian now.'],
    ]);
  });

  it('is Unicode-safe: other scripts and languages pass through intact, never dropped as filler', () => {
    for (const text of [
      '私は東京に住んでいます。',
      'Meu nome é João e moro em Lisboa.',
      'Зовут меня Иван, живу в Москве.',
    ]) {
      const r = read(text);
      expect(r.statements).toHaveLength(1);
      expect(r.statements[0]!.text).toBe(text);
    }
    expect(read('Zoë: I live in Zürich 🇨🇭.').statements[0]).toMatchObject({
      about: 'Zoë',
      attribute: 'lives in',
      value: 'Zürich',
    });
  });

  it('a label is not a speaker', () => {
    expect(read('Note: I am allergic to shellfish.').statements[0]!.about).toBe('me');
  });
});

describe('OfflineExtractor', () => {
  it('turns durable statements into add operations, keeps conversation in the turn only', async () => {
    const plan = await new OfflineExtractor().extract(
      turn('I live in Lisbon. The weather has been lovely and warm this spring so far.'),
      noKnown,
    );
    expect(plan.keep).toBe(true);
    expect(plan.ops).toEqual([
      {
        op: 'add',
        statement: { text: 'I live in Lisbon.', kind: 'fact', about: 'me', attribute: 'lives in', value: 'Lisbon' },
      },
    ]);
  });

  it('a question-only turn is not kept', async () => {
    const plan = await new OfflineExtractor().extract(turn('Which city is my sibling in?'), noKnown);
    expect(plan).toEqual({
      keep: false,
      ops: [],
      dropped: [{ text: 'Which city is my sibling in?', reason: 'question' }],
    });
  });

  it('never forms memories from the assistant reply', async () => {
    const plan = await new OfflineExtractor().extract(
      turn('Thanks!', 'You told me you are allergic to peanuts and live in Lisbon.'),
      noKnown,
    );
    expect(plan.keep).toBe(false);
    expect(plan.ops).toEqual([]);
  });

  it('asks for similar memories by slot', async () => {
    const asked: unknown[] = [];
    await new OfflineExtractor().extract(turn('I moved to Porto.'), {
      similar: async (q) => {
        asked.push(q);
        return [];
      },
    });
    expect(asked).toEqual([{ text: 'I moved to Porto.', about: 'me', attribute: 'lives in' }]);
  });
});

void DAY;

describe('readTurn: independent clauses of one sentence are read on their own', () => {
  /** One line per statement: `text | kind | about`, then ` | attribute` when it fills a slot. */
  const shape = (input: string) =>
    read(input).statements.map((s) =>
      [s.text, s.kind, s.about, s.attribute].filter((x) => x !== undefined).join(' | '),
    );

  it.each([
    [
      'My name is Ada and I love hiking in the Alps.',
      ['My name is Ada | fact | me | name', 'I love hiking in the Alps. | preference | me'],
    ],
    [
      'Hi, my name is Dana and I work as a nurse.',
      ['My name is Dana | fact | me | name', 'I work as a nurse. | fact | me | works as'],
    ],
    [
      'I work as a nurse but my sister is a teacher.',
      ['I work as a nurse | fact | me | works as', "My sister is a teacher. | fact | me's sister | works as"],
    ],
    [
      'Ana lives in Berlin and I live in Munich.',
      ['Ana lives in Berlin | fact | Ana | lives in', 'I live in Munich. | fact | me | lives in'],
    ],
    [
      'My sister lives in Lisbon and my brother lives in Porto.',
      [
        "My sister lives in Lisbon | fact | me's sister | lives in",
        "My brother lives in Porto. | fact | me's brother | lives in",
      ],
    ],
    [
      // Split, then joined back: "we" is whom the clause before named (language/turn-reading.ts).
      'My wife and I love hiking and we go every weekend.',
      ['My wife and I love hiking and we go every weekend. | preference | me'],
    ],
    [
      "I'm allergic to peanuts; my son is allergic to eggs.",
      ["I'm allergic to peanuts | fact | me", "My son is allergic to eggs. | fact | me's son"],
    ],
    [
      'I like tea, while my wife prefers coffee.',
      ['I like tea | preference | me', "My wife prefers coffee. | preference | me's wife"],
    ],
  ])('splits %j', (input, expected) => {
    expect(shape(input)).toEqual(expected);
  });

  it.each([
    'I love hiking and skiing.',
    'Ana and I went to Porto.',
    'Fred and I went fishing.',
    'Me and my sister went to the beach.',
    'I love salt and pepper on my eggs.',
    'I think my sister and I will go.',
    'I think Ana and I will go.',
    'When my sister and I were kids we fought a lot.',
    'Yesterday Ana and I went hiking.',
    // A subject joined to the speaker after an opener, a comma or a word of time.
    'I almost forgot, yesterday my friends and I recorded a podcast.',
    'Last weekend my brother and I went camping.',
    'Then my sister and I moved to Porto.',
    'I love Tom and Jerry cartoons.',
    'I visited Rome and Paris last summer.',
    // "she" refers back to Ana: a clause of its own would say "she loves jazz" about the speaker.
    'I met Ana at work and she loves jazz.',
    'I love my dog and my cat.',
  ])('keeps %j whole', (input) => {
    expect(read(input).statements.map((s) => s.text)).toEqual([input]);
  });

  it('a subject joined to the speaker after an opener is kept whole, the opener cut off', () => {
    expect(read('Guess what, my wife and I bought a house.').statements.map((s) => s.text)).toEqual([
      'My wife and I bought a house.',
    ]);
  });

  it('a question is never split (it is left out whole)', () => {
    const r = read('My name is Ada and do you know where I live?');
    expect(r.statements).toEqual([]);
    expect(r.dropped.map((d) => d.reason)).toEqual(['question']);
  });

  it('a slot filled twice in one turn: the later clause holds it, the earlier stays a plain statement', () => {
    expect(shape('I moved to Paris in 2010 and then I moved to Lisbon.')).toEqual([
      'I moved to Paris in 2010 | fact | me',
      'Then I moved to Lisbon. | fact | me | lives in',
    ]);
    expect(read('I moved to Paris in 2010 and then I moved to Lisbon.').statements[1]!.value).toBe('Lisbon');
  });
});

describe('readTurn: "call me X" is a name only when X looks like one', () => {
  it.each([
    ['Call me Ishmael.', 'Ishmael'],
    ['You can call me Liz.', 'Liz'],
    ['Please call me Liz, everyone does.', 'Liz'],
    ['Call me Liz please.', 'Liz'],
    ['They call me Mary Jane.', 'Mary Jane'],
    ['Call me Sebastian.', 'Sebastian'],
  ])('%j → name %j', (input, value) => {
    expect(read(input).statements).toEqual([{ text: input, kind: 'fact', about: 'me', attribute: 'name', value }]);
  });

  it.each([
    // A request with a time is a task, like "remind me"; the date anchors it when one is named.
    ['Call me after six.', 'task', undefined],
    ['Call me at 5.', 'task', undefined],
    ['call me tomorrow', 'task', NOON - (NOON % DAY) + DAY],
    ['Text me on Friday.', 'task', Date.UTC(2023, 4, 12)],
    // Without a time it is conversation: kept in the turn, no memory of its own.
    ['Call me back.', 'conversation', undefined],
    ['Call me Monday.', 'conversation', undefined],
    ['Call me crazy, but the weather here is weird.', 'conversation', undefined],
    // Where to reach the user is no time: not a task (a task fades in weeks).
    ['You can email me at ada@example.com whenever you need.', 'conversation', undefined],
    ['You can email me at [EMAIL_1] whenever you need.', 'conversation', undefined],
    ['Call me on +44 20 7946 0958.', 'conversation', undefined],
    ['Text me at 0207 946 0958.', 'conversation', undefined],
  ])('%j → %s, not a name', (input, kind, at) => {
    const [s, ...rest] = read(input).statements;
    expect(rest).toEqual([]);
    expect(s).toEqual({ text: input, kind, about: 'me', ...(at !== undefined ? { at } : {}) });
  });

  it('only a request is a task: "call me" inside a statement about someone else is not', () => {
    expect(read('Please call me after six.').statements[0]!.kind).toBe('task');
    for (const input of ["My mom said she'd call me after dinner.", "He didn't call me at all."])
      expect(read(input).statements.map((s) => [s.kind, s.attribute])).not.toContainEqual(['task', undefined]);
    expect(read("He didn't call me at all.").statements.filter((s) => s.attribute === 'name')).toEqual([]);
  });

  it('"call me when you can" is left out (nothing to keep)', () => {
    expect(read('Call me when you can.').statements).toEqual([]);
  });

  it('other name slots keep their behaviour, and a nationality after "I\'m" is still no name', () => {
    expect(read('My name is Christian.').statements[0]).toMatchObject({ attribute: 'name', value: 'Christian' });
    expect(read("I'm Jeremy.").statements[0]).toMatchObject({ attribute: 'name', value: 'Jeremy' });
    expect(read("I'm Italian.").statements.filter((s) => s.attribute === 'name')).toEqual([]);
    expect(read('my name is liz').statements[0]).toMatchObject({ attribute: 'name', value: 'liz' });
  });
});

describe('readTurn: a slot value ends before a time or an adjunct', () => {
  it.each([
    ['I moved to Porto in 2019.', 'lives in', 'Porto', Date.UTC(2019, 0, 1)],
    ['I moved to New York in May 2019.', 'lives in', 'New York', Date.UTC(2019, 4, 1)],
    ['I moved to Porto back in 2019.', 'lives in', 'Porto', Date.UTC(2019, 0, 1)],
    ['I moved to Porto last year.', 'lives in', 'Porto', Date.UTC(2022, 0, 1)],
    ['I moved to Porto two weeks ago.', 'lives in', 'Porto', Date.UTC(2023, 3, 21)],
    ["I've been living in Porto since March.", 'lives in', 'Porto', Date.UTC(2023, 2, 1)],
    ["I've been living in Porto for three years.", 'lives in', 'Porto', undefined],
    ['I moved to Porto with my family.', 'lives in', 'Porto', undefined],
    // "a few years ago" is 2 to 4 years ago: the memory is dated from the farthest.
    ['I moved to Porto a few years ago.', 'lives in', 'Porto', Date.UTC(2019, 0, 1)],
    // Told on a Monday: "on Monday" in the past tense is that same day.
    ['I moved to Porto on Monday.', 'lives in', 'Porto', Date.UTC(2023, 4, 8)],
    ['I work at Google in Zurich.', 'works at', 'Google', undefined],
    ['I work as a nurse at the hospital.', 'works as', 'nurse', undefined],
    ['I work at Google full-time.', 'works at', 'Google', undefined],
    ['In 2019 I moved to Porto.', 'lives in', 'Porto', Date.UTC(2019, 0, 1)],
    ['We moved from Paris to Berlin last year.', 'lives in', 'Berlin', Date.UTC(2022, 0, 1)],
    ["I'm a nurse.", 'works as', 'nurse', undefined],
    ["I'm now a high school teacher.", 'works as', 'high school teacher', undefined],
    ['I just turned 35.', 'age', '35', undefined],
  ])('%j → %s %j', (input, attribute, value, at) => {
    expect(read(input).statements).toEqual([
      { text: input, kind: 'fact', about: 'me', attribute, value, ...(at !== undefined ? { at } : {}) },
    ]);
  });

  it.each([
    ['I live in Stoke on Trent.', 'Stoke on Trent'],
    ['I work at Bank of America.', 'Bank of America'],
    ['I live in New York City.', 'New York City'],
    ['I live in Lisbon.', 'Lisbon'],
    // A date that is the value is no time the slot came to hold it.
    ['My birthday is in May.', 'in May'],
  ])('%j keeps its value %j (no time, no adjunct)', (input, value) => {
    const s = read(input).statements[0]!;
    expect(s.value).toBe(value);
    expect(s.at).toBeUndefined();
  });
});

describe('readTurn: a slot typed in lower case with a name as its subject', () => {
  it("is the slot of the person named, never the speaker's", () => {
    expect(read('ana moved to porto last week').statements[0]).toMatchObject({
      about: 'Ana',
      attribute: 'lives in',
      value: 'porto',
    });
    expect(read('jake got a new job at google').statements[0]).toMatchObject({
      about: 'Jake',
      attribute: 'works at',
      value: 'google',
    });
  });

  it('after "my coworker", "my dog", the name typed in lower case is whom it is about', () => {
    expect(read('my coworker raj has a phd in physics').statements[0]).toMatchObject({ about: 'Raj' });
    expect(read('my sister ana lives in lisbon').statements[0]).toMatchObject({ about: 'Ana', attribute: 'lives in' });
    expect(read('my sister lives in lisbon').statements[0]).toMatchObject({ about: "me's sister" });
    expect(read('my brother just moved to porto').statements[0]).toMatchObject({ about: "me's brother" });
  });

  it('a relation said as a name ("Mom", "sis", "hubby") is the speaker\'s, filed under one spelling', () => {
    expect(read('Mom moved to Florida last year.').statements[0]).toMatchObject({
      about: "me's mom",
      attribute: 'lives in',
      value: 'Florida',
    });
    expect(read('mom works at a hospital').statements[0]).toMatchObject({ about: "me's mom", attribute: 'works at' });
    expect(read('sis moved to ohio last week').statements[0]).toMatchObject({
      text: 'sister moved to ohio last week',
      about: "me's sister",
      value: 'ohio',
    });
    expect(read('hubby got a new job at google').statements[0]).toMatchObject({ about: "me's husband" });
    expect(read('my bro is a doctor').statements[0]).toMatchObject({ about: "me's brother" });
    expect(read('Dad is allergic to shellfish.').statements[0]).toMatchObject({ kind: 'fact', about: "me's dad" });
    // "my mum", "my mother" and "mom" are one person.
    expect(read('My mum lives in Leeds.').statements[0]).toMatchObject({ about: "me's mom" });
    expect(read('My mother loves gardening.').statements[0]).toMatchObject({ about: "me's mom" });
  });

  it("a job said of a relation is their works-as slot, never the speaker's", () => {
    expect(read('My sister is a nurse.').statements[0]).toMatchObject({
      about: "me's sister",
      attribute: 'works as',
      value: 'nurse',
    });
    expect(read('mom is a teacher').statements[0]).toMatchObject({ about: "me's mom", value: 'teacher' });
    expect(read('My sister Ana is a software engineer.').statements[0]).toMatchObject({
      about: 'Ana',
      aka: ["me's sister"],
      value: 'software engineer',
    });
    // Not a job: "a good boy"; nor the speaker's when a name says it.
    expect(read('My dog is a good boy.').statements[0]!.attribute).toBeUndefined();
    expect(read('Ana is a nurse.').statements.filter((s) => s.about === 'me' && s.attribute)).toEqual([]);
  });

  it('what someone named did for the speaker is the speaker\'s ("Anna got me a vegan stir-fry")', () => {
    expect(read('Anna got me a vegan stir-fry the other day.').statements[0]).toMatchObject({ about: 'me' });
    expect(read('Anna got a new job at Google.').statements[0]).toMatchObject({ about: 'Anna', attribute: 'works at' });
    expect(read('My dad took me to my first car show when I was 10.').statements[0]).toMatchObject({ about: 'me' });
    expect(read('My friend gave her a bouquet.').statements[0]).toMatchObject({ about: "me's friend" });
  });

  it("a liking or a condition said of a name typed in lower case is that person's", () => {
    expect(read('jake loves hiking in the alps').statements[0]).toMatchObject({ kind: 'preference', about: 'Jake' });
    expect(read('raj is allergic to peanuts').statements[0]).toMatchObject({ kind: 'fact', about: 'Raj' });
    expect(read('everyone loves pizza').statements.filter((s) => s.kind !== 'conversation')).toEqual([]);
  });

  it('near-misses: the speaker left out, an adverb, "we", a word that is no name', () => {
    for (const input of ['just moved to porto last week', 'finally got a job at google', 'we moved to porto'])
      expect(read(input).statements[0], input).toMatchObject({ about: 'me' });
    expect(read('work got crazy at google').statements.filter((s) => s.attribute !== undefined)).toEqual([]);
  });
});

describe('readTurn: near-misses of the slots said in few words', () => {
  it.each([
    "I'm a huge fan of jazz.",
    "I'm a former teacher.",
    "I'm not a nurse.",
    'The dial turned 90 degrees.',
    'I stopped by Paris on the way to Berlin.',
  ])('%j', (input) => {
    expect(read(input).statements.filter((s) => s.attribute !== undefined)).toEqual([]);
  });
});

describe('readTurn: a value that is a clause fills no slot', () => {
  it.each([
    'My favourite memory was when my team won first place at a regional contest.',
    'This photo is from when we were ten.',
  ])('%j', (input) => {
    expect(read(input).statements.filter((s) => s.attribute !== undefined)).toEqual([]);
  });
});

describe('readTurn: a subject that includes the speaker is about the speaker', () => {
  it.each([
    ['My wife and I went to Rome.', 'event'],
    ['My wife and me went to Rome.', 'event'],
    ['Me and my wife went to Rome.', 'event'],
    ['Ana and me went to Rome.', 'event'],
    ['Ana and I went to Rome.', 'event'],
    ['My sister Ana and I love jazz.', 'preference'],
    ['My husband, Tom, and I moved to Porto.', 'fact'],
  ])('%j → about me (%s)', (input, kind) => {
    expect(read(input).statements).toMatchObject([{ text: input, kind, about: 'me' }]);
  });

  it('a slot of "my wife and I" is the speaker\'s, so a later "I live in …" supersedes it', () => {
    expect(read('My wife and I live in Lisbon.').statements[0]).toMatchObject({
      about: 'me',
      attribute: 'lives in',
      value: 'Lisbon',
    });
  });

  it.each([
    ['My wife went to Rome.', "me's wife"],
    ['My sister and her husband went to Rome.', "me's sister"],
    ['My sister Ana lives in Lisbon.', 'Ana'],
    ['Ana went to Rome with me.', 'Ana'],
  ])('%j stays about %j', (input, about) => {
    expect(read(input).statements[0]!.about).toBe(about);
  });
});

describe('readTurn: a possessive or contracted name is the name', () => {
  it.each([
    ["Ana's moved to Lisbon.", 'Ana'],
    ['Ana’s moved to Lisbon.', 'Ana'],
    ["James's moved to Boston.", 'James'],
    ["James' got a new boat.", 'James'],
    ["My friend James's moved to Boston.", 'James'],
    ["My brother Chris' wife is a doctor.", 'Chris'],
    // Names that end in s or hold an apostrophe stay whole.
    ['James loves sailing.', 'James'],
    ['Chris lives in Oslo.', 'Chris'],
    ["O'Brien lives in Dublin.", "O'Brien"],
    // A relation keeps the "<speaker>'s <relation>" form; a pronoun's contraction is no name.
    ["My sister's moved to Oslo.", "me's sister"],
    ["He's got a new job.", 'me'],
  ])('%j → about %j', (input, about) => {
    expect(read(input).statements[0]!.about).toBe(about);
  });
});
