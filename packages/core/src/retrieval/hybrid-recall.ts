import { readQuery, type QueryReading } from '../language/query-reading.js';
import { foldName, sameName } from '../language/names.js';
import {
  LISTENER_SUBJECT_RE,
  SAFETY_OWN_STATEMENT_RE,
  SAFETY_STATEMENT_RE,
  SAFETY_TEXT_RE,
} from '../language/lexicon.js';
import { SAFETY_WORDS } from '../language/relations.js';
import { aboutUser, questionSlots, USER_LABEL_RE } from '../formation/question-slots.js';
import { sourcesOf } from '../formation/collapse.js';
import { formedFields } from '../formation/consolidation.js';
import { sentences, splitSpeaker } from '../language/statements.js';
import { personName } from '../language/lexicon.js';
import { entryText, isInteraction, type MemoryEntry } from '../model/types.js';
import type { LexicalHit } from '../storage/storage.js';
import { reciprocalRankFusion, scoreFusion, type FusedItem } from './fusion.js';
import {
  isStrong,
  readingCoverage,
  relatedReason,
  type RecallReason,
  type RelevanceEvidence,
  type RelevanceFloors,
} from './relevance.js';
import { analyze, tokenize } from './text.js';
import type { TimeRange } from '../language/time-expressions.js';
import type { Scored } from './top-k.js';

/** Which signals a search uses. */
export type RecallMode = 'hybrid' | 'lexical' | 'vector';

/** How lexical and vector lists are combined (see `reciprocalRankFusion` and `scoreFusion`). */
export type FusionMethod = 'rrf' | 'score';

/**
 * The stages of a recall, in order, as reported to a search's `onStage` (for benchmarks and
 * profiling): `read` the query once (`readQuery`), `embed` it (cached), rank `lexical` and
 * `vector` candidates, `fuse` the lists, apply the time and name `boost`s, the relevance `gate`,
 * and `cut` (adaptive threshold, entries fetched, hits built). `buildContext` adds `select`
 * (selector and working memory) and `pack` (the context builder).
 */
export type RecallStage =
  | 'read'
  | 'embed'
  | 'lexical'
  | 'vector'
  | 'fuse'
  | 'boost'
  | 'gate'
  | 'cut'
  | 'select'
  | 'pack';

/** Called when a stage starts and ends; the caller brings the clock. */
export type StageListener = (stage: RecallStage, phase: 'start' | 'end') => void;

/** One recalled memory with the evidence behind its rank (for UIs and debugging). */
export interface RecallHit {
  entry: MemoryEntry;
  /** Fused score in 0..1; 1 = ranked first by every signal used. */
  score: number;
  /** BM25 score, when the lexical list found it. */
  lexicalScore?: number;
  /** Cosine similarity, when the vector list found it. */
  vectorScore?: number;
  /** 1-based rank in the lexical list. */
  lexicalRank?: number;
  /** 1-based rank in the vector list. */
  vectorRank?: number;
  /** Cosine similarity of the memory's vector to the query, when the relevance gate computed it. */
  similarity?: number;
  /** Why the hit passed (see {@link RecallReason}); set by every semantic search. */
  reason?: RecallReason;
}

/** A search's options, checked and with defaults applied (see `SemanticSearchOptions`). */
export interface RecallPlan {
  topK: number;
  minScore: number | undefined;
  ratio: number;
  mode: RecallMode;
  fusion: FusionMethod;
  rrfK: number;
  /** Power of each list's normalised score in score fusion. */
  exponent: number;
  /** Whether lexical candidates the vector list did not reach are fused with their own cosine. */
  completeScores: boolean;
  weights: { lexical: number; vector: number };
  candidates: number;
  timeBoost: number;
  entityBoost: number;
  /** Boost of memories about whom the query names (spoken by them, or formed about them). */
  subjectBoost: number;
  /** The relevance gate's floors; `undefined` with `gated` means every positive signal passes. */
  floors: RelevanceFloors | undefined;
  /** Whether the relevance gate applies (no explicit `minScore`). */
  gated: boolean;
  onStage: StageListener | undefined;
}

/**
 * What the stages read from a tenant's store and indexes. `allowed`, when set, holds the only
 * entries a search may return (its filter, applied before ranking).
 */
