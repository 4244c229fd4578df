import { systemClock } from '../model/clock.js';
import type { Clock } from '../model/clock.js';
import { resolveConfig } from '../model/config.js';
import type { MemoryConfig } from '../model/config.js';
import { effectiveImportance, isProtected } from '../dynamics/decay.js';
import { createEntry, validateEntry } from '../model/entry.js';
import type { NewEntry } from '../model/entry.js';
import { invalid } from '../model/errors.js';
import type { MemoryQuery, StorageAdapter } from '../storage/storage.js';
import type { MemoryEntry, MemoryKind } from '../model/types.js';
import type { LongTermView } from '../manager/tier-views.js';

/** Options of {@link LongTermMemory}. */
export interface LongTermMemoryOptions {
  storage: StorageAdapter;
  tenantId: string;
  /** Resolved configuration. Default `resolveConfig()`. */
  config?: MemoryConfig;
  clock?: Clock;
}

/** An entry with its effective importance at the time of the call. */
export interface RankedEntry {
  entry: MemoryEntry;
  effectiveImportance: number;
}

/** Snapshot of a tenant's long-term memory. */
export interface LongTermStats {
  count: number;
  byKind: Record<string, number>;
  protected: number;
  /** Mean base importance (0 when empty). */
  averageImportance: number;
  /** Mean effective importance now (0 when empty). */
  averageEffectiveImportance: number;
  oldestAt: number | undefined;
  newestAt: number | undefined;
}

const TIER = 'long_term' as const;

/**
 * Durable memories of one tenant, over a {@link StorageAdapter}. It is the `long_term` tier's
 * view: storing sets `tier: 'long_term'` and every read is scoped to that tier.
 *
 * Reads never write (recall reinforcement is the explicit {@link LongTermMemory.reinforce}).
 * Importance-based operations use *effective* importance (decay from base and `lastAccess`), so
 * nothing compounds and running them twice changes nothing the second time.
 */
export class LongTermMemory implements LongTermView {
  readonly #storage: StorageAdapter;
  readonly #tenantId: string;
  readonly #config: MemoryConfig;
  readonly #clock: Clock;

  constructor(options: LongTermMemoryOptions) {
    if (typeof options !== 'object' || options === null) invalid('options', 'an object {storage, tenantId}', options);
    if (typeof options.storage !== 'object' || options.storage === null)
      invalid('options.storage', 'a StorageAdapter', options.storage);
    if (typeof options.tenantId !== 'string' || !options.tenantId.trim())
      invalid('options.tenantId', 'a non-empty string', options.tenantId);
    this.#storage = options.storage;
    this.#tenantId = options.tenantId;
    this.#config = options.config ?? resolveConfig();
    this.#clock = options.clock ?? systemClock;
  }

  /** The tenant this memory belongs to. */
  get tenantId(): string {
    return this.#tenantId;
  }

  /**
   * Upsert one entry, replacing the whole stored entry with the same id (content included).
   * A {@link NewEntry} gets a fresh random id unless it names one; a full {@link MemoryEntry} is
   * stored as given (it must belong to this tenant). Resolves to a copy of what was stored.
   */
  async store(entry: NewEntry | MemoryEntry): Promise<MemoryEntry> {
    const prepared = this.#prepare(entry, this.#clock());
    await this.#storage.put(prepared);
    return structuredClone(prepared);
  }

