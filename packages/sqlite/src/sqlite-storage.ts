import type { SqlValue } from 'sql.js';
import { ZerdaError, createCipher } from '@zerda/core';
import {
  BaseStorage,
  ENTRY_COLUMNS,
  checkKey,
  decodeVectorRowsInto,
  entryOrderSql,
  inIdOrder,
} from '@zerda/core/adapter';
import { isZerdaError, systemClock, validateExport } from '@zerda/core';
import { invalid } from '@zerda/core/adapter';
import type { LexicalHit, LexicalQuery, MemoryEntry, MemoryFilter, MemoryQuery, StorageStats } from '@zerda/core';
import type { UserProfile, VectorBlock, VectorModel, VectorRecord, ZerdaExport } from '@zerda/core';
import { reportOf, resolveChanges } from '@zerda/core/adapter';
import type { ApplyReport, SyncChange, SyncState } from '@zerda/core';
import type { ChangeRow, ChangeStamp } from '@zerda/core/adapter';
import { filterSql } from './filter-sql.js';
import { matchExpression, rankBm25 } from './lexical.js';
import type { Candidate } from './lexical.js';
import { checkMeta } from './meta.js';
import { loadDatabase } from './open.js';
import { autoBackupDefaults, checkOpenOptions, compactionDefaults } from './options.js';
import type { EncryptionOptions, ExportOptions, ImportReport, OpenReport, SqliteStorageOptions } from './options.js';
import { MemoryPersistence, guard, persistenceError } from './persistence.js';
import type { BackupInfo, Persistence } from './persistence.js';
import { LOG_COLUMNS, rowToChange, rowToEntry, transaction } from './sql-apply.js';
import type { LogStamp, MainOp, VecWrite } from './sql-apply.js';
import { tenantStats } from './schema.js';
import { Store } from './store.js';
import { Backups, exportDoc, importDoc, reEncrypt } from './transfer.js';
import type { TransferContext } from './transfer.js';
import { checkDim, ensureVectors } from './vectors.js';
import { onPageHidden } from './visibility.js';

// The adapter: SqliteStorage's public methods (argument checks, reads, and writes queued through
// the store). The other concerns live next to it: open.ts (open, replay, recovery), store.ts (log
// writes and compaction), vectors.ts (lazy vectors and repair), transfer.ts (export, import,
// backups, re-encryption), sql-apply.ts (what each record does to the database), meta.ts,
// options.ts and visibility.ts (the DOM hook).

const SLOW_REPLAY_MS = 250;

/**
 * A `StorageAdapter` on SQLite (sql.js, WASM) with optional durable persistence.
 *
 * - The database lives in memory; a {@link Persistence} driver keeps a snapshot plus an
 *   append-only log of logical mutations. A write resolves only after its log record is durable;
 *   then it is applied in memory (so a failed write changes nothing, and in-memory state always
 *   equals what was persisted).
 * - Vectors live in an attached in-memory database (`vec.vectors`) and their own record stream,
 *   loaded on first use, so snapshots, compaction and cold open scale with text only.
 * - Lexical search: FTS4 over core's `analyze` terms (as the in-memory index uses) with BM25
 *   computed from `matchinfo`.
 * - Extras beyond the adapter: {@link compact}, {@link createBackup}, {@link listBackups},
 *   {@link restoreBackup}, {@link deleteBackup}, {@link exportJson}, {@link importJson},
 *   {@link changeEncryption}, {@link openReport}.
 *
 * Create with {@link SqliteStorage.open} (or {@link createSqliteStorage}).
 */
export class SqliteStorage extends BaseStorage {
  /** @inheritdoc */
  readonly name = 'sqlite';
  /** What opening found (replayed and dropped log records, restores). */
  readonly openReport: OpenReport;

  readonly #s: Store;
  readonly #ctx: TransferContext;
  readonly #backups: Backups;
  readonly #clock: () => number;
  #maintenanceError: ZerdaError | undefined;
  #unwatch: (() => void) | undefined;
  #closing: Promise<void> | undefined;

