/** Memory tiers. */
export type Tier = 'short_term' | 'working' | 'long_term';
/** Every tier, shortest-lived first. */
export const TIERS: readonly Tier[] = ['short_term', 'working', 'long_term'];

/** Built-in kinds. Kinds are open-ended: any non-empty string is accepted. */
export type BuiltinKind = 'conversation' | 'fact' | 'preference' | 'event' | 'task' | 'ephemeral' | 'summary';
/** A memory kind: a built-in one or any other non-empty string. */
export type MemoryKind = BuiltinKind | (string & {});

/** Content of a conversation turn. */
export interface InteractionContent {
  input: string;
  output: string;
}
/** Content of a fact-like memory. */
export interface FactContent {
  title: string;
  text: string;
}
/** Entry content: an interaction or a titled text. */
export type MemoryContent = InteractionContent | FactContent;

/** JSON-compatible value (what metadata may hold). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [k: string]: JsonValue };

/**
 * One memory. Plain, structured-clonable data. Identity is `(tenantId, id)`; `id` is a random
 * UUID, never a content hash. `importance` is the *base* importance; effective importance
 * (after decay) is derived with `effectiveImportance()` and never stored.
 */
export interface MemoryEntry {
  id: string;
  tenantId: string;
  /** The user that produced it, when known. */
  userId?: string;
  content: MemoryContent;
  tier: Tier;
  kind: MemoryKind;
  /** Epoch milliseconds. */
  createdAt: number;
  /** Epoch milliseconds of the last recall (or creation). Decay runs from here. */
  lastAccess: number;
  /** Base importance in [0, 1]. */
  importance: number;
  accessCount: number;
  tags: string[];
  metadata: Record<string, JsonValue>;
  /** Incremented on every update; starts at 1. */
  version: number;
}

/** A user profile, scoped by `(tenantId, userId)`. */
export interface UserProfile {
  tenantId: string;
  userId: string;
  createdAt: number;
  updatedAt: number;
  interactionCount: number;
  /** Topic → number of interactions that mentioned it. */
  topics: Record<string, number>;
  /** Added to the base importance of this user's new memories; clamped to [-0.2, 0.3]. */
  memoryRetentionBoost: number;
  /** Free-form preferences/attributes. */
  attributes: Record<string, JsonValue>;
}

/** Text used to index and display an entry. */
export function entryText(entry: Pick<MemoryEntry, 'content'>): string {
  const c = entry.content as Partial<InteractionContent & FactContent>;
  if (typeof c.input === 'string' || typeof c.output === 'string') {
    return [c.input ?? '', c.output ?? ''].filter(Boolean).join('\n');
  }
  return [c.title ?? '', c.text ?? ''].filter(Boolean).join('\n');
}

/** True when the content is an interaction (`{input, output}`). */
export function isInteraction(content: MemoryContent): content is InteractionContent {
  return typeof (content as InteractionContent).input === 'string';
}