  /**
   * Upsert many entries with the same semantics as {@link LongTermMemory.store}, all or nothing:
   * every entry is validated first, and one invalid entry means nothing is written.
   */
  async storeMany(entries: (NewEntry | MemoryEntry)[]): Promise<MemoryEntry[]> {
    if (!Array.isArray(entries)) invalid('entries', 'an array of entries', entries);
    const now = this.#clock();
    const prepared = entries.map((e) => this.#prepare(e, now));
    if (prepared.length > 0) await this.#storage.putMany(prepared);
    return structuredClone(prepared);
  }

  /** The entry with this id, or `undefined`. A pure read: nothing is written. */
  async get(id: string): Promise<MemoryEntry | undefined> {
    const e = await this.#storage.get(this.#tenantId, id);
    return e?.tier === TIER ? e : undefined;
  }

  /** Delete one entry (and its vectors). Resolves true when it existed. */
  async delete(id: string): Promise<boolean> {
    const e = await this.get(id);
    return e ? this.#storage.delete(this.#tenantId, id) : false;
  }

  /** Delete entries (and their vectors) by id; ids of other tiers are left alone. Resolves to the number deleted. */
  async deleteMany(ids: string[]): Promise<number> {
    if (!Array.isArray(ids)) invalid('ids', 'an array of ids', ids);
    if (ids.length === 0) return 0;
    const own = (await this.#storage.getMany(this.#tenantId, ids)).filter((e) => e.tier === TIER).map((e) => e.id);
    return own.length === 0 ? 0 : this.#storage.deleteMany(this.#tenantId, own);
  }

  /**
   * The `limit` entries with the highest *effective* importance now (at least `minImportance`),
   * highest first, ties by id ascending.
   */
  async topByImportance(limit: number, minImportance = 0): Promise<MemoryEntry[]> {
    return (await this.rankByImportance(limit, minImportance)).map((r) => r.entry);
  }

  /** Like {@link LongTermMemory.topByImportance}, with each entry's effective importance. */
  async rankByImportance(limit: number, minImportance = 0): Promise<RankedEntry[]> {
    checkCount('limit', limit);
    checkUnit('minImportance', minImportance);
    if (limit === 0) return [];
    const now = this.#clock();
    // Effective importance never exceeds base importance, so scanning by base importance (desc)
    // can stop once the base of the next entry cannot beat the current k-th best effective value.
    const page = Math.max(64, limit * 4);
    const best: RankedEntry[] = [];
    for (let offset = 0; ; offset += page) {
      const batch = await this.#storage.query({
        tenantId: this.#tenantId,
        tiers: [TIER],
        orderBy: 'importance',
        order: 'desc',
        limit: page,
        offset,
      });
      for (const entry of batch) {
        const effective = this.#effective(entry, now);
        if (effective >= minImportance) best.push({ entry, effectiveImportance: effective });
      }
      best.sort((a, b) => b.effectiveImportance - a.effectiveImportance || (a.entry.id < b.entry.id ? -1 : 1));
      if (best.length > limit) best.length = limit;
      const last = batch.at(-1);
      if (batch.length < page || !last) break;
      const floor = best.length === limit ? best[limit - 1]!.effectiveImportance : minImportance;
      if (last.importance < floor) break;
    }
    return best;
  }

  /** The `limit` newest entries, newest first. */
  async recent(limit: number): Promise<MemoryEntry[]> {
    checkCount('limit', limit);
    return this.query({ orderBy: 'createdAt', order: 'desc', limit });
  }

  /** Number of long-term entries. */
  async count(): Promise<number> {
    return this.#storage.count({ tenantId: this.#tenantId, tiers: [TIER] });
  }

