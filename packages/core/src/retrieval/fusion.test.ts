import { describe, expect, it } from 'vitest';
import { adaptiveThreshold, maxRrfScore, minMaxNormalize, reciprocalRankFusion, scoreFusion } from './fusion.js';
import { DEFAULT_FUSION_WEIGHTS } from '../tiers/semantic-memory.js';
import { thrownCode } from '../testing/rejections.js';

const L = (...ids: string[]) => ids.map((id, i) => ({ id, score: 100 - i }));
/** A ranked list from `{ id: score }`, best first as written. */
const S = (scores: Record<string, number>) => Object.entries(scores).map(([id, score]) => ({ id, score }));

describe('reciprocalRankFusion', () => {
  it('sums 1/(k+rank) across lists and records ranks', () => {
    const fused = reciprocalRankFusion([L('a', 'b', 'c'), L('b', 'd')], { k: 10 });
    const byId = new Map(fused.map((f) => [f.id, f]));
    expect(byId.get('b')!.score).toBeCloseTo(1 / 12 + 1 / 11, 12);
    expect(byId.get('a')!.score).toBeCloseTo(1 / 11, 12);
    expect(byId.get('d')!.score).toBeCloseTo(1 / 12, 12);
    expect(byId.get('b')!.ranks).toEqual([2, 1]);
    expect(byId.get('c')!.ranks).toEqual([3, undefined]);
    expect(fused.map((f) => f.id)).toEqual(['b', 'a', 'd', 'c']);
  });
  it('weights decide which list wins a disagreement', () => {
    const lists = [L('lex', 'x'), L('vec', 'y')];
    expect(reciprocalRankFusion(lists, { weights: [1, 0.5] })[0]!.id).toBe('lex');
    expect(reciprocalRankFusion(lists, { weights: [0.5, 1] })[0]!.id).toBe('vec');
    expect(reciprocalRankFusion(lists, { weights: [1, 0] }).find((f) => f.id === 'vec')!.score).toBe(0);
  });
  it('counts a repeated id once per list, at its best rank; ties break by id', () => {
    const fused = reciprocalRankFusion([L('a', 'a', 'b'), L('b', 'a')], { k: 0 });
    expect(fused.find((f) => f.id === 'a')!.score).toBeCloseTo(1 + 1 / 2, 12);
    expect(reciprocalRankFusion([L('z'), L('y')]).map((f) => f.id)).toEqual(['y', 'z']);
  });
  it('normalises against the best attainable score', () => {
    const weights = [1, 0.4];
    const max = maxRrfScore(weights, 60);
    const top = reciprocalRankFusion([L('a'), L('a')], { weights })[0]!;
    expect(top.score / max).toBeCloseTo(1, 12);
  });
  it('rejects bad options', () => {
    for (const f of [
      () => reciprocalRankFusion([L('a')], { k: -1 }),
      () => reciprocalRankFusion([L('a')], { weights: [1, 1] }),
      () => reciprocalRankFusion([L('a')], { weights: [-1] }),
    ]) {
      expect(thrownCode(f)).toBe('VALIDATION');
    }
  });
});

