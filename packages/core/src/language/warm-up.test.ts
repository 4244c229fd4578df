import { describe, expect, it } from 'vitest';
import { readTurn } from './turn-reading.js';
import { warmUpReading } from './warm-up.js';

const TURN = {
  input: 'Ana: I moved to Lisbon last week – my sister lives there!',
  output: '',
  userId: 'me',
  createdAt: 0,
};

describe('warmUpReading', () => {
  it('compiles the reader in many small steps, once per process, and changes no reading', () => {
    const before = readTurn(TURN);
    // One step a pattern (a few hundred), then one a sample turn: a caller can yield between any two.
    expect([...warmUpReading()].length).toBeGreaterThan(100);
    expect([...warmUpReading()]).toEqual([]);
    expect(readTurn(TURN)).toEqual(before);
  });
});
