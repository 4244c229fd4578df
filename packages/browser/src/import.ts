import { buildExport, validateExport, type MemoryManager, type ZerdaExport } from '@zerda/core';
import { invalid, yieldToEventLoop } from '@zerda/core/adapter';
import type { SqliteStorage } from '@zerda/sqlite';

/** The bulk operations of `SqliteStorage` (and of `SharedSqliteStorage`, which forwards them). */
export type BulkStorage = Pick<
  SqliteStorage,
  | 'exportJson'
  | 'importJson'
  | 'createBackup'
  | 'listBackups'
  | 'restoreBackup'
  | 'deleteBackup'
  | 'changeEncryption'
  | 'listTenants'
  | 'stats'
>;

/** Entries per write during an import. */
const WRITE_BATCH = 100;

/** Progress of an import or restore. */
export interface ImportProgress {
  /** `writing`: storing entries and profiles; `embedding`: computing vectors for memories that lack them. */
  phase: 'writing' | 'embedding';
  done: number;
  total: number;
  /** Tenant being embedded (phase `embedding`). */
  tenantId?: string;
}

/** Options of `BrowserMemory.importJson`. */
export interface ImportOptions {
  /** Called as entries are stored and re-indexed. */
  onProgress?: (progress: ImportProgress) => void;
  /** Stops embedding between batches (rejects with `ABORTED`; what was written stays). */
  signal?: AbortSignal;
  /** `merge` (default) upserts; `replace` first removes everything. */
  mode?: 'merge' | 'replace';
}

/** What an import or restore did. */
export interface MemoryImportReport {
  /** Entries added or updated. */
  entries: number;
  profiles: number;
  /** Vectors taken from the export as they were. */
  vectors: number;
  /** Memories embedded after writing (those without a vector for the current model). */
  embedded: number;
  tenants: string[];
}

/**
 * Write an export (or, with `doc === null`, take what a restore already wrote), then embed every
 * memory that lacks a vector for the manager's model, tenant by tenant, with progress. The
 * document is validated whole before anything is written; a bad one changes nothing. Writes go
 * in batches of 100 entries with a yield to the event loop in between.
 */
export async function importIntoMemory(
  manager: MemoryManager,
  sqlite: BulkStorage,
  doc: unknown,
  options: ImportOptions = {},
): Promise<MemoryImportReport> {
  if (typeof options !== 'object' || options === null) invalid('options', 'an object', options);
  const { onProgress, signal, mode = 'merge' } = options;
  if (onProgress !== undefined && typeof onProgress !== 'function') invalid('onProgress', 'a function', onProgress);
  let entries = 0;
  let profiles = 0;
  let vectors = 0;
  let tenants: string[];
  if (doc !== null) {
    const parsed = (typeof doc === 'string' ? JSON.parse(doc) : doc) as ZerdaExport;
    const valid = validateExport(parsed);
    const total = valid.entries.length;
    onProgress?.({ phase: 'writing', done: 0, total });
    await manager.flush();
    // Written in batches (one log record each) so no single task blocks the page for long. Every
    // batch is an upsert by id, so re-running an import that failed midway completes it.
    const batches = Math.max(1, Math.ceil(total / WRITE_BATCH));
    for (let b = 0; b < batches; b++) {
      const last = b === batches - 1;
      const part = buildExport({
        exportedAt: parsed.exportedAt,
        entries: valid.entries.slice(b * WRITE_BATCH, (b + 1) * WRITE_BATCH),
        profiles: b === 0 ? valid.profiles : [],
        // A tenant-limited export must stay limited: without its list, `replace` would clear every tenant.
        ...(valid.tenants ? { tenants: valid.tenants } : {}),
        ...(last && parsed.vectors ? { vectors: valid.vectors } : {}),
      });
      const result = await sqlite.importJson(part, { mode: b === 0 ? mode : 'merge' });
      entries += result.added + result.updated;
      profiles += result.profiles;
      vectors += result.vectors;
      onProgress?.({ phase: 'writing', done: Math.min(total, (b + 1) * WRITE_BATCH), total });
      if (!last) await yieldToEventLoop();
    }
    tenants =
      mode === 'replace' && !valid.tenants
        ? await sqlite.listTenants()
        : [...new Set([...valid.entries, ...valid.profiles].map((x) => x.tenantId))];
  } else {
    tenants = await sqlite.listTenants();
    entries = (await sqlite.stats()).entries;
  }
  let embedded = 0;
  if (manager.embedder) {
    for (const tenantId of tenants) {
      // reindex reloads the tenant's vectors from storage first (the cached index predates the import).
      const report = await manager.reindex(tenantId, {
        ...(signal ? { signal } : {}),
        onProgress: (done, total) => onProgress?.({ phase: 'embedding', done, total, tenantId }),
      });
      embedded += report.embedded;
    }
  }
  return { entries, profiles, vectors, embedded, tenants };
}
