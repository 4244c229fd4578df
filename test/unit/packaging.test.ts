/**
 * Every package as it would be published: packed with pnpm (which rewrites `workspace:*`), then
 * linted by publint (strict: warnings fail) and checked by Are the Types Wrong (ESM-only profile:
 * the packages ship no CommonJS, so `require` from node10/node16-CJS is out of scope). Needs the
 * built `dist/` folders (`pnpm run build`; the test command builds first).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core';

const ROOT = resolve(import.meta.dirname, '../..');
const PACKAGES = (await readdir(join(ROOT, 'packages')))
  .filter((p) => existsSync(join(ROOT, 'packages', p, 'package.json')))
  .sort();
const run = promisify(execFile);

let outDir: string;
const tarballs = new Map<string, Uint8Array>();

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'zerda-pack-'));
  // One pnpm process packs every package (`-r pack`), far faster than one per package.
  await run('npx', ['-y', 'pnpm@10.34.9', '-r', '--filter', './packages/*', 'pack', '--pack-destination', outDir], {
    cwd: ROOT,
    maxBuffer: 1 << 24,
  });
  const files = await readdir(outDir);
  for (const name of PACKAGES) {
    const file = files.find((f) => f.startsWith(`zerda-${name}-`) && f.endsWith('.tgz'));
    if (file) tarballs.set(name, new Uint8Array(await readFile(join(outDir, file))));
  }
}, 120_000);

afterAll(async () => {
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

describe.each(PACKAGES)('@zerda/%s as published', (name) => {
  test('publint finds nothing (strict)', async () => {
    const tarball = tarballs.get(name);
    expect(tarball, `no tarball for ${name}`).toBeDefined();
    const { messages, pkg } = await publint({
      pack: { tarball: tarball!.slice().buffer },
      strict: true,
      level: 'suggestion',
    });
    expect(messages.map((m) => `${m.type}: ${formatMessage(m, pkg) ?? m.code}`)).toEqual([]);
  });

  test('Are the Types Wrong finds nothing (ESM-only)', async () => {
    const result = await checkPackage(createPackageFromTarballData(tarballs.get(name)!));
    expect(result.types, 'the package ships its own types').not.toBe(false);
    const problems = 'problems' in result ? result.problems : [];
    const relevant = problems.filter(
      (p) => !('resolutionKind' in p) || (p.resolutionKind !== 'node10' && p.resolutionKind !== 'node16-cjs'),
    );
    expect(relevant.map((p) => JSON.stringify(p))).toEqual([]);
  });
});
