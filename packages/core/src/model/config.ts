import { invalid } from './errors.js';
import { checkOptionKeys } from './options.js';
import { DEFAULT_LIMITS, resolveLimits, type InputLimits } from './limits.js';

/** Weights the selector uses to rank candidates. They need not sum to 1. */
export interface SelectorWeights {
  relevance: number;
  recency: number;
  importance: number;
}

/**
 * Memory configuration. Every field has a default ({@link DEFAULT_CONFIG}); pass a partial
 * object to {@link resolveConfig}, which validates it and names the bad field on failure.
 */
export interface MemoryConfig {
  /** Short-term sliding window size (entries). Default 20. */
  windowSize: number;
  /**
   * Working memory capacity (entries), and how many memories `buildContext` recalls to fill it.
   * Default 15 (the token budget, `maxTokens`, is the other bound).
   */
  maxWorking: number;
  /** Working memory token budget. Default 2000. */
  maxTokens: number;
  /** Default number of memories recalled per query. Default 10. */
  retrievalLimit: number;
  /** Base importance at or above which an interaction is promoted to long-term memory. Default 0.3. */
  importanceThreshold: number;
  /** Long-term capacity per tenant; compression starts above 80% of it. Default 10000. */
  maxLongTerm: number;
  /** Decay rate per day (exponential) for kinds without an explicit half-life. Default ln2/30. */
  baseDecayRate: number;
  /** Half-life in days per kind; overrides `baseDecayRate` for that kind. */
  halfLifeDays: Record<string, number>;
  /** Effective importance never decays below this (unless a per-kind floor says otherwise). Default 0.05. */
  minImportance: number;
  /** Per-kind decay floors. */
  decayFloors: Record<string, number>;
  /** Memories whose *effective* importance is below this are deleted by maintenance. Default 0.08. */
  deletionThreshold: number;
  /** When false, effective importance equals base importance everywhere. Default true. */
  enableDecay: boolean;
  /** Tags that never decay and are never forgotten or compressed. */
  protectedTags: string[];
  /**
   * Importance added to a memory each time it is recalled. Default 0.05. The whole rule — step,
   * cap, accumulation, rounding, decay write-back — is `reinforceEntry` (dynamics/reinforcement.ts).
   */
  reinforcementStep: number;
  /** Reinforcement never raises base importance above this. Default 1. */
  reinforcementCap: number;
  /**
   * Similarity floor of recall's relevance gate (cosine to the query; the other floors derive from
   * it, see `relevanceFloors`). `null` (default): the floors calibrated for the embedder's model (`CALIBRATED_FLOORS`), or
   * none for a model not listed. Set it when you bring another embedding model.
   */
  minSimilarity: number | null;
  /**
   * Accumulated reinforcement: when > 0, each recall adds `reinforcementStep` to
   * `metadata.reinforcementAccum` (persisted with the memory, so a restart loses nothing) and base
   * importance rises by the accumulated amount only once it reaches this step. Default 0: every
   * recall raises importance at once.
   */
  reinforcementWritebackStep: number;
  /**
   * Importance written by reinforcement or a decay write-back is rounded to a multiple of this
   * (0.05 = half steps on a 1..10 scale). Default 0: no rounding.
   */
  importanceQuantum: number;
  /**
   * Decay write-back on recall: when > 0, a recall first writes the decayed importance (rounded by
   * `importanceQuantum`, never below the kind's floor) if it is at least this much lower than the
   * stored one, and no sooner than `decayWritebackIntervalMs` after the previous write-back
   * (`metadata.lastDecayAt`). Default 0: decay is only derived, and a recall refreshes the memory
   * fully.
   */
  decayWritebackStep: number;
  /** Shortest time between two decay write-backs of one memory (ms). Default 12 h. */
  decayWritebackIntervalMs: number;
  /** LRU size of the query/text embedding cache. Default 1000. */
  embeddingCacheSize: number;
  /** Selector weights. Default relevance 0.6, recency 0.15, importance 0.25. */
  selectorWeights: SelectorWeights;
  /** Recency half-life in days used by the selector. Default 14. */
  recencyHalfLifeDays: number;
  /** Compression triggers above this share of `maxLongTerm`. Default 0.8. */
  compressionTrigger: number;
  /** How many entries one summary merges at most. Default 10. */
  compressionBatchSize: number;
  /** Only entries older than this (days) are compressed. Default 7. */
  compressionMinAgeDays: number;
  /**
   * How much one call may carry: turn, memory and query length, metadata depth, keys and size,
   * tags, batch size ({@link DEFAULT_LIMITS}). A call beyond them is rejected with `VALIDATION`
   * naming the field and writes nothing. Pass a partial object to change some.
   */
  limits: InputLimits;
}

/** What `resolveConfig` takes: any fields of {@link MemoryConfig}, `limits` partial too. */
export type MemoryConfigInput = Partial<Omit<MemoryConfig, 'limits'>> & { limits?: Partial<InputLimits> };

/** Default half-lives (days) per built-in kind. */
export const DEFAULT_HALF_LIVES: Readonly<Record<string, number>> = Object.freeze({
  conversation: 30,
  fact: 365,
  preference: 180,
  event: 90,
  task: 14,
  ephemeral: 1,
  summary: 180,
});

