import { invalid } from './errors.js';
import { MAX_ID_LENGTH, validId } from './ids.js';
import {
  checkWellFormed,
  DEFAULT_LIMITS,
  MAX_METADATA_DEPTH,
  STORAGE_LIMITS,
  toWellFormed,
  type InputLimits,
} from './limits.js';
import { TIERS } from './types.js';
import type { JsonValue, MemoryContent, MemoryEntry, MemoryKind, Tier } from './types.js';

/** What a caller supplies to create an entry; everything but `content` has a default. */
export interface NewEntry {
  content: MemoryContent;
  /** Default `conversation` for `{input, output}` content, `fact` for `{title, text}`. */
  kind?: MemoryKind;
  /** Default `long_term`. */
  tier?: Tier;
  /** Base importance in [0, 1]. Default 0.5. */
  importance?: number;
  /** Trimmed, empties dropped, duplicates removed. */
  tags?: string[];
  metadata?: Record<string, JsonValue>;
  userId?: string;
  /** Only for imports; new entries get a random UUID. */
  id?: string;
  /** Only for imports; default `now`. `lastAccess` starts equal to it. */
  createdAt?: number;
}

/** Default base importance of a new entry. */
export const DEFAULT_IMPORTANCE = 0.5;

/** Create a new entry with a random UUID, validating every field. Throws `VALIDATION` on bad input. */
export function createEntry(tenantId: string, input: NewEntry, now: number): MemoryEntry {
  if (!isObject(input)) invalid('entry', 'an object with content', input);
  checkTime('now', now);
  const content = validateContent(input.content);
  const createdAt = input.createdAt === undefined ? now : checkTime('entry.createdAt', input.createdAt);
  const entry: MemoryEntry = {
    id: input.id === undefined ? newId() : validId('entry.id', input.id),
    tenantId: validId('tenantId', tenantId),
    content,
    tier: input.tier === undefined ? 'long_term' : checkTier(input.tier),
    kind: input.kind === undefined ? ('input' in content ? 'conversation' : 'fact') : checkKind(input.kind),
    createdAt,
    lastAccess: createdAt,
    importance: input.importance === undefined ? DEFAULT_IMPORTANCE : checkImportance(input.importance),
    accessCount: 0,
    tags: normalizeTags(input.tags ?? []),
    metadata: validateMetadata(input.metadata ?? {}, STORAGE_LIMITS),
    version: 1,
  };
  if (input.userId !== undefined) entry.userId = validId('entry.userId', input.userId);
  return entry;
}

/**
 * Check a complete entry and return a clean copy holding only the known fields (tags
 * normalised). Adapters and importers store what this returns. Throws `VALIDATION`.
 */
export function validateEntry(entry: MemoryEntry): MemoryEntry {
  if (!isObject(entry)) invalid('entry', 'an object', entry);
  const out: MemoryEntry = {
    id: validId('entry.id', entry.id),
    tenantId: validId('entry.tenantId', entry.tenantId),
    content: validateContent(entry.content),
    tier: checkTier(entry.tier),
    kind: checkKind(entry.kind),
    createdAt: checkTime('entry.createdAt', entry.createdAt),
    lastAccess: checkTime('entry.lastAccess', entry.lastAccess),
    importance: checkImportance(entry.importance),
    accessCount: checkCount('entry.accessCount', entry.accessCount, 0),
    tags: normalizeTags(entry.tags),
    metadata: validateMetadata(entry.metadata, STORAGE_LIMITS),
    version: checkCount('entry.version', entry.version, 1),
  };
  if (entry.userId !== undefined) out.userId = validId('entry.userId', entry.userId);
  return out;
}

/** Deep copy of an entry. */
export function cloneEntry(entry: MemoryEntry): MemoryEntry {
  return structuredClone(entry);
}

/** A new random id (UUID v4). Never derived from content. */
export function newId(): string {
  return globalThis.crypto.randomUUID();
}

/**
 * Trim tags, drop empty ones and duplicates (first occurrence wins). Throws `VALIDATION` on
 * non-strings and lone surrogates; with `max`, also on more than `max` tags or a tag longer than
 * `MAX_ID_LENGTH` (the caller-facing limits; stored entries keep only the first rules).
 */
export function normalizeTags(tags: unknown, max?: number): string[] {
  if (!Array.isArray(tags)) invalid('entry.tags', 'an array of strings', tags);
  if (max !== undefined && tags.length > max) invalid('tags', `at most ${max} tags`, `${tags.length} tags`);
  const seen = new Set<string>();
  for (const t of tags) {
    if (typeof t !== 'string') invalid('entry.tags', 'an array of strings', t);
    checkWellFormed('entry.tags[]', t);
    if (max !== undefined && t.length > MAX_ID_LENGTH)
      invalid('entry.tags[]', `a tag of at most ${MAX_ID_LENGTH} characters`, t);
    const v = t.trim();
    if (v) seen.add(v);
  }
  return [...seen];
}

/**
 * Check content shape and return a copy with only the known fields. Lone surrogates in the text
 * become U+FFFD (`toWellFormed`), as every adapter would store them.
 */
