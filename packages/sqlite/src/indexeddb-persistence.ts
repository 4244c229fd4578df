import { openDB } from 'idb';
import type { IDBPDatabase } from 'idb';
import { ZerdaError } from '@zerda/core';
import { invalid } from '@zerda/core/adapter';
import { byCreated, persistenceError } from './persistence.js';
import type { AppendRecord, BackupInfo, FullState, LogRecord, Persistence, StreamName } from './persistence.js';
import type { StreamState } from './persistence.js';

/** Options of {@link IndexedDbPersistence}. */
export interface IndexedDbPersistenceOptions {
  /** IndexedDB database name. Default `"zerda"`. */
  name?: string;
  /**
   * Transaction durability for writes. `'strict'` (default) asks the browser to flush to disk
   * before the transaction completes, so an acknowledged write survives an OS crash, not only a
   * closed tab. `'relaxed'` is faster and still survives a closed tab or a crashed renderer.
   */
  durability?: 'strict' | 'relaxed';
  /**
   * Hold an exclusive Web Lock (`zerda-idb:<name>`) from first use (backup reads excepted) until `close()`, so a second
   * writer on the same database (another tab, another instance) fails with `CONFLICT` instead of
   * interleaving log records. Default true. Where `navigator.locks` does not exist, only a second
   * instance in the same page or process is refused (there is nothing to coordinate with others). Use
   * `SharedSqliteStorage` to share a database between tabs.
   */
  exclusive?: boolean;
  /**
   * How long to wait for that lock before failing with `CONFLICT` (a closing or reloading tab
   * releases it a moment after it goes away). Default 3000 ms.
   */
  lockTimeoutMs?: number;
}

/**
 * Names held by instances of this realm where there are no Web Locks (Node with
 * fake-indexeddb, older browsers): two instances on one database in one realm would interleave
 * log records (both number them from the same head) and lose writes on replay.
 */
const heldWithoutLocks = new Set<string>();

const STORES = ['meta', 'main-base', 'main-log', 'vectors-base', 'vectors-log', 'backups'] as const;
const UPTO = 'upto';
const META = 'meta';

interface StoredBackup {
  info: BackupInfo;
  bytes: Uint8Array;
}

/**
 * {@link Persistence} on IndexedDB (through `idb`). Object stores: `meta`; per stream a `*-base`
 * store (numbered base records plus the `upto` key) and a `*-log` store keyed by `seq`; `backups`.
 * Every write is one transaction, resolved on `complete`; compaction replaces the base and deletes
 * the covered log records in the same transaction, so it is atomic. Uses the global `indexedDB`
 * (in Node tests: `import 'fake-indexeddb/auto'`).
 */
export class IndexedDbPersistence implements Persistence {
  readonly description: string;
  readonly #name: string;
  readonly #durability: 'strict' | 'relaxed';
  readonly #exclusive: boolean;
  readonly #lockTimeoutMs: number;
  #unlock: (() => void) | undefined;
  #locked: Promise<void> | undefined;
  #db: Promise<IDBPDatabase> | undefined;

  constructor(options: IndexedDbPersistenceOptions = {}) {
    if (typeof options !== 'object' || options === null) invalid('options', 'an object', options);
    // A typo such as `nmae` would otherwise silently open the default database.
    for (const k of Object.keys(options))
      if (!['name', 'durability', 'exclusive', 'lockTimeoutMs'].includes(k))
        invalid(`options.${k}`, 'one of name, durability, exclusive, lockTimeoutMs', k);
    if (options.exclusive !== undefined && typeof options.exclusive !== 'boolean')
      invalid('exclusive', 'a boolean', options.exclusive);
    const name = options.name ?? 'zerda';
    if (typeof name !== 'string' || name === '') invalid('name', 'a non-empty string', name);
    if (options.durability !== undefined && options.durability !== 'strict' && options.durability !== 'relaxed')
      invalid('durability', "'strict' | 'relaxed'", options.durability);
    this.#name = name;
    this.#durability = options.durability ?? 'strict';
    this.#exclusive = options.exclusive ?? true;
    const wait = options.lockTimeoutMs ?? 3000;
    if (!Number.isInteger(wait) || wait < 0) invalid('lockTimeoutMs', 'an integer >= 0', wait);
    this.#lockTimeoutMs = wait;
    this.description = `indexeddb:${name}`;
  }

