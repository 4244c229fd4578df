import { access, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  invalid,
  MemoryManager,
  PiiMasker,
  ZerdaError,
  type Clock,
  type Embedder,
  type JsonValue,
  type MemoryEntry,
  type RecallHit,
  type RecallMode,
} from '@zerda/core';
import {
  baseToImportance,
  importanceToBase,
  optionalText,
  parseDateArg,
  parseLimit,
  parseMemoryType,
  parseTags,
  requireText,
  round,
} from './args.js';
import { BackupManager, type BackupInfo, type BackupReason } from './backups.js';
import { createServerClock } from './clock.js';
import type { ServerConfig } from './config.js';
import { mcpMemoryConfig, MemoryDynamics, type DynamicsOptions } from './dynamics.js';
import { createServerEmbedder } from './embedder-factory.js';
import { importLegacyDatabase, LEGACY_DB_FILE, writeImportMarker } from './legacy-import.js';
import { openStorage, type StorageHandle } from './storage-factory.js';

/** The user every memory of this single-user server belongs to. */
export const MCP_USER = 'mcp';

/** A memory as the tools return it. Importance is on the 1..10 scale. */
export interface MemoryView {
  id: string;
  title: string;
  content: string;
  memory_type: string;
  tags: string[];
  /** Effective importance now (after decay), 1 decimal. */
  importance: number;
  /** Stored (base) importance, 1 decimal. */
  base_importance: number;
  /** Creation time, ISO 8601 UTC. */
  timestamp: string;
  /** Last recall (the point decay runs from), ISO 8601 UTC. */
  last_accessed: string;
  access_count: number;
  version: number;
  /** Earlier versions kept in the memory's history (updates). */
  previous_versions: number;
  /** True when a protected tag (`core`, `identity`, `pinned`) stops decay. */
  protected: boolean;
}

/** A search hit: the memory plus how well it matched. */
export interface SearchHitView extends MemoryView {
  /** 0..1, higher is more relevant (a similarity, never a distance). */
  relevance_score: number;
  /** Cosine similarity of the embeddings, when the vector search found it. */
  similarity?: number;
  match_type: 'semantic' | 'vector' | 'keyword';
}

/** A tool's successful result (plain JSON). */
export type ToolPayload = { success: true } & Record<string, unknown>;

/** Options of {@link MemoryService.open}. Everything but `config` is for tests and embedding apps. */
export interface MemoryServiceOptions {
  config: ServerConfig;
  /** Default: {@link createServerClock} from the config's testing hooks. */
  clock?: Clock;
  /** Default: {@link createServerEmbedder}. */
  embedder?: Embedder;
  /** Default: {@link openStorage} under `<dataDir>/memory_db`. */
  storage?: StorageHandle;
  dynamics?: DynamicsOptions;
  /** Diagnostics sink (the CLI writes to stderr; stdout is the protocol). */
  log?: (message: string) => void;
}

const SEARCH_TYPES: Readonly<Record<string, { mode: RecallMode; match: SearchHitView['match_type'] }>> = Object.freeze({
  semantic: { mode: 'hybrid', match: 'semantic' },
  hybrid: { mode: 'hybrid', match: 'semantic' },
  vector: { mode: 'vector', match: 'vector' },
  keyword: { mode: 'lexical', match: 'keyword' },
  lexical: { mode: 'lexical', match: 'keyword' },
});

const HOUR_MS = 3_600_000;

/**
 * The ten memory tools as plain async methods over a {@link MemoryManager}: argument checking
 * (a rejected call throws `VALIDATION`/`NOT_FOUND` and changes nothing), the 1..10 importance
 * scale, lazy decay and stepped reinforcement ({@link MemoryDynamics}), and backups (manual,
 * every `backupIntervalHours` when something changed, and every `backupEvery` new memories).
 *
 * Calls run one at a time, in arrival order: a recall's reinforcement never races an update, and
 * 100 concurrent calls behave like 100 sequential ones.
 */
