/**
 * @zerda/core — storage-agnostic memory for AI chat apps: tiers, policies, retrieval, context,
 * privacy and the `MemoryManager` orchestrator. Runs in browsers, workers and Node.
 *
 * The public names are listed here one by one; everything else in `src/` is internal.
 * @packageDocumentation
 */

// ── Model: entries, errors, configuration, clock, the embedder/LLM contracts
export { ZerdaError, isZerdaError, invalid, wrapError, serializeZerdaError } from './model/errors.js';
export { deserializeZerdaError, isSerializedZerdaError } from './model/errors.js';
export type { ZerdaErrorCode, SerializedZerdaError } from './model/errors.js';
export { TIERS, entryText, isInteraction } from './model/types.js';
export type { Tier, BuiltinKind, MemoryKind, InteractionContent, FactContent, MemoryContent } from './model/types.js';
export type { JsonValue, MemoryEntry, UserProfile } from './model/types.js';
export { DEFAULT_CONFIG, DEFAULT_HALF_LIVES, DEFAULT_DECAY_FLOORS, resolveConfig } from './model/config.js';
export type { MemoryConfig, MemoryConfigInput, SelectorWeights } from './model/config.js';
export { DEFAULT_LIMITS, MAX_METADATA_DEPTH, resolveLimits, isWellFormed, toWellFormed } from './model/limits.js';
export type { InputLimits } from './model/limits.js';
export { systemClock, DAY_MS } from './model/clock.js';
export type { Clock } from './model/clock.js';
export { DEFAULT_IMPORTANCE, createEntry, validateEntry, normalizeTags } from './model/entry.js';
export type { NewEntry } from './model/entry.js';
export type { Embedder, EmbedOptions, LlmClient } from './model/embedder.js';
/** The argument check every `Embedder.embed` runs. */
export { checkEmbedArgs } from './model/embed-checks.js';
export { lendEmbedder } from './model/lent-embedder.js';
/** The id rule (tenant, user, memory ids) and the unknown-option-key check, one place each. */
export { checkId, MAX_ID_LENGTH } from './model/ids.js';
export { checkOptionKeys } from './model/options.js';

// ── Storage: the adapter contract, the in-memory adapter, and the checks every adapter shares
export type { StorageAdapter, MemoryFilter, MemoryQuery, LexicalHit, LexicalQuery } from './storage/storage.js';
export type { VectorModel, VectorRecord, VectorBlock, StorageStats, SyncTarget } from './storage/storage.js';
export { InMemoryStorage } from './storage/in-memory-storage.js';
/** The contract's argument rules in one base class: an adapter extends it and implements its protected hooks. */
export { BaseStorage } from './storage/base-storage.js';
/** Argument checks shared by every `StorageAdapter` (for adapter authors). */
export { checkKey, checkIds, checkModel, checkFilter, checkQuery } from './storage/storage-checks.js';
export { checkLexicalQuery, checkVectorRecords } from './storage/storage-checks.js';
/** The adapters' shared read rules (`getMany`'s and `query`'s order) and the SQL adapters' entry row layout. */
export { ENTRY_COLUMNS, entryColumnValues, entryData, entryFromRow, entryOrderSql } from './storage/entry-rows.js';
export { inIdOrder, queryOrder } from './storage/entry-rows.js';
export type { EntryData, EntryRow } from './storage/entry-rows.js';
/** The `zerda-export` document (exports, backups): one builder, one validator, one version. */
export { EXPORT_FORMAT, EXPORT_VERSION, buildExport, validateExport } from './storage/export-format.js';
export type { ExportContent, ExportedVectors, ValidatedExport, VectorGroup } from './storage/export-format.js';
export type { ZerdaExport } from './storage/export-format.js';
/** The automatic-backup policy (when a backup is due), shared by SQLite and the MCP server. */
export { BackupSchedule } from './storage/backup-schedule.js';
export type { BackupScheduleOptions, BackupScheduleState, BackupTrigger } from './storage/backup-schedule.js';
/** The change log every store keeps for sync: hybrid clock, change rows, the merge rule. */
export { HybridClock, formatHlc, hlcWall, isHlc, nextHlc } from './sync/hlc.js';
export {
  TOMBSTONE_RETENTION_MS,
  compareClocks,
  counterValue,
  isExpiredTombstone,
  localChange,
} from './sync/change-log.js';
export { mergeChange, stampRecordId, tombstoneHorizon, validateSyncChange } from './sync/change-log.js';
export type { ApplyReport, ChangeRow, ChangeStamp, LocalVersion, MergeResult, PnCounter } from './sync/change-log.js';
export type { SyncChange, SyncCounters, SyncKind, SyncState, VersionVector } from './sync/change-log.js';
/** Byte helpers for adapters (vectors as bytes, base64). */
export { bytesToFloats, floatsToBytes, fromBase64, toBase64 } from './util/bytes.js';

