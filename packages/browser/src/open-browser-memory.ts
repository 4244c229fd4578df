import {
  HashEmbedder,
  MemoryManager,
  resolveConfig,
  ZerdaError,
  type Clock,
  type Embedder,
  type LlmClient,
  type MemoryConfigInput,
  type MemoryManagerOptions,
  type OwnerOption,
  type StorageAdapter,
} from '@zerda/core';
import { checkOptionKeys, invalid } from '@zerda/core/adapter';
import {
  IndexedDbPersistence,
  SharedSqliteStorage,
  SqliteStorage,
  type BackupInfo,
  type SqliteStorageOptions,
  type ZerdaExport,
} from '@zerda/sqlite';
// The client side only: a page (and a server-side render of it) never bundles transformers.js.
import { createWorkerEmbedder, type MessageEndpoint } from '@zerda/embeddings/worker-client';
import type { ModelLoadProgress, SerializableEmbedderOptions } from '@zerda/embeddings';
import { announceWrites, ChangeFeed, type ChangeListener } from './change-feed.js';
import { importIntoMemory, type BulkStorage, type ImportOptions, type MemoryImportReport } from './import.js';

/** Progress of {@link openBrowserMemory}, for a loading bar. */
export interface OpenProgress {
  /** `storage`: opening (and decrypting) the database; `model`: loading the embedding model; `ready`: done. */
  phase: 'storage' | 'model' | 'ready';
  /** 0..1 within the phase, when known. */
  progress?: number;
  /** Human-readable detail (a file name). */
  detail?: string;
}

/**
 * The embedding model in a Web Worker: a running worker (or port) that called `exposeEmbedder`
 * (e.g. `new EmbedWorker()` from `@zerda/embeddings/worker-entry?worker`), or the URL of such a
 * module worker script, plus where the model is (`modelFiles`, `localModelPath`, `model`, ...).
 */
export interface WorkerModelOptions extends SerializableEmbedderOptions {
  worker?: MessageEndpoint;
  workerUrl?: string | URL;
}

/** Options of {@link openBrowserMemory}. Everything is optional. */
export interface OpenBrowserMemoryOptions {
  /** IndexedDB database name. Default `zerda`. */
  name?: string;
  /** Encrypt everything written to IndexedDB (AES-GCM, key from this passphrase via PBKDF2). */
  passphrase?: string;
  /** Encrypt with your own AES-GCM `CryptoKey` instead of a passphrase. */
  key?: CryptoKey;
  /**
   * Where memories live: `indexeddb` (default; durable, shared by every tab of the origin: one
   * tab owns the database through a Web Lock, the others forward to it), `memory` (SQLite in
   * memory, gone on reload), or your own adapter (then `name`, `passphrase`, `key` and `sqlite`
   * do not apply).
   */
  storage?: 'indexeddb' | 'memory' | StorageAdapter;
  /**
   * Vector embeddings: the model in a worker ({@link WorkerModelOptions}), `hash` (no model:
   * deterministic feature hashing), `none` (lexical recall only), or any `Embedder` (e.g. an
   * in-thread `createTransformersEmbedder()` where workers are unavailable, as in an extension's
   * service worker). Default `hash`, with a console warning (say `'hash'` to choose it);
   * `@zerda/browser/vite` defaults to the bundled model.
   */
  embedder?: WorkerModelOptions | 'hash' | 'none' | Embedder;
  /** URL of sql.js' `sql-wasm-browser.wasm` when the bundler does not resolve it by itself. */
  sqlWasmUrl?: string;
  /** Extra `SqliteStorage` options (compaction, automatic backups, corrupt-snapshot recovery, vector precision). */
  sqlite?: Pick<SqliteStorageOptions, 'compaction' | 'backups' | 'restoreFrom' | 'vectorPrecision'>;
  /** Memory configuration (validated by core). */
  config?: MemoryConfigInput;
  /** Single-user apps: this user is admin of every tenant (`'me'`), or of one (`{ userId, tenantId }`). */
  owner?: OwnerOption;
  /** System instruction placed first in every context. */
  systemPrompt?: string;
  /** Token budget of `buildContext`. */
  contextTokens?: number;
  /** Optional LLM for compression summaries. */
  llm?: LlmClient;
  /** Source of time (epoch ms). Default `Date.now`. */
  clock?: Clock;
  /** Loading progress (database, then model). */
  onProgress?: (progress: OpenProgress) => void;
}

