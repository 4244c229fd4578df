import { systemClock, type Clock } from '../model/clock.js';
import { resolveConfig, type MemoryConfig, type MemoryConfigInput } from '../model/config.js';
import type { EmbedOptions, Embedder } from '../model/embedder.js';
import { invalid, wrapError, ZerdaError } from '../model/errors.js';
import { checkId } from '../model/ids.js';
import { textWindow } from '../model/limits.js';
import { DEFAULT_RRF_K } from '../retrieval/fusion.js';
import {
  hybridRecall,
  type FusionMethod,
  type RecallHit,
  type RecallMode,
  type RecallPlan,
  type RecallSource,
  type StageListener,
} from '../retrieval/hybrid-recall.js';
import { LexicalIndex } from '../retrieval/lexical-index.js';
import { LruCache } from '../util/lru-cache.js';
import type { LexicalHit, MemoryFilter, StorageAdapter, VectorModel } from '../storage/storage.js';
import { relevanceFloors } from '../retrieval/relevance.js';
import type { Scored } from '../retrieval/top-k.js';
import { entryText, type MemoryEntry } from '../model/types.js';
import { VectorIndex } from '../retrieval/vector-index.js';
import { readQuery, type QueryReading } from '../language/query-reading.js';
import { foldName, KnownNames, namesInText, resolveName, speakerName } from '../language/names.js';
import { USER_LABEL_RE } from '../formation/question-slots.js';

export type { FusionMethod, RecallHit, RecallMode, RecallStage, StageListener } from '../retrieval/hybrid-recall.js';

/** Weights of the lexical and vector lists in reciprocal-rank fusion. */
export interface FusionWeights {
  lexical: number;
  vector: number;
}

/**
 * Default fusion weights: lexical is favoured. Measured on LoCoMo (1,536 questions of categories 1-4,
 * one memory per turn, recall of the evidence turns) with the bundled use-lite model, BM25 alone gives
 * R@10 59.9 / R@5 53.6 / P@1 35.0 and cosine alone 37.7 / 27.0 / 10.4; equal-weight RRF drops to
 * R@10 56.1, while score fusion with vector weight 0.3 reaches 62.8 / 54.8 / 35.5 (0.2: 62.4, 0.5: 62.7).
 * With the hashing embedder the same setting stays within 1 point of BM25 (59.2 vs 59.9).
 * When memories carry context (`metadata.context`, embedded with the text) the vector signal gets
 * stronger and 0.5 is best: hybrid R@10 70.8 at 0.3, 71.6 at 0.5, 71.7 at 0.7 (tuning half:
 * 72.1 / 73.0 / 73.3), so the default was 0.5. With formed memories (issue 28) the vector signal is
 * stronger again: on the default path hybrid R@10 at 0.5 / 0.7 / 0.8 is 76.5 / 77.1 / 77.3 on the
 * development half and 74.8 / 75.2 / 74.9 on the other, so the default is 0.7
 * (`docs/retrieval-quality.md`).
 */
export const DEFAULT_FUSION_WEIGHTS: Readonly<FusionWeights> = Object.freeze({ lexical: 1, vector: 0.7 });

/**
 * Default fusion method: `'score'`. RRF throws away how far apart scores are, so a weak vector
 * model's near-ties reorder BM25's confident ranking (see {@link DEFAULT_FUSION_WEIGHTS}).
 */
export const DEFAULT_FUSION_METHOD: FusionMethod = 'score';

/**
 * Default power of each list's max-normalised score in score fusion
 * ({@link SemanticSearchOptions.fusionExponent}): above 1, a memory near the top of one list
 * outranks one half-way down both, which a plain mean ranks alike. With the lexical candidates'
 * cosine completed ({@link SemanticSearchOptions.completeScores}), LoCoMo hybrid R@10 on the
 * default path at 1 / 1.25 / 1.5 / 2: development half 77.6 / 78.3 / 78.4 / 78.6, other half
 * 75.3 / 76.1 / 75.9 / 75.5 (`docs/retrieval-quality.md`); 1.25, the mildest value on the
 * development half's plateau.
 */
export const DEFAULT_FUSION_EXPONENT = 1.25;

/**
 * Default share of the top score a hit must reach to be kept ({@link SemanticSearchOptions.ratio}).
 * On LoCoMo with use-lite and topK 10: ratio 0 → R@10 62.8 with 10 hits; 0.3 → 62.6 with 9.3;
 * 0.5 → 59.1 with 6.8 hits and twice the precision; 0.7 → 49.5 with 3.7. 0.5 trades a little recall
 * for a context with a third fewer, mostly irrelevant, memories.
 */
export const DEFAULT_THRESHOLD_RATIO = 0.5;

/**
 * The metadata key whose string value is indexed as a memory's context: text that is not the
 * memory itself but helps find it — the neighbouring turns of a conversation, the title of the
 * document a passage came from, the session it belongs to. Context is embedded together with the
 * entry's text (after it, so truncation cuts context first) and indexed lexically on its own, at
 * `DEFAULT_CONTEXT_WEIGHT` (0.5) of the entry's own BM25 score.
 */
export const CONTEXT_KEY = 'context';

