import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../model/clock.js';
import { resolveConfig } from '../model/config.js';
import { effectiveImportance, floorFor, halfLifeFor, isProtected } from './decay.js';

const cfg = resolveConfig();
const at = (kind: string, importance: number, tags: string[] = []) => ({ kind, importance, tags, lastAccess: 0 });

describe('effectiveImportance', () => {
  it('halves after one half-life of the kind', () => {
    expect(effectiveImportance(at('conversation', 0.8), 30 * DAY_MS, cfg)).toBeCloseTo(0.4, 10);
    expect(effectiveImportance(at('task', 0.8), 14 * DAY_MS, cfg)).toBeCloseTo(0.4, 10);
  });

  it('reads a partial config over the defaults instead of silently not decaying', () => {
    expect(effectiveImportance(at('conversation', 0.8), 30 * DAY_MS, {})).toBeCloseTo(0.4, 10);
    expect(effectiveImportance(at('conversation', 0.8), 30 * DAY_MS)).toBeCloseTo(0.4, 10);
    expect(
      effectiveImportance(at('conversation', 0.8), 10 * DAY_MS, { halfLifeDays: { conversation: 10 } }),
    ).toBeCloseTo(0.4, 10);
    expect(effectiveImportance(at('conversation', 0.8), 300 * DAY_MS, { enableDecay: false })).toBe(0.8);
    expect(() => effectiveImportance(at('conversation', 0.8), 0, { enableDecay: 'no' as never })).toThrow(
      /enableDecay/,
    );
    // A hand-made entry without tags is read as untagged, not a TypeError.
    expect(
      effectiveImportance({ kind: 'conversation', importance: 0.8, lastAccess: 0 } as never, 30 * DAY_MS, cfg),
    ).toBeCloseTo(0.4, 10);
  });

  it('equals base at lastAccess and never exceeds it', () => {
    expect(effectiveImportance(at('conversation', 0.7), 0, cfg)).toBe(0.7);
    // lastAccess in the future (clock skew) must not inflate importance
    expect(effectiveImportance(at('conversation', 0.7), -DAY_MS, cfg)).toBe(0.7);
  });

  it('is pure: computed from base each time, never compounding', () => {
    const e = at('conversation', 0.8);
    const first = effectiveImportance(e, 30 * DAY_MS, cfg);
    const second = effectiveImportance(e, 30 * DAY_MS, cfg);
    expect(second).toBe(first);
    expect(e.importance).toBe(0.8);
  });

  it('stops at the per-kind floor', () => {
    expect(effectiveImportance(at('fact', 0.9), 100 * 365 * DAY_MS, cfg)).toBe(0.2);
    expect(effectiveImportance(at('conversation', 0.9), 100 * 365 * DAY_MS, cfg)).toBe(cfg.minImportance);
    expect(effectiveImportance(at('ephemeral', 0.9), 100 * 365 * DAY_MS, cfg)).toBeLessThan(1e-6);
  });

  it('caps the floor at base importance', () => {
    expect(effectiveImportance(at('fact', 0.1), 100 * 365 * DAY_MS, cfg)).toBe(0.1);
  });

  it('never decays protected tags', () => {
    for (const tag of ['core', 'identity', 'pinned']) {
      expect(effectiveImportance(at('ephemeral', 0.6, [tag]), 1000 * DAY_MS, cfg)).toBe(0.6);
    }
  });

  it('honours enableDecay: false', () => {
    const off = resolveConfig({ enableDecay: false });
    expect(effectiveImportance(at('ephemeral', 0.6), 1000 * DAY_MS, off)).toBe(0.6);
  });

  it('uses baseDecayRate for unknown kinds', () => {
    const c = resolveConfig({ baseDecayRate: Math.LN2 / 10 });
    expect(halfLifeFor('custom', c)).toBeCloseTo(10, 10);
    expect(effectiveImportance(at('custom', 0.8), 10 * DAY_MS, c)).toBeCloseTo(0.4, 10);
    expect(halfLifeFor('custom', resolveConfig({ baseDecayRate: 0 }))).toBe(Infinity);
    expect(effectiveImportance(at('custom', 0.8), 1000 * DAY_MS, resolveConfig({ baseDecayRate: 0 }))).toBe(0.8);
  });

  it('does not read inherited keys as kinds', () => {
    expect(halfLifeFor('toString', cfg)).toBeCloseTo(30, 10);
    expect(floorFor('constructor', cfg)).toBe(cfg.minImportance);
  });
});

describe('isProtected', () => {
  it('follows config.protectedTags', () => {
    expect(isProtected({ tags: ['pinned'] }, cfg)).toBe(true);
    expect(isProtected({ tags: ['pinned'] }, resolveConfig({ protectedTags: ['vip'] }))).toBe(false);
    expect(isProtected({ tags: ['x'] }, cfg)).toBe(false);
  });
});
