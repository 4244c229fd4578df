import { DAY_MS } from './clock.js';
import type { MemoryConfig } from './config.js';
import type { MemoryEntry } from './types.js';

/** The fields decay reads. */
export type DecayInput = Pick<MemoryEntry, 'importance' | 'lastAccess' | 'kind' | 'tags'>;

/** True when the entry carries one of `config.protectedTags`: it never decays, is never deleted or compressed. */
export function isProtected(entry: Pick<MemoryEntry, 'tags'>, config: MemoryConfig): boolean {
  return entry.tags.some((t) => config.protectedTags.includes(t));
}

/**
 * Half-life in days for a kind: `config.halfLifeDays[kind]`, else derived from `baseDecayRate`
 * (`ln 2 / rate`; `Infinity` when the rate is 0).
 */
export function halfLifeFor(kind: string, config: MemoryConfig): number {
  const explicit = Object.hasOwn(config.halfLifeDays, kind) ? config.halfLifeDays[kind] : undefined;
  if (explicit !== undefined) return explicit;
  return config.baseDecayRate > 0 ? Math.LN2 / config.baseDecayRate : Infinity;
}

/** Decay floor for a kind: `config.decayFloors[kind]`, else `config.minImportance`. */
export function floorFor(kind: string, config: MemoryConfig): number {
  const explicit = Object.hasOwn(config.decayFloors, kind) ? config.decayFloors[kind] : undefined;
  return explicit ?? config.minImportance;
}

/**
 * Effective importance at `now`: `base * 2^(-days / halfLife(kind))`, where days run from
 * `lastAccess`, and never below `min(base, floor(kind))`.
 *
 * Pure and derived from base importance every time, so it never compounds: calling it twice, or
 * running maintenance twice, gives the same number. Protected entries and `enableDecay: false`
 * give the base importance.
 */
export function effectiveImportance(entry: DecayInput, now: number, config: MemoryConfig): number {
  const base = entry.importance;
  if (!config.enableDecay || isProtected(entry, config)) return base;
  const days = Math.max(0, now - entry.lastAccess) / DAY_MS;
  const halfLife = halfLifeFor(entry.kind, config);
  const decayed = Number.isFinite(halfLife) ? base * Math.pow(2, -days / halfLife) : base;
  return Math.max(decayed, Math.min(base, floorFor(entry.kind, config)));
}