export function validateContent(content: unknown): MemoryContent {
  if (!isObject(content)) invalid('entry.content', 'an object {input, output} or {title, text}', content);
  const c = content as Record<string, unknown>;
  if ('input' in c || 'output' in c) {
    if (typeof c.input !== 'string') invalid('entry.content.input', 'a string', c.input);
    if (typeof c.output !== 'string') invalid('entry.content.output', 'a string', c.output);
    if (!c.input.trim() && !c.output.trim()) invalid('entry.content', 'non-empty input or output', '');
    return { input: toWellFormed(c.input), output: toWellFormed(c.output) };
  }
  if ('title' in c || 'text' in c) {
    if (typeof c.title !== 'string') invalid('entry.content.title', 'a string', c.title);
    if (typeof c.text !== 'string') invalid('entry.content.text', 'a string', c.text);
    if (!c.title.trim() && !c.text.trim()) invalid('entry.content', 'non-empty title or text', '');
    return { title: toWellFormed(c.title), text: toWellFormed(c.text) };
  }
  return invalid('entry.content', 'an object {input, output} or {title, text}', content);
}

/**
 * Check that `value` is a plain JSON object (finite numbers, no cycles, well-formed keys) within
 * `limits` (depth, keys and characters, see `InputLimits`) and return a deep copy. Throws
 * `VALIDATION` naming the path of the first offending value (`entry.metadata.a.b[3]`).
 */
export function validateMetadata(
  value: unknown,
  limits: Pick<InputLimits, 'metadataDepth' | 'metadataKeys' | 'metadataChars'> = DEFAULT_LIMITS,
  field = 'entry.metadata',
): Record<string, JsonValue> {
  if (!isObject(value)) invalid(field, 'a plain JSON object', value);
  const budget = {
    keys: 0,
    chars: 0,
    limits: { ...limits, metadataDepth: Math.min(limits.metadataDepth, MAX_METADATA_DEPTH) },
  };
  return copyJson(value, field, new Set(), 1, budget) as Record<string, JsonValue>;
}

interface CopyBudget {
  keys: number;
  chars: number;
  limits: Pick<InputLimits, 'metadataDepth' | 'metadataKeys' | 'metadataChars'>;
}

// Recursion is bounded by `metadataDepth` (checked before descending), never by the input.
function copyJson(value: unknown, path: string, seen: Set<object>, depth: number, budget: CopyBudget): JsonValue {
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    countChars(path, value.length, budget);
    return value;
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) invalid(path, 'a finite number', value);
    return value;
  }
  if (typeof value !== 'object') return invalid(path, 'a JSON value', value);
  if (seen.has(value)) invalid(path, 'acyclic JSON', 'a cycle');
  if (depth > budget.limits.metadataDepth)
    invalid(path, `metadata nested at most ${budget.limits.metadataDepth} levels deep`, `level ${depth}`);
  seen.add(value);
  let out: JsonValue;
  if (Array.isArray(value)) {
    countKeys(path, value.length, budget);
    out = value.map((v, i) => copyJson(v, `${path}[${i}]`, seen, depth + 1, budget));
  } else {
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) invalid(path, 'a plain object', value);
    const obj: Record<string, JsonValue> = {};
    const entries = Object.entries(value);
    countKeys(path, entries.length, budget);
    for (const [k, v] of entries) {
      if (v === undefined) continue;
      const at = `${path}.${k}`;
      checkWellFormed(`${path} key`, k);
      countChars(at, k.length, budget);
      // defineProperty, not assignment: a JSON key named "__proto__" must stay a plain key.
      Object.defineProperty(obj, k, {
        value: copyJson(v, at, seen, depth + 1, budget),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    out = obj;
  }
  seen.delete(value);
  return out;
}

function countKeys(path: string, n: number, budget: CopyBudget): void {
  budget.keys += n;
  if (budget.keys > budget.limits.metadataKeys)
    invalid(
      path,
      `metadata with at most ${budget.limits.metadataKeys} keys and items in all`,
      `${budget.keys} or more`,
    );
}

function countChars(path: string, n: number, budget: CopyBudget): void {
  budget.chars += n;
  if (budget.chars > budget.limits.metadataChars)
    invalid(path, `metadata with at most ${budget.limits.metadataChars} characters in all`, `${budget.chars} or more`);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkTier(v: unknown): Tier {
  if (!TIERS.includes(v as Tier)) invalid('entry.tier', TIERS.join(' | '), v);
  return v as Tier;
}

/**
 * The kind rule, one place: a non-empty, well-formed string of at most `MAX_ID_LENGTH`
 * characters (kinds are keys: filters, decay settings). Throws `VALIDATION` naming `field`.
 */
export function checkKind(v: unknown, field = 'entry.kind'): MemoryKind {
  if (typeof v !== 'string' || !v.trim() || v.length > MAX_ID_LENGTH)
    invalid(field, `a non-empty string of at most ${MAX_ID_LENGTH} characters`, v);
  checkWellFormed(field, v);
  return v;
}

/** `v` as epoch milliseconds (finite, >= 0), else `VALIDATION` naming `field`. */
export function checkTime(field: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) invalid(field, 'epoch milliseconds (finite, >= 0)', v);
  return v;
}

function checkImportance(v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1)
    invalid('entry.importance', 'a number in [0, 1]', v);
  return v;
}

function checkCount(field: string, v: unknown, min: number): number {
  if (!Number.isInteger(v) || (v as number) < min) invalid(field, `an integer >= ${min}`, v);
  return v as number;
}
