import type { Clock } from '../model/clock.js';
import { systemClock } from '../model/clock.js';
import { invalid } from '../model/errors.js';

/** Options of {@link BackupSchedule}. A trigger set to 0 (the default) never fires. */
export interface BackupScheduleOptions {
  /** Due once this many new memories were written since the last backup. */
  everyNewEntries?: number;
  /** Due once this long has passed since the last backup, if anything changed since. */
  intervalMs?: number;
  /** Source of time. Default `Date.now`. */
  clock?: Clock;
}

/** Where a {@link BackupSchedule} starts from (after opening, or after a restore). */
export interface BackupScheduleState {
  /**
   * Where the interval runs from: the last backup's time (without one, for instance the oldest
   * memory). Omitted: from the first change noted.
   */
  since?: number;
  /** New memories written since then. Default 0. */
  newEntries?: number;
  /** Whether anything changed since then. Default: `newEntries > 0`. */
  changed?: boolean;
}

/** Why a backup is due. */
export type BackupTrigger = 'count' | 'interval';

/**
 * The automatic-backup policy, in one place (SQLite's automatic backups and the MCP server use
 * it): a backup is due after `everyNewEntries` new memories, or once `intervalMs` has passed since
 * the last backup and something changed. The schedule only decides; the caller writes the backup
 * and reports it with {@link backedUp}.
 *
 * Robust to clocks that jump: when the clock reads earlier than the start of the interval (the
 * clock was set back, or the last backup was stamped by a clock running ahead), the interval
 * restarts from now instead of waiting for the clock to catch up; a jump forward makes at most one
 * backup due, and the interval restarts from that backup.
 *
 * ```ts
 * const schedule = new BackupSchedule({ everyNewEntries: 100, intervalMs: 86_400_000 });
 * schedule.start({ since: lastBackup?.createdAt, newEntries: countSince(lastBackup) });
 * // after each write:
 * schedule.noteChange(added);
 * if (schedule.due()) { await writeBackup(); schedule.backedUp(); }
 * ```
 */
export class BackupSchedule {
  readonly everyNewEntries: number;
  readonly intervalMs: number;
  readonly #clock: Clock;
  #since: number | undefined;
  #newEntries = 0;
  #changed = false;

  constructor(options: BackupScheduleOptions = {}) {
    if (typeof options !== 'object' || options === null) invalid('options', 'an object', options);
    this.everyNewEntries = count('everyNewEntries', options.everyNewEntries ?? 0);
    const interval = options.intervalMs ?? 0;
    if (typeof interval !== 'number' || !Number.isFinite(interval) || interval < 0)
      invalid('intervalMs', 'a finite number of milliseconds >= 0', interval);
    this.intervalMs = interval;
    if (options.clock !== undefined && typeof options.clock !== 'function')
      invalid('clock', 'a function returning epoch milliseconds', options.clock);
    this.#clock = options.clock ?? systemClock;
  }

  /** Start (or restart) from a known state. */
  start(state: BackupScheduleState = {}): void {
    if (state.since !== undefined && !Number.isFinite(state.since))
      invalid('state.since', 'epoch milliseconds', state.since);
    this.#since = state.since;
    this.#newEntries = count('state.newEntries', state.newEntries ?? 0);
    this.#changed = state.changed ?? this.#newEntries > 0;
  }

  /** Note a write: `newEntries` memories added (0 for an update or a delete, which still counts as a change). */
  noteChange(newEntries = 0): void {
    this.#newEntries += count('newEntries', newEntries);
    this.#changed = true;
    this.#since ??= this.#clock();
  }

  /** Whether a backup is due now, and why. */
  due(): BackupTrigger | undefined {
    if (this.everyNewEntries > 0 && this.#newEntries >= this.everyNewEntries) return 'count';
    if (this.intervalMs <= 0 || !this.#changed || this.#since === undefined) return undefined;
    const now = this.#clock();
    // The clock went back (or the last backup came from a clock running ahead): restart the
    // interval from now rather than wait until the clock catches up.
    if (now < this.#since) this.#since = now;
    return now - this.#since >= this.intervalMs ? 'interval' : undefined;
  }

  /** Record a backup written at `at` (default now): counts reset, the interval restarts. */
  backedUp(at: number = this.#clock()): void {
    this.#since = Math.min(at, this.#clock());
    this.#newEntries = 0;
    this.#changed = false;
  }

  /** New memories since the last backup. */
  get newEntries(): number {
    return this.#newEntries;
  }

  /** Whether anything changed since the last backup. */
  get changed(): boolean {
    return this.#changed;
  }
}

function count(field: string, v: unknown): number {
  if (!Number.isInteger(v) || (v as number) < 0) invalid(field, 'an integer >= 0', v);
  return v as number;
}
