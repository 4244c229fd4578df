import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * Test helper: returns a function that makes a fresh temporary directory (`zerda-<prefix>-…`) per
 * call; every directory it made is removed after the file's tests (registers an `afterAll`).
 */
export function useTempDirs(prefix: string): () => Promise<string> {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });
  return async () => {
    const d = await mkdtemp(join(tmpdir(), `zerda-${prefix}-`));
    dirs.push(d);
    return d;
  };
}