describe('scoreFusion', () => {
  it('averages max-normalised scores by weight over the lists that found anything', () => {
    const lex = S({ a: 8, b: 5 });
    const vec = S({ b: 0.5, c: 0.25 });
    const fused = scoreFusion([lex, vec], { weights: [1, 0.5] });
    const byId = new Map(fused.map((f) => [f.id, f]));
    expect(byId.get('a')!.score).toBeCloseTo(1 / 1.5, 12);
    expect(byId.get('b')!.score).toBeCloseTo((5 / 8 + 0.5 * 1) / 1.5, 12);
    expect(byId.get('c')!.score).toBeCloseTo((0.5 * 0.5) / 1.5, 12);
    expect(byId.get('b')!.ranks).toEqual([2, 1]);
    expect(fused.map((f) => f.id)).toEqual(['b', 'a', 'c']);
    // An empty list does not dilute the others: the best hit of the only list scores 1.
    expect(scoreFusion([lex, []], { weights: [1, 0.5] })[0]!.score).toBe(1);
  });
  it('raises each normalised score to `exponent`: the top of one list then outranks the middle of both', () => {
    const lex = S({ top: 10, middle: 6 });
    const vec = S({ other: 1, middle: 0.6 });
    // The plain mean ranks the middle of both first: (0.6 + 0.6) / 2 > 1 / 2.
    expect(scoreFusion([lex, vec]).map((f) => f.id)).toEqual(['middle', 'other', 'top']);
    const squared = scoreFusion([lex, vec], { exponent: 2 });
    const byId = new Map(squared.map((f) => [f.id, f.score]));
    expect(byId.get('middle')).toBeCloseTo((0.36 + 0.36) / 2, 12);
    expect(byId.get('top')).toBe(0.5);
    expect(squared.map((f) => f.id)).toEqual(['other', 'top', 'middle']);
    for (const exponent of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '2' as never])
      expect(thrownCode(() => scoreFusion([lex, vec], { exponent }))).toBe('VALIDATION');
  });
  it('keeps score gaps that RRF flattens', () => {
    const lex = S({ a: 10, b: 1 });
    const vec = S({ b: 0.31, a: 0.3 });
    expect(scoreFusion([lex, vec])[0]!.id).toBe('a');
    expect(reciprocalRankFusion([lex, vec])[0]!.id).toBe('a'); // a tie broken by id only
    expect(reciprocalRankFusion([lex, vec])[0]!.score).toBe(reciprocalRankFusion([lex, vec])[1]!.score);
  });
});

describe('calibration helpers', () => {
  it('minMaxNormalize maps onto 0..1 keeping order', () => {
    expect(minMaxNormalize([{ score: 4 }, { score: 3 }, { score: 2 }]).map((x) => x.score)).toEqual([1, 0.5, 0]);
    expect(minMaxNormalize([{ score: 7 }, { score: 7 }]).map((x) => x.score)).toEqual([1, 1]);
  });
  it('adaptiveThreshold follows the top score, honours minScore and falls back to top-1', () => {
    const hits = [0.9, 0.6, 0.44, 0.1].map((score, i) => ({ id: `h${i}`, score }));
    expect(adaptiveThreshold(hits, { ratio: 0.5 }).map((h) => h.id)).toEqual(['h0', 'h1']);
    expect(adaptiveThreshold(hits, { ratio: 0.4 }).map((h) => h.id)).toEqual(['h0', 'h1', 'h2']);
    expect(adaptiveThreshold(hits, { ratio: 0, minScore: 0.5 }).map((h) => h.id)).toEqual(['h0', 'h1']);
    expect(adaptiveThreshold(hits, { minScore: 0.95 }).map((h) => h.id)).toEqual(['h0']);
    expect(adaptiveThreshold([], {})).toEqual([]);
  });
  it('scoreFusion: first in every list scores exactly 1, never a rounding above it', () => {
    // (1 × 1 + 0.8 × 0.77 / 0.77) / 1.8 is 1.0000000000000002 in floating point.
    const fused = scoreFusion(
      [
        [{ id: 'a', score: 3.2 }],
        [
          { id: 'a', score: 0.77 },
          { id: 'b', score: 0.5 },
        ],
      ],
      { weights: [1, 0.8] },
    );
    expect(fused[0]).toMatchObject({ id: 'a', score: 1 });
    expect(fused.every((f) => f.score <= 1)).toBe(true);
  });
  it('with the default weights, the closest in meaning at under half the word score outranks a match by words alone', () => {
    // At vector weight 0.5 the words-only match would stay first: (0.45 + 0.5) / 1.5 < 1 / 1.5.
    const { lexical, vector } = DEFAULT_FUSION_WEIGHTS;
    const fused = scoreFusion(
      [
        [
          { id: 'words-only', score: 4 },
          { id: 'meaning', score: 1.8 },
        ],
        [{ id: 'meaning', score: 0.6 }],
      ],
      { weights: [lexical, vector] },
    );
    expect(fused.map((f) => f.id)).toEqual(['meaning', 'words-only']);
  });
});
