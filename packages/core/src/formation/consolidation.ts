import type { MemoryEntry } from '../model/types.js';
import { analyze } from '../retrieval/text.js';
import { NEGATION_RE, NO_LONGER_RE, PHATIC, TIME_PHRASE_END_RE } from '../language/lexicon.js';
import { normalizeValue } from '../language/statements.js';
import type { FormationContext, FormationOp, FormedStatement } from './types.js';

/** Word overlap at or above which two statements about the same person say the same thing. */
export const RESTATE_WORD_OVERLAP = 0.75;
/** Embedding cosine at or above which two statements (sharing some words) say the same thing. */
export const RESTATE_COSINE = 0.9;
/** The least word overlap a cosine match still needs (keeps "I love hiking" and "I love biking" apart). */
const RESTATE_COSINE_MIN_OVERLAP = 0.34;
/** Two events more than this far apart are different occurrences, however alike their words. */
const SAME_EVENT_MS = 2 * 86_400_000;

/** Formation metadata of a memory (what formation wrote into `metadata`). */
export function formedFields(entry: MemoryEntry): {
  about?: string;
  aka?: string[];
  attribute?: string;
  value?: string;
  at?: number;
} {
  const m = entry.metadata;
  const aka = Array.isArray(m.aka) ? m.aka.filter((x): x is string => typeof x === 'string') : [];
  return {
    ...(typeof m.about === 'string' ? { about: m.about } : {}),
    ...(aka.length ? { aka } : {}),
    ...(typeof m.attribute === 'string' ? { attribute: m.attribute } : {}),
    ...(typeof m.value === 'string' ? { value: m.value } : {}),
    ...(typeof m.at === 'number' ? { at: m.at } : {}),
  };
}

/** The text a formed memory says (its `content.text`, or the whole entry text). */
export function statementOf(entry: MemoryEntry): string {
  const c = entry.content as { text?: unknown; input?: unknown };
  return typeof c.text === 'string' ? c.text : typeof c.input === 'string' ? c.input : '';
}

/**
 * Share of the shorter statement's words (stemmed, stopwords out) that the other has; words
 * sharing their first five letters count as one ("allergic"/"allergy").
 */
export function wordOverlap(a: string, b: string): number {
  return overlapWith(a)(b);
}

/** {@link wordOverlap} against one statement, its words read once for many others. */
function overlapWith(a: string): (b: string) => number {
  const A = overlapWords(a);
  return (b) => {
    const B = overlapWords(b);
    if (!A.size || !B.size) return 0;
    let shared = 0;
    for (const w of A) if (B.has(w)) shared++;
    return (shared / Math.min(A.size, B.size)) * (Math.min(A.size, B.size) / Math.max(A.size, B.size)) ** 0.5;
  };
}

/** Share of `a`'s words (as {@link wordOverlap} reads them) that each other statement has. */
function containedIn(a: string): (b: string) => number {
  const A = overlapWords(a);
  return (b) => {
    if (!A.size) return 0;
    const B = overlapWords(b);
    let shared = 0;
    for (const w of A) if (B.has(w)) shared++;
    return shared / A.size;
  };
}

function overlapWords(s: string): Set<string> {
  return new Set(
    analyze(s)
      .filter((w) => !PHATIC.has(w))
      .map((w) => (w.length > 5 ? w.slice(0, 5) : w)),
  );
}

const sameAbout = (a: string | undefined, b: string) => a !== undefined && a.toLowerCase() === b.toLowerCase();

