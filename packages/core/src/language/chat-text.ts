/**
 * Typed chat as the language layer reads it (issue 28). People in a chat app leave out what a
 * model never does: the apostrophe ("im", "dont"), the capital "I", the full stop between
 * sentences ("Thanks Mel Your backing means a lot I felt super powerful") and the question mark
 * ("How's it going"). The readings of a turn and of a question are written for punctuated
 * English, so this module restores it first, where text enters them ({@link sentences} in
 * `statements.ts`): words are never changed beyond an apostrophe or a capital "I".
 */
import {
  AFTER_A_WHILE_END_RE,
  CHAT_SHORTHAND,
  UR_AS_YOU_ARE_BEFORE,
  AFTER_A_WHILE_LAST_WORDS,
  AMOUNT_WORD_RE,
  APOSTROPHE_LESS,
  APOSTROPHE_LESS_BEFORE,
  DETERMINER_WORDS,
  GOES_ON_BEFORE_I,
  GREETING_WORD_RE,
  HEADS_A_RELATIVE,
  INTERJECTION_OPENS_RE,
  OBJECT_OPENS_RE,
  BE_BEFORE_ING_RE,
  YOU_ARE_OPENS_BEFORE_RE,
  NOT_A_GERUND,
  TAKES_A_GERUND,
  VERB_AFTER_GERUND_RE,
  VERB_AFTER_PERSON_RE,
  SUBJECTLESS_OPENS_RE,
  SUBJECT_BEFORE_RE,
  I_OPENS_BEFORE_RE,
  ADVERB_BEFORE_VERB_RE,
  GOES_ON_BEFORE_NOUN,
  NOT_IN_A_NOUN_PHRASE,
  SUBJECT_DETERMINER_RE,
  VERB_AFTER_NOUN_SUBJECT_RE,
  IT_OPENS_BEFORE_RE,
  ITS_AS_IT_IS_BEFORE,
  ITS_AS_IT_IS_JUDGED,
  LAUGHTER_RE,
  PREPOSITION_WORD_RE,
  QUESTION_LEAD,
  QUESTION_OPENER_RE,
  SENTENCE_OPENERS,
  SINCE_WE_TALKED_RE,
  SUBORDINATOR_RE,
  TIME_PHRASE_END_RE,
  TIME_PHRASE_WORD_RE,
  JOINS_A_CLAUSE_RE,
  CLAUSE_ADVERB_WORD_RE,
  LEAVES_ITS_OBJECT_RE,
  TOLD_SOMEONE_RE,
  VERB_AFTER_SUBJECT_RE,
} from './lexicon.js';

const APOSTROPHE_LESS_RE = new RegExp(`\\b(?:${Object.keys(APOSTROPHE_LESS).join('|')})\\b(?!['’])`, 'giu');
/** "lets", "ill", "id" and "its" as contractions: only before the words that make them one. */
const BEFORE_RES: readonly (readonly [RegExp, string])[] = [
  ...Object.entries(APOSTROPHE_LESS_BEFORE).map(
    ([word, [full, before]]) => [new RegExp(`\\b${word}(?=\\s+(?:${before})\\b)`, 'giu'), full] as const,
  ),
  [new RegExp(`\\bits(?=\\s+(?:${ITS_AS_IT_IS_BEFORE})\\b)`, 'giu'), "it's"] as const,
  // "its great", "its wild how much …", "its hard to say": judged, at the end or before what is judged.
  [
    new RegExp(
      `\\bits(?=\\s+(?:${ITS_AS_IT_IS_JUDGED})(?:\\s*(?:[.!?,;:)]|$)|\\s+(?:how|that|to|when|what|seeing)\\b))`,
      'giu',
    ),
    "it's",
  ] as const,
];
const escaped = (word: string) => word.replace(/[/]/gu, '\\/');
/** A shorthand standing alone: not inside a word, a web address or a list ("u.s.", "w/e" aside). */
const SHORTHAND_RE = new RegExp(
  `(?<![\\p{L}\\p{N}'’./-])(?:${Object.keys(CHAT_SHORTHAND).map(escaped).join('|')})(?![\\p{L}\\p{N}'’/-]|\\.\\p{L})`,
  'giu',
);
const UR_RE = new RegExp(`(?<![\\p{L}\\p{N}'’.-])ur(?![\\p{L}\\p{N}'’.-])(\\s+(?:${UR_AS_YOU_ARE_BEFORE})\\b)?`, 'giu');
/** "r" beside "you": "r u ok", "how r you", "u r the best". */
const R_RE = /(?<![\p{L}\p{N}'’.-])r(?=\s+(?:u|you)\b)|(?<=\b(?:u|you|we|they)\s+)r(?![\p{L}\p{N}'’.-])/giu;

/**
 * `text` with chat shorthand read as the word it stands for: "u" → "you", "ur" → "your" (or
 * "you're" before what is said of someone: "ur so kind"), "r u" → "are you", "bc" → "because",
 * "w/" → "with".
 */
export function expandShorthand(text: string): string {
  return text
    .replace(/(?<![\p{L}\p{N}])['’]bout(?![\p{L}\p{N}'’])/giu, (w: string) => cased(w.slice(1), 'about'))
    .replace(UR_RE, (w: string, before: string | undefined) => cased(w, before ? "you're" : 'your') + (before ?? ''))
    .replace(R_RE, (w: string) => cased(w, 'are'))
    .replace(SHORTHAND_RE, (w: string) => cased(w, CHAT_SHORTHAND[w.toLowerCase()]!));
}

