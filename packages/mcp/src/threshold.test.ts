import { describe, expect, it } from 'vitest';
import { originalSearchCut, originalThreshold, scaleFor, toOriginalSimilarity } from './threshold.js';

describe("the original server's threshold", () => {
  it('is max(0.15, clamp(top - 0.08, 0.12, 0.35)), on any order of hits', () => {
    expect(originalThreshold([0.9, 0.5, 0.36, 0.34]).threshold).toBe(0.35); // clamped to 0.35
    expect(originalThreshold([0.9, 0.5, 0.36, 0.34]).kept).toEqual([0, 1, 2]);
    const mid = originalThreshold([0.2, 0.3, 0.25]); // top 0.3: 0.22
    expect(mid.threshold).toBeCloseTo(0.22, 10);
    expect(mid.kept).toEqual([1, 2]);
    expect(originalThreshold([0.2, 0.21]).threshold).toBe(0.15); // 0.13 -> at least min_relevance 0.15
    expect(originalThreshold([]).kept).toEqual([]);
  });

  it('falls back to the single best hit only when it reaches the 0.08 guard', () => {
    expect(originalThreshold([0.05, 0.1, 0.09])).toEqual({ threshold: 0.15, kept: [1], fallback: true });
    expect(originalThreshold([0.05, 0.07])).toEqual({ threshold: 0.15, kept: [], fallback: false });
  });

  it("maps the bundled model's cosine onto the original's scale; other models as they are", () => {
    const use = scaleFor('transformers:use-lite:q8:mean');
    expect(toOriginalSimilarity(0.1618, use)).toBeCloseTo(0.075, 3); // unrelated-pair anchor
    expect(toOriginalSimilarity(0.6399, use)).toBeCloseTo(0.564, 3); // paraphrase anchor
    expect(toOriginalSimilarity(1, use)).toBeCloseTo(0.9323, 10);
    expect(toOriginalSimilarity(0.3, scaleFor('hash-256'))).toBe(0.3);
    expect(toOriginalSimilarity(2, scaleFor(undefined))).toBe(1);
  });
});

describe('search_memories by meaning (originalSearchCut)', () => {
  const c = (similarity: number | undefined, keyword = false) => ({ similarity, keyword });

  it('keeps what passes the threshold, nearest first, at most limit', () => {
    const cut = originalSearchCut([c(0.2), c(0.5), c(0.3), c(0.45), c(0.1)], { keepKeyword: false, limit: 10 });
    expect(cut).toEqual([
      { index: 1, fallback: false },
      { index: 3, fallback: false },
    ]); // top 0.5: threshold 0.42
    expect(originalSearchCut([c(0.2), c(0.5), c(0.45)], { keepKeyword: false, limit: 1 })).toEqual([
      { index: 1, fallback: false },
    ]);
  });

  it('adds keyword matches beside hits that passed by meaning, never instead of them', () => {
    const cands = [c(0.05, true), c(0.3), c(0.1, true), c(undefined, true)];
    expect(originalSearchCut(cands, { keepKeyword: true, limit: 10 }).map((x) => x.index)).toEqual([1, 2, 0, 3]);
    expect(originalSearchCut(cands, { keepKeyword: false, limit: 10 }).map((x) => x.index)).toEqual([1]);
    // Nothing passes by meaning: the top-1 fallback alone, whatever shares a word with the query.
    expect(originalSearchCut([c(0.05, true), c(0.12), c(0.1, true)], { keepKeyword: true, limit: 10 })).toEqual([
      { index: 1, fallback: true },
    ]);
    // Below the guard: nothing, keyword matches included.
    expect(originalSearchCut([c(0.05, true), c(0.07)], { keepKeyword: true, limit: 10 })).toEqual([]);
    expect(originalSearchCut([], { keepKeyword: true, limit: 10 })).toEqual([]);
  });
});
