/**
 * `@zerda/core/adapter` — the kit for code that plugs into Zerda: storage adapters (SQLite,
 * PostgreSQL, …), embedders, sync and framework integrations. The contracts themselves
 * (`StorageAdapter`, `Embedder`) and the data they carry are in `@zerda/core`; the conformance
 * suites are in `@zerda/core/testing`. Apps do not need this entry.
 * @module @zerda/core/adapter
 */

// ── Errors: the argument error, wrapping a cause, and errors across a worker hop
export {
  invalid,
  wrapError,
  serializeZerdaError,
  deserializeZerdaError,
  isSerializedZerdaError,
} from './model/errors.js';

// ── Argument rules, one place each
export { checkId, MAX_ID_LENGTH } from './model/ids.js';
export { checkOptionKeys } from './model/options.js';
export { checkEmbedArgs } from './model/embed-checks.js';
export { lendEmbedder } from './model/lent-embedder.js';
export { DEFAULT_IMPORTANCE, createEntry, validateEntry, normalizeTags } from './model/entry.js';
export type { NewEntry } from './model/entry.js';
export { MAX_METADATA_DEPTH, isWellFormed, toWellFormed } from './model/limits.js';

// ── Storage: the contract's rules in one base class, the shared checks and the SQL row layout
export { BaseStorage } from './storage/base-storage.js';
export { checkKey, checkIds, checkModel, checkFilter, checkQuery } from './storage/storage-checks.js';
export { checkLexicalQuery, checkVectorRecords } from './storage/storage-checks.js';
export { ENTRY_COLUMNS, entryColumnValues, entryData, entryFromRow, entryOrderSql } from './storage/entry-rows.js';
export { inIdOrder, queryOrder } from './storage/entry-rows.js';
export type { EntryData, EntryRow } from './storage/entry-rows.js';
export { BackupSchedule } from './storage/backup-schedule.js';
export type { BackupScheduleOptions, BackupScheduleState, BackupTrigger } from './storage/backup-schedule.js';
export { bytesToFloats, floatsToBytes, fromBase64, toBase64 } from './util/bytes.js';
export { yieldToEventLoop } from './util/yield.js';
export {
  VECTOR_PRECISIONS,
  checkVectorPrecision,
  decodeVectorRowsInto,
  encodeVectorRows,
  vectorRowBytes,
  vectorRowsPrecision,
} from './storage/vector-precision.js';

// ── Lexical search as core scores it (an adapter's `lexicalSearch` must match `LexicalIndex`)
export { analyze } from './retrieval/text.js';
export { BM25_DEFAULTS, LexicalIndex, bm25Idf, bm25TermScore } from './retrieval/lexical-index.js';
export type { Bm25Options } from './retrieval/lexical-index.js';

// ── The change log every store keeps for sync: hybrid clock, change rows, the merge rule
export { HybridClock, formatHlc, hlcWall, isHlc, nextHlc } from './sync/hlc.js';
export {
  BACKFILL_COUNTER,
  TOMBSTONE_RETENTION_MS,
  backfillChange,
  compareClocks,
  counterValue,
  isExpiredTombstone,
  localChange,
  reportOf,
  resolveChanges,
} from './sync/change-log.js';
export { mergeChange, stampRecordId, tombstoneHorizon, validateSyncChange } from './sync/change-log.js';
export type { ChangeRow, ChangeStamp, LocalVersion, MergeResult } from './sync/change-log.js';
export type { LocalReads, ResolvedChanges } from './sync/change-log.js';

// ── Per-key ordering (the lock every component uses for per-tenant work)
export { KeyedMutex } from './manager/keyed-mutex.js';