/**
 * Whether `text` is typed in capitals throughout ("OMG I GOT THE JOB!!!", "WE'RE MOVING TO DENVER
 * NEXT MONTH"): read as lower case, which the rules for typed chat read, not as a run of names and
 * titles. A word or two in capitals ("he LOVES the beach", "I work at IBM") is not.
 */
export function shouted(text: string): boolean {
  const letters = text.replace(/\[image:[^\]]*\]/giu, '').replace(/[^\p{L}]/gu, '');
  if (letters.length < 8) return false;
  const upper = letters.replace(/[^\p{Lu}]/gu, '').length;
  return upper / letters.length > 0.8;
}

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
export function restoreApostrophes(typed: string): string {
  if (!/[a-z]/iu.test(typed)) return typed;
  const text = expandShorthand(typed);
  let out = text.replace(APOSTROPHE_LESS_RE, (w: string) => cased(w, APOSTROPHE_LESS[w.toLowerCase()]!));
  for (const [re, full] of BEFORE_RES) out = out.replace(re, (w: string) => cased(w, full));
  return out.replace(LOWER_I_RE, 'I');
}

/** Ends a sentence: a full stop, "!", "?" or "…" (of any script), before closing quotes or brackets. */
const ENDED_RE = /[.!?…。！？]["'”’)\]]*$/u;
const CAPTION_END_RE = /^(.*?)\s*(\[image:[^\]]*\])$/isu;
/** A catching-up clause that ends where it is read ("… since we talked", "… happened since then"). */
const CAUGHT_UP_END_RE = new RegExp(`(?:${SINCE_WE_TALKED_RE.source}|\\bhappened\\s+since\\s+then)[,.!]*$`, 'iu');

/** A word as the tables hold it: lower case, a straight apostrophe, no punctuation around it. */
const bare = (word: string) =>
  word
    .toLowerCase()
    .replace(/’/gu, "'")
    .replace(/^[^\p{L}\p{N}']+|[^\p{L}\p{N}']+$/gu, '');
