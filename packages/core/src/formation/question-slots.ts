import { readQuery, type SlotReading } from '../language/query-reading.js';
import { entryText, type MemoryEntry } from '../model/types.js';
import { analyze, tokenize } from '../retrieval/text.js';
import { formedFields } from './consolidation.js';
import { personName } from '../language/lexicon.js';

/** Speaker labels a transcript gives the human side of a chat ("User: I love hiking"). */
export const USER_LABEL_RE = /^(?:user|human|me)$/iu;

/**
 * Whom of the user's a formed memory is about: `'self'` when its `about` is the user who said it
 * (their `userId`, or the speaker label of the human side of a transcript: `User`, `Human`,
 * `Me`), `'relation'` when it is one of theirs (`"<userId>'s son"`, or a person named who goes by
 * that too: "My son Max …", about `Max`, `aka` `"<userId>'s son"`), `undefined` otherwise (a
 * person named only, or no `about`).
 */
export function aboutUser(entry: MemoryEntry): 'self' | 'relation' | undefined {
  const fields = formedFields(entry);
  const about = fields.about?.toLowerCase();
  if (about === undefined) return undefined;
  const user = entry.userId?.toLowerCase();
  if (about === user || USER_LABEL_RE.test(about)) return 'self';
  if (user === undefined) return undefined;
  return [about, ...(fields.aka ?? []).map((a) => a.toLowerCase())].some((a) => a.startsWith(`${user}'s `))
    ? 'relation'
    : undefined;
}

/**
 * A matcher for `query`: for a formed memory, the share (0..1) of the question's meaningful
 * words that the memory covers, counting a word that asks for a cue as covered when the memory
 * is about the subject the question names and answers that cue; `undefined` when no word was
 * covered that way (the plain word coverage then says it all). Subjects: "my <relation>" → the
 * memory's `about` is `"<its user>'s <relation>"` or a relation that answers it ("my partner" ↔
 * "me's wife"; `TERM_GROUPS`); otherwise "I/me/my" → the memory is about the user who said it
 * (`about` equals its `userId`, or is the speaker label of the human side of a transcript:
 * `User`, `Human`, `Me`); a capitalised name → `about` is that name, or one `sameAs` accepts (a
 * spelling variant the store knows). `query` is the text or its reading (`readQuery(...).slots`).
 */
export function questionSlots(
  query: string | SlotReading,
  sameAs?: (name: string) => boolean,
): (entry: MemoryEntry) => number | undefined {
  const { terms, asked, relations, firstPerson, names } = typeof query === 'string' ? readQuery(query, 0).slots : query;
  if (asked.length === 0) return () => undefined;
  return (entry) => {
    const f = formedFields(entry);
    if (f.about === undefined) return undefined;
    const about = f.about.toLowerCase();
    const user = entry.userId?.toLowerCase();
    const subject =
      (user !== undefined &&
        relations.size > 0 &&
        about.startsWith(`${user}'s `) &&
        relations.has(analyze(about.slice(user.length + 3)).join(' '))) ||
      (firstPerson && (about === user || USER_LABEL_RE.test(about))) ||
      names.has(personName(about)) ||
      sameAs?.(personName(about)) === true;
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