export interface RecallSource {
  allowed: ReadonlyMap<string, MemoryEntry> | undefined;
  /** BM25 candidates for the reading, best first. */
  lexical(reading: QueryReading, limit: number): Promise<LexicalHit[]>;
  /** Cosine candidates for the reading, best first, positive scores only. */
  vector(reading: QueryReading, limit: number): Promise<Scored[]>;
  /** Cosine similarity to the query of each id that has a vector. */
  similarities(reading: QueryReading, ids: readonly string[]): Promise<Map<string, number>>;
  /** The entries of `ids` (deleted ones absent). */
  fetch(ids: readonly string[]): Promise<Map<string, MemoryEntry>>;
  /** Vectors in the tenant's index (the gate's strong floor grows with it). */
  size(): Promise<number>;
  /**
   * The names to look for, folded: each name the query mentions as the store knows it (itself,
   * or its closest spelling variants among the names the store's memories mention; see
   * `resolveName`), or as written when the store knows no such name.
   */
  names(reading: QueryReading): Promise<readonly string[]>;
  /** Forget an index row whose entry no longer exists. */
  dropStale(id: string): Promise<void>;
}

/**
 * How many of the best-ranked candidates the relevance gate looks at for a strong one (see
 * `RelevanceFloors`): a fixed window, so the answer does not depend on `topK`.
 */
const STRONG_WINDOW = 10;

/**
 * Hybrid recall as explicit stages over one {@link QueryReading}: candidates (lexical and vector
 * lists) → fuse (the lexical candidates' cosine completed, then weighted score fusion or RRF into
 * 0..1) → boosts (memories from a time span the query names, memories naming whom it names) → gate (the model-calibrated relevance floors, so
 * an unrelated question recalls nothing) → cut (adaptive share of the best score, `topK`).
 */
export async function hybridRecall(
  source: RecallSource,
  reading: QueryReading,
  plan: RecallPlan,
): Promise<RecallHit[]> {
  const stage = plan.onStage;
  const { lexical, vector: reached } = await candidates(source, reading, plan);

  stage?.('fuse', 'start');
  const vector = await completed(source, reading, plan, lexical, reached);
  let scored = fuse(lexical, vector, plan);
  stage?.('fuse', 'end');
  if (scored.length === 0) return [];

  stage?.('boost', 'start');
  const fetched = new Fetched(source);
  const names =
    plan.entityBoost > 0 || plan.subjectBoost > 0 || reading.slots.asked.length > 0 ? await source.names(reading) : [];
  scored = await boost(scored, reading, names, plan, fetched);
  stage?.('boost', 'end');

  const reasons = new Map<string, RecallReason>();
  const similarities = new Map<string, number>();
  if (plan.gated) {
    stage?.('gate', 'start');
    scored = await gate(scored, reading, names, plan, source, fetched, vector, reasons, similarities);
    stage?.('gate', 'end');
  }

  stage?.('cut', 'start');
  let hits = scored.length > 0 ? await cut(scored, plan, source, fetched, lexical, vector, reasons, similarities) : [];
  // Safety facts join a gated search only: a ranking asked for with an explicit floor stays one.
  if (plan.gated && reading.safety) hits = await withSafety(hits, plan, source, fetched);
  stage?.('cut', 'end');
  return hits;
}

/** The safety vocabulary read as a query, once: what a safety-fact search sends. */
const SAFETY_READING = readQuery(SAFETY_WORDS.join(' '), 0);
/**
 * Most safety facts added to one search: enough for all of a person's allergies, conditions and
 * diets (four allergies and a diet are five facts, each as relevant to a meal as the others),
 * never more than the search returns less its best hit.
 */
const SAFETY_FACTS = 6;
/**
 * Word matches read for them: the vocabulary names foods ("I don't eat pork."), so food talk
 * that states no limit ranks among them and is read past.
 */
const SAFETY_CANDIDATES = 16 * SAFETY_FACTS;

/**
 * A first-person food or health question ("What snack should I buy for the road trip?") gets the
 * asker's safety facts — memories that say an allergy, a condition or a dietary limit (found by
 * `SAFETY_WORDS`, read by `SAFETY_TEXT_RE`: the language layer's safety table) of the user or of
 * one of theirs (`safetyOf`) — whether or not it shares words with them: up to `SAFETY_FACTS`, formed
 * memories before turns, the user's own before their people's and best BM25 match first, a
 * turn and what was formed from it once (as recall folds them), reason `'safety'`, scored just
 * below the best hit (so no cut drops them), in place of the lowest hits when `topK` is full.
 */
