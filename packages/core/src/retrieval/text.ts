import { invalid } from '../model/errors.js';

/**
 * Text analysis shared by the lexical index, the storage adapters' keyword search and the hashing
 * embedder: Unicode-aware tokenisation (CJK split into character bigrams), English stopwords and
 * the Porter stemmer.
 */

const TOKEN_RE = /[\p{L}\p{M}\p{N}]+/gu;
// A possessive or "is" 's at the end of a word is dropped, so "Donny's" and "James's" are the name
// itself ("James’" already is: a final apostrophe splits nothing off). "let's" keeps its s: "let"
// is not a stopword and "lets" is. Every other 's contraction ("it's", "he's", "what's") leaves a
// stopword either way.
// Both patterns start at the apostrophe and look behind from there: a leading lookbehind would
// make the engine try it at every position of the text (30–50× slower on long turns).
const POSSESSIVE_RE = /['’‘ʼ]s(?![\p{L}\p{M}\p{N}])(?<=[\p{L}\p{N}]['’‘ʼ]s)(?<!(?<![\p{L}\p{N}])let['’‘ʼ]s)/gu;
// Other apostrophes inside a word ("don't", "o'clock") join it instead of splitting it into fragments.
const INNER_APOSTROPHE_RE = /['’‘ʼ](?<=[\p{L}\p{N}]['’‘ʼ])(?=[\p{L}\p{N}])/gu;
// Every combining mark except the kana voicing marks: "é" folds to "e", but "が" must not become "か".
const FOLDED_MARKS_RE = /[^\P{M}\u3099\u309A]+/gu;
// NFKD splits Hangul syllables into jamo and kana into base + voicing mark; NFC puts them back.
const NEEDS_RECOMPOSE_RE = /[\u1100-\u11FF\u3099\u309A\uA960-\uA97F\uD7B0-\uD7FF]/u;
// Scripts written without spaces between words. Script_Extensions also covers the characters they
// share (the long-vowel mark "ー", the iteration mark "々").
const CJK = '\\p{scx=Han}\\p{scx=Hiragana}\\p{scx=Katakana}\\p{scx=Hangul}';
const CJK_TEST_RE = new RegExp(`[${CJK}]`, 'u');
const SCRIPT_RUN_RE = new RegExp(`[${CJK}]+|[^${CJK}]+`, 'gu');
const CJK_RUN_RE = new RegExp(`^[${CJK}]+$`, 'u');
// Jamo, kana and CJK all lie at U+1100 or above: text without such characters skips the checks.
const BEYOND_U10FF_RE = /[^\u0000-\u10FF]/;
const ASCII_WORD_RE = /^[a-z]+$/;

/**
 * Split text into lowercase tokens: maximal runs of Unicode letters and digits. Numbers are
 * kept ("2024", "42"); diacritics are folded ("café" → "cafe", "München" → "munchen"); a final
 * possessive 's is dropped ("Donny's", "James's" and "James’" → "donny", "james"); other in-word
 * apostrophes are dropped ("don't" → "dont").
 *
 * Chinese, Japanese and Korean (Han, Hiragana, Katakana, Hangul) are written without spaces
 * between words, so a run in those scripts becomes its overlapping character bigrams
 * ("小米很乖" → "小米", "米很", "很乖"); a run of one character is kept as it is. A run that mixes
 * scripts is split where the script changes ("iPhone的" → "iphone", "的"). Kana voicing marks and
 * Hangul syllables survive the diacritic folding. A word of one CJK character inside a longer run
 * is therefore only found through the bigrams it is part of.
 *
 * This is the tokenisation of every adapter's keyword search (through {@link analyze}), so the
 * same words match in memory and in SQLite. Throws `VALIDATION` when `text` is not a string.
 */
export function tokenize(text: string): string[] {
  if (typeof text !== 'string') invalid('text', 'a string', text);
  if (text.length === 0) return [];
  let normalised = text.normalize('NFKD').replace(FOLDED_MARKS_RE, '');
  const wide = BEYOND_U10FF_RE.test(normalised);
  if (wide && NEEDS_RECOMPOSE_RE.test(normalised)) normalised = normalised.normalize('NFC');
  normalised = normalised.toLowerCase().replace(POSSESSIVE_RE, '').replace(INNER_APOSTROPHE_RE, '');
  const runs = normalised.match(TOKEN_RE) ?? [];
  if (!wide || !CJK_TEST_RE.test(normalised)) return runs;
  const out: string[] = [];
  for (const run of runs) {
    if (!CJK_TEST_RE.test(run)) {
      out.push(run);
      continue;
    }
    for (const part of run.match(SCRIPT_RUN_RE)!) {
      if (!CJK_RUN_RE.test(part)) {
        out.push(part);
        continue;
      }
      const chars = Array.from(part);
      if (chars.length === 1) out.push(part);
      else for (let i = 1; i < chars.length; i++) out.push(chars[i - 1]! + chars[i]!);
    }
  }
  return out;
}

/** English stopwords dropped by {@link analyze} (lowercase, apostrophes removed like `tokenize` does). */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are arent as at be because been before being below ' +
    'between both but by can cant cannot could couldnt did didnt do does doesnt doing dont down during each few ' +
    'for from further had hadnt has hasnt have havent having he hed hell hes her here heres hers herself him ' +
    'himself his how hows i id ill im ive if in into is isnt it its itself lets me more most mustnt my myself ' +
    'no nor not of off on once only or other ought our ours ourselves out over own same shant she shed shell ' +
    'shes should shouldnt so some such than that thats the their theirs them themselves then there theres these ' +
    'they theyd theyll theyre theyve this those through to too under until up very was wasnt we wed well were ' +
    'weve werent what whats when whens where wheres which while who whos whom why whys will with wont would ' +
    'wouldnt you youd youll youre youve your yours yourself yourselves also just s t'
  ).split(' '),
);

