/**
 * Node-only entry of @zerda/sqlite: the file persistence driver.
 * @module @zerda/sqlite/node
 */
export { FilePersistence, createFilePersistence } from './file-persistence.js';
export type { FilePersistenceOptions } from './file-persistence.js';
