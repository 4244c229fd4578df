import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  MemoryManager,
  PiiMasker,
  ZerdaError,
  type Clock,
  type Embedder,
  type JsonValue,
  type MemoryEntry,
  type MemoryFilter,
  type RecallHit,
  type RecallMode,
} from '@zerda/core';
import { AutoBackups } from './backup-scheduler.js';
import { BackupManager } from './backups.js';
import { createServerClock } from './clock.js';
import type { ServerConfig } from './config.js';
import { baseToImportance, importanceToBase, mcpMemoryConfig, round } from './dynamics.js';
import { createServerEmbedder } from './embedder-factory.js';
import { importLegacyOnce } from './legacy-import.js';
import { parseToolArgs, SEARCH_TYPES, type SearchType, type ToolArgs, type ToolName } from './schemas.js';
import { openStorage, type StorageHandle } from './storage-factory.js';
import { originalSearchCut, scaleFor, toOriginalSimilarity, type SimilarityScale } from './threshold.js';
import {
  backupView,
  contentOf,
  historyView,
  memoryView,
  titleOf,
  type MemoryView,
  type SearchHitView,
  type ToolPayload,
} from './views.js';

/**
 * Candidates ranked by similarity for a search by meaning: the original cut its top `limit` by
 * similarity, and a fused ranking's top `limit` need not hold them.
 */
const SEARCH_POOL = 50;

/** The user every memory of this single-user server belongs to. */
export const MCP_USER = 'mcp';

/** Options of {@link MemoryService.open}. Everything but `config` is for tests and embedding apps. */
export interface MemoryServiceOptions {
  config: ServerConfig;
  /** Default: {@link createServerClock} from the config's testing hooks. */
  clock?: Clock;
  /** Default: {@link createServerEmbedder}. */
  embedder?: Embedder;
  /** Default: {@link openStorage} under `<dataDir>/memory_db`. */
  storage?: StorageHandle;
  /** Diagnostics sink (the CLI writes to stderr; stdout is the protocol). */
  log?: (message: string) => void;
}

type ListQuery = Omit<MemoryFilter, 'tenantId'> & { limit: number };

/**
 * The memory tools as plain async methods over a {@link MemoryManager}, used through its public
 * methods only. Arguments arrive validated by the tools' schemas ({@link parseToolArgs}; the MCP
 * SDK applies them before a tool runs, {@link MemoryService.call} for direct callers). Importance
 * is on the 1..10 scale; decay and reinforcement are the manager's, configured as the original
 * server's ({@link mcpMemoryConfig}): every tool that returns memories reinforces them.
 *
 * Calls run one at a time, in arrival order: 100 concurrent calls behave like 100 sequential ones.
 */
export class MemoryService {
  readonly config: ServerConfig;
  readonly manager: MemoryManager;
  readonly backups: BackupManager;
  readonly #handle: StorageHandle;
  readonly #clock: Clock;
  readonly #log: (message: string) => void;
  /** The manager's masker when `maskPii` is on: duplicates are compared in their stored (masked) form. */
  readonly #masker: PiiMasker | undefined;
  readonly #auto: AutoBackups;
  readonly #scale: SimilarityScale;
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;

