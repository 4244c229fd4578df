import { invalid } from '../model/errors.js';
import { MONTH, MONTH_NAMES, PAST_VERB, SEASON, SEASON_START, WEEKDAY_NAMES } from './lexicon.js';

/** A time span named in text: inclusive epoch-ms bounds, and the words that named it. */
export interface TimeRange {
  from: number;
  to: number;
  /** The matched expression, as written. */
  text: string;
}

const WEEKDAY_ALT = WEEKDAY_NAMES.join('|');
/**
 * A weekday that names a day: not a possessive or a name ("Tuesday's meeting notes"), not
 * "Sunday school", and not the label of an explicit date that follows ("on Tuesday, May 8, 2023":
 * the date is read instead).
 */
const WEEKDAY_DAY = `(${WEEKDAY_ALT})\\b(?!['’]s\\b|\\s+school\\b|[,\\s]+(?:the\\s+)?\\d{1,2}(?:st|nd|rd|th)?\\b|[,\\s]+(?:${MONTH})\\b)`;
/**
 * Text told in the past tense: an auxiliary of the past ("did", "was", "were", "had"), or a
 * subject (a pronoun or a capitalised name) followed by a verb in the simple past ("I went",
 * "Caroline finally visited"). "I'm excited" is not: an adjective in "-ed" after a verb is not
 * a past verb.
 */
const PAST_TENSE_RE = new RegExp(
  `\\b(?:[Dd]id|[Ww]as|[Ww]ere|[Hh]ad)\\b|\\b(?:[Ii]|[Ww]e|[Yy]ou|[Hh]e|[Ss]he|[Tt]hey|(?![Ii]['’]|The\\b|This\\b|That\\b|It\\b)\\p{Lu}[\\p{L}\\p{M}'’-]+)\\s+(?:(?:just|recently|finally|also|actually|even|already|first|once)\\s+)?(?:${PAST_VERB})\\b`,
  'u',
);
/** Words that put a bare weekday ahead of the text's time, whatever its verbs. */
const FUTURE_CUE_RE = /\b(?:will|shall|gonna|going\s+to|plan(?:ning)?\s+to|tomorrow|next|upcoming|coming)\b|['’]ll\b/i;
const DAY = 86_400_000;
const UNIT_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
};
/** Vague counts, as the range of units they stand for: "a few days ago" is 2 to 4 days ago. */
const VAGUE_COUNTS: Record<string, [number, number]> = {
  'a couple': [2, 2],
  couple: [2, 2],
  'a few': [2, 4],
  few: [2, 4],
  several: [2, 4],
};

