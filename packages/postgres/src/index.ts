/**
 * Public surface of @zerda/postgres (Node only: it talks to PostgreSQL through `pg`).
 * @module @zerda/postgres
 */
export { DEFAULT_HNSW_INDEX, PostgresStorage, createPostgresStorage } from './postgres-storage.js';
export type {
  ExportOptions,
  HnswIndexOptions,
  ImportReport,
  MigrateOptions,
  PostgresStorageOptions,
  VectorHit,
  VectorSearchCounts,
  VectorSearchOptions,
} from './postgres-storage.js';
export { SCHEMA_VERSION } from './schema.js';
export { codeForSqlState } from './errors.js';

// The core types in PostgresStorage's signatures (an app that uses it directly can name them).
export type {
  ApplyReport,
  Clock,
  LexicalHit,
  LexicalQuery,
  MemoryEntry,
  MemoryFilter,
  MemoryQuery,
  StorageAdapter,
  StorageStats,
  SyncChange,
  SyncState,
  UserProfile,
  VectorBlock,
  VectorModel,
  VectorRecord,
  ZerdaErrorCode,
  ZerdaExport,
} from '@zerda/core';
