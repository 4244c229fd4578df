import type { MemoryConfig } from '@zerda/core';

// The memory dynamics of the server this one replaces, as configuration of Zerda's own rules
// (core's `effectiveImportance` and `reinforceEntry`): nothing here computes decay or
// reinforcement. Importance is shown on the original's 1..10 scale, which is Zerda's 0..1 base
// importance times ten.

/** Half-lives per memory type in days (the original's `DECAY_HALF_LIFE_DAYS_BY_TYPE`). */
export const MCP_HALF_LIFE_DAYS: Readonly<Record<string, number>> = Object.freeze({
  conversation: 45,
  fact: 120,
  preference: 90,
  task: 30,
  ephemeral: 10,
});

/** Half-life of the other types (the original's `DECAY_HALF_LIFE_DAYS_DEFAULT`). */
export const MCP_DEFAULT_HALF_LIFE_DAYS = 60;

/** Decay floors per type on Zerda's 0..1 scale (the original's 2, 3, 2, 1, 1 on its 1..10 scale). */
export const MCP_DECAY_FLOORS: Readonly<Record<string, number>> = Object.freeze({
  conversation: 0.2,
  fact: 0.3,
  preference: 0.2,
  task: 0.1,
  ephemeral: 0.1,
});

const HOUR_MS = 3_600_000;

/**
 * The `MemoryConfig` the server creates its manager with: the original's half-lives and floors
 * (other types: 60 days, floor 1), protected tags `core`/`identity`/`pinned`, and its write-back
 * rules on every read that returns memories: +0.1 per retrieval accumulated in the memory's
 * metadata and written as +0.5 once it reaches 0.5 (capped at 10); decay written back when it
 * lowered importance by at least 0.5, at most every 12 h; written values rounded to halves.
 */
export function mcpMemoryConfig(): Partial<MemoryConfig> {
  return {
    halfLifeDays: { ...MCP_HALF_LIFE_DAYS },
    decayFloors: { ...MCP_DECAY_FLOORS },
    baseDecayRate: Math.LN2 / MCP_DEFAULT_HALF_LIFE_DAYS,
    minImportance: 0.1,
    deletionThreshold: 0.05,
    protectedTags: ['core', 'identity', 'pinned'],
    reinforcementStep: 0.01,
    reinforcementCap: 1,
    reinforcementWritebackStep: 0.05,
    importanceQuantum: 0.05,
    decayWritebackStep: 0.05,
    decayWritebackIntervalMs: 12 * HOUR_MS,
  };
}

/** Lowest and highest importance on the tool scale. */
export const IMPORTANCE_MIN = 1;
/** The highest importance a tool call may give (the original tool's 1–10 scale). */
export const IMPORTANCE_MAX = 10;

/** Tool importance (1..10, already validated) to Zerda's base importance (0.1..1.0). */
export function importanceToBase(importance: number): number {
  return round(importance / 10, 4);
}

/** Zerda's base importance (0..1) on the tool scale (0..10), rounded to `digits` decimals (default 1). */
export function baseToImportance(base: number, digits = 1): number {
  return round(base * 10, digits);
}

/** Round to `digits` decimals. */
export function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
