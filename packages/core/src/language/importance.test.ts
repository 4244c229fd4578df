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
});
