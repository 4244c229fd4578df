import { describe, expect, it } from 'vitest';
import type { MemoryEntry } from '../model/types.js';
import { collapseBySource, sourcesOf } from './collapse.js';

const hit = (id: string, sources?: unknown): { entry: Pick<MemoryEntry, 'id' | 'metadata'> } => ({
  entry: { id, metadata: sources === undefined ? {} : { sources: sources as string[] } },
});

describe('collapseBySource', () => {
  it('folds a memory and the turn it came from into the better-ranked one, in either order', () => {
    expect(collapseBySource([hit('m1', ['t1']), hit('t2'), hit('t1')]).map((h) => h.entry.id)).toEqual(['m1', 't2']);
    expect(collapseBySource([hit('t1'), hit('t2'), hit('m1', ['t1'])]).map((h) => h.entry.id)).toEqual(['t1', 't2']);
  });

  it('keeps a memory that stands for a turn not yet in the list', () => {
    expect(collapseBySource([hit('t1'), hit('m1', ['t1', 't3']), hit('t3')]).map((h) => h.entry.id)).toEqual([
      't1',
      'm1',
    ]);
  });

  it('two memories of one turn are one piece of evidence', () => {
    expect(collapseBySource([hit('m1', ['t1']), hit('m2', ['t1']), hit('m3', ['t2'])]).map((h) => h.entry.id)).toEqual([
      'm1',
      'm3',
    ]);
  });

  it('leaves entries without sources alone', () => {
    const hits = [hit('a'), hit('b'), hit('c', 'not a list')];
    expect(collapseBySource(hits)).toEqual(hits);
    expect(sourcesOf({ metadata: { sources: ['x', 3, 'y'] as never } })).toEqual(['x', 'y']);
  });
});
