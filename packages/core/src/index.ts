/**
 * @zerda/core — storage-agnostic memory for AI chat apps: tiers, policies, retrieval, context,
 * privacy and the `MemoryManager` orchestrator. Runs in browsers, workers and Node.
 *
 * This entry is the app API: the manager, the data it hands back, its configuration, the two
 * contracts an app passes in (`StorageAdapter`, `Embedder`), context building and privacy. Code
 * that plugs into Zerda (a storage adapter, an embedder, an integration) takes its building blocks
 * from `@zerda/core/adapter`, and its tests from `@zerda/core/testing`. Everything else in `src/`
 * is internal.
 * @module @zerda/core
 */

// ── The manager
export { MemoryManager } from './manager/memory-manager.js';
export type { OwnerOption, MemoryManagerOptions, SaveInteractionOptions, SaveResult } from './manager/types.js';
export type { RememberInput, MemoryPatch, BuildContextOptions, ManagedContext } from './manager/types.js';
export type { MaintenanceReport, MaintenancePreview, ManagerStats } from './manager/types.js';
export type { HistoryTurn, ImportHistoryOptions, ImportProgress, ImportReport } from './manager/types.js';
export type { LongTermView, ShortTermView, WorkingMemoryView } from './manager/tier-views.js';
export type { LongTermStats, RankedEntry } from './tiers/long-term-memory.js';
export type { ShortTermStats } from './tiers/short-term-memory.js';
export type { WorkingStats } from './tiers/working-memory.js';

// ── Errors
export { ZerdaError, isZerdaError } from './model/errors.js';
export type { ZerdaErrorCode, SerializedZerdaError } from './model/errors.js';

// ── Memories, profiles, configuration, clock
export { TIERS, entryText, isInteraction } from './model/types.js';
export type { Tier, BuiltinKind, MemoryKind, InteractionContent, FactContent, MemoryContent } from './model/types.js';
export type { JsonValue, MemoryEntry, UserProfile } from './model/types.js';
export { DEFAULT_CONFIG, DEFAULT_HALF_LIVES, DEFAULT_DECAY_FLOORS, resolveConfig } from './model/config.js';
export type { MemoryConfig, MemoryConfigInput, SelectorWeights } from './model/config.js';
export { DEFAULT_LIMITS } from './model/limits.js';
export type { InputLimits } from './model/limits.js';
export { systemClock } from './model/clock.js';
export type { Clock } from './model/clock.js';

// ── The two contracts an app passes in, and the implementations core ships
export type { Embedder, EmbedOptions, LlmClient } from './model/embedder.js';
export type { StorageAdapter, MemoryFilter, MemoryQuery, LexicalHit, LexicalQuery } from './storage/storage.js';
export type { VectorModel, VectorRecord, VectorBlock, StorageStats, SyncTarget } from './storage/storage.js';
export type { VectorPrecision } from './storage/vector-precision.js';
export type {
  ApplyReport,
  PnCounter,
  SyncChange,
  SyncCounters,
  SyncKind,
  SyncState,
  VersionVector,
} from './sync/change-log.js';
export { InMemoryStorage } from './storage/in-memory-storage.js';
export { HashEmbedder } from './retrieval/hash-embedder.js';
export type { HashEmbedderOptions } from './retrieval/hash-embedder.js';

// ── Recall: options, hits, and the rules that explain them (a memory inspector shows these)
export type { RecallMode, FusionMethod, FusionWeights, SemanticSearchOptions } from './tiers/semantic-memory.js';
export type { RecallHit, ReindexOptions, ReindexReport } from './tiers/semantic-memory.js';
export type { RecallStage, StageListener } from './retrieval/hybrid-recall.js';
export {
  DEFAULT_FUSION_WEIGHTS,
  DEFAULT_FUSION_METHOD,
  DEFAULT_FUSION_EXPONENT,
  DEFAULT_THRESHOLD_RATIO,
} from './tiers/semantic-memory.js';
export { CALIBRATED_FLOORS, relevanceFloors, strongFloor } from './retrieval/relevance.js';
export type { RelevanceFloors, RecallReason } from './retrieval/relevance.js';
export type { ScoredMemory } from './retrieval/selector.js';

// ── Importance: decay, protection, reinforcement, compression
export { effectiveImportance, isProtected, halfLifeFor, floorFor } from './dynamics/decay.js';
export type { DecayInput } from './dynamics/decay.js';
export { reinforceEntry } from './dynamics/reinforcement.js';
export type { CompressionReport, CompressionBatch } from './dynamics/compressor.js';

// ── Formation: a custom extractor (`MemoryManagerOptions.formation`)
export type { FormationTurn, FormedStatement, FormationDropReason, FormationOp } from './formation/types.js';
export type { FormationPlan, FormationContext, MemoryExtractor } from './formation/types.js';
export type { TurnReading } from './language/turn-reading.js';

// ── Context
export { ContextBuilder, buildPrompt, SECTION_ORDER, DEFAULT_SECTION_TITLES } from './context/context-builder.js';
export { DEFAULT_SYSTEM_PROMPT, DEFAULT_PACKING_PRIORITY } from './context/context-builder.js';
export type { ChatMessage, SectionKind, ContextDocument, ContextInput } from './context/context-builder.js';
export type { ContextSection, DropReason, DroppedItem, BuiltContext } from './context/context-builder.js';
export type { ContextBuilderOptions } from './context/context-builder.js';
export { estimateTokens } from './context/tokens.js';
export type { TokenCounter } from './context/tokens.js';

// ── Export documents (backups, moving memories between stores)
export { EXPORT_FORMAT, EXPORT_VERSION, buildExport, validateExport } from './storage/export-format.js';
export type { ExportContent, ExportedVectors, ValidatedExport, VectorGroup } from './storage/export-format.js';
export type { ZerdaExport } from './storage/export-format.js';

// ── Privacy
export { PiiMasker, unmask, PII_TYPES } from './privacy/pii-masker.js';
export type { BuiltinPiiType, PiiType, PiiFinding, MaskResult, CustomPiiPattern } from './privacy/pii-masker.js';
export type { PiiMaskerOptions } from './privacy/pii-masker.js';
export { createCipher, DEFAULT_PBKDF2_ITERATIONS, MIN_PBKDF2_ITERATIONS } from './privacy/cipher.js';
export { MAX_PBKDF2_ITERATIONS } from './privacy/cipher.js';
export type { Cipher, PassphraseCipherOptions, KeyCipherOptions } from './privacy/cipher.js';
export { AccessController, ROLE_PERMISSIONS, ROLES, PERMISSIONS } from './privacy/access-controller.js';
export type { Role, Permission, Grant } from './privacy/access-controller.js';
