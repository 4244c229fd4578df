import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FilePersistence } from './file-persistence.js';
import { SqliteStorage } from './sqlite-storage.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** Run the burst writer in a child process, SIGKILL it after `acks` acknowledged writes, return the acked ids. */
function burst(dir: string, acks: number, passphrase?: string): Promise<string[]> {
  return new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      [
        '--conditions=@zerda/source',
        '--import',
        'tsx',
        join(ROOT, 'packages/sqlite/test/burst-writer.ts'),
        dir,
        ...(passphrase ? [passphrase] : []),
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const ids: string[] = [];
    let buf = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const lines = buf.split('\n');
      buf = lines.pop()!;
      ids.push(...lines);
      if (ids.length >= acks) child.kill('SIGKILL');
    });
    child.on('exit', (_code, signal) =>
      signal === 'SIGKILL' ? done(ids) : fail(new Error(`writer exited early: ${err}`)),
    );
  });
}

describe('a process killed mid-burst (FilePersistence)', () => {
  for (const passphrase of [undefined, 'pw']) {
    it(`keeps every acknowledged write${passphrase ? ' (encrypted)' : ''}`, async () => {
      const dir = await mkdtemp(join(tmpdir(), 'zerda-kill-'));
      dirs.push(dir);
      const first = await burst(dir, 120, passphrase);
      const second = await burst(dir, 80, passphrase);
      const s = await SqliteStorage.open({
        persistence: new FilePersistence({ dir }),
        ...(passphrase ? { encryption: { passphrase, iterations: 1000, allowWeakIterations: true } } : {}),
      });
      const stored = new Set((await s.query({ tenantId: 'burst' })).map((e) => e.id));
      expect([...first, ...second].filter((id) => !stored.has(id))).toEqual([]);
      expect(stored.size).toBeGreaterThanOrEqual(200);
      expect((await s.loadVectors('burst', 'm'))?.ids.length).toBeGreaterThan(0);
      await s.close();
    }, 120_000);
  }
});
