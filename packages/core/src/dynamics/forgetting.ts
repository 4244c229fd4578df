import { systemClock } from '../model/clock.js';
import type { Clock } from '../model/clock.js';
import type { MemoryConfig } from '../model/config.js';
import { effectiveImportance, isProtected } from './decay.js';
import { reinforceEntry } from './reinforcement.js';
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
   * A recalled copy of `entry` (see {@link reinforceEntry}: with the default configuration, base
   * importance raised by `reinforcementStep` up to `reinforcementCap`, never lowered,
   * `lastAccess = now`, `accessCount + 1`, `version + 1`).
   */
  reinforce(entry: MemoryEntry, now: number = this.#clock()): MemoryEntry {
    return reinforceEntry(entry, now, this.#config);
  }

  /** Entries whose effective importance is below `deletionThreshold`, protected ones excluded. */
  selectForDeletion(entries: readonly MemoryEntry[], now: number = this.#clock()): MemoryEntry[] {
    const threshold = this.#config.deletionThreshold;
    return entries.filter((e) => !isProtected(e, this.#config) && this.effective(e, now) < threshold);
  }
}
