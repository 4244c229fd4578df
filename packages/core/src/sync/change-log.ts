/**
 * The change log every store keeps for sync, and the merge rule, one place. Each acknowledged
 * write or delete of an entry or a profile updates the entity's {@link ChangeRow} in the same
 * transaction as the change: the version's hybrid-clock timestamp, the device that wrote it, a
 * record id, a version vector (which versions of each device it includes) and, for entries,
 * per-device counters of recalls and importance changes. Adapters call {@link localChange} on
 * their write path and {@link mergeChange} when applying records from other devices; both are
 * pure, so a store that replays its log gets the same rows again.
 *
 * Merge rules (per entity): a version that another already includes is skipped (applying a record
 * twice changes nothing); a version that includes the local one replaces it; two concurrent
 * versions resolve to the later clock (ties by device id), the loser kept in the winner's
 * `metadata.history`, recalls and importance changes of both sides added up, `lastAccess` the
 * later one. A delete is a version like any other: it wins over an older update and loses to a
 * newer one; its tombstone row is kept for {@link TOMBSTONE_RETENTION_MS}.
 */
import { validateProfile } from '../dynamics/profile-manager.js';
import { validateEntry } from '../model/entry.js';
import { invalid } from '../model/errors.js';
import { checkId } from '../model/ids.js';
import type { JsonValue, MemoryEntry, UserProfile } from '../model/types.js';
import { hlcWall, isHlc, nextHlc } from './hlc.js';

/** What a change row is about. */
export type SyncKind = 'entry' | 'profile';

/** Per device, the latest timestamp of that device a version includes. */
export type VersionVector = Record<string, string>;

/** A counter per device as `[added, removed]`; its value is the sum of `added - removed`. */
export type PnCounter = Record<string, [number, number]>;

/** Entry counters that merge by adding both sides' changes. */
export interface SyncCounters {
  /** Recalls (`accessCount`). */
  access: PnCounter;
  /** Base importance (reinforcement raises it, decay write-back and edits change it). */
  importance: PnCounter;
}

/** What a write path passes to its adapter for one operation: the record id prefix, the clock, the device. */
export interface ChangeStamp {
  recordId: string;
  hlc: string;
  deviceId: string;
}

/** The sync state of one entity, kept by every store beside the entity. */
export interface ChangeRow {
  tenantId: string;
  kind: SyncKind;
  /** The entry id or the profile's user id. */
  key: string;
  recordId: string;
  op: 'put' | 'delete';
  hlc: string;
  deviceId: string;
  clock: VersionVector;
  /** Entries only. */
  counters?: SyncCounters;
  /** Written on this device and not yet acknowledged by the sync server. */
  pending: boolean;
}

/** A sync record: one entity's version with its data (`entry` or `profile` for a put). */
export interface SyncChange extends Omit<ChangeRow, 'pending'> {
  entry?: MemoryEntry;
  profile?: UserProfile;
}

/** A stored entity with its change row, as {@link mergeChange} reads it. */
export interface LocalVersion {
  row: ChangeRow | undefined;
  entry?: MemoryEntry | undefined;
  profile?: UserProfile | undefined;
}

/** What to do with one incoming record. */
export type MergeResult =
  | { outcome: 'skip' }
  | {
      /** `applied`: the record replaced the local version; `merged`: concurrent versions were merged. */
      outcome: 'applied' | 'merged';
      row: ChangeRow;
      /** Remove the entity (the winner is a delete). */
      remove: boolean;
      entry?: MemoryEntry;
      profile?: UserProfile;
    };

/** What `applyChanges` did with a batch of records. */
export interface ApplyReport {
  /** Records that replaced the local version. */
  applied: number;
  /** Records merged with a concurrent local version. */
  merged: number;
  /** Records already included in the local version (nothing changed). */
  skipped: number;
  /** Entry ids written (their vectors need computing) and removed. */
  entriesWritten: string[];
  entriesRemoved: string[];
}

/** The sync position of one tenant in a store. */
export interface SyncState {
  deviceId: string;
  /** The last server cursor applied (opaque), or `undefined` before the first pull. */
  cursor: string | undefined;
  /** Change rows waiting to be pushed. */
  pending: number;
}

