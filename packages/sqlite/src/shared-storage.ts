import { ZerdaError, isZerdaError } from '@zerda/core';
import { invalid } from '@zerda/core/adapter';
import type { LexicalHit, LexicalQuery, MemoryEntry, MemoryFilter, MemoryQuery } from '@zerda/core';
import type { StorageAdapter, StorageStats, UserProfile, VectorBlock } from '@zerda/core';
import type { SerializedZerdaError } from '@zerda/core';
import type {} from '@zerda/core/adapter';
import type { VectorModel, VectorRecord } from '@zerda/core';
import { IndexedDbPersistence } from './indexeddb-persistence.js';
import type { BackupInfo, Persistence } from './persistence.js';
import { SqliteStorage } from './sqlite-storage.js';
import type { EncryptionOptions, ExportOptions, ImportReport, SqliteStorageOptions } from './options.js';
import type { ZerdaExport } from '@zerda/core';
import type { ApplyReport, SyncChange, SyncState } from '@zerda/core';
import type {} from '@zerda/core/adapter';

/** The subset of `BroadcastChannel` used here (injectable for tests). */
export interface ChannelLike {
  /** Send a message to the other members of the channel. */
  postMessage(message: unknown): void;
  /** Listen for messages from the other members. */
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  /** Stop listening. */
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  /** Leave the channel. */
  close(): void;
}

/** Options of {@link SharedSqliteStorage.open}. */
export interface SharedSqliteStorageOptions extends Omit<SqliteStorageOptions, 'persistence'> {
  /** Database name: the IndexedDB database, the Web Lock and the BroadcastChannel derive from it. */
  name: string;
  /** IndexedDB durability (see {@link IndexedDbPersistenceOptions}). Default `'strict'`. */
  durability?: 'strict' | 'relaxed';
  /** Persistence factory (default: `new IndexedDbPersistence({ name, durability })`). Called by each owner. */
  persistence?: () => Persistence;
  /** Default `navigator.locks`. */
  locks?: LockManager;
  /** Default `new BroadcastChannel('zerda-sqlite:' + name)`. */
  channel?: () => ChannelLike;
}

/** Methods a follower tab forwards to the owner (the adapter plus the storage extras). */
const METHODS = [
  'put',
  'putMany',
  'get',
  'getMany',
  'delete',
  'deleteMany',
  'query',
  'count',
  'lexicalSearch',
  'putVectors',
  'loadVectors',
  'vectorModels',
  'deleteVectors',
  'getProfile',
  'putProfile',
  'listProfiles',
  'clearTenant',
  'listTenants',
  'stats',
  'syncState',
  'pendingChanges',
  'markPushed',
  'applyChanges',
  'compact',
  'exportJson',
  'importJson',
  'createBackup',
  'listBackups',
  'restoreBackup',
  'deleteBackup',
] as const;
type Method = (typeof METHODS)[number];

type Message =
  | { type: 'call'; id: string; from: string; method: Method; args: unknown[] }
  | { type: 'result'; id: string; to: string; ok: true; value: unknown }
  | { type: 'result'; id: string; to: string; ok: false; error: SerializedZerdaError }
  | { type: 'owner'; tab: string };

interface Pending {
  method: Method;
  args: unknown[];
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

const RECENT_CALLS = 2000;

/**
 * A {@link StorageAdapter} shared by every tab of an origin. One tab at a time owns the database
 * (an exclusive Web Lock); it opens a {@link SqliteStorage} over IndexedDB and executes every
 * call. Other tabs forward their calls over a BroadcastChannel and get the owner's answer, so all
 * tabs see the same data. When the owner closes (or its tab dies, which releases the lock), the
 * next tab in the lock queue opens the database from IndexedDB — every acknowledged write is
 * there — announces itself, and followers re-send the calls still unanswered.
 *
 * Caveat: a call the old owner executed but could not answer before dying is executed again by
 * the new owner. Upserts are idempotent; a repeated `delete` then reports `false`.
 */
export class SharedSqliteStorage implements StorageAdapter {
  /** @inheritdoc */
  readonly name = 'sqlite-shared';
  readonly #options: SharedSqliteStorageOptions;
  readonly #tab = globalThis.crypto.randomUUID();
  readonly #pending = new Map<string, Pending>();
  readonly #recent = new Map<string, Promise<unknown>>();
  readonly #channel: ChannelLike;
  readonly #locks: LockManager;
  readonly #abort = new AbortController();
  #storage: SqliteStorage | undefined;
  #opening: Promise<SqliteStorage> | undefined;
  #release: (() => void) | undefined;
  #closed = false;
  #closing: Promise<void> | undefined;
  #seq = 0;
  #listener = (event: MessageEvent) => this.#onMessage(event.data as Message);

