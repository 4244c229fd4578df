/**
 * The reinforcement rule, one place. Everything that raises importance on recall
 * (`MemoryManager.recall`/`buildContext`/`reinforce`, `ForgettingMechanism.reinforce`) goes
 * through {@link reinforceEntry}, configured by `MemoryConfig`:
 *
 * | field                        | default | what it does                                                   |
 * |------------------------------|---------|----------------------------------------------------------------|
 * | `reinforcementStep`          | 0.05    | importance added per recall                                    |
 * | `reinforcementCap`           | 1       | reinforcement never raises importance above this               |
 * | `reinforcementWritebackStep` | 0       | accumulate steps in `metadata.reinforcementAccum` until this   |
 * | `importanceQuantum`          | 0       | round written importance to a multiple of this                 |
 * | `decayWritebackStep`         | 0       | on recall, write decay back once it lowered importance by this |
 * | `decayWritebackIntervalMs`   | 12 h    | ... at most once per this interval (`metadata.lastDecayAt`)    |
 *
 * Decay itself stays lazy and derived (`effectiveImportance`); the defaults never write it. A
 * 1–10 importance scale (as `@zerda/mcp` shows it) is the 0..1 scale times ten, so "+0.1 per
 * recall, accumulated, written once it reaches 0.5, in half steps, decay written back in steps of
 * 0.5 at most every 12 h" is `{ reinforcementStep: 0.01, reinforcementWritebackStep: 0.05,
 * importanceQuantum: 0.05, decayWritebackStep: 0.05 }`.
 */
import type { MemoryConfig } from '../model/config.js';
import type { MemoryEntry } from '../model/types.js';
import { effectiveImportance, floorFor, isProtected } from './decay.js';

/** Metadata key of reinforcement accumulated below `reinforcementWritebackStep`, not yet applied. */
export const REINFORCEMENT_ACCUM_KEY = 'reinforcementAccum';
/** Metadata key of the time decay was last written back. */
export const LAST_DECAY_KEY = 'lastDecayAt';

/** Tolerance of the step comparisons: five steps of 0.01 reach 0.05 despite binary fractions. */
const EPSILON = 1e-9;

/**
 * A recalled copy of `entry` at `now`, to be written back: `lastAccess = now` (never earlier),
 * `accessCount + 1`, `version + 1`, and base importance after, in this order:
 *
 * 1. decay write-back (`decayWritebackStep > 0`, entry not protected): the decayed importance,
 *    rounded to `importanceQuantum` and never below the kind's floor, replaces the stored one when
 *    it is at least `decayWritebackStep` lower and the previous write-back (`metadata.lastDecayAt`)
 *    is at least `decayWritebackIntervalMs` old;
 * 2. reinforcement: `+ reinforcementStep` up to `reinforcementCap` (never lowered), at once or,
 *    with `reinforcementWritebackStep > 0`, accumulated in `metadata.reinforcementAccum` (persisted
 *    with the memory, so a restart loses nothing) and added, rounded to `importanceQuantum`, once
 *    the accumulation reaches that step.
 */
export function reinforceEntry(entry: MemoryEntry, now: number, config: MemoryConfig): MemoryEntry {
  const c = config;
  const metadata = structuredClone(entry.metadata);
  let importance = entry.importance;
  if (c.decayWritebackStep > 0 && !isProtected(entry, c)) {
    const last = typeof metadata[LAST_DECAY_KEY] === 'number' ? metadata[LAST_DECAY_KEY] : undefined;
    if (last === undefined || now - last >= c.decayWritebackIntervalMs) {
      const floor = Math.min(importance, floorFor(entry.kind, c));
      const decayed = Math.max(floor, quantize(effectiveImportance(entry, now, c), c.importanceQuantum));
      if (importance - decayed >= c.decayWritebackStep - EPSILON) {
        importance = decayed;
        metadata[LAST_DECAY_KEY] = now;
      }
    }
  }
  const { reinforcementStep: step, reinforcementCap: cap, reinforcementWritebackStep: writeback } = c;
  if (writeback > 0) {
    const held = typeof metadata[REINFORCEMENT_ACCUM_KEY] === 'number' ? metadata[REINFORCEMENT_ACCUM_KEY] : 0;
    const accum = round9(held + step);
    if (accum >= writeback - EPSILON) {
      importance = raise(importance, accum, cap, c.importanceQuantum);
      metadata[REINFORCEMENT_ACCUM_KEY] = 0;
    } else {
      metadata[REINFORCEMENT_ACCUM_KEY] = accum;
    }
  } else {
    importance = raise(importance, step, cap, c.importanceQuantum);
  }
  return {
    ...structuredClone(entry),
    importance,
    metadata,
    lastAccess: Math.max(entry.lastAccess, now),
    accessCount: entry.accessCount + 1,
    version: entry.version + 1,
  };
}

/** `importance + by`, rounded to `quantum`, at most `cap`, never lower than `importance`. */
function raise(importance: number, by: number, cap: number, quantum: number): number {
  return Math.max(importance, Math.min(cap, quantize(importance + by, quantum)));
}

function round9(x: number): number {
  return Math.round(x * 1e9) / 1e9;
}

/** `x` rounded to a multiple of `quantum` (unchanged when `quantum` is 0). */
export function quantize(x: number, quantum: number): number {
  return quantum > 0 ? round9(Math.round(x / quantum) * quantum) : x;
}