/** How long a delete's tombstone is kept (30 days): a device offline longer may bring the entity back. */
export const TOMBSTONE_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** The record id of entity `index` of an operation stamped `stamp`. */
export function stampRecordId(stamp: ChangeStamp, index: number): string {
  return `${stamp.recordId}.${index}`;
}

/**
 * The change row after a local write (`entry` or profile put) or delete of an entity whose row was
 * `prev`: a timestamp later than the previous version's, the device's entry in the version vector,
 * and counters that take this device's share of the entry's change.
 */
export function localChange(
  prev: ChangeRow | undefined,
  target: { tenantId: string; kind: SyncKind; key: string },
  op: 'put' | 'delete',
  stamp: ChangeStamp,
  recordId: string,
  entry?: MemoryEntry,
): ChangeRow {
  const hlc = prev && stamp.hlc <= prev.hlc ? nextHlc(0, prev.hlc) : stamp.hlc;
  const row: ChangeRow = {
    tenantId: target.tenantId,
    kind: target.kind,
    key: target.key,
    recordId,
    op,
    hlc,
    deviceId: stamp.deviceId,
    clock: { ...(prev?.clock ?? {}), [stamp.deviceId]: hlc },
    pending: true,
  };
  if (target.kind === 'entry') {
    const c = prev?.counters ?? { access: {}, importance: {} };
    row.counters =
      op === 'put' && entry
        ? {
            access: bump(c.access, stamp.deviceId, entry.accessCount - counterValue(c.access)),
            importance: bump(c.importance, stamp.deviceId, entry.importance - counterValue(c.importance)),
          }
        : structuredClone(c);
  }
  return row;
}

/**
 * The counter key of the recalls and importance an entity had when its store started its change
 * log (see {@link backfillChange}). Not a device id: two devices holding the same older memory
 * (restored from one backup) share it, so merging them counts those recalls once, not twice.
 */
export const BACKFILL_COUNTER = '*';

/**
 * The change row of an entity written before its store kept a change log (an older database, an
 * import): a pending put of its current version by this device, as a write now would be, except
 * that the counts it already has go under {@link BACKFILL_COUNTER} rather than this device's
 * counter. Adapters write it, once, for each entity of a tenant that has no change row
 * (`BaseStorage` asks before the tenant's first sync call).
 */
export function backfillChange(
  target: { tenantId: string; kind: SyncKind; key: string },
  stamp: ChangeStamp,
  recordId: string,
  entry?: MemoryEntry,
): ChangeRow {
  const row = localChange(undefined, target, 'put', stamp, recordId);
  if (target.kind === 'entry' && entry)
    row.counters = {
      access: bump({}, BACKFILL_COUNTER, entry.accessCount),
      importance: bump({}, BACKFILL_COUNTER, entry.importance),
    };
  return row;
}

/** Reads of the local state for {@link resolveChanges}: the stored change row, entry and profile. */
export interface LocalReads {
  /** The stored change row of one entity, or `undefined` when it has none yet. */
  row(kind: SyncKind, key: string): ChangeRow | undefined;
  /** The stored memory entry with this id, or `undefined`. */
  entry(key: string): MemoryEntry | undefined;
  /** The stored profile of this user, or `undefined`. */
  profile(userId: string): UserProfile | undefined;
}

/** What a batch of records comes to: the counts, and per entity its new change row and value (`null`: removed). */
export interface ResolvedChanges {
  applied: number;
  merged: number;
  skipped: number;
  /** By `${kind}\u0000${key}`. */
  rows: Map<string, ChangeRow>;
  entries: Map<string, MemoryEntry | null>;
  profiles: Map<string, UserProfile | null>;
}

/**
 * Merge a batch of records (in order) over the local state by {@link mergeChange}, one place for
 * the adapters that resolve in memory before they write: each record sees the results of the ones
 * before it, so a batch holding two versions of one entity merges like two batches would.
 */
