import type { MemoryExtractor } from '../formation/types.js';
/** The public option and result types of {@link MemoryManager}. */
import type { AccessController } from '../privacy/access-controller.js';
import type { Clock } from '../model/clock.js';
import type { CompressionBatch, CompressionReport } from '../dynamics/compressor.js';
import type { MemoryConfig, MemoryConfigInput } from '../model/config.js';
import type { BuiltContext, ContextInput } from '../context/context-builder.js';
import type { Embedder, LlmClient } from '../model/embedder.js';
import type { PiiFinding, PiiMasker } from '../privacy/pii-masker.js';
import type { ScoredMemory } from '../retrieval/selector.js';
import type { RecallHit, SemanticSearchOptions } from '../tiers/semantic-memory.js';
import type { StorageAdapter, StorageStats } from '../storage/storage.js';
import type { TokenCounter } from '../context/tokens.js';
import type { JsonValue, MemoryContent, MemoryEntry, MemoryKind } from '../model/types.js';
import type { MemoryManager } from './memory-manager.js';

/** The single-user shortcut: this user gets `admin` on every tenant (or only on `tenantId`). */
export type OwnerOption = string | { userId: string; tenantId?: string };

/** Options for {@link MemoryManager.create}. Everything is optional. */
export interface MemoryManagerOptions {
  /** Partial configuration, validated (see `resolveConfig`). */
  config?: MemoryConfigInput;
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
  /** Total token budget of `buildContext` (system, profile, memories, history, query). Default `config.maxTokens`. */
  contextTokens?: number;
  /** System instruction placed first in every context. */
  systemPrompt?: string;
  /** Bring your own access controller (e.g. pre-populated). Default: an empty, fail-closed one. */
  access?: AccessController;
  /**
   * What a saved turn carries as `metadata.context` (indexed and embedded with it, see
   * `SemanticMemory`) when the caller gives none: `'previous'` (default) attaches the user's
   * previous turn from the short-term window, so a reply like "yes, last June" is found by what it
   * answered, and the turn before that as `metadata.earlierContext` (indexed by its words only, not
   * embedded), so a reply is found by a subject named two turns back; `'none'` stores turns bare.
   */
  turnContext?: 'previous' | 'none';
  /**
   * How saved turns become long-term memories (see `core/src/formation/README.md`):
   * - `'offline'` (default): the turn is kept as an episodic record (kind `conversation`) when it
   *   carries anything, and the statements worth keeping become memories of their own kind
   *   (`fact`, `preference`, `event`, `task`), attributed to whom they are about, consolidated with
   *   what is known, each listing the turn in `metadata.sources`. Questions, greetings,
   *   acknowledgements and restatements stay in the short-term window only. Deterministic, inline.
   * - `'llm'`: the same, with the memories formed by `llm` in the background (`flush()` awaits
   *   it); when the LLM fails or answers invalid JSON the offline extractor forms them and the
   *   failure is reported by `flush()` (code `FORMATION`).
   * - a `MemoryExtractor`: your own, run like `'llm'`.
   * - `'turns'`: every turn is stored as said (kind `conversation`), nothing is formed.
   */
  formation?: 'offline' | 'llm' | 'turns' | MemoryExtractor;
}

/** Options for {@link MemoryManager.saveInteraction}. */
export interface SaveInteractionOptions {
  /** Base importance in [0, 1]. Default: estimated from the text, plus the user's retention boost. */
  importance?: number;
  tags?: string[];
  metadata?: Record<string, JsonValue>;
  /** Topics for the user profile. Default: extracted from the text. */
  topics?: string[];
  kind?: MemoryKind;
  /**
   * When the turn was said (epoch ms). Default: now. For imported history: the turn, the memories
   * it forms and their dates ("yesterday" in the turn) are as of then, so recall's time handling
   * sees the history as it happened.
   */
  at?: number;
}

/** One chat turn of {@link MemoryManager.importHistory}: its text and the options `saveInteraction` takes (`at`: when it was said). */
export interface HistoryTurn extends SaveInteractionOptions {
  input: string;
  output: string;
}

