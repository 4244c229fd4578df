import { invalid, ZerdaError } from '../model/errors.js';
import { LexicalIndex } from '../retrieval/lexical-index.js';
import { BaseStorage } from './base-storage.js';
import { inIdOrder, queryOrder } from './entry-rows.js';
import type { LexicalHit, LexicalQuery, MemoryFilter, MemoryQuery, StorageStats } from './storage.js';
import type { VectorBlock, VectorModel, VectorRecord } from './storage.js';
import { entryText } from '../model/types.js';
import type { MemoryEntry, Tier, UserProfile } from '../model/types.js';
import {
  backfillChange,
  isExpiredTombstone,
  localChange,
  reportOf,
  resolveChanges,
  stampRecordId,
} from '../sync/change-log.js';
import type { ApplyReport, ChangeRow, ChangeStamp, SyncChange, SyncKind, SyncState } from '../sync/change-log.js';

interface LogRow extends ChangeRow {
  seq: number;
}

interface TenantLog {
  rows: Map<string, LogRow>;
  cursor: string | undefined;
}

const logKey = (kind: SyncKind, key: string) => `${kind}\u0000${key}`;

interface VectorSet {
  model: VectorModel;
  rows: Map<string, Float32Array>;
}

interface TenantData {
  entries: Map<string, MemoryEntry>;
  lexical: LexicalIndex;
  vectors: Map<string, VectorSet>;
  profiles: Map<string, UserProfile>;
}

/**
 * A {@link StorageAdapter} that keeps everything in memory (lost when the process ends). Used by
 * tests and as a reference implementation; it passes `runStorageConformance`. Lexical search is
 * BM25 over one {@link LexicalIndex} per tenant, kept in sync on every write.
 */
export class InMemoryStorage extends BaseStorage {
  /** @inheritdoc */
  readonly name = 'memory';
  readonly #tenants = new Map<string, TenantData>();
  readonly #logs = new Map<string, TenantLog>();
  readonly #deviceId = globalThis.crypto.randomUUID();
  #seq = 0;
  #closed = false;

  /** Drop everything; every later call rejects with `CLOSED`. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#tenants.clear();
    this.#logs.clear();
  }

  protected override assertOpen(): void {
    if (this.#closed) throw new ZerdaError('CLOSED', 'InMemoryStorage is closed');
  }

  protected override async writeEntries(entries: MemoryEntry[], stamp: ChangeStamp): Promise<void> {
    entries.forEach((e, i) => {
      this.#write(e);
      this.#logLocal(e.tenantId, 'entry', e.id, 'put', stamp, i, e);
    });
  }

  protected override async readEntry(tenantId: string, id: string): Promise<MemoryEntry | undefined> {
    const e = this.#tenants.get(tenantId)?.entries.get(id);
    return e && structuredClone(e);
  }

  protected override async readEntries(tenantId: string, ids: string[]): Promise<MemoryEntry[]> {
    const t = this.#tenants.get(tenantId);
    if (!t) return [];
    return inIdOrder(ids, (id) => {
      const e = t.entries.get(id);
      return e && structuredClone(e);
    });
  }

  protected override async deleteEntries(tenantId: string, ids: string[], stamp: ChangeStamp): Promise<number> {
    let n = 0;
    for (const id of ids) if (this.#remove(tenantId, id)) this.#logLocal(tenantId, 'entry', id, 'delete', stamp, n++);
    return n;
  }

  protected override async queryEntries(query: MemoryQuery): Promise<MemoryEntry[]> {
    const t = this.#tenants.get(query.tenantId);
    if (!t) return [];
    const match = compileFilter(query);
    const rows = [...t.entries.values()].filter(match);
    const { field, descending } = queryOrder(query);
    const dir = descending ? -1 : 1;
    rows.sort((a, b) => (a[field] - b[field]) * dir || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const offset = query.offset ?? 0;
    const end = query.limit === undefined ? undefined : offset + query.limit;
    return structuredClone(rows.slice(offset, end));
  }

  protected override async countEntries(filter: MemoryFilter): Promise<number> {
    const t = this.#tenants.get(filter.tenantId);
    if (!t) return 0;
    const match = compileFilter(filter);
    let n = 0;
    for (const e of t.entries.values()) if (match(e)) n++;
    return n;
  }

  /** BM25 over one {@link LexicalIndex} per tenant. */
  protected override async searchEntries(query: LexicalQuery): Promise<LexicalHit[]> {
    const filter: MemoryFilter = { ...(query.filter ?? {}), tenantId: query.tenantId };
    const t = this.#tenants.get(query.tenantId);
    if (!t) return [];
    const match = compileFilter(filter);
    const hasFilter = query.filter !== undefined && Object.keys(query.filter).length > 0;
    const allow = hasFilter
      ? (id: string) => {
          const e = t.entries.get(id);
          return e !== undefined && match(e);
        }
      : undefined;
    return t.lexical.search(query.query, query.limit, allow);
  }