// Order matters: the most specific forms first; a matched span is blanked so it is not read twice.
const PATTERNS: {
  re: RegExp;
  read: (m: RegExpExecArray, now: Date, text: string) => [Date, Date] | undefined;
}[] = [
  // last Tuesday / this past Tuesday: the latest Tuesday strictly before today.
  {
    re: new RegExp(`\\b(?:last|(?:this\\s+)?past)\\s+${WEEKDAY_DAY}`, 'gi'),
    read: (m, now) => weekday(now, weekdayIndex(m[1]!), 'before'),
  },
  // this Friday: the Friday of the current week (weeks start on Monday), past or ahead.
  {
    re: new RegExp(`\\bthis\\s+${WEEKDAY_DAY}`, 'gi'),
    read: (m, now) => weekday(now, weekdayIndex(m[1]!), 'this-week'),
  },
  // next Saturday: the first Saturday strictly after today (as the formation reads a task's date).
  {
    re: new RegExp(`\\bnext\\s+${WEEKDAY_DAY}`, 'gi'),
    read: (m, now) => weekday(now, weekdayIndex(m[1]!), 'after'),
  },
  // on Tuesday / Tuesday night: only in text told in the past tense, as the latest Tuesday on or
  // before today; otherwise the day may as well be ahead, and it is not read.
  {
    re: new RegExp(`\\bon\\s+${WEEKDAY_DAY}|\\b(${WEEKDAY_ALT})\\s+(?:morning|afternoon|evening|night)\\b`, 'gi'),
    read: (m, now, text) =>
      PAST_TENSE_RE.test(text) && !FUTURE_CUE_RE.test(text)
        ? weekday(now, weekdayIndex((m[1] ?? m[2])!), 'on-or-before')
        : undefined,
  },
  // 2023-05-08
  { re: /\b(\d{4})-(\d{1,2})-(\d{1,2})\b/g, read: (m) => day(+m[1]!, +m[2]! - 1, +m[3]!) },
  // 23.01.2024: day first, as written with dots.
  { re: /\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b/g, read: (m) => day(+m[3]!, +m[2]! - 1, +m[1]!) },
  // 8 May 2023, 8th of May, 2023
  {
    re: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?(${MONTH})\\.?,?\\s+(\\d{4})\\b`, 'gi'),
    read: (m) => day(+m[3]!, month(m[2]!), +m[1]!),
  },
  // May 8, 2023 / May 8th 2023
  {
    re: new RegExp(`\\b(${MONTH})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'gi'),
    read: (m) => day(+m[3]!, month(m[1]!), +m[2]!),
  },
  // May 2023
  {
    re: new RegExp(`\\b(${MONTH})\\.?,?\\s+(?:of\\s+)?(\\d{4})\\b`, 'gi'),
    read: (m) => monthSpan(+m[2]!, month(m[1]!)),
  },
  // the 10th of February / 10th of February / February 10th: the latest such day not after now.
  {
    re: new RegExp(
      `\\b(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)?\\s+of\\s+(${MONTH})\\b|\\b(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)\\s+(${MONTH})\\b|\\b(${MONTH})\\s+(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)\\b`,
      'gi',
    ),
    read: (m, now) => {
      const mo = month((m[2] ?? m[4] ?? m[5])!);
      const d = +(m[1] ?? m[3] ?? m[6])!;
      const y =
        Date.UTC(now.getUTCFullYear(), mo, d) <= now.getTime() ? now.getUTCFullYear() : now.getUTCFullYear() - 1;
      return day(y, mo, d);
    },
  },
  // in May / during May / last May: the latest such month not after now.
  {
    re: new RegExp(`\\b(?:in|during|since|last|this|early|late|mid)[\\s-]+(${MONTH})\\b`, 'gi'),
    read: (m, now) => {
      const mo = month(m[1]!);
      const y = mo <= now.getUTCMonth() ? now.getUTCFullYear() : now.getUTCFullYear() - 1;
      return monthSpan(y, mo);
    },
  },
  // summer 2022 / the summer of 2022 / winter 2023 (December 2023 to February 2024)
  {
    re: new RegExp(`\\b(${SEASON}),?\\s+(?:of\\s+)?((?:19|20)\\d{2})\\b`, 'gi'),
    read: (m) => seasonSpan(+m[2]!, SEASON_START[m[1]!.toLowerCase()]!),
  },
  // last summer / this winter / next spring
  {
    re: new RegExp(`\\b(last|this|next)\\s+(${SEASON})\\b`, 'gi'),
    read: (m, now) => season(m[1]!.toLowerCase(), SEASON_START[m[2]!.toLowerCase()]!, now),
  },
  // in 2023
  { re: /\b(?:in|during|since|of|for)\s+((?:19|20)\d{2})\b/gi, read: (m) => yearSpan(+m[1]!) },
  { re: /\byesterday\b/gi, read: (_m, now) => day(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - 1) },
  { re: /\btoday\b/gi, read: (_m, now) => day(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) },
  {
    re: /\b(last|this|past)\s+(week|weekend|month|year)\b/gi,
    read: (m, now) => relative(m[1]!.toLowerCase(), m[2]!.toLowerCase(), now),
  },
  // 3 days ago / a couple of weeks ago / a few months ago (2 to 4 months ago) / several years ago
  {
    re: /\b(\d{1,2}|a\s+couple(?:\s+of)?|couple(?:\s+of)?|a\s+few|few|several|a|an|one|two|three|four|five|six|seven|eight|nine|ten)\s+(day|week|month|year)s?\s+ago\b/gi,
    read: (m, now) => {
      const count = m[1]!
        .toLowerCase()
        .replace(/\s+of$/, '')
        .replace(/\s+/g, ' ');
      const [least, most] = /^\d+$/.test(count)
        ? [+count, +count]
        : (VAGUE_COUNTS[count] ?? [UNIT_WORDS[count]!, UNIT_WORDS[count]!]);
      const unit = m[2]!.toLowerCase();
      // From the start of the farthest window to the end of the nearest.
      const far = ago(most, unit, now);
      const near = ago(least, unit, now);
      return far && near ? [far[0], near[1]] : undefined;
    },
  },
];