/** Where an import stands, reported after each stored turn and after each embedded batch. */
export interface ImportProgress {
  /** Turns stored so far (formation included), of `total`. */
  saved: number;
  total: number;
  /** Memories of this tenant embedded and indexed so far, of `queued` (turns kept in long-term memory and the memories they formed). */
  embedded: number;
  queued: number;
}

/** Options of {@link MemoryManager.importHistory}. */
export interface ImportHistoryOptions {
  /** Progress; a listener's exception is ignored (it cannot fail the import). */
  onProgress?: (progress: ImportProgress) => void;
  /** Stops the import before its next turn (`ABORTED`); the turns stored until then stay stored and are indexed. */
  signal?: AbortSignal;
}

/** What {@link MemoryManager.importHistory} did. */
export interface ImportReport {
  /** Turns stored. */
  turns: number;
  /** Turns kept in long-term memory. */
  longTerm: number;
  /** Memories formed, updated or reinforced. */
  memories: number;
  /** PII findings masked. */
  pii: number;
  /** Memories embedded and indexed by the end (`flush`). */
  embedded: number;
}

/** Result of saving: the stored (masked) entry and what the masker found. */
export interface SaveResult {
  /** The turn as stored: in long-term memory (`tier: 'long_term'`) or, when it carried nothing worth keeping, only in the short-term window. */
  entry: MemoryEntry;
  /**
   * Memories this turn formed, updated or reinforced (offline formation; empty with
   * `formation: 'turns'`, and with a background extractor until `flush()`).
   */
  memories: MemoryEntry[];
  /** PII findings, each tagged with the field it came from. The originals are never stored. */
  pii: (PiiFinding & { field: string })[];
}

/** Input of {@link MemoryManager.remember}: a titled fact-like memory. */
export interface RememberInput {
  /** The memory's id (e.g. one kept from another system). Default: a random UUID. An id in use is `CONFLICT`. */
  id?: string;
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
  /** The base importance as of now: decay restarts from now (`lastAccess` moves to now). */
  importance?: number;
  tags?: string[];
  metadata?: Record<string, JsonValue>;
  /**
   * The update counts as an access: unless `importance` is given, base importance becomes the
   * effective (decayed) importance now (rounded to `importanceQuantum`); `lastAccess` becomes now;
   * reinforcement accumulated in `metadata.reinforcementAccum` is dropped.
   */
  touch?: boolean;
}

/** Options for {@link MemoryManager.buildContext}. */
export interface BuildContextOptions {
  documents?: ContextInput['documents'];
  /** How many memories semantic recall contributes. Default `config.maxWorking` (15), enough to fill working memory. */
  topKSemantic?: number;
  /**
   * How many always-on memories (long-term memories carrying one of `config.protectedTags`, most
   * important first) join every context whatever the query. Default 3. Other memories enter only
   * when recall finds them relevant.
   */
  topKLongTerm?: number;
  /** Include the user profile. Default true. */
  includeProfile?: boolean;
  /** Recent short-term turns included as history. Default 6. */
  historyTurns?: number;
  /** Override the total token budget for this call. */
  tokenBudget?: number;
  /** Override the system instruction for this call. */
  systemPrompt?: string;
  /** Recall options (mode, filter, weights); `ratio` defaults to 0.3 here (`CONTEXT_THRESHOLD_RATIO`). */
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

/**
 * What `runMaintenance` would do if it ran now (`MemoryManager.previewMaintenance`): decided by
 * the same code as the run, so a run right after (same clock, no writes in between) does exactly
 * this.
 */
export interface MaintenancePreview {
  tenantId: string;
  /** The time (the manager's clock) the preview was made for: decay is computed at this instant. */
  at: number;
  /** Long-term entries examined. */
  examined: number;
  /** The `deletionThreshold` the effective importances are compared with. */
  deletionThreshold: number;
  /** The memories that would be deleted, each with the effective (decayed) importance that is below the threshold. */
  forget: { entry: MemoryEntry; effectiveImportance: number }[];
  /** The batches that would each be merged into one summary, or `null` when the tenant is not over the compression trigger. */
  compress: CompressionBatch[] | null;
  /** Short-term entries that would be evicted (effective importance below `minImportance`). */
  shortTermEvict: number;
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
  /** Vectors in the tenant's recall index as loaded in this manager (0 without an embedder). */
  indexedVectors: number;
  config: MemoryConfig;
}