/** An open browser memory: the manager plus the parts it was wired from. Close it when done. */
export interface BrowserMemory {
  /** The orchestrator: save, recall, build context and prompts, maintain. */
  readonly manager: MemoryManager;
  /** The storage adapter under the manager. */
  readonly storage: StorageAdapter;
  /** The embedder under the manager (`null` for lexical-only recall). */
  readonly embedder: Embedder | null;
  /** IndexedDB database name, or `null` when nothing is persisted. */
  readonly name: string | null;
  /** True while everything written to IndexedDB is encrypted. */
  readonly encrypted: boolean;
  /**
   * False in a tab that does not own the database (with several tabs on one IndexedDB database one
   * tab owns it and the others forward to it; ownership moves when the owner closes), true
   * otherwise. `startSync({ manager, … })` follows it by itself: only the owner tab syncs.
   */
  readonly isOwner: boolean;
  /**
   * Be told when stored memories change — here or in another tab on the same database (then the
   * recall index of those tenants is reloaded before listeners run). Returns the unsubscribe.
   */
  onChange(listener: ChangeListener): () => void;
  /**
   * Re-encrypt everything with a new passphrase, or remove encryption with `null`. With several
   * tabs open, only the tab that owns the database may do this (`UNSUPPORTED` elsewhere); the
   * other tabs must reopen with the new passphrase.
   */
  setPassphrase(passphrase: string | null): Promise<void>;
  /** Write a backup (kept in IndexedDB, encrypted like everything else). */
  createBackup(): Promise<BackupInfo>;
  /** Stored backups, oldest first. */
  listBackups(): Promise<BackupInfo[]>;
  /** Replace everything with a backup's content, then re-index what lacks vectors. */
  restoreBackup(id: string, options?: Omit<ImportOptions, 'mode'>): Promise<MemoryImportReport>;
  /** A backup's stored bytes (encrypted when encryption is on), e.g. to download. */
  readBackup(id: string): Promise<Uint8Array>;
  /** Delete a backup. */
  deleteBackup(id: string): Promise<void>;
  /** Every tenant's entries and profiles as versioned JSON (`zerda-export`). */
  exportJson(options?: { tenantId?: string; includeVectors?: boolean }): Promise<ZerdaExport>;
  /**
   * Import a `zerda-export` (object or JSON text): validated whole before anything is written,
   * then written and embedded in batches with progress, yielding to the event loop in between.
   */
  importJson(data: unknown, options?: ImportOptions): Promise<MemoryImportReport>;
  /** Flush background work, then close the manager, the embedder (and its worker) and the database. */
  close(): Promise<void>;
}

const OPTION_KEYS = [
  'name',
  'passphrase',
  'key',
  'storage',
  'embedder',
  'sqlWasmUrl',
  'sqlite',
  'config',
  'owner',
  'systemPrompt',
  'contextTokens',
  'llm',
  'clock',
  'onProgress',
];

/** Logged when `openBrowserMemory` is given no `embedder` (and so runs without a model). */
export const NO_EMBEDDER_WARNING =
  "[zerda] openBrowserMemory: no `embedder` given, so recall runs on feature hashing, without the embedding model. Pass `embedder: 'hash'` to choose that, or `{ worker }` / `{ workerUrl }` for the model (or import openBrowserMemory from '@zerda/browser/vite', which loads the bundled model).";

/**
 * Open Zerda in a browser context — a page, a PWA, a worker or an extension background — in one
 * call: `MemoryManager` over `SqliteStorage` persisted in IndexedDB, with the embedding model in a
 * Web Worker. Touches no DOM (only IndexedDB, Workers, WebCrypto), so it runs wherever those exist.
 *
 * A wrong passphrase rejects with `DECRYPTION` and changes nothing; so does a missing one for an
 * encrypted database.
 */