/**
 * The metadata key whose string value is indexed lexically as a memory's context, like
 * {@link CONTEXT_KEY}'s, but not embedded: context too far from the memory to shape its vector, yet
 * where the words that find it often are — the turn before the previous one, where the subject of
 * a reply two turns on was named ("My second snake Seraphim did it." … "I bought it a year ago in
 * Paris.").
 */
export const EARLIER_CONTEXT_KEY = 'earlierContext';

/**
 * Default weight of a match in a memory's context relative to a match in its own text
 * ({@link SemanticSearchOptions.contextWeight}). Measured on LoCoMo (1,536 questions of categories
 * 1-4, each turn stored with its previous and next turn as context, use-lite, vector weight 0.5):
 * hybrid R@10 67.9 at weight 0 (context only embedded), 70.5 at 0.3, 71.6 at 0.5, 70.0 at 1 (where
 * a chatty neighbour starts to outrank the turn itself).
 */
export const DEFAULT_CONTEXT_WEIGHT = 0.5;

/**
 * Default boost of memories created inside a time span the query names ("in June", "on 8 May
 * 2023", "last week"; see `parseTimeRanges`): their fused score is multiplied by `1 + boost`
 * (then all scores are rescaled into 0..1). A boost, not a filter: a query's date is often
 * approximate, and memories outside it still compete. On LoCoMo (211 of 1,540 questions name a
 * date; with context and vector weight 0.5), hybrid R@10: 70.1 without, 70.8 at 0.2, 71.6 at 0.5,
 * 72.0 at 1.
 */
export const DEFAULT_TIME_BOOST = 1;

/**
 * Default boost of memories naming what the query names ({@link SemanticSearchOptions.entityBoost}).
 * Chosen on LoCoMo's development half (its first five conversations; hybrid R@10 72.9 without,
 * 74.6 at 0.5, 74.3 at 1, 74.4 at 0.3) and kept because the other half gains as much (70.2 →
 * 72.4). Questions about a person as a whole ("What are X's hobbies?") are where it helps: their
 * evidence shares no word with the question except the name, which half the turns carry.
 */
export const DEFAULT_ENTITY_BOOST = 0.5;

/**
 * Default boost of memories *about* whom the query names ({@link SemanticSearchOptions.subjectBoost}),
 * on top of the name boost: "What does Melanie do to destress?" is answered by what Melanie said
 * and what was formed about her, less often by her friend's "Cool, Melanie! Running can really
 * boost your mood." that names her too. On LoCoMo, hybrid R@10 at 0 / 0.2 / 0.3 (both halves
 * gain alike, so it is not tuned to one): see `docs/retrieval-quality.md`.
 */
export const DEFAULT_SUBJECT_BOOST = 0.25;

/**
 * The text embedded for an entry: its text (its first `maxChars`, see {@link textWindow}), then
 * its context (`metadata.context`) when that is a non-empty string.
 */
export function indexedText(
  entry: Pick<MemoryEntry, 'content' | 'metadata'>,
  maxChars = Number.POSITIVE_INFINITY,
): string {
  const text = textWindow(entryText(entry), maxChars);
  const context = contextOf(entry);
  return context ? `${text}\n${context}` : text;
}

function contextOf(entry: Pick<MemoryEntry, 'metadata'>, key = CONTEXT_KEY): string | undefined {
  const c = entry.metadata?.[key];
  return typeof c === 'string' && c.trim().length > 0 ? c : undefined;
}

/** The context indexed lexically: `metadata.context`, then `metadata.earlierContext`. */
function lexicalContextOf(entry: Pick<MemoryEntry, 'metadata'>): string | undefined {
  const context = [contextOf(entry), contextOf(entry, EARLIER_CONTEXT_KEY)].filter((c) => c !== undefined);
  return context.length > 0 ? context.join('\n') : undefined;
}

