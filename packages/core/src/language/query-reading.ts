import { invalid } from '../model/errors.js';
import {
  MONTH_NAMES,
  NAMES_ALSO_WORDS,
  personName,
  QUESTION_LEAD,
  RELATION_ADJECTIVE,
  RELATIONS,
  WEEKDAY_NAMES,
} from './lexicon.js';
import { restoreApostrophes } from './chat-text.js';
import { analyze, STOPWORDS, tokenize } from '../retrieval/text.js';
import { parseTimeRanges, type TimeRange } from './time-expressions.js';
import { foldName } from './names.js';
import { expandTerms, FOOD_HEALTH_TERMS, type Expansion } from './relations.js';

/**
 * What a question asks for, read against formed memories: a question names a subject (the
 * asker, "my sister", or a person by name) and asks for something of theirs ("hobbies",
 * "birthday", "job"). A formed memory about that subject whose kind or slot is that something
 * answers it even when it shares no word with the question and the embedding model sees little
 * likeness ("What are my hobbies?" ↔ "I love hiking in the Alps." has cosine 0.17 with use-lite).
 *
 * Each cue: the question words that ask for it (stemmed like the lexical index) and what a
 * memory must be to answer: one of `kinds`, a slot in `attributes`, or a statement containing
 * one of `says`. General English, not tuned to any dataset's wording.
 */
export interface SlotCue {
  asks: readonly string[];
  kinds?: readonly string[];
  attributes?: readonly string[];
  says?: readonly string[];
}

export const SLOT_CUES: readonly SlotCue[] = Object.freeze([
  {
    asks: 'hobby hobbies interest interests interested like likes love loves enjoy enjoys favourite favorite prefer prefers fun passion passions pastime pastimes'.split(
      ' ',
    ),
    kinds: ['preference'],
  },
  {
    asks: ['born', 'birth', 'birthday', 'age', 'old'],
    attributes: ['age', 'birthday', 'birthdate'],
    says: ['born', 'birthday'],
  },
  {
    asks: ['job', 'work', 'works', 'occupation', 'profession', 'career', 'employer'],
    attributes: ['works at', 'works as', 'job', 'occupation', 'profession'],
  },
  {
    asks: ['live', 'lives', 'home', 'city', 'hometown', 'address', 'grow', 'grew', 'raised'],
    attributes: ['lives in', 'is from', 'hometown', 'address'],
    says: ['grew', 'raised'],
  },
  { asks: ['name', 'called'], attributes: ['name'] },
  { asks: ['plan', 'plans', 'todo', 'task', 'tasks', 'remind', 'appointment', 'appointments'], kinds: ['task'] },
]);

/** A cue and its question words, analysed. */
export interface AskedCue {
  cue: SlotCue;
  terms: ReadonlySet<string>;
}

const CUE_TERMS: readonly AskedCue[] = SLOT_CUES.map((c) => ({
  cue: c,
  terms: new Set(c.asks.flatMap((w) => analyze(w))),
}));

/** The question-slot side of a reading (see {@link SlotCue}; matched by `questionSlots`). */
export interface SlotReading {
  /** The question's meaningful words, possessive names read as names, analysed. */
  terms: ReadonlySet<string>;
  /** The cues the question asks for (empty: no slot question). */
  asked: readonly AskedCue[];
  /** "my sister" → `"sister"` (lowercase, single spaces); absent when no relation is the subject. */
  relation?: string;
  /**
   * The relation and the relations that answer for it, analysed ("sibling" → sibl, sister,
   * brother, …): a memory about "<user>'s sister" answers "my sibling".
   */
  relations: ReadonlySet<string>;
  /** The asker is the subject ("my hobbies", "what do I like"). */
  firstPerson: boolean;
  /**
   * Capitalised words that are not its first word (or are someone the store knows: the reading's
   * `people`), possessives dropped, lowercase; no months or weekdays.
   */
  names: ReadonlySet<string>;
}

/**
 * Everything recall needs to know about a query, read once ({@link readQuery}) and passed to every
 * stage: the lexical search, the boosts, the relevance gate and the question-slot matcher.
 */
