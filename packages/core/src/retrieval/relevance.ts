import type { QueryReading } from '../language/query-reading.js';
import { invalid } from '../model/errors.js';
import { analyze } from './text.js';

/**
 * Why a recalled memory passed ({@link RecallHit.reason}):
 * - `'similarity'`: its cosine similarity to the query reached the relatedness floor;
 * - `'keywords'`: it contains enough of the query's meaningful words;
 * - `'slot'`: a formed memory about the subject the question names that answers what it asks
 *   for ("What are my hobbies?" ↔ a preference of the user's; see `questionSlots`);
 * - `'ranked'`: the relevance gate was off (an explicit `minScore` was given); it passed the
 *   fused-score floor and the adaptive ratio only;
 * - `'fallback'`: nothing passed the fused-score cut and it is the best hit that passed the gate;
 * - `'safety'`: an allergy, condition or dietary limit the store holds, added to a first-person
 *   question about food or health (`QueryReading.safety`) whatever its rank.
 */
export type RecallReason = 'similarity' | 'keywords' | 'slot' | 'ranked' | 'fallback' | 'safety';

/**
 * The relevance gate of one embedding model. Two tests, both absolute (cosine similarity of the
 * memory's vector to the query's, and coverage: the share of the query's meaningful words, after
 * stopwords and stemming, that the memory's own text contains):
 * - the query is *answered* by the store only when one of its best candidates is strong:
 *   similarity >= the strong floor, or at least two words and more than a third of them
 *   (`strongCoverage`) with similarity >= `strongKeywords`, or half of them or more with
 *   similarity >= `halfKeywords`. The strong floor grows with the store: the best of many
 *   unrelated memories is more similar than the best of a few, so it is `strongSmall` up to 32
 *   memories, `strong` from 512 on, and in between interpolated on the logarithm of the count;
 * - then each hit is kept when it is *related*: similarity >= `related` or coverage >=
 *   `relatedCoverage`.
 * An unrelated question finds no strong candidate and recalls nothing; a related one keeps its
 * whole relevant ranking, not only the hits that would pass the strong test on their own.
 *
 * A third signal, slot coverage (`slotCoverage`), counts for formed
 * memories only: a question that names its subject ("my", "my sister", "Ana's") and asks for a
 * kind or slot of theirs ("hobbies" → preferences, "how old" → a birth date, "job" → works
 * at/as) is answered by such a memory whatever the model's similarity. The candidate is strong
 * when that covers every meaningful word of the question, or half of them with similarity >=
 * `strongKeywords`; and related when it covers half of them or more. Unrelated questions name
 * no subject of the store, so the off-topic rejection does not depend on it.
 */
export interface RelevanceFloors {
  strong: number;
  strongSmall: number;
  strongCoverage: number;
  strongWords: number;
  strongKeywords: number;
  halfKeywords: number;
  related: number;
  relatedCoverage: number;
}

/**
 * Floors calibrated per model id (the id an `Embedder` reports). Calibration, for the bundled
 * use-lite: the first five LoCoMo conversations (760 questions, the development half; 369–663
 * turns each) for the relevant side, and the 120 general-knowledge questions of
 * `test/bench/retrieval/off-topic.ts` against the same five stores and a 20-turn personal store
 * for the unrelated side (the other five conversations were only measured). See the README's
 * retrieval section for what the gate costs and gains on both halves.
 */
export const CALIBRATED_FLOORS: Readonly<Record<string, Readonly<RelevanceFloors>>> = Object.freeze({
  // The bundled Universal Sentence Encoder Lite (512-d, int8), as @zerda/embeddings names it.
  'transformers:use-lite:q8:mean': Object.freeze(derivedFloors(0.5)),
});

/** The floors derived from one strong floor (the proportions calibrated for use-lite). */
function derivedFloors(strong: number): RelevanceFloors {
  return {
    strong,
    strongSmall: 0.7 * strong,
    strongCoverage: 0.34,
    strongWords: 2,
    strongKeywords: 0.4 * strong,
    halfKeywords: 0.7 * strong,
    related: 0.6 * strong,
    relatedCoverage: 0.2,
  };
}

/**
 * The floors for `modelId`: derived from `minSimilarity` when given (it is the strong floor of a
 * large store; the others keep use-lite's proportions: 0.7 of it for small stores, 0.4 and 0.7 of
 * it with shared words, 0.6 of it per hit), else the calibrated ones, else none (`undefined`:
 * every hit with a positive signal passes, as before the gate existed; set `minSimilarity` for a
 * model that is not listed).
 */
