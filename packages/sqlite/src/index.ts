/**
 * Public surface of @zerda/sqlite (browser-safe; the Node file driver is in '@zerda/sqlite/node').
 * @module @zerda/sqlite
 */
export { SqliteStorage, createSqliteStorage } from './sqlite-storage.js';
export type {
  AutoBackupOptions,
  CompactionOptions,
  EncryptionOptions,
  ExportOptions,
  ImportReport,
  OpenReport,
  SqliteStorageOptions,
} from './options.js';
export { MemoryPersistence, createMemoryPersistenceState, persistenceError } from './persistence.js';
export type {
  AppendRecord,
  BackupInfo,
  FullState,
  LogRecord,
  MemoryPersistenceState,
  MemoryStream,
  Persistence,
  StreamName,
  StreamState,
} from './persistence.js';
export { IndexedDbPersistence } from './indexeddb-persistence.js';
export type { IndexedDbPersistenceOptions } from './indexeddb-persistence.js';
// The export format lives in @zerda/core; re-exported here for existing imports.
export { EXPORT_VERSION, validateExport } from '@zerda/core';
export type { ExportedVectors, ZerdaExport } from '@zerda/core';
export { SharedSqliteStorage } from './shared-storage.js';
export type { ChannelLike, SharedSqliteStorageOptions } from './shared-storage.js';

// The core types in SqliteStorage's signatures (an app that uses it directly can name them: under
// pnpm, an app that installs only @zerda/sqlite cannot import @zerda/core).
export { isZerdaError, ZerdaError } from '@zerda/core';
export type {
  ApplyReport,
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
  SyncChange,
  SyncState,
  UserProfile,
  VectorBlock,
  VectorModel,
  VectorPrecision,
  VectorRecord,
  ZerdaErrorCode,
} from '@zerda/core';
