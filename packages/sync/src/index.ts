/**
 * @zerda/sync — one memory on every device: a store's change log pushed to and pulled from a sync
 * server, end-to-end encrypted with a passphrase. The client uses only `fetch`, WebCrypto and
 * timers, so it runs in a page, a worker, an extension and Node. The server is `@zerda/sync/server`.
 * @module @zerda/sync
 */
export { startSync } from './client.js';
export type { SyncEvent, SyncHandle, SyncOptions, SyncReport, SyncStatus } from './client.js';
export {
  DEFAULT_MAX_BATCH,
  DEFAULT_MAX_BODY_BYTES,
  keyAssociatedData,
  recordAssociatedData,
  tenantPath,
} from './protocol.js';
export type { KeyCheck, PullResponse, PushRequest, PushResponse, StoredRecord, WireRecord } from './protocol.js';
// The core types in startSync's options, status and events.
export { isZerdaError, ZerdaError } from '@zerda/core';
export type { ApplyReport, MemoryManager, SyncTarget, ZerdaErrorCode } from '@zerda/core';
