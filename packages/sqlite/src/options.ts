import initSqlJs from 'sql.js';
import type { SqlJsStatic } from 'sql.js';
import { checkOptionKeys, checkVectorPrecision, invalid } from '@zerda/core/adapter';
import type { Clock, KeyCipherOptions, PassphraseCipherOptions, VectorPrecision } from '@zerda/core';
import type { Persistence } from './persistence.js';

// The options of SqliteStorage.open, their defaults and checks, and what opening reports.

/** How to encrypt at rest: a passphrase (PBKDF2-SHA256) or a supplied AES-GCM `CryptoKey`. */
export type EncryptionOptions = PassphraseCipherOptions | KeyCipherOptions;

/**
 * When the log is folded into a fresh snapshot. The main stream is compacted once its log has
 * `maxLogRecords` records and its bytes reach `logToSnapshot` × the last snapshot's bytes, or
 * once its log holds `maxLogBytes`, whichever comes first.
 */
export interface CompactionOptions {
  /**
   * Compact the main stream once its log has this many records (and has reached
   * `logToSnapshot` of the snapshot's size). Default 1000.
   */
  maxLogRecords?: number;
  /** ...or, whatever its record count and the snapshot's size, once its log holds this many bytes. Default 8 MiB. */
  maxLogBytes?: number;
  /**
   * How large the main log must grow, as a fraction of the last snapshot's bytes, before
   * `maxLogRecords` compacts it. Every compaction writes the whole database again, so a fixed
   * record count makes a long run of writes (an import) cost the square of its size; a log that
   * grows with the snapshot keeps that work in proportion to what was written, and the replay on
   * the next open (after a crash; a page being hidden compacts) in proportion to the database. `0`:
   * the record count alone. Default 0.5.
   */
  logToSnapshot?: number;
  /** Rewrite the vector chunks after this many vector log records (only once vectors are loaded). Default 500. */
  maxVectorLogRecords?: number;
  /** Compact when the page becomes hidden (browser only). Default true. */
  onPageHidden?: boolean;
}

