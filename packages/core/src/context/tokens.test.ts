import { describe, expect, it } from 'vitest';
import { estimateTokens } from './tokens.js';

describe('estimateTokens', () => {
  it('is 0 for empty text', () => {
    expect(estimateTokens('')).toBe(0);
  });

  it('uses the char rule for long words', () => {
    const text = 'internationalization'.repeat(5); // 100 chars, 1 word
    expect(estimateTokens(text)).toBe(25);
  });

  it('uses the word rule for many short words', () => {
    const text = 'a b c d e f g h i j'; // 19 chars, 10 words
    expect(estimateTokens(text)).toBe(13);
  });

  it('counts punctuation as pieces', () => {
    expect(estimateTokens('hi, there!')).toBeGreaterThanOrEqual(Math.ceil(4 * 1.3));
  });

  it('grows monotonically with appended text', () => {
    const a = estimateTokens('The quick brown fox');
    const b = estimateTokens('The quick brown fox jumps over the lazy dog');
    expect(b).toBeGreaterThan(a);
  });
});