const NEXT_WEEKDAY_RE = new RegExp(`\\b(?:next|on|this|coming)\\s+(${WEEKDAY_ALT})\\b`, 'i');
const TODAY_LATER_RE = /\b(?:tonight|today|this\s+(?:evening|afternoon))\b/i;
const TOMORROW_RE = /\btomorrow\b/i;
const IN_UNITS_RE = /\bin\s+(\d{1,2}|a|an|one|two|three|four|five|six|seven)\s+(day|week|month)s?\b/i;
const NEXT_UNIT_RE = /\bnext\s+(week|month|year)\b/i;
/** "this weekend", "this coming weekend", "next weekend": the weekend to come, or the one after it. */
const WEEKEND_AHEAD_RE = /\b(?:(this|coming)\s+(?:coming\s+)?|(next)\s+)weekend\b/i;

/**
 * The day a task is due by, as named in `text` and anchored at `now`: the start of that UTC day
 * (tonight or today, tomorrow, in 3 days, in two weeks, next week — its Monday —, next month or
 * year — its first day —, next Friday or on Friday — the next one after today). `undefined` when
 * `text` names no day ahead. {@link parseTimeRanges} reads spans of the past, as questions ask.
 */
export function dueDay(text: string, now: number): number | undefined {
  const d = new Date(now);
  const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  let m: RegExpExecArray | null;
  if (TODAY_LATER_RE.test(text)) return start;
  if (TOMORROW_RE.test(text)) return start + DAY;
  if ((m = IN_UNITS_RE.exec(text))) {
    const n = /^\d+$/.test(m[1]!) ? +m[1]! : UNIT_WORDS[m[1]!.toLowerCase()]!;
    const unit = m[2]!.toLowerCase();
    return unit === 'day'
      ? start + n * DAY
      : unit === 'week'
        ? start + 7 * n * DAY
        : Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, d.getUTCDate());
  }
  if ((m = NEXT_UNIT_RE.exec(text))) {
    const unit = m[1]!.toLowerCase();
    if (unit === 'week') return start + (7 - ((d.getUTCDay() + 6) % 7)) * DAY;
    if (unit === 'month') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    return Date.UTC(d.getUTCFullYear() + 1, 0, 1);
  }
  if ((m = WEEKEND_AHEAD_RE.exec(text))) {
    // The coming Saturday (today on a weekend day), or the Saturday a week after it (six days on from a Sunday).
    const day = d.getUTCDay();
    if (day === 0) return m[2] !== undefined ? start + 6 * DAY : start;
    return start + (6 - day + (m[2] !== undefined ? 7 : 0)) * DAY;
  }
  if ((m = NEXT_WEEKDAY_RE.exec(text))) {
    const target = (WEEKDAY_NAMES.indexOf(m[1]!.toLowerCase()) + 1) % 7; // Date#getUTCDay numbering: Sunday = 0
    return start + ((target - d.getUTCDay() + 7) % 7 || 7) * DAY;
  }
  return undefined;
}

/** "in April", "next April", "this April" with no year after it. */
const MONTH_AHEAD_RE = new RegExp(`\\b(in|next|this|coming)\\s+(${MONTH_NAMES.join('|')})\\b(?![\\s,]+\\d)`, 'i');

