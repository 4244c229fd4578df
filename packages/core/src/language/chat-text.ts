/**
 * Typed chat as the language layer reads it (issue 28). People in a chat app leave out what a
 * model never does: the apostrophe ("im", "dont"), the capital "I", the full stop between
 * sentences ("Thanks Mel Your backing means a lot I felt super powerful") and the question mark
 * ("How's it going"). The readings of a turn and of a question are written for punctuated
 * English, so this module restores it first, where text enters them ({@link sentences} in
 * `statements.ts`): words are never changed beyond an apostrophe or a capital "I".
 */
import { APOSTROPHE_LESS, APOSTROPHE_LESS_BEFORE, ITS_AS_IT_IS_BEFORE } from './lexicon.js';

const APOSTROPHE_LESS_RE = new RegExp(`\\b(?:${Object.keys(APOSTROPHE_LESS).join('|')})\\b(?!['’])`, 'giu');
/** "lets", "ill", "id" and "its" as contractions: only before the words that make them one. */
const BEFORE_RES: readonly (readonly [RegExp, string])[] = [
  ...Object.entries(APOSTROPHE_LESS_BEFORE).map(
    ([word, [full, before]]) => [new RegExp(`\\b${word}(?=\\s+(?:${before})\\b)`, 'giu'), full] as const,
  ),
  [new RegExp(`\\bits(?=\\s+(?:${ITS_AS_IT_IS_BEFORE})\\b)`, 'giu'), "it's"] as const,
];
/** A lone lower-case "i" (not "i.e.", not a list's "i)"), or "i'm", "i've", "i'd", "i'll". */
const LOWER_I_RE = /(?<![\p{L}\p{N}'’.-])i(?=['’](?:m|ve|d|ll)\b|(?![\p{L}\p{N}'’.)-]))/gu;

/** `full` in the case `typed` was written in: "Dont" → "Don't", "DONT" → "DON'T"; "I" stays a capital. */
function cased(typed: string, full: string): string {
  if (typed.length > 1 && typed === typed.toUpperCase()) return full.toUpperCase();
  return /^\p{Lu}/u.test(typed) ? full[0]!.toUpperCase() + full.slice(1) : full;
}

/**
 * `text` with the apostrophes of contractions typed without them put back ("im" → "I'm", "dont" →
 * "don't", "its so cool" → "it's so cool", "ill be there" → "I'll be there") and a lone "i"
 * capitalised. Only spellings that are no other English word are read so everywhere; "lets",
 * "ill", "id" and "its" only where the next word makes them a contraction, and "were", "well",
 * "hell", "wed" and "shed" never.
 */
export function restoreApostrophes(text: string): string {
  if (!/[a-z]/iu.test(text)) return text;
  let out = text.replace(APOSTROPHE_LESS_RE, (w: string) => cased(w, APOSTROPHE_LESS[w.toLowerCase()]!));
  for (const [re, full] of BEFORE_RES) out = out.replace(re, (w: string) => cased(w, full));
  return out.replace(LOWER_I_RE, 'I');
}
