import { ZerdaError, isZerdaError } from '@zerda/core';

/**
 * The two record streams a database is made of. `main` holds entries, tags, the lexical index and
 * profiles (its base is one SQLite snapshot); `vectors` holds embeddings (its base is a set of
 * chunks), so rewriting one never rewrites the other.
 */
export type StreamName = 'main' | 'vectors';

/** One log record: `seq` increases within its stream; `bytes` is opaque to the driver. */
export interface LogRecord {
  seq: number;
  bytes: Uint8Array;
}

/** What a stream holds: the base (written by compaction) and the log records appended since. */
export interface StreamState {
  /** Base records in order (empty for a stream never compacted). */
  base: Uint8Array[];
  /** Highest log seq the base covers; log records with `seq <= upto` are stale. */
  upto: number;
  /** Log records in ascending `seq`. */
  log: LogRecord[];
  /** True when the driver found an incomplete or damaged record after the valid ones (a torn append, flipped bits). */
  torn?: boolean;
  /**
   * Set (to why) when the base could not be read at all (a damaged header): `base` is then empty
   * and `upto` 0, and the storage treats the stream's base as corrupt rather than as empty.
   */
  corrupt?: string;
}

/** A record to append to one stream. */
export interface AppendRecord {
  stream: StreamName;
  seq: number;
  bytes: Uint8Array;
}

/** Metadata of one stored backup (plain, never secret). */
export interface BackupInfo {
  id: string;
  /** Epoch ms (from the storage's clock). */
  createdAt: number;
  /** Size in bytes as stored. */
  size: number;
}

/** Everything a database is, for an atomic rewrite (passphrase change). */
export interface FullState {
  meta: Uint8Array;
  main: { base: Uint8Array[]; upto: number };
  vectors: { base: Uint8Array[]; upto: number };
  /** Backups to rewrite in place (same ids). */
  backups: { info: BackupInfo; bytes: Uint8Array }[];
}

/**
 * Where a {@link SqliteStorage} keeps its bytes. Drivers store opaque records; checksums,
 * encryption and meaning live in the storage. Every method that writes resolves only once the
 * data is durable for its medium (IndexedDB transaction complete, file fsynced). Failures reject
 * with `ZerdaError` `STORAGE` or `QUOTA_EXCEEDED` and leave what was there before.
 *
 * Implementations: {@link IndexedDbPersistence} (browser), `FilePersistence` (`@zerda/sqlite/node`),
 * {@link MemoryPersistence} (tests).
 */
export interface Persistence {
  /** Short description for stats and errors (e.g. `indexeddb:zerda-notes`). */
  readonly description: string;
  /** The meta record, or `undefined` for a database never written. */
  readMeta(): Promise<Uint8Array | undefined>;
  /** Write the meta record. */
  writeMeta(bytes: Uint8Array): Promise<void>;
  /** Everything in a stream. */
  read(stream: StreamName): Promise<StreamState>;
  /**
   * Highest seq in the stream (base `upto` or any log record, wherever it lies), without reading
   * the records: the next record must be numbered above every seq present, even a misplaced one.
   */
  head(stream: StreamName): Promise<number>;
  /** Durably append records, atomically across streams when the medium allows it. */
  append(records: AppendRecord[]): Promise<void>;
  /** Atomically replace the stream's base and drop its log records with `seq <= upto`. */
  compact(stream: StreamName, base: Uint8Array[], upto: number): Promise<void>;
  /**
   * Keep the stream's first `keep` log records, in the order {@link Persistence.read} returns
   * them, and drop every record after them and any torn tail. Repair cuts by position, not by
   * seq: a record rejected on open may carry any seq (a misdirected write with a valid checksum),
   * and it must go with everything after it, or the next append would land behind it and be
   * dropped on the following open.
   */
  truncateLog(stream: StreamName, keep: number): Promise<void>;
  /** Replace meta, both streams (logs emptied) and the given backups, as atomically as the medium allows. */
  replaceAll(state: FullState): Promise<void>;
  /** Store a backup. */
  putBackup(info: BackupInfo, bytes: Uint8Array): Promise<void>;
  /** Stored backups, oldest first. */
  listBackups(): Promise<BackupInfo[]>;
  /** A backup's bytes, or `undefined`. */
  getBackup(id: string): Promise<Uint8Array | undefined>;
  /** Delete a backup (no-op when absent). */
  deleteBackup(id: string): Promise<void>;
  /** Release handles. The data stays. */
  close(): Promise<void>;
}

