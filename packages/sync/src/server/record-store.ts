import { ZerdaError } from '@zerda/core';
import type { StoredRecord, WireRecord } from '../protocol.js';

/** Per-tenant limits of what the server keeps. */
export interface Quota {
  /** Most records per tenant. */
  records?: number;
  /** Most bytes of record data per tenant. */
  bytes?: number;
}

/**
 * Where the sync server keeps records: per tenant, in arrival order (a sequence number per tenant,
 * without gaps a reader could skip), each record id once. Implementations: {@link MemoryRecordStore}
 * (tests) and `PostgresRecordStore`.
 */
export interface RecordStore {
  /**
   * Store the records not held yet (by id), all or nothing; `QUOTA_EXCEEDED` (nothing stored) when
   * they would take the tenant past `quota`.
   */
  append(
    tenantId: string,
    records: WireRecord[],
    quota: Quota | undefined,
  ): Promise<{ accepted: number; duplicates: number }>;
  /** Up to `limit` records after sequence number `after`, in order, and how many follow them. */
  list(tenantId: string, after: number, limit: number): Promise<{ records: StoredRecord[]; remaining: number }>;
  /** The tenant's key check, if stored. */
  getKey(tenantId: string): Promise<string | undefined>;
  /** Store the key check unless one is stored; resolves to the one stored. */
  putKey(tenantId: string, check: string): Promise<string>;
  /** Release the store's resources (a pool it owns); closing again does nothing. */
  close(): Promise<void>;
}

/** The quota check, one place: the error when `records`/`bytes` more would exceed `quota`. */
export function checkQuota(
  tenantId: string,
  held: { records: number; bytes: number },
  adding: { records: number; bytes: number },
  quota: Quota | undefined,
): void {
  if (!quota) return;
  const over =
    (quota.records !== undefined && held.records + adding.records > quota.records) ||
    (quota.bytes !== undefined && held.bytes + adding.bytes > quota.bytes);
  if (over)
    throw new ZerdaError(
      'QUOTA_EXCEEDED',
      `Tenant ${tenantId} would exceed its sync quota (${quota.records ?? '∞'} records, ${quota.bytes ?? '∞'} bytes; holds ${held.records} records, ${held.bytes} bytes); nothing of this batch was stored`,
      { details: { tenantId, ...held } },
    );
}

/** Size of a record's data as the quota counts it (its base64 text). */
export function recordBytes(r: WireRecord): number {
  return r.data.length;
}

/** A {@link RecordStore} in memory: for tests and trying things out. */
export class MemoryRecordStore implements RecordStore {
  readonly #tenants = new Map<string, { records: StoredRecord[]; ids: Set<string>; bytes: number; key?: string }>();

  async append(tenantId: string, records: WireRecord[], quota: Quota | undefined) {
    const t = this.#tenant(tenantId);
    const fresh = dedupe(records).filter((r) => !t.ids.has(r.id));
    const bytes = fresh.reduce((n, r) => n + recordBytes(r), 0);
    checkQuota(tenantId, { records: t.records.length, bytes: t.bytes }, { records: fresh.length, bytes }, quota);
    for (const r of fresh) {
      t.records.push({ ...r, seq: t.records.length + 1 });
      t.ids.add(r.id);
    }
    t.bytes += bytes;
    return { accepted: fresh.length, duplicates: records.length - fresh.length };
  }

  async list(tenantId: string, after: number, limit: number) {
    const all = this.#tenants.get(tenantId)?.records ?? [];
    const rest = all.filter((r) => r.seq > after);
    return { records: structuredClone(rest.slice(0, limit)), remaining: Math.max(0, rest.length - limit) };
  }

  async getKey(tenantId: string) {
    return this.#tenants.get(tenantId)?.key;
  }

  async putKey(tenantId: string, check: string) {
    const t = this.#tenant(tenantId);
    t.key ??= check;
    return t.key;
  }

  async close() {}

  /** Test hook: the stored records of a tenant (to tamper with them, as a malicious server could). */
  records(tenantId: string): StoredRecord[] {
    return this.#tenant(tenantId).records;
  }

  #tenant(tenantId: string) {
    let t = this.#tenants.get(tenantId);
    if (!t) this.#tenants.set(tenantId, (t = { records: [], ids: new Set(), bytes: 0 }));
    return t;
  }
}

/** The records of a batch, each id once (the first). */
export function dedupe(records: WireRecord[]): WireRecord[] {
  const seen = new Set<string>();
  return records.filter((r) => !seen.has(r.id) && seen.add(r.id));
}
