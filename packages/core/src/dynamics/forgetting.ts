import { systemClock } from '../model/clock.js';
import type { Clock } from '../model/clock.js';
import type { MemoryConfig } from '../model/config.js';
import { effectiveImportance, floorFor, isProtected } from './decay.js';
import type { MemoryEntry } from '../model/types.js';

/**
 * Decay, reinforcement and deletion policy over entries. Stateless: every decision is derived
 * from base importance and `lastAccess`, so applying it twice changes nothing the second time.
 */
export class ForgettingMechanism {
  readonly #config: MemoryConfig;
  readonly #clock: Clock;

  /** @param config resolved configuration; @param clock time source (default {@link systemClock}). */
  constructor(config: MemoryConfig, clock: Clock = systemClock) {
    this.#config = config;
    this.#clock = clock;
  }

  /** Effective importance of `entry` at `now` (see {@link effectiveImportance}). */
  effective(entry: MemoryEntry, now: number = this.#clock()): number {
    return effectiveImportance(entry, now, this.#config);
  }

  /**
   * A recalled copy of `entry`: `lastAccess = now`, `accessCount + 1`, `version + 1`, and base
   * importance after the configured dynamics, in this order:
   *
   * 1. decay write-back (`decayWritebackStep > 0`, not protected): the decayed importance,
   *    rounded to `importanceQuantum` and never below the kind's floor, replaces the stored one
   *    when it is at least `decayWritebackStep` lower and the last write-back
   *    (`metadata.lastDecayAt`) is `decayWritebackIntervalMs` old;
   * 2. reinforcement: `+ reinforcementStep` up to `reinforcementCap` (never lowered), at once, or,
   *    with `reinforcementWritebackStep > 0`, accumulated in `metadata.reinforcementAccum` and
   *    added (rounded to `importanceQuantum`) once the accumulation reaches that step.
   */
  reinforce(entry: MemoryEntry, now: number = this.#clock()): MemoryEntry {
    const c = this.#config;
    const metadata = structuredClone(entry.metadata);
    let importance = entry.importance;
    if (c.decayWritebackStep > 0 && !isProtected(entry, c)) {
      const last = typeof metadata.lastDecayAt === 'number' ? metadata.lastDecayAt : undefined;
      if (last === undefined || now - last >= c.decayWritebackIntervalMs) {
        const floor = Math.min(importance, floorFor(entry.kind, c));
        const decayed = Math.max(floor, quantize(effectiveImportance(entry, now, c), c.importanceQuantum));
        if (importance - decayed >= c.decayWritebackStep - EPSILON) {
          importance = decayed;
          metadata.lastDecayAt = now;
        }
      }
    }
    const { reinforcementStep: step, reinforcementCap: cap, reinforcementWritebackStep: writeback } = c;
    if (writeback > 0) {
      const held = typeof metadata.reinforcementAccum === 'number' ? metadata.reinforcementAccum : 0;
      const accum = round9(held + step);
      if (accum >= writeback - EPSILON) {
        importance = Math.max(importance, Math.min(cap, quantize(importance + accum, c.importanceQuantum)));
        metadata.reinforcementAccum = 0;
      } else {
        metadata.reinforcementAccum = accum;
      }
    } else {
      importance = Math.max(importance, Math.min(cap, quantize(importance + step, c.importanceQuantum)));
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

  /** Entries whose effective importance is below `deletionThreshold`, protected ones excluded. */
  selectForDeletion(entries: readonly MemoryEntry[], now: number = this.#clock()): MemoryEntry[] {
    const threshold = this.#config.deletionThreshold;
    return entries.filter((e) => !isProtected(e, this.#config) && this.effective(e, now) < threshold);
  }
}

/** Tolerance of the step comparisons: five steps of 0.01 reach 0.05 despite binary fractions. */
const EPSILON = 1e-9;

function round9(x: number): number {
  return Math.round(x * 1e9) / 1e9;
}

/** `x` rounded to a multiple of `quantum` (unchanged when `quantum` is 0). */
export function quantize(x: number, quantum: number): number {
  return quantum > 0 ? round9(Math.round(x / quantum) * quantum) : x;
}
