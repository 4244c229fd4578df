import { validateEntry } from '../model/entry.js';
import { invalid } from '../model/errors.js';
import type { MemoryEntry, UserProfile } from '../model/types.js';
import { validateProfile } from '../dynamics/profile-manager.js';
import { checkFilter, checkIds, checkKey, checkLexicalQuery, checkModel, checkQuery } from './storage-checks.js';
import { checkVectorRecords } from './storage-checks.js';
import type { LexicalHit, LexicalQuery, MemoryFilter, MemoryQuery, StorageAdapter, StorageStats } from './storage.js';
import type { VectorBlock, VectorModel, VectorRecord } from './storage.js';
import { HybridClock } from '../sync/hlc.js';
import { tombstoneHorizon, validateSyncChange } from '../sync/change-log.js';
import type { ApplyReport, ChangeStamp, SyncChange, SyncState } from '../sync/change-log.js';

/** Most changes one `pendingChanges` call returns. */
const MAX_CHANGES_PER_CALL = 10_000;

/**
 * The {@link StorageAdapter} contract's argument rules, applied in one place for every adapter.
 * An adapter extends this class and implements the protected hooks. Each public method first
 * asserts the adapter is open (`assertOpen`, which throws `CLOSED`), then checks its arguments
 * with the shared storage checks, then calls its hook with checked values: validated copies of
 * entries and profiles, ids deduplicated where the contract counts them, empty batches answered
 * without a hook call. So every adapter rejects the same input with the same error before it
 * touches its data, and a hook never sees an argument the contract forbids.
 *
 * Every write hook of an entry or a profile also receives a {@link ChangeStamp} (record id,
 * hybrid-clock timestamp, device id) and writes the entities' change rows (core's `localChange`)
 * in the same transaction as the change.
 */
export abstract class BaseStorage implements StorageAdapter {
  abstract readonly name: string;
  /** Flush and release the store; later calls reject with `CLOSED`, closing again does nothing. */
  abstract close(): Promise<void>;
  #clock: Promise<{ clock: HybridClock; deviceId: string }> | undefined;

  /** Throw `CLOSED` once the adapter is closed. Called first by every contract method. */
  protected abstract assertOpen(): void;
  /** Upsert validated entries (at least one), all or nothing, with their change rows. */
  protected abstract writeEntries(entries: MemoryEntry[], stamp: ChangeStamp): Promise<void>;
  /** The entry, or `undefined`. */
  protected abstract readEntry(tenantId: string, id: string): Promise<MemoryEntry | undefined>;
  /** The entries found for `ids` (at least one, repeats possible), in the order of `ids`, each once. */
  protected abstract readEntries(tenantId: string, ids: string[]): Promise<MemoryEntry[]>;
  /** Delete entries by distinct ids (at least one) with their vectors, tombstones for those that existed; how many existed. */
  protected abstract deleteEntries(tenantId: string, ids: string[], stamp: ChangeStamp): Promise<number>;
  /** Filtered, ordered (ties by id ascending), paged entries. */
  protected abstract queryEntries(query: MemoryQuery): Promise<MemoryEntry[]>;
  /** Number of entries matching the filter. */
  protected abstract countEntries(filter: MemoryFilter): Promise<number>;
  /** BM25 hits for the query; the filter applies before ranking. */
  protected abstract searchEntries(query: LexicalQuery): Promise<LexicalHit[]>;
  /** Store vectors (at least one, distinct ids, each `model.dim` finite floats), all or nothing. */
  protected abstract writeVectors(tenantId: string, model: VectorModel, records: VectorRecord[]): Promise<void>;
  /** Every vector of the tenant for `modelId`, packed, ids ascending; `undefined` when none. */
  protected abstract readVectors(tenantId: string, modelId: string): Promise<VectorBlock | undefined>;
  /** Models holding at least one vector of the tenant, by id. */
  protected abstract readVectorModels(tenantId: string): Promise<VectorModel[]>;
  /** Delete the tenant's vectors of one model (or all); rows deleted. */
  protected abstract deleteVectorRows(tenantId: string, modelId?: string): Promise<number>;
  /** The profile, or `undefined`. */
  protected abstract readProfile(tenantId: string, userId: string): Promise<UserProfile | undefined>;
  /** Upsert a validated profile with its change row. */
  protected abstract writeProfile(profile: UserProfile, stamp: ChangeStamp): Promise<void>;
  /** The tenant's profiles by `userId` ascending. */
  protected abstract readProfiles(tenantId: string): Promise<UserProfile[]>;
  /** Remove the tenant's entries, vectors and profiles (a tombstone for each entry and profile); entries removed. */
  protected abstract deleteTenant(tenantId: string, stamp: ChangeStamp): Promise<number>;
  /** Tenants holding an entry or a profile, sorted. */
  protected abstract readTenants(): Promise<string[]>;
  /** Counts for one tenant or all. */
  protected abstract readStats(tenantId?: string): Promise<StorageStats>;
  /** This store's device id and the latest timestamp of its change log (`undefined` when empty). */
  protected abstract readSyncIdentity(): Promise<{ deviceId: string; lastHlc: string | undefined }>;
  /** The tenant's cursor and pending count (the device id is filled in by the caller). */
  protected abstract readSyncState(tenantId: string): Promise<Omit<SyncState, 'deviceId'>>;
  /** Up to `limit` (at least one) pending changes, oldest first, with their data. */
  protected abstract readPendingChanges(tenantId: string, limit: number): Promise<SyncChange[]>;
  /** Clear `pending` on the rows holding these record ids (distinct, at least one); how many. */
  protected abstract writePushed(tenantId: string, recordIds: string[]): Promise<number>;
  /**
   * Merge checked changes (at least one, or none with a cursor) by `mergeChange`, store the cursor,
   * and drop expired tombstones (`isExpiredTombstone` at `horizon`), in one transaction.
   */
  protected abstract mergeChanges(
    tenantId: string,
    changes: SyncChange[],
    cursor: string | undefined,
    horizon: string,
  ): Promise<ApplyReport>;