/** Default decay floors per kind. */
export const DEFAULT_DECAY_FLOORS: Readonly<Record<string, number>> = Object.freeze({
  fact: 0.2,
  preference: 0.2,
  ephemeral: 0,
});

/** Default configuration. */
export const DEFAULT_CONFIG: Readonly<MemoryConfig> = Object.freeze({
  windowSize: 20,
  maxWorking: 15,
  maxTokens: 2000,
  retrievalLimit: 10,
  importanceThreshold: 0.3,
  maxLongTerm: 10_000,
  baseDecayRate: Math.LN2 / 30,
  halfLifeDays: { ...DEFAULT_HALF_LIVES },
  minImportance: 0.05,
  decayFloors: { ...DEFAULT_DECAY_FLOORS },
  deletionThreshold: 0.08,
  enableDecay: true,
  protectedTags: ['core', 'identity', 'pinned'],
  reinforcementStep: 0.05,
  reinforcementCap: 1,
  minSimilarity: null,
  reinforcementWritebackStep: 0,
  importanceQuantum: 0,
  decayWritebackStep: 0,
  decayWritebackIntervalMs: 12 * 3_600_000,
  embeddingCacheSize: 1000,
  selectorWeights: { relevance: 0.6, recency: 0.15, importance: 0.25 },
  recencyHalfLifeDays: 14,
  compressionTrigger: 0.8,
  compressionBatchSize: 10,
  compressionMinAgeDays: 7,
  limits: { ...DEFAULT_LIMITS },
});

const INT_FIELDS = [
  'windowSize',
  'maxWorking',
  'maxTokens',
  'retrievalLimit',
  'maxLongTerm',
  'compressionBatchSize',
] as const;
const UNIT_FIELDS = [
  'importanceThreshold',
  'minImportance',
  'deletionThreshold',
  'reinforcementStep',
  'reinforcementCap',
  'reinforcementWritebackStep',
  'importanceQuantum',
  'decayWritebackStep',
  'compressionTrigger',
] as const;

/**
 * Merge `partial` over the defaults and validate. Throws `VALIDATION` naming the field.
 * Unknown keys are rejected too (a typo should not silently do nothing).
 */
export function resolveConfig(partial: MemoryConfigInput = {}): MemoryConfig {
  checkOptionKeys(partial, Object.keys(DEFAULT_CONFIG), 'config');
  const cfg: MemoryConfig = {
    ...structuredClone(DEFAULT_CONFIG as MemoryConfig),
    ...partial,
    halfLifeDays: { ...DEFAULT_HALF_LIVES, ...(partial.halfLifeDays ?? {}) },
    decayFloors: { ...DEFAULT_DECAY_FLOORS, ...(partial.decayFloors ?? {}) },
    selectorWeights: { ...DEFAULT_CONFIG.selectorWeights, ...(partial.selectorWeights ?? {}) },
    protectedTags: [...(partial.protectedTags ?? DEFAULT_CONFIG.protectedTags)],
    limits: resolveLimits(partial.limits ?? {}),
  };
  for (const f of INT_FIELDS) {
    const v = cfg[f];
    if (!Number.isInteger(v) || v < 1) invalid(`config.${f}`, 'an integer >= 1', v);
  }
  for (const f of UNIT_FIELDS) {
    const v = cfg[f];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1) invalid(`config.${f}`, 'a number in [0, 1]', v);
  }
  if (!Number.isInteger(cfg.embeddingCacheSize) || cfg.embeddingCacheSize < 0)
    invalid('config.embeddingCacheSize', 'an integer >= 0', cfg.embeddingCacheSize);
  for (const f of [
    'baseDecayRate',
    'recencyHalfLifeDays',
    'compressionMinAgeDays',
    'decayWritebackIntervalMs',
  ] as const) {
    const v = cfg[f];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) invalid(`config.${f}`, 'a finite number >= 0', v);
  }
  if (
    cfg.minSimilarity !== null &&
    (typeof cfg.minSimilarity !== 'number' || !(cfg.minSimilarity >= 0 && cfg.minSimilarity <= 1))
  )
    invalid('config.minSimilarity', 'a number in [0, 1] or null', cfg.minSimilarity);
  if (typeof cfg.enableDecay !== 'boolean') invalid('config.enableDecay', 'a boolean', cfg.enableDecay);
  for (const [k, v] of Object.entries(cfg.halfLifeDays)) {
    if (typeof v !== 'number' || !(v > 0)) invalid(`config.halfLifeDays.${k}`, 'a number of days > 0', v);
  }
  for (const [k, v] of Object.entries(cfg.decayFloors)) {
    if (typeof v !== 'number' || v < 0 || v > 1) invalid(`config.decayFloors.${k}`, 'a number in [0, 1]', v);
  }
  for (const [k, v] of Object.entries(cfg.selectorWeights)) {
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
      invalid(`config.selectorWeights.${k}`, 'a number >= 0', v);
  }
  if (!Array.isArray(cfg.protectedTags) || cfg.protectedTags.some((t) => typeof t !== 'string'))
    invalid('config.protectedTags', 'an array of strings', cfg.protectedTags);
  if (cfg.deletionThreshold > cfg.importanceThreshold && cfg.importanceThreshold > 0)
    invalid(
      'config.deletionThreshold',
      `a value <= importanceThreshold (${cfg.importanceThreshold})`,
      cfg.deletionThreshold,
    );
  return cfg;
}
