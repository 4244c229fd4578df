import { spawnSync } from 'node:child_process';
import { readdir, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isZerdaError } from '@zerda/core';
import { createEntry } from '@zerda/core/adapter';
import { FilePersistence } from './file-persistence.js';
import { SqliteStorage } from './sqlite-storage.js';
import { useTempDirs } from '../test/temp-dirs.js';
import { spawnSource } from '../../../test/support/source-process.ts';

// Faults that need real processes: several processes starting together against a stale lock, and
// a process killed at each step of changeEncryption.

const tempDir = useTempDirs('proc');

function child(script: string, args: string[]) {
  return spawnSource(`packages/sqlite/test/${script}`, args);
}

/** A pid that is certainly not running: a process that has exited. */
function deadPid(): number {
  return Number(
    spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    }).stdout.trim(),
  );
}

interface Contender {
  lines: string[];
  opened: boolean;
  exited: Promise<void>;
  settled: Promise<void>;
  release(): void;
}

function contend(dir: string, label: string): Contender {
  const c = child('lock-contender.ts', [dir, label]);
  const lines: string[] = [];
  let buf = '';
  let err = '';
  let settle!: () => void;
  const settled = new Promise<void>((r) => (settle = r));
  const out: Contender = { lines, opened: false, exited: undefined as never, settled, release: () => c.stdin.end() };
  c.stderr.on('data', (d: Buffer) => (err += d.toString()));
  c.stdout.on('data', (d: Buffer) => {
    buf += d.toString();
    const parts = buf.split('\n');
    buf = parts.pop()!;
    for (const l of parts) {
      lines.push(l);
      if (l.startsWith('OPEN')) out.opened = true;
      if (l === 'READY' || l.startsWith('ERR')) settle();
    }
  });
  out.exited = new Promise((done, fail) =>
    c.on('exit', (code) => {
      settle();
      if (code === 0) done();
      else fail(new Error(`contender ${label} exited with ${code}: ${err}`));
    }),
  );
  return out;
}

describe('several processes starting together against a stale lock (defect 3)', () => {
  const ROUNDS = 3;
  const PROCESSES = 4;
  const stale: [string, (dir: string) => Promise<void>][] = [
    [
      'a format-2 lock of a dead process',
      async (d) =>
        writeFile(join(d, 'lock.1'), JSON.stringify({ pid: deadPid(), host: hostname(), token: 'x', since: 1 })),
    ],
    ['a format-1 lock file holding a dead pid', async (d) => writeFile(join(d, 'lock'), String(deadPid()))],
    ['an empty format-1 lock file', async (d) => writeFile(join(d, 'lock'), '')],
  ];
  it(`exactly one opens, the others get CONFLICT naming it, no acknowledged write is lost (${ROUNDS} rounds × ${PROCESSES} processes)`, async () => {
    const dir = await tempDir();
    const s = await SqliteStorage.open({ persistence: new FilePersistence({ dir }) });
    await s.put(createEntry('race', { content: { title: 'race', text: 'seed' } }, 1));
    await s.close();
    const acked: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const [, makeStale] = stale[round % stale.length]!;
      await makeStale(dir);
      const all = Array.from({ length: PROCESSES }, (_, i) => contend(dir, `r${round}p${i}`));
      await Promise.all(all.map((c) => c.settled));
      const winners = all.filter((c) => c.opened);
      const losers = all.filter((c) => !c.opened);
      expect(
        winners,
        `round ${round}: ${JSON.stringify(all.map((c) => c.lines.filter((l) => !l.startsWith('ACK'))))}`,
      ).toHaveLength(1);
      const holder = winners[0]!.lines.find((l) => l.startsWith('OPEN'))!.split(' ')[1];
      for (const l of losers) {
        const errLine = l.lines.find((x) => x.startsWith('ERR'))!;
        expect(errLine).toMatch(/^ERR CONFLICT /);
        expect(errLine).toContain(`pid ${holder}`);
      }
      acked.push(...winners[0]!.lines.filter((l) => l.startsWith('ACK')).map((l) => l.slice(4)));
      for (const c of all) c.release();
      await Promise.all(all.map((c) => c.exited));
    }
    const again = await SqliteStorage.open({ persistence: new FilePersistence({ dir }) });
    const stored = new Set((await again.query({ tenantId: 'race' })).map((e) => e.id));
    expect(acked.filter((id) => !stored.has(id))).toEqual([]);
    expect(stored.size).toBe(1 + 10 * ROUNDS);
    await again.close();
    expect((await readdir(dir)).filter((n) => n.startsWith('lock'))).toEqual([]);
  }, 180_000);

  it('a live holder in another process is named in the CONFLICT of a second opener', async () => {
    const dir = await tempDir();
    const holder = contend(dir, 'holder');
    await holder.settled;
    const pid = holder.lines.find((l) => l.startsWith('OPEN'))!.split(' ')[1];
    const err = await SqliteStorage.open({ persistence: new FilePersistence({ dir }) }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isZerdaError(err, 'CONFLICT'), String(err)).toBe(true);
    expect((err as Error).message).toContain(`pid ${pid}`);
    holder.release();
    await holder.exited;
  }, 60_000);
});

