import type { Permission, Role } from '../privacy/access-controller.js';
import type { MemoryConfig } from '../model/config.js';
import { buildPrompt } from '../context/context-builder.js';
import { effectiveImportance } from '../dynamics/decay.js';
import type { Embedder } from '../model/embedder.js';
import { wrapError, ZerdaError } from '../model/errors.js';
import { checkId } from '../model/ids.js';
import type { RecallHit, ReindexOptions, ReindexReport, SemanticSearchOptions } from '../tiers/semantic-memory.js';
import type { MemoryFilter, SyncTarget } from '../storage/storage.js';
import type { MemoryEntry, UserProfile } from '../model/types.js';
import {
  longTermView,
  shortTermView,
  workingMemoryView,
  type LongTermView,
  type ShortTermView,
  type WorkingMemoryView,
} from './tier-views.js';
import * as maintenance from './maintenance.js';
import { resolveManagerOptions } from './options.js';
import * as read from './recall.js';
import { ManagerState } from './state.js';
import type {
  BuildContextOptions,
  HistoryTurn,
  ImportHistoryOptions,
  ImportReport,
  MaintenancePreview,
  MaintenanceReport,
  ManagedContext,
  ManagerStats,
  MemoryManagerOptions,
  MemoryPatch,
  RememberInput,
  SaveInteractionOptions,
  SaveResult,
} from './types.js';
import * as write from './write-path.js';

export type * from './types.js';
export type { LongTermView, ShortTermView, WorkingMemoryView } from './tier-views.js';

/**
 * The orchestrator most apps use: save interactions, build context and prompts, maintain,
 * report, clear. Every method is async. Background work (vector indexing) is tracked and
 * awaitable with {@link MemoryManager.flush}; failures surface there, never swallowed.
 *
 * Access control is fail-closed: a user needs a role on the tenant (`grant`) or must be the
 * configured `owner`. Tenant-level maintenance (`runMaintenance`, `stats`, `clearTenant`) is an
 * app-level operation and takes no user.
 *
 * This class is the facade: it checks that the manager is open, the ids and the caller's access,
 * then hands over to one concern — `write-path.ts`, `recall.ts`, `maintenance.ts` — which share
 * the state in `state.ts` (tiers, the per-tenant lock, the background `IndexQueue`).
 */
export class MemoryManager {
  /** The resolved configuration (read-only). */
  readonly config: MemoryConfig;
  /** The embedder recall uses, or `null` (lexical recall only). */
  readonly embedder: Embedder | null;
  readonly #s: ManagerState;
  #closed = false;

  private constructor(options: MemoryManagerOptions) {
    const s = new ManagerState(resolveManagerOptions(options));
    this.#s = s;
    this.config = s.config;
    this.embedder = s.embedder;
  }

  /** The storage adapter's name (e.g. `sqlite`, `memory`), for display. */
  get storageName(): string {
    return this.#s.storage.name;
  }

  /** Create a manager. Validates options; waits for the embedder to be ready. */
  static async create(options: MemoryManagerOptions = {}): Promise<MemoryManager> {
    const mgr = new MemoryManager(options);
    if (mgr.embedder) await mgr.embedder.ready();
    return mgr;
  }

  /** Current time from the injected clock. */
  now(): number {
    return this.#s.clock();
  }

  // ---------------------------------------------------------------- access

  /**
   * Give `userId` a role on `tenantId` (replaces any previous role). Unchecked: an app-level call
   * for server code and setup (who may change roles is the caller's decision). Where a user
   * changes roles — a settings screen, an admin UI — use {@link MemoryManager.grantAs}.
   */
  grant(userId: string, tenantId: string, role: Role): void {
    this.#open();
    this.#s.access.grant(userId, tenantId, role);
  }

  /**
   * Remove `userId`'s role on `tenantId`; true when a role was removed. Unchecked, like
   * {@link MemoryManager.grant}; a user's own action goes through {@link MemoryManager.revokeAs}.
   */
  revoke(userId: string, tenantId: string): boolean {
    this.#open();
    return this.#s.access.revoke(userId, tenantId);
  }