/** Automatic backups (only with a persistence driver). */
export interface AutoBackupOptions {
  /** Default true. */
  enabled?: boolean;
  /** Back up when this long has passed since the last backup and anything changed (core's `BackupSchedule`). Default 24 h. */
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
  /**
   * How vectors are kept (in memory and at rest): `'float32'` (exact) or `'int8'` (a scale and one
   * byte a dimension per row: the vector store, its chunks and the memory it takes shrink ~4x;
   * `loadVectors` returns the dequantised rows, so recall is close to, not identical with,
   * `'float32'`; see core's `VectorPrecision`). Applies to rows written from then on; rows already
   * stored keep their precision until written again (e.g. `manager.reindex`). Default `'float32'`.
   */
  vectorPrecision?: VectorPrecision;
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

/** Options of {@link SqliteStorage.exportJson} (and of `PostgresStorage.exportJson`, which uses these types). */
export interface ExportOptions {
  /** Only this tenant. */
  tenantId?: string;
  /** Include vectors (base64 float32). Default false. */
  includeVectors?: boolean;
}

const DAY = 86_400_000;

/** Compaction options with their defaults filled in. */
export function compactionDefaults(c: CompactionOptions = {}): Required<CompactionOptions> {
  return {
    maxLogRecords: positiveInt('compaction.maxLogRecords', c.maxLogRecords ?? 1000),
    maxLogBytes: positiveInt('compaction.maxLogBytes', c.maxLogBytes ?? 8 * 1024 * 1024),
    logToSnapshot: ratio('compaction.logToSnapshot', c.logToSnapshot ?? 0.5),
    maxVectorLogRecords: positiveInt('compaction.maxVectorLogRecords', c.maxVectorLogRecords ?? 500),
    onPageHidden: c.onPageHidden ?? true,
  };
}

/** Automatic-backup options with their defaults filled in. */
export function autoBackupDefaults(b: AutoBackupOptions = {}): Required<AutoBackupOptions> {
  return {
    enabled: b.enabled ?? true,
    intervalMs: positiveInt('backups.intervalMs', b.intervalMs ?? DAY),
    everyNewEntries: positiveInt('backups.everyNewEntries', b.everyNewEntries ?? 100),
    keep: positiveInt('backups.keep', b.keep ?? 10),
    includeVectors: b.includeVectors ?? false,
  };
}

let defaultSqlJs: Promise<SqlJsStatic> | undefined;

/** The sql.js module `options` ask for (the default one is loaded once per process). */
export function loadSqlJs(options: SqliteStorageOptions): Promise<SqlJsStatic> {
  if (options.sqlJs) return Promise.resolve(options.sqlJs);
  if (options.locateFile) return initSqlJs({ locateFile: options.locateFile });
  defaultSqlJs ??= initSqlJs();
  return defaultSqlJs;
}

const OPEN_KEYS = [
  'persistence',
  'encryption',
  'sqlJs',
  'locateFile',
  'compaction',
  'backups',
  'clock',
  'restoreFrom',
  'vectorPrecision',
];
const PERSISTENCE_METHODS = [
  'readMeta',
  'writeMeta',
  'read',
  'head',
  'append',
  'compact',
  'truncateLog',
  'replaceAll',
  'putBackup',
  'listBackups',
  'getBackup',
  'deleteBackup',
  'close',
];

/**
 * Everything `open` reads, checked before anything is read or written. Unknown keys are rejected
 * because a typo such as `persistance` would otherwise open a database that lives only in memory.
 */
export function checkOpenOptions(o: SqliteStorageOptions): void {
  checkOptionKeys(o, OPEN_KEYS, 'options');
  const p: unknown = o.persistence;
  if (
    p !== undefined &&
    (typeof p !== 'object' ||
      p === null ||
      PERSISTENCE_METHODS.some((m) => typeof (p as Record<string, unknown>)[m] !== 'function'))
  )
    invalid('persistence', 'a Persistence driver (IndexedDbPersistence, FilePersistence, MemoryPersistence)', p);
  if (o.locateFile !== undefined && typeof o.locateFile !== 'function')
    invalid('locateFile', 'a function', o.locateFile);
  if (o.clock !== undefined && typeof o.clock !== 'function')
    invalid('clock', 'a function returning epoch milliseconds', o.clock);
  if (o.restoreFrom !== undefined && (typeof o.restoreFrom !== 'string' || o.restoreFrom === ''))
    invalid('restoreFrom', "'latest' or a backup id", o.restoreFrom);
  if (o.vectorPrecision !== undefined) checkVectorPrecision('vectorPrecision', o.vectorPrecision);
  if (o.compaction !== undefined) {
    checkSection(
      'compaction',
      o.compaction,
      ['maxLogRecords', 'maxLogBytes', 'maxVectorLogRecords'],
      ['onPageHidden'],
      ['logToSnapshot'],
    );
  }
  if (o.backups !== undefined)
    checkSection('backups', o.backups, ['intervalMs', 'everyNewEntries', 'keep'], ['enabled', 'includeVectors']);
}

/** A nested options object: only the known keys, counts integers >= 1, switches booleans, ratios finite numbers >= 0. */
function checkSection(
  what: string,
  value: unknown,
  counts: readonly string[],
  switches: readonly string[],
  ratios: readonly string[] = [],
): void {
  checkOptionKeys(value, [...counts, ...switches, ...ratios], what);
  const v = value as Record<string, unknown>;
  for (const k of counts) if (v[k] !== undefined) positiveInt(`${what}.${k}`, v[k]);
  for (const k of ratios) if (v[k] !== undefined) ratio(`${what}.${k}`, v[k]);
  for (const k of switches)
    if (v[k] !== undefined && typeof v[k] !== 'boolean') invalid(`${what}.${k}`, 'a boolean', v[k]);
}

function positiveInt(field: string, v: unknown): number {
  if (!Number.isInteger(v) || (v as number) < 1) invalid(field, 'an integer >= 1', v);
  return v as number;
}

function ratio(field: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) invalid(field, 'a finite number >= 0', v);
  return v;
}