/**
 * The day a month named in a plan ("I'm planning a trip to Japan in April") starts, as of `now`:
 * the first day of the next such month ("this" month, or "in" it said during it: today), or
 * undefined. Read only of what is said to be ahead: "I went to Japan in April" is the last April
 * ({@link parseTimeRanges}).
 */
export function monthAhead(text: string, now: number): number | undefined {
  const m = MONTH_AHEAD_RE.exec(text);
  if (!m) return undefined;
  const d = new Date(now);
  const month = MONTH_NAMES.indexOf(m[2]!.toLowerCase());
  if (month === d.getUTCMonth() && m[1]!.toLowerCase() !== 'next')
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  return Date.UTC(d.getUTCFullYear() + (month <= d.getUTCMonth() ? 1 : 0), month, 1);
}

/**
 * Time spans that `text` names: absolute dates ("8 May 2023", "May 8, 2023", "2023-05-08",
 * "23.01.2024" day first; "the 10th of February" without a year: the latest such day not after `now`),
 * months ("May 2023", "in May"), seasons ("summer 2022", "the winter of 2023", "last summer",
 * "this spring", "next fall": meteorological, northern hemisphere; `SEASON_START`), years ("in 2023") and relative expressions ("yesterday",
 * "last week", "this month", "3 days ago", "a few weeks ago") resolved against `now` (epoch ms).
 * Dates are UTC calendar days. Returns `[]` when nothing is recognised. A month without a year
 * is the latest such month not after `now`.
 *
 * Weekdays (weeks start on Monday):
 * - "last Tuesday", "this past Tuesday": the latest Tuesday strictly before the day of `now`.
 * - "this Friday": the Friday of the week of `now`, whether already past or ahead.
 * - "next Saturday": the first Saturday strictly after the day of `now`.
 * - a bare "on Tuesday" or "Tuesday night" (morning, afternoon, evening) is read only when the
 *   text is told in the past tense ("I went hiking on Tuesday", "What did she do on Tuesday?"):
 *   the latest Tuesday on or before the day of `now`. Questions follow the same rule, so a
 *   question in the present or future ("What's on Friday?", "Am I free on Friday?") or any text
 *   with a cue of the future ("will", "'ll", "going to", "tomorrow", "next") names no range.
 * - Not read: plurals ("on Tuesdays" is a habit), possessives and names ("Tuesday's meeting
 *   notes"), "Sunday school", and a weekday that labels an explicit date ("Tuesday, May 8, 2023").
 *
 * Counts before "ago": a number or a number word is that many units; "a couple (of)" is 2;
 * "a few" and "several" are 2 to 4 units ago, one range from the farthest to the nearest.
 */
export function parseTimeRanges(text: string, now: number): TimeRange[] {
  if (typeof text !== 'string') invalid('text', 'a string', text);
  if (typeof now !== 'number' || !Number.isFinite(now)) invalid('now', 'epoch milliseconds', now);
  const ref = new Date(now);
  let rest = text;
  const out: TimeRange[] = [];
  for (const { re, read } of PATTERNS) {
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    const spans: [number, number][] = [];
    while ((m = re.exec(rest))) {
      const r = read(m, ref, text);
      if (r && !Number.isNaN(r[0].getTime()) && r[1] >= r[0]) {
        out.push({ from: r[0].getTime(), to: r[1].getTime(), text: m[0] });
        spans.push([m.index, m.index + m[0].length]);
      }
    }
    for (const [a, b] of spans) rest = rest.slice(0, a) + ' '.repeat(b - a) + rest.slice(b);
  }
  return out;
}

function weekdayIndex(name: string): number {
  return WEEKDAY_NAMES.indexOf(name.toLowerCase());
}

/** The day of weekday `target` (Monday = 0) relative to the day of `now`, as one calendar day. */
function weekday(
  now: Date,
  target: number,
  which: 'before' | 'on-or-before' | 'this-week' | 'after',
): [Date, Date] | undefined {
  const y = now.getUTCFullYear();
  const mo = now.getUTCMonth();
  const d = now.getUTCDate();
  const dow = (now.getUTCDay() + 6) % 7; // Monday = 0
  const back = (dow - target + 7) % 7;
  if (which === 'before') return day(y, mo, d - (back || 7));
  if (which === 'on-or-before') return day(y, mo, d - back);
  if (which === 'this-week') return day(y, mo, d - dow + target);
  return day(y, mo, d + ((target - dow + 7) % 7 || 7));
}