  /**
   * {@link MemoryManager.grant} on behalf of `actor`, who must hold `admin` on `tenantId` (the
   * owner does): otherwise `ACCESS_DENIED` and nothing changes. Fail-closed, so a user with no
   * role cannot give herself one.
   */
  grantAs(actor: string, userId: string, tenantId: string, role: Role): void {
    this.#enter(actor, tenantId, 'admin');
    this.#s.access.grant(userId, tenantId, role);
  }

  /** {@link MemoryManager.revoke} on behalf of `actor`, checked like {@link MemoryManager.grantAs}. */
  revokeAs(actor: string, userId: string, tenantId: string): boolean {
    this.#enter(actor, tenantId, 'admin');
    return this.#s.access.revoke(userId, tenantId);
  }

  /** Whether `userId` may do `permission` on `tenantId` (owner included). */
  can(userId: string, tenantId: string, permission: Permission): boolean {
    if (this.#isOwner(userId, tenantId)) return true;
    return this.#s.access.can(userId, tenantId, permission);
  }

  /** The role `userId` holds on `tenantId` (the owner's implicit `admin` not included), or `undefined`. */
  roleOf(userId: string, tenantId: string): Role | undefined {
    return this.#s.access.roleOf(userId, tenantId);
  }

  /** Throw `ACCESS_DENIED` (saying which role the user holds) unless `can(userId, tenantId, permission)`. */
  assertCan(userId: string, tenantId: string, permission: Permission): void {
    this.#assert(userId, tenantId, permission);
  }

  #assert(userId: string, tenantId: string, permission: Permission): void {
    checkId('userId', userId);
    checkId('tenantId', tenantId);
    if (this.#isOwner(userId, tenantId)) return;
    this.#s.access.assert(userId, tenantId, permission);
  }

  #isOwner(userId: string, tenantId: string): boolean {
    const o = this.#s.owner;
    return !!o && o.userId === userId && (o.tenantId === undefined || o.tenantId === tenantId);
  }

  // ---------------------------------------------------------------- tiers

