/**
 * The wire protocol between sync clients and the sync server (version 1), one place. The server
 * sees, per record, only what this file names outside `data`: tenant id (in the path), record id,
 * the pushing device's id, the version's hybrid-clock timestamp, and the size of `data` — an
 * AES-GCM envelope that only devices holding the passphrase can open.
 *
 * - `POST {url}/v1/tenants/{tenant}/records` with {@link PushRequest} → {@link PushResponse}
 * - `GET  {url}/v1/tenants/{tenant}/records?after={cursor}&limit={n}&exclude={device}` → {@link PullResponse}
 * - `GET  {url}/v1/tenants/{tenant}/key` → {@link KeyCheck} (404 when none)
 * - `PUT  {url}/v1/tenants/{tenant}/key` with {@link KeyCheck} → the stored one (the first wins)
 *
 * Errors answer `{ error: { code, message } }` with a `ZerdaError` code: 401/403 `ACCESS_DENIED`,
 * 413 `VALIDATION` (body too large), 400 `VALIDATION`, 507 `QUOTA_EXCEEDED`.
 */

/** One record as pushed: `data` is the base64 envelope of the encrypted change. */
export interface WireRecord {
  id: string;
  /** The device that pushed it. */
  device: string;
  hlc: string;
  data: string;
}

/** A record as the server stores and serves it: with its per-tenant sequence number. */
export interface StoredRecord extends WireRecord {
  seq: number;
}

/** The body of a push: this device's pending records. */
export interface PushRequest {
  records: WireRecord[];
}

/** The server's answer to a push. */
export interface PushResponse {
  /** Records stored now. */
  accepted: number;
  /** Records the server already held (a push repeated after a lost answer). */
  duplicates: number;
}

/** The server's answer to a pull: records after the cursor, oldest first. */
export interface PullResponse {
  records: StoredRecord[];
  /** Pass as `after` next time (the last sequence number looked at, own records included). */
  cursor: string;
  /** More records wait after `cursor`. */
  more: boolean;
  /** Records after `cursor` (for progress). */
  remaining: number;
}

/** A sealed known text, so a device can tell a wrong passphrase before applying anything. */
export interface KeyCheck {
  check: string;
}

/** The protocol's path prefix for a tenant. */
export function tenantPath(tenantId: string): string {
  return `/v1/tenants/${encodeURIComponent(tenantId)}`;
}

/** What a record's envelope is bound to (AES-GCM associated data): it cannot move to another tenant, id, device or clock. */
export function recordAssociatedData(tenantId: string, r: Pick<WireRecord, 'id' | 'device' | 'hlc'>): Uint8Array {
  return new TextEncoder().encode(`zerda-sync/1\u0000${tenantId}\u0000${r.id}\u0000${r.device}\u0000${r.hlc}`);
}

/** The key check's associated data. */
export function keyAssociatedData(tenantId: string): Uint8Array {
  return new TextEncoder().encode(`zerda-sync/1\u0000${tenantId}\u0000key-check`);
}

/** The sealed text of a key check. */
export const KEY_CHECK_TEXT = 'zerda-sync key check';

/** Default most bytes of one request body the server reads. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** Default most records of one push or pull. */
export const DEFAULT_MAX_BATCH = 500;
