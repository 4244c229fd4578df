import { systemClock } from '../model/clock.js';
import type { Clock } from '../model/clock.js';
import { validateMetadata } from '../model/entry.js';
import { invalid } from '../model/errors.js';
import type { StorageAdapter } from '../storage/storage.js';
import { extractTopics } from '../language/topics.js';
import type { JsonValue, UserProfile } from '../model/types.js';
import { validId } from '../model/ids.js';
import { KeyedMutex } from '../manager/keyed-mutex.js';

/** Bounds of {@link UserProfile.memoryRetentionBoost}. */
export const RETENTION_BOOST_MIN = -0.2;
/** Upper bound of {@link UserProfile.memoryRetentionBoost}. */
export const RETENTION_BOOST_MAX = 0.3;
/** A profile keeps at most this many topics (the least mentioned go first). */
export const MAX_PROFILE_TOPICS = 100;

/** What one interaction contributes to a profile. */
export interface ProfileUpdate {
  /** Topics to count (trimmed, lowercased). */
  topics?: string[];
  /** Text whose topics are extracted with {@link extractTopics}. */
  text?: string;
}

/** Options of {@link UserProfileManager}. */
export interface UserProfileManagerOptions {
  storage: StorageAdapter;
  clock?: Clock;
}

/** A fresh profile with no interactions (not stored). */
export function createDefaultProfile(tenantId: string, userId: string, now: number): UserProfile {
  return {
    tenantId: validId('tenantId', tenantId),
    userId: validId('userId', userId),
    createdAt: now,
    updatedAt: now,
    interactionCount: 0,
    topics: {},
    memoryRetentionBoost: 0,
    attributes: {},
  };
}

/** Retention boost for an interaction count: `clamp(0.02 * log2(1 + n), -0.2, 0.3)`. */
export function retentionBoost(interactions: number): number {
  const v = 0.02 * Math.log2(1 + Math.max(0, interactions));
  return Math.min(RETENTION_BOOST_MAX, Math.max(RETENTION_BOOST_MIN, v));
}

/** Check a complete profile and return a clean copy. Throws `VALIDATION`. Used by adapters. */
export function validateProfile(profile: UserProfile): UserProfile {
  if (typeof profile !== 'object' || profile === null) invalid('profile', 'an object', profile);
  const p = profile;
  for (const f of ['createdAt', 'updatedAt'] as const) {
    if (typeof p[f] !== 'number' || !Number.isFinite(p[f]) || p[f] < 0)
      invalid(`profile.${f}`, 'epoch milliseconds', p[f]);
  }
  if (!Number.isInteger(p.interactionCount) || p.interactionCount < 0)
    invalid('profile.interactionCount', 'an integer >= 0', p.interactionCount);
  const b = p.memoryRetentionBoost;
  if (typeof b !== 'number' || !(b >= RETENTION_BOOST_MIN && b <= RETENTION_BOOST_MAX))
    invalid('profile.memoryRetentionBoost', `a number in [${RETENTION_BOOST_MIN}, ${RETENTION_BOOST_MAX}]`, b);
  if (typeof p.topics !== 'object' || p.topics === null || Array.isArray(p.topics))
    invalid('profile.topics', 'an object', p.topics);
  const topics: Record<string, number> = {};
  for (const [k, v] of Object.entries(p.topics)) {
    if (!Number.isInteger(v) || v < 0) invalid(`profile.topics.${k}`, 'an integer >= 0', v);
    topics[k] = v;
  }
  return {
    tenantId: validId('profile.tenantId', p.tenantId),
    userId: validId('profile.userId', p.userId),
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    interactionCount: p.interactionCount,
    topics,
    memoryRetentionBoost: b,
    attributes: validateMetadata(p.attributes),
  };
}

/**
 * Per-user profiles (interaction count, topics, retention boost, attributes), scoped by
 * `(tenantId, userId)` and kept in the storage adapter. Updates to one profile are serialised,
 * so concurrent calls never lose a count.
 */
export class UserProfileManager {
  readonly #storage: StorageAdapter;
  readonly #clock: Clock;
  /** Read-modify-write of one profile runs one at a time. */
  readonly #pending = new KeyedMutex<string>();

  constructor(options: UserProfileManagerOptions) {
    if (!options || typeof options.storage !== 'object')
      invalid('options.storage', 'a StorageAdapter', options?.storage);
    this.#storage = options.storage;
    this.#clock = options.clock ?? systemClock;
  }

  /** The stored profile, or a default one (not stored) when there is none. */
  async get(tenantId: string, userId: string): Promise<UserProfile> {
    validId('tenantId', tenantId);
    validId('userId', userId);
    return (await this.#storage.getProfile(tenantId, userId)) ?? createDefaultProfile(tenantId, userId, this.#clock());
  }

  /** Record one interaction: count it, count its topics, recompute the retention boost. */
  async update(tenantId: string, userId: string, update: ProfileUpdate = {}): Promise<UserProfile> {
    validId('tenantId', tenantId);
    validId('userId', userId);
    if (typeof update !== 'object' || update === null) invalid('update', 'an object {topics?, text?}', update);
    if (
      update.topics !== undefined &&
      (!Array.isArray(update.topics) || update.topics.some((t) => typeof t !== 'string'))
    )
      invalid('update.topics', 'an array of strings', update.topics);
    if (update.text !== undefined && typeof update.text !== 'string') invalid('update.text', 'a string', update.text);
    const mentioned = new Set<string>();
    for (const t of update.topics ?? []) if (t.trim()) mentioned.add(t.trim().toLowerCase());
    for (const t of update.text ? extractTopics(update.text) : []) mentioned.add(t);
    return this.#serial(tenantId, userId, async () => {
      const now = this.#clock();
      const p = await this.get(tenantId, userId);
      p.interactionCount += 1;
      for (const t of mentioned) p.topics[t] = (p.topics[t] ?? 0) + 1;
      p.topics = capTopics(p.topics);
      p.memoryRetentionBoost = retentionBoost(p.interactionCount);
      p.updatedAt = now;
      await this.#storage.putProfile(p);
      return p;
    });
  }

  /** Merge attributes into the profile; a `null` value removes that attribute. */
  async setAttributes(tenantId: string, userId: string, attributes: Record<string, JsonValue>): Promise<UserProfile> {
    validId('tenantId', tenantId);
    validId('userId', userId);
    const attrs = validateMetadata(attributes);
    return this.#serial(tenantId, userId, async () => {
      const p = await this.get(tenantId, userId);
      for (const [k, v] of Object.entries(attrs)) {
        if (v === null) delete p.attributes[k];
        else p.attributes[k] = v;
      }
      p.updatedAt = this.#clock();
      await this.#storage.putProfile(p);
      return p;
    });
  }

  /** Every stored profile of the tenant. */
  async list(tenantId: string): Promise<UserProfile[]> {
    validId('tenantId', tenantId);
    return this.#storage.listProfiles(tenantId);
  }

  /** Topics of a text (see {@link extractTopics}). */
  extractTopics(text: string): string[] {
    return extractTopics(text);
  }

  #serial<T>(tenantId: string, userId: string, task: () => Promise<T>): Promise<T> {
    return this.#pending.run(JSON.stringify([tenantId, userId]), task);
  }
}

function capTopics(topics: Record<string, number>): Record<string, number> {
  const entries = Object.entries(topics);
  if (entries.length <= MAX_PROFILE_TOPICS) return topics;
  entries.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return Object.fromEntries(entries.slice(0, MAX_PROFILE_TOPICS));
}
