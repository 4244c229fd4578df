import { AccessController, type Permission, type Role } from '../privacy/access-controller.js';
import { systemClock, type Clock } from '../model/clock.js';
import { MemoryCompressor, type CompressionReport } from '../dynamics/compressor.js';
import { resolveConfig, type MemoryConfig } from '../model/config.js';
import { buildPrompt, ContextBuilder, type BuiltContext, type ContextInput } from '../context/context-builder.js';
import { effectiveImportance } from '../dynamics/decay.js';
import type { Embedder, LlmClient } from '../model/embedder.js';
import { createEntry, validateContent, normalizeTags, validateMetadata, type NewEntry } from '../model/entry.js';
import { invalid, ZerdaError } from '../model/errors.js';
import { ForgettingMechanism } from '../dynamics/forgetting.js';
import { HashEmbedder } from '../retrieval/hash-embedder.js';
import { InMemoryStorage } from '../storage/in-memory-storage.js';
import { LongTermMemory } from '../tiers/long-term-memory.js';
import { PiiMasker, type PiiFinding } from '../privacy/pii-masker.js';
import { retentionBoost, UserProfileManager } from '../dynamics/profile-manager.js';
import { MemorySelector, type ScoredMemory } from '../retrieval/selector.js';
import { CONTEXT_KEY, indexedText, SemanticMemory, type RecallHit, type ReindexOptions, type ReindexReport, type SemanticSearchOptions } from '../tiers/semantic-memory.js';
import { ShortTermMemory } from '../tiers/short-term-memory.js';
import type { MemoryFilter, StorageAdapter, StorageStats } from '../storage/storage.js';
import { estimateTokens, type TokenCounter } from '../context/tokens.js';
import { entryText, type JsonValue, type MemoryContent, type MemoryEntry, type MemoryKind, type UserProfile } from '../model/types.js';
import { WorkingMemory } from '../tiers/working-memory.js';

/** The single-user shortcut: this user gets `admin` on every tenant (or only on `tenantId`). */
export type OwnerOption = string | { userId: string; tenantId?: string };

/** Options for {@link MemoryManager.create}. Everything is optional. */
export interface MemoryManagerOptions {
  /** Partial configuration, validated (see `resolveConfig`). */
  config?: Partial<MemoryConfig>;
  /** Where long-term memories live. Default: a fresh `InMemoryStorage`. */
  storage?: StorageAdapter;
  /** Embedder for vector recall. Default: `HashEmbedder` (no model). `null`: lexical recall only. */
  embedder?: Embedder | null;
  /** Optional LLM used for compression summaries. */
  llm?: LlmClient;
  /** Injectable clock (epoch ms). Default `Date.now`. */
  clock?: Clock;
  /**
   * Single-user apps: `owner: 'me'` makes user `me` admin of every tenant (or pass
   * `{ userId, tenantId }` to scope it). Everyone else needs an explicit `grant`.
   */
  owner?: OwnerOption;
  /** PII masking applied before anything is stored. Default `new PiiMasker()`; `false` disables it. */
  masker?: PiiMasker | false;
  /** Token counter for working memory and context packing. Default `estimateTokens`. */
  counter?: TokenCounter;
  /** Total token budget of `buildContext`. Default `2 * config.maxTokens`. */
  contextTokens?: number;
  /** System instruction placed first in every context. */
  systemPrompt?: string;
  /** Bring your own access controller (e.g. pre-populated). Default: an empty, fail-closed one. */
  access?: AccessController;
  /**
   * What a saved turn carries as `metadata.context` (indexed and embedded with it, see
   * `SemanticMemory`) when the caller gives none: `'previous'` (default) attaches the user's
   * previous turn from the short-term window, so a reply like "yes, last June" is found by what it
   * answered; `'none'` stores turns bare.
   */
  turnContext?: 'previous' | 'none';
}

/** Longest automatic turn context (characters); longer previous turns keep their end. */
const MAX_TURN_CONTEXT_CHARS = 400;

/** Options for {@link MemoryManager.saveInteraction}. */
export interface SaveInteractionOptions {
  /** Base importance in [0, 1]. Default: estimated from the text, plus the user's retention boost. */
  importance?: number;
  tags?: string[];
  metadata?: Record<string, JsonValue>;
  /** Topics for the user profile. Default: extracted from the text. */
  topics?: string[];
  kind?: MemoryKind;
}

/** Result of saving: the stored (masked) entry and what the masker found. */
export interface SaveResult {
  entry: MemoryEntry;
  /** PII findings, each tagged with the field it came from. The originals are never stored. */
  pii: (PiiFinding & { field: string })[];
}

/** Input of {@link MemoryManager.remember}: a titled fact-like memory. */
export interface RememberInput {
  title: string;
  text: string;
  kind?: MemoryKind;
  importance?: number;
  tags?: string[];
  metadata?: Record<string, JsonValue>;
}

/** Patch for {@link MemoryManager.updateMemory}. Omitted fields are kept. */
export interface MemoryPatch {
  content?: MemoryContent;
  title?: string;
  text?: string;
  kind?: MemoryKind;
  importance?: number;
  tags?: string[];
  metadata?: Record<string, JsonValue>;
}

/** Options for {@link MemoryManager.buildContext}. */
export interface BuildContextOptions {
  documents?: ContextInput['documents'];
  /** How many memories semantic recall contributes. Default `config.retrievalLimit`. */
  topKSemantic?: number;
  /** How many of the most important long-term memories are always considered. Default 3. */
  topKLongTerm?: number;
  /** Include the user profile. Default true. */
  includeProfile?: boolean;
  /** Recent short-term turns included as history. Default 6. */
  historyTurns?: number;
  /** Override the total token budget for this call. */
  tokenBudget?: number;
  /** Override the system instruction for this call. */
  systemPrompt?: string;
  /** Recall options (mode, filter, weights). */
  search?: Omit<SemanticSearchOptions, 'topK'>;
}

