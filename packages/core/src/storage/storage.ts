import type { MemoryEntry, Tier, UserProfile } from '../model/types.js';
import type { ApplyReport, SyncChange, SyncState } from '../sync/change-log.js';

/**
 * Filter shared by queries, counts and lexical search. All fields are optional and combine with
 * AND. Every query is scoped to exactly one tenant.
 */
export interface MemoryFilter {
  tenantId: string;
  /** Only these ids. */
  ids?: string[];
  tiers?: Tier[];
  kinds?: string[];
  /** Entries carrying these tags (`tagMode` 'any', the default, or 'all'). Exact, case-sensitive match. */
  tags?: string[];
  tagMode?: 'any' | 'all';
  userId?: string;
  /** Inclusive lower bound on `createdAt` (epoch ms). */
  createdFrom?: number;
  /** Inclusive upper bound on `createdAt` (epoch ms). */
  createdTo?: number;
  /** Minimum *base* importance (inclusive). */
  minImportance?: number;
  /** Maximum *base* importance (exclusive). */
  maxImportance?: number;
  /** Case-insensitive substring over the entry's text (title/text or input/output). */
  text?: string;
}

/** Query = filter + order + page. */
export interface MemoryQuery extends MemoryFilter {
  orderBy?: 'createdAt' | 'lastAccess' | 'importance';
  /** Default 'desc'. Ties break by `id` ascending so results are deterministic. */
  order?: 'asc' | 'desc';
  limit?: number;
  offset?: number;
}

/** A lexical hit with its BM25 score (higher is better). */
export interface LexicalHit {
  id: string;
  score: number;
}

/** Lexical search request. `query` is free text; the adapter tokenises it its own way. */
export interface LexicalQuery {
  tenantId: string;
  query: string;
  limit: number;
  filter?: Omit<MemoryFilter, 'tenantId'>;
}

/** Identifies the embedding space a vector belongs to. */
export interface VectorModel {
  /** Model id (e.g. `use-lite`, `Xenova/all-MiniLM-L6-v2`, `hash-256`). */
  id: string;
  dim: number;
}

/** One stored vector. */
export interface VectorRecord {
  id: string;
  vector: Float32Array;
}

/** All vectors of a tenant for one model, packed row-major: row i is `ids[i]`. */
export interface VectorBlock {
  model: VectorModel;
  ids: string[];
  /** `ids.length * model.dim` floats. */
  data: Float32Array;
}

/** Storage statistics for a tenant (or all tenants). */
export interface StorageStats {
  entries: number;
  byTier: Record<string, number>;
  byKind: Record<string, number>;
  profiles: number;
  vectors: number;
  /** Approximate bytes used, when the adapter can tell. */
  bytes?: number;
}

/**
 * The storage seam. Implementations: `InMemoryStorage` (core), `SqliteStorage` (@zerda/sqlite).
 * Every argument and result is plain structured-clonable data, so an adapter can live in a worker.
 *
 * Rules every implementation keeps (checked by `runStorageConformance` in `@zerda/core/testing`):
 * 1. Identity is `(tenantId, id)`. Two tenants may hold the same id independently; no call for one
 *    tenant reads, changes or counts another tenant's data.
 * 2. `put` and `putMany` are upserts that replace the *whole* entry (content included). `putMany` is
 *    all-or-nothing: if any entry is rejected, none is written.
 * 3. Reads have no side effects: `get`, `query`, `count`, `lexicalSearch` never change `lastAccess`,
 *    `accessCount` or anything else.
 * 4. Returned objects are copies: mutating them does not change stored data, and mutating an object
 *    after passing it to `put` does not either.
 * 5. A write resolves only once it is durable for that adapter (in memory for `InMemoryStorage`,
 *    persisted for a persistent adapter). A rejected write changes nothing.
 * 6. Query ordering is deterministic: by the requested field, ties by `id` ascending. Without
 *    `orderBy`, order is `createdAt` desc.
 * 7. Deleting an entry also deletes its vectors. `clearTenant` removes the tenant's entries,
 *    vectors and profiles, and nothing of other tenants.
 * 8. Vectors are kept per model id; `loadVectors` only returns vectors of the requested model, and
 *    `putVectors` rejects a vector whose length differs from `model.dim` (`VALIDATION`). Vectors come
 *    back as put, unless the adapter was asked to keep them at a reduced `VectorPrecision`
 *    (opt-in, e.g. `SqliteStorage`'s `vectorPrecision: 'int8'`): then `loadVectors` returns the
 *    stored approximation, the same values before and after reopening.
 * 9. After `close()`, every call rejects with `CLOSED`; `close()` itself is idempotent (closing
 *    again resolves and does nothing).
 * 10. Change log (for `@zerda/sync`): every acknowledged write and delete of an entry or a profile
 *    (`put`, `putMany`, `delete`, `deleteMany`, `putProfile`, `clearTenant`; never vectors) updates
 *    that entity's change row in the same transaction as the change, so a crash never keeps one
 *    without the other. The row is pending until `markPushed`; `applyChanges` merges records of
 *    other devices by core's `mergeChange` and stores the cursor in the same transaction; applying
 *    a record twice changes nothing. Rows are per tenant like everything else. Entities without a
 *    row (a store older than the change log, an import) get one before the tenant's first sync
 *    call or write after open (`BaseStorage`'s `backfillChanges`), once.
 * Errors are `ZerdaError`s: `VALIDATION` for bad input, `STORAGE`/`QUOTA_EXCEEDED` for failures.
 */
