import { copyFile, mkdir, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { BackupManager, type BackupSource } from './backups.js';
import { buildSqliteCopy } from './sqlite-export.js';
import { buildExport, InMemoryStorage, isZerdaError, ZerdaError, type Clock, type StorageAdapter } from '@zerda/core';

/** An opened storage plus what the server needs to back it up and report on it. */
export interface StorageHandle {
  readonly storage: StorageAdapter;
  /** `sqlite` (durable, files under `location`), `memory` (lost on exit) or `postgres` (shared database). */
  readonly kind: 'sqlite' | 'memory' | 'postgres';
  /** Folder holding the database files, or the database URL (password hidden), when durable. */
  readonly location: string | undefined;
  /** What a backup of `tenantId` is made of. */
  backupSource(tenantId: string): BackupSource;
  /** Bytes the database takes on disk (0 when in memory). */
  sizeOnDisk(): Promise<number>;
  /** Of those, the bytes of the vector store (0 when it has no files of its own). */
  vectorBytes?(): Promise<number>;
}

/** Options of {@link openStorage}. */
export interface OpenStorageOptions {
  /** Folder for the database files (`<dataDir>/memory_db`). */
  dbDir: string;
  clock: Clock;
  /** `memory`: keep nothing on disk (tests, throwaway sessions); `postgres`: `databaseUrl`. Default `sqlite`. */
  kind?: 'sqlite' | 'memory' | 'postgres';
  /** PostgreSQL URL for `kind: 'postgres'`. */
  databaseUrl?: string;
  /** The owner role's URL for `kind: 'postgres'`: migrates the schema (see `PostgresStorage.open`). */
  databaseOwnerUrl?: string | undefined;
}

/**
 * Open the server's storage: `SqliteStorage` (sql.js) persisted by `FilePersistence` in `dbDir`
 * (an fsynced append-only log plus snapshots; the folder is locked to one process). The
 * storage's own backups are off: the server writes its backups under `memory_backups/`.
 */
export async function openStorage(options: OpenStorageOptions): Promise<StorageHandle> {
  const { dbDir, clock } = options;
  if (options.kind === 'memory') {
    const storage = new InMemoryStorage();
    return {
      storage,
      kind: 'memory',
      location: undefined,
      backupSource: (tenantId) => backupOf(storage, tenantId, clock, () => jsonExport(storage, tenantId, clock())),
      sizeOnDisk: async () => 0,
    };
  }
  if (options.kind === 'postgres') {
    // Several servers may share the database (each with its own ZERDA_DATA_DIR for backups).
    const { PostgresStorage } = await import('@zerda/postgres');
    if (!options.databaseUrl)
      throw new ZerdaError('VALIDATION', 'ZERDA_DATABASE_URL is required for PostgreSQL storage');
    const storage = await PostgresStorage.open({
      connectionString: options.databaseUrl,
      ...(options.databaseOwnerUrl ? { ownerConnectionString: options.databaseOwnerUrl } : {}),
      clock,
    });
    return {
      storage,
      kind: 'postgres',
      location: options.databaseUrl.replace(/:[^:@/]*@/, ':***@'),
      backupSource: (tenantId) => backupOf(storage, tenantId, clock, () => ownExport(storage, tenantId)),
      sizeOnDisk: async () => (await storage.stats()).bytes ?? 0,
    };
  }
  const [{ SqliteStorage }, { FilePersistence }] = await Promise.all([
    import('@zerda/sqlite'),
    import('@zerda/sqlite/node'),
  ]);
  const persistence = new FilePersistence({ dir: dbDir });
  const storage = await SqliteStorage.open({ persistence, clock, backups: { enabled: false } }).catch(
    (err: unknown) => {
      // The lock holds only a pid: a folder copied from a running server, or a lock left by a crash
      // whose pid now belongs to another process, looks exactly like a second server.
      if (!isZerdaError(err, 'CONFLICT')) throw err;
      throw new ZerdaError(
        'CONFLICT',
        `${err.message}. Only one server may use a data directory at a time: close the other app or server using it, ` +
          `or give each one its own ZERDA_DATA_DIR. If none is running (the folder was copied from a running server, ` +
          `or the lock outlived a crash), delete the lock file named above (${join(dbDir, 'lock.<n>')}) and start again.`,
        { cause: err },
      );
    },
  );
  return {
    storage,
    kind: 'sqlite',
    location: dbDir,
    backupSource: (tenantId) => ({
      ...backupOf(storage, tenantId, clock, () => ownExport(storage, tenantId)),
      files: async (target: string) => {
        await mkdir(target, { recursive: true });
        for (const name of await ownFiles(dbDir)) await copyFile(join(dbDir, name), join(target, name));
      },
    }),
    sizeOnDisk: async () => {
      let total = 0;
      for (const name of await ownFiles(dbDir)) total += (await stat(join(dbDir, name))).size;
      return total;
    },
    vectorBytes: async () => {
      let total = 0;
      for (const name of await ownFiles(dbDir))
        if (name.startsWith('vectors.')) total += (await stat(join(dbDir, name))).size;
      return total;
    },
  };
}

/** A backup of one tenant from any storage: a SQLite copy of its entries, `json` and its fingerprint. */
function backupOf(storage: StorageAdapter, tenantId: string, clock: Clock, json: () => Promise<string>): BackupSource {
  return {
    sqlite: async () => buildSqliteCopy(await allEntries(storage, tenantId), clock()),
    json,
    fingerprint: async () => fingerprint(storage, tenantId),
  };
}

/** The storage's own JSON export of one tenant (without vectors), as a backup's JSON. */
async function ownExport(
  storage: { exportJson(options: { tenantId: string; includeVectors: boolean }): Promise<unknown> },
  tenantId: string,
): Promise<string> {
  return JSON.stringify(await storage.exportJson({ tenantId, includeVectors: false }), null, 1);
}

async function allEntries(storage: StorageAdapter, tenantId: string) {
  return storage.query({ tenantId, orderBy: 'createdAt', order: 'asc' });
}

/** A `zerda-export` JSON document (core's {@link buildExport}) of one tenant's memories and profiles. */
export async function jsonExport(storage: StorageAdapter, tenantId: string, now: number): Promise<string> {
  const entries = await allEntries(storage, tenantId);
  const profiles = await storage.listProfiles(tenantId);
  return JSON.stringify(buildExport({ exportedAt: now, tenants: [tenantId], entries, profiles }), null, 1);
}

/** SHA-256 of a tenant's entries (ids, versions, content): changes whenever a memory does. */
export async function fingerprint(storage: StorageAdapter, tenantId: string): Promise<string> {
  return BackupManager.hash(JSON.stringify(await allEntries(storage, tenantId)));
}

/**
 * The database's own files in `dir` (`meta`, `main.*`, `vectors.*`): not the lock, not the
 * storage's internal backups, and not files of other tools sharing the folder (the Python tool's
 * `memories.db` and `chroma_db/`).
 */
async function ownFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile() && /^(meta|main\.[a-z]+|vectors\.[a-z]+)$/.test(e.name)).map((e) => e.name);
}
