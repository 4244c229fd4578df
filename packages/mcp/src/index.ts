/**
 * Public surface of @zerda/mcp: the MCP memory server and its parts, for embedding or testing.
 * @module @zerda/mcp
 */
export { resolveServerConfig, DEFAULT_DATA_DIR_NAME, type ServerConfig, type EmbedderKind } from './config.js';
export { createServerClock, readClockFile } from './clock.js';
export { createServerEmbedder } from './embedder-factory.js';
export {
  openStorage,
  jsonExport,
  fingerprint,
  type StorageHandle,
  type OpenStorageOptions,
} from './storage-factory.js';
export {
  BackupManager,
  BACKUP_FILES,
  type BackupInfo,
  type BackupReason,
  type BackupSource,
  type BackupManagerOptions,
} from './backups.js';
export { AutoBackups, type AutoBackupsOptions } from './backup-scheduler.js';
export {
  mcpMemoryConfig,
  importanceToBase,
  baseToImportance,
  MCP_HALF_LIFE_DAYS,
  MCP_DECAY_FLOORS,
  MCP_DEFAULT_HALF_LIFE_DAYS,
  IMPORTANCE_MIN,
  IMPORTANCE_MAX,
} from './dynamics.js';
export { parseDateArg } from './dates.js';
export { TOOL_SCHEMAS, SEARCH_TYPES, parseToolArgs, type ToolArgs, type ToolName, type SearchType } from './schemas.js';
export {
  ORIGINAL_THRESHOLD,
  MINILM_ANCHORS,
  originalThreshold,
  originalSearchCut,
  scaleFor,
  toOriginalSimilarity,
  type SearchCandidate,
  type SearchCut,
  type SimilarityScale,
  type ThresholdDecision,
} from './threshold.js';
export { MemoryService, MCP_USER, newMemoryId, describeError, type MemoryServiceOptions } from './memory-service.js';
export { toOriginalShape, type MemoryView, type SearchHitView, type ToolPayload, type ResultFormat } from './views.js';
export {
  importLegacyDatabase,
  importLegacyOnce,
  writeImportMarker,
  LEGACY_DB_FILE,
  type LegacyImportReport,
} from './legacy-import.js';
export { buildSqliteCopy } from './sqlite-export.js';
export { registerMemoryTools, toolError, TOOL_NAMES } from './tools.js';
export {
  createZerdaMcpServer,
  buildMcpServer,
  runStdioServer,
  SERVER_NAME,
  SERVER_VERSION,
  type ZerdaMcpServer,
} from './server.js';
export {
  runHttpServer,
  runHttpServerUntilSignalled,
  isLoopback,
  MCP_PATH,
  type HttpOptions,
  type ZerdaHttpServer,
} from './http.js';

// The core types in this package's signatures (an app that installs only @zerda/mcp can name them).
export type {
  Clock,
  Embedder,
  InputLimits,
  JsonValue,
  MemoryConfig,
  MemoryEntry,
  MemoryManager,
  PiiMasker,
  SelectorWeights,
  StorageAdapter,
} from '@zerda/core';
