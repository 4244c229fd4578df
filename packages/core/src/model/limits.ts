/**
 * The input limits, one place: how much a caller may hand to one call, and which strings are
 * well-formed. Every public write checks its input here before anything is written, so a call
 * that is too big (or too deep, or carries a lone surrogate in a key) is rejected with
 * `VALIDATION` naming the path, and changes nothing.
 */
import { invalid } from './errors.js';
import { checkOptionKeys } from './options.js';

/** How much one call may carry. Every field is an integer >= 1; see {@link DEFAULT_LIMITS}. */
export interface InputLimits {
  /** Longest turn input, and longest turn output (each, UTF-16 code units). Default 100,000. */
  turnChars: number;
  /** Longest memory title, and longest memory text (each). Default 100,000. */
  memoryChars: number;
  /** Longest query of `recall` / `buildContext`. Default 100,000. */
  queryChars: number;
  /** Deepest nesting of metadata (an object or array is one level). Default 16, at most {@link MAX_METADATA_DEPTH}. */
  metadataDepth: number;
  /** Most keys and array items in one metadata value, all levels together. Default 1,000. */
  metadataKeys: number;
  /** Most characters in one metadata value: keys and strings, all levels together. Default 100,000. */
  metadataChars: number;
  /** Most tags (and topics) on one memory or turn. Default 64. */
  tags: number;
  /** Most items in one batch argument (`reinforce` ids, a storage `putMany`). Default 1,000. */
  batch: number;
  /**
   * How much of a turn memory formation reads (each of input and output), cut back to the last
   * sentence end before it. Default 8,000. A longer turn (a pasted document, a log) is still
   * stored and searchable whole; statements are formed from its first part only, so a save costs
   * the same bounded reading however long the turn is.
   */
  formationChars: number;
  /**
   * How much of a memory's text is embedded for semantic recall, cut back to the last sentence
   * end before it. Default 8,000: the bundled model reads its first 128 tokens only, and one
   * vector cannot stand for a whole pasted document anyway. The whole text is still stored and
   * found by keyword search; raise it for an embedder with a longer context.
   */
  embedChars: number;
}

/**
 * The ceiling of `metadataDepth`: deeper values cannot be copied (`structuredClone`, `JSON`) by
 * every runtime without overflowing its stack, so no setting and no adapter accepts more.
 */
export const MAX_METADATA_DEPTH = 64;

/** Default input limits. */
export const DEFAULT_LIMITS: Readonly<InputLimits> = Object.freeze({
  turnChars: 100_000,
  memoryChars: 100_000,
  queryChars: 100_000,
  metadataDepth: 16,
  metadataKeys: 1_000,
  metadataChars: 100_000,
  tags: 64,
  batch: 1_000,
  formationChars: 8_000,
  embedChars: 8_000,
});

/**
 * What storage adapters and imports enforce on stored metadata: only the depth ceiling (sizes are
 * the caller-facing limits of {@link InputLimits}; stored metadata also holds Zerda's own history).
 */
export const STORAGE_LIMITS: Readonly<InputLimits> = Object.freeze({
  ...DEFAULT_LIMITS,
  metadataDepth: MAX_METADATA_DEPTH,
  metadataKeys: Number.POSITIVE_INFINITY,
  metadataChars: Number.POSITIVE_INFINITY,
});

/** Merge `partial` over {@link DEFAULT_LIMITS} and validate. Throws `VALIDATION` naming `config.limits.<field>`. */
export function resolveLimits(partial: Partial<InputLimits> = {}): InputLimits {
  checkOptionKeys(partial, Object.keys(DEFAULT_LIMITS), 'config.limits');
  const limits: InputLimits = { ...DEFAULT_LIMITS, ...partial };
  for (const [k, v] of Object.entries(limits))
    if (!Number.isInteger(v) || v < 1) invalid(`config.limits.${k}`, 'an integer >= 1', v);
  if (limits.metadataDepth > MAX_METADATA_DEPTH)
    invalid('config.limits.metadataDepth', `an integer in [1, ${MAX_METADATA_DEPTH}]`, limits.metadataDepth);
  return limits;
}

/**
 * The first part of a long text that formation reads ({@link InputLimits.formationChars}) and
 * the embedder sees ({@link InputLimits.embedChars}): all of it up to `max` characters, else its
 * first `max` characters cut back to the last sentence end (or line break) in them, so no
 * statement is cut in half; a text with no sentence end in its second half is cut at `max` (one
 * less when that would split a surrogate pair).
 */
export function textWindow(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
  const head = text.slice(0, cut);
  let end = -1;
  for (const m of head.matchAll(/[.!?…](?=\s)|\n/g)) end = m.index + m[0].length;
  return end > max / 2 ? head.slice(0, end) : head;
}

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

// The native check where the runtime has it (Node 20, Chrome 111, Safari 16.4, Firefox 119): the
// regular expression's lookbehind makes it try every position of a long text.
const NATIVE_WELL_FORMED = (String.prototype as { isWellFormed?: () => boolean }).isWellFormed;

/** `String.prototype.isWellFormed` (ES2024), for every runtime Zerda supports: no lone surrogate. */
export function isWellFormed(s: string): boolean {
  return NATIVE_WELL_FORMED ? NATIVE_WELL_FORMED.call(s) : !LONE_SURROGATE.test(s);
}

/**
 * `String.prototype.toWellFormed`: each lone surrogate becomes U+FFFD, as SQLite and
 * `TextEncoder` store it, so text reads back the same from every adapter.
 */
export function toWellFormed(s: string): string {
  return isWellFormed(s) ? s : s.replace(LONE_SURROGATES, '\uFFFD');
}

/**
 * Throw `VALIDATION` naming `field` unless `value` is a well-formed string (no lone surrogate).
 * Ids, kinds and tags must be: storage would turn a lone surrogate into U+FFFD, so two different
 * ids would collide and neither could be addressed again.
 */
export function checkWellFormed(field: string, value: string): void {
  if (!isWellFormed(value)) invalid(field, 'a well-formed string (no lone surrogate)', value);
}

/** Throw `VALIDATION` naming `field` unless `value` is a string of at most `max` characters. */
export function checkText(field: string, value: unknown, max: number): asserts value is string {
  if (typeof value !== 'string') invalid(field, 'a string', value);
  if (value.length > max) invalid(field, `at most ${max} characters`, `${value.length} characters`);
}

/** Throw `VALIDATION` naming `field` unless `value` is an array of at most `max` items. */
export function checkBatch(field: string, value: unknown, max: number): asserts value is unknown[] {
  if (!Array.isArray(value)) invalid(field, 'an array', value);
  if (value.length > max) invalid(field, `at most ${max} items`, `${value.length} items`);
}
