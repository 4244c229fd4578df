import type { Database, SqlValue, Statement } from 'sql.js';
import { ZerdaError } from '@zerda/core';
import { KeyedMutex } from '@zerda/core/adapter';
import type { Cipher } from '@zerda/core';
import type { CompactionOptions } from './options.js';
import { guard } from './persistence.js';
import type { AppendRecord, Persistence } from './persistence.js';
import { encodeVectorRows } from '@zerda/core/adapter';
import type { VectorModel, VectorPrecision } from '@zerda/core';
import { encodeRecord } from './record-codec.js';
import { SCHEMA_VERSION } from './schema.js';
import { applyVec, createApplier, transaction } from './sql-apply.js';
import type { Applier, MainOp, VecOp, VecWrite } from './sql-apply.js';

// Log writes and compaction: the open database, its persistence, the write queue, and the
// counters that decide when the log is folded into a new base.

const VECTOR_CHUNK_ROWS = 4096;
const QUEUE = 'writes';

/** The state every part of a {@link SqliteStorage} works on (internal; not exported by the package). */
export class Store {
  readonly db: Database;
  /** The driver, or `undefined` for a purely in-memory database. */
  readonly p: Persistence | undefined;
  readonly compaction: Required<CompactionOptions>;
  readonly apply: Applier;
  cipher: Cipher | undefined;
  closed = false;
  mainSeq: number;
  vecSeq: number;
  /** Main-stream log records (and their bytes) since the last compaction. */
  logCount: number;
  logBytes: number;
  /** Bytes of the main stream's last snapshot record (0: none yet). */
  snapshotBytes: number;
  /** Vector-stream log records since the last vector compaction (counted once vectors are loaded). */
  vecLogCount = 0;
  vectors: 'unloaded' | 'loaded' = 'unloaded';
  /** How new vector rows are kept (`SqliteStorageOptions.vectorPrecision`); rows already stored keep theirs. */
  readonly vectorPrecision: VectorPrecision;
  readonly #stmts = new Map<string, Statement>();
  readonly #queue = new KeyedMutex();

  constructor(init: {
    db: Database;
    persistence: Persistence | undefined;
    cipher: Cipher | undefined;
    compaction: Required<CompactionOptions>;
    vectorPrecision: VectorPrecision;
    mainSeq: number;
    vecSeq: number;
    logCount: number;
    logBytes: number;
    snapshotBytes: number;
  }) {
    this.db = init.db;
    this.p = init.persistence;
    this.cipher = init.cipher;
    this.compaction = init.compaction;
    this.vectorPrecision = init.vectorPrecision;
    this.mainSeq = init.mainSeq;
    this.vecSeq = init.vecSeq;
    this.logCount = init.logCount;
    this.logBytes = init.logBytes;
    this.snapshotBytes = init.snapshotBytes;
    this.apply = createApplier(this.db);
  }

  /** Run `fn` after every write queued before it (writes, compaction, backups run one at a time). */
  serial<T>(fn: () => Promise<T>): Promise<T> {
    // Tasks queued before close() still run: close() waits for them.
    return this.#queue.run(QUEUE, fn);
  }

  /** Resolves once everything queued so far has settled. */
  idle(): Promise<void> {
    return this.#queue.idle(QUEUE);
  }