export function resolveChanges(changes: SyncChange[], read: LocalReads): ResolvedChanges {
  const out: ResolvedChanges = {
    applied: 0,
    merged: 0,
    skipped: 0,
    rows: new Map(),
    entries: new Map(),
    profiles: new Map(),
  };
  const current = <T>(m: Map<string, T | null>, key: string, load: (key: string) => T | undefined) =>
    m.has(key) ? (m.get(key) ?? undefined) : load(key);
  for (const change of changes) {
    const k = `${change.kind}\u0000${change.key}`;
    const isEntry = change.kind === 'entry';
    const r = mergeChange(
      {
        row: out.rows.get(k) ?? read.row(change.kind, change.key),
        entry: isEntry ? current(out.entries, change.key, (key) => read.entry(key)) : undefined,
        profile: isEntry ? undefined : current(out.profiles, change.key, (key) => read.profile(key)),
      },
      change,
    );
    if (r.outcome === 'skip') {
      out.skipped++;
      continue;
    }
    out[r.outcome]++;
    out.rows.set(k, r.row);
    if (isEntry) out.entries.set(change.key, r.remove ? null : (r.entry ?? null));
    else out.profiles.set(change.key, r.remove ? null : (r.profile ?? null));
  }
  return out;
}

/**
 * The {@link ApplyReport} of a resolved batch, before it is written: its counts, the entries it
 * writes, and the ones it removes that are stored now (`stored(id)`: a removal of an entry the store
 * never held removes nothing). One place for the adapters that resolve with {@link resolveChanges}.
 */
export function reportOf(resolved: ResolvedChanges, stored: (id: string) => boolean): ApplyReport {
  const report: ApplyReport = {
    applied: resolved.applied,
    merged: resolved.merged,
    skipped: resolved.skipped,
    entriesWritten: [],
    entriesRemoved: [],
  };
  for (const [id, entry] of resolved.entries)
    if (entry) report.entriesWritten.push(id);
    else if (stored(id)) report.entriesRemoved.push(id);
  return report;
}

/**
 * How to apply `incoming` (from another device) over the local version. Pure and deterministic: two
 * devices merging the same two concurrent versions in either order reach the same entity.
 */
export function mergeChange(local: LocalVersion, incoming: SyncChange): MergeResult {
  const row = local.row;
  if (row && row.recordId === incoming.recordId) return { outcome: 'skip' };
  const order = row ? compareClocks(row.clock, incoming.clock) : 'before';
  if (order === 'after' || order === 'equal') return { outcome: 'skip' };
  const { entry: inEntry, profile: inProfile, ...meta } = incoming;
  const counters = joinCounters(row?.counters, incoming.counters);
  if (order === 'before') {
    const next: ChangeRow = { ...structuredClone(meta), pending: false };
    if (counters) next.counters = counters;
    return withData({ outcome: 'applied', row: next, remove: incoming.op === 'delete' }, inEntry, inProfile);
  }
  // Concurrent versions: the later clock wins (ties by device id).
  const local_ = row!;
  const incomingWins = later(incoming, local_);
  const w = incomingWins ? incoming : local_;
  const next: ChangeRow = {
    tenantId: local_.tenantId,
    kind: local_.kind,
    key: local_.key,
    // A version written here and not yet pushed still has to reach the server, now merged: it keeps
    // its own record id (the server has never seen it) and stays pending.
    recordId: local_.pending ? local_.recordId : w.recordId,
    op: w.op,
    hlc: w.hlc,
    deviceId: w.deviceId,
    clock: joinClocks(local_.clock, incoming.clock),
    pending: local_.pending,
  };
  if (counters) next.counters = counters;
  if (w.op === 'delete') return { outcome: 'merged', row: next, remove: true };
  if (local_.kind === 'profile') {
    const profile = incomingWins ? inProfile : local.profile;
    return withData({ outcome: 'merged', row: next, remove: false }, undefined, profile);
  }
  const winner = incomingWins ? inEntry : local.entry;
  const loser = incomingWins ? local.entry : inEntry;
  const loserRow = incomingWins ? local_ : incoming;
  if (!winner) return { outcome: 'merged', row: next, remove: true };
  if (!loser || loserRow.op === 'delete') return withData({ outcome: 'merged', row: next, remove: false }, winner);
  const history = mergeHistory(winner, loser, conflictRecord(loser, loserRow));
  const merged: MemoryEntry = {
    ...structuredClone(winner),
    lastAccess: Math.max(winner.lastAccess, loser.lastAccess),
    version: Math.max(winner.version, loser.version),
    metadata: { ...structuredClone(winner.metadata), history },
  };
  if (counters && local_.counters && incoming.counters) {
    merged.accessCount = Math.max(0, Math.round(counterValue(counters.access)));
    merged.importance = Math.min(1, Math.max(0, round9(counterValue(counters.importance))));
  }
  return { outcome: 'merged', row: next, remove: false, entry: merged };
}

