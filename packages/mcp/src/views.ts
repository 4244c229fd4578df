import type { JsonValue, MemoryEntry } from '@zerda/core';
import type { BackupInfo } from './backups.js';
import { baseToImportance, round } from './dynamics.js';
import type { ToolName } from './schemas.js';

// How memories and tool results look to clients: Zerda's detailed views, and the result shape of
// the server this one replaces (`{ success, reason?, data: [...] }`), the default.

/** A memory as the tools return it. Importance is on the 1..10 scale. */
export interface MemoryView {
  id: string;
  title: string;
  content: string;
  memory_type: string;
  tags: string[];
  /** Effective importance now (after decay), 1 decimal. */
  importance: number;
  /** Stored (base) importance, 1 decimal: what the original server shows as `importance`. */
  base_importance: number;
  /** Creation time, ISO 8601 UTC. */
  timestamp: string;
  /** Last access (the point decay runs from), ISO 8601 UTC. */
  last_accessed: string;
  access_count: number;
  /**
   * Which version of the memory this is: 1 as first stored, +1 for every update that changed it.
   * Reads that reinforce a memory write it too (access count, last access, importance), but they
   * are not versions (storage's own write counter is not shown).
   */
  version: number;
  /** Earlier versions kept in the memory's history (see `get_memory_history`). */
  previous_versions: number;
  /** True when a protected tag (`core`, `identity`, `pinned`) stops decay. */
  protected: boolean;
  /** The memory's metadata (reinforcement accumulated so far, last decay write-back…), history left out. */
  metadata: Record<string, JsonValue>;
}

/** A search hit: the memory plus how well it matched. */
export interface SearchHitView extends MemoryView {
  /** 0..1, higher is more relevant: the fused rank score within this search. */
  relevance_score: number;
  /** Cosine similarity of the embeddings, when the vector search found it. */
  similarity?: number;
  /** `similarity` on the original server's (MiniLM) scale, the one its thresholds are written in. */
  original_similarity?: number;
  match_type: 'semantic' | 'semantic_fallback' | 'vector' | 'keyword';
}

/** A tool's result in Zerda's detailed shape (plain JSON). */
export type ToolPayload = { success: true } & Record<string, unknown>;

/** Which result shape the tools answer in: the original server's (default) or Zerda's detailed one. */
export type ResultFormat = 'original' | 'zerda';

/** The title of a memory (titled memories; a conversation turn shows the start of its input). */
export function titleOf(entry: MemoryEntry): string {
  const c = entry.content;
  return 'title' in c ? c.title : c.input.slice(0, 80);
}

/** The text of a memory. */
export function contentOf(entry: MemoryEntry): string {
  const c = entry.content;
  return 'text' in c ? c.text : c.output;
}

/** A stored memory as the tools show it; `effective` is its importance now (0..1). */
export function memoryView(entry: MemoryEntry, effective: number, isProtected: boolean): MemoryView {
  const { history, ...metadata } = entry.metadata;
  return {
    id: entry.id,
    title: titleOf(entry),
    content: contentOf(entry),
    memory_type: entry.kind,
    tags: entry.tags,
    importance: baseToImportance(effective),
    base_importance: baseToImportance(entry.importance),
    timestamp: new Date(entry.createdAt).toISOString(),
    last_accessed: new Date(entry.lastAccess).toISOString(),
    access_count: entry.accessCount,
    version: (Array.isArray(history) ? history.length : 0) + 1,
    previous_versions: Array.isArray(history) ? history.length : 0,
    protected: isProtected,
    metadata,
  };
}

/**
 * Entry `index` (0 = oldest) of `metadata.history` (written by `MemoryManager.updateMemory`) on
 * the tool scale; its `version` is `index + 1`, as {@link memoryView} counts versions.
 */
export function historyView(raw: JsonValue, index: number): Record<string, JsonValue> {
  const h = (raw && typeof raw === 'object' && !Array.isArray(raw) ? raw : {}) as Record<string, JsonValue>;
  const c = (h.content && typeof h.content === 'object' && !Array.isArray(h.content) ? h.content : {}) as Record<
    string,
    JsonValue
  >;
  return {
    version: index + 1,
    title: typeof c.title === 'string' ? c.title : typeof c.input === 'string' ? c.input.slice(0, 80) : '',
    content: typeof c.text === 'string' ? c.text : typeof c.output === 'string' ? c.output : '',
    memory_type: typeof h.kind === 'string' ? h.kind : null,
    tags: Array.isArray(h.tags) ? h.tags : [],
    importance: typeof h.importance === 'number' ? baseToImportance(h.importance) : null,
    replaced_at: typeof h.replacedAt === 'number' ? new Date(h.replacedAt).toISOString() : null,
    current: false,
  };
}