describe('a process killed during changeEncryption (FilePersistence)', () => {
  const PASS = 'new secret';
  const steps = [
    'stage main',
    'stage vectors',
    'commit',
    'move backups/',
    'move main.base',
    'move main.log',
    'move vectors.base',
    'move vectors.log',
    'move meta',
    'cleanup',
  ];
  it(`at any step: the database opens with exactly one of the two keys, with everything in it (${steps.length} crash points)`, async () => {
    const template = await tempDir();
    const s = await SqliteStorage.open({
      persistence: new FilePersistence({ dir: template }),
      backups: { enabled: false },
    });
    const entries = Array.from({ length: 6 }, (_, i) =>
      createEntry('t1', { content: { title: 'n', text: `memory ${i}` } }, 1_700_000_000_000 + i),
    );
    await s.putMany(entries.slice(0, 3));
    await s.putVectors('t1', { id: 'vm', dim: 2 }, [{ id: entries[0]!.id, vector: new Float32Array([1, 2]) }]);
    await s.compact();
    const backup = await s.createBackup();
    for (const e of entries.slice(3)) await s.put(e);
    await s.close();
    for (const step of steps) {
      const dir = await tempDir();
      await rm(dir, { recursive: true });
      spawnSync('cp', ['-r', template, dir]);
      const c = child('reencrypt-crasher.ts', [dir, step.endsWith('/') ? `${step}${backup.id}.bak` : step, PASS]);
      const signal = await new Promise<string | null>((r) => c.on('exit', (_code, sig) => r(sig)));
      expect(signal, `killed before "${step}"`).toBe('SIGKILL');
      const plain = await SqliteStorage.open({ persistence: new FilePersistence({ dir }) }).then(
        (x) => x,
        (e: unknown) => e,
      );
      let opened: SqliteStorage;
      if (plain instanceof SqliteStorage) {
        // Killed before the commit: the old (plain) database, untouched.
        expect(steps.indexOf(step), `"${step}" opens without a key`).toBeLessThanOrEqual(steps.indexOf('commit'));
        opened = plain;
      } else {
        expect(isZerdaError(plain, 'DECRYPTION'), `"${step}": ${String(plain)}`).toBe(true);
        expect(steps.indexOf(step)).toBeGreaterThan(steps.indexOf('commit'));
        opened = await SqliteStorage.open({
          persistence: new FilePersistence({ dir }),
          encryption: { passphrase: PASS, iterations: 1000, allowWeakIterations: true },
        });
      }
      expect((await opened.query({ tenantId: 't1' })).map((e) => e.id).sort(), step).toEqual(
        entries.map((e) => e.id).sort(),
      );
      expect((await opened.loadVectors('t1', 'vm'))?.ids, step).toEqual([entries[0]!.id]);
      expect((await opened.restoreBackup(backup.id)).added, step).toBe(3);
      await opened.close();
      expect(
        (await readdir(dir)).filter((n) => n.startsWith('replace') || n.startsWith('.replace')),
        step,
      ).toEqual([]);
    }
  }, 180_000);
});
