// Public surface of @zerda/mcp: the MCP memory server and its parts, for embedding or testing.
export { resolveServerConfig, DEFAULT_DATA_DIR_NAME, type ServerConfig, type EmbedderKind } from './config.js';
export { createServerClock, readClockFile } from './clock.js';
export { createServerEmbedder } from './embedder-factory.js';
export { openStorage, jsonExport, fingerprint, type StorageHandle, type OpenStorageOptions } from './storage-factory.js';
export { BackupManager, BACKUP_FILES, type BackupInfo, type BackupReason, type BackupSource, type BackupManagerOptions } from './backups.js';
export {
  MemoryDynamics,
  mcpMemoryConfig,
  MCP_HALF_LIFE_DAYS,
  MCP_DECAY_FLOORS,
  MCP_DEFAULT_HALF_LIFE_DAYS,
  type DynamicsOptions,
} from './dynamics.js';
export {
  importanceToBase,
  baseToImportance,
  parseTags,
  parseDateArg,
  parseLimit,
  IMPORTANCE_MIN,
  IMPORTANCE_MAX,
} from './args.js';
export {
  MemoryService,
  MCP_USER,
  describeError,
  type MemoryServiceOptions,
  type MemoryView,
  type SearchHitView,
  type ToolPayload,
} from './memory-service.js';
export { importLegacyDatabase, writeImportMarker, LEGACY_DB_FILE, type LegacyImportReport } from './legacy-import.js';
export { buildSqliteCopy } from './sqlite-export.js';
export { registerMemoryTools, toolError, TOOL_NAMES, type ToolName } from './tools.js';
export { createZerdaMcpServer, runStdioServer, SERVER_NAME, SERVER_VERSION, type ZerdaMcpServer } from './server.js';