  /** Delete every long-term entry of the tenant (other tiers and profiles stay). Resolves to the number deleted. */
  async clear(): Promise<number> {
    const ids = (await this.#all()).map((e) => e.id);
    return ids.length === 0 ? 0 : this.#storage.deleteMany(this.#tenantId, ids);
  }

  /** Counts and importance averages. */
  async stats(): Promise<LongTermStats> {
    const all = await this.#all();
    const now = this.#clock();
    const byKind: Record<string, number> = {};
    let base = 0;
    let eff = 0;
    let prot = 0;
    let oldestAt: number | undefined;
    let newestAt: number | undefined;
    for (const e of all) {
      byKind[e.kind] = (byKind[e.kind] ?? 0) + 1;
      base += e.importance;
      eff += this.#effective(e, now);
      if (isProtected(e, this.#config)) prot++;
      oldestAt = oldestAt === undefined ? e.createdAt : Math.min(oldestAt, e.createdAt);
      newestAt = newestAt === undefined ? e.createdAt : Math.max(newestAt, e.createdAt);
    }
    const n = all.length;
    return {
      count: n,
      byKind,
      protected: prot,
      averageImportance: n ? base / n : 0,
      averageEffectiveImportance: n ? eff / n : 0,
      oldestAt,
      newestAt,
    };
  }

  /** Entries of one kind, newest first. */
  async byKind(kind: MemoryKind, limit?: number): Promise<MemoryEntry[]> {
    if (typeof kind !== 'string' || !kind) invalid('kind', 'a non-empty string', kind);
    return this.query({ kinds: [kind], ...(limit === undefined ? {} : { limit }) });
  }

  /** Entries with any (default) or all of the tags, newest first. */
  async byTags(tags: string[], options: { mode?: 'any' | 'all'; limit?: number } = {}): Promise<MemoryEntry[]> {
    if (!Array.isArray(tags) || tags.length === 0) invalid('tags', 'a non-empty array of strings', tags);
    const q: Omit<MemoryQuery, 'tenantId'> = { tags, tagMode: options.mode ?? 'any' };
    if (options.limit !== undefined) q.limit = options.limit;
    return this.query(q);
  }

  /** Entries created in `[from, to]` (epoch ms, inclusive), newest first. */
  async byDateRange(from: number, to: number, limit?: number): Promise<MemoryEntry[]> {
    if (typeof from !== 'number' || !Number.isFinite(from)) invalid('from', 'epoch milliseconds', from);
    if (typeof to !== 'number' || !Number.isFinite(to) || to < from)
      invalid('to', `epoch milliseconds >= from (${from})`, to);
    return this.query({ createdFrom: from, createdTo: to, ...(limit === undefined ? {} : { limit }) });
  }

  /** BM25 search over entry text, best first. */
  async searchText(text: string, limit: number = this.#config.retrievalLimit): Promise<MemoryEntry[]> {
    if (typeof text !== 'string') invalid('text', 'a string', text);
    checkCount('limit', limit);
    const hits = await this.#storage.lexicalSearch({
      tenantId: this.#tenantId,
      query: text,
      limit,
      filter: { tiers: [TIER] },
    });
    if (hits.length === 0) return [];
    const byId = new Map(
      (
        await this.#storage.getMany(
          this.#tenantId,
          hits.map((h) => h.id),
        )
      ).map((e) => [e.id, e]),
    );
    return hits.map((h) => byId.get(h.id)).filter((e): e is MemoryEntry => e !== undefined);
  }

  /** A storage query scoped to this tenant and the long-term tier. */
  async query(q: Omit<MemoryQuery, 'tenantId'> = {}): Promise<MemoryEntry[]> {
    if (typeof q !== 'object' || q === null) invalid('query', 'an object', q);
    return this.#storage.query({ ...q, tenantId: this.#tenantId, tiers: [TIER] });
  }

  /** Effective importance of an entry now (see {@link effectiveImportance}). */
  effectiveImportance(entry: MemoryEntry, now: number = this.#clock()): number {
    return this.#effective(entry, now);
  }

  #effective(entry: MemoryEntry, now: number): number {
    return effectiveImportance(entry, now, this.#config);
  }

  #all(): Promise<MemoryEntry[]> {
    return this.query({});
  }

  #prepare(input: NewEntry | MemoryEntry, now: number): MemoryEntry {
    if (isFullEntry(input)) {
      if (input.tenantId !== this.#tenantId)
        invalid('entry.tenantId', `this memory's tenant (${this.#tenantId})`, input.tenantId);
      return validateEntry({ ...input, tier: TIER });
    }
    return createEntry(this.#tenantId, { ...input, tier: TIER }, now);
  }
}

function isFullEntry(e: NewEntry | MemoryEntry): e is MemoryEntry {
  return typeof e === 'object' && e !== null && 'tenantId' in e && 'version' in e && 'lastAccess' in e;
}

function checkCount(field: string, v: unknown): void {
  if (!Number.isInteger(v) || (v as number) < 0) invalid(field, 'an integer >= 0', v);
}

function checkUnit(field: string, v: unknown): void {
  if (typeof v !== 'number' || !(v >= 0 && v <= 1)) invalid(field, 'a number in [0, 1]', v);
}
