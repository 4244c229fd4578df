import { systemClock } from '../model/clock.js';
import type { Clock } from '../model/clock.js';
import { validateMetadata } from '../model/entry.js';
import { invalid } from '../model/errors.js';
import type { StorageAdapter } from '../storage/storage.js';
import { STOPWORDS, tokenize } from '../retrieval/text.js';
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

const PII_PLACEHOLDER = /\[[A-Z][A-Z0-9_]*_\d+\]/g;

/**
 * Words that are never topics on their own, beyond the retrieval {@link STOPWORDS}: conversational
 * verbs and courtesies, adverbs of time, frequency and degree, quantifiers and pronoun-like words,
 * and nouns too general to say what a user talks about ("number", "thing", "time", "way"). Closed
 * compound families (whenever, something, everyone, …) are matched by {@link FUNCTION_COMPOUND}.
 */
const GENERAL_WORDS = new Set(
  // conversational verbs and courtesies
  (
    'like likes liked love loved loves hate want wants wanted need needs needed know knew known think thought ' +
    'keep kept live lives lived meet name named please remember remembered thanks thank make made makes ' +
    'sounds lovely feel felt tell told said says call called calls talk talking talked help helps ' +
    'come comes came coming give gives gave given take takes took taken find found look looks looked ' +
    'seem seems seemed mean means meant guess suppose hope hoped wish wonder noted ' +
    'going went goes gone doing done getting gets thats theres ' +
    // adverbs of time, frequency and degree; hedges
    'really just also well good great nice sure maybe actually right okay yeah usually always never sometimes ' +
    'lately often soon later already still ever even quite rather pretty almost enough indeed perhaps probably ' +
    'today tomorrow yesterday tonight again ago anyway instead else otherwise either neither though although ' +
    'unless since within without upon onto toward towards across along around away back next last first ' +
    'each every another other others such much many more most less least lots plenty several various ' +
    'able could would should might must shall may ' +
    // pronoun-like words and quantifiers
    'mine yours theirs ours whose none both half whole ' +
    // nouns too general to be a topic
    'number numbers thing things stuff time times way ways kind kinds sort sorts part parts lot bit bits ' +
    'place places case cases point points fact facts matter matters idea ideas question questions ' +
    'answer answers people person someone week weeks month months year years hour hours minute minutes ' +
    'moment moments while side sides type types level levels example examples'
  ).split(' '),
);

/**
 * Closed families of function words built from a fixed stem: whenever/whatever/however/…,
 * something/anyone/everybody/nowhere/somehow/…, hereby/therefore/… .
 */
const FUNCTION_COMPOUND =
  /^(?:(?:when|what|wher|where|which|who|whom|how)(?:so)?ever|(?:some|any|every|no)(?:thing|one|body|where|time|times|how|way|ways|place)|(?:here|there|where)(?:by|fore|in|of|on|upon|after|with|as|about))$/;

/** Whether `word` (lowercase token) can be a topic at all. */
function isTopicWord(word: string): boolean {
  return (
    word.length >= 4 &&
    !STOPWORDS.has(word) &&
    !GENERAL_WORDS.has(word) &&
    !FUNCTION_COMPOUND.test(word) &&
    !/^\d+$/.test(word)
  );
}

/**
 * Topics of a text: its most frequent content words (length >= 4, not stopwords, not general
 * words or function-word compounds — see `GENERAL_WORDS` and `FUNCTION_COMPOUND` — not numbers),
 * lowercased, most frequent first (ties: first seen), at most `max`. PII placeholders left by the
 * masker are skipped.
 */
export function extractTopics(text: string, max = 5): string[] {
  if (typeof text !== 'string') invalid('text', 'a string', text);
  const counts = new Map<string, number>();
  // Masked PII ("[EMAIL_1]", "[CREDIT_CARD_2]") is not something the user talks about.
  for (const w of tokenize(text.replace(PII_PLACEHOLDER, ' '))) {
    if (!isTopicWord(w)) continue;
    counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  // Map keeps first-seen order and sort is stable, so ties keep it.
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, max)
    .map(([w]) => w);
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
