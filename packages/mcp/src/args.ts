import { invalid } from '@zerda/core';

/** Lowest and highest importance on the tool scale. */
export const IMPORTANCE_MIN = 1;
export const IMPORTANCE_MAX = 10;

/**
 * Tool importance (1..10) to Zerda's base importance (0.1..1.0). Throws `VALIDATION` for
 * anything outside 1..10 (fractions such as 7.5 are fine).
 */
export function importanceToBase(value: unknown, field = 'importance'): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < IMPORTANCE_MIN || value > IMPORTANCE_MAX) {
    invalid(field, `a number from ${IMPORTANCE_MIN} to ${IMPORTANCE_MAX}`, value);
  }
  return round(value / 10, 4);
}

/** Zerda's base importance (0..1) on the tool scale (0..10), rounded to one decimal. */
export function baseToImportance(base: number): number {
  return round(base * 10, 1);
}

/** Round to `digits` decimals. */
export function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/**
 * Split a comma-separated tag list (`"work, project x"`) into trimmed, non-empty, de-duplicated
 * tags. An array of strings is accepted too. Throws `VALIDATION` for other types or a tag longer
 * than 100 characters.
 */
export function parseTags(value: unknown, field = 'tags'): string[] {
  let parts: unknown[];
  if (typeof value === 'string') parts = value.split(',');
  else if (Array.isArray(value)) parts = value;
  else invalid(field, 'a comma-separated string such as "work,ideas"', value);
  const tags: string[] = [];
  for (const p of parts) {
    if (typeof p !== 'string') invalid(field, 'a comma-separated string of tag names', value);
    const tag = p.trim();
    if (!tag) continue;
    if (tag.length > 100) invalid(field, 'tags of at most 100 characters', tag);
    if (!tags.includes(tag)) tags.push(tag);
  }
  return tags;
}

/** Validate a `limit` argument: an integer from 1 to `max`, or `fallback` when absent. */
export function parseLimit(value: unknown, fallback: number, max = 1000, field = 'limit'): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    invalid(field, `an integer from 1 to ${max}`, value);
  }
  return value;
}

/** A required non-blank string argument (trimmed); `maxLength` guards against runaway input. */
export function requireText(value: unknown, field: string, maxLength = 100_000): string {
  if (typeof value !== 'string' || !value.trim()) invalid(field, 'a non-empty string', value);
  if (value.length > maxLength) invalid(field, `at most ${maxLength} characters`, `${value.length} characters`);
  return value.trim();
}

/** An optional string argument: `undefined` when absent, otherwise as {@link requireText}. */
export function optionalText(value: unknown, field: string, maxLength = 100_000): string | undefined {
  return value === undefined || value === null ? undefined : requireText(value, field, maxLength);
}

/** A memory type: any non-blank string up to 64 characters, lowercased. */
export function parseMemoryType(value: unknown, field = 'memory_type'): string {
  const kind = requireText(value, field, 64).toLowerCase();
  return kind;
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME_RE = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

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
  const [y, m, day, hh, mm, ss] = [1, 2, 3, 4, 5, 6].map((i) => Number(t[i] ?? 0)) as [number, number, number, number, number, number];
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

function checkCalendar(field: string, expected: string, text: string, y: number, m: number, d: number, hh: number, mm: number, ss: number): void {
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