/** `before`: `a` is included in `b`; `after`: `b` in `a`; `concurrent`: neither. */
export function compareClocks(a: VersionVector, b: VersionVector): 'equal' | 'before' | 'after' | 'concurrent' {
  let aAhead = false;
  let bAhead = false;
  for (const d of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const x = a[d] ?? '';
    const y = b[d] ?? '';
    if (x > y) aAhead = true;
    else if (y > x) bAhead = true;
  }
  if (aAhead && bAhead) return 'concurrent';
  if (aAhead) return 'after';
  if (bAhead) return 'before';
  return 'equal';
}

/**
 * Check a record that came from elsewhere (decrypted from the server) before it is applied: its
 * shape, its tenant, and that its data is a valid entry or profile of that key. Returns a copy.
 */
export function validateSyncChange(value: unknown, tenantId: string): SyncChange {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) invalid('change', 'an object', value);
  const c = value as Partial<SyncChange>;
  if (c.tenantId !== tenantId) invalid('change.tenantId', JSON.stringify(tenantId), c.tenantId);
  if (c.kind !== 'entry' && c.kind !== 'profile') invalid('change.kind', "'entry' | 'profile'", c.kind);
  if (c.op !== 'put' && c.op !== 'delete') invalid('change.op', "'put' | 'delete'", c.op);
  checkId('change.key', c.key);
  checkId('change.recordId', c.recordId);
  checkId('change.deviceId', c.deviceId);
  if (!isHlc(c.hlc)) invalid('change.hlc', 'a hybrid clock timestamp', c.hlc);
  checkClock(c.clock);
  if (c.clock[c.deviceId] !== c.hlc) invalid('change.clock', "to hold the record's own device and timestamp");
  const out: SyncChange = {
    tenantId,
    kind: c.kind,
    key: c.key,
    recordId: c.recordId,
    op: c.op,
    hlc: c.hlc,
    deviceId: c.deviceId,
    clock: { ...c.clock },
  };
  if (c.kind === 'entry') {
    checkCounters(c.counters);
    out.counters = structuredClone(c.counters);
  }
  if (c.op === 'put' && c.kind === 'entry') {
    const entry = validateEntry(c.entry as MemoryEntry);
    if (entry.tenantId !== tenantId || entry.id !== c.key) invalid('change.entry', `the entry ${c.key} of ${tenantId}`);
    out.entry = entry;
  }
  if (c.op === 'put' && c.kind === 'profile') {
    const profile = validateProfile(c.profile as UserProfile);
    if (profile.tenantId !== tenantId || profile.userId !== c.key)
      invalid('change.profile', `the profile ${c.key} of ${tenantId}`);
    out.profile = profile;
  }
  return out;
}

/** The value of a counter: the sum over devices, in device order (so every device adds alike). */
export function counterValue(c: PnCounter): number {
  let sum = 0;
  for (const d of Object.keys(c).sort()) sum += c[d]![0] - c[d]![1];
  return sum;
}

/** Tombstones older than this timestamp may be dropped (see {@link TOMBSTONE_RETENTION_MS}). */
export function tombstoneHorizon(now: number): string {
  return nextHlc(Math.max(0, now - TOMBSTONE_RETENTION_MS));
}

/** True when a change row is a tombstone that may be dropped at `horizon`. */
export function isExpiredTombstone(row: Pick<ChangeRow, 'op' | 'hlc' | 'pending'>, horizon: string): boolean {
  return row.op === 'delete' && !row.pending && row.hlc < horizon;
}

function withData(r: MergeResult & { outcome: 'applied' | 'merged' }, entry?: MemoryEntry, profile?: UserProfile) {
  if (!r.remove && entry) r.entry = structuredClone(entry);
  if (!r.remove && profile) r.profile = structuredClone(profile);
  if (!r.remove && !entry && !profile) r.remove = true;
  return r;
}

