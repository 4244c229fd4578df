/**
 * The original server's relevance cut for search by meaning, on its own similarity scale.
 *
 * The original (Python `long_term_memory_mcp`, sentence-transformers `all-MiniLM-L6-v2`) keeps
 * the vector hits whose cosine similarity reaches `max(0.15, clamp(top − 0.08, 0.12, 0.35))`,
 * where `top` is the best hit's; when none does, it keeps the best hit alone, unless even that one
 * is below 0.08 (total garbage). Those constants are MiniLM cosines. Other models spread their
 * cosines differently (the bundled Universal Sentence Encoder Lite rates unrelated sentences
 * higher), so a model's cosine is first mapped onto MiniLM's scale ({@link toOriginalSimilarity})
 * and the original's constants apply unchanged. `test/bench/mcp-similarity-calibration.ts`
 * measures the mapping; the README's *Similarity scale* section has the figures.
 */

/** The original's constants (MiniLM cosine). */
export const ORIGINAL_THRESHOLD = Object.freeze({
  /** `min_relevance`: no threshold below this. */
  minRelevance: 0.15,
  /** The adaptive threshold follows the top hit at this distance ... */
  margin: 0.08,
  /** ... clamped to [floor, ceiling]. */
  floor: 0.12,
  ceiling: 0.35,
  /** The top-1 fallback only when the best hit reaches this. */
  fallbackGuard: 0.08,
});

/**
 * Published MiniLM-L6-v2 figures on a controlled set of sentence pairs: the largest cosine of an
 * unrelated pair and the smallest of a true paraphrase (the two calibration anchors).
 */
export const MINILM_ANCHORS = Object.freeze({ unrelatedMax: 0.075, paraphraseMin: 0.564 });

/** A linear map `original = offset + slope × cosine` from one model's cosine to MiniLM's scale. */
export interface SimilarityScale {
  offset: number;
  slope: number;
}

/**
 * Measured mappings per model (see `test/bench/mcp-similarity-calibration.ts`): the bundled
 * model's largest unrelated-pair cosine (0.1618) lands on MiniLM's 0.075 and its smallest
 * paraphrase cosine (0.6399) on MiniLM's 0.564, so its scale is MiniLM's shifted up by about
 * 0.09. Models not listed (including the hashing embedder, whose unrelated texts score about 0,
 * like MiniLM's) are used as they are.
 */
const SCALES: readonly { match: RegExp; scale: SimilarityScale }[] = [
  { match: /use-lite/, scale: { offset: -0.0905, slope: 1.0228 } },
];

/** The mapping for a model id (identity when the model was not calibrated). */
export function scaleFor(modelId: string | undefined): SimilarityScale {
  return SCALES.find((s) => modelId !== undefined && s.match.test(modelId))?.scale ?? { offset: 0, slope: 1 };
}

/** A model's cosine on the original's (MiniLM) scale, within [−1, 1]. */
export function toOriginalSimilarity(cosine: number, scale: SimilarityScale): number {
  return Math.max(-1, Math.min(1, scale.offset + scale.slope * cosine));
}

/** What {@link originalThreshold} decided. */
export interface ThresholdDecision {
  /** The similarity a hit needs. */
  threshold: number;
  /** Indices (into the similarities given) of the hits kept. */
  kept: number[];
  /** True when nothing passed and the best hit is kept alone as the top-1 fallback. */
  fallback: boolean;
}

/**
 * The original's cut over similarities on its scale (in any order): the hits at or above
 * `max(0.15, clamp(top − 0.08, 0.12, 0.35))`; when none, the best alone if it reaches 0.08.
 */
export function originalThreshold(similarities: readonly number[]): ThresholdDecision {
  const t = ORIGINAL_THRESHOLD;
  if (similarities.length === 0) return { threshold: t.minRelevance, kept: [], fallback: false };
  let best = 0;
  for (let i = 1; i < similarities.length; i++) if (similarities[i]! > similarities[best]!) best = i;
  const top = similarities[best]!;
  const threshold = Math.max(t.minRelevance, Math.min(t.ceiling, Math.max(t.floor, top - t.margin)));
  const kept = similarities.flatMap((s, i) => (s >= threshold ? [i] : []));
  if (kept.length > 0) return { threshold, kept, fallback: false };
  return top >= t.fallbackGuard
    ? { threshold, kept: [best], fallback: true }
    : { threshold, kept: [], fallback: false };
}

/** One candidate of a search, as {@link originalSearchCut} reads it. */
export interface SearchCandidate {
  /** Its similarity to the query on the original's scale; undefined when it has no vector. */
  similarity: number | undefined;
  /** Whether the query's words matched it (BM25). */
  keyword: boolean;
}

/** One result of {@link originalSearchCut}: the candidate's index, and whether it is the top-1 fallback. */
export interface SearchCut {
  index: number;
  fallback: boolean;
}

/**
 * `search_memories`' rule by meaning, in one place: the candidates (in any order) whose
 * similarity passes {@link originalThreshold}; when none does, the best one alone as the
 * fallback if it reaches the guard, else nothing. With `keepKeyword` (search type `semantic`),
 * keyword matches are kept too — but only beside hits that passed by meaning: whether the store
 * answers the query at all is decided by meaning alone, as in the original, so a question that
 * shares one word with a memory does not replace the fallback or turn "nothing" into a hit.
 * Results are nearest first (similarity descending; without a vector last; ties keep the
 * candidates' order), at most `limit`.
 */
export function originalSearchCut(
  candidates: readonly SearchCandidate[],
  options: { keepKeyword: boolean; limit: number },
): SearchCut[] {
  const sims = candidates.map((c) => c.similarity ?? Number.NEGATIVE_INFINITY);
  const decision = originalThreshold(sims);
  if (decision.fallback) return [{ index: decision.kept[0]!, fallback: true }];
  if (decision.kept.length === 0) return [];
  const kept = new Set(decision.kept);
  if (options.keepKeyword) candidates.forEach((c, i) => c.keyword && kept.add(i));
  return [...kept]
    .sort((a, b) => (sims[a] === sims[b] ? a - b : sims[b]! > sims[a]! ? 1 : -1))
    .slice(0, options.limit)
    .map((index) => ({ index, fallback: false }));
}
