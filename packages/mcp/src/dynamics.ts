import { effectiveImportance, isProtected, type MemoryConfig, type MemoryEntry } from '@zerda/core';
import { round } from './args.js';

/**
 * Decay settings of the tool set this server replaces (importance on its 1..10 scale divided by
 * 10): half-lives per memory type in days and per-type floors. Merged into Zerda's configuration
 * by {@link mcpMemoryConfig}.
 */
export const MCP_HALF_LIFE_DAYS: Readonly<Record<string, number>> = Object.freeze({
  conversation: 45,
  fact: 120,
  preference: 90,
  event: 60,
  task: 30,
  ephemeral: 10,
});

/** Decay floors per type on Zerda's 0..1 scale (2 = 0.2 on the tool scale, and so on). */
export const MCP_DECAY_FLOORS: Readonly<Record<string, number>> = Object.freeze({
  conversation: 0.2,
  fact: 0.3,
  preference: 0.2,
  event: 0.1,
  task: 0.1,
  ephemeral: 0.1,
});

/** Half-life of types not listed in {@link MCP_HALF_LIFE_DAYS}. */
export const MCP_DEFAULT_HALF_LIFE_DAYS = 60;

/** The `MemoryConfig` overrides the server creates its manager with. */
export function mcpMemoryConfig(): Partial<MemoryConfig> {
  return {
    halfLifeDays: { ...MCP_HALF_LIFE_DAYS },
    decayFloors: { ...MCP_DECAY_FLOORS },
    baseDecayRate: Math.LN2 / MCP_DEFAULT_HALF_LIFE_DAYS,
    minImportance: 0.1,
    deletionThreshold: 0.05,
    protectedTags: ['core', 'identity', 'pinned'],
  };
}

/** Tunables of {@link MemoryDynamics}, on the tool's 1..10 scale. */
export interface DynamicsOptions {
  /** Importance added per recall (accumulated in memory). Default 0.1. */
  recallStep?: number;
  /** Accumulated reinforcement is written once it reaches this. Default 0.5. */
  writebackStep?: number;
  /** Decay is written back only when it lowered importance by at least this. Default 0.5. */
  decayWritebackStep?: number;
  /** ... and no sooner than this long after the memory's last write-back or recall. Default 12 h. */
  decayMinIntervalMs?: number;
  /** Importance never rises above this. Default 10. */
  cap?: number;
}

interface Pending {
  accum: number;
  recalls: number;
}

/**
 * The memory dynamics users of the original tool set expect, on top of Zerda's lazy decay:
 *
 * - **Decay** is derived on every access (`effectiveImportance`: exponential half-life per type,
 *   per-type floors, protected tags `core`/`identity`/`pinned` never decay). It is written back
 *   only when meaningful: at least {@link DynamicsOptions.decayWritebackStep} lower and at least
 *   12 h after the previous anchor. Writing it back sets base importance to the decayed value and
 *   re-anchors `lastAccess`, which leaves the curve unchanged (exponential decay is memoryless).
 * - **Reinforcement**: each recall adds {@link DynamicsOptions.recallStep} to an in-process
 *   accumulator; once it reaches {@link DynamicsOptions.writebackStep} the memory is written with
 *   `effective + accumulated` (capped at 10), `lastAccess = now` and its access count. Fewer writes,
 *   same trend; an accumulator below one step is lost on restart (at most four recalls' worth).
 */
export class MemoryDynamics {
  readonly #config: MemoryConfig;
  readonly #recallStep: number;
  readonly #writebackStep: number;
  readonly #decayStep: number;
  readonly #decayInterval: number;
  readonly #cap: number;
  readonly #pending = new Map<string, Pending>();

  /** @param config the manager's resolved configuration (half-lives, floors, protected tags). */
  constructor(config: MemoryConfig, options: DynamicsOptions = {}) {
    this.#config = config;
    this.#recallStep = options.recallStep ?? 0.1;
    this.#writebackStep = options.writebackStep ?? 0.5;
    this.#decayStep = options.decayWritebackStep ?? 0.5;
    this.#decayInterval = options.decayMinIntervalMs ?? 12 * 3_600_000;
    this.#cap = options.cap ?? 10;
  }

  /** Effective importance on the 1..10 scale at `now` (unrounded). */
  effective(entry: MemoryEntry, now: number): number {
    return effectiveImportance(entry, now, this.#config) * 10;
  }

  /** True when the entry carries a protected tag. */
  isProtected(entry: MemoryEntry): boolean {
    return isProtected(entry, this.#config);
  }

  /** Reinforcement accumulated for `id` and not yet written (1..10 scale). */
  pending(id: string): number {
    return round(this.#pending.get(id)?.accum ?? 0, 4);
  }

  /** Number of memories with unwritten reinforcement. */
  get pendingCount(): number {
    return this.#pending.size;
  }

  /** Drop unwritten reinforcement of a memory (after it was updated or deleted). */
  forget(id: string): void {
    this.#pending.delete(id);
  }

  /**
   * Register one recall of each entry. Returns the copies that must be written now (their
   * accumulator reached a step); the others only accumulated.
   */
  reinforce(entries: readonly MemoryEntry[], now: number): MemoryEntry[] {
    const writes: MemoryEntry[] = [];
    for (const entry of entries) {
      const p = this.#pending.get(entry.id) ?? { accum: 0, recalls: 0 };
      p.accum = round(p.accum + this.#recallStep, 6);
      p.recalls += 1;
      if (p.accum + 1e-9 < this.#writebackStep) {
        this.#pending.set(entry.id, p);
        continue;
      }
      this.#pending.delete(entry.id);
      const effective = this.effective(entry, now);
      const raised = Math.min(this.#cap, effective + p.accum);
      const base = round(raised / 10, 4);
      const decayed = entry.importance * 10 - effective > 1e-6;
      if (Math.abs(base - entry.importance) < 1e-9 && !decayed) continue;
      writes.push({
        ...structuredClone(entry),
        importance: base,
        lastAccess: Math.max(entry.lastAccess, now),
        accessCount: entry.accessCount + p.recalls,
        version: entry.version + 1,
      });
    }
    return writes;
  }

  /** Copies of the entries whose decay is worth writing back now (see the class comment). */
  decayWritebacks(entries: readonly MemoryEntry[], now: number): MemoryEntry[] {
    const writes: MemoryEntry[] = [];
    for (const entry of entries) {
      if (this.isProtected(entry) || now - entry.lastAccess < this.#decayInterval) continue;
      const effective = this.effective(entry, now);
      if (entry.importance * 10 - effective + 1e-9 < this.#decayStep) continue;
      writes.push({
        ...structuredClone(entry),
        importance: round(effective / 10, 4),
        lastAccess: now,
        version: entry.version + 1,
      });
    }
    return writes;
  }
}
