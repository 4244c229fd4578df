import { type ChildProcessWithoutNullStreams, spawn, type SpawnOptionsWithoutStdio } from 'node:child_process';
import { join, resolve } from 'node:path';

// Child processes for the tests and benchmarks that need real ones (kill tests, several writers,
// the MCP server over stdio): a TypeScript file of this repository, run by Node through tsx with
// the workspace packages resolved to their sources, as the tests see them (no build needed).

/** The repository root. */
export const REPO_ROOT = resolve(import.meta.dirname, '../..');

/** Node's arguments that run `file` (relative to the repository root) from source. */
export function sourceArgs(file: string): string[] {
  return ['--conditions=@zerda/source', '--import', 'tsx', join(REPO_ROOT, file)];
}

/** Spawn `file` (relative to the repository root) from source with `args`, in the root, all three streams piped. */
export function spawnSource(
  file: string,
  args: readonly string[] = [],
  options: SpawnOptionsWithoutStdio = {},
): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [...sourceArgs(file), ...args], { cwd: REPO_ROOT, ...options });
}