  /** Wall-clock milliseconds for change timestamps (adapters with an injected clock override it). */
  protected wallClock(): number {
    return Date.now();
  }

  /** A stamp for one write operation: a fresh record id, the next timestamp, this device. */
  protected async stamp(): Promise<ChangeStamp> {
    const { clock, deviceId } = await this.#syncClock();
    return { recordId: globalThis.crypto.randomUUID(), hlc: clock.now(), deviceId };
  }

  #syncClock(): Promise<{ clock: HybridClock; deviceId: string }> {
    this.#clock ??= this.readSyncIdentity().then(({ deviceId, lastHlc }) => ({
      clock: new HybridClock(() => this.wallClock(), lastHlc),
      deviceId,
    }));
    this.#clock.catch(() => {
      this.#clock = undefined;
    });
    return this.#clock;
  }

  /** Upsert one entry (validated, whole entry replaced). */
  async put(entry: MemoryEntry): Promise<void> {
    this.assertOpen();
    const valid = validateEntry(entry);
    await this.writeEntries([valid], await this.stamp());
  }

  /** Upsert many entries, all or nothing: every entry is validated before any is written. */
  async putMany(entries: MemoryEntry[]): Promise<void> {
    this.assertOpen();
    if (!Array.isArray(entries)) invalid('entries', 'an array of entries', entries);
    const valid = entries.map((e) => validateEntry(e));
    if (valid.length > 0) await this.writeEntries(valid, await this.stamp());
  }

  /** A copy of the entry, or `undefined`. No side effects. */
  async get(tenantId: string, id: string): Promise<MemoryEntry | undefined> {
    this.assertOpen();
    checkKey('tenantId', tenantId);
    checkKey('id', id);
    return this.readEntry(tenantId, id);
  }

  /** Copies of the entries found, in the order of `ids` (missing skipped, duplicates once). */
  async getMany(tenantId: string, ids: string[]): Promise<MemoryEntry[]> {
    this.assertOpen();
    checkKey('tenantId', tenantId);
    checkIds(ids);
    return ids.length === 0 ? [] : this.readEntries(tenantId, ids);
  }

  /** Delete one entry and its vectors; true when it existed. */
  async delete(tenantId: string, id: string): Promise<boolean> {
    this.assertOpen();
    checkKey('tenantId', tenantId);
    checkKey('id', id);
    return (await this.deleteEntries(tenantId, [id], await this.stamp())) === 1;
  }

  /** Delete entries and their vectors; resolves to how many existed (an id given twice counts once). */
  async deleteMany(tenantId: string, ids: string[]): Promise<number> {
    this.assertOpen();
    checkKey('tenantId', tenantId);
    checkIds(ids);
    return ids.length === 0 ? 0 : this.deleteEntries(tenantId, [...new Set(ids)], await this.stamp());
  }

  /** Filtered, ordered (ties by id ascending), paged copies. */
  async query(query: MemoryQuery): Promise<MemoryEntry[]> {
    this.assertOpen();
    checkQuery(query);
    return this.queryEntries(query);
  }

  /** Number of entries matching the filter. */
  async count(filter: MemoryFilter): Promise<number> {
    this.assertOpen();
    checkFilter(filter);
    return this.countEntries(filter);
  }

  /** BM25 search over the tenant's entry text; the filter applies before ranking. */
  async lexicalSearch(query: LexicalQuery): Promise<LexicalHit[]> {
    this.assertOpen();
    checkLexicalQuery(query);
    return query.limit === 0 ? [] : this.searchEntries(query);
  }

  /** Store vectors of one model, all or nothing; each must have `model.dim` finite floats (last one per id wins). */
  async putVectors(tenantId: string, model: VectorModel, records: VectorRecord[]): Promise<void> {
    this.assertOpen();
    checkKey('tenantId', tenantId);
    checkModel(model);
    checkVectorRecords(records, model);
    const byId = new Map(records.map((r) => [r.id, r]));
    if (byId.size > 0) await this.writeVectors(tenantId, model, [...byId.values()]);
  }

  /** Every vector of the tenant for `modelId`, packed, ids ascending; `undefined` when none. */
  async loadVectors(tenantId: string, modelId: string): Promise<VectorBlock | undefined> {
    this.assertOpen();
    checkKey('tenantId', tenantId);
    checkKey('modelId', modelId);
    return this.readVectors(tenantId, modelId);
  }

  /** Models holding at least one vector of the tenant, by id. */
  async vectorModels(tenantId: string): Promise<VectorModel[]> {
    this.assertOpen();
    checkKey('tenantId', tenantId);
    return this.readVectorModels(tenantId);
  }

  /** Delete the tenant's vectors of one model (or all); resolves to rows deleted. */
  async deleteVectors(tenantId: string, modelId?: string): Promise<number> {
    this.assertOpen();
    checkKey('tenantId', tenantId);
    if (modelId !== undefined) checkKey('modelId', modelId);
    return this.deleteVectorRows(tenantId, modelId);
  }

  /** A copy of the profile, or `undefined`. */
  async getProfile(tenantId: string, userId: string): Promise<UserProfile | undefined> {
    this.assertOpen();
    checkKey('tenantId', tenantId);
    checkKey('userId', userId);
    return this.readProfile(tenantId, userId);
  }

  /** Upsert a profile (validated). */
  async putProfile(profile: UserProfile): Promise<void> {
    this.assertOpen();
    const valid = validateProfile(profile);
    await this.writeProfile(valid, await this.stamp());
  }

  /** The tenant's profiles by `userId` ascending. */
  async listProfiles(tenantId: string): Promise<UserProfile[]> {
    this.assertOpen();
    checkKey('tenantId', tenantId);
    return this.readProfiles(tenantId);
  }

  /** Remove the tenant's entries, vectors and profiles; resolves to entries removed. */
  async clearTenant(tenantId: string): Promise<number> {
    this.assertOpen();
    checkKey('tenantId', tenantId);
    return this.deleteTenant(tenantId, await this.stamp());
  }

  /** Tenants holding an entry or a profile, sorted. */
  async listTenants(): Promise<string[]> {
    this.assertOpen();
    return this.readTenants();
  }

  /** Counts for one tenant or all. */
  async stats(tenantId?: string): Promise<StorageStats> {
    this.assertOpen();
    if (tenantId !== undefined) checkKey('tenantId', tenantId);
    return this.readStats(tenantId);
  }

  /** This store's device id, the tenant's last applied server cursor and its pending changes. */
  async syncState(tenantId: string): Promise<SyncState> {
    this.assertOpen();
    checkKey('tenantId', tenantId);
    const { deviceId } = await this.#syncClock();
    return { deviceId, ...(await this.readSyncState(tenantId)) };
  }

  /** Up to `limit` pending changes of the tenant, oldest first, each with its data. */
  async pendingChanges(tenantId: string, limit: number): Promise<SyncChange[]> {
    this.assertOpen();
    checkKey('tenantId', tenantId);
    if (!Number.isInteger(limit) || limit < 0 || limit > MAX_CHANGES_PER_CALL)
      invalid('limit', `an integer in [0, ${MAX_CHANGES_PER_CALL}]`, limit);
    return limit === 0 ? [] : this.readPendingChanges(tenantId, limit);
  }

  /** The server holds these records: they are no longer pending. Resolves to how many were. */
  async markPushed(tenantId: string, recordIds: string[]): Promise<number> {
    this.assertOpen();
    checkKey('tenantId', tenantId);
    checkIds(recordIds);
    return recordIds.length === 0 ? 0 : this.writePushed(tenantId, [...new Set(recordIds)]);
  }

  /**
   * Apply records of other devices: each is checked first (`VALIDATION` rejects the whole batch),
   * then merged by `mergeChange` with the cursor stored in the same transaction.
   */
  async applyChanges(tenantId: string, changes: SyncChange[], cursor?: string): Promise<ApplyReport> {
    this.assertOpen();
    checkKey('tenantId', tenantId);
    if (!Array.isArray(changes)) invalid('changes', 'an array of sync changes', changes);
    if (cursor !== undefined) checkKey('cursor', cursor);
    const valid = changes.map((c) => validateSyncChange(c, tenantId));
    const { clock } = await this.#syncClock();
    for (const c of valid) clock.observe(c.hlc);
    if (valid.length === 0 && cursor === undefined)
      return { applied: 0, merged: 0, skipped: 0, entriesWritten: [], entriesRemoved: [] };
    return this.mergeChanges(tenantId, valid, cursor, tombstoneHorizon(this.wallClock()));
  }
}