/** Options of a semantic search (`MemoryManager.recall`). */
export interface SemanticSearchOptions {
  /** Most hits returned. Default `config.retrievalLimit`. */
  topK?: number;
  /**
   * Absolute floor on the fused 0..1 score. When given (0 included), it replaces the relevance
   * gate: `{ ratio: 0, minScore: 0 }` ranks and cuts nothing. When omitted, the relevance gate
   * applies: a hit is kept only when its cosine similarity to the query reaches the similarity
   * floor, or it matches the query's words and reaches the lower keyword floor (see
   * `CALIBRATED_FLOORS`, `minSimilarity`), so an unrelated question recalls nothing.
   */
  minScore?: number;
  /**
   * Similarity floor of the relevance gate for this search (the keyword floor is half of it).
   * Default `config.minSimilarity`, else the floors calibrated for the embedder's model.
   */
  minSimilarity?: number;
  /**
   * Adaptive threshold: keep hits with score >= `max(minScore, top × ratio)`. When none passes,
   * the best hit is returned alone (`reason: 'fallback'`) if it passed the relevance gate.
   * Default 0.5.
   */
  ratio?: number;
  /** Default 'hybrid'. */
  mode?: RecallMode;
  /** Only entries matching this filter are ranked (applied before ranking, not after). */
  filter?: Omit<MemoryFilter, 'tenantId'>;
  /** Fusion weights (hybrid mode). Default {@link DEFAULT_FUSION_WEIGHTS}. */
  weights?: Partial<FusionWeights>;
  /**
   * How the lists are combined: `'score'` (default), a weighted mean of max-normalised scores
   * (each raised to `fusionExponent`), or `'rrf'`, weighted reciprocal-rank fusion (normalised so
   * 1 = first in every list used).
   */
  fusion?: FusionMethod;
  /** RRF damping constant (`fusion: 'rrf'` only). Default 60. */
  rrfK?: number;
  /**
   * Power (> 0) of each list's max-normalised score in score fusion (`fusion: 'score'` only).
   * Default {@link DEFAULT_FUSION_EXPONENT} (1.5); 1 is the plain weighted mean.
   */
  fusionExponent?: number;
  /**
   * Hybrid mode: a lexical candidate the vector list did not reach is fused with its own cosine
   * similarity instead of none (one dot product per such candidate), so a memory that matches the
   * words is not ranked as if its meaning were unrelated. Default true.
   */
  completeScores?: boolean;
  /** Candidates taken from each list before fusion. Default `max(50, 5 × topK)`. */
  candidates?: number;
  /**
   * Weight of a BM25 match in a memory's context (`metadata.context`) relative to one in its own
   * text; 0 ignores context in lexical ranking. Default `DEFAULT_CONTEXT_WEIGHT` (0.5).
   */
  contextWeight?: number;
  /**
   * Boost of memories created within a time span the query names; 0 disables it. Default
   * `DEFAULT_TIME_BOOST` (1).
   */
  timeBoost?: number;
  /** Reference time (epoch ms) for relative expressions such as "last week". Default: the clock. */
  now?: number;
  /**
   * Boost of memories that name someone or something the query names (a capitalised word that
   * does not start a sentence, such as a person's or a place's name): the others' fused score is
   * divided by `1 + entityBoost` (then scores are rescaled to 0..1); 0 disables it. Default
   * `DEFAULT_ENTITY_BOOST` (0.5).
   */
  entityBoost?: number;
  /**
   * Boost of memories about someone the query names, among those the name boost looked at: a
   * turn spoken by them (`"Ana: …"`) or a formed memory about them (`metadata.about`); the others'
   * fused score is divided by `1 + subjectBoost` (scores stay in 0..1); 0 disables it. Default
   * `DEFAULT_SUBJECT_BOOST` (0.25).
   */
  subjectBoost?: number;
  /**
   * Told when each stage of the search starts and ends (`RecallStage`), for benchmarks and
   * profiling; the listener brings its own clock.
   */
  onStage?: StageListener;
}

/** Options of `reindex`. */
export interface ReindexOptions extends EmbedOptions {
  /** Texts embedded per call. Default 64. */
  batchSize?: number;
  /** Re-embed every entry, not only those missing a vector for the current model. */
  force?: boolean;
}

/** What `reindex` did. */
export interface ReindexReport {
  /** Entries of the tenant. */
  total: number;
  /** Entries embedded now. */
  embedded: number;
  /** Index rows dropped because their entry no longer exists. */
  removed: number;
}

/** Constructor options of {@link SemanticMemory}. */
export interface SemanticMemoryOptions {
  storage: StorageAdapter;
  embedder: Embedder;
  /** A full or partial configuration (validated with `resolveConfig`). */
  config?: MemoryConfigInput;
  /** Resolves relative time expressions in queries ("yesterday"). Default `Date.now`. */
  clock?: Clock;
}

interface TenantIndex {
  modelId: string;
  dim: number;
  index: VectorIndex;
  /** BM25 over the entries' `metadata.context` (only entries that have one). */
  context: LexicalIndex;
  /**
   * The names the tenant's memories mention (`namesInText`, folded), for reading a query's name
   * across spelling variants, and the people among them, for reading a question typed in lower
   * case (`KnownNames`). Only grows: a name whose memories are gone resolves to nothing found.
   */
  names: KnownNames;
}

const MODES: readonly RecallMode[] = ['hybrid', 'lexical', 'vector'];
const PAGE = 1000;

/**
 * Hybrid recall over a tenant's memories: BM25 (from the storage adapter) and cosine similarity
 * (an in-memory {@link VectorIndex} per tenant, hydrated lazily from stored vectors of the
 * embedder's model) fused (weighted score fusion by default, or weighted reciprocal-rank fusion)
 * into a 0..1 score and cut by an adaptive threshold. Vectors of another model id or dimension are never loaded or compared.
 *
 * Entries themselves are stored by the caller (`LongTermMemory`); this class stores their vectors.
 */
export class SemanticMemory {
  readonly #storage: StorageAdapter;
  readonly #embedder: Embedder;
  readonly #config: MemoryConfig;
  readonly #clock: Clock;
  readonly #cache: LruCache<string, Float32Array>;
  readonly #indexes = new Map<string, Promise<TenantIndex>>();
  /** The names of each loaded tenant (`TenantIndex.names`), to read a query without waiting. */
  readonly #known = new Map<string, KnownNames>();
  readonly #readingVectors = new WeakMap<QueryReading, Promise<Float32Array>>();
  /** Query embeddings under way, by cache key: a second ask for the same text waits on the first. */
  readonly #pendingQueries = new Map<string, Promise<Float32Array>>();
  /** The model the embedder reported when it was last ready. */
  #model: VectorModel | undefined;