async function withSafety(
  hits: RecallHit[],
  plan: RecallPlan,
  source: RecallSource,
  fetched: Fetched,
): Promise<RecallHit[]> {
  const found = await source.lexical(SAFETY_READING, SAFETY_CANDIDATES + plan.topK);
  const covered = new Set<string>();
  const cover = (e: MemoryEntry) => {
    covered.add(e.id);
    for (const id of sourcesOf(e)) covered.add(id);
  };
  for (const h of hits) cover(h.entry);
  const ids = found.map((h) => h.id).filter((id) => !covered.has(id));
  await fetched.load(ids);
  const rank = (e: MemoryEntry, whose: 'self' | 'relation') =>
    // A memory formed from a turn says it as a statement about someone: it goes before turns.
    2 * Number(e.kind === 'conversation') + (whose === 'self' ? 0 : 1);
  const stated = ids
    .map((id) => fetched.get(id))
    .flatMap((e) => {
      const whose = e === undefined ? undefined : safetyOf(e);
      return e !== undefined && whose !== undefined ? [{ e, rank: rank(e, whose) }] : [];
    })
    .sort((a, b) => a.rank - b.rank) // stable: best BM25 match first within a rank
    .map(({ e }) => e);
  const safety: RecallHit[] = [];
  const most = Math.min(SAFETY_FACTS, Math.max(1, plan.topK - 1));
  const score = hits.length > 0 ? hits[0]!.score * 0.99 : 1;
  for (const entry of stated) {
    if (safety.length >= most) break;
    const sources = sourcesOf(entry);
    if ((sources.length > 0 ? sources : [entry.id]).every((id) => covered.has(id))) continue;
    safety.push({ entry, score, reason: 'safety' });
    cover(entry);
  }
  if (safety.length === 0) return hits;
  const room = Math.max(0, plan.topK - safety.length);
  return [...hits.slice(0, 1), ...safety, ...hits.slice(1, room)].slice(0, plan.topK);
}

/**
 * Whose safety fact `entry` is, for a first-person question: `'self'` (the user's) or
 * `'relation'` (one of theirs), `undefined` when it is none or someone else's. Read from who it
 * is about, not from its words alone: a formed memory by its `about` (`aboutUser`); a turn by
 * what the user said in it — its speaker the user (no `"Name: "`, or a user label), a clause
 * stating it of themselves or their people (`SAFETY_OWN_STATEMENT_RE`), never the other
 * speaker's or the assistant's words ("You have asthma.") nor what it says of someone named; an
 * entry with neither (an app's own fact, "Peanut allergy.") by its text, unless it states it of
 * someone else.
 */
function safetyOf(entry: MemoryEntry): 'self' | 'relation' | undefined {
  if (isInteraction(entry.content)) {
    const { speaker, body } = splitSpeaker(entry.content.input);
    if (speaker !== undefined && !USER_LABEL_RE.test(speaker)) return undefined;
    return sentences(body).some((s) => SAFETY_OWN_STATEMENT_RE.test(s)) ? 'self' : undefined;
  }
  const text = entryText(entry);
  if (!SAFETY_TEXT_RE.test(text)) return undefined;
  if (formedFields(entry).about !== undefined) return aboutUser(entry);
  const saidOfOther = (s: string) =>
    (SAFETY_STATEMENT_RE.test(s) && !SAFETY_OWN_STATEMENT_RE.test(s)) || LISTENER_SUBJECT_RE.test(s);
  return sentences(text).some((s) => SAFETY_TEXT_RE.test(s) && saidOfOther(s)) ? undefined : 'self';
}

/** Candidates: the lexical and the vector list, ranked concurrently. */
async function candidates(
  source: RecallSource,
  reading: QueryReading,
  plan: RecallPlan,
): Promise<{ lexical: LexicalHit[]; vector: Scored[] }> {
  const useLexical = plan.mode !== 'vector' && (plan.mode === 'lexical' || plan.weights.lexical > 0);
  const useVector = plan.mode !== 'lexical' && (plan.mode === 'vector' || plan.weights.vector > 0);
  const [lexical, vector] = await Promise.all([
    useLexical ? source.lexical(reading, plan.candidates) : [],
    useVector ? source.vector(reading, plan.candidates) : [],
  ]);
  return { lexical, vector };
}