function later(a: Pick<ChangeRow, 'hlc' | 'deviceId'>, b: Pick<ChangeRow, 'hlc' | 'deviceId'>): boolean {
  return a.hlc > b.hlc || (a.hlc === b.hlc && a.deviceId > b.deviceId);
}

function joinClocks(a: VersionVector, b: VersionVector): VersionVector {
  const out: VersionVector = { ...a };
  for (const [d, h] of Object.entries(b)) if (!(d in out) || h > out[d]!) out[d] = h;
  return sortKeys(out);
}

function joinCounters(a: SyncCounters | undefined, b: SyncCounters | undefined): SyncCounters | undefined {
  if (!a || !b) return structuredClone(a ?? b);
  return { access: joinPn(a.access, b.access), importance: joinPn(a.importance, b.importance) };
}

function joinPn(a: PnCounter, b: PnCounter): PnCounter {
  const out: PnCounter = {};
  for (const d of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const x = a[d] ?? [0, 0];
    const y = b[d] ?? [0, 0];
    out[d] = [Math.max(x[0], y[0]), Math.max(x[1], y[1])];
  }
  return sortKeys(out);
}

function bump(c: PnCounter, device: string, delta: number): PnCounter {
  const out = structuredClone(c);
  const [p, n] = out[device] ?? [0, 0];
  const d = round9(delta);
  out[device] = d >= 0 ? [round9(p + d), n] : [p, round9(n - d)];
  return sortKeys(out);
}

function round9(x: number): number {
  return Math.round(x * 1e9) / 1e9;
}

function sortKeys<T>(o: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const k of Object.keys(o).sort()) out[k] = o[k]!;
  return out;
}

/** The losing version of a conflict, as kept in the winner's `metadata.history`. */
function conflictRecord(loser: MemoryEntry, row: Pick<ChangeRow, 'hlc' | 'deviceId'>): Record<string, JsonValue> {
  return {
    content: loser.content as unknown as JsonValue,
    kind: loser.kind,
    tier: loser.tier,
    tags: loser.tags,
    writtenAt: hlcWall(row.hlc),
    conflict: { hlc: row.hlc, deviceId: row.deviceId },
  };
}

/** Both sides' history plus the loser, each record once, in a canonical order. */
function mergeHistory(winner: MemoryEntry, loser: MemoryEntry, record: Record<string, JsonValue>): JsonValue[] {
  const items = [
    ...(Array.isArray(winner.metadata.history) ? winner.metadata.history : []),
    ...(Array.isArray(loser.metadata.history) ? loser.metadata.history : []),
    record,
  ];
  const byKey = new Map<string, JsonValue>();
  for (const item of items) byKey.set(canonicalJson(item), item);
  const at = (v: JsonValue) => {
    const o = v as Record<string, JsonValue> | null;
    const t = o && typeof o === 'object' ? (o.replacedAt ?? o.writtenAt) : undefined;
    return typeof t === 'number' ? t : 0;
  };
  return [...byKey.entries()]
    .sort(([ka, a], [kb, b]) => at(a) - at(b) || (ka < kb ? -1 : ka > kb ? 1 : 0))
    .map(([, v]) => structuredClone(v));
}

function canonicalJson(v: JsonValue): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(v[k]!)}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

function checkClock(clock: unknown): asserts clock is VersionVector {
  if (typeof clock !== 'object' || clock === null || Array.isArray(clock))
    invalid('change.clock', 'an object of device id → timestamp', clock);
  for (const [d, h] of Object.entries(clock)) {
    checkId('change.clock device', d);
    if (!isHlc(h)) invalid(`change.clock.${d}`, 'a hybrid clock timestamp', h);
  }
}

function checkCounters(c: unknown): asserts c is SyncCounters {
  const ok = (pn: unknown) =>
    typeof pn === 'object' &&
    pn !== null &&
    !Array.isArray(pn) &&
    Object.values(pn).every(
      (v) =>
        Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === 'number' && Number.isFinite(x) && x >= 0),
    );
  const v = c as Partial<SyncCounters> | undefined;
  if (!v || !ok(v.access) || !ok(v.importance))
    invalid('change.counters', '{ access, importance } counters of [added, removed] per device', c);
}
