import { entryText, type MemoryEntry } from '../model/types.js';
import { analyze, tokenize } from '../retrieval/text.js';
import { formedFields } from './consolidation.js';
import { personName, RELATION_ADJECTIVE, RELATIONS } from '../language/lexicon.js';

/**
 * What a question asks about, read against formed memories: a question names a subject (the
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

const CUE_TERMS = SLOT_CUES.map((c) => ({ cue: c, terms: new Set(c.asks.flatMap((w) => analyze(w))) }));
const FIRST_PERSON_RE = /\b(?:i|me|my|mine|myself)\b/iu;
/** Speaker labels a transcript gives the human side of a chat ("User: I love hiking"). */
const USER_LABEL_RE = /^(?:user|human|me)$/iu;
const MY_RELATION_RE = new RegExp(`\\b(?:my|our)\\s+${RELATION_ADJECTIVE}(${RELATIONS})\\b`, 'iu');

/** A subject that joins someone to the asker: "my wife and I", "my sister Ana and me", "me and my wife". */
const WITH_ASKER_RE = new RegExp(
  `\\b(?:my|our)\\s+${RELATION_ADJECTIVE}(?:${RELATIONS})(?:,?\\s+\\p{Lu}[\\p{L}\\p{M}'’-]*)?,?\\s+(?:and|&)\\s+(?:i|me|myself)\\b|\\b(?:i|me)\\s+(?:and|&)\\s+(?:my|our)\\s`,
  'iu',
);

/** A capitalised word and what precedes it (start of text, of a sentence, or a space). */
const CAPITALISED_RE = /(^|[.?!]\s+|\s)(\p{Lu}[\p{L}\p{M}\p{N}'’]*)/gu;

/** `query` with each capitalised word read as a name ({@link personName}: "James's" → "James"). */
function withNames(query: string): string {
  return query.replace(CAPITALISED_RE, (_, before: string, word: string) => before + personName(word));
}

/** Capitalised words of `query` that are not its first word: the names it mentions (lowercase). */
function namesIn(query: string): Set<string> {
  const out = new Set<string>();
  for (const m of query.matchAll(CAPITALISED_RE)) {
    if (m[1] === '' || /[.?!]/.test(m[1]!)) continue;
    const name = personName(m[2]!);
    if (name !== 'I') out.add(name.toLowerCase());
  }
  return out;
}

/**
 * A matcher for `query`: for a formed memory, the share (0..1) of the question's meaningful
 * words that the memory covers, counting a word that asks for a cue as covered when the memory
 * is about the subject the question names and answers that cue; `undefined` when no word was
 * covered that way (the plain word coverage then says it all). Subjects: "my <relation>" → the
 * memory's `about` is `"<its user>'s <relation>"`; otherwise "I/me/my" → the memory is about the
 * user who said it (`about` equals its `userId`, or is the speaker label of the human side of a
 * transcript: `User`, `Human`, `Me`); a capitalised name → `about` is that name.
 */
export function questionSlots(query: string): (entry: MemoryEntry) => number | undefined {
  // An idiom whose words would ask for another cue: "for a living" asks for a job, not a home.
  // A possessive name counts as the name ("James's" would stem to "jamess", which nothing covers).
  const terms = new Set(analyze(withNames(query).replace(/\bfor\s+a\s+living\b/giu, 'for a job')));
  const asked = CUE_TERMS.filter((c) => [...c.terms].some((t) => terms.has(t)));
  if (asked.length === 0) return () => undefined;
  // "my wife and I" / "me and my wife" asks about the asker, as formation files such statements.
  const relation = WITH_ASKER_RE.test(query)
    ? undefined
    : MY_RELATION_RE.exec(query)?.[1]?.toLowerCase().replace(/\s+/g, ' ');
  const firstPerson = relation === undefined && FIRST_PERSON_RE.test(query);
  const names = namesIn(query);
  return (entry) => {
    const f = formedFields(entry);
    if (f.about === undefined) return undefined;
    const about = f.about.toLowerCase();
    const user = entry.userId?.toLowerCase();
    const subject =
      (relation !== undefined && about === `${user}'s ${relation}`) ||
      (firstPerson && (about === user || USER_LABEL_RE.test(about))) ||
      names.has(personName(about));
    if (!subject) return undefined;
    const text = entryTextWords(entry);
    const answered = asked.filter(
      ({ cue }) =>
        cue.kinds?.includes(entry.kind) ||
        (f.attribute !== undefined && cue.attributes?.includes(f.attribute)) ||
        cue.says?.some((w) => text.has(w)),
    );
    if (answered.length === 0) return undefined;
    let covered = 0;
    for (const t of terms) if (text.has(t) || answered.some((c) => c.terms.has(t))) covered++;
    return covered / terms.size;
  };
}

function entryTextWords(entry: MemoryEntry): Set<string> {
  const text = entryText(entry);
  return new Set([...analyze(text), ...tokenize(text)]);
}