export async function openBrowserMemory(options: OpenBrowserMemoryOptions = {}): Promise<BrowserMemory> {
  checkOptionKeys(options, OPTION_KEYS, 'options');
  const name = options.name ?? 'zerda';
  if (typeof name !== 'string' || !name.trim()) invalid('name', 'a non-empty string', name);
  if (options.passphrase !== undefined && (typeof options.passphrase !== 'string' || options.passphrase.length === 0))
    invalid('passphrase', 'a non-empty string', options.passphrase);
  if (options.passphrase !== undefined && options.key !== undefined)
    invalid('key', 'either passphrase or key, not both', 'both');
  if (options.onProgress !== undefined && typeof options.onProgress !== 'function')
    invalid('onProgress', 'a function', options.onProgress);
  const storageChoice = options.storage ?? 'indexeddb';
  if (typeof storageChoice === 'string' && storageChoice !== 'indexeddb' && storageChoice !== 'memory')
    invalid('storage', "'indexeddb', 'memory' or a StorageAdapter", storageChoice);
  const embedderChoice = options.embedder ?? 'hash';
  // A memory without its model still recalls easy questions, so nobody would notice: say so.
  if (options.embedder === undefined) console.warn(NO_EMBEDDER_WARNING);
  if (
    typeof embedderChoice === 'string'
      ? embedderChoice !== 'hash' && embedderChoice !== 'none'
      : !isEmbedderChoice(embedderChoice)
  )
    invalid('embedder', "worker options with `worker` or `workerUrl`, 'hash', 'none' or an Embedder", embedderChoice);
  // Everything the manager would reject is rejected before the database is touched.
  if (options.config !== undefined) resolveConfig(options.config);
  const onProgress = options.onProgress;
  // Late model events (they cross the worker asynchronously) must not follow `ready`.
  let finished = false;
  const report = (p: OpenProgress): void => {
    if (finished || !onProgress) return;
    if (p.phase === 'ready') finished = true;
    onProgress(p);
  };

  report({ phase: 'storage', progress: 0 });
  let storage: StorageAdapter;
  let bulk: BulkStorage | null = null;
  if (typeof storageChoice === 'object') {
    storage = storageChoice;
  } else {
    const encryption =
      options.passphrase !== undefined
        ? { passphrase: options.passphrase }
        : options.key
          ? { key: options.key }
          : undefined;
    const sqliteOptions: Omit<SqliteStorageOptions, 'persistence'> = {
      ...options.sqlite,
      ...(encryption ? { encryption } : {}),
      ...(options.sqlWasmUrl ? { locateFile: () => options.sqlWasmUrl! } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
    };
    let opened: SqliteStorage | SharedSqliteStorage;
    if (storageChoice === 'memory') opened = await SqliteStorage.open(sqliteOptions);
    else if (hasWebLocks()) opened = await SharedSqliteStorage.open({ ...sqliteOptions, name });
    else opened = await SqliteStorage.open({ ...sqliteOptions, persistence: new IndexedDbPersistence({ name }) });
    bulk = opened;
    storage = opened;
  }
  report({ phase: 'storage', progress: 1 });

  const persisted = storageChoice === 'indexeddb' ? name : null;
  const feed = new ChangeFeed(persisted);
  let embedder: Embedder | null = null;
  try {
    embedder = createEmbedder(embedderChoice, report);
    report({ phase: 'model', progress: 0 });
    const managerOptions: MemoryManagerOptions = {
      storage: announceWrites(storage, feed),
      embedder,
      ...(options.config ? { config: options.config } : {}),
      ...(options.owner !== undefined ? { owner: options.owner } : {}),
      ...(options.systemPrompt !== undefined ? { systemPrompt: options.systemPrompt } : {}),
      ...(options.contextTokens !== undefined ? { contextTokens: options.contextTokens } : {}),
      ...(options.llm ? { llm: options.llm } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
    };
    const manager = await MemoryManager.create(managerOptions);
    report({ phase: 'ready', progress: 1 });
    return createHandle({
      manager,
      storage,
      bulk,
      feed,
      embedder,
      name: persisted,
      encrypted: !!(options.passphrase || options.key),
    });
  } catch (err) {
    feed.close();
    await embedder?.close().catch(() => {});
    await storage.close().catch(() => {});
    throw err;
  }
}

function createEmbedder(
  choice: NonNullable<OpenBrowserMemoryOptions['embedder']>,
  report: (p: OpenProgress) => void,
): Embedder | null {
  if (choice === 'none') return null;
  if (choice === 'hash') return new HashEmbedder();
  if (typeof (choice as Embedder).embed === 'function') return choice as Embedder;
  const { worker, workerUrl, ...model } = choice as WorkerModelOptions;
  return createWorkerEmbedder({
    ...model,
    ...(worker !== undefined ? { worker } : { workerUrl: workerUrl! }),
    onProgress: (p: ModelLoadProgress) => {
      if (p.status !== 'progress_total' || p.loaded === undefined) return;
      // Without a Content-Length the total grows with what was loaded: then only bytes are known.
      const known = p.total !== undefined && p.total > p.loaded;
      report({
        phase: 'model',
        ...(known ? { progress: p.loaded / p.total! } : {}),
        detail: `${(p.loaded / 1_048_576).toFixed(1)} MB`,
      });
    },
  });
}

interface Parts {
  manager: MemoryManager;
  storage: StorageAdapter;
  bulk: BulkStorage | null;
  feed: ChangeFeed;
  embedder: Embedder | null;
  name: string | null;
  encrypted: boolean;
}

function isEmbedderChoice(choice: unknown): boolean {
  if (typeof choice !== 'object' || choice === null) return false;
  const c = choice as Partial<Embedder & WorkerModelOptions>;
  return typeof c.embed === 'function' || c.worker !== undefined || c.workerUrl !== undefined;
}

function hasWebLocks(): boolean {
  return typeof (globalThis.navigator as Navigator | undefined)?.locks?.request === 'function';
}

function createHandle(parts: Parts): BrowserMemory {
  const { manager, storage, bulk, feed, embedder, name } = parts;
  let encrypted = parts.encrypted;
  const needBulk = (what: string): BulkStorage => {
    if (!bulk) throw new ZerdaError('UNSUPPORTED', `${what} needs the built-in SQLite storage`);
    return bulk;
  };
  // Another tab wrote: our recall index of those tenants is stale (entries are read through).
  feed.subscribe((change) => {
    if (change.source !== 'remote') return;
    if (change.tenantIds === null) manager.dropCachedVectors();
    else for (const t of change.tenantIds) manager.dropCachedVectors(t);
  });
  return {
    manager,
    storage,
    embedder,
    name,
    get encrypted() {
      return encrypted;
    },
    get isOwner() {
      return !(storage instanceof SharedSqliteStorage) || storage.isOwner;
    },
    onChange: (listener) => feed.subscribe(listener),
    async setPassphrase(passphrase) {
      if (passphrase !== null && (typeof passphrase !== 'string' || passphrase.length === 0))
        invalid('passphrase', 'a non-empty string or null', passphrase);
      const db = needBulk('Encryption');
      await manager.flush();
      await db.changeEncryption(passphrase === null ? null : { passphrase });
      encrypted = passphrase !== null;
    },
    createBackup: async () => needBulk('Backups').createBackup(),
    listBackups: async () => (bulk ? bulk.listBackups() : []),
    async restoreBackup(id, options = {}) {
      const db = needBulk('Backups');
      await manager.flush();
      await db.restoreBackup(id);
      feed.notify(null);
      return importIntoMemory(manager, db, null, options);
    },
    async readBackup(id) {
      if (name === null) throw new ZerdaError('UNSUPPORTED', 'Reading backup bytes needs IndexedDB persistence');
      // A second connection: with several tabs, the database itself is held by the owner tab.
      const p = new IndexedDbPersistence({ name, exclusive: false });
      try {
        const bytes = await p.getBackup(id);
        if (!bytes) throw new ZerdaError('NOT_FOUND', `No backup with id ${id}`);
        return bytes;
      } finally {
        await p.close();
      }
    },
    deleteBackup: async (id) => needBulk('Backups').deleteBackup(id),
    exportJson: async (options = {}) => needBulk('Export').exportJson(options),
    async importJson(data, options = {}) {
      const report = await importIntoMemory(manager, needBulk('Import'), data, options);
      feed.notify(report.tenants);
      return report;
    },
    async close() {
      try {
        await manager.close();
      } finally {
        feed.close();
      }
    },
  };
}
