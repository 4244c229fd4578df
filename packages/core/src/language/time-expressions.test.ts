import { describe, expect, it } from 'vitest';
import { isZerdaError } from '../model/errors.js';
import { dueDay, monthAhead, parseTimeRanges } from './time-expressions.js';

// Friday 20 October 2023, noon UTC.
const NOW = Date.UTC(2023, 9, 20, 12);
const day = (s: string) => new Date(s).toISOString().slice(0, 10);
const spans = (text: string, now = NOW) =>
  parseTimeRanges(text, now).map((r) => `${day(new Date(r.from).toISOString())}..${day(new Date(r.to).toISOString())}`);

describe('parseTimeRanges', () => {
  it.each([
    ['What painting did she show on October 13, 2023?', ['2023-10-13..2023-10-13']],
    ['What did Gina find on 1 February, 2023?', ['2023-02-01..2023-02-01']],
    ['the 3rd of March 2022', ['2022-03-03..2022-03-03']],
    ['logged 2024-02-29', ['2024-02-29..2024-02-29']],
    ['a workout class in December 2023', ['2023-12-01..2023-12-31']],
    ['Sept 2021 trip', ['2021-09-01..2021-09-30']],
    ['how many beach trips in 2023', ['2023-01-01..2023-12-31']],
  ])('reads absolute dates: %s', (text, expected) => {
    expect(spans(text)).toEqual(expected);
  });

  it('puts a month without a year at its latest occurrence not after now', () => {
    expect(spans('camping in June?')).toEqual(['2023-06-01..2023-06-30']);
    expect(spans('camping in October?')).toEqual(['2023-10-01..2023-10-31']);
    expect(spans('skiing in December?')).toEqual(['2022-12-01..2022-12-31']);
  });

  it('resolves relative expressions against now (weeks start on Monday)', () => {
    expect(spans('what did I eat yesterday')).toEqual(['2023-10-19..2023-10-19']);
    expect(spans('today')).toEqual(['2023-10-20..2023-10-20']);
    expect(spans('last week')).toEqual(['2023-10-09..2023-10-15']);
    expect(spans('this week')).toEqual(['2023-10-16..2023-10-22']);
    expect(spans('last weekend')).toEqual(['2023-10-14..2023-10-15']);
    expect(spans('last month')).toEqual(['2023-09-01..2023-09-30']);
    expect(spans('last year')).toEqual(['2022-01-01..2022-12-31']);
    expect(spans('3 days ago')).toEqual(['2023-10-17..2023-10-17']);
    expect(spans('two weeks ago')).toEqual(['2023-10-03..2023-10-09']);
    expect(spans('a month ago')).toEqual(['2023-09-01..2023-09-30']);
    // January: last month is December of the year before.
    expect(spans('last month', Date.UTC(2024, 0, 10))).toEqual(['2023-12-01..2023-12-31']);
  });

  it('reads weekdays against the day of now (Friday 20 October 2023; weeks start on Monday)', () => {
    // last / this past: the latest such day strictly before today.
    expect(spans('I went hiking last Tuesday.')).toEqual(['2023-10-17..2023-10-17']);
    expect(spans('last Friday')).toEqual(['2023-10-13..2023-10-13']);
    expect(spans('this past Monday')).toEqual(['2023-10-16..2023-10-16']);
    expect(spans('last Saturday')).toEqual(['2023-10-14..2023-10-14']);
    // this: the day of the current week, past or ahead.
    expect(spans('this Monday')).toEqual(['2023-10-16..2023-10-16']);
    expect(spans('this Friday')).toEqual(['2023-10-20..2023-10-20']);
    expect(spans('this Sunday')).toEqual(['2023-10-22..2023-10-22']);
    // next: the first such day strictly after today.
    expect(spans('next Saturday')).toEqual(['2023-10-21..2023-10-21']);
    expect(spans('next Friday')).toEqual(['2023-10-27..2023-10-27']);
    // Across a month and a year boundary: Monday 1 January 2024.
    expect(spans('last Sunday', Date.UTC(2024, 0, 1))).toEqual(['2023-12-31..2023-12-31']);
    expect(spans('last Monday', Date.UTC(2024, 0, 1))).toEqual(['2023-12-25..2023-12-25']);
  });

  it('reads a bare weekday only in the past tense, as the latest such day on or before today', () => {
    expect(spans('I went hiking on Tuesday.')).toEqual(['2023-10-17..2023-10-17']);
    expect(spans('I went hiking on Friday.')).toEqual(['2023-10-20..2023-10-20']);
    expect(spans('Caroline finally visited her mom on Sunday')).toEqual(['2023-10-15..2023-10-15']);
    expect(spans('Tuesday night we watch a film')).toEqual([]);
    expect(spans('Tuesday night I watched a film')).toEqual(['2023-10-17..2023-10-17']);
    expect(parseTimeRanges('We met on Wednesday evening', NOW).map((r) => r.text)).toEqual(['on Wednesday']);
    // A question follows the same rule: past tense reads, present or future does not.
    expect(spans('What did Melanie paint on Tuesday?')).toEqual(['2023-10-17..2023-10-17']);
    expect(spans("What's on Friday?")).toEqual([]);
    expect(spans('Am I free on Saturday?')).toEqual([]);
    // Ahead, or not a day at all.
    expect(spans("I'm so excited for the concert on Saturday")).toEqual([]);
    expect(spans('I went to the gym and I will go again on Thursday')).toEqual([]);
    expect(spans('We went climbing on Tuesdays')).toEqual([]);
    expect(spans("I read Tuesday's meeting notes")).toEqual([]);
    expect(spans('I went to Sunday school as a kid')).toEqual([]);
    expect(spans('Tuesday Weld starred in it')).toEqual([]);
    // A weekday that labels an explicit date: the date is read, once.
    expect(spans('She called on Tuesday, May 8, 2023')).toEqual(['2023-05-08..2023-05-08']);
    expect(spans('She called last Monday, 3 July 2023')).toEqual(['2023-07-03..2023-07-03']);
  });

  it('reads vague counts before "ago": a couple is 2, a few and several are 2 to 4 units', () => {
    expect(spans('a couple of days ago')).toEqual(['2023-10-18..2023-10-18']);
    expect(spans('a couple weeks ago')).toEqual(spans('two weeks ago'));
    expect(spans('a few days ago')).toEqual(['2023-10-16..2023-10-18']);
    expect(spans('a few weeks ago')).toEqual(['2023-09-19..2023-10-09']);
    expect(spans('few months ago')).toEqual(['2023-06-01..2023-08-31']);
    expect(spans('several years ago')).toEqual(['2019-01-01..2021-12-31']);
    expect(spans('a few years back')).toEqual([]);
  });

  it('reads seasons (meteorological, northern hemisphere): with a year, or last / this / next', () => {
    expect(spans('In what country was Jolene during summer 2022?')).toEqual(['2022-06-01..2022-08-31']);
    expect(spans('in the summer of 2021')).toEqual(['2021-06-01..2021-08-31']);
    expect(spans('spring 2024 plans')).toEqual(['2024-03-01..2024-05-31']);
    expect(spans('the fall of 2020')).toEqual(['2020-09-01..2020-11-30']);
    // Winter starts in December and runs into the next year.
    expect(spans('winter 2023')).toEqual(['2023-12-01..2024-02-29']);
    // last: the latest that ended before now; next: the first that starts after it.
    expect(spans('last summer')).toEqual(['2023-06-01..2023-08-31']);
    expect(spans('on vacation last summer', Date.UTC(2023, 1, 4))).toEqual(['2022-06-01..2022-08-31']);
    expect(spans('last winter')).toEqual(['2022-12-01..2023-02-28']);
    expect(spans('next summer')).toEqual(['2024-06-01..2024-08-31']);
    expect(spans('next autumn')).toEqual(['2024-09-01..2024-11-30']);
    // this: the one now is in, else this year's (for winter in January, the one that began in December).
    expect(spans('this autumn')).toEqual(['2023-09-01..2023-11-30']);
    expect(spans('this summer')).toEqual(['2023-06-01..2023-08-31']);
    expect(spans('this winter', Date.UTC(2024, 0, 10))).toEqual(['2023-12-01..2024-02-29']);
    // A season without a year or a "last / this / next" is a habit or a verb, not a span.
    expect(spans('I love sailing every summer')).toEqual([]);
    expect(spans('I hope I do not fall again')).toEqual([]);
    expect(spans('the leaves fall in autumn')).toEqual([]);
  });

  it('leaves month look-alikes alone', () => {
    expect(spans('Mayday! We march on.')).toEqual([]);
    expect(spans('March on, they said, in March')).toEqual(['2023-03-01..2023-03-31']);
  });

  it('reads each span once, most specific form first, and reports what matched', () => {
    const r = parseTimeRanges('on May 8, 2023 and later in June', NOW);
    expect(r.map((x) => x.text)).toEqual(['May 8, 2023', 'in June']);
    expect(spans('May 2023')).toEqual(['2023-05-01..2023-05-31']);
  });

  it('finds nothing in text without dates (numbers and the modal "may" are not dates)', () => {
    expect(parseTimeRanges('I may have 2 dogs and 1200 followers', NOW)).toEqual([]);
    expect(parseTimeRanges('', NOW)).toEqual([]);
  });

  it('rejects bad input', () => {
    expect(() => parseTimeRanges(42 as unknown as string, NOW)).toThrow(
      expect.objectContaining({ code: 'VALIDATION' }),
    );
    try {
      parseTimeRanges('x', Number.NaN);
      expect.unreachable();
    } catch (e) {
      expect(isZerdaError(e, 'VALIDATION')).toBe(true);
    }
  });
});

