import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { open, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isZerdaError } from '@zerda/core';
import { createEntry } from '@zerda/core/adapter';
import type { MemoryEntry } from '@zerda/core';
import { FilePersistence } from './file-persistence.js';
import { SqliteStorage } from './sqlite-storage.js';

// Disk-full faults on a real filesystem: a 2 MiB tmpfs mounted for the test (needs root, as the
// test command has in CI). Where it cannot be mounted the suite is skipped and its title says why.

const T0 = 1_700_000_000_000;
const SIZE = '2m';

function probeTmpfs(): { mount?: string; reason?: string } {
  if (process.platform !== 'linux') return { reason: 'tmpfs mounts need Linux' };
  if (process.getuid?.() !== 0) return { reason: 'mounting a tmpfs needs root (the test command runs as root in CI)' };
  const mount = mkdtempSync(join(tmpdir(), 'zerda-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${SIZE}`, 'tmpfs', mount], { stdio: 'pipe' });
    return { mount };
  } catch (e) {
    rmSync(mount, { recursive: true, force: true });
    return { reason: `mount -t tmpfs failed (${String((e as Error).message).split('\n')[0]})` };
  }
}

const probe = probeTmpfs();
const title = `disk full on a real ${SIZE} tmpfs${probe.reason ? ` — SKIPPED: ${probe.reason}` : ''}`;
if (probe.reason) console.warn(`[disk-full.test] ${title}`);

afterAll(() => {
  if (!probe.mount) return;
  try {
    execFileSync('umount', [probe.mount], { stdio: 'pipe' });
  } catch {
    // Still busy (a handle a failed test left open): detach it now, it goes when released.
    execFileSync('umount', ['-l', probe.mount], { stdio: 'pipe' });
  } finally {
    rmSync(probe.mount, { recursive: true, force: true });
  }
});

/** A memory of about `size` bytes of text. */
function memory(i: number, size = 900): MemoryEntry {
  return createEntry(
    't1',
    { content: { title: `note ${i}`, text: `memory ${i} `.padEnd(size, 'abcdefghij ') } },
    T0 + i,
  );
}

/** Fill the filesystem with a filler file, then free `leave` bytes of it. */
async function fill(dir: string, leave: number): Promise<void> {
  const fh = await open(join(dir, 'filler'), 'w');
  const chunk = new Uint8Array(64 * 1024);
  let size = 0;
  try {
    for (;;) {
      const { bytesWritten } = await fh.write(chunk, 0, chunk.length, size);
      size += bytesWritten;
      if (bytesWritten < chunk.length) break;
    }
  } catch (e) {
    if ((e as { code?: string }).code !== 'ENOSPC') throw e;
  }
  await fh.truncate(Math.max(0, size - leave));
  await fh.close();
}

async function tempFiles(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).filter((n) => String(n).includes('.tmp-'));
}

describe.skipIf(probe.mount === undefined)(title, () => {
  let dir: string;
  let n = 0;

  async function fresh(): Promise<string> {
    dir = join(probe.mount!, `db-${n++}`);
    await rm(join(probe.mount!, 'filler'), { force: true });
    for (const old of await readdir(probe.mount!)) await rm(join(probe.mount!, old), { recursive: true, force: true });
    return dir;
  }

  /** A store on `dir`, compacting after exactly `maxLogRecords` log records, without automatic backups. */
  const open = (dir: string, maxLogRecords = 100_000) =>
    SqliteStorage.open({
      persistence: new FilePersistence({ dir }),
      backups: { enabled: false },
      compaction: { maxLogRecords, logToSnapshot: 0 },
    });

  /** Close `s`, free the disk again and reopen its directory. */
  async function reopen(s: SqliteStorage, dir: string): Promise<SqliteStorage> {
    await s.close();
    await rm(join(probe.mount!, 'filler'));
    return SqliteStorage.open({ persistence: new FilePersistence({ dir }) });
  }

  const sortedIds = async (s: SqliteStorage) => (await s.query({ tenantId: 't1' })).map((e) => e.id).sort();

  it('compaction that does not fit fails with QUOTA_EXCEEDED (defect 1): no short snapshot renamed into place, no temp file left, every write kept', async () => {
    const d = await fresh();
    const s = await open(d);
    const written: MemoryEntry[] = [];
    for (let i = 0; i < 150; i++) {
      written.push(memory(i));
      await s.put(written.at(-1)!);
    }
    await s.compact();
    const baseBefore = (await stat(join(d, 'main.base'))).size;
    for (let i = 150; i < 160; i++) {
      written.push(memory(i, 200));
      await s.put(written.at(-1)!);
    }
    // Room for the log, not for a second copy of the snapshot.
    await fill(probe.mount!, Math.floor(baseBefore / 2));
    const err = await s.compact().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isZerdaError(err, 'QUOTA_EXCEEDED'), String(err)).toBe(true);
    expect((await stat(join(d, 'main.base'))).size).toBe(baseBefore);
    expect(await tempFiles(d)).toEqual([]);
    // Still consistent and readable.
    expect(await s.count({ tenantId: 't1' })).toBe(160);
    const again = await reopen(s, d);
    expect(again.openReport.droppedLogRecords).toBe(0);
    expect(await sortedIds(again)).toEqual(written.map((e) => e.id).sort());
    await again.close();
  });

  it('a compaction failing after a write is reported in maintenanceError; the write itself stays acknowledged', async () => {
    const d = await fresh();
    const s = await open(d, 40);
    for (let i = 0; i < 39; i++) await s.put(memory(i));
    await s.compact();
    await fill(probe.mount!, 24 * 1024);
    // The 40th record triggers compaction; the snapshot (about 90 KB) does not fit in what is left.
    for (let i = 39; i < 79; i++) await s.put(memory(i, 100));
    expect(isZerdaError(s.maintenanceError, 'QUOTA_EXCEEDED'), String(s.maintenanceError)).toBe(true);
    expect(await tempFiles(d)).toEqual([]);
    const again = await reopen(s, d);
    expect(await again.count({ tenantId: 't1' })).toBe(79);
    await again.close();
  });

  it('an append that does not fit rejects with QUOTA_EXCEEDED and is undone (defect 2): every acknowledged write survives, no rejected one appears', async () => {
    const d = await fresh();
    const s = await open(d);
    const first = memory(0);
    await s.put(first);
    await fill(probe.mount!, 0);
    const acked: string[] = [first.id];
    const rejected: string[] = [];
    for (let i = 1; i < 40; i++) {
      const e = memory(i, 700);
      try {
        await s.put(e);
        acked.push(e.id);
      } catch (err) {
        expect(isZerdaError(err, 'QUOTA_EXCEEDED'), String(err)).toBe(true);
        rejected.push(e.id);
      }
    }
    expect(rejected.length).toBeGreaterThan(0);
    // Reads still work and show exactly what was acknowledged.
    expect(await sortedIds(s)).toEqual([...acked].sort());
    const again = await reopen(s, d);
    expect(again.openReport.droppedLogRecords).toBe(0);
    expect(await sortedIds(again)).toEqual([...acked].sort());
    await again.close();
  });
});
