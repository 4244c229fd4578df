/** The public option and result types of {@link MemoryManager}. */
import type { AccessController } from '../privacy/access-controller.js';
import type { Clock } from '../model/clock.js';
import type { CompressionReport } from '../dynamics/compressor.js';
import type { MemoryConfig } from '../model/config.js';
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
   * answered; `'none'` stores turns bare.
   */
  turnContext?: 'previous' | 'none';
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
