// Public surface of @zerda/postgres (Node only: it talks to PostgreSQL through `pg`).
export { PostgresStorage, createPostgresStorage } from './postgres-storage.js';
export type {
  ExportOptions,
  ImportReport,
  PostgresStorageOptions,
  VectorHit,
  VectorSearchOptions,
} from './postgres-storage.js';
export { SCHEMA_VERSION } from './schema.js';
export { codeForSqlState } from './errors.js';