  private constructor(options: SharedSqliteStorageOptions) {
    this.#options = options;
    const locks = options.locks ?? (globalThis.navigator as Navigator | undefined)?.locks;
    if (!locks)
      throw new ZerdaError('UNSUPPORTED', 'Web Locks (navigator.locks) are not available; use SqliteStorage directly');
    this.#locks = locks;
    this.#channel = options.channel?.() ?? new BroadcastChannel(`zerda-sqlite:${options.name}`);
    this.#channel.addEventListener('message', this.#listener);
  }

  /**
   * Join the database `name`: become its owner when no tab is, a follower otherwise. Rejects with
   * `DECRYPTION` when `encryption` does not fit the stored database (checked in both roles).
   */
  static async open(options: SharedSqliteStorageOptions): Promise<SharedSqliteStorage> {
    if (typeof options !== 'object' || options === null) invalid('options', 'an object with name', options);
    if (typeof options.name !== 'string' || options.name === '')
      invalid('options.name', 'a non-empty string', options.name);
    const s = new SharedSqliteStorage(options);
    try {
      await s.#start();
    } catch (e) {
      s.#shutdown();
      throw e;
    }
    return s;
  }

  /** True while this tab owns the database. */
  get isOwner(): boolean {
    return this.#storage !== undefined;
  }

  #persistence(): Persistence {
    return (
      this.#options.persistence?.() ??
      new IndexedDbPersistence({
        name: this.#options.name,
        ...(this.#options.durability ? { durability: this.#options.durability } : {}),
      })
    );
  }

  #lockName(): string {
    return `zerda-sqlite:${this.#options.name}`;
  }

