import { describe, expect, it } from 'vitest';
import { isZerdaError } from '../model/errors.js';
import { parseTimeRanges } from './time-expressions.js';

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