export interface QueryReading {
  /**
   * The query as read ({@link typedQuery}): as given, with the apostrophes typed without put
   * back and known people's names typed in lower case capitalised. What the embedder is sent.
   */
  readonly text: string;
  /** Reference time (epoch ms) relative expressions were read against. */
  readonly now: number;
  /** Its meaningful words as written, lowercased (stopwords dropped): what keyword search is sent. */
  readonly keywords: readonly string[];
  /** Its meaningful words analysed like the lexical index (stopwords dropped, stemmed). */
  readonly terms: ReadonlySet<string>;
  /**
   * Query terms a memory may answer with other words (`"sibl"` → sister, brother, …; `"bui"` →
   * bought; see `TERM_GROUPS` and `IRREGULAR_VERBS`), analysed.
   */
  readonly expansions: ReadonlyMap<string, Expansion>;
  /**
   * Names it mentions (capitalised words that do not start a sentence, and the people the store
   * knows, typed in lower case or not; see {@link typedQuery}), folded like tokens.
   */
  readonly names: readonly string[];
  /** Time spans it names ("last week", "in June 2023"). */
  readonly timeRanges: readonly TimeRange[];
  /** What it asks of a subject, for formed memories. */
  readonly slots: SlotReading;
  /**
   * A first-person question about food, drink, medicine or health ("What snack should I buy?"):
   * the store's safety facts (allergies, conditions, dietary limits) must reach it.
   */
  readonly safety: boolean;
  /**
   * It refers to a person: the asker ("I", "my", "we"), the one asked ("you"), or someone already
   * spoken of ("he", "her"); or it is no question at all (a bare topic such as "outdoor
   * activities" searches the store). A question that does not refer to anyone, and names no one
   * the store knows, asks about the world (see `isStrong`).
   */
  readonly personal: boolean;
}

/**
 * The frame of a question that asks for a guess rather than a fact ("Would Caroline *likely* …",
 * "What *might* John's financial status be?", "*Based on the conversation*, …"): words that say how
 * sure the answer may be, or where to look, and nothing of what is asked. Memories never hold them
 * in the sense asked, so they only add noise to the words searched: dropped from the query's words.
 */
const GUESS_FRAME_RE =
  /\b(?:(?:based|depending)\s+on|according\s+to|in\s+(?:the\s+)?light\s+of|judging\s+(?:by|from))\b|\b(?:likely|potentially|possibly|probably|perhaps|might|considering|considered|conversations?)\b/giu;

const FIRST_PERSON_RE = /\b(?:i|me|my|mine|myself)\b/iu;
const PERSONAL_RE = /\b(?:i|me|my|mine|myself|we|us|our|ours)\b/iu;
/** A person referred to: the asker, the one asked, or someone spoken of ("they" is often no one). */
/**
 * A question: a question mark, or a question word or auxiliary first, after the words a question
 * may open with (`QUESTION_LEAD`: "so what …"), a clause and a comma ("according to Gina, what
 * …"), or a preposition ("in which state …", "for how long …"): a question typed in a chat app
 * often has no question mark.
 */
const QUESTION_RE = new RegExp(
  `\\?\\s*$|^\\s*(?:${QUESTION_LEAD}|(?:[\\p{L}\\p{N}'’-]+\\s+){0,7}[\\p{L}\\p{N}'’-]+,\\s+)?` +
    `(?:(?:(?:in|on|at|for|from|to|with|by|after|before|since|during|until|of|about|besides|among)\\s+)?` +
    `(?:who|whom|whose|what|when|where|which|why|how)|is|are|was|were|am|do|does|did|can|could|should|would|will|has|have|had)\\b`,
  'iu',
);

const PERSON_RE =
  /\b(?:i|me|my|mine|myself|we|us|our|ours|you|your|yours|yourself|he|him|his|himself|she|her|hers|herself)\b/iu;