  /**
   * The tenant's long-term tier, read-only (`get`, `query`, `stats`, `searchText` …; no `store`,
   * `delete` or `clear`: writes go through `remember`, `updateMemory`, `deleteMemory`). `userId`
   * needs `read` on the tenant.
   */
  longTerm(tenantId: string, userId: string): LongTermView {
    this.#enter(userId, tenantId, 'read');
    return longTermView(this.#s.longTerm(tenantId));
  }

  /** The short-term sliding window of `userId` in the tenant, read-only. `userId` needs `read`. */
  shortTerm(tenantId: string, userId: string): ShortTermView {
    this.#enter(userId, tenantId, 'read');
    return shortTermView(this.#s.shortTerm(tenantId, userId));
  }

  /** The working memory of `userId`'s last turn (rebuilt by every `buildContext`), read-only. Needs `read`. */
  workingMemory(tenantId: string, userId: string): WorkingMemoryView {
    this.#enter(userId, tenantId, 'read');
    return workingMemoryView(this.#s.workingMemory(tenantId, userId));
  }

  /**
   * Empty `userId`'s short-term window in the tenant (the session's recent turns; long-term
   * memories stay). Needs `write`. Runs in the tenant's order, after any save in flight.
   */
  async clearShortTerm(userId: string, tenantId: string): Promise<void> {
    this.#enter(userId, tenantId, 'write');
    const s = this.#s;
    return typed(s.serial(tenantId, async () => s.existingShortTerm(tenantId, userId)?.clear()));
  }

  /** The user's profile in the tenant (topics, attributes, interaction count). Needs `read`. */
  async profile(userId: string, tenantId: string): Promise<UserProfile> {
    this.#enter(userId, tenantId, 'read');
    return typed(this.#s.profiles.get(tenantId, userId));
  }

  /** Effective importance of an entry now (derived, never stored). */
  effectiveImportance(entry: MemoryEntry): number {
    return effectiveImportance(entry, this.#s.clock(), this.#s.config);
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
    this.#enter(userId, tenantId, 'write');
    const mayForget = this.can(userId, tenantId, 'delete');
    return typed(write.saveInteraction(this.#s, userId, tenantId, input, output, options, mayForget));
  }

  /**
   * Import a chat history: every turn is checked first (a bad one rejects the call with
   * `VALIDATION` naming it, and nothing is stored), then the turns are saved in order as
   * `saveInteraction` saves them (masking, formation; `at` keeps each turn's date), while the
   * background indexing embeds what they keep, in large batches; resolves once all of it is
   * embedded (`flush`). `onProgress` hears after each turn and each embedded batch. Aborting
   * stops before the next turn (`ABORTED`); what was stored stays stored and is indexed. The work
   * runs in slices of about 20 ms with the event loop let in between (the turn reader's patterns
   * are compiled first, in such steps, rather than by the first turns), so a page stays responsive.
   * The tenant's search index is loaded before the first turn and the imported memories join it,
   * so the first `recall` after the import does not load them all.
   */
  async importHistory(
    userId: string,
    tenantId: string,
    turns: readonly HistoryTurn[],
    options: ImportHistoryOptions = {},
  ): Promise<ImportReport> {
    this.#enter(userId, tenantId, 'write');
    const mayForget = this.can(userId, tenantId, 'delete');
    return typed(write.importHistory(this.#s, userId, tenantId, turns, options, () => this.flush(), mayForget));
  }

  /**
   * Store a titled memory (fact, preference, event, task …) directly in long-term memory.
   * PII is masked as in `saveInteraction`.
   */
  async remember(userId: string, tenantId: string, input: RememberInput): Promise<SaveResult> {
    this.#enter(userId, tenantId, 'write');
    return typed(write.remember(this.#s, userId, tenantId, input));
  }

  /**
   * Update a long-term memory: content (or title/text), kind, importance, tags, metadata. The
   * previous version is kept in `metadata.history` (content, importance, tags, kind and the time
   * it was replaced), so nothing is lost. With `touch: true` the update also counts as an access:
   * unless `importance` is given, base importance becomes the effective (decayed) one, and
   * `lastAccess` becomes now — an update never revives a faded memory by re-anchoring it.
   */
  async updateMemory(userId: string, tenantId: string, id: string, patch: MemoryPatch): Promise<MemoryEntry> {
    this.#enter(userId, tenantId, 'write');
    checkId('id', id);
    return typed(write.updateMemory(this.#s, tenantId, id, patch));
  }

  /** Delete a memory (and its vectors). Needs the `delete` permission. Resolves true when it existed. */
  async deleteMemory(userId: string, tenantId: string, id: string): Promise<boolean> {
    this.#enter(userId, tenantId, 'delete');
    checkId('id', id);
    return typed(write.deleteMemory(this.#s, tenantId, id));
  }

  /** Read one memory. No side effect: reading never reinforces (recall does). */
  async getMemory(userId: string, tenantId: string, id: string): Promise<MemoryEntry | undefined> {
    this.#enter(userId, tenantId, 'read');
    checkId('id', id);
    return typed(this.#s.storage.get(tenantId, id));
  }

  /** Count the tenant's memories matching a filter. No side effects. */
  async countMemories(userId: string, tenantId: string, filter: Omit<MemoryFilter, 'tenantId'> = {}): Promise<number> {
    this.#enter(userId, tenantId, 'read');
    return typed(this.#s.storage.count({ ...filter, tenantId }));
  }

  /** List long-term memories with a filter, newest first by default. No side effects. */
  async listMemories(
    userId: string,
    tenantId: string,
    query: Omit<MemoryFilter, 'tenantId'> & {
      orderBy?: 'createdAt' | 'lastAccess' | 'importance';
      order?: 'asc' | 'desc';
      limit?: number;
      offset?: number;
    } = {},
  ): Promise<MemoryEntry[]> {
    this.#enter(userId, tenantId, 'read');
    return typed(this.#s.storage.query({ ...query, tenantId }));
  }

  // ---------------------------------------------------------------- recall

  /**
   * Recall memories for a query (hybrid lexical + vector by default), best first, each with the
   * `reason` it passed. By default the relevance gate applies (an unrelated question recalls
   * nothing); `{ ratio: 0, minScore: 0 }` ranks and cuts nothing. Recalled memories are
   * reinforced: importance rises by `reinforcementStep` (capped) and `lastAccess` resets.
   */
  async recall(
    userId: string,
    tenantId: string,
    query: string,
    options: SemanticSearchOptions & { reinforce?: boolean } = {},
  ): Promise<RecallHit[]> {
    this.#enter(userId, tenantId, 'read');
    return typed(read.recall(this.#s, tenantId, query, options));
  }

  /**
   * Build the context for the next reply: recall (memories relevant to the query, through the
   * relevance gate) plus the always-on memories (protected tags), rank with the selector into
   * this turn's working memory, add profile and recent history, and pack it all into the token
   * budget (`contextTokens`, default `config.maxTokens`). Only the memories placed in the prompt
   * because they were relevant are reinforced.
   */
  async buildContext(
    userId: string,
    tenantId: string,
    query: string,
    options: BuildContextOptions = {},
  ): Promise<ManagedContext> {
    this.#enter(userId, tenantId, 'read');
    return typed(read.buildContext(this.#s, userId, tenantId, query, options));
  }

  /**
   * Record that these memories were used (shown to a user or a model) without a `recall`: each
   * long-term one is reinforced exactly as a recall reinforces it (`reinforceEntry`, configured by
   * `config.reinforcementStep`, `reinforcementWritebackStep`, `decayWritebackStep` …). Unknown ids
   * and other tiers are skipped. Resolves to the memories as stored now, in the order of `ids`.
   */
  async reinforce(userId: string, tenantId: string, ids: string[]): Promise<MemoryEntry[]> {
    this.#enter(userId, tenantId, 'read');
    return typed(read.reinforce(this.#s, tenantId, ids));
  }

  /** `buildContext` composed into one prompt string (see `buildPrompt`). */
  async buildPrompt(
    userId: string,
    tenantId: string,
    query: string,
    options: BuildContextOptions = {},
  ): Promise<string> {
    const context = await this.buildContext(userId, tenantId, query, options);
    return buildPrompt(context);
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
    this.#enterTenant(tenantId);
    const started = this.#s.clock();
    const t0 = maintenance.performanceNow();
    await this.flush();
    return typed(maintenance.runMaintenance(this.#s, tenantId, started, t0));
  }

  /**
   * What `runMaintenance(tenantId)` would do now, without doing it: the memories it would forget
   * (each with its effective importance, below `deletionThreshold`), the batches it would compress
   * into summaries, and how many short-term entries it would evict. Decided by the same code as
   * the run, so a run right after (same clock, no writes in between) does exactly this. Changes
   * nothing; waits for background work like the run.
   */
  async previewMaintenance(tenantId: string): Promise<MaintenancePreview> {
    this.#enterTenant(tenantId);
    const at = this.#s.clock();
    await this.flush();
    return typed(maintenance.previewMaintenance(this.#s, tenantId, at));
  }

  /** Counts for one tenant. */
  async stats(tenantId: string): Promise<ManagerStats> {
    this.#enterTenant(tenantId);
    return typed(maintenance.stats(this.#s, tenantId));
  }

  /** Remove everything of a tenant: memories, vectors, profiles, short-term and working memory. */
  async clearTenant(tenantId: string): Promise<{ entries: number }> {
    this.#enterTenant(tenantId);
    return typed(maintenance.clearTenant(this.#s, tenantId));
  }

  /**
   * Embed the tenant's long-term memories that have no vector for the current embedder (all of
   * them with `force`): after a model change, or after `importJson`/`restoreBackup` was called on
   * the storage directly (the tenant's vectors are reloaded from storage first). Reports
   * progress; resolves to what it embedded and removed.
   */
  async reindex(tenantId: string, options: ReindexOptions = {}): Promise<ReindexReport> {
    this.#enterTenant(tenantId);
    if (!this.#s.semantic) return { total: 0, embedded: 0, removed: 0 };
    await this.flush();
    return typed(maintenance.reindex(this.#s, tenantId, options));
  }

  /**
   * Prepare `tenantId` ahead of the first turn and question: compile the language layer's
   * patterns in slices of about 20 ms with the event loop let in between (the first
   * `saveInteraction` of a page otherwise spends 100–250 ms of one task compiling them), then load
   * the tenant's vector index and run the embedder once (see `SemanticMemory.warm`), so the first
   * `saveInteraction`, `recall` or `buildContext` costs what the later ones do. Optional; without
   * it the first calls pay this. Nothing is stored.
   */
  async warmUp(tenantId: string): Promise<void> {
    this.#enterTenant(tenantId);
    await write.compileReading();
    await this.#s.semantic?.warm(tenantId);
  }

  /**
   * Drop the cached vector index of `tenantId` (of every tenant when omitted); the next recall
   * reloads it from storage. For when another tab or process changed the storage underneath.
   */
  dropCachedVectors(tenantId?: string): void {
    this.#open();
    if (tenantId !== undefined) checkId('tenantId', tenantId);
    this.#s.semantic?.unload(tenantId);
  }

  /**
   * The change log of this manager's storage, for `@zerda/sync`: `syncState`, `pendingChanges` and
   * `markPushed` as the storage has them, and `applyChanges` run while no other write of the
   * tenant runs (a recall's reinforcement cannot overwrite a record applied meanwhile), after which
   * the long-term memories it wrote are queued for embedding and the vectors of those it removed
   * are dropped. `isOwner` is the storage's (false in a tab whose shared store another tab owns).
   */
  changeLog(): SyncTarget {
    this.#open();
    const s = this.#s;
    return {
      get isOwner() {
        return s.storage.isOwner;
      },
      syncState: (tenantId) => s.storage.syncState(tenantId),
      pendingChanges: (tenantId, limit) => s.storage.pendingChanges(tenantId, limit),
      markPushed: (tenantId, ids) => s.storage.markPushed(tenantId, ids),
      applyChanges: async (tenantId, changes, cursor) => {
        this.#enterTenant(tenantId);
        return s.serial(tenantId, async () => {
          const report = await s.storage.applyChanges(tenantId, changes, cursor);
          for (const id of report.entriesRemoved) s.index.drop(tenantId, id);
          if (s.semantic && report.entriesRemoved.length) await s.semantic.remove(tenantId, report.entriesRemoved);
          if (s.semantic && report.entriesWritten.length)
            for (const e of await s.storage.getMany(tenantId, report.entriesWritten))
              if (e.tier === 'long_term') s.index.enqueue(e);
          return report;
        });
      },
    };
  }

  // ---------------------------------------------------------------- background work

  /**
   * Resolves when all background work (vector indexing, memory formation by a background
   * extractor, storage writes started by this manager) is done. If any of it failed, rejects with
   * the first failure (as a `ZerdaError`), once. A failed LLM formation rejects with code
   * `FORMATION` after the offline extractor has formed that turn's memories instead.
   */
  async flush(): Promise<void> {
    const s = this.#s;
    do {
      while (s.formations.size) await Promise.allSettled([...s.formations]);
      await s.index.settle();
      await s.tenants.idleAll();
    } while (s.formations.size);
    const failure = s.index.takeFailure() ?? s.formationErrors.shift();
    if (failure) {
      const rest = s.formationErrors.splice(0);
      if (rest.length)
        (failure as { suppressed?: unknown[] }).suppressed = [
          ...((failure as { suppressed?: unknown[] }).suppressed ?? []),
          ...rest,
        ];
      throw failure;
    }
  }

  /**
   * Flush background work, then close the embedder and the storage. Every other method then
   * rejects with `CLOSED`; `close()` itself is idempotent (a second call resolves and does nothing).
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    let failure: unknown;
    try {
      await this.flush();
    } catch (err) {
      failure = err;
    }
    this.#closed = true;
    await this.#s.embedder?.close();
    await this.#s.storage.close();
    if (failure) throw failure;
  }

  #open(): void {
    if (this.#closed) throw new ZerdaError('CLOSED', 'This MemoryManager is closed');
  }

  /** Every per-user call starts here: the manager is open, the ids are valid, the user may do `permission`. */
  #enter(userId: string, tenantId: string, permission: Permission): void {
    this.#open();
    this.#assert(userId, tenantId, permission);
  }

  /** Every tenant-wide call (maintenance, stats, re-index) starts here: open and a valid tenant id. */
  #enterTenant(tenantId: string): void {
    this.#open();
    checkId('tenantId', tenantId);
  }
}

/**
 * No untyped error leaves a public method: a failure that is not a `ZerdaError` (a bug, or an
 * adapter that throws plain errors) becomes `INTERNAL`, with the original as `cause`.
 */
async function typed<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    throw wrapError('INTERNAL', 'Unexpected failure', err);
  }
}