  async #start(): Promise<void> {
    const first = await new Promise<'owner' | 'follower'>((resolve, reject) => {
      this.#locks
        .request(this.#lockName(), { ifAvailable: true }, async (lock) => {
          if (!lock) {
            resolve('follower');
            return;
          }
          try {
            await this.#become();
          } catch (e) {
            reject(e);
            return;
          }
          resolve('owner');
          await this.#held();
        })
        .catch(reject);
    });
    if (first === 'follower') {
      // Read-only check of the key: must not take the owner's exclusive IndexedDB lock.
      const p =
        this.#options.persistence?.() ?? new IndexedDbPersistence({ name: this.#options.name, exclusive: false });
      try {
        await SqliteStorage.verifyKey({
          persistence: p,
          ...(this.#options.encryption ? { encryption: this.#options.encryption } : {}),
        });
      } finally {
        await p.close();
      }
      this.#queueTakeover();
    }
  }

  #queueTakeover(): void {
    this.#locks
      .request(this.#lockName(), { signal: this.#abort.signal }, async () => {
        if (this.#closed) return;
        try {
          await this.#become();
        } catch (e) {
          for (const [id, p] of this.#pending) {
            this.#pending.delete(id);
            p.reject(e);
          }
          return;
        }
        await this.#held();
      })
      .catch(() => undefined);
  }

  async #become(): Promise<void> {
    const { name: _name, durability: _d, locks: _l, channel: _c, persistence: _p, ...rest } = this.#options;
    this.#opening = SqliteStorage.open({ ...rest, persistence: this.#persistence() });
    try {
      this.#storage = await this.#opening;
    } finally {
      this.#opening = undefined;
    }
    this.#channel.postMessage({ type: 'owner', tab: this.#tab } satisfies Message);
    // Calls this tab made while it was a follower now run here.
    for (const [id, p] of this.#pending) {
      this.#pending.delete(id);
      this.#execute(p.method, p.args).then(p.resolve, p.reject);
    }
  }

  #held(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#release = resolve;
    });
  }

  #execute(method: Method, args: unknown[]): Promise<unknown> {
    const s = this.#storage!;
    return (s[method] as (...a: unknown[]) => Promise<unknown>).apply(s, args);
  }

  #onMessage(msg: Message): void {
    if (this.#closed || typeof msg !== 'object' || msg === null) return;
    if (msg.type === 'call') {
      if (!this.#storage || !METHODS.includes(msg.method)) return;
      let run = this.#recent.get(msg.id);
      if (!run) {
        run = this.#execute(msg.method, msg.args);
        this.#recent.set(msg.id, run);
        if (this.#recent.size > RECENT_CALLS) this.#recent.delete(this.#recent.keys().next().value!);
      }
      run.then(
        (value) => this.#post({ type: 'result', id: msg.id, to: msg.from, ok: true, value }),
        (e: unknown) => {
          const err = isZerdaError(e) ? e : new ZerdaError('INTERNAL', e instanceof Error ? e.message : String(e));
          this.#post({ type: 'result', id: msg.id, to: msg.from, ok: false, error: err.toJSON() });
        },
      );
      return;
    }
    if (msg.type === 'result') {
      if (msg.to !== this.#tab) return;
      const p = this.#pending.get(msg.id);
      if (!p) return;
      this.#pending.delete(msg.id);
      if (msg.ok) p.resolve(msg.value);
      else p.reject(ZerdaError.fromJSON(msg.error));
      return;
    }
    if (msg.type === 'owner' && msg.tab !== this.#tab) {
      for (const [id, p] of this.#pending)
        this.#post({ type: 'call', id, from: this.#tab, method: p.method, args: p.args });
    }
  }

  #post(msg: Message): void {
    if (!this.#closed) this.#channel.postMessage(msg);
  }

  async #call<T>(method: Method, args: unknown[]): Promise<T> {
    if (this.#closed) throw new ZerdaError('CLOSED', 'SharedSqliteStorage is closed');
    if (this.#storage) return this.#execute(method, args) as Promise<T>;
    if (this.#opening) {
      await this.#opening.catch(() => undefined);
      if (this.#storage) return this.#execute(method, args) as Promise<T>;
    }
    const id = `${this.#tab}:${++this.#seq}`;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { method, args, resolve: resolve as (v: unknown) => void, reject });
      this.#post({ type: 'call', id, from: this.#tab, method, args });
    });
  }

  put(entry: MemoryEntry): Promise<void> {
    return this.#call('put', [entry]);
  }
  putMany(entries: MemoryEntry[]): Promise<void> {
    return this.#call('putMany', [entries]);
  }
  get(tenantId: string, id: string): Promise<MemoryEntry | undefined> {
    return this.#call('get', [tenantId, id]);
  }
  getMany(tenantId: string, ids: string[]): Promise<MemoryEntry[]> {
    return this.#call('getMany', [tenantId, ids]);
  }
  delete(tenantId: string, id: string): Promise<boolean> {
    return this.#call('delete', [tenantId, id]);
  }
  deleteMany(tenantId: string, ids: string[]): Promise<number> {
    return this.#call('deleteMany', [tenantId, ids]);
  }
  query(query: MemoryQuery): Promise<MemoryEntry[]> {
    return this.#call('query', [query]);
  }
  count(filter: MemoryFilter): Promise<number> {
    return this.#call('count', [filter]);
  }
  lexicalSearch(query: LexicalQuery): Promise<LexicalHit[]> {
    return this.#call('lexicalSearch', [query]);
  }
  putVectors(tenantId: string, model: VectorModel, records: VectorRecord[]): Promise<void> {
    return this.#call('putVectors', [tenantId, model, records]);
  }
  loadVectors(tenantId: string, modelId: string): Promise<VectorBlock | undefined> {
    return this.#call('loadVectors', [tenantId, modelId]);
  }
  vectorModels(tenantId: string): Promise<VectorModel[]> {
    return this.#call('vectorModels', [tenantId]);
  }
  deleteVectors(tenantId: string, modelId?: string): Promise<number> {
    return this.#call('deleteVectors', modelId === undefined ? [tenantId] : [tenantId, modelId]);
  }
  getProfile(tenantId: string, userId: string): Promise<UserProfile | undefined> {
    return this.#call('getProfile', [tenantId, userId]);
  }
  putProfile(profile: UserProfile): Promise<void> {
    return this.#call('putProfile', [profile]);
  }
  listProfiles(tenantId: string): Promise<UserProfile[]> {
    return this.#call('listProfiles', [tenantId]);
  }
  clearTenant(tenantId: string): Promise<number> {
    return this.#call('clearTenant', [tenantId]);
  }
  listTenants(): Promise<string[]> {
    return this.#call('listTenants', []);
  }
  stats(tenantId?: string): Promise<StorageStats> {
    return this.#call('stats', tenantId === undefined ? [] : [tenantId]);
  }
  syncState(tenantId: string): Promise<SyncState> {
    return this.#call('syncState', [tenantId]);
  }
  pendingChanges(tenantId: string, limit: number): Promise<SyncChange[]> {
    return this.#call('pendingChanges', [tenantId, limit]);
  }
  markPushed(tenantId: string, recordIds: string[]): Promise<number> {
    return this.#call('markPushed', [tenantId, recordIds]);
  }
  applyChanges(tenantId: string, changes: SyncChange[], cursor?: string): Promise<ApplyReport> {
    return this.#call('applyChanges', cursor === undefined ? [tenantId, changes] : [tenantId, changes, cursor]);
  }
  /** See {@link SqliteStorage.compact} (runs on the owner). */
  compact(): Promise<void> {
    return this.#call('compact', []);
  }
  /** See {@link SqliteStorage.exportJson}. */
  exportJson(options: ExportOptions = {}): Promise<ZerdaExport> {
    return this.#call('exportJson', [options]);
  }
  /** See {@link SqliteStorage.importJson}. */
  importJson(doc: ZerdaExport | string, options: { mode?: 'merge' | 'replace' } = {}): Promise<ImportReport> {
    return this.#call('importJson', [doc, options]);
  }
  /** See {@link SqliteStorage.createBackup}. */
  createBackup(options: { includeVectors?: boolean } = {}): Promise<BackupInfo> {
    return this.#call('createBackup', [options]);
  }
  /** See {@link SqliteStorage.listBackups}. */
  listBackups(): Promise<BackupInfo[]> {
    return this.#call('listBackups', []);
  }
  /** See {@link SqliteStorage.restoreBackup}. */
  restoreBackup(id: string): Promise<ImportReport> {
    return this.#call('restoreBackup', [id]);
  }
  /** See {@link SqliteStorage.deleteBackup}. */
  deleteBackup(id: string): Promise<void> {
    return this.#call('deleteBackup', [id]);
  }
  /** Only the owner can change the key (other tabs must reopen with the new one afterwards). */
  async changeEncryption(next: EncryptionOptions | null): Promise<void> {
    if (this.#closed) throw new ZerdaError('CLOSED', 'SharedSqliteStorage is closed');
    if (!this.#storage) throw new ZerdaError('UNSUPPORTED', 'changeEncryption must run in the owner tab (see isOwner)');
    await this.#storage.changeEncryption(next);
  }

  /**
   * Leave: an owner finishes its queued writes, closes the database and releases the lock (the
   * next tab takes over); a follower rejects its unanswered calls with `CLOSED`. Closing again is
   * a no-op.
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#closed = true;
      const storage = this.#storage;
      this.#storage = undefined;
      if (storage) await storage.close().catch(() => undefined);
      this.#shutdown();
    })();
    return this.#closing;
  }

  #shutdown(): void {
    this.#closed = true;
    for (const [id, p] of this.#pending) {
      this.#pending.delete(id);
      p.reject(new ZerdaError('CLOSED', 'SharedSqliteStorage is closed'));
    }
    this.#abort.abort();
    this.#release?.();
    this.#channel.removeEventListener('message', this.#listener);
    this.#channel.close();
  }
}
