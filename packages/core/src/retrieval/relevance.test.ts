import { describe, expect, it } from 'vitest';
import { readQuery } from '../language/query-reading.js';
import { isZerdaError } from '../model/errors.js';
import {
  CALIBRATED_FLOORS,
  isStrong,
  queryCoverage,
  readingCoverage,
  relatedReason,
  relevanceFloors,
  strongFloor,
} from './relevance.js';

describe('relevance gate', () => {
  it('uses the calibrated floors of a known model, floors derived from minSimilarity, or none', () => {
    const id = Object.keys(CALIBRATED_FLOORS)[0]!;
    expect(relevanceFloors(id)).toEqual(CALIBRATED_FLOORS[id]);
    expect(relevanceFloors(id, 0.5)).toMatchObject({
      strong: 0.5,
      strongSmall: 0.35,
      strongKeywords: 0.2,
      halfKeywords: 0.35,
      related: 0.3,
    });
    expect(relevanceFloors('some-other-model')).toBeUndefined();
    expect(relevanceFloors('some-other-model', null)).toBeUndefined();
    let err: unknown;
    try {
      relevanceFloors(id, 2);
    } catch (e) {
      err = e;
    }
    expect(isZerdaError(err) && err.code === 'VALIDATION').toBe(true);
  });

  it('measures coverage on analysed words (stopwords out, stems in)', () => {
    const cover = queryCoverage("What are Caroline's hobbies?");
    expect(cover('Caroline: my hobby is painting')).toEqual({ coverage: 1, words: 2 });
    expect(cover('Caroline: I went climbing')).toEqual({ coverage: 0.5, words: 1 });
    expect(cover('Melanie: what are you doing')).toEqual({ coverage: 0, words: 0 });
    expect(queryCoverage('what is it')('anything')).toEqual({ coverage: 0, words: 0 });
  });

  it('needs a strong candidate for the query and a related test per hit', () => {
    const f = relevanceFloors('any', 0.5)!;
    const big = 1000;
    expect(isStrong(f, { similarity: 0.55, coverage: 0, words: 0 }, big)).toBe(true);
    expect(isStrong(f, { similarity: 0.25, coverage: 0.5, words: 2 }, big)).toBe(true);
    // One shared word: only when it is half the query and the similarity is fair.
    expect(isStrong(f, { similarity: 0.25, coverage: 0.5, words: 1 }, big)).toBe(false);
    expect(isStrong(f, { similarity: 0.36, coverage: 0.5, words: 1 }, big)).toBe(true);
    expect(isStrong(f, { similarity: 0.15, coverage: 0.5, words: 2 }, big)).toBe(false);
    expect(isStrong(f, { similarity: 0.45, coverage: 1 / 3, words: 2 }, big)).toBe(false);
    expect(isStrong(f, { similarity: undefined, coverage: 0.5, words: 2 }, big)).toBe(true);
    // The floor grows with the store: 0.45 answers a small store, not a large one.
    expect(strongFloor(f, 10)).toBeCloseTo(0.35);
    expect(strongFloor(f, 128)).toBeCloseTo(0.425);
    expect(strongFloor(f, 5000)).toBeCloseTo(0.5);
    expect(isStrong(f, { similarity: 0.45, coverage: 0, words: 0 }, 20)).toBe(true);
    expect(isStrong(f, { similarity: 0.45, coverage: 0, words: 0 }, big)).toBe(false);
    // A query about no one the store holds gets no small-store discount; shared words still count.
    expect(isStrong(f, { similarity: 0.45, coverage: 0, words: 0 }, 20, false)).toBe(false);
    expect(isStrong(f, { similarity: 0.5, coverage: 0, words: 0 }, 20, false)).toBe(true);
    expect(isStrong(f, { similarity: 0.25, coverage: 0.5, words: 2 }, 20, false)).toBe(true);
    expect(relatedReason(f, { similarity: 0.31, coverage: 0, words: 0 })).toBe('similarity');
    expect(relatedReason(f, { similarity: 0.1, coverage: 0.25, words: 1 })).toBe('keywords');
    expect(relatedReason(f, { similarity: 0.29, coverage: 0.1, words: 1 })).toBeUndefined();
    // Without floors: any positive signal.
    expect(isStrong(undefined, { similarity: 0.01, coverage: 0, words: 0 }, big)).toBe(true);
    expect(relatedReason(undefined, { similarity: 0.01, coverage: 0, words: 0 })).toBe('similarity');
    expect(relatedReason(undefined, { similarity: 0, coverage: 0, words: 0 })).toBeUndefined();
  });

  it('slot coverage: a full slot answer is strong at any similarity, half of one needs the keyword floor', () => {
    const f = relevanceFloors('any', 0.5)!;
    const small = 4;
    // "What are my hobbies?" ↔ a preference of the user's: no shared word, cosine 0.17.
    expect(isStrong(f, { similarity: 0.17, coverage: 0, words: 0 }, small)).toBe(false);
    expect(isStrong(f, { similarity: 0.17, coverage: 0, words: 0, slotCoverage: 1 }, small)).toBe(true);
    expect(isStrong(f, { similarity: undefined, coverage: 0, words: 0, slotCoverage: 1 }, small)).toBe(true);
    // "What is my favourite movie?" ↔ the same preference: half the question, dissimilar.
    expect(isStrong(f, { similarity: 0.14, coverage: 0, words: 0, slotCoverage: 0.5 }, small)).toBe(false);
    expect(isStrong(f, { similarity: 0.21, coverage: 0, words: 0, slotCoverage: 0.5 }, small)).toBe(true);
    expect(isStrong(f, { similarity: 0.3, coverage: 0, words: 0, slotCoverage: 1 / 3 }, small)).toBe(false);
    expect(relatedReason(f, { similarity: 0.1, coverage: 0, words: 0, slotCoverage: 0.5 })).toBe('slot');
    expect(relatedReason(f, { similarity: 0.1, coverage: 0, words: 0, slotCoverage: 0.4 })).toBeUndefined();
    // The other signals keep their names when they hold too.
    expect(relatedReason(f, { similarity: 0.4, coverage: 0, words: 0, slotCoverage: 1 })).toBe('similarity');
    expect(relatedReason(f, { similarity: 0.1, coverage: 0.5, words: 1, slotCoverage: 1 })).toBe('keywords');
  });
});

describe('coverage of a query read once', () => {
  it('counts a class member as the class word, but not another form of an irregular verb: those only rank', () => {
    const sibling = readingCoverage(readQuery('Where does my sibling live?', 0));
    expect(sibling('My sister lives in Lisbon.').words).toBe(2);
    const wrote = readQuery('Who wrote the Odyssey?', 0);
    expect(wrote.expansions.get('wrote')?.words).toContain('write');
    expect(readingCoverage(wrote)('A great novel with awesome writing.').words).toBe(0);
    expect(readingCoverage(wrote)('I wrote it down.').words).toBe(1);
  });
});
