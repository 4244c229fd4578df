import initSqlJs from 'sql.js';
import type { Database, SqlJsStatic, SqlValue, Statement } from 'sql.js';
import { ZerdaError, createCipher, entryText, invalid, isZerdaError, systemClock, validateEntry, validateProfile } from '@zerda/core';
import type {
  Cipher,
  Clock,
  KeyCipherOptions,
  LexicalHit,
  LexicalQuery,
  MemoryEntry,
  MemoryFilter,
  MemoryQuery,
  PassphraseCipherOptions,
  StorageAdapter,
  StorageStats,
  UserProfile,
  VectorBlock,
  VectorModel,
  VectorRecord,
} from '@zerda/core';
import { checkFilter, checkIds, checkKey, checkLexicalQuery, checkModel, checkQuery, filterSql } from './checks.js';
import { EXPORT_VERSION, validateExport } from './export-format.js';
import type { ValidatedExport, ZerdaExport } from './export-format.js';
import { ftsTerms, matchExpression, rankBm25 } from './lexical.js';
import type { Candidate } from './lexical.js';
import { MemoryPersistence, persistenceError } from './persistence.js';
import type { AppendRecord, BackupInfo, Persistence, StreamName } from './persistence.js';
import { RecordError, bytesToFloats, decodeRecord, encodeRecord, floatsToBytes, fromBase64, openFailure, toBase64 } from './record-codec.js';
import { SCHEMA_VERSION, attachVectors, migrate, tune } from './schema.js';

/** How to encrypt at rest: a passphrase (PBKDF2-SHA256) or a supplied AES-GCM `CryptoKey`. */
export type EncryptionOptions = PassphraseCipherOptions | KeyCipherOptions;

/** When the log is folded into a fresh snapshot. */
export interface CompactionOptions {
  /** Compact the main stream after this many log records. Default 1000. */
  maxLogRecords?: number;
  /** ...or once its log holds this many bytes. Default 8 MiB. */
  maxLogBytes?: number;
  /** Rewrite the vector chunks after this many vector log records (only once vectors are loaded). Default 500. */
  maxVectorLogRecords?: number;
  /** Compact when the page becomes hidden (browser only). Default true. */
  onPageHidden?: boolean;
}

/** Automatic backups (only with a persistence driver). */
export interface AutoBackupOptions {
  /** Default true. */
  enabled?: boolean;
  /** Back up when this long has passed since the last backup. Default 24 h. */
  intervalMs?: number;
  /** ...or after this many new memories. Default 100. */
  everyNewEntries?: number;
  /** Keep this many backups (oldest deleted first). Default 10. */
  keep?: number;
  /** Include vectors in automatic backups. Default false. */
  includeVectors?: boolean;
}

/** Options of {@link SqliteStorage.open}. */
export interface SqliteStorageOptions {
  /** Where bytes live. Omit for a purely in-memory database. */
  persistence?: Persistence;
  /** Encrypt everything written (snapshot, log, vectors, backups). */
  encryption?: EncryptionOptions;
  /** A ready sql.js module (or its promise). Default: `initSqlJs({ locateFile })`. */
  sqlJs?: SqlJsStatic | Promise<SqlJsStatic>;
  /** Where sql.js finds its `.wasm` (browser bundles: pass the URL of `sql.js/dist/sql-wasm-browser.wasm`). */
  locateFile?: (file: string) => string;
  compaction?: CompactionOptions;
  backups?: AutoBackupOptions;
  /** Source of time for backups and exports. Default `Date.now`. */
  clock?: Clock;
  /**
   * When the snapshot is corrupt, restore this backup (`'latest'` or an id) instead of failing.
   * Without it, a corrupt snapshot fails the open with `STORAGE`.
   */
  restoreFrom?: 'latest' | string;
}

/** What opening found and did. */
export interface OpenReport {
  /** Log records replayed on top of the snapshot. */
  replayed: number;
  /** Corrupt or torn log records dropped from the tail (main stream). */
  droppedLogRecords: number;
  /** Set when a corrupt snapshot was replaced by this backup (`restoreFrom`). */
  restoredFrom?: string;
  /** Where opening spent its time (ms): reading bytes, checking/decrypting the snapshot, loading it into SQLite, replaying the log. */
  timings: { read: number; decode: number; load: number; replay: number };
}

/** What an import changed. */
export interface ImportReport {
  added: number;
  updated: number;
  profiles: number;
  vectors: number;
}

/** Options of {@link SqliteStorage.exportJson}. */
export interface ExportOptions {
  /** Only this tenant. */
  tenantId?: string;
  /** Include vectors (base64 float32). Default false. */
  includeVectors?: boolean;
}

type MainOp =
  | { o: 'put'; e: MemoryEntry[] }
  | { o: 'del'; t: string; ids: string[] }
  | { o: 'prof'; p: UserProfile }
  | { o: 'clear'; t: string }
  | { o: 'import'; replace: boolean; ts?: string[]; e: MemoryEntry[]; p: UserProfile[] };

type VecOp =
  | { o: 'vput'; t: string; m: string; d: number; ids: string[] }
  | { o: 'vdel'; t?: string; m?: string; ids?: string[] };

interface VecWrite {
  op: VecOp;
  data?: Float32Array;
}

interface MetaRecord {
  format: 'zerda-sqlite';
  version: 1;
  encrypted: boolean;
  keyCheck?: string;
}

const KEY_CHECK = 'zerda-key-check';
const ENTRY_COLUMNS = 'e.tenant_id, e.id, e.user_id, e.tier, e.kind, e.created_at, e.last_access, e.importance, e.data';

/** The part of an entry kept as JSON (everything else has its own column). */
interface StoredData {
  content: MemoryEntry['content'];
  accessCount: number;
  tags: string[];
  metadata: MemoryEntry['metadata'];
  version: number;
}

/** Rebuild an entry from a row selected with {@link ENTRY_COLUMNS}. */
function rowToEntry(r: SqlValue[]): MemoryEntry {
  const d = JSON.parse(r[8] as string) as StoredData;
  const e: MemoryEntry = {
    id: r[1] as string,
    tenantId: r[0] as string,
    content: d.content,
    tier: r[3] as MemoryEntry['tier'],
    kind: r[4] as string,
    createdAt: r[5] as number,
    lastAccess: r[6] as number,
    importance: r[7] as number,
    accessCount: d.accessCount,
    tags: d.tags,
    metadata: d.metadata,
    version: d.version,
  };
  if (r[2] !== null) e.userId = r[2] as string;
  return e;
}
const VECTOR_CHUNK_ROWS = 4096;
const SLOW_REPLAY_MS = 250;
const DAY = 86_400_000;

let defaultSqlJs: Promise<SqlJsStatic> | undefined;

