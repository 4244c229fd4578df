import { describe, expect, it } from 'vitest';
import { estimateImportance } from './importance.js';

describe('estimateImportance', () => {
  it('scores self-disclosure above small talk', () => {
    expect(estimateImportance('My name is Sam and I live in Oslo')).toBeGreaterThan(estimateImportance('hi'));
    expect(estimateImportance('hi')).toBeLessThan(0.3);
  });

  it('questions score lower than statements (they ask memory, they do not add to it)', () => {
    expect(estimateImportance('What do I love doing outdoors?')).toBeLessThan(
      estimateImportance('I love hiking outdoors'),
    );
  });

  it('a turn that states something about a person is no question because it ends with one', () => {
    const turn = 'I just signed up for a pottery class yesterday. Have you found any activities like that?';
    expect(estimateImportance(turn, '', true)).toBeGreaterThan(estimateImportance(turn));
    expect(estimateImportance(turn, '', true)).toBeGreaterThanOrEqual(0.3);
  });
});
