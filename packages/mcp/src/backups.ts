import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Clock, ZerdaError } from '@zerda/core';

/** What a backup is made of. */
export interface BackupSource {
  /** The SQLite database file, or `undefined` when the storage is not SQLite. */
  sqlite(): Promise<Uint8Array | undefined>;
  /** A JSON export of every memory (text). */
  json(): Promise<string>;
  /**
   * Copy the database's own files into `target` (a folder to create), when the storage has any.
   * Such a copy reopens as-is: point the server's `memory_db/` at it.
   */
  files?(target: string): Promise<void>;
  /** A digest of the stored memories (not of the export time), to tell whether anything changed. */
  fingerprint(): Promise<string>;
}

/** Why a backup was made. */
export type BackupReason = 'manual' | 'interval' | 'count';

/** One backup folder, as described by its `manifest.json`. */
export interface BackupInfo {
  /** Folder name (`backup_2025-03-01T14-30-00-000Z`). */
  name: string;
  /** Absolute folder path. */
  path: string;
  /** Epoch ms (server clock). */
  createdAt: number;
  reason: BackupReason;
  /** Memories in the backup. */
  memories: number;
  /** Files in the folder (besides the manifest). */
  files: string[];
  /** Total bytes of those files. */
  bytes: number;
  /** {@link BackupSource.fingerprint} at backup time, to tell whether anything changed since. */
  fingerprint: string;
}

/** Constructor options of {@link BackupManager}. */
export interface BackupManagerOptions {
  /** Folder holding the backup folders (`<dataDir>/memory_backups`). */
  dir: string;
  /** Backups kept by rotation, newest first. */
  keep: number;
  clock: Clock;
}

/** File names inside a backup folder. */
export const BACKUP_FILES = Object.freeze({
  sqlite: 'memories.db',
  json: 'memories.json',
  manifest: 'manifest.json',
  database: 'memory_db',
});

const PREFIX = 'backup_';
const TMP_PREFIX = '.tmp-';

/**
 * Timestamped backup folders with rotation. Each folder holds `memories.db` (the memories as a
 * standalone SQLite database, openable with any SQLite tool), `memories.json` (a JSON export that
 * `SqliteStorage.importJson` reads back), `memory_db/` (a copy of the live database files, which
 * reopen as they are) and `manifest.json`. A folder is written under a temporary name and renamed when complete, so a
 * crash never leaves a half-written backup that looks finished.
 */
export class BackupManager {
  readonly dir: string;
  readonly keep: number;
  readonly #clock: Clock;

  constructor(options: BackupManagerOptions) {
    this.dir = options.dir;
    this.keep = options.keep;
    this.#clock = options.clock;
  }

  /** SHA-256 (hex) of a text. */
  static hash(text: string): string {
    return createHash('sha256').update(text).digest('hex');
  }

  /** Write a new backup, then rotate. Resolves to the new backup's info. */
  async create(source: BackupSource, reason: BackupReason, memories: number): Promise<BackupInfo> {
    const createdAt = this.#clock();
    await mkdir(this.dir, { recursive: true });
    const name = await this.#freeName(createdAt);
    const tmp = join(this.dir, `${TMP_PREFIX}${name}`);
    const final = join(this.dir, name);
    try {
      await rm(tmp, { recursive: true, force: true });
      await mkdir(tmp);
      const files: string[] = [];
      let bytes = 0;
      const db = await source.sqlite();
      if (db) {
        await writeFile(join(tmp, BACKUP_FILES.sqlite), db);
        files.push(BACKUP_FILES.sqlite);
        bytes += db.byteLength;
      }
      if (source.files) {
        const target = join(tmp, BACKUP_FILES.database);
        await source.files(target);
        files.push(BACKUP_FILES.database);
        bytes += await folderSize(target);
      }
      const json = await source.json();
      await writeFile(join(tmp, BACKUP_FILES.json), json);
      files.push(BACKUP_FILES.json);
      bytes += Buffer.byteLength(json);
      const fingerprint = await source.fingerprint();
      const info: BackupInfo = { name, path: final, createdAt, reason, memories, files, bytes, fingerprint };
      const manifest = {
        format: 'zerda-mcp-backup',
        version: 1,
        created_at: new Date(createdAt).toISOString(),
        created_at_ms: createdAt,
        reason,
        memories,
        files,
        bytes,
        fingerprint,
      };
      await writeFile(join(tmp, BACKUP_FILES.manifest), JSON.stringify(manifest, null, 2));
      await rename(tmp, final);
      await this.rotate();
      return info;
    } catch (cause) {
      await rm(tmp, { recursive: true, force: true }).catch(() => undefined);
      throw cause instanceof ZerdaError
        ? cause
        : new ZerdaError('STORAGE', `Backup failed: ${(cause as Error).message}`, { cause });
    }
  }

  /** Complete backups, oldest first. Folders without a readable manifest are ignored. */
  async list(): Promise<BackupInfo[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    const infos: BackupInfo[] = [];
    for (const name of names) {
      if (!name.startsWith(PREFIX)) continue;
      const path = join(this.dir, name);
      try {
        const m = JSON.parse(await readFile(join(path, BACKUP_FILES.manifest), 'utf8')) as Record<string, unknown>;
        if (m.format !== 'zerda-mcp-backup' || typeof m.created_at_ms !== 'number') continue;
        infos.push({
          name,
          path,
          createdAt: m.created_at_ms,
          reason: (m.reason as BackupReason) ?? 'manual',
          memories: typeof m.memories === 'number' ? m.memories : 0,
          files: Array.isArray(m.files) ? (m.files as string[]) : [],
          bytes: typeof m.bytes === 'number' ? m.bytes : 0,
          fingerprint: typeof m.fingerprint === 'string' ? m.fingerprint : '',
        });
      } catch {
        // Not one of ours, or unreadable: rotation leaves it alone.
      }
    }
    return infos.sort((a, b) => a.createdAt - b.createdAt || suffix(a.name) - suffix(b.name));
  }

  /** The newest complete backup, if any. */
  async latest(): Promise<BackupInfo | undefined> {
    return (await this.list()).at(-1);
  }

  /** Delete all but the newest `keep` backups and any leftover temporary folder. Resolves to the names deleted. */
  async rotate(): Promise<string[]> {
    const all = await this.list();
    const doomed = all.slice(0, Math.max(0, all.length - this.keep));
    for (const b of doomed) await rm(b.path, { recursive: true, force: true });
    for (const name of await readdir(this.dir).catch(() => [] as string[])) {
      if (name.startsWith(TMP_PREFIX)) await rm(join(this.dir, name), { recursive: true, force: true });
    }
    return doomed.map((b) => b.name);
  }

  /** A fresh name; same-millisecond names get a suffix above every existing one, so order holds. */
  async #freeName(t: number): Promise<string> {
    const stamp = `${PREFIX}${new Date(t).toISOString().replace(/[:.]/g, '-')}`;
    const taken = (await readdir(this.dir)).filter((n) => n === stamp || n.startsWith(`${stamp}_`));
    if (!taken.length) return stamp;
    return `${stamp}_${Math.max(...taken.map(suffix)) + 1}`;
  }
}

/** The `_N` suffix of a name made in the same millisecond as another (1 for none). */
function suffix(name: string): number {
  const m = /_(\d+)$/.exec(name.slice(PREFIX.length));
  return m ? Number(m[1]) : 1;
}

async function folderSize(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? await folderSize(path) : (await stat(path)).size;
  }
  return total;
}
