import type { MemoryEntry } from '../model/types.js';
import { SOURCES_KEY } from './types.js';

/** The turn entry ids a formed memory came from (`metadata.sources`); `[]` for anything else. */
export function sourcesOf(entry: Pick<MemoryEntry, 'metadata'>): string[] {
  const s = entry.metadata[SOURCES_KEY];
  return Array.isArray(s) ? s.filter((x): x is string => typeof x === 'string') : [];
}

/**
 * Ranked hits with duplicates of the same turn folded: a formed memory stands for the turns in
 * its `sources`, a turn for itself, and a hit whose turns are all already stood for by hits
 * ranked above it is left out (the memory "I went hiking" and the turn it came from are one
 * piece of evidence, not two). Order is kept.
 */
export function collapseBySource<T extends { entry: Pick<MemoryEntry, 'id' | 'metadata'> }>(hits: readonly T[]): T[] {
  const covered = new Set<string>();
  const out: T[] = [];
  for (const h of hits) {
    const sources = sourcesOf(h.entry);
    const stands = sources.length ? sources : [h.entry.id];
    if (stands.every((id) => covered.has(id))) continue;
    out.push(h);
    covered.add(h.entry.id);
    for (const id of sources) covered.add(id);
  }
  return out;
}