export class MemoryService {
  readonly config: ServerConfig;
  readonly manager: MemoryManager;
  readonly backups: BackupManager;
  readonly dynamics: MemoryDynamics;
  readonly #handle: StorageHandle;
  readonly #clock: Clock;
  readonly #log: (message: string) => void;
  /** The manager's masker when `maskPii` is on: duplicates are compared in their stored (masked) form. */
  readonly #masker: PiiMasker | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #lastBackup: BackupInfo | undefined;
  /** Where the backup interval runs from: the last backup, else the oldest memory. */
  #backupAnchor: number | undefined;
  #newSinceBackup = 0;
  #dirty = false;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  private constructor(
    config: ServerConfig,
    manager: MemoryManager,
    handle: StorageHandle,
    clock: Clock,
    log: (m: string) => void,
    masker: PiiMasker | undefined,
    dynamics?: DynamicsOptions,
  ) {
    this.config = config;
    this.#masker = masker;
    this.manager = manager;
    this.#handle = handle;
    this.#clock = clock;
    this.#log = log;
    this.dynamics = new MemoryDynamics(manager.config, dynamics);
    this.backups = new BackupManager({ dir: join(config.dataDir, 'memory_backups'), keep: config.backupKeep, clock });
  }

  /** Open storage, embedder and manager under `config.dataDir`, and take stock of backups. */
  static async open(options: MemoryServiceOptions): Promise<MemoryService> {
    const { config } = options;
    const clock = options.clock ?? createServerClock({ clockFile: config.clockFile, nowOffsetMs: config.nowOffsetMs });
    const log = options.log ?? (() => undefined);
    await mkdir(config.dataDir, { recursive: true });
    const handle = options.storage ?? (await openStorage({ dbDir: join(config.dataDir, 'memory_db'), clock, kind: config.storage, databaseUrl: config.databaseUrl }));
    let manager: MemoryManager;
    const masker = config.maskPii ? new PiiMasker() : undefined;
    try {
      const embedder = options.embedder ?? (await createServerEmbedder(config));
      manager = await MemoryManager.create({
        config: mcpMemoryConfig(),
        storage: handle.storage,
        embedder,
        clock,
        owner: { userId: MCP_USER, tenantId: config.tenantId },
        masker: masker ?? false,
      });
    } catch (err) {
      await handle.storage.close().catch(() => undefined);
      throw err;
    }
    const service = new MemoryService(config, manager, handle, clock, log, masker, options.dynamics);
    try {
      await importLegacy(config, handle, clock, log);
      // Embeds memories that have no vector for the current model (a model switch, or a crash
      // between a write and its indexing); also warms the vector index for the first search.
      const reindex = await manager.reindex(config.tenantId);
      if (reindex.embedded > 0) log(`indexed ${reindex.embedded} memories for ${manager.embedder?.modelId ?? 'lexical search'}`);
      await service.#initBackups();
    } catch (err) {
      await manager.close().catch(() => undefined);
      throw err;
    }
    return service;
  }

  /** Where memories are stored (`sqlite` on disk, `memory`, or a shared `postgres` database). */
  get storageKind(): 'sqlite' | 'memory' | 'postgres' {
    return this.#handle.kind;
  }

  // ------------------------------------------------------------------ tools

  /** `remember(title, content, tags?, importance? = 5, memory_type? = "conversation")`. */
  async remember(args: Record<string, unknown>): Promise<ToolPayload> {
    const title = requireText(args.title, 'title', 1000);
    const content = requireText(args.content, 'content');
    const tags = args.tags === undefined ? [] : parseTags(args.tags).map((t) => t.toLowerCase());
    const importance = args.importance === undefined ? 5 : args.importance;
    const base = importanceToBase(importance);
    const kind = args.memory_type === undefined ? 'conversation' : parseMemoryType(args.memory_type);
    return this.#run(async () => {
      const duplicate = await this.#findDuplicate(content);
      if (duplicate) {
        throw new ZerdaError(
          'CONFLICT',
          `Duplicate content: this is already stored as memory ${duplicate.id} ("${titleOf(duplicate)}"). Use update_memory to change it.`,
          { details: { id: duplicate.id } },
        );
      }
      const { entry } = await this.manager.remember(MCP_USER, this.config.tenantId, {
        title,
        text: content,
        kind,
        importance: base,
        tags: [...new Set(tags)],
      });
      const warning = await this.#flushIndexing();
      this.#dirty = true;
      this.#newSinceBackup++;
      this.#backupAnchor ??= entry.createdAt;
      const now = this.#clock();
      return {
        success: true,
        memory_id: entry.id,
        message: `Stored memory "${title}" (type ${kind}, importance ${baseToImportance(base)}).`,
        memory: this.#view(entry, now),
        ...(warning ? { warning } : {}),
      };
    });
  }

  /** `search_memories(query, search_type? = "semantic", limit? = 10)`: recall with relevance scores; recalled memories are reinforced. */
  async searchMemories(args: Record<string, unknown>): Promise<ToolPayload> {
    const query = requireText(args.query, 'query', 10_000);
    const typeName = args.search_type === undefined ? 'semantic' : requireText(args.search_type, 'search_type', 20).toLowerCase();
    const searchType = SEARCH_TYPES[typeName];
    if (!searchType) invalid('search_type', `one of ${Object.keys(SEARCH_TYPES).join(', ')}`, args.search_type);
    const limit = parseLimit(args.limit, 10, 100);
    return this.#run(async () => {
      const hits = await this.manager.recall(MCP_USER, this.config.tenantId, query, {
        topK: limit,
        mode: searchType.mode,
        reinforce: false,
      });
      const now = this.#clock();
      const entries = await this.#applyDynamics(
        hits.map((h) => h.entry),
        now,
        true,
      );
      const results = hits.map((h, i) => this.#hitView(h, entries[i]!, now, searchType.match));
      return { success: true, query, search_type: typeName, count: results.length, results };
    });
  }

  /** `search_by_type(memory_type, limit? = 20)`: newest first. */
  async searchByType(args: Record<string, unknown>): Promise<ToolPayload> {
    const kind = parseMemoryType(args.memory_type);
    const limit = parseLimit(args.limit, 20);
    return this.#list({ kinds: [kind], limit }, { memory_type: kind });
  }

  /** `search_by_tags(tags, limit? = 20)`: memories carrying any of the tags, newest first. */
  async searchByTags(args: Record<string, unknown>): Promise<ToolPayload> {
    const tags = parseTags(args.tags).map((t) => t.toLowerCase());
    if (!tags.length) invalid('tags', 'at least one tag, comma-separated (e.g. "work,ideas")', args.tags);
    const limit = parseLimit(args.limit, 20);
    return this.#list({ tags, tagMode: 'any', limit }, { tags });
  }

  /** `get_recent_memories(limit? = 20)`: newest first. */
  async getRecentMemories(args: Record<string, unknown>): Promise<ToolPayload> {
    const limit = parseLimit(args.limit, 20);
    return this.#list({ limit }, {});
  }

  /** `search_by_date_range(date_from, date_to? = now, limit? = 50)`: created in the range (inclusive), newest first. */
  async searchByDateRange(args: Record<string, unknown>): Promise<ToolPayload> {
    const from = parseDateArg(args.date_from, 'date_from');
    const to = args.date_to === undefined ? undefined : parseDateArg(args.date_to, 'date_to', true);
    const limit = parseLimit(args.limit, 50);
    return this.#run(async () => {
      const until = to ?? this.#clock();
      if (from > until) {
        const bound = to === undefined ? `now (${new Date(until).toISOString()}; date_to defaults to now)` : `date_to (${new Date(until).toISOString()})`;
        invalid('date_from', `a time not after ${bound}`, args.date_from);
      }
      return this.#listNow({ createdFrom: from, createdTo: until, limit }, {
        date_from: new Date(from).toISOString(),
        date_to: new Date(until).toISOString(),
      });
    });
  }

  /**
   * `update_memory(memory_id, title?, content?, tags?, importance?, memory_type?)`: the previous
   * version is kept in the memory's history. `tags: ""` (or blank) means "no change", as in the
   * original tool; `tags: ","` (no tag names) clears them.
   */
  async updateMemory(args: Record<string, unknown>): Promise<ToolPayload> {
    const id = requireText(args.memory_id, 'memory_id', 256);
    const title = optionalText(args.title, 'title', 1000);
    const content = optionalText(args.content, 'content');
    const blankTags = args.tags === undefined || (typeof args.tags === 'string' && !args.tags.trim());
    const tags = blankTags ? undefined : [...new Set(parseTags(args.tags).map((t) => t.toLowerCase()))];
    const base = args.importance === undefined ? undefined : importanceToBase(args.importance);
    const kind = args.memory_type === undefined ? undefined : parseMemoryType(args.memory_type);
    if (title === undefined && content === undefined && tags === undefined && base === undefined && kind === undefined) {
      invalid('update_memory', 'at least one of title, content, tags, importance, memory_type', 'none');
    }
    return this.#run(async () => {
      const current = await this.#require(id);
      const now = this.#clock();
      const history = current.metadata.history;
      // An update that changes nothing would still add a history version identical to the memory.
      const unchanged =
        (title === undefined || this.#storedForm(title) === titleOf(current)) &&
        (content === undefined || this.#storedForm(content) === contentOf(current)) &&
        (tags === undefined || (tags.length === current.tags.length && tags.every((t, i) => t === current.tags[i]))) &&
        (base === undefined || base === current.importance) &&
        (kind === undefined || kind === current.kind);
      if (unchanged) {
        return {
          success: true,
          memory_id: id,
          message: `Memory ${id} already has these values; nothing was changed.`,
          memory: this.#view(current, now),
          previous_versions: Array.isArray(history) ? history.length : 0,
          unchanged: true,
        };
      }
      // Materialise decay so an update never resurrects a faded memory by re-anchoring it.
      const importance = base ?? round(this.dynamics.effective(current, now) / 10, 4);
      const updated = await this.manager.updateMemory(MCP_USER, this.config.tenantId, id, {
        ...(title !== undefined ? { title } : {}),
        ...(content !== undefined ? { text: content } : {}),
        ...(tags !== undefined ? { tags } : {}),
        ...(kind !== undefined ? { kind } : {}),
        importance,
      });
      const anchored: MemoryEntry = { ...updated, lastAccess: Math.max(updated.lastAccess, now) };
      await this.manager.storage.put(anchored);
      const warning = await this.#flushIndexing();
      this.dynamics.forget(id);
      this.#dirty = true;
      const versions = anchored.metadata.history;
      return {
        success: true,
        memory_id: id,
        message: `Updated memory ${id}; the previous version is kept in its history.`,
        memory: this.#view(anchored, now),
        previous_versions: Array.isArray(versions) ? versions.length : 0,
        ...(warning ? { warning } : {}),
      };
    });
  }

  /**
   * `get_memory_history(memory_id)`: every version of a memory, oldest first, ending with the
   * current one. `update_memory` keeps the replaced version in the memory's history; this is the
   * way to read it back (not a tool of the original server, which kept no history).
   */
  async getMemoryHistory(args: Record<string, unknown>): Promise<ToolPayload> {
    const id = requireText(args.memory_id, 'memory_id', 256);
    return this.#run(async () => {
      const current = await this.#require(id);
      const history = Array.isArray(current.metadata.history) ? current.metadata.history : [];
      const versions = history.map((h) => historyView(h));
      versions.push({
        version: current.version,
        title: titleOf(current),
        content: contentOf(current),
        memory_type: current.kind,
        tags: current.tags,
        importance: baseToImportance(current.importance),
        replaced_at: null,
        current: true,
      });
      return { success: true, memory_id: id, count: versions.length, versions };
    });
  }

  /**
   * `rebuild_vectors()`: re-embed every memory with the current model and rebuild the vector
   * index (the original server's repair tool; use it when search by meaning misbehaves).
   */
  async rebuildVectors(): Promise<ToolPayload> {
    return this.#run(async () => {
      const report = await this.manager.reindex(this.config.tenantId, { force: true });
      return { success: true, reindexed: true, count: report.total, embedded: report.embedded, removed: report.removed };
    });
  }

  /** `delete_memory(memory_id)`. */
  async deleteMemory(args: Record<string, unknown>): Promise<ToolPayload> {
    const id = requireText(args.memory_id, 'memory_id', 256);
    return this.#run(async () => {
      const current = await this.#require(id);
      await this.manager.deleteMemory(MCP_USER, this.config.tenantId, id);
      this.dynamics.forget(id);
      this.#dirty = true;
      return { success: true, memory_id: id, message: `Deleted memory ${id} ("${titleOf(current)}").` };
    });
  }

  /** `get_memory_stats()`: counts by type, storage size, last backup, model, data directory. */
  async getMemoryStats(): Promise<ToolPayload> {
    return this.#run(async () => {
      const stats = await this.manager.stats(this.config.tenantId);
      const backups = await this.backups.list();
      const last = backups.at(-1);
      const embedder = this.manager.embedder;
      return {
        success: true,
        total_memories: stats.storage.entries,
        by_type: stats.storage.byKind,
        storage: {
          kind: this.#handle.kind,
          bytes_on_disk: await this.#handle.sizeOnDisk(),
          location: this.#handle.location ?? null,
        },
        last_backup: last ? backupView(last) : null,
        backups: backups.length,
        model: embedder ? { id: embedder.modelId, dim: embedder.dim } : null,
        data_directory: this.config.dataDir,
        tenant: this.config.tenantId,
        pending_reinforcements: this.dynamics.pendingCount,
        now: new Date(this.#clock()).toISOString(),
      };
    });
  }

  /** `create_backup()`: SQLite copy + JSON export in a timestamped folder under `memory_backups/`. */
  async createBackup(): Promise<ToolPayload> {
    return this.#run(async () => {
      const info = await this.#backup('manual');
      const kept = await this.backups.list();
      return {
        success: true,
        message: `Backup written to ${info.path}`,
        backup: backupView(info),
        backups_kept: kept.length,
      };
    });
  }

  /** Flush pending work, stop the backup timer and close the manager (and storage). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
    await this.#queue.catch(() => undefined);
    await this.manager.close();
  }

  // ------------------------------------------------------------------ internals

  #run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#closed) return Promise.reject(new ZerdaError('CLOSED', 'The memory server is shutting down'));
    const run = this.#queue.then(async () => {
      const result = await fn();
      await this.#maybeAutoBackup();
      return result;
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #require(id: string): Promise<MemoryEntry> {
    const entry = await this.manager.getMemory(MCP_USER, this.config.tenantId, id);
    if (!entry) {
      throw new ZerdaError('NOT_FOUND', `No memory with id "${id}". Use search_memories or get_recent_memories to find ids.`, {
        details: { id },
      });
    }
    return entry;
  }

  /** A text as the manager stores it (masked when `maskPii` is on). */
  #storedForm(text: string): string {
    return this.#masker ? this.#masker.mask(text).text : text;
  }

  async #findDuplicate(content: string): Promise<MemoryEntry | undefined> {
    const stored = this.#storedForm(content).trim();
    const candidates = await this.manager.listMemories(MCP_USER, this.config.tenantId, { text: stored, limit: 1000 });
    return candidates.find((e) => 'text' in e.content && e.content.text.trim() === stored);
  }

  #list(query: ListQuery, echo: Record<string, JsonValue>): Promise<ToolPayload> {
    return this.#run(() => this.#listNow(query, echo));
  }

  async #listNow(query: ListQuery, echo: Record<string, JsonValue>): Promise<ToolPayload> {
    const found = await this.manager.listMemories(MCP_USER, this.config.tenantId, { ...query, orderBy: 'createdAt', order: 'desc' });
    const now = this.#clock();
    const entries = await this.#applyDynamics(found, now, false);
    const results = entries.map((e) => this.#view(e, now));
    return { success: true, ...echo, count: results.length, results };
  }

  /** Lazy decay write-back for every accessed entry, plus reinforcement when recalled. Returns the entries as stored now. */
  async #applyDynamics(entries: MemoryEntry[], now: number, recalled: boolean): Promise<MemoryEntry[]> {
    const byId = new Map(entries.map((e) => [e.id, e]));
    const decayed = this.dynamics.decayWritebacks(entries, now);
    for (const e of decayed) byId.set(e.id, e);
    const reinforced = recalled ? this.dynamics.reinforce([...byId.values()], now) : [];
    for (const e of reinforced) byId.set(e.id, e);
    const writes = new Map([...decayed, ...reinforced].map((e) => [e.id, byId.get(e.id)!]));
    if (writes.size) {
      await this.manager.storage.putMany([...writes.values()]);
      this.#dirty = true;
    }
    return entries.map((e) => byId.get(e.id)!);
  }

  #view(entry: MemoryEntry, now: number): MemoryView {
    const title = titleOf(entry);
    const content = contentOf(entry);
    const history = entry.metadata.history;
    return {
      id: entry.id,
      title,
      content,
      memory_type: entry.kind,
      tags: entry.tags,
      importance: round(this.dynamics.effective(entry, now), 1),
      base_importance: baseToImportance(entry.importance),
      timestamp: new Date(entry.createdAt).toISOString(),
      last_accessed: new Date(entry.lastAccess).toISOString(),
      access_count: entry.accessCount,
      version: entry.version,
      previous_versions: Array.isArray(history) ? history.length : 0,
      protected: this.dynamics.isProtected(entry),
    };
  }

  #hitView(hit: RecallHit, entry: MemoryEntry, now: number, match: SearchHitView['match_type']): SearchHitView {
    return {
      ...this.#view(entry, now),
      relevance_score: round(Math.max(0, Math.min(1, hit.score)), 4),
      ...(hit.vectorScore !== undefined ? { similarity: round(hit.vectorScore, 4) } : {}),
      match_type: match,
    };
  }

  /**
   * Wait for vector indexing. The memory itself is already stored, so an embedding failure is
   * reported as a warning, not as a failed call; the next start indexes what is missing.
   */
  async #flushIndexing(): Promise<string | undefined> {
    try {
      await this.manager.flush();
      return undefined;
    } catch (err) {
      this.#log(`indexing failed: ${describeError(err)}`);
      return `Stored, but indexing for search by meaning failed (${describeError(err)}); it is retried when the server restarts.`;
    }
  }

  async #backup(reason: BackupReason): Promise<BackupInfo> {
    await this.#flushIndexing();
    const stats = await this.manager.storage.count({ tenantId: this.config.tenantId });
    const info = await this.backups.create(this.#handle.backupSource(this.config.tenantId), reason, stats);
    this.#lastBackup = info;
    this.#backupAnchor = info.createdAt;
    this.#newSinceBackup = 0;
    this.#dirty = false;
    return info;
  }

  async #initBackups(): Promise<void> {
    this.#lastBackup = await this.backups.latest();
    const tenantId = this.config.tenantId;
    const total = await this.manager.storage.count({ tenantId });
    if (this.#lastBackup) {
      this.#newSinceBackup = await this.manager.storage.count({ tenantId, createdFrom: this.#lastBackup.createdAt + 1 });
      const fp = await this.#handle.backupSource(tenantId).fingerprint();
      this.#dirty = fp !== this.#lastBackup.fingerprint;
      this.#backupAnchor = this.#lastBackup.createdAt;
    } else {
      this.#newSinceBackup = total;
      this.#dirty = total > 0;
      const [oldest] = await this.manager.storage.query({ tenantId, orderBy: 'createdAt', order: 'asc', limit: 1 });
      this.#backupAnchor = oldest?.createdAt;
    }
    await this.#maybeAutoBackup();
    if (this.config.backupIntervalHours > 0) {
      const every = Math.min(this.config.backupIntervalHours * HOUR_MS, HOUR_MS);
      this.#timer = setInterval(() => {
        this.#run(async () => undefined).catch((err: unknown) => this.#log(`scheduled backup check failed: ${describeError(err)}`));
      }, every);
      this.#timer.unref();
    }
  }

  async #maybeAutoBackup(): Promise<void> {
    const reason = this.#dueBackup();
    if (!reason) return;
    try {
      const info = await this.#backup(reason);
      this.#log(`automatic backup (${reason}): ${info.path}`);
    } catch (err) {
      // A failed automatic backup must not fail the tool call that triggered it; retry next time.
      this.#log(`automatic backup failed: ${describeError(err)}`);
    }
  }

  #dueBackup(): BackupReason | undefined {
    const { backupEvery, backupIntervalHours } = this.config;
    if (backupEvery > 0 && this.#newSinceBackup >= backupEvery) return 'count';
    if (!this.#dirty || this.#backupAnchor === undefined || backupIntervalHours <= 0) return undefined;
    return this.#clock() - this.#backupAnchor >= backupIntervalHours * HOUR_MS ? 'interval' : undefined;
  }
}

