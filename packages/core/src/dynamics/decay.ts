import { DAY_MS } from '../model/clock.js';
import { resolveConfig, type MemoryConfig } from '../model/config.js';
import type { MemoryEntry } from '../model/types.js';

/** The fields decay reads. */
export type DecayInput = Pick<MemoryEntry, 'importance' | 'lastAccess' | 'kind' | 'tags'>;

/** True when the entry carries one of `config.protectedTags`: it never decays, is never deleted or compressed. */
export function isProtected(entry: Pick<MemoryEntry, 'tags'>, config: MemoryConfig): boolean {
  return (entry.tags ?? []).some((t) => config.protectedTags.includes(t));
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
 * give the base importance. `config` is a resolved config (`manager.config`) or a partial one,
 * read over the defaults like `MemoryManager.create({ config })` reads it.
 */
export function effectiveImportance(
  entry: DecayInput,
  now: number,
  config: MemoryConfig | Partial<MemoryConfig> = {},
): number {
  const cfg = completeConfig(config);
  const base = entry.importance;
  if (!cfg.enableDecay || isProtected(entry, cfg)) return base;
  const days = Math.max(0, now - entry.lastAccess) / DAY_MS;
  const halfLife = halfLifeFor(entry.kind, cfg);
  const decayed = Number.isFinite(halfLife) ? base * 2 ** (-days / halfLife) : base;
  return Math.max(decayed, Math.min(base, floorFor(entry.kind, cfg)));
}

const resolvedPartials = new WeakMap<object, MemoryConfig>();

/**
 * A partial config (e.g. `{ enableDecay: false }` or `{ halfLifeDays: { fact: 10 } }`) means
 * "these over the defaults", exactly as `MemoryManager.create({ config })` reads it; reading its
 * missing fields as `undefined` would silently disable decay. Resolved once per object.
 */
function completeConfig(config: MemoryConfig | Partial<MemoryConfig>): MemoryConfig {
  if (isComplete(config)) return config;
  let cfg = resolvedPartials.get(config);
  if (!cfg) {
    cfg = resolveConfig(config);
    resolvedPartials.set(config, cfg);
  }
  return cfg;
}

function isComplete(c: MemoryConfig | Partial<MemoryConfig>): c is MemoryConfig {
  return (
    typeof c === 'object' &&
    c !== null &&
    typeof c.enableDecay === 'boolean' &&
    typeof c.baseDecayRate === 'number' &&
    typeof c.minImportance === 'number' &&
    typeof c.halfLifeDays === 'object' &&
    typeof c.decayFloors === 'object' &&
    Array.isArray(c.protectedTags)
  );
}