/**
 * Tokenise (`tokenize`: diacritics folded, CJK as bigrams), drop stopwords, stem. This is
 * the analysis used for BM25 indexing and querying by the in-memory index and the SQLite adapter
 * alike, so "running shoes" and "shoe run" share terms, and so do "cafe" and "Café".
 */
export function analyze(text: string): string[] {
  const out: string[] = [];
  for (const token of tokenize(text)) {
    if (STOPWORDS.has(token)) continue;
    out.push(stem(token));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Porter stemmer (M. F. Porter, 1980), following the reference implementation's rules.

const STEP2: Readonly<Record<string, string>> = {
  ational: 'ate',
  tional: 'tion',
  enci: 'ence',
  anci: 'ance',
  izer: 'ize',
  bli: 'ble',
  alli: 'al',
  entli: 'ent',
  eli: 'e',
  ousli: 'ous',
  ization: 'ize',
  ation: 'ate',
  ator: 'ate',
  alism: 'al',
  iveness: 'ive',
  fulness: 'ful',
  ousness: 'ous',
  aliti: 'al',
  iviti: 'ive',
  biliti: 'ble',
  logi: 'log',
};
const STEP3: Readonly<Record<string, string>> = {
  icate: 'ic',
  ative: '',
  alize: 'al',
  iciti: 'ic',
  ical: 'ic',
  ful: '',
  ness: '',
};

const CONS = '[^aeiou]';
const VOWEL = '[aeiouy]';
const CONS_SEQ = CONS + '[^aeiouy]*';
const VOWEL_SEQ = VOWEL + '[aeiou]*';
/** measure > 0 */
const MGR0 = new RegExp('^(' + CONS_SEQ + ')?' + VOWEL_SEQ + CONS_SEQ);
/** measure == 1 */
const MEQ1 = new RegExp('^(' + CONS_SEQ + ')?' + VOWEL_SEQ + CONS_SEQ + '(' + VOWEL_SEQ + ')?$');
/** measure > 1 */
const MGR1 = new RegExp('^(' + CONS_SEQ + ')?' + VOWEL_SEQ + CONS_SEQ + VOWEL_SEQ + CONS_SEQ);
/** contains a vowel */
const HAS_VOWEL = new RegExp('^(' + CONS_SEQ + ')?' + VOWEL);
/** ends consonant-vowel-consonant, last not w/x/y */
const CVC = new RegExp('^' + CONS_SEQ + VOWEL + '[^aeiouwxy]$');

const STEP1A_SSES = /^(.+?)(ss|i)es$/;
const STEP1A_S = /^(.+?)([^s])s$/;
const STEP1B_EED = /^(.+?)eed$/;
const STEP1B_ED_ING = /^(.+?)(ed|ing)$/;
const STEP1B_AT_BL_IZ = /(at|bl|iz)$/;
const STEP1B_DOUBLE = /([^aeiouylsz])\1$/;
const STEP1C = /^(.+?)y$/;
const STEP2_RE =
  /^(.+?)(ational|tional|enci|anci|izer|bli|alli|entli|eli|ousli|ization|ation|ator|alism|iveness|fulness|ousness|aliti|iviti|biliti|logi)$/;
const STEP3_RE = /^(.+?)(icate|ative|alize|iciti|ical|ful|ness)$/;
const STEP4_RE = /^(.+?)(al|ance|ence|er|ic|able|ible|ant|ement|ment|ent|ou|ism|ate|iti|ous|ive|ize)$/;
const STEP4_ION = /^(.+?)(s|t)(ion)$/;
const STEP5_E = /^(.+?)e$/;

/**
 * Porter-stem one lowercase word. Words shorter than 3 letters and words that are not plain
 * ASCII letters (numbers, other scripts) are returned unchanged.
 */
export function stem(word: string): string {
  if (word.length < 3 || !ASCII_WORD_RE.test(word)) return word;
  // The rules are regular expressions with lazy groups, about a microsecond or more per word; a
  // vocabulary is small, so stems are remembered (bounded: the memo starts over when full).
  const known = STEMS.get(word);
  if (known !== undefined) return known;
  const stemmed = porter(word);
  if (STEMS.size >= MAX_STEMS) STEMS.clear();
  STEMS.set(word, stemmed);
  return stemmed;
}

const STEMS = new Map<string, string>();
const MAX_STEMS = 50_000;

function porter(word: string): string {
  let w = word;
  // A leading 'y' is a consonant; upper-casing it keeps the vowel patterns from treating it as one.
  const leadingY = w.startsWith('y');
  if (leadingY) w = 'Y' + w.slice(1);

  let m: RegExpExecArray | null;
  // Step 1a
  if ((m = STEP1A_SSES.exec(w))) w = m[1]! + m[2]!;
  else if ((m = STEP1A_S.exec(w))) w = m[1]! + m[2]!;

  // Step 1b
  if ((m = STEP1B_EED.exec(w))) {
    if (MGR0.test(m[1]!)) w = w.slice(0, -1);
  } else if ((m = STEP1B_ED_ING.exec(w))) {
    const s = m[1]!;
    if (HAS_VOWEL.test(s)) {
      w = s;
      if (STEP1B_AT_BL_IZ.test(w)) w += 'e';
      else if (STEP1B_DOUBLE.test(w)) w = w.slice(0, -1);
      else if (CVC.test(w)) w += 'e';
    }
  }

  // Step 1c
  if ((m = STEP1C.exec(w)) && HAS_VOWEL.test(m[1]!)) w = m[1]! + 'i';

  // Step 2
  if ((m = STEP2_RE.exec(w)) && MGR0.test(m[1]!)) w = m[1]! + STEP2[m[2]!]!;

  // Step 3
  if ((m = STEP3_RE.exec(w)) && MGR0.test(m[1]!)) w = m[1]! + STEP3[m[2]!]!;

  // Step 4
  if ((m = STEP4_RE.exec(w))) {
    if (MGR1.test(m[1]!)) w = m[1]!;
  } else if ((m = STEP4_ION.exec(w))) {
    const s = m[1]! + m[2]!;
    if (MGR1.test(s)) w = s;
  }

  // Step 5
  if ((m = STEP5_E.exec(w))) {
    const s = m[1]!;
    if (MGR1.test(s) || (MEQ1.test(s) && !CVC.test(s))) w = s;
  }
  if (w.endsWith('ll') && MGR1.test(w)) w = w.slice(0, -1);

  if (leadingY) w = 'y' + w.slice(1);
  return w;
}