/** Map a driver failure to `QUOTA_EXCEEDED` (quota/disk full) or `STORAGE`. */
export function persistenceError(message: string, cause: unknown): ZerdaError {
  if (isZerdaError(cause)) return cause;
  const c = cause as { name?: unknown; code?: unknown; message?: unknown } | null;
  const name = typeof c?.name === 'string' ? c.name : '';
  const code = typeof c?.code === 'string' ? c.code : '';
  const detail = typeof c?.message === 'string' ? `: ${c.message}` : '';
  if (name === 'QuotaExceededError' || code === 'ENOSPC' || code === 'EDQUOT' || /quota/i.test(detail))
    return new ZerdaError('QUOTA_EXCEEDED', `${message}: storage quota exceeded${detail}`, { cause });
  return new ZerdaError('STORAGE', `${message}${detail}`, { cause });
}

/** Run a driver call, mapping its failure with {@link persistenceError} (`Failed to <what>…`). */
export async function guard<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw persistenceError(`Failed to ${what}`, e);
  }
}

/** One stream of a {@link MemoryPersistenceState}: its snapshot pages, the log sequence they include, and the log after it. */
export interface MemoryStream {
  /** The snapshot, in pages. */
  base: Uint8Array[];
  /** The last log sequence number the snapshot includes. */
  upto: number;
  /** The log records written after the snapshot. */
  log: LogRecord[];
}

/** The state behind a {@link MemoryPersistence}; share it between instances to simulate a reopen. */
export interface MemoryPersistenceState {
  meta: Uint8Array | undefined;
  streams: Record<StreamName, MemoryStream>;
  backups: Map<string, { info: BackupInfo; bytes: Uint8Array }>;
}

/** A fresh, empty {@link MemoryPersistenceState}. */
export function createMemoryPersistenceState(): MemoryPersistenceState {
  return {
    meta: undefined,
    streams: { main: { base: [], upto: 0, log: [] }, vectors: { base: [], upto: 0, log: [] } },
    backups: new Map(),
  };
}

/**
 * A {@link Persistence} over plain memory (lost with the process). For tests: pass the same
 * `state` to a second instance to reopen, or edit it to simulate corruption.
 */
export class MemoryPersistence implements Persistence {
  readonly description = 'memory';
  /** The stored state (shared, mutable on purpose). */
  readonly state: MemoryPersistenceState;

  constructor(state: MemoryPersistenceState = createMemoryPersistenceState()) {
    this.state = state;
  }

  async readMeta(): Promise<Uint8Array | undefined> {
    return this.state.meta?.slice();
  }
  async writeMeta(bytes: Uint8Array): Promise<void> {
    this.state.meta = bytes.slice();
  }
  async read(stream: StreamName): Promise<StreamState> {
    const s = this.state.streams[stream];
    return {
      base: s.base.map((b) => b.slice()),
      upto: s.upto,
      log: s.log.map((r) => ({ seq: r.seq, bytes: r.bytes.slice() })),
    };
  }
  async head(stream: StreamName): Promise<number> {
    const s = this.state.streams[stream];
    return s.log.reduce((max, r) => Math.max(max, r.seq), s.upto);
  }
  async append(records: AppendRecord[]): Promise<void> {
    for (const r of records) this.state.streams[r.stream].log.push({ seq: r.seq, bytes: r.bytes.slice() });
  }
  async compact(stream: StreamName, base: Uint8Array[], upto: number): Promise<void> {
    const s = this.state.streams[stream];
    s.base = base.map((b) => b.slice());
    s.upto = upto;
    s.log = s.log.filter((r) => r.seq > upto);
  }
  async truncateLog(stream: StreamName, keep: number): Promise<void> {
    const s = this.state.streams[stream];
    s.log = s.log.slice(0, keep);
  }
  async replaceAll(state: FullState): Promise<void> {
    this.state.meta = state.meta.slice();
    for (const name of ['main', 'vectors'] as const)
      this.state.streams[name] = { base: state[name].base.map((b) => b.slice()), upto: state[name].upto, log: [] };
    for (const b of state.backups) this.state.backups.set(b.info.id, { info: { ...b.info }, bytes: b.bytes.slice() });
  }
  async putBackup(info: BackupInfo, bytes: Uint8Array): Promise<void> {
    this.state.backups.set(info.id, { info: { ...info }, bytes: bytes.slice() });
  }
  async listBackups(): Promise<BackupInfo[]> {
    return [...this.state.backups.values()].map((b) => ({ ...b.info })).sort(byCreated);
  }
  async getBackup(id: string): Promise<Uint8Array | undefined> {
    return this.state.backups.get(id)?.bytes.slice();
  }
  async deleteBackup(id: string): Promise<void> {
    this.state.backups.delete(id);
  }
  async close(): Promise<void> {}
}

/** Sort backups oldest first, ties by id. */
export function byCreated(a: BackupInfo, b: BackupInfo): number {
  return a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