  /** Rows of a (cached) prepared statement. */
  rows(sql: string, params: (SqlValue | undefined)[]): SqlValue[][] {
    let stmt = this.#stmts.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
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

  /** Free statements and the database. */
  release(): void {
    for (const s of this.#stmts.values()) s.free();
    this.#stmts.clear();
    this.apply.free();
    this.db.close();
  }

  /** Persist the records (durably), then apply them in memory; resolves to entries added. Runs inside {@link serial}. */
  async commit(main: MainOp | undefined, vec: VecWrite[]): Promise<number> {
    const records: AppendRecord[] = [];
    let vecSeq = this.vecSeq;
    if (this.p) {
      // Each record carries its own seq (`s`), under its checksum: a driver's key or frame that
      // says otherwise is caught on replay, whatever the medium.
      if (main)
        records.push({
          stream: 'main',
          seq: this.mainSeq + 1,
          bytes: await encodeRecord({ ...main, s: this.mainSeq + 1 }, undefined, this.cipher),
        });
      for (const v of vec) {
        const seq = ++vecSeq;
        records.push({
          stream: 'vectors',
          seq,
          bytes: await encodeRecord({ ...v.op, s: seq }, v.bytes, this.cipher),
        });
      }
      await guard('write to the database', () => this.p!.append(records));
      for (const r of records) {
        if (r.stream === 'main') {
          this.mainSeq = r.seq;
          this.logCount++;
          this.logBytes += r.bytes.length;
        } else {
          this.vecSeq = r.seq;
          this.vecLogCount++;
        }
      }
    }
    let added = 0;
    transaction(this.db, () => {
      if (main) added = this.apply(main);
      if (this.vectors === 'loaded') for (const v of vec) applyVec(this.db, v.op, v.bytes);
    });
    return added;
  }

  /** Compact the streams whose logs passed their thresholds (see {@link CompactionOptions}). */
  async compactIfDue(): Promise<void> {
    if (!this.p) return;
    const c = this.compaction;
    if (
      this.logBytes >= c.maxLogBytes ||
      (this.logCount >= c.maxLogRecords && this.logBytes >= c.logToSnapshot * this.snapshotBytes)
    )
      await this.compactMain();
    if (this.vectors === 'loaded' && this.vecLogCount >= this.compaction.maxVectorLogRecords)
      await this.compactVectors();
  }

  async snapshotRecord(cipher: Cipher | undefined): Promise<Uint8Array> {
    // `upto` under the record's checksum: a base whose stored upto says otherwise is corrupt.
    return encodeRecord({ o: 'snap', schema: SCHEMA_VERSION, upto: this.mainSeq }, this.db.export(), cipher);
  }

  /** Fold the log into a new snapshot; `force` writes one even when the log is empty. */
  async compactMain(force = false): Promise<void> {
    if (!this.p || (this.logCount === 0 && !force)) return;
    const rec = await this.snapshotRecord(this.cipher);
    await guard('compact the database', () => this.p!.compact('main', [rec], this.mainSeq));
    this.logCount = 0;
    this.logBytes = 0;
    this.snapshotBytes = rec.length;
  }

  /** A `vput` of `model` rows (`data`, `ids.length × model.dim` floats) encoded at this store's precision. */
  vectorPut(tenantId: string, model: VectorModel, ids: string[], data: Float32Array): VecWrite {
    return {
      op: { o: 'vput', t: tenantId, m: model.id, d: model.dim, ids },
      bytes: encodeVectorRows(data, model.dim, this.vectorPrecision),
    };
  }

  /**
   * The vector stream's base: a head record (`vbase`, chunk count) and chunks of up to 4096 rows,
   * each chunk rows of one byte length (one precision), copied as stored: never re-quantised.
   */
  async vectorBase(cipher: Cipher | undefined): Promise<Uint8Array[]> {
    const chunks: Uint8Array[] = [];
    const groups = this.rows(
      'SELECT DISTINCT tenant_id, model_id, dim, length(data) FROM vec.vectors ORDER BY 1, 2, 4',
      [],
    );
    for (const [t, m, d, len] of groups) {
      const dim = Number(d);
      const rowBytes = Number(len);
      const rows = this.rows(
        'SELECT id, data FROM vec.vectors WHERE tenant_id = ? AND model_id = ? AND length(data) = ? ORDER BY id',
        [t, m, rowBytes],
      );
      for (let i = 0; i < rows.length; i += VECTOR_CHUNK_ROWS) {
        const part = rows.slice(i, i + VECTOR_CHUNK_ROWS);
        const bytes = new Uint8Array(part.length * rowBytes);
        part.forEach((r, j) => bytes.set(r[1] as Uint8Array, j * rowBytes));
        const op: VecOp = { o: 'vput', t: t as string, m: m as string, d: dim, ids: part.map((r) => r[0] as string) };
        chunks.push(await encodeRecord(op, bytes, cipher));
      }
    }
    return [await encodeRecord({ o: 'vbase', n: chunks.length }, undefined, cipher), ...chunks];
  }

  async compactVectors(): Promise<void> {
    if (!this.p) return;
    const base = await this.vectorBase(this.cipher);
    await guard('compact the vector store', () => this.p!.compact('vectors', base, this.vecSeq));
    this.vecLogCount = 0;
  }

  /** Throw `CLOSED` once the storage is closed. */
  checkOpen(): void {
    if (this.closed) throw new ZerdaError('CLOSED', 'SqliteStorage is closed');
  }
}