  /** The connection; with `lock` (every method but the backup reads) the exclusive lock first. */
  async #open(lock = true): Promise<IDBPDatabase> {
    if (lock) await this.#lock();
    this.#db ??= this.#connect();
    return this.#db;
  }

  async #connect(): Promise<IDBPDatabase> {
    if (typeof indexedDB === 'undefined')
      throw new ZerdaError('UNSUPPORTED', 'IndexedDB is not available in this runtime');
    try {
      return await openDB(this.#name, 1, {
        upgrade(db) {
          for (const s of STORES) if (!db.objectStoreNames.contains(s)) db.createObjectStore(s);
        },
        blocking(_current, _next, event) {
          (event.target as IDBDatabase).close();
        },
      });
    } catch (e) {
      this.#db = undefined;
      throw persistenceError(`Cannot open IndexedDB database ${this.#name}`, e);
    }
  }

  #lock(): Promise<void> {
    const locks = (globalThis.navigator as Navigator | undefined)?.locks;
    if (!this.#exclusive) return Promise.resolve();
    if (!locks) {
      if (this.#unlock) return Promise.resolve();
      if (heldWithoutLocks.has(this.#name))
        return Promise.reject(
          new ZerdaError(
            'CONFLICT',
            `IndexedDB database ${this.#name} is already open for writing by another instance in this page or process`,
          ),
        );
      heldWithoutLocks.add(this.#name);
      this.#unlock = () => heldWithoutLocks.delete(this.#name);
      return Promise.resolve();
    }
    this.#locked ??= this.#acquire(locks).catch((e: unknown) => {
      this.#locked = undefined;
      throw e;
    });
    return this.#locked;
  }

  async #acquire(locks: LockManager): Promise<void> {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), this.#lockTimeoutMs);
    try {
      await new Promise<void>((resolve, reject) => {
        locks
          .request(`zerda-idb:${this.#name}`, { signal: abort.signal }, () => {
            return new Promise<void>((release) => {
              this.#unlock = release;
              resolve();
            });
          })
          .catch((e: unknown) => {
            reject(
              abort.signal.aborted
                ? new ZerdaError(
                    'CONFLICT',
                    `IndexedDB database ${this.#name} is already open for writing (another tab or instance); share it with SharedSqliteStorage`,
                  )
                : e,
            );
          });
      });
    } finally {
      clearTimeout(timer);
    }
  }

  #write(stores: string[]) {
    return this.#open().then((db) => db.transaction(stores, 'readwrite', { durability: this.#durability }));
  }

  async readMeta(): Promise<Uint8Array | undefined> {
    const db = await this.#open();
    return (await db.get('meta', META)) as Uint8Array | undefined;
  }

  async writeMeta(bytes: Uint8Array): Promise<void> {
    const tx = await this.#write(['meta']);
    void tx.objectStore('meta').put(bytes, META);
    await committed(tx.done);
  }

  async read(stream: StreamName): Promise<StreamState> {
    const db = await this.#open();
    const tx = db.transaction([`${stream}-base`, `${stream}-log`], 'readonly');
    const base = tx.objectStore(`${stream}-base`);
    const log = tx.objectStore(`${stream}-log`);
    const [chunks, upto, keys, values] = await Promise.all([
      base.getAll(IDBKeyRange.bound(0, Infinity)) as Promise<Uint8Array[]>,
      base.get(UPTO) as Promise<number | undefined>,
      log.getAllKeys() as Promise<number[]>,
      log.getAll() as Promise<Uint8Array[]>,
      tx.done,
    ]);
    const records: LogRecord[] = keys.map((seq, i) => ({ seq, bytes: values[i]! }));
    return { base: chunks, upto: upto ?? 0, log: records };
  }

  async head(stream: StreamName): Promise<number> {
    const db = await this.#open();
    const tx = db.transaction([`${stream}-base`, `${stream}-log`], 'readonly');
    const [upto, cursor] = await Promise.all([
      tx.objectStore(`${stream}-base`).get(UPTO) as Promise<number | undefined>,
      tx.objectStore(`${stream}-log`).openKeyCursor(null, 'prev'),
    ]);
    const last = cursor ? (cursor.key as number) : 0;
    await committed(tx.done);
    return Math.max(upto ?? 0, last);
  }

  async append(records: AppendRecord[]): Promise<void> {
    if (records.length === 0) return;
    const stores = [...new Set(records.map((r) => `${r.stream}-log`))];
    const tx = await this.#write(stores);
    for (const r of records) void tx.objectStore(`${r.stream}-log`).put(r.bytes, r.seq);
    await committed(tx.done);
  }

  async compact(stream: StreamName, base: Uint8Array[], upto: number): Promise<void> {
    const tx = await this.#write([`${stream}-base`, `${stream}-log`]);
    const b = tx.objectStore(`${stream}-base`);
    void b.clear();
    base.forEach((bytes, i) => void b.put(bytes, i));
    void b.put(upto, UPTO);
    void tx.objectStore(`${stream}-log`).delete(IDBKeyRange.upperBound(upto));
    await committed(tx.done);
  }

  async truncateLog(stream: StreamName, keep: number): Promise<void> {
    const tx = await this.#write([`${stream}-log`]);
    const log = tx.objectStore(`${stream}-log`);
    // Records are read in key order, so the first one dropped and every later key go.
    const keys = (await log.getAllKeys()) as number[];
    const first = keys[keep];
    if (first !== undefined) void log.delete(IDBKeyRange.lowerBound(first));
    await committed(tx.done);
  }

  async replaceAll(state: FullState): Promise<void> {
    const tx = await this.#write([...STORES]);
    void tx.objectStore('meta').put(state.meta, META);
    for (const stream of ['main', 'vectors'] as const) {
      const b = tx.objectStore(`${stream}-base`);
      void b.clear();
      state[stream].base.forEach((bytes, i) => void b.put(bytes, i));
      void b.put(state[stream].upto, UPTO);
      void tx.objectStore(`${stream}-log`).clear();
    }
    for (const bk of state.backups)
      void tx.objectStore('backups').put({ info: bk.info, bytes: bk.bytes } satisfies StoredBackup, bk.info.id);
    await committed(tx.done);
  }

  async putBackup(info: BackupInfo, bytes: Uint8Array): Promise<void> {
    const tx = await this.#write(['backups']);
    void tx.objectStore('backups').put({ info, bytes } satisfies StoredBackup, info.id);
    await committed(tx.done);
  }

  // Backup reads take no lock: another tab may read a backup while the owner holds the database.
  async listBackups(): Promise<BackupInfo[]> {
    const db = await this.#open(false);
    const all = (await db.getAll('backups')) as StoredBackup[];
    return all.map((b) => b.info).sort(byCreated);
  }

  async getBackup(id: string): Promise<Uint8Array | undefined> {
    const db = await this.#open(false);
    return ((await db.get('backups', id)) as StoredBackup | undefined)?.bytes;
  }

  async deleteBackup(id: string): Promise<void> {
    const tx = await this.#write(['backups']);
    void tx.objectStore('backups').delete(id);
    await committed(tx.done);
  }

  async close(): Promise<void> {
    const db = this.#db;
    this.#db = undefined;
    if (db) (await db.catch(() => undefined))?.close();
    this.#unlock?.();
    this.#unlock = undefined;
    this.#locked = undefined;
  }
}

/**
 * Wait for a write transaction. This driver never aborts its own transactions, so an abort the
 * browser gives no reason for (Chromium does that when its backing store cannot write: a full
 * disk) is reported as `QUOTA_EXCEEDED`, like a `QuotaExceededError`. Nothing of the transaction
 * was written either way.
 */
async function committed(done: Promise<void>): Promise<void> {
  try {
    await done;
  } catch (e) {
    if ((e as { name?: unknown } | null)?.name === 'AbortError')
      throw new ZerdaError(
        'QUOTA_EXCEEDED',
        'IndexedDB aborted the write without a reason (in Chromium: the disk is full); nothing of it was stored',
        {
          cause: e,
        },
      );
    throw e;
  }
}