// ── Tiers
export { ShortTermMemory } from './tiers/short-term-memory.js';
export type { ShortTermMemoryOptions, ShortTermAddOptions, ShortTermStats } from './tiers/short-term-memory.js';
export { WorkingMemory } from './tiers/working-memory.js';
export type { WorkingRebuild, WorkingStats } from './tiers/working-memory.js';
export { LongTermMemory } from './tiers/long-term-memory.js';
export type { LongTermMemoryOptions, RankedEntry, LongTermStats } from './tiers/long-term-memory.js';
export { SemanticMemory, DEFAULT_FUSION_WEIGHTS, DEFAULT_FUSION_METHOD } from './tiers/semantic-memory.js';
export { DEFAULT_THRESHOLD_RATIO, DEFAULT_CONTEXT_WEIGHT, DEFAULT_TIME_BOOST } from './tiers/semantic-memory.js';
export type { RecallMode, FusionMethod, FusionWeights, SemanticSearchOptions } from './tiers/semantic-memory.js';
export type { RecallHit, ReindexOptions, ReindexReport, SemanticMemoryOptions } from './tiers/semantic-memory.js';
export type { RecallStage, StageListener } from './retrieval/hybrid-recall.js';

// ── Language: queries read once
export { readQuery } from './language/query-reading.js';
export type { QueryReading, SlotReading } from './language/query-reading.js';
export { nameDistance, sameName } from './language/names.js';

// ── Dynamics: decay, forgetting, compression, profiles
export { effectiveImportance, isProtected, halfLifeFor, floorFor } from './dynamics/decay.js';
export type { DecayInput } from './dynamics/decay.js';
export { ForgettingMechanism } from './dynamics/forgetting.js';
export { reinforceEntry, quantize, REINFORCEMENT_ACCUM_KEY, LAST_DECAY_KEY } from './dynamics/reinforcement.js';
export { estimateImportance } from './language/importance.js';
export { MemoryCompressor, SUMMARY_KIND } from './dynamics/compressor.js';
export type { MemoryCompressorOptions, CompressionReport, CompressionBatch } from './dynamics/compressor.js';
export { UserProfileManager, createDefaultProfile, validateProfile } from './dynamics/profile-manager.js';
export { retentionBoost, RETENTION_BOOST_MIN, RETENTION_BOOST_MAX } from './dynamics/profile-manager.js';
export { MAX_PROFILE_TOPICS } from './dynamics/profile-manager.js';
export type { ProfileUpdate, UserProfileManagerOptions } from './dynamics/profile-manager.js';