/**
 * The vector list with the lexical candidates it did not reach, at their own cosine (hybrid mode,
 * `completeScores`; best first). Fused with none, a memory holding the query's words ranks as if
 * unrelated in meaning, and where one word is shared by many memories the flat lexical list
 * decides alone. A non-positive cosine stays out, as in the vector list.
 */
async function completed(
  source: RecallSource,
  reading: QueryReading,
  plan: RecallPlan,
  lexical: readonly LexicalHit[],
  vector: Scored[],
): Promise<Scored[]> {
  if (!plan.completeScores || plan.mode !== 'hybrid' || lexical.length === 0 || vector.length === 0) return vector;
  const reached = new Set(vector.map((h) => h.id));
  const missing = lexical.map((h) => h.id).filter((id) => !reached.has(id));
  if (missing.length === 0) return vector;
  const out = [...vector];
  for (const [id, score] of await source.similarities(reading, missing)) if (score > 0) out.push({ id, score });
  return out.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Fuse: one 0..1 score per candidate (positive scores only), best first. */
function fuse(lexical: readonly LexicalHit[], vector: readonly Scored[], plan: RecallPlan): FusedItem[] {
  const weights =
    plan.mode === 'hybrid' ? [plan.weights.lexical, plan.weights.vector] : plan.mode === 'lexical' ? [1, 0] : [0, 1];
  if (plan.fusion === 'score')
    return scoreFusion([lexical, vector], { weights, exponent: plan.exponent }).filter((f) => f.score > 0);
  const fused = reciprocalRankFusion([lexical, vector], { k: plan.rrfK, weights }).filter((f) => f.score > 0);
  // Normalise by what the lists that found anything could give, so a tenant without vectors
  // yet (or a query without lexical matches) still scores its best hit near 1.
  const max = ((lexical.length > 0 ? weights[0]! : 0) + (vector.length > 0 ? weights[1]! : 0)) / (plan.rrfK + 1);
  return fused.map((f) => ({ ...f, score: Math.min(1, f.score / max) }));
}

/** Entries read so far during one search (each read once). */
class Fetched {
  readonly #source: RecallSource;
  readonly #entries: Map<string, MemoryEntry>;
  readonly #tried = new Set<string>();

  constructor(source: RecallSource) {
    this.#source = source;
    this.#entries = new Map(source.allowed ?? []);
    if (source.allowed) for (const id of source.allowed.keys()) this.#tried.add(id);
  }

  /** Read the entries of `ids` not read yet. */
  async load(ids: readonly string[]): Promise<void> {
    const missing = ids.filter((id) => !this.#tried.has(id));
    if (missing.length === 0) return;
    for (const id of missing) this.#tried.add(id);
    for (const [id, e] of await this.#source.fetch(missing)) this.#entries.set(id, e);
  }

  get(id: string): MemoryEntry | undefined {
    return this.#entries.get(id);
  }
}

/**
 * Boosts: memories created within a span the query names, then memories naming whom it names,
 * then, among those, memories about them (what they said, what was formed about them).
 */
async function boost(
  scored: FusedItem[],
  reading: QueryReading,
  resolved: readonly string[],
  plan: RecallPlan,
  fetched: Fetched,
): Promise<FusedItem[]> {
  const ranges = plan.timeBoost > 0 ? reading.timeRanges : [];
  if (ranges.length > 0) {
    await fetched.load(scored.map((f) => f.id));
    scored = favour(scored, createdIn(ranges, fetched), plan.timeBoost);
  }
  if (resolved.length > 0 && (plan.entityBoost > 0 || plan.subjectBoost > 0)) {
    // Within the first 2 × topK + 10 of the fused list: a memory further down would need more
    // than the boost to reach topK often enough to matter, and reading every candidate of both
    // lists would cost more than the ranking itself.
    scored = scored.slice(0, Math.min(plan.candidates, 2 * plan.topK + 10));
    await fetched.load(scored.map((f) => f.id));
    if (plan.entityBoost > 0) scored = favour(scored, namesAny(scored, resolved, fetched), plan.entityBoost);
    if (plan.subjectBoost > 0) scored = favour(scored, aboutAny(scored, resolved, fetched), plan.subjectBoost);
  }
  return scored;
}

/**
 * The relevance gate (absolute, model-calibrated): nothing unless one of the best candidates is
 * strong; then the related candidates, best first, until `topK` plus a margin have passed.
 */
async function gate(
  scored: FusedItem[],
  reading: QueryReading,
  names: readonly string[],
  plan: RecallPlan,
  source: RecallSource,
  fetched: Fetched,
  vector: readonly Scored[],
  reasons: Map<string, RecallReason>,
  similarities: Map<string, number>,
): Promise<FusedItem[]> {
  const floors = plan.floors;
  // Evidence is read lazily, best first: the strong window, then hits until topK (plus the
  // margin fetched below) have passed.
  const wanted = plan.topK + Math.min(10, plan.topK);
  const head = scored.slice(0, Math.max(STRONG_WINDOW, wanted)).map((f) => f.id);
  const sims = new Map(vector.map((h) => [h.id, h.score]));
  const simsFor = async (ids: readonly string[]) => {
    const missing = ids.filter((id) => !sims.has(id));
    if (missing.length > 0) for (const [k, v] of await source.similarities(reading, missing)) sims.set(k, v);
  };
  await simsFor(head);
  await fetched.load(head);
  const cover = readingCoverage(reading);
  const unwritten = unwrittenTerms(reading, names);
  // A memory about "Muhammad" answers a question about "Mohammed" when the store reads them as one.
  const known = new Set(names);
  const slots = questionSlots(reading.slots, (about) => known.has(foldName(personName(about))));
  const evidenceOf = async (id: string): Promise<RelevanceEvidence> => {
    await simsFor([id]);
    await fetched.load([id]);
    const entry = fetched.get(id);
    if (!entry) return { similarity: sims.get(id), coverage: 0, words: 0 };
    const slotCoverage = slots(entry);
    return {
      similarity: sims.get(id),
      ...cover(entryText(entry), unwritten?.(entry)),
      ...(slotCoverage !== undefined ? { slotCoverage } : {}),
    };
  };
  // Nothing when no candidate shows that the store answers the query at all.
  let answered = false;
  const size = await source.size();
  const strongWindow = scored.slice(0, STRONG_WINDOW);
  const named = names.length > 0 ? namesAny(strongWindow, names, fetched) : undefined;
  const aboutSomeone = reading.personal || strongWindow.some((f) => named?.(f.id) === true);
  for (const f of strongWindow) if ((answered = isStrong(floors, await evidenceOf(f.id), size, aboutSomeone))) break;
  if (!answered) return [];
  const passed: FusedItem[] = [];
  for (const f of scored) {
    if (passed.length >= wanted) break;
    const e = await evidenceOf(f.id);
    if (e.similarity !== undefined) similarities.set(f.id, e.similarity);
    const why = relatedReason(floors, e);
    if (!why) continue;
    reasons.set(f.id, why);
    passed.push(f);
  }
  return passed;
}

/**
 * The query words a memory answers without writing them as the query does, for the gate's
 * coverage: a name the query spells differently from the store ("Mohammed" ↔ a memory of
 * "Muhammad", as `names` resolved it). `undefined` when the query names no one the store spells
 * differently.
 */
function unwrittenTerms(
  reading: QueryReading,
  resolved: readonly string[],
): ((entry: MemoryEntry) => (term: string) => boolean) | undefined {
  const spellings = new Map<string, string[]>();
  for (const n of reading.names) {
    const variants = resolved.filter((r) => r !== n && sameName(n, r));
    if (variants.length === 0) continue;
    for (const t of analyze(n)) if (reading.terms.has(t)) spellings.set(t, variants);
  }
  if (spellings.size === 0) return undefined;
  return (entry) => {
    let words: Set<string> | undefined;
    return (term) => {
      const variants = spellings.get(term);
      if (!variants) return false;
      const w = (words ??= new Set(tokenize(entryText(entry))));
      return variants.some((v) => w.has(v));
    };
  };
}

/** The cut: the adaptive threshold, `topK`, and the hits with their evidence. */
async function cut(
  scored: FusedItem[],
  plan: RecallPlan,
  source: RecallSource,
  fetched: Fetched,
  lexical: readonly LexicalHit[],
  vector: readonly Scored[],
  reasons: Map<string, RecallReason>,
  similarities: ReadonlyMap<string, number>,
): Promise<RecallHit[]> {
  const threshold = Math.max(plan.minScore ?? 0, scored[0]!.score * plan.ratio);
  let kept = scored.filter((f) => f.score >= threshold);
  if (kept.length === 0) {
    kept = [scored[0]!];
    reasons.set(scored[0]!.id, 'fallback');
  }
  // Fetch a little more than topK: rows of entries deleted behind our back are skipped.
  const wanted = kept.slice(0, plan.topK + Math.min(10, plan.topK));
  await fetched.load(wanted.map((f) => f.id));
  const lexScore = new Map(lexical.map((h) => [h.id, h.score]));
  const vecScore = new Map(vector.map((h) => [h.id, h.score]));
  const hits: RecallHit[] = [];
  for (const f of wanted) {
    const entry = fetched.get(f.id);
    if (!entry) {
      // Deleted in storage without `remove()`: drop the row so it stops taking result slots.
      await source.dropStale(f.id);
      continue;
    }
    const hit: RecallHit = { entry, score: f.score, reason: reasons.get(f.id) ?? 'ranked' };
    const similarity = similarities.get(f.id);
    if (similarity !== undefined) hit.similarity = similarity;
    if (f.ranks[0] !== undefined) {
      hit.lexicalRank = f.ranks[0];
      hit.lexicalScore = lexScore.get(f.id)!;
    }
    if (f.ranks[1] !== undefined) {
      hit.vectorRank = f.ranks[1];
      hit.vectorScore = vecScore.get(f.id)!;
    }
    hits.push(hit);
    if (hits.length === plan.topK) break;
  }
  return hits;
}

/**
 * Favour the items `passes` accepts: when at least one does, divide the score of the others by
 * `1 + boost` and re-sort (score descending, ties by id), so scores stay in 0..1 (the best possible,
 * first everywhere and accepted, is 1); when none does, the ranking stays as it is.
 */
function favour<T extends { id: string; score: number }>(
  items: readonly T[],
  passes: (id: string) => boolean,
  boost: number,
): T[] {
  if (!items.some((f) => passes(f.id))) return [...items];
  return items
    .map((f) => ({ ...f, score: passes(f.id) ? f.score : f.score / (1 + boost) }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * Whether an entry was created inside one of `ranges`, or is a formed memory of something that
 * happened inside one (`metadata.at`: "I took a road trip last month", said in August, answers
 * "… in July").
 */
function createdIn(ranges: readonly TimeRange[], entries: Fetched): (id: string) => boolean {
  const inside = (t: number) => ranges.some((r) => t >= r.from && t <= r.to);
  return (id) => {
    const e = entries.get(id);
    if (!e) return false;
    const at = formedFields(e).at;
    return inside(e.createdAt) || (at !== undefined && inside(at));
  };
}

/**
 * Which of `items` have an entry about one of `names` (folded): a formed memory whose `about` is
 * that person, or a turn they spoke (`"Ana: …"`). A turn that only names them — the other speaker
 * addressing them, "Cool, Melanie!" — is not about them.
 */
function aboutAny(
  items: readonly { id: string }[],
  names: readonly string[],
  entries: Fetched,
): (id: string) => boolean {
  const wanted = new Set(names);
  const about = new Set<string>();
  for (const f of items) {
    const e = entries.get(f.id);
    if (!e) continue;
    const subject = formedFields(e).about ?? splitSpeaker(entryText(e)).speaker;
    if (subject !== undefined && wanted.has(foldName(personName(subject)))) about.add(f.id);
  }
  return (id) => about.has(id);
}

/** Which of `items` have an entry that names one of `names` (as a word, folded like the names). */
function namesAny(
  items: readonly { id: string }[],
  names: readonly string[],
  entries: Fetched,
): (id: string) => boolean {
  const ascii = names.every((n) => /^[a-z0-9]+$/.test(n));
  const named = new Set<string>();
  for (const f of items) {
    const e = entries.get(f.id);
    if (!e) continue;
    const text = entryText(e);
    // Tokenising is the exact test; a substring check first skips most texts cheaply.
    if (ascii && !names.some((n) => text.toLowerCase().includes(n))) continue;
    const words = new Set(tokenize(text));
    if (names.some((n) => words.has(n))) named.add(f.id);
  }
  return (id) => named.has(id);
}