/** A built context plus what recall and working memory did for it. */
export interface ManagedContext extends BuiltContext {
  /** Semantic recall hits, best first. */
  recalled: RecallHit[];
  /** The ranked working memory of this turn. */
  working: ScoredMemory[];
}

/** What one maintenance run did. */
export interface MaintenanceReport {
  tenantId: string;
  /** Long-term entries examined. */
  examined: number;
  /** Ids deleted because their effective importance fell below `deletionThreshold`. */
  deleted: string[];
  compression: CompressionReport | null;
  /** Short-term entries evicted below `minImportance` (effective). */
  shortTermEvicted: number;
  /** True when nothing changed. */
  noop: boolean;
  durationMs: number;
}

/** Tenant statistics. */
export interface ManagerStats {
  tenantId: string;
  storage: StorageStats;
  shortTerm: { users: number; entries: number };
  working: { users: number; entries: number; tokens: number };
  profiles: number;
  embedder: { modelId: string; dim: number } | null;
  pendingIndexing: number;
  config: MemoryConfig;
}

const DEFAULT_TOP_K_LONG_TERM = 3;
const DEFAULT_HISTORY_TURNS = 6;
const WORKING_KEY = (tenantId: string, userId: string) => `${tenantId}\u0000${userId}`;

/**
 * The orchestrator most apps use: save interactions, build context and prompts, maintain,
 * report, clear. Every method is async. Background work (vector indexing) is tracked and
 * awaitable with {@link MemoryManager.flush}; failures surface there, never swallowed.
 *
 * Access control is fail-closed: a user needs a role on the tenant (`grant`) or must be the
 * configured `owner`. Tenant-level maintenance (`runMaintenance`, `stats`, `clearTenant`) is an
 * app-level operation and takes no user.
 */
export class MemoryManager {
  readonly config: MemoryConfig;
  readonly storage: StorageAdapter;
  readonly embedder: Embedder | null;
  readonly access: AccessController;
  readonly profiles: UserProfileManager;
  readonly semantic: SemanticMemory | null;
  readonly selector: MemorySelector;
  readonly forgetting: ForgettingMechanism;
  readonly #clock: Clock;
  readonly #llm: LlmClient | undefined;
  readonly #owner: { userId: string; tenantId?: string } | undefined;
  readonly #masker: PiiMasker | null;
  readonly #counter: TokenCounter;
  readonly #contextTokens: number;
  readonly #systemPrompt: string | undefined;
  readonly #turnContext: 'previous' | 'none';
  readonly #shortTerm = new Map<string, ShortTermMemory>();
  readonly #working = new Map<string, WorkingMemory>();
  readonly #longTerm = new Map<string, LongTermMemory>();
  readonly #tenantQueues = new Map<string, Promise<unknown>>();
  readonly #pending = new Set<Promise<void>>();
  #indexQueue: MemoryEntry[] = [];
  #indexLoop: Promise<void> | null = null;
  #backgroundErrors: unknown[] = [];
  readonly #catchUps = new Map<string, Promise<void>>();
  #closed = false;