  private constructor(s: Store, options: SqliteStorageOptions, report: OpenReport) {
    super();
    this.#s = s;
    this.openReport = report;
    this.#clock = options.clock ?? systemClock;
    this.#ctx = {
      store: s,
      clock: options.clock ?? systemClock,
      ensureVectors: () => this.#ensureVectors(),
      commit: (main, vec) => this.#commit(main, vec),
    };
    this.#backups = new Backups(this.#ctx, s.p ?? new MemoryPersistence(), autoBackupDefaults(options.backups));
  }

  /**
   * Open (or create) a database. With a `persistence` driver: reads the meta record (checking the
   * key first: a wrong passphrase fails with `DECRYPTION` before anything is written), loads the
   * snapshot, replays the log (a corrupt or torn tail is dropped and reported in
   * {@link openReport}). A corrupt snapshot fails with `STORAGE` unless `restoreFrom` is given.
   * The storage owns `persistence`: it is closed by {@link close}, and when opening fails.
   */
  static async open(options: SqliteStorageOptions = {}): Promise<SqliteStorage> {
    if (typeof options !== 'object' || options === null) invalid('options', 'an object', options);
    try {
      checkOpenOptions(options);
      return await SqliteStorage.#openWith(options);
    } catch (e) {
      // The storage owns its driver: release it (locks, handles) when opening fails.
      const p = options.persistence as Partial<Persistence> | undefined;
      if (typeof p?.close === 'function') await p.close().catch(() => undefined);
      throw e;
    }
  }

  static async #openWith(options: SqliteStorageOptions): Promise<SqliteStorage> {
    const cipher = options.encryption === undefined ? undefined : createCipher(options.encryption);
    const compaction = compactionDefaults(options.compaction);
    autoBackupDefaults(options.backups);
    const loaded = await loadDatabase(options, cipher);
    const p = options.persistence;
    const report = loaded.report;
    const vectorPrecision = options.vectorPrecision ?? 'float32';
    const store = new Store({ ...loaded, persistence: p, cipher, compaction, vectorPrecision });
    const storage = new SqliteStorage(store, options, report);
    await storage.#backups.init();
    if (loaded.restoreId !== undefined) {
      const restoreId = loaded.restoreId;
      const backups = await storage.listBackups();
      const id = restoreId === 'latest' ? backups.at(-1)?.id : restoreId;
      if (id === undefined || !backups.some((b) => b.id === id)) {
        storage.#release();
        throw new ZerdaError(
          'STORAGE',
          `The snapshot is corrupt and backup ${restoreId} does not exist; nothing was changed. Reopen with restoreFrom set to an existing backup id, ` +
            'or importJson() an export into a new database.',
        );
      }
      report.replayed = await storage.#restoreAtOpen(id, loaded.pending);
      report.restoredFrom = id;
    }
    if (p && compaction.onPageHidden)
      storage.#unwatch = onPageHidden(() => {
        if (!store.closed && store.logCount > 0)
          store
            .serial(() => store.compactMain())
            .catch((e: unknown) => {
              storage.#maintenanceError = persistenceError('compaction failed', e);
            });
      });
    // A long replay will be paid again by the next cold open: fold the log now, in the write
    // queue (close() and the first write wait for it; failures land in maintenanceError).
    if (p && (loaded.upgraded || (report.timings.replay > SLOW_REPLAY_MS && store.logCount > 0)))
      store
        .serial(() => store.compactMain(loaded.upgraded))
        .catch((e: unknown) => {
          storage.#maintenanceError = persistenceError('compaction after open failed', e);
        });
    return storage;
  }

  /**
   * Check that `encryption` fits the database behind `persistence` (right passphrase or key, or
   * none for a plain database) without loading or writing anything. Rejects with `DECRYPTION`.
   * Resolves for a database never written. The persistence is closed afterwards (reading may
   * have taken its lock), so the same instance can be passed to {@link SqliteStorage.open} next.
   */
  static async verifyKey(options: Pick<SqliteStorageOptions, 'persistence' | 'encryption'>): Promise<void> {
    const p = options.persistence;
    if (!p) return;
    try {
      const meta = await guard('read the database meta record', () => p.readMeta());
      if (meta) await checkMeta(meta, options.encryption === undefined ? undefined : createCipher(options.encryption));
    } finally {
      await p.close();
    }
  }

  // ---- StorageAdapter hooks (BaseStorage checks the arguments first) ------------------------------

  /** Upsert validated entries as one log record (all or nothing); resolves once durable. */
  protected override async writeEntries(entries: MemoryEntry[], stamp: ChangeStamp): Promise<void> {
    await this.#s.serial(() => this.#commit({ o: 'put', e: entries, st: logStamp(stamp) }, []));
  }

  /** A copy of the entry, or `undefined`. No side effects. */
  protected override async readEntry(tenantId: string, id: string): Promise<MemoryEntry | undefined> {
    const row = this.#s.rows(`SELECT ${ENTRY_COLUMNS} FROM entries e WHERE e.tenant_id = ? AND e.id = ?`, [
      tenantId,
      id,
    ])[0];
    return row ? rowToEntry(row) : undefined;
  }

  /** Copies of the entries found, in the order of `ids` (missing skipped, duplicates once). */
  protected override async readEntries(tenantId: string, ids: string[]): Promise<MemoryEntry[]> {
    const found = new Map<string, SqlValue[]>();
    for (const row of this.#s.rows(
      `SELECT ${ENTRY_COLUMNS} FROM entries e WHERE e.tenant_id = ? AND e.id IN (SELECT value FROM json_each(?))`,
      [tenantId, JSON.stringify(ids)],
    ))
      found.set(row[1] as string, row);
    return inIdOrder(ids, (id) => {
      const row = found.get(id);
      return row && rowToEntry(row);
    });
  }

  /** Delete entries and their vectors (one log record); resolves to how many existed. */
  protected override async deleteEntries(tenantId: string, ids: string[], stamp: ChangeStamp): Promise<number> {
    return this.#s.serial(async () => {
      const existing = this.#s
        .rows('SELECT id FROM entries WHERE tenant_id = ? AND id IN (SELECT value FROM json_each(?))', [
          tenantId,
          JSON.stringify(ids),
        ])
        .map((r) => r[0] as string);
      if (existing.length === 0) return 0;
      await this.#commit({ o: 'del', t: tenantId, ids: existing, st: logStamp(stamp) }, [
        { op: { o: 'vdel', t: tenantId, ids: existing } },
      ]);
      return existing.length;
    });
  }

  /** Filtered, ordered (ties by id ascending), paged copies. */
  protected override async queryEntries(query: MemoryQuery): Promise<MemoryEntry[]> {
    const { sql, params } = filterSql(query);
    const rows = this.#s.rows(
      `SELECT ${ENTRY_COLUMNS} FROM entries e WHERE e.tenant_id = ? AND ${sql} ORDER BY ${entryOrderSql(query)} LIMIT ? OFFSET ?`,
      [query.tenantId, ...params, query.limit ?? -1, query.offset ?? 0],
    );
    return rows.map(rowToEntry);
  }

  /** Number of entries matching the filter. */
  protected override async countEntries(filter: MemoryFilter): Promise<number> {
    const { sql, params } = filterSql(filter);
    return Number(
      this.#s.rows(`SELECT count(*) FROM entries e WHERE e.tenant_id = ? AND ${sql}`, [
        filter.tenantId,
        ...params,
      ])[0]![0],
    );
  }

  /** BM25 over FTS4 (core's analysed terms) with per-tenant statistics; the filter applies before ranking. */
  protected override async searchEntries(query: LexicalQuery): Promise<LexicalHit[]> {
    const match = matchExpression(query.query);
    if (!match || query.limit === 0) return [];
    const { sql, params } = filterSql(query.filter ?? {});
    // When the store holds this tenant alone, FTS4's table-wide document frequencies (matchinfo
    // 'x') are the tenant's, so only the rows the filter allows are read. Otherwise every tenant row
    // sharing a term is read, to count document frequency within the tenant.
    const alone = this.#onlyTenant(query.tenantId);
    const rows = this.#s.rows(
      // CROSS JOIN pins the FTS table as the outer loop; otherwise SQLite may scan the tenant's
      // rows and run one full-text lookup per row.
      alone
        ? `SELECT e.id, matchinfo(entries_fts, 'pcx'), e.doc_len, 1 FROM entries_fts
           CROSS JOIN entries e ON e.rid = entries_fts.docid
           WHERE entries_fts MATCH ? AND e.tenant_id = ? AND ${sql}`
        : `SELECT e.id, matchinfo(entries_fts, 'pcx'), e.doc_len, (${sql}) FROM entries_fts
           CROSS JOIN entries e ON e.rid = entries_fts.docid
           WHERE entries_fts MATCH ? AND e.tenant_id = ?`,
      alone ? [match.expr, query.tenantId, ...params] : [...params, match.expr, query.tenantId],
    );
    if (rows.length === 0) return [];
    const { n, totalLength } = tenantStats(this.#s, query.tenantId);
    const candidates: Candidate[] = rows.map((r) => ({
      id: r[0] as string,
      matchinfo: r[1] as Uint8Array,
      docLen: Number(r[2]),
      allowed: Number(r[3]) === 1,
    }));
    return rankBm25(candidates, n, n > 0 ? totalLength / n : 1, query.limit, alone ? 'table' : 'candidates');
  }

  /** Whether every entry in the store is `tenantId`'s (two index lookups). */
  #onlyTenant(tenantId: string): boolean {
    const [lo, hi] = this.#s.rows(
      'SELECT (SELECT min(tenant_id) FROM entries), (SELECT max(tenant_id) FROM entries)',
      [],
    )[0]!;
    return lo === tenantId && hi === tenantId;
  }

  /** Store vectors of one model, all or nothing; each must have `model.dim` finite floats. */
  protected override async writeVectors(tenantId: string, model: VectorModel, records: VectorRecord[]): Promise<void> {
    const ids = records.map((r) => r.id);
    const data = new Float32Array(ids.length * model.dim);
    records.forEach((r, i) => data.set(r.vector, i * model.dim));
    await this.#s.serial(async () => {
      await this.#ensureVectors();
      checkDim(this.#s, tenantId, model);
      await this.#commit(undefined, [this.#s.vectorPut(tenantId, model, ids, data)]);
    });
  }

  /** Every vector of the tenant for `modelId`, packed, ids ascending; `undefined` when none. */
  protected override async readVectors(tenantId: string, modelId: string): Promise<VectorBlock | undefined> {
    await this.#vectorsReady();
    const rows = this.#s.rows(
      'SELECT id, dim, data FROM vec.vectors WHERE tenant_id = ? AND model_id = ? ORDER BY id',
      [tenantId, modelId],
    );
    if (rows.length === 0) return undefined;
    const dim = Number(rows[0]![1]);
    const data = new Float32Array(rows.length * dim);
    const ids: string[] = [];
    rows.forEach((r, i) => {
      ids.push(r[0] as string);
      decodeVectorRowsInto(r[2] as Uint8Array, 1, dim, data, i * dim);
    });
    return { model: { id: modelId, dim }, ids, data };
  }

  /** Models holding at least one vector of the tenant, by id. */
  protected override async readVectorModels(tenantId: string): Promise<VectorModel[]> {
    await this.#vectorsReady();
    return this.#s
      .rows('SELECT model_id, min(dim) FROM vec.vectors WHERE tenant_id = ? GROUP BY model_id ORDER BY model_id', [
        tenantId,
      ])
      .map((r) => ({ id: r[0] as string, dim: Number(r[1]) }));
  }

  /** Delete the tenant's vectors of one model (or all); resolves to rows deleted. */
  protected override async deleteVectorRows(tenantId: string, modelId?: string): Promise<number> {
    return this.#s.serial(async () => {
      await this.#ensureVectors();
      const n = Number(
        this.#s.rows('SELECT count(*) FROM vec.vectors WHERE tenant_id = ? AND (? IS NULL OR model_id = ?)', [
          tenantId,
          modelId ?? null,
          modelId ?? null,
        ])[0]![0],
      );
      if (n === 0) return 0;
      await this.#commit(undefined, [
        { op: modelId === undefined ? { o: 'vdel', t: tenantId } : { o: 'vdel', t: tenantId, m: modelId } },
      ]);
      return n;
    });
  }

  /** A copy of the profile, or `undefined`. */
  protected override async readProfile(tenantId: string, userId: string): Promise<UserProfile | undefined> {
    const row = this.#s.rows('SELECT data FROM profiles WHERE tenant_id = ? AND user_id = ?', [tenantId, userId])[0];
    return row ? (JSON.parse(row[0] as string) as UserProfile) : undefined;
  }

  /** Upsert a profile (validated). Resolves once durable. */
  protected override async writeProfile(profile: UserProfile, stamp: ChangeStamp): Promise<void> {
    const p = profile;
    await this.#s.serial(() => this.#commit({ o: 'prof', p, st: logStamp(stamp) }, []));
  }

  /** The tenant's profiles by `userId` ascending. */
  protected override async readProfiles(tenantId: string): Promise<UserProfile[]> {
    return this.#s
      .rows('SELECT data FROM profiles WHERE tenant_id = ? ORDER BY user_id', [tenantId])
      .map((r) => JSON.parse(r[0] as string) as UserProfile);
  }

  /** Remove the tenant's entries, vectors and profiles; resolves to entries removed. */
  protected override async deleteTenant(tenantId: string, stamp: ChangeStamp): Promise<number> {
    return this.#s.serial(async () => {
      const n = Number(this.#s.rows('SELECT count(*) FROM entries WHERE tenant_id = ?', [tenantId])[0]![0]);
      await this.#commit({ o: 'clear', t: tenantId, st: logStamp(stamp) }, [{ op: { o: 'vdel', t: tenantId } }]);
      return n;
    });
  }

  /** Tenants holding an entry or a profile, sorted. */
  protected override async readTenants(): Promise<string[]> {
    return this.#s
      .rows('SELECT tenant_id FROM entries UNION SELECT tenant_id FROM profiles ORDER BY 1', [])
      .map((r) => r[0] as string);
  }

  /** Counts for one tenant or all; `bytes` is the size of the main database. */
  protected override async readStats(tenantId?: string): Promise<StorageStats> {
    await this.#vectorsReady();
    const where = tenantId === undefined ? '' : 'WHERE tenant_id = ?';
    const params = tenantId === undefined ? [] : [tenantId];
    const stats: StorageStats = { entries: 0, byTier: {}, byKind: {}, profiles: 0, vectors: 0 };
    for (const [tier, n] of this.#s.rows(`SELECT tier, count(*) FROM entries ${where} GROUP BY tier`, params)) {
      stats.byTier[tier as string] = Number(n);
      stats.entries += Number(n);
    }
    for (const [kind, n] of this.#s.rows(`SELECT kind, count(*) FROM entries ${where} GROUP BY kind`, params))
      stats.byKind[kind as string] = Number(n);
    stats.profiles = Number(this.#s.rows(`SELECT count(*) FROM profiles ${where}`, params)[0]![0]);
    stats.vectors = Number(this.#s.rows(`SELECT count(*) FROM vec.vectors ${where}`, params)[0]![0]);
    const pages = this.#s.db.exec('PRAGMA main.page_count; PRAGMA main.page_size');
    stats.bytes = Number(pages[0]?.values[0]?.[0] ?? 0) * Number(pages[1]?.values[0]?.[0] ?? 0);
    return stats;
  }

  protected override wallClock(): number {
    return this.#clock();
  }

  /** The stored device id (or a fresh one, stored with the first write) and the latest change timestamp. */
  protected override async readSyncIdentity(): Promise<{ deviceId: string; lastHlc: string | undefined }> {
    const device = this.#s.rows('SELECT device_id FROM sync_device WHERE one = 1', [])[0]?.[0];
    const last = this.#s.rows('SELECT max(hlc) FROM sync_log', [])[0]?.[0];
    return {
      deviceId: typeof device === 'string' ? device : globalThis.crypto.randomUUID(),
      lastHlc: typeof last === 'string' ? last : undefined,
    };
  }

  protected override async readSyncState(tenantId: string): Promise<Omit<SyncState, 'deviceId'>> {
    const cursor = this.#s.rows('SELECT cursor FROM sync_cursor WHERE tenant_id = ?', [tenantId])[0]?.[0];
    const pending = this.#s.rows('SELECT count(*) FROM sync_log WHERE tenant_id = ? AND pending = 1', [tenantId])[0]!;
    return { cursor: typeof cursor === 'string' ? cursor : undefined, pending: Number(pending[0]) };
  }

  /** Pending rows joined with their entry or profile, in one read (no write can come between). */
  protected override async readPendingChanges(tenantId: string, limit: number): Promise<SyncChange[]> {
    const rows = this.#s.rows(
      `SELECT ${LOG_COLUMNS.split(', ')
        .map((c) => `l.${c}`)
        .join(', ')}, ${ENTRY_COLUMNS}, p.data
       FROM sync_log l
       LEFT JOIN entries e ON l.kind = 'entry' AND l.op = 'put' AND e.tenant_id = l.tenant_id AND e.id = l.key
       LEFT JOIN profiles p ON l.kind = 'profile' AND l.op = 'put' AND p.tenant_id = l.tenant_id AND p.user_id = l.key
       WHERE l.tenant_id = ? AND l.pending = 1 ORDER BY l.seq LIMIT ?`,
      [tenantId, limit],
    );
    return rows.map((r) => {
      const { pending: _p, ...row } = rowToChange(r.slice(0, 10));
      const change: SyncChange = row;
      if (r[11] !== null) change.entry = rowToEntry(r.slice(10, 19));
      if (r[19] !== null) change.profile = JSON.parse(r[19] as string) as UserProfile;
      return change;
    });
  }

  protected override async writePushed(tenantId: string, recordIds: string[]): Promise<number> {
    return this.#s.serial(async () => {
      const n = Number(
        this.#s.rows(
          'SELECT count(*) FROM sync_log WHERE tenant_id = ? AND pending = 1 AND record_id IN (SELECT value FROM json_each(?))',
          [tenantId, JSON.stringify(recordIds)],
        )[0]![0],
      );
      if (n > 0) await this.#commit({ o: 'pushed', t: tenantId, r: recordIds }, []);
      return n;
    });
  }

  /**
   * Resolve the merges against the current state inside the write queue, then write the results
   * (rows, entities, cursor) as one log record, with the removed entries' vectors.
   */
  protected override async mergeChanges(
    tenantId: string,
    changes: SyncChange[],
    cursor: string | undefined,
    horizon: string,
  ): Promise<ApplyReport> {
    return this.#s.serial(async () => {
      const resolved = resolveChanges(changes, {
        row: (kind, key) => this.#changeRow(tenantId, kind, key),
        entry: (id) => this.#readEntryNow(tenantId, id),
        profile: (userId) => this.#readProfileNow(tenantId, userId),
      });
      const { rows, entries, profiles } = resolved;
      const put = [...entries.values()].filter((e): e is MemoryEntry => e !== null);
      const existing = new Set(
        this.#s
          .rows('SELECT id FROM entries WHERE tenant_id = ? AND id IN (SELECT value FROM json_each(?))', [
            tenantId,
            JSON.stringify([...entries.keys()]),
          ])
          .map((r) => r[0] as string),
      );
      const report = reportOf(resolved, (id) => existing.has(id));
      const del = report.entriesRemoved;
      const op: MainOp = {
        o: 'sync',
        t: tenantId,
        rows: [...rows.values()],
        put,
        del,
        pput: [...profiles.values()].filter((p): p is UserProfile => p !== null),
        pdel: [...profiles].filter(([, p]) => p === null).map(([u]) => u),
        hz: horizon,
        ...(cursor === undefined ? {} : { cur: cursor }),
      };
      await this.#commit(op, del.length ? [{ op: { o: 'vdel', t: tenantId, ids: del } }] : []);
      return report;
    });
  }

  /** One log record when the tenant has entities without a change row (an older database, an import). */
  protected override async backfillChanges(tenantId: string, stamp: ChangeStamp): Promise<number> {
    return this.#s.serial(async () => {
      const gap = (table: string, kind: string, key: string) =>
        `SELECT count(*) FROM ${table} x WHERE x.tenant_id = ? AND NOT EXISTS
           (SELECT 1 FROM sync_log l WHERE l.tenant_id = x.tenant_id AND l.kind = '${kind}' AND l.key = x.${key})`;
      const n =
        Number(this.#s.rows(gap('entries', 'entry', 'id'), [tenantId])[0]![0]) +
        Number(this.#s.rows(gap('profiles', 'profile', 'user_id'), [tenantId])[0]![0]);
      if (n > 0) await this.#commit({ o: 'backfill', t: tenantId, st: logStamp(stamp) }, []);
      return n;
    });
  }

  #changeRow(tenantId: string, kind: string, key: string): ChangeRow | undefined {
    const r = this.#s.rows(`SELECT ${LOG_COLUMNS} FROM sync_log WHERE tenant_id = ? AND kind = ? AND key = ?`, [
      tenantId,
      kind,
      key,
    ])[0];
    return r && rowToChange(r);
  }

  #readEntryNow(tenantId: string, id: string): MemoryEntry | undefined {
    const row = this.#s.rows(`SELECT ${ENTRY_COLUMNS} FROM entries e WHERE e.tenant_id = ? AND e.id = ?`, [
      tenantId,
      id,
    ])[0];
    return row ? rowToEntry(row) : undefined;
  }

  #readProfileNow(tenantId: string, userId: string): UserProfile | undefined {
    const row = this.#s.rows('SELECT data FROM profiles WHERE tenant_id = ? AND user_id = ?', [tenantId, userId])[0];
    return row ? (JSON.parse(row[0] as string) as UserProfile) : undefined;
  }

  /**
   * Wait for pending writes, release the database and the driver. Later calls reject with
   * `CLOSED`; closing again is a no-op (it resolves once the first close has finished).
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#s.closed = true;
      await this.#s.idle();
      this.#release();
      await this.#s.p?.close();
    })();
    return this.#closing;
  }

  // ---- Extras -----------------------------------------------------------------------------------

  /** The last failure of background maintenance (compaction, automatic backup), if any. */
  get maintenanceError(): ZerdaError | undefined {
    return this.#maintenanceError;
  }

  /**
   * The main database as a plain SQLite file (entries, tags, FTS index, profiles; no vectors).
   * Unencrypted even when the storage encrypts at rest: handle it accordingly.
   */
  exportDatabase(): Uint8Array {
    this.assertOpen();
    return this.#s.db.export();
  }

  /** Fold the log into a fresh snapshot now (and rewrite vector chunks when loaded). */
  async compact(): Promise<void> {
    this.assertOpen();
    await this.#s.serial(async () => {
      await this.#s.compactMain();
      if (this.#s.vectors === 'loaded' && this.#s.vecLogCount > 0) await this.#s.compactVectors();
    });
  }

  /** Export entries and profiles (optionally one tenant, optionally vectors) as versioned JSON. */
  async exportJson(options: ExportOptions = {}): Promise<ZerdaExport> {
    this.assertOpen();
    if (typeof options !== 'object' || options === null) invalid('options', 'an object', options);
    if (options.tenantId !== undefined) checkKey('options.tenantId', options.tenantId);
    return this.#s.serial(() => exportDoc(this.#ctx, options));
  }

  /**
   * Import an export (object or JSON text). The whole document is validated first; then it is
   * written as one log record (all or nothing). `mode: 'merge'` (default) upserts; `'replace'`
   * first removes everything of the tenants the document covers: its `tenants` when it is a
   * tenant-limited export (`exportJson({ tenantId })`), every tenant otherwise. Resolves to what
   * was added or updated.
   */
  async importJson(doc: ZerdaExport | string, options: { mode?: 'merge' | 'replace' } = {}): Promise<ImportReport> {
    this.assertOpen();
    const mode = options.mode ?? 'merge';
    if (mode !== 'merge' && mode !== 'replace') invalid('options.mode', "'merge' | 'replace'", mode);
    const valid = validateExport(doc);
    const report = await this.#s.serial(() => importDoc(this.#ctx, valid, mode === 'replace'));
    // Imported entities carry no change rows: the next sync call backfills them.
    this.changeLogGaps();
    return report;
  }

  /** Write a backup (a versioned JSON export, encrypted like everything else) and prune to `keep`. */
  async createBackup(options: { includeVectors?: boolean } = {}): Promise<BackupInfo> {
    this.assertOpen();
    return this.#s.serial(() => this.#backups.create(options.includeVectors ?? false));
  }

  /** Stored backups, oldest first. */
  async listBackups(): Promise<BackupInfo[]> {
    this.assertOpen();
    return guard('list backups', () => this.#backups.backupStore.listBackups());
  }

  /** Replace everything with the content of a backup. */
  async restoreBackup(id: string): Promise<ImportReport> {
    this.assertOpen();
    checkKey('id', id);
    const { valid } = await this.#backups.read(id);
    const report = await this.#s.serial(() => importDoc(this.#ctx, valid, true));
    this.changeLogGaps();
    return report;
  }

  /** Delete a backup. */
  async deleteBackup(id: string): Promise<void> {
    this.assertOpen();
    checkKey('id', id);
    await guard('delete the backup', () => this.#backups.backupStore.deleteBackup(id));
  }

  /**
   * Re-encrypt everything (snapshot, vectors, backups) with a new passphrase or key, or remove
   * encryption with `null`. Written as one replacement of the whole store (one IndexedDB
   * transaction); on failure the old key stays valid.
   */
  async changeEncryption(next: EncryptionOptions | null): Promise<void> {
    this.assertOpen();
    const cipher = next === null ? undefined : createCipher(next);
    await this.#s.serial(() => reEncrypt(this.#ctx, this.#backups.backupStore, cipher));
  }

  // ---- internals --------------------------------------------------------------------------------

  protected override assertOpen(): void {
    this.#s.checkOpen();
  }

  #release(): void {
    this.#s.release();
    this.#unwatch?.();
  }

  /** Persist the records (durably), apply them in memory, then run maintenance. Runs inside serial. */
  async #commit(main: MainOp | undefined, vec: VecWrite[]): Promise<number> {
    const added = await this.#s.commit(main, vec);
    this.#backups.schedule.noteChange(added);
    await this.#maintain();
    return added;
  }

  /** Compaction and automatic backups after a write; failures land in {@link maintenanceError}. */
  async #maintain(): Promise<void> {
    if (!this.#s.p) return;
    try {
      await this.#s.compactIfDue();
      await this.#backups.maybeBackup();
      this.#maintenanceError = undefined;
    } catch (e) {
      this.#maintenanceError = isZerdaError(e) ? e : persistenceError('maintenance failed', e);
    }
  }

  /**
   * Replace a corrupt snapshot by backup `id`, replay the intact log records newer than the backup
   * on top, drop vectors of memories that are gone (the backup's own vectors, if any, come back),
   * and write the result as a fresh snapshot. Nothing is written before that snapshot, so a crash
   * midway leaves the database as it was (open with `restoreFrom` again). Resolves to the log
   * records replayed.
   */
  async #restoreAtOpen(id: string, pending: { seq: number; op: MainOp }[]): Promise<number> {
    const s = this.#s;
    const { valid, seq } = await this.#backups.read(id);
    // Without a seq (older backups) every intact record is replayed: upserts, deletes and clears
    // give the same result when re-applied in order, so records the backup already holds are harmless.
    const replay = pending.filter((r) => seq === undefined || r.seq > seq);
    transaction(s.db, () => {
      s.apply({ o: 'import', replace: true, e: valid.entries, p: valid.profiles });
      for (const r of replay) s.apply(r.op);
    });
    await s.serial(async () => {
      await this.#ensureVectors();
      const orphans = new Map<string, string[]>();
      for (const [t, i] of s.rows(
        'SELECT v.tenant_id, v.id FROM vec.vectors v WHERE NOT EXISTS (SELECT 1 FROM entries e WHERE e.tenant_id = v.tenant_id AND e.id = v.id)',
        [],
      ))
        orphans.set(t as string, [...(orphans.get(t as string) ?? []), i as string]);
      const vec: VecWrite[] = [...orphans].map(([t, ids]) => ({ op: { o: 'vdel', t, ids: [...new Set(ids)] } }));
      for (const g of valid.vectors) vec.push(s.vectorPut(g.tenantId, g.model, g.ids, g.data));
      if (vec.length > 0) await s.commit(undefined, vec);
      await s.compactMain(true);
    });
    return replay.length;
  }

  /** Load vectors if needed, outside writes (reads call this). */
  async #vectorsReady(): Promise<void> {
    if (this.#s.vectors === 'loaded') return;
    await this.#s.serial(() => this.#ensureVectors());
    this.assertOpen();
  }

  /** Load the vector stream (inside serial); a repaired vector store is reported in maintenanceError. */
  async #ensureVectors(): Promise<void> {
    const repaired = await ensureVectors(this.#s);
    if (repaired) this.#maintenanceError = repaired;
  }
}

function logStamp(stamp: ChangeStamp): LogStamp {
  return { r: stamp.recordId, h: stamp.hlc, d: stamp.deviceId };
}

/** Open a {@link SqliteStorage} (same as {@link SqliteStorage.open}). */
export function createSqliteStorage(options: SqliteStorageOptions = {}): Promise<SqliteStorage> {
  return SqliteStorage.open(options);
}