type ListQuery = {
  kinds?: string[];
  tags?: string[];
  tagMode?: 'any' | 'all';
  createdFrom?: number;
  createdTo?: number;
  limit: number;
};

/**
 * First start on a data directory of the Python "long-term memory MCP" (`AI_COMPANION_DATA_DIR`):
 * import its `memory_db/memories.db` once, when this tenant is still empty.
 */
async function importLegacy(config: ServerConfig, handle: StorageHandle, clock: Clock, log: (m: string) => void): Promise<void> {
  const source = join(config.dataDir, 'memory_db', LEGACY_DB_FILE);
  const marker = join(config.dataDir, 'legacy-import.json');
  if (!(await exists(source)) || (await exists(marker))) return;
  if ((await handle.storage.count({ tenantId: config.tenantId })) > 0) return;
  const report = await importLegacyDatabase(handle.storage, config.tenantId, source);
  await writeImportMarker(marker, source, report, clock());
  log(`imported ${report.imported} memories from ${source}${report.skipped ? ` (${report.skipped} unreadable rows skipped)` : ''}`);
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

function titleOf(entry: MemoryEntry): string {
  const c = entry.content;
  return 'title' in c ? c.title : c.input.slice(0, 80);
}

function contentOf(entry: MemoryEntry): string {
  const c = entry.content;
  return 'text' in c ? c.text : c.output;
}

/** One entry of `metadata.history` (written by `MemoryManager.updateMemory`) on the tool scale. */
function historyView(raw: JsonValue): Record<string, JsonValue> {
  const h = (raw && typeof raw === 'object' && !Array.isArray(raw) ? raw : {}) as Record<string, JsonValue>;
  const c = (h.content && typeof h.content === 'object' && !Array.isArray(h.content) ? h.content : {}) as Record<string, JsonValue>;
  return {
    version: typeof h.version === 'number' ? h.version : null,
    title: typeof c.title === 'string' ? c.title : typeof c.input === 'string' ? c.input.slice(0, 80) : '',
    content: typeof c.text === 'string' ? c.text : typeof c.output === 'string' ? c.output : '',
    memory_type: typeof h.kind === 'string' ? h.kind : null,
    tags: Array.isArray(h.tags) ? h.tags : [],
    importance: typeof h.importance === 'number' ? baseToImportance(h.importance) : null,
    replaced_at: typeof h.replacedAt === 'number' ? new Date(h.replacedAt).toISOString() : null,
    current: false,
  };
}

function backupView(info: BackupInfo): Record<string, JsonValue> {
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

/** One line describing any error (for logs and tool error results). */
export function describeError(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
