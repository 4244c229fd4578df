/**
 * Public surface of @zerda/browser: one call that wires core + sqlite/IndexedDB + worker embeddings.
 * Vite apps: `@zerda/browser/vite` adds the bundled model worker and sql.js WASM as defaults.
 * @module @zerda/browser
 */
export {
  openBrowserMemory,
  type BrowserMemory,
  type OpenBrowserMemoryOptions,
  type OpenProgress,
  type WorkerModelOptions,
} from './open-browser-memory.js';
export type { ImportOptions, ImportProgress, MemoryImportReport, BulkStorage } from './import.js';
export type { ChangeListener, MemoryChange } from './change-feed.js';

// The core types an app meets through `manager` (so an app that installs only @zerda/browser —
// under pnpm it cannot import @zerda/core — can name them), and the error check.
export { isZerdaError, ZerdaError } from '@zerda/core';
export type {
  BuildContextOptions,
  ChatMessage,
  FactContent,
  InteractionContent,
  MaintenancePreview,
  MaintenanceReport,
  ManagedContext,
  ManagerStats,
  MemoryConfig,
  MemoryContent,
  MemoryEntry,
  MemoryFilter,
  MemoryKind,
  MemoryManager,
  MemoryPatch,
  MemoryQuery,
  RecallHit,
  RecallMode,
  RememberInput,
  SaveInteractionOptions,
  SaveResult,
  SemanticSearchOptions,
  Tier,
  UserProfile,
  ZerdaErrorCode,
} from '@zerda/core';
// …and the option and result types of `openBrowserMemory` that come from core, SQLite and the embedder.
export type {
  Clock,
  Embedder,
  KeyCipherOptions,
  LlmClient,
  MemoryConfigInput,
  PassphraseCipherOptions,
  StorageAdapter,
  StorageStats,
  ZerdaExport,
} from '@zerda/core';
export type {
  AutoBackupOptions,
  BackupInfo,
  CompactionOptions,
  ExportOptions,
  ImportReport,
  SqliteStorageOptions,
} from '@zerda/sqlite';
export type { OrtWasmPaths } from '@zerda/embeddings';