/** A backup as the tools report it. */
export function backupView(info: BackupInfo): Record<string, JsonValue> {
  return {
    name: info.name,
    path: info.path,
    created_at: new Date(info.createdAt).toISOString(),
    reason: info.reason,
    memories: info.memories,
    files: info.files,
    bytes: info.bytes,
  };
}

/**
 * A memory in the original server's shape: `id, title, content, timestamp, tags, importance,
 * memory_type, metadata` (its `importance` is the stored value), followed by Zerda's extra fields.
 */
function originalMemory(v: MemoryView): Record<string, unknown> {
  const { importance, base_importance, id, title, content, timestamp, tags, memory_type, metadata, ...rest } = v;
  return {
    id,
    title,
    content,
    timestamp,
    tags,
    importance: base_importance,
    memory_type,
    metadata,
    ...rest,
    effective_importance: importance,
  };
}

const mb = (bytes: number) => round(bytes / 1024 / 1024, 2);

/**
 * A detailed result in the original server's shape, `{ success: true, data: [...] }`, with the
 * same fields in `data` as it has (extra fields after them), and a `warning` when there is one.
 */
export function toOriginalShape(tool: ToolName, p: ToolPayload): Record<string, unknown> {
  const data = originalData(tool, p);
  return { success: true, data, ...(typeof p.warning === 'string' ? { warning: p.warning } : {}) };
}

function originalData(tool: ToolName, p: ToolPayload): unknown[] {
  const memories = () => (p.results as MemoryView[]).map((m) => ({ ...originalMemory(m), match_type: 'structured' }));
  switch (tool) {
    case 'remember':
      return [originalMemory(p.memory as MemoryView)];
    case 'search_memories':
      return (p.results as SearchHitView[]).map((h) => {
        const { relevance_score, original_similarity, ...rest } = h;
        // The original's relevance_score is the cosine similarity (on its model's scale).
        return {
          ...originalMemory(rest),
          relevance_score: original_similarity ?? relevance_score,
          match_type: h.match_type,
          rank_score: relevance_score,
        };
      });
    case 'search_by_type':
    case 'search_by_tags':
    case 'get_recent_memories':
    case 'search_by_date_range':
      return memories();
    case 'update_memory':
      return [{ id: p.memory_id, updated: p.unchanged !== true, ...originalMemory(p.memory as MemoryView) }];
    case 'delete_memory':
      return [{ id: p.memory_id, title: p.title, deleted: true }];
    case 'get_memory_stats': {
      const storage = p.storage as {
        kind: string;
        bytes_on_disk: number;
        vector_bytes: number;
        location: string | null;
      };
      return [
        {
          total_memories: p.total_memories,
          memory_types: Object.keys(p.by_type as object).length,
          avg_importance: p.avg_importance,
          oldest_memory: p.oldest_memory,
          newest_memory: p.newest_memory,
          type_breakdown: p.by_type,
          storage_size_mb: mb(storage.bytes_on_disk),
          sqlite_size_mb: mb(storage.bytes_on_disk - storage.vector_bytes),
          chroma_size_mb: mb(storage.vector_bytes),
          storage,
          last_backup: p.last_backup,
          backups: p.backups,
          model: p.model,
          data_directory: p.data_directory,
          tenant: p.tenant,
        },
      ];
    }
    case 'create_backup': {
      const b = p.backup as Record<string, unknown>;
      return [
        {
          backup_name: b.name,
          backup_path: b.path,
          memories_backed_up: b.memories,
          timestamp: b.created_at,
          files_backed_up: b.files,
          backups_kept: p.backups_kept,
        },
      ];
    }
    case 'rebuild_vectors':
      return [{ reindexed: true, count: p.count, embedded: p.embedded }];
    case 'get_memory_history':
      return p.versions as unknown[];
  }
}