/** A subject said by the speaker's relation to them ("Ann's sister"), not by a name. */
const byRelation = (about: string) => /['’]s\s/u.test(about);

/**
 * The known memories about the statement's subject: said by the same name, or by another name
 * one of them goes by (`aka`): "My sister Ana lives in Lisbon" is about Ana, also known as
 * "Ann's sister", so "My sister moved to Berlin" is about her too. A relation that stands for two
 * named people ("my friend Ana", "my friend Raj") stands for neither.
 */
function aboutTheSame(statement: FormedStatement, known: readonly MemoryEntry[]): MemoryEntry[] {
  const names = [statement.about, ...(statement.aka ?? [])];
  const exact: MemoryEntry[] = [];
  const aliased: MemoryEntry[] = [];
  const aliasedAbout = new Set<string>();
  for (const e of known) {
    const f = formedFields(e);
    if (sameAbout(f.about, statement.about)) exact.push(e);
    // One's name is the other's alias; two names that share an alias are two people ("my friend Ana", "my friend Raj").
    else if ((f.aka ?? []).some((a) => sameAbout(a, statement.about)) || names.some((n) => sameAbout(f.about, n))) {
      aliased.push(e);
      aliasedAbout.add(f.about!.toLowerCase());
    }
  }
  const named = [...aliasedAbout].filter((a) => !byRelation(a));
  if (named.length > 1) return exact;
  return [...exact, ...aliased];
}

/**
 * `op` with its statement about whom the memory it touches is about, by every name known for
 * them: the name before the relation ("Ana", also "Ann's sister").
 */
function withNames(op: FormationOp, known: readonly MemoryEntry[]): FormationOp {
  if (op.op !== 'update' && op.op !== 'reinforce') return op;
  const e = known.find((k) => k.id === op.id);
  const f = e ? formedFields(e) : {};
  const all = [
    op.statement.about,
    ...(op.statement.aka ?? []),
    ...(f.about !== undefined ? [f.about] : []),
    ...(f.aka ?? []),
  ];
  const names = all.filter((n, i) => all.findIndex((m) => sameAbout(m, n)) === i);
  if (names.length === 1) return op;
  const about = names.find((n) => !byRelation(n)) ?? op.statement.about;
  return { ...op, statement: { ...op.statement, about, aka: names.filter((n) => !sameAbout(n, about)) } };
}

/** The lexicon's negation tables, read once, to test with (they are global, to replace with). */
const NO_LONGER = new RegExp(NO_LONGER_RE.source, 'iu');
const NEGATION = new RegExp(NEGATION_RE.source, 'iu');
/** Whether `s` says something does not, or no longer, hold ("I'm not vegan", "I stopped running"). */
const negated = (s: string) => NO_LONGER.test(s) || NEGATION.test(s);
/** `s` without what negates it: "I'm not vegetarian anymore" → "I'm vegetarian". */
const affirmed = (s: string) => s.replace(NO_LONGER_RE, ' ').replace(NEGATION_RE, ' ');
/**
 * The clause of `s` that says what no longer holds ("I'm not vegetarian anymore, I eat fish now"
 * → "I'm not vegetarian anymore"), or with `negation` = {@link NEGATION} what does not hold ("I
 * was wrong, I'm not allergic to penicillin, …" → "I'm not allergic to penicillin"), or `s` itself.
 */
function noLongerClause(s: string, negation: RegExp = NO_LONGER): string {
  const clauses = s.split(/[,;:.!?]+|\s+(?:and|but|so)\s+/iu).filter((c) => c.trim());
  const clause = clauses.find((c) => negation.test(c)) ?? s;
  // When it stopped is not what stopped ("I quit my job last week").
  return clause
    .split(/\s+/u)
    .filter((w) => !TIME_PHRASE_END_RE.test(w.replace(/[^\p{L}]/gu, '')) && !/^(?:last|this|ago)$/iu.test(w))
    .join(' ');
}

/**
 * What a request to forget (`statement.forget`: "Please forget that I'm vegetarian") does: delete
 * each known memory about the same person that says all it names ("I'm vegetarian.", "I'm
 * vegetarian and I love cheese"; "forget what I told you about my sister": each memory about her),
 * with the turns it was formed from. None: nothing known says it.
 */
export function forgotten(statement: FormedStatement, known: readonly MemoryEntry[]): FormationOp[] {
  const named = containedIn(statement.text);
  return known
    .filter((e) => {
      const f = formedFields(e);
      const theirs = sameAbout(f.about, statement.about) || (f.aka ?? []).some((a) => sameAbout(a, statement.about));
      return theirs && named(statementOf(e)) >= RESTATE_WORD_OVERLAP;
    })
    .map((e) => ({ op: 'delete', id: e.id, sources: true }));
}

/**
 * Decide what one statement does to what is known (`known`: formed memories, best matches
 * first):
 * - same subject and attribute, same value → `reinforce` (a restatement);
 * - same subject and attribute, another value → `update` (supersedes; the manager keeps the
 *   previous version in `metadata.history`);
 * - same subject, same words (or same meaning by embedding, with some words shared), and not
 *   two events days apart → `reinforce`;
 * - otherwise `add`. Statements about different people, or different attributes of the same
 *   person, never touch each other.
 */
export async function consolidate(
  statement: FormedStatement,
  known: readonly MemoryEntry[],
  context?: Pick<FormationContext, 'similarity'>,
): Promise<FormationOp> {
  return withNames(await decide(statement, known, context), known);
}

async function decide(
  statement: FormedStatement,
  known: readonly MemoryEntry[],
  context?: Pick<FormationContext, 'similarity'>,
): Promise<FormationOp> {
  const candidates = aboutTheSame(statement, known);
  if (statement.attribute !== undefined && statement.value !== undefined) {
    const slot = candidates.find((e) => formedFields(e).attribute === statement.attribute);
    if (slot) {
      const same = normalizeValue(formedFields(slot).value ?? '') === normalizeValue(statement.value);
      return same ? { op: 'reinforce', id: slot.id, statement } : { op: 'update', id: slot.id, statement };
    }
  }
  const comparable = candidates.filter((e) => {
    const f = formedFields(e);
    // A slot statement only restates a memory of the same slot (handled above) or one without a slot.
    if (statement.attribute !== undefined && f.attribute !== undefined) return false;
    if (statement.at !== undefined && f.at !== undefined && Math.abs(statement.at - f.at) > SAME_EVENT_MS) return false;
    return true;
  });
  if (!comparable.length) return { op: 'add', statement };
  // "I'm not vegetarian anymore", "I stopped playing tennis": what it says no longer holds is an
  // earlier memory that says it without the negation; the new statement supersedes it (kept in
  // its history), never restates it. "I'm vegan again" after "I'm not vegan anymore" does too.
  // What stopped ("I stopped playing tennis") is all in what it supersedes ("I play tennis every
  // week"); a plain negation says the same words ("I'm not vegan" / "I'm vegan").
  const denies = negated(statement.text);
  const ceased = NO_LONGER.test(statement.text);
  // A plain denial is read in its own clause ("I was wrong, I'm not allergic to penicillin, it's
  // amoxicillin" denies "I'm allergic to penicillin"; "I don't love running, but hiking is great"
  // denies nothing of hiking).
  const said = ceased
    ? containedIn(affirmed(noLongerClause(statement.text)))
    : overlapWith(affirmed(noLongerClause(statement.text, NEGATION)));
  let contradicted = -1;
  let contradiction = 0;
  for (let i = 0; i < comparable.length; i++) {
    const old = statementOf(comparable[i]!);
    if (negated(old) === denies) continue;
    const o = said(affirmed(old));
    if (o >= RESTATE_WORD_OVERLAP && o > contradiction) {
      contradicted = i;
      contradiction = o;
    }
  }
  if (contradicted >= 0) return { op: 'update', id: comparable[contradicted]!.id, statement };
  const overlap = overlapWith(statement.text);
  const overlaps = comparable.map((e) => overlap(statementOf(e)));
  let best = -1;
  for (let i = 0; i < comparable.length; i++)
    if (
      overlaps[i]! >= RESTATE_WORD_OVERLAP &&
      negated(statementOf(comparable[i]!)) === denies &&
      (best < 0 || overlaps[i]! > overlaps[best]!)
    )
      best = i;
  if (best >= 0) return { op: 'reinforce', id: comparable[best]!.id, statement };
  if (context?.similarity) {
    const near = comparable
      .map((e, i) => ({ e, i }))
      .filter(({ e, i }) => overlaps[i]! >= RESTATE_COSINE_MIN_OVERLAP && negated(statementOf(e)) === denies);
    if (near.length) {
      const cos = await context.similarity(
        statement.text,
        near.map(({ e }) => statementOf(e)),
      );
      let top = -1;
      for (let j = 0; j < near.length; j++) if (cos[j]! >= RESTATE_COSINE && (top < 0 || cos[j]! > cos[top]!)) top = j;
      if (top >= 0) return { op: 'reinforce', id: near[top]!.e.id, statement };
    }
  }
  return { op: 'add', statement };
}