  private constructor(
    config: ServerConfig,
    manager: MemoryManager,
    handle: StorageHandle,
    clock: Clock,
    log: (m: string) => void,
    masker: PiiMasker | undefined,
  ) {
    this.config = config;
    this.manager = manager;
    this.#handle = handle;
    this.#clock = clock;
    this.#log = log;
    this.#masker = masker;
    this.#scale = scaleFor(manager.embedder?.modelId);
    this.backups = new BackupManager({ dir: join(config.dataDir, 'memory_backups'), keep: config.backupKeep, clock });
    const tenantId = config.tenantId;
    this.#auto = new AutoBackups({
      backups: this.backups,
      source: () => handle.backupSource(tenantId),
      count: (createdFrom) =>
        manager.countMemories(MCP_USER, tenantId, createdFrom === undefined ? {} : { createdFrom }),
      oldest: async () =>
        (await manager.listMemories(MCP_USER, tenantId, { orderBy: 'createdAt', order: 'asc', limit: 1 }))[0]
          ?.createdAt,
      settle: async () => void (await this.#flushIndexing()),
      everyNewEntries: config.backupEvery,
      intervalHours: config.backupIntervalHours,
      clock,
      log,
    });
  }

  /** Open storage, embedder and manager under `config.dataDir`, and take stock of backups. */
  static async open(options: MemoryServiceOptions): Promise<MemoryService> {
    const { config } = options;
    const clock = options.clock ?? createServerClock({ clockFile: config.clockFile, nowOffsetMs: config.nowOffsetMs });
    const log = options.log ?? (() => undefined);
    await mkdir(config.dataDir, { recursive: true });
    const handle =
      options.storage ??
      (await openStorage({
        dbDir: join(config.dataDir, 'memory_db'),
        clock,
        kind: config.storage,
        databaseUrl: config.databaseUrl,
        databaseOwnerUrl: config.databaseOwnerUrl,
      }));
    let manager: MemoryManager;
    const masker = config.maskPii ? new PiiMasker() : undefined;
    try {
      await importLegacyOnce(handle.storage, config.tenantId, config.dataDir, clock, log);
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
    const service = new MemoryService(config, manager, handle, clock, log, masker);
    try {
      // Embeds memories that have no vector for the current model (a model switch, an import, or
      // a crash between a write and its indexing); also warms the vector index for the first search.
      const reindex = await manager.reindex(config.tenantId);
      if (reindex.embedded > 0)
        log(`indexed ${reindex.embedded} memories for ${manager.embedder?.modelId ?? 'lexical search'}`);
      await service.#auto.start(() => service.#run(async () => undefined));
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

  /** The embedding model's id, or `null` without one. */
  get modelId(): string | null {
    return this.manager.embedder?.modelId ?? null;
  }

  /**
   * Run a tool by name with raw arguments, checked by the same schemas the MCP SDK applies
   * (`VALIDATION` otherwise). Resolves to the tool's detailed result.
   */
  async call(tool: ToolName, rawArgs: unknown = {}): Promise<ToolPayload> {
    return this.callParsed(tool, parseToolArgs(tool, rawArgs));
  }

  /** Run a tool by name with arguments already checked by its schema (the MCP SDK did). */
  async callParsed<T extends ToolName>(tool: T, args: ToolArgs<T>): Promise<ToolPayload> {
    const run = this.#tools[tool] as ((a: ToolArgs<T>) => Promise<ToolPayload>) | undefined;
    if (!run) throw new ZerdaError('VALIDATION', `Unknown tool "${String(tool)}"`);
    return run(args);
  }

  /** The tools by name, each taking its validated arguments. */
  readonly #tools: { [T in ToolName]: (args: ToolArgs<T>) => Promise<ToolPayload> } = {
    remember: (a) => this.remember(a),
    search_memories: (a) => this.searchMemories(a),
    search_by_type: (a) => this.searchByType(a),
    search_by_tags: (a) => this.searchByTags(a),
    get_recent_memories: (a) => this.getRecentMemories(a),
    update_memory: (a) => this.updateMemory(a),
    delete_memory: (a) => this.deleteMemory(a),
    get_memory_stats: () => this.getMemoryStats(),
    create_backup: () => this.createBackup(),
    search_by_date_range: (a) => this.searchByDateRange(a),
    rebuild_vectors: () => this.rebuildVectors(),
    get_memory_history: (a) => this.getMemoryHistory(a),
  };

  // ------------------------------------------------------------------ tools

  /** `remember(title, content, tags? = "", importance? = 5, memory_type? = "conversation")`. */
  async remember(args: ToolArgs<'remember'>): Promise<ToolPayload> {
    const kind = args.memory_type ?? 'conversation';
    const base = importanceToBase(args.importance ?? 5);
    return this.#run(async () => {
      const duplicate = await this.#findDuplicate(args.content);
      if (duplicate) {
        throw new ZerdaError(
          'CONFLICT',
          `Duplicate content detected: this is already stored as memory ${duplicate.id} ("${titleOf(duplicate)}"). Use update_memory to change it.`,
          { details: { id: duplicate.id } },
        );
      }
      const { entry } = await this.manager.remember(MCP_USER, this.config.tenantId, {
        id: newMemoryId(),
        title: args.title,
        text: args.content,
        kind,
        importance: base,
        tags: args.tags ?? [],
      });
      const warning = await this.#flushIndexing();
      this.#auto.noteChange(1);
      return {
        success: true,
        memory_id: entry.id,
        message: `Stored memory "${args.title}" (type ${kind}, importance ${baseToImportance(base)}).`,
        memory: this.#view(entry),
        ...(warning ? { warning } : {}),
      };
    });
  }

  /**
   * `search_memories(query, search_type? = "semantic", limit? = 10)`: the candidates of a hybrid
   * (or vector, or keyword) recall, ranked and cut by the original's rule on its similarity scale
   * ({@link originalSearchCut}; `keyword`: every BM25 match, best first). Core's relevance gate is
   * off for this (`minScore: 0, ratio: 0`): the original's documented threshold is the one rule.
   * The memories returned are reinforced.
   */
  async searchMemories(args: ToolArgs<'search_memories'>): Promise<ToolPayload> {
    const typeName: SearchType = args.search_type ?? 'semantic';
    const { mode, match } = SEARCH_TYPES[typeName];
    const limit = args.limit ?? 10;
    return this.#run(async () => {
      const recall = (query: string, options: { topK: number; mode: RecallMode; filter?: { ids: string[] } }) =>
        this.manager.recall(MCP_USER, this.config.tenantId, query, {
          ...options,
          minScore: 0,
          ratio: 0,
          reinforce: false,
        });
      let chosen: { hit: RecallHit; fallback: boolean; similarity?: number | undefined }[];
      if (mode === 'lexical') {
        chosen = (await recall(args.query, { topK: limit, mode })).map((hit) => ({ hit, fallback: false }));
      } else {
        // The original cut its top `limit` by similarity; fused order is not similarity order, so
        // rank a wider pool.
        const hits = await recall(args.query, { topK: Math.max(SEARCH_POOL, limit), mode });
        const similarity = await this.#similarities(args.query, hits, recall);
        const cut = originalSearchCut(
          hits.map((h) => {
            const cosine = similarity.get(h.entry.id);
            return {
              similarity: cosine === undefined ? undefined : toOriginalSimilarity(cosine, this.#scale),
              keyword: h.lexicalScore !== undefined,
            };
          }),
          { keepKeyword: mode === 'hybrid', limit },
        );
        chosen = cut.map(({ index, fallback }) => ({
          hit: hits[index]!,
          fallback,
          similarity: similarity.get(hits[index]!.entry.id),
        }));
      }
      const stored = await this.#reinforce(chosen.map((c) => c.hit.entry));
      const results = chosen.map(({ hit, fallback, similarity }, i) =>
        this.#hitView(hit, stored[i]!, fallback ? 'semantic_fallback' : match, similarity),
      );
      return { success: true, query: args.query, search_type: typeName, count: results.length, results };
    });
  }

  /** `search_by_type(memory_type, limit? = 20)`: newest first. */
  async searchByType(args: ToolArgs<'search_by_type'>): Promise<ToolPayload> {
    return this.#list({ kinds: [args.memory_type], limit: args.limit ?? 20 }, { memory_type: args.memory_type });
  }

  /** `search_by_tags(tags, limit? = 20)`: memories carrying any of the tags, newest first. */
  async searchByTags(args: ToolArgs<'search_by_tags'>): Promise<ToolPayload> {
    return this.#list({ tags: args.tags, tagMode: 'any', limit: args.limit ?? 20 }, { tags: args.tags });
  }

  /** `get_recent_memories(limit? = 20)`: newest first. */
  async getRecentMemories(args: ToolArgs<'get_recent_memories'>): Promise<ToolPayload> {
    return this.#list({ limit: args.limit ?? 20 }, {});
  }

  /** `search_by_date_range(date_from, date_to? = now, limit? = 50)`: created in the range (inclusive), newest first. */
  async searchByDateRange(args: ToolArgs<'search_by_date_range'>): Promise<ToolPayload> {
    const from = args.date_from;
    const limit = args.limit ?? 50;
    return this.#run(async () => {
      const until = args.date_to ?? this.#clock();
      if (from > until) {
        const bound =
          args.date_to === undefined
            ? `now (${new Date(until).toISOString()}; date_to defaults to now)`
            : `date_to (${new Date(until).toISOString()})`;
        throw new ZerdaError(
          'VALIDATION',
          `date_from: expected a time not after ${bound}, received ${new Date(from).toISOString()}`,
        );
      }
      return this.#listNow(
        { createdFrom: from, createdTo: until, limit },
        {
          date_from: new Date(from).toISOString(),
          date_to: new Date(until).toISOString(),
        },
      );
    });
  }

  /**
   * `update_memory(memory_id, title?, content?, tags?, importance?, memory_type?)`: the previous
   * version is kept in the memory's history. The update counts as an access, as in the original
   * (decay so far is kept in the importance, and runs from now).
   */
  async updateMemory(args: ToolArgs<'update_memory'>): Promise<ToolPayload> {
    const { memory_id: id, title, content, tags, memory_type: kind } = args;
    const base = args.importance === undefined ? undefined : importanceToBase(args.importance);
    if (
      title === undefined &&
      content === undefined &&
      tags === undefined &&
      base === undefined &&
      kind === undefined
    ) {
      throw new ZerdaError(
        'VALIDATION',
        'update_memory: expected at least one of title, content, tags, importance, memory_type',
      );
    }
    return this.#run(async () => {
      const current = await this.#require(id);
      const history = current.metadata.history;
      // An update that changes nothing would still add a history version identical to the memory.
      const unchanged =
        (title === undefined || this.#storedForm(title) === titleOf(current)) &&
        (content === undefined || this.#storedForm(content) === contentOf(current)) &&
        (tags === undefined || sameTags(tags, current.tags)) &&
        (base === undefined || base === current.importance) &&
        (kind === undefined || kind === current.kind);
      if (unchanged) {
        return {
          success: true,
          memory_id: id,
          message: `Memory ${id} already has these values; nothing was changed.`,
          memory: this.#view(current),
          previous_versions: Array.isArray(history) ? history.length : 0,
          unchanged: true,
        };
      }
      const updated = await this.manager.updateMemory(MCP_USER, this.config.tenantId, id, {
        ...(title !== undefined ? { title } : {}),
        ...(content !== undefined ? { text: content } : {}),
        ...(tags !== undefined && !sameTags(tags, current.tags) ? { tags } : {}),
        ...(kind !== undefined ? { kind } : {}),
        ...(base !== undefined ? { importance: base } : {}),
        touch: true,
      });
      const warning = await this.#flushIndexing();
      this.#auto.noteChange();
      const versions = updated.metadata.history;
      return {
        success: true,
        memory_id: id,
        message: `Updated memory ${id}; the previous version is kept in its history.`,
        memory: this.#view(updated),
        previous_versions: Array.isArray(versions) ? versions.length : 0,
        ...(warning ? { warning } : {}),
      };
    });
  }

  /** `delete_memory(memory_id)`. */
  async deleteMemory(args: ToolArgs<'delete_memory'>): Promise<ToolPayload> {
    const id = args.memory_id;
    return this.#run(async () => {
      const current = await this.#require(id);
      await this.manager.deleteMemory(MCP_USER, this.config.tenantId, id);
      this.#auto.noteChange();
      return {
        success: true,
        memory_id: id,
        title: titleOf(current),
        message: `Deleted memory ${id} ("${titleOf(current)}").`,
      };
    });
  }

  /**
   * `get_memory_history(memory_id)`: every version of a memory, oldest first, ending with the
   * current one. `update_memory` keeps the replaced version in the memory's history; this is the
   * way to read it back.
   */
  async getMemoryHistory(args: ToolArgs<'get_memory_history'>): Promise<ToolPayload> {
    const id = args.memory_id;
    return this.#run(async () => {
      const current = await this.#require(id);
      const history = Array.isArray(current.metadata.history) ? current.metadata.history : [];
      const versions = history.map((h, i) => historyView(h, i));
      versions.push({
        version: history.length + 1,
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

  /** `get_memory_stats()`: the original's figures (counts by type, average importance, oldest/newest, sizes), plus backups, model and data directory. */
  async getMemoryStats(): Promise<ToolPayload> {
    return this.#run(async () => {
      const tenantId = this.config.tenantId;
      const stats = await this.manager.stats(tenantId);
      const all = await this.manager.listMemories(MCP_USER, tenantId, { orderBy: 'createdAt', order: 'asc' });
      const backups = await this.backups.list();
      const last = backups.at(-1);
      const bytes = await this.#handle.sizeOnDisk();
      const avg = all.length ? all.reduce((sum, e) => sum + e.importance, 0) / all.length : 0;
      return {
        success: true,
        total_memories: all.length,
        by_type: stats.storage.byKind,
        avg_importance: round(avg * 10, 2),
        oldest_memory: all.length ? new Date(all[0]!.createdAt).toISOString() : null,
        newest_memory: all.length ? new Date(all.at(-1)!.createdAt).toISOString() : null,
        storage: {
          kind: this.#handle.kind,
          bytes_on_disk: bytes,
          vector_bytes: (await this.#handle.vectorBytes?.()) ?? 0,
          location: this.#handle.location ?? null,
        },
        last_backup: last ? backupView(last) : null,
        backups: backups.length,
        model: stats.embedder ? { id: stats.embedder.modelId, dim: stats.embedder.dim } : null,
        data_directory: this.config.dataDir,
        tenant: tenantId,
        now: new Date(this.#clock()).toISOString(),
      };
    });
  }

  /** `create_backup()`: SQLite copy + JSON export in a timestamped folder under `memory_backups/`. */
  async createBackup(): Promise<ToolPayload> {
    return this.#run(async () => {
      const info = await this.#auto.backupNow('manual');
      const kept = await this.backups.list();
      return {
        success: true,
        message: `Backup written to ${info.path}`,
        backup: backupView(info),
        backups_kept: kept.length,
      };
    });
  }

  /**
   * `rebuild_vectors()`: re-embed every memory with the current model and rebuild the vector
   * index (the original server's repair tool; use it when search by meaning misbehaves).
   */
  async rebuildVectors(): Promise<ToolPayload> {
    return this.#run(async () => {
      const report = await this.manager.reindex(this.config.tenantId, { force: true });
      return {
        success: true,
        reindexed: true,
        count: report.total,
        embedded: report.embedded,
        removed: report.removed,
      };
    });
  }

  /** Flush pending work, stop the backup timer and close the manager (and storage). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#auto.stop();
    await this.#queue.catch(() => undefined);
    await this.manager.close();
  }

  // ------------------------------------------------------------------ internals

  #run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#closed) return Promise.reject(new ZerdaError('CLOSED', 'The memory server is shutting down'));
    const run = this.#queue.then(async () => {
      const result = await fn();
      await this.#auto.maybeBackup();
      return result;
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #require(id: string): Promise<MemoryEntry> {
    const entry = await this.manager.getMemory(MCP_USER, this.config.tenantId, id);
    if (!entry) {
      throw new ZerdaError(
        'NOT_FOUND',
        `Memory not found. No memory with id "${id}": use search_memories or get_recent_memories to find ids.`,
        {
          details: { id },
        },
      );
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

  /**
   * Each hit's cosine similarity to the query: the vector list's score, or, for a keyword match
   * the vector list did not rank (a large store), its similarity from a vector recall over it alone.
   */
  async #similarities(
    query: string,
    hits: readonly RecallHit[],
    recall: (q: string, o: { topK: number; mode: RecallMode; filter: { ids: string[] } }) => Promise<RecallHit[]>,
  ): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const h of hits) if (h.vectorScore !== undefined) out.set(h.entry.id, h.vectorScore);
    const missing = hits.filter((h) => h.vectorScore === undefined).map((h) => h.entry.id);
    if (missing.length > 0) {
      const scored = await recall(query, { topK: missing.length, mode: 'vector', filter: { ids: missing } });
      for (const h of scored) if (h.vectorScore !== undefined) out.set(h.entry.id, h.vectorScore);
    }
    return out;
  }

  /** Reinforce memories returned by a tool (the original reinforces on every read); resolves to them as stored now. */
  async #reinforce(entries: MemoryEntry[]): Promise<MemoryEntry[]> {
    if (!entries.length) return [];
    const stored = await this.manager.reinforce(
      MCP_USER,
      this.config.tenantId,
      entries.map((e) => e.id),
    );
    this.#auto.noteChange();
    const byId = new Map(stored.map((e) => [e.id, e]));
    return entries.map((e) => byId.get(e.id) ?? e);
  }

  #list(query: ListQuery, echo: Record<string, JsonValue>): Promise<ToolPayload> {
    return this.#run(() => this.#listNow(query, echo));
  }

  async #listNow(query: ListQuery, echo: Record<string, JsonValue>): Promise<ToolPayload> {
    const found = await this.manager.listMemories(MCP_USER, this.config.tenantId, {
      ...query,
      orderBy: 'createdAt',
      order: 'desc',
    });
    const stored = await this.#reinforce(found);
    const results = stored.map((e) => this.#view(e));
    return { success: true, ...echo, count: results.length, results };
  }

  #view(entry: MemoryEntry): MemoryView {
    const protectedTags = this.manager.config.protectedTags;
    return memoryView(
      entry,
      this.manager.effectiveImportance(entry),
      entry.tags.some((t) => protectedTags.includes(t)),
    );
  }

  #hitView(
    hit: RecallHit,
    entry: MemoryEntry,
    match: SearchHitView['match_type'],
    similarity: number | undefined,
  ): SearchHitView {
    return {
      ...this.#view(entry),
      relevance_score: round(Math.max(0, Math.min(1, hit.score)), 4),
      ...(similarity !== undefined
        ? {
            similarity: round(similarity, 4),
            original_similarity: round(toOriginalSimilarity(similarity, this.#scale), 4),
          }
        : {}),
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
}

/** The same set of tags, in any order (tags are names, not a sequence: reordering them is no change). */
function sameTags(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(b);
  return a.length === set.size && a.every((t) => set.has(t));
}

/**
 * A new memory id in the original server's form, `mem_<8 hex>_<16 hex>`, from random bytes (the
 * original hashed the time and the content; a random id never collides with a deleted twin's).
 */
export function newMemoryId(): string {
  const hex = randomBytes(12).toString('hex');
  return `mem_${hex.slice(0, 8)}_${hex.slice(8)}`;
}

/** One line describing any error (for logs and tool error results). */
export function describeError(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