  private constructor(options: MemoryManagerOptions) {
    // A typo such as `storge` would otherwise run on a fresh in-memory storage and lose everything.
    checkOptions(
      options,
      ['config', 'storage', 'embedder', 'llm', 'clock', 'owner', 'masker', 'counter', 'contextTokens', 'systemPrompt', 'access', 'turnContext'],
      'options',
    );
    if (options.llm !== undefined && typeof (options.llm as Partial<LlmClient> | null)?.generate !== 'function')
      invalid('llm', 'an LlmClient with generate(prompt, { maxTokens })', options.llm);
    if (options.masker !== undefined && options.masker !== false && typeof (options.masker as Partial<PiiMasker> | null)?.mask !== 'function')
      invalid('masker', 'a PiiMasker or false', options.masker);
    if (options.counter !== undefined && typeof options.counter !== 'function') invalid('counter', 'a function (text) => tokens', options.counter);
    if (options.systemPrompt !== undefined && typeof options.systemPrompt !== 'string') invalid('systemPrompt', 'a string', options.systemPrompt);
    if (options.access !== undefined && !(options.access instanceof AccessController)) invalid('access', 'an AccessController', options.access);
    this.config = resolveConfig(options.config ?? {});
    this.#clock = options.clock ?? systemClock;
    if (typeof this.#clock !== 'function') invalid('clock', 'a function returning epoch milliseconds', this.#clock);
    this.storage = options.storage ?? new InMemoryStorage();
    this.embedder = options.embedder === null ? null : (options.embedder ?? new HashEmbedder());
    this.#llm = options.llm;
    this.#owner = normalizeOwner(options.owner);
    this.#masker = options.masker === false ? null : (options.masker ?? new PiiMasker());
    this.#counter = options.counter ?? estimateTokens;
    this.#contextTokens = options.contextTokens ?? this.config.maxTokens * 2;
    if (!Number.isInteger(this.#contextTokens) || this.#contextTokens < 16)
      invalid('contextTokens', 'an integer >= 16', options.contextTokens);
    this.#systemPrompt = options.systemPrompt;
    this.#turnContext = options.turnContext ?? 'previous';
    if (this.#turnContext !== 'previous' && this.#turnContext !== 'none') invalid('turnContext', "'previous' | 'none'", options.turnContext);
    this.access = options.access ?? new AccessController();
    this.profiles = new UserProfileManager({ storage: this.storage, clock: this.#clock });
    this.semantic = this.embedder
      ? new SemanticMemory({ storage: this.storage, embedder: this.embedder, config: this.config, clock: this.#clock })
      : null;
    this.selector = new MemorySelector(this.config, this.#clock);
    this.forgetting = new ForgettingMechanism(this.config, this.#clock);
  }

  /** Create a manager. Validates options; waits for the embedder to be ready. */
  static async create(options: MemoryManagerOptions = {}): Promise<MemoryManager> {
    const mgr = new MemoryManager(options);
    if (mgr.embedder) await mgr.embedder.ready();
    return mgr;
  }

  /** Current time from the injected clock. */
  now(): number {
    return this.#clock();
  }

  // ---------------------------------------------------------------- access

  /** Give `userId` a role on `tenantId` (replaces any previous role). */
  grant(userId: string, tenantId: string, role: Role): void {
    this.#open();
    this.access.grant(userId, tenantId, role);
  }

  /** Remove `userId`'s role on `tenantId`. Resolves true when a role was removed. */
  revoke(userId: string, tenantId: string): boolean {
    this.#open();
    return this.access.revoke(userId, tenantId);
  }

  /** Whether `userId` may do `permission` on `tenantId` (owner included). */
  can(userId: string, tenantId: string, permission: Permission): boolean {
    if (this.#isOwner(userId, tenantId)) return true;
    return this.access.can(userId, tenantId, permission);
  }

  #assert(userId: string, tenantId: string, permission: Permission): void {
    checkId('userId', userId);
    checkId('tenantId', tenantId);
    if (this.#isOwner(userId, tenantId)) return;
    this.access.assert(userId, tenantId, permission);
  }

  #isOwner(userId: string, tenantId: string): boolean {
    const o = this.#owner;
    return !!o && o.userId === userId && (o.tenantId === undefined || o.tenantId === tenantId);
  }

  // ---------------------------------------------------------------- tiers

  /** The tenant's long-term tier (durable, over the storage adapter). */
  longTerm(tenantId: string): LongTermMemory {
    checkId('tenantId', tenantId);
    let ltm = this.#longTerm.get(tenantId);
    if (!ltm) {
      ltm = new LongTermMemory({ storage: this.storage, tenantId, config: this.config, clock: this.#clock });
      this.#longTerm.set(tenantId, ltm);
    }
    return ltm;
  }

  /** The short-term sliding window of one user in one tenant (in memory, per session). */
  shortTerm(tenantId: string, userId: string): ShortTermMemory {
    checkId('tenantId', tenantId);
    checkId('userId', userId);
    const key = WORKING_KEY(tenantId, userId);
    let stm = this.#shortTerm.get(key);
    if (!stm) {
      stm = new ShortTermMemory(this.config.windowSize, { config: this.config, clock: this.#clock, tenantId });
      this.#shortTerm.set(key, stm);
    }
    return stm;
  }

  /** The working memory of one user's last turn (rebuilt by every `buildContext`). */
  workingMemory(tenantId: string, userId: string): WorkingMemory {
    checkId('tenantId', tenantId);
    checkId('userId', userId);
    const key = WORKING_KEY(tenantId, userId);
    let wm = this.#working.get(key);
    if (!wm) {
      wm = new WorkingMemory(this.config.maxWorking, this.config.maxTokens, this.#counter);
      this.#working.set(key, wm);
    }
    return wm;
  }

  /** Effective importance of an entry now (derived, never stored). */
  effectiveImportance(entry: MemoryEntry): number {
    return effectiveImportance(entry, this.#clock(), this.config);
  }

  // ---------------------------------------------------------------- writes

  /**
   * Save one chat turn. PII is masked first (the findings are returned, the originals are never
   * stored). The turn always enters the user's short-term window; when its importance reaches
   * `importanceThreshold` it is also stored in long-term memory (durably, before this resolves)
   * and queued for vector indexing (awaited by `flush()`).
   */
  async saveInteraction(
    userId: string,
    tenantId: string,
    input: string,
    output: string,
    options: SaveInteractionOptions = {},
  ): Promise<SaveResult> {
    this.#open();
    this.#assert(userId, tenantId, 'write');
    if (typeof input !== 'string') invalid('input', 'a string', input);
    if (typeof output !== 'string') invalid('output', 'a string', output);
    if (!input.trim() && !output.trim()) invalid('input', 'a non-empty input or output', input);
    checkOptions(options, ['importance', 'tags', 'metadata', 'topics', 'kind'], 'saveInteraction options');
    if (options.importance !== undefined) checkUnit('importance', options.importance);
    const tags = options.tags === undefined ? [] : normalizeTags(options.tags);
    const metadata = options.metadata === undefined ? {} : validateMetadata(options.metadata);
    if (options.topics !== undefined && (!Array.isArray(options.topics) || options.topics.some((t) => typeof t !== 'string')))
      invalid('topics', 'an array of strings', options.topics);

    const maskedIn = this.#mask(input, 'input');
    const maskedOut = this.#mask(output, 'output');
    const pii = [...maskedIn.findings, ...maskedOut.findings];
    const content = { input: maskedIn.text, output: maskedOut.text };

    if (options.kind !== undefined && (typeof options.kind !== 'string' || !options.kind.trim()))
      invalid('kind', 'a non-empty string', options.kind);

    return this.#serial(tenantId, async () => {
      const topics = options.topics ?? this.profiles.extractTopics(content.input);
      // The boost this interaction earns is computed from the profile as it will be after the
      // update, but the profile is written only once the entry is stored: a failed save leaves
      // the profile untouched (a rejected call changes nothing).
      const current = await this.profiles.get(tenantId, userId);
      const boost = retentionBoost(current.interactionCount + 1);
      const base = options.importance ?? estimateImportance(content.input, content.output);
      const importance = clamp01(options.importance === undefined ? base + boost : base);
      if (pii.length) metadata.piiMasked = pii.length;
      if (this.#turnContext === 'previous' && metadata[CONTEXT_KEY] === undefined) {
        const previous = this.#shortTerm.get(WORKING_KEY(tenantId, userId))?.getRecent(1)[0];
        const text = previous ? entryText(previous).trim() : '';
        if (text) metadata[CONTEXT_KEY] = text.length > MAX_TURN_CONTEXT_CHARS ? `…${text.slice(-MAX_TURN_CONTEXT_CHARS)}` : text;
      }
      const promote = importance >= this.config.importanceThreshold;
      const newEntry: NewEntry = {
        content,
        kind: options.kind ?? 'conversation',
        tier: promote ? 'long_term' : 'short_term',
        importance,
        tags,
        metadata,
        userId,
      };
      const entry = createEntry(tenantId, newEntry, this.#clock());
      if (promote) await this.storage.put(entry);
      try {
        await this.profiles.update(tenantId, userId, { topics, text: content.input });
      } catch (err) {
        // Best-effort rollback; the profile failure is what the caller needs to see.
        if (promote) await this.storage.delete(tenantId, entry.id).catch(() => undefined);
        throw err;
      }
      if (promote) this.#enqueueIndex(entry);
      this.shortTerm(tenantId, userId).add(content, { ...newEntry, id: entry.id, createdAt: entry.createdAt, tenantId });
      return { entry: structuredClone(entry), pii };
    });
  }

  /**
   * Store a titled memory (fact, preference, event, task …) directly in long-term memory.
   * PII is masked as in `saveInteraction`.
   */
  async remember(userId: string, tenantId: string, input: RememberInput): Promise<SaveResult> {
    this.#open();
    this.#assert(userId, tenantId, 'write');
    if (typeof input !== 'object' || input === null) invalid('memory', 'an object with title and text', input);
    checkOptions(input, ['title', 'text', 'kind', 'importance', 'tags', 'metadata'], 'memory');
    if (typeof input.title !== 'string' || !input.title.trim()) invalid('title', 'a non-empty string', input.title);
    if (typeof input.text !== 'string') invalid('text', 'a string', input.text);
    if (input.importance !== undefined) checkUnit('importance', input.importance);
    const title = this.#mask(input.title, 'title');
    const text = this.#mask(input.text, 'text');
    const pii = [...title.findings, ...text.findings];
    const metadata = input.metadata === undefined ? {} : validateMetadata(input.metadata);
    if (pii.length) metadata.piiMasked = pii.length;
    const entry = createEntry(
      tenantId,
      {
        content: { title: title.text, text: text.text },
        kind: input.kind ?? 'fact',
        tier: 'long_term',
        importance: input.importance ?? 0.5,
        tags: input.tags ?? [],
        metadata,
        userId,
      },
      this.#clock(),
    );
    return this.#serial(tenantId, async () => {
      await this.storage.put(entry);
      this.#enqueueIndex(entry);
      return { entry: structuredClone(entry), pii };
    });
  }

  /**
   * Update a long-term memory. The previous version is kept in `metadata.history` (content,
   * importance, tags, kind and the time it was replaced), so nothing is lost.
   */
  async updateMemory(userId: string, tenantId: string, id: string, patch: MemoryPatch): Promise<MemoryEntry> {
    this.#open();
    this.#assert(userId, tenantId, 'write');
    checkId('id', id);
    if (typeof patch !== 'object' || patch === null) invalid('patch', 'an object', patch);
    checkOptions(patch, ['content', 'title', 'text', 'kind', 'importance', 'tags', 'metadata'], 'patch');
    if (patch.importance !== undefined) checkUnit('importance', patch.importance);
    if (patch.content !== undefined) validateContent(patch.content);
    if (patch.kind !== undefined && (typeof patch.kind !== 'string' || !patch.kind.trim())) invalid('kind', 'a non-empty string', patch.kind);
    const tags = patch.tags === undefined ? undefined : normalizeTags(patch.tags);
    const metadata = patch.metadata === undefined ? undefined : validateMetadata(patch.metadata);
    return this.#serial(tenantId, async () => {
      const current = await this.storage.get(tenantId, id);
      if (!current) throw new ZerdaError('NOT_FOUND', `No memory ${id} in tenant ${tenantId}`, { details: { id, tenantId } });
      let content: MemoryContent = patch.content ?? current.content;
      if (patch.title !== undefined || patch.text !== undefined) {
        if ('input' in content) invalid('patch.title', 'title/text only on titled memories (use content)', patch.title);
        content = {
          title: patch.title !== undefined ? this.#mask(patch.title, 'title').text : content.title,
          text: patch.text !== undefined ? this.#mask(patch.text, 'text').text : content.text,
        };
      } else if (patch.content) {
        content = maskContent(content, (t, f) => this.#mask(t, f).text);
      }
      const previous = {
        content: current.content as unknown as JsonValue,
        importance: current.importance,
        tags: current.tags,
        kind: current.kind,
        version: current.version,
        replacedAt: this.#clock(),
      } satisfies Record<string, JsonValue>;
      const history = Array.isArray(current.metadata.history) ? current.metadata.history : [];
      const next: MemoryEntry = {
        ...current,
        content: validateContent(content),
        kind: patch.kind ?? current.kind,
        importance: patch.importance ?? current.importance,
        tags: tags ?? current.tags,
        metadata: { ...(metadata ?? current.metadata), history: [...history, previous] },
        version: current.version + 1,
      };
      await this.storage.put(next);
      if (indexedText(next) !== indexedText(current)) this.#enqueueIndex(next);
      return structuredClone(next);
    });
  }

  /** Delete a memory (and its vectors). Needs the `delete` permission. Resolves true when it existed. */
  async deleteMemory(userId: string, tenantId: string, id: string): Promise<boolean> {
    this.#open();
    this.#assert(userId, tenantId, 'delete');
    checkId('id', id);
    return this.#serial(tenantId, async () => {
      this.#indexQueue = this.#indexQueue.filter((e) => !(e.tenantId === tenantId && e.id === id));
      const removed = await this.storage.delete(tenantId, id);
      if (this.semantic) await this.semantic.remove(tenantId, [id]);
      return removed;
    });
  }

  /** Read one memory. No side effect: reading never reinforces (recall does). */
  async getMemory(userId: string, tenantId: string, id: string): Promise<MemoryEntry | undefined> {
    this.#open();
    this.#assert(userId, tenantId, 'read');
    checkId('id', id);
    return this.storage.get(tenantId, id);
  }

  /** List long-term memories with a filter, newest first by default. No side effects. */
  async listMemories(
    userId: string,
    tenantId: string,
    query: Omit<MemoryFilter, 'tenantId'> & { orderBy?: 'createdAt' | 'lastAccess' | 'importance'; order?: 'asc' | 'desc'; limit?: number; offset?: number } = {},
  ): Promise<MemoryEntry[]> {
    this.#open();
    this.#assert(userId, tenantId, 'read');
    return this.storage.query({ ...query, tenantId });
  }

  // ---------------------------------------------------------------- recall

  /**
   * Recall memories for a query (hybrid lexical + vector by default). Recalled memories are
   * reinforced: importance rises by `reinforcementStep` (capped) and `lastAccess` resets.
   */
  async recall(userId: string, tenantId: string, query: string, options: SemanticSearchOptions & { reinforce?: boolean } = {}): Promise<RecallHit[]> {
    this.#open();
    this.#assert(userId, tenantId, 'read');
    if (typeof query !== 'string') invalid('query', 'a string', query);
    const { reinforce = true, ...search } = options;
    const hits = await this.#search(tenantId, query, { topK: this.config.retrievalLimit, ...search });
    if (reinforce) await this.#reinforce(tenantId, hits.map((h) => h.entry.id));
    return hits;
  }

  async #search(tenantId: string, query: string, options: SemanticSearchOptions): Promise<RecallHit[]> {
    if (!query.trim()) return [];
    if (this.semantic) {
      this.#catchUp(tenantId);
      return this.semantic.search(tenantId, query, options);
    }
    return this.#lexicalOnly(tenantId, query, options);
  }

  async #lexicalOnly(tenantId: string, query: string, options: SemanticSearchOptions): Promise<RecallHit[]> {
    const hits = await this.storage.lexicalSearch({
      tenantId,
      query,
      limit: options.topK ?? this.config.retrievalLimit,
      ...(options.filter ? { filter: options.filter } : {}),
    });
    if (!hits.length) return [];
    const entries = new Map((await this.storage.getMany(tenantId, hits.map((h) => h.id))).map((e) => [e.id, e]));
    const top = hits[0]!.score || 1;
    return hits.flatMap((h, i) => {
      const entry = entries.get(h.id);
      return entry ? [{ entry, score: h.score / top, lexicalScore: h.score, lexicalRank: i + 1 }] : [];
    });
  }

  /**
   * Build the context for the next reply: recall (semantic + most important long-term), rank
   * with the selector into this turn's working memory, add profile and recent history, and pack
   * it all into the token budget. Memories that make it into working memory are reinforced.
   */
  async buildContext(userId: string, tenantId: string, query: string, options: BuildContextOptions = {}): Promise<ManagedContext> {
    this.#open();
    this.#assert(userId, tenantId, 'read');
    if (typeof query !== 'string' || !query.trim()) invalid('query', 'a non-empty string', query);
    checkOptions(
      options,
      ['documents', 'topKSemantic', 'topKLongTerm', 'includeProfile', 'historyTurns', 'tokenBudget', 'systemPrompt', 'search'],
      'buildContext options',
    );
    const topKSemantic = options.topKSemantic ?? this.config.retrievalLimit;
    const topKLongTerm = options.topKLongTerm ?? DEFAULT_TOP_K_LONG_TERM;
    const historyTurns = options.historyTurns ?? DEFAULT_HISTORY_TURNS;
    checkCount('topKSemantic', topKSemantic);
    checkCount('topKLongTerm', topKLongTerm);
    checkCount('historyTurns', historyTurns);
    const budget = options.tokenBudget ?? this.#contextTokens;
    // Built before anything else so a bad budget is rejected before working memory changes.
    const builder = new ContextBuilder(budget, { counter: this.#counter });

    const recalled = topKSemantic > 0 ? await this.#search(tenantId, query, { ...options.search, topK: topKSemantic }) : [];
    const important = topKLongTerm > 0 ? await this.longTerm(tenantId).topByImportance(topKLongTerm) : [];
    const userWindow = this.#shortTerm.get(WORKING_KEY(tenantId, userId));
    const history = historyTurns > 0 && userWindow ? userWindow.getRecent(historyTurns) : [];
    const inHistory = new Set(history.map((e) => e.id));

    const candidates = new Map<string, { entry: MemoryEntry; relevance: number }>();
    for (const hit of recalled) candidates.set(hit.entry.id, { entry: hit.entry, relevance: hit.score });
    for (const entry of important) if (!candidates.has(entry.id)) candidates.set(entry.id, { entry, relevance: 0 });
    for (const id of inHistory) candidates.delete(id);

    const ranked = this.selector.rank([...candidates.values()]);
    // Selected on a scratch copy; the user's working memory is replaced only once the context
    // has been built (a rejected call changes nothing).
    const { kept } = new WorkingMemory(this.config.maxWorking, this.config.maxTokens, this.#counter).rebuild(ranked.map((r) => r.entry));
    const keptIds = new Set(kept.map((e) => e.id));
    const working = ranked.filter((r) => keptIds.has(r.entry.id));

    const profile: UserProfile | undefined =
      options.includeProfile === false ? undefined : await this.profiles.get(tenantId, userId);
    const system = options.systemPrompt ?? this.#systemPrompt;
    const context = builder.build({
      ...(system !== undefined ? { system } : {}),
      ...(profile && profile.interactionCount > 0 ? { profile } : {}),
      memories: working.map((w) => ({ entry: w.entry, score: w.score })),
      ...(options.documents ? { documents: options.documents } : {}),
      history,
      query,
    });
    this.workingMemory(tenantId, userId).rebuild(kept);
    const usedIds = new Set(
      context.sections.flatMap((s) => (s.kind === 'memories' ? (s.itemIds ?? []) : [])),
    );
    await this.#reinforce(tenantId, working.map((w) => w.entry.id).filter((id) => usedIds.size === 0 || usedIds.has(id)));
    return { ...context, recalled, working };
  }

  /** `buildContext` composed into one prompt string (see `buildPrompt`). */
  async buildPrompt(userId: string, tenantId: string, query: string, options: BuildContextOptions = {}): Promise<string> {
    const context = await this.buildContext(userId, tenantId, query, options);
    return buildPrompt(context);
  }

  /**
   * Record that these memories were used (shown to a user or a model) without a `recall`: each
   * long-term one is reinforced exactly as a recall reinforces it (see `config.reinforcementStep`,
   * `reinforcementWritebackStep`, `decayWritebackStep`). Unknown ids and other tiers are skipped.
   * Resolves to the memories as stored now, in the order of `ids`.
   */
  async reinforce(userId: string, tenantId: string, ids: string[]): Promise<MemoryEntry[]> {
    this.#open();
    this.#assert(userId, tenantId, 'read');
    if (!Array.isArray(ids)) invalid('ids', 'an array of memory ids', ids);
    for (const id of ids) checkId('id', id);
    return this.#reinforce(tenantId, ids);
  }

  async #reinforce(tenantId: string, ids: string[]): Promise<MemoryEntry[]> {
    if (!ids.length) return [];
    return this.#serial(tenantId, async () => {
      const fresh = await this.storage.getMany(tenantId, [...new Set(ids)]);
      const now = this.#clock();
      const updated = fresh.filter((e) => e.tier === 'long_term').map((e) => this.forgetting.reinforce(e, now));
      if (updated.length) await this.storage.putMany(updated);
      const byId = new Map([...fresh, ...updated].map((e) => [e.id, e]));
      return ids.flatMap((id) => (byId.has(id) ? [structuredClone(byId.get(id)!)] : []));
    });
  }

  // ---------------------------------------------------------------- maintenance

  /**
   * Forget and compress: deletes long-term memories whose *effective* importance is below
   * `deletionThreshold` (protected tags never), compresses old low-importance memories into
   * summaries when the tenant exceeds `compressionTrigger * maxLongTerm`, and evicts short-term
   * entries below `minImportance`. Decay itself is lazy and never written, so running this twice
   * in a row changes nothing the second time.
   */
  async runMaintenance(tenantId: string): Promise<MaintenanceReport> {
    this.#open();
    checkId('tenantId', tenantId);
    const started = this.#clock();
    const t0 = performanceNow();
    await this.flush();
    return this.#serial(tenantId, async () => {
      const ltm = this.longTerm(tenantId);
      const all = await this.storage.query({ tenantId });
      const doomed = this.forgetting.selectForDeletion(all, started);
      const deleted = doomed.map((e) => e.id);
      if (deleted.length) {
        await this.storage.deleteMany(tenantId, deleted);
        if (this.semantic) await this.semantic.remove(tenantId, deleted);
      }
      let compression: CompressionReport | null = null;
      const compressor = new MemoryCompressor({
        config: this.config,
        clock: this.#clock,
        counter: this.#counter,
        ...(this.#llm ? { llm: this.#llm } : {}),
      });
      if (compressor.shouldCompress(all.length - deleted.length)) {
        compression = await compressor.compress(ltm);
        if (this.semantic && compression.removed.length) await this.semantic.remove(tenantId, compression.removed);
        for (const s of compression.summaries) this.#enqueueIndex(s);
      }
      let shortTermEvicted = 0;
      for (const [key, stm] of this.#shortTerm) {
        if (key.startsWith(`${tenantId}\u0000`)) shortTermEvicted += stm.evictBelow(this.config.minImportance, started).length;
      }
      await this.#drainIndex();
      const changed = deleted.length + (compression?.summaries.length ?? 0) + (compression?.removed.length ?? 0) + shortTermEvicted;
      return {
        tenantId,
        examined: all.length,
        deleted,
        compression,
        shortTermEvicted,
        noop: changed === 0,
        durationMs: Math.round((performanceNow() - t0) * 100) / 100,
      };
    });
  }

  /** Counts for one tenant. */
  async stats(tenantId: string): Promise<ManagerStats> {
    this.#open();
    checkId('tenantId', tenantId);
    const storage = await this.storage.stats(tenantId);
    let stEntries = 0;
    let stUsers = 0;
    let wEntries = 0;
    let wTokens = 0;
    let wUsers = 0;
    const prefix = `${tenantId}\u0000`;
    for (const [key, stm] of this.#shortTerm) if (key.startsWith(prefix)) (stUsers++, (stEntries += stm.size));
    for (const [key, wm] of this.#working) if (key.startsWith(prefix)) (wUsers++, (wEntries += wm.size), (wTokens += wm.tokenCount));
    return {
      tenantId,
      storage,
      shortTerm: { users: stUsers, entries: stEntries },
      working: { users: wUsers, entries: wEntries, tokens: wTokens },
      profiles: storage.profiles,
      embedder: this.embedder ? { modelId: this.embedder.modelId, dim: this.embedder.dim } : null,
      pendingIndexing: this.#indexQueue.filter((e) => e.tenantId === tenantId).length,
      config: structuredClone(this.config),
    };
  }

  /** Remove everything of a tenant: memories, vectors, profiles, short-term and working memory. */
  async clearTenant(tenantId: string): Promise<{ entries: number }> {
    this.#open();
    checkId('tenantId', tenantId);
    return this.#serial(tenantId, async () => {
      this.#indexQueue = this.#indexQueue.filter((e) => e.tenantId !== tenantId);
      await this.#drainIndex();
      await this.#catchUps.get(tenantId);
      this.#catchUps.delete(tenantId);
      const entries = await this.storage.clearTenant(tenantId);
      if (this.semantic) this.semantic.unload(tenantId);
      const prefix = `${tenantId}\u0000`;
      for (const key of [...this.#shortTerm.keys()]) if (key.startsWith(prefix)) this.#shortTerm.delete(key);
      for (const key of [...this.#working.keys()]) if (key.startsWith(prefix)) this.#working.delete(key);
      this.#longTerm.delete(tenantId);
      return { entries };
    });
  }

  /**
   * Embed the tenant's long-term memories that have no vector for the current embedder (all of
   * them with `force`): after a model change, or after `importJson`/`restoreBackup` was called on
   * the storage directly (the tenant's vectors are reloaded from storage first). Reports
   * progress; resolves to what it embedded and removed.
   */
  async reindex(tenantId: string, options: ReindexOptions = {}): Promise<ReindexReport> {
    this.#open();
    checkId('tenantId', tenantId);
    if (!this.semantic) return { total: 0, embedded: 0, removed: 0 };
    await this.flush();
    // Reload the vectors from storage first: after an import or a restore done on the storage
    // directly, the cached index still holds the vectors of before.
    const semantic = this.semantic;
    return this.#exclusiveIndexing(async () => {
      semantic.unload(tenantId);
      return semantic.reindex(tenantId, options);
    });
  }

  // ---------------------------------------------------------------- background work

  #enqueueIndex(entry: MemoryEntry): void {
    if (!this.semantic) return;
    this.#indexQueue.push(entry);
    this.#startIndexLoop();
  }

  #startIndexLoop(): void {
    if (this.#indexLoop || !this.#indexQueue.length) return;
    const loop = this.#runIndexLoop().finally(() => {
      this.#indexLoop = null;
      this.#pending.delete(loop);
    });
    this.#indexLoop = loop;
    this.#pending.add(loop);
  }

  /**
   * Run `fn` while no indexing runs: it holds the indexing slot, so saves meanwhile queue up and
   * are embedded right after. A reindex racing the index loop could otherwise drop from the
   * in-memory index a vector the loop had just added.
   */
  async #exclusiveIndexing<T>(fn: () => Promise<T>): Promise<T> {
    while (this.#indexLoop) await this.#indexLoop;
    let release!: () => void;
    this.#indexLoop = new Promise<void>((r) => (release = r));
    try {
      return await fn();
    } finally {
      this.#indexLoop = null;
      release();
      this.#startIndexLoop();
    }
  }

  /**
   * Once per tenant and manager, on first recall: embed the memories that are stored but have no
   * vector — saved by a process that was killed before its background indexing ran, or imported
   * without vectors. Runs in the background (recall meanwhile works lexically); `flush()` awaits
   * it. A failed catch-up is retried on a later recall rather than reported: the failure that
   * left the vectors missing was reported by `flush()` when it happened (or by another process),
   * and an embedder that is down for a while must not turn every later `flush()` into an error.
   */
  #catchUp(tenantId: string): void {
    const semantic = this.semantic;
    if (!semantic || this.#catchUps.has(tenantId)) return;
    const task: Promise<void> = this.#exclusiveIndexing(async () => {
      const [stored, indexed] = await Promise.all([this.storage.count({ tenantId }), semantic.vectorCount(tenantId)]);
      if (stored > indexed) await semantic.reindex(tenantId);
    })
      .catch(() => {
        if (this.#catchUps.get(tenantId) === task) this.#catchUps.delete(tenantId);
      })
      .finally(() => this.#pending.delete(task));
    this.#catchUps.set(tenantId, task);
    this.#pending.add(task);
  }

  async #runIndexLoop(): Promise<void> {
    // Yield once so a burst of saves is embedded as one batch.
    await Promise.resolve();
    while (this.#indexQueue.length) {
      const batch = this.#indexQueue.splice(0, 32);
      try {
        await this.semantic!.add(batch);
      } catch (err) {
        this.#backgroundErrors.push(err);
      }
    }
  }

  async #drainIndex(): Promise<void> {
    while (this.#indexLoop) await this.#indexLoop;
  }

  /**
   * Resolves when all background work (vector indexing, storage writes started by this manager)
   * is done. If any of it failed, rejects with the first failure (as a `ZerdaError`), once.
   */
  async flush(): Promise<void> {
    while (this.#pending.size) await Promise.allSettled([...this.#pending]);
    await Promise.allSettled([...this.#tenantQueues.values()]);
    if (this.#backgroundErrors.length) {
      const [first, ...rest] = this.#backgroundErrors;
      this.#backgroundErrors = [];
      const err = first instanceof ZerdaError ? first : new ZerdaError('INTERNAL', 'Background work failed', { cause: first });
      if (rest.length) (err as { suppressed?: unknown[] }).suppressed = rest;
      throw err;
    }
  }

  /** Flush background work, then close the embedder and the storage. Further calls reject with `CLOSED`. */
  async close(): Promise<void> {
    if (this.#closed) return;
    let failure: unknown;
    try {
      await this.flush();
    } catch (err) {
      failure = err;
    }
    this.#closed = true;
    await this.embedder?.close();
    await this.storage.close();
    if (failure) throw failure;
  }

  // ---------------------------------------------------------------- helpers

  #open(): void {
    if (this.#closed) throw new ZerdaError('CLOSED', 'This MemoryManager is closed');
  }

  #mask(text: string, field: string): { text: string; findings: (PiiFinding & { field: string })[] } {
    if (!this.#masker || !text) return { text, findings: [] };
    const r = this.#masker.mask(text);
    return { text: r.text, findings: r.findings.map((f) => ({ ...f, field })) };
  }

  /** Run tenant mutations one at a time (reinforcement must not race an update). */
  #serial<T>(tenantId: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.#tenantQueues.get(tenantId) ?? Promise.resolve();
    const run = prev.then(fn, fn);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.#tenantQueues.set(tenantId, tail);
    void tail.then(() => {
      if (this.#tenantQueues.get(tenantId) === tail) this.#tenantQueues.delete(tenantId);
    });
    return run;
  }
}

function normalizeOwner(owner: OwnerOption | undefined): { userId: string; tenantId?: string } | undefined {
  if (owner === undefined) return undefined;
  if (typeof owner === 'string') {
    checkId('owner', owner);
    return { userId: owner };
  }
  if (typeof owner !== 'object' || owner === null) invalid('owner', 'a user id or { userId, tenantId? }', owner);
  checkId('owner.userId', owner.userId);
  if (owner.tenantId !== undefined) checkId('owner.tenantId', owner.tenantId);
  return owner.tenantId === undefined ? { userId: owner.userId } : { userId: owner.userId, tenantId: owner.tenantId };
}

function checkId(field: string, value: unknown): asserts value is string {
  if (typeof value !== 'string' || !value.trim() || value.length > 256) invalid(field, 'a non-empty string of at most 256 characters', value);
}

function checkUnit(field: string, value: unknown): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) invalid(field, 'a number in [0, 1]', value);
}

function checkCount(field: string, value: unknown): void {
  if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > 1000) invalid(field, 'an integer in [0, 1000]', value);
}

function checkOptions(options: unknown, allowed: string[], what: string): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) invalid(what, 'an object', options);
  for (const key of Object.keys(options)) if (!allowed.includes(key)) invalid(`${what}.${key}`, `one of ${allowed.join(', ')}`, key);
}

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}

function maskContent(content: MemoryContent, mask: (text: string, field: string) => string): MemoryContent {
  if ('input' in content) return { input: mask(content.input, 'input'), output: mask(content.output, 'output') };
  return { title: mask(content.title, 'title'), text: mask(content.text, 'text') };
}

const SIGNAL_PATTERNS: [RegExp, number][] = [
  [/\b(remember|don't forget|do not forget|important|always|never)\b/i, 0.2],
  [/\b(my name is|i am|i'm|i live|i work|my (wife|husband|partner|son|daughter|birthday|email|phone|address))\b/i, 0.2],
  [/\b(i (like|love|hate|prefer|dislike|want|need))\b/i, 0.15],
  [/\b(deadline|meeting|appointment|tomorrow|next week|on \w+day)\b/i, 0.1],
];

/**
 * Heuristic base importance of a turn: 0.3, plus signals of durable information (self-disclosure,
 * preferences, explicit "remember", dates), plus a little for substance (length). Clamped to [0.1, 0.9].
 */
export function estimateImportance(input: string, output = ''): number {
  let score = 0.3;
  for (const [re, w] of SIGNAL_PATTERNS) if (re.test(input)) score += w;
  const words = input.split(/\s+/).filter(Boolean).length;
  score += Math.min(0.1, words / 400);
  if (/^(hi|hello|hey|thanks|thank you|ok|okay|bye)[.!]*$/i.test(input.trim())) score -= 0.2;
  // A question asks for memory rather than adding to it.
  if (/\?\s*$/.test(input) || /^(what|when|where|who|whom|which|why|how|do|does|did|can|could|is|are|was|were)\b/i.test(input.trim())) score -= 0.15;
  if (output && output.length > 400) score += 0.02;
  return Math.min(0.9, Math.max(0.1, score));
}

function performanceNow(): number {
  return typeof performance !== 'undefined' ? performance.now() : Date.now();
}
