import { describe, expect, it } from 'vitest';
import { FilePersistence } from './file-persistence.js';
import { SqliteStorage } from './sqlite-storage.js';
import { useTempDirs } from '../test/temp-dirs.js';
import { spawnSource } from '../../../test/support/source-process.ts';

const tempDir = useTempDirs('kill');

/** Run the burst writer in a child process, SIGKILL it after `acks` acknowledged writes, return the acked ids. */
function burst(dir: string, acks: number, passphrase?: string): Promise<string[]> {
  return new Promise((done, fail) => {
    const child = spawnSource('packages/sqlite/test/burst-writer.ts', passphrase ? [dir, passphrase] : [dir]);
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
      const dir = await tempDir();
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