/**
 * A {@link StorageAdapter} on SQLite (sql.js, WASM) with optional durable persistence.
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
export class SqliteStorage implements StorageAdapter {
  /** @inheritdoc */
  readonly name = 'sqlite';
  /** What opening found (replayed and dropped log records, restores). */
  readonly openReport: OpenReport;

  readonly #db: Database;
  readonly #p: Persistence | undefined;
  readonly #backupStore: Persistence;
  readonly #clock: Clock;
  readonly #compaction: Required<CompactionOptions>;
  readonly #auto: Required<AutoBackupOptions>;
  readonly #stmts = new Map<string, Statement>();
  readonly #apply: Applier;
  #cipher: Cipher | undefined;
  #closed = false;
  #tail: Promise<unknown> = Promise.resolve();
  #mainSeq: number;
  #vecSeq: number;
  #logCount: number;
  #logBytes: number;
  #vecLogCount = 0;
  #vectors: 'unloaded' | 'loaded' = 'unloaded';
  #lastBackupAt = 0;
  #newSinceBackup = 0;
  #maintenanceError: ZerdaError | undefined;
  #onHidden: (() => void) | undefined;

  private constructor(init: {
    db: Database;
    persistence: Persistence | undefined;
    cipher: Cipher | undefined;
    options: SqliteStorageOptions;
    mainSeq: number;
    vecSeq: number;
    logCount: number;
    logBytes: number;
    report: OpenReport;
  }) {
    this.#db = init.db;
    this.#p = init.persistence;
    this.#backupStore = init.persistence ?? new MemoryPersistence();
    this.#cipher = init.cipher;
    this.#clock = init.options.clock ?? systemClock;
    this.#mainSeq = init.mainSeq;
    this.#vecSeq = init.vecSeq;
    this.#logCount = init.logCount;
    this.#logBytes = init.logBytes;
    this.openReport = init.report;
    const c = init.options.compaction ?? {};
    this.#compaction = {
      maxLogRecords: positiveInt('compaction.maxLogRecords', c.maxLogRecords ?? 1000),
      maxLogBytes: positiveInt('compaction.maxLogBytes', c.maxLogBytes ?? 8 * 1024 * 1024),
      maxVectorLogRecords: positiveInt('compaction.maxVectorLogRecords', c.maxVectorLogRecords ?? 500),
      onPageHidden: c.onPageHidden ?? true,
    };
    const b = init.options.backups ?? {};
    this.#auto = {
      enabled: b.enabled ?? true,
      intervalMs: positiveInt('backups.intervalMs', b.intervalMs ?? DAY),
      everyNewEntries: positiveInt('backups.everyNewEntries', b.everyNewEntries ?? 100),
      keep: positiveInt('backups.keep', b.keep ?? 10),
      includeVectors: b.includeVectors ?? false,
    };
    this.#apply = createApplier(this.#db);
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
    const SQL = await loadSqlJs(options);
    const cipher = options.encryption === undefined ? undefined : createCipher(options.encryption);
    const p = options.persistence;
    const report: OpenReport = { replayed: 0, droppedLogRecords: 0, timings: { read: 0, decode: 0, load: 0, replay: 0 } };
    let mark = performance.now();
    const lap = (k: keyof OpenReport['timings']) => {
      const now = performance.now();
      report.timings[k] += now - mark;
      mark = now;
    };
    let db: Database;
    let mainSeq = 0;
    let vecSeq = 0;
    let logCount = 0;
    let logBytes = 0;
    let restoreId: string | undefined;
    // The snapshot was migrated from an older schema: rewrite it once, or every open migrates again.
    let upgraded = false;
    if (!p) {
      db = new SQL.Database();
      tune(db);
      migrate(db);
      attachVectors(db);
    } else {
      const metaBytes = await guard('read the database meta record', () => p.readMeta());
      const main = await guard('read the database', () => p.read('main'));
      vecSeq = await guard('read the vector store', () => p.head('vectors'));
      lap('read');
      if (metaBytes) await checkMeta(metaBytes, cipher);
      else if (main.base.length > 0 || main.log.length > 0 || vecSeq > 0)
        throw new ZerdaError('STORAGE', `The database in ${p.description} has data but no meta record; it cannot be opened safely`);
      let snapshot: Uint8Array | undefined;
      let corrupt: ZerdaError | undefined;
      if (main.base.length > 0) {
        try {
          if (main.base.length !== 1) throw new RecordError('format', `expected 1 snapshot record, found ${main.base.length}`);
          const rec = await decodeRecord<{ o: string }>(main.base[0]!, cipher);
          if (rec.header.o !== 'snap') throw new RecordError('format', 'not a snapshot record');
          snapshot = rec.tail;
        } catch (e) {
          corrupt = openFailure('snapshot', e);
          if (corrupt.code === 'DECRYPTION' || options.restoreFrom === undefined) throw corrupt;
        }
      }
      lap('decode');
      try {
        db = new SQL.Database(snapshot);
        tune(db);
        const from = migrate(db);
        upgraded = from > 0 && from < SCHEMA_VERSION;
      } catch (e) {
        corrupt = openFailure('snapshot', e);
        if (options.restoreFrom === undefined) throw corrupt;
        db = new SQL.Database();
        tune(db);
        migrate(db);
      }
      attachVectors(db);
      lap('load');
      mainSeq = Math.max(main.upto, main.log.at(-1)?.seq ?? 0);
      if (corrupt) {
        restoreId = options.restoreFrom;
      } else {
        let bad: number | undefined;
        let last = main.upto;
        const apply = createApplier(db);
        try {
        for (const r of main.log) {
          if (r.seq <= main.upto) continue;
          try {
            const rec = await decodeRecord<MainOp>(r.bytes, cipher);
            transaction(db, () => apply(rec.header));
          } catch (e) {
            if (!(e instanceof RecordError)) throw openFailure('log', e);
            bad = r.seq;
            break;
          }
          last = r.seq;
          report.replayed++;
          logCount++;
          logBytes += r.bytes.length;
        }
        } finally {
          apply.free();
        }
        if (bad !== undefined || main.torn) {
          report.droppedLogRecords = main.log.filter((r) => r.seq >= (bad ?? Infinity)).length + (main.torn ? 1 : 0);
          await guard('drop the corrupt log tail', () => p.truncate('main', bad ?? last + 1));
          mainSeq = Math.max(last, mainSeq);
        }
      }
      lap('replay');
      if (!metaBytes) await guard('write the meta record', async () => p.writeMeta(await makeMeta(cipher)));
    }
    const storage = new SqliteStorage({ db, persistence: p, cipher, options, mainSeq, vecSeq, logCount, logBytes, report });
    await storage.#initBackupState();
    if (restoreId !== undefined) {
      const backups = await storage.listBackups();
      const id = restoreId === 'latest' ? backups.at(-1)?.id : restoreId;
      if (id === undefined || !backups.some((b) => b.id === id)) {
        storage.#release();
        throw new ZerdaError('STORAGE', `The snapshot is corrupt and backup ${restoreId} does not exist; nothing was changed`);
      }
      await storage.restoreBackup(id);
      await storage.compact();
      report.restoredFrom = id;
    }
    storage.#watchVisibility();
    // A long replay will be paid again by the next cold open: fold the log now, in the write
    // queue (close() and the first write wait for it; failures land in maintenanceError).
    if (p && (upgraded || (report.timings.replay > SLOW_REPLAY_MS && storage.#logCount > 0)))
      storage.#serial(() => storage.#compactMain(upgraded)).catch((e: unknown) => {
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

  // ---- StorageAdapter -------------------------------------------------------------------------

  /** Upsert one entry (validated, whole entry replaced). Resolves once durable. */
  async put(entry: MemoryEntry): Promise<void> {
    this.#open();
    const e = validateEntry(entry);
    await this.#serial(() => this.#commit({ o: 'put', e: [e] }, []));
  }

  /** Upsert many entries, all or nothing (every entry validated first, one log record). */
  async putMany(entries: MemoryEntry[]): Promise<void> {
    this.#open();
    if (!Array.isArray(entries)) invalid('entries', 'an array of entries', entries);
    const valid = entries.map((e) => validateEntry(e));
    if (valid.length === 0) return;
    await this.#serial(() => this.#commit({ o: 'put', e: valid }, []));
  }

  /** A copy of the entry, or `undefined`. No side effects. */
  async get(tenantId: string, id: string): Promise<MemoryEntry | undefined> {
    this.#open();
    checkKey('tenantId', tenantId);
    checkKey('id', id);
    const row = this.#rows(`SELECT ${ENTRY_COLUMNS} FROM entries e WHERE e.tenant_id = ? AND e.id = ?`, [tenantId, id])[0];
    return row ? rowToEntry(row) : undefined;
  }

  /** Copies of the entries found, in the order of `ids` (missing skipped, duplicates once). */
  async getMany(tenantId: string, ids: string[]): Promise<MemoryEntry[]> {
    this.#open();
    checkKey('tenantId', tenantId);
    checkIds(ids);
    if (ids.length === 0) return [];
    const found = new Map<string, SqlValue[]>();
    for (const row of this.#rows(`SELECT ${ENTRY_COLUMNS} FROM entries e WHERE e.tenant_id = ? AND e.id IN (SELECT value FROM json_each(?))`, [
      tenantId,
      JSON.stringify(ids),
    ]))
      found.set(row[1] as string, row);
    const out: MemoryEntry[] = [];
    for (const id of new Set(ids)) {
      const row = found.get(id);
      if (row !== undefined) out.push(rowToEntry(row));
    }
    return out;
  }

  /** Delete one entry and its vectors; true when it existed. */
  async delete(tenantId: string, id: string): Promise<boolean> {
    this.#open();
    checkKey('tenantId', tenantId);
    checkKey('id', id);
    return (await this.#deleteIds(tenantId, [id])) === 1;
  }

  /** Delete entries and their vectors; resolves to how many existed. */
  async deleteMany(tenantId: string, ids: string[]): Promise<number> {
    this.#open();
    checkKey('tenantId', tenantId);
    checkIds(ids);
    return this.#deleteIds(tenantId, [...new Set(ids)]);
  }

  /** Filtered, ordered (ties by id ascending), paged copies. */
  async query(query: MemoryQuery): Promise<MemoryEntry[]> {
    this.#open();
    checkQuery(query);
    const { sql, params } = filterSql(query);
    const column = { createdAt: 'created_at', lastAccess: 'last_access', importance: 'importance' }[query.orderBy ?? 'createdAt'];
    const dir = (query.order ?? 'desc') === 'asc' ? 'ASC' : 'DESC';
    const rows = this.#rows(
      `SELECT ${ENTRY_COLUMNS} FROM entries e WHERE e.tenant_id = ? AND ${sql} ORDER BY e.${column} ${dir}, e.id ASC LIMIT ? OFFSET ?`,
      [query.tenantId, ...params, query.limit ?? -1, query.offset ?? 0],
    );
    return rows.map(rowToEntry);
  }

  /** Number of entries matching the filter. */
  async count(filter: MemoryFilter): Promise<number> {
    this.#open();
    checkFilter(filter);
    const { sql, params } = filterSql(filter);
    return Number(this.#rows(`SELECT count(*) FROM entries e WHERE e.tenant_id = ? AND ${sql}`, [filter.tenantId, ...params])[0]![0]);
  }

  /** BM25 over FTS4 (core's analysed terms) with per-tenant statistics; the filter applies before ranking. */
  async lexicalSearch(query: LexicalQuery): Promise<LexicalHit[]> {
    this.#open();
    checkLexicalQuery(query);
    const match = matchExpression(query.query);
    if (!match || query.limit === 0) return [];
    const { sql, params } = filterSql(query.filter ?? {});
    const rows = this.#rows(
      // CROSS JOIN pins the FTS table as the outer loop; otherwise SQLite may scan the tenant's
      // rows and run one full-text lookup per row.
      `SELECT e.id, matchinfo(entries_fts, 'pcx'), e.doc_len, (${sql}) FROM entries_fts
       CROSS JOIN entries e ON e.rid = entries_fts.docid
       WHERE entries_fts MATCH ? AND e.tenant_id = ?`,
      [...params, match.expr, query.tenantId],
    );
    if (rows.length === 0) return [];
    const stats = this.#rows('SELECT count(*), total(doc_len) FROM entries WHERE tenant_id = ?', [query.tenantId])[0]!;
    const n = Number(stats[0]);
    const candidates: Candidate[] = rows.map((r) => ({
      id: r[0] as string,
      matchinfo: r[1] as Uint8Array,
      docLen: Number(r[2]),
      allowed: Number(r[3]) === 1,
    }));
    return rankBm25(candidates, n, n > 0 ? Number(stats[1]) / n : 1, query.limit);
  }

  /** Store vectors of one model, all or nothing; each must have `model.dim` finite floats. */
  async putVectors(tenantId: string, model: VectorModel, records: VectorRecord[]): Promise<void> {
    this.#open();
    checkKey('tenantId', tenantId);
    checkModel(model);
    if (!Array.isArray(records)) invalid('records', 'an array of {id, vector}', records);
    const byId = new Map<string, Float32Array>();
    records.forEach((r, i) => {
      if (typeof r !== 'object' || r === null) invalid(`records[${i}]`, 'an object {id, vector}', r);
      checkKey(`records[${i}].id`, r.id);
      const v = r.vector as unknown;
      if (!(v instanceof Float32Array)) invalid(`records[${i}].vector`, 'a Float32Array', v);
      if (v.length !== model.dim) invalid(`records[${i}].vector`, `length ${model.dim} (model.dim)`, v.length);
      for (const x of v) if (!Number.isFinite(x)) invalid(`records[${i}].vector`, 'finite values', x);
      byId.set(r.id, v);
    });
    if (byId.size === 0) return;
    const ids = [...byId.keys()];
    const data = new Float32Array(ids.length * model.dim);
    ids.forEach((id, i) => data.set(byId.get(id)!, i * model.dim));
    await this.#serial(async () => {
      await this.#ensureVectors();
      this.#checkDim(tenantId, model);
      await this.#commit(undefined, [{ op: { o: 'vput', t: tenantId, m: model.id, d: model.dim, ids }, data }]);
    });
  }

  /** Every vector of the tenant for `modelId`, packed, ids ascending; `undefined` when none. */
  async loadVectors(tenantId: string, modelId: string): Promise<VectorBlock | undefined> {
    this.#open();
    checkKey('tenantId', tenantId);
    checkKey('modelId', modelId);
    await this.#vectorsReady();
    const rows = this.#rows('SELECT id, dim, data FROM vec.vectors WHERE tenant_id = ? AND model_id = ? ORDER BY id', [tenantId, modelId]);
    if (rows.length === 0) return undefined;
    const dim = Number(rows[0]![1]);
    const data = new Float32Array(rows.length * dim);
    const ids: string[] = [];
    rows.forEach((r, i) => {
      ids.push(r[0] as string);
      data.set(bytesToFloats(r[2] as Uint8Array), i * dim);
    });
    return { model: { id: modelId, dim }, ids, data };
  }

  /** Models holding at least one vector of the tenant, by id. */
  async vectorModels(tenantId: string): Promise<VectorModel[]> {
    this.#open();
    checkKey('tenantId', tenantId);
    await this.#vectorsReady();
    return this.#rows('SELECT model_id, min(dim) FROM vec.vectors WHERE tenant_id = ? GROUP BY model_id ORDER BY model_id', [tenantId]).map(
      (r) => ({ id: r[0] as string, dim: Number(r[1]) }),
    );
  }

  /** Delete the tenant's vectors of one model (or all); resolves to rows deleted. */
  async deleteVectors(tenantId: string, modelId?: string): Promise<number> {
    this.#open();
    checkKey('tenantId', tenantId);
    if (modelId !== undefined) checkKey('modelId', modelId);
    return this.#serial(async () => {
      await this.#ensureVectors();
      const n = Number(
        this.#rows('SELECT count(*) FROM vec.vectors WHERE tenant_id = ? AND (? IS NULL OR model_id = ?)', [
          tenantId,
          modelId ?? null,
          modelId ?? null,
        ])[0]![0],
      );
      if (n === 0) return 0;
      await this.#commit(undefined, [{ op: modelId === undefined ? { o: 'vdel', t: tenantId } : { o: 'vdel', t: tenantId, m: modelId } }]);
      return n;
    });
  }

  /** A copy of the profile, or `undefined`. */
  async getProfile(tenantId: string, userId: string): Promise<UserProfile | undefined> {
    this.#open();
    checkKey('tenantId', tenantId);
    checkKey('userId', userId);
    const row = this.#rows('SELECT data FROM profiles WHERE tenant_id = ? AND user_id = ?', [tenantId, userId])[0];
    return row ? (JSON.parse(row[0] as string) as UserProfile) : undefined;
  }

  /** Upsert a profile (validated). Resolves once durable. */
  async putProfile(profile: UserProfile): Promise<void> {
    this.#open();
    const p = validateProfile(profile);
    await this.#serial(() => this.#commit({ o: 'prof', p }, []));
  }

  /** The tenant's profiles by `userId` ascending. */
  async listProfiles(tenantId: string): Promise<UserProfile[]> {
    this.#open();
    checkKey('tenantId', tenantId);
    return this.#rows('SELECT data FROM profiles WHERE tenant_id = ? ORDER BY user_id', [tenantId]).map(
      (r) => JSON.parse(r[0] as string) as UserProfile,
    );
  }

  /** Remove the tenant's entries, vectors and profiles; resolves to entries removed. */
  async clearTenant(tenantId: string): Promise<number> {
    this.#open();
    checkKey('tenantId', tenantId);
    return this.#serial(async () => {
      const n = Number(this.#rows('SELECT count(*) FROM entries WHERE tenant_id = ?', [tenantId])[0]![0]);
      await this.#commit({ o: 'clear', t: tenantId }, [{ op: { o: 'vdel', t: tenantId } }]);
      return n;
    });
  }

  /** Tenants holding an entry or a profile, sorted. */
  async listTenants(): Promise<string[]> {
    this.#open();
    return this.#rows('SELECT tenant_id FROM entries UNION SELECT tenant_id FROM profiles ORDER BY 1', []).map((r) => r[0] as string);
  }

  /** Counts for one tenant or all; `bytes` is the size of the main database. */
  async stats(tenantId?: string): Promise<StorageStats> {
    this.#open();
    if (tenantId !== undefined) checkKey('tenantId', tenantId);
    await this.#vectorsReady();
    const where = tenantId === undefined ? '' : 'WHERE tenant_id = ?';
    const params = tenantId === undefined ? [] : [tenantId];
    const stats: StorageStats = { entries: 0, byTier: {}, byKind: {}, profiles: 0, vectors: 0 };
    for (const [tier, n] of this.#rows(`SELECT tier, count(*) FROM entries ${where} GROUP BY tier`, params)) {
      stats.byTier[tier as string] = Number(n);
      stats.entries += Number(n);
    }
    for (const [kind, n] of this.#rows(`SELECT kind, count(*) FROM entries ${where} GROUP BY kind`, params)) stats.byKind[kind as string] = Number(n);
    stats.profiles = Number(this.#rows(`SELECT count(*) FROM profiles ${where}`, params)[0]![0]);
    stats.vectors = Number(this.#rows(`SELECT count(*) FROM vec.vectors ${where}`, params)[0]![0]);
    const pages = this.#db.exec('PRAGMA main.page_count; PRAGMA main.page_size');
    stats.bytes = Number(pages[0]?.values[0]?.[0] ?? 0) * Number(pages[1]?.values[0]?.[0] ?? 0);
    return stats;
  }

  /** Wait for pending writes, release the database and the driver. Later calls reject with `CLOSED`. */
  async close(): Promise<void> {
    this.#open();
    this.#closed = true;
    await this.#tail.catch(() => undefined);
    this.#release();
    await this.#p?.close();
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
    this.#open();
    return this.#db.export();
  }

  /** Fold the log into a fresh snapshot now (and rewrite vector chunks when loaded). */
  async compact(): Promise<void> {
    this.#open();
    await this.#serial(async () => {
      await this.#compactMain();
      if (this.#vectors === 'loaded' && this.#vecLogCount > 0) await this.#compactVectors();
    });
  }

  /** Export entries and profiles (optionally one tenant, optionally vectors) as versioned JSON. */
  async exportJson(options: ExportOptions = {}): Promise<ZerdaExport> {
    this.#open();
    if (typeof options !== 'object' || options === null) invalid('options', 'an object', options);
    if (options.tenantId !== undefined) checkKey('options.tenantId', options.tenantId);
    return this.#serial(() => this.#export(options));
  }

  /**
   * Import an export (object or JSON text). The whole document is validated first; then it is
   * written as one log record (all or nothing). `mode: 'merge'` (default) upserts; `'replace'`
   * first removes everything of the tenants the document covers: its `tenants` when it is a
   * tenant-limited export (`exportJson({ tenantId })`), every tenant otherwise. Resolves to what
   * was added or updated.
   */
  async importJson(doc: ZerdaExport | string, options: { mode?: 'merge' | 'replace' } = {}): Promise<ImportReport> {
    this.#open();
    const mode = options.mode ?? 'merge';
    if (mode !== 'merge' && mode !== 'replace') invalid('options.mode', "'merge' | 'replace'", mode);
    const valid = validateExport(doc);
    return this.#serial(() => this.#import(valid, mode === 'replace'));
  }

  /** Write a backup (a versioned JSON export, encrypted like everything else) and prune to `keep`. */
  async createBackup(options: { includeVectors?: boolean } = {}): Promise<BackupInfo> {
    this.#open();
    return this.#serial(() => this.#backup(options.includeVectors ?? false));
  }

  /** Stored backups, oldest first. */
  async listBackups(): Promise<BackupInfo[]> {
    this.#open();
    return guard('list backups', () => this.#backupStore.listBackups());
  }

  /** Replace everything with the content of a backup. */
  async restoreBackup(id: string): Promise<ImportReport> {
    this.#open();
    checkKey('id', id);
    const bytes = await guard('read the backup', () => this.#backupStore.getBackup(id));
    if (!bytes) throw new ZerdaError('NOT_FOUND', `No backup with id ${id}`);
    const rec = await decodeRecord<{ o: string; doc: ZerdaExport }>(bytes, this.#cipher).catch((e: unknown) => {
      throw openFailure(`backup ${id}`, e);
    });
    const valid = validateExport(rec.header.doc);
    return this.#serial(() => this.#import(valid, true));
  }

  /** Delete a backup. */
  async deleteBackup(id: string): Promise<void> {
    this.#open();
    checkKey('id', id);
    await guard('delete the backup', () => this.#backupStore.deleteBackup(id));
  }

  /**
   * Re-encrypt everything (snapshot, vectors, backups) with a new passphrase or key, or remove
   * encryption with `null`. Written as one replacement of the whole store (one IndexedDB
   * transaction); on failure the old key stays valid.
   */
  async changeEncryption(next: EncryptionOptions | null): Promise<void> {
    this.#open();
    const cipher = next === null ? undefined : createCipher(next);
    await this.#serial(async () => {
      await this.#ensureVectors();
      const backups: { info: BackupInfo; bytes: Uint8Array }[] = [];
      for (const info of await guard('list backups', () => this.#backupStore.listBackups())) {
        const old = await guard('read a backup', () => this.#backupStore.getBackup(info.id));
        if (!old) continue;
        const rec = await decodeRecord<unknown>(old, this.#cipher).catch((e: unknown) => {
          throw openFailure(`backup ${info.id}`, e);
        });
        const bytes = await encodeRecord(rec.header, undefined, cipher);
        backups.push({ info: { ...info, size: bytes.length }, bytes });
      }
      const state = {
        meta: await makeMeta(cipher),
        main: { base: [await this.#snapshotRecord(cipher)], upto: this.#mainSeq },
        vectors: { base: await this.#vectorBase(cipher), upto: this.#vecSeq },
        backups,
      };
      if (this.#p) await guard('re-encrypt the database', () => this.#p!.replaceAll(state));
      else for (const b of backups) await this.#backupStore.putBackup(b.info, b.bytes);
      this.#cipher = cipher;
      this.#logCount = 0;
      this.#logBytes = 0;
      this.#vecLogCount = 0;
    });
  }

  // ---- internals --------------------------------------------------------------------------------

  #open(): void {
    if (this.#closed) throw new ZerdaError('CLOSED', 'SqliteStorage is closed');
  }

  #release(): void {
    for (const s of this.#stmts.values()) s.free();
    this.#stmts.clear();
    this.#apply.free();
    this.#db.close();
    if (this.#onHidden && typeof document !== 'undefined') document.removeEventListener('visibilitychange', this.#onHidden);
  }

  #serial<T>(fn: () => Promise<T>): Promise<T> {
    // Tasks queued before close() still run: close() waits for them.
    const run = this.#tail.then(fn);
    this.#tail = run.catch(() => undefined);
    return run;
  }

  #rows(sql: string, params: (SqlValue | undefined)[]): SqlValue[][] {
    let stmt = this.#stmts.get(sql);
    if (!stmt) {
      stmt = this.#db.prepare(sql);
      this.#stmts.set(sql, stmt);
    }
    try {
      stmt.bind(params as SqlValue[]);
      const out: SqlValue[][] = [];
      while (stmt.step()) out.push(stmt.get());
      return out;
    } finally {
      stmt.reset();
    }
  }

  async #deleteIds(tenantId: string, ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    return this.#serial(async () => {
      const existing = this.#rows('SELECT id FROM entries WHERE tenant_id = ? AND id IN (SELECT value FROM json_each(?))', [
        tenantId,
        JSON.stringify(ids),
      ]).map((r) => r[0] as string);
      if (existing.length === 0) return 0;
      await this.#commit({ o: 'del', t: tenantId, ids: existing }, [{ op: { o: 'vdel', t: tenantId, ids: existing } }]);
      return existing.length;
    });
  }

  /** Persist the records (durably), then apply them in memory. Runs inside #serial. */
  async #commit(main: MainOp | undefined, vec: VecWrite[]): Promise<{ added: number }> {
    const records: AppendRecord[] = [];
    let vecSeq = this.#vecSeq;
    if (this.#p) {
      if (main) records.push({ stream: 'main', seq: this.#mainSeq + 1, bytes: await encodeRecord(main, undefined, this.#cipher) });
      for (const v of vec)
        records.push({ stream: 'vectors', seq: ++vecSeq, bytes: await encodeRecord(v.op, v.data && floatsToBytes(v.data), this.#cipher) });
      await guard('write to the database', () => this.#p!.append(records));
      for (const r of records) {
        if (r.stream === 'main') {
          this.#mainSeq = r.seq;
          this.#logCount++;
          this.#logBytes += r.bytes.length;
        } else {
          this.#vecSeq = r.seq;
          this.#vecLogCount++;
        }
      }
    }
    let added = 0;
    transaction(this.#db, () => {
      if (main) added = this.#apply(main);
      if (this.#vectors === 'loaded') for (const v of vec) applyVec(this.#db, v.op, v.data);
    });
    this.#newSinceBackup += added;
    await this.#maintain();
    return { added };
  }

  async #maintain(): Promise<void> {
    if (!this.#p) return;
    try {
      if (this.#logCount >= this.#compaction.maxLogRecords || this.#logBytes >= this.#compaction.maxLogBytes) await this.#compactMain();
      if (this.#vectors === 'loaded' && this.#vecLogCount >= this.#compaction.maxVectorLogRecords) await this.#compactVectors();
      if (
        this.#auto.enabled &&
        (this.#newSinceBackup >= this.#auto.everyNewEntries ||
          (this.#clock() - this.#lastBackupAt >= this.#auto.intervalMs && this.#newSinceBackup > 0))
      )
        await this.#backup(this.#auto.includeVectors);
      this.#maintenanceError = undefined;
    } catch (e) {
      this.#maintenanceError = isZerdaError(e) ? e : persistenceError('maintenance failed', e);
    }
  }

  async #snapshotRecord(cipher: Cipher | undefined): Promise<Uint8Array> {
    return encodeRecord({ o: 'snap', schema: SCHEMA_VERSION }, this.#db.export(), cipher);
  }

  /** Fold the log into a new snapshot; `force` writes one even when the log is empty. */
  async #compactMain(force = false): Promise<void> {
    if (!this.#p || (this.#logCount === 0 && !force)) return;
    const rec = await this.#snapshotRecord(this.#cipher);
    await guard('compact the database', () => this.#p!.compact('main', [rec], this.#mainSeq));
    this.#logCount = 0;
    this.#logBytes = 0;
  }

  async #vectorBase(cipher: Cipher | undefined): Promise<Uint8Array[]> {
    const chunks: Uint8Array[] = [];
    const groups = this.#rows('SELECT DISTINCT tenant_id, model_id, dim FROM vec.vectors ORDER BY 1, 2', []);
    for (const [t, m, d] of groups) {
      const dim = Number(d);
      const rows = this.#rows('SELECT id, data FROM vec.vectors WHERE tenant_id = ? AND model_id = ? ORDER BY id', [t, m]);
      for (let i = 0; i < rows.length; i += VECTOR_CHUNK_ROWS) {
        const part = rows.slice(i, i + VECTOR_CHUNK_ROWS);
        const data = new Float32Array(part.length * dim);
        part.forEach((r, j) => data.set(bytesToFloats(r[1] as Uint8Array), j * dim));
        const op: VecOp = { o: 'vput', t: t as string, m: m as string, d: dim, ids: part.map((r) => r[0] as string) };
        chunks.push(await encodeRecord(op, floatsToBytes(data), cipher));
      }
    }
    return [await encodeRecord({ o: 'vbase', n: chunks.length }, undefined, cipher), ...chunks];
  }

  async #compactVectors(): Promise<void> {
    if (!this.#p) return;
    const base = await this.#vectorBase(this.#cipher);
    await guard('compact the vector store', () => this.#p!.compact('vectors', base, this.#vecSeq));
    this.#vecLogCount = 0;
  }

  /** Load vectors if needed, outside writes (reads call this). */
  async #vectorsReady(): Promise<void> {
    if (this.#vectors === 'loaded') return;
    await this.#serial(() => this.#ensureVectors());
    this.#open();
  }

  /** Load the vector stream into `vec.vectors` (inside #serial). */
  async #ensureVectors(): Promise<void> {
    if (this.#vectors === 'loaded') return;
    if (!this.#p) {
      this.#vectors = 'loaded';
      return;
    }
    const p = this.#p;
    const s = await guard('read the vector store', () => p.read('vectors'));
    const decoded: { op: VecOp; data?: Float32Array }[] = [];
    let baseLost: ZerdaError | undefined;
    if (s.base.length > 0) {
      try {
        const head = await decodeRecord<{ o: string; n: number }>(s.base[0]!, this.#cipher);
        if (head.header.o !== 'vbase' || head.header.n !== s.base.length - 1) throw new RecordError('format', 'vector base is incomplete');
        for (const b of s.base.slice(1)) {
          const rec = await decodeRecord<VecOp>(b, this.#cipher);
          decoded.push({ op: rec.header, data: bytesToFloats(rec.tail) });
        }
      } catch (e) {
        // Vectors are derived data (re-embedding rebuilds them) and the key was checked at open.
        // Failing every vector call instead would break all recall and context building, with
        // no way out (restoreBackup and importJson load vectors first), so the corrupt base is
        // dropped, rewritten below, and reported.
        baseLost = openFailure('vector store', e);
        decoded.length = 0;
      }
    }
    let bad: number | undefined;
    let last = s.upto;
    let count = 0;
    for (const r of s.log) {
      if (r.seq <= s.upto) continue;
      try {
        const rec = await decodeRecord<VecOp>(r.bytes, this.#cipher);
        decoded.push({ op: rec.header, data: rec.header.o === 'vput' ? bytesToFloats(rec.tail) : undefined });
      } catch (e) {
        if (!(e instanceof RecordError)) throw openFailure('vector log', e);
        bad = r.seq;
        break;
      }
      last = r.seq;
      count++;
    }
    if (bad !== undefined || s.torn) {
      await guard('drop the corrupt vector log tail', () => p.truncate('vectors', bad ?? last + 1));
    }
    transaction(this.#db, () => {
      for (const d of decoded) applyVec(this.#db, d.op, d.data);
    });
    this.#vecLogCount = count;
    this.#vectors = 'loaded';
    if (baseLost) {
      await this.#compactVectors();
      this.#maintenanceError = new ZerdaError(
        'STORAGE',
        `The vector store was corrupt (${baseLost.message.replace(/ Nothing was overwritten\..*$/, '')}); the vectors it held were dropped and the store rewritten. ` +
          'Memories are intact; manager.reindex(tenantId) embeds them again (a MemoryManager also does it on the first recall of each tenant).',
        { cause: baseLost },
      );
    }
  }

  #checkDim(tenantId: string, model: VectorModel): void {
    const row = this.#rows('SELECT dim FROM vec.vectors WHERE tenant_id = ? AND model_id = ? LIMIT 1', [tenantId, model.id])[0];
    if (row && Number(row[0]) !== model.dim) invalid('model.dim', `${Number(row[0])} (stored vectors of model ${model.id})`, model.dim);
  }

  async #export(options: ExportOptions): Promise<ZerdaExport> {
    const where = options.tenantId === undefined ? '' : 'WHERE tenant_id = ?';
    const params = options.tenantId === undefined ? [] : [options.tenantId];
    const doc: ZerdaExport = {
      format: 'zerda-export',
      version: EXPORT_VERSION,
      exportedAt: this.#clock(),
      ...(options.tenantId === undefined ? {} : { tenants: [options.tenantId] }),
      entries: this.#rows(`SELECT ${ENTRY_COLUMNS} FROM entries e ${where} ORDER BY e.tenant_id, e.id`, params).map(rowToEntry),
      profiles: this.#rows(`SELECT data FROM profiles ${where} ORDER BY tenant_id, user_id`, params).map(
        (r) => JSON.parse(r[0] as string) as UserProfile,
      ),
    };
    if (options.includeVectors) {
      await this.#ensureVectors();
      doc.vectors = [];
      for (const [t, m, d] of this.#rows(`SELECT DISTINCT tenant_id, model_id, dim FROM vec.vectors ${where} ORDER BY 1, 2`, params)) {
        const rows = this.#rows('SELECT id, data FROM vec.vectors WHERE tenant_id = ? AND model_id = ? ORDER BY id', [t, m]);
        const dim = Number(d);
        const data = new Float32Array(rows.length * dim);
        rows.forEach((r, i) => data.set(bytesToFloats(r[1] as Uint8Array), i * dim));
        doc.vectors.push({ tenantId: t as string, model: { id: m as string, dim }, ids: rows.map((r) => r[0] as string), data: toBase64(floatsToBytes(data)) });
      }
    }
    return doc;
  }

  async #import(valid: ValidatedExport, replace: boolean): Promise<ImportReport> {
    if (replace || valid.vectors.length > 0) await this.#ensureVectors();
    if (!replace) for (const g of valid.vectors) this.#checkDim(g.tenantId, g.model);
    else {
      const dims = new Map<string, number>();
      for (const g of valid.vectors) {
        const key = `${g.tenantId}\u0000${g.model.id}`;
        if (dims.has(key) && dims.get(key) !== g.model.dim) invalid('export.vectors', `one dim per tenant and model (${g.model.id})`, g.model.dim);
        dims.set(key, g.model.dim);
      }
    }
    let updated = 0;
    if (!replace) {
      for (const e of valid.entries)
        if (this.#rows('SELECT 1 FROM entries WHERE tenant_id = ? AND id = ?', [e.tenantId, e.id]).length > 0) updated++;
    }
    // A tenant-limited export replaces only its tenants; the others are not part of the document.
    const scope = replace ? valid.tenants : undefined;
    const vec: VecWrite[] = !replace ? [] : scope ? scope.map((t) => ({ op: { o: 'vdel', t } })) : [{ op: { o: 'vdel' } }];
    for (const g of valid.vectors) vec.push({ op: { o: 'vput', t: g.tenantId, m: g.model.id, d: g.model.dim, ids: g.ids }, data: g.data });
    await this.#commit({ o: 'import', replace, ...(scope ? { ts: scope } : {}), e: valid.entries, p: valid.profiles }, vec);
    return {
      added: valid.entries.length - updated,
      updated,
      profiles: valid.profiles.length,
      vectors: valid.vectors.reduce((n, g) => n + g.ids.length, 0),
    };
  }

  async #backup(includeVectors: boolean): Promise<BackupInfo> {
    const now = this.#clock();
    const doc = await this.#export({ includeVectors });
    const bytes = await encodeRecord({ o: 'backup', doc }, undefined, this.#cipher);
    const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
    const info: BackupInfo = { id: `backup-${stamp}-${globalThis.crypto.randomUUID().slice(0, 8)}`, createdAt: now, size: bytes.length };
    await guard('write the backup', () => this.#backupStore.putBackup(info, bytes));
    this.#lastBackupAt = now;
    this.#newSinceBackup = 0;
    const all = await guard('list backups', () => this.#backupStore.listBackups());
    for (const old of all.slice(0, Math.max(0, all.length - this.#auto.keep)))
      await guard('prune old backups', () => this.#backupStore.deleteBackup(old.id));
    return info;
  }

  async #initBackupState(): Promise<void> {
    const last = (await guard('list backups', () => this.#backupStore.listBackups())).at(-1);
    this.#lastBackupAt = last?.createdAt ?? this.#clock();
    this.#newSinceBackup = last ? Number(this.#rows('SELECT count(*) FROM entries WHERE created_at > ?', [last.createdAt])[0]![0]) : 0;
  }

  #watchVisibility(): void {
    if (!this.#p || !this.#compaction.onPageHidden || typeof document === 'undefined') return;
    this.#onHidden = () => {
      if (document.visibilityState === 'hidden' && !this.#closed && this.#logCount > 0)
        this.#serial(() => this.#compactMain()).catch((e: unknown) => {
          this.#maintenanceError = persistenceError('compaction failed', e);
        });
    };
    document.addEventListener('visibilitychange', this.#onHidden);
  }
}

/** Open a {@link SqliteStorage} (same as {@link SqliteStorage.open}). */
export function createSqliteStorage(options: SqliteStorageOptions = {}): Promise<SqliteStorage> {
  return SqliteStorage.open(options);
}

function loadSqlJs(options: SqliteStorageOptions): Promise<SqlJsStatic> {
  if (options.sqlJs) return Promise.resolve(options.sqlJs);
  if (options.locateFile) return initSqlJs({ locateFile: options.locateFile });
  defaultSqlJs ??= initSqlJs();
  return defaultSqlJs;
}

async function guard<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw persistenceError(`Failed to ${what}`, e);
  }
}

const OPEN_KEYS = ['persistence', 'encryption', 'sqlJs', 'locateFile', 'compaction', 'backups', 'clock', 'restoreFrom'];
const COMPACTION_KEYS = ['maxLogRecords', 'maxLogBytes', 'maxVectorLogRecords', 'onPageHidden'];
const BACKUP_KEYS = ['enabled', 'intervalMs', 'everyNewEntries', 'keep', 'includeVectors'];
const PERSISTENCE_METHODS = ['readMeta', 'writeMeta', 'read', 'head', 'append', 'compact', 'truncate', 'replaceAll', 'putBackup', 'listBackups', 'getBackup', 'deleteBackup', 'close'];

/**
 * Everything `open` reads, checked before anything is read or written. Unknown keys are rejected
 * because a typo such as `persistance` would otherwise open a database that lives only in memory.
 */
function checkOpenOptions(o: SqliteStorageOptions): void {
  onlyKeys('options', o, OPEN_KEYS);
  const p: unknown = o.persistence;
  if (p !== undefined && (typeof p !== 'object' || p === null || PERSISTENCE_METHODS.some((m) => typeof (p as Record<string, unknown>)[m] !== 'function')))
    invalid('persistence', 'a Persistence driver (IndexedDbPersistence, FilePersistence, MemoryPersistence)', p);
  if (o.locateFile !== undefined && typeof o.locateFile !== 'function') invalid('locateFile', 'a function', o.locateFile);
  if (o.clock !== undefined && typeof o.clock !== 'function') invalid('clock', 'a function returning epoch milliseconds', o.clock);
  if (o.restoreFrom !== undefined && (typeof o.restoreFrom !== 'string' || o.restoreFrom === ''))
    invalid('restoreFrom', "'latest' or a backup id", o.restoreFrom);
  if (o.compaction !== undefined) {
    onlyKeys('compaction', o.compaction, COMPACTION_KEYS);
    const c = o.compaction;
    for (const k of ['maxLogRecords', 'maxLogBytes', 'maxVectorLogRecords'] as const) if (c[k] !== undefined) positiveInt(`compaction.${k}`, c[k]);
    if (c.onPageHidden !== undefined && typeof c.onPageHidden !== 'boolean') invalid('compaction.onPageHidden', 'a boolean', c.onPageHidden);
  }
  if (o.backups !== undefined) {
    onlyKeys('backups', o.backups, BACKUP_KEYS);
    const b = o.backups;
    for (const k of ['intervalMs', 'everyNewEntries', 'keep'] as const) if (b[k] !== undefined) positiveInt(`backups.${k}`, b[k]);
    for (const k of ['enabled', 'includeVectors'] as const)
      if (b[k] !== undefined && typeof b[k] !== 'boolean') invalid(`backups.${k}`, 'a boolean', b[k]);
  }
}

function onlyKeys(field: string, value: unknown, keys: readonly string[]): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) invalid(field, 'an object', value);
  for (const k of Object.keys(value)) if (!keys.includes(k)) invalid(`${field}.${k}`, `one of ${keys.join(', ')}`, k);
}

function positiveInt(field: string, v: unknown): number {
  if (!Number.isInteger(v) || (v as number) < 1) invalid(field, 'an integer >= 1', v);
  return v as number;
}

async function makeMeta(cipher: Cipher | undefined): Promise<Uint8Array> {
  const meta: MetaRecord = { format: 'zerda-sqlite', version: 1, encrypted: cipher !== undefined };
  if (cipher) meta.keyCheck = toBase64(await cipher.encryptText(KEY_CHECK));
  return encodeRecord(meta, undefined, undefined);
}

async function checkMeta(bytes: Uint8Array, cipher: Cipher | undefined): Promise<void> {
  let meta: MetaRecord;
  try {
    meta = (await decodeRecord<MetaRecord>(bytes, undefined)).header;
    if (meta.format !== 'zerda-sqlite') throw new RecordError('format', 'not a Zerda database');
  } catch (e) {
    throw openFailure('meta record', e);
  }
  if (meta.encrypted && !cipher) throw new ZerdaError('DECRYPTION', 'The database is encrypted: open it with `encryption` (passphrase or key)');
  if (!meta.encrypted && cipher)
    throw new ZerdaError('DECRYPTION', 'The database is not encrypted: open it without `encryption`, then call changeEncryption()');
  if (cipher) {
    const text = await cipher.decryptText(fromBase64(meta.keyCheck ?? ''));
    if (text !== KEY_CHECK) throw new ZerdaError('DECRYPTION', 'Wrong passphrase or key');
  }
}

function transaction(db: Database, fn: () => void): void {
  db.exec('BEGIN');
  try {
    fn();
    db.exec('COMMIT');
  } catch (e) {
    db.exec('ROLLBACK');
    throw e;
  }
}

type Applier = ((op: MainOp) => number) & { free(): void };

/** The function that applies main-stream ops to a database; returns entries added (not updated). */
function createApplier(db: Database): Applier {
  const cache = new Map<string, Statement>();
  const prepared = (sql: string) => {
    let s = cache.get(sql);
    if (!s) {
      s = db.prepare(sql);
      cache.set(sql, s);
    }
    return s;
  };
  const run = (sql: string, params: SqlValue[]) => {
    prepared(sql).run(params);
  };
  const all = (sql: string, params: SqlValue[]) => {
    const s = prepared(sql);
    try {
      s.bind(params);
      const out: SqlValue[][] = [];
      while (s.step()) out.push(s.get());
      return out;
    } finally {
      s.reset();
    }
  };
  const one = (sql: string, params: SqlValue[]) => {
    const s = prepared(sql);
    try {
      s.bind(params);
      return s.step() ? s.get() : undefined;
    } finally {
      s.reset();
    }
  };
  // Upsert a batch: existing rows are found with one query and removed (FTS first: external-content
  // FTS4 reads the old text from `entries` to unindex it), new rows go in through one prepared
  // statement, and the FTS index is filled with one INSERT … SELECT over the new rowids.
  const KEYS = "SELECT json_extract(value, '$[0]') AS t, json_extract(value, '$[1]') AS i FROM json_each(?)";
  const upsertMany = (list: MemoryEntry[]): number => {
    if (list.length === 0) return 0;
    const latest = new Map<string, MemoryEntry>();
    for (const e of list) {
      const key = `${e.tenantId}\u0000${e.id}`;
      latest.delete(key);
      latest.set(key, e);
    }
    const entries = [...latest.values()];
    const keys = JSON.stringify(entries.map((e) => [e.tenantId, e.id]));
    const existing = all(`SELECT e.rid, e.tenant_id, e.id FROM (${KEYS}) k CROSS JOIN entries e ON e.tenant_id = k.t AND e.id = k.i`, [keys]);
    for (const [rid] of existing) {
      run('DELETE FROM entries_fts WHERE docid = ?', [rid!]);
      run('DELETE FROM entry_tags WHERE rid = ?', [rid!]);
      run('DELETE FROM entries WHERE rid = ?', [rid!]);
    }
    const before = Number(one('SELECT coalesce(max(rid), 0) FROM entries', [])![0]);
    for (const e of entries) {
      const text = entryText(e);
      const terms = ftsTerms(text);
      const rest: StoredData = { content: e.content, accessCount: e.accessCount, tags: e.tags, metadata: e.metadata, version: e.version };
      run(
        'INSERT INTO entries (tenant_id, id, user_id, tier, kind, created_at, last_access, importance, doc_len, text_lc, terms, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [e.tenantId, e.id, e.userId ?? null, e.tier, e.kind, e.createdAt, e.lastAccess, e.importance, terms.length, text.toLowerCase(), terms.join(' '), JSON.stringify(rest)],
      );
      // WITHOUT ROWID inserts leave last_insert_rowid() alone, so it still names the entry.
      for (const tag of e.tags) run('INSERT OR IGNORE INTO entry_tags (tag, rid) VALUES (?, last_insert_rowid())', [tag]);
    }
    run('INSERT INTO entries_fts (docid, terms) SELECT rid, terms FROM entries WHERE rid > ?', [before]);
    return entries.length - existing.length;
  };
  const remove = (t: string, id: string) => {
    const old = one('SELECT rid FROM entries WHERE tenant_id = ? AND id = ?', [t, id]);
    if (!old) return;
    run('DELETE FROM entries_fts WHERE docid = ?', [Number(old[0])]);
    run('DELETE FROM entries WHERE rid = ?', [Number(old[0])]);
    run('DELETE FROM entry_tags WHERE rid = ?', [Number(old[0])]);
  };
  const profile = (p: UserProfile) =>
    run('INSERT OR REPLACE INTO profiles (tenant_id, user_id, data) VALUES (?, ?, ?)', [p.tenantId, p.userId, JSON.stringify(p)]);
  const apply = (op: MainOp): number => {
    switch (op.o) {
      case 'put':
        return upsertMany(op.e);
      case 'del':
        for (const id of op.ids) remove(op.t, id);
        return 0;
      case 'prof':
        profile(op.p);
        return 0;
      case 'clear':
        run('DELETE FROM entries_fts WHERE docid IN (SELECT rid FROM entries WHERE tenant_id = ?)', [op.t]);
        run('DELETE FROM entry_tags WHERE rid IN (SELECT rid FROM entries WHERE tenant_id = ?)', [op.t]);
        run('DELETE FROM entries WHERE tenant_id = ?', [op.t]);
        run('DELETE FROM profiles WHERE tenant_id = ?', [op.t]);
        return 0;
      case 'import': {
        if (op.replace && op.ts) {
          for (const t of op.ts) {
            run('DELETE FROM entries_fts WHERE docid IN (SELECT rid FROM entries WHERE tenant_id = ?)', [t]);
            run('DELETE FROM entry_tags WHERE rid IN (SELECT rid FROM entries WHERE tenant_id = ?)', [t]);
            run('DELETE FROM entries WHERE tenant_id = ?', [t]);
            run('DELETE FROM profiles WHERE tenant_id = ?', [t]);
          }
        } else if (op.replace) {
          run('DELETE FROM entries_fts', []);
          run('DELETE FROM entries', []);
          run('DELETE FROM entry_tags', []);
          run('DELETE FROM profiles', []);
        }
        const added = upsertMany(op.e);
        for (const p of op.p) profile(p);
        return added;
      }
      default:
        throw new ZerdaError('STORAGE', `Unknown log record type ${(op as { o: unknown }).o}`);
    }
  };
  return Object.assign(apply, {
    free() {
      for (const s of cache.values()) s.free();
      cache.clear();
    },
  });
}

function applyVec(db: Database, op: VecOp, data: Float32Array | undefined): void {
  if (op.o === 'vput') {
    const stmt = db.prepare('INSERT OR REPLACE INTO vec.vectors (tenant_id, model_id, dim, id, data) VALUES (?, ?, ?, ?, ?)');
    try {
      // A model's dim may change only through a full delete; drop stale rows of another dim.
      db.run('DELETE FROM vec.vectors WHERE tenant_id = ? AND model_id = ? AND dim <> ?', [op.t, op.m, op.d]);
      op.ids.forEach((id, i) => {
        stmt.run([op.t, op.m, op.d, id, floatsToBytes(data!.subarray(i * op.d, (i + 1) * op.d))]);
      });
    } finally {
      stmt.free();
    }
    return;
  }
  if (op.t === undefined) db.run('DELETE FROM vec.vectors');
  else if (op.ids) db.run('DELETE FROM vec.vectors WHERE tenant_id = ? AND id IN (SELECT value FROM json_each(?))' + (op.m ? ' AND model_id = ?' : ''), [op.t, JSON.stringify(op.ids), ...(op.m ? [op.m] : [])]);
  else if (op.m) db.run('DELETE FROM vec.vectors WHERE tenant_id = ? AND model_id = ?', [op.t, op.m]);
  else db.run('DELETE FROM vec.vectors WHERE tenant_id = ?', [op.t]);
}