export interface StorageAdapter {
  /** Human-readable adapter name (for stats). */
  readonly name: string;
  /**
   * Stores shared by several contexts only (`SharedSqliteStorage`: the tabs of one profile):
   * false while another context owns the store and executes this one's calls. Absent or true
   * elsewhere. `@zerda/sync` syncs only where it is not false, so one tab syncs a shared store.
   */
  readonly isOwner?: boolean;

  /** Upsert one entry: validated, the whole stored entry (content included) replaced. */
  put(entry: MemoryEntry): Promise<void>;
  /** Upsert many entries, all or nothing: every entry is validated before any is written. */
  putMany(entries: MemoryEntry[]): Promise<void>;
  /** A copy of the entry, or `undefined`. No side effects. */
  get(tenantId: string, id: string): Promise<MemoryEntry | undefined>;
  /** Copies of the entries found, in the order of `ids` (missing ones skipped, an id given twice once). */
  getMany(tenantId: string, ids: string[]): Promise<MemoryEntry[]>;
  /** Delete one entry and its vectors. Resolves true when it existed. */
  delete(tenantId: string, id: string): Promise<boolean>;
  /** Delete entries and their vectors. Resolves to how many existed (an id given twice counts once). */
  deleteMany(tenantId: string, ids: string[]): Promise<number>;
  /** Filtered, ordered (by `orderBy`, ties by id ascending; default `createdAt` desc), paged copies. */
  query(query: MemoryQuery): Promise<MemoryEntry[]>;
  /** Number of entries matching the filter. */
  count(filter: MemoryFilter): Promise<number>;
  /** BM25-ranked lexical search over the tenant's entry text, best first; the filter applies before ranking. */
  lexicalSearch(query: LexicalQuery): Promise<LexicalHit[]>;

  /**
   * Store vectors of one model, all or nothing; each must have `model.dim` finite floats
   * (`VALIDATION` otherwise), and the last record of an id wins.
   */
  putVectors(tenantId: string, model: VectorModel, records: VectorRecord[]): Promise<void>;
  /** Every vector of the tenant for `modelId`, packed, ids ascending; `undefined` when there is none. */
  loadVectors(tenantId: string, modelId: string): Promise<VectorBlock | undefined>;
  /** Model ids with stored vectors for the tenant. */
  vectorModels(tenantId: string): Promise<VectorModel[]>;
  /** Delete vectors of the given model (or all models when omitted). Resolves to rows deleted. */
  deleteVectors(tenantId: string, modelId?: string): Promise<number>;

  /** A copy of the user's profile, or `undefined`. */
  getProfile(tenantId: string, userId: string): Promise<UserProfile | undefined>;
  /** Upsert a profile (validated; the whole stored profile replaced). */
  putProfile(profile: UserProfile): Promise<void>;
  /** The tenant's profiles, by `userId` ascending. */
  listProfiles(tenantId: string): Promise<UserProfile[]>;

  /** Remove everything of the tenant. Resolves to the number of entries removed. */
  clearTenant(tenantId: string): Promise<number>;
  /** Tenant ids that hold any entry or profile. */
  listTenants(): Promise<string[]>;
  /** Counts (entries by tier and kind, vectors, profiles) for one tenant, or for all when omitted. */
  stats(tenantId?: string): Promise<StorageStats>;

  /** Sync: this store's device id, the tenant's last applied server cursor and its pending changes. */
  syncState(tenantId: string): Promise<SyncState>;
  /** Sync: up to `limit` pending changes of the tenant, oldest first, each with its data. */
  pendingChanges(tenantId: string, limit: number): Promise<SyncChange[]>;
  /** Sync: the server holds these records; resolves to how many of them were still pending here. */
  markPushed(tenantId: string, recordIds: string[]): Promise<number>;
  /**
   * Sync: apply records written on other devices (checked first; one bad record rejects the batch
   * with `VALIDATION` and changes nothing), merged by the rules of `mergeChange`, all or nothing,
   * and store `cursor` (when given) in the same transaction.
   */
  applyChanges(tenantId: string, changes: SyncChange[], cursor?: string): Promise<ApplyReport>;
  /** Flush and release the store. Every later call rejects with `CLOSED`; closing again resolves and does nothing. */
  close(): Promise<void>;
}

/**
 * The change-log part of a {@link StorageAdapter}: what `@zerda/sync` reads and writes, and whether
 * this context owns the store (`isOwner`, see {@link StorageAdapter.isOwner}).
 */
export type SyncTarget = Pick<
  StorageAdapter,
  'syncState' | 'pendingChanges' | 'markPushed' | 'applyChanges' | 'isOwner'
>;