/** The window of `n` units ago: "ago" is approximate, a window wider for larger units. */
function ago(n: number, unit: string, now: Date): [Date, Date] | undefined {
  const y = now.getUTCFullYear();
  const mo = now.getUTCMonth();
  const d = now.getUTCDate();
  if (unit === 'day') return day(y, mo, d - n);
  if (unit === 'week') return [new Date(Date.UTC(y, mo, d - 7 * n - 3)), new Date(Date.UTC(y, mo, d - 7 * n + 4) - 1)];
  if (unit === 'month') return monthSpan(y, mo - n);
  return yearSpan(y - n);
}

function month(name: string): number {
  const key = name.toLowerCase().slice(0, 3);
  return MONTH_NAMES.findIndex((m) => m.startsWith(key));
}

function day(y: number, m: number, d: number): [Date, Date] | undefined {
  if (m < 0 || m > 11 || d < 1 - 31 || d > 31) return undefined;
  const start = Date.UTC(y, m, d);
  return [new Date(start), new Date(start + DAY - 1)];
}

function monthSpan(y: number, m: number): [Date, Date] | undefined {
  if (m < -120) return undefined;
  return [new Date(Date.UTC(y, m, 1)), new Date(Date.UTC(y, m + 1, 1) - 1)];
}

/** The three months of the season starting in month `start` of year `y` (winter runs into `y + 1`). */
function seasonSpan(y: number, start: number): [Date, Date] | undefined {
  return [new Date(Date.UTC(y, start, 1)), new Date(Date.UTC(y, start + 3, 1) - 1)];
}

/**
 * "last summer": the latest such season that ended before now; "this summer": the one of the
 * current year (for winter, the one now is in, else the one starting in December); "next
 * summer": the first that starts after now.
 */
function season(which: string, start: number, now: Date): [Date, Date] | undefined {
  const t = now.getTime();
  const y = now.getUTCFullYear();
  // The season starting in year y - 1, y or y + 1 that the word points at.
  const spans = [y - 1, y, y + 1].map((year) => seasonSpan(year, start)!);
  if (which === 'last') return spans.filter((s) => s[1].getTime() < t).at(-1);
  if (which === 'next') return spans.find((s) => s[0].getTime() > t);
  const containing = spans.find((s) => s[0].getTime() <= t && t <= s[1].getTime());
  if (containing) return containing;
  // Not in it now: this year's, or for a winter in January–February, the one that just began last December.
  return start === 11 && now.getUTCMonth() < 2 ? spans[0] : spans[1];
}

function yearSpan(y: number): [Date, Date] {
  return [new Date(Date.UTC(y, 0, 1)), new Date(Date.UTC(y + 1, 0, 1) - 1)];
}

function relative(which: string, unit: string, now: Date): [Date, Date] | undefined {
  const y = now.getUTCFullYear();
  const mo = now.getUTCMonth();
  const d = now.getUTCDate();
  const dow = (now.getUTCDay() + 6) % 7; // Monday = 0
  const back = which === 'this' ? 0 : 1;
  if (unit === 'year') return which === 'past' ? [new Date(Date.UTC(y - 1, mo, d)), now] : yearSpan(y - back);
  if (unit === 'month') return which === 'past' ? [new Date(Date.UTC(y, mo - 1, d)), now] : monthSpan(y, mo - back);
  if (which === 'past') return [new Date(Date.UTC(y, mo, d - 7)), now];
  const monday = d - dow - 7 * back;
  if (unit === 'weekend') return [new Date(Date.UTC(y, mo, monday + 5)), new Date(Date.UTC(y, mo, monday + 7) - 1)];
  return [new Date(Date.UTC(y, mo, monday)), new Date(Date.UTC(y, mo, monday + 7) - 1)];
}
