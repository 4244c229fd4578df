import { describe, expect, it } from 'vitest';
import { readQuery } from './query-reading.js';

describe('readQuery: the frame of a question that asks for a guess', () => {
  it('drops the words that say how sure the answer may be or where to look, keeping what is asked', () => {
    const r = readQuery('Based on the conversations, would Caroline likely pursue writing as a career?', 0);
    expect([...r.terms].sort()).toEqual(['career', 'carolin', 'pursu', 'write']);
    expect(r.keywords).toEqual(['caroline', 'pursue', 'writing', 'career']);
    expect(readQuery('What might John potentially do, considering his budget?', 0).keywords).toEqual([
      'john',
      'budget',
    ]);
  });

  it("does not read 'likely' as a liking: no preference question is asked", () => {
    expect(readQuery('Would Tim likely visit Ireland?', 0).slots.asked).toEqual([]);
    expect(readQuery('What would Tim like to visit?', 0).slots.asked).toHaveLength(1);
  });
});
