import type { JsonValue, MemoryEntry } from '../model/types.js';

/**
 * The record of `current` kept in `metadata.history` when it is replaced (by `updateMemory`, or
 * by formation when a statement supersedes it): content, importance, tags, kind, version and when.
 */
export function historyRecord(current: MemoryEntry, replacedAt: number): Record<string, JsonValue> {
  return {
    content: current.content as unknown as JsonValue,
    importance: current.importance,
    tags: current.tags,
    kind: current.kind,
    version: current.version,
    replacedAt,
  } satisfies Record<string, JsonValue>;
}