const MY_RELATION_RE = new RegExp(`\\b(?:my|our)\\s+${RELATION_ADJECTIVE}(${RELATIONS})\\b`, 'iu');
/** A subject that joins someone to the asker: "my wife and I", "my sister Ana and me", "me and my wife". */
const WITH_ASKER_RE = new RegExp(
  `\\b(?:my|our)\\s+${RELATION_ADJECTIVE}(?:${RELATIONS})(?:,?\\s+\\p{Lu}[\\p{L}\\p{M}'’-]*)?,?\\s+(?:and|&)\\s+(?:i|me|myself)\\b|\\b(?:i|me)\\s+(?:and|&)\\s+(?:my|our)\\s`,
  'iu',
);
/** A capitalised word and what precedes it (start of text, of a sentence, or a space). */
const CAPITALISED_RE = /(^|[.?!]\s+|\s)(\p{Lu}[\p{L}\p{M}\p{N}'’]*)/gu;

/**
 * Whether `folded` (a word, lower case) is the name of someone in `people`, read so in lower case:
 * not a word that is also an everyday English word ("will", "may", "bill": `NAMES_ALSO_WORDS`), a
 * month, a weekday or a stopword.
 */
function isKnownPerson(folded: string, people: ReadonlySet<string> | undefined): boolean {
  return (
    people !== undefined &&
    folded.length >= 2 &&
    people.has(folded) &&
    !NAMES_ALSO_WORDS.has(folded) &&
    !STOPWORDS.has(folded) &&
    !MONTH_NAMES.includes(folded) &&
    !WEEKDAY_NAMES.includes(folded)
  );
}

/** A word, not inside another or after an apostrophe ("don't" has no word "t"). */
const WORD_RE = /(?<![\p{L}\p{M}\p{N}'’])\p{L}[\p{L}\p{M}]*(?![\p{L}\p{M}\p{N}])/gu;

/**
 * `query` as it would have been written with care, for a question typed in a chat app ("whats
 * carolines job", "where does melanie live"): the apostrophes of contractions typed without them
 * put back ("whats" → "what's", `restoreApostrophes`), and the names of `people` (folded names
 * the store knows, see `SemanticMemory.people`) capitalised where typed in lower case ("melanie"
 * → "Melanie"), and read as a possessive where typed without its apostrophe ("carolines" →
 * "Caroline's", when "carolines" is no one the store knows). A word that is also an everyday
 * English word ({@link isKnownPerson}) stays as typed. Words are never changed otherwise.
 */
export function typedQuery(query: string, people?: ReadonlySet<string>): string {
  const restored = restoreApostrophes(query);
  if (people === undefined || people.size === 0) return restored;
  return restored.replace(WORD_RE, (word: string, at: number) => {
    const folded = foldName(word);
    const capital = (w: string) => w[0]!.toUpperCase() + w.slice(1);
    if (isKnownPerson(folded, people)) return word === word.toLowerCase() ? capital(word) : word;
    // "carolines job": no apostrophe, and "carolines" is no one the store knows.
    const apostrophe = /^['’]/u.test(restored.slice(at + word.length));
    if (!apostrophe && folded.endsWith('s') && !people.has(folded) && isKnownPerson(folded.slice(0, -1), people))
      return `${capital(word.slice(0, -1))}'s`;
    return word;
  });
}

/**
 * Read `query` once for recall at `now` (epoch ms, for "last week"). `people`: the folded names of
 * the people the store knows (speakers and whom memories are about; `SemanticMemory.people`), so
 * that a question typed in lower case still names them ({@link typedQuery}). Pure and cheap (tens
 * of microseconds); the result is plain data. Throws `VALIDATION` for a non-string query or a
 * non-finite `now`.
 */
export function readQuery(given: string, now: number, people?: ReadonlySet<string>): QueryReading {
  if (typeof given !== 'string') invalid('query', 'a string', given);
  if (typeof now !== 'number' || !Number.isFinite(now)) invalid('now', 'epoch milliseconds', now);
  const query = typedQuery(given, people);
  const searched = query.replace(GUESS_FRAME_RE, ' ');
  const tokens = tokenize(searched);
  const keywords = tokens.filter((t) => !STOPWORDS.has(t));
  const terms = new Set(analyze(searched));
  const slots = readSlots(query, searched, people);
  // A bare topic ("outdoor activities") searches the store; only a question can ask about the world.
  const personal = PERSON_RE.test(query) || !QUESTION_RE.test(query);
  const names = new Set<string>();
  for (const n of slots.names) {
    const folded = foldName(n);
    if (folded && !STOPWORDS.has(folded)) names.add(folded);
  }
  return {
    text: query,
    now,
    keywords,
    terms,
    expansions: expandTerms(terms),
    names: [...names],
    timeRanges: parseTimeRanges(query, now),
    slots,
    safety: PERSONAL_RE.test(query) && [...terms].some((t) => FOOD_HEALTH_TERMS.has(t)),
    personal,
  };
}

function readSlots(query: string, searched: string, people: ReadonlySet<string> | undefined): SlotReading {
  const names = new Set<string>();
  for (const m of query.matchAll(CAPITALISED_RE)) {
    const name = personName(m[2]!).toLowerCase();
    // Sentence start: capitalised anyway, a name only when it is someone the store knows.
    if ((m[1] === '' || /[.?!]/.test(m[1]!)) && !isKnownPerson(foldName(name), people)) continue;
    // A month or a weekday is a time, read as such ("in May 2023"), not someone to boost.
    if (name !== 'i' && !MONTH_NAMES.includes(name) && !WEEKDAY_NAMES.includes(name)) names.add(name);
  }
  // An idiom whose words would ask for another cue: "for a living" asks for a job, not a home.
  // A possessive name counts as the name ("James's" would stem to "jamess", which nothing covers).
  const withNames = searched.replace(CAPITALISED_RE, (_, before: string, word: string) => before + personName(word));
  const terms = new Set(analyze(withNames.replace(/\bfor\s+a\s+living\b/giu, 'for a job')));
  const asked = CUE_TERMS.filter((c) => [...c.terms].some((t) => terms.has(t)));
  // "my wife and I" / "me and my wife" asks about the asker, as formation files such statements.
  const relation = WITH_ASKER_RE.test(query)
    ? undefined
    : MY_RELATION_RE.exec(query)?.[1]?.toLowerCase().replace(/\s+/g, ' ');
  const relations = new Set<string>();
  if (relation !== undefined) {
    const r = analyze(relation).join(' ');
    relations.add(r);
    for (const e of expandTerms([r]).get(r)?.terms ?? []) relations.add(e);
  }
  return {
    terms,
    asked,
    ...(relation !== undefined ? { relation } : {}),
    relations,
    firstPerson: relation === undefined && FIRST_PERSON_RE.test(query),
    names,
  };
}
