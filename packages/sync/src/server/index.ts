/**
 * @zerda/sync/server — the sync server (Node): {@link createSyncHandler} for any Node HTTP server,
 * the record stores, and the `zerda-sync` bin (cli.ts).
 * @module @zerda/sync/server
 */
export { createSyncHandler } from './handler.js';
export type { SyncCorsOptions, SyncHandlerOptions, SyncPrincipal } from './handler.js';
export { MemoryRecordStore, checkQuota } from './record-store.js';
export type { Quota, RecordStore } from './record-store.js';
export { PostgresRecordStore } from './postgres-record-store.js';
export type { PostgresRecordStoreOptions } from './postgres-record-store.js';
export { tokenVerifier } from './tokens.js';
export type { TokenGrant } from './tokens.js';
export { trustedReplica } from './trusted-replica.js';
export type { TrustedReplica, TrustedReplicaOptions } from './trusted-replica.js';