// ── Retrieval: analysis, lexical and vector indexes, fusion, time expressions, selector
export { analyze } from './retrieval/text.js';
export { BM25_DEFAULTS, LexicalIndex, bm25Idf, bm25TermScore } from './retrieval/lexical-index.js';
export type { Bm25Options } from './retrieval/lexical-index.js';
export { VectorIndex } from './retrieval/vector-index.js';
export type { VectorQuantization, VectorIndexOptions } from './retrieval/vector-index.js';
export { simdDotSupported } from './retrieval/simd-dot.js';
export type { WebAssemblyApi } from './retrieval/simd-dot.js';
export { HashEmbedder } from './retrieval/hash-embedder.js';
export type { HashEmbedderOptions } from './retrieval/hash-embedder.js';
export { reciprocalRankFusion, scoreFusion, adaptiveThreshold, minMaxNormalize } from './retrieval/fusion.js';
export { maxRrfScore, DEFAULT_RRF_K } from './retrieval/fusion.js';
export type { FusedItem, RrfOptions, ScoreFusionOptions, ThresholdOptions } from './retrieval/fusion.js';
export { parseTimeRanges } from './language/time-expressions.js';
export { MONTH_NAMES } from './language/lexicon.js';
export type { TimeRange } from './language/time-expressions.js';
export { CALIBRATED_FLOORS, relevanceFloors, strongFloor } from './retrieval/relevance.js';
export type { RelevanceFloors, RecallReason } from './retrieval/relevance.js';
export { MemorySelector } from './retrieval/selector.js';
export type { SelectorCandidate, ScoredMemory } from './retrieval/selector.js';

// ── Formation: turns → memories (extractors, consolidation)
export { OfflineExtractor, FORMED_KINDS } from './formation/offline-extractor.js';
export { readTurn } from './language/turn-reading.js';
export type { TurnReading } from './language/turn-reading.js';
export { LlmExtractor } from './formation/llm-extractor.js';
export type { LlmExtractorOptions } from './formation/llm-extractor.js';
export { consolidate, wordOverlap, RESTATE_WORD_OVERLAP, RESTATE_COSINE } from './formation/consolidation.js';
export { SOURCES_KEY } from './formation/types.js';
export type { FormationTurn, FormedStatement, FormationDropReason, FormationOp } from './formation/types.js';
export type { FormationPlan, FormationContext, MemoryExtractor } from './formation/types.js';

// ── Context
export { ContextBuilder, buildPrompt, SECTION_ORDER, DEFAULT_SECTION_TITLES } from './context/context-builder.js';
export { DEFAULT_SYSTEM_PROMPT, DEFAULT_PACKING_PRIORITY } from './context/context-builder.js';
export type { ChatMessage, SectionKind, ContextDocument, ContextInput } from './context/context-builder.js';
export type { ContextSection, DropReason, DroppedItem, BuiltContext } from './context/context-builder.js';
export type { ContextBuilderOptions } from './context/context-builder.js';
export { estimateTokens } from './context/tokens.js';
export type { TokenCounter } from './context/tokens.js';

// ── Privacy
export { PiiMasker, unmask, PII_TYPES } from './privacy/pii-masker.js';
export type { BuiltinPiiType, PiiType, PiiFinding, MaskResult, CustomPiiPattern } from './privacy/pii-masker.js';
export type { PiiMaskerOptions } from './privacy/pii-masker.js';
export { createCipher, DEFAULT_PBKDF2_ITERATIONS, MIN_PBKDF2_ITERATIONS } from './privacy/cipher.js';
export { MAX_PBKDF2_ITERATIONS } from './privacy/cipher.js';
export type { Cipher, PassphraseCipherOptions, KeyCipherOptions } from './privacy/cipher.js';
export { AccessController, ROLE_PERMISSIONS, ROLES, PERMISSIONS } from './privacy/access-controller.js';
export type { Role, Permission, Grant } from './privacy/access-controller.js';

// ── The manager
export { MemoryManager } from './manager/memory-manager.js';
export type { OwnerOption, MemoryManagerOptions, SaveInteractionOptions, SaveResult } from './manager/types.js';
export type { RememberInput, MemoryPatch, BuildContextOptions, ManagedContext } from './manager/types.js';
export type { MaintenanceReport, MaintenancePreview, ManagerStats } from './manager/types.js';
export type { HistoryTurn, ImportHistoryOptions, ImportProgress, ImportReport } from './manager/types.js';
/** One per-key task queue (the lock every component uses for per-tenant ordering). */
export { KeyedMutex } from './manager/keyed-mutex.js';
