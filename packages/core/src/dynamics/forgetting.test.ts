import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../model/clock.js';
import { resolveConfig } from '../model/config.js';
import { createEntry } from '../model/entry.js';
import { ForgettingMechanism } from './forgetting.js';
import type { MemoryEntry } from '../model/types.js';

const make = (importance: number, kind = 'conversation', tags: string[] = []): MemoryEntry =>
  createEntry('t', { content: { input: 'q', output: 'a' }, importance, kind, tags }, 0);

describe('ForgettingMechanism', () => {
  it('reinforces a copy, capped, and moves lastAccess', () => {
    const f = new ForgettingMechanism(
      resolveConfig({ reinforcementStep: 0.1, reinforcementCap: 0.75 }),
      () => 5 * DAY_MS,
    );
    const e = make(0.7);
    const r = f.reinforce(e);
    expect(r).not.toBe(e);
    expect(r.importance).toBe(0.75);
    expect(r.lastAccess).toBe(5 * DAY_MS);
    expect(r.accessCount).toBe(1);
    expect(r.version).toBe(2);
    expect(e.importance).toBe(0.7);
    expect(f.reinforce(r).importance).toBe(0.75);
  });

  it('accumulates reinforcement in metadata and writes it in rounded steps (reinforcementWritebackStep)', () => {
    const cfg = resolveConfig({ reinforcementStep: 0.01, reinforcementWritebackStep: 0.05, importanceQuantum: 0.05 });
    const f = new ForgettingMechanism(cfg, () => 0);
    let e = make(0.5, 'fact');
    for (let i = 1; i <= 4; i++) {
      e = f.reinforce(e);
      expect(e.importance).toBe(0.5);
      expect(e.metadata.reinforcementAccum).toBeCloseTo(i * 0.01, 9);
    }
    // A copy that went through JSON (a restart) carries the accumulation on.
    e = f.reinforce(JSON.parse(JSON.stringify(e)) as MemoryEntry);
    expect(e.importance).toBe(0.55);
    expect(e.metadata.reinforcementAccum).toBe(0);
    expect(e.accessCount).toBe(5);
  });

  it('writes decay back on recall only past the step and the interval, rounded, above the floor', () => {
    const cfg = resolveConfig({
      halfLifeDays: { fact: 10 },
      decayFloors: { fact: 0.3 },
      reinforcementStep: 0.01,
      reinforcementWritebackStep: 0.05,
      importanceQuantum: 0.05,
      decayWritebackStep: 0.05,
      decayWritebackIntervalMs: 12 * 3_600_000,
    });
    let now = 0;
    const f = new ForgettingMechanism(cfg, () => now);
    let e = make(0.8, 'fact');
    now = 2 * DAY_MS; // 0.8 * 2^(-0.2) = 0.696 -> 0.7: 0.1 lower, written
    e = f.reinforce(e);
    expect(e.importance).toBe(0.7);
    expect(e.metadata.lastDecayAt).toBe(now);
    now += 6 * 3_600_000 + 3 * DAY_MS; // 0.7 * 2^(-0.325) = 0.557 -> 0.55; the last write-back is 3.25 days old
    e = f.reinforce(e);
    expect(e.importance).toBe(0.55);
    now += 3_600_000 + 5 * DAY_MS; // would be 0.39 -> 0.4 ...
    const early = { ...e, metadata: { ...e.metadata, lastDecayAt: now - 3_600_000 } };
    expect(f.reinforce(early).importance).toBe(0.55); // ... rate-limited: written 1 h ago
    now += 100 * DAY_MS;
    expect(f.reinforce(e).importance).toBe(0.3); // never below the fact floor
    const small = make(0.8, 'fact');
    now = 3_600_000; // 0.8 -> 0.7997: rounds back to 0.8, nothing written
    const r = f.reinforce(small);
    expect(r.importance).toBe(0.8);
    expect(r.metadata.lastDecayAt).toBeUndefined();
    const pinned = make(0.8, 'fact', ['pinned']);
    now = 365 * DAY_MS;
    expect(f.reinforce(pinned).importance).toBe(0.8);
  });

  it('never lowers an importance already above the cap', () => {
    const f = new ForgettingMechanism(resolveConfig({ reinforcementCap: 0.5 }), () => 0);
    expect(f.reinforce(make(0.9)).importance).toBe(0.9);
  });

  it('selects by effective importance, not base', () => {
    const now = 120 * DAY_MS; // 4 conversation half-lives: 0.9 -> 0.05625 < 0.08
    const f = new ForgettingMechanism(resolveConfig({ minImportance: 0 }), () => now);
    const old = make(0.9);
    const keep = make(0.9, 'fact');
    expect(f.selectForDeletion([old, keep]).map((e) => e.id)).toEqual([old.id]);
  });

  it('is idempotent: a second pass with no time passing selects the same and changes nothing', () => {
    const f = new ForgettingMechanism(resolveConfig(), () => 60 * DAY_MS);
    const entries = [make(0.3), make(0.2), make(0.5)];
    const snapshot = structuredClone(entries);
    const a = f.selectForDeletion(entries).map((e) => e.id);
    const b = f.selectForDeletion(entries).map((e) => e.id);
    expect(b).toEqual(a);
    expect(entries).toEqual(snapshot);
  });

  it('never selects protected entries', () => {
    const f = new ForgettingMechanism(resolveConfig(), () => 10_000 * DAY_MS);
    const entries = ['core', 'identity', 'pinned'].map((t) => make(0.01, 'ephemeral', [t]));
    expect(f.selectForDeletion(entries)).toEqual([]);
  });

  it('honours enableDecay: false (base importance decides)', () => {
    const f = new ForgettingMechanism(resolveConfig({ enableDecay: false }), () => 10_000 * DAY_MS);
    const low = make(0.05);
    expect(f.selectForDeletion([make(0.5), low]).map((e) => e.id)).toEqual([low.id]);
    expect(f.effective(make(0.5))).toBe(0.5);
  });
});
