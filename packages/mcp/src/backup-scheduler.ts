import type { Clock } from '@zerda/core';
import { BackupSchedule } from '@zerda/core/adapter';
import type { BackupInfo, BackupManager, BackupReason, BackupSource } from './backups.js';

const HOUR_MS = 3_600_000;

/** Options of {@link AutoBackups}. */
export interface AutoBackupsOptions {
  backups: BackupManager;
  /** What a backup is made of (read when one is written). */
  source: () => BackupSource;
  /** Memories stored now, and those created after a time (epoch ms). */
  count: (createdFrom?: number) => Promise<number>;
  /** Creation time of the oldest memory, if any. */
  oldest: () => Promise<number | undefined>;
  /** Before a backup: wait for pending writes (vector indexing). */
  settle: () => Promise<void>;
  /** Automatic backup after this many new memories; 0: never. */
  everyNewEntries: number;
  /** Automatic backup after this many hours, when something changed; 0: never. */
  intervalHours: number;
  clock: Clock;
  /** Where each automatic backup and each failure is reported (a failure never throws into the caller). */
  log: (message: string) => void;
}

/**
 * The server's backups: manual ones, and automatic ones decided by core's {@link BackupSchedule}
 * (the one automatic-backup policy; SQLite's own scheduler is the same class). The schedule
 * starts from the newest backup folder (or the oldest memory), so a restart neither forgets a
 * due backup nor makes an extra one.
 */
export class AutoBackups {
  readonly #o: AutoBackupsOptions;
  readonly #schedule: BackupSchedule;
  #timer: NodeJS.Timeout | undefined;

  constructor(options: AutoBackupsOptions) {
    this.#o = options;
    this.#schedule = new BackupSchedule({
      everyNewEntries: options.everyNewEntries,
      intervalMs: options.intervalHours * HOUR_MS,
      clock: options.clock,
    });
  }

  /**
   * Take stock of the existing backups, make a backup now if one is due, and (with an interval)
   * check again every hour at most. `tick` runs a check in the caller's call order.
   */
  async start(tick: () => Promise<void>): Promise<void> {
    const last = await this.#o.backups.latest();
    if (last) {
      const fingerprint = await this.#o.source().fingerprint();
      this.#schedule.start({
        since: last.createdAt,
        newEntries: await this.#o.count(last.createdAt + 1),
        changed: fingerprint !== last.fingerprint,
      });
    } else {
      const total = await this.#o.count();
      const oldest = await this.#o.oldest();
      this.#schedule.start({
        ...(oldest !== undefined ? { since: oldest } : {}),
        newEntries: total,
        changed: total > 0,
      });
    }
    await this.maybeBackup();
    if (this.#o.intervalHours > 0) {
      this.#timer = setInterval(
        () => {
          tick().catch((err: unknown) => this.#o.log(`scheduled backup check failed: ${String(err)}`));
        },
        Math.min(this.#o.intervalHours * HOUR_MS, HOUR_MS),
      );
      this.#timer.unref();
    }
  }

  /** Note a change: `newEntries` memories added (0 for an update, a delete, a reinforcement). */
  noteChange(newEntries = 0): void {
    this.#schedule.noteChange(newEntries);
  }

  /** Write a backup when the schedule says one is due. A failure is logged, never thrown. */
  async maybeBackup(): Promise<void> {
    const due = this.#schedule.due();
    if (!due) return;
    try {
      const info = await this.backupNow(due);
      this.#o.log(`automatic backup (${due}): ${info.path}`);
    } catch (err) {
      // A failed automatic backup must not fail the tool call that triggered it; retried next time.
      this.#o.log(`automatic backup failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** Write a backup now (and rotate). */
  async backupNow(reason: BackupReason): Promise<BackupInfo> {
    await this.#o.settle();
    const info = await this.#o.backups.create(this.#o.source(), reason, await this.#o.count());
    this.#schedule.backedUp(info.createdAt);
    return info;
  }

  /** Stop the periodic check. */
  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
