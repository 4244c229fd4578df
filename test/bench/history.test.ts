import { describe, expect, it } from 'vitest';
import { type BenchRecord, compareRecords } from './history.js';

const record = (figures: [string, number, number, 'lower' | 'higher'][]): BenchRecord => ({
  bench: 'b',
  at: '2026-12-01T00:00:00Z',
  env: { cores: 2 },
  limits: { 'read GB/s': 5 },
  figures: figures.map(([name, value, noise, better]) => ({ name, value, unit: 'x', noise, better })),
});

describe('compareRecords', () => {
  it('reports only figures that left their noise band, and which way is better', () => {
    const baseline = record([
      ['scan / read', 0.5, 0.3, 'lower'],
      ['worker rate', 200, 0.3, 'higher'],
      ['still', 10, 0.3, 'lower'],
      ['exact', 40, 0, 'higher'],
      ['gone', 1, 0.3, 'lower'],
    ]);
    const run = record([
      ['scan / read', 0.7, 0.3, 'lower'], // 1.4x: worse
      ['worker rate', 400, 0.3, 'higher'], // 2x: better
      ['still', 12.9, 0.3, 'lower'], // 1.29x: within
      ['exact', 39, 0, 'higher'], // any change counts
      ['new', 3, 0.3, 'lower'],
    ]);
    const { changes, added, dropped } = compareRecords(baseline, run);
    expect(Object.fromEntries(changes.map((c) => [c.name, c.verdict]))).toEqual({
      'scan / read': 'worse',
      'worker rate': 'better',
      still: 'within noise',
      exact: 'worse',
    });
    expect(changes.find((c) => c.name === 'worker rate')!.ratio).toBe(2);
    expect(added).toEqual(['new']);
    expect(dropped).toEqual(['gone']);
  });

  it('treats the band symmetrically in ratio terms, and a zero baseline that moved as moved', () => {
    const baseline = record([
      ['down', 1, 0.25, 'lower'],
      ['zero', 0, 0, 'lower'],
      ['zero-same', 0, 0, 'lower'],
    ]);
    const run = record([
      ['down', 0.79, 0.25, 'lower'], // 1/0.79 = 1.27 > 1.25: better
      ['zero', 2, 0, 'lower'],
      ['zero-same', 0, 0, 'lower'],
    ]);
    const verdicts = Object.fromEntries(compareRecords(baseline, run).changes.map((c) => [c.name, c.verdict]));
    expect(verdicts).toEqual({ down: 'better', zero: 'worse', 'zero-same': 'within noise' });
  });
});
