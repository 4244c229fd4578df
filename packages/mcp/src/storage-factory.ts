import { InMemoryStorage, type Clock, type StorageAdapter } from './zerda-core.js';
import { BackupManager, type BackupSource } from './backups.js';

/** An opened storage plus what the server needs to back it up and report on it. */
export interface StorageHandle {
  readonly storage: StorageAdapter;
  /** `sqlite` (durable, files under `location`) or `memory` (lost on exit). */
  readonly kind: 'sqlite' | 'memory';
  /** Folder holding the database files, when durable. */
  readonly location: string | undefined;
  /** What a backup of `tenantId` is made of. */
  backupSource(tenantId: string): BackupSource;
  /** Bytes the database takes on disk (0 when in memory). */
  sizeOnDisk(): Promise<number>;
}

/** Options of {@link openStorage}. */
export interface OpenStorageOptions {
  /** Folder for the database files (`<dataDir>/memory_db`). */
  dbDir: string;
  clock: Clock;
  /** `memory`: keep nothing on disk (tests). Default `sqlite`. */
  kind?: 'sqlite' | 'memory';
}

/** Open the server's storage. */
export async function openStorage(options: OpenStorageOptions): Promise<StorageHandle> {
  const storage = new InMemoryStorage();
  return {
    storage,
    kind: 'memory',
    location: undefined,
    backupSource: (tenantId) => ({
      sqlite: async () => undefined,
      json: async () => jsonExport(storage, tenantId, options.clock()),
      fingerprint: async () => fingerprint(storage, tenantId),
    }),
    sizeOnDisk: async () => 0,
  };
}

/** A `zerda-export` (version 1) JSON document of one tenant's memories and profiles. */
export async function jsonExport(storage: StorageAdapter, tenantId: string, now: number): Promise<string> {
  const entries = await storage.query({ tenantId, orderBy: 'createdAt', order: 'asc' });
  const profiles = await storage.listProfiles(tenantId);
  return JSON.stringify({ format: 'zerda-export', version: 1, exportedAt: now, tenants: [tenantId], entries, profiles }, null, 1);
}

/** SHA-256 of a tenant's entries (ids, versions, content): changes whenever a memory does. */
export async function fingerprint(storage: StorageAdapter, tenantId: string): Promise<string> {
  const entries = await storage.query({ tenantId, orderBy: 'createdAt', order: 'asc' });
  return BackupManager.hash(JSON.stringify(entries));
}