/** A subject that opens a clause: "I", "I'm", "it's", "that's", "we're", "there's" … */
const SUBJECT_RE = /^(?:I(?:['’](?:m|ve|ll|d))?|(?:it|that|there|here|let|he|she)['’]s|(?:we|they)['’](?:re|ve))$/iu;
const I_RE = /^I(?:['’](?:m|ve|ll|d))?$/u;
const PLAIN_SUBJECT_RE = /^(?:it|we|they|he|she|you)$/iu;
/** A word typed with its capital ("Your", "It's"), not in capitals ("IT", "SO"). */
const CAPITALISED_RE = /^\p{Lu}(?:[\p{Ll}'’]|$)/u;

/**
 * Whether `words[i]` is "it's", or "it" before what shows it is the subject of a clause of its
 * own ("it was", "it helps"), where no relative clause can be meant ("the effect it's having")
 * and no verb or preposition takes it as its object ("looking at it is fun", "fixing it").
 */
function itOpens(words: readonly string[], i: number): boolean {
  const next = bare(words[i + 1] ?? '');
  const before = bare(words[i - 1]!);
  if (PREPOSITION_WORD_RE.test(before) || /ing$/u.test(before)) return false;
  return /^it['’]s$/iu.test(words[i]!)
    ? !/ing$/u.test(next)
    : /^it$/iu.test(words[i]!) && IT_OPENS_BEFORE_RE.test(next);
}

/**
 * Whether the time phrase that ends at `words[end]` opens its clause: at the run's start, after a
 * comma or after a word that joins clauses ("but last week I had …", "so the other day we …"; not
 * "I aced the exam yesterday I'm so happy", "… hiking last weekend it was beautiful").
 */
function timePhraseOpensClause(words: readonly string[], end: number, start: number): boolean {
  let s = end;
  while (s > start && s > end - 4 && TIME_PHRASE_WORD_RE.test(bare(words[s - 1]!)) && !/[,;:]$/u.test(words[s - 1]!))
    s--;
  if (s === start) return true;
  const w = words[s - 1]!;
  return /[,;:–—-]$/u.test(w) || JOINS_A_CLAUSE_RE.test(bare(w));
}

/** The words between a subject and its verb in a clause whose object is left out ("I've been trying", "we just made"). */
const BEFORE_A_VERB_RE =
  /^(?:been|have|has|had|just|really|also|always|recently|lately|finally|all|was|were|am|is|are|gonna|going|to|wanna|want|can|could|will|would|never|ever|first)$/u;

/**
 * Whether the clause from `words[i]` is a relative clause after a noun, typed with no "that",
 * its verb's object left out: at the run's end ("… some new healthy snacks I've been trying", "…
 * the same recipe we made") or before "it" that opens a clause ("… countries I want to visit it
 * feels like …"). No sentence of its own.
 */
function endsWithoutItsObject(words: readonly string[], i: number): boolean {
  if (/[,;:–—-]$/u.test(words[i - 1]!)) return false;
  for (let k = i + 1; k < words.length && k - i <= 4; k++) {
    const w = bare(words[k]!);
    // "… snacks I've been trying": at the run's end; "… countries I want to visit it feels like
    // …": before "it" that opens a clause of its own.
    // (Its object left out, "it" and a verb after it can only be the next clause's subject.)
    if (
      LEAVES_ITS_OBJECT_RE.test(w) &&
      (k === words.length - 1 ||
        itOpens(words, k + 1) ||
        (/^it$/iu.test(words[k + 1]!) && IT_OPENS_BEFORE_RE.test(bare(words[k + 2] ?? ''))))
    )
      return true;
    if (!BEFORE_A_VERB_RE.test(w)) return false;
  }
  return false;
}

/** Whether the subject `words[i]` ("I", "I'm", "it's" …) of a run with no full stops opens a sentence. */
function subjectOpens(words: readonly string[], i: number, start: number, noGap = false): boolean {
  const before = words[i - 1]!;
  // "Yeah, I'm …": a comma already marks where the clause starts; "something I love" goes on.
  if (/,$/u.test(before) || HEADS_A_RELATIVE.has(bare(before))) return false;
  // "… waiting for it is that weird", "… thanks to you we …": what a preposition governs.
  if (/^(?:it|you)$/iu.test(words[i]!) && PREPOSITION_WORD_RE.test(bare(before))) return false;
  // "… how much you can learn from them", "how far I've come": the clause a "how" opens goes on.
  if (bare(words[i - 2] ?? '') === 'how') return false;
  // "… but after we talked I finally picked up a book": the main clause after a subordinate one.
  if (SUBORDINATOR_RE.test(bare(words[i - 3] ?? '')) && i - 3 >= start && PLAIN_SUBJECT_RE.test(bare(words[i - 2]!)))
    return false;
  // "Did I tell you I adopted a puppy", "I promised him I'd come": what is told goes on.
  if (TOLD_SOMEONE_RE.test(`${bare(words[i - 2] ?? '')} ${bare(before)}`)) return false;
  // "When I was young I loved drawing", "Last Friday I went …": the main clause after a
  // subordinate clause or a time phrase.
  if (SUBORDINATOR_RE.test(bare(words[start]!))) return false;
  // "… last Friday I'm so excited" — unless the time word opens the clause after a comma ("by the
  // way, yesterday I went bowling").
  if (TIME_PHRASE_END_RE.test(bare(before)) && i - start >= 2) return !timePhraseOpensClause(words, i - 1, start);
  // "… so I apologized and luckily they were understanding": an adverb said of the clause that
  // follows, after a word that joins it.
  if (CLAUSE_ADVERB_WORD_RE.test(bare(before)) && JOINS_A_CLAUSE_RE.test(bare(words[i - 2] ?? ''))) return false;
  // "… some of these new healthy snacks I've been trying": a relative clause at the run's end.
  if (endsWithoutItsObject(words, i)) return false;
  // "the book I read", "a place I love": a relative clause, not a new sentence ("a lot I" is no
  // noun, "Thanks for the tips, John I'll …" names whom it thanks).
  if (AMOUNT_WORD_RE.test(bare(before))) return true;
  if (/,$/u.test(words[i - 2] ?? '') && CAPITALISED_RE.test(before) && !SENTENCE_OPENERS.has(bare(before))) return true;
  // "… by the lake it was so calming", "… my new job it's a lot of fun": "it" before what no
  // relative clause leaves a gap in ("the difference it made" goes on).
  if (itOpens(words, i)) return true;
  // `noGap`: what follows the subject leaves no gap a relative clause could fill ("… the lake my
  // dad was thrilled", "… the park my son loved it").
  if (noGap) return true;
  return ![words[i - 2], words[i - 3]].some((w) => w !== undefined && i - start >= 2 && DETERMINER_WORDS.has(bare(w)));
}

/** Words in "-ing" that are no verb at all ("this morning", "something"). */
const NO_VERB_IN_ING_RE = /^(?:\p{L}*thing|morning|evening|during|spring|ceiling|wedding)$/u;

/** Whether the verb in "-ing" at `words[k]` follows "be" ("I'm really enjoying", "we were running"). */
const progressive = (words: readonly string[], k: number) =>
  BE_BEFORE_ING_RE.test(bare(words[k - 1] ?? '')) ||
  (ADVERB_BEFORE_VERB_RE.test(bare(words[k - 1] ?? '')) && BE_BEFORE_ING_RE.test(bare(words[k - 2] ?? '')));

/**
 * Whether `words[i]` opens a subject of a few words that a verb follows ("… the lake my mom
 * loved it", "thanks your support means a lot", "… last week the kids were so excited"): not an
 * object ("I took my mom to …", "with the kids we …", "fixing the car was …"), not after a word
 * that the noun phrase goes on ("all my friends are", "one of the kids is").
 */
function nounSubjectOpens(words: readonly string[], i: number, start: number): boolean {
  // "Hi my name is Jeremy": after a lone greeting, what it greets goes on.
  if (i - start < 2 || !SUBJECT_DETERMINER_RE.test(words[i]!)) return false;
  const before = bare(words[i - 1]!);
  if (PREPOSITION_WORD_RE.test(before) || GOES_ON_BEFORE_NOUN.has(before)) return false;
  // "… watching them enjoy their snacks is so fun": the subject is what the "-ing" verb opened.
  // ("I'm really enjoying my new job my team has been great": a verb in "-ing" after "I'm" is no subject.)
  for (let k = Math.max(start, i - 5); k < i; k++)
    if (/ing$/u.test(bare(words[k]!)) && !NO_VERB_IN_ING_RE.test(bare(words[k]!)) && !progressive(words, k))
      return false;
  // "the view from the top was amazing": a phrase in "of", "from" … within the subject.
  let reach = i + 3;
  for (let k = i + 1; k <= reach && k < words.length - 1; k++) {
    const w = bare(words[k]!);
    // "… value your family are you …": a question starts there, not at the determiner.
    // "my pets have been my buddies": "have" before "been" is the verb.
    if (VERB_AFTER_NOUN_SUBJECT_RE.test(w) || (/^(?:have|has)$/u.test(w) && bare(words[k + 1]!) === 'been')) {
      const then = bare(words[k + 1]!);
      const asks = AUX_WORD_RE.test(w) && /^(?:i|you|we|they|he|she|it|any|anything|anyone)$/u.test(then);
      const noGap = IT_OPENS_BEFORE_RE.test(w) || /^(?:are|were)(?:n['’]t)?$/u.test(w) || then === 'it';
      return k > i + 1 && !asks && subjectOpens(words, i, start, noGap);
    }
    // "my mom really loved it", not "… get the vibes just right": an adverb, then the verb.
    if (ADVERB_BEFORE_VERB_RE.test(w)) {
      const then = bare(words[k + 1]!);
      return (
        k > i + 1 &&
        (VERB_AFTER_NOUN_SUBJECT_RE.test(then) || /^\p{L}{3,}ed$/u.test(then)) &&
        subjectOpens(words, i, start)
      );
    }
    if (
      k > i + 1 &&
      reach === i + 3 &&
      /^(?:of|from|at|in|on)$/u.test(w) &&
      OBJECT_OPENS_RE.test(bare(words[k + 1] ?? ''))
    ) {
      reach = k + 3;
      k++;
      continue;
    }
    if (/[,;:–—-]$/u.test(words[k]!) || !/^\p{L}+$/u.test(w) || NOT_IN_A_NOUN_PHRASE.has(w)) return false;
  }
  return false;
}

/**
 * Whether `words[i]` is a verb's "-ing" form that opens a subject, its verb a few words on ("…
 * doing it painting helps me explore", "thanks spending time with loved ones is the best"): not
 * after what takes it ("I love painting", "I'm running", "for running"), nor after a noun it says
 * something of ("the kids playing outside were loud").
 */
function gerundSubjectOpens(words: readonly string[], i: number, start: number): boolean {
  const word = bare(words[i]!);
  if (i - start < 2 || !/^\p{L}{3,}ing$/u.test(word) || NOT_A_GERUND.has(word)) return false;
  const before = bare(words[i - 1]!);
  if (
    /ing$|ly$|['’](?:m|re|s)$/u.test(before) ||
    PREPOSITION_WORD_RE.test(before) ||
    SUBJECT_BEFORE_RE.test(before) ||
    TAKES_A_GERUND.has(before) ||
    DETERMINER_WORDS.has(before) ||
    DETERMINER_WORDS.has(bare(words[i - 2]!))
  )
    return false;
  for (let k = i + 1; k <= i + 7 && k < words.length - 1; k++) {
    if (/[,;:–—-]$/u.test(words[k - 1]!)) return false;
    const w = bare(words[k]!);
    if (VERB_AFTER_GERUND_RE.test(w)) return true;
    if (GOES_ON_BEFORE_I.has(w) || SUBJECT_RE.test(words[k]!) || PLAIN_SUBJECT_RE.test(w)) return false;
  }
  return false;
}

/**
 * Whether a time phrase of a word or two at `words[i]` ("last fri", "yesterday", "on monday") is
 * followed by the subject of a clause ("… last fri I finally took …"): the time is that clause's.
 */
/** A weekday as typed in short ("last fri", "on wed"): only after a word that opens a time phrase. */
const WEEKDAY_TYPED_SHORT_RE = /^(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)$/u;
function timeOpensNews(words: readonly string[], i: number): boolean {
  for (let end = i; end < i + 3 && end < words.length - 1; end++) {
    const w = bare(words[end]!);
    if (TIME_PHRASE_END_RE.test(w) || (end > i && WEEKDAY_TYPED_SHORT_RE.test(w))) {
      const next = words[end + 1]!;
      return SUBJECT_RE.test(next) || PLAIN_SUBJECT_RE.test(next);
    }
    if (!TIME_PHRASE_WORD_RE.test(w)) return false;
  }
  return false;
}

/** An acknowledgement said whole: "I totally get it", "I hear you", "same here", "I agree". */
const ACKNOWLEDGED_RE =
  /^(?:(?:yeah|yes|oh|ah|haha|lol|wow)\s+)*(?:i\s+(?:totally\s+|really\s+|completely\s+|so\s+)?(?:get|hear|feel|understand)\s+(?:it|you|that|what\s+you\s+mean)|i\s+(?:totally\s+|completely\s+)?agree|same\s+here|me\s+too|i\s+know\s+right)$/u;

/** Verbs that "well" says how of ("it went well", "it turned out well", "did well"). */
const WENT_WELL_RE =
  /^(?:went|go|goes|going|gone|did|do|does|doing|done|turned|worked|played|slept|ended|out|pretty|really|so|very|quite)$/u;
/** An auxiliary verb, one bare word. */
const AUXILIARY_WORD_RE =
  /^(?:am|is|are|was|were|do|does|did|have|has|had|can|could|would|will|should|shall|may|might|must)$/u;

/** The double quotes in `word`. */
const quotesIn = (word: string) => word.replace(/[^"“”]/gu, '').length;

/**
 * Whether a sentence starts at `words[i]` of an unpunctuated run whose current sentence started
 * at `words[start]` (see {@link repunctuate}); `quoted`: a quotation opened in it is still open.
 */
function opensSentence(
  words: readonly string[],
  i: number,
  start: number,
  stopless: boolean,
  quoted: boolean,
): boolean {
  const word = words[i]!;
  const before = words[i - 1]!;
  if (/[:;–—-]$/u.test(before) || /^["'“‘(]/u.test(word) || /["”]$/u.test(word)) return false;
  // "hey dave long time no see I just got back …", "been ages since we chatted so much has
  // happened": with no full stop, after a greeting that opens the turn (not "it's been a while
  // since I played").
  if (
    stopless &&
    !quoted &&
    /\p{L}/u.test(word) &&
    AFTER_A_WHILE_LAST_WORDS.has(bare(before)) &&
    i - start <= 10 &&
    !/^(?:since|and|but|that|for|with|because|when|till|until|now|already|to|again|too|soon|later|sometime|though|more|last)$/iu.test(
      bare(word),
    ) &&
    AFTER_A_WHILE_END_RE.test(words.slice(start, i).join(' '))
  )
    return true;
  // "i totally get it nature has a way of …", "same here my dog …": after an acknowledgement that
  // opens the run, what follows is a sentence of its own.
  if (
    stopless &&
    !quoted &&
    i - start >= 2 &&
    i - start <= 6 &&
    !/^(?:and|but|so|or|because|that|to|for|with|about|now|too|as|if|when|what|why|how)$/iu.test(bare(word)) &&
    ACKNOWLEDGED_RE.test(words.slice(start, i).map(bare).join(' '))
  )
    return true;
  // "i will by the way, this is my shop", "ill do that btw, recently i …", "… a great help
  // speaking of which, …": a discourse
  // marker opens a sentence after any word but one that joins it ("and by the way").
  if (
    stopless &&
    !quoted &&
    i - start >= 2 &&
    i + 3 < words.length &&
    (bare(word) === 'btw' ||
      /^(?:by the way|speaking of (?:which|that))$/u.test(
        words
          .slice(i, i + 3)
          .map(bare)
          .join(' '),
      )) &&
    !JOINS_A_CLAUSE_RE.test(bare(before))
  )
    return true;
  // "… crazy times since we talked my album finally dropped", "… since we last chatted hope
  // you're ok": the news after a catching-up clause anywhere in the run, at a word that opens a
  // clause of its own.
  if (
    stopless &&
    !quoted &&
    i - start >= 3 &&
    AFTER_A_WHILE_LAST_WORDS.has(bare(before)) &&
    CAUGHT_UP_END_RE.test(words.slice(Math.max(start, i - 6), i).join(' ')) &&
    // "… since last time we talked": the clause goes on.
    !/^(?:we|i)\s+(?:last\s+)?(?:talked|spoke|chatted|caught)\b/iu.test(
      `${bare(word)} ${bare(words[i + 1] ?? '')} ${bare(words[i + 2] ?? '')}`,
    ) &&
    (SUBJECT_RE.test(word) ||
      PLAIN_SUBJECT_RE.test(word) ||
      SUBJECT_DETERMINER_RE.test(word) ||
      /^(?:hope|got|had|been|a|so|lots?|much)$/iu.test(bare(word)) ||
      // "… since we talked last fri I finally took my kids …": the time opens the news.
      timeOpensNews(words, i))
  )
    return true;
  // "i think i will thanks for the suggestion": no clause goes on from an auxiliary into thanks.
  if (
    stopless &&
    i - start >= 2 &&
    /^(?:thanks|thank)$/iu.test(bare(word)) &&
    AUXILIARY_WORD_RE.test(bare(before)) &&
    i + 1 < words.length
  )
    return true;
  // "so I went", "I think I can", "… nearby and It's made a difference": the sentence goes on.
  if (GOES_ON_BEFORE_I.has(bare(before))) return false;
  // Inside a quotation ("… "All You Need Is Love" is a classic") no sentence starts.
  if (quoted) return false;
  if (LAUGHTER_RE.test(bare(before)) && i >= 2) return true;
  // "… it was so peaceful oh man, I miss it", "sounds fun thanks for asking": an interjection
  // opens a sentence, typed in any case, in a turn with no full stop, when more follows it (not
  // "Where'd you go, by the way?").
  const interjection =
    stopless && i - start >= 2
      ? INTERJECTION_OPENS_RE.exec(
          words
            .slice(i, i + 3)
            .map(bare)
            .join(' '),
        )
      : null;
  if (interjection !== null && i + interjection[0].split(' ').length < words.length)
    return !GOES_ON_BEFORE_I.has(bare(before));
  // "… they make everyone smile can't wait to go", "… help lots of people keep up the good work":
  // a wish or a request typed with no subject, after a clause (not "I'll keep you posted", "we
  // can't wait", "my son can't wait", "going to have fun").
  if (
    stopless &&
    i - start >= 2 &&
    SUBJECTLESS_OPENS_RE.test(
      words
        .slice(i, i + 3)
        .map(bare)
        .join(' '),
    ) &&
    !SUBJECT_BEFORE_RE.test(bare(before)) &&
    !PREPOSITION_WORD_RE.test(bare(before)) &&
    !SUBJECT_DETERMINER_RE.test(bare(words[i - 2]!))
  )
    return true;
  // Where the writer puts full stops elsewhere, an "I" after a word is the same sentence ("I was
  // surprised at how much I enjoyed it"): only a capitalised opener starts one.
  if (
    stopless &&
    SUBJECT_RE.test(word) &&
    subjectOpens(
      words,
      i,
      start,
      /^(?:here|let)['’]s$/iu.test(word) || (I_RE.test(word) && I_OPENS_BEFORE_RE.test(bare(words[i + 1] ?? ''))),
    )
  )
    return true;
  // "… nice work you're so talented": "you're" before what is said of the listener (not "anything
  // you're looking forward to").
  if (
    stopless &&
    /^you['’]re$/iu.test(word) &&
    YOU_ARE_OPENS_BEFORE_RE.test(bare(words[i + 1] ?? '')) &&
    subjectOpens(words, i, start, true)
  )
    return true;
  // "… the other day it was beautiful": after a time phrase, any subject pronoun; "… by the lake
  // it was so calming": before its verb, where no relative clause can be meant ("the lake we saw").
  if (stopless && PLAIN_SUBJECT_RE.test(word) && TIME_PHRASE_END_RE.test(bare(before)) && i - start >= 2)
    return !timePhraseOpensClause(words, i - 1, start);
  if (
    stopless &&
    PLAIN_SUBJECT_RE.test(word) &&
    // "… a way to escape it all", "… did it all": "it all" is an object.
    !(/^it$/iu.test(word) && /^(?:all|both)$/u.test(bare(words[i + 1] ?? ''))) &&
    (VERB_AFTER_SUBJECT_RE.test(bare(words[i + 1] ?? '')) ||
      itOpens(words, i) ||
      (!/^it$/iu.test(word) && VERB_AFTER_PERSON_RE.test(bare(words[i + 1] ?? '')))) &&
    subjectOpens(words, i, start)
  )
    return true;
  if (stopless && nounSubjectOpens(words, i, start)) return true;
  if (stopless && gerundSubjectOpens(words, i, start)) return true;
  // "… an amazing culture It's like …", "Thanks Sam Letting go was liberating": an opener, or a
  // verb's "-ing" form, typed with its capital (never "I": it has one wherever it stands).
  // "my Engineering assignments": after a determiner, a capitalised word is a name or a title.
  if (!CAPITALISED_RE.test(word) || I_RE.test(word) || DETERMINER_WORDS.has(bare(before))) return false;
  // "Thanks, Evan Appreciate your support": after a greeting and a name, any capitalised word.
  const named = CAPITALISED_RE.test(before) && !I_RE.test(before) && !SENTENCE_OPENERS.has(bare(before));
  if (i - start === 2 && named && GREETING_WORD_RE.test(bare(words[start]!))) return true;
  if (!SENTENCE_OPENERS.has(bare(word))) {
    // "… to Beijing last spring": after a preposition, a place.
    if (!/^\p{Lu}\p{Ll}{3,}ing$/u.test(word) || PREPOSITION_WORD_RE.test(bare(before))) return false;
  }
  // "I'm reading The Last Kingdom", "we watched This Is Us": a title, its words all capitalised.
  const next = words[i + 1];
  return (
    next !== undefined &&
    (!CAPITALISED_RE.test(next) || I_RE.test(next.replace(/[,!]$/u, '')) || TIME_PHRASE_END_RE.test(bare(next)))
  );
}

/** An auxiliary that asks before its subject ("are you", "is it"). */
const AUX_WORD_RE = /^(?:is|was|are|were|isn't|wasn't|aren't|weren't|will|would|can|could|has|had|must|might|should)$/u;

/** A question typed without its mark: "How's it going", "Did you go", "Any plans for the summer". */
const AUX = 'do|does|did|are|is|was|were|have|has|had|can|could|would|will|should|shall';
/** "do you …", "can your …"; not "can you're" ("… however I can you're so kind"). */
const ASKS_YOU = `(?:${AUX})(?:n['’]t)?\\s+(?:you|u|ya|your|ur)\\b(?!['’])`;
const ASKS_OTHER = `(?:${AUX})(?:n['’]t)?\\s+(?:we|they|he|she|it|that|this|there|anyone|everyone|the|any)\\b`;
const HOW_IS = `how['’](?:s|re|ve|d)\\b|what['’]s\\s+up\\b`;
const WH_CONTRACTED = `(?:what|where|when|why|who)['’](?:s|re|d|ll|ve)\\b`;
/** "What made you …", "How long have you …"; not "What I love …", "what a day", "what you said". */
const WH_ASKS = `(?:what|how|where|when|why|who|which|whose)\\s+(?!(?:i|i['’]m|we|he|she|they|it|my|our|his|her|their|a|an|this|that|you|u|ya)\\b)(?:\\S+\\s+){0,2}?(?:${AUX}|you|u|ya|your|ur|about|else)\\b`;
/** "you ever been to Japan", "u ever tried salsa": asked with its auxiliary left out. */
const EVER_YOU = '(?:you|u|ya)\\s+ever\\b';
const ANY = '(?:got\\s+)?any(?:thing|one|body)?\\s+(?!(?:is|was|can|will|goes|works)\\b)\\S';
const ABOUT_YOU = '(?:and|what\\s+about|how\\s+about)\\s+(?:you|u)\\b|(?:wbu|hbu)\\b';
const QUESTION_START_RE = new RegExp(
  `^${QUESTION_LEAD}(?:${ASKS_YOU}|${ASKS_OTHER}|${HOW_IS}|${WH_CONTRACTED}|${WH_ASKS}|${ANY}|${ABOUT_YOU}|${EVER_YOU})`,
  'iu',
);
/**
 * "does he …", "did they …": a question wherever it stands ("so does he" aside: "so" goes on);
 * not "do it", "do that" ("let's do it").
 */
const ASKS_OF_SOMEONE =
  "(?:(?:does|did)(?:n['’]t)?\\s+(?:he|she|they|we|it|that|this)|do(?:n['’]t)?\\s+(?:he|she|they|we))\\b";
/**
 * "what's been …", "what's new", "where's the best …", "you ever tried …": asks wherever it opens
 * (not "I know what's been …", "if you ever …": "know" and "if" go on).
 */
const WH_IS_NEXT = `(?:what|where|who|how)(?:['’]s|\\s+is)\\s+(?:been|up|new|next|your|ur|the)\\b|${EVER_YOU}`;
/**
 * "any advice on that", "any plans for the weekend", "any recent meet-ups with your team": what
 * only a question asks for with "any" (not "any time", "any way").
 */
const ANY_ASKS =
  'any\\s+(?:(?:good|great|fun|big|cool|new|recent|exciting|special|other|more|fave|favou?rite|particular|interesting|upcoming)\\s+){0,2}(?:advice|tips?|plans?|ideas?|suggestions?|recs|recommendations?|thoughts|news|updates?|favou?rites?|faves?|pets?|hobbies|books?|songs?|movies?|shows?|places?|spots?|trips?|meet-?ups?|events?|recipes?|projects?|progress|luck|word)\\b';
/**
 * "how much do these courses cost", "what else did you cook", "where was it": a question word,
 * a word of degree at most, and an auxiliary before its subject (not "which was great", "what
 * I did").
 */
const WH_AUX_SUBJECT =
  '(?:how|what|where|when|why)\\s+(?:(?:much|many|long|often|far|else|exactly|kind\\s+of\\s+\\S+)\\s+)?(?:do|does|did|are|is|was|were|have|has|can|could|would|will|should)\\s+(?:you|u|ya|your|ur|these|those|they|he|she|it|the|we)\\b';
/** The questions that ask even at the end of a run with no mark at all ("… do you have any tips"). */
const PLAIN_QUESTION_RE = new RegExp(
  `^${QUESTION_LEAD}(?:${ASKS_YOU}|${ASKS_OF_SOMEONE}|${HOW_IS}|${ABOUT_YOU}|${WH_IS_NEXT}|${WH_AUX_SUBJECT}|(?:got\\s+)?${ANY_ASKS}|anything\\s+(?:else\\s+)?(?:i|we)\\s+can\\s+do\\b)`,
  'iu',
);
/** Words before "got" that make it said, not asked ("we haven't got any", "I just got any …"). */
const GOT_SAID_BY_RE =
  /^(?:i|we|they|you|he|she|it|have|has|had|haven['’]?t|hasn['’]?t|hadn['’]?t|i['’]ve|we['’]ve|they['’]ve|you['’]ve|just|also|never|finally|already|still|not)$/iu;
/** Words after which "any …" is what they take ("I don't have any plans", "got any tips"), not a question. */
const TAKES_ANY_RE =
  /^(?:have|has|had|got|get|gets|need|needs|needed|want|wants|wanted|don['’]?t|didn['’]?t|doesn['’]?t|never|hardly|barely|not|no|if|whether|than|take|took|make|made|see|saw|find|found|hear|heard|know|knew|buy|bought|try|tried|use|used|do|did|does|is|was|are|were|be|been|give|gave|there|isn['’]?t|wasn['’]?t|aren['’]?t|share|shared|welcome|appreciate|take)$/iu;
/** A question set off by a comma at the end of a run with no mark ("love the tattoo, did you just get it"). */
const COMMA_QUESTION_RE = new RegExp(`,\\s+(?:${ASKS_YOU}|${ASKS_OF_SOMEONE}|${HOW_IS}|${WH_CONTRACTED})[^,;]*$`, 'iu');

const WH_WORD_RE = /^(?:what|how|where|when|why|who|which)$/iu;
/** How many words a question's opening is read from (`QUESTION_START_RE`, `PLAIN_QUESTION_RE`). */
const QUESTION_OPENING_WORDS = 12;

/**
 * The last sentence of a run that ends in "?", typed without capitals or full stops: the question
 * starts at the last word that opens one and does not go on ("that's great to hear I'm
 * considering a dog too do you have any tips?" asks only "do you have any tips?").
 */
function askedAtTheEnd(words: readonly string[], stopless: boolean): string[] {
  const all = words.join(' ');
  // "How long have you been doing yoga?": a run that asks from its start is one question.
  if (!stopless || QUESTION_START_RE.test(all) || QUESTION_OPENER_RE.test(all)) return [all];
  // With its "?", any question; with none, only one that cannot be anything else ("do you …").
  const asks = /\?["'”’)]*$/u.test(all) ? QUESTION_START_RE : PLAIN_QUESTION_RE;
  const opens = (j: number) =>
    j >= 2 &&
    // "My name is Ada and do you know …": a clause joined by "and" is the same sentence.
    !/^(?:and|but|or|so)$/iu.test(words[j]!) &&
    // "… from Berlin, what's your name?": a comma before the question already set it off.
    !/,$/u.test(words[j]!) &&
    !/[,;:–—-]$/u.test(words[j - 1]!) &&
    !GOES_ON_BEFORE_I.has(bare(words[j - 1]!)) &&
    // "… working on anything cool with them?": after a preposition, what it governs.
    !PREPOSITION_WORD_RE.test(bare(words[j - 1]!)) &&
    // "I don't have any plans": what a verb takes.
    !(
      /^any$/iu.test(words[j]!) &&
      (TAKES_ANY_RE.test(bare(words[j - 1]!)) || /^(?:\p{L}{3,}(?<!e)ed|up)$/iu.test(bare(words[j - 1]!)))
    ) &&
    // "… got any tips?" asks ("(you) got any …"); "we haven't got any plans" says.
    !(/^got$/iu.test(words[j]!) && GOT_SAID_BY_RE.test(bare(words[j - 1]!)));
  // A question's opening is read from its first words (a long run is not joined again per word).
  const asksFrom = (j: number, re = asks) => re.test(words.slice(j, j + QUESTION_OPENING_WORDS).join(' '));
  for (let last = words.length - 2; last >= 2; last--) {
    if (!asksFrom(last)) continue;
    // "… do you have any tips?": the question starts at "do", not at "have any"; "… what game are
    // you playing", "… how have you been": at the question word a few words before what asks.
    // Where that word goes on with what came before ("… and how long have you had it"), the
    // question is no sentence of its own.
    let j = last;
    let within = false;
    for (let k = last - 1; k >= j - 3 && k >= 2 && !within; k--)
      if (asksFrom(k) || (WH_WORD_RE.test(words[k]!) && asksFrom(k, QUESTION_START_RE)))
        if (bare(words[k]!) === 'well' && WENT_WELL_RE.test(bare(words[k - 1]!)))
          // "… it went well what did you think": "well" says how it went.
          break;
        else if (opens(k)) j = k;
        else within = true;
    if (within || !opens(j)) continue;
    // "… check it out hows everything with the music any updates": what comes before may end
    // with a question of its own.
    return [...askedAtTheEnd(words.slice(0, j), stopless), words.slice(j).join(' ')];
  }
  return [all];
}

/** `segment` with the mark it was typed without: "?" when it asks, "." when it says. */
function ended(segment: string): string {
  const s = segment.replace(/[\s,;–—-]+$/u, '');
  return QUESTION_START_RE.test(s) ? `${s}?` : `${s}.`;
}
/** The last sentence of a stretch, typed without its mark: "?" when it asks; a statement is left as typed. */
const asked = (segment: string) =>
  QUESTION_START_RE.test(segment) || COMMA_QUESTION_RE.test(segment) ? `${segment}?` : segment;

/**
 * The sentences of `part`, one stretch of a turn with no full stop, "!" or "?" inside it. Where a
 * person typing in a chat app left the full stops out ("Thanks Mel Your backing means a lot I
 * felt super powerful giving my talk"), a sentence starts:
 * - at a word that opens sentences, typed with its capital ("… a lot Your backing …"; not in a
 *   title, "The Last Kingdom", nor in a quotation);
 * - after laughter ("that was fun haha we should go again");
 * - with `stopless` (no full stop anywhere in the turn), at an "I" or a subject like "it's" that
 *   does not go on with what came before ("… last Friday I'm so excited"; not "the book I read",
 *   "I think I can", "Did I tell you I …", "When I was young I …").
 *
 * Each sentence but the last gets the mark it was typed without: "?" when it asks ("How's it
 * going", "Any plans for the summer"), "." otherwise; the last keeps its own, or gets "?" when it
 * asks and is otherwise left as typed. A caption at the end stays with the last sentence.
 */
export function repunctuate(part: string, { stopless = true }: { stopless?: boolean } = {}): string[] {
  if (/^\[image:/iu.test(part)) return [part];
  const [, said = part, caption] = CAPTION_END_RE.exec(part) ?? [];
  const words = said.split(/\s+/u).filter(Boolean);
  const out: string[] = [];
  let start = 0;
  // The double quotes since `start`: an odd count is a quotation still open. Counted as the run
  // is read, so that a long run is read in one pass.
  let quotes = 0;
  for (let i = 1; i < words.length; i++) {
    quotes += quotesIn(words[i - 1]!);
    if (opensSentence(words, i, start, stopless, quotes % 2 === 1)) {
      out.push(words.slice(start, i).join(' '));
      start = i;
      quotes = 0;
    }
  }
  if (start < words.length) out.push(...askedAtTheEnd(words.slice(start), stopless));
  const last = out.length - 1;
  // The last sentence keeps its own mark, or none before a caption ("Shared a pic of my success
  // [image: …]": the picture is what it says).
  // A question before it ("… how have you been [image: …]") is asked apart from the picture, as
  // "How have you been? [image: …]" is.
  const endsAsking = last >= 0 && !ENDED_RE.test(out[last]!) && QUESTION_START_RE.test(out[last]!);
  const sentences = out.map((s, i) =>
    i < last ? ended(s) : caption !== undefined && !endsAsking ? `${s} ${caption}` : ENDED_RE.test(s) ? s : asked(s),
  );
  if (caption !== undefined && (last < 0 || endsAsking)) sentences.push(caption);
  return sentences;
}

/** Whether `text` has no full stop, "!" or "…" ending a sentence anywhere (a "?" aside): typed without them. */
export function typedWithoutStops(text: string): boolean {
  return !/[.!…。！](?:["'”’)\]]*)(?:\s|$)/u.test(text.replace(/\[image:[^\]]*\]/giu, ''));
}
