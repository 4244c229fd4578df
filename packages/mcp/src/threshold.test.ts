import { describe, expect, it } from 'vitest';
import { originalThreshold, scaleFor, toOriginalSimilarity } from './threshold.js';

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
