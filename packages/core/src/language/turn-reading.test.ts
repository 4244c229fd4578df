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
  ])('%s: %s', (_why, text) => {
    expect(formed(text)).toEqual([]);
  });

  it('a topic or a sentence opener is no person', () => {
    for (const text of ['Athens is beautiful in spring.', 'Just got some new shoes, too!', 'Right now I live in Lyon.'])
      for (const line of read(text)) expect(line.split(' | ')[1]).toBe('Ann');
  });
});

describe('readTurn: kinds and dates', () => {
  it('a task is something to do; a past outcome is an event', () => {
    expect(formed('I need to renew my passport next week.')).toEqual([
      'task | Ann | I need to renew my passport next week.',
    ]);
    expect(formed('My exam went really well.')).toEqual(['event | Ann | My exam went really well.']);
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
  });
});
