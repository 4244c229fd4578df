import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../model/clock.js';
import { resolveConfig } from '../model/config.js';
import { effectiveImportance } from '../dynamics/decay.js';
import { createEntry } from '../model/entry.js';
import { isZerdaError } from '../model/errors.js';
import { MemorySelector } from './selector.js';
import type { MemoryEntry } from '../model/types.js';

const NOW = Date.UTC(2026, 5, 1);

function mem(id: string, daysOld: number, importance: number, kind = 'conversation', tags: string[] = []): MemoryEntry {
  return createEntry(
    't',
    { id, content: { title: id, text: id }, importance, kind, tags, createdAt: NOW - daysOld * DAY_MS },
    NOW,
  );
}

describe('MemorySelector', () => {
  it('scores a weighted mean of relevance, recency (creation half-life) and effective importance', () => {
    const sel = new MemorySelector(
      { selectorWeights: { relevance: 2, recency: 1, importance: 1 }, recencyHalfLifeDays: 10 },
      () => NOW,
    );
    const e = mem('a', 10, 0.8);
    const [s] = sel.rank([{ entry: e, relevance: 0.5 }]);
    expect(s!.recency).toBeCloseTo(0.5, 12);
    const expectedImportance = effectiveImportance(e, NOW, resolveConfig({}));
    expect(expectedImportance).toBeLessThan(0.8); // 10 days of decay for a conversation
    expect(s!.importance).toBeCloseTo(expectedImportance, 12);
    expect(s!.score).toBeCloseTo((2 * 0.5 + 0.5 + expectedImportance) / 4, 12);
  });

  it('orders by the combined score, so relevance alone does not decide', () => {
    const sel = new MemorySelector({}, () => NOW);
    const stale = mem('stale', 400, 0.1, 'ephemeral');
    const fresh = mem('fresh', 0, 0.9, 'fact');
    const ranked = sel.rank([
      { entry: stale, relevance: 0.8 },
      { entry: fresh, relevance: 0.7 },
    ]);
    expect(ranked.map((r) => r.entry.id)).toEqual(['fresh', 'stale']);
    // With relevance as the only weight, the most relevant wins.
    const relOnly = new MemorySelector({ selectorWeights: { relevance: 1, recency: 0, importance: 0 } }, () => NOW);
    expect(
      relOnly.rank([
        { entry: fresh, relevance: 0.7 },
        { entry: stale, relevance: 0.8 },
      ])[0]!.entry.id,
    ).toBe('stale');
  });

  it('protected tags keep base importance; decay off keeps base importance', () => {
    const sel = new MemorySelector({}, () => NOW);
    const pinned = mem('p', 300, 0.6, 'conversation', ['pinned']);
    const plain = mem('q', 300, 0.6);
    const [a, b] = sel.rank([
      { entry: pinned, relevance: 0.5 },
      { entry: plain, relevance: 0.5 },
    ]);
    expect(a!.entry.id).toBe('p');
    expect(a!.importance).toBe(0.6);
    expect(b!.importance).toBeLessThan(0.6);
    const noDecay = new MemorySelector({ enableDecay: false }, () => NOW);
    expect(noDecay.rank([{ entry: plain, relevance: 0.5 }])[0]!.importance).toBe(0.6);
  });

  it('uses the clock by default, accepts an explicit now, and breaks ties deterministically', () => {
    let t = NOW;
    const sel = new MemorySelector({}, () => t);
    const e = mem('e', 0, 0.5);
    const r0 = sel.rank([{ entry: e, relevance: 0.5 }])[0]!.recency;
    t = NOW + 14 * DAY_MS;
    expect(sel.rank([{ entry: e, relevance: 0.5 }])[0]!.recency).toBeCloseTo(r0 / 2, 12);
    expect(sel.rank([{ entry: e, relevance: 0.5 }], NOW)[0]!.recency).toBe(1);
    const twins = [mem('b', 1, 0.5), mem('a', 1, 0.5)].map((entry) => ({ entry, relevance: 0.3 }));
    expect(sel.rank(twins, NOW).map((r) => r.entry.id)).toEqual(['a', 'b']);
    expect(twins.map((c) => c.entry.id)).toEqual(['b', 'a']); // input untouched
  });

  it('rejects a relevance outside [0, 1] with VALIDATION', () => {
    const sel = new MemorySelector({}, () => NOW);
    for (const relevance of [-0.1, 1.5, NaN]) {
      let err: unknown;
      try {
        sel.rank([{ entry: mem('x', 0, 0.5), relevance }]);
      } catch (e) {
        err = e;
      }
      expect(isZerdaError(err, 'VALIDATION')).toBe(true);
    }
  });
});
