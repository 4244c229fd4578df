import { invalid } from '../model/errors.js';

/** A time span named in text: inclusive epoch-ms bounds, and the words that named it. */
export interface TimeRange {
  from: number;
  to: number;
  /** The matched expression, as written. */
  text: string;
}

/** English month names, January first (index = `Date` month). */
export const MONTH_NAMES: readonly string[] = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const MONTH_ALT =
  'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';
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

// Order matters: the most specific forms first; a matched span is blanked so it is not read twice.
const PATTERNS: { re: RegExp; read: (m: RegExpExecArray, now: Date) => [Date, Date] | undefined }[] = [
  // 2023-05-08
  { re: /\b(\d{4})-(\d{1,2})-(\d{1,2})\b/g, read: (m) => day(+m[1]!, +m[2]! - 1, +m[3]!) },
  // 8 May 2023, 8th of May, 2023
  {
    re: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?(${MONTH_ALT})\\.?,?\\s+(\\d{4})\\b`, 'gi'),
    read: (m) => day(+m[3]!, month(m[2]!), +m[1]!),
  },
  // May 8, 2023 / May 8th 2023
  {
    re: new RegExp(`\\b(${MONTH_ALT})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'gi'),
    read: (m) => day(+m[3]!, month(m[1]!), +m[2]!),
  },
  // May 2023
  {
    re: new RegExp(`\\b(${MONTH_ALT})\\.?,?\\s+(?:of\\s+)?(\\d{4})\\b`, 'gi'),
    read: (m) => monthSpan(+m[2]!, month(m[1]!)),
  },
  // in May / during May / last May: the latest such month not after now.
  {
    re: new RegExp(`\\b(?:in|during|since|last|this|early|late|mid)[\\s-]+(${MONTH_ALT})\\b`, 'gi'),
    read: (m, now) => {
      const mo = month(m[1]!);
      const y = mo <= now.getUTCMonth() ? now.getUTCFullYear() : now.getUTCFullYear() - 1;
      return monthSpan(y, mo);
    },
  },
  // in 2023
  { re: /\b(?:in|during|since|of|for)\s+((?:19|20)\d{2})\b/gi, read: (m) => yearSpan(+m[1]!) },
  { re: /\byesterday\b/gi, read: (_m, now) => day(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - 1) },
  { re: /\btoday\b/gi, read: (_m, now) => day(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) },
  {
    re: /\b(last|this|past)\s+(week|weekend|month|year)\b/gi,
    read: (m, now) => relative(m[1]!.toLowerCase(), m[2]!.toLowerCase(), now),
  },
  {
    re: /\b(\d{1,2}|a|an|one|two|three|four|five|six|seven|eight|nine|ten)\s+(day|week|month|year)s?\s+ago\b/gi,
    read: (m, now) => {
      const n = /^\d+$/.test(m[1]!) ? +m[1]! : UNIT_WORDS[m[1]!.toLowerCase()]!;
      const unit = m[2]!.toLowerCase();
      const y = now.getUTCFullYear();
      const mo = now.getUTCMonth();
      const d = now.getUTCDate();
      // "ago" is approximate: a window around the point in time, wider for larger units.
      if (unit === 'day') return day(y, mo, d - n);
      if (unit === 'week')
        return [new Date(Date.UTC(y, mo, d - 7 * n - 3)), new Date(Date.UTC(y, mo, d - 7 * n + 4) - 1)];
      if (unit === 'month') return monthSpan(y, mo - n);
      return yearSpan(y - n);
    },
  },
];

/**
 * Time spans that `text` names: absolute dates ("8 May 2023", "May 8, 2023", "2023-05-08"),
 * months ("May 2023", "in May"), years ("in 2023") and relative expressions ("yesterday",
 * "last week", "this month", "3 days ago") resolved against `now` (epoch ms). Dates are UTC
 * calendar days. Returns `[]` when nothing is recognised. A month without a year is the latest
 * such month not after `now`.
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
      const r = read(m, ref);
      if (r && !Number.isNaN(r[0].getTime()) && r[1] >= r[0]) {
        out.push({ from: r[0].getTime(), to: r[1].getTime(), text: m[0] });
        spans.push([m.index, m.index + m[0].length]);
      }
    }
    for (const [a, b] of spans) rest = rest.slice(0, a) + ' '.repeat(b - a) + rest.slice(b);
  }
  return out;
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