export function relevanceFloors(modelId: string, minSimilarity?: number | null): RelevanceFloors | undefined {
  if (minSimilarity !== undefined && minSimilarity !== null) {
    if (typeof minSimilarity !== 'number' || !(minSimilarity >= 0 && minSimilarity <= 1))
      invalid('minSimilarity', 'a number in [0, 1] or null', minSimilarity);
    return derivedFloors(minSimilarity);
  }
  return CALIBRATED_FLOORS[modelId];
}

/** The strong similarity floor for a store of `size` memories (see {@link RelevanceFloors}). */
export function strongFloor(floors: RelevanceFloors, size: number): number {
  const t = Math.min(1, Math.max(0, (Math.log2(Math.max(1, size)) - 5) / 4));
  return floors.strongSmall + t * (floors.strong - floors.strongSmall);
}

/** The evidence the gate reads for one candidate. */
export interface RelevanceEvidence {
  /** Cosine similarity to the query; undefined when the memory has no vector. */
  similarity: number | undefined;
  /** Share (0..1) of the query's meaningful words in the memory's own text. */
  coverage: number;
  /** How many of the query's meaningful words the memory's own text contains. */
  words: number;
  /**
   * Formed memories about the subject the question names that answer what it asks for: the
   * share (0..1) of the question's meaningful words covered, by the memory's text or by the
   * slot (`questionSlots`). Absent otherwise.
   */
  slotCoverage?: number;
}

/**
 * Whether a candidate is strong enough to show that a store of `size` memories answers the query
 * at all. `aboutSomeone` false: the query refers to no one — no person ("I", "you", "he") nor
 * anyone the store's best candidates name ("What is the capital of Peru?") — so it asks about the
 * world, and similarity alone must reach the large-store floor (`strong`) whatever the store's
 * size: the small-store discount is for questions about the people a store holds.
 */
export function isStrong(
  floors: RelevanceFloors | undefined,
  e: RelevanceEvidence,
  size: number,
  aboutSomeone = true,
): boolean {
  if (!floors) return true;
  const keywords = e.coverage >= floors.strongCoverage && e.words >= floors.strongWords;
  const slot = e.slotCoverage ?? 0;
  if (slot >= 1) return true;
  if (e.similarity === undefined) return keywords || e.coverage >= 0.5 || slot >= 0.5;
  return (
    e.similarity >= (aboutSomeone ? strongFloor(floors, size) : floors.strong) ||
    (keywords && e.similarity >= floors.strongKeywords) ||
    (e.coverage >= 0.5 && e.similarity >= floors.halfKeywords) ||
    (slot >= 0.5 && e.similarity >= floors.strongKeywords)
  );
}

/**
 * Why a candidate is related to the query, or undefined when it is not. Without floors, any
 * positive similarity or any shared word is enough.
 */
export function relatedReason(
  floors: RelevanceFloors | undefined,
  e: RelevanceEvidence,
): 'similarity' | 'keywords' | 'slot' | undefined {
  const related = floors ? floors.related : Number.MIN_VALUE;
  const coverage = floors ? floors.relatedCoverage : Number.MIN_VALUE;
  if (e.similarity !== undefined && e.similarity >= related) return 'similarity';
  if (e.coverage >= coverage) return 'keywords';
  if ((e.slotCoverage ?? 0) >= 0.5) return 'slot';
  return undefined;
}

/**
 * A coverage function for `query`: how many of its meaningful words (stopwords dropped, stemmed,
 * as the lexical index analyses text) a text contains, and what share of them. 0 for a query
 * without such words.
 */
export function queryCoverage(query: string): (text: string) => { coverage: number; words: number } {
  return coverageOf(new Set(analyze(query)));
}

/** {@link queryCoverage} over a query already read (`readQuery`): its analysed terms. */
export function readingCoverage(
  reading: QueryReading,
): (text: string, answers?: (term: string) => boolean) => { coverage: number; words: number } {
  return coverageOf(reading.terms, reading.expansions);
}

/**
 * A term counts as covered when the text has it or, for a term with an expansion (`TERM_GROUPS`:
 * "sibling" ↔ sister, brother), one of the words that answer it (not another form of an irregular
 * verb: see `Expansion.covering`), or when `answers` (what the
 * memory says in other letters: the store's spelling of a name the query spells differently)
 * accepts it.
 */
function coverageOf(
  terms: ReadonlySet<string>,
  expansions?: ReadonlyMap<string, { covering: ReadonlySet<string> }>,
): (text: string, answers?: (term: string) => boolean) => { coverage: number; words: number } {
  if (terms.size === 0) return () => ({ coverage: 0, words: 0 });
  return (text, answers) => {
    const words = new Set(analyze(text));
    let n = 0;
    for (const t of terms) {
      if (words.has(t) || answers?.(t) === true) n++;
      else {
        const e = expansions?.get(t);
        if (e && [...e.covering].some((x) => words.has(x))) n++;
      }
    }
    return { coverage: n / terms.size, words: n };
  };
}
