import { describe, expect, it } from 'vitest';
import { isZerdaError } from '../model/errors.js';
import { BackupSchedule } from './backup-schedule.js';

const H = 3_600_000;
const T0 = 1_700_000_000_000;

function clocked() {
  let now = T0;
  return { clock: () => now, set: (t: number) => (now = t) };
}

describe('BackupSchedule', () => {
  it('is due after everyNewEntries new memories, counting from the last backup', () => {
    const c = clocked();
    const s = new BackupSchedule({ everyNewEntries: 3, intervalMs: 24 * H, clock: c.clock });
    s.start({ since: T0, newEntries: 1 });
    s.noteChange(1);
    expect(s.due()).toBeUndefined();
    s.noteChange(1);
    expect(s.due()).toBe('count');
    s.backedUp();
    expect(s.due()).toBeUndefined();
    expect(s.newEntries).toBe(0);
  });

  it('is due once the interval passed and something changed (an update counts), not before', () => {
    const c = clocked();
    const s = new BackupSchedule({ everyNewEntries: 100, intervalMs: 24 * H, clock: c.clock });
    s.start({ since: T0 });
    c.set(T0 + 30 * H);
    expect(s.due()).toBeUndefined();
    s.noteChange(0);
    expect(s.due()).toBe('interval');
    s.backedUp();
    s.noteChange(0);
    c.set(T0 + 53 * H);
    expect(s.due()).toBeUndefined();
    c.set(T0 + 54 * H);
    expect(s.due()).toBe('interval');
  });

  it('restarts the interval when the clock goes back (a backup stamped in the future does not stop backups)', () => {
    const c = clocked();
    const s = new BackupSchedule({ everyNewEntries: 100, intervalMs: 24 * H, clock: c.clock });
    // The last backup was written by a clock running 30 days ahead.
    s.start({ since: T0 + 30 * 24 * H });
    s.noteChange(1);
    expect(s.due()).toBeUndefined();
    c.set(T0 + 23 * H);
    expect(s.due()).toBeUndefined();
    c.set(T0 + 24 * H);
    expect(s.due()).toBe('interval');
    s.backedUp();
    // Set back again after a backup: the next one still comes one interval later.
    c.set(T0 + 2 * H);
    s.noteChange(1);
    expect(s.due()).toBeUndefined();
    c.set(T0 + 26 * H);
    expect(s.due()).toBe('interval');
  });

  it('a jump forward makes one backup due, and the interval restarts from it', () => {
    const c = clocked();
    const s = new BackupSchedule({ intervalMs: 24 * H, clock: c.clock });
    s.start({ since: T0 });
    s.noteChange(1);
    c.set(T0 + 365 * 24 * H);
    expect(s.due()).toBe('interval');
    s.backedUp();
    s.noteChange(1);
    expect(s.due()).toBeUndefined();
  });

  it('without a start time the interval runs from the first change; 0 turns a trigger off', () => {
    const c = clocked();
    const s = new BackupSchedule({ intervalMs: 24 * H, clock: c.clock });
    s.start({});
    c.set(T0 + 100 * H);
    expect(s.due()).toBeUndefined();
    s.noteChange(5);
    expect(s.due()).toBeUndefined();
    c.set(T0 + 124 * H);
    expect(s.due()).toBe('interval');
    const off = new BackupSchedule({ clock: c.clock });
    off.start({ since: T0 });
    off.noteChange(1_000_000);
    c.set(T0 + 10_000 * H);
    expect(off.due()).toBeUndefined();
  });

  it('rejects bad options with VALIDATION', () => {
    for (const bad of [{ everyNewEntries: -1 }, { everyNewEntries: 1.5 }, { intervalMs: Number.NaN }, { clock: 5 }]) {
      let err: unknown;
      try {
        new BackupSchedule(bad as never);
      } catch (e) {
        err = e;
      }
      expect(isZerdaError(err, 'VALIDATION'), JSON.stringify(bad)).toBe(true);
    }
  });
});