  protected override async writeVectors(tenantId: string, model: VectorModel, records: VectorRecord[]): Promise<void> {
    const rows = records.map((r) => [r.id, new Float32Array(r.vector)] as const);
    const existing = this.#tenants.get(tenantId)?.vectors.get(model.id);
    if (existing && existing.rows.size > 0 && existing.model.dim !== model.dim)
      invalid('model.dim', `${existing.model.dim} (stored vectors of model ${model.id})`, model.dim);
    const t = this.#tenant(tenantId);
    let set = t.vectors.get(model.id);
    if (!set || set.model.dim !== model.dim) {
      set = { model: { id: model.id, dim: model.dim }, rows: new Map() };
      t.vectors.set(model.id, set);
    }
    for (const [id, v] of rows) set.rows.set(id, v);
  }

  protected override async readVectors(tenantId: string, modelId: string): Promise<VectorBlock | undefined> {
    const set = this.#tenants.get(tenantId)?.vectors.get(modelId);
    if (!set || set.rows.size === 0) return undefined;
    const ids = [...set.rows.keys()].sort();
    const dim = set.model.dim;
    const data = new Float32Array(ids.length * dim);
    ids.forEach((id, i) => data.set(set.rows.get(id)!, i * dim));
    return { model: { ...set.model }, ids, data };
  }

