import { describe, expect, it } from 'vitest';
import { DAY_MS, systemClock } from './clock.js';

describe('systemClock', () => {
  it('reads the real time in epoch milliseconds', () => {
    const before = Date.now();
    const t = systemClock();
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(Date.now());
    expect(Number.isInteger(t)).toBe(true);
  });

  it('defines a day in milliseconds', () => {
    expect(DAY_MS).toBe(24 * 60 * 60 * 1000);
  });
});