  constructor(options: SemanticMemoryOptions) {
    if (typeof options !== 'object' || options === null)
      invalid('options', 'an object with storage and embedder', options);
    const { storage, embedder, config, clock = systemClock } = options;
    if (typeof clock !== 'function') invalid('clock', 'a function returning epoch milliseconds', clock);
    if (typeof storage?.lexicalSearch !== 'function') invalid('storage', 'a StorageAdapter', storage);
    if (typeof embedder?.embed !== 'function') invalid('embedder', 'an Embedder', embedder);
    this.#storage = storage;
    this.#embedder = embedder;
    this.#config = resolveConfig(config ?? {});
    this.#clock = clock;
    this.#cache = new LruCache(this.#config.embeddingCacheSize);
  }

  /** The embedding model vectors are kept for (known after the embedder is ready). */
  get model(): VectorModel {
    return { id: this.#embedder.modelId, dim: this.#embedder.dim };
  }

  /**
   * Embed the entries' text, store the vectors (`putVectors`) and update loaded indexes. Call it
   * after the entries themselves are stored (a search treats a vector without an entry as stale).
   * Resolves once the vectors are stored; failures reject (nothing is swallowed).
   */
  async add(entries: MemoryEntry[], options: EmbedOptions = {}): Promise<void> {
    if (!Array.isArray(entries)) invalid('entries', 'an array of entries', entries);
    entries.forEach((e, i) => {
      if (typeof e !== 'object' || e === null) invalid(`entries[${i}]`, 'an entry', e);
      checkId(`entries[${i}].tenantId`, e.tenantId);
      checkId(`entries[${i}].id`, e.id);
    });
    if (entries.length === 0) return;
    const model = await this.#readyModel();
    const vectors = await this.#embed(
      entries.map((e) => indexedText(e, this.#config.limits.embedChars)),
      model,
      options,
    );
    const byTenant = new Map<
      string,
      { entry: MemoryEntry; id: string; vector: Float32Array; context: string | undefined }[]
    >();
    entries.forEach((e, i) => {
      let list = byTenant.get(e.tenantId);
      if (!list) byTenant.set(e.tenantId, (list = []));
      list.push({ entry: e, id: e.id, vector: vectors[i]!, context: lexicalContextOf(e) });
    });
    for (const [tenantId, records] of byTenant) {
      await this.#storage.putVectors(
        tenantId,
        model,
        records.map(({ id, vector }) => ({ id, vector })),
      );
      const loaded = this.#indexes.get(tenantId);
      if (!loaded) continue;
      const t = await loaded;
      if (t.modelId !== model.id || t.dim !== model.dim) continue;
      for (const r of records) {
        t.index.upsert(r.id, r.vector);
        setContext(t.context, r.id, r.context);
        addNames(t.names, r.entry);
      }
    }
  }

  /**
   * Drop `ids` from the tenant's loaded index. Stored vectors go with their entries
   * (`storage.delete`), so call this after deleting the entries.
   */
  async remove(tenantId: string, ids: string[]): Promise<void> {
    checkId('tenantId', tenantId);
    if (!Array.isArray(ids)) invalid('ids', 'an array of ids', ids);
    const loaded = this.#indexes.get(tenantId);
    if (!loaded) return;
    const t = await loaded;
    for (const id of ids) {
      t.index.remove(id);
      t.context.remove(id);
    }
  }

  /**
   * Make the next search of `tenantId` as fast as the ones after it: load the tenant's index
   * (vectors, context, names) and run the embedder once, so the model's first inference (session
   * start-up, WASM compilation) does not land on a user's first question.
   */
  async warm(tenantId: string): Promise<void> {
    checkId('tenantId', tenantId);
    const model = await this.#readyModel();
    await Promise.all([this.#tenant(tenantId), this.#embed(['warm-up'], model, {})]);
  }

  /**
   * The people the tenant's memories are of, folded (their speakers, whom memories were formed
   * about, and the spellings of theirs the memories use; `KnownNames`), for reading a question
   * (`readQuery`). Loads the tenant's index. Grows as memories are added; do not change it.
   */
  async people(tenantId: string): Promise<ReadonlySet<string>> {
    checkId('tenantId', tenantId);
    return (await this.#tenant(tenantId)).names.people;
  }

  /**
   * The people of {@link people} when the tenant's index is loaded already, at once; `undefined`
   * when it is not (nothing is loaded).
   */
  loadedPeople(tenantId: string): ReadonlySet<string> | undefined {
    return this.#known.get(tenantId)?.people;
  }

  /** Forget the loaded index of `tenantId` (or of every tenant); it reloads from storage on next use. */
  unload(tenantId?: string): void {
    if (tenantId === undefined) {
      this.#indexes.clear();
      this.#known.clear();
    } else {
      this.#indexes.delete(tenantId);
      this.#known.delete(tenantId);
    }
  }

  /** Number of vectors in the tenant's index for the current model (loads it). */
  async vectorCount(tenantId: string): Promise<number> {
    checkId('tenantId', tenantId);
    return (await this.#tenant(tenantId)).index.size;
  }

  /**
   * Recall the memories most relevant to `query`, best first. Filters restrict the candidates
   * before ranking. Returns `[]` for a blank query or when nothing matches at all; otherwise at
   * least the best hit (top-1 fallback when none passes the threshold).
   */
  async search(
    tenantId: string,
    query: string | QueryReading,
    options: SemanticSearchOptions = {},
  ): Promise<RecallHit[]> {
    checkId('tenantId', tenantId);
    const given = typeof query === 'object' && query !== null ? query : undefined;
    if (given ? typeof given.text !== 'string' : typeof query !== 'string')
      invalid('query', 'a string or a QueryReading', query);
    if (typeof options !== 'object' || options === null) invalid('options', 'an object', options);
    const o = this.#searchOptions(options);
    const text = given ? given.text : (query as string);
    if (text.trim().length === 0) return [];
    const stage = o.onStage;
    let reading = given;
    if (!reading) {
      // Read at once when the tenant is loaded, so that the query's embedding starts in this task
      // (an ask for it under way is then shared; see `embedQuery`).
      const people = this.loadedPeople(tenantId) ?? (await this.people(tenantId));
      stage?.('read', 'start');
      reading = readQuery(text, o.now ?? this.#clock(), people);
      stage?.('read', 'end');
    }

    const hasFilter = o.filter !== undefined && Object.keys(o.filter).length > 0;
    let allowed: Map<string, MemoryEntry> | undefined;
    if (hasFilter) {
      const matching = await this.#storage.query({ ...o.filter, tenantId });
      allowed = new Map(matching.map((e) => [e.id, e]));
      if (allowed.size === 0) return [];
    }
    const filter = hasFilter ? o.filter : undefined;
    const names = new Map<QueryReading, Promise<readonly string[]>>();
    const namesOf = (r: QueryReading) => {
      let n = names.get(r);
      if (!n) names.set(r, (n = this.#names(tenantId, r)));
      return n;
    };
    const source: RecallSource = {
      allowed,
      names: namesOf,
      lexical: async (r, limit) =>
        this.#lexical(tenantId, r, await namesOf(r), limit, filter, allowed, o.contextWeight, stage),
      vector: (r, limit) => this.#vector(tenantId, r, limit, allowed, stage),
      similarities: (r, ids) => this.#similarities(tenantId, r, ids),
      fetch: (ids) => this.#fetch(tenantId, ids),
      size: async () => (await this.#tenant(tenantId)).index.size,
      dropStale: (id) => this.#dropStale(tenantId, id),
    };
    const plan: RecallPlan = {
      topK: o.topK,
      minScore: o.minScore,
      ratio: o.ratio,
      mode: o.mode,
      fusion: o.fusion,
      rrfK: o.rrfK,
      exponent: o.fusionExponent,
      completeScores: o.completeScores,
      weights: o.weights,
      candidates: o.candidates,
      timeBoost: o.timeBoost,
      entityBoost: o.entityBoost,
      subjectBoost: o.subjectBoost,
      gated: o.minScore === undefined,
      floors:
        o.minScore === undefined
          ? relevanceFloors(this.#embedder.modelId, o.minSimilarity ?? this.#config.minSimilarity)
          : undefined,
      onStage: stage,
    };
    return hybridRecall(source, reading, plan);
  }

  /**
   * Embed every entry of the tenant that has no vector for the current model (all of them with
   * `force`), store the vectors and update the index; drop index rows of deleted entries. Use it
   * after a model change or an import. Rejects with `ABORTED` when `signal` fires (vectors stored
   * so far are kept).
   */
  async reindex(tenantId: string, options: ReindexOptions = {}): Promise<ReindexReport> {
    checkId('tenantId', tenantId);
    const { batchSize = 64, force = false, signal, onProgress } = options;
    if (!Number.isInteger(batchSize) || batchSize < 1) invalid('batchSize', 'an integer >= 1', batchSize);
    checkAborted(signal);
    const model = await this.#readyModel();
    const t = await this.#tenant(tenantId);

    const live = new Set<string>();
    const todo: MemoryEntry[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.#storage.query({ tenantId, orderBy: 'createdAt', order: 'asc', limit: PAGE, offset });
      for (const e of page) {
        live.add(e.id);
        setContext(t.context, e.id, lexicalContextOf(e));
        addNames(t.names, e);
        if (force || !t.index.has(e.id)) todo.push(e);
      }
      if (page.length < PAGE) break;
    }
    let removed = 0;
    for (const id of t.index.ids()) {
      if (!live.has(id)) {
        t.index.remove(id);
        t.context.remove(id);
        removed++;
      }
    }
    let embedded = 0;
    onProgress?.(0, todo.length);
    for (let i = 0; i < todo.length; i += batchSize) {
      checkAborted(signal);
      const batch = todo.slice(i, i + batchSize);
      const vectors = await this.#embed(
        batch.map((e) => indexedText(e, this.#config.limits.embedChars)),
        model,
        signal ? { signal } : {},
      );
      const records = batch.map((e, j) => ({ id: e.id, vector: vectors[j]! }));
      await this.#storage.putVectors(tenantId, model, records);
      for (const r of records) t.index.upsert(r.id, r.vector);
      embedded += batch.length;
      onProgress?.(embedded, todo.length);
    }
    return { total: live.size, embedded, removed };
  }

  /**
   * The query vector for `text`, from an LRU cache of `config.embeddingCacheSize` (a copy). Asks
   * for a text whose embedding is under way share that one model call, so a caller can start the
   * embedding early (see the manager's search) and the search that needs it waits on the same call.
   */
  async embedQuery(text: string): Promise<Float32Array> {
    if (typeof text !== 'string') invalid('text', 'a string', text);
    // The model as last seen ready, when the embedder still reports it: the embedding call then
    // starts in this task (a worker's request is posted before the search's lexical side runs).
    const known = this.#model;
    const model =
      known && known.id === this.#embedder.modelId && known.dim === this.#embedder.dim
        ? known
        : await this.#readyModel();
    const key = `${model.id}\u0000${text}`;
    let vec = this.#cache.get(key);
    if (!vec) {
      let pending = this.#pendingQueries.get(key);
      if (!pending) {
        pending = this.#embed([text], model, {})
          .then(([v]) => {
            this.#cache.set(key, v!);
            return v!;
          })
          .finally(() => this.#pendingQueries.delete(key));
        this.#pendingQueries.set(key, pending);
      }
      vec = await pending;
    }
    return vec.slice();
  }

  /** The query's names as the tenant's memories spell them (see `RecallSource.names`). */
  async #names(tenantId: string, reading: QueryReading): Promise<readonly string[]> {
    if (reading.names.length === 0) return [];
    const known = (await this.#tenant(tenantId)).names.names;
    const out = new Set<string>();
    for (const n of reading.names) {
      const r = resolveName(n, known);
      for (const x of r.length > 0 ? r : [n]) out.add(x);
    }
    return [...out];
  }

  async #lexical(
    tenantId: string,
    reading: QueryReading,
    names: readonly string[],
    limit: number,
    filter: Omit<MemoryFilter, 'tenantId'> | undefined,
    allowed: Map<string, MemoryEntry> | undefined,
    contextWeight: number,
    stage: StageListener | undefined,
  ): Promise<LexicalHit[]> {
    stage?.('lexical', 'start');
    // Adapters tokenise their own way and not all drop stopwords (e.g. a plain FTS tokenizer): send only
    // the words that carry meaning, unless that leaves nothing.
    // Also the spellings the store knows of the query's names, and the words that answer a
    // class the query asks for ("sibling" → sister, brother).
    const words = new Set(reading.keywords);
    for (const n of names) words.add(n);
    for (const e of reading.expansions.values()) for (const w of e.words) words.add(w);
    const text = words.size > 0 ? [...words].join(' ') : reading.text;
    const own = await this.#storage.lexicalSearch({ tenantId, query: text, limit, ...(filter ? { filter } : {}) });
    let hits = allowed ? own.filter((h) => allowed.has(h.id)) : own;
    if (contextWeight > 0) {
      const t = await this.#tenant(tenantId);
      const ctx =
        t.context.size === 0
          ? []
          : t.context.searchTerms(reading.terms, limit, allowed ? (id) => allowed.has(id) : undefined);
      if (ctx.length > 0) {
        const scores = new Map(hits.map((h) => [h.id, h.score]));
        for (const h of ctx) scores.set(h.id, (scores.get(h.id) ?? 0) + contextWeight * h.score);
        hits = [...scores]
          .map(([id, score]) => ({ id, score }))
          .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
          .slice(0, limit);
      }
    }
    stage?.('lexical', 'end');
    return hits;
  }

  async #vector(
    tenantId: string,
    reading: QueryReading,
    limit: number,
    allowed: Map<string, MemoryEntry> | undefined,
    stage: StageListener | undefined,
  ): Promise<Scored[]> {
    stage?.('embed', 'start');
    const q = await this.#queryVector(reading);
    stage?.('embed', 'end');
    if (!q.some((x) => x !== 0)) return [];
    const t = await this.#tenant(tenantId);
    if (t.index.size === 0) return [];
    stage?.('vector', 'start');
    const hits = t.index.search(q, limit, allowed ? (id) => allowed.has(id) : undefined);
    stage?.('vector', 'end');
    // Non-positive cosine is no evidence of relevance; keeping it would let noise into the fusion.
    return hits.filter((h) => h.score > 0);
  }

  /** The query vector of a reading: embedded (or taken from the LRU cache) once per reading. */
  #queryVector(reading: QueryReading): Promise<Float32Array> {
    let v = this.#readingVectors.get(reading);
    if (!v) {
      v = this.embedQuery(reading.text);
      this.#readingVectors.set(reading, v);
      // A failed embedding must not stay attached to the reading: the next search retries.
      v.catch(() => this.#readingVectors.delete(reading));
    }
    return v;
  }

  /** The entries of `ids` by id (entries deleted meanwhile are absent). */
  async #fetch(tenantId: string, ids: readonly string[]): Promise<Map<string, MemoryEntry>> {
    return new Map((await this.#storage.getMany(tenantId, [...ids])).map((e) => [e.id, e]));
  }

  /** Cosine similarity to the query of each of `ids` that has a vector in the index. */
  async #similarities(tenantId: string, reading: QueryReading, ids: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (ids.length === 0) return out;
    const t = await this.#tenant(tenantId);
    if (t.index.size === 0) return out;
    const q = await this.#queryVector(reading);
    let norm = 0;
    for (let d = 0; d < q.length; d++) norm += q[d]! * q[d]!;
    if (!(norm > 0)) return out;
    norm = Math.sqrt(norm);
    for (const id of ids) {
      const dot = t.index.dot(id, q);
      if (dot !== undefined) out.set(id, dot / norm);
    }
    return out;
  }

  #tenant(tenantId: string): Promise<TenantIndex> {
    const existing = this.#indexes.get(tenantId);
    if (existing) {
      return existing.then((t) => {
        if (t.modelId === this.#embedder.modelId && t.dim === this.#embedder.dim) return t;
        // The embedder now reports another model: the loaded vectors are of the wrong space.
        if (this.#indexes.get(tenantId) === existing) this.#indexes.delete(tenantId);
        return this.#tenant(tenantId);
      });
    }
    const loading = this.#load(tenantId);
    this.#indexes.set(tenantId, loading);
    // A failed load must not stay cached: the next call retries.
    loading.catch(() => {
      if (this.#indexes.get(tenantId) === loading) this.#indexes.delete(tenantId);
    });
    return loading;
  }

  async #load(tenantId: string): Promise<TenantIndex> {
    const model = await this.#readyModel();
    const [block, { context, names }] = await Promise.all([
      this.#storage.loadVectors(tenantId, model.id),
      this.#loadContext(tenantId),
    ]);
    const usable = block !== undefined && block.model.id === model.id && block.model.dim === model.dim;
    const index = usable ? VectorIndex.fromBlock(block) : new VectorIndex(model.dim);
    this.#known.set(tenantId, names);
    return { modelId: model.id, dim: model.dim, index, context, names };
  }

  /**
   * The context index and the names of a tenant, from its stored entries. One pass over the
   * tenant when it is first searched (about 0.1 s at 10k in-memory entries, 1.5 s at 100k);
   * later changes arrive through `add` and `remove`.
   */
  async #loadContext(tenantId: string): Promise<{ context: LexicalIndex; names: KnownNames }> {
    const context = new LexicalIndex();
    const names = new KnownNames();
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.#storage.query({ tenantId, orderBy: 'createdAt', order: 'asc', limit: PAGE, offset });
      for (const e of page) {
        setContext(context, e.id, lexicalContextOf(e));
        addNames(names, e);
      }
      if (page.length < PAGE) break;
    }
    return { context, names };
  }

  async #dropStale(tenantId: string, id: string): Promise<void> {
    const loaded = this.#indexes.get(tenantId);
    if (!loaded) return;
    const t = await loaded;
    t.index.remove(id);
    t.context.remove(id);
  }

  async #readyModel(): Promise<VectorModel> {
    try {
      await this.#embedder.ready();
    } catch (err) {
      throw wrapError('EMBEDDING', 'Embedder failed to load', err);
    }
    const model = { id: this.#embedder.modelId, dim: this.#embedder.dim };
    if (typeof model.id !== 'string' || model.id.length === 0 || !Number.isInteger(model.dim) || model.dim < 1)
      throw new ZerdaError(
        'EMBEDDING',
        `Embedder reports an unusable model (${String(model.id)}, dim ${String(model.dim)})`,
      );
    this.#model = model;
    return model;
  }

  async #embed(texts: string[], model: VectorModel, options: EmbedOptions): Promise<Float32Array[]> {
    let vectors: Float32Array[];
    try {
      vectors = await this.#embedder.embed(texts, options);
    } catch (err) {
      throw wrapError('EMBEDDING', 'Embedding failed', err);
    }
    if (!Array.isArray(vectors) || vectors.length !== texts.length)
      throw new ZerdaError('EMBEDDING', `Embedder returned ${vectors?.length} vectors for ${texts.length} texts`);
    for (const v of vectors) {
      if (!(v instanceof Float32Array) || v.length !== model.dim)
        throw new ZerdaError('EMBEDDING', `Embedder returned a vector of length ${v?.length}, expected ${model.dim}`);
    }
    return vectors;
  }

  #searchOptions(options: SemanticSearchOptions) {
    const {
      topK = this.#config.retrievalLimit,
      minScore,
      minSimilarity,
      ratio = DEFAULT_THRESHOLD_RATIO,
      mode = 'hybrid',
      filter,
      rrfK = DEFAULT_RRF_K,
      fusion = DEFAULT_FUSION_METHOD,
      fusionExponent = DEFAULT_FUSION_EXPONENT,
      completeScores = true,
      contextWeight = DEFAULT_CONTEXT_WEIGHT,
      timeBoost = DEFAULT_TIME_BOOST,
      entityBoost = DEFAULT_ENTITY_BOOST,
      subjectBoost = DEFAULT_SUBJECT_BOOST,
      now,
      onStage,
    } = options;
    if (fusion !== 'rrf' && fusion !== 'score') invalid('fusion', "'rrf' | 'score'", fusion);
    if (!Number.isInteger(topK) || topK < 1) invalid('topK', 'an integer >= 1', topK);
    if (minScore !== undefined && (typeof minScore !== 'number' || !(minScore >= 0 && minScore <= 1)))
      invalid('minScore', 'a number in [0, 1]', minScore);
    if (
      minSimilarity !== undefined &&
      (typeof minSimilarity !== 'number' || !(minSimilarity >= 0 && minSimilarity <= 1))
    )
      invalid('minSimilarity', 'a number in [0, 1]', minSimilarity);
    if (typeof ratio !== 'number' || !(ratio >= 0 && ratio <= 1)) invalid('ratio', 'a number in [0, 1]', ratio);
    if (!MODES.includes(mode)) invalid('mode', "'hybrid' | 'lexical' | 'vector'", mode);
    if (typeof rrfK !== 'number' || !Number.isFinite(rrfK) || rrfK < 0) invalid('rrfK', 'a finite number >= 0', rrfK);
    if (typeof fusionExponent !== 'number' || !Number.isFinite(fusionExponent) || !(fusionExponent > 0))
      invalid('fusionExponent', 'a finite number > 0', fusionExponent);
    if (typeof completeScores !== 'boolean') invalid('completeScores', 'a boolean', completeScores);
    if (filter !== undefined && (typeof filter !== 'object' || filter === null || Array.isArray(filter)))
      invalid('filter', 'an object', filter);
    if (filter && 'tenantId' in filter)
      invalid('filter.tenantId', 'no tenantId (pass it as the first argument)', 'present');
    const weights = { ...DEFAULT_FUSION_WEIGHTS, ...(options.weights ?? {}) };
    for (const k of ['lexical', 'vector'] as const) {
      const w = weights[k];
      if (typeof w !== 'number' || !Number.isFinite(w) || w < 0) invalid(`weights.${k}`, 'a finite number >= 0', w);
    }
    if (mode === 'hybrid' && weights.lexical === 0 && weights.vector === 0)
      invalid('weights', 'at least one weight > 0', weights);
    const candidates = options.candidates ?? defaultCandidates(topK);
    if (!Number.isInteger(candidates) || candidates < topK)
      invalid('candidates', `an integer >= topK (${topK})`, candidates);
    if (typeof contextWeight !== 'number' || !Number.isFinite(contextWeight) || contextWeight < 0)
      invalid('contextWeight', 'a finite number >= 0', contextWeight);
    if (typeof timeBoost !== 'number' || !Number.isFinite(timeBoost) || timeBoost < 0)
      invalid('timeBoost', 'a finite number >= 0', timeBoost);
    if (typeof entityBoost !== 'number' || !Number.isFinite(entityBoost) || entityBoost < 0)
      invalid('entityBoost', 'a finite number >= 0', entityBoost);
    if (typeof subjectBoost !== 'number' || !Number.isFinite(subjectBoost) || subjectBoost < 0)
      invalid('subjectBoost', 'a finite number >= 0', subjectBoost);
    if (now !== undefined && (typeof now !== 'number' || !Number.isFinite(now)))
      invalid('now', 'epoch milliseconds', now);
    if (onStage !== undefined && typeof onStage !== 'function') invalid('onStage', 'a function', onStage);
    return {
      topK,
      minScore,
      minSimilarity,
      ratio,
      mode,
      filter,
      rrfK,
      fusion,
      fusionExponent,
      completeScores,
      weights,
      candidates,
      contextWeight,
      timeBoost,
      entityBoost,
      subjectBoost,
      now,
      onStage,
    };
  }
}

/**
 * Add the names `entry` mentions to `names`, and whom it is of as a person: its speaker and the
 * person a formed memory is about, not the user (their id, or a transcript's `User:` label).
 */
function addNames(names: KnownNames, entry: MemoryEntry): void {
  const text = entryText(entry);
  for (const n of namesInText(text)) names.addName(n);
  const speaker = speakerName(text);
  if (speaker !== undefined && speaker.length >= 2 && !USER_LABEL_RE.test(speaker)) names.addPerson(speaker);
  const about = entry.metadata?.about;
  if (typeof about === 'string' && !about.includes("'")) {
    const n = foldName(about);
    if (n.length < 3) return;
    if (USER_LABEL_RE.test(n) || about.toLowerCase() === entry.userId?.toLowerCase()) names.addName(n);
    else names.addPerson(n);
  }
}

function setContext(index: LexicalIndex, id: string, context: string | undefined): void {
  if (context === undefined) index.remove(id);
  else index.add(id, context);
}

function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ZerdaError('ABORTED', 'Operation was aborted', { cause: signal.reason });
}

/** Default {@link SemanticSearchOptions.candidates} for `topK`: how many each signal ranks before fusion. */
export function defaultCandidates(topK: number): number {
  return Math.max(50, 5 * topK);
}
