import { invalid } from '@zerda/core/adapter';

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME_RE =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * Parse an ISO date (`2025-03-01`) or date-time (`2025-03-01T14:30`, `…:00Z`, `…+02:00`) to
 * epoch milliseconds. Times without an offset are UTC. A bare date means the start of that day
 * (UTC), or its last millisecond when `endOfDay` is set, so `date_to: "2025-03-01"` includes the
 * whole day. Anything else (including impossible dates such as `2025-02-30`) throws `VALIDATION`.
 */
export function parseDateArg(value: unknown, field: string, endOfDay = false): number {
  const expected = 'an ISO date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:MM[:SS][Z|±HH:MM])';
  if (typeof value !== 'string') invalid(field, expected, value);
  const text = value.trim();
  const d = DATE_RE.exec(text);
  if (d) {
    const [y, m, day] = [Number(d[1]), Number(d[2]), Number(d[3])];
    checkCalendar(field, expected, text, y, m, day, 0, 0, 0);
    const start = utc(y, m, day, 0, 0, 0, 0);
    return endOfDay ? start + 86_400_000 - 1 : start;
  }
  const t = DATE_TIME_RE.exec(text);
  if (!t) invalid(field, expected, value);
  const [y, m, day, hh, mm, ss] = [1, 2, 3, 4, 5, 6].map((i) => Number(t[i] ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  checkCalendar(field, expected, text, y, m, day, hh, mm, ss);
  const ms = t[7] ? Number(t[7].slice(0, 3).padEnd(3, '0')) : 0;
  let epoch = utc(y, m, day, hh, mm, ss, ms);
  const zone = t[8];
  if (zone && zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
    if (oh > 14 || om > 59) invalid(field, expected, value);
    epoch -= sign * (oh * 60 + om) * 60_000;
  }
  return epoch;
}

function checkCalendar(
  field: string,
  expected: string,
  text: string,
  y: number,
  m: number,
  d: number,
  hh: number,
  mm: number,
  ss: number,
): void {
  const probe = new Date(utc(y, m, d, 0, 0, 0, 0));
  const realDay = probe.getUTCFullYear() === y && probe.getUTCMonth() === m - 1 && probe.getUTCDate() === d;
  if (!realDay || hh > 23 || mm > 59 || ss > 59 || y < 1) invalid(field, expected, text);
}

// Date.UTC reads years 0..99 as 1900..1999, so "0001-01-01" would turn into 1901.
function utc(y: number, month: number, d: number, hh: number, mm: number, ss: number, ms: number): number {
  const t = new Date(0);
  t.setUTCFullYear(y, month - 1, d);
  t.setUTCHours(hh, mm, ss, ms);
  return t.getTime();
}