describe('dueDay', () => {
  // NOW is a Friday.
  it.each([
    ['call mom tonight', '2023-10-20'],
    ['pay rent tomorrow', '2023-10-21'],
    ['finish it in 3 days', '2023-10-23'],
    ['move in two weeks', '2023-11-03'],
    ['renew it in a month', '2023-11-20'],
    ['submit it next week', '2023-10-23'],
    ['next month', '2023-11-01'],
    ['next year', '2024-01-01'],
    ['on Friday', '2023-10-27'],
    ['next Monday', '2023-10-23'],
    ['gonna see my grandma this weekend', '2023-10-21'],
    ['this coming weekend', '2023-10-21'],
    ['visiting them next weekend', '2023-10-28'],
  ])('reads the day a task is due: %s', (text, expected) => {
    expect(day(new Date(dueDay(text, NOW)!).toISOString())).toBe(expected);
  });

  it('"this weekend" on a Sunday is today; "next weekend" the Saturday after', () => {
    const sunday = Date.UTC(2023, 9, 22, 12);
    expect(day(new Date(dueDay('this weekend', sunday)!).toISOString())).toBe('2023-10-22');
    expect(day(new Date(dueDay('next weekend', sunday)!).toISOString())).toBe('2023-10-28');
  });

  it('names no day for the past or for no time at all', () => {
    expect(dueDay('we went camping last weekend', NOW)).toBeUndefined();
    expect(dueDay('I called mom yesterday', NOW)).toBeUndefined();
    expect(dueDay('buy milk', NOW)).toBeUndefined();
  });
});

describe('monthAhead', () => {
  const DEC_5 = Date.UTC(2026, 11, 5, 15);
  it('a month named in a plan is the next such month (this one: today)', () => {
    expect(monthAhead("I'm planning a trip to Japan in April", DEC_5)).toBe(Date.UTC(2027, 3, 1));
    expect(monthAhead("We're going to Lisbon in December", DEC_5)).toBe(Date.UTC(2026, 11, 5));
    expect(monthAhead('next December we move', DEC_5)).toBe(Date.UTC(2027, 11, 1));
    expect(monthAhead('this March', Date.UTC(2026, 0, 10))).toBe(Date.UTC(2026, 2, 1));
  });

  it('near-misses: a month with its year, or none named', () => {
    expect(monthAhead('in April 2025', DEC_5)).toBeUndefined();
    expect(monthAhead('in a month', DEC_5)).toBeUndefined();
  });
});