  protected override async readVectorModels(tenantId: string): Promise<VectorModel[]> {
    const t = this.#tenants.get(tenantId);
    if (!t) return [];
    return [...t.vectors.values()]
      .filter((s) => s.rows.size > 0)
      .map((s) => ({ ...s.model }))
      .sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  protected override async deleteVectorRows(tenantId: string, modelId?: string): Promise<number> {
    const t = this.#tenants.get(tenantId);
    if (!t) return 0;
    let n = 0;
    for (const [id, set] of t.vectors) {
      if (modelId !== undefined && id !== modelId) continue;
      n += set.rows.size;
      t.vectors.delete(id);
    }
    this.#prune(tenantId);
    return n;
  }

  protected override async readProfile(tenantId: string, userId: string): Promise<UserProfile | undefined> {
    const p = this.#tenants.get(tenantId)?.profiles.get(userId);
    return p && structuredClone(p);
  }

  protected override async writeProfile(profile: UserProfile, stamp: ChangeStamp): Promise<void> {
    this.#tenant(profile.tenantId).profiles.set(profile.userId, profile);
    this.#logLocal(profile.tenantId, 'profile', profile.userId, 'put', stamp, 0);
  }

  protected override async readProfiles(tenantId: string): Promise<UserProfile[]> {
    const t = this.#tenants.get(tenantId);
    if (!t) return [];
    return structuredClone([...t.profiles.values()].sort((a, b) => (a.userId < b.userId ? -1 : 1)));
  }

  protected override async deleteTenant(tenantId: string, stamp: ChangeStamp): Promise<number> {
    const t = this.#tenants.get(tenantId);
    const n = t?.entries.size ?? 0;
    let i = 0;
    for (const id of [...(t?.entries.keys() ?? [])].sort()) this.#logLocal(tenantId, 'entry', id, 'delete', stamp, i++);
    for (const id of [...(t?.profiles.keys() ?? [])].sort())
      this.#logLocal(tenantId, 'profile', id, 'delete', stamp, i++);
    this.#tenants.delete(tenantId);
    return n;
  }

  protected override async readTenants(): Promise<string[]> {
    return [...this.#tenants]
      .filter(([, t]) => t.entries.size > 0 || t.profiles.size > 0)
      .map(([id]) => id)
      .sort();
  }

  protected override async readStats(tenantId?: string): Promise<StorageStats> {
    const stats: StorageStats = { entries: 0, byTier: {}, byKind: {}, profiles: 0, vectors: 0 };
    for (const [id, t] of this.#tenants) {
      if (tenantId !== undefined && id !== tenantId) continue;
      stats.entries += t.entries.size;
      stats.profiles += t.profiles.size;
      for (const s of t.vectors.values()) stats.vectors += s.rows.size;
      for (const e of t.entries.values()) {
        stats.byTier[e.tier] = (stats.byTier[e.tier] ?? 0) + 1;
        stats.byKind[e.kind] = (stats.byKind[e.kind] ?? 0) + 1;
      }
    }
    return stats;
  }

  protected override async readSyncIdentity(): Promise<{ deviceId: string; lastHlc: string | undefined }> {
    let lastHlc: string | undefined;
    for (const log of this.#logs.values())
      for (const r of log.rows.values()) if (lastHlc === undefined || r.hlc > lastHlc) lastHlc = r.hlc;
    return { deviceId: this.#deviceId, lastHlc };
  }

  protected override async readSyncState(tenantId: string): Promise<Omit<SyncState, 'deviceId'>> {
    const log = this.#logs.get(tenantId);
    let pending = 0;
    for (const r of log?.rows.values() ?? []) if (r.pending) pending++;
    return { cursor: log?.cursor, pending };
  }

  protected override async readPendingChanges(tenantId: string, limit: number): Promise<SyncChange[]> {
    const rows = [...(this.#logs.get(tenantId)?.rows.values() ?? [])].filter((r) => r.pending);
    rows.sort((a, b) => a.seq - b.seq);
    const t = this.#tenants.get(tenantId);
    return rows.slice(0, limit).map(({ seq: _seq, pending: _p, ...row }) => {
      const change: SyncChange = structuredClone(row);
      if (row.op === 'put' && row.kind === 'entry') change.entry = structuredClone(t?.entries.get(row.key));
      if (row.op === 'put' && row.kind === 'profile') change.profile = structuredClone(t?.profiles.get(row.key));
      return change;
    });
  }

  protected override async writePushed(tenantId: string, recordIds: string[]): Promise<number> {
    const ids = new Set(recordIds);
    let n = 0;
    for (const r of this.#logs.get(tenantId)?.rows.values() ?? [])
      if (r.pending && ids.has(r.recordId)) {
        r.pending = false;
        n++;
      }
    return n;
  }

  protected override async mergeChanges(
    tenantId: string,
    changes: SyncChange[],
    cursor: string | undefined,
    horizon: string,
  ): Promise<ApplyReport> {
    const log = this.#log(tenantId);
    const t = this.#tenants.get(tenantId);
    const r = resolveChanges(changes, {
      row: (kind, key) => log.rows.get(logKey(kind, key)),
      entry: (key) => t?.entries.get(key),
      profile: (userId) => t?.profiles.get(userId),
    });
    const report = reportOf(r, (id) => t?.entries.has(id) ?? false);
    for (const [k, row] of r.rows) log.rows.set(k, { ...row, seq: ++this.#seq });
    for (const [id, entry] of r.entries)
      if (entry) this.#write(entry);
      else this.#remove(tenantId, id);
    for (const [userId, profile] of r.profiles)
      if (profile) this.#tenant(tenantId).profiles.set(userId, profile);
      else {
        this.#tenants.get(tenantId)?.profiles.delete(userId);
        this.#prune(tenantId);
      }
    for (const [k, row] of log.rows) if (isExpiredTombstone(row, horizon)) log.rows.delete(k);
    if (cursor !== undefined) log.cursor = cursor;
    return report;
  }

  protected override async backfillChanges(tenantId: string, stamp: ChangeStamp): Promise<number> {
    const t = this.#tenants.get(tenantId);
    if (!t) return 0;
    const log = this.#log(tenantId);
    let n = 0;
    const missing = [
      ...[...t.entries.values()].map((e) => ({ kind: 'entry' as const, key: e.id, entry: e })),
      ...[...t.profiles.keys()].map((userId) => ({ kind: 'profile' as const, key: userId, entry: undefined })),
    ].filter((x) => !log.rows.has(logKey(x.kind, x.key)));
    for (const { kind, key, entry } of missing) {
      const row = backfillChange({ tenantId, kind, key }, stamp, stampRecordId(stamp, n++), entry);
      log.rows.set(logKey(kind, key), { ...row, seq: ++this.#seq });
    }
    return n;
  }

  #log(tenantId: string): TenantLog {
    let log = this.#logs.get(tenantId);
    if (!log) {
      log = { rows: new Map(), cursor: undefined };
      this.#logs.set(tenantId, log);
    }
    return log;
  }

  #logLocal(
    tenantId: string,
    kind: SyncKind,
    key: string,
    op: 'put' | 'delete',
    stamp: ChangeStamp,
    index: number,
    entry?: MemoryEntry,
  ): void {
    const log = this.#log(tenantId);
    const k = logKey(kind, key);
    const row = localChange(log.rows.get(k), { tenantId, kind, key }, op, stamp, stampRecordId(stamp, index), entry);
    log.rows.set(k, { ...row, seq: ++this.#seq });
  }

  #tenant(tenantId: string): TenantData {
    let t = this.#tenants.get(tenantId);
    if (!t) {
      t = { entries: new Map(), lexical: new LexicalIndex(), vectors: new Map(), profiles: new Map() };
      this.#tenants.set(tenantId, t);
    }
    return t;
  }

  #write(entry: MemoryEntry): void {
    const t = this.#tenant(entry.tenantId);
    t.entries.set(entry.id, entry);
    t.lexical.add(entry.id, entryText(entry));
  }

  #remove(tenantId: string, id: string): boolean {
    const t = this.#tenants.get(tenantId);
    if (!t?.entries.delete(id)) return false;
    t.lexical.remove(id);
    for (const set of t.vectors.values()) set.rows.delete(id);
    this.#prune(tenantId);
    return true;
  }

  #prune(tenantId: string): void {
    const t = this.#tenants.get(tenantId);
    if (!t) return;
    for (const [id, set] of t.vectors) if (set.rows.size === 0) t.vectors.delete(id);
    if (t.entries.size === 0 && t.profiles.size === 0 && t.vectors.size === 0) this.#tenants.delete(tenantId);
  }
}

function compileFilter(f: MemoryFilter): (e: MemoryEntry) => boolean {
  const ids = f.ids && new Set(f.ids);
  const tiers = f.tiers && new Set<Tier>(f.tiers);
  const kinds = f.kinds && new Set(f.kinds);
  const tags = f.tags;
  const all = f.tagMode === 'all';
  const text = f.text?.toLowerCase();
  return (e) =>
    (!ids || ids.has(e.id)) &&
    (!tiers || tiers.has(e.tier)) &&
    (!kinds || kinds.has(e.kind)) &&
    (!tags || (all ? tags.every((t) => e.tags.includes(t)) : tags.some((t) => e.tags.includes(t)))) &&
    (f.userId === undefined || e.userId === f.userId) &&
    (f.createdFrom === undefined || e.createdAt >= f.createdFrom) &&
    (f.createdTo === undefined || e.createdAt <= f.createdTo) &&
    (f.minImportance === undefined || e.importance >= f.minImportance) &&
    (f.maxImportance === undefined || e.importance < f.maxImportance) &&
    (text === undefined || entryText(e).toLowerCase().includes(text));
}
